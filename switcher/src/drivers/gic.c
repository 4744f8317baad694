/* switcher/src/drivers/gic.c -- the GIC-400 driver: what the kernel needs of the interrupt
 * controller (bls/hw.h). */
#include "bls/hw.h"

static uint32_t dist_read(const struct bls_hw *hw, unsigned cpu, uint32_t off)
{
	return hw->ops->mmio_read32(hw->plat, cpu, hw->gic_dist_base + off);
}

static void dist_write(const struct bls_hw *hw, unsigned cpu, uint32_t off, uint32_t v)
{
	hw->ops->mmio_write32(hw->plat, cpu, hw->gic_dist_base + off, v);
}

static void cpu_write(const struct bls_hw *hw, unsigned cpu, uint32_t off, uint32_t v)
{
	hw->ops->mmio_write32(hw->plat, cpu, hw->gic_cpu_base + off, v);
}

void bls_gic_dist_init(const struct bls_hw *hw, unsigned cpu)
{
	dist_write(hw, cpu, BLS_GICD_CTLR, 1);
}

void bls_gic_cpu_init(const struct bls_hw *hw, unsigned cpu)
{
	const unsigned ppi = hw->timer_ppi;
	/* Priority: a read-modify-write of the byte's word, as the register is shared by
	 * four interrupts (banked per CPU for private ones). */
	const uint32_t word = BLS_GICD_IPRIORITYR + 4u * (ppi / 4u);
	const unsigned shift = 8u * (ppi % 4u);
	uint32_t prio = dist_read(hw, cpu, word);
	prio = (prio & ~(0xffu << shift)) | (BLS_GIC_IRQ_PRIORITY << shift);
	dist_write(hw, cpu, word, prio);
	dist_write(hw, cpu, BLS_GICD_ISENABLER + 4u * (ppi / 32u), 1u << (ppi % 32u));
	cpu_write(hw, cpu, BLS_GICC_PMR, BLS_GIC_PMR_UNMASKED);
	cpu_write(hw, cpu, BLS_GICC_CTLR, 1);
}

void bls_gic_cpu_save(const struct bls_hw *hw, unsigned cpu, struct bls_gic_cpu_state *st)
{
	st->enable = dist_read(hw, cpu, BLS_GICD_ISENABLER);
	st->config[0] = dist_read(hw, cpu, BLS_GICD_ICFGR);
	st->config[1] = dist_read(hw, cpu, BLS_GICD_ICFGR + 4u);
}

void bls_gic_cpu_restore(const struct bls_hw *hw, unsigned cpu, const struct bls_gic_cpu_state *st)
{
	dist_write(hw, cpu, BLS_GICD_ISENABLER, st->enable);
	dist_write(hw, cpu, BLS_GICD_ICFGR, st->config[0]);
	dist_write(hw, cpu, BLS_GICD_ICFGR + 4u, st->config[1]);
	for (unsigned w = 0; w < 8; w++)
		dist_write(hw, cpu, BLS_GICD_IPRIORITYR + 4u * w, 0x01010101u * BLS_GIC_IRQ_PRIORITY);
	cpu_write(hw, cpu, BLS_GICC_PMR, BLS_GIC_PMR_UNMASKED);
	cpu_write(hw, cpu, BLS_GICC_CTLR, 1);
}

void bls_gic_cpu_if_down(const struct bls_hw *hw, unsigned cpu)
{
	cpu_write(hw, cpu, BLS_GICC_CTLR, 0);
}

unsigned bls_gic_handle_irqs(const struct bls_hw *hw, unsigned cpu)
{
	unsigned n = 0;
	for (;;) {
		uint32_t iar = hw->ops->mmio_read32(hw->plat, cpu, hw->gic_cpu_base + BLS_GICC_IAR);
		if ((iar & 0x3ffu) >= 1020u)
			break; /* spurious: nothing (more) pending */
		/* The timer interrupt carries no data: the released work is already queued.
		 * Later layers hook SGIs (the switcher's "inbound alive") here. */
		cpu_write(hw, cpu, BLS_GICC_EOIR, iar);
		n++;
	}
	return n;
}

