// soc/platform/src/platform.cpp
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "blsim/soc/platform.h"

#include "blsim/model/invariant.h"
#include "blsim/workloads/audio.h"
#include "blsim/workloads/bbench.h"
#include "blsim/workloads/composite.h"
#include "blsim/workloads/rtapp.h"

#include <cassert>
#include <cstdio>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace blsim::soc {

// The scenario's workload: its kind, and the music beside it. Each part gets its own range
// of kernel events.
std::unique_ptr<workloads::workload> make_workload(const scenario_config& c)
{
    auto all = std::make_unique<workloads::composite>();
    const workload_config& w = c.workload;
    unsigned event_base = 0;
    if (w.kind == "constant" || w.kind == "replay") {
        all->add(std::make_unique<workloads::constant_taskset>(w.kind == "replay" ? w.replay_tasks : w.tasks));
    } else if (w.kind == "rtapp") {
        workloads::rtapp_params p = w.rtapp_params;
        // The reference CPU's top clock, by which mem's store cycles become reference work.
        double best = 0;
        for (const model::cluster_params& cl : c.soc.clusters)
            if (cl.capacity_dmips_mhz * cl.opps.back().freq_mhz > best) {
                best = static_cast<double>(cl.capacity_dmips_mhz) * cl.opps.back().freq_mhz;
                p.ref_mhz = cl.opps.back().freq_mhz;
            }
        p.io_bytes_per_ns = w.rtapp_io.bandwidth_mb_s * 1e6 / 1e9;
        p.io_latency_ns = w.rtapp_io.latency_us * 1e3;
        auto r = std::make_unique<workloads::rtapp>(p, event_base);
        event_base += r->nevents();
        all->add(std::move(r));
    } else if (w.kind == "bbench") {
        all->add(std::make_unique<workloads::bbench>(w.bbench, static_cast<std::uint64_t>(c.seed), event_base));
        event_base += workloads::bbench::nevents;
    }
    if (w.kind == "audio" || w.audio.enabled)
        all->add(std::make_unique<workloads::audio>(w.audio));
    return all;
}

namespace {

std::uint64_t now_ps()
{
    return sc_core::sc_time_stamp().value();
}

double reference_capacity(const model::soc_params& soc)
{
    double best = 0;
    for (const model::cluster_params& c : soc.clusters)
        best = std::max(best, static_cast<double>(c.capacity_dmips_mhz) * c.opps.back().freq_mhz);
    return best;
}

} // namespace

