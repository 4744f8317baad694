// model/src/power_controller.cpp
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "blsim/model/power_controller.h"

#include <algorithm>

#include "blsim/model/invariant.h"
#include "blsim/model/sim_time.h"
#include "blsim/model/tlm_util.h"

namespace blsim::model {

using sc_core::sc_time;
using sc_core::SC_US;

power_controller::power_controller(sc_core::sc_module_name name, const soc_params& soc)
    : sc_module(name), regs("regs"), spc_(soc.spc),
      clock_(std::string(basename()) + ".clock", soc.spc.clock_mhz), regs_(basename())
{
    BLSIM_CHECK(soc.clusters.size() <= max_clusters);
    for (const cluster_params& cp : soc.clusters) {
        BLSIM_CHECK(cp.cores >= 1 && static_cast<unsigned>(cp.cores) <= max_cores_per_cluster);
        cluster_slot slot;
        slot.name = cp.name;
        slot.params = cp.power;
        slot.wfi_entry = sc_time(cp.power.core_wfi_entry_us, SC_US);
        slot.wfi_exit = sc_time(cp.power.core_wfi_exit_us, SC_US);
        slot.off_entry = sc_time(cp.power.core_off_entry_us, SC_US);
        slot.off_exit = sc_time(cp.power.core_off_exit_us, SC_US);
        slot.cluster_entry = sc_time(cp.power.cluster_off_entry_us, SC_US);
        slot.cluster_exit = sc_time(cp.power.cluster_off_exit_us, SC_US);
        slot.changed_event = std::make_unique<sc_core::sc_event>();
        slot.down_request = std::make_unique<sc_core::sc_event>();
        slot.abort_request = std::make_unique<sc_core::sc_event>();
        slot.bx_addr.assign(static_cast<std::size_t>(cp.cores), 0);
        for (int i = 0; i < cp.cores; i++) {
            slot.cpus.push_back(static_cast<unsigned>(cpu_cluster_.size()));
            cpu_cluster_.push_back(static_cast<unsigned>(clusters_.size()));
            cpu_index_.push_back(static_cast<unsigned>(i));
            cores_.push_back(core_power::on);
            core_jitter_.emplace_back();
            mask_set_.push_back(std::make_unique<sc_core::sc_event>());
        }
        clusters_.push_back(std::move(slot));
    }
    for (const cluster_params& cp : soc.clusters)
        wide_ = wide_ || cp.cores > 4;
    BLSIM_CHECK(!wide_ || cpu_cluster_.size() <= max_cpus_wide);
    // The layout serves the topology: every CPU its own wake-up bit, apart from the global ones.
    std::uint32_t wake_bits = 3u << 10;
    for (unsigned cpu = 0; cpu < cpu_cluster_.size(); cpu++) {
        const unsigned bit = wide_ ? cpu : wake_cpu(cpu_cluster_[cpu], cpu_index_[cpu]);
        BLSIM_CHECK(bit < 32 && !(wake_bits >> bit & 1u));
        wake_bits |= 1u << bit;
        wake_bit_.push_back(bit);
    }
    regs.register_b_transport(this, &power_controller::b_transport);
    declare_registers();
    for (unsigned c = 0; c < clusters_.size(); c++)
        sc_core::sc_spawn([this, c] { cluster_sequencer(c); }, sc_core::sc_gen_unique_name("cluster_sequencer"));
    SC_HAS_PROCESS(power_controller);
    SC_THREAD(dvfs_engine);
}

void power_controller::set_jitter(jitter_source& source)
{
    jitter_ = source.stream("pwrc");
    for (unsigned cpu = 0; cpu < core_jitter_.size(); cpu++)
        core_jitter_[cpu] = source.stream("pwrc.cpu" + std::to_string(cpu));
    for (cluster_slot& c : clusters_)
        c.power_jitter = source.stream("pwrc.cluster." + c.name);
}

void power_controller::set_faults(fault_source& source)
{
    power_up_fault_ = source.stream(fault_kind::power_up_fail, "pwrc");
    dvfs_fault_ = source.stream(fault_kind::dvfs_fail, "pwrc");
    power_up_timeout_ = sc_time(source.params().power_up_fail.timeout_us, SC_US);
}

void power_controller::attach_dvfs(unsigned cluster, dvfs_controller& dvfs)
{
    cluster_slot& c = clusters_.at(cluster);
    c.dvfs = &dvfs;
    c.perf_level = static_cast<std::uint32_t>(dvfs.current_index());
}

// --- registers ----------------------------------------------------------------------------

unsigned power_controller::wake_bit(unsigned cpu) const { return wake_bit_[cpu]; }

std::uint32_t power_controller::power_up_err_bit(unsigned cpu) const
{
    return wide_ ? 1u << (16 + cpu) : stat_power_up_err(cpu_cluster_.at(cpu), cpu_index_.at(cpu));
}

void power_controller::declare_bx_addr(unsigned c)
{
    cluster_slot& slot = clusters_[c];
    const std::uint32_t at = wide_ ? BX_ADDR + 4 * slot.cpus.front() : BX_ADDR + 16 * c;
    regs_.add({"BX_ADDR", at, static_cast<std::uint32_t>(slot.bx_addr.size()), reg_access::rw,
               [this, c](unsigned, unsigned k) { return clusters_[c].bx_addr[k]; },
               [this, c](unsigned, unsigned k, std::uint32_t v, std::uint32_t m) {
                   clusters_[c].bx_addr[k] = (clusters_[c].bx_addr[k] & ~m) | v;
               }});
}

bool power_controller::wakeup_enabled(unsigned cpu) const { return (wake_mask_ >> wake_bit(cpu)) & 1u; }

void power_controller::declare_registers()
{
    for (unsigned c = 0; c < clusters_.size(); c++) {
        regs_.add({"PERF_LVL", perf_lvl(c), 1, reg_access::rw,
                   [this, c](unsigned, unsigned) { return clusters_[c].perf_level; },
                   [this, c](unsigned, unsigned, std::uint32_t v, std::uint32_t) { request_performance(c, v); }});
        regs_.add({"PWRDN_EN", PWRDN_EN + 4 * c, 1, reg_access::rw,
                   [this, c](unsigned, unsigned) { return clusters_[c].powerdown_enabled ? 1u : 0u; },
                   [this, c](unsigned, unsigned, std::uint32_t v, std::uint32_t m) {
                       if (m & 1)
                           clusters_[c].powerdown_enabled = v & 1;
                   }});
        declare_bx_addr(c);
    }
    regs_.add({"PWC_STATUS", PWC_STATUS, 1, reg_access::ro,
               [this](unsigned, unsigned) {
                   // Reading the response acknowledges it (Linux's handler only reads it).
                   const std::uint32_t v = status_;
                   status_ = 0;
                   set_irq(false);
                   return v;
               },
               nullptr});
    regs_.add({"WAKE_INT_MASK", WAKE_INT_MASK, 1, reg_access::rw,
               [this](unsigned, unsigned) { return wake_mask_; },
               [this](unsigned, unsigned, std::uint32_t v, std::uint32_t m) {
                   const std::uint32_t old = wake_mask_;
                   wake_mask_ = (wake_mask_ & ~m) | v;
                   // Only a CPU whose bit was just set may now wake: notify it alone (a
                   // sleeping core rechecks on each notification, and every CPU's own
                   // read-modify-write would wake every other).
                   for (unsigned cpu = 0; cpu < mask_set_.size(); cpu++)
                       if ((wake_mask_ & ~old) >> wake_bit(cpu) & 1u)
                           mask_set_[cpu]->notify(sc_core::SC_ZERO_TIME);
               }});
}

void power_controller::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    access_time_ = sim_now() + delay;
    regs_.access(cpu_of(trans), trans);
    delay += jitter_.apply(clock_.cycles(spc_.access_cycles), jitter_class::register_access);
}

