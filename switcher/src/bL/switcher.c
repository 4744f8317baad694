/* switcher/src/bL/switcher.c -- the In-Kernel Switcher (bls/switcher.h; the sequence and its
 * sources: docs/switcher.md). */
#include "bls/switcher.h"

#include <stddef.h>
#include <string.h>

#include "bls/check.h"

static const struct bls_platform_ops *ops(const struct bls_switcher *sw)
{
	return sw->hw->ops;
}

static void trace(struct bls_switcher *sw, unsigned cpu, unsigned ev, unsigned a, unsigned b)
{
	ops(sw)->trace(sw->hw->plat, cpu, ev, a, b);
}

static void delay(struct bls_switcher *sw, unsigned cpu, uint32_t cycles)
{
	if (cycles)
		ops(sw)->cpu_delay_cycles(sw->hw->plat, cpu, cycles);
}

/* Every phase change goes through here, which checks it is one of the drawn transitions. */
static void set_phase(struct bls_switcher *sw, unsigned l, enum bls_switch_phase to)
{
	const enum bls_switch_phase from = sw->req[l].phase;
	BLS_CHECK(sw->hw, BLS_CHECK_ANY_CPU,
		  (from == BLS_SWITCH_IDLE && to == BLS_SWITCH_ARMED) ||
			  (from == BLS_SWITCH_ARMED && to == BLS_SWITCH_ALIVE) ||
			  (from == BLS_SWITCH_ARMED && to == BLS_SWITCH_IDLE) || /* given up */
			  (from == BLS_SWITCH_ALIVE && to == BLS_SWITCH_BLACKOUT) ||
			  (from == BLS_SWITCH_BLACKOUT && to == BLS_SWITCH_IDLE));
	sw->req[l].phase = to;
}

enum bls_switch_phase bls_switcher_phase(const struct bls_switcher *sw, unsigned logical)
{
	return sw->req[logical].phase;
}

/* --- pairing ----------------------------------------------------------------------------- */

int bls_switcher_init(struct bls_switcher *sw, const struct bls_hw *hw, struct bls_mcpm *mcpm,
		      const struct bls_switcher_config *cfg)
{
	if (!sw || !hw || !mcpm || !cfg)
		return -BLS_EINVAL;
	memset(sw, 0, sizeof(*sw));
	sw->hw = hw;
	sw->mcpm = mcpm;
	sw->cfg = *cfg;
	for (unsigned c = 0; c < BLS_MAX_CPUS; c++) {
		sw->req[c].wanted = -1;
		sw->req[c].phase = BLS_SWITCH_IDLE;
	}

	/* The pairs, whether or not the switcher starts on. */
	if (hw->nclusters == 2 && cfg->boot_cluster <= 1) {
		const unsigned home = cfg->boot_cluster, other = 1u - home;
		int taken[BLS_MAX_CPUS] = {0};
		for (unsigned c = 0; c < hw->ncpus; c++) {
			if (hw->cpu_cluster[c] != home)
				continue;
			/* Linux remembers the *last* match on purpose, to create "odd" pairings so
			 * that nothing assumes a relation between logical and physical numbers. */
			int match = -1;
			for (unsigned o = 0; o < hw->ncpus; o++) {
				if (hw->cpu_cluster[o] != other || taken[o])
					continue;
				match = (int)o;
				if (cfg->pairing == BLS_PAIRING_IN_ORDER)
					break;
			}
			if (match < 0)
				break;
			taken[match] = 1;
			/* The logical CPU keeps its boot-cluster CPU's number (as Linux's do). */
			const unsigned l = sw->npairs++;
			if (l != c)
				return -BLS_EINVAL; /* the boot cluster's CPUs must come first */
			sw->pair[l][home] = c;
			sw->pair[l][other] = (unsigned)match;
		}
	}
	if (cfg->enabled && sw->npairs == 0)
		return -BLS_EINVAL;
	sw->cfg.enabled = !cfg->enabled; /* so that set_active below changes the map */
	return bls_switcher_set_active(sw, cfg->enabled);
}

