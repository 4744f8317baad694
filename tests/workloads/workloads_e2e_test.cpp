// tests/workloads/workloads_e2e_test.cpp -- the workloads in whole runs (docs/workloads.md): BBench
// and the music player, rt-app files and their events, a replayed trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "e2e.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

using blsim_test::blsim;
using blsim_test::result;
using blsim_test::run_test;
using blsim_test::scenario;
using blsim_test::slurp;
using blsim_test::rtapp_scenario;

TEST_F(run_test, the_default_run_is_bbench_with_music_on_iks_tuned_and_prints_its_score)
{
    result r = blsim("run --out " + dir.string() + " --set duration_s=3");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("blsim: 'bbench-iks-tuned' (seed 1)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("pages: "), std::string::npos) << r.out;
    // The decoder every MP3 frame (26.122 ms: 115 wake-ups from 0 to 2.978 s), the mixer every
    // buffer of 1024 frames at 48 kHz (21.333 ms: 141 to 2.987 s).
    EXPECT_NE(r.out.find("audio: 256 frames, 0 deadline misses"), std::string::npos) << r.out;
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_GT(s["perf"]["bbench"]["pages"].get<int>(), 0);
    EXPECT_EQ(s["perf"]["audio"]["decoder"]["frames"], 115);
    EXPECT_EQ(s["perf"]["audio"]["mixer"]["frames"], 141);
    EXPECT_GT(s["switches"]["count"].get<int>(), 0);
    // A switch the governor's own sample leads to starts at once (the kswitcher preempts the
    // task, as its real-time thread does), not at the CPU's next interrupt: every inbound is
    // alive within the A15 cluster's 660 us of power-up, its core's 30 us and the accesses
    // around them.
    EXPECT_LT(s["switches"]["request_to_alive_us"]["max"].get<double>(), 700);
}

TEST_F(run_test, a_page_loads_by_its_phase_mix_at_two_opps_on_both_cores)
{
    // One page of one resource, 100 ms of work on the reference CPU (an A15 at 1200 MHz), read
    // at once, no caches modelled, a cluster of two CPUs pinned at one OPP, WFI only (no
    // wake-up from cluster sleep). Its load is the main thread's four phases, each share x
    // 100 ms x ((1 - mem) x s + mem), s the reference's capacity over the CPU's, by hand:
    //   parse 5 % (mem 0.25), script 31 % (0.15), style 20 % (0.35), layout 21 % (0.30)
    //   A15 1200 MHz, s = 1:            5 + 31 + 20 + 21                              = 77 ms
    //   A15  600 MHz, s = 2:            5 x 1.75 + 31 x 1.85 + 20 x 1.65 + 21 x 1.7   = 134.8 ms
    //   A7  1000 MHz, s = 1024 x 1200 / (516 x 1000) = 2.381395:
    //     5 x 2.036046 + 31 x 2.174186 + 20 x 1.897907 + 21 x 1.966977               = 156.845 ms
    //   A7   500 MHz, s = 4.762791:
    //     5 x 3.822093 + 31 x 4.198372 + 20 x 3.445814 + 21 x 3.633953               = 294.489 ms
    // The A7:A15 ratio at the top OPPs, 2.04, is below the 2.38 of pure compute: the stalls run
    // at DRAM's speed on either core.
    const double parse = 5, script = 31, style = 20, layout = 21;
    auto load_ms = [&](double s) {
        return parse * (0.75 * s + 0.25) + script * (0.85 * s + 0.15) + style * (0.65 * s + 0.35) +
               layout * (0.7 * s + 0.3);
    };
    const struct {
        const char *cluster, *cpus;
        int mhz;
        double s;
    } cases[] = {{"a15", "0, 1", 1200, 1.0},
                 {"a15", "0, 1", 600, 2.0},
                 {"a7", "2, 3", 1000, 1024.0 * 1200 / (516.0 * 1000)},
                 {"a7", "2, 3", 500, 1024.0 * 1200 / (516.0 * 500)}};
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(c.cluster) + " " + std::to_string(c.mhz));
        const fs::path out = dir / (std::string(c.cluster) + std::to_string(c.mhz));
        result r = blsim("run -q --out " + out.string() + " --set mode=smp --set 'online_cpus=[" + c.cpus +
                         "]' --set governor.name=userspace --set 'governor.freq_mhz={" + c.cluster + ": " +
                         std::to_string(c.mhz) + "}' --set workload.audio.enabled=false --set cpuidle.enabled=false"
                         " --set duration_s=1 --set 'workload.bbench={pages: [{name: p, resources: 1, work_ms: 100,"
                         " height_px: 0}], iterations: 1, io_cold_ms: 0, jitter_pct: 0, main_working_set_kb: 0,"
                         " raster_working_set_kb: 0, composite_working_set_kb: 0}'");
        ASSERT_EQ(r.status, 0) << r.err;
        const json s = json::parse(slurp(out / "summary.json"));
        ASSERT_EQ(s["perf"]["bbench"]["loads"].size(), 1u);
        EXPECT_NEAR(s["perf"]["bbench"]["loads"][0]["load_s"].get<double>() * 1e3, load_ms(c.s), 1e-3);
    }
    EXPECT_NEAR(load_ms(1.0), 77.0, 1e-9);
    EXPECT_NEAR(load_ms(2.0), 134.8, 1e-9);
}

