// workloads/src/bbench.cpp
#include "blsim/workloads/bbench.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace blsim::workloads {

std::vector<bbench_page> default_pages()
{
    // name, resources, load work (reference-CPU ms), height (px). The sites are those of
    // Workload Automation's BBench (espn and youtube are commented out there); the amounts
    // are our assumptions (docs/workloads.md): heavier news and portal pages have more
    // resources and more work than search and listing pages.
    return {
        {"amazon", 8, 288, 3200},    {"bbc", 9, 342, 2800},    {"cnn", 12, 528, 4200},
        {"craigslist", 3, 42, 1800}, {"ebay", 8, 272, 2600},   {"google", 3, 45, 900},
        {"msn", 10, 390, 3000},      {"slashdot", 7, 203, 5600}, {"twitter", 6, 180, 3000},
    };
}

int bbench_scroll_steps(double height_px, double step_px)
{
    // bbench.js looks for the k-th time (k = 1, 2, ...) after k - 1 steps, and takes another
    // while H - step * k exceeds a step: ceil(H / step) - 2 steps on a page above two steps.
    int n = 0;
    while (height_px - step_px * (n + 1) > step_px)
        n++;
    return n;
}

bbench::bbench(bbench_params p, std::uint64_t seed, unsigned event_base)
    : p_(std::move(p)), rng_(seed ^ 0xbbe4c4ull)
{
    if (p_.pages.empty())
        p_.pages = default_pages();
    to_raster_.event = event_base;
    to_compositor_.event = event_base + 1;
}

task_info bbench::info(unsigned task) const
{
    static const char* const names[] = {"browser-main", "browser-raster", "browser-compositor"};
    return {names[task], p_.cpus, 0};
}

double bbench::jitter(double v)
{
    // Uniform in [1 - j, 1 + j] from the generator's raw bits (distributions are not
    // specified bit for bit across standard libraries; this is).
    const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    const double j = p_.jitter_pct / 100.0;
    return v * (1.0 - j + 2.0 * j * u);
}

double bbench::mean_latency_s() const
{
    // Warm loads if there are any (BBench's averageWarm), else the cold ones.
    const bool warm = std::any_of(loads_.begin(), loads_.end(), [](const page_load& l) { return l.iteration > 0; });
    double log_sum = 0;
    int n = 0;
    for (const page_load& l : loads_)
        if ((l.iteration > 0) == warm && l.load_s > 0) {
            log_sum += std::log(l.load_s);
            n++;
        }
    return n ? std::exp(log_sum / n) : 0.0;
}

void bbench::start_page(std::uint64_t now_ns)
{
    if (order_pos_ == order_.size()) {
        // A new pass over the pages: BBench's fixed order, or one drawn from the seed
        // (Fisher-Yates on the raw generator, for the same reason as jitter()).
        order_.resize(p_.pages.size());
        for (std::size_t i = 0; i < order_.size(); i++)
            order_[i] = i;
        if (p_.shuffle)
            for (std::size_t i = order_.size(); i > 1; i--)
                std::swap(order_[i - 1], order_[rng_() % i]);
        order_pos_ = 0;
    }
    page_ = order_[order_pos_++];
    requested_ns_ = now_ns;
    const bbench_page& pg = p_.pages[page_];
    const double per_resource_ns = pg.work_ms * 1e6 / pg.resources;
    const double io_ns = (pass_ == 0 ? p_.io_cold_ms : p_.io_warm_ms) * 1e6;
    const bbench_phases& ph = p_.phases;
    resources_.clear();
    for (int r = 0; r < pg.resources; r++) {
        resource x;
        x.io_ns = jitter(io_ns);
        x.parse_ns = jitter(per_resource_ns * ph.parse.share);
        x.script_ns = jitter(per_resource_ns * ph.script.share);
        x.style_ns = jitter(per_resource_ns * ph.style.share);
        x.layout_ns = jitter(per_resource_ns * ph.layout.share);
        x.paint_ns = jitter(per_resource_ns * ph.paint.share);
        x.composite_ns = jitter(per_resource_ns * ph.composite.share);
        resources_.push_back(x);
    }
    resource_ = 0;
}

bool bbench::post(channel& c, item it, step& out)
{
    c.items.push_back(it);
    if (!c.waiting)
        return false; // kept for when the stage asks
    c.waiting = false;
    out = step{};
    out.kind = step::signal;
    out.event = c.event;
    return true;
}

step bbench::run(double ref_ns, double mem_fraction, int working_set_kb) const
{
    step s;
    s.kind = step::run;
    s.ref_ns = ref_ns;
    s.mem_fraction = mem_fraction;
    s.working_set_kb = working_set_kb;
    s.write_fraction = 0.25;
    return s;
}

step bbench::next(unsigned task, std::uint64_t now_ns)
{
    switch (task) {
    case main_thread:
        return main_next(now_ns);
    case raster_thread:
        return stage(raster_, to_raster_, &to_compositor_);
    case compositor_thread:
        return stage(compositor_, to_compositor_, nullptr);
    }
    throw std::out_of_range("bbench: no task " + std::to_string(task));
}

