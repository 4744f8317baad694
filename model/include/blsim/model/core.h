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
#include <systemc>

#include "blsim/model/clock_domain.h"
#include "blsim/model/params.h"
#include "blsim/model/power_controller.h"

namespace blsim::model {

class core : public sc_core::sc_module {
public:
    // @reference_capacity is capacity_dmips_mhz * freq_mhz of the SoC's fastest core at its
    // top OPP: the core that does one reference nanosecond of work per nanosecond.
    core(sc_core::sc_module_name name, unsigned cpu, const cluster_params& cluster,
         clock_domain& clock, power_controller& pc, double reference_capacity);

    unsigned cpu() const { return cpu_; }

    // The software this core runs from time zero. Set before the simulation starts. When
    // it returns the core stays off.
    void set_software(std::function<void()> software) { software_ = std::move(software); }

    // --- services for the core's own software (call only from this core's thread) ---

    // Runs work until done (returns 0) or until an interrupt is pending (returns 1, the
    // caller's -EINTR). *done_ref_ns: the part completed.
    int execute(double ref_ns, double mem_fraction, double* done_ref_ns);
    // WFI: returns at once when an interrupt is pending, else clock-gates until one is.
    void wait_for_interrupt();
    // Powers the core off; returns once it has been woken and powered up again.
    void power_down();
    // Acknowledges every pending interrupt; returns how many there were.
    unsigned irq_ack();

    // --- hardware side ---

    // Raise an interrupt on this core (level, counted). Any context.
    void raise_irq();
    bool irq_pending() const { return irq_pending_ != 0; }

    // Work progress per nanosecond at the current frequency.
    double progress_rate(double mem_fraction) const;

    std::uint64_t segments() const { return segments_; }

private:
    void thread();

    unsigned cpu_;
    int capacity_dmips_mhz_;
    clock_domain& clock_;
    power_controller& pc_;
    double reference_capacity_;
    std::function<void()> software_;
    unsigned irq_pending_ = 0;
    sc_core::sc_event irq_event_;
    std::uint64_t segments_ = 0;
};

} // namespace blsim::model
