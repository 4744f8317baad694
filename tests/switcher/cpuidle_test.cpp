// tests/switcher/cpuidle_test.cpp -- the idle-state choice and its residency accounting.
#include <gtest/gtest.h>

#include <bls/cpuidle.h>

namespace {

// TC2's A15 states: WFI (1 us, 1 us) and cluster-sleep (1700 us exit, 2000 us residency).
bls_cpuidle tc2(uint32_t limit_us = UINT32_MAX)
{
    bls_cpuidle_config c{};
    c.nstates[0] = 2;
    c.state[0][0] = {BLS_IDLE_WFI, 1, 1};
    c.state[0][1] = {BLS_IDLE_POWER_DOWN, 1700, 2000};
    c.latency_limit_us = limit_us;
    bls_cpuidle ci;
    EXPECT_EQ(bls_cpuidle_init(&ci, &c, 1), 0);
    return ci;
}

TEST(cpuidle, a_short_gap_gets_wfi_a_long_one_the_cluster_off)
{
    const bls_cpuidle ci = tc2();
    EXPECT_EQ(bls_cpuidle_select(&ci, 0, 0), 0u);
    EXPECT_EQ(bls_cpuidle_select(&ci, 0, 1999999), 0u); // 1 ns short of the residency
    EXPECT_EQ(bls_cpuidle_select(&ci, 0, 2000000), 1u);
    EXPECT_EQ(bls_cpuidle_select(&ci, 0, UINT64_MAX), 1u); // no known end: the deepest
}

TEST(cpuidle, a_latency_limit_keeps_the_deep_state_out)
{
    const bls_cpuidle ci = tc2(1000);
    EXPECT_EQ(bls_cpuidle_select(&ci, 0, UINT64_MAX), 0u);
}

TEST(cpuidle, states_must_start_with_wfi_and_deepen)
{
    bls_cpuidle_config c{};
    c.nstates[0] = 2;
    c.state[0][0] = {BLS_IDLE_POWER_DOWN, 1, 1};
    c.state[0][1] = {BLS_IDLE_WFI, 1, 1};
    bls_cpuidle ci;
    EXPECT_EQ(bls_cpuidle_init(&ci, &c, 1), -BLS_EINVAL);
    c.state[0][0] = {BLS_IDLE_WFI, 1, 100};
    c.state[0][1] = {BLS_IDLE_POWER_DOWN, 1, 50};
    EXPECT_EQ(bls_cpuidle_init(&ci, &c, 1), -BLS_EINVAL);
    c.nstates[0] = 0;
    EXPECT_EQ(bls_cpuidle_init(&ci, &c, 1), -BLS_EINVAL);
}

TEST(cpuidle, residency_and_entries_are_counted_per_cpu_and_state)
{
    bls_cpuidle ci = tc2();
    bls_cpuidle_enter(&ci, 3, 1, 1000);
    bls_cpuidle_exit(&ci, 3, 5000);
    bls_cpuidle_enter(&ci, 3, 0, 6000);
    bls_cpuidle_exit(&ci, 3, 6500);
    bls_cpuidle_exit(&ci, 3, 9000); // not idle: nothing
    EXPECT_EQ(ci.stats[3].entries[1], 1u);
    EXPECT_EQ(ci.stats[3].residency_ns[1], 4000u);
    EXPECT_EQ(ci.stats[3].entries[0], 1u);
    EXPECT_EQ(ci.stats[3].residency_ns[0], 500u);
}

} // namespace
