// tests/model/energy_test.cpp -- the energy meter and power models, worked by hand.
#include <gtest/gtest.h>

#include <functional>

#include "blsim/model/energy.h"
#include "blsim/model/invariant.h"
#include "test_soc.h"

namespace blsim::model {
namespace {

constexpr std::uint64_t ms = 1000000000ull; // in ps

TEST(energy_meter, eas_integration_worked_by_hand)
{
    soc_params soc = test::small_soc();
    eas_power_model eas;
    energy_meter m(soc, eas);

    // At 1000 mV a core leaks 1 mW and the shared logic 4 mW. t=0: both cores on at 1000 MHz:
    // each core 30 + 1, the shared logic the table's 200 less the cores' 2 = 198: 260 mW, the
    // table's total.
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 260.0);
    m.core_state(1 * ms, 1, core_power::wfi);    // 31 + 1 + 198 = 230 mW
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 230.0);
    // At 500 MHz with the rail still at 1000 mV: the table's 100 was measured at 900 mV, with
    // 2 + 2 x 0.5 mW of leakage in it; at 1000 mV that leakage is 4 + 2 x 1: 3 mW more. Each
    // core 11 and 1, the shared logic 100 - 3 + 4 = 101: 113 mW.
    m.frequency(2 * ms, 0, 500);
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 113.0);
    m.core_state(3 * ms, 0, core_power::wfi);    // every core idle: leakage, 4 + 1 + 1 = 6 mW
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 6.0);
    m.core_state(4 * ms, 0, core_power::off);
    m.core_state(4 * ms, 1, core_power::off);
    m.cluster_state(4 * ms, 0, cluster_power::off); // cluster sleep: 1 mW
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 1.0);
    m.advance_all(5 * ms);

    // mW * ms = uJ: core0 31+31+11+1 = 74, core1 31+1+1+1 = 34, uncore 198+198+101+4+1 = 502.
    EXPECT_NEAR(m.core_energy_j(0), 74e-6, 1e-15);
    EXPECT_NEAR(m.core_energy_j(1), 34e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0), 502e-6, 1e-15);
    EXPECT_NEAR(m.cluster_energy_j(0), 610e-6, 1e-15);
    EXPECT_NEAR(m.total_energy_j(), 610e-6, 1e-15);

    EXPECT_DOUBLE_EQ(m.core_residency_s(0, core_power::on), 0.003);
    EXPECT_DOUBLE_EQ(m.core_residency_s(0, core_power::wfi), 0.001);
    EXPECT_DOUBLE_EQ(m.core_residency_s(0, core_power::off), 0.001);
    EXPECT_DOUBLE_EQ(m.core_residency_s(1, core_power::on), 0.001);
    EXPECT_DOUBLE_EQ(m.core_residency_s(1, core_power::wfi), 0.003);
    EXPECT_DOUBLE_EQ(m.cluster_residency_s(0, cluster_power::on), 0.004);
    EXPECT_DOUBLE_EQ(m.cluster_residency_s(0, cluster_power::off), 0.001);
    EXPECT_DOUBLE_EQ(m.opp_residency_s(0, 1), 0.002);
    EXPECT_DOUBLE_EQ(m.opp_residency_s(0, 0), 0.003);
}

