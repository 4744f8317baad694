// soc/batch/src/explore.cpp -- `blsim explore` (docs/explore.md): a scenario under N seeds, each run
// in its own process through child_runs, every run checking its invariants as it goes; the
// seeds whose run stopped on one are grouped by kind and each given its reproducing command.
#include "blsim/soc/explore.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "blsim/soc/args.h"
#include "blsim/soc/child_runs.h"
#include "blsim/soc/results_dir.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/exit_codes.h"

namespace blsim::soc {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

constexpr long long max_seeds = 100000000;     // one exploration
constexpr long long max_seed = 2147483647;     // the scenario's seed key
constexpr std::size_t stderr_tail_lines = 20;  // kept of a violating run
constexpr std::size_t listed_violations = 10;  // reproducing commands printed

bool parse_count(const std::string& v, long long& n)
{
    const char* end = v.data() + v.size();
    const auto r = std::from_chars(v.data(), end, n);
    return !v.empty() && r.ec == std::errc() && r.ptr == end;
}

// What a run of one seed came to.
struct seed_run {
    long long seed = 0;
    bool started = false;
    run_outcome outcome;
    std::vector<std::string> stderr_lines;
    bool violated() const { return started && !outcome.succeeded(); }
};

std::string status_words(const run_outcome& o)
{
    if (!o.start_error.empty())
        return "not started: " + o.start_error;
    if (WIFSIGNALED(o.status))
        return "killed by signal " + std::to_string(WTERMSIG(o.status));
    return "exit status " + std::to_string(WIFEXITED(o.status) ? WEXITSTATUS(o.status) : -1);
}

} // namespace

std::string violation_kind(const std::vector<std::string>& lines, int wait_status)
{
    std::string line;
    for (const std::string& l : lines)
        if (l.find("internal error") != std::string::npos) {
            line = l;
            break;
        }
    if (line.empty()) {
        if (WIFSIGNALED(wait_status))
            return "killed by signal " + std::to_string(WTERMSIG(wait_status));
        line = lines.empty() ? "exit status " + std::to_string(WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1) +
                                   " and no message"
                             : lines.back();
    }
    std::string kind;
    for (std::size_t i = 0; i < line.size();) {
        if (std::isdigit(static_cast<unsigned char>(line[i]))) {
            while (i < line.size() && (std::isdigit(static_cast<unsigned char>(line[i])) ||
                                       (line[i] == '.' && i + 1 < line.size() &&
                                        std::isdigit(static_cast<unsigned char>(line[i + 1])))))
                i++;
            kind += '#';
        } else {
            kind += line[i++];
        }
    }
    return kind;
}

cmdline::command explore_command(explore_options& opt)
{
    // --seeds N and --first-seed S: a whole number in [low, high].
    auto count = [](const char* name, long long& n, long long low, long long high) {
        return [name, &n, low, high](const std::string& v, std::string& e) {
            if (parse_count(v, n) && n >= low && n <= high)
                return true;
            e = std::string("explore: ") + name + " needs a whole number from " + std::to_string(low) + " to " +
                std::to_string(high) + " (got '" + v + "')";
            return false;
        };
    };
    cmdline::command cmd;
    cmd.name = "explore";
    cmd.options = {
        cmdline::value("--seeds", nullptr, "N", "how many seeds (default 100)",
                       count("--seeds", opt.seeds, 1, max_seeds), "explore: --seeds needs a value"),
        cmdline::value("--first-seed", nullptr, "S", "the first seed (default 1)",
                       count("--first-seed", opt.first_seed, 0, max_seed), "explore: --first-seed needs a value"),
        cmdline::value("--jobs", "-j", "N", "at most N runs at once (default: the number of online CPUs)",
                       [&opt](const std::string& v, std::string& e) { return parse_jobs(v, opt.jobs, e); },
                       "-j needs a number of runs"),
        cmdline::repeated("--set", nullptr, "KEY=VALUE", "an override for every run (not seed), as blsim run takes it",
                          [&opt](const std::string& v, std::string& e) {
                              if (v.rfind("seed=", 0) == 0) {
                                  e = "explore: the seed is what explore varies: use --first-seed and --seeds, not "
                                      "--set seed=";
                                  return false;
                              }
                              opt.overrides.push_back(v);
                              return true;
                          },
                          "explore: --set needs a value", set_split_in_two),
        cmdline::flag("--stop-at-first", nullptr,
                      "start no further seed once one has violated (the lowest violating\n"
                      "seed is still found: every seed below it has run)",
                      [&opt](const std::string&, std::string&) {
                          opt.stop_at_first = true;
                          return true;
                      }),
        cmdline::value("--out", nullptr, "DIR",
                       "also write DIR/explore.json: every violating seed, its kind, the\n"
                       "end of its stderr and its command",
                       [&opt](const std::string& v, std::string& e) {
                           opt.out_dir = v;
                           if (v.empty())
                               e = "--out needs a directory";
                           return !v.empty();
                       },
                       "explore: --out needs a value"),
        cmdline::note("--help", "-h", nullptr, "this text"),
    };
    cmd.operand = [&opt](const std::string& a, std::string& e) {
        if (!opt.scenario.empty()) {
            e = "explore: only one SCENARIO may be given (also got '" + a + "')";
            return false;
        }
        opt.scenario = a;
        return true;
    };
    return cmd;
}

