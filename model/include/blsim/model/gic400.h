// model/include/blsim/model/gic400.h -- the GIC-400 interrupt controller (GICv2).
//
// Two register frames, each a TLM-2.0 target: the distributor (interrupt enables, pending
// state, priorities, SPI targets, software-generated interrupts) and the CPU interfaces
// (acknowledge, end of interrupt, priority mask), banked by the accessing CPU, which a
// transaction names with cpu_extension. What IKS depends on is exact:
//  - ITARGETSR words 0-7 (SGIs, PPIs) are banked and read-only: each byte reads as the
//    reader's own CPU bit;
//  - SGIR takes a target list and a filter (0 list, 1 all but self, 2 self; 3 reserved);
//  - a pending SGI is pending per source CPU (SPENDSGIR/CPENDSGIR, banked), and IAR returns
//    the source of an acknowledged SGI in bits 12:10; IAR is 1023 when nothing is pending;
//  - a CPU interface can be turned off (GICC_CTLR.Enable = 0), which cuts its IRQ line; the
//    wake output still says an interrupt targets that CPU, as the GIC-400's power-management
//    outputs do, so a power controller can wake it.
// Peripheral inputs: raise_*() latch an edge; set_spi_level() drives a level-sensitive line.
// Priority model: an interrupt is signalled when enabled, pending, not active, and of higher
// priority (lower value) than both PMR and the CPU's running priority. No security
// extensions (all Group 0), no binary-point preemption, no virtualisation frames.
// Injected faults (faults.h; docs/hardware.md, "Fault injection"), off unless configured:
//  - wakeup_lost: an SGI whose target is powered off when GICD_SGIR is written may be lost
//    for that target (never pending there; its other targets get it);
//  - spurious_irq: now and then a CPU whose interface is enabled gets its IRQ output asserted
//    with nothing behind it: its next GICC_IAR read answers 1023 (whatever else is pending),
//    and the line then follows the real pending state again. The wake output is untouched,
//    so a powered-down CPU is not woken. GICC_HPPIR does not see it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <systemc>
#include <tlm>
#include <tlm_utils/passthrough_target_socket.h>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/faults.h"
#include "blsim/model/jitter.h"
#include "blsim/model/observable.h"
#include "blsim/model/params.h"
#include "blsim/model/reg_table.h"

namespace blsim::model {

class gic400 : public sc_core::sc_module {
public:
    static constexpr unsigned max_cpus = gic_max_cpus;
    static constexpr unsigned nsgi = 16;
    static constexpr unsigned nprivate = 32; // SGIs 0-15 and PPIs 16-31
    static constexpr std::uint32_t spurious = 1023;

    // Distributor register offsets (GICv2 architecture specification).
    enum dist_reg : std::uint32_t {
        GICD_CTLR = 0x000, GICD_TYPER = 0x004, GICD_IIDR = 0x008,
        GICD_ISENABLER = 0x100, GICD_ICENABLER = 0x180,
        GICD_ISPENDR = 0x200, GICD_ICPENDR = 0x280,
        GICD_ISACTIVER = 0x300, GICD_ICACTIVER = 0x380,
        GICD_IPRIORITYR = 0x400, GICD_ITARGETSR = 0x800, GICD_ICFGR = 0xC00,
        GICD_SGIR = 0xF00, GICD_CPENDSGIR = 0xF10, GICD_SPENDSGIR = 0xF20,
    };
    // CPU interface register offsets.
    enum cpu_reg : std::uint32_t {
        GICC_CTLR = 0x00, GICC_PMR = 0x04, GICC_BPR = 0x08, GICC_IAR = 0x0C,
        GICC_EOIR = 0x10, GICC_RPR = 0x14, GICC_HPPIR = 0x18,
    };

    tlm_utils::passthrough_target_socket<gic400> dist_socket;
    tlm_utils::passthrough_target_socket<gic400> cpu_socket;
    sc_core::sc_vector<sc_core::sc_out<bool>> irq;  // to each core: an interrupt is signalled
    sc_core::sc_vector<sc_core::sc_out<bool>> wake; // to the power controller: one targets the CPU
    // Each write of a line above, as it is made (for observers such as a trace writer, which
    // must not touch the signals themselves): the CPU, which line (false irq, true wake), its
    // new level. The signal takes the level in the next delta cycle, at the same time.
    observable<unsigned /*cpu*/, bool /*wake*/, bool /*level*/> line_written;

