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
    const std::vector<cmdline::option> rows = {
        cmdline::note("--out", nullptr, "DIR", "the sweep's directory (required); created if missing"),
        cmdline::note("--jobs", "-j", "N", "at most N runs at once (default: the number of online CPUs)"),
        cmdline::note("--shard", nullptr, "K/N",
            "run only the points whose index (from 0, in manifest order) is\n"
            "K-1 modulo N, e.g. on machine K of N; results cover those points"),
        cmdline::note("merge --out DIR SHARD_DIR...", nullptr, nullptr,
            "gather the shards' runs into DIR (hard links where possible) and\n"
            "write the results of the whole sweep, as one machine would have"),
        cmdline::note("pareto DIR --perf METRIC", nullptr, nullptr,
            "from DIR/results.json: the points no other beats on METRIC (higher\n"
            "is better) and --cost (lower is better; default energy_j.total) into\n"
            "DIR/pareto.csv, pareto.json and pareto.png; with --baseline B (a point\n"
            "id, a run directory or a summary.json) and --min-fraction F, or with\n"
            "--min-perf V, print the cheapest point whose METRIC reaches F x B's\n"
            "(or V), with the command that runs it"),
        cmdline::note("--help", "-h", nullptr, "this text"),
    };
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
           cmdline::option_lines(rows) +
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
