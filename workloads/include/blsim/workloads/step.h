// workloads/include/blsim/workloads/step.h -- what a task does next, as a workload says it.
//
// The kernel asks a workload for a task's next step whenever the task has finished its
// previous one (switcher/include/bls/task.h is the kernel's side; soc/ translates). Workloads
// know nothing of the kernel: only time and these steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace blsim::workloads {

struct step {
    // run: an amount of work (takes longer on a slower CPU or OPP); spin_until: busy on the
    // CPU until an absolute time, whatever it gets done (rt-app's runtime: a loop on the
    // clock); sleep_until: off the CPU until an absolute time; block: until @event is
    // signalled; signal: wake the longest waiter on @event (none: lost); broadcast: wake all;
    // affinity: run only on the logical CPUs of @cpus from now on (rt-app's per-phase cpus);
    // yield: sched_yield (the next step is asked for when the task runs again); fork: start
    // task @task, one whose info() says it waits to be forked.
    // move_group: into task group @group (groups() below; 0 the root).
    enum kind_t { run, sleep_until, block, signal, broadcast, exit, spin_until, affinity, yield, fork, move_group } kind = exit;
    double ref_ns = 0;          // run: work on the reference CPU
    double mem_fraction = 0;    // run, spin_until: share of it that is memory stall
    int working_set_kb = 0;     // run, spin_until: data touched (0: caches not modelled)
    double write_fraction = 0;  // run, spin_until: share of that data dirtied
    std::uint64_t until_ns = 0; // sleep_until, spin_until: absolute time
    unsigned event = 0;         // block, signal, broadcast (< max_events)
    bool io = false;            // sleep_until: a wait for block I/O (the CPU's iowait)
    std::uint32_t cpus = 0;     // affinity: logical CPUs (bits), 0: every one
    unsigned task = 0;          // fork: the task started
    unsigned group = 0;         // group: the task group
};

// A CFS task group (a cgroup of the cpu controller): its path, its parent (an index into the
// groups, lower than its own; the root, 0, has none) and its cpu.shares.
struct group_info {
    std::string path;
    unsigned parent = 0;
    unsigned shares = 1024;
};

// Events a workload may use (the kernel's BLS_MAX_EVENTS).
constexpr unsigned max_events = 4096;

// A task as the scheduler sees it.
struct task_info {
    // Its scheduling class: CFS (weighted by nice), real time (SCHED_FIFO, SCHED_RR: before
    // every CFS task, the highest rt_priority first), or deadline (SCHED_DEADLINE: before
    // both, the earliest deadline first, dl_runtime every dl_period within dl_deadline).
    enum policy_t { normal, fifo, rr, deadline };
    std::string name;
    std::vector<int> cpus; // logical CPUs it may run on (empty: every one)
    int nice = 0;          // normal: -20..19
    policy_t policy = normal;
    int rt_priority = 0;   // fifo, rr: 1..99
    std::uint64_t dl_runtime_ns = 0, dl_deadline_ns = 0, dl_period_ns = 0; // deadline
    bool forked = false;   // not started at boot: another task's fork step starts it
    unsigned group = 0;    // its task group at the start (0: the root)
};

// A workload: a set of tasks and their behaviour.
class workload {
public:
    virtual ~workload() = default;
    virtual unsigned ntasks() const = 0;
    virtual task_info info(unsigned task) const = 0;
    // The step task @task takes at @now_ns, its previous one finished (or it starts).
    virtual step next(unsigned task, std::uint64_t now_ns) = 0;
    // Its task groups, the root first; none (or the root alone): no group scheduling.
    virtual std::vector<group_info> groups() const { return {}; }
};

} // namespace blsim::workloads
