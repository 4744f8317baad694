// tests/config/config_test.cpp -- the YAML configuration loader: parsing with marks, schema
// binding, --set overrides, semantic checks and the effective configuration.
//
// Error messages are user interface: every expectation below is the exact, complete message,
// location included. Fixtures live in tests/config/data/ (BLSIM_TEST_DATA), one problem each
// unless a test is about several errors being reported together.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <bls/types.h>

#include "blsim/soc/config_node.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"

namespace {

using blsim::cfg::apply_override;
using blsim::cfg::closest_key;
using blsim::cfg::diagnostics;
using blsim::cfg::edit_distance;
using blsim::cfg::emit_yaml;
using blsim::cfg::mark;
using blsim::cfg::node;
using blsim::cfg::parse_yaml;
using blsim::soc::effective_yaml;
using blsim::soc::load_scenario;
using blsim::soc::scenario_config;

using messages = std::vector<std::string>;

const std::string default_path = BLSIM_SOURCE_DIR "/configs/scenarios/default.yaml";

std::string data(const std::string& name) { return std::string(BLSIM_TEST_DATA) + "/" + name; }

// "<fixture path>:line:col"
std::string at(const std::string& name, int line, int col)
{
    return data(name) + ":" + std::to_string(line) + ":" + std::to_string(col);
}

// "--set:N:col"
std::string set_at(int n, int col) { return "--set:" + std::to_string(n) + ":" + std::to_string(col); }

struct loaded {
    bool ok = false;
    messages errors;
    scenario_config cfg;
};

loaded load(const std::string& path, const std::vector<std::string>& overrides = {})
{
    loaded r;
    diagnostics diag;
    r.ok = load_scenario(path, overrides, r.cfg, diag);
    r.errors = diag.messages();
    return r;
}

// The boot frequency the governor is given for @cluster, or -1.
int governor_freq(const scenario_config& c, const std::string& cluster)
{
    for (const auto& [name, mhz] : c.governor.freq_mhz)
        if (name == cluster)
            return mhz;
    return -1;
}

// ------------------------------------------------------------------------------------------
// Refused scenarios, a table per section below: a scenario, with its --set overrides, that must
// not load, and every message it is refused with, in order.

struct refusal {
    const char* name; // the case's, in the test's name
    std::string path;
    std::vector<std::string> overrides;
    messages errors;
};

// gtest names a failing case by this, not by the bytes of the struct.
void PrintTo(const refusal& c, std::ostream* os) { *os << c.name; }

std::string name_of(const ::testing::TestParamInfo<refusal>& info) { return info.param.name; }

class ScenarioRefused : public ::testing::TestWithParam<refusal> {};

TEST_P(ScenarioRefused, WithExactlyTheseMessages)
{
    const refusal& c = GetParam();
    loaded r = load(c.path, c.overrides);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, c.errors);
}

// ------------------------------------------------------------------------------------------
// Good files

TEST(GoodFiles, DefaultScenarioLoadsWithTc2)
{
    loaded r = load(default_path);
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    EXPECT_TRUE(r.errors.empty());
    const scenario_config& c = r.cfg;
    EXPECT_EQ(c.name, "tc2-default");
    EXPECT_EQ(c.seed, 1);
    EXPECT_DOUBLE_EQ(c.duration_s, 60);
    EXPECT_EQ(c.soc.name, "tc2");
    ASSERT_EQ(c.soc.clusters.size(), 2u);
    EXPECT_EQ(c.soc.clusters[0].name, "a15");
    EXPECT_EQ(c.soc.clusters[0].cores, 2);
    EXPECT_EQ(c.soc.clusters[0].opps.size(), 8u);
    EXPECT_EQ(c.soc.clusters[0].opps.back().freq_mhz, 1200);
    EXPECT_EQ(c.soc.clusters[0].boot_freq_mhz, 0); // not given: the default
    EXPECT_EQ(c.soc.clusters[1].name, "a7");
    EXPECT_EQ(c.soc.clusters[1].cores, 3);
    ASSERT_FALSE(c.soc.clusters[1].opps.empty());
    EXPECT_EQ(c.soc.clusters[1].opps[0].freq_mhz, 350);
    EXPECT_EQ(c.soc.clusters[1].opps[0].voltage_mv, 850);
    EXPECT_DOUBLE_EQ(c.soc.clusters[1].cv2f.core_dyn_uw_per_mhz_v2, 133);
    EXPECT_EQ(c.soc.energy.model, blsim::model::power_model_kind::eas);
    EXPECT_DOUBLE_EQ(c.soc.clusters[0].eas_mw_per_unit, 0.1872);
    EXPECT_DOUBLE_EQ(c.soc.clusters[1].eas_mw_per_unit, 0.1432);
    EXPECT_DOUBLE_EQ(c.soc.clusters[1].leakage.core_mw, 47.9);
    EXPECT_EQ(c.governor.name, "userspace");
    EXPECT_EQ(governor_freq(c, "a15"), 1000);
    EXPECT_EQ(governor_freq(c, "a7"), 800);
    ASSERT_EQ(c.workload.tasks.size(), 4u);
    EXPECT_EQ(c.workload.tasks[0].name, "ui");
    EXPECT_DOUBLE_EQ(c.workload.tasks[0].offset_ms, 0); // not given: the default
    EXPECT_DOUBLE_EQ(c.workload.tasks[1].offset_ms, 2);
    EXPECT_DOUBLE_EQ(c.workload.tasks[3].mem_fraction, 0.5);
}

TEST(GoodFiles, BuiltinDefaultIsTheSameConfiguration)
{
    loaded file = load(BLSIM_SOURCE_DIR "/configs/scenarios/bbench-iks-tuned.yaml");
    loaded builtin = load(blsim::soc::default_scenario);
    ASSERT_TRUE(file.ok) << ::testing::PrintToString(file.errors);
    ASSERT_TRUE(builtin.ok) << ::testing::PrintToString(builtin.errors);
    EXPECT_EQ(effective_yaml(builtin.cfg), effective_yaml(file.cfg));
    EXPECT_STREQ(blsim::soc::default_scenario, "builtin:configs/scenarios/bbench-iks-tuned.yaml");
}

TEST(GoodFiles, InlineSocLoads)
{
    loaded r = load(data("inline_soc.yaml"));
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    const scenario_config& c = r.cfg;
    EXPECT_EQ(c.name, "inline");
    EXPECT_DOUBLE_EQ(c.duration_s, 2.5);
    EXPECT_EQ(c.seed, 1); // default
    EXPECT_EQ(c.soc.name, "tiny");
    EXPECT_EQ(c.soc.energy.model, blsim::model::power_model_kind::cv2f);
    EXPECT_DOUBLE_EQ(c.soc.clusters[0].eas_mw_per_unit, 0.5);
    ASSERT_EQ(c.soc.clusters.size(), 1u);
    EXPECT_EQ(c.soc.clusters[0].name, "solo");
    EXPECT_EQ(c.soc.clusters[0].cores, 3);
    EXPECT_EQ(c.soc.clusters[0].boot_freq_mhz, 400);
    ASSERT_EQ(c.soc.clusters[0].opps.size(), 2u);
    EXPECT_EQ(c.soc.clusters[0].opps[1].voltage_mv, 950);
    EXPECT_EQ(c.governor.name, "performance"); // default
    EXPECT_EQ(governor_freq(c, "solo"), 800);
    EXPECT_EQ(c.workload.kind, "constant"); // default
    ASSERT_EQ(c.workload.tasks.size(), 1u);
    EXPECT_EQ(c.workload.tasks[0].cpus, std::vector<int>{2});
}

// ------------------------------------------------------------------------------------------
// YAML-level errors

const refusal yaml_errors_refused[] = {
    // libyaml notices the unclosed '[' where the next line's ':' makes it impossible.
    {"SyntaxErrorIsLocated",
     data("syntax_error.yaml"),
     {},
     messages{at("syntax_error.yaml", 3, 11) + ": YAML syntax error: did not find expected ',' or ']' "
                                               "(while parsing a flow sequence)"}},
    {"DuplicateKey",
     data("duplicate_key.yaml"),
     {},
     messages{at("duplicate_key.yaml", 3, 1) + ": duplicate key 'name' (first at line 1)"}},
    {"DocumentMustBeAMapping",
     data("not_a_mapping.yaml"),
     {},
     messages{at("not_a_mapping.yaml", 1, 1) + ": the document must be a mapping of keys to values"}},
    {"OnlyOneDocument",
     data("two_documents.yaml"),
     {},
     messages{at("two_documents.yaml", 2, 1) + ": only one YAML document is allowed"}},
};
INSTANTIATE_TEST_SUITE_P(YamlErrors, ScenarioRefused, ::testing::ValuesIn(yaml_errors_refused), name_of);

TEST(YamlErrors, EmptyFileIsAnEmptyMapping)
{
    loaded r = load(data("empty.yaml"));
    EXPECT_FALSE(r.ok);
    ASSERT_FALSE(r.errors.empty());
    // Only the first: other required keys may follow it.
    EXPECT_EQ(r.errors.front(), at("empty.yaml", 1, 1) + ": document: missing required key 'name'");
}

// ------------------------------------------------------------------------------------------
// Schema binding errors

