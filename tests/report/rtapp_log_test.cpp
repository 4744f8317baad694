// tests/report/rtapp_log_test.cpp -- blsim run --rtapp-log: rt-app's per-thread log files, as a
// user (or LISA, or an awk script) reads them (docs/results.md, "rt-app's log").
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using blsim_test::blsim, blsim_test::result, blsim_test::simulated, blsim_test::slurp;

const std::string periodic = std::string(BLSIM_SOURCE_DIR) + "/tests/data/rtapp-log-periodic.yaml";
const std::string shipped = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/rtapp-periodic.yaml";

const std::string header = "#idx     perf      run   period           start             end          rel_st      slack "
                           "c_duration   c_period     wu_lat";

// A log's rows, each its 11 whitespace-separated columns as numbers (the header checked).
std::vector<std::vector<long long>> rows_of(const fs::path& log)
{
    std::istringstream in(slurp(log));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, header) << log;
    std::vector<std::vector<long long>> rows;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::vector<long long> row;
        for (long long v; ls >> v;)
            row.push_back(v);
        EXPECT_TRUE(ls.eof()) << line;
        EXPECT_EQ(row.size(), 11u) << line;
        rows.push_back(row);
    }
    return rows;
}

class rtapp_log_test : public blsim_test::scratch_test {
protected:
    rtapp_log_test() : scratch_test("rtapp-log-test") {}
};

// Worked by hand (tests/data/rtapp-log-periodic.yaml): run 2000 us then a relative 10000 us
// timer, alone on cpu0, an A15 at 1200 MHz (the reference CPU at its top OPP: a run of 2000 us
// takes 2000 us), idle in WFI only. The use case starts when the boot hands the thread its
// first step, t0 (about 6 us: the boot's register accesses). Each timer's wake-up is t0 + k x
// 10000 us; the thread runs again L later: WFI's 1 us exit, then the timer interrupt taken and
// the switch to the thread (a few hundred ns), so that L rounds to 1 us. From the second
// period on, a period goes from one such wake-up to the next:
//   perf 2000 (2000 us at 1 ns per loop), run 2000, period 10000, slack 10000 - 2000 - L:
//   7999 (L above 0.5 us), c_duration 2000, c_period 10000, wu_lat 1.
// The first period starts at t0 itself (rel_st 0) and ends at the first wake-up: period
// 10000 + L (10001); its slack, 8000 - (its run's extra, the first switch-in's few hundred ns),
// rounds to 8000 or 7999.
TEST_F(rtapp_log_test, a_periodic_threads_columns_are_rt_apps_worked_out_by_hand)
{
    result r = blsim("run --out " + dir.string() + " " + periodic + " --rtapp-log " + (dir / "rtapp").string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("rt-app log: 1 file in " + (dir / "rtapp").string() + "\n"), std::string::npos) << r.out;
    const auto rows = rows_of(dir / "rtapp" / "rt-app-p-0.log");
    // 100 ms simulated: nine whole periods; the tenth, begun at t0 + 90 ms + L, is not over.
    ASSERT_EQ(rows.size(), 9u);
    const long long t0 = rows[0][4];
    EXPECT_GE(t0, 1);
    EXPECT_LE(t0, 20);
    enum { idx, perf, run, period, start, end, rel_st, slack, c_duration, c_period, wu_lat };
    EXPECT_EQ(rows[0][rel_st], 0);
    EXPECT_EQ(rows[0][period], 10001);
    EXPECT_GE(rows[0][slack], 7999);
    EXPECT_LE(rows[0][slack], 8000);
    EXPECT_GE(rows[0][run], 2000);
    EXPECT_LE(rows[0][run], 2001);
    for (std::size_t k = 0; k < rows.size(); k++) {
        const auto& row = rows[k];
        EXPECT_EQ(row[idx], 0) << k;
        EXPECT_EQ(row[perf], 2000) << k;
        EXPECT_EQ(row[c_duration], 2000) << k;
        EXPECT_EQ(row[c_period], 10000) << k;
        EXPECT_EQ(row[wu_lat], 1) << k;
        EXPECT_EQ(row[end] - row[start], row[period]) << k;
        EXPECT_EQ(row[start] - t0, row[rel_st]) << k;
        if (k == 0)
            continue;
        EXPECT_EQ(row[start], rows[k - 1][end]) << k; // one period begins where the last ended
        EXPECT_EQ(row[rel_st], 10000 * static_cast<long long>(k) + 1) << k;
        EXPECT_EQ(row[run], 2000) << k;
        EXPECT_EQ(row[period], 10000) << k;
        EXPECT_EQ(row[slack], 7999) << k;
    }
}

