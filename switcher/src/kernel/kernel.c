/* switcher/src/kernel/kernel.c -- the per-CPU run loop; see bls/kernel.h for the contract and
 * docs/os.md for the algorithms it calls. */
#include "bls/kernel.h"

#include <stddef.h>
#include <string.h>

#include "bls/check.h"
#include "bls/spc.h"

/* Work left below this (in reference nanoseconds) is rounding noise from the platform's
 * floating-point progress accounting, not work. */
#define BLS_WORK_EPSILON_NS 1e-6

/* Steps a task may take without running or waiting before its workload counts as broken
 * (a workload that only ever signals would hang its CPU). */
#define BLS_MAX_INSTANT_STEPS 1000

static uint64_t now(const struct bls_kernel *k, unsigned cpu)
{
	return k->ops->now_ns(k->plat, cpu);
}

static uint32_t online_mask(const struct bls_kernel *k)
{
	const unsigned n = bls_switcher_nlogical(&k->sw);
	return (n >= 32 ? ~0u : (1u << n) - 1u) & ~k->cfg.offline;
}

static int hotplugged_out(const struct bls_kernel *k, int l)
{
	return l >= 0 && l < 32 && (k->cfg.offline >> l & 1u);
}

/* The scheduler's placement in mode @m. */
static enum bls_placement placement_of(enum bls_mode m)
{
	return m == BLS_MODE_HMP ? BLS_PLACE_HMP : m == BLS_MODE_EAS ? BLS_PLACE_EAS : BLS_PLACE_FAIR;
}

/* --- the governor's view of the kernel ---------------------------------------------------- */

static uint64_t env_idle_ns(void *ctx, unsigned cpu, uint64_t now_ns)
{
	return bls_sched_idle_ns(&((struct bls_kernel *)ctx)->sched, cpu, now_ns);
}

static uint64_t env_iowait_ns(void *ctx, unsigned cpu, uint64_t now_ns)
{
	return bls_sched_iowait_ns(&((struct bls_kernel *)ctx)->sched, cpu, now_ns);
}

static double env_util(void *ctx, unsigned cpu, uint64_t now_ns)
{
	return bls_sched_cpu_util(&((struct bls_kernel *)ctx)->sched, cpu, now_ns);
}

static void env_request(void *ctx, unsigned cpu, unsigned mhz)
{
	/* Taken by the logical CPU's host at its next scheduling point (the speed-change
	 * thread's work); the host is woken if it is not the caller. Under cluster migration
	 * the one policy's speed is every logical CPU's. */
	struct bls_kernel *k = ctx;
	uint32_t cpus = 1u << cpu;
	if (k->mode == BLS_MODE_CLUSTER_MIGRATION && bls_switcher_active(&k->sw))
		cpus = online_mask(k);
	for (unsigned l = 0; l < BLS_MAX_CPUS; l++)
		if (cpus >> l & 1u)
			k->mailbox_mhz[l] = mhz;
	k->kick |= cpus;
}

static void env_sampled(void *ctx, unsigned cpu, unsigned load_pct)
{
	/* The sample runs on the logical CPU's host. */
	struct bls_kernel *k = ctx;
	k->ops->trace(k->plat, bls_switcher_host_of(&k->sw, cpu), BLS_TRACE_GOV_LOAD, cpu, load_pct);
}

/* A request of @cpu's policy waits in a mailbox or its transaction is not over: the
 * policy's work_in_progress (the policy's lock serialises its transitions). */
static int env_in_flight(void *ctx, unsigned cpu)
{
	struct bls_kernel *k = ctx;
	const struct bls_policy *p = bls_governor_policy_of(&k->gov, cpu);
	const uint32_t cpus = p ? p->cpus : 1u << cpu;
	for (unsigned l = 0; l < BLS_MAX_CPUS; l++)
		if ((cpus >> l & 1u) && (k->mailbox_mhz[l] || k->txn_busy[l]))
			return 1;
	return 0;
}

/* A real-time or a deadline task may run on @cpu (schedutil's SCHED_CPUFREQ_RT and _DL). */
static int env_rt_runnable(void *ctx, unsigned cpu)
{
	const struct bls_sched *s = &((struct bls_kernel *)ctx)->sched;
	return bls_sched_rt_runnable(s, cpu) || bls_sched_dl_runnable(s, cpu);
}

static const struct bls_gov_env gov_env = {
	.idle_ns = env_idle_ns,
	.util = env_util,
	.request = env_request,
	.sampled = env_sampled,
	.iowait_ns = env_iowait_ns,
	.in_flight = env_in_flight,
	.rt_runnable = env_rt_runnable,
};

/* @c's frequency as the policies start from: at boot, the boot setting being applied (the
 * policies are set up as the boot command line's clocks are; Linux's cpufreq starts after). */
static unsigned cluster_mhz(const struct bls_kernel *k, unsigned c)
{
	if (!k->booted && k->cfg.boot_mhz[c])
		return k->cfg.boot_mhz[c];
	return bls_cpufreq_cluster_mhz(&k->cpufreq, c);
}

/* The cpufreq policies as the driver now defines them: a logical CPU each with the switcher
 * on (the merged virtual table), a cluster each without (its OPPs). */
static void build_policies(struct bls_kernel *k, uint64_t t)
{
	const struct bls_hw *hw = &k->cfg.hw;
	const struct bls_cpufreq *cf = &k->cpufreq;
	struct bls_policy p[BLS_MAX_CPUS];
	unsigned n = 0;
	memset(p, 0, sizeof(p));
	if (cf->switching) {
		/* IKS: a policy per logical CPU; cluster migration: one for them all, which
		 * starts where its first CPU is. */
		const int one = k->mode == BLS_MODE_CLUSTER_MIGRATION;
		const struct bls_vtable *vt = &cf->vtable;
		for (unsigned l = 0; l < bls_switcher_nlogical(&k->sw); l++) {
			if (hotplugged_out(k, (int)l))
				continue;
			if (one && n) {
				p[0].cpus |= 1u << l;
				continue;
			}
			struct bls_policy *q = &p[n++];
			q->cpus = 1u << l;
			q->first_cpu = l;
			q->nfreqs = vt->n;
			for (unsigned i = 0; i < vt->n; i++)
				q->freq_mhz[i] = vt->opp[i].virt_mhz;
			q->capacity = 1024.0;
			/* Where the logical CPU is now, as a virtual frequency. */
			const unsigned cl = bls_switcher_cluster_of(&k->sw, l);
			const unsigned real = cluster_mhz(k, cl);
			q->cur_mhz = q->freq_mhz[0];
			for (unsigned i = 0; i < vt->n; i++)
				if (vt->opp[i].cluster == cl && vt->opp[i].actual_mhz <= real)
					q->cur_mhz = vt->opp[i].virt_mhz;
		}
	} else {
		for (unsigned c = 0; c < hw->nclusters; c++) {
			uint32_t cpus = 0;
			for (unsigned l = 0; l < bls_switcher_nlogical(&k->sw); l++)
				if (bls_switcher_cluster_of(&k->sw, l) == c && !hotplugged_out(k, (int)l))
					cpus |= 1u << l;
			if (!cpus)
				continue;
			struct bls_policy *q = &p[n++];
			q->cpus = cpus;
			while (!(cpus >> q->first_cpu & 1u))
				q->first_cpu++;
			q->nfreqs = cf->cfg.nopps[c];
			for (unsigned i = 0; i < q->nfreqs; i++)
				q->freq_mhz[i] = cf->cfg.opp_mhz[c][i];
			const unsigned top = q->freq_mhz[q->nfreqs - 1];
			q->capacity = 1024.0 * k->cfg.capacity_dmips_mhz[c] * top / k->ref_capacity;
			q->cur_mhz = cluster_mhz(k, c);
		}
	}
	int rc = bls_governor_set_policies(&k->gov, p, n, t);
	BLS_CHECK(hw, ~0u, rc == 0);
}

