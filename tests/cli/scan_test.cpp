// tests/cli/scan_test.cpp -- every documented key of the configuration, scanned: each runs
// right or is refused.
//
// For every number and integer key (from the schema itself: docs/config.md's table), the
// shipped switch-pingpong scenario runs with the key at the bottom and the top of its
// documented range, and just outside both; choices and booleans with each option and one
// that is none. Each run must end in exit status 0, with its invariants holding (a violated
// one exits 1) and a complete result set, or in exit status 2 with every message located as
// file:line:col. A crash, a hang (each run has a wall-clock bound), an internal error, or an
// unlocated refusal fails the test. Deterministic: the variations are the schema's.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "blsim/soc/scenario.h"
#include "shell.h"

namespace {

namespace fs = std::filesystem;
using blsim_test::slurp;

struct outcome {
    int status = -1;
    std::string err;
};

outcome run(const std::string& args, const fs::path& err)
{
    // 60 s of wall clock at most: a documented value must not hang a sweep.
    const std::string cmd = "timeout 60 " + std::string(BLSIM_BINARY) + " run -q " + args + " 2>" + err.string();
    outcome o;
    const int st = std::system(cmd.c_str());
    o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    o.err = slurp(err);
    return o;
}

// A key's path for --set: list items ("[]") become item 0.
std::string concrete(std::string key)
{
    for (std::size_t at; (at = key.find("[]")) != std::string::npos;)
        key.replace(at, 2, ".0");
    return key;
}

std::string number(double v, bool integer)
{
    if (integer)
        return std::to_string(static_cast<long long>(v));
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
}

// The values to try for one documented key.
std::vector<std::string> variations(const blsim::cfg::doc_row& row)
{
    std::vector<std::string> v;
    if (row.type == "integer" || row.type == "number") {
        const std::size_t dots = row.range.find("..");
        if (dots == std::string::npos)
            return v;
        const double lo = std::stod(row.range.substr(0, dots)), hi = std::stod(row.range.substr(dots + 2));
        const bool integer = row.type == "integer";
        const double step_lo = integer ? 1 : std::max(std::fabs(lo) * 1e-3, 1e-9);
        const double step_hi = integer ? 1 : std::max(std::fabs(hi) * 1e-3, 1e-9);
        v = {number(lo, integer), number(lo - step_lo, integer), number(hi + step_hi, integer)};
        // The top of the range, except for the run's length (the scan keeps runs short).
        if (row.key != "duration_s")
            v.push_back(number(hi, integer));
    } else if (row.type == "boolean") {
        v = {"true", "false", "maybe"};
    } else if (row.type == "choice") {
        std::string r = row.range;
        for (std::size_t at; (at = r.find(", ")) != std::string::npos; r = r.substr(at + 2))
            v.push_back(r.substr(0, at));
        v.push_back(r);
        v.push_back("no-such-choice");
    }
    return v;
}

TEST(scan, every_documented_key_runs_right_or_is_refused_located)
{
    const fs::path dir = fs::temp_directory_path() / ("blsim-scan-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const fs::path err = dir.string() + ".err";
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    const std::regex located(R"(^(--set|[^:\n]+):[0-9]+:[0-9]+: [^\n]+$)");
    int runs = 0, accepted = 0, refused = 0;
    for (const blsim::cfg::doc_row& row : blsim::soc::config_reference_rows()) {
        // Keys of the scenario's own lists that it does not have (the activity list, the mode
        // changes) would create items with only one field: refused, located, which says little.
        if (row.key.rfind("switcher.activity", 0) == 0 || row.key.rfind("mode_changes", 0) == 0)
            continue;
        for (const std::string& value : variations(row)) {
            const std::string set = concrete(row.key) + "=" + value;
            fs::remove_all(dir);
            const outcome o = run(scenario + " --out " + dir.string() + " --set duration_s=0.2 --set '" + set + "'", err);
            runs++;
            SCOPED_TRACE(set);
            if (o.status == 0) {
                accepted++;
                EXPECT_TRUE(fs::exists(dir / "summary.json"));
                if (!fs::exists(dir / "summary.json"))
                    continue;
                const nlohmann::json s = nlohmann::json::parse(slurp(dir / "summary.json"));
                EXPECT_GE(s["energy_j"]["total"].get<double>(), 0);
            } else {
                refused++;
                EXPECT_EQ(o.status, 2) << o.err;
                if (o.status != 2)
                    continue;
                std::istringstream lines(o.err);
                std::string line;
                int n = 0;
                while (std::getline(lines, line)) {
                    n++;
                    EXPECT_TRUE(std::regex_match(line, located)) << line;
                }
                EXPECT_GT(n, 0);
                EXPECT_FALSE(fs::exists(dir / "summary.json"));
            }
        }
    }
    fs::remove_all(dir);
    fs::remove(err);
    EXPECT_GT(runs, 200);
    EXPECT_GT(accepted, 50);
    EXPECT_GT(refused, 50);
    std::printf("scan: %d runs, %d accepted, %d refused\n", runs, accepted, refused);
}

} // namespace
