// tests/workloads/rtapp_test.cpp -- rt-app's execution model, driven by hand: the test plays
// the kernel, calling next() at times it chooses (a fast CPU finishes a run sooner than a
// slow one), and checks the steps and statistics against times worked out by hand.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "blsim/workloads/percentile.h"
#include "blsim/workloads/rtapp.h"

namespace {

using namespace blsim::workloads;

constexpr std::uint64_t ms = 1000000;
constexpr std::uint64_t us = 1000;

rtapp_event ev(rtapp_event::kind_t k, double v = 0, std::string ref = "", std::string mutex = "",
               bool absolute = false)
{
    rtapp_event e;
    e.kind = k;
    e.us = v;
    e.ref = std::move(ref);
    e.mutex = std::move(mutex);
    e.absolute = absolute;
    return e;
}

rtapp_thread thread(std::string name, std::vector<rtapp_event> events, long loop = -1, int instances = 1)
{
    rtapp_thread t;
    t.name = std::move(name);
    t.loop = loop;
    t.instances = instances;
    rtapp_phase ph;
    ph.events = std::move(events);
    t.phases.push_back(std::move(ph));
    return t;
}

rtapp_params doc(std::vector<rtapp_thread> threads, double duration_s = -1)
{
    rtapp_params p;
    p.duration_s = duration_s;
    p.threads = std::move(threads);
    return p;
}

void expect_run(const step& s, double ref_ns)
{
    EXPECT_EQ(s.kind, step::run);
    EXPECT_DOUBLE_EQ(s.ref_ns, ref_ns);
}

void expect_until(const step& s, step::kind_t k, std::uint64_t until)
{
    EXPECT_EQ(s.kind, k);
    EXPECT_EQ(s.until_ns, until);
}

void expect_event(const step& s, step::kind_t k, int event)
{
    EXPECT_EQ(s.kind, k);
    EXPECT_EQ(static_cast<int>(s.event), event);
}

// run 2000 us then a 10000 us timer, as rt-app's periodic thread.
rtapp periodic(bool absolute)
{
    return rtapp(doc({thread("p", {ev(rtapp_event::run, 2000), ev(rtapp_event::timer, 10000, "t", "", absolute)})}));
}

TEST(rtapp, absolute_timer_sleeps_to_the_period_and_catches_up_after_a_late_activation)
{
    rtapp w = periodic(true);
    // Activation 1 on a fast CPU: the run takes its 2 ms, the timer (0 + 10 ms) is 8 ms away.
    expect_run(w.next(0, 0), 2000 * us);
    expect_until(w.next(0, 2 * ms), step::sleep_until, 10 * ms);
    // Activation 2 on a slow CPU: 12.5 ms of run, past the wake-up at 20 ms by 2.5 ms. No
    // sleep: the next run is asked at once.
    expect_run(w.next(0, 10 * ms), 2000 * us);
    expect_run(w.next(0, 22500 * us), 2000 * us);
    // Activation 3, fast again: absolute, the next wake-up is still 20 + 10 = 30 ms.
    expect_until(w.next(0, 25 * ms), step::sleep_until, 30 * ms);

    const rtapp_thread_stats& st = w.stats()[0];
    EXPECT_EQ(st.name, "p-0");
    EXPECT_EQ(st.loops, 3u);
    EXPECT_EQ(st.slack_us, (std::vector<double>{8000, 0, 5000}));
    EXPECT_EQ(st.lateness_us, (std::vector<double>{0, 2500, 0}));
}

TEST(rtapp, relative_timer_counts_the_next_period_from_a_late_arrival)
{
    rtapp w = periodic(false);
    expect_run(w.next(0, 0), 2000 * us);
    expect_until(w.next(0, 2 * ms), step::sleep_until, 10 * ms);
    expect_run(w.next(0, 10 * ms), 2000 * us);
    expect_run(w.next(0, 22500 * us), 2000 * us); // late by 2.5 ms: the reference moves to now
    expect_until(w.next(0, 25 * ms), step::sleep_until, 32500 * us);
    EXPECT_EQ(w.stats()[0].slack_us, (std::vector<double>{8000, 0, 7500}));
    EXPECT_EQ(w.stats()[0].lateness_us, (std::vector<double>{0, 2500, 0}));
}

TEST(rtapp, runtime_spins_until_a_wall_time_and_sleep_sleeps)
{
    rtapp w(doc({thread("r", {ev(rtapp_event::runtime, 300), ev(rtapp_event::sleep, 700)}, 1)}));
    expect_until(w.next(0, 5 * ms), step::spin_until, 5 * ms + 300 * us);
    expect_until(w.next(0, 5 * ms + 300 * us), step::sleep_until, 6 * ms);
    EXPECT_EQ(w.next(0, 6 * ms).kind, step::exit);
    EXPECT_EQ(w.stats()[0].loops, 1u);
}

TEST(rtapp, loops_phases_then_the_thread_then_exits)
{
    rtapp_thread t;
    t.name = "l";
    t.loop = 2;
    rtapp_phase a, b;
    a.loop = 2;
    a.events = {ev(rtapp_event::run, 100)};
    b.loop = 1;
    b.events = {ev(rtapp_event::sleep, 50)};
    t.phases = {a, b};
    rtapp w(doc({t}));
    std::uint64_t now = 0;
    std::vector<step::kind_t> kinds;
    for (int i = 0; i < 7; i++) {
        const step s = w.next(0, now);
        kinds.push_back(s.kind);
        now += 100 * us;
    }
    EXPECT_EQ(kinds, (std::vector<step::kind_t>{step::run, step::run, step::sleep_until, step::run, step::run,
                                                step::sleep_until, step::exit}));
    EXPECT_EQ(w.stats()[0].loops, 2u);
    EXPECT_EQ(w.stats()[0].phase_loops, 6u);
}

TEST(rtapp, instances_are_named_as_rt_app_names_its_threads)
{
    rtapp_thread a = thread("a", {ev(rtapp_event::run, 10)}, 1, 2);
    a.cpus = {2, 3};
    a.nice = -4;
    rtapp_thread none = thread("none", {ev(rtapp_event::run, 10)}, 1, 0);
    rtapp w(doc({a, none, thread("b", {ev(rtapp_event::run, 10)}, 1)}));
    ASSERT_EQ(w.ntasks(), 3u);
    EXPECT_EQ(w.info(0).name, "a-0");
    EXPECT_EQ(w.info(1).name, "a-1");
    EXPECT_EQ(w.info(2).name, "b-2");
    EXPECT_EQ(w.info(1).cpus, (std::vector<int>{2, 3}));
    EXPECT_EQ(w.info(1).nice, -4);
    EXPECT_EQ(w.info(2).nice, 0);
}

TEST(rtapp, a_mutex_is_handed_over_in_the_order_its_waiters_blocked)
{
    auto user = [](std::string n) {
        return thread(std::move(n), {ev(rtapp_event::lock, 0, "m"), ev(rtapp_event::run, 1000),
                                     ev(rtapp_event::unlock, 0, "m"), ev(rtapp_event::sleep, 1000)});
    };
    rtapp w(doc({user("a"), user("b"), user("c")}));
    const int m = w.event_of(rtapp_event::lock, "m");
    ASSERT_EQ(m, 0);
    expect_run(w.next(0, 0), 1000 * us);                  // a takes m
    expect_event(w.next(1, 0), step::block, m);           // b queues
    expect_event(w.next(2, 10 * us), step::block, m);     // c queues behind b
    expect_event(w.next(0, 1 * ms), step::signal, m);     // a hands m to b
    expect_until(w.next(0, 1 * ms), step::sleep_until, 2 * ms);
    expect_event(w.next(0, 2 * ms), step::block, m);      // a is back: behind c, no barging
    expect_run(w.next(1, 1 * ms + 50 * us), 1000 * us);  // b, woken, owns m
    expect_event(w.next(1, 2 * ms + 50 * us), step::signal, m); // to c
    expect_until(w.next(1, 2 * ms + 50 * us), step::sleep_until, 3 * ms + 50 * us);
    expect_run(w.next(2, 2 * ms + 60 * us), 1000 * us);  // c runs
    expect_event(w.next(2, 3 * ms + 60 * us), step::signal, m); // to a
    expect_run(w.next(0, 3 * ms + 70 * us), 1000 * us);  // a runs
}

TEST(rtapp, the_last_arrival_at_a_barrier_releases_the_others)
{
    rtapp w(doc({thread("x", {ev(rtapp_event::run, 1000), ev(rtapp_event::barrier, 0, "b")}, 2),
                 thread("y", {ev(rtapp_event::run, 3000), ev(rtapp_event::barrier, 0, "b")}, 2, 2)}));
    const int b = w.event_of(rtapp_event::barrier, "b");
    ASSERT_GE(b, 0);
    for (unsigned t = 0; t < 3; t++)
        EXPECT_EQ(w.next(t, 0).kind, step::run);
    expect_event(w.next(0, 1 * ms), step::block, b);
    expect_event(w.next(1, 3 * ms), step::block, b);
    expect_event(w.next(2, 3100 * us), step::broadcast, b); // 3 users: y counts its 2 instances
    EXPECT_EQ(w.next(2, 3100 * us).kind, step::run);         // the last goes on, second loop
    EXPECT_EQ(w.next(0, 3200 * us).kind, step::run);         // the woken ones too
    EXPECT_EQ(w.next(1, 3200 * us).kind, step::run);
    // Second round: the count starts again.
    expect_event(w.next(0, 4200 * us), step::block, b);
    expect_event(w.next(2, 6100 * us), step::block, b);
    expect_event(w.next(1, 6200 * us), step::broadcast, b);
    EXPECT_EQ(w.next(1, 6200 * us).kind, step::exit);
    EXPECT_EQ(w.stats()[1].loops, 2u);
}

TEST(rtapp, wait_releases_its_mutex_and_takes_it_back_when_signalled)
{
    rtapp w(doc({thread("consumer", {ev(rtapp_event::lock, 0, "m"), ev(rtapp_event::wait, 0, "c", "m"),
                                     ev(rtapp_event::unlock, 0, "m"), ev(rtapp_event::run, 100)}),
                 thread("producer", {ev(rtapp_event::run, 1000), ev(rtapp_event::lock, 0, "m"),
                                     ev(rtapp_event::signal, 0, "c"), ev(rtapp_event::run, 500),
                                     ev(rtapp_event::unlock, 0, "m"), ev(rtapp_event::sleep, 10000)})}));
    const int m = w.event_of(rtapp_event::lock, "m");
    const int c = w.event_of(rtapp_event::wait, "c");
    EXPECT_EQ(m, 0); // in order of first use: the consumer's lock, then its wait's condition
    EXPECT_EQ(c, 1);
    // The consumer takes m, then waits: m is free again (no one queued: no signal step).
    expect_event(w.next(0, 0), step::block, c);
    expect_run(w.next(1, 0), 1000 * us);
    expect_event(w.next(1, 1 * ms), step::signal, c); // m was free: the producer has it
    expect_run(w.next(1, 1 * ms), 500 * us);
    // Woken while the producer holds m: it queues for it.
    expect_event(w.next(0, 1100 * us), step::block, m);
    expect_event(w.next(1, 1500 * us), step::signal, m); // handed over
    expect_until(w.next(1, 1500 * us), step::sleep_until, 11500 * us);
    expect_run(w.next(0, 1600 * us), 100 * us); // it owned m, unlocked it, runs
    // Next loop: lock (free), wait: blocks on c again.
    expect_event(w.next(0, 1700 * us), step::block, c);
}

TEST(rtapp, wait_hands_its_mutex_to_a_queued_thread_before_blocking)
{
    rtapp w(doc({thread("w", {ev(rtapp_event::lock, 0, "m"), ev(rtapp_event::run, 100),
                              ev(rtapp_event::wait, 0, "c", "m"), ev(rtapp_event::unlock, 0, "m")}),
                 thread("q", {ev(rtapp_event::lock, 0, "m"), ev(rtapp_event::broad, 0, "c"),
                              ev(rtapp_event::unlock, 0, "m"), ev(rtapp_event::sleep, 1000)})}));
    const int m = w.event_of(rtapp_event::lock, "m");
    const int c = w.event_of(rtapp_event::wait, "c");
    expect_run(w.next(0, 0), 100 * us);
    expect_event(w.next(1, 0), step::block, m);
    // Two steps at one instant: hand m to q, then block on c.
    expect_event(w.next(0, 100 * us), step::signal, m);
    expect_event(w.next(0, 100 * us), step::block, c);
    expect_event(w.next(1, 150 * us), step::broadcast, c); // q was woken owning m
    // q unlocks m with no one queued (w has not asked for it yet), then sleeps.
    expect_until(w.next(1, 150 * us), step::sleep_until, 1150 * us);
    // w, woken, takes m back (free), unlocks it, loops: takes it again and runs.
    expect_run(w.next(0, 200 * us), 100 * us);
    expect_event(w.next(1, 1150 * us), step::block, m); // w holds m: q queues
}

TEST(rtapp, global_duration_cuts_sleeps_and_ends_every_thread)
{
    rtapp w(doc({thread("s", {ev(rtapp_event::run, 1000), ev(rtapp_event::sleep, 600000)}),
                 thread("blocked", {ev(rtapp_event::lock, 0, "m"), ev(rtapp_event::wait, 0, "never", "m"),
                                    ev(rtapp_event::unlock, 0, "m")})},
                1));
    const int never = w.event_of(rtapp_event::wait, "never");
    const int m = w.event_of(rtapp_event::lock, "m");
    expect_run(w.next(0, 0), 1000 * us);
    expect_event(w.next(1, 0), step::block, never);
    expect_until(w.next(0, 1 * ms), step::sleep_until, 601 * ms);
    expect_run(w.next(0, 601 * ms), 1000 * us);
    expect_until(w.next(0, 602 * ms), step::sleep_until, 1000 * ms); // cut at the end (1 s)
    // The end: the first to stop wakes every event's waiters, lowest event first, then exits.
    std::vector<int> woken;
    step s = w.next(0, 1000 * ms);
    while (s.kind == step::broadcast) {
        woken.push_back(static_cast<int>(s.event));
        s = w.next(0, 1000 * ms);
    }
    EXPECT_EQ(s.kind, step::exit);
    EXPECT_EQ(woken, (std::vector<int>{std::min(never, m), std::max(never, m)}));
    EXPECT_EQ(w.next(1, 1000 * ms + 5 * us).kind, step::exit);
    EXPECT_EQ(w.stats()[0].loops, 2u); // the second one's sleep, cut, still ended it
    EXPECT_EQ(w.stats()[1].loops, 0u);
}

TEST(rtapp, a_run_in_progress_at_the_end_finishes_then_the_thread_stops)
{
    rtapp w(doc({thread("r", {ev(rtapp_event::run, 5000), ev(rtapp_event::runtime, 5000)})}, 1));
    expect_run(w.next(0, 0), 5000 * us);
    expect_until(w.next(0, 997 * ms), step::spin_until, 1000 * ms); // runtime cut at the end
    EXPECT_EQ(w.next(0, 1000 * ms).kind, step::exit);                 // no event: nothing to wake
}

TEST(rtapp, a_shared_timer_advances_for_each_user_a_unique_one_per_instance)
{
    rtapp shared(doc({thread("s", {ev(rtapp_event::timer, 10000, "t")}, 1, 2)}));
    expect_until(shared.next(0, 0), step::sleep_until, 10 * ms);
    expect_until(shared.next(1, 0), step::sleep_until, 20 * ms);
    rtapp unique(doc({thread("u", {ev(rtapp_event::timer, 10000, "unique")}, 1, 2)}));
    expect_until(unique.next(0, 0), step::sleep_until, 10 * ms);
    expect_until(unique.next(1, 0), step::sleep_until, 10 * ms);
}

TEST(rtapp, delay_postpones_the_start_and_the_timers_reference)
{
    rtapp_thread t = thread("d", {ev(rtapp_event::timer, 4000, "t"), ev(rtapp_event::run, 10)});
    t.delay_us = 3000;
    rtapp w(doc({t}));
    expect_until(w.next(0, 0), step::sleep_until, 3 * ms);
    expect_until(w.next(0, 3 * ms), step::sleep_until, 7 * ms);
}

TEST(rtapp, events_are_allocated_from_the_base_and_counted)
{
    rtapp_params p = doc({thread("a", {ev(rtapp_event::lock, 0, "x"), ev(rtapp_event::signal, 0, "x"),
                                       ev(rtapp_event::unlock, 0, "x"), ev(rtapp_event::barrier, 0, "x"),
                                       ev(rtapp_event::timer, 1000, "x")})});
    EXPECT_EQ(rtapp_nevents(p), 3u); // a mutex, a condition and a barrier named x; no timer
    rtapp w(p, 10);
    EXPECT_EQ(w.nevents(), 3u);
    EXPECT_EQ(w.event_of(rtapp_event::lock, "x"), 10);
    EXPECT_EQ(w.event_of(rtapp_event::signal, "x"), 11);
    EXPECT_EQ(w.event_of(rtapp_event::barrier, "x"), 12);
    EXPECT_EQ(w.event_of(rtapp_event::lock, "y"), -1);
    EXPECT_THROW(rtapp(p, max_events - 2), std::invalid_argument); // 3 from max_events - 2: one too many
    EXPECT_NO_THROW(rtapp(p, max_events - 3));

    std::vector<rtapp_event> many;
    for (unsigned i = 0; i < max_events + 1; i++)
        many.push_back(ev(rtapp_event::signal, 0, "c" + std::to_string(i)));
    many.push_back(ev(rtapp_event::run, 10));
    EXPECT_THROW(rtapp(doc({thread("m", many)})), std::invalid_argument);
}

TEST(rtapp, percentile_is_the_nearest_rank)
{
    const std::vector<double> v = {5, 1, 4, 2, 3, 10, 6, 7, 8, 9};
    EXPECT_EQ(percentile(v, 50), 5);
    EXPECT_EQ(percentile(v, 95), 10);
    EXPECT_EQ(percentile(v, 100), 10);
    EXPECT_EQ(percentile(v, 0), 1);
    EXPECT_EQ(percentile({}, 50), 0);
}

} // namespace

