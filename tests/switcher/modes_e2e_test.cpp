// tests/switcher/modes_e2e_test.cpp -- the big.LITTLE modes in whole runs (docs/modes.md): each
// interval of a tour accounted, HMP's and EAS's task moves, cluster migration's groups, IKS to HMP
// and back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
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
using blsim_test::csv_table;

TEST_F(run_test, a_run_through_every_mode_accounts_each_interval_and_they_add_up)
{
    // configs/scenarios/mode-tour.yaml: IKS, then HMP at 1.2 s, EAS at 2.2 s, cluster migration
    // at 3.2 s, SMP at 4.2 s.
    result r = blsim("run " + scenario("mode-tour.yaml") + " --out " + dir.string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\nmodes: iks 0.000-1.200 s "), std::string::npos) << r.out;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["mode"], "iks"); // the mode at the start
    const json& iv = s["mode_intervals"];
    ASSERT_EQ(iv.size(), 5u) << s.dump(1);
    const std::vector<std::string> modes = {"iks", "hmp", "eas", "cluster-migration", "smp"};
    const std::vector<double> at = {0, 1.2, 2.2, 3.2, 4.2};
    double energy = 0, last_end = 0;
    std::uint64_t switches = 0, migrations = 0;
    for (std::size_t i = 0; i < iv.size(); i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(iv[i]["mode"], modes[i]);
        const double start = iv[i]["start_s"], end = iv[i]["end_s"], e = iv[i]["energy_j"];
        // Each interval starts where the one before ended, when the kernel took the request
        // (its doorbell, the lead CPU's wake-up from an idle state: within 2 ms).
        EXPECT_DOUBLE_EQ(start, last_end);
        EXPECT_GE(start, at[i]);
        EXPECT_LT(start, at[i] + 2e-3);
        EXPECT_GT(end, start);
        EXPECT_GT(e, 0);
        EXPECT_NEAR(iv[i]["avg_power_mw"].get<double>(), e / (end - start) * 1e3, 1e-9 * e / (end - start) * 1e3);
        energy += e;
        last_end = end;
        switches += iv[i]["switches"].get<std::uint64_t>();
        migrations += iv[i]["migrations"].get<std::uint64_t>();
    }
    EXPECT_DOUBLE_EQ(last_end, s["sim_time_s"].get<double>());
    // The intervals' energies add up to the total (the run checks it as an invariant, too).
    EXPECT_NEAR(energy, s["energy_j"]["total"].get<double>(), 1e-9 * s["energy_j"]["total"].get<double>());
    // Every switch was requested in one of them, every migration happened in one.
    EXPECT_EQ(switches, s["switches"]["count"].get<std::uint64_t>());
    EXPECT_EQ(migrations, s["migrations"]["count"].get<std::uint64_t>());
    // Under HMP tasks move between the clusters, not under IKS or SMP (the switcher moves
    // the logical CPUs instead).
    EXPECT_GT(iv[1]["migrations"].get<int>(), 0);
    EXPECT_EQ(iv[0]["migrations"], 0);
    EXPECT_EQ(iv[4]["migrations"], 0);
    EXPECT_EQ(s["migrations"]["up"].get<int>() + s["migrations"]["down"].get<int>(), s["migrations"]["count"].get<int>());

    // Cluster migration: when the load falls at 3.5 s, both logical CPUs go to the A7 as one
    // group; no other switch has a group.
    const csv_table t(slurp(dir / "switches.csv"));
    ASSERT_EQ(t.rows.size(), s["switches"]["count"].get<std::size_t>());
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        if (t.cell(i, "group").empty())
            continue;
        groups[t.cell(i, "group")].push_back(i);
        EXPECT_GE(t.num(i, "t_request_s"), iv[3]["start_s"].get<double>()) << i;
        EXPECT_LT(t.num(i, "t_request_s"), iv[3]["end_s"].get<double>()) << i;
    }
    const json& cm = s["cluster_migration"];
    EXPECT_EQ(cm["groups"].get<std::size_t>(), groups.size());
    ASSERT_GE(groups.size(), 1u);
    double widest = 0;
    for (const auto& [g, rows] : groups) {
        SCOPED_TRACE(g);
        ASSERT_EQ(rows.size(), 2u); // every logical CPU
        EXPECT_NE(t.cell(rows[0], "logical_cpu"), t.cell(rows[1], "logical_cpu"));
        EXPECT_EQ(t.cell(rows[0], "direction"), t.cell(rows[1], "direction"));
        const double from = std::min(t.num(rows[0], "t_blackout_start_s"), t.num(rows[1], "t_blackout_start_s"));
        const double to = std::max(t.num(rows[0], "t_blackout_end_s"), t.num(rows[1], "t_blackout_end_s"));
        widest = std::max(widest, (to - from) * 1e6);
        // The group's blackout holds each of its switches'.
        EXPECT_GE((to - from) * 1e6 + 1e-6, std::max(t.num(rows[0], "blackout_us"), t.num(rows[1], "blackout_us")));
    }
    EXPECT_NEAR(cm["blackout_us"]["max"].get<double>(), widest, 1e-6);
}