int bls_switcher_set_active(struct bls_switcher *sw, int active)
{
	const struct bls_hw *hw = sw->hw;
	active = active != 0;
	if (active == sw->cfg.enabled)
		return 0;
	if (active) {
		/* From the switcher off every CPU hosts itself: the pairs are home. */
		if (!sw->npairs)
			return -BLS_EINVAL;
		for (unsigned c = 0; c < BLS_MAX_CPUS; c++)
			sw->hosted[c] = -1;
		sw->nlogical = sw->npairs;
		for (unsigned l = 0; l < sw->npairs; l++) {
			sw->host[l] = l;
			sw->hosted[l] = (int)l;
		}
	} else {
		/* Every pair must be home: the boot-cluster CPU hosts it. */
		for (unsigned l = 0; l < sw->nlogical && sw->cfg.enabled; l++)
			if (sw->host[l] != l)
				return -BLS_EINVAL;
		sw->nlogical = hw->ncpus;
		for (unsigned c = 0; c < hw->ncpus; c++) {
			sw->host[c] = c;
			sw->hosted[c] = (int)c;
		}
	}
	/* Every logical CPU is on its own CPU again: its IPIs go there. */
	for (unsigned l = 0; l < BLS_MAX_CPUS; l++)
		sw->gic_map.iface[l] = l < sw->nlogical ? sw->host[l] : l;
	sw->cfg.enabled = active;
	return 0;
}

int bls_switcher_active(const struct bls_switcher *sw) { return sw->cfg.enabled; }

unsigned bls_switcher_home_cluster(const struct bls_switcher *sw) { return sw->cfg.boot_cluster; }

unsigned bls_switcher_npairs(const struct bls_switcher *sw) { return sw->npairs; }

unsigned bls_switcher_nlogical(const struct bls_switcher *sw) { return sw->nlogical; }

int bls_switcher_logical_of(const struct bls_switcher *sw, unsigned cpu) { return sw->hosted[cpu]; }

unsigned bls_switcher_host_of(const struct bls_switcher *sw, unsigned logical) { return sw->host[logical]; }

void bls_switcher_send_ipi(struct bls_switcher *sw, unsigned cpu, unsigned logical, unsigned sgi)
{
	bls_gic_raise_softirq(sw->hw, &sw->gic_map, cpu, logical, sgi);
}

unsigned bls_switcher_cluster_of(const struct bls_switcher *sw, unsigned logical)
{
	return sw->hw->cpu_cluster[sw->host[logical]];
}

/* --- requests ---------------------------------------------------------------------------- */

int bls_switch_request(struct bls_switcher *sw, unsigned cpu, unsigned logical, unsigned cluster,
		       bls_switch_done_fn done, void *cookie)
{
	if (!sw->cfg.enabled || logical >= sw->nlogical || cluster >= sw->hw->nclusters)
		return -BLS_EINVAL;
	if (sw->req[logical].done) {
		sw->stats.busy_refusals++;
		return -BLS_EBUSY;
	}
	sw->req[logical].wanted = (int)cluster;
	sw->req[logical].done = done;
	sw->req[logical].cookie = cookie;
	sw->stats.requests++;
	trace(sw, cpu, BLS_TRACE_SWITCH_REQUEST, logical, cluster);
	return 0;
}

int bls_switcher_pending(const struct bls_switcher *sw, unsigned cpu)
{
	const int l = sw->hosted[cpu];
	return l >= 0 && (sw->req[l].wanted >= 0 || sw->req[l].phase != BLS_SWITCH_IDLE);
}

void bls_switcher_alive(struct bls_switcher *sw, unsigned cpu)
{
	const int l = sw->hosted[cpu];
	if (l >= 0 && sw->req[l].phase == BLS_SWITCH_ARMED) {
		set_phase(sw, (unsigned)l, BLS_SWITCH_ALIVE);
		trace(sw, cpu, BLS_TRACE_INBOUND_ALIVE, (unsigned)l, sw->req[l].ib);
	}
}

/* --- turning the switcher on and off (bL_switcher_enable / _disable) ----------------------- */

uint32_t bls_switcher_outgoing(const struct bls_switcher *sw)
{
	uint32_t cpus = 0;
	for (unsigned c = sw->npairs; c < sw->nlogical; c++)
		cpus |= 1u << c;
	return cpus;
}

int bls_switcher_enable(struct bls_switcher *sw)
{
	const int rc = bls_switcher_set_active(sw, 1);
	if (rc == 0)
		sw->stats.enables++;
	return rc;
}

