/* switcher/src/sched/deadline.c -- the deadline class (kernel/sched/deadline.c): SCHED_DEADLINE,
 * EDF with a constant bandwidth server per task (bls/sched.h; docs/os.md, "Deadline tasks").
 *
 * A deadline task asks for dl_runtime of CPU time every dl_period, to be had within dl_deadline
 * of each period's start. On a CPU, deadline tasks run before every real-time and CFS task, the
 * earliest absolute deadline first. Each has a budget (its runtime left) and an absolute
 * deadline: running spends the budget; spent (or given up by sched_yield), the task is
 * throttled until its next period, when the budget is replenished and the deadline moves on a
 * period. A task that wakes with a budget it could not spend by its deadline at its reserved
 * rate starts a new one (the CBS wake-up rule), so that sleeping never earns bandwidth.
 *
 * Admission (sched_setattr): the deadline tasks' bandwidths, runtime/period each in Linux's
 * 20-bit fixed point, may add up to at most the real-time bandwidth (sched_rt_runtime_us /
 * sched_rt_period_us) times the active CPUs (the 3.14-5.8 rule; later kernels weigh each CPU
 * by its capacity). Their running time counts against the real-time tasks' bandwidth too, as
 * Linux's update_curr_dl accounts it in rt_time.
 *
 * Between CPUs, Linux keeps the N earliest deadlines running on N CPUs (global EDF, as far as
 * pushes and pulls achieve it): a waking task goes to a CPU without a deadline task, else to
 * the one whose earliest deadline is the latest and later than its own (find_later_rq over
 * cpudl); a task left waiting is pushed to such a CPU; a CPU whose earliest deadline gets
 * later pulls one that waits elsewhere behind an earlier one. */
#include "bls/sched.h"

#include "internal.h"

#define DL_SCALE 10 /* the overflow test's precision (Linux's DL_SCALE) */
#define BW_SHIFT 20
#define DL_MIN_RUNTIME_NS (1ull << DL_SCALE) /* __checkparam_dl: runtime at least 1 us-ish */
#define DL_MIN_PERIOD_NS (100ull * 1000)     /* sched_deadline_period_min_us: 100 us */
#define DL_MAX_PERIOD_NS ((1ull << 22) * 1000) /* sched_deadline_period_max_us: ~4 s */

uint64_t bls_sched_bw(uint64_t period_ns, uint64_t runtime_ns)
{
	if (period_ns == 0)
		return 0;
	return (runtime_ns << BW_SHIFT) / period_ns; /* to_ratio */
}

/* The bandwidth deadline tasks may have per CPU (global_rt_runtime / global_rt_period); ~0:
 * no limit (sched_rt_runtime_us -1). */
static uint64_t dl_cpu_bw(const struct bls_sched *s)
{
	if (s->cfg.rt_period_ns == 0 || s->cfg.rt_runtime_ns > s->cfg.rt_period_ns)
		return ~0ull;
	return bls_sched_bw(s->cfg.rt_period_ns, s->cfg.rt_runtime_ns);
}

int dl_check_params(const struct bls_sched *s, const struct bls_sched_task_config *tc)
{
	const uint64_t all = s->cfg.ncpus >= 32 ? ~0u : (1u << s->cfg.ncpus) - 1u;
	const uint64_t period = tc->dl_period_ns ? tc->dl_period_ns : tc->dl_deadline_ns;
	/* __checkparam_dl, and the period limits of 5.x; a deadline task's affinity is every CPU
	 * (sched_setattr refuses a narrower one: -EPERM). */
	if (tc->rt_priority != 0 || tc->dl_runtime_ns < DL_MIN_RUNTIME_NS ||
	    tc->dl_deadline_ns < tc->dl_runtime_ns || period < tc->dl_deadline_ns ||
	    period < DL_MIN_PERIOD_NS || period > DL_MAX_PERIOD_NS ||
	    (tc->affinity != 0 && (tc->affinity & all) != all))
		return -BLS_EINVAL;
	/* __dl_overflow: the bandwidth of the root domain's CPUs. */
	const uint64_t cap = dl_cpu_bw(s);
	if (cap == ~0ull)
		return 0;
	uint64_t total = bls_sched_bw(period, tc->dl_runtime_ns);
	for (unsigned i = 0; i < s->ntasks; i++)
		if (sched_is_dl(&s->task[i]) && s->task[i].state != BLS_TASK_EXITED)
			total += s->task[i].dl_bw;
	const unsigned ncpus = (unsigned)__builtin_popcount(s->active);
	return total > cap * ncpus ? -BLS_EBUSY : 0;
}

