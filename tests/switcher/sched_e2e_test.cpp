// tests/switcher/sched_e2e_test.cpp -- the scheduler in whole runs (docs/os.md): CFS's shares,
// NOHZ, its check of lost tasks, real-time throttling, SCHED_DEADLINE and task groups.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

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
using blsim_test::rtapp_scenario;

TEST_F(run_test, two_busy_tasks_share_a_cpu_by_their_nice_levels)
{
    // Two tasks that never sleep on cpu0, nice 0 and nice 5: the slice timer shares the CPU
    // 1024 : 336, 75.3 % and 24.7 % (the scheduler's figures; docs/os.md). With 5 CPUs online
    // the times scale by 1 + log2(5) -> 3: an 18 ms period, slices of 13.55 and 4.45 ms, about
    // 111 switches in 1 s. (The running task's last stretch is accounted at its next
    // scheduling point: the sum is a slice short of 1 s at most.)
    result r = blsim("run -q --out " + dir.string() + " " + scenario("default.yaml") + " --set duration_s=1 --set governor.name=userspace"
                     " --set 'workload.tasks=[{name: a, cpus: [0], util_pct: 100, period_ms: 10},"
                     " {name: b, cpus: [0], nice: 5, util_pct: 100, period_ms: 10}]'");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "summary.json"));
    const double a = s["tasks"]["a"]["runtime_s"].get<double>(), b = s["tasks"]["b"]["runtime_s"].get<double>();
    EXPECT_NEAR(a + b, 1.0, 0.014);
    EXPECT_NEAR(a / (a + b), 1024.0 / 1360, 0.01);
    EXPECT_NEAR(s["tasks"]["b"]["wait_s"].get<double>(), a, 0.014);
    EXPECT_NEAR(s["sched"]["context_switches"].get<double>(), 111, 3);
}

TEST_F(run_test, a_busy_cpu_with_one_task_sees_no_timer_interrupt)
{
    // NOHZ: one task that never sleeps (its jobs overrun their period: each next one is
    // released already), nothing else with a deadline anywhere, a governor that never
    // samples: not one timer interrupt in the run.
    result r = blsim("run -q --out " + dir.string() + " " + scenario("default.yaml") + " --set duration_s=0.5 --set governor.name=userspace"
                     " --set 'workload.tasks=[{name: hog, cpus: [0], util_pct: 100, period_ms: 10}]'");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["sched"]["timer_irqs"], 0);
    EXPECT_EQ(s["sched"]["context_switches"], 1); // at boot, from idle
    EXPECT_GT(s["residency_s"]["cores"]["cpu0"]["on"].get<double>(), 0.499);
}

