// model/include/blsim/model/sram.h -- on-chip SRAM: a byte-addressable store on the system
// bus, strongly ordered (no caches in front), where power-management code keeps the state
// CPUs share while their caches are off (MCPM's states and vlocks). Every access costs
// access_cycles of its clock. Grants direct memory access (TLM-2.0 DMI) to the whole array
// with that latency: its clock never changes, and nothing but the bytes happens on an access.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/passthrough_target_socket.h>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/params.h"

namespace blsim::model {

class sram : public sc_core::sc_module {
public:
    tlm_utils::passthrough_target_socket<sram> socket;

    sram(sc_core::sc_module_name name, const sram_params& params);

    std::uint64_t size() const { return bytes_.size(); }
    // Accesses by transaction (not those made through DMI: the initiators count theirs).
    std::uint64_t accesses() const { return accesses_; }
    // Untimed view, for tests and debuggers.
    std::uint8_t peek(std::uint64_t offset) const { return bytes_.at(offset); }

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

    sram_params params_;
    clock_domain clock_;
    std::vector<std::uint8_t> bytes_;
    std::uint64_t accesses_ = 0;
};

} // namespace blsim::model
