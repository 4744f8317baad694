// tests/switcher/eas_test.cpp -- energy-aware wake-up placement (src/sched/eas.c) in a
// hand-worked two-CPU case: CPU 0 alone in a big cluster (capacity 1024), CPU 1 alone in a
// little one (512), each with two OPPs of a made-up energy model:
//
//   cluster  cap      core power  cluster power  cluster idle
//   big      512 1024   200  600     300  900         10
//   little   256  512    40  120      30   80          5
//
// A task that ran 16 periods from rest on CPU 0 (at the reference capacity) has util
// 1024 * (1 - 2^-0.5) = 299.92. With schedutil's 1.25 headroom it needs 374.9 of capacity:
//   on CPU 0: big OPP 0 (512), busy u = 299.92/512 = 0.58578 of the time:
//             0.58578 * (200 + 300) + 0.41422 * 10 = 297.03, plus the idle little 5: 302.03
//   on CPU 1: little OPP 1 (512), the same share: 0.58578 * (120 + 80) + 0.41422 * 5 = 119.23,
//             plus the idle big 10: 129.23
// so it wakes on the little CPU. A task of util 440 (550 with headroom) does not fit the
// little CPU and stays big.
#include <gtest/gtest.h>

#include <cmath>

#include <bls/sched.h>

namespace {

constexpr uint64_t ms = 1000000;
constexpr uint64_t period = 1024000;

bls_sched make()
{
    bls_sched s;
    bls_sched_config c{};
    c.ncpus = 2;
    c.latency_ns = 6 * ms;
    c.min_granularity_ns = 750000;
    c.wakeup_granularity_ns = 1 * ms;
    c.balance_interval_ns = 4 * ms;
    c.placement = BLS_PLACE_EAS;
    c.nclusters = 2;
    c.cpu_cluster[0] = 0;
    c.cpu_cluster[1] = 1;
    c.cluster_capacity[0] = 1024;
    c.cluster_capacity[1] = 512;
    bls_energy_model& em = c.em;
    em.nopps[0] = em.nopps[1] = 2;
    em.cap[0][0] = 512, em.cap[0][1] = 1024;
    em.core_power[0][0] = 200, em.core_power[0][1] = 600;
    em.cluster_power[0][0] = 300, em.cluster_power[0][1] = 900;
    em.cluster_idle_power[0] = 10;
    em.cap[1][0] = 256, em.cap[1][1] = 512;
    em.core_power[1][0] = 40, em.core_power[1][1] = 120;
    em.cluster_power[1][0] = 30, em.cluster_power[1][1] = 80;
    em.cluster_idle_power[1] = 5;
    EXPECT_EQ(bls_sched_init(&s, &c, 3, 0), 0);
    return s;
}

TEST(eas, the_estimate_is_the_hand_worked_one)
{
    bls_sched s = make();
    const double u = 1024.0 * (1.0 - std::pow(0.5, 0.5));
    const double share = u / 512.0;
    const double on_big[2] = {u, 0};
    const double on_little[2] = {0, u};
    EXPECT_NEAR(bls_sched_energy(&s, on_big), share * 500 + (1 - share) * 10 + 5, 1e-9);
    EXPECT_NEAR(bls_sched_energy(&s, on_big), 302.03, 0.01);
    EXPECT_NEAR(bls_sched_energy(&s, on_little), share * 200 + (1 - share) * 5 + 10, 1e-9);
    EXPECT_NEAR(bls_sched_energy(&s, on_little), 129.23, 0.01);
    const double idle[2] = {0, 0};
    EXPECT_DOUBLE_EQ(bls_sched_energy(&s, idle), 15.0);
}

// A task that ran @n periods on CPU 0 from 0, slept, and wakes then: where?
int wake_after_running(double n)
{
    bls_sched s = make();
    const bls_sched_task_config tc = {0, 0, BLS_SCHED_NORMAL, 0, 0, 0, 0, 0};
    EXPECT_EQ(bls_sched_add_task(&s, &tc, 0), 0);
    EXPECT_EQ(bls_sched_wake(&s, 0, 0, 0), 0); // new: CFS places it, on its first idle CPU
    EXPECT_EQ(bls_sched_pick(&s, 0, 0), 0);
    const uint64_t t = static_cast<uint64_t>(n * period);
    bls_sched_sleep(&s, 0, t, t);
    EXPECT_NEAR(s.task[0].pelt.util_avg, 1024.0 * (1.0 - std::pow(0.5, n / 32.0)), 1e-6);
    bls_sched_expire(&s, 0, t);
    return static_cast<int>(s.task[0].cpu);
}

TEST(eas, a_task_wakes_on_the_cheaper_cpu_that_fits_it)
{
    EXPECT_EQ(wake_after_running(16), 1); // util 299.9: the little CPU costs 129 against 302
    // util 1024 * (1 - 2^(-26/32)) = 440.0: 550 with headroom, more than the little's 512
    EXPECT_EQ(wake_after_running(26), 0);
}

TEST(eas, balancing_waits_while_no_cpu_is_overutilised)
{
    bls_sched s = make();
    const bls_sched_task_config tc = {0, 0, BLS_SCHED_NORMAL, 0, 0, 0, 0, 0};
    ASSERT_EQ(bls_sched_add_task(&s, &tc, 0), 0);
    ASSERT_EQ(bls_sched_add_task(&s, &tc, 0), 1);
    // New tasks are spread as CFS does: one per CPU. Each runs one period (util
    // 1024 * (1 - y) = 21.9) and wakes again at once.
    EXPECT_EQ(bls_sched_wake(&s, 0, 0, 0), 0);
    EXPECT_EQ(bls_sched_wake(&s, 1, 0, 0), 1);
    EXPECT_EQ(bls_sched_pick(&s, 0, 0), 0);
    EXPECT_EQ(bls_sched_pick(&s, 1, 0), 1);
    bls_sched_sleep(&s, 0, period, period);
    bls_sched_sleep(&s, 1, period, period);
    // Task 0 wakes: on the big CPU the system would cost 30.9 + 10.6 = 41.5, beside task 1
    // on the little one 10 + 16.1 = 26.1 (both little utilisations at its lowest OPP). Task
    // 1 then stays there too.
    bls_sched_expire(&s, 0, period);
    EXPECT_EQ(s.task[0].cpu, 1u);
    bls_sched_expire(&s, 1, period);
    EXPECT_EQ(s.task[1].cpu, 1u);
    EXPECT_EQ(s.stats.eas_wakeups, 2u);
    // The idle big CPU does not pull one of them: no CPU is short of headroom.
    EXPECT_EQ(bls_sched_balance(&s, 0, period + 1 * ms), 0u);
    EXPECT_EQ(s.rq[1].nr_running, 2u);
}

} // namespace
