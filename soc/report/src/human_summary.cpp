// soc/report/src/human_summary.cpp -- the few lines `blsim run` prints (blsim/soc/results.h;
// docs/results.md, "What `blsim run` prints"): a function per line or table, in print order.
#include "blsim/soc/results.h"

#include "blsim/workloads/audio.h"
#include "blsim/workloads/bbench.h"
#include "blsim/workloads/composite.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "results_text.h"

namespace blsim::soc {

namespace {

void print_run_line(std::ostringstream& os, const scenario_config& cfg, const host_stats& host, double sim_s)
{
    char line[256];
    std::snprintf(line, sizeof line,
                  "blsim: '%s' (seed %d): %.3f s simulated in %.3f s (%.0fx real time, %llu events)\n",
                  cfg.name.c_str(), cfg.seed, sim_s, host.wall_s,
                  host.wall_s > 0 ? sim_s / host.wall_s : 0.0,
                  static_cast<unsigned long long>(host.events));
    os << line;
}

void print_jitter(std::ostringstream& os, const platform& p)
{
    std::uint64_t draws = 0;
    for (model::jitter_class c : model::all_jitter_classes)
        draws += p.jitter().draws(c);
    char line[256];
    std::snprintf(line, sizeof line, "jitter: on, %llu latencies perturbed, drawn from seed %d\n",
                  static_cast<unsigned long long>(draws), p.config().seed);
    os << line;
}

void print_faults(std::ostringstream& os, const model::fault_source& faults)
{
    std::string kinds;
    for (model::fault_kind k : model::all_fault_kinds)
        if (faults.configured(k))
            kinds += (kinds.empty() ? "" : ", ") + std::string(model::to_string(k)) + " " +
                     std::to_string(faults.injected(k));
    os << "faults: " << faults.injected_total() << " injected (" << kinds << ")\n";
}

void print_energy(std::ostringstream& os, const platform& p, double sim_s)
{
    const model::energy_meter& m = p.meter();
    char line[256];
    std::snprintf(line, sizeof line, "energy %.4f J, average power %.1f mW (%s model)\n",
                  m.total_energy_j(), sim_s > 0 ? m.total_energy_j() / sim_s * 1e3 : 0.0,
                  p.config().soc.energy.model == model::power_model_kind::eas ? "eas" : "cv2f");
    os << line;
}

void print_bbench(std::ostringstream& os, const workloads::bbench& b)
{
    std::size_t warm = 0;
    for (const auto& l : b.loads())
        warm += l.iteration > 0 ? 1 : 0;
    const double latency_s = b.mean_latency_s();
    char line[256];
    std::snprintf(line, sizeof line,
                  "pages: %zu loaded (%zu warm), mean latency %.1f ms (geometric, %s), score %.3f pages/s; "
                  "%llu scroll steps\n",
                  b.loads().size(), warm, latency_s * 1e3, warm ? "warm loads" : "cold loads: no warm one yet",
                  latency_s > 0 ? 1.0 / latency_s : 0.0, static_cast<unsigned long long>(b.scroll_steps()));
    os << line;
}

void print_audio(std::ostringstream& os, const workloads::audio& a)
{
    char line[256];
    std::snprintf(line, sizeof line, "audio: %llu frames, %llu deadline misses, worst lateness %.3f ms\n",
                  static_cast<unsigned long long>(a.frames()),
                  static_cast<unsigned long long>(a.deadline_misses()), a.max_lateness_ms());
    os << line;
}

void print_cpu_table(std::ostringstream& os, platform& p, double sim_s)
{
    const model::energy_meter& m = p.meter();
    char line[256];
    os << "  cpu   cluster  energy J    on %   wfi %   off %\n";
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++) {
        auto pct = [&](model::core_power s) { return sim_s > 0 ? m.core_residency_s(cpu, s) / sim_s * 100 : 0.0; };
        std::snprintf(line, sizeof line, "  cpu%-2u %-8s %8.4f  %6.1f  %6.1f  %6.1f\n", cpu,
                      p.config().soc.clusters[p.power().cluster_of(cpu)].name.c_str(),
                      m.core_energy_j(cpu), pct(model::core_power::on),
                      pct(model::core_power::wfi), pct(model::core_power::off));
        os << line;
    }
}

// The switches' figures, then the first ones, one line each (all of them are in switches.csv).
void print_switches(std::ostringstream& os, const switch_probe& probe, const scenario_config& cfg)
{
    char line[256];
    std::snprintf(line, sizeof line,
                  "switches: %llu, blackout %.2f..%.2f us, request to outbound off up to %.1f us, "
                  "DVFS before the request up to %.1f us; their own energy %.3f mJ\n",
                  static_cast<unsigned long long>(probe.blackout().count()), probe.blackout().min() / 1e6,
                  probe.blackout().max() / 1e6, probe.total().max() / 1e6, probe.dvfs_wait().max() / 1e6,
                  probe.overhead_energy_j() * 1e3);
    os << line;
    const std::size_t shown = std::min<std::size_t>(probe.records().size(), 12);
    for (std::size_t i = 0; i < shown; i++) {
        const switch_record& r = probe.records()[i];
        char asked[48] = "";
        if (r.t_cpufreq)
            std::snprintf(asked, sizeof asked, ", asked at %.4f s", r.t_cpufreq / 1e12);
        std::snprintf(line, sizeof line, "  %.4f s  logical cpu%u %s->%s%s, blackout %.2f us\n",
                      r.t_request / 1e12, r.logical, cfg.soc.clusters[r.from_cluster].name.c_str(),
                      cfg.soc.clusters[r.to_cluster].name.c_str(), asked,
                      (r.t_blackout_end - r.t_blackout_start) / 1e6);
        os << line;
    }
    if (probe.records().size() > shown) {
        std::snprintf(line, sizeof line, "  ... and %zu more in switches.csv\n", probe.records().size() - shown);
        os << line;
    }
}

void print_cluster_migration(std::ostringstream& os, const switch_probe& probe)
{
    const model::log_histogram g = probe.group_blackout();
    char line[256];
    std::snprintf(line, sizeof line, "cluster migration: %zu group%s of switches, group blackout %.2f..%.2f us\n",
                  probe.groups(), probe.groups() == 1 ? "" : "s", g.min() / 1e6, g.max() / 1e6);
    os << line;
}

void print_migrations(std::ostringstream& os, const os_probe& osp)
{
    const model::log_histogram& h = osp.migration_latency();
    char line[256];
    std::snprintf(line, sizeof line,
                  "migrations between the clusters: %llu (%llu up, %llu down), decision to running "
                  "%.1f us median, %.1f us at most\n",
                  static_cast<unsigned long long>(osp.migrations()),
                  static_cast<unsigned long long>(osp.migrations_up()),
                  static_cast<unsigned long long>(osp.migrations_down()), h.percentile(0.5) / 1e6,
                  h.max() / 1e6);
    os << line;
}

void print_modes(std::ostringstream& os, const os_probe& osp)
{
    char line[256];
    std::string modes;
    for (const os_probe::mode_interval& mi : osp.mode_intervals()) {
        std::snprintf(line, sizeof line, "%s %s %.3f-%.3f s %.4f J", modes.empty() ? "modes:" : ";",
                      mode_string(mi.mode).c_str(), mi.start_ps / 1e12, mi.end_ps / 1e12, mi.energy_j());
        modes += line;
    }
    os << modes << "\n";
}

// The OS: the governor's decisions and the scheduler's activity.
void print_governor_scheduler(std::ostringstream& os, const bls_kernel& k, const scenario_config& cfg)
{
    char line[256];
    std::snprintf(line, sizeof line, "governor %s: %llu samples, %llu requests; scheduler: %llu context switches, "
                  "%llu migrations, %llu timer interrupts\n",
                  cfg.governor.name.c_str(), static_cast<unsigned long long>(k.gov.stats.samples),
                  static_cast<unsigned long long>(k.gov.stats.requests),
                  static_cast<unsigned long long>(k.sched.stats.context_switches),
                  static_cast<unsigned long long>(k.sched.stats.migrations),
                  static_cast<unsigned long long>(k.stats.timer_irqs));
    os << line;
}

// A cpufreq policy: its CPUs and its time at each frequency above 1 %.
void print_policy(std::ostringstream& os, const bls_policy& pol, std::uint64_t end_ns)
{
    std::string cpus, states;
    for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
        if (pol.cpus >> c & 1u)
            cpus += (cpus.empty() ? "cpu" : ",") + std::to_string(c);
    double total = 0;
    for (unsigned f = 0; f < pol.nfreqs; f++)
        total += static_cast<double>(bls_policy_time_in_state_ns(&pol, f, end_ns));
    for (unsigned f = 0; f < pol.nfreqs; f++) {
        const double ns = static_cast<double>(bls_policy_time_in_state_ns(&pol, f, end_ns));
        if (total > 0 && ns / total > 0.01) {
            char st[32];
            std::snprintf(st, sizeof st, " %u:%.0f%%", pol.freq_mhz[f], ns / total * 100);
            states += st;
        }
    }
    char line[256];
    std::snprintf(line, sizeof line, "  policy %s, MHz:time%s\n", cpus.c_str(), states.c_str());
    os << line;
}

void print_clusters(std::ostringstream& os, platform& p, double sim_s)
{
    const model::energy_meter& m = p.meter();
    char line[256];
    for (unsigned c = 0; c < p.nclusters(); c++) {
        const model::cluster_params& cp = p.config().soc.clusters[c];
        std::snprintf(line, sizeof line, "  cluster %-8s %8.4f J (shared logic %.4f J), off %.1f%%, at %d MHz\n",
                      cp.name.c_str(), m.cluster_energy_j(c), m.uncore_energy_j(c),
                      sim_s > 0 ? m.cluster_residency_s(c, model::cluster_power::off) / sim_s * 100 : 0.0,
                      p.cluster_at(c).clock().freq_mhz());
        os << line;
    }
}

} // namespace

