// tests/switcher/governor_test.cpp -- the governors' decisions for load sequences worked by
// hand. The environment is a fake: each CPU's busy share over the last stretch of time is
// what the test says; requests are recorded (and completed at once, as the kernel's
// POSTCHANGE would report them).
#include <gtest/gtest.h>

#include <vector>

#include <bls/governor.h>

namespace {

constexpr uint64_t ms = 1000000;

struct fake_env {
    uint64_t idle[BLS_MAX_CPUS] = {};
    uint64_t iowait[BLS_MAX_CPUS] = {};
    uint64_t last[BLS_MAX_CPUS] = {};
    double util[BLS_MAX_CPUS] = {};
    bool rt[BLS_MAX_CPUS] = {};
    std::vector<unsigned> requests;
    bls_governor* g = nullptr;
    bool complete = true;

    // CPU @cpu was busy @busy_pct % of the time from its last point to @now, and idle the
    // rest, @iowait_pct % of the time with a task of its waiting for I/O.
    void busy(unsigned cpu, uint64_t now, unsigned busy_pct, unsigned iowait_pct = 0)
    {
        idle[cpu] += (now - last[cpu]) * (100 - busy_pct) / 100;
        iowait[cpu] += (now - last[cpu]) * iowait_pct / 100;
        last[cpu] = now;
    }
};

uint64_t env_idle(void* ctx, unsigned cpu, uint64_t) { return static_cast<fake_env*>(ctx)->idle[cpu]; }
uint64_t env_iowait(void* ctx, unsigned cpu, uint64_t) { return static_cast<fake_env*>(ctx)->iowait[cpu]; }
double env_util(void* ctx, unsigned cpu, uint64_t) { return static_cast<fake_env*>(ctx)->util[cpu]; }
void env_request(void* ctx, unsigned, unsigned mhz)
{
    static_cast<fake_env*>(ctx)->requests.push_back(mhz);
}
int env_rt(void* ctx, unsigned cpu) { return static_cast<fake_env*>(ctx)->rt[cpu]; }
const bls_gov_env env_ops = {env_idle, env_util, env_request, nullptr, env_iowait, nullptr, env_rt};

// One policy over CPU 0: 200..1200 MHz in steps of 200, at @cur.
bls_policy policy(unsigned cur)
{
    bls_policy p{};
    p.cpus = 1;
    p.first_cpu = 0;
    p.nfreqs = 6;
    for (unsigned i = 0; i < 6; i++)
        p.freq_mhz[i] = 200 * (i + 1);
    p.capacity = 1024;
    p.cur_mhz = cur;
    return p;
}

struct governed {
    fake_env env;
    bls_governor g;

    governed(const bls_governor_ops* ops, const bls_governor_tunables& t, unsigned cur)
    {
        bls_governor_init(&g, ops, &t, &env_ops, &env);
        const bls_policy p = policy(cur);
        EXPECT_EQ(bls_governor_set_policies(&g, &p, 1, 0), 0);
    }
    // At @now, CPU 0 having been @pct % busy since the last sample: the deadline passes; a
    // request made is completed at once. Returns the policy's frequency after.
    unsigned sample(uint64_t now, unsigned pct, unsigned iowait_pct = 0)
    {
        env.busy(0, now, pct, iowait_pct);
        const size_t before = env.requests.size();
        bls_governor_run(&g, 0, now);
        if (env.requests.size() > before)
            bls_governor_freq_changed(&g, 0, env.requests.back(), now);
        return g.policy[0].cur_mhz;
    }
};

bls_governor_tunables defaults()
{
    bls_governor_tunables t;
    bls_governor_default_tunables(&t);
    return t;
}

// --- interactive --------------------------------------------------------------------------

TEST(interactive, target_loads_parse_as_sysfs_takes_them)
{
    bls_interactive_tunables t{};
    EXPECT_EQ(bls_interactive_parse_target_loads(&t, "85 600:90 1000:99"), 0);
    EXPECT_EQ(t.ntarget_loads, 3u);
    EXPECT_EQ(t.target_load[1], 90u);
    EXPECT_EQ(t.target_load_freq[2], 1000u);
    EXPECT_EQ(bls_interactive_parse_target_loads(&t, "85 600:90 500:99"), 14); // descending
    EXPECT_EQ(bls_interactive_parse_target_loads(&t, "0"), 2);                 // a load of 0
    EXPECT_EQ(bls_interactive_parse_target_loads(&t, "90 x"), 4);
    EXPECT_EQ(t.ntarget_loads, 3u); // unchanged by a refused string
}

TEST(interactive, jumps_to_hispeed_at_go_hispeed_load_then_waits_above_it)
{
    bls_governor_tunables t = defaults();
    t.interactive.hispeed_freq_mhz = 800;
    t.interactive.above_hispeed_delay_us = 30000;
    governed gv(&bls_gov_interactive, t, 200);
    // The first sample, 20 ms in (timer_rate), 100 % busy at 200 MHz: load 100 >= 99, below
    // hispeed: straight to 800.
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 20 * ms);
    EXPECT_EQ(gv.sample(20 * ms, 100), 800u);
    // 40 ms, 100 % at 800: loadadjfreq 80000 (MHz x %); 80000 / 90 (target load) = 889 ->
    // 1000. Above hispeed, but only 20 ms since hispeed was validated (< 30): not yet.
    EXPECT_EQ(gv.sample(40 * ms, 100), 800u);
    // 60 ms: 40 ms since: up to 1000.
    EXPECT_EQ(gv.sample(60 * ms, 100), 1000u);
    // 80 ms, 100 % at 1000: 100000 / 90 = 1111 -> 1200, validated at 60 (20 < 30): wait; at
    // 100 ms, 40: 1200 (the max: no timer until the next idle exit).
    EXPECT_EQ(gv.sample(80 * ms, 100), 1000u);
    EXPECT_EQ(gv.sample(100 * ms, 100), 1200u);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), BLS_GOV_NO_DEADLINE);
    EXPECT_EQ(gv.env.requests, (std::vector<unsigned>{800, 1000, 1200}));
}

