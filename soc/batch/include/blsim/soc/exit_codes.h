// soc/batch/include/blsim/soc/exit_codes.h -- blsim's exit statuses: one name per meaning, the same
// for every command (blsim --help and each command's help say which apply).
#pragma once

namespace blsim::soc {

// Success: the run, or every run, completed (compare, sweep, regress: every number within its
// tolerance; explore: no seed broke an invariant).
constexpr int exit_ok = 0;
// Something failed: a simulator bug (an internal error), an environment failure (an
// unwritable --out, a script that would not start), a run of a batch, a drifted golden, a
// violating seed.
constexpr int exit_failed = 1;
// Bad input: usage or configuration, reported as file:line:col: message; nothing written.
constexpr int exit_usage = 2;

} // namespace blsim::soc
