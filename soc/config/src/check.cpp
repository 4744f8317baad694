// soc/config/src/check.cpp -- the semantic checks of a bound scenario: what the schema's types and
// ranges cannot say (the governor's tunables, modes, the workload, the SoC as a whole).
#include "scenario_internal.h"

#include <bls/cpufreq.h>
#include <bls/cpuidle.h>
#include <bls/governor.h>
#include <bls/kernel.h>
#include <bls/types.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "blsim/model/power_formulas.h"
#include "blsim/soc/rtapp_config.h"
#include "blsim/soc/schema.h"

namespace blsim::soc {

using cfg::bind_context;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;
using cfg::schema;

namespace detail {

// --- semantic checks ----------------------------------------------------------------------

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

// The workload's own rules, and CPU hotplug.
// What a file a key names is relative to: the scenario, or the working directory for a path
// given on the command line (--set), as a path typed in a shell is read (the SoC's likewise).
std::string relative_to(const mark& given_at, const std::string& scenario_path)
{
    return given_at.file == "--set" ? std::string("./") : scenario_path;
}

// A file a scenario names (relative to it) as the run read it: absolute (or built in), so
// that effective-config.yaml, written elsewhere, names the same file when it is run again.
std::string source_path_as_run(const std::string& scenario_path, const std::string& ref)
{
    const std::string resolved = resolve_relative(scenario_path, ref);
    if (resolved.rfind(builtin_prefix, 0) == 0)
        return resolved;
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(resolved, ec);
    return ec ? resolved : abs.lexically_normal().string();
}

// A task's class and real-time priority agree: 1..99 with SCHED_FIFO and SCHED_RR, 0 (none)
// with SCHED_OTHER (sched_setscheduler's EINVAL).
void check_class(workloads::task_info::policy_t policy, int rt_priority, const std::string& p,
                 const bind_context& ctx, diagnostics& d)
{
    const bool rt = policy != workloads::task_info::normal;
    if (rt && rt_priority < 1)
        d.error(ctx.where(p + ".rt_priority"), p + ".rt_priority: a real-time task (" +
                                                   (policy == workloads::task_info::fifo ? "SCHED_FIFO" : "SCHED_RR") +
                                                   ") needs a priority 1..99");
    else if (!rt && rt_priority != 0)
        d.error(ctx.where(p + ".rt_priority"), p + ".rt_priority: " + std::to_string(rt_priority) +
                                                   " is a real-time priority, but the policy is SCHED_OTHER: give "
                                                   "policy SCHED_FIFO or SCHED_RR, or use nice");
}

void check_workload(scenario_config& c, const std::string& path, const bind_context& ctx, diagnostics& d)
{
    workload_config& w = c.workload;
    for (std::size_t i = 0; i < w.tasks.size(); i++)
        check_class(w.tasks[i].policy, w.tasks[i].rt_priority, "workload.tasks[" + std::to_string(i) + "]", ctx, d);
    check_class(w.audio.decoder.policy, w.audio.decoder.rt_priority, "workload.audio.decoder", ctx, d);
    check_class(w.audio.mixer.policy, w.audio.mixer.rt_priority, "workload.audio.mixer", ctx, d);
    if (w.kind != "constant" && !w.tasks.empty())
        d.error(ctx.where("workload.tasks"), "workload.tasks: only with kind: constant (this workload is " + w.kind + ")");
    if (w.kind != "rtapp" && (!w.rtapp.is_null() || !w.rtapp_json.empty()))
        d.error(ctx.where(w.rtapp_json.empty() ? "workload.rtapp" : "workload.rtapp_json"),
                std::string(w.rtapp_json.empty() ? "workload.rtapp" : "workload.rtapp_json") +
                    ": only with kind: rtapp (this workload is " + w.kind + ")");
    if (w.kind != "rtapp" && !w.rtapp_taskgroups.empty())
        d.error(ctx.where("workload.rtapp_taskgroups"),
                "workload.rtapp_taskgroups: only with kind: rtapp (this workload is " + w.kind + ")");
    if (w.kind == "replay") {
        if (w.replay.csv.empty())
            d.error(ctx.where("workload.replay"), "workload.replay.csv: kind replay needs the trace's CSV file");
        else {
            const mark at = ctx.where("workload.replay.csv");
            const std::string from = relative_to(at, path);
            load_replay_csv(resolve_relative(from, w.replay.csv), w, at, pinnable_cpus(c), d);
            w.replay.csv = source_path_as_run(from, w.replay.csv);
        }
    }
    if (w.kind == "rtapp") {
        const bool inline_doc = !w.rtapp.is_null(), file = !w.rtapp_json.empty();
        if (inline_doc == file)
            d.error(ctx.where("workload"), "workload: kind rtapp needs exactly one of rtapp (the document) and "
                                           "rtapp_json (a file)");
        else if (inline_doc)
            parse_rtapp(w.rtapp, d, w.rtapp_params, "workload.rtapp", pinnable_cpus(c));
        else {
            const mark at = ctx.where("workload.rtapp_json");
            const std::string from = relative_to(at, path);
            load_rtapp_json(resolve_relative(from, w.rtapp_json), d, w.rtapp_params, &at, pinnable_cpus(c));
            w.rtapp_json = source_path_as_run(from, w.rtapp_json);
        }
        // The shares given to its taskgroups: each names one, once.
        std::set<std::string> seen;
        for (std::size_t i = 0; i < w.rtapp_taskgroups.size(); i++) {
            const taskgroup_shares& g = w.rtapp_taskgroups[i];
            const std::string p = "workload.rtapp_taskgroups[" + std::to_string(i) + "].path";
            const auto& names = w.rtapp_params.taskgroups;
            const auto it = std::find(names.begin(), names.end(), g.path);
            if (d.ok() && it == names.end())
                d.error(ctx.where(p), p + ": '" + g.path + "' is not a taskgroup of the rt-app document" +
                                          (names.empty() ? std::string(" (it has none)") : ""));
            else if (!seen.insert(g.path).second)
                d.error(ctx.where(p), p + ": '" + g.path + "' is given shares twice");
            else if (it != names.end())
                w.rtapp_params.taskgroup_shares[static_cast<std::size_t>(it - names.begin())] =
                    static_cast<unsigned>(g.shares);
        }
        if (d.ok() && rtapp_nevents(w.rtapp_params) > workloads::max_events) // the music player uses none
            d.error(ctx.where("workload"), "workload: the rt-app document needs more than " +
                                               std::to_string(workloads::max_events) + " events");
    }
    {
        // Every kind's tasks, and the music player's two beside it, share the kernel's task table.
        std::size_t n = 0;
        std::string what;
        if (w.kind == "constant")
            n = w.tasks.size(), what = " constant tasks";
        else if (w.kind == "replay")
            n = w.replay_tasks.size(), what = " replayed tasks";
        else if (w.kind == "bbench")
            n = 3, what = " browser threads";
        else if (w.kind == "audio")
            n = 2, what = " music player threads";
        else if (w.kind == "rtapp") {
            for (const workloads::rtapp_thread& t : w.rtapp_params.threads)
                n += static_cast<std::size_t>(t.instances) + static_cast<std::size_t>(t.forks);
            what = " rt-app threads";
        }
        const std::size_t extra = w.audio.enabled ? 2 : 0;
        if (n + extra > BLS_MAX_TASKS)
            d.error(ctx.where(extra ? "workload.audio.enabled" : "workload"),
                    std::string(extra ? "workload.audio.enabled" : "workload") + ": " + std::to_string(n) + what +
                        (extra ? " and the music player's 2" : "") + "; the kernel runs at most " +
                        std::to_string(BLS_MAX_TASKS) + " tasks");
    }
    if (w.kind == "bbench") {
        // The phases split a page's work: their shares add up to the whole of it.
        const workloads::bbench_phases& ph = w.bbench.phases;
        const double sum = ph.parse.share + ph.script.share + ph.style.share + ph.layout.share + ph.paint.share +
                           ph.composite.share;
        if (std::fabs(sum - 1.0) > 1e-9)
            d.error(ctx.where("workload.bbench.phases"),
                    "workload.bbench.phases: the shares of parse, script, style, layout, paint and composite add "
                    "up to " + cfg::format_number(sum) + ", not 1 (each is a share of a page's load work)");
    }
    if (w.kind == "audio" && w.audio.enabled)
        d.error(ctx.where("workload.audio.enabled"),
                "workload.audio.enabled: kind audio is the music alone; 'enabled' adds it beside another kind");

    // Hotplug.
    int ncpus = 0;
    for (const model::cluster_params& cl : c.soc.clusters)
        ncpus += cl.cores;
    if (c.online_cpus.empty())
        return;
    uint32_t online = 0;
    for (std::size_t k = 0; k < c.online_cpus.size(); k++) {
        const std::string p = "online_cpus[" + std::to_string(k) + "]";
        const int cpu = c.online_cpus[k];
        if (cpu >= ncpus)
            d.error(ctx.where(p), p + ": cpu" + std::to_string(cpu) + " does not exist (the SoC has " +
                                      std::to_string(ncpus) + " CPUs)");
        else if (online >> cpu & 1u)
            d.error(ctx.where(p), p + ": cpu" + std::to_string(cpu) + " is listed twice");
        online |= 1u << cpu;
    }
    if (ever_switched(c) || !c.switcher.activity.empty())
        d.error(ctx.where("online_cpus"), "online_cpus: CPU hotplug is for runs without the switcher "
                                          "(mode smp, hmp or eas, in mode_changes too, and no switcher.activity)");
    for (std::size_t k = 0; k < c.governor.setspeed.size(); k++) {
        const int cpu = c.governor.setspeed[k].cpu;
        if (cpu >= 0 && cpu < 32 && !(online >> cpu & 1u)) {
            const std::string p = "governor.setspeed[" + std::to_string(k) + "].cpu";
            d.error(ctx.where(p), p + ": cpu" + std::to_string(cpu) + " is offline (online_cpus)");
        }
    }
    auto check_affinity = [&](const std::vector<int>& cpus, const std::string& p, const std::string& who) {
        if (cpus.empty())
            return;
        for (int cpu : cpus)
            if (cpu < 32 && (online >> cpu & 1u))
                return;
        d.error(ctx.where(p), p + ": " + who + " may run only on offline CPUs (online_cpus)");
    };
    for (std::size_t i = 0; i < w.tasks.size(); i++)
        check_affinity(w.tasks[i].cpus, "workload.tasks[" + std::to_string(i) + "].cpus", "task '" + w.tasks[i].name + "'");
    check_affinity(w.bbench.cpus, "workload.bbench.cpus", "the browser");
    check_affinity(w.audio.cpus, "workload.audio.cpus", "the music player");
}

void check(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    std::set<std::string> names;
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++) {
        const model::cluster_params& cl = c.soc.clusters[i];
        const std::string p = "soc.clusters[" + std::to_string(i) + "]";
        if (!names.insert(cl.name).second)
            d.error(ctx.where(p + ".name"), p + ".name: cluster name '" + cl.name + "' is used twice");
        if (cl.opps.size() > BLS_MAX_OPPS)
            d.error(ctx.where(p + ".opps"), p + ".opps: " + std::to_string(cl.opps.size()) +
                                                " OPPs; the kernel's cpufreq tables hold " +
                                                std::to_string(BLS_MAX_OPPS) + " (a limit of this model)");
        // A power model's coefficients have no sensible default: 0 would report 0 J, and no
        // leakage an idle cluster that costs nothing.
        if (!ctx.given(p + ".eas_mw_per_unit"))
            d.error(ctx.where(p), p + ".eas_mw_per_unit: required: how many mW one of the cluster's EAS units is "
                                      "(TC2: A15 0.1872, A7 0.1432; docs/calibration.md)");
        if (!ctx.given(p + ".leakage"))
            d.error(ctx.where(p), p + ".leakage: required: the cluster's static power while powered, "
                                      "{shared_mw, core_mw, l2_uw_per_kb} at ref_mv (scripts/calibrate-power "
                                      "derives it from the EAS tables; docs/calibration.md)");
        if (c.soc.energy.model == model::power_model_kind::cv2f)
            for (const char* k : {"core_dyn_uw_per_mhz_v2", "cluster_dyn_uw_per_mhz_v2"})
                if (!ctx.given(p + ".cv2f." + k))
                    d.error(ctx.where(p + ".cv2f." + k),
                            p + ".cv2f." + k + ": required with soc.energy.model cv2f (docs/calibration.md)");
        for (std::size_t k = 1; k < cl.opps.size(); k++) {
            const std::string q = p + ".opps[" + std::to_string(k) + "]";
            if (cl.opps[k].freq_mhz <= cl.opps[k - 1].freq_mhz)
                d.error(ctx.where(q + ".freq_mhz"),
                        q + ".freq_mhz: OPPs must be in strictly ascending frequency order");
            if (cl.opps[k].voltage_mv < cl.opps[k - 1].voltage_mv)
                d.error(ctx.where(q + ".voltage_mv"),
                        q + ".voltage_mv: voltage must not fall as frequency rises");
            // A faster clock at no lower a supply draws no less (C*V^2*f): a busy core costs at
            // least what it costs an OPP below. (Not the cluster's power: measured tables, TC2's
            // A7 one among them, dip where the static power they contain was measured lower.)
            if (cl.opps[k].freq_mhz > cl.opps[k - 1].freq_mhz &&
                cl.opps[k].core_power_eas < cl.opps[k - 1].core_power_eas)
                d.error(ctx.where(q + ".core_power_eas"),
                        q + ".core_power_eas: a busy core's power must not fall as frequency rises: " +
                            cfg::format_number(cl.opps[k].core_power_eas) + " at " +
                            std::to_string(cl.opps[k].freq_mhz) + " MHz is below opps[" + std::to_string(k - 1) +
                            "]'s " + cfg::format_number(cl.opps[k - 1].core_power_eas) + " at " +
                            std::to_string(cl.opps[k - 1].freq_mhz) + " MHz");
        }
        // The scheduler's EAS idle costs draw no more than the states above them: powered down
        // no more than powered and idle, idle no more than busy at any OPP.
        if (cl.off_power_eas > cl.wfi_power_eas)
            d.error(ctx.where(p + ".off_power_eas"),
                    p + ".off_power_eas: a cluster powered down may not draw more than powered and idle "
                        "(wfi_power_eas " + cfg::format_number(cl.wfi_power_eas) + ")");
        for (std::size_t k = 0; k < cl.opps.size(); k++)
            if (cl.wfi_power_eas > cl.opps[k].cluster_power_eas) {
                d.error(ctx.where(p + ".wfi_power_eas"),
                        p + ".wfi_power_eas: a cluster powered and idle may not draw more than busy (opps[" +
                            std::to_string(k) + "].cluster_power_eas " +
                            cfg::format_number(cl.opps[k].cluster_power_eas) + ")");
                break;
            }
        // The hardware's busy cluster (the EAS table, less its cores' leakage, plus any L2
        // beyond the one it was measured with) draws at least what it draws idle (leakage and
        // clock): the table was measured with the cluster's static power in it.
        if (c.soc.energy.model == model::power_model_kind::eas)
            for (std::size_t k = 0; k < cl.opps.size(); k++) {
                const model::opp_point& o = cl.opps[k];
                const double busy = model::eas_uncore_busy_mw(cl, static_cast<int>(k), o.voltage_mv);
                const double idle = model::uncore_idle_mw(cl, o.freq_mhz, o.voltage_mv);
                if (busy >= idle * (1 - 1e-12))
                    continue;
                const int eas_kb = cl.eas_l2_kb > 0 ? cl.eas_l2_kb : cl.caches.l2_kb;
                char buf[512];
                if (eas_kb != cl.caches.l2_kb && ctx.given(p + ".eas_l2_kb")) {
                    // The leakage describes the cluster the tables were measured on: with
                    // eas_l2_kb of L2, whose leakage the table's static power must contain.
                    std::snprintf(buf, sizeof buf,
                                  "tables measured with %d KiB of L2 contain its leakage, %.4g mW at %d MHz "
                                  "beside the shared logic's and the cores', more than the table's %.4g mW: "
                                  "derive the leakage for that L2 (scripts/calibrate-power)",
                                  eas_kb, model::l2_leakage_mw(cl, eas_kb, o.voltage_mv), o.freq_mhz,
                                  o.cluster_power_eas * cl.eas_mw_per_unit);
                    const std::string q = p + ".eas_l2_kb";
                    d.error(ctx.where(q), q + ": " + buf);
                    break;
                }
                std::snprintf(buf, sizeof buf,
                              "busy at %d MHz this cluster's shared logic draws %.4g mW (the table's %.4g, "
                              "less %d cores' leakage%s), below the %.4g mW it draws idle: its leakage and "
                              "clock (leakage, clock_uw_per_mhz_v2) exceed what the table measured; lower "
                              "them, or check the table",
                              o.freq_mhz, busy, o.cluster_power_eas * cl.eas_mw_per_unit, cl.cores,
                              eas_kb != cl.caches.l2_kb ? ", with the L2 leakage of caches.l2_kb - eas_l2_kb" : "",
                              idle);
                const std::string q = p + ".opps[" + std::to_string(k) + "].cluster_power_eas";
                d.error(ctx.where(q), q + ": " + buf);
                break;
            }
        if (cl.boot_freq_mhz != 0 &&
            std::none_of(cl.opps.begin(), cl.opps.end(),
                         [&](const model::opp_point& o) { return o.freq_mhz == cl.boot_freq_mhz; }))
            d.error(ctx.where(p + ".boot_freq_mhz"), p + ".boot_freq_mhz: " +
                                                         std::to_string(cl.boot_freq_mhz) +
                                                         " MHz is not an OPP of cluster '" +
                                                         cl.name + "'");
    }

