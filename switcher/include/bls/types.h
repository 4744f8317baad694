/* switcher/include/bls/types.h -- limits, identifiers and error codes shared by the C stack.
 *
 * The switcher library is C11 and depends on libc only. Every function that can fail returns
 * 0 or a negative BLS_E* code, kernel style; the codes mirror the errno values the Linux code
 * it models returns, so traces and tests read the same.
 */
#ifndef BLS_TYPES_H
#define BLS_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compile-time maxima: contexts are plain structs sized by these, so nothing is allocated
 * after initialisation. The configuration loader rejects larger systems with a message that
 * names the limit as ours, not the architecture's. */
#define BLS_MAX_CLUSTERS 4
#define BLS_MAX_CPUS_PER_CLUSTER 8 /* a DynamIQ cluster's limit */
#define BLS_MAX_CPUS (BLS_MAX_CLUSTERS * BLS_MAX_CPUS_PER_CLUSTER)
/* Tasks: 71 times the largest public rt-app use case (camera, 57 threads). The scheduler's
 * cost per scheduling point grows with the tasks queued on or asleep on that CPU (plus a word
 * per 64 tasks of the run), not with this cap (docs/os.md, "Run-queue data structures"). */
#define BLS_MAX_TASKS 4096
#define BLS_MAX_OPPS 16 /* per cluster */

enum bls_error {
	BLS_OK = 0,
	BLS_EINTR = 4,   /* an interrupt became pending before the operation completed */
	BLS_EBUSY = 16,  /* a request is already pending */
	BLS_EINVAL = 22, /* invalid argument */
	BLS_ENOSYS = 38, /* a required platform operation is missing */
	BLS_ETIMEDOUT = 110, /* the hardware did not answer in time */
};

/* Guest errors: the hardware misbehaving as the C code sees it (BLS_TRACE_GUEST_ERROR's arg0).
 * The run goes on; the platform reports and counts them. */
enum bls_guest_error {
	BLS_GUEST_CCI_TIMEOUT = 1, /* a CCI port change still pending after the driver's last try; arg1: port */
	BLS_GUEST_WORKLOAD = 2,    /* a workload gave a task no usable step; arg1: the task (ended) */
	BLS_GUEST_CCI_RETRY = 3,   /* a CCI port change still pending after one try: the driver asks again; arg1: port */
	BLS_GUEST_POWER_UP_FAILED = 4, /* the power controller reported a core's power-up failed; arg1: the CPU */
};

/* A piece of ordinary work, in the units the energy/capacity model uses.
 *
 * ref_ns is how long the work takes on the reference CPU (the SoC's highest capacity, at its
 * highest OPP); mem_fraction of it is memory stall time, which does not shrink or stretch with
 * the core's frequency. See docs/architecture.md, "Work and capacity". */
struct bls_work {
	double ref_ns;
	double mem_fraction;
	unsigned ctx;            /* software context (task) the work belongs to */
	uint32_t working_set_kb; /* data it touches each time it runs; 0: none modelled */
	double write_fraction;   /* share of that data it leaves dirty, 0..1 */
};

/* Tracepoints (the platform's trace verb). The switch's phases are the arguments' story:
 * arg0 is the logical CPU, arg1 as noted. */
