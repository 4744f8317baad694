/* switcher/src/bL/mcpm.c -- multi-cluster power management (bls/mcpm.h; the algorithm and its
 * state diagrams: docs/mcpm.md). */
#include "bls/mcpm.h"

#include <string.h>

#include "bls/check.h"
#include "bls/vlock.h"

/* --- shared state ----------------------------------------------------------------------- */

static uint32_t shm_rd(struct bls_mcpm *m, unsigned cpu, uint32_t off)
{
	return m->hw->ops->shm_read(m->hw->plat, cpu, m->hw->shm_base + off, 4);
}

static void shm_wr(struct bls_mcpm *m, unsigned cpu, uint32_t off, uint32_t v)
{
	m->hw->ops->shm_write(m->hw->plat, cpu, m->hw->shm_base + off, 4, v);
}

static void sev(struct bls_mcpm *m, unsigned cpu)
{
	m->hw->ops->cpu_send_event(m->hw->plat, cpu);
}

static void wfe(struct bls_mcpm *m, unsigned cpu)
{
	m->hw->ops->cpu_wait_for_event(m->hw->plat, cpu);
}

unsigned bls_mcpm_cpu_index(const struct bls_hw *hw, unsigned cpu)
{
	return bls_hw_cpu_index(hw, cpu);
}

/* Every state change goes through these three, which check the transition
 * (docs/mcpm.md draws them). */
static void set_cpu_state(struct bls_mcpm *m, unsigned cpu, uint8_t to)
{
	const unsigned cl = m->hw->cpu_cluster[cpu], i = bls_mcpm_cpu_index(m->hw, cpu);
	const uint8_t from = m->cpu_state[cl][i];
	BLS_CHECK(m->hw, cpu,
		  (from == BLS_CPU_DOWN && to == BLS_CPU_COMING_UP) ||
			  (from == BLS_CPU_COMING_UP && to == BLS_CPU_UP) ||
			  (from == BLS_CPU_UP && to == BLS_CPU_GOING_DOWN) ||
			  (from == BLS_CPU_GOING_DOWN && to == BLS_CPU_DOWN));
	m->cpu_state[cl][i] = to;
	shm_wr(m, cpu, BLS_MCPM_CPU_STATE(cl, i), to);
	m->hw->ops->trace(m->hw->plat, cpu, BLS_TRACE_MCPM_CPU_STATE, cpu, to);
}

static void set_cluster_state(struct bls_mcpm *m, unsigned cpu, unsigned cl, uint8_t to)
{
	const uint8_t from = m->cluster_state[cl];
	BLS_CHECK(m->hw, cpu,
		  (from == BLS_CLUSTER_DOWN && to == BLS_CLUSTER_UP) ||
			  (from == BLS_CLUSTER_UP && to == BLS_CLUSTER_GOING_DOWN) ||
			  (from == BLS_CLUSTER_GOING_DOWN && to == BLS_CLUSTER_DOWN) ||
			  (from == BLS_CLUSTER_GOING_DOWN && to == BLS_CLUSTER_UP)); /* abort */
	m->cluster_state[cl] = to;
	shm_wr(m, cpu, BLS_MCPM_CLUSTER_STATE(cl), to);
}

static void set_inbound_state(struct bls_mcpm *m, unsigned cpu, unsigned cl, uint8_t to)
{
	const uint8_t from = m->inbound_state[cl];
	BLS_CHECK(m->hw, cpu,
		  (from == BLS_INBOUND_NOT_COMING_UP && to == BLS_INBOUND_COMING_UP) ||
			  (from == BLS_INBOUND_COMING_UP && to == BLS_INBOUND_NOT_COMING_UP));
	m->inbound_state[cl] = to;
	shm_wr(m, cpu, BLS_MCPM_INBOUND_STATE(cl), to);
}

/* The MCPM lock. It protects the use counts and is only taken by coherent CPUs, so it lives
 * in ordinary memory; between two platform verbs C code runs atomically in the model, which
 * makes test-and-set a single step, as an exclusive load/store pair is. */
static void mcpm_lock(struct bls_mcpm *m, unsigned cpu)
{
	while (m->lock_taken)
		wfe(m, cpu);
	m->lock_taken = 1;
}