/* The hardware description's own limits, before anything is set up. */
static int hw_valid(const struct bls_kernel_config *cfg)
{
	const struct bls_hw *hw = &cfg->hw;
	if (hw->ncpus == 0 || hw->ncpus > BLS_MAX_CPUS || cfg->boot_cpu >= hw->ncpus ||
	    hw->nclusters == 0 || hw->nclusters > BLS_MAX_CLUSTERS || cfg->ntasks > BLS_MAX_TASKS ||
	    hw->timer_ppi < 16 || hw->timer_ppi > 31 || !cfg->governor || !cfg->governor->start)
		return 0;
	for (unsigned c = 0; c < hw->ncpus; c++)
		if (hw->cpu_cluster[c] >= hw->nclusters)
			return 0;
	return 1;
}

/* @k zeroed and given its configuration and its platform's and workload's operations. */
static void take_config(struct bls_kernel *k, const struct bls_kernel_config *cfg,
			const struct bls_platform_ops *ops, void *plat,
			const struct bls_workload_ops *wl, void *wl_ctx)
{
	/* Zeroed: everything before the per-task tables but the configuration's own task
	 * tables (copied below, the run's tasks only), and the tables' entries of this run's
	 * tasks; bls_sched_init does the scheduler. */
	const size_t cfg_tasks = offsetof(struct bls_kernel, cfg) + offsetof(struct bls_kernel_config, tasks);
	const size_t after_cfg = offsetof(struct bls_kernel, cfg) + sizeof(k->cfg);
	memset(k, 0, cfg_tasks);
	memset((char *)k + after_cfg, 0, offsetof(struct bls_kernel, task_stats) - after_cfg);
	memset(k->task_stats, 0, cfg->ntasks * sizeof(k->task_stats[0]));
	memset(k->step, 0, cfg->ntasks * sizeof(k->step[0]));
	memset(k->left_ref_ns, 0, cfg->ntasks * sizeof(k->left_ref_ns[0]));
	memset(k->has_step, 0, cfg->ntasks * sizeof(k->has_step[0]));
	k->ops = ops;
	k->plat = plat;
	k->wl = wl;
	k->wl_ctx = wl_ctx;
	/* The configuration, of its task tables only the run's tasks. */
	memcpy(&k->cfg, cfg, offsetof(struct bls_kernel_config, tasks));
	memcpy(k->cfg.tasks, cfg->tasks, cfg->ntasks * sizeof(cfg->tasks[0]));
	memcpy(k->cfg.forked, cfg->forked, cfg->ntasks * sizeof(cfg->forked[0]));
	k->cfg.hw.ops = ops;
	k->cfg.hw.plat = plat;
}

/* The mode at boot, and the switcher, on in the switched modes. Returns 0 or -BLS_EINVAL. */
static int init_mode(struct bls_kernel *k, const struct bls_kernel_config *cfg)
{
	const struct bls_hw *hw = &cfg->hw;
	k->mode = cfg->mode ? cfg->mode : cfg->switcher.enabled ? BLS_MODE_IKS : BLS_MODE_SMP;
	if (k->mode < BLS_MODE_SMP || k->mode > BLS_MODE_EAS)
		return -BLS_EINVAL;
	k->cfg.mode = k->mode;
	k->cm_cluster = -1;
	struct bls_switcher_config swc = cfg->switcher;
	swc.enabled = bls_mode_switched(k->mode);
	/* The pairs' home is the boot cluster; with CPUs hotplugged out (the switcher never on)
	 * the boot CPU may be any online one, and the pairs are only bookkeeping. */
	swc.boot_cluster = hw->cpu_cluster[cfg->offline ? 0 : cfg->boot_cpu];
	if (bls_switcher_init(&k->sw, &k->cfg.hw, &k->mcpm, &swc))
		return -BLS_EINVAL;
	return 0;
}

/* The kernel's own interrupts fit: a doorbell SPI per CPU (48..63), and the power
 * controller's an SPI after them. */
static int irqs_valid(const struct bls_hw *hw)
{
	return hw->ncpus <= 16 && hw->spc_irq >= 64 && hw->spc_irq < hw->gic_nirqs;
}

/* The cpufreq driver, and the reference capacity: the largest cluster's at its top OPP.
 * Returns 0 or -BLS_EINVAL. */
static int init_cpufreq(struct bls_kernel *k, const struct bls_kernel_config *cfg)
{
	if (bls_cpufreq_init(&k->cpufreq, &k->cfg.hw, &k->sw, &cfg->cpufreq))
		return -BLS_EINVAL;
	for (unsigned c = 0; c < cfg->hw.nclusters; c++) {
		const unsigned n = cfg->cpufreq.nopps[c];
		if (n == 0 || cfg->capacity_dmips_mhz[c] == 0)
			return -BLS_EINVAL;
		const double cap = (double)cfg->capacity_dmips_mhz[c] * cfg->cpufreq.opp_mhz[c][n - 1];
		if (cap > k->ref_capacity)
			k->ref_capacity = cap;
	}
	return 0;
}

/* Hotplug at boot: with the switcher off only, never the boot CPU; the lead is the first
 * online CPU. Returns 0 or -BLS_EINVAL. */
static int init_hotplug(struct bls_kernel *k, const struct bls_kernel_config *cfg)
{
	if (cfg->offline && (bls_switcher_active(&k->sw) || (cfg->offline >> cfg->boot_cpu & 1u)))
		return -BLS_EINVAL;
	while (k->lead < cfg->hw.ncpus && hotplugged_out(k, (int)k->lead))
		k->lead++;
	return 0;
}

/* The scheduler knows every CPU that may ever be a logical CPU of its own, and the topology
 * its HMP and energy-aware placements use with the switcher off; then it takes the tasks.
 * Returns 0 or -BLS_EINVAL. */
static int init_sched(struct bls_kernel *k, const struct bls_kernel_config *cfg)
{
	const struct bls_hw *hw = &cfg->hw;
	struct bls_sched_config sc = cfg->sched;
	sc.ncpus = hw->ncpus;
	sc.nclusters = hw->nclusters;
	for (unsigned c = 0; c < hw->ncpus; c++)
		sc.cpu_cluster[c] = hw->cpu_cluster[c];
	for (unsigned c = 0; c < hw->nclusters; c++) {
		const unsigned n = cfg->cpufreq.nopps[c];
		sc.cluster_capacity[c] = 1024.0 * cfg->capacity_dmips_mhz[c] * cfg->cpufreq.opp_mhz[c][n - 1] / k->ref_capacity;
	}
	sc.placement = placement_of(k->mode);
	if (bls_sched_init(&k->sched, &sc, online_mask(k), 0))
		return -BLS_EINVAL;
	for (unsigned t = 0; t < cfg->ntasks; t++)
		if (bls_sched_add_task(&k->sched, &cfg->tasks[t], 0) < 0)
			return -BLS_EINVAL;
	return 0;
}

