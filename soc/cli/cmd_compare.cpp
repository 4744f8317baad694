// soc/cli/cmd_compare.cpp -- `blsim compare` (docs/compare.md; soc/batch/src/compare.cpp).
#include <string>

#include "blsim/soc/args.h"
#include "blsim/soc/compare.h"
#include "commands.h"

namespace blsim::cli {

namespace {

namespace cmdline = blsim::soc::cmdline;

std::string compare_help()
{
    blsim::soc::compare_options unused;
    return "usage: blsim compare [-j N] [--json] [--keep DIR] [--report DIR] [--set KEY=VALUE]...\n"
           "                     SCENARIO_OR_RUN_DIR...\n"
           "\n"
           "Compare two or more runs, each relative to the first (docs/compare.md). An argument is a\n"
           "scenario (a YAML file, run now as 'blsim run -q') or a run directory holding summary.json\n"
           "(read as it is). Prints one table, a row per argument in the order given: scenario, score,\n"
           "page-load total (s), audio deadline misses, energy (J), average power (mW) and switches,\n"
           "each as value (ratio to the first row); '-' where a run does not report it.\n"
           "\n" +
           cmdline::option_lines(blsim::soc::compare_command(unused).options) +
           "\n"
           "Every argument is checked, and every scenario loaded, before anything runs: a bad one\n"
           "exits 2 with nothing run. A run that fails shows its last stderr lines and the comparison\n"
           "exits with its class: 2 if it exited 2 (bad input), 1 otherwise.\n";
}

} // namespace

int cmd_compare(const arguments& args)
{
    return batch_command<blsim::soc::compare_options>(args, blsim::soc::parse_compare_args, compare_help,
                                                      blsim::soc::run_compare);
}

} // namespace blsim::cli
