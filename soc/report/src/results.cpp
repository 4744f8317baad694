// soc/report/src/results.cpp
#include "blsim/soc/results.h"

#include "blsim/workloads/audio.h"
#include "blsim/workloads/bbench.h"
#include "blsim/workloads/composite.h"
#include "blsim/workloads/percentile.h"
#include "blsim/workloads/rtapp.h"

#include <algorithm>
#include <map>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

namespace blsim::soc {

using json = nlohmann::ordered_json;

// The workloads' own measures of performance (docs/results.md, "perf").
json perf_json(const workloads::workload& w)
{
    json perf = json::object();
    if (const auto* b = workloads::find_part<workloads::bbench>(w)) {
        std::vector<double> t;
        double total = 0;
        for (const auto& l : b->loads()) {
            t.push_back(l.load_s);
            total += l.load_s;
        }
        auto pct = [&](double p) -> json { return t.empty() ? json(nullptr) : json(workloads::percentile(t, p)); };
        json loads = json::array();
        std::size_t warm = 0;
        for (const auto& l : b->loads()) {
            loads.push_back({{"page", l.name}, {"iteration", l.iteration}, {"load_s", l.load_s}});
            warm += l.iteration > 0 ? 1 : 0;
        }
        const double latency_s = b->mean_latency_s();
        perf["bbench"] = {
            {"pages", t.size()},
            {"warm_pages", warm},
            {"page_load_s",
             {{"total", total},
              {"mean", t.empty() ? json(nullptr) : json(total / static_cast<double>(t.size()))},
              {"p50", pct(50)},
              {"p95", pct(95)},
              {"max", pct(100)}}},
            {"mean_latency_ms", latency_s > 0 ? json(latency_s * 1e3) : json(nullptr)},
            {"score", latency_s > 0 ? json(1.0 / latency_s) : json(nullptr)},
            {"scroll_steps", b->scroll_steps()},
            {"done_s", b->done_ns() ? json(static_cast<double>(b->done_ns()) * 1e-9) : json(nullptr)},
            {"loads", loads}};
    }
    if (const auto* r = workloads::find_part<workloads::rtapp>(w)) {
        auto dist = [](const std::vector<double>& v) -> json {
            if (v.empty())
                return {{"p50", nullptr}, {"p95", nullptr}, {"max", nullptr}};
            return {{"p50", workloads::percentile(v, 50)},
                    {"p95", workloads::percentile(v, 95)},
                    {"max", workloads::percentile(v, 100)}};
        };
        json threads = json::object();
        for (const workloads::rtapp_thread_stats& t : r->stats())
            threads[t.name] = {{"loops", t.loops},
                               {"timer_activations", t.slack_us.size()},
                               {"late_activations", std::count_if(t.lateness_us.begin(), t.lateness_us.end(),
                                                                  [](double l) { return l > 0; })},
                               {"slack_us", dist(t.slack_us)},
                               {"lateness_us", dist(t.lateness_us)}};
        perf["rtapp"] = threads;
    }
    if (const auto* a = workloads::find_part<workloads::audio>(w))
        perf["audio"] = {{"frames", a->frames()},
                         {"deadline_misses", a->deadline_misses()},
                         {"max_lateness_ms", a->max_lateness_ms()},
                         {"decoder", {{"frames", a->frames(0)}, {"deadline_misses", a->deadline_misses(0)}}},
                         {"mixer", {{"frames", a->frames(1)}, {"deadline_misses", a->deadline_misses(1)}}}};
    return perf;
}

namespace {

std::string cpu_name(unsigned cpu) { return "cpu" + std::to_string(cpu); }

// Whether the run is in mode @mode at any time (at boot or by a change).
bool runs_in(const scenario_config& cfg, const std::string& mode)
{
    if (cfg.mode == mode)
        return true;
    for (const mode_change& m : cfg.mode_changes)
        if (m.mode == mode)
            return true;
    return false;
}

std::string mode_string(unsigned kernel_mode)
{
    const char* n = mode_name(kernel_mode);
    return n ? n : "mode " + std::to_string(kernel_mode);
}

} // namespace

std::string summary_json(platform& p, const host_stats& host, const std::vector<std::string>& extra_files)
{
    const model::energy_meter& m = p.meter();
    const scenario_config& cfg = p.config();
    const double sim_s = sc_core::sc_time_stamp().value() / 1e12;
    const std::uint64_t end_ns = sc_core::sc_time_stamp().value() / 1000;

    json j;
    j["schema_version"] = summary_schema_version;
    j["scenario"] = cfg.name;
    j["seed"] = cfg.seed;
    j["sim_time_s"] = sim_s;
    j["mode"] = cfg.mode;

    json energy;
    energy["total"] = m.total_energy_j();
    json clusters = json::object(), uncore = json::object(), cores = json::object();
    for (unsigned c = 0; c < p.nclusters(); c++) {
        const std::string& name = cfg.soc.clusters[c].name;
        clusters[name] = m.cluster_energy_j(c);
        uncore[name] = m.uncore_energy_j(c);
    }
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++)
        cores[cpu_name(cpu)] = m.core_energy_j(cpu);
    energy["clusters"] = clusters;
    energy["uncore"] = uncore;
    energy["cores"] = cores;
    // The same energy broken down by power state and by operating point (each breakdown adds
    // up to its total; the meter checks it at the end of the run).
    json cores_by_state = json::object(), uncore_by_state = json::object(), by_opp = json::object();
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++) {
        json r;
        for (model::core_power s : model::all_core_power)
            r[model::to_string(s)] = m.core_energy_j(cpu, s);
        cores_by_state[cpu_name(cpu)] = r;
    }
    for (unsigned c = 0; c < p.nclusters(); c++) {
        const model::cluster_params& cp = cfg.soc.clusters[c];
        json r;
        r["busy"] = m.uncore_busy_energy_j(c);
        r["idle"] = m.uncore_energy_j(c, model::cluster_power::on) - m.uncore_busy_energy_j(c);
        r["powering_up"] = m.uncore_energy_j(c, model::cluster_power::powering_up);
        r["powering_down"] = m.uncore_energy_j(c, model::cluster_power::powering_down);
        r["off"] = m.uncore_energy_j(c, model::cluster_power::off);
        r["power_up_transitions"] = m.transition_energy_j(c, model::cluster_transition::power_up);
        r["power_down_transitions"] = m.transition_energy_j(c, model::cluster_transition::power_down);
        uncore_by_state[cp.name] = r;
        json opp = json::object();
        for (std::size_t i = 0; i < cp.opps.size(); i++)
            opp[std::to_string(cp.opps[i].freq_mhz)] = m.cluster_opp_energy_j(c, static_cast<int>(i));
        by_opp[cp.name] = opp;
    }
    energy["cores_by_state"] = cores_by_state;
    energy["uncore_by_state"] = uncore_by_state;
    energy["clusters_by_opp_mhz"] = by_opp;
    j["energy_j"] = energy;
    j["avg_power_mw"] = sim_s > 0 ? m.total_energy_j() / sim_s * 1e3 : 0.0;

    // The run by mode, when the mode changed: each interval's energy (the meter read at the
    // changes; they add up to the total, an invariant checked at the end of the run), and the
    // switches requested and tasks moved between the clusters in it.
    const std::vector<os_probe::mode_interval>& intervals = p.os().mode_intervals();
    if (intervals.size() > 1) {
        json list = json::array();
        for (std::size_t i = 0; i < intervals.size(); i++) {
            const os_probe::mode_interval& mi = intervals[i];
            const bool last = i + 1 == intervals.size();
            std::uint64_t switches = 0;
            for (const switch_record& r : p.probe().records())
                if (r.t_request >= mi.start_ps && (r.t_request < mi.end_ps || (last && r.t_request == mi.end_ps)))
                    switches++;
            const double len_s = static_cast<double>(mi.end_ps - mi.start_ps) / 1e12;
            list.push_back({{"mode", mode_string(mi.mode)},
                            {"start_s", static_cast<double>(mi.start_ps) / 1e12},
                            {"end_s", static_cast<double>(mi.end_ps) / 1e12},
                            {"energy_j", mi.energy_j()},
                            {"avg_power_mw", len_s > 0 ? mi.energy_j() / len_s * 1e3 : 0.0},
                            {"switches", switches},
                            {"migrations", mi.migrations}});
        }
        j["mode_intervals"] = list;
    }

    json res_cores = json::object();
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++) {
        json r;
        r["cluster"] = cfg.soc.clusters[p.power().cluster_of(cpu)].name;
        for (model::core_power s : model::all_core_power)
            r[model::to_string(s)] = m.core_residency_s(cpu, s);
        res_cores[cpu_name(cpu)] = r;
    }
    json res_clusters = json::object();
    for (unsigned c = 0; c < p.nclusters(); c++) {
        const model::cluster_params& cp = cfg.soc.clusters[c];
        json r;
        for (model::cluster_power s : model::all_cluster_power)
            r[model::to_string(s)] = m.cluster_residency_s(c, s);
        json opp = json::object();
        for (std::size_t i = 0; i < cp.opps.size(); i++)
            opp[std::to_string(cp.opps[i].freq_mhz)] = m.opp_residency_s(c, static_cast<int>(i));
        r["opp_mhz"] = opp;
        r["power_ups"] = m.transitions(c, model::cluster_transition::power_up);
        r["power_downs"] = m.transitions(c, model::cluster_transition::power_down);
        r["power_downs_aborted"] = p.power().entries_aborted(c);
        res_clusters[cp.name] = r;
    }
    j["residency_s"] = {{"cores", res_cores}, {"clusters", res_clusters}};

    // Latency distributions in microseconds: nearest-rank percentiles from constant-memory
    // histograms (within model::log_histogram::relative_error() of the exact rank; minimum
    // and maximum exact).
    auto distribution = [](const model::log_histogram& h) {
        if (h.count() == 0)
            return json{{"min", nullptr}, {"p50", nullptr}, {"p99", nullptr}, {"max", nullptr}};
        auto us = [](std::uint64_t ps) { return static_cast<double>(ps) / 1e6; };
        return json{{"min", us(h.min())}, {"p50", us(h.percentile(0.5))}, {"p99", us(h.percentile(0.99))},
                    {"max", us(h.max())}};
    };
    json tasks = json::object();
    const bls_kernel& k = p.kernel();
    for (unsigned t = 0; t < p.workload().ntasks(); t++) {
        const bls_sched_task& st = k.sched.task[t];
        json r;
        r["done_ref_ms"] = k.task_stats[t].done_ref_ns * 1e-6;
        r["runtime_s"] = static_cast<double>(p.task_runtime_ns(t)) * 1e-9;
        r["wait_s"] = static_cast<double>(st.stats.wait_ns) * 1e-9;
        r["wakeups"] = st.stats.wakeups;
        r["migrations"] = st.stats.migrations;
        r["wakeup_latency_us"] = distribution(p.os().wakeup_latency(t));
        r["util_avg"] = st.pelt.util_avg;
        r["cpu"] = st.cpu;
        tasks[p.workload().info(t).name] = r;
    }
    j["tasks"] = tasks;
    j["perf"] = perf_json(p.workload());

    const bls_sched_stats& ss = k.sched.stats;
    j["sched"] = {{"context_switches", ss.context_switches},
                  {"migrations", ss.migrations},
                  {"wakeups", ss.wakeups},
                  {"load_balance_moves", ss.load_balance_moves},
                  {"timer_irqs", k.stats.timer_irqs}};

    // Tasks moved between the clusters (HMP, EAS): up to the big cluster or down, and from the
    // decision to move each to it running there.
    const os_probe& os = p.os();
    if (os.migrations() > 0 || runs_in(cfg, "hmp") || runs_in(cfg, "eas"))
        j["migrations"] = {{"count", os.migrations()},
                           {"up", os.migrations_up()},
                           {"down", os.migrations_down()},
                           {"latency_us", distribution(os.migration_latency())}};

    // The cpufreq statistics of each policy as it stands at the end (time_in_state since the
    // policies were last made: the switcher turned on or off remakes them).
    json policies = json::array();
    for (unsigned i = 0; i < k.gov.npolicies; i++) {
        const bls_policy& pol = k.gov.policy[i];
        json cpus = json::array();
        for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
            if (pol.cpus >> c & 1u)
                cpus.push_back(c);
        json tis = json::object();
        for (unsigned f = 0; f < pol.nfreqs; f++)
            tis[std::to_string(pol.freq_mhz[f])] = static_cast<double>(bls_policy_time_in_state_ns(&pol, f, end_ns)) * 1e-9;
        policies.push_back({{"cpus", cpus}, {"cur_mhz", pol.cur_mhz}, {"freq_changes", pol.freq_changes},
                            {"time_in_state_s", tis}});
    }
    j["governor"] = {{"name", cfg.governor.name},
                     {"samples", k.gov.stats.samples},
                     {"requests", k.gov.stats.requests},
                     {"freq_changes", p.os().freq_changes()},
                     {"requests_refused", k.stats.freq_requests_refused},
                     {"policies", policies}};

    json idle = json::object();
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++) {
        const unsigned cl = p.power().cluster_of(cpu);
        const std::vector<model::idle_state_params>& states = cfg.soc.clusters[cl].idle_states;
        const bls_cpuidle_stats& is = k.cpuidle.stats[cpu];
        json r = json::object();
        for (unsigned i = 0; i < k.cpuidle.cfg.nstates[cl]; i++) {
            std::uint64_t ns = is.residency_ns[i];
            if (k.cpuidle.in_state[cpu] == static_cast<int>(i))
                ns += end_ns - std::min(end_ns, k.cpuidle.entered_ns[cpu]);
            r[states[i].name] = {{"entries", is.entries[i]},
                                 {"residency_s", static_cast<double>(ns) * 1e-9},
                                 {"above", is.above[i]},
                                 {"below", is.below[i]}};
        }
        idle["cpu" + std::to_string(cpu)] = r;
    }
    j["idle"] = idle;
    j["workload_errors"] = k.stats.workload_errors;

    const model::gic400& gic = p.gic();
    j["gic"] = {{"irqs_raised", gic.irqs_raised()},
                {"irqs_delivered", gic.irqs_delivered()},
                {"spurious", gic.spurious_reads()},
                {"guest_errors", gic.guest_errors()}};
    const model::cci& cci = p.cci();
    j["cci"] = {{"snoops", cci.snoops()},
                {"snoop_hits", cci.snoop_hits()},
                {"bytes", cci.bytes()},
                {"guest_errors", cci.guest_errors()},
                {"port_timeouts", p.cci_timeouts()}};
    j["power_controller"] = {{"dvfs_requests", p.power().dvfs_requests()},
                             {"guest_errors", p.power().guest_errors()}};
    const model::dram& mem = p.memory();
    j["dram"] = {{"bytes", mem.bytes()},
                 {"transactions", mem.transactions()},
                 {"avg_latency_ns", mem.avg_latency_ns()}};
    json caches = json::object();
    for (unsigned c = 0; c < p.nclusters(); c++) {
        model::cluster& cl = p.cluster_at(c);
        caches[cfg.soc.clusters[c].name] = {{"l2_hit_lines", cl.l2_hits()},
                                            {"fetched_lines", cl.fetched()},
                                            {"written_back_lines", cl.written_back()}};
    }
    j["caches"] = caches;

    const switch_probe& probe = p.probe();
    json sw;
    sw["count"] = probe.records().size();
    sw["requests"] = p.kernel().sw.stats.requests;
    sw["switcher_enables"] = p.kernel().sw.stats.enables;
    sw["switcher_disables"] = p.kernel().sw.stats.disables;
    sw["dvfs_wait_us"] = distribution(probe.dvfs_wait());
    sw["request_to_alive_us"] = distribution(probe.request_to_alive());
    sw["blackout_us"] = distribution(probe.blackout());
    json steps = json::object();
    for (int k = 0; k < switch_steps; k++)
        steps[std::string(switch_step_names[k]) + "_us"] = distribution(probe.step(k));
    sw["blackout_steps"] = steps;
    sw["total_us"] = distribution(probe.total());
    sw["energy_overhead_j"] = probe.overhead_energy_j();
    sw["energy_window_j"] = probe.window_energy_j();
    const bls_cpufreq_stats& fs = p.kernel().cpufreq.stats;
    sw["cpufreq"] = {{"transactions", fs.transactions},
                     {"spc_requests", fs.spc_requests},
                     {"spc_errors", fs.spc_errors},
                     {"clock_unchanged", fs.clock_unchanged},
                     {"queued", fs.queued}};
    const bls_mcpm_stats& ms = p.kernel().mcpm.stats;
    sw["mcpm"] = {{"last_man", ms.last_man},
                  {"last_man_aborted", ms.last_man_aborted},
                  {"first_man", ms.first_man},
                  {"raced_power_up", ms.raced_power_up},
                  {"late_pokes", ms.late_pokes}};
    j["switches"] = sw;
    // Cluster migration: the switches of one group move every logical CPU together; the
    // group's blackout runs from its first CPU's blackout start to its last CPU's end.
    if (runs_in(cfg, "cluster-migration") || probe.groups() > 0)
        j["cluster_migration"] = {{"groups", probe.groups()}, {"blackout_us", distribution(probe.group_blackout())}};

    j["interrupts"] = {{"handled", probe.irqs_handled()},
                       {"merged", probe.irqs_merged()},
                       {"latency_us", distribution(probe.irq_latency())}};

    // Timing jitter, when it is on: the latencies each class perturbed (docs/hardware.md).
    if (p.jitter().enabled()) {
        json draws = json::object();
        std::uint64_t total = 0;
        for (model::jitter_class c : model::all_jitter_classes) {
            draws[model::to_string(c)] = p.jitter().draws(c);
            total += p.jitter().draws(c);
        }
        j["jitter"] = {{"enabled", true}, {"draws_total", total}, {"draws", draws}};
    }

    // Injected faults, when any is configured: an object per configured kind, so that what
    // the software made of them can stand beside what was injected (docs/results.md).
    if (p.faults().any()) {
        // What the C code did about each kind (docs/switcher.md, "Faults"); a spurious
        // interrupt it reads as IAR 1023 and ignores, as Linux does, so it has no count. A lost wake-up
        // that was not a switch's kick (a reschedule IPI to a CPU powered down) is noticed at
        // that CPU's next wake-up and counted nowhere else.
        const bls_kernel& kn = p.kernel();
        const bls_mcpm_stats& ms = kn.mcpm.stats;
        const std::uint64_t on_report = kn.sw.stats.aborted_on_report;
        std::map<model::fault_kind, json> handled;
        // An attempt reported failed is retried by the power controller itself, unless it was
        // a switch's inbound: that switch is given up.
        handled[model::fault_kind::power_up_fail] = {{"reported", ms.power_up_errors},
                                                      {"switch_given_up", on_report}};
        handled[model::fault_kind::wakeup_lost] = {
            {"inbound_kicked_again", kn.sw.stats.kick_retries},
            {"switch_given_up_after_timeout", kn.sw.stats.aborted - on_report}};
        handled[model::fault_kind::cci_stuck] = {{"port_asked_again", p.cci_retries()},
                                                  {"port_given_up", p.cci_timeouts()}};
        handled[model::fault_kind::dvfs_fail] = {{"frequency_transactions_failed", kn.cpufreq.stats.failed}};
        json faults = json::object();
        for (model::fault_kind k : model::all_fault_kinds)
            if (p.faults().configured(k))
                faults[model::to_string(k)] = handled.count(k)
                                                  ? json{{"injected", p.faults().injected(k)}, {"handled", handled[k]}}
                                                  : json{{"injected", p.faults().injected(k)}};
        if (p.faults().configured(model::fault_kind::power_up_fail)) {
            json failing = json::array();
            for (const auto& [cpu, since_s] : p.power_ups_failing_at_end())
                failing.push_back({{"cpu", "cpu" + std::to_string(cpu)}, {"since_s", since_s}});
            faults["power_up_fail"]["failing_at_end"] = failing;
        }
        faults["switches_given_up"] = kn.sw.stats.aborted;
        // Transactions that failed, and switches given up: the governor saw both fail.
        faults["governor_failed_transitions"] = kn.gov.stats.failed_transitions;
        j["faults"] = faults;
    }

    // The set this summary completes: it is written last (docs/results.md).
    std::vector<std::string> files = {"effective-config.yaml", "switches.csv"};
    for (const std::string& f : extra_files)
        if (std::find(files.begin(), files.end(), f) == files.end())
            files.push_back(f);
    std::sort(files.begin(), files.end());
    j["files"] = files;

    json h;
    h["wall_s"] = host.wall_s;
    h["realtime_factor"] = host.wall_s > 0 ? sim_s / host.wall_s : 0.0;
    h["events"] = host.events;
    h["peak_rss_mb"] = host.peak_rss_mb;
    h["distribution_bytes"] = probe.distribution_bytes() + p.os().distribution_bytes();
    j["host"] = h;
    return j.dump(2) + "\n";
}

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

