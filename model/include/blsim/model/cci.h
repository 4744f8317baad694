// model/include/blsim/model/cci.h -- the CCI family of cache-coherent interconnects
// (CCI-400, CCI-500, CCI-550), one model with the variant as a parameter (cci_params::variant).
//
// Slave interfaces, one master towards DRAM, and the register block software uses to take a
// cluster in and out of coherency (the same layout on all three, as Trusted Firmware-A's
// cci.h drives them):
//   base + 0x000C                Status: bit 0 change_pending
//   base + 0x1000 * (i + 1)      Snoop Control of slave interface i: bit 0 snoop enable,
//                                bit 1 DVM enable; bits 31:30 (read-only) say the
//                                interface supports snoops and DVM (ACE interfaces)
// The variants differ in their interfaces and in how they snoop (docs/hardware.md, "CCI"):
//   cci-400  five slave interfaces, S3-S4 ACE (on TC2 S3 serves the A15 cluster, S4 the A7);
//            broadcast snoops, no snoop filter
//   cci-500  seven, S0-S3 ACE; a snoop filter
//   cci-550  seven, S0-S5 ACE; a snoop filter
// (The largest configuration of each; the ACE interfaces numbered first on the 5x0s.)
// A write to a Snoop Control register takes effect at once and keeps change_pending set for
// change_pending_cycles, so software's busy-poll of Status costs that time. With the injected
// fault cci_stuck (faults.h), a write that changes the port's state may keep it set for
// stuck_us instead; a write meanwhile that changes nothing leaves the stuck period as it is,
// and one that changes a state does not end it early.
//
// Coherent reads arriving on a cluster's interface look for their lines in every other
// cluster whose interface has snoops enabled: without a snoop filter each such cluster is
// snooped for every line still missing (broadcast); with one, only the clusters the filter
// knows to hold lines are, for those lines (the filter is exact: it tracks what the caches
// hold). Lines found there are served by the interconnect (snoop_hit_cycles +
// cycles_per_line each), the rest by DRAM. An interface with snoops disabled receives no
// snoops and must hold no valid lines: disabling snoops on a cluster whose caches are not
// empty is an error of the software, and stops the run.
//
// The jitter and fault streams keep the names "cci400" and "cci400.snoop" on every variant:
// a stream's draws follow from its name, so a rename would change every jittered result.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/passthrough_target_socket.h>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/faults.h"
#include "blsim/model/jitter.h"
#include "blsim/model/params.h"
#include "blsim/model/reg_table.h"

namespace blsim::model {

// What the interconnect asks of a cluster's caches.
class snoop_if {
public:
    virtual ~snoop_if() = default;
    // How many of @lines lines of context @ctx this cluster can supply (it keeps its copies).
    virtual std::uint64_t snoop_read(unsigned ctx, std::uint64_t lines) = 0;
    virtual std::uint64_t valid_lines() const = 0;
};

class cci : public sc_core::sc_module {
public:
    static constexpr unsigned max_slaves = cci_max_slaves;
    static constexpr std::uint32_t status_offset = 0x000c;
    static constexpr std::uint32_t snoop_control(unsigned slave) { return 0x1000 * (slave + 1); }
    enum snoop_control_bits : std::uint32_t {
        snoop_enable = 1u << 0,
        dvm_enable = 1u << 1,
        snoop_supported = 1u << 30,
        dvm_supported = 1u << 31,
    };

    tlm_utils::passthrough_target_socket<cci> regs;
    // One socket per connected slave interface: slave[k] is interface @slave_ports[k].
    sc_core::sc_vector<tlm_utils::passthrough_target_socket_tagged<cci>> slave;
    tlm_utils::simple_initiator_socket<cci> master;

    // @slave_ports: the slave interfaces that have a master behind them (3, 4 on TC2), each an
    // ACE interface of the variant.
    cci(sc_core::sc_module_name name, const cci_params& params,
           std::vector<unsigned> slave_ports);

    // Jitter of its register accesses and change-pending time (block "cci400"; with it on,
    // Status makes no promise to a poller: each read takes its own time) and of the lines
    // its snoops serve ("cci400.snoop"). Before the simulation starts.
    void set_jitter(jitter_source& source)
    {
        jitter_ = source.stream("cci400");
        snoop_jitter_ = source.stream("cci400.snoop");
    }

    // Injected faults: cci_stuck (block "faults/cci_stuck/cci400"). Before the simulation
    // starts; without it, none.
    void set_faults(fault_source& source)
    {
        stuck_fault_ = source.stream(fault_kind::cci_stuck, "cci400");
        stuck_time_ = sc_core::sc_time(source.params().cci_stuck.stuck_us, sc_core::SC_US);
    }

    // The caches behind socket slave[@k], which the interconnect snoops.
    void attach(unsigned k, snoop_if& caches, std::string cluster_name);

    bool snoops_enabled(unsigned slave) const { return (control_.at(slave) & snoop_enable) != 0; }
    clock_domain& clock() { return clock_; }

    // Untimed register access (tests, debuggers); @at is the access time.
    std::uint32_t reg_read(std::uint32_t offset) { return regs_.read(0, offset); }
    void reg_write(std::uint32_t offset, std::uint32_t v) { regs_.write(0, offset, v); }

    std::uint64_t snoops() const { return snoops_; }         // line lookups sent to other clusters
    std::uint64_t snoop_hits() const { return snoop_hits_; } // lines served by them
    std::uint64_t bytes() const { return bytes_; }           // data through the interconnect
    std::uint64_t guest_errors() const { return regs_.guest_errors(); }

private:
    void b_transport_regs(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void b_transport_slave(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void write_snoop_control(unsigned slave, std::uint32_t value, std::uint32_t mask);

    cci_params params_;
    std::vector<unsigned> ports_; // slave interface of each socket
    unsigned nslaves_;
    clock_domain clock_;
    reg_table regs_;
    std::array<std::uint32_t, max_slaves> control_{};
    std::array<snoop_if*, max_slaves> caches_{};
    std::array<std::string, max_slaves> names_;
    std::uint32_t control_override_ = 0;
    sc_core::sc_time access_time_;   // of the register access being served
    sc_core::sc_time pending_until_; // change_pending is set until then
    std::uint64_t snoops_ = 0, snoop_hits_ = 0, bytes_ = 0;
    jitter jitter_, snoop_jitter_;
    fault stuck_fault_;
    sc_core::sc_time stuck_time_;  // change_pending's time when stuck
    sc_core::sc_time stuck_until_; // the end of the latest stuck change (zero: none)
};

} // namespace blsim::model
