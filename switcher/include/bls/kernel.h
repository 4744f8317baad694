/* switcher/include/bls/kernel.h -- the minimal kernel that runs on every simulated CPU.
 *
 * Each simulated CPU runs bls_kernel_cpu_main() as its software. The boot CPU enables the
 * interrupt distributor and starts the governor, then releases the others (SEV); every CPU
 * sets up its own GIC CPU interface. Then, for ever: handle pending interrupts through the
 * GIC, let a caller sleeping in the cpufreq driver go on, pick a task with pending work and
 * execute it through the platform (which costs simulated time), and when nothing is runnable
 * wait for an interrupt, or power the CPU down if no task may ever run on it. The power
 * controller's completion interrupt goes to logical CPU 0's host (Linux's default affinity),
 * and moves with it through switches. Work arrives through bls_kernel_add_work(), called when a
 * task is released; the caller then raises the task CPU's timer interrupt. Tasks are pinned
 * to one CPU; the scheduler is round robin among the runnable tasks of a CPU, and a task
 * preempted by an interrupt goes to the back.
 *
 * Power-down goes through MCPM (bls/mcpm.h): the CPU opens its own gate with the resume
 * vector, MCPM takes it (and, as last man, its cluster) down; an interrupt for it wakes it
 * through the GIC's wake output, MCPM brings it (as first man, its cluster) back, and the
 * kernel carries on where it stopped.
 *
 * The whole state is the struct bls_kernel the caller owns: several kernels can live in one
 * process (tests, sweeps), and nothing is allocated.
 */
#ifndef BLS_KERNEL_H
#define BLS_KERNEL_H

#include <stdbool.h>

#include "bls/cpufreq.h"
#include "bls/governor.h"
#include "bls/hw.h"
#include "bls/mcpm.h"
#include "bls/platform_ops.h"
#include "bls/switcher.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device interrupts of a logical CPU: its timer (task releases) and its doorbell (requests
 * from userspace, such as a new frequency). SPIs, routed to the CPU hosting it, so that a
 * switch migrates them with the rest of the logical CPU. */
#define BLS_IRQ_TIMER(l) (32u + (l))
#define BLS_IRQ_DOORBELL(l) (48u + (l))

/* The kernel's own SGI: "reschedule", to wake a CPU whose sleeping caller can go on (the
 * power controller answered a frequency request another CPU handled). */
#define BLS_SGI_RESCHEDULE 2u

struct bls_task_config {
	unsigned cpu;            /* the logical CPU the task is pinned to */
	double mem_fraction;     /* share of its work that is memory stall, 0..1 */
	uint32_t working_set_kb; /* data it touches each time it runs */
	double write_fraction;   /* share of that data it dirties, 0..1 */
};

struct bls_kernel_config {
	struct bls_hw hw; /* ops and plat are filled in by bls_kernel_init() */
	struct bls_switcher_config switcher;
	/* The clusters' OPP tables and boot OPPs, for the big.LITTLE cpufreq driver. */
	struct bls_cpufreq_config cpufreq;
	unsigned boot_cpu;
	unsigned ntasks;
	struct bls_task_config tasks[BLS_MAX_TASKS];
};

/* Per-task accounting, readable by the caller at any time. */
struct bls_task_stats {
	double released_ref_ns; /* work handed to the task so far */
	double done_ref_ns;     /* work it has completed */
	uint64_t preemptions;   /* executions cut short by an interrupt */
};

struct bls_kernel {
	/* private: use the functions below */
	const struct bls_platform_ops *ops;
	void *plat;
	struct bls_governor *gov;
	struct bls_kernel_config cfg;
	double pending_ref_ns[BLS_MAX_TASKS];
	unsigned next_pick[BLS_MAX_CPUS]; /* round-robin cursor per CPU */
	unsigned ntasks_on[BLS_MAX_CPUS];
	struct bls_mcpm mcpm;
	unsigned mailbox_mhz[BLS_MAX_CPUS];  /* a posted frequency request per logical CPU */
	int booted; /* set by the boot CPU once the distributor is up */
	int activity_mailbox;  /* a posted switcher on (1) / off (0) request, or -1 */
	int disabling;         /* turning off: waiting for every pair to be home */
	/* public, read-only */
	struct bls_switcher sw;
	struct bls_cpufreq cpufreq;
	uint64_t freq_requests_refused;
	/* public, read-only */
	struct bls_task_stats stats[BLS_MAX_TASKS];
};

/* The entry vector a CPU powering itself down leaves open: "resume in the kernel". */
#define BLS_KERNEL_RESUME_VECTOR 1u

/* bls_kernel_init - check @cfg and @ops and set up @k. @gov may be NULL (no governor).
 * Returns 0, -BLS_EINVAL for a bad configuration, or -BLS_ENOSYS for a missing platform
 * operation. */
int bls_kernel_init(struct bls_kernel *k, const struct bls_kernel_config *cfg,
		    const struct bls_platform_ops *ops, void *plat, struct bls_governor *gov);

/* bls_kernel_cpu_main - the software of CPU @cpu. Runs on @cpu; never returns. */
void bls_kernel_cpu_main(struct bls_kernel *k, unsigned cpu);

/* bls_kernel_post_frequency - a userspace frequency request for logical CPU @logical (a
 * virtual frequency with the switcher on, a real one of its cluster without). Any context;
 * the caller then raises BLS_IRQ_DOORBELL(@logical), whose handler takes the request on the
 * CPU hosting it. Returns 0 or -BLS_EINVAL. */
int bls_kernel_post_frequency(struct bls_kernel *k, unsigned logical, unsigned mhz);

/* bls_kernel_post_switcher_active - a userspace request to turn the switcher on or off (the
 * real system's /sys/kernel/bL_switcher/active). Any context; the caller then raises
 * BLS_IRQ_DOORBELL(0). Off: every logical CPU is switched back to its boot cluster, then the
 * partners and unpaired CPUs come online as logical CPUs of their own. On: those go offline
 * again. Returns 0 or -BLS_EINVAL (no pairs). */
int bls_kernel_post_switcher_active(struct bls_kernel *k, int active);

/* bls_kernel_add_work - release @ref_ns of work to @task. Any context; the caller raises the
 * interrupt that tells the task's CPU. Returns 0 or -BLS_EINVAL. */
int bls_kernel_add_work(struct bls_kernel *k, unsigned task, double ref_ns);

#ifdef __cplusplus
}
#endif

#endif /* BLS_KERNEL_H */
