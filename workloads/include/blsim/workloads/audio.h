// workloads/include/blsim/workloads/audio.h -- a music player decoding in the background.
//
// One decoder thread. The audio hardware consumes a buffer every period_ms; the thread is
// woken at the start of each period (frame k at start_ms + k * period_ms), decodes one
// frame (frame_work_us of work on the reference CPU) and must be done within deadline_ms of
// its wake-up, or the next buffer is not ready in time (an underrun the listener hears). A
// late frame does not move the later ones: the hardware's clock does not wait.
#pragma once

#include <cstdint>
#include <vector>

#include "blsim/workloads/step.h"

namespace blsim::workloads {

struct audio_params {
    double period_ms = 20;     // one buffer
    double frame_work_us = 600; // decoding one buffer's worth, on the reference CPU
    double deadline_ms = 20;   // from the wake-up; the period by default
    double mem_fraction = 0.1;
    int working_set_kb = 64;
    double start_ms = 0;
    int nice = -16;            // Android's ANDROID_PRIORITY_AUDIO
    std::vector<int> cpus;     // affinity (empty: every CPU)
};

class audio : public workload {
public:
    explicit audio(audio_params p);

    unsigned ntasks() const override { return 1; }
    task_info info(unsigned task) const override;
    step next(unsigned task, std::uint64_t now_ns) override;

    std::uint64_t frames() const { return frames_; }          // decoded
    std::uint64_t deadline_misses() const { return misses_; }
    double max_lateness_ms() const { return max_lateness_ms_; } // 0: never late

private:
    audio_params p_;
    std::uint64_t frame_ = 0;   // the frame being decoded or waited for
    bool decoding_ = false;     // its run step was handed out
    std::uint64_t frames_ = 0, misses_ = 0;
    double max_lateness_ms_ = 0;
};

} // namespace blsim::workloads
