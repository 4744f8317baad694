/* switcher/src/drivers/spc.c -- TC2's power controller (bls/spc.h). */
#include "bls/spc.h"

static uint32_t spc_read(const struct bls_hw *hw, unsigned cpu, uint32_t off)
{
	return hw->ops->mmio_read32(hw->plat, cpu, hw->spc_base + off);
}

static void spc_write(const struct bls_hw *hw, unsigned cpu, uint32_t off, uint32_t v)
{
	hw->ops->mmio_write32(hw->plat, cpu, hw->spc_base + off, v);
}

static void wake_mask_update(const struct bls_hw *hw, unsigned cpu, uint32_t bits, int set)
{
	/* A read-modify-write: the mask is shared by every CPU (callers hold MCPM's lock). */
	uint32_t mask = spc_read(hw, cpu, BLS_SPC_WAKE_INT_MASK);
	mask = set ? mask | bits : mask & ~bits;
	spc_write(hw, cpu, BLS_SPC_WAKE_INT_MASK, mask);
}

void bls_spc_cpu_wakeup_irq(const struct bls_hw *hw, unsigned cpu, unsigned target, int set)
{
	wake_mask_update(hw, cpu, bls_spc_wake_cpu(hw, target), set);
}

void bls_spc_global_wakeup_irq(const struct bls_hw *hw, unsigned cpu, int set)
{
	wake_mask_update(hw, cpu, BLS_SPC_WAKE_GLOBAL, set);
}

void bls_spc_set_resume_addr(const struct bls_hw *hw, unsigned cpu, unsigned target, uint32_t addr)
{
	spc_write(hw, cpu, bls_spc_bx_addr(hw, target), addr);
}

void bls_spc_powerdown(const struct bls_hw *hw, unsigned cpu, unsigned cluster, int enable)
{
	spc_write(hw, cpu, BLS_SPC_PWRDN_EN(cluster), enable ? 1u : 0u);
}

void bls_spc_perf_request(const struct bls_hw *hw, unsigned cpu, unsigned cluster, unsigned level)
{
	spc_write(hw, cpu, BLS_SPC_PERF_LVL(cluster), level);
}

uint32_t bls_spc_read_status(const struct bls_hw *hw, unsigned cpu)
{
	return spc_read(hw, cpu, BLS_SPC_PWC_STATUS);
}
