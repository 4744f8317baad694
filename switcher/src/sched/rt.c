/* switcher/src/sched/rt.c -- the real-time class (kernel/sched/rt.c): SCHED_FIFO and SCHED_RR
 * (bls/sched.h; docs/os.md, "Real-time tasks").
 *
 * On a CPU, real-time tasks run before every CFS task, the highest rt_priority first and, among
 * equals, in the order they were queued; a FIFO task keeps the CPU until it sleeps, blocks or a
 * more urgent one comes, an RR task also gives way to its equals every rr_timeslice. A CPU's
 * real-time tasks together may use rt_runtime of every rt_period (the bandwidth, 950 ms of 1 s
 * by default): beyond, they are throttled until the period ends.
 *
 * Between CPUs, Linux keeps the N most urgent runnable real-time tasks running on N CPUs
 * (when their affinities allow): a waking task goes where it runs at once, a task left
 * waiting behind a more urgent one is pushed to such a CPU, and a CPU whose work gets less
 * urgent pulls one. A CPU's urgency ("rank" here; cpupri in Linux) is -1 idle, 0 running CFS
 * work, else the highest rt_priority queued on it. A throttled CPU takes no real-time task and
 * gives none (its queue is out of the picture until its period ends, as Linux dequeues a
 * throttled rt_rq); each CPU has its own bandwidth, not borrowed from the others (Linux's
 * RT_RUNTIME_SHARE, on in the 3.x kernels, off by default since 5.10: docs/os.md). */
#include "bls/sched.h"

#include "internal.h"

#define RR_TIMESLICE_NS (100ull * 1000 * 1000) /* RR_TIMESLICE: 100 ms */
#define DL_URGENCY ((int)BLS_MAX_RT_PRIO + 1) /* a deadline task runs before any real-time one */

/* How urgent the task running on @cpu is: -1 none, 0 CFS, its priority if real time,
 * DL_URGENCY if a deadline task. */
static int curr_urgency(const struct bls_sched *s, unsigned cpu)
{
	const int curr = s->rq[cpu].curr;
	if (curr == NO_TASK)
		return -1;
	const struct bls_sched_task *t = &s->task[curr];
	return sched_is_dl(t) ? DL_URGENCY : sched_is_rt(t) ? (int)t->rt_priority : 0;
}

static uint64_t rr_timeslice(const struct bls_sched *s)
{
	return s->cfg.rr_timeslice_ns ? s->cfg.rr_timeslice_ns : RR_TIMESLICE_NS;
}

/* Whether the bandwidth limit applies (sched_rt_runtime_exceeded's early outs). */
static int rt_bandwidth(const struct bls_sched *s)
{
	return s->cfg.rt_period_ns > 0 && s->cfg.rt_runtime_ns < s->cfg.rt_period_ns;
}

void rt_init_rq(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	const uint64_t p = s->cfg.rt_period_ns;
	s->rq[cpu].rt_period_end_ns = p ? (now / p + 1) * p : BLS_NO_DEADLINE;
}

void rt_init_task(struct bls_sched *s, struct bls_sched_task *t)
{
	t->rr_left_ns = rr_timeslice(s);
}

/* The bandwidth period of @cpu moved on to the one holding @now (the period timer): what
 * ran beyond the runtime is carried over, less a runtime per period passed
 * (do_sched_rt_period_timer), and the throttle lifts when it is paid off. */
void rt_clock(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (!rt_bandwidth(s) || now < rq->rt_period_end_ns)
		return;
	const uint64_t p = s->cfg.rt_period_ns, r = s->cfg.rt_runtime_ns;
	const uint64_t overrun = (now - rq->rt_period_end_ns) / p + 1;
	rq->rt_period_end_ns += overrun * p;
	rq->rt_time_ns = rq->rt_time_ns > overrun * r ? rq->rt_time_ns - overrun * r : 0;
	if (rq->rt_throttled && rq->rt_time_ns < r) {
		rq->rt_throttled = 0;
		sched_idle_sync(s, cpu, now);
		if (rq->rt_nr_running)
			rq->need_resched = 1; /* its real-time tasks come back before the CFS one */
	}
}

/* Whether another real-time task of @t's priority waits on @cpu (RR's turn). */
static int rr_peer_waiting(const struct bls_sched *s, unsigned cpu, unsigned id)
{
	const struct bls_sched_task *t = &s->task[id];
	for_each_task(s, i, SCHED_QUEUED(s, cpu)) {
		const struct bls_sched_task *o = &s->task[i];
		if (i != id && sched_is_rt(o) && o->rt_priority == t->rt_priority)
			return 1;
	}
	return 0;
}

