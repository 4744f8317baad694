// tests/cli/run_test.cpp -- whole runs through the blsim command line, as a user runs it.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <cmath>
#include <string>
#include <vector>

#include "shell.h"

namespace {

namespace fs = std::filesystem;
namespace test = blsim_test;
using json = nlohmann::json;

using test::result;
using test::slurp;

std::string scenario(const std::string& file) { return std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/" + file; }

// Runs blsim with @args (already shell-quoted where needed); @env: assignments for its
// environment ("NAME=value ").
result blsim(const std::string& args, const std::string& env = "")
{
    return test::shell(env + std::string(BLSIM_BINARY) + " " + args);
}

// The test build's binary, with --inject-bug and --mutant (soc/cli/test_hooks.h).
result blsim_hooked(const std::string& args)
{
    return test::shell(std::string(BLSIM_TEST_BINARY) + " " + args);
}

class run_test : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = fs::temp_directory_path() /
              ("blsim-run-test-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    fs::path dir;
};

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

TEST_F(run_test, same_config_and_seed_give_identical_results)
{
    ASSERT_EQ(blsim("run -q --out " + (dir / "a").string() + " --set duration_s=1").status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "b").string() + " --set duration_s=1").status, 0);
    auto strip_host = [](json s) {
        s.erase("host");
        return s.dump();
    };
    EXPECT_EQ(strip_host(json::parse(slurp(dir / "a" / "summary.json"))),
              strip_host(json::parse(slurp(dir / "b" / "summary.json"))));
    EXPECT_EQ(slurp(dir / "a" / "effective-config.yaml"), slurp(dir / "b" / "effective-config.yaml"));
}

TEST_F(run_test, an_idle_cluster_powers_down_through_mcpm)
{
    // One A7 core, alone, with nothing to run: it boots the system and takes itself and its
    // cluster down as MCPM's last man.
    const std::string soc = std::string(BLSIM_TEST_DATA) + "/../../data/a7x1.yaml";
    result r = blsim("run -q --out " + dir.string() + " " + scenario("default.yaml") + " --set duration_s=1 --set 'workload.tasks=[]'" +
                     " --set soc=" + soc + " --set governor.freq_mhz={}");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "") << "a run without tasks must not make SystemC warn";
    json s = json::parse(slurp(dir / "summary.json"));
    // Worked by hand, in ns (latencies as in the default scenario test; the core at 1000 MHz):
    //   firmware's part: CCI S3 on (420); MCPM's initial states (5 SRAM writes, 250) -> 670;
    //   GICD_CTLR (100) and the doorbell SPI routed (5 accesses) -> 1270; the power
    //   controller's interrupt (7 accesses), barrier -> 1970; the GIC interface (500), the boot
    //   IAR (100); no task, no deadline: cpuidle's deepest state, power-down. The entry vector
    //   (50, after the barrier) -> 2620, CPU_GOING_DOWN -> 2670; last man: cluster GOING_DOWN
    //   -> 2720, inbound state read -> 2770; its wake-up armed (WAKE_INT_MASK read and write,
    //   400), GICC_CTLR off (100) -> 3270; the cluster's PWRDN_EN (200) and global wake-ups
    //   (read and write, 400), unlock barrier -> 3870; L1 clean (512 lines x 10 cycles) ->
    //   8990; L2 clean (8192 lines x 4 cycles, nothing dirty) -> 41758; CCI S3 off with its 20
    //   polls (420), barrier -> 42178; cluster DOWN -> 42228; CPU_DOWN -> 42278; the core is
    //   off 10 us later, and the cluster powers down in 830 us after that.
    const double core_off_ns = 52278, cluster_off_ns = core_off_ns + 830e3;
    EXPECT_NEAR(s["residency_s"]["cores"]["cpu0"]["on"].get<double>(), core_off_ns * 1e-9, 1e-12);
    EXPECT_NEAR(s["residency_s"]["clusters"]["a7"]["powering_down"].get<double>(), 830e-6, 1e-12);
    EXPECT_NEAR(s["residency_s"]["clusters"]["a7"]["off"].get<double>(), 1.0 - cluster_off_ns * 1e-9, 1e-12);
    EXPECT_EQ(s["residency_s"]["clusters"]["a7"]["power_downs"], 1);
    // Energy at 1000 MHz and 1050 mV, worked by hand (docs/calibration.md, "Power-state
    // semantics"). Leakage at 1050 mV is exp(200 / 355) times its 850 mV figure: the core's
    // 47.9 mW, the shared logic's 95.9 and the L2's 512 KiB x 312.3 uW. While the core runs,
    // the cluster draws the EAS tables' busy power (cluster 4905 + core 1024 units, the core's
    // leakage inside them); once it is off (held in reset, no per-core power gating) the
    // cluster powers down for 830 us drawing its idle power, leakage only (no clock term on
    // the A7), the core its leakage; powered down, 10 units and nothing for the core.
    const double k = 0.1432e-3; // J per unit-second
    const double scale = std::exp(200.0 / 355.0);
    const double core_leak_w = 47.9e-3 * scale, idle_w = (95.9e-3 + 512 * 312.3e-6) * scale;
    const double on_s = core_off_ns * 1e-9, down_s = 830e-6, off_s = 1.0 - cluster_off_ns * 1e-9;
    const double core = 1024 * k * on_s + core_leak_w * (on_s + down_s);
    const double uncore = (4905 * k - core_leak_w) * on_s + idle_w * down_s + 10 * k * off_s;
    EXPECT_NEAR(s["energy_j"]["cores"]["cpu0"].get<double>(), core, 1e-15);
    EXPECT_NEAR(s["energy_j"]["cores_by_state"]["cpu0"]["off"].get<double>(), core_leak_w * down_s, 1e-15);
    EXPECT_NEAR(s["energy_j"]["uncore_by_state"]["a7"]["powering_down"].get<double>(), idle_w * down_s, 1e-15);
    EXPECT_NEAR(s["energy_j"]["uncore_by_state"]["a7"]["off"].get<double>(), 10 * k * off_s, 1e-15);
    EXPECT_NEAR(s["energy_j"]["total"].get<double>(), core + uncore, 1e-12);
    // The caches were empty: nothing was written back, and the CCI saw no traffic.
    EXPECT_EQ(s["caches"]["a7"]["written_back_lines"], 0);
    EXPECT_EQ(s["cci"]["bytes"], 0);
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text)
{
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::size_t from = 0;
        for (std::size_t comma; (comma = line.find(',', from)) != std::string::npos; from = comma + 1)
            cells.push_back(line.substr(from, comma - from));
        cells.push_back(line.substr(from)); // the last cell, empty after a trailing comma
        rows.push_back(cells);
    }
    return rows;
}

// A CSV row's cells by column name.
struct csv_table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    explicit csv_table(const std::string& text)
    {
        auto all = csv_rows(text);
        header = all.at(0);
        rows.assign(all.begin() + 1, all.end());
    }
    const std::string& cell(std::size_t row, const std::string& column) const
    {
        auto it = std::find(header.begin(), header.end(), column);
        EXPECT_NE(it, header.end()) << column;
        return rows.at(row).at(static_cast<std::size_t>(it - header.begin()));
    }
    double num(std::size_t row, const std::string& column) const { return std::stod(cell(row, column)); }
};

TEST_F(run_test, switch_pingpong_records_every_phase_of_every_switch)
{
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    result r = blsim("run -q " + scenario + " --out " + (dir / "a").string());
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(blsim("run -q " + scenario + " --out " + (dir / "b").string()).status, 0);
    const std::string csv = slurp(dir / "a" / "switches.csv");
    EXPECT_EQ(csv, slurp(dir / "b" / "switches.csv")); // deterministic

    const csv_table t(csv);
    ASSERT_EQ(t.rows.size(), 12u);
    int both_at_500 = 0, both_at_700 = 0;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        std::vector<double> times;
        for (const char* c : {"t_cpufreq_request_s", "t_request_s", "t_inbound_power_on_s", "t_alive_s",
                              "t_blackout_start_s", "t_blackout_end_s", "t_outbound_off_s", "t_done_s"})
            times.push_back(t.num(i, c));
        // frequency request <= switch request <= inbound power-on <= alive <= blackout start
        // < blackout end <= outbound off <= done
        for (std::size_t k = 1; k < times.size(); k++)
            EXPECT_LE(times[k - 1], times[k]) << "switch " << i << " phase " << k;
        EXPECT_LT(times[4], times[5]);
        // The blackout is the sum of its steps.
        double steps = 0;
        for (const char* c : {"gic_migration_us", "tick_cpu_pm_us", "context_save_us", "l1_clean_us",
                              "handshake_wait_us", "restore_us"})
            steps += t.num(i, c);
        EXPECT_NEAR(steps, t.num(i, "blackout_us"), 1e-5) << i;
        EXPECT_GT(t.num(i, "blackout_us"), 15) << i;
        EXPECT_LT(t.num(i, "blackout_us"), 40) << i;
        EXPECT_GT(t.num(i, "energy_overhead_j"), 0) << i;
        EXPECT_LT(t.num(i, "energy_overhead_j"), t.num(i, "energy_window_j")) << i;
        EXPECT_TRUE(t.cell(i, "direction") == "a15->a7" || t.cell(i, "direction") == "a7->a15");
        if (std::abs(times[0] - 0.5) < 1e-3)
            both_at_500++;
        if (std::abs(times[0] - 0.7) < 1e-3)
            both_at_700++;
    }
    EXPECT_EQ(both_at_500, 2); // both logical CPUs switching at once
    EXPECT_EQ(both_at_700, 2);

    // The first switch, worked by hand (docs/switcher.md walks through it). Logical cpu0 asks
    // for 400 virtual MHz at 100 ms: the A7 at 800 MHz. The a7 cluster is at 1000 MHz, off.
    //  - DVFS, before the switch: the power controller's request leaves at 100.0013 ms; the
    //    frequency changes 1 ms later and the voltage (1050 -> 850 mV) 1 ms after that; its
    //    interrupt wakes cpu0 from WFI (1 us), the handler reads IAR (0.1) and PWC_STATUS
    //    (0.2), ends the interrupt (0.1) and finds nothing more (0.1): the switch is
    //    requested at 102.0028 ms, after 2001.5 us.
    EXPECT_EQ(t.cell(0, "direction"), "a15->a7");
    EXPECT_NEAR(t.num(0, "dvfs_wait_us"), 2001.5, 1e-6);
    //  - The a7 cluster is powered up (460 us of hardware) before cpu4 (30 us): the early
    //    poke reaches cpu0 492.2 us after the request.
    EXPECT_NEAR(t.num(0, "request_to_alive_us"), 492.2, 1e-6);
    EXPECT_EQ(t.cell(0, "inbound_cluster_powered_up"), "1");
    //  - The blackout, step by step (cpu0 at 1200 MHz, cpu4 at 800 MHz; register accesses:
    //    GIC 100 ns, power controller 200 ns, SRAM 50 ns; DRAM 101.25 ns for a word):
    //    GIC migration: 40 ITARGETSR words read, 2 of them (cpu0's doorbell and the power
    //    controller's interrupt; the timer is a PPI, cpu0's own) rewritten, 4 SPENDSGIR words
    //    read: 4600 ns;
    EXPECT_NEAR(t.num(0, "gic_migration_us"), 4.6, 1e-6);
    //    tick and cpu_pm: 300 + 400 cycles, 3 GIC reads: 583.33 + 300 ns;
    EXPECT_NEAR(t.num(0, "tick_cpu_pm_us"), 0.883334, 1e-6);
    //    context save: 400 cycles;
    EXPECT_NEAR(t.num(0, "context_save_us"), 0.333334, 1e-6);
    //    L1 clean: 512 lines x 8 cycles, none dirty: ui's job ended at 99.2 ms and cpu0 has
    //    been in cluster-sleep since (cpuidle cleaned its L1), woken by the setspeed doorbell:
    //    3413.33 ns;
    EXPECT_NEAR(t.num(0, "l1_clean_us"), 3.413334, 1e-6);
    //    handshake: 200 cycles, the handshake word and cpu4's entry vector written, cpu4's
    //    vector read: 166.67 + 150 ns;
    EXPECT_NEAR(t.num(0, "handshake_wait_us"), 0.316667, 1e-6);
    //    restore on cpu4: its vector closed (50), 60 uncached words (6075), 500 cycles (625),
    //    mcpm_cpu_powered_up's power controller accesses (WAKE_INT_MASK read and write,
    //    BX_ADDR: 600), 400 cycles (500), the GIC restore's 13 writes (1300), 500 cycles (625).
    EXPECT_NEAR(t.num(0, "restore_us"), 9.775, 1e-6);
    EXPECT_NEAR(t.num(0, "blackout_us"), 19.321669, 1e-6);
    // The second finds the a7 cluster on and already at 800 MHz: no DVFS, the core's 30 us.
    EXPECT_NEAR(t.num(1, "dvfs_wait_us"), 0, 1e-9);
    EXPECT_GT(t.num(1, "request_to_alive_us"), 30);
    EXPECT_LT(t.num(1, "request_to_alive_us"), 35);
    // It leaves cpu1 the last A15 awake: the a15 cluster powers down after it.
    EXPECT_EQ(t.cell(1, "outbound_cluster_powered_down"), "1");
    EXPECT_GT(t.num(1, "t_done_s"), t.num(1, "t_outbound_off_s"));

    // The tasks' timers moved with their logical CPUs through every switch: each job was
    // released on time and done (ui: 20 % of 16 ms, 63 jobs in 1 s; render: 15 %, 62 from
    // 5 ms), and each woke once per job.
    json s0 = json::parse(slurp(dir / "a" / "summary.json"));
    EXPECT_NEAR(s0["tasks"]["ui"]["done_ref_ms"].get<double>(), 63 * 3.2, 1e-6);
    EXPECT_NEAR(s0["tasks"]["render"]["done_ref_ms"].get<double>(), 62 * 2.4, 1e-6);
    EXPECT_EQ(s0["tasks"]["ui"]["wakeups"], 63);

    // The inbound cluster was fed by the outbound's caches.
    json s = json::parse(slurp(dir / "a" / "summary.json"));
    EXPECT_EQ(s["switches"]["count"], 12);
    EXPECT_GT(s["cci"]["snoop_hits"].get<double>(), 0);
    EXPECT_EQ(s["residency_s"]["cores"]["cpu2"]["off"].get<double>() > 0.99, true); // unpaired: offline
    // One power controller for both clusters: at 500 ms the second request waited for the first.
    EXPECT_GE(s["switches"]["cpufreq"]["queued"].get<double>(), 1);
    // cpu1's: its doorbell alone rewritten.
    EXPECT_NEAR(s["switches"]["blackout_steps"]["gic_migration_us"]["min"].get<double>(), 4.5, 1e-6);
}

