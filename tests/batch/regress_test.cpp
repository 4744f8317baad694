// tests/batch/regress_test.cpp -- `blsim regress` (docs/regress.md): the shipped set passes; a
// golden changed by hand drifts and --bless restores it byte for byte; a case without a golden
// or a metric the summary lacks fails; the tolerances worked by hand; bad cases, goldens and
// options refused with located messages and nothing run; a failed run's report (through a
// stand-in for blsim).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "blsim/soc/regress.h"
#include "shell.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

using blsim_test::result;
using blsim_test::slurp;
using blsim_test::write;

const fs::path source_dir = BLSIM_SOURCE_DIR;

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    return lines;
}

bool ends_with(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The table row of @case_name's @metric in @out (empty if none).
std::string row_of(const std::string& out, const std::string& case_name, const std::string& metric)
{
    for (const std::string& l : lines_of(out))
        if (l.rfind(case_name + " ", 0) == 0 && l.find(" " + metric + " ") != std::string::npos)
            return l;
    return "";
}

class regress_test : public blsim_test::scratch_test {
protected:
    regress_test() : scratch_test("regress-test", start::made) {}
    void SetUp() override
    {
        scratch_test::SetUp();
        fs::create_directories(dir / "tmp");
    }

    // blsim @args (shell-quoted where needed), run from @cwd with its temporary files in
    // dir/tmp, which must be left empty.
    result blsim(const std::string& args, const fs::path& cwd)
    {
        result r = blsim_test::shell("cd " + blsim_test::quote(cwd.string()) +
                                     " && TMPDIR=" + blsim_test::quote((dir / "tmp").string()) + " " +
                                     std::string(BLSIM_BINARY) + " " + args);
        EXPECT_TRUE(fs::is_empty(dir / "tmp")) << "a temporary directory was left behind";
        return r;
    }
    result regress(const std::string& args) { return blsim("regress " + args, dir); }

    // The shipped configurations copied to dir/configs, so that the cases' relative paths hold.
    void copy_configs() { fs::copy(source_dir / "configs", dir / "configs", fs::copy_options::recursive); }
};

TEST_F(regress_test, the_shipped_set_passes)
{
    std::size_t cases = 0, metrics = 0;
    for (const auto& e : fs::directory_iterator(source_dir / "configs" / "regress"))
        if (e.path().extension() == ".yaml") {
            cases++;
            const fs::path golden = e.path().parent_path() / (e.path().stem().string() + ".golden.json");
            metrics += json::parse(slurp(golden)).size();
        }
    ASSERT_GE(cases, 4u);

    // From the repository root, DIR is configs/regress.
    const result r = blsim("regress -j2", source_dir);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.err, "");
    const std::vector<std::string> lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), metrics + 3) << r.out;
    EXPECT_TRUE(std::regex_match(lines[0], std::regex("case +metric +golden +value +drift +rel drift +tolerance +status")))
        << lines[0];
    for (std::size_t i = 2; i < lines.size() - 1; i++)
        EXPECT_TRUE(ends_with(lines[i], "  PASS")) << lines[i];
    EXPECT_EQ(lines.back(), "regress: " + std::to_string(cases) + " cases, " + std::to_string(metrics) +
                                " metrics: " + std::to_string(metrics) + " PASS");
}

TEST_F(regress_test, a_perturbed_golden_drifts_and_bless_restores_it)
{
    copy_configs();
    const fs::path golden = dir / "configs/regress/switch-pingpong.golden.json";
    const std::string shipped = slurp(golden);
    json g = json::parse(shipped);
    const std::size_t n = g.size();
    const long long count = g["switches.count"].get<long long>();
    g["switches.count"] = count + 1;
    write(golden, g.dump(2) + "\n");

    result r = regress("configs/regress --only switch-pingpong");
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(r.err, "");
    const std::string row = row_of(r.out, "switch-pingpong", "switches.count");
    EXPECT_TRUE(std::regex_match(row, std::regex("switch-pingpong +switches\\.count +" + std::to_string(count + 1) +
                                                 " +" + std::to_string(count) + " +-1 +-\\S+ +exact +DRIFT")))
        << row;
    EXPECT_EQ(lines_of(r.out).back(), "regress: 1 case, " + std::to_string(n) + " metrics: " + std::to_string(n - 1) +
                                          " PASS, 1 DRIFT; failed: switch-pingpong");

    r = regress("configs/regress --bless --only switch-pingpong");
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.out, "blessed configs/regress/switch-pingpong.golden.json: " + std::to_string(n) +
                         " metrics (0 new, 1 changed)\nregress: blessed 1 case, " + std::to_string(n) +
                         " metrics (0 new, 1 changed)\n");
    EXPECT_EQ(slurp(golden), shipped);
    r = regress("configs/regress --only switch-pingpong");
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(lines_of(r.out).back(), "regress: 1 case, " + std::to_string(n) + " metrics: " + std::to_string(n) + " PASS");
}

