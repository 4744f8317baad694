// model/src/fault_params.cpp -- blsim/model/fault_params.h.
#include "blsim/model/fault_params.h"

#include <algorithm>

namespace blsim::model {

const char* to_string(fault_kind k)
{
    switch (k) {
    case fault_kind::power_up_fail: return "power_up_fail";
    case fault_kind::wakeup_lost: return "wakeup_lost";
    case fault_kind::cci_stuck: return "cci_stuck";
    case fault_kind::spurious_irq: return "spurious_irq";
    case fault_kind::dvfs_fail: return "dvfs_fail";
    }
    return "?";
}

const fault_trigger* trigger_of(const fault_params& p, fault_kind k)
{
    switch (k) {
    case fault_kind::power_up_fail: return &p.power_up_fail;
    case fault_kind::wakeup_lost: return &p.wakeup_lost;
    case fault_kind::cci_stuck: return &p.cci_stuck;
    case fault_kind::dvfs_fail: return &p.dvfs_fail;
    case fault_kind::spurious_irq: break;
    }
    return nullptr;
}

bool fault_params::configured(fault_kind k) const
{
    if (k == fault_kind::spurious_irq)
        return spurious_irq.interval_us > 0 || !spurious_irq.at_s.empty();
    const fault_trigger* t = trigger_of(*this, k);
    return t->probability_pct > 0 || !t->at_s.empty();
}

bool fault_params::any() const
{
    return std::any_of(all_fault_kinds.begin(), all_fault_kinds.end(), [this](fault_kind k) { return configured(k); });
}

} // namespace blsim::model
