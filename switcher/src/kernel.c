/* switcher/src/kernel.c -- the per-CPU run loop; see bls/kernel.h for the contract. */
#include "bls/kernel.h"

#include <string.h>

#include "bls/check.h"

/* Work left below this (in reference nanoseconds) is rounding noise from the platform's
 * floating-point progress accounting, not work. */
#define BLS_WORK_EPSILON_NS 1e-6

int bls_kernel_init(struct bls_kernel *k, const struct bls_kernel_config *cfg,
		    const struct bls_platform_ops *ops, void *plat, struct bls_governor *gov)
{
	if (!k || !cfg)
		return -BLS_EINVAL;
	if (bls_platform_ops_check(ops))
		return -BLS_ENOSYS;
	const struct bls_hw *hw = &cfg->hw;
	if (hw->ncpus == 0 || hw->ncpus > BLS_MAX_CPUS || cfg->boot_cpu >= hw->ncpus ||
	    hw->nclusters == 0 || hw->nclusters > BLS_MAX_CLUSTERS || cfg->ntasks > BLS_MAX_TASKS ||
	    hw->timer_ppi < 16 || hw->timer_ppi > 31)
		return -BLS_EINVAL;
	for (unsigned c = 0; c < hw->ncpus; c++)
		if (hw->cpu_cluster[c] >= hw->nclusters)
			return -BLS_EINVAL;
	if (gov && (!gov->ops || !gov->ops->start))
		return -BLS_EINVAL;

	memset(k, 0, sizeof(*k));
	k->activity_mailbox = -1;
	k->ops = ops;
	k->plat = plat;
	k->gov = gov;
	k->cfg = *cfg;
	k->cfg.hw.ops = ops;
	k->cfg.hw.plat = plat;

	/* Every CPU comes out of reset running, its cluster coherent. */
	int rc = bls_mcpm_init(&k->mcpm, &k->cfg.hw, &bls_mcpm_tc2);
	if (rc)
		return rc;
	struct bls_switcher_config swc = cfg->switcher;
	swc.boot_cluster = hw->cpu_cluster[cfg->boot_cpu];
	if (bls_switcher_init(&k->sw, &k->cfg.hw, &k->mcpm, &swc))
		return -BLS_EINVAL;
	const unsigned nlogical = bls_switcher_nlogical(&k->sw);
	if (nlogical > 16) /* the doorbell SPIs follow the timers' */
		return -BLS_EINVAL;
	if (hw->spc_irq < 64 || hw->spc_irq >= hw->gic_nirqs) /* an SPI after the doorbells */
		return -BLS_EINVAL;
	if (bls_cpufreq_init(&k->cpufreq, &k->cfg.hw, &k->sw, &cfg->cpufreq))
		return -BLS_EINVAL;
	if (gov) {
		gov->cpufreq = &k->cpufreq;
		gov->cpu = cfg->boot_cpu;
	}

	for (unsigned t = 0; t < cfg->ntasks; t++) {
		const struct bls_task_config *tc = &cfg->tasks[t];
		if (tc->cpu >= nlogical || !(tc->mem_fraction >= 0.0 && tc->mem_fraction <= 1.0) ||
		    !(tc->write_fraction >= 0.0 && tc->write_fraction <= 1.0))
			return -BLS_EINVAL;
		k->ntasks_on[tc->cpu]++;
	}
	return 0;
}

int bls_kernel_add_work(struct bls_kernel *k, unsigned task, double ref_ns)
{
	if (task >= k->cfg.ntasks || !(ref_ns >= 0.0))
		return -BLS_EINVAL;
	k->pending_ref_ns[task] += ref_ns;
	k->stats[task].released_ref_ns += ref_ns;
	return 0;
}

int bls_kernel_post_switcher_active(struct bls_kernel *k, int active)
{
	if (k->sw.npairs == 0)
		return -BLS_EINVAL;
	k->activity_mailbox = active != 0;
	return 0;
}

int bls_kernel_post_frequency(struct bls_kernel *k, unsigned logical, unsigned mhz)
{
	if (logical >= bls_switcher_nlogical(&k->sw) || mhz == 0)
		return -BLS_EINVAL;
	k->mailbox_mhz[logical] = mhz;
	return 0;
}

/* Round robin over the tasks pinned to logical CPU @l, starting after the last one picked. */
static int pick_next_task(struct bls_kernel *k, unsigned l)
{
	unsigned n = k->cfg.ntasks;
	for (unsigned i = 0; i < n; i++) {
		unsigned t = (k->next_pick[l] + i) % n;
		if (k->cfg.tasks[t].cpu == l && k->pending_ref_ns[t] > BLS_WORK_EPSILON_NS) {
			k->next_pick[l] = (t + 1) % n;
			return (int)t;
		}
	}
	return -1;
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
		k->freq_requests_refused++;
		return;
	}
	if (bls_cpufreq_target(&k->cpufreq, cpu, l, mhz))
		k->freq_requests_refused++;
}

