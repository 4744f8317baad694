// tests/batch/sweep_test.cpp -- `blsim sweep` (docs/sweeps.md): the spec's expansion into points
// (lists, ranges, zip, one_at_a_time, seeded random samples) and their stable ids, in process;
// end to end with the binary: bad specs refused with located messages and nothing written, the
// shipped smoke spec, shards that partition the points and merge into the single run's bytes,
// a failing point isolated, and a sweep killed with SIGKILL resumed without recomputing; the
// Pareto analysis; scripts/tornado's tables, on numbers worked by hand and on a tiny sweep.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "blsim/soc/sweep.h"
#include "../../soc/batch/src/sweep_detail.h"
#include "shell.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using blsim::soc::sweep_point;
using blsim::soc::sweep_spec;
using blsim::soc::sweep_value;
using blsim_test::quote;
using blsim_test::result;
using blsim_test::slurp;
using blsim_test::write;

const std::string source_dir = BLSIM_SOURCE_DIR;
const std::string steps = source_dir + "/configs/scenarios/governor-steps.yaml";
const std::string smoke = source_dir + "/configs/sweeps/smoke.yaml";

class sweep_test : public blsim_test::scratch_test {
protected:
    sweep_test() : scratch_test("sweep-test", start::made) {}

    // blsim with @args (shell-quoted where needed), from the test's directory.
    result blsim(const std::string& args, const std::string& env = "")
    {
        return blsim_test::shell("cd " + quote(dir.string()) + " && " + env + " " + BLSIM_BINARY + " " + args);
    }

    // `blsim sweep @spec --out out`, which must refuse the spec: exit status 2, nothing on
    // stdout, nothing written. Its stderr, the messages.
    std::string refused(const std::string& spec)
    {
        const result r = blsim("sweep " + spec + " --out out");
        EXPECT_EQ(r.status, 2) << spec;
        EXPECT_EQ(r.out, "") << spec;
        EXPECT_FALSE(fs::exists(dir / "out")) << spec;
        return r.err;
    }

    // The spec @text (a file spec.yaml in the test's directory), loaded and expanded.
    sweep_spec load(const std::string& text)
    {
        write(dir / "spec.yaml", text);
        blsim::cfg::diagnostics diag;
        sweep_spec spec;
        const bool ok = blsim::soc::load_sweep_spec((dir / "spec.yaml").string(), spec, diag);
        EXPECT_TRUE(ok) << ::testing::PrintToString(diag.messages());
        return spec;
    }
};

// The points as "key=value key=value" lines, in order.
std::vector<std::string> rows(const sweep_spec& spec)
{
    std::vector<std::string> out;
    for (const sweep_point& p : spec.points) {
        std::string line;
        for (const auto& [key, v] : p.parameters)
            line += (line.empty() ? "" : " ") + key + "=" + v.canonical();
        out.push_back(line);
    }
    return out;
}

// FNV-1a 64, written again here: the id is defined by docs/sweeps.md, not by the code.
std::string fnv_id(const std::string& text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, "%012llx", static_cast<unsigned long long>(h & 0xffffffffffffull));
    return buf;
}

// The point directories of the sweep in @root.
std::set<std::string> point_dirs(const fs::path& root)
{
    std::set<std::string> out;
    if (fs::exists(root / "points"))
        for (const auto& e : fs::directory_iterator(root / "points"))
            out.insert(e.path().filename().string());
    return out;
}

TEST_F(sweep_test, lists_ranges_and_zip_expand_to_the_cartesian_product_last_fastest)
{
    const sweep_spec spec = load("base: " + steps + R"(
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 99]}
  - zip:
      - {key: duration_s, range: {from: 0.1, to: 0.3, step: 0.1}}
      - {key: governor.interactive.target_loads, values: ["80", "85 1000:90", "90"]}
  - {key: sched.latency_us, range: {from: 4000, to: 9000, step: 2500}}
  - {key: cpuidle.enabled, values: [false]}
seeds: [3, 1]
metrics: [energy_j.total, switches.count]
)");
    std::vector<std::string> expected;
    for (const char* hs : {"85", "99"})
        for (const char* z : {"duration_s=0.1 governor.interactive.target_loads=80",
                              "duration_s=0.2 governor.interactive.target_loads=85 1000:90",
                              "duration_s=0.3 governor.interactive.target_loads=90"})
            for (const char* lat : {"4000", "6500", "9000"})
                expected.push_back(std::string("governor.interactive.go_hispeed_load_pct=") + hs + " " + z +
                                   " sched.latency_us=" + lat + " cpuidle.enabled=false");
    EXPECT_EQ(rows(spec), expected);
    EXPECT_EQ(spec.keys, (std::vector<std::string>{"governor.interactive.go_hispeed_load_pct", "duration_s",
                                                   "governor.interactive.target_loads", "sched.latency_us",
                                                   "cpuidle.enabled"}));
    EXPECT_EQ(spec.seeds, (std::vector<long long>{3, 1}));
    EXPECT_EQ(spec.metrics, (std::vector<std::string>{"energy_j.total", "switches.count"}));
    EXPECT_EQ(spec.base_path, steps);
    // Types as written: integers stay integers (the integer range too), reals are reals,
    // quoted text is a string, true/false a boolean.
    const auto& p = spec.points[0].parameters;
    EXPECT_EQ(p[0].second.t, sweep_value::type::integer);
    EXPECT_EQ(p[1].second.t, sweep_value::type::real);
    EXPECT_EQ(p[2].second.t, sweep_value::type::string);
    EXPECT_EQ(p[3].second.t, sweep_value::type::integer);
    EXPECT_EQ(p[4].second.t, sweep_value::type::boolean);
    // The id: FNV-1a of the sorted "key=value\n" lines, low 48 bits.
    EXPECT_EQ(spec.points[0].id, fnv_id("cpuidle.enabled=false\nduration_s=0.1\n"
                                        "governor.interactive.go_hispeed_load_pct=85\n"
                                        "governor.interactive.target_loads=80\nsched.latency_us=4000\n"));
}

TEST_F(sweep_test, random_samples_are_seeded_and_exact)
{
    const sweep_spec spec = load("base: " + steps + R"(
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, random: {min: 80, max: 99, count: 3, seed: 7, integer: true}}
  - {key: duration_s, random: {min: 0.5, max: 1.5, count: 2, seed: 42}}
metrics: [energy_j.total]
)");
    EXPECT_EQ(rows(spec), (std::vector<std::string>{
                              "governor.interactive.go_hispeed_load_pct=95 duration_s=1.255155532954539",
                              "governor.interactive.go_hispeed_load_pct=95 duration_s=1.1390313938546974",
                              "governor.interactive.go_hispeed_load_pct=90 duration_s=1.255155532954539",
                              "governor.interactive.go_hispeed_load_pct=90 duration_s=1.1390313938546974",
                              "governor.interactive.go_hispeed_load_pct=98 duration_s=1.255155532954539",
                              "governor.interactive.go_hispeed_load_pct=98 duration_s=1.1390313938546974",
                          }));
    EXPECT_EQ(spec.seeds, (std::vector<long long>{1})); // the default
    // Another seed, other samples; the same seed, the same ones.
    const sweep_spec again = load("base: " + steps + R"(
parameters:
  - {key: duration_s, random: {min: 0.5, max: 1.5, count: 2, seed: 42}}
metrics: [energy_j.total]
)");
    EXPECT_EQ(rows(again), (std::vector<std::string>{"duration_s=1.255155532954539", "duration_s=1.1390313938546974"}));
}

TEST_F(sweep_test, ids_depend_on_the_point_alone)
{
    const sweep_spec before = load("base: " + steps + R"(
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 99]}
  - {key: duration_s, values: [0.5, 1]}
metrics: [energy_j.total]
)");
    // A value added to each list, and the items in another order: the old points keep their ids.
    const sweep_spec after = load("base: " + steps + R"(
parameters:
  - {key: duration_s, values: [0.25, 0.5, 1]}
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 90, 99]}
seeds: [1, 2]
metrics: [switches.count]
)");
    ASSERT_EQ(before.points.size(), 4u);
    ASSERT_EQ(after.points.size(), 9u);
    std::set<std::string> after_ids;
    for (const sweep_point& p : after.points)
        after_ids.insert(p.id);
    EXPECT_EQ(after_ids.size(), 9u);
    for (const sweep_point& p : before.points)
        EXPECT_TRUE(after_ids.count(p.id)) << p.id;
    EXPECT_EQ(before.points[0].id, fnv_id("duration_s=0.5\ngovernor.interactive.go_hispeed_load_pct=85\n"));
    EXPECT_EQ(before.points[1].id, fnv_id("duration_s=1\ngovernor.interactive.go_hispeed_load_pct=85\n"));
    // No parameters: one point.
    const sweep_spec none = load("base: " + steps + "\nmetrics: [energy_j.total]\n");
    ASSERT_EQ(none.points.size(), 1u);
    EXPECT_EQ(none.points[0].id, fnv_id(""));
}