// Issue 25: an output option never changes what is simulated. rt-app's periodic.json (three
// threads, log_basename "periodic") run without the log, with it inside the results set and
// with it in a directory of its own: the same results to the byte (but summary.json's list of
// files), the same log bytes both times, one file per thread.
TEST_F(rtapp_log_test, the_log_changes_nothing_simulated_and_is_the_same_bytes_each_time)
{
    const std::string set = " " + shipped + " --set duration_s=1";
    ASSERT_EQ(blsim("run -q --out " + (dir / "none").string() + set).status, 0);
    result in = blsim("run -q --out " + (dir / "in").string() + " --rtapp-log " + (dir / "in" / "rtapp").string() + set);
    ASSERT_EQ(in.status, 0) << in.err;
    result apart = blsim("run -q --out " + (dir / "apart").string() + " --rtapp-log " + (dir / "logs").string() + set);
    ASSERT_EQ(apart.status, 0) << apart.err;
    EXPECT_EQ(in.out + apart.out, "");

    const std::string base = simulated(dir / "none" / "summary.json");
    EXPECT_EQ(simulated(dir / "in" / "summary.json"), base);
    EXPECT_EQ(simulated(dir / "apart" / "summary.json"), base);
    for (const char* f : {"effective-config.yaml", "switches.csv"}) {
        EXPECT_EQ(slurp(dir / "in" / f), slurp(dir / "none" / f)) << f;
        EXPECT_EQ(slurp(dir / "apart" / f), slurp(dir / "none" / f)) << f;
    }
    const std::vector<std::string> logs = {"periodic-background-1.log", "periodic-background-2.log",
                                           "periodic-periodic-0.log"};
    EXPECT_EQ(json::parse(slurp(dir / "in" / "summary.json"))["files"],
              json({"effective-config.yaml", "rtapp/" + logs[0], "rtapp/" + logs[1], "rtapp/" + logs[2],
                    "switches.csv"}));
    EXPECT_EQ(json::parse(slurp(dir / "apart" / "summary.json"))["files"], json({"effective-config.yaml", "switches.csv"}));
    std::vector<std::string> listed;
    for (const auto& e : fs::directory_iterator(dir / "logs"))
        listed.push_back(e.path().filename().string());
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, logs);
    for (const std::string& l : logs) {
        EXPECT_EQ(slurp(dir / "logs" / l), slurp(dir / "in" / "rtapp" / l)) << l;
        EXPECT_GT(rows_of(dir / "logs" / l).size(), 10u) << l;
    }
    // The timer thread's rows: its 16 ms period (absolute timer), its 4000 us of run; the
    // background threads' (2000 us then an 18 ms sleep): no timer, no slack.
    for (const auto& row : rows_of(dir / "logs" / logs[2])) {
        EXPECT_EQ(row[0], 0);
        EXPECT_EQ(row[8], 4000);
        EXPECT_EQ(row[9], 16000);
    }
    for (const auto& row : rows_of(dir / "logs" / logs[0])) {
        EXPECT_EQ(row[0], 1);
        EXPECT_EQ(row[7], 0);
        EXPECT_EQ(row[8], 2000);
        EXPECT_EQ(row[9], 0);
        EXPECT_GE(row[3], 20000); // 2000 us of work and the 18000 us sleep, at least
    }
}

// Bad input: exit status 2, a message naming the problem, nothing written.
TEST_F(rtapp_log_test, bad_input_is_refused_before_the_simulation)
{
    const std::string out = " --out " + (dir / "out").string();
    result r = blsim("run" + out + " " + std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/default.yaml --rtapp-log " +
                     (dir / "logs").string());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --rtapp-log: scenario 'tc2-default' runs a workload of kind constant, not rtapp: it "
                     "has no rt-app log\n");
    r = blsim("run" + out + " " + periodic + " --rtapp-log");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --rtapp-log needs a directory\n(see 'blsim --help')\n");
    // A directory of its own must be absent or empty, as --out.
    fs::create_directories(dir / "logs");
    blsim_test::shell("touch " + (dir / "logs" / "old.log").string());
    r = blsim("run" + out + " " + periodic + " --rtapp-log " + (dir / "logs").string());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --rtapp-log " + (dir / "logs").string() +
                         ": not empty (an earlier run's results?); give a new directory, or --force to replace its "
                         "contents with this run's\n");
    // One that would hold the results directory.
    r = blsim("run --out " + (dir / "logs" / "out").string() + " " + periodic + " --rtapp-log " + dir.string() + "/logs/");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "blsim: --rtapp-log " + dir.string() + "/logs/: holds the results directory --out " +
                         (dir / "logs" / "out").string() + "; give a directory beside it, or inside it\n");
    EXPECT_FALSE(fs::exists(dir / "out"));
    EXPECT_FALSE(fs::exists(dir / "logs" / "out"));
}

} // namespace