platform::platform(const scenario_config& cfg, unsigned mutant) : cfg_(cfg)
{
    // Every time in the model is an integer number of picoseconds.
    if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
        throw internal_error("blsim needs SystemC's default 1 ps time resolution");

    const model::soc_params& soc = cfg_.soc;
    pc_ = std::make_unique<model::power_controller>("power_controller", soc);
    const double ref = reference_capacity(soc);
    unsigned first_cpu = 0;
    std::vector<unsigned> cci_ports;
    for (std::size_t i = 0; i < soc.clusters.size(); i++) {
        const model::cluster_params& cp = soc.clusters[i];
        clusters_.push_back(std::make_unique<model::cluster>(
            cp.name.c_str(), static_cast<unsigned>(i), cp, first_cpu, *pc_, ref));
        for (unsigned k = 0; k < clusters_.back()->ncores(); k++)
            cores_.push_back(&clusters_.back()->core_at(k));
        first_cpu_.push_back(first_cpu);
        first_cpu += static_cast<unsigned>(cp.cores);
        cci_ports.push_back(static_cast<unsigned>(cp.cci_port));
    }
    const unsigned ncpus = first_cpu;

    // The system: interrupt controller, interconnect, memory, and the bus CPUs reach
    // device registers through.
    gic_clock_ = std::make_unique<model::clock_domain>("gic.clock", soc.gic.clock_mhz);
    gic_ = std::make_unique<model::gic400>("gic", ncpus, soc.gic, *gic_clock_);
    cci_ = std::make_unique<model::cci>("cci", soc.cci, cci_ports);
    dram_ = std::make_unique<model::dram>("dram", soc.dram);
    bus_ = std::make_unique<model::router>("bus");
    irq_lines_.init(ncpus);
    wake_lines_.init(ncpus);
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        cores_[cpu]->bus.bind(bus_->in);
        cores_[cpu]->irq.bind(irq_lines_[cpu]);
        cores_[cpu]->wake.bind(wake_lines_[cpu]);
        gic_->irq[cpu].bind(irq_lines_[cpu]);
        gic_->wake[cpu].bind(wake_lines_[cpu]);
    }
    bus_->out.bind(gic_->dist_socket);
    bus_->map(static_cast<std::uint64_t>(soc.gic.dist_base), 0x1000, 0);
    bus_->out.bind(gic_->cpu_socket);
    bus_->map(static_cast<std::uint64_t>(soc.gic.cpu_base), 0x2000, 1);
    bus_->out.bind(cci_->regs);
    bus_->map(static_cast<std::uint64_t>(soc.cci.base), 0x10000, 2);
    sram_ = std::make_unique<model::sram>("sram", soc.sram);
    bus_->out.bind(sram_->socket);
    bus_->map(static_cast<std::uint64_t>(soc.sram.base), sram_->size(), 3);
    // The power controller: its registers on the bus, its completion interrupt a level line
    // into the GIC, the clusters' DVFS controllers behind its performance requests.
    bus_->out.bind(pc_->regs);
    bus_->map(static_cast<std::uint64_t>(soc.spc.base), model::power_controller::window_bytes, 4);
    pc_->connect_irq([this](bool level) { gic_->set_spi_level(static_cast<unsigned>(cfg_.soc.spc.irq), level); });
    for (std::size_t i = 0; i < clusters_.size(); i++)
        pc_->attach_dvfs(static_cast<unsigned>(i), clusters_[i]->dvfs());
    for (std::size_t i = 0; i < clusters_.size(); i++) {
        clusters_[i]->ace.bind(cci_->slave[i]);
        cci_->attach(static_cast<unsigned>(i), *clusters_[i], soc.clusters[i].name);
    }
    cci_->master.bind(dram_->socket);

    // Timing jitter: each block draws from streams of its own, named after it (docs/hardware.md,
    // "Timing jitter"); off, nothing draws and every latency is nominal.
    jitter_ = std::make_unique<model::jitter_source>(cfg_.jitter, static_cast<std::uint64_t>(cfg_.seed));
    if (jitter_->enabled()) {
        pc_->set_jitter(*jitter_);
        for (auto& cl : clusters_)
            cl->set_jitter(*jitter_);
        gic_->set_jitter(*jitter_);
        cci_->set_jitter(*jitter_);
        dram_->set_jitter(*jitter_);
    }
    // Injected faults, from streams of their own (independent of the jitter's): with none
    // configured no block is told, and nothing draws.
    faults_ = std::make_unique<model::fault_source>(cfg_.faults, static_cast<std::uint64_t>(cfg_.seed));
    if (faults_->any()) {
        pc_->set_faults(*faults_);
        cci_->set_faults(*faults_);
        gic_->set_faults(*faults_, [this](unsigned cpu) { return pc_->core_state(cpu) == model::core_power::off; });
    }

    // Observers: the energy meter hears every power-state, frequency and voltage change;
    // power loss takes the caches' contents, which software must have cleaned; the switch
    // probe hears the cores come and go.
    power_model_ = model::make_power_model(soc.energy);
    meter_ = std::make_unique<model::energy_meter>(soc, *power_model_);
    probe_ = std::make_unique<switch_probe>(ncpus, *meter_, [this](std::uint64_t t) { meter_->advance_all(t); });
    probe_->set_hang_bound(switch_hang_bound_ps(cfg_.soc, cfg_.jitter, cfg_.faults));
    pc_->core_changed.subscribe([this](unsigned cpu, model::core_power, model::core_power s) {
        meter_->core_state(now_ps(), cpu, s);
        if (s == model::core_power::off) {
            check_power_loss(cluster_of_cpu(cpu).core_powered_off(core_index(cpu)), "cpu" + std::to_string(cpu));
            probe_->core_off(now_ps(), cpu, pc_->cluster_of(cpu));
        } else if (s == model::core_power::on) {
            probe_->core_on(now_ps(), cpu, pc_->cluster_of(cpu));
        }
    });
    pc_->cluster_changed.subscribe(
        [this](unsigned cl, model::cluster_power, model::cluster_power s) {
            meter_->cluster_state(now_ps(), cl, s);
            if (s == model::cluster_power::off)
                check_power_loss(clusters_[cl]->cluster_powered_off(), "cluster " + cfg_.soc.clusters[cl].name);
            probe_->cluster_changed(now_ps(), cl, s);
        });
    for (std::size_t i = 0; i < clusters_.size(); i++) {
        const unsigned cl = static_cast<unsigned>(i);
        clusters_[i]->clock().changed.subscribe(
            [this, cl](int, int mhz) { meter_->frequency(now_ps(), cl, mhz); });
        clusters_[i]->voltage().changed.subscribe(
            [this, cl](int, int mv) { meter_->voltage(now_ps(), cl, mv); });
    }

    // The per-CPU timers: each drives its CPU's timer PPI, level-sensitive.
    timer_ = std::make_unique<model::generic_timer>(
        "timer", ncpus, [this](unsigned cpu, bool level) { gic_->set_ppi_level(cpu, timer_ppi, level); });

    // The software: one C kernel shared by every core; its tasks' behaviour is the workload's.
    workload_ = make_workload(cfg_);
    live_governor_ = cfg_.governor;
    std::vector<unsigned> cpu_cluster;
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        cpu_cluster.push_back(pc_->cluster_of(cpu));
    std::vector<double> cluster_speed;
    for (const model::cluster_params& cp : soc.clusters)
        cluster_speed.push_back(static_cast<double>(cp.capacity_dmips_mhz) * cp.opps.back().freq_mhz);
    os_probe_ = std::make_unique<os_probe>(workload_->ntasks(), std::move(cpu_cluster), std::move(cluster_speed),
                                           kernel_mode_of(cfg_.mode), *meter_,
                                           [this](std::uint64_t t) { meter_->advance_all(t); });
    bls_kernel_config kc = kernel_config(ncpus);
    kc.hw.mutant = mutant;
    static const bls_workload_ops workload_ops = {
        .next = [](void* wl, unsigned task, uint64_t now_ns, bls_step* out) -> int {
            const workloads::step st = static_cast<workloads::workload*>(wl)->next(task, now_ns);
            *out = bls_step{};
            switch (st.kind) {
            case workloads::step::run: out->kind = BLS_STEP_RUN; break;
            case workloads::step::sleep_until: out->kind = BLS_STEP_SLEEP; break;
            case workloads::step::block: out->kind = BLS_STEP_BLOCK; break;
            case workloads::step::signal: out->kind = BLS_STEP_SIGNAL; break;
            case workloads::step::broadcast: out->kind = BLS_STEP_BROADCAST; break;
            case workloads::step::exit: out->kind = BLS_STEP_EXIT; break;
            case workloads::step::spin_until: out->kind = BLS_STEP_SPIN; break;
            case workloads::step::affinity: out->kind = BLS_STEP_AFFINITY; break;
            case workloads::step::yield: out->kind = BLS_STEP_YIELD; break;
            case workloads::step::fork: out->kind = BLS_STEP_FORK; break;
            case workloads::step::move_group: out->kind = BLS_STEP_GROUP; break;
            }
            out->task = st.task;
            out->group = st.group;
            out->affinity = st.cpus;
            out->ref_ns = st.ref_ns;
            out->mem_fraction = st.mem_fraction;
            out->working_set_kb = static_cast<uint32_t>(st.working_set_kb);
            out->write_fraction = st.write_fraction;
            out->until_ns = st.until_ns;
            out->io = st.io;
            out->event = st.event;
            return 0;
        },
    };
    int rc = bls_kernel_init(&kernel_, &kc, &systemc_platform_ops(), this, &workload_ops, workload_.get());
    if (rc != 0)
        throw internal_error("bls_kernel_init refused a validated configuration: " +
                               std::to_string(rc));
    for (model::core* c : cores_) {
        const unsigned cpu = c->cpu();
        c->set_software([this, cpu] { bls_kernel_cpu_main(&kernel_, cpu); });
    }
    executing_.assign(ncpus, -1);

    // The scenario's userspace writes: scaling_setspeed, each to its logical CPU with that
    // CPU's doorbell rung; the governor's tunables, the switcher on or off and the mode, rung
    // on the first online logical CPU's.
    for (const freq_request& r : cfg_.governor.setspeed)
        script_.push_back({r.at_ms, static_cast<int>(r.cpu), static_cast<unsigned>(r.freq_mhz)});
    for (const activity_change& a : cfg_.switcher.activity)
        script_.push_back({a.at_ms, a.active ? -1 : -2, 0});
    for (const mode_change& m : cfg_.mode_changes)
        script_.push_back({m.at_ms, -4, kernel_mode_of(m.mode)});
    for (std::size_t i = 0; i < cfg_.governor.writes.size(); i++)
        script_.push_back({cfg_.governor.writes[i].at_ms, -3, static_cast<unsigned>(i)});
    std::stable_sort(script_.begin(), script_.end(),
                     [](const script_entry& a, const script_entry& b) { return a.at_ms < b.at_ms; });
    if (!script_.empty()) {
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.set_sensitivity(&timeline_event_);
        opts.dont_initialize();
        sc_core::sc_spawn([this] { timeline_step(); }, "timeline", &opts);
        timeline_event_.notify(sc_core::sc_time(script_.front().at_ms, sc_core::SC_MS));
    }
}

