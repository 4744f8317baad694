// soc/platform/src/probes/switch_probe.cpp
#include "blsim/soc/switch_probe.h"

#include <bls/switcher.h>
#include <bls/types.h>

#include "blsim/model/invariant.h"

#include <algorithm>
#include <cstdio>

namespace blsim::soc {

std::uint64_t switch_hang_bound_ps(const model::soc_params& soc, const model::jitter_params& jitter,
                                   const model::fault_params& faults, const switch_software& sw)
{
    using model::jitter_class;
    double slow = 1; // the largest jitter factor of the latencies summed
    if (jitter.enabled)
        for (jitter_class c : model::all_jitter_classes)
            if (c != jitter_class::sgi_delivery)
                slow = std::max(slow, 1 + jitter.bound(c));
    double attempt_us = 0;
    for (const model::cluster_params& cl : soc.clusters) {
        const model::power_params& p = cl.power;
        const double dvfs = static_cast<double>(cl.opps.size()) * (cl.dvfs.voltage_latency_us + cl.dvfs.freq_latency_us);
        attempt_us = std::max(attempt_us, p.cluster_off_entry_us + p.cluster_off_exit_us + p.core_off_entry_us +
                                              p.core_off_exit_us + p.core_wfi_entry_us + p.core_wfi_exit_us + dvfs);
    }
    if (faults.configured(model::fault_kind::power_up_fail))
        attempt_us += faults.power_up_fail.timeout_us;
    if (faults.configured(model::fault_kind::cci_stuck))
        attempt_us += faults.cci_stuck.stuck_us;
    const double attempts = BLS_SWITCH_KICKS + 1;
    // A kick, an "inbound alive", a reschedule, each late by at most the SGI jitter.
    const double sgi_ns = jitter.enabled ? 4 * jitter.bound(jitter_class::sgi_delivery) : 0;
    // The switch's configured work, once: its steps' cycles on the slowest clock a CPU may run
    // at, and its uncached reads, each the memory's latency and a word's transfer.
    int slowest_mhz = 0;
    for (const model::cluster_params& cl : soc.clusters)
        for (const model::opp_point& o : cl.opps)
            if (o.freq_mhz > 0 && (slowest_mhz == 0 || o.freq_mhz < slowest_mhz))
                slowest_mhz = o.freq_mhz;
    const double word_cycles = soc.dram.latency_cycles + 4.0 / soc.dram.bytes_per_cycle;
    const double software_us =
        static_cast<double>(sw.cycles) / std::max(slowest_mhz, 1) +
        static_cast<double>(sw.uncached_words) * word_cycles / soc.dram.clock_mhz;
    return static_cast<std::uint64_t>(attempts * attempt_us * slow * 1e6 + sgi_ns * 1e3 + software_us * slow * 1e6);
}

std::uint64_t switch_record::step_ps(int k) const
{
    const std::uint64_t from = k == 0 ? t_blackout_start : t_step[k - 1];
    const std::uint64_t to = k == switch_steps - 1 ? t_blackout_end : t_step[k];
    return to >= from ? to - from : 0;
}

switch_probe::switch_probe(unsigned ncpus, const model::energy_meter& meter,
                           std::function<void(std::uint64_t)> advance)
    : meter_(meter), advance_(std::move(advance)), open_(ncpus), next_(ncpus), cpufreq_(ncpus), pending_group_(ncpus, 0),
      txn_group_(ncpus, 0),
      cluster_up_since_(meter.nclusters(), 0), up_uncore_(meter.nclusters(), 0.0),
      up_lump_seen_(meter.nclusters(), 0.0), step_(switch_steps)
{
}

double switch_probe::core_j(std::uint64_t t, unsigned cpu)
{
    advance_(t);
    return meter_.core_energy_j(cpu);
}

double switch_probe::uncore_j(std::uint64_t t, unsigned cluster)
{
    advance_(t);
    return meter_.uncore_energy_j(cluster);
}

double switch_probe::soc_j(std::uint64_t t)
{
    advance_(t);
    return meter_.total_energy_j();
}

void switch_probe::tracepoint(std::uint64_t t, unsigned cpu, unsigned event, unsigned a, unsigned b,
                              unsigned cpu_cluster)
{
    if (event == BLS_TRACE_IRQ_HANDLED) { // (the hot path: one per interrupt)
        irq_handled(t, a, b);
        return;
    }
    close_settled(t);
    if (event == BLS_TRACE_SWITCH_GROUP) {
        // Cluster migration: announced just before the switch's cpufreq transaction begins.
        if (a < pending_group_.size())
            pending_group_[a] = b;
        return;
    }
    if (event == BLS_TRACE_CPUFREQ_BEGIN) {
        cpufreq_begun(t, a, b);
        return;
    }
    if (a >= open_.size())
        return;
    std::optional<open_switch>& s = open_[a];
    switch (event) {
    case BLS_TRACE_SWITCH_REQUEST: switch_requested(t, a, b); break;
    case BLS_TRACE_INBOUND_KICKED:
        if (s)
            inbound_kicked(*s, t, cpu, b, cpu_cluster);
        break;
    case BLS_TRACE_INBOUND_ALIVE:
        if (s)
            s->r.t_alive = t;
        break;
    case BLS_TRACE_BLACKOUT_BEGIN:
        if (s) {
            s->r.t_blackout_start = t;
            s->ob_core_at_start_j = core_j(t, s->r.outbound);
            s->ob_uncore_at_start_j = uncore_j(t, s->r.from_cluster);
        }
        break;
    case BLS_TRACE_SWITCH_STEP:
        if (s && b >= 1 && b < static_cast<unsigned>(switch_steps))
            s->r.t_step[b - 1] = t;
        break;
    case BLS_TRACE_SWITCH_ABORTED:
        // Given up (its inbound never came up): it failed cleanly, so it is no longer open,
        // and has no latency to report. The switcher's own counter says how many. A request
        // that came meanwhile is dropped with it: a new one must ask again.
        s.reset();
        next_[a].reset();
        break;
    case BLS_TRACE_BLACKOUT_END:
        if (s)
            blackout_ended(t, a);
        break;
    default:
        break;
    }
}

void switch_probe::irq_handled(std::uint64_t t, unsigned logical, unsigned irq)
{
    handled_[key(logical, irq)]++;
    handled_total_++;
    auto it = first_unhandled_.find(key(logical, irq));
    if (it != first_unhandled_.end() && it->second) {
        irq_latency_.record(t >= it->second ? t - it->second : 0);
        it->second = 0;
    }
}

void switch_probe::cpufreq_begun(std::uint64_t t, unsigned logical, unsigned cluster)
{
    if (logical < cpufreq_.size()) {
        cpufreq_[logical] = std::make_pair(t, cluster);
        // The group belongs to this transaction; one begun without a group has none.
        txn_group_[logical] = pending_group_[logical];
        pending_group_[logical] = 0;
    }
}

void switch_probe::switch_requested(std::uint64_t t, unsigned logical, unsigned cluster)
{
    std::optional<open_switch>& s = open_[logical];
    if (s && s->kicked) {
        // Its switch is under way to the cluster it was armed for: this request is the
        // next switch's, which the switcher starts once this one is over, unless it asks
        // for the cluster this one arrives at (docs/switcher.md, "From a frequency request to a
        // switch").
        if (next_[logical])
            next_[logical]->r.to_cluster = cluster;
        else
            next_[logical] = request_at(logical, t, cluster);
        return;
    }
    if (!s) {
        s = request_at(logical, t, cluster);
    } else { // a request overwriting a pending one keeps the first time, and group
        const unsigned group = take_group(logical);
        if (!s->r.group)
            s->r.group = group;
        s->r.to_cluster = cluster;
    }
}

void switch_probe::inbound_kicked(open_switch& s, std::uint64_t t, unsigned outbound, unsigned inbound,
                                  unsigned from_cluster)
{
    s.kicked = true;
    s.r.outbound = outbound;
    s.r.inbound = inbound;
    s.r.from_cluster = from_cluster;
    if (!s.r.t_inbound_power_on) { // already on: the kick is when it may start
        s.r.t_inbound_power_on = t;
        s.ib_core_at_on_j = core_j(t, inbound);
    }
}

void switch_probe::blackout_ended(std::uint64_t t, unsigned logical)
{
    std::optional<open_switch>& s = open_[logical];
    s->r.t_blackout_end = t;
    s->ib_core_at_end_j = core_j(t, s->r.inbound);
    if (s->r.inbound_cluster_powered_up)
        s->ib_uncore_at_end_j = uncore_j(t, s->r.to_cluster);
    const unsigned arrived = s->r.to_cluster;
    closing_.push_back(*s);
    s.reset();
    // The request that came during it opens the next switch, unless it asked for the
    // cluster just reached (the switcher completes that one at once).
    if (next_[logical] && next_[logical]->r.to_cluster != arrived)
        s = next_[logical];
    next_[logical].reset();
}

switch_probe::open_switch switch_probe::request_at(unsigned logical, std::uint64_t t, unsigned cluster)
{
    open_switch s;
    s.r.logical = logical;
    s.r.t_request = t;
    s.soc_at_request_j = soc_j(t);
    s.r.to_cluster = cluster;
    // The frequency request that asked for this cluster, if one did.
    if (cpufreq_[logical] && cpufreq_[logical]->second == cluster)
        s.r.t_cpufreq = cpufreq_[logical]->first;
    cpufreq_[logical].reset();
    s.r.group = take_group(logical);
    return s;
}

unsigned switch_probe::take_group(unsigned logical)
{
    // Announced for this request, or for the transaction that led to it; used up either way.
    const unsigned group = pending_group_[logical] ? pending_group_[logical] : txn_group_[logical];
    pending_group_[logical] = txn_group_[logical] = 0;
    return group;
}

void switch_probe::core_on(std::uint64_t t, unsigned cpu, unsigned cluster)
{
    close_settled(t);
    for (std::optional<open_switch>& s : open_) {
        if (s && s->r.t_alive == 0 && s->r.t_request && s->r.inbound == cpu && s->r.outbound != cpu) {
            s->r.t_inbound_power_on = t;
            s->ib_core_at_on_j = core_j(t, cpu);
            if (cluster_up_since_[cluster]) { // the switch powered the inbound's cluster up
                s->r.inbound_cluster_powered_up = true;
                s->ib_uncore_at_up_j = up_uncore_[cluster];
            }
        }
    }
    // A power-up is claimed by the first core on after it, whichever that is.
    cluster_up_since_[cluster] = 0;
}

void switch_probe::core_off(std::uint64_t t, unsigned cpu, unsigned)
{
    close_settled(t);
    for (open_switch& s : closing_) {
        if (!s.closing && s.r.outbound == cpu) {
            s.closing = true;
            s.r.t_outbound_off = t;
            s.r.t_done = t;
            s.ob_core_at_off_j = core_j(t, cpu);
            s.soc_at_done_j = soc_j(t);
        }
    }
}

void switch_probe::cluster_changed(std::uint64_t t, unsigned cluster, model::cluster_power st)
{
    close_settled(t);
    switch (st) {
    case model::cluster_power::powering_up: {
        // The meter has charged the power-up's own energy already: the interval starts
        // before it.
        const double lump_total = meter_.transition_energy_j(cluster, model::cluster_transition::power_up);
        const double lump = lump_total - up_lump_seen_[cluster];
        up_lump_seen_[cluster] = lump_total;
        cluster_up_since_[cluster] = t ? t : 1;
        up_uncore_[cluster] = uncore_j(t, cluster) - lump;
        break;
    }
    case model::cluster_power::powering_down:
        // The outbound that just went off was the cluster's last core: the switch completes
        // when the cluster is down.
        for (open_switch& s : closing_)
            if (s.closing && s.r.from_cluster == cluster && s.r.t_outbound_off == t)
                s.awaiting_cluster = true;
        break;
    case model::cluster_power::off:
    case model::cluster_power::on:
        for (open_switch& s : closing_) {
            if (!s.awaiting_cluster || s.r.from_cluster != cluster)
                continue;
            s.awaiting_cluster = false;
            if (st == model::cluster_power::off) { // (on: the power-down was aborted)
                s.r.outbound_cluster_powered_down = true;
                s.ob_uncore_at_down_j = uncore_j(t, cluster);
                s.r.t_done = t;
                s.soc_at_done_j = soc_j(t);
            }
            s.settled = true;
        }
        break;
    }
    close_settled(t); // the settled ones; an outbound off at this instant may still see its cluster go down
}

void switch_probe::close_settled(std::uint64_t t)
{
    for (auto it = closing_.begin(); it != closing_.end();) {
        // Settled: its cluster's fate is known, or a later instant came without the cluster
        // starting to power down.
        if (it->closing && !it->awaiting_cluster && (it->settled || it->r.t_outbound_off < t)) {
            complete(*it);
            it = closing_.erase(it);
        } else {
            ++it;
        }
    }
}

void switch_probe::finish(std::uint64_t t)
{
    // Every switch that has powered its inbound up reaches the end of its blackout: one still
    // open at the end of the run, long after, hangs (an "inbound alive" that never came, a CPU
    // parked at its closed MCPM gate, an inbound that never releases its outbound). The bound
    // is far above any switch's kick-to-end time.
    for (const std::optional<open_switch>& s : open_) {
        if (!s || !s->r.t_inbound_power_on || t - s->r.t_inbound_power_on <= switch_hang_ps)
            continue;
        char detail[256];
        if (s->r.t_blackout_start)
            std::snprintf(detail, sizeof detail,
                          "logical cpu%u's switch to cpu%u, its inbound kicked at %.9f s, was still in its "
                          "blackout (begun at %.9f s) when the run ended %.3f ms after the kick",
                          s->r.logical, s->r.inbound, static_cast<double>(s->r.t_inbound_power_on) * 1e-12,
                          static_cast<double>(s->r.t_blackout_start) * 1e-12,
                          static_cast<double>(t - s->r.t_inbound_power_on) * 1e-9);
        else
            std::snprintf(detail, sizeof detail,
                          "logical cpu%u's switch to cpu%u, its inbound kicked at %.9f s, had not reached its "
                          "blackout when the run ended %.3f ms later",
                          s->r.logical, s->r.inbound, static_cast<double>(s->r.t_inbound_power_on) * 1e-12,
                          static_cast<double>(t - s->r.t_inbound_power_on) * 1e-9);
        model::invariant_failed("switch-completes", t, "the switcher", detail);
    }
    for (open_switch& s : closing_)
        s.awaiting_cluster = false;
    close_settled(t + 1);
}

void switch_probe::complete(open_switch& s)
{
    switch_record& r = s.r;
    r.energy_window_j = s.soc_at_done_j - s.soc_at_request_j;
    double overhead = (s.ob_core_at_off_j - s.ob_core_at_start_j) + (s.ib_core_at_end_j - s.ib_core_at_on_j);
    if (r.inbound_cluster_powered_up)
        overhead += s.ib_uncore_at_end_j - s.ib_uncore_at_up_j;
    if (r.outbound_cluster_powered_down)
        overhead += s.ob_uncore_at_down_j - s.ob_uncore_at_start_j;
    r.energy_overhead_j = overhead;
    overhead_j_ += overhead;
    window_j_ += r.energy_window_j;
    blackout_.record(r.t_blackout_end - r.t_blackout_start);
    request_to_alive_.record(r.t_alive - r.t_request);
    total_.record(r.t_outbound_off - r.t_request);
    if (r.t_cpufreq)
        dvfs_wait_.record(r.t_request - r.t_cpufreq);
    for (int k = 0; k < switch_steps; k++)
        step_[static_cast<std::size_t>(k)].record(r.step_ps(k));
    done_.push_back(r);
}

namespace {

// Each group's blackout: (first start, last end), by group id.
std::map<unsigned, std::pair<std::uint64_t, std::uint64_t>> group_spans(const std::vector<switch_record>& records)
{
    std::map<unsigned, std::pair<std::uint64_t, std::uint64_t>> spans;
    for (const switch_record& r : records) {
        if (!r.group)
            continue;
        auto [it, fresh] = spans.emplace(r.group, std::make_pair(r.t_blackout_start, r.t_blackout_end));
        if (!fresh) {
            it->second.first = std::min(it->second.first, r.t_blackout_start);
            it->second.second = std::max(it->second.second, r.t_blackout_end);
        }
    }
    return spans;
}

} // namespace

std::size_t switch_probe::groups() const { return group_spans(done_).size(); }

model::log_histogram switch_probe::group_blackout() const
{
    model::log_histogram h;
    for (const auto& [group, span] : group_spans(done_))
        h.record(span.second >= span.first ? span.second - span.first : 0);
    return h;
}

std::size_t switch_probe::distribution_bytes() const
{
    std::size_t n = irq_latency_.memory_bytes() + blackout_.memory_bytes() + request_to_alive_.memory_bytes() +
                    total_.memory_bytes() + dvfs_wait_.memory_bytes();
    for (const model::log_histogram& h : step_)
        n += h.memory_bytes();
    return n;
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

void switch_probe::check_no_ipi_lost(std::uint64_t t_ps, unsigned outbound, unsigned logical, unsigned inbound,
                                     bool hosts_logical, const std::uint8_t (&sgi_sources)[16])
{
    if (hosts_logical)
        return;
    for (unsigned id = 0; id < 16; id++) {
        if (!sgi_sources[id] || id == BLS_SGI_KICK || id == BLS_SGI_INBOUND_ALIVE)
            continue;
        std::string from;
        for (unsigned c = 0; c < 8; c++)
            if (sgi_sources[id] >> c & 1u)
                from += (from.empty() ? "cpu" : ", cpu") + std::to_string(c);
        model::invariant_failed("no-ipi-lost", t_ps, "cpu" + std::to_string(outbound),
                                "SGI " + std::to_string(id) + " from " + from +
                                    " is pending on it as it powers down after logical cpu" +
                                    std::to_string(logical) + "'s switch to cpu" + std::to_string(inbound) +
                                    ": an IPI of the logical CPU left on a CPU that hosts none (the GIC "
                                    "migration did not forward it)");
    }
}

} // namespace blsim::soc