void power_controller::set_irq(bool level)
{
    if (level == irq_level_)
        return;
    irq_level_ = level;
    if (irq_line_)
        irq_line_(level);
}

// --- DVFS -----------------------------------------------------------------------------------

void power_controller::request_performance(unsigned cluster, std::uint32_t level)
{
    cluster_slot& c = clusters_[cluster];
    if (dvfs_busy_) {
        guest_errors_++;
        SC_REPORT_WARNING("blsim/power_controller",
                          "PERF_LVL written while a transition is in flight (ignored): software "
                          "must wait for the completion interrupt");
        return;
    }
    c.perf_level = level;
    dvfs_busy_ = true;
    dvfs_cluster_ = cluster;
    dvfs_level_ = level;
    dvfs_requests_++;
    // The request starts at the writer's own time, which may be ahead of the kernel's.
    dvfs_start_.notify(access_time_ - sim_now());
}

void power_controller::dvfs_engine()
{
    for (;;) {
        wait(dvfs_start_);
        cluster_slot& c = clusters_[dvfs_cluster_];
        std::uint32_t response = stat_complete(dvfs_cluster_);
        if (!c.dvfs || dvfs_level_ >= c.dvfs->opps().size()) {
            response = stat_err(dvfs_cluster_); // no such performance level
        } else if (dvfs_fault_.fires(sim_now())) {
            // Injected: refused as an invalid level is, at once, the clock left as it is.
            response = stat_err(dvfs_cluster_);
        } else if (static_cast<int>(dvfs_level_) != c.dvfs->current_index()) {
            c.dvfs->request(static_cast<int>(dvfs_level_));
            while (c.dvfs->current_index() != static_cast<int>(dvfs_level_))
                wait(c.dvfs->done_event());
        }
        dvfs_busy_ = false;
        status_ |= response;
        set_irq(true);
    }
}

