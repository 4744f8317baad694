// tests/switcher/pelt_test.cpp -- per-entity load tracking against sums worked by hand.
//
// y = 0.5^(1/32) per 1024 us period. A signal true from rest, starting at a period boundary,
// averages 1024 * (1 - y^n) after n whole periods (the divider max - 1024 + 0 and the sum
// 1024 * (y + ... + y^n) give exactly that); a signal always true averages 1024 at any point
// of a period; n periods of rest multiply the average by y^n.
#include <gtest/gtest.h>

#include <cmath>

#include <bls/pelt.h>

namespace {

constexpr uint64_t period_ns = 1024000;
const double y = std::pow(0.5, 1.0 / 32);

TEST(pelt, ramps_to_half_in_32_periods_and_three_quarters_in_64)
{
    bls_pelt p;
    bls_pelt_init(&p, 0);
    bls_pelt_update(&p, 32 * period_ns, 1, 1, 1.0);
    EXPECT_NEAR(p.util_avg, 512, 1e-9);
    EXPECT_NEAR(p.runnable_avg, 512, 1e-9);
    bls_pelt_update(&p, 64 * period_ns, 1, 1, 1.0);
    EXPECT_NEAR(p.util_avg, 768, 1e-9);
}

TEST(pelt, updates_in_pieces_add_up_to_one_update)
{
    bls_pelt a, b;
    bls_pelt_init(&a, 0);
    bls_pelt_init(&b, 0);
    bls_pelt_update(&a, 10 * period_ns + 300000, 1, 1, 1.0);
    for (uint64_t t = 7777; t <= 10 * period_ns + 300000; t += 7777)
        bls_pelt_update(&b, t, 1, 1, 1.0);
    bls_pelt_update(&b, 10 * period_ns + 300000, 1, 1, 1.0);
    EXPECT_NEAR(a.util_avg, b.util_avg, 1e-9);
}

TEST(pelt, a_partial_first_period_counts_its_time_over_the_divider)
{
    // 512 us in the first period: sum 512, divider 1024 / (1 - y) - 1024 + 512.
    bls_pelt p;
    bls_pelt_init(&p, 0);
    bls_pelt_update(&p, 512000, 1, 1, 1.0);
    const double expected = 1024.0 * 512 / (1024 / (1 - y) - 512); // 11.09
    EXPECT_NEAR(p.util_avg, expected, 1e-9);
    EXPECT_NEAR(p.util_avg, 11.09, 0.01);
}

TEST(pelt, saturates_at_1024_anywhere_in_a_period_and_halves_in_32_idle_periods)
{
    bls_pelt p;
    bls_pelt_init(&p, 0);
    bls_pelt_update(&p, 2048 * period_ns, 1, 1, 1.0); // y^2048 = 2^-64: saturated
    EXPECT_NEAR(p.util_avg, 1024, 1e-9);
    bls_pelt_update(&p, 2048 * period_ns + 333333, 1, 1, 1.0);
    EXPECT_NEAR(p.util_avg, 1024, 1e-9);
    bls_pelt_update(&p, 2048 * period_ns + 1024000, 1, 1, 1.0);
    // Then 32 periods asleep (at a period boundary again): half.
    bls_pelt_update(&p, 2081 * period_ns, 0, 0, 1.0);
    EXPECT_NEAR(p.util_avg, 512, 1e-9);
    EXPECT_NEAR(p.runnable_avg, 512, 1e-9);
    EXPECT_NEAR(bls_pelt_decay(32), 0.5, 1e-15);
}

// The decay takes whole periods from a table of y^0..y^31 and halves by whole half-lives:
// pow()'s own result to the bit, for every whole number of periods the table serves, so the
// load averages (and every output that follows from them) are those pow() gave.
TEST(pelt, decay_by_whole_periods_is_pow_to_the_bit)
{
    EXPECT_EQ(bls_pelt_decay(0), 1.0);
    EXPECT_EQ(bls_pelt_decay(32), 0.5);
    EXPECT_EQ(bls_pelt_decay(64), 0.25);
    EXPECT_EQ(bls_pelt_decay(1), y);
    for (int n = 0; n < 32 * 1000; n++)
        ASSERT_EQ(bls_pelt_decay(n), std::pow(0.5, n / 32.0)) << n << " periods";
    // Beyond the table, and between whole periods: pow() itself.
    for (double n : {32000.0, 40000.5, 0.5, 31.25, 1e9})
        EXPECT_EQ(bls_pelt_decay(n), std::pow(0.5, n / 32.0)) << n << " periods";
}

TEST(pelt, utilisation_is_scaled_by_capacity_and_runnable_is_not)
{
    // Always running at half the reference capacity: util 512, runnable 1024. Waiting (runnable,
    // not running): util decays, runnable stays.
    bls_pelt p;
    bls_pelt_init(&p, 0);
    bls_pelt_update(&p, 2048 * period_ns, 1, 1, 0.5);
    EXPECT_NEAR(p.util_avg, 512, 1e-9);
    EXPECT_NEAR(p.runnable_avg, 1024, 1e-9);
    bls_pelt_update(&p, 2080 * period_ns, 1, 0, 0.5);
    EXPECT_NEAR(p.util_avg, 256, 1e-9);
    EXPECT_NEAR(p.runnable_avg, 1024, 1e-9);
}

TEST(pelt, time_going_backwards_changes_nothing)
{
    bls_pelt p;
    bls_pelt_init(&p, 5 * period_ns);
    bls_pelt_update(&p, 4 * period_ns, 1, 1, 1.0);
    EXPECT_EQ(p.util_avg, 0);
    EXPECT_EQ(p.last_ns, 5 * period_ns);
}

} // namespace
