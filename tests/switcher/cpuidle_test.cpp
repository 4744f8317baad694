// tests/switcher/cpuidle_test.cpp -- the cpuidle core (residency, the above/below counters) and
// its governors, menu and ladder, on idle periods made by hand; every expected number is
// worked out in the comments from the algorithms of docs/os.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include <bls/cpuidle.h>

namespace {

constexpr uint64_t no_timer = UINT64_MAX;

// TC2's A15 states: WFI (1 us exit, 1 us residency) and cluster-sleep (1700 us, 2000 us).
bls_cpuidle_config tc2_config(const bls_cpuidle_governor* gov = &bls_cpuidle_menu,
                              bls_menu_version version = BLS_MENU_3_10, uint32_t limit_us = UINT32_MAX)
{
    bls_cpuidle_config c{};
    c.nstates[0] = 2;
    c.state[0][0] = {BLS_IDLE_WFI, 1, 1};
    c.state[0][1] = {BLS_IDLE_POWER_DOWN, 1700, 2000};
    c.latency_limit_us = limit_us;
    c.governor = gov;
    c.menu_version = version;
    return c;
}

// Logical CPU 0 idling on physical CPU 0 of cluster 0, time in microseconds.
struct idler {
    bls_cpuidle ci;
    uint64_t t_us = 1000;

    explicit idler(const bls_cpuidle_config& c) { EXPECT_EQ(bls_cpuidle_init(&ci, &c, 1), 0); }

    // The governor's choice with @next_timer_us to the next timer (no_timer: none).
    unsigned select(uint64_t next_timer_us, unsigned nr_iowait = 0)
    {
        return bls_cpuidle_select(&ci, 0, 0, next_timer_us == no_timer ? UINT64_MAX : next_timer_us * 1000,
                                  nr_iowait);
    }
    // State @idx entered and left @period_us later; then 10 us of running.
    void sleep(unsigned idx, uint64_t period_us)
    {
        bls_cpuidle_enter(&ci, 0, 0, 0, idx, t_us * 1000);
        t_us += period_us;
        bls_cpuidle_exit(&ci, 0, t_us * 1000);
        t_us += 10;
    }
    // Both: the state chosen.
    unsigned idle(uint64_t next_timer_us, uint64_t period_us, unsigned nr_iowait = 0)
    {
        const unsigned idx = select(next_timer_us, nr_iowait);
        sleep(idx, period_us);
        return idx;
    }
    bls_menu_device& menu() { return ci.dev[0].menu; }
};

// A past of irregular idle periods, in which menu's pattern detector finds no pattern (nor
// with the periods the tests add): the correction factors alone predict.
void irregular_past(bls_menu_device& d)
{
    const uint32_t past[BLS_MENU_INTERVALS] = {1, 2000, 40000, 100, 7000, 300, 90000, 15};
    std::copy(std::begin(past), std::end(past), d.intervals);
}

// --- the core ---------------------------------------------------------------------------

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
    bls_cpuidle_config v = tc2_config();
    v.menu_version = static_cast<bls_menu_version>(312);
    EXPECT_EQ(bls_cpuidle_init(&ci, &v, 1), -BLS_EINVAL);
    EXPECT_EQ(bls_cpuidle_governor_find("ladder"), &bls_cpuidle_ladder);
    EXPECT_EQ(bls_cpuidle_governor_find("teo"), nullptr);
}

TEST(cpuidle, residency_entries_and_the_too_deep_and_too_shallow_counts_are_per_cpu_and_state)
{
    idler i(tc2_config());
    i.sleep(0, 3000); // WFI for 3000 us: 3000 - 1 (its exit) >= 2000, cluster-sleep's residency: too shallow
    i.sleep(1, 1500); // cluster-sleep for 1500 us < its 2000 us residency: too deep
    i.sleep(1, 2500); // fits
    i.sleep(0, 1500); // 1499 < 2000: WFI was right
    const bls_cpuidle_stats& s = i.ci.stats[0];
    EXPECT_EQ(s.entries[0], 2u);
    EXPECT_EQ(s.entries[1], 2u);
    EXPECT_EQ(s.residency_ns[0], 4500000u);
    EXPECT_EQ(s.residency_ns[1], 4000000u);
    EXPECT_EQ(s.below[0], 1u);
    EXPECT_EQ(s.above[0], 0u);
    EXPECT_EQ(s.above[1], 1u);
    EXPECT_EQ(s.below[1], 0u);
    EXPECT_EQ(i.ci.dev[0].last_residency_us, 1500);
    bls_cpuidle_exit(&i.ci, 0, 1); // not idle: nothing
    EXPECT_EQ(s.entries[0], 2u);
}

