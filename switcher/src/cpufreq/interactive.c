/* switcher/src/cpufreq/interactive.c -- Android's interactive governor (cpufreq_interactive.c
 * of the 3.x kernels; docs/sources.md) in two generations, each with our second threshold
 * pair (docs/os.md, "The interactive governor's generations").
 *
 * 2013 (late-2012/2013 AOSP): per CPU, a deferrable timer every timer_rate, and a slack timer
 * that wakes an idle CPU timer_rate + timer_slack later while its speed is above the minimum.
 * Each sample turns the CPU's busy time, weighted by the frequency it ran at, into
 * loadadjfreq (MHz x %); the load is that over the CPU's current target.
 *
 * 2012 (mid-2012 AOSP android-3.0/3.4): per CPU, a timer that is not deferrable (it wakes an
 * idle CPU) while the speed is above the minimum; the load is the busier of the window since
 * the timer was armed and the one since the target last changed, unweighted; the speed asked
 * is the policy's max x load / 100.
 *
 * Both: the policy runs at the highest target of its CPUs (the speed-change thread, or 2012's
 * up task and down work queue, here done at once). */
#include "bls/governor.h"

#define US 1000ull

static const struct bls_interactive_tunables *tun(const struct bls_governor *g)
{
	return &g->tun.interactive;
}

static int is_2012(const struct bls_governor *g)
{
	return tun(g)->variant == BLS_INTERACTIVE_2012;
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

/* The second pair (ours): once the target is at or above hispeed, hispeed_freq2 is a ceiling
 * below go_hispeed_load2 and a floor to jump to at or above it. Returns @want adjusted. */
static double second_pair(const struct bls_governor *g, const struct bls_policy *p, unsigned target,
			  double cpu_load, double want)
{
	const struct bls_interactive_tunables *t = tun(g);
	const unsigned hs = hispeed(g, p);
	const unsigned hs2 = t->hispeed_freq2_mhz ? bls_policy_freq_l(p, t->hispeed_freq2_mhz) : 0;
	if (hs2 > hs && target >= hs) {
		if (cpu_load >= t->go_hispeed_load2) {
			if (want < hs2)
				want = hs2;
		} else if (want > hs2) {
			want = hs2;
		}
	}
	return want;
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
	c->prev_idle_ns = bls_gov_idle_ns(g, cpu, now);
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

/* --- mid-2012 ------------------------------------------------------------------------- */

/* The timer armed timer_rate from now, with a new short window (idle_exit_time and
 * time_in_idle). Not deferrable: the core's slack deadline, which wakes an idle CPU. */
static void arm_2012(struct bls_governor *g, unsigned cpu, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	c->prev_wall_ns = now;
	c->prev_idle_ns = bls_gov_idle_ns(g, cpu, now);
	c->next_ns = BLS_GOV_NO_DEADLINE;
	c->slack_ns = now + tun(g)->timer_rate_us * US;
}

/* Busy share in % of the window from @since_ns (@since_idle_ns idle then) to @now. */
static unsigned window_load(uint64_t now, uint64_t now_idle, uint64_t since_ns, uint64_t since_idle_ns)
{
	const uint64_t dt = now - since_ns, didle = now_idle - since_idle_ns;
	if (dt == 0 || didle > dt)
		return 0;
	return (unsigned)(100 * (dt - didle) / dt);
}

/* The long window restarts when the target changes. */
static void set_target_2012(struct bls_governor *g, unsigned cpu, unsigned mhz, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	c->target_mhz = mhz;
	c->target_set_ns = now;
	c->target_set_idle_ns = bls_gov_idle_ns(g, cpu, now);
}

static void sample_2012(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	const struct bls_interactive_tunables *t = tun(g);
	struct bls_gov_cpu *c = &g->cpu[cpu];
	const uint64_t now_idle = bls_gov_idle_ns(g, cpu, now);
	const unsigned hs = hispeed(g, p);

	if (now - c->prev_wall_ns < 1000 * US)
		goto rearm; /* less than 1 ms since the window began: too short to judge */
	const unsigned load_short = window_load(now, now_idle, c->prev_wall_ns, c->prev_idle_ns);
	const unsigned load_long = window_load(now, now_idle, c->target_set_ns, c->target_set_idle_ns);
	const unsigned cpu_load = load_short > load_long ? load_short : load_long;
	bls_gov_sampled(g, cpu, cpu_load);

	/* Proportional to the load against the policy's max, not against the speed it ran at. */
	double want = (double)p->max_mhz * cpu_load / 100.0;
	int over_hispeed = 0;
	if (cpu_load >= t->go_hispeed_load || t->boost) {
		if (c->target_mhz <= p->min_mhz) {
			want = hs;
		} else {
			if (want < hs)
				want = hs;
			over_hispeed = 1;
		}
	}
	want = second_pair(g, p, c->target_mhz, cpu_load, want);
	/* Above hispeed only after above_hispeed_delay at it (at it only, not above it). */
	if (over_hispeed && c->target_mhz == hs && want > hs &&
	    now - c->hispeed_validate_ns < t->above_hispeed_delay_us * US)
		goto rearm;
	if (want <= hs)
		c->hispeed_validate_ns = now;

	const unsigned new_freq = bls_policy_freq_h(p, want);
	/* Not below the floor until it has held min_sample_time; every evaluation that gets
	 * past here validates its speed as the new floor. */
	if (new_freq < c->floor_mhz && now - c->floor_validate_ns < t->min_sample_time_us * US)
		goto rearm;
	c->floor_mhz = new_freq;
	c->floor_validate_ns = now;

	if (new_freq != c->target_mhz) {
		set_target_2012(g, cpu, new_freq, now);
		speedchange(g, p, cpu);
	}
	/* At the policy's max, no timer until the next idle exit. */
	if (c->target_mhz == p->max_mhz)
		return;
rearm:
	/* The timer has just fired, so it is not pending. At the minimum an idle CPU needs no
	 * timer, and a busy one's goes when it next idles (timer_idlecancel). */
	if (c->target_mhz == p->min_mhz) {
		if (g->idle[cpu])
			return;
		c->timer_idlecancel = 1;
	}
	arm_2012(g, cpu, now);
}

static void idle_enter_2012(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	const int pending = c->slack_ns != BLS_GOV_NO_DEADLINE;
	if (c->target_mhz != p->min_mhz) {
		/* Above the minimum an idle CPU would hold its policy's speed up: its timer wakes
		 * it to lower it. */
		if (!pending) {
			arm_2012(g, cpu, now);
			c->timer_idlecancel = 0;
		}
	} else if (pending && c->timer_idlecancel) {
		c->slack_ns = BLS_GOV_NO_DEADLINE;
		c->timer_idlecancel = 0;
	}
}

static void idle_exit_2012(struct bls_governor *g, unsigned cpu, uint64_t now)
{
	/* A timer 1-2 ticks after the idle exit. Linux also checks that the timer function has
	 * consumed the last window (it may run on another CPU); here a CPU's sample runs on
	 * that CPU, so it always has. An overdue timer runs at the CPU's next scheduling point. */
	struct bls_gov_cpu *c = &g->cpu[cpu];
	if (c->slack_ns == BLS_GOV_NO_DEADLINE) {
		arm_2012(g, cpu, now);
		c->timer_idlecancel = 0;
	}
}

/* --- the governor, both generations ------------------------------------------------------ */

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
		if (is_2012(g)) {
			/* Its GOV_START arms no timer: the next idle exit does. A policy here may
			 * start on a CPU already busy (at boot, the switcher turned on), so the start
			 * counts as one (docs/os.md). */
			set_target_2012(g, cpu, p->cur_mhz, now);
			c->timer_idlecancel = 0;
			arm_2012(g, cpu, now);
		} else {
			resched(g, p, cpu, now);
		}
	}
}

