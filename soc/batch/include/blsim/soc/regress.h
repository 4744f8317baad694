// soc/batch/include/blsim/soc/regress.h -- `blsim regress`: a set of golden cases, each a scenario
// run short whose chosen summary.json numbers must stay within a tolerance of the values
// blessed beside it (docs/regress.md).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "blsim/soc/args.h"
#include "blsim/soc/config_node.h"

namespace blsim::soc {

// One compared number of a case: a dotted path into summary.json and its tolerance.
struct regress_metric {
    std::string path;  // e.g. "switches.blackout_us.p50"; a segment of digits indexes a list
    double abs = 0;    // passes when |value - golden| <= abs ...
    double rel = 0;    // ... or <= rel * |golden|; both 0: exact
};

// One case file, as read and checked.
struct regress_case {
    std::string name;       // the file's name without ".yaml"
    std::string file;       // the case file
    std::string scenario;   // the scenario, resolved against the case file's directory
    std::vector<std::string> set;  // KEY=VALUE overrides, in order
    std::vector<cfg::mark> set_at; // where each is written (past an opening quote)
    std::vector<regress_metric> metrics;
    std::string golden;     // DIR/<name>.golden.json
    bool loadable = false;  // its scenario was read and every override is KEY=VALUE: the scenario's
                            // load with the overrides can be checked (whatever else is wrong)
};

struct regress_options {
    std::string dir = "configs/regress"; // the cases: DIR/*.yaml
    bool dir_given = false;
    unsigned jobs = 0;                   // runs at once; 0: std::thread::hardware_concurrency()
    bool bless = false;
    std::vector<std::string> only;       // case names; empty: every case
    std::string exe = "/proc/self/exe";  // the blsim that runs the scenarios
};

// regress_command - regress's options, bound to @opt: what parse_regress_args parses with and
// what `blsim regress --help` lists.
cmdline::command regress_command(regress_options& opt);

// Parse regress's arguments (those after "regress"). Returns false with @error set on a usage
// error; sets @help for -h/--help (nothing else is then checked).
bool parse_regress_args(const std::vector<std::string>& args, regress_options& opt, bool& help,
                        std::string& error);

// Read and check the case file @path (its own keys, and that its scenario can be read; not the
// scenario's contents). Problems go to @diag, located in the case file.
bool load_regress_case(const std::string& path, regress_case& out, cfg::diagnostics& diag);

// Whether @value is within @m's tolerance of @golden: |value - golden| <= abs, or
// <= rel * |golden|.
bool regress_within(const regress_metric& m, double value, double golden);

// The whole command. The table and the summary line go to @out, messages to @err. Returns
// the exit status: 0 every metric within its tolerance (or, with --bless, every golden
// written), 1 a metric drifted or could not be compared or a run failed, 2 bad input.
int run_regress(const regress_options& opt, std::ostream& out, std::ostream& err);

} // namespace blsim::soc
