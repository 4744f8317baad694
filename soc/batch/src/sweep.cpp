// soc/batch/src/sweep.cpp -- `blsim sweep`'s spec (docs/sweeps.md): the spec loaded (its base,
// seeds and metrics; its parameters and their points: param_axes.cpp), the values' texts and
// the points' ids, each point's overrides checked, the manifest. Running the points and
// merging shards: sweep_run.cpp; reading their metrics: sweep_metrics.cpp.
#include "blsim/soc/sweep.h"
#include "blsim/soc/results_dir.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
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
#include <set>
#include <sstream>

#include "blsim/soc/child_runs.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"
#include "blsim/soc/exit_codes.h"
#include "param_axes.h"
#include "sweep_detail.h"

namespace blsim::soc {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;

namespace {

constexpr const char* builtin_prefix = "builtin:";

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

using sweep_detail::axis;
using sweep_detail::check_keys;
using sweep_detail::count_points;
using sweep_detail::dotted_key;
using sweep_detail::expand_points;
using sweep_detail::is_null_scalar;
using sweep_detail::item;
using sweep_detail::number_text;
using sweep_detail::parse_parameters;
using sweep_detail::point_origin;
using sweep_detail::real_text;
using sweep_detail::required;

std::string resolve_relative(const std::string& from_file, const std::string& ref)
{
    const bool builtin = from_file.rfind(builtin_prefix, 0) == 0;
    const fs::path base(builtin ? from_file.substr(std::strlen(builtin_prefix)) : from_file);
    if (ref.rfind(builtin_prefix, 0) == 0 || fs::path(ref).is_absolute())
        return ref;
    const std::string joined = (base.parent_path() / fs::path(ref)).lexically_normal().string();
    return builtin ? builtin_prefix + joined : joined;
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

// 'base': the scenario the points vary (a path, or builtin:...), into @spec; its node (null
// when missing: reported).
const node* parse_base(const node& root, sweep_spec& spec, diagnostics& diag)
{
    const node* base = required(root, "base", "document", diag);
    if (base && (!base->is_scalar() || is_null_scalar(*base)))
        diag.error(base->at, "base: expected a scenario file (a path, or builtin:...), got " + cfg::describe(*base));
    else if (base)
        spec.base = base->value;
    return base;
}

// 'seeds': the seeds each point runs under (seed 1 when not given), each once.
void parse_seeds(const node& root, sweep_spec& spec, diagnostics& diag)
{
    spec.seeds = {1};
    const node* s = root.find("seeds");
    if (!s)
        return;
    spec.seeds.clear();
    if (!s->is_seq() || s->items.empty()) {
        diag.error(s->at, "seeds: expected a list of seeds (whole numbers 0..2147483647), got " +
                              (s->is_seq() ? std::string("an empty list") : cfg::describe(*s)));
        return;
    }
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

// 'metrics': the numbers of summary.json aggregated per point, each a path summary.json can
// have (with a suggestion for a slip), each once.
void parse_metrics(const node& root, sweep_spec& spec, diagnostics& diag)
{
    const node* metrics = required(root, "metrics", "document", diag);
    if (!metrics)
        return;
    if (!metrics->is_seq() || metrics->items.empty()) {
        diag.error(metrics->at, "metrics: expected a list of dotted paths into summary.json, got " +
                                    (metrics->is_seq() ? std::string("an empty list") : cfg::describe(*metrics)));
        return;
    }
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

// The base scenario (given at @base in the spec @path): readable, and valid as it is; its path
// and digest into @spec. False when not (reported).
bool check_base(const std::string& path, const node& base, sweep_spec& spec, diagnostics& diag)
{
    spec.base_path = resolve_relative(path, spec.base);
    std::string base_text, error;
    if (!read_source(spec.base_path, base_text, error)) {
        diag.error(base.at, "base: cannot read scenario '" + spec.base + "': " + error);
        return false;
    }
    spec.base_digest = "fnv1a64:" + hex(fnv1a64(base_text), 16);
    scenario_config cfg;
    return load_scenario(spec.base_path, {}, cfg, diag);
}

// Two points with one id (a hash collision), reported at 'parameters'.
void check_unique_ids(const sweep_spec& spec, const node& root, diagnostics& diag)
{
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
    const node* base = parse_base(root, spec, diag);
    std::vector<item> items;
    if (const node* p = root.find("parameters"))
        parse_parameters(*p, items, diag);
    parse_seeds(root, spec, diag);
    parse_metrics(root, spec, diag);
    const long long total = count_points(items, root, diag);
    if (diag.count() != before)
        return false;

    if (!check_base(path, *base, spec, diag))
        return false;
    std::vector<point_origin> origins;
    expand_points(items, total, spec, origins);
    check_unique_ids(spec, root, diag);
    if (diag.count() != before)
        return false;

    // Each point's overrides, as its runs will load them: a problem is reported once, located
    // at the axis or value behind it.
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
