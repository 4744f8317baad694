// model/include/blsim/model/power_controller.h -- the SoC power controller (TC2's SPC, the
// Serial Power Controller inside the SCC).
//
// Two sides. The *register block* is what software sees, a TLM target laid out as TC2's SPC
// (Linux's arch/arm/mach-vexpress/spc.c names every register), extended to four clusters where
// TC2's two leave room (clusters 2 and 3 are this model's, not TC2's: docs/hardware.md):
//   perf_lvl(c)  PERF_LVL of cluster c (0x00, 0x08; 0x40, 0x48): write an OPP index to start a
//                DVFS transition; reads the last level written
//   0x18         PWC_STATUS: the response of a finished request, STAT_COMPLETE(c) = 1 << 4c,
//                STAT_ERR(c) = 2 << 4c; bit 16 + 4c + k, a power-up of core k of cluster c
//                that failed (fault injection only: faults.power_up_fail); reading it clears
//                every bit and lowers the interrupt
//   0x24         WAKE_INT_MASK: bit wake_cpu(c, k) lets an interrupt wake core k of cluster c
//                when it is powered down (4c + k for clusters 0-1, 16 + 4(c - 2) + k for 2-3);
//                bits 10-11 the global wake-ups (kept, no effect here)
//   0x30 + 4*c   PWRDN_EN of cluster c: it powers down when its last core does
//   0x68 + 16*c + 4*k   BX_ADDR of core k of cluster c: where it resumes (kept, no effect)
// With a cluster of more than 4 cores (none on TC2) the per-core fields take the *wide layout*
// (wide_layout(); bls/spc.h), indexed by the CPU's number n, 0..7: WAKE_INT_MASK bit n,
// PWC_STATUS power-up error bit 16 + n, BX_ADDR at 0x68 + 4n. The rest is as above.
// One DVFS engine serves every cluster: one transition at a time, a completion interrupt at
// its end (a level line to the GIC). A PERF_LVL write while one is in flight is a guest error
// and is ignored, as software must serialise (Linux holds a semaphore).
//
// The *power side* is called by the cores, from their own threads: WFI, power-down and
// wake-up, each consuming that core's time. A core powered down wakes when an interrupt
// targets it (the GIC's wake output) and its WAKE_INT_MASK bit is set. A cluster whose last
// core is off, with PWRDN_EN set and power gating possible, powers down in the background
// (cluster_off_entry_us); a wake-up meanwhile aborts the power-down or lets it complete first
// (power.cluster_entry_wakeup). Powering up takes cluster_off_exit_us before the first core's
// own exit latency. Latencies are the hardware's: software's flushing and restore are timed by
// the software itself.
//
// Fault injection (faults.h; docs/hardware.md, "Fault injection"), off unless configured: a
// power-up from off that fails (the core and its cluster stay off; after the timeout the
// controller sets the core's power-up error bit in PWC_STATUS, raises its interrupt, and tries
// again while the core's wake-up stays armed), and a PERF_LVL request answered STAT_ERR with the clock unchanged.
//
// Observers see every core and cluster state change (core_changed, cluster_changed); the
// energy meter is one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <systemc>
#include <tlm>
#include <tlm_utils/passthrough_target_socket.h>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/dvfs_controller.h"
#include "blsim/model/faults.h"
#include "blsim/model/jitter.h"
#include "blsim/model/observable.h"
#include "blsim/model/params.h"
#include "blsim/model/power_state.h"
#include "blsim/model/reg_table.h"

