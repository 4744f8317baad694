// tests/workloads/bbench_test.cpp -- the browser and the music player, driven by hand: the test
// plays the kernel, calling next() at times it chooses, and checks each step and the measured
// load times against figures worked out below.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "blsim/workloads/audio.h"
#include "blsim/workloads/bbench.h"
#include "blsim/workloads/composite.h"

namespace {

using namespace blsim::workloads;

constexpr std::uint64_t ms = 1000000;

bbench_params one_page(int bursts)
{
    bbench_params p;
    p.pages = {{"page", bursts, 30, 20, 8, 2, 0.3}};
    p.iterations = 1;
    p.start_ms = 50;
    p.think_ms = 500;
    p.jitter_pct = 0;
    p.shuffle = false;
    return p;
}

enum { main_t, render_t, comp_t };

TEST(bbench, a_page_is_a_pipeline_of_bursts_and_loads_when_its_last_burst_is_shown)
{
    bbench b(one_page(2), 1, 10);
    ASSERT_EQ(b.ntasks(), 3u);
    EXPECT_EQ(b.info(main_t).name, "browser-main");
    EXPECT_EQ(b.info(comp_t).name, "browser-compositor");

    // Boot: the render thread and the compositor wait for work (events 10 and 11).
    step s = b.next(render_t, 0);
    EXPECT_EQ(s.kind, step::block);
    EXPECT_EQ(s.event, 10u);
    s = b.next(comp_t, 0);
    EXPECT_EQ(s.kind, step::block);
    EXPECT_EQ(s.event, 11u);
    // The main thread requests the page at 50 ms and waits 30 ms for its first resource.
    s = b.next(main_t, 0);
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 50 * ms);
    s = b.next(main_t, 50 * ms);
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 80 * ms);
    // Burst 1: 20 ms of script on the reference CPU, memory share 0.3.
    s = b.next(main_t, 80 * ms);
    EXPECT_EQ(s.kind, step::run);
    EXPECT_DOUBLE_EQ(s.ref_ns, 20e6);
    EXPECT_DOUBLE_EQ(s.mem_fraction, 0.3);
    EXPECT_EQ(s.working_set_kb, 512);
    // Done at 105 ms (a slower CPU): the render thread waits, so it is signalled...
    s = b.next(main_t, 105 * ms);
    EXPECT_EQ(s.kind, step::signal);
    EXPECT_EQ(s.event, 10u);
    // ...and the main thread goes on to wait for the second resource while it renders.
    s = b.next(main_t, 105 * ms);
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 135 * ms);
    s = b.next(render_t, 105 * ms);
    EXPECT_EQ(s.kind, step::run);
    EXPECT_DOUBLE_EQ(s.ref_ns, 8e6);
    // Rendered at 115 ms: the compositor waits, so it is signalled; the render thread then
    // finds no second burst yet and blocks.
    s = b.next(render_t, 115 * ms);
    EXPECT_EQ(s.kind, step::signal);
    EXPECT_EQ(s.event, 11u);
    s = b.next(render_t, 115 * ms);
    EXPECT_EQ(s.kind, step::block);
    s = b.next(comp_t, 115 * ms);
    EXPECT_EQ(s.kind, step::run);
    EXPECT_DOUBLE_EQ(s.ref_ns, 2e6);
    s = b.next(comp_t, 118 * ms); // burst 1 shown; not the last: wait for more
    EXPECT_EQ(s.kind, step::block);
    EXPECT_TRUE(b.loads().empty());

    // Burst 2: script from 135 to 160 ms, signal, then the main thread waits for the page.
    s = b.next(main_t, 135 * ms);
    EXPECT_EQ(s.kind, step::run);
    s = b.next(main_t, 160 * ms);
    EXPECT_EQ(s.kind, step::signal);
    s = b.next(main_t, 160 * ms);
    EXPECT_EQ(s.kind, step::block);
    EXPECT_EQ(s.event, 12u);
    s = b.next(render_t, 160 * ms);
    EXPECT_EQ(s.kind, step::run);
    s = b.next(render_t, 170 * ms);
    EXPECT_EQ(s.kind, step::signal);
    s = b.next(comp_t, 170 * ms);
    EXPECT_EQ(s.kind, step::run);
    // Shown at 173 ms: the page took 173 - 50 = 123 ms, and the main thread is told.
    s = b.next(comp_t, 173 * ms);
    EXPECT_EQ(s.kind, step::signal);
    EXPECT_EQ(s.event, 12u);
    ASSERT_EQ(b.loads().size(), 1u);
    EXPECT_EQ(b.loads()[0].name, "page");
    EXPECT_DOUBLE_EQ(b.loads()[0].load_s, 0.123);
    // The user reads it for 500 ms; one pass asked for: then the browser is done.
    s = b.next(main_t, 173 * ms);
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 673 * ms);
    s = b.next(main_t, 673 * ms);
    EXPECT_EQ(s.kind, step::exit);
}

