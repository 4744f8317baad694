/* switcher/include/bls/platform_ops.h -- the hardware verbs the C stack may use.
 *
 * This table is the only way code in switcher/ touches hardware. It holds verbs, not
 * protocols: use counts, state machines and policies live in the C code above it. The SystemC
 * platform (soc/) implements each verb with timing; unit tests implement them with a fake.
 *
 * Calling contexts. "Runs on @cpu" means the call is made by the software running on that
 * simulated CPU (from its SystemC thread): the callee may consume that CPU's simulated time and
 * may block it, while the other CPUs go on running their own code concurrently. "Any context"
 * means the callee must return without consuming simulated time.
 *
 * Every callback receives the opaque @plat pointer given at registration: there is no global
 * state on either side of this interface.
 */
#ifndef BLS_PLATFORM_OPS_H
#define BLS_PLATFORM_OPS_H

#include "bls/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A disarmed timer. */
#define BLS_TIMER_OFF UINT64_MAX

struct bls_platform_ops {
	/* now_ns - current simulated time in nanoseconds, as @cpu's counter reads it (a CPU
	 * may run ahead of the other CPUs between synchronisations; its own clock runs with it).
	 * Runs on @cpu. Required. */
	uint64_t (*now_ns)(void *plat, unsigned cpu);

	/* cpu_execute - run ordinary work on @cpu until it is done or an interrupt is pending.
	 * Runs on @cpu, which is powered and running. Consumes simulated time at the rate the
	 * CPU's capacity and its cluster's current clock give; a frequency change during the work
	 * takes effect immediately. Returns 0 when all of @work is done, -BLS_EINTR when an
	 * interrupt became pending first (also when one was pending on entry). Either way
	 * *@done_ref_ns is set to the part of @work completed. Required. */
	int (*cpu_execute)(void *plat, unsigned cpu, const struct bls_work *work,
			   double *done_ref_ns);

	/* cpu_wait_for_interrupt - WFI: clock-gate @cpu until an interrupt is pending.
	 * Runs on @cpu. Returns at once if an interrupt is already pending. Entry and exit
	 * latencies are the power controller's. Required. */
	void (*cpu_wait_for_interrupt)(void *plat, unsigned cpu);

	/* cpu_wait_for_event - WFE: returns at once (clearing it) if @cpu's event register is
	 * set, else sleeps until an event (any CPU's cpu_send_event) or an interrupt.
	 * Runs on @cpu. Required. */
	void (*cpu_wait_for_event)(void *plat, unsigned cpu);

	/* cpu_dsb - data synchronisation barrier: every access @cpu issued before it has
	 * completed, in simulated time, when it returns. The platform may let a CPU run ahead
	 * of the others by the latency of its register accesses (temporal decoupling); a store
	 * other CPUs will read (a flag, a count) must follow a barrier to be seen at the right
	 * time, exactly as on the hardware. Runs on @cpu. Required. */
	void (*cpu_dsb)(void *plat, unsigned cpu);

	/* cpu_send_event - SEV: set the event register of every CPU and wake those in WFE.
	 * Runs on @cpu. Required. */
	void (*cpu_send_event)(void *plat, unsigned cpu);

	/* cpu_power_down - WFI with the power controller armed to power @cpu off. Runs on @cpu,
	 * which must have turned its GIC CPU interface off and cleaned its L1 (and, if it is the
	 * last CPU of its cluster, cleaned L2 and taken the cluster out of coherency). The
	 * cluster powers off by itself when its last CPU is off and the power controller's
	 * cluster power-down is enabled (bls/spc.h). Returns only after the power controller has
	 * powered @cpu up again (an interrupt targeting it, with its wake-up armed in the power
	 * controller), as a warm reset would land in the resume path; the cluster is then up but
	 * may be out of coherency. Required. */
	void (*cpu_power_down)(void *plat, unsigned cpu);

	/* mmio_read32 / mmio_write32 - a 32-bit device register access (GIC, CCI, the power
	 * controller) from @cpu. Runs on @cpu: costs the bus and the device's access latency.
	 * Required. */
	uint32_t (*mmio_read32)(void *plat, unsigned cpu, uint64_t addr);
	void (*mmio_write32)(void *plat, unsigned cpu, uint64_t addr, uint32_t value);

	/* mmio_poll32 - busy-poll the register at @addr until (value & @mask) == 0, or until
	 * @timeout_ns of @cpu's time has passed since the first read: a loop of mmio_read32,
	 * every read costing what it costs (the platform may count reads that a device promises
	 * would return the same value without making them). Returns the last value read. Runs
	 * on @cpu. Required. */
	uint32_t (*mmio_poll32)(void *plat, unsigned cpu, uint64_t addr, uint32_t mask, uint64_t timeout_ns);