void dl_init_task(struct bls_sched_task *t, const struct bls_sched_task_config *tc)
{
	t->dl_runtime_ns = tc->dl_runtime_ns;
	t->dl_deadline_ns = tc->dl_deadline_ns;
	t->dl_period_ns = tc->dl_period_ns ? tc->dl_period_ns : tc->dl_deadline_ns;
	t->dl_bw = bls_sched_bw(t->dl_period_ns, t->dl_runtime_ns);
}

/* A new job: a full budget, due dl_deadline from @now. */
static void dl_new_job(struct bls_sched_task *t, uint64_t now)
{
	t->dl_abs_ns = now + t->dl_deadline_ns;
	t->dl_left_ns = (int64_t)t->dl_runtime_ns;
}

/* replenish_dl_entity: the budget spent (or yielded) comes back a runtime per period, the
 * deadline a period later each time; a task so late that its deadline is past starts over
 * from @now. */
static void dl_replenish(struct bls_sched *s, struct bls_sched_task *t, uint64_t now)
{
	if (t->dl_yielded && t->dl_left_ns > 0)
		t->dl_left_ns = 0;
	while (t->dl_left_ns <= 0) {
		t->dl_abs_ns += t->dl_period_ns;
		t->dl_left_ns += (int64_t)t->dl_runtime_ns;
	}
	if (t->dl_abs_ns < now)
		dl_new_job(t, now);
	t->dl_yielded = 0;
	if (t->dl_throttled) {
		t->dl_throttled = 0;
		if (t->state == BLS_TASK_RUNNABLE) { /* a sleeper counts nowhere */
			s->rq[t->cpu].dl_nr_throttled--;
			sched_idle_sync(s, t->cpu, now);
		}
	}
}

/* dl_entity_overflow: whether @t's budget, spent at its reserved rate (runtime/period), would
 * run past its deadline from @now -- left / (deadline - now) > runtime / period. */
static int dl_overflow(const struct bls_sched_task *t, uint64_t now)
{
	const uint64_t left = (uint64_t)(t->dl_left_ns > 0 ? t->dl_left_ns : 0);
	const uint64_t left_time = (t->dl_period_ns >> DL_SCALE) * (left >> DL_SCALE);
	const uint64_t right_time = ((t->dl_abs_ns - now) >> DL_SCALE) * (t->dl_runtime_ns >> DL_SCALE);
	return right_time < left_time;
}

void dl_wake(struct bls_sched *s, unsigned id, uint64_t now, int fresh)
{
	struct bls_sched_task *t = &s->task[id];
	if (fresh) {
		dl_new_job(t, now); /* setup_new_dl_entity */
		return;
	}
	if (t->dl_throttled) {
		/* It spent its budget just as it went to sleep: it waits for its replenishment,
		 * which may have come while it slept. */
		if (now < t->dl_replenish_ns)
			return;
		dl_replenish(s, t, now);
	}
	/* update_dl_entity: a past deadline, or a budget too large for the time left, is a new
	 * job; with a deadline shorter than the period (not implicit), a budget still due
	 * later is cut to what the task's density allows until then (the revised wake-up). */
	if (t->dl_abs_ns <= now || dl_overflow(t, now)) {
		if (t->dl_deadline_ns != t->dl_period_ns && t->dl_abs_ns > now) {
			const uint64_t density = bls_sched_bw(t->dl_deadline_ns, t->dl_runtime_ns);
			t->dl_left_ns = (int64_t)((density * (t->dl_abs_ns - now)) >> BW_SHIFT);
			return;
		}
		dl_new_job(t, now);
	}
}

/* @t, queued on its CPU, has spent its budget (or yielded it): throttled until its next
 * period starts (dl_next_period), or replenished at once when that is already past. */