enum bls_trace_event {
	BLS_TRACE_SWITCH_REQUEST = 1, /* a switch was requested; arg1: target cluster */
	BLS_TRACE_INBOUND_KICKED,     /* outbound armed and powered the inbound; arg1: inbound */
	BLS_TRACE_INBOUND_ALIVE,      /* the outbound received "inbound alive"; arg1: inbound */
	BLS_TRACE_BLACKOUT_BEGIN,     /* outbound masked interrupts (cpu_migrate_begin) */
	BLS_TRACE_BLACKOUT_END,       /* inbound unmasked them (cpu_migrate_finish); arg1: outbound */
	BLS_TRACE_OUTBOUND_DOWN,      /* the outbound enters MCPM power-down; arg1: inbound */
	BLS_TRACE_SWITCH_DONE,        /* the request's completion ran; arg1: new cluster */
	BLS_TRACE_IRQ_HANDLED,        /* a device interrupt reached its logical CPU; arg1: irq */
	BLS_TRACE_CPUFREQ_BEGIN,      /* a frequency transaction started; arg1: target cluster */
	BLS_TRACE_SPC_REQUEST,        /* arg0: cluster, arg1: OPP index asked of the power controller */
	BLS_TRACE_SPC_DONE,           /* arg0: cluster, arg1: OPP index reached (~0: refused) */
	BLS_TRACE_SWITCH_STEP,        /* a blackout step ended; arg1: enum bls_switch_step */
	BLS_TRACE_GUEST_ERROR,        /* arg0: enum bls_guest_error, arg1: its detail */
	BLS_TRACE_SWITCH_GROUP,       /* cluster migration: the switch logical CPU arg0 starts now
				       * belongs to group arg1 (every CPU moving together) */
	/* The operating system's events (docs/os.md): time stamps only, no meter reads. */
	BLS_TRACE_SCHED_WAKEUP,       /* arg0: task, arg1: the logical CPU it was queued on */
	BLS_TRACE_SCHED_MIGRATE,      /* arg0: task, arg1: the logical CPU it moved to */
	BLS_TRACE_SCHED_SWITCH,       /* arg0: task that ran (~0: idle), arg1: task now (~0: idle) */
	BLS_TRACE_WAKEUP_LATENCY,     /* arg0: task, arg1: ns from meant-to-wake to running */
	BLS_TRACE_CPU_IDLE,           /* arg0: idle state entered, ~0 on leaving; arg1: logical CPU */
	BLS_TRACE_CPU_FREQUENCY,      /* arg0: a policy's logical CPU, arg1: its new frequency (MHz) */
	BLS_TRACE_GOV_LOAD,           /* arg0: a logical CPU, arg1: the load (%) its governor sampled */
	BLS_TRACE_MCPM_CPU_STATE,     /* arg0: a physical CPU, arg1: its new MCPM state (enum bls_mcpm_cpu_state) */
	BLS_TRACE_MODE,               /* arg0: the big.LITTLE mode now (enum bls_mode), arg1: the one before */
	BLS_TRACE_TASK_XMIGRATED,     /* arg0: task, now running on another cluster (HMP, EAS); arg1:
				       * ns from the decision to move it */
	BLS_TRACE_SWITCH_ABORTED,     /* the outbound gave the switch up (its inbound never came up):
				       * the logical CPU stays; arg1: the inbound */
	BLS_TRACE_LAST = BLS_TRACE_SWITCH_ABORTED
};

/* The blackout's steps, in order (BLS_TRACE_SWITCH_STEP marks the end of each). */
enum bls_switch_step {
	BLS_STEP_GIC_MIGRATED = 1, /* outbound: gic_migrate_target done */
	BLS_STEP_CPU_PM_SAVED,     /* outbound: tick suspended, cpu_pm_enter (GIC state saved) */
	BLS_STEP_CONTEXT_SAVED,    /* outbound: map swapped, cpu_suspend's context saved */
	BLS_STEP_L1_CLEANED,       /* outbound: flush_cache_louis done */
	BLS_STEP_GATE_PASSED,      /* inbound: out of its gate (handshake set, vector, SEV, wake) */
	/* the blackout then ends with the inbound's restore: BLS_TRACE_BLACKOUT_END */
};

/* Cache levels for cache maintenance. */
enum bls_cache_level {
	BLS_CACHE_L1 = 1, /* the calling CPU's data cache */
	BLS_CACHE_L2 = 2, /* its cluster's shared cache */
};

#ifdef __cplusplus
}
#endif

#endif /* BLS_TYPES_H */
