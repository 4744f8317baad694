// soc/src/os_probe.cpp
#include "blsim/soc/os_probe.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "blsim/model/invariant.h"

namespace blsim::soc {

os_probe::os_probe(unsigned ntasks, std::vector<unsigned> cpu_cluster, int big, unsigned boot_mode,
                   const model::energy_meter& meter, std::function<void(std::uint64_t)> advance)
    : wakeup_latency_(ntasks), cpu_cluster_(std::move(cpu_cluster)), big_(big), meter_(meter),
      advance_(std::move(advance))
{
    mode_interval first;
    first.mode = boot_mode;
    intervals_.push_back(first);
}

void os_probe::migrated(unsigned cpu, unsigned latency_ns)
{
    migration_latency_.record(static_cast<std::uint64_t>(latency_ns) * 1000); // ns -> ps
    if (big_ >= 0 && cpu < cpu_cluster_.size() && cpu_cluster_[cpu] == static_cast<unsigned>(big_))
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
