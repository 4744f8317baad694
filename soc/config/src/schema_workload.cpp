// soc/config/src/schema_workload.cpp -- the workload's schema: constant task sets, BBench, audio,
// rt-app, replays (docs/config.md).
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

schema<workloads::util_step> util_step_schema()
{
    schema<workloads::util_step> s;
    s.real("at_ms", &workloads::util_step::at_ms, 0, 1e9, "ms", "From this time on (by release).", true)
        .real("util_pct", &workloads::util_step::util_pct, 0, 100, "%",
              "Work per period from then, as a share of the period on the reference CPU.", true);
    return s;
}

std::vector<std::pair<std::string, workloads::task_info::policy_t>> policy_choices()
{
    return {{"SCHED_OTHER", workloads::task_info::normal},
            {"SCHED_FIFO", workloads::task_info::fifo},
            {"SCHED_RR", workloads::task_info::rr}};
}

schema<workloads::task_params> task_schema()
{
    using p = workloads::task_params;
    schema<p> s;
    s.text("name", &p::name, "Task name.", true)
        .integers("cpus", &p::cpus, 0, BLS_MAX_CPUS - 1, BLS_MAX_CPUS, "",
                  "Logical CPUs the task may run on (its affinity); empty: every one. Each must "
                  "exist in every mode of the run (below the paired count if the switcher is ever on).")
        .integer("nice", &p::nice, -20, 19, "", "Nice value: its share when CPUs are contended.")
        .choice("policy", &p::policy, policy_choices(),
                "Scheduling class: SCHED_OTHER (CFS), or real time, SCHED_FIFO or SCHED_RR.")
        .integer("rt_priority", &p::rt_priority, 0, 99, "",
                 "Real-time priority, 1..99 (higher first), with SCHED_FIFO and SCHED_RR; 0 with SCHED_OTHER.")
        .real("util_pct", &p::util_pct, 0, 100, "%",
              "Work per period, as a share of the period on the reference CPU.", true)
        .real("period_ms", &p::period_ms, 0.001, 1e6, "ms", "Release period.", true)
        .real("offset_ms", &p::offset_ms, 0, 1e6, "ms", "Time of the first release.")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "",
              "Share of the work that is memory stall and does not scale with frequency.")
        .integer("working_set_kb", &p::working_set_kb, 0, 1048576, "KiB",
                 "Data the task touches each time it runs; a cold cache fetches it "
                 "(0: no cache effects).")
        .real("write_fraction", &p::write_fraction, 0, 1, "",
              "Share of the working set the task dirties.")
        .list("util_steps", &p::util_steps, util_step_schema(), 0, 10000,
              "Later utilisations: from each step's at_ms on, its util_pct (ascending times).");
    return s;
}

schema<workloads::bbench_page> bbench_page_schema()
{
    using p = workloads::bbench_page;
    schema<p> s;
    s.text("name", &p::name, "Page name.", true)
        .integer("resources", &p::resources, 1, 1000, "",
                 "Files read and processed one after another (the HTML, scripts, style sheets, images).")
        .real("work_ms", &p::work_ms, 0, 1e6, "ms",
              "The page load's CPU work in all its phases, on the reference CPU (split by workload.bbench.phases).")
        .real("height_px", &p::height_px, 0, 1e6, "px", "The document's height: how far BBench scrolls it.");
    return s;
}

schema<workloads::bbench_phase> bbench_phase_schema()
{
    using p = workloads::bbench_phase;
    schema<p> s;
    s.real("share", &p::share, 0, 1, "", "Share of a page's load work (the phases' shares add up to 1).")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "",
              "Share of the phase's work that is memory stall (DRAM's time on either core).");
    return s;
}

schema<workloads::bbench_phases> bbench_phases_schema()
{
    using p = workloads::bbench_phases;
    schema<p> s;
    s.object("parse", &p::parse, bbench_phase_schema(), "Main thread: HTML parsing, DOM building.")
        .object("script", &p::script, bbench_phase_schema(), "Main thread: JavaScript.")
        .object("style", &p::style, bbench_phase_schema(), "Main thread: CSS style resolution.")
        .object("layout", &p::layout, bbench_phase_schema(),
                "Main thread: layout (also the memory fraction of a scroll step's event).")
        .object("paint", &p::paint, bbench_phase_schema(), "Raster thread: painting the changed tiles.")
        .object("composite", &p::composite, bbench_phase_schema(), "Compositor: drawing the frame.");
    return s;
}