void platform::raise(unsigned logical, unsigned irq)
{
    // An edge raised while the interrupt is still pending merges into it, as on the GIC: one
    // delivery for both (the mailbox then holds the later request).
    if (gic_->spi_pending(irq))
        probe_->irq_merged();
    else
        probe_->irq_raised(now_ps(), logical, irq);
    gic_->raise_spi(irq);
}

void platform::timeline_step()
{
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (timeline_next_ < script_.size() &&
           sc_core::sc_time(script_[timeline_next_].at_ms, sc_core::SC_MS) <= now) {
        const script_entry& e = script_[timeline_next_++];
        unsigned l = kernel_.lead; // sysfs writes land on the first online CPU
        if (e.cpu >= 0) {
            l = static_cast<unsigned>(e.cpu);
            bls_kernel_post_frequency(&kernel_, l, e.mhz);
        } else if (e.cpu == -3) {
            const tunable_write& w = cfg_.governor.writes.at(e.mhz);
            cfg::diagnostics diag;
            if (!apply_tunable_write(live_governor_, w, {}, diag))
                throw internal_error("a validated tunable write was refused: " + diag.first_text());
            const bls_governor_tunables t = governor_tunables(live_governor_);
            bls_kernel_post_tunables(&kernel_, &t, w.tunable == "boostpulse");
        } else if (e.cpu == -4) {
            const int rc = bls_kernel_post_mode(&kernel_, static_cast<bls_mode>(e.mhz));
            if (rc != 0)
                throw internal_error(std::string("the kernel refused a validated mode change to ") +
                                     (mode_name(e.mhz) ? mode_name(e.mhz) : "?") + ": " + std::to_string(rc));
        } else {
            bls_kernel_post_switcher_active(&kernel_, e.cpu == -1);
        }
        raise(l, BLS_IRQ_DOORBELL(l));
    }
    if (timeline_next_ < script_.size())
        timeline_event_.notify(sc_core::sc_time(script_[timeline_next_].at_ms, sc_core::SC_MS) - now);
}

