// soc/batch/src/sweep.cpp -- `blsim sweep` and `blsim sweep merge` (docs/sweeps.md).
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
constexpr std::size_t stderr_tail_lines = 20; // of a failed run, in its .failed record

// The test hook (docs/sweeps.md): the point whose runs are made to fail.
constexpr const char* fail_point_env = "BLSIM_SWEEP_FAIL_POINT";

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

// The numeric paths of summary.json a metric may name (docs/results.md), '*' standing for
// one name (a cluster, CPU, task, thread, OPP, state, fault kind) and {a,b} for each of a, b.
const char* const summary_metric_patterns[] = {
    "{schema_version,seed,sim_time_s,avg_power_mw,workload_errors}",
    "energy_j.total",
    "energy_j.{clusters,uncore,cores}.*",
    "energy_j.cores_by_state.*.{on,wfi,off}",
    "energy_j.uncore_by_state.*.{busy,idle,powering_up,powering_down,off,power_up_transitions,power_down_transitions}",
    "energy_j.clusters_by_opp_mhz.*.*",
    "residency_s.cores.*.{on,wfi,off}",
    "residency_s.clusters.*.{on,off,powering_up,powering_down,power_ups,power_downs,power_downs_aborted}",
    "residency_s.clusters.*.opp_mhz.*",
    "tasks.*.{done_ref_ms,runtime_s,wait_s,wakeups,migrations,util_avg,cpu}",
    "tasks.*.wakeup_latency_us.{min,p50,p99,max}",
    "sched.{context_switches,migrations,wakeups,load_balance_moves,timer_irqs}",
    "migrations.{count,up,down}",
    "migrations.latency_us.{min,p50,p99,max}",
    "governor.{samples,requests,freq_changes,requests_refused}",
    "idle.*.*.{entries,residency_s,above,below}",
    "gic.{irqs_raised,irqs_delivered,spurious,guest_errors}",
    "cci.{snoops,snoop_hits,bytes,guest_errors,port_timeouts}",
    "power_controller.{dvfs_requests,guest_errors}",
    "dram.{bytes,transactions,avg_latency_ns}",
    "caches.*.{l2_hit_lines,fetched_lines,written_back_lines}",
    "switches.{count,requests,switcher_enables,switcher_disables,energy_overhead_j,energy_window_j}",
    "switches.{dvfs_wait_us,request_to_alive_us,blackout_us,total_us}.{min,p50,p99,max}",
    "switches.blackout_steps.*.{min,p50,p99,max}",
    "switches.cpufreq.{transactions,spc_requests,spc_errors,clock_unchanged,queued}",
    "switches.mcpm.{last_man,last_man_aborted,first_man,raced_power_up,late_pokes}",
    "cluster_migration.groups",
    "cluster_migration.blackout_us.{min,p50,p99,max}",
    "interrupts.{handled,merged}",
    "interrupts.latency_us.{min,p50,p99,max}",
    "perf.bbench.{pages,warm_pages,mean_latency_ms,score,scroll_steps,done_s}",
    "perf.bbench.page_load_s.{total,mean,p50,p95,max}",
    "perf.audio.{frames,deadline_misses,max_lateness_ms}",
    "perf.audio.{decoder,mixer}.{frames,deadline_misses}",
    "perf.rtapp.*.{loops,timer_activations,late_activations}",
    "perf.rtapp.*.{slack_us,lateness_us}.{p50,p95,max}",
    "jitter.draws_total",
    "jitter.draws.*",
    "faults.*.injected",
    "faults.*.handled.*",
    "faults.{switches_given_up,governor_failed_transitions}",
    "host.{wall_s,realtime_factor,events,peak_rss_mb,distribution_bytes}",
};

std::vector<std::string> split_dots(const std::string& s)
{
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (;;) {
        const std::size_t dot = s.find('.', from);
        parts.push_back(s.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (dot == std::string::npos)
            return parts;
        from = dot + 1;
    }
}

// @pattern's paths with each {a,b} expanded ('*' kept).
std::vector<std::string> expand_pattern(const std::string& pattern)
{
    std::vector<std::string> out{""};
    for (const std::string& seg : split_dots(pattern)) {
        std::vector<std::string> alts;
        if (!seg.empty() && seg.front() == '{')
            alts = split_dots([&] {
                std::string inner = seg.substr(1, seg.size() - 2);
                std::replace(inner.begin(), inner.end(), ',', '.');
                return inner;
            }());
        else
            alts = {seg};
        std::vector<std::string> next;
        for (const std::string& o : out)
            for (const std::string& a : alts)
                next.push_back(o.empty() ? a : o + "." + a);
        out = std::move(next);
    }
    return out;
}

std::size_t levenshtein(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); j++)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); i++) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); j++) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

} // namespace

