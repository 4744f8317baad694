// soc/batch/src/param_axes.cpp -- a sweep's parameter axes (docs/sweeps.md, "Parameters"): the
// grammar of 'parameters' (an axis's values, range or random draw; zip and one_at_a_time
// items), checked and located, and the items' expansion into the sweep's points.
#include "param_axes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "blsim/soc/schema.h"

namespace blsim::soc::sweep_detail {

using cfg::diagnostics;
using cfg::node;

namespace {

// Limits that keep a typo from asking for a million runs.
constexpr long long max_values = 10000;   // values of one parameter item
constexpr long long max_points = 100000;  // points of a sweep

} // namespace

std::size_t item::size() const
{
    if (!one_at_a_time)
        return axes.empty() ? 0 : axes[0].values.size();
    std::size_t n = 1; // the base: no member set
    for (const axis& a : axes)
        n += a.values.size();
    return n;
}

std::vector<std::pair<std::size_t, std::size_t>> item::row(std::size_t r) const
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

bool is_null_scalar(const node& n)
{
    return n.is_null() || (n.is_scalar() && n.plain && (n.value.empty() || n.value == "~" || n.value == "null" ||
                                                        n.value == "Null" || n.value == "NULL"));
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

// A required key of mapping @m; reports it missing.
const node* required(const node& m, const char* key, const std::string& where, diagnostics& d)
{
    const node* n = m.find(key);
    if (!n)
        d.error(m.at, where + ": missing required key '" + key + "'");
    return n;
}

namespace {

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

} // namespace

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

long long count_points(const std::vector<item>& items, const node& root, diagnostics& d)
{
    long long total = 1;
    for (const item& it : items) {
        total *= static_cast<long long>(it.size());
        if (total > max_points) {
            d.error(root.find("parameters")->at, "parameters: more than " + std::to_string(max_points) + " points");
            break;
        }
    }
    return total;
}

void expand_points(const std::vector<item>& items, long long total, sweep_spec& spec,
                   std::vector<point_origin>& origins)
{
    for (const item& it : items)
        for (const axis& a : it.axes)
            spec.keys.push_back(a.key);
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
}

} // namespace blsim::soc::sweep_detail
