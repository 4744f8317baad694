/* switcher/include/bls/kernel.h -- the kernel that runs on every simulated CPU.
 *
 * Each simulated CPU runs bls_kernel_cpu_main() as its software. The boot CPU enables the
 * interrupt distributor, sets the clusters' boot frequencies, starts the governor on every
 * cpufreq policy and wakes every task; then it releases the others (SEV), and every CPU sets
 * up its own GIC CPU interface. Then, for ever, on each CPU hosting a logical CPU:
 *
 *   interrupts     acknowledge what is pending (its timer, a reschedule, the power
 *                  controller's answer, a doorbell, the switcher's SGIs);
 *   cpufreq        a caller asleep in the driver goes on; a governor's request starts;
 *   switcher       start a requested switch, or hand the logical CPU over;
 *   timers         wake the tasks whose sleep is over, run the governor's sample, balance;
 *   schedule       pick the most entitled task (bls/sched.h) and run its current step, asking
 *                  its workload (bls/task.h) for the next one when it is done;
 *   idle           nothing runnable: pull a task from a busier CPU, or have the cpuidle
 *                  governor choose an idle state (bls/cpuidle.h) and enter it.
 *
 * Before running or idling, the CPU's timer is programmed for its logical CPU's earliest
 * deadline (a sleeper's wake-up, the slice's end when tasks wait, the governor's sample when
 * busy, the next balance): no periodic tick, and a CPU with one task and no deadline sees no
 * timer interrupt. The timer's deadline moves with the logical CPU through a switch.
 *
 * Doorbells (one SPI per logical CPU, routed to its host) carry userspace's requests: a
 * scaling_setspeed write, new governor tunables, a boostpulse, the switcher on or off. The
 * power controller's completion interrupt goes to the first online logical CPU's host.
 *
 * The whole state is the struct bls_kernel the caller owns: several kernels can live in one
 * process (tests, sweeps), and nothing is allocated.
 */
#ifndef BLS_KERNEL_H
#define BLS_KERNEL_H

#include <stdbool.h>

#include "bls/cpufreq.h"
#include "bls/cpuidle.h"
#include "bls/governor.h"
#include "bls/hw.h"
#include "bls/mcpm.h"
#include "bls/platform_ops.h"
#include "bls/sched.h"
#include "bls/switcher.h"
#include "bls/task.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The doorbell of logical CPU @l: an SPI routed to the CPU hosting it, so that a switch
 * migrates it with the rest of the logical CPU. */
#define BLS_IRQ_DOORBELL(l) (48u + (l))

/* The kernel's own SGI: "reschedule", to wake a CPU with something new to do (a task queued
 * on it, a frequency request answered). */
#define BLS_SGI_RESCHEDULE 2u

/* The big.LITTLE mode: who decides what runs on which cluster (docs/modes.md). Distinct
 * values, so that a stray integer is never a mode. */
enum bls_mode {
	BLS_MODE_SMP = 0x91,        /* the switcher off, every CPU its own; CFS placement */
	BLS_MODE_IKS,               /* the In-Kernel Switcher: a cpufreq policy per logical CPU */
	BLS_MODE_CLUSTER_MIGRATION, /* the switcher's pairs under one policy: all move together */
	BLS_MODE_HMP,               /* the switcher off; big.LITTLE MP places tasks by load */
	BLS_MODE_EAS,               /* the switcher off; energy-aware wake-up placement */
};

/* bls_mode_switched - whether @m runs with the switcher on (IKS, cluster migration). */
int bls_mode_switched(enum bls_mode m);