// Issue 23's semantics: a powered cluster spends its idle power (leakage and clock) whether or
// not a core runs, each idle state has its own power, and both models agree on all of it.
TEST(energy_meter, idle_powered_core_off_and_cluster_off_worked_by_hand_in_both_models)
{
    soc_params soc = test::small_soc();
    cluster_params& c = soc.clusters[0];
    c.clock_uw_per_mhz_v2 = 10;  // 10 mW at 1000 MHz, 1 V
    c.leakage.l2_uw_per_kb = 2;  // 500 KiB: 1 mW at 900 mV, 2 mW at 1000 mV
    c.caches.l2_kb = 500;
    c.cv2f = {30, 0};            // a busy core at 1000 MHz, 1 V: 30 mW, the table's
    eas_power_model eas;
    cv2f_power_model cv2f;
    for (const power_model* model : {static_cast<const power_model*>(&eas), static_cast<const power_model*>(&cv2f)}) {
        energy_meter m(soc, *model);
        // 0-10 ms every core in WFI at 1000 MHz, 1000 mV: the shared logic's leakage 4, its
        // L2's 2, its clock 10; each core's leakage 1: 18 mW.
        m.core_state(0, 0, core_power::wfi);
        m.core_state(0, 1, core_power::wfi);
        EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 18.0);
        // 10-20 ms both cores off but held in reset (no per-core gating): the same 18 mW.
        m.core_state(10 * ms, 0, core_power::off);
        m.core_state(10 * ms, 1, core_power::off);
        EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 18.0);
        // 20-30 ms at 500 MHz, 900 mV: leakage halves, the clock is 10 * 500 * 0.81 uW:
        // 2 + 1 + 4.05 + 0.5 + 0.5 = 8.05 mW.
        m.frequency(20 * ms, 0, 500);
        m.voltage(20 * ms, 0, 900);
        EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 8.05);
        // 30-40 ms the cluster powered down: its power switch's 1 mW, nothing else.
        m.cluster_state(30 * ms, 0, cluster_power::off);
        EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 1.0);
        m.advance_all(40 * ms);
        m.check_totals(40 * ms);
        // uJ: 180 + 180 + 80.5 + 10; each core's 10 in WFI, 10 + 5 off (held in reset).
        EXPECT_NEAR(m.total_energy_j(), 450.5e-6, 1e-15);
        EXPECT_NEAR(m.core_energy_j(0, core_power::wfi), 10e-6, 1e-15);
        EXPECT_NEAR(m.core_energy_j(0, core_power::off), 15e-6, 1e-15);
        EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::on), 16e-6 * 10 * 2 + 7.05e-6 * 10, 1e-15);
        EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::off), 10e-6, 1e-15);
        EXPECT_NEAR(m.uncore_busy_energy_j(0), 0.0, 1e-15);
    }
    // A core that can be power-gated on its own draws nothing off.
    c.power.per_core_power_gating = true;
    energy_meter m(soc, eas);
    m.core_state(0, 0, core_power::off);
    m.core_state(0, 1, core_power::wfi);
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 17.0);
}

TEST(eas_power_model, busy_is_the_table_whatever_the_leakage_and_l2)
{
    cluster_params c = test::small_soc().clusters[0];
    c.leakage.l2_uw_per_kb = 2;
    c.caches.l2_kb = 500;
    eas_power_model eas;
    cluster_snapshot s;
    s.opp_index = 1;
    s.freq_mhz = 1000;
    s.voltage_mv = 1000;
    s.cores_on = 1;
    // One core busy, one in WFI: the table's 200 + 30, however it splits into parts.
    EXPECT_DOUBLE_EQ(eas.uncore_mw(c, s) + eas.core_mw(c, s, core_power::on) + eas.core_mw(c, s, core_power::wfi),
                     230.0);
    EXPECT_DOUBLE_EQ(eas.uncore_mw(c, s), 198.0);
    // Tables measured with half this L2: the other 250 KiB leak 1 mW more at 1000 mV.
    c.eas_l2_kb = 250;
    EXPECT_DOUBLE_EQ(eas.uncore_mw(c, s), 199.0);
    EXPECT_DOUBLE_EQ(eas_uncore_busy_mw(c, 1, 1000), 199.0);
    // Idle: 4 + the whole L2's 2 mW.
    EXPECT_DOUBLE_EQ(uncore_idle_mw(c, 1000, 1000), 6.0);
    // Tables measured with twice this L2, at 500 MHz while the rail is still at 1000 mV (a
    // transition's step): the table's 100 less what it held at its 900 mV (the shared logic's
    // 2, the cores' 2 x 0.5, the measured 1000 KiB's 2), plus what this cluster leaks at
    // 1000 mV (4, and its 500 KiB's 2): 101 mW, never below the idle power's parts.
    c.eas_l2_kb = 1000;
    s.opp_index = 0;
    s.freq_mhz = 500;
    EXPECT_DOUBLE_EQ(eas.uncore_mw(c, s), 101.0);
}