// A two-system zip times a one_at_a_time item of three members (2 + 2 + 1 values): per
// system the base (no member set), then each member's values alone, in spec order: 2 x 6.
TEST_F(sweep_test, one_at_a_time_varies_each_member_alone_around_the_base)
{
    const sweep_spec spec = load("base: " + steps + R"(
parameters:
  - {key: duration_s, values: [0.5]}
  - zip:
      - {key: mode, values: [iks, smp]}
      - {key: governor.interactive.hispeed_freq_mhz, values: [600, 1200]}
  - one_at_a_time:
      - {key: governor.interactive.go_hispeed_load_pct, values: [85, 99]}
      - {key: sched.latency_us, range: {from: 4000, to: 9000, step: 5000}}
      - {key: governor.interactive.timer_rate_us, random: {min: 10000, max: 40000, count: 1, seed: 7, integer: true}}
metrics: [energy_j.total]
)");
    // The random member's one sample, as random_samples_are_seeded_and_exact draws them.
    ASSERT_EQ(spec.points.size(), 12u);
    const std::string timer = spec.points[5].parameters.back().second.canonical();
    std::vector<std::string> expected;
    for (const char* sys : {"mode=iks governor.interactive.hispeed_freq_mhz=600",
                            "mode=smp governor.interactive.hispeed_freq_mhz=1200"})
        for (const std::string& oat :
             std::vector<std::string>{"", " governor.interactive.go_hispeed_load_pct=85",
                                      " governor.interactive.go_hispeed_load_pct=99", " sched.latency_us=4000",
                                      " sched.latency_us=9000", " governor.interactive.timer_rate_us=" + timer})
            expected.push_back(std::string("duration_s=0.5 ") + sys + oat);
    EXPECT_EQ(rows(spec), expected);
    // Every key is a parameter (a column of the results), the members in their order.
    EXPECT_EQ(spec.keys, (std::vector<std::string>{"duration_s", "mode", "governor.interactive.hispeed_freq_mhz",
                                                   "governor.interactive.go_hispeed_load_pct", "sched.latency_us",
                                                   "governor.interactive.timer_rate_us"}));
    // Ids of the point's own lines: the base point has none for the members.
    EXPECT_EQ(spec.points[0].id,
              fnv_id("duration_s=0.5\ngovernor.interactive.hispeed_freq_mhz=600\nmode=iks\n"));
    EXPECT_EQ(spec.points[7].id, fnv_id("duration_s=0.5\ngovernor.interactive.go_hispeed_load_pct=85\n"
                                        "governor.interactive.hispeed_freq_mhz=1200\nmode=smp\n"));
    EXPECT_EQ(spec.points[11].id, fnv_id("duration_s=0.5\ngovernor.interactive.hispeed_freq_mhz=1200\n"
                                         "governor.interactive.timer_rate_us=" + timer + "\nmode=smp\n"));

    // Alone, the item gives 1 + 2 + 2 points; a member added keeps every other point's id
    // (the base point's too), as a value added to a list does.
    const sweep_spec before = load("base: " + steps + R"(
parameters:
  - one_at_a_time:
      - {key: governor.interactive.go_hispeed_load_pct, values: [85, 99]}
      - {key: sched.latency_us, values: [4000, 9000]}
metrics: [energy_j.total]
)");
    EXPECT_EQ(rows(before), (std::vector<std::string>{"", "governor.interactive.go_hispeed_load_pct=85",
                                                      "governor.interactive.go_hispeed_load_pct=99",
                                                      "sched.latency_us=4000", "sched.latency_us=9000"}));
    EXPECT_EQ(before.points[0].id, fnv_id(""));
    const sweep_spec after = load("base: " + steps + R"(
parameters:
  - one_at_a_time:
      - {key: cpuidle.enabled, values: [false]}
      - {key: governor.interactive.go_hispeed_load_pct, values: [85, 99]}
      - {key: sched.latency_us, values: [4000, 6500, 9000]}
metrics: [energy_j.total]
)");
    ASSERT_EQ(after.points.size(), 7u);
    std::set<std::string> after_ids;
    for (const sweep_point& p : after.points)
        after_ids.insert(p.id);
    for (const sweep_point& p : before.points)
        EXPECT_TRUE(after_ids.count(p.id)) << p.id;
}

// Each form of error in a one_at_a_time item, located as the rest of the grammar's.
TEST_F(sweep_test, a_bad_one_at_a_time_item_is_refused_with_its_problems_located)
{
    write(dir / "bad.yaml", "base: " + steps + R"(
parameters:
  - {one_at_a_time: []}
  - {one_at_a_time: {key: duration_s, values: [1]}}
  - one_at_a_time:
      - {key: sched.latency_us, values: []}
      - {key: cpuidle.enabled}
      - {key: sched.latency_us, values: [1000]}
      - {key: governor.name, values: [interactive, ""]}
  - {key: duration_s, values: [1]}
  - {one_at_a_time: [{key: duration_s, values: [2]}], zip: [{key: seed, values: [1]}]}
  - {one_at_a_time: [{key: hmp.up_threshold, values: [1]}], values: [2]}
metrics: [energy_j.total]
)");
    EXPECT_EQ(refused("bad.yaml"),
              "bad.yaml:3:21: parameters[0].one_at_a_time: expected a list of {key, values | range | random}, got "
              "an empty list\n"
              "bad.yaml:4:21: parameters[1].one_at_a_time: expected a list of {key, values | range | random}, got "
              "a mapping\n"
              "bad.yaml:6:41: parameters[2].one_at_a_time[0].values: the list is empty (a parameter needs at least "
              "one value)\n"
              "bad.yaml:7:9: parameters[2].one_at_a_time[1]: needs one of 'values', 'range' or 'random'\n"
              "bad.yaml:8:15: parameters[2].one_at_a_time[2].key: 'sched.latency_us' is already swept by "
              "parameters[2].one_at_a_time[0]\n"
              "bad.yaml:9:52: parameters[2].one_at_a_time[3]: the empty string cannot be a one_at_a_time value "
              "(results.csv shows a member left at the base as an empty cell)\n"
              "bad.yaml:11:5: parameters[4]: 'zip' and 'one_at_a_time' exclude each other (give one per item)\n"
              "bad.yaml:12:61: unknown key 'values' in parameters[5] (did you mean 'one_at_a_time'?)\n");

    // A value the base refuses, located at the member's value as any parameter's.
    write(dir / "value.yaml", "base: " + steps + R"(
parameters:
  - one_at_a_time:
      - {key: duration_s, values: [1]}
      - {key: governor.interactive.go_hispeed_load_pct, values: [85, 1001]}
metrics: [energy_j.total]
)");
    EXPECT_EQ(refused("value.yaml"),
              "value.yaml:5:70: parameters[0].one_at_a_time[1] (governor.interactive.go_hispeed_load_pct=1001): "
              "governor.interactive.go_hispeed_load_pct: 1001 is out of range 1..1000\n");
}

TEST_F(sweep_test, a_bad_spec_is_refused_with_every_problem_located_and_nothing_written)
{
    write(dir / "bad.yaml", "base: " + steps + R"(
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 90, 85]}
  - {key: duration_s, range: {from: 1, to: 0, step: 1}}
  - {zip: [{key: sched.latency_us, values: [1, 2]}, {key: sched.min_granularity_us, values: [1]}]}
  - {key: seed, values: [1]}
  - {key: cpuidle.enabled, valuez: [true]}
  - {key: duration_s, random: {min: 1, max: 2, count: 0}}
  - {key: hmp.up_threshold, range: {from: 1, to: 2, step: abc}}
