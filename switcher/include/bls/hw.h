/* switcher/include/bls/hw.h -- the SoC description the C stack needs, and its small drivers
 * for the GIC-400 and the CCI-400 (the roles of irq-gic.c and arm-cci.c in Linux).
 *
 * struct bls_hw plays the device tree's part: where the devices are and how CPUs map to
 * clusters and interconnect ports. The drivers only use the mmio verbs of the platform, so
 * every register access costs the calling CPU its latency.
 */
#ifndef BLS_HW_H
#define BLS_HW_H

#include "bls/mutant.h"
#include "bls/platform_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bls_hw {
	const struct bls_platform_ops *ops;
	void *plat;
	unsigned ncpus;
	unsigned nclusters;
	unsigned cpu_cluster[BLS_MAX_CPUS];        /* cluster of each CPU */
	unsigned cluster_cci_port[BLS_MAX_CLUSTERS]; /* CCI slave interface of each cluster */
	uint64_t gic_dist_base;
	uint64_t gic_cpu_base;
	uint64_t cci_base;
	uint64_t shm_base; /* strongly-ordered shared memory (SRAM) for power management */
	uint64_t spc_base; /* the power controller's registers (bls/spc.h) */
	unsigned spc_irq;  /* its completion interrupt: a level-sensitive SPI */
	unsigned timer_ppi; /* the per-CPU timer interrupt (30 on ARMv7 generic timers) */
	unsigned gic_nirqs; /* interrupts the distributor implements: 32 + SPIs */
	unsigned spc_wide;  /* the power controller has the wide layout (bls/spc.h): a cluster of more than 4 cores */
	unsigned mutant;    /* enum bls_mutant: a known-bad variant to run (bls/mutant.h); 0: none */
};

/* bls_hw_cpu_index - @cpu's index within its cluster (CPUs are numbered cluster by cluster:
 * the index counts the CPUs of its cluster before it). */
static inline unsigned bls_hw_cpu_index(const struct bls_hw *hw, unsigned cpu)
{
	unsigned i = 0;
	for (unsigned c = 0; c < cpu; c++)
		if (hw->cpu_cluster[c] == hw->cpu_cluster[cpu])
			i++;
	return i;
}

/* bls_hw_cluster_cpus - how many CPUs cluster @cl has. */
static inline unsigned bls_hw_cluster_cpus(const struct bls_hw *hw, unsigned cl)
{
	unsigned n = 0;
	for (unsigned c = 0; c < hw->ncpus; c++)
		n += hw->cpu_cluster[c] == cl;
	return n;
}

/* GICv2 register offsets used here (architecture specification). */
#define BLS_GICD_CTLR 0x000
#define BLS_GICD_ISENABLER 0x100
#define BLS_GICD_IPRIORITYR 0x400
#define BLS_GICD_ITARGETSR 0x800
#define BLS_GICD_ICFGR 0xc00
#define BLS_GICD_SGIR 0xf00
#define BLS_GICD_CPENDSGIR 0xf10
#define BLS_GICD_SPENDSGIR 0xf20
#define BLS_GICC_CTLR 0x00
#define BLS_GICC_PMR 0x04
#define BLS_GICC_IAR 0x0c
#define BLS_GICC_EOIR 0x10
#define BLS_GIC_SPURIOUS 1023u
#define BLS_GIC_IRQ_PRIORITY 0xa0u /* every interrupt this kernel enables */
#define BLS_GIC_PMR_UNMASKED 0xf0u

/* CCI-400 register offsets. */
#define BLS_CCI_STATUS 0x000c
#define BLS_CCI_SNOOP_CONTROL(slave) (0x1000u * ((slave) + 1u))
#define BLS_CCI_ENABLE_REQ 0x3u /* snoops and DVM messages */
#define BLS_CCI_CHANGE_PENDING 0x1u
/* How long the driver polls a port change before it asks again, and how many times it asks
 * before it gives up on the port. */
#define BLS_CCI_TIMEOUT_NS 1000000u
#define BLS_CCI_TRIES 3u

/* bls_gic_dist_init - enable the distributor. Runs on the boot CPU, once. */
void bls_gic_dist_init(const struct bls_hw *hw, unsigned cpu);

/* bls_gic_cpu_init - enable @cpu's timer interrupt and its CPU interface. Runs on @cpu, at
 * boot and after every power-up (both are banked per CPU). */
void bls_gic_cpu_init(const struct bls_hw *hw, unsigned cpu);

/* A CPU's banked GIC state that cpu_pm saves across a power-down or a switch (Linux's
 * gic_cpu_save: the private interrupts' enables and configuration). */
struct bls_gic_cpu_state {
	uint32_t enable;
	uint32_t config[2];
};

