// tests/platform/platform_e2e_test.cpp -- the SoC as a whole run builds it: deterministic, booted
// and powered down as worked by hand, its devices as the kernel finds them, no dirty line lost,
// and SoCs beyond TC2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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
using blsim_test::csv_table;

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

// Software must clean a cache before its power goes. From halfway (0.5 s), the first cluster
// to start its power-down has 4 KiB of context 0 written into core 0's L1, and so the L2,
// behind its last man's clean: 64 lines in each. Its power going, the run stops, naming it.
TEST_F(run_test, a_cluster_powered_off_with_dirty_lines_stops_the_run)
{
    using blsim_test::blsim_hooked;
    result r = blsim_hooked("run " + scenario("default.yaml") + " --inject-bug dirty-line-lost --set duration_s=1 --out " +
                            dir.string());
    EXPECT_EQ(r.status, 1);
    // The report is the last line: under the sanitizers (scripts/check-sanitizers) ASan warns
    // first that it cannot unpoison the power controller's coroutine stack for the exception.
    ASSERT_FALSE(r.err.empty());
    const std::string last = r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1);
    EXPECT_EQ(last.rfind("blsim: internal error: invariant 'no-dirty-line-lost' violated at 0.50", 0), 0u) << r.err;
    EXPECT_NE(last.find(" s in cluster a15: powered off with 128 dirty cache lines: they had to be cleaned first\n"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
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

TEST_F(run_test, two_inbounds_restoring_at_once_share_the_memory_channel)
{
    // Cluster migration moves both logical CPUs at once: both inbounds read 20,000 words
    // uncached at the same time, each a DRAM round trip of 40 cycles and a 4-byte transfer at
    // 400 MHz, 101.25 ns: 2025 us a restore, and the channel, busy 1.25 ns a word, hardly
    // delays either. (The first inbound had booked the channel up to the end of its restore in
    // one go, and the second's restore took 4051 us.)
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/bbench-cm.yaml";
    result r = blsim("run -q " + scenario + " --out " + dir.string() +
                     " --set duration_s=1 --set switcher.restore_uncached_words=20000");
    ASSERT_EQ(r.status, 0) << r.err;
    const csv_table t(slurp(dir / "switches.csv"));
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.num(0, "t_blackout_start_s"), t.num(1, "t_blackout_start_s"));
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        EXPECT_GT(t.num(i, "restore_us"), 2025) << i;
        EXPECT_LT(t.num(i, "restore_us"), 2040) << i;
    }
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

TEST_F(run_test, a_cluster_of_six_cores_powers_its_fifth_and_sixth_down_and_up)
{
    // SC7180: six A55s in one cluster (cpu0-5), two A76s (cpu6-7). Cores 4 and 5 of the
    // silver cluster exist only in the power controller's wide layout (bls/spc.h): had their
    // wake-up bits or resume addresses landed on another core's, they would never wake, or
    // wake the wrong core, and the run would stop on MCPM's checks.
    const std::string soc = std::string(BLSIM_SOURCE_DIR) + "/configs/soc/sc7180.yaml";
    for (const char* mode : {"hmp", "eas"}) {
        SCOPED_TRACE(mode);
        const fs::path out = dir / (std::string("sc7180-") + mode);
        result r = blsim("run -q " + scenario("bbench-hmp.yaml") + " --out " + out.string() + " --set soc=" + soc +
                         " --set mode=" + mode + " --set duration_s=20");
        ASSERT_EQ(r.status, 0) << r.err;
        const json s = json::parse(slurp(out / "summary.json"));
        const json& cores = s["residency_s"]["cores"];
        ASSERT_EQ(cores.size(), 8u);
        for (const char* cpu : {"cpu0", "cpu3", "cpu4", "cpu5"})
            EXPECT_EQ(cores[cpu]["cluster"], "silver") << cpu;
        EXPECT_EQ(cores["cpu6"]["cluster"], "gold");
        for (const char* cpu : {"cpu4", "cpu5"}) {
            EXPECT_GT(s["idle"][cpu]["cpu-sleep"]["entries"].get<int>(), 0) << cpu; // powered down ...
            EXPECT_GT(cores[cpu]["on"].get<double>(), 0) << cpu;                     // ... and up
        }
        EXPECT_GT(s["migrations"]["up"].get<int>(), 0);
        EXPECT_GT(s["migrations"]["down"].get<int>(), 0);
        EXPECT_EQ(s["power_controller"]["guest_errors"], 0);
    }
    // The switcher's modes: refused where the SoC's tables make them impossible.
    result r = blsim("run -q " + scenario("bbench-hmp.yaml") + " --out " + (dir / "iks").string() + " --set soc=" +
                     soc + " --set mode=iks");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("sc7180.yaml:92:20: soc.clusters[0].opps[9].freq_mhz: with the switcher, the little "
                         "cluster's OPPs at half their frequency"),
              std::string::npos)
        << r.err;
}

} // namespace
