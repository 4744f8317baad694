/* switcher/src/cpufreq/interactive.c -- Android's interactive governor (cpufreq_interactive.c
 * of the 3.x kernels; iks-facts.md 4.2), with our second threshold pair (docs/os.md).
 *
 * Per CPU: a deferrable timer every timer_rate, and a slack timer that wakes an idle CPU
 * timer_rate + timer_slack later while its speed is above the minimum. Each sample turns the
 * CPU's busy time, weighted by the frequency it ran at, into loadadjfreq (MHz x %); the load
 * is that over the CPU's current target. The policy runs at the highest target of its CPUs
 * (the speed-change thread, here done at once). */
#include "bls/governor.h"

#define US 1000ull

static const struct bls_interactive_tunables *tun(const struct bls_governor *g)
{
	return &g->tun.interactive;
}

static unsigned hispeed(const struct bls_governor *g, const struct bls_policy *p)
{
	const unsigned h = tun(g)->hispeed_freq_mhz;
	return h ? bls_policy_freq_l(p, h) : p->max_mhz;
}

static unsigned target_load(const struct bls_governor *g, unsigned mhz)
{
	const struct bls_interactive_tunables *t = tun(g);
	unsigned load = t->target_load[0];
	for (unsigned i = 1; i < t->ntarget_loads && mhz >= t->target_load_freq[i]; i++)
		load = t->target_load[i];
	return load;
}

/* The lowest frequency at which the load would not exceed its target load, searched from the
 * current one; the bounds make it terminate when target loads are not monotonic. */
static unsigned choose_freq(const struct bls_governor *g, const struct bls_policy *p, double loadadjfreq)
{
	unsigned freq = p->cur_mhz, freqmin = 0, freqmax = ~0u, prev;
	do {
		prev = freq;
		freq = bls_policy_freq_l(p, loadadjfreq / target_load(g, freq));
		if (freq > prev) {
			freqmin = prev;
			if (freq >= freqmax) {
				freq = bls_policy_freq_h(p, (double)freqmax - 1);
				if (freq == freqmin) {
					freq = freqmax;
					break;
				}
			}
		} else if (freq < prev) {
			freqmax = prev;
			if (freq <= freqmin) {
				freq = bls_policy_freq_l(p, (double)freqmin + 1);
				if (freq == freqmax)
					break;
			}
		}
	} while (freq != prev);
	return freq;
}

/* Busy time since the last update, weighted by the policy's current frequency. */
static void update_load(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	g->cpu[cpu].speedadj += (double)bls_gov_busy_ns(g, cpu, now) / 1000.0 * p->cur_mhz;
}

/* cpufreq_interactive_timer_resched: a new window and both timers armed. */
static void resched(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	const struct bls_interactive_tunables *t = tun(g);
	c->prev_wall_ns = now;
	c->prev_idle_ns = g->env->idle_ns(g->ctx, cpu, now);
	c->speedadj = 0;
	c->speedadj_ts = now;
	c->next_ns = now + t->timer_rate_us * US;
	c->slack_ns = BLS_GOV_NO_DEADLINE;
	if (t->timer_slack_us >= 0 && c->target_mhz > p->min_mhz)
		c->slack_ns = now + (t->timer_rate_us + (uint64_t)t->timer_slack_us) * US;
}

/* The speed-change thread: the policy at the highest target of its CPUs. */
static void speedchange(struct bls_governor *g, struct bls_policy *p, unsigned cpu)
{
	unsigned max = 0;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		if ((p->cpus >> c & 1u) && g->cpu[c].target_mhz > max)
			max = g->cpu[c].target_mhz;
	bls_gov_request(g, p, cpu, bls_policy_freq_h(p, max));
}

static void interactive_start(struct bls_governor *g, struct bls_policy *p, uint64_t now)
{
	for (unsigned cpu = 0; cpu < BLS_MAX_CPUS; cpu++) {
		if (!(p->cpus >> cpu & 1u))
			continue;
		struct bls_gov_cpu *c = &g->cpu[cpu];
		c->target_mhz = p->cur_mhz;
		c->floor_mhz = p->cur_mhz;
		c->floor_validate_ns = now;
		c->hispeed_validate_ns = now;
		resched(g, p, cpu, now);
	}
}

