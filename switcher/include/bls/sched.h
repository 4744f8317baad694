/* switcher/include/bls/sched.h -- the scheduler: run queues, fair sharing, placement and
 * balancing, in the manner of Linux's CFS (kernel/sched/fair.c). docs/os.md has the algorithms
 * and where they simplify.
 *
 * Pure bookkeeping: every function takes the current time and returns at once, touching no
 * hardware, so that the kernel (bls/kernel.h) calls it between its platform verbs and tests
 * drive it with hand-picked times. Run queues are per logical CPU ("cpu" below always means
 * a logical CPU); the kernel tells the scheduler which are online and at what capacity each
 * runs.
 *
 * Where a task wakes, and which tasks balancing moves, is the placement's choice
 * (enum bls_placement): CFS's, which treats every CPU alike; Linaro's big.LITTLE MP (HMP,
 * src/sched/hmp.c), which sorts tasks between the clusters by tracked load; or energy-aware
 * (EAS, src/sched/eas.c), which wakes a task where the energy model says it costs least.
 * HMP and EAS need the topology (each CPU's cluster, fixed: the switcher off).
 *
 * A task is NEW until first woken, then RUNNABLE (queued: running or waiting), SLEEPING (its
 * timer on the run queue it slept on), BLOCKED (on an event) or EXITED:
 *
 *   NEW --wake--> RUNNABLE --sleep--> SLEEPING --timer--> RUNNABLE
 *                    |  ^--------------------------------------'
 *                    +--block--> BLOCKED --signal--> RUNNABLE
 *                    +--exit---> EXITED
 */
#ifndef BLS_SCHED_H
#define BLS_SCHED_H

#include <stdint.h>

#include <assert.h>

#include "bls/pelt.h"
#include "bls/tunable.h"
#include "bls/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum bls_task_state {
	BLS_TASK_NEW = 0x71,
	BLS_TASK_RUNNABLE = 0x72,
	BLS_TASK_SLEEPING = 0x73,
	BLS_TASK_BLOCKED = 0x74,
	BLS_TASK_EXITED = 0x75,
};
#define BLS_TASK_NSTATES 5
#define BLS_TASK_WORDS ((BLS_MAX_TASKS + 63) / 64)

#define BLS_NICE_0_WEIGHT 1024u
#define BLS_NO_DEADLINE UINT64_MAX

/* Scheduling policies, with Linux's values (include/uapi/linux/sched.h), so that a zeroed task
 * configuration is a CFS task. FIFO and RR tasks are the real-time class (src/sched/rt.c): on
 * their CPU they run before every CFS task, the highest rt_priority first. DEADLINE tasks
 * (src/sched/deadline.c) run before both, the earliest deadline first, each within the
 * bandwidth it reserved. */
enum bls_sched_policy {
	BLS_SCHED_NORMAL = 0,   /* CFS, weighted by nice */
	BLS_SCHED_FIFO = 1,     /* runs until it sleeps, blocks or one of higher priority comes */
	BLS_SCHED_RR = 2,       /* as FIFO, taking turns with its equals every rr_timeslice */
	BLS_SCHED_DEADLINE = 6, /* EDF, dl_runtime every dl_period (a constant bandwidth server) */
};
#define BLS_MAX_RT_PRIO 99u

/* CFS task groups (the cpu controller's cgroups): group 0 is the root; each other group has a
 * parent (a lower-numbered group) and cpu.shares (cgroup v1; 1024 by default, 2..262144). */
#define BLS_MAX_GROUPS 32u
#define BLS_GROUP_DEFAULT_SHARES 1024u
struct bls_sched_group {
	unsigned parent;
	unsigned shares;
};

enum bls_placement {
	BLS_PLACE_FAIR = 0x81, /* CFS: spread by load; every CPU alike */
	BLS_PLACE_HMP = 0x82,  /* big.LITTLE MP: tasks sorted between clusters by tracked load */
	BLS_PLACE_EAS = 0x83,  /* energy-aware wake-up placement */
};

/* Linaro's big.LITTLE MP (CONFIG_SCHED_HMP) tunables: /sys/kernel/hmp and its Kconfig.
 * Loads are the HMP load (runnable average over load_avg_period_ms, optionally frequency
 * invariant), 0..1024. */
