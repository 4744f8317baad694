// tests/batch/explore_test.cpp -- `blsim explore` (docs/explore.md) end to end with the binary:
// clean seeds, a violation on every run reported with its kind and its command, stopping at
// the first, the kind's normalisation, bad input refused before anything runs; and the race
// it found in the switcher (a CPU parked at its gate as a switch's inbound) staying fixed.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "blsim/soc/explore.h"
#include "shell.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using blsim_test::quote;
using blsim_test::result;
using blsim_test::slurp;

const std::string source_dir = BLSIM_SOURCE_DIR;
const std::string pingpong = source_dir + "/configs/scenarios/switch-pingpong.yaml";

class explore_test : public blsim_test::scratch_test {
protected:
    explore_test() : scratch_test("explore-test", start::made) {}
    // The test build's blsim-test: the explorations below use its --mutant and --inject-bug
    // (soc/cli/test_hooks.h); without them it is the release blsim.
    result blsim(const std::string& args)
    {
        return blsim_test::shell("cd " + quote(dir.string()) + " && CI=true " + BLSIM_TEST_BINARY + " " + args);
    }
};

TEST_F(explore_test, jittered_seeds_of_the_ping_pong_break_no_invariant)
{
    const result r = blsim("explore " + quote(pingpong) +
                           " --seeds 6 -j2 --set jitter.enabled=true --set duration_s=0.3 --out ex");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("6 of 6 seeds run (1..6), 0 violations;"), std::string::npos) << r.out;
    // One plain progress line per seed (not a terminal), in some order.
    for (int s = 1; s <= 6; s++)
        EXPECT_NE(r.err.find("seed " + std::to_string(s) + ": ok\n"), std::string::npos) << r.err;
    const json j = json::parse(slurp(dir / "ex/explore.json"));
    EXPECT_EQ(j["runs"], 6);
    EXPECT_EQ(j["violations"], 0);
    EXPECT_TRUE(j["violating_seeds"].empty());
}

// Every shipped exploration of configs/explore/ (whatever is added there) loads and passes its
// first seeds on the correct code: the 10000 seeds of docs/explore.md, in small.
TEST_F(explore_test, every_shipped_exploration_passes_its_first_seeds)
{
    int explorations = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(source_dir + "/configs/explore")) {
        if (e.path().extension() != ".yaml")
            continue;
        explorations++;
        const std::string out = "ex-" + e.path().stem().string();
        const result r = blsim("explore " + quote(e.path().string()) + " --seeds 4 -j2 --out " + out);
        ASSERT_EQ(r.status, 0) << e.path() << r.out << r.err;
        EXPECT_NE(r.out.find("4 of 4 seeds run (1..4), 0 violations;"), std::string::npos) << e.path() << r.out;
    }
    EXPECT_EQ(explorations, 8); // both-at-once, faults, governor-both, hmp-powerdown, mode-changes-close,
                                // six-core-cluster, switch-pingpong, switcher-onoff
}

TEST_F(explore_test, a_violating_seed_is_reported_with_its_kind_and_the_command_that_reproduces_it)
{
    const std::string args = "explore " + quote(pingpong) +
                             " --seeds 3 -j2 --set jitter.enabled=true --set duration_s=0.2"
                             " --inject-bug meter-time-reversal --out ex";
    const result r = blsim(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("3 of 3 seeds run (1..3), 3 violations;"), std::string::npos) << r.out;
    // The three seeds fail alike: one kind, its numbers made '#'.
    const std::string kind = "blsim: internal error: invariant 'accounting-interval' violated at # s in cluster a#: "
                             "a change dated # s arrived after the meter had integrated up to # s (a negative "
                             "interval)";
    EXPECT_NE(r.out.find("      3           1  " + kind + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  blsim-test run " + pingpong +
                         " --set jitter.enabled=true --set duration_s=0.2 --inject-bug meter-time-reversal"
                         " --set seed=2 --trace perfetto --out out/explore-seed-2\n"),
              std::string::npos)
        << r.out;
    const json j = json::parse(slurp(dir / "ex/explore.json"));
    ASSERT_EQ(j["violating_seeds"].size(), 3u);
    EXPECT_EQ(j["violating_seeds"][1]["seed"], 2);
    EXPECT_EQ(j["violating_seeds"][1]["exit_status"], 1);
    EXPECT_EQ(j["kinds"][0]["kind"], kind);
    EXPECT_EQ(j["kinds"][0]["count"], 3);

    // Stopping at the first: one at a time, so seed 1 alone runs.
    const result first = blsim("explore " + quote(pingpong) +
                               " --seeds 5 -j1 --set duration_s=0.2 --inject-bug meter-time-reversal --stop-at-first");
    EXPECT_EQ(first.status, 1);
    EXPECT_NE(first.out.find("1 of 5 seeds run (1..1), 1 violation;"), std::string::npos) << first.out;
    // Jitter off: said, since every seed then takes the same path.
    EXPECT_NE(first.err.find("blsim: explore: warning: jitter is off in this scenario"), std::string::npos);
}

