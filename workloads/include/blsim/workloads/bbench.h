// workloads/include/blsim/workloads/bbench.h -- a browser loading web pages, BBench-like.
//
// Three threads, as a browser's: the main thread (network and disk waits, then parsing and
// script for each resource that arrives), the render thread (style, layout, paint of what
// the main thread produced) and the compositor (the frame that shows it). A page is a number
// of bursts; each burst is one resource: the main thread waits for it, works on it, and hands
// it to the render thread, which hands it to the compositor, while the main thread already
// waits for the next resource (a pipeline). The page is loaded when the compositor has shown
// its last burst: its load time runs from the request to that point. Then the user looks at
// the page for a while (think_ms) and the next page is requested.
//
// Every amount is a parameter; docs/workloads.md says where each default comes from. The
// order of the pages and each burst's amounts (within +-jitter_pct) are drawn from the seed:
// the same seed gives the same pages, bursts and order.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "blsim/workloads/step.h"

namespace blsim::workloads {

struct bbench_page {
    std::string name;
    int bursts = 6;            // resources that arrive one after another
    double net_ms = 30;        // wait for each resource (network, disk): the main thread blocks
    double script_ms = 20;     // main thread, per burst: parsing and script, reference-CPU ms
    double render_ms = 8;      // render thread, per burst: style, layout, paint
    double composite_ms = 2;   // compositor, per burst
    double mem_fraction = 0.3; // share of the work that is memory stall
};

struct bbench_params {
    std::vector<bbench_page> pages; // empty: the eleven BBench sites (default_pages())
    int iterations = 0;             // passes over the pages; 0: until the run ends
    double start_ms = 50;           // first request
    double think_ms = 500;          // between a page's load and the next request
    double jitter_pct = 20;         // each burst's amounts, uniformly within +- this
    bool shuffle = true;            // each pass visits the pages in an order drawn from the seed
    int main_working_set_kb = 512;  // data each thread touches per burst
    int render_working_set_kb = 512;
    int composite_working_set_kb = 256;
    std::vector<int> cpus;          // the threads' affinity (empty: every CPU)
};

// The eleven sites of BBench (Gutierrez et al., IISWC 2011), with amounts that are our
// assumptions (docs/workloads.md).
std::vector<bbench_page> default_pages();

class bbench : public workload {
public:
    // @event_base: the first of the 3 events it uses (a composite gives each part its own).
    bbench(bbench_params p, std::uint64_t seed, unsigned event_base = 0);

    static constexpr unsigned nevents = 3;

    unsigned ntasks() const override { return 3; }
    task_info info(unsigned task) const override;
    step next(unsigned task, std::uint64_t now_ns) override;

    // Results: each loaded page's name and load time, in load order.
    struct page_load {
        std::string name;
        double load_s;
    };
    const std::vector<page_load>& loads() const { return loads_; }

private:
    enum thread_id { main_thread, render_thread, compositor_thread };
    // A counting semaphore over one kernel event: a post while no one waits is kept (the
    // kernel's signal with no waiter would be lost).
    struct semaphore {
        unsigned event = 0;
        unsigned count = 0;
        bool waiting = false;
    };
    struct burst {
        double net_ns, script_ns, render_ns, composite_ns;
    };
    struct page_state {
        std::size_t page = 0;          // index into pages_
        std::vector<burst> bursts;
        std::uint64_t requested_ns = 0;
    };

    // post: a step to take (signal) or nothing (counted); wait: block or go on.
    bool post(semaphore& s, step& out);
    bool wait(semaphore& s, step& out);
    void start_page(std::uint64_t now_ns);
    double jitter(double v);
    step run(double ref_ns, int working_set_kb);

    bbench_params p_;
    std::mt19937_64 rng_;
    std::vector<std::size_t> order_;
    std::size_t order_pos_ = 0;
    int pass_ = 0;
    page_state cur_;
    // A pipeline stage's progress through the current page: its burst, its phase.
    struct stage_state {
        int burst = 0, phase = 0;
    };
    // The render thread and the compositor: take a burst from @in, do its @work, post it to
    // @out (none: the compositor, which shows it and completes the page).
    step stage(stage_state& st, semaphore& in, double burst::*work, int working_set_kb, semaphore* out,
               std::uint64_t now_ns);

    int main_burst_ = 0, main_phase_ = 0;
    stage_state render_, compositor_;
    semaphore to_render_, to_compositor_, page_done_;
    std::vector<page_load> loads_;
};

} // namespace blsim::workloads
