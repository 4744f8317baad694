// workloads/src/audio.cpp
#include "blsim/workloads/audio.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace blsim::workloads {

audio::audio(audio_params p) : p_(std::move(p))
{
    if (!(p_.decoder.period_ms > 0) || !(p_.mixer.period_ms > 0))
        throw std::invalid_argument("audio: every period must be positive");
}

task_info audio::info(unsigned task) const
{
    if (task > 1)
        throw std::out_of_range("audio: two tasks");
    const audio_thread_params& a = params(task);
    return {task == 0 ? "audio-decoder" : "audio-mixer", p_.cpus, a.nice, a.policy, a.rt_priority};
}

step audio::next(unsigned task, std::uint64_t now_ns)
{
    if (task > 1)
        throw std::out_of_range("audio: two tasks, not " + std::to_string(task));
    const audio_thread_params& a = params(task);
    thread_state& t = th_[task];
    auto wake_ns = [&](std::uint64_t k) {
        return static_cast<std::uint64_t>(std::llround((p_.start_ms + static_cast<double>(k) * a.period_ms) * 1e6));
    };
    step s;
    if (t.working) {
        // Wake-up t.frame is served now: on time, or how late (its deadline: the next one).
        t.working = false;
        t.frames++;
        const double late_ms =
            (static_cast<double>(now_ns) - static_cast<double>(wake_ns(t.frame)) - a.period_ms * 1e6) * 1e-6;
        if (late_ms > 0) {
            t.misses++;
            t.max_lateness_ms = std::max(t.max_lateness_ms, late_ms);
        }
        t.frame++;
        s.kind = step::sleep_until;
        s.until_ns = wake_ns(t.frame); // already past if late: the next one starts at once
        return s;
    }
    if (now_ns < wake_ns(t.frame)) {
        s.kind = step::sleep_until; // the first wake-up
        s.until_ns = wake_ns(t.frame);
        return s;
    }
    t.working = true;
    s.kind = step::run;
    s.ref_ns = a.work_us * 1e3;
    s.mem_fraction = a.mem_fraction;
    s.working_set_kb = p_.working_set_kb;
    s.write_fraction = 0.25;
    return s;
}

} // namespace blsim::workloads
