/* switcher/include/bls/mcpm.h -- multi-cluster power management: powering CPUs and clusters
 * up and down safely against each other.
 *
 * The protocol is Linux's MCPM (arch/arm/common/mcpm_entry.c, mcpm_head.S and
 * Documentation/arm/cluster-pm-race-avoidance.txt); docs/mcpm.md draws its state machines.
 *   - Use counts per CPU, under the MCPM lock, decide the *last man* of a cluster while every
 *     CPU is still coherent.
 *   - The *first man* of a cluster coming up is chosen with a vlock, since CPUs come out of
 *     reset with caches off.
 *   - CPU, cluster and inbound states live in strongly-ordered shared memory (the shm verbs)
 *     so that CPUs with caches off and on see the same values; every access is timed.
 *   - The outbound's critical section (cluster GOING_DOWN) aborts when an inbound CPU is
 *     coming up or another CPU of the cluster is not down.
 * What touches hardware is a backend ops table of verbs (struct bls_mcpm_backend); the core
 * here keeps the protocol, the states and their invariants. Every state change goes through
 * one function that asserts the transition is legal.
 */
#ifndef BLS_MCPM_H
#define BLS_MCPM_H

#include <assert.h>

#include "bls/hw.h"
#include "bls/vlock.h"

#ifdef __cplusplus
extern "C" {
#endif

/* States, with distinct values per family so that a stray value is recognisable. */
enum bls_mcpm_cpu_state {
	BLS_CPU_DOWN = 0x11,
	BLS_CPU_COMING_UP = 0x12,
	BLS_CPU_UP = 0x13,
	BLS_CPU_GOING_DOWN = 0x14,
};
enum bls_mcpm_cluster_state {
	BLS_CLUSTER_DOWN = 0x21,
	BLS_CLUSTER_UP = 0x22,
	BLS_CLUSTER_GOING_DOWN = 0x23,
};
enum bls_mcpm_inbound_state {
	BLS_INBOUND_NOT_COMING_UP = 0x31,
	BLS_INBOUND_COMING_UP = 0x32,
};

/* Shared-memory layout, offsets from hw->shm_base. Each field in its own word. */
#define BLS_MCPM_CPU_STATE(cl, i) (0x000u + 0x40u * (cl) + 4u * (i))
#define BLS_MCPM_CLUSTER_STATE(cl) (0x000u + 0x40u * (cl) + 0x20u)
#define BLS_MCPM_INBOUND_STATE(cl) (0x000u + 0x40u * (cl) + 0x24u)
#define BLS_MCPM_ENTRY_VECTOR(cl, i) (0x100u + 4u * (BLS_MAX_CPUS_PER_CLUSTER * (cl) + (i)))
#define BLS_MCPM_POKE_ADDR(cl, i) (0x200u + 8u * (BLS_MAX_CPUS_PER_CLUSTER * (cl) + (i)))
#define BLS_MCPM_POKE_VALUE(cl, i) (BLS_MCPM_POKE_ADDR(cl, i) + 4u)
#define BLS_MCPM_FIRST_MAN_LOCK(cl) (0x300u + 0x10u * (cl))
#define BLS_MCPM_SHM_BYTES 0x400u
/* Each block holds what the maxima need (bls/types.h, bls/vlock.h): */
static_assert(BLS_MCPM_CPU_STATE(0, BLS_MAX_CPUS_PER_CLUSTER) <= BLS_MCPM_CLUSTER_STATE(0) &&
		       BLS_MCPM_INBOUND_STATE(BLS_MAX_CLUSTERS - 1) < 0x100u &&
		       BLS_MCPM_ENTRY_VECTOR(BLS_MAX_CLUSTERS, 0) <= 0x200u &&
		       BLS_MCPM_POKE_ADDR(BLS_MAX_CLUSTERS, 0) <= 0x300u &&
		       BLS_MCPM_FIRST_MAN_LOCK(1) - BLS_MCPM_FIRST_MAN_LOCK(0) >= BLS_VLOCK_SIZE &&
		       BLS_MCPM_FIRST_MAN_LOCK(BLS_MAX_CLUSTERS) <= BLS_MCPM_SHM_BYTES,
	      "MCPM's shared-memory blocks overlap");

/* Where a CPU powered up by MCPM resumes, as the power controller's resume address
 * (mcpm_entry_point's physical address in Linux). In the model execution always resumes in
 * bls_mcpm_entry_point(); the value only tells software's writes apart from a cleared slot. */
#define BLS_MCPM_ENTRY_POINT 0x80008000u

struct bls_mcpm;

/* The platform backend: verbs on hardware, as Linux's mcpm_platform_ops after its split.
 * Every callback runs on @cpu, the CPU executing the protocol. */
struct bls_mcpm_backend {
	const char *name;
	/* Arm the power controller to bring @target up (on TC2 the caller's interrupt to
	 * @target then wakes it). MCPM lock held. Required. */
	void (*cpu_powerup)(struct bls_mcpm *m, unsigned cpu, unsigned target);
	/* Keep @cluster powered (it may be powering down). MCPM lock held. Required. */
	void (*cluster_powerup)(struct bls_mcpm *m, unsigned cpu, unsigned cluster);
	/* @cpu's power-down takes effect at its next WFI. MCPM lock held. Required. */
	void (*cpu_powerdown_prepare)(struct bls_mcpm *m, unsigned cpu);
	/* @cluster powers down once its last CPU is down. MCPM lock held. Required. */
	void (*cluster_powerdown_prepare)(struct bls_mcpm *m, unsigned cpu, unsigned cluster);
	/* Clean @cpu's L1; @cpu leaves coherency. Lock released. Required. */
	void (*cpu_cache_disable)(struct bls_mcpm *m, unsigned cpu);
	/* Clean L1 and L2; the cluster leaves coherency (CCI port off). Last man, lock
	 * released, inside the outbound critical section. Required. */
	void (*cluster_cache_disable)(struct bls_mcpm *m, unsigned cpu, unsigned cluster);
	/* Cluster-level setup of the first man (CCI port on), caches off. Required. */
	void (*cluster_power_up_setup)(struct bls_mcpm *m, unsigned cpu, unsigned cluster);
	/* Housekeeping once running again (clear wake-up requests, disable cluster
	 * power-down). MCPM lock held. Optional. */
	void (*cpu_is_up)(struct bls_mcpm *m, unsigned cpu);
	void (*cluster_is_up)(struct bls_mcpm *m, unsigned cpu, unsigned cluster);
	/* Undo cpu_powerup for @target, which never came up: no wake-up (the power controller
	 * stops trying), no resume address. MCPM lock held. Optional. */
	void (*cpu_powerup_cancel)(struct bls_mcpm *m, unsigned cpu, unsigned target);
};

/* The TC2 backend: the power controller through the platform verbs, the GIC and the CCI
 * through their drivers. */
extern const struct bls_mcpm_backend bls_mcpm_tc2;

/* Counters for tests and results. */
struct bls_mcpm_stats {
	uint64_t last_man;          /* outbound critical sections completed */
	uint64_t last_man_aborted;  /* ... aborted by a racing inbound or CPU */
	uint64_t first_man;         /* cluster set-ups by a vlock winner */
	uint64_t first_man_skipped; /* vlock winners that found the cluster up */
	uint64_t raced_power_up;    /* power-downs that a power-up overtook */
	uint64_t late_pokes;        /* early pokes fired from the gate, installed after entry */
	uint64_t power_up_errors;   /* power-up attempts the power controller reported failed */
	uint64_t power_ups_cancelled; /* power-ups withdrawn from a CPU that never came up */
};

struct bls_mcpm {
	/* private */
	const struct bls_hw *hw;
	const struct bls_mcpm_backend *be;
	int lock_taken;
	unsigned use_count[BLS_MAX_CLUSTERS][BLS_MAX_CPUS_PER_CLUSTER];
	/* The last value written of each state, to assert transitions without a timed read. */
	uint8_t cpu_state[BLS_MAX_CLUSTERS][BLS_MAX_CPUS_PER_CLUSTER];
	uint8_t cluster_state[BLS_MAX_CLUSTERS];
	uint8_t inbound_state[BLS_MAX_CLUSTERS];
	/* CPUs inside each cluster's first-man section: the vlock lets one in (checked). */
	unsigned first_men[BLS_MAX_CLUSTERS];
	/* Per CPU: counted up from 0 since it last read its early poke; one waiting at its
	 * gate, having poked for a power-up since withdrawn, pokes again (docs/mcpm.md, "the
	 * late poke"). */
	uint8_t poke_again[BLS_MAX_CLUSTERS][BLS_MAX_CPUS_PER_CLUSTER];
	/* public, read-only */
	struct bls_mcpm_stats stats;
};

/* bls_mcpm_init - check @be and set up @m for @hw (which must outlive it). Every CPU and
 * cluster is taken to be up with a use count of 1, as after a reset that starts them all.
 * Returns 0, -BLS_EINVAL or -BLS_ENOSYS (a required backend callback missing). */
int bls_mcpm_init(struct bls_mcpm *m, const struct bls_hw *hw, const struct bls_mcpm_backend *be);

/* bls_mcpm_sync_init - write the initial states into shared memory (all up, gates closed).
 * Runs on the boot CPU, once, before any other MCPM call. */
void bls_mcpm_sync_init(struct bls_mcpm *m, unsigned cpu);

/* bls_mcpm_cpu_index - @cpu's index within its cluster. */
unsigned bls_mcpm_cpu_index(const struct bls_hw *hw, unsigned cpu);

/* bls_mcpm_set_entry_vector - open (@vector != 0) or close @target's gate: a CPU coming up
 * waits in WFE until its vector is set, then resumes with that value. Runs on @cpu. */
void bls_mcpm_set_entry_vector(struct bls_mcpm *m, unsigned cpu, unsigned target, uint32_t vector);

/* bls_mcpm_set_early_poke - have @target, as its very first act on coming up, write
 * @value to the device register at @addr (0: nothing). Runs on @cpu. */
void bls_mcpm_set_early_poke(struct bls_mcpm *m, unsigned cpu, unsigned target, uint32_t addr,
			     uint32_t value);

/* bls_mcpm_cpu_power_up - count @target up and arm its (and if needed its cluster's)
 * power-up. Asynchronous: @target comes up later, through bls_mcpm_entry_point(). Set its
 * entry vector first. Runs on @cpu, with interrupts on: it masks them around MCPM's lock and
 * unmasks them after, as Linux's does. Returns 0. */
int bls_mcpm_cpu_power_up(struct bls_mcpm *m, unsigned cpu, unsigned target);

/* bls_mcpm_cpu_power_up_cancel - withdraw a power-up of @target that has not happened (the
 * caller gave up waiting, or the power controller reported it failed): its use count goes
 * back to 0 and its wake-up is disarmed. Returns 0, or -BLS_EBUSY when @target is no longer
 * down (it came up after all, or its use count says someone else wants it): nothing changes,
 * and the caller must treat the power-up as under way. Runs on @cpu, with interrupts on, as
 * bls_mcpm_cpu_power_up(). */
int bls_mcpm_cpu_power_up_cancel(struct bls_mcpm *m, unsigned cpu, unsigned target);

/* bls_mcpm_cpu_power_up_failed - the power controller reported that an attempt to power
 * @target up failed. It tries again by itself while @target's wake-up is armed: nothing to do
 * but count, unless the caller gives the power-up up (bls_mcpm_cpu_power_up_cancel()). Runs on
 * @cpu (an interrupt handler). */
void bls_mcpm_cpu_power_up_failed(struct bls_mcpm *m, unsigned cpu, unsigned target);

/* bls_mcpm_cpu_power_down - power the calling CPU down (interrupts must be masked): the
 * last man of the cluster also takes the cluster down, unless an inbound CPU races it. On
 * the hardware this never returns; in the model it returns when the CPU has been powered up
 * again and has passed its gate, with the entry vector's value, exactly as execution would
 * resume there. Runs on @cpu. */
uint32_t bls_mcpm_cpu_power_down(struct bls_mcpm *m, unsigned cpu);

/* bls_mcpm_entry_point - the inbound low-level path (mcpm_head.S): early poke, first-man
 * election and cluster setup, then the gate. Returns the entry vector. Runs on @cpu. */
uint32_t bls_mcpm_entry_point(struct bls_mcpm *m, unsigned cpu);

/* bls_mcpm_cpu_powered_up - called by a CPU that is running again, before it enables
 * interrupts: counts it up if nobody did. Runs on @cpu. */
void bls_mcpm_cpu_powered_up(struct bls_mcpm *m, unsigned cpu);

#ifdef __cplusplus
}
#endif

#endif /* BLS_MCPM_H */
