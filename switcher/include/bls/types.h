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
#define BLS_MAX_CPUS_PER_CLUSTER 4
#define BLS_MAX_CPUS (BLS_MAX_CLUSTERS * BLS_MAX_CPUS_PER_CLUSTER)
#define BLS_MAX_TASKS 64

enum bls_error {
	BLS_OK = 0,
	BLS_EINTR = 4,   /* an interrupt became pending before the operation completed */
	BLS_EBUSY = 16,  /* a request is already pending */
	BLS_EINVAL = 22, /* invalid argument */
	BLS_ENOSYS = 38, /* a required platform operation is missing */
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
