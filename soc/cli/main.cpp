// soc/cli/main.cpp -- the blsim command line.
//
// Exit status: 0 success, 2 bad input (usage or configuration; nothing written),
// 1 internal error (a simulator bug or an environment failure such as an unwritable --out).
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
#include <systemc>
#include <vector>

#include "blsim/soc/child_runs.h"
#include "blsim/soc/compare.h"
#include "blsim/soc/exit_codes.h"
#include "blsim/soc/explore.h"
#include "blsim/soc/platform.h"
#include "blsim/soc/regress.h"
#include "blsim/soc/reports.h"
#include "blsim/soc/results.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/sweep.h"
#include "blsim/soc/trace_writers.h"
#include "blsim/soc/tune.h"
#ifdef BLSIM_TEST_HOOKS
#include "test_hooks.h"
#endif

namespace {

using blsim::soc::exit_failed;
using blsim::soc::exit_ok;
using blsim::soc::exit_usage;

// The test build's binary, blsim-test, is this file compiled with BLSIM_TEST_HOOKS: it also
// takes --mutant and --inject-bug (soc/cli/test_hooks.h). The release blsim has neither.
#ifdef BLSIM_TEST_HOOKS
#define RUN_TEST_HOOKS_HELP                                                                        \
    "  --inject-bug NAME   make the simulator misbehave on purpose, to see its run-time\n"       \
    "                      checks stop the run (exit 1): meter-time-reversal,\n"                 \
    "                      mcpm-state-corruption, task-lost (blsim-test only)\n"                 \
    "  --mutant NAME       run a known-bad variant of the switcher's C code, to see blsim\n"     \
    "                      explore find it (docs/explore.md): gic-forgets-pending-sgis,\n"       \
    "                      vlock-without-voting, last-man-ignores-inbound,\n"                    \
    "                      gate-opened-before-save (blsim-test only)\n"
#define EXPLORE_TEST_HOOKS_HELP                                                                    \
    "  --mutant NAME       run every seed with a known-bad variant of the C code (blsim-test\n"  \
    "                      run --help lists them), to see that the exploration finds it\n"       \
    "  --inject-bug NAME   every run misbehaves on purpose (blsim-test run --help): to see a\n"  \
    "                      violation reported\n"
#else
#define RUN_TEST_HOOKS_HELP ""
#define EXPLORE_TEST_HOOKS_HELP ""
#endif

const char* const main_help =
    "usage: blsim <command> [options]\n"
    "\n"
    "blsim simulates a big.LITTLE SoC (Versatile Express TC2: 2 Cortex-A15 + 3 Cortex-A7)\n"
    "event by event and accounts its energy.\n"
    "\n"
    "commands:\n"
    "  run [SCENARIO] [--out DIR] [--set KEY=VALUE]... [--trace KIND]... [--rtapp-log DIR] [--quiet]\n"
    "                      simulate a scenario (default: the built-in BBench study)\n"
    "  compare [-j N] [--json] [--keep DIR] [--set KEY=VALUE]... SCENARIO_OR_RUN_DIR...\n"
    "                      run or read several scenarios and tabulate them against the first\n"
    "  regress [DIR] [-j N] [--bless] [--only NAME]...\n"
    "                      run the regression cases and check their numbers against the goldens\n"
    "  sweep SPEC --out DIR [-j N] [--shard K/N]\n"
    "  sweep merge --out DIR SHARD_DIR...\n"
    "  sweep pareto DIR --perf METRIC [--baseline B --min-fraction F]\n"
    "                      run a scenario over a grid of parameters and seeds, resumably,\n"
    "                      aggregate metrics per point, and find the best points\n"
    "                      (docs/sweeps.md)\n"
    "  explore SCENARIO --seeds N [-j N]\n"
    "                      run a scenario under many seeds (with jitter: many interleavings)\n"
    "                      and report the seeds that break an invariant (docs/explore.md)\n"
    "  tune SPEC --out DIR [-j N] [--trials N] [--min-fraction F]\n"
    "                      search a scenario's parameters with an optimiser (Optuna's TPE)\n"
    "                      for the lowest objective under constraints, resumably\n"
    "                      (docs/tune.md)\n"
    "  config-reference    print the configuration reference (docs/config.md)\n"
    "\n"
    "options:\n"
    "  -h, --help          this text; 'blsim run --help' describes run, and so on\n"
    "  --version           print the version\n"
    "\n"
    "exit status: 0 success, 2 bad input, 1 internal error or environment failure\n";

const char* const run_help =
    "usage: blsim run [SCENARIO] [--out DIR] [--force] [--set KEY=VALUE]... [--trace KIND]... [--gzip]\n"
    "                 [--rtapp-log DIR] [--quiet]\n"
    "\n"
    "Simulate SCENARIO (a YAML file; see docs/config.md) and write its results.\n"
    "Without SCENARIO, runs the built-in default, configs/scenarios/bbench-iks-tuned.yaml.\n"
    "\n"
    "  --out DIR           results directory (default: out): absent or empty, checked before\n"
    "                      the simulation. Gets DIR/effective-config.yaml (every key as run,\n"
    "                      defaults included), DIR/switches.csv (one row per switch) and\n"
    "                      DIR/summary.json (docs/results.md), all at once: the set is\n"
    "                      written into a hidden sibling (.DIR.blsim-tmp.PID) renamed to DIR\n"
    "                      at the end; a failed run publishes nothing\n"
    "  --force             DIR may hold an earlier run's results: replaced, all at once,\n"
    "                      by this run's (only if this run succeeds)\n"
    "  --set KEY=VALUE     override one configuration key, e.g. --set duration_s=10,\n"
    "                      --set soc.clusters.a15.cores=1, --set governor.freq_mhz={a7: 500}.\n"
    "                      Repeatable; applied in order; validated like the file.\n"
    "  --trace KIND        also write a timeline (docs/traces.md); repeatable, or KIND,KIND:\n"
    "                      perfetto: DIR/trace.json, Chrome's trace-event JSON (ui.perfetto.dev);\n"
    "                      ftrace: DIR/trace.txt, the kernel's trace text (sched_switch, ...);\n"
    "                      vcd: DIR/trace.vcd, SystemC's VCD of power states, lines, clocks\n"
    "  --gzip              compress trace.json and trace.txt (.gz)\n"
    "  --rtapp-log DIR     also write rt-app's log, one file per thread with rt-app's header\n"
    "                      and columns: DIR/<log_basename>-<name>-<index>.log (docs/results.md);\n"
    "                      only for a workload of kind rtapp. DIR inside --out: part of the\n"
    "                      results set; elsewhere: a set of its own, absent or empty (or\n"
    "                      --force), published at the end\n"
    "  --report            also draw the plots and DIR/report.html (implies --trace\n"
    "                      perfetto; runs scripts/plot with python3-matplotlib; docs/report.md)\n"
    "  -q, --quiet         print nothing on success (no progress line either; the progress\n"
    "                      line of simulated time, speed and ETA shows only on a terminal)\n"
    RUN_TEST_HOOKS_HELP
    "  -h, --help          this text\n"
    "\n"
    "Configuration errors are printed as file:line:col: message (an override's location is\n"
    "--set:N:col), all at once; the exit status is then 2 and nothing is written.\n";

const char* const compare_help =
    "usage: blsim compare [-j N] [--json] [--keep DIR] [--report DIR] [--set KEY=VALUE]...\n"
    "                     SCENARIO_OR_RUN_DIR...\n"
    "\n"
    "Compare two or more runs, each relative to the first (docs/compare.md). An argument is a\n"
    "scenario (a YAML file, run now as 'blsim run -q') or a run directory holding summary.json\n"
    "(read as it is). Prints one table, a row per argument in the order given: scenario, score,\n"
    "page-load total (s), audio deadline misses, energy (J), average power (mW) and switches,\n"
    "each as value (ratio to the first row); '-' where a run does not report it.\n"
    "\n"
    "  -j, --jobs N        at most N runs at once (default: the number of online CPUs)\n"
    "  --json              print a JSON document instead of the table\n"
    "  --keep DIR          keep each run's results in DIR/<k>-<scenario stem>/ (k: the\n"
    "                      argument's position, from 1); by default they go to a temporary\n"
    "                      directory removed at the end\n"
    "  --report DIR        also write DIR/report.html: the runs side by side in pictures\n"
    "                      (performance against power relative to the first, energy by part),\n"
    "                      with compare.json; the runs are kept in DIR unless --keep says\n"
    "                      where (scripts/plot-compare, python3-matplotlib; docs/compare.md)\n"
    "  --set KEY=VALUE     override a configuration key in every scenario run (as 'blsim run\n"
    "                      --set'); repeatable; run directories are read unchanged\n"
    "  -h, --help          this text\n"
    "\n"
    "Every argument is checked, and every scenario loaded, before anything runs: a bad one\n"
    "exits 2 with nothing run. A run that fails shows its last stderr lines and the comparison\n"
    "exits with its class: 2 if it exited 2 (bad input), 1 otherwise.\n";

const char* const regress_help =
    "usage: blsim regress [DIR] [-j N] [--bless] [--only NAME]...\n"
    "\n"
    "Run every regression case DIR/NAME.yaml (default DIR: configs/regress, the repository's\n"
    "own set when run from its root; docs/regress.md) as 'blsim run -q', and compare each\n"
    "metric it names in the run's summary.json with its golden value in DIR/NAME.golden.json.\n"
    "Prints a table (case, metric, golden, value, drift, relative drift, tolerance, status:\n"
    "PASS, DRIFT, MISSING, NO-GOLDEN or RUN-FAILED) and a summary line.\n"
    "\n"
    "  -j, --jobs N        at most N runs at once (default: the number of online CPUs)\n"
    "  --bless             write every case's golden file from this run's values instead of\n"
    "                      comparing (all or none: nothing is written if a value is missing)\n"
    "  --only NAME         only the case NAME (repeatable)\n"
    "  -h, --help          this text\n"
    "\n"
    "Every case, its scenario and its golden file are checked before anything runs; a problem\n"
    "is printed as file:line:col: message. Exit status: 0 every metric within its tolerance\n"
    "(with --bless: the goldens written), 1 a metric drifted or missing, a golden missing or a\n"
    "run failed, 2 bad input.\n";

const char* const sweep_help =
    "usage: blsim sweep SPEC --out DIR [-j N] [--shard K/N]\n"
    "       blsim sweep merge --out DIR SHARD_DIR...\n"
    "       blsim sweep pareto DIR --perf METRIC [--cost METRIC] [--baseline B]\n"
    "                          [--min-fraction F | --min-perf V] [--no-plot]\n"
    "\n"
    "Run the base scenario of SPEC (a YAML file, docs/sweeps.md) at every point of its\n"
    "parameter grid, once per seed, each run its own 'blsim run -q' process, into\n"
    "DIR/points/<id>/seed-<S>/; then write DIR/results.csv and DIR/results.json: per point,\n"
    "each metric's mean, sample standard deviation and count over the seeds. DIR/manifest.json\n"
    "lists the points. Running the same command again resumes: finished runs are kept, failed\n"
    "and interrupted ones are redone.\n"
    "\n"
    "  --out DIR           the sweep's directory (required); created if missing\n"
    "  -j, --jobs N        at most N runs at once (default: the number of online CPUs)\n"
    "  --shard K/N         run only the points whose index (from 0, in manifest order) is\n"
    "                      K-1 modulo N, e.g. on machine K of N; results cover those points\n"
    "  merge --out DIR SHARD_DIR...\n"
    "                      gather the shards' runs into DIR (hard links where possible) and\n"
    "                      write the results of the whole sweep, as one machine would have\n"
    "  pareto DIR --perf METRIC\n"
    "                      from DIR/results.json: the points no other beats on METRIC (higher\n"
    "                      is better) and --cost (lower is better; default energy_j.total) into\n"
    "                      DIR/pareto.csv, pareto.json and pareto.png; with --baseline B (a point\n"
    "                      id, a run directory or a summary.json) and --min-fraction F, or with\n"
    "                      --min-perf V, print the cheapest point whose METRIC reaches F x B's\n"
    "                      (or V), with the command that runs it\n"
    "  -h, --help          this text\n"
    "\n"
    "The spec and every point's overrides are checked before anything runs (file:line:col:\n"
    "message). Exit status: 0 every run succeeded, 1 a run failed (recorded as\n"
    "DIR/points/<id>/seed-<S>.failed; the others still run), 2 bad input, nothing written.\n";

const char* const explore_help =
    "usage: blsim explore SCENARIO [--seeds N] [--first-seed S] [-j N] [--set KEY=VALUE]...\n"
    "                     [--stop-at-first] [--out DIR]\n"
    "\n"
    "Run SCENARIO once per seed (S, S+1, ... S+N-1), each run its own 'blsim run -q' process\n"
    "checking every invariant as it goes. With jitter on in the scenario (jitter.enabled), the\n"
    "seed decides the timing of every platform operation, and so the interleaving of the\n"
    "switcher's and MCPM's races. Prints the violating seeds, grouped by kind, with the command\n"
    "that reproduces each and writes its Perfetto trace (docs/explore.md).\n"
    "\n"
    "  --seeds N           how many seeds (default 100)\n"
    "  --first-seed S      the first seed (default 1)\n"
    "  -j, --jobs N        at most N runs at once (default: the number of online CPUs)\n"
    "  --set KEY=VALUE     an override for every run (not seed), as blsim run takes it\n"
    EXPLORE_TEST_HOOKS_HELP
    "  --stop-at-first     start no further seed once one has violated (the lowest violating\n"
    "                      seed is still found: every seed below it has run)\n"
    "  --out DIR           also write DIR/explore.json: every violating seed, its kind, the\n"
    "                      end of its stderr and its command\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit status: 0 no seed violated an invariant, 1 some did, 2 bad input (nothing run).\n";

int usage_error(const std::string& message)
{
    std::cerr << "blsim: " << message << "\n(see 'blsim --help')\n";
    return exit_usage;
}

int cmd_run(int argc, char** argv)
{
    std::string scenario_path;
    std::string out_dir = "out";
    std::vector<std::string> overrides;
    bool quiet = false, force = false;
    bool trace_perfetto = false, trace_ftrace = false, trace_vcd = false, gzip = false, report = false;
    std::string rtapp_log;
    bool rtapp_log_given = false;
#ifdef BLSIM_TEST_HOOKS
    blsim::soc::test_hooks hooks;
    const std::vector<std::string> args(argv, argv + argc);
    std::string hook_error;
    auto take_hook = [&](int& i) {
        std::size_t k = static_cast<std::size_t>(i);
        const bool taken = blsim::soc::take_test_hook(args, k, hooks, hook_error);
        i = static_cast<int>(k);
        return taken;
    };
#endif

    for (int i = 0; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&](const char* opt) -> const char* {
            if (i + 1 >= argc)
                return nullptr;
            (void)opt;
            return argv[++i];
        };
        if (a == "-h" || a == "--help") {
            std::cout << run_help;
            return exit_ok;
        } else if (a == "--out") {
            const char* v = value("--out");
            if (!v)
                return usage_error("--out needs a directory");
            out_dir = v;
        } else if (a.rfind("--out=", 0) == 0) {
            out_dir = a.substr(6);
        } else if (a == "--set") {
            const char* v = value("--set");
            if (!v)
                return usage_error("--set needs KEY=VALUE");
            if (std::string split; blsim::soc::set_split_in_two(v, i + 1 < argc ? argv[i + 1] : nullptr, split))
                return usage_error(split);
            overrides.push_back(v);
        } else if (a.rfind("--set=", 0) == 0) {
            overrides.push_back(a.substr(6));
#ifdef BLSIM_TEST_HOOKS
        } else if (take_hook(i)) {
            if (!hook_error.empty())
                return usage_error(hook_error);
#endif
        } else if (a == "--trace" || a.rfind("--trace=", 0) == 0) {
            const char* v = a == "--trace" ? value("--trace") : nullptr;
            std::string kinds = a == "--trace" ? (v ? v : "") : a.substr(8);
            if (kinds.empty())
                return usage_error("--trace needs one of: perfetto, ftrace, vcd");
            std::stringstream ss(kinds);
            for (std::string k; std::getline(ss, k, ',');) {
                if (k == "perfetto")
                    trace_perfetto = true;
                else if (k == "ftrace")
                    trace_ftrace = true;
                else if (k == "vcd")
                    trace_vcd = true;
                else
                    return usage_error("--trace: unknown kind '" + k + "' (perfetto, ftrace, vcd)");
            }
        } else if (a == "--rtapp-log" || a.rfind("--rtapp-log=", 0) == 0) {
            const char* v = a == "--rtapp-log" ? value("--rtapp-log") : nullptr;
            rtapp_log = a == "--rtapp-log" ? (v ? v : "") : a.substr(12);
            rtapp_log_given = true;
        } else if (a == "--gzip") {
            gzip = true;
        } else if (a == "--report") {
            report = true;
            trace_perfetto = true;
        } else if (a == "-q" || a == "--quiet") {
            quiet = true;
        } else if (a == "--force") {
            force = true;
        } else if (!a.empty() && a[0] == '-') {
            return usage_error("run: unknown option '" + a + "'");
        } else if (scenario_path.empty()) {
            scenario_path = a;
        } else {
            return usage_error("run: only one SCENARIO may be given (also got '" + a + "')");
        }
    }
    if (out_dir.empty())
        return usage_error("--out needs a directory");
    if (rtapp_log_given && rtapp_log.empty())
        return usage_error("--rtapp-log needs a directory");

