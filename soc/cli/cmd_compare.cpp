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
    const std::vector<cmdline::option> rows = {
        cmdline::note("--jobs", "-j", "N", "at most N runs at once (default: the number of online CPUs)"),
        cmdline::note("--json", nullptr, nullptr, "print a JSON document instead of the table"),
        cmdline::note("--keep", nullptr, "DIR",
            "keep each run's results in DIR/<k>-<scenario stem>/ (k: the\n"
            "argument's position, from 1); by default they go to a temporary\n"
            "directory removed at the end"),
        cmdline::note("--report", nullptr, "DIR",
            "also write DIR/report.html: the runs side by side in pictures\n"
            "(performance against power relative to the first, energy by part),\n"
            "with compare.json; the runs are kept in DIR unless --keep says\n"
            "where (scripts/plot-compare, python3-matplotlib; docs/compare.md)"),
        cmdline::note("--set", nullptr, "KEY=VALUE",
            "override a configuration key in every scenario run (as 'blsim run\n"
            "--set'); repeatable; run directories are read unchanged"),
        cmdline::note("--help", "-h", nullptr, "this text"),
    };
    return "usage: blsim compare [-j N] [--json] [--keep DIR] [--report DIR] [--set KEY=VALUE]...\n"
           "                     SCENARIO_OR_RUN_DIR...\n"
           "\n"
           "Compare two or more runs, each relative to the first (docs/compare.md). An argument is a\n"
           "scenario (a YAML file, run now as 'blsim run -q') or a run directory holding summary.json\n"
           "(read as it is). Prints one table, a row per argument in the order given: scenario, score,\n"
           "page-load total (s), audio deadline misses, energy (J), average power (mW) and switches,\n"
           "each as value (ratio to the first row); '-' where a run does not report it.\n"
           "\n" +
           cmdline::option_lines(rows) +
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
