/* switcher/src/mcpm_tc2.c -- the MCPM backend for TC2 (tc2_pm.c's role): each callback is a
 * few lines of mechanism over the platform verbs and the GIC and CCI drivers. */
#include "bls/mcpm.h"

#include <stddef.h>

static void tc2_cpu_powerup(struct bls_mcpm *m, unsigned cpu, unsigned target)
{
	m->hw->ops->cpu_power_up(m->hw->plat, cpu, target);
}

static void tc2_cluster_powerup(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	m->hw->ops->cluster_power_down_enable(m->hw->plat, cpu, cluster, 0);
}

static void tc2_cpu_powerdown_prepare(struct bls_mcpm *m, unsigned cpu)
{
	/* Nothing may abort the coming WFI behind the power controller's back. */
	bls_gic_cpu_if_down(m->hw, cpu);
}

static void tc2_cluster_powerdown_prepare(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	m->hw->ops->cluster_power_down_enable(m->hw->plat, cpu, cluster, 1);
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

static void tc2_cluster_is_up(struct bls_mcpm *m, unsigned cpu, unsigned cluster)
{
	m->hw->ops->cluster_power_down_enable(m->hw->plat, cpu, cluster, 0);
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
	.cpu_is_up = NULL,
	.cluster_is_up = tc2_cluster_is_up,
};