namespace {

step sleep_until(std::uint64_t t, bool io)
{
    step s;
    s.kind = step::sleep_until;
    s.until_ns = t;
    s.io = io;
    return s;
}

} // namespace

// Request the next site (a new pass when the order is used up); false when it takes no step.
bool bbench::request_site(std::uint64_t now_ns, step& out)
{
    if (order_pos_ == order_.size() && !order_.empty())
        pass_++;
    if (p_.iterations > 0 && pass_ >= p_.iterations) {
        done_ns_ = now_ns;
        out = step{};
        out.kind = step::exit;
        return true;
    }
    start_page(now_ns);
    main_phase_ = 2;
    return false;
}

// Parse, script, style, layout of the current resource: one run step each, in that order.
step bbench::resource_work()
{
    static constexpr double resource::*work[] = {&resource::parse_ns, &resource::script_ns,
                                                 &resource::style_ns, &resource::layout_ns};
    static constexpr bbench_phase bbench_phases::*phase[] = {&bbench_phases::parse, &bbench_phases::script,
                                                             &bbench_phases::style, &bbench_phases::layout};
    const int i = main_phase_++ - 3;
    return run(resources_[resource_].*work[i], (p_.phases.*phase[i]).mem_fraction, p_.main_working_set_kb);
}

// Onload: the load time ends; BBench waits, then scrolls to the bottom. False when it takes
// no step (no settling wait).
bool bbench::onload(std::uint64_t now_ns, step& out)
{
    const bbench_page& pg = p_.pages[page_];
    loads_.push_back({pg.name, static_cast<double>(now_ns - requested_ns_) * 1e-9, pass_});
    steps_left_ = bbench_scroll_steps(pg.height_px, p_.scroll.step_px);
    const bool settle = !first_page_ && p_.scroll.settle_ms > 0;
    first_page_ = false;
    main_phase_ = 9;
    if (!settle)
        return false;
    out = sleep_until(now_ns + static_cast<std::uint64_t>(std::llround(p_.scroll.settle_ms * 1e6)), false);
    return true;
}

step bbench::main_next(std::uint64_t now_ns)
{
    step out;
    // A small state machine; a phase that takes no step (an item kept for a busy stage, no
    // read to wait for) falls through to the next.
    for (;;) {
        switch (main_phase_) {
        case 0: // boot: the first request at start_ms
            main_phase_ = 1;
            return sleep_until(static_cast<std::uint64_t>(std::llround(p_.start_ms * 1e6)), false);
        case 1: // request the next site
            if (request_site(now_ns, out))
                return out;
            break;
        case 2: // read the resource: from storage on the first pass, the page cache after
            main_phase_ = 3;
            if (resources_[resource_].io_ns > 0)
                return sleep_until(now_ns + static_cast<std::uint64_t>(std::llround(resources_[resource_].io_ns)), true);
            break;
        case 3: // parse, script, style, layout
        case 4:
        case 5:
        case 6: return resource_work();
        case 7: { // hand its tiles to the raster thread; the next resource, or onload
            const resource& r = resources_[resource_];
            main_phase_ = ++resource_ < static_cast<int>(resources_.size()) ? 2 : 8;
            if (post(to_raster_, {r.paint_ns, r.composite_ns}, out))
                return out;
            break;
        }
        case 8:
            if (onload(now_ns, out))
                return out;
            break;
        case 9: // another step, or at the bottom: the next site at once
            if (steps_left_ == 0) {
                main_phase_ = 1;
                break;
            }
            main_phase_ = 10;
            return sleep_until(now_ns + static_cast<std::uint64_t>(std::llround(p_.scroll.delay_ms * 1e6)), false);
        case 10: // the scroll event
            steps_left_--;
            scroll_steps_++;
            main_phase_ = 11;
            return run(p_.scroll.main_ms * 1e6, p_.phases.layout.mem_fraction, p_.main_working_set_kb);
        case 11: // the newly exposed strip: tiles to paint, a frame to draw
            main_phase_ = 9;
            if (post(to_raster_, {p_.scroll.paint_ms * 1e6, p_.scroll.composite_ms * 1e6}, out))
                return out;
            break;
        }
    }
}

step bbench::stage(stage_state& st, channel& in, channel* out)
{
    // The raster thread paints an item and hands its frame to the compositor; the compositor
    // draws it.
    const bool raster = out != nullptr;
    const bbench_phases& ph = p_.phases;
    step s;
    for (;;) {
        switch (st.phase) {
        case 0: // take the next item, or wait for one
            if (in.head == in.items.size()) {
                in.items.clear();
                in.head = 0;
                in.waiting = true;
                s.kind = step::block;
                s.event = in.event;
                return s;
            }
            st.current = in.items[in.head++];
            st.phase = 1;
            break;
        case 1:
            st.phase = raster ? 2 : 0;
            if (raster)
                return run(st.current.paint_ns, ph.paint.mem_fraction, p_.raster_working_set_kb);
            return run(st.current.composite_ns, ph.composite.mem_fraction, p_.composite_working_set_kb);
        case 2: // raster: the frame to the compositor
            st.phase = 0;
            if (out && post(*out, st.current, s))
                return s;
            break;
        }
    }
}

} // namespace blsim::workloads
