// soc/report/src/summary_json.cpp -- summary.json (blsim/soc/results.h): a function per
// section of its schema (docs/results.md), called in the schema's order by summary_json.
#include "blsim/soc/results.h"

#include "blsim/workloads/audio.h"
#include "blsim/workloads/bbench.h"
#include "blsim/workloads/composite.h"
#include "blsim/workloads/percentile.h"
#include "blsim/workloads/rtapp.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <nlohmann/json.hpp>

#include "results_text.h"

namespace blsim::soc {

namespace {

using json = nlohmann::ordered_json;

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

// Latency distributions in microseconds: nearest-rank percentiles from constant-memory
// histograms (within model::log_histogram::relative_error() of the exact rank; minimum
// and maximum exact).
json distribution(const model::log_histogram& h)
{
    if (h.count() == 0)
        return json{{"min", nullptr}, {"p50", nullptr}, {"p99", nullptr}, {"max", nullptr}};
    auto us = [](std::uint64_t ps) { return static_cast<double>(ps) / 1e6; };
    return json{{"min", us(h.min())}, {"p50", us(h.percentile(0.5))}, {"p99", us(h.percentile(0.99))},
                {"max", us(h.max())}};
}

// --- energy_j ----------------------------------------------------------------------------------

// The same energy broken down by power state and by operating point (each breakdown adds
// up to its total; the meter checks it at the end of the run).
json cores_by_state_json(platform& p)
{
    const model::energy_meter& m = p.meter();
    json cores_by_state = json::object();
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++) {
        json r;
        for (model::core_power s : model::all_core_power)
            r[model::to_string(s)] = m.core_energy_j(cpu, s);
        cores_by_state[cpu_name(cpu)] = r;
    }
    return cores_by_state;
}

json uncore_by_state_json(const model::energy_meter& m, unsigned c)
{
    json r;
    r["busy"] = m.uncore_busy_energy_j(c);
    r["idle"] = m.uncore_energy_j(c, model::cluster_power::on) - m.uncore_busy_energy_j(c);
    r["powering_up"] = m.uncore_energy_j(c, model::cluster_power::powering_up);
    r["powering_down"] = m.uncore_energy_j(c, model::cluster_power::powering_down);
    r["off"] = m.uncore_energy_j(c, model::cluster_power::off);
    r["power_up_transitions"] = m.transition_energy_j(c, model::cluster_transition::power_up);
    r["power_down_transitions"] = m.transition_energy_j(c, model::cluster_transition::power_down);
    return r;
}

json energy_json(platform& p)
{
    const model::energy_meter& m = p.meter();
    const scenario_config& cfg = p.config();
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
    json uncore_by_state = json::object(), by_opp = json::object();
    for (unsigned c = 0; c < p.nclusters(); c++) {
        const model::cluster_params& cp = cfg.soc.clusters[c];
        uncore_by_state[cp.name] = uncore_by_state_json(m, c);
        json opp = json::object();
        for (std::size_t i = 0; i < cp.opps.size(); i++)
            opp[std::to_string(cp.opps[i].freq_mhz)] = m.cluster_opp_energy_j(c, static_cast<int>(i));
        by_opp[cp.name] = opp;
    }
    energy["cores_by_state"] = cores_by_state_json(p);
    energy["uncore_by_state"] = uncore_by_state;
    energy["clusters_by_opp_mhz"] = by_opp;
    return energy;
}

// --- mode_intervals ----------------------------------------------------------------------------

// The run by mode, when the mode changed: each interval's energy (the meter read at the
// changes; they add up to the total, an invariant checked at the end of the run), and the
// switches requested and tasks moved between the clusters in it.
json mode_intervals_json(platform& p)
{
    const std::vector<os_probe::mode_interval>& intervals = p.os().mode_intervals();
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
    return list;
}

// --- residency_s -------------------------------------------------------------------------------

json residency_json(platform& p)
{
    const model::energy_meter& m = p.meter();
    const scenario_config& cfg = p.config();
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
    return {{"cores", res_cores}, {"clusters", res_clusters}};
}

// --- tasks, perf, sched, migrations --------------------------------------------------------

json tasks_json(platform& p)
{
    json tasks = json::object();
    // The ordered map's operator[] finds a key by walking the keys before it: thousands of
    // tasks made that quadratic. Its vector is filled directly, by names looked up in a hash
    // map, with operator[]'s meaning kept (a name given twice keeps its first place and its
    // last value).
    json::object_t::Container& by_name = tasks.get_ref<json::object_t&>();
    std::unordered_map<std::string, std::size_t> place;
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
        const std::string& name = p.workload().info(t).name;
        const auto [at, fresh] = place.emplace(name, by_name.size());
        if (fresh)
            by_name.emplace_back(name, std::move(r));
        else
            by_name[at->second].second = std::move(r);
    }
    return tasks;
}

