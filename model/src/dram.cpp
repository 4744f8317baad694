// model/src/dram.cpp
#include "blsim/model/dram.h"
#include "blsim/model/sim_time.h"

namespace blsim::model {

dram::dram(sc_core::sc_module_name name, const dram_params& params)
    : sc_module(name), socket("socket"), params_(params),
      clock_(std::string(basename()) + ".clock", params.clock_mhz)
{
    socket.register_b_transport(this, &dram::b_transport);
}

void dram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    const sc_core::sc_time arrival = sim_now() + delay;
    const std::uint64_t n = trans.get_data_length();
    const sc_core::sc_time transfer =
        clock_.cycles(static_cast<double>(n) / params_.bytes_per_cycle);
    const sc_core::sc_time start = std::max(arrival, busy_until_);
    busy_until_ = start + transfer;
    const sc_core::sc_time latency = jitter_.apply(clock_.cycles(params_.latency_cycles), jitter_class::memory_access);
    const sc_core::sc_time done = start + latency + transfer;
    delay += done - arrival;
    bytes_ += n;
    transactions_++;
    // The accesses of a burst are pipelined: each sees the wait for the channel, the
    // latency and its own transfer (the loaded latency a line fill would see).
    const std::uint64_t m = std::max<std::uint64_t>(1, (n + params_.access_bytes - 1) / params_.access_bytes);
    const double per_access_ns = transfer.to_seconds() * 1e9 / static_cast<double>(m);
    const double mean_ns = (start - arrival).to_seconds() * 1e9 +
                           latency.to_seconds() * 1e9 + per_access_ns;
    accesses_ += m;
    total_latency_ns_ += mean_ns * static_cast<double>(m);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

double dram::avg_latency_ns() const
{
    return accesses_ ? total_latency_ns_ / static_cast<double>(accesses_) : 0.0;
}

} // namespace blsim::model
