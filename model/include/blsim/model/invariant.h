// model/include/blsim/model/invariant.h -- run-time invariants: conditions every run keeps.
//
// A violated invariant is a bug of the simulator (or of the C code it runs on its CPUs), never
// the user's input and never the workload's behaviour: the run stops, nothing is published,
// and blsim exits with status 1 and
//     blsim: internal error: invariant '<name>' violated at <time> s in <block>: <detail>
// Checks stay in every build type (they are not assert()s): a number blsim prints is either
// right or refused. Keep them cheap: they run on every event.
//
// The exception may be thrown inside a SystemC process; SystemC then carries its message out
// of sc_start() inside an sc_report, which soc::platform turns back into an internal error.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace blsim::model {

class invariant_violation : public std::logic_error {
public:
    invariant_violation(std::string name, std::uint64_t t_ps, std::string block, const std::string& detail);
    // A failed check of the code (BLSIM_CHECK, the C code's BLS_CHECK): name "check".
    invariant_violation(std::uint64_t t_ps, std::string block, const std::string& check, const std::string& place);

    const std::string& name() const { return name_; }
    std::uint64_t t_ps() const { return t_ps_; }
    const std::string& block() const { return block_; }

private:
    std::string name_;
    std::uint64_t t_ps_;
    std::string block_;
};

// Stop the run: invariant @name does not hold at @t_ps in @block (a model instance: "cluster
// a15", "cpu3"). @detail says what was seen, with numbers.
[[noreturn]] void invariant_failed(const char* name, std::uint64_t t_ps, const std::string& block,
                                   const std::string& detail);

// A check of the code failed: @check (its source text) at @file:@line, seen in @block at
// @t_ps. Message: "check failed at <t> s in <block>: <check> (<file>:<line>)", the file
// relative to the source tree.
[[noreturn]] void check_failed(const char* check, const char* file, int line, std::uint64_t t_ps,
                               const std::string& block);

// BLSIM_CHECK(condition): an always-on assertion of the models (not compiled out with
// NDEBUG); a failure is a simulator bug, reported at the current simulated time.
// BLSIM_CHECK_AT(condition, t_ps): the same at a given time, for code that runs before any
// simulation and without SystemC (the configuration, soc/config/: at 0).
#define BLSIM_CHECK_AT(condition, t_ps)                                                         \
    do {                                                                                       \
        if (!(condition))                                                                      \
            ::blsim::model::check_failed(#condition, __FILE__, __LINE__, (t_ps), __func__);   \
    } while (0)
#define BLSIM_CHECK(condition) BLSIM_CHECK_AT(condition, ::blsim::model::now_ps())

// The simulated time now, in ps (0 outside a simulation).
std::uint64_t now_ps();

// Seconds, with picosecond resolution, as results print times.
std::string format_time_s(std::uint64_t t_ps);

} // namespace blsim::model
