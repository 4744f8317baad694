// model/include/blsim/model/fault_params.h -- the scenario's `faults:` as parameters: which
// hardware operations fail and when (faults.h injects them; docs/hardware.md, "Fault
// injection"). No SystemC: the configuration (soc/config/) reads and checks these.
#pragma once

#include <array>
#include <vector>

namespace blsim::model {

enum class fault_kind : unsigned {
    power_up_fail, // the power controller fails to power a core up (power_controller)
    wakeup_lost,   // an SGI to a powered-down CPU is lost (gic400)
    cci_stuck,     // a snoop-control change keeps change_pending set for long (cci400)
    spurious_irq,  // a CPU's IRQ output asserts with nothing pending behind it (gic400)
    dvfs_fail,     // a PERF_LVL request is answered with an error, the clock unchanged (power_controller)
};
inline constexpr unsigned nfault_kinds = 5;
inline constexpr std::array<fault_kind, nfault_kinds> all_fault_kinds = {
    fault_kind::power_up_fail, fault_kind::wakeup_lost, fault_kind::cci_stuck,
    fault_kind::spurious_irq, fault_kind::dvfs_fail,
};
// The kind's name in the configuration and in results (power_up_fail, ...).
const char* to_string(fault_kind k);

// When eligible operations of one kind fail.
struct fault_trigger {
    double probability_pct = 0; // each eligible operation fails with this chance, 0..100
    std::vector<double> at_s;   // simulated times, any order: the first eligible operation at or after each
};

struct power_up_fail_params : fault_trigger {
    double timeout_us = 50; // the power controller gives up on the power-up after this long
};

struct cci_stuck_params : fault_trigger {
    double stuck_us = 2000; // change_pending stays set this long instead of the nominal time
};

struct spurious_irq_params {
    double interval_us = 0;   // mean of the exponential intervals between random arrivals; 0: none
    std::vector<double> at_s; // and one at each of these simulated times
};

// The scenario's `faults:`. Nothing configured by default.
struct fault_params {
    power_up_fail_params power_up_fail;
    fault_trigger wakeup_lost;
    cci_stuck_params cci_stuck;
    spurious_irq_params spurious_irq;
    fault_trigger dvfs_fail;

    // A kind is configured when it can fire: a probability above 0 or a time (spurious_irq: an
    // interval above 0 or a time).
    bool configured(fault_kind k) const;
    bool any() const;
};

// The trigger of kind @k in @p (none for spurious_irq, which has an interval instead).
const fault_trigger* trigger_of(const fault_params& p, fault_kind k);

} // namespace blsim::model