TEST(interactive, holds_a_speed_for_min_sample_time_before_lowering_it)
{
    governed gv(&bls_gov_interactive, defaults(), 200);
    EXPECT_EQ(gv.sample(20 * ms, 100), 1200u); // hispeed = max: the floor is 1200 from 20 ms
    bls_governor_idle(&gv.g, 0, 1, 20 * ms); // idle (above min: its timer re-armed, 40 ms)
    // Idle until 40 ms: the overdue sample runs at idle exit. Load 0 -> 200, below the floor
    // 1200 held since 20 ms: not before 100 ms (min_sample_time 80 ms). Then 10 % busy:
    // loadadjfreq 12000 -> 12000 / 90 = 133 -> 200, held likewise.
    gv.env.busy(0, 40 * ms, 0);
    bls_governor_idle(&gv.g, 0, 0, 40 * ms);
    EXPECT_TRUE(gv.env.requests.size() == 1u); // the 1200 of the first sample only
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 60 * ms);
    EXPECT_EQ(gv.sample(60 * ms, 10), 1200u);
    EXPECT_EQ(gv.sample(80 * ms, 10), 1200u);
    EXPECT_EQ(gv.sample(100 * ms, 10), 200u);
}

TEST(interactive, target_loads_per_speed_choose_the_lowest_speed_within_its_target)
{
    // "85 600:90 1000:99". From 200 at 50 % busy... at 400 busy 100 %: loadadjfreq 40000;
    // hispeed 1200 is not jumped to (100 >= 99 would): make go_hispeed_load unreachable.
    bls_governor_tunables t = defaults();
    t.interactive.go_hispeed_load = 1000;
    ASSERT_EQ(bls_interactive_parse_target_loads(&t.interactive, "85 600:90 1000:99"), 0);
    governed gv(&bls_gov_interactive, t, 400);
    // 100 % at 400: loadadjfreq 40000. From 400: 40000 / 85 = 471 -> 600; at 600 the target
    // is 90: 40000 / 90 = 444 -> 600: settled at 600 (its load 67 % <= 90).
    EXPECT_EQ(gv.sample(20 * ms, 100), 600u);
    // 100 % at 600: 60000. 60000 / 90 = 667 -> 800; 60000 / 90 at 800 -> 800: 800.
    EXPECT_EQ(gv.sample(40 * ms, 100), 800u);
    // 100 % at 800: 80000 / 90 = 889 -> 1000; at 1000 the target is 99: 808 -> 1000.
    EXPECT_EQ(gv.sample(60 * ms, 100), 1000u);
    // 95 % at 1000: 95000 / 99 = 960 -> 1000: stays (within 99 % at 1000).
    EXPECT_EQ(gv.sample(80 * ms, 95), 1000u);
}