seeds: [1, 1, -3]
metricz: [a]
)");
    EXPECT_EQ(refused("bad.yaml"),
              "bad.yaml:1:1: document: missing required key 'metrics'\n"
              "bad.yaml:3:70: parameters[0].values[2]: 85 is already in the list (parameters[0].values[0])\n"
              "bad.yaml:4:44: parameters[1].range.to: 0 is less than from (1)\n"
              "bad.yaml:5:53: parameters[2].zip[1]: 1 values, parameters[2].zip[0] has 2 (zip advances its lists "
              "together: they need equal lengths)\n"
              "bad.yaml:6:11: parameters[3].key: the seed is swept by 'seeds', not as a parameter\n"
              "bad.yaml:7:5: parameters[4]: needs one of 'values', 'range' or 'random'\n"
              "bad.yaml:7:28: unknown key 'valuez' in parameters[4] (did you mean 'values'?)\n"
              "bad.yaml:8:11: parameters[5].key: 'duration_s' is already swept by parameters[1]\n"
              "bad.yaml:8:55: parameters[5].random.count: expected a whole number 1..10000, got '0'\n"
              "bad.yaml:9:59: parameters[6].range.step: expected a number, got 'abc'\n"
              "bad.yaml:10:12: seeds[1]: seed 1 is already in the list\n"
              "bad.yaml:10:15: seeds[2]: expected a seed (a whole number 0..2147483647), got '-3'\n"
              "bad.yaml:11:1: unknown key 'metricz' (did you mean 'metrics'?)\n");
}

TEST_F(sweep_test, a_metric_summary_json_cannot_have_is_refused_located_with_the_closest_path)
{
    // Names stand anywhere a name goes (a cluster, a CPU, a task); anything else is refused
    // before a run, with a suggestion only when a slip of a few letters away.
    write(dir / "metrics.yaml", "base: " + steps + R"(
parameters: [{key: duration_s, values: [1]}]
metrics:
  - energy_j.totl
  - energy_j.clusters.a15
  - residency_s.clusters.a7.opp_mhz.500
  - tasks.anything.wakeup_latency_us.p99
  - swiches.blackout_us.p50
  - energy_j
  - frobnication.index
  - perf.bbench.scroe
)");
    EXPECT_EQ(refused("metrics.yaml"),
              "metrics.yaml:4:5: metrics[0]: 'energy_j.totl' is not a number of summary.json (docs/results.md); "
              "did you mean 'energy_j.total'?\n"
              "metrics.yaml:8:5: metrics[4]: 'swiches.blackout_us.p50' is not a number of summary.json "
              "(docs/results.md); did you mean 'switches.blackout_us.p50'?\n"
              "metrics.yaml:9:5: metrics[5]: 'energy_j' is not a number of summary.json (docs/results.md)\n"
              "metrics.yaml:10:5: metrics[6]: 'frobnication.index' is not a number of summary.json "
              "(docs/results.md)\n"
              "metrics.yaml:11:5: metrics[7]: 'perf.bbench.scroe' is not a number of summary.json "
              "(docs/results.md); did you mean 'perf.bbench.score'?\n");
}

// Every number a run's summary.json holds is a metric a sweep accepts: the schema the sweep
// checks against is the one runs write.
TEST_F(sweep_test, every_number_of_real_summaries_is_an_accepted_metric)
{
    std::vector<std::string> paths;
    std::function<void(const json&, const std::string&)> walk = [&](const json& j, const std::string& p) {
        if (j.is_object())
            for (auto it = j.begin(); it != j.end(); ++it)
                walk(it.value(), p.empty() ? it.key() : p + "." + it.key());
        else if (j.is_number())
            paths.push_back(p);
    };
    for (const char* scenario : {"mode-tour.yaml", "rtapp-pipeline.yaml", "bbench-iks-tuned.yaml"}) {
        const result r = blsim("run " + source_dir + "/configs/scenarios/" + scenario +
                               " --set duration_s=0.3 --set jitter.enabled=true --out " + scenario);
        ASSERT_EQ(r.status, 0) << scenario << r.err;
        const std::string text = slurp(dir / scenario / "summary.json");
        const std::size_t before = paths.size();
        walk(json::parse(text), "");
        const auto doc = nlohmann::ordered_json::parse(text);
        // The sweep reads its metrics streaming: the same numbers as from the parsed document.
        const std::vector<std::string> mine(paths.begin() + static_cast<std::ptrdiff_t>(before), paths.end());
        std::vector<std::optional<double>> got;
        ASSERT_TRUE(blsim::soc::sweep_detail::metrics_of_text(text, mine, got));
        for (std::size_t i = 0; i < mine.size(); i++) {
            double v = 0;
            ASSERT_TRUE(blsim::soc::sweep_detail::metric_of(doc, mine[i], v)) << mine[i];
            ASSERT_TRUE(got[i]) << mine[i];
            EXPECT_EQ(*got[i], v) << mine[i];
        }
    }
    ASSERT_GT(paths.size(), 100u);
    for (const std::string& p : paths) {
        std::string close;
        EXPECT_TRUE(blsim::soc::sweep_detail::summary_metric_known(p, close)) << p;
    }
}

TEST(sweep_metrics, the_streaming_reader_finds_what_metric_of_finds_in_the_parsed_document)
{
    using blsim::soc::sweep_detail::metric_of;
    using blsim::soc::sweep_detail::metrics_of_text;
    // A later repeat of a key replaces the earlier value; nothing is read through an array; a
    // path to an object, a string, a boolean or null is no number; nested keys that share a
    // name with an outer one do not match the outer path.
    const std::string text = R"({"a": {"b": 1, "c": {"d": 2.5}, "b": 3},
        "list": [{"x": 1}, 2], "x": -7, "s": "4", "t": true, "n": null,
        "e": {"e": {"e": 9}}, "late": {"v": 1}, "late": 6, "u": 18446744073709551615})";
    const std::vector<std::string> paths = {"a.b", "a.c.d", "a.c", "list", "list.x", "x", "s", "t", "n",
                                            "e.e.e", "e.e", "e", "late", "late.v", "u", "missing", "a.b.c"};
    std::vector<std::optional<double>> got;
    ASSERT_TRUE(metrics_of_text(text, paths, got));
    ASSERT_EQ(got.size(), paths.size());
    const auto doc = nlohmann::ordered_json::parse(text);
    for (std::size_t i = 0; i < paths.size(); i++) {
        double v = 0;
        const bool found = metric_of(doc, paths[i], v);
        EXPECT_EQ(got[i].has_value(), found) << paths[i];
        if (found && got[i]) {
            EXPECT_EQ(*got[i], v) << paths[i];
        }
    }
    EXPECT_EQ(got[0], 3.0);
    EXPECT_EQ(got[1], 2.5);
    EXPECT_EQ(got[5], -7.0);
    EXPECT_EQ(got[9], 9.0);
    EXPECT_EQ(got[12], 6.0);
    EXPECT_FALSE(got[2]);
    EXPECT_FALSE(got[4]);
    EXPECT_FALSE(got[6]);
    // Not JSON: refused, as the sweep's reading of a torn file must be.
    EXPECT_FALSE(metrics_of_text(R"({"a": 1,)", paths, got));
    EXPECT_FALSE(metrics_of_text("", paths, got));
}

TEST_F(sweep_test, every_points_overrides_are_validated_against_the_base_naming_the_parameter)
{
    write(dir / "bad.yaml", "base: " + steps + R"(
parameters:
  - {key: governor.interactive.go_hispeed_load_pct, values: [85, 1001]}
  - {key: governor.interactive.timer_ratez, values: [1000]}
  - {key: governor.name, values: [interactive, ondemandd]}
metrics: [energy_j.total]
)");
    EXPECT_EQ(refused("bad.yaml"),
              "bad.yaml:3:66: parameters[0] (governor.interactive.go_hispeed_load_pct=1001): "
              "governor.interactive.go_hispeed_load_pct: 1001 is out of range 1..1000\n"
              "bad.yaml:4:11: parameters[1] (governor.interactive.timer_ratez): unknown key 'timer_ratez' in "
              "governor.interactive (did you mean 'timer_rate_us'?)\n"
              "bad.yaml:5:48: parameters[2] (governor.name=ondemandd): governor.name: expected one of performance, "
              "powersave, userspace, interactive, ondemand, conservative, schedutil, got 'ondemandd'\n");

    // A base that cannot be read is located at 'base'.
    write(dir / "nobase.yaml", "base: missing.yaml\nmetrics: [energy_j.total]\n");
    EXPECT_EQ(refused("nobase.yaml"),
              "nobase.yaml:1:7: base: cannot read scenario 'missing.yaml': No such file or directory\n");
}

