// workloads/include/blsim/workloads/constant_taskset.h -- periodic tasks of constant utilisation.
//
// Each task is released every period_ms, starting at offset_ms, with util_pct of the period
// as work measured on the reference CPU (the SoC's fastest core at its top OPP), or the
// util_pct of the last of its util_steps whose time the release has reached. A job of zero
// work is skipped (the task sleeps on to its next release). On a slower
// core or OPP the same work takes longer; a job that overruns its period delays the next
// (released already, it starts at once). Between jobs the task sleeps until its next
// release. No randomness: the same parameters give the same releases.
#pragma once

#include <string>
#include <vector>

#include "blsim/workloads/step.h"

namespace blsim::workloads {

// From @at_ms on, the task's utilisation is @util_pct (a load that steps up and down).
struct util_step {
    double at_ms = 0;
    double util_pct = 0;
};

struct task_params {
    std::string name;
    std::vector<int> cpus;   // logical CPUs it may run on (empty: every one)
    int nice = 0;
    task_info::policy_t policy = task_info::normal;
    int rt_priority = 0;     // fifo, rr: 1..99
    double util_pct = 0;     // of the reference CPU, per period
    double period_ms = 0;
    double offset_ms = 0;    // first release
    double mem_fraction = 0; // share of the work that is memory stall
    int working_set_kb = 0;  // data the task touches each time it runs (0: caches not modelled)
    double write_fraction = 0.25; // share of that data it dirties
    std::vector<util_step> util_steps; // later utilisations, by time (ascending)
};

class constant_taskset : public workload {
public:
    explicit constant_taskset(std::vector<task_params> tasks);

    unsigned ntasks() const override { return static_cast<unsigned>(tasks_.size()); }
    task_info info(unsigned task) const override;
    step next(unsigned task, std::uint64_t now_ns) override;

    // Jobs released so far (every job's release has been asked for).
    std::uint64_t releases() const { return releases_; }

private:
    std::vector<task_params> tasks_;
    std::vector<double> release_ns_; // the next job's release
    std::vector<bool> ran_;          // its job was handed out: sleep to the next release
    std::uint64_t releases_ = 0;
};

} // namespace blsim::workloads