#define BLS_HMP_TUNABLES(X)                                                                      \
	X(INT, up_threshold, unsigned, 700, up_threshold, 0, 1023, "load (0..1024)", 1, ALL,           \
	  "A task whose HMP load is above it belongs on a big CPU (/sys/kernel/hmp/up_threshold).")   \
	X(INT, down_threshold, unsigned, 512, down_threshold, 0, 1023, "load (0..1024)", 1, ALL,       \
	  "A task whose HMP load is below it belongs on a little CPU; below up_threshold.")           \
	X(INT, load_avg_period_ms, unsigned, 32, load_avg_period_ms, 1, 1000, "ms", 1, ALL,            \
	  "Half-life of the HMP load (the runnable average HMP decides by).")                         \
	X(BOOL, frequency_invariant, int, 1, frequency_invariant, 0, 1, "", 1, ALL,                    \
	  "Count runnable time at the CPU's frequency's share of its cluster's top "                  \
	  "(HMP_FREQUENCY_INVARIANT_SCALE, /sys/kernel/hmp/frequency_invariant_load_scale); "          \
	  "false: in full, so that a light task on a slow little CPU looks heavy.")                   \
	/* hmp_next_up_threshold = 4096, compared with (now - last) >> 10 ns */                      \
	X(INT, up_interval_ns, uint64_t, 4096ull << 10, up_interval_us, 0, 10000000, "us", 1000, ALL, \
	  "Least time from a task's last move between clusters to a move up (Linux: 4096 << 10 ns).") \
	X(INT, down_interval_ns, uint64_t, 4096ull << 10, down_interval_us, 0, 10000000, "us", 1000,   \
	  ALL, "Least time from a task's last move between clusters to a move down.")                \
	X(BOOL, fork_to_big, int, 1, fork_to_big, 0, 1, "", 1, ALL,                                    \
	  "New tasks start on a big CPU, with a full load.")                                          \
	X(BOOL, wake_migration, int, 1, wake_migration, 0, 1, "", 1, ALL,                              \
	  "A waking task changes cluster by its load.")                                               \
	X(BOOL, forced_up, int, 1, forced_up_migration, 0, 1, "", 1, ALL,                              \
	  "A task running on a little CPU above up_threshold is moved up at once.")                   \
	X(BOOL, idle_pull, int, 1, idle_pull, 0, 1, "", 1, ALL,                                        \
	  "An idle big CPU pulls the heaviest such task.")                                            \
	X(BOOL, offload, int, 1, offload, 0, 1, "", 1, ALL,                                            \
	  "A big CPU with tasks waiting pushes one to an idle little CPU.")                           \
	X(BOOL, prio_filter, int, 0, prio_filter, 0, 1, "", 1, ALL,                                    \
	  "Tasks at nice prio_filter_nice or above never go up (off in the TC2 defconfig).")          \
	X(INT, prio_filter_nice, int, 5, prio_filter_nice, -20, 19, "", 1, ALL,                        \
	  "The nice level of prio_filter.")                                                           \
	X(BOOL, packing, int, 0, packing, 0, 1, "", 1, ALL,                                            \
	  "Small tasks are packed on the first little CPU (off on TC2) ...")                          \
	X(INT, packing_limit, unsigned, 650, packing_limit, 0, 1024, "load (0..1024)", 1, ALL,         \
	  "... while its load stays below this.")

struct bls_hmp_config {
	BLS_HMP_TUNABLES(BLS_TUNABLE_FIELD)
};

/* The energy model EAS places by: per cluster, per OPP, the capacity (of the reference CPU
 * at its top OPP, 1024) and the busy power of a core and of the cluster; and the cluster's
 * power when powered with every core idle. Units are the model's own (only ratios matter). */
struct bls_energy_model {
	unsigned nopps[BLS_MAX_CLUSTERS];
	double cap[BLS_MAX_CLUSTERS][BLS_MAX_OPPS];
	double core_power[BLS_MAX_CLUSTERS][BLS_MAX_OPPS];
	double cluster_power[BLS_MAX_CLUSTERS][BLS_MAX_OPPS];
	double cluster_idle_power[BLS_MAX_CLUSTERS];
};

