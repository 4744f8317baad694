// tests/batch/compare_test.cpp -- `blsim compare` (docs/compare.md): the table and the JSON
// from hand-written run directories, the refusals, a failed run's report (through a stand-in
// for blsim), and two real scenarios run end to end.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "blsim/soc/compare.h"
#include "shell.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

using blsim_test::result;
using blsim_test::slurp;
using blsim_test::write;

// Runs blsim with @args (already shell-quoted where needed) from @cwd.
result blsim(const std::string& args, const fs::path& cwd)
{
    return blsim_test::shell("cd " + blsim_test::quote(cwd.string()) + " && " + std::string(BLSIM_BINARY) + " " + args);
}

// Three runs as a user would have them: two bbench-like runs with every field, one run of a
// workload without pages or audio (no perf section) whose switch count is zero, from before
// summaries had a mode. A fourth, under HMP, moved tasks between the clusters.
const char* const summary_a = R"({
  "schema_version": 3, "scenario": "bbench-a15", "seed": 1, "sim_time_s": 20.0, "mode": "smp",
  "energy_j": {"total": 12.5, "clusters": {"a15": 10.0, "a7": 2.5}},
  "avg_power_mw": 625.0,
  "switches": {"count": 4, "requests": 5},
  "perf": {"bbench": {"score": 80.0, "page_load_s": {"total": 3.2, "max": 0.5}},
           "audio": {"deadline_misses": 0}}
})";
const char* const summary_b = R"({
  "schema_version": 3, "scenario": "bbench-switcher", "seed": 1, "sim_time_s": 20.0, "mode": "iks",
  "energy_j": {"total": 10.0},
  "avg_power_mw": 500.0,
  "switches": {"count": 12},
  "perf": {"bbench": {"score": 68.0, "page_load_s": {"total": 3.68}}, "audio": {"deadline_misses": 3}}
})";
const char* const summary_c = R"({
  "schema_version": 3, "scenario": "tc2-default", "seed": 1, "sim_time_s": 60.0,
  "energy_j": {"total": 7.25},
  "avg_power_mw": 120.75,
  "switches": {"count": 0, "requests": 0}
})";
const char* const summary_d = R"({
  "schema_version": 3, "scenario": "bbench-hmp", "seed": 1, "sim_time_s": 20.0, "mode": "hmp",
  "energy_j": {"total": 11.0},
  "avg_power_mw": 550.0,
  "switches": {"count": 0},
  "migrations": {"count": 57, "up": 30, "down": 27},
  "perf": {"bbench": {"score": 76.0, "page_load_s": {"total": 3.3}}, "audio": {"deadline_misses": 1}}
})";

class compare_test : public blsim_test::scratch_test {
protected:
    compare_test() : scratch_test("compare-test", start::made) {}
    void SetUp() override
    {
        scratch_test::SetUp();
        write(dir / "a" / "summary.json", summary_a);
        write(dir / "b" / "summary.json", summary_b);
        write(dir / "c" / "summary.json", summary_c);
        write(dir / "d" / "summary.json", summary_d);
    }
    result compare(const std::string& args) { return blsim("compare " + args, dir); }
};

TEST_F(compare_test, three_run_directories_make_one_table_relative_to_the_first)
{
    const result r = compare("a b c");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out,
              "scenario         mode          score      page load   audio         energy      avg power    switches  migrations\n"
              "                                          total (s)  misses            (J)           (mW)\n"
              "---------------  ----  -------------  -------------  ------  -------------  -------------  ----------  ----------\n"
              "bbench-a15       smp   80.00 (1.00x)  3.200 (1.00x)   0 (-)  12.50 (1.00x)  625.0 (1.00x)   4 (1.00x)          -\n"
              "bbench-switcher  iks   68.00 (0.85x)  3.680 (1.15x)   3 (-)  10.00 (0.80x)  500.0 (0.80x)  12 (3.00x)          -\n"
              "tc2-default      -         -              -           -       7.25 (0.58x)  120.8 (0.19x)   0 (0.00x)          -\n"
              "ratios in parentheses are relative to the first row; -: missing or no ratio; higher score is better\n");
    // Fits a 120-column terminal.
    std::istringstream lines(r.out);
    for (std::string l; std::getline(lines, l);)
        EXPECT_LE(l.size(), 120u) << l;
}

