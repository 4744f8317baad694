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

struct bls_platform_ops {
	/* now_ns - current simulated time in nanoseconds.
	 * Any context. Required. */
	uint64_t (*now_ns)(void *plat);

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

	/* cpu_irq_ack - acknowledge every interrupt pending on @cpu; returns how many were.
	 * Runs on @cpu; does not consume time in this version of the platform. Required. */
	unsigned (*cpu_irq_ack)(void *plat, unsigned cpu);

	/* cpu_power_down - power @cpu off (and its cluster, when it is the last one up and the
	 * cluster may power down). Runs on @cpu. Returns only after the power controller has
	 * powered @cpu up again (a wake-up interrupt), as a warm reset would land in the
	 * resume path. Required. */
	void (*cpu_power_down)(void *plat, unsigned cpu);

	/* cluster_set_freq - request that @cluster's clock move to @freq_mhz, an OPP of its
	 * table. Any context: the request is asynchronous; the DVFS controller applies it after
	 * its transition latency (voltage raised before the frequency going up, lowered after
	 * it going down). Returns -BLS_EINVAL for a frequency that is not an OPP. Required. */
	int (*cluster_set_freq)(void *plat, unsigned cluster, unsigned freq_mhz);
};

/* bls_platform_ops_check - 0 when every required callback is present, else -BLS_ENOSYS. */
int bls_platform_ops_check(const struct bls_platform_ops *ops);

#ifdef __cplusplus
}
#endif

#endif /* BLS_PLATFORM_OPS_H */
