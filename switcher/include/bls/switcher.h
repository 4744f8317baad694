/* switcher/include/bls/switcher.h -- the In-Kernel Switcher: *how* one logical CPU moves
 * between its two physical CPUs, one in each cluster.
 *
 * Pairing: each CPU of the boot cluster is paired with one CPU of the other; unpaired CPUs
 * and the partners go offline, so TC2 has two logical CPUs. A switch is asynchronous: a
 * request is recorded (-EBUSY while one with a completion callback is pending) and the CPU
 * hosting the logical CPU carries it out at its next scheduling point, as Linux's kswitcher
 * thread does:
 *   outbound: close both gates, arm the early poke, MCPM power-up of the inbound, kick it,
 *             and keep running tasks until "inbound alive" arrives;
 *   blackout: interrupts masked, GIC migration, tick suspended, context saved (L1 clean),
 *             logical map swapped, the inbound's gate opened; wait for the handshake;
 *             MCPM power-down (the last man takes its cluster down);
 *   inbound:  context restored, MCPM powered-up, tick resumed, interrupts unmasked (the
 *             blackout ends), handshake, completion.
 * docs/switcher.md gives the sequence with the Linux functions it follows and the cost model.
 */
#ifndef BLS_SWITCHER_H
#define BLS_SWITCHER_H

#include "bls/hw.h"
#include "bls/mcpm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SGIs the switcher uses. */
#define BLS_SGI_KICK 0u          /* wake an inbound that may sit in WFI */
#define BLS_SGI_INBOUND_ALIVE 1u /* the inbound's early poke, to the outbound */

/* Entry vectors. */
#define BLS_VECTOR_SWITCH 2u /* "you are the inbound of a switch" */
#define BLS_VECTOR_ONLINE 3u /* "come online as your own logical CPU" (switcher turned off) */

/* Shared memory after MCPM's area: the handshake word of each logical CPU. */
#define BLS_SW_HANDSHAKE(l) (BLS_MCPM_SHM_BYTES + 4u * (l))

enum bls_pairing {
	BLS_PAIRING_LINUX = 1, /* each boot-cluster CPU with the *last* free CPU of the other */
	BLS_PAIRING_IN_ORDER,  /* ... with the *first* free one */
};

/* Cycles of the steps whose detail is not modelled (at the running CPU's clock). What the
 * model does detail is timed by it: register accesses (GIC migration and state save/restore,
 * the power controller), the L1 clean, SRAM accesses, uncached reads. */
struct bls_switch_costs {
	uint32_t tick_suspend;
	uint32_t cpu_pm_enter;    /* notifiers, VFP save (the GIC save is register reads) */
	uint32_t context_save;    /* cpu_suspend: registers, MMU state (the L1 clean is timed apart) */
	uint32_t stack_switch;    /* move to the private stack, open the gate */
	uint32_t context_restore; /* cpu_resume: MMU and caches on, registers back */
	uint32_t cpu_pm_exit;     /* notifiers, VFP restore (the GIC restore is register writes) */
	uint32_t tick_resume;
};

struct bls_switcher_config {
	int enabled;
	enum bls_pairing pairing;
	unsigned boot_cluster;
	struct bls_switch_costs costs;
	unsigned restore_uncached_words; /* cpu_resume's reads with caches and MMU off */
	/* How long the outbound waits for "inbound alive" before it kicks the inbound again;
	 * after BLS_SWITCH_KICKS kicks it gives the switch up. 0: wait for ever, as Linux's
	 * wait_for_completion does (docs/switcher.md, "Faults"). */
	uint64_t inbound_timeout_ns;
};

/* Kicks of an inbound that does not come up, the first included, before the switch is
 * given up (with inbound_timeout_ns). */
#define BLS_SWITCH_KICKS 3u

/* Where a logical CPU's switch stands (docs/switcher.md draws it). Distinct values, as
 * MCPM's, so a stray one is recognisable. */
enum bls_switch_phase {
	BLS_SWITCH_IDLE = 0x51,     /* no switch in flight */
	BLS_SWITCH_ARMED = 0x52,    /* the inbound is powering up; the outbound runs tasks */
	BLS_SWITCH_ALIVE = 0x53,    /* "inbound alive" received: the blackout can start */
	BLS_SWITCH_BLACKOUT = 0x54, /* the outbound is in the critical zone */
};

typedef void (*bls_switch_done_fn)(void *cookie, unsigned logical, unsigned cluster);