static void mcpm_unlock(struct bls_mcpm *m, unsigned cpu)
{
	m->hw->ops->cpu_dsb(m->hw->plat, cpu);
	m->lock_taken = 0;
	sev(m, cpu);
}

static int cluster_unused(const struct bls_mcpm *m, unsigned cl)
{
	for (unsigned i = 0; i < BLS_MAX_CPUS_PER_CLUSTER; i++)
		if (m->use_count[cl][i])
			return 0;
	return 1;
}

/* --- set-up ------------------------------------------------------------------------------- */

int bls_mcpm_init(struct bls_mcpm *m, const struct bls_hw *hw, const struct bls_mcpm_backend *be)
{
	if (!m || !hw || !hw->ops || hw->nclusters > BLS_MAX_CLUSTERS)
		return -BLS_EINVAL;
	if (!be || !be->cpu_powerup || !be->cluster_powerup || !be->cpu_powerdown_prepare ||
	    !be->cluster_powerdown_prepare || !be->cpu_cache_disable || !be->cluster_cache_disable ||
	    !be->cluster_power_up_setup)
		return -BLS_ENOSYS;
	memset(m, 0, sizeof(*m));
	m->hw = hw;
	m->be = be;
	for (unsigned cl = 0; cl < hw->nclusters; cl++) {
		m->cluster_state[cl] = BLS_CLUSTER_UP;
		m->inbound_state[cl] = BLS_INBOUND_NOT_COMING_UP;
	}
	for (unsigned c = 0; c < hw->ncpus; c++) {
		const unsigned cl = hw->cpu_cluster[c], i = bls_mcpm_cpu_index(hw, c);
		if (i >= BLS_MAX_CPUS_PER_CLUSTER)
			return -BLS_EINVAL;
		m->use_count[cl][i] = 1;
		m->cpu_state[cl][i] = BLS_CPU_UP;
	}
	return 0;
}

void bls_mcpm_sync_init(struct bls_mcpm *m, unsigned cpu)
{
	const struct bls_hw *hw = m->hw;
	for (unsigned cl = 0; cl < hw->nclusters; cl++) {
		shm_wr(m, cpu, BLS_MCPM_CLUSTER_STATE(cl), m->cluster_state[cl]);
		shm_wr(m, cpu, BLS_MCPM_INBOUND_STATE(cl), m->inbound_state[cl]);
	}
	for (unsigned c = 0; c < hw->ncpus; c++) {
		const unsigned cl = hw->cpu_cluster[c], i = bls_mcpm_cpu_index(hw, c);
		shm_wr(m, cpu, BLS_MCPM_CPU_STATE(cl, i), m->cpu_state[cl][i]);
		shm_wr(m, cpu, BLS_MCPM_ENTRY_VECTOR(cl, i), 0);
		shm_wr(m, cpu, BLS_MCPM_POKE_ADDR(cl, i), 0);
	}
}

void bls_mcpm_set_entry_vector(struct bls_mcpm *m, unsigned cpu, unsigned target, uint32_t vector)
{
	const unsigned cl = m->hw->cpu_cluster[target], i = bls_mcpm_cpu_index(m->hw, target);
	shm_wr(m, cpu, BLS_MCPM_ENTRY_VECTOR(cl, i), vector);
}

void bls_mcpm_set_early_poke(struct bls_mcpm *m, unsigned cpu, unsigned target, uint32_t addr,
			     uint32_t value)
{
	const unsigned cl = m->hw->cpu_cluster[target], i = bls_mcpm_cpu_index(m->hw, target);
	shm_wr(m, cpu, BLS_MCPM_POKE_VALUE(cl, i), value);
	shm_wr(m, cpu, BLS_MCPM_POKE_ADDR(cl, i), addr);
}

/* --- power up ----------------------------------------------------------------------------- */

/* Interrupts off around the lock, as Linux's mcpm_cpu_power_up has them (its callers run with
 * them on, and there is no arch_spin_lock_irq): a waiter sleeps in WFE until the holder's SEV. */
