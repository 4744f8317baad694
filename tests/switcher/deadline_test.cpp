// tests/switcher/deadline_test.cpp -- the deadline class (SCHED_DEADLINE: EDF with a constant
// bandwidth server per task) on a fake platform. Every number is worked out by hand in the
// comments.
#include "sched_fixture.h"

namespace {

using namespace sched_fixture;

// config(), with a balance tick too rare to come first among the deadlines a test reads.
bls_sched_config quiet(unsigned n)
{
    bls_sched_config c = config(n);
    c.balance_interval_ns = 10000 * ms;
    return c;
}

TEST(deadline, add_refuses_what_sched_setattr_refuses)
{
    bls_sched s = make(2);
    EXPECT_EQ(add_dl(s, 1000, 100 * ms), -BLS_EINVAL);              // a runtime under 1024 ns
    EXPECT_EQ(add_dl(s, 10 * ms, 100 * ms, 5 * ms), -BLS_EINVAL);   // deadline < runtime
    EXPECT_EQ(add_dl(s, 10 * ms, 20 * ms, 30 * ms), -BLS_EINVAL);   // period < deadline
    EXPECT_EQ(add_dl(s, 20000, 50000), -BLS_EINVAL);                // period under 100 us
    EXPECT_EQ(add_dl(s, 10 * ms, 5000 * ms), -BLS_EINVAL);          // period over 2^22 us
    EXPECT_EQ(add_dl(s, 10 * ms, 100 * ms, 0, 1u), -BLS_EINVAL);     // pinned to one CPU of two
    EXPECT_EQ(add_dl(s, 10 * ms, 100 * ms, 0, 3u), 0);               // every CPU: allowed
}

TEST(deadline, admission_allows_the_real_time_bandwidth_of_each_cpu_and_no_more)
{
    // One CPU, 950 ms of every 1 s: to_ratio(1 s, 950 ms) = 950e6 << 20 / 1e9 = 996147.
    // 50 ms / 100 ms is 524288, 45 ms / 100 ms 471859: together exactly 996147, admitted;
    // then even 1 ms of every second (1048) is one too many.
    EXPECT_EQ(bls_sched_bw(1000 * ms, 950 * ms), 996147u);
    bls_sched s = make(1);
    EXPECT_EQ(add_dl(s, 50 * ms, 100 * ms), 0);
    EXPECT_EQ(add_dl(s, 45 * ms, 100 * ms), 1);
    EXPECT_EQ(add_dl(s, 1 * ms, 1000 * ms), -BLS_EBUSY);
    // Two CPUs admit twice as much: 1.9 CPUs' worth.
    bls_sched t = make(2);
    for (int i = 0; i < 3; i++)
        EXPECT_EQ(add_dl(t, 60 * ms, 100 * ms), i);
    EXPECT_EQ(add_dl(t, 10 * ms, 100 * ms), 3);
    EXPECT_EQ(add_dl(t, 1 * ms, 1000 * ms), -BLS_EBUSY);
    // sched_rt_runtime_us -1 (a runtime beyond the period here): no limit.
    bls_sched_config c = config(1);
    c.rt_runtime_ns = 2 * c.rt_period_ns;
    bls_sched u = make(1, c);
    EXPECT_EQ(add_dl(u, 90 * ms, 100 * ms), 0);
    EXPECT_EQ(add_dl(u, 90 * ms, 100 * ms), 1);
}

TEST(deadline, a_hog_gets_its_runtime_every_period_and_cfs_the_rest)
{
    // 10 ms of every 100 ms, always runnable beside a CFS hog: the deadline task runs at
    // 0-10, 100-110, ... 900-910 ms (throttled after each 10 ms, replenished at the next
    // period's start): 100 ms of the second, the CFS task 900 ms.
    bls_sched s = make(1);
    const int dl = add_dl(s, 10 * ms, 100 * ms), cfs = add(s);
    bls_sched_wake(&s, cfs, 0, 0);
    bls_sched_wake(&s, dl, 0, 0);
    EXPECT_EQ(bls_sched_pick(&s, 0, 0), dl);
    run(s, 0, 0, 1000 * ms);
    EXPECT_EQ(s.task[dl].stats.runtime_ns, 100 * ms);
    EXPECT_EQ(s.task[cfs].stats.runtime_ns, 900 * ms);
    EXPECT_EQ(s.stats.dl_throttles, 10u);
    // Its jobs' deadlines moved on a period each: the 11th, begun at 1 s, is due at 1.1 s.
    EXPECT_EQ(s.task[dl].dl_abs_ns, 1100 * ms);
}

TEST(deadline, its_time_counts_against_the_real_time_bandwidth)
{
    // Beside a FIFO hog and a CFS hog: the deadline task's 100 ms and the FIFO task's time
    // share the CPU's 950 ms of real time; the FIFO task is throttled at 950 ms having had
    // 850 ms, and the CFS task has the last 50 ms.
    bls_sched s = make(1);
    const int dl = add_dl(s, 10 * ms, 100 * ms), fifo = add(s, BLS_SCHED_FIFO, 50), cfs = add(s);
    for (int t : {cfs, fifo, dl})
        bls_sched_wake(&s, t, 0, 0);
    run(s, 0, 0, 1000 * ms);
    EXPECT_EQ(s.task[dl].stats.runtime_ns, 100 * ms);
    EXPECT_EQ(s.task[fifo].stats.runtime_ns, 850 * ms);
    EXPECT_EQ(s.task[cfs].stats.runtime_ns, 50 * ms);
    EXPECT_EQ(s.stats.rt_throttles, 1u);
}

TEST(deadline, the_earliest_deadline_runs_first_and_preempts_real_time)
{
    // A: 10 ms due at 30 ms; B: 10 ms due at 20 ms. Both woken at 0: B first, then A. (No
    // balance tick in the way: the deadlines below are the class's own.)
    bls_sched s = make(1, quiet(1));
    const int fifo = add(s, BLS_SCHED_FIFO, 99);
    const int a = add_dl(s, 10 * ms, 100 * ms, 30 * ms), b = add_dl(s, 10 * ms, 100 * ms, 20 * ms);
    bls_sched_wake(&s, fifo, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), fifo);
    bls_sched_wake(&s, a, 1 * ms, 1 * ms); // due at 31 ms: preempts the FIFO task at once
    EXPECT_EQ(bls_sched_pick(&s, 0, 1 * ms), a);
    bls_sched_wake(&s, b, 2 * ms, 2 * ms); // due at 22 ms: earlier, preempts A
    EXPECT_EQ(bls_sched_pick(&s, 0, 2 * ms), b);
    // B's 10 ms end at 12 ms; A's remaining 9 ms at 21 ms; then the FIFO task again.
    EXPECT_EQ(bls_sched_next_deadline(&s, 0), 12 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 12 * ms), a);
    EXPECT_EQ(bls_sched_next_deadline(&s, 0), 21 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 21 * ms), fifo);
    // Both are throttled until their next periods (100 ms after 1 ms and 2 ms).
    EXPECT_EQ(s.task[a].dl_replenish_ns, 101 * ms);
    EXPECT_EQ(s.task[b].dl_replenish_ns, 102 * ms);
}

