// soc/platform/src/kernel_config.cpp -- the C kernel's configuration, built from the scenario: the
// device-tree part (where the devices are), the boot command line (boot frequencies), and the
// sysctl and sysfs settings (scheduler, cpuidle, governor).
#include <bls/cpuidle.h>
#include <bls/governor.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "blsim/soc/platform.h"

namespace blsim::soc {

namespace {

// A row's copy from the scenario's key to the kernel's field, in its unit (bls/tunable.h).
#define BLSIM_TUNABLE_COPY(kind, field, c_type, def, key, min, max, unit, scale, ...)                        \
    to.field = static_cast<c_type>(from.key) * static_cast<c_type>(scale);

// Each governor's sysfs tunables.
void interactive_tunables(bls_interactive_tunables& to, const interactive_config& from)
{
    to.variant = from.variant == "2012" ? BLS_INTERACTIVE_2012 : BLS_INTERACTIVE_2013;
    BLS_INTERACTIVE_TUNABLES_HISPEED(BLSIM_TUNABLE_COPY)
    // Validated when the scenario was loaded.
    if (bls_interactive_parse_target_loads(&to, from.target_loads.c_str()) != 0)
        throw internal_error("target_loads '" + from.target_loads + "' passed validation but not the kernel's parser");
    BLS_INTERACTIVE_TUNABLES_TIMING(BLSIM_TUNABLE_COPY)
}

void ondemand_tunables(bls_ondemand_tunables& to, const ondemand_config& from)
{
    BLS_ONDEMAND_TUNABLES(BLSIM_TUNABLE_COPY)
}

void conservative_tunables(bls_conservative_tunables& to, const conservative_config& from)
{
    BLS_CONSERVATIVE_TUNABLES(BLSIM_TUNABLE_COPY)
}

void schedutil_tunables(bls_schedutil_tunables& to, const schedutil_config& from)
{
    BLS_SCHEDUTIL_TUNABLES(BLSIM_TUNABLE_COPY)
}

// The device tree: the CPUs and clusters, where the devices are, the interrupts.
void device_tree(bls_kernel_config& kc, const model::soc_params& soc, const model::power_controller& pc)
{
    kc.hw.ncpus = pc.ncpus();
    kc.hw.nclusters = static_cast<unsigned>(soc.clusters.size());
    for (unsigned cpu = 0; cpu < pc.ncpus(); cpu++)
        kc.hw.cpu_cluster[cpu] = pc.cluster_of(cpu);
    kc.hw.spc_wide = pc.wide_layout() ? 1u : 0u;
    for (std::size_t i = 0; i < soc.clusters.size(); i++)
        kc.hw.cluster_cci_port[i] = static_cast<unsigned>(soc.clusters[i].cci_port);
    kc.hw.gic_dist_base = static_cast<std::uint64_t>(soc.gic.dist_base);
    kc.hw.gic_cpu_base = static_cast<std::uint64_t>(soc.gic.cpu_base);
    kc.hw.cci_base = static_cast<std::uint64_t>(soc.cci.base);
    kc.hw.shm_base = static_cast<std::uint64_t>(soc.sram.base);
    kc.hw.spc_base = static_cast<std::uint64_t>(soc.spc.base);
    kc.hw.spc_irq = static_cast<unsigned>(soc.spc.irq);
    kc.hw.timer_ppi = platform::timer_ppi;
    kc.hw.gic_nirqs = 32 + static_cast<unsigned>(soc.gic.spis);
}

// Hotplug at boot: the listed CPUs come up, the first of them boots the kernel.
void boot_cpus(bls_kernel_config& kc, const scenario_config& cfg, unsigned ncpus)
{
    kc.boot_cpu = 0;
    if (!cfg.online_cpus.empty()) {
        uint32_t online = 0;
        for (int c : cfg.online_cpus)
            online |= 1u << c;
        kc.offline = ((ncpus >= 32 ? ~0u : (1u << ncpus) - 1u)) & ~online;
        while (!(online >> kc.boot_cpu & 1u))
            kc.boot_cpu++;
    }
}

// The big.LITTLE mode at boot; the switcher runs in the switched ones.
void mode_and_switcher(bls_kernel_config& kc, const scenario_config& cfg)
{
    kc.mode = static_cast<bls_mode>(kernel_mode_of(cfg.mode));
    if (!kc.mode)
        throw internal_error("mode '" + cfg.mode + "' passed validation but is not the kernel's");
    kc.switcher.enabled = mode_switched(cfg.mode);
    kc.switcher.pairing = cfg.switcher.pairing == "in_order" ? BLS_PAIRING_IN_ORDER : BLS_PAIRING_LINUX;
    const switch_costs& sc = cfg.switcher.costs_cycles;
    kc.switcher.costs = {static_cast<uint32_t>(sc.tick_suspend), static_cast<uint32_t>(sc.cpu_pm_enter),
                         static_cast<uint32_t>(sc.context_save), static_cast<uint32_t>(sc.stack_switch),
                         static_cast<uint32_t>(sc.context_restore), static_cast<uint32_t>(sc.cpu_pm_exit),
                         static_cast<uint32_t>(sc.tick_resume)};
    kc.switcher.restore_uncached_words = static_cast<unsigned>(cfg.switcher.restore_uncached_words);
    // With hardware faults injected an inbound may never come up: the switcher then kicks it
    // again and gives up after a timeout. Without, it waits for ever, as Linux does, and its
    // timing is Linux's to the byte (docs/switcher.md, "Faults"). 5 ms is far above any
    // inbound's power-up, a cluster's included, under the widest jitter.
    kc.switcher.inbound_timeout_ns = cfg.faults.any() ? 5000000u : 0u;
    kc.spc_irq_any_cpu = cfg.faults.any();
}

// cpufreq: the OPP tables, the boot frequencies, the governor.
void cpufreq(bls_kernel_config& kc, const scenario_config& cfg)
{
    const model::soc_params& soc = cfg.soc;
    for (std::size_t i = 0; i < soc.clusters.size(); i++) {
        const model::cluster_params& cp = soc.clusters[i];
        kc.cpufreq.nopps[i] = static_cast<unsigned>(cp.opps.size());
        for (std::size_t o = 0; o < cp.opps.size(); o++)
            kc.cpufreq.opp_mhz[i][o] = static_cast<unsigned>(cp.opps[o].freq_mhz);
        kc.cpufreq.boot_level[i] = static_cast<unsigned>(model::boot_opp_index(cp));
        kc.capacity_dmips_mhz[i] = static_cast<unsigned>(cp.capacity_dmips_mhz);
        for (const auto& [name, mhz] : cfg.governor.freq_mhz)
            if (name == cp.name)
                kc.boot_mhz[i] = static_cast<unsigned>(mhz);
    }
    const int big = big_cluster(soc);
    kc.cpufreq.big_cluster = big < 0 ? 0 : static_cast<unsigned>(big);
    kc.cpufreq.little_cluster = big < 0 ? 0 : 1u - static_cast<unsigned>(big);
    kc.governor = bls_governor_find(cfg.governor.name.c_str());
    if (!kc.governor)
        throw internal_error("no governor named '" + cfg.governor.name + "' in the kernel");
    kc.tunables = governor_tunables(cfg.governor);
}

// The scheduler, its times scaled with the CPUs online at boot as Linux's
// sched_init_granularity does (SCHED_TUNABLESCALING_LOG).
void scheduler(bls_kernel_config& kc, const scenario_config& cfg)
{
    const sched_config& sch = cfg.sched;
    unsigned factor = 1;
    if (sch.scale_with_cpus) {
        const unsigned online = std::min(8u, static_cast<unsigned>(logical_cpus(cfg)));
        factor = 1 + static_cast<unsigned>(std::floor(std::log2(static_cast<double>(online))));
    }
    kc.sched.latency_ns = 1000ull * static_cast<unsigned>(sch.latency_us) * factor;
    kc.sched.min_granularity_ns = 1000ull * static_cast<unsigned>(sch.min_granularity_us) * factor;
    kc.sched.wakeup_granularity_ns = 1000ull * static_cast<unsigned>(sch.wakeup_granularity_us) * factor;
    kc.sched.balance_interval_ns = 1000ull * static_cast<unsigned>(sch.balance_interval_us);
    kc.sched.rt_period_ns = 1000ull * static_cast<unsigned>(sch.rt_period_us);
    // sched_rt_runtime_us -1 (no limit): a runtime as long as the period.
    kc.sched.rt_runtime_ns = sch.rt_runtime_us < 0 ? kc.sched.rt_period_ns
                                                   : 1000ull * static_cast<unsigned>(sch.rt_runtime_us);
    kc.sched.rr_timeslice_ns = 1000000ull * static_cast<unsigned>(sch.rr_timeslice_ms);
    kc.freq_invariant = sch.freq_invariant;
    kc.cpu_invariant = sch.cpu_invariant;
}

// Linaro's big.LITTLE MP (sysfs /sys/kernel/hmp), for mode hmp.
void hmp(bls_hmp_config& to, const hmp_config& from)
{
    BLS_HMP_TUNABLES(BLSIM_TUNABLE_COPY)
}

// The energy model EAS places by: the SoC's EAS tables, capacities relative to the fastest
// cluster's top OPP (1024).
void energy_model(bls_energy_model& em, const model::soc_params& soc)
{
    double ref = 0;
    for (const model::cluster_params& cp : soc.clusters)
        ref = std::max(ref, static_cast<double>(cp.capacity_dmips_mhz) * (cp.opps.empty() ? 0 : cp.opps.back().freq_mhz));
    for (std::size_t c = 0; c < soc.clusters.size(); c++) {
        const model::cluster_params& cp = soc.clusters[c];
        em.nopps[c] = static_cast<unsigned>(cp.opps.size());
        for (std::size_t i = 0; i < cp.opps.size(); i++) {
            em.cap[c][i] = ref > 0 ? 1024.0 * cp.capacity_dmips_mhz * cp.opps[i].freq_mhz / ref : 0;
            em.core_power[c][i] = cp.opps[i].core_power_eas;
            em.cluster_power[c][i] = soc.energy.scheduler_cluster_terms ? cp.opps[i].cluster_power_eas : 0;
        }
        em.cluster_idle_power[c] = soc.energy.scheduler_cluster_terms ? cp.wfi_power_eas : 0;
    }
}

// cpuidle: the SoC's states, or WFI alone.
void cpuidle(bls_cpuidle_config& ci, const scenario_config& cfg)
{
    for (std::size_t i = 0; i < cfg.soc.clusters.size(); i++) {
        const std::vector<model::idle_state_params>& st = cfg.soc.clusters[i].idle_states;
        const std::size_t n = cfg.cpuidle.enabled ? st.size() : 1;
        ci.nstates[i] = static_cast<unsigned>(n);
        for (std::size_t k = 0; k < n; k++)
            ci.state[i][k] = {st[k].kind == "wfi" ? BLS_IDLE_WFI : BLS_IDLE_POWER_DOWN,
                              static_cast<uint32_t>(st[k].exit_latency_us),
                              static_cast<uint32_t>(st[k].target_residency_us)};
    }
    ci.latency_limit_us =
        cfg.cpuidle.latency_limit_us < 0 ? UINT32_MAX : static_cast<uint32_t>(cfg.cpuidle.latency_limit_us);
    ci.governor = bls_cpuidle_governor_find(cfg.cpuidle.governor.c_str());
    if (!ci.governor)
        throw internal_error("no cpuidle governor named '" + cfg.cpuidle.governor + "' in the kernel");
    ci.menu_version = cfg.cpuidle.menu.version == "3.13" ? BLS_MENU_3_13 : BLS_MENU_3_10;
}

// The task groups (checked against BLS_MAX_GROUPS with the workload), then the tasks.
void tasks(bls_kernel_config& kc, const workloads::workload& workload)
{
    const std::vector<workloads::group_info> groups = workload.groups();
    if (groups.size() > BLS_MAX_GROUPS)
        throw internal_error("the workload has more task groups than the kernel's " + std::to_string(BLS_MAX_GROUPS));
    kc.sched.ngroups = static_cast<unsigned>(groups.size());
    for (std::size_t g = 0; g < groups.size(); g++)
        kc.sched.group[g] = {groups[g].parent, groups[g].shares};
    kc.ntasks = workload.ntasks();
    for (unsigned t = 0; t < kc.ntasks; t++) {
        const workloads::task_info ti = workload.info(t);
        uint32_t mask = 0;
        for (int c : ti.cpus)
            mask |= 1u << c;
        kc.tasks[t] = bls_sched_task_config{};
        kc.tasks[t].affinity = mask;
        kc.tasks[t].nice = ti.nice;
        kc.tasks[t].policy = ti.policy == workloads::task_info::fifo       ? BLS_SCHED_FIFO
                             : ti.policy == workloads::task_info::rr       ? BLS_SCHED_RR
                             : ti.policy == workloads::task_info::deadline ? BLS_SCHED_DEADLINE
                                                                           : BLS_SCHED_NORMAL;
        const bool rt = ti.policy == workloads::task_info::fifo || ti.policy == workloads::task_info::rr;
        kc.tasks[t].rt_priority = rt ? static_cast<unsigned>(ti.rt_priority) : 0u;
        kc.tasks[t].dl_runtime_ns = ti.dl_runtime_ns;
        kc.tasks[t].dl_deadline_ns = ti.dl_deadline_ns;
        kc.tasks[t].dl_period_ns = ti.dl_period_ns;
        kc.forked[t] = ti.forked ? 1 : 0;
        kc.tasks[t].group = ti.group;
    }
}

} // namespace

bls_governor_tunables governor_tunables(const governor_config& g)
{
    bls_governor_tunables t{};
    bls_governor_default_tunables(&t);
    interactive_tunables(t.interactive, g.interactive);
    ondemand_tunables(t.ondemand, g.ondemand);
    conservative_tunables(t.conservative, g.conservative);
    schedutil_tunables(t.schedutil, g.schedutil);
    return t;
}

bls_kernel_config platform::kernel_config() const
{
    // Zeroed up to the per-task tables, and of those only the run's tasks' entries are
    // written (below): the tables are sized for BLS_MAX_TASKS, which start-up should not pay.
    bls_kernel_config kc;
    std::memset(&kc, 0, offsetof(bls_kernel_config, tasks));

    device_tree(kc, cfg_.soc, *pc_);
    boot_cpus(kc, cfg_, ncpus());
    mode_and_switcher(kc, cfg_);
    cpufreq(kc, cfg_);
    scheduler(kc, cfg_);
    hmp(kc.sched.hmp, cfg_.hmp);
    energy_model(kc.sched.em, cfg_.soc);
    cpuidle(kc.cpuidle, cfg_);
    tasks(kc, *workload_);
    return kc;
}

} // namespace blsim::soc