TEST(interactive, the_second_pair_caps_below_its_load_and_jumps_at_it)
{
    // hispeed 600 at 85 %, hispeed2 1000 at 95 %: the Linaro IKS shape (A7 until 85 %, the
    // A15's first OPPs, the top ones only above 95 %), on this table.
    bls_governor_tunables t = defaults();
    t.interactive.hispeed_freq_mhz = 600;
    t.interactive.go_hispeed_load = 85;
    t.interactive.hispeed_freq2_mhz = 1000;
    t.interactive.go_hispeed_load2 = 95;
    t.interactive.above_hispeed_delay_us = 0;
    governed gv(&bls_gov_interactive, t, 200);
    EXPECT_EQ(gv.sample(20 * ms, 90), 600u); // 90 >= 85 below hispeed: 600
    // 100 % at 600 (>= 95, at or above hispeed): choose_freq gives 800 (667 -> 800), raised to
    // hispeed2: 1000.
    EXPECT_EQ(gv.sample(40 * ms, 100), 1000u);
    // 94 % at 1000: 94000 / 90 = 1044 -> 1200 wanted, but 94 < 95: capped at 1000.
    EXPECT_EQ(gv.sample(60 * ms, 94), 1000u);
    // 100 %: past the cap, 1200.
    EXPECT_EQ(gv.sample(80 * ms, 100), 1200u);
}

TEST(interactive, boostpulse_raises_to_hispeed_for_its_duration)
{
    bls_governor_tunables t = defaults();
    t.interactive.hispeed_freq_mhz = 800;
    governed gv(&bls_gov_interactive, t, 200);
    EXPECT_EQ(gv.sample(20 * ms, 10), 200u);
    bls_governor_boostpulse(&gv.g, 25 * ms); // until 105 ms
    ASSERT_EQ(gv.env.requests.back(), 800u);
    bls_governor_freq_changed(&gv.g, 0, 800, 25 * ms);
    // Boosted: a light load keeps 800 (raised to hispeed); the floor is not refreshed.
    EXPECT_EQ(gv.sample(40 * ms, 10), 800u);
    EXPECT_EQ(gv.sample(100 * ms, 10), 800u);
    // The pulse is over at 105 ms and the boost's floor (set at 25 ms) held 80 ms: down.
    EXPECT_EQ(gv.sample(120 * ms, 10), 200u);
}

TEST(interactive, an_idle_cpu_is_woken_only_by_the_slack_timer)
{
    governed gv(&bls_gov_interactive, defaults(), 1200);
    // Above the minimum: deferrable sample at 20 ms, slack at 20 + 80 = 100 ms.
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 20 * ms);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 1), 100 * ms);
    // Woken by it, the overdue sample runs at idle exit: idle all along, down to 200.
    gv.env.busy(0, 100 * ms, 0);
    bls_governor_idle(&gv.g, 0, 1, 0);
    bls_governor_idle(&gv.g, 0, 0, 100 * ms);
    EXPECT_EQ(gv.env.requests, (std::vector<unsigned>{200}));
}

TEST(interactive, io_is_busy_counts_a_cpu_idle_in_io_wait_as_busy)
{
    // Busy 50 % of 20 ms at 200 MHz, and idle the other half waiting for I/O. By default that
    // is idle: loadadjfreq 0.5 x 200 x 100 = 10000, 10000 / 90 = 111 -> 200 stays.
    governed by_default(&bls_gov_interactive, defaults(), 200);
    EXPECT_EQ(by_default.sample(20 * ms, 50, 50), 200u);
    // io_is_busy: 100 % busy, at or above go_hispeed_load 99: hispeed (the max).
    bls_governor_tunables t = defaults();
    t.interactive.io_is_busy = 1;
    governed io_busy(&bls_gov_interactive, t, 200);
    EXPECT_EQ(io_busy.sample(20 * ms, 50, 50), 1200u);
    // 2012 reads get_cpu_idle_time_us alone, without the I/O wait: busy, always.
    bls_governor_tunables t12 = defaults();
    bls_interactive_default_tunables(&t12.interactive, BLS_INTERACTIVE_2012);
    governed v2012(&bls_gov_interactive, t12, 200);
    EXPECT_EQ(v2012.sample(20 * ms, 50, 50), 1200u);
}

// --- interactive, the mid-2012 generation ---------------------------------------------------

bls_governor_tunables tunables_2012()
{
    bls_governor_tunables t = defaults();
    bls_interactive_default_tunables(&t.interactive, BLS_INTERACTIVE_2012);
    return t;
}