TEST_F(sweep_test, usage_errors_and_help)
{
    const char* const cases[][2] = {
        {"sweep", "blsim: sweep: needs a spec (blsim sweep SPEC --out DIR)\n(see 'blsim --help')\n"},
        {"sweep s.yaml", "blsim: sweep: needs --out DIR\n(see 'blsim --help')\n"},
        {"sweep s.yaml --out o --shard 4/3",
         "blsim: --shard needs K/N, whole numbers with 1 <= K <= N (got '4/3')\n(see 'blsim --help')\n"},
        {"sweep s.yaml --out o --shard 0/3",
         "blsim: --shard needs K/N, whole numbers with 1 <= K <= N (got '0/3')\n(see 'blsim --help')\n"},
        {"sweep s.yaml --out o -j 0", "blsim: -j needs a positive whole number of runs (got '0')\n(see 'blsim --help')\n"},
        {"sweep a.yaml b.yaml --out o",
         "blsim: sweep: only one SPEC may be given (also got 'b.yaml')\n(see 'blsim --help')\n"},
        {"sweep merge --out o",
         "blsim: sweep merge: needs the shards' directories (blsim sweep merge --out DIR SHARD_DIR...)\n"
         "(see 'blsim --help')\n"},
        {"sweep merge --out o --shard 1/2 a", "blsim: sweep merge: unknown option '--shard'\n(see 'blsim --help')\n"},
    };
    for (const auto& c : cases) {
        const result r = blsim(c[0]);
        EXPECT_EQ(r.status, 2) << c[0];
        EXPECT_EQ(r.err, c[1]) << c[0];
    }
    const result h = blsim("sweep --help");
    EXPECT_EQ(h.status, 0);
    EXPECT_EQ(h.out.rfind("usage: blsim sweep SPEC --out DIR [-j N] [--shard K/N]\n", 0), 0u);
    EXPECT_EQ(fs::directory_iterator(dir), fs::directory_iterator()); // nothing written
}

TEST_F(sweep_test, the_smoke_sweep_runs_writes_its_layout_and_resumes_without_rerunning)
{
    const result r = blsim("sweep " + quote(smoke) + " --out out -j2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "sweep: 4 points x 2 seeds = 8 runs: 8 done (8 now), 0 failed\n"
                     "results: out/results.csv, out/results.json\n");
    // Not a terminal: plain lines, no control characters.
    for (char c : r.err)
        EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << static_cast<int>(c);

    const json m = json::parse(slurp(dir / "out/manifest.json"));
    EXPECT_EQ(m["spec"], smoke);
    EXPECT_EQ(m["base"], "../scenarios/bbench-iks-tuned.yaml");
    ASSERT_EQ(m["points"].size(), 4u);
    EXPECT_EQ(m["points"][0]["parameters"].dump(),
              R"({"duration_s":10,"governor.interactive.go_hispeed_load_pct":85,)"
              R"("governor.interactive.min_sample_time_us":40000})");
    EXPECT_EQ(m["points"][0]["seeds"].dump(), "[1,2]");
    for (const json& p : m["points"])
        for (int seed : {1, 2}) {
            const fs::path run = dir / "out/points" / p["id"].get<std::string>() / ("seed-" + std::to_string(seed));
            ASSERT_TRUE(fs::exists(run / "summary.json")) << run;
            EXPECT_EQ(json::parse(slurp(run / "summary.json"))["seed"], seed);
        }
    const std::string csv = slurp(dir / "out/results.csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "id,duration_s,governor.interactive.go_hispeed_load_pct,governor.interactive.min_sample_time_us,"
              "energy_j.total.mean,energy_j.total.std,energy_j.total.n,perf.bbench.score.mean,perf.bbench.score.std,"
              "perf.bbench.score.n,perf.bbench.page_load_s.total.mean,perf.bbench.page_load_s.total.std,"
              "perf.bbench.page_load_s.total.n,switches.count.mean,switches.count.std,switches.count.n,"
              "switches.blackout_us.p50.mean,switches.blackout_us.p50.std,switches.blackout_us.p50.n,failed");
    // Each row: the mean and sample standard deviation of the seeds' values.
    const json results = json::parse(slurp(dir / "out/results.json"));
    ASSERT_EQ(results["points"].size(), 4u);
    for (const json& row : results["points"]) {
        const fs::path pdir = dir / "out/points" / row["id"].get<std::string>();
        const double a = json::parse(slurp(pdir / "seed-1/summary.json"))["energy_j"]["total"];
        const double b = json::parse(slurp(pdir / "seed-2/summary.json"))["energy_j"]["total"];
        const json& e = row["metrics"]["energy_j.total"];
        EXPECT_DOUBLE_EQ(e["mean"].get<double>(), (a + b) / 2);
        EXPECT_DOUBLE_EQ(e["std"].get<double>(), std::fabs(a - b) / std::sqrt(2.0));
        EXPECT_EQ(e["n"], 2);
        EXPECT_EQ(row["failed"], 0);
    }

    // Again: nothing to do, the same results.
    const std::string before_csv = slurp(dir / "out/results.csv"), before_json = slurp(dir / "out/results.json");
    const result again = blsim("sweep " + quote(smoke) + " --out out -j2");
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(again.err, "blsim: sweep: 4 of 4 points x 2 seeds: 8 runs, 8 done before, 0 to run (at most 2 at "
                         "once)\n");
    EXPECT_EQ(slurp(dir / "out/results.csv"), before_csv);
    EXPECT_EQ(slurp(dir / "out/results.json"), before_json);

    // A metric of the schema that no summary of this sweep has (no rt-app thread, no fault) is
    // absent, not an error.
    write(dir / "missing.yaml", "base: " + source_dir + "/configs/scenarios/bbench-iks-tuned.yaml\n"
                                "parameters: [{key: duration_s, values: [1]}]\n"
                                "metrics: [perf.rtapp.t-0.loops, faults.switches_given_up]\n");
    const result missing = blsim("sweep missing.yaml --out out2 -j2");
    ASSERT_EQ(missing.status, 0) << missing.err;
    const std::string mcsv = slurp(dir / "out2/results.csv");
    EXPECT_EQ(mcsv.substr(mcsv.find('\n') + 1), fnv_id("duration_s=1\n") + ",1,,,0,,,0,0\n");
}

TEST_F(sweep_test, a_points_run_is_the_run_blsim_run_makes_of_its_overrides)
{
    // The points run in forks of the sweep process (child_runs.h), not in fresh processes:
    // what each writes must be what `blsim run` writes for the same overrides.
    write(dir / "one.yaml", "base: " + source_dir + "/configs/scenarios/bbench-iks-tuned.yaml\n"
                            "parameters: [{key: duration_s, values: [0.5]},\n"
                            "             {key: governor.interactive.go_hispeed_load_pct, values: [95]}]\n"
                            "seeds: [3]\nmetrics: [energy_j.total]\n");
    const result r = blsim("sweep one.yaml --out out -j1");
    ASSERT_EQ(r.status, 0) << r.err;
    const json m = json::parse(slurp(dir / "out/manifest.json"));
    const fs::path point = dir / "out/points" / m["points"][0]["id"].get<std::string>() / "seed-3";
    const result direct = blsim("run -q " + source_dir + "/configs/scenarios/bbench-iks-tuned.yaml --out direct"
                                " --set duration_s=0.5 --set governor.interactive.go_hispeed_load_pct=95 --set seed=3");
    ASSERT_EQ(direct.status, 0) << direct.err;
    json a = json::parse(slurp(point / "summary.json")), b = json::parse(slurp(dir / "direct/summary.json"));
    a.erase("host");
    b.erase("host");
    EXPECT_EQ(a.dump(1), b.dump(1));
    EXPECT_EQ(slurp(point / "switches.csv"), slurp(dir / "direct/switches.csv"));
    EXPECT_EQ(slurp(point / "effective-config.yaml"), slurp(dir / "direct/effective-config.yaml"));
}