int bls_kernel_init(struct bls_kernel *k, const struct bls_kernel_config *cfg,
		    const struct bls_platform_ops *ops, void *plat,
		    const struct bls_workload_ops *wl, void *wl_ctx)
{
	if (!k || !cfg || !wl || !wl->next)
		return -BLS_EINVAL;
	if (bls_platform_ops_check(ops))
		return -BLS_ENOSYS;
	if (!hw_valid(cfg))
		return -BLS_EINVAL;
	take_config(k, cfg, ops, plat, wl, wl_ctx);

	/* Every CPU comes out of reset running, its cluster coherent. */
	int rc = bls_mcpm_init(&k->mcpm, &k->cfg.hw, &bls_mcpm_tc2);
	if (rc)
		return rc;
	if (init_mode(k, cfg) || !irqs_valid(&cfg->hw) || init_cpufreq(k, cfg) ||
	    bls_cpuidle_init(&k->cpuidle, &cfg->cpuidle, cfg->hw.nclusters) || init_hotplug(k, cfg) ||
	    init_sched(k, cfg))
		return -BLS_EINVAL;
	bls_governor_init(&k->gov, cfg->governor, &cfg->tunables, &gov_env, k);
	return 0;
}

int bls_mode_switched(enum bls_mode m)
{
	return m == BLS_MODE_IKS || m == BLS_MODE_CLUSTER_MIGRATION;
}

enum bls_mode bls_kernel_mode(const struct bls_kernel *k)
{
	return k->mode;
}

int bls_kernel_post_mode(struct bls_kernel *k, enum bls_mode mode)
{
	if (mode < BLS_MODE_SMP || mode > BLS_MODE_EAS || (bls_mode_switched(mode) && bls_switcher_npairs(&k->sw) == 0))
		return -BLS_EINVAL;
	if (placement_of(mode) != BLS_PLACE_FAIR && k->sched.cfg.nclusters < 2)
		return -BLS_EINVAL;
	k->mode_mailbox = (int)mode;
	return 0;
}

int bls_kernel_post_switcher_active(struct bls_kernel *k, int active)
{
	if (bls_switcher_npairs(&k->sw) == 0)
		return -BLS_EINVAL;
	/* The sysfs flag: on from any mode without the switcher is IKS; off from a switched
	 * mode is SMP; otherwise the mode stays. */
	const enum bls_mode now = k->mode_mailbox ? (enum bls_mode)k->mode_mailbox : k->mode;
	if (active && !bls_mode_switched(now))
		k->mode_mailbox = BLS_MODE_IKS;
	else if (!active && bls_mode_switched(now))
		k->mode_mailbox = BLS_MODE_SMP;
	return 0;
}

int bls_kernel_post_frequency(struct bls_kernel *k, unsigned logical, unsigned mhz)
{
	if (logical >= k->cfg.hw.ncpus || mhz == 0)
		return -BLS_EINVAL;
	if (k->cfg.governor != &bls_gov_userspace || logical >= bls_switcher_nlogical(&k->sw)) {
		k->stats.freq_requests_refused++;
		return 0;
	}
	k->mailbox_mhz[logical] = mhz;
	return 0;
}

void bls_kernel_post_tunables(struct bls_kernel *k, const struct bls_governor_tunables *t, int boostpulse)
{
	k->posted_tunables = *t;
	k->tunables_posted = 1;
	k->boostpulse_posted |= boostpulse != 0;
}

/* Send the pending reschedules (queued work, answered requests) to the CPUs concerned. */
static void send_kicks(struct bls_kernel *k, unsigned cpu, int self)
{
	uint32_t kick = k->kick;
	k->kick = 0;
	for (unsigned l = 0; kick; l++, kick >>= 1) {
		if (!(kick & 1u) || (int)l == self || l >= bls_switcher_nlogical(&k->sw))
			continue;
		if (bls_switcher_host_of(&k->sw, l) != cpu)
			bls_switcher_send_ipi(&k->sw, cpu, l, BLS_SGI_RESCHEDULE);
	}
}

/* --- tracing the scheduler's events ----------------------------------------------------- */

struct trace_ctx {
	struct bls_kernel *k;
	unsigned cpu;
};

static void trace_sched_event(void *ctx, unsigned kind, unsigned a, unsigned b)
{
	const struct trace_ctx *tc = ctx;
	static const unsigned map[] = {
		[BLS_SCHED_EV_WAKEUP] = BLS_TRACE_SCHED_WAKEUP,
		[BLS_SCHED_EV_MIGRATE] = BLS_TRACE_SCHED_MIGRATE,
		[BLS_SCHED_EV_SWITCH] = BLS_TRACE_SCHED_SWITCH,
		[BLS_SCHED_EV_LATENCY] = BLS_TRACE_WAKEUP_LATENCY,
		[BLS_SCHED_EV_XMIGRATED] = BLS_TRACE_TASK_XMIGRATED,
	};
	tc->k->ops->trace(tc->k->plat, tc->cpu, map[kind], a, b);
}

static void flush_sched_events(struct bls_kernel *k, unsigned cpu)
{
	struct trace_ctx tc = {k, cpu};
	bls_sched_take_events(&k->sched, trace_sched_event, &tc);
}

/* --- frequency requests --------------------------------------------------------------- */

/* A posted request is taken by the logical CPU's host once its previous one is over (the
 * policy's lock serialises them in Linux). */
static void take_frequency_request(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	const unsigned mhz = k->mailbox_mhz[l];
	if (!mhz || bls_cpufreq_phase(&k->cpufreq, l) != BLS_CPUFREQ_IDLE)
		return;
	k->mailbox_mhz[l] = 0;
	if (k->disabling) {
		/* The switcher is bringing every CPU home: no new switches meanwhile. */
		k->stats.freq_requests_refused++;
		return;
	}
	if (k->mode == BLS_MODE_CLUSTER_MIGRATION && k->cpufreq.switching &&
	    bls_cpufreq_lookup(&k->cpufreq.vtable, mhz)) {
		/* Cluster migration: the switches that move every logical CPU to the same
		 * cluster form a group, which opens with the first of them. */
		const unsigned from = k->cpufreq.resident[l];
		const unsigned to = bls_cpufreq_cluster_for(&k->cpufreq.vtable, from, mhz);
		if (to != from) {
			if (k->cm_cluster != (int)to) {
				k->cm_group++;
				k->cm_cluster = (int)to;
			}
			k->ops->trace(k->plat, cpu, BLS_TRACE_SWITCH_GROUP, l, k->cm_group);
		}
	}
	if (bls_cpufreq_target(&k->cpufreq, cpu, l, mhz))
		k->stats.freq_requests_refused++;
	else
		k->txn_busy[l] = 1; /* its end is the policy's POSTCHANGE (service_cpufreq) */
}

/* The caller asleep in the driver goes on; a transaction just over is the policy's
 * CPUFREQ_POSTCHANGE. */
