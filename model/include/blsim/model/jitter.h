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

namespace blsim::model {

// The operation classes, each with its own bound.
enum class jitter_class : unsigned {
    register_access,   // device register accesses (GIC, CCI, power controller); CCI change-pending
    shared_memory,     // strongly-ordered shared-memory accesses (the SRAM: MCPM, vlocks)
    memory_access,     // cache fills from L2, CCI snoops, DRAM latency
    sgi_delivery,      // an SGI from its GICD_SGIR write to its target's CPU interface
    wakeup,            // a core's exit from WFI or power-down
    power_transition,  // core WFI and power-down entry, cluster power-down and power-up
    dvfs,              // DVFS voltage and frequency steps
    cache_maintenance, // set/way clean and invalidate walks
};
inline constexpr unsigned njitter_classes = 8;
inline constexpr std::array<jitter_class, njitter_classes> all_jitter_classes = {
    jitter_class::register_access, jitter_class::shared_memory,    jitter_class::memory_access,
    jitter_class::sgi_delivery,    jitter_class::wakeup,           jitter_class::power_transition,
    jitter_class::dvfs,            jitter_class::cache_maintenance,
};
// The class's name in results (register_access, ...).
const char* to_string(jitter_class c);

// The scenario's `jitter:` (docs/config.md). Percentages of the nominal latency, 0..100.
struct jitter_params {
    bool enabled = false;
    double register_access_pct = 20;
    double shared_memory_pct = 20;
    double memory_access_pct = 20;
    double wakeup_pct = 20;
    double power_transition_pct = 20;
    double dvfs_pct = 20;
    double cache_maintenance_pct = 20;
    double sgi_delivery_ns = 1000; // absolute: SGI delivery has no nominal latency

    // The bound of @c as a fraction (pct / 100); for sgi_delivery, the delay bound in ns.
    double bound(jitter_class c) const;
};

// The generator, exposed for tests and for anyone who wants to reproduce a draw by hand.
// A block's identity: FNV-1a (64 bits) of its name.
std::uint64_t jitter_block_id(std::string_view name);
// SplitMix64's output function (Stafford's Mix13).
std::uint64_t splitmix64_mix(std::uint64_t z);
// The key of a block: mix(block_id ^ mix(seed + golden)).
std::uint64_t jitter_key(std::uint64_t seed, std::uint64_t block_id);
// The k-th (from 0) 64-bit draw of a block: mix(key + (k + 1) * golden), SplitMix64's
// (k+1)-th output from state key.
std::uint64_t jitter_bits(std::uint64_t key, std::uint64_t k);
// The top 53 bits of @bits as a uniform number in [0, 1).
double jitter_unit(std::uint64_t bits);

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
