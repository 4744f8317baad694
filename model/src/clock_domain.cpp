// model/src/clock_domain.cpp
#include "blsim/model/clock_domain.h"

#include <cmath>
#include <cstring>

#include "blsim/model/invariant.h"

namespace blsim::model {

clock_domain::clock_domain(std::string name, int freq_mhz)
    : name_(std::move(name)), freq_mhz_(freq_mhz)
{
    BLSIM_CHECK(freq_mhz > 0);
}

sc_core::sc_time clock_domain::convert(double cycles) const
{
    // cycles / MHz = microseconds; round up to whole picoseconds so that a non-zero
    // latency never collapses to zero time.
    // (The time resolution is 1 ps, which the platform checks: a value in ps is the time.)
    // Whole cycles (nearly every latency): the same ceiling in integers, without a
    // floating-point division on the hot path.
    if (cycles >= 0 && cycles < 1e12 && cycles == std::floor(cycles)) {
        const std::uint64_t num = static_cast<std::uint64_t>(cycles) * 1000000u;
        const std::uint64_t f = static_cast<std::uint64_t>(freq_mhz_);
        return sc_core::sc_time::from_value((num + f - 1) / f);
    }
    const double ps = std::ceil(cycles * 1e6 / freq_mhz_);
    return sc_core::sc_time::from_value(ps > 0 ? static_cast<std::uint64_t>(ps) : 0);
}

sc_core::sc_time clock_domain::convert_recalled(double cycles) const
{
    std::uint64_t bits;
    std::memcpy(&bits, &cycles, sizeof bits);
    // Fibonacci hashing: the top bits of the product spread values that differ in any bit.
    converted& slot = recent_[(bits * 0x9e3779b97f4a7c15ull) >> 60];
    static_assert(memo_values == 16, "the shift takes the top four bits");
    if (slot.mhz != freq_mhz_ || std::memcmp(&slot.cycles, &cycles, sizeof cycles) != 0) {
        slot.cycles = cycles;
        slot.mhz = freq_mhz_;
        slot.time = convert(cycles);
    }
    return slot.time;
}

void clock_domain::set_freq_mhz(int freq_mhz)
{
    BLSIM_CHECK(freq_mhz > 0);
    if (freq_mhz == freq_mhz_)
        return;
    int old = freq_mhz_;
    freq_mhz_ = freq_mhz;
    changed_.notify(sc_core::SC_ZERO_TIME);
    changed.publish(old, freq_mhz);
}

} // namespace blsim::model
