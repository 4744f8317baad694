// soc/platform/src/probes/os_probe.cpp
#include "blsim/soc/os_probe.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "blsim/model/invariant.h"

namespace blsim::soc {

os_probe::os_probe(unsigned ntasks, std::vector<unsigned> cpu_cluster, std::vector<double> cluster_speed,
                   unsigned boot_mode, const model::energy_meter& meter, std::function<void(std::uint64_t)> advance)
    : wakeup_latency_(ntasks), cpu_cluster_(std::move(cpu_cluster)), cluster_speed_(std::move(cluster_speed)),
      ran_on_(ntasks, -1), ran_on_before_(ntasks, -1), meter_(meter), advance_(std::move(advance))
{
    mode_interval first;
    first.mode = boot_mode;
    intervals_.push_back(first);
}

void os_probe::switched_in(unsigned cpu, unsigned task)
{
    const int cl = static_cast<int>(cpu_cluster_.at(cpu));
    ran_on_before_[task] = ran_on_[task];
    ran_on_[task] = cl;
}

void os_probe::migrated(unsigned cpu, unsigned task, unsigned latency_ns)
{
    migration_latency_.record(static_cast<std::uint64_t>(latency_ns) * 1000); // ns -> ps
    // The kernel reports a move between clusters as the task starts running at its
    // destination, right after the switch to it: where it ran before is where it came from.
    // Where that is unknown (it never ran before it moved) or stale (the switcher moved its
    // logical CPU to the other cluster since), a move counts as up when it lands above the
    // slowest cluster: with two clusters, on the big one.
    const unsigned to_cluster = cpu_cluster_.at(cpu);
    const double to = cluster_speed_.at(to_cluster);
    const int from = task < ran_on_before_.size() ? ran_on_before_[task] : -1;
    const double slowest = *std::min_element(cluster_speed_.begin(), cluster_speed_.end());
    if (from >= 0 && static_cast<unsigned>(from) != to_cluster ? to > cluster_speed_.at(static_cast<unsigned>(from))
                                                                : to > slowest)
        up_++;
    intervals_.back().migrations++;
}

void os_probe::mode_changed(std::uint64_t t_ps, unsigned mode, unsigned previous)
{
    mode_interval& now = intervals_.back();
    if (mode == now.mode)
        return; // a request for the mode it is in: no change
    if (previous == 0 && intervals_.size() == 1) {
        // The boot's: the mode the run starts in, from its start.
        now.mode = mode;
        return;
    }
    advance_(t_ps);
    now.end_ps = t_ps;
    now.energy_at_end_j = meter_.total_energy_j();
    mode_interval next;
    next.mode = mode;
    next.start_ps = t_ps;
    next.energy_at_start_j = now.energy_at_end_j;
    intervals_.push_back(next);
}

void os_probe::finish(std::uint64_t t_ps)
{
    advance_(t_ps);
    intervals_.back().end_ps = t_ps;
    intervals_.back().energy_at_end_j = meter_.total_energy_j();
}

std::vector<std::string> os_probe::final_check(std::uint64_t end_ps, double total_j) const
{
    std::vector<std::string> problems;
    auto num = [](double v) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.9g", v);
        return std::string(buf);
    };
    double sum = 0;
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < intervals_.size(); i++) {
        const mode_interval& m = intervals_[i];
        const std::string which = "mode interval " + std::to_string(i);
        if (m.start_ps != at)
            problems.push_back(which + " starts at " + model::format_time_s(m.start_ps) + " s, not where the one before "
                               "ended (" + model::format_time_s(at) + " s)");
        if (m.end_ps < m.start_ps)
            problems.push_back(which + " ends at " + model::format_time_s(m.end_ps) + " s, before its start (" +
                               model::format_time_s(m.start_ps) + " s)");
        if (!(m.energy_j() >= 0))
            problems.push_back(which + " has a negative energy, " + num(m.energy_j()) + " J");
        sum += m.energy_j();
        at = m.end_ps;
    }
    if (at != end_ps)
        problems.push_back("the mode intervals end at " + model::format_time_s(at) + " s, the run at " +
                           model::format_time_s(end_ps) + " s");
    // Sums of many terms differ in the last bits (the meter's own checks allow as much).
    if (std::fabs(sum - total_j) > 1e-9 * std::max(std::fabs(sum), std::fabs(total_j)) + 1e-18)
        problems.push_back("the mode intervals' energies add up to " + num(sum) + " J, the total is " + num(total_j) +
                           " J");
    return problems;
}

} // namespace blsim::soc
