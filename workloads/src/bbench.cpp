// workloads/src/bbench.cpp
#include "blsim/workloads/bbench.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace blsim::workloads {

std::vector<bbench_page> default_pages()
{
    // name, bursts, net_ms, script_ms, render_ms, composite_ms, mem_fraction. Heavier news
    // and portal pages have more resources and more script than search and listings pages
    // (docs/workloads.md: our assumption, scaled to load in about a second on an A15).
    return {
        {"amazon", 8, 30, 24, 10, 2, 0.30},   {"bbc", 9, 30, 26, 10, 2, 0.30},
        {"cnn", 12, 30, 30, 12, 2, 0.30},     {"craigslist", 3, 25, 8, 5, 1, 0.25},
        {"ebay", 8, 30, 22, 10, 2, 0.30},     {"espn", 11, 30, 28, 12, 2, 0.30},
        {"google", 3, 25, 10, 4, 1, 0.25},    {"msn", 10, 30, 26, 11, 2, 0.30},
        {"slashdot", 7, 30, 18, 9, 2, 0.30},  {"twitter", 6, 30, 20, 8, 2, 0.30},
        {"youtube", 9, 30, 26, 12, 3, 0.35},
    };
}

bbench::bbench(bbench_params p, std::uint64_t seed, unsigned event_base)
    : p_(std::move(p)), rng_(seed ^ 0xbbe4c4ull)
{
    if (p_.pages.empty())
        p_.pages = default_pages();
    to_render_.event = event_base;
    to_compositor_.event = event_base + 1;
    page_done_.event = event_base + 2;
}

task_info bbench::info(unsigned task) const
{
    static const char* const names[] = {"browser-main", "browser-render", "browser-compositor"};
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

void bbench::start_page(std::uint64_t now_ns)
{
    if (order_pos_ == order_.size()) {
        // A new pass over the pages, in an order drawn from the seed (Fisher-Yates on the
        // raw generator, for the same reason as jitter()).
        order_.resize(p_.pages.size());
        for (std::size_t i = 0; i < order_.size(); i++)
            order_[i] = i;
        if (p_.shuffle)
            for (std::size_t i = order_.size(); i > 1; i--)
                std::swap(order_[i - 1], order_[rng_() % i]);
        order_pos_ = 0;
    }
    cur_.page = order_[order_pos_++];
    cur_.requested_ns = now_ns;
    const bbench_page& pg = p_.pages[cur_.page];
    cur_.bursts.clear();
    for (int b = 0; b < pg.bursts; b++)
        cur_.bursts.push_back({jitter(pg.net_ms) * 1e6, jitter(pg.script_ms) * 1e6, jitter(pg.render_ms) * 1e6,
                               jitter(pg.composite_ms) * 1e6});
    main_burst_ = render_.burst = compositor_.burst = 0;
}

bool bbench::post(semaphore& s, step& out)
{
    if (s.waiting) {
        s.waiting = false;
        out = step{};
        out.kind = step::signal;
        out.event = s.event;
        return true;
    }
    s.count++;
    return false;
}

bool bbench::wait(semaphore& s, step& out)
{
    if (s.count > 0) {
        s.count--;
        return false;
    }
    s.waiting = true;
    out = step{};
    out.kind = step::block;
    out.event = s.event;
    return true;
}

step bbench::run(double ref_ns, int working_set_kb)
{
    step s;
    s.kind = step::run;
    s.ref_ns = ref_ns;
    s.mem_fraction = p_.pages[cur_.page].mem_fraction;
    s.working_set_kb = working_set_kb;
    s.write_fraction = 0.25;
    return s;
}

step bbench::next(unsigned task, std::uint64_t now_ns)
{
    step out;
    auto sleep_until = [&](std::uint64_t t) {
        out = step{};
        out.kind = step::sleep_until;
        out.until_ns = t;
        return out;
    };
    // Each thread walks its own small state machine; a phase that takes no step (a post
    // counted, a semaphore already up) falls through to the next. The render thread and the
    // compositor are the same machine: a pipeline stage.
    switch (task) {
    case main_thread:
        for (;;) {
            switch (main_phase_) {
            case 0: // boot: the first request at start_ms
                main_phase_ = 1;
                return sleep_until(static_cast<std::uint64_t>(std::llround(p_.start_ms * 1e6)));
            case 1: // request a page
                if (p_.iterations > 0 && pass_ >= p_.iterations) {
                    out = step{};
                    out.kind = step::exit;
                    return out;
                }
                start_page(now_ns);
                main_phase_ = 2;
                break;
            case 2: // wait for the next resource
                main_phase_ = 3;
                return sleep_until(now_ns + static_cast<std::uint64_t>(cur_.bursts[main_burst_].net_ns));
            case 3: // parse it, run its script
                main_phase_ = 4;
                return run(cur_.bursts[main_burst_].script_ns, p_.main_working_set_kb);
            case 4: // hand it to the render thread
                main_burst_++;
                main_phase_ = main_burst_ < static_cast<int>(cur_.bursts.size()) ? 2 : 5;
                if (post(to_render_, out))
                    return out;
                break;
            case 5: // wait until the page is shown
                main_phase_ = 6;
                if (wait(page_done_, out))
                    return out;
                break;
            case 6: // the user reads it
                main_phase_ = 1;
                if (order_pos_ == order_.size())
                    pass_++;
                return sleep_until(now_ns + static_cast<std::uint64_t>(std::llround(p_.think_ms * 1e6)));
            }
        }
    case render_thread:
        return stage(render_, to_render_, &burst::render_ns, p_.render_working_set_kb, &to_compositor_, now_ns);
    case compositor_thread:
        return stage(compositor_, to_compositor_, &burst::composite_ns, p_.composite_working_set_kb, nullptr, now_ns);
    }
    throw std::out_of_range("bbench: no task " + std::to_string(task));
}

step bbench::stage(stage_state& st, semaphore& in, double burst::*work, int working_set_kb, semaphore* out,
                   std::uint64_t now_ns)
{
    step s;
    for (;;) {
        switch (st.phase) {
        case 0: // take the next burst
            st.phase = 1;
            if (wait(in, s))
                return s;
            break;
        case 1:
            st.phase = 2;
            return run(cur_.bursts.at(static_cast<std::size_t>(st.burst)).*work, working_set_kb);
        case 2: // pass it on; the last stage shows it, and the page's last burst ends the load
            st.burst++;
            st.phase = 0;
            if (out) {
                if (post(*out, s))
                    return s;
            } else if (st.burst == static_cast<int>(cur_.bursts.size())) {
                loads_.push_back({p_.pages[cur_.page].name, static_cast<double>(now_ns - cur_.requested_ns) * 1e-9});
                if (post(page_done_, s))
                    return s;
            }
            break;
        }
    }
}

} // namespace blsim::workloads