namespace sweep_detail {

bool summary_metric_known(const std::string& metric, std::string& suggestion)
{
    const std::vector<std::string> parts = split_dots(metric);
    std::vector<std::string> candidates; // the paths of the same depth, names filled from @metric
    for (const char* pattern : summary_metric_patterns)
        for (const std::string& path : expand_pattern(pattern)) {
            const std::vector<std::string> ps = split_dots(path);
            if (ps.size() != parts.size())
                continue;
            bool match = true;
            std::string filled;
            for (std::size_t i = 0; i < ps.size(); i++) {
                match &= ps[i] == "*" || ps[i] == parts[i];
                filled += (i ? "." : "") + (ps[i] == "*" ? parts[i] : ps[i]);
            }
            if (match)
                return true;
            candidates.push_back(filled);
        }
    suggestion.clear();
    std::size_t best = std::string::npos;
    for (const std::string& c : candidates) {
        const std::size_t d = levenshtein(metric, c);
        if (d < best) {
            best = d;
            suggestion = c;
        }
    }
    // Close: a slip of a few letters, not another metric altogether.
    if (best > std::max<std::size_t>(2, metric.size() / 5))
        suggestion.clear();
    return false;
}

} // namespace sweep_detail

namespace sweep_detail {

std::string json_value_text(const json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_boolean())
        return v.get<bool>() ? "true" : "false";
    if (v.is_number_integer())
        return std::to_string(v.get<std::int64_t>());
    if (v.is_number_float())
        return real_text(v.get<double>());
    if (v.is_array()) {
        // As sweep_value::canonical writes a list (the same text, so results.csv shows what
        // the point's id was made of).
        sweep_value list;
        list.t = sweep_value::type::list;
        for (const json& x : v) {
            sweep_value e;
            if (x.is_string()) {
                e.t = sweep_value::type::string;
                e.s = x.get<std::string>();
            } else if (x.is_boolean()) {
                e.t = sweep_value::type::boolean;
                e.b = x.get<bool>();
            } else if (x.is_number_integer()) {
                e.i = x.get<std::int64_t>();
            } else {
                e.t = sweep_value::type::real;
                e.r = x.get<double>();
            }
            list.items.push_back(e);
        }
        return list.canonical();
    }
    return v.dump();
}

