/* switcher/include/bls/cpuidle.h -- idle states and the choice among them: Linux's cpuidle
 * core with its governors, menu and ladder (drivers/cpuidle/cpuidle.c, governors/menu.c,
 * governors/ladder.c of 3.10), over the states of drivers/cpuidle/cpuidle-big_little.c.
 *
 * Each cluster has its idle states, shallowest first, from the SoC file: WFI (the core
 * clock-gated) and power-down (the core off through MCPM; the last one down takes its cluster
 * with it). Each has an exit latency and a target residency: the shortest idle period for
 * which entering it saves energy.
 *
 * The core keeps the states, the statistics per physical CPU, and per logical CPU the device
 * a governor learns on (Linux's per-CPU struct cpuidle_device, which under the In-Kernel
 * Switcher belongs to the logical CPU and moves with it between the clusters). The kernel's
 * idle path calls, on the CPU going idle:
 *
 *   bls_cpuidle_select   the governor picks a state from the time to the next timer, the
 *                        tasks in I/O wait and what it learnt of past idle periods;
 *   bls_cpuidle_enter    the state is entered (its entry counted);
 *   bls_cpuidle_exit     it is left: its residency is measured and accounted, and the
 *                        governor hears of it (reflect; menu learns at its next select).
 *
 * A governor is an ops table (struct bls_cpuidle_governor), as the cpufreq governors are.
 * Everything here is bookkeeping on times the caller passes: no simulated time passes
 * inside, so tests drive the governors with hand-made idle periods
 * (tests/switcher/cpuidle_test.cpp). docs/os.md has the algorithms and their sources.
 */
#ifndef BLS_CPUIDLE_H
#define BLS_CPUIDLE_H

#include <stdint.h>

#include "bls/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLS_MAX_IDLE_STATES 4

/* menu's constants (governors/menu.c, 3.10). */
#define BLS_MENU_BUCKETS 12            /* 6 next-timer distance classes x {no iowait, iowait} */
#define BLS_MENU_INTERVALS 8           /* the repeating-pattern detector's ring */
#define BLS_MENU_RESOLUTION 1024u      /* a single sample's ratio 1.0 */
#define BLS_MENU_DECAY 8u              /* each sample weighs 1/DECAY in the running average */
#define BLS_MENU_UNITY (BLS_MENU_RESOLUTION * BLS_MENU_DECAY) /* correction factor 1.0 */
#define BLS_MENU_MAX_INTERESTING 50000u /* us: an idle period this long counts as perfectly predicted */

/* ladder's constants (governors/ladder.c, 3.10). */
#define BLS_LADDER_PROMOTION_COUNT 4u
#define BLS_LADDER_DEMOTION_COUNT 1u

enum bls_idle_kind {
	BLS_IDLE_WFI = 1,        /* cpu_wait_for_interrupt */
	BLS_IDLE_POWER_DOWN = 2, /* MCPM power-down, the cluster too if last */
};

/* Which menu: mainline 3.10 as Android shipped it, or with the 3.13 changes (docs/os.md).
 * Distinct values, so that a stray integer is never a version. */
enum bls_menu_version {
	BLS_MENU_3_10 = 310,
	BLS_MENU_3_13 = 313,
};

struct bls_idle_state {
	enum bls_idle_kind kind;
	uint32_t exit_latency_us;
	uint32_t target_residency_us;
};

struct bls_cpuidle_governor;

struct bls_cpuidle_config {
	unsigned nstates[BLS_MAX_CLUSTERS];
	struct bls_idle_state state[BLS_MAX_CLUSTERS][BLS_MAX_IDLE_STATES];
	uint32_t latency_limit_us; /* PM QoS cpu_dma_latency; UINT32_MAX: none */
	const struct bls_cpuidle_governor *governor; /* NULL: menu */
	enum bls_menu_version menu_version;          /* 0: 3.10 */
};

/* Per physical CPU and state, what the governor's choices came to. above and below are the
 * counters Linux's cpuidle core keeps from 5.0 on (sysfs stateN/above, /below): entered, the
 * state turned out too deep (the idle period was shorter than its target residency, and a
 * shallower state existed), or too shallow (the period, less the state's exit latency, would
 * have fitted the next deeper state's target residency). */
struct bls_cpuidle_stats {
	uint64_t entries[BLS_MAX_IDLE_STATES];
	uint64_t residency_ns[BLS_MAX_IDLE_STATES];
	uint64_t above[BLS_MAX_IDLE_STATES];
	uint64_t below[BLS_MAX_IDLE_STATES];
};

/* menu's per-CPU data (struct menu_device). Times in us, as Linux's. */
struct bls_menu_device {
	int needs_update;     /* an idle period ended: learn from it at the next select */
	unsigned last_state_idx;
	uint32_t expected_us; /* the time to the next timer at select (3.13: next_timer_us) */
	uint64_t predicted_us;
	uint32_t exit_us;     /* 3.10: the exit latency of the state selected */
	unsigned bucket;
	uint64_t correction_factor[BLS_MENU_BUCKETS]; /* 0: not yet used (3.10 sets unity then) */
	uint32_t intervals[BLS_MENU_INTERVALS];       /* the last idle periods, oldest overwritten */
	unsigned interval_ptr;
};

