/* switcher/src/sched/hmp.c -- Linaro's big.LITTLE MP, "global task scheduling" (bls/sched.h;
 * docs/modes.md, "HMP", has the rules and where they come from).
 *
 * The CPUs form two domains, the slowest clusters ("little") and the rest ("big": on a
 * three-cluster SoC the medium and the big cluster together, as Linaro's HMP knew two domains
 * only). Each task
 * carries an HMP load: its runnable average on a clock scaled so that load_avg_period_ms is
 * the half-life, each runnable microsecond counted at the share of its cluster's top speed
 * the CPU ran at (frequency invariance; else in full). A task above up_threshold belongs on big, one below down_threshold on
 * little; between them it stays where it is. Tasks change domain when they wake (fork to
 * big, wake migration), when a little CPU's tick finds its task heavy and a big CPU idle
 * (forced up-migration), when an idle big CPU pulls the heaviest little task (idle pull, an
 * active migration done by the little CPU at its scheduling point), and when a big CPU with
 * tasks waiting pushes one to an idle little CPU (offload). A task moves up (down) only
 * up_interval (down_interval) after its last move between clusters, so that its load
 * settles. Within a domain CFS places and balances.
 */
#include <math.h>

#include "internal.h"

void bls_hmp_default_config(struct bls_hmp_config *t)
{
	BLS_HMP_TUNABLES(BLS_TUNABLE_SET_DEFAULT)
}

uint64_t hmp_clock(const struct bls_sched *s, uint64_t now)
{
	const unsigned period = s->cfg.hmp.load_avg_period_ms;
	if (period == 0 || period == 32)
		return now;
	return (uint64_t)((double)now * 32.0 / period);
}

/* The HMP load is kept in a load-tracking entity of its own: its runnable signal is the
 * plain load, and its util signal, fed the runnable time at the frequency's share, the
 * frequency-invariant one. */
void hmp_load_update(struct bls_sched *s, unsigned id, uint64_t now, int runnable)
{
	struct bls_sched_task *t = &s->task[id];
	/* The rq's scale is capacity x frequency of the reference's; of its own cluster's top
	 * capacity that is the frequency's share. */
	const double top = s->cfg.cluster_capacity[s->cfg.cpu_cluster[t->cpu]] / BLS_PELT_SCALE;
	double f = s->rq[t->cpu].scale / top;
	f = f > 1.0 ? 1.0 : f;
	bls_pelt_update(&t->hmp_load, hmp_clock(s, now), runnable, runnable, f);
}

double hmp_load_of(const struct bls_sched *s, unsigned id)
{
	const struct bls_pelt *p = &s->task[id].hmp_load;
	return s->cfg.hmp.frequency_invariant ? p->util_avg : p->runnable_avg;
}

void hmp_load_seed(struct bls_sched *s, unsigned id, uint64_t now)
{
	struct bls_sched_task *t = &s->task[id];
	sched_pelt_sync(s, id, now);
	/* From the plain runnable history (its speeds are not known). */
	t->hmp_load = t->pelt;
	t->hmp_load.util_sum = t->pelt.runnable_sum;
	t->hmp_load.util_avg = t->pelt.runnable_avg;
	t->hmp_load.last_ns = hmp_clock(s, now);
}

double bls_sched_hmp_load(struct bls_sched *s, unsigned task, uint64_t now_ns)
{
	if (task >= s->ntasks)
		return 0;
	if (s->cfg.placement == BLS_PLACE_HMP)
		sched_pelt_sync(s, task, now_ns);
	return hmp_load_of(s, task);
}

static int is_big(const struct bls_sched *s, unsigned cpu)
{
	return (int)(s->hmp_fast >> cpu & 1u);
}

static uint32_t domain_of(const struct bls_sched *s, int big)
{
	const uint32_t all = s->cfg.ncpus >= 32 ? ~0u : (1u << s->cfg.ncpus) - 1u;
	return big ? s->hmp_fast : all & ~s->hmp_fast;
}

/* The priority filter: low-priority tasks never go up. */
static int filtered(const struct bls_sched *s, const struct bls_sched_task *t)
{
	return s->cfg.hmp.prio_filter && t->nice >= s->cfg.hmp.prio_filter_nice;
}

