// tests/model/dvfs_test.cpp -- DVFS transition ordering and latencies.
//
// One SystemC elaboration per process: this executable holds a single TEST.
#include <gtest/gtest.h>

#include <string>
#include <systemc>
#include <vector>

#include "blsim/model/dvfs_controller.h"
#include "test_soc.h"

namespace blsim::model {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

struct change {
    double t_us;
    std::string what;
    int value;
};

struct stimulus : sc_core::sc_module {
    dvfs_controller& dvfs;
    explicit stimulus(sc_core::sc_module_name n, dvfs_controller& d) : sc_module(n), dvfs(d)
    {
        SC_HAS_PROCESS(stimulus);
        SC_THREAD(run);
    }
    void run()
    {
        dvfs.request(1); // up: voltage first
        wait(sc_time(100, SC_US));
        dvfs.request(0); // down: frequency first
        wait(sc_time(100, SC_US));
        dvfs.request(1); // up, then a new request during the transition...
        wait(sc_time(5, SC_US));
        dvfs.request(0); // ...is applied once the first one has finished
    }
};

TEST(dvfs_controller, voltage_leads_going_up_and_trails_going_down)
{
    soc_params soc = test::small_soc();
    const cluster_params& c = soc.clusters[0]; // voltage 10 us, frequency 30 us
    clock_domain clock("clk", 500);
    voltage_domain voltage("vdd", 900);
    dvfs_controller dvfs("dvfs", c.opps, c.dvfs, clock, voltage, 0);
    stimulus stim("stim", dvfs);

    std::vector<change> log;
    auto now_us = [] { return sc_core::sc_time_stamp().to_seconds() * 1e6; };
    clock.changed.subscribe([&](int, int f) { log.push_back({now_us(), "f", f}); });
    voltage.changed.subscribe([&](int, int v) { log.push_back({now_us(), "v", v}); });

    sc_core::sc_start(sc_time(1, sc_core::SC_MS));

    const std::vector<change> expected = {
        {10, "v", 1000}, {40, "f", 1000},  // up
        {130, "f", 500}, {140, "v", 900},  // down
        {210, "v", 1000}, {240, "f", 1000}, // up, completed although superseded at 205 us
        {270, "f", 500}, {280, "v", 900},  // then the latest request
    };
    ASSERT_EQ(log.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); i++) {
        EXPECT_NEAR(log[i].t_us, expected[i].t_us, 1e-9) << i;
        EXPECT_EQ(log[i].what, expected[i].what) << i;
        EXPECT_EQ(log[i].value, expected[i].value) << i;
    }
    EXPECT_EQ(dvfs.current_index(), 0);
    EXPECT_EQ(dvfs.transitions(), 4u);
    EXPECT_EQ(dvfs.index_of(1000), 1);
    EXPECT_EQ(dvfs.index_of(750), -1);
}

} // namespace
} // namespace blsim::model
