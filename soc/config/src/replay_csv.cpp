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

namespace {

using cell = std::pair<std::string, int>; // a row's value, and its column (1-based)

// A row's comma-separated cells.
std::vector<cell> split_cells(const std::string& line)
{
    std::vector<cell> cells;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = line.find(',', start);
        cells.push_back({line.substr(start, comma == std::string::npos ? std::string::npos : comma - start),
                         static_cast<int>(start) + 1});
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return cells;
}

// The header line @h (at @here): whether the rows have a cpu column; false (reported) when it is
// neither form.
bool read_header(const std::string& h, const mark& here, bool& with_cpu, diagnostics& d)
{
    if (h == "time_ms,task,util_pct,cpu")
        with_cpu = true;
    else if (h != "time_ms,task,util_pct") {
        d.error(here, "replay header must be 'time_ms,task,util_pct' or 'time_ms,task,util_pct,cpu', got '" + h + "'");
        return false;
    }
    return true;
}

// A cell of the row at @row as a number in @lo..@hi; false (reported) when it is not.
bool read_number(const cell& c, const mark& row, double lo, double hi, double& v, diagnostics& d)
{
    node n = node::scalar(c.first, {row.file, row.line, c.second});
    if (!cfg::parse_real(n, v) || v < lo || v > hi) {
        d.error(n.at, "'" + c.first + "' is not a number in " + cfg::format_number(lo) + ".." + cfg::format_number(hi));
        return false;
    }
    return true;
}

// The task @name, first named by a row: periodic, with the replay's period and memory, and
// pinned to the row's @cpu (at @cpu_at) when the rows have one and workload.replay.pin_cpus asks.
workloads::task_params new_task(const std::string& name, const replay_config& r, bool with_cpu, double cpu,
                                const mark& cpu_at, const cpu_limit& lim, diagnostics& d)
{
    workloads::task_params tp;
    tp.name = name;
    tp.period_ms = r.period_ms;
    tp.mem_fraction = r.mem_fraction;
    tp.working_set_kb = r.working_set_kb;
    if (with_cpu && r.pin_cpus) {
        tp.cpus = {static_cast<int>(cpu)};
        if (tp.cpus[0] >= lim.cpus) // the pin of its first row (workload.replay.pin_cpus)
            d.error(cpu_at, "task '" + name + "' is pinned (workload.replay.pin_cpus) to cpu" +
                                std::to_string(tp.cpus[0]) + ", which does not exist (the SoC has " +
                                std::to_string(lim.cpus) + lim.what);
    }
    return tp;
}

// A row (at @here) of the trace: a step of its task's utilisation, the task added at its first
// row (@index: each task's place in w.replay_tasks). False when the rows can be read no further
// (too many tasks).
bool read_row(const std::vector<cell>& cells, const mark& here, bool with_cpu, std::map<std::string, std::size_t>& index,
              workload_config& w, const cpu_limit& lim, diagnostics& d)
{
    if (cells.size() != (with_cpu ? 4u : 3u)) {
        d.error(here, "expected " + std::to_string(with_cpu ? 4 : 3) + " comma-separated values, got " +
                          std::to_string(cells.size()));
        return true;
    }
    double t = 0, u = 0, cpu = -1;
    if (!read_number(cells[0], here, 0, 1e9, t, d) || !read_number(cells[2], here, 0, 100, u, d) ||
        (with_cpu && !read_number(cells[3], here, 0, BLS_MAX_CPUS - 1, cpu, d)))
        return true;
    const std::string& name = cells[1].first;
    const mark name_at{here.file, here.line, cells[1].second};
    if (name.empty()) {
        d.error(name_at, "the task name is empty");
        return true;
    }
    std::vector<workloads::task_params>& tasks = w.replay_tasks;
    auto it = index.find(name);
    if (it == index.end()) {
        if (tasks.size() == BLS_MAX_TASKS) {
            d.error(name_at, "more than " + std::to_string(BLS_MAX_TASKS) + " tasks");
            return false;
        }
        const mark cpu_at = with_cpu ? mark{here.file, here.line, cells[3].second} : here;
        it = index.emplace(name, tasks.size()).first;
        tasks.push_back(new_task(name, w.replay, with_cpu, cpu, cpu_at, lim, d));
    }
    workloads::task_params& tp = tasks[it->second];
    if (!tp.util_steps.empty() && t < tp.util_steps.back().at_ms) {
        d.error(here, "task '" + name + "': rows go in time order; " + cells[0].first + " ms is before its previous " +
                          cfg::format_number(tp.util_steps.back().at_ms) + " ms");
        return true;
    }
    tp.util_steps.push_back({t, u});
    return true;
}

} // namespace

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
    w.replay_tasks.clear();
    while (std::getline(in, line)) {
        lineno++;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        const mark here{shown, lineno, 1};
        if (!header) {
            header = true;
            if (!read_header(line, here, with_cpu, d))
                return;
            continue;
        }
        if (!read_row(split_cells(line), here, with_cpu, index, w, lim, d))
            return;
    }
    if (!header)
        d.error(mark{shown, 1, 1}, "the replay file is empty (a header line 'time_ms,task,util_pct' first)");
}

} // namespace detail

} // namespace blsim::soc
