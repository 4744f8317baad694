// model/src/sram.cpp
#include "blsim/model/sram.h"

#include <cstring>

namespace blsim::model {

sram::sram(sc_core::sc_module_name name, const sram_params& params)
    : sc_module(name), socket("socket"), params_(params),
      clock_(std::string(basename()) + ".clock", params.clock_mhz),
      bytes_(static_cast<std::size_t>(params.size_kb) * 1024, 0)
{
    socket.register_b_transport(this, &sram::b_transport);
    socket.register_get_direct_mem_ptr(this, &sram::get_direct_mem_ptr);
}

bool sram::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi)
{
    dmi.set_dmi_ptr(bytes_.data());
    dmi.set_start_address(0);
    dmi.set_end_address(bytes_.size() - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(clock_.cycles(params_.access_cycles));
    dmi.set_write_latency(clock_.cycles(params_.access_cycles));
    return true;
}

void sram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    const std::uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length();
    delay += clock_.cycles(params_.access_cycles);
    if (addr + len > bytes_.size()) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (trans.is_read())
        std::memcpy(trans.get_data_ptr(), &bytes_[addr], len);
    else if (trans.is_write())
        std::memcpy(&bytes_[addr], trans.get_data_ptr(), len);
    accesses_++;
    trans.set_dmi_allowed(true);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace blsim::model
