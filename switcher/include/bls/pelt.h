/* switcher/include/bls/pelt.h -- per-entity load tracking, as Linux's kernel/sched/pelt.c.
 *
 * Time is cut into periods of 1024 us. A signal (running, runnable) contributes the time it
 * was true in each period, and every period the past decays by y, with y^32 = 1/2: what
 * happened 32 ms ago counts half. The sum of a signal always true converges to
 *   max = 1024 / (1 - y)   (us-weighted; Linux's integer LOAD_AVG_MAX, 47742, is this series
 *                           truncated at every step; we keep it exact)
 * and the average is sum / (max - 1024 + the time spent in the current period), so that a
 * signal that has always been true averages exactly 1024 at any point of a period.
 *
 * Two signals per entity: runnable (queued, running or waiting: the HMP patches'
 * load_avg_ratio, Linux's runnable_avg) and util (running). The util contribution is scaled
 * by the capacity at which the time was spent (frequency and CPU invariance: a task running
 * all the time on a CPU at half the reference capacity has util 512), the runnable one not.
 *
 * Worked example (tests/switcher/pelt_test.cpp): an entity at rest that starts running at a
 * period boundary, at full capacity, has util = 1024 * (1 - y^n) after n whole periods:
 * 512 after 32 periods (32.768 ms), 768 after 64.
 */
#ifndef BLS_PELT_H
#define BLS_PELT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BLS_PELT_PERIOD_US 1024.0
#define BLS_PELT_HALFLIFE_PERIODS 32.0
#define BLS_PELT_SCALE 1024.0 /* an average of 1024 is "always" */

struct bls_pelt {
	uint64_t last_ns;      /* time of the last update */
	double period_contrib; /* us already spent in the current period */
	double runnable_sum, util_sum;
	double runnable_avg, util_avg; /* 0..1024 */
};

/* bls_pelt_init - an entity with no history, at @now_ns. */
void bls_pelt_init(struct bls_pelt *p, uint64_t now_ns);

/* bls_pelt_update - account the time from the last update to @now_ns, during which the
 * entity was @runnable and @running (running implies runnable), @running at @scale of the
 * reference capacity (0..1], and recompute the averages. @now_ns before the last update is
 * ignored (nothing to account). */
void bls_pelt_update(struct bls_pelt *p, uint64_t now_ns, int runnable, int running, double scale);

/* bls_pelt_decay - y^@periods. */
double bls_pelt_decay(double periods);

#ifdef __cplusplus
}
#endif

#endif /* BLS_PELT_H */
