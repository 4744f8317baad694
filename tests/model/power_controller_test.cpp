// tests/model/power_controller_test.cpp -- the power controller (TC2's SPC): the last core
// off powers the cluster off, a wake-up powers it up before the core, a wake-up during the
// power-down aborts it (or lets it complete), and DVFS requests through its registers
// complete one at a time with an interrupt. Worked by hand from test::small_soc.
//
// gtest_discover_tests runs every TEST in a process of its own: one SystemC elaboration each.
#include <gtest/gtest.h>

#include <string>
#include <systemc>
#include <vector>

#include "blsim/model/power_controller.h"
#include "test_soc.h"

namespace blsim::model {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

double now_us() { return sc_core::sc_time_stamp().to_seconds() * 1e6; }

struct cpu_thread : sc_core::sc_module {
    power_controller& pc;
    unsigned cpu;
    double down_at_us, wake_at_us;
    double resumed_us = -1;
    cpu_thread(sc_core::sc_module_name n, power_controller& p, unsigned c, double down, double wake)
        : sc_module(n), pc(p), cpu(c), down_at_us(down), wake_at_us(wake)
    {
        SC_HAS_PROCESS(cpu_thread);
        SC_THREAD(run);
    }
    void run()
    {
        wait(sc_time(down_at_us, SC_US));
        pc.core_enter_off(cpu);
        wait(sc_time(wake_at_us, SC_US) - sc_core::sc_time_stamp());
        // Woken (the core's own loop waits for the wake-up; not needed here); the exit
        // latency passes before the software runs.
        wait(pc.core_exit(cpu));
        resumed_us = now_us();
    }
};

struct logged_pc {
    soc_params soc;
    power_controller pc;
    test::unused_master regs_master;
    std::vector<std::string> log;
    explicit logged_pc(const soc_params& s) : soc(s), pc("pc", soc), regs_master("regs_master", pc.regs)
    {
        // As MCPM's last man does before going down (TC2: the SPC's PWRDN_EN).
        pc.reg_write(power_controller::PWRDN_EN, 1);
        pc.core_changed.subscribe([this](unsigned cpu, core_power, core_power st) {
            log.push_back(std::to_string(static_cast<int>(now_us())) + " cpu" + std::to_string(cpu) + " " +
                          to_string(st));
        });
        pc.cluster_changed.subscribe([this](unsigned, cluster_power, cluster_power st) {
            log.push_back(std::to_string(static_cast<int>(now_us())) + " cluster " + to_string(st));
        });
    }
};

TEST(power_controller, cluster_follows_its_last_and_first_core)
{
    logged_pc p(test::small_soc(2)); // core off 10/20 us, cluster off 100/200 us
    // cpu0 goes down at 0 us, cpu1 at 50 us (the last man); cpu0 wakes at 500 us, cpu1 at
    // 550 us while the cluster is still coming up.
    cpu_thread a("a", p.pc, 0, 0, 500);
    cpu_thread b("b", p.pc, 1, 50, 550);
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));

    const std::vector<std::string> expected = {
        "10 cpu0 off",
        "60 cpu1 off",
        "60 cluster powering_down", // last man: 100 us of cluster entry
        "160 cluster off",
        "500 cluster powering_up",  // the first man powers the cluster up (200 us)
        "700 cluster on",
        "700 cpu0 on",
        "700 cpu1 on",              // cpu1 woke at 550 and waited for the cluster
    };
    EXPECT_EQ(p.log, expected);
    EXPECT_DOUBLE_EQ(a.resumed_us, 720);
    EXPECT_DOUBLE_EQ(b.resumed_us, 720);
    EXPECT_EQ(p.pc.transitions(), 8u);
    EXPECT_EQ(p.pc.entries_aborted(), 0u);
}

TEST(power_controller, a_wake_up_during_the_power_down_aborts_it)
{
    // The cluster starts powering down at 60 us for 100 us; cpu0 wakes at 100 us, before
    // the power switch opens: the cluster is back on at once and cpu0 runs 20 us later,
    // instead of waiting for 160 + 200 us.
    logged_pc p(test::small_soc(2));
    cpu_thread a("a", p.pc, 0, 0, 100);
    cpu_thread b("b", p.pc, 1, 50, 10000);
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    const std::vector<std::string> expected = {
        "10 cpu0 off", "60 cpu1 off", "60 cluster powering_down", "100 cluster on", "100 cpu0 on",
    };
    EXPECT_EQ(p.log, expected);
    EXPECT_DOUBLE_EQ(a.resumed_us, 120);
    EXPECT_EQ(p.pc.entries_aborted(), 1u);
}

TEST(power_controller, or_completes_it_first_when_so_configured)
{
    soc_params soc = test::small_soc(2);
    soc.clusters[0].power.cluster_entry_wakeup = entry_wakeup::complete;
    logged_pc p(soc);
    cpu_thread a("a", p.pc, 0, 0, 100);
    cpu_thread b("b", p.pc, 1, 50, 10000);
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    const std::vector<std::string> expected = {
        "10 cpu0 off",   "60 cpu1 off",  "60 cluster powering_down", "160 cluster off",
        "160 cluster powering_up", "360 cluster on", "360 cpu0 on",
    };
    EXPECT_EQ(p.log, expected);
    EXPECT_DOUBLE_EQ(a.resumed_us, 380);
    EXPECT_EQ(p.pc.entries_aborted(), 0u);
}

