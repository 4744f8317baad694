// soc/batch/include/blsim/soc/sweep.h -- `blsim sweep`: one scenario run over a grid of parameter
// values and seeds, each run in its own process, resumable, shardable across machines, with
// the chosen metrics aggregated per point (docs/sweeps.md).
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "blsim/soc/args.h"
#include "blsim/soc/config_node.h"

namespace blsim::soc {

// One value a parameter takes, typed as the spec wrote it.
struct sweep_value {
    enum class type { integer, real, boolean, string, list };
    type t = type::integer;
    long long i = 0;
    double r = 0;
    bool b = false;
    std::string s;
    std::vector<sweep_value> items; // list: scalars only (a key that takes a list: online_cpus)

    // The canonical text: integers as integers, reals as the shortest text that reads back to
    // the same double (with ".0" when whole), booleans as true/false, strings as they are, a
    // list as "[" its items' override texts joined by ", " "]". Point ids and results.csv are
    // made of it.
    std::string canonical() const;
    // The text given to 'blsim run --set KEY=<text>': the canonical text, a string
    // double-quoted when YAML would read it as something else.
    std::string override_text() const;
};

// One point of the grid: a value for every parameter key it sets, in the spec's order. That is
// every key but the members of a one_at_a_time item the point leaves at the base scenario's
// value (all of them at the item's base point, all but one elsewhere).
struct sweep_point {
    std::string id;  // sweep_point_id(parameters)
    std::vector<std::pair<std::string, sweep_value>> parameters;
};

// The point's id: FNV-1a (64 bits) of its "key=canonical value" lines sorted by key, each
// followed by '\n'; the low 48 bits as 12 lowercase hex digits. It depends on the point's own
// parameters only, so adding a value to a list keeps every other point's id.
std::string sweep_point_id(const std::vector<std::pair<std::string, sweep_value>>& parameters);

// A sweep spec, loaded and expanded.
struct sweep_spec {
    std::string path;         // the spec file, as named
    std::string base;         // 'base' as written
    std::string base_path;    // 'base' resolved against the spec's directory (or builtin:)
    std::string base_digest;  // "fnv1a64:<16 hex digits>" of the base scenario's text
    std::vector<std::string> keys;  // the parameter keys, in spec order (zip members in theirs)
    std::vector<sweep_point> points; // the cartesian product of the items, the last item fastest
    std::vector<long long> seeds;
    std::vector<std::string> metrics;
};

// Read, check and expand the spec at @path; then load the base scenario with every point's
// overrides (load_scenario), so that a bad key or value is found before anything runs. On
// failure every problem is in @diag (file:line:col: message) and @out is unspecified.
bool load_sweep_spec(const std::string& path, sweep_spec& out, cfg::diagnostics& diag);

// The same from the spec's @text; @path names it and is what 'base' is relative to.
// @validate_points false skips loading the base scenario with each point's overrides (the
// base is still read).
bool load_sweep_spec_text(const std::string& text, const std::string& path, sweep_spec& out,
                          cfg::diagnostics& diag, bool validate_points = true);

// DIR/manifest.json's text for @spec (pretty-printed JSON, trailing newline).
std::string sweep_manifest_json(const sweep_spec& spec);

struct sweep_options {
    bool merge = false;                  // 'blsim sweep merge'
    bool pareto = false;                 // 'blsim sweep pareto'
    std::string spec;                    // the spec file (not for merge)
    std::string out_dir;                 // --out
    std::vector<std::string> shard_dirs; // merge's inputs
    unsigned jobs = 0;                   // runs at once; 0: std::thread::hardware_concurrency()
    int shard_k = 1, shard_n = 1;        // --shard K/N
    std::string exe = "/proc/self/exe";  // the blsim that runs the points

    // 'blsim sweep pareto DIR' (out_dir is DIR): the front of perf (higher is better) against
    // cost (lower is better), and the cheapest point whose perf reaches a threshold.
    std::string perf_metric;                     // --perf, required
    std::string cost_metric = "energy_j.total";  // --cost
    std::string baseline;                        // --baseline: a point id, a run directory or a summary.json
    double min_fraction = -1;                    // --min-fraction F: perf >= F x the baseline's; < 0: none
    double min_perf = -1;                        // --min-perf V: perf >= V; < 0: none
    bool plot = true;                            // --no-plot: no pareto.png
    std::string plot_script;                     // empty: the source tree's scripts/plot-pareto
};

// sweep_command - sweep's options (or, with @opt.merge, sweep merge's), bound to @opt: what
// parse_sweep_args parses with and what `blsim sweep --help` lists.
cmdline::command sweep_command(sweep_options& opt);

// Parse sweep's arguments (those after "sweep"). Returns false with @error set on a usage
// error; sets @help for -h/--help (nothing else is then checked).
bool parse_sweep_args(const std::vector<std::string>& args, sweep_options& opt, bool& help, std::string& error);

// The whole command (a sweep, a merge, or the Pareto analysis of a finished sweep). A
// summary goes to @out, progress and messages to @err (an updating line when @err is a
// terminal). Returns the exit status: 0 every run succeeded (for pareto: analysed), 1 some run
// failed (or an environment failure), 2 bad input with nothing written.
int run_sweep(const sweep_options& opt, std::ostream& out, std::ostream& err);

} // namespace blsim::soc