// The dense ping-pong of configs/explore/: a logical CPU is sent back while its switch is armed.
// That request is the next switch (the switcher starts it when the blackout ends), a row of its
// own: once it redirected the open record, which then showed a7->a7 rows, lost the follow-up
// switch and summed to a negative energy. Every request is a row, every row crosses clusters,
// each logical CPU's rows chain (one's target is the next one's origin), no overhead is negative.
TEST_F(run_test, a_request_made_while_a_switch_is_armed_is_the_next_switch_and_a_row_of_its_own)
{
    const std::string x = std::string(BLSIM_SOURCE_DIR) + "/configs/explore/switch-pingpong.yaml";
    ASSERT_EQ(blsim("run -q " + x + " --out " + dir.string()).status, 0);
    const csv_table t(slurp(dir / "switches.csv"));
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["switches"]["count"].get<std::size_t>(), t.rows.size());
    EXPECT_EQ(s["switches"]["requests"].get<std::size_t>(), t.rows.size());
    std::map<std::string, std::size_t> last; // per logical CPU: its previous row
    int requested_during_the_previous = 0;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        const std::string dir_ = t.cell(i, "direction");
        const std::string from = dir_.substr(0, dir_.find("->")), to = dir_.substr(dir_.find("->") + 2);
        EXPECT_NE(from, to) << "row " << i;
        EXPECT_GE(t.num(i, "energy_overhead_j"), 0.0) << "row " << i;
        EXPECT_LE(t.num(i, "t_request_s"), t.num(i, "t_blackout_start_s")) << "row " << i;
        auto it = last.find(t.cell(i, "logical_cpu"));
        if (it != last.end()) {
            const std::string& prev = t.cell(it->second, "direction");
            EXPECT_EQ(prev.substr(prev.find("->") + 2), from) << "row " << i;
            requested_during_the_previous += t.num(i, "t_request_s") < t.num(it->second, "t_blackout_end_s");
        }
        last[t.cell(i, "logical_cpu")] = i;
    }
    EXPECT_GT(requested_during_the_previous, 0); // the case is exercised
    EXPECT_GT(s["switches"]["energy_overhead_j"].get<double>(), 0.0);
}

TEST_F(run_test, the_switcher_turned_off_brings_cpus_home_and_the_partners_online)
{
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switcher-onoff.yaml";
    result r = blsim("run -q " + scenario + " --out " + dir.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const csv_table t(slurp(dir / "switches.csv"));
    ASSERT_EQ(t.rows.size(), 3u);
    // cpu0 to the A7 at 100 ms; turning the switcher off at 200 ms brings it home first;
    // with the switcher on again, cpu1 to the A7 at 500 ms.
    EXPECT_EQ((std::vector<std::string>{t.cell(0, "logical_cpu"), t.cell(0, "direction")}),
              (std::vector<std::string>{"0", "a15->a7"}));
    EXPECT_EQ((std::vector<std::string>{t.cell(1, "logical_cpu"), t.cell(1, "direction")}),
              (std::vector<std::string>{"0", "a7->a15"}));
    EXPECT_EQ((std::vector<std::string>{t.cell(2, "logical_cpu"), t.cell(2, "direction")}),
              (std::vector<std::string>{"1", "a15->a7"}));
    EXPECT_NEAR(t.num(1, "t_request_s"), 0.2, 1e-3);
    // Turning the switcher off is no frequency request: no DVFS before that switch.
    EXPECT_EQ(t.cell(1, "t_cpufreq_request_s"), "");
    EXPECT_EQ(t.cell(1, "dvfs_wait_us"), "");
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["switches"]["switcher_disables"], 1);
    EXPECT_EQ(s["switches"]["switcher_enables"], 1);
    // The unpaired cpu2 came online while the switcher was off (and, with nothing to run,
    // went idle again).
    EXPECT_GT(s["residency_s"]["cores"]["cpu2"]["on"].get<double>(), 0);
}

// Energy that was once absurd (megajoules for a second) because a tracepoint integrated the
// meter up to a CPU's local time, ahead of the kernel's, and a later change then closed a
// negative interval, wrapped in unsigned picoseconds. Each trigger, run again: the energy
// must stay within what the tables allow. Upper bound worked from configs/soc/tc2.yaml: every
// core busy at the top OPPs, A15 (2 x 6997 + 15200) and A7 (3 x 1024 + 4905) EAS units at
// 0.187 mW each, 6.95 W.
constexpr double tc2_max_w = ((2 * 6997 + 15200) + (3 * 1024 + 4905)) * 0.187e-3;

double total_energy_of(const fs::path& dir)
{
    return json::parse(slurp(dir / "summary.json"))["energy_j"]["total"].get<double>();
}

TEST_F(run_test, energy_stays_plausible_for_every_trigger_of_the_old_blow_up)
{
    const std::string pingpong = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    const std::vector<std::string> triggers = {
        "--set workload.tasks.0.working_set_kb=768 --set workload.tasks.1.working_set_kb=768",
        "--set soc.clusters.a15.dvfs.freq_latency_us=0",
        "--set soc.clusters.a15.dvfs.freq_latency_us=0 --set soc.clusters.a7.dvfs.freq_latency_us=0 "
        "--set soc.clusters.a15.dvfs.voltage_latency_us=0 --set soc.clusters.a7.dvfs.voltage_latency_us=0",
    };
    for (std::size_t i = 0; i < triggers.size(); i++) {
        const fs::path out = dir / std::to_string(i);
        result r = blsim("run -q " + pingpong + " --out " + out.string() + " " + triggers[i]);
        ASSERT_EQ(r.status, 0) << triggers[i] << "\n" << r.err;
        const double e = total_energy_of(out);
        EXPECT_GT(e, 0.5) << triggers[i]; // the pingpong's 1 s draws about 1 J
        EXPECT_LT(e, tc2_max_w * 1.0) << triggers[i];
    }
}

// Found by the interactive-tuning sweep: a reschedule IPI to logical cpu1, raised while its
// switch to the A7 was migrating the GIC, read the old host from the map and landed on the
// outbound A15 after the migration had forwarded its pending SGIs. Left pending, it woke the
// A15 as it powered down; the CPU parked at its closed MCPM gate for the remaining 43 s, kept
// the A15 cluster on, and every later switch of cpu1 waited for an "alive" it could never
// send: 138.6 J instead of 30 J, no switch of cpu1 after 2.0 s. The map is now changed under
// the lock that IPIs take (Linux's gic_cpu_map and irq_controller_lock).
TEST_F(run_test, an_ipi_racing_a_switchs_gic_migration_reaches_the_inbound)
{
    result r = blsim("run -q --out " + dir.string() +
                     " --set governor.interactive.go_hispeed_load_pct=75"
                     " --set governor.interactive.hispeed_freq_mhz=1000"
                     " --set governor.interactive.hispeed_freq2_mhz=0"
                     " --set governor.interactive.above_hispeed_delay_us=40000"
                     " --set governor.interactive.min_sample_time_us=20000");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows = csv_rows(slurp(dir / "switches.csv"));
    std::size_t late_cpu1 = 0;
    for (std::size_t i = 1; i < rows.size(); i++)
        if (rows[i][0] == "1" && std::stod(rows[i][5]) > 10.0)
            late_cpu1++;
    EXPECT_GT(late_cpu1, 50u); // cpu1 keeps switching all run long (0 with the lost IPI)
    EXPECT_LT(total_energy_of(dir), 40.0); // 30.0 J; 138.6 J with the A15 parked on
}