TEST_F(compare_test, the_mode_and_the_migrations_between_clusters_are_columns)
{
    const result r = compare("a d");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out,
              "scenario    mode          score      page load   audio         energy      avg power   switches  migrations\n"
              "                                     total (s)  misses            (J)           (mW)\n"
              "----------  ----  -------------  -------------  ------  -------------  -------------  ---------  ----------\n"
              "bbench-a15  smp   80.00 (1.00x)  3.200 (1.00x)   0 (-)  12.50 (1.00x)  625.0 (1.00x)  4 (1.00x)       -\n"
              "bbench-hmp  hmp   76.00 (0.95x)  3.300 (1.03x)   1 (-)  11.00 (0.88x)  550.0 (0.88x)  0 (0.00x)      57 (-)\n"
              "ratios in parentheses are relative to the first row; -: missing or no ratio; higher score is better\n");
    const json j = json::parse(compare("--json d a").out);
    const json& d = j["rows"][0];
    EXPECT_EQ(d["mode"], "hmp");
    EXPECT_TRUE(d["migrations"].is_number_integer());
    EXPECT_EQ(d["migrations"], 57);
    EXPECT_EQ(d["migrations_ratio"], 1.0);
    EXPECT_EQ(j["rows"][1]["mode"], "smp");
    EXPECT_TRUE(j["rows"][1]["migrations"].is_null());
    EXPECT_TRUE(j["rows"][1]["migrations_ratio"].is_null());

    // A mode that is not a string is a broken summary.
    write(dir / "bad" / "summary.json", R"({"scenario": "x", "mode": 3})");
    const result bad = compare("a bad");
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.err, "blsim: compare: bad/summary.json: mode is not a string\n");
}

TEST_F(compare_test, a_base_without_a_field_or_with_zero_gives_no_ratio)
{
    const result r = compare("c a");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out,
              "scenario     mode      score  page load   audio         energy      avg power  switches  migrations\n"
              "                              total (s)  misses            (J)           (mW)\n"
              "-----------  ----  ---------  ---------  ------  -------------  -------------  --------  ----------\n"
              "tc2-default  -         -          -       -       7.25 (1.00x)  120.8 (1.00x)     0 (-)          -\n"
              "bbench-a15   smp   80.00 (-)  3.200 (-)   0 (-)  12.50 (1.72x)  625.0 (5.18x)     4 (-)          -\n"
              "ratios in parentheses are relative to the first row; -: missing or no ratio; higher score is better\n");
}

TEST_F(compare_test, runs_of_the_same_scenario_are_told_apart_by_their_argument)
{
    fs::copy(dir / "a", dir / "a2");
    const result r = compare("a a2/summary.json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\nbbench-a15 (a)                smp   80.00 (1.00x)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nbbench-a15 (a2/summary.json)  smp   80.00 (1.00x)"), std::string::npos) << r.out;
}