    blsim::cfg::diagnostics diag;
    blsim::soc::scenario_config cfg;
    if (!blsim::soc::load_scenario(scenario_path.empty() ? blsim::soc::default_scenario : scenario_path,
                                   overrides, cfg, diag)) {
        diag.print(std::cerr);
        diag.print_notes(std::cerr);
        return exit_usage;
    }
    if (!quiet)
        diag.print_notes(std::cerr);
    // rt-app's log: only an rt-app workload has one. Recording it changes nothing simulated.
    if (rtapp_log_given && cfg.workload.kind != "rtapp") {
        std::cerr << "blsim: --rtapp-log: scenario '" << cfg.name << "' runs a workload of kind "
                  << cfg.workload.kind << ", not rtapp: it has no rt-app log\n";
        return exit_usage;
    }
    cfg.workload.rtapp_params.log = rtapp_log_given;

    // The results must have somewhere to go before the simulation runs: a directory that holds
    // no other run's set (or --force), and a hidden staging directory beside it that the whole
    // set is written into, then renamed to --out in one step (docs/results.md).
    // rt-app's log goes into the set (--rtapp-log inside --out), or is a set of its own, staged
    // and published the same way.
    std::string staging, log_staging, log_sub;
    bool log_in_set = true;
    {
        std::string error;
        if (!blsim::soc::check_out_dir(out_dir, force, error) ||
            (rtapp_log_given &&
             !blsim::soc::place_rtapp_log(out_dir, rtapp_log, force, log_in_set, log_sub, error))) {
            std::cerr << "blsim: " << error << "\n";
            return exit_usage;
        }
        if (!blsim::soc::stage_out_dir(out_dir, staging, error) ||
            (!log_in_set && !blsim::soc::stage_out_dir(rtapp_log, log_staging, error))) {
            std::cerr << "blsim: cannot write results to " << error << "\n";
            return exit_usage;
        }
    }
    // Whatever way the run ends, an unpublished staging directory goes with it.
    struct staging_guard {
        std::string& path;
        ~staging_guard()
        {
            std::error_code ec;
            if (!path.empty())
                std::filesystem::remove_all(path, ec);
        }
    } guard{staging}, log_guard{log_staging};

