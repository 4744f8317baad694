// tests/common/e2e.h -- what the tests of whole runs share (tests/cli/run_test.cpp and each
// subject's *_e2e_test.cpp): blsim and blsim-test run as a user runs them, the shipped
// scenarios, a scratch directory per test, and the results' files read back.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "shell.h"

namespace blsim_test {

// configs/scenarios/@file in the source tree.
inline std::string scenario(const std::string& file)
{
    return std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/" + file;
}

// Every shipped scenario (configs/scenarios/*.yaml), sorted; at least 20 of them.
inline std::vector<std::filesystem::path> shipped_scenarios()
{
    std::vector<std::filesystem::path> scenarios;
    for (const auto& e : std::filesystem::directory_iterator(std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios"))
        if (e.path().extension() == ".yaml")
            scenarios.push_back(e.path());
    std::sort(scenarios.begin(), scenarios.end());
    EXPECT_GE(scenarios.size(), 20u);
    return scenarios;
}

// Runs blsim with @args (already shell-quoted where needed); @env: assignments for its
// environment ("NAME=value ").
inline result blsim(const std::string& args, const std::string& env = "")
{
    return shell(env + std::string(BLSIM_BINARY) + " " + args);
}

// The test build's binary, with --inject-bug and --mutant (soc/cli/test_hooks.h).
inline result blsim_hooked(const std::string& args)
{
    return shell(std::string(BLSIM_TEST_BINARY) + " " + args);
}

// A test of whole runs, in "<TMPDIR>/blsim-run-test-<pid>-<test name>", which does not exist
// when the test starts (blsim makes its --out).
class run_test : public scratch_test {
protected:
    run_test() : scratch_test("run-test") {}
};

// The rows of a CSV text, each its cells.
inline std::vector<std::vector<std::string>> csv_rows(const std::string& text)
{
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::size_t from = 0;
        for (std::size_t comma; (comma = line.find(',', from)) != std::string::npos; from = comma + 1)
            cells.push_back(line.substr(from, comma - from));
        cells.push_back(line.substr(from)); // the last cell, empty after a trailing comma
        rows.push_back(cells);
    }
    return rows;
}

// A CSV row's cells by column name.
struct csv_table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    explicit csv_table(const std::string& text)
    {
        auto all = csv_rows(text);
        header = all.at(0);
        rows.assign(all.begin() + 1, all.end());
    }
    const std::string& cell(std::size_t row, const std::string& column) const
    {
        auto it = std::find(header.begin(), header.end(), column);
        EXPECT_NE(it, header.end()) << column;
        return rows.at(row).at(static_cast<std::size_t>(it - header.begin()));
    }
    double num(std::size_t row, const std::string& column) const { return std::stod(cell(row, column)); }
};

// The total energy of the run whose results are in @dir.
inline double total_energy_of(const std::filesystem::path& dir)
{
    return nlohmann::json::parse(slurp(dir / "summary.json"))["energy_j"]["total"].get<double>();
}

// A scenario beside @dir running rt-app file @json (under tests/) on TC2 in @mode (none: the
// default) for @duration; the test removes it.
inline std::filesystem::path rtapp_scenario(const std::filesystem::path& dir, const std::string& name,
                                            const std::string& mode, const std::string& duration,
                                            const std::string& json)
{
    const std::filesystem::path cfg = dir.string() + "-" + name + ".yaml";
    std::ofstream(cfg) << "name: " << name << "\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\n"
                       << (mode.empty() ? "" : "mode: " + mode + "\n") << "duration_s: " << duration
                       << "\nworkload:\n  kind: rtapp\n  rtapp_json: " << BLSIM_SOURCE_DIR << "/tests/" << json << "\n";
    return cfg;
}

} // namespace blsim_test