TEST(deadline, a_wake_up_keeps_its_budget_only_if_it_can_spend_it_at_its_rate)
{
    // 10 ms every 100 ms, woken at 0 (due 100 ms), runs 2 ms and sleeps with 8 ms left.
    for (const auto& [wake, due, left] : {std::tuple<uint64_t, uint64_t, int64_t>{10 * ms, 100 * ms, 8 * ms},
                                          {50 * ms, 150 * ms, 10 * ms}}) {
        bls_sched s = make(1);
        const int dl = add_dl(s, 10 * ms, 100 * ms);
        bls_sched_wake(&s, dl, 0, 0);
        ASSERT_EQ(bls_sched_pick(&s, 0, 0), dl);
        bls_sched_sleep(&s, 0, 2 * ms, wake);
        bls_sched_expire(&s, 0, wake);
        // At 10 ms, 8 ms in the 90 ms left is 0.089 of the CPU, under its 0.1: kept. At
        // 50 ms, 8 in 50 is 0.16: a new job, due 100 ms on, with a full budget.
        EXPECT_EQ(s.task[dl].dl_abs_ns, due) << "woken at " << wake;
        EXPECT_EQ(s.task[dl].dl_left_ns, left) << "woken at " << wake;
    }
}

TEST(deadline, a_constrained_deadline_wake_up_gets_the_budget_its_density_allows)
{
    // 10 ms due within 20 ms of each 100 ms period (density 0.5). Woken at 0 (due 20 ms), it
    // runs 1 ms and sleeps; woken at 10 ms, 9 ms in 10 ms overflows its 0.1 bandwidth, but
    // the deadline is still ahead: the revised rule leaves 0.5 x 10 ms = 5 ms, due 20 ms.
    bls_sched s = make(1);
    const int dl = add_dl(s, 10 * ms, 100 * ms, 20 * ms);
    bls_sched_wake(&s, dl, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), dl);
    bls_sched_sleep(&s, 0, 1 * ms, 10 * ms);
    bls_sched_expire(&s, 0, 10 * ms);
    EXPECT_EQ(s.task[dl].dl_abs_ns, 20 * ms);
    EXPECT_EQ(s.task[dl].dl_left_ns, int64_t(5 * ms));
}

