// soc/cli/cmd_explore.cpp -- `blsim explore` (docs/explore.md; soc/batch/src/explore.cpp).
#include <algorithm>
#include <string>

#include "blsim/soc/args.h"
#include "blsim/soc/explore.h"
#include "commands.h"
#ifdef BLSIM_TEST_HOOKS
#include "test_hooks.h"
#endif

namespace blsim::cli {

namespace {

namespace cmdline = blsim::soc::cmdline;

// The test build's binary, blsim-test, also takes --mutant and --inject-bug
// (soc/cli/test_hooks.h), passed on to every run.
#ifdef BLSIM_TEST_HOOKS
bool take_test_hooks(const std::vector<std::string>& args, std::size_t& i, blsim::soc::explore_options& o,
                     std::string& err)
{
    blsim::soc::test_hooks h;
    if (!blsim::soc::take_test_hook(args, i, h, err))
        return false;
    if (h.mutant)
        o.mutant = blsim::soc::mutant_name(h.mutant);
    if (h.bug != blsim::soc::injected_bug::none)
        o.inject_bug = blsim::soc::to_string(h.bug);
    return true;
}
constexpr blsim::soc::explore_extra_options test_hooks = take_test_hooks;
constexpr bool has_test_hooks = true;
#else
constexpr blsim::soc::explore_extra_options test_hooks = nullptr;
constexpr bool has_test_hooks = false;
#endif

std::string explore_help()
{
    blsim::soc::explore_options unused;
    std::vector<cmdline::option> rows = blsim::soc::explore_command(unused).options;
    if (has_test_hooks) {
        // After --set, as blsim-test takes them (soc/cli/test_hooks.h).
        const auto after_set = std::find_if(rows.begin(), rows.end(), [](const cmdline::option& o) {
                                   return std::string(o.name) == "--set";
                               }) + 1;
        rows.insert(after_set,
                    {cmdline::note("--mutant", nullptr, "NAME",
                                   "run every seed with a known-bad variant of the C code (blsim-test\n"
                                   "run --help lists them), to see that the exploration finds it"),
                     cmdline::note("--inject-bug", nullptr, "NAME",
                                   "every run misbehaves on purpose (blsim-test run --help): to see a\n"
                                   "violation reported")});
    }
    return "usage: blsim explore SCENARIO [--seeds N] [--first-seed S] [-j N] [--set KEY=VALUE]...\n"
           "                     [--stop-at-first] [--out DIR]\n"
           "\n"
           "Run SCENARIO once per seed (S, S+1, ... S+N-1), each run its own 'blsim run -q' process\n"
           "checking every invariant as it goes. With jitter on in the scenario (jitter.enabled), the\n"
           "seed decides the timing of every platform operation, and so the interleaving of the\n"
           "switcher's and MCPM's races. Prints the violating seeds, grouped by kind, with the command\n"
           "that reproduces each and writes its Perfetto trace (docs/explore.md).\n"
           "\n" +
           cmdline::option_lines(rows) +
           "\n"
           "Exit status: 0 no seed violated an invariant, 1 some did, 2 bad input (nothing run).\n";
}

bool parse(const std::vector<std::string>& args, blsim::soc::explore_options& opt, bool& help, std::string& error)
{
    return blsim::soc::parse_explore_args(args, opt, help, error, test_hooks);
}

} // namespace

int cmd_explore(const arguments& args)
{
    return batch_command<blsim::soc::explore_options>(args, parse, explore_help, blsim::soc::run_explore);
}

} // namespace blsim::cli