TEST(bbench, a_burst_handed_over_while_the_next_stage_is_busy_is_kept_not_lost)
{
    // Two bursts whose script is done before the render thread has even asked for work: the
    // posts are counted (a kernel signal with no waiter would be lost).
    bbench b(one_page(2), 1);
    b.next(main_t, 0);
    b.next(main_t, 50 * ms);
    b.next(main_t, 80 * ms);
    step s = b.next(main_t, 100 * ms); // post 1: nobody waits yet, counted; on to the wait
    EXPECT_EQ(s.kind, step::sleep_until);
    b.next(main_t, 130 * ms);             // run burst 2
    s = b.next(main_t, 150 * ms);         // post 2, counted; then wait for the page
    EXPECT_EQ(s.kind, step::block);
    // The render thread now takes both without blocking (its posts to the compositor, which
    // has not asked yet, are counted too), then waits for more.
    EXPECT_EQ(b.next(render_t, 150 * ms).kind, step::run);
    EXPECT_EQ(b.next(render_t, 158 * ms).kind, step::run);
    EXPECT_EQ(b.next(render_t, 166 * ms).kind, step::block);
    // The compositor takes both; the second completes the page, and the main thread (blocked)
    // is signalled.
    EXPECT_EQ(b.next(comp_t, 166 * ms).kind, step::run);
    EXPECT_EQ(b.next(comp_t, 168 * ms).kind, step::run);
    EXPECT_EQ(b.next(comp_t, 170 * ms).kind, step::signal);
    ASSERT_EQ(b.loads().size(), 1u);
    EXPECT_DOUBLE_EQ(b.loads()[0].load_s, 0.120);
}

// A minimal kernel for a workload: one CPU as fast as the reference, FIFO event waiters,
// the earliest ready task first. Runs until every task exits or waits for ever.
void run_alone(workload& w)
{
    const unsigned n = w.ntasks();
    const std::uint64_t blocked = UINT64_MAX;
    std::vector<std::uint64_t> ready(n, 0);
    std::vector<int> waits_on(n, -1);
    std::vector<bool> gone(n, false);
    std::vector<std::vector<unsigned>> waiters(max_events);
    for (int guard = 0; guard < 1000000; guard++) {
        unsigned t = n;
        for (unsigned k = 0; k < n; k++)
            if (!gone[k] && ready[k] != blocked && (t == n || ready[k] < ready[t]))
                t = k;
        if (t == n)
            return;
        const std::uint64_t now = ready[t];
        const step s = w.next(t, now);
        switch (s.kind) {
        case step::run: ready[t] = now + static_cast<std::uint64_t>(s.ref_ns); break;
        case step::sleep_until:
        case step::spin_until: ready[t] = std::max(now, s.until_ns); break;
        case step::block:
            ready[t] = blocked;
            waiters[s.event].push_back(t);
            break;
        case step::signal:
        case step::broadcast:
            while (!waiters[s.event].empty()) {
                ready[waiters[s.event].front()] = now;
                waiters[s.event].erase(waiters[s.event].begin());
                if (s.kind == step::signal)
                    break;
            }
            break;
        case step::exit: gone[t] = true; break;
        }
    }
    FAIL() << "the workload never settled";
}

std::vector<std::string> page_order(std::uint64_t seed)
{
    bbench_params p;
    p.iterations = 1;
    bbench b(p, seed);
    run_alone(b);
    std::vector<std::string> names;
    for (const auto& l : b.loads())
        names.push_back(l.name);
    return names;
}

TEST(bbench, the_seed_decides_the_pages_order_and_the_same_seed_repeats_it)
{
    const std::vector<std::string> a = page_order(1), again = page_order(1), other = page_order(2);
    ASSERT_EQ(a.size(), 11u);
    EXPECT_EQ(a, again);
    EXPECT_NE(a, other);
    std::vector<std::string> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<std::string>{"amazon", "bbc", "cnn", "craigslist", "ebay", "espn", "google",
                                                "msn", "slashdot", "twitter", "youtube"}));
}

TEST(audio, a_frame_late_beyond_its_deadline_is_a_miss_and_the_next_keeps_the_hardware_clock)
{
    audio_params p;
    p.period_ms = 20;
    p.deadline_ms = 20;
    p.frame_work_us = 600;
    audio a(p);
    EXPECT_EQ(a.info(0).nice, -16);
    step s = a.next(0, 0); // frame 0 wakes at 0: decode it
    EXPECT_EQ(s.kind, step::run);
    EXPECT_DOUBLE_EQ(s.ref_ns, 600e3);
    s = a.next(0, 1 * ms); // done at 1 ms: on time; frame 1 at 20 ms
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 20 * ms);
    EXPECT_EQ(a.next(0, 20 * ms).kind, step::run);
    s = a.next(0, 43 * ms); // frame 1 due by 40 ms, done at 43: 3 ms late
    EXPECT_EQ(a.frames(), 2u);
    EXPECT_EQ(a.deadline_misses(), 1u);
    EXPECT_DOUBLE_EQ(a.max_lateness_ms(), 3.0);
    EXPECT_EQ(s.until_ns, 40 * ms); // frame 2 woke at 40 ms already: no drift
    EXPECT_EQ(a.next(0, 43 * ms).kind, step::run);
}

TEST(composite, numbers_the_parts_tasks_one_after_the_other)
{
    composite c;
    c.add(std::make_unique<bbench>(one_page(1), 1, 0));
    c.add(std::make_unique<audio>(audio_params{}));
    ASSERT_EQ(c.ntasks(), 4u);
    EXPECT_EQ(c.info(3).name, "audio-decoder");
    EXPECT_EQ(c.next(3, 0).kind, step::run);
    EXPECT_NE(find_part<audio>(c), nullptr);
    EXPECT_NE(find_part<bbench>(c), nullptr);
}

} // namespace