    // Device windows on the system bus may not overlap.
    struct window {
        const char* key;
        std::uint64_t base, size;
    };
    const window windows[] = {
        {"soc.gic.dist_base", static_cast<std::uint64_t>(c.soc.gic.dist_base), 0x1000},
        {"soc.gic.cpu_base", static_cast<std::uint64_t>(c.soc.gic.cpu_base), 0x2000},
        {"soc.cci.base", static_cast<std::uint64_t>(c.soc.cci.base), 0x10000},
        {"soc.sram.base", static_cast<std::uint64_t>(c.soc.sram.base), static_cast<std::uint64_t>(c.soc.sram.size_kb) * 1024},
        {"soc.spc.base", static_cast<std::uint64_t>(c.soc.spc.base), 0x100},
    };
    for (std::size_t i = 0; i < std::size(windows); i++)
        for (std::size_t k = 0; k < i; k++) {
            const window &a = windows[k], &b = windows[i];
            if (a.base < b.base + b.size && b.base < a.base + a.size) {
                char buf[160];
                std::snprintf(buf, sizeof buf, ": [0x%llx, 0x%llx) overlaps %s's [0x%llx, 0x%llx)",
                              static_cast<unsigned long long>(b.base), static_cast<unsigned long long>(b.base + b.size),
                              a.key, static_cast<unsigned long long>(a.base),
                              static_cast<unsigned long long>(a.base + a.size));
                d.error(ctx.where(b.key), std::string(b.key) + buf);
            }
        }