bool parse_explore_args(const std::vector<std::string>& args, explore_options& opt, bool& help, std::string& error,
                        explore_extra_options extra)
{
    cmdline::command cmd = explore_command(opt);
    if (extra)
        cmd.other = [extra, &opt](const std::vector<std::string>& a, std::size_t& i, std::string& e) {
            return extra(a, i, opt, e);
        };
    const cmdline::outcome parsed = cmdline::parse(cmd, args, error);
    help = parsed == cmdline::outcome::help;
    if (parsed != cmdline::outcome::ok)
        return help;
    if (opt.scenario.empty()) {
        error = "explore: needs a scenario (blsim explore SCENARIO --seeds N)";
        return false;
    }
    if (opt.first_seed + opt.seeds - 1 > max_seed) {
        error = "explore: the last seed would pass " + std::to_string(max_seed);
        return false;
    }
    return true;
}

namespace {

// The scenario with the overrides, checked as every run will load it: bad input is reported
// once, before anything runs. False when it does not load.
bool check_scenario(const explore_options& opt, std::ostream& err)
{
    cfg::diagnostics diag;
    scenario_config cfg;
    std::vector<std::string> first = opt.overrides;
    first.push_back("seed=" + std::to_string(opt.first_seed));
    if (!load_scenario(opt.scenario, first, cfg, diag)) {
        diag.print(err);
        return false;
    }
    if (!cfg.jitter.enabled)
        err << "blsim: explore: warning: jitter is off in this scenario: every seed takes the same path "
               "through the races (set jitter.enabled: true; docs/explore.md)\n";
    return true;
}

// Each seed's run: @runs gets the seeds, the result the requests, their results and stderr in
// @scratch.
std::vector<run_request> seed_requests(const explore_options& opt, const fs::path& scratch,
                                       std::vector<seed_run>& runs)
{
    std::vector<run_request> requests;
    for (std::size_t i = 0; i < runs.size(); i++) {
        runs[i].seed = opt.first_seed + static_cast<long long>(i);
        run_request r;
        r.exe = opt.exe;
        r.out_dir = (scratch / ("seed-" + std::to_string(runs[i].seed))).string();
        r.scenario = opt.scenario;
        r.overrides = opt.overrides;
        r.overrides.push_back("seed=" + std::to_string(runs[i].seed));
        r.stderr_file = r.out_dir + ".stderr";
        if (!opt.mutant.empty())
            r.extra_args = {"--mutant", opt.mutant};
        if (!opt.inject_bug.empty())
            r.extra_args.insert(r.extra_args.end(), {"--inject-bug", opt.inject_bug});
        requests.push_back(std::move(r));
    }
    return requests;
}

// Runs every seed, at most @limit at once (none started after the first violation with
// --stop-at-first), a progress line as they finish; each run's files are removed as it
// finishes, a violating run's stderr tail kept. @wall_s: how long it took. False (reported)
// when the runs cannot be waited for.
bool run_seeds(const explore_options& opt, unsigned limit, const std::vector<run_request>& requests,
               std::vector<seed_run>& runs, double& wall_s, std::ostream& err)
{
    std::error_code ec;
    progress_line prog(err, "explore", "violating", runs.size(), 0);
    std::size_t violations = 0;
    child_run_options how{limit, true, "blsim: explore: cannot execute the blsim binary\n"};
    how.stop_starting = [&]() { return opt.stop_at_first && violations > 0; };
    const auto t0 = std::chrono::steady_clock::now();
    auto finished = [&](std::size_t i, const run_outcome& o, std::size_t remaining) {
        seed_run& r = runs[i];
        r.started = true;
        r.outcome = o;
        if (!o.succeeded()) {
            violations++;
            r.stderr_lines = last_lines(file_lines(requests[i].stderr_file), stderr_tail_lines);
        }
        fs::remove_all(requests[i].out_dir, ec);
        fs::remove(requests[i].stderr_file, ec);
        prog.finished("seed " + std::to_string(r.seed) + ": " + (o.succeeded() ? "ok" : "VIOLATION (" + status_words(o) + ")"),
                      !o.succeeded(), remaining);
    };
    std::vector<run_outcome> outcomes;
    std::string error;
    const bool waited = run_children(requests, how, outcomes, error, finished);
    prog.end();
    wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!waited)
        err << "blsim: explore: waiting for the runs: " << error << "\n";
    return waited;
}

