// tests/workloads/bbench_test.cpp -- the browser and the music player, driven by hand: the test
// plays the kernel, calling next() at times it chooses, and checks each step and the measured
// load times against figures worked out below.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "blsim/workloads/audio.h"
#include "blsim/workloads/bbench.h"
#include "blsim/workloads/composite.h"

namespace {

using namespace blsim::workloads;

constexpr std::uint64_t ms = 1000000;

// One page of @resources resources, 100 ms of work each, 1800 px tall (two scroll steps of
// 500 px: 1800 - 500 > 500 and 1800 - 1000 > 500, not 1800 - 1500), read in 5 ms cold.
bbench_params one_page(int resources)
{
    bbench_params p;
    p.pages = {{"page", resources, 100.0 * resources, 1800}};
    p.iterations = 1;
    p.start_ms = 50;
    p.io_cold_ms = 5;
    p.jitter_pct = 0;
    return p;
}

enum { main_t, raster_t, comp_t };

// The main thread's run steps for one resource of 100 ms of work: parse 5 %, script 31 %,
// style 20 %, layout 21 % (the rest is the raster thread's and the compositor's).
void expect_resource(bbench& b, std::uint64_t& now)
{
    const double ms_ = 1e6;
    const struct {
        double ref_ns, mem;
    } phases[] = {{5 * ms_, 0.25}, {31 * ms_, 0.15}, {20 * ms_, 0.35}, {21 * ms_, 0.30}};
    for (const auto& ph : phases) {
        const step s = b.next(main_t, now);
        ASSERT_EQ(s.kind, step::run);
        EXPECT_NEAR(s.ref_ns, ph.ref_ns, 1e-6);
        EXPECT_DOUBLE_EQ(s.mem_fraction, ph.mem);
        EXPECT_EQ(s.working_set_kb, 512);
        now += 10 * ms; // the kernel says when each is done
    }
}

TEST(bbench, a_page_reads_and_processes_its_resources_then_scrolls_and_its_onload_ends_the_load)
{
    bbench b(one_page(2), 1, 10);
    ASSERT_EQ(b.ntasks(), 3u);
    EXPECT_EQ(b.info(main_t).name, "browser-main");
    EXPECT_EQ(b.info(raster_t).name, "browser-raster");
    EXPECT_EQ(b.info(comp_t).name, "browser-compositor");

    // Boot: the raster thread and the compositor wait for work (events 10 and 11).
    step s = b.next(raster_t, 0);
    EXPECT_EQ(s.kind, step::block);
    EXPECT_EQ(s.event, 10u);
    s = b.next(comp_t, 0);
    EXPECT_EQ(s.kind, step::block);
    EXPECT_EQ(s.event, 11u);
    // The main thread requests the page at 50 ms and reads its first resource from storage:
    // 5 ms of block I/O.
    s = b.next(main_t, 0);
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 50 * ms);
    EXPECT_FALSE(s.io);
    s = b.next(main_t, 50 * ms);
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 55 * ms);
    EXPECT_TRUE(s.io);
    std::uint64_t now = 55 * ms;
    expect_resource(b, now); // to 95 ms
    // Its tiles go to the raster thread, which waits: it is signalled...
    s = b.next(main_t, now);
    EXPECT_EQ(s.kind, step::signal);
    EXPECT_EQ(s.event, 10u);
    // ...and the main thread reads the second resource while the first is painted: 19 ms of
    // paint (memory 0.45), then a frame of 4 ms (0.60) for the compositor.
    s = b.next(main_t, now);
    EXPECT_EQ(s.until_ns, 100 * ms);
    s = b.next(raster_t, now);
    EXPECT_EQ(s.kind, step::run);
    EXPECT_NEAR(s.ref_ns, 19e6, 1e-6);
    EXPECT_DOUBLE_EQ(s.mem_fraction, 0.45);
    s = b.next(raster_t, 120 * ms);
    EXPECT_EQ(s.kind, step::signal);
    EXPECT_EQ(s.event, 11u);
    EXPECT_EQ(b.next(raster_t, 120 * ms).kind, step::block);
    s = b.next(comp_t, 120 * ms);
    EXPECT_EQ(s.kind, step::run);
    EXPECT_NEAR(s.ref_ns, 4e6, 1e-6);
    EXPECT_DOUBLE_EQ(s.mem_fraction, 0.60);
    EXPECT_EQ(b.next(comp_t, 125 * ms).kind, step::block);

    now = 100 * ms;
    expect_resource(b, now); // to 140 ms
    // The last resource processed: its tiles are kept for the raster thread (busy? no: it
    // blocked, so it is signalled) and onload fires: the page took 140 - 50 = 90 ms.
    EXPECT_EQ(b.next(main_t, now).kind, step::signal);
    EXPECT_TRUE(b.loads().empty());
    // The run's first page scrolls without settling: 2 steps of 500 px, 2 s apart, each an
    // event on the main thread (1 ms), tiles (8 ms) and a frame (3 ms).
    s = b.next(main_t, now);
    ASSERT_EQ(b.loads().size(), 1u);
    EXPECT_EQ(b.loads()[0].name, "page");
    EXPECT_EQ(b.loads()[0].iteration, 0);
    EXPECT_DOUBLE_EQ(b.loads()[0].load_s, 0.090);
    EXPECT_EQ(s.kind, step::sleep_until);
    EXPECT_EQ(s.until_ns, 2140 * ms);
    s = b.next(main_t, 2140 * ms);
    EXPECT_EQ(s.kind, step::run);
    EXPECT_DOUBLE_EQ(s.ref_ns, 1e6);
    s = b.next(main_t, 2141 * ms); // the strip's tiles: the raster thread still has the
    EXPECT_EQ(s.kind, step::sleep_until); // last resource's to take, so it is not signalled
    EXPECT_EQ(s.until_ns, 4141 * ms);
    EXPECT_EQ(b.next(main_t, 4141 * ms).kind, step::run);
    s = b.next(main_t, 4142 * ms);
    EXPECT_EQ(s.kind, step::exit); // at the bottom, one pass asked for: done
    EXPECT_EQ(b.scroll_steps(), 2u);
    EXPECT_EQ(b.done_ns(), 4142 * ms);
    // The raster thread takes what was handed to it, in order.
    EXPECT_NEAR(b.next(raster_t, 4142 * ms).ref_ns, 19e6, 1e-6);
    EXPECT_EQ(b.next(raster_t, 4161 * ms).kind, step::signal);
    EXPECT_NEAR(b.next(raster_t, 4161 * ms).ref_ns, 8e6, 1e-6);
}