    // Each cluster behind an ACE interface of the interconnect, one cluster per interface.
    const model::cci_variant cci = c.soc.cci.variant;
    const std::string cci_name = model::cci_product_name(cci);
    const std::vector<int> ace = ace_ports(cci);
    std::set<int> ports;
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++) {
        const std::string p = "soc.clusters[" + std::to_string(i) + "].cci_port";
        const int port = c.soc.clusters[i].cci_port;
        if (port == -1 && i >= ace.size()) {
            d.error(ctx.where(p), p + ": the " + cci_name + " has " + std::to_string(ace.size()) +
                                      " ACE interfaces; cluster " + std::to_string(i + 1) +
                                      " cannot be made coherent (soc.cci.model: cci-550 has six)");
            continue;
        }
        if (port >= 0 && !model::cci_is_ace(cci, static_cast<unsigned>(port))) {
            d.error(ctx.where(p), p + ": S" + std::to_string(port) + " is not an ACE interface of the " +
                                      cci_name + "; clusters need one of " + port_list(ace));
            continue;
        }
        const int resolved = port == -1 ? ace[i] : port;
        if (!ports.insert(resolved).second)
            d.error(ctx.where(p), p + ": CCI slave interface S" + std::to_string(resolved) +
                                      " serves another cluster already");
    }
    // The GIC-400 has eight CPU interfaces (GICv2's limit: its target fields are 8 bits).
    int ncpus = 0;
    for (const model::cluster_params& cl : c.soc.clusters)
        ncpus += cl.cores;
    if (ncpus > static_cast<int>(model::gic_max_cpus))
        d.error(ctx.where("soc.clusters"), "soc.clusters: " + std::to_string(ncpus) +
                                               " cores; the GIC-400 serves at most " +
                                               std::to_string(model::gic_max_cpus) +
                                               " (GICv2's eight CPU interfaces)");
    if ((32 + c.soc.gic.spis) % 32 != 0)
        d.error(ctx.where("soc.gic.spis"), "soc.gic.spis: 32 + " + std::to_string(c.soc.gic.spis) +
                                               " is not a multiple of 32");
    else if (c.soc.spc.irq >= 32 + c.soc.gic.spis)
        d.error(ctx.where("soc.spc.irq"), "soc.spc.irq: interrupt " + std::to_string(c.soc.spc.irq) +
                                              " is beyond the GIC's " + std::to_string(32 + c.soc.gic.spis) +
                                              " (soc.gic.spis)");

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