/* bls_gic_cpu_save - read @cpu's banked state into @st (3 register reads). Runs on @cpu. */
void bls_gic_cpu_save(const struct bls_hw *hw, unsigned cpu, struct bls_gic_cpu_state *st);

/* bls_gic_cpu_restore - write @st back to @cpu's banked registers, the private interrupts'
 * priorities to the kernel's, then open and enable its CPU interface (Linux's
 * gic_cpu_restore: 13 register writes). Runs on @cpu. */
void bls_gic_cpu_restore(const struct bls_hw *hw, unsigned cpu, const struct bls_gic_cpu_state *st);

/* bls_gic_cpu_if_down - turn @cpu's CPU interface off, cutting its IRQ line, as Linux's
 * gic_cpu_if_down() before a power-down: from then on only the power controller, through
 * the GIC's wake output, reacts to interrupts for @cpu. Runs on @cpu. */
void bls_gic_cpu_if_down(const struct bls_hw *hw, unsigned cpu);

/* bls_gic_handle_irqs - acknowledge and end every interrupt pending on @cpu; returns how
 * many. Runs on @cpu. */
unsigned bls_gic_handle_irqs(const struct bls_hw *hw, unsigned cpu);

/* bls_gic_route_spi - enable SPI @irq at the kernel's priority, targeted at @target only.
 * Runs on @cpu. */
void bls_gic_route_spi(const struct bls_hw *hw, unsigned cpu, unsigned irq, unsigned target);

/* bls_gic_route_spi_to - the same, targeted at every CPU of @targets (a bit each): the GIC
 * delivers it to one of them, the first to acknowledge it (1-of-N). Runs on @cpu. */
void bls_gic_route_spi_to(const struct bls_hw *hw, unsigned cpu, unsigned irq, uint32_t targets);

/* bls_gic_set_level_triggered - SPI @irq is level-sensitive (its line stays high until the
 * device is serviced), not edge-triggered. Runs on @cpu. */
void bls_gic_set_level_triggered(const struct bls_hw *hw, unsigned cpu, unsigned irq);

/* bls_gic_send_sgi - raise SGI @sgi on CPU interface @target. Runs on @cpu. */
void bls_gic_send_sgi(const struct bls_hw *hw, unsigned cpu, unsigned target, unsigned sgi);

/* Linux's gic_cpu_map and the irq_controller_lock that guards it: the CPU interface each
 * logical CPU's IPIs are raised on. A switch changes it in bls_gic_migrate_target, under the
 * lock that every IPI to a logical CPU takes around reading it and writing GICD_SGIR: an IPI
 * is then either raised on the old interface before the migration looks for pending SGIs
 * (and is forwarded), or on the new one. Without the lock an IPI that read the old entry
 * lands on the outbound after that look and is lost, left pending on a CPU going down (which
 * it wakes, to park at its closed MCPM gate for ever). The lock is an ordinary test-and-set
 * word: between two platform verbs C code runs atomically in the model. */
struct bls_gic_cpu_map {
	unsigned iface[BLS_MAX_CPUS]; /* logical CPU -> CPU interface */
	int locked;
};

/* bls_gic_raise_softirq - Linux's gic_raise_softirq() for one logical CPU: under the lock,
 * raise SGI @sgi on the interface @map gives @logical. Runs on @cpu. */
void bls_gic_raise_softirq(const struct bls_hw *hw, struct bls_gic_cpu_map *map, unsigned cpu,
			   unsigned logical, unsigned sgi);

/* bls_gic_migrate_target - Linux's gic_migrate_target(): under @map's lock, @logical's IPIs
 * go to CPU interface @to from now on and every SPI targeting @from targets @to; then, with
 * the lock released, every SGI pending on @from is cleared and raised again on @to (its
 * source becomes @cpu: the original source is lost, as in Linux). Interrupts masked. Runs on
 * @cpu, which is @from and hosts @logical. */
void bls_gic_migrate_target(const struct bls_hw *hw, struct bls_gic_cpu_map *map, unsigned cpu,
			    unsigned logical, unsigned from, unsigned to);

/* bls_cci_port_control - enable or disable snoops and DVM on @cluster's CCI interface and
 * busy-poll until the change is no longer pending, as arm-cci.c does. Runs on a CPU of
 * @cluster: its last man (after cleaning L1 and L2) to disable, its first man to enable.
 * Returns 0, or -BLS_ETIMEDOUT (reported as a guest error) when the change is still pending
 * after BLS_CCI_TIMEOUT_NS. */
int bls_cci_port_control(const struct bls_hw *hw, unsigned cpu, unsigned cluster, int enable);

#ifdef __cplusplus
}
#endif

#endif /* BLS_HW_H */
