/* switcher/src/sched/fair.c -- the fair scheduler (bls/sched.h; docs/os.md, "Scheduler"). */
#include "bls/sched.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"

unsigned bls_sched_weight(int nice)
{
	/* Linux's sched_prio_to_weight: each nice level is about 10% of CPU time, a factor of
	 * 1.25 in weight, 1024 at nice 0. */
	return (unsigned)lround(BLS_NICE_0_WEIGHT * pow(1.25, -nice));
}

void sched_record(struct bls_sched *s, unsigned kind, unsigned a, unsigned b)
{
	if (s->nev == BLS_SCHED_MAX_EVENTS) {
		s->ev_dropped++;
		return;
	}
	s->ev[s->nev].kind = kind;
	s->ev[s->nev].a = a;
	s->ev[s->nev].b = b;
	s->nev++;
}

void bls_sched_take_events(struct bls_sched *s, void (*fn)(void *, unsigned, unsigned, unsigned), void *ctx)
{
	/* The callee may call back into the scheduler: take the batch first. */
	unsigned n = s->nev;
	if (n == 0)
		return; /* the common case: taken at every pass of the CPU's loop */
	struct { unsigned kind, a, b; } ev[BLS_SCHED_MAX_EVENTS];
	memcpy(ev, s->ev, n * sizeof(ev[0]));
	s->nev = 0;
	for (unsigned i = 0; i < n; i++)
		fn(ctx, ev[i].kind, ev[i].a, ev[i].b);
}

int bls_sched_init(struct bls_sched *s, const struct bls_sched_config *cfg, uint32_t online, uint64_t now_ns)
{
	if (!cfg || cfg->ncpus == 0 || cfg->ncpus > BLS_MAX_CPUS || cfg->min_granularity_ns == 0 ||
	    cfg->latency_ns < cfg->min_granularity_ns || cfg->balance_interval_ns == 0)
		return -BLS_EINVAL;
	const uint32_t all = cfg->ncpus == 32 ? ~0u : (1u << cfg->ncpus) - 1u;
	if (online == 0 || (online & ~all) || cfg->ngroups > BLS_MAX_GROUPS)
		return -BLS_EINVAL;
	for (unsigned g = 1; g < cfg->ngroups; g++)
		if (cfg->group[g].parent >= g || cfg->group[g].shares < 2 || cfg->group[g].shares > 262144)
			return -BLS_EINVAL; /* parents first; cpu.shares' range (MIN_SHARES..MAX_SHARES) */
	memset(s, 0, offsetof(struct bls_sched, task)); /* the tables after are read as filled */
	s->cfg = *cfg;
	s->online = online;
	s->active = online;
	for (unsigned c = 0; c < cfg->ncpus; c++) {
		s->rq[c].curr = NO_TASK;
		s->rq[c].last_ran = NO_TASK;
		s->rq[c].scale = 1.0;
		s->rq[c].idle = 1;
		s->rq[c].idle_since_ns = now_ns;
		s->rq[c].iowait_since_ns = now_ns;
		s->rq[c].next_balance_ns = now_ns + cfg->balance_interval_ns;
		s->rq[c].pull_to = NO_TASK;
		s->rq[c].pull_task = NO_TASK;
		s->rq[c].skip = NO_TASK;
		rt_init_rq(s, c, now_ns);
	}
	if (!s->cfg.placement)
		s->cfg.placement = BLS_PLACE_FAIR;
	return bls_sched_set_placement(s, s->cfg.placement, now_ns);
}

int bls_sched_set_placement(struct bls_sched *s, enum bls_placement p, uint64_t now_ns)
{
	if (p != BLS_PLACE_FAIR && p != BLS_PLACE_HMP && p != BLS_PLACE_EAS)
		return -BLS_EINVAL;
	if (p != BLS_PLACE_FAIR) {
		/* A topology: clusters of known capacity, the fastest at 1024. */
		const struct bls_sched_config *c = &s->cfg;
		if (c->nclusters < 1 || c->nclusters > BLS_MAX_CLUSTERS)
			return -BLS_EINVAL;
		double top = 0, bottom = 0;
		for (unsigned k = 0; k < c->nclusters; k++) {
			top = c->cluster_capacity[k] > top ? c->cluster_capacity[k] : top;
			bottom = k == 0 || c->cluster_capacity[k] < bottom ? c->cluster_capacity[k] : bottom;
		}
		if (!(bottom > 0))
			return -BLS_EINVAL;
		/* HMP's two domains: with two clusters the big one and the little one; with more,
		 * every cluster above the slowest is "fast" (Linaro's HMP knew a fast and a slow
		 * domain only). Clusters all alike: every CPU is big. */
		s->big = 0;
		s->hmp_fast = 0;
		for (unsigned cpu = 0; cpu < c->ncpus; cpu++) {
			if (c->cpu_cluster[cpu] >= c->nclusters)
				return -BLS_EINVAL;
			const double cap = c->cluster_capacity[c->cpu_cluster[cpu]];
			if (cap >= top)
				s->big |= 1u << cpu;
			if (cap > bottom || top == bottom)
				s->hmp_fast |= 1u << cpu;
		}
		if (p == BLS_PLACE_HMP && (c->hmp.load_avg_period_ms == 0 || c->hmp.down_threshold >= c->hmp.up_threshold))
			return -BLS_EINVAL;
		if (p == BLS_PLACE_EAS)
			for (unsigned k = 0; k < c->nclusters; k++)
				if (c->em.nopps[k] == 0 || c->em.nopps[k] > BLS_MAX_OPPS)
					return -BLS_EINVAL;
	}
	if (p == BLS_PLACE_HMP && s->cfg.placement != BLS_PLACE_HMP) {
		/* HMP's load starts from what load tracking knows (the same signal on its own
		 * clock), not from nothing. */
		for (unsigned i = 0; i < s->ntasks; i++)
			hmp_load_seed(s, i, now_ns);
	}
	if (p != BLS_PLACE_HMP)
		for (unsigned c = 0; c < s->cfg.ncpus; c++)
			s->rq[c].pull_to = s->rq[c].pull_task = NO_TASK; /* HMP's pulls end with it */
	s->cfg.placement = p;
	return 0;
}

