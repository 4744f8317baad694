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

using model::now_ps;

// A task's next step as the kernel takes it.
bls_step to_kernel_step(const workloads::step& st)
{
    bls_step out{};
    switch (st.kind) {
    case workloads::step::run: out.kind = BLS_STEP_RUN; break;
    case workloads::step::sleep_until: out.kind = BLS_STEP_SLEEP; break;
    case workloads::step::block: out.kind = BLS_STEP_BLOCK; break;
    case workloads::step::signal: out.kind = BLS_STEP_SIGNAL; break;
    case workloads::step::broadcast: out.kind = BLS_STEP_BROADCAST; break;
    case workloads::step::exit: out.kind = BLS_STEP_EXIT; break;
    case workloads::step::spin_until: out.kind = BLS_STEP_SPIN; break;
    case workloads::step::affinity: out.kind = BLS_STEP_AFFINITY; break;
    case workloads::step::yield: out.kind = BLS_STEP_YIELD; break;
    case workloads::step::fork: out.kind = BLS_STEP_FORK; break;
    case workloads::step::move_group: out.kind = BLS_STEP_GROUP; break;
    }
    out.task = st.task;
    out.group = st.group;
    out.affinity = st.cpus;
    out.ref_ns = st.ref_ns;
    out.mem_fraction = st.mem_fraction;
    out.working_set_kb = static_cast<uint32_t>(st.working_set_kb);
    out.write_fraction = st.write_fraction;
    out.until_ns = st.until_ns;
    out.io = st.io;
    out.event = st.event;
    return out;
}

} // namespace

platform::platform(const scenario_config& cfg, unsigned mutant) : cfg_(cfg)
{
    // Every time in the model is an integer number of picoseconds.
    if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
        throw internal_error("blsim needs SystemC's default 1 ps time resolution");

    build_hw();
    map_bus();
    perturb_hw();
    // The software's tasks behave as the scenario's workload says.
    workload_ = make_workload(cfg_);
    wire_observers();
    load_kernel(mutant);
    schedule_timeline();
}

void platform::load_kernel(unsigned mutant)
{
    // One C kernel shared by every core; its tasks' steps come from the workload.
    live_governor_ = cfg_.governor;
    bls_kernel_config kc = kernel_config();
    kc.hw.mutant = mutant;
    static const bls_workload_ops workload_ops = {
        .next = [](void* wl, unsigned task, uint64_t now_ns, bls_step* out) -> int {
            *out = to_kernel_step(static_cast<workloads::workload*>(wl)->next(task, now_ns));
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
    executing_.assign(ncpus(), -1);
}

void platform::schedule_timeline()
{
    // The scenario's userspace writes: scaling_setspeed, each to its logical CPU with that
    // CPU's doorbell rung; the governor's tunables, the switcher on or off and the mode, rung
    // on the first online logical CPU's.
    for (const freq_request& r : cfg_.governor.setspeed)
        script_.push_back({r.at_ms, userspace_write::setspeed, static_cast<unsigned>(r.cpu),
                           static_cast<unsigned>(r.freq_mhz)});
    for (const activity_change& a : cfg_.switcher.activity)
        script_.push_back({a.at_ms, a.active ? userspace_write::switcher_on : userspace_write::switcher_off, 0, 0});
    for (const mode_change& m : cfg_.mode_changes)
        script_.push_back({m.at_ms, userspace_write::mode, 0, kernel_mode_of(m.mode)});
    for (std::size_t i = 0; i < cfg_.governor.writes.size(); i++)
        script_.push_back({cfg_.governor.writes[i].at_ms, userspace_write::tunable, 0, static_cast<unsigned>(i)});
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
        switch (e.kind) {
        case userspace_write::setspeed:
            l = e.cpu;
            bls_kernel_post_frequency(&kernel_, l, e.value);
            break;
        case userspace_write::tunable: {
            const tunable_write& w = cfg_.governor.writes.at(e.value);
            cfg::diagnostics diag;
            if (!apply_tunable_write(live_governor_, w, {}, diag))
                throw internal_error("a validated tunable write was refused: " + diag.first_text());
            const bls_governor_tunables t = governor_tunables(live_governor_);
            bls_kernel_post_tunables(&kernel_, &t, w.tunable == "boostpulse");
            break;
        }
        case userspace_write::mode: {
            const int rc = bls_kernel_post_mode(&kernel_, static_cast<bls_mode>(e.value));
            if (rc != 0)
                throw internal_error(std::string("the kernel refused a validated mode change to ") +
                                     (mode_name(e.value) ? mode_name(e.value) : "?") + ": " + std::to_string(rc));
            break;
        }
        case userspace_write::switcher_on:
        case userspace_write::switcher_off:
            bls_kernel_post_switcher_active(&kernel_, e.kind == userspace_write::switcher_on);
            break;
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

void platform::power_loss(std::uint64_t dirty_lines, const std::string& what)
{
    // Software must clean caches before their power goes: losing dirty data is a bug of the
    // C code running on the model, so the run stops.
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
