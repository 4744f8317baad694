// soc/batch/src/compare.cpp -- `blsim compare` (docs/compare.md).
#include "blsim/soc/compare.h"
#include "blsim/soc/results_dir.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "blsim/soc/args.h"
#include "blsim/soc/child_runs.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/exit_codes.h"
#include "metrics.h"

namespace blsim::soc {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

const compare_metric_info compare_metric_table[compare_metrics] = {
    {"score", "perf.bbench.score", "score", "", false},
    {"page_load_s", "perf.bbench.page_load_s.total", "page load", "total (s)", false},
    {"audio_misses", "perf.audio.deadline_misses", "audio", "misses", true},
    {"energy_j", "energy_j.total", "energy", "(J)", false},
    {"avg_power_mw", "avg_power_mw", "avg power", "(mW)", false},
    {"switches", "switches.count", "switches", "", true},
    {"migrations", "migrations.count", "migrations", "", true},
};

namespace {

// How many lines of a failed run's stderr are shown.
constexpr std::size_t stderr_tail_lines = 10;

// @v with @decimals digits after the point; never "-0".
std::string fixed(double v, int decimals)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos)
        s.erase(0, 1);
    return s;
}

// A column's decimals: none for a count whose values are all whole; otherwise four
// significant digits for its largest value (at most 6 decimals).
int column_decimals(const std::vector<compare_row>& rows, int m)
{
    bool whole = true;
    double largest = 0;
    for (const compare_row& r : rows) {
        const compare_value& v = r.values[m];
        if (!v.present)
            continue;
        largest = std::max(largest, std::fabs(v.value));
        whole = whole && v.value == std::floor(v.value);
    }
    if (compare_metric_table[m].count && whole)
        return 0;
    const int magnitude = largest > 0 ? static_cast<int>(std::floor(std::log10(largest))) : 0;
    return std::clamp(3 - magnitude, 0, 6);
}

std::optional<double> ratio(const compare_value& v, const compare_value& base)
{
    if (!v.present || !base.present || base.value == 0)
        return std::nullopt;
    return v.value / base.value;
}

std::string pad_left(const std::string& s, std::size_t w) { return std::string(w - std::min(w, s.size()), ' ') + s; }
std::string pad_right(const std::string& s, std::size_t w) { return s + std::string(w - std::min(w, s.size()), ' '); }

std::string rstrip(std::string s)
{
    s.erase(s.find_last_not_of(' ') + 1);
    return s;
}

// The scenario column: the summary's name, followed by the argument when two rows would
// otherwise read the same.
std::vector<std::string> row_labels(const std::vector<compare_row>& rows)
{
    std::vector<std::string> labels;
    for (const compare_row& r : rows)
        labels.push_back(r.scenario ? *r.scenario : "-");
    std::vector<std::string> out = labels;
    for (std::size_t i = 0; i < rows.size(); i++)
        if (std::count(labels.begin(), labels.end(), labels[i]) > 1)
            out[i] += " (" + rows[i].input + ")";
    return out;
}

// Removes a directory tree when it goes out of scope.
struct temp_dir {
    std::string path;
    ~temp_dir()
    {
        if (!path.empty()) {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    }
};

std::string describe_status(int st)
{
    if (WIFEXITED(st)) {
        const int code = WEXITSTATUS(st);
        return "exit status " + std::to_string(code) + (code == exit_usage ? ": bad input" : ": internal error");
    }
    if (WIFSIGNALED(st))
        return "killed by signal " + std::to_string(WTERMSIG(st)) + " (" + strsignal(WTERMSIG(st)) +
               "): internal error";
    return "status " + std::to_string(st) + ": internal error";
}

// One scenario to run.
struct job {
    std::size_t row = 0;
    std::string out_dir, err_file;
};

} // namespace