TEST_F(regress_test, blessing_the_whole_set_writes_the_shipped_goldens_byte_for_byte)
{
    copy_configs();
    for (const auto& e : fs::directory_iterator(dir / "configs" / "regress"))
        if (e.path().string().find(".golden.json") != std::string::npos)
            fs::remove(e.path());
    const result r = regress("configs/regress --bless -j2");
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.err, "");
    std::size_t blessed = 0;
    for (const auto& e : fs::directory_iterator(source_dir / "configs" / "regress"))
        if (e.path().string().find(".golden.json") != std::string::npos) {
            blessed++;
            EXPECT_EQ(slurp(dir / "configs" / "regress" / e.path().filename()), slurp(e.path())) << e.path();
        }
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), static_cast<long>(blessed) + 1) << r.out;
}

TEST_F(regress_test, a_case_without_a_golden_fails_and_says_to_bless)
{
    copy_configs();
    const std::string n = std::to_string(json::parse(slurp(dir / "configs/regress/switch-pingpong.golden.json")).size());
    fs::remove(dir / "configs/regress/switch-pingpong.golden.json");
    const result r = regress("configs/regress --only switch-pingpong");
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(r.err, "blsim: regress: switch-pingpong: no golden file configs/regress/switch-pingpong.golden.json "
                     "yet; run 'blsim regress configs/regress --bless --only switch-pingpong' to write it\n");
    const std::vector<std::string> lines = lines_of(r.out);
    ASSERT_GE(lines.size(), 4u);
    for (std::size_t i = 2; i < lines.size() - 1; i++)
        EXPECT_TRUE(ends_with(lines[i], "  NO-GOLDEN")) << lines[i];
    EXPECT_EQ(lines.back(), "regress: 1 case, " + n + " metrics: " + n + " NO-GOLDEN; failed: switch-pingpong");
}

TEST_F(regress_test, a_metric_the_summary_lacks_fails_that_metric_only)
{
    write(dir / "cases/short.yaml", "scenario: " + (source_dir / "configs/scenarios/switch-pingpong.yaml").string() +
                                        "\nset: [duration_s=0.3]\n"
                                        "metrics:\n"
                                        "  - {path: switches.count}\n"
                                        "  - {path: perf.nothing.here}\n"
                                        "  - {path: governor.policies.1.cpus.0}\n"
                                        "  - {path: governor.policies.9.cur_mhz}\n"
                                        "  - {path: scenario}\n");
    result r = regress("cases --bless");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    const std::string why = "blsim: regress: short: perf.nothing.here: perf has no 'nothing'\n"
                            "blsim: regress: short: governor.policies.9.cur_mhz: governor.policies has 2 items, no [9]\n"
                            "blsim: regress: short: scenario: the value is a string, not a number\n";
    EXPECT_EQ(r.err, why + "blsim: regress: --bless: 3 of 5 metrics have no value (above); no golden file was "
                           "written\n");
    EXPECT_FALSE(fs::exists(dir / "cases/short.golden.json"));

    write(dir / "cases/short.golden.json", R"({"switches.count": 4, "governor.policies.1.cpus.0": 1})");
    r = regress("cases");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, why);
    EXPECT_EQ(r.out, "case   metric                       golden  value  drift  rel drift  tolerance  status\n"
                     "-----  ---------------------------  ------  -----  -----  ---------  ---------  -------\n"
                     "short  switches.count                    4      4      0          0  exact      PASS\n"
                     "short  perf.nothing.here                 -      -      -          -  exact      MISSING\n"
                     "short  governor.policies.1.cpus.0        1      1      0          0  exact      PASS\n"
                     "short  governor.policies.9.cur_mhz       -      -      -          -  exact      MISSING\n"
                     "short  scenario                          -      -      -          -  exact      MISSING\n"
                     "regress: 1 case, 5 metrics: 2 PASS, 3 MISSING; failed: short\n");

    // A golden file without a value of a metric that has one: that metric asks for --bless.
    write(dir / "cases/short.golden.json", R"({"switches.count": 4})");
    r = regress("cases");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, why + "blsim: regress: short: its golden file cases/short.golden.json has no value for "
                           "governor.policies.1.cpus.0; run 'blsim regress cases --bless --only short' to write it\n");
    EXPECT_EQ(row_of(r.out, "short", "governor.policies.1.cpus.0"),
              "short  governor.policies.1.cpus.0        -      1      -          -  exact      NO-GOLDEN");
}

