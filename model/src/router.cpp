// model/src/router.cpp
#include "blsim/model/router.h"

#include <algorithm>

#include "blsim/model/invariant.h"

namespace blsim::model {

router::router(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out")
{
    in.register_b_transport(this, &router::b_transport);
    in.register_get_direct_mem_ptr(this, &router::get_direct_mem_ptr);
    out.register_invalidate_direct_mem_ptr(this, &router::invalidate_direct_mem_ptr);
}

const router::range* router::decode(std::uint64_t addr) const
{
    // Ranges do not overlap (map() refuses it), so whichever matches is the only one.
    if (last_ < map_.size() && addr - map_[last_].base < map_[last_].size && addr >= map_[last_].base)
        return &map_[last_];
    for (std::size_t i = 0; i < map_.size(); i++)
        if (addr >= map_[i].base && addr - map_[i].base < map_[i].size) {
            last_ = i;
            return &map_[i];
        }
    return nullptr;
}

void router::map(std::uint64_t base, std::uint64_t size, unsigned target)
{
    // The platform composes the map: an overlap would be its bug, and decode() relies on none.
    for (const range& r : map_)
        BLSIM_CHECK(base + size <= r.base || r.base + r.size <= base);
    map_.push_back({base, size, target});
}

void router::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    const std::uint64_t addr = trans.get_address();
    if (const range* r = decode(addr)) {
        trans.set_address(addr - r->base);
        out[r->target]->b_transport(trans, delay);
        trans.set_address(addr);
        return;
    }
    decode_errors_++;
    char msg[80];
    std::snprintf(msg, sizeof msg, "access to unmapped address 0x%llx",
                  static_cast<unsigned long long>(addr));
    SC_REPORT_WARNING("blsim/router", msg);
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

bool router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi)
{
    const std::uint64_t addr = trans.get_address();
    const range* r = decode(addr);
    if (!r)
        return false;
    trans.set_address(addr - r->base);
    const bool granted = out[r->target]->get_direct_mem_ptr(trans, dmi);
    trans.set_address(addr);
    // The target's range in bus addresses, clipped to what the map gives it.
    dmi.set_start_address(dmi.get_start_address() + r->base);
    dmi.set_end_address(std::min<std::uint64_t>(dmi.get_end_address(), r->size - 1) + r->base);
    return granted;
}

// Every initiator may hold a pointer into the range: each hears of it (`in->` alone would
// reach the first bound only).
void router::invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end)
{
    for (const range& r : map_)
        if (r.target == static_cast<unsigned>(target) && start < r.size)
            for (unsigned i = 0; i < in.size(); i++)
                in[static_cast<int>(i)]->invalidate_direct_mem_ptr(start + r.base,
                                                                   std::min<std::uint64_t>(end, r.size - 1) + r.base);
}

} // namespace blsim::model