cmdline::command compare_command(compare_options& opt)
{
    // --keep DIR and --report DIR: a directory.
    auto directory = [](const std::string& flag, std::string& dir) {
        return [&dir, flag](const std::string& v, std::string& e) {
            dir = v;
            if (dir.empty())
                e = flag + " needs a directory";
            return !dir.empty();
        };
    };
    cmdline::command cmd;
    cmd.name = "compare";
    cmd.options = {
        cmdline::value("--jobs", "-j", "N", "at most N runs at once (default: the number of online CPUs)",
                       [&opt](const std::string& v, std::string& e) { return parse_jobs(v, opt.jobs, e); },
                       "-j needs a number of runs"),
        cmdline::flag("--json", nullptr, "print a JSON document instead of the table",
                      [&opt](const std::string&, std::string&) { return opt.json = true; }),
        cmdline::value("--keep", nullptr, "DIR",
                       "keep each run's results in DIR/<k>-<scenario stem>/ (k: the\n"
                       "argument's position, from 1); by default they go to a temporary\n"
                       "directory removed at the end",
                       directory("--keep", opt.keep_dir)),
        cmdline::value("--report", nullptr, "DIR",
                       "also write DIR/report.html: the runs side by side in pictures\n"
                       "(performance against power relative to the first, energy by part),\n"
                       "with compare.json; the runs are kept in DIR unless --keep says\n"
                       "where (scripts/plot-compare, python3-matplotlib; docs/compare.md)",
                       directory("--report", opt.report_dir)),
        cmdline::repeated("--set", nullptr, "KEY=VALUE",
                          "override a configuration key in every scenario run (as 'blsim run\n"
                          "--set'); repeatable; run directories are read unchanged",
                          [&opt](const std::string& kv, std::string& e) {
                              if (kv.empty())
                                  e = "--set needs KEY=VALUE";
                              else
                                  opt.overrides.push_back(kv);
                              return !kv.empty();
                          },
                          "--set needs KEY=VALUE", set_split_in_two),
        cmdline::note("--help", "-h", nullptr, "this text"),
    };
    cmd.operand = [&opt](const std::string& a, std::string&) {
        opt.inputs.push_back(a);
        return true;
    };
    return cmd;
}

bool parse_compare_args(const std::vector<std::string>& args, compare_options& opt, bool& help, std::string& error)
{
    const cmdline::outcome parsed = cmdline::parse(compare_command(opt), args, error);
    help = parsed == cmdline::outcome::help;
    if (parsed != cmdline::outcome::ok)
        return help;
    if (opt.inputs.size() < 2) {
        error = "compare: needs at least two scenarios or run directories (got " + std::to_string(opt.inputs.size()) +
                ")";
        return false;
    }
    return true;
}

bool read_compare_summary(const std::string& path, compare_row& row, std::string& error)
{
    std::string text, why;
    if (!read_source(path, text, why)) {
        error = path + ": cannot read: " + why;
        return false;
    }
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        error = path + ": not JSON (syntax error at byte " + std::to_string(e.byte) + ")";
        return false;
    }
    if (!j.is_object()) {
        error = path + ": not a summary (a JSON " + std::string(j.type_name()) + ", not an object)";
        return false;
    }
    for (auto [key, field] : {std::make_pair("scenario", &row.scenario), std::make_pair("mode", &row.mode)}) {
        field->reset();
        if (auto it = j.find(key); it != j.end() && !it->is_null()) {
            if (!it->is_string()) {
                error = path + ": " + key + " is not a string";
                return false;
            }
            *field = it->get<std::string>();
        }
    }
    for (int m = 0; m < compare_metrics; m++) {
        compare_value& v = row.values[m];
        v = compare_value{};
        // A metric a summary lacks, or has as null, is missing (an older or partial run):
        // shown as "-", not an error.
        const std::vector<std::string> keys = dotted_path(compare_metric_table[m].path);
        const path_walk<json> w = walk_path(j, keys, false);
        if (w.end == path_end::no_key || w.at->is_null())
            continue;
        if (w.end == path_end::not_container) {
            error = path + ": " + walked_path(keys, w.walked) + " is not an object";
            return false;
        }
        if (!w.at->is_number()) {
            error = path + ": " + walked_path(keys, w.walked) + " is not a number";
            return false;
        }
        v.present = true;
        v.value = w.at->get<double>();
        v.integer = w.at->is_number_integer();
    }
    return true;
}