static void service_cpufreq(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	bls_cpufreq_service(&k->cpufreq, cpu, l);
	const int busy = bls_cpufreq_phase(&k->cpufreq, l) != BLS_CPUFREQ_IDLE;
	/* A switch given up: the logical CPU stayed, at its cluster's clock. */
	const int stayed = bls_switcher_take_aborted(&k->sw, l);
	if (stayed)
		bls_cpufreq_switch_failed(&k->cpufreq, l, bls_switcher_cluster_of(&k->sw, l));
	/* A transaction that failed is POSTCHANGE with the old frequency: cur stays, and the
	 * governor asks again. */
	const int failed = bls_cpufreq_take_failed(&k->cpufreq, l);
	if ((k->txn_busy[l] && !busy && !failed) || stayed) {
		const unsigned mhz = k->cpufreq.request_mhz[l];
		bls_governor_freq_changed(&k->gov, l, mhz, now(k, cpu));
		k->ops->trace(k->plat, cpu, BLS_TRACE_CPU_FREQUENCY, l, mhz);
	}
	if (failed)
		bls_governor_freq_failed(&k->gov, l, now(k, cpu));
	k->txn_busy[l] = busy;
}

/* --- turning the switcher on and off: the kernel's part (bls/switcher.h) --------------------- */

static void route_logical(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	bls_gic_route_spi(&k->cfg.hw, cpu, BLS_IRQ_DOORBELL(l), bls_switcher_host_of(&k->sw, l));
}

/* The logical CPUs changed: the scheduler's online set and the cpufreq policies follow. */
static void logical_cpus_changed(struct bls_kernel *k, unsigned cpu)
{
	const uint64_t t = now(k, cpu);
	k->kick |= bls_sched_set_online(&k->sched, online_mask(k), t);
	build_policies(k, t);
	flush_sched_events(k, cpu);
}

/* A frequency transaction in flight on a logical CPU: the switcher stays on until it ends. */
static int cpufreq_in_flight(const struct bls_kernel *k)
{
	for (unsigned l = 0; l < bls_switcher_nlogical(&k->sw); l++)
		if (bls_cpufreq_phase(&k->cpufreq, l) != BLS_CPUFREQ_IDLE)
			return 1;
	return 0;
}

/* Once every pair is home, the switcher's map goes and the other CPUs come online (cpu_up:
 * each its doorbell, then the switcher lets it in). */
static void finish_disable(struct bls_kernel *k, unsigned cpu)
{
	struct bls_switcher *sw = &k->sw;
	const unsigned before = bls_switcher_nlogical(sw);
	if (cpufreq_in_flight(k) || bls_switcher_disable(sw) != 0)
		return; /* not yet */
	k->disabling = 0;
	k->onlining = 1;
	bls_cpufreq_set_switching(&k->cpufreq, 0);
	int rc = bls_sched_set_placement(&k->sched, placement_of(k->mode), now(k, cpu));
	BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
	for (unsigned c = before; c < k->cfg.hw.ncpus; c++) {
		route_logical(k, cpu, c);
		bls_switcher_bring_online(sw, cpu, c);
	}
	logical_cpus_changed(k, cpu);
	k->onlining = 0;
	/* A request that waited for us is taken at a scheduling point: kick the lead's. */
	if (k->mode_mailbox && bls_switcher_host_of(&k->sw, k->lead) != cpu)
		bls_gic_send_sgi(&k->cfg.hw, cpu, bls_switcher_host_of(&k->sw, k->lead), BLS_SGI_KICK);
}

/* The mode is now @m (traced where it is taken). */
static void enter_mode(struct bls_kernel *k, unsigned cpu, enum bls_mode m)
{
	const enum bls_mode old = k->mode;
	k->mode = m;
	k->cm_cluster = -1;
	k->ops->trace(k->plat, cpu, BLS_TRACE_MODE, m, old);
}

/* Every CPU going offline has stopped: the switcher turns on, those CPUs leave (their tasks
 * move to the logical CPUs that remain); a kick wakes each to notice. */
static void finish_enable(struct bls_kernel *k, unsigned cpu)
{
	struct bls_switcher *sw = &k->sw;
	const unsigned before = bls_switcher_nlogical(sw);
	int rc = bls_switcher_enable(sw);
	BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
	for (unsigned c = bls_switcher_nlogical(sw); c < before; c++) {
		if (c != cpu)
			bls_gic_send_sgi(&k->cfg.hw, cpu, c, BLS_SGI_KICK);
		k->unkilled |= 1u << c;
	}
	k->stopped = 0;
	bls_cpufreq_set_switching(&k->cpufreq, 1);
	logical_cpus_changed(k, cpu);
}

/* @cpu, at a scheduling point, stops if it is going offline: as cpu_down's stopper
 * (take_cpu_down, migrate_tasks) it leaves the scheduler's online set, and what it held,
 * queued, running or asleep, moves to the CPUs that stay. It holds nothing from then on, so a
 * CPU that the others wait for (its power-up failed, say) delays only the switcher, not the
 * tasks. The last to stop (or the caller, when none has to) turns the switcher on. */
static void stop_dying(struct bls_kernel *k, unsigned cpu)
{
	if (k->dying >> cpu & 1u) {
		const uint64_t t = now(k, cpu);
		k->dying &= ~(1u << cpu);
		k->stopped |= 1u << cpu;
		/* Its timers that are due fire here first (their tasks wake on the CPUs that stay):
		 * moved still pending, one could land on a CPU that has just handled that very
		 * deadline, which would program it again for ever. */
		k->kick |= bls_sched_expire(&k->sched, cpu, t);
		k->kick |= bls_sched_set_online(&k->sched, online_mask(k) & ~k->stopped, t);
		flush_sched_events(k, cpu);
	}
	if (!k->dying)
		finish_enable(k, cpu);
	send_kicks(k, cpu, (int)cpu);
}

/* The switcher on: the partners and unpaired CPUs go offline. Each stops running tasks first
 * (as cpu_down's stopper would), at its own scheduling point; the last to stop turns the
 * switcher on (finish_enable). */
static void begin_enable(struct bls_kernel *k, unsigned cpu)
{
	int rc = bls_sched_set_placement(&k->sched, BLS_PLACE_FAIR, now(k, cpu));
	BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
	k->dying = bls_switcher_outgoing(&k->sw) & ~k->cfg.offline;
	k->stopped = 0;
	/* sched_cpu_deactivate first, from here: nothing new is placed on a CPU going offline
	 * while it makes its way to its scheduling point. */
	rc = bls_sched_set_active(&k->sched, online_mask(k) & ~k->dying);
	BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
	for (unsigned c = 0; c < 32; c++)
		if ((k->dying >> c & 1u) && c != cpu)
			bls_gic_send_sgi(&k->cfg.hw, cpu, c, BLS_SGI_KICK);
	stop_dying(k, cpu);
}

/* The switcher off: every logical CPU back to its boot cluster first (the cpufreq driver
 * stops switching: a transaction in flight finishes without one); the placement changes once
 * the other CPUs are online (finish_disable). */
static void begin_disable(struct bls_kernel *k, unsigned cpu)
{
	k->disabling = 1;
	bls_cpufreq_set_switching(&k->cpufreq, 0);
	bls_switcher_bring_home(&k->sw, cpu);
	finish_disable(k, cpu);
}