TEST_F(compare_test, json_gives_every_value_and_ratio_or_null)
{
    const result r = compare("--json a c");
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["base"], "bbench-a15");
    ASSERT_EQ(j["rows"].size(), 2u);
    const json& a = j["rows"][0];
    EXPECT_EQ(a.size(), 18u) << a.dump();
    EXPECT_EQ(a["scenario"], "bbench-a15");
    EXPECT_EQ(a["input"], "a");
    EXPECT_EQ(a["dir"], "a");
    EXPECT_EQ(a["mode"], "smp");
    EXPECT_EQ(a["score"], 80.0);
    EXPECT_EQ(a["score_ratio"], 1.0);
    EXPECT_EQ(a["page_load_s"], 3.2);
    EXPECT_EQ(a["page_load_s_ratio"], 1.0);
    EXPECT_TRUE(a["audio_misses"].is_number_integer());
    EXPECT_EQ(a["audio_misses"], 0);
    EXPECT_TRUE(a["audio_misses_ratio"].is_null()); // a zero base
    EXPECT_EQ(a["energy_j"], 12.5);
    EXPECT_EQ(a["energy_j_ratio"], 1.0);
    EXPECT_EQ(a["avg_power_mw"], 625.0);
    EXPECT_EQ(a["avg_power_mw_ratio"], 1.0);
    EXPECT_EQ(a["switches"], 4);
    EXPECT_EQ(a["switches_ratio"], 1.0);
    EXPECT_TRUE(a["migrations"].is_null()); // no migrations section: not an HMP or EAS run
    EXPECT_TRUE(a["migrations_ratio"].is_null());

    const json& c = j["rows"][1];
    EXPECT_EQ(c["scenario"], "tc2-default");
    EXPECT_EQ(c["input"], "c");
    EXPECT_EQ(c["dir"], "c");
    for (const char* k : {"mode", "score", "score_ratio", "page_load_s", "page_load_s_ratio", "audio_misses",
                          "audio_misses_ratio", "migrations", "migrations_ratio"})
        EXPECT_TRUE(c[k].is_null()) << k;
    EXPECT_EQ(c["energy_j"], 7.25);
    EXPECT_DOUBLE_EQ(c["energy_j_ratio"].get<double>(), 7.25 / 12.5);
    EXPECT_EQ(c["avg_power_mw"], 120.75);
    EXPECT_DOUBLE_EQ(c["avg_power_mw_ratio"].get<double>(), 120.75 / 625.0);
    EXPECT_EQ(c["switches"], 0);
    EXPECT_EQ(c["switches_ratio"], 0.0);

    // The same inputs, the same bytes.
    EXPECT_EQ(compare("--json a c").out, r.out);
}

TEST_F(compare_test, fewer_than_two_arguments_is_a_usage_error)
{
    for (const std::string args : {"", "a", "--json a"}) {
        const result r = compare(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.out, "") << args;
        EXPECT_EQ(r.err, "blsim: compare: needs at least two scenarios or run directories (got " +
                             std::string(args.empty() ? "0" : "1") + ")\n(see 'blsim --help')\n")
            << args;
    }
}

TEST_F(compare_test, bad_options_are_usage_errors)
{
    result r = compare("-j 0 a b");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: -j needs a positive whole number of runs (got '0')\n(see 'blsim --help')\n");
    r = compare("--frobnicate a b");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: compare: unknown option '--frobnicate'\n(see 'blsim --help')\n");
    r = compare("a b --keep");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --keep needs a directory\n(see 'blsim --help')\n");
    r = compare("--set duration_s=1 a b");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: compare: --set changes the scenarios that compare runs, and no argument is a scenario\n");
}

TEST_F(compare_test, an_argument_neither_scenario_nor_run_directory_is_refused_with_nothing_run)
{
    fs::create_directories(dir / "empty");
    // Every bad argument is reported, and the good scenario is not run.
    const result r = compare("--keep kept " + std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/default.yaml "
                             "missing empty a");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "blsim: compare: 'missing': no such file or directory (neither a scenario nor a run directory)\n"
              "blsim: compare: 'empty' is a directory without summary.json (not a complete run)\n");
    EXPECT_FALSE(fs::exists(dir / "kept"));

    // A file that is not a scenario is refused as the configuration loader refuses it.
    write(dir / "notes.txt", "just: [some\n");
    const result t = compare("notes.txt a");
    EXPECT_EQ(t.status, 2);
    EXPECT_EQ(t.out, "");
    EXPECT_EQ(t.err.rfind("notes.txt:", 0), 0u) << t.err;
}

TEST_F(compare_test, a_summary_that_is_not_json_is_refused)
{
    write(dir / "broken" / "summary.json", "{\"scenario\": \"x\", \"energy_j\": {\"total\": 1.0,\n");
    result r = compare("a broken");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "blsim: compare: broken/summary.json: not JSON (syntax error at byte 46)\n");

    write(dir / "list" / "summary.json", "[1, 2]\n");
    r = compare("a list");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: compare: list/summary.json: not a summary (a JSON array, not an object)\n");

    write(dir / "typo" / "summary.json", R"({"scenario": "x", "switches": {"count": "4"}})");
    r = compare("a typo");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: compare: typo/summary.json: switches.count is not a number\n");

    write(dir / "flat" / "summary.json", R"({"scenario": "x", "perf": {"bbench": 3}})");
    r = compare("a flat");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: compare: flat/summary.json: perf.bbench is not an object\n");
}