std::string compare_table(const std::vector<compare_row>& rows)
{
    if (rows.empty())
        return "";
    const compare_row& base = rows[0];
    const std::string sep = "  ";

    // Each numeric cell is the value and the ratio, each right-aligned in its own width.
    struct column {
        std::vector<std::string> values, ratios;
        std::size_t value_w = 0, ratio_w = 0, width = 0;
    };
    std::vector<column> cols(compare_metrics);
    for (int m = 0; m < compare_metrics; m++) {
        column& c = cols[m];
        const int decimals = column_decimals(rows, m);
        for (const compare_row& r : rows) {
            const compare_value& v = r.values[m];
            const std::optional<double> q = ratio(v, base.values[m]);
            c.values.push_back(v.present ? fixed(v.value, decimals) : "-");
            c.ratios.push_back(!v.present ? "" : q ? "(" + fixed(*q, 2) + "x)" : "(-)");
            c.value_w = std::max(c.value_w, c.values.back().size());
            c.ratio_w = std::max(c.ratio_w, c.ratios.back().size());
        }
        c.width = std::max({c.value_w + 1 + c.ratio_w, std::strlen(compare_metric_table[m].heading1),
                            std::strlen(compare_metric_table[m].heading2)});
    }
    const std::vector<std::string> labels = row_labels(rows);
    std::size_t label_w = std::strlen("scenario"), mode_w = std::strlen("mode");
    for (const std::string& l : labels)
        label_w = std::max(label_w, l.size());
    for (const compare_row& r : rows)
        mode_w = std::max(mode_w, r.mode ? r.mode->size() : 1);

    std::string h1 = pad_right("scenario", label_w) + sep + pad_right("mode", mode_w),
                h2 = pad_right("", label_w) + sep + pad_right("", mode_w),
                rule = std::string(label_w, '-') + sep + std::string(mode_w, '-');
    for (int m = 0; m < compare_metrics; m++) {
        h1 += sep + pad_left(compare_metric_table[m].heading1, cols[m].width);
        h2 += sep + pad_left(compare_metric_table[m].heading2, cols[m].width);
        rule += sep + std::string(cols[m].width, '-');
    }
    std::string out = rstrip(h1) + "\n" + rstrip(h2) + "\n" + rule + "\n";
    for (std::size_t i = 0; i < rows.size(); i++) {
        std::string line = pad_right(labels[i], label_w) + sep + pad_right(rows[i].mode ? *rows[i].mode : "-", mode_w);
        for (int m = 0; m < compare_metrics; m++) {
            const column& c = cols[m];
            const std::string cell = pad_left(c.values[i], c.value_w) + " " + pad_right(c.ratios[i], c.ratio_w);
            line += sep + pad_left(cell, c.width);
        }
        out += rstrip(line) + "\n";
    }
    out += "ratios in parentheses are relative to the first row; -: missing or no ratio; higher score is better\n";
    return out;
}

std::string compare_json(const std::vector<compare_row>& rows)
{
    json doc;
    doc["base"] = rows.empty() || !rows[0].scenario ? json(nullptr) : json(*rows[0].scenario);
    json list = json::array();
    for (const compare_row& r : rows) {
        json o;
        o["scenario"] = r.scenario ? json(*r.scenario) : json(nullptr);
        o["input"] = r.input;
        if (!r.dir.empty())
            o["dir"] = r.dir;
        o["mode"] = r.mode ? json(*r.mode) : json(nullptr);
        for (int m = 0; m < compare_metrics; m++) {
            const compare_value& v = r.values[m];
            const std::string key = compare_metric_table[m].key;
            if (!v.present)
                o[key] = nullptr;
            else if (v.integer)
                o[key] = static_cast<std::int64_t>(v.value);
            else
                o[key] = v.value;
            const std::optional<double> q = ratio(v, rows[0].values[m]);
            o[key + "_ratio"] = q ? json(*q) : json(nullptr);
        }
        list.push_back(o);
    }
    doc["rows"] = list;
    return doc.dump(2) + "\n";
}

namespace {

// --report DIR, once the table is printed: DIR/compare.json (the --json document; every row
// names its run directory) and scripts/plot-compare's pictures and page from it.
int write_compare_report(const std::string& dir, const std::vector<compare_row>& rows, bool json_out,
                         std::ostream& out, std::ostream& err)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::string error;
    if (ec || !fs::is_directory(dir)) {
        err << "blsim: compare: cannot create the --report directory '" << dir
            << "': " << (ec ? ec.message() : std::string(std::strerror(ENOTDIR))) << "\n";
        return exit_failed;
    }
    if (!write_file_atomically((fs::path(dir) / "compare.json").string(), compare_json(rows), error)) {
        err << "blsim: compare: --report: " << error << "\n";
        return exit_failed;
    }
    const int st = run_python_script(script_path("plot-compare"), dir, true);
    if (st != 0) {
        err << "blsim: compare: --report: scripts/plot-compare failed (exit status "
            << (WIFEXITED(st) ? WEXITSTATUS(st) : -1) << "); the comparison is printed above\n";
        return exit_failed;
    }
    if (!json_out)
        out << "report: " << (fs::path(dir) / "report.html").string() << "\n";
    return exit_ok;
}

