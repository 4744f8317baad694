// soc/platform/src/wire_observers.cpp -- the platform's observers: the energy meter and the
// probes, which every run has, and the timelines a run records when asked (enable_traces).
#include "blsim/soc/platform.h"

#include <fstream>

#include "blsim/model/invariant.h"

namespace blsim::soc {

using model::now_ps;

namespace {

// The names the trace writers give tasks, clusters and idle states, and where the CPUs are.
trace_context make_trace_context(const workloads::workload& workload, const model::soc_params& soc,
                                 const model::power_controller& pc)
{
    trace_context ctx;
    for (unsigned t = 0; t < workload.ntasks(); t++) {
        const workloads::task_info ti = workload.info(t);
        ctx.task_names.push_back(ti.name);
        // ftrace's prio: 120 + nice, 99 - the real-time priority, -1 for a deadline task.
        ctx.task_prio.push_back(ti.policy == workloads::task_info::normal     ? 120 + ti.nice
                                : ti.policy == workloads::task_info::deadline ? -1
                                                                              : 99 - ti.rt_priority);
    }
    for (const model::cluster_params& cl : soc.clusters) {
        ctx.cluster_names.push_back(cl.name);
        std::vector<std::string> states;
        for (const model::idle_state_params& st : cl.idle_states)
            states.push_back(st.name);
        ctx.idle_state_names.push_back(states);
    }
    for (unsigned cpu = 0; cpu < pc.ncpus(); cpu++)
        ctx.cpu_cluster.push_back(pc.cluster_of(cpu));
    return ctx;
}

} // namespace

void platform::wire_observers()
{
    // The energy meter hears every power-state, frequency and voltage change; power loss
    // takes the caches' contents, which software must have cleaned; the switch probe hears
    // the cores come and go.
    const unsigned ncpus = this->ncpus();
    power_model_ = model::make_power_model(cfg_.soc.energy);
    meter_ = std::make_unique<model::energy_meter>(cfg_.soc, *power_model_);
    probe_ = std::make_unique<switch_probe>(ncpus, *meter_, [this](std::uint64_t t) { meter_->advance_all(t); });
    switch_software sw;
    sw.cycles = cfg_.switcher.costs_cycles.total();
    sw.uncached_words = static_cast<std::uint64_t>(cfg_.switcher.restore_uncached_words);
    probe_->set_hang_bound(switch_hang_bound_ps(cfg_.soc, cfg_.jitter, cfg_.faults, sw));
    pc_->core_changed.subscribe([this](unsigned cpu, model::core_power, model::core_power s) {
        meter_->core_state(now_ps(), cpu, s);
        if (s == model::core_power::off) {
            // (The name is built only for the report: this runs at every power-down.)
            if (const std::uint64_t lost = cluster_of_cpu(cpu).core_powered_off(core_index(cpu)))
                power_loss(lost, "cpu" + std::to_string(cpu));
            probe_->core_off(now_ps(), cpu, pc_->cluster_of(cpu));
        } else if (s == model::core_power::on) {
            probe_->core_on(now_ps(), cpu, pc_->cluster_of(cpu));
        }
    });
    pc_->cluster_changed.subscribe(
        [this](unsigned cl, model::cluster_power, model::cluster_power s) {
            meter_->cluster_state(now_ps(), cl, s);
            if (s == model::cluster_power::off)
                if (const std::uint64_t lost = clusters_[cl]->cluster_powered_off())
                    power_loss(lost, "cluster " + cfg_.soc.clusters[cl].name);
            probe_->cluster_changed(now_ps(), cl, s);
        });
    for (std::size_t i = 0; i < clusters_.size(); i++) {
        const unsigned cl = static_cast<unsigned>(i);
        clusters_[i]->clock().changed.subscribe(
            [this, cl](int, int mhz) { meter_->frequency(now_ps(), cl, mhz); });
        clusters_[i]->voltage().changed.subscribe(
            [this, cl](int, int mv) { meter_->voltage(now_ps(), cl, mv); });
    }

    // The OS probe: the tasks' and modes' shares of the run, by cluster.
    std::vector<unsigned> cpu_cluster;
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        cpu_cluster.push_back(pc_->cluster_of(cpu));
    std::vector<double> cluster_speed;
    for (const model::cluster_params& cp : cfg_.soc.clusters)
        cluster_speed.push_back(static_cast<double>(cp.capacity_dmips_mhz) * cp.opps.back().freq_mhz);
    os_probe_ = std::make_unique<os_probe>(workload_->ntasks(), std::move(cpu_cluster), std::move(cluster_speed),
                                           kernel_mode_of(cfg_.mode), *meter_,
                                           [this](std::uint64_t t) { meter_->advance_all(t); });
}

void platform::enable_traces(bool perfetto, bool ftrace, const std::string& vcd_path)
{
    trace_perfetto_ = perfetto;
    trace_ftrace_ = ftrace;
    if (perfetto || ftrace)
        record_trace();
    if (!vcd_path.empty())
        record_vcd(vcd_path);
}

void platform::record_trace()
{
    trace_ = std::make_unique<trace_recorder>(make_trace_context(*workload_, cfg_.soc, *pc_));
    // The state at time zero, then every change (after the meter has heard it: the power
    // counters read it).
    for (unsigned cpu = 0; cpu < ncpus(); cpu++)
        trace_->core_power(0, cpu, pc_->core_state(cpu));
    for (unsigned cl = 0; cl < clusters_.size(); cl++) {
        trace_->cluster_power(0, cl, pc_->cluster_state(cl));
        trace_->cluster_counter(0, cl, trace_recorder::counter::freq_mhz, clusters_[cl]->clock().freq_mhz());
        trace_->cluster_counter(0, cl, trace_recorder::counter::voltage_mv, clusters_[cl]->voltage().voltage_mv());
    }
    auto power = [this](unsigned cl) {
        trace_->cluster_counter(now_ps(), cl, trace_recorder::counter::power_mw, meter_->cluster_power_mw(cl));
        trace_->cluster_counter(now_ps(), cl, trace_recorder::counter::energy_j, meter_->cluster_energy_j(cl));
    };
    pc_->core_changed.subscribe([this, power](unsigned cpu, model::core_power, model::core_power s) {
        trace_->core_power(now_ps(), cpu, s);
        power(pc_->cluster_of(cpu));
    });
    pc_->cluster_changed.subscribe([this, power](unsigned cl, model::cluster_power, model::cluster_power s) {
        trace_->cluster_power(now_ps(), cl, s);
        power(cl);
    });
    for (unsigned cl = 0; cl < clusters_.size(); cl++) {
        clusters_[cl]->clock().changed.subscribe([this, cl, power](int, int mhz) {
            trace_->cluster_counter(now_ps(), cl, trace_recorder::counter::freq_mhz, mhz);
            power(cl);
        });
        clusters_[cl]->voltage().changed.subscribe([this, cl, power](int, int mv) {
            trace_->cluster_counter(now_ps(), cl, trace_recorder::counter::voltage_mv, mv);
            power(cl);
        });
    }
}

void platform::record_vcd(const std::string& vcd_path)
{
    // The GIC's lines as it writes them, the power states as integers (enum
    // model::core_power / cluster_power) and the clocks in MHz, each from the value it has
    // now (docs/traces.md gives them); recorded by listening only, written at the end.
    vcd_path_ = vcd_path;
    vcd_ = std::make_unique<vcd_recorder>();
    std::vector<unsigned> irq, wake, core, cluster, freq;
    for (unsigned cpu = 0; cpu < ncpus(); cpu++) {
        const std::string n = "cpu" + std::to_string(cpu);
        irq.push_back(vcd_->add(n + "_irq", 1, irq_lines_[cpu].read()));
        wake.push_back(vcd_->add(n + "_wake", 1, wake_lines_[cpu].read()));
        core.push_back(vcd_->add(n + "_power", 32, static_cast<unsigned>(pc_->core_state(cpu))));
    }
    for (unsigned cl = 0; cl < clusters_.size(); cl++) {
        const std::string& n = cfg_.soc.clusters[cl].name;
        cluster.push_back(vcd_->add(n + "_power", 32, static_cast<unsigned>(pc_->cluster_state(cl))));
        freq.push_back(vcd_->add(n + "_freq_mhz", 32, static_cast<std::uint64_t>(clusters_[cl]->clock().freq_mhz())));
        clusters_[cl]->clock().changed.subscribe(
            [this, s = freq[cl]](int, int mhz) { vcd_->change(now_ps(), s, static_cast<std::uint64_t>(mhz)); });
    }
    gic_->line_written.subscribe([this, irq, wake](unsigned cpu, bool is_wake, bool level) {
        vcd_->change(now_ps(), is_wake ? wake.at(cpu) : irq.at(cpu), level);
    });
    pc_->core_changed.subscribe([this, core](unsigned cpu, model::core_power, model::core_power s) {
        vcd_->change(now_ps(), core.at(cpu), static_cast<unsigned>(s));
    });
    pc_->cluster_changed.subscribe([this, cluster](unsigned cl, model::cluster_power, model::cluster_power s) {
        vcd_->change(now_ps(), cluster.at(cl), static_cast<unsigned>(s));
    });
}

void platform::close_vcd()
{
    if (!vcd_)
        return;
    std::ofstream out(vcd_path_ + ".vcd", std::ios::binary | std::ios::trunc);
    out << vcd_->text();
    vcd_.reset();
}

} // namespace blsim::soc