TEST(deadline, yield_ends_the_job_until_the_next_period)
{
    // 10 ms every 100 ms; after 2 ms it yields: throttled until 100 ms, then a full 10 ms
    // due at 200 ms, the other 8 ms given up. A CFS task has the CPU meanwhile.
    bls_sched s = make(1, quiet(1));
    const int dl = add_dl(s, 10 * ms, 100 * ms), cfs = add(s);
    bls_sched_wake(&s, cfs, 0, 0);
    bls_sched_wake(&s, dl, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), dl);
    bls_sched_yield(&s, 0, 2 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 2 * ms), cfs);
    EXPECT_EQ(bls_sched_runnable(&s, 0), 1);
    EXPECT_EQ(bls_sched_dl_runnable(&s, 0), 0);
    EXPECT_EQ(bls_sched_next_deadline(&s, 0), 100 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 100 * ms), dl);
    EXPECT_EQ(s.task[dl].dl_abs_ns, 200 * ms);
    EXPECT_EQ(s.task[dl].dl_left_ns, int64_t(10 * ms));
}

TEST(deadline, yield_in_the_other_classes)
{
    // Real time: behind its equals. CFS: the other task runs if within a wake-up
    // granularity (1 ms) of it; a task alone runs on.
    bls_sched s = make(1);
    const int f1 = add(s, BLS_SCHED_FIFO, 10), f2 = add(s, BLS_SCHED_FIFO, 10);
    bls_sched_wake(&s, f1, 0, 0);
    bls_sched_wake(&s, f2, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), f1);
    bls_sched_yield(&s, 0, 1 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 1 * ms), f2);

    // CFS: a runs 0-3 ms (its slice of the 6 ms period), b from 3 ms. Yielding at 5 ms, b
    // (vruntime 2 ms) passes the CPU to a (3 ms): 1 ms more, within the granularity. At
    // 4.5 ms, a would be 1.5 ms further: b is picked again (the skip buddy gives way only
    // that far).
    for (const auto& [at, next] : {std::pair<uint64_t, int>{5 * ms, 0}, {9 * ms / 2, 1}}) {
        bls_sched c = make(1);
        const int a = add(c), b = add(c);
        bls_sched_wake(&c, a, 0, 0);
        bls_sched_wake(&c, b, 0, 0);
        ASSERT_EQ(bls_sched_pick(&c, 0, 0), a);
        ASSERT_EQ(bls_sched_pick(&c, 0, 3 * ms), b);
        ASSERT_EQ(bls_sched_pick(&c, 0, at), b); // its slice is not over
        bls_sched_yield(&c, 0, at);
        EXPECT_EQ(bls_sched_pick(&c, 0, at), next == 0 ? a : b) << "yielding at " << at;
    }

    bls_sched alone = make(1);
    const int x = add(alone);
    bls_sched_wake(&alone, x, 0, 0);
    ASSERT_EQ(bls_sched_pick(&alone, 0, 0), x);
    bls_sched_yield(&alone, 0, 1 * ms);
    EXPECT_EQ(bls_sched_pick(&alone, 0, 1 * ms), x);
}