static int may_go_up(const struct bls_sched *s, const struct bls_sched_task *t, uint64_t now, double load)
{
	const struct bls_hmp_config *h = &s->cfg.hmp;
	if (load <= h->up_threshold || filtered(s, t))
		return 0;
	return !t->last_xmig_ns || now - t->last_xmig_ns >= h->up_interval_ns;
}

static int may_go_down(const struct bls_sched *s, const struct bls_sched_task *t, uint64_t now, double load)
{
	const struct bls_hmp_config *h = &s->cfg.hmp;
	if (load >= h->down_threshold && !filtered(s, t))
		return 0;
	return !t->last_xmig_ns || now - t->last_xmig_ns >= h->down_interval_ns;
}

/* An idle big CPU @t may run, none being pulled into already (hmp_domain_min_load == 0). */
static int idle_big(const struct bls_sched *s, const struct bls_sched_task *t)
{
	for (unsigned c = 0; c < s->cfg.ncpus; c++) {
		if (!is_big(s, c) || !sched_cpu_allowed(s, t, c) || s->rq[c].nr_running)
			continue;
		int claimed = 0;
		for (unsigned o = 0; o < s->cfg.ncpus; o++)
			claimed |= s->rq[o].pull_to == (int)c;
		if (!claimed)
			return (int)c;
	}
	return -1;
}

/* The HMP loads of the tasks on @cpu (sleepers included, as the run queue's load average). */
static double cpu_load(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	double sum = 0;
	for_each_task(s, i, SCHED_LIVE(s, cpu)) {
		sum += bls_sched_hmp_load(s, i, now);
	}
	return sum;
}

/* Small-task packing (hmp_best_little_cpu): the first little CPU with room for @load below
 * packing_limit; -1: none. */
static int pack(struct bls_sched *s, const struct bls_sched_task *t, uint64_t now, double load)
{
	for (unsigned c = 0; c < s->cfg.ncpus; c++)
		if (!is_big(s, c) && sched_cpu_allowed(s, t, c) &&
		    cpu_load(s, c, now) + load < s->cfg.hmp.packing_limit)
			return (int)c;
	return -1;
}

int hmp_select_cpu(struct bls_sched *s, unsigned id, uint64_t now, int fresh, double load)
{
	struct bls_sched_task *t = &s->task[id];
	const struct bls_hmp_config *h = &s->cfg.hmp;
	if (fresh) {
		if (!h->fork_to_big || filtered(s, t))
			return sched_select_cpu_in(s, t, domain_of(s, 0));
		/* Fork to big, looking as heavy as it may be (init_task_runnable_average). */
		const double y = bls_pelt_decay(1.0);
		t->hmp_load.runnable_sum = t->hmp_load.util_sum = BLS_PELT_PERIOD_US / (1.0 - y) - BLS_PELT_PERIOD_US;
		t->hmp_load.period_contrib = 0;
		t->hmp_load.runnable_avg = t->hmp_load.util_avg = BLS_PELT_SCALE;
		s->stats.hmp_fork++;
		return sched_select_cpu_in(s, t, domain_of(s, 1));
	}
	const int on_big = is_big(s, t->cpu);
	int to_big = on_big;
	if (h->wake_migration) {
		if (!on_big && may_go_up(s, t, now, load) && idle_big(s, t) >= 0)
			to_big = 1;
		else if (on_big && may_go_down(s, t, now, load))
			to_big = 0;
	}
	if (!to_big && h->packing && load < h->packing_limit) {
		const int c = pack(s, t, now, load);
		if (c >= 0) {
			if (on_big)
				s->stats.hmp_wake++;
			return c;
		}
	}
	const int c = to_big && !on_big ? idle_big(s, t) : sched_select_cpu_in(s, t, domain_of(s, to_big));
	if (c >= 0 && to_big != on_big)
		s->stats.hmp_wake++;
	return c;
}

