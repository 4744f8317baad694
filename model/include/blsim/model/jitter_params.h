// model/include/blsim/model/jitter_params.h -- the scenario's `jitter:` as parameters, and the
// counter-based generator jitter.h and faults.h draw from. No SystemC: the configuration
// (soc/config/) reads and checks these.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace blsim::model {

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

} // namespace blsim::model
