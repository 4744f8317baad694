// tests/switcher/sched_fixture.h -- the scheduler on a fake platform, for the class tests
// (rt_test, deadline_test): time is whatever the test says, and "running" a task is letting
// time pass between scheduling points.
#pragma once

#include <gtest/gtest.h>

#include <bls/sched.h>

namespace sched_fixture {

constexpr uint64_t ms = 1000000;

// @n logical CPUs with Linux's base CFS tunables and real-time bandwidth (950 ms of every
// 1 s, RR's 100 ms quantum).
inline bls_sched_config config(unsigned n)
{
    bls_sched_config c{};
    c.ncpus = n;
    c.latency_ns = 6 * ms;
    c.min_granularity_ns = 750000;
    c.wakeup_granularity_ns = 1 * ms;
    c.balance_interval_ns = 4 * ms;
    c.rt_period_ns = 1000 * ms;
    c.rt_runtime_ns = 950 * ms;
    return c;
}

inline bls_sched make(unsigned n, const bls_sched_config& c)
{
    bls_sched s;
    EXPECT_EQ(bls_sched_init(&s, &c, (1u << n) - 1, 0), 0);
    return s;
}

inline bls_sched make(unsigned n)
{
    return make(n, config(n));
}

inline int add(bls_sched& s, bls_sched_policy policy = BLS_SCHED_NORMAL, unsigned prio = 0, uint32_t affinity = 0)
{
    const bls_sched_task_config tc = {affinity, 0, policy, prio, 0, 0, 0, 0};
    return bls_sched_add_task(&s, &tc, 0);
}

// A SCHED_DEADLINE task: @runtime of every @period, due @deadline into it (0: the period).
inline int add_dl(bls_sched& s, uint64_t runtime, uint64_t period, uint64_t deadline = 0, uint32_t affinity = 0)
{
    const bls_sched_task_config tc = {affinity, 0, BLS_SCHED_DEADLINE, 0, runtime, deadline ? deadline : period, period, 0};
    return bls_sched_add_task(&s, &tc, 0);
}

// Run @cpu from @t to @end with its tasks always runnable: at each scheduling point the
// picked task (or idle) lasts until the next deadline, as the kernel's timer would cut it.
inline void run(bls_sched& s, unsigned cpu, uint64_t t, uint64_t end)
{
    while (t < end) {
        bls_sched_balance(&s, cpu, t);
        bls_sched_pick(&s, cpu, t);
        ASSERT_TRUE(bls_sched_no_task_lost(&s));
        const uint64_t d = bls_sched_next_deadline(&s, cpu);
        ASSERT_GT(d, t) << "a deadline already past would fire for ever";
        t = d < end ? d : end;
    }
    bls_sched_pick(&s, cpu, t);
}

} // namespace sched_fixture
