// workloads/include/blsim/workloads/step.h -- what a task does next, as a workload says it.
//
// The kernel asks a workload for a task's next step whenever the task has finished its
// previous one (switcher/include/bls/task.h is the kernel's side; soc/ translates). Workloads
// know nothing of the kernel: only time and these steps.
#pragma once

#include <cstdint>

namespace blsim::workloads {

struct step {
    enum kind_t { run, sleep_until, block, signal, broadcast, exit } kind = exit;
    double ref_ns = 0;          // run: work on the reference CPU
    double mem_fraction = 0;    // run: share of it that is memory stall
    int working_set_kb = 0;     // run: data touched (0: caches not modelled)
    double write_fraction = 0;  // run: share of that data dirtied
    std::uint64_t until_ns = 0; // sleep_until: absolute time
    unsigned event = 0;         // block, signal, broadcast
};

// A workload: a set of tasks and their behaviour.
class workload {
public:
    virtual ~workload() = default;
    virtual unsigned ntasks() const = 0;
    // The step task @task takes at @now_ns, its previous one finished (or it starts).
    virtual step next(unsigned task, std::uint64_t now_ns) = 0;
};

} // namespace blsim::workloads
