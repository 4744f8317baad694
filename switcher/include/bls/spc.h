/* switcher/include/bls/spc.h -- the driver of TC2's power controller (the SPC inside the SCC),
 * the role of Linux's arch/arm/mach-vexpress/spc.c.
 *
 * Register accessors for the MCPM backend (wake-up interrupts, resume addresses, cluster
 * power-down) and the two halves of a performance request: writing PERF_LVL, and reading the
 * response when the SPC's completion interrupt arrives. The SPC runs one request at a time;
 * serialising them (Linux's semaphore) is the caller's part: the big.LITTLE cpufreq driver
 * keeps the queue (bls/cpufreq.h). Every access is a timed register access of the calling
 * CPU. None of these locks: as in Linux, the callers hold the lock that protects the state.
 */
#ifndef BLS_SPC_H
#define BLS_SPC_H

#include "bls/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Register offsets from hw->spc_base (spc.c's names; cluster c, core k of its cluster). TC2's
 * SPC serves two clusters; clusters 2 and 3 are the model's extension into the room TC2's
 * layout leaves (docs/hardware.md, "Power controller"). */
#define BLS_SPC_PERF_LVL(c) ((c) < 2u ? 0x08u * (c) : 0x40u + 0x08u * ((c) - 2u))
#define BLS_SPC_PWC_STATUS 0x18u
#define BLS_SPC_WAKE_INT_MASK 0x24u
#define BLS_SPC_PWRDN_EN(c) (0x30u + 4u * (c))
#define BLS_SPC_BX_ADDR(c, k) (0x68u + 0x10u * (c) + 4u * (k))
/* PWC_STATUS responses of a performance request of cluster c. */
#define BLS_SPC_STAT_COMPLETE(c) (1u << (4u * (c)))
#define BLS_SPC_STAT_ERR(c) (2u << (4u * (c)))
/* PWC_STATUS: the power-up of core k of cluster c failed; the SPC gave up after its timeout and
 * cleared the core's WAKE_INT_MASK bit (the wake-up is software's to re-arm). */
#define BLS_SPC_STAT_PWRUP_ERR(c, k) (1u << (16u + 4u * (c) + (k)))
#define BLS_SPC_STAT_PWRUP_ERR_ALL 0xffff0000u
/* WAKE_INT_MASK: core k of cluster c, and the global wake-ups (watchdog, global timer). */
#define BLS_SPC_WAKE_CPU(c, k) (1u << ((c) < 2u ? 4u * (c) + (k) : 16u + 4u * ((c) - 2u) + (k)))
#define BLS_SPC_WAKE_GLOBAL (3u << 10)
/* The wide layout, the model's extension for SoCs with a cluster of more than 4 cores (none on
 * TC2; hw->spc_wide says which layout the power controller has): the per-core fields are
 * indexed by the CPU's number n (0..7), not by cluster and core. BX_ADDR words at 0x68 + 4n,
 * WAKE_INT_MASK bit n (the global wake-ups stay at bits 10-11), PWC_STATUS power-up error bit
 * 16 + n. The other registers are TC2's. */
#define BLS_SPC_WIDE_MAX_CPUS 8u
#define BLS_SPC_BX_ADDR_WIDE(n) (0x68u + 4u * (n))
#define BLS_SPC_WAKE_CPU_WIDE(n) (1u << (n))
#define BLS_SPC_STAT_PWRUP_ERR_WIDE(n) (1u << (16u + (n)))

/* The per-core fields of CPU @cpu in the layout @hw's power controller has. */
static inline uint32_t bls_spc_bx_addr(const struct bls_hw *hw, unsigned cpu)
{
	return hw->spc_wide ? BLS_SPC_BX_ADDR_WIDE(cpu)
			    : BLS_SPC_BX_ADDR(hw->cpu_cluster[cpu], bls_hw_cpu_index(hw, cpu));
}

static inline uint32_t bls_spc_wake_cpu(const struct bls_hw *hw, unsigned cpu)
{
	return hw->spc_wide ? BLS_SPC_WAKE_CPU_WIDE(cpu)
			    : BLS_SPC_WAKE_CPU(hw->cpu_cluster[cpu], bls_hw_cpu_index(hw, cpu));
}

static inline uint32_t bls_spc_stat_pwrup_err(const struct bls_hw *hw, unsigned cpu)
{
	return hw->spc_wide ? BLS_SPC_STAT_PWRUP_ERR_WIDE(cpu)
			    : BLS_SPC_STAT_PWRUP_ERR(hw->cpu_cluster[cpu], bls_hw_cpu_index(hw, cpu));
}

/* bls_spc_cpu_wakeup_irq - let an interrupt wake @target from power-down (@set), or not.
 * Runs on @cpu. */
void bls_spc_cpu_wakeup_irq(const struct bls_hw *hw, unsigned cpu, unsigned target, int set);

/* bls_spc_global_wakeup_irq - the global wake-up sources on (@set) or off. Runs on @cpu. */
void bls_spc_global_wakeup_irq(const struct bls_hw *hw, unsigned cpu, int set);

/* bls_spc_set_resume_addr - where @target resumes after a warm reset (0: nowhere).
 * Runs on @cpu. */
void bls_spc_set_resume_addr(const struct bls_hw *hw, unsigned cpu, unsigned target, uint32_t addr);

/* bls_spc_powerdown - let @cluster power down with its last core (@enable), or not.
 * Runs on @cpu. */
void bls_spc_powerdown(const struct bls_hw *hw, unsigned cpu, unsigned cluster, int enable);

/* bls_spc_perf_request - ask the SPC to move @cluster to OPP @level (an index into its
 * table). The caller owns the SPC: no other request may be in flight. Completion is
 * signalled by the SPC's interrupt (hw->spc_irq). Runs on @cpu. */
void bls_spc_perf_request(const struct bls_hw *hw, unsigned cpu, unsigned cluster, unsigned level);

/* bls_spc_read_status - the responses of finished requests (PWC_STATUS): DVFS completions and
 * errors, power-up errors; reading it acknowledges them all and the interrupt, so the one
 * interrupt handler reads it once and hands each part to its owner. Runs on @cpu. */
uint32_t bls_spc_read_status(const struct bls_hw *hw, unsigned cpu);

#ifdef __cplusplus
}
#endif

#endif /* BLS_SPC_H */
