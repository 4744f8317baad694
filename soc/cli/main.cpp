// soc/cli/main.cpp -- the blsim command line: the command table, from which `blsim --help`
// and the dispatch are made; each command is a cmd_*.cpp (commands.h).
//
// Exit status: 0 success, 2 bad input (usage or configuration; nothing written),
// 1 internal error (a simulator bug or an environment failure such as an unwritable --out).
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "blsim/soc/args.h"
#include "blsim/soc/child_runs.h"
#include "blsim/soc/exit_codes.h"
#include "blsim/soc/scenario.h"
#include "commands.h"

namespace blsim::cli {

int usage_error(const std::string& message)
{
    std::cerr << "blsim: " << message << "\n(see 'blsim --help')\n";
    return blsim::soc::exit_usage;
}

} // namespace blsim::cli

namespace {

using blsim::cli::arguments;
using blsim::soc::exit_failed;
using blsim::soc::exit_ok;
namespace cmdline = blsim::soc::cmdline;

int cmd_config_reference(const arguments&)
{
    std::cout << blsim::soc::config_reference_markdown();
    return exit_ok;
}

struct command {
    const char* name;
    const char* synopsis; // in blsim --help, one line per form
    const char* summary;
    int (*handler)(const arguments& args);
};

const command commands[] = {
    {"run", "run [SCENARIO] [--out DIR] [--set KEY=VALUE]... [--trace KIND]... [--rtapp-log DIR] [--quiet]",
     "simulate a scenario (default: the built-in BBench study)", blsim::cli::cmd_run},
    {"compare", "compare [-j N] [--json] [--keep DIR] [--set KEY=VALUE]... SCENARIO_OR_RUN_DIR...",
     "run or read several scenarios and tabulate them against the first", blsim::cli::cmd_compare},
    {"regress", "regress [DIR] [-j N] [--bless] [--only NAME]...",
     "run the regression cases and check their numbers against the goldens", blsim::cli::cmd_regress},
    {"sweep",
     "sweep SPEC --out DIR [-j N] [--shard K/N]\n"
     "sweep merge --out DIR SHARD_DIR...\n"
     "sweep pareto DIR --perf METRIC [--baseline B --min-fraction F]",
     "run a scenario over a grid of parameters and seeds, resumably,\n"
     "aggregate metrics per point, and find the best points\n"
     "(docs/sweeps.md)",
     blsim::cli::cmd_sweep},
    {"explore", "explore SCENARIO --seeds N [-j N]",
     "run a scenario under many seeds (with jitter: many interleavings)\n"
     "and report the seeds that break an invariant (docs/explore.md)",
     blsim::cli::cmd_explore},
    {"tune", "tune SPEC --out DIR [-j N] [--trials N] [--min-fraction F]",
     "search a scenario's parameters with an optimiser (Optuna's TPE)\n"
     "for the lowest objective under constraints, resumably\n"
     "(docs/tune.md)",
     blsim::cli::cmd_tune},
    {"config-reference", "config-reference", "print the configuration reference (docs/config.md)",
     cmd_config_reference},
};

std::string main_help()
{
    std::string text = "usage: blsim <command> [options]\n"
                       "\n"
                       "blsim simulates a big.LITTLE SoC (Versatile Express TC2: 2 Cortex-A15 + 3 Cortex-A7)\n"
                       "event by event and accounts its energy.\n"
                       "\n"
                       "commands:\n";
    for (const command& c : commands)
        text += cmdline::help_row(c.synopsis, c.summary);
    return text + "\n"
                  "options:\n" +
           cmdline::help_row("-h, --help", "this text; 'blsim run --help' describes run, and so on") +
           cmdline::help_row("--version", "print the version") +
           "\n"
           "exit status: 0 success, 2 bad input, 1 internal error or environment failure\n";
}

int dispatch(int argc, char** argv)
{
    if (argc < 2)
        return blsim::cli::usage_error("no command given");
    const std::string cmd = argv[1];
    try {
        if (cmd == "-h" || cmd == "--help") {
            std::cout << main_help();
            return exit_ok;
        }
        if (cmd == "--version") {
            std::cout << "blsim " << BLSIM_VERSION << " (SystemC " << sc_core::sc_release() << ")\n";
            return exit_ok;
        }
        for (const command& c : commands)
            if (cmd == c.name)
                return c.handler(arguments(argv + 2, argv + argc));
        return blsim::cli::usage_error("unknown command '" + cmd + "'");
    } catch (const std::filesystem::filesystem_error& e) {
        // The environment, not a bug: a full disk, an unwritable directory.
        std::cerr << "blsim: error: " << (e.path1().empty() ? "" : e.path1().string() + ": ")
                  << e.code().message() << "\n";
        return exit_failed;
    } catch (const std::exception& e) {
        std::cerr << "blsim: internal error: " << e.what() << "\n";
        return exit_failed;
    }
}

} // namespace

int main(int argc, char** argv)
{
    // SystemC prints a banner on first use unless told not to; results go to files and the
    // terminal should show only blsim's own output.
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
    // The runs compare, regress, sweep and explore start are forks of this process that
    // dispatch `blsim run ...` here (child_runs.h).
    blsim::soc::set_self_runner(dispatch);
    return dispatch(argc, argv);
}