TEST(power_model, the_bound_holds_for_a_table_that_does_not_grow_with_frequency)
{
    soc_params soc = test::small_soc();
    soc.clusters[0].opps = {{500, 900, 10, 300}, {1000, 1000, 30, 200}};
    eas_power_model eas;
    // At 500 MHz with the rail still at 1000 mV (a transition's step), both cores busy: the
    // table's 300 + 2 x 10, and 3 mW more leakage than at the OPP's 900 mV: 323 mW, above the
    // top OPP's 260.
    EXPECT_DOUBLE_EQ(eas.max_cluster_mw(soc.clusters[0]), 323.0);
    energy_meter m(soc, eas);
    m.frequency(1 * ms, 0, 500);
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 323.0);
}

TEST(energy_meter, residencies_sum_to_elapsed_time)
{
    soc_params soc = test::small_soc(3);
    eas_power_model eas;
    energy_meter m(soc, eas);
    std::uint64_t t = 0;
    const core_power cycle[] = {core_power::wfi, core_power::on, core_power::off, core_power::on};
    for (int i = 0; i < 40; i++) {
        t += 1234567ull * (i % 7 + 1);
        m.core_state(t, static_cast<unsigned>(i % 3), cycle[i % 4]);
        if (i % 5 == 0)
            m.frequency(t, 0, i % 2 ? 500 : 1000);
    }
    m.advance_all(t + 99);
    const double total_s = (t + 99) / 1e12;
    for (unsigned cpu = 0; cpu < 3; cpu++) {
        double sum = 0;
        for (core_power s : all_core_power)
            sum += m.core_residency_s(cpu, s);
        EXPECT_NEAR(sum, total_s, 1e-15) << "cpu" << cpu;
    }
    EXPECT_NEAR(m.opp_residency_s(0, 0) + m.opp_residency_s(0, 1), total_s, 1e-15);
    EXPECT_NEAR(m.cluster_residency_s(0, cluster_power::on), total_s, 1e-15);
}

TEST(energy_meter, eas_units_scale_to_milliwatts_per_cluster)
{
    soc_params soc = test::small_soc(1);
    soc.clusters[0].eas_mw_per_unit = 0.187;
    eas_power_model eas;
    energy_meter m(soc, eas);
    // One core on at the top OPP: (30 + 200) units * 0.187 mW, whatever the leakage.
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 230 * 0.187);
    // Powered down: off_power_eas scaled the same way, in both models.
    m.core_state(1 * ms, 0, core_power::off);
    m.cluster_state(1 * ms, 0, cluster_power::off);
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 0.187);
}

TEST(cv2f_power_model, dynamic_plus_leakage_worked_by_hand)
{
    cluster_params c = test::small_soc().clusters[0];
    c.cv2f = {100, 50};
    cv2f_power_model model;
    cluster_snapshot s;
    s.freq_mhz = 1000;
    s.voltage_mv = 1000;
    s.cores_on = 1;
    // 100 uW/MHz/V^2 * 1000 MHz * 1 V^2 = 100 mW, plus the core's leakage at 1000 mV, 1 mW.
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::on), 101.0);
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::wfi), 1.0);
    // Without per-core gating an off core is held in reset and still leaks.
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::off), 1.0);
    c.power.per_core_power_gating = true;
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::off), 0.0);
    // Shared logic: its leakage 4 mW, and 50 * 1000 * 1 uW of activity while a core is busy.
    EXPECT_DOUBLE_EQ(model.uncore_mw(c, s), 54.0);
    s.cores_on = 0;
    EXPECT_DOUBLE_EQ(model.uncore_mw(c, s), 4.0);
    // At 500 MHz and 0.9 V: 100 * 500 * 0.81 uW = 40.5 mW, leakage 0.5 mW.
    s.freq_mhz = 500;
    s.voltage_mv = 900;
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::on), 40.5 + 0.5);
    s.state = cluster_power::off;
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::on), 0.0);
    EXPECT_DOUBLE_EQ(model.uncore_mw(c, s), 1.0);
}

