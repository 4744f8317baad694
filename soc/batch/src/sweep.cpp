// soc/batch/src/sweep.cpp -- `blsim sweep`'s spec (docs/sweeps.md): the parameters, their
// values, ranges and random draws, the points and their ids, each point's overrides checked,
// the manifest. Running the points and merging shards: sweep_run.cpp; reading their metrics:
// sweep_metrics.cpp.
#include "blsim/soc/sweep.h"
#include "blsim/soc/results_dir.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <random>
#include <set>
#include <sstream>

#include "blsim/soc/child_runs.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"
#include "blsim/soc/exit_codes.h"
#include "sweep_detail.h"

namespace blsim::soc {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;

namespace {

constexpr const char* builtin_prefix = "builtin:";

// Limits that keep a typo from asking for a million runs.
constexpr long long max_values = 10000;   // values of one parameter item
constexpr long long max_points = 100000;  // points of a sweep

std::uint64_t fnv1a64(const std::string& s)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string hex(std::uint64_t v, int digits)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(v));
    return buf;
}

} // namespace

namespace sweep_detail {

std::string real_text(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".eEn") == std::string::npos)
        s += ".0";
    return s;
}

std::string number_text(double v)
{
    if (v == 0)
        v = 0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

} // namespace sweep_detail

namespace {

using sweep_detail::number_text;
using sweep_detail::real_text;

std::string resolve_relative(const std::string& from_file, const std::string& ref)
{
    const bool builtin = from_file.rfind(builtin_prefix, 0) == 0;
    const fs::path base(builtin ? from_file.substr(std::strlen(builtin_prefix)) : from_file);
    if (ref.rfind(builtin_prefix, 0) == 0 || fs::path(ref).is_absolute())
        return ref;
    const std::string joined = (base.parent_path() / fs::path(ref)).lexically_normal().string();
    return builtin ? builtin_prefix + joined : joined;
}

// --- the spec -----------------------------------------------------------------------------

// A value with where the spec gave it.
struct located_value {
    sweep_value v;
    mark at;
};

// One parameter key and its values.
struct axis {
    std::string key;
    mark key_at;
    std::string where; // "parameters[1]" or "parameters[0].zip[1]"
    std::vector<located_value> values;
};

// One item of 'parameters': one axis, several (zip) whose values advance together, or several
// (one_at_a_time) of which each point sets at most one.
struct item {
    std::vector<axis> axes;
    bool one_at_a_time = false;

    // The item's rows: the points it contributes to the cartesian product.
    std::size_t size() const
    {
        if (!one_at_a_time)
            return axes.empty() ? 0 : axes[0].values.size();
        std::size_t n = 1; // the base: no member set
        for (const axis& a : axes)
            n += a.values.size();
        return n;
    }

