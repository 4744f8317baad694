/* switcher/include/bls/cpufreq.h -- the big.LITTLE cpufreq driver's arithmetic: *which
 * cluster* a frequency means.
 *
 * Each logical CPU sees one merged table of virtual frequencies: the little cluster's OPPs at
 * half their real value (an A7 does about half an A15's work per MHz), then the big
 * cluster's, skipping a big frequency already present (vexpress-spc-cpufreq.c's "skip
 * duplicates"). A request above the little cluster's top virtual frequency means the big
 * cluster, one below the big cluster's lowest means the little one, and a request exactly at
 * the boundary keeps the current cluster: the only hysteresis. A cluster's clock is the
 * highest request of the logical CPUs resident on it, converted to its real frequency.
 */
#ifndef BLS_CPUFREQ_H
#define BLS_CPUFREQ_H

#include "bls/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLS_MAX_OPPS 16

struct bls_vopp {
	unsigned virt_mhz;   /* what the logical CPU's policy sees */
	unsigned cluster;    /* which cluster serves it */
	unsigned actual_mhz; /* that cluster's real frequency */
};

struct bls_vtable {
	unsigned n;
	struct bls_vopp opp[2 * BLS_MAX_OPPS];
	unsigned big, little;   /* cluster indices */
	unsigned big_min_mhz;   /* lowest big OPP (virtual = actual) */
	unsigned little_max_mhz; /* highest little OPP, virtual */
};

/* bls_cpufreq_build - merge the two clusters' ascending OPP lists (MHz) into @t. Returns 0, or
 * -BLS_EINVAL if a list is empty, too long or not ascending. */
int bls_cpufreq_build(struct bls_vtable *t, unsigned big, const unsigned *big_mhz, unsigned nbig,
		      unsigned little, const unsigned *little_mhz, unsigned nlittle);

/* bls_cpufreq_lookup - the table entry for @virt_mhz, or NULL when it is not one. */
const struct bls_vopp *bls_cpufreq_lookup(const struct bls_vtable *t, unsigned virt_mhz);

/* bls_cpufreq_cluster_for - the cluster a logical CPU now on @current should run on to serve
 * @virt_mhz (the boundary hysteresis applied). */
unsigned bls_cpufreq_cluster_for(const struct bls_vtable *t, unsigned current, unsigned virt_mhz);

/* bls_cpufreq_actual_mhz - @virt_mhz as a real frequency of @cluster. */
unsigned bls_cpufreq_actual_mhz(const struct bls_vtable *t, unsigned cluster, unsigned virt_mhz);

#ifdef __cplusplus
}
#endif

#endif /* BLS_CPUFREQ_H */