TEST(bbench, scroll_steps_are_what_bbench_js_takes)
{
    // bbench.js checks H - 500 k after its k-th look (k = 1, 2, ...) and scrolls while that
    // exceeds 500: steps k = 1 .. while H - 500 k > 500, ceil(H / 500) - 2 of them above 1000 px.
    EXPECT_EQ(bbench_scroll_steps(900, 500), 0);
    EXPECT_EQ(bbench_scroll_steps(1000, 500), 0);
    EXPECT_EQ(bbench_scroll_steps(1001, 500), 1);
    EXPECT_EQ(bbench_scroll_steps(1800, 500), 2);
    EXPECT_EQ(bbench_scroll_steps(2200, 500), 3);
    EXPECT_EQ(bbench_scroll_steps(5600, 500), 10);
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
        case step::affinity: break; // BBench pins nothing
        case step::yield: break;    // nor yields
        case step::fork: break;     // nor forks
        case step::move_group: break; // nor has groups
        }
    }
    FAIL() << "the workload never settled";
}

TEST(bbench, the_score_is_the_geometric_mean_of_the_warm_loads)
{
    // Two pages of one resource, 100 and 200 ms of work, too short to scroll; each thread at
    // the reference CPU's speed (run_alone): the main thread's phases are 77 % of the work.
    bbench_params p = one_page(1);
    p.pages = {{"a", 1, 100, 0}, {"b", 1, 200, 0}};
    p.iterations = 2;
    bbench b(p, 1);
    run_alone(b);
    ASSERT_EQ(b.loads().size(), 4u);
    // Pass 0 reads each resource for 5 ms: 82 and 159 ms. Pass 1 from the page cache: 77, 154.
    const double expected[] = {0.082, 0.159, 0.077, 0.154};
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(b.loads()[i].iteration, i / 2);
        EXPECT_NEAR(b.loads()[i].load_s, expected[i], 1e-12) << i;
    }
    EXPECT_NEAR(b.mean_latency_s(), std::sqrt(0.077 * 0.154), 1e-12);
    // Done when b's warm load has settled: 50 + 82 + 159 + 1000 (b, cold) + 77 + 1000 (a) + 154
    // + 1000 (b; the run's first page alone does not settle).
    EXPECT_EQ(b.done_ns(), (50 + 82 + 159 + 1000 + 77 + 1000 + 154 + 1000) * ms);
}

