// soc/batch/src/sweep_metrics.cpp -- the metrics of a sweep (sweep_detail.h): which numeric
// paths summary.json has, reading them from a point's summary.json without building the
// document, and how results.csv writes them.
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
#include "metrics.h"
#include "sweep_detail.h"

namespace blsim::soc {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;

namespace sweep_detail {

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

// @pattern's paths with each {a,b} expanded ('*' kept).
std::vector<std::string> expand_pattern(const std::string& pattern)
{
    std::vector<std::string> out{""};
    for (const std::string& seg : dotted_path(pattern)) {
        std::vector<std::string> alts;
        if (!seg.empty() && seg.front() == '{')
            alts = dotted_path([&] {
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


} // namespace sweep_detail

namespace sweep_detail {

bool summary_metric_known(const std::string& metric, std::string& suggestion)
{
    const std::vector<std::string> parts = dotted_path(metric);
    std::vector<std::string> candidates; // the paths of the same depth, names filled from @metric
    for (const char* pattern : summary_metric_patterns)
        for (const std::string& path : expand_pattern(pattern)) {
            const std::vector<std::string> ps = dotted_path(path);
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
    const path_walk<json> w = walk_path(summary, dotted_path(path), false);
    if (w.end != path_end::found || !w.at->is_number())
        return false;
    v = w.at->get<double>();
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

} // namespace blsim::soc