void rt_bandwidth_account(struct bls_sched *s, unsigned cpu, uint64_t from, uint64_t to)
{
	struct bls_rq *rq = &s->rq[cpu];
	/* Period by period (a long stretch may cross a period's end). */
	for (uint64_t at = from; rt_bandwidth(s) && at < to;) {
		rt_clock(s, cpu, at);
		const uint64_t end = to < rq->rt_period_end_ns ? to : rq->rt_period_end_ns;
		rq->rt_time_ns += end - at;
		at = end;
	}
	rt_clock(s, cpu, to);
	if (rt_bandwidth(s) && !rq->rt_throttled && rq->rt_time_ns >= s->cfg.rt_runtime_ns) {
		rq->rt_throttled = 1;
		rq->need_resched = 1;
		s->stats.rt_throttles++;
		sched_idle_sync(s, cpu, to);
	}
}

void rt_account(struct bls_sched *s, unsigned cpu, unsigned id, uint64_t from, uint64_t to)
{
	struct bls_rq *rq = &s->rq[cpu];
	struct bls_sched_task *t = &s->task[id];
	const uint64_t ran = to > from ? to - from : 0;
	rt_bandwidth_account(s, cpu, from, to);
	/* RR's quantum (task_tick_rt): spent, it starts again, and the task goes behind its
	 * equals if any wait. Alone, it simply goes on with a new one. */
	if (t->policy == BLS_SCHED_RR && ran > 0) {
		const uint64_t q = rr_timeslice(s);
		if (ran < t->rr_left_ns) {
			t->rr_left_ns -= ran;
		} else {
			t->rr_left_ns = q - (ran - t->rr_left_ns) % q;
			if (rr_peer_waiting(s, cpu, id)) {
				t->rt_seq = ++s->rt_seq;
				rq->need_resched = 1;
			}
		}
	}
}

uint64_t rt_deadline(const struct bls_sched *s, unsigned cpu)
{
	const struct bls_rq *rq = &s->rq[cpu];
	uint64_t d = BLS_NO_DEADLINE;
	if (rt_bandwidth(s) && rq->rt_throttled && rq->rt_nr_running)
		d = rq->rt_period_end_ns; /* the throttle lifts */
	if (rq->curr == NO_TASK || !sched_is_rt(&s->task[rq->curr]))
		return d;
	const struct bls_sched_task *t = &s->task[rq->curr];
	if (rt_bandwidth(s)) {
		/* The runtime runs out, or the period ends first (and the count starts again). */
		const uint64_t left = s->cfg.rt_runtime_ns > rq->rt_time_ns ? s->cfg.rt_runtime_ns - rq->rt_time_ns : 0;
		uint64_t at = rq->curr_accounted_ns + left;
		if (rq->rt_period_end_ns < at)
			at = rq->rt_period_end_ns;
		if (at < d)
			d = at;
	}
	if (t->policy == BLS_SCHED_RR && rr_peer_waiting(s, cpu, (unsigned)rq->curr) &&
	    rq->curr_accounted_ns + t->rr_left_ns < d)
		d = rq->curr_accounted_ns + t->rr_left_ns;
	return d;
}

/* The most urgent real-time task queued on @cpu (running or not; @waiting: not running),
 * first queued among equals; NO_TASK when none. */
static int rt_highest(const struct bls_sched *s, unsigned cpu, int waiting)
{
	int best = NO_TASK;
	for_each_task(s, i, SCHED_QUEUED(s, cpu)) {
		const struct bls_sched_task *t = &s->task[i];
		if (!sched_is_rt(t) || (waiting && s->rq[cpu].curr == (int)i))
			continue;
		if (best == NO_TASK || t->rt_priority > s->task[best].rt_priority ||
		    (t->rt_priority == s->task[best].rt_priority && t->rt_seq < s->task[best].rt_seq))
			best = (int)i;
	}
	return best;
}

int rt_pick(const struct bls_sched *s, unsigned cpu)
{
	const struct bls_rq *rq = &s->rq[cpu];
	if (!rq->rt_nr_running || rq->rt_throttled)
		return NO_TASK;
	return rt_highest(s, cpu, 0);
}

int bls_sched_rt_runnable(const struct bls_sched *s, unsigned cpu)
{
	return s->rq[cpu].rt_nr_running > 0 && !s->rq[cpu].rt_throttled;
}

int bls_sched_runnable(const struct bls_sched *s, unsigned cpu)
{
	return sched_cfs_nr(&s->rq[cpu]) > 0 || bls_sched_rt_runnable(s, cpu) || bls_sched_dl_runnable(s, cpu);
}

/* How urgent @cpu's work is: -1 idle, 0 CFS only (or real-time throttled), else the highest
 * real-time priority queued; above every real-time priority when a deadline task may run. */
