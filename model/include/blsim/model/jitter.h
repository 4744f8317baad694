// model/include/blsim/model/jitter.h -- seeded timing jitter of the platform's operations.
//
// With jitter on (the scenario's `jitter.enabled`), every timed platform operation takes its
// nominal latency perturbed within configured bounds: a latency L becomes
//     L * (1 + u * pct / 100),   u uniform in [-1, 1),
// rounded to the nearest picosecond (the simulator's resolution); pct is at most 100, so a
// latency never becomes negative. SGI delivery has no latency of its own in the model, so its
// jitter is an extra delay uniform in [0, sgi_delivery_ns). A latency of zero stays zero.
//
// The numbers come from a counter-based generator: the k-th draw of a block is a pure
// function of (the run's seed, the block's name, k) -- SplitMix64's output function applied to
// a per-block key -- and each block keeps its own counter. So a block added, or a draw more in
// one block, changes no other block's draws; the same seed gives the same times, the same
// interleaving, the same bytes. docs/hardware.md, "Timing jitter", lists the blocks.
//
// With jitter off, apply() returns its argument after one test of a flag, and draws nothing.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <systemc>

#include "blsim/model/jitter_params.h"

namespace blsim::model {

// The operation classes, each with its own bound.
class jitter_source;

// One block's stream of draws. Default-constructed: off.
class jitter {
public:
    jitter() = default;

    bool enabled() const { return on_; }
    bool enabled(jitter_class c) const { return on_ && bound_[static_cast<unsigned>(c)] > 0; }

    // @nominal perturbed within the bound of @c (one draw), or @nominal itself when jitter is
    // off, the class's bound is zero, or @nominal is zero (no draw).
    sc_core::sc_time apply(const sc_core::sc_time& nominal, jitter_class c)
    {
        if (!on_)
            return nominal;
        return perturb(nominal, c);
    }
    // An extra delay uniform in [0, bound of @c in ns) (one draw); zero when off.
    sc_core::sc_time delay(jitter_class c);

    // Draws made by this block.
    std::uint64_t draws() const { return counter_; }
    // The next draw as a number in [0, 1).
    double next_unit();

private:
    friend class jitter_source;
    sc_core::sc_time perturb(const sc_core::sc_time& nominal, jitter_class c);

    bool on_ = false;
    std::uint64_t key_ = 0;
    std::uint64_t counter_ = 0;
    std::array<double, njitter_classes> bound_{};
    std::array<std::uint64_t, njitter_classes>* counts_ = nullptr;
};

// The run's jitter: its parameters, its seed, and the draws of every block by class. Blocks
// take their streams from it by name before the simulation starts; it must outlive them.
class jitter_source {
public:
    jitter_source() = default; // off
    jitter_source(const jitter_params& params, std::uint64_t seed);
    jitter_source(const jitter_source&) = delete;
    jitter_source& operator=(const jitter_source&) = delete;

    bool enabled() const { return params_.enabled; }
    const jitter_params& params() const { return params_; }
    std::uint64_t seed() const { return seed_; }

    // The stream of block @name (off when jitter is off). Each name once per run.
    jitter stream(std::string_view name);

    // Draws made so far, of one class, over every block.
    std::uint64_t draws(jitter_class c) const { return counts_[static_cast<unsigned>(c)]; }

private:
    jitter_params params_;
    std::uint64_t seed_ = 0;
    std::array<std::uint64_t, njitter_classes> counts_{};
};

} // namespace blsim::model