// --- power states ---------------------------------------------------------------------------

cluster_power power_controller::cluster_state(unsigned cluster) const
{
    switch (clusters_.at(cluster).phase) {
    case cluster_phase::on: return cluster_power::on;
    case cluster_phase::going_down: return cluster_power::powering_down;
    case cluster_phase::off: return cluster_power::off;
    case cluster_phase::coming_up: return cluster_power::powering_up;
    }
    return cluster_power::on;
}

void power_controller::set_core(unsigned cpu, core_power s)
{
    core_power old = cores_.at(cpu);
    if (old == s)
        return;
    cores_[cpu] = s;
    transitions_++;
    core_changed.publish(cpu, old, s);
}

void power_controller::set_cluster(unsigned cluster, cluster_phase p)
{
    cluster_slot& c = clusters_.at(cluster);
    cluster_power old = cluster_state(cluster);
    c.phase = p;
    // Only a core waiting for the cluster's phase needs the news: a notification no one waits
    // for would still be pending activity, and stop other cores from running ahead.
    if (c.phase_waiters > 0)
        c.changed_event->notify(sc_core::SC_ZERO_TIME);
    cluster_power now = cluster_state(cluster);
    if (old != now) {
        transitions_++;
        cluster_changed.publish(cluster, old, now);
    }
}

void power_controller::core_enter_wfi(unsigned cpu)
{
    BLSIM_CHECK(cores_.at(cpu) == core_power::on);
    wait(core_jitter_[cpu].apply(clusters_[cpu_cluster_[cpu]].wfi_entry, jitter_class::power_transition));
    set_core(cpu, core_power::wfi);
}

void power_controller::core_enter_off(unsigned cpu, const sc_core::sc_time& lead)
{
    BLSIM_CHECK(cores_.at(cpu) == core_power::on);
    cluster_slot& c = clusters_[cpu_cluster_[cpu]];
    wait(lead + core_jitter_[cpu].apply(c.off_entry, jitter_class::power_transition));
    set_core(cpu, core_power::off);
    const bool last_man = std::all_of(c.cpus.begin(), c.cpus.end(),
                                      [&](unsigned o) { return cores_[o] == core_power::off; });
    if (last_man && c.params.cluster_power_down && c.powerdown_enabled && c.phase == cluster_phase::on)
        c.down_request->notify(sc_core::SC_ZERO_TIME);
}