struct bls_sched_config {
	unsigned ncpus;                 /* logical CPUs that may ever be online */
	uint64_t latency_ns;            /* sched_latency: every runnable task runs once per period */
	uint64_t min_granularity_ns;    /* the shortest slice; the period grows beyond latency/min */
	uint64_t wakeup_granularity_ns; /* a woken task preempts when this much more entitled */
	uint64_t balance_interval_ns;   /* periodic balancing of a CPU with tasks waiting (and,
					 * under HMP, the forced up-migration's check of a busy one) */
	enum bls_placement placement;   /* 0: BLS_PLACE_FAIR */
	/* The topology, for HMP and EAS: each CPU's cluster, and each cluster's capacity at its
	 * top OPP (the fastest's is 1024). */
	unsigned nclusters;
	unsigned cpu_cluster[BLS_MAX_CPUS];
	double cluster_capacity[BLS_MAX_CLUSTERS];
	struct bls_hmp_config hmp;
	struct bls_energy_model em;
	/* Real-time bandwidth (sched_rt_period_us, sched_rt_runtime_us): on each CPU the real-time
	 * tasks run at most rt_runtime_ns of every rt_period_ns (periods counted from time 0);
	 * beyond, the CPU's real-time queue is throttled until the period ends and CFS tasks (or
	 * idle) have the CPU. rt_period_ns 0, or a runtime as long as the period: no throttling
	 * (sched_rt_runtime_us -1). */
	uint64_t rt_period_ns, rt_runtime_ns;
	uint64_t rr_timeslice_ns; /* SCHED_RR's quantum (sched_rr_timeslice_ms); 0: 100 ms */
	/* Task groups: ngroups (0 or 1: the root alone, no group scheduling), group[0] the root. */
	unsigned ngroups;
	struct bls_sched_group group[BLS_MAX_GROUPS];
};

/* bls_sched_bw - a bandwidth, @runtime_ns of every @period_ns, in Linux's 20-bit fixed point
 * (to_ratio): what deadline admission adds up. */
uint64_t bls_sched_bw(uint64_t period_ns, uint64_t runtime_ns);

/* bls_hmp_default_config - Linaro's LSK defaults (docs/sources.md, "Scheduling"; docs/modes.md). */
void bls_hmp_default_config(struct bls_hmp_config *h);

struct bls_sched_task_config {
	uint32_t affinity; /* logical CPUs it may run on; 0: every one */
	int nice;          /* -20..19 (SCHED_NORMAL) */
	enum bls_sched_policy policy;
	unsigned rt_priority; /* 1..99 for FIFO and RR (higher first), 0 for NORMAL and DEADLINE */
	/* DEADLINE (sched_attr): dl_runtime_ns of CPU time every dl_period_ns (0: dl_deadline_ns),
	 * within dl_deadline_ns of each period's start; runtime <= deadline <= period. */
	uint64_t dl_runtime_ns, dl_deadline_ns, dl_period_ns;
	unsigned group; /* its task group (CFS): 0 the root */
};

/* Per-task accounting, read-only for callers. */
struct bls_sched_task_stats {
	uint64_t runtime_ns;   /* time running */
	uint64_t wait_ns;      /* time runnable but not running */
	uint64_t wakeups;
	uint64_t migrations;   /* moves between run queues */
};

/* The orders the scheduler keeps each CPU's tasks in, besides the task sets (bls_sched.heap). */
enum bls_sched_heap {
	BLS_HEAP_FAIR,  /* its queued CFS tasks, running or waiting, by (vruntime, id) */
	BLS_HEAP_SLEEP, /* the tasks asleep with their timer on it, by (wake_at_ns, id) */
	BLS_SCHED_NHEAPS
};

