// workloads/include/blsim/workloads/bbench.h -- a browser running BBench, page load and scroll.
//
// BBench as ARM's Workload Automation runs it (docs/workloads.md has the sources): a fixed list
// of sites visited in order, `iterations` times; each page is loaded, its load time measured
// up to its onload event, then after a settle time it is scrolled to the bottom in steps of
// `scroll.step_px`, one every `scroll.delay_ms`, and the next site is requested at once. The
// score is the geometric mean of the warm load times (every iteration but the first).
//
// Three threads, as the browser's: the main (WebCore) thread, which for each resource of a
// page reads it (block I/O on a cold load, the page cache after), parses it, runs its script
// and resolves its style and layout; the raster thread, which paints the tiles that changed;
// and the compositor, which draws the frame that shows them. A page's work is split between
// these phases by shares, and each phase has its own memory-stall fraction: time that runs at
// DRAM's speed on either core, so the A7:A15 speed ratio differs by phase. Every amount is a
// parameter; docs/workloads.md says where each default comes from (or that it is assumed).
// The jitter of each resource's amounts is drawn from the seed: the same seed gives the same
// run.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "blsim/workloads/step.h"

namespace blsim::workloads {

struct bbench_page {
    std::string name;
    int resources = 6;       // files read and processed one after another: the HTML, scripts, ...
    double work_ms = 200;    // the page load's CPU work in all phases, on the reference CPU
    double height_px = 3000; // the document's height: how far BBench scrolls
};

// One phase of a page load: its share of the page's work and its memory-stall fraction.
struct bbench_phase {
    double share = 0;
    double mem_fraction = 0;
};

struct bbench_phases {
    bbench_phase parse{0.05, 0.25};     // main thread: HTML tokenising, DOM building
    bbench_phase script{0.31, 0.15};    // main thread: JavaScript
    bbench_phase style{0.20, 0.35};     // main thread: CSS selector matching, style resolution
    bbench_phase layout{0.21, 0.30};    // main thread: box layout
    bbench_phase paint{0.19, 0.45};     // raster thread: software raster of the changed tiles
    bbench_phase composite{0.04, 0.60}; // compositor: drawing the frame
};

struct bbench_scroll {
    double settle_ms = 1000;   // from onload to the first scroll (none before the run's first page)
    double delay_ms = 2000;    // between two scroll steps
    double step_px = 500;      // each step scrolls this far
    double main_ms = 1;        // per step, reference-CPU work: the scroll event on the main thread
    double paint_ms = 8;       // the newly exposed strip's tiles (paint's memory fraction)
    double composite_ms = 3;   // the frame that shows it (composite's memory fraction)
};

struct bbench_params {
    std::vector<bbench_page> pages; // empty: BBench's nine sites (default_pages())
    int iterations = 2;             // passes over the pages; 0: until the run ends
    double start_ms = 50;           // the first request
    double io_cold_ms = 5;          // reading one resource from storage (the first iteration)
    double io_warm_ms = 0;          // ... from the page cache (later iterations)
    bbench_phases phases;
    bbench_scroll scroll;
    double jitter_pct = 20;         // each resource's amounts, uniformly within +- this
    bool shuffle = false;           // BBench visits its sites in a fixed order; true: a new
                                    // order each pass, drawn from the seed
    int main_working_set_kb = 512;  // data each thread touches per resource or step
    int raster_working_set_kb = 512;
    int composite_working_set_kb = 256;
    std::vector<int> cpus;          // the threads' affinity (empty: every CPU)
};

// The nine sites of BBench as Workload Automation runs it, with amounts that are our
// assumptions (docs/workloads.md).
std::vector<bbench_page> default_pages();

// How many scroll steps BBench takes on a page @height_px tall in steps of @step_px: it scrolls
// while more than a step remains below the viewport's top (bbench.js, scrollToBottom).
int bbench_scroll_steps(double height_px, double step_px);

class bbench : public workload {
public:
    // @event_base: the first of the 2 events it uses (a composite gives each part its own).
    bbench(bbench_params p, std::uint64_t seed, unsigned event_base = 0);

    static constexpr unsigned nevents = 2;

    unsigned ntasks() const override { return 3; }
    task_info info(unsigned task) const override;
    step next(unsigned task, std::uint64_t now_ns) override;

    // Results: each loaded page, in load order.
    struct page_load {
        std::string name;
        double load_s;
        int iteration; // 0: the first (cold) pass
    };
    const std::vector<page_load>& loads() const { return loads_; }
    // BBench's score: the geometric mean of the warm loads (every pass but the first), in
    // seconds; with no warm load yet, of the cold ones; 0 with none.
    double mean_latency_s() const;
    std::uint64_t scroll_steps() const { return scroll_steps_; }
    // When the browser finished its last pass (0: not yet).
    std::uint64_t done_ns() const { return done_ns_; }

private:
    enum thread_id { main_thread, raster_thread, compositor_thread };
    // Work handed to the raster thread: tiles to paint, and the frame that shows them.
    struct item {
        double paint_ns, composite_ns;
    };
    // A counting semaphore over one kernel event, with the items handed over: a post while no
    // one waits is kept (the kernel's signal with no waiter would be lost).
    struct channel {
        unsigned event = 0;
        std::vector<item> items; // items[head..] not yet taken
        std::size_t head = 0;
        bool waiting = false;
    };
    struct resource {
        double io_ns, parse_ns, script_ns, style_ns, layout_ns, paint_ns, composite_ns;
    };
    // A pipeline stage's state: 0 take an item (or block), 1 run it, 2 hand it on.
    struct stage_state {
        int phase = 0;
        item current{0, 0};
    };

    bool post(channel& c, item it, step& out);
    void start_page(std::uint64_t now_ns);
    double jitter(double v);
    step run(double ref_ns, double mem_fraction, int working_set_kb) const;
    step main_next(std::uint64_t now_ns);
    bool request_site(std::uint64_t now_ns, step& out);
    step resource_work();
    bool onload(std::uint64_t now_ns, step& out);
    step stage(stage_state& st, channel& in, channel* out);

    bbench_params p_;
    std::mt19937_64 rng_;
    std::vector<std::size_t> order_;
    std::size_t order_pos_ = 0;
    int pass_ = 0;
    bool first_page_ = true;
    std::size_t page_ = 0; // index into p_.pages
    std::vector<resource> resources_;
    std::uint64_t requested_ns_ = 0;
    int main_phase_ = 0, resource_ = 0, steps_left_ = 0;
    stage_state raster_, compositor_;
    channel to_raster_, to_compositor_;
    std::vector<page_load> loads_;
    std::uint64_t scroll_steps_ = 0;
    std::uint64_t done_ns_ = 0;
};

} // namespace blsim::workloads