const refusal schema_errors_refused[] = {
    {"WrongTypeInline",
     data("cores_not_integer.yaml"),
     {},
     messages{at("cores_not_integer.yaml", 6, 14) + ": soc.clusters[0].cores: expected an integer, got 'two'"}},
    {"WrongTypeInSocFileIsLocatedInTheSocFile",
     data("uses_soc_cores_not_integer.yaml"),
     {},
     messages{at("soc_cores_not_integer.yaml", 4, 12) + ": soc.clusters[0].cores: expected an integer, got 'two'"}},
    {"OutOfRange",
     data("cores_out_of_range.yaml"),
     {},
     messages{at("cores_out_of_range.yaml", 6, 14) + ": soc.clusters[0].cores: 9 is out of range 1..8"}},
    {"UnknownKeySuggestsTheClosest",
     data("unknown_key.yaml"),
     {},
     messages{at("unknown_key.yaml", 2, 1) + ": unknown key 'duraton_s' (did you mean 'duration_s'?)"}},
    // The typo also leaves the real key missing; both are said, in reading order (a mapping's
    // own problems are located at its start, its first key).
    {"UnknownNestedKeyNamesItsParent",
     data("unknown_nested_key.yaml"),
     {},
     messages{at("unknown_nested_key.yaml", 5, 7) + ": soc.clusters[0]: missing required key 'cores'",
              at("unknown_nested_key.yaml", 6, 7) +
                  ": unknown key 'corez' in soc.clusters[0] (did you mean 'cores'?)"}},
    {"MissingRequiredKey",
     data("missing_opps.yaml"),
     {},
     messages{at("missing_opps.yaml", 5, 7) + ": soc.clusters[0]: missing required key 'opps'"}},
    {"ManyErrorsAreAllReportedInFileOrder",
     data("many_errors.yaml"),
     {},
     messages{
         at("many_errors.yaml", 3, 7) + ": seed: -1 is out of range 0..2147483647",
         at("many_errors.yaml", 4, 13) + ": duration_s: expected a number, got 'soon'",
         at("many_errors.yaml", 11, 42) + ": soc.clusters[0].opps[0].voltage_mv: 9000 is out of range 500..1500",
         at("many_errors.yaml", 14, 7) + ": unknown key 'colour' in soc.clusters[0] (did you mean 'cores'?)",
         at("many_errors.yaml", 17, 7) + ": workload.tasks[0]: missing required key 'period_ms'",
     }},
};
INSTANTIATE_TEST_SUITE_P(SchemaErrors, ScenarioRefused, ::testing::ValuesIn(schema_errors_refused), name_of);

// ------------------------------------------------------------------------------------------
// Files that cannot be read

const refusal missing_files_refused[] = {
    {"Scenario",
     data("no_such_scenario.yaml"),
     {},
     messages{data("no_such_scenario.yaml") + ": cannot read: No such file or directory"}},
    {"BuiltinScenario",
     "builtin:configs/scenarios/no_such.yaml",
     {},
     messages{"builtin:configs/scenarios/no_such.yaml: cannot read: no such built-in file"}},
    {"SocFileIsLocatedAtTheReference",
     data("missing_soc_file.yaml"),
     {},
     messages{at("missing_soc_file.yaml", 3, 6) +
              ": cannot read SoC file 'no_such_soc.yaml': No such file or directory"}},
    {"BrokenSocFileDoesNotHideScenarioErrors",
     data("uses_soc_syntax_error.yaml"),
     {},
     messages{at("soc_syntax_error.yaml", 3, 1) + ": YAML syntax error: did not find expected node content (while "
                                                  "parsing a flow node)",
              at("uses_soc_syntax_error.yaml", 3, 7) + ": seed: expected an integer, got 'many'"}},
};
INSTANTIATE_TEST_SUITE_P(MissingFiles, ScenarioRefused, ::testing::ValuesIn(missing_files_refused), name_of);

// ------------------------------------------------------------------------------------------
// --set overrides

// A boot frequency under a governor that moves off it: legal (Linux boots so), and noted,
// since whoever writes it usually means to hold it.
TEST(Overrides, ABootFrequencyUnderAGovernorThatSetsItsOwnIsNoted)
{
    diagnostics diag;
    scenario_config c;
    ASSERT_TRUE(load_scenario(default_path, {"governor.name=interactive", "governor.freq_mhz.a15=600"}, c, diag));
    // The file's a7 as well as the --set's a15 (the file's first, as every list of messages).
    EXPECT_EQ(diag.note_messages(),
              (messages{default_path + ":16:29: note: governor.freq_mhz.a7: 800 MHz at boot only: the interactive "
                                       "governor sets the frequency from its start (to hold 800 MHz, also set "
                                       "governor.name=userspace)",
                        "--set:2:23: note: governor.freq_mhz.a15: 600 MHz at boot only: the interactive governor "
                        "sets the frequency from its start (to hold 600 MHz, also set governor.name=userspace)"}));
    // Under userspace it is held: nothing to say.
    diagnostics quiet;
    ASSERT_TRUE(load_scenario(default_path, {"governor.freq_mhz.a15=600"}, c, quiet));
    EXPECT_EQ(quiet.note_count(), 0u);
}

// Another governor's tunables are not read: said where it is likely a slip (written with
// --set, or in the file that names the governor), not for a file written for one governor run
// with another.
TEST(Overrides, AnotherGovernorsTunablesAreNotedWhenWrittenWithTheGovernorNamed)
{
    const std::string steps = BLSIM_SOURCE_DIR "/configs/scenarios/governor-steps.yaml"; // interactive
    diagnostics diag;
    scenario_config c;
    ASSERT_TRUE(load_scenario(steps, {"governor.schedutil.rate_limit_us=1000"}, c, diag));
    EXPECT_EQ(diag.note_messages(),
              messages{"--set:1:34: note: governor.schedutil: schedutil's tunables are not read: the governor is "
                       "interactive"});
    diagnostics switched;
    ASSERT_TRUE(load_scenario(steps, {"governor.name=ondemand"}, c, switched));
    EXPECT_EQ(switched.note_count(), 0u) << ::testing::PrintToString(switched.note_messages());
    diagnostics both;
    ASSERT_TRUE(load_scenario(steps, {"governor.name=ondemand", "governor.interactive.go_hispeed_load_pct=85"}, c, both));
    EXPECT_EQ(both.note_messages(),
              messages{"--set:2:42: note: governor.interactive: interactive's tunables are not read: the governor "
                       "is ondemand"});
}

TEST(Overrides, GoodOverridesChangeValues)
{
    loaded r = load(default_path, {"duration_s=5", "soc.clusters.a15.cores=1",
                                   "governor.freq_mhz={a15: 800}"});
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    const scenario_config& c = r.cfg;
    EXPECT_DOUBLE_EQ(c.duration_s, 5);
    EXPECT_EQ(c.soc.clusters[0].cores, 1);
    EXPECT_EQ(c.soc.clusters[1].cores, 3);
    // A mapping value replaces the mapping: a7 is no longer named.
    using freqs = std::vector<std::pair<std::string, int>>;
    EXPECT_EQ(c.governor.freq_mhz, (freqs{{"a15", 800}}));
    // Untouched keys keep the file's values.
    EXPECT_EQ(c.seed, 1);
    EXPECT_EQ(c.soc.clusters[0].opps.size(), 8u);

    loaded by_index = load(default_path, {"soc.clusters.1.cores=2"});
    ASSERT_TRUE(by_index.ok) << ::testing::PrintToString(by_index.errors);
    EXPECT_EQ(by_index.cfg.soc.clusters[0].cores, 2);
    EXPECT_EQ(by_index.cfg.soc.clusters[1].cores, 2);
}

const refusal overrides_refused[] = {
    // 1 + 2 cores leave default.yaml's fourth task (on cpu3) without a CPU.
    {"OverriddenSocIsCheckedAgainstTheTasks",
     default_path,
     {"soc.clusters.a15.cores=1", "soc.clusters.1.cores=2"},
     messages{default_path + ":23:29: workload.tasks[3].cpus[0]: cpu3 does not "
                             "exist (the SoC has 3 CPUs)"}},
    {"SocReferenceToMissingFile",
     default_path,
     {"soc=no_such_soc.yaml"},
     messages{set_at(1, 5) + ": cannot read SoC file 'no_such_soc.yaml': No such file or directory"}},
    {"Malformed",
     default_path,
     {"duration_s", "=5"},
     messages{set_at(1, 1) + ": expected key=value, got 'duration_s'",
              set_at(2, 1) + ": expected key=value, got '=5'"}},
    {"UnknownKey",
     default_path,
     {"seed=2", "duraton_s=5"},
     messages{set_at(2, 1) + ": unknown key 'duraton_s' (did you mean 'duration_s'?)"}},
    {"UnknownNestedKey",
     default_path,
     {"soc.clusters.a15.corez=1"},
     messages{set_at(1, 18) + ": unknown key 'corez' in soc.clusters[0] (did you mean 'cores'?)"}},
    {"WrongTypeAndOutOfRange",
     default_path,
     {"soc.clusters.a15.cores=two", "soc.clusters.a7.cores=9"},
     messages{set_at(1, 24) + ": soc.clusters[0].cores: expected an integer, got 'two'",
              set_at(2, 23) + ": soc.clusters[1].cores: 9 is out of range 1..8"}},
    {"BadYamlValue",
     default_path,
     {"governor.freq_mhz={a15: 800"},
     messages{set_at(1, 19) + ": bad value: YAML syntax error: did not find expected ',' or "
                              "'}' (while parsing a flow mapping)"}},
    {"PathThroughAValueOrWithEmptyComponent",
     default_path,
     {"duration_s.unit=s", "soc..name=x"},
     messages{set_at(1, 12) + ": 'duration_s' is a value, not a mapping",
              set_at(2, 5) + ": empty component in key 'soc..name'"}},
    // The seed override fixes the file's seed error; the others remain, the file's first,
    // then the overrides'.
    {"FileAndOverrideErrorsAreReportedTogether",
     data("many_errors.yaml"),
     {"soc.clusters.big.cores=1", "seed=0"},
     messages{
         at("many_errors.yaml", 4, 13) + ": duration_s: expected a number, got 'soon'",
         at("many_errors.yaml", 11, 42) + ": soc.clusters[0].opps[0].voltage_mv: 9000 is out of range 500..1500",
         at("many_errors.yaml", 14, 7) + ": unknown key 'colour' in soc.clusters[0] (did you mean 'cores'?)",
         at("many_errors.yaml", 17, 7) + ": workload.tasks[0]: missing required key 'period_ms'",
         set_at(1, 14) + ": 'soc.clusters' has no item 'big' (have: solo)",
     }},
};
INSTANTIATE_TEST_SUITE_P(Overrides, ScenarioRefused, ::testing::ValuesIn(overrides_refused), name_of);

TEST(Overrides, LaterOverrideWins)
{
    loaded r = load(default_path, {"duration_s=5", "workload.tasks.ui.util_pct=40",
                                   "duration_s=7"});
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    EXPECT_DOUBLE_EQ(r.cfg.duration_s, 7);
    EXPECT_DOUBLE_EQ(r.cfg.workload.tasks[0].util_pct, 40);
}

