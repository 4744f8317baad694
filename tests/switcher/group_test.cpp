// tests/switcher/group_test.cpp -- CFS task groups (cgroup v1's cpu.shares) on a fake platform.
// Every number is worked out by hand in the comments.
#include "sched_fixture.h"

namespace {

using namespace sched_fixture;

// @groups: {parent, shares} of groups 1.. (group 0 the root).
bls_sched grouped(unsigned n, std::initializer_list<bls_sched_group> groups)
{
    bls_sched_config c = config(n);
    c.ngroups = 1;
    for (const bls_sched_group& g : groups)
        c.group[c.ngroups++] = g;
    return make(n, c);
}

int add_in(bls_sched& s, unsigned group, int nice = 0)
{
    const bls_sched_task_config tc = {0, nice, BLS_SCHED_NORMAL, 0, 0, 0, 0, group};
    return bls_sched_add_task(&s, &tc, 0);
}

TEST(group, init_and_add_refuse_what_cannot_be)
{
    bls_sched s;
    bls_sched_config c = config(1);
    c.ngroups = 2;
    c.group[1] = {1, 1024}; // its own parent
    EXPECT_EQ(bls_sched_init(&s, &c, 1, 0), -BLS_EINVAL);
    c.group[1] = {0, 1}; // under MIN_SHARES
    EXPECT_EQ(bls_sched_init(&s, &c, 1, 0), -BLS_EINVAL);
    c.group[1] = {0, 1024};
    ASSERT_EQ(bls_sched_init(&s, &c, 1, 0), 0);
    EXPECT_EQ(add_in(s, 2), -BLS_EINVAL);
    EXPECT_EQ(add_in(s, 1), 0);
    bls_sched_wake(&s, 0, 0, 0);
    ASSERT_EQ(bls_sched_pick(&s, 0, 0), 0);
    EXPECT_EQ(bls_sched_set_group(&s, 0, 1 * ms, 5), -BLS_EINVAL);
}

TEST(group, a_group_shares_its_weight_among_its_tasks)
{
    // One CPU: task a alone in group 1, tasks b, c, d in group 2, both at 1024 shares. The
    // groups split the CPU in half: a weighs 1024, each of b, c, d 1024 / 3 = 341. Over 6 s a
    // runs 1024 / 2047 of it, 3.0015 s; the others 341 / 2047, 0.9995 s each (to a slice).
    bls_sched s = grouped(1, {{0, 1024}, {0, 1024}});
    const int a = add_in(s, 1), b = add_in(s, 2), c = add_in(s, 2), d = add_in(s, 2);
    for (int t : {a, b, c, d})
        bls_sched_wake(&s, t, 0, 0);
    run(s, 0, 0, 6000 * ms);
    EXPECT_EQ(s.task[a].weight, 1024u);
    EXPECT_EQ(s.task[b].weight, 341u);
    EXPECT_NEAR(double(s.task[a].stats.runtime_ns), 3001.5 * ms, 12 * ms);
    for (int t : {b, c, d})
        EXPECT_NEAR(double(s.task[t].stats.runtime_ns), 999.5 * ms, 12 * ms);
}

TEST(group, shares_weigh_the_groups_and_nested_groups_split_their_parents)
{
    // Group 1 at 2048 shares against group 2 at 1024: a (in 1) weighs 2048, b (in 2) 1024:
    // 2/3 and 1/3 of 3 s. Then group 3 inside group 2 (1024 shares), with c: group 2's 1024
    // splits between b (1024) and group 3's entity (1024): 512 each.
    bls_sched s = grouped(1, {{0, 2048}, {0, 1024}, {2, 1024}});
    const int a = add_in(s, 1), b = add_in(s, 2);
    bls_sched_wake(&s, a, 0, 0);
    bls_sched_wake(&s, b, 0, 0);
    run(s, 0, 0, 3000 * ms);
    EXPECT_NEAR(double(s.task[a].stats.runtime_ns), 2000 * ms, 12 * ms);
    EXPECT_NEAR(double(s.task[b].stats.runtime_ns), 1000 * ms, 12 * ms);
    const int c = add_in(s, 3);
    bls_sched_wake(&s, c, 3000 * ms, 3000 * ms);
    bls_sched_pick(&s, 0, 3000 * ms);
    EXPECT_EQ(s.task[a].weight, 2048u);
    EXPECT_EQ(s.task[b].weight, 512u);
    EXPECT_EQ(s.task[c].weight, 512u);
    // The running task moves to the root (sched_move_task): its nice weight again.
    const int curr = s.rq[0].curr;
    ASSERT_EQ(bls_sched_set_group(&s, 0, 3000 * ms, 0), 0);
    EXPECT_EQ(s.task[curr].weight, 1024u);
    EXPECT_TRUE(bls_sched_no_task_lost(&s));
}

TEST(group, a_groups_shares_split_between_cpus_by_its_load_there)
{
    // Two CPUs: group 1 (1024 shares) has two tasks on cpu0 and one on cpu1: 2/3 of its shares
    // on cpu0 (683, 341 per task) and 1/3 on cpu1 (341): each of its tasks weighs 341.
    bls_sched s = grouped(2, {{0, 1024}});
    int t[3];
    for (int i = 0; i < 3; i++)
        t[i] = add_in(s, 1);
    bls_sched_set_online(&s, 1u, 0); // all three wake on cpu0...
    for (int i = 0; i < 3; i++)
        bls_sched_wake(&s, t[i], 0, 0);
    bls_sched_set_online(&s, 3u, 0);
    bls_sched_balance(&s, 1, 0); // ...and cpu1 pulls one
    bls_sched_pick(&s, 1, 0);
    bls_sched_pick(&s, 0, 0);
    for (int i = 0; i < 3; i++)
        EXPECT_EQ(s.task[t[i]].weight, 341u) << i;
    EXPECT_EQ(s.rq[0].weight, 682u);
    EXPECT_EQ(s.rq[1].weight, 341u);
}

} // namespace