TEST_F(run_test, both_logical_cpus_switching_at_once_keep_energy_plausible_at_any_instant)
{
    // Start times that gave 11.7 MJ and 88.3 MJ before the fix (found by a scan in steps of
    // 0.37 ms), and others around them: both logical CPUs to the A7 at t, back at t + 50 ms.
    const std::string pingpong = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    std::vector<double> energies;
    for (double t : {100.0, 110.36, 112.21, 115.17, 126.27, 128.12, 133.33}) {
        char timeline[256];
        std::snprintf(timeline, sizeof timeline,
                      "'governor.setspeed=[{at_ms: %g, cpu: 0, freq_mhz: 400}, {at_ms: %g, cpu: 1, freq_mhz: 400},"
                      " {at_ms: %g, cpu: 0, freq_mhz: 1000}, {at_ms: %g, cpu: 1, freq_mhz: 1000}]'",
                      t, t, t + 50, t + 50);
        const fs::path out = dir / std::to_string(energies.size());
        result r = blsim("run -q " + pingpong + " --out " + out.string() + " --set duration_s=0.3 --set " + timeline);
        ASSERT_EQ(r.status, 0) << t << "\n" << r.err;
        energies.push_back(total_energy_of(out));
        EXPECT_LT(energies.back(), tc2_max_w * 0.3) << t;
        const json s = json::parse(slurp(out / "summary.json"));
        EXPECT_EQ(s["switches"]["count"], 4) << t;
    }
    // The same work at slightly different instants costs nearly the same energy.
    for (double e : energies)
        EXPECT_NEAR(e, energies.front(), 0.1 * energies.front());
}

// The test hooks are the test build's: the release blsim neither takes nor lists them, and
// blsim-test, the same command line with them, does.
TEST_F(run_test, the_release_blsim_has_no_test_hooks_and_blsim_test_has_them)
{
    if (BLSIM_RELEASE_HAS_HOOKS)
        GTEST_SKIP() << "built with -DBLSIM_MUTANTS=ON: blsim itself has the hooks";
    for (const std::string opt : {"--mutant vlock-without-voting", "--inject-bug task-lost"}) {
        const result r = blsim("run " + opt + " --out " + dir.string());
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "blsim: run: unknown option '" + opt.substr(0, opt.find(' ')) + "'\n(see 'blsim --help')\n");
        EXPECT_FALSE(fs::exists(dir));
    }
    const result help = blsim("run --help");
    EXPECT_EQ(help.out.find("--mutant"), std::string::npos);
    EXPECT_EQ(help.out.find("--inject-bug"), std::string::npos);
    const result explore = blsim("explore builtin:configs/scenarios/default.yaml --mutant vlock-without-voting");
    EXPECT_EQ(explore.status, 2);
    EXPECT_EQ(explore.err, "blsim: explore: unknown option '--mutant'\n(see 'blsim --help')\n");
    const result hooked = blsim_hooked("run --help");
    EXPECT_NE(hooked.out.find("  --mutant NAME       run a known-bad variant"), std::string::npos);
    EXPECT_NE(hooked.out.find("  --inject-bug NAME   make the simulator misbehave"), std::string::npos);
}