TEST_F(run_test, a_task_lost_by_the_scheduler_stops_the_run_at_the_next_scheduling_point)
{
    // Halfway (500 ms), a sleeping task moved to cpu2, which no logical CPU runs under IKS:
    // it would never be woken. The kernel's check at the next scheduling point names it so.
    const std::string scenario = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    result r = blsim_hooked("run " + scenario + " --inject-bug task-lost --out " + dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.rfind("blsim: internal error: check failed at 0.50", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("\"no task lost: each is on an online run queue that counts it\" "
                         "(switcher/src/kernel/kernel.c:"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
}

// Issue 25: real-time threads under IKS. Both CPUs use up their real-time runtime (950 ms of
// the first second) with real-time work still queued: each must idle until its period ends (it
// used to find its queue non-empty and reschedule at the same instant for ever), then run on.
// The lowest-priority FIFO hog, throttled each second, gets 950 ms of each of the first ones.
TEST_F(run_test, cpus_whose_real_time_tasks_are_throttled_idle_until_the_period_ends)
{
    const fs::path cfg = rtapp_scenario(dir, "rt", "iks", "1.5", "data/rtapp-rt-mix.json");
    result r = blsim("run -q " + cfg.string() + " --out " + dir.string());
    fs::remove(cfg);
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_GT(s["tasks"]["fifo-3"]["runtime_s"].get<double>(), 0.5);
}

// Issue 25: SCHED_DEADLINE threads, end to end, under IKS (two logical CPUs) and HMP (five).
// The hog reserves 10 ms of every 100 ms and wants more: in the second it runs exactly its ten
// jobs' 100 ms, whatever else runs. The yielding thread ends each 5 ms job after 100 us of work
// and is woken a period later: 20 jobs. (Under IKS this also found a balance tick, due while one
// task was queued, programmed again when a task that left in between came back: allowed once.)
TEST_F(run_test, deadline_threads_get_their_runtime_every_period_and_no_more)
{
    for (const char* mode : {"iks", "hmp"}) {
        const fs::path cfg = rtapp_scenario(dir, "dl", mode, "1", "data/rtapp-dl.json");
        result r = blsim("run -q " + cfg.string() + " --out " + dir.string() + " --force");
        fs::remove(cfg);
        ASSERT_EQ(r.status, 0) << mode << ": " << r.err;
        const json s = json::parse(slurp(dir / "summary.json"));
        EXPECT_NEAR(s["tasks"]["dl_hog-0"]["runtime_s"].get<double>(), 0.1, 1e-6) << mode;
        EXPECT_EQ(s["perf"]["rtapp"]["dl_yield-2"]["loops"], 20) << mode;
    }
}

// Admission is checked against the CPUs the run keeps: two 0.5-CPU threads fit HMP's five
// CPUs at 95 %, and four do not fit IKS's two logical CPUs (1.9).
TEST_F(run_test, deadline_admission_is_checked_against_the_runs_cpus)
{
    const fs::path json = dir.string() + "-adm.json";
    std::ofstream(json) << R"({"tasks": {"t": {"instance": 4, "policy": "SCHED_DEADLINE", "dl-runtime": 50000,
        "dl-period": 100000, "run": 1000, "sleep": 1000}}})";
    const fs::path cfg = dir.string() + "-adm.yaml";
    std::ofstream(cfg) << "name: adm\nsoc: " << BLSIM_SOURCE_DIR << "/configs/soc/tc2.yaml\nmode: iks\n"
                       << "duration_s: 0.05\nworkload:\n  kind: rtapp\n  rtapp_json: " << json.string() << "\n";
    result r = blsim("run " + cfg.string() + " --out " + dir.string());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, json.string() + ":1:12: tasks.t: admission control refuses it (sched_setattr: EBUSY): with it "
                                     "the SCHED_DEADLINE threads reserve 2.000 CPUs, more than 95% of each of the 2 "
                                     "logical CPUs with the switcher on (sched.rt_runtime_us of sched.rt_period_us; "
                                     "-1 lifts the limit)\n");
    EXPECT_FALSE(fs::exists(dir));
    r = blsim("run -q " + cfg.string() + " --out " + dir.string() + " --set mode=hmp");
    EXPECT_EQ(r.status, 0) << r.err;
    fs::remove(cfg);
    fs::remove(json);
}

// Issue 25: rt-app's taskgroups are CFS groups: on one CPU a task alone in its group gets as
// much as the three of another group together (1 s: 0.5 s, and 0.167 s each), and the
// scenario's workload.rtapp_taskgroups sets a group's cpu.shares.
TEST_F(run_test, taskgroups_share_the_cpu_by_group_then_by_task)
{
    const fs::path cfg = rtapp_scenario(dir, "tg", "hmp", "1", "data/rtapp-taskgroups.json");
    result r = blsim("run -q " + cfg.string() + " --out " + dir.string());
    fs::remove(cfg);
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_NEAR(s["tasks"]["a-0"]["runtime_s"].get<double>(), 0.5, 0.01);
    for (const char* b : {"b-1", "b-2", "b-3"})
        EXPECT_NEAR(s["tasks"][b]["runtime_s"].get<double>(), 0.5 / 3, 0.01) << b;
    // /a at 512 shares against /b's 1024: a third of the CPU, and two ninths for each b.
    const fs::path cfg2 = rtapp_scenario(dir, "tg2", "hmp", "1", "data/rtapp-taskgroups.json");
    r = blsim("run -q " + cfg2.string() + " --out " + dir.string() +
              " --force --set 'workload.rtapp_taskgroups=[{path: /a, shares: 512}]'");
    fs::remove(cfg2);
    ASSERT_EQ(r.status, 0) << r.err;
    const json t = json::parse(slurp(dir / "summary.json"));
    EXPECT_NEAR(t["tasks"]["a-0"]["runtime_s"].get<double>(), 1.0 / 3, 0.01);
    for (const char* b : {"b-1", "b-2", "b-3"})
        EXPECT_NEAR(t["tasks"][b]["runtime_s"].get<double>(), 2.0 / 9, 0.01) << b;
}

} // namespace
