/* switcher/src/cci.c -- the CCI-400 driver: taking a cluster in and out of coherency
 * (bls/hw.h). */
#include "bls/hw.h"

void bls_cci_port_control(const struct bls_hw *hw, unsigned cpu, unsigned cluster, int enable)
{
	const uint64_t ctl = hw->cci_base + BLS_CCI_SNOOP_CONTROL(hw->cluster_cci_port[cluster]);
	hw->ops->mmio_write32(hw->plat, cpu, ctl, enable ? BLS_CCI_ENABLE_REQ : 0);
	/* Busy-poll, no WFE: the interconnect raises no event when the change completes. */
	while (hw->ops->mmio_read32(hw->plat, cpu, hw->cci_base + BLS_CCI_STATUS) &
	       BLS_CCI_CHANGE_PENDING)
		;
}