TEST_F(run_test, an_invariant_violated_stops_the_run_with_exit_1_and_writes_nothing)
{
    result r = blsim_hooked("run --inject-bug meter-time-reversal --set duration_s=1 --out " + dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "blsim: internal error: invariant 'accounting-interval' violated at 0.500000000000 s in "
                     "cluster a15: a change dated 0.500000000000 s arrived after the meter had integrated up to "
                     "0.500001000000 s (a negative interval)\n");
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
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

TEST_F(run_test, a_check_of_the_c_code_stays_on_and_stops_the_run)
{
    // MCPM's record of cpu0 corrupted halfway: at its next power-down (the outbound of the
    // switch requested at 500 ms) the transition check fails, in the default (optimised)
    // build as in any other.
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    result r = blsim_hooked("run " + scenario + " --inject-bug mcpm-state-corruption --out " + dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.rfind("blsim: internal error: check failed at 0.502", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(" s in cpu0: (from == BLS_CPU_DOWN && to == BLS_CPU_COMING_UP) ||"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("(switcher/src/bL/mcpm.c:"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
}

TEST_F(run_test, a_task_lost_by_the_scheduler_stops_the_run_at_the_next_scheduling_point)
{
    // Halfway (500 ms), a sleeping task moved to cpu2, which no logical CPU runs under IKS:
    // it would never be woken. The kernel's check at the next scheduling point names it so.
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    result r = blsim_hooked("run " + scenario + " --inject-bug task-lost --out " + dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.rfind("blsim: internal error: check failed at 0.50", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("\"no task lost: each is on an online run queue that counts it\" "
                         "(switcher/src/kernel/kernel.c:"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
}

TEST_F(run_test, a_run_through_every_mode_accounts_each_interval_and_they_add_up)
{
    // configs/scenarios/mode-tour.yaml: IKS, then HMP at 1.2 s, EAS at 2.2 s, cluster migration
    // at 3.2 s, SMP at 4.2 s.
    result r = blsim("run " + scenario("mode-tour.yaml") + " --out " + dir.string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\nmodes: iks 0.000-1.200 s "), std::string::npos) << r.out;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["mode"], "iks"); // the mode at the start
    const json& iv = s["mode_intervals"];
    ASSERT_EQ(iv.size(), 5u) << s.dump(1);
    const std::vector<std::string> modes = {"iks", "hmp", "eas", "cluster-migration", "smp"};
    const std::vector<double> at = {0, 1.2, 2.2, 3.2, 4.2};
    double energy = 0, last_end = 0;
    std::uint64_t switches = 0, migrations = 0;
    for (std::size_t i = 0; i < iv.size(); i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(iv[i]["mode"], modes[i]);
        const double start = iv[i]["start_s"], end = iv[i]["end_s"], e = iv[i]["energy_j"];
        // Each interval starts where the one before ended, when the kernel took the request
        // (its doorbell, the lead CPU's wake-up from an idle state: within 2 ms).
        EXPECT_DOUBLE_EQ(start, last_end);
        EXPECT_GE(start, at[i]);
        EXPECT_LT(start, at[i] + 2e-3);
        EXPECT_GT(end, start);
        EXPECT_GT(e, 0);
        EXPECT_NEAR(iv[i]["avg_power_mw"].get<double>(), e / (end - start) * 1e3, 1e-9 * e / (end - start) * 1e3);
        energy += e;
        last_end = end;
        switches += iv[i]["switches"].get<std::uint64_t>();
        migrations += iv[i]["migrations"].get<std::uint64_t>();
    }
    EXPECT_DOUBLE_EQ(last_end, s["sim_time_s"].get<double>());
    // The intervals' energies add up to the total (the run checks it as an invariant, too).
    EXPECT_NEAR(energy, s["energy_j"]["total"].get<double>(), 1e-9 * s["energy_j"]["total"].get<double>());
    // Every switch was requested in one of them, every migration happened in one.
    EXPECT_EQ(switches, s["switches"]["count"].get<std::uint64_t>());
    EXPECT_EQ(migrations, s["migrations"]["count"].get<std::uint64_t>());
    // Under HMP tasks move between the clusters, not under IKS or SMP (the switcher moves
    // the logical CPUs instead).
    EXPECT_GT(iv[1]["migrations"].get<int>(), 0);
    EXPECT_EQ(iv[0]["migrations"], 0);
    EXPECT_EQ(iv[4]["migrations"], 0);
    EXPECT_EQ(s["migrations"]["up"].get<int>() + s["migrations"]["down"].get<int>(), s["migrations"]["count"].get<int>());

    // Cluster migration: when the load falls at 3.5 s, both logical CPUs go to the A7 as one
    // group; no other switch has a group.
    const csv_table t(slurp(dir / "switches.csv"));
    ASSERT_EQ(t.rows.size(), s["switches"]["count"].get<std::size_t>());
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        if (t.cell(i, "group").empty())
            continue;
        groups[t.cell(i, "group")].push_back(i);
        EXPECT_GE(t.num(i, "t_request_s"), iv[3]["start_s"].get<double>()) << i;
        EXPECT_LT(t.num(i, "t_request_s"), iv[3]["end_s"].get<double>()) << i;
    }
    const json& cm = s["cluster_migration"];
    EXPECT_EQ(cm["groups"].get<std::size_t>(), groups.size());
    ASSERT_GE(groups.size(), 1u);
    double widest = 0;
    for (const auto& [g, rows] : groups) {
        SCOPED_TRACE(g);
        ASSERT_EQ(rows.size(), 2u); // every logical CPU
        EXPECT_NE(t.cell(rows[0], "logical_cpu"), t.cell(rows[1], "logical_cpu"));
        EXPECT_EQ(t.cell(rows[0], "direction"), t.cell(rows[1], "direction"));
        const double from = std::min(t.num(rows[0], "t_blackout_start_s"), t.num(rows[1], "t_blackout_start_s"));
        const double to = std::max(t.num(rows[0], "t_blackout_end_s"), t.num(rows[1], "t_blackout_end_s"));
        widest = std::max(widest, (to - from) * 1e6);
        // The group's blackout holds each of its switches'.
        EXPECT_GE((to - from) * 1e6 + 1e-6, std::max(t.num(rows[0], "blackout_us"), t.num(rows[1], "blackout_us")));
    }
    EXPECT_NEAR(cm["blackout_us"]["max"].get<double>(), widest, 1e-6);
}

TEST_F(run_test, socs_beyond_tc2_run_bbench_in_the_modes_that_make_sense)
{
    // Exynos 5422 (4+4 behind a CCI-400) under IKS, HMP and EAS; SM8150 (1+3+4 behind a
    // CCI-550) under HMP and EAS, and IKS refused where the mode is named.
    const std::string socs = std::string(BLSIM_SOURCE_DIR) + "/configs/soc/";
    struct run_case {
        const char* soc;
        const char* mode;
    };
    for (const run_case& c : {run_case{"exynos5422", "iks"}, run_case{"exynos5422", "hmp"},
                              run_case{"exynos5422", "eas"}, run_case{"sm8150", "hmp"}, run_case{"sm8150", "eas"}}) {
        SCOPED_TRACE(std::string(c.soc) + " " + c.mode);
        const fs::path out = dir / (std::string(c.soc) + "-" + c.mode);
        result r = blsim("run -q " + scenario("bbench-hmp.yaml") + " --out " + out.string() + " --set soc=" + socs +
                         c.soc + ".yaml --set mode=" + c.mode + " --set duration_s=20");
        ASSERT_EQ(r.status, 0) << r.err;
        const json s = json::parse(slurp(out / "summary.json"));
        const json& cores = s["residency_s"]["cores"];
        EXPECT_EQ(cores.size(), 8u);
        if (std::string(c.mode) == "iks") {
            EXPECT_GT(s["switches"]["count"].get<int>(), 0);
        } else {
            EXPECT_EQ(s["switches"]["count"].get<int>(), 0);
            EXPECT_GT(s["migrations"]["up"].get<int>(), 0);
            EXPECT_GT(s["migrations"]["down"].get<int>(), 0);
        }
        if (std::string(c.soc) == "sm8150") {
            // Every cluster ran, the one-core prime (cpu7, cluster 2: its own PERF_LVL and
            // wake-up bit in the power controller's extended layout) among them.
            EXPECT_EQ(cores["cpu7"]["cluster"], "prime");
            EXPECT_GT(cores["cpu7"]["on"].get<double>(), 0);
            EXPECT_GT(cores["cpu0"]["on"].get<double>(), 0);
            // The CCI-550's snoop filter sends a lookup only where the line is (cci_test has
            // the counts; here an idle cluster's last man has mostly cleaned its caches before
            // a task moves, docs/modes.md).
            EXPECT_EQ(s["cci"]["snoops"], s["cci"]["snoop_hits"]);
        } else {
            // The CCI-400 broadcasts: lookups in vain as well.
            EXPECT_GE(s["cci"]["snoops"].get<std::uint64_t>(), s["cci"]["snoop_hits"].get<std::uint64_t>());
        }
    }
    result r = blsim("run -q " + scenario("bbench-iks-tuned.yaml") + " --out " + (dir / "refused").string() +
                     " --set soc=" + socs + "sm8150.yaml");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, scenario("bbench-iks-tuned.yaml") +
                         ":21:7: mode: iks runs the switcher, which pairs the CPUs of two clusters; the SoC has 3\n");
    EXPECT_FALSE(fs::exists(dir / "refused" / "summary.json"));
}

TEST_F(run_test, eas_places_by_the_cores_alone_when_the_schedulers_model_has_no_cluster_terms)
{
    // SM8150's file gives the scheduler Linux's energy model from the device tree (cores only):
    // under EAS BBench runs mostly on the A55s. With the tables' cluster terms (each cluster's
    // own unit, a busy A55 cluster's constant looking dearer than an A76 one's) it would keep
    // to the A76s. The hardware's power model is the same in both runs.
    const std::string soc = std::string(BLSIM_SOURCE_DIR) + "/configs/soc/sm8150.yaml";
    double little_s[2] = {0, 0}, medium_s[2] = {0, 0};
    for (int with_terms = 0; with_terms < 2; with_terms++) {
        const fs::path out = dir / (with_terms ? "terms" : "cores");
        result r = blsim("run -q " + scenario("bbench-eas.yaml") + " --out " + out.string() + " --set soc=" + soc +
                         " --set duration_s=20 --set soc.energy.scheduler_cluster_terms=" +
                         (with_terms ? "true" : "false"));
        ASSERT_EQ(r.status, 0) << r.err;
        const json c = json::parse(slurp(out / "summary.json"))["residency_s"]["cores"];
        for (int cpu = 0; cpu < 7; cpu++)
            (cpu < 4 ? little_s : medium_s)[with_terms] += c["cpu" + std::to_string(cpu)]["on"].get<double>();
    }
    EXPECT_GT(little_s[0], medium_s[0]); // cores only: the A55s carry the work
    EXPECT_GT(medium_s[1], little_s[1]); // the cluster terms: the A76s do
}

TEST_F(run_test, hmp_moves_tasks_between_the_clusters_and_reports_each_move)
{
    // governor-steps' two tasks, free to run anywhere, under HMP from boot.
    result r = blsim("run -q " + scenario("governor-steps.yaml") + " --out " + dir.string() +
                     " --set mode=hmp --set duration_s=3 --set 'workload.tasks.0.cpus=[]' --set 'workload.tasks.1.cpus=[]'");
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["mode"], "hmp");
    EXPECT_FALSE(s.contains("mode_intervals")); // no change
    const json& m = s["migrations"];
    EXPECT_GT(m["count"].get<int>(), 0);
    EXPECT_GT(m["up"].get<int>(), 0);
    EXPECT_EQ(m["up"].get<int>() + m["down"].get<int>(), m["count"].get<int>());
    EXPECT_LE(m["count"].get<int>(), s["sched"]["migrations"].get<int>()); // each is a move between run queues
    // A big CPU that pulls a waiting task at its own scheduling point runs it at once (0 us);
    // a move that needs the other CPU woken takes its wake-up.
    EXPECT_GE(m["latency_us"]["min"].get<double>(), 0);
    EXPECT_GT(m["latency_us"]["p50"].get<double>(), 0);
    EXPECT_LE(m["latency_us"]["min"].get<double>(), m["latency_us"]["max"].get<double>());
    // A task's cache state does not travel: on the other cluster it fetches its working set,
    // part of it through the CCI from the cluster it left (under SMP these two tasks never
    // change cluster, and the CCI snoops nothing).
    EXPECT_GT(s["cci"]["snoop_hits"].get<std::uint64_t>(), 0u);
    // The switcher is off: no switches, no groups.
    EXPECT_EQ(s["switches"]["count"], 0);
    EXPECT_FALSE(s.contains("cluster_migration"));
    // EAS reports its migrations the same way, even when it made none.
    ASSERT_EQ(blsim("run -q " + scenario("governor-steps.yaml") + " --out " + (dir / "eas").string() +
                    " --set mode=eas --set duration_s=1").status,
              0);
    const json e = json::parse(slurp(dir / "eas" / "summary.json"));
    EXPECT_EQ(e["mode"], "eas");
    EXPECT_TRUE(e.contains("migrations"));
}

TEST_F(run_test, cluster_migration_moves_every_logical_cpu_and_one_cluster_runs_between_groups)
{
    // BBench under cluster migration, 5 s, its scrolling hurried (a step every 100 ms): many
    // moves each way.
    result r = blsim("run -q " + scenario("bbench-cm.yaml") + " --out " + dir.string() +
                     " --set duration_s=5 --set workload.bbench.scroll.settle_ms=100 --set workload.bbench.scroll.delay_ms=100");
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["mode"], "cluster-migration");
    const csv_table t(slurp(dir / "switches.csv"));
    // Each group: both logical CPUs, the same way; its window from the first blackout's
    // start to the last's end.
    struct window {
        double from, to;
        std::string direction;
    };
    std::map<int, std::vector<std::size_t>> rows;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        ASSERT_FALSE(t.cell(i, "group").empty()) << "every switch belongs to a group, row " << i;
        rows[std::stoi(t.cell(i, "group"))].push_back(i);
    }
    ASSERT_GE(rows.size(), 10u);
    EXPECT_EQ(s["cluster_migration"]["groups"].get<std::size_t>(), rows.size());
    std::vector<window> w;
    for (const auto& [g, rs] : rows) {
        SCOPED_TRACE(g);
        // (Numbered in order; a number may be missing: a group whose requests the governor
        // took back before any switch began.)
        ASSERT_EQ(rs.size(), 2u);
        EXPECT_NE(t.cell(rs[0], "logical_cpu"), t.cell(rs[1], "logical_cpu"));
        EXPECT_EQ(t.cell(rs[0], "direction"), t.cell(rs[1], "direction"));
        w.push_back({std::min(t.num(rs[0], "t_blackout_start_s"), t.num(rs[1], "t_blackout_start_s")),
                     std::max(t.num(rs[0], "t_blackout_end_s"), t.num(rs[1], "t_blackout_end_s")),
                     t.cell(rs[0], "direction")});
    }
    // Groups follow one another, alternating, and never overlap: outside a group's handover
    // both logical CPUs are on the same cluster.
    for (std::size_t g = 1; g < w.size(); g++) {
        SCOPED_TRACE(g);
        EXPECT_GT(w[g].from, w[g - 1].to);
        EXPECT_NE(w[g].direction, w[g - 1].direction);
    }
    EXPECT_EQ(w.front().direction, "a15->a7"); // from the boot cluster
    // The third A7 is the unpaired CPU: it runs only from reset until it goes offline at
    // boot (some microseconds' worth of energy).
    EXPECT_LT(s["energy_j"]["cores_by_state"]["cpu2"]["on"].get<double>(), 1e-4);
}

TEST_F(run_test, iks_to_hmp_and_back_loses_no_task_and_keeps_the_invariants)
{
    // configs/scenarios/mode-switch.yaml: IKS, HMP from 500 ms, IKS from 1000 ms; one heavy
    // task (70 %) and three light ones. The run checks its invariants as it goes (exit 0).
    result r = blsim("run -q " + scenario("mode-switch.yaml") + " --out " + dir.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    const json& iv = s["mode_intervals"];
    ASSERT_EQ(iv.size(), 3u);
    EXPECT_EQ(iv[0]["mode"], "iks");
    EXPECT_EQ(iv[1]["mode"], "hmp");
    EXPECT_EQ(iv[2]["mode"], "iks");
    // Under IKS logical CPUs switch, under HMP tasks migrate; not the other way round. The
    // only switches of the HMP interval are those bringing a logical CPU home from the A7 as
    // the switcher turns off, requested at the interval's start (counted in it: results.md).
    EXPECT_GT(iv[0]["switches"].get<int>(), 0);
    const csv_table t(slurp(dir / "switches.csv"));
    int homecomings = 0;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        const double at = t.num(i, "t_request_s");
        if (at < iv[1]["start_s"].get<double>() || at >= iv[1]["end_s"].get<double>())
            continue;
        EXPECT_EQ(t.cell(i, "direction"), "a7->a15");
        EXPECT_NEAR(at, iv[1]["start_s"].get<double>(), 1e-9);
        homecomings++;
    }
    EXPECT_EQ(iv[1]["switches"], homecomings);
    EXPECT_GT(iv[1]["migrations"].get<int>(), 0);
    EXPECT_EQ(iv[2]["migrations"], 0);
    // The switcher went off and on again once each.
    EXPECT_EQ(s["switches"]["switcher_disables"], 1);
    EXPECT_EQ(s["switches"]["switcher_enables"], 1);
    // No task lost: each did its share of the 1.5 s (util x 1.5 s of reference work), the
    // light ones to within their job in progress, the heavy one (which waits on an A7 at
    // times) to within 2 %.
    const std::map<std::string, double> util = {{"heavy", 0.70}, {"light0", 0.10}, {"light1", 0.05}, {"light2", 0.05}};
    const std::map<std::string, double> job_ms = {{"heavy", 7.0}, {"light0", 1.6}, {"light1", 0.4}, {"light2", 1.0}};
    for (const auto& [task, u] : util) {
        SCOPED_TRACE(task);
        const double done = s["tasks"][task]["done_ref_ms"].get<double>();
        const double want = u * 1500.0;
        if (task == "heavy")
            EXPECT_NEAR(done, want, 0.02 * want);
        else
            EXPECT_NEAR(done, want, job_ms.at(task));
    }
}

TEST_F(run_test, the_switcher_turned_off_while_the_cpus_boot)
{
    // Found by scripts/fuzz-cli: turned off at 0 ms, the switcher brought cpu4 online before it
    // ever went offline; going idle, cpu4 found the "come online" vector where it had left its
    // own resume vector, and a check of the kernel stopped the run. Either vector resumes it.
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switcher-onoff.yaml";
    for (const char* at : {"0", "0.000001", "0.01"}) {
        result r = blsim("run -q --force " + scenario + " --out " + dir.string() + " --set switcher.activity.0.at_ms=" + at);
        EXPECT_EQ(r.status, 0) << at << ": " << r.err;
    }
}

TEST_F(run_test, devices_that_answer_at_once_do_not_stop_time)
{
    // Documented minimum latencies: each hung a busy poll (the CCI's status at boot, the
    // interrupt handler) that let no simulated time pass. A register access costs a core
    // cycle at least.
    result r = blsim("run -q --out " + dir.string() + " " + scenario("default.yaml") +
                     " --set duration_s=0.2 --set soc.cci.access_cycles=0 --set soc.gic.access_cycles=0"
                     " --set soc.sram.access_cycles=0 --set soc.spc.access_cycles=0");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
}

TEST_F(run_test, a_port_that_never_settles_is_the_guests_failure_reported_once_a_line)
{
    // change_pending for 20 ms: the driver gives up after its 1 ms bound, on both ports at
    // boot; warned on stderr, counted, the run goes on; nothing on stdout under -q. (With
    // cpuidle's cluster power-downs every idle period would try again: WFI only, here.)
    result r = blsim("run -q --out " + dir.string() + " " + scenario("default.yaml") + " --set duration_s=0.1 --set soc.cci.change_pending_cycles=10000000"
                     " --set cpuidle.enabled=false");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "blsim: warning: cpu0: the CCI's port S3 still changing after 1000 us: the driver gave up on it "
                     "(a guest error)\n"
                     "blsim: warning: cpu0: the CCI's port S4 still changing after 1000 us: the driver gave up on it "
                     "(a guest error)\n");
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["cci"]["port_timeouts"], 2);
}

TEST_F(run_test, merged_interrupt_edges_are_no_lost_interrupts)
{
    // Two scaling_setspeed writes to logical cpu0 at 100 ms: the second doorbell edge finds
    // the first still pending, and the GIC merges them, as a real one does; the mailbox
    // holds the later write (1000 MHz: the A15 cpu0 is on), so no switch happens at 100 ms.
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    result r = blsim("run -q " + scenario + " --out " + dir.string() +
                     " --set 'governor.setspeed.1={at_ms: 100, cpu: 0, freq_mhz: 1000}'");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["interrupts"]["merged"], 1);
    const csv_table t(slurp(dir / "switches.csv"));
    ASSERT_FALSE(t.rows.empty());
    for (std::size_t i = 0; i < t.rows.size(); i++)
        EXPECT_GT(t.num(i, "t_request_s"), 0.2) << i;
}

TEST_F(run_test, the_governor_switches_both_ways_by_itself)
{
    // No frequency script: interactive at its defaults samples the stepping load and the
    // cpufreq driver turns its requests into switches. Idle at first, each logical CPU drops
    // to the A7 (the first samples: 0 % load); the 70 % step needs the A15; back at 30 %, the
    // A7 again.
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/governor-steps.yaml";
    result r = blsim("run " + scenario + " --out " + dir.string());
    ASSERT_EQ(r.status, 0) << r.err;
    // The report prints the switches, one line each, and the governor's policies.
    EXPECT_NE(r.out.find("switches: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  0.0827 s  logical cpu0 a15->a7, asked at 0.0807 s, blackout "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("governor interactive: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  policy cpu0, MHz:time 175:"), std::string::npos) << r.out;
    const csv_table t(slurp(dir / "switches.csv"));
    int down = 0, up = 0;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        (t.cell(i, "direction") == "a15->a7" ? down : up)++;
        EXPECT_GT(t.num(i, "t_cpufreq_request_s"), 0) << i; // each asked for by the governor
    }
    EXPECT_GE(down, 4);
    EXPECT_GE(up, 2);
    // The first: logical cpu0's first sample, 20 ms after boot, finds it idle and asks for the
    // lowest speed (175 virtual MHz: the A7 at 350), whose DVFS comes first.
    EXPECT_EQ(t.cell(0, "direction"), "a15->a7");
    EXPECT_NEAR(t.num(0, "t_cpufreq_request_s"), 0.0807, 0.001);
    // Up when the 70 % step begins (1.5 s for cpu0, 1.75 s for cpu1), within a sample or two.
    bool cpu0_up = false;
    for (std::size_t i = 0; i < t.rows.size(); i++)
        cpu0_up |= t.cell(i, "logical_cpu") == "0" && t.cell(i, "direction") == "a7->a15" &&
                   t.num(i, "t_request_s") > 1.5 && t.num(i, "t_request_s") < 1.56;
    EXPECT_TRUE(cpu0_up);
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["governor"]["name"], "interactive");
    EXPECT_GT(s["governor"]["samples"].get<double>(), 100);
    ASSERT_EQ(s["governor"]["policies"].size(), 2u); // a logical CPU each
    double tis = 0;
    for (const auto& [mhz, sec] : s["governor"]["policies"][0]["time_in_state_s"].items())
        tis += sec.get<double>();
    EXPECT_NEAR(tis, 5.0, 5e-6); // from the policies' start, after the boot CPU's first 2.9 us
    // All the work done: 0.3 + 0.7 + 1 + 0.3 s of the reference CPU each.
    EXPECT_NEAR(s["tasks"]["steps0"]["done_ref_ms"].get<double>(), 2300, 1e-6);
    EXPECT_NEAR(s["tasks"]["steps1"]["done_ref_ms"].get<double>(), 2300, 1e-6);
}