static void irqs_off(struct bls_mcpm *m, unsigned cpu)
{
	m->hw->ops->cpu_irq_mask(m->hw->plat, cpu, 1);
}

static void irqs_on(struct bls_mcpm *m, unsigned cpu)
{
	m->hw->ops->cpu_irq_mask(m->hw->plat, cpu, 0);
}

int bls_mcpm_cpu_power_up(struct bls_mcpm *m, unsigned cpu, unsigned target)
{
	const unsigned cl = m->hw->cpu_cluster[target], i = bls_mcpm_cpu_index(m->hw, target);

	irqs_off(m, cpu);
	mcpm_lock(m, cpu);
	const int cpu_is_down = m->use_count[cl][i] == 0;
	const int cluster_is_down = cluster_unused(m, cl);
	m->use_count[cl][i]++;
	/* 2: a power-up overtook a power-down that has not completed. */
	BLS_CHECK(m->hw, cpu, m->use_count[cl][i] == 1 || m->use_count[cl][i] == 2);
	if (cluster_is_down)
		m->be->cluster_powerup(m, cpu, cl);
	if (cpu_is_down) {
		/* If it is up after all, parked at its gate, the poke it read was not ours. */
		m->poke_again[cl][i] = 1;
		m->be->cpu_powerup(m, cpu, target);
	}
	mcpm_unlock(m, cpu);
	irqs_on(m, cpu);
	return 0;
}

int bls_mcpm_cpu_power_up_cancel(struct bls_mcpm *m, unsigned cpu, unsigned target)
{
	const unsigned cl = m->hw->cpu_cluster[target], i = bls_mcpm_cpu_index(m->hw, target);
	irqs_off(m, cpu);
	mcpm_lock(m, cpu);
	/* Down in MCPM's eyes (it writes COMING_UP before anything else) and wanted only by the
	 * power-up being withdrawn: a CPU that got as far as its entry point goes on, and will
	 * wait at its gate as any CPU woken without being asked. */
	if (m->use_count[cl][i] != 1 || shm_rd(m, cpu, BLS_MCPM_CPU_STATE(cl, i)) != BLS_CPU_DOWN) {
		mcpm_unlock(m, cpu);
		irqs_on(m, cpu);
		return -BLS_EBUSY;
	}
	m->use_count[cl][i] = 0;
	if (m->be->cpu_powerup_cancel)
		m->be->cpu_powerup_cancel(m, cpu, target);
	m->stats.power_ups_cancelled++;
	mcpm_unlock(m, cpu);
	irqs_on(m, cpu);
	return 0;
}

void bls_mcpm_cpu_power_up_failed(struct bls_mcpm *m, unsigned cpu, unsigned target)
{
	(void)cpu;
	(void)target;
	m->stats.power_up_errors++;
}

void bls_mcpm_cpu_powered_up(struct bls_mcpm *m, unsigned cpu)
{
	const unsigned cl = m->hw->cpu_cluster[cpu], i = bls_mcpm_cpu_index(m->hw, cpu);
	mcpm_lock(m, cpu);
	if (cluster_unused(m, cl) && m->be->cluster_is_up)
		m->be->cluster_is_up(m, cpu, cl);
	if (m->use_count[cl][i] == 0)
		m->use_count[cl][i] = 1;
	if (m->be->cpu_is_up)
		m->be->cpu_is_up(m, cpu);
	mcpm_unlock(m, cpu);
}

/* --- power down --------------------------------------------------------------------------- */

static void outbound_leave_critical(struct bls_mcpm *m, unsigned cpu, unsigned cl, uint8_t state)
{
	const struct bls_hw *hw = m->hw;
	m->hw->ops->cpu_dsb(m->hw->plat, cpu);
	/* The protocol's invariant, where its breach first shows: a cluster goes DOWN with every
	 * other CPU of it DOWN, or COMING_UP and held by the first-man gate until the teardown is
	 * over; never UP (running, its cluster torn down under it: a last man that did not abort
	 * for an inbound that came up). */
	for (unsigned c = 0; c < hw->ncpus && state == BLS_CLUSTER_DOWN; c++) {
		if (c == cpu || hw->cpu_cluster[c] != cl)
			continue;
		const uint8_t other = m->cpu_state[cl][bls_mcpm_cpu_index(hw, c)];
		BLS_CHECK(hw, cpu, other != BLS_CPU_UP && "no CPU of a cluster going down runs in it");
	}
	set_cluster_state(m, cpu, cl, state);
	sev(m, cpu);
}

