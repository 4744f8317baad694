/* switcher/src/bL/mcpm_tc2.c -- the MCPM backend for TC2 (tc2_pm.c's role): each callback is a
 * few lines of mechanism over the SPC, GIC and CCI drivers, in tc2_pm.c's order. */
#include "bls/mcpm.h"

#include <stddef.h>

#include "bls/spc.h"

static void tc2_cpu_powerup(struct bls_mcpm *m, unsigned cpu, unsigned target)
{
	/* Arm the SPC only: the interrupt the caller sends next is what powers the core. */
	bls_spc_set_resume_addr(m->hw, cpu, target, BLS_MCPM_ENTRY_POINT);
	bls_spc_cpu_wakeup_irq(m->hw, cpu, target, 1);
}

static void tc2_cluster_powerup(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	bls_spc_powerdown(m->hw, cpu, cluster, 0);
}

static void tc2_cpu_powerdown_prepare(struct bls_mcpm *m, unsigned cpu)
{
	/* From now on the SPC, not the CPU interface, answers interrupts for this CPU: none may
	 * abort the coming WFI behind its back. */
	bls_spc_cpu_wakeup_irq(m->hw, cpu, cpu, 1);
	bls_gic_cpu_if_down(m->hw, cpu);
}

static void tc2_cluster_powerdown_prepare(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	bls_spc_powerdown(m->hw, cpu, cluster, 1);
	bls_spc_global_wakeup_irq(m->hw, cpu, 1);
}

static void tc2_cpu_cache_disable(struct bls_mcpm *m, unsigned cpu)
{
	m->hw->ops->cache_clean_invalidate(m->hw->plat, cpu, BLS_CACHE_L1);
}

static void tc2_cluster_cache_disable(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	/* v7_exit_coherency_flush(all): L1 and L2, then out of the interconnect. */
	m->hw->ops->cache_clean_invalidate(m->hw->plat, cpu, BLS_CACHE_L1);
	m->hw->ops->cache_clean_invalidate(m->hw->plat, cpu, BLS_CACHE_L2);
	bls_cci_port_control(m->hw, cpu, cluster, 0);
}

static void tc2_cluster_power_up_setup(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	bls_cci_port_control(m->hw, cpu, cluster, 1);
}

static void tc2_cpu_is_up(struct bls_mcpm *m, unsigned cpu)
{
	bls_spc_cpu_wakeup_irq(m->hw, cpu, cpu, 0);
	bls_spc_set_resume_addr(m->hw, cpu, cpu, 0);
}

static void tc2_cluster_is_up(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	bls_spc_powerdown(m->hw, cpu, cluster, 0);
	bls_spc_global_wakeup_irq(m->hw, cpu, 0);
}

static void tc2_cpu_powerup_cancel(struct bls_mcpm *m, unsigned cpu, unsigned target)
{
	bls_spc_cpu_wakeup_irq(m->hw, cpu, target, 0);
	bls_spc_set_resume_addr(m->hw, cpu, target, 0);
}

const struct bls_mcpm_backend bls_mcpm_tc2 = {
	.name = "tc2",
	.cpu_powerup = tc2_cpu_powerup,
	.cluster_powerup = tc2_cluster_powerup,
	.cpu_powerdown_prepare = tc2_cpu_powerdown_prepare,
	.cluster_powerdown_prepare = tc2_cluster_powerdown_prepare,
	.cpu_cache_disable = tc2_cpu_cache_disable,
	.cluster_cache_disable = tc2_cluster_cache_disable,
	.cluster_power_up_setup = tc2_cluster_power_up_setup,
	.cpu_is_up = tc2_cpu_is_up,
	.cluster_is_up = tc2_cluster_is_up,
	.cpu_powerup_cancel = tc2_cpu_powerup_cancel,
};
