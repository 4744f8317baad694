/* switcher/src/sched/pelt.c -- per-entity load tracking (bls/pelt.h). */
#include "bls/pelt.h"

#include <math.h>
#include <string.h>

/* y^r for r = 0..31: glibc's pow(0.5, r / 32.0), to the bit (Linux keeps the same table in
 * fixed point, runnable_avg_yN_inv). Every update decays by a whole number of periods, and
 * pow() was about 120 instructions a call, four calls an update. */
static const double y_pow[32] = {
	0x1p+0, /* 1 */
	0x1.f50765b6e454p-1, /* 0.97857206208770009 */
	0x1.ea4afa2a490dap-1, /* 0.9576032806985737 */
	0x1.dfc97337b9b5fp-1, /* 0.93708381705514998 */
	0x1.d5818dcfba487p-1, /* 0.91700404320467122 */
	0x1.cb720dcef9069p-1, /* 0.89735453750155358 */
	0x1.c199bdd85529cp-1, /* 0.87812608018664973 */
	0x1.b7f76f2fb5e47p-1, /* 0.85930964906123897 */
	0x1.ae89f995ad3adp-1, /* 0.8408964152537145 */
	0x1.a5503b23e255dp-1, /* 0.82287773907698247 */
	0x1.9c49182a3f09p-1, /* 0.80524516597462714 */
	0x1.93737b0cdc5e5p-1, /* 0.78799042255394325 */
	0x1.8ace5422aa0dbp-1, /* 0.77110541270397037 */
	0x1.82589994cce13p-1, /* 0.75458221379671142 */
	0x1.7a11473eb0187p-1, /* 0.73841307296974967 */
	0x1.71f75e8ec5f74p-1, /* 0.72259040348852333 */
	0x1.6a09e667f3bcdp-1, /* 0.70710678118654757 */
	0x1.6247eb03a5585p-1, /* 0.69195494098191601 */
	0x1.5ab07dd485429p-1, /* 0.67712777346844633 */
	0x1.5342b569d4f82p-1, /* 0.66261832157987066 */
	0x1.4bfdad5362a27p-1, /* 0.64841977732550482 */
	0x1.44e086061892dp-1, /* 0.63452547859586661 */
	0x1.3dea64c123422p-1, /* 0.620928906036742 */
	0x1.371a7373aa9cbp-1, /* 0.60762367999023448 */
	0x1.306fe0a31b715p-1, /* 0.59460355750136051 */
	0x1.29e9df51fdee1p-1, /* 0.58186242938878874 */
	0x1.2387a6e756238p-1, /* 0.56939431737834578 */
	0x1.1d4873168b9aap-1, /* 0.55719337129794622 */
	0x1.172b83c7d517bp-1, /* 0.54525386633262884 */
	0x1.11301d0125b51p-1, /* 0.53357020033841185 */
	0x1.0b5586cf9890fp-1, /* 0.52213689121370688 */
	0x1.059b0d3158574p-1, /* 0.51094857432705831 */
};

/* 2^-@q, for 0 <= @q < 1022: a normal double, built from its exponent. */
static double half_pow(unsigned q)
{
	const uint64_t bits = (uint64_t)(1023u - q) << 52;
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

double bls_pelt_decay(double periods)
{
	/* n = 32q + r whole periods: y^n = y^r * 2^-q, and scaling by a power of two does not
	 * round, so this is pow()'s own result wherever pow() rounds correctly, which
	 * tests/switcher/pelt_test.cpp checks for every n below 32 * 1000. Anything else (a
	 * fraction, or so many periods that nothing is left) goes to pow(). */
	if (periods >= 0.0 && periods < 32.0 * 1000.0) {
		const unsigned n = (unsigned)periods;
		if ((double)n == periods)
			return y_pow[n % 32u] * half_pow(n / 32u);
	}
	return pow(0.5, periods / BLS_PELT_HALFLIFE_PERIODS);
}

/* The series of a signal always true: 1024 * (1 + y + y^2 + ...). */
static double pelt_max(void)
{
	return BLS_PELT_PERIOD_US / (1.0 - bls_pelt_decay(1.0));
}

void bls_pelt_init(struct bls_pelt *p, uint64_t now_ns)
{
	*p = (struct bls_pelt){.last_ns = now_ns};
}

void bls_pelt_update(struct bls_pelt *p, uint64_t now_ns, int runnable, int running, double scale)
{
	if (now_ns <= p->last_ns)
		return;
	const double delta = (double)(now_ns - p->last_ns) / 1000.0; /* us */
	p->last_ns = now_ns;
	const double P = BLS_PELT_PERIOD_US;
	const double total = p->period_contrib + delta;
	const double periods = floor(total / P);
	double contrib;
	if (periods == 0.0) {
		contrib = delta;
		p->period_contrib = total;
	} else {
		/* Three segments (Linux's accumulate_sum): d1 completes the period we were in and
		 * decays with every period since; the whole periods in between; d3 starts the
		 * current one and has not decayed yet. */
		const double d1 = P - p->period_contrib;
		const double d3 = total - periods * P;
		const double y = bls_pelt_decay(1.0);
		const double yp = bls_pelt_decay(periods);
		/* sum over k = 1 .. periods-1 of y^k */
		const double between = y * (1.0 - bls_pelt_decay(periods - 1.0)) / (1.0 - y);
		p->runnable_sum *= yp;
		p->util_sum *= yp;
		contrib = d1 * yp + P * between + d3;
		p->period_contrib = d3;
	}
	if (runnable)
		p->runnable_sum += contrib;
	if (running)
		p->util_sum += contrib * scale;
	const double divider = pelt_max() - P + p->period_contrib;
	p->runnable_avg = BLS_PELT_SCALE * p->runnable_sum / divider;
	p->util_avg = BLS_PELT_SCALE * p->util_sum / divider;
}
