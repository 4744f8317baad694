// model/src/core.cpp
#include "blsim/model/core.h"

#include <cassert>
#include <cmath>

namespace blsim::model {

core::core(sc_core::sc_module_name name, unsigned cpu, const cluster_params& cluster,
           clock_domain& clock, power_controller& pc, double reference_capacity)
    : sc_module(name), cpu_(cpu), capacity_dmips_mhz_(cluster.capacity_dmips_mhz), clock_(clock),
      pc_(pc), reference_capacity_(reference_capacity)
{
    assert(reference_capacity > 0);
    SC_HAS_PROCESS(core);
    SC_THREAD(thread);
}

void core::thread()
{
    if (software_)
        software_();
    // Software that returns leaves nothing to run: the core goes off and stays off.
    if (pc_.core_state(cpu_) == core_power::on)
        pc_.core_enter_off(cpu_);
}

double core::progress_rate(double mem_fraction) const
{
    // Time per reference ns: the compute part stretches by reference/actual capacity, the
    // memory part does not stretch at all.
    double capacity = static_cast<double>(capacity_dmips_mhz_) * clock_.freq_mhz();
    double ns_per_ref_ns = (1.0 - mem_fraction) * reference_capacity_ / capacity + mem_fraction;
    return 1.0 / ns_per_ref_ns;
}

int core::execute(double ref_ns, double mem_fraction, double* done_ref_ns)
{
    assert(sc_core::sc_get_current_process_handle().get_process_object() != nullptr);
    assert(pc_.core_state(cpu_) == core_power::on);
    double remaining = ref_ns;
    while (remaining > 0 && !irq_pending_) {
        const double rate = progress_rate(mem_fraction);
        const double need_ps = std::ceil(remaining / rate * 1e3);
        segments_++;
        if (need_ps <= 0) {
            remaining = 0;
            break;
        }
        const sc_core::sc_time need(need_ps, sc_core::SC_PS);
        const sc_core::sc_time start = sc_core::sc_time_stamp();
        wait(need, clock_.changed_event() | irq_event_);
        const sc_core::sc_time elapsed = sc_core::sc_time_stamp() - start;
        if (elapsed >= need)
            remaining = 0;
        else
            remaining = std::max(0.0, remaining - elapsed.to_seconds() * 1e9 * rate);
    }
    *done_ref_ns = ref_ns - remaining;
    return remaining > 0 ? 1 : 0;
}

void core::wait_for_interrupt()
{
    if (irq_pending_)
        return;
    pc_.core_enter_wfi(cpu_);
    while (!irq_pending_)
        wait(irq_event_);
    pc_.core_exit(cpu_);
}

void core::power_down()
{
    pc_.core_enter_off(cpu_);
    while (!irq_pending_ && !pc_.power_up_requested(cpu_))
        wait(irq_event_ | pc_.power_up_event(cpu_));
    pc_.core_exit(cpu_);
}

unsigned core::irq_ack()
{
    unsigned n = irq_pending_;
    irq_pending_ = 0;
    return n;
}

void core::raise_irq()
{
    irq_pending_++;
    irq_event_.notify(sc_core::SC_ZERO_TIME);
}

} // namespace blsim::model
