// tests/model/model_e2e_test.cpp -- the hardware models in whole runs: energy within what the
// tables allow and the two power models agreeing, seeded timing jitter, injected faults.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
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
using blsim_test::total_energy_of;

// --- energy (docs/calibration.md) ----------------------------------------------------------

// Energy that was once absurd (megajoules for a second) because a tracepoint integrated the
// meter up to a CPU's local time, ahead of the kernel's, and a later change then closed a
// negative interval, wrapped in unsigned picoseconds. Each trigger, run again: the energy
// must stay within what the tables allow. Upper bound worked from configs/soc/tc2.yaml: every
// core busy at the top OPPs, A15 (2 x 6997 + 15200) and A7 (3 x 1024 + 4905) EAS units at
// 0.187 mW each, 6.95 W.
constexpr double tc2_max_w = ((2 * 6997 + 15200) + (3 * 1024 + 4905)) * 0.187e-3;

TEST_F(run_test, energy_stays_plausible_for_every_trigger_of_the_old_blow_up)
{
    const std::string pingpong = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    const std::vector<std::string> triggers = {
        "--set workload.tasks.0.working_set_kb=768 --set workload.tasks.1.working_set_kb=768",
        "--set soc.clusters.a15.dvfs.freq_latency_us=0",
        "--set soc.clusters.a15.dvfs.freq_latency_us=0 --set soc.clusters.a7.dvfs.freq_latency_us=0 "
        "--set soc.clusters.a15.dvfs.voltage_latency_us=0 --set soc.clusters.a7.dvfs.voltage_latency_us=0",
    };
    for (std::size_t i = 0; i < triggers.size(); i++) {
        const fs::path out = dir / std::to_string(i);
        result r = blsim("run -q " + pingpong + " --out " + out.string() + " " + triggers[i]);
        ASSERT_EQ(r.status, 0) << triggers[i] << "\n" << r.err;
        const double e = total_energy_of(out);
        EXPECT_GT(e, 0.5) << triggers[i]; // the pingpong's 1 s draws about 1 J
        EXPECT_LT(e, tc2_max_w * 1.0) << triggers[i];
    }
}

TEST_F(run_test, both_logical_cpus_switching_at_once_keep_energy_plausible_at_any_instant)
{
    // Start times that gave 11.7 MJ and 88.3 MJ before the fix (found by a scan in steps of
    // 0.37 ms), and others around them: both logical CPUs to the A7 at t, back at t + 50 ms.
    const std::string pingpong = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";
    std::vector<double> energies;
    for (double t : {100.0, 110.36, 112.21, 115.17, 126.27, 128.12, 133.33}) {
        char timeline[256];
        std::snprintf(timeline, sizeof timeline,
                      "'governor.setspeed=[{at_ms: %g, cpu: 0, freq_mhz: 400}, {at_ms: %g, cpu: 1, freq_mhz: 400},"
                      " {at_ms: %g, cpu: 0, freq_mhz: 1000}, {at_ms: %g, cpu: 1, freq_mhz: 1000}]'",
                      t, t, t + 50, t + 50);
        const fs::path out = dir / std::to_string(energies.size());
        result r = blsim("run -q " + pingpong + " --out " + out.string() + " --set duration_s=0.3 --set " + timeline);
        ASSERT_EQ(r.status, 0) << t << "\n" << r.err;
        energies.push_back(total_energy_of(out));
        EXPECT_LT(energies.back(), tc2_max_w * 0.3) << t;
        const json s = json::parse(slurp(out / "summary.json"));
        EXPECT_EQ(s["switches"]["count"], 4) << t;
    }
    // The same work at slightly different instants costs nearly the same energy.
    for (double e : energies)
        EXPECT_NEAR(e, energies.front(), 0.1 * energies.front());
}

