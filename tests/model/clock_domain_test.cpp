// tests/model/clock_domain_test.cpp -- a clock domain's conversion of cycles to time: rounded
// up to the picosecond at the current frequency, whatever the conversions remembered before.
#include <gtest/gtest.h>

#include <cstdint>
#include <systemc>

#include "blsim/model/clock_domain.h"

namespace blsim::model {
namespace {

std::uint64_t ps(const sc_core::sc_time& t) { return t.value(); } // the resolution is 1 ps

// @cycles whole cycles at @mhz, rounded up to the picosecond, worked out apart from the model.
std::uint64_t expected_ps(std::uint64_t cycles, std::uint64_t mhz) { return (cycles * 1000000 + mhz - 1) / mhz; }

TEST(clock_domain, converts_at_the_frequency_of_the_moment_whatever_it_converted_before)
{
    clock_domain clock("clk", 400);
    // The latencies the models use: a DRAM burst's 8192 cycles, half a cycle, a line's 2048.
    EXPECT_EQ(ps(clock.cycles(8192)), 20480000u); // 8192 / 400 MHz = 20.48 us
    EXPECT_EQ(ps(clock.cycles(0.5)), 1250u);
    EXPECT_EQ(ps(clock.cycles(2048)), 5120000u);
    EXPECT_EQ(ps(clock.cycles(3)), 7500u);
    // The same values at 350 MHz: none is the one remembered at 400.
    clock.set_freq_mhz(350);
    EXPECT_EQ(ps(clock.cycles(8192)), 23405715u); // 23,405,714.29 ps, rounded up
    EXPECT_EQ(ps(clock.cycles(0.5)), 1429u);      // 1,428.57 ps
    EXPECT_EQ(ps(clock.cycles(3)), 8572u);        // 8,571.43 ps
    // And back.
    clock.set_freq_mhz(400);
    EXPECT_EQ(ps(clock.cycles(8192)), 20480000u);
    EXPECT_EQ(ps(clock.cycles(0.5)), 1250u);
}

TEST(clock_domain, many_different_latencies_each_convert_as_their_own)
{
    // Far more distinct values than the domain remembers, twice round at each of two
    // frequencies: each conversion is the value's own, never a neighbour's remembered one.
    clock_domain clock("clk", 350);
    for (int mhz : {350, 1200, 350})
        for (int round = 0; round < 2; round++) {
            clock.set_freq_mhz(mhz);
            for (std::uint64_t n = 60; n < 400; n += 7)
                ASSERT_EQ(ps(clock.cycles(static_cast<double>(n))), expected_ps(n, static_cast<std::uint64_t>(mhz)))
                    << n << " cycles at " << mhz << " MHz, round " << round;
        }
}

} // namespace
} // namespace blsim::model