schema<workloads::bbench_scroll> bbench_scroll_schema()
{
    using p = workloads::bbench_scroll;
    schema<p> s;
    s.real("settle_ms", &p::settle_ms, 0, 1e6, "ms",
           "From a page's onload to its first scroll step (none for the run's first page).")
        .real("delay_ms", &p::delay_ms, 0, 1e6, "ms", "Between two scroll steps (BBench's scrollDelay).")
        .real("step_px", &p::step_px, 1, 1e6, "px", "How far a step scrolls (BBench's scrollSize).")
        .real("main_ms", &p::main_ms, 0, 1e5, "ms", "Main thread's work per step (the scroll event), on the reference CPU.")
        .real("paint_ms", &p::paint_ms, 0, 1e5, "ms", "Raster thread's work per step (the newly exposed tiles).")
        .real("composite_ms", &p::composite_ms, 0, 1e5, "ms", "Compositor's work per step (one frame).");
    return s;
}

schema<workloads::bbench_params> bbench_schema()
{
    using p = workloads::bbench_params;
    schema<p> s;
    s.list("pages", &p::pages, bbench_page_schema(), 0, 1000,
           "The sites, visited in this order; empty: BBench's nine (docs/workloads.md).")
        .integer("iterations", &p::iterations, 0, 1000000, "",
                 "Passes over the sites (BBench's: 2; the score takes every pass but the first); 0: until the run ends.")
        .real("start_ms", &p::start_ms, 0, 1e9, "ms", "The first request.")
        .real("io_cold_ms", &p::io_cold_ms, 0, 1e5, "ms",
              "Reading one resource from storage, in the first pass (block I/O: the CPU's iowait).")
        .real("io_warm_ms", &p::io_warm_ms, 0, 1e5, "ms", "Reading one resource in later passes (the page cache).")
        .object("phases", &p::phases, bbench_phases_schema(), "A page load's phases: share of its work, memory stall.")
        .object("scroll", &p::scroll, bbench_scroll_schema(), "Scrolling each page to the bottom after it loads.")
        .real("jitter_pct", &p::jitter_pct, 0, 100, "%",
              "Each resource's amounts drawn uniformly within +- this share (from the seed).")
        .boolean("shuffle", &p::shuffle,
                 "Each pass visits the sites in an order drawn from the seed (BBench: false, a fixed order).")
        .integer("main_working_set_kb", &p::main_working_set_kb, 0, 1048576, "KiB",
                 "Main thread's data per resource or scroll step.")
        .integer("raster_working_set_kb", &p::raster_working_set_kb, 0, 1048576, "KiB",
                 "Raster thread's data per item.")
        .integer("composite_working_set_kb", &p::composite_working_set_kb, 0, 1048576, "KiB",
                 "Compositor's data per frame.")
        .integers("cpus", &p::cpus, 0, BLS_MAX_CPUS - 1, BLS_MAX_CPUS, "",
                  "The browser threads' affinity; empty: every CPU. As tasks[].cpus, CPUs of "
                  "every mode of the run.");
    return s;
}

schema<workloads::audio_thread_params> audio_thread_schema()
{
    using p = workloads::audio_thread_params;
    schema<p> s;
    s.real("period_ms", &p::period_ms, 0.1, 1000, "ms", "It wakes every period, and must be done within it.")
        .real("work_us", &p::work_us, 0, 1e6, "us", "Work each time, on the reference CPU.")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "", "Share of the work that is memory stall.")
        .integer("nice", &p::nice, -20, 19, "", "Nice value (SCHED_OTHER).")
        .choice("policy", &p::policy, policy_choices(),
                "Scheduling class: SCHED_OTHER (CFS), or real time, SCHED_FIFO or SCHED_RR.")
        .integer("rt_priority", &p::rt_priority, 0, 99, "",
                 "Real-time priority, 1..99 (higher first), with SCHED_FIFO and SCHED_RR; 0 with SCHED_OTHER.");
    return s;
}

