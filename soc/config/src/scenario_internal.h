// soc/config/src/scenario_internal.h -- what the configuration's own files share (private to
// soc/config/src/): the schema builders one file hands another, the checks the loader runs,
// and the helpers both use. Everything a user can write is declared in schema_soc.cpp,
// schema_workload.cpp and schema_kernel.cpp; check_soc.cpp, check_workload.cpp,
// check_kernel.cpp and replay_csv.cpp judge what was bound; scenario.cpp loads.
#pragma once

#include <string>
#include <vector>

#include "blsim/model/params.h"
#include "blsim/soc/rtapp_config.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"

namespace blsim::soc::detail {

// A path that names a configuration built into the binary (embedded_file).
inline constexpr const char* builtin_prefix = "builtin:";

// The ACE slave interfaces of an interconnect, in order; "S3 or S4", "S0, S1, S2 or S3".
std::vector<int> ace_ports(model::cci_variant v);
std::string port_list(const std::vector<int>& ports);

// The schemas (schema_*.cpp).
cfg::schema<model::soc_params> soc_schema();
cfg::schema<workload_config> workload_schema();
cfg::schema<governor_config> governor_schema();
// The scenario's, built once per process and never destroyed (docs/performance.md).
const cfg::schema<scenario_config>& scenario_schema(bool soc_required = true);

// @ref as written in @from_file, relative to that file (built-in files to built-in files).
std::string resolve_relative(const std::string& from_file, const std::string& ref);
// Where @given_at's file is, relative to @scenario_path's directory, for messages.
std::string relative_to(const cfg::mark& given_at, const std::string& scenario_path);

// The semantic checks. Of the whole scenario (check_kernel.cpp), which runs the others in
// their order: the SoC's (check_soc.cpp), ...
void check(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
void check_clusters(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
void check_device_windows(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
void check_cci_ports(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
void check_gic(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
void check_faults(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
void check_idle_states(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
// ... the workload's (check_workload.cpp), which check_workload may complete (rt-app documents
// and replay traces are read there), run by the loader before check ...
void check_workload(scenario_config& c, const std::string& path, const cfg::bind_context& ctx, cfg::diagnostics& d);
void check_workload_tasks(const scenario_config& c, const cfg::bind_context& ctx, cfg::diagnostics& d);
// ... and the kernel's (check_kernel.cpp): interactive's generations, and what the workload's
// checks ask of the switcher.
bool interactive_has(const std::string& variant, const std::string& key, std::string& why);
void apply_interactive_variant(scenario_config& c, const cfg::bind_context& ctx);
bool ever_switched(const scenario_config& c);
// The CPUs a task may be pinned to, and the real-time bandwidth they admit.
cpu_limit pinnable_cpus(const scenario_config& c);

// A replay trace's rows into @w's periodic tasks (replay_csv.cpp).
void load_replay_csv(const std::string& file, workload_config& w, const cfg::mark& at, const cpu_limit& lim,
                     cfg::diagnostics& d);

} // namespace blsim::soc::detail