static void interactive_sample(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	const struct bls_interactive_tunables *t = tun(g);
	struct bls_gov_cpu *c = &g->cpu[cpu];
	update_load(g, p, cpu, now);
	const uint64_t window = now - c->speedadj_ts;
	if (window == 0) {
		resched(g, p, cpu, now);
		return;
	}
	const double loadadjfreq = c->speedadj * 100.0 / ((double)window / 1000.0);
	const double cpu_load = loadadjfreq / c->target_mhz;
	bls_gov_sampled(g, cpu, cpu_load);
	const int boosted = t->boost || now < g->boostpulse_end_ns;
	const unsigned hs = hispeed(g, p);
	unsigned new_freq;

	if (cpu_load >= t->go_hispeed_load || boosted) {
		if (c->target_mhz < hs) {
			new_freq = hs;
		} else {
			new_freq = choose_freq(g, p, loadadjfreq);
			if (new_freq < hs)
				new_freq = hs;
		}
	} else {
		new_freq = choose_freq(g, p, loadadjfreq);
	}

	/* The second pair: past hispeed, hispeed_freq2 is a ceiling below go_hispeed_load2 and a
	 * floor to jump to at or above it. */
	const unsigned hs2 = t->hispeed_freq2_mhz ? bls_policy_freq_l(p, t->hispeed_freq2_mhz) : 0;
	if (hs2 > hs && c->target_mhz >= hs) {
		if (cpu_load >= t->go_hispeed_load2) {
			if (new_freq < hs2)
				new_freq = hs2;
		} else if (new_freq > hs2) {
			new_freq = hs2;
		}
	}

	if (c->target_mhz >= hs && new_freq > c->target_mhz &&
	    now - c->hispeed_validate_ns < t->above_hispeed_delay_us * US) {
		resched(g, p, cpu, now);
		return;
	}
	c->hispeed_validate_ns = now;

	new_freq = bls_policy_freq_l(p, new_freq);

	/* Do not ramp down below the floor until it has held for min_sample_time. */
	if (new_freq < c->floor_mhz && now - c->floor_validate_ns < t->min_sample_time_us * US) {
		resched(g, p, cpu, now);
		return;
	}
	/* While boosted at hispeed the floor is not refreshed: the speed may drop as soon as
	 * the boost ends. */
	if (!boosted || new_freq > hs) {
		c->floor_mhz = new_freq;
		c->floor_validate_ns = now;
	}

	if (new_freq != c->target_mhz) {
		c->target_mhz = new_freq;
		speedchange(g, p, cpu);
	}
	/* At the policy's max, no timer until the next idle exit. */
	if (c->target_mhz == p->max_mhz) {
		c->next_ns = c->slack_ns = BLS_GOV_NO_DEADLINE;
		return;
	}
	resched(g, p, cpu, now);
}

static void interactive_idle_enter(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	if (c->target_mhz != p->min_mhz && c->next_ns == BLS_GOV_NO_DEADLINE)
		resched(g, p, cpu, now);
}

static void interactive_idle_exit(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	if (c->next_ns == BLS_GOV_NO_DEADLINE) {
		resched(g, p, cpu, now);
	} else if (now >= c->next_ns) {
		bls_gov_sample_now(g, p, cpu, now); /* overdue (deferred while idle): now */
	}
}

static void interactive_freq_changing(struct bls_governor *g, struct bls_policy *p, unsigned mhz, uint64_t now)
{
	(void)mhz;
	/* Time at the old frequency is weighted by it. */
	for (unsigned cpu = 0; cpu < BLS_MAX_CPUS; cpu++)
		if (p->cpus >> cpu & 1u)
			update_load(g, p, cpu, now);
}

static void interactive_boostpulse(struct bls_governor *g, uint64_t now)
{
	g->boostpulse_end_ns = now + tun(g)->boostpulse_duration_us * US;
	/* cpufreq_interactive_boost: every CPU below hispeed goes there, every floor is hispeed. */
	for (unsigned i = 0; i < g->npolicies; i++) {
		struct bls_policy *p = &g->policy[i];
		const unsigned hs = hispeed(g, p);
		int raise = 0;
		for (unsigned cpu = 0; cpu < BLS_MAX_CPUS; cpu++) {
			if (!(p->cpus >> cpu & 1u))
				continue;
			struct bls_gov_cpu *c = &g->cpu[cpu];
			if (c->target_mhz < hs) {
				c->target_mhz = hs;
				c->hispeed_validate_ns = now;
				raise = 1;
			}
			c->floor_mhz = hs;
			c->floor_validate_ns = now;
		}
		if (raise)
			speedchange(g, p, p->first_cpu);
	}
}

const struct bls_governor_ops bls_gov_interactive = {
	.name = "interactive",
	.start = interactive_start,
	.sample = interactive_sample,
	.idle_enter = interactive_idle_enter,
	.idle_exit = interactive_idle_exit,
	.freq_changing = interactive_freq_changing,
	.boostpulse = interactive_boostpulse,
};