// --- menu -------------------------------------------------------------------------------

TEST(menu, a_cpu_starts_as_after_a_long_idle)
{
    // The ring holds eight periods of INT32_MAX us: deviation 0, a pattern of 2147483647 us.
    // 3.10 takes it even above the next timer: cluster-sleep for a 10 us timer; 3.13 only
    // below it: 10 us x unity, WFI.
    idler i10(tc2_config());
    EXPECT_EQ(i10.select(10), 1u);
    EXPECT_EQ(i10.menu().predicted_us, 2147483647u);
    EXPECT_EQ(i10.menu().bucket, 1u);
    idler i13(tc2_config(&bls_cpuidle_menu, BLS_MENU_3_13));
    EXPECT_EQ(i13.select(10), 0u);
    EXPECT_EQ(i13.menu().predicted_us, 10u);
    // No timer at all: the largest unsigned int, bucket 5; cluster-sleep either way.
    EXPECT_EQ(i13.select(no_timer), 1u);
    EXPECT_EQ(i13.menu().expected_us, UINT32_MAX);
    EXPECT_EQ(i13.menu().bucket, 5u);
    // Linux's own start, a ring of zeros, is a pattern of 0 us: WFI whatever the timer.
    bls_menu_device zeros{};
    zeros.predicted_us = 777;
    EXPECT_EQ(bls_menu_typical_interval(&zeros, BLS_MENU_3_10), 1);
    EXPECT_EQ(zeros.predicted_us, 0u);
}

TEST(menu, the_correction_factor_learns_from_each_period_for_its_bucket)
{
    idler i(tc2_config());
    irregular_past(i.menu());
    // 10 ms to the next timer: bucket 4 (10000 <= us < 100000), its factor set to unity at
    // first use: predicted 10000 us, cluster-sleep (2000 us residency, 1700 us exit x 1).
    EXPECT_EQ(i.select(10000), 1u);
    EXPECT_EQ(i.menu().bucket, 4u);
    EXPECT_EQ(i.menu().predicted_us, 10000u);
    // Woken after 6700 us: 5000 us idle less the selected state's 1700 us exit latency.
    // factor = 8192 x 7 / 8 + 1024 x 5000 / 10000 = 7168 + 512 = 7680; the next 10 ms timer
    // predicts 10000 x 7680 / 8192 = 9375 us.
    i.sleep(1, 6700);
    EXPECT_EQ(i.select(10000), 1u);
    EXPECT_EQ(i.menu().correction_factor[4], 7680u);
    EXPECT_EQ(i.menu().predicted_us, 9375u);
    // Again 5000 us: 7680 x 7 / 8 + 512 = 7232; 10000 x 7232 / 8192 = 8828.1 -> 8828.
    i.sleep(1, 6700);
    EXPECT_EQ(i.select(10000), 1u);
    EXPECT_EQ(i.menu().correction_factor[4], 7232u);
    EXPECT_EQ(i.menu().predicted_us, 8828u);
    // A 4 ms timer, bucket 3, has learnt nothing: 4000 us.
    i.sleep(1, 6700);
    EXPECT_EQ(i.select(4000), 1u);
    EXPECT_EQ(i.menu().bucket, 3u);
    EXPECT_EQ(i.menu().predicted_us, 4000u);
    // The ring remembers the raw periods (3.10).
    EXPECT_EQ(i.menu().intervals[0], 6700u);
    EXPECT_EQ(i.menu().intervals[2], 6700u);
}

TEST(menu, a_period_long_enough_counts_as_a_perfect_prediction)
{
    idler i(tc2_config());
    irregular_past(i.menu());
    // 200 ms to the timer (bucket 5), woken after 60 ms: at least MAX_INTERESTING (50 ms),
    // so 1024 is added whatever the ratio: 8192 x 7 / 8 + 1024 = 8192, unity again.
    i.idle(200000, 60000);
    EXPECT_EQ(i.select(200000), 1u);
    EXPECT_EQ(i.menu().correction_factor[5], 8192u);
    // Woken after 20 ms of the 200: 7168 + 1024 x (20000 - 1700) / 200000 = 7168 + 93.
    i.sleep(1, 20000);
    i.select(200000);
    EXPECT_EQ(i.menu().correction_factor[5], 7261u);
}