TEST_F(run_test, under_performance_the_logical_cpus_never_leave_the_a15)
{
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/governor-steps.yaml";
    result r = blsim("run -q " + scenario + " --out " + dir.string() + " --set governor.name=performance");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["switches"]["count"], 0);
    for (const auto& p : s["governor"]["policies"])
        EXPECT_NEAR(p["time_in_state_s"]["1200"].get<double>(), 5.0, 5e-6);
    // The A7 partners run only their boot, some 20 us, before going offline.
    EXPECT_LT(s["residency_s"]["cores"]["cpu3"]["on"].get<double>(), 1e-4);
    EXPECT_LT(s["residency_s"]["cores"]["cpu4"]["on"].get<double>(), 1e-4);
}

TEST_F(run_test, tunables_written_during_the_run_take_effect)
{
    // interactive at its defaults, then at 2 s hispeed_freq lowered to 600 virtual MHz (the
    // A15's second OPP) and go_hispeed_load to 50 %: from then on the 100 % step's bursts jump
    // to 600 first; a boostpulse at 4 s (light load) holds hispeed for 80 ms.
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/governor-steps.yaml";
    result r = blsim("run -q " + scenario + " --out " + (dir / "w").string() +
                     " --set 'governor.writes=[{at_ms: 2000, tunable: hispeed_freq_mhz, value: 600},"
                     " {at_ms: 2000, tunable: go_hispeed_load_pct, value: 50}, {at_ms: 4000, tunable: boostpulse, value: 1}]'");
    ASSERT_EQ(r.status, 0) << r.err;
    result plain = blsim("run -q " + scenario + " --out " + (dir / "p").string());
    ASSERT_EQ(plain.status, 0) << plain.err;
    json w = json::parse(slurp(dir / "w" / "summary.json")), p = json::parse(slurp(dir / "p" / "summary.json"));
    // The runs are the same until 2 s and differ after: more time at 600 with the writes.
    EXPECT_GT(w["governor"]["policies"][0]["time_in_state_s"]["600"].get<double>(),
              p["governor"]["policies"][0]["time_in_state_s"]["600"].get<double>());
    EXPECT_EQ(w["interrupts"]["handled"].get<int>(), p["interrupts"]["handled"].get<int>() + 2); // two doorbells
    // A write the governor does not have is refused, located, before anything runs.
    result bad = blsim("run -q " + scenario + " --out " + (dir / "b").string() +
                       " --set 'governor.writes=[{at_ms: 10, tunable: up_threshold_pct, value: 90}]'");
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.err, "--set:1:17: unknown key 'up_threshold_pct' in governor.interactive (did you mean "
                       "'go_hispeed_load_pct'?)\n");
}

TEST_F(run_test, every_governor_is_selectable_by_name)
{
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/governor-steps.yaml";
    for (const char* g : {"performance", "powersave", "userspace", "interactive", "ondemand", "conservative",
                          "schedutil"}) {
        const fs::path out = dir / g;
        result r = blsim("run -q " + scenario + " --out " + out.string() + " --set duration_s=2 --set governor.name=" + g);
        ASSERT_EQ(r.status, 0) << g << "\n" << r.err;
        json s = json::parse(slurp(out / "summary.json"));
        EXPECT_EQ(s["governor"]["name"], g);
    }
    result r = blsim("run -q " + scenario + " --out " + (dir / "x").string() + " --set governor.name=fixed");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "--set:1:15: governor.name: expected one of performance, powersave, userspace, interactive, "
                     "ondemand, conservative, schedutil, got 'fixed'\n");
}

TEST_F(run_test, two_busy_tasks_share_a_cpu_by_their_nice_levels)
{
    // Two tasks that never sleep on cpu0, nice 0 and nice 5: the slice timer shares the CPU
    // 1024 : 336, 75.3 % and 24.7 % (the scheduler's figures; docs/os.md). With 5 CPUs online
    // the times scale by 1 + log2(5) -> 3: an 18 ms period, slices of 13.55 and 4.45 ms, about
    // 111 switches in 1 s. (The running task's last stretch is accounted at its next
    // scheduling point: the sum is a slice short of 1 s at most.)
    result r = blsim("run -q --out " + dir.string() + " " + scenario("default.yaml") + " --set duration_s=1 --set governor.name=userspace"
                     " --set 'workload.tasks=[{name: a, cpus: [0], util_pct: 100, period_ms: 10},"
                     " {name: b, cpus: [0], nice: 5, util_pct: 100, period_ms: 10}]'");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "summary.json"));
    const double a = s["tasks"]["a"]["runtime_s"].get<double>(), b = s["tasks"]["b"]["runtime_s"].get<double>();
    EXPECT_NEAR(a + b, 1.0, 0.014);
    EXPECT_NEAR(a / (a + b), 1024.0 / 1360, 0.01);
    EXPECT_NEAR(s["tasks"]["b"]["wait_s"].get<double>(), a, 0.014);
    EXPECT_NEAR(s["sched"]["context_switches"].get<double>(), 111, 3);
}

TEST_F(run_test, a_busy_cpu_with_one_task_sees_no_timer_interrupt)
{
    // NOHZ: one task that never sleeps (its jobs overrun their period: each next one is
    // released already), nothing else with a deadline anywhere, a governor that never
    // samples: not one timer interrupt in the run.
    result r = blsim("run -q --out " + dir.string() + " " + scenario("default.yaml") + " --set duration_s=0.5 --set governor.name=userspace"
                     " --set 'workload.tasks=[{name: hog, cpus: [0], util_pct: 100, period_ms: 10}]'");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["sched"]["timer_irqs"], 0);
    EXPECT_EQ(s["sched"]["context_switches"], 1); // at boot, from idle
    EXPECT_GT(s["residency_s"]["cores"]["cpu0"]["on"].get<double>(), 0.499);
}

TEST_F(run_test, an_unwritable_results_directory_is_refused_before_simulating)
{
    result r = blsim("run --set duration_s=600 --out /proc/blsim-cannot-be-here");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: cannot write results to /proc/blsim-cannot-be-here: No such file or directory\n");
    EXPECT_TRUE(r.out.empty());
}

TEST_F(run_test, a_results_set_is_complete_only_with_its_summary)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --out " + dir.string()).status, 0);
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["files"], json::array({"effective-config.yaml", "switches.csv"}));
    for (const std::string f : {"effective-config.yaml", "switches.csv"})
        EXPECT_TRUE(fs::exists(dir / f)) << f;
    // Nothing temporary is left behind.
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
}

