// tests/cli/run_test.cpp -- blsim run's own behaviour, as a user meets it: its options and --help,
// its exit statuses, its progress line, and its results set (--out, --force). What a run simulates
// is tested by subject, beside that subject's unit tests (tests/*/*_e2e_test.cpp).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "e2e.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

using blsim_test::blsim;
using blsim_test::result;
using blsim_test::run_test;
using blsim_test::scenario;
using blsim_test::slurp;
using blsim_test::blsim_hooked;
namespace test = blsim_test;

TEST_F(run_test, usage_errors_exit_2_and_help_exits_0)
{
    result r = blsim("--help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("usage: blsim <command>"), std::string::npos);
    r = blsim("run --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("--set KEY=VALUE"), std::string::npos);
    r = blsim("frobnicate");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: unknown command 'frobnicate'\n(see 'blsim --help')\n");
    r = blsim("run --bogus");
    EXPECT_EQ(r.status, 2);
    r = blsim("run /nonexistent/scenario.yaml");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "/nonexistent/scenario.yaml: cannot read: No such file or directory\n");
}

// Slips a new user makes, each answered with what was done and what to write instead.
TEST_F(run_test, a_set_in_two_arguments_and_an_rtapp_file_given_as_the_scenario_say_what_to_write)
{
    fs::create_directories(dir);
    const std::string here = "cd " + test::quote(dir.string()) + " && "; // relative paths are the test's
    // "--set key value": not "10: cannot read" (the value taken for the scenario).
    const std::string hint = "blsim: --set duration_s 10: a --set is one argument, KEY=VALUE: --set duration_s=10\n"
                             "(see 'blsim --help')\n";
    for (const char* args : {"run --set duration_s 10", "run x.yaml --set duration_s 10 --out o",
                             "compare a.yaml b.yaml --set duration_s 10", "explore x.yaml --set duration_s 10"}) {
        const result r = blsim(args, here);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.err, hint) << args;
    }
    // Without a value after it, the override's own message, located.
    result r = blsim("run " + std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/default.yaml --set duration_s", here);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "--set:1:1: expected key=value, got 'duration_s'\n");

    // rt-app's JSON (with its C comments, which YAML cannot read, or without) as the scenario.
    const std::string json = std::string(BLSIM_SOURCE_DIR) + "/configs/rtapp/periodic.json";
    r = blsim("run " + json + " --out o", here);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, json + ":1:1: this is an rt-app JSON file, not a scenario: a scenario runs it as its workload "
                            "('workload: {kind: rtapp, rtapp_json: FILE}', docs/workloads.md), e.g. blsim run "
                            "configs/scenarios/rtapp-periodic.yaml --set workload.rtapp_json=" + json + "\n");
    EXPECT_FALSE(fs::exists(dir / "o"));
    std::ofstream(dir / "plain.json") << "{\"tasks\": {\"a\": {\"run\": 1000}}}\n";
    r = blsim("run plain.json --out o", here);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("plain.json:1:1: this is an rt-app JSON file, not a scenario"), std::string::npos) << r.err;
    // ... and the suggested command runs it (a path given with --set is the working directory's).
    r = blsim("run " + std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/rtapp-periodic.yaml -q --set duration_s=0.05 "
              "--set workload.rtapp_json=plain.json --out o",
              here);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(slurp(dir / "o" / "effective-config.yaml").find("rtapp_json: " + (dir / "plain.json").string()),
              std::string::npos);
}