void bls_switcher_bring_home(struct bls_switcher *sw, unsigned cpu)
{
	const unsigned home = sw->cfg.boot_cluster;
	for (unsigned l = 0; l < sw->nlogical; l++) {
		if (bls_switcher_cluster_of(sw, l) == home && sw->req[l].phase == BLS_SWITCH_IDLE) {
			sw->req[l].wanted = -1; /* a pending move away is dropped */
			continue;
		}
		bls_switch_request(sw, cpu, l, home, NULL, NULL);
		if (sw->host[l] != cpu)
			bls_switcher_send_ipi(sw, cpu, l, BLS_SGI_KICK);
	}
}

int bls_switcher_disable(struct bls_switcher *sw)
{
	for (unsigned l = 0; l < sw->nlogical; l++)
		if (sw->host[l] != l || sw->req[l].phase != BLS_SWITCH_IDLE || sw->req[l].wanted >= 0)
			return -BLS_EBUSY;
	const int rc = bls_switcher_set_active(sw, 0);
	if (rc == 0)
		sw->stats.disables++;
	return rc;
}

void bls_switcher_bring_online(struct bls_switcher *sw, unsigned cpu, unsigned target)
{
	bls_mcpm_set_entry_vector(sw->mcpm, cpu, target, BLS_VECTOR_ONLINE);
	bls_mcpm_cpu_power_up(sw->mcpm, cpu, target);
	bls_gic_send_sgi(sw->hw, cpu, target, BLS_SGI_KICK);
}

/* --- the outbound's half (bL_switch_to) -------------------------------------------------- */

/* GICD_SGIR's value for "inbound alive" to outbound @ob: the early poke's. */
static uint32_t alive_sgi(unsigned ob)
{
	return (1u << (16u + ob)) | BLS_SGI_INBOUND_ALIVE;
}

/* Steps 1-5: up to "keep running until the inbound is alive". */
static void switch_arm(struct bls_switcher *sw, unsigned ob, unsigned l, unsigned cluster)
{
	const struct bls_hw *hw = sw->hw;
	const unsigned ib = sw->pair[l][cluster];
	BLS_CHECK(hw, ob, hw->cpu_cluster[ib] == cluster && ib != ob);

	/* The switch is under way from here, before the first platform verb: another CPU that
	 * runs while we close the gates must see it in flight. (Turning the switcher off drops a
	 * move not yet started, and finds the switcher idle: a switch still arming then went on
	 * with the switcher off, its inbound brought online as a CPU of its own, and that CPU
	 * later took the switch's vector for its own idle gate's; found by blsim explore,
	 * switcher-onoff.yaml seed 6521.) Linux's switches are its kthread's: the disable's
	 * homeward request waits behind one in flight. */
	set_phase(sw, l, BLS_SWITCH_ARMED);
	sw->req[l].ib = ib;

	/* Close the gates of both: neither may enter the kernel before we say so. */
	bls_mcpm_set_entry_vector(sw->mcpm, ob, ob, 0);
	bls_mcpm_set_entry_vector(sw->mcpm, ob, ib, 0);

	/* The inbound's very first store will raise "inbound alive" on us. */
	bls_mcpm_set_early_poke(sw->mcpm, ob, ib, (uint32_t)(hw->gic_dist_base + BLS_GICD_SGIR), alive_sgi(ob));

	/* Power it up (possibly with its cluster: milliseconds), and kick it out of any WFI
	 * a racing power-down may have left it in. */
	bls_mcpm_cpu_power_up(sw->mcpm, ob, ib);
	bls_gic_send_sgi(hw, ob, ib, BLS_SGI_KICK);
	sw->req[l].give_up = 0;
	sw->req[l].kicks = 1;
	if (sw->cfg.inbound_timeout_ns)
		sw->req[l].deadline_ns = ops(sw)->now_ns(hw->plat, ob) + sw->cfg.inbound_timeout_ns;
	trace(sw, ob, BLS_TRACE_INBOUND_KICKED, l, ib);
}

/* The switch's completion, on the CPU that hosts the logical CPU now: the inbound, or the
 * outbound when the switch was given up. */