	/* shm_read / shm_write - a 1-, 2- or 4-byte access to strongly-ordered shared memory
	 * (the SRAM where MCPM and the vlocks keep their state, usable with caches off).
	 * Runs on @cpu. Unlike register accesses the access is not decoupled: it happens at the
	 * caller's exact simulated time and has completed when the verb returns, so accesses
	 * of concurrent CPUs interleave as they would on the bus. Required. */
	uint32_t (*shm_read)(void *plat, unsigned cpu, uint64_t addr, unsigned bytes);
	void (*shm_write)(void *plat, unsigned cpu, uint64_t addr, unsigned bytes, uint32_t value);

	/* cache_clean_invalidate - clean and invalidate a cache level by set/way: BLS_CACHE_L1
	 * writes @cpu's dirty L1 lines back to L2; BLS_CACHE_L2 writes its cluster's dirty L2
	 * lines back to memory through the interconnect. Runs on @cpu: costs time in
	 * proportion to the cache size and its dirty lines, plus the write-back traffic.
	 * Required. */
	void (*cache_clean_invalidate)(void *plat, unsigned cpu, enum bls_cache_level level);

	/* cpu_irq_mask - mask (@masked) or unmask interrupts on @cpu (CPSR.I): while masked,
	 * cpu_execute is not cut short by an interrupt and an interrupt does not end a WFE
	 * (only an SEV does); WFI still wakes. A power-up out of reset starts masked. Runs on
	 * @cpu.
	 * Required. */
	void (*cpu_irq_mask)(void *plat, unsigned cpu, int masked);

	/* mem_read_uncached - @cpu reads @words 32-bit words of memory one after another with its
	 * caches and MMU off (the resume path's instruction fetches and context loads): each is
	 * a round trip to DRAM through the interconnect, at the memory's latency, whatever the
	 * CPU's clock. Runs on @cpu. Required. */
	void (*mem_read_uncached)(void *plat, unsigned cpu, unsigned words);

	/* cpu_delay_cycles - @cpu spends @cycles of its own clock on code whose detail is not
	 * modelled (a cost-model step: saving a context, suspending the tick). Runs on @cpu.
	 * Required. */
	void (*cpu_delay_cycles)(void *plat, unsigned cpu, uint64_t cycles);

	/* timer_set - program @cpu's own timer (the generic timer's CNTP_CVAL and CTL) to raise
	 * its per-CPU interrupt (bls_hw.timer_ppi, level-sensitive) at @deadline_ns of simulated
	 * time, or disarm it with BLS_TIMER_OFF; either lowers a raised line first. A deadline
	 * already past raises it at once. Runs on @cpu, costs nothing measurable (a system
	 * register write). The comparator keeps running while the CPU is powered down and its
	 * interrupt wakes it through the GIC's wake output (TC2 keeps time for powered-down CPUs
	 * in an always-on broadcast timer; docs/os.md). Required. */
	void (*timer_set)(void *plat, unsigned cpu, uint64_t deadline_ns);

	/* timer_get - @cpu's programmed deadline, or BLS_TIMER_OFF. Runs on @cpu. Required. */
	uint64_t (*timer_get)(void *plat, unsigned cpu);

	/* bug - a check of the C code failed (bls/check.h): @check, at @file:@line, on @cpu
	 * (~0u: unknown). A simulator bug: the platform stops the run and must not return.
	 * Any context. Required. */
	void (*bug)(void *plat, unsigned cpu, const char *file, int line, const char *check);

	/* trace - a tracepoint: @event (enum bls_trace_event) with two arguments, at @cpu's
	 * current time. Observers (latency probes, trace writers) subscribe on the platform
	 * side; the C code never calls accounting code. Runs on @cpu: the platform may first
	 * bring the rest of the system up to @cpu's own time (it waits out the CPU's decoupled
	 * local time, which the CPU owed anyway), so that observers account every event at one
	 * consistent time. Required. */
	void (*trace)(void *plat, unsigned cpu, unsigned event, unsigned arg0, unsigned arg1);

};

/* bls_platform_ops_check - 0 when every required callback is present, else -BLS_ENOSYS. */
int bls_platform_ops_check(const struct bls_platform_ops *ops);

#ifdef __cplusplus
}
#endif

#endif /* BLS_PLATFORM_OPS_H */