TEST(interactive_2012, asks_max_times_load_of_the_busier_window_and_refreshes_its_floor)
{
    bls_governor_tunables t = tunables_2012();
    EXPECT_EQ(t.interactive.go_hispeed_load, 85u);
    t.interactive.hispeed_freq_mhz = 600;
    t.interactive.above_hispeed_delay_us = 30000;
    governed gv(&bls_gov_interactive, t, 200);
    // 20 ms, 90 % busy at the minimum: at or above 85, from the minimum: hispeed, 600.
    EXPECT_EQ(gv.sample(20 * ms, 90), 600u);
    // 40 ms, 95 %: 1200 x 95 / 100 = 1140, above hispeed; at hispeed only 20 ms (< 30): not yet.
    EXPECT_EQ(gv.sample(40 * ms, 95), 600u);
    // 60 ms, 95 %: 40 ms at hispeed; 1140 -> the highest at or below (RELATION_H): 1000.
    EXPECT_EQ(gv.sample(60 * ms, 95), 1000u);
    // 80 and 100 ms, 80 %: 960 -> 800, but the floor 1000 holds from 60 ms for 80 ms.
    EXPECT_EQ(gv.sample(80 * ms, 80), 1000u);
    EXPECT_EQ(gv.sample(100 * ms, 80), 1000u);
    // 120 ms, 85 %: at go_hispeed_load, 1020 -> 1000, the target already: an accepted
    // evaluation, which validates the floor again from 120 ms.
    EXPECT_EQ(gv.sample(120 * ms, 85), 1000u);
    // Idle from then on. The short window says 0 %, but the long one, since the target
    // changed at 60 ms (16 + 16 + 17 ms busy), 61, 49, 40 and 35 %: 732 -> 600, 588 -> 400,
    // 480 -> 400, 420 -> 400. The floor holds until 200 ms (80 ms after 120, not after 60):
    // then 400, where the short window alone would give 200.
    EXPECT_EQ(gv.sample(140 * ms, 0), 1000u);
    EXPECT_EQ(gv.sample(160 * ms, 0), 1000u);
    EXPECT_EQ(gv.sample(180 * ms, 0), 1000u);
    EXPECT_EQ(gv.sample(200 * ms, 0), 400u);
    EXPECT_EQ(gv.env.requests, (std::vector<unsigned>{600, 1000, 400}));
    // The same 50 % at 200 MHz asks 600 here, 200 of the 2013 generation (load against the
    // speed it ran at): 1200 x 50 / 100 = 600.
    governed half(&bls_gov_interactive, tunables_2012(), 200);
    EXPECT_EQ(half.sample(20 * ms, 50), 600u);
    governed half13(&bls_gov_interactive, defaults(), 200);
    EXPECT_EQ(half13.sample(20 * ms, 50), 200u);
}

TEST(interactive_2012, its_timer_wakes_an_idle_cpu_above_the_minimum_and_goes_at_it)
{
    bls_governor_tunables t = tunables_2012();
    t.interactive.hispeed_freq_mhz = 600;
    governed gv(&bls_gov_interactive, t, 200);
    // Started at the minimum, armed as at an idle exit: 20 ms, and not deferrable.
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 1), 20 * ms);
    // 10 % at the minimum: 120 -> 200 stays; re-armed, to go when the CPU idles.
    EXPECT_EQ(gv.sample(20 * ms, 10), 200u);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 40 * ms);
    bls_governor_idle(&gv.g, 0, 1, 25 * ms);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 1), BLS_GOV_NO_DEADLINE);
    // The idle exit at 50 ms arms it again; 100 % from there: hispeed.
    gv.env.busy(0, 50 * ms, 0);
    bls_governor_idle(&gv.g, 0, 0, 50 * ms);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 70 * ms);
    EXPECT_EQ(gv.sample(70 * ms, 100), 600u);
    // Idle above the minimum: the timer stays, and wakes the CPU at 90 ms (the 2013 generation
    // would sleep until its slack timer, 80 ms later).
    bls_governor_idle(&gv.g, 0, 1, 75 * ms);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 1), 90 * ms);
    gv.env.busy(0, 90 * ms, 25);
    bls_governor_idle(&gv.g, 0, 0, 90 * ms);
    // 25 % of 20 ms: 300 -> 200, under the floor 600 (from 70 ms): held, and re-armed.
    EXPECT_EQ(gv.sample(90 * ms, 0), 600u);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 1), 110 * ms);
}

