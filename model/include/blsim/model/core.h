// model/include/blsim/model/core.h -- one CPU core: executes its software's work event by event.
//
// A core does not tick. Its software (C code from switcher/, installed by soc/) runs in the
// core's SystemC thread and asks for services below; each consumes this core's simulated time
// and may block it, while the other cores run their own software concurrently.
//
// Work is measured in reference nanoseconds (see docs/architecture.md, "Work and capacity"):
// at frequency f the compute part progresses at capacity(f) / reference capacity, and the
// memory-stall part at wall-clock speed. Completion times are computed, not ticked; a clock
// change or an interrupt cuts the wait short and the remaining work is recomputed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/jitter.h"
#include "blsim/model/params.h"
#include "blsim/model/power_controller.h"
#include "blsim/model/sim_time.h"
#include "blsim/model/tlm_util.h"

namespace blsim::model {

class core : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<core> bus; // device registers (GIC, CCI)
    sc_core::sc_in<bool> irq;                     // from its GIC CPU interface
    sc_core::sc_in<bool> wake;                    // from the GIC's power-management output

    // @reference_capacity is capacity_dmips_mhz * freq_mhz of the SoC's fastest core at its
    // top OPP: the core that does one reference nanosecond of work per nanosecond.
    core(sc_core::sc_module_name name, unsigned cpu, unsigned cluster,
         const cluster_params& params, clock_domain& clock, power_controller& pc,
         double reference_capacity);

    unsigned cpu() const { return cpu_; }
    unsigned cluster() const { return cluster_; }

    // The software this core runs from time zero. Set before the simulation starts. When
    // it returns the core stays off.
    void set_software(std::function<void()> software) { software_ = std::move(software); }
    // Jitter of its shared-memory accesses (block "cpu<N>"). Before the simulation starts.
    void set_jitter(jitter_source& source) { jitter_ = source.stream("cpu" + std::to_string(cpu_)); }

    // --- services for the core's own software (call only from this core's thread) ---

    // Runs work until done (returns 0) or until an interrupt is pending (returns 1, the
    // caller's -EINTR). *done_ref_ns: the part completed.
    int execute(double ref_ns, double mem_fraction, double* done_ref_ns);
    // Mask or unmask interrupts (CPSR.I): a masked core's work is not cut short by one, nor
    // its WFE ended.
    void set_irq_masked(bool masked) { irq_masked_ = masked; }
    bool irq_masked() const { return irq_masked_; }
    // A pending interrupt ends a WFE only if unmasked (ARMv7-A; WFI wakes either way).
    bool irq_wakes_wfe() const { return irq.read() && !irq_masked_; }
    // WFI: returns at once when an interrupt is signalled, else clock-gates until one is.
    void wait_for_interrupt();
    // WFE: returns at once (clearing it) when the event register is set, else waits for an
    // event or an interrupt.
    void wait_for_event();
    // Powers the core off; returns once the power controller has woken it (an interrupt
    // targeting it, with its wake-up armed) and powered it up again.
    void power_down();
    // A device register access. The access latency is kept as local time (temporal
    // decoupling) and waited out at the next blocking service or after one quantum.
    std::uint32_t mmio_read(std::uint64_t addr);
    // Busy-poll @addr until (value & @mask) == 0 or @timeout has passed in this core's time
    // since the first read; returns the last value read. Exactly the time and the reads of
    // the loop of mmio_read() it stands for, but the reads a target promises will return
    // the same value are counted without being made.
    std::uint32_t poll(std::uint64_t addr, std::uint32_t mask, const sc_core::sc_time& timeout);
    void mmio_write(std::uint64_t addr, std::uint32_t value);
    // A strongly-ordered shared-memory access of 1, 2 or 4 bytes: issued at this core's
    // exact time (local time waited out first); its latency is waited out before the core's
    // next access or any other service that syncs (barrier, event, wait, power).
    std::uint32_t shared_read(std::uint64_t addr, unsigned bytes);
    void shared_write(std::uint64_t addr, unsigned bytes, std::uint32_t value);
    // The core is stalled (still on) for @t: a cache fill, a flush.
    void stall(const sc_core::sc_time& t);
    // Wait out the local time.
    void sync();
    // Wait out the local time unless no other process can run before it (see core.cpp).
    void settle();
    // settle() keeps the time to the next pending activity it last asked SystemC for, and
    // reuses it while its thread has done nothing but shared accesses and barriers since: no
    // wait (another process would have run) and no service that could notify an event. Any
    // other service of the software must end by forgetting it; the platform's verbs do.
    void forget_horizon() { horizon_known_ = false; }
    // Simulated time as this core sees it (the kernel's time plus its local offset).
    sc_core::sc_time local_time() const { return sim_now() + offset_; }
    const sc_core::sc_time& local_offset() const { return offset_; }