static void sample_2013(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
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

	new_freq = (unsigned)second_pair(g, p, c->target_mhz, cpu_load, new_freq);

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

static void interactive_sample(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	if (is_2012(g))
		sample_2012(g, p, cpu, now);
	else
		sample_2013(g, p, cpu, now);
}

static void interactive_idle_enter(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	if (is_2012(g))
		idle_enter_2012(g, p, cpu, now);
	else if (c->target_mhz != p->min_mhz && c->next_ns == BLS_GOV_NO_DEADLINE)
		resched(g, p, cpu, now);
}

static void interactive_idle_exit(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	if (is_2012(g)) {
		idle_exit_2012(g, cpu, now);
	} else if (c->next_ns == BLS_GOV_NO_DEADLINE) {
		resched(g, p, cpu, now);
	} else if (now >= c->next_ns) {
		bls_gov_sample_now(g, p, cpu, now); /* overdue (deferred while idle): now */
	}
}

static void interactive_freq_changing(struct bls_governor *g, struct bls_policy *p, unsigned mhz, uint64_t now)
{
	(void)mhz;
	if (is_2012(g))
		return; /* unweighted: no transition notifier */
	/* Time at the old frequency is weighted by it. */
	for (unsigned cpu = 0; cpu < BLS_MAX_CPUS; cpu++)
		if (p->cpus >> cpu & 1u)
			update_load(g, p, cpu, now);
}

static void interactive_boostpulse(struct bls_governor *g, uint64_t now)
{
	/* 2013: boosted for boostpulse_duration. 2012: a pulse is the boost alone, which the
	 * floor holds min_sample_time. */
	if (!is_2012(g))
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
				if (is_2012(g))
					set_target_2012(g, cpu, hs, now);
				else
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

/* 2012 reads get_cpu_idle_time_us alone, which leaves I/O wait out of idle since the 3.x
 * kernels split the two: busy. 2013 adds the iowait time back unless io_is_busy. */
static int interactive_iowait_busy(const struct bls_governor *g)
{
	return is_2012(g) || tun(g)->io_is_busy;
}

const struct bls_governor_ops bls_gov_interactive = {
	.name = "interactive",
	.start = interactive_start,
	.sample = interactive_sample,
	.idle_enter = interactive_idle_enter,
	.idle_exit = interactive_idle_exit,
	.freq_changing = interactive_freq_changing,
	.boostpulse = interactive_boostpulse,
	.iowait_busy = interactive_iowait_busy,
};