// --- ondemand and conservative ------------------------------------------------------------

TEST(ondemand, above_up_threshold_to_the_max_else_proportional)
{
    bls_governor_tunables t = defaults();
    t.ondemand.sampling_down_factor = 2;
    governed gv(&bls_gov_ondemand, t, 200);
    // 90 % > 80: 1200, and the next look is 2 x 20 ms later.
    EXPECT_EQ(gv.sample(20 * ms, 90), 1200u);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 60 * ms);
    // 45 %: 200 + 0.45 x 1000 = 650 -> closest 600.
    EXPECT_EQ(gv.sample(60 * ms, 45), 600u);
    // 50 %: 700, between 600 and 800: ties go up, 800.
    EXPECT_EQ(gv.sample(80 * ms, 50), 800u);
    // powersave_bias 100 (10 %): 700 x 0.9 = 630 -> the entry at or below, 600.
    gv.g.tun.ondemand.powersave_bias = 100;
    EXPECT_EQ(gv.sample(100 * ms, 50), 600u);
}

TEST(ondemand, a_failed_transition_leaves_cur_and_the_next_sample_asks_again)
{
    governed gv(&bls_gov_ondemand, defaults(), 200);
    // 90 %: 1200 asked; the driver fails it (CPUFREQ_POSTCHANGE with the old frequency).
    gv.env.busy(0, 20 * ms, 90);
    bls_governor_run(&gv.g, 0, 20 * ms);
    ASSERT_EQ(gv.env.requests, (std::vector<unsigned>{1200}));
    bls_governor_freq_failed(&gv.g, 0, 20 * ms);
    EXPECT_EQ(gv.g.policy[0].cur_mhz, 200u);
    EXPECT_EQ(gv.g.stats.failed_transitions, 1u);
    // Still busy at the next look: the same frequency is asked again (without the failure
    // reported, the request would equal the last one and not be made).
    EXPECT_EQ(gv.sample(40 * ms, 90), 1200u);
    EXPECT_EQ(gv.env.requests, (std::vector<unsigned>{1200, 1200}));
}

TEST(conservative, steps_by_freq_step_up_and_down)
{
    governed gv(&bls_gov_conservative, defaults(), 200);
    // freq_step 5 % of 1200 = 60 MHz a sample. 90 % busy: 260, 320, 380 (the table entry at
    // or below: still 200), 440 -> 400.
    EXPECT_EQ(gv.sample(20 * ms, 90), 200u);
    EXPECT_EQ(gv.sample(40 * ms, 90), 200u);
    EXPECT_EQ(gv.sample(60 * ms, 90), 200u);
    EXPECT_EQ(gv.sample(80 * ms, 90), 400u);
    // 50 %: between the thresholds, nothing; 10 % < 20: 440 - 60 = 380 -> at or above: 400.
    EXPECT_EQ(gv.sample(100 * ms, 50), 400u);
    EXPECT_EQ(gv.sample(120 * ms, 10), 400u);
    // 320 -> 400, 260 -> 400, 200 -> 200.
    EXPECT_EQ(gv.sample(140 * ms, 10), 400u);
    EXPECT_EQ(gv.sample(160 * ms, 10), 400u);
    EXPECT_EQ(gv.sample(180 * ms, 10), 200u);
}

// --- schedutil, performance, powersave, userspace ------------------------------------------

TEST(schedutil, follows_utilisation_with_a_quarter_of_headroom)
{
    governed gv(&bls_gov_schedutil, defaults(), 200);
    gv.env.util[0] = 512; // 1.25 x 1200 x 512 / 1024 = 750 -> 800
    EXPECT_EQ(gv.sample(10 * ms, 100), 800u);
    gv.env.util[0] = 900; // 1318 -> the max
    EXPECT_EQ(gv.sample(15 * ms, 100), 800u); // within the 10 ms rate limit: nothing
    EXPECT_EQ(gv.sample(20 * ms, 100), 1200u);
}

TEST(schedutil, a_runnable_real_time_task_asks_for_the_top_frequency)
{
    // Little utilisation, but a real-time task runnable: the maximum (SCHED_CPUFREQ_RT); gone,
    // the utilisation rules again: 1.25 x 1200 x 100 / 1024 = 146 -> 200.
    governed gv(&bls_gov_schedutil, defaults(), 200);
    gv.env.util[0] = 100;
    gv.env.rt[0] = true;
    EXPECT_EQ(gv.sample(10 * ms, 100), 1200u);
    gv.env.rt[0] = false;
    EXPECT_EQ(gv.sample(20 * ms, 100), 200u);
}