std::vector<std::string> page_order(std::uint64_t seed, bool shuffle)
{
    bbench_params p;
    p.iterations = 1;
    p.shuffle = shuffle;
    bbench b(p, seed);
    run_alone(b);
    std::vector<std::string> names;
    for (const auto& l : b.loads())
        names.push_back(l.name);
    return names;
}

TEST(bbench, the_sites_in_bbench_order_or_an_order_the_seed_draws)
{
    const std::vector<std::string> bbench_order = {"amazon", "bbc", "cnn", "craigslist", "ebay",
                                                   "google", "msn", "slashdot", "twitter"};
    EXPECT_EQ(page_order(1, false), bbench_order);
    EXPECT_EQ(page_order(2, false), bbench_order);
    const std::vector<std::string> a = page_order(1, true), again = page_order(1, true), other = page_order(2, true);
    EXPECT_EQ(a, again);
    EXPECT_NE(a, other);
    std::vector<std::string> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, bbench_order);
}

TEST(audio, a_frame_late_beyond_its_period_is_a_miss_and_the_next_keeps_the_hardware_clock)
{
    audio_params p;
    p.decoder = {20, 600, 0.1, -2};
    audio a(p);
    EXPECT_EQ(a.info(0).name, "audio-decoder");
    EXPECT_EQ(a.info(0).nice, -2);
    EXPECT_EQ(a.info(1).name, "audio-mixer");
    EXPECT_EQ(a.info(1).nice, -19);
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
    EXPECT_EQ(a.deadline_misses(0), 1u);
    EXPECT_DOUBLE_EQ(a.max_lateness_ms(), 3.0);
    EXPECT_EQ(s.until_ns, 40 * ms); // frame 2 woke at 40 ms already: no drift
    EXPECT_EQ(a.next(0, 43 * ms).kind, step::run);
}

TEST(audio, the_mixer_wakes_every_hardware_buffer_on_its_own_clock)
{
    audio a(audio_params{});
    // Defaults: the mixer's 60 us every 1024 frames at 48 kHz (21.333 ms), the decoder's
    // 280 us every MP3 frame (26.122 ms).
    step s = a.next(1, 0);
    EXPECT_EQ(s.kind, step::run);
    EXPECT_DOUBLE_EQ(s.ref_ns, 60e3);
    EXPECT_DOUBLE_EQ(s.mem_fraction, 0.3);
    s = a.next(1, 100000);
    EXPECT_EQ(s.until_ns, 21333000u);
    EXPECT_DOUBLE_EQ(a.next(0, 0).ref_ns, 280e3);
    EXPECT_EQ(a.next(0, 300000).until_ns, 26122000u);
    EXPECT_EQ(a.frames(1), 1u);
    EXPECT_EQ(a.frames(), 2u);
}

TEST(composite, numbers_the_parts_tasks_one_after_the_other)
{
    composite c;
    c.add(std::make_unique<bbench>(one_page(1), 1, 0));
    c.add(std::make_unique<audio>(audio_params{}));
    ASSERT_EQ(c.ntasks(), 5u);
    EXPECT_EQ(c.info(3).name, "audio-decoder");
    EXPECT_EQ(c.info(4).name, "audio-mixer");
    EXPECT_EQ(c.next(3, 0).kind, step::run);
    EXPECT_NE(find_part<audio>(c), nullptr);
    EXPECT_NE(find_part<bbench>(c), nullptr);
}

} // namespace
