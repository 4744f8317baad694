// soc/batch/include/blsim/soc/explore.h -- `blsim explore`: one scenario run under many seeds, each
// in its own process, every run checking its invariants; the seeds whose run broke one are
// reported with the command that reproduces each (docs/explore.md).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "blsim/soc/args.h"

namespace blsim::soc {

struct explore_options {
    std::string scenario;                // the scenario (a file, or builtin:<path>)
    std::vector<std::string> overrides;  // --set K=V, given to every run before its seed
    long long first_seed = 1;            // --first-seed
    long long seeds = 100;               // --seeds: first_seed .. first_seed + seeds - 1
    unsigned jobs = 0;                   // -j: runs at once; 0: the hardware's concurrency
    bool stop_at_first = false;          // --stop-at-first: start no seed after a violation
    // The test build's hooks (blsim-test only; soc/cli/test_hooks.h), given to every run:
    std::string mutant;                  // --mutant NAME: a known-bad variant of the C code
    std::string inject_bug;              // --inject-bug NAME: every run fails on purpose
    std::string out_dir;                 // --out: explore.json and the violating runs' stderr; empty: none
    std::string exe = "/proc/self/exe";  // the blsim that runs the seeds
};

// Options a binary adds to explore's own: given the arguments and the index of one, takes it
// (and its value, advancing the index) into @opt and returns true, or returns false for an
// option it does not know; sets @error for a bad value. blsim-test's adds --mutant and
// --inject-bug; the release blsim has none.
using explore_extra_options = bool (*)(const std::vector<std::string>& args, std::size_t& i,
                                       explore_options& opt, std::string& error);

// explore_command - explore's options, bound to @opt: what parse_explore_args parses with
// (and the extra options) and what `blsim explore --help` lists.
cmdline::command explore_command(explore_options& opt);

// Parse explore's arguments (those after "explore"). False with @error on a usage error;
// @help for -h/--help.
bool parse_explore_args(const std::vector<std::string>& args, explore_options& opt, bool& help,
                        std::string& error, explore_extra_options extra = nullptr);

// The whole command. Progress and messages to @err, the summary to @out. Returns 0 when no
// seed broke an invariant, 1 when one did (or an environment failure), 2 for bad input (the
// scenario or an override refused, before anything runs).
int run_explore(const explore_options& opt, std::ostream& out, std::ostream& err);

// The kind of a violation, from the run's standard error: its "internal error" line (or the
// signal that killed it) with every number replaced by '#', so that the same check failing at
// another time or CPU counts as one kind.
std::string violation_kind(const std::vector<std::string>& stderr_lines, int wait_status);

} // namespace blsim::soc
