// tests/model/power_controller_test.cpp -- last core off powers the cluster off; a wake-up
// powers the cluster up before the core; a second core waking meanwhile waits for it.
//
// One SystemC elaboration per process: this executable holds a single TEST.
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
        pc.request_power_up(cpu);
        pc.core_exit(cpu);
        resumed_us = now_us();
    }
};

TEST(power_controller, cluster_follows_its_last_and_first_core)
{
    soc_params soc = test::small_soc(2); // core off 10/20 us, cluster off 100/200 us
    power_controller pc("pc", soc);
    pc.set_cluster_power_down(0, true); // as MCPM's last man does before going down
    std::vector<std::string> log;
    pc.core_changed.subscribe([&](unsigned cpu, core_power, core_power s) {
        log.push_back(std::to_string(static_cast<int>(now_us())) + " cpu" + std::to_string(cpu) +
                      " " + to_string(s));
    });
    pc.cluster_changed.subscribe([&](unsigned, cluster_power, cluster_power s) {
        log.push_back(std::to_string(static_cast<int>(now_us())) + " cluster " + to_string(s));
    });
    // cpu0 goes down at 0 us, cpu1 at 50 us (the last man); cpu0 wakes at 500 us, cpu1 at
    // 550 us while the cluster is still coming up.
    cpu_thread a("a", pc, 0, 0, 500);
    cpu_thread b("b", pc, 1, 50, 550);
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));

    const std::vector<std::string> expected = {
        "10 cpu0 off",
        "60 cpu1 off",
        "60 cluster powering_down", // last man: 100 us of cluster entry
        "160 cluster off",
        "500 cluster powering_up",  // the first man powers the cluster up (200 us)
        "700 cluster on",
        "700 cpu0 on",
        "700 cpu1 on",       // cpu1 woke at 550 and waited for the cluster
    };
    EXPECT_EQ(log, expected);
    EXPECT_DOUBLE_EQ(a.resumed_us, 720);
    EXPECT_DOUBLE_EQ(b.resumed_us, 720);
    EXPECT_EQ(pc.transitions(), 8u);
}

} // namespace
} // namespace blsim::model
