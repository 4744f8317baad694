/* switcher/include/bls/cpufreq.h -- the big.LITTLE cpufreq driver: *which cluster* a frequency
 * means, and setting cluster clocks through the power controller, as Linux's
 * drivers/cpufreq/arm_big_little.c does.
 *
 * The merged table. Each logical CPU sees one table of virtual frequencies: the little
 * cluster's OPPs at half their real value (an A7 does about half an A15's work per MHz), then
 * the big cluster's, skipping a big frequency already present (the later
 * vexpress-spc-cpufreq.c's "skip duplicates"; the IKS-era arm_big_little.c kept both 500s,
 * which decides nothing differently). A request above the little cluster's top virtual
 * frequency means the big cluster, one below the big cluster's lowest means the little one,
 * and a request exactly at the boundary keeps the current cluster: the only hysteresis.
 *
 * Setting a frequency (bL_cpufreq_set_rate). The caller's logical CPU is placed on the
 * target cluster, whose clock becomes the highest request of the logical CPUs placed on it;
 * that clock is set through the power controller, which takes milliseconds, and the caller
 * *sleeps* until the controller's completion interrupt (its CPU runs other work meanwhile).
 * Only then is the switch requested; then the old cluster's clock is recomputed from the CPUs
 * left on it and set the same way. One power controller serves every cluster, one request at
 * a time: requests wait their turn in a queue (Linux's semaphore around
 * ve_spc_set_performance). A clock already at the rate asked costs nothing (clk_set_rate's
 * early return). With the switcher off a policy is a cluster and a request is a real OPP.
 *
 * A request is a transaction of the logical CPU that made it, in phases (docs/switcher.md):
 *   IDLE -> SET_TARGET -> (switch requested) -> SET_OLD -> IDLE
 * bls_cpufreq_complete() is the completion interrupt's handler; bls_cpufreq_service() is the
 * sleeping caller woken up, which the kernel runs on the logical CPU's host at its next
 * scheduling point.
 */
#ifndef BLS_CPUFREQ_H
#define BLS_CPUFREQ_H

#include "bls/hw.h"
#include "bls/switcher.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bls_vopp {
	unsigned virt_mhz;   /* what the logical CPU's policy sees */
	unsigned cluster;    /* which cluster serves it */
	unsigned actual_mhz; /* that cluster's real frequency */
};

struct bls_vtable {
	unsigned n;
	struct bls_vopp opp[2 * BLS_MAX_OPPS];
	unsigned big, little;   /* cluster indices */
	unsigned big_min_mhz;   /* lowest big OPP (virtual = actual) */
	unsigned little_max_mhz; /* highest little OPP, virtual */
};

/* bls_cpufreq_build - merge the two clusters' ascending OPP lists (MHz) into @t. Returns 0, or
 * -BLS_EINVAL if a list is empty, too long or not ascending. */
int bls_cpufreq_build(struct bls_vtable *t, unsigned big, const unsigned *big_mhz, unsigned nbig,
		      unsigned little, const unsigned *little_mhz, unsigned nlittle);

/* bls_cpufreq_lookup - the table entry for @virt_mhz, or NULL when it is not one. */
const struct bls_vopp *bls_cpufreq_lookup(const struct bls_vtable *t, unsigned virt_mhz);

/* bls_cpufreq_cluster_for - the cluster a logical CPU now on @current should run on to serve
 * @virt_mhz (the boundary hysteresis applied). */
unsigned bls_cpufreq_cluster_for(const struct bls_vtable *t, unsigned current, unsigned virt_mhz);

/* bls_cpufreq_actual_mhz - @virt_mhz as a real frequency of @cluster. */
unsigned bls_cpufreq_actual_mhz(const struct bls_vtable *t, unsigned cluster, unsigned virt_mhz);

/* --- the driver ------------------------------------------------------------------------- */

/* A logical CPU's frequency transaction. Distinct values, as MCPM's states. */
enum bls_cpufreq_phase {
	BLS_CPUFREQ_IDLE = 0x61,       /* nothing in flight */
	BLS_CPUFREQ_SET_TARGET = 0x62, /* waiting for the target cluster's clock */
	BLS_CPUFREQ_SET_OLD = 0x63,    /* switch requested; waiting for the old cluster's clock */
};

struct bls_cpufreq_config {
	/* The clusters' OPP tables (MHz, ascending). */
	unsigned nopps[BLS_MAX_CLUSTERS];
	unsigned opp_mhz[BLS_MAX_CLUSTERS][BLS_MAX_OPPS];
	unsigned boot_level[BLS_MAX_CLUSTERS]; /* the OPP each cluster's clock starts at */
	unsigned big_cluster, little_cluster;
};

struct bls_cpufreq_stats {
	uint64_t transactions;    /* requests taken */
	uint64_t spc_requests;    /* performance requests sent to the power controller */
	uint64_t spc_errors;      /* ... answered with an error */
	uint64_t clock_unchanged; /* clock sets that found the rate already there */
	uint64_t queued;          /* requests that waited for another to finish */
	uint64_t switch_requests; /* switches requested after a target clock was set */
	uint64_t failed;          /* transactions whose target clock failed (no switch asked) */
	uint64_t switches_failed; /* switches asked that were given up (the CPU stayed) */
};

