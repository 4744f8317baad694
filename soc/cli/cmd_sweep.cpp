// soc/cli/cmd_sweep.cpp -- `blsim sweep`, `sweep merge` and `sweep pareto` (docs/sweeps.md;
// soc/batch/src/sweep*.cpp).
#include <string>

#include "blsim/soc/args.h"
#include "blsim/soc/sweep.h"
#include "commands.h"

namespace blsim::cli {

namespace {

namespace cmdline = blsim::soc::cmdline;

std::string sweep_help()
{
    blsim::soc::sweep_options unused;
    return "usage: blsim sweep SPEC --out DIR [-j N] [--shard K/N]\n"
           "       blsim sweep merge --out DIR SHARD_DIR...\n"
           "       blsim sweep pareto DIR --perf METRIC [--cost METRIC] [--baseline B]\n"
           "                          [--min-fraction F | --min-perf V] [--no-plot]\n"
           "\n"
           "Run the base scenario of SPEC (a YAML file, docs/sweeps.md) at every point of its\n"
           "parameter grid, once per seed, each run its own 'blsim run -q' process, into\n"
           "DIR/points/<id>/seed-<S>/; then write DIR/results.csv and DIR/results.json: per point,\n"
           "each metric's mean, sample standard deviation and count over the seeds. DIR/manifest.json\n"
           "lists the points. Running the same command again resumes: finished runs are kept, failed\n"
           "and interrupted ones are redone.\n"
           "\n" +
           cmdline::option_lines(blsim::soc::sweep_command(unused).options) +
           "\n"
           "The spec and every point's overrides are checked before anything runs (file:line:col:\n"
           "message). Exit status: 0 every run succeeded, 1 a run failed (recorded as\n"
           "DIR/points/<id>/seed-<S>.failed; the others still run), 2 bad input, nothing written.\n";
}

} // namespace

int cmd_sweep(const arguments& args)
{
    return batch_command<blsim::soc::sweep_options>(args, blsim::soc::parse_sweep_args, sweep_help,
                                                    blsim::soc::run_sweep);
}

} // namespace blsim::cli