// Checks argument @k (a run directory, its summary.json, or a scenario loaded with the
// overrides): a run's numbers go into @row, a scenario becomes a job. False (reported) when it
// is neither.
bool check_input(const compare_options& opt, std::size_t k, compare_row& row, std::vector<job>& jobs,
                 std::ostream& err)
{
    auto refuse = [&](const std::string& message) {
        err << "blsim: compare: " << message << "\n";
        return false;
    };
    const std::string& in = opt.inputs[k];
    row.input = in;
    const bool builtin = in.rfind("builtin:", 0) == 0;
    std::error_code ec;
    const fs::file_status st = builtin ? fs::file_status(fs::file_type::regular) : fs::status(in, ec);
    std::string error;
    if (fs::is_directory(st)) {
        const fs::path summary = fs::path(in) / "summary.json";
        if (!fs::exists(summary, ec))
            return refuse("'" + in + "' is a directory without summary.json (not a complete run)");
        if (!read_compare_summary(summary.string(), row, error))
            return refuse(error);
        row.dir = in;
    } else if (!builtin && fs::exists(st) && fs::path(in).filename() == "summary.json") {
        // A run directory's summary named itself.
        if (!read_compare_summary(in, row, error))
            return refuse(error);
        row.dir = fs::path(in).has_parent_path() ? fs::path(in).parent_path().string() : ".";
    } else if (fs::exists(st)) {
        cfg::diagnostics diag;
        scenario_config cfg;
        if (!load_scenario(in, opt.overrides, cfg, diag)) {
            diag.print(err);
            return false;
        }
        job j;
        j.row = k;
        jobs.push_back(j);
    } else if (st.type() == fs::file_type::not_found) {
        return refuse("'" + in + "': no such file or directory (neither a scenario nor a run directory)");
    } else {
        return refuse("'" + in + "': cannot access: " + ec.message());
    }
    return true;
}

// Every argument is checked (each scenario loaded, with the overrides), and --set and --report
// with them, before anything runs; false (every problem reported) when any is bad.
bool check_inputs(const compare_options& opt, std::vector<compare_row>& rows, std::vector<job>& jobs,
                  std::ostream& err)
{
    bool bad = false;
    for (std::size_t k = 0; k < opt.inputs.size(); k++)
        bad = !check_input(opt, k, rows[k], jobs, err) || bad;
    if (!opt.overrides.empty() && jobs.empty() && !bad) {
        err << "blsim: compare: --set changes the scenarios that compare runs, and no argument is a scenario\n";
        bad = true;
    }
    if (!opt.report_dir.empty()) {
        std::error_code ec;
        if (fs::exists(opt.report_dir, ec) && !fs::is_directory(opt.report_dir, ec)) {
            err << "blsim: compare: --report '" << opt.report_dir << "': it exists and is not a directory\n";
            bad = true;
        }
    }
    return !bad;
}

// Where each job's run goes (under --keep, or the scratch directory @work) and its stderr
// (always under @work); checked before anything runs. An exit status, exit_ok when all is set.
int place_jobs(const compare_options& opt, std::vector<job>& jobs, temp_dir& work, std::ostream& err)
{
    // An environment failure (TMPDIR missing, full or unwritable), named with its path.
    std::string tmpl, why;
    if (!make_scratch_dir("blsim-compare", tmpl, why)) {
        err << "blsim: error: compare: cannot create a temporary directory " << why << "\n";
        return exit_failed;
    }
    work.path = tmpl;
    if (!opt.keep_dir.empty()) {
        std::error_code ec;
        fs::create_directories(opt.keep_dir, ec);
        if (ec || !fs::is_directory(opt.keep_dir)) {
            err << "blsim: compare: cannot create the --keep directory '" << opt.keep_dir
                << "': " << (ec ? ec.message() : std::string(std::strerror(ENOTDIR))) << "\n";
            return exit_usage;
        }
    }
    for (job& j : jobs) {
        const std::string num = std::to_string(j.row + 1);
        std::string stem = fs::path(opt.inputs[j.row]).stem().string();
        if (stem.empty())
            stem = "scenario";
        j.out_dir = opt.keep_dir.empty() ? (fs::path(work.path) / num).string()
                                         : (fs::path(opt.keep_dir) / (num + "-" + stem)).string();
        j.err_file = (fs::path(work.path) / (num + ".stderr")).string();
        std::error_code ec;
        if (fs::exists(j.out_dir, ec) && !fs::is_directory(j.out_dir, ec)) {
            err << "blsim: compare: cannot keep the results of '" << opt.inputs[j.row] << "' in '" << j.out_dir
                << "': it exists and is not a directory\n";
            return exit_usage;
        }
        // A directory holds one run's set: an earlier comparison's is not mixed into.
        std::string why;
        if (!opt.keep_dir.empty() && !check_out_dir(j.out_dir, false, why)) {
            err << "blsim: compare: cannot keep the results of '" << opt.inputs[j.row] << "' in '" << j.out_dir
                << "': it holds an earlier run's results (give another --keep directory)\n";
            return exit_usage;
        }
    }
    return exit_ok;
}