TEST_F(run_test, eas_places_by_the_cores_alone_when_the_schedulers_model_has_no_cluster_terms)
{
    // SM8150's file gives the scheduler Linux's energy model from the device tree (cores only):
    // under EAS BBench runs mostly on the A55s. With the tables' cluster terms (each cluster's
    // own unit, a busy A55 cluster's constant looking dearer than an A76 one's) it would keep
    // to the A76s. The hardware's power model is the same in both runs.
    const std::string soc = std::string(BLSIM_SOURCE_DIR) + "/configs/soc/sm8150.yaml";
    double little_s[2] = {0, 0}, medium_s[2] = {0, 0};
    for (int with_terms = 0; with_terms < 2; with_terms++) {
        const fs::path out = dir / (with_terms ? "terms" : "cores");
        result r = blsim("run -q " + scenario("bbench-eas.yaml") + " --out " + out.string() + " --set soc=" + soc +
                         " --set duration_s=20 --set soc.energy.scheduler_cluster_terms=" +
                         (with_terms ? "true" : "false"));
        ASSERT_EQ(r.status, 0) << r.err;
        const json c = json::parse(slurp(out / "summary.json"))["residency_s"]["cores"];
        for (int cpu = 0; cpu < 7; cpu++)
            (cpu < 4 ? little_s : medium_s)[with_terms] += c["cpu" + std::to_string(cpu)]["on"].get<double>();
    }
    EXPECT_GT(little_s[0], medium_s[0]); // cores only: the A55s carry the work
    EXPECT_GT(medium_s[1], little_s[1]); // the cluster terms: the A76s do
}

TEST_F(run_test, hmp_moves_tasks_between_the_clusters_and_reports_each_move)
{
    // governor-steps' two tasks, free to run anywhere, under HMP from boot.
    result r = blsim("run -q " + scenario("governor-steps.yaml") + " --out " + dir.string() +
                     " --set mode=hmp --set duration_s=3 --set 'workload.tasks.0.cpus=[]' --set 'workload.tasks.1.cpus=[]'");
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["mode"], "hmp");
    EXPECT_FALSE(s.contains("mode_intervals")); // no change
    const json& m = s["migrations"];
    EXPECT_GT(m["count"].get<int>(), 0);
    EXPECT_GT(m["up"].get<int>(), 0);
    EXPECT_EQ(m["up"].get<int>() + m["down"].get<int>(), m["count"].get<int>());
    EXPECT_LE(m["count"].get<int>(), s["sched"]["migrations"].get<int>()); // each is a move between run queues
    // A big CPU that pulls a waiting task at its own scheduling point runs it at once (0 us);
    // a move that needs the other CPU woken takes its wake-up.
    EXPECT_GE(m["latency_us"]["min"].get<double>(), 0);
    EXPECT_GT(m["latency_us"]["p50"].get<double>(), 0);
    EXPECT_LE(m["latency_us"]["min"].get<double>(), m["latency_us"]["max"].get<double>());
    // A task's cache state does not travel: on the other cluster it fetches its working set,
    // part of it through the CCI from the cluster it left (under SMP these two tasks never
    // change cluster, and the CCI snoops nothing).
    EXPECT_GT(s["cci"]["snoop_hits"].get<std::uint64_t>(), 0u);
    // The switcher is off: no switches, no groups.
    EXPECT_EQ(s["switches"]["count"], 0);
    EXPECT_FALSE(s.contains("cluster_migration"));
    // EAS reports its migrations the same way, even when it made none.
    ASSERT_EQ(blsim("run -q " + scenario("governor-steps.yaml") + " --out " + (dir / "eas").string() +
                    " --set mode=eas --set duration_s=1").status,
              0);
    const json e = json::parse(slurp(dir / "eas" / "summary.json"));
    EXPECT_EQ(e["mode"], "eas");
    EXPECT_TRUE(e.contains("migrations"));
}