    // Row @r as (axis, value) indices: every axis at its r-th value (a zip, or one axis); for
    // one_at_a_time, none for row 0 (the base), then each member's values in turn, alone.
    std::vector<std::pair<std::size_t, std::size_t>> row(std::size_t r) const
    {
        std::vector<std::pair<std::size_t, std::size_t>> out;
        if (!one_at_a_time) {
            for (std::size_t j = 0; j < axes.size(); j++)
                out.emplace_back(j, r);
            return out;
        }
        if (r == 0)
            return out;
        r--;
        for (std::size_t j = 0; j < axes.size(); j++) {
            if (r < axes[j].values.size()) {
                out.emplace_back(j, r);
                break;
            }
            r -= axes[j].values.size();
        }
        return out;
    }
};

bool is_null_scalar(const node& n)
{
    return n.is_null() || (n.is_scalar() && n.plain && (n.value.empty() || n.value == "~" || n.value == "null" ||
                                                        n.value == "Null" || n.value == "NULL"));
}

bool parse_bool(const node& n, bool& b)
{
    if (!n.is_scalar() || !n.plain)
        return false;
    if (n.value == "true" || n.value == "True" || n.value == "TRUE") {
        b = true;
        return true;
    }
    if (n.value == "false" || n.value == "False" || n.value == "FALSE") {
        b = false;
        return true;
    }
    return false;
}

// A scalar as a typed value: plain integers, reals and booleans as such, anything else (and
// every quoted scalar) as a string. False for nothing, a list or a mapping.
bool scalar_value(const node& n, sweep_value& v)
{
    if (!n.is_scalar() || is_null_scalar(n))
        return false;
    v = sweep_value{};
    long long i = 0;
    double r = 0;
    bool b = false;
    if (!n.plain) {
        v.t = sweep_value::type::string;
        v.s = n.value;
    } else if (cfg::parse_integer(n, i)) {
        v.t = sweep_value::type::integer;
        v.i = i;
    } else if (cfg::parse_real(n, r)) {
        v.t = sweep_value::type::real;
        v.r = r;
    } else if (parse_bool(n, b)) {
        v.t = sweep_value::type::boolean;
        v.b = b;
    } else {
        v.t = sweep_value::type::string;
        v.s = n.value;
    }
    return true;
}

// Reports the keys of mapping @m that are not in @known.
void check_keys(const node& m, const std::string& where, const std::vector<std::string>& known, diagnostics& d)
{
    for (std::size_t i = 0; i < m.keys.size(); i++)
        if (std::find(known.begin(), known.end(), m.keys[i]) == known.end())
            d.error(m.key_marks[i], "unknown key '" + m.keys[i] + "'" + (where.empty() ? "" : " in " + where) +
                                        " (did you mean '" + cfg::closest_key(m.keys[i], known) + "'?)");
}

bool dotted_key(const std::string& k)
{
    if (k.empty() || k.front() == '.' || k.back() == '.' || k.find("..") != std::string::npos)
        return false;
    return std::all_of(k.begin(), k.end(), [](char c) {
        return c > ' ' && c != '=' && c != 0x7f;
    });
}

// A number of a range or random mapping: an integer (@is_int) or a real.
bool number(const node& n, const std::string& where, diagnostics& d, bool& is_int, long long& i, double& r)
{
    is_int = cfg::parse_integer(n, i);
    if (is_int) {
        r = static_cast<double>(i);
        return true;
    }
    if (cfg::parse_real(n, r))
        return true;
    d.error(n.at, where + ": expected a number, got " + cfg::describe(n));
    return false;
}

// A required key of mapping @m; reports it missing.
const node* required(const node& m, const char* key, const std::string& where, diagnostics& d)
{
    const node* n = m.find(key);
    if (!n)
        d.error(m.at, where + ": missing required key '" + key + "'");
    return n;
}

void parse_values(const node& n, const std::string& where, axis& a, diagnostics& d)
{
    if (!n.is_seq()) {
        d.error(n.at, where + ": expected a list, got " + cfg::describe(n));
        return;
    }
    if (n.items.empty()) {
        d.error(n.at, where + ": the list is empty (a parameter needs at least one value)");
        return;
    }
    if (static_cast<long long>(n.items.size()) > max_values) {
        d.error(n.at, where + ": " + std::to_string(n.items.size()) + " values (at most " +
                          std::to_string(max_values) + ")");
        return;
    }
    std::map<std::string, std::size_t> seen;
    for (std::size_t k = 0; k < n.items.size(); k++) {
        const node& it = n.items[k];
        const std::string w = where + "[" + std::to_string(k) + "]";
        located_value lv;
        lv.at = it.at;
        if (it.is_seq()) {
            // A list of scalars, for a key that takes a list (online_cpus: [0, 1]).
            lv.v = sweep_value{};
            lv.v.t = sweep_value::type::list;
            bool ok = true;
            for (std::size_t e = 0; e < it.items.size() && ok; e++) {
                sweep_value x;
                if (!scalar_value(it.items[e], x)) {
                    d.error(it.items[e].at, w + "[" + std::to_string(e) +
                                                "]: a list value holds numbers, booleans or strings, got " +
                                                cfg::describe(it.items[e]));
                    ok = false;
                }
                lv.v.items.push_back(x);
            }
            if (!ok)
                continue;
        } else if (!scalar_value(it, lv.v)) {
            d.error(it.at, w + ": expected a number, a boolean, a string or a list of them, got " + cfg::describe(it));
            continue;
        }
        const std::string c = lv.v.canonical();
        if (auto s = seen.find(c); s != seen.end()) {
            d.error(it.at, w + ": " + c + " is already in the list (" + where + "[" + std::to_string(s->second) + "])");
            continue;
        }
        seen[c] = k;
        a.values.push_back(lv);
    }
}

// Rounded to 12 significant digits, so that 0.1 + 2 * 0.1 reads 0.3.
double round12(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return std::strtod(buf, nullptr);
}

void parse_range(const node& n, const std::string& where, axis& a, diagnostics& d)
{
    if (!n.is_map()) {
        d.error(n.at, where + ": expected a mapping {from, to, step}, got " + cfg::describe(n));
        return;
    }
    check_keys(n, where, {"from", "to", "step"}, d);
    const node* from = required(n, "from", where, d);
    const node* to = required(n, "to", where, d);
    const node* step = required(n, "step", where, d);
    if (!from || !to || !step)
        return;
    bool int_from = false, int_to = false, int_step = false;
    long long i_from = 0, i_to = 0, i_step = 0;
    double r_from = 0, r_to = 0, r_step = 0;
    bool ok = number(*from, where + ".from", d, int_from, i_from, r_from);
    ok = number(*to, where + ".to", d, int_to, i_to, r_to) && ok;
    ok = number(*step, where + ".step", d, int_step, i_step, r_step) && ok;
    if (!ok)
        return;
    if (!(r_step > 0)) {
        d.error(step->at, where + ".step: must be greater than 0, got " + step->value);
        return;
    }
    if (r_to < r_from) {
        d.error(to->at, where + ".to: " + to->value + " is less than from (" + from->value + ")");
        return;
    }
    const double span = (r_to - r_from) / r_step;
    if (span + 1 > static_cast<double>(max_values)) {
        d.error(n.at, where + ": more than " + std::to_string(max_values) + " values");
        return;
    }
    const bool integers = int_from && int_to && int_step;
    if (integers) {
        const unsigned long long diff = static_cast<unsigned long long>(i_to) - static_cast<unsigned long long>(i_from);
        const long long count = static_cast<long long>(diff / static_cast<unsigned long long>(i_step)) + 1;
        for (long long k = 0; k < count; k++) {
            located_value lv;
            lv.at = n.at;
            lv.v.t = sweep_value::type::integer;
            lv.v.i = i_from + k * i_step;
            a.values.push_back(lv);
        }
        return;
    }
    const long long count = static_cast<long long>(std::floor(span + 1e-9)) + 1;
    for (long long k = 0; k < count; k++) {
        located_value lv;
        lv.at = n.at;
        lv.v.t = sweep_value::type::real;
        lv.v.r = round12(r_from + static_cast<double>(k) * r_step);
        if (!a.values.empty() && a.values.back().v.r == lv.v.r)
            continue; // a step finer than 12 digits
        a.values.push_back(lv);
    }
}

void parse_random(const node& n, const std::string& where, axis& a, diagnostics& d)
{
    if (!n.is_map()) {
        d.error(n.at, where + ": expected a mapping {min, max, count, seed, integer}, got " + cfg::describe(n));
        return;
    }
    check_keys(n, where, {"min", "max", "count", "seed", "integer"}, d);
    const node* min = required(n, "min", where, d);
    const node* max = required(n, "max", where, d);
    const node* count = required(n, "count", where, d);
    bool integer = false;
    if (const node* in = n.find("integer"); in && !parse_bool(*in, integer)) {
        d.error(in->at, where + ".integer: expected true or false, got " + cfg::describe(*in));
        return;
    }
    long long seed = 1, samples = 0;
    if (const node* s = n.find("seed"); s && (!cfg::parse_integer(*s, seed) || seed < 0)) {
        d.error(s->at, where + ".seed: expected a whole number >= 0, got " + cfg::describe(*s));
        return;
    }
    if (count && (!cfg::parse_integer(*count, samples) || samples < 1 || samples > max_values)) {
        d.error(count->at, where + ".count: expected a whole number 1.." + std::to_string(max_values) + ", got " +
                               cfg::describe(*count));
        return;
    }
    if (!min || !max || !count)
        return;
    bool int_min = false, int_max = false;
    long long i_min = 0, i_max = 0;
    double r_min = 0, r_max = 0;
    bool ok = number(*min, where + ".min", d, int_min, i_min, r_min);
    ok = number(*max, where + ".max", d, int_max, i_max, r_max) && ok;
    if (!ok)
        return;
    if (integer && (!int_min || !int_max)) {
        const node& bad = int_min ? *max : *min;
        d.error(bad.at, where + (int_min ? ".max" : ".min") + ": expected an integer (integer: true), got " +
                            cfg::describe(bad));
        return;
    }
    if (r_max < r_min) {
        d.error(max->at, where + ".max: " + max->value + " is less than min (" + min->value + ")");
        return;
    }
    // std::mt19937_64 is specified to the bit; the mapping to [min, max] is done here, in
    // integer arithmetic or one multiplication, rather than by a distribution whose algorithm
    // the standard leaves to the library.
    std::mt19937_64 gen(static_cast<std::uint64_t>(seed));
    std::set<std::string> seen;
    for (long long k = 0; k < samples; k++) {
        located_value lv;
        lv.at = n.at;
        if (integer) {
            const std::uint64_t span =
                static_cast<std::uint64_t>(i_max) - static_cast<std::uint64_t>(i_min) + 1; // 0: all 2^64
            std::uint64_t x = gen();
            if (span != 0) {
                const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span; // a multiple of span
                while (x >= limit)
                    x = gen();
                x %= span;
            }
            lv.v.t = sweep_value::type::integer;
            lv.v.i = static_cast<long long>(static_cast<std::uint64_t>(i_min) + x);
        } else {
            const double u = static_cast<double>(gen() >> 11) * 0x1.0p-53; // [0, 1)
            lv.v.t = sweep_value::type::real;
            lv.v.r = r_min + u * (r_max - r_min);
        }
        if (seen.insert(lv.v.canonical()).second) // a value drawn twice is kept once
            a.values.push_back(lv);
    }
}

// The values of one axis: exactly one of 'values', 'range', 'random' in mapping @m.
void parse_source(const node& m, const std::string& where, axis& a, diagnostics& d)
{
    const node* values = m.find("values");
    const node* range = m.find("range");
    const node* random = m.find("random");
    const int given = (values != nullptr) + (range != nullptr) + (random != nullptr);
    if (given == 0) {
        d.error(m.at, where + ": needs one of 'values', 'range' or 'random'");
        return;
    }
    if (given > 1) {
        d.error(m.at, where + ": 'values', 'range' and 'random' exclude each other (give one)");
        return;
    }
    if (values)
        parse_values(*values, where + ".values", a, d);
    else if (range)
        parse_range(*range, where + ".range", a, d);
    else
        parse_random(*random, where + ".random", a, d);
}

// One axis from mapping @m: its key and values.
// @all: the keys of the axes before, each with where it is.
bool parse_axis(const node& m, const std::string& where, std::vector<std::pair<std::string, std::string>>& all,
                axis& a, diagnostics& d)
{
    if (!m.is_map()) {
        d.error(m.at, where + ": expected a mapping {key, values | range | random}, got " + cfg::describe(m));
        return false;
    }
    check_keys(m, where, {"key", "values", "range", "random"}, d);
    const std::size_t before = d.count();
    const node* key = required(m, "key", where, d);
    a.where = where;
    if (key) {
        a.key_at = key->at;
        if (!key->is_scalar() || !dotted_key(key->value)) {
            d.error(key->at, where + ".key: expected a dotted configuration key, got " + cfg::describe(*key));
        } else if (key->value == "seed") {
            d.error(key->at, where + ".key: the seed is swept by 'seeds', not as a parameter");
        } else {
            a.key = key->value;
            for (const auto& [other_key, other_where] : all)
                if (other_key == a.key)
                    d.error(key->at, where + ".key: '" + a.key + "' is already swept by " + other_where);
        }
    }
    parse_source(m, where, a, d);
    return d.count() == before;
}

// The members of a zip or one_at_a_time item: a non-empty list of axes, each parsed into @it.
// False when any member is bad.
bool parse_members(const node& list, const std::string& where, const char* form,
                   std::vector<std::pair<std::string, std::string>>& all, item& it, diagnostics& d)
{
    if (!list.is_seq() || list.items.empty()) {
        d.error(list.at, where + "." + form + ": expected a list of {key, values | range | random}, got " +
                             (list.is_seq() ? std::string("an empty list") : cfg::describe(list)));
        return false;
    }
    it.axes.resize(list.items.size());
    bool ok = true;
    for (std::size_t j = 0; j < list.items.size(); j++) {
        const std::string w = where + "." + form + "[" + std::to_string(j) + "]";
        ok = parse_axis(list.items[j], w, all, it.axes[j], d) && ok;
        all.emplace_back(it.axes[j].key, it.axes[j].where);
    }
    return ok;
}

void parse_parameters(const node& n, std::vector<item>& items, diagnostics& d)
{
    if (!n.is_seq()) {
        if (!is_null_scalar(n))
            d.error(n.at, "parameters: expected a list, got " + cfg::describe(n));
        return;
    }
    std::vector<std::pair<std::string, std::string>> all;
    for (std::size_t k = 0; k < n.items.size(); k++) {
        const node& m = n.items[k];
        const std::string where = "parameters[" + std::to_string(k) + "]";
        item it;
        const node* zip = m.is_map() ? m.find("zip") : nullptr;
        const node* oat = m.is_map() ? m.find("one_at_a_time") : nullptr;
        if (zip && oat) {
            d.error(m.at, where + ": 'zip' and 'one_at_a_time' exclude each other (give one per item)");
            continue;
        }
        if (zip) {
            check_keys(m, where, {"zip"}, d);
            if (!parse_members(*zip, where, "zip", all, it, d))
                continue;
            bool ok = true;
            for (std::size_t j = 1; j < it.axes.size(); j++)
                if (it.axes[j].values.size() != it.axes[0].values.size()) {
                    d.error(zip->items[j].at, it.axes[j].where + ": " + std::to_string(it.axes[j].values.size()) +
                                                  " values, " + it.axes[0].where + " has " +
                                                  std::to_string(it.axes[0].values.size()) +
                                                  " (zip advances its lists together: they need equal lengths)");
                    ok = false;
                }
            if (!ok)
                continue;
        } else if (oat) {
            check_keys(m, where, {"one_at_a_time"}, d);
            it.one_at_a_time = true;
            bool ok = parse_members(*oat, where, "one_at_a_time", all, it, d);
            // results.csv shows a member a point leaves at the base as an empty cell: an empty
            // string as a member's value would read the same.
            for (const axis& a : it.axes)
                for (const located_value& lv : a.values)
                    if (lv.v.t == sweep_value::type::string && lv.v.s.empty()) {
                        d.error(lv.at, a.where + ": the empty string cannot be a one_at_a_time value (results.csv "
                                                 "shows a member left at the base as an empty cell)");
                        ok = false;
                    }
            if (!ok)
                continue;
        } else {
            it.axes.resize(1);
            const bool ok = parse_axis(m, where, all, it.axes[0], d);
            all.emplace_back(it.axes[0].key, it.axes[0].where);
            if (!ok)
                continue;
        }
        items.push_back(std::move(it));
    }
}

// Splits "file:line:col: text" (as cfg::diagnostics prints a located error) into its parts.
bool split_located(const std::string& msg, mark& at, std::string& text)
{
    for (std::size_t p = msg.find(':'); p != std::string::npos; p = msg.find(':', p + 1)) {
        std::size_t q = p + 1, line_end, col_end;
        while (q < msg.size() && std::isdigit(static_cast<unsigned char>(msg[q])))
            q++;
        if (q == p + 1 || q >= msg.size() || msg[q] != ':')
            continue;
        line_end = q++;
        while (q < msg.size() && std::isdigit(static_cast<unsigned char>(msg[q])))
            q++;
        col_end = q;
        if (col_end == line_end + 1 || msg.compare(col_end, 2, ": ") != 0)
            continue;
        at.file = msg.substr(0, p);
        at.line = std::atoi(msg.substr(p + 1, line_end - p - 1).c_str());
        at.col = std::atoi(msg.substr(line_end + 1, col_end - line_end - 1).c_str());
        text = msg.substr(col_end + 2);
        return true;
    }
    return false;
}

// The axis and value behind each parameter of a point, for locating its errors.
struct point_origin {
    std::vector<const axis*> axes;
    std::vector<const located_value*> values;
};

void validate_point(const sweep_spec& spec, const sweep_point& p, const point_origin& o, diagnostics& d,
                    std::set<std::string>& reported)
{
    std::vector<std::string> overrides;
    for (const auto& [key, v] : p.parameters)
        overrides.push_back(key + "=" + v.override_text());
    diagnostics pd;
    scenario_config cfg;
    if (load_scenario(spec.base_path, overrides, cfg, pd))
        return;
    std::string with;
    for (const auto& [key, v] : p.parameters)
        with += (with.empty() ? "" : ", ") + key + "=" + v.canonical();
    for (const std::string& msg : pd.messages()) {
        mark at;
        std::string text;
        mark where;
        std::string out;
        if (split_located(msg, at, text) && at.file == "--set" && at.line >= 1 &&
            static_cast<std::size_t>(at.line) <= p.parameters.size()) {
            const std::size_t k = static_cast<std::size_t>(at.line) - 1;
            const axis& a = *o.axes[k];
            if (static_cast<std::size_t>(at.col) <= a.key.size()) {
                where = a.key_at;
                out = a.where + " (" + a.key + "): " + text;
            } else {
                where = o.values[k]->at;
                out = a.where + " (" + a.key + "=" + p.parameters[k].second.canonical() + "): " + text;
            }
        } else if (split_located(msg, at, text)) {
            where = at;
            out = text + " (with " + with + ")";
        } else {
            out = msg + " (with " + with + ")";
        }
        if (reported.insert(where.str() + "\n" + out).second) {
            if (where.file.empty())
                d.error(out);
            else
                d.error(where, out);
        }
    }
}

json value_json(const sweep_value& v)
{
    switch (v.t) {
    case sweep_value::type::integer: return json(static_cast<std::int64_t>(v.i));
    case sweep_value::type::real: return json(v.r);
    case sweep_value::type::boolean: return json(v.b);
    case sweep_value::type::string: return json(v.s);
    case sweep_value::type::list: {
        json a = json::array();
        for (const sweep_value& x : v.items)
            a.push_back(value_json(x));
        return a;
    }
    }
    return json();
}

} // namespace