// rt-app's log (--rtapp-log), the test playing the kernel: run 2000 us, then a relative
// 10000 us timer. Every column worked out by hand from the times next() is called at.
TEST(rtapp_log, a_periodic_thread_logs_one_row_per_period_as_rt_app_computes_it)
{
    rtapp_params p = doc({thread("p", {ev(rtapp_event::run, 2000), ev(rtapp_event::timer, 10000, "t")})});
    p.log = true;
    rtapp w(p);
    // Period 1: the run takes its 2 ms (t_zero 1 ms, the thread's first call); the timer
    // (1 + 10 ms) is 8 ms away: slack 8000; the thread runs again 30.4 us after it.
    expect_run(w.next(0, 1 * ms), 2000 * us);
    expect_until(w.next(0, 3 * ms), step::sleep_until, 11 * ms);
    // Period 2, on a slower CPU: 4 ms of run, the timer at 21 ms is 5.9696 ms away (5970
    // rounded); woken on time.
    expect_run(w.next(0, 11 * ms + 30400), 2000 * us);
    expect_until(w.next(0, 15 * ms + 30400), step::sleep_until, 21 * ms);
    // Period 3: 12 ms of run, 2 ms past the timer at 31 ms: slack -2000, no sleep, wu_lat 0
    // (rt-app resets it), and the next period starts at once (relative: from 33 ms).
    expect_run(w.next(0, 21 * ms), 2000 * us);
    expect_run(w.next(0, 33 * ms), 2000 * us);
    const std::vector<rtapp_log_row>& log = w.stats()[0].log;
    ASSERT_EQ(log.size(), 3u);
    auto expect_row = [](const rtapp_log_row& r, std::uint64_t run, std::uint64_t period, std::uint64_t start,
                         std::int64_t slack, std::uint64_t wu_lat) {
        EXPECT_EQ(r.idx, 0u);
        EXPECT_EQ(r.perf, 2000u); // 2000 us at the default 1 ns per loop
        EXPECT_EQ(r.run_us, run);
        EXPECT_EQ(r.period_us, period);
        EXPECT_EQ(r.start_us, start);
        EXPECT_EQ(r.end_us, start + period);
        EXPECT_EQ(r.rel_st_us, start - 1000);
        EXPECT_EQ(r.slack_us, slack);
        EXPECT_EQ(r.c_duration_us, 2000u);
        EXPECT_EQ(r.c_period_us, 10000u);
        EXPECT_EQ(r.wu_lat_us, wu_lat);
    };
    expect_row(log[0], 2000, 10030, 1000, 8000, 30);  // 1000 -> 11030.4: 10030
    expect_row(log[1], 4000, 9970, 11030, 5970, 0);   // 11030.4 -> 21000: 9969.6
    expect_row(log[2], 12000, 12000, 21000, -2000, 0);
    EXPECT_EQ(w.stats()[0].log_file, "rt-app-p-0.log");

    // rt-app's text: its header, its widths.
    EXPECT_EQ(rtapp_log_text({log[2]}),
              "#idx     perf      run   period           start             end          rel_st      slack "
              "c_duration   c_period     wu_lat\n"
              "   0     2000    12000    12000           21000           33000           20000      -2000 "
              "      2000      10000          0\n");
}