// One kind of violation: how many seeds, and the first.
struct kind_row {
    std::string kind;
    std::size_t count = 0;
    long long first_seed = 0;
};

// What the runs came to: how many ran, the violating ones, and their kinds in order of their
// first seed.
struct findings {
    std::size_t ran = 0;
    std::vector<const seed_run*> violating;
    std::vector<kind_row> kinds;
};

findings find_violations(const std::vector<seed_run>& runs)
{
    findings f;
    std::map<std::string, std::size_t> kind_at;
    for (const seed_run& r : runs) {
        f.ran += r.started;
        if (!r.violated())
            continue;
        f.violating.push_back(&r);
        const std::string k = violation_kind(r.stderr_lines, r.outcome.status);
        auto [it, fresh] = kind_at.emplace(k, f.kinds.size());
        if (fresh)
            f.kinds.push_back({k, 0, r.seed});
        f.kinds[it->second].count++;
    }
    return f;
}

// The command that reproduces a seed's run, with its Perfetto trace.
struct reproducer {
    std::string sets;  // the options the runs were given: " --set K=V ..."
    std::string blsim; // the binary: a run with a test hook reproduces in the one that has them

    explicit reproducer(const explore_options& opt)
    {
        for (const std::string& o : opt.overrides)
            sets += " --set " + shell_word(o);
        if (!opt.mutant.empty())
            sets += " --mutant " + opt.mutant;
        if (!opt.inject_bug.empty())
            sets += " --inject-bug " + opt.inject_bug;
        blsim = opt.mutant.empty() && opt.inject_bug.empty() ? "blsim" : "blsim-test";
    }

    std::string command(const explore_options& opt, long long seed) const
    {
        return blsim + " run " + shell_word(opt.scenario) + sets + " --set seed=" + std::to_string(seed) +
               " --trace perfetto --out out/explore-seed-" + std::to_string(seed);
    }
};

// --out DIR's explore.json: the exploration, its kinds, and every violating seed.
json explore_json(const explore_options& opt, const findings& f, const reproducer& rep)
{
    json doc;
    doc["scenario"] = opt.scenario;
    doc["overrides"] = opt.overrides;
    doc["mutant"] = opt.mutant.empty() ? json(nullptr) : json(opt.mutant);
    doc["first_seed"] = opt.first_seed;
    doc["seeds"] = opt.seeds;
    doc["runs"] = f.ran;
    doc["violations"] = f.violating.size();
    json ks = json::array();
    for (const kind_row& k : f.kinds)
        ks.push_back({{"kind", k.kind}, {"count", k.count}, {"first_seed", k.first_seed}});
    doc["kinds"] = ks;
    json vs = json::array();
    for (const seed_run* r : f.violating) {
        const int st = r->outcome.status;
        vs.push_back({{"seed", r->seed},
                      {"exit_status", r->outcome.start_error.empty() && WIFEXITED(st) ? json(WEXITSTATUS(st))
                                                                                      : json(nullptr)},
                      {"signal", r->outcome.start_error.empty() && WIFSIGNALED(st) ? json(WTERMSIG(st))
                                                                                   : json(nullptr)},
                      {"kind", violation_kind(r->stderr_lines, st)},
                      {"stderr_tail", r->stderr_lines},
                      {"reproduce", rep.command(opt, r->seed)}});
    }
    doc["violating_seeds"] = vs;
    return doc;
}

