// tests/model/cache_test.cpp -- the statistical cache: occupancy, LRU between contexts,
// dirtiness, clean and invalidate, worked by hand.
#include <gtest/gtest.h>

#include "blsim/model/cache.h"

namespace blsim::model {
namespace {

using pairs = std::vector<std::pair<unsigned, std::uint64_t>>;

TEST(cache_state, a_cold_fill_brings_the_working_set_up_to_capacity)
{
    cache_state c(512);
    EXPECT_EQ(c.fill(1, 300).filled, 300u);
    EXPECT_EQ(c.fill(1, 300).filled, 0u); // warm now
    EXPECT_EQ(c.fill(1, 800).filled, 212u); // grows to capacity, no further
    EXPECT_EQ(c.lines(1), 512u);
    EXPECT_EQ(c.valid_lines(), 512u);
}

TEST(cache_state, other_contexts_are_evicted_least_recently_used_first)
{
    cache_state c(512);
    c.fill(1, 200);
    c.fill(2, 200);
    c.fill(1, 200); // 1 becomes the most recently used
    cache_state::fill_result r = c.fill(3, 300);
    EXPECT_EQ(r.filled, 300u);
    // 700 lines for 512: 188 must go, all from context 2, the least recently used.
    EXPECT_EQ(c.lines(2), 12u);
    EXPECT_EQ(c.lines(1), 200u);
    EXPECT_EQ(c.lines(3), 300u);
    EXPECT_EQ(c.valid_lines(), 512u);
    c.fill(3, 500); // 200 more: the remaining 12 of context 2, then 188 of context 1
    EXPECT_EQ(c.lines(2), 0u);
    EXPECT_EQ(c.lines(1), 12u);
    EXPECT_EQ(c.lines(3), 500u);
}

TEST(cache_state, dirty_lines_follow_writes_evictions_and_cleans)
{
    cache_state c(512);
    c.fill(1, 400);
    c.write(1, 0.25);
    EXPECT_EQ(c.dirty(1), 100u);
    c.write(1, 0.1); // a smaller share does not clean anything
    EXPECT_EQ(c.dirty(1), 100u);
    // Evicting 288 of context 1's 400 lines takes 72% of its dirty lines, rounded up: 72.
    cache_state::fill_result r = c.fill(2, 400);
    EXPECT_EQ(r.evicted_dirty, 72u);
    EXPECT_EQ(r.evicted_dirty_by_ctx, (pairs{{1, 72}}));
    EXPECT_EQ(c.dirty(1), 28u);
    c.write(2, 1.0);
    EXPECT_EQ(c.dirty_lines(), 428u);
    pairs cleaned;
    EXPECT_EQ(c.clean([&](unsigned ctx, std::uint64_t n) { cleaned.push_back({ctx, n}); }), 428u);
    EXPECT_EQ(cleaned, (pairs{{1, 28}, {2, 400}}));
    EXPECT_EQ(c.dirty_lines(), 0u);
    EXPECT_EQ(c.valid_lines(), 512u); // a clean keeps the lines
    EXPECT_EQ(c.invalidate(), 0u);    // nothing dirty lost
    EXPECT_EQ(c.valid_lines(), 0u);
}

TEST(cache_state, power_loss_without_a_clean_loses_dirty_lines)
{
    cache_state c(64);
    c.fill(5, 64);
    c.write(5, 0.5);
    EXPECT_EQ(c.invalidate(), 32u);
}

TEST(cache_state, written_back_lines_are_absorbed_as_dirty)
{
    cache_state l2(1024);
    l2.fill(1, 100);
    l2.absorb_dirty(1, 30);
    EXPECT_EQ(l2.dirty(1), 30u);
    l2.absorb_dirty(2, 10); // not present: it becomes valid and dirty
    EXPECT_EQ(l2.lines(2), 10u);
    EXPECT_EQ(l2.dirty(2), 10u);
}

} // namespace
} // namespace blsim::model
