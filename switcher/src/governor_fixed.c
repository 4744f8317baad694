/* switcher/src/governor_fixed.c -- the fixed-OPP governor: one frequency per cluster, set at
 * boot. It exists so that the platform can be exercised before the real governors land, and
 * stays useful as the "userspace at a constant setting" baseline. */
#include "bls/governor.h"

static int fixed_start(struct bls_governor *gov)
{
	for (unsigned c = 0; c < gov->nclusters; c++) {
		int rc = bls_cpufreq_set_cluster(gov->cpufreq, gov->cpu, c, gov->freq_mhz[c]);
		if (rc)
			return rc;
	}
	return 0;
}

const struct bls_governor_ops bls_governor_fixed = {
	.name = "fixed",
	.start = fixed_start,
};