TEST_F(explore_test, bad_input_is_refused_before_anything_runs)
{
    result r = blsim("explore " + quote(pingpong) + " --seeds 3 --set jitter.enabledd=true");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown key 'enabledd' in jitter"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("seed 1"), std::string::npos); // nothing ran
    r = blsim("explore " + quote(pingpong) + " --set seed=3");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("explore: the seed is what explore varies: use --first-seed and --seeds, not --set seed="),
              std::string::npos)
        << r.err;
    r = blsim("explore " + quote(pingpong) + " --seeds 0");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("explore: --seeds needs a whole number from 1 to 100000000 (got '0')"), std::string::npos)
        << r.err;
    r = blsim("explore " + quote(pingpong) + " --mutant nonsense");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--mutant needs one of: gic-forgets-pending-sgis, vlock-without-voting, "
                         "last-man-ignores-inbound, gate-opened-before-save"),
              std::string::npos)
        << r.err;
}

TEST(explore_kind, numbers_become_hashes_and_a_signal_names_itself)
{
    EXPECT_EQ(blsim::soc::violation_kind({"warning", "blsim: internal error: check failed at 1.25 s in cpu3: x == 1 "
                                                     "(switcher/src/bL/mcpm.c:212)"},
                                         1 << 8),
              "blsim: internal error: check failed at # s in cpu#: x == # (switcher/src/bL/mcpm.c:#)");
    EXPECT_EQ(blsim::soc::violation_kind({}, SIGABRT), "killed by signal 6");
}

// Found by explore on mode-switch at seed 423 (jitter's default bounds): a CPU going offline
// when the mode came back to IKS was woken by a kick that arrived as it powered down; it came
// up with no early poke installed and waited at its MCPM gate, and the switch that later chose
// it as inbound waited for an "inbound alive" that never came (invariant switch-completes).
// The gate now fires a poke installed after the CPU entered. Since the cpuidle governors
// (issue 23) moved the timings, the race shows at seed 5 with the wider bounds of
// docs/explore.md (none of seeds 1-3000 meets it at the default ones).
TEST_F(explore_test, a_cpu_waiting_at_its_gate_still_announces_itself_as_a_switchs_inbound)
{
    std::string wide;
    for (const char* k : {"register_access", "shared_memory", "memory_access", "wakeup", "power_transition", "dvfs",
                          "cache_maintenance"})
        wide += std::string(" --set jitter.") + k + "_pct=50";
    const result r = blsim("run -q --out run " + quote(source_dir + "/configs/scenarios/mode-switch.yaml") +
                           " --set seed=5 --set jitter.enabled=true --set jitter.sgi_delivery_ns=5000" + wide);
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "run/summary.json"));
    EXPECT_EQ(s["switches"]["mcpm"]["late_pokes"], 1);
}

TEST_F(explore_test, the_switcher_turned_off_while_a_switch_closes_its_gates_waits_for_it)
{
    // Seed 6521: logical cpu0's switch to cpu4 had begun closing its gates (platform verbs, so
    // other CPUs ran) when cpu1 turned the switcher off. The disable saw no switch in flight
    // and went ahead; the switch went on with the switcher off, and cpu4, brought online as a
    // CPU of its own, later found the switch's vector at its idle gate (an internal error).
    // The switch is now under way before its first verb, and the disable waits for it.
    const result r = blsim("run -q --out run " + quote(source_dir + "/configs/explore/switcher-onoff.yaml") +
                           " --set seed=6521");
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir / "run/summary.json"));
    EXPECT_EQ(s["switches"]["switcher_disables"], 24);
    EXPECT_EQ(s["switches"]["switcher_enables"], 24);
}

} // namespace