struct bls_sched_task {
	/* read-only for callers */
	enum bls_task_state state;
	unsigned cpu;          /* run queue it is on, or last ran on */
	uint32_t affinity;
	int nice;
	unsigned weight;       /* CFS: its weight on its run queue, its nice's scaled by its groups'
				* shares there (nice_weight when in the root group) */
	unsigned nice_weight;  /* its nice's */
	unsigned group;
	enum bls_sched_policy policy;
	unsigned rt_priority;
	uint64_t vruntime;     /* ns weighted by NICE_0_WEIGHT / weight, in its run queue's frame */
	unsigned heap_pos[BLS_SCHED_NHEAPS]; /* its place in its CPU's heaps it is in (internal) */
	uint64_t wake_at_ns;   /* SLEEPING: when its timer fires */
	int in_iowait;         /* SLEEPING in a wait for block I/O: counted in its CPU's nr_iowait */
	unsigned event;        /* BLOCKED: on what */
	struct bls_pelt pelt;
	struct bls_pelt hmp_load; /* HMP's: runnable, on a clock scaled to load_avg_period_ms */
	struct bls_sched_task_stats stats;
	/* private */
	uint64_t since_ns;     /* RUNNABLE: when it last started waiting or running */
	uint64_t woken_at_ns;  /* when it was meant to wake (a sleep's deadline, a signal) */
	int latency_pending;   /* woken, not run yet */
	uint64_t block_seq;    /* BLOCKED: order of arrival, for signal's longest waiter */
	uint64_t last_latency_ns;
	uint64_t last_xmig_ns; /* its last move between clusters (HMP's spacing; 0: none) */
	double hmp_frozen;     /* its HMP load when it last stopped running to wait */
	uint64_t xmig_at_ns;   /* moved to another cluster then, not run there yet (0: none) */
	uint64_t rt_seq;       /* real time, deadline: its place among its equals (queued at the tail) */
	uint64_t rr_left_ns;   /* SCHED_RR: what is left of its quantum */
	/* SCHED_DEADLINE: its parameters and bandwidth; the current job's budget (runtime left)
	 * and absolute deadline; throttled (budget spent) until dl_replenish_ns; yielded. */
	uint64_t dl_runtime_ns, dl_deadline_ns, dl_period_ns, dl_bw;
	int64_t dl_left_ns;
	uint64_t dl_abs_ns;
	int dl_throttled, dl_yielded;
	uint64_t dl_replenish_ns;
};

struct bls_rq {
	int curr;                /* the task running, -1 */
	int last_ran;            /* the task that stopped running, until the next pick; -1 */
	unsigned nr_running;     /* RUNNABLE tasks on it, curr included */
	unsigned rt_nr_running;  /* of which real-time */
	unsigned dl_nr_running;  /* of which deadline ... */
	unsigned dl_nr_throttled; /* ... of which throttled (queued, waiting for their budget) */
	int skip;                /* a CFS task that yielded: picked last while others wait; -1 */
	unsigned heap_nr[BLS_SCHED_NHEAPS]; /* its heaps' sizes: CFS tasks queued (curr included),
					     * sleepers */
	unsigned long weight;    /* the CFS ones' weights' sum */
	uint64_t min_vruntime;
	uint64_t exec_start_ns;  /* when curr got the CPU (its slice's start) */
	uint64_t curr_accounted_ns; /* curr's runtime accounted up to here */
	int need_resched;        /* curr should give way at the next scheduling point */
	uint64_t next_balance_ns;
	double scale;            /* capacity x frequency, of the reference's (util invariance) */
	/* Idle: nothing it may run (bls_sched_runnable; a throttled class's queued tasks wait,
	 * as Linux dequeues them), since idle_since; idle_ns the time so, up to then. */
	int idle;
	uint64_t idle_ns;
	uint64_t idle_since_ns;
	/* Tasks asleep in a wait for block I/O that slept on this CPU (Linux's rq->nr_iowait),
	 * and the idle time spent with one or more of them: iowait, up to iowait_since. */
	unsigned nr_iowait;
	uint64_t iowait_ns;
	uint64_t iowait_since_ns;
	/* An active migration asked of this CPU (HMP's idle pull): its task @pull_task moves to
	 * @pull_to at this CPU's next scheduling point, where it is not running; -1: none. */
	int pull_to, pull_task;
	/* Real-time bandwidth: time its real-time tasks ran in the period ending at
	 * rt_period_end_ns, and whether they are throttled until then. */
	uint64_t rt_time_ns;
	uint64_t rt_period_end_ns;
	int rt_throttled;
};

