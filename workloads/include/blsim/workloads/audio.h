// workloads/include/blsim/workloads/audio.h -- a music player in the background, as Android
// plays an MP3.
//
// Two threads, as Android's media framework runs them (docs/workloads.md has the sources):
//   - the decoder (Stagefright's MP3 component): decodes one MP3 frame, 1152 samples, every
//     frame_ms of audio (26.1 ms at 44.1 kHz), into the track's buffer;
//   - the mixer (AudioFlinger's output thread): every period_ms it mixes (and resamples) one
//     buffer of the hardware's and writes it to the audio driver (TC2's: 1024 frames at
//     48 kHz, 21.3 ms).
// Each wakes on its own clock (frame k at start_ms + k * period, the hardware's timing: a late
// one does not move the later ones) and must be done within its period, or the sound glitches
// (an underrun): each such frame is a deadline miss.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "blsim/workloads/step.h"

namespace blsim::workloads {

// One of the player's periodic threads.
struct audio_thread_params {
    double period_ms = 20;   // it wakes every period
    double work_us = 100;    // reference-CPU work each time
    double mem_fraction = 0.1;
    int nice = 0;
    task_info::policy_t policy = task_info::normal;
    int rt_priority = 0;     // fifo, rr: 1..99
};

struct audio_params {
    // The classes are Android's for these two threads (docs/workloads.md, "audio"): both CFS.
    // The mixer is AudioFlinger's MixerThread, at ANDROID_PRIORITY_URGENT_AUDIO; the FastMixer
    // that serves low-latency tracks runs SCHED_FIFO 3 (kPriorityFastMixer), but MP3 playback
    // goes through the normal mixer.
    audio_thread_params decoder{26.122, 280, 0.1, -2, task_info::normal, 0};  // one MP3 frame; a foreground thread
    audio_thread_params mixer{21.333, 60, 0.3, -19, task_info::normal, 0};    // one HAL buffer
    int working_set_kb = 64; // data each thread touches per wake-up
    double start_ms = 0;     // the first wake-up of both
    std::vector<int> cpus;   // affinity (empty: every CPU)
};

class audio : public workload {
public:
    explicit audio(audio_params p);

    unsigned ntasks() const override { return 2; }
    task_info info(unsigned task) const override;
    step next(unsigned task, std::uint64_t now_ns) override;

    // Over both threads: wake-ups done, those done late, and the worst lateness (0: never).
    std::uint64_t frames() const { return th_[0].frames + th_[1].frames; }
    std::uint64_t deadline_misses() const { return th_[0].misses + th_[1].misses; }
    double max_lateness_ms() const { return std::max(th_[0].max_lateness_ms, th_[1].max_lateness_ms); }
    // Per thread: 0 the decoder, 1 the mixer.
    std::uint64_t frames(unsigned task) const { return th_.at(task).frames; }
    std::uint64_t deadline_misses(unsigned task) const { return th_.at(task).misses; }

private:
    struct thread_state {
        std::uint64_t frame = 0; // the wake-up being served or waited for
        bool working = false;    // its run step was handed out
        std::uint64_t frames = 0, misses = 0;
        double max_lateness_ms = 0;
    };
    const audio_thread_params& params(unsigned task) const { return task == 0 ? p_.decoder : p_.mixer; }

    audio_params p_;
    std::vector<thread_state> th_{2};
};

} // namespace blsim::workloads
