/* switcher/src/cpuidle/ladder.c -- the ladder governor of Linux 3.10 (bls/cpuidle.h; docs/os.md,
 * "cpuidle"): one state up after PROMOTION_COUNT idle periods in a row longer than the
 * current state's exit latency, one down after DEMOTION_COUNT shorter ones; no use of the next
 * timer. */
#include "bls/cpuidle.h"

/* ladder_do_selection: the votes of the state left are forgotten. */
static unsigned move_to(struct bls_ladder_device *d, unsigned from, unsigned to)
{
	d->promotion_count[from] = 0;
	d->demotion_count[from] = 0;
	d->last_state_idx = to;
	return to;
}

static unsigned ladder_select(struct bls_cpuidle *ci, unsigned l, unsigned cluster, const struct bls_cpuidle_hint *h)
{
	(void)h; /* the ladder looks only back */
	struct bls_ladder_device *d = &ci->dev[l].ladder;
	const struct bls_idle_state *st = ci->cfg.state[cluster];
	const unsigned n = ci->cfg.nstates[cluster];
	const uint32_t latency_req = ci->cfg.latency_limit_us;
	/* Ours: a logical CPU that moved to a cluster with fewer states stands on its deepest. */
	if (d->last_state_idx >= n)
		d->last_state_idx = n - 1;
	const unsigned last = d->last_state_idx;
	if (latency_req == 0)
		return move_to(d, last, 0);

	/* The last idle period less the state's exit latency, compared as Linux compares it: an
	 * int against the thresholds' u32, so a period shorter than the exit latency wraps to a
	 * huge value: a vote to promote, never one to demote. Both thresholds are the current
	 * state's exit latency (ladder_enable_device). */
	const int64_t r = ci->dev[l].last_residency_us;
	const uint32_t last_residency = (uint32_t)((r > INT32_MAX ? INT32_MAX : r) - (int64_t)st[last].exit_latency_us);
	const uint32_t threshold = st[last].exit_latency_us;

	if (last + 1 < n && last_residency > threshold && st[last + 1].exit_latency_us <= latency_req) {
		d->promotion_count[last]++;
		d->demotion_count[last] = 0;
		if (d->promotion_count[last] >= BLS_LADDER_PROMOTION_COUNT)
			return move_to(d, last, last + 1);
	}
	/* Forced demotion: the current state's latency is over the limit; down to the deepest
	 * shallower one within it (state 0 whatever its latency). */
	if (last > 0 && st[last].exit_latency_us > latency_req) {
		unsigned i = last - 1;
		while (i > 0 && st[i].exit_latency_us > latency_req)
			i--;
		return move_to(d, last, i);
	}
	if (last > 0 && last_residency < threshold) {
		d->demotion_count[last]++;
		d->promotion_count[last] = 0;
		if (d->demotion_count[last] >= BLS_LADDER_DEMOTION_COUNT)
			return move_to(d, last, last - 1);
	}
	return last;
}

static void ladder_reflect(struct bls_cpuidle *ci, unsigned l, unsigned idx)
{
	/* State 0 entered tells nothing (the kernel may have kept the CPU in WFI): the ladder
	 * stays where it stood. */
	if (idx > 0)
		ci->dev[l].ladder.last_state_idx = idx;
}

const struct bls_cpuidle_governor bls_cpuidle_ladder = {
	.name = "ladder",
	.select = ladder_select,
	.reflect = ladder_reflect,
};
