// soc/report/src/switches_csv.cpp -- switches.csv (blsim/soc/results.h): a row per completed
// switch, its columns in docs/results.md.
#include "blsim/soc/results.h"

#include <charconv>
#include <cstdio>
#include <sstream>

namespace blsim::soc {

std::string switches_csv(platform& p)
{
    const scenario_config& cfg = p.config();
    std::ostringstream os;
    os << "logical_cpu,direction,outbound_cpu,inbound_cpu,t_cpufreq_request_s,t_request_s,"
          "t_inbound_power_on_s,t_alive_s,t_blackout_start_s,t_blackout_end_s,t_outbound_off_s,t_done_s,"
          "dvfs_wait_us,request_to_alive_us,blackout_us";
    for (const char* step : switch_step_names)
        os << "," << step << "_us";
    os << ",total_us,inbound_cluster_powered_up,outbound_cluster_powered_down,energy_window_j,"
          "energy_overhead_j,group\n";
    // Times are whole picoseconds: printed exactly, by integer arithmetic (and far faster
    // than printf's floating point, a large part of a short run's time otherwise).
    auto fixed = [](char* out, std::uint64_t ps, std::uint64_t unit, int decimals, bool negative) {
        char* p = out;
        if (negative)
            *p++ = '-';
        p = std::to_chars(p, p + 24, ps / unit).ptr;
        *p++ = '.';
        std::uint64_t frac = ps % unit;
        for (int i = decimals - 1; i >= 0; i--, frac /= 10)
            p[i] = static_cast<char>('0' + frac % 10);
        p += decimals;
        *p = '\0';
        return out;
    };
    char num[64];
    auto s = [&](std::uint64_t t) { return fixed(num, t, 1000000000000ull, 12, false); };
    auto us = [&](std::uint64_t a, std::uint64_t b) {
        return b >= a ? fixed(num, b - a, 1000000, 6, false) : fixed(num, a - b, 1000000, 6, true);
    };
    char line[160];
    for (const switch_record& r : p.probe().records()) {
        const std::string dir = cfg.soc.clusters[r.from_cluster].name + "->" + cfg.soc.clusters[r.to_cluster].name;
        std::snprintf(line, sizeof line, "%u,%s,%u,%u,", r.logical, dir.c_str(), r.outbound, r.inbound);
        os << line;
        // No frequency request behind it (the switcher turned off): the field is empty.
        if (r.t_cpufreq)
            os << s(r.t_cpufreq);
        os << ',';
        for (std::uint64_t t : {r.t_request, r.t_inbound_power_on, r.t_alive, r.t_blackout_start, r.t_blackout_end,
                                r.t_outbound_off, r.t_done})
            os << s(t) << ',';
        if (r.t_cpufreq)
            os << us(r.t_cpufreq, r.t_request);
        os << ',' << us(r.t_request, r.t_alive) << ',' << us(r.t_blackout_start, r.t_blackout_end);
        for (int k = 0; k < switch_steps; k++)
            os << ',' << fixed(num, r.step_ps(k), 1000000, 6, false);
        os << ',' << us(r.t_request, r.t_outbound_off);
        std::snprintf(line, sizeof line, ",%d,%d,%.9g,%.9g,", r.inbound_cluster_powered_up ? 1 : 0,
                      r.outbound_cluster_powered_down ? 1 : 0, r.energy_window_j, r.energy_overhead_j);
        os << line;
        // Cluster migration's group; empty for a switch of no group (IKS, the switcher turned off).
        if (r.group)
            os << r.group;
        os << '\n';
    }
    return os.str();
}

} // namespace blsim::soc