/* ladder's per-CPU data (struct ladder_device): the state it stands on, and per state the
 * votes for a move (its thresholds are the state's exit latency: docs/os.md). */
struct bls_ladder_device {
	unsigned last_state_idx;
	unsigned promotion_count[BLS_MAX_IDLE_STATES];
	unsigned demotion_count[BLS_MAX_IDLE_STATES];
};

/* Per logical CPU (struct cpuidle_device): the last idle period and each governor's data. */
struct bls_cpuidle_device {
	int64_t last_residency_us; /* measured around the state, entry and exit included */
	uint32_t last_exit_latency_us; /* of the state it was measured in */
	struct bls_menu_device menu;
	struct bls_ladder_device ladder;
};

struct bls_cpuidle {
	struct bls_cpuidle_config cfg;
	/* private */
	int in_state[BLS_MAX_CPUS]; /* -1: not idle */
	unsigned in_logical[BLS_MAX_CPUS]; /* the logical CPU idling there */
	unsigned in_cluster[BLS_MAX_CPUS];
	uint64_t entered_ns[BLS_MAX_CPUS];
	struct bls_cpuidle_device dev[BLS_MAX_CPUS]; /* per logical CPU */
	/* public, read-only: per physical CPU */
	struct bls_cpuidle_stats stats[BLS_MAX_CPUS];
};

/* What a governor is told when it selects: the time to the CPU's next timer event
 * (tick_nohz_get_sleep_length; UINT64_MAX: none known) and the tasks in I/O wait that last
 * ran on it (nr_iowait_cpu). */
struct bls_cpuidle_hint {
	uint64_t next_timer_ns;
	unsigned nr_iowait;
};

/* A cpuidle governor. Both functions run on the CPU that idles, in its idle path, with
 * interrupts off: bookkeeping only, never a platform verb. */
struct bls_cpuidle_governor {
	const char *name;
	/* select - the state logical CPU @l enters now, on a CPU of @cluster (whose states are
	 * ci->cfg.state[@cluster]): an index below ci->cfg.nstates[@cluster]. Required. */
	unsigned (*select)(struct bls_cpuidle *ci, unsigned l, unsigned cluster, const struct bls_cpuidle_hint *h);
	/* reflect - @l woke from state @idx (maybe not the one selected: the kernel keeps a CPU
	 * in WFI while a switch or frequency change is in flight); ci->dev[@l].last_residency_us
	 * is measured. Required. */
	void (*reflect)(struct bls_cpuidle *ci, unsigned l, unsigned idx);
};

extern const struct bls_cpuidle_governor bls_cpuidle_menu;
extern const struct bls_cpuidle_governor bls_cpuidle_ladder;

/* bls_cpuidle_governor_find - the governor called @name ("menu", "ladder"), or NULL. */
const struct bls_cpuidle_governor *bls_cpuidle_governor_find(const char *name);

/* bls_cpuidle_init - check @cfg (every cluster of @nclusters with a first state WFI, states
 * ordered by target residency, a known menu version, a governor with both functions) and set
 * up every device as after a long idle: menu's ring of periods full of INT32_MAX us (Linux's
 * longest), its factors unset (3.13: unity), the ladder on the deepest state. Returns 0 or
 * -BLS_EINVAL. */
int bls_cpuidle_init(struct bls_cpuidle *ci, const struct bls_cpuidle_config *cfg, unsigned nclusters);

/* bls_cpuidle_select - the governor's state for logical CPU @l, idling on a CPU of @cluster,
 * with @next_timer_ns to its next timer event (UINT64_MAX: none) and @nr_iowait tasks of its
 * in I/O wait. */
unsigned bls_cpuidle_select(struct bls_cpuidle *ci, unsigned l, unsigned cluster, uint64_t next_timer_ns,
			    unsigned nr_iowait);

/* bls_cpuidle_enter / _exit - physical CPU @cpu (of @cluster), hosting logical CPU @l, enters
 * state @idx at @now_ns / leaves it: its residency is accounted, and the governor told. */
void bls_cpuidle_enter(struct bls_cpuidle *ci, unsigned cpu, unsigned cluster, unsigned l, unsigned idx,
		       uint64_t now_ns);
void bls_cpuidle_exit(struct bls_cpuidle *ci, unsigned cpu, uint64_t now_ns);

/* bls_menu_typical_interval - menu's repeating-pattern detector (get_typical_interval) over
 * @d's intervals, as @version has it: the average of the recent idle periods when they are
 * regular enough, written to d->predicted_us (3.13: only when below d->expected_us).
 * Returns 1 when it wrote it. For the governor, and for tests on a hand-made ring. */
int bls_menu_typical_interval(struct bls_menu_device *d, enum bls_menu_version version);

#ifdef __cplusplus
}
#endif

#endif /* BLS_CPUIDLE_H */