struct bls_kernel_config {
	struct bls_hw hw; /* ops and plat are filled in by bls_kernel_init() */
	/* 0: IKS when switcher.enabled, else SMP. Otherwise switcher.enabled is ignored: the
	 * mode says whether the switcher is on. */
	enum bls_mode mode;
	struct bls_switcher_config switcher;
	/* The clusters' OPP tables and boot OPPs, for the big.LITTLE cpufreq driver. */
	struct bls_cpufreq_config cpufreq;
	/* Each cluster's frequency set at boot, before the governor starts (0: its boot OPP). */
	unsigned boot_mhz[BLS_MAX_CLUSTERS];
	/* The scheduler's tunables (its ncpus, placement and topology are set by
	 * bls_kernel_init(); its HMP tunables and energy model are the caller's). */
	struct bls_sched_config sched;
	/* Load tracking: scale running time by the frequency's share of the cluster's maximum,
	 * and by the cluster's capacity's share of the reference CPU's. */
	int freq_invariant, cpu_invariant;
	unsigned capacity_dmips_mhz[BLS_MAX_CLUSTERS];
	struct bls_cpuidle_config cpuidle;
	const struct bls_governor_ops *governor;
	struct bls_governor_tunables tunables;
	unsigned boot_cpu;
	/* Logical CPUs hotplugged out from boot (bit per CPU): their hosts power down and stay
	 * down, the scheduler and the cpufreq policies leave them out. Only with the switcher
	 * off, where a logical CPU is the physical CPU of the same number; the boot CPU stays. */
	uint32_t offline;
	/* 1: the power controller's interrupt targets the host of every logical CPU (1-of-N),
	 * not logical CPU 0's alone, so that the report of a power-up that failed never waits
	 * for the CPU that failed to come up (set when faults are injected: docs/switcher.md,
	 * "Faults"). */
	int spc_irq_any_cpu;
	unsigned ntasks;
	struct bls_sched_task_config tasks[BLS_MAX_TASKS];
	/* Nonzero: the task is not started at boot but by another's FORK step (once). */
	unsigned char forked[BLS_MAX_TASKS];
};

/* Per-task accounting beyond the scheduler's, readable by the caller at any time. */
struct bls_task_stats {
	double done_ref_ns;   /* work completed */
	uint64_t steps;       /* steps taken from its workload */
};

struct bls_kernel_stats {
	uint64_t freq_requests_refused; /* setspeed writes refused (not userspace, or switching off) */
	uint64_t timer_irqs;            /* per-CPU timer interrupts handled */
	uint64_t workload_errors;       /* tasks ended because their workload failed them */
};

struct bls_kernel {
	/* private: use the functions below */
	const struct bls_platform_ops *ops;
	void *plat;
	const struct bls_workload_ops *wl;
	void *wl_ctx;
	struct bls_kernel_config cfg;
	struct bls_mcpm mcpm;
	uint64_t picks;                      /* scheduling points, all CPUs (the whole "no task
					      * lost" check: bls_sched_full_check_every()) */
	unsigned mailbox_mhz[BLS_MAX_CPUS];  /* a frequency request per logical CPU */
	int txn_busy[BLS_MAX_CPUS];          /* its cpufreq transaction was in flight */
	int tunables_posted;
	struct bls_governor_tunables posted_tunables;
	int boostpulse_posted;
	uint32_t kick;                       /* logical CPUs to send a reschedule to */
	uint64_t timer_fired[BLS_MAX_CPUS];  /* the deadline each CPU's timer last fired for */
	int timer_refired[BLS_MAX_CPUS];     /* ... the same as the time before */
	int booted; /* set by the boot CPU once the distributor is up */
	enum bls_mode mode;    /* now (the one being entered while the switcher turns off) */
	int mode_mailbox;      /* a posted mode (enum bls_mode), or 0 */
	unsigned cm_group;     /* cluster migration: the last group of switches started */
	int cm_cluster;        /* ... and the cluster it moves to (-1: none yet) */
	int disabling;         /* turning off: waiting for every pair to be home */
	int onlining;          /* turned off: the other CPUs being brought online, which takes
				* device accesses (time); a mode request waits for the end, as
				* bL_switcher_disable holds bL_switcher_mutex throughout */
	uint32_t dying;        /* turning on: CPUs going offline that have yet to stop running */
	uint32_t stopped;      /* ... and those that have, waiting for the others */
	uint32_t unkilled;     /* turned on: CPUs gone offline that have yet to reach their
				* power-down (cpu_kill's wait); no mode change before they do */
	double ref_capacity;   /* capacity x max frequency of the fastest cluster */
	unsigned lead;         /* the first online logical CPU: the power controller's answers, sysfs */
	/* public, read-only */
	struct bls_switcher sw;
	struct bls_cpufreq cpufreq;
	struct bls_cpuidle cpuidle;
	struct bls_governor gov;
	struct bls_kernel_stats stats;
	/* Per task, sized for BLS_MAX_TASKS: bls_kernel_init zeroes what comes before them, and
	 * of them only the run's tasks' entries (a run's start-up should not pay for the cap). */
	struct bls_task_stats task_stats[BLS_MAX_TASKS]; /* public, read-only */
	struct bls_step step[BLS_MAX_TASKS];             /* private: each task's current step */
	double left_ref_ns[BLS_MAX_TASKS];               /* ... of a RUN step, the work left */
	int has_step[BLS_MAX_TASKS];
	/* Last: bls_sched_init initialises what it needs of it (its tables are sized for
	 * BLS_MAX_TASKS as well). */
	struct bls_sched sched;
};

