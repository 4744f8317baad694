/* switcher/include/bls/task.h -- what a task does, as its workload decides.
 *
 * The kernel owns scheduling; the workload owns behaviour. Whenever a task has finished its
 * current step, the kernel asks the workload for the next one: run an amount of work, sleep
 * until a time, block on an event, signal an event, or exit. A workload is any implementation
 * of struct bls_workload_ops: the scenario's constant task set, later browsers and rt-app
 * threads. The kernel never invents work, and nothing outside it wakes a task: sleeps are the
 * kernel's own timers.
 */
#ifndef BLS_TASK_H
#define BLS_TASK_H

#include <stdint.h>

#include "bls/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum bls_step_kind {
	BLS_STEP_RUN = 1,   /* run @ref_ns of work (on the reference CPU), as struct bls_work */
	BLS_STEP_SLEEP,     /* sleep until @until_ns (absolute; in the past: go on at once); with
			     * @io, a wait for block I/O (io_schedule): the task counts in its
			     * CPU's nr_iowait meanwhile (docs/os.md, "I/O wait") */
	BLS_STEP_BLOCK,     /* wait for @event to be signalled */
	BLS_STEP_SIGNAL,    /* wake the longest waiter on @event (none: the signal is lost) */
	BLS_STEP_BROADCAST, /* wake every waiter on @event */
	BLS_STEP_EXIT,      /* the task is over */
	BLS_STEP_SPIN,      /* busy on the CPU until @until_ns, whatever work that does (rt-app's
			     * runtime); preempted meanwhile, it still ends then */
	BLS_STEP_AFFINITY,  /* from now on run only on the logical CPUs of @affinity (0: every
			     * one), as sched_setaffinity (rt-app's per-phase cpus): a task on a
			     * CPU it may no longer use moves at once */
	BLS_STEP_YIELD,     /* sched_yield: the CPU reschedules (bls_sched_yield says who runs);
			     * the task's next step is asked for when it runs again */
	BLS_STEP_FORK,      /* start task @task, one the configuration holds back until forked
			     * (bls_kernel_config.forked): placed as a new task, it runs its
			     * workload from its first step */
	BLS_STEP_GROUP,     /* move to CFS task group @group (its thread written to a cgroup's
			     * tasks file: sched_move_task) */
};

/* A step. RUN uses ref_ns and the memory behaviour; SPIN until_ns and the memory behaviour;
 * SLEEP until_ns and io; AFFINITY affinity; the others event. */
struct bls_step {
	enum bls_step_kind kind;
	double ref_ns;
	double mem_fraction;     /* share of the work that is memory stall, 0..1 */
	uint32_t working_set_kb; /* data it touches; 0: caches not modelled */
	double write_fraction;   /* share of that data it dirties, 0..1 */
	uint64_t until_ns;
	int io;                  /* SLEEP: nonzero for a wait for block I/O */
	unsigned event;          /* < BLS_MAX_EVENTS */
	uint32_t affinity;       /* AFFINITY: logical CPUs (bits), 0: every one */
	unsigned task;           /* FORK: the task started */
	unsigned group;          /* GROUP: the task group (bls_sched_config.group; 0 the root) */
};

#define BLS_MAX_EVENTS 4096

struct bls_workload_ops {
	/* next - the step @task takes now, at @now_ns, its previous step finished (the first
	 * call: the task starts). Fills @step and returns 0, or returns a negative BLS_E* code
	 * for a workload that cannot go on (the kernel reports a guest error and ends the
	 * task). Runs on the CPU the task runs on, without consuming simulated time. */
	int (*next)(void *wl, unsigned task, uint64_t now_ns, struct bls_step *step);
};

#ifdef __cplusplus
}
#endif

#endif /* BLS_TASK_H */