json bbench_json(const workloads::bbench& b)
{
    std::vector<double> t;
    double total = 0;
    for (const auto& l : b.loads()) {
        t.push_back(l.load_s);
        total += l.load_s;
    }
    auto pct = [&](double p) -> json { return t.empty() ? json(nullptr) : json(workloads::percentile(t, p)); };
    json loads = json::array();
    std::size_t warm = 0;
    for (const auto& l : b.loads()) {
        loads.push_back({{"page", l.name}, {"iteration", l.iteration}, {"load_s", l.load_s}});
        warm += l.iteration > 0 ? 1 : 0;
    }
    const double latency_s = b.mean_latency_s();
    return {{"pages", t.size()},
            {"warm_pages", warm},
            {"page_load_s",
             {{"total", total},
              {"mean", t.empty() ? json(nullptr) : json(total / static_cast<double>(t.size()))},
              {"p50", pct(50)},
              {"p95", pct(95)},
              {"max", pct(100)}}},
            {"mean_latency_ms", latency_s > 0 ? json(latency_s * 1e3) : json(nullptr)},
            {"score", latency_s > 0 ? json(1.0 / latency_s) : json(nullptr)},
            {"scroll_steps", b.scroll_steps()},
            {"done_s", b.done_ns() ? json(static_cast<double>(b.done_ns()) * 1e-9) : json(nullptr)},
            {"loads", loads}};
}

json rtapp_json(const workloads::rtapp& r)
{
    auto dist = [](const std::vector<double>& v) -> json {
        if (v.empty())
            return {{"p50", nullptr}, {"p95", nullptr}, {"max", nullptr}};
        return {{"p50", workloads::percentile(v, 50)},
                {"p95", workloads::percentile(v, 95)},
                {"max", workloads::percentile(v, 100)}};
    };
    json threads = json::object();
    for (const workloads::rtapp_thread_stats& t : r.stats())
        threads[t.name] = {{"loops", t.loops},
                           {"timer_activations", t.slack_us.size()},
                           {"late_activations", std::count_if(t.lateness_us.begin(), t.lateness_us.end(),
                                                              [](double l) { return l > 0; })},
                           {"slack_us", dist(t.slack_us)},
                           {"lateness_us", dist(t.lateness_us)}};
    return threads;
}

json audio_json(const workloads::audio& a)
{
    return {{"frames", a.frames()},
            {"deadline_misses", a.deadline_misses()},
            {"max_lateness_ms", a.max_lateness_ms()},
            {"decoder", {{"frames", a.frames(0)}, {"deadline_misses", a.deadline_misses(0)}}},
            {"mixer", {{"frames", a.frames(1)}, {"deadline_misses", a.deadline_misses(1)}}}};
}

// The workloads' own measures of performance (docs/results.md, "perf").
json perf_json(const workloads::workload& w)
{
    json perf = json::object();
    if (const auto* b = workloads::find_part<workloads::bbench>(w))
        perf["bbench"] = bbench_json(*b);
    if (const auto* r = workloads::find_part<workloads::rtapp>(w))
        perf["rtapp"] = rtapp_json(*r);
    if (const auto* a = workloads::find_part<workloads::audio>(w))
        perf["audio"] = audio_json(*a);
    return perf;
}

json sched_json(const bls_kernel& k)
{
    const bls_sched_stats& ss = k.sched.stats;
    return {{"context_switches", ss.context_switches},
            {"migrations", ss.migrations},
            {"wakeups", ss.wakeups},
            {"load_balance_moves", ss.load_balance_moves},
            {"timer_irqs", k.stats.timer_irqs}};
}