struct bls_switch_stats {
	uint64_t requests, switches, busy_refusals;
	uint64_t aborted;      /* switches given up: their inbound never came up */
	uint64_t aborted_on_report; /* ... of which on the power controller's report */
	uint64_t kick_retries; /* inbounds kicked again after inbound_timeout_ns */
	uint64_t enables, disables; /* run-time changes of the switcher's activity */
};

struct bls_switcher {
	/* private */
	const struct bls_hw *hw;
	struct bls_mcpm *mcpm;
	struct bls_switcher_config cfg;
	unsigned npairs;
	unsigned nlogical;
	unsigned pair[BLS_MAX_CPUS][BLS_MAX_CLUSTERS]; /* [logical][cluster]: its CPU there */
	unsigned host[BLS_MAX_CPUS];                   /* logical -> physical now */
	int hosted[BLS_MAX_CPUS];                      /* physical -> logical, or -1 */
	struct bls_gic_cpu_map gic_map;                /* where each logical CPU's IPIs go */
	struct bls_gic_cpu_state gic_saved[BLS_MAX_CPUS]; /* per logical CPU, by cpu_pm_enter */
	uint64_t tick_saved[BLS_MAX_CPUS];             /* per logical CPU: its timer's deadline */
	struct {
		int wanted;     /* cluster requested, -1: none */
		bls_switch_done_fn done;
		void *cookie;
		enum bls_switch_phase phase;
		unsigned ib;    /* the inbound CPU */
		int give_up;    /* the inbound's power-up failed: abort at the next service */
		int aborted;    /* the last switch was given up (bls_switcher_take_aborted) */
		unsigned kicks; /* kicks sent to the inbound */
		uint64_t deadline_ns; /* when to kick again or give up (ARMED, with a timeout) */
	} req[BLS_MAX_CPUS];
	/* public, read-only */
	struct bls_switch_stats stats;
};

/* bls_switcher_init - pair the CPUs of @hw (with @cfg->enabled) or map each logical CPU to
 * its own physical CPU (disabled). Returns 0, or -BLS_EINVAL (switching needs exactly two
 * clusters with a CPU each). */
int bls_switcher_init(struct bls_switcher *sw, const struct bls_hw *hw, struct bls_mcpm *mcpm,
		      const struct bls_switcher_config *cfg);

/* bls_switcher_set_active - the logical map with the switcher on (each pair one logical CPU,
 * numbered as its boot-cluster CPU, hosted there: every pair must be home) or off (every CPU
 * its own logical CPU). Only the map changes: bringing CPUs on- and offline is the kernel's
 * part. Returns 0, or -BLS_EINVAL (no pairs, or a pair not home). */
int bls_switcher_set_active(struct bls_switcher *sw, int active);
int bls_switcher_active(const struct bls_switcher *sw);
/* The cluster the CPUs of the pairs boot in, where turning the switcher off brings them. */
unsigned bls_switcher_home_cluster(const struct bls_switcher *sw);
/* The pairs, whether or not the switcher is on (0: it can never be). */
unsigned bls_switcher_npairs(const struct bls_switcher *sw);

/* Turning the switcher on and off at run time (Linux's bL_switcher_enable and
 * bL_switcher_disable). The kernel leads each over several scheduling points: taking CPUs out
 * of scheduling and bringing them back (cpu_down, cpu_up), and the cpufreq driver's switching,
 * are its part; the map, the switches home and the offline CPUs' gates are the switcher's.
 *
 * On:  the CPUs of bls_switcher_outgoing() leave the scheduler; once they all have,
 *      bls_switcher_enable() pairs the map, and they go offline.
 * Off: bls_switcher_bring_home() requests every logical CPU's switch to the home cluster;
 *      bls_switcher_disable(), at each scheduling point, gives every CPU its own logical CPU
 *      once all are home; bls_switcher_bring_online() then lets each new one in. */

/* bls_switcher_outgoing - the CPUs that turning the switcher on takes offline: the partners
 * and the unpaired CPUs (bL_switcher_halve_cpus), a bit each. */
uint32_t bls_switcher_outgoing(const struct bls_switcher *sw);
/* bls_switcher_enable - pair the map (bls_switcher_set_active), counted. Returns 0 or
 * -BLS_EINVAL. */
int bls_switcher_enable(struct bls_switcher *sw);
/* bls_switcher_bring_home - request the switch of every logical CPU away from the home
 * cluster, or in flight, back there (kicking its host), and drop any pending move away of
 * the others. Runs on @cpu. */
void bls_switcher_bring_home(struct bls_switcher *sw, unsigned cpu);
/* bls_switcher_disable - once every logical CPU is home with no switch requested or in
 * flight, give every CPU its own logical CPU (bls_switcher_set_active), counted. Returns 0,
 * or -BLS_EBUSY (not home yet: call again at a later scheduling point). */