namespace blsim::model {

class power_controller : public sc_core::sc_module {
public:
    enum spc_reg : std::uint32_t {
        PERF_LVL = 0x00, // cluster 0; perf_lvl(c) for any
        PWC_STATUS = 0x18,
        WAKE_INT_MASK = 0x24,
        PWRDN_EN = 0x30, // + 4 * cluster
        BX_ADDR = 0x68,  // + 16 * cluster + 4 * core
    };
    static constexpr std::uint32_t stat_complete(unsigned cluster) { return 1u << (4 * cluster); }
    static constexpr std::uint32_t stat_err(unsigned cluster) { return 2u << (4 * cluster); }
    // A failed power-up of core @core of cluster @cluster (fault injection).
    static constexpr std::uint32_t stat_power_up_err(unsigned cluster, unsigned core)
    {
        return 1u << (16 + 4 * cluster + core);
    }
    static constexpr std::uint32_t perf_lvl(unsigned cluster)
    {
        return cluster < 2 ? 8 * cluster : 0x40 + 8 * (cluster - 2);
    }
    static constexpr unsigned wake_cpu(unsigned cluster, unsigned core)
    {
        return cluster < 2 ? 4 * cluster + core : 16 + 4 * (cluster - 2) + core;
    }
    static constexpr unsigned max_clusters = 4;          // what the register layout serves
    static constexpr unsigned max_cores_per_cluster = 8; // ... each (more than 4: wide layout)
    static constexpr unsigned max_cpus_wide = 8;         // ... in all, in the wide layout
    static constexpr std::uint32_t window_bytes = 0x100;

    tlm_utils::passthrough_target_socket<power_controller> regs;

    power_controller(sc_core::sc_module_name name, const soc_params& soc);

    // Wiring, before the simulation starts: the DVFS controller of each cluster, and the
    // interrupt line to the GIC (called with the line's new level).
    void attach_dvfs(unsigned cluster, dvfs_controller& dvfs);
    void connect_irq(std::function<void(bool)> line) { irq_line_ = std::move(line); }
    // Jitter of its latencies: register accesses (block "pwrc"), each core's power-state
    // changes ("pwrc.cpu<N>": entries are power transitions, exits wake-ups), each cluster's
    // power-down and power-up ("pwrc.cluster.<name>"). Before the simulation starts.
    void set_jitter(jitter_source& source);
    // Injected faults: power_up_fail and dvfs_fail (blocks "faults/<kind>/pwrc"). Before the
    // simulation starts; without it, none.
    void set_faults(fault_source& source);

    unsigned ncpus() const { return static_cast<unsigned>(cpu_cluster_.size()); }
    unsigned nclusters() const { return static_cast<unsigned>(clusters_.size()); }
    unsigned cluster_of(unsigned cpu) const { return cpu_cluster_.at(cpu); }
    // Whether the per-core fields have the wide layout (a cluster of more than 4 cores).
    bool wide_layout() const { return wide_; }

    core_power core_state(unsigned cpu) const { return cores_.at(cpu); }
    cluster_power cluster_state(unsigned cluster) const;

    // --- the power side: runs on @cpu, in its thread ---

    // WFI entry: @cpu is on. Waits the entry latency, then clock-gates it.
    void core_enter_wfi(unsigned cpu);
    // Power-down: @cpu is on. Waits @lead (the core's local time ahead of the kernel's: the
    // entry starts then) and the entry latency, and turns it off; if it was the last core of
    // its cluster and PWRDN_EN is set, the cluster starts powering down (in the background:
    // this returns at once).
    void core_enter_off(unsigned cpu, const sc_core::sc_time& lead = sc_core::SC_ZERO_TIME);
    // Wake-up: @cpu is in WFI or off. Powers its cluster up first when needed (one core does
    // it; another arriving meanwhile waits for it), then turns the core on. Returns the time
    // the core still takes to come out of reset or clock gating, for its thread to owe (the
    // core is on from now; its software runs that much later).
    sc_core::sc_time core_exit(unsigned cpu);
    // The power-up of @cpu, off, is due (its wake condition has become true): whether it
    // fails (faults.power_up_fail). If so nothing is powered, and this returns after the
    // controller's timeout, having set its power-up error bit in PWC_STATUS and raised the
    // interrupt: the core waits for its wake condition again (still true, unless software
    // disarmed the wake-up meanwhile: a new attempt at once).
    // Otherwise it returns false at once, for core_exit().
    bool core_power_up_fails(unsigned cpu);
    // Whether an interrupt may wake @cpu from power-down (its WAKE_INT_MASK bit), and the
    // event notified when that bit is set (clearing it wakes no one).
    bool wakeup_enabled(unsigned cpu) const;
    const sc_core::sc_event& wakeup_mask_event(unsigned cpu) const { return *mask_set_.at(cpu); }

    // Untimed register access, for tests and debuggers.
    std::uint32_t reg_read(std::uint32_t offset) { return regs_.read(0, offset); }
    void reg_write(std::uint32_t offset, std::uint32_t v) { regs_.write(0, offset, v); }

