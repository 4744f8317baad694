/* switcher/src/sched/internal.h -- what the scheduler's files share (kernel/sched/sched.h):
 * the fair scheduler's primitives, and the placement policies' entry points. Not a public
 * header: bls/sched.h is the contract. */
#ifndef BLS_SCHED_INTERNAL_H
#define BLS_SCHED_INTERNAL_H

#include "bls/sched.h"

#define NO_TASK (-1)

static inline int sched_is_rt(const struct bls_sched_task *t)
{
	return t->policy == BLS_SCHED_FIFO || t->policy == BLS_SCHED_RR;
}

static inline int sched_is_dl(const struct bls_sched_task *t)
{
	return t->policy == BLS_SCHED_DEADLINE;
}

/* A CFS task (weighted, in vruntime order), not one of the classes above it. */
static inline int sched_is_fair(const struct bls_sched_task *t)
{
	return t->policy == BLS_SCHED_NORMAL;
}

/* @rq's CFS tasks. */
static inline unsigned sched_cfs_nr(const struct bls_rq *rq)
{
	return rq->nr_running - rq->rt_nr_running - rq->dl_nr_running;
}

/* --- task sets (bls_sched.in_state, .on_cpu) ------------------------------------------- */

static inline unsigned sched_state_index(enum bls_task_state st)
{
	return (unsigned)st - (unsigned)BLS_TASK_NEW;
}

static inline void sched_bit_set(uint64_t *set, unsigned id)
{
	set[id / 64] |= 1ull << (id % 64);
}

static inline void sched_bit_clear(uint64_t *set, unsigned id)
{
	set[id / 64] &= ~(1ull << (id % 64));
}

/* The tasks in a word of a set. Inline arithmetic: without a -mpopcnt target (Debian's
 * x86-64 baseline) __builtin_popcountll is a call into libgcc, 3 % more of a 4096-task run. */