TEST_F(run_test, music_alone_on_an_a7_costs_about_a_third_of_the_a15s)
{
    // The audio-playback validation (docs/validation.md): public TC2 figures put an A7 playing
    // audio at about 30 % of an A15's power (the EAS tables' busy A7 over A15, cluster
    // included: 27-32 %). Nothing is fitted to it: the ratio comes from the components. "About
    // 30 %" is read as 25-35 %.
    double j[2];
    const char* names[] = {"audio-iks.yaml", "audio-2xa15.yaml"};
    for (int i = 0; i < 2; i++) {
        const fs::path out = dir / names[i];
        result r = blsim("run -q --out " + out.string() + " " + scenario(names[i]));
        ASSERT_EQ(r.status, 0) << r.err;
        const json s = json::parse(slurp(out / "summary.json"));
        EXPECT_EQ(s["perf"]["audio"]["deadline_misses"], 0) << names[i];
        j[i] = s["energy_j"]["total"].get<double>();
    }
    EXPECT_GE(j[0] / j[1], 0.25);
    EXPECT_LE(j[0] / j[1], 0.35);
}

TEST_F(run_test, both_power_models_agree_on_the_shipped_scenarios)
{
    // The EAS tables and C*V^2*f share every idle and static power (docs/calibration.md,
    // "Power-state semantics") and price busy power from the same measurements: on the same
    // run they agree within 3 % (measured: 2 % at most, on every shipped scenario).
    for (const char* name : {"audio-iks.yaml", "audio-2xa15.yaml", "bbench-2xa7.yaml", "bbench-iks-tuned.yaml",
                             "rtapp-pipeline.yaml", "switch-pingpong.yaml"}) {
        SCOPED_TRACE(name);
        double j[2];
        for (int m = 0; m < 2; m++) {
            const fs::path out = dir / (std::string(name) + (m ? ".cv2f" : ".eas"));
            result r = blsim("run -q --out " + out.string() + " " + scenario(name) +
                             (m ? " --set soc.energy.model=cv2f" : ""));
            ASSERT_EQ(r.status, 0) << r.err;
            j[m] = json::parse(slurp(out / "summary.json"))["energy_j"]["total"].get<double>();
        }
        EXPECT_NEAR(j[1] / j[0], 1.0, 0.03) << j[0] << " J (eas), " << j[1] << " J (cv2f)";
    }
}

// --- seeded timing jitter (docs/hardware.md, "Timing jitter") --------------------------------

// The summary as written, up to its host section (which describes the machine, not the model).
std::string summary_without_host(const fs::path& dir)
{
    const std::string s = slurp(dir / "summary.json");
    return s.substr(0, s.find("\"host\""));
}

// Column @name of every row of a CSV file with a header.
std::vector<std::string> csv_column(const fs::path& file, const std::string& name)
{
    std::istringstream in(slurp(file));
    std::string line;
    std::getline(in, line);
    auto split = [](const std::string& l) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream ls(l);
        while (std::getline(ls, cell, ','))
            cells.push_back(cell);
        return cells;
    };
    const std::vector<std::string> header = split(line);
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    const std::size_t k = static_cast<std::size_t>(it - header.begin());
    std::vector<std::string> column;
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = split(line);
        column.push_back(k < cells.size() ? cells[k] : "");
    }
    return column;
}

TEST_F(run_test, jitter_on_the_same_seed_gives_the_same_bytes)
{
    const std::string args = " " + scenario("switch-pingpong.yaml") + " --set jitter.enabled=true --set seed=3";
    ASSERT_EQ(blsim("run -q --out " + (dir / "a").string() + args).status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "b").string() + args).status, 0);
    EXPECT_EQ(summary_without_host(dir / "a"), summary_without_host(dir / "b"));
    EXPECT_EQ(slurp(dir / "a" / "switches.csv"), slurp(dir / "b" / "switches.csv"));
    EXPECT_EQ(slurp(dir / "a" / "effective-config.yaml"), slurp(dir / "b" / "effective-config.yaml"));

    // The summary counts the latencies perturbed, by class; the configuration as run shows it on.
    const json s = json::parse(slurp(dir / "a" / "summary.json"));
    ASSERT_TRUE(s.contains("jitter"));
    EXPECT_EQ(s["jitter"]["enabled"], true);
    std::uint64_t total = 0;
    for (const char* c : {"register_access", "shared_memory", "memory_access", "sgi_delivery", "wakeup",
                          "power_transition", "dvfs", "cache_maintenance"}) {
        ASSERT_TRUE(s["jitter"]["draws"].contains(c)) << c;
        EXPECT_GT(s["jitter"]["draws"][c].get<std::uint64_t>(), 0u) << c; // every class is exercised
        total += s["jitter"]["draws"][c].get<std::uint64_t>();
    }
    EXPECT_EQ(s["jitter"]["draws_total"].get<std::uint64_t>(), total);
    EXPECT_EQ(s["switches"]["count"], 12);
    EXPECT_NE(slurp(dir / "a" / "effective-config.yaml").find("jitter:\n  enabled: true\n"), std::string::npos);
}

