// soc/report/src/results_text.h -- what summary_json.cpp and human_summary.cpp both print.
#pragma once

#include <string>

#include "blsim/soc/platform.h"

namespace blsim::soc {

// A kernel mode's name as the scenario spells it ("mode N" for one it has no name for).
inline std::string mode_string(unsigned kernel_mode)
{
    const char* n = mode_name(kernel_mode);
    return n ? n : "mode " + std::to_string(kernel_mode);
}

} // namespace blsim::soc
