// tests/report/report_e2e_test.cpp -- what a whole run reports: its summary, consistent and worked
// by hand, and the trace of a run stopped by a violated invariant.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
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
using blsim_test::blsim_hooked;

TEST_F(run_test, tc2_default_writes_a_consistent_summary)
{
    result r = blsim("run --out " + dir.string() + " " + scenario("default.yaml") + " --set duration_s=2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("blsim: 'tc2-default' (seed 1): 2.000 s simulated"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("results: " + dir.string() + "/summary.json"), std::string::npos);
    EXPECT_TRUE(r.err.empty()) << r.err;

    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["schema_version"], 3);
    EXPECT_EQ(s["scenario"], "tc2-default");
    EXPECT_EQ(s["seed"], 1);
    EXPECT_DOUBLE_EQ(s["sim_time_s"].get<double>(), 2.0);
    // SMP throughout: no intervals by mode, no cross-cluster migrations, no groups of switches.
    EXPECT_EQ(s["mode"], "smp");
    EXPECT_FALSE(s.contains("mode_intervals"));
    EXPECT_FALSE(s.contains("migrations"));
    EXPECT_FALSE(s.contains("cluster_migration"));

    // Energy adds up: cores + shared logic = clusters, clusters = total.
    double clusters = 0;
    for (const auto& [name, e] : s["energy_j"]["clusters"].items()) {
        double parts = s["energy_j"]["uncore"][name].get<double>();
        for (const auto& [cpu, r] : s["residency_s"]["cores"].items())
            if (r["cluster"] == name)
                parts += s["energy_j"]["cores"][cpu].get<double>();
        EXPECT_NEAR(parts, e.get<double>(), 1e-12) << name;
        clusters += e.get<double>();
    }
    EXPECT_NEAR(clusters, s["energy_j"]["total"].get<double>(), 1e-12);
    EXPECT_NEAR(s["avg_power_mw"].get<double>(), s["energy_j"]["total"].get<double>() / 2.0 * 1e3, 1e-9);

    // Residencies sum to the simulated time, per core and per cluster (states and OPPs).
    EXPECT_EQ(s["residency_s"]["cores"].size(), 5u);
    for (const auto& [cpu, r] : s["residency_s"]["cores"].items())
        EXPECT_NEAR(r["on"].get<double>() + r["wfi"].get<double>() + r["off"].get<double>(), 2.0, 1e-12) << cpu;
    for (const auto& [name, r] : s["residency_s"]["clusters"].items()) {
        EXPECT_NEAR(r["on"].get<double>() + r["off"].get<double>() + r["powering_up"].get<double>() +
                        r["powering_down"].get<double>(),
                    2.0, 1e-12)
            << name;
        double opp = 0;
        for (const auto& [mhz, t] : r["opp_mhz"].items())
            opp += t.get<double>();
        EXPECT_NEAR(opp, 2.0, 1e-12) << name;
    }
    // Worked by hand, in ns (the CCI at 500 MHz, 10 cycles a register access, change_pending
    // 200 cycles; the GIC at 200 MHz, 20 cycles an access; the SRAM at 200 MHz, 10 cycles;
    // the power controller at 100 MHz, 20 cycles):
    //   boot CPU: CCI S3 on (write + 20 status polls, 420) and S4 on (420); MCPM's initial
    //   states (19 SRAM writes, 950) -> 1790; GICD_CTLR (100), then each of the 5 logical CPUs'
    //   doorbell SPI routed (5 x 5 accesses, 2500) -> 4390; the power controller's interrupt
    //   made level-sensitive (ICFGR read and write, 200) and routed (500) -> 5090.
    //   The boot frequencies then ask the power controller for a15 at 1000 MHz: its request
    //   leaves at 5090 (the tracepoint before it brings the kernel up to the CPU's time).
    //   Going down, the frequency changes first, after the 1 ms PLL relock, at 1005090; the
    //   voltage (1050 -> 850 mV) 1 ms later, at 2005090, raises the completion interrupt.
    //   The a7's request (1000 -> 800 MHz) waited its turn: cpu0's handler takes the
    //   interrupt (IAR, 100), reads PWC_STATUS (200) and sends it at 2005390; the a7's
    //   frequency changes 1 ms later, at 3005390.
    EXPECT_NEAR(s["residency_s"]["clusters"]["a15"]["opp_mhz"]["1200"].get<double>(), 1005090e-9, 1e-12);
    EXPECT_NEAR(s["residency_s"]["clusters"]["a15"]["opp_mhz"]["1000"].get<double>(), 2.0 - 1005090e-9, 1e-12);
    EXPECT_NEAR(s["residency_s"]["clusters"]["a7"]["opp_mhz"]["1000"].get<double>(), 3005390e-9, 1e-12);
    EXPECT_EQ(s["switches"]["cpufreq"]["spc_requests"], 2);
    EXPECT_EQ(s["switches"]["cpufreq"]["queued"], 1);
    //   cpu4 has no task and no deadline: cpuidle's deepest state. The boot CPU's barrier
    //   waits out its last register access (the PERF_LVL write, 200) and SEV goes at 5290.
    //   cpu4: its GIC interface (5 accesses, 500) and the boot-time IAR (100); then MCPM: its
    //   entry vector (50), CPU_GOING_DOWN (50), not the last man: its wake-up armed in the
    //   power controller (WAKE_INT_MASK read and write, 400), GICC_CTLR off (100), L1 clean by
    //   set/way (512 lines x 10 cycles at 1000 MHz: 5120), CPU_DOWN (50) -> 11660; 10 us of
    //   power-down: off at 21660.
    EXPECT_NEAR(s["residency_s"]["cores"]["cpu4"]["off"].get<double>(), 2.0 - 21660e-9, 1e-12);
    EXPECT_EQ(s["idle"]["cpu4"]["cluster-sleep"]["entries"], 1);
    // cpu0 runs 30% of the reference CPU on an A15 at 1000 MHz: 36% of the time, plus the
    // first 1 ms at 1200 MHz, and each job's power-down and power-up paths (as the last man
    // of the a15 cluster, every other period, it cleans the 1 MiB L2: 16384 lines x 5
    // cycles, 82 us at 1000 MHz).
    EXPECT_GT(s["residency_s"]["cores"]["cpu0"]["on"].get<double>() / 2.0, 0.36);
    EXPECT_LT(s["residency_s"]["cores"]["cpu0"]["on"].get<double>() / 2.0, 0.38);
    // Between jobs every CPU sleeps in cluster-sleep (the gaps, 10 ms and more, pass its 2 ms
    // target residency): 125 jobs of ui in 2 s, each followed by one.
    EXPECT_EQ(s["idle"]["cpu0"]["cluster-sleep"]["entries"], 125);
    EXPECT_EQ(s["tasks"]["ui"]["wakeups"], 125); // at boot (its first job at once), then before each later one
    // Wake-up latency: ui's timer finds the a15 cluster off (render's CPU is down as well):
    // the cluster's 660 us exit and the core's 30 us, then MCPM's first-man path and the
    // handler. render's finds the cluster up (ui runs): the core's 30 us and the path (about
    // 2 us of MCPM's and the handler's register and shared-memory accesses, on cpu1's clock).
    EXPECT_GT(s["tasks"]["ui"]["wakeup_latency_us"]["p50"].get<double>(), 690);
    EXPECT_LT(s["tasks"]["ui"]["wakeup_latency_us"]["p50"].get<double>(), 695);
    EXPECT_GT(s["tasks"]["render"]["wakeup_latency_us"]["p50"].get<double>(), 30);
    EXPECT_LT(s["tasks"]["render"]["wakeup_latency_us"]["p50"].get<double>(), 33);
    // Each task alone on its CPU, pinned: no waiting, no migrations.
    EXPECT_EQ(s["sched"]["migrations"], 0);
    EXPECT_LT(s["tasks"]["ui"]["wait_s"].get<double>(), 1e-6);
    EXPECT_EQ(s["governor"]["name"], "userspace");
    for (const char* key : {"wall_s", "realtime_factor", "events", "peak_rss_mb"})
        EXPECT_TRUE(s["host"].contains(key)) << key;
    EXPECT_GT(s["host"]["events"].get<double>(), 0);

    const std::string eff = slurp(dir / "effective-config.yaml");
    EXPECT_NE(eff.find("duration_s: 2\n"), std::string::npos);
    EXPECT_NE(eff.find("eas_mw_per_unit: 0.1872"), std::string::npos);
}