TEST(Overrides, SocReferenceCanBeReplaced)
{
    loaded r = load(default_path, {"governor.freq_mhz={big: 1000}", "soc=" + data("soc_small.yaml")});
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    EXPECT_EQ(r.cfg.soc.name, "small");
    ASSERT_EQ(r.cfg.soc.clusters.size(), 2u);
    EXPECT_EQ(r.cfg.soc.clusters[1].name, "little");
}

TEST(Overrides, UnknownListItem)
{
    loaded by_name = load(default_path, {"soc.clusters.a16.cores=1"});
    EXPECT_FALSE(by_name.ok);
    EXPECT_EQ(by_name.errors,
              messages{set_at(1, 14) + ": 'soc.clusters' has no item 'a16' (have: a15, a7)"});

    loaded by_index = load(default_path, {"seed=2", "soc.clusters.2.cores=1"});
    EXPECT_FALSE(by_index.ok);
    EXPECT_EQ(by_index.errors,
              messages{set_at(2, 14) + ": 'soc.clusters' has no item '2' (have: a15, a7)"});
}

// ------------------------------------------------------------------------------------------
// Semantic checks (after a successful binding)

const refusal semantic_checks_refused[] = {
    {"OppsNotAscending",
     data("opps_not_ascending.yaml"),
     {},
     messages{at("opps_not_ascending.yaml", 10, 22) + ": soc.clusters[0].opps[1].freq_mhz: OPPs must be in strictly "
                                                      "ascending frequency order"}},
    {"DuplicateClusterName",
     data("duplicate_cluster.yaml"),
     {},
     messages{at("duplicate_cluster.yaml", 13, 13) + ": soc.clusters[1].name: cluster name 'solo' is used twice"}},
    {"GovernorNamesUnknownCluster",
     data("governor_unknown_cluster.yaml"),
     {},
     messages{at("governor_unknown_cluster.yaml", 4, 33) + ": governor.freq_mhz.medium: no cluster named 'medium'"}},
    {"GovernorFrequencyIsNotAnOpp",
     data("governor_not_an_opp.yaml"),
     {},
     messages{at("governor_not_an_opp.yaml", 5, 10) +
              ": governor.freq_mhz.big: 750 MHz is not an OPP of cluster 'big'"}},
    // cpu3 (the last of 2 + 2) is fine; cpu4 is not.
    {"TaskOnMissingCpu",
     data("task_bad_cpu.yaml"),
     {},
     messages{at("task_bad_cpu.yaml", 6, 30) +
              ": workload.tasks[1].cpus[0]: cpu4 does not exist (the SoC has 4 CPUs)"}},
    {"OverriddenValuesAreLocatedOnTheCommandLine",
     data("inline_soc.yaml"),
     {"soc.clusters.solo.boot_freq_mhz=500", "soc.clusters.0.opps.1.voltage_mv=850", "governor.freq_mhz.solo=450"},
     messages{set_at(1, 33) + ": soc.clusters[0].boot_freq_mhz: 500 MHz is not an OPP of cluster 'solo'",
              set_at(2, 34) + ": soc.clusters[0].opps[1].voltage_mv: voltage must not fall as "
                              "frequency rises",
              set_at(3, 24) + ": governor.freq_mhz.solo: 450 MHz is not an OPP of cluster 'solo'"}},
    // The A7's lowest cluster power, 2792 units (399.8 mW) at 400 MHz, is all static power by
    // the derivation; 1 mW more of shared-logic leakage is more than it has room for.
    {"ABusyClusterDrawsAtLeastItsIdlePower",
     default_path,
     {"soc.clusters.a7.leakage.shared_mw=96.9"},
     messages{std::string(BLSIM_SOURCE_DIR) +
              "/configs/soc/tc2.yaml:105:85: "
              "soc.clusters[1].opps[1].cluster_power_eas: busy at 400 MHz this cluster's "
              "shared logic draws 256.1 mW (the table's 399.8, less 3 cores' leakage), below "
              "the 256.8 mW it draws idle: its leakage and clock (leakage, clock_uw_per_mhz_v2) "
              "exceed what the table measured; lower them, or check the table"}},
    // The SRAM (64 KiB) over both GIC frames.
    {"DeviceWindowsMayNotOverlap",
     default_path,
     {"soc.sram.base=0x2c000000"},
     messages{set_at(1, 15) + ": soc.sram.base: [0x2c000000, 0x2c010000) overlaps "
                              "soc.gic.dist_base's [0x2c001000, 0x2c002000)",
              set_at(1, 15) + ": soc.sram.base: [0x2c000000, 0x2c010000) overlaps "
                              "soc.gic.cpu_base's [0x2c002000, 0x2c004000)"}},
    {"TaskNamesAreUnique",
     default_path,
     {"workload.tasks.1.name=ui"},
     messages{set_at(1, 23) + ": workload.tasks[1].name: task name 'ui' is used twice"}},
    {"AnSramTooSmallForTheSharedStateIsRefused",
     default_path,
     {"soc.sram.size_kb=1"},
     messages{set_at(1, 18) + ": soc.sram.size_kb: 1 is out of range 2..65536"}},
};
INSTANTIATE_TEST_SUITE_P(SemanticChecks, ScenarioRefused, ::testing::ValuesIn(semantic_checks_refused), name_of);

TEST(SemanticChecks, EasTablesOfALargerL2MustHaveRoomForItsLeakage)
{
    // a7 (512 KiB of L2 leaking 312.3 uW/KiB at 850 mV): tables measured with 8192 KiB would
    // contain 8192 x 0.3123 = 2558 mW of L2 leakage, far above any of their cluster powers:
    // the first OPP's, 2967 units (424.9 mW) at 350 MHz, is where the check stops.
    loaded r = load(default_path, {"soc.clusters.a7.eas_l2_kb=8192"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 27) +
                                 ": soc.clusters[1].eas_l2_kb: tables measured with 8192 KiB of L2 contain its "
                                 "leakage, 2558 mW at 350 MHz beside the shared logic's and the cores', more "
                                 "than the table's 424.9 mW: derive the leakage for that L2 (scripts/calibrate-power)"});
    // The C*V^2*f model does not use the tables' busy power; a smaller L2 in the tables adds
    // the difference's leakage to the busy cluster, which stays above the idle one.
    EXPECT_TRUE(load(default_path, {"soc.clusters.a7.eas_l2_kb=8192", "soc.energy.model=cv2f"}).ok);
    EXPECT_TRUE(load(default_path, {"soc.clusters.a7.eas_l2_kb=256"}).ok);
}

TEST(SemanticChecks, WhatTheKernelWouldRefuseIsRefusedAtLoad)
{
    // An A7 top OPP of 1100 MHz is 550 virtual MHz, above the A15's lowest (500): the
    // switcher's merged table would interleave, and bls_kernel_init would refuse it.
    loaded r = load(std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml",
                    {"soc.clusters.a7.opps.7.freq_mhz=1100"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 33) +
                                 ": soc.clusters[1].opps[7].freq_mhz: with the switcher, the little cluster's "
                                 "OPPs at half their frequency (up to 550 virtual MHz) must not pass the big "
                                 "cluster's (from 500 MHz): the cpufreq driver's merged table would interleave"});
    // Without the switcher the tables are separate: fine.
    EXPECT_TRUE(load(default_path, {"soc.clusters.a7.opps.7.freq_mhz=1100"}).ok);
}

TEST(SemanticChecks, NoDefaultStandsInForAPowerScaleOrLeakage)
{
    loaded r = load(data("missing_power_scale.yaml"));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors,
              messages({at("missing_power_scale.yaml", 6, 7) +
                            ": soc.clusters[0].eas_mw_per_unit: required: how many mW one of the cluster's EAS "
                            "units is (TC2: A15 0.1872, A7 0.1432; docs/calibration.md)",
                        at("missing_power_scale.yaml", 6, 7) +
                            ": soc.clusters[0].leakage: required: the cluster's static power while powered, "
                            "{shared_mw, core_mw, l2_uw_per_kb} at ref_mv (scripts/calibrate-power derives it "
                            "from the EAS tables; docs/calibration.md)"}));
    r = load(data("inline_soc.yaml"), {"soc.clusters.solo.cv2f={core_dyn_uw_per_mhz_v2: 100}"});
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.errors.size(), 1u); // the coefficient not given
    EXPECT_EQ(r.errors[0], set_at(1, 24) + ": soc.clusters[0].cv2f.cluster_dyn_uw_per_mhz_v2: required with "
                                           "soc.energy.model cv2f (docs/calibration.md)");
}

TEST(Limits, DeepNestingAndAliasBombsAreRefusedLocated)
{
    const std::string deep = ::testing::TempDir() + "deep.yaml";
    {
        std::ofstream out(deep);
        out << "name: x\nsoc: " << std::string(20000, '[') << "\n";
    }
    loaded r = load(deep);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{deep + ":2:69: lists and mappings nested deeper than 64 levels"});
    const std::string bomb = ::testing::TempDir() + "bomb.yaml";
    {
        std::ofstream out(bomb);
        out << "name: x\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
        for (int i = 1; i < 10; i++) {
            out << "a" << i << ": &a" << i << " [";
            for (int k = 0; k < 10; k++)
                out << (k ? ", " : "") << "*a" << i - 1;
            out << "]\n";
        }
    }
    r = load(bomb);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].find("the document expands to more than 100000 nodes"), std::string::npos) << r.errors[0];
    std::remove(deep.c_str());
    std::remove(bomb.c_str());
}

const refusal limits_refused[] = {
    {"AMessageIsOneLineWhateverTheValueHolds",
     default_path,
     {"duration_s=\"3\\n4\""},
     messages{set_at(1, 12) + ": duration_s: expected a number, got '3\\n4'"}},
};
INSTANTIATE_TEST_SUITE_P(Limits, ScenarioRefused, ::testing::ValuesIn(limits_refused), name_of);

TEST(SemanticChecks, ThePowerControllersInterruptMustBeImplemented)
{
    loaded r = load(default_path, {"soc.gic.spis=64"});
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].find(": soc.spc.irq: interrupt 127 is beyond the GIC's 96 (soc.gic.spis)"),
              std::string::npos)
        << r.errors[0];
}

