// tests/platform/switch_probe_test.cpp -- the switch probe's bound of 'switch-completes'.
#include <gtest/gtest.h>

#include "blsim/soc/switch_probe.h"

namespace {

// The bound of 'switch-completes' follows the configured latencies (issue 24, class 8): a
// scenario with large but valid latencies has switches slower than the fixed 100 ms once was.
// Worked by hand: per attempt the slowest cluster's power-down and power-up, its core's, its
// WFI entry and exit and every DVFS step; BLS_SWITCH_KICKS + 1 = 4 attempts; the jitter's largest
// percentage on all of it, four SGIs' delays; a failed power-up's timeout per attempt.
TEST(switch_hang_bound, is_derived_from_the_configured_latencies)
{
    namespace model = blsim::model;
    model::soc_params soc;
    soc.clusters.resize(2);
    model::cluster_params& a = soc.clusters[0];
    a.power.cluster_off_entry_us = 10;
    a.power.cluster_off_exit_us = 20;
    a.power.core_off_entry_us = 5;
    a.power.core_off_exit_us = 15;
    a.power.core_wfi_exit_us = 1;
    a.opps.resize(3);
    a.dvfs.voltage_latency_us = 100;
    a.dvfs.freq_latency_us = 50; // 51 + 3 x 150 = 501 us
    model::cluster_params& b = soc.clusters[1];
    b.opps.resize(5);
    b.dvfs.voltage_latency_us = 200; // 5 x 200 = 1000 us: the slower
    model::jitter_params jitter;      // off
    model::fault_params faults;       // none
    EXPECT_EQ(blsim::soc::switch_hang_bound_ps(soc, jitter, faults), 4'000'000'000ull); // 4 x 1000 us
    jitter.enabled = true;
    jitter.power_transition_pct = 50; // the largest; the others 20
    jitter.sgi_delivery_ns = 1000;
    EXPECT_EQ(blsim::soc::switch_hang_bound_ps(soc, jitter, faults), 6'004'000'000ull); // x 1.5, + 4 us
    faults.power_up_fail.probability_pct = 1;
    faults.power_up_fail.timeout_us = 1e6; // the key's maximum
    EXPECT_EQ(blsim::soc::switch_hang_bound_ps(soc, jitter, faults), 6'006'004'000'000ull);
}

// The switch's configured work counts once, whatever the attempts (found by a scan of the keys'
// ranges: switcher.restore_uncached_words = 1000000 makes a restore of about 101 ms, and
// two such switches at the end of a run stopped it with 'switch-completes'). Worked by hand:
// 1000 cycles at the slowest OPP, 500 MHz, are 2 us; 100 words at (40 cycles of latency + 4
// bytes at 8 a cycle) at 400 MHz are 100 x 40.5 / 400 = 10.125 us; 12.125 us in all, and x 1.5
// under the jitter's largest percentage (with four SGIs' 1 us each).
TEST(switch_hang_bound, adds_the_switchs_configured_work)
{
    namespace model = blsim::model;
    model::soc_params soc;
    soc.clusters.resize(2);
    soc.clusters[0].power.cluster_off_exit_us = 1000;
    soc.clusters[0].power.core_wfi_entry_us = 500; // (a CPU of the handshake may be entering WFI)
    soc.clusters[0].opps = {{500, 900, 0, 0}, {1000, 1000, 0, 0}};
    soc.clusters[1].opps = {{600, 900, 0, 0}};
    soc.dram.clock_mhz = 400;
    soc.dram.latency_cycles = 40;
    soc.dram.bytes_per_cycle = 8;
    model::jitter_params jitter; // off
    model::fault_params faults;  // none
    blsim::soc::switch_software sw;
    EXPECT_EQ(blsim::soc::switch_hang_bound_ps(soc, jitter, faults, sw), 6'000'000'000ull); // 4 x 1500 us
    sw.cycles = 1000;
    sw.uncached_words = 100;
    EXPECT_EQ(blsim::soc::switch_hang_bound_ps(soc, jitter, faults, sw), 6'012'125'000ull);
    jitter.enabled = true;
    jitter.memory_access_pct = 50; // the largest; the others 20
    EXPECT_EQ(blsim::soc::switch_hang_bound_ps(soc, jitter, faults, sw), 9'022'187'500ull); // 9000 + 4 + 18.1875 us
}

} // namespace