    observable<unsigned /*cpu*/, core_power /*old*/, core_power /*new*/> core_changed;
    observable<unsigned /*cluster*/, cluster_power /*old*/, cluster_power /*new*/> cluster_changed;

    std::uint64_t transitions() const { return transitions_; }
    std::uint64_t dvfs_requests() const { return dvfs_requests_; }
    std::uint64_t entries_aborted() const { return entries_aborted_; }
    // Cluster power-downs a wake-up aborted, of one cluster.
    std::uint64_t entries_aborted(unsigned cluster) const { return clusters_.at(cluster).entries_aborted; }
    std::uint64_t guest_errors() const { return regs_.guest_errors() + guest_errors_; }
    // Power-ups that failed, of every core (fault injection).
    std::uint64_t power_ups_failed() const { return power_ups_failed_; }
    // Whether @cpu's power-up is failing now (the controller waits out its timeout, and
    // nothing runs on that core meanwhile); if so, @since is when the attempt began.
    bool power_up_failing(unsigned cpu, sc_core::sc_time& since) const;

private:
    enum class cluster_phase { on, going_down, off, coming_up };

    void declare_registers();
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void set_core(unsigned cpu, core_power s);
    void set_cluster(unsigned cluster, cluster_phase p);
    void cluster_power_up(unsigned cluster);
    void cluster_sequencer(unsigned cluster); // the background power-down of one cluster
    void dvfs_engine();
    void request_performance(unsigned cluster, std::uint32_t level);
    void set_irq(bool level);
    unsigned wake_bit(unsigned cpu) const;
    std::uint32_t power_up_err_bit(unsigned cpu) const;
    void declare_bx_addr(unsigned cluster);

    struct cluster_slot {
        std::string name;
        power_params params;
        // The latencies as simulation times, converted once.
        sc_core::sc_time wfi_entry, wfi_exit, off_entry, off_exit, cluster_entry, cluster_exit;
        std::vector<unsigned> cpus;
        cluster_phase phase = cluster_phase::on;
        bool powerdown_enabled = false; // PWRDN_EN
        dvfs_controller* dvfs = nullptr;
        std::uint32_t perf_level = 0;
        std::vector<std::uint32_t> bx_addr;
        std::uint64_t entries_aborted = 0;
        std::unique_ptr<sc_core::sc_event> changed_event, down_request, abort_request;
        unsigned phase_waiters = 0; // cores waiting on changed_event
        jitter power_jitter; // its power-down and power-up
    };
    void wait_phase_change(cluster_slot& c);

    std::vector<cluster_slot> clusters_;
    std::vector<unsigned> cpu_cluster_;
    std::vector<unsigned> cpu_index_; // index within its cluster
    std::vector<core_power> cores_;
    std::vector<jitter> core_jitter_; // per CPU: its entries and exits
    jitter jitter_;                   // register accesses
    spc_params spc_;
    clock_domain clock_;
    reg_table regs_;
    sc_core::sc_time access_time_; // of the register access being served
    bool wide_ = false; // the wide layout
    std::vector<unsigned> wake_bit_; // each CPU's WAKE_INT_MASK bit, in the layout it has
    std::uint32_t wake_mask_ = 0;
    std::uint32_t status_ = 0;
    bool irq_level_ = false;
    std::function<void(bool)> irq_line_;
    std::vector<std::unique_ptr<sc_core::sc_event>> mask_set_; // per CPU
    // The DVFS engine: one request at a time.
    bool dvfs_busy_ = false;
    unsigned dvfs_cluster_ = 0;
    std::uint32_t dvfs_level_ = 0;
    sc_core::sc_event dvfs_start_;
    std::uint64_t transitions_ = 0, dvfs_requests_ = 0, entries_aborted_ = 0, guest_errors_ = 0;
    // Fault injection (off: they draw nothing).
    fault power_up_fault_, dvfs_fault_;
    sc_core::sc_time power_up_timeout_;
    std::uint64_t power_ups_failed_ = 0;
    std::vector<std::optional<sc_core::sc_time>> failing_since_; // per CPU
};

} // namespace blsim::model