std::string human_summary(platform& p, const host_stats& host)
{
    const model::energy_meter& m = p.meter();
    const scenario_config& cfg = p.config();
    const double sim_s = sc_core::sc_time_stamp().value() / 1e12;
    char line[256];
    std::ostringstream os;

    std::snprintf(line, sizeof line,
                  "blsim: '%s' (seed %d): %.3f s simulated in %.3f s (%.0fx real time, %llu events)\n",
                  cfg.name.c_str(), cfg.seed, sim_s, host.wall_s,
                  host.wall_s > 0 ? sim_s / host.wall_s : 0.0,
                  static_cast<unsigned long long>(host.events));
    os << line;
    if (p.jitter().enabled()) {
        std::uint64_t draws = 0;
        for (model::jitter_class c : model::all_jitter_classes)
            draws += p.jitter().draws(c);
        std::snprintf(line, sizeof line, "jitter: on, %llu latencies perturbed, drawn from seed %d\n",
                      static_cast<unsigned long long>(draws), cfg.seed);
        os << line;
    }
    if (p.faults().any()) {
        std::string kinds;
        for (model::fault_kind k : model::all_fault_kinds)
            if (p.faults().configured(k))
                kinds += (kinds.empty() ? "" : ", ") + std::string(model::to_string(k)) + " " +
                         std::to_string(p.faults().injected(k));
        os << "faults: " << p.faults().injected_total() << " injected (" << kinds << ")\n";
    }
    std::snprintf(line, sizeof line, "energy %.4f J, average power %.1f mW (%s model)\n",
                  m.total_energy_j(), sim_s > 0 ? m.total_energy_j() / sim_s * 1e3 : 0.0,
                  cfg.soc.energy.model == model::power_model_kind::eas ? "eas" : "cv2f");
    os << line;
    if (const auto* b = workloads::find_part<workloads::bbench>(p.workload())) {
        std::size_t warm = 0;
        for (const auto& l : b->loads())
            warm += l.iteration > 0 ? 1 : 0;
        const double latency_s = b->mean_latency_s();
        std::snprintf(line, sizeof line,
                      "pages: %zu loaded (%zu warm), mean latency %.1f ms (geometric, %s), score %.3f pages/s; "
                      "%llu scroll steps\n",
                      b->loads().size(), warm, latency_s * 1e3, warm ? "warm loads" : "cold loads: no warm one yet",
                      latency_s > 0 ? 1.0 / latency_s : 0.0, static_cast<unsigned long long>(b->scroll_steps()));
        os << line;
    }
    if (const auto* a = workloads::find_part<workloads::audio>(p.workload())) {
        std::snprintf(line, sizeof line, "audio: %llu frames, %llu deadline misses, worst lateness %.3f ms\n",
                      static_cast<unsigned long long>(a->frames()),
                      static_cast<unsigned long long>(a->deadline_misses()), a->max_lateness_ms());
        os << line;
    }
    os << "  cpu   cluster  energy J    on %   wfi %   off %\n";
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++) {
        auto pct = [&](model::core_power s) { return sim_s > 0 ? m.core_residency_s(cpu, s) / sim_s * 100 : 0.0; };
        std::snprintf(line, sizeof line, "  cpu%-2u %-8s %8.4f  %6.1f  %6.1f  %6.1f\n", cpu,
                      cfg.soc.clusters[p.power().cluster_of(cpu)].name.c_str(),
                      m.core_energy_j(cpu), pct(model::core_power::on),
                      pct(model::core_power::wfi), pct(model::core_power::off));
        os << line;
    }
    const switch_probe& probe = p.probe();
    if (probe.blackout().count() > 0) {
        std::snprintf(line, sizeof line,
                      "switches: %llu, blackout %.2f..%.2f us, request to outbound off up to %.1f us, "
                      "DVFS before the request up to %.1f us; their own energy %.3f mJ\n",
                      static_cast<unsigned long long>(probe.blackout().count()), probe.blackout().min() / 1e6,
                      probe.blackout().max() / 1e6, probe.total().max() / 1e6, probe.dvfs_wait().max() / 1e6,
                      probe.overhead_energy_j() * 1e3);
        os << line;
        // The first ones, one line each (all of them are in switches.csv).
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
    if (probe.groups() > 0) {
        const model::log_histogram g = probe.group_blackout();
        std::snprintf(line, sizeof line, "cluster migration: %zu group%s of switches, group blackout %.2f..%.2f us\n",
                      probe.groups(), probe.groups() == 1 ? "" : "s", g.min() / 1e6, g.max() / 1e6);
        os << line;
    }
    const os_probe& osp = p.os();
    if (osp.migrations() > 0) {
        const model::log_histogram& h = osp.migration_latency();
        std::snprintf(line, sizeof line,
                      "migrations between the clusters: %llu (%llu up, %llu down), decision to running "
                      "%.1f us median, %.1f us at most\n",
                      static_cast<unsigned long long>(osp.migrations()),
                      static_cast<unsigned long long>(osp.migrations_up()),
                      static_cast<unsigned long long>(osp.migrations_down()), h.percentile(0.5) / 1e6,
                      h.max() / 1e6);
        os << line;
    }
    if (osp.mode_intervals().size() > 1) {
        std::string modes;
        for (const os_probe::mode_interval& mi : osp.mode_intervals()) {
            std::snprintf(line, sizeof line, "%s %s %.3f-%.3f s %.4f J", modes.empty() ? "modes:" : ";",
                          mode_string(mi.mode).c_str(), mi.start_ps / 1e12, mi.end_ps / 1e12, mi.energy_j());
            modes += line;
        }
        os << modes << "\n";
    }
    // The OS: the governor's decisions per policy (time at each frequency above 1 %) and the
    // scheduler's activity.
    const bls_kernel& k = p.kernel();
    std::snprintf(line, sizeof line, "governor %s: %llu samples, %llu requests; scheduler: %llu context switches, "
                  "%llu migrations, %llu timer interrupts\n",
                  cfg.governor.name.c_str(), static_cast<unsigned long long>(k.gov.stats.samples),
                  static_cast<unsigned long long>(k.gov.stats.requests),
                  static_cast<unsigned long long>(k.sched.stats.context_switches),
                  static_cast<unsigned long long>(k.sched.stats.migrations),
                  static_cast<unsigned long long>(k.stats.timer_irqs));
    os << line;
    const std::uint64_t end_ns = sc_core::sc_time_stamp().value() / 1000;
    for (unsigned i = 0; i < k.gov.npolicies; i++) {
        const bls_policy& pol = k.gov.policy[i];
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
        std::snprintf(line, sizeof line, "  policy %s, MHz:time%s\n", cpus.c_str(), states.c_str());
        os << line;
    }
    for (unsigned c = 0; c < p.nclusters(); c++) {
        const model::cluster_params& cp = cfg.soc.clusters[c];
        std::snprintf(line, sizeof line, "  cluster %-8s %8.4f J (shared logic %.4f J), off %.1f%%, at %d MHz\n",
                      cp.name.c_str(), m.cluster_energy_j(c), m.uncore_energy_j(c),
                      sim_s > 0 ? m.cluster_residency_s(c, model::cluster_power::off) / sim_s * 100 : 0.0,
                      p.cluster_at(c).clock().freq_mhz());
        os << line;
    }
    return os.str();
}

std::vector<std::pair<std::string, std::string>> rtapp_log_files(const platform& p)
{
    std::vector<std::pair<std::string, std::string>> files;
    if (const auto* r = workloads::find_part<workloads::rtapp>(p.workload()))
        for (const workloads::rtapp_thread_stats& t : r->stats())
            files.push_back({t.log_file, workloads::rtapp_log_text(t.log)});
    return files;
}

} // namespace blsim::soc
