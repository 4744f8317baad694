/* switcher/src/cpufreq/schedutil.c -- the scheduler-driven governor (cpufreq_schedutil.c,
 * 4.7 on): the frequency follows the tracked utilisation of the policy's busiest CPU with a
 * 25% margin, next = 1.25 x max x util / capacity, at most once per rate_limit. Linux calls
 * it from the scheduler's load updates; here from the CPU's scheduling points and a
 * deferrable deadline every rate_limit while busy (there is no periodic tick to carry it). */
#include "bls/governor.h"

#define US 1000ull

static void schedutil_update(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	double util = 0;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		if (p->cpus >> c & 1u) {
			const double u = g->env->util(g->ctx, c, now);
			if (u > util)
				util = u;
		}
	double cap = p->capacity > 0 ? p->capacity : 1024.0;
	if (util > cap)
		util = cap;
	bls_gov_sampled(g, cpu, 100.0 * util / cap);
	const double next = 1.25 * p->max_mhz * util / cap;
	bls_gov_request(g, p, cpu, bls_policy_freq_l(p, next));
}

static void schedutil_start(struct bls_governor *g, struct bls_policy *p, uint64_t now)
{
	bls_gov_arm(g, p, now + g->tun.schedutil.rate_limit_us * US);
}

static void schedutil_sample(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	schedutil_update(g, p, cpu, now);
	bls_gov_arm(g, p, now + g->tun.schedutil.rate_limit_us * US);
}

/* A CPU going idle or coming back changes utilisation at once: re-evaluate if the rate limit
 * allows (the last evaluation was a rate_limit ago: the deadline has passed). */
static void schedutil_idle(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	const uint64_t due = g->cpu[cpu].next_ns;
	if (due == BLS_GOV_NO_DEADLINE || now >= due)
		bls_gov_sample_now(g, p, cpu, now);
}

const struct bls_governor_ops bls_gov_schedutil = {
	.name = "schedutil",
	.start = schedutil_start,
	.sample = schedutil_sample,
	.idle_enter = schedutil_idle,
	.idle_exit = schedutil_idle,
};