int bls_switcher_disable(struct bls_switcher *sw);
/* bls_switcher_bring_online - after bls_switcher_disable, open offline CPU @target's gate
 * with BLS_VECTOR_ONLINE, power it up (MCPM) and kick it: it leaves bls_switcher_offline()
 * as a logical CPU of its own. Runs on @cpu. */
void bls_switcher_bring_online(struct bls_switcher *sw, unsigned cpu, unsigned target);

unsigned bls_switcher_nlogical(const struct bls_switcher *sw);
/* bls_switcher_send_ipi - raise SGI @sgi on the CPU hosting @logical, through the GIC's map
 * under its lock (Linux's smp_send_reschedule -> gic_raise_softirq), so that an IPI racing
 * a switch's GIC migration is never lost on the outbound. Runs on @cpu. */
void bls_switcher_send_ipi(struct bls_switcher *sw, unsigned cpu, unsigned logical, unsigned sgi);
/* The logical CPU @cpu hosts, or -1 (offline). */
int bls_switcher_logical_of(const struct bls_switcher *sw, unsigned cpu);
unsigned bls_switcher_host_of(const struct bls_switcher *sw, unsigned logical);
unsigned bls_switcher_cluster_of(const struct bls_switcher *sw, unsigned logical);

/* bls_switch_request - ask for @logical to move to @cluster; @done(@cookie, @logical, cluster)
 * runs on the inbound once it has, or on the outbound with the cluster it stays on when the
 * switch was given up (its inbound never came up). Runs on any CPU (the caller wakes the host). Returns 0, -BLS_EINVAL,
 * or -BLS_EBUSY when a request with a completion callback is pending; without a callback a
 * pending request is overwritten (the last writer wins), as in Linux. */
int bls_switch_request(struct bls_switcher *sw, unsigned cpu, unsigned logical, unsigned cluster,
		       bls_switch_done_fn done, void *cookie);

/* bls_switcher_alive - the interrupt handler's part: "inbound alive" arrived on @cpu. */
enum bls_switch_phase bls_switcher_phase(const struct bls_switcher *sw, unsigned logical);
void bls_switcher_alive(struct bls_switcher *sw, unsigned cpu);

/* bls_switcher_service - the kswitcher's part, called by the host of a logical CPU at its
 * scheduling points. Starts a requested switch (returns 0, the CPU goes on running tasks) or,
 * once the inbound is alive, carries out the blackout and powers the CPU down: it then
 * returns only when this CPU has become the inbound of a later switch and passed its gate,
 * with BLS_VECTOR_SWITCH (the caller then runs bls_switcher_inbound()). Runs on @cpu. */
uint32_t bls_switcher_service(struct bls_switcher *sw, unsigned cpu);

/* bls_switcher_deadline - when the host of @logical must next service its switch (kick the
 * inbound again or give up), or BLS_TIMER_OFF. */
uint64_t bls_switcher_deadline(const struct bls_switcher *sw, unsigned logical);

/* bls_switcher_take_aborted - whether @logical's last switch was given up, once (the caller
 * puts its frequency bookkeeping right). */
int bls_switcher_take_aborted(struct bls_switcher *sw, unsigned logical);

/* bls_switcher_inbound_failed - the interrupt handler's part: the power controller reported
 * that @target's power-up failed. When @target is the inbound of a switch still waiting for
 * it, the switch is marked to be given up and its host kicked (returns 1): the caller must
 * not retry the power-up. Otherwise returns 0. Runs on @cpu. */
int bls_switcher_inbound_failed(struct bls_switcher *sw, unsigned cpu, unsigned target);

/* bls_switcher_pending - a switch of the logical CPU @cpu hosts is requested or in flight. */
int bls_switcher_pending(const struct bls_switcher *sw, unsigned cpu);

/* bls_switcher_offline - an offline CPU waits, powered down with its gate closed, to be
 * the inbound of a switch (returns BLS_VECTOR_SWITCH) or brought online as a logical CPU of
 * its own (BLS_VECTOR_ONLINE). Runs on @cpu. */
uint32_t bls_switcher_offline(struct bls_switcher *sw, unsigned cpu);

/* bls_switcher_inbound - the inbound's half, once its gate opened: restore, powered-up,
 * unmask interrupts (the blackout ends), handshake, completion. Returns the logical CPU it
 * now hosts. Runs on @cpu. */
unsigned bls_switcher_inbound(struct bls_switcher *sw, unsigned cpu);

#ifdef __cplusplus
}
#endif

#endif /* BLS_SWITCHER_H */