int bls_sched_add_task(struct bls_sched *s, const struct bls_sched_task_config *tc, uint64_t now_ns)
{
	const uint32_t all = s->cfg.ncpus >= 32 ? ~0u : (1u << s->cfg.ncpus) - 1u;
	if (s->ntasks == BLS_MAX_TASKS || tc->nice < -20 || tc->nice > 19 || (tc->affinity & ~all) ||
	    (tc->group != 0 && tc->group >= s->cfg.ngroups))
		return -BLS_EINVAL;
	const int rt = tc->policy == BLS_SCHED_FIFO || tc->policy == BLS_SCHED_RR;
	if (tc->policy == BLS_SCHED_DEADLINE) {
		const int rc = dl_check_params(s, tc);
		if (rc)
			return rc;
	} else if ((tc->policy != BLS_SCHED_NORMAL && !rt) ||
		   (rt ? tc->rt_priority < 1 || tc->rt_priority > BLS_MAX_RT_PRIO : tc->rt_priority != 0)) {
		return -BLS_EINVAL;
	}
	const unsigned id = s->ntasks++;
	struct bls_sched_task *t = &s->task[id];
	memset(t, 0, sizeof(*t));
	t->affinity = tc->affinity ? tc->affinity : all;
	t->nice = tc->nice;
	t->weight = t->nice_weight = bls_sched_weight(tc->nice);
	t->group = tc->group;
	t->policy = tc->policy;
	t->rt_priority = tc->rt_priority;
	rt_init_task(s, t);
	if (tc->policy == BLS_SCHED_DEADLINE)
		dl_init_task(t, tc);
	/* Its first CPU: the lowest it may run on (placement at its first wake-up decides). */
	for (unsigned c = 0; c < s->cfg.ncpus; c++)
		if (t->affinity >> c & 1u) {
			t->cpu = c;
			break;
		}
	t->state = BLS_TASK_NEW;
	sched_bit_set(s->in_state[sched_state_index(BLS_TASK_NEW)], id);
	sched_bit_set(s->on_cpu[t->cpu], id);
	bls_pelt_init(&t->pelt, now_ns);
	bls_pelt_init(&t->hmp_load, s->cfg.placement == BLS_PLACE_HMP ? hmp_clock(s, now_ns) : now_ns);
	return (int)id;
}

/* --- accounting ------------------------------------------------------------------------- */

int sched_is_curr(const struct bls_sched *s, unsigned id)
{
	return s->rq[s->task[id].cpu].curr == (int)id;
}

void sched_pelt_sync(struct bls_sched *s, unsigned id, uint64_t now)
{
	struct bls_sched_task *t = &s->task[id];
	if (t->state == BLS_TASK_NEW || t->state == BLS_TASK_EXITED) {
		t->pelt.last_ns = now > t->pelt.last_ns ? now : t->pelt.last_ns;
		return;
	}
	const int running = sched_is_curr(s, id);
	const int runnable = t->state == BLS_TASK_RUNNABLE;
	bls_pelt_update(&t->pelt, now, runnable, running, s->rq[t->cpu].scale);
	if (s->cfg.placement == BLS_PLACE_HMP)
		hmp_load_update(s, id, now, runnable);
}

static void update_min_vruntime(struct bls_sched *s, unsigned cpu);

/* The running task's runtime and virtual runtime up to @now (Linux's update_curr), and the
 * queue's minimum with it. */
static void update_curr(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK || now <= rq->curr_accounted_ns)
		return;
	struct bls_sched_task *t = &s->task[rq->curr];
	const uint64_t from = rq->curr_accounted_ns, delta = now - from;
	rq->curr_accounted_ns = now;
	t->stats.runtime_ns += delta;
	if (!sched_is_fair(t)) {
		/* No virtual runtime: its class's bandwidth, budget and quantum instead
		 * (update_curr_rt, update_curr_dl). */
		sched_pelt_sync(s, (unsigned)rq->curr, now);
		if (sched_is_dl(t))
			dl_account(s, cpu, (unsigned)rq->curr, from, now);
		else
			rt_account(s, cpu, (unsigned)rq->curr, from, now);
		return;
	}
	t->vruntime += delta * BLS_NICE_0_WEIGHT / t->weight;
	sched_fair_key_grew(s, (unsigned)rq->curr);
	sched_pelt_sync(s, (unsigned)rq->curr, now);
	if (rq->nr_running == 1) {
		if (t->vruntime > rq->min_vruntime)
			rq->min_vruntime = t->vruntime;
	} else {
		update_min_vruntime(s, cpu);
	}
}

/* min_vruntime only moves forward, following the least entitled of curr and the waiting. */
static void update_min_vruntime(struct bls_sched *s, unsigned cpu)
{
	struct bls_rq *rq = &s->rq[cpu];
	const int first = sched_heap_first(s, BLS_HEAP_FAIR, cpu);
	if (first != NO_TASK && s->task[first].vruntime > rq->min_vruntime)
		rq->min_vruntime = s->task[first].vruntime;
}

/* Group scheduling, flattened (docs/os.md, "Task groups"): a group is an entity of its parent
 * on each CPU, weighing there its cpu.shares times its part of the group's load (calc_group_shares,
 * the load being its members' queued weights, at least MIN_SHARES 2), and its members share that
 * weight in proportion to theirs. A task's weight on its run queue is its nice's scaled so at
 * each level up to the root. Recomputed for every CPU at each scheduling point, each CPU's
 * running task accounted first under the weight it ran with. */
static void group_reweight(struct bls_sched *s, uint64_t now)
{
	const unsigned ng = s->cfg.ngroups, n = s->cfg.ncpus;
	if (ng <= 1)
		return;
	double load[BLS_MAX_GROUPS][BLS_MAX_CPUS] = {{0}}, share[BLS_MAX_GROUPS][BLS_MAX_CPUS] = {{0}};
	for_each_task(s, i, SCHED_IN(s, BLS_TASK_RUNNABLE)) {
		const struct bls_sched_task *t = &s->task[i];
		if (sched_is_fair(t))
			load[t->group][t->cpu] += t->nice_weight;
	}
	/* Bottom-up: a group's parent has a lower number. */
	for (unsigned g = ng - 1; g >= 1; g--) {
		double total = 0;
		for (unsigned c = 0; c < n; c++)
			total += load[g][c];
		for (unsigned c = 0; c < n && total > 0; c++) {
			if (load[g][c] <= 0)
				continue;
			const double sh = s->cfg.group[g].shares * load[g][c] / total;
			share[g][c] = sh > 2 ? sh : 2;
			load[s->cfg.group[g].parent][c] += share[g][c];
		}
	}
	for (unsigned c = 0; c < n; c++)
		update_curr(s, c, now);
	for (unsigned c = 0; c < n; c++)
		s->rq[c].weight = 0;
	for_each_task(s, i, SCHED_IN(s, BLS_TASK_RUNNABLE)) {
		struct bls_sched_task *t = &s->task[i];
		if (!sched_is_fair(t))
			continue;
		double w = t->nice_weight;
		for (unsigned g = t->group; g != 0; g = s->cfg.group[g].parent)
			w *= share[g][t->cpu] / load[g][t->cpu];
		t->weight = w > 1 ? (unsigned)lround(w) : 1u;
		s->rq[t->cpu].weight += t->weight;
	}
}