static int rank(const struct bls_sched *s, unsigned cpu)
{
	const struct bls_rq *rq = &s->rq[cpu];
	if (bls_sched_dl_runnable(s, cpu))
		return DL_URGENCY;
	const int hi = rt_pick(s, cpu);
	if (hi != NO_TASK)
		return (int)s->task[hi].rt_priority;
	return rq->nr_running ? 0 : -1;
}

/* find_lowest_rq: of the CPUs @t may run on other than @except, not throttled, the one whose
 * work is least urgent and less urgent than @t (its previous CPU first among equals, then the
 * next ones in order); -1 when @t would run at once nowhere. */
static int find_lowest(const struct bls_sched *s, const struct bls_sched_task *t, int except)
{
	const unsigned n = s->cfg.ncpus;
	int best = -1, best_rank = (int)t->rt_priority;
	for (unsigned i = 0; i < n; i++) {
		const unsigned c = (t->cpu + i) % n;
		if ((int)c == except || !sched_cpu_allowed(s, t, c) || s->rq[c].rt_throttled)
			continue;
		const int r = rank(s, c);
		if (r < best_rank) {
			best = (int)c;
			best_rank = r;
		}
	}
	return best;
}

int rt_select_cpu(const struct bls_sched *s, unsigned id)
{
	const struct bls_sched_task *t = &s->task[id];
	const struct bls_rq *prev = &s->rq[t->cpu];
	/* select_task_rq_rt: its previous CPU, unless a real-time task at least as urgent runs
	 * there (then it would wait). */
	const int blocked = curr_urgency(s, t->cpu) >= (int)t->rt_priority;
	if (sched_cpu_allowed(s, t, t->cpu) && !blocked && !prev->rt_throttled)
		return (int)t->cpu;
	const int c = find_lowest(s, t, -1);
	if (c >= 0)
		return c;
	return sched_cpu_allowed(s, t, t->cpu) ? (int)t->cpu : sched_select_cpu_in(s, t, ~0u);
}

int rt_preempts(const struct bls_sched *s, unsigned cpu, unsigned id)
{
	const struct bls_rq *rq = &s->rq[cpu];
	const struct bls_sched_task *t = &s->task[id];
	if (rq->curr == NO_TASK)
		return 1;
	if (!sched_is_rt(t) || rq->rt_throttled)
		return 0;
	return (int)t->rt_priority > curr_urgency(s, cpu);
}

/* @id (waiting on its CPU) moves to @to and, being more urgent than all there, runs next. */
static uint32_t rt_move(struct bls_sched *s, unsigned id, unsigned to, uint64_t now)
{
	sched_migrate(s, id, to, now);
	s->rq[to].need_resched = 1;
	return 1u << to;
}

uint32_t rt_balance(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	uint32_t kicked = 0;
	if (!s->rt_queued || !(s->active >> cpu & 1u) || s->rq[cpu].rt_throttled)
		return 0;
	/* Push (push_rt_tasks): what waits here behind a more urgent task goes where it runs at
	 * once. Each move leaves one fewer waiting: at most ntasks rounds. (A task waits behind a
	 * real-time one when two or more are queued, or behind a deadline task.) */
	while (s->rq[cpu].rt_nr_running >= 2 ||
	       (s->rq[cpu].rt_nr_running == 1 && curr_urgency(s, cpu) == DL_URGENCY)) {
		const int id = rt_highest(s, cpu, 1);
		if (id == NO_TASK || curr_urgency(s, cpu) < (int)s->task[id].rt_priority)
			break;
		const int to = find_lowest(s, &s->task[id], (int)cpu);
		if (to < 0)
			break;
		s->stats.rt_pushes++;
		kicked |= rt_move(s, (unsigned)id, (unsigned)to, now);
	}
	/* Pull (pull_rt_task): the most urgent task waiting elsewhere behind a more urgent one,
	 * if it is more urgent than all that is queued here. */
	int best = NO_TASK;
	for (unsigned c = 0; c < s->cfg.ncpus; c++) {
		const struct bls_rq *o = &s->rq[c];
		if (c == cpu || o->rt_nr_running < 1 || o->rt_throttled || curr_urgency(s, c) <= 0)
			continue;
		const int id = rt_highest(s, c, 1);
		if (id == NO_TASK || curr_urgency(s, c) < (int)s->task[id].rt_priority ||
		    !sched_cpu_allowed(s, &s->task[id], cpu))
			continue;
		if (best == NO_TASK || s->task[id].rt_priority > s->task[best].rt_priority)
			best = id;
	}
	if (best != NO_TASK && (int)s->task[best].rt_priority > rank(s, cpu)) {
		s->stats.rt_pulls++;
		kicked |= rt_move(s, (unsigned)best, cpu, now);
	}
	return kicked;
}