static void take_mode_request(struct bls_kernel *k, unsigned cpu)
{
	struct bls_switcher *sw = &k->sw;
	/* A request waits until the switcher is off, or on: on means every CPU it took
	 * offline has reached its power-down, as bL_switcher_enable's cpu_down waits for the
	 * CPU's death (__cpu_die, cpu_kill). Otherwise the switcher turned off at once would
	 * power up (MCPM) a CPU whose power-down, already overtaken by a switch's power-up
	 * (use_count 2), is yet to come: use_count 3. */
	if (!k->mode_mailbox || k->disabling || k->onlining || k->dying || k->unkilled)
		return;
	const enum bls_mode want = (enum bls_mode)k->mode_mailbox;
	k->mode_mailbox = 0;
	if (want == k->mode)
		return;
	const int on = bls_switcher_active(sw);
	enter_mode(k, cpu, want);
	if (bls_mode_switched(want) && !on) {
		begin_enable(k, cpu);
	} else if (!bls_mode_switched(want) && on) {
		begin_disable(k, cpu);
	} else if (on) {
		/* IKS <-> cluster migration: the same logical CPUs, the policies regrouped. */
		build_policies(k, now(k, cpu));
	} else {
		/* Among SMP, HMP and EAS: the scheduler's placement. */
		int rc = bls_sched_set_placement(&k->sched, placement_of(want), now(k, cpu));
		BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
	}
}

/* Userspace's sysfs writes to the governor, taken on logical CPU 0. */
static void take_tunables(struct bls_kernel *k, unsigned cpu)
{
	if (k->tunables_posted) {
		k->tunables_posted = 0;
		k->gov.tun = k->posted_tunables;
	}
	if (k->boostpulse_posted) {
		k->boostpulse_posted = 0;
		bls_governor_boostpulse(&k->gov, now(k, cpu));
	}
}

/* --- interrupts ----------------------------------------------------------------------------- */

/* The power controller gave up an attempt to power CPUs up (PWC_STATUS's power-up errors): a
 * switch's inbound ends its switch (its outbound gives up and withdraws the power-up); any
 * other CPU is one an interrupt was waking (an idle CPU's timer, a CPU coming online), which
 * the power controller goes on trying to power up by itself. */
static void power_up_failed(struct bls_kernel *k, unsigned cpu, uint32_t status)
{
	const struct bls_hw *hw = &k->cfg.hw;
	for (unsigned c = 0; c < hw->ncpus; c++) {
		if (!(status & bls_spc_stat_pwrup_err(hw, c)))
			continue;
		k->ops->trace(k->plat, cpu, BLS_TRACE_GUEST_ERROR, BLS_GUEST_POWER_UP_FAILED, c);
		bls_mcpm_cpu_power_up_failed(&k->mcpm, cpu, c);
		bls_switcher_inbound_failed(&k->sw, cpu, c);
	}
}

static void handle_irqs(struct bls_kernel *k, unsigned cpu)
{
	const struct bls_hw *hw = &k->cfg.hw;
	for (;;) {
		const uint32_t iar = k->ops->mmio_read32(k->plat, cpu, hw->gic_cpu_base + BLS_GICC_IAR);
		const uint32_t irq = iar & 0x3ffu;
		if (irq >= 1020u)
			break; /* nothing (more) pending; a spurious interrupt ends here too, as in
				* Linux's gic_handle_irq */
		if (irq == hw->timer_ppi) {
			/* Our deadline: lower the (level) line; what is due is found below, and the
			 * timer reprogrammed before we run or idle. */
			const uint64_t fired = k->ops->timer_get(k->plat, cpu);
			k->timer_refired[cpu] = fired == k->timer_fired[cpu];
			k->timer_fired[cpu] = fired;
			k->ops->timer_set(k->plat, cpu, BLS_TIMER_OFF);
			k->stats.timer_irqs++;
		} else if (irq == BLS_SGI_INBOUND_ALIVE) {
			bls_switcher_alive(&k->sw, cpu);
		} else if (irq == hw->spc_irq) {
			/* The power controller answered: wake the callers that can go on, each on
			 * its own logical CPU; and a power-up it gave up on is retried, or, for a
			 * switch's inbound, the switch given up. */
			const uint32_t status = bls_spc_read_status(hw, cpu);
			k->kick |= bls_cpufreq_complete(&k->cpufreq, cpu, status);
			if (status & BLS_SPC_STAT_PWRUP_ERR_ALL)
				power_up_failed(k, cpu, status);
		} else if (irq >= 32u) {
			/* A doorbell: its request is taken below. It must have reached the logical
			 * CPU it is for. */
			const int l = bls_switcher_logical_of(&k->sw, cpu);
			k->ops->trace(k->plat, cpu, BLS_TRACE_IRQ_HANDLED, l < 0 ? ~0u : (unsigned)l, irq);
		}
		k->ops->mmio_write32(k->plat, cpu, hw->gic_cpu_base + BLS_GICC_EOIR, iar);
	}
}

/* --- power ---------------------------------------------------------------------------------- */

/* The deepest idle state: @cpu powers down through MCPM and comes back when an interrupt
 * (its timer, a kick) wakes it. */
static void cpu_power_cycle(struct bls_kernel *k, unsigned cpu)
{
	/* Our own gate stays open with the resume vector, so that an interrupt waking us lets
	 * us straight back in. */
	bls_mcpm_set_entry_vector(&k->mcpm, cpu, cpu, BLS_KERNEL_RESUME_VECTOR);
	uint32_t vector = bls_mcpm_cpu_power_down(&k->mcpm, cpu);
	/* The switcher may have been turned off while we went down, before we ever reached the
	 * offline path (at boot): its "come online" vector then overwrote ours. Either way we
	 * resume as the logical CPU we are. */
	BLS_CHECK(&k->cfg.hw, cpu, vector == BLS_KERNEL_RESUME_VECTOR || vector == BLS_VECTOR_ONLINE);
	bls_mcpm_set_entry_vector(&k->mcpm, cpu, cpu, 0);
	bls_mcpm_cpu_powered_up(&k->mcpm, cpu);
	bls_gic_cpu_init(&k->cfg.hw, cpu);
}

/* A CPU that was powered down has passed its gate with @vector: carry on as it says. */
static void resume(struct bls_kernel *k, unsigned cpu, uint32_t vector)
{
	if (vector == BLS_VECTOR_SWITCH) {
		bls_switcher_inbound(&k->sw, cpu);
		return;
	}
	/* BLS_VECTOR_ONLINE: the switcher went off; this CPU is a logical CPU of its own. */
	BLS_CHECK(&k->cfg.hw, cpu, vector == BLS_VECTOR_ONLINE);
	bls_mcpm_set_entry_vector(&k->mcpm, cpu, cpu, 0);
	bls_mcpm_cpu_powered_up(&k->mcpm, cpu);
	bls_gic_cpu_init(&k->cfg.hw, cpu);
	k->ops->cpu_irq_mask(k->plat, cpu, 0);
}

/* --- timers --------------------------------------------------------------------------------- */

/* The earliest deadline of logical CPU @l: the scheduler's, and the governor's (its sampling
 * one only while busy: deferrable). */
