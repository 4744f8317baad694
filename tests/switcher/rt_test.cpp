// tests/switcher/rt_test.cpp -- the real-time class (SCHED_FIFO, SCHED_RR) on a fake platform:
// time is whatever the test says, and "running" a task is letting time pass between
// scheduling points. Every number is worked out by hand in the comments.
#include "sched_fixture.h"

namespace {

using namespace sched_fixture;

TEST(rt, add_refuses_what_cannot_be)
{
    bls_sched s = make(1);
    EXPECT_EQ(add(s, BLS_SCHED_FIFO, 0), -BLS_EINVAL);   // real time needs 1..99
    EXPECT_EQ(add(s, BLS_SCHED_RR, 100), -BLS_EINVAL);
    EXPECT_EQ(add(s, BLS_SCHED_NORMAL, 5), -BLS_EINVAL); // CFS has no real-time priority
    EXPECT_EQ(add(s, static_cast<bls_sched_policy>(5), 1), -BLS_EINVAL); // SCHED_IDLE: not modelled
    EXPECT_EQ(add(s, BLS_SCHED_DEADLINE, 1), -BLS_EINVAL); // a deadline task has no priority
    EXPECT_EQ(add(s, BLS_SCHED_FIFO, 99), 0);
    EXPECT_EQ(add(s, BLS_SCHED_RR, 1), 1);
}

TEST(rt, a_fifo_task_preempts_cfs_at_once_and_keeps_the_cpu_until_it_sleeps)
{
    bls_sched s = make(1);
    const int cfs = add(s), fifo = add(s, BLS_SCHED_FIFO, 10);
    bls_sched_wake(&s, cfs, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), cfs);
    // At 3 ms the FIFO task wakes: no wake-up granularity, no slice: it runs now.
    EXPECT_EQ(bls_sched_wake(&s, fifo, 3 * ms, 3 * ms), 0);
    EXPECT_EQ(bls_sched_pick(&s, 0, 3 * ms), fifo);
    EXPECT_EQ(s.task[fifo].last_latency_ns, 0u);
    EXPECT_EQ(s.task[cfs].stats.runtime_ns, 3 * ms);
    // No slice to end: its deadlines are the balance tick (4 ms: a task waits) and its
    // bandwidth's end (950 ms into the period)...
    EXPECT_EQ(bls_sched_slice_ns(&s, 0), 0u);
    EXPECT_EQ(bls_sched_next_deadline(&s, 0), 4 * ms);
    EXPECT_EQ(bls_sched_balance(&s, 0, 4 * ms), 0u);
    EXPECT_EQ(bls_sched_pick(&s, 0, 4 * ms), fifo);
    EXPECT_EQ(bls_sched_next_deadline(&s, 0), 8 * ms);
    // ...so at 50 ms it still runs, and the CFS task has waited since 3 ms.
    EXPECT_EQ(bls_sched_pick(&s, 0, 50 * ms), fifo);
    bls_sched_sleep(&s, 0, 50 * ms, 60 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 50 * ms), cfs);
    EXPECT_EQ(s.task[fifo].stats.runtime_ns, 47 * ms);
    EXPECT_EQ(s.task[cfs].stats.wait_ns, 47 * ms);
    // A CFS task waking while the FIFO one runs never preempts it.
    bls_sched_expire(&s, 0, 60 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 60 * ms), fifo);
    const int cfs2 = add(s);
    bls_sched_wake(&s, cfs2, 61 * ms, 61 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 61 * ms), fifo);
}

TEST(rt, priorities_order_the_fifo_tasks_and_a_preempted_one_resumes_first)
{
    bls_sched s = make(1);
    const int a = add(s, BLS_SCHED_FIFO, 10), b = add(s, BLS_SCHED_FIFO, 10), hi = add(s, BLS_SCHED_FIFO, 50);
    bls_sched_wake(&s, a, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), a);
    // b, as urgent as a, waits behind it: FIFO among equals.
    bls_sched_wake(&s, b, 1 * ms, 1 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 1 * ms), a);
    // hi, more urgent, takes the CPU at once.
    bls_sched_wake(&s, hi, 2 * ms, 2 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 2 * ms), hi);
    // When hi sleeps, a (preempted, not done) runs again before b, which came later.
    bls_sched_sleep(&s, 0, 5 * ms, 100 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 5 * ms), a);
    bls_sched_exit(&s, 0, 7 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 7 * ms), b);
    EXPECT_EQ(s.task[b].stats.wait_ns, 6 * ms);
}