// Runs the jobs, at most N at once; every scenario runs, even after one fails, so that the
// report does not depend on timing. Then the runs' stderr, in argument order: a failed run's
// last lines, a successful run's warnings in full. An exit status: the first failure's class.
int run_jobs(const compare_options& opt, const std::vector<job>& jobs, std::ostream& err)
{
    std::vector<run_request> requests;
    for (const job& j : jobs)
        requests.push_back({opt.exe, j.out_dir, opt.inputs[j.row], opt.overrides, {}, j.err_file});
    std::vector<run_outcome> outcomes;
    std::string error;
    if (!run_children(requests, {runs_at_once(opt.jobs), false, ""}, outcomes, error)) {
        err << "blsim: compare: waiting for the runs: " << error << "\n";
        return exit_failed;
    }
    int rc = exit_ok;
    for (std::size_t k = 0; k < jobs.size(); k++) {
        const std::string& in = opt.inputs[jobs[k].row];
        const run_outcome& o = outcomes[k];
        if (!o.start_error.empty()) {
            err << "blsim: compare: cannot start '" << opt.exe << "' to run '" << in << "': " << o.start_error
                << "\n";
            rc = rc ? rc : exit_failed;
            continue;
        }
        const std::vector<std::string> lines = file_lines(jobs[k].err_file);
        if (o.succeeded()) {
            if (!lines.empty()) {
                err << "blsim: compare: the run of '" << in << "' printed:\n";
                write_indented(err, lines);
            }
            continue;
        }
        const int cls = WIFEXITED(o.status) && WEXITSTATUS(o.status) == exit_usage ? exit_usage : exit_failed;
        rc = rc ? rc : cls;
        err << "blsim: compare: the run of '" << in << "' failed (" << describe_status(o.status) << ")";
        write_stderr_tail(err, lines, stderr_tail_lines);
    }
    return rc;
}

// Each job's numbers, from the summary.json its run wrote; false (reported) at the first
// unreadable one.
bool read_job_results(const compare_options& opt, const std::vector<job>& jobs, std::vector<compare_row>& rows,
                      std::ostream& err)
{
    for (const job& j : jobs) {
        std::string error;
        if (!read_compare_summary((fs::path(j.out_dir) / "summary.json").string(), rows[j.row], error)) {
            err << "blsim: compare: the run of '" << opt.inputs[j.row] << "' left no readable results: " << error
                << "\n";
            return false;
        }
        if (!opt.keep_dir.empty())
            rows[j.row].dir = j.out_dir;
    }
    return true;
}

// Runs the scenarios among the arguments and reads their numbers into @rows. An exit status.
int run_scenarios(const compare_options& opt, std::vector<job>& jobs, std::vector<compare_row>& rows,
                  std::ostream& err)
{
    temp_dir work;
    if (const int rc = place_jobs(opt, jobs, work, err); rc != exit_ok)
        return rc;
    if (const int rc = run_jobs(opt, jobs, err); rc != exit_ok)
        return rc;
    return read_job_results(opt, jobs, rows, err) ? exit_ok : exit_failed;
}

} // namespace

int run_compare(const compare_options& given, std::ostream& out, std::ostream& err)
{
    // The page reads every run's summary: without --keep, the runs are kept beside it.
    compare_options opt = given;
    if (!opt.report_dir.empty() && opt.keep_dir.empty())
        opt.keep_dir = opt.report_dir;
    std::vector<compare_row> rows(opt.inputs.size());
    std::vector<job> jobs;
    if (!check_inputs(opt, rows, jobs, err))
        return exit_usage;
    if (!jobs.empty())
        if (const int rc = run_scenarios(opt, jobs, rows, err); rc != exit_ok)
            return rc;

    out << (opt.json ? compare_json(rows) : compare_table(rows));
    out.flush();
    return opt.report_dir.empty() ? exit_ok : write_compare_report(opt.report_dir, rows, opt.json, out, err);
}

} // namespace blsim::soc
