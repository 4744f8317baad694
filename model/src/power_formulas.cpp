// model/src/power_formulas.cpp -- the power formulas of blsim/model/power_formulas.h: plain
// arithmetic over the SoC's parameters, without SystemC, so that the configuration check can
// use them (soc/config/) as the energy meter does.
#include "blsim/model/power_formulas.h"

namespace blsim::model {

double core_leakage_mw(const cluster_params& c, int voltage_mv)
{
    return c.leakage.core_mw * leakage_scale(c.leakage, voltage_mv);
}

double l2_leakage_mw(const cluster_params& c, double l2_kb, int voltage_mv)
{
    return c.leakage.l2_uw_per_kb * 1e-3 * l2_kb * leakage_scale(c.leakage, voltage_mv);
}

double uncore_idle_mw(const cluster_params& c, int freq_mhz, int voltage_mv)
{
    return c.leakage.shared_mw * leakage_scale(c.leakage, voltage_mv) + l2_leakage_mw(c, c.caches.l2_kb, voltage_mv) +
           cv2f_mw(c.clock_uw_per_mhz_v2, freq_mhz, voltage_mv);
}

double eas_uncore_busy_mw(const cluster_params& c, int opp, int voltage_mv)
{
    // The table's cluster power was measured at the OPP's own supply with the other cores idle:
    // it contains the static power of the cluster as measured (its shared logic, every core,
    // the L2 it had) at that supply. Take that out and put back the static power of the shared
    // logic and of this L2 at the supply the rail is at now (a DVFS transition may hold the
    // rail at another OPP's voltage for a while); the cores draw their leakage themselves.
    const opp_point& o = c.opps.at(opp);
    const int measured_kb = c.eas_l2_kb > 0 ? c.eas_l2_kb : c.caches.l2_kb;
    const double measured_static = c.leakage.shared_mw * leakage_scale(c.leakage, o.voltage_mv) +
                                   c.cores * core_leakage_mw(c, o.voltage_mv) +
                                   l2_leakage_mw(c, measured_kb, o.voltage_mv);
    const double static_now =
        c.leakage.shared_mw * leakage_scale(c.leakage, voltage_mv) + l2_leakage_mw(c, c.caches.l2_kb, voltage_mv);
    return o.cluster_power_eas * c.eas_mw_per_unit - measured_static + static_now;
}

} // namespace blsim::model