// ------------------------------------------------------------------------------------------
// The effective configuration

// Writes the effective configuration of @c to a file and loads that file back.
loaded reload_effective(const scenario_config& c, const std::string& file_name)
{
    const std::string path = ::testing::TempDir() + file_name;
    {
        std::ofstream out(path, std::ios::binary);
        out << effective_yaml(c);
    }
    loaded r = load(path);
    std::remove(path.c_str());
    return r;
}

TEST(EffectiveConfig, RoundTrip)
{
    loaded first = load(default_path);
    ASSERT_TRUE(first.ok) << ::testing::PrintToString(first.errors);
    const std::string text = effective_yaml(first.cfg);
    EXPECT_NE(text.find("\n    boot_freq_mhz: 0\n"), std::string::npos) << "defaults are written too";

    loaded second = reload_effective(first.cfg, "blsim_config_test_effective.yaml");
    ASSERT_TRUE(second.ok) << ::testing::PrintToString(second.errors);
    EXPECT_EQ(effective_yaml(second.cfg), text);
}

// ------------------------------------------------------------------------------------------
// Regressions: loader bugs found by this suite, fixed.

const refusal regressions_refused[] = {
    // scenario.cpp: 'soc' is not a required key, so a scenario without one validates with an
    // empty SoC and blsim run then fails with "internal error: bls_kernel_init refused a
    // validated configuration: -22".
    {"ScenarioWithoutSocIsRejected",
     data("no_soc.yaml"),
     {},
     messages{at("no_soc.yaml", 1, 1) + ": document: missing required key 'soc'"}},
    // scenario.cpp read_source: a directory opens as an ifstream and reads as an empty file, so
    // the user is told about missing keys at "<dir>:1:1" instead of that it is not a file.
    {"DirectoryIsNotReadAsAnEmptyFile",
     std::string(BLSIM_TEST_DATA),
     {},
     messages{std::string(BLSIM_TEST_DATA) + ": cannot read: Is a directory"}},
    // config_node.cpp apply_override: errors of the value other than syntax errors (here a
    // duplicate key) keep their own location, relative to the internal "v: " wrapper, inside
    // the message: "--set:1:19: bad value: --set:1:15: duplicate key 'a15' (first at line 1)".
    {"BadOverrideValueIsLocatedOnce",
     default_path,
     {"governor.freq_mhz={a15: 800, a15: 900}"},
     messages{set_at(1, 19) + ": bad value: duplicate key 'a15' (first at line 1)"}},
};
INSTANTIATE_TEST_SUITE_P(Regressions, ScenarioRefused, ::testing::ValuesIn(regressions_refused), name_of);

// schema.h text(): strings are emitted as plain scalars, so an empty string (every optional
// string not given: description, core_type) is written as nothing and "null" as null; the
// effective configuration written with the results then does not load.
TEST(Regressions, EffectiveConfigRoundTripKeepsEmptyAndNullLookingStrings)
{
    loaded first = load(data("inline_soc.yaml"), {"soc.name=\"null\""});
    ASSERT_TRUE(first.ok) << ::testing::PrintToString(first.errors);
    ASSERT_EQ(first.cfg.description, "");
    ASSERT_EQ(first.cfg.soc.clusters[0].core_type, "");
    loaded second = reload_effective(first.cfg, "blsim_config_test_effective_strings.yaml");
    ASSERT_TRUE(second.ok) << ::testing::PrintToString(second.errors);
    EXPECT_EQ(effective_yaml(second.cfg), effective_yaml(first.cfg));
    EXPECT_EQ(second.cfg.soc.name, "null");
}

// config_node.cpp apply_override: a list index that does not fit in an unsigned long makes
// std::stoul throw; blsim prints "internal error: stoul" instead of a located message.
TEST(Regressions, HugeListIndexIsALocatedError)
{
    loaded r;
    EXPECT_NO_THROW(r = load(default_path, {"soc.clusters.99999999999999999999.cores=1"}));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 14) + ": 'soc.clusters' has no item "
                                                 "'99999999999999999999' (have: a15, a7)"});
}

// ------------------------------------------------------------------------------------------
// Building blocks

TEST(Diagnostics, ReadingOrder)
{
    diagnostics diag;
    EXPECT_TRUE(diag.ok());
    diag.error(mark{"--set", 2, 1}, "s2");
    diag.error(mark{"b.yaml", 9, 1}, "b9");
    diag.error(mark{"a.yaml", 3, 7}, "a3:7");
    diag.error(mark{"--set", 1, 5}, "s1:5");
    diag.error(mark{"b.yaml", 2, 4}, "b2");
    diag.error("no location");
    diag.error(mark{"a.yaml", 3, 2}, "a3:2");
    diag.error(mark{"--set", 1, 5}, "s1:5 again");
    EXPECT_FALSE(diag.ok());
    // Unlocated first; then files in the order they first appear in an error, each by line and
    // column; then the overrides by number and column; ties keep the order found.
    const messages expected{"no location",      "b.yaml:2:4: b2",        "b.yaml:9:1: b9",
                            "a.yaml:3:2: a3:2", "a.yaml:3:7: a3:7",      "--set:1:5: s1:5",
                            "--set:1:5: s1:5 again", "--set:2:1: s2"};
    EXPECT_EQ(diag.messages(), expected);
    std::string printed;
    for (const std::string& m : expected)
        printed += m + "\n";
    std::ostringstream os;
    diag.print(os);
    EXPECT_EQ(os.str(), printed);
}

TEST(EditDistance, Levenshtein)
{
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("abc", ""), 3u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("cores", "cores"), 0u);
    EXPECT_EQ(edit_distance("duraton_s", "duration_s"), 1u); // insertion
    EXPECT_EQ(edit_distance("corez", "cores"), 1u);          // substitution
    EXPECT_EQ(edit_distance("seeds", "seed"), 1u);           // deletion
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("sitting", "kitten"), 3u);
    EXPECT_EQ(edit_distance("ab", "ba"), 2u); // no transpositions
}

TEST(ClosestKey, PicksTheNearestFirstOnTies)
{
    const std::vector<std::string> known{"name", "cores", "core_type", "opps"};
    EXPECT_EQ(closest_key("corez", known), "cores");
    EXPECT_EQ(closest_key("core_typ", known), "core_type");
    EXPECT_EQ(closest_key("ops", known), "opps");
    EXPECT_EQ(closest_key("name", known), "name");
    // "nam" is 1 from both "name" and "nap": the first given wins.
    EXPECT_EQ(closest_key("nam", {"name", "nap"}), "name");
    EXPECT_EQ(closest_key("nam", {"nap", "name"}), "nap");
    // There is always a suggestion, however far (8 from name, opps and cores alike).
    EXPECT_EQ(closest_key("zzzzzzzz", known), "name");
    EXPECT_EQ(closest_key("anything", {}), "");
}

// A small tree, as parse_yaml would build from
//   duration_s: 60
//   clusters:
//     - {name: a15, cores: 2}
//     - {name: a7, cores: 3}
node small_tree()
{
    auto put = [](node& m, const std::string& key, node v) {
        m.keys.push_back(key);
        m.key_marks.push_back(mark{"t.yaml", v.at.line, 1});
        m.items.push_back(std::move(v));
    };
    node root = node::map(mark{"t.yaml", 1, 1});
    put(root, "duration_s", node::scalar("60", mark{"t.yaml", 1, 13}));
    node clusters;
    clusters.k = node::kind::seq;
    clusters.at = mark{"t.yaml", 3, 3};
    const std::pair<const char*, const char*> items[] = {{"a15", "2"}, {"a7", "3"}};
    int line = 3;
    for (const auto& [name, cores] : items) {
        node c = node::map(mark{"t.yaml", line, 5});
        put(c, "name", node::scalar(name, mark{"t.yaml", line, 12}));
        put(c, "cores", node::scalar(cores, mark{"t.yaml", line, 24}));
        clusters.items.push_back(std::move(c));
        line++;
    }
    put(root, "clusters", std::move(clusters));
    return root;
}

TEST(ApplyOverride, ReplacesAScalarAndLocatesIt)
{
    node root = small_tree();
    diagnostics diag;
    ASSERT_TRUE(apply_override(root, "duration_s=5", 3, diag));
    EXPECT_TRUE(diag.ok());
    const node* d = root.find("duration_s");
    ASSERT_NE(d, nullptr);
    EXPECT_TRUE(d->is_scalar());
    EXPECT_EQ(d->value, "5");
    EXPECT_TRUE(d->plain);
    EXPECT_EQ(d->at.str(), "--set:3:12");
    EXPECT_EQ(root.keys.size(), 2u); // replaced, not added
}

TEST(ApplyOverride, AddressesListItemsByNameAndIndex)
{
    node root = small_tree();
    diagnostics diag;
    ASSERT_TRUE(apply_override(root, "clusters.a7.cores=4", 1, diag));
    ASSERT_TRUE(apply_override(root, "clusters.0.cores=1", 2, diag));
    EXPECT_TRUE(diag.ok());
    const node& clusters = *root.find("clusters");
    EXPECT_EQ(clusters.items[0].find("cores")->value, "1");
    EXPECT_EQ(clusters.items[0].find("cores")->at.str(), "--set:2:18");
    EXPECT_EQ(clusters.items[1].find("cores")->value, "4");
    EXPECT_EQ(clusters.items[1].find("cores")->at.str(), "--set:1:19");
    EXPECT_EQ(clusters.items[1].find("name")->value, "a7");
}

TEST(ApplyOverride, CreatesMissingKeys)
{
    node root = small_tree();
    diagnostics diag;
    ASSERT_TRUE(apply_override(root, "governor.freq_mhz.a15=800", 1, diag));
    EXPECT_TRUE(diag.ok());
    ASSERT_EQ(root.keys.size(), 3u);
    EXPECT_EQ(root.keys[2], "governor");
    EXPECT_EQ(root.key_marks[2].str(), "--set:1:1");
    const node& gov = root.items[2];
    ASSERT_TRUE(gov.is_map());
    ASSERT_EQ(gov.keys, std::vector<std::string>{"freq_mhz"});
    EXPECT_EQ(gov.key_marks[0].str(), "--set:1:10");
    const node& freq = gov.items[0];
    ASSERT_TRUE(freq.is_map());
    ASSERT_EQ(freq.keys, std::vector<std::string>{"a15"});
    EXPECT_EQ(freq.key_marks[0].str(), "--set:1:19");
    EXPECT_EQ(freq.items[0].value, "800");
    EXPECT_EQ(freq.items[0].at.str(), "--set:1:23");
}

