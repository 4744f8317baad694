// model/src/power_state.cpp
#include "blsim/model/power_state.h"

namespace blsim::model {

const char* to_string(core_power s)
{
    switch (s) {
    case core_power::on: return "on";
    case core_power::wfi: return "wfi";
    case core_power::off: return "off";
    }
    return "?";
}

const char* to_string(cluster_power s)
{
    switch (s) {
    case cluster_power::on: return "on";
    case cluster_power::off: return "off";
    case cluster_power::powering_up: return "powering_up";
    case cluster_power::powering_down: return "powering_down";
    }
    return "?";
}

} // namespace blsim::model
