// model/include/blsim/model/power_formulas.h -- the power formulas every power model and the
// configuration check share: plain arithmetic over the SoC's parameters (params.h), no
// SystemC, no state.
#pragma once

#include <cmath>

#include "blsim/model/params.h"

namespace blsim::model {

// exp((V - ref) / e-fold): how much a leakage given at ref_mv grows at @voltage_mv. Inline,
// as these two were in energy.cpp: the energy meter prices every state change with them.
inline double leakage_scale(const leakage_params& l, int voltage_mv)
{
    return std::exp((voltage_mv - l.ref_mv) / l.e_fold_mv);
}
// C·V²·f: uW/MHz/V^2 * MHz * V^2 = uW, returned in mW.
inline double cv2f_mw(double uw_per_mhz_v2, int freq_mhz, int voltage_mv)
{
    const double v = voltage_mv * 1e-3;
    return uw_per_mhz_v2 * freq_mhz * v * v * 1e-3;
}

// The leakage terms at @voltage_mv, in mW: one powered core; @l2_kb of L2 RAM; and a powered
// cluster's shared logic while every core is idle (its logic's and its L2's leakage, and its
// clock at @freq_mhz).
double core_leakage_mw(const cluster_params& cluster, int voltage_mv);
double l2_leakage_mw(const cluster_params& cluster, double l2_kb, int voltage_mv);
double uncore_idle_mw(const cluster_params& cluster, int freq_mhz, int voltage_mv);
// The shared logic's power at OPP @opp with a core busy and the rail at @voltage_mv (the OPP's
// own, or another during a DVFS transition), by the EAS tables (what eas_power_model draws):
// the configuration check compares it, at the OPP's voltage, with uncore_idle_mw.
double eas_uncore_busy_mw(const cluster_params& cluster, int opp, int voltage_mv);

} // namespace blsim::model