// The test hooks are the test build's: the release blsim neither takes nor lists them, and
// blsim-test, the same command line with them, does.
TEST_F(run_test, the_release_blsim_has_no_test_hooks_and_blsim_test_has_them)
{
    if (BLSIM_RELEASE_HAS_HOOKS)
        GTEST_SKIP() << "built with -DBLSIM_MUTANTS=ON: blsim itself has the hooks";
    for (const std::string opt : {"--mutant vlock-without-voting", "--inject-bug task-lost"}) {
        const result r = blsim("run " + opt + " --out " + dir.string());
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "blsim: run: unknown option '" + opt.substr(0, opt.find(' ')) + "'\n(see 'blsim --help')\n");
        EXPECT_FALSE(fs::exists(dir));
    }
    const result help = blsim("run --help");
    EXPECT_EQ(help.out.find("--mutant"), std::string::npos);
    EXPECT_EQ(help.out.find("--inject-bug"), std::string::npos);
    const result explore = blsim("explore builtin:configs/scenarios/default.yaml --mutant vlock-without-voting");
    EXPECT_EQ(explore.status, 2);
    EXPECT_EQ(explore.err, "blsim: explore: unknown option '--mutant'\n(see 'blsim --help')\n");
    const result hooked = blsim_hooked("run --help");
    EXPECT_NE(hooked.out.find("  --mutant NAME       run a known-bad variant"), std::string::npos);
    EXPECT_NE(hooked.out.find("  --inject-bug NAME   make the simulator misbehave"), std::string::npos);
}

TEST_F(run_test, a_bad_configuration_is_located_and_writes_nothing)
{
    const fs::path cfg = dir.string() + "-bad.yaml";
    std::ofstream(cfg) << "name: bad\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\n"
                       << "duration_s: -1\n";
    result r = blsim("run " + cfg.string() + " --out " + dir.string() + " --set seed=x");
    fs::remove(cfg);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, cfg.string() + ":3:13: duration_s: -1 is out of range 1e-06..1000000\n"
                     "--set:1:6: seed: expected an integer, got 'x'\n");
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(fs::exists(dir));
}

TEST_F(run_test, an_invariant_violated_stops_the_run_with_exit_1_and_writes_nothing)
{
    result r = blsim_hooked("run --inject-bug meter-time-reversal --set duration_s=1 --out " + dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "blsim: internal error: invariant 'accounting-interval' violated at 0.500000000000 s in "
                     "cluster a15: a change dated 0.500000000000 s arrived after the meter had integrated up to "
                     "0.500001000000 s (a negative interval)\n");
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
}

TEST_F(run_test, the_progress_line_shows_speed_and_eta_and_changes_no_result)
{
    // Shown on a terminal only (BLSIM_PROGRESS stands in for one here), on stderr, and gone
    // at the end; the run is sliced for it, with the same results.
    const std::string s = scenario("switch-pingpong.yaml");
    ASSERT_EQ(blsim("run -q --out " + (dir / "plain").string() + " " + s).status, 0);
    result r = blsim("run --out " + (dir / "shown").string() + " " + s, "BLSIM_PROGRESS=1 ");
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.err.find("1.000 / 1.000 s simulated (100%), "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("x real time, ETA 0 s"), std::string::npos) << r.err;
    json a = json::parse(slurp(dir / "plain" / "summary.json")), b = json::parse(slurp(dir / "shown" / "summary.json"));
    a.erase("host");
    b.erase("host");
    EXPECT_EQ(a, b);
    EXPECT_EQ(slurp(dir / "plain" / "switches.csv"), slurp(dir / "shown" / "switches.csv"));
    // -q silences it.
    r = blsim("run -q --out " + (dir / "quiet").string() + " " + s, "BLSIM_PROGRESS=1 ");
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(run_test, an_unwritable_results_directory_is_refused_before_simulating)
{
    result r = blsim("run --set duration_s=600 --out /proc/blsim-cannot-be-here");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: cannot write results to /proc/blsim-cannot-be-here: No such file or directory\n");
    EXPECT_TRUE(r.out.empty());
}

TEST_F(run_test, a_results_set_is_complete_only_with_its_summary)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --out " + dir.string()).status, 0);
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["files"], json::array({"effective-config.yaml", "switches.csv"}));
    for (const std::string f : {"effective-config.yaml", "switches.csv"})
        EXPECT_TRUE(fs::exists(dir / f)) << f;
    // Nothing temporary is left behind.
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
}

// --- one run, one set (issue 24, class 3) ----------------------------------------------------

// The hidden entries of @parent whose name begins with "." + @name (staging or old sets).
std::vector<std::string> hidden_siblings(const fs::path& parent, const std::string& name)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(parent))
        if (e.path().filename().string().rfind("." + name, 0) == 0)
            out.push_back(e.path().filename().string());
    return out;
}

