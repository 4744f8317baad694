// model/include/blsim/model/params.h -- plain parameter structs for the SoC blocks.
//
// The models take these by const reference and never see YAML; soc/ fills them from the
// configuration (see docs/config.md for every field's unit, default and range). Units are in
// the field names.
#pragma once

#include <string>
#include <vector>

namespace blsim::model {

// One operating point of a cluster. Tables are ordered by ascending frequency (as Linux
// OPP tables are); index 0 is the slowest.
struct opp_point {
    int freq_mhz = 0;
    int voltage_mv = 0;
    double core_power_eas = 0;    // EAS energy-model units, one core busy
    double cluster_power_eas = 0; // EAS units, the cluster's shared logic while any core is busy
};

struct dvfs_params {
    double voltage_latency_us = 0; // time for the regulator to settle at a new voltage
    double freq_latency_us = 0;    // time for the PLL to relock at a new frequency
};

struct power_params {
    double core_wfi_entry_us = 0;
    double core_wfi_exit_us = 0;
    double core_off_entry_us = 0;
    double core_off_exit_us = 0;
    double cluster_off_entry_us = 0;
    double cluster_off_exit_us = 0;
    bool cluster_power_down = true; // may the cluster power off when its last core does?
    bool per_core_power_gating = false; // false: an "off" core is held in reset, still leaking
};

// The alternative power model: C*V^2*f dynamic power plus leakage linear in voltage.
struct cv2f_params {
    double core_dyn_uw_per_mhz_v2 = 0;
    double cluster_dyn_uw_per_mhz_v2 = 0;
    double core_leakage_mw_per_v = 0;
    double cluster_leakage_mw_per_v = 0;
};

struct cluster_params {
    std::string name;
    std::string core_type;
    int cores = 0;
    int capacity_dmips_mhz = 0; // per-MHz capacity, as the device tree's capacity-dmips-mhz
    int boot_freq_mhz = 0;      // 0: boot at the highest OPP
    std::vector<opp_point> opps;
    double wfi_power_eas = 0; // cluster powered, every core in WFI
    double off_power_eas = 0; // cluster powered down ("cluster sleep")
    dvfs_params dvfs;
    power_params power;
    cv2f_params cv2f;
};

enum class power_model_kind { eas, cv2f };

struct energy_params {
    power_model_kind model = power_model_kind::eas;
    double eas_mw_per_unit = 0; // how many mW one EAS unit is (docs/calibration.md)
};

struct soc_params {
    std::string name;
    std::vector<cluster_params> clusters;
    energy_params energy;
};

} // namespace blsim::model
