// model/include/blsim/model/dram.h -- DRAM behind its controller: latency, bandwidth, and
// contention between the masters that share its single channel.
//
// A transaction of N bytes arriving at time t (sc_time_stamp() + the initiator's local
// offset) waits until the channel is free, occupies it for N / bytes_per_cycle cycles, and
// completes one latency after its transfer starts:
//     start = max(t, busy_until);  busy_until = start + transfer;
//     done  = start + latency + transfer;   delay += done - t
// Aggregated bursts (many lines in one transaction) therefore see streaming bandwidth, and
// two clusters streaming at once each see the other's traffic as queueing.
//
// The average latency is per access of access_bytes (a cache line), the accesses of a burst
// being pipelined: each counts the burst's wait for the channel, the latency and its own
// transfer. It is the loaded latency; the burst as a whole takes longer (its transfer).
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/passthrough_target_socket.h>

#include "blsim/model/clock_domain.h"
#include "blsim/model/jitter.h"
#include "blsim/model/params.h"

namespace blsim::model {

class dram : public sc_core::sc_module {
public:
    tlm_utils::passthrough_target_socket<dram> socket;

    dram(sc_core::sc_module_name name, const dram_params& params);

    clock_domain& clock() { return clock_; }
    // Jitter of its latency (block "dram", memory accesses; one draw per transaction; the
    // transfer and the queueing are not perturbed). Before the simulation starts.
    void set_jitter(jitter_source& source) { jitter_ = source.stream("dram"); }

    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t transactions() const { return transactions_; }
    // Mean time from a transaction's arrival to each of its accesses' completion, in ns.
    double avg_latency_ns() const;

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

    dram_params params_;
    clock_domain clock_;
    sc_core::sc_time busy_until_;
    std::uint64_t bytes_ = 0;
    std::uint64_t transactions_ = 0;
    std::uint64_t accesses_ = 0;
    double total_latency_ns_ = 0;
    jitter jitter_;
};

} // namespace blsim::model
