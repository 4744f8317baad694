// soc/batch/src/sweep_detail.h -- private to the sweep commands (sweep.cpp, sweep_run.cpp,
// sweep_metrics.cpp, sweep_pareto.cpp): how values and numbers are written in results.csv, so
// that every file of a sweep writes them one way, and the metrics' paths.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "blsim/soc/sweep.h"

namespace blsim::soc::sweep_detail {

// The shortest text that reads back to @v, with ".0" when it would read as an integer.
std::string real_text(double v);
// %.10g, never "-0": how results.csv writes a metric.
std::string number_text(double v);
// A manifest's parameter value as results.csv shows it (the canonical text).
std::string json_value_text(const nlohmann::ordered_json& v);
// @s as one CSV cell (RFC 4180: quoted when it holds a comma, a quote or a line break).
std::string csv_cell(const std::string& s);
// The number at the dotted @path ("energy_j.total") in @summary, found by walk_path
// (metrics.h) through mappings only; false when it is missing or not a number.
bool metric_of(const nlohmann::ordered_json& summary, const std::string& path, double& v);
// The numbers at @paths in the JSON document @text, as metric_of would find them in it, read
// without building the document (empty where metric_of finds none); false when @text is not
// JSON.
bool metrics_of_text(const std::string& text, const std::vector<std::string>& paths,
                     std::vector<std::optional<double>>& values);
// Whether @metric is a numeric path summary.json can have (docs/results.md), names of
// clusters, CPUs, tasks and the like standing anywhere a name goes; if not, @suggestion is
// the closest one a slip of a few letters away ("" when none is that close).
bool summary_metric_known(const std::string& metric, std::string& suggestion);
// @pattern's paths with each {a,b} expanded ('*' kept); the edit distance of @a and @b.
std::vector<std::string> expand_pattern(const std::string& pattern);
std::size_t levenshtein(const std::string& a, const std::string& b);

// 'blsim sweep pareto' (sweep_pareto.cpp): its arguments (@args[0] is "pareto") into @opt,
// and the command.
bool parse_pareto_args(const std::vector<std::string>& args, sweep_options& opt, std::string& error);
int run_pareto(const sweep_options& opt, std::ostream& out, std::ostream& err);

} // namespace blsim::soc::sweep_detail
