/* switcher/src/platform_ops.c -- registration checks for the platform operations table. */
#include "bls/platform_ops.h"

#include <stddef.h>

int bls_platform_ops_check(const struct bls_platform_ops *ops)
{
	if (!ops || !ops->now_ns || !ops->cpu_execute || !ops->cpu_wait_for_interrupt ||
	    !ops->cpu_wait_for_event || !ops->cpu_dsb || !ops->cpu_send_event ||
	    !ops->cpu_power_down || !ops->mmio_read32 || !ops->mmio_write32 || !ops->shm_read ||
	    !ops->shm_write || !ops->cache_clean_invalidate || !ops->cpu_irq_mask ||
	    !ops->mem_read_uncached || !ops->cpu_delay_cycles || !ops->trace)
		return -BLS_ENOSYS;
	return 0;
}
