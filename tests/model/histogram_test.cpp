// tests/model/histogram_test.cpp -- the constant-memory latency distribution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "blsim/model/histogram.h"

namespace blsim::model {
namespace {

TEST(log_histogram, small_values_are_exact)
{
    log_histogram h;
    for (std::uint64_t v : {5, 1, 3, 3, 200})
        h.record(v);
    EXPECT_EQ(h.count(), 5u);
    EXPECT_EQ(h.min(), 1u);
    EXPECT_EQ(h.max(), 200u);
    EXPECT_DOUBLE_EQ(h.mean(), 42.4);
    // Nearest rank over 1, 3, 3, 5, 200.
    EXPECT_EQ(h.percentile(0.2), 1u);
    EXPECT_EQ(h.percentile(0.5), 3u);
    EXPECT_EQ(h.percentile(0.8), 5u);
    EXPECT_EQ(h.percentile(1.0), 200u);
}

TEST(log_histogram, a_bucket_above_the_exact_range_worked_by_hand)
{
    // 1000 is in the power of two [512, 1024), split into 128 buckets of 4: [1000, 1004).
    // Its midpoint, 1001, is reported for any value of that bucket (clamped to min/max).
    log_histogram h;
    h.record(1000);
    h.record(1003);
    h.record(5000);
    EXPECT_EQ(h.percentile(0.5), 1001u);
    EXPECT_EQ(h.percentile(0.34), 1001u);
    EXPECT_EQ(h.percentile(0.99), 5000u); // the top rank is the exact maximum
}

TEST(log_histogram, percentiles_within_the_stated_relative_error)
{
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> d(std::log(5e6), 1.5); // ~5 us in ps, wide spread
    std::vector<std::uint64_t> v;
    log_histogram h;
    for (int i = 0; i < 100000; i++) {
        v.push_back(static_cast<std::uint64_t>(d(rng)));
        h.record(v.back());
    }
    std::sort(v.begin(), v.end());
    for (double q : {0.01, 0.25, 0.5, 0.9, 0.99, 0.999}) {
        const std::uint64_t exact = v[static_cast<std::size_t>(std::ceil(q * v.size())) - 1];
        EXPECT_NEAR(static_cast<double>(h.percentile(q)), static_cast<double>(exact),
                    log_histogram::relative_error() * static_cast<double>(exact))
            << q;
    }
    EXPECT_EQ(h.min(), v.front());
    EXPECT_EQ(h.max(), v.back());
}

TEST(log_histogram, memory_does_not_grow_with_the_values_recorded)
{
    log_histogram empty, full;
    for (std::uint64_t i = 0; i < 1000000; i++)
        full.record(i * 7919 + (i << 20));
    full.record(~std::uint64_t{0});
    EXPECT_EQ(full.memory_bytes(), empty.memory_bytes());
    EXPECT_LT(empty.memory_bytes(), 64u * 1024);
    EXPECT_EQ(full.max(), ~std::uint64_t{0});
}

} // namespace
} // namespace blsim::model