void platform::check_executing(unsigned cpu, bool starting)
{
    // At most one CPU of a pair runs the logical CPU's work: the one hosting it.
    const int l = bls_switcher_logical_of(&kernel_.sw, cpu);
    if (l < 0 || (starting && executing_.at(static_cast<unsigned>(l)) >= 0))
        model::invariant_failed("pair-exclusive", now_ps(), "cpu" + std::to_string(cpu),
                                "it runs work of logical cpu" + std::to_string(l) + " while " +
                                    (l < 0 ? std::string("hosting none")
                                           : "cpu" + std::to_string(executing_.at(static_cast<unsigned>(l))) +
                                                 " does"));
    executing_.at(static_cast<unsigned>(l)) = starting ? static_cast<int>(cpu) : -1;
}

void platform::check_power_loss(std::uint64_t dirty_lines, const std::string& what)
{
    // Software must clean caches before their power goes: losing dirty data is a bug of the
    // C code running on the model, so the run stops.
    if (dirty_lines > 0)
        model::invariant_failed("no-dirty-line-lost", now_ps(), what,
                                "powered off with " + std::to_string(dirty_lines) +
                                    " dirty cache lines: they had to be cleaned first");
}

void platform::guest_error(unsigned cpu, unsigned code, unsigned detail)
{
    if (code == BLS_GUEST_CCI_TIMEOUT) {
        cci_timeouts_++;
        const std::string msg = "cpu" + std::to_string(cpu) + ": the CCI's port S" + std::to_string(detail) +
                                " still changing after " + std::to_string(BLS_CCI_TIMEOUT_NS / 1000) +
                                " us: the driver gave up on it (a guest error)";
        SC_REPORT_WARNING("blsim/guest", msg.c_str());
    } else if (code == BLS_GUEST_CCI_RETRY) {
        cci_retries_++; // the driver asks again: handled, counted in results' faults
    } else if (code == BLS_GUEST_POWER_UP_FAILED) {
        power_up_failures_++; // the kernel retries it or gives its switch up
    } else if (code == BLS_GUEST_WORKLOAD) {
        const std::string name = detail < workload_->ntasks() ? workload_->info(detail).name : std::to_string(detail);
        const std::string msg = "cpu" + std::to_string(cpu) + ": task '" + name +
                                "' got no usable step from its workload: the kernel ended it (a guest error)";
        SC_REPORT_WARNING("blsim/guest", msg.c_str());
    }
}

