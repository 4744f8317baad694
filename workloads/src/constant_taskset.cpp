// workloads/src/constant_taskset.cpp
#include "blsim/workloads/constant_taskset.h"

#include <algorithm>
#include <cassert>

namespace blsim::workloads {

using sc_core::sc_time;
using sc_core::SC_MS;

constant_taskset::constant_taskset(sc_core::sc_module_name name, std::vector<task_params> tasks,
                                   release_fn release)
    : sc_module(name), tasks_(std::move(tasks)), release_(std::move(release))
{
    for (const task_params& t : tasks_) {
        assert(t.period_ms > 0);
        next_.push_back(sc_time(t.offset_ms, SC_MS));
    }
    // One method serves every task: it fires at the earliest next release.
    if (!tasks_.empty()) {
        SC_HAS_PROCESS(constant_taskset);
        SC_METHOD(on_timer);
    }
}

void constant_taskset::on_timer()
{
    const sc_time now = sc_core::sc_time_stamp();
    for (std::size_t i = 0; i < tasks_.size(); i++) {
        const task_params& t = tasks_[i];
        if (next_[i] > now)
            continue;
        release_(static_cast<unsigned>(i), t.util_pct / 100.0 * t.period_ms * 1e6);
        releases_++;
        next_[i] += sc_time(t.period_ms, SC_MS);
    }
    const sc_time earliest = *std::min_element(next_.begin(), next_.end());
    next_trigger(earliest - now);
}

} // namespace blsim::workloads
