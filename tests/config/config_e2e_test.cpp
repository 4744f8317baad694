// tests/config/config_e2e_test.cpp -- the configuration through blsim: every shipped scenario's
// effective configuration runs again to the same results, and docs/config.md is the schema's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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
using blsim_test::slurp;

// --- effective-config.yaml runs again (issue 24, class 9) -------------------------------------

TEST_F(run_test, every_shipped_scenarios_effective_config_reruns_to_the_same_results)
{
    const std::vector<fs::path> scenarios = blsim_test::shipped_scenarios();
    for (const fs::path& sc : scenarios) {
        const fs::path first = dir / (sc.stem().string() + "-1"), again = dir / (sc.stem().string() + "-2");
        result r = blsim("run -q --set duration_s=0.3 --out " + first.string() + " " + sc.string());
        ASSERT_EQ(r.status, 0) << sc << r.err;
        r = blsim("run -q --out " + again.string() + " " + (first / "effective-config.yaml").string());
        ASSERT_EQ(r.status, 0) << sc << r.err;
        json a = json::parse(slurp(first / "summary.json")), b = json::parse(slurp(again / "summary.json"));
        a.erase("host"); // wall-clock time and memory
        b.erase("host");
        EXPECT_EQ(a, b) << sc;
        EXPECT_EQ(slurp(first / "switches.csv"), slurp(again / "switches.csv")) << sc;
        EXPECT_EQ(slurp(first / "effective-config.yaml"), slurp(again / "effective-config.yaml")) << sc;
    }
}

TEST_F(run_test, docs_config_reference_is_generated_from_the_schema)
{
    result r = blsim("config-reference");
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.out, slurp(fs::path(BLSIM_SOURCE_DIR) / "docs" / "config.md"))
        << "docs/config.md is stale: regenerate it with 'build/blsim config-reference > docs/config.md'";
}

} // namespace