int bls_sched_set_group(struct bls_sched *s, unsigned cpu, uint64_t now_ns, unsigned group)
{
	struct bls_rq *rq = &s->rq[cpu];
	if ((group != 0 && group >= s->cfg.ngroups) || rq->curr == NO_TASK)
		return -BLS_EINVAL;
	update_curr(s, cpu, now_ns);
	s->task[rq->curr].group = group;
	group_reweight(s, now_ns);
	return 0;
}

/* Idle time with a task asleep in I/O is iowait: accounted up to @now before nr_running or
 * nr_iowait changes (tick-sched's update_ts_time_stats). */
static void iowait_account(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->idle && rq->nr_iowait > 0 && now > rq->iowait_since_ns)
		rq->iowait_ns += now - rq->iowait_since_ns;
	rq->iowait_since_ns = now;
}

void sched_idle_sync(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	const int idle = !bls_sched_runnable(s, cpu);
	if (idle == rq->idle)
		return;
	iowait_account(s, cpu, now); /* up to now as it was */
	if (idle)
		rq->idle_since_ns = now;
	else if (now > rq->idle_since_ns)
		rq->idle_ns += now - rq->idle_since_ns;
	rq->idle = idle;
}

/* @id, asleep in I/O on its CPU, stops counting there (woken, or moved with its timer). */
static void iowait_end(struct bls_sched *s, unsigned id, uint64_t now)
{
	struct bls_sched_task *t = &s->task[id];
	if (!t->in_iowait)
		return;
	iowait_account(s, t->cpu, now);
	s->rq[t->cpu].nr_iowait--;
	t->in_iowait = 0;
}

static void enqueue(struct bls_sched *s, unsigned id, unsigned cpu, uint64_t now)
{
	struct bls_sched_task *t = &s->task[id];
	struct bls_rq *rq = &s->rq[cpu];
	iowait_account(s, cpu, now);
	sched_set_cpu(s, id, cpu);
	sched_set_state(s, id, BLS_TASK_RUNNABLE);
	t->since_ns = now;
	rq->nr_running++;
	if (sched_is_fair(t)) {
		rq->weight += t->weight;
	} else {
		t->rt_seq = ++s->rt_seq; /* at the tail of its priority, or of its deadline's equals */
		if (sched_is_rt(t)) {
			rq->rt_nr_running++;
			s->rt_queued++;
		} else {
			rq->dl_nr_running++;
			s->dl_queued++;
			rq->dl_nr_throttled += t->dl_throttled != 0;
		}
	}
	sched_idle_sync(s, cpu, now);
}

static void dequeue(struct bls_sched *s, unsigned id, uint64_t now)
{
	struct bls_sched_task *t = &s->task[id];
	struct bls_rq *rq = &s->rq[t->cpu];
	if (rq->curr != (int)id && now > t->since_ns)
		t->stats.wait_ns += now - t->since_ns;
	iowait_account(s, t->cpu, now);
	rq->nr_running--;
	if (sched_is_rt(t)) {
		rq->rt_nr_running--;
		s->rt_queued--;
	} else if (sched_is_dl(t)) {
		rq->dl_nr_running--;
		s->dl_queued--;
		rq->dl_nr_throttled -= t->dl_throttled != 0;
	} else {
		rq->weight -= t->weight;
	}
	if (rq->skip == (int)id)
		rq->skip = NO_TASK;
	sched_idle_sync(s, t->cpu, now);
}

/* Move a task's virtual runtime from one run queue's frame to another's. */
static void renormalise(struct bls_sched *s, unsigned id, unsigned from, unsigned to)
{
	struct bls_sched_task *t = &s->task[id];
	const uint64_t a = s->rq[from].min_vruntime, b = s->rq[to].min_vruntime;
	t->vruntime = t->vruntime >= a ? t->vruntime - a + b : b;
	sched_fair_key_changed(s, id); /* a queued one is still in @from's heap */
}

void sched_migrate(struct bls_sched *s, unsigned id, unsigned to, uint64_t now)
{
	struct bls_sched_task *t = &s->task[id];
	const unsigned from = t->cpu;
	sched_pelt_sync(s, id, now);
	const int queued = t->state == BLS_TASK_RUNNABLE;
	if (queued)
		dequeue(s, id, now);
	renormalise(s, id, from, to);
	if (queued) {
		enqueue(s, id, to, now);
		update_min_vruntime(s, from);
	} else if (t->in_iowait) {
		/* Asleep in I/O: it counts where its timer now is. */
		iowait_end(s, id, now);
		iowait_account(s, to, now);
		sched_set_cpu(s, id, to);
		s->rq[to].nr_iowait++;
		t->in_iowait = 1;
	} else {
		sched_set_cpu(s, id, to);
	}
	t->stats.migrations++;
	s->stats.migrations++;
	sched_record(s, BLS_SCHED_EV_MIGRATE, id, to);
	if (s->cfg.placement != BLS_PLACE_FAIR && t->state != BLS_TASK_NEW &&
	    s->cfg.cpu_cluster[from] != s->cfg.cpu_cluster[to]) {
		/* Between clusters (a new task's first placement is not a move): timed from here
		 * to its first run there. */
		const int up = s->cfg.cluster_capacity[s->cfg.cpu_cluster[to]] >
			       s->cfg.cluster_capacity[s->cfg.cpu_cluster[from]];
		if (up)
			s->stats.up_migrations++;
		else
			s->stats.down_migrations++;
		t->xmig_at_ns = t->last_xmig_ns = now ? now : 1; /* 0 is "none" */
	}
}

uint32_t sched_move(struct bls_sched *s, unsigned id, unsigned to, uint64_t now)
{
	const unsigned from = s->task[id].cpu;
	const int running = s->rq[from].curr == (int)id;
	if (running)
		sched_detach_curr(s, from, now);
	sched_migrate(s, id, to, now);
	s->rq[to].need_resched = 1;
	return 1u << to | (running ? 1u << from : 0u);
}