static uint64_t next_deadline(struct bls_kernel *k, unsigned l, int idle)
{
	const uint64_t s = bls_sched_next_deadline(&k->sched, l);
	const uint64_t g = bls_governor_deadline(&k->gov, l, idle);
	/* A switch waiting for its inbound, with a timeout (only with faults injected). */
	const uint64_t w = bls_switcher_deadline(&k->sw, l);
	const uint64_t sg = s < g ? s : g;
	return w < sg ? w : sg;
}

static void program_timer(struct bls_kernel *k, unsigned cpu, uint64_t deadline)
{
	/* A deadline whose interrupt was handled has been dealt with: whatever it was for has
	 * moved on. Programming it again would fire at once, for ever (a storm of timer
	 * interrupts that starves the tasks): a kernel bug. Once is allowed: a balance tick
	 * that found one task (CFS keeps it due for a second) is due again when a task that
	 * left in between comes back, and handled then; a deadline that fires twice and is
	 * still asked for is the storm. */
	BLS_CHECK(&k->cfg.hw, cpu,
		  deadline == BLS_TIMER_OFF || deadline != k->timer_fired[cpu] || !k->timer_refired[cpu]);
	if (k->ops->timer_get(k->plat, cpu) != deadline)
		k->ops->timer_set(k->plat, cpu, deadline);
}

/* Load tracking's scale for @l where it runs now. */
static double capacity_scale(const struct bls_kernel *k, unsigned cpu)
{
	const unsigned c = k->cfg.hw.cpu_cluster[cpu];
	const unsigned n = k->cfg.cpufreq.nopps[c];
	const double top = k->cfg.cpufreq.opp_mhz[c][n - 1];
	double scale = 1.0;
	if (k->cfg.cpu_invariant)
		scale *= k->cfg.capacity_dmips_mhz[c] * top / k->ref_capacity;
	if (k->cfg.freq_invariant)
		scale *= bls_cpufreq_cluster_mhz(&k->cpufreq, c) / top;
	return scale;
}

/* What is due on logical CPU @l at its scheduling point: sleepers to wake, the governor's
 * sample, periodic balancing. */
static void run_timers(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	const uint64_t t = now(k, cpu);
	bls_sched_set_scale(&k->sched, l, t, capacity_scale(k, cpu));
	k->kick |= bls_sched_expire(&k->sched, l, t);
	bls_governor_run(&k->gov, l, t);
	/* A sample re-arms its deadlines later than now: one due again at once would run again
	 * at every scheduling point, for ever (a governor bug). */
	BLS_CHECK(&k->cfg.hw, cpu, bls_governor_deadline(&k->gov, l, 0) > t);
	k->kick |= bls_sched_balance(&k->sched, l, t);
	flush_sched_events(k, cpu);
}

/* --- tasks ---------------------------------------------------------------------------------- */

static void workload_failed(struct bls_kernel *k, unsigned cpu, unsigned l, unsigned t)
{
	k->stats.workload_errors++;
	k->ops->trace(k->plat, cpu, BLS_TRACE_GUEST_ERROR, BLS_GUEST_WORKLOAD, t);
	bls_sched_exit(&k->sched, l, now(k, cpu));
}

static int fractions_valid(const struct bls_step *st)
{
	return st->mem_fraction >= 0.0 && st->mem_fraction <= 1.0 && st->write_fraction >= 0.0 &&
	       st->write_fraction <= 1.0;
}

/* Whether @st is a step the workload may ask for (NaNs are not). */
static int step_valid(const struct bls_kernel *k, const struct bls_step *st)
{
	switch (st->kind) {
	case BLS_STEP_RUN:
		return st->ref_ns >= 0.0 && fractions_valid(st);
	case BLS_STEP_SPIN:
		return fractions_valid(st);
	case BLS_STEP_BLOCK:
	case BLS_STEP_SIGNAL:
	case BLS_STEP_BROADCAST:
		return st->event < BLS_MAX_EVENTS;
	case BLS_STEP_FORK:
		/* Only a task held back for a fork, not started yet. */
		return st->task < k->sched.ntasks && k->cfg.forked[st->task] &&
		       k->sched.task[st->task].state == BLS_TASK_NEW;
	case BLS_STEP_SLEEP:
	case BLS_STEP_EXIT:
	case BLS_STEP_AFFINITY:
	case BLS_STEP_GROUP:
	case BLS_STEP_YIELD:
		return 1;
	default:
		return 0;
	}
}

/* What taking a step left to do: ask for the next one at once (it took no time), nothing
 * (the task has work to run, or stopped being runnable here), or fail the workload. */
enum step_taken { STEP_AGAIN, STEP_DONE, STEP_FAILED };

/* Task @t, running on @l, takes valid step @st at @tnow. */
static enum step_taken take_step(struct bls_kernel *k, unsigned l, unsigned t, const struct bls_step *st,
				 uint64_t tnow)
{
	switch (st->kind) {
	case BLS_STEP_RUN:
		if (st->ref_ns <= BLS_WORK_EPSILON_NS)
			return STEP_AGAIN;
		k->left_ref_ns[t] = st->ref_ns;
		k->has_step[t] = 1;
		return STEP_DONE;
	case BLS_STEP_SPIN:
		if (st->until_ns <= tnow)
			return STEP_AGAIN;
		k->has_step[t] = 1;
		return STEP_DONE;
	case BLS_STEP_SLEEP:
		if (st->until_ns <= tnow)
			return STEP_AGAIN; /* already past: nanosleep returns at once */
		if (st->io)
			bls_sched_sleep_io(&k->sched, l, tnow, st->until_ns);
		else
			bls_sched_sleep(&k->sched, l, tnow, st->until_ns);
		return STEP_DONE;
	case BLS_STEP_BLOCK:
		bls_sched_block(&k->sched, l, tnow, st->event);
		return STEP_DONE;
	case BLS_STEP_SIGNAL:
	case BLS_STEP_BROADCAST:
		k->kick |= bls_sched_signal(&k->sched, st->event, st->kind == BLS_STEP_BROADCAST, tnow);
		return STEP_AGAIN;
	case BLS_STEP_EXIT:
		bls_sched_exit(&k->sched, l, tnow);
		return STEP_DONE;
	case BLS_STEP_AFFINITY: {
		const uint32_t moved = bls_sched_set_affinity(&k->sched, l, tnow, st->affinity);
		if (!moved)
			return STEP_AGAIN;
		/* It goes on where it was sent; its next step is asked for there. */
		k->kick |= moved;
		k->has_step[t] = 0;
		return STEP_DONE;
	}
	case BLS_STEP_FORK:
		/* Placed as a new task (wake_up_new_task). */
		k->kick |= 1u << bls_sched_wake(&k->sched, st->task, tnow, tnow);
		return STEP_AGAIN;
	case BLS_STEP_GROUP:
		return bls_sched_set_group(&k->sched, l, tnow, st->group) != 0 ? STEP_FAILED : STEP_AGAIN;
	case BLS_STEP_YIELD:
		bls_sched_yield(&k->sched, l, tnow);
		k->has_step[t] = 0; /* its next step when it runs again */
		return STEP_DONE;
	default:
		return STEP_FAILED;
	}
}

/* Task @t, running on @l, finished its step: ask its workload what it does next until it has
 * work to run or stops being runnable. */