static void dl_throttle(struct bls_sched *s, unsigned id, uint64_t now)
{
	struct bls_sched_task *t = &s->task[id];
	struct bls_rq *rq = &s->rq[t->cpu];
	t->dl_replenish_ns = t->dl_abs_ns - t->dl_deadline_ns + t->dl_period_ns;
	t->dl_throttled = 1;
	rq->dl_nr_throttled++;
	s->stats.dl_throttles++;
	sched_idle_sync(s, t->cpu, now);
	if (t->dl_replenish_ns <= now)
		dl_replenish(s, t, now);
	if (rq->curr == (int)id)
		rq->need_resched = 1;
}

void dl_account(struct bls_sched *s, unsigned cpu, unsigned id, uint64_t from, uint64_t to)
{
	struct bls_sched_task *t = &s->task[id];
	rt_bandwidth_account(s, cpu, from, to);
	t->dl_left_ns -= (int64_t)(to > from ? to - from : 0);
	if ((t->dl_left_ns <= 0 || t->dl_yielded) && !t->dl_throttled)
		dl_throttle(s, id, to);
}

void dl_yield(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	const int id = s->rq[cpu].curr;
	/* yield_task_dl: the job is over; the rest of its budget is given up. */
	s->task[id].dl_yielded = 1;
	if (!s->task[id].dl_throttled)
		dl_throttle(s, (unsigned)id, now);
}

/* Whether @a's deadline comes before @b's (among equals, the first queued). */
static int dl_before(const struct bls_sched_task *a, const struct bls_sched_task *b)
{
	return a->dl_abs_ns < b->dl_abs_ns || (a->dl_abs_ns == b->dl_abs_ns && a->rt_seq < b->rt_seq);
}

/* The deadline task of @cpu with the earliest deadline that may run (queued, not throttled;
 * @waiting: not running); NO_TASK when none. */
static int dl_earliest(const struct bls_sched *s, unsigned cpu, int waiting)
{
	const struct bls_rq *rq = &s->rq[cpu];
	int best = NO_TASK;
	if (rq->dl_nr_running == rq->dl_nr_throttled)
		return NO_TASK;
	for_each_task(s, i, SCHED_QUEUED(s, cpu)) {
		const struct bls_sched_task *t = &s->task[i];
		if (!sched_is_dl(t) || t->dl_throttled || (waiting && rq->curr == (int)i))
			continue;
		if (best == NO_TASK || dl_before(t, &s->task[best]))
			best = (int)i;
	}
	return best;
}

int dl_pick(const struct bls_sched *s, unsigned cpu)
{
	return dl_earliest(s, cpu, 0);
}

int bls_sched_dl_runnable(const struct bls_sched *s, unsigned cpu)
{
	return s->rq[cpu].dl_nr_running > s->rq[cpu].dl_nr_throttled;
}

void dl_clock(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	struct bls_rq *rq = &s->rq[cpu];
	if (!rq->dl_nr_throttled)
		return;
	for_each_task(s, i, SCHED_QUEUED(s, cpu)) {
		struct bls_sched_task *t = &s->task[i];
		if (!sched_is_dl(t) || !t->dl_throttled || t->dl_replenish_ns > now)
			continue;
		/* dl_task_timer: replenished, it competes again, and may preempt. */
		dl_replenish(s, t, now);
		if (dl_preempts(s, cpu, i))
			rq->need_resched = 1;
	}
}

uint64_t dl_deadline(const struct bls_sched *s, unsigned cpu)
{
	const struct bls_rq *rq = &s->rq[cpu];
	uint64_t d = BLS_NO_DEADLINE;
	if (!rq->dl_nr_running)
		return d;
	for_each_task(s, i, rq->dl_nr_throttled ? SCHED_QUEUED(s, cpu) : 0) {
		const struct bls_sched_task *t = &s->task[i];
		if (sched_is_dl(t) && t->dl_throttled && t->dl_replenish_ns < d)
			d = t->dl_replenish_ns; /* its replenishment timer */
	}
	if (rq->curr != NO_TASK && sched_is_dl(&s->task[rq->curr])) {
		const struct bls_sched_task *t = &s->task[rq->curr];
		const uint64_t out = rq->curr_accounted_ns + (uint64_t)(t->dl_left_ns > 0 ? t->dl_left_ns : 0);
		if (out < d)
			d = out; /* its budget runs out */
	}
	return d;
}