    gic400(sc_core::sc_module_name name, unsigned ncpus, const gic_params& params,
           clock_domain& clock);

    // Jitter of its register accesses (block "gic400") and of SGI delivery ("gic400.sgi": an
    // SGI is pending in the distributor when its GICD_SGIR write is, and reaches each target's
    // CPU interface -- its IRQ and wake outputs, GICC_IAR -- after a delay of its own). Before
    // the simulation starts.
    void set_jitter(jitter_source& source);
    // Injected faults: wakeup_lost (block "faults/wakeup_lost/gic400"), asking @cpu_powered_off
    // whether an SGI's target is powered off; spurious_irq (blocks
    // "faults/spurious_irq/gic400.arrivals" for the times, ".cpu" for the CPUs), from a thread
    // of its own that exists only when that fault is configured. Before the simulation starts;
    // @source must outlive the simulation.
    void set_faults(fault_source& source, std::function<bool(unsigned cpu)> cpu_powered_off);

    // --- peripheral side (any context) ---
    void raise_ppi(unsigned cpu, unsigned id); // id 16..31, edge
    void raise_spi(unsigned id);               // id 32.., edge
    void set_spi_level(unsigned id, bool level);
    // A level-sensitive PPI line of @cpu (the generic timer's): pending while high and not
    // active, pending again after its EOI while still high.
    void set_ppi_level(unsigned cpu, unsigned id, bool level);
    // Whether SPI @id is pending (raised, not yet acknowledged): a further edge merges into it.
    bool spi_pending(unsigned id) const { return id >= nprivate && id < nirqs_ && spis_[id - nprivate].pending; }

    unsigned ncpus() const { return ncpus_; }
    unsigned nirqs() const { return nirqs_; }

    // Untimed register access, for tests and debuggers.
    std::uint32_t dist_read(unsigned cpu, std::uint32_t offset) { return dist_regs_.read(cpu, offset); }
    void dist_write(unsigned cpu, std::uint32_t offset, std::uint32_t v) { dist_regs_.write(cpu, offset, v); }
    std::uint32_t cpu_read(unsigned cpu, std::uint32_t offset) { return cpu_regs_.read(cpu, offset); }
    void cpu_write(unsigned cpu, std::uint32_t offset, std::uint32_t v) { cpu_regs_.write(cpu, offset, v); }

    // Counters for results.
    std::uint64_t irqs_raised() const { return irqs_raised_; }       // SGIs sent (per target), PPIs and SPIs raised
    std::uint64_t irqs_delivered() const { return irqs_delivered_; } // acknowledged through IAR
    std::uint64_t spurious_reads() const { return spurious_; }       // IAR reads answering 1023
    std::uint64_t sgis_lost() const { return sgis_lost_; }           // injected wakeup_lost (per target)
    std::uint64_t spurious_injected() const { return spurious_injected_; } // injected spurious_irq
    std::uint64_t guest_errors() const { return dist_regs_.guest_errors() + cpu_regs_.guest_errors() + guest_errors_; }

private:
    struct irq_state {
        bool enabled = false;
        bool pending = false;   // PPIs and SPIs (SGIs keep per-source bits instead)
        bool active = false;
        bool edge = true;       // ICFGR: edge-triggered (SGIs always)
        bool line = false;      // level-sensitive input line
        std::uint8_t priority = 0;
        std::uint8_t targets = 0; // SPIs only
        unsigned active_cpu = 0;  // SPIs: the CPU that acknowledged it
    };
    struct cpu_state {
        std::array<irq_state, nprivate> priv{};          // banked SGIs and PPIs
        std::array<std::uint8_t, nsgi> sgi_sources{};    // pending SGIs: bit per source CPU
        std::array<std::uint8_t, nsgi> sgi_active_src{}; // source of the active SGI
        std::uint32_t pending_mask = 0; // bit per private interrupt that is pending
        // SGIs pending in the distributor whose delivery to this CPU interface is still in
        // flight (jittered SGI delivery only), and when each arrives.
        std::uint32_t sgi_in_flight = 0;
        std::array<sc_core::sc_time, nsgi> sgi_arrival{};
        bool enabled = false;
        std::uint8_t pmr = 0;
        std::uint8_t bpr = 0;
        std::vector<std::uint32_t> active_stack; // acknowledged, not yet EOIed (IDs)
        bool phantom = false; // an injected spurious IRQ: the next IAR read answers 1023
    };