using sweep_detail::csv_cell;
using sweep_detail::json_value_text;
using sweep_detail::metric_of;
using sweep_detail::metrics_of_text;

// --- values and ids -----------------------------------------------------------------------

std::string sweep_value::canonical() const
{
    switch (t) {
    case type::integer: return std::to_string(i);
    case type::real: return real_text(r);
    case type::boolean: return b ? "true" : "false";
    case type::string: return s;
    case type::list: {
        std::string text = "[";
        for (std::size_t k = 0; k < items.size(); k++)
            text += (k ? ", " : "") + items[k].override_text();
        return text + "]";
    }
    }
    return "";
}

std::string sweep_value::override_text() const
{
    if (t != type::string)
        return canonical();
    const bool simple = !s.empty() && cfg::plain_safe(s) &&
                        std::isalnum(static_cast<unsigned char>(s.front())) &&
                        std::all_of(s.begin(), s.end(), [](char c) {
                            return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./-+", c);
                        });
    if (simple)
        return s;
    std::string q = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            q += '\\';
            q += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            q += buf;
        } else {
            q += static_cast<char>(c);
        }
    }
    return q + "\"";
}

std::string sweep_point_id(const std::vector<std::pair<std::string, sweep_value>>& parameters)
{
    std::vector<std::string> lines;
    for (const auto& [key, v] : parameters)
        lines.push_back(key + "=" + v.canonical() + "\n");
    std::sort(lines.begin(), lines.end());
    std::string all;
    for (const std::string& l : lines)
        all += l;
    return hex(fnv1a64(all) & 0xffffffffffffull, 12);
}