// A scenario beside @dir running rt-app file @json (under tests/) on TC2 in @mode (none: the
// default) for @duration; the test removes it.
fs::path rtapp_scenario(const fs::path& dir, const std::string& name, const std::string& mode,
                        const std::string& duration, const std::string& json)
{
    const fs::path cfg = dir.string() + "-" + name + ".yaml";
    std::ofstream(cfg) << "name: " << name << "\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\n"
                       << (mode.empty() ? "" : "mode: " + mode + "\n") << "duration_s: " << duration
                       << "\nworkload:\n  kind: rtapp\n  rtapp_json: " << BLSIM_SOURCE_DIR << "/tests/" << json << "\n";
    return cfg;
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

// Issue 25: real-time threads under IKS. Both CPUs use up their real-time runtime (950 ms of
// the first second) with real-time work still queued: each must idle until its period ends (it
// used to find its queue non-empty and reschedule at the same instant for ever), then run on.
// The lowest-priority FIFO hog, throttled each second, gets 950 ms of each of the first ones.
TEST_F(run_test, cpus_whose_real_time_tasks_are_throttled_idle_until_the_period_ends)
{
    const fs::path cfg = rtapp_scenario(dir, "rt", "iks", "1.5", "data/rtapp-rt-mix.json");
    result r = blsim("run -q " + cfg.string() + " --out " + dir.string());
    fs::remove(cfg);
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_GT(s["tasks"]["fifo-3"]["runtime_s"].get<double>(), 0.5);
}

// Issue 25: SCHED_DEADLINE threads, end to end, under IKS (two logical CPUs) and HMP (five).
// The hog reserves 10 ms of every 100 ms and wants more: in the second it runs exactly its ten
// jobs' 100 ms, whatever else runs. The yielding thread ends each 5 ms job after 100 us of work
// and is woken a period later: 20 jobs. (Under IKS this also found a balance tick, due while one
// task was queued, programmed again when a task that left in between came back: allowed once.)
TEST_F(run_test, deadline_threads_get_their_runtime_every_period_and_no_more)
{
    for (const char* mode : {"iks", "hmp"}) {
        const fs::path cfg = rtapp_scenario(dir, "dl", mode, "1", "data/rtapp-dl.json");
        result r = blsim("run -q " + cfg.string() + " --out " + dir.string() + " --force");
        fs::remove(cfg);
        ASSERT_EQ(r.status, 0) << mode << ": " << r.err;
        const json s = json::parse(slurp(dir / "summary.json"));
        EXPECT_NEAR(s["tasks"]["dl_hog-0"]["runtime_s"].get<double>(), 0.1, 1e-6) << mode;
        EXPECT_EQ(s["perf"]["rtapp"]["dl_yield-2"]["loops"], 20) << mode;
    }
}

// Admission is checked against the CPUs the run keeps: two 0.5-CPU threads fit HMP's five
// CPUs at 95 %, and four do not fit IKS's two logical CPUs (1.9).
TEST_F(run_test, deadline_admission_is_checked_against_the_runs_cpus)
{
    const fs::path json = dir.string() + "-adm.json";
    std::ofstream(json) << R"({"tasks": {"t": {"instance": 4, "policy": "SCHED_DEADLINE", "dl-runtime": 50000,
        "dl-period": 100000, "run": 1000, "sleep": 1000}}})";
    const fs::path cfg = dir.string() + "-adm.yaml";
    std::ofstream(cfg) << "name: adm\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\nmode: iks\n"
                       << "duration_s: 0.05\nworkload:\n  kind: rtapp\n  rtapp_json: " << json.string() << "\n";
    result r = blsim("run " + cfg.string() + " --out " + dir.string());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, json.string() + ":1:12: tasks.t: admission control refuses it (sched_setattr: EBUSY): with it "
                                     "the SCHED_DEADLINE threads reserve 2.000 CPUs, more than 95% of each of the 2 "
                                     "logical CPUs with the switcher on (sched.rt_runtime_us of sched.rt_period_us; "
                                     "-1 lifts the limit)\n");
    EXPECT_FALSE(fs::exists(dir));
    r = blsim("run -q " + cfg.string() + " --out " + dir.string() + " --set mode=hmp");
    EXPECT_EQ(r.status, 0) << r.err;
    fs::remove(cfg);
    fs::remove(json);
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

// Issue 25: rt-app's taskgroups are CFS groups: on one CPU a task alone in its group gets as
// much as the three of another group together (1 s: 0.5 s, and 0.167 s each), and the
// scenario's workload.rtapp_taskgroups sets a group's cpu.shares.
TEST_F(run_test, taskgroups_share_the_cpu_by_group_then_by_task)
{
    const fs::path cfg = rtapp_scenario(dir, "tg", "hmp", "1", "data/rtapp-taskgroups.json");
    result r = blsim("run -q " + cfg.string() + " --out " + dir.string());
    fs::remove(cfg);
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_NEAR(s["tasks"]["a-0"]["runtime_s"].get<double>(), 0.5, 0.01);
    for (const char* b : {"b-1", "b-2", "b-3"})
        EXPECT_NEAR(s["tasks"][b]["runtime_s"].get<double>(), 0.5 / 3, 0.01) << b;
    // /a at 512 shares against /b's 1024: a third of the CPU, and two ninths for each b.
    const fs::path cfg2 = rtapp_scenario(dir, "tg2", "hmp", "1", "data/rtapp-taskgroups.json");
    r = blsim("run -q " + cfg2.string() + " --out " + dir.string() +
              " --force --set 'workload.rtapp_taskgroups=[{path: /a, shares: 512}]'");
    fs::remove(cfg2);
    ASSERT_EQ(r.status, 0) << r.err;
    const json t = json::parse(slurp(dir / "summary.json"));
    EXPECT_NEAR(t["tasks"]["a-0"]["runtime_s"].get<double>(), 1.0 / 3, 0.01);
    for (const char* b : {"b-1", "b-2", "b-3"})
        EXPECT_NEAR(t["tasks"][b]["runtime_s"].get<double>(), 2.0 / 9, 0.01) << b;
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

TEST_F(run_test, a_bad_configuration_is_located_and_writes_nothing)
{
    const fs::path cfg = dir.string() + "-bad.yaml";
    std::ofstream(cfg) << "name: bad\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\n"
                       << "duration_s: -1\n";
    result r = blsim("run " + cfg.string() + " --out " + dir.string() + " --set seed=x");
    fs::remove(cfg);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, cfg.string() + ":3:13: duration_s: -1 is out of range 1e-06..1000000\n"
                     "--set:1:6: seed: expected an integer, got 'x'\n");
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(fs::exists(dir));
}

TEST_F(run_test, usage_errors_exit_2_and_help_exits_0)
{
    result r = blsim("--help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("usage: blsim <command>"), std::string::npos);
    r = blsim("run --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("--set KEY=VALUE"), std::string::npos);
    r = blsim("frobnicate");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: unknown command 'frobnicate'\n(see 'blsim --help')\n");
    r = blsim("run --bogus");
    EXPECT_EQ(r.status, 2);
    r = blsim("run /nonexistent/scenario.yaml");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "/nonexistent/scenario.yaml: cannot read: No such file or directory\n");
}

// Slips a new user makes, each answered with what was done and what to write instead.
TEST_F(run_test, a_set_in_two_arguments_and_an_rtapp_file_given_as_the_scenario_say_what_to_write)
{
    fs::create_directories(dir);
    const std::string here = "cd " + test::quote(dir.string()) + " && "; // relative paths are the test's
    // "--set key value": not "10: cannot read" (the value taken for the scenario).
    const std::string hint = "blsim: --set duration_s 10: a --set is one argument, KEY=VALUE: --set duration_s=10\n"
                             "(see 'blsim --help')\n";
    for (const char* args : {"run --set duration_s 10", "run x.yaml --set duration_s 10 --out o",
                             "compare a.yaml b.yaml --set duration_s 10", "explore x.yaml --set duration_s 10"}) {
        const result r = blsim(args, here);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.err, hint) << args;
    }
    // Without a value after it, the override's own message, located.
    result r = blsim("run " + std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/default.yaml --set duration_s", here);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "--set:1:1: expected key=value, got 'duration_s'\n");

    // rt-app's JSON (with its C comments, which YAML cannot read, or without) as the scenario.
    const std::string json = std::string(BLSIM_SOURCE_DIR) + "/configs/rtapp/periodic.json";
    r = blsim("run " + json + " --out o", here);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, json + ":1:1: this is an rt-app JSON file, not a scenario: a scenario runs it as its workload "
                            "('workload: {kind: rtapp, rtapp_json: FILE}', docs/workloads.md), e.g. blsim run "
                            "configs/scenarios/rtapp-periodic.yaml --set workload.rtapp_json=" + json + "\n");
    EXPECT_FALSE(fs::exists(dir / "o"));
    std::ofstream(dir / "plain.json") << "{\"tasks\": {\"a\": {\"run\": 1000}}}\n";
    r = blsim("run plain.json --out o", here);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("plain.json:1:1: this is an rt-app JSON file, not a scenario"), std::string::npos) << r.err;
    // ... and the suggested command runs it (a path given with --set is the working directory's).
    r = blsim("run " + std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/rtapp-periodic.yaml -q --set duration_s=0.05 "
              "--set workload.rtapp_json=plain.json --out o",
              here);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(slurp(dir / "o" / "effective-config.yaml").find("rtapp_json: " + (dir / "plain.json").string()),
              std::string::npos);
}

TEST_F(run_test, docs_config_reference_is_generated_from_the_schema)
{
    result r = blsim("config-reference");
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.out, slurp(fs::path(BLSIM_SOURCE_DIR) / "docs" / "config.md"))
        << "docs/config.md is stale: regenerate it with 'build/blsim config-reference > docs/config.md'";
}

} // namespace

// ------------------------------------------------------------------------------------------
// The workloads of the big.LITTLE study (docs/workloads.md)

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

TEST_F(run_test, music_alone_on_an_a7_costs_about_a_third_of_the_a15s)
{
    // The audio-playback validation (docs/validation.md): public TC2 figures put an A7 playing
    // audio at about 30 % of an A15's power (the EAS tables' busy A7 over A15, cluster
    // included: 27-32 %). Nothing is fitted to it: the ratio comes from the components. "About
    // 30 %" is read as 25-35 %.
    double j[2];
    const char* names[] = {"audio-iks.yaml", "audio-2xa15.yaml"};
    for (int i = 0; i < 2; i++) {
        const fs::path out = dir / names[i];
        result r = blsim("run -q --out " + out.string() + " " + scenario(names[i]));
        ASSERT_EQ(r.status, 0) << r.err;
        const json s = json::parse(slurp(out / "summary.json"));
        EXPECT_EQ(s["perf"]["audio"]["deadline_misses"], 0) << names[i];
        j[i] = s["energy_j"]["total"].get<double>();
    }
    EXPECT_GE(j[0] / j[1], 0.25);
    EXPECT_LE(j[0] / j[1], 0.35);
}

TEST_F(run_test, both_power_models_agree_on_the_shipped_scenarios)
{
    // The EAS tables and C*V^2*f share every idle and static power (docs/calibration.md,
    // "Power-state semantics") and price busy power from the same measurements: on the same
    // run they agree within 3 % (measured: 2 % at most, on every shipped scenario).
    for (const char* name : {"audio-iks.yaml", "audio-2xa15.yaml", "bbench-2xa7.yaml", "bbench-iks-tuned.yaml",
                             "rtapp-pipeline.yaml", "switch-pingpong.yaml"}) {
        SCOPED_TRACE(name);
        double j[2];
        for (int m = 0; m < 2; m++) {
            const fs::path out = dir / (std::string(name) + (m ? ".cv2f" : ".eas"));
            result r = blsim("run -q --out " + out.string() + " " + scenario(name) +
                             (m ? " --set soc.energy.model=cv2f" : ""));
            ASSERT_EQ(r.status, 0) << r.err;
            j[m] = json::parse(slurp(out / "summary.json"))["energy_j"]["total"].get<double>();
        }
        EXPECT_NEAR(j[1] / j[0], 1.0, 0.03) << j[0] << " J (eas), " << j[1] << " J (cv2f)";
    }
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

TEST_F(run_test, the_progress_line_shows_speed_and_eta_and_changes_no_result)
{
    // Shown on a terminal only (BLSIM_PROGRESS stands in for one here), on stderr, and gone
    // at the end; the run is sliced for it, with the same results.
    const std::string s = scenario("switch-pingpong.yaml");
    ASSERT_EQ(blsim("run -q --out " + (dir / "plain").string() + " " + s).status, 0);
    result r = blsim("run --out " + (dir / "shown").string() + " " + s, "BLSIM_PROGRESS=1 ");
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.err.find("1.000 / 1.000 s simulated (100%), "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("x real time, ETA 0 s"), std::string::npos) << r.err;
    json a = json::parse(slurp(dir / "plain" / "summary.json")), b = json::parse(slurp(dir / "shown" / "summary.json"));
    a.erase("host");
    b.erase("host");
    EXPECT_EQ(a, b);
    EXPECT_EQ(slurp(dir / "plain" / "switches.csv"), slurp(dir / "shown" / "switches.csv"));
    // -q silences it.
    r = blsim("run -q --out " + (dir / "quiet").string() + " " + s, "BLSIM_PROGRESS=1 ");
    EXPECT_TRUE(r.err.empty()) << r.err;
}

// --- seeded timing jitter (docs/hardware.md, "Timing jitter") --------------------------------

namespace {

// The summary as written, up to its host section (which describes the machine, not the model).
std::string summary_without_host(const fs::path& dir)
{
    const std::string s = slurp(dir / "summary.json");
    return s.substr(0, s.find("\"host\""));
}

// Column @name of every row of a CSV file with a header.
std::vector<std::string> csv_column(const fs::path& file, const std::string& name)
{
    std::istringstream in(slurp(file));
    std::string line;
    std::getline(in, line);
    auto split = [](const std::string& l) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream ls(l);
        while (std::getline(ls, cell, ','))
            cells.push_back(cell);
        return cells;
    };
    const std::vector<std::string> header = split(line);
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    const std::size_t k = static_cast<std::size_t>(it - header.begin());
    std::vector<std::string> column;
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = split(line);
        column.push_back(k < cells.size() ? cells[k] : "");
    }
    return column;
}

} // namespace

