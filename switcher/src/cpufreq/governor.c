/* switcher/src/cpufreq/governor.c -- the governor core (bls/governor.h): policies, sampling
 * deadlines, statistics, frequency-table lookups, and the governors that never sample
 * (performance, powersave, userspace). */
#include "bls/governor.h"

#include <string.h>

void bls_interactive_default_tunables(struct bls_interactive_tunables *t, enum bls_interactive_variant v)
{
	memset(t, 0, sizeof(*t));
	t->variant = v;
	BLS_INTERACTIVE_TUNABLES_HISPEED(BLS_TUNABLE_SET_DEFAULT)
	BLS_INTERACTIVE_TUNABLES_TIMING(BLS_TUNABLE_SET_DEFAULT)
	/* Each generation's DEFAULT_GO_HISPEED_LOAD (the table's is 2013's); the rest did not
	 * change. */
	if (v == BLS_INTERACTIVE_2012)
		t->go_hispeed_load = 85;
	t->ntarget_loads = 1;
	t->target_load[0] = 90;
}

/* Each from its table's defaults (bls/governor.h). */
static void ondemand_defaults(struct bls_ondemand_tunables *t)
{
	BLS_ONDEMAND_TUNABLES(BLS_TUNABLE_SET_DEFAULT)
}

static void conservative_defaults(struct bls_conservative_tunables *t)
{
	BLS_CONSERVATIVE_TUNABLES(BLS_TUNABLE_SET_DEFAULT)
}

static void schedutil_defaults(struct bls_schedutil_tunables *t)
{
	BLS_SCHEDUTIL_TUNABLES(BLS_TUNABLE_SET_DEFAULT)
}

void bls_governor_default_tunables(struct bls_governor_tunables *t)
{
	memset(t, 0, sizeof(*t));
	bls_interactive_default_tunables(&t->interactive, BLS_INTERACTIVE_2013);
	ondemand_defaults(&t->ondemand);
	conservative_defaults(&t->conservative);
	schedutil_defaults(&t->schedutil);
}

static int parse_uint(const char *s, unsigned *pos, unsigned *out)
{
	unsigned v = 0, i = *pos;
	if (s[i] < '0' || s[i] > '9')
		return -1;
	while (s[i] >= '0' && s[i] <= '9') {
		if (v > 100000000u)
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
		i++;
	}
	*pos = i;
	*out = v;
	return 0;
}

int bls_interactive_parse_target_loads(struct bls_interactive_tunables *t, const char *text)
{
	/* "L0 F1:L1 F2:L2 ...": loads 1..100 (a target load of 0 would ask for infinite speed),
	 * frequencies ascending. */
	struct bls_interactive_tunables out = *t;
	unsigned pos = 0, n = 0;
	while (text[pos] == ' ')
		pos++;
	for (;;) {
		unsigned freq = 0, load;
		if (n > 0) {
			if (parse_uint(text, &pos, &freq) || text[pos] != ':' || freq <= out.target_load_freq[n - 1])
				return (int)pos + 1;
			pos++;
		}
		if (n == BLS_GOV_MAX_TARGET_LOADS || parse_uint(text, &pos, &load) || load == 0 || load > 100)
			return (int)pos + 1;
		out.target_load_freq[n] = freq;
		out.target_load[n] = load;
		n++;
		while (text[pos] == ' ')
			pos++;
		if (text[pos] == '\0')
			break;
	}
	out.ntarget_loads = n;
	*t = out;
	return 0;
}

/* --- table lookups ---------------------------------------------------------------------- */

unsigned bls_policy_freq_l(const struct bls_policy *p, double mhz)
{
	for (unsigned i = 0; i < p->nfreqs; i++)
		if (p->freq_mhz[i] >= mhz && p->freq_mhz[i] >= p->min_mhz)
			return p->freq_mhz[i] > p->max_mhz ? p->max_mhz : p->freq_mhz[i];
	return p->max_mhz;
}

unsigned bls_policy_freq_h(const struct bls_policy *p, double mhz)
{
	for (unsigned i = p->nfreqs; i-- > 0;)
		if (p->freq_mhz[i] <= mhz && p->freq_mhz[i] <= p->max_mhz)
			return p->freq_mhz[i] < p->min_mhz ? p->min_mhz : p->freq_mhz[i];
	return p->min_mhz;
}

unsigned bls_policy_freq_c(const struct bls_policy *p, double mhz)
{
	const unsigned lo = bls_policy_freq_h(p, mhz), hi = bls_policy_freq_l(p, mhz);
	return mhz - lo < hi - mhz ? lo : hi;
}

/* --- the core --------------------------------------------------------------------------- */

