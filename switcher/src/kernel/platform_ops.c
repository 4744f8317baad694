/* switcher/src/kernel/platform_ops.c -- registration checks for the platform operations table. */
#include "bls/platform_ops.h"

#include <stddef.h>
#include <stdlib.h>

#include "bls/check.h"

void bls_check_failed(const struct bls_hw *hw, unsigned cpu, const char *file, int line, const char *check)
{
	if (hw && hw->ops && hw->ops->bug)
		hw->ops->bug(hw->plat, cpu, file, line, check);
	abort(); /* a platform's bug verb must not return */
}

int bls_platform_ops_check(const struct bls_platform_ops *ops)
{
	if (!ops || !ops->now_ns || !ops->cpu_execute || !ops->cpu_wait_for_interrupt ||
	    !ops->cpu_wait_for_event || !ops->cpu_dsb || !ops->cpu_send_event ||
	    !ops->cpu_power_down || !ops->mmio_read32 || !ops->mmio_write32 || !ops->mmio_poll32 || !ops->shm_read ||
	    !ops->shm_write || !ops->cache_clean_invalidate || !ops->cpu_irq_mask ||
	    !ops->mem_read_uncached || !ops->cpu_delay_cycles || !ops->timer_set ||
	    !ops->timer_get || !ops->bug || !ops->trace)
		return -BLS_ENOSYS;
	return 0;
}
