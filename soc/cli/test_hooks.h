// soc/cli/test_hooks.h -- what only the test build's binary, blsim-test, can do:
// run the switcher's known-bad variants (--mutant NAME) and make the simulator misbehave on
// purpose (--inject-bug NAME), so that tests can show blsim explore and the run-time checks
// catching each (docs/explore.md). The release blsim has neither option: this file's source
// (soc/cli/test_hooks.cpp) is linked into blsim-test only, with the switcher built with its
// mutants (bls_switcher_mutants), and its main() compiled with BLSIM_TEST_HOOKS.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "blsim/soc/platform.h"

namespace blsim::soc {

// Simulator bugs that can be made to happen on purpose, to prove that the run-time checks
// catch them. Never part of a configuration.
enum class injected_bug {
    none,
    meter_time_reversal, // halfway through, the energy meter hears of a change 1 us in its past
    mcpm_state_corruption, // halfway through, MCPM's record says cpu0 is down while it runs
    task_lost,             // halfway through, the scheduler moves a sleeping task to an offline CPU
    dirty_line_lost,       // from halfway, the next cluster to go down is written to after its clean
};
// The name of @b on the command line, and back (none for an unknown name).
const char* to_string(injected_bug b);
injected_bug injected_bug_named(const std::string& name);
// Every name, comma-separated, for messages.
std::string injected_bug_names();

// The switcher's known-bad variants (switcher/include/bls/mutant.h), by their names on the
// command line: the enum bls_mutant value, 0 for an unknown name.
unsigned mutant_named(const std::string& name);
const char* mutant_name(unsigned mutant);
std::string mutant_names(); // "a, b, c"

// What the command line asked for.
struct test_hooks {
    injected_bug bug = injected_bug::none;
    unsigned mutant = 0; // enum bls_mutant
};

// If args[i] is --mutant or --inject-bug (or --NAME=VALUE), take it and its value into
// @hooks, advance @i past them and return true; false for any other option. A missing or
// unknown value sets @error (and returns true).
bool take_test_hook(const std::vector<std::string>& args, std::size_t& i, test_hooks& hooks, std::string& error);

// Arrange @bug to happen halfway through @plat's run. Call after constructing the platform,
// before running it.
void inject_bug(platform& plat, injected_bug bug);

} // namespace blsim::soc