void sched_detach_curr(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK)
		return;
	update_curr(s, cpu, now);
	s->task[rq->curr].since_ns = now;
	rq->last_ran = rq->curr; /* its switch is traced at the next pick */
	rq->curr = NO_TASK;
	rq->need_resched = 1;
}

/* --- slices ----------------------------------------------------------------------------- */

static uint64_t period_ns(const struct bls_sched *s, unsigned nr)
{
	const uint64_t nr_latency = s->cfg.latency_ns / s->cfg.min_granularity_ns;
	return nr > nr_latency ? nr * s->cfg.min_granularity_ns : s->cfg.latency_ns;
}

uint64_t bls_sched_slice_ns(const struct bls_sched *s, unsigned cpu)
{
	const struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK || !sched_is_fair(&s->task[rq->curr]) || rq->weight == 0)
		return 0;
	return period_ns(s, sched_cfs_nr(rq)) * s->task[rq->curr].weight / rq->weight;
}

/* --- waking ----------------------------------------------------------------------------- */

int sched_cpu_allowed(const struct bls_sched *s, const struct bls_sched_task *t, unsigned cpu)
{
	return (t->affinity >> cpu & 1u) && (s->active >> cpu & 1u);
}

int sched_select_cpu_in(const struct bls_sched *s, const struct bls_sched_task *t, uint32_t among)
{
	const unsigned n = s->cfg.ncpus;
	if (sched_cpu_allowed(s, t, t->cpu) && (among >> t->cpu & 1u) && s->rq[t->cpu].nr_running == 0)
		return (int)t->cpu;
	for (unsigned i = 1; i <= n; i++) {
		const unsigned c = (t->cpu + i) % n;
		if (sched_cpu_allowed(s, t, c) && (among >> c & 1u) && s->rq[c].nr_running == 0)
			return (int)c;
	}
	int best = -1;
	for (unsigned i = 0; i < n; i++) {
		const unsigned c = (t->cpu + i) % n;
		if (sched_cpu_allowed(s, t, c) && (among >> c & 1u) &&
		    (best < 0 || s->rq[c].weight < s->rq[best].weight))
			best = (int)c;
	}
	return best;
}

/* Previous CPU if idle, else an idle CPU (the first after it), else the least loaded. */
static unsigned select_cpu(const struct bls_sched *s, const struct bls_sched_task *t)
{
	const int c = sched_select_cpu_in(s, t, ~0u);
	return c < 0 ? t->cpu : (unsigned)c;
}

/* A woken task more entitled than the running one by the wake-up granularity preempts it
 * (check_preempt_wakeup, the granularity scaled to the woken task's weight). */
void sched_check_preempt(struct bls_sched *s, unsigned cpu, unsigned id, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK) {
		rq->need_resched = 1;
		return;
	}
	update_curr(s, cpu, now);
	const struct bls_sched_task *curr = &s->task[rq->curr], *t = &s->task[id];
	if (sched_is_dl(t) || sched_is_dl(curr)) {
		/* Between classes, or within the deadline one (check_preempt_curr_dl). */
		if (sched_is_dl(t) && dl_preempts(s, cpu, id))
			rq->need_resched = 1;
		return;
	}
	if (sched_is_rt(t) || sched_is_rt(curr)) {
		/* Between classes, or within the real-time one (check_preempt_curr_rt). */
		if (rt_preempts(s, cpu, id))
			rq->need_resched = 1;
		return;
	}
	const uint64_t gran = s->cfg.wakeup_granularity_ns * BLS_NICE_0_WEIGHT / t->weight;
	if (curr->vruntime > t->vruntime && curr->vruntime - t->vruntime > gran)
		rq->need_resched = 1;
}

static int wake(struct bls_sched *s, unsigned id, uint64_t now, uint64_t woken_at)
{
	struct bls_sched_task *t = &s->task[id];
	if (t->state != BLS_TASK_NEW && t->state != BLS_TASK_SLEEPING && t->state != BLS_TASK_BLOCKED)
		return -BLS_EINVAL;
	/* HMP decides on the load as it was when the task went to sleep (its history is
	 * frozen while it sleeps: ARM DEN0024A 16.3); it decays for the sleep only after. */
	const double frozen_load = t->hmp_frozen;
	/* Out of I/O wait as it wakes (3.10 decrements when the task runs again, in
	 * io_schedule; later kernels at the wake-up, as here: docs/os.md). */
	iowait_end(s, id, now);
	sched_pelt_sync(s, id, now);
	const int fresh = t->state == BLS_TASK_NEW;
	const unsigned prev = t->cpu;
	int placed = -1;
	if (sched_is_dl(t)) {
		dl_wake(s, id, now, fresh); /* its budget and deadline first: they place it */
		placed = dl_select_cpu(s, id);
	} else if (sched_is_rt(t)) {
		placed = rt_select_cpu(s, id); /* HMP and EAS place CFS tasks only */
	} else if (s->cfg.placement == BLS_PLACE_HMP)
		placed = hmp_select_cpu(s, id, now, fresh, frozen_load);
	else if (s->cfg.placement == BLS_PLACE_EAS && !fresh)
		placed = eas_select_cpu(s, id, now); /* a new task has no utilisation yet: CFS
						       * spreads it (fork balancing is not EAS's) */
	const unsigned cpu = placed >= 0 ? (unsigned)placed : select_cpu(s, t);
	update_curr(s, cpu, now); /* the queues' minimums as of now */
	if (cpu != prev) {
		update_curr(s, prev, now);
		sched_migrate(s, id, cpu, now); /* not queued: its lag moves, and the count */
	}
	/* Placement (place_entity): a new task starts at the queue's min_vruntime; a sleeper
	 * gets at most half a latency period of credit. */
	struct bls_rq *rq = &s->rq[cpu];
	const uint64_t credit = s->cfg.latency_ns / 2;
	uint64_t floor = fresh ? rq->min_vruntime : (rq->min_vruntime > credit ? rq->min_vruntime - credit : 0);
	if (fresh || t->vruntime < floor)
		t->vruntime = floor; /* not queued yet: its key is read as it is */
	enqueue(s, id, cpu, now);
	t->woken_at_ns = woken_at <= now ? woken_at : now;
	t->latency_pending = 1;
	t->stats.wakeups++;
	s->stats.wakeups++;
	sched_record(s, BLS_SCHED_EV_WAKEUP, id, cpu);
	sched_check_preempt(s, cpu, id, now);
	return (int)cpu;
}