/* Events the scheduler records for the kernel to trace once its data is consistent. */
enum bls_sched_event {
	BLS_SCHED_EV_WAKEUP = 1, /* a: task, b: the CPU it was queued on */
	BLS_SCHED_EV_MIGRATE,    /* a: task, b: the CPU it moved to */
	BLS_SCHED_EV_SWITCH,     /* a: the task that ran (~0: idle), b: the task now running (~0: idle) */
	BLS_SCHED_EV_LATENCY,    /* a: task, b: ns from when it was meant to wake to running */
	BLS_SCHED_EV_XMIGRATED,  /* a: task, now running on another cluster; b: ns from the
				  * decision to move it to running there (HMP and EAS only) */
};
#define BLS_SCHED_MAX_EVENTS (4 * BLS_MAX_TASKS)

struct bls_sched_stats {
	uint64_t context_switches;
	uint64_t migrations;        /* tasks moved between run queues, for any reason */
	uint64_t wakeups;
	uint64_t load_balance_moves; /* of which by balancing (idle pull, periodic push) */
	/* Moves between clusters (HMP and EAS only), by direction and by cause. */
	uint64_t up_migrations, down_migrations;
	uint64_t hmp_fork, hmp_wake, hmp_forced, hmp_idle_pull, hmp_offload;
	uint64_t eas_wakeups;        /* wake-ups placed by the energy model */
	uint64_t eas_misfits;        /* running tasks moved to a CPU of more capacity */
	uint64_t rt_throttles;       /* times a CPU's real-time tasks used up their runtime */
	uint64_t rt_pushes, rt_pulls; /* real-time tasks moved to a CPU where they run at once */
	uint64_t dl_throttles;       /* times a deadline task spent its budget (or yielded it) */
	uint64_t dl_pushes, dl_pulls; /* deadline tasks moved to a CPU where they run at once */
};

struct bls_sched {
	struct bls_sched_config cfg;
	uint32_t online;             /* logical CPUs online */
	uint32_t active;             /* of those, the ones that take tasks (Linux's cpu_active_mask):
				      * a CPU on its way offline keeps what it holds until it stops,
				      * but receives nothing new */
	uint32_t big;                /* CPUs of the fastest clusters (EAS's misfits move up to them) */
	uint32_t hmp_fast;           /* HMP's fast domain: every cluster above the slowest */
	unsigned ntasks;
	struct bls_rq rq[BLS_MAX_CPUS];
	/* The sums of rq[].rt_nr_running and of rq[].dl_nr_running: with none queued anywhere,
	 * the real-time and deadline balancers have nothing to push or pull (Linux's overload
	 * masks play this part). */
	unsigned rt_queued, dl_queued;
	/* Who is where, as sets of task ids (bit i: task i), so that a scan of a CPU's queued
	 * tasks or sleepers costs their number, not the task count's, and still visits them in
	 * id order (docs/os.md, "Run-queue data structures"). Kept by the only two writers of a
	 * task's state and CPU (sched_set_state, sched_set_cpu): the tasks in each state (indexed
	 * by state - BLS_TASK_NEW), and the tasks whose cpu is each CPU, whatever their state. */
	uint64_t in_state[BLS_TASK_NSTATES][BLS_TASK_WORDS];
	uint64_t on_cpu[BLS_MAX_CPUS][BLS_TASK_WORDS];
	struct bls_sched_stats stats;
	uint64_t block_seq;
	uint64_t rt_seq;
	uint64_t ev_dropped;
	unsigned nev;
	/* Last, and not zeroed by bls_sched_init: only task[0..ntasks) (each zeroed as it is
	 * added), ev[0..nev) and heap[h][cpu][0..rq[cpu].heap_nr[h]) are ever read. */
	struct bls_sched_task task[BLS_MAX_TASKS];
	/* recorded events, drained by the caller: bls_sched_take_events() */
	struct { unsigned kind, a, b; } ev[BLS_SCHED_MAX_EVENTS];
	/* Each CPU's tasks in the orders of enum bls_sched_heap, binary min-heaps of task ids:
	 * the first is at the root, the next among the root's children, so the pick and the
	 * next wake-up cost O(1) and a change O(log n) however many tasks there are, ties going
	 * to the lower id as a scan in id order gives them (docs/os.md, "Run-queue data
	 * structures"). Linux keeps an rbtree, curr out of it; here curr stays in, its key
	 * updated as it runs. */
	uint16_t heap[BLS_SCHED_NHEAPS][BLS_MAX_CPUS][BLS_MAX_TASKS];
};
static_assert(BLS_MAX_TASKS <= 65536, "the heaps hold task ids in 16 bits");

