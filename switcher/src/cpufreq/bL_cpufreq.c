/* switcher/src/cpufreq/bL_cpufreq.c -- the big.LITTLE cpufreq driver (bls/cpufreq.h). */
#include "bls/cpufreq.h"

#include <stddef.h>
#include <string.h>

#include "bls/check.h"
#include "bls/spc.h"

/* --- the merged virtual table ------------------------------------------------------------- */

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

/* --- the driver --------------------------------------------------------------------------- */

static void trace(struct bls_cpufreq *cf, unsigned cpu, unsigned ev, unsigned a, unsigned b)
{
	cf->hw->ops->trace(cf->hw->plat, cpu, ev, a, b);
}

static int level_of(const struct bls_cpufreq *cf, unsigned cluster, unsigned mhz)
{
	for (unsigned i = 0; i < cf->cfg.nopps[cluster]; i++)
		if (cf->cfg.opp_mhz[cluster][i] == mhz)
			return (int)i;
	return -1;
}

int bls_cpufreq_init(struct bls_cpufreq *cf, const struct bls_hw *hw, struct bls_switcher *sw,
		     const struct bls_cpufreq_config *cfg)
{
	if (!cf || !hw || !sw || !cfg || hw->nclusters > BLS_MAX_CLUSTERS)
		return -BLS_EINVAL;
	memset(cf, 0, sizeof(*cf));
	cf->hw = hw;
	cf->sw = sw;
	cf->cfg = *cfg;
	for (unsigned c = 0; c < hw->nclusters; c++) {
		if (cfg->nopps[c] > BLS_MAX_OPPS || (cfg->nopps[c] && cfg->boot_level[c] >= cfg->nopps[c]))
			return -BLS_EINVAL;
		cf->level[c] = cfg->boot_level[c];
	}
	for (unsigned l = 0; l < BLS_MAX_CPUS; l++)
		cf->txn[l].phase = BLS_CPUFREQ_IDLE;
	/* The merged table, wherever the switcher may be turned on and OPPs are known. */
	const unsigned big = cfg->big_cluster, little = cfg->little_cluster;
	cf->have_vtable = bls_switcher_npairs(sw) && big < hw->nclusters && little < hw->nclusters &&
			  cfg->nopps[big] && cfg->nopps[little] &&
			  bls_cpufreq_build(&cf->vtable, big, cfg->opp_mhz[big], cfg->nopps[big], little,
					    cfg->opp_mhz[little], cfg->nopps[little]) == 0;
	if (bls_switcher_active(sw) && !cf->have_vtable)
		return -BLS_EINVAL;
	bls_cpufreq_set_switching(cf, bls_switcher_active(sw));
	return 0;
}

void bls_cpufreq_set_switching(struct bls_cpufreq *cf, int on)
{
	on = on && cf->have_vtable;
	/* The policies change meaning (virtual frequencies per logical CPU, or real ones per
	 * cluster), as when Linux re-registers the driver: earlier requests no longer count. */
	if (on != cf->switching)
		memset(cf->request_mhz, 0, sizeof(cf->request_mhz));
	cf->switching = on;
	for (unsigned l = 0; l < bls_switcher_nlogical(cf->sw); l++)
		cf->resident[l] = bls_switcher_cluster_of(cf->sw, l);
}

/* A cluster's clock with the switcher on: the highest request of the logical CPUs placed on
 * it, as a real frequency; 0 when none asked (the clock is then left alone). */
static unsigned cluster_demand(const struct bls_cpufreq *cf, unsigned cluster)
{
	unsigned mhz = 0;
	for (unsigned l = 0; l < bls_switcher_nlogical(cf->sw); l++) {
		if (cf->resident[l] != cluster || !cf->request_mhz[l])
			continue;
		const unsigned actual = bls_cpufreq_actual_mhz(&cf->vtable, cluster, cf->request_mhz[l]);
		if (actual > mhz)
			mhz = actual;
	}
	return mhz;
}

static void step_done(struct bls_cpufreq *cf, int waiter)
{
	if (waiter >= 0)
		cf->txn[waiter].step_done = 1;
}

/* Start queued requests while the power controller is free. A clock already at its rate
 * (or with no request at all) costs nothing and answers at once. */
