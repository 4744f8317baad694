// model/src/histogram.cpp
#include "blsim/model/histogram.h"

#include <algorithm>
#include <cmath>

namespace blsim::model {

namespace {

constexpr int half = 1 << (log_histogram::sub_bits - 1); // buckets per power of two above the exact range
constexpr int exact = 1 << log_histogram::sub_bits;      // values counted one by one

int top_bit(std::uint64_t v) { return 63 - __builtin_clzll(v); }

} // namespace

// The exact range (group 0), then one group of 'half' buckets for each power of two from
// 2^sub_bits to 2^63 (groups 1..). Each group is allocated at its first value: a run makes a
// dozen histograms and one per task (thousands), most values of each fall in a few powers of
// two, and start-up and memory count for sweeps of short runs.
constexpr std::size_t ngroups = 1 + static_cast<std::size_t>(64 - log_histogram::sub_bits);
constexpr std::size_t nbuckets = exact + (ngroups - 1) * half;

namespace {

std::size_t group_of(std::size_t i) { return i < static_cast<std::size_t>(exact) ? 0 : 1 + (i - exact) / half; }
std::size_t group_first(std::size_t g) { return g == 0 ? 0 : exact + (g - 1) * half; }
std::size_t group_size(std::size_t g) { return g == 0 ? exact : half; }

} // namespace

log_histogram::log_histogram() = default;

std::size_t log_histogram::memory_bytes() const
{
    return sizeof(*this) + ngroups * sizeof(std::vector<std::uint64_t>) + nbuckets * sizeof(std::uint64_t);
}

std::size_t log_histogram::index_of(std::uint64_t v)
{
    if (v < static_cast<std::uint64_t>(exact))
        return static_cast<std::size_t>(v);
    const int b = top_bit(v); // >= sub_bits
    const int shift = b - (sub_bits - 1);
    const std::uint64_t sub = (v >> shift) - half; // 0..half-1
    return exact + static_cast<std::size_t>(b - sub_bits) * half + static_cast<std::size_t>(sub);
}

std::uint64_t log_histogram::bucket_low(std::size_t i)
{
    if (i < static_cast<std::size_t>(exact))
        return i;
    const std::size_t g = (i - exact) / half, sub = (i - exact) % half;
    const int shift = static_cast<int>(g) + 1;
    return (static_cast<std::uint64_t>(half) + sub) << shift;
}

std::uint64_t log_histogram::bucket_width(std::size_t i)
{
    if (i < static_cast<std::size_t>(exact))
        return 1;
    return std::uint64_t{1} << ((i - exact) / half + 1);
}

void log_histogram::record(std::uint64_t v)
{
    if (groups_.empty())
        groups_.resize(ngroups);
    const std::size_t i = index_of(v), g = group_of(i);
    if (groups_[g].empty())
        groups_[g].assign(group_size(g), 0);
    groups_[g][i - group_first(g)]++;
    if (count_ == 0 || v < min_)
        min_ = v;
    if (v > max_)
        max_ = v;
    count_++;
    sum_ += static_cast<double>(v);
}

std::uint64_t log_histogram::percentile(double q) const
{
    if (count_ == 0)
        return 0;
    const std::uint64_t rank =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_))));
    if (rank >= count_)
        return max_;
    std::uint64_t seen = 0;
    for (std::size_t g = 0; g < groups_.size(); g++)
        for (std::size_t k = 0; k < groups_[g].size(); k++) {
            seen += groups_[g][k];
            if (seen >= rank) {
                const std::size_t i = group_first(g) + k;
                const std::uint64_t mid = bucket_low(i) + (bucket_width(i) - 1) / 2;
                return std::clamp(mid, min_, max_);
            }
        }
    return max_;
}

} // namespace blsim::model
