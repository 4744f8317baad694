// soc/batch/include/blsim/soc/tune.h -- `blsim tune`: a scenario's parameters searched by an
// optimiser (Optuna's TPE) for the lowest objective under constraints (docs/tune.md).
//
// The search itself is scripts/tune (Python, Debian's python3-optuna); this side only starts
// it, and answers its one question that only the simulator can: would the base scenario
// accept these overrides?
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace blsim::soc {

// 'blsim tune' with @args (those after "tune"). -h/--help prints the help; the internal
// '--check-overrides BASE' mode answers scripts/tune (below); anything else replaces this
// process with '/usr/bin/python3 scripts/tune --blsim <this binary> ARGS...' and returns only
// if that cannot be started (exit status 1).
int run_tune(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The '--check-overrides' answer: @request is a JSON array of groups, each an array of
// "key=value" override strings; the result is a JSON array with, per group in order, the
// array of messages load_scenario(@base, group) reports (empty when the base accepts it),
// e.g. "--set:2:22: unknown key 'timer_ratez' in governor.interactive (...)". Returns false
// with @error set when @request is not such an array.
bool check_override_groups(const std::string& base, const std::string& request, std::string& response,
                           std::string& error);

} // namespace blsim::soc
