/* switcher/src/cpufreq/dbs.c -- the demand-based governors: ondemand and conservative
 * (cpufreq_ondemand.c and cpufreq_conservative.c of the 4.x kernels, over the common
 * dbs code). One sampling deadline per policy, set on each of its CPUs (deferrable: whichever
 * busy CPU reaches it samples for the policy); the load is the busiest CPU's busy share of
 * the window since the last sample. */
#include "bls/governor.h"

#define US 1000ull

static unsigned policy_load(struct bls_governor *g, struct bls_policy *p, uint64_t now)
{
	unsigned load = 0;
	for (unsigned cpu = 0; cpu < BLS_MAX_CPUS; cpu++)
		if (p->cpus >> cpu & 1u) {
			const unsigned l = bls_gov_cpu_load(g, cpu, now);
			if (l > load)
				load = l;
		}
	return load;
}

/* The policy's rate multiplier lives with its first CPU (ondemand's rate_mult). */
static unsigned *rate_mult(struct bls_governor *g, struct bls_policy *p)
{
	return &g->cpu[p->first_cpu].rate_mult;
}

/* --- ondemand ---------------------------------------------------------------------------- */

static void ondemand_start(struct bls_governor *g, struct bls_policy *p, uint64_t now)
{
	*rate_mult(g, p) = 1;
	bls_gov_arm(g, p, now + g->tun.ondemand.sampling_rate_us * US);
}

static void ondemand_sample(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	const struct bls_ondemand_tunables *t = &g->tun.ondemand;
	const unsigned load = policy_load(g, p, now);
	bls_gov_sampled(g, cpu, load);
	unsigned *mult = rate_mult(g, p);
	if (load > t->up_threshold) {
		/* Straight to the top; stay sampling_down_factor windows before looking again. */
		if (p->target_mhz < p->max_mhz)
			*mult = t->sampling_down_factor ? t->sampling_down_factor : 1;
		bls_gov_request(g, p, cpu, p->max_mhz);
	} else {
		/* Proportional to the load between min and max (od_update since 3.11). */
		double next = p->min_mhz + (double)load * (p->max_mhz - p->min_mhz) / 100.0;
		*mult = 1;
		if (t->powersave_bias)
			/* A share of the speed given up: the table entry at or below it (Linux
			 * alternates the two neighbours within a window to hit the average). */
			bls_gov_request(g, p, cpu, bls_policy_freq_h(p, next * (1000 - t->powersave_bias) / 1000.0));
		else
			bls_gov_request(g, p, cpu, bls_policy_freq_c(p, next));
	}
	bls_gov_arm(g, p, now + (uint64_t)t->sampling_rate_us * US * *mult);
}

const struct bls_governor_ops bls_gov_ondemand = {
	.name = "ondemand",
	.start = ondemand_start,
	.sample = ondemand_sample,
};

/* --- conservative ----------------------------------------------------------------------- */

static void conservative_start(struct bls_governor *g, struct bls_policy *p, uint64_t now)
{
	g->cpu[p->first_cpu].down_skip = 0;
	g->cpu[p->first_cpu].requested_mhz = p->cur_mhz;
	bls_gov_arm(g, p, now + g->tun.conservative.sampling_rate_us * US);
}

static void conservative_sample(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	const struct bls_conservative_tunables *t = &g->tun.conservative;
	const unsigned load = policy_load(g, p, now);
	bls_gov_sampled(g, cpu, load);
	bls_gov_arm(g, p, now + t->sampling_rate_us * US);
	unsigned *req = &g->cpu[p->first_cpu].requested_mhz;
	unsigned requested = *req;
	if (requested > p->max_mhz || requested < p->min_mhz)
		requested = p->cur_mhz;
	const unsigned step = p->max_mhz * t->freq_step / 100;
	if (step == 0)
		return;
	unsigned *down_skip = &g->cpu[p->first_cpu].down_skip;
	if (load > t->up_threshold) {
		*down_skip = 0;
		if (requested == p->max_mhz)
			return;
		requested = requested + step > p->max_mhz ? p->max_mhz : requested + step;
		/* The step is kept, not the table entry: small steps add up across samples. */
		*req = requested;
		bls_gov_request(g, p, cpu, bls_policy_freq_h(p, requested));
		return;
	}
	if (++*down_skip < t->sampling_down_factor)
		return;
	*down_skip = 0;
	if (load < t->down_threshold) {
		if (requested == p->min_mhz)
			return;
		requested = requested > p->min_mhz + step ? requested - step : p->min_mhz;
		*req = requested;
		bls_gov_request(g, p, cpu, bls_policy_freq_l(p, requested));
	}
}

const struct bls_governor_ops bls_gov_conservative = {
	.name = "conservative",
	.start = conservative_start,
	.sample = conservative_sample,
};