TEST_F(sweep_test, shards_partition_the_points_and_merge_to_the_single_runs_bytes)
{
    ASSERT_EQ(blsim("sweep " + quote(smoke) + " --out single -j2").status, 0);
    const json m = json::parse(slurp(dir / "single/manifest.json"));
    std::vector<std::string> ids;
    for (const json& p : m["points"])
        ids.push_back(p["id"]);
    ASSERT_EQ(ids.size(), 4u);

    std::set<std::string> seen;
    for (int k = 1; k <= 3; k++) {
        const std::string shard = "shard" + std::to_string(k);
        const result r = blsim("sweep " + quote(smoke) + " --out " + shard + " -j2 --shard " + std::to_string(k) + "/3");
        ASSERT_EQ(r.status, 0) << r.err;
        std::set<std::string> expected;
        for (std::size_t i = 0; i < ids.size(); i++)
            if (static_cast<int>(i % 3) == k - 1)
                expected.insert(ids[i]);
        EXPECT_EQ(point_dirs(dir / shard), expected) << shard;
        for (const std::string& id : expected)
            EXPECT_TRUE(seen.insert(id).second) << id;
        // Every shard writes the whole manifest, and results for its own points.
        EXPECT_EQ(slurp(dir / shard / "manifest.json"), slurp(dir / "single/manifest.json"));
        EXPECT_EQ(json::parse(slurp(dir / shard / "results.json"))["points"].size(), expected.size());
    }
    EXPECT_EQ(seen.size(), ids.size());

    const result merged = blsim("sweep merge --out merged shard1 shard2 shard3");
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_EQ(merged.out, "sweep merge: 3 shards, 4 points x 2 seeds: 0 failed\n"
                          "results: merged/results.csv, merged/results.json\n");
    EXPECT_EQ(slurp(dir / "merged/results.csv"), slurp(dir / "single/results.csv"));
    EXPECT_EQ(slurp(dir / "merged/results.json"), slurp(dir / "single/results.json"));
    EXPECT_EQ(slurp(dir / "merged/manifest.json"), slurp(dir / "single/manifest.json"));
    EXPECT_EQ(point_dirs(dir / "merged"), std::set<std::string>(ids.begin(), ids.end()));

    // A shard missing: refused, nothing written.
    const result partial = blsim("sweep merge --out partial shard1 shard3");
    EXPECT_EQ(partial.status, 2);
    EXPECT_EQ(partial.err, "blsim: sweep merge: point " + ids[1] + " seed 1: in none of the shards (neither finished "
                           "nor failed)\nblsim: sweep merge: point " + ids[1] + " seed 2: in none of the shards "
                           "(neither finished nor failed)\nblsim: sweep merge: 2 runs missing; is a shard missing or "
                           "unfinished?\n");
    EXPECT_FALSE(fs::exists(dir / "partial"));

    // A shard of another sweep (other points): refused.
    write(dir / "other.yaml", "base: " + source_dir + "/configs/scenarios/bbench-iks-tuned.yaml\n"
                              "parameters: [{key: duration_s, values: [1]}]\nmetrics: [energy_j.total]\n");
    ASSERT_EQ(blsim("sweep other.yaml --out other -j2").status, 0);
    const result mixed = blsim("sweep merge --out mixed shard1 other");
    EXPECT_EQ(mixed.status, 2);
    EXPECT_EQ(mixed.err, "blsim: sweep merge: other is a shard of another sweep than shard1 (their manifest.json "
                         "differ in the points' ids)\n");
    EXPECT_FALSE(fs::exists(dir / "mixed"));
}

TEST_F(sweep_test, a_failing_point_is_recorded_and_the_others_complete)
{
    ASSERT_EQ(blsim("sweep " + quote(smoke) + " --out clean -j2").status, 0);
    const json m = json::parse(slurp(dir / "clean/manifest.json"));
    const std::string bad = m["points"][1]["id"];

    const result r = blsim("sweep " + quote(smoke) + " --out out -j2", "BLSIM_SWEEP_FAIL_POINT=" + bad);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "sweep: 4 points x 2 seeds = 8 runs: 6 done (6 now), 2 failed\n"
                     "results: out/results.csv, out/results.json\n");
    EXPECT_NE(r.err.find("blsim: sweep: point " + bad + " seed 1 failed; see out/points/" + bad + "/seed-1.failed\n"),
              std::string::npos)
        << r.err;
    for (const json& p : m["points"])
        for (int seed : {1, 2}) {
            const fs::path pdir = dir / "out/points" / p["id"].get<std::string>();
            const std::string sd = "seed-" + std::to_string(seed);
            EXPECT_EQ(fs::exists(pdir / sd / "summary.json"), p["id"] != bad);
            EXPECT_EQ(fs::exists(pdir / (sd + ".failed")), p["id"] == bad);
        }
    const json rec = json::parse(slurp(dir / "out/points" / bad / "seed-2.failed"));
    EXPECT_EQ(rec["point"], bad);
    EXPECT_EQ(rec["seed"], 2);
    EXPECT_EQ(rec["exit_status"], 2);
    EXPECT_EQ(rec["signal"], nullptr);
    EXPECT_EQ(rec["stderr_tail"].dump(),
              R"x(["blsim: run: unknown option '--blsim-sweep-test-failure'","(see 'blsim --help')"])x");
    const json res = json::parse(slurp(dir / "out/results.json"));
    EXPECT_EQ(res["points"][1]["failed"], 2);
    EXPECT_EQ(res["points"][1]["metrics"]["energy_j.total"], json::parse(R"({"mean":null,"std":null,"n":0})"));
    EXPECT_EQ(res["points"][0]["failed"], 0);

    // Again, without the fault: only the failed runs run, and the results are the clean ones.
    const result again = blsim("sweep " + quote(smoke) + " --out out -j2");
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.err.find("8 runs, 6 done before, 2 to run"), std::string::npos) << again.err;
    EXPECT_FALSE(fs::exists(dir / "out/points" / bad / "seed-1.failed"));
    EXPECT_EQ(slurp(dir / "out/results.csv"), slurp(dir / "clean/results.csv"));
    EXPECT_EQ(slurp(dir / "out/results.json"), slurp(dir / "clean/results.json"));
}

struct stamp {
    ino_t ino;
    std::int64_t mtime_ns;
    bool operator==(const stamp& o) const { return ino == o.ino && mtime_ns == o.mtime_ns; }
};

std::map<std::string, stamp> finished_runs(const fs::path& out)
{
    std::map<std::string, stamp> runs;
    if (!fs::exists(out / "points"))
        return runs;
    for (const auto& p : fs::directory_iterator(out / "points"))
        for (const auto& s : fs::directory_iterator(p.path())) {
            const fs::path summary = s.path() / "summary.json";
            struct stat st {};
            if (s.path().filename().string().rfind("seed-", 0) == 0 && ::stat(summary.c_str(), &st) == 0)
                runs[summary.string()] = {st.st_ino, static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 +
                                                         st.st_mtim.tv_nsec};
        }
    return runs;
}

// Runs long enough (a few hundred simulated seconds each) to stop the sweep between them.
void write_long_spec(const fs::path& dir)
{
    write(dir / "long.yaml", "base: " + source_dir + "/configs/scenarios/bbench-iks-tuned.yaml\n"
                             "parameters: [{key: duration_s, values: [300, 301, 302, 303]}]\n"
                             "metrics: [energy_j.total, perf.bbench.score]\n");
}