static void complete(struct bls_switcher *sw, unsigned l, unsigned cluster)
{
	bls_switch_done_fn done = sw->req[l].done;
	void *cookie = sw->req[l].cookie;
	if (sw->req[l].wanted == (int)cluster)
		sw->req[l].wanted = -1;
	sw->req[l].done = NULL;
	if (done)
		done(cookie, l, cluster);
}

/* The inbound did not come up: its power-up failed, or it never woke (a lost kick). Linux
 * waits for ever; we withdraw the power-up and stay, unless the inbound got as far as its
 * entry point meanwhile, in which case it will be alive soon after all.
 *
 * The poke's address is cleared first, its value left as it is: an inbound coming up reads
 * the address, then the value (mcpm_entry_point), and a value cleared between the two reads
 * would have it write 0 to GICD_SGIR, an SGI to nobody, its "inbound alive" lost (found by
 * blsim explore, tests/data/faults-giveup-races.yaml seed 4511). One that reads the address before
 * it is cleared pokes; one that reads it after finds none. */
static void switch_give_up(struct bls_switcher *sw, unsigned ob, unsigned l)
{
	const struct bls_hw *hw = sw->hw;
	const unsigned ib = sw->req[l].ib;
	bls_mcpm_set_early_poke(sw->mcpm, ob, ib, 0, alive_sgi(ob));
	if (bls_mcpm_cpu_power_up_cancel(sw->mcpm, ob, ib) != 0) {
		/* Too late to withdraw: it is coming up. Put the poke back (if it read it
		 * cleared, the late poke then fires from its gate at our SEV) and wait for it,
		 * without a deadline. */
		bls_mcpm_set_early_poke(sw->mcpm, ob, ib, (uint32_t)(hw->gic_dist_base + BLS_GICD_SGIR),
					alive_sgi(ob));
		ops(sw)->cpu_send_event(hw->plat, ob);
		sw->req[l].give_up = 0;
		sw->req[l].deadline_ns = BLS_TIMER_OFF;
		return;
	}
	/* Withdrawn. It may come up all the same, having read the poke: its "inbound alive"
	 * then finds the switch over and is ignored, and it waits at its gate (MCPM has it poke
	 * again for a later switch that picks it). */
	set_phase(sw, l, BLS_SWITCH_IDLE);
	sw->stats.aborted++;
	sw->stats.aborted_on_report += sw->req[l].give_up != 0;
	sw->req[l].aborted = 1;
	trace(sw, ob, BLS_TRACE_SWITCH_ABORTED, l, ib);
	/* The request is over, not granted: a new one must ask again. */
	const unsigned here = hw->cpu_cluster[ob];
	sw->req[l].wanted = -1;
	complete(sw, l, here);
}

uint64_t bls_switcher_deadline(const struct bls_switcher *sw, unsigned logical)
{
	if (sw->req[logical].phase != BLS_SWITCH_ARMED || !sw->cfg.inbound_timeout_ns)
		return BLS_TIMER_OFF;
	return sw->req[logical].deadline_ns;
}

int bls_switcher_take_aborted(struct bls_switcher *sw, unsigned logical)
{
	const int a = sw->req[logical].aborted;
	sw->req[logical].aborted = 0;
	return a;
}

int bls_switcher_inbound_failed(struct bls_switcher *sw, unsigned cpu, unsigned target)
{
	for (unsigned l = 0; l < sw->nlogical; l++) {
		if (sw->req[l].phase != BLS_SWITCH_ARMED || sw->req[l].ib != target)
			continue;
		sw->req[l].give_up = 1;
		if (sw->host[l] != cpu)
			bls_switcher_send_ipi(sw, cpu, l, BLS_SGI_KICK);
		return 1;
	}
	return 0;
}

/* An armed switch past its deadline: kick the inbound again, or give up. */
static void switch_timeout(struct bls_switcher *sw, unsigned ob, unsigned l)
{
	const struct bls_hw *hw = sw->hw;
	if (sw->req[l].kicks < BLS_SWITCH_KICKS) {
		sw->req[l].kicks++;
		sw->stats.kick_retries++;
		bls_gic_send_sgi(hw, ob, sw->req[l].ib, BLS_SGI_KICK);
		sw->req[l].deadline_ns = ops(sw)->now_ns(hw->plat, ob) + sw->cfg.inbound_timeout_ns;
		return;
	}
	switch_give_up(sw, ob, l);
}