// --- loading ------------------------------------------------------------------------------

bool load_sweep_spec(const std::string& path, sweep_spec& out, diagnostics& diag)
{
    std::string text, error;
    if (!read_source(path, text, error)) {
        diag.error(path + ": cannot read: " + error);
        return false;
    }
    return load_sweep_spec_text(text, path, out, diag);
}

namespace {

// A scenario given where a sweep spec goes (an easy slip: both are YAML, and a sweep's
// directory sits next to the scenarios): one message that says so, rather than a "did you
// mean" for each of the scenario's keys.
bool scenario_given_for_spec(const node& root, const std::string& path, diagnostics& diag)
{
    if (!root.is_map() || root.keys.empty())
        return false;
    for (const char* k : {"base", "parameters", "seeds", "metrics"})
        if (root.find(k))
            return false;
    std::vector<std::string> scenario_keys;
    for (const cfg::doc_row& r : config_reference_rows())
        if (r.key.find_first_of(".[") == std::string::npos)
            scenario_keys.push_back(r.key);
    std::size_t known = 0;
    for (const std::string& k : root.keys)
        known += std::find(scenario_keys.begin(), scenario_keys.end(), k) != scenario_keys.end();
    if (known * 2 < root.keys.size())
        return false; // mostly not a scenario's keys either: the usual messages say more
    diag.error(root.at, "this is a scenario, not a sweep spec: a sweep spec names its scenario as "
                        "'base: " + path + "' and lists the keys to vary under 'parameters:' "
                        "(docs/sweeps.md); to run the scenario itself: blsim run " + path);
    return true;
}

} // namespace

