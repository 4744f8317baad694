// model/src/cache.cpp
#include "blsim/model/cache.h"

#include <algorithm>
#include <cmath>

#include "blsim/model/invariant.h"

namespace blsim::model {

cache_state::entry* cache_state::find(unsigned ctx)
{
    for (entry& e : lru_)
        if (e.ctx == ctx)
            return &e;
    return nullptr;
}

const cache_state::entry* cache_state::find(unsigned ctx) const
{
    for (const entry& e : lru_)
        if (e.ctx == ctx)
            return &e;
    return nullptr;
}

std::uint64_t cache_state::lines(unsigned ctx) const
{
    const entry* e = find(ctx);
    return e ? e->lines : 0;
}

std::uint64_t cache_state::dirty(unsigned ctx) const
{
    const entry* e = find(ctx);
    return e ? e->dirty : 0;
}

cache_state::fill_result cache_state::fill(unsigned ctx, std::uint64_t ws_lines)
{
    fill_result r;
    const std::uint64_t want = std::min(ws_lines, capacity_);
    entry* e = find(ctx);
    entry self = e ? *e : entry{ctx, 0, 0};
    if (e)
        lru_.erase(lru_.begin() + (e - lru_.data()));
    if (self.lines < want) {
        r.filled = want - self.lines;
        self.lines = want;
        valid_ += r.filled;
    }
    // Evict other contexts, least recently used first, until everything fits.
    for (auto it = lru_.begin(); valid_ > capacity_ && it != lru_.end();) {
        const std::uint64_t out = std::min(it->lines, valid_ - capacity_);
        // Dirty lines go in proportion to the lines evicted, rounded up: a context that
        // loses all its lines loses all its dirty lines.
        const std::uint64_t out_dirty =
            out == it->lines ? it->dirty
                             : std::min(it->dirty, static_cast<std::uint64_t>(std::ceil(
                                                       static_cast<double>(it->dirty) * out / it->lines)));
        it->lines -= out;
        it->dirty -= out_dirty;
        valid_ -= out;
        dirty_ -= out_dirty;
        if (out_dirty) {
            r.evicted_dirty += out_dirty;
            r.evicted_dirty_by_ctx.emplace_back(it->ctx, out_dirty);
        }
        it = it->lines == 0 ? lru_.erase(it) : it + 1;
    }
    BLSIM_CHECK(valid_ <= capacity_);
    if (self.lines > 0)
        lru_.push_back(self);
    return r;
}

void cache_state::write(unsigned ctx, double write_fraction)
{
    entry* e = find(ctx);
    if (!e)
        return;
    const auto target = static_cast<std::uint64_t>(std::ceil(write_fraction * e->lines));
    if (target > e->dirty) {
        dirty_ += std::min(target, e->lines) - e->dirty;
        e->dirty = std::min(target, e->lines);
    }
}

void cache_state::absorb_dirty(unsigned ctx, std::uint64_t n)
{
    if (n == 0)
        return;
    entry* e = find(ctx);
    if (!e) {
        fill(ctx, n);
        e = find(ctx);
        if (!e)
            return; // a zero-capacity cache
    }
    // The lines come from a level above, whose dirty lines are among those this (inclusive)
    // cache already counts dirty: at least @n of the context's lines are dirty now.
    const std::uint64_t target = std::min(n, e->lines);
    if (target > e->dirty) {
        dirty_ += target - e->dirty;
        e->dirty = target;
    }
}

std::uint64_t cache_state::invalidate()
{
    const std::uint64_t lost = dirty_;
    lru_.clear();
    valid_ = 0;
    dirty_ = 0;
    return lost;
}

} // namespace blsim::model