struct dvfs_stimulus : sc_core::sc_module {
    power_controller& pc;
    std::vector<std::string> log;
    dvfs_stimulus(sc_core::sc_module_name n, power_controller& p) : sc_module(n), pc(p)
    {
        SC_HAS_PROCESS(dvfs_stimulus);
        SC_THREAD(run);
    }
    void run()
    {
        pc.reg_write(power_controller::PERF_LVL, 0); // 1000 -> 500 MHz
        wait(sc_time(5, SC_US));
        pc.reg_write(power_controller::PERF_LVL, 1); // while busy: ignored, a guest error
        wait(sc_time(95, SC_US));
        log.push_back(std::to_string(static_cast<int>(now_us())) + " status " +
                      std::to_string(pc.reg_read(power_controller::PWC_STATUS)));
        pc.reg_write(power_controller::PERF_LVL, 1); // 500 -> 1000 MHz
        wait(sc_time(100, SC_US));
        log.push_back(std::to_string(static_cast<int>(now_us())) + " status " +
                      std::to_string(pc.reg_read(power_controller::PWC_STATUS)));
        log.push_back(std::to_string(static_cast<int>(now_us())) + " status " +
                      std::to_string(pc.reg_read(power_controller::PWC_STATUS)));
    }
};

TEST(power_controller, dvfs_requests_complete_one_at_a_time_with_an_interrupt)
{
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    soc_params soc = test::small_soc(1);
    const cluster_params& c = soc.clusters[0]; // voltage 10 us, frequency 30 us
    clock_domain clock("clk", 1000);
    voltage_domain voltage("vdd", 1000);
    dvfs_controller dvfs("dvfs", c.opps, c.dvfs, clock, voltage, 1);
    power_controller pc("pc", soc);
    test::unused_master regs_master("regs_master", pc.regs);
    pc.attach_dvfs(0, dvfs);
    dvfs_stimulus stim("stim", pc);
    std::vector<std::string> irq;
    pc.connect_irq([&](bool level) { irq.push_back(std::to_string(static_cast<int>(now_us())) + (level ? " high" : " low")); });
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));

    // Down: frequency (30 us) then voltage (10 us): complete at 40 us, the line high until
    // the status is read at 100 us. Up: voltage then frequency, complete at 140 us. Reading
    // the status clears it: the second read gives 0.
    EXPECT_EQ(irq, (std::vector<std::string>{"40 high", "100 low", "140 high", "200 low"}));
    EXPECT_EQ(stim.log, (std::vector<std::string>{"100 status 1", "200 status 1", "200 status 0"}));
    EXPECT_EQ(pc.dvfs_requests(), 2u);
    EXPECT_EQ(pc.guest_errors(), 1u);
    EXPECT_EQ(clock.freq_mhz(), 1000);
}

} // namespace
} // namespace blsim::model

namespace blsim::model {
namespace {

// Two clusters of test::small_soc's: @first cores, then @second.
soc_params two_clusters(int first, int second)
{
    soc_params soc = test::small_soc(first), other = test::small_soc(second);
    other.clusters[0].name = "second";
    soc.clusters.push_back(other.clusters[0]);
    return soc;
}

// A cluster of more than 4 cores gives the per-core fields the wide layout (bls/spc.h), by CPU
// number: here a 2+6 SoC (cluster 0: cpu0-1, cluster 1: cpu2-7); TC2's keeps (cluster, core).
TEST(power_controller, a_cluster_of_six_cores_takes_the_wide_layout)
{
    const soc_params soc = two_clusters(2, 6);
    power_controller pc("pc", soc);
    test::unused_master m("m", pc.regs);
    EXPECT_TRUE(pc.wide_layout());

    // WAKE_INT_MASK bit n is CPU n's: bit 7 wakes cpu7 (core 5 of cluster 1) and no other.
    pc.reg_write(power_controller::WAKE_INT_MASK, 1u << 7);
    for (unsigned cpu = 0; cpu < 8; cpu++)
        EXPECT_EQ(pc.wakeup_enabled(cpu), cpu == 7) << cpu;
    pc.reg_write(power_controller::WAKE_INT_MASK, 1u << 2);
    EXPECT_TRUE(pc.wakeup_enabled(2));
    EXPECT_FALSE(pc.wakeup_enabled(7));

    // BX_ADDR word n is CPU n's: cluster 1's six words follow cluster 0's two, 0x68..0x84.
    for (unsigned cpu = 0; cpu < 8; cpu++)
        pc.reg_write(power_controller::BX_ADDR + 4 * cpu, 0x1000 + cpu);
    for (unsigned cpu = 0; cpu < 8; cpu++)
        EXPECT_EQ(pc.reg_read(power_controller::BX_ADDR + 4 * cpu), 0x1000 + cpu) << cpu;
    EXPECT_EQ(pc.guest_errors(), 0u);
    pc.reg_write(power_controller::BX_ADDR + 4 * 8, 1); // no ninth CPU
    EXPECT_EQ(pc.guest_errors(), 1u);
}

TEST(power_controller, four_cores_a_cluster_keep_tc2s_layout)
{
    const soc_params soc = two_clusters(4, 3);
    power_controller pc("pc", soc);
    test::unused_master m("m", pc.regs);
    EXPECT_FALSE(pc.wide_layout());
    // Core 1 of cluster 1 (cpu5): WAKE_INT_MASK bit 4 * 1 + 1, BX_ADDR at 0x68 + 16 + 4.
    pc.reg_write(power_controller::WAKE_INT_MASK, 1u << power_controller::wake_cpu(1, 1));
    EXPECT_EQ(power_controller::wake_cpu(1, 1), 5u);
    for (unsigned cpu = 0; cpu < 7; cpu++)
        EXPECT_EQ(pc.wakeup_enabled(cpu), cpu == 5) << cpu;
    pc.reg_write(power_controller::BX_ADDR + 16 + 4, 0xabc);
    EXPECT_EQ(pc.reg_read(power_controller::BX_ADDR + 16 + 4), 0xabcu);
}

} // namespace
} // namespace blsim::model
