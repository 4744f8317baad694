/* switcher/src/cpufreq/schedutil.c -- the scheduler-driven governor (cpufreq_schedutil.c,
 * 4.7 on): the frequency follows the tracked utilisation of the policy's busiest CPU with a
 * 25% margin, next = 1.25 x max x util / capacity, at most once per rate_limit. Linux calls
 * it from the scheduler's load updates (cpufreq_update_util at enqueue, dequeue and the
 * tick); here from the CPU's scheduling points and a deferrable deadline that stands in for
 * the tick while busy (there is no periodic tick to carry it): every rate_limit, never more
 * often than the tick (HZ=100) would, so that rate_limit_us 0 (legal) evaluates once per
 * update as Linux does rather than in a loop. A transition in flight (work_in_progress)
 * suppresses the evaluation, as sugov_should_update_freq does. A real-time task runnable on
 * one of the policy's CPUs asks for the top frequency, as the 4.7-4.19 schedutil does. */
#include "bls/governor.h"

#define US 1000ull
/* The scheduler tick that carries cpufreq_update_util on a busy CPU: HZ=100, ARM's
 * default and TC2's kernels'. */
#define SCHEDUTIL_TICK_NS (10000 * US)

/* The next update of a busy CPU: the later of the rate limit and the next tick. */
static uint64_t schedutil_next(const struct bls_governor *g, uint64_t now)
{
	const uint64_t rl = (uint64_t)g->tun.schedutil.rate_limit_us * US;
	return now + (rl > SCHEDUTIL_TICK_NS ? rl : SCHEDUTIL_TICK_NS);
}

static void schedutil_update(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	if (g->env->in_flight && g->env->in_flight(g->ctx, cpu))
		return; /* work_in_progress: the change under way is not second-guessed */
	double util = 0;
	int rt = 0;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		if (p->cpus >> c & 1u) {
			const double u = g->env->util(g->ctx, c, now);
			if (u > util)
				util = u;
			rt |= g->env->rt_runnable && g->env->rt_runnable(g->ctx, c);
		}
	double cap = p->capacity > 0 ? p->capacity : 1024.0;
	if (util > cap)
		util = cap;
	bls_gov_sampled(g, cpu, 100.0 * util / cap);
	/* A real-time task runnable on any of the policy's CPUs: the top frequency
	 * (sugov_update_*'s SCHED_CPUFREQ_RT, 4.7 to 4.19). */
	const double next = rt ? p->max_mhz : 1.25 * p->max_mhz * util / cap;
	bls_gov_request(g, p, cpu, bls_policy_freq_l(p, next));
}

static void schedutil_updated(struct bls_governor *g, const struct bls_policy *p, uint64_t now)
{
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		if (p->cpus >> c & 1u)
			g->cpu[c].last_update_ns = now;
	bls_gov_arm(g, p, schedutil_next(g, now));
}

static void schedutil_start(struct bls_governor *g, struct bls_policy *p, uint64_t now)
{
	schedutil_updated(g, p, now);
}

static void schedutil_sample(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	schedutil_update(g, p, cpu, now);
	schedutil_updated(g, p, now);
}

/* A CPU going idle or coming back (a dequeue, an enqueue) changes utilisation at once:
 * re-evaluate if the rate limit allows (the last update was a rate_limit ago). */
static void schedutil_idle(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	const struct bls_gov_cpu *c = &g->cpu[cpu];
	if (now - c->last_update_ns >= (uint64_t)g->tun.schedutil.rate_limit_us * US)
		bls_gov_sample_now(g, p, cpu, now);
}

const struct bls_governor_ops bls_gov_schedutil = {
	.name = "schedutil",
	.start = schedutil_start,
	.sample = schedutil_sample,
	.idle_enter = schedutil_idle,
	.idle_exit = schedutil_idle,
};