/* The last man's critical section: the cluster is GOING_DOWN unless an inbound CPU is
 * coming up or another CPU of the cluster is not (about to be) down. */
static int outbound_enter_critical(struct bls_mcpm *m, unsigned cpu, unsigned cl)
{
	const struct bls_hw *hw = m->hw;
	set_cluster_state(m, cpu, cl, BLS_CLUSTER_GOING_DOWN);

	/* The mutant ignores an inbound coming up: neither the inbound state nor a CPU of the
	 * cluster in COMING_UP stops it (only one already UP does). */
	const int ignore_inbound = BLS_MUTANT(hw, BLS_MUTANT_LAST_MAN_IGNORES_INBOUND);
	if (shm_rd(m, cpu, BLS_MCPM_INBOUND_STATE(cl)) == BLS_INBOUND_COMING_UP && !ignore_inbound)
		goto abort;

	for (unsigned c = 0; c < hw->ncpus; c++) {
		if (c == cpu || hw->cpu_cluster[c] != cl)
			continue;
		const unsigned i = bls_mcpm_cpu_index(hw, c);
		uint32_t s;
		while ((s = shm_rd(m, cpu, BLS_MCPM_CPU_STATE(cl, i))) == BLS_CPU_GOING_DOWN)
			wfe(m, cpu);
		if (s != BLS_CPU_DOWN && !(ignore_inbound && s == BLS_CPU_COMING_UP))
			goto abort;
	}
	return 1;

abort:
	outbound_leave_critical(m, cpu, cl, BLS_CLUSTER_UP);
	m->stats.last_man_aborted++;
	return 0;
}

uint32_t bls_mcpm_cpu_power_down(struct bls_mcpm *m, unsigned cpu)
{
	const unsigned cl = m->hw->cpu_cluster[cpu], i = bls_mcpm_cpu_index(m->hw, cpu);

	set_cpu_state(m, cpu, BLS_CPU_GOING_DOWN);

	mcpm_lock(m, cpu);
	BLS_CHECK(m->hw, cpu, m->cluster_state[cl] == BLS_CLUSTER_UP);
	BLS_CHECK(m->hw, cpu, m->use_count[cl][i] == 1 || m->use_count[cl][i] == 2);
	m->use_count[cl][i]--;
	const int cpu_going_down = m->use_count[cl][i] == 0;
	const int last_man = cluster_unused(m, cl);

	if (last_man && outbound_enter_critical(m, cpu, cl)) {
		m->be->cpu_powerdown_prepare(m, cpu);
		m->be->cluster_powerdown_prepare(m, cpu, cl);
		mcpm_unlock(m, cpu);
		m->be->cluster_cache_disable(m, cpu, cl);
		outbound_leave_critical(m, cpu, cl, BLS_CLUSTER_DOWN);
		m->stats.last_man++;
	} else {
		if (cpu_going_down)
			m->be->cpu_powerdown_prepare(m, cpu);
		mcpm_unlock(m, cpu);
		/* Clean even when a power-up raced ahead: the caller resumes through the
		 * entry point, with caches off, either way. */
		m->be->cpu_cache_disable(m, cpu);
	}

	m->hw->ops->cpu_dsb(m->hw->plat, cpu);
	set_cpu_state(m, cpu, BLS_CPU_DOWN);
	sev(m, cpu);

	if (cpu_going_down)
		m->hw->ops->cpu_power_down(m->hw->plat, cpu);
	else
		m->stats.raced_power_up++; /* not going down after all: soft reset */

	return bls_mcpm_entry_point(m, cpu);
}

/* --- the inbound path ---------------------------------------------------------------------- */