int bls_sched_wake(struct bls_sched *s, unsigned task, uint64_t now_ns, uint64_t woken_at_ns)
{
	if (task >= s->ntasks)
		return -BLS_EINVAL;
	return wake(s, task, now_ns, woken_at_ns);
}

uint32_t bls_sched_expire(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	/* Woken in id order, as a scan of the sleepers meets them (the heap's order is the
	 * time's): the order their wake-ups are placed and traced in. */
	uint16_t due[BLS_MAX_TASKS];
	const unsigned n = sched_sleepers_due(s, cpu, now_ns, due);
	uint32_t kicked = 0;
	for (unsigned k = 0; k < n; k++)
		kicked |= 1u << wake(s, due[k], now_ns, s->task[due[k]].wake_at_ns);
	return kicked;
}

uint32_t bls_sched_signal(struct bls_sched *s, unsigned event, int all, uint64_t now_ns)
{
	uint32_t kicked = 0;
	for (;;) {
		int first = -1;
		for_each_task(s, i, SCHED_IN(s, BLS_TASK_BLOCKED)) {
			const struct bls_sched_task *t = &s->task[i];
			if (t->event == event && (first < 0 || t->block_seq < s->task[first].block_seq))
				first = (int)i;
		}
		if (first < 0)
			break;
		kicked |= 1u << wake(s, (unsigned)first, now_ns, now_ns);
		if (!all)
			break;
	}
	return kicked;
}

/* --- the scheduling point --------------------------------------------------------------- */

/* The CFS task @cpu runs next (pick_next_entity): the most entitled, unless it yielded (the
 * skip buddy) and the next one is within a wake-up granularity of it. */
static int leftmost(const struct bls_sched *s, unsigned cpu)
{
	const int left = sched_heap_first(s, BLS_HEAP_FAIR, cpu), skip = s->rq[cpu].skip;
	if (left == NO_TASK || left != skip)
		return left;
	const int second = sched_heap_second(s, BLS_HEAP_FAIR, cpu);
	if (second == NO_TASK)
		return left;
	const struct bls_sched_task *l = &s->task[left], *r = &s->task[second];
	const uint64_t gran = s->cfg.wakeup_granularity_ns * BLS_NICE_0_WEIGHT / l->weight;
	return r->vruntime - l->vruntime <= gran ? second : left;
}

int bls_sched_pick(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	struct bls_rq *rq = &s->rq[cpu];
	const int prev = rq->curr;
	if (prev != NO_TASK)
		update_curr(s, cpu, now_ns); /* a real-time one may be throttled, or its quantum over */
	rt_clock(s, cpu, now_ns);
	dl_clock(s, cpu, now_ns);
	group_reweight(s, now_ns);
	if (prev != NO_TASK) {
		int keep = !rq->need_resched;
		if (sched_is_fair(&s->task[prev])) {
			/* A CFS task gives way at its slice's end, and to any real-time task. */
			const unsigned cfs = sched_cfs_nr(rq);
			keep = keep && !(cfs > 1 && now_ns - rq->exec_start_ns >= bls_sched_slice_ns(s, cpu)) &&
			       rt_pick(s, cpu) == NO_TASK;
		}
		/* Anything but a deadline task gives way to a deadline task with budget. */
		keep = keep && (sched_is_dl(&s->task[prev]) || dl_pick(s, cpu) == NO_TASK);
		if (keep)
			return prev;
		/* It goes back among the waiting. */
		s->task[prev].since_ns = now_ns;
	}
	rq->need_resched = 0;
	update_min_vruntime(s, cpu);
	int next = dl_pick(s, cpu);
	if (next == NO_TASK)
		next = rt_pick(s, cpu);
	if (next == NO_TASK)
		next = leftmost(s, cpu);
	if (next != NO_TASK && next == rq->skip)
		rq->skip = NO_TASK; /* picked all the same: the yield is over */
	/* Load tracking up to now under the old roles, before they change. */
	if (next != NO_TASK && next != prev)
		sched_pelt_sync(s, (unsigned)next, now_ns);
	rq->curr = next;
	rq->exec_start_ns = now_ns;
	rq->curr_accounted_ns = now_ns;
	/* One switch event from the task that ran last (or idle) to the next (or idle). */
	const int from = prev != NO_TASK ? prev : rq->last_ran;
	rq->last_ran = NO_TASK;
	if (next == NO_TASK) {
		if (from != NO_TASK)
			sched_record(s, BLS_SCHED_EV_SWITCH, (unsigned)from, ~0u);
		return NO_TASK;
	}
	struct bls_sched_task *t = &s->task[next];
	if (next != prev) {
		if (now_ns > t->since_ns)
			t->stats.wait_ns += now_ns - t->since_ns;
		s->stats.context_switches++;
		sched_record(s, BLS_SCHED_EV_SWITCH, from == NO_TASK ? ~0u : (unsigned)from, (unsigned)next);
	}
	if (t->xmig_at_ns) {
		const uint64_t lat = now_ns - (t->xmig_at_ns <= now_ns ? t->xmig_at_ns : now_ns);
		t->xmig_at_ns = 0;
		sched_record(s, BLS_SCHED_EV_XMIGRATED, (unsigned)next, lat > UINT32_MAX ? UINT32_MAX : (unsigned)lat);
	}
	if (t->latency_pending) {
		t->latency_pending = 0;
		t->last_latency_ns = now_ns - t->woken_at_ns;
		sched_record(s, BLS_SCHED_EV_LATENCY, (unsigned)next,
		       t->last_latency_ns > UINT32_MAX ? UINT32_MAX : (unsigned)t->last_latency_ns);
	}
	return next;
}

/* The running task leaves the run queue in state @state. */
static void stop_curr(struct bls_sched *s, unsigned cpu, uint64_t now, enum bls_task_state state)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK)
		return;
	const unsigned id = (unsigned)rq->curr;
	update_curr(s, cpu, now);
	s->task[id].hmp_frozen = hmp_load_of(s, id);
	dequeue(s, id, now);
	rq->curr = NO_TASK;
	rq->last_ran = (int)id; /* its switch is traced at the next pick, to whatever comes */
	sched_set_state(s, id, state);
	update_min_vruntime(s, cpu);
}

void bls_sched_sleep(struct bls_sched *s, unsigned cpu, uint64_t now_ns, uint64_t until_ns)
{
	const int id = s->rq[cpu].curr;
	if (id == NO_TASK)
		return;
	s->task[id].wake_at_ns = until_ns;
	stop_curr(s, cpu, now_ns, BLS_TASK_SLEEPING);
}