TEST(ApplyOverride, ValueIsYaml)
{
    node root = small_tree();
    diagnostics diag;
    ASSERT_TRUE(apply_override(root, "clusters.a15={name: big, cores: 4}", 1, diag));
    ASSERT_TRUE(apply_override(root, "duration_s=\"5\"", 2, diag));
    ASSERT_TRUE(apply_override(root, "clusters.1.name=", 3, diag));
    EXPECT_TRUE(diag.ok());

    const node& c0 = root.find("clusters")->items[0];
    ASSERT_TRUE(c0.is_map());
    EXPECT_EQ(c0.keys, (std::vector<std::string>{"name", "cores"}));
    EXPECT_EQ(c0.items[1].value, "4");
    // Every part of the value is located at the value.
    EXPECT_EQ(c0.at.str(), "--set:1:14");
    EXPECT_EQ(c0.key_marks[1].str(), "--set:1:14");
    EXPECT_EQ(c0.items[1].at.str(), "--set:1:14");

    const node* d = root.find("duration_s");
    EXPECT_EQ(d->value, "5");
    EXPECT_FALSE(d->plain); // quoted: a string, never a number

    const node& c1 = root.find("clusters")->items[1];
    EXPECT_TRUE(c1.find("name")->is_null());
    EXPECT_EQ(c1.find("name")->at.str(), "--set:3:17");
}

TEST(ApplyOverride, ErrorsLeaveTheTreeAlone)
{
    const struct {
        const char* assignment;
        const char* message;
    } cases[] = {
        {"duration_s", "--set:1:1: expected key=value, got 'duration_s'"},
        {"=5", "--set:1:1: expected key=value, got '=5'"},
        {"clusters..cores=1", "--set:1:10: empty component in key 'clusters..cores'"},
        {"duration_s.unit=s", "--set:1:12: 'duration_s' is a value, not a mapping"},
        {"clusters.a9.cores=1", "--set:1:10: 'clusters' has no item 'a9' (have: a15, a7)"},
        {"clusters.2.cores=1", "--set:1:10: 'clusters' has no item '2' (have: a15, a7)"},
        {"duration_s=[1, 2",
         "--set:1:12: bad value: YAML syntax error: did not find expected ',' or ']' (while "
         "parsing a flow sequence)"},
    };
    const std::string before = emit_yaml(small_tree());
    for (const auto& c : cases) {
        SCOPED_TRACE(c.assignment);
        node root = small_tree();
        diagnostics diag;
        EXPECT_FALSE(apply_override(root, c.assignment, 1, diag));
        EXPECT_EQ(diag.messages(), messages{c.message});
        EXPECT_EQ(emit_yaml(root), before);
    }
}

TEST(ParseYaml, KeepsMarksAndScalarStyles)
{
    diagnostics diag;
    node root;
    ASSERT_TRUE(parse_yaml("a: 1\nb: 'x'\nc:\nd: [~, null, 2]\ne: &x {f: 3}\ng: *x\n", "m.yaml",
                           root, diag));
    EXPECT_TRUE(diag.ok());
    ASSERT_EQ(root.keys, (std::vector<std::string>{"a", "b", "c", "d", "e", "g"}));
    EXPECT_EQ(root.at.str(), "m.yaml:1:1");
    EXPECT_EQ(root.key_marks[1].str(), "m.yaml:2:1");
    EXPECT_EQ(root.items[0].at.str(), "m.yaml:1:4");
    EXPECT_TRUE(root.items[0].plain);
    EXPECT_EQ(root.items[1].value, "x");
    EXPECT_FALSE(root.items[1].plain);
    EXPECT_TRUE(root.items[2].is_null());
    const node& d = root.items[3];
    ASSERT_TRUE(d.is_seq());
    ASSERT_EQ(d.items.size(), 3u);
    EXPECT_TRUE(d.items[0].is_null());
    EXPECT_TRUE(d.items[1].is_null());
    EXPECT_EQ(d.items[2].value, "2");
    EXPECT_EQ(d.items[2].at.str(), "m.yaml:4:14");
    // An alias is a copy of its anchor, marks included.
    const node& g = root.items[5];
    ASSERT_TRUE(g.is_map());
    EXPECT_EQ(g.find("f")->value, "3");
    EXPECT_EQ(g.find("f")->at.str(), "m.yaml:5:11");
}

TEST(EmitYaml, BlockMappingsFlowRecordsAndLists)
{
    diagnostics diag;
    node root;
    ASSERT_TRUE(parse_yaml("a: 1\nb: [x, 'y']\nc: {d: 2}\ne:\n  - {f: 1}\n", "m.yaml", root, diag));
    EXPECT_EQ(emit_yaml(root), "a: 1\nb: [x, \"y\"]\nc: {d: 2}\ne:\n- {f: 1}\n");
}

} // namespace

// ------------------------------------------------------------------------------------------
// Workloads and hotplug (docs/workloads.md)

const std::string scenarios = BLSIM_SOURCE_DIR "/configs/scenarios/";

TEST(Workloads, TheFourBbenchScenariosLoad)
{
    for (const char* f : {"bbench-iks-default.yaml", "bbench-iks-tuned.yaml", "bbench-2xa15.yaml", "bbench-2xa7.yaml"}) {
        loaded r = load(scenarios + f);
        ASSERT_TRUE(r.ok) << f << ::testing::PrintToString(r.errors);
        EXPECT_EQ(r.cfg.workload.kind, "bbench");
        EXPECT_TRUE(r.cfg.workload.audio.enabled);
    }
    EXPECT_EQ(load(scenarios + "bbench-2xa7.yaml").cfg.online_cpus, (std::vector<int>{2, 3}));
}

const refusal workloads_refused[] = {
    {"HotplugIsCheckedAgainstTheSocAndTheSwitcher",
     scenarios + "bbench-2xa7.yaml",
     {"online_cpus=[2, 7, 2]", "mode=iks", "workload.bbench.cpus=[0, 1]", "workload.audio.cpus=[4]"},
     messages{
         set_at(1, 13) + ": online_cpus[1]: cpu7 does not exist (the SoC has 5 CPUs)",
         set_at(1, 13) + ": online_cpus[2]: cpu2 is listed twice",
         set_at(1, 13) + ": online_cpus: CPU hotplug is for runs without the switcher "
                         "(mode smp, hmp or eas, in mode_changes too, and no switcher.activity)",
         set_at(3, 22) + ": workload.bbench.cpus: the browser may run only on offline CPUs (online_cpus)",
         set_at(4, 21) + ": workload.audio.cpus: the music player may run only on offline CPUs (online_cpus)",
         set_at(4, 21) + ": workload.audio.cpus[0]: cpu4 does not exist (the SoC has 2 logical CPUs "
                         "with the switcher on)",
     }},
    {"EachKindTakesOnlyItsOwnKeys",
     scenarios + "bbench-iks-tuned.yaml",
     {"workload.tasks=[{name: a, util_pct: 10, period_ms: 10}]", "workload.rtapp_json=x.json"},
     messages{
         set_at(1, 16) + ": workload.tasks: only with kind: constant (this workload is bbench)",
         set_at(2, 21) + ": workload.rtapp_json: only with kind: rtapp (this workload is bbench)",
     }},
    {"AReplayTraceIsCheckedRowByRow",
     default_path,
     {"workload.kind=replay", "workload.tasks=[]", "workload.replay.csv=" + data("replay_bad.csv")},
     messages{
         data("replay_bad.csv") + ":6:8: 'x' is not a number in 0..100",
         data("replay_bad.csv") + ":7:1: task 'web': rows go in time order; 100 ms is before "
                                  "its previous 500 ms",
     }},
    {"AnRtAppFileThatCannotBeReadIsReportedWhereItIsNamed",
     default_path,
     {"workload.kind=rtapp", "workload.tasks=[]", "workload.rtapp_json=/nonexistent-blsim/x.json"},
     messages{set_at(3, 21) + ": cannot read rt-app file '/nonexistent-blsim/x.json': No such file "
                              "or directory"}},
};
INSTANTIATE_TEST_SUITE_P(Workloads, ScenarioRefused, ::testing::ValuesIn(workloads_refused), name_of);

TEST(Workloads, AReplayTraceBecomesPeriodicTasksWithUtilisationSteps)
{
    loaded r = load(default_path, {"workload.kind=replay", "workload.tasks=[]",
                                   "workload.replay.csv=" + data("replay_ok.csv"), "workload.replay.pin_cpus=true"});
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    const auto& t = r.cfg.workload.replay_tasks;
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t[0].name, "web");
    EXPECT_EQ(t[0].cpus, (std::vector<int>{0}));
    EXPECT_DOUBLE_EQ(t[0].period_ms, 10);
    ASSERT_EQ(t[0].util_steps.size(), 2u);
    EXPECT_DOUBLE_EQ(t[0].util_steps[1].at_ms, 500);
    EXPECT_DOUBLE_EQ(t[0].util_steps[1].util_pct, 0);
    EXPECT_EQ(t[1].name, "bg");
    EXPECT_EQ(t[1].cpus, (std::vector<int>{2}));
}

// ------------------------------------------------------------------------------------------
// The big.LITTLE modes (mode, mode_changes, hmp)

