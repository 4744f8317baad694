// workloads/src/audio.cpp
#include "blsim/workloads/audio.h"

#include <cmath>
#include <stdexcept>

namespace blsim::workloads {

audio::audio(audio_params p) : p_(std::move(p))
{
    if (!(p_.period_ms > 0))
        throw std::invalid_argument("audio: period_ms must be positive");
}

task_info audio::info(unsigned task) const
{
    if (task != 0)
        throw std::out_of_range("audio: one task");
    return {"audio-decoder", p_.cpus, p_.nice};
}

step audio::next(unsigned task, std::uint64_t now_ns)
{
    if (task != 0)
        throw std::out_of_range("audio: one task");
    auto wake_ns = [&](std::uint64_t k) {
        return static_cast<std::uint64_t>(std::llround((p_.start_ms + static_cast<double>(k) * p_.period_ms) * 1e6));
    };
    step s;
    if (decoding_) {
        // Frame frame_ is decoded now: on time, or how late.
        decoding_ = false;
        frames_++;
        const double late_ms =
            (static_cast<double>(now_ns) - static_cast<double>(wake_ns(frame_)) - p_.deadline_ms * 1e6) * 1e-6;
        if (late_ms > 0) {
            misses_++;
            max_lateness_ms_ = std::max(max_lateness_ms_, late_ms);
        }
        frame_++;
        s.kind = step::sleep_until;
        s.until_ns = wake_ns(frame_); // already past if late: the next frame starts at once
        return s;
    }
    if (now_ns < wake_ns(frame_)) {
        s.kind = step::sleep_until; // the first wake-up
        s.until_ns = wake_ns(frame_);
        return s;
    }
    decoding_ = true;
    s.kind = step::run;
    s.ref_ns = p_.frame_work_us * 1e3;
    s.mem_fraction = p_.mem_fraction;
    s.working_set_kb = p_.working_set_kb;
    s.write_fraction = 0.25;
    return s;
}

} // namespace blsim::workloads
