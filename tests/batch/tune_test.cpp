// tests/batch/tune_test.cpp -- `blsim tune` (docs/tune.md), end to end with the binary and
// scripts/tune: the same seed and -j give the same trials byte for byte; a tune extended with a
// larger --trials keeps its finished trials and equals one run through; bad specs are refused
// with located messages and nothing written; a failing trial is recorded and the search goes
// on. Every tune here is a few 2-second BBench runs.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "shell.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using blsim_test::quote;
using blsim_test::result;
using blsim_test::slurp;
using blsim_test::write;

const std::string source_dir = BLSIM_SOURCE_DIR;

// A small tune: 4 trials of 2 simulated seconds, TPE after the first 2, one baseline.
std::string small_spec()
{
    return "base: " + source_dir + R"(/configs/scenarios/bbench-iks-tuned.yaml
duration_s: 2
trials: 4
seed: 7
startup_trials: 2
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, range: {from: 50, to: 99}}
  - {key: governor.interactive.hispeed_freq_mhz, values: [500, 600, 800, 1000]}
  - {key: governor.interactive.target_loads, values: ["80", "85 1000:90", 90]}
  - {key: governor.interactive.timer_rate_us, range: {from: 10000, to: 40000, step: 10000}}
objective: {minimize: energy_j.total}
min_fraction: 0.9
constraints:
  - perf.bbench.score >= min_fraction * baseline(2xa15)
  - perf.audio.deadline_misses <= 0
baselines:
  2xa15: )" + source_dir +
           R"(/configs/scenarios/bbench-2xa15.yaml
reference: 2xa15
)";
}

class tune_test : public blsim_test::scratch_test {
protected:
    tune_test() : scratch_test("tune-test", start::made) {}
    void SetUp() override
    {
        scratch_test::SetUp();
        write(dir / "spec.yaml", small_spec());
    }

    // blsim with @args, from the test's directory.
    result blsim(const std::string& args, const std::string& env = "")
    {
        return blsim_test::shell("cd " + quote(dir.string()) + " && " + env + " " + BLSIM_BINARY + " " + args);
    }
};

// (inode, modification time in ns) of @p: a file rewritten or replaced changes it.
std::pair<ino_t, long long> identity(const fs::path& p)
{
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0)
        return {0, -1};
    return {st.st_ino, static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
}

TEST_F(tune_test, the_same_seed_and_jobs_give_the_same_trials)
{
    const result a = blsim("tune spec.yaml --out a -j2");
    ASSERT_EQ(a.status, 0) << a.err;
    const result b = blsim("tune spec.yaml --out b -j2");
    ASSERT_EQ(b.status, 0) << b.err;
    for (const char* f : {"trials.csv", "best.json", "trials.png"})
        EXPECT_EQ(slurp(dir / "a" / f), slurp(dir / "b" / f)) << f;
    // The report too, but for the directory's name.
    std::string out_b = b.out;
    for (std::size_t p; (p = out_b.find(" b/")) != std::string::npos;)
        out_b.replace(p, 3, " a/");
    EXPECT_EQ(a.out, out_b);

    // Every trial finished, and the files hold what they should.
    const std::string csv = slurp(dir / "a/trials.csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "number,state,governor.interactive.go_hispeed_load_pct,governor.interactive.hispeed_freq_mhz,"
              "governor.interactive.target_loads,governor.interactive.timer_rate_us,energy_j.total,"
              "perf.bbench.score,perf.audio.deadline_misses,feasible,note");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
    for (const char* t : {"0000", "0001", "0002", "0003"})
        EXPECT_TRUE(fs::exists(dir / "a/trials" / t / "summary.json")) << t;
    EXPECT_TRUE(fs::exists(dir / "a/baselines/2xa15/summary.json"));
    EXPECT_TRUE(fs::exists(dir / "a/study.db"));
    const json best = json::parse(slurp(dir / "a/best.json"));
    EXPECT_EQ(best["trials"]["finished"], 4);
    EXPECT_EQ(best["constraints"][0]["threshold"].get<double>(),
              0.9 * best["baselines"]["2xa15"]["perf.bbench.score"].get<double>());
    if (!best["best"].is_null()) {
        const json& vs = best["best"]["vs_baselines"]["2xa15"]["energy_j.total"];
        EXPECT_EQ(vs["difference"].get<double>(), vs["best"].get<double>() - vs["baseline"].get<double>());
        EXPECT_NE(a.out.find("  blsim run "), std::string::npos) << a.out;
        EXPECT_NE(a.out.find("    --set duration_s=2 \\\n"), std::string::npos) << a.out;
    } else {
        EXPECT_NE(a.out.find("no feasible trial\n"), std::string::npos) << a.out;
    }
    EXPECT_NE(a.out.find("results: a/trials.csv, a/best.json, a/trials.png\n"), std::string::npos) << a.out;
}

