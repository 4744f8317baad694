// soc/cli/cmd_run.cpp -- `blsim run`: one scenario simulated, its results set written all at
// once (docs/results.md), with the traces, rt-app's log and the report it asks for.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "blsim/soc/args.h"
#include "blsim/soc/child_runs.h"
#include "blsim/soc/exit_codes.h"
#include "blsim/soc/platform.h"
#include "blsim/soc/reports.h"
#include "blsim/soc/results.h"
#include "blsim/soc/results_dir.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/trace_writers.h"
#include "commands.h"
#ifdef BLSIM_TEST_HOOKS
#include "test_hooks.h"
#endif

namespace blsim::cli {

namespace {

namespace fs = std::filesystem;
namespace cmdline = blsim::soc::cmdline;
using blsim::soc::exit_failed;
using blsim::soc::exit_ok;
using blsim::soc::exit_usage;
using file_list = std::vector<std::pair<std::string, std::string>>;

struct run_options {
    std::string scenario_path;
    std::string out_dir = "out";
    std::vector<std::string> overrides;
    bool quiet = false, force = false;
    bool trace_perfetto = false, trace_ftrace = false, trace_vcd = false, gzip = false, report = false;
    std::string rtapp_log;
    bool rtapp_log_given = false;
#ifdef BLSIM_TEST_HOOKS
    blsim::soc::test_hooks hooks;
#endif
};

bool take_trace_kinds(run_options& o, const std::string& kinds, std::string& error)
{
    if (kinds.empty()) {
        error = "--trace needs one of: perfetto, ftrace, vcd";
        return false;
    }
    std::stringstream ss(kinds);
    for (std::string k; std::getline(ss, k, ',');) {
        if (k == "perfetto")
            o.trace_perfetto = true;
        else if (k == "ftrace")
            o.trace_ftrace = true;
        else if (k == "vcd")
            o.trace_vcd = true;
        else {
            error = "--trace: unknown kind '" + k + "' (perfetto, ftrace, vcd)";
            return false;
        }
    }
    return true;
}

// The test build's binary, blsim-test, also takes --mutant and --inject-bug
// (soc/cli/test_hooks.h), parsed by take_test_hook; these rows only describe them.
std::vector<cmdline::option> test_hook_rows()
{
#ifdef BLSIM_TEST_HOOKS
    return {
        cmdline::note("--inject-bug", nullptr, "NAME",
            "make the simulator misbehave on purpose, to see its run-time\n"
            "checks stop the run (exit 1): meter-time-reversal,\n"
            "mcpm-state-corruption, task-lost, dirty-line-lost (blsim-test\n"
            "only)"),
        cmdline::note("--mutant", nullptr, "NAME",
            "run a known-bad variant of the switcher's C code, to see blsim\n"
            "explore find it (docs/explore.md): gic-forgets-pending-sgis,\n"
            "vlock-without-voting, last-man-ignores-inbound,\n"
            "gate-opened-before-save (blsim-test only)"),
    };
#else
    return {};
#endif
}

// A flag's action: @field set.
cmdline::take_fn set_true(bool& field)
{
    return [&field](const std::string&, std::string&) { return field = true; };
}

// run's options: the table its parse and its --help are made from.
cmdline::command run_command(run_options& o)
{
    cmdline::command cmd;
    cmd.name = "run";
    cmd.rules = {false, false, false}; // -h in turn; "--" and "-" unknown options
    cmd.options = {
        cmdline::value("--out", nullptr, "DIR",
            "results directory (default: out): absent or empty, checked before\n"
            "the simulation. Gets DIR/effective-config.yaml (every key as run,\n"
            "defaults included), DIR/switches.csv (one row per switch) and\n"
            "DIR/summary.json (docs/results.md), all at once: the set is\n"
            "written into a hidden sibling (.DIR.blsim-tmp.PID) renamed to DIR\n"
            "at the end; a failed run publishes nothing",
            [&o](const std::string& v, std::string&) { o.out_dir = v; return true; }, "--out needs a directory"),
        cmdline::flag("--force", nullptr,
            "DIR may hold an earlier run's results: replaced, all at once,\n"
            "by this run's (only if this run succeeds)",
            set_true(o.force)),
        cmdline::repeated("--set", nullptr, "KEY=VALUE",
            "override one configuration key, e.g. --set duration_s=10,\n"
            "--set soc.clusters.a15.cores=1, --set governor.freq_mhz={a7: 500}.\n"
            "Repeatable; applied in order; validated like the file.",
            [&o](const std::string& v, std::string&) { o.overrides.push_back(v); return true; },
            "--set needs KEY=VALUE", blsim::soc::set_split_in_two),
        cmdline::repeated("--trace", nullptr, "KIND",
            "also write a timeline (docs/traces.md); repeatable, or KIND,KIND:\n"
            "perfetto: DIR/trace.json, Chrome's trace-event JSON (ui.perfetto.dev);\n"
            "ftrace: DIR/trace.txt, the kernel's trace text (sched_switch, ...);\n"
            "vcd: DIR/trace.vcd, SystemC's VCD of power states, lines, clocks",
            [&o](const std::string& v, std::string& e) { return take_trace_kinds(o, v, e); }),
        cmdline::flag("--gzip", nullptr, "compress trace.json and trace.txt (.gz)", set_true(o.gzip)),
        cmdline::value("--rtapp-log", nullptr, "DIR",
            "also write rt-app's log, one file per thread with rt-app's header\n"
            "and columns: DIR/<log_basename>-<name>-<index>.log (docs/results.md);\n"
            "only for a workload of kind rtapp. DIR inside --out: part of the\n"
            "results set; elsewhere: a set of its own, absent or empty (or\n"
            "--force), published at the end",
            [&o](const std::string& v, std::string&) { o.rtapp_log = v; o.rtapp_log_given = true; return true; }),
        cmdline::flag("--report", nullptr,
            "also draw the plots and DIR/report.html (implies --trace\n"
            "perfetto; runs scripts/plot with python3-matplotlib; docs/report.md)",
            [&o](const std::string&, std::string&) { o.report = o.trace_perfetto = true; return true; }),
        cmdline::flag("--quiet", "-q",
            "print nothing on success (no progress line either; the progress\n"
            "line of simulated time, speed and ETA shows only on a terminal)",
            set_true(o.quiet)),
    };
    for (cmdline::option& hook : test_hook_rows())
        cmd.options.push_back(std::move(hook));
    cmd.options.push_back(cmdline::note("--help", "-h", nullptr, "this text"));
    cmd.operand = [&o](const std::string& a, std::string& error) {
        if (!o.scenario_path.empty()) {
            error = "run: only one SCENARIO may be given (also got '" + a + "')";
            return false;
        }
        o.scenario_path = a;
        return true;
    };
#ifdef BLSIM_TEST_HOOKS
    cmd.other = [&o](const std::vector<std::string>& a, std::size_t& i, std::string& error) {
        return blsim::soc::take_test_hook(a, i, o.hooks, error);
    };
#endif
    return cmd;
}

std::string run_help(const cmdline::command& cmd)
{
    return "usage: blsim run [SCENARIO] [--out DIR] [--force] [--set KEY=VALUE]... [--trace KIND]... [--gzip]\n"
           "                 [--rtapp-log DIR] [--quiet]\n"
           "\n"
           "Simulate SCENARIO (a YAML file; see docs/config.md) and write its results.\n"
           "Without SCENARIO, runs the built-in default, configs/scenarios/bbench-iks-tuned.yaml.\n"
           "\n" +
           cmdline::option_lines(cmd.options) +
           "\n"
           "Configuration errors are printed as file:line:col: message (an override's location is\n"
           "--set:N:col), all at once; the exit status is then 2 and nothing is written.\n";
}

// The scenario with the overrides; bad input is reported as file:line:col: message.
int load_run_scenario(const run_options& o, blsim::soc::scenario_config& cfg)
{
    blsim::cfg::diagnostics diag;
    if (!blsim::soc::load_scenario(o.scenario_path.empty() ? blsim::soc::default_scenario : o.scenario_path,
                                   o.overrides, cfg, diag)) {
        diag.print(std::cerr);
        diag.print_notes(std::cerr);
        return exit_usage;
    }
    if (!o.quiet)
        diag.print_notes(std::cerr);
    // rt-app's log: only an rt-app workload has one. Recording it changes nothing simulated.
    if (o.rtapp_log_given && cfg.workload.kind != "rtapp") {
        std::cerr << "blsim: --rtapp-log: scenario '" << cfg.name << "' runs a workload of kind "
                  << cfg.workload.kind << ", not rtapp: it has no rt-app log\n";
        return exit_usage;
    }
    cfg.workload.rtapp_params.log = o.rtapp_log_given;
    return exit_ok;
}

// Where the results are written before they are published: a hidden staging directory beside
// --out, renamed to it in one step (docs/results.md); rt-app's log goes into the set
// (--rtapp-log inside --out, at log_sub), or is a set of its own, staged the same way.
struct results_staging {
    std::string staging, log_staging, log_sub;
    bool log_in_set = true;
};

// The results must have somewhere to go before the simulation runs: a directory that holds
// no other run's set (or --force), and the staging directories.
int stage_results(const run_options& o, results_staging& st)
{
    std::string error;
    if (!blsim::soc::check_out_dir(o.out_dir, o.force, error) ||
        (o.rtapp_log_given &&
            !blsim::soc::place_rtapp_log(o.out_dir, o.rtapp_log, o.force, st.log_in_set, st.log_sub, error))) {
        std::cerr << "blsim: " << error << "\n";
        return exit_usage;
    }
    if (!blsim::soc::stage_out_dir(o.out_dir, st.staging, error) ||
        (!st.log_in_set && !blsim::soc::stage_out_dir(o.rtapp_log, st.log_staging, error))) {
        std::cerr << "blsim: cannot write results to " << error << "\n";
        return exit_usage;
    }
    return exit_ok;
}

// Whatever way the run ends, an unpublished staging directory goes with it.
struct staging_guard {
    std::string& path;
    ~staging_guard()
    {
        std::error_code ec;
        if (!path.empty())
            fs::remove_all(path, ec);
    }
};

// Progress on one updating line, for a person at a terminal: simulated time, speed, ETA.
class progress_line {
public:
    progress_line(bool quiet, std::chrono::steady_clock::time_point t0)
        : shown_(!quiet && (::isatty(STDERR_FILENO) || std::getenv("BLSIM_PROGRESS"))), t0_(t0), last_(t0)
    {
    }
    blsim::soc::platform::progress_fn function()
    {
        if (!shown_)
            return {};
        return [this](double sim_s, double total_s) { show(sim_s, total_s); };
    }
    // The line goes (a message or the summary follows).
    void clear(bool flush) const
    {
        if (!shown_)
            return;
        std::fputs("\r\033[K", stderr);
        if (flush)
            std::fflush(stderr);
    }

private:
    void show(double sim_s, double total_s)
    {
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(200) && sim_s < total_s)
            return;
        last_ = now;
        const double wall = std::chrono::duration<double>(now - t0_).count();
        const double rtf = wall > 0 ? sim_s / wall : 0;
        const double eta = rtf > 0 ? (total_s - sim_s) / rtf : 0;
        std::fprintf(stderr, "\r\033[K%.3f / %.3f s simulated (%.0f%%), %.0fx real time, ETA %.0f s", sim_s, total_s,
                     total_s > 0 ? 100 * sim_s / total_s : 100.0, rtf, eta);
        std::fflush(stderr);
    }
    const bool shown_;
    const std::chrono::steady_clock::time_point t0_;
    std::chrono::steady_clock::time_point last_;
};

// After an internal error: no results (they would not be a run's). But the trace up to the
// violation, when one was asked for, is what shows how the run got there (the command explore
// prints for a violating seed asks for one); without a summary.json it is no results set.
void write_trace_up_to_violation(blsim::soc::platform& plat, const run_options& o, results_staging& st,
                                 const std::string& vcd_tmp)
{
    std::remove((vcd_tmp + ".vcd").c_str());
    std::string error;
    file_list files;
    try {
        files = blsim::soc::trace_files(plat, o.gzip);
    } catch (const std::exception& e2) { // the trace writer's own check failed too
        std::cerr << "blsim: internal error: " << e2.what() << "\n";
    }
    // Published only where no older set is: a failed run leaves an existing one untouched.
    if (!files.empty() && !blsim::soc::check_out_dir(o.out_dir, false, error)) {
        std::cerr << "blsim: the trace up to the violation is not written: " << o.out_dir
                  << " holds an earlier run's results\n";
    } else if (!files.empty() && blsim::soc::write_files(st.staging, files, error) &&
               blsim::soc::publish_out_dir(st.staging, o.out_dir, error)) {
        st.staging.clear();
        std::cerr << "blsim: the trace up to the violation:";
        for (const auto& f : files)
            std::cerr << " " << o.out_dir << "/" << f.first;
        std::cerr << "\n";
    } else if (!files.empty()) {
        std::cerr << "blsim: cannot write the trace up to the violation: " << error << "\n";
    }
}

// The VCD file, written while the run went, into the staging directory as trace.vcd. SystemC
// stamps it with the wall-clock date: replaced, so that the same scenario and seed give the
// same bytes.
bool place_vcd(const std::string& vcd_tmp, const std::string& staging, const std::string& out_dir)
{
    std::error_code ec;
    {
        std::string vcd, why;
        if (!blsim::soc::read_source(vcd_tmp + ".vcd", vcd, why)) {
            std::cerr << "blsim: error: cannot write results: " << out_dir << "/trace.vcd: " << why << "\n";
            return false;
        }
        const std::size_t d = vcd.find("$date"), e = vcd.find("$end", d);
        if (d != std::string::npos && e != std::string::npos)
            vcd.replace(d, e - d, "$date\n     (omitted: blsim's outputs depend only on the scenario and seed)\n");
        std::ofstream out(vcd_tmp + ".vcd", std::ios::binary | std::ios::trunc);
        out << vcd;
        out.flush();
        if (!out) {
            std::cerr << "blsim: error: cannot write results: " << out_dir << "/trace.vcd: " << std::strerror(errno)
                      << "\n";
            return false;
        }
    }
    fs::rename(vcd_tmp + ".vcd", fs::path(staging) / "trace.vcd", ec);
    if (ec) {
        std::cerr << "blsim: error: cannot write results: " << out_dir << "/trace.vcd: " << ec.message() << "\n";
        return false;
    }
    return true;
}

// What the run writes, by name.
struct run_outputs {
    file_list files;                    // the results set's files
    std::vector<std::string> names;     // printed after the set's three: the traces (and the report's)
    file_list logs;                     // rt-app's log
    std::vector<std::string> log_names; // rt-app's log in the set: listed by summary.json, not printed
};

// The traces (the trace writers check what they draw, docs/traces.md), rt-app's log and the
// set's own three files.
bool collect_outputs(blsim::soc::platform& plat, const blsim::soc::scenario_config& cfg, const run_options& o,
                     const results_staging& st, const std::string& vcd_tmp, const blsim::soc::host_stats& host,
                     run_outputs& out)
{
    try {
        out.files = blsim::soc::trace_files(plat, o.gzip);
    } catch (const std::exception& e) {
        std::cerr << "blsim: internal error: " << e.what() << "\n";
        return false;
    }
    for (const auto& f : out.files)
        out.names.push_back(f.first);
    plat.close_vcd();
    if (o.trace_vcd) {
        if (!place_vcd(vcd_tmp, st.staging, o.out_dir))
            return false;
        out.names.push_back("trace.vcd");
    }
    if (o.rtapp_log_given)
        out.logs = blsim::soc::rtapp_log_files(plat);
    if (st.log_in_set)
        for (auto& [name, text] : out.logs) {
            name = st.log_sub.empty() ? name : (fs::path(st.log_sub) / name).string();
            out.log_names.push_back(name);
            out.files.push_back({name, std::move(text)});
        }
    std::vector<std::string> set_names = out.names;
    set_names.insert(set_names.end(), out.log_names.begin(), out.log_names.end());
    out.files.push_back({"effective-config.yaml", blsim::soc::effective_yaml(cfg)});
    out.files.push_back({"switches.csv", blsim::soc::switches_csv(plat)});
    out.files.push_back({"summary.json", blsim::soc::summary_json(plat, host, set_names)});
    return true;
}

// The set written and published all at once, and rt-app's log beside it when it is a set of
// its own.
bool publish_results(const run_options& o, results_staging& st, const run_outputs& out)
{
    std::string error;
    if (!st.log_in_set && !blsim::soc::write_files(st.log_staging, out.logs, error)) {
        const std::string shown =
            error.rfind(st.log_staging, 0) == 0 ? o.rtapp_log + error.substr(st.log_staging.size()) : error;
        std::cerr << "blsim: error: cannot write results: " << shown << "\n";
        return false;
    }
    if (!blsim::soc::write_files(st.staging, out.files, error) ||
        !blsim::soc::publish_out_dir(st.staging, o.out_dir, error)) {
        // An environment failure (a full disk, a directory made unwritable meanwhile): the
        // older set, if any, is as it was, and the staging directory goes.
        const std::string shown = error.rfind(st.staging, 0) == 0 ? o.out_dir + error.substr(st.staging.size()) : error;
        std::cerr << "blsim: error: cannot write results: " << shown << "\n";
        return false;
    }
    st.staging.clear();
    if (!st.log_in_set) {
        if (!blsim::soc::publish_out_dir(st.log_staging, o.rtapp_log, error)) {
            std::cerr << "blsim: error: cannot write results: " << error << "\n";
            return false;
        }
        st.log_staging.clear();
    }
    return true;
}

// --report: the pictures and the page, from the results just written (scripts/plot), run
// without a shell: the directory is an argument as it is. The set then holds them too:
// summary.json lists them, and @out's names gain them.
bool write_report(blsim::soc::platform& plat, const run_options& o, const blsim::soc::host_stats& host,
                  run_outputs& out)
{
    const int st = blsim::soc::run_python_script(blsim::soc::script_path("plot"), o.out_dir, o.quiet);
    if (st != 0) {
        std::cerr << "blsim: --report: scripts/plot failed (exit status " << (WIFEXITED(st) ? WEXITSTATUS(st) : -1)
                  << "); the run's results are written\n";
        return false;
    }
    std::string error;
    std::vector<std::string>& names = out.names;
    names = blsim::soc::set_files(o.out_dir);
    if (!blsim::soc::write_file_atomically((fs::path(o.out_dir) / "summary.json").string(),
                                           blsim::soc::summary_json(plat, host, names), error)) {
        std::cerr << "blsim: error: cannot write results: " << error << "\n";
        return false;
    }
    names.erase(std::remove_if(names.begin(), names.end(),
                               [&](const std::string& n) {
                                   return n == "effective-config.yaml" || n == "switches.csv" ||
                                          std::find(out.log_names.begin(), out.log_names.end(), n) !=
                                              out.log_names.end();
                               }),
                names.end());
    return true;
}

void print_run_summary(blsim::soc::platform& plat, const run_options& o, const results_staging& st,
                       const blsim::soc::host_stats& host, const run_outputs& out)
{
    std::cout << blsim::soc::human_summary(plat, host) << "results: " << o.out_dir << "/summary.json, " << o.out_dir
              << "/switches.csv, " << o.out_dir << "/effective-config.yaml";
    for (const std::string& n : out.names)
        std::cout << ", " << o.out_dir << "/" << n;
    std::cout << "\n";
    if (o.rtapp_log_given)
        std::cout << "rt-app log: " << out.logs.size() << " file" << (out.logs.size() == 1 ? "" : "s") << " in "
                  << (st.log_in_set ? (fs::path(o.out_dir) / st.log_sub).lexically_normal().string() : o.rtapp_log)
                  << "\n";
}

// The simulation, then its results written and published.
int simulate(const blsim::soc::scenario_config& cfg, const run_options& o, results_staging& st)
{
    const auto t0 = std::chrono::steady_clock::now();
#ifdef BLSIM_TEST_HOOKS
    blsim::soc::platform plat(cfg, o.hooks.mutant);
    blsim::soc::inject_bug(plat, o.hooks.bug);
#else
    blsim::soc::platform plat(cfg);
#endif
    // The VCD file is written while the run goes, in the staging directory, renamed at the end.
    const std::string vcd_tmp = (fs::path(st.staging) / ".trace.tmp").string();
    plat.enable_traces(o.trace_perfetto, o.trace_ftrace, o.trace_vcd ? vcd_tmp : std::string());
    progress_line progress(o.quiet, t0);
    try {
        plat.run(progress.function());
    } catch (const std::exception& e) {
        progress.clear(false);
        std::cerr << "blsim: internal error: " << e.what() << "\n";
        write_trace_up_to_violation(plat, o, st, vcd_tmp);
        return exit_failed;
    }
    progress.clear(true); // the summary follows
    const auto t1 = std::chrono::steady_clock::now();

    blsim::soc::host_stats host;
    host.wall_s = std::chrono::duration<double>(t1 - t0).count();
    host.events = plat.events();
    host.peak_rss_mb = blsim::soc::peak_rss_mb();

    run_outputs out;
    if (!collect_outputs(plat, cfg, o, st, vcd_tmp, host, out) || !publish_results(o, st, out))
        return exit_failed;
    if (o.report && !write_report(plat, o, host, out))
        return exit_failed;
    if (!o.quiet)
        print_run_summary(plat, o, st, host, out);
    return exit_ok;
}

int run(const arguments& argv)
{
    run_options o;
    const cmdline::command cmd = run_command(o);
    std::string error;
    switch (cmdline::parse(cmd, argv, error)) {
    case cmdline::outcome::help:
        std::cout << run_help(cmd);
        return exit_ok;
    case cmdline::outcome::error:
        return usage_error(error);
    case cmdline::outcome::ok:
        break;
    }
    if (o.out_dir.empty())
        return usage_error("--out needs a directory");
    if (o.rtapp_log_given && o.rtapp_log.empty())
        return usage_error("--rtapp-log needs a directory");

    blsim::soc::scenario_config cfg;
    if (const int rc = load_run_scenario(o, cfg); rc != exit_ok)
        return rc;
    results_staging st;
    if (const int rc = stage_results(o, st); rc != exit_ok)
        return rc;
    staging_guard guard{st.staging}, log_guard{st.log_staging};
    return simulate(cfg, o, st);
}

} // namespace

int cmd_run(const arguments& args)
{
    // Simulator warnings must be seen, on stderr, one line each; informational chatter is not
    // wanted.
    blsim::soc::install_report_handler();
    const int rc = run(args);
    blsim::soc::summarise_reports(std::cerr);
    return rc;
}

} // namespace blsim::cli