void power_controller::cluster_sequencer(unsigned cluster)
{
    cluster_slot& c = clusters_[cluster];
    for (;;) {
        wait(*c.down_request);
        // Still the case a delta later? (A core may have been woken in between.)
        const bool all_off = std::all_of(c.cpus.begin(), c.cpus.end(),
                                         [&](unsigned o) { return cores_[o] == core_power::off; });
        if (!all_off || !c.powerdown_enabled || c.phase != cluster_phase::on)
            continue;
        set_cluster(cluster, cluster_phase::going_down);
        const sc_time start = sim_now();
        const sc_time entry = c.power_jitter.apply(c.cluster_entry, jitter_class::power_transition);
        wait(entry, *c.abort_request);
        if (sim_now() - start < entry) {
            // A wake-up before the power switch opened: the cluster stays up.
            entries_aborted_++;
            c.entries_aborted++;
            set_cluster(cluster, cluster_phase::on);
            continue;
        }
        set_cluster(cluster, cluster_phase::off);
    }
}

void power_controller::cluster_power_up(unsigned cluster)
{
    cluster_slot& c = clusters_[cluster];
    for (;;) {
        switch (c.phase) {
        case cluster_phase::on:
            return;
        case cluster_phase::going_down:
            if (c.params.cluster_entry_wakeup == entry_wakeup::abort)
                c.abort_request->notify(sc_core::SC_ZERO_TIME);
            wait_phase_change(c);
            break;
        case cluster_phase::coming_up:
            // Another core of this cluster is bringing it up: let it finish.
            wait_phase_change(c);
            break;
        case cluster_phase::off:
            set_cluster(cluster, cluster_phase::coming_up);
            wait(c.power_jitter.apply(c.cluster_exit, jitter_class::power_transition));
            set_cluster(cluster, cluster_phase::on);
            return;
        }
    }
}

void power_controller::wait_phase_change(cluster_slot& c)
{
    c.phase_waiters++;
    wait(*c.changed_event);
    c.phase_waiters--;
}

bool power_controller::core_power_up_fails(unsigned cpu)
{
    BLSIM_CHECK(cores_.at(cpu) == core_power::off);
    if (!power_up_fault_.fires(sim_now()))
        return false;
    // The sequence never completes: no power switch closes, neither the cluster's nor the
    // core's. The controller waits its timeout, gives this attempt up and tells software (its
    // error bit and the interrupt say which core); while the core's wake-up stays armed and the
    // interrupt asserted, it tries again at once (a new attempt, which may fail too). Software
    // that no longer wants the core up disarms its wake-up (a switch giving its inbound up).
    // Keeping the request rather than dropping it means a CPU whose power-up failed never
    // depends on another CPU, perhaps failed too, to be retried.
    failing_since_.resize(cores_.size());
    failing_since_[cpu] = sim_now();
    wait(power_up_timeout_);
    failing_since_[cpu].reset();
    power_ups_failed_++;
    status_ |= power_up_err_bit(cpu);
    set_irq(true);
    return true;
}

bool power_controller::power_up_failing(unsigned cpu, sc_core::sc_time& since) const
{
    if (cpu >= failing_since_.size() || !failing_since_[cpu])
        return false;
    since = *failing_since_[cpu];
    return true;
}

sc_core::sc_time power_controller::core_exit(unsigned cpu)
{
    core_power from = cores_.at(cpu);
    BLSIM_CHECK(from != core_power::on);
    const cluster_slot& slot = clusters_[cpu_cluster_[cpu]];
    if (from == core_power::wfi) {
        set_core(cpu, core_power::on);
        return core_jitter_[cpu].apply(slot.wfi_exit, jitter_class::wakeup);
    }
    cluster_power_up(cpu_cluster_[cpu]);
    set_core(cpu, core_power::on);
    return core_jitter_[cpu].apply(slot.off_exit, jitter_class::wakeup);
}

} // namespace blsim::model