TEST_F(run_test, jitter_on_the_same_seed_gives_the_same_bytes)
{
    const std::string args = " " + scenario("switch-pingpong.yaml") + " --set jitter.enabled=true --set seed=3";
    ASSERT_EQ(blsim("run -q --out " + (dir / "a").string() + args).status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "b").string() + args).status, 0);
    EXPECT_EQ(summary_without_host(dir / "a"), summary_without_host(dir / "b"));
    EXPECT_EQ(slurp(dir / "a" / "switches.csv"), slurp(dir / "b" / "switches.csv"));
    EXPECT_EQ(slurp(dir / "a" / "effective-config.yaml"), slurp(dir / "b" / "effective-config.yaml"));

    // The summary counts the latencies perturbed, by class; the configuration as run shows it on.
    const json s = json::parse(slurp(dir / "a" / "summary.json"));
    ASSERT_TRUE(s.contains("jitter"));
    EXPECT_EQ(s["jitter"]["enabled"], true);
    std::uint64_t total = 0;
    for (const char* c : {"register_access", "shared_memory", "memory_access", "sgi_delivery", "wakeup",
                          "power_transition", "dvfs", "cache_maintenance"}) {
        ASSERT_TRUE(s["jitter"]["draws"].contains(c)) << c;
        EXPECT_GT(s["jitter"]["draws"][c].get<std::uint64_t>(), 0u) << c; // every class is exercised
        total += s["jitter"]["draws"][c].get<std::uint64_t>();
    }
    EXPECT_EQ(s["jitter"]["draws_total"].get<std::uint64_t>(), total);
    EXPECT_EQ(s["switches"]["count"], 12);
    EXPECT_NE(slurp(dir / "a" / "effective-config.yaml").find("jitter:\n  enabled: true\n"), std::string::npos);
}

TEST_F(run_test, jitter_on_another_seed_gives_other_switch_timings)
{
    const std::string s = " " + scenario("switch-pingpong.yaml") + " --set jitter.enabled=true --set jitter.register_access_pct=50";
    ASSERT_EQ(blsim("run -q --out " + (dir / "s1").string() + s + " --set seed=1").status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "s2").string() + s + " --set seed=2").status, 0);
    const std::vector<std::string> b1 = csv_column(dir / "s1" / "switches.csv", "blackout_us");
    const std::vector<std::string> b2 = csv_column(dir / "s2" / "switches.csv", "blackout_us");
    ASSERT_EQ(b1.size(), 12u);
    ASSERT_EQ(b2.size(), 12u); // the same switches ...
    EXPECT_NE(b1, b2);         // ... at other timings
    EXPECT_NE(csv_column(dir / "s1" / "switches.csv", "t_blackout_start_s"),
              csv_column(dir / "s2" / "switches.csv", "t_blackout_start_s"));
}

TEST_F(run_test, jitter_off_the_seed_changes_no_timing)
{
    // Off by default: the seed still drives the workloads' random choices, but no latency; the
    // summary has no jitter section.
    const std::string s = " " + scenario("switch-pingpong.yaml");
    ASSERT_EQ(blsim("run -q --out " + (dir / "s1").string() + s + " --set seed=1").status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "s2").string() + s + " --set seed=2").status, 0);
    EXPECT_EQ(slurp(dir / "s1" / "switches.csv"), slurp(dir / "s2" / "switches.csv"));
    json a = json::parse(slurp(dir / "s1" / "summary.json")), b = json::parse(slurp(dir / "s2" / "summary.json"));
    EXPECT_FALSE(a.contains("jitter"));
    for (json* j : {&a, &b}) {
        j->erase("host");
        j->erase("seed");
    }
    EXPECT_EQ(a, b);
    EXPECT_NE(slurp(dir / "s1" / "effective-config.yaml").find("jitter:\n  enabled: false\n"), std::string::npos);
}

TEST_F(run_test, jitter_bounds_are_validated_where_they_are_written)
{
    result r = blsim("run -q --out " + (dir / "x").string() + " " + scenario("switch-pingpong.yaml") +
                     " --set jitter.enabled=true --set jitter.dvfs_pct=101 --set jitter.sgi_delivery_ns=-1");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--set:2:17: jitter.dvfs_pct: 101 is out of range 0..100"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--set:3:24: jitter.sgi_delivery_ns: -1 is out of range 0..1000000"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "x" / "summary.json"));
}

// --- injected faults (docs/hardware.md, "Fault injection") ----------------------------------

TEST_F(run_test, injected_faults_are_counted_per_configured_kind_and_reproducible)
{
    const std::string args = " " + scenario("switch-pingpong.yaml") +
                             " --set 'faults.dvfs_fail.at_s=[0.3, 0.1]' --set 'faults.spurious_irq.at_s=[0.5]'";
    result r = blsim("run --out " + (dir / "a").string() + args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\nfaults: 3 injected (spurious_irq 1, dvfs_fail 2)\n"), std::string::npos) << r.out;
    const json s = json::parse(slurp(dir / "a" / "summary.json"));
    ASSERT_TRUE(s.contains("faults"));
    // Each failed DVFS step ended its frequency transaction without a switch, and the
    // governor saw it fail; the spurious interrupt was read and ignored.
    EXPECT_EQ(s["faults"], json::parse(R"({"spurious_irq": {"injected": 1},
        "dvfs_fail": {"injected": 2, "handled": {"frequency_transactions_failed": 2}},
        "switches_given_up": 0, "governor_failed_transitions": 2})"));
    EXPECT_NE(slurp(dir / "a" / "effective-config.yaml").find("  dvfs_fail:\n    probability_pct: 0\n    at_s: [0.3, 0.1]\n"),
              std::string::npos);
    // The same seed, the same faults and the same bytes.
    ASSERT_EQ(blsim("run -q --out " + (dir / "b").string() + args).status, 0);
    EXPECT_EQ(summary_without_host(dir / "a"), summary_without_host(dir / "b"));
    EXPECT_EQ(slurp(dir / "a" / "switches.csv"), slurp(dir / "b" / "switches.csv"));
}

TEST_F(run_test, a_switch_whose_inbound_never_comes_up_is_given_up_and_the_run_goes_on)
{
    // Every kick to a powered-down inbound lost: each of the six switches asked (the script's
    // others then ask for the cluster the CPU is still on) kicks three times, 5 ms apart,
    // and gives up (docs/switcher.md, "Faults").
    result r = blsim("run -q --out " + (dir / "lost").string() + " " + scenario("switch-pingpong.yaml") +
                     " --set faults.wakeup_lost.probability_pct=100");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "lost" / "summary.json"));
    EXPECT_EQ(s["switches"]["count"], 0);
    EXPECT_EQ(s["switches"]["requests"], 6);
    EXPECT_EQ(s["faults"]["wakeup_lost"]["handled"],
              json::parse(R"({"inbound_kicked_again": 12, "switch_given_up_after_timeout": 6})"));
    EXPECT_EQ(s["faults"]["switches_given_up"], 6);
    EXPECT_EQ(s["faults"]["governor_failed_transitions"], 6);

    // One power-up failing, at 150 ms: the inbound of logical cpu1's switch to the A7s. The
    // power controller reports it; the switch is given up at once, and the switch back at
    // 250 ms has nothing to do: ten switches of the twelve, eleven requests.
    r = blsim("run -q --trace perfetto --out " + (dir / "up").string() + " " + scenario("switch-pingpong.yaml") +
              " --set 'faults.power_up_fail.at_s=[0.15]'");
    ASSERT_EQ(r.status, 0) << r.err;
    s = json::parse(slurp(dir / "up" / "summary.json"));
    EXPECT_EQ(s["switches"]["count"], 10);
    EXPECT_EQ(s["switches"]["requests"], 11);
    EXPECT_EQ(s["faults"]["power_up_fail"],
              json::parse(R"({"injected": 1, "handled": {"reported": 1, "switch_given_up": 1}, "failing_at_end": []})"));
    // The trace shows the switch given up, an instant on logical cpu1's track naming its
    // inbound (cpu3, logical cpu1's A7 partner under Linux's "odd" pairing), and no phases for it.
    const json trace = json::parse(slurp(dir / "up" / "trace.json"));
    std::vector<json> given_up;
    int switch_slices = 0;
    for (const json& e : trace["traceEvents"]) {
        const std::string name = e.value("name", "");
        if (name.rfind("switch given up", 0) == 0)
            given_up.push_back(e);
        switch_slices += e.value("ph", "") == "X" && name.rfind("switch a", 0) == 0;
    }
    ASSERT_EQ(given_up.size(), 1u);
    EXPECT_EQ(given_up[0]["name"], "switch given up: inbound cpu3 never came up");
    EXPECT_EQ(given_up[0]["args"]["inbound"], 3);
    EXPECT_NEAR(given_up[0]["ts"].get<double>(), 150e3, 2e3); // us: at the power-up's timeout
    EXPECT_EQ(switch_slices, 10);
}

// schedutil with rate_limit_us 0 (legal in Linux; issue 24, class 2) evaluated every 60-75 ns
// in a loop of its own deadline: +22-80 % energy, 18-95 times slower. It now evaluates once per
// update from the scheduler (measured on this second: 598 samples, 495 context switches and
// 482 wake-ups; energy 0.9 % above rate_limit_us 1's).
TEST_F(run_test, schedutil_with_no_rate_limit_evaluates_once_per_scheduler_update)
{
    json s[2];
    for (int r = 0; r < 2; r++) {
        const fs::path out = dir / ("rl" + std::to_string(r));
        const result res = blsim("run -q --out " + out.string() + " " + scenario("rtapp-mixed-eas.yaml") +
                                 " --set duration_s=1 --set governor.schedutil.rate_limit_us=" + std::to_string(r));
        ASSERT_EQ(res.status, 0) << res.err;
        s[r] = json::parse(slurp(out / "summary.json"));
    }
    const double samples = s[0]["governor"]["samples"].get<double>();
    EXPECT_GT(samples, 0);
    EXPECT_LE(samples, s[0]["sched"]["context_switches"].get<double>() + s[0]["sched"]["wakeups"].get<double>());
    const double e0 = s[0]["energy_j"]["total"].get<double>(), e1 = s[1]["energy_j"]["total"].get<double>();
    EXPECT_NEAR(e0 / e1, 1.0, 0.03);
}

