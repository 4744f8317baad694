// soc/batch/src/sweep_run.cpp -- `blsim sweep` and `blsim sweep merge` run (docs/sweeps.md):
// the arguments, the points' runs (resumable: a point's finished seeds are kept), the
// aggregation into results.csv and results.json, and shards merged.
#include "blsim/soc/sweep.h"
#include "blsim/soc/results_dir.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <random>
#include <set>
#include <sstream>

#include "blsim/soc/args.h"
#include "blsim/soc/child_runs.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"
#include "blsim/soc/exit_codes.h"
#include "sweep_detail.h"

namespace blsim::soc {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;

namespace {

constexpr std::size_t stderr_tail_lines = 20; // of a failed run, in its .failed record

// The test hook (docs/sweeps.md): the point whose runs are made to fail.
constexpr const char* fail_point_env = "BLSIM_SWEEP_FAIL_POINT";

using sweep_detail::csv_cell;
using sweep_detail::json_value_text;
using sweep_detail::metrics_of_text;
using sweep_detail::number_text;

} // namespace

// --- arguments ----------------------------------------------------------------------------

namespace {

bool parse_shard(const std::string& v, int& k, int& n, std::string& error)
{
    const std::size_t slash = v.find('/');
    auto whole = [](const std::string& s) {
        return !s.empty() && s.size() <= 6 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (slash == std::string::npos || !whole(v.substr(0, slash)) || !whole(v.substr(slash + 1)) ||
        std::stoi(v.substr(0, slash)) < 1 || std::stoi(v.substr(0, slash)) > std::stoi(v.substr(slash + 1))) {
        error = "--shard needs K/N, whole numbers with 1 <= K <= N (got '" + v + "')";
        return false;
    }
    k = std::stoi(v.substr(0, slash));
    n = std::stoi(v.substr(slash + 1));
    return true;
}

} // namespace

cmdline::command sweep_command(sweep_options& opt)
{
    // sweep SPEC --out DIR [-j N] [--shard K/N], or sweep merge --out DIR SHARD_DIR...
    cmdline::command cmd;
    cmd.name = opt.merge ? "sweep merge" : "sweep";
    cmd.options = {cmdline::value("--out", nullptr, "DIR", "the sweep's directory (required); created if missing",
                                  [&opt](const std::string& v, std::string& e) {
                                      opt.out_dir = v;
                                      if (v.empty())
                                          e = "--out needs a directory";
                                      return !v.empty();
                                  })};
    if (!opt.merge) {
        cmd.options.push_back(cmdline::value("--jobs", "-j", "N",
                                             "at most N runs at once (default: the number of online CPUs)",
                                             [&opt](const std::string& v, std::string& e) {
                                                 return parse_jobs(v, opt.jobs, e);
                                             },
                                             "-j needs a number of runs"));
        cmd.options.push_back(cmdline::value("--shard", nullptr, "K/N",
                                             "run only the points whose index (from 0, in manifest order) is\n"
                                             "K-1 modulo N, e.g. on machine K of N; results cover those points",
                                             [&opt](const std::string& v, std::string& e) {
                                                 return parse_shard(v, opt.shard_k, opt.shard_n, e);
                                             }));
    }
    // The two other subcommands, described in sweep's help (pareto's own options: its note).
    cmd.options.push_back(cmdline::note("merge --out DIR SHARD_DIR...", nullptr, nullptr,
                                        "gather the shards' runs into DIR (hard links where possible) and\n"
                                        "write the results of the whole sweep, as one machine would have"));
    cmd.options.push_back(cmdline::note("pareto DIR --perf METRIC", nullptr, nullptr,
                                        "from DIR/results.json: the points no other beats on METRIC (higher\n"
                                        "is better) and --cost (lower is better; default energy_j.total) into\n"
                                        "DIR/pareto.csv, pareto.json and pareto.png; with --baseline B (a point\n"
                                        "id, a run directory or a summary.json) and --min-fraction F, or with\n"
                                        "--min-perf V, print the cheapest point whose METRIC reaches F x B's\n"
                                        "(or V), with the command that runs it"));
    cmd.options.push_back(cmdline::note("--help", "-h", nullptr, "this text"));
    cmd.operand = [&opt](const std::string& a, std::string& e) {
        if (opt.merge) {
            opt.shard_dirs.push_back(a);
        } else if (opt.spec.empty()) {
            opt.spec = a;
        } else {
            e = "sweep: only one SPEC may be given (also got '" + a + "')";
            return false;
        }
        return true;
    };
    return cmd;
}

bool parse_sweep_args(const std::vector<std::string>& args, sweep_options& opt, bool& help, std::string& error)
{
    help = std::find(args.begin(), args.end(), "-h") != args.end() ||
           std::find(args.begin(), args.end(), "--help") != args.end();
    if (help)
        return true;
    if (!args.empty() && args[0] == "pareto")
        return sweep_detail::parse_pareto_args(args, opt, error);
    opt.merge = !args.empty() && args[0] == "merge";
    const cmdline::command cmd = sweep_command(opt);
    if (cmdline::parse(cmd, args, error, opt.merge ? 1 : 0) != cmdline::outcome::ok)
        return false;
    if (opt.merge && opt.shard_dirs.empty()) {
        error = "sweep merge: needs the shards' directories (blsim sweep merge --out DIR SHARD_DIR...)";
        return false;
    }
    if (!opt.merge && opt.spec.empty()) {
        error = "sweep: needs a spec (blsim sweep SPEC --out DIR)";
        return false;
    }
    if (opt.out_dir.empty()) {
        error = cmd.name + ": needs --out DIR";
        return false;
    }
    return true;
}

// --- running ------------------------------------------------------------------------------

namespace {

// A manifest as read back: what aggregation and merge need.
struct manifest {
    json doc;
    std::vector<std::string> ids;
    std::vector<long long> seeds;
    std::vector<std::string> keys, metrics;
};

bool read_manifest(const fs::path& file, manifest& m, std::string& error)
{
    std::string text, why;
    if (!read_source(file.string(), text, why)) {
        error = file.string() + ": cannot read: " + why;
        return false;
    }
    try {
        m.doc = json::parse(text);
        for (const json& p : m.doc.at("points"))
            m.ids.push_back(p.at("id").get<std::string>());
        m.seeds = m.doc.at("seeds").get<std::vector<long long>>();
        m.keys = m.doc.at("parameters").get<std::vector<std::string>>();
        m.metrics = m.doc.at("metrics").get<std::vector<std::string>>();
        (void)m.doc.at("base_digest").get<std::string>();
        for (const json& p : m.doc.at("points"))
            if (!p.at("parameters").is_object())
                throw std::runtime_error("bad parameters");
    } catch (const std::exception&) {
        error = file.string() + ": not a sweep manifest";
        return false;
    }
    return true;
}

std::string seed_dir(long long seed) { return "seed-" + std::to_string(seed); }

// "1 point", "2 points".
std::string count_of(std::size_t n, const char* what)
{
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// results.csv and results.json for the points of @m at @indices (manifest order), from
// DIR/points. Returns the number of failed runs.
std::size_t aggregate(const fs::path& dir, const manifest& m, const std::vector<std::size_t>& indices,
                      std::string& csv, std::string& out_json)
{
    std::size_t failed_total = 0;
    csv = "id";
    for (const std::string& k : m.keys)
        csv += "," + csv_cell(k);
    for (const std::string& metric : m.metrics)
        csv += "," + csv_cell(metric + ".mean") + "," + csv_cell(metric + ".std") + "," + csv_cell(metric + ".n");
    csv += ",failed\n";
    json doc;
    doc["parameters"] = m.keys;
    doc["seeds"] = m.seeds;
    doc["metrics"] = m.metrics;
    json rows = json::array();
    for (std::size_t idx : indices) {
        const json& p = m.doc["points"][idx];
        const std::string& id = m.ids[idx];
        const fs::path pdir = dir / "points" / id;
        std::vector<std::vector<double>> values(m.metrics.size());
        std::size_t failed = 0;
        for (long long seed : m.seeds) {
            std::error_code ec;
            if (fs::exists(pdir / (seed_dir(seed) + ".failed"), ec))
                failed++;
            std::string text, why;
            std::vector<std::optional<double>> found;
            if (!read_source((pdir / seed_dir(seed) / "summary.json").string(), text, why) ||
                !metrics_of_text(text, m.metrics, found))
                continue;
            for (std::size_t k = 0; k < m.metrics.size(); k++)
                if (found[k])
                    values[k].push_back(*found[k]);
        }
        failed_total += failed;
        json row;
        row["id"] = id;
        row["parameters"] = p["parameters"];
        json metrics = json::object();
        std::string line = csv_cell(id);
        for (const std::string& k : m.keys)
            line += "," + (p["parameters"].contains(k) ? csv_cell(json_value_text(p["parameters"][k])) : "");
        for (std::size_t k = 0; k < m.metrics.size(); k++) {
            const std::vector<double>& v = values[k];
            json stat;
            if (v.empty()) {
                stat["mean"] = nullptr;
                stat["std"] = nullptr;
                line += ",,";
            } else {
                double sum = 0;
                for (double x : v)
                    sum += x;
                const double mean = sum / static_cast<double>(v.size());
                double sq = 0;
                for (double x : v)
                    sq += (x - mean) * (x - mean);
                const double sd = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0.0;
                stat["mean"] = mean;
                stat["std"] = sd;
                line += "," + number_text(mean) + "," + number_text(sd);
            }
            stat["n"] = v.size();
            line += "," + std::to_string(v.size());
            metrics[m.metrics[k]] = stat;
        }
        row["metrics"] = metrics;
        row["failed"] = failed;
        line += "," + std::to_string(failed) + "\n";
        csv += line;
        rows.push_back(row);
    }
    doc["points"] = rows;
    out_json = doc.dump(2) + "\n";
    return failed_total;
}

bool write_results(const fs::path& dir, const manifest& m, const std::vector<std::size_t>& indices,
                   std::size_t& failed, std::string& error)
{
    std::string csv, js;
    failed = aggregate(dir, m, indices, csv, js);
    return write_file_atomically((dir / "results.csv").string(), csv, error) &&
           write_file_atomically((dir / "results.json").string(), js, error);
}

// An existing manifest in @dir must be of the same base scenario: results of another would
// otherwise be taken for this sweep's.
bool check_existing_manifest(const fs::path& dir, const std::string& digest, std::string& error)
{
    std::error_code ec;
    const fs::path file = dir / "manifest.json";
    if (!fs::exists(file, ec))
        return true;
    manifest old;
    if (!read_manifest(file, old, error)) {
        error = "--out " + dir.string() + " holds something else: " + error;
        return false;
    }
    if (old.doc["base_digest"] != digest) {
        error = "--out " + dir.string() + " holds a sweep of another base scenario (" +
                old.doc["base_digest"].get<std::string>() + ", not " + digest +
                "); use another directory, or remove it";
        return false;
    }
    return true;
}

std::string status_text(int st)
{
    if (WIFEXITED(st))
        return "exit status " + std::to_string(WEXITSTATUS(st));
    if (WIFSIGNALED(st))
        return "killed by signal " + std::to_string(WTERMSIG(st));
    return "status " + std::to_string(st);
}

// One (point, seed) to run.
struct run_job {
    std::size_t point = 0;
    long long seed = 0;
    fs::path final_dir, tmp_dir, err_file;
    run_outcome outcome;
};

// `blsim run -q --out TMP --set K=V... --set seed=S BASE`, its stderr into a file. The child is
// killed when the sweep dies (child_run_options::die_with_parent), so that a killed sweep leaves
// only stale temporary directories, never a run still writing.
run_request run_of(const sweep_options& opt, const sweep_spec& spec, const run_job& j)
{
    const sweep_point& p = spec.points[j.point];
    run_request r{opt.exe, j.tmp_dir.string(), spec.base_path, {}, {}, j.err_file.string()};
    for (const auto& [key, v] : p.parameters)
        r.overrides.push_back(key + "=" + v.override_text());
    r.overrides.push_back("seed=" + std::to_string(j.seed));
    if (const char* fail = std::getenv(fail_point_env); fail && p.id == fail)
        r.extra_args.push_back("--blsim-sweep-test-failure"); // an option run refuses: exit 2
    return r;
}

// Finishes a run: its results renamed into place, or its .failed record written.
bool settle(const run_job& j, const sweep_spec& spec, std::string& why)
{
    std::error_code ec;
    const bool exited_ok = j.outcome.succeeded();
    const bool complete = exited_ok && fs::exists(j.tmp_dir / "summary.json", ec);
    std::string err_text, read_why;
    read_source(j.err_file.string(), err_text, read_why);
    if (complete) {
        if (!err_text.empty())
            fs::rename(j.err_file, j.tmp_dir / "stderr.txt", ec);
        fs::remove(j.err_file, ec);
        fs::remove_all(j.final_dir, ec);
        fs::rename(j.tmp_dir, j.final_dir, ec);
        if (!ec)
            return true;
        err_text += "blsim: sweep: cannot rename " + j.tmp_dir.string() + " to " + j.final_dir.string() + ": " +
                    ec.message() + "\n";
    }
    json rec;
    rec["point"] = spec.points[j.point].id;
    rec["seed"] = j.seed;
    if (!j.outcome.start_error.empty()) {
        rec["exit_status"] = nullptr;
        rec["signal"] = nullptr;
        err_text += "blsim: sweep: cannot start the run: " + j.outcome.start_error + "\n";
        why = "not started: " + j.outcome.start_error;
    } else {
        const int st = j.outcome.status;
        rec["exit_status"] = WIFEXITED(st) ? json(WEXITSTATUS(st)) : json(nullptr);
        rec["signal"] = WIFSIGNALED(st) ? json(WTERMSIG(st)) : json(nullptr);
        why = status_text(st);
        if (exited_ok && !complete) {
            err_text += "blsim: sweep: the run exited 0 and left no summary.json\n";
            why += ", no summary.json";
        }
    }
    rec["stderr_tail"] = last_lines(lines_of(err_text), stderr_tail_lines);
    std::string error;
    const fs::path record = j.final_dir.parent_path() / (j.final_dir.filename().string() + ".failed");
    write_file_atomically(record.string(), rec.dump(2) + "\n", error);
    fs::remove_all(j.tmp_dir, ec);
    fs::remove(j.err_file, ec);
    fs::remove_all(j.final_dir, ec);
    return false;
}

// Removes the temporary leftovers of runs that never finished (a sweep killed, a machine
// down): every entry of @point_dir whose name holds ".tmp-".
void remove_stale(const fs::path& point_dir)
{
    std::error_code ec;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(point_dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().find(".tmp-") != std::string::npos)
            stale.push_back(it->path());
    for (const fs::path& p : stale)
        fs::remove_all(p, ec);
}

// The sweep's directory made ready: checked against a manifest already there (the same base
// scenario), points/ made, manifest.json written and read back into @m. An exit status.
int prepare_dir(const sweep_spec& spec, const fs::path& dir, manifest& m, std::ostream& err)
{
    std::string error;
    if (!check_existing_manifest(dir, spec.base_digest, error)) {
        err << "blsim: sweep: " << error << "\n";
        return exit_usage;
    }
    std::error_code ec;
    fs::create_directories(dir / "points", ec);
    if (ec) {
        err << "blsim: sweep: cannot write to " << dir.string() << ": " << ec.message() << "\n";
        return exit_usage;
    }
    const std::string manifest_text = sweep_manifest_json(spec);
    if (!write_file_atomically((dir / "manifest.json").string(), manifest_text, error)) {
        err << "blsim: sweep: cannot write " << error << "\n";
        return exit_usage;
    }
    if (!read_manifest(dir / "manifest.json", m, error)) {
        err << "blsim: sweep: " << error << "\n";
        return exit_failed;
    }
    return exit_ok;
}

// This shard's share of the sweep: its points (every shard_n-th), and their runs not
// finished before.
struct shard_work {
    std::vector<std::size_t> mine; // indices into the spec's points
    std::vector<run_job> jobs;
    std::size_t done_before = 0;
};

// The shard's points, each with its directory made (stale temporaries removed) and its runs
// not finished before, a failed one's record removed to run it again. False (reported) when
// a point's directory cannot be made.
bool plan_shard(const sweep_options& opt, const sweep_spec& spec, const fs::path& dir, shard_work& w,
                std::ostream& err)
{
    for (std::size_t i = 0; i < spec.points.size(); i++)
        if (static_cast<int>(i % static_cast<std::size_t>(opt.shard_n)) == opt.shard_k - 1)
            w.mine.push_back(i);
    std::error_code ec;
    const std::string tmp_suffix = ".tmp-" + std::to_string(::getpid());
    for (std::size_t i : w.mine) {
        const fs::path pdir = dir / "points" / spec.points[i].id;
        fs::create_directories(pdir, ec);
        if (ec) {
            err << "blsim: sweep: cannot create " << pdir.string() << ": " << ec.message() << "\n";
            return false;
        }
        remove_stale(pdir);
        for (long long seed : spec.seeds) {
            run_job j;
            j.point = i;
            j.seed = seed;
            j.final_dir = pdir / seed_dir(seed);
            if (fs::exists(j.final_dir / "summary.json", ec)) {
                w.done_before++;
                continue;
            }
            fs::remove(pdir / (seed_dir(seed) + ".failed"), ec);
            fs::remove_all(j.final_dir, ec);
            j.tmp_dir = pdir / ("." + seed_dir(seed) + tmp_suffix);
            j.err_file = pdir / ("." + seed_dir(seed) + tmp_suffix + ".stderr");
            w.jobs.push_back(j);
        }
    }
    return true;
}

// Runs the shard's jobs, at most @limit at once, a progress line as each settles; then the
// failed ones, in point and seed order. @failed_now: how many failed. False (reported) when
// the runs cannot be waited for.
bool run_shard(const sweep_options& opt, const sweep_spec& spec, const fs::path& dir, unsigned limit,
               std::size_t total, shard_work& w, std::size_t& failed_now, std::ostream& err)
{
    progress_line prog(err, "sweep", "failed", total, w.done_before);
    std::vector<run_request> requests;
    for (const run_job& j : w.jobs)
        requests.push_back(run_of(opt, spec, j));
    std::vector<const run_job*> failures;
    std::vector<run_outcome> outcomes;
    const child_run_options how{limit, true, "blsim: sweep: cannot execute the blsim binary\n"};
    auto finished = [&](std::size_t i, const run_outcome& o, std::size_t remaining) {
        run_job& j = w.jobs[i];
        j.outcome = o;
        std::string why;
        const bool ok = settle(j, spec, why);
        if (!ok) {
            failed_now++;
            failures.push_back(&j);
        }
        prog.finished("point " + spec.points[j.point].id + " seed " + std::to_string(j.seed) + ": " +
                          (ok ? "done" : "failed (" + why + ")"),
                      !ok, remaining);
    };
    {
        const interrupt_notice notice("blsim: sweep: interrupted; the runs that finished are kept in " +
                                      dir.string() + ": run the same command again to resume");
        std::string error;
        if (!run_children(requests, how, outcomes, error, finished)) {
            err << "blsim: sweep: waiting for the runs: " << error << "\n";
            return false;
        }
    }
    prog.end();

    std::sort(failures.begin(), failures.end(), [](const run_job* a, const run_job* b) {
        return std::make_pair(a->point, a->seed) < std::make_pair(b->point, b->seed);
    });
    for (const run_job* j : failures)
        err << "blsim: sweep: point " << spec.points[j->point].id << " seed " << j->seed
            << " failed; see " << (j->final_dir.string() + ".failed") << "\n";
    return true;
}

int sweep(const sweep_options& opt, std::ostream& out, std::ostream& err)
{
    diagnostics diag;
    sweep_spec spec;
    if (!load_sweep_spec(opt.spec, spec, diag)) {
        diag.print(err);
        return exit_usage;
    }
    const fs::path dir(opt.out_dir);
    manifest m;
    if (const int rc = prepare_dir(spec, dir, m, err); rc != exit_ok)
        return rc;
    shard_work w;
    if (!plan_shard(opt, spec, dir, w, err))
        return exit_failed;

    const std::size_t total = w.mine.size() * spec.seeds.size();
    std::string shard;
    if (opt.shard_n > 1)
        shard = "shard " + std::to_string(opt.shard_k) + "/" + std::to_string(opt.shard_n) + ": ";
    const unsigned limit = runs_at_once(opt.jobs);
    err << "blsim: sweep: " << shard << w.mine.size() << " of " << count_of(spec.points.size(), "point") << " x "
        << count_of(spec.seeds.size(), "seed") << ": " << count_of(total, "run") << ", " << w.done_before
        << " done before, " << w.jobs.size() << " to run (at most " << limit << " at once)\n";
    err.flush();
    std::size_t failed_now = 0;
    if (!run_shard(opt, spec, dir, limit, total, w, failed_now, err))
        return exit_failed;

    std::size_t failed = 0;
    std::string error;
    if (!write_results(dir, m, w.mine, failed, error)) {
        err << "blsim: sweep: cannot write " << error << "\n";
        return exit_failed;
    }
    out << "sweep: " << shard << count_of(w.mine.size(), "point") << " x " << count_of(spec.seeds.size(), "seed")
        << " = " << count_of(total, "run") << ": " << (total - failed) << " done ("
        << (w.jobs.size() - failed_now) << " now), " << failed << " failed\n"
        << "results: " << (dir / "results.csv").string() << ", " << (dir / "results.json").string() << "\n";
    out.flush();
    return failed ? exit_failed : exit_ok;
}

// Copies the run directory (or .failed record) @from to @to, through a temporary name and a
// rename; files are hard-linked where the file system allows.
bool copy_run(const fs::path& from, const fs::path& to, std::string& error)
{
    std::error_code ec;
    const fs::path tmp = to.parent_path() / ("." + to.filename().string() + ".tmp-" + std::to_string(::getpid()));
    fs::remove_all(tmp, ec);
    const bool is_dir = fs::is_directory(from, ec);
    auto copy = [&](fs::copy_options how) {
        ec.clear();
        if (is_dir)
            fs::copy(from, tmp, how | fs::copy_options::recursive, ec);
        else
            fs::copy(from, tmp, how, ec);
        return !ec;
    };
    if (!copy(fs::copy_options::create_hard_links)) {
        fs::remove_all(tmp, ec);
        if (!copy(fs::copy_options::none)) {
            error = "cannot copy " + from.string() + " to " + tmp.string() + ": " + ec.message();
            fs::remove_all(tmp, ec);
            return false;
        }
    }
    fs::remove_all(to, ec);
    fs::rename(tmp, to, ec);
    if (ec) {
        error = "cannot rename " + tmp.string() + " to " + to.string() + ": " + ec.message();
        return false;
    }
    return true;
}

// Every shard's manifest, read and checked to be of one sweep (the spec's path aside); false
// (reported) when one is not.
bool read_shards(const sweep_options& opt, std::vector<manifest>& shards, std::ostream& err)
{
    std::string error;
    bool bad = false;
    auto same = [](json a, json b) {
        a.erase("spec");
        b.erase("spec");
        return a == b;
    };
    for (std::size_t s = 0; s < shards.size(); s++) {
        if (!read_manifest(fs::path(opt.shard_dirs[s]) / "manifest.json", shards[s], error)) {
            err << "blsim: sweep merge: " << error << "\n";
            bad = true;
        } else if (s > 0 && !bad && !same(shards[s].doc, shards[0].doc)) {
            err << "blsim: sweep merge: " << opt.shard_dirs[s] << " is a shard of another sweep than "
                << opt.shard_dirs[0] << " (their manifest.json differ "
                << (shards[s].ids != shards[0].ids ? "in the points' ids" : "beyond the spec's path") << ")\n";
            bad = true;
        }
    }
    return !bad;
}

// What a merge does: the runs copied into DIR, DIR's .failed records a finished run replaces,
// and the runs in none of the shards.
struct merge_plan {
    struct copy {
        fs::path from, to;
    };
    std::vector<copy> copies;
    std::vector<fs::path> drop;
    std::vector<std::string> missing;
};

// Where each run comes from: a finished run wins over a failed one; DIR's own, if finished,
// is kept.
merge_plan plan_merge(const sweep_options& opt, const manifest& m, const fs::path& dir)
{
    merge_plan plan;
    std::error_code ec;
    for (std::size_t i = 0; i < m.ids.size(); i++) {
        const fs::path pdir = dir / "points" / m.ids[i];
        for (long long seed : m.seeds) {
            const std::string sd = seed_dir(seed);
            if (fs::exists(pdir / sd / "summary.json", ec))
                continue;
            const fs::path* found = nullptr;
            fs::path done, failed;
            for (const std::string& s : opt.shard_dirs) {
                const fs::path p = fs::path(s) / "points" / m.ids[i];
                if (done.empty() && fs::exists(p / sd / "summary.json", ec))
                    done = p / sd;
                if (failed.empty() && fs::exists(p / (sd + ".failed"), ec))
                    failed = p / (sd + ".failed");
            }
            if (!done.empty()) {
                found = &done;
                plan.copies.push_back({done, pdir / sd});
                plan.drop.push_back(pdir / (sd + ".failed"));
            } else if (!failed.empty()) {
                found = &failed;
                if (!fs::exists(pdir / (sd + ".failed"), ec) || !fs::equivalent(failed, pdir / (sd + ".failed"), ec))
                    plan.copies.push_back({failed, pdir / (sd + ".failed")});
            }
            if (!found)
                plan.missing.push_back("point " + m.ids[i] + " seed " + std::to_string(seed));
        }
    }
    return plan;
}

// Carries out @plan: the first shard's manifest into DIR, then the copies, then the drops. An
// exit status.
int carry_out(const sweep_options& opt, const fs::path& dir, const merge_plan& plan, std::ostream& err)
{
    std::error_code ec;
    std::string text, why, error;
    read_source((fs::path(opt.shard_dirs[0]) / "manifest.json").string(), text, why);
    fs::create_directories(dir / "points", ec);
    if (ec || !write_file_atomically((dir / "manifest.json").string(), text, error)) {
        err << "blsim: sweep merge: cannot write to " << dir.string() << ": " << (ec ? ec.message() : error) << "\n";
        return exit_usage;
    }
    for (const merge_plan::copy& c : plan.copies) {
        fs::create_directories(c.to.parent_path(), ec);
        if (!copy_run(c.from, c.to, error)) {
            err << "blsim: sweep merge: " << error << "\n";
            return exit_failed;
        }
    }
    for (const fs::path& p : plan.drop)
        fs::remove(p, ec);
    return exit_ok;
}

int merge(const sweep_options& opt, std::ostream& out, std::ostream& err)
{
    std::vector<manifest> shards(opt.shard_dirs.size());
    if (!read_shards(opt, shards, err))
        return exit_usage;
    const manifest& m = shards[0];
    const fs::path dir(opt.out_dir);
    std::string error;
    if (!check_existing_manifest(dir, m.doc["base_digest"].get<std::string>(), error)) {
        err << "blsim: sweep merge: " << error << "\n";
        return exit_usage;
    }
    const merge_plan plan = plan_merge(opt, m, dir);
    if (!plan.missing.empty()) {
        for (const std::string& what : plan.missing)
            err << "blsim: sweep merge: " << what << ": in none of the shards (neither finished nor failed)\n";
        err << "blsim: sweep merge: " << plan.missing.size() << " runs missing; is a shard missing or unfinished?\n";
        return exit_usage;
    }
    if (const int rc = carry_out(opt, dir, plan, err); rc != exit_ok)
        return rc;

    std::vector<std::size_t> all(m.ids.size());
    for (std::size_t i = 0; i < all.size(); i++)
        all[i] = i;
    std::size_t failed = 0;
    if (!write_results(dir, m, all, failed, error)) {
        err << "blsim: sweep merge: cannot write " << error << "\n";
        return exit_failed;
    }
    out << "sweep merge: " << count_of(shards.size(), "shard") << ", " << count_of(m.ids.size(), "point") << " x "
        << count_of(m.seeds.size(), "seed") << ": " << failed << " failed\n"
        << "results: " << (dir / "results.csv").string() << ", " << (dir / "results.json").string() << "\n";
    out.flush();
    return failed ? exit_failed : exit_ok;
}

} // namespace

int run_sweep(const sweep_options& opt, std::ostream& out, std::ostream& err)
{
    if (opt.pareto)
        return sweep_detail::run_pareto(opt, out, err);
    return opt.merge ? merge(opt, out, err) : sweep(opt, out, err);
}

} // namespace blsim::soc
