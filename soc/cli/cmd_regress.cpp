// soc/cli/cmd_regress.cpp -- `blsim regress` (docs/regress.md; soc/batch/src/regress.cpp).
#include <string>

#include "blsim/soc/args.h"
#include "blsim/soc/regress.h"
#include "commands.h"

namespace blsim::cli {

namespace {

namespace cmdline = blsim::soc::cmdline;

std::string regress_help()
{
    blsim::soc::regress_options unused;
    return "usage: blsim regress [DIR] [-j N] [--bless] [--only NAME]...\n"
           "\n"
           "Run every regression case DIR/NAME.yaml (default DIR: configs/regress, the repository's\n"
           "own set when run from its root; docs/regress.md) as 'blsim run -q', and compare each\n"
           "metric it names in the run's summary.json with its golden value in DIR/NAME.golden.json.\n"
           "Prints a table (case, metric, golden, value, drift, relative drift, tolerance, status:\n"
           "PASS, DRIFT, MISSING, NO-GOLDEN or RUN-FAILED) and a summary line.\n"
           "\n" +
           cmdline::option_lines(blsim::soc::regress_command(unused).options) +
           "\n"
           "Every case, its scenario and its golden file are checked before anything runs; a problem\n"
           "is printed as file:line:col: message. Exit status: 0 every metric within its tolerance\n"
           "(with --bless: the goldens written), 1 a metric drifted or missing, a golden missing or a\n"
           "run failed, 2 bad input.\n";
}

} // namespace

int cmd_regress(const arguments& args)
{
    return batch_command<blsim::soc::regress_options>(args, blsim::soc::parse_regress_args, regress_help,
                                                      blsim::soc::run_regress);
}

} // namespace blsim::cli