TEST(rt, throttling_leaves_fifty_ms_of_every_second_to_cfs)
{
    // A FIFO task and a CFS task always runnable on one CPU for 3 s: the FIFO task runs 950
    // ms of each period [0, 1 s), [1 s, 2 s), [2 s, 3 s), the CFS task the other 50 ms.
    bls_sched s = make(1);
    const int fifo = add(s, BLS_SCHED_FIFO, 1), cfs = add(s);
    bls_sched_wake(&s, cfs, 0, 0);
    bls_sched_wake(&s, fifo, 0, 0);
    run(s, 0, 0, 3000 * ms);
    EXPECT_EQ(s.task[fifo].stats.runtime_ns, 2850 * ms);
    EXPECT_EQ(s.task[cfs].stats.runtime_ns, 150 * ms);
    EXPECT_EQ(s.stats.rt_throttles, 3u);
    // Throttled, the real-time task is not runnable for schedutil's purposes.
    EXPECT_EQ(bls_sched_rt_runnable(&s, 0), 1); // 3 s: a new period, not throttled
}

TEST(rt, a_throttled_cpu_idles_rather_than_run_its_real_time_task)
{
    // Alone, the FIFO task still stops for 50 ms a second: the CPU idles meanwhile.
    bls_sched s = make(1);
    const int fifo = add(s, BLS_SCHED_FIFO, 1);
    bls_sched_wake(&s, fifo, 0, 0);
    run(s, 0, 0, 2000 * ms);
    EXPECT_EQ(s.task[fifo].stats.runtime_ns, 1900 * ms);
    // Idle for the governors while throttled (Linux dequeues the throttled queue, and the CPU
    // enters idle), though the task waited out the throttle runnable.
    EXPECT_EQ(bls_sched_idle_ns(&s, 0, 2000 * ms), 100 * ms);
    EXPECT_EQ(s.task[fifo].stats.wait_ns, 100 * ms);
    // With the runtime as long as the period there is no throttling (sched_rt_runtime_us -1).
    bls_sched_config c = config(1);
    c.rt_runtime_ns = c.rt_period_ns;
    bls_sched u = make(1, c);
    add(u, BLS_SCHED_FIFO, 1);
    bls_sched_wake(&u, 0, 0, 0);
    EXPECT_EQ(bls_sched_pick(&u, 0, 0), 0);
    EXPECT_EQ(bls_sched_next_deadline(&u, 0), BLS_NO_DEADLINE);
    run(u, 0, 0, 2000 * ms);
    EXPECT_EQ(u.task[0].stats.runtime_ns, 2000 * ms);
}

TEST(rt, round_robin_tasks_of_one_priority_take_100_ms_turns)
{
    // Two RR tasks at priority 5 on one CPU, no throttling: 1 s is ten turns of 100 ms, five
    // each. The turn changes at the quantum's deadline, nine times after the first pick.
    bls_sched_config c = config(1);
    c.rt_period_ns = 0;
    c.balance_interval_ns = 10000 * ms; // out of the way: the quantum is the only deadline
    bls_sched s = make(1, c);
    const int a = add(s, BLS_SCHED_RR, 5), b = add(s, BLS_SCHED_RR, 5);
    bls_sched_wake(&s, a, 0, 0);
    bls_sched_wake(&s, b, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), a);
    EXPECT_EQ(bls_sched_next_deadline(&s, 0), 100 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 0, 99 * ms), a);
    EXPECT_EQ(bls_sched_pick(&s, 0, 100 * ms), b);
    run(s, 0, 100 * ms, 1000 * ms);
    EXPECT_EQ(s.task[a].stats.runtime_ns, 500 * ms);
    EXPECT_EQ(s.task[b].stats.runtime_ns, 500 * ms);
    EXPECT_EQ(s.stats.context_switches, 11u); // idle -> a, then a turn every 100 ms to 1 s
    // FIFO tasks of one priority take no turns: the first runs on.
    bls_sched f = make(1, c);
    const int x = add(f, BLS_SCHED_FIFO, 5), y = add(f, BLS_SCHED_FIFO, 5);
    bls_sched_wake(&f, x, 0, 0);
    bls_sched_wake(&f, y, 0, 0);
    run(f, 0, 0, 1000 * ms);
    EXPECT_EQ(f.task[x].stats.runtime_ns, 1000 * ms);
    EXPECT_EQ(f.task[y].stats.runtime_ns, 0u);
}