void bls_sched_sleep_io(struct bls_sched *s, unsigned cpu, uint64_t now_ns, uint64_t until_ns)
{
	const int id = s->rq[cpu].curr;
	if (id == NO_TASK)
		return;
	bls_sched_sleep(s, cpu, now_ns, until_ns);
	iowait_account(s, cpu, now_ns);
	s->rq[cpu].nr_iowait++;
	s->task[id].in_iowait = 1;
}

void bls_sched_block(struct bls_sched *s, unsigned cpu, uint64_t now_ns, unsigned event)
{
	const int id = s->rq[cpu].curr;
	if (id == NO_TASK)
		return;
	s->task[id].event = event;
	s->task[id].block_seq = ++s->block_seq;
	stop_curr(s, cpu, now_ns, BLS_TASK_BLOCKED);
}

void bls_sched_exit(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	stop_curr(s, cpu, now_ns, BLS_TASK_EXITED);
}

/* --- balancing -------------------------------------------------------------------------- */

/* Whether balancing may move tasks between @a and @b: under HMP only within a cluster (its
 * domains replace balancing between them: DISABLE_CPU_SCHED_DOMAIN_BALANCE). */
static int same_domain(const struct bls_sched *s, unsigned a, unsigned b)
{
	return s->cfg.placement != BLS_PLACE_HMP || s->cfg.cpu_cluster[a] == s->cfg.cpu_cluster[b];
}

/* The waiting task of @from that may run on @to, least entitled first (it would wait
 * longest where it is). */
static int movable(const struct bls_sched *s, unsigned from, unsigned to)
{
	int best = NO_TASK;
	if (!same_domain(s, from, to))
		return NO_TASK;
	for_each_task(s, i, SCHED_QUEUED(s, from)) {
		const struct bls_sched_task *t = &s->task[i];
		if (s->rq[from].curr != (int)i && sched_is_fair(t) && sched_cpu_allowed(s, t, to) &&
		    (best == NO_TASK || t->vruntime > s->task[best].vruntime))
			best = (int)i;
	}
	return best;
}

/* Energy-aware placement stands while every CPU has headroom; the balance tick still moves
 * on (a deadline left behind would fire at once, for ever). The headroom is looked at only
 * when this CPU would balance: idle, or due with tasks waiting (it costs every CPU's
 * utilisation). Returns 1 when it stands: no balancing. */
static int eas_stands(struct bls_sched *s, unsigned cpu, uint64_t now_ns, int due)
{
	struct bls_rq *rq = &s->rq[cpu];
	const int idle = !bls_sched_runnable(s, cpu);
	const int would_balance = idle || (due && rq->nr_running >= 2);
	if (would_balance && eas_overutilized(s, now_ns))
		return 0;
	if (due)
		rq->next_balance_ns = now_ns + s->cfg.balance_interval_ns;
	return 1;
}

/* @cpu idle, or running nothing but throttled real-time tasks: pull from the busiest CPU
 * with a task waiting that may come. Returns the CPUs to kick (@cpu, when it pulled). */
static uint32_t idle_balance(struct bls_sched *s, unsigned cpu, uint64_t now_ns, int due)
{
	struct bls_rq *rq = &s->rq[cpu];
	/* A tick that came due while we went idle is spent too: left behind, it would be
	 * programmed again, already past, as soon as a task runs here (HMP's and EAS's tick of a
	 * busy little CPU). */
	if (due && s->cfg.placement != BLS_PLACE_FAIR)
		rq->next_balance_ns = now_ns + s->cfg.balance_interval_ns;
	int busiest = -1, id = NO_TASK;
	for (unsigned c = 0; c < s->cfg.ncpus; c++) {
		if (c == cpu || !(s->active >> c & 1u) || s->rq[c].nr_running < 2)
			continue;
		const int m = movable(s, c, cpu);
		if (m != NO_TASK && (busiest < 0 || s->rq[c].weight > s->rq[busiest].weight)) {
			busiest = (int)c;
			id = m;
		}
	}
	if (id == NO_TASK)
		return 0;
	sched_migrate(s, (unsigned)id, cpu, now_ns);
	s->stats.load_balance_moves++;
	rq->need_resched = 1;
	return 1u << cpu;
}

/* Busy balance, first step: push waiting tasks to idle CPUs (the nohz kick) while @cpu has
 * some waiting. Returns the CPUs to kick. */
static uint32_t push_to_idle(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	const unsigned n = s->cfg.ncpus;
	uint32_t kicked = 0;
	for (unsigned i = 1; i < n && s->rq[cpu].nr_running >= 2; i++) {
		const unsigned c = (cpu + i) % n;
		if (!(s->active >> c & 1u) || s->rq[c].nr_running != 0)
			continue;
		const int m = movable(s, cpu, c);
		if (m == NO_TASK)
			continue;
		sched_migrate(s, (unsigned)m, c, now_ns);
		s->stats.load_balance_moves++;
		s->rq[c].need_resched = 1;
		kicked |= 1u << c;
	}
	return kicked;
}

/* Busy balance, then: a task to the least loaded CPU of the domain, if moving it there
 * narrows the gap. Returns the CPUs to kick. */
static uint32_t push_to_least_loaded(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	const unsigned n = s->cfg.ncpus;
	const struct bls_rq *rq = &s->rq[cpu];
	if (rq->nr_running < 2)
		return 0;
	int target = -1;
	for (unsigned i = 1; i < n; i++) {
		const unsigned c = (cpu + i) % n;
		if ((s->active >> c & 1u) && same_domain(s, cpu, c) &&
		    (target < 0 || s->rq[c].weight < s->rq[target].weight))
			target = (int)c;
	}
	if (target < 0)
		return 0;
	const int m = movable(s, cpu, (unsigned)target);
	if (m == NO_TASK || rq->weight - s->rq[target].weight <= s->task[m].weight)
		return 0;
	sched_migrate(s, (unsigned)m, (unsigned)target, now_ns);
	s->stats.load_balance_moves++;
	sched_check_preempt(s, (unsigned)target, (unsigned)m, now_ns);
	return 1u << target;
}

