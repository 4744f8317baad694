/* switcher/src/sched/task_heap.c -- each CPU's tasks in the two orders the scheduler asks for
 * at every scheduling point (enum bls_sched_heap): its queued CFS tasks by (vruntime, id), the
 * rbtree of Linux's cfs_rq->tasks_timeline, and its sleepers by (wake-up time, id), its timer
 * queue. Binary min-heaps of task ids, bls_sched.heap. Membership follows the task sets' two
 * writers (sched_set_state, sched_set_cpu); a change of a queued task's vruntime is told with
 * sched_fair_key_changed (a sleeper's wake-up time is set before it sleeps). */
#include "internal.h"

#include <stdlib.h>

static uint64_t key(const struct bls_sched *s, unsigned h, unsigned id)
{
	return h == BLS_HEAP_FAIR ? s->task[id].vruntime : s->task[id].wake_at_ns;
}

/* Whether task @a comes before task @b in heap @h: a smaller key, or as small and a lower
 * id (the order a scan of the task sets, in id order, met them in). */
static int before(const struct bls_sched *s, unsigned h, unsigned a, unsigned b)
{
	const uint64_t ka = key(s, h, a), kb = key(s, h, b);
	return ka < kb || (ka == kb && a < b);
}

static void put(struct bls_sched *s, unsigned h, unsigned cpu, unsigned pos, unsigned id)
{
	s->heap[h][cpu][pos] = (uint16_t)id;
	s->task[id].heap_pos[h] = pos;
}

static void sift_up(struct bls_sched *s, unsigned h, unsigned cpu, unsigned pos)
{
	const unsigned id = s->heap[h][cpu][pos];
	while (pos > 0) {
		const unsigned parent = (pos - 1) / 2, p = s->heap[h][cpu][parent];
		if (!before(s, h, id, p))
			break;
		put(s, h, cpu, pos, p);
		pos = parent;
	}
	put(s, h, cpu, pos, id);
}

static void sift_down(struct bls_sched *s, unsigned h, unsigned cpu, unsigned pos)
{
	const unsigned n = s->rq[cpu].heap_nr[h], id = s->heap[h][cpu][pos];
	for (;;) {
		unsigned child = 2 * pos + 1;
		if (child >= n)
			break;
		if (child + 1 < n && before(s, h, s->heap[h][cpu][child + 1], s->heap[h][cpu][child]))
			child++;
		if (!before(s, h, s->heap[h][cpu][child], id))
			break;
		put(s, h, cpu, pos, s->heap[h][cpu][child]);
		pos = child;
	}
	put(s, h, cpu, pos, id);
}

void sched_heap_insert(struct bls_sched *s, unsigned h, unsigned cpu, unsigned id)
{
	const unsigned pos = s->rq[cpu].heap_nr[h]++;
	put(s, h, cpu, pos, id);
	sift_up(s, h, cpu, pos);
}

void sched_heap_remove(struct bls_sched *s, unsigned h, unsigned cpu, unsigned id)
{
	const unsigned pos = s->task[id].heap_pos[h], last = --s->rq[cpu].heap_nr[h];
	if (pos == last)
		return;
	/* The last task fills the hole, where it may belong higher or lower. */
	const unsigned moved = s->heap[h][cpu][last];
	put(s, h, cpu, pos, moved);
	sift_up(s, h, cpu, pos);
	sift_down(s, h, cpu, s->task[moved].heap_pos[h]);
}

void sched_fair_key_changed(struct bls_sched *s, unsigned id)
{
	const struct bls_sched_task *t = &s->task[id];
	if (!sched_heap_member(t, t->state, BLS_HEAP_FAIR))
		return; /* not in a heap: its key is read when it is inserted */
	sift_up(s, BLS_HEAP_FAIR, t->cpu, t->heap_pos[BLS_HEAP_FAIR]);
	sift_down(s, BLS_HEAP_FAIR, t->cpu, s->task[id].heap_pos[BLS_HEAP_FAIR]);
}

void sched_fair_key_grew(struct bls_sched *s, unsigned id)
{
	const struct bls_sched_task *t = &s->task[id];
	if (s->rq[t->cpu].heap_nr[BLS_HEAP_FAIR] > 1) /* alone, it stays the root */
		sift_down(s, BLS_HEAP_FAIR, t->cpu, t->heap_pos[BLS_HEAP_FAIR]);
}

int sched_heap_second(const struct bls_sched *s, unsigned h, unsigned cpu)
{
	/* The next after the root is one of its children. */
	const unsigned n = s->rq[cpu].heap_nr[h];
	if (n < 2)
		return NO_TASK;
	if (n == 2 || before(s, h, s->heap[h][cpu][1], s->heap[h][cpu][2]))
		return s->heap[h][cpu][1];
	return s->heap[h][cpu][2];
}

static int by_id(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Ids in increasing order: an insertion sort, as a handful are due at a time. */
static void sort_ids(uint16_t *ids, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		const uint16_t id = ids[i];
		unsigned j = i;
		for (; j > 0 && ids[j - 1] > id; j--)
			ids[j] = ids[j - 1];
		ids[j] = id;
	}
}

unsigned sched_sleepers_due(const struct bls_sched *s, unsigned cpu, uint64_t now, uint16_t *due)
{
	/* The due ones are a subtree at the root: a node not due has no due child. */
	const uint16_t *heap = s->heap[BLS_HEAP_SLEEP][cpu];
	const unsigned n = s->rq[cpu].heap_nr[BLS_HEAP_SLEEP];
	unsigned ndue = 0;
	if (n == 0 || s->task[heap[0]].wake_at_ns > now)
		return 0;
	due[ndue++] = heap[0];
	/* Breadth first through the due array itself: each due node's children, in turn. */
	for (unsigned k = 0; k < ndue; k++) {
		const unsigned pos = s->task[due[k]].heap_pos[BLS_HEAP_SLEEP];
		for (unsigned child = 2 * pos + 1; child <= 2 * pos + 2 && child < n; child++)
			if (s->task[heap[child]].wake_at_ns <= now)
				due[ndue++] = heap[child];
	}
	if (ndue > 32)
		qsort(due, ndue, sizeof(*due), by_id);
	else
		sort_ids(due, ndue);
	return ndue;
}

int sched_heap_consistent(const struct bls_sched *s, unsigned h, unsigned cpu)
{
	unsigned members = 0;
	for_each_task(s, i, h == BLS_HEAP_FAIR ? SCHED_QUEUED(s, cpu) : SCHED_ASLEEP(s, cpu))
		members += sched_heap_member(&s->task[i], s->task[i].state, h);
	const unsigned n = s->rq[cpu].heap_nr[h];
	if (members != n)
		return 0;
	for (unsigned pos = 0; pos < n; pos++) {
		const unsigned id = s->heap[h][cpu][pos];
		const struct bls_sched_task *t = &s->task[id];
		if (id >= s->ntasks || t->heap_pos[h] != pos || t->cpu != cpu || !sched_heap_member(t, t->state, h) ||
		    (pos > 0 && before(s, h, id, s->heap[h][cpu][(pos - 1) / 2])))
			return 0;
	}
	return 1;
}
