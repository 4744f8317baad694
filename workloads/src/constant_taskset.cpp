// workloads/src/constant_taskset.cpp
#include "blsim/workloads/constant_taskset.h"

#include <cassert>
#include <cmath>

namespace blsim::workloads {

constant_taskset::constant_taskset(std::vector<task_params> tasks) : tasks_(std::move(tasks))
{
    for (const task_params& t : tasks_) {
        assert(t.period_ms > 0);
        release_ns_.push_back(t.offset_ms * 1e6);
        ran_.push_back(false);
    }
}

task_info constant_taskset::info(unsigned task) const
{
    const task_params& t = tasks_.at(task);
    return {t.name, t.cpus, t.nice, t.policy, t.rt_priority};
}

step constant_taskset::next(unsigned task, std::uint64_t)
{
    const task_params& t = tasks_.at(task);
    step s;
    if (!ran_[task]) {
        // Wait for the release (already past after an overrun: no wait).
        s.kind = step::sleep_until;
        s.until_ns = static_cast<std::uint64_t>(std::llround(release_ns_[task]));
        ran_[task] = true;
        return s;
    }
    double util = t.util_pct;
    for (const util_step& u : t.util_steps)
        if (release_ns_[task] >= u.at_ms * 1e6)
            util = u.util_pct;
    s.kind = step::run;
    s.ref_ns = util / 100.0 * t.period_ms * 1e6;
    s.mem_fraction = t.mem_fraction;
    s.working_set_kb = t.working_set_kb;
    s.write_fraction = t.write_fraction;
    release_ns_[task] += t.period_ms * 1e6;
    ran_[task] = false;
    releases_++;
    return s;
}

} // namespace blsim::workloads