TEST_F(run_test, jitter_on_another_seed_gives_other_switch_timings)
{
    const std::string s = " " + scenario("switch-pingpong.yaml") + " --set jitter.enabled=true --set jitter.register_access_pct=50";
    ASSERT_EQ(blsim("run -q --out " + (dir / "s1").string() + s + " --set seed=1").status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "s2").string() + s + " --set seed=2").status, 0);
    const std::vector<std::string> b1 = csv_column(dir / "s1" / "switches.csv", "blackout_us");
    const std::vector<std::string> b2 = csv_column(dir / "s2" / "switches.csv", "blackout_us");
    ASSERT_EQ(b1.size(), 12u);
    ASSERT_EQ(b2.size(), 12u); // the same switches ...
    EXPECT_NE(b1, b2);         // ... at other timings
    EXPECT_NE(csv_column(dir / "s1" / "switches.csv", "t_blackout_start_s"),
              csv_column(dir / "s2" / "switches.csv", "t_blackout_start_s"));
}

TEST_F(run_test, jitter_off_the_seed_changes_no_timing)
{
    // Off by default: the seed still drives the workloads' random choices, but no latency; the
    // summary has no jitter section.
    const std::string s = " " + scenario("switch-pingpong.yaml");
    ASSERT_EQ(blsim("run -q --out " + (dir / "s1").string() + s + " --set seed=1").status, 0);
    ASSERT_EQ(blsim("run -q --out " + (dir / "s2").string() + s + " --set seed=2").status, 0);
    EXPECT_EQ(slurp(dir / "s1" / "switches.csv"), slurp(dir / "s2" / "switches.csv"));
    json a = json::parse(slurp(dir / "s1" / "summary.json")), b = json::parse(slurp(dir / "s2" / "summary.json"));
    EXPECT_FALSE(a.contains("jitter"));
    for (json* j : {&a, &b}) {
        j->erase("host");
        j->erase("seed");
    }
    EXPECT_EQ(a, b);
    EXPECT_NE(slurp(dir / "s1" / "effective-config.yaml").find("jitter:\n  enabled: false\n"), std::string::npos);
}

TEST_F(run_test, jitter_bounds_are_validated_where_they_are_written)
{
    result r = blsim("run -q --out " + (dir / "x").string() + " " + scenario("switch-pingpong.yaml") +
                     " --set jitter.enabled=true --set jitter.dvfs_pct=101 --set jitter.sgi_delivery_ns=-1");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--set:2:17: jitter.dvfs_pct: 101 is out of range 0..100"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--set:3:24: jitter.sgi_delivery_ns: -1 is out of range 0..1000000"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "x" / "summary.json"));
}

// --- injected faults (docs/hardware.md, "Fault injection") ----------------------------------