TEST_F(tune_test, a_larger_budget_resumes_and_equals_one_run_through)
{
    ASSERT_EQ(blsim("tune spec.yaml --out whole -j2").status, 0);

    const result first = blsim("tune spec.yaml --out part -j2 --trials 2");
    ASSERT_EQ(first.status, 0) << first.err;
    EXPECT_FALSE(fs::exists(dir / "part/trials/0002"));
    const auto t0 = identity(dir / "part/trials/0000/summary.json");
    const auto t1 = identity(dir / "part/trials/0001/summary.json");
    const auto base = identity(dir / "part/baselines/2xa15/summary.json");

    const result more = blsim("tune spec.yaml --out part -j2 --trials 4");
    ASSERT_EQ(more.status, 0) << more.err;
    EXPECT_NE(more.err.find("4 trials, 2 done before, 2 to run, 2 at once, seed 7\n"), std::string::npos) << more.err;
    EXPECT_EQ(more.err.find("trial 0:"), std::string::npos) << more.err;
    EXPECT_EQ(more.err.find("trial 1:"), std::string::npos) << more.err;
    // The finished trials and the baseline were kept as they were, not run again.
    EXPECT_EQ(identity(dir / "part/trials/0000/summary.json"), t0);
    EXPECT_EQ(identity(dir / "part/trials/0001/summary.json"), t1);
    EXPECT_EQ(identity(dir / "part/baselines/2xa15/summary.json"), base);
    for (const char* f : {"trials.csv", "best.json", "trials.png"})
        EXPECT_EQ(slurp(dir / "part" / f), slurp(dir / "whole" / f)) << f;

    // Another spec in the same directory is refused, and the directory left as it was.
    write(dir / "other.yaml", small_spec().replace(small_spec().find("seed: 7"), 7, "seed: 8"));
    const std::string tune_json = slurp(dir / "part/tune.json");
    const result other = blsim("tune other.yaml --out part -j2");
    EXPECT_EQ(other.status, 2);
    EXPECT_EQ(other.err, "blsim: tune: part holds another tune (its seed differs); use another --out, or the same "
                         "spec and min_fraction\n");
    EXPECT_EQ(slurp(dir / "part/tune.json"), tune_json);
}

TEST_F(tune_test, spec_errors_are_located_and_nothing_is_written)
{
    const std::string steps = source_dir + "/configs/scenarios/governor-steps.yaml";
    // The spec's own keys and forms.
    write(dir / "bad.yaml", "base: " + steps + R"(
trials: 0
paramters: []
parameters:
  - {key: governor.interactive.min_sample_time_us, range: {from: 10, to: 5}}
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 85]}
  - {key: governor.interactive.timer_rate_us}
objective: {minimise: energy_j.total}
constraints:
  - perf.bbench.score >= 0.9 * baseline(a15)
  - perf.audio.deadline_misses < 0
  - perf.bbench.score >= min_fraction * baseline(steps)
baselines: {steps: )" + steps + R"(}
)");
    result r = blsim("tune bad.yaml --out out");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "bad.yaml:2:9: trials: 0 is out of range 1..100000\n"
              "bad.yaml:3:1: unknown key 'paramters' (did you mean 'parameters'?)\n"
              "bad.yaml:5:59: parameters[0].range: 'to' (5) is not above 'from' (10)\n"
              "bad.yaml:6:66: parameters[1].values[1]: 85 is listed twice\n"
              "bad.yaml:7:5: parameters[2]: needs exactly one of 'values' or 'range'\n"
              "bad.yaml:8:13: objective: unknown key 'minimise' (did you mean 'minimize'?)\n"
              "bad.yaml:10:5: constraints[0]: unknown baseline 'a15' (the baselines are steps)\n"
              "bad.yaml:11:5: constraints[1]: expected 'METRIC >= RHS' or 'METRIC <= RHS' (RHS: a number, "
              "baseline(NAME), F * baseline(NAME) or min_fraction * baseline(NAME)), got "
              "'perf.audio.deadline_misses < 0'\n"
              "bad.yaml:12:5: constraints[2]: names min_fraction, which neither the spec's 'min_fraction' nor "
              "--min-fraction sets\n");
    EXPECT_FALSE(fs::exists(dir / "out"));

    // Keys and values the scenario refuses, as blsim's own loader words them, each at its place.
    write(dir / "keys.yaml", "base: " + steps + R"(
trials: 4
duration_s: 1
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 1001]}
  - {key: governor.interactive.timer_ratez, range: {from: 1000, to: 2000}}
  - {key: governor.name, values: [interactive, ondemandd]}
