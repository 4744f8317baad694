/* switcher/src/drivers/cci.c -- the CCI-400 driver: taking a cluster in and out of coherency
 * (bls/hw.h). */
#include "bls/hw.h"

int bls_cci_port_control(const struct bls_hw *hw, unsigned cpu, unsigned cluster, int enable)
{
	const unsigned port = hw->cluster_cci_port[cluster];
	const uint64_t ctl = hw->cci_base + BLS_CCI_SNOOP_CONTROL(port);
	/* Busy-poll, no WFE: the interconnect raises no event when the change completes. Linux
	 * polls for ever; a change still pending after BLS_CCI_TIMEOUT_NS is a port in trouble:
	 * we ask again (the request is idempotent), and after BLS_CCI_TRIES report the port and
	 * leave it, rather than spin a simulation away. */
	for (unsigned tries = 1;; tries++) {
		hw->ops->mmio_write32(hw->plat, cpu, ctl, enable ? BLS_CCI_ENABLE_REQ : 0);
		const uint32_t status = hw->ops->mmio_poll32(hw->plat, cpu, hw->cci_base + BLS_CCI_STATUS,
							     BLS_CCI_CHANGE_PENDING, BLS_CCI_TIMEOUT_NS);
		if (!(status & BLS_CCI_CHANGE_PENDING))
			return 0;
		if (tries == BLS_CCI_TRIES) {
			hw->ops->trace(hw->plat, cpu, BLS_TRACE_GUEST_ERROR, BLS_GUEST_CCI_TIMEOUT, port);
			return -BLS_ETIMEDOUT;
		}
		hw->ops->trace(hw->plat, cpu, BLS_TRACE_GUEST_ERROR, BLS_GUEST_CCI_RETRY, port);
	}
}
