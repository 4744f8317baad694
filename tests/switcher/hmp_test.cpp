// tests/switcher/hmp_test.cpp -- Linaro's big.LITTLE MP placement (src/sched/hmp.c) on a
// fake two-cluster system: CPUs 0-1 big (capacity 1024), 2-3 little (430). Time is whatever
// the test says; loads are worked out by hand from load tracking's series.
//
// A task runnable since rest has HMP load 1024 * (1 - y^n) after n whole periods of
// 1.024 ms (y^32 = 1/2): 699.13 after 53, 706.10 after 54, so that it passes
// up_threshold 700 between them. Asleep d periods from a period boundary, a load L decays
// to L * y^d exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <bls/sched.h>

namespace {

constexpr uint64_t ms = 1000000;
constexpr uint64_t period = 1024000; // ns

double series(double n) { return 1024.0 * (1.0 - std::pow(0.5, n / 32.0)); }

struct hmp_fixture {
    bls_sched s;
    std::vector<unsigned> xmigrated; // tasks reported running on another cluster
    std::vector<unsigned> latency_ns;

    explicit hmp_fixture(bls_hmp_config h)
    {
        bls_sched_config c{};
        c.ncpus = 4;
        c.latency_ns = 6 * ms;
        c.min_granularity_ns = 750000;
        c.wakeup_granularity_ns = 1 * ms;
        c.balance_interval_ns = 4 * ms;
        c.placement = BLS_PLACE_HMP;
        c.nclusters = 2;
        c.cpu_cluster[0] = c.cpu_cluster[1] = 0;
        c.cpu_cluster[2] = c.cpu_cluster[3] = 1;
        c.cluster_capacity[0] = 1024;
        c.cluster_capacity[1] = 430;
        c.hmp = h;
        EXPECT_EQ(bls_sched_init(&s, &c, 0xf, 0), 0);
    }
    int add(int nice = 0)
    {
        const bls_sched_task_config tc = {0, nice, BLS_SCHED_NORMAL, 0, 0, 0, 0, 0};
        return bls_sched_add_task(&s, &tc, 0);
    }
    void drain()
    {
        bls_sched_take_events(&s, [](void* ctx, unsigned kind, unsigned a, unsigned b) {
            auto* f = static_cast<hmp_fixture*>(ctx);
            if (kind == BLS_SCHED_EV_XMIGRATED) {
                f->xmigrated.push_back(a);
                f->latency_ns.push_back(b);
            }
        }, this);
    }
};

bls_hmp_config defaults()
{
    bls_hmp_config h;
    bls_hmp_default_config(&h);
    return h;
}

// A task started on a little CPU (fork to big off), running alone from 0.
hmp_fixture little_runner(bls_hmp_config h)
{
    h.fork_to_big = 0;
    hmp_fixture f(h);
    EXPECT_EQ(f.add(), 0);
    EXPECT_EQ(bls_sched_wake(&f.s, 0, 0, 0), 2); // the first idle little CPU
    EXPECT_EQ(bls_sched_pick(&f.s, 2, 0), 0);
    return f;
}

TEST(hmp, defaults_are_linaros)
{
    const bls_hmp_config h = defaults();
    EXPECT_EQ(h.up_threshold, 700u);
    EXPECT_EQ(h.down_threshold, 512u);
    EXPECT_EQ(h.load_avg_period_ms, 32u);
    EXPECT_TRUE(h.frequency_invariant);
    EXPECT_EQ(h.up_interval_ns, 4194304u); // 4096 << 10
    EXPECT_EQ(h.packing_limit, 650u);
    EXPECT_EQ(h.prio_filter_nice, 5);
    EXPECT_FALSE(h.packing);
    EXPECT_FALSE(h.prio_filter);
}

TEST(hmp, forced_up_migration_happens_exactly_past_up_threshold)
{
    // At 53 periods the load is 699.13: the tick leaves the task on the little CPU.
    {
        hmp_fixture f = little_runner(defaults());
        EXPECT_NEAR(bls_sched_hmp_load(&f.s, 0, 53 * period), series(53), 1e-6);
        EXPECT_LT(series(53), 700.0);
        EXPECT_EQ(bls_sched_balance(&f.s, 2, 53 * period), 0u);
        EXPECT_EQ(f.s.task[0].cpu, 2u);
        EXPECT_EQ(f.s.rq[2].curr, 0);
    }
    // At 54 periods it is 706.10: the tick moves it to the idle big CPU 0 and kicks both.
    hmp_fixture f = little_runner(defaults());
    const uint64_t t = 54 * period;
    EXPECT_NEAR(bls_sched_hmp_load(&f.s, 0, t), series(54), 1e-6);
    EXPECT_EQ(bls_sched_balance(&f.s, 2, t), (1u << 0) | (1u << 2));
    EXPECT_EQ(f.s.task[0].cpu, 0u);
    EXPECT_EQ(f.s.rq[2].curr, -1);
    EXPECT_EQ(f.s.rq[2].nr_running, 0u);
    EXPECT_EQ(f.s.stats.hmp_forced, 1u);
    EXPECT_EQ(f.s.stats.up_migrations, 1u);
    EXPECT_EQ(bls_sched_pick(&f.s, 2, t), -1);
    // It runs on the big CPU 30 us later: the migration's latency.
    EXPECT_EQ(bls_sched_pick(&f.s, 0, t + 30000), 0);
    f.drain();
    ASSERT_EQ(f.xmigrated, std::vector<unsigned>{0});
    EXPECT_EQ(f.latency_ns, std::vector<unsigned>{30000});
}

TEST(hmp, a_task_on_a_slow_cpu_looks_lighter_when_the_load_is_frequency_invariant)
{
    // The little CPU at half its cluster's top speed (scale 215/1024 of the reference, its
    // top being 430/1024): after 54 periods the frequency-invariant load is half the
    // plain one, 353.05, and the task stays; counted in full (LSK without
    // HMP_FREQUENCY_INVARIANT_SCALE), it is 706.10 and goes up.
    for (int invariant : {1, 0}) {
        bls_hmp_config h = defaults();
        h.frequency_invariant = invariant;
        hmp_fixture f = little_runner(h);
        bls_sched_set_scale(&f.s, 2, 0, 215.0 / 1024.0);
        const uint64_t t = 54 * period;
        EXPECT_NEAR(bls_sched_hmp_load(&f.s, 0, t), invariant ? series(54) / 2 : series(54), 1e-6);
        bls_sched_balance(&f.s, 2, t);
        EXPECT_EQ(f.s.task[0].cpu, invariant ? 2u : 0u) << "invariant " << invariant;
    }
}

// The task of little_runner, moved up at 54 periods, sleeps there at once for @d periods,
// wakes and sleeps again at once (so that its load at that sleep is L * y^d), and wakes:
// where does it go?
unsigned wake_after_sleeping(bls_hmp_config h, unsigned d)
{
    hmp_fixture f = little_runner(h);
    uint64_t t = 54 * period;
    EXPECT_NE(bls_sched_balance(&f.s, 2, t), 0u);
    EXPECT_EQ(bls_sched_pick(&f.s, 0, t), 0);
    bls_sched_sleep(&f.s, 0, t, t + d * period);
    t += d * period;
    EXPECT_NE(bls_sched_expire(&f.s, 0, t), 0u);
    EXPECT_EQ(f.s.task[0].cpu, 0u); // frozen at 706.10: stays big
    EXPECT_EQ(bls_sched_pick(&f.s, 0, t), 0);
    bls_sched_sleep(&f.s, 0, t, t);
    EXPECT_NEAR(f.s.task[0].hmp_frozen, series(54) * std::pow(0.5, d / 32.0), 1e-6);
    bls_sched_expire(&f.s, 0, t);
    return f.s.task[0].cpu;
}

TEST(hmp, wake_migration_goes_down_exactly_below_down_threshold)
{
    // 706.10 * y^14 = 521.43 stays up; 706.10 * y^15 = 509.98 goes down, to the first idle
    // little CPU.
    EXPECT_GT(series(54) * std::pow(0.5, 14 / 32.0), 512.0);
    EXPECT_LT(series(54) * std::pow(0.5, 15 / 32.0), 512.0);
    EXPECT_EQ(wake_after_sleeping(defaults(), 14), 0u);
    EXPECT_EQ(wake_after_sleeping(defaults(), 15), 2u);
}

TEST(hmp, a_task_does_not_change_cluster_again_within_the_interval)
{
    // With down_threshold 690: after 2 periods asleep the load is 676.2, below it, but
    // only 2.048 ms after the move up (< 4.194): the task stays. After 5 periods (633.6,
    // 5.12 ms) it goes down.
    bls_hmp_config h = defaults();
    h.down_threshold = 690;
    EXPECT_LT(series(54) * std::pow(0.5, 2 / 32.0), 690.0);
    EXPECT_EQ(wake_after_sleeping(h, 2), 0u);
    EXPECT_EQ(wake_after_sleeping(h, 5), 2u);
    // With no interval at all, the 2-period case goes down too.
    h.down_interval_ns = 0;
    EXPECT_EQ(wake_after_sleeping(h, 2), 2u);
}

TEST(hmp, an_idle_big_cpu_pulls_the_running_little_task_through_its_cpu)
{
    bls_hmp_config h = defaults();
    h.forced_up = 0; // only the pull
    hmp_fixture f = little_runner(h);
    const uint64_t t = 54 * period;
    // Big CPU 0, idle, asks CPU 2 (where the task runs) to hand it over: CPU 2 is kicked.
    EXPECT_EQ(bls_sched_balance(&f.s, 0, t), 1u << 2);
    EXPECT_EQ(f.s.rq[2].pull_to, 0);
    EXPECT_EQ(f.s.task[0].cpu, 2u); // still running there
    // Big CPU 1 does not ask for it again.
    EXPECT_EQ(bls_sched_balance(&f.s, 1, t), 0u);
    // At CPU 2's scheduling point the task moves; CPU 0 is kicked to run it.
    EXPECT_EQ(bls_sched_balance(&f.s, 2, t + 5000) & 1u, 1u);
    EXPECT_EQ(f.s.task[0].cpu, 0u);
    EXPECT_EQ(f.s.rq[2].pull_to, -1);
    EXPECT_EQ(f.s.stats.hmp_idle_pull, 1u);
    EXPECT_EQ(bls_sched_pick(&f.s, 0, t + 12000), 0);
    f.drain();
    EXPECT_EQ(f.latency_ns, std::vector<unsigned>{7000});
    // Below the threshold nothing is pulled.
    hmp_fixture g = little_runner(h);
    EXPECT_EQ(bls_sched_balance(&g.s, 0, 53 * period), 0u);
}

TEST(hmp, the_priority_filter_keeps_low_priority_tasks_little)
{
    bls_hmp_config h = defaults();
    h.prio_filter = 1;
    h.fork_to_big = 0;
    for (int nice : {4, 5}) {
        hmp_fixture f(h);
        ASSERT_EQ(f.add(nice), 0);
        EXPECT_EQ(bls_sched_wake(&f.s, 0, 0, 0), 2);
        EXPECT_EQ(bls_sched_pick(&f.s, 2, 0), 0);
        const uint64_t t = 64 * period; // load 768
        bls_sched_balance(&f.s, 2, t);
        bls_sched_balance(&f.s, 0, t);
        bls_sched_balance(&f.s, 2, t);
        EXPECT_EQ(f.s.task[0].cpu, nice < 5 ? 0u : 2u) << "nice " << nice;
    }
    // Fork to big does not apply to them either.
    h.fork_to_big = 1;
    hmp_fixture f(h);
    ASSERT_EQ(f.add(5), 0);
    ASSERT_EQ(f.add(0), 1);
    EXPECT_EQ(bls_sched_wake(&f.s, 0, 0, 0), 2);
    EXPECT_EQ(bls_sched_wake(&f.s, 1, 0, 0), 0);
    EXPECT_EQ(f.s.stats.hmp_fork, 1u);
}

TEST(hmp, new_tasks_start_big_looking_heavy)
{
    hmp_fixture f(defaults());
    ASSERT_EQ(f.add(), 0);
    ASSERT_EQ(f.add(), 1);
    ASSERT_EQ(f.add(), 2);
    EXPECT_EQ(bls_sched_wake(&f.s, 0, 0, 0), 0);
    EXPECT_EQ(bls_sched_wake(&f.s, 1, 0, 0), 1);
    EXPECT_EQ(bls_sched_wake(&f.s, 2, 0, 0), 0); // both big CPUs busy: the least loaded
    EXPECT_DOUBLE_EQ(bls_sched_hmp_load(&f.s, 2, 0), 1024.0);
    // The big CPU with two tasks offloads the waiting one to an idle little CPU at its tick.
    EXPECT_EQ(bls_sched_pick(&f.s, 0, 0), 0);
    EXPECT_EQ(bls_sched_balance(&f.s, 0, 4 * ms), 1u << 2);
    EXPECT_EQ(f.s.task[2].cpu, 2u);
    EXPECT_EQ(f.s.stats.hmp_offload, 1u);
    EXPECT_EQ(f.s.stats.down_migrations, 1u);
}

TEST(hmp, balancing_stays_within_a_cluster)
{
    bls_hmp_config h = defaults();
    h.offload = 0;
    h.idle_pull = 0;
    hmp_fixture f(h);
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(f.add(), i);
    // All three forked to big; CPU 0 has two.
    bls_sched_wake(&f.s, 0, 0, 0);
    bls_sched_wake(&f.s, 1, 0, 0);
    bls_sched_wake(&f.s, 2, 0, 0);
    EXPECT_EQ(bls_sched_pick(&f.s, 0, 0), 0);
    // Idle little CPU 2 may not pull from a big CPU (no CPU-level balancing under HMP).
    EXPECT_EQ(bls_sched_balance(&f.s, 2, 1 * ms), 0u);
    EXPECT_EQ(f.s.rq[0].nr_running, 2u);
}

TEST(hmp, placement_needs_a_topology)
{
    bls_sched s;
    bls_sched_config c{};
    c.ncpus = 2;
    c.latency_ns = 6 * ms;
    c.min_granularity_ns = 750000;
    c.balance_interval_ns = 4 * ms;
    c.placement = BLS_PLACE_HMP;
    bls_hmp_default_config(&c.hmp);
    EXPECT_EQ(bls_sched_init(&s, &c, 3, 0), -BLS_EINVAL); // no clusters
    c.nclusters = 2;
    c.cpu_cluster[1] = 1;
    c.cluster_capacity[0] = 1024;
    c.cluster_capacity[1] = 430;
    EXPECT_EQ(bls_sched_init(&s, &c, 3, 0), 0);
    EXPECT_EQ(s.big, 1u);
    c.hmp.down_threshold = 700; // not below up_threshold
    EXPECT_EQ(bls_sched_init(&s, &c, 3, 0), -BLS_EINVAL);
}

} // namespace

