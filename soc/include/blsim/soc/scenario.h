// soc/include/blsim/soc/scenario.h -- a scenario: which SoC, which workload and governor, how
// long, which seed. Loaded from YAML, overridden from the command line, validated in one pass.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "blsim/model/params.h"
#include "blsim/soc/config_node.h"
#include "blsim/soc/schema.h"
#include "blsim/workloads/constant_taskset.h"

namespace blsim::soc {

struct governor_config {
    std::string name = "fixed";
    // fixed: the frequency of each named cluster; unnamed clusters stay at their boot OPP.
    std::vector<std::pair<std::string, int>> freq_mhz;
};

struct workload_config {
    std::string kind = "constant";
    std::vector<workloads::task_params> tasks;
};

// A userspace frequency request at a point of the run (what writing scaling_setspeed does).
struct freq_request {
    double at_ms = 0;
    int cpu = 0;       // logical CPU
    int freq_mhz = 0;  // virtual with the switcher on, a real OPP of the CPU's cluster without
};

// Cycles of the switch's steps the model does not detail (docs/switcher.md; docs/calibration.md
// gives each figure's reasoning).
struct switch_costs {
    int tick_suspend = 300;
    int cpu_pm_enter = 400;
    int context_save = 400;
    int stack_switch = 200;
    int context_restore = 500;
    int cpu_pm_exit = 400;
    int tick_resume = 500;
};

// Turning the switcher on or off at a point of the run.
struct activity_change {
    double at_ms = 0;
    bool active = true;
};

struct switcher_config {
    bool enabled = false;
    std::vector<activity_change> activity;
    std::string pairing = "linux";
    switch_costs costs_cycles;
    int restore_uncached_words = 60;
    std::vector<freq_request> timeline;
};

struct scenario_config {
    std::string name;
    std::string description;
    int seed = 1;
    double duration_s = 60;
    model::soc_params soc;
    governor_config governor;
    workload_config workload;
    switcher_config switcher;
};

// The logical CPUs a configuration has: its CPUs, or with the switcher on the pairs.
int logical_cpus(const scenario_config& cfg);
// The big cluster (highest capacity at its top OPP) and the little one; -1 without two.
int big_cluster(const model::soc_params& soc);

// The scenario blsim runs when none is named: configs/scenarios/default.yaml, built in.
inline constexpr const char* default_scenario = "builtin:configs/scenarios/default.yaml";

// Load @path (a file, or "builtin:<path in the source tree>"), resolve its SoC reference,
// apply @overrides ("dotted.key=value", in order) and validate. On failure every problem
// found is in @diag and @out is unspecified.
bool load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                   scenario_config& out, cfg::diagnostics& diag);

// The same, for a scenario's @text already read; @path names it (in messages) and is what its
// SoC reference is relative to.
bool load_scenario_text(const std::string& text, const std::string& path,
                        const std::vector<std::string>& overrides, scenario_config& out,
                        cfg::diagnostics& diag);

// The configuration as run, every key with its value (defaults included), as YAML.
std::string effective_yaml(const scenario_config& cfg);

// Every key of the configuration (type, unit, default, range, meaning), from the schemas.
std::vector<cfg::doc_row> config_reference_rows();

// docs/config.md, generated from the schemas.
std::string config_reference_markdown();

// Contents of a file built into the binary from configs/, or nullptr.
const char* embedded_file(const std::string& path);

} // namespace blsim::soc