TEST_F(compare_test, a_keep_place_taken_by_a_file_is_refused_before_running)
{
    write(dir / "kept" / "1-default", "a file\n");
    const result r =
        compare("--keep kept " + std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/default.yaml a");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "blsim: compare: cannot keep the results of '" + std::string(BLSIM_SOURCE_DIR) +
                         "/configs/scenarios/default.yaml' in 'kept/1-default': it exists and is not a "
                         "directory\n");
}

TEST_F(compare_test, two_real_scenarios_run_and_compare)
{
    const std::string scenarios = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/";
    const result r = compare("-j 2 --set duration_s=0.2 --keep kept " + scenarios + "default.yaml " + scenarios +
                             "switch-pingpong.yaml a");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> lines;
    std::istringstream in(r.out);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    ASSERT_EQ(lines.size(), 7u) << r.out; // two heading lines, the rule, three rows, the legend
    EXPECT_EQ(lines[3].rfind("tc2-default ", 0), 0u) << r.out;
    EXPECT_EQ(lines[4].rfind("switch-pingpong ", 0), 0u) << r.out;
    EXPECT_EQ(lines[5].rfind("bbench-a15 ", 0), 0u) << r.out;
    EXPECT_NE(lines[3].find("(1.00x)"), std::string::npos) << r.out; // energy and power at least
    EXPECT_NE(lines[4].find("x)"), std::string::npos) << r.out;

    // The results were kept, and are what the table shows.
    for (const char* k : {"kept/1-default", "kept/2-switch-pingpong"}) {
        const json s = json::parse(slurp(dir / k / "summary.json"));
        EXPECT_DOUBLE_EQ(s["sim_time_s"].get<double>(), 0.2) << k;
    }
    const result again = compare("--json kept/1-default kept/2-switch-pingpong");
    ASSERT_EQ(again.status, 0) << again.err;
    const json j = json::parse(again.out);
    EXPECT_EQ(j["base"], "tc2-default");
    EXPECT_EQ(j["rows"][1]["scenario"], "switch-pingpong");
    EXPECT_GT(j["rows"][1]["energy_j"].get<double>(), 0);
    EXPECT_DOUBLE_EQ(j["rows"][1]["energy_j_ratio"].get<double>(),
                     j["rows"][1]["energy_j"].get<double>() / j["rows"][0]["energy_j"].get<double>());
}

// --- a stand-in for blsim (compare_options::exe), in process -------------------------------

class compare_fake_run : public compare_test {
protected:
    // A script taking `run -q --out DIR [--set KV]... SCENARIO`, doing @body.
    std::string fake(const std::string& name, const std::string& body)
    {
        const fs::path p = dir / name;
        write(p, "#!/bin/sh\nout=$4\n" + body);
        fs::permissions(p, fs::perms::owner_all);
        return p.string();
    }
    int run(const std::string& exe, std::vector<std::string> inputs, unsigned jobs = 0)
    {
        blsim::soc::compare_options opt;
        opt.inputs = std::move(inputs);
        opt.exe = exe;
        opt.jobs = jobs;
        out.str("");
        err.str("");
        return blsim::soc::run_compare(opt, out, err);
    }
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/default.yaml";
    std::ostringstream out, err;
};

TEST_F(compare_fake_run, a_run_that_exits_2_shows_its_stderr_tail_and_exits_2)
{
    const std::string exe = fake("bad-input", "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo \"line $i\" >&2; done\n"
                                              "exit 2\n");
    EXPECT_EQ(run(exe, {(dir / "a").string(), scenario}), 2);
    EXPECT_EQ(out.str(), "");
    std::string tail;
    for (int i = 3; i <= 12; i++)
        tail += "  line " + std::to_string(i) + "\n";
    EXPECT_EQ(err.str(), "blsim: compare: the run of '" + scenario +
                             "' failed (exit status 2: bad input); the last lines of its stderr:\n" + tail);
}

