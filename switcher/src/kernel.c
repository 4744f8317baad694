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
	if (cfg->ncpus == 0 || cfg->ncpus > BLS_MAX_CPUS || cfg->boot_cpu >= cfg->ncpus ||
	    cfg->ntasks > BLS_MAX_TASKS)
		return -BLS_EINVAL;
	if (gov && (!gov->ops || !gov->ops->start))
		return -BLS_EINVAL;

	memset(k, 0, sizeof(*k));
	k->ops = ops;
	k->plat = plat;
	k->gov = gov;
	k->cfg = *cfg;
	for (unsigned t = 0; t < cfg->ntasks; t++) {
		const struct bls_task_config *tc = &cfg->tasks[t];
		if (tc->cpu >= cfg->ncpus || !(tc->mem_fraction >= 0.0 && tc->mem_fraction <= 1.0))
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

void bls_kernel_cpu_main(struct bls_kernel *k, unsigned cpu)
{
	assert(cpu < k->cfg.ncpus);

	if (cpu == k->cfg.boot_cpu && k->gov) {
		int rc = k->gov->ops->start(k->gov);
		/* The configuration was validated before boot: a refusal here is a bug. */
		assert(rc == 0);
		(void)rc;
	}

	for (;;) {
		/* Whatever woke us has already queued its work: acknowledging is all the
		 * handling an interrupt needs in this kernel. */
		k->ops->cpu_irq_ack(k->plat, cpu);

		int t = pick_next_task(k, cpu);
		if (t < 0) {
			/* Nothing runnable. A CPU no task can ever run on is taken offline, as
			 * hotplug would; the others idle in WFI until the next release. */
			if (k->ntasks_on[cpu] == 0)
				k->ops->cpu_power_down(k->plat, cpu);
			else
				k->ops->cpu_wait_for_interrupt(k->plat, cpu);
			continue;
		}

		struct bls_work w = {
			.ref_ns = k->pending_ref_ns[t],
			.mem_fraction = k->cfg.tasks[t].mem_fraction,
		};
		double done = 0.0;
		int rc = k->ops->cpu_execute(k->plat, cpu, &w, &done);
		assert(done >= 0.0 && done <= w.ref_ns * (1.0 + 1e-12));
		if (done > w.ref_ns)
			done = w.ref_ns;
		k->pending_ref_ns[t] -= done;
		k->stats[t].done_ref_ns += done;
		if (rc == -BLS_EINTR)
			k->stats[t].preemptions++;
		else
			assert(rc == 0);
	}
}