/* Steps 7-9 and bL_do_switch: the blackout, then our own power-down. */
static uint32_t switch_blackout(struct bls_switcher *sw, unsigned ob, unsigned l)
{
	const struct bls_hw *hw = sw->hw;
	const struct bls_switch_costs *cost = &sw->cfg.costs;
	const unsigned ib = sw->req[l].ib;

	/* The early poke has done its job. */
	bls_mcpm_set_early_poke(sw->mcpm, ob, ib, 0, 0);

	/* From this point we are in the switch's critical zone: no interrupts. */
	set_phase(sw, l, BLS_SWITCH_BLACKOUT);
	ops(sw)->cpu_irq_mask(hw->plat, ob, 1);
	trace(sw, ob, BLS_TRACE_BLACKOUT_BEGIN, l, ib);
	if (BLS_MUTANT(hw, BLS_MUTANT_GATE_OPENED_BEFORE_SAVE)) {
		bls_mcpm_set_entry_vector(sw->mcpm, ob, ib, BLS_VECTOR_SWITCH);
		ops(sw)->cpu_send_event(hw->plat, ob);
	}
	bls_gic_migrate_target(hw, &sw->gic_map, ob, l, ob, ib);
	trace(sw, ob, BLS_TRACE_SWITCH_STEP, l, BLS_STEP_GIC_MIGRATED);
	/* tick_suspend: our timer's deadline goes with the logical CPU, and our timer stops
	 * (a deadline passing now would wake this CPU once it is off). */
	sw->tick_saved[l] = ops(sw)->timer_get(hw->plat, ob);
	ops(sw)->timer_set(hw->plat, ob, BLS_TIMER_OFF);
	delay(sw, ob, cost->tick_suspend);
	/* cpu_pm_enter: the notifiers, among them the GIC's state save. */
	delay(sw, ob, cost->cpu_pm_enter);
	bls_gic_cpu_save(hw, ob, &sw->gic_saved[l]);
	trace(sw, ob, BLS_TRACE_SWITCH_STEP, l, BLS_STEP_CPU_PM_SAVED);

	/* Swap the logical map: cpu_suspend below saves our context where the inbound,
	 * resuming as this logical CPU, will look for it. */
	sw->host[l] = ib;
	sw->hosted[ib] = (int)l;
	sw->hosted[ob] = -1;

	/* cpu_suspend: the context, and the L1 clean (flush_cache_louis). */
	delay(sw, ob, cost->context_save);
	trace(sw, ob, BLS_TRACE_SWITCH_STEP, l, BLS_STEP_CONTEXT_SAVED);
	ops(sw)->cache_clean_invalidate(hw->plat, ob, BLS_CACHE_L1);
	trace(sw, ob, BLS_TRACE_SWITCH_STEP, l, BLS_STEP_L1_CLEANED);

	/* bL_do_switch, on the private stack: handshake, open the inbound's gate, wait. */
	delay(sw, ob, cost->stack_switch);
	const uint64_t handshake = hw->shm_base + BLS_SW_HANDSHAKE(l);
	ops(sw)->shm_write(hw->plat, ob, handshake, 4, 0);
	bls_mcpm_set_entry_vector(sw->mcpm, ob, ib, BLS_VECTOR_SWITCH);
	ops(sw)->cpu_send_event(hw->plat, ob);
	while (ops(sw)->shm_read(hw->plat, ob, handshake, 4) == 0)
		ops(sw)->cpu_wait_for_event(hw->plat, ob);

	/* The inbound runs the logical CPU now; we power down through MCPM. */
	trace(sw, ob, BLS_TRACE_OUTBOUND_DOWN, l, ib);
	return bls_mcpm_cpu_power_down(sw->mcpm, ob);
}