TEST_F(compare_fake_run, a_run_that_fails_otherwise_exits_1)
{
    const std::string crash = fake("crash", "echo 'blsim: internal error: boom' >&2\nkill -9 $$\n");
    EXPECT_EQ(run(crash, {scenario, (dir / "a").string()}), 1);
    EXPECT_EQ(err.str(), "blsim: compare: the run of '" + scenario +
                             "' failed (killed by signal 9 (Killed): internal error); its stderr:\n"
                             "  blsim: internal error: boom\n");

    const std::string one = fake("one", "exit 1\n");
    EXPECT_EQ(run(one, {scenario, scenario}, 1), 1);
    EXPECT_EQ(err.str(), "blsim: compare: the run of '" + scenario + "' failed (exit status 1: internal error); it "
                         "printed nothing\nblsim: compare: the run of '" + scenario +
                             "' failed (exit status 1: internal error); it printed nothing\n");
}

TEST_F(compare_fake_run, each_scenario_runs_into_its_own_directory_and_its_warnings_are_passed_on)
{
    // Each run writes a summary naming the directory it was given, and a warning.
    const std::string exe =
        fake("ok", "echo \"blsim: warning: $5\" >&2\nmkdir -p \"$out\"\n"
                   "printf '{\"scenario\": \"%s\", \"energy_j\": {\"total\": 2.0}}' \"$(basename \"$out\")\""
                   " > \"$out/summary.json\"\n");
    EXPECT_EQ(run(exe, {scenario, (dir / "b").string(), scenario}, 1), 0) << err.str();
    EXPECT_EQ(err.str(), "blsim: compare: the run of '" + scenario + "' printed:\n  blsim: warning: " + scenario +
                             "\nblsim: compare: the run of '" + scenario + "' printed:\n  blsim: warning: " +
                             scenario + "\n");
    // Rows in argument order; a run's results in <tmp>/<k>, removed afterwards.
    const std::string t = out.str();
    const std::size_t one = t.find("\n1 "), two = t.find("\nbbench-switcher "), three = t.find("\n3 ");
    ASSERT_NE(one, std::string::npos) << t;
    ASSERT_NE(two, std::string::npos) << t;
    ASSERT_NE(three, std::string::npos) << t;
    EXPECT_LT(one, two);
    EXPECT_LT(two, three);
}

TEST(compare_args, options_anywhere_and_jobs_in_every_spelling)
{
    blsim::soc::compare_options opt;
    bool help = false;
    std::string error;
    ASSERT_TRUE(blsim::soc::parse_compare_args({"x", "-j3", "--json", "y", "--set", "a=1", "--set=b=2",
                                                "--keep=k", "--", "-z"},
                                               opt, help, error))
        << error;
    EXPECT_FALSE(help);
    EXPECT_EQ(opt.jobs, 3u);
    EXPECT_TRUE(opt.json);
    EXPECT_EQ(opt.keep_dir, "k");
    EXPECT_EQ(opt.overrides, (std::vector<std::string>{"a=1", "b=2"}));
    EXPECT_EQ(opt.inputs, (std::vector<std::string>{"x", "y", "-z"}));

    blsim::soc::compare_options o2;
    ASSERT_TRUE(blsim::soc::parse_compare_args({"--jobs=12", "x", "y"}, o2, help, error));
    EXPECT_EQ(o2.jobs, 12u);
    blsim::soc::compare_options o3;
    ASSERT_TRUE(blsim::soc::parse_compare_args({"--jobs", "2", "x", "y"}, o3, help, error));
    EXPECT_EQ(o3.jobs, 2u);
    blsim::soc::compare_options o4;
    EXPECT_FALSE(blsim::soc::parse_compare_args({"-jx", "x", "y"}, o4, help, error));
    EXPECT_EQ(error, "-j needs a positive whole number of runs (got 'x')");
    blsim::soc::compare_options o5;
    ASSERT_TRUE(blsim::soc::parse_compare_args({"x", "--help"}, o5, help, error));
    EXPECT_TRUE(help);
}

} // namespace