// `blsim sweep long.yaml --out out -j1` as a child of ours, its stderr into @err_file, sent
// @sig once a run has finished; its wait status.
int stop_sweep_after_a_run(const fs::path& dir, int sig, const fs::path& err_file)
{
    std::vector<std::string> args = {BLSIM_BINARY, "sweep", (dir / "long.yaml").string(), "--out",
                                     (dir / "out").string(), "-j1"};
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    EXPECT_EQ(posix_spawn(&pid, BLSIM_BINARY, &fa, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    int st = 0;
    while (finished_runs(dir / "out").empty()) {
        if (::waitpid(pid, &st, WNOHANG) == pid) {
            ADD_FAILURE() << "the sweep ended before it could be stopped";
            return st;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::kill(pid, sig);
    EXPECT_EQ(::waitpid(pid, &st, 0), pid);
    return st;
}

// The sweep in @dir/out, resumed after it was stopped with @before finished: the runs done are
// not done again, and the results are those of @dir/whole, the sweep run without a stop.
void expect_resumed(const fs::path& dir, const result& r, const std::map<std::string, stamp>& before)
{
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("4 runs, " + std::to_string(before.size()) + " done before, " +
                         std::to_string(4 - before.size()) + " to run"),
              std::string::npos)
        << r.err;
    const std::map<std::string, stamp> after = finished_runs(dir / "out");
    EXPECT_EQ(after.size(), 4u);
    for (const auto& [path, s] : before) {
        ASSERT_TRUE(after.count(path)) << path;
        EXPECT_TRUE(after.at(path) == s) << path << " was recomputed";
    }
    // No temporary leftovers, and the results of an uninterrupted sweep.
    for (const auto& p : fs::directory_iterator(dir / "out/points"))
        for (const auto& e : fs::directory_iterator(p.path()))
            EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
    EXPECT_EQ(slurp(dir / "out/results.csv"), slurp(dir / "whole/results.csv"));
    EXPECT_EQ(slurp(dir / "out/results.json"), slurp(dir / "whole/results.json"));
}

TEST_F(sweep_test, a_sweep_killed_with_sigkill_resumes_without_recomputing_finished_runs)
{
    write_long_spec(dir);
    ASSERT_EQ(blsim("sweep long.yaml --out whole -j2").status, 0);
    const int st = stop_sweep_after_a_run(dir, SIGKILL, dir / "err.txt");
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    const std::map<std::string, stamp> before = finished_runs(dir / "out");
    ASSERT_FALSE(before.empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // mtimes would move if anything rewrote them
    expect_resumed(dir, blsim("sweep long.yaml --out out -j2"), before);
}

// Ctrl-C: the sweep says that the same command resumes, and dies of the signal as any program
// would (the shell's status 130); the same command then resumes.
TEST_F(sweep_test, a_sweep_interrupted_with_ctrl_c_says_how_to_resume_and_resumes)
{
    write_long_spec(dir);
    ASSERT_EQ(blsim("sweep long.yaml --out whole -j2").status, 0);
    const int st = stop_sweep_after_a_run(dir, SIGINT, dir / "err.txt");
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
    const std::string err = slurp(dir / "err.txt");
    const std::string notice = "\nblsim: sweep: interrupted; the runs that finished are kept in " +
                               (dir / "out").string() + ": run the same command again to resume\n";
    ASSERT_GE(err.size(), notice.size()) << err;
    EXPECT_EQ(err.substr(err.size() - notice.size()), notice) << err;
    const std::map<std::string, stamp> before = finished_runs(dir / "out");
    ASSERT_FALSE(before.empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    expect_resumed(dir, blsim("sweep long.yaml --out out -j2"), before);
}

// A scenario given where the spec goes: one message saying so, not one per key.
TEST_F(sweep_test, a_scenario_given_as_the_spec_is_refused_with_one_message_that_says_so)
{
    const std::string scenario = source_dir + "/configs/scenarios/default.yaml";
    EXPECT_EQ(refused(scenario),
              scenario + ":9:1: this is a scenario, not a sweep spec: a sweep spec names its scenario as 'base: " +
                  scenario + "' and lists the keys to vary under 'parameters:' (docs/sweeps.md); to run the "
                             "scenario itself: blsim run " + scenario + "\n");
    // A spec with mistakes of its own keeps its own messages.
    write(dir / "typo.yaml", "bse: x.yaml\nparameters: []\n");
    EXPECT_NE(refused("typo.yaml").find("unknown key 'bse' (did you mean 'base'?)"), std::string::npos);
}

} // namespace

namespace {

// A finished sweep's results.json, made by hand: what `blsim sweep pareto` reads.
const char* const hand_results = R"({
  "parameters": ["x"], "seeds": [1], "metrics": ["perf", "cost"],
  "points": [
    {"id": "aaaaaaaaaaaa", "parameters": {"x": 1}, "metrics": {"perf": {"mean": 1.0, "std": 0, "n": 1}, "cost": {"mean": 10, "std": 0, "n": 1}}, "failed": 0},
    {"id": "bbbbbbbbbbbb", "parameters": {"x": 2}, "metrics": {"perf": {"mean": 2.0, "std": 0, "n": 1}, "cost": {"mean": 20, "std": 0, "n": 1}}, "failed": 0},
    {"id": "cccccccccccc", "parameters": {"x": 3}, "metrics": {"perf": {"mean": 1.5, "std": 0, "n": 1}, "cost": {"mean": 25, "std": 0, "n": 1}}, "failed": 0},
    {"id": "dddddddddddd", "parameters": {"x": 4}, "metrics": {"perf": {"mean": 2.0, "std": 0, "n": 1}, "cost": {"mean": 20, "std": 0, "n": 1}}, "failed": 0},
    {"id": "eeeeeeeeeeee", "parameters": {"x": 5}, "metrics": {"perf": {"mean": 0.5, "std": 0, "n": 1}, "cost": {"mean": 10, "std": 0, "n": 1}}, "failed": 0},
    {"id": "ffffffffffff", "parameters": {"x": 6}, "metrics": {"perf": {"mean": 3.0, "std": 0.5, "n": 1}, "cost": {"mean": 40, "std": 0, "n": 1}}, "failed": 0},
    {"id": "999999999999", "parameters": {"x": 7}, "metrics": {"perf": {"mean": null, "std": null, "n": 0}, "cost": {"mean": null, "std": null, "n": 0}}, "failed": 1}
  ]})";

} // namespace

// The front worked by hand: c (1.5 for 25) loses to b (2 for 20), e (0.5 for 10) to a (1 for
// the same 10); b and d are equal and both kept; 9 has no numbers. With f as the baseline and
// 0.6 of its perf (1.8) required, the cheapest point reaching it is b (d ties; b's id first).
TEST_F(sweep_test, pareto_front_and_the_cheapest_point_under_a_fraction_of_a_baseline)
{
    write(dir / "s/results.json", hand_results);
    const result r = blsim("sweep pareto s --perf perf --cost cost --baseline ffffffffffff --min-fraction 0.6 --no-plot");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(slurp(dir / "s/pareto.csv"), "id,x,perf.mean,perf.std,cost.mean,cost.std\n"
                                           "aaaaaaaaaaaa,1,1,0,10,0\n"
                                           "bbbbbbbbbbbb,2,2,0,20,0\n"
                                           "dddddddddddd,4,2,0,20,0\n"
                                           "ffffffffffff,6,3,0.5,40,0\n");
    EXPECT_NE(r.out.find("pareto: 6 of 7 points have perf and cost; 4 on the front"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("constraint: perf >= 0.6 x 3 (baseline ffffffffffff) = 1.8\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("best: point bbbbbbbbbbbb: cost 20 (0.500x the baseline's), perf 2 (0.667x)\n"),
              std::string::npos)
        << r.out;
    const json p = json::parse(slurp(dir / "s/pareto.json"));
    EXPECT_EQ(p["front"], json::array({"aaaaaaaaaaaa", "bbbbbbbbbbbb", "dddddddddddd", "ffffffffffff"}));
    EXPECT_EQ(p["best"], "bbbbbbbbbbbb");
    EXPECT_DOUBLE_EQ(p["constraint"]["min_perf"].get<double>(), 1.8);
    EXPECT_FALSE(fs::exists(dir / "s/pareto.png")); // --no-plot

    // Out of reach: said, with the best there is.
    const result none = blsim("sweep pareto s --perf perf --cost cost --min-perf 5 --no-plot");
    ASSERT_EQ(none.status, 0) << none.err;
    EXPECT_NE(none.out.find("best: none reaches it; the highest perf is 3 (point ffffffffffff, 0.600x the threshold)\n"),
              std::string::npos)
        << none.out;
    EXPECT_TRUE(json::parse(slurp(dir / "s/pareto.json"))["best"].is_null());

    // A baseline from a run's directory, and the picture.
    write(dir / "base/summary.json", R"({"perf": 2.5, "cost": 30})");
    const result plotted = blsim("sweep pareto s --perf perf --cost cost --baseline base --min-fraction 0.5");
    ASSERT_EQ(plotted.status, 0) << plotted.err;
    EXPECT_NE(plotted.out.find("constraint: perf >= 0.5 x 2.5 (baseline base) = 1.25\n"), std::string::npos);
    EXPECT_NE(plotted.out.find("best: point bbbbbbbbbbbb: cost 20 (0.667x the baseline's), perf 2 (0.800x)\n"),
              std::string::npos)
        << plotted.out;
    EXPECT_EQ(slurp(dir / "s/pareto.png").substr(1, 3), "PNG");
}

TEST_F(sweep_test, pareto_refuses_what_it_cannot_analyse_with_exit_2)
{
    write(dir / "s/results.json", hand_results);
    result r = blsim("sweep pareto s --perf score --cost cost --no-plot");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: sweep pareto: 'score' is not a metric of this sweep (its metrics: perf, cost)\n");
    r = blsim("sweep pareto s --perf perf --cost cost --min-fraction 0.9");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("sweep pareto: --min-fraction needs --baseline (a point id, a run directory or a summary.json)"),
              std::string::npos)
        << r.err;
    r = blsim("sweep pareto s --perf perf --cost cost --baseline nowhere --min-fraction 0.9 --no-plot");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: sweep pareto: --baseline nowhere: not a point of the sweep, and nowhere cannot be read: "
                     "No such file or directory\n");
    r = blsim("sweep pareto empty --perf perf");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: sweep pareto: empty/results.json: cannot read: No such file or directory (run the sweep "
                     "first)\n");
    EXPECT_FALSE(fs::exists(dir / "s/pareto.csv"));
}

// The shipped studies load, every point checked against the scenario as its run will load it:
// 4 x 4 x 3 x 3 x 3 x 3 tunings, and 3 power-up latencies x 3 L2 sizes x 2 DVFS latencies.
TEST_F(sweep_test, the_shipped_tuning_and_what_if_specs_expand_to_their_grids)
{
    blsim::cfg::diagnostics diag;
    sweep_spec tuning, what_if;
    ASSERT_TRUE(blsim::soc::load_sweep_spec(source_dir + "/configs/sweeps/interactive-tuning.yaml", tuning, diag))
        << ::testing::PrintToString(diag.messages());
    EXPECT_EQ(tuning.points.size(), 1296u);
    EXPECT_EQ(tuning.keys.size(), 6u);
    ASSERT_TRUE(blsim::soc::load_sweep_spec(source_dir + "/configs/sweeps/silicon-what-if.yaml", what_if, diag))
        << ::testing::PrintToString(diag.messages());
    EXPECT_EQ(what_if.points.size(), 18u);
    EXPECT_EQ(what_if.keys.size(), 9u); // duration, two power-up, two L2, four DVFS latencies
    // The sensitivity study (docs/validation.md): two systems x (the base + 12 members x 2).
    sweep_spec sensitivity;
    ASSERT_TRUE(blsim::soc::load_sweep_spec(source_dir + "/configs/sweeps/sensitivity.yaml", sensitivity, diag))
        << ::testing::PrintToString(diag.messages());
    EXPECT_EQ(sensitivity.points.size(), 50u);
    EXPECT_EQ(sensitivity.keys.size(), 17u);
}

// A key that takes a list (online_cpus) is swept with list values: each list is one value, its
// canonical text "[" its items ", " "]", which the id, --set and results.csv use.
TEST_F(sweep_test, a_list_value_is_one_value_of_a_key_that_takes_a_list)
{
    const sweep_spec spec = load("base: " + steps + R"(
parameters:
  - zip:
      - {key: mode, values: [iks, smp]}
      - {key: online_cpus, values: [[], [0, 1]]}
metrics: [energy_j.total]
)");
    EXPECT_EQ(rows(spec), (std::vector<std::string>{"mode=iks online_cpus=[]", "mode=smp online_cpus=[0, 1]"}));
    const sweep_value& v = spec.points[1].parameters[1].second;
    ASSERT_EQ(v.t, sweep_value::type::list);
    ASSERT_EQ(v.items.size(), 2u);
    EXPECT_EQ(v.items[1].t, sweep_value::type::integer);
    EXPECT_EQ(v.override_text(), "[0, 1]");
    EXPECT_EQ(spec.points[1].id, fnv_id("mode=smp\nonline_cpus=[0, 1]\n"));
    // Strings in a list keep the quotes --set needs; a list of lists, or a repeated list, is refused.
    sweep_value text;
    text.t = sweep_value::type::list;
    text.items.resize(2);
    text.items[0].t = text.items[1].t = sweep_value::type::string;
    text.items[0].s = "a";
    text.items[1].s = "b c";
    EXPECT_EQ(text.canonical(), "[a, \"b c\"]");
    const fs::path bad = dir / "bad.yaml";
    write(bad, "base: " + steps + "\nparameters:\n  - {key: online_cpus, values: [[0, [1]], [2], [2]]}\n"
                                   "metrics: [energy_j.total]\n");
    result r = blsim("sweep " + bad.string() + " --out " + (dir / "out").string());
    EXPECT_EQ(r.status, 2);
    // Columns: the inner [1] at 37, the second [2] at 48.
    EXPECT_EQ(r.err, bad.string() + ":3:37: parameters[0].values[0][1]: a list value holds numbers, booleans or "
                                    "strings, got a list\n" +
                         bad.string() + ":3:48: parameters[0].values[2]: [2] is already in the list "
                                        "(parameters[0].values[1])\n");
}

namespace {

// A two-system one-at-a-time sweep's results.json, made by hand: s switches between the study
// (iks) and the baseline (smp); the members x (2 values), y (3 reals) and z (1 boolean); d is
// an item of one value. Each row: the system, the member the point sets ("" for the base) and
// its value, the means of m and k (none: no seed had it).
std::string hand_oat_results()
{
    struct row {
        const char* s;
        const char* member;
        json value;
        double m, k;
    };
    const double none = NAN;
    // In the order of a spec whose one_at_a_time item comes before the zip: each row of the
    // item for the study, then for the baseline.
    const row rows[] = {
        {"iks", "", {}, 2, 1},     {"smp", "", {}, 4, 1},       // base
        {"iks", "x", 1, 3, 1},     {"smp", "x", 1, 4, 2},
        {"iks", "x", 2, 1, 1},     {"smp", "x", 2, 4, 4},
        {"iks", "y", 0.5, 2, 1},   {"smp", "y", 0.5, 2, 1},
        {"iks", "y", 1.0, 2, 1},   {"smp", "y", 1.0, 4, 0.5},
        {"iks", "y", 2.5, 4, 1},   {"smp", "y", 2.5, 4, 4},
        {"iks", "z", true, 5, 1},  {"smp", "z", true, none, 0}, // the baseline's m failed, its k is 0
    };
    auto stat = [](double mean) {
        return std::isnan(mean) ? json{{"mean", nullptr}, {"std", nullptr}, {"n", 0}}
                                : json{{"mean", mean}, {"std", 0}, {"n", 1}};
    };
    json points = json::array();
    for (const row& r : rows) {
        json parameters = {{"d", 1}, {"s", r.s}};
        if (*r.member)
            parameters[r.member] = r.value;
        char id[16];
        std::snprintf(id, sizeof id, "%012zx", points.size() + 1);
        points.push_back({{"id", id},
                          {"parameters", parameters},
                          {"metrics", {{"m", stat(r.m)}, {"k", stat(r.k)}}},
                          {"failed", std::isnan(r.m) ? 1 : 0}});
    }
    return json{{"parameters", {"d", "s", "x", "y", "z"}},
                {"seeds", json::array({1})},
                {"metrics", {"m", "k"}},
                {"points", points}}
        .dump();
}

} // namespace

// scripts/tornado on numbers worked by hand. m: base 2/4 = 0.5; x 3/4, 1/4 (swing 0.5); y 2/2,
// 2/4, 4/4 (swing 0.5, after x: a tie keeps spec order; the lowest and highest are the first
// value at each); z's baseline failed: no ratio, last. k: base 1/1; x 1/2, 1/4 (swing 0.25);
// y 1/1, 1/0.5, 1/4 (swing 1.75, first); z's baseline is 0: no ratio.
TEST_F(sweep_test, tornado_tabulates_study_over_baseline_ratios_sorted_by_swing)
{
    write(dir / "s/results.json", hand_oat_results());
    const result r = blsim_test::shell("/usr/bin/python3 " + quote(source_dir + "/scripts/tornado") + " " +
                                       quote((dir / "s").string()) + " --ratio m --ratio k");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, "## m: s=iks / s=smp\n"
                     "\n"
                     "base ratio: 0.5 (m 2 / 4)\n"
                     "\n"
                     "| # | parameter | swing | lowest ratio | highest ratio | ratio at each value |\n"
                     "|---:|---|---:|---:|---:|---|\n"
                     "| 1 | x | 0.5 | 0.25 at 2 | 0.75 at 1 | 1: 0.75; 2: 0.25 |\n"
                     "| 2 | y | 0.5 | 0.5 at 1.0 | 1 at 0.5 | 0.5: 1; 1.0: 0.5; 2.5: 1 |\n"
                     "| 3 | z | - | - | - | true: - |\n"
                     "\n"
                     "## k: s=iks / s=smp\n"
                     "\n"
                     "base ratio: 1 (k 1 / 1)\n"
                     "\n"
                     "| # | parameter | swing | lowest ratio | highest ratio | ratio at each value |\n"
                     "|---:|---|---:|---:|---:|---|\n"
                     "| 1 | y | 1.75 | 0.25 at 2.5 | 2 at 1.0 | 0.5: 1; 1.0: 2; 2.5: 0.25 |\n"
                     "| 2 | x | 0.25 | 0.25 at 2 | 0.5 at 1 | 1: 0.5; 2: 0.25 |\n"
                     "| 3 | z | - | - | - | true: - |\n"
                     "\n"
                     "picture: " + (dir / "s/tornado.png").string() + "\n");
    // The picture, the same bytes when drawn again.
    const std::string png = slurp(dir / "s/tornado.png");
    EXPECT_EQ(png.substr(1, 3), "PNG");
    ASSERT_EQ(blsim_test::shell("/usr/bin/python3 " + quote(source_dir + "/scripts/tornado") + " " +
                                quote((dir / "s").string()) + " --ratio m --ratio k")
                  .status,
              0);
    EXPECT_EQ(slurp(dir / "s/tornado.png"), png);
}

TEST_F(sweep_test, tornado_refuses_what_it_cannot_analyse_with_exit_2)
{
    write(dir / "s/results.json", hand_oat_results());
    write(dir / "grid/results.json", hand_results); // no one_at_a_time item
    // s takes three values; then two systems, but x=1 only of the study (one shard's results).
    write(dir / "three/results.json",
          R"({"parameters": ["s", "x"], "seeds": [1], "metrics": ["m"], "points": [
               {"id": "1", "parameters": {"s": "a"}, "metrics": {}}, {"id": "2", "parameters": {"s": "b", "x": 1},
               "metrics": {}}, {"id": "3", "parameters": {"s": "c"}, "metrics": {}}]})");
    write(dir / "shard/results.json",
          R"({"parameters": ["s", "x"], "seeds": [1], "metrics": ["m"], "points": [
               {"id": "1", "parameters": {"s": "a"}, "metrics": {}}, {"id": "2", "parameters": {"s": "b"},
               "metrics": {}}, {"id": "3", "parameters": {"s": "a", "x": 1}, "metrics": {}}]})");
    const std::string tornado = "/usr/bin/python3 " + quote(source_dir + "/scripts/tornado") + " ";
    const std::pair<std::string, std::string> cases[] = {
        {"s --ratio nope --no-plot", "tornado: --ratio nope: not a metric of this sweep (its metrics: m, k)\n"},
        {"s --ratio m --ratio m --no-plot", "tornado: --ratio m given twice\n"},
        {"s --ratio m --system x --no-plot",
         "tornado: --system x: a one_at_a_time member (some points leave it at the base), not the key of the "
         "systems\n"},
        {"s --ratio m --system d --no-plot",
         "tornado: --system d: takes 1 value(s), not two (the study's and the baseline's)\n"},
        {"s --ratio m --no-plot --png p.png", "tornado: --png and --no-plot exclude each other\n"},
        {"grid --ratio perf --no-plot", "tornado: no one_at_a_time item: every point sets every parameter\n"},
        {"three --ratio m --no-plot",
         "tornado: s takes 3 values: expected a zip item of two systems times a one_at_a_time item\n"},
        {"shard --ratio m --no-plot",
         "tornado: no baseline point at x=1 (is the sweep complete, or a shard of it?)\n"},
        {"empty --ratio m", "tornado: empty/results.json: cannot read: No such file or directory (run the sweep "
                            "first)\n"},
    };
    for (const auto& [args, err] : cases) {
        const result r = blsim_test::shell("cd " + quote(dir.string()) + " && " + tornado + args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.err, err) << args;
        EXPECT_EQ(r.out, "") << args;
    }
    // Without --ratio: argparse's usage message.
    const result none = blsim_test::shell("cd " + quote(dir.string()) + " && " + tornado + "s");
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("the following arguments are required: --ratio"), std::string::npos) << none.err;
    EXPECT_FALSE(fs::exists(dir / "s/tornado.png"));
}