static void next_step(struct bls_kernel *k, unsigned cpu, unsigned l, unsigned t)
{
	for (unsigned i = 0; i < BLS_MAX_INSTANT_STEPS; i++) {
		const uint64_t tnow = now(k, cpu);
		struct bls_step *st = &k->step[t];
		memset(st, 0, sizeof(*st));
		k->task_stats[t].steps++;
		if (k->wl->next(k->wl_ctx, t, tnow, st) != 0 || !step_valid(k, st))
			break;
		const enum step_taken r = take_step(k, l, t, st, tnow);
		if (r == STEP_FAILED)
			break;
		if (r == STEP_DONE)
			return;
	}
	workload_failed(k, cpu, l, t);
}

/* Run task @t's current step on @cpu until it is done or an interrupt arrives. Returns 1
 * when interrupted. */
static int run_task(struct bls_kernel *k, unsigned cpu, unsigned l, unsigned t)
{
	if (!k->has_step[t]) {
		next_step(k, cpu, l, t);
		return 0;
	}
	const struct bls_step *st = &k->step[t];
	double ref_ns = k->left_ref_ns[t];
	if (st->kind == BLS_STEP_SPIN) {
		/* Busy until a time: the CPU's timer (armed for it) ends the work; as much as
		 * would take that long on the reference CPU is more than enough anywhere. */
		const uint64_t tnow = now(k, cpu);
		if (tnow >= st->until_ns) {
			k->has_step[t] = 0;
			next_step(k, cpu, l, t);
			return 0;
		}
		ref_ns = (double)(st->until_ns - tnow);
	}
	struct bls_work w = {
		.ref_ns = ref_ns,
		.mem_fraction = st->mem_fraction,
		.ctx = t,
		.working_set_kb = st->working_set_kb,
		.write_fraction = st->write_fraction,
	};
	double done = 0.0;
	int rc = k->ops->cpu_execute(k->plat, cpu, &w, &done);
	BLS_CHECK(&k->cfg.hw, cpu, done >= 0.0 && done <= w.ref_ns * (1.0 + 1e-12));
	if (done > w.ref_ns)
		done = w.ref_ns;
	k->task_stats[t].done_ref_ns += done;
	if (st->kind == BLS_STEP_RUN) {
		k->left_ref_ns[t] -= done;
		if (k->left_ref_ns[t] <= BLS_WORK_EPSILON_NS)
			k->has_step[t] = 0;
	}
	if (rc == -BLS_EINTR)
		return 1;
	BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
	return 0;
}

/* Nothing runnable on @l: the cpuidle governor chooses an idle state from the next deadline,
 * the tasks in I/O wait and the past idle periods, and the CPU enters it. */
static void do_idle(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	uint64_t t = now(k, cpu);
	const unsigned cluster = k->cfg.hw.cpu_cluster[cpu];
	bls_governor_idle(&k->gov, l, 1, t);
	const uint64_t deadline = next_deadline(k, l, 1);
	program_timer(k, cpu, deadline);
	const uint64_t next_timer = deadline == BLS_NO_DEADLINE ? UINT64_MAX : deadline > t ? deadline - t : 0;
	unsigned idx = bls_cpuidle_select(&k->cpuidle, l, cluster, next_timer, bls_sched_nr_iowait(&k->sched, l));
	/* A CPU with a switch or a frequency transaction in flight stays reachable in WFI. */
	if (bls_switcher_pending(&k->sw, cpu) || k->mailbox_mhz[l] ||
	    bls_cpufreq_phase(&k->cpufreq, l) != BLS_CPUFREQ_IDLE)
		idx = 0;
	const enum bls_idle_kind kind = k->cfg.cpuidle.state[cluster][idx].kind;
	/* Interrupts off for the way down and back, as Linux's idle loop has them: a pending
	 * one wakes WFI and the power controller, but not MCPM's WFE loops. */
	k->ops->cpu_irq_mask(k->plat, cpu, 1);
	bls_cpuidle_enter(&k->cpuidle, cpu, cluster, l, idx, t);
	k->ops->trace(k->plat, cpu, BLS_TRACE_CPU_IDLE, idx, l);
	if (kind == BLS_IDLE_POWER_DOWN)
		cpu_power_cycle(k, cpu);
	else
		k->ops->cpu_wait_for_interrupt(k->plat, cpu);
	t = now(k, cpu);
	bls_cpuidle_exit(&k->cpuidle, cpu, t);
	k->ops->trace(k->plat, cpu, BLS_TRACE_CPU_IDLE, ~0u, l);
	k->ops->cpu_irq_mask(k->plat, cpu, 0);
}

/* --- boot ----------------------------------------------------------------------------------- */

static void boot(struct bls_kernel *k, unsigned cpu)
{
	const struct bls_hw *hw = &k->cfg.hw;
	if (cpu == k->cfg.boot_cpu) {
		/* What boot firmware does before the kernel: every cluster, all of whose
		 * CPUs come out of reset running, joins the coherency domain. */
		for (unsigned c = 0; c < hw->nclusters; c++)
			bls_cci_port_control(hw, cpu, c, 1);
		bls_mcpm_sync_init(&k->mcpm, cpu);
		bls_gic_dist_init(hw, cpu);
		/* Each logical CPU's doorbell goes to the CPU hosting it; the power controller's
		 * (level-sensitive) interrupt to logical CPU 0's. */
		for (unsigned l = 0; l < bls_switcher_nlogical(&k->sw); l++)
			route_logical(k, cpu, l);
		bls_gic_set_level_triggered(hw, cpu, hw->spc_irq);
		uint32_t spc_targets = 1u << bls_switcher_host_of(&k->sw, k->lead);
		if (k->cfg.spc_irq_any_cpu)
			for (unsigned l = 0; l < bls_switcher_nlogical(&k->sw); l++)
				if (!hotplugged_out(k, (int)l))
					spc_targets |= 1u << bls_switcher_host_of(&k->sw, l);
		bls_gic_route_spi_to(hw, cpu, hw->spc_irq, spc_targets);
		/* Clock settings of the boot command line, then the governor on every policy,
		 * then init starts the tasks. */
		for (unsigned c = 0; c < hw->nclusters; c++)
			if (k->cfg.boot_mhz[c]) {
				int rc = bls_cpufreq_set_cluster(&k->cpufreq, cpu, c, k->cfg.boot_mhz[c]);
				BLS_CHECK(hw, cpu, rc == 0); /* validated before boot */
			}
		const uint64_t t = now(k, cpu);
		k->ops->trace(k->plat, cpu, BLS_TRACE_MODE, k->mode, 0);
		build_policies(k, t);
		for (unsigned i = 0; i < k->sched.ntasks; i++)
			if (!k->cfg.forked[i])
				k->kick |= 1u << bls_sched_wake(&k->sched, i, t, t);
		flush_sched_events(k, cpu);
		/* dsb; store; sev: the others must see the flag no earlier than the
		 * distributor is up. */
		k->ops->cpu_dsb(k->plat, cpu);
		k->booted = 1;
		k->ops->cpu_send_event(k->plat, cpu);
	} else {
		/* Secondaries wait for the boot CPU, as a holding pen would keep them. */
		while (!k->booted)
			k->ops->cpu_wait_for_event(k->plat, cpu);
	}
	bls_gic_cpu_init(hw, cpu);
}

/* --- the run loop --------------------------------------------------------------------------- */