// Tasks moved between the clusters (HMP, EAS): up to the big cluster or down, and from the
// decision to move each to it running there.
json migrations_json(const os_probe& os)
{
    return {{"count", os.migrations()},
            {"up", os.migrations_up()},
            {"down", os.migrations_down()},
            {"latency_us", distribution(os.migration_latency())}};
}

// --- governor, idle ----------------------------------------------------------------------------

// The cpufreq statistics of each policy as it stands at the end (time_in_state since the
// policies were last made: the switcher turned on or off remakes them).
json policy_json(const bls_policy& pol, std::uint64_t end_ns)
{
    json cpus = json::array();
    for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
        if (pol.cpus >> c & 1u)
            cpus.push_back(c);
    json tis = json::object();
    for (unsigned f = 0; f < pol.nfreqs; f++)
        tis[std::to_string(pol.freq_mhz[f])] = static_cast<double>(bls_policy_time_in_state_ns(&pol, f, end_ns)) * 1e-9;
    return {{"cpus", cpus}, {"cur_mhz", pol.cur_mhz}, {"freq_changes", pol.freq_changes}, {"time_in_state_s", tis}};
}

json governor_json(platform& p, std::uint64_t end_ns)
{
    const bls_kernel& k = p.kernel();
    json policies = json::array();
    for (unsigned i = 0; i < k.gov.npolicies; i++)
        policies.push_back(policy_json(k.gov.policy[i], end_ns));
    return {{"name", p.config().governor.name},
            {"samples", k.gov.stats.samples},
            {"requests", k.gov.stats.requests},
            {"freq_changes", p.os().freq_changes()},
            {"requests_refused", k.stats.freq_requests_refused},
            {"policies", policies}};
}

json idle_json(platform& p, std::uint64_t end_ns)
{
    const bls_kernel& k = p.kernel();
    json idle = json::object();
    for (unsigned cpu = 0; cpu < p.ncpus(); cpu++) {
        const unsigned cl = p.power().cluster_of(cpu);
        const std::vector<model::idle_state_params>& states = p.config().soc.clusters[cl].idle_states;
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
    return idle;
}

// --- the hardware: gic, cci, power_controller, dram, caches ------------------------------------

json gic_json(const model::gic400& gic)
{
    return {{"irqs_raised", gic.irqs_raised()},
            {"irqs_delivered", gic.irqs_delivered()},
            {"spurious", gic.spurious_reads()},
            {"guest_errors", gic.guest_errors()}};
}

json cci_json(platform& p)
{
    const model::cci& cci = p.cci();
    return {{"snoops", cci.snoops()},
            {"snoop_hits", cci.snoop_hits()},
            {"bytes", cci.bytes()},
            {"guest_errors", cci.guest_errors()},
            {"port_timeouts", p.cci_timeouts()}};
}

json power_controller_json(model::power_controller& pc)
{
    return {{"dvfs_requests", pc.dvfs_requests()}, {"guest_errors", pc.guest_errors()}};
}

json dram_json(const model::dram& mem)
{
    return {{"bytes", mem.bytes()}, {"transactions", mem.transactions()}, {"avg_latency_ns", mem.avg_latency_ns()}};
}

json caches_json(platform& p)
{
    json caches = json::object();
    for (unsigned c = 0; c < p.nclusters(); c++) {
        model::cluster& cl = p.cluster_at(c);
        caches[p.config().soc.clusters[c].name] = {{"l2_hit_lines", cl.l2_hits()},
                                                   {"fetched_lines", cl.fetched()},
                                                   {"written_back_lines", cl.written_back()}};
    }
    return caches;
}

// --- switches, cluster_migration, interrupts ---------------------------------------------------

json switches_json(platform& p)
{
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
    return sw;
}

// Cluster migration: the switches of one group move every logical CPU together; the
// group's blackout runs from its first CPU's blackout start to its last CPU's end.
json cluster_migration_json(const switch_probe& probe)
{
    return {{"groups", probe.groups()}, {"blackout_us", distribution(probe.group_blackout())}};
}

json interrupts_json(const switch_probe& probe)
{
    return {{"handled", probe.irqs_handled()},
            {"merged", probe.irqs_merged()},
            {"latency_us", distribution(probe.irq_latency())}};
}

// --- jitter, faults ----------------------------------------------------------------------------

// Timing jitter, when it is on: the latencies each class perturbed (docs/hardware.md).
json jitter_json(const model::jitter_source& jitter)
{
    json draws = json::object();
    std::uint64_t total = 0;
    for (model::jitter_class c : model::all_jitter_classes) {
        draws[model::to_string(c)] = jitter.draws(c);
        total += jitter.draws(c);
    }
    return {{"enabled", true}, {"draws_total", total}, {"draws", draws}};
}

// What the C code did about each kind of fault (docs/switcher.md, "Faults"); a spurious
// interrupt it reads as IAR 1023 and ignores, as Linux does, so it has no count. A lost
// wake-up that was not a switch's kick (a reschedule IPI to a CPU powered down) is noticed
// at that CPU's next wake-up and counted nowhere else.
std::map<model::fault_kind, json> faults_handled(platform& p)
{
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
    return handled;
}

// Injected faults, when any is configured: an object per configured kind, so that what
// the software made of them can stand beside what was injected (docs/results.md).
json faults_json(platform& p)
{
    std::map<model::fault_kind, json> handled = faults_handled(p);
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
    const bls_kernel& kn = p.kernel();
    faults["switches_given_up"] = kn.sw.stats.aborted;
    // Transactions that failed, and switches given up: the governor saw both fail.
    faults["governor_failed_transitions"] = kn.gov.stats.failed_transitions;
    return faults;
}

// --- files, host -------------------------------------------------------------------------------

// The set this summary completes: it is written last (docs/results.md).
json files_json(const std::vector<std::string>& extra_files)
{
    std::vector<std::string> files = {"effective-config.yaml", "switches.csv"};
    for (const std::string& f : extra_files)
        if (std::find(files.begin(), files.end(), f) == files.end())
            files.push_back(f);
    std::sort(files.begin(), files.end());
    return files;
}

json host_json(platform& p, const host_stats& host, double sim_s)
{
    json h;
    h["wall_s"] = host.wall_s;
    h["realtime_factor"] = host.wall_s > 0 ? sim_s / host.wall_s : 0.0;
    h["events"] = host.events;
    h["peak_rss_mb"] = host.peak_rss_mb;
    h["distribution_bytes"] = p.probe().distribution_bytes() + p.os().distribution_bytes();
    return h;
}

} // namespace