TEST_F(run_test, two_a15s_load_pages_faster_and_spend_more_energy_than_two_a7s)
{
    // One pass over BBench's nine sites, its scrolling hurried (a step every 100 ms).
    const std::string common = " --set workload.bbench.iterations=1 --set duration_s=16"
                               " --set workload.bbench.scroll.settle_ms=0 --set workload.bbench.scroll.delay_ms=100";
    ASSERT_EQ(blsim("run -q --out " + (dir / "big").string() + " " + scenario("bbench-2xa15.yaml") + common).status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "little").string() + " " + scenario("bbench-2xa7.yaml") + common).status, 0);
    json big = json::parse(slurp(dir / "big" / "summary.json"));
    json little = json::parse(slurp(dir / "little" / "summary.json"));
    ASSERT_EQ(big["perf"]["bbench"]["pages"], 9);
    ASSERT_EQ(little["perf"]["bbench"]["pages"], 9);
    ASSERT_FALSE(little["perf"]["bbench"]["done_s"].is_null());
    EXPECT_LT(big["perf"]["bbench"]["page_load_s"]["total"].get<double>(),
              little["perf"]["bbench"]["page_load_s"]["total"].get<double>());
    EXPECT_GT(big["energy_j"]["total"].get<double>(), little["energy_j"]["total"].get<double>());
    // Music plays without a glitch on the A15s at the governor's defaults.
    EXPECT_EQ(big["perf"]["audio"]["deadline_misses"], 0);
    EXPECT_GT(big["perf"]["audio"]["frames"].get<int>(), 700);
    // Hotplugged out: the A7 cluster is off (after its boot) in the first, the A15s in the
    // second, and the third A7 there too.
    EXPECT_GT(big["residency_s"]["clusters"]["a7"]["off"].get<double>(), 15.9);
    EXPECT_GT(little["residency_s"]["clusters"]["a15"]["off"].get<double>(), 15.9);
    EXPECT_GT(little["residency_s"]["cores"]["cpu4"]["off"].get<double>(), 15.9);
    EXPECT_EQ(little["tasks"]["browser-main"]["cpu"].get<int>() / 2, 1); // cpu2 or cpu3
}

TEST_F(run_test, the_shipped_rt_app_files_run_as_they_are)
{
    for (const char* s : {"rtapp-periodic.yaml", "rtapp-pipeline.yaml"}) {
        const fs::path out = dir / s;
        result r = blsim("run -q --out " + out.string() + " " + scenario(s));
        ASSERT_EQ(r.status, 0) << s << r.err;
        json j = json::parse(slurp(out / "summary.json"));
        EXPECT_EQ(j["workload_errors"], 0) << s;
        ASSERT_TRUE(j["perf"].contains("rtapp")) << s;
        for (const auto& [name, t] : j["perf"]["rtapp"].items())
            EXPECT_GT(t["loops"].get<int>(), 0) << s << " " << name;
    }
}