bool load_sweep_spec_text(const std::string& text, const std::string& path, sweep_spec& out, diagnostics& diag,
                          bool validate_points)
{
    node root;
    if (!cfg::parse_yaml(text, path, root, diag))
        return false;
    const std::size_t before = diag.count();
    sweep_spec spec;
    spec.path = path;
    if (scenario_given_for_spec(root, path, diag))
        return false;
    check_keys(root, "", {"base", "parameters", "seeds", "metrics"}, diag);

    const node* base = required(root, "base", "document", diag);
    if (base && (!base->is_scalar() || is_null_scalar(*base)))
        diag.error(base->at, "base: expected a scenario file (a path, or builtin:...), got " + cfg::describe(*base));
    else if (base)
        spec.base = base->value;

    std::vector<item> items;
    if (const node* p = root.find("parameters"))
        parse_parameters(*p, items, diag);

    spec.seeds = {1};
    if (const node* s = root.find("seeds")) {
        spec.seeds.clear();
        if (!s->is_seq() || s->items.empty()) {
            diag.error(s->at, "seeds: expected a list of seeds (whole numbers 0..2147483647), got " +
                                  (s->is_seq() ? std::string("an empty list") : cfg::describe(*s)));
        } else {
            for (std::size_t k = 0; k < s->items.size(); k++) {
                const node& n = s->items[k];
                const std::string where = "seeds[" + std::to_string(k) + "]";
                long long v = 0;
                if (!cfg::parse_integer(n, v) || v < 0 || v > 2147483647) {
                    diag.error(n.at, where + ": expected a seed (a whole number 0..2147483647), got " + cfg::describe(n));
                    continue;
                }
                if (std::find(spec.seeds.begin(), spec.seeds.end(), v) != spec.seeds.end()) {
                    diag.error(n.at, where + ": seed " + std::to_string(v) + " is already in the list");
                    continue;
                }
                spec.seeds.push_back(v);
            }
        }
    }

    const node* metrics = required(root, "metrics", "document", diag);
    if (metrics) {
        if (!metrics->is_seq() || metrics->items.empty()) {
            diag.error(metrics->at, "metrics: expected a list of dotted paths into summary.json, got " +
                                        (metrics->is_seq() ? std::string("an empty list") : cfg::describe(*metrics)));
        } else {
            for (std::size_t k = 0; k < metrics->items.size(); k++) {
                const node& n = metrics->items[k];
                const std::string where = "metrics[" + std::to_string(k) + "]";
                if (!n.is_scalar() || is_null_scalar(n) || !dotted_key(n.value) ||
                    n.value.find_first_of(",\"") != std::string::npos) {
                    diag.error(n.at, where + ": expected a dotted path into summary.json (e.g. energy_j.total), got " +
                                         cfg::describe(n));
                    continue;
                }
                if (std::find(spec.metrics.begin(), spec.metrics.end(), n.value) != spec.metrics.end()) {
                    diag.error(n.at, where + ": '" + n.value + "' is already in the list");
                    continue;
                }
                std::string close;
                if (!sweep_detail::summary_metric_known(n.value, close)) {
                    diag.error(n.at, where + ": '" + n.value + "' is not a number of summary.json (docs/results.md)" +
                                         (close.empty() ? std::string() : "; did you mean '" + close + "'?"));
                    continue;
                }
                spec.metrics.push_back(n.value);
            }
        }
    }

    long long total = 1;
    for (const item& it : items) {
        total *= static_cast<long long>(it.size());
        if (total > max_points) {
            diag.error(root.find("parameters")->at, "parameters: more than " + std::to_string(max_points) + " points");
            break;
        }
    }
    if (diag.count() != before)
        return false;

    // The base scenario: readable, and valid as it is.
    spec.base_path = resolve_relative(path, spec.base);
    std::string base_text, error;
    if (!read_source(spec.base_path, base_text, error)) {
        diag.error(base->at, "base: cannot read scenario '" + spec.base + "': " + error);
        return false;
    }
    spec.base_digest = "fnv1a64:" + hex(fnv1a64(base_text), 16);
    {
        scenario_config cfg;
        if (!load_scenario(spec.base_path, {}, cfg, diag))
            return false;
    }

    // The points: the cartesian product of the items' rows, the last item fastest.
    for (const item& it : items)
        for (const axis& a : it.axes)
            spec.keys.push_back(a.key);
    std::vector<point_origin> origins;
    std::vector<std::size_t> index(items.size(), 0);
    for (long long n = 0; n < total; n++) {
        sweep_point p;
        point_origin o;
        for (std::size_t i = 0; i < items.size(); i++)
            for (const auto& [j, v] : items[i].row(index[i])) {
                const axis& a = items[i].axes[j];
                p.parameters.emplace_back(a.key, a.values[v].v);
                o.axes.push_back(&a);
                o.values.push_back(&a.values[v]);
            }
        p.id = sweep_point_id(p.parameters);
        spec.points.push_back(std::move(p));
        origins.push_back(std::move(o));
        for (std::size_t i = items.size(); i-- > 0;) {
            if (++index[i] < items[i].size())
                break;
            index[i] = 0;
        }
    }
    std::map<std::string, std::size_t> ids;
    for (std::size_t k = 0; k < spec.points.size(); k++) {
        auto [it, fresh] = ids.emplace(spec.points[k].id, k);
        if (!fresh) {
            std::string a, b;
            for (const auto& [key, v] : spec.points[it->second].parameters)
                a += (a.empty() ? "" : ", ") + key + "=" + v.canonical();
            for (const auto& [key, v] : spec.points[k].parameters)
                b += (b.empty() ? "" : ", ") + key + "=" + v.canonical();
            diag.error(root.find("parameters")->at, "parameters: the points {" + a + "} and {" + b +
                                                        "} have the same id " + it->first + " (a hash collision)");
        }
    }
    if (diag.count() != before)
        return false;

    if (validate_points) {
        std::set<std::string> reported;
        for (std::size_t k = 0; k < spec.points.size(); k++)
            validate_point(spec, spec.points[k], origins[k], diag, reported);
        if (diag.count() != before)
            return false;
    }
    out = std::move(spec);
    return true;
}

std::string sweep_manifest_json(const sweep_spec& spec)
{
    json doc;
    doc["spec"] = spec.path;
    doc["base"] = spec.base;
    doc["base_digest"] = spec.base_digest;
    doc["parameters"] = spec.keys;
    doc["seeds"] = spec.seeds;
    doc["metrics"] = spec.metrics;
    json points = json::array();
    for (const sweep_point& p : spec.points) {
        json o;
        o["id"] = p.id;
        json params = json::object();
        for (const auto& [key, v] : p.parameters)
            params[key] = value_json(v);
        o["parameters"] = params;
        o["seeds"] = spec.seeds;
        points.push_back(o);
    }
    doc["points"] = points;
    return doc.dump(2) + "\n";
}

} // namespace blsim::soc
