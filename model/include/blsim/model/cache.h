// model/include/blsim/model/cache.h -- a statistical model of one cache's contents.
//
// Exact tag arrays are not needed to answer what matters for a cluster switch: how many lines
// a flush must write back, and how cold a cache is for the software that lands on it. So a
// cache here records, per software context (a task), how many of its lines are valid and how
// many of those are dirty, and the order in which contexts were last used. Filling a context
// evicts the least recently used other contexts first, whole lines at a time: an LRU policy
// at context granularity. Error bound: the model knows occupancy and dirtiness exactly under
// the assumption that a context's working set is touched as a whole each time it runs; it
// does not model conflict misses, partial reuse or prefetching (docs/memory.md).
#pragma once

#include <cstdint>
#include <vector>

namespace blsim::model {

class cache_state {
public:
    explicit cache_state(std::uint64_t capacity_lines) : capacity_(capacity_lines) {}

    std::uint64_t capacity() const { return capacity_; }
    std::uint64_t valid_lines() const { return valid_; }
    std::uint64_t dirty_lines() const { return dirty_; }
    std::uint64_t lines(unsigned ctx) const;
    std::uint64_t dirty(unsigned ctx) const;

    struct fill_result {
        std::uint64_t filled = 0;        // lines of @ctx brought in
        std::uint64_t evicted_dirty = 0; // dirty lines of other contexts pushed out
        std::vector<std::pair<unsigned, std::uint64_t>> evicted_dirty_by_ctx;
    };
    // Make min(@ws_lines, capacity) lines of @ctx valid; @ctx becomes the most recently used.
    fill_result fill(unsigned ctx, std::uint64_t ws_lines);
    // @ctx wrote: at least @write_fraction of its valid lines are dirty.
    void write(unsigned ctx, double write_fraction);
    // @n dirty lines of @ctx written back into this cache from a level above: at least @n
    // of its lines are dirty here (an inclusive cache already counts the lines the level
    // above dirtied); they become valid if they were not.
    void absorb_dirty(unsigned ctx, std::uint64_t n);
    // Clean every dirty line (they stay valid), calling @each(ctx, n) for each context that
    // had n > 0 of them, least recently used first; returns how many in all. (A visitor, not
    // a list: the last man cleans at every cluster power-down.)
    template <class Each> std::uint64_t clean(Each&& each)
    {
        std::uint64_t n = 0;
        for (entry& e : lru_) {
            if (e.dirty) {
                each(e.ctx, e.dirty);
                n += e.dirty;
                e.dirty = 0;
            }
        }
        dirty_ = 0;
        return n;
    }
    // Drop every line; returns the number of dirty lines lost (0 after a clean).
    std::uint64_t invalidate();

private:
    struct entry {
        unsigned ctx;
        std::uint64_t lines;
        std::uint64_t dirty;
    };
    entry* find(unsigned ctx);
    const entry* find(unsigned ctx) const;

    std::uint64_t capacity_;
    std::uint64_t valid_ = 0;
    std::uint64_t dirty_ = 0;
    std::vector<entry> lru_; // least recently used first
};

} // namespace blsim::model