uint32_t bls_sched_balance(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	struct bls_rq *rq = &s->rq[cpu];
	uint32_t kicked = 0;
	/* An active migration asked of us goes first: we are at a scheduling point. */
	if (rq->pull_to != NO_TASK)
		kicked |= hmp_active_pull(s, cpu, now_ns);
	kicked |= dl_balance(s, cpu, now_ns);
	kicked |= rt_balance(s, cpu, now_ns);
	const int due = now_ns >= rq->next_balance_ns;
	if (s->cfg.placement == BLS_PLACE_HMP) {
		kicked |= hmp_balance(s, cpu, now_ns, due);
	} else if (s->cfg.placement == BLS_PLACE_EAS) {
		if (due)
			kicked |= eas_misfit(s, cpu, now_ns);
		if (eas_stands(s, cpu, now_ns, due))
			return kicked;
	}
	if (!bls_sched_runnable(s, cpu))
		return kicked | idle_balance(s, cpu, now_ns, due);
	if (rq->nr_running < 2 || !due) {
		if (due && s->cfg.placement != BLS_PLACE_FAIR)
			rq->next_balance_ns = now_ns + s->cfg.balance_interval_ns; /* the next tick */
		return kicked;
	}
	rq->next_balance_ns = now_ns + s->cfg.balance_interval_ns;
	kicked |= push_to_idle(s, cpu, now_ns);
	return kicked | push_to_least_loaded(s, cpu, now_ns);
}

void bls_sched_yield(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK)
		return;
	struct bls_sched_task *t = &s->task[rq->curr];
	update_curr(s, cpu, now_ns);
	if (sched_is_dl(t))
		dl_yield(s, cpu, now_ns);
	else if (sched_is_rt(t))
		t->rt_seq = ++s->rt_seq; /* yield_task_rt: behind its equals */
	else
		rq->skip = rq->curr; /* yield_task_fair: the skip buddy */
	rq->need_resched = 1;
}

uint32_t bls_sched_set_online(struct bls_sched *s, uint32_t online, uint64_t now_ns)
{
	uint32_t kicked = 0;
	s->active = online & (s->active | ~s->online);
	s->online = online;
	for (unsigned i = 0; i < s->ntasks; i++) {
		struct bls_sched_task *t = &s->task[i];
		if (t->state == BLS_TASK_EXITED || (online >> t->cpu & 1u))
			continue;
		if (!(t->affinity & s->active))
			t->affinity |= s->active;
		const int running = s->rq[t->cpu].curr == (int)i;
		if (running) {
			/* The CPU going offline was running it: it stops there first. */
			struct bls_rq *rq = &s->rq[t->cpu];
			update_curr(s, t->cpu, now_ns);
			rq->curr = NO_TASK;
			t->since_ns = now_ns;
		}
		unsigned to = t->cpu;
		for (unsigned c = 0; c < s->cfg.ncpus; c++)
			if (sched_cpu_allowed(s, t, c)) {
				to = c;
				break;
			}
		sched_migrate(s, i, to, now_ns);
		if (t->state == BLS_TASK_RUNNABLE)
			sched_check_preempt(s, to, i, now_ns);
		kicked |= 1u << to;
	}
	return kicked;
}

uint32_t bls_sched_set_affinity(struct bls_sched *s, unsigned cpu, uint64_t now_ns, uint32_t affinity)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK)
		return 0;
	const unsigned id = (unsigned)rq->curr;
	struct bls_sched_task *t = &s->task[id];
	const uint32_t all = s->cfg.ncpus >= 32 ? ~0u : (1u << s->cfg.ncpus) - 1u;
	t->affinity = affinity & all ? affinity & all : all;
	if (!(t->affinity & s->active))
		t->affinity |= s->active;
	if (sched_cpu_allowed(s, t, cpu))
		return 0;
	/* It stops here first, as the CPU going offline's running task does. */
	update_curr(s, cpu, now_ns);
	rq->curr = NO_TASK;
	rq->last_ran = (int)id; /* its switch is traced at this CPU's next pick */
	t->since_ns = now_ns;
	const int to = sched_select_cpu_in(s, t, ~0u);
	sched_migrate(s, id, (unsigned)to, now_ns);
	sched_check_preempt(s, (unsigned)to, id, now_ns);
	return 1u << to;
}

int bls_sched_set_active(struct bls_sched *s, uint32_t active)
{
	if (active == 0 || (active & ~s->online))
		return -BLS_EINVAL;
	s->active = active;
	return 0;
}

void bls_sched_set_scale(struct bls_sched *s, unsigned cpu, uint64_t now_ns, double scale)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (rq->scale == scale)
		return;
	if (rq->curr != NO_TASK)
		update_curr(s, cpu, now_ns);
	rq->scale = scale;
}

/* --- queries ---------------------------------------------------------------------------- */

int bls_sched_no_task_lost(const struct bls_sched *s)
{
	unsigned nr[BLS_MAX_CPUS] = {0}, rt[BLS_MAX_CPUS] = {0}, iowait[BLS_MAX_CPUS] = {0};
	unsigned dl[BLS_MAX_CPUS] = {0}, dl_thr[BLS_MAX_CPUS] = {0};
	unsigned long weight[BLS_MAX_CPUS] = {0};
	uint64_t wake[BLS_MAX_CPUS];
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
		wake[c] = BLS_NO_DEADLINE;
	for (unsigned i = 0; i < s->ntasks; i++) {
		const struct bls_sched_task *t = &s->task[i];
		/* The task sets say what the task says (the per-CPU check trusts them). */
		for (unsigned st = 0; st < BLS_TASK_NSTATES; st++)
			if (sched_bit_test(s->in_state[st], i) != (st == sched_state_index(t->state)))
				return 0;
		for (unsigned c = 0; c < s->cfg.ncpus; c++)
			if (sched_bit_test(s->on_cpu[c], i) != (c == t->cpu))
				return 0;
		if (t->in_iowait && (t->state != BLS_TASK_SLEEPING || t->cpu >= s->cfg.ncpus))
			return 0; /* in I/O wait, but not asleep */
		if (t->in_iowait)
			iowait[t->cpu]++;
		if (t->state == BLS_TASK_EXITED || t->state == BLS_TASK_NEW)
			continue;
		if (t->cpu >= s->cfg.ncpus || !(s->online >> t->cpu & 1u))
			return 0; /* on a CPU nobody runs: never picked, never woken */
		if (t->state == BLS_TASK_RUNNABLE) {
			nr[t->cpu]++;
			if (sched_is_rt(t)) {
				rt[t->cpu]++;
			} else if (sched_is_dl(t)) {
				dl[t->cpu]++;
				dl_thr[t->cpu] += t->dl_throttled != 0;
			} else {
				weight[t->cpu] += t->weight;
			}
		} else if (s->rq[t->cpu].curr == (int)i) {
			return 0; /* running, but not runnable */
		} else if (t->state == BLS_TASK_SLEEPING && t->wake_at_ns < wake[t->cpu]) {
			wake[t->cpu] = t->wake_at_ns;
		}
	}
	unsigned rt_all = 0, dl_all = 0;
	for (unsigned c = 0; c < s->cfg.ncpus; c++) {
		rt_all += rt[c];
		dl_all += dl[c];
	}
	if (rt_all != s->rt_queued || dl_all != s->dl_queued)
		return 0; /* the balancers' shortcut would skip a task */
	for (unsigned c = 0; c < s->cfg.ncpus; c++)
		if (s->rq[c].nr_running != nr[c] || s->rq[c].rt_nr_running != rt[c] || s->rq[c].weight != weight[c] ||
		    s->rq[c].nr_iowait != iowait[c] || s->rq[c].dl_nr_running != dl[c] ||
		    s->rq[c].dl_nr_throttled != dl_thr[c] || !bls_sched_rq_consistent(s, c) ||
		    !sched_heap_consistent(s, BLS_HEAP_FAIR, c) || !sched_heap_consistent(s, BLS_HEAP_SLEEP, c))
			return 0; /* counts a task it does not hold, or holds one it does not count */
	for (unsigned c = 0; c < s->cfg.ncpus; c++) {
		const int first = sched_heap_first(s, BLS_HEAP_SLEEP, c);
		if ((first == NO_TASK ? BLS_NO_DEADLINE : s->task[first].wake_at_ns) != wake[c])
			return 0; /* the next wake-up is its sleepers' earliest */
	}
	return 1;
}

