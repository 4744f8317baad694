/* switcher/src/cpuidle/menu.c -- the menu governor of Linux 3.10 as Android shipped it, with
 * the 3.13 changes as an option (bls/cpuidle.h; docs/os.md, "cpuidle", has the algorithm and
 * its sources). Times are in microseconds and the arithmetic is Linux's integer arithmetic,
 * truncations included: the correction factors and the state choices depend on them. */
#include "bls/cpuidle.h"

/* 3.10's int_sqrt takes an unsigned long, 32 bits on ARM: a larger variance is cut to its
 * low 32 bits there (the overflow 3.13 guards against by skipping the deviation test). */
#define ARM_ULONG_MAX 0xffffffffull

/* The idle period the menu device last heard of, as Linux's unsigned int microseconds. */
static uint32_t last_residency(const struct bls_cpuidle *ci, unsigned l)
{
	const int64_t r = ci->dev[l].last_residency_us;
	return r < 0 ? 0u : (uint32_t)r;
}

/* The bucket of the correction factors: the decade of the time to the next timer, in the
 * upper half when a task waits for I/O. */
static unsigned which_bucket(uint32_t duration_us, unsigned nr_iowait)
{
	const unsigned base = nr_iowait ? BLS_MENU_BUCKETS / 2 : 0;
	if (duration_us < 10)
		return base;
	if (duration_us < 100)
		return base + 1;
	if (duration_us < 1000)
		return base + 2;
	if (duration_us < 10000)
		return base + 3;
	if (duration_us < 100000)
		return base + 4;
	return base + 5;
}

/* Android's performance_multiplier: mainline's 1 + 2 x loadavg + 10 x nr_iowait without the
 * load average term (docs/os.md). A larger multiplier asks for a shorter exit latency. */
static unsigned performance_multiplier(unsigned nr_iowait)
{
	return 1u + 10u * nr_iowait;
}

static uint64_t int_sqrt(uint64_t x)
{
	uint64_t root = 0, bit = 1ull << 62;
	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= root + bit) {
			x -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return root;
}

int bls_menu_typical_interval(struct bls_menu_device *d, enum bls_menu_version version)
{
	uint64_t thresh = UINT64_MAX; /* keep the intervals at or below it */
	for (;;) {
		uint64_t sum = 0, max = 0, variance = 0;
		unsigned n = 0;
		for (unsigned i = 0; i < BLS_MENU_INTERVALS; i++) {
			const uint64_t v = d->intervals[i];
			if (v <= thresh) {
				sum += v;
				n++;
				if (v > max)
					max = v;
			}
		}
		const uint64_t avg = sum / n; /* n >= 1: the threshold never drops below a kept value */
		for (unsigned i = 0; i < BLS_MENU_INTERVALS; i++) {
			const uint64_t v = d->intervals[i];
			if (v <= thresh) {
				const uint64_t diff = v > avg ? v - avg : avg - v;
				variance += diff * diff; /* wraps as Linux's u64 sum would */
			}
		}
		variance /= n;
		/* Regular enough: a small deviation, absolutely (20 us) or against the average with
		 * at least 6 of the 8 samples kept. */
		if (version == BLS_MENU_3_10) {
			const uint64_t stddev = int_sqrt(variance & ARM_ULONG_MAX);
			if ((avg > stddev * 6 && n * 4 >= BLS_MENU_INTERVALS * 3) || stddev <= 20) {
				d->predicted_us = avg;
				return 1;
			}
		} else if (variance <= ARM_ULONG_MAX) {
			const uint64_t stddev = int_sqrt(variance);
			if ((avg > stddev * 6 && n * 4 >= BLS_MENU_INTERVALS * 3) || stddev <= 20) {
				if (d->expected_us > avg) { /* a timer sooner wins */
					d->predicted_us = avg;
					return 1;
				}
				return 0;
			}
		}
		/* Not regular: while more than 6 samples remain, drop the largest (all equal to it)
		 * and look again. */
		if (n * 4 <= BLS_MENU_INTERVALS * 3)
			return 0;
		thresh = max - 1;
	}
}