// perf counts the document's calibration (ns per loop); two timers in a period: slack is the
// last one's, or their sum with cumulative_slack, and the wake-up latencies add up; runtime
// counts in c_duration and run; the name prefix is log_basename.
TEST(rtapp_log, calibration_cumulative_slack_runtime_and_basename)
{
    for (bool cumulative : {false, true}) {
        rtapp_params p = doc({thread("q", {ev(rtapp_event::run, 1000), ev(rtapp_event::timer, 4000, "a"),
                                           ev(rtapp_event::runtime, 100), ev(rtapp_event::timer, 6000, "b")})});
        p.log = true;
        p.calib_ns_per_loop = 7;
        p.cumulative_slack = cumulative;
        p.log_basename = "uc";
        rtapp w(p);
        expect_run(w.next(0, 0), 1000 * us);
        expect_until(w.next(0, 1 * ms), step::sleep_until, 4 * ms); // slack 3000
        expect_until(w.next(0, 4 * ms + 10 * us), step::spin_until, 4 * ms + 110 * us);
        expect_until(w.next(0, 4 * ms + 110 * us), step::sleep_until, 6 * ms); // slack 1890
        expect_run(w.next(0, 6 * ms + 5 * us), 1000 * us);
        const std::vector<rtapp_log_row>& log = w.stats()[0].log;
        ASSERT_EQ(log.size(), 1u) << cumulative;
        // perf: 1000 / 7 = 142, and the runtime's 4 bursts of 32 us of floor(32 / 7) = 4: 158.
        EXPECT_EQ(log[0].perf, 158u);
        EXPECT_EQ(log[0].run_us, 1100u);
        EXPECT_EQ(log[0].period_us, 6005u);
        EXPECT_EQ(log[0].slack_us, cumulative ? 4890 : 1890);
        EXPECT_EQ(log[0].c_duration_us, 1100u);
        EXPECT_EQ(log[0].c_period_us, 10000u);
        EXPECT_EQ(log[0].wu_lat_us, 15u);
        EXPECT_EQ(w.stats()[0].log_file, "uc-q-0.log");
    }
}