    const auto t0 = std::chrono::steady_clock::now();
#ifdef BLSIM_TEST_HOOKS
    blsim::soc::platform plat(cfg, hooks.mutant);
    blsim::soc::inject_bug(plat, hooks.bug);
#else
    blsim::soc::platform plat(cfg);
#endif
    // The VCD file is written while the run goes, in the staging directory, renamed at the end.
    const std::string vcd_tmp = (std::filesystem::path(staging) / ".trace.tmp").string();
    plat.enable_traces(trace_perfetto, trace_ftrace, trace_vcd ? vcd_tmp : std::string());
    // Progress on one updating line, for a person at a terminal: simulated time, speed, ETA.
    blsim::soc::platform::progress_fn progress;
    const bool show_progress = !quiet && (::isatty(STDERR_FILENO) || std::getenv("BLSIM_PROGRESS"));
    auto last_shown = t0;
    if (show_progress)
        progress = [&](double sim_s, double total_s) {
            const auto now = std::chrono::steady_clock::now();
            if (now - last_shown < std::chrono::milliseconds(200) && sim_s < total_s)
                return;
            last_shown = now;
            const double wall = std::chrono::duration<double>(now - t0).count();
            const double rtf = wall > 0 ? sim_s / wall : 0;
            const double eta = rtf > 0 ? (total_s - sim_s) / rtf : 0;
            std::fprintf(stderr, "\r\033[K%.3f / %.3f s simulated (%.0f%%), %.0fx real time, ETA %.0f s", sim_s,
                         total_s, total_s > 0 ? 100 * sim_s / total_s : 100.0, rtf, eta);
            std::fflush(stderr);
        };
    try {
        plat.run(progress);
    } catch (const std::exception& e) {
        if (show_progress)
            std::fputs("\r\033[K", stderr);
        std::cerr << "blsim: internal error: " << e.what() << "\n";
        // No results: they would not be a run's. But the trace up to the violation, when one
        // was asked for, is what shows how the run got there (the command explore prints for
        // a violating seed asks for one); without a summary.json it is no results set.
        std::remove((vcd_tmp + ".vcd").c_str());
        std::string error;
        std::vector<std::pair<std::string, std::string>> files;
        try {
            files = blsim::soc::trace_files(plat, gzip);
        } catch (const std::exception& e2) { // the trace writer's own check failed too
            std::cerr << "blsim: internal error: " << e2.what() << "\n";
        }
        // Published only where no older set is: a failed run leaves an existing one untouched.
        if (!files.empty() && !blsim::soc::check_out_dir(out_dir, false, error)) {
            std::cerr << "blsim: the trace up to the violation is not written: " << out_dir
                      << " holds an earlier run's results\n";
        } else if (!files.empty() && blsim::soc::write_files(staging, files, error) &&
                   blsim::soc::publish_out_dir(staging, out_dir, error)) {
            staging.clear();
            std::cerr << "blsim: the trace up to the violation:";
            for (const auto& f : files)
                std::cerr << " " << out_dir << "/" << f.first;
            std::cerr << "\n";
        } else if (!files.empty()) {
            std::cerr << "blsim: cannot write the trace up to the violation: " << error << "\n";
        }
        return exit_failed;
    }
    if (show_progress) {
        std::fputs("\r\033[K", stderr); // the line goes: the summary follows
        std::fflush(stderr);
    }
    const auto t1 = std::chrono::steady_clock::now();