// --- tolerances ----------------------------------------------------------------------------

TEST(regress_tolerance, abs_and_rel_by_hand)
{
    using blsim::soc::regress_metric;
    using blsim::soc::regress_within;
    const regress_metric exact{"x", 0, 0}, abs{"x", 0.25, 0}, rel{"x", 0, 0.125}, both{"x", 0.25, 0.125};
    EXPECT_TRUE(regress_within(exact, 3.5, 3.5));
    EXPECT_FALSE(regress_within(exact, 3.5, 3.5000000000000004));
    // |value - golden| <= abs: off by exactly 0.25 passes, a bit more drifts, either side.
    EXPECT_TRUE(regress_within(abs, 10.0, 10.25));
    EXPECT_TRUE(regress_within(abs, 10.0, 9.75));
    EXPECT_FALSE(regress_within(abs, 10.0, 10.2500001));
    EXPECT_FALSE(regress_within(abs, 10.0, 9.7499999));
    // |value - golden| <= rel * |golden|: 0.125 of the golden 8 is 1.
    EXPECT_TRUE(regress_within(rel, 9.0, 8.0));
    EXPECT_TRUE(regress_within(rel, 7.0, 8.0));
    EXPECT_FALSE(regress_within(rel, 9.0000001, 8.0));
    EXPECT_TRUE(regress_within(rel, -9.0, -8.0)); // of |golden|
    EXPECT_FALSE(regress_within(rel, 0.0000001, 0.0)); // a golden 0 leaves rel nothing
    // Either one suffices: 1 is beyond abs 0.25 but within 0.125 of 8; 0.25 is within abs
    // though beyond 0.125 of 1.
    EXPECT_TRUE(regress_within(both, 9.0, 8.0));
    EXPECT_TRUE(regress_within(both, 1.25, 1.0));
    EXPECT_FALSE(regress_within(both, 1.2500001, 1.0));
}

TEST_F(regress_test, tolerances_end_to_end_off_by_exactly_passes_a_bit_more_drifts)
{
    const std::string scenario = (source_dir / "configs/scenarios/switch-pingpong.yaml").string();
    write(dir / "cases/abs.yaml", "scenario: " + scenario + "\nset: [duration_s=0.3]\n"
                                  "metrics:\n  - {path: switches.count, abs: 0.5}\n");
    write(dir / "cases/rel.yaml", "scenario: " + scenario + "\nset: [duration_s=0.3]\n"
                                  "metrics:\n  - {path: switches.count, rel: 0.5}\n");
    result r = regress("cases --bless");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const long long n = json::parse(slurp(dir / "cases/abs.golden.json"))["switches.count"].get<long long>();
    ASSERT_GT(n, 0);
    const std::string v = std::to_string(n);

    // abs 0.5: a golden 0.5 above the value passes, 0.5000001 above drifts.
    write(dir / "cases/abs.golden.json", "{\"switches.count\": " + std::to_string(n) + ".5}\n");
    // rel 0.5: a golden twice the value is off by exactly half of it, and passes.
    write(dir / "cases/rel.golden.json", "{\"switches.count\": " + std::to_string(2 * n) + "}\n");
    r = regress("cases");
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(std::regex_match(row_of(r.out, "abs", "switches.count"),
                                 std::regex("abs +switches\\.count +" + v + "\\.5 +" + v + " +-0\\.5 +-\\S+ +abs 0\\.5 +PASS")))
        << r.out;
    EXPECT_TRUE(std::regex_match(row_of(r.out, "rel", "switches.count"),
                                 std::regex("rel +switches\\.count +" + std::to_string(2 * n) + " +" + v + " +-" + v +
                                            " +-0\\.5 +rel 0\\.5 +PASS")))
        << r.out;

    write(dir / "cases/abs.golden.json", "{\"switches.count\": " + std::to_string(n) + ".5000001}\n");
    write(dir / "cases/rel.golden.json", "{\"switches.count\": " + std::to_string(2 * n) + ".0000001}\n");
    r = regress("cases");
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(ends_with(row_of(r.out, "abs", "switches.count"), "  DRIFT")) << r.out;
    EXPECT_TRUE(ends_with(row_of(r.out, "rel", "switches.count"), "  DRIFT")) << r.out;
    EXPECT_EQ(lines_of(r.out).back(), "regress: 2 cases, 2 metrics: 2 DRIFT; failed: abs, rel");
}

