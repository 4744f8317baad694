// soc/batch/include/blsim/soc/compare.h -- `blsim compare`: several runs side by side, each
// relative to the first (docs/compare.md). An argument is a scenario (run now, by the same
// binary, in parallel) or a run directory holding summary.json (read).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "blsim/soc/args.h"

namespace blsim::soc {

// The compared quantities, in table order, each read from summary.json (after the scenario
// and its mode, which are text):
inline constexpr int compare_metrics = 7;
struct compare_metric_info {
    const char* key;       // the --json key (its ratio is key + "_ratio")
    const char* path;      // where summary.json holds it, dotted
    const char* heading1;  // the table's two heading lines
    const char* heading2;
    bool count;            // an event count (printed as an integer when it is one)
};
extern const compare_metric_info compare_metric_table[compare_metrics];

struct compare_value {
    bool present = false;  // false: absent or null in summary.json
    double value = 0;
    bool integer = false;  // summary.json held an integer (kept as one in --json)
};

// One argument, as read from its summary.json.
struct compare_row {
    std::string input;                    // the argument as given
    std::string dir;                      // the run directory read; empty when it was temporary
    std::optional<std::string> scenario;  // the summary's "scenario"
    std::optional<std::string> mode;      // the summary's "mode" (the mode at the start)
    compare_value values[compare_metrics];
};

struct compare_options {
    std::vector<std::string> inputs;     // scenarios and run directories, in order
    std::vector<std::string> overrides;  // --set KEY=VALUE, given to every scenario's run
    unsigned jobs = 0;                   // runs at once; 0: std::thread::hardware_concurrency()
    bool json = false;
    std::string keep_dir;                // empty: the runs' results go to a temporary directory
    std::string report_dir;              // --report DIR: the side-by-side page (and, without
                                         // --keep, the runs' results) go there
    std::string exe = "/proc/self/exe";  // the blsim that runs the scenarios
};

// compare_command - compare's options, bound to @opt: what parse_compare_args parses with and
// what `blsim compare --help` lists.
cmdline::command compare_command(compare_options& opt);

// Parse compare's arguments (those after "compare"). Returns false with @error set on a usage
// error; sets @help for -h/--help (nothing else is then checked).
bool parse_compare_args(const std::vector<std::string>& args, compare_options& opt, bool& help,
                        std::string& error);

// Read the summary.json at @path into @row (scenario, mode and values; not input or dir). Returns
// false with @error set ("<path>: <what is wrong>") if it cannot be read, is not JSON, or holds
// a compared field of the wrong type. An absent or null field is only missing.
bool read_compare_summary(const std::string& path, compare_row& row, std::string& error);

// The rows as one aligned plain-text table with a legend line, each relative to the first.
std::string compare_table(const std::vector<compare_row>& rows);

// The rows as a JSON document (pretty-printed, trailing newline).
std::string compare_json(const std::vector<compare_row>& rows);

// The whole command. Output (table or JSON) goes to @out, messages to @err. Returns the exit
// status: 0, 2 (bad input: an argument, or a run that exited 2) or 1 (internal: a run that
// failed otherwise, or an environment failure).
int run_compare(const compare_options& opt, std::ostream& out, std::ostream& err);

} // namespace blsim::soc
