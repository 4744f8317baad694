// soc/config/include/blsim/soc/scenario.h -- a scenario: which SoC, which workload and governor, how
// long, which seed. Loaded from YAML, overridden from the command line, validated in one pass.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <bls/governor.h>
#include <bls/sched.h>

#include "blsim/model/fault_params.h"
#include "blsim/model/jitter_params.h"
#include "blsim/model/params.h"
#include "blsim/soc/config_node.h"
#include "blsim/soc/schema.h"
#include "blsim/workloads/audio.h"
#include "blsim/workloads/bbench.h"
#include "blsim/workloads/constant_taskset.h"
#include "blsim/workloads/rtapp.h"

namespace blsim::soc {

// The governors' tunables, as their sysfs files (docs/os.md gives each one's semantics). Each
// numeric or boolean one is a row of a table in bls/governor.h (HMP's: bls/sched.h; the rows'
// format: bls/tunable.h), which declares its field here (named as its key, with the unit), its
// default, its schema entry and its copy into the kernel.
#define BLSIM_TUNABLE_MEMBER(kind, field, c_type, def, key, min, max, unit, scale, ...)                    \
    BLSIM_TUNABLE_MEMBER_##kind(key, (def) / (scale))
#define BLSIM_TUNABLE_MEMBER_INT(key, def) int key = def;
#define BLSIM_TUNABLE_MEMBER_BOOL(key, def) bool key = (def) != 0;

struct interactive_config {
    std::string variant = "2013"; // the generation: 2012 or 2013 (docs/os.md)
    BLS_INTERACTIVE_TUNABLES_HISPEED(BLSIM_TUNABLE_MEMBER)
    std::string target_loads = "90";
    BLS_INTERACTIVE_TUNABLES_TIMING(BLSIM_TUNABLE_MEMBER)
};

struct ondemand_config {
    BLS_ONDEMAND_TUNABLES(BLSIM_TUNABLE_MEMBER)
};

struct conservative_config {
    BLS_CONSERVATIVE_TUNABLES(BLSIM_TUNABLE_MEMBER)
};

struct schedutil_config {
    BLS_SCHEDUTIL_TUNABLES(BLSIM_TUNABLE_MEMBER)
};

// A userspace write of scaling_setspeed (the userspace governor's frequency).
struct freq_request {
    double at_ms = 0;
    int cpu = 0;       // logical CPU
    int freq_mhz = 0;  // virtual with the switcher on, a real OPP of the CPU's cluster without
};

// A userspace write to a governor tunable (or interactive's boostpulse) during the run.
struct tunable_write {
    double at_ms = 0;
    std::string tunable; // a key of governor.<name>, or boostpulse
    std::string value;   // as that key takes it
};

struct governor_config {
    std::string name = "performance";
    // Each named cluster's frequency set at boot, before the governor starts (the userspace
    // governor keeps it); clusters not named boot at their boot OPP.
    std::vector<std::pair<std::string, int>> freq_mhz;
    interactive_config interactive;
    ondemand_config ondemand;
    conservative_config conservative;
    schedutil_config schedutil;
    std::vector<freq_request> setspeed;
    std::vector<tunable_write> writes;
};

// The scheduler's tunables (Linux's sysctl_sched_*, before their scaling with the CPU count).
struct sched_config {
    int latency_us = 6000;
    int min_granularity_us = 750;
    int wakeup_granularity_us = 1000;
    bool scale_with_cpus = true; // x (1 + log2 of the online CPUs, at most 8): Linux's default
    int balance_interval_us = 4000;
    int rt_period_us = 1000000; // sched_rt_period_us
    int rt_runtime_us = 950000; // sched_rt_runtime_us (-1: no limit)
    int rr_timeslice_ms = 100;  // sched_rr_timeslice_ms
    bool freq_invariant = true;
    bool cpu_invariant = true;
};

struct menu_config {
    std::string version = "3.10"; // 3.10 or 3.13 (docs/os.md)
};

struct cpuidle_config {
    bool enabled = true;          // false: WFI only
    int latency_limit_us = -1;    // PM QoS: deeper states with a longer exit latency are not used; -1: none
    std::string governor = "menu"; // menu or ladder
    menu_config menu;
};

// Background audio, beside any workload.
struct audio_config : workloads::audio_params {
    bool enabled = false;
};

// Per-task utilisation over time from a CSV (time_ms,task,util_pct[,cpu]), as periodic tasks.
struct replay_config {
    std::string csv;          // path, relative to the scenario
    double period_ms = 10;    // each task's jobs: its utilisation of every period
    bool pin_cpus = false;    // pin each task to the cpu of its first row
    double mem_fraction = 0.2;
    int working_set_kb = 0;
};

// The block device rt-app's iorun writes to when its io_device is not /dev/null.
struct rtapp_io_config {
    double bandwidth_mb_s = 20; // what dirty-page throttling holds a writer to
    double latency_us = 0;      // per write(2), on top
};

// cpu.shares of one of the rt-app document's taskgroups (rt-app leaves every one at 1024).
struct taskgroup_shares {
    std::string path;
    int shares = 1024;
};

struct workload_config {
    std::string kind = "constant"; // constant, bbench, audio, rtapp, replay
    std::vector<workloads::task_params> tasks;
    workloads::bbench_params bbench;
    audio_config audio;
    cfg::node rtapp;          // an rt-app document written in the scenario
    std::string rtapp_json;   // or an rt-app JSON file (relative to the scenario)
    rtapp_io_config rtapp_io;
    std::vector<taskgroup_shares> rtapp_taskgroups;
    replay_config replay;
    // Read from the files when the scenario is loaded (not configuration keys themselves).
    std::vector<workloads::task_params> replay_tasks;
    workloads::rtapp_params rtapp_params;
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