void bls_gic_route_spi(const struct bls_hw *hw, unsigned cpu, unsigned irq, unsigned target)
{
	bls_gic_route_spi_to(hw, cpu, irq, 1u << target);
}

void bls_gic_route_spi_to(const struct bls_hw *hw, unsigned cpu, unsigned irq, uint32_t targets)
{
	const uint32_t shift = 8u * (irq % 4u);
	const uint32_t tword = BLS_GICD_ITARGETSR + 4u * (irq / 4u);
	uint32_t t = dist_read(hw, cpu, tword);
	dist_write(hw, cpu, tword, (t & ~(0xffu << shift)) | ((targets & 0xffu) << shift));
	const uint32_t pword = BLS_GICD_IPRIORITYR + 4u * (irq / 4u);
	uint32_t p = dist_read(hw, cpu, pword);
	dist_write(hw, cpu, pword, (p & ~(0xffu << shift)) | (BLS_GIC_IRQ_PRIORITY << shift));
	dist_write(hw, cpu, BLS_GICD_ISENABLER + 4u * (irq / 32u), 1u << (irq % 32u));
}

void bls_gic_set_level_triggered(const struct bls_hw *hw, unsigned cpu, unsigned irq)
{
	/* Two bits per interrupt; bit 1 of the pair set means edge-triggered. */
	const uint32_t word = BLS_GICD_ICFGR + 4u * (irq / 16u);
	const uint32_t v = dist_read(hw, cpu, word);
	dist_write(hw, cpu, word, v & ~(2u << (2u * (irq % 16u))));
}

void bls_gic_send_sgi(const struct bls_hw *hw, unsigned cpu, unsigned target, unsigned sgi)
{
	dist_write(hw, cpu, BLS_GICD_SGIR, (1u << (16u + target)) | (sgi & 0xfu));
}

static void map_lock(const struct bls_hw *hw, struct bls_gic_cpu_map *map, unsigned cpu)
{
	while (map->locked)
		hw->ops->cpu_wait_for_event(hw->plat, cpu);
	map->locked = 1;
}

static void map_unlock(const struct bls_hw *hw, struct bls_gic_cpu_map *map, unsigned cpu)
{
	hw->ops->cpu_dsb(hw->plat, cpu);
	map->locked = 0;
	hw->ops->cpu_send_event(hw->plat, cpu);
}

void bls_gic_raise_softirq(const struct bls_hw *hw, struct bls_gic_cpu_map *map, unsigned cpu,
			   unsigned logical, unsigned sgi)
{
	map_lock(hw, map, cpu);
	bls_gic_send_sgi(hw, cpu, map->iface[logical], sgi);
	map_unlock(hw, map, cpu);
}

void bls_gic_migrate_target(const struct bls_hw *hw, struct bls_gic_cpu_map *map, unsigned cpu,
			    unsigned logical, unsigned from, unsigned to)
{
	map_lock(hw, map, cpu);
	map->iface[logical] = to;
	/* SPI targets: every byte of ITARGETSR from word 8 on (words 0-7 are banked and
	 * read-only) that names @from names @to instead. */
	const uint32_t from_mask = 0x01010101u << from;
	for (unsigned w = 8; w < hw->gic_nirqs / 4u; w++) {
		const uint32_t off = BLS_GICD_ITARGETSR + 4u * w;
		uint32_t v = dist_read(hw, cpu, off);
		uint32_t hit = v & from_mask;
		if (!hit)
			continue;
		v &= ~hit;
		v |= (hit >> from) << to;
		dist_write(hw, cpu, off, v);
	}
	map_unlock(hw, map, cpu);
	/* Pending SGIs: cleared on @from, raised again on @to. */
	for (unsigned w = 0; w < 4 && !BLS_MUTANT(hw, BLS_MUTANT_GIC_FORGETS_PENDING_SGIS); w++) {
		uint32_t pend = dist_read(hw, cpu, BLS_GICD_SPENDSGIR + 4u * w);
		if (!pend)
			continue;
		dist_write(hw, cpu, BLS_GICD_CPENDSGIR + 4u * w, pend);
		for (unsigned k = 0; k < 4; k++)
			if ((pend >> (8u * k)) & 0xffu)
				bls_gic_send_sgi(hw, cpu, to, 4u * w + k);
	}
}
