// model/include/blsim/model/router.h -- the system bus: routes CPU register accesses to the
// peripheral that owns the address (GIC frames, CCI registers). Offsets reach the target
// relative to its base. No latency of its own: targets charge theirs. Direct memory access
// (TLM-2.0 DMI) requests and invalidations pass through, their ranges translated.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

namespace blsim::model {

class router : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<router> in;
    tlm_utils::multi_passthrough_initiator_socket<router> out;

    explicit router(sc_core::sc_module_name name);

    // Addresses [base, base + size) go to out[@target] (binding order).
    void map(std::uint64_t base, std::uint64_t size, unsigned target);

    std::uint64_t decode_errors() const { return decode_errors_; }

private:
    void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    void invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end);

    struct range {
        std::uint64_t base, size;
        unsigned target;
    };
    const range* decode(std::uint64_t addr) const;

    std::vector<range> map_;
    // The range the last access hit: a core's accesses come in runs to one device (a
    // register sequence to the SPC, the GIC's interface), so it is tried first.
    mutable std::size_t last_ = 0;
    std::uint64_t decode_errors_ = 0;
};

} // namespace blsim::model
