/* switcher/src/cpufreq.c -- the merged virtual OPP table and the switch decision
 * (bls/cpufreq.h). */
#include "bls/cpufreq.h"

#include <stddef.h>
#include <string.h>

static int ascending(const unsigned *f, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		if (f[i] <= f[i - 1])
			return 0;
	return 1;
}

int bls_cpufreq_build(struct bls_vtable *t, unsigned big, const unsigned *big_mhz, unsigned nbig,
		      unsigned little, const unsigned *little_mhz, unsigned nlittle)
{
	if (!nbig || !nlittle || nbig > BLS_MAX_OPPS || nlittle > BLS_MAX_OPPS || big == little ||
	    !ascending(big_mhz, nbig) || !ascending(little_mhz, nlittle))
		return -BLS_EINVAL;
	memset(t, 0, sizeof(*t));
	t->big = big;
	t->little = little;
	for (unsigned i = 0; i < nlittle; i++)
		t->opp[t->n++] = (struct bls_vopp){little_mhz[i] / 2, little, little_mhz[i]};
	t->little_max_mhz = little_mhz[nlittle - 1] / 2;
	t->big_min_mhz = big_mhz[0];
	for (unsigned i = 0; i < nbig; i++) {
		/* Skip a big frequency the table already has (TC2: A15 500 = A7 1000 / 2). */
		if (bls_cpufreq_lookup(t, big_mhz[i]))
			continue;
		if (big_mhz[i] < t->opp[t->n - 1].virt_mhz)
			return -BLS_EINVAL; /* the two ranges must not interleave */
		t->opp[t->n++] = (struct bls_vopp){big_mhz[i], big, big_mhz[i]};
	}
	return 0;
}

const struct bls_vopp *bls_cpufreq_lookup(const struct bls_vtable *t, unsigned virt_mhz)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->opp[i].virt_mhz == virt_mhz)
			return &t->opp[i];
	return NULL;
}

unsigned bls_cpufreq_cluster_for(const struct bls_vtable *t, unsigned current, unsigned virt_mhz)
{
	if (current == t->big && virt_mhz < t->big_min_mhz)
		return t->little;
	if (current == t->little && virt_mhz > t->little_max_mhz)
		return t->big;
	return current;
}

unsigned bls_cpufreq_actual_mhz(const struct bls_vtable *t, unsigned cluster, unsigned virt_mhz)
{
	return cluster == t->little ? 2 * virt_mhz : virt_mhz;
}
