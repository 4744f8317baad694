// soc/config/src/replay_csv.cpp -- a replay trace (CSV) read into the workload's periodic tasks.
#include "scenario_internal.h"

#include <bls/cpufreq.h>
#include <bls/cpuidle.h>
#include <bls/governor.h>
#include <bls/kernel.h>
#include <bls/types.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "blsim/model/power_formulas.h"
#include "blsim/soc/rtapp_config.h"
#include "blsim/soc/schema.h"

namespace blsim::soc {

using cfg::bind_context;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;
using cfg::schema;

namespace detail {

// A replay trace: "time_ms,task,util_pct[,cpu]" rows after a header line. Each task becomes a
// periodic task whose utilisation steps at each of its rows.
void load_replay_csv(const std::string& file, workload_config& w, const mark& at, const cpu_limit& lim, diagnostics& d)
{
    std::string text, error;
    if (!read_source(file, text, error)) {
        d.error(at, "workload.replay.csv: cannot read '" + w.replay.csv + "': " + error);
        return;
    }
    const std::string shown = file.rfind(builtin_prefix, 0) == 0 ? file.substr(std::strlen(builtin_prefix)) : file;
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    bool header = false, with_cpu = false;
    std::map<std::string, std::size_t> index;
    std::vector<workloads::task_params>& tasks = w.replay_tasks;
    tasks.clear();
    while (std::getline(in, line)) {
        lineno++;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::pair<std::string, int>> cells; // text, column (1-based)
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = line.find(',', start);
            cells.push_back({line.substr(start, comma == std::string::npos ? std::string::npos : comma - start),
                             static_cast<int>(start) + 1});
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        const mark here{shown, lineno, 1};
        if (!header) {
            header = true;
            const std::string h = line;
            if (h == "time_ms,task,util_pct,cpu")
                with_cpu = true;
            else if (h != "time_ms,task,util_pct") {
                d.error(here, "replay header must be 'time_ms,task,util_pct' or 'time_ms,task,util_pct,cpu', got '" + h + "'");
                return;
            }
            continue;
        }
        if (cells.size() != (with_cpu ? 4u : 3u)) {
            d.error(here, "expected " + std::to_string(with_cpu ? 4 : 3) + " comma-separated values, got " +
                              std::to_string(cells.size()));
            continue;
        }
        auto number = [&](std::size_t k, double lo, double hi, double& v) {
            node n = node::scalar(cells[k].first, {shown, lineno, cells[k].second});
            if (!cfg::parse_real(n, v) || v < lo || v > hi) {
                d.error(n.at, "'" + cells[k].first + "' is not a number in " + cfg::format_number(lo) + ".." +
                                  cfg::format_number(hi));
                return false;
            }
            return true;
        };
        double t = 0, u = 0, cpu = -1;
        if (!number(0, 0, 1e9, t) || !number(2, 0, 100, u) || (with_cpu && !number(3, 0, BLS_MAX_CPUS - 1, cpu)))
            continue;
        const std::string& name = cells[1].first;
        if (name.empty()) {
            d.error({shown, lineno, cells[1].second}, "the task name is empty");
            continue;
        }
        auto it = index.find(name);
        if (it == index.end()) {
            if (tasks.size() == BLS_MAX_TASKS) {
                d.error({shown, lineno, cells[1].second}, "more than " + std::to_string(BLS_MAX_TASKS) + " tasks");
                return;
            }
            workloads::task_params tp;
            tp.name = name;
            tp.period_ms = w.replay.period_ms;
            tp.mem_fraction = w.replay.mem_fraction;
            tp.working_set_kb = w.replay.working_set_kb;
            if (with_cpu && w.replay.pin_cpus) {
                tp.cpus = {static_cast<int>(cpu)};
                if (tp.cpus[0] >= lim.cpus) // the pin of its first row (workload.replay.pin_cpus)
                    d.error({shown, lineno, cells[3].second},
                            "task '" + name + "' is pinned (workload.replay.pin_cpus) to cpu" +
                                std::to_string(tp.cpus[0]) + ", which does not exist (the SoC has " +
                                std::to_string(lim.cpus) + lim.what);
            }
            it = index.emplace(name, tasks.size()).first;
            tasks.push_back(tp);
        }
        workloads::task_params& tp = tasks[it->second];
        if (!tp.util_steps.empty() && t < tp.util_steps.back().at_ms) {
            d.error(here, "task '" + name + "': rows go in time order; " + cells[0].first + " ms is before its previous " +
                              cfg::format_number(tp.util_steps.back().at_ms) + " ms");
            continue;
        }
        tp.util_steps.push_back({t, u});
    }
    if (!header)
        d.error(mark{shown, 1, 1}, "the replay file is empty (a header line 'time_ms,task,util_pct' first)");
}

} // namespace detail

} // namespace blsim::soc