std::string human_summary(platform& p, const host_stats& host)
{
    const scenario_config& cfg = p.config();
    const double sim_s = sc_core::sc_time_stamp().value() / 1e12;
    const std::uint64_t end_ns = sc_core::sc_time_stamp().value() / 1000;
    std::ostringstream os;

    print_run_line(os, cfg, host, sim_s);
    if (p.jitter().enabled())
        print_jitter(os, p);
    if (p.faults().any())
        print_faults(os, p.faults());
    print_energy(os, p, sim_s);
    if (const auto* b = workloads::find_part<workloads::bbench>(p.workload()))
        print_bbench(os, *b);
    if (const auto* a = workloads::find_part<workloads::audio>(p.workload()))
        print_audio(os, *a);
    print_cpu_table(os, p, sim_s);
    if (p.probe().blackout().count() > 0)
        print_switches(os, p.probe(), cfg);
    if (p.probe().groups() > 0)
        print_cluster_migration(os, p.probe());
    if (p.os().migrations() > 0)
        print_migrations(os, p.os());
    if (p.os().mode_intervals().size() > 1)
        print_modes(os, p.os());
    print_governor_scheduler(os, p.kernel(), cfg);
    for (unsigned i = 0; i < p.kernel().gov.npolicies; i++)
        print_policy(os, p.kernel().gov.policy[i], end_ns);
    print_clusters(os, p, sim_s);
    return os.str();
}

} // namespace blsim::soc
