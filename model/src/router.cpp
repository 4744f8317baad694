// model/src/router.cpp
#include "blsim/model/router.h"

namespace blsim::model {

router::router(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out")
{
    in.register_b_transport(this, &router::b_transport);
}

void router::map(std::uint64_t base, std::uint64_t size, unsigned target)
{
    map_.push_back({base, size, target});
}

void router::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    const std::uint64_t addr = trans.get_address();
    for (const range& r : map_) {
        if (addr >= r.base && addr - r.base < r.size) {
            trans.set_address(addr - r.base);
            out[r.target]->b_transport(trans, delay);
            trans.set_address(addr);
            return;
        }
    }
    decode_errors_++;
    char msg[80];
    std::snprintf(msg, sizeof msg, "access to unmapped address 0x%llx",
                  static_cast<unsigned long long>(addr));
    SC_REPORT_WARNING("blsim/router", msg);
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

} // namespace blsim::model