uint32_t bls_switcher_service(struct bls_switcher *sw, unsigned cpu)
{
	const int l = sw->hosted[cpu];
	if (l < 0)
		return 0;
	if (sw->req[l].phase == BLS_SWITCH_IDLE && sw->req[l].wanted >= 0) {
		const unsigned cluster = (unsigned)sw->req[l].wanted;
		if (cluster == sw->hw->cpu_cluster[cpu]) {
			/* Already there: a no-op switch, completed at once. */
			bls_switch_done_fn done = sw->req[l].done;
			void *cookie = sw->req[l].cookie;
			sw->req[l].wanted = -1;
			sw->req[l].done = NULL;
			if (done)
				done(cookie, (unsigned)l, cluster);
			return 0;
		}
		switch_arm(sw, cpu, (unsigned)l, cluster);
		return 0;
	}
	if (sw->req[l].phase == BLS_SWITCH_ARMED) {
		if (sw->req[l].give_up)
			switch_give_up(sw, cpu, (unsigned)l);
		else if (sw->cfg.inbound_timeout_ns &&
			 bls_switcher_deadline(sw, (unsigned)l) <= ops(sw)->now_ns(sw->hw->plat, cpu))
			switch_timeout(sw, cpu, (unsigned)l);
		return 0;
	}
	if (sw->req[l].phase == BLS_SWITCH_ALIVE)
		return switch_blackout(sw, cpu, (unsigned)l);
	return 0;
}

uint32_t bls_switcher_offline(struct bls_switcher *sw, unsigned cpu)
{
	uint32_t v;
	do {
		bls_mcpm_set_entry_vector(sw->mcpm, cpu, cpu, 0);
		v = bls_mcpm_cpu_power_down(sw->mcpm, cpu);
	} while (v != BLS_VECTOR_SWITCH && v != BLS_VECTOR_ONLINE);
	return v;
}

/* --- the inbound's half ------------------------------------------------------------------ */

unsigned bls_switcher_inbound(struct bls_switcher *sw, unsigned ib)
{
	const struct bls_hw *hw = sw->hw;
	const struct bls_switch_costs *cost = &sw->cfg.costs;
	const int li = sw->hosted[ib];
	BLS_CHECK(hw, ib, li >= 0 && "the outbound swapped the logical map before opening our gate");
	const unsigned l = (unsigned)li;
	const unsigned ob = sw->pair[l][1u - hw->cpu_cluster[ib]];
	BLS_CHECK(hw, ib, sw->gic_map.iface[l] == ib && "the GIC migration sends the logical CPU's IPIs here");

	trace(sw, ib, BLS_TRACE_SWITCH_STEP, l, BLS_STEP_GATE_PASSED);
	/* cpu_resume, with caches and MMU off until it turns them on: its instruction fetches
	 * and the saved context come from memory, word by word. Then the context is back and we
	 * run the logical CPU from here. */
	bls_mcpm_set_entry_vector(sw->mcpm, ib, ib, 0);
	ops(sw)->mem_read_uncached(hw->plat, ib, sw->cfg.restore_uncached_words);
	delay(sw, ib, cost->context_restore);
	/* mcpm_cpu_powered_up (on TC2 power controller writes: still in the blackout), then
	 * cpu_pm_exit with the GIC's state restored, then the tick. */
	bls_mcpm_cpu_powered_up(sw->mcpm, ib);
	delay(sw, ib, cost->cpu_pm_exit);
	bls_gic_cpu_restore(hw, ib, &sw->gic_saved[l]);
	/* tick_resume: the logical CPU's deadline on our timer (already past: it fires now). */
	ops(sw)->timer_set(hw->plat, ib, sw->tick_saved[l]);
	delay(sw, ib, cost->tick_resume);

	/* This switch is over for the logical CPU: a new request may start from here. */
	set_phase(sw, l, BLS_SWITCH_IDLE);

	/* Interrupts on: the blackout is over. */
	trace(sw, ib, BLS_TRACE_BLACKOUT_END, l, ob);
	ops(sw)->cpu_irq_mask(hw->plat, ib, 0);

	/* Release the outbound. */
	ops(sw)->cpu_dsb(hw->plat, ib);
	ops(sw)->shm_write(hw->plat, ib, hw->shm_base + BLS_SW_HANDSHAKE(l), 4, 1);
	ops(sw)->cpu_send_event(hw->plat, ib);

	sw->stats.switches++;
	const unsigned cluster = hw->cpu_cluster[ib];
	complete(sw, l, cluster);
	trace(sw, ib, BLS_TRACE_SWITCH_DONE, l, cluster);
	return l;
}