// A run that ends in an error writes no VCD (close_vcd writes it).
platform::~platform() = default;

void platform::close_vcd()
{
    if (!vcd_)
        return;
    std::ofstream out(vcd_path_ + ".vcd", std::ios::binary | std::ios::trunc);
    out << vcd_->text();
    vcd_.reset();
}

void platform::enable_traces(bool perfetto, bool ftrace, const std::string& vcd_path)
{
    trace_perfetto_ = perfetto;
    trace_ftrace_ = ftrace;
    if (perfetto || ftrace) {
        trace_context ctx;
        for (unsigned t = 0; t < workload_->ntasks(); t++) {
            const workloads::task_info ti = workload_->info(t);
            ctx.task_names.push_back(ti.name);
            // ftrace's prio: 120 + nice, 99 - the real-time priority, -1 for a deadline task.
            ctx.task_prio.push_back(ti.policy == workloads::task_info::normal     ? 120 + ti.nice
                                    : ti.policy == workloads::task_info::deadline ? -1
                                                                                  : 99 - ti.rt_priority);
        }
        for (const model::cluster_params& cl : cfg_.soc.clusters) {
            ctx.cluster_names.push_back(cl.name);
            std::vector<std::string> states;
            for (const model::idle_state_params& st : cl.idle_states)
                states.push_back(st.name);
            ctx.idle_state_names.push_back(states);
        }
        for (unsigned cpu = 0; cpu < ncpus(); cpu++)
            ctx.cpu_cluster.push_back(pc_->cluster_of(cpu));
        trace_ = std::make_unique<trace_recorder>(std::move(ctx));
        // The state at time zero, then every change (after the meter has heard it: the
        // power counters read it).
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
    if (!vcd_path.empty()) {
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
}

std::vector<policy_limits> platform::policy_limits_now() const
{
    std::vector<policy_limits> policies;
    for (unsigned i = 0; i < kernel_.gov.npolicies; i++) {
        const bls_policy& p = kernel_.gov.policy[i];
        policies.push_back({p.first_cpu, p.freq_mhz[0], p.freq_mhz[p.nfreqs - 1]});
    }
    return policies;
}

std::uint64_t platform::task_runtime_ns(unsigned t) const
{
    const bls_sched& s = kernel_.sched;
    std::uint64_t ns = s.task[t].stats.runtime_ns;
    const bls_rq& rq = s.rq[s.task[t].cpu];
    const std::uint64_t now_ns = now_ps() / 1000;
    if (rq.curr == static_cast<int>(t) && now_ns > rq.curr_accounted_ns)
        ns += now_ns - rq.curr_accounted_ns; // running: the scheduler accounts it at its next call
    return ns;
}

std::vector<std::pair<unsigned, double>> platform::power_ups_failing_at_end() const
{
    std::vector<std::pair<unsigned, double>> out;
    for (unsigned cpu = 0; cpu < pc_->ncpus(); cpu++) {
        sc_core::sc_time since;
        if (pc_->power_up_failing(cpu, since))
            out.emplace_back(cpu, static_cast<double>(since.value()) / 1e12); // ps: 0.992, not 0.99200..01
    }
    return out;
}

void platform::run(const progress_fn& progress)
{
    try {
        const sc_core::sc_time end(cfg_.duration_s, sc_core::SC_SEC);
        if (!progress) {
            sc_core::sc_start(end);
        } else {
            // In slices of simulated time, reporting between them; the slices end where the
            // simulation would be anyway (every event before a slice's end is processed in
            // it, the ones at its end in the next), so the results are the same bytes.
            const sc_core::sc_time slice = std::max(end / 1000.0, sc_core::sc_time(1, sc_core::SC_MS));
            while (sc_core::sc_time_stamp() < end) {
                sc_core::sc_start(std::min(slice, end - sc_core::sc_time_stamp()));
                progress(sc_core::sc_time_stamp().to_seconds(), cfg_.duration_s);
            }
        }
    } catch (const sc_core::sc_report& r) {
        // An invariant violated, or a SystemC error, inside a process: SystemC carries the
        // message out in a report of its own.
        throw internal_error(r.get_msg());
    }
    probe_->finish(now_ps());
    meter_->advance_all(now_ps());
    meter_->check_totals(now_ps());
    // A fault's effect that outlasts the run is the user's to know, not a quiet loss of work.
    for (const auto& [cpu, since_s] : power_ups_failing_at_end()) {
        char since[32];
        std::snprintf(since, sizeof since, "%.6f", since_s);
        const std::string msg = "cpu" + std::to_string(cpu) + ": its power-up failed at " + since +
                                " s (faults.power_up_fail) and the power controller's timeout (" +
                                std::to_string(static_cast<long long>(cfg_.faults.power_up_fail.timeout_us)) +
                                " us) had not run out when the run ended: its timers and queued tasks did not run "
                                "since";
        SC_REPORT_WARNING("blsim/faults", msg.c_str());
    }
    // Work is counted in reference ns, which the fastest CPU at its top OPP does one per ns:
    // no task is credited more than it ran (give or take the quantum a core runs ahead).
    for (unsigned t = 0; t < workload_->ntasks(); t++) {
        const double done = kernel_.task_stats[t].done_ref_ns;
        const double ran = static_cast<double>(task_runtime_ns(t));
        if (done > ran * (1 + 1e-9) + model::core::quantum_ns) {
            char what[160];
            std::snprintf(what, sizeof what, "credited with %.3f reference ms of work in %.3f ms of runtime", done * 1e-6,
                          ran * 1e-6);
            model::invariant_failed("work-within-runtime", now_ps(), "task '" + workload_->info(t).name + "'", what);
        }
    }
    // The run's intervals by mode cover it, and their energies add up to the total.
    os_probe_->finish(now_ps());
    std::vector<std::string> mode_problems = os_probe_->final_check(now_ps(), meter_->total_energy_j());
    if (!mode_problems.empty())
        model::invariant_failed("mode-energy-sum", now_ps(), "the OS probe",
                                mode_problems.front() +
                                    (mode_problems.size() > 1
                                         ? " (and " + std::to_string(mode_problems.size() - 1) + " more)"
                                         : std::string()));
    // No interrupt lost or delivered twice across the run's switches.
    std::vector<std::string> problems = probe_->final_check([this](unsigned irq) {
        for (unsigned cpu = 0; cpu < ncpus(); cpu++)
            if (gic_->dist_read(cpu, model::gic400::GICD_ISPENDR + 4 * (irq / 32)) & (1u << (irq % 32)))
                return true;
        return false;
    });
    if (!problems.empty()) {
        std::string more;
        if (problems.size() > 1)
            more = " (and " + std::to_string(problems.size() - 1) + " more)";
        model::invariant_failed("interrupt-delivery", now_ps(), "the GIC", problems.front() + more);
    }
}

std::uint64_t platform::events() const
{
    std::uint64_t n = pc_->transitions() + timer_->fired();
    for (const auto& cl : clusters_) {
        n += cl->dvfs().transitions();
        for (unsigned k = 0; k < cl->ncores(); k++)
            n += cl->core_at(k).segments() + cl->core_at(k).mmio_accesses();
    }
    return n;
}

} // namespace blsim::soc
