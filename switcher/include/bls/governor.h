/* switcher/include/bls/governor.h -- cpufreq governors: *when* to change performance.
 *
 * A governor asks the cpufreq driver (bls/cpufreq.h) for frequencies; it never decides which
 * cluster a logical CPU runs on (that is the driver's job) and never touches hardware.
 */
#ifndef BLS_GOVERNOR_H
#define BLS_GOVERNOR_H

#include "bls/cpufreq.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bls_governor;

struct bls_governor_ops {
	const char *name;
	/* start - called once, on the boot CPU (@gov->cpu), before it runs any task. May ask
	 * the driver for frequencies. Returns 0 or a negative BLS_E* code. Required. */
	int (*start)(struct bls_governor *gov);
};

/* A governor instance. freq_mhz[] is the fixed governor's per-cluster setting; other
 * governors will add their tunables here as they arrive. */
struct bls_governor {
	const struct bls_governor_ops *ops;
	struct bls_cpufreq *cpufreq; /* set by bls_kernel_init() */
	unsigned cpu;                /* the CPU it starts on; set by bls_kernel_init() */
	unsigned nclusters;
	unsigned freq_mhz[BLS_MAX_CLUSTERS];
};

/* fixed: sets every cluster to its configured frequency at boot and never changes it. */
extern const struct bls_governor_ops bls_governor_fixed;

#ifdef __cplusplus
}
#endif

#endif /* BLS_GOVERNOR_H */