uint32_t hmp_active_pull(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	const int to = rq->pull_to, id = rq->pull_task;
	rq->pull_to = rq->pull_task = NO_TASK;
	const struct bls_sched_task *t = &s->task[id];
	/* Still ours, still runnable, still wanted by an idle CPU it may run on. */
	if (t->state != BLS_TASK_RUNNABLE || t->cpu != cpu || s->rq[to].nr_running ||
	    !sched_cpu_allowed(s, t, (unsigned)to))
		return 0;
	s->stats.hmp_idle_pull++;
	return sched_move(s, (unsigned)id, (unsigned)to, now) | 1u << cpu;
}

/* Idle pull (hmp_idle_pull): idle big @cpu takes the heaviest little task above
 * up_threshold. A waiting one moves at once; a running one is asked of its CPU. */
static uint32_t idle_pull(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	for (unsigned o = 0; o < s->cfg.ncpus; o++)
		if (s->rq[o].pull_to == (int)cpu)
			return 0; /* one is on its way */
	int best = NO_TASK;
	double best_load = 0;
	for_each_task(s, i, SCHED_IN(s, BLS_TASK_RUNNABLE)) {
		const struct bls_sched_task *t = &s->task[i];
		if (!sched_is_fair(t) || is_big(s, t->cpu) || !sched_cpu_allowed(s, t, cpu) ||
		    s->rq[t->cpu].pull_to != NO_TASK)
			continue;
		const double load = bls_sched_hmp_load(s, i, now);
		if (may_go_up(s, t, now, load) && (best == NO_TASK || load > best_load)) {
			best = (int)i;
			best_load = load;
		}
	}
	if (best == NO_TASK)
		return 0;
	const unsigned from = s->task[best].cpu;
	if (s->rq[from].curr != best) {
		s->stats.hmp_idle_pull++;
		return sched_move(s, (unsigned)best, cpu, now);
	}
	s->rq[from].pull_to = (int)cpu;
	s->rq[from].pull_task = best;
	return 1u << from;
}

/* Forced up-migration (hmp_force_up_migration) of little @cpu's running task, at its tick. */
static uint32_t force_up(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK)
		return 0;
	const unsigned id = (unsigned)rq->curr;
	const struct bls_sched_task *t = &s->task[id];
	if (!sched_is_fair(t) || !may_go_up(s, t, now, bls_sched_hmp_load(s, id, now)))
		return 0;
	const int to = idle_big(s, t);
	if (to < 0)
		return 0;
	s->stats.hmp_forced++;
	return sched_move(s, id, (unsigned)to, now);
}

/* Offload (hmp_offload_down): big @cpu with tasks waiting gives the lightest waiting one
 * that may go down to an idle little CPU. */
static uint32_t offload(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->nr_running < 2)
		return 0;
	int best = NO_TASK, to = -1;
	double best_load = 0;
	for_each_task(s, i, SCHED_QUEUED(s, cpu)) {
		const struct bls_sched_task *t = &s->task[i];
		if (rq->curr == (int)i || !sched_is_fair(t))
			continue;
		const double load = bls_sched_hmp_load(s, i, now);
		if (t->last_xmig_ns && now - t->last_xmig_ns < s->cfg.hmp.down_interval_ns)
			continue;
		if (best != NO_TASK && load >= best_load)
			continue;
		int idle = -1;
		for (unsigned c = 0; c < s->cfg.ncpus && idle < 0; c++)
			if (!is_big(s, c) && sched_cpu_allowed(s, t, c) && s->rq[c].nr_running == 0)
				idle = (int)c;
		if (idle >= 0) {
			best = (int)i;
			best_load = load;
			to = idle;
		}
	}
	if (best == NO_TASK)
		return 0;
	s->stats.hmp_offload++;
	return sched_move(s, (unsigned)best, (unsigned)to, now);
}

uint32_t hmp_balance(struct bls_sched *s, unsigned cpu, uint64_t now, int due)
{
	const struct bls_hmp_config *h = &s->cfg.hmp;
	const struct bls_rq *rq = &s->rq[cpu];
	if (is_big(s, cpu)) {
		if (rq->nr_running == 0 && h->idle_pull)
			return idle_pull(s, cpu, now);
		if (due && h->offload)
			return offload(s, cpu, now);
		return 0;
	}
	if (due && h->forced_up)
		return force_up(s, cpu, now);
	return 0;
}