TEST_F(run_test, injected_faults_are_counted_per_configured_kind_and_reproducible)
{
    const std::string args = " " + scenario("switch-pingpong.yaml") +
                             " --set 'faults.dvfs_fail.at_s=[0.3, 0.1]' --set 'faults.spurious_irq.at_s=[0.5]'";
    result r = blsim("run --out " + (dir / "a").string() + args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\nfaults: 3 injected (spurious_irq 1, dvfs_fail 2)\n"), std::string::npos) << r.out;
    const json s = json::parse(slurp(dir / "a" / "summary.json"));
    ASSERT_TRUE(s.contains("faults"));
    // Each failed DVFS step ended its frequency transaction without a switch, and the
    // governor saw it fail; the spurious interrupt was read and ignored.
    EXPECT_EQ(s["faults"], json::parse(R"({"spurious_irq": {"injected": 1},
        "dvfs_fail": {"injected": 2, "handled": {"frequency_transactions_failed": 2}},
        "switches_given_up": 0, "governor_failed_transitions": 2})"));
    EXPECT_NE(slurp(dir / "a" / "effective-config.yaml").find("  dvfs_fail:\n    probability_pct: 0\n    at_s: [0.3, 0.1]\n"),
              std::string::npos);
    // The same seed, the same faults and the same bytes.
    ASSERT_EQ(blsim("run -q --out " + (dir / "b").string() + args).status, 0);
    EXPECT_EQ(summary_without_host(dir / "a"), summary_without_host(dir / "b"));
    EXPECT_EQ(slurp(dir / "a" / "switches.csv"), slurp(dir / "b" / "switches.csv"));
}

TEST_F(run_test, a_switch_whose_inbound_never_comes_up_is_given_up_and_the_run_goes_on)
{
    // Every kick to a powered-down inbound lost: each of the six switches asked (the script's
    // others then ask for the cluster the CPU is still on) kicks three times, 5 ms apart,
    // and gives up (docs/switcher.md, "Faults").
    result r = blsim("run -q --out " + (dir / "lost").string() + " " + scenario("switch-pingpong.yaml") +
                     " --set faults.wakeup_lost.probability_pct=100");
    ASSERT_EQ(r.status, 0) << r.err;
    json s = json::parse(slurp(dir / "lost" / "summary.json"));
    EXPECT_EQ(s["switches"]["count"], 0);
    EXPECT_EQ(s["switches"]["requests"], 6);
    EXPECT_EQ(s["faults"]["wakeup_lost"]["handled"],
              json::parse(R"({"inbound_kicked_again": 12, "switch_given_up_after_timeout": 6})"));
    EXPECT_EQ(s["faults"]["switches_given_up"], 6);
    EXPECT_EQ(s["faults"]["governor_failed_transitions"], 6);

    // One power-up failing, at 150 ms: the inbound of logical cpu1's switch to the A7s. The
    // power controller reports it; the switch is given up at once, and the switch back at
    // 250 ms has nothing to do: ten switches of the twelve, eleven requests.
    r = blsim("run -q --trace perfetto --out " + (dir / "up").string() + " " + scenario("switch-pingpong.yaml") +
              " --set 'faults.power_up_fail.at_s=[0.15]'");
    ASSERT_EQ(r.status, 0) << r.err;
    s = json::parse(slurp(dir / "up" / "summary.json"));
    EXPECT_EQ(s["switches"]["count"], 10);
    EXPECT_EQ(s["switches"]["requests"], 11);
    EXPECT_EQ(s["faults"]["power_up_fail"],
              json::parse(R"({"injected": 1, "handled": {"reported": 1, "switch_given_up": 1}, "failing_at_end": []})"));
    // The trace shows the switch given up, an instant on logical cpu1's track naming its
    // inbound (cpu3, logical cpu1's A7 partner under Linux's "odd" pairing), and no phases for it.
    const json trace = json::parse(slurp(dir / "up" / "trace.json"));
    std::vector<json> given_up;
    int switch_slices = 0;
    for (const json& e : trace["traceEvents"]) {
        const std::string name = e.value("name", "");
        if (name.rfind("switch given up", 0) == 0)
            given_up.push_back(e);
        switch_slices += e.value("ph", "") == "X" && name.rfind("switch a", 0) == 0;
    }
    ASSERT_EQ(given_up.size(), 1u);
    EXPECT_EQ(given_up[0]["name"], "switch given up: inbound cpu3 never came up");
    EXPECT_EQ(given_up[0]["args"]["inbound"], 3);
    EXPECT_NEAR(given_up[0]["ts"].get<double>(), 150e3, 2e3); // us: at the power-up's timeout
    EXPECT_EQ(switch_slices, 10);
}

TEST_F(run_test, without_faults_the_summary_has_no_faults_section)
{
    result r = blsim("run --out " + dir.string() + " " + scenario("switch-pingpong.yaml"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("\nfaults:"), std::string::npos) << r.out;
    EXPECT_FALSE(json::parse(slurp(dir / "summary.json")).contains("faults"));
    EXPECT_EQ(slurp(dir / "effective-config.yaml").find("\nfaults:"), std::string::npos);
}

} // namespace