// --- bad input -----------------------------------------------------------------------------

TEST_F(regress_test, bad_case_files_give_located_messages_and_exit_2_with_nothing_run_or_written)
{
    const std::string scenario = (source_dir / "configs/scenarios/switch-pingpong.yaml").string();
    write(dir / "cases/a.yaml", "scenario: ../nope.yaml\n"
                                "metricz: []\n");
    write(dir / "cases/b.yaml", "scenario: " + scenario + "\n"
                                "set:\n"
                                "  - duration_s=abc\n"
                                "  - \"governor.namez=x\"\n"
                                "  - novalue\n"
                                "metrics:\n"
                                "  - {path: a..b}\n"
                                "  - {path: x.y, abs: -1}\n"
                                "  - {path: x.y}\n"
                                "  - {path: q, tol: 1}\n"
                                "  - path: r\n"
                                "    rel: abc\n");
    write(dir / "cases/c.yaml", "scenario: " + scenario + "\n"
                                "set:\n"
                                "  - duration_s=abc\n"
                                "  - \"governor.namez=x\"\n"
                                "metrics: []\n");
    write(dir / "cases/d.yaml", "scenario: [x]\nset: duration_s=1\nmetrics:\n  - switches.count\n");
    const result r = regress("cases --bless");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cases/a.yaml:1:1: document: missing required key 'metrics'\n"
                     "cases/a.yaml:1:11: scenario: cannot read '../nope.yaml' (nope.yaml): No such file or directory\n"
                     "cases/a.yaml:2:1: unknown key 'metricz' (did you mean 'metrics'?)\n"
                     "cases/b.yaml:5:5: set[2]: expected KEY=VALUE, got 'novalue'\n"
                     "cases/b.yaml:7:12: metrics[0].path: 'a..b' is not a dotted path into summary.json (an empty part)\n"
                     "cases/b.yaml:8:22: metrics[1].abs: -1 is out of range 0..1e+300\n"
                     "cases/b.yaml:9:12: metrics[2].path: 'x.y' is compared already (line 8)\n"
                     "cases/b.yaml:10:15: unknown key 'tol' in metrics[3] (did you mean 'rel'?)\n"
                     "cases/b.yaml:12:10: metrics[4].rel: expected a number, got 'abc'\n"
                     "cases/c.yaml:3:16: set[0]: duration_s: expected a number, got 'abc'\n"
                     "cases/c.yaml:4:15: set[1]: unknown key 'namez' in governor (did you mean 'name'?)\n"
                     "cases/c.yaml:5:10: metrics: expected 1..1000 items, got 0\n"
                     "cases/d.yaml:1:11: scenario: expected a string, got a list\n"
                     "cases/d.yaml:2:6: set: expected a list of KEY=VALUE, got 'duration_s=1'\n"
                     "cases/d.yaml:4:5: metrics[0]: expected a mapping, got 'switches.count'\n");
    for (const auto& e : fs::directory_iterator(dir / "cases"))
        EXPECT_EQ(e.path().extension(), ".yaml") << e.path();
}

TEST_F(regress_test, a_malformed_golden_is_bad_input)
{
    const std::string scenario = (source_dir / "configs/scenarios/switch-pingpong.yaml").string();
    const std::string c = "scenario: " + scenario + "\nmetrics:\n  - {path: switches.count}\n";
    write(dir / "cases/a.yaml", c);
    write(dir / "cases/a.golden.json", "{\n  \"switches.count\": 12,\n");
    write(dir / "cases/b.yaml", c);
    write(dir / "cases/b.golden.json", "[1, 2]\n");
    write(dir / "cases/c.yaml", c);
    write(dir / "cases/c.golden.json", "{\n  \"energy_j.total\": null,\n  \"switches.count\": \"12\"\n}\n");
    // A number no double holds: a user's error at it, not an internal one.
    write(dir / "cases/d.yaml", c);
    write(dir / "cases/d.golden.json", "{\"a-1e999\": 1,\n \"switches.count\": -1e999}\n");
    const result r = regress("cases");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cases/a.golden.json:3:1: not a golden file: JSON syntax error (run 'blsim regress --bless' "
                     "to rewrite it)\n"
                     "cases/b.golden.json:1:1: not a golden file: a JSON array, not an object of metric: value\n"
                     "cases/c.golden.json:2:3: 'energy_j.total': expected a number, got null\n"
                     "cases/c.golden.json:3:3: 'switches.count': expected a number, got a string\n"
                     "cases/d.golden.json:2:20: not a golden file: a number beyond the range of a double (run "
                     "'blsim regress --bless' to rewrite it)\n");
    // --bless replaces them.
    const result b = regress("cases --bless");
    EXPECT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(slurp(dir / "cases/a.golden.json"), slurp(dir / "cases/c.golden.json"));
}