TEST(Modes, TheModeAtBootIsSmpUnlessSaidAndTheIksScenariosSayIks)
{
    loaded d = load(default_path);
    ASSERT_TRUE(d.ok) << ::testing::PrintToString(d.errors);
    EXPECT_EQ(d.cfg.mode, "smp");
    EXPECT_TRUE(d.cfg.mode_changes.empty());
    EXPECT_EQ(blsim::soc::logical_cpus(d.cfg), 5);
    for (const char* f : {"bbench-iks-default.yaml", "bbench-iks-tuned.yaml", "governor-steps.yaml",
                          "rtapp-periodic.yaml", "switch-pingpong.yaml", "switcher-onoff.yaml"}) {
        loaded r = load(scenarios + f);
        ASSERT_TRUE(r.ok) << f << ::testing::PrintToString(r.errors);
        EXPECT_EQ(r.cfg.mode, "iks") << f;
        EXPECT_EQ(blsim::soc::logical_cpus(r.cfg), 2) << f; // the pairs
    }
    for (const char* f : {"bbench-2xa15.yaml", "bbench-2xa7.yaml", "rtapp-pipeline.yaml"})
        EXPECT_EQ(load(scenarios + f).cfg.mode, "smp") << f;
    // The key it replaces is gone.
    loaded old = load(default_path, {"switcher.enabled=true"});
    EXPECT_FALSE(old.ok);
    EXPECT_EQ(old.errors, messages{set_at(1, 10) + ": unknown key 'enabled' in switcher (did you mean 'pairing'?)"});
}

TEST(Modes, EveryModeIsAChoiceByName)
{
    for (const char* m : {"smp", "iks", "cluster-migration", "hmp", "eas"}) {
        loaded r = load(default_path, {std::string("mode=") + m, "governor.name=performance", "governor.freq_mhz={}",
                                       "workload.tasks.0.cpus=[0]", "workload.tasks.1.cpus=[1]",
                                       "workload.tasks.2.cpus=[0]", "workload.tasks.3.cpus=[1]"});
        ASSERT_TRUE(r.ok) << m << ::testing::PrintToString(r.errors);
        EXPECT_EQ(r.cfg.mode, m);
        EXPECT_EQ(blsim::soc::kernel_mode_of(m) != 0, true) << m;
        EXPECT_STREQ(blsim::soc::mode_name(blsim::soc::kernel_mode_of(m)), m);
        EXPECT_EQ(blsim::soc::mode_switched(m), std::string(m) == "iks" || std::string(m) == "cluster-migration") << m;
    }
    EXPECT_EQ(blsim::soc::kernel_mode_of("big.LITTLE"), 0u);
    EXPECT_EQ(blsim::soc::mode_name(0), nullptr);
    loaded r = load(default_path, {"mode=mp"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 6) + ": mode: expected one of smp, iks, cluster-migration, hmp, eas, got 'mp'"});
}

TEST(Modes, ModeChangesAreTimedModesInOrder)
{
    loaded r = load(default_path, {"mode_changes=[{at_ms: 100, mode: hmp}, {at_ms: 200, mode: eas}, {at_ms: 250, mode: smp}]"});
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    ASSERT_EQ(r.cfg.mode_changes.size(), 3u);
    EXPECT_DOUBLE_EQ(r.cfg.mode_changes[1].at_ms, 200);
    EXPECT_EQ(r.cfg.mode_changes[1].mode, "eas");

    r = load(default_path, {"mode_changes=[{at_ms: 300, mode: hmp}, {at_ms: 200, mode: eas}, {at_ms: 100}, {mode: smp}]"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(1, 14) + ": mode_changes[2]: missing required key 'mode'",
                                  set_at(1, 14) + ": mode_changes[3]: missing required key 'at_ms'"}));
    r = load(default_path, {"mode_changes=[{at_ms: 300, mode: hmp}, {at_ms: 200, mode: eas}]"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 14) + ": mode_changes[1].at_ms: changes go in time order; 200 ms is "
                                                 "before the previous 300 ms"});
}

const refusal modes_refused[] = {
    {"ModeErrorsInAFileAreLocatedWhereTheyAreWritten",
     data("modes_bad.yaml"),
     {},
     messages{
         at("modes_bad.yaml", 6, 3) + ": mode_changes: not together with switcher.activity (on is "
                                      "mode iks, off mode smp: give those changes in mode_changes)",
         at("modes_bad.yaml", 7, 13) + ": mode_changes[1].at_ms: changes go in time order; 200 ms "
                                       "is before the previous 300 ms",
         at("modes_bad.yaml", 10, 19) + ": hmp.down_threshold: 650 must be below up_threshold (600)",
     }},
    {"ModeChangesAndTheSwitchersActivityDoNotMix",
     scenarios + "switcher-onoff.yaml",
     {"mode_changes=[{at_ms: 600, mode: cluster-migration}]"},
     messages{set_at(1, 14) + ": mode_changes: not together with switcher.activity (on is mode "
                              "iks, off mode smp: give those changes in mode_changes)"}},
    // cpu2 exists under SMP, not as a logical CPU of the switcher's two pairs.
    {"TasksStayOnLogicalCpusThatExistInEveryModeOfTheRun",
     default_path,
     {"mode_changes=[{at_ms: 500, mode: cluster-migration}]"},
     messages{
         default_path + ":22:29: workload.tasks[2].cpus[0]: cpu2 does not exist (the SoC has 2 "
                        "logical CPUs with the switcher on)",
         default_path + ":23:29: workload.tasks[3].cpus[0]: cpu3 does not exist (the SoC has 2 "
                        "logical CPUs with the switcher on)",
     }},
};
INSTANTIATE_TEST_SUITE_P(Modes, ScenarioRefused, ::testing::ValuesIn(modes_refused), name_of);

TEST(Modes, ASwitchedModeNeedsTwoClustersWhereverItIsNamed)
{
    loaded r = load(data("inline_soc.yaml"), {"mode=iks", "mode_changes=[{at_ms: 1, mode: smp}, {at_ms: 2, mode: cluster-migration}]"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(1, 6) + ": mode: iks runs the switcher, which pairs the CPUs of two clusters; "
                                                 "the SoC has 1",
                                  set_at(2, 14) + ": mode_changes[1].mode: cluster-migration runs the switcher, which "
                                                  "pairs the CPUs of two clusters; the SoC has 1"}));
    // HMP sorts tasks between two clusters as well; EAS places them on one as well as on two.
    r = load(data("inline_soc.yaml"), {"soc.energy.model=eas", "mode=hmp"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(2, 6) + ": mode: hmp sorts tasks between a big and a little cluster; the SoC has 1"});
    EXPECT_TRUE(load(data("inline_soc.yaml"), {"mode=eas"}).ok);
}

TEST(Topologies, AThirdClusterNeedsAnInterconnectWithAThirdAceInterface)
{
    // The CCI-400 (the default) has two ACE interfaces: the third cluster is refused where it
    // is written, with the way out.
    loaded r = load(data("three_clusters.yaml"));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{at("three_clusters.yaml", 31, 7) +
                                 ": soc.clusters[2].cci_port: the CCI-400 has 2 ACE interfaces; cluster 3 cannot be "
                                 "made coherent (soc.cci.model: cci-550 has six)"});
    // A CCI-550 serves them at S0, S1, S2 in order; a CCI-500 only on its four ACE interfaces.
    r = load(data("three_clusters.yaml"), {"soc.cci.model=cci-550"});
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    EXPECT_EQ(r.cfg.soc.clusters[0].cci_port, 0);
    EXPECT_EQ(r.cfg.soc.clusters[2].cci_port, 2);
    r = load(data("three_clusters.yaml"), {"soc.cci.model=cci-500", "soc.clusters.big.cci_port=5"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(2, 27) + ": soc.clusters[2].cci_port: S5 is not an ACE interface of the "
                                                "CCI-500; clusters need one of S0, S1, S2 or S3"});
    r = load(data("three_clusters.yaml"), {"soc.cci.model=cci-550", "soc.clusters.big.cci_port=1"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(2, 27) + ": soc.clusters[2].cci_port: CCI slave interface S1 serves "
                                                "another cluster already"});
}

TEST(Topologies, TheModesThatMakeSenseOnThreeClusters)
{
    // The switcher pairs two clusters' CPUs: refused where the mode is named. HMP (a fast and a
    // slow domain) and EAS place tasks on any number of clusters.
    loaded r = load(data("three_clusters.yaml"), {"soc.cci.model=cci-550", "mode=iks"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(2, 6) + ": mode: iks runs the switcher, which pairs the CPUs of two "
                                                "clusters; the SoC has 3"});
    EXPECT_TRUE(load(data("three_clusters.yaml"), {"soc.cci.model=cci-550", "mode=hmp"}).ok);
    EXPECT_TRUE(load(data("three_clusters.yaml"), {"soc.cci.model=cci-550", "mode=eas"}).ok);
    // Nine cores are more than the GIC-400's eight CPU interfaces.
    r = load(data("three_clusters.yaml"), {"soc.cci.model=cci-550", "soc.clusters.big.cores=2"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{at("three_clusters.yaml", 9, 5) +
                                 ": soc.clusters: 9 cores; the GIC-400 serves at most 8 (GICv2's eight CPU interfaces)"});
}

TEST(Modes, EasNeedsTheSocsEasTables)
{
    loaded r = load(default_path, {"soc.clusters.a7.opps.0.core_power_eas=0",
                                   "mode_changes=[{at_ms: 10, mode: hmp}, {at_ms: 20, mode: eas}, {at_ms: 30, mode: eas}]"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(2, 14) + ": mode_changes[1].mode: eas places tasks by the SoC's EAS energy "
                                                 "model; soc.clusters[1].opps[0].core_power_eas is 0 (every OPP's "
                                                 "must be above 0)"});
    r = load(default_path, {"soc.clusters.a15.opps.0.core_power_eas=0", "mode=eas"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(2, 6) + ": mode: eas places tasks by the SoC's EAS energy model; "
                                                "soc.clusters[0].opps[0].core_power_eas is 0 (every OPP's must be above 0)"});
    // Other modes do without.
    EXPECT_TRUE(load(default_path, {"soc.clusters.a15.opps.0.core_power_eas=0", "mode=hmp"}).ok);
}

TEST(Modes, HotplugIsForModesWithoutTheSwitcherAllRunLong)
{
    EXPECT_TRUE(load(scenarios + "bbench-2xa15.yaml", {"mode=hmp", "mode_changes=[{at_ms: 10, mode: eas}]"}).ok);
    loaded r = load(scenarios + "bbench-2xa15.yaml", {"mode_changes=[{at_ms: 10, mode: hmp}, {at_ms: 20, mode: iks}]"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{scenarios + "bbench-2xa15.yaml:11:14: online_cpus: CPU hotplug is for runs "
                                             "without the switcher (mode smp, hmp or eas, in mode_changes too, and "
                                             "no switcher.activity)"});
}

TEST(Modes, AFrequencyWriteIsCheckedInTheModeAtBootOrOfItsTime)
{
    // SMP at boot, the writes real OPPs (a15 1000, a7 800); IKS from 100 ms, where a write may
    // name a virtual frequency (400: the A7 at 800 MHz).
    const std::vector<std::string> smp_then_iks = {
        "mode_changes=[{at_ms: 100, mode: iks}]", "workload.tasks.2.cpus=[0]", "workload.tasks.3.cpus=[1]"};
    std::vector<std::string> o = smp_then_iks;
    o.push_back("governor.setspeed=[{at_ms: 50, cpu: 0, freq_mhz: 1000}, {at_ms: 200, cpu: 0, freq_mhz: 400}]");
    loaded r = load(default_path, o);
    EXPECT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    // Before the change 400 is no OPP of cpu0's cluster; after it, 1300 is neither a virtual
    // frequency nor an OPP of cpu1's cluster (SMP at boot).
    o = smp_then_iks;
    o.push_back("governor.setspeed=[{at_ms: 50, cpu: 0, freq_mhz: 400}, {at_ms: 200, cpu: 1, freq_mhz: 1300}]");
    r = load(default_path, o);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(4, 19) + ": governor.setspeed[0].freq_mhz: 400 MHz is not an OPP of the "
                                                  "CPU's cluster",
                                  set_at(4, 19) + ": governor.setspeed[1].freq_mhz: 1300 MHz is not in the "
                                                  "switcher's virtual frequency table"}));
}

