// soc/src/switch_probe.cpp
#include "blsim/soc/switch_probe.h"

#include <bls/types.h>

#include <systemc>

namespace blsim::soc {

switch_probe::switch_probe(unsigned ncpus, std::function<double(std::uint64_t)> energy)
    : energy_(std::move(energy)), open_(ncpus)
{
}

void switch_probe::tracepoint(std::uint64_t t, unsigned cpu, unsigned event, unsigned a, unsigned b,
                              unsigned cpu_cluster)
{
    if (event == BLS_TRACE_IRQ_HANDLED) {
        handled_[key(a, b)]++;
        handled_total_++;
        auto it = first_unhandled_.find(key(a, b));
        if (it != first_unhandled_.end() && it->second) {
            irq_latency_.record(t >= it->second ? t - it->second : 0);
            it->second = 0;
        }
        return;
    }
    if (a >= open_.size())
        return;
    std::optional<switch_record>& r = open_[a];
    switch (event) {
    case BLS_TRACE_SWITCH_REQUEST:
        if (!r) { // a request overwriting a pending one keeps the first time
            r = switch_record{};
            r->logical = a;
            r->to_cluster = b;
            r->t_request = t;
            r->energy_at_request_j = energy_(t);
        }
        r->to_cluster = b;
        break;
    case BLS_TRACE_INBOUND_KICKED:
        if (r) {
            r->outbound = cpu;
            r->inbound = b;
            r->from_cluster = cpu_cluster;
            if (!r->t_inbound_power_on)
                r->t_inbound_power_on = t; // already on: the kick is when it may start
        }
        break;
    case BLS_TRACE_INBOUND_ALIVE:
        if (r)
            r->t_alive = t;
        break;
    case BLS_TRACE_BLACKOUT_BEGIN:
        if (r)
            r->t_blackout_start = t;
        break;
    case BLS_TRACE_BLACKOUT_END:
        if (r)
            r->t_blackout_end = t;
        break;
    default:
        break;
    }
}

void switch_probe::core_on(std::uint64_t t, unsigned cpu)
{
    for (std::optional<switch_record>& r : open_)
        if (r && r->t_alive == 0 && r->t_request && r->inbound == cpu && r->outbound != cpu)
            r->t_inbound_power_on = t;
}

void switch_probe::core_off(std::uint64_t t, unsigned cpu)
{
    for (std::optional<switch_record>& r : open_) {
        if (r && r->t_blackout_end && r->outbound == cpu) {
            r->t_outbound_off = t;
            r->energy_j = energy_(t) - r->energy_at_request_j;
            blackout_.record(r->t_blackout_end - r->t_blackout_start);
            request_to_alive_.record(r->t_alive - r->t_request);
            total_.record(r->t_outbound_off - r->t_request);
            done_.push_back(*r);
            r.reset();
        }
    }
}

std::size_t switch_probe::distribution_bytes() const
{
    return irq_latency_.memory_bytes() + blackout_.memory_bytes() + request_to_alive_.memory_bytes() +
           total_.memory_bytes();
}

std::vector<std::string> switch_probe::final_check(const std::function<bool(unsigned)>& still_pending) const
{
    std::vector<std::string> problems;
    for (const auto& [k, n] : raised_) {
        const unsigned logical = static_cast<unsigned>(k >> 32), irq = static_cast<unsigned>(k);
        auto it = handled_.find(k);
        const std::uint64_t h = it == handled_.end() ? 0 : it->second;
        const std::uint64_t pending = still_pending(irq) ? 1 : 0;
        if (h > n)
            problems.push_back("interrupt " + std::to_string(irq) + " of logical cpu" + std::to_string(logical) +
                               " delivered " + std::to_string(h) + " times for " + std::to_string(n) + " raised");
        else if (h + pending < n)
            problems.push_back("interrupt " + std::to_string(irq) + " of logical cpu" + std::to_string(logical) +
                               ": " + std::to_string(n - h - pending) + " lost (" + std::to_string(n) +
                               " raised, " + std::to_string(h) + " handled)");
    }
    for (const auto& [k, n] : handled_)
        if (!raised_.count(k))
            problems.push_back("interrupt " + std::to_string(static_cast<unsigned>(k)) + " handled by logical cpu" +
                               std::to_string(static_cast<unsigned>(k >> 32)) + " it was not raised for");
    return problems;
}

} // namespace blsim::soc