TEST(energy_meter, boot_opp_is_the_highest_unless_configured)
{
    cluster_params c = test::small_soc().clusters[0];
    EXPECT_EQ(boot_opp_index(c), 1);
    c.boot_freq_mhz = 500;
    EXPECT_EQ(boot_opp_index(c), 0);
}


// The meter's own checks: each invariant, broken on purpose, stops the run with its name.
std::string violated(const std::function<void()>& f)
{
    try {
        f();
    } catch (const invariant_violation& e) {
        return e.name() + " @" + format_time_s(e.t_ps()) + " in " + e.block();
    }
    return "none";
}

TEST(energy_meter, a_negative_interval_is_a_simulator_bug)
{
    soc_params soc = test::small_soc();
    eas_power_model eas;
    energy_meter m(soc, eas);
    m.advance_all(2 * ms);
    EXPECT_EQ(violated([&] { m.core_state(1 * ms, 0, core_power::wfi); }),
              "accounting-interval @0.001000000000 in cluster c");
}

// The meter keeps the prices of its last 16 snapshots per cluster, most recently used first.
// Through 19 supply voltages, each visit followed by the one at 1000 mV (always kept), and
// three times round (so that snapshots are replaced, and found again at every position of
// the order), every power is the model's own for that snapshot.
TEST(energy_meter, remembered_prices_are_the_models_whatever_the_order_of_the_snapshots)
{
    soc_params soc = test::small_soc();
    const cluster_params& cp = soc.clusters[0];
    eas_power_model eas;
    energy_meter m(soc, eas);
    cluster_snapshot snap;
    snap.opp_index = boot_opp_index(cp);
    snap.freq_mhz = cp.opps.at(snap.opp_index).freq_mhz;
    snap.cores_on = cp.cores;
    std::uint64_t t = 0;
    unsigned checked = 0;
    for (int i = 0; i < 3 * 19; i++)
        for (int mv : {810 + 10 * (i % 19), 1000}) {
            m.voltage(t += ms, 0, mv);
            snap.voltage_mv = mv;
            const double want = eas.uncore_mw(cp, snap) + cp.cores * eas.core_mw(cp, snap, core_power::on);
            ASSERT_DOUBLE_EQ(m.cluster_power_mw(0), want) << "at " << mv << " mV, step " << i;
            checked++;
        }
    EXPECT_EQ(checked, 114u);
}

// A function of the snapshot, as every power model is (the meter reuses prices): 1 mW above
// its bound at 1111 mV, negative at 1234 mV (supplies of no OPP, which the bound leaves out).
struct spiky_model final : power_model {
    double core_mw(const cluster_params&, const cluster_snapshot& s, core_power k) const override
    {
        return k == core_power::on && s.state == cluster_power::on ? 30 : 0;
    }
    double uncore_mw(const cluster_params&, const cluster_snapshot& s) const override
    {
        return 200 + (s.voltage_mv == 1234 ? -201 : s.voltage_mv == 1111 ? 1 : 0);
    }
};

TEST(energy_meter, power_beyond_the_tables_is_a_simulator_bug)
{
    soc_params soc = test::small_soc();
    spiky_model model;
    energy_meter m(soc, model); // bound: 2 x 30 + 200 = 260 mW
    EXPECT_DOUBLE_EQ(m.max_cluster_power_mw(0), 260.0);
    EXPECT_EQ(violated([&] { m.voltage(1 * ms, 0, 1111); }), "power-within-tables @0.001000000000 in cluster c");
    EXPECT_EQ(violated([&] { m.voltage(2 * ms, 0, 1234); }), "power-within-tables @0.002000000000 in cluster c");
    EXPECT_EQ(violated([&] { m.frequency(3 * ms, 0, 750); }), "power-within-tables @0.003000000000 in cluster c");
}