    // --- hardware side ---

    // SEV from any core, sent @delay after the kernel's time: set the event register and
    // wake WFE then. Any context; a non-zero @delay only from a sender that has settle()d.
    // Returns whether it notified (the core was asleep in WFE): only then is there new
    // activity pending, which the sender's lookahead horizon must not outrun.
    bool signal_event(const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME)
    {
        event_register_ = true;
        // Only a core asleep in WFE needs waking; the others find the register set.
        if (!in_wfe_)
            return false;
        event_.notify(delay);
        return true;
    }
    // SEV executed by this core (its thread): every core of @cores (this one among them) has
    // its event register set, and those asleep in WFE wake at this core's local time. Only such
    // a wake-up is new activity; then the lookahead horizon is forgotten, so that this core's
    // next shared accesses do not run past it.
    void send_event(const std::vector<core*>& cores)
    {
        settle(); // the event leaves at the sender's local time
        bool woke = false;
        for (core* c : cores)
            woke |= c->signal_event(offset_);
        if (woke)
            forget_horizon();
    }
    bool irq_pending() const { return irq.read(); }

    // Work progress per nanosecond at the current frequency.
    double progress_rate(double mem_fraction) const;

    std::uint64_t segments() const { return segments_; }
    std::uint64_t mmio_accesses() const { return mmio_accesses_; }

    // Local time beyond which an access sequence synchronises with the kernel.
    static constexpr double quantum_ns = 1000;
    // Cycles of one WFE and the loop around it, when it does not sleep.
    static constexpr double wfe_cycles = 4;
    // Stack of the thread the software runs on.
    static constexpr std::size_t software_stack_bytes = 512 * 1024;

private:
    void thread();
    // The local time ahead, handed to a service that waits it out with its own latency.
    sc_core::sc_time take_lead();
    // Time the core must let pass before it next touches the system.
    void owe(const sc_core::sc_time& t);
    // A device access: what is owed first, a sync after a quantum.
    std::uint32_t access(std::uint64_t addr, bool write, std::uint32_t value, unsigned bytes,
                         sc_core::sc_time* steady_until = nullptr);
    // A shared-memory access, through the direct pointer once the target has granted one.
    std::uint32_t shared_access(std::uint64_t addr, bool write, std::uint32_t value, unsigned bytes);
    void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);
    // The transaction itself, its latency added to the local time.
    std::uint32_t transport(std::uint64_t addr, bool write, std::uint32_t value, unsigned bytes,
                            sc_core::sc_time* steady_until);

    unsigned cpu_;
    unsigned cluster_;
    int capacity_dmips_mhz_;
    clock_domain& clock_;
    power_controller& pc_;
    double reference_capacity_;
    std::function<void()> software_;
    bool event_register_ = false;
    bool in_wfe_ = false; // asleep in WFE: an event must wake it
    bool irq_masked_ = false;
    sc_core::sc_event event_;
    // The event lists its waits use, built at their first use.
    static const sc_core::sc_event_or_list& either(sc_core::sc_event_or_list& list, const sc_core::sc_event& a,
                                                   const sc_core::sc_event& b);
    sc_core::sc_event_or_list clock_or_irq_, event_or_irq_, wake_or_mask_;
    sc_core::sc_time offset_;
    const sc_core::sc_time quantum_{quantum_ns, sc_core::SC_NS};
    // Reused for every register access: a payload allocates on construction, and a core has
    // at most one access in flight.
    tlm::tlm_generic_payload trans_;
    cpu_extension* ext_ = nullptr; // on trans_, which owns it
    std::uint64_t segments_ = 0;
    std::uint64_t mmio_accesses_ = 0;
    tlm::tlm_dmi dmi_;       // shared memory's direct pointer, when dmi_valid_
    bool dmi_valid_ = false;
    bool owed_ = false; // local time is a shared access's latency, to wait before the next access
    bool horizon_known_ = false;  // horizon_ is still sc_time_to_pending_activity() (settle())
    sc_core::sc_time horizon_;
    jitter jitter_;     // of the shared-memory accesses
};

} // namespace blsim::model