static inline unsigned sched_popcount(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

static inline int sched_bit_test(const uint64_t *set, unsigned id)
{
	return (int)(set[id / 64] >> (id % 64) & 1u);
}

/* --- each CPU's tasks in order: queued CFS tasks, sleepers (task_heap.c) ---------------- */

/* Whether task @t, in state @st, belongs in heap @h of its CPU. */
static inline int sched_heap_member(const struct bls_sched_task *t, enum bls_task_state st, unsigned h)
{
	return h == BLS_HEAP_FAIR ? st == BLS_TASK_RUNNABLE && sched_is_fair(t) : st == BLS_TASK_SLEEPING;
}

void sched_heap_insert(struct bls_sched *s, unsigned h, unsigned cpu, unsigned id);
void sched_heap_remove(struct bls_sched *s, unsigned h, unsigned cpu, unsigned id);
/* A queued CFS task's vruntime changed (any other task: nothing to do); _grew: @id is the
 * running task, queued, and its vruntime only grew. */
void sched_fair_key_changed(struct bls_sched *s, unsigned id);
void sched_fair_key_grew(struct bls_sched *s, unsigned id);
/* The second of @cpu's heap @h (NO_TASK: fewer than two). */
int sched_heap_second(const struct bls_sched *s, unsigned h, unsigned cpu);

/* The first of @cpu's heap @h (NO_TASK: empty). */
static inline int sched_heap_first(const struct bls_sched *s, unsigned h, unsigned cpu)
{
	return s->rq[cpu].heap_nr[h] ? s->heap[h][cpu][0] : NO_TASK;
}
/* @cpu's sleepers due by @now, into @due (room for every sleeper) in id order; their count. */
unsigned sched_sleepers_due(const struct bls_sched *s, unsigned cpu, uint64_t now, uint16_t *due);
/* Heap @h of @cpu holds exactly its members, in order (a check: a full scan). */
int sched_heap_consistent(const struct bls_sched *s, unsigned h, unsigned cpu);

/* Task @id, state @from on @cpu before, @to now: into or out of the heaps. */
static inline void sched_heaps_follow(struct bls_sched *s, unsigned id, unsigned from_cpu,
				      enum bls_task_state from, unsigned to_cpu, enum bls_task_state to)
{
	const struct bls_sched_task *t = &s->task[id];
	for (unsigned h = 0; h < BLS_SCHED_NHEAPS; h++) {
		const int was = sched_heap_member(t, from, h), is = sched_heap_member(t, to, h);
		if (was && (!is || from_cpu != to_cpu))
			sched_heap_remove(s, h, from_cpu, id);
		if (is && (!was || from_cpu != to_cpu))
			sched_heap_insert(s, h, to_cpu, id);
	}
}

/* The only writer of a task's state: it moves between the state sets with it, and into or
 * out of its CPU's heaps. */
static inline void sched_set_state(struct bls_sched *s, unsigned id, enum bls_task_state st)
{
	struct bls_sched_task *t = &s->task[id];
	const enum bls_task_state from = t->state;
	sched_bit_clear(s->in_state[sched_state_index(from)], id);
	sched_bit_set(s->in_state[sched_state_index(st)], id);
	t->state = st;
	sched_heaps_follow(s, id, t->cpu, from, t->cpu, st);
}

/* The only writer of a task's CPU (after bls_sched_add_task). */
static inline void sched_set_cpu(struct bls_sched *s, unsigned id, unsigned cpu)
{
	struct bls_sched_task *t = &s->task[id];
	const unsigned from = t->cpu;
	sched_bit_clear(s->on_cpu[from], id);
	sched_bit_set(s->on_cpu[cpu], id);
	t->cpu = cpu;
	sched_heaps_follow(s, id, from, t->state, cpu, t->state);
}

/* for_each_task(s, id, WORD): every task id whose bit is set in WORD, an expression of the
 * word index _w (e.g. s->in_state[..][_w] & s->on_cpu[cpu][_w]), in increasing id order. Each
 * word is read once, before its tasks are visited: the body may change the sets of the task it
 * visits, not those of tasks after it. No break in the body (it would end one task's visit
 * only); return is fine. */
#define for_each_task(s, id, WORD)                                                              \
	for (unsigned _w = 0, _nw = ((s)->ntasks + 63) / 64; _w < _nw; _w++)                    \
		for (uint64_t _m = (WORD); _m; _m &= _m - 1)                                    \
			for (unsigned id = _w * 64 + (unsigned)__builtin_ctzll(_m), _once = 1; _once; \
			     _once = 0)

#define SCHED_IN(s, st) ((s)->in_state[sched_state_index(st)][_w])
/* The word of the tasks queued on @cpu (RUNNABLE there, running or waiting). */
#define SCHED_QUEUED(s, cpu) (SCHED_IN(s, BLS_TASK_RUNNABLE) & (s)->on_cpu[cpu][_w])
/* ... of the tasks asleep with their timer on @cpu. */
#define SCHED_ASLEEP(s, cpu) (SCHED_IN(s, BLS_TASK_SLEEPING) & (s)->on_cpu[cpu][_w])
/* ... of the tasks of @cpu that exist (neither NEW nor EXITED): queued, asleep, or waiting. */
#define SCHED_LIVE(s, cpu)                                                                        \
	((SCHED_IN(s, BLS_TASK_RUNNABLE) | SCHED_IN(s, BLS_TASK_SLEEPING) | SCHED_IN(s, BLS_TASK_BLOCKED)) & \
	 (s)->on_cpu[cpu][_w])

/* fair.c */
void sched_record(struct bls_sched *s, unsigned kind, unsigned a, unsigned b);
int sched_is_curr(const struct bls_sched *s, unsigned id);
/* @cpu's idle time (and iowait) follow whether it has something it may run, as of @now:
 * called after anything that changes it (a task queued or dequeued, a throttle set or lifted). */
void sched_idle_sync(struct bls_sched *s, unsigned cpu, uint64_t now);
/* Bring @id's load tracking (and HMP's) up to @now under the state it has been in. */
void sched_pelt_sync(struct bls_sched *s, unsigned id, uint64_t now);
int sched_cpu_allowed(const struct bls_sched *s, const struct bls_sched_task *t, unsigned cpu);
/* CFS's choice among the CPUs of @among: the task's previous CPU if idle, else an idle one,
 * else the least loaded; -1 when none is allowed. */
int sched_select_cpu_in(const struct bls_sched *s, const struct bls_sched_task *t, uint32_t among);
/* A task not running goes to @to's run queue (between clusters: timed and counted). */
void sched_migrate(struct bls_sched *s, unsigned id, unsigned to, uint64_t now);
/* @cpu's running task stops running, staying queued there: for an active migration, at
 * @cpu's own scheduling point (where it is not executing). */
void sched_detach_curr(struct bls_sched *s, unsigned cpu, uint64_t now);
/* @id moves to @to's run queue to run there next (an HMP or EAS move): detached first when
 * it is running, which only its own CPU may do, at its scheduling point. Returns the CPUs
 * to kick: @to, and its old CPU when it was running there. */
uint32_t sched_move(struct bls_sched *s, unsigned id, unsigned to, uint64_t now);
void sched_check_preempt(struct bls_sched *s, unsigned cpu, unsigned id, uint64_t now);

/* hmp.c */
/* HMP's clock: time scaled so that load_avg_period_ms is load tracking's half-life. */
uint64_t hmp_clock(const struct bls_sched *s, uint64_t now);
/* Account @id's HMP load up to @now (@runnable all along), and read it as it stands. */
void hmp_load_update(struct bls_sched *s, unsigned id, uint64_t now, int runnable);
double hmp_load_of(const struct bls_sched *s, unsigned id);
/* Start @id's HMP load from its load tracking's (HMP turned on at run time). */
void hmp_load_seed(struct bls_sched *s, unsigned id, uint64_t now);
/* Where @id wakes (fork and wake migration, packing); -1: CFS's choice. @load is its HMP
 * load when it went to sleep. */
int hmp_select_cpu(struct bls_sched *s, unsigned id, uint64_t now, int fresh, double load);
/* @cpu's HMP balancing at a scheduling point (@due: its tick): idle pull when idle, forced
 * up-migration of its task when little, offload when big with tasks waiting. Returns the
 * CPUs to kick. */
uint32_t hmp_balance(struct bls_sched *s, unsigned cpu, uint64_t now, int due);
/* The active migration asked of @cpu (its rq's pull_to and pull_task): done now. */
uint32_t hmp_active_pull(struct bls_sched *s, unsigned cpu, uint64_t now);

/* eas.c */
/* Where @id wakes: the CPU that fits it at the least estimated energy; -1: none fits. */
int eas_select_cpu(struct bls_sched *s, unsigned id, uint64_t now);
/* At busy @cpu's tick: its running task, too big for it, moves to an idle CPU of more
 * capacity (the misfit task's active balance). Returns the CPUs to kick. */
uint32_t eas_misfit(struct bls_sched *s, unsigned cpu, uint64_t now);
/* Some CPU is short of headroom: load balancing works as CFS's again. */
int eas_overutilized(struct bls_sched *s, uint64_t now);

/* rt.c */
void rt_init_rq(struct bls_sched *s, unsigned cpu, uint64_t now);
void rt_init_task(struct bls_sched *s, struct bls_sched_task *t);
/* @cpu's bandwidth period brought up to @now (the throttle may lift). */
void rt_clock(struct bls_sched *s, unsigned cpu, uint64_t now);
/* @cpu's real-time bandwidth spent from @from to @to (by a real-time or a deadline task). */
void rt_bandwidth_account(struct bls_sched *s, unsigned cpu, uint64_t from, uint64_t to);
/* Real-time task @id ran on @cpu from @from to @to: its CPU's bandwidth and its RR quantum
 * (either may ask @cpu to reschedule). */
void rt_account(struct bls_sched *s, unsigned cpu, unsigned id, uint64_t from, uint64_t to);
/* The real-time task @cpu runs next; NO_TASK when none may (none queued, or throttled). */
int rt_pick(const struct bls_sched *s, unsigned cpu);
/* Where real-time @id wakes. */
int rt_select_cpu(const struct bls_sched *s, unsigned id);
/* Whether @id, queued on @cpu, takes the CPU from the running task at once. */
int rt_preempts(const struct bls_sched *s, unsigned cpu, unsigned id);
/* When @cpu must reschedule for the real-time class: its throttle lifts, its running task's
 * runtime or RR quantum runs out. */
uint64_t rt_deadline(const struct bls_sched *s, unsigned cpu);
/* Push and pull from @cpu at its scheduling point. Returns the CPUs to kick. */
uint32_t rt_balance(struct bls_sched *s, unsigned cpu, uint64_t now);

/* deadline.c */
/* Linux's sched_setattr checks of @tc's deadline parameters, then admission: 0, -BLS_EINVAL
 * or -BLS_EBUSY. */
int dl_check_params(const struct bls_sched *s, const struct bls_sched_task_config *tc);
void dl_init_task(struct bls_sched_task *t, const struct bls_sched_task_config *tc);
/* Deadline task @id wakes at @now (@fresh: for the first time): the CBS wake-up rule. Before
 * it is queued. */
void dl_wake(struct bls_sched *s, unsigned id, uint64_t now, int fresh);
/* Deadline task @id ran on @cpu from @from to @to: its budget, the CPU's real-time bandwidth. */
void dl_account(struct bls_sched *s, unsigned cpu, unsigned id, uint64_t from, uint64_t to);
/* @cpu's deadline tasks whose replenishment is due by @now get their budget back. */
void dl_clock(struct bls_sched *s, unsigned cpu, uint64_t now);
/* The deadline task @cpu runs next (the earliest deadline with budget); NO_TASK when none. */
int dl_pick(const struct bls_sched *s, unsigned cpu);
int dl_select_cpu(const struct bls_sched *s, unsigned id);
/* Whether deadline task @id, queued on @cpu, takes the CPU from the running task at once. */
int dl_preempts(const struct bls_sched *s, unsigned cpu, unsigned id);
/* When @cpu must reschedule for the deadline class: a replenishment, the running task's
 * budget running out. */
uint64_t dl_deadline(const struct bls_sched *s, unsigned cpu);
/* @cpu's running deadline task gives up the rest of its job's budget. */
void dl_yield(struct bls_sched *s, unsigned cpu, uint64_t now);
/* Push and pull of deadline tasks from @cpu at its scheduling point. Returns CPUs to kick. */
uint32_t dl_balance(struct bls_sched *s, unsigned cpu, uint64_t now);

#endif /* BLS_SCHED_INTERNAL_H */