TEST(rt, a_real_time_task_wakes_where_it_runs_at_once)
{
    bls_sched s = make(2);
    const int hi = add(s, BLS_SCHED_FIFO, 50, 1u << 0), lo = add(s, BLS_SCHED_FIFO, 10),
              top = add(s, BLS_SCHED_FIFO, 90), cfs = add(s, BLS_SCHED_NORMAL, 0, 1u << 1);
    bls_sched_wake(&s, hi, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), hi);
    // lo last ran on cpu0 (its first CPU), where a more urgent task runs: it goes to cpu1.
    EXPECT_EQ(bls_sched_wake(&s, lo, 1 * ms, 1 * ms), 1);
    // top would preempt hi: it stays on its previous CPU (cpu0) even though cpu1 runs less
    // urgent work (select_task_rq_rt looks elsewhere only when it would wait).
    EXPECT_EQ(bls_sched_wake(&s, top, 2 * ms, 2 * ms), 0);
    EXPECT_EQ(bls_sched_pick(&s, 0, 2 * ms), top);
    // A CFS task never displaces them.
    EXPECT_EQ(bls_sched_wake(&s, cfs, 3 * ms, 3 * ms), 1);
    EXPECT_EQ(bls_sched_pick(&s, 1, 3 * ms), lo);
}

// cpu0 runs a FIFO task at 50 and has one at 10 waiting (it woke when cpu1 ran one at 80);
// then cpu1's sleeps and cpu1 runs a CFS task.
bls_sched blocked_behind(int& waiting)
{
    bls_sched s = make(2);
    const int mid = add(s, BLS_SCHED_FIFO, 50, 1u << 0), hi = add(s, BLS_SCHED_FIFO, 80, 1u << 1);
    waiting = add(s, BLS_SCHED_FIFO, 10);
    const int cfs = add(s, BLS_SCHED_NORMAL, 0, 1u << 1);
    bls_sched_wake(&s, mid, 0, 0);
    bls_sched_wake(&s, hi, 0, 0);
    bls_sched_wake(&s, cfs, 0, 0);
    EXPECT_EQ(bls_sched_pick(&s, 0, 0), mid);
    EXPECT_EQ(bls_sched_pick(&s, 1, 0), hi);
    EXPECT_EQ(bls_sched_wake(&s, waiting, 1 * ms, 1 * ms), 0); // runs at once nowhere: waits
    EXPECT_EQ(bls_sched_pick(&s, 0, 1 * ms), mid);
    bls_sched_sleep(&s, 1, 2 * ms, 100 * ms);
    EXPECT_EQ(bls_sched_pick(&s, 1, 2 * ms), cfs);
    return s;
}

TEST(rt, a_cpu_whose_work_got_less_urgent_pulls_a_waiting_real_time_task)
{
    int waiting = 0;
    bls_sched s = blocked_behind(waiting);
    EXPECT_EQ(bls_sched_balance(&s, 1, 2 * ms), 1u << 1);
    EXPECT_EQ(s.stats.rt_pulls, 1u);
    EXPECT_EQ(bls_sched_pick(&s, 1, 2 * ms), waiting);
    EXPECT_EQ(s.task[waiting].stats.wait_ns, 1 * ms);
}

TEST(rt, a_cpu_with_a_real_time_task_waiting_pushes_it_where_it_runs_at_once)
{
    int waiting = 0;
    bls_sched s = blocked_behind(waiting);
    EXPECT_EQ(bls_sched_balance(&s, 0, 2 * ms), 1u << 1);
    EXPECT_EQ(s.stats.rt_pushes, 1u);
    EXPECT_EQ(s.task[waiting].cpu, 1u);
    EXPECT_EQ(bls_sched_pick(&s, 1, 2 * ms), waiting);
    // Nothing left to move: balancing again moves nothing.
    EXPECT_EQ(bls_sched_balance(&s, 0, 2 * ms), 0u);
    EXPECT_EQ(bls_sched_balance(&s, 1, 2 * ms), 0u);
}

TEST(rt, cfs_balancing_leaves_real_time_tasks_alone)
{
    // cpu1 idle, cpu0 with a FIFO task running and a CFS task waiting: the idle pull takes the
    // CFS one, never the real-time one.
    bls_sched s = make(2);
    const int fifo = add(s, BLS_SCHED_FIFO, 10, 1u << 0), cfs = add(s, BLS_SCHED_NORMAL, 0, 1u << 0);
    bls_sched_wake(&s, fifo, 0, 0);
    bls_sched_wake(&s, cfs, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), fifo);
    s.task[cfs].affinity = 3u; // as if widened since
    EXPECT_EQ(bls_sched_balance(&s, 1, 0), 1u << 1);
    EXPECT_EQ(s.task[cfs].cpu, 1u);
    EXPECT_EQ(s.task[fifo].cpu, 0u);
    EXPECT_EQ(s.rq[0].rt_nr_running, 1u);
    EXPECT_EQ(s.rq[0].weight, 0u); // real-time tasks carry no CFS weight
}

} // namespace
