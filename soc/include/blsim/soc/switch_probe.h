// soc/include/blsim/soc/switch_probe.h -- the latency probe: turns the switcher's tracepoints
// and the power controller's state changes into one record per switch, and checks the
// invariants a switch must keep.
//
// It is an observer: the C code emits tracepoints through the platform's trace verb and never
// calls it. Times are picoseconds of simulated time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "blsim/model/energy.h"
#include "blsim/model/histogram.h"

namespace blsim::soc {

struct switch_record {
    unsigned logical = 0;
    unsigned from_cluster = 0, to_cluster = 0;
    unsigned outbound = 0, inbound = 0;
    std::uint64_t t_request = 0;
    std::uint64_t t_inbound_power_on = 0; // the inbound core turned on (or was kicked, if already on)
    std::uint64_t t_alive = 0;
    std::uint64_t t_blackout_start = 0;
    std::uint64_t t_blackout_end = 0;
    std::uint64_t t_outbound_off = 0;
    double energy_j = 0; // the whole SoC's, from the request until the outbound is off
    double energy_at_request_j = 0;
};

class switch_probe {
public:
    // @energy gives the SoC's energy so far, integrated up to a time.
    switch_probe(unsigned ncpus, std::function<double(std::uint64_t)> energy);

    void tracepoint(std::uint64_t t_ps, unsigned cpu, unsigned event, unsigned a, unsigned b,
                    unsigned cpu_cluster);
    void core_on(std::uint64_t t_ps, unsigned cpu);
    void core_off(std::uint64_t t_ps, unsigned cpu);
    // A device interrupt was raised for @logical (a timer or a doorbell) at @t_ps.
    void irq_raised(std::uint64_t t_ps, unsigned logical, unsigned irq)
    {
        raised_[key(logical, irq)]++;
        auto& first = first_unhandled_[key(logical, irq)];
        if (!first)
            first = t_ps; // an edge raised again before it is handled merges into it
    }
    // Interrupt latencies, raise to handler, in ps (one per delivery).
    const model::log_histogram& irq_latency() const { return irq_latency_; }
    // Distributions over the completed switches, in ps.
    const model::log_histogram& blackout() const { return blackout_; }
    const model::log_histogram& request_to_alive() const { return request_to_alive_; }
    const model::log_histogram& total() const { return total_; }
    // Memory held by the distributions: fixed, whatever the run's length.
    std::size_t distribution_bytes() const;

    const std::vector<switch_record>& records() const { return done_; }
    std::uint64_t irqs_handled() const { return handled_total_; }
    // Problems found by the end of the run: interrupts lost or delivered twice. Empty is good.
    std::vector<std::string> final_check(const std::function<bool(unsigned irq)>& still_pending) const;

private:
    static std::uint64_t key(unsigned logical, unsigned irq) { return (std::uint64_t(logical) << 32) | irq; }

    std::function<double(std::uint64_t)> energy_;
    std::vector<std::optional<switch_record>> open_; // per logical CPU
    std::vector<switch_record> done_;
    std::map<std::uint64_t, std::uint64_t> raised_, handled_, first_unhandled_;
    model::log_histogram irq_latency_, blackout_, request_to_alive_, total_;
    std::uint64_t handled_total_ = 0;
};

} // namespace blsim::soc