// The iteration the use case's end falls in is not logged (rt-app logs nothing once its
// shutdown began), and keeping the log changes no step.
TEST(rtapp_log, the_end_cuts_the_last_period_and_the_log_changes_no_step)
{
    rtapp_params p = doc({thread("p", {ev(rtapp_event::run, 2000), ev(rtapp_event::timer, 10000, "t")})}, 0.025);
    rtapp_params quiet = p;
    p.log = true;
    rtapp logged(p), plain(quiet);
    const std::uint64_t times[] = {0, 2 * ms, 10 * ms, 12 * ms, 20 * ms, 22 * ms, 25 * ms, 25 * ms, 25 * ms};
    for (std::uint64_t t : times) {
        const step a = logged.next(0, t), b = plain.next(0, t);
        EXPECT_EQ(a.kind, b.kind) << t;
        EXPECT_EQ(a.until_ns, b.until_ns) << t;
        EXPECT_DOUBLE_EQ(a.ref_ns, b.ref_ns) << t;
    }
    // Periods 1 and 2 are whole; the third's sleep is cut at 25 ms, the end.
    ASSERT_EQ(logged.stats()[0].log.size(), 2u);
    EXPECT_EQ(logged.stats()[0].log[1].start_us, 10000u);
    EXPECT_TRUE(plain.stats()[0].log.empty());
    EXPECT_TRUE(plain.stats()[0].log_file.empty());
}