// MCPM's use_count reached 3 (issue 24, class 5) when the switcher went off less than a
// millisecond after it came on, SGIs late: a CPU taken offline, still in WFI with its kick
// on the way, was chosen as a switch's inbound (use_count 2: a power-up before its power-down,
// Linux's race), and the switcher off then powered it up again to come online (3). A mode
// change now waits, as bL_switcher_enable's cpu_down does, until every CPU it took offline has
// reached its power-down. The exploration's seed 2 met it (12 of seeds 1-20 did).
TEST_F(run_test, mode_changes_under_a_millisecond_apart_keep_mcpm_use_counts_in_range)
{
    const result r = blsim("run -q --out " + (dir / "close").string() + " " + std::string(BLSIM_SOURCE_DIR) +
                           "/configs/explore/mode-changes-close.yaml --set seed=2");
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "close" / "summary.json"));
    EXPECT_GT(s["switches"]["mcpm"]["last_man"].get<int>(), 0);
}

// Issue 24, class 4: switching to IKS while a CPU going offline cannot be powered up (its
// attempt fails, and the controller's timeout outlasts the run). The CPUs that did stop leave
// the scheduler at once (cpu_down's order), so their tasks run on; only what waited on the failed
// CPU itself is late, and the run says so.
TEST_F(run_test, a_cpu_that_fails_to_power_up_while_the_switcher_turns_on_strands_only_its_own)
{
    const std::string sc = scenario("mode-switch.yaml");
    ASSERT_EQ(blsim("run -q --out " + (dir / "clean").string() + " " + sc).status, 0);
    const result r = blsim("run -q --out " + (dir / "failed").string() + " " + sc +
                           " --set 'faults.power_up_fail.at_s=[0.99]' --set faults.power_up_fail.timeout_us=900000");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "blsim: warning: cpu2: its power-up failed at 0.992000 s (faults.power_up_fail) and the power "
                     "controller's timeout (900000 us) had not run out when the run ended: its timers and queued "
                     "tasks did not run since\n");
    const json clean = json::parse(slurp(dir / "clean" / "summary.json"));
    const json failed = json::parse(slurp(dir / "failed" / "summary.json"));
    EXPECT_EQ(failed["faults"]["power_up_fail"]["failing_at_end"],
              json::parse(R"([{"cpu": "cpu2", "since_s": 0.992}])"));
    // light0 slept on cpu2: its wake-ups wait for it. The others lose none (before the fix,
    // a third of each, queued on CPUs that had stopped and sat in WFI).
    EXPECT_LT(failed["tasks"]["light0"]["wakeups"].get<int>(), clean["tasks"]["light0"]["wakeups"].get<int>());
    for (const char* t : {"light1", "light2"})
        EXPECT_EQ(failed["tasks"][t]["wakeups"], clean["tasks"][t]["wakeups"]) << t;
}

// Found by scripts/fuzz-props (seed 2026, run 557): a CPU stopping for IKS handed a sleeper
// whose timer was due to a CPU that had just handled that same deadline, which then programmed
// it again (the timer-storm check). Due timers fire on the stopping CPU before it hands over.
TEST_F(run_test, a_cpu_stopping_for_iks_fires_its_due_timers_before_handing_its_sleepers_over)
{
    const result r = blsim("run -q --out " + dir.string() + " " + scenario("rtapp-mixed-cm.yaml") +
                           " --set duration_s=0.05 --set seed=877 --set mode=smp --set governor.name=ondemand"
                           " --set jitter.enabled=true --set jitter.shared_memory_pct=70.6067 --set jitter.wakeup_pct=0"
                           " --set jitter.power_transition_pct=95.3111 --set faults.spurious_irq.interval_us=1.122e+06"
                           " --set 'faults.spurious_irq.at_s=[0.0167]' --set 'mode_changes=[{at_ms: 10.355, mode: iks}]'"
                           " --set soc.cci.clock_mhz=177");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
}

// Found by scripts/fuzz-props (seed 77, run 1040): a request to turn the switcher on, taken
// while the switcher turning off was still bringing the other CPUs online (device accesses that
// take time), had a CPU stop and leave the scheduler, which the turning off then put back online
// with a task. A mode request now waits for the end, as bL_switcher_disable holds
// bL_switcher_mutex throughout.
TEST_F(run_test, a_mode_request_waits_until_the_switcher_turned_off_has_brought_every_cpu_online)
{
    const result r = blsim("run -q --out " + dir.string() + " " + scenario("rtapp-mixed-eas.yaml") +
                           " --set duration_s=0.1 --set seed=486 --set faults.cci_stuck.probability_pct=100"
                           " --set 'mode_changes=[{at_ms: 21.258, mode: iks}, {at_ms: 85.557, mode: eas},"
                           " {at_ms: 86.014, mode: iks}]'");
    EXPECT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    ASSERT_EQ(s["mode_intervals"].size(), 4u);
    EXPECT_EQ(s["mode_intervals"][3]["mode"], "iks");
}

TEST_F(run_test, without_faults_the_summary_has_no_faults_section)
{
    result r = blsim("run --out " + dir.string() + " " + scenario("switch-pingpong.yaml"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("\nfaults:"), std::string::npos) << r.out;
    EXPECT_FALSE(json::parse(slurp(dir / "summary.json")).contains("faults"));
    EXPECT_EQ(slurp(dir / "effective-config.yaml").find("\nfaults:"), std::string::npos);
}

// --- one run, one set (issue 24, class 3) ----------------------------------------------------

namespace {

// The hidden entries of @parent whose name begins with "." + @name (staging or old sets).
std::vector<std::string> hidden_siblings(const fs::path& parent, const std::string& name)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(parent))
        if (e.path().filename().string().rfind("." + name, 0) == 0)
            out.push_back(e.path().filename().string());
    return out;
}

std::vector<std::string> listing(const fs::path& d)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(d))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_F(run_test, a_reused_out_is_refused_and_left_as_it_was)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --trace perfetto --out " + dir.string()).status, 0);
    const std::string before = slurp(dir / "summary.json");
    result r = blsim("run -q --set duration_s=0.2 --out " + dir.string());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --out " + dir.string() +
                         ": not empty (an earlier run's results?); give a new directory, or --force to replace its "
                         "contents with this run's\n");
    EXPECT_EQ(slurp(dir / "summary.json"), before);
    EXPECT_TRUE(fs::exists(dir / "trace.json"));
    EXPECT_TRUE(hidden_siblings(dir.parent_path(), dir.filename().string()).empty());
}

TEST_F(run_test, force_replaces_the_whole_set_and_summary_lists_it)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --trace perfetto,vcd --out " + dir.string()).status, 0);
    std::ofstream(dir / "stale.png") << "an older picture";
    result r = blsim("run -q --force --set duration_s=0.2 --trace ftrace --out " + dir.string() + "/");
    ASSERT_EQ(r.status, 0) << r.err;
    // Nothing of the older set survives; the set is exactly what summary.json lists.
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"effective-config.yaml", "summary.json", "switches.csv",
                                                      "trace.txt"}));
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["files"], json::array({"effective-config.yaml", "switches.csv", "trace.txt"}));
    EXPECT_EQ(s["sim_time_s"], 0.2);
    EXPECT_TRUE(hidden_siblings(dir.parent_path(), dir.filename().string()).empty());
}

TEST_F(run_test, a_failed_run_leaves_an_existing_set_untouched_and_no_temporaries)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --out " + dir.string()).status, 0);
    const std::vector<std::string> before = listing(dir);
    const std::string summary = slurp(dir / "summary.json");
    result r = blsim_hooked("run -q --force --inject-bug meter-time-reversal --set duration_s=1 --trace perfetto,vcd --out " +
                     dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("blsim: the trace up to the violation is not written: " + dir.string() +
                         " holds an earlier run's results\n"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(listing(dir), before);
    EXPECT_EQ(slurp(dir / "summary.json"), summary);
    EXPECT_TRUE(hidden_siblings(dir.parent_path(), dir.filename().string()).empty());
}

TEST_F(run_test, a_killed_runs_staging_directory_is_removed_by_the_next_run_in_its_parent)
{
    // A pid that is no longer alive: a child already waited for.
    const pid_t dead = ::fork();
    if (dead == 0)
        ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    fs::create_directories(dir);
    const fs::path stale = dir / (".killed.blsim-tmp." + std::to_string(dead));
    fs::create_directories(stale);
    std::ofstream(stale / ".trace.tmp.vcd") << "half a trace";
    // One whose owner lives (this test) is left alone.
    const fs::path live = dir / (".running.blsim-tmp." + std::to_string(::getpid()));
    fs::create_directories(live);
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --trace vcd --out " + (dir / "next").string()).status, 0);
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(live));
    EXPECT_EQ(listing(dir), (std::vector<std::string>{live.filename().string(), "next"}));
    EXPECT_TRUE(fs::exists(dir / "next" / "trace.vcd"));
}

TEST_F(run_test, results_that_cannot_be_written_are_an_io_error_naming_the_path)
{
    // TMPDIR that is no directory: compare's scratch space cannot be made. An environment
    // failure, named with the path and errno's text, exit 1, never "internal error".
    result r = blsim("compare " + scenario("default.yaml") + " " + scenario("default.yaml"),
                     "TMPDIR=/proc/blsim-no-such-dir ");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("blsim: error: compare: cannot create a temporary directory in /proc/blsim-no-such-dir: ", 0),
              0u)
        << r.err;
    // An --out whose parent cannot hold it: refused before simulating (docs/results.md).
    r = blsim("run --set duration_s=600 --out /proc/self/blsim-cannot-be-here");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("blsim: cannot write results to /proc/self/blsim-cannot-be-here: ", 0), 0u) << r.err;
}

// --- effective-config.yaml runs again (issue 24, class 9) -------------------------------------

TEST_F(run_test, every_shipped_scenarios_effective_config_reruns_to_the_same_results)
{
    std::vector<fs::path> scenarios;
    for (const auto& e : fs::directory_iterator(std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios"))
        if (e.path().extension() == ".yaml")
            scenarios.push_back(e.path());
    std::sort(scenarios.begin(), scenarios.end());
    ASSERT_GE(scenarios.size(), 20u);
    for (const fs::path& sc : scenarios) {
        const fs::path first = dir / (sc.stem().string() + "-1"), again = dir / (sc.stem().string() + "-2");
        result r = blsim("run -q --set duration_s=0.3 --out " + first.string() + " " + sc.string());
        ASSERT_EQ(r.status, 0) << sc << r.err;
        r = blsim("run -q --out " + again.string() + " " + (first / "effective-config.yaml").string());
        ASSERT_EQ(r.status, 0) << sc << r.err;
        json a = json::parse(slurp(first / "summary.json")), b = json::parse(slurp(again / "summary.json"));
        a.erase("host"); // wall-clock time and memory
        b.erase("host");
        EXPECT_EQ(a, b) << sc;
        EXPECT_EQ(slurp(first / "switches.csv"), slurp(again / "switches.csv")) << sc;
        EXPECT_EQ(slurp(first / "effective-config.yaml"), slurp(again / "effective-config.yaml")) << sc;
    }
}