    void b_transport_dist(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void b_transport_cpu(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    void declare_dist_registers();
    void declare_dist_control_registers();
    void declare_dist_bit_registers();
    void declare_dist_field_registers();
    void declare_dist_sgi_registers();
    void declare_cpu_registers();

    irq_state& state(unsigned cpu, unsigned id);
    bool is_pending(unsigned cpu, unsigned id) const;
    void set_pending(unsigned cpu, unsigned id, bool pending); // PPIs and SPIs
    void sync_pending_mask(unsigned cpu, unsigned id);        // after an SGI or PPI change
    // The highest-priority interrupt that may be signalled to @cpu (or spurious); with
    // @for_wake, ignoring the CPU interface, PMR and running priority.
    std::uint32_t best_pending(unsigned cpu, bool for_wake) const;
    std::uint8_t running_priority(unsigned cpu) const;
    std::uint32_t acknowledge(unsigned cpu);
    void end_of_interrupt(unsigned cpu, std::uint32_t value);
    void send_sgi(unsigned from, std::uint32_t value);
    // SGI @id to @cpu, which was @was_pending before, is delivered after its jittered delay.
    void delay_sgi(unsigned cpu, unsigned id, bool was_pending);
    void deliver_sgis(); // the SGIs whose delivery is due
    // Recompute the irq and wake lines of the CPUs in @cpus (bit per CPU): those whose
    // candidates a change can have touched; every CPU by default.
    void update(std::uint32_t cpus = ~0u);
    // The CPUs a change to interrupt @id seen by @cpu can matter to: @cpu for a private one,
    // the SPI's targets (and @cpu) for a shared one, whose state all its targets see.
    std::uint32_t affected(unsigned cpu, std::uint32_t id) const;
    // The CPUs a change to interrupt @id's configuration (its enable, pending state or
    // priority) written by @cpu can matter to: @cpu for a private one (banked: no other CPU
    // sees it); every CPU for an SPI, whose targets may have changed since it became active
    // on one (its priority is that CPU's running priority).
    std::uint32_t configured(unsigned cpu, std::uint32_t id) const;

    unsigned ncpus_;
    unsigned nirqs_;
    gic_params params_;
    clock_domain& clock_;
    bool dist_enabled_ = false;
    std::vector<cpu_state> cpus_;
    std::vector<irq_state> spis_; // index id - 32
    std::vector<std::uint32_t> spi_pending_bits_; // bit per pending SPI, to skip the others
    int spis_pending_ = 0;                        // bits set in spi_pending_bits_
    reg_table dist_regs_;
    reg_table cpu_regs_;
    std::vector<std::uint8_t> irq_level_, wake_level_; // not vector<bool>: read on every update
    std::uint64_t irqs_raised_ = 0, irqs_delivered_ = 0, spurious_ = 0, guest_errors_ = 0;
    jitter jitter_, sgi_jitter_;
    struct sgi_flight {
        sc_core::sc_time at;
        std::uint64_t seq; // ties in sending order
        unsigned cpu, id;
        bool operator>(const sgi_flight& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    std::priority_queue<sgi_flight, std::vector<sgi_flight>, std::greater<sgi_flight>> sgi_flights_;
    std::uint64_t sgi_seq_ = 0;
    sc_core::sc_event sgi_due_;
    // Injected faults (off: nothing drawn, no thread).
    void spurious_arrivals(); // the thread raising spurious IRQs at their times
    void inject_spurious();
    fault_source* faults_ = nullptr;
    fault wakeup_lost_, spurious_arrival_, spurious_cpu_;
    std::function<bool(unsigned)> cpu_powered_off_;
    sc_core::sc_event spurious_due_;
    std::uint64_t sgis_lost_ = 0, spurious_injected_ = 0;
};

} // namespace blsim::model