// rate_limit_us 0 (legal in Linux): one evaluation per update from the scheduler (here a
// scheduling point, an idle entry or exit), and the busy CPU's own deadline no more often than
// the tick (HZ=100) would carry cpufreq_update_util: never one due again at once, which the
// kernel would run in a loop every few tens of nanoseconds.
TEST(schedutil, a_zero_rate_limit_evaluates_once_per_update_and_ticks_when_busy)
{
    bls_governor_tunables t = defaults();
    t.schedutil.rate_limit_us = 0;
    governed gv(&bls_gov_schedutil, t, 200);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 10 * ms); // the first tick
    gv.env.util[0] = 512;
    EXPECT_EQ(gv.sample(10 * ms, 100), 800u);
    EXPECT_EQ(gv.g.stats.samples, 1u);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 20 * ms);
    EXPECT_EQ(gv.sample(10 * ms, 100), 800u); // the same instant again: nothing due
    EXPECT_EQ(gv.sample(10 * ms + 60, 100), 800u);
    EXPECT_EQ(gv.g.stats.samples, 1u);
    // Each idle entry and exit is an update, evaluated at once (no rate limit).
    gv.env.util[0] = 100; // 146 -> 200
    bls_governor_idle(&gv.g, 0, 1, 11 * ms);
    EXPECT_EQ(gv.env.requests.back(), 200u);
    bls_governor_idle(&gv.g, 0, 0, 11 * ms + 500);
    EXPECT_EQ(gv.g.stats.samples, 3u);
    EXPECT_EQ(bls_governor_deadline(&gv.g, 0, 0), 21 * ms + 500);
}

bool in_flight_now = false;
int env_in_flight(void*, unsigned) { return in_flight_now; }

// A transition in flight (the policy's work_in_progress) is not second-guessed: the update
// asks nothing; the next one after it is over does.
TEST(schedutil, a_transition_in_flight_suppresses_the_evaluation)
{
    bls_gov_env ops = env_ops;
    ops.in_flight = env_in_flight;
    fake_env env;
    bls_governor g;
    const bls_governor_tunables t = defaults();
    bls_governor_init(&g, &bls_gov_schedutil, &t, &ops, &env);
    const bls_policy p = policy(200);
    ASSERT_EQ(bls_governor_set_policies(&g, &p, 1, 0), 0);
    env.util[0] = 512;
    in_flight_now = true;
    bls_governor_run(&g, 0, 10 * ms);
    EXPECT_TRUE(env.requests.empty());
    in_flight_now = false;
    bls_governor_run(&g, 0, 20 * ms);
    EXPECT_EQ(env.requests, (std::vector<unsigned>{800}));
}

TEST(governors, performance_powersave_and_userspace_set_once_or_never)
{
    governed perf(&bls_gov_performance, defaults(), 600);
    EXPECT_EQ(perf.env.requests, (std::vector<unsigned>{1200}));
    EXPECT_EQ(bls_governor_deadline(&perf.g, 0, 0), BLS_GOV_NO_DEADLINE);
    governed save(&bls_gov_powersave, defaults(), 600);
    EXPECT_EQ(save.env.requests, (std::vector<unsigned>{200}));
    governed user(&bls_gov_userspace, defaults(), 600);
    EXPECT_TRUE(user.env.requests.empty());
    EXPECT_EQ(bls_governor_find("interactive"), &bls_gov_interactive);
    EXPECT_EQ(bls_governor_find("fixed"), nullptr);
}

TEST(governors, time_in_state_counts_each_frequency_from_its_postchange)
{
    governed gv(&bls_gov_userspace, defaults(), 600);
    bls_governor_freq_changed(&gv.g, 0, 1000, 30 * ms);
    bls_governor_freq_changed(&gv.g, 0, 200, 50 * ms);
    bls_governor_freq_changed(&gv.g, 0, 200, 60 * ms); // no change
    const bls_policy& p = gv.g.policy[0];
    EXPECT_EQ(p.time_in_state_ns[2], 30 * ms); // 600
    EXPECT_EQ(p.time_in_state_ns[4], 20 * ms); // 1000
    EXPECT_EQ(p.freq_changes, 2u);
    EXPECT_EQ(p.cur_mhz, 200u);
}

} // namespace