// The summary line, then the kinds and the first reproducing commands.
void print_report(const explore_options& opt, const findings& f, const reproducer& rep, double wall_s,
                  unsigned limit, std::ostream& out)
{
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.1f", wall_s > 0 ? static_cast<double>(f.ran) / wall_s : 0.0);
    out << "explore: " << opt.scenario << rep.sets << ": " << f.ran << " of " << opt.seeds << " seeds run ("
        << opt.first_seed << ".." << opt.first_seed + static_cast<long long>(f.ran) - 1 << "), "
        << f.violating.size() << (f.violating.size() == 1 ? " violation" : " violations") << "; " << rate
        << " seeds/s, " << limit << " at once\n";
    if (!f.violating.empty()) {
        out << "  count  first seed  kind\n";
        for (const kind_row& k : f.kinds) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "  %5zu  %10lld  ", k.count, k.first_seed);
            out << buf << k.kind << "\n";
        }
        out << "reproduce, with its Perfetto trace:\n";
        for (std::size_t i = 0; i < f.violating.size() && i < listed_violations; i++)
            out << "  " << rep.command(opt, f.violating[i]->seed) << "\n";
        if (f.violating.size() > listed_violations)
            out << "  ... " << f.violating.size() - listed_violations << " more"
                << (opt.out_dir.empty() ? " (--out DIR lists them all)" : " in explore.json") << "\n";
    }
    if (!opt.out_dir.empty())
        out << "results: " << (fs::path(opt.out_dir) / "explore.json").string() << "\n";
    out.flush();
}

} // namespace

int run_explore(const explore_options& opt, std::ostream& out, std::ostream& err)
{
    if (!check_scenario(opt, err))
        return exit_usage;
    std::error_code ec;
    if (!opt.out_dir.empty()) {
        fs::create_directories(opt.out_dir, ec);
        if (ec) {
            err << "blsim: explore: cannot create " << opt.out_dir << ": " << ec.message() << "\n";
            return exit_usage;
        }
    }
    // The runs' own results are of no interest (a violating run writes none): a scratch
    // directory, removed at the end.
    std::string scratch_template = (fs::temp_directory_path(ec) / "blsim-explore-XXXXXX").string();
    if (!::mkdtemp(scratch_template.data())) {
        err << "blsim: explore: cannot create a scratch directory in " << fs::temp_directory_path(ec).string()
            << "\n";
        return exit_failed;
    }
    const fs::path scratch(scratch_template);

    std::vector<seed_run> runs(static_cast<std::size_t>(opt.seeds));
    const std::vector<run_request> requests = seed_requests(opt, scratch, runs);
    const unsigned limit = runs_at_once(opt.jobs);
    err << "blsim: explore: " << opt.scenario << ", seeds " << opt.first_seed << ".." << runs.back().seed << " ("
        << opt.seeds << " runs, at most " << limit << " at once)\n";
    err.flush();
    double wall_s = 0;
    const bool waited = run_seeds(opt, limit, requests, runs, wall_s, err);
    fs::remove_all(scratch, ec);
    if (!waited)
        return exit_failed;

    const findings f = find_violations(runs);
    const reproducer rep(opt);
    std::string error;
    if (!opt.out_dir.empty() && !write_file_atomically((fs::path(opt.out_dir) / "explore.json").string(),
                                                       explore_json(opt, f, rep).dump(2) + "\n", error)) {
        err << "blsim: explore: cannot write " << error << "\n";
        return exit_failed;
    }
    print_report(opt, f, rep, wall_s, limit, out);
    return f.violating.empty() ? exit_ok : exit_failed;
}

} // namespace blsim::soc