std::string csv_cell(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

bool metric_of(const json& summary, const std::string& path, double& v)
{
    const json* at = &summary;
    std::size_t from = 0;
    for (;;) {
        const std::size_t dot = path.find('.', from);
        const std::string part = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
        if (!at->is_object())
            return false;
        auto it = at->find(part);
        if (it == at->end())
            return false;
        at = &*it;
        if (dot == std::string::npos)
            break;
        from = dot + 1;
    }
    if (!at->is_number())
        return false;
    v = at->get<double>();
    return true;
}

namespace {

// Reads the numbers at a few dotted paths while the parser streams the document (nlohmann's
// SAX interface), building no tree: a summary.json is read for two or three numbers per run,
// and building its whole tree was most of the parent's work per point. Gives what metric_of
// gives on the parsed document: the value at the path, a later repeat of a key replacing an
// earlier one, nothing through an array, nothing when the value is not a number.
class metric_reader : public nlohmann::json_sax<json> {
public:
    explicit metric_reader(const std::vector<std::string>& paths) : found(paths.size())
    {
        for (const std::string& p : paths)
            wanted_.push_back(dotted_path(p));
    }

    std::vector<std::optional<double>> found;

    bool null() override { return value({}); }
    bool boolean(bool) override { return value({}); }
    bool number_integer(number_integer_t v) override { return value(static_cast<double>(v)); }
    bool number_unsigned(number_unsigned_t v) override { return value(static_cast<double>(v)); }
    bool number_float(number_float_t v, const string_t&) override { return value(v); }
    bool string(string_t&) override { return value({}); }
    bool binary(binary_t&) override { return value({}); }
    bool start_object(std::size_t) override
    {
        value({});
        open_.push_back(false);
        return true;
    }
    bool key(string_t& k) override
    {
        if (arrays_ == 0) {
            // The key of the innermost object; the strings are kept and reused (no allocation
            // per key).
            depth_ = open_.size();
            if (keys_.size() < depth_)
                keys_.resize(depth_);
            keys_[depth_ - 1].assign(k);
        }
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override
    {
        value({});
        open_.push_back(true);
        arrays_++;
        return true;
    }
    bool end_array() override
    {
        arrays_--;
        return close();
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    // The value just read sits at keys_ when no array is open around it.
    bool value(std::optional<double> v)
    {
        if (arrays_ != 0 || open_.empty() || depth_ != open_.size())
            return true;
        // A value replaces whatever the same key held before, the paths below it included.
        for (std::size_t i = 0; i < wanted_.size(); i++)
            if (wanted_[i].size() >= depth_ && std::equal(keys_.begin(), keys_.begin() + static_cast<std::ptrdiff_t>(depth_), wanted_[i].begin()))
                found[i] = wanted_[i].size() == depth_ ? v : std::nullopt;
        return true;
    }
    bool close()
    {
        open_.pop_back();
        if (arrays_ == 0 && depth_ > open_.size())
            depth_ = open_.size();
        return true;
    }

    std::vector<std::vector<std::string>> wanted_;
    std::vector<bool> open_; // the containers open, true for an array
    std::size_t arrays_ = 0;
    std::vector<std::string> keys_; // [0, depth_): the key of each open object, while no array is open
    std::size_t depth_ = 0;
};

} // namespace

bool metrics_of_text(const std::string& text, const std::vector<std::string>& paths,
                     std::vector<std::optional<double>>& values)
{
    metric_reader r(paths);
    if (!json::sax_parse(text, &r))
        return false;
    values = std::move(r.found);
    return true;
}

} // namespace sweep_detail

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

// --- arguments ----------------------------------------------------------------------------

namespace {

bool parse_shard(const std::string& v, int& k, int& n, std::string& error)
{
    const std::size_t slash = v.find('/');
    auto whole = [](const std::string& s) {
        return !s.empty() && s.size() <= 6 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (slash == std::string::npos || !whole(v.substr(0, slash)) || !whole(v.substr(slash + 1)) ||
        std::stoi(v.substr(0, slash)) < 1 || std::stoi(v.substr(0, slash)) > std::stoi(v.substr(slash + 1))) {
        error = "--shard needs K/N, whole numbers with 1 <= K <= N (got '" + v + "')";
        return false;
    }
    k = std::stoi(v.substr(0, slash));
    n = std::stoi(v.substr(slash + 1));
    return true;
}

} // namespace

bool parse_sweep_args(const std::vector<std::string>& args, sweep_options& opt, bool& help, std::string& error)
{
    help = std::find(args.begin(), args.end(), "-h") != args.end() ||
           std::find(args.begin(), args.end(), "--help") != args.end();
    if (help)
        return true;
    if (!args.empty() && args[0] == "pareto")
        return sweep_detail::parse_pareto_args(args, opt, error);
    std::size_t i = 0;
    if (!args.empty() && args[0] == "merge") {
        opt.merge = true;
        i = 1;
    }
    const std::string cmd = opt.merge ? "sweep merge" : "sweep";
    bool options_done = false;
    for (; i < args.size(); i++) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
        if (options_done || a.empty() || a[0] != '-' || a == "-") {
            if (opt.merge) {
                opt.shard_dirs.push_back(a);
            } else if (opt.spec.empty()) {
                opt.spec = a;
            } else {
                error = "sweep: only one SPEC may be given (also got '" + a + "')";
                return false;
            }
        } else if (a == "--") {
            options_done = true;
        } else if (a == "--out" || a.rfind("--out=", 0) == 0) {
            const std::string* v = a == "--out" ? value() : nullptr;
            opt.out_dir = a == "--out" ? (v ? *v : "") : a.substr(6);
            if (opt.out_dir.empty()) {
                error = "--out needs a directory";
                return false;
            }
        } else if (!opt.merge && (a == "-j" || a == "--jobs")) {
            const std::string* v = value();
            if (!v) {
                error = "-j needs a number of runs";
                return false;
            }
            if (!parse_jobs(*v, opt.jobs, error))
                return false;
        } else if (!opt.merge && (a.rfind("--jobs=", 0) == 0 || (a.rfind("-j", 0) == 0 && a.rfind("--", 0) != 0))) {
            if (!parse_jobs(a.substr(a[1] == 'j' ? 2 : 7), opt.jobs, error))
                return false;
        } else if (!opt.merge && (a == "--shard" || a.rfind("--shard=", 0) == 0)) {
            const std::string* v = a == "--shard" ? value() : nullptr;
            const std::string s = a == "--shard" ? (v ? *v : "") : a.substr(8);
            if (!parse_shard(s, opt.shard_k, opt.shard_n, error))
                return false;
        } else {
            error = cmd + ": unknown option '" + a + "'";
            return false;
        }
    }
    if (opt.merge && opt.shard_dirs.empty()) {
        error = "sweep merge: needs the shards' directories (blsim sweep merge --out DIR SHARD_DIR...)";
        return false;
    }
    if (!opt.merge && opt.spec.empty()) {
        error = "sweep: needs a spec (blsim sweep SPEC --out DIR)";
        return false;
    }
    if (opt.out_dir.empty()) {
        error = cmd + ": needs --out DIR";
        return false;
    }
    return true;
}

// --- running ------------------------------------------------------------------------------

namespace {

// A manifest as read back: what aggregation and merge need.
struct manifest {
    json doc;
    std::vector<std::string> ids;
    std::vector<long long> seeds;
    std::vector<std::string> keys, metrics;
};

bool read_manifest(const fs::path& file, manifest& m, std::string& error)
{
    std::string text, why;
    if (!read_source(file.string(), text, why)) {
        error = file.string() + ": cannot read: " + why;
        return false;
    }
    try {
        m.doc = json::parse(text);
        for (const json& p : m.doc.at("points"))
            m.ids.push_back(p.at("id").get<std::string>());
        m.seeds = m.doc.at("seeds").get<std::vector<long long>>();
        m.keys = m.doc.at("parameters").get<std::vector<std::string>>();
        m.metrics = m.doc.at("metrics").get<std::vector<std::string>>();
        (void)m.doc.at("base_digest").get<std::string>();
        for (const json& p : m.doc.at("points"))
            if (!p.at("parameters").is_object())
                throw std::runtime_error("bad parameters");
    } catch (const std::exception&) {
        error = file.string() + ": not a sweep manifest";
        return false;
    }
    return true;
}

std::string seed_dir(long long seed) { return "seed-" + std::to_string(seed); }

// "1 point", "2 points".
std::string count_of(std::size_t n, const char* what)
{
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// results.csv and results.json for the points of @m at @indices (manifest order), from
// DIR/points. Returns the number of failed runs.
std::size_t aggregate(const fs::path& dir, const manifest& m, const std::vector<std::size_t>& indices,
                      std::string& csv, std::string& out_json)
{
    std::size_t failed_total = 0;
    csv = "id";
    for (const std::string& k : m.keys)
        csv += "," + csv_cell(k);
    for (const std::string& metric : m.metrics)
        csv += "," + csv_cell(metric + ".mean") + "," + csv_cell(metric + ".std") + "," + csv_cell(metric + ".n");
    csv += ",failed\n";
    json doc;
    doc["parameters"] = m.keys;
    doc["seeds"] = m.seeds;
    doc["metrics"] = m.metrics;
    json rows = json::array();
    for (std::size_t idx : indices) {
        const json& p = m.doc["points"][idx];
        const std::string& id = m.ids[idx];
        const fs::path pdir = dir / "points" / id;
        std::vector<std::vector<double>> values(m.metrics.size());
        std::size_t failed = 0;
        for (long long seed : m.seeds) {
            std::error_code ec;
            if (fs::exists(pdir / (seed_dir(seed) + ".failed"), ec))
                failed++;
            std::string text, why;
            std::vector<std::optional<double>> found;
            if (!read_source((pdir / seed_dir(seed) / "summary.json").string(), text, why) ||
                !metrics_of_text(text, m.metrics, found))
                continue;
            for (std::size_t k = 0; k < m.metrics.size(); k++)
                if (found[k])
                    values[k].push_back(*found[k]);
        }
        failed_total += failed;
        json row;
        row["id"] = id;
        row["parameters"] = p["parameters"];
        json metrics = json::object();
        std::string line = csv_cell(id);
        for (const std::string& k : m.keys)
            line += "," + (p["parameters"].contains(k) ? csv_cell(json_value_text(p["parameters"][k])) : "");
        for (std::size_t k = 0; k < m.metrics.size(); k++) {
            const std::vector<double>& v = values[k];
            json stat;
            if (v.empty()) {
                stat["mean"] = nullptr;
                stat["std"] = nullptr;
                line += ",,";
            } else {
                double sum = 0;
                for (double x : v)
                    sum += x;
                const double mean = sum / static_cast<double>(v.size());
                double sq = 0;
                for (double x : v)
                    sq += (x - mean) * (x - mean);
                const double sd = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0.0;
                stat["mean"] = mean;
                stat["std"] = sd;
                line += "," + number_text(mean) + "," + number_text(sd);
            }
            stat["n"] = v.size();
            line += "," + std::to_string(v.size());
            metrics[m.metrics[k]] = stat;
        }
        row["metrics"] = metrics;
        row["failed"] = failed;
        line += "," + std::to_string(failed) + "\n";
        csv += line;
        rows.push_back(row);
    }
    doc["points"] = rows;
    out_json = doc.dump(2) + "\n";
    return failed_total;
}

bool write_results(const fs::path& dir, const manifest& m, const std::vector<std::size_t>& indices,
                   std::size_t& failed, std::string& error)
{
    std::string csv, js;
    failed = aggregate(dir, m, indices, csv, js);
    return write_file_atomically((dir / "results.csv").string(), csv, error) &&
           write_file_atomically((dir / "results.json").string(), js, error);
}

// An existing manifest in @dir must be of the same base scenario: results of another would
// otherwise be taken for this sweep's.
bool check_existing_manifest(const fs::path& dir, const std::string& digest, std::string& error)
{
    std::error_code ec;
    const fs::path file = dir / "manifest.json";
    if (!fs::exists(file, ec))
        return true;
    manifest old;
    if (!read_manifest(file, old, error)) {
        error = "--out " + dir.string() + " holds something else: " + error;
        return false;
    }
    if (old.doc["base_digest"] != digest) {
        error = "--out " + dir.string() + " holds a sweep of another base scenario (" +
                old.doc["base_digest"].get<std::string>() + ", not " + digest +
                "); use another directory, or remove it";
        return false;
    }
    return true;
}

std::string status_text(int st)
{
    if (WIFEXITED(st))
        return "exit status " + std::to_string(WEXITSTATUS(st));
    if (WIFSIGNALED(st))
        return "killed by signal " + std::to_string(WTERMSIG(st));
    return "status " + std::to_string(st);
}

// One (point, seed) to run.
struct run_job {
    std::size_t point = 0;
    long long seed = 0;
    fs::path final_dir, tmp_dir, err_file;
    run_outcome outcome;
};

// `blsim run -q --out TMP --set K=V... --set seed=S BASE`, its stderr into a file. The child is
// killed when the sweep dies (child_run_options::die_with_parent), so that a killed sweep leaves
// only stale temporary directories, never a run still writing.
run_request run_of(const sweep_options& opt, const sweep_spec& spec, const run_job& j)
{
    const sweep_point& p = spec.points[j.point];
    run_request r{opt.exe, j.tmp_dir.string(), spec.base_path, {}, {}, j.err_file.string()};
    for (const auto& [key, v] : p.parameters)
        r.overrides.push_back(key + "=" + v.override_text());
    r.overrides.push_back("seed=" + std::to_string(j.seed));
    if (const char* fail = std::getenv(fail_point_env); fail && p.id == fail)
        r.extra_args.push_back("--blsim-sweep-test-failure"); // an option run refuses: exit 2
    return r;
}

// Finishes a run: its results renamed into place, or its .failed record written.
bool settle(const run_job& j, const sweep_spec& spec, std::string& why)
{
    std::error_code ec;
    const bool exited_ok = j.outcome.succeeded();
    const bool complete = exited_ok && fs::exists(j.tmp_dir / "summary.json", ec);
    std::string err_text, read_why;
    read_source(j.err_file.string(), err_text, read_why);
    if (complete) {
        if (!err_text.empty())
            fs::rename(j.err_file, j.tmp_dir / "stderr.txt", ec);
        fs::remove(j.err_file, ec);
        fs::remove_all(j.final_dir, ec);
        fs::rename(j.tmp_dir, j.final_dir, ec);
        if (!ec)
            return true;
        err_text += "blsim: sweep: cannot rename " + j.tmp_dir.string() + " to " + j.final_dir.string() + ": " +
                    ec.message() + "\n";
    }
    json rec;
    rec["point"] = spec.points[j.point].id;
    rec["seed"] = j.seed;
    if (!j.outcome.start_error.empty()) {
        rec["exit_status"] = nullptr;
        rec["signal"] = nullptr;
        err_text += "blsim: sweep: cannot start the run: " + j.outcome.start_error + "\n";
        why = "not started: " + j.outcome.start_error;
    } else {
        const int st = j.outcome.status;
        rec["exit_status"] = WIFEXITED(st) ? json(WEXITSTATUS(st)) : json(nullptr);
        rec["signal"] = WIFSIGNALED(st) ? json(WTERMSIG(st)) : json(nullptr);
        why = status_text(st);
        if (exited_ok && !complete) {
            err_text += "blsim: sweep: the run exited 0 and left no summary.json\n";
            why += ", no summary.json";
        }
    }
    rec["stderr_tail"] = last_lines(lines_of(err_text), stderr_tail_lines);
    std::string error;
    const fs::path record = j.final_dir.parent_path() / (j.final_dir.filename().string() + ".failed");
    write_file_atomically(record.string(), rec.dump(2) + "\n", error);
    fs::remove_all(j.tmp_dir, ec);
    fs::remove(j.err_file, ec);
    fs::remove_all(j.final_dir, ec);
    return false;
}

// Removes the temporary leftovers of runs that never finished (a sweep killed, a machine
// down): every entry of @point_dir whose name holds ".tmp-".
void remove_stale(const fs::path& point_dir)
{
    std::error_code ec;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(point_dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().find(".tmp-") != std::string::npos)
            stale.push_back(it->path());
    for (const fs::path& p : stale)
        fs::remove_all(p, ec);
}

int sweep(const sweep_options& opt, std::ostream& out, std::ostream& err)
{
    diagnostics diag;
    sweep_spec spec;
    if (!load_sweep_spec(opt.spec, spec, diag)) {
        diag.print(err);
        return exit_usage;
    }
    const fs::path dir(opt.out_dir);
    std::string error;
    if (!check_existing_manifest(dir, spec.base_digest, error)) {
        err << "blsim: sweep: " << error << "\n";
        return exit_usage;
    }
    std::error_code ec;
    fs::create_directories(dir / "points", ec);
    if (ec) {
        err << "blsim: sweep: cannot write to " << dir.string() << ": " << ec.message() << "\n";
        return exit_usage;
    }
    const std::string manifest_text = sweep_manifest_json(spec);
    if (!write_file_atomically((dir / "manifest.json").string(), manifest_text, error)) {
        err << "blsim: sweep: cannot write " << error << "\n";
        return exit_usage;
    }
    manifest m;
    if (!read_manifest(dir / "manifest.json", m, error)) {
        err << "blsim: sweep: " << error << "\n";
        return exit_failed;
    }

    // This shard's points, and their runs not finished before.
    std::vector<std::size_t> mine;
    for (std::size_t i = 0; i < spec.points.size(); i++)
        if (static_cast<int>(i % static_cast<std::size_t>(opt.shard_n)) == opt.shard_k - 1)
            mine.push_back(i);
    std::vector<run_job> jobs;
    std::size_t done_before = 0;
    const std::string tmp_suffix = ".tmp-" + std::to_string(::getpid());
    for (std::size_t i : mine) {
        const fs::path pdir = dir / "points" / spec.points[i].id;
        fs::create_directories(pdir, ec);
        if (ec) {
            err << "blsim: sweep: cannot create " << pdir.string() << ": " << ec.message() << "\n";
            return exit_failed;
        }
        remove_stale(pdir);
        for (long long seed : spec.seeds) {
            run_job j;
            j.point = i;
            j.seed = seed;
            j.final_dir = pdir / seed_dir(seed);
            if (fs::exists(j.final_dir / "summary.json", ec)) {
                done_before++;
                continue;
            }
            fs::remove(pdir / (seed_dir(seed) + ".failed"), ec);
            fs::remove_all(j.final_dir, ec);
            j.tmp_dir = pdir / ("." + seed_dir(seed) + tmp_suffix);
            j.err_file = pdir / ("." + seed_dir(seed) + tmp_suffix + ".stderr");
            jobs.push_back(j);
        }
    }

    const std::size_t total = mine.size() * spec.seeds.size();
    std::string shard;
    if (opt.shard_n > 1)
        shard = "shard " + std::to_string(opt.shard_k) + "/" + std::to_string(opt.shard_n) + ": ";
    const unsigned limit = runs_at_once(opt.jobs);
    err << "blsim: sweep: " << shard << mine.size() << " of " << count_of(spec.points.size(), "point") << " x "
        << count_of(spec.seeds.size(), "seed") << ": " << count_of(total, "run") << ", " << done_before
        << " done before, " << jobs.size() << " to run (at most " << limit << " at once)\n";
    err.flush();

    progress_line prog(err, "sweep", "failed", total, done_before);
    std::vector<run_request> requests;
    for (const run_job& j : jobs)
        requests.push_back(run_of(opt, spec, j));
    std::size_t failed_now = 0;
    std::vector<const run_job*> failures;
    std::vector<run_outcome> outcomes;
    const child_run_options how{limit, true, "blsim: sweep: cannot execute the blsim binary\n"};
    auto finished = [&](std::size_t i, const run_outcome& o, std::size_t remaining) {
        run_job& j = jobs[i];
        j.outcome = o;
        std::string why;
        const bool ok = settle(j, spec, why);
        if (!ok) {
            failed_now++;
            failures.push_back(&j);
        }
        prog.finished("point " + spec.points[j.point].id + " seed " + std::to_string(j.seed) + ": " +
                          (ok ? "done" : "failed (" + why + ")"),
                      !ok, remaining);
    };
    {
        const interrupt_notice notice("blsim: sweep: interrupted; the runs that finished are kept in " +
                                      dir.string() + ": run the same command again to resume");
        if (!run_children(requests, how, outcomes, error, finished)) {
            err << "blsim: sweep: waiting for the runs: " << error << "\n";
            return exit_failed;
        }
    }
    prog.end();

    std::sort(failures.begin(), failures.end(), [](const run_job* a, const run_job* b) {
        return std::make_pair(a->point, a->seed) < std::make_pair(b->point, b->seed);
    });
    for (const run_job* j : failures)
        err << "blsim: sweep: point " << spec.points[j->point].id << " seed " << j->seed
            << " failed; see " << (j->final_dir.string() + ".failed") << "\n";

    std::size_t failed = 0;
    if (!write_results(dir, m, mine, failed, error)) {
        err << "blsim: sweep: cannot write " << error << "\n";
        return exit_failed;
    }
    out << "sweep: " << shard << count_of(mine.size(), "point") << " x " << count_of(spec.seeds.size(), "seed")
        << " = " << count_of(total, "run") << ": " << (total - failed) << " done ("
        << (jobs.size() - failed_now) << " now), " << failed << " failed\n"
        << "results: " << (dir / "results.csv").string() << ", " << (dir / "results.json").string() << "\n";
    out.flush();
    return failed ? exit_failed : exit_ok;
}

// Copies the run directory (or .failed record) @from to @to, through a temporary name and a
// rename; files are hard-linked where the file system allows.
bool copy_run(const fs::path& from, const fs::path& to, std::string& error)
{
    std::error_code ec;
    const fs::path tmp = to.parent_path() / ("." + to.filename().string() + ".tmp-" + std::to_string(::getpid()));
    fs::remove_all(tmp, ec);
    const bool is_dir = fs::is_directory(from, ec);
    auto copy = [&](fs::copy_options how) {
        ec.clear();
        if (is_dir)
            fs::copy(from, tmp, how | fs::copy_options::recursive, ec);
        else
            fs::copy(from, tmp, how, ec);
        return !ec;
    };
    if (!copy(fs::copy_options::create_hard_links)) {
        fs::remove_all(tmp, ec);
        if (!copy(fs::copy_options::none)) {
            error = "cannot copy " + from.string() + " to " + tmp.string() + ": " + ec.message();
            fs::remove_all(tmp, ec);
            return false;
        }
    }
    fs::remove_all(to, ec);
    fs::rename(tmp, to, ec);
    if (ec) {
        error = "cannot rename " + tmp.string() + " to " + to.string() + ": " + ec.message();
        return false;
    }
    return true;
}

int merge(const sweep_options& opt, std::ostream& out, std::ostream& err)
{
    std::vector<manifest> shards(opt.shard_dirs.size());
    std::string error;
    bool bad = false;
    auto same = [](json a, json b) {
        a.erase("spec");
        b.erase("spec");
        return a == b;
    };
    for (std::size_t s = 0; s < shards.size(); s++) {
        if (!read_manifest(fs::path(opt.shard_dirs[s]) / "manifest.json", shards[s], error)) {
            err << "blsim: sweep merge: " << error << "\n";
            bad = true;
        } else if (s > 0 && !bad && !same(shards[s].doc, shards[0].doc)) {
            err << "blsim: sweep merge: " << opt.shard_dirs[s] << " is a shard of another sweep than "
                << opt.shard_dirs[0] << " (their manifest.json differ "
                << (shards[s].ids != shards[0].ids ? "in the points' ids" : "beyond the spec's path") << ")\n";
            bad = true;
        }
    }
    if (bad)
        return exit_usage;
    const manifest& m = shards[0];
    const fs::path dir(opt.out_dir);
    if (!check_existing_manifest(dir, m.doc["base_digest"].get<std::string>(), error)) {
        err << "blsim: sweep merge: " << error << "\n";
        return exit_usage;
    }

    // Where each run comes from: a finished run wins over a failed one; DIR's own, if
    // finished, is kept.
    struct source {
        fs::path from, to;
    };
    std::vector<source> copies;
    std::vector<fs::path> drop; // DIR's .failed records a finished run replaces
    std::vector<std::string> missing;
    std::error_code ec;
    for (std::size_t i = 0; i < m.ids.size(); i++) {
        const fs::path pdir = dir / "points" / m.ids[i];
        for (long long seed : m.seeds) {
            const std::string sd = seed_dir(seed);
            if (fs::exists(pdir / sd / "summary.json", ec))
                continue;
            const fs::path* found = nullptr;
            fs::path done, failed;
            for (const std::string& s : opt.shard_dirs) {
                const fs::path p = fs::path(s) / "points" / m.ids[i];
                if (done.empty() && fs::exists(p / sd / "summary.json", ec))
                    done = p / sd;
                if (failed.empty() && fs::exists(p / (sd + ".failed"), ec))
                    failed = p / (sd + ".failed");
            }
            if (!done.empty()) {
                found = &done;
                copies.push_back({done, pdir / sd});
                drop.push_back(pdir / (sd + ".failed"));
            } else if (!failed.empty()) {
                found = &failed;
                if (!fs::exists(pdir / (sd + ".failed"), ec) || !fs::equivalent(failed, pdir / (sd + ".failed"), ec))
                    copies.push_back({failed, pdir / (sd + ".failed")});
            }
            if (!found)
                missing.push_back("point " + m.ids[i] + " seed " + std::to_string(seed));
        }
    }
    if (!missing.empty()) {
        for (const std::string& what : missing)
            err << "blsim: sweep merge: " << what << ": in none of the shards (neither finished nor failed)\n";
        err << "blsim: sweep merge: " << missing.size() << " runs missing; is a shard missing or unfinished?\n";
        return exit_usage;
    }

    std::string text, why;
    read_source((fs::path(opt.shard_dirs[0]) / "manifest.json").string(), text, why);
    fs::create_directories(dir / "points", ec);
    if (ec || !write_file_atomically((dir / "manifest.json").string(), text, error)) {
        err << "blsim: sweep merge: cannot write to " << dir.string() << ": " << (ec ? ec.message() : error) << "\n";
        return exit_usage;
    }
    for (const source& c : copies) {
        fs::create_directories(c.to.parent_path(), ec);
        if (!copy_run(c.from, c.to, error)) {
            err << "blsim: sweep merge: " << error << "\n";
            return exit_failed;
        }
    }
    for (const fs::path& p : drop)
        fs::remove(p, ec);

    std::vector<std::size_t> all(m.ids.size());
    for (std::size_t i = 0; i < all.size(); i++)
        all[i] = i;
    std::size_t failed = 0;
    if (!write_results(dir, m, all, failed, error)) {
        err << "blsim: sweep merge: cannot write " << error << "\n";
        return exit_failed;
    }
    out << "sweep merge: " << count_of(shards.size(), "shard") << ", " << count_of(m.ids.size(), "point") << " x "
        << count_of(m.seeds.size(), "seed") << ": " << failed << " failed\n"
        << "results: " << (dir / "results.csv").string() << ", " << (dir / "results.json").string() << "\n";
    out.flush();
    return failed ? exit_failed : exit_ok;
}

} // namespace

int run_sweep(const sweep_options& opt, std::ostream& out, std::ostream& err)
{
    if (opt.pareto)
        return sweep_detail::run_pareto(opt, out, err);
    return opt.merge ? merge(opt, out, err) : sweep(opt, out, err);
}

} // namespace blsim::soc