/* bls_sched_init - @cfg's run queues, every CPU of @online online and idle since @now_ns.
 * Returns 0 or -BLS_EINVAL. */
int bls_sched_init(struct bls_sched *s, const struct bls_sched_config *cfg, uint32_t online,
		   uint64_t now_ns);

/* bls_sched_weight - the load weight of @nice: 1024 at nice 0, 1.25 times less per level. */
unsigned bls_sched_weight(int nice);

/* bls_sched_add_task - a NEW task; its id, or -BLS_EINVAL (too many, bad nice, an unknown
 * policy, a real-time priority outside 1..99 (or not 0 for NORMAL and DEADLINE), an affinity
 * outside the configured CPUs; deadline parameters Linux's sched_setattr refuses: a runtime
 * under 1024 ns, not runtime <= deadline <= period, a period outside 100 us..4.19 s, an
 * affinity narrower than every CPU), or -BLS_EBUSY (admission control: the deadline tasks'
 * bandwidths would exceed rt_runtime/rt_period of each active CPU). */
int bls_sched_add_task(struct bls_sched *s, const struct bls_sched_task_config *tc, uint64_t now_ns);

/* bls_sched_wake - @task (NEW, SLEEPING or BLOCKED) becomes runnable, placed on its previous
 * CPU if idle, else an idle CPU, else the least loaded; @woken_at_ns is when it was meant to
 * wake (for its wake-up latency). A real-time task stays on its previous CPU unless a
 * real-time task at least as urgent runs there; then it goes where it would run at once, the
 * CPU running the least urgent work (idle, then CFS, then lower real-time: find_lowest_rq).
 * Returns the CPU, or -BLS_EINVAL when it was not waiting. */
int bls_sched_wake(struct bls_sched *s, unsigned task, uint64_t now_ns, uint64_t woken_at_ns);

/* bls_sched_pick - the scheduling point of @cpu: the running task goes on unless it stopped
 * being runnable, a wake-up asked it to give way, or its slice is over with others waiting;
 * then the most urgent real-time task runs (unless the CPU's real-time runtime is spent), else
 * the most entitled CFS task. Returns the task to run, or -1 (idle). */