TEST(menu, iowait_has_buckets_of_its_own_and_a_performance_multiplier)
{
    idler i(tc2_config());
    irregular_past(i.menu());
    // Without I/O wait, 10 ms predicts cluster-sleep (1700 us x 1 <= 10000).
    EXPECT_EQ(i.select(10000, 0), 1u);
    EXPECT_EQ(i.menu().bucket, 4u);
    // With a task in I/O wait: bucket 6 + 4, and the multiplier 1 + 10 x 1 = 11 asks for
    // 1700 x 11 = 18700 us predicted: WFI at 10 ms, cluster-sleep at 20 ms.
    EXPECT_EQ(i.select(10000, 1), 0u);
    EXPECT_EQ(i.menu().bucket, 10u);
    EXPECT_EQ(i.select(20000, 1), 1u);
    // Two tasks: 1 + 20 = 21, 35700 us.
    EXPECT_EQ(i.select(20000, 2), 0u);
    // The iowait bucket learns alone: 5000 us of a 10 ms timer idle in I/O wait (WFI, whose
    // 1 us exit latency is taken off: 5001 us measured).
    i.select(10000, 1);
    i.sleep(0, 5001);
    i.select(10000, 1);
    EXPECT_EQ(i.menu().correction_factor[10], 7680u);
    EXPECT_EQ(i.menu().correction_factor[4], 8192u);
}

TEST(menu, version_3_13_caps_the_latency_instead_and_never_learns_a_factor_above_unity)
{
    // The multiplier as a latency cap: predicted / 11 = 909 us < 1700: WFI, as 3.10's rule.
    idler i13(tc2_config(&bls_cpuidle_menu, BLS_MENU_3_13));
    irregular_past(i13.menu());
    EXPECT_EQ(i13.select(10000, 1), 0u);
    EXPECT_EQ(i13.select(20000, 1), 1u);

    // A 1 ms timer (bucket 3) that was not what woke the CPU: 3000 us idle, in WFI.
    idler i10(tc2_config());
    irregular_past(i10.menu());
    idler j13(tc2_config(&bls_cpuidle_menu, BLS_MENU_3_13));
    irregular_past(j13.menu());
    for (idler* x : {&i10, &j13}) {
        EXPECT_EQ(x->idle(1000, 3000), 0u);
        x->select(1000);
    }
    // 3.10: 7168 + 1024 x 2999 / 1000 = 7168 + 3070 = 10238, above unity; the ring keeps 3000.
    EXPECT_EQ(i10.menu().correction_factor[3], 10238u);
    EXPECT_EQ(i10.menu().intervals[0], 3000u);
    // 3.13: 2999 clamped to the timer's 1000: 8192 - 1024 + 1024 = 8192; the ring keeps 1000.
    EXPECT_EQ(j13.menu().correction_factor[3], 8192u);
    EXPECT_EQ(j13.menu().intervals[0], 1000u);
}

TEST(menu, the_pattern_detector_averages_regular_periods_and_drops_outliers)
{
    bls_menu_device d{};
    d.expected_us = 1000000;
    // Eight of 100 us: deviation 0 -> 100.
    std::fill(std::begin(d.intervals), std::end(d.intervals), 100u);
    EXPECT_EQ(bls_menu_typical_interval(&d, BLS_MENU_3_10), 1);
    EXPECT_EQ(d.predicted_us, 100u);
    // Six of 1000, one 1100, one 50000. All eight: average 7137, far from regular. The
    // largest dropped: average 7100 / 7 = 1014, variance (6 x 14^2 + 86^2) / 7 = 1224,
    // deviation 34; 1014 > 6 x 34 with 7 of 8 kept: 1014.
    const uint32_t outlier[] = {1000, 1000, 1000, 1100, 1000, 50000, 1000, 1000};
    std::copy(std::begin(outlier), std::end(outlier), d.intervals);
    EXPECT_EQ(bls_menu_typical_interval(&d, BLS_MENU_3_10), 1);
    EXPECT_EQ(d.predicted_us, 1014u);
    // Irregular: nothing (after dropping 90000 and 40000, six remain: it stops).
    d.predicted_us = 777;
    irregular_past(d);
    EXPECT_EQ(bls_menu_typical_interval(&d, BLS_MENU_3_10), 0);
    EXPECT_EQ(d.predicted_us, 777u);
    // 3.13 uses a pattern only below the next timer; 3.10 even above it.
    std::fill(std::begin(d.intervals), std::end(d.intervals), 100u);
    d.expected_us = 50;
    EXPECT_EQ(bls_menu_typical_interval(&d, BLS_MENU_3_13), 0);
    EXPECT_EQ(d.predicted_us, 777u);
    EXPECT_EQ(bls_menu_typical_interval(&d, BLS_MENU_3_10), 1);
    EXPECT_EQ(d.predicted_us, 100u);
}