TEST_F(run_test, an_rt_app_periodic_thread_keeps_less_slack_at_a_lower_frequency)
{
    // One thread pinned on cpu0 (an A15): 2000 us of work (on the reference CPU, the A15 at
    // 1200 MHz) every 10 ms on an absolute timer. WFI only (cpuidle off), so a wake-up costs
    // 1 us. At 1200 MHz the work takes 2 ms and the thread reaches its timer 8 ms before the
    // next period; at 600 MHz it takes 4 ms: 6 ms of slack. The path around each activation
    // (the timer interrupt, the scheduler, the GIC) takes a few microseconds more.
    const fs::path doc = dir / "periodic.yaml";
    fs::create_directories(dir);
    {
        std::ofstream f(doc);
        f << "name: rt\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\nduration_s: 1\n"
          << "cpuidle: {enabled: false}\n"
          << "governor: {name: userspace, freq_mhz: {a15: 1200, a7: 600}}\n"
          << "workload:\n  kind: rtapp\n  rtapp:\n    tasks:\n      t: {loop: -1, cpus: [0], run: 2000, "
             "timer: {ref: unique, period: 10000, mode: absolute}}\n";
    }
    for (int mhz : {1200, 600}) {
        const fs::path out = dir / std::to_string(mhz);
        result r = blsim("run -q --out " + out.string() + " " + doc.string() + " --set governor.freq_mhz.a15=" +
                         std::to_string(mhz));
        ASSERT_EQ(r.status, 0) << r.err;
        json t = json::parse(slurp(out / "summary.json"))["perf"]["rtapp"]["t-0"];
        EXPECT_EQ(t["late_activations"], 0);
        EXPECT_GE(t["loops"].get<int>(), 99);
        const double slack = t["slack_us"]["p50"].get<double>();
        const double expected = mhz == 1200 ? 8000 : 6000;
        EXPECT_LT(slack, expected) << mhz;
        EXPECT_GT(slack, expected - 20) << mhz;
    }
}

// Issue 25: an rt-app file written as rt-app's own use cases are (repeated keys, comments,
// trailing commas, an empty suspend) runs; what is not an event but repeated is a note on
// stderr, not an error, and -q keeps it quiet.
TEST_F(run_test, an_rt_app_file_with_workgens_repeated_keys_runs_with_its_notes)
{
    const std::string file = std::string(BLSIM_SOURCE_DIR) + "/tests/config/data/rtapp/workgen_repeats.json";
    const fs::path cfg = rtapp_scenario(dir, "workgen", "", "0.2", "config/data/rtapp/workgen_repeats.json");
    result r = blsim("run " + cfg.string() + " --out " + dir.string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.substr(0, r.err.find("blsim: 'workgen'")),
              file + ":28:5: note: 'p1' repeated (first at line 19): as rt-app reads it, its value replaces the first "
                     "one's, in its place\n" +
                  file + ":38:3: note: global.frag: rt-app does not read 'frag' (a key of its older versions): ignored\n");
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_GT(s["tasks"]["taskA-0"]["done_ref_ms"].get<double>(), 0);
    EXPECT_GT(s["tasks"]["taskB-1"]["done_ref_ms"].get<double>(), 0);
    r = blsim("run -q --force " + cfg.string() + " --out " + dir.string());
    fs::remove(cfg);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
}

// Issue 25: rt-app's per-phase cpus. The thread runs phase1 on CPU 0, phase2 on CPU 1 and
// phase3 on its own CPU 2, loop after loop. Each phase's run ends where it ran, in its sleep: the
// kernel's trace shows those switches out (prev_state=S) on 0, 1, 2 in turn. (It wakes on the
// CPU it last ran on and moves when its phase sets its CPUs, as rt-app's sched_setaffinity does.)
TEST_F(run_test, an_rt_app_thread_runs_each_phase_on_that_phases_cpus)
{
    const fs::path cfg = rtapp_scenario(dir, "cpus", "hmp", "0.05", "config/data/rtapp/phase_cpus.json");
    result r = blsim("run -q " + cfg.string() + " --trace ftrace --out " + dir.string());
    fs::remove(cfg);
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream in(slurp(dir / "trace.txt"));
    std::string line, cpus;
    while (std::getline(in, line))
        if (line.find("sched_switch: prev_comm=thread0-0 ") != std::string::npos &&
            line.find("prev_state=S") != std::string::npos)
            cpus += line.substr(line.find('[') + 3, 1);
    ASSERT_GE(cpus.size(), 9u) << cpus;
    EXPECT_EQ(cpus.substr(0, 9), "012012012");
}