/* --- turning the switcher on and off (bL_switcher_enable / _disable) ------------------------- */

static void route_logical(struct bls_kernel *k, unsigned cpu, unsigned l)
{
	const unsigned host = bls_switcher_host_of(&k->sw, l);
	bls_gic_route_spi(&k->cfg.hw, cpu, BLS_IRQ_TIMER(l), host);
	bls_gic_route_spi(&k->cfg.hw, cpu, BLS_IRQ_DOORBELL(l), host);
}

/* Once every pair is home, the switcher's map goes and the other CPUs come online. */
static void finish_disable(struct bls_kernel *k, unsigned cpu)
{
	struct bls_switcher *sw = &k->sw;
	for (unsigned l = 0; l < bls_switcher_nlogical(sw); l++)
		if (bls_switcher_host_of(sw, l) != l || bls_switcher_phase(sw, l) != BLS_SWITCH_IDLE ||
		    sw->req[l].wanted >= 0)
			return; /* not yet */
	const unsigned before = bls_switcher_nlogical(sw);
	int rc = bls_switcher_set_active(sw, 0);
	BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
	k->disabling = 0;
	sw->stats.disables++;
	bls_cpufreq_set_switching(&k->cpufreq, 0);
	for (unsigned c = before; c < k->cfg.hw.ncpus; c++) {
		route_logical(k, cpu, c);
		bls_mcpm_set_entry_vector(&k->mcpm, cpu, c, BLS_VECTOR_ONLINE);
		bls_mcpm_cpu_power_up(&k->mcpm, cpu, c);
		bls_gic_send_sgi(&k->cfg.hw, cpu, c, BLS_SGI_KICK);
	}
}

static void take_activity_request(struct bls_kernel *k, unsigned cpu)
{
	struct bls_switcher *sw = &k->sw;
	const int want = k->activity_mailbox;
	if (want < 0)
		return;
	k->activity_mailbox = -1;
	if (want && !bls_switcher_active(sw) && !k->disabling) {
		/* On: the partners and unpaired CPUs go offline (their logical CPUs carry no
		 * tasks); a kick wakes each to notice. */
		const unsigned before = bls_switcher_nlogical(sw);
		int rc = bls_switcher_set_active(sw, 1);
		BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
		sw->stats.enables++;
		for (unsigned c = bls_switcher_nlogical(sw); c < before; c++)
			bls_gic_send_sgi(&k->cfg.hw, cpu, c, BLS_SGI_KICK);
		bls_cpufreq_set_switching(&k->cpufreq, 1);
	} else if (!want && bls_switcher_active(sw) && !k->disabling) {
		/* Off: every logical CPU back to its boot cluster first (the cpufreq driver stops
		 * switching: a transaction in flight finishes without one). */
		k->disabling = 1;
		bls_cpufreq_set_switching(&k->cpufreq, 0);
		const unsigned home = bls_switcher_home_cluster(sw);
		for (unsigned l = 0; l < bls_switcher_nlogical(sw); l++) {
			if (bls_switcher_cluster_of(sw, l) == home &&
			    bls_switcher_phase(sw, l) == BLS_SWITCH_IDLE) {
				sw->req[l].wanted = -1; /* a pending move away is dropped */
				continue;
			}
			bls_switch_request(sw, cpu, l, home, NULL, NULL);
			const unsigned host = bls_switcher_host_of(sw, l);
			if (host != cpu)
				bls_gic_send_sgi(&k->cfg.hw, cpu, host, BLS_SGI_KICK);
		}
		finish_disable(k, cpu);
	}
}

/* --- interrupts ----------------------------------------------------------------------------- */

static void handle_irqs(struct bls_kernel *k, unsigned cpu)
{
	const struct bls_hw *hw = &k->cfg.hw;
	for (;;) {
		const uint32_t iar = k->ops->mmio_read32(k->plat, cpu, hw->gic_cpu_base + BLS_GICC_IAR);
		const uint32_t irq = iar & 0x3ffu;
		if (irq >= 1020u)
			break; /* spurious: nothing (more) pending */
		if (irq == BLS_SGI_INBOUND_ALIVE) {
			bls_switcher_alive(&k->sw, cpu);
		} else if (irq == hw->spc_irq) {
			/* The power controller answered: wake the callers that can go on, each on
			 * its own logical CPU. */
			const uint32_t woken = bls_cpufreq_complete(&k->cpufreq, cpu);
			for (unsigned l = 0; l < BLS_MAX_CPUS; l++) {
				if (!(woken >> l & 1u))
					continue;
				const unsigned host = bls_switcher_host_of(&k->sw, l);
				if (host != cpu)
					bls_gic_send_sgi(hw, cpu, host, BLS_SGI_RESCHEDULE);
			}
		} else if (irq >= 32u) {
			/* A timer's work is already queued; a doorbell's request is taken below.
			 * Either way the interrupt must have reached the logical CPU it is for. */
			const int l = bls_switcher_logical_of(&k->sw, cpu);
			k->ops->trace(k->plat, cpu, BLS_TRACE_IRQ_HANDLED, l < 0 ? ~0u : (unsigned)l, irq);
		}
		k->ops->mmio_write32(k->plat, cpu, hw->gic_cpu_base + BLS_GICC_EOIR, iar);
	}
}