    blsim::soc::host_stats host;
    host.wall_s = std::chrono::duration<double>(t1 - t0).count();
    host.events = plat.events();
    host.peak_rss_mb = blsim::soc::peak_rss_mb();

    std::string error;
    std::vector<std::pair<std::string, std::string>> files;
    try {
        files = blsim::soc::trace_files(plat, gzip); // the trace writers check what they draw (docs/traces.md)
    } catch (const std::exception& e) {
        std::cerr << "blsim: internal error: " << e.what() << "\n";
        return exit_failed;
    }
    std::vector<std::string> names;
    for (const auto& f : files)
        names.push_back(f.first);
    plat.close_vcd();
    if (trace_vcd) {
        // SystemC stamps the file with the wall-clock date: replaced, so that the same
        // scenario and seed give the same bytes.
        std::error_code ec;
        {
            std::string vcd, why;
            if (!blsim::soc::read_source(vcd_tmp + ".vcd", vcd, why)) {
                std::cerr << "blsim: error: cannot write results: " << out_dir << "/trace.vcd: " << why << "\n";
                return exit_failed;
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
                return exit_failed;
            }
        }
        std::filesystem::rename(vcd_tmp + ".vcd", std::filesystem::path(staging) / "trace.vcd", ec);
        if (ec) {
            std::cerr << "blsim: error: cannot write results: " << out_dir << "/trace.vcd: " << ec.message() << "\n";
            return exit_failed;
        }
        names.push_back("trace.vcd");
    }
    std::vector<std::pair<std::string, std::string>> logs;
    if (rtapp_log_given)
        logs = blsim::soc::rtapp_log_files(plat);
    std::vector<std::string> log_names; // in the set: listed by summary.json, not printed
    if (log_in_set)
        for (auto& [name, text] : logs) {
            name = log_sub.empty() ? name : (std::filesystem::path(log_sub) / name).string();
            log_names.push_back(name);
            files.push_back({name, std::move(text)});
        }
    std::vector<std::string> set_names = names;
    set_names.insert(set_names.end(), log_names.begin(), log_names.end());
    files.push_back({"effective-config.yaml", blsim::soc::effective_yaml(cfg)});
    files.push_back({"switches.csv", blsim::soc::switches_csv(plat)});
    files.push_back({"summary.json", blsim::soc::summary_json(plat, host, set_names)});
    if (!log_in_set && !blsim::soc::write_files(log_staging, logs, error)) {
        const std::string shown =
            error.rfind(log_staging, 0) == 0 ? rtapp_log + error.substr(log_staging.size()) : error;
        std::cerr << "blsim: error: cannot write results: " << shown << "\n";
        return exit_failed;
    }
    if (!blsim::soc::write_files(staging, files, error) || !blsim::soc::publish_out_dir(staging, out_dir, error)) {
        // An environment failure (a full disk, a directory made unwritable meanwhile): the
        // older set, if any, is as it was, and the staging directory goes.
        const std::string shown = error.rfind(staging, 0) == 0 ? out_dir + error.substr(staging.size()) : error;
        std::cerr << "blsim: error: cannot write results: " << shown << "\n";
        return exit_failed;
    }
    staging.clear();
    if (!log_in_set) {
        if (!blsim::soc::publish_out_dir(log_staging, rtapp_log, error)) {
            std::cerr << "blsim: error: cannot write results: " << error << "\n";
            return exit_failed;
        }
        log_staging.clear();
    }
    if (report) {
        // The pictures and the page come from the results just written (scripts/plot), run
        // without a shell: the directory is an argument as it is.
        const int st = blsim::soc::run_python_script(blsim::soc::script_path("plot"), out_dir, quiet);
        if (st != 0) {
            std::cerr << "blsim: --report: scripts/plot failed (exit status " << (WIFEXITED(st) ? WEXITSTATUS(st) : -1)
                      << "); the run's results are written\n";
            return exit_failed;
        }
        // The set now holds the pictures and the page too: summary.json lists them.
        names = blsim::soc::set_files(out_dir);
        if (!blsim::soc::write_file_atomically((std::filesystem::path(out_dir) / "summary.json").string(),
                                               blsim::soc::summary_json(plat, host, names), error)) {
            std::cerr << "blsim: error: cannot write results: " << error << "\n";
            return exit_failed;
        }
        names.erase(std::remove_if(names.begin(), names.end(),
                                   [&](const std::string& n) {
                                       return n == "effective-config.yaml" || n == "switches.csv" ||
                                              std::find(log_names.begin(), log_names.end(), n) != log_names.end();
                                   }),
                    names.end());
    }
    if (!quiet) {
        std::cout << blsim::soc::human_summary(plat, host) << "results: " << out_dir
                  << "/summary.json, " << out_dir << "/switches.csv, " << out_dir << "/effective-config.yaml";
        for (const std::string& n : names)
            std::cout << ", " << out_dir << "/" << n;
        std::cout << "\n";
        if (rtapp_log_given)
            std::cout << "rt-app log: " << logs.size() << " file" << (logs.size() == 1 ? "" : "s") << " in "
                      << (log_in_set ? (std::filesystem::path(out_dir) / log_sub).lexically_normal().string()
                                     : rtapp_log)
                      << "\n";
    }
    return exit_ok;
}

} // namespace

