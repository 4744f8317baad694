// soc/report/include/blsim/soc/results.h -- what a run reports: summary.json (schema in
// docs/results.md), switches.csv, the human summary, rt-app's logs. Writing them as a set:
// results_dir.h.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "blsim/soc/platform.h"
#include "blsim/soc/results_dir.h"

namespace blsim::soc {

struct host_stats {
    double wall_s = 0;
    std::uint64_t events = 0;
    double peak_rss_mb = 0;
};

inline constexpr int summary_schema_version = 3;

// summary.json, as text (pretty-printed, keys in schema order, trailing newline).
// @extra_files: the run's other files beyond the fixed set (its traces), for "files".
std::string summary_json(platform& p, const host_stats& host, const std::vector<std::string>& extra_files = {});

// switches.csv: one row per completed switch (docs/results.md).
std::string switches_csv(platform& p);

// The few lines `blsim run` prints.
std::string human_summary(platform& p, const host_stats& host);

// rt-app's log files of the run's rt-app workload (name, content), one per thread, in thread
// order; none without one.
std::vector<std::pair<std::string, std::string>> rtapp_log_files(const platform& p);

} // namespace blsim::soc
