// soc/config/src/check_workload.cpp -- the semantic checks of the workload: what its schema's
// types and ranges cannot say (each kind's own keys, its tasks' classes, names and CPUs, the
// kernel's task table, CPU hotplug). The rt-app documents and replay traces a workload names are
// read here, completing it.
#include "scenario_internal.h"

#include <bls/kernel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>

namespace blsim::soc {

using cfg::bind_context;
using cfg::diagnostics;
using cfg::mark;

namespace detail {

// What a file a key names is relative to: the scenario, or the working directory for a path
// given on the command line (--set), as a path typed in a shell is read (the SoC's likewise).
std::string relative_to(const mark& given_at, const std::string& scenario_path)
{
    return given_at.file == "--set" ? std::string("./") : scenario_path;
}

namespace {

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

// Every task's class: the constant tasks' and the music player's two.
void check_classes(const workload_config& w, const bind_context& ctx, diagnostics& d)
{
    for (std::size_t i = 0; i < w.tasks.size(); i++)
        check_class(w.tasks[i].policy, w.tasks[i].rt_priority, "workload.tasks[" + std::to_string(i) + "]", ctx, d);
    check_class(w.audio.decoder.policy, w.audio.decoder.rt_priority, "workload.audio.decoder", ctx, d);
    check_class(w.audio.mixer.policy, w.audio.mixer.rt_priority, "workload.audio.mixer", ctx, d);
}

// The keys of one kind, given with another.
void check_kind_keys(const workload_config& w, const bind_context& ctx, diagnostics& d)
{
    if (w.kind != "constant" && !w.tasks.empty())
        d.error(ctx.where("workload.tasks"), "workload.tasks: only with kind: constant (this workload is " + w.kind + ")");
    if (w.kind != "rtapp" && (!w.rtapp.is_null() || !w.rtapp_json.empty()))
        d.error(ctx.where(w.rtapp_json.empty() ? "workload.rtapp" : "workload.rtapp_json"),
                std::string(w.rtapp_json.empty() ? "workload.rtapp" : "workload.rtapp_json") +
                    ": only with kind: rtapp (this workload is " + w.kind + ")");
    if (w.kind != "rtapp" && !w.rtapp_taskgroups.empty())
        d.error(ctx.where("workload.rtapp_taskgroups"),
                "workload.rtapp_taskgroups: only with kind: rtapp (this workload is " + w.kind + ")");
}

// A replay workload's trace, read into its tasks.
void read_replay_csv(scenario_config& c, const std::string& path, const bind_context& ctx, diagnostics& d)
{
    workload_config& w = c.workload;
    if (w.replay.csv.empty())
        d.error(ctx.where("workload.replay"), "workload.replay.csv: kind replay needs the trace's CSV file");
    else {
        const mark at = ctx.where("workload.replay.csv");
        const std::string from = relative_to(at, path);
        load_replay_csv(resolve_relative(from, w.replay.csv), w, at, pinnable_cpus(c), d);
        w.replay.csv = source_path_as_run(from, w.replay.csv);
    }
}

// An rt-app workload's document: given inline or in a file, read into its threads.
void read_rtapp_document(scenario_config& c, const std::string& path, const bind_context& ctx, diagnostics& d)
{
    workload_config& w = c.workload;
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
}

// The shares given to the rt-app document's taskgroups: each names one, once.
void apply_taskgroup_shares(workload_config& w, const bind_context& ctx, diagnostics& d)
{
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
}

// The kernel's task table: every kind's tasks, and the music player's two beside it, share it.
void check_task_table(const workload_config& w, const bind_context& ctx, diagnostics& d)
{
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

// The browser's phases split a page's work: their shares add up to the whole of it.
void check_bbench_phases(const workload_config& w, const bind_context& ctx, diagnostics& d)
{
    const workloads::bbench_phases& ph = w.bbench.phases;
    const double sum = ph.parse.share + ph.script.share + ph.style.share + ph.layout.share + ph.paint.share +
                       ph.composite.share;
    if (std::fabs(sum - 1.0) > 1e-9)
        d.error(ctx.where("workload.bbench.phases"),
                "workload.bbench.phases: the shares of parse, script, style, layout, paint and composite add "
                "up to " + cfg::format_number(sum) + ", not 1 (each is a share of a page's load work)");
}

// A task may be pinned to CPUs none of which is online.
void check_affinity(const std::vector<int>& cpus, std::uint32_t online, const std::string& p,
                    const std::string& who, const bind_context& ctx, diagnostics& d)
{
    if (cpus.empty())
        return;
    for (int cpu : cpus)
        if (cpu < 32 && (online >> cpu & 1u))
            return;
    d.error(ctx.where(p), p + ": " + who + " may run only on offline CPUs (online_cpus)");
}

// CPU hotplug (online_cpus): CPUs that exist, once each, without the switcher; the CPUs the
// scenario writes frequencies for and pins tasks to among them.
void check_hotplug(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    const workload_config& w = c.workload;
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
    for (std::size_t i = 0; i < w.tasks.size(); i++)
        check_affinity(w.tasks[i].cpus, online, "workload.tasks[" + std::to_string(i) + "].cpus",
                       "task '" + w.tasks[i].name + "'", ctx, d);
    check_affinity(w.bbench.cpus, online, "workload.bbench.cpus", "the browser", ctx, d);
    check_affinity(w.audio.cpus, online, "workload.audio.cpus", "the music player", ctx, d);
}

// A task's CPUs exist (@pinnable: with the switcher on at any time, only its logical CPUs).
void check_pinned(const std::vector<int>& cpus, const std::string& key, const cpu_limit& pinnable,
                  const bind_context& ctx, diagnostics& d)
{
    for (std::size_t k = 0; k < cpus.size(); k++) {
        const std::string p = key + "[" + std::to_string(k) + "]";
        if (cpus[k] >= pinnable.cpus)
            d.error(ctx.where(p), p + ": cpu" + std::to_string(cpus[k]) + " does not exist (the SoC has " +
                                      std::to_string(pinnable.cpus) + pinnable.what);
    }
}

} // namespace

void check_workload(scenario_config& c, const std::string& path, const bind_context& ctx, diagnostics& d)
{
    workload_config& w = c.workload;
    check_classes(w, ctx, d);
    check_kind_keys(w, ctx, d);
    if (w.kind == "replay")
        read_replay_csv(c, path, ctx, d);
    if (w.kind == "rtapp") {
        read_rtapp_document(c, path, ctx, d);
        apply_taskgroup_shares(w, ctx, d);
        if (d.ok() && rtapp_nevents(w.rtapp_params) > workloads::max_events) // the music player uses none
            d.error(ctx.where("workload"), "workload: the rt-app document needs more than " +
                                               std::to_string(workloads::max_events) + " events");
    }
    check_task_table(w, ctx, d);
    if (w.kind == "bbench")
        check_bbench_phases(w, ctx, d);
    if (w.kind == "audio" && w.audio.enabled)
        d.error(ctx.where("workload.audio.enabled"),
                "workload.audio.enabled: kind audio is the music alone; 'enabled' adds it beside another kind");
    check_hotplug(c, ctx, d);
}

// The constant tasks' names and steps; and their CPUs, the browser's and the music player's.
// Tasks stay on logical CPUs that exist whether the switcher is on or off: these here, rt-app
// threads and replayed tasks where their files are read (check_workload).
void check_workload_tasks(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    const cpu_limit pinnable = pinnable_cpus(c);
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
        check_pinned(t.cpus, "workload.tasks[" + std::to_string(i) + "].cpus", pinnable, ctx, d);
    }
    check_pinned(c.workload.bbench.cpus, "workload.bbench.cpus", pinnable, ctx, d);
    check_pinned(c.workload.audio.cpus, "workload.audio.cpus", pinnable, ctx, d);
}

} // namespace detail

} // namespace blsim::soc