TEST(energy_meter, totals_are_checked_at_the_end)
{
    soc_params soc = test::small_soc();
    eas_power_model eas;
    energy_meter m(soc, eas);
    m.core_state(1 * ms, 0, core_power::wfi);
    m.advance_all(3 * ms);
    EXPECT_EQ(violated([&] { m.check_totals(3 * ms); }), "none");
    // Integrated up to 3 ms but asked about 4 ms: the intervals do not cover the run.
    EXPECT_EQ(violated([&] { m.check_totals(4 * ms); }), "residency-sum @0.004000000000 in cluster c");
}

TEST(energy_meter, transitions_and_breakdowns_worked_by_hand)
{
    soc_params soc = test::small_soc();
    soc.clusters[0].power.cluster_up_energy_uj = 7;
    soc.clusters[0].power.cluster_down_energy_uj = 3;
    eas_power_model eas;
    energy_meter m(soc, eas);
    // 0-1 ms: both cores busy at 1000 MHz, 1000 mV (31 + 31 + 198 mW); then off, held in reset
    // (1 mW each), the cluster going down for 1 ms (its idle power, 4 mW; +3 uJ), off for 2 ms
    // (1 mW; the rail lowered to 900 mV at 3 ms), coming up for 1 ms (2 + 0.5 + 0.5 mW,
    // +7 uJ), and one core busy again for 1 ms at 500 MHz (10.5 + 0.5 + 100 - 1 mW).
    m.core_state(1 * ms, 0, core_power::off);
    m.core_state(1 * ms, 1, core_power::off);
    m.cluster_state(1 * ms, 0, cluster_power::powering_down);
    m.cluster_state(2 * ms, 0, cluster_power::off);
    m.frequency(3 * ms, 0, 500);
    m.voltage(3 * ms, 0, 900);
    m.cluster_state(4 * ms, 0, cluster_power::powering_up);
    m.cluster_state(5 * ms, 0, cluster_power::on);
    m.core_state(5 * ms, 0, core_power::on);
    m.advance_all(6 * ms);
    m.check_totals(6 * ms);
    // uJ: core0 31 + 10.5 on, 1 + 0.5 off; core1 31, then 1 + 0.5 + 0.5 off; the shared logic
    // busy 198 + 99, going down 4, off 2, coming up 2, transitions 3 + 7: 315.
    EXPECT_NEAR(m.core_energy_j(0, core_power::on), 41.5e-6, 1e-15);
    EXPECT_NEAR(m.core_energy_j(0, core_power::off), 1.5e-6, 1e-15);
    EXPECT_NEAR(m.core_energy_j(1), 33e-6, 1e-15);
    EXPECT_NEAR(m.uncore_busy_energy_j(0), 297e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::powering_down), 4e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::off), 2e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::powering_up), 2e-6, 1e-15);
    EXPECT_NEAR(m.transition_energy_j(0, cluster_transition::power_down), 3e-6, 1e-15);
    EXPECT_NEAR(m.transition_energy_j(0, cluster_transition::power_up), 7e-6, 1e-15);
    EXPECT_EQ(m.transitions(0, cluster_transition::power_up), 1u);
    EXPECT_NEAR(m.uncore_energy_j(0), 315e-6, 1e-15);
    EXPECT_NEAR(m.total_energy_j(), 391e-6, 1e-15);
    // By OPP: 1000 MHz until 3 ms (62 + 198 + 2 + 4 + 3 + 1), 500 MHz after (1 + 7 + 3 + 110).
    EXPECT_NEAR(m.cluster_opp_energy_j(0, 1), 270e-6, 1e-15);
    EXPECT_NEAR(m.cluster_opp_energy_j(0, 0), 121e-6, 1e-15);
    EXPECT_DOUBLE_EQ(m.cluster_residency_s(0, cluster_power::powering_down), 0.001);
    EXPECT_DOUBLE_EQ(m.cluster_residency_s(0, cluster_power::off), 0.002);
}

} // namespace
} // namespace blsim::model
