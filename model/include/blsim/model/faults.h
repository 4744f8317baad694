// model/include/blsim/model/faults.h -- seeded fault injection into the platform's hardware.
//
// The scenario's `faults:` (docs/config.md) makes chosen hardware operations misbehave, so that
// the C software's recovery paths run: a core that does not power up, an SGI lost on its way to
// a powered-down CPU, a CCI port change that stays pending, a spurious interrupt, a refused DVFS
// request. docs/hardware.md, "Fault injection", describes what each does to the hardware.
//
// Each kind is driven by a trigger: a probability that each *eligible operation* fails, and a
// list of times, each making the first eligible operation at or after it fail (each time used
// once, in time order). With a probability, every eligible operation draws exactly one number,
// whether a time also makes it fail or not: adding a time changes which operation fails at that
// time, not the draws of the others. The spurious interrupt has no operation to attach to: it
// arrives on its own, at exponentially distributed intervals and at the listed times.
//
// The numbers come from the generator of jitter.h (counter-based, keyed by the run's seed and a
// block name), from blocks of their own named "faults/<kind>/<block>": no jitter block has such
// a name, so turning jitter on or off, or changing its bounds, changes no fault draw, and a
// fault draw changes no jitter draw.
//
// A kind not configured hands out streams that are off: fires() returns false after one test of
// a pointer and draws nothing, so a run without `faults:` is the same run, to the byte.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <systemc>
#include <vector>

#include "blsim/model/fault_params.h"

namespace blsim::model {

// The shared state of one kind: its times not yet used, its probability, its count. Blocks
// of a kind share it (a time makes the first eligible operation of the kind fail, whichever
// block it is in). Owned by fault_source.
struct fault_kind_state {
    std::vector<sc_core::sc_time> times; // sorted
    std::size_t next_time = 0;           // the first not used yet
    double probability = 0;              // as a fraction, 0..1
    std::uint64_t injected = 0;
};

// One block's decisions for one kind of fault. Default-constructed: off.
class fault {
public:
    fault() = default;

    bool enabled() const { return kind_ != nullptr; }

    // Whether the eligible operation happening at @when fails (and is counted). Off: false,
    // nothing drawn.
    bool fires(const sc_core::sc_time& when)
    {
        if (!kind_)
            return false;
        return decide(when);
    }

    // The next draw of this block as a number in [0, 1), for a block that decides on its own
    // (the spurious interrupt's arrivals and CPUs).
    double next_unit();
    // Draws made by this block.
    std::uint64_t draws() const { return counter_; }

private:
    friend class fault_source;
    bool decide(const sc_core::sc_time& when);

    fault_kind_state* kind_ = nullptr;
    std::uint64_t key_ = 0;
    std::uint64_t counter_ = 0;
};

// The run's faults: their parameters, the seed, what was injected. Blocks take their streams
// from it before the simulation starts; it must outlive them.
class fault_source {
public:
    fault_source() = default; // nothing configured
    fault_source(const fault_params& params, std::uint64_t seed);
    fault_source(const fault_source&) = delete;
    fault_source& operator=(const fault_source&) = delete;

    const fault_params& params() const { return params_; }
    std::uint64_t seed() const { return seed_; }
    bool configured(fault_kind k) const { return params_.configured(k); }
    bool any() const { return params_.any(); }

    // The stream of block @block for faults of @kind, drawing from block
    // "faults/<kind>/<block>"; off when the kind is not configured. Each (kind, block) once
    // per run. A spurious_irq stream has no eligible operations: its block draws arrivals and
    // CPUs with next_unit() and reports each injection with count().
    fault stream(fault_kind kind, std::string_view block);

    // The kind's times (at_s), sorted, as simulation times.
    const std::vector<sc_core::sc_time>& times(fault_kind kind) const { return kinds_[index(kind)].times; }

    // Faults injected so far, of one kind, and of every kind.
    std::uint64_t injected(fault_kind kind) const { return kinds_[index(kind)].injected; }
    std::uint64_t injected_total() const;
    // One more injected, by a block that decides on its own (spurious_irq).
    void count(fault_kind kind) { kinds_[index(kind)].injected++; }

private:
    static unsigned index(fault_kind k) { return static_cast<unsigned>(k); }

    fault_params params_;
    std::uint64_t seed_ = 0;
    std::array<fault_kind_state, nfault_kinds> kinds_{};
};

} // namespace blsim::model