static void start_next(struct bls_cpufreq *cf, unsigned cpu)
{
	while (!cf->busy && cf->qlen) {
		const struct bls_cpufreq_op op = cf->queue[cf->qhead];
		cf->qhead = (cf->qhead + 1) % (sizeof(cf->queue) / sizeof(cf->queue[0]));
		cf->qlen--;
		const unsigned mhz = op.mhz ? op.mhz : cluster_demand(cf, op.cluster);
		const int level = mhz ? level_of(cf, op.cluster, mhz) : -1;
		if (level < 0 || (unsigned)level == cf->level[op.cluster]) {
			if (level >= 0)
				cf->stats.clock_unchanged++;
			step_done(cf, op.waiter);
			continue;
		}
		cf->busy = 1;
		cf->inflight = op;
		cf->inflight_level = (unsigned)level;
		cf->stats.spc_requests++;
		trace(cf, cpu, BLS_TRACE_SPC_REQUEST, op.cluster, (unsigned)level);
		bls_spc_perf_request(cf->hw, cpu, op.cluster, (unsigned)level);
	}
}

static void submit(struct bls_cpufreq *cf, unsigned cpu, struct bls_cpufreq_op op)
{
	const unsigned size = sizeof(cf->queue) / sizeof(cf->queue[0]);
	/* Each logical CPU has at most one request queued and the boot-time settings one per
	 * cluster: the queue cannot fill. */
	BLS_CHECK(cf->hw, cpu, cf->qlen < size);
	if (cf->busy)
		cf->stats.queued++;
	cf->queue[(cf->qhead + cf->qlen) % size] = op;
	cf->qlen++;
	start_next(cf, cpu);
}

int bls_cpufreq_target(struct bls_cpufreq *cf, unsigned cpu, unsigned logical, unsigned mhz)
{
	if (logical >= bls_switcher_nlogical(cf->sw))
		return -BLS_EINVAL;
	if (cf->txn[logical].phase != BLS_CPUFREQ_IDLE)
		return -BLS_EBUSY;
	unsigned old, now, fixed = 0;
	if (cf->switching) {
		if (!bls_cpufreq_lookup(&cf->vtable, mhz))
			return -BLS_EINVAL;
		old = cf->resident[logical];
		now = bls_cpufreq_cluster_for(&cf->vtable, old, mhz);
	} else {
		/* A policy per cluster: the request is a real OPP of the CPU's cluster. */
		old = now = cf->hw->cpu_cluster[bls_switcher_host_of(cf->sw, logical)];
		if (level_of(cf, now, mhz) < 0)
			return -BLS_EINVAL;
		fixed = mhz;
	}
	cf->txn[logical].prev_mhz = cf->request_mhz[logical];
	cf->txn[logical].failed = 0;
	cf->request_mhz[logical] = mhz;
	cf->resident[logical] = now;
	cf->txn[logical].phase = BLS_CPUFREQ_SET_TARGET;
	cf->txn[logical].old_cluster = old;
	cf->txn[logical].new_cluster = now;
	cf->txn[logical].step_done = 0;
	cf->stats.transactions++;
	trace(cf, cpu, BLS_TRACE_CPUFREQ_BEGIN, logical, now);
	/* The target cluster's clock first; the caller sleeps until it is set. */
	submit(cf, cpu, (struct bls_cpufreq_op){now, (int)logical, fixed});
	return 0;
}

int bls_cpufreq_set_cluster(struct bls_cpufreq *cf, unsigned cpu, unsigned cluster, unsigned mhz)
{
	if (cluster >= cf->hw->nclusters || level_of(cf, cluster, mhz) < 0)
		return -BLS_EINVAL;
	submit(cf, cpu, (struct bls_cpufreq_op){cluster, -1, mhz});
	return 0;
}