/* A power-controller request waiting its turn: cluster @cluster's clock for logical CPU
 * @waiter (-1: nobody waits), at @mhz, or (0) at the highest request of its resident CPUs,
 * computed when the request starts. */
struct bls_cpufreq_op {
	unsigned cluster;
	int waiter;
	unsigned mhz;
};

struct bls_cpufreq {
	/* private */
	const struct bls_hw *hw;
	struct bls_switcher *sw;
	struct bls_cpufreq_config cfg;
	struct bls_vtable vtable;
	int have_vtable;
	int switching;                          /* the switcher's frequencies (virtual) apply */
	unsigned level[BLS_MAX_CLUSTERS];       /* each cluster's OPP as last set (clk's cached rate) */
	unsigned resident[BLS_MAX_CPUS];        /* the cluster each logical CPU is placed on */
	unsigned request_mhz[BLS_MAX_CPUS];     /* its last request (virtual with the switcher) */
	struct {
		enum bls_cpufreq_phase phase;
		unsigned old_cluster, new_cluster;
		int step_done; /* the power controller answered the current phase's request */
		int failed;    /* the target clock could not be set */
		unsigned prev_mhz; /* the request before this transaction's */
	} txn[BLS_MAX_CPUS];
	int failed[BLS_MAX_CPUS]; /* the last transaction ended without its frequency */
	struct bls_cpufreq_op queue[2 * BLS_MAX_CPUS];
	unsigned qhead, qlen;
	int busy;                      /* a request is in flight at the power controller */
	struct bls_cpufreq_op inflight;
	unsigned inflight_level;
	/* public, read-only */
	struct bls_cpufreq_stats stats;
};

/* bls_cpufreq_init - set @cf up for @hw and @sw (which must outlive it). The merged table is
 * built when the switcher has pairs. Returns 0 or -BLS_EINVAL (bad tables). */
int bls_cpufreq_init(struct bls_cpufreq *cf, const struct bls_hw *hw, struct bls_switcher *sw,
		     const struct bls_cpufreq_config *cfg);

/* bls_cpufreq_set_switching - the switcher went on (@on: frequencies are virtual, a policy
 * per logical CPU) or off (a policy per cluster). No switch is requested while it is off. */
void bls_cpufreq_set_switching(struct bls_cpufreq *cf, int on);

/* bls_cpufreq_target - logical CPU @logical asks for @mhz (virtual with the switcher on, a
 * real OPP of its cluster without). Starts its transaction. Runs on @cpu, the logical CPU's
 * host. Returns 0, -BLS_EBUSY (a transaction of @logical is in flight: retry when idle) or
 * -BLS_EINVAL (not a frequency of the table). */
int bls_cpufreq_target(struct bls_cpufreq *cf, unsigned cpu, unsigned logical, unsigned mhz);

/* bls_cpufreq_set_cluster - set @cluster's clock to @mhz with nobody waiting (boot-time
 * settings). Runs on @cpu. Returns 0 or -BLS_EINVAL (not an OPP). */
int bls_cpufreq_set_cluster(struct bls_cpufreq *cf, unsigned cpu, unsigned cluster, unsigned mhz);

/* bls_cpufreq_complete - the power controller's completion interrupt, handled on @cpu, with
 * the PWC_STATUS the handler read (bls_spc_read_status): wakes the waiting transaction and
 * starts the next queued request. A target clock that failed ends its transaction there, as
 * Linux's bL_cpufreq_set_rate does after clk_set_rate fails: no switch, the old request and
 * cluster back.
 * Returns the logical CPUs (a bit each) whose transactions can go on: their hosts must run
 * bls_cpufreq_service(). */
uint32_t bls_cpufreq_complete(struct bls_cpufreq *cf, unsigned cpu, uint32_t status);

/* bls_cpufreq_switch_failed - the switch @logical's transaction asked for was given up: it
 * stays on @cluster (the switcher's BLS_TRACE_SWITCH_ABORTED). Any context. */
void bls_cpufreq_switch_failed(struct bls_cpufreq *cf, unsigned logical, unsigned cluster);

/* bls_cpufreq_take_failed - whether @logical's last transaction ended without its frequency
 * (the clock failed, or its switch was given up), once: the caller tells the governor. */
int bls_cpufreq_take_failed(struct bls_cpufreq *cf, unsigned logical);

/* bls_cpufreq_service - @logical's transaction goes on after its request was answered:
 * the switch request and the old cluster's clock, or the end. Runs on @cpu, its host. */
void bls_cpufreq_service(struct bls_cpufreq *cf, unsigned cpu, unsigned logical);

/* bls_cpufreq_phase - where @logical's transaction stands. */
enum bls_cpufreq_phase bls_cpufreq_phase(const struct bls_cpufreq *cf, unsigned logical);

/* bls_cpufreq_cluster_mhz - @cluster's clock as last set. */
unsigned bls_cpufreq_cluster_mhz(const struct bls_cpufreq *cf, unsigned cluster);

#ifdef __cplusplus
}
#endif

#endif /* BLS_CPUFREQ_H */