// %.6g, as scripts/tornado prints its numbers.
std::string g6(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// End to end: a tiny study (IKS against SMP, 5 simulated seconds of BBench, two seeds) times a
// one_at_a_time item of two members: the results show which member each point varies, and
// scripts/tornado's table holds the ratios of the sweep's own means.
TEST_F(sweep_test, a_one_at_a_time_sweep_runs_and_tornado_tabulates_its_means)
{
    write(dir / "oat.yaml", "base: " + source_dir + R"(/configs/scenarios/bbench-iks-tuned.yaml
parameters:
  - {key: duration_s, values: [5]}
  - {zip: [{key: mode, values: [iks, smp]}]}
  - one_at_a_time:
      - {key: governor.interactive.go_hispeed_load_pct, values: [70, 99]}
      - {key: governor.interactive.timer_rate_us, values: [10000, 40000]}
seeds: [1, 2]
metrics: [energy_j.total, perf.bbench.score]
)");
    const result r = blsim("sweep oat.yaml --out out -j2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "sweep: 10 points x 2 seeds = 20 runs: 20 done (20 now), 0 failed");

    // results.csv: a member the point leaves at the base is an empty cell; results.json leaves
    // it out of the point's parameters.
    const std::string hs = "governor.interactive.go_hispeed_load_pct", tr = "governor.interactive.timer_rate_us";
    const std::vector<std::string> system = {"iks", "smp"};
    const std::vector<std::string> oat = {",", "70,", "99,", ",10000", ",40000"};
    const std::string csv = slurp(dir / "out/results.csv");
    std::vector<std::string> lines;
    for (std::size_t at = 0, nl; (nl = csv.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(csv.substr(at, nl - at));
    ASSERT_EQ(lines.size(), 11u);
    EXPECT_EQ(lines[0].substr(0, lines[0].find(",energy")), "id,duration_s,mode," + hs + "," + tr);
    const json res = json::parse(slurp(dir / "out/results.json"));
    ASSERT_EQ(res["points"].size(), 10u);
    for (std::size_t i = 0; i < 10; i++) {
        const json& p = res["points"][i];
        const std::string id = p["id"];
        const std::string cells = id + ",5," + system[i / 5] + "," + oat[i % 5] + ","; // up to the metrics
        EXPECT_EQ(lines[i + 1].substr(0, cells.size()), cells) << i;
        json params = {{"duration_s", 5}, {"mode", system[i / 5]}};
        if (i % 5 == 1 || i % 5 == 2)
            params[hs] = i % 5 == 1 ? 70 : 99;
        if (i % 5 == 3 || i % 5 == 4)
            params[tr] = i % 5 == 3 ? 10000 : 40000;
        EXPECT_EQ(p["parameters"], params) << i;
        EXPECT_EQ(p["metrics"]["energy_j.total"]["n"], 2) << i;
    }

    // The table, rebuilt from the results: row k of the item is point k (IKS) over point 5 + k
    // (SMP); each member's swing is the difference of its two ratios.
    const result t = blsim_test::shell("/usr/bin/python3 " + quote(source_dir + "/scripts/tornado") + " " +
                                       quote((dir / "out").string()) +
                                       " --ratio perf.bbench.score --ratio energy_j.total --no-plot");
    ASSERT_EQ(t.status, 0) << t.err;
    std::string expected;
    for (const std::string metric : {"perf.bbench.score", "energy_j.total"}) {
        auto mean = [&](std::size_t i) { return res["points"][i]["metrics"][metric]["mean"].get<double>(); };
        auto ratio = [&](std::size_t k) { return mean(k) / mean(5 + k); };
        struct bar {
            std::string key, lo_value, hi_value;
            double a, b; // the ratios at the first and second value
        };
        std::vector<bar> bars = {{hs, "70", "99", ratio(1), ratio(2)}, {tr, "10000", "40000", ratio(3), ratio(4)}};
        std::stable_sort(bars.begin(), bars.end(),
                         [](const bar& x, const bar& y) { return std::fabs(x.a - x.b) > std::fabs(y.a - y.b); });
        expected += (expected.empty() ? "" : "\n") + std::string("## ") + metric + ": mode=iks / mode=smp\n\n" +
                    "base ratio: " + g6(ratio(0)) + " (" + metric + " " + g6(mean(0)) + " / " + g6(mean(5)) +
                    ")\n\n| # | parameter | swing | lowest ratio | highest ratio | ratio at each value |\n"
                    "|---:|---|---:|---:|---:|---|\n";
        for (std::size_t k = 0; k < bars.size(); k++) {
            const bar& b = bars[k];
            // The first value at the lowest ratio, and the first at the highest.
            const std::string& low = b.a <= b.b ? b.lo_value : b.hi_value;
            const std::string& high = b.a >= b.b ? b.lo_value : b.hi_value;
            expected += "| " + std::to_string(k + 1) + " | " + b.key + " | " + g6(std::fabs(b.a - b.b)) + " | " +
                        g6(std::min(b.a, b.b)) + " at " + low + " | " + g6(std::max(b.a, b.b)) + " at " + high + " | " +
                        b.lo_value + ": " + g6(b.a) + "; " + b.hi_value + ": " + g6(b.b) + " |\n";
        }
    }
    EXPECT_EQ(t.out, expected);
}
