// soc/cli/cmd_tune.cpp -- `blsim tune` (docs/tune.md): scripts/tune parses the search's
// options; soc/batch/src/tune.cpp starts it, and answers -h/--help and its override checks.
#include <iostream>

#include "blsim/soc/tune.h"
#include "commands.h"

namespace blsim::cli {

int cmd_tune(const arguments& args) { return blsim::soc::run_tune(args, std::cout, std::cerr); }

} // namespace blsim::cli