// Issue 25: rt-app's fork. Each of the parent's two passes forks a child held back for it
// (child-1, child-2, after the threads started at once); each child spins its 5 ms of wall
// time once and exits, under every mode's placement of a new task (HMP: a big CPU; CFS and
// EAS: an idle CPU).
TEST_F(run_test, forked_threads_start_when_forked_and_run_their_definition)
{
    for (const char* mode : {"iks", "hmp", "eas"}) {
        const fs::path cfg = rtapp_scenario(dir, "fork", mode, "0.5", "data/rtapp-fork.json");
        result r = blsim("run -q " + cfg.string() + " --out " + dir.string() + " --force");
        fs::remove(cfg);
        ASSERT_EQ(r.status, 0) << mode << ": " << r.err;
        const json s = json::parse(slurp(dir / "summary.json"));
        for (const char* child : {"child-1", "child-2"}) {
            EXPECT_NEAR(s["tasks"][child]["runtime_s"].get<double>(), 0.005, 1e-5) << mode << " " << child;
            EXPECT_EQ(s["perf"]["rtapp"][child]["loops"], 1) << mode << " " << child;
        }
        EXPECT_EQ(s["perf"]["rtapp"]["parent-0"]["loops"], 2) << mode;
        if (std::string(mode) == "hmp") {
            // HMP's fork_to_big: the parent, light, lives on a little CPU (cpu2..4); its
            // children start on a big one (cpu0, cpu1) with full load, and stay for their 5 ms.
            EXPECT_GE(s["tasks"]["parent-0"]["cpu"].get<int>(), 2);
            for (const char* child : {"child-1", "child-2"})
                EXPECT_LE(s["tasks"][child]["cpu"].get<int>(), 1) << child;
        } else {
            // CFS's fork balancing (find_idlest_cpu): the parent is running when it forks,
            // so each child starts on an idle CPU, not the parent's, and ends its 5 ms there.
            for (const char* child : {"child-1", "child-2"})
                EXPECT_NE(s["tasks"][child]["cpu"], s["tasks"]["parent-0"]["cpu"]) << mode << " " << child;
        }
    }
}

// Issue 25: rt-app's mem through the memory hierarchy. 64 KiB memset once on an A15 (cpu0)
// and once on an A7 (cpu2), performance governor (1200 and 1000 MHz). The buffer is cold: its
// 1024 lines come from DRAM, 65536 B at 8 B x 400 MHz (20.48 us) plus its 100 ns latency,
// 20.58 us on either cluster. The stores, 4096 cycles at 16 B a cycle of the 1200 MHz
// reference (3.413 us), take that on the A15 and 1024 x 1200 / (516 x 1000) = 2.381 times
// longer on the A7 (8.128 us): 23.993 us and 28.708 us of runtime.
TEST_F(run_test, an_rt_app_mem_event_costs_the_dram_fetch_and_the_stores_at_the_cpus_speed)
{
    const fs::path cfg = rtapp_scenario(dir, "mem", "hmp", "0.01", "data/rtapp-mem.json");
    result r = blsim("run -q " + cfg.string() + " --out " + dir.string() + " --set governor.name=performance");
    fs::remove(cfg);
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_NEAR(s["tasks"]["big-0"]["runtime_s"].get<double>(), 23.993e-6, 0.01e-6);
    EXPECT_NEAR(s["tasks"]["little-1"]["runtime_s"].get<double>(), 28.708e-6, 0.01e-6);
    EXPECT_EQ(s["caches"]["a15"]["fetched_lines"], 1024);
    EXPECT_EQ(s["caches"]["a7"]["fetched_lines"], 1024);
}

TEST_F(run_test, a_replayed_trace_runs_each_task_at_its_utilisation_of_the_time)
{
    // web: 50 % of the reference CPU from 0 to 500 ms, then nothing; 10 ms periods: 50 jobs
    // of 5 ms each, 250 ms of work in all. bg: 10 % for the whole second, 100 jobs of 1 ms.
    fs::create_directories(dir);
    {
        std::ofstream csv(dir / "trace.csv");
        csv << "time_ms,task,util_pct,cpu\n0,web,50,0\n0,bg,10,2\n500,web,0,0\n";
        std::ofstream y(dir / "replay.yaml");
        y << "name: replay\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\nduration_s: 1\n"
          << "governor: {name: performance}\nworkload: {kind: replay, replay: {csv: trace.csv, pin_cpus: true}}\n";
    }
    result r = blsim("run -q --out " + (dir / "out").string() + " " + (dir / "replay.yaml").string());
    ASSERT_EQ(r.status, 0) << r.err;
    json t = json::parse(slurp(dir / "out" / "summary.json"))["tasks"];
    EXPECT_DOUBLE_EQ(t["web"]["done_ref_ms"].get<double>(), 250);
    EXPECT_DOUBLE_EQ(t["bg"]["done_ref_ms"].get<double>(), 100);
    EXPECT_EQ(t["web"]["cpu"], 0);
    EXPECT_EQ(t["bg"]["cpu"], 2);
}

} // namespace
