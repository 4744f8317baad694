/* switcher/src/cpuidle/cpuidle.c -- the cpuidle core (bls/cpuidle.h): the states, the
 * residency accounting per physical CPU, and the governor's select and reflect around each
 * idle period. */
#include "bls/cpuidle.h"

#include <string.h>

const struct bls_cpuidle_governor *bls_cpuidle_governor_find(const char *name)
{
	static const struct bls_cpuidle_governor *const all[] = {&bls_cpuidle_menu, &bls_cpuidle_ladder};
	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

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
	const enum bls_menu_version v = cfg->menu_version ? cfg->menu_version : BLS_MENU_3_10;
	if (v != BLS_MENU_3_10 && v != BLS_MENU_3_13)
		return -BLS_EINVAL;
	if (cfg->governor && (!cfg->governor->select || !cfg->governor->reflect))
		return -BLS_EINVAL;
	memset(ci, 0, sizeof(*ci));
	ci->cfg = *cfg;
	ci->cfg.menu_version = v;
	if (!ci->cfg.governor)
		ci->cfg.governor = &bls_cpuidle_menu;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++) {
		ci->in_state[c] = -1;
		struct bls_cpuidle_device *d = &ci->dev[c];
		/* cpuidle_enable_device: 3.13 sets every factor to unity there, 3.10 at a bucket's
		 * first use. */
		if (v == BLS_MENU_3_13)
			for (unsigned b = 0; b < BLS_MENU_BUCKETS; b++)
				d->menu.correction_factor[b] = BLS_MENU_UNITY;
		/* The run starts on a booted, quiet system: the history a long idle before it would
		 * have left. Linux zeroes the ring and puts the ladder on state 0 at boot, a state
		 * its housekeeping wake-ups soon leave; here nothing but a CPU's own deadlines wakes
		 * it, and a CPU with no task would stay in WFI for the whole run (docs/os.md). The
		 * ring holds the longest period the core reports, the ladder stands on the deepest
		 * state (the first select clamps it to the cluster's). */
		for (unsigned i = 0; i < BLS_MENU_INTERVALS; i++)
			d->menu.intervals[i] = INT32_MAX;
		d->ladder.last_state_idx = BLS_MAX_IDLE_STATES - 1;
	}
	return 0;
}

unsigned bls_cpuidle_select(struct bls_cpuidle *ci, unsigned l, unsigned cluster, uint64_t next_timer_ns,
			    unsigned nr_iowait)
{
	const struct bls_cpuidle_hint h = {.next_timer_ns = next_timer_ns, .nr_iowait = nr_iowait};
	const unsigned idx = ci->cfg.governor->select(ci, l, cluster, &h);
	return idx < ci->cfg.nstates[cluster] ? idx : 0;
}

void bls_cpuidle_enter(struct bls_cpuidle *ci, unsigned cpu, unsigned cluster, unsigned l, unsigned idx,
		       uint64_t now_ns)
{
	ci->in_state[cpu] = (int)idx;
	ci->in_logical[cpu] = l;
	ci->in_cluster[cpu] = cluster;
	ci->entered_ns[cpu] = now_ns;
	ci->stats[cpu].entries[idx]++;
}

void bls_cpuidle_exit(struct bls_cpuidle *ci, unsigned cpu, uint64_t now_ns)
{
	const int in = ci->in_state[cpu];
	if (in < 0)
		return;
	const unsigned idx = (unsigned)in, l = ci->in_logical[cpu];
	const struct bls_idle_state *st = ci->cfg.state[ci->in_cluster[cpu]];
	const unsigned n = ci->cfg.nstates[ci->in_cluster[cpu]];
	const uint64_t ns = now_ns - ci->entered_ns[cpu];
	struct bls_cpuidle_stats *s = &ci->stats[cpu];
	s->residency_ns[idx] += ns;
	ci->in_state[cpu] = -1;

	/* cpuidle_enter_state: the period in whole microseconds, at most INT_MAX. */
	const uint64_t us = ns / 1000u;
	const int64_t diff = us > INT32_MAX ? INT32_MAX : (int64_t)us;
	ci->dev[l].last_residency_us = diff;
	ci->dev[l].last_exit_latency_us = st[idx].exit_latency_us;
	/* Too deep (a shallower state existed), or too shallow (the next deeper state's target
	 * residency would have fitted in the period less this state's exit latency). */
	if (diff < (int64_t)st[idx].target_residency_us) {
		if (idx > 0)
			s->above[idx]++;
	} else if (diff > (int64_t)st[idx].exit_latency_us && idx + 1 < n &&
		   diff - (int64_t)st[idx].exit_latency_us >= (int64_t)st[idx + 1].target_residency_us) {
		s->below[idx]++;
	}
	ci->cfg.governor->reflect(ci, l, idx);
}