/* menu_update: learn from the idle period just over, for the bucket it was predicted in. */
static void menu_update(struct bls_cpuidle *ci, unsigned l)
{
	struct bls_menu_device *d = &ci->dev[l].menu;
	const int v313 = ci->cfg.menu_version == BLS_MENU_3_13;
	const uint32_t last_idle_us = last_residency(ci, l);
	/* The wake-up began an exit latency before it was measured: 3.10 takes the latency of
	 * the state it selected, 3.13 that of the state entered, and clamps the period to the
	 * timer so that no factor exceeds unity. */
	uint32_t measured_us = last_idle_us;
	const uint32_t exit_us = v313 ? ci->dev[l].last_exit_latency_us : d->exit_us;
	if (measured_us > exit_us)
		measured_us -= exit_us;
	if (v313 && measured_us > d->expected_us)
		measured_us = d->expected_us;

	uint64_t factor = d->correction_factor[d->bucket];
	factor = v313 ? factor - factor / BLS_MENU_DECAY : factor * (BLS_MENU_DECAY - 1) / BLS_MENU_DECAY;
	if (d->expected_us > 0 && measured_us < BLS_MENU_MAX_INTERESTING)
		factor += BLS_MENU_RESOLUTION * measured_us / d->expected_us;
	else
		factor += BLS_MENU_RESOLUTION; /* idle that long: a perfect prediction */
	if (factor == 0)
		factor = 1;
	d->correction_factor[d->bucket] = factor;

	/* 3.10 remembers the raw period, 3.13 the corrected one. */
	d->intervals[d->interval_ptr] = v313 ? measured_us : last_idle_us;
	d->interval_ptr = (d->interval_ptr + 1) % BLS_MENU_INTERVALS;
}

static unsigned menu_select(struct bls_cpuidle *ci, unsigned l, unsigned cluster, const struct bls_cpuidle_hint *h)
{
	struct bls_menu_device *d = &ci->dev[l].menu;
	const struct bls_idle_state *st = ci->cfg.state[cluster];
	const unsigned n = ci->cfg.nstates[cluster];
	const int v313 = ci->cfg.menu_version == BLS_MENU_3_13;

	if (d->needs_update) {
		menu_update(ci, l);
		d->needs_update = 0;
	}
	/* The default is state 0, WFI (CPUIDLE_DRIVER_STATE_START on ARM, which has no polling
	 * state). */
	d->last_state_idx = 0;
	d->exit_us = 0;
	uint32_t latency_req = ci->cfg.latency_limit_us;
	if (latency_req == 0)
		return 0;

	/* tick_nohz_get_sleep_length in whole microseconds, an unsigned int: no timer at all
	 * reads as its largest value. */
	d->expected_us = h->next_timer_ns / 1000u >= UINT32_MAX ? UINT32_MAX : (uint32_t)(h->next_timer_ns / 1000u);
	d->bucket = which_bucket(d->expected_us, h->nr_iowait);
	const unsigned multiplier = performance_multiplier(h->nr_iowait);
	if (d->correction_factor[d->bucket] == 0)
		d->correction_factor[d->bucket] = BLS_MENU_UNITY; /* 3.10: set at first use */
	d->predicted_us = ((uint64_t)d->expected_us * d->correction_factor[d->bucket] + BLS_MENU_UNITY / 2) /
			  BLS_MENU_UNITY;
	bls_menu_typical_interval(d, v313 ? BLS_MENU_3_13 : BLS_MENU_3_10);

	if (v313) {
		/* The multiplier caps the latency: predicted / multiplier at most. */
		const uint64_t interactivity_req = d->predicted_us / multiplier;
		if (latency_req > interactivity_req)
			latency_req = (uint32_t)interactivity_req;
	}
	/* The deepest state that fits: each later state is assumed deeper, so a later fit wins. */
	for (unsigned i = 0; i < n; i++) {
		if (st[i].target_residency_us > d->predicted_us)
			continue;
		if (st[i].exit_latency_us > latency_req)
			continue;
		if (!v313 && (uint64_t)st[i].exit_latency_us * multiplier > d->predicted_us)
			continue;
		d->last_state_idx = i;
		d->exit_us = st[i].exit_latency_us;
	}
	return d->last_state_idx;
}

static void menu_reflect(struct bls_cpuidle *ci, unsigned l, unsigned idx)
{
	/* Kept short (it runs on the wake-up path): the learning waits for the next select. */
	ci->dev[l].menu.last_state_idx = idx;
	ci->dev[l].menu.needs_update = 1;
}

const struct bls_cpuidle_governor bls_cpuidle_menu = {
	.name = "menu",
	.select = menu_select,
	.reflect = menu_reflect,
};
