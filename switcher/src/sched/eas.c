/* switcher/src/sched/eas.c -- energy-aware wake-up placement (bls/sched.h; docs/modes.md,
 * "EAS"), as the energy-aware scheduling patches placed tasks on TC2.
 *
 * A waking task goes to the CPU where the energy model estimates the least power for the
 * whole system with it there, among the CPUs with room for it (its utilisation plus theirs,
 * with schedutil's 25 % headroom, within their capacity). None with room: CFS decides. While
 * every CPU has room for what runs on it ("not over-utilised") load balancing stays off, as
 * it would undo the placement; once one has not, CFS balances as usual. A task that has
 * outgrown its CPU while running (a "misfit") moves, at that CPU's tick, to an idle CPU of
 * more capacity: it may never sleep, so wake-up placement alone would never move it.
 */
#include "internal.h"

/* schedutil's headroom: it asks for 1.25 x the utilisation (map_util_freq). */
#define HEADROOM 1.25

double bls_sched_energy(const struct bls_sched *s, const double *util)
{
	const struct bls_sched_config *c = &s->cfg;
	const struct bls_energy_model *em = &c->em;
	double power = 0;
	for (unsigned k = 0; k < c->nclusters; k++) {
		double max = 0;
		int any = 0;
		for (unsigned cpu = 0; cpu < c->ncpus; cpu++)
			if (c->cpu_cluster[cpu] == k && (s->online >> cpu & 1u)) {
				any = 1;
				max = util[cpu] > max ? util[cpu] : max;
			}
		if (!any)
			continue;
		/* The OPP schedutil would pick for the busiest CPU. */
		unsigned i = 0;
		while (i + 1 < em->nopps[k] && em->cap[k][i] < HEADROOM * max)
			i++;
		const double cap = em->cap[k][i];
		/* Each core busy util/cap of the time, the cluster as long as its busiest. */
		double cores = 0;
		for (unsigned cpu = 0; cpu < c->ncpus; cpu++)
			if (c->cpu_cluster[cpu] == k && (s->online >> cpu & 1u))
				cores += util[cpu] < cap ? util[cpu] / cap : 1.0;
		const double busy = max < cap ? max / cap : 1.0;
		power += cores * em->core_power[k][i] + busy * em->cluster_power[k][i] +
			 (1.0 - busy) * em->cluster_idle_power[k];
	}
	return power;
}

/* @cpu's capacity at its cluster's top OPP. */
static double capacity(const struct bls_sched *s, unsigned cpu)
{
	return s->cfg.cluster_capacity[s->cfg.cpu_cluster[cpu]];
}

int eas_select_cpu(struct bls_sched *s, unsigned id, uint64_t now)
{
	const struct bls_sched_task *t = &s->task[id];
	const unsigned n = s->cfg.ncpus;
	double util[BLS_MAX_CPUS] = {0};
	for (unsigned c = 0; c < n; c++)
		if (s->online >> c & 1u)
			util[c] = bls_sched_cpu_util(s, c, now);
	/* The task's own utilisation is counted where it slept: take it out. */
	const double tu = t->pelt.util_avg;
	if (t->state != BLS_TASK_NEW) {
		util[t->cpu] -= tu;
		if (util[t->cpu] < 0)
			util[t->cpu] = 0;
	}
	int best = -1;
	double best_power = 0;
	/* From the previous CPU on, so that a tie keeps the task where its cache is. */
	for (unsigned i = 0; i < n; i++) {
		const unsigned c = (t->cpu + i) % n;
		if (!sched_cpu_allowed(s, t, c) || HEADROOM * (util[c] + tu) > capacity(s, c))
			continue;
		util[c] += tu;
		const double p = bls_sched_energy(s, util);
		util[c] -= tu;
		if (best < 0 || p < best_power) {
			best = (int)c;
			best_power = p;
		}
	}
	if (best >= 0)
		s->stats.eas_wakeups++;
	return best;
}

uint32_t eas_misfit(struct bls_sched *s, unsigned cpu, uint64_t now)
{
	const struct bls_rq *rq = &s->rq[cpu];
	if (rq->curr == NO_TASK || !sched_is_fair(&s->task[rq->curr]))
		return 0; /* a misfit is a CFS task (the real-time class places its own) */
	const unsigned id = (unsigned)rq->curr;
	sched_pelt_sync(s, id, now);
	const struct bls_sched_task *t = &s->task[id];
	if (HEADROOM * t->pelt.util_avg <= capacity(s, cpu))
		return 0;
	int to = -1;
	for (unsigned c = 0; c < s->cfg.ncpus; c++)
		if (sched_cpu_allowed(s, t, c) && s->rq[c].nr_running == 0 && capacity(s, c) > capacity(s, cpu) &&
		    (to < 0 || capacity(s, c) > capacity(s, (unsigned)to)))
			to = (int)c;
	if (to < 0)
		return 0;
	s->stats.eas_misfits++;
	return sched_move(s, id, (unsigned)to, now);
}

int eas_overutilized(struct bls_sched *s, uint64_t now)
{
	for (unsigned c = 0; c < s->cfg.ncpus; c++)
		if ((s->online >> c & 1u) && HEADROOM * bls_sched_cpu_util(s, c, now) > capacity(s, c))
			return 1;
	return 0;
}