schema<audio_config> audio_schema()
{
    using p = audio_config;
    schema<p> s;
    s.boolean("enabled", &p::enabled, "Music plays beside the workload (with kind: audio, alone).")
        .object<workloads::audio_thread_params>("decoder", &p::decoder, audio_thread_schema(),
                "The MP3 decoder: one frame (1152 samples, 26.1 ms at 44.1 kHz) each period.")
        .object<workloads::audio_thread_params>("mixer", &p::mixer, audio_thread_schema(),
                "The audio server's mixer: one hardware buffer each period (TC2: 1024 frames at 48 kHz).")
        .integer("working_set_kb", &p::working_set_kb, 0, 1048576, "KiB", "Data each thread touches per wake-up.")
        .real("start_ms", &p::start_ms, 0, 1e9, "ms", "Both threads' first wake-up.")
        .integers("cpus", &p::cpus, 0, BLS_MAX_CPUS - 1, BLS_MAX_CPUS, "", "Affinity; empty: every CPU. As tasks[].cpus, CPUs of every mode of the "
                  "run.");
    return s;
}

schema<replay_config> replay_schema()
{
    using p = replay_config;
    schema<p> s;
    s.text("csv", &p::csv, "CSV of time_ms,task,util_pct[,cpu] rows (a header line first), relative to the scenario "
           "(to the working directory when given with --set).")
        .real("period_ms", &p::period_ms, 0.1, 1e5, "ms", "Each task runs its utilisation of every period.")
        .boolean("pin_cpus", &p::pin_cpus, "Pin each task to the cpu of its first row (the cpu column), which must "
                 "exist in every mode of the run (as tasks[].cpus).")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "", "Share of the work that is memory stall.")
        .integer("working_set_kb", &p::working_set_kb, 0, 1048576, "KiB", "Data each job touches.");
    return s;
}

schema<rtapp_io_config> rtapp_io_schema()
{
    using p = rtapp_io_config;
    schema<p> s;
    s.real("bandwidth_mb_s", &p::bandwidth_mb_s, 0.1, 1e5, "MB/s",
           "The write bandwidth rt-app's iorun gets from a device other than /dev/null: the thread waits in "
           "I/O wait for its bytes at this rate (dirty-page throttling; docs/workloads.md). 20: a 2013 "
           "phone's eMMC, an assumption.")
        .real("latency_us", &p::latency_us, 0, 1e6, "us", "Added to each write(2) of such a device.");
    return s;
}

schema<taskgroup_shares> taskgroup_shares_schema()
{
    using p = taskgroup_shares;
    schema<p> s;
    s.text("path", &p::path, "A taskgroup of the rt-app document (\"/tg1\", \"/tg1/tg11\").")
        .integer("shares", &p::shares, 2, 262144, "", "Its cpu.shares (cgroup v1): its weight against its siblings.");
    return s;
}

schema<workload_config> workload_schema()
{
    schema<workload_config> s;
    s.choice("kind", &workload_config::kind,
             {{"constant", std::string("constant")},
              {"bbench", std::string("bbench")},
              {"audio", std::string("audio")},
              {"rtapp", std::string("rtapp")},
              {"replay", std::string("replay")}},
             "Workload. constant: periodic tasks of constant utilisation; bbench: a browser loading "
             "pages; audio: the music decoder alone; rtapp: rt-app threads; replay: utilisation "
             "over time from a CSV (docs/workloads.md).")
        .list("tasks", &workload_config::tasks, task_schema(), 0, BLS_MAX_TASKS,
              "constant: the task set.")
        .object("bbench", &workload_config::bbench, bbench_schema(), "bbench: the browser and its pages.")
        .object("audio", &workload_config::audio, audio_schema(), "Background audio (any kind).")
        .tree("rtapp", &workload_config::rtapp,
              "rtapp: an rt-app document ({global, tasks}) written here, as its JSON would be.")
        .text("rtapp_json", &workload_config::rtapp_json,
              "rtapp: an rt-app JSON file, relative to the scenario (to the working directory when given "
              "with --set), instead of rtapp.")
        .object("rtapp_io", &workload_config::rtapp_io, rtapp_io_schema(),
                "rtapp: the block device iorun writes to when global.io_device is not /dev/null.")
        .list("rtapp_taskgroups", &workload_config::rtapp_taskgroups, taskgroup_shares_schema(), 0, BLS_MAX_GROUPS - 1,
              "rtapp: cpu.shares of the document's taskgroups (rt-app creates them at 1024, the default here).")
        .object("replay", &workload_config::replay, replay_schema(), "replay: the trace and how to replay it.");
    return s;
}

} // namespace detail

} // namespace blsim::soc