// Three clusters (cpu0-3 little 400, cpu4-6 medium 900, cpu7 big 1024): HMP's fast domain is
// everything above the slowest cluster, so a task forked to big may start on a medium CPU;
// "big" proper (where EAS's misfits move up to) is the top cluster alone.
TEST(hmp, three_clusters_make_a_slow_domain_and_a_fast_one_of_the_rest)
{
    bls_sched_config c{};
    c.ncpus = 8;
    c.latency_ns = 6 * ms;
    c.min_granularity_ns = 750000;
    c.wakeup_granularity_ns = 1 * ms;
    c.balance_interval_ns = 4 * ms;
    c.placement = BLS_PLACE_HMP;
    c.nclusters = 3;
    for (unsigned cpu = 0; cpu < 8; cpu++)
        c.cpu_cluster[cpu] = cpu < 4 ? 0 : cpu < 7 ? 1 : 2;
    c.cluster_capacity[0] = 400;
    c.cluster_capacity[1] = 900;
    c.cluster_capacity[2] = 1024;
    bls_hmp_default_config(&c.hmp);
    bls_sched s;
    ASSERT_EQ(bls_sched_init(&s, &c, 0xff, 0), 0);
    EXPECT_EQ(s.hmp_fast, 0xf0u);
    EXPECT_EQ(s.big, 0x80u);
    // Forked to big: the first idle CPU of the fast domain, a medium one.
    const bls_sched_task_config tc = {0, 0, BLS_SCHED_NORMAL, 0, 0, 0, 0, 0};
    ASSERT_EQ(bls_sched_add_task(&s, &tc, 0), 0);
    EXPECT_EQ(bls_sched_wake(&s, 0, 0, 0), 4);
}
