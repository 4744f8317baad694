// soc/include/blsim/soc/os_probe.h -- an observer of the operating system's tracepoints
// (scheduler, cpuidle, cpufreq): what the kernel's own counters do not keep, such as each
// task's wake-up latency distribution. The C kernel never calls it: the platform's trace verb
// hands it the events.
#pragma once

#include <bls/types.h>

#include <cstdint>
#include <vector>

#include "blsim/model/histogram.h"

namespace blsim::soc {

class os_probe {
public:
    explicit os_probe(unsigned ntasks) : wakeup_latency_(ntasks) {}

    // An OS tracepoint (enum bls_trace_event >= BLS_TRACE_SCHED_WAKEUP) at @t_ps.
    void tracepoint(std::uint64_t t_ps, unsigned cpu, unsigned event, unsigned a, unsigned b)
    {
        (void)t_ps;
        (void)cpu;
        if (event == BLS_TRACE_WAKEUP_LATENCY && a < wakeup_latency_.size())
            wakeup_latency_[a].record(static_cast<std::uint64_t>(b) * 1000); // ns -> ps
        if (event == BLS_TRACE_CPU_FREQUENCY)
            freq_changes_++;
    }

    // Task @t's wake-up latencies, in ps: from when it was meant to wake (its timer's
    // deadline, the signal) to when it ran.
    const model::log_histogram& wakeup_latency(unsigned t) const { return wakeup_latency_.at(t); }
    std::uint64_t freq_changes() const { return freq_changes_; }
    std::size_t distribution_bytes() const
    {
        std::size_t n = 0;
        for (const model::log_histogram& h : wakeup_latency_)
            n += h.memory_bytes();
        return n;
    }

private:
    std::vector<model::log_histogram> wakeup_latency_;
    std::uint64_t freq_changes_ = 0;
};

} // namespace blsim::soc
