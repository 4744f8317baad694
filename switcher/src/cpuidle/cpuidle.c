/* switcher/src/cpuidle/cpuidle.c -- idle-state choice and residency (bls/cpuidle.h). */
#include "bls/cpuidle.h"

#include <string.h>

int bls_cpuidle_init(struct bls_cpuidle *ci, const struct bls_cpuidle_config *cfg, unsigned nclusters)
{
	if (nclusters == 0 || nclusters > BLS_MAX_CLUSTERS)
		return -BLS_EINVAL;
	for (unsigned c = 0; c < nclusters; c++) {
		const unsigned n = cfg->nstates[c];
		if (n == 0 || n > BLS_MAX_IDLE_STATES || cfg->state[c][0].kind != BLS_IDLE_WFI)
			return -BLS_EINVAL;
		for (unsigned i = 1; i < n; i++)
			if (cfg->state[c][i].target_residency_us < cfg->state[c][i - 1].target_residency_us ||
			    (cfg->state[c][i].kind != BLS_IDLE_WFI && cfg->state[c][i].kind != BLS_IDLE_POWER_DOWN))
				return -BLS_EINVAL;
	}
	memset(ci, 0, sizeof(*ci));
	ci->cfg = *cfg;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		ci->in_state[c] = -1;
	return 0;
}

unsigned bls_cpuidle_select(const struct bls_cpuidle *ci, unsigned cluster, uint64_t predicted_ns)
{
	unsigned best = 0;
	for (unsigned i = 1; i < ci->cfg.nstates[cluster]; i++) {
		const struct bls_idle_state *s = &ci->cfg.state[cluster][i];
		if ((uint64_t)s->target_residency_us * 1000u <= predicted_ns &&
		    s->exit_latency_us <= ci->cfg.latency_limit_us)
			best = i;
	}
	return best;
}

void bls_cpuidle_enter(struct bls_cpuidle *ci, unsigned cpu, unsigned idx, uint64_t now_ns)
{
	ci->in_state[cpu] = (int)idx;
	ci->entered_ns[cpu] = now_ns;
	ci->stats[cpu].entries[idx]++;
}

void bls_cpuidle_exit(struct bls_cpuidle *ci, unsigned cpu, uint64_t now_ns)
{
	const int idx = ci->in_state[cpu];
	if (idx < 0)
		return;
	ci->stats[cpu].residency_ns[idx] += now_ns - ci->entered_ns[cpu];
	ci->in_state[cpu] = -1;
}
