// soc/config/src/check_kernel.cpp -- the semantic checks of the kernel's configuration: what the
// schema's types and ranges cannot say of the governor and its tunables, the modes and their
// changes, the switcher, the scheduler and the frequencies written at run time. And check, the
// whole scenario's semantic checks in order: the SoC's (check_soc.cpp), the workload's
// (check_workload.cpp) and the kernel's.
#include "scenario_internal.h"

#include <bls/cpufreq.h>
#include <bls/governor.h>
#include <bls/kernel.h>
#include <bls/types.h>

#include <algorithm>
#include <cstdio>

namespace blsim::soc {

using cfg::bind_context;
using cfg::diagnostics;
using cfg::mark;

namespace detail {

namespace {

// The governor's own tunables that need more than a range: interactive's target_loads (as
// the kernel parses it) and conservative's thresholds in order.
void check_governor_tunables(const governor_config& g, const std::string& prefix, const mark& at,
                             diagnostics& d)
{
    bls_interactive_tunables it{};
    const int col = bls_interactive_parse_target_loads(&it, g.interactive.target_loads.c_str());
    if (col)
        d.error(at, prefix + "interactive.target_loads: '" + g.interactive.target_loads +
                        "' is not 'L0 F1:L1 ...' (loads 1..100 %, frequencies ascending); the problem is "
                        "at character " + std::to_string(col));
    if (g.conservative.down_threshold_pct >= g.conservative.up_threshold_pct)
        d.error(at, prefix + "conservative.down_threshold_pct: " +
                        std::to_string(g.conservative.down_threshold_pct) +
                        " % must be below up_threshold_pct (" +
                        std::to_string(g.conservative.up_threshold_pct) + " %)");
}

// The interactive keys its 2012 generation does not have (docs/os.md).
const std::vector<std::string>& interactive_2013_only()
{
    static const std::vector<std::string> keys = {"target_loads", "timer_slack_us", "boostpulse_duration_us",
                                                  "io_is_busy"};
    return keys;
}

} // namespace

// Whether interactive's generation @variant has the tunable @key; otherwise the message why not.
bool interactive_has(const std::string& variant, const std::string& key, std::string& why)
{
    if (variant == "2012" &&
        std::find(interactive_2013_only().begin(), interactive_2013_only().end(), key) != interactive_2013_only().end()) {
        why = "the 2012 generation of interactive has no tunable '" + key + "' (variant 2013 has)";
        return false;
    }
    return true;
}

// The interactive governor's generation: its defaults for the keys the scenario did not give
// (the struct's own are 2013's, from the kernel's table of both).
void apply_interactive_variant(scenario_config& c, const bind_context& ctx)
{
    interactive_config& i = c.governor.interactive;
    bls_interactive_tunables d{};
    bls_interactive_default_tunables(&d, i.variant == "2012" ? BLS_INTERACTIVE_2012 : BLS_INTERACTIVE_2013);
    auto fill = [&](const char* key, int& field, long long value) {
        if (!ctx.given(std::string("governor.interactive.") + key))
            field = static_cast<int>(value);
    };
    fill("go_hispeed_load_pct", i.go_hispeed_load_pct, d.go_hispeed_load);
    fill("min_sample_time_us", i.min_sample_time_us, d.min_sample_time_us);
    fill("timer_rate_us", i.timer_rate_us, d.timer_rate_us);
    fill("above_hispeed_delay_us", i.above_hispeed_delay_us, d.above_hispeed_delay_us);
}

namespace {

// The governor's tunables: those its generation has, and each value and each write at run time
// (in time order) as the kernel would take it.
void check_governor(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    for (const std::string& key : interactive_2013_only()) {
        const std::string path = "governor.interactive." + key;
        std::string why;
        if (ctx.given(path) && !interactive_has(c.governor.interactive.variant, key, why))
            d.error(ctx.where(path), path + ": " + why);
    }
    check_governor_tunables(c.governor, "governor.", ctx.where("governor"), d);
    governor_config g = c.governor;
    double last = 0;
    for (std::size_t i = 0; i < c.governor.writes.size(); i++) {
        const tunable_write& w = c.governor.writes[i];
        const std::string p = "governor.writes[" + std::to_string(i) + "]";
        if (w.at_ms < last)
            d.error(ctx.where(p + ".at_ms"), p + ".at_ms: writes go in time order; " +
                                                 cfg::format_number(w.at_ms) + " ms is before the previous " +
                                                 cfg::format_number(last) + " ms");
        last = w.at_ms;
        // (Only the keys checked together: an earlier bad value is reported once.)
        if (apply_tunable_write(g, w, ctx.where(p + ".value"), d) &&
            (w.tunable == "target_loads" || w.tunable == "up_threshold_pct" || w.tunable == "down_threshold_pct"))
            check_governor_tunables(g, p + ": after it, governor.", ctx.where(p + ".value"), d);
    }
}

} // namespace

// Whether the switcher runs at any time of the run: a switched mode at boot or later, or
// switcher.activity turning it on.
bool ever_switched(const scenario_config& c)
{
    bool on = mode_switched(c.mode);
    for (const mode_change& m : c.mode_changes)
        on |= mode_switched(m.mode);
    for (const activity_change& a : c.switcher.activity)
        on |= a.active;
    return on;
}

// The CPUs a task may be pinned to: those that exist whether the switcher is on or off (with it
// on at any time, by the mode or a change, only the logical CPUs it pairs).
cpu_limit pinnable_cpus(const scenario_config& c)
{
    const bool ever_on = ever_switched(c);
    cpu_limit lim;
    lim.cpus = logical_cpus(c);
    if (ever_on && c.soc.clusters.size() == 2)
        lim.cpus = std::min(c.soc.clusters[0].cores, c.soc.clusters[1].cores);
    lim.what = ever_on ? " logical CPUs with the switcher on)" : " CPUs)";
    // Deadline admission: the real-time bandwidth of each of those CPUs (bls_sched_add_task
    // admits against the CPUs active at boot, never fewer).
    if (c.sched.rt_runtime_us >= 0) {
        const std::uint64_t per_cpu = bls_sched_bw(1000ull * static_cast<unsigned>(c.sched.rt_period_us),
                                                   1000ull * static_cast<unsigned>(c.sched.rt_runtime_us));
        lim.dl_bw = per_cpu * static_cast<std::uint64_t>(lim.cpus);
        char share[32];
        std::snprintf(share, sizeof share, "%.4g%%", 100.0 * c.sched.rt_runtime_us / c.sched.rt_period_us);
        lim.dl_bw_what = std::string(share) + " of each of the " + std::to_string(lim.cpus) +
                         (ever_on ? " logical CPUs with the switcher on" : " CPUs") +
                         " (sched.rt_runtime_us of sched.rt_period_us; -1 lifts the limit)";
    }
    return lim;
}

namespace {

// Whether the switcher is on at @at_ms as the scenario asks for it: the mode at boot, then the
// last change (mode_changes, switcher.activity) before that time.
bool switched_at(const scenario_config& c, double at_ms)
{
    bool on = mode_switched(c.mode);
    double latest = -1;
    for (const mode_change& m : c.mode_changes)
        if (m.at_ms < at_ms && m.at_ms >= latest) {
            latest = m.at_ms;
            on = mode_switched(m.mode);
        }
    for (const activity_change& a : c.switcher.activity)
        if (a.at_ms < at_ms && a.at_ms >= latest) {
            latest = a.at_ms;
            on = a.active;
        }
    return on;
}

// The modes and their changes: what each needs of the SoC, and the changes' order.
void check_modes(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    // Every place a mode is named: (key, mode).
    std::vector<std::pair<std::string, std::string>> named = {{"mode", c.mode}};
    for (std::size_t i = 0; i < c.mode_changes.size(); i++)
        named.emplace_back("mode_changes[" + std::to_string(i) + "].mode", c.mode_changes[i].mode);
    const std::string nclusters = std::to_string(c.soc.clusters.size());
    bool eas_reported = false;
    for (const auto& [key, mode] : named) {
        if (mode_switched(mode) && c.soc.clusters.size() != 2)
            d.error(ctx.where(key), key + ": " + mode + " runs the switcher, which pairs the CPUs of two "
                                                       "clusters; the SoC has " + nclusters);
        if (mode == "hmp" && c.soc.clusters.size() < 2)
            d.error(ctx.where(key), key + ": hmp sorts tasks between a big and a little cluster; the SoC has " +
                                        nclusters);
        if (mode == "eas" && !eas_reported) {
            // EAS places by the SoC's energy model: a busy core's power at every OPP.
            for (std::size_t i = 0; i < c.soc.clusters.size() && !eas_reported; i++)
                for (std::size_t k = 0; k < c.soc.clusters[i].opps.size() && !eas_reported; k++)
                    if (!(c.soc.clusters[i].opps[k].core_power_eas > 0)) {
                        d.error(ctx.where(key), key + ": eas places tasks by the SoC's EAS energy model; soc.clusters[" +
                                                    std::to_string(i) + "].opps[" + std::to_string(k) +
                                                    "].core_power_eas is " +
                                                    cfg::format_number(c.soc.clusters[i].opps[k].core_power_eas) +
                                                    " (every OPP's must be above 0)");
                        eas_reported = true;
                    }
        }
    }
    if (!c.mode_changes.empty() && !c.switcher.activity.empty())
        d.error(ctx.where("mode_changes"), "mode_changes: not together with switcher.activity (on is mode iks, "
                                           "off mode smp: give those changes in mode_changes)");
    for (std::size_t i = 1; i < c.mode_changes.size(); i++)
        if (c.mode_changes[i].at_ms < c.mode_changes[i - 1].at_ms) {
            const std::string p = "mode_changes[" + std::to_string(i) + "].at_ms";
            d.error(ctx.where(p), p + ": changes go in time order; " + cfg::format_number(c.mode_changes[i].at_ms) +
                                      " ms is before the previous " +
                                      cfg::format_number(c.mode_changes[i - 1].at_ms) + " ms");
        } else if (c.mode_changes[i].at_ms == c.mode_changes[i - 1].at_ms) {
            // Only the last would be taken: say which mode is meant.
            const std::string p = "mode_changes[" + std::to_string(i) + "].at_ms";
            d.error(ctx.where(p), p + ": two changes at one instant (" + cfg::format_number(c.mode_changes[i].at_ms) +
                                      " ms, as mode_changes[" + std::to_string(i - 1) + "]); keep one");
        }
    if (c.hmp.down_threshold >= c.hmp.up_threshold) {
        // Located where the pair was last touched: the down threshold, unless only the up one was given.
        const bool up_only = ctx.given("hmp.up_threshold") && !ctx.given("hmp.down_threshold");
        d.error(ctx.where(up_only ? "hmp.up_threshold" : "hmp.down_threshold"),
                "hmp.down_threshold: " + std::to_string(c.hmp.down_threshold) + " must be below up_threshold (" +
                    std::to_string(c.hmp.up_threshold) + ")");
    }
}

// The frequencies the clusters boot at (governor.freq_mhz): each an OPP of a cluster the SoC has.
void check_boot_frequencies(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    for (const auto& setting : c.governor.freq_mhz) {
        // (Named copies: a lambda may not capture a structured binding in C++17.)
        const std::string& cluster = setting.first;
        const int mhz = setting.second;
        const std::string p = "governor.freq_mhz." + cluster;
        auto it = std::find_if(c.soc.clusters.begin(), c.soc.clusters.end(),
                               [&](const model::cluster_params& cl) { return cl.name == cluster; });
        if (it == c.soc.clusters.end()) {
            d.error(ctx.where(p), p + ": no cluster named '" + cluster + "'");
            continue;
        }
        if (std::none_of(it->opps.begin(), it->opps.end(),
                         [&](const model::opp_point& o) { return o.freq_mhz == mhz; }))
            d.error(ctx.where(p), p + ": " + std::to_string(mhz) + " MHz is not an OPP of cluster '" +
                                      cluster + "'");
        else if (c.governor.name != "userspace")
            // Legal, and what Linux does (a boot frequency the governor then moves off), but
            // rarely what someone who writes it means.
            d.note(ctx.where(p), p + ": " + std::to_string(mhz) + " MHz at boot only: the " + c.governor.name +
                                     " governor sets the frequency from its start (to hold " + std::to_string(mhz) +
                                     " MHz, also set governor.name=userspace)");
    }
}

// Another governor's tunables are kept but not read. Said when that is likely a slip: written on
// the command line, or in the same file that names the governor. (A scenario written for
// interactive, run with --set governor.name=ondemand, is not a slip.)
void note_unread_tunables(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    for (const char* other : {"interactive", "ondemand", "conservative", "schedutil"}) {
        const std::string p = std::string("governor.") + other;
        if (c.governor.name == other || !ctx.given(p))
            continue;
        mark at = ctx.where(p);
        const bool slip = ctx.given_below_in(p, "--set", at) ||
                          (at.file != "--set" && at.file == ctx.where("governor.name").file);
        if (slip)
            d.note(at, p + ": " + other + "'s tunables are not read: the governor is " + c.governor.name);
    }
}

// switcher.activity turns on a switcher, which needs two clusters to pair.
void check_switcher_activity(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    bool activity_on = false;
    for (const activity_change& a : c.switcher.activity)
        activity_on |= a.active;
    if (activity_on && c.soc.clusters.size() != 2)
        d.error(ctx.where("switcher.activity"), "switcher.activity: the switcher pairs the CPUs of "
                                                "two clusters; the SoC has " +
                                                    std::to_string(c.soc.clusters.size()));
}

// The scheduler's periods: a slice fits in the latency, the real-time runtime in its period.
void check_sched(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    if (c.sched.latency_us < c.sched.min_granularity_us)
        d.error(ctx.where("sched.latency_us"), "sched.latency_us: " + std::to_string(c.sched.latency_us) +
                                                   " us is shorter than sched.min_granularity_us (" +
                                                   std::to_string(c.sched.min_granularity_us) +
                                                   " us): the period holds at least one slice");
    if (c.sched.rt_runtime_us > c.sched.rt_period_us)
        d.error(ctx.where("sched.rt_runtime_us"),
                "sched.rt_runtime_us: " + std::to_string(c.sched.rt_runtime_us) + " us is longer than sched.rt_period_us (" +
                    std::to_string(c.sched.rt_period_us) + " us): Linux refuses it (-1 lifts the limit)");
}

// The cpufreq driver's merged table, as the kernel builds it: refused here when it would be, and
// what the switcher's timeline is checked against. Built into @table when the switcher runs at
// any time and the SoC has a big cluster (@big); whether it was.
bool build_merged_table(const scenario_config& c, int big, bls_vtable& table, const bind_context& ctx,
                        diagnostics& d)
{
    bool have_table = false;
    if (ever_switched(c) && big >= 0) {
        const model::cluster_params &bg = c.soc.clusters[static_cast<std::size_t>(big)],
                                    &lt = c.soc.clusters[static_cast<std::size_t>(1 - big)];
        if (!bg.opps.empty() && !lt.opps.empty() && bg.opps.size() <= BLS_MAX_OPPS && lt.opps.size() <= BLS_MAX_OPPS) {
            unsigned bm[BLS_MAX_OPPS], lm[BLS_MAX_OPPS];
            for (std::size_t i = 0; i < bg.opps.size(); i++)
                bm[i] = static_cast<unsigned>(bg.opps[i].freq_mhz);
            for (std::size_t i = 0; i < lt.opps.size(); i++)
                lm[i] = static_cast<unsigned>(lt.opps[i].freq_mhz);
            have_table = bls_cpufreq_build(&table, 0, bm, static_cast<unsigned>(bg.opps.size()), 1, lm,
                                           static_cast<unsigned>(lt.opps.size())) == 0;
            if (!have_table) {
                const std::string q = "soc.clusters[" + std::to_string(1 - big) + "].opps[" +
                                      std::to_string(lt.opps.size() - 1) + "].freq_mhz";
                d.error(ctx.where(q), q + ": with the switcher, the little cluster's OPPs at half their "
                                          "frequency (up to " +
                                          std::to_string(lt.opps.back().freq_mhz / 2) +
                                          " virtual MHz) must not pass the big cluster's (from " +
                                          std::to_string(bg.opps.front().freq_mhz) +
                                          " MHz): the cpufreq driver's merged table would interleave");
            }
        }
    }
    return have_table;
}

// The frequencies written to scaling_setspeed at run time (governor.setspeed): the userspace
// governor's, for a CPU that exists, at a frequency it can take then.
void check_setspeed(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    const cpu_limit pinnable = pinnable_cpus(c);
    const int nlogical = pinnable.cpus;
    const std::string& cpus_are = pinnable.what;
    const int big = big_cluster(c.soc);
    bls_vtable table;
    const bool have_table = build_merged_table(c, big, table, ctx, d);
    for (std::size_t i = 0; i < c.governor.setspeed.size(); i++) {
        const freq_request& r = c.governor.setspeed[i];
        const std::string p = "governor.setspeed[" + std::to_string(i) + "]";
        if (c.governor.name != "userspace") {
            d.error(ctx.where(p), p + ": scaling_setspeed is the userspace governor's; the governor is " +
                                      c.governor.name);
            break;
        }
        if (r.cpu >= nlogical) {
            d.error(ctx.where(p + ".cpu"), p + ".cpu: cpu" + std::to_string(r.cpu) +
                                               " does not exist (the SoC has " +
                                               std::to_string(nlogical) + cpus_are);
            continue;
        }
        // A virtual frequency while the switcher is on, a real one of the CPU's cluster without:
        // as the switcher is at boot or as the changes before the write leave it (the kernel
        // takes a change a little later, and refuses a write it cannot take, counting it).
        auto valid = [&](bool switched) {
            if (switched) // the merged virtual table (without one, its own error is reported above)
                return big >= 0 && (!have_table || bls_cpufreq_lookup(&table, static_cast<unsigned>(r.freq_mhz)) != nullptr);
            int cpu = r.cpu;
            for (const model::cluster_params& cl : c.soc.clusters) {
                if (cpu < cl.cores)
                    return std::any_of(cl.opps.begin(), cl.opps.end(),
                                       [&](const model::opp_point& o) { return o.freq_mhz == r.freq_mhz; });
                cpu -= cl.cores;
            }
            return false;
        };
        const bool on = switched_at(c, r.at_ms);
        const bool ok = valid(on) || valid(mode_switched(c.mode));
        if (!ok)
            d.error(ctx.where(p + ".freq_mhz"),
                    p + ".freq_mhz: " + std::to_string(r.freq_mhz) + " MHz is not " +
                        (on ? "in the switcher's virtual frequency table"
                                            : "an OPP of the CPU's cluster"));
    }
}

} // namespace

void check(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    check_clusters(c, ctx, d);
    check_device_windows(c, ctx, d);
    check_cci_ports(c, ctx, d);
    check_gic(c, ctx, d);
    check_boot_frequencies(c, ctx, d);
    note_unread_tunables(c, ctx, d);
    check_modes(c, ctx, d);
    check_faults(c, ctx, d);
    check_switcher_activity(c, ctx, d);
    check_workload_tasks(c, ctx, d);
    check_idle_states(c, ctx, d);
    check_governor(c, ctx, d);
    check_sched(c, ctx, d);
    check_setspeed(c, ctx, d);
}

} // namespace detail

} // namespace blsim::soc