TEST(menu, on_arm_3_10_reads_a_variance_past_32_bits_cut_to_its_low_bits)
{
    // 100..600 us and twice 151699: average 305498 / 8 = 38187, squared deviations summing
    // to 34359954702, variance 4294994337 = 2^32 + 27041. 3.10's int_sqrt takes a 32-bit
    // unsigned long: it sees 27041, deviation 164, and 38187 > 6 x 164 is "regular".
    // 3.13 rejects a variance past 32 bits: the two largest dropped, the six left (average
    // 350, deviation 170) are not regular, and six is where it stops.
    bls_menu_device d{};
    d.expected_us = 1000000;
    d.predicted_us = 777;
    const uint32_t ring[] = {100, 200, 300, 400, 500, 600, 151699, 151699};
    std::copy(std::begin(ring), std::end(ring), d.intervals);
    EXPECT_EQ(bls_menu_typical_interval(&d, BLS_MENU_3_13), 0);
    EXPECT_EQ(d.predicted_us, 777u);
    EXPECT_EQ(bls_menu_typical_interval(&d, BLS_MENU_3_10), 1);
    EXPECT_EQ(d.predicted_us, 38187u);
}

TEST(menu, a_latency_limit_keeps_the_deep_state_out_and_zero_means_wfi)
{
    idler i(tc2_config(&bls_cpuidle_menu, BLS_MENU_3_10, 1000));
    irregular_past(i.menu());
    EXPECT_EQ(i.select(no_timer), 0u);
    i.ci.cfg.latency_limit_us = 0;
    EXPECT_EQ(i.select(no_timer), 0u);
    i.ci.cfg.latency_limit_us = 1700;
    EXPECT_EQ(i.select(no_timer), 1u);
}

// --- ladder -----------------------------------------------------------------------------

TEST(ladder, promotes_after_four_long_periods_and_demotes_after_one_short)
{
    idler i(tc2_config(&bls_cpuidle_ladder));
    // It starts on the deepest state, cluster-sleep (exit latency 1700 us, both thresholds).
    // The first select has no period yet: 0 - 1700 = -1700, which ladder compares as the u32
    // thresholds are: 4294965596, not below 1700: no demotion.
    EXPECT_EQ(i.idle(no_timer, 3000), 1u);
    // 3000 - 1700 = 1300 < 1700: one vote demotes (DEMOTION_COUNT 1).
    EXPECT_EQ(i.idle(no_timer, 2), 0u);
    // At WFI a vote needs a period, less WFI's 1 us exit latency, above that 1 us: 2 - 1 = 1
    // is not; each 100 us is.
    EXPECT_EQ(i.idle(no_timer, 100), 0u); // no vote
    EXPECT_EQ(i.idle(no_timer, 100), 0u); // vote 1
    EXPECT_EQ(i.idle(no_timer, 100), 0u); // vote 2
    EXPECT_EQ(i.idle(no_timer, 100), 0u); // vote 3
    EXPECT_EQ(i.idle(no_timer, 5000), 1u); // vote 4 (PROMOTION_COUNT): cluster-sleep
    // 5000 - 1700 = 3300 is not below 1700: stays.
    EXPECT_EQ(i.idle(no_timer, 1000), 1u);
    // 1000 - 1700 wraps likewise, to a huge value: never a demotion vote. Stays.
    EXPECT_EQ(i.idle(no_timer, 3000), 1u);
    // 1300 < 1700: down.
    EXPECT_EQ(i.select(no_timer), 0u);
    EXPECT_EQ(i.ci.dev[0].ladder.last_state_idx, 0u);
}

TEST(ladder, a_latency_limit_forces_a_demotion_and_a_kept_wfi_leaves_the_ladder_where_it_was)
{
    idler i(tc2_config(&bls_cpuidle_ladder));
    ASSERT_EQ(i.idle(no_timer, 5000), 1u);
    // The kernel kept the CPU in WFI (a switch in flight): reflect of state 0 changes
    // nothing, and the next select judges its 5000 us against cluster-sleep's thresholds
    // (3300 is not below 1700).
    i.sleep(0, 5000);
    EXPECT_EQ(i.select(no_timer), 1u);
    i.sleep(1, 5000);
    // A PM QoS request of 1000 us: cluster-sleep's 1700 is over it: down at once.
    i.ci.cfg.latency_limit_us = 1000;
    EXPECT_EQ(i.select(no_timer), 0u);
}

} // namespace