objective: {minimize: energy_j.total}
)");
    r = blsim("tune keys.yaml --out out");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "keys.yaml:5:66: parameters[0] (governor.interactive.go_hispeed_load_pct=1001): "
              "governor.interactive.go_hispeed_load_pct: 1001 is out of range 1..1000\n"
              "keys.yaml:6:11: parameters[1] (governor.interactive.timer_ratez): unknown key 'timer_ratez' in "
              "governor.interactive (did you mean 'timer_rate_us'?)\n"
              "keys.yaml:7:48: parameters[2] (governor.name=ondemandd): governor.name: expected one of "
              "performance, powersave, userspace, interactive, ondemand, conservative, schedutil, got 'ondemandd'\n");
    EXPECT_FALSE(fs::exists(dir / "out"));

    // A metric no baseline reports: found by running the baselines, still with nothing written.
    write(dir / "metric.yaml", "base: " + steps + R"(
trials: 4
duration_s: 0.5
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 99]}
objective: {minimize: energy_j.totl}
baselines: {steps: )" + steps + R"(}
)");
    r = blsim("tune metric.yaml --out out");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "metric.yaml:6:23: objective.minimize: baseline 'steps' has no number at 'energy_j.totl' in "
                     "its summary.json (docs/results.md)\n");
    EXPECT_FALSE(fs::exists(dir / "out"));

    // YAML that does not parse; usage errors.
    write(dir / "syntax.yaml", "base: x.yaml\n  trials: [\n");
    r = blsim("tune syntax.yaml --out out");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "syntax.yaml:2:9: mapping values are not allowed here\n");
    r = blsim("tune spec.yaml --out out --min-fraction 0.9 --trials 0");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --trials: expected a whole number 1..100000, got '0'\n(see 'blsim tune --help')\n");
    r = blsim("tune spec.yaml");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: tune: --out DIR is required\n(see 'blsim tune --help')\n");
    write(dir / "nofraction.yaml", "base: " + steps + R"(
trials: 4
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 99]}
objective: {minimize: energy_j.total}
)");
    r = blsim("tune nofraction.yaml --out out --min-fraction 0.9");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: tune: --min-fraction: no constraint of the spec names min_fraction\n"
                     "(see 'blsim tune --help')\n");
    EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST_F(tune_test, a_failing_trial_is_recorded_and_the_search_goes_on)
{
    const result r = blsim("tune spec.yaml --out out -j2", "BLSIM_TUNE_FAIL_TRIALS=1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("blsim: tune: [2/4] trial 1: failed (exit status 2: blsim: run: unknown option "
                         "'--blsim-tune-test-failure')\n"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("tune: 4 trials: 3 complete, 1 failed, "), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir / "out/trials/0001"));
    for (const char* t : {"0000", "0002", "0003"})
        EXPECT_TRUE(fs::exists(dir / "out/trials" / t / "summary.json")) << t;
    const json rec = json::parse(slurp(dir / "out/trials/0001.failed"));
    EXPECT_EQ(rec["trial"], 1);
    EXPECT_EQ(rec["exit_status"], 2);
    EXPECT_EQ(rec["signal"], nullptr);
    EXPECT_EQ(rec["stderr_tail"].dump(),
              R"x(["blsim: run: unknown option '--blsim-tune-test-failure'","(see 'blsim --help')"])x");
    const std::string csv = slurp(dir / "out/trials.csv");
    const std::size_t row = csv.find("\n1,FAIL,");
    ASSERT_NE(row, std::string::npos) << csv;
    // Its parameters, no metrics, no feasibility, and why.
    const std::string line = csv.substr(row + 1, csv.find('\n', row + 1) - row - 1);
    const std::string why = ",,,,exit status 2: blsim: run: unknown option '--blsim-tune-test-failure'";
    ASSERT_GT(line.size(), why.size()) << line;
    EXPECT_EQ(line.substr(line.size() - why.size()), why) << line;
    EXPECT_NE(csv.find("\n2,COMPLETE,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n3,COMPLETE,"), std::string::npos) << csv;
}

} // namespace

namespace {

// (issue 24) User and environment errors are one located line each, never a Python traceback.
TEST_F(tune_test, user_and_environment_errors_are_messages_not_tracebacks)
{
    write(dir / "afile", "not a directory\n");
    result r = blsim("tune spec.yaml --out afile/sub --trials 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "blsim: tune: cannot create --out afile/sub: Not a directory\n");
    r = blsim("tune spec.yaml --out /proc/blsim-tune-cannot-be-here --trials 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "blsim: tune: cannot create --out /proc/blsim-tune-cannot-be-here: No such file or directory\n");
    write(dir / "old" / "tune.json", "[1, 2]\n");
    r = blsim("tune spec.yaml --out old --trials 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: tune: old/tune.json is not a tune's record (expected a JSON object); use another --out\n");
    r = blsim("tune missing.yaml --out o --trials 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: tune: cannot read missing.yaml: No such file or directory\n");
    EXPECT_FALSE(fs::exists(dir / "o"));
}

} // namespace