void bls_governor_init(struct bls_governor *g, const struct bls_governor_ops *ops,
		       const struct bls_governor_tunables *tun, const struct bls_gov_env *env, void *ctx)
{
	memset(g, 0, sizeof(*g));
	g->ops = ops;
	g->tun = *tun;
	g->env = env;
	g->ctx = ctx;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		g->policy_of[c] = -1;
}

struct bls_policy *bls_governor_policy_of(struct bls_governor *g, unsigned cpu)
{
	return cpu < BLS_MAX_CPUS && g->policy_of[cpu] >= 0 ? &g->policy[g->policy_of[cpu]] : NULL;
}

uint64_t bls_policy_time_in_state_ns(const struct bls_policy *p, unsigned i, uint64_t now_ns)
{
	uint64_t ns = p->time_in_state_ns[i];
	if (p->freq_mhz[i] == p->cur_mhz && now_ns > p->tis_since_ns)
		ns += now_ns - p->tis_since_ns;
	return ns;
}

static void account_state(struct bls_policy *p, uint64_t now)
{
	for (unsigned i = 0; i < p->nfreqs; i++)
		if (p->freq_mhz[i] == p->cur_mhz) {
			p->time_in_state_ns[i] += now - p->tis_since_ns;
			break;
		}
	p->tis_since_ns = now;
}

int bls_governor_set_policies(struct bls_governor *g, const struct bls_policy *p, unsigned n, uint64_t now_ns)
{
	if (n > BLS_MAX_CPUS)
		return -BLS_EINVAL;
	uint32_t seen = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct bls_policy *q = &p[i];
		if (!q->cpus || (q->cpus & seen) || !q->nfreqs || q->nfreqs > BLS_GOV_MAX_FREQS)
			return -BLS_EINVAL;
		for (unsigned f = 1; f < q->nfreqs; f++)
			if (q->freq_mhz[f] <= q->freq_mhz[f - 1])
				return -BLS_EINVAL;
		seen |= q->cpus;
	}
	/* The old policies' statistics end here; the caller has read them if it wanted. */
	for (unsigned i = 0; i < g->npolicies; i++)
		account_state(&g->policy[i], now_ns);
	g->npolicies = n;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++) {
		g->policy_of[c] = -1;
		memset(&g->cpu[c], 0, sizeof(g->cpu[c]));
		g->cpu[c].next_ns = g->cpu[c].slack_ns = BLS_GOV_NO_DEADLINE;
	}
	for (unsigned i = 0; i < n; i++) {
		struct bls_policy *q = &g->policy[i];
		*q = p[i];
		if (!q->min_mhz)
			q->min_mhz = q->freq_mhz[0];
		if (!q->max_mhz)
			q->max_mhz = q->freq_mhz[q->nfreqs - 1];
		q->target_mhz = q->cur_mhz;
		memset(q->time_in_state_ns, 0, sizeof(q->time_in_state_ns));
		q->tis_since_ns = now_ns;
		q->freq_changes = 0;
		for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
			if (q->cpus >> c & 1u) {
				g->policy_of[c] = (int)i;
				g->cpu[c].prev_wall_ns = now_ns;
				g->cpu[c].prev_idle_ns = bls_gov_idle_ns(g, c, now_ns);
			}
	}
	for (unsigned i = 0; i < n; i++)
		g->ops->start(g, &g->policy[i], now_ns);
	return 0;
}

uint64_t bls_governor_deadline(const struct bls_governor *g, unsigned cpu, int idle)
{
	if (cpu >= BLS_MAX_CPUS || g->policy_of[cpu] < 0)
		return BLS_GOV_NO_DEADLINE;
	const struct bls_gov_cpu *c = &g->cpu[cpu];
	if (idle)
		return c->slack_ns;
	return c->next_ns < c->slack_ns ? c->next_ns : c->slack_ns;
}

void bls_governor_run(struct bls_governor *g, unsigned cpu, uint64_t now_ns)
{
	struct bls_policy *p = bls_governor_policy_of(g, cpu);
	if (!p || !g->ops->sample)
		return;
	const struct bls_gov_cpu *c = &g->cpu[cpu];
	if (now_ns >= c->next_ns || now_ns >= c->slack_ns)
		bls_gov_sample_now(g, p, cpu, now_ns);
}

void bls_gov_sample_now(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now_ns)
{
	/* Both timers are spent; the governor re-arms what it wants. */
	g->cpu[cpu].next_ns = g->cpu[cpu].slack_ns = BLS_GOV_NO_DEADLINE;
	g->stats.samples++;
	g->ops->sample(g, p, cpu, now_ns);
}

void bls_gov_arm(struct bls_governor *g, const struct bls_policy *p, uint64_t at)
{
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		if (p->cpus >> c & 1u)
			g->cpu[c].next_ns = at;
}

