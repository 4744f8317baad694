/* switcher/src/kernel.c -- the per-CPU run loop; see bls/kernel.h for the contract. */
#include "bls/kernel.h"

#include <assert.h>
#include <string.h>

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
	k->ops = ops;
	k->plat = plat;
	k->gov = gov;
	k->cfg = *cfg;
	k->cfg.hw.ops = ops;
	k->cfg.hw.plat = plat;
	for (unsigned t = 0; t < cfg->ntasks; t++) {
		const struct bls_task_config *tc = &cfg->tasks[t];
		if (tc->cpu >= hw->ncpus || !(tc->mem_fraction >= 0.0 && tc->mem_fraction <= 1.0) ||
		    !(tc->write_fraction >= 0.0 && tc->write_fraction <= 1.0))
			return -BLS_EINVAL;
		k->ntasks_on[tc->cpu]++;
	}
	/* Every CPU comes out of reset running, its cluster coherent. */
	return bls_mcpm_init(&k->mcpm, &k->cfg.hw, &bls_mcpm_tc2);
}

int bls_kernel_add_work(struct bls_kernel *k, unsigned task, double ref_ns)
{
	if (task >= k->cfg.ntasks || !(ref_ns >= 0.0))
		return -BLS_EINVAL;
	k->pending_ref_ns[task] += ref_ns;
	k->stats[task].released_ref_ns += ref_ns;
	return 0;
}

/* Round robin over the tasks pinned to @cpu, starting after the last one picked. */
static int pick_next_task(struct bls_kernel *k, unsigned cpu)
{
	unsigned n = k->cfg.ntasks;
	for (unsigned i = 0; i < n; i++) {
		unsigned t = (k->next_pick[cpu] + i) % n;
		if (k->cfg.tasks[t].cpu == cpu && k->pending_ref_ns[t] > BLS_WORK_EPSILON_NS) {
			k->next_pick[cpu] = (t + 1) % n;
			return (int)t;
		}
	}
	return -1;
}

/* Take @cpu offline and bring it back when the power controller wakes it. */
static void cpu_power_cycle(struct bls_kernel *k, unsigned cpu)
{
	/* cpuidle-style: our own gate stays open with the resume vector, so that an
	 * interrupt waking us lets us straight back in. */
	bls_mcpm_set_entry_vector(&k->mcpm, cpu, cpu, BLS_KERNEL_RESUME_VECTOR);
	uint32_t vector = bls_mcpm_cpu_power_down(&k->mcpm, cpu);
	assert(vector == BLS_KERNEL_RESUME_VECTOR);
	(void)vector;
	bls_mcpm_set_entry_vector(&k->mcpm, cpu, cpu, 0);
	bls_mcpm_cpu_powered_up(&k->mcpm, cpu);
	bls_gic_cpu_init(&k->cfg.hw, cpu);
}

void bls_kernel_cpu_main(struct bls_kernel *k, unsigned cpu)
{
	const struct bls_hw *hw = &k->cfg.hw;
	assert(cpu < hw->ncpus);

	if (cpu == k->cfg.boot_cpu) {
		/* What boot firmware does before the kernel: every cluster, all of whose
		 * CPUs come out of reset running, joins the coherency domain. */
		for (unsigned c = 0; c < hw->nclusters; c++)
			bls_cci_port_control(hw, cpu, c, 1);
		bls_mcpm_sync_init(&k->mcpm, cpu);
		bls_gic_dist_init(hw, cpu);
		if (k->gov) {
			int rc = k->gov->ops->start(k->gov);
			/* The configuration was validated before boot: a refusal is a bug. */
			assert(rc == 0);
			(void)rc;
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

	int interrupted = 1; /* look once at boot */
	for (;;) {
		/* The interrupt handler. Whatever interrupted us has already queued its
		 * work: acknowledging is all the handling an interrupt needs here. */
		if (interrupted) {
			bls_gic_handle_irqs(hw, cpu);
			interrupted = 0;
		}

		int t = pick_next_task(k, cpu);
		if (t < 0) {
			/* Nothing runnable. A CPU no task can ever run on is taken offline, as
			 * hotplug would; the others idle in WFI until the next release. */
			if (k->ntasks_on[cpu] == 0)
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
		assert(done >= 0.0 && done <= w.ref_ns * (1.0 + 1e-12));
		if (done > w.ref_ns)
			done = w.ref_ns;
		k->pending_ref_ns[t] -= done;
		k->stats[t].done_ref_ns += done;
		if (rc == -BLS_EINTR) {
			k->stats[t].preemptions++;
			interrupted = 1;
		} else {
			assert(rc == 0);
		}
	}
}
