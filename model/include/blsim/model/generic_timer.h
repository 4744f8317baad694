// model/include/blsim/model/generic_timer.h -- the per-CPU timers of the ARM generic timer
// (CNTP_CVAL / CNTP_CTL): each CPU programs an absolute deadline and its timer raises a
// level-sensitive line at that time until reprogrammed or disarmed.
//
// The comparators keep running whatever the CPUs' power state: on TC2 the per-CPU timers
// stop in power-down and Linux hands their deadlines to an always-on broadcast timer, whose
// interrupt reaches the sleeping CPU; the model folds the two into one (docs/os.md).
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>
#include <vector>

namespace blsim::model {

class generic_timer : public sc_core::sc_module {
public:
    static constexpr std::uint64_t off = UINT64_MAX;
    // @line(cpu, level) drives CPU @cpu's timer interrupt line.
    using line_fn = std::function<void(unsigned cpu, bool level)>;

    generic_timer(sc_core::sc_module_name name, unsigned ncpus, line_fn line);

    // Program @cpu's deadline (ns of simulated time) or disarm it (off). Lowers a raised
    // line first; a deadline not in the future raises it at once. Any context.
    void set(unsigned cpu, std::uint64_t deadline_ns);
    std::uint64_t deadline(unsigned cpu) const { return deadline_.at(cpu); }

    // Deadlines that expired (the line went high), per CPU and in all.
    std::uint64_t fired(unsigned cpu) const { return fired_.at(cpu); }
    std::uint64_t fired() const;

private:
    void expire(unsigned cpu);

    line_fn line_;
    std::vector<std::uint64_t> deadline_;
    std::vector<std::uint64_t> fired_;
    std::vector<bool> level_;
    std::vector<sc_core::sc_event*> events_;
    sc_core::sc_vector<sc_core::sc_event> event_storage_;
};

} // namespace blsim::model
