// model/src/jitter_params.cpp -- blsim/model/jitter_params.h.
#include "blsim/model/jitter_params.h"

namespace blsim::model {

namespace {

constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ull;

} // namespace

const char* to_string(jitter_class c)
{
    switch (c) {
    case jitter_class::register_access: return "register_access";
    case jitter_class::shared_memory: return "shared_memory";
    case jitter_class::memory_access: return "memory_access";
    case jitter_class::sgi_delivery: return "sgi_delivery";
    case jitter_class::wakeup: return "wakeup";
    case jitter_class::power_transition: return "power_transition";
    case jitter_class::dvfs: return "dvfs";
    case jitter_class::cache_maintenance: return "cache_maintenance";
    }
    return "?";
}

double jitter_params::bound(jitter_class c) const
{
    switch (c) {
    case jitter_class::register_access: return register_access_pct / 100;
    case jitter_class::shared_memory: return shared_memory_pct / 100;
    case jitter_class::memory_access: return memory_access_pct / 100;
    case jitter_class::sgi_delivery: return sgi_delivery_ns;
    case jitter_class::wakeup: return wakeup_pct / 100;
    case jitter_class::power_transition: return power_transition_pct / 100;
    case jitter_class::dvfs: return dvfs_pct / 100;
    case jitter_class::cache_maintenance: return cache_maintenance_pct / 100;
    }
    return 0;
}

std::uint64_t jitter_block_id(std::string_view name)
{
    std::uint64_t h = 0xcbf29ce484222325ull; // FNV-1a offset basis
    for (char ch : name) {
        h ^= static_cast<unsigned char>(ch);
        h *= 0x100000001b3ull; // FNV prime
    }
    return h;
}

std::uint64_t splitmix64_mix(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::uint64_t jitter_key(std::uint64_t seed, std::uint64_t block_id)
{
    return splitmix64_mix(block_id ^ splitmix64_mix(seed + golden));
}

std::uint64_t jitter_bits(std::uint64_t key, std::uint64_t k) { return splitmix64_mix(key + (k + 1) * golden); }

double jitter_unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

} // namespace blsim::model
