// model/include/blsim/model/histogram.h -- a latency distribution in constant memory.
//
// Log-bucketed, in the manner of HdrHistogram: values (non-negative integers, picoseconds
// here) below 2^sub_bits are counted exactly; above, each power of two is split into
// 2^(sub_bits-1) equal buckets. A bucket's width is at most 2^-(sub_bits-1) of the values it
// holds, and a percentile is reported as its bucket's midpoint (clamped to the exact minimum
// and maximum), so every reported percentile is within relative_error() of a value of the
// same rank: 1/256 (0.39 %) with sub_bits = 8. Count, sum, minimum and maximum are exact.
// Memory is bounded (at most about 60 KiB: memory_bytes()), however many are recorded: a run of
// a year keeps the same histograms as a run of a second. The buckets of each power of two are
// allocated at its first value, so a histogram whose values span a few powers of two holds a
// few KiB (a run of 4096 tasks keeps one per task).
#pragma once

#include <cstdint>
#include <vector>

namespace blsim::model {

class log_histogram {
public:
    static constexpr int sub_bits = 8;

    log_histogram();

    void record(std::uint64_t v);

    std::uint64_t count() const { return count_; }
    std::uint64_t min() const { return min_; } // 0 when empty
    std::uint64_t max() const { return max_; }
    double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
    // Nearest rank: the value with at least @q (0..1] of the values at or below it,
    // within relative_error(); 0 when empty.
    std::uint64_t percentile(double q) const;

    static constexpr double relative_error() { return 1.0 / (1 << sub_bits); }
    // Bytes this histogram occupies at most (its buckets are allocated a power of two at a
    // time, as values first fall in it): the same for every histogram, however many values
    // it holds.
    std::size_t memory_bytes() const;

private:
    static std::size_t index_of(std::uint64_t v);
    // The lowest value and the width of bucket @i.
    static std::uint64_t bucket_low(std::size_t i);
    static std::uint64_t bucket_width(std::size_t i);

    std::vector<std::vector<std::uint64_t>> groups_; // group 0: the exact range; then a power of two each
    std::uint64_t count_ = 0;
    std::uint64_t min_ = 0, max_ = 0;
    double sum_ = 0;
};

} // namespace blsim::model