/* The entry vector a CPU powering itself down leaves open: "resume in the kernel". */
#define BLS_KERNEL_RESUME_VECTOR 1u

/* bls_kernel_init - check @cfg and @ops and set up @k, whose tasks' behaviour comes from @wl
 * (with @wl_ctx). Returns 0, -BLS_EINVAL for a bad configuration, or -BLS_ENOSYS for a
 * missing platform operation. */
int bls_kernel_init(struct bls_kernel *k, const struct bls_kernel_config *cfg,
		    const struct bls_platform_ops *ops, void *plat,
		    const struct bls_workload_ops *wl, void *wl_ctx);

/* bls_kernel_cpu_main - the software of CPU @cpu. Runs on @cpu; never returns. */
void bls_kernel_cpu_main(struct bls_kernel *k, unsigned cpu);

/* bls_kernel_post_frequency - userspace writes @mhz to logical CPU @logical's
 * scaling_setspeed (virtual with the switcher on, a real OPP of its cluster without); taken
 * only under the userspace governor. Any context; the caller then raises
 * BLS_IRQ_DOORBELL(@logical). Returns 0 or -BLS_EINVAL. */
int bls_kernel_post_frequency(struct bls_kernel *k, unsigned logical, unsigned mhz);

/* bls_kernel_post_tunables - userspace writes the governor's tunables (@t replaces them all;
 * the caller checked them) and, with @boostpulse, interactive's boostpulse. Any context; the
 * caller then raises BLS_IRQ_DOORBELL(0). */
void bls_kernel_post_tunables(struct bls_kernel *k, const struct bls_governor_tunables *t, int boostpulse);

/* bls_kernel_post_switcher_active - a userspace request to turn the switcher on or off (the
 * real system's /sys/kernel/bL_switcher/active). Any context; the caller then raises
 * BLS_IRQ_DOORBELL(0). Off: every logical CPU is switched back to its boot cluster, then the
 * partners and unpaired CPUs come online as logical CPUs of their own. On: those go offline
 * again. Returns 0 or -BLS_EINVAL (no pairs). */
int bls_kernel_post_switcher_active(struct bls_kernel *k, int active);

/* bls_kernel_post_mode - a userspace request for big.LITTLE mode @mode, as Linaro's tree
 * allowed at run time: between a switched mode (IKS, cluster migration) and one without the
 * switcher (SMP, HMP, EAS) the switcher turns off or on as above; between IKS and cluster
 * migration the cpufreq policies are regrouped; among SMP, HMP and EAS the scheduler's
 * placement changes. Any context; the caller then raises BLS_IRQ_DOORBELL(0). Returns 0 or
 * -BLS_EINVAL (not a mode, or a switched mode without pairs). */
int bls_kernel_post_mode(struct bls_kernel *k, enum bls_mode mode);

/* bls_kernel_mode - the mode the kernel is in (the last one taken). */
enum bls_mode bls_kernel_mode(const struct bls_kernel *k);

#ifdef __cplusplus
}
#endif

#endif /* BLS_KERNEL_H */