TEST_F(regress_test, bad_options_and_directories_are_refused)
{
    fs::create_directories(dir / "empty");
    write(dir / "cases/x.yaml", "scenario: nope.yaml\nmetrics: [{path: a}]\n");
    result r = regress("");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: regress: 'configs/regress' is not a directory (run from the repository root, or name "
                     "the directory of cases)\n");
    r = regress("missing");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: regress: 'missing' is not a directory\n");
    r = regress("empty");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: regress: no cases in 'empty' (files named *.yaml)\n");
    r = regress("cases --only y --only x --only z");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: regress: --only 'y': no such case in 'cases' (cases: x)\n"
                     "blsim: regress: --only 'z': no such case in 'cases' (cases: x)\n");
    r = regress("cases -j0");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: -j needs a positive whole number of runs (got '0')\n(see 'blsim --help')\n");
    r = regress("cases --frobnicate");
    EXPECT_EQ(r.err, "blsim: regress: unknown option '--frobnicate'\n(see 'blsim --help')\n");
    r = regress("cases other");
    EXPECT_EQ(r.err, "blsim: regress: only one DIR may be given (also got 'other')\n(see 'blsim --help')\n");
    r = regress("cases --only");
    EXPECT_EQ(r.err, "blsim: --only needs a case name\n(see 'blsim --help')\n");
    r = regress("--help");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("usage: blsim regress [DIR] [-j N] [--bless] [--only NAME]...\n", 0), 0u) << r.out;

    blsim::soc::regress_options opt;
    bool help = false;
    std::string error;
    ASSERT_TRUE(blsim::soc::parse_regress_args({"--jobs=3", "--only=a", "d", "--bless", "--only", "b"}, opt, help,
                                               error));
    EXPECT_FALSE(help);
    EXPECT_EQ(opt.jobs, 3u);
    EXPECT_EQ(opt.dir, "d");
    EXPECT_TRUE(opt.dir_given);
    EXPECT_TRUE(opt.bless);
    EXPECT_EQ(opt.only, (std::vector<std::string>{"a", "b"}));
}

// --- a stand-in for blsim (regress_options::exe), in process -------------------------------

TEST_F(regress_test, a_failed_run_shows_its_stderr_tail_and_fails_its_metrics)
{
    const std::string scenario = (source_dir / "configs/scenarios/switch-pingpong.yaml").string();
    write(dir / "cases/x.yaml", "scenario: " + scenario + "\nmetrics: [{path: switches.count}, {path: energy_j.total}]\n");
    write(dir / "cases/x.golden.json", "{\"energy_j.total\": 1.5, \"switches.count\": 4}\n");
    const fs::path exe = dir / "fake";
    write(exe, "#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo \"line $i\" >&2; done\nexit 1\n");
    fs::permissions(exe, fs::perms::owner_all);

    blsim::soc::regress_options opt;
    opt.dir = (dir / "cases").string();
    opt.dir_given = true;
    opt.exe = exe.string();
    std::ostringstream out, err;
    EXPECT_EQ(blsim::soc::run_regress(opt, out, err), 1);
    std::string tail;
    for (int i = 3; i <= 12; i++)
        tail += "  line " + std::to_string(i) + "\n";
    EXPECT_EQ(err.str(), "blsim: regress: x: the run failed (exit status 1); the last lines of its stderr:\n" + tail);
    EXPECT_EQ(out.str(), "case  metric          golden  value  drift  rel drift  tolerance  status\n"
                         "----  --------------  ------  -----  -----  ---------  ---------  ----------\n"
                         "x     switches.count       4      -      -          -  exact      RUN-FAILED\n"
                         "x     energy_j.total     1.5      -      -          -  exact      RUN-FAILED\n"
                         "regress: 1 case, 2 metrics: 2 RUN-FAILED; failed: x\n");
}

} // namespace