/* Offline: the partner of a logical CPU's host, or unpaired, or hotplugged out (then no vector
 * ever comes: it stays down). Our timer stops; whatever woke us is acknowledged first (a
 * pending interrupt would wake us again at once); then wait, powered down, to be the inbound
 * of a switch, or to be brought online. */
static void stay_offline(struct bls_kernel *k, unsigned cpu, int interrupted)
{
	if (k->ops->timer_get(k->plat, cpu) != BLS_TIMER_OFF)
		k->ops->timer_set(k->plat, cpu, BLS_TIMER_OFF);
	if (interrupted)
		handle_irqs(k, cpu);
	if (k->unkilled >> cpu & 1u) {
		/* cpu_die: on its way down now. A mode change that waited for it is taken at
		 * the lead's next scheduling point. */
		k->unkilled &= ~(1u << cpu);
		if (!k->unkilled && k->mode_mailbox)
			bls_gic_send_sgi(&k->cfg.hw, cpu, bls_switcher_host_of(&k->sw, k->lead), BLS_SGI_KICK);
	}
	resume(k, cpu, bls_switcher_offline(&k->sw, cpu));
}

/* Stopped, out of the scheduler's online set, for the switcher to turn on: it holds no task
 * to strand, and waits. */
static void wait_stopped(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	BLS_CHECK(&k->cfg.hw, cpu, !(k->sched.online >> l & 1u) && k->sched.rq[l].nr_running == 0 &&
					   k->sched.rq[l].curr < 0);
	k->ops->cpu_wait_for_interrupt(k->plat, cpu);
}

/* A caller asleep in the cpufreq driver whose request was answered goes on (the switch
 * request, the old cluster's clock); then userspace's writes, the governor's next request,
 * and a mode change. A clock already at its rate answers at once. Returns 0 when @cpu no
 * longer runs @l: it turned the switcher on, and is going offline. */
static int take_requests(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	service_cpufreq(k, cpu, l);
	if (l == k->lead)
		take_tunables(k, cpu);
	take_frequency_request(k, cpu, l);
	service_cpufreq(k, cpu, l);
	take_mode_request(k, cpu);
	if ((k->stopped >> cpu & 1u) || bls_switcher_logical_of(&k->sw, cpu) != (int)l)
		return 0;
	if (k->disabling)
		finish_disable(k, cpu);
	return 1;
}

/* The kswitcher's turn: start a requested switch, or, once the inbound is alive, hand the
 * logical CPU over. Then this CPU powers down, and comes back only as the inbound of a later
 * switch. Returns 1 when @cpu no longer runs @l. */
static int kswitcher_turn(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	if (!bls_switcher_pending(&k->sw, cpu))
		return 0;
	const uint32_t v = bls_switcher_service(&k->sw, cpu);
	if (v) {
		resume(k, cpu, v);
		return 1;
	}
	return bls_switcher_logical_of(&k->sw, cpu) != (int)l;
}

/* The governor just asked (in its sample): start it before running on. Returns 1 when a
 * switch it leads to at once (the clock already right) is the kswitcher's turn now, as its
 * real-time thread would preempt the task: not at the next interrupt. */
static int start_sampled_request(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	if (!k->mailbox_mhz[l] || bls_cpufreq_phase(&k->cpufreq, l) != BLS_CPUFREQ_IDLE)
		return 0;
	take_frequency_request(k, cpu, l);
	service_cpufreq(k, cpu, l);
	return bls_switcher_pending(&k->sw, cpu);
}

/* The most entitled task of @l, or -1. No task lost: this run queue at each of its scheduling
 * points; every task at the first ones and every bls_sched_full_check_every() after (that
 * check costs the task count). */
static int pick_task(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	const int t = bls_sched_pick(&k->sched, l, now(k, cpu));
	const uint64_t p = ++k->picks;
	BLS_CHECK(&k->cfg.hw, cpu,
		  (p % bls_sched_full_check_every(&k->sched) && (p & (p - 1)) ? bls_sched_rq_consistent(&k->sched, l)
								    : bls_sched_no_task_lost(&k->sched)) &&
			  "no task lost: each is on an online run queue that counts it");
	flush_sched_events(k, cpu);
	return t;
}

/* Nothing runnable: pull from a busier CPU, or idle until a deadline or an interrupt.
 * Returns 1 when it idled (an interrupt woke it), 0 when it pulled something it may run. */
static int pull_or_idle(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	k->kick |= bls_sched_balance(&k->sched, l, now(k, cpu));
	flush_sched_events(k, cpu);
	if (bls_sched_runnable(&k->sched, l))
		return 0;
	send_kicks(k, cpu, (int)l); /* an idle pull asked of another CPU */
	do_idle(k, cpu, l);
	bls_governor_idle(&k->gov, l, 0, now(k, cpu));
	return 1;
}

/* Run task @t on @l until its step is done or an interrupt arrives (returns 1 then), the
 * timer programmed for the earliest deadline. */
static int run_picked(struct bls_kernel *k, unsigned cpu, unsigned l, unsigned t)
{
	uint64_t deadline = next_deadline(k, l, 0);
	if (k->has_step[t] && k->step[t].kind == BLS_STEP_SPIN && k->step[t].until_ns < deadline &&
	    k->step[t].until_ns > now(k, cpu))
		deadline = k->step[t].until_ns; /* a spin ends on the clock (one over is ended by
						 * run_task, without arming a timer) */
	program_timer(k, cpu, deadline);
	const int interrupted = run_task(k, cpu, l, t);
	send_kicks(k, cpu, (int)l);
	flush_sched_events(k, cpu);
	return interrupted;
}

/* A scheduling point of logical CPU @l on its host @cpu, the interrupts first when one may be
 * pending (@interrupted). Returns whether one may be pending at the next. */
static int scheduling_point(struct bls_kernel *k, unsigned cpu, unsigned l, int interrupted)
{
	if (interrupted)
		handle_irqs(k, cpu);
	/* The switcher turning on: a CPU going offline stops here, between tasks, and waits for
	 * the others (the last turns it on, and kicks it). */
	if (k->dying >> cpu & 1u) {
		stop_dying(k, cpu);
		return 1; /* offline now, or waiting below */
	}
	if (k->stopped >> cpu & 1u) {
		wait_stopped(k, cpu, l);
		return 1;
	}
	if (!take_requests(k, cpu, l) || kswitcher_turn(k, cpu, l))
		return 1;
	/* Timers: wake-ups, the governor's sample, balancing. */
	run_timers(k, cpu, l);
	if (start_sampled_request(k, cpu, l))
		return 0;
	send_kicks(k, cpu, (int)l);
	const int t = pick_task(k, cpu, l);
	if (t < 0)
		return pull_or_idle(k, cpu, l);
	return run_picked(k, cpu, l, (unsigned)t);
}

void bls_kernel_cpu_main(struct bls_kernel *k, unsigned cpu)
{
	BLS_CHECK(&k->cfg.hw, cpu, cpu < k->cfg.hw.ncpus);
	boot(k, cpu);

	int interrupted = 1; /* look once at boot */
	for (;;) {
		const int l = bls_switcher_logical_of(&k->sw, cpu);
		if (l < 0 || hotplugged_out(k, l)) {
			stay_offline(k, cpu, interrupted);
			interrupted = 1;
			continue;
		}
		interrupted = scheduling_point(k, cpu, (unsigned)l, interrupted);
	}
}