uint32_t bls_cpufreq_complete(struct bls_cpufreq *cf, unsigned cpu, uint32_t status)
{
	if (!cf->busy)
		return 0; /* nothing asked: a stray interrupt */
	const unsigned c = cf->inflight.cluster;
	if (status & BLS_SPC_STAT_COMPLETE(c)) {
		cf->level[c] = cf->inflight_level;
		trace(cf, cpu, BLS_TRACE_SPC_DONE, c, cf->inflight_level);
	} else if (status & BLS_SPC_STAT_ERR(c)) {
		/* The clock stays where it was; the caller goes on as Linux's does after -EIO. */
		cf->stats.spc_errors++;
		trace(cf, cpu, BLS_TRACE_SPC_DONE, c, ~0u);
		const int w = cf->inflight.waiter;
		if (w >= 0 && cf->txn[w].phase == BLS_CPUFREQ_SET_TARGET)
			cf->txn[w].failed = 1;
	} else {
		return 0; /* not the answer to ours */
	}
	cf->busy = 0;
	/* The caller waiting for this request wakes, and so does every caller whose queued
	 * request needs no hardware answer (its clock is already right). */
	uint32_t waiting = 0;
	for (unsigned l = 0; l < BLS_MAX_CPUS; l++)
		if (cf->txn[l].phase != BLS_CPUFREQ_IDLE && !cf->txn[l].step_done)
			waiting |= 1u << l;
	step_done(cf, cf->inflight.waiter);
	start_next(cf, cpu);
	uint32_t woken = 0;
	for (unsigned l = 0; l < BLS_MAX_CPUS; l++)
		if ((waiting >> l & 1u) && cf->txn[l].step_done)
			woken |= 1u << l;
	return woken;
}

void bls_cpufreq_service(struct bls_cpufreq *cf, unsigned cpu, unsigned logical)
{
	/* The caller of bls_cpufreq_target, woken: it goes on where it slept. */
	while (cf->txn[logical].step_done) {
		cf->txn[logical].step_done = 0;
		switch (cf->txn[logical].phase) {
		case BLS_CPUFREQ_SET_TARGET: {
			const unsigned old = cf->txn[logical].old_cluster, now = cf->txn[logical].new_cluster;
			if (cf->txn[logical].failed) {
				/* bL_cpufreq_set_rate after clk_set_rate failed: the request and the
				 * cluster as they were, no switch. */
				cf->request_mhz[logical] = cf->txn[logical].prev_mhz;
				cf->resident[logical] = old;
				cf->failed[logical] = 1;
				cf->stats.failed++;
				cf->txn[logical].phase = BLS_CPUFREQ_IDLE;
				break;
			}
			if (!cf->switching || old == now) {
				cf->txn[logical].phase = BLS_CPUFREQ_IDLE;
				break;
			}
			/* The target clock is set: now the switch, then the old cluster's clock
			 * from the CPUs left on it. */
			bls_switch_request(cf->sw, cpu, logical, now, NULL, NULL);
			cf->stats.switch_requests++;
			cf->txn[logical].phase = BLS_CPUFREQ_SET_OLD;
			submit(cf, cpu, (struct bls_cpufreq_op){old, (int)logical, 0});
			break;
		}
		case BLS_CPUFREQ_SET_OLD:
			cf->txn[logical].phase = BLS_CPUFREQ_IDLE;
			break;
		case BLS_CPUFREQ_IDLE:
			BLS_CHECK(cf->hw, cpu, !"an idle transaction was answered");
			break;
		}
	}
}

void bls_cpufreq_switch_failed(struct bls_cpufreq *cf, unsigned logical, unsigned cluster)
{
	/* The logical CPU stays where it is: its clock is that cluster's, its request as
	 * before the transaction that asked for the move. */
	cf->resident[logical] = cluster;
	const unsigned real = bls_cpufreq_cluster_mhz(cf, cluster);
	cf->request_mhz[logical] = cluster == cf->vtable.little ? real / 2 : real;
	cf->failed[logical] = 1;
	cf->stats.switches_failed++;
}

int bls_cpufreq_take_failed(struct bls_cpufreq *cf, unsigned logical)
{
	const int f = cf->failed[logical];
	cf->failed[logical] = 0;
	return f;
}

enum bls_cpufreq_phase bls_cpufreq_phase(const struct bls_cpufreq *cf, unsigned logical)
{
	return cf->txn[logical].phase;
}

unsigned bls_cpufreq_cluster_mhz(const struct bls_cpufreq *cf, unsigned cluster)
{
	return cf->cfg.opp_mhz[cluster][cf->level[cluster]];
}