    // Another governor's tunables are kept but not read. Said when that is likely a slip:
    // written on the command line, or in the same file that names the governor. (A scenario
    // written for interactive, run with --set governor.name=ondemand, is not a slip.)
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

    check_modes(c, ctx, d);
    // A spurious interrupt every few nanoseconds would leave the run nothing else to simulate.
    if (c.faults.spurious_irq.interval_us > 0 && c.faults.spurious_irq.interval_us < 1)
        d.error(ctx.where("faults.spurious_irq.interval_us"),
                "faults.spurious_irq.interval_us: " + cfg::format_number(c.faults.spurious_irq.interval_us) +
                    " us is below 1 us (0: no spurious interrupts at random)");
    bool activity_on = false;
    for (const activity_change& a : c.switcher.activity)
        activity_on |= a.active;
    if (activity_on && c.soc.clusters.size() != 2)
        d.error(ctx.where("switcher.activity"), "switcher.activity: the switcher pairs the CPUs of "
                                                "two clusters; the SoC has " +
                                                    std::to_string(c.soc.clusters.size()));
    const bool ever_on = ever_switched(c);
    // Tasks stay on logical CPUs that exist whether the switcher is on or off: the constant
    // tasks, the browser and the music player here; rt-app threads and replayed tasks where
    // their files are read (check_workload).
    const cpu_limit pinnable = pinnable_cpus(c);
    const int nlogical = pinnable.cpus;
    const std::string& cpus_are = pinnable.what;
    std::set<std::string> task_names;
    for (std::size_t i = 0; i < c.workload.tasks.size(); i++)
        if (!task_names.insert(c.workload.tasks[i].name).second) {
            const std::string p = "workload.tasks[" + std::to_string(i) + "].name";
            d.error(ctx.where(p), p + ": task name '" + c.workload.tasks[i].name + "' is used twice");
        }
    for (std::size_t i = 0; i < c.workload.tasks.size(); i++) {
        const workloads::task_params& t = c.workload.tasks[i];
        for (std::size_t k = 1; k < t.util_steps.size(); k++)
            if (t.util_steps[k].at_ms < t.util_steps[k - 1].at_ms) {
                const std::string p = "workload.tasks[" + std::to_string(i) + "].util_steps[" + std::to_string(k) + "].at_ms";
                d.error(ctx.where(p), p + ": steps go in time order; " + cfg::format_number(t.util_steps[k].at_ms) +
                                          " ms is before the previous " +
                                          cfg::format_number(t.util_steps[k - 1].at_ms) + " ms");
            }
        for (std::size_t k = 0; k < t.cpus.size(); k++) {
            const std::string p = "workload.tasks[" + std::to_string(i) + "].cpus[" + std::to_string(k) + "]";
            if (t.cpus[k] >= nlogical)
                d.error(ctx.where(p), p + ": cpu" + std::to_string(t.cpus[k]) + " does not exist (the SoC has " +
                                          std::to_string(nlogical) + cpus_are);
        }
    }
    auto check_pinned = [&](const std::vector<int>& cpus, const std::string& key) {
        for (std::size_t k = 0; k < cpus.size(); k++) {
            const std::string p = key + "[" + std::to_string(k) + "]";
            if (cpus[k] >= nlogical)
                d.error(ctx.where(p), p + ": cpu" + std::to_string(cpus[k]) + " does not exist (the SoC has " +
                                          std::to_string(nlogical) + cpus_are);
        }
    };
    check_pinned(c.workload.bbench.cpus, "workload.bbench.cpus");
    check_pinned(c.workload.audio.cpus, "workload.audio.cpus");
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++) {
        const std::vector<model::idle_state_params>& st = c.soc.clusters[i].idle_states;
        const std::string p = "soc.clusters[" + std::to_string(i) + "].idle_states";
        if (!st.empty() && st.front().kind != "wfi")
            d.error(ctx.where(p + "[0].kind"), p + "[0].kind: the shallowest idle state must be wfi");
        for (std::size_t k = 1; k < st.size(); k++)
            if (st[k].target_residency_us < st[k - 1].target_residency_us)
                d.error(ctx.where(p + "[" + std::to_string(k) + "].target_residency_us"),
                        p + "[" + std::to_string(k) + "].target_residency_us: states go shallowest first: " +
                            std::to_string(st[k].target_residency_us) + " us is below the previous state's " +
                            std::to_string(st[k - 1].target_residency_us));
    }
    check_governor(c, ctx, d);
    if (c.sched.latency_us < c.sched.min_granularity_us)
        d.error(ctx.where("sched.latency_us"), "sched.latency_us: " + std::to_string(c.sched.latency_us) +
                                                   " us is shorter than sched.min_granularity_us (" +
                                                   std::to_string(c.sched.min_granularity_us) +
                                                   " us): the period holds at least one slice");
    if (c.sched.rt_runtime_us > c.sched.rt_period_us)
        d.error(ctx.where("sched.rt_runtime_us"),
                "sched.rt_runtime_us: " + std::to_string(c.sched.rt_runtime_us) + " us is longer than sched.rt_period_us (" +
                    std::to_string(c.sched.rt_period_us) + " us): Linux refuses it (-1 lifts the limit)");
    const int big = big_cluster(c.soc);
    // The cpufreq driver's merged table, as the kernel builds it: refused here when it would be,
    // and what the switcher's timeline is checked against.
    bls_vtable table;
    bool have_table = false;
    if (ever_on && big >= 0) {
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

} // namespace detail

} // namespace blsim::soc