TEST(Modes, TheHmpTunablesHaveLinarosDefaultsAndTheirThresholdsAnOrder)
{
    loaded d = load(default_path);
    ASSERT_TRUE(d.ok);
    const blsim::soc::hmp_config& h = d.cfg.hmp;
    EXPECT_EQ(h.up_threshold, 700);
    EXPECT_EQ(h.down_threshold, 512);
    EXPECT_EQ(h.load_avg_period_ms, 32);
    EXPECT_EQ(h.up_interval_us, 4194);
    EXPECT_EQ(h.down_interval_us, 4194);
    EXPECT_TRUE(h.fork_to_big && h.wake_migration && h.forced_up_migration && h.idle_pull && h.offload);
    EXPECT_FALSE(h.prio_filter);
    EXPECT_EQ(h.prio_filter_nice, 5);
    EXPECT_FALSE(h.packing);
    EXPECT_EQ(h.packing_limit, 650);

    loaded r = load(default_path, {"hmp.down_threshold=700"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 20) + ": hmp.down_threshold: 700 must be below up_threshold (700)"});
    // Located at the threshold given.
    r = load(default_path, {"hmp.up_threshold=400"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 18) + ": hmp.down_threshold: 512 must be below up_threshold (400)"});
    r = load(default_path, {"hmp={up_threshold: 1024, load_avg_period_ms: 0, prio_filter_nice: 20, packing_limit: 1025}"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(1, 5) + ": hmp.up_threshold: 1024 is out of range 0..1023",
                                  set_at(1, 5) + ": hmp.load_avg_period_ms: 0 is out of range 1..1000",
                                  set_at(1, 5) + ": hmp.prio_filter_nice: 20 is out of range -20..19",
                                  set_at(1, 5) + ": hmp.packing_limit: 1025 is out of range 0..1024"}));
}

TEST(Modes, TheEffectiveConfigurationKeepsTheModesAndTunables)
{
    loaded first = load(default_path, {"mode=eas", "mode_changes=[{at_ms: 100, mode: hmp}, {at_ms: 250.5, mode: smp}]",
                                       "hmp.packing=true", "hmp.up_interval_us=0"});
    ASSERT_TRUE(first.ok) << ::testing::PrintToString(first.errors);
    const std::string text = effective_yaml(first.cfg);
    EXPECT_NE(text.find("\nmode: eas\n"), std::string::npos) << text;
    loaded second = reload_effective(first.cfg, "blsim_config_test_effective_modes.yaml");
    ASSERT_TRUE(second.ok) << ::testing::PrintToString(second.errors);
    EXPECT_EQ(effective_yaml(second.cfg), text);
    ASSERT_EQ(second.cfg.mode_changes.size(), 2u);
    EXPECT_DOUBLE_EQ(second.cfg.mode_changes[1].at_ms, 250.5);
    EXPECT_EQ(second.cfg.mode_changes[1].mode, "smp");
    EXPECT_TRUE(second.cfg.hmp.packing);
    EXPECT_EQ(second.cfg.hmp.up_interval_us, 0);
}

// ------------------------------------------------------------------------------------------
// Governor generations and the cpuidle governors (docs/os.md)

TEST(Governors, EachInteractiveGenerationHasItsOwnDefaultsUnlessAKeyIsGiven)
{
    loaded d = load(default_path, {"governor.name=interactive"});
    ASSERT_TRUE(d.ok) << ::testing::PrintToString(d.errors);
    EXPECT_EQ(d.cfg.governor.interactive.variant, "2013");
    EXPECT_EQ(d.cfg.governor.interactive.go_hispeed_load_pct, 99);
    EXPECT_FALSE(d.cfg.governor.interactive.io_is_busy);
    loaded v = load(default_path, {"governor.name=interactive", "governor.interactive.variant=2012"});
    ASSERT_TRUE(v.ok) << ::testing::PrintToString(v.errors);
    EXPECT_EQ(v.cfg.governor.interactive.go_hispeed_load_pct, 85);
    EXPECT_EQ(v.cfg.governor.interactive.min_sample_time_us, 80000);
    loaded g = load(default_path, {"governor.interactive.go_hispeed_load_pct=95", "governor.interactive.variant=2012"});
    ASSERT_TRUE(g.ok) << ::testing::PrintToString(g.errors);
    EXPECT_EQ(g.cfg.governor.interactive.go_hispeed_load_pct, 95);
}

TEST(Governors, TheTunablesA2012InteractiveLacksAreRefusedWhereTheyAreWritten)
{
    loaded r = load(data("interactive_2012_bad.yaml"));
    EXPECT_FALSE(r.ok);
    const std::string none = "the 2012 generation of interactive has no tunable ";
    EXPECT_EQ(r.errors,
              (messages{at("interactive_2012_bad.yaml", 8, 19) + ": governor.interactive.target_loads: " + none +
                            "'target_loads' (variant 2013 has)",
                        at("interactive_2012_bad.yaml", 9, 21) + ": governor.interactive.timer_slack_us: " + none +
                            "'timer_slack_us' (variant 2013 has)",
                        at("interactive_2012_bad.yaml", 10, 17) + ": governor.interactive.io_is_busy: " + none +
                            "'io_is_busy' (variant 2013 has)",
                        at("interactive_2012_bad.yaml", 12, 59) + ": " + none + "'boostpulse_duration_us' (variant 2013 has)",
                        at("interactive_2012_bad.yaml", 13, 44) +
                            ": variant is the interactive governor's generation, not a sysfs file: it is not "
                            "written during the run"}));
    // A scenario that sets one, run as 2012 from the command line: located in the scenario.
    const std::string tuned = BLSIM_SOURCE_DIR "/configs/scenarios/bbench-iks-tuned.yaml";
    loaded t = load(tuned, {"governor.interactive.variant=2012"});
    EXPECT_FALSE(t.ok);
    EXPECT_EQ(t.errors, messages{tuned + ":27:19: governor.interactive.target_loads: " + none +
                                 "'target_loads' (variant 2013 has)"});
}

TEST(Governors, The2012EffectiveConfigurationLeavesOutWhatItLacksAndLoadsBack)
{
    loaded first = load(default_path, {"governor.name=interactive", "governor.interactive.variant=2012",
                                       "cpuidle.governor=ladder", "cpuidle.menu.version=3.13"});
    ASSERT_TRUE(first.ok) << ::testing::PrintToString(first.errors);
    const std::string text = effective_yaml(first.cfg);
    EXPECT_EQ(text.find("target_loads"), std::string::npos) << text;
    EXPECT_EQ(text.find("io_is_busy"), std::string::npos) << text;
    EXPECT_NE(text.find("go_hispeed_load_pct: 85\n"), std::string::npos) << text;
    EXPECT_NE(text.find("governor: ladder\n"), std::string::npos) << text;
    loaded second = reload_effective(first.cfg, "blsim_config_test_effective_2012.yaml");
    ASSERT_TRUE(second.ok) << ::testing::PrintToString(second.errors);
    EXPECT_EQ(effective_yaml(second.cfg), text);
    EXPECT_EQ(second.cfg.cpuidle.menu.version, "3.13");
}

TEST(Governors, TheCpuidleGovernorAndMenuVersionAreChoices)
{
    loaded d = load(default_path);
    ASSERT_TRUE(d.ok);
    EXPECT_EQ(d.cfg.cpuidle.governor, "menu");
    EXPECT_EQ(d.cfg.cpuidle.menu.version, "3.10");
    loaded r = load(default_path, {"cpuidle.governor=teo", "cpuidle.menu.version=3.12"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(1, 18) + ": cpuidle.governor: expected one of menu, ladder, got 'teo'",
                                  set_at(2, 22) + ": cpuidle.menu.version: expected one of 3.10, 3.13, got '3.12'"}));
}

// ------------------------------------------------------------------------------------------
// Injected faults (docs/hardware.md, "Fault injection")

TEST(Faults, NoneByDefaultAndTheEffectiveConfigurationDoesNotMentionThem)
{
    loaded r = load(default_path);
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    EXPECT_FALSE(r.cfg.faults.any());
    EXPECT_DOUBLE_EQ(r.cfg.faults.power_up_fail.timeout_us, 50);
    EXPECT_DOUBLE_EQ(r.cfg.faults.cci_stuck.stuck_us, 2000);
    // Runs without faults write the effective configuration they always did.
    EXPECT_EQ(effective_yaml(r.cfg).find("\nfaults:"), std::string::npos);
}

