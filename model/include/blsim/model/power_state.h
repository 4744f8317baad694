// model/include/blsim/model/power_state.h -- power states of cores and clusters.
//
// Distinct value ranges per family (as Linux MCPM does) so that a stray value in a trace or
// a debugger is recognisable at once.
#pragma once

namespace blsim::model {

enum class core_power : unsigned {
    on = 0x41,  // powered and clocked: executing work or kernel code
    wfi = 0x42, // clock-gated in WFI, wakes on an interrupt
    off = 0x43, // powered down (or held in reset without per-core gating)
};

enum class cluster_power : unsigned {
    on = 0x51,
    off = 0x52,           // cluster sleep: caches and shared logic powered down
    powering_up = 0x53,   // the power controller is bringing it up: powered, no core runs yet
    powering_down = 0x54, // its last core is off and the controller is taking it down
};

inline constexpr core_power all_core_power[] = {core_power::on, core_power::wfi, core_power::off};
inline constexpr cluster_power all_cluster_power[] = {cluster_power::on, cluster_power::off,
                                                     cluster_power::powering_up,
                                                     cluster_power::powering_down};

const char* to_string(core_power s);
const char* to_string(cluster_power s);

} // namespace blsim::model