    // Every step's, added up (a step added above belongs here too).
    std::uint64_t total() const
    {
        return static_cast<std::uint64_t>(tick_suspend) + cpu_pm_enter + context_save + stack_switch +
               context_restore + cpu_pm_exit + tick_resume;
    }
};

// Turning the switcher on or off at a point of the run.
struct activity_change {
    double at_ms = 0;
    bool active = true;
};

struct switcher_config {
    std::vector<activity_change> activity;
    std::string pairing = "linux";
    switch_costs costs_cycles;
    int restore_uncached_words = 60;
};

// Linaro's big.LITTLE MP (HMP) tunables, as /sys/kernel/hmp and the LSK's Kconfig give them
// (the TC2 defconfig's defaults; docs/config.md). Loads are 0..1024.
struct hmp_config {
    BLS_HMP_TUNABLES(BLSIM_TUNABLE_MEMBER)
};

// A userspace request for another big.LITTLE mode at a point of the run.
struct mode_change {
    double at_ms = 0;
    std::string mode = "smp";
};

// The big.LITTLE modes, as `mode` names them: smp, iks, cluster-migration, hmp, eas.
// Whether @mode runs the switcher (iks, cluster-migration).
bool mode_switched(const std::string& mode);
// The kernel's enum bls_mode value of @mode (0: not a mode), and the name of one (nullptr:
// not a mode).
unsigned kernel_mode_of(const std::string& mode);
const char* mode_name(unsigned kernel_mode);

struct scenario_config {
    std::string name;
    std::string description;
    int seed = 1;
    double duration_s = 60;
    model::soc_params soc;
    governor_config governor;
    sched_config sched;
    cpuidle_config cpuidle;
    workload_config workload;
    switcher_config switcher;
    std::string mode = "smp";               // at boot
    std::vector<mode_change> mode_changes;  // during the run, in time order
    hmp_config hmp;
    std::vector<int> online_cpus; // hotplug at boot: the CPUs that come up (empty: all)
    model::jitter_params jitter;  // seeded timing jitter of the platform's operations (off)
    model::fault_params faults;   // injected hardware faults (none)
};

// The logical CPUs a configuration has at boot: its CPUs, or in a switched mode the pairs.
int logical_cpus(const scenario_config& cfg);

// @g after the write @w (a tunable of the governor, as the schema takes it); false with the
// problem in @diag (located at @at).
bool apply_tunable_write(governor_config& g, const tunable_write& w, const cfg::mark& at, cfg::diagnostics& diag);
// The big cluster (highest capacity at its top OPP) and the little one; -1 without two.
int big_cluster(const model::soc_params& soc);

// The scenario blsim runs when none is named: the headline study, BBench with music on IKS with
// the tuned interactive governor (configs/scenarios/bbench-iks-tuned.yaml), built in.
inline constexpr const char* default_scenario = "builtin:configs/scenarios/bbench-iks-tuned.yaml";

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

// The text of @path: a file, or "builtin:<path in the source tree>" (a file built into the
// binary). False with @error (strerror's words) when it cannot be read, a directory included.
bool read_source(const std::string& path, std::string& text, std::string& error);

// The configuration as run, every key with its value (defaults included), as YAML.
std::string effective_yaml(const scenario_config& cfg);

// Every key of the configuration (type, unit, default, range, meaning), from the schemas.
std::vector<cfg::doc_row> config_reference_rows();

// docs/config.md, generated from the schemas.
std::string config_reference_markdown();

// Contents of a file built into the binary from configs/, or nullptr.
const char* embedded_file(const std::string& path);

} // namespace blsim::soc