int dl_preempts(const struct bls_sched *s, unsigned cpu, unsigned id)
{
	const struct bls_rq *rq = &s->rq[cpu];
	const struct bls_sched_task *t = &s->task[id];
	if (t->dl_throttled)
		return 0;
	if (rq->curr == NO_TASK)
		return 1;
	const struct bls_sched_task *curr = &s->task[rq->curr];
	return !sched_is_dl(curr) || curr->dl_throttled || t->dl_abs_ns < curr->dl_abs_ns;
}

/* find_later_rq: of the CPUs @t may run on other than @except, one without a deadline task
 * that may run (its previous CPU first, then the next ones in order), else the one whose
 * earliest deadline is the latest and later than @t's; -1 when @t would wait everywhere. */
static int find_later(const struct bls_sched *s, const struct bls_sched_task *t, int except)
{
	const unsigned n = s->cfg.ncpus;
	int best = -1;
	uint64_t latest = t->dl_abs_ns;
	for (unsigned i = 0; i < n; i++) {
		const unsigned c = (t->cpu + i) % n;
		if ((int)c == except || !sched_cpu_allowed(s, t, c))
			continue;
		const int e = dl_pick(s, c);
		if (e == NO_TASK)
			return (int)c;
		if (s->task[e].dl_abs_ns > latest) {
			best = (int)c;
			latest = s->task[e].dl_abs_ns;
		}
	}
	return best;
}

int dl_select_cpu(const struct bls_sched *s, unsigned id)
{
	const struct bls_sched_task *t = &s->task[id];
	const struct bls_rq *prev = &s->rq[t->cpu];
	/* select_task_rq_dl: its previous CPU, unless a deadline task due no later runs there. */
	const int blocked = prev->curr != NO_TASK && sched_is_dl(&s->task[prev->curr]) &&
			    !s->task[prev->curr].dl_throttled && s->task[prev->curr].dl_abs_ns <= t->dl_abs_ns;
	if (sched_cpu_allowed(s, t, t->cpu) && !blocked)
		return (int)t->cpu;
	const int c = find_later(s, t, -1);
	if (c >= 0)
		return c;
	return sched_cpu_allowed(s, t, t->cpu) ? (int)t->cpu : sched_select_cpu_in(s, t, ~0u);
}

uint32_t dl_balance(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	uint32_t kicked = 0;
	if (!s->dl_queued || !(s->active >> cpu & 1u))
		return 0;
	/* Push (push_dl_tasks): what waits here goes where it runs at once. Each move leaves one
	 * fewer waiting. */
	while (s->rq[cpu].dl_nr_running - s->rq[cpu].dl_nr_throttled >= 2) {
		const int id = dl_earliest(s, cpu, 1);
		if (id == NO_TASK || s->rq[cpu].curr == NO_TASK || !sched_is_dl(&s->task[s->rq[cpu].curr]))
			break;
		const int to = find_later(s, &s->task[id], (int)cpu);
		if (to < 0)
			break;
		s->stats.dl_pushes++;
		sched_migrate(s, (unsigned)id, (unsigned)to, now);
		s->rq[to].need_resched = 1;
		kicked |= 1u << to;
	}
	/* Pull (pull_dl_task): the earliest deadline waiting elsewhere behind an earlier one, if
	 * it is earlier than all this CPU may run. */
	int best = NO_TASK;
	for (unsigned c = 0; c < s->cfg.ncpus; c++) {
		if (c == cpu || s->rq[c].dl_nr_running - s->rq[c].dl_nr_throttled < 2)
			continue;
		const int id = dl_earliest(s, c, 1);
		if (id != NO_TASK && sched_cpu_allowed(s, &s->task[id], cpu) &&
		    (best == NO_TASK || dl_before(&s->task[id], &s->task[best])))
			best = id;
	}
	const int mine = dl_pick(s, cpu);
	if (best != NO_TASK && (mine == NO_TASK || dl_before(&s->task[best], &s->task[mine]))) {
		s->stats.dl_pulls++;
		sched_migrate(s, (unsigned)best, cpu, now);
		s->rq[cpu].need_resched = 1;
		kicked |= 1u << cpu;
	}
	return kicked;
}