namespace {

int dispatch(int argc, char** argv);

} // namespace

int main(int argc, char** argv)
{
    // SystemC prints a banner on first use unless told not to; results go to files and the
    // terminal should show only blsim's own output.
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
    // The runs compare, regress, sweep and explore start are forks of this process that
    // dispatch `blsim run ...` here (child_runs.h).
    blsim::soc::set_self_runner(dispatch);
    return dispatch(argc, argv);
}

namespace {

int dispatch(int argc, char** argv)
{
    if (argc < 2)
        return usage_error("no command given");
    const std::string cmd = argv[1];
    try {
        if (cmd == "-h" || cmd == "--help") {
            std::cout << main_help;
            return exit_ok;
        }
        if (cmd == "--version") {
            std::cout << "blsim " << BLSIM_VERSION << " (SystemC " << sc_core::sc_release() << ")\n";
            return exit_ok;
        }
        if (cmd == "run") {
            // Simulator warnings must be seen, on stderr, one line each; informational
            // chatter is not wanted.
            blsim::soc::install_report_handler();
            const int rc = cmd_run(argc - 2, argv + 2);
            blsim::soc::summarise_reports(std::cerr);
            return rc;
        }
        if (cmd == "compare") {
            blsim::soc::compare_options opt;
            bool help = false;
            std::string error;
            if (!blsim::soc::parse_compare_args(std::vector<std::string>(argv + 2, argv + argc), opt, help, error))
                return usage_error(error);
            if (help) {
                std::cout << compare_help;
                return exit_ok;
            }
            return blsim::soc::run_compare(opt, std::cout, std::cerr);
        }
        if (cmd == "regress") {
            blsim::soc::regress_options opt;
            bool help = false;
            std::string error;
            if (!blsim::soc::parse_regress_args(std::vector<std::string>(argv + 2, argv + argc), opt, help, error))
                return usage_error(error);
            if (help) {
                std::cout << regress_help;
                return exit_ok;
            }
            return blsim::soc::run_regress(opt, std::cout, std::cerr);
        }
        if (cmd == "sweep") {
            blsim::soc::sweep_options opt;
            bool help = false;
            std::string error;
            if (!blsim::soc::parse_sweep_args(std::vector<std::string>(argv + 2, argv + argc), opt, help, error))
                return usage_error(error);
            if (help) {
                std::cout << sweep_help;
                return exit_ok;
            }
            return blsim::soc::run_sweep(opt, std::cout, std::cerr);
        }
        if (cmd == "explore") {
            blsim::soc::explore_options opt;
            bool help = false;
            std::string error;
#ifdef BLSIM_TEST_HOOKS
            const blsim::soc::explore_extra_options hooks = [](const std::vector<std::string>& args, std::size_t& i,
                                                               blsim::soc::explore_options& o, std::string& err) {
                blsim::soc::test_hooks h;
                if (!blsim::soc::take_test_hook(args, i, h, err))
                    return false;
                if (h.mutant)
                    o.mutant = blsim::soc::mutant_name(h.mutant);
                if (h.bug != blsim::soc::injected_bug::none)
                    o.inject_bug = blsim::soc::to_string(h.bug);
                return true;
            };
#else
            const blsim::soc::explore_extra_options hooks = nullptr;
#endif
            if (!blsim::soc::parse_explore_args(std::vector<std::string>(argv + 2, argv + argc), opt, help, error, hooks))
                return usage_error(error);
            if (help) {
                std::cout << explore_help;
                return exit_ok;
            }
            return blsim::soc::run_explore(opt, std::cout, std::cerr);
        }
        if (cmd == "tune")
            return blsim::soc::run_tune(std::vector<std::string>(argv + 2, argv + argc), std::cout, std::cerr);
        if (cmd == "config-reference") {
            std::cout << blsim::soc::config_reference_markdown();
            return exit_ok;
        }
        return usage_error("unknown command '" + cmd + "'");
    } catch (const std::filesystem::filesystem_error& e) {
        // The environment, not a bug: a full disk, an unwritable directory.
        std::cerr << "blsim: error: " << (e.path1().empty() ? "" : e.path1().string() + ": ")
                  << e.code().message() << "\n";
        return exit_failed;
    } catch (const std::exception& e) {
        std::cerr << "blsim: internal error: " << e.what() << "\n";
        return exit_failed;
    }
}

} // namespace