namespace {

// The proof that exploring finds what it is for: each known-bad variant of the C code
// (switcher/include/bls/mutant.h) is found by a shipped exploration of configs/explore/, from
// seed 1, within a bound a little above the seed that found it when measured (docs/explore.md,
// "Seeds to detection"; a change of the code's timing may move it a little), by the check
// meant to see it; the correct code passes the seed that finds it. With --stop-at-first the
// lowest violating seed is the same at any -j.
class explore_mutant_test : public explore_test {
protected:
    void expect_found(const std::string& mutant, const std::string& exploration, int bound, const std::string& kind)
    {
        const std::string x = quote(source_dir + "/configs/explore/" + exploration);
        const result bad = blsim("explore " + x + " --seeds " + std::to_string(bound) +
                                 " -j2 --stop-at-first --mutant " + mutant + " --out ex");
        EXPECT_EQ(bad.status, 1) << bad.out << bad.err;
        const json j = json::parse(slurp(dir / "ex/explore.json"));
        ASSERT_FALSE(j["kinds"].empty()) << bad.out;
        const long long found_at = j["violating_seeds"][0]["seed"].get<long long>();
        EXPECT_LE(found_at, bound) << bad.out;
        EXPECT_NE(j["violating_seeds"][0]["kind"].get<std::string>().find(kind), std::string::npos) << bad.out;
        const result good = blsim("explore " + x + " --first-seed " + std::to_string(found_at) + " --seeds 1 -j1");
        EXPECT_EQ(good.status, 0) << good.out << good.err;
    }
};

// The vlock without its voting byte lets two CPUs coming up in one cluster both win the
// first-man election: the vlock check (measured: seed 26).
TEST_F(explore_mutant_test, the_vlock_without_voting_is_found)
{
    expect_found("vlock-without-voting", "switcher-onoff.yaml", 35,
                 "m->first_men[cl] == # && \"vlock mutual exclusion: one first man per cluster\"");
}

// The last man that does not abort for a CPU coming up in its cluster takes the cluster down
// under a CPU that an interrupt woke: the check that no CPU of a cluster going down runs in it
// (measured: seed 124).
TEST_F(explore_mutant_test, the_last_man_ignoring_an_inbound_is_found)
{
    expect_found("last-man-ignores-inbound", "hmp-powerdown.yaml", 150,
                 "other != BLS_CPU_UP && \"no CPU of a cluster going down runs in it\"");
}

// The GIC migration that forgets the SGIs pending on the outbound leaves a reschedule IPI of
// the logical CPU behind: invariant no-ipi-lost at the outbound's power-down (measured: seed 67).
TEST_F(explore_mutant_test, the_gic_migration_forgetting_pending_sgis_is_found)
{
    expect_found("gic-forgets-pending-sgis", "governor-both.yaml", 80, "invariant 'no-ipi-lost' violated");
}

// Opening the inbound's gate before the context is saved needs no race: the first switch of
// the first seed shows it.
TEST_F(explore_mutant_test, the_gate_opened_before_the_context_is_saved_is_found_at_the_first_seed)
{
    expect_found("gate-opened-before-save", "switch-pingpong.yaml", 1,
                 "\"the outbound swapped the logical map before opening our gate\"");
}

// Found by explore on faults.yaml (seeds 4511, 8752, 9603, 9670 of 10000; the file as it was
// then is tests/data/faults-giveup-races.yaml): a switch given up as its inbound came up
// anyway. First its poke was cleared, address and value, between the inbound's two reads of it: it wrote 0 to GICD_SGIR, and "inbound alive" was lost. Then, the
// value kept: the inbound, having poked for the withdrawn switch, waited at its gate, and a
// later switch that chose it waited for an "inbound alive" it never fired again (invariant
// switch-completes). A power-up that finds a CPU at its gate now has it poke again. Each seed
// gives switches up and passes; the late pokes are those parked inbounds announcing themselves.
TEST_F(explore_test, an_inbound_that_came_up_for_a_switch_given_up_announces_itself_to_the_next)
{
    // (Given up, late pokes) per seed, as measured since the cpuidle governors of issue 23.
    const std::map<int, std::pair<int, int>> seeds = {{4511, {1, 1}}, {8752, {1, 1}}, {9603, {2, 2}}, {9670, {5, 4}}};
    for (const auto& [seed, expect] : seeds) {
        const std::string out = "run-" + std::to_string(seed);
        const result r = blsim("run -q --out " + out + " " + quote(source_dir + "/tests/data/faults-giveup-races.yaml") +
                               " --set seed=" + std::to_string(seed));
        ASSERT_EQ(r.status, 0) << seed << r.err;
        const json s = json::parse(slurp(dir / out / "summary.json"));
        EXPECT_EQ(s["faults"]["switches_given_up"], expect.first) << seed;
        EXPECT_EQ(s["switches"]["mcpm"]["late_pokes"], expect.second) << seed;
    }
}

} // namespace