std::string summary_json(platform& p, const host_stats& host, const std::vector<std::string>& extra_files)
{
    const scenario_config& cfg = p.config();
    const double sim_s = sc_core::sc_time_stamp().value() / 1e12;
    const std::uint64_t end_ns = sc_core::sc_time_stamp().value() / 1000;

    json j;
    j["schema_version"] = summary_schema_version;
    j["scenario"] = cfg.name;
    j["seed"] = cfg.seed;
    j["sim_time_s"] = sim_s;
    j["mode"] = cfg.mode;
    j["energy_j"] = energy_json(p);
    j["avg_power_mw"] = sim_s > 0 ? p.meter().total_energy_j() / sim_s * 1e3 : 0.0;
    if (p.os().mode_intervals().size() > 1)
        j["mode_intervals"] = mode_intervals_json(p);
    j["residency_s"] = residency_json(p);
    j["tasks"] = tasks_json(p);
    j["perf"] = perf_json(p.workload());
    j["sched"] = sched_json(p.kernel());
    if (p.os().migrations() > 0 || runs_in(cfg, "hmp") || runs_in(cfg, "eas"))
        j["migrations"] = migrations_json(p.os());
    j["governor"] = governor_json(p, end_ns);
    j["idle"] = idle_json(p, end_ns);
    j["workload_errors"] = p.kernel().stats.workload_errors;
    j["gic"] = gic_json(p.gic());
    j["cci"] = cci_json(p);
    j["power_controller"] = power_controller_json(p.power());
    j["dram"] = dram_json(p.memory());
    j["caches"] = caches_json(p);
    j["switches"] = switches_json(p);
    if (runs_in(cfg, "cluster-migration") || p.probe().groups() > 0)
        j["cluster_migration"] = cluster_migration_json(p.probe());
    j["interrupts"] = interrupts_json(p.probe());
    if (p.jitter().enabled())
        j["jitter"] = jitter_json(p.jitter());
    if (p.faults().any())
        j["faults"] = faults_json(p);
    j["files"] = files_json(extra_files);
    j["host"] = host_json(p, host, sim_s);
    return j.dump(2) + "\n";
}

} // namespace blsim::soc