uint32_t bls_mcpm_entry_point(struct bls_mcpm *m, unsigned cpu)
{
	const struct bls_hw *hw = m->hw;
	const unsigned cl = hw->cpu_cluster[cpu], i = bls_mcpm_cpu_index(hw, cpu);

	/* The very first act: the early poke (for IKS, the "inbound alive" SGI). */
	m->poke_again[cl][i] = 0; /* whoever asked for us installed it before asking */
	const uint32_t poke = shm_rd(m, cpu, BLS_MCPM_POKE_ADDR(cl, i));
	if (poke)
		hw->ops->mmio_write32(hw->plat, cpu, poke, shm_rd(m, cpu, BLS_MCPM_POKE_VALUE(cl, i)));
	int poked = poke != 0;

	/* From here the cluster cannot start going down behind our back. */
	set_cpu_state(m, cpu, BLS_CPU_COMING_UP);

	if (bls_vlock_trylock(hw, cpu, hw->shm_base + BLS_MCPM_FIRST_MAN_LOCK(cl), i) == 0) {
		/* First man: alone here, or the vlock is broken. */
		m->first_men[cl]++;
		BLS_CHECK(hw, cpu, m->first_men[cl] == 1 && "vlock mutual exclusion: one first man per cluster");
		if (shm_rd(m, cpu, BLS_MCPM_CLUSTER_STATE(cl)) == BLS_CLUSTER_UP) {
			m->stats.first_man_skipped++;
		} else {
			set_inbound_state(m, cpu, cl, BLS_INBOUND_COMING_UP);
			hw->ops->cpu_dsb(hw->plat, cpu);
			/* Let an outbound's teardown abort or complete. */
			uint32_t s;
			while ((s = shm_rd(m, cpu, BLS_MCPM_CLUSTER_STATE(cl))) == BLS_CLUSTER_GOING_DOWN)
				wfe(m, cpu);
			if (s != BLS_CLUSTER_UP) {
				m->be->cluster_power_up_setup(m, cpu, cl);
				hw->ops->cpu_dsb(hw->plat, cpu);
				set_cluster_state(m, cpu, cl, BLS_CLUSTER_UP);
				m->stats.first_man++;
			}
			set_inbound_state(m, cpu, cl, BLS_INBOUND_NOT_COMING_UP);
			hw->ops->cpu_dsb(hw->plat, cpu);
			sev(m, cpu);
		}
		m->first_men[cl]--;
		bls_vlock_unlock(hw, cpu, hw->shm_base + BLS_MCPM_FIRST_MAN_LOCK(cl));
	} else {
		/* Not the first man: wait for the cluster the first man is setting up. */
		while (shm_rd(m, cpu, BLS_MCPM_CLUSTER_STATE(cl)) != BLS_CLUSTER_UP)
			wfe(m, cpu);
	}

	hw->ops->cpu_dsb(hw->plat, cpu);
	set_cpu_state(m, cpu, BLS_CPU_UP);

	/* The gate: wait until somebody opens our entry vector. A CPU that came up with no poke
	 * installed (woken by a stray interrupt while powering down) may be chosen as a switch's
	 * inbound while it waits here, past the point where Linux's mcpm_entry_point reads the
	 * poke: the switch would wait for an "inbound alive" that never comes (found by blsim
	 * explore; docs/mcpm.md, "Deviations"). So until it has poked once, it looks again at
	 * each wake-up (the switcher's mcpm_cpu_power_up, which follows the poke's installation,
	 * ends with a SEV or a kick). The same for a CPU that poked for a power-up withdrawn
	 * after it read the poke (a switch given up): it came up anyway, and a later power-up
	 * that finds it here is another switch's, whose poke it has not fired. */
	uint32_t vector;
	while ((vector = shm_rd(m, cpu, BLS_MCPM_ENTRY_VECTOR(cl, i))) == 0) {
		wfe(m, cpu);
		if (m->poke_again[cl][i]) {
			m->poke_again[cl][i] = 0;
			poked = 0;
		}
		if (!poked) {
			const uint32_t late = shm_rd(m, cpu, BLS_MCPM_POKE_ADDR(cl, i));
			if (late) {
				hw->ops->mmio_write32(hw->plat, cpu, late, shm_rd(m, cpu, BLS_MCPM_POKE_VALUE(cl, i)));
				poked = 1;
				m->stats.late_pokes++;
			}
		}
	}
	return vector;
}