TEST(deadline, a_waking_task_goes_where_its_deadline_is_the_earliest)
{
    // Two CPUs. A (due 20 ms) runs on cpu0; B last ran on cpu0 too and wakes due at 100 ms:
    // it would wait there, so it goes to cpu1, which has no deadline task.
    bls_sched s = make(2);
    const int a = add_dl(s, 10 * ms, 100 * ms, 20 * ms), b = add_dl(s, 10 * ms, 100 * ms);
    bls_sched_wake(&s, a, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), a);
    EXPECT_EQ(bls_sched_wake(&s, b, 0, 0), 1);
}

TEST(deadline, a_cpu_pulls_a_task_waiting_behind_an_earlier_deadline)
{
    // cpu1 offline while A and B wake on cpu0 (A due at 20 ms runs, B due at 100 ms waits);
    // cpu1 comes online and, balancing, pulls B, which runs there at once.
    bls_sched s = make(2);
    bls_sched_set_online(&s, 1u, 0);
    const int a = add_dl(s, 10 * ms, 100 * ms, 20 * ms), b = add_dl(s, 10 * ms, 100 * ms);
    ASSERT_EQ(bls_sched_wake(&s, a, 0, 0), 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), a);
    ASSERT_EQ(bls_sched_wake(&s, b, 0, 0), 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), a);
    bls_sched_set_online(&s, 3u, 1 * ms);
    EXPECT_EQ(bls_sched_balance(&s, 1, 1 * ms), 2u);
    EXPECT_EQ(s.stats.dl_pulls, 1u);
    EXPECT_EQ(bls_sched_pick(&s, 1, 1 * ms), b);
    EXPECT_TRUE(bls_sched_no_task_lost(&s));
}

} // namespace

namespace {

TEST(deadline, a_cpu_whose_deadline_task_is_throttled_is_idle_for_the_governors)
{
    // Alone, 10 ms of every 100 ms: the CPU is idle 90 ms of each period, 900 ms of the
    // second, as Linux (which dequeues a throttled task) tells a governor. Beside a FIFO hog
    // throttled at 950 ms, the last 50 ms are idle too.
    bls_sched s = make(1);
    const int dl = add_dl(s, 10 * ms, 100 * ms);
    bls_sched_wake(&s, dl, 0, 0);
    run(s, 0, 0, 1000 * ms);
    EXPECT_EQ(bls_sched_idle_ns(&s, 0, 1000 * ms), 900 * ms);

    bls_sched t = make(1);
    const int d2 = add_dl(t, 10 * ms, 100 * ms), fifo = add(t, BLS_SCHED_FIFO, 1);
    bls_sched_wake(&t, d2, 0, 0);
    bls_sched_wake(&t, fifo, 0, 0);
    run(t, 0, 0, 1000 * ms);
    EXPECT_EQ(bls_sched_idle_ns(&t, 0, 1000 * ms), 50 * ms);
}

} // namespace
