// soc/platform/include/blsim/soc/os_probe.h -- an observer of the operating system's tracepoints
// (scheduler, cpuidle, cpufreq, the big.LITTLE mode): what the kernel's own counters do not
// keep, such as each task's wake-up latency distribution, the cross-cluster migrations of HMP
// and EAS with their latencies, and the run's intervals in each mode with their energy. The C
// kernel never calls it: the platform's trace verb hands it the events.
#pragma once

#include <bls/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "blsim/model/energy.h"
#include "blsim/model/histogram.h"

namespace blsim::soc {

class os_probe {
public:
    // A stretch of the run in one big.LITTLE mode: [start, end), the SoC's energy (total) at
    // each end, and the cross-cluster migrations in it.
    struct mode_interval {
        unsigned mode = 0; // enum bls_mode
        std::uint64_t start_ps = 0, end_ps = 0;
        double energy_at_start_j = 0, energy_at_end_j = 0;
        std::uint64_t migrations = 0;
        double energy_j() const { return energy_at_end_j - energy_at_start_j; }
    };

    // @ntasks tasks; @cpu_cluster: each physical CPU's cluster; @big: the big cluster (-1:
    // none); @boot_mode: the mode the run starts in (enum bls_mode). @meter holds the
    // energies read at the mode changes; @advance integrates it up to a time.
    os_probe(unsigned ntasks, std::vector<unsigned> cpu_cluster, std::vector<double> cluster_speed, unsigned boot_mode,
             const model::energy_meter& meter, std::function<void(std::uint64_t)> advance);

    // An OS tracepoint (enum bls_trace_event >= BLS_TRACE_SCHED_WAKEUP) at @t_ps, on physical
    // CPU @cpu. A mode change (BLS_TRACE_MODE) must come at the kernel's time: it reads the meter.
    void tracepoint(std::uint64_t t_ps, unsigned cpu, unsigned event, unsigned a, unsigned b)
    {
        if (event == BLS_TRACE_WAKEUP_LATENCY && a < wakeup_latency_.size())
            wakeup_latency_[a].record(static_cast<std::uint64_t>(b) * 1000); // ns -> ps
        else if (event == BLS_TRACE_CPU_FREQUENCY)
            freq_changes_++;
        else if (event == BLS_TRACE_SCHED_SWITCH && b < ran_on_.size())
            switched_in(cpu, b);
        else if (event == BLS_TRACE_TASK_XMIGRATED)
            migrated(cpu, a, b);
        else if (event == BLS_TRACE_MODE)
            mode_changed(t_ps, a, b);
    }
    // The end of the run at @t_ps (the meter integrated up to it): the last interval closes.
    void finish(std::uint64_t t_ps);
    // Problems with the intervals at the end of the run (they must cover the run, one after
    // another, and their energies add up to @total_j, the meter's). Empty is good.
    std::vector<std::string> final_check(std::uint64_t end_ps, double total_j) const;

    // Task @t's wake-up latencies, in ps: from when it was meant to wake (its timer's
    // deadline, the signal) to when it ran.
    const model::log_histogram& wakeup_latency(unsigned t) const { return wakeup_latency_.at(t); }
    std::uint64_t freq_changes() const { return freq_changes_; }
    // Tasks moved to another cluster (HMP, EAS): all, up (to a faster cluster than the one it
    // last ran on), down; and
    // from the decision to move each to it running on the other cluster, in ps.
    std::uint64_t migrations() const { return migration_latency_.count(); }
    std::uint64_t migrations_up() const { return up_; }
    std::uint64_t migrations_down() const { return migration_latency_.count() - up_; }
    const model::log_histogram& migration_latency() const { return migration_latency_; }
    // The run's intervals by mode, in order (one, from 0, before any change; the last closes at
    // finish()).
    const std::vector<mode_interval>& mode_intervals() const { return intervals_; }
    std::size_t distribution_bytes() const
    {
        std::size_t n = migration_latency_.memory_bytes();
        for (const model::log_histogram& h : wakeup_latency_)
            n += h.memory_bytes();
        return n;
    }

private:
    void switched_in(unsigned cpu, unsigned task);
    void migrated(unsigned cpu, unsigned task, unsigned latency_ns);
    void mode_changed(std::uint64_t t_ps, unsigned mode, unsigned previous);

    std::vector<model::log_histogram> wakeup_latency_;
    std::uint64_t freq_changes_ = 0;
    std::vector<unsigned> cpu_cluster_;
    std::vector<double> cluster_speed_; // capacity x top frequency of each cluster
    // Each task's cluster when it last started running, and before that (-1: none yet).
    std::vector<int> ran_on_, ran_on_before_;
    model::log_histogram migration_latency_;
    std::uint64_t up_ = 0;
    const model::energy_meter& meter_;
    std::function<void(std::uint64_t)> advance_;
    std::vector<mode_interval> intervals_;
};

} // namespace blsim::soc