TEST_F(run_test, cluster_migration_moves_every_logical_cpu_and_one_cluster_runs_between_groups)
{
    // BBench under cluster migration, 5 s, its scrolling hurried (a step every 100 ms): many
    // moves each way.
    result r = blsim("run -q " + scenario("bbench-cm.yaml") + " --out " + dir.string() +
                     " --set duration_s=5 --set workload.bbench.scroll.settle_ms=100 --set workload.bbench.scroll.delay_ms=100");
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    EXPECT_EQ(s["mode"], "cluster-migration");
    const csv_table t(slurp(dir / "switches.csv"));
    // Each group: both logical CPUs, the same way; its window from the first blackout's
    // start to the last's end.
    struct window {
        double from, to;
        std::string direction;
    };
    std::map<int, std::vector<std::size_t>> rows;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        ASSERT_FALSE(t.cell(i, "group").empty()) << "every switch belongs to a group, row " << i;
        rows[std::stoi(t.cell(i, "group"))].push_back(i);
    }
    ASSERT_GE(rows.size(), 10u);
    EXPECT_EQ(s["cluster_migration"]["groups"].get<std::size_t>(), rows.size());
    std::vector<window> w;
    for (const auto& [g, rs] : rows) {
        SCOPED_TRACE(g);
        // (Numbered in order; a number may be missing: a group whose requests the governor
        // took back before any switch began.)
        ASSERT_EQ(rs.size(), 2u);
        EXPECT_NE(t.cell(rs[0], "logical_cpu"), t.cell(rs[1], "logical_cpu"));
        EXPECT_EQ(t.cell(rs[0], "direction"), t.cell(rs[1], "direction"));
        w.push_back({std::min(t.num(rs[0], "t_blackout_start_s"), t.num(rs[1], "t_blackout_start_s")),
                     std::max(t.num(rs[0], "t_blackout_end_s"), t.num(rs[1], "t_blackout_end_s")),
                     t.cell(rs[0], "direction")});
    }
    // Groups follow one another, alternating, and never overlap: outside a group's handover
    // both logical CPUs are on the same cluster.
    for (std::size_t g = 1; g < w.size(); g++) {
        SCOPED_TRACE(g);
        EXPECT_GT(w[g].from, w[g - 1].to);
        EXPECT_NE(w[g].direction, w[g - 1].direction);
    }
    EXPECT_EQ(w.front().direction, "a15->a7"); // from the boot cluster
    // The third A7 is the unpaired CPU: it runs only from reset until it goes offline at
    // boot (some microseconds' worth of energy).
    EXPECT_LT(s["energy_j"]["cores_by_state"]["cpu2"]["on"].get<double>(), 1e-4);
}

TEST_F(run_test, iks_to_hmp_and_back_loses_no_task_and_keeps_the_invariants)
{
    // configs/scenarios/mode-switch.yaml: IKS, HMP from 500 ms, IKS from 1000 ms; one heavy
    // task (70 %) and three light ones. The run checks its invariants as it goes (exit 0).
    result r = blsim("run -q " + scenario("mode-switch.yaml") + " --out " + dir.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "summary.json"));
    const json& iv = s["mode_intervals"];
    ASSERT_EQ(iv.size(), 3u);
    EXPECT_EQ(iv[0]["mode"], "iks");
    EXPECT_EQ(iv[1]["mode"], "hmp");
    EXPECT_EQ(iv[2]["mode"], "iks");
    // Under IKS logical CPUs switch, under HMP tasks migrate; not the other way round. The
    // only switches of the HMP interval are those bringing a logical CPU home from the A7 as
    // the switcher turns off, requested at the interval's start (counted in it: results.md).
    EXPECT_GT(iv[0]["switches"].get<int>(), 0);
    const csv_table t(slurp(dir / "switches.csv"));
    int homecomings = 0;
    for (std::size_t i = 0; i < t.rows.size(); i++) {
        const double at = t.num(i, "t_request_s");
        if (at < iv[1]["start_s"].get<double>() || at >= iv[1]["end_s"].get<double>())
            continue;
        EXPECT_EQ(t.cell(i, "direction"), "a7->a15");
        EXPECT_NEAR(at, iv[1]["start_s"].get<double>(), 1e-9);
        homecomings++;
    }
    EXPECT_EQ(iv[1]["switches"], homecomings);
    EXPECT_GT(iv[1]["migrations"].get<int>(), 0);
    EXPECT_EQ(iv[2]["migrations"], 0);
    // The switcher went off and on again once each.
    EXPECT_EQ(s["switches"]["switcher_disables"], 1);
    EXPECT_EQ(s["switches"]["switcher_enables"], 1);
    // No task lost: each did its share of the 1.5 s (util x 1.5 s of reference work), the
    // light ones to within their job in progress, the heavy one (which waits on an A7 at
    // times) to within 2 %.
    const std::map<std::string, double> util = {{"heavy", 0.70}, {"light0", 0.10}, {"light1", 0.05}, {"light2", 0.05}};
    const std::map<std::string, double> job_ms = {{"heavy", 7.0}, {"light0", 1.6}, {"light1", 0.4}, {"light2", 1.0}};
    for (const auto& [task, u] : util) {
        SCOPED_TRACE(task);
        const double done = s["tasks"][task]["done_ref_ms"].get<double>();
        const double want = u * 1500.0;
        if (task == "heavy")
            EXPECT_NEAR(done, want, 0.02 * want);
        else
            EXPECT_NEAR(done, want, job_ms.at(task));
    }
}

} // namespace
