/* switcher/src/sched/fair_heap.c -- each CPU's queued CFS tasks in (vruntime, id) order: the
 * binary min-heap of bls_sched.fair_heap (Linux: the rbtree of cfs_rq->tasks_timeline).
 * Membership follows the task sets' two writers (sched_set_state, sched_set_cpu); a change of
 * a member's vruntime is told with sched_fair_key_changed. */
#include "internal.h"

/* Whether task @a comes before task @b: less vruntime, or as much and a lower id. */
static int before(const struct bls_sched *s, unsigned a, unsigned b)
{
	const uint64_t va = s->task[a].vruntime, vb = s->task[b].vruntime;
	return va < vb || (va == vb && a < b);
}

static void put(struct bls_sched *s, unsigned cpu, unsigned pos, unsigned id)
{
	s->fair_heap[cpu][pos] = (uint16_t)id;
	s->task[id].fair_pos = pos;
}

static void sift_up(struct bls_sched *s, unsigned cpu, unsigned pos)
{
	const unsigned id = s->fair_heap[cpu][pos];
	while (pos > 0) {
		const unsigned parent = (pos - 1) / 2, p = s->fair_heap[cpu][parent];
		if (!before(s, id, p))
			break;
		put(s, cpu, pos, p);
		pos = parent;
	}
	put(s, cpu, pos, id);
}

static void sift_down(struct bls_sched *s, unsigned cpu, unsigned pos)
{
	const unsigned n = s->rq[cpu].fair_nr, id = s->fair_heap[cpu][pos];
	for (;;) {
		unsigned child = 2 * pos + 1;
		if (child >= n)
			break;
		if (child + 1 < n && before(s, s->fair_heap[cpu][child + 1], s->fair_heap[cpu][child]))
			child++;
		if (!before(s, s->fair_heap[cpu][child], id))
			break;
		put(s, cpu, pos, s->fair_heap[cpu][child]);
		pos = child;
	}
	put(s, cpu, pos, id);
}

void sched_fair_insert(struct bls_sched *s, unsigned cpu, unsigned id)
{
	const unsigned pos = s->rq[cpu].fair_nr++;
	put(s, cpu, pos, id);
	sift_up(s, cpu, pos);
}

void sched_fair_remove(struct bls_sched *s, unsigned cpu, unsigned id)
{
	const unsigned pos = s->task[id].fair_pos, last = --s->rq[cpu].fair_nr;
	if (pos == last)
		return;
	/* The last task fills the hole, where it may belong higher or lower. */
	const unsigned moved = s->fair_heap[cpu][last];
	put(s, cpu, pos, moved);
	sift_up(s, cpu, pos);
	sift_down(s, cpu, s->task[moved].fair_pos);
}

void sched_fair_key_changed(struct bls_sched *s, unsigned id)
{
	const struct bls_sched_task *t = &s->task[id];
	if (t->state != BLS_TASK_RUNNABLE || !sched_is_fair(t))
		return; /* not in a heap: its key is read when it is inserted */
	sift_up(s, t->cpu, t->fair_pos);
	sift_down(s, t->cpu, s->task[id].fair_pos);
}

int sched_fair_first_but(const struct bls_sched *s, unsigned cpu, int skip)
{
	const unsigned n = s->rq[cpu].fair_nr;
	if (n == 0)
		return NO_TASK;
	const int root = s->fair_heap[cpu][0];
	if (root != skip || n == 1)
		return root != skip ? root : NO_TASK;
	/* The next after the root is one of its children. */
	if (n == 2 || before(s, s->fair_heap[cpu][1], s->fair_heap[cpu][2]))
		return s->fair_heap[cpu][1];
	return s->fair_heap[cpu][2];
}

int sched_fair_heap_consistent(const struct bls_sched *s, unsigned cpu)
{
	unsigned fair = 0;
	for_each_task(s, i, SCHED_QUEUED(s, cpu))
		fair += sched_is_fair(&s->task[i]);
	const unsigned n = s->rq[cpu].fair_nr;
	if (fair != n)
		return 0;
	for (unsigned pos = 0; pos < n; pos++) {
		const unsigned id = s->fair_heap[cpu][pos];
		const struct bls_sched_task *t = &s->task[id];
		if (id >= s->ntasks || t->fair_pos != pos || t->cpu != cpu || t->state != BLS_TASK_RUNNABLE ||
		    !sched_is_fair(t) || (pos > 0 && before(s, id, s->fair_heap[cpu][(pos - 1) / 2])))
			return 0;
	}
	return 1;
}