int bls_sched_pick(struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_sleep / _block / _exit - @cpu's running task stops being runnable: asleep until
 * @until_ns (its timer on @cpu), waiting for @event, or over. */
void bls_sched_sleep(struct bls_sched *s, unsigned cpu, uint64_t now_ns, uint64_t until_ns);
/* bls_sched_sleep_io - as bls_sched_sleep, the sleep a wait for block I/O (io_schedule): until
 * it wakes the task counts in @cpu's nr_iowait, and @cpu's idle time meanwhile is iowait. */
void bls_sched_sleep_io(struct bls_sched *s, unsigned cpu, uint64_t now_ns, uint64_t until_ns);
void bls_sched_block(struct bls_sched *s, unsigned cpu, uint64_t now_ns, unsigned event);
void bls_sched_exit(struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_expire - @cpu's timer fired: wake every task asleep on it whose time has come.
 * Returns the CPUs (bits) that received a task and must reschedule. */
uint32_t bls_sched_expire(struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_signal - wake the longest waiter on @event (@all: every waiter). Returns the
 * CPUs that received a task. */
uint32_t bls_sched_signal(struct bls_sched *s, unsigned event, int all, uint64_t now_ns);

/* bls_sched_balance - balancing from @cpu. Real-time tasks first (push_rt_task, pull_rt_task):
 * one waiting here behind a more urgent one moves to a CPU where it runs at once, and one
 * waiting elsewhere behind a more urgent one comes here if it is more urgent than all @cpu
 * runs. Then CFS tasks: when @cpu is idle, pull a waiting task from the busiest CPU; when it
 * has tasks waiting and its balance interval has passed, push one to an idle CPU, or to one
 * less loaded by more than the task's weight. Returns the CPUs that received a task. */
uint32_t bls_sched_balance(struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_set_online - the logical CPUs online change (the switcher turned on or off, a
 * CPU going offline stopped): tasks queued, running or asleep on a CPU going offline move to
 * an active CPU they may run on (none: their affinity is widened to every active CPU, as
 * Linux breaks it), as Linux's migrate_tasks. A CPU coming online is active; one that stays
 * online keeps its state. Returns the CPUs that received a task. */
uint32_t bls_sched_set_online(struct bls_sched *s, uint32_t online, uint64_t now_ns);

/* bls_sched_set_active - only the online CPUs of @active take tasks from now on (Linux's
 * sched_cpu_deactivate, the first step of cpu_down): wake-ups, forks and balancing place
 * nothing on the others, and balancing pulls nothing from them; what they hold stays until
 * they go offline (bls_sched_set_online). Returns 0, or -BLS_EINVAL when @active holds a CPU
 * that is not online, or none. */
int bls_sched_set_active(struct bls_sched *s, uint32_t active);

/* bls_sched_set_affinity - @cpu's running task may from now on run only on the logical CPUs of
 * @affinity (0: every one; CPUs beyond the configured ones are ignored), as sched_setaffinity.
 * If @cpu is no longer among them, the task leaves it at once for one it may use (an idle one
 * first, as a wake-up places it), as Linux's migration stopper moves it. None of them online
 * and active: Linux's cpuset fallback, every active CPU. Returns the CPUs (bits) that received
 * the task and must reschedule (0: it stays on @cpu). */
uint32_t bls_sched_set_affinity(struct bls_sched *s, unsigned cpu, uint64_t now_ns, uint32_t affinity);

/* bls_sched_set_placement - the placement from now on (the mode changed at run time). HMP
 * and EAS need a topology in the configuration. Returns 0 or -BLS_EINVAL. */
int bls_sched_set_placement(struct bls_sched *s, enum bls_placement p, uint64_t now_ns);

/* bls_sched_hmp_load - @task's HMP load (0..1024) at @now_ns, as its up- and down-migration
 * decisions read it. */
double bls_sched_hmp_load(struct bls_sched *s, unsigned task, uint64_t now_ns);

/* bls_sched_energy - the energy model's estimate of the power (its units) of the CPUs'
 * utilisations @util (0..1024 each, of ncpus): per cluster, the OPP schedutil picks for its
 * busiest CPU (1.25 x headroom), each core busy util/cap of the time, the cluster busy as its
 * busiest core, idle the rest. What EAS compares between candidate CPUs. */
double bls_sched_energy(const struct bls_sched *s, const double *util);

/* bls_sched_set_scale - @cpu now runs at @scale of the reference capacity (0..1]. */
void bls_sched_set_scale(struct bls_sched *s, unsigned cpu, uint64_t now_ns, double scale);

/* bls_sched_no_task_lost - nonzero when the run queues have lost no task: every task that has
 * not exited is on an online logical CPU (a sleeper's timer and a waiter's run queue are that
 * CPU's), and each run queue counts exactly its RUNNABLE tasks (nr_running, their weights),
 * its curr one of them, and its nr_iowait exactly the tasks asleep in I/O on it. Holds
 * between any two scheduler calls; the kernel checks it now and then, and the cheaper
 * bls_sched_rq_consistent at every other scheduling point ("no task lost",
 * docs/architecture.md, "Invariants"). Also checks the task sets against the tasks, and each
 * CPU's heaps (enum bls_sched_heap) against their members and their order. */
int bls_sched_no_task_lost(const struct bls_sched *s);

/* bls_sched_rq_consistent - the part of bls_sched_no_task_lost that costs what @cpu holds, not
 * the task count: @cpu's nr_running is the size of its set of queued tasks, its classes'
 * counts fit in it, its curr is one of them, and no CPU that is offline holds a task. The
 * kernel checks it at each scheduling point of @cpu, and the whole bls_sched_no_task_lost
 * instead at the 1st, 2nd, 4th, ... 128th scheduling point of the run and every
 * bls_sched_full_check_every()-th. */
int bls_sched_rq_consistent(const struct bls_sched *s, unsigned cpu);
#define BLS_SCHED_FULL_CHECK_EVERY 256u

/* bls_sched_full_check_every - how many scheduling points apart the whole "no task lost"
 * check runs: BLS_SCHED_FULL_CHECK_EVERY for each 64 tasks (or fewer). The whole check costs
 * the task count, so spread that way it costs a scheduling point the same however many tasks
 * there are; what each point changes, bls_sched_rq_consistent checks at once. */
static inline uint64_t bls_sched_full_check_every(const struct bls_sched *s)
{
	const unsigned words = (s->ntasks + 63) / 64;
	return (uint64_t)BLS_SCHED_FULL_CHECK_EVERY * (words ? words : 1);
}

/* bls_sched_next_deadline - the earliest time @cpu's timer must fire for the scheduler: the
 * first sleeper's wake-up, and with tasks waiting the slice's end and the next balance.
 * BLS_NO_DEADLINE when none (NOHZ: no tick). */
uint64_t bls_sched_next_deadline(struct bls_sched *s, unsigned cpu);

/* bls_sched_next_wake - the earliest wake-up of @cpu's sleepers; BLS_NO_DEADLINE when none. */
uint64_t bls_sched_next_wake(struct bls_sched *s, unsigned cpu);

/* bls_sched_idle_ns - time @cpu has had nothing runnable, up to @now_ns (what
 * get_cpu_idle_time_us gives a governor). */
uint64_t bls_sched_idle_ns(const struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_iowait_ns - the part of bls_sched_idle_ns() that @cpu spent with a task of its
 * asleep in I/O (get_cpu_iowait_time_us); Linux's get_cpu_idle_time_us is the rest. */
uint64_t bls_sched_iowait_ns(const struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_nr_iowait - tasks that slept on @cpu in a wait for block I/O and are still asleep
 * (nr_iowait_cpu, which cpuidle's menu governor reads). */
unsigned bls_sched_nr_iowait(const struct bls_sched *s, unsigned cpu);

/* bls_sched_cpu_util / _runnable - the sum of the tracked averages of the tasks on @cpu
 * (sleeping ones included, decaying), up to @now_ns: 0..1024 per fully busy CPU. */
double bls_sched_cpu_util(struct bls_sched *s, unsigned cpu, uint64_t now_ns);
double bls_sched_cpu_runnable(struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_runnable - nonzero when @cpu has a task it may run now: a CFS task, or a real-time
 * one its throttle allows (a throttled CPU's real-time tasks are queued but wait: Linux takes
 * them out of rq->nr_running while throttled). */
int bls_sched_runnable(const struct bls_sched *s, unsigned cpu);

/* bls_sched_dl_runnable - nonzero when @cpu has a deadline task runnable with budget left. */
int bls_sched_dl_runnable(const struct bls_sched *s, unsigned cpu);

/* bls_sched_set_group - @cpu's running task moves to task group @group (sched_move_task: its
 * thread written to another cgroup's tasks file). Returns 0 or -BLS_EINVAL (no such group). */
int bls_sched_set_group(struct bls_sched *s, unsigned cpu, uint64_t now_ns, unsigned group);

/* bls_sched_yield - @cpu's running task calls sched_yield: a CFS task is picked after the
 * others waiting within a wake-up granularity (the skip buddy), a real-time one goes behind
 * its equals, a deadline one ends its job (throttled until its next period with a fresh
 * budget). The caller reschedules. */
void bls_sched_yield(struct bls_sched *s, unsigned cpu, uint64_t now_ns);

/* bls_sched_rt_runnable - nonzero when @cpu has a real-time task runnable that may run (its
 * real-time queue not throttled): schedutil then asks for the top frequency
 * (SCHED_CPUFREQ_RT). */
int bls_sched_rt_runnable(const struct bls_sched *s, unsigned cpu);

/* bls_sched_slice_ns - the slice @cpu's running CFS task gets with the CFS tasks now queued
 * (0 for a real-time task). */
uint64_t bls_sched_slice_ns(const struct bls_sched *s, unsigned cpu);

/* bls_sched_take_events - hand the recorded events to @fn, oldest first, and forget them. */
void bls_sched_take_events(struct bls_sched *s, void (*fn)(void *ctx, unsigned kind, unsigned a, unsigned b),
			   void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* BLS_SCHED_H */