TEST(Faults, EveryKindTakesItsTriggerAndTheEffectiveConfigurationKeepsIt)
{
    loaded r = load(default_path, {"faults.power_up_fail={probability_pct: 2.5, timeout_us: 80}",
                                   "faults.wakeup_lost.at_s=[0.3, 0.1]", "faults.cci_stuck.stuck_us=1500",
                                   "faults.spurious_irq.interval_us=1000", "faults.dvfs_fail.at_s=[0]"});
    ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
    const blsim::model::fault_params& f = r.cfg.faults;
    EXPECT_DOUBLE_EQ(f.power_up_fail.probability_pct, 2.5);
    EXPECT_DOUBLE_EQ(f.power_up_fail.timeout_us, 80);
    EXPECT_EQ(f.wakeup_lost.at_s, (std::vector<double>{0.3, 0.1})); // as given: sorted when used
    using blsim::model::fault_kind;
    EXPECT_TRUE(f.configured(fault_kind::power_up_fail));
    EXPECT_TRUE(f.configured(fault_kind::wakeup_lost));
    EXPECT_FALSE(f.configured(fault_kind::cci_stuck)); // a duration alone makes nothing fail
    EXPECT_TRUE(f.configured(fault_kind::spurious_irq));
    EXPECT_TRUE(f.configured(fault_kind::dvfs_fail)); // a time of 0 is a time
    const std::string text = effective_yaml(r.cfg);
    EXPECT_NE(text.find("\nfaults:\n  power_up_fail:\n    probability_pct: 2.5\n    at_s: []\n    timeout_us: 80\n"),
              std::string::npos)
        << text;
    loaded second = reload_effective(r.cfg, "blsim_config_test_effective_faults.yaml");
    ASSERT_TRUE(second.ok) << ::testing::PrintToString(second.errors);
    EXPECT_EQ(effective_yaml(second.cfg), text);
}

const refusal faults_refused[] = {
    {"BadKeysAreLocatedWhereTheyAreWritten",
     data("faults_bad.yaml"),
     {},
     messages{
         at("faults_bad.yaml", 5, 36) + ": faults.power_up_fail.probability_pct: 150 is out of range 0..100",
         at("faults_bad.yaml", 5, 53) + ": faults.power_up_fail.at_s[1]: -1 is out of range 0..1000000",
         at("faults_bad.yaml", 5, 70) + ": faults.power_up_fail.timeout_us: expected a number, got 'soon'",
         at("faults_bad.yaml", 6, 17) +
             ": unknown key 'probabilty_pct' in faults.wakeup_lost (did you mean 'probability_pct'?)",
         at("faults_bad.yaml", 7, 14) + ": faults.cci_stuck: expected a mapping, got '4'",
         at("faults_bad.yaml", 8, 42) + ": faults.spurious_irq.at_s: expected a list, got '3'",
     }},
};
INSTANTIATE_TEST_SUITE_P(Faults, ScenarioRefused, ::testing::ValuesIn(faults_refused), name_of);

TEST(Faults, OverridesAreCheckedAsFilesAre)
{
    loaded r = load(default_path, {"faults.dvfs_fail.probability_pct=100.5", "faults.cci_stuck.at_s=[1, x]",
                                   "faults.spurious_irq.interval_us=-1"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{
                            set_at(1, 34) + ": faults.dvfs_fail.probability_pct: 100.5 is out of range 0..100",
                            set_at(2, 23) + ": faults.cci_stuck.at_s[1]: expected a number, got 'x'",
                            set_at(3, 33) + ": faults.spurious_irq.interval_us: -1 is out of range 0..1000000000",
                        }));
    // Spurious interrupts every few nanoseconds would be all the run simulates.
    r = load(default_path, {"faults.spurious_irq.interval_us=0.5"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 33) + ": faults.spurious_irq.interval_us: 0.5 us is below 1 us (0: no "
                                                 "spurious interrupts at random)"});
}

// ------------------------------------------------------------------------------------------
// Input that used to pass validation and stop the run (issue 24): each refused, located.

// Every workload's affinity names CPUs that exist in every mode of the run: with the switcher
// on at any time (the mode, or a change to it), only the paired logical CPUs (TC2: 2).
TEST(Issue24, EveryWorkloadsAffinityIsCheckedAgainstEveryModeOfTheRun)
{
    const std::string src = BLSIM_SOURCE_DIR;
    // rt-app threads: at the CPU in the JSON file.
    loaded r = load(src + "/configs/scenarios/rtapp-pipeline.yaml", {"mode=iks"});
    EXPECT_FALSE(r.ok);
    const std::string json = src + "/configs/rtapp/mutex-pipeline.json";
    EXPECT_EQ(r.errors, (messages{json + ":39:14: tasks.consumer.cpus[0]: cpu2 does not exist (the SoC has 2 logical CPUs with the switcher on)",
                                  json + ":39:17: tasks.consumer.cpus[1]: cpu3 does not exist (the SoC has 2 logical CPUs with the switcher on)",
                                  json + ":39:20: tasks.consumer.cpus[2]: cpu4 does not exist (the SoC has 2 logical CPUs with the switcher on)"}));
    // ... and inline, with the switcher turned on later by a mode change.
    r = load(default_path, {"workload.kind=rtapp", "workload.tasks=[]",
                            "workload.rtapp={tasks: {t: {cpus: [0, 3], run: 1000, sleep: 1000}}}",
                            "mode_changes=[{at_ms: 100, mode: cluster-migration}]"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(3, 16) + ": workload.rtapp.tasks.t.cpus[1]: cpu3 does not "
                                                               "exist (the SoC has 2 logical CPUs with the switcher on)"}));
    // The browser and the music player, at their keys.
    r = load(default_path, {"workload.kind=bbench", "workload.tasks=[]", "workload.bbench.cpus=[1, 4]",
                            "workload.audio.enabled=true", "workload.audio.cpus=[2]", "mode=iks"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(3, 22) + ": workload.bbench.cpus[1]: cpu4 does not exist (the SoC has 2 "
                                                      "logical CPUs with the switcher on)",
                                  set_at(5, 21) + ": workload.audio.cpus[0]: cpu2 does not exist (the SoC has 2 "
                                                      "logical CPUs with the switcher on)"}));
    // Replayed tasks pinned by the trace's cpu column: at the cell.
    r = load(default_path, {"workload.kind=replay", "workload.tasks=[]", "workload.replay.csv=" + data("replay_ok.csv"),
                            "workload.replay.pin_cpus=true", "mode_changes=[{at_ms: 10, mode: iks}]"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{data("replay_ok.csv") + ":3:9: task 'bg' is pinned (workload.replay.pin_cpus) to "
                                                          "cpu2, which does not exist (the SoC has 2 logical CPUs "
                                                          "with the switcher on)"}));
    // Unpinned, or without the switcher, the same trace runs.
    EXPECT_TRUE(load(default_path, {"workload.kind=replay", "workload.tasks=[]",
                                    "workload.replay.csv=" + data("replay_ok.csv"), "mode=iks"})
                    .ok);
    EXPECT_TRUE(load(src + "/configs/scenarios/rtapp-pipeline.yaml", {"mode=hmp"}).ok);
}

const refusal issue24_refused[] = {
    // A busy core's power grows with frequency; the cluster's measured power need not (TC2's A7
    // table dips), and is bounded as before.
    {"ABusyCoresPowerThatFallsWithFrequencyIsRefused",
     default_path,
     {"soc.clusters.0.opps.3.core_power_eas=10"},
     messages{set_at(1, 38) + ": soc.clusters[0].opps[3].core_power_eas: a busy core's power must not fall as "
                              "frequency rises: 10 at 800 MHz is below opps[2]'s 2756 at 700 MHz"}},
    {"TwoModeChangesAtOneInstantAreRefused",
     default_path,
     {"mode_changes=[{at_ms: 100, mode: hmp}, {at_ms: 200, mode: eas}, {at_ms: 200, mode: smp}]"},
     messages{set_at(1, 14) + ": mode_changes[2].at_ms: two changes at one instant (200 ms, as "
                              "mode_changes[1]); keep one"}},
};
INSTANTIATE_TEST_SUITE_P(Issue24, ScenarioRefused, ::testing::ValuesIn(issue24_refused), name_of);

TEST(Issue24, TheMusicPlayersTasksCountBesideEveryKinds)
{
    std::string tasks = "workload.tasks=[";
    for (int i = 0; i < BLS_MAX_TASKS - 1; i++)
        tasks += (i ? ", " : "") + std::string("{name: t") + std::to_string(i) + ", util_pct: 1, period_ms: 10}";
    loaded r = load(default_path, {tasks + "]", "workload.audio.enabled=true"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, (messages{set_at(2, 24) + ": workload.audio.enabled: 4095 constant tasks and the music "
                                                  "player's 2; the kernel runs at most 4096 tasks"}));
    r = load(default_path, {tasks + "]"});
    EXPECT_TRUE(r.ok) << ::testing::PrintToString(r.errors);
}

TEST(Issue24, YamlTagsAreRefusedNotIgnored)
{
    for (const char* text : {"name: x\nduration_s: !!str 5\n", "name: !foo x\n", "tasks: !!seq [1]\n",
                             "m: !!map {a: 1}\n"}) {
        diagnostics d;
        node root;
        EXPECT_FALSE(parse_yaml(text, "t.yaml", root, d)) << text;
        ASSERT_EQ(d.messages().size(), 1u) << text;
    }
    diagnostics d;
    node root;
    parse_yaml("name: x\nduration_s: !!str 5\n", "t.yaml", root, d);
    EXPECT_EQ(d.messages(), messages{"t.yaml:2:13: YAML tag '!!str' is not supported: write the value alone (its "
                                     "key's type decides how it is read)"});
    d = diagnostics{};
    parse_yaml("name: !foo x\n", "t.yaml", root, d);
    EXPECT_EQ(d.messages(), messages{"t.yaml:1:7: YAML tag '!foo' is not supported: write the value alone (its "
                                     "key's type decides how it is read)"});
    loaded r = load(default_path, {"duration_s=!!float 5"});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors, messages{set_at(1, 12) + ": bad value: YAML tag '!!float' is not supported: write the value alone (its "
                                                 "key's type decides how it is read)"});
}