int bls_sched_rq_consistent(const struct bls_sched *s, unsigned cpu)
{
	const struct bls_rq *rq = &s->rq[cpu];
	/* Its count is its set's size and its heap's, and its running task is in it (word by
	 * word: this runs at every scheduling point; the classes' counts and the weights are the
	 * whole check's). */
	unsigned nr = 0;
	for (unsigned w = 0, nw = (s->ntasks + 63) / 64; w < nw; w++)
		nr += sched_popcount(s->in_state[sched_state_index(BLS_TASK_RUNNABLE)][w] & s->on_cpu[cpu][w]);
	if (nr != rq->nr_running || rq->rt_nr_running + rq->dl_nr_running > nr || rq->dl_nr_throttled > rq->dl_nr_running ||
	    rq->heap_nr[BLS_HEAP_FAIR] != sched_cfs_nr(rq))
		return 0;
	if (rq->curr != NO_TASK && (s->task[rq->curr].state != BLS_TASK_RUNNABLE || s->task[rq->curr].cpu != cpu ||
				     !sched_bit_test(s->on_cpu[cpu], (unsigned)rq->curr)))
		return 0;
	/* A CPU that is offline holds no task: none would ever run, or wake. */
	for (unsigned c = 0; c < s->cfg.ncpus; c++) {
		if (s->online >> c & 1u)
			continue;
		for_each_task(s, i, SCHED_LIVE(s, c)) {
			(void)i;
			return 0;
		}
	}
	return 1;
}

uint64_t bls_sched_next_wake(struct bls_sched *s, unsigned cpu)
{
	const int first = sched_heap_first(s, BLS_HEAP_SLEEP, cpu);
	return first == NO_TASK ? BLS_NO_DEADLINE : s->task[first].wake_at_ns;
}

uint64_t bls_sched_next_deadline(struct bls_sched *s, unsigned cpu)
{
	uint64_t d = bls_sched_next_wake(s, cpu);
	const struct bls_rq *rq = &s->rq[cpu];
	/* The tick of a busy CPU of the slow domain under HMP (forced up-migration), and of one
	 * below the top capacity under EAS (a misfit). */
	const uint32_t ticked = s->cfg.placement == BLS_PLACE_HMP   ? ~s->hmp_fast
				: s->cfg.placement == BLS_PLACE_EAS ? ~s->big
								    : 0;
	if ((ticked >> cpu & 1u) && rq->curr != NO_TASK && rq->next_balance_ns < d)
		d = rq->next_balance_ns;
	const uint64_t rt = rt_deadline(s, cpu), dl = dl_deadline(s, cpu);
	if (rt < d)
		d = rt;
	if (dl < d)
		d = dl;
	if (rq->nr_running > 1 && rq->curr != NO_TASK) {
		/* A CFS task's slice among CFS tasks (the other classes have none). */
		if (sched_is_fair(&s->task[rq->curr]) && sched_cfs_nr(rq) > 1) {
			const uint64_t slice_end = rq->exec_start_ns + bls_sched_slice_ns(s, cpu);
			if (slice_end < d)
				d = slice_end;
		}
		if (rq->next_balance_ns < d)
			d = rq->next_balance_ns;
	}
	return d;
}

uint64_t bls_sched_idle_ns(const struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	const struct bls_rq *rq = &s->rq[cpu];
	uint64_t idle = rq->idle_ns;
	if (rq->idle && now_ns > rq->idle_since_ns)
		idle += now_ns - rq->idle_since_ns;
	return idle;
}

uint64_t bls_sched_iowait_ns(const struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	const struct bls_rq *rq = &s->rq[cpu];
	uint64_t iowait = rq->iowait_ns;
	if (rq->idle && rq->nr_iowait > 0 && now_ns > rq->iowait_since_ns)
		iowait += now_ns - rq->iowait_since_ns;
	return iowait;
}

unsigned bls_sched_nr_iowait(const struct bls_sched *s, unsigned cpu)
{
	return s->rq[cpu].nr_iowait;
}

static double cpu_sum(struct bls_sched *s, unsigned cpu, uint64_t now, int util)
{
	double sum = 0;
	for_each_task(s, i, SCHED_LIVE(s, cpu)) {
		struct bls_sched_task *t = &s->task[i];
		if (sched_is_curr(s, i))
			update_curr(s, cpu, now);
		else
			sched_pelt_sync(s, i, now);
		sum += util ? t->pelt.util_avg : t->pelt.runnable_avg;
	}
	return sum;
}

double bls_sched_cpu_util(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	return cpu_sum(s, cpu, now_ns, 1);
}

double bls_sched_cpu_runnable(struct bls_sched *s, unsigned cpu, uint64_t now_ns)
{
	return cpu_sum(s, cpu, now_ns, 0);
}