TEST_F(run_test, latency_distributions_keep_constant_memory_over_simulated_time)
{
    // 60 s and 6000 s of the default scenario's ui task: a hundred times the wake-ups (each
    // one recorded in its latency distribution), the same bytes. (ui alone and WFI only: the
    // property depends on neither the other tasks nor the idle states, and the long run stays
    // well inside the time limit under the sanitizers.)
    const std::string common = " " + scenario("default.yaml") + " --set cpuidle.enabled=false"
                               " --set 'workload.tasks=[{name: ui, cpus: [0], util_pct: 30, period_ms: 16}]'"
                               " --set duration_s=";
    ASSERT_EQ(blsim("run -q --out " + (dir / "short").string() + common + "60").status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "long").string() + common + "6000").status, 0);
    const json a = json::parse(slurp(dir / "short" / "summary.json"));
    const json b = json::parse(slurp(dir / "long" / "summary.json"));
    EXPECT_GT(a["tasks"]["ui"]["wakeups"].get<double>(), 3000);
    EXPECT_NEAR(b["tasks"]["ui"]["wakeups"].get<double>(), 100 * a["tasks"]["ui"]["wakeups"].get<double>(),
                0.001 * b["tasks"]["ui"]["wakeups"].get<double>());
    EXPECT_GT(a["host"]["distribution_bytes"].get<double>(), 0);
    EXPECT_EQ(a["host"]["distribution_bytes"], b["host"]["distribution_bytes"]);
}

// A trace asked for is written up to the violation (what explore's reproduce command relies
// on), and it is still no results set: no summary.json.
TEST_F(run_test, an_invariant_violated_with_a_trace_asked_for_writes_the_trace_up_to_it)
{
    result r = blsim_hooked("run --inject-bug meter-time-reversal --set duration_s=1 --trace perfetto,ftrace --out " +
                     dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "blsim: internal error: invariant 'accounting-interval' violated at 0.500000000000 s in "
                     "cluster a15: a change dated 0.500000000000 s arrived after the meter had integrated up to "
                     "0.500001000000 s (a negative interval)\n"
                     "blsim: the trace up to the violation: " + dir.string() + "/trace.json " + dir.string() +
                         "/trace.txt\n");
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
    const json t = json::parse(slurp(dir / "trace.json"));
    double last_us = 0;
    std::size_t slices = 0;
    for (const json& e : t["traceEvents"]) {
        last_us = std::max(last_us, e.value("ts", 0.0));
        slices += e.value("ph", "") == "X";
    }
    EXPECT_GT(slices, 0u);
    EXPECT_LE(last_us, 500001.0); // nothing past the violation
    EXPECT_GT(last_us, 400000.0); // ... and the run up to it
    EXPECT_NE(slurp(dir / "trace.txt").find("sched_switch"), std::string::npos);
}

} // namespace