std::vector<std::string> listing(const fs::path& d)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(d))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

TEST_F(run_test, a_reused_out_is_refused_and_left_as_it_was)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --trace perfetto --out " + dir.string()).status, 0);
    const std::string before = slurp(dir / "summary.json");
    result r = blsim("run -q --set duration_s=0.2 --out " + dir.string());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --out " + dir.string() +
                         ": not empty (an earlier run's results?); give a new directory, or --force to replace its "
                         "contents with this run's\n");
    EXPECT_EQ(slurp(dir / "summary.json"), before);
    EXPECT_TRUE(fs::exists(dir / "trace.json"));
    EXPECT_TRUE(hidden_siblings(dir.parent_path(), dir.filename().string()).empty());
}

TEST_F(run_test, force_replaces_the_whole_set_and_summary_lists_it)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --trace perfetto,vcd --out " + dir.string()).status, 0);
    std::ofstream(dir / "stale.png") << "an older picture";
    result r = blsim("run -q --force --set duration_s=0.2 --trace ftrace --out " + dir.string() + "/");
    ASSERT_EQ(r.status, 0) << r.err;
    // Nothing of the older set survives; the set is exactly what summary.json lists.
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"effective-config.yaml", "summary.json", "switches.csv",
                                                      "trace.txt"}));
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["files"], json::array({"effective-config.yaml", "switches.csv", "trace.txt"}));
    EXPECT_EQ(s["sim_time_s"], 0.2);
    EXPECT_TRUE(hidden_siblings(dir.parent_path(), dir.filename().string()).empty());
}

TEST_F(run_test, a_failed_run_leaves_an_existing_set_untouched_and_no_temporaries)
{
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --out " + dir.string()).status, 0);
    const std::vector<std::string> before = listing(dir);
    const std::string summary = slurp(dir / "summary.json");
    result r = blsim_hooked("run -q --force --inject-bug meter-time-reversal --set duration_s=1 --trace perfetto,vcd --out " +
                     dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("blsim: the trace up to the violation is not written: " + dir.string() +
                         " holds an earlier run's results\n"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(listing(dir), before);
    EXPECT_EQ(slurp(dir / "summary.json"), summary);
    EXPECT_TRUE(hidden_siblings(dir.parent_path(), dir.filename().string()).empty());
}

TEST_F(run_test, a_killed_runs_staging_directory_is_removed_by_the_next_run_in_its_parent)
{
    // A pid that is no longer alive: a child already waited for.
    const pid_t dead = ::fork();
    if (dead == 0)
        ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    fs::create_directories(dir);
    const fs::path stale = dir / (".killed.blsim-tmp." + std::to_string(dead));
    fs::create_directories(stale);
    std::ofstream(stale / ".trace.tmp.vcd") << "half a trace";
    // One whose owner lives (this test) is left alone.
    const fs::path live = dir / (".running.blsim-tmp." + std::to_string(::getpid()));
    fs::create_directories(live);
    ASSERT_EQ(blsim("run -q --set duration_s=0.1 --trace vcd --out " + (dir / "next").string()).status, 0);
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(live));
    EXPECT_EQ(listing(dir), (std::vector<std::string>{live.filename().string(), "next"}));
    EXPECT_TRUE(fs::exists(dir / "next" / "trace.vcd"));
}

TEST_F(run_test, results_that_cannot_be_written_are_an_io_error_naming_the_path)
{
    // TMPDIR that is no directory: compare's scratch space cannot be made. An environment
    // failure, named with the path and errno's text, exit 1, never "internal error".
    result r = blsim("compare " + scenario("default.yaml") + " " + scenario("default.yaml"),
                     "TMPDIR=/proc/blsim-no-such-dir ");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("blsim: error: compare: cannot create a temporary directory in /proc/blsim-no-such-dir: ", 0),
              0u)
        << r.err;
    // An --out whose parent cannot hold it: refused before simulating (docs/results.md).
    r = blsim("run --set duration_s=600 --out /proc/self/blsim-cannot-be-here");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("blsim: cannot write results to /proc/self/blsim-cannot-be-here: ", 0), 0u) << r.err;
}

} // namespace