namespace {

TEST(rtapp, mem_is_stores_over_the_buffer_and_iorun_a_write_per_buffer)
{
    // mem 100000 bytes with a 65536-byte buffer: a full pass then 34464 bytes, all from the
    // start, so 64 KiB are touched (the working set, written). The stores at 16 bytes a
    // cycle of the 1200 MHz reference: 6250 cycles, 5208.33 ns of reference work. iorun
    // 200000 bytes: four write(2)s of the buffer to /dev/null, 1 us each.
    rtapp_event mem = ev(rtapp_event::mem), io = ev(rtapp_event::iorun);
    mem.bytes = 100000;
    io.bytes = 200000;
    rtapp_params p = doc({thread("m", {mem, io}, 1)});
    p.mem_buffer_bytes = 65536;
    p.ref_mhz = 1200;
    rtapp w(p);
    const step s = w.next(0, 0);
    expect_run(s, 100000.0 / 16 / 1.2);
    EXPECT_EQ(s.working_set_kb, 64);
    EXPECT_EQ(s.write_fraction, 1.0);
    EXPECT_EQ(s.mem_fraction, 0.0);
    expect_run(w.next(0, 10 * us), 4000.0);
    EXPECT_EQ(w.next(0, 20 * us).kind, step::exit);
    // Without the reference clock (a workload built outside a scenario), refused.
    p.ref_mhz = 0;
    EXPECT_THROW(rtapp{p}, std::invalid_argument);
}

} // namespace

namespace {

TEST(rtapp, iorun_to_a_block_device_waits_in_io_for_its_bytes_at_the_devices_rate)
{
    // 200000 bytes, a 65536-byte buffer (4 writes), 20 MB/s and 100 us a write: 10 ms + 400 us
    // in I/O wait from the event's start, then the four system calls (4 us of work).
    rtapp_event io = ev(rtapp_event::iorun);
    io.bytes = 200000;
    rtapp_params p = doc({thread("w", {io}, 1)});
    p.mem_buffer_bytes = 65536;
    p.ref_mhz = 1200;
    p.io_null = false;
    p.io_bytes_per_ns = 0.02;
    p.io_latency_ns = 100000;
    rtapp w(p);
    const step s = w.next(0, 1 * ms);
    expect_until(s, step::sleep_until, 1 * ms + 10400 * us);
    EXPECT_TRUE(s.io);
    expect_run(w.next(0, 1 * ms + 10400 * us), 4000.0);
}

} // namespace