/* --- power ---------------------------------------------------------------------------------- */

/* Take @cpu offline and bring it back when the power controller wakes it. */
static void cpu_power_cycle(struct bls_kernel *k, unsigned cpu)
{
	/* cpuidle-style: our own gate stays open with the resume vector, so that an
	 * interrupt waking us lets us straight back in. */
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
		/* Each logical CPU's timer and doorbell go to the CPU hosting it; the power
		 * controller's (level-sensitive) interrupt to logical CPU 0's. */
		for (unsigned l = 0; l < bls_switcher_nlogical(&k->sw); l++)
			route_logical(k, cpu, l);
		bls_gic_set_level_triggered(hw, cpu, hw->spc_irq);
		bls_gic_route_spi(hw, cpu, hw->spc_irq, bls_switcher_host_of(&k->sw, 0));
		if (k->gov) {
			int rc = k->gov->ops->start(k->gov);
			/* The configuration was validated before boot: a refusal is a bug. */
			BLS_CHECK(hw, cpu, rc == 0);
		}
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

void bls_kernel_cpu_main(struct bls_kernel *k, unsigned cpu)
{
	BLS_CHECK(&k->cfg.hw, cpu, cpu < k->cfg.hw.ncpus);
	boot(k, cpu);

	int interrupted = 1; /* look once at boot */
	for (;;) {
		int l = bls_switcher_logical_of(&k->sw, cpu);
		if (l < 0) {
			/* Offline: the partner of a logical CPU's host, or unpaired. Whatever
			 * woke us is acknowledged first (a pending interrupt would wake us again
			 * at once); then wait, powered down, to be the inbound of a switch, or to
			 * be brought online. */
			if (interrupted)
				handle_irqs(k, cpu);
			resume(k, cpu, bls_switcher_offline(&k->sw, cpu));
			interrupted = 1;
			continue;
		}

		/* The interrupt handler. A timer's work is already queued: acknowledging is
		 * all it needs; a doorbell's request is taken right after. */
		if (interrupted) {
			handle_irqs(k, cpu);
			interrupted = 0;
		}
		/* A caller asleep in the cpufreq driver whose request was answered goes on
		 * (the switch request, the old cluster's clock); then the next request. */
		bls_cpufreq_service(&k->cpufreq, cpu, (unsigned)l);
		take_frequency_request(k, cpu, (unsigned)l);
		/* A clock already at its rate answers at once: the caller does not sleep. */
		bls_cpufreq_service(&k->cpufreq, cpu, (unsigned)l);
		take_activity_request(k, cpu);
		if (k->disabling)
			finish_disable(k, cpu);

		/* The kswitcher's turn: start a requested switch, or, once the inbound is
		 * alive, hand the logical CPU over. Then this CPU powers down, and comes back
		 * only as the inbound of a later switch. */
		if (bls_switcher_pending(&k->sw, cpu)) {
			const uint32_t v = bls_switcher_service(&k->sw, cpu);
			if (v) {
				resume(k, cpu, v);
				interrupted = 1;
				continue;
			}
		}

		int t = pick_next_task(k, (unsigned)l);
		if (t < 0) {
			/* Nothing runnable. A logical CPU no task can ever run on is taken
			 * offline, as hotplug would (unless a switch is in flight); the others
			 * idle in WFI until the next release. */
			if (k->ntasks_on[l] == 0 && !bls_switcher_pending(&k->sw, cpu))
				cpu_power_cycle(k, cpu);
			else
				k->ops->cpu_wait_for_interrupt(k->plat, cpu);
			interrupted = 1;
			continue;
		}

		const struct bls_task_config *tc = &k->cfg.tasks[t];
		struct bls_work w = {
			.ref_ns = k->pending_ref_ns[t],
			.mem_fraction = tc->mem_fraction,
			.ctx = (unsigned)t,
			.working_set_kb = tc->working_set_kb,
			.write_fraction = tc->write_fraction,
		};
		double done = 0.0;
		int rc = k->ops->cpu_execute(k->plat, cpu, &w, &done);
		BLS_CHECK(&k->cfg.hw, cpu, done >= 0.0 && done <= w.ref_ns * (1.0 + 1e-12));
		if (done > w.ref_ns)
			done = w.ref_ns;
		k->pending_ref_ns[t] -= done;
		k->stats[t].done_ref_ns += done;
		if (rc == -BLS_EINTR) {
			k->stats[t].preemptions++;
			interrupted = 1;
		} else {
			BLS_CHECK(&k->cfg.hw, cpu, rc == 0);
		}
	}
}
