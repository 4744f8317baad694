/* switcher/src/sched/pelt.c -- per-entity load tracking (bls/pelt.h). */
#include "bls/pelt.h"

#include <math.h>

double bls_pelt_decay(double periods)
{
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