void bls_governor_idle(struct bls_governor *g, unsigned cpu, int idle, uint64_t now_ns)
{
	struct bls_policy *p = bls_governor_policy_of(g, cpu);
	if (!p || g->idle[cpu] == idle)
		return;
	g->idle[cpu] = idle;
	if (idle) {
		if (g->ops->idle_enter)
			g->ops->idle_enter(g, p, cpu, now_ns);
	} else if (g->ops->idle_exit) {
		g->ops->idle_exit(g, p, cpu, now_ns);
	} else {
		bls_governor_run(g, cpu, now_ns); /* a deferred sample, overdue */
	}
}

void bls_governor_freq_changed(struct bls_governor *g, unsigned cpu, unsigned mhz, uint64_t now_ns)
{
	struct bls_policy *p = bls_governor_policy_of(g, cpu);
	if (!p || mhz == p->cur_mhz)
		return;
	if (g->ops->freq_changing)
		g->ops->freq_changing(g, p, mhz, now_ns);
	account_state(p, now_ns);
	p->cur_mhz = mhz;
	p->freq_changes++;
}

void bls_governor_freq_failed(struct bls_governor *g, unsigned cpu, uint64_t now_ns)
{
	(void)now_ns;
	struct bls_policy *p = bls_governor_policy_of(g, cpu);
	if (!p)
		return;
	p->target_mhz = p->cur_mhz;
	g->stats.failed_transitions++;
}

void bls_governor_boostpulse(struct bls_governor *g, uint64_t now_ns)
{
	if (g->ops->boostpulse)
		g->ops->boostpulse(g, now_ns);
}

void bls_gov_sampled(struct bls_governor *g, unsigned cpu, double load_pct)
{
	if (g->env->sampled)
		g->env->sampled(g->ctx, cpu, load_pct <= 0.0 ? 0u : (unsigned)(load_pct + 0.5));
}

void bls_gov_request(struct bls_governor *g, struct bls_policy *p, unsigned cpu, unsigned mhz)
{
	if (mhz == p->target_mhz)
		return;
	p->target_mhz = mhz;
	g->stats.requests++;
	g->env->request(g->ctx, cpu, mhz);
}

uint64_t bls_gov_idle_ns(struct bls_governor *g, unsigned cpu, uint64_t now_ns)
{
	const uint64_t idle = g->env->idle_ns(g->ctx, cpu, now_ns);
	if (!g->env->iowait_ns || !g->ops->iowait_busy || !g->ops->iowait_busy(g))
		return idle;
	const uint64_t io = g->env->iowait_ns(g->ctx, cpu, now_ns);
	return idle > io ? idle - io : 0;
}

uint64_t bls_gov_busy_ns(struct bls_governor *g, unsigned cpu, uint64_t now_ns)
{
	struct bls_gov_cpu *c = &g->cpu[cpu];
	const uint64_t idle = bls_gov_idle_ns(g, cpu, now_ns);
	const uint64_t wall = now_ns - c->prev_wall_ns, didle = idle - c->prev_idle_ns;
	c->prev_wall_ns = now_ns;
	c->prev_idle_ns = idle;
	return wall > didle ? wall - didle : 0;
}

unsigned bls_gov_cpu_load(struct bls_governor *g, unsigned cpu, uint64_t now_ns)
{
	const uint64_t wall = now_ns - g->cpu[cpu].prev_wall_ns;
	const uint64_t busy = bls_gov_busy_ns(g, cpu, now_ns);
	return wall ? (unsigned)(100 * busy / wall) : 0;
}

/* --- governors that never sample --------------------------------------------------------- */

static void performance_start(struct bls_governor *g, struct bls_policy *p, uint64_t now_ns)
{
	(void)now_ns;
	bls_gov_request(g, p, p->first_cpu, p->max_mhz);
}

static void powersave_start(struct bls_governor *g, struct bls_policy *p, uint64_t now_ns)
{
	(void)now_ns;
	bls_gov_request(g, p, p->first_cpu, p->min_mhz);
}

/* userspace: the frequency stays where it is until scaling_setspeed is written (the kernel
 * turns such a write into bls_gov_request()). */
static void userspace_start(struct bls_governor *g, struct bls_policy *p, uint64_t now_ns)
{
	(void)g;
	(void)p;
	(void)now_ns;
}

const struct bls_governor_ops bls_gov_performance = {.name = "performance", .start = performance_start};
const struct bls_governor_ops bls_gov_powersave = {.name = "powersave", .start = powersave_start};
const struct bls_governor_ops bls_gov_userspace = {.name = "userspace", .start = userspace_start};

const struct bls_governor_ops *bls_governor_find(const char *name)
{
	static const struct bls_governor_ops *const all[] = {
		&bls_gov_performance, &bls_gov_powersave, &bls_gov_userspace, &bls_gov_interactive,
		&bls_gov_ondemand, &bls_gov_conservative, &bls_gov_schedutil,
	};
	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}
