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
    eas_power_model eas(1.0);
    energy_meter m(soc, eas);

    // t=0: both cores on at 1000 MHz: 30 + 30 + cluster 200 = 260 mW.
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 260.0);
    m.core_state(1 * ms, 1, core_power::wfi);    // 30 + 0 + 200 = 230 mW
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 230.0);
    m.frequency(2 * ms, 0, 500);                 // 10 + 0 + 100 = 110 mW
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 110.0);
    m.core_state(3 * ms, 0, core_power::wfi);    // every core idle: WFI 5 mW
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 5.0);
    m.core_state(4 * ms, 0, core_power::off);
    m.core_state(4 * ms, 1, core_power::off);
    m.cluster_state(4 * ms, 0, cluster_power::off); // cluster sleep: 1 mW
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 1.0);
    m.advance_all(5 * ms);

    // mW * ms = uJ: core0 30+30+10 = 70, core1 30, uncore 200+200+100+5+1 = 506.
    EXPECT_NEAR(m.core_energy_j(0), 70e-6, 1e-15);
    EXPECT_NEAR(m.core_energy_j(1), 30e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0), 506e-6, 1e-15);
    EXPECT_NEAR(m.cluster_energy_j(0), 606e-6, 1e-15);
    EXPECT_NEAR(m.total_energy_j(), 606e-6, 1e-15);

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

TEST(energy_meter, residencies_sum_to_elapsed_time)
{
    soc_params soc = test::small_soc(3);
    eas_power_model eas(0.5);
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

TEST(energy_meter, eas_units_scale_to_milliwatts)
{
    soc_params soc = test::small_soc(1);
    eas_power_model eas(0.187);
    energy_meter m(soc, eas);
    // One core on at the top OPP: (30 + 200) units * 0.187 mW.
    EXPECT_DOUBLE_EQ(m.cluster_power_mw(0), 230 * 0.187);
}

TEST(cv2f_power_model, dynamic_plus_leakage_worked_by_hand)
{
    cluster_params c = test::small_soc().clusters[0];
    c.cv2f = {100, 50, 10, 20};
    cv2f_power_model model;
    cluster_snapshot s;
    s.freq_mhz = 1000;
    s.voltage_mv = 1000;
    s.cores_on = 1;
    // 100 uW/MHz/V^2 * 1000 MHz * 1 V^2 = 100 mW, plus 10 mW/V * 1 V.
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::on), 110.0);
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::wfi), 10.0);
    // Without per-core gating an off core is held in reset and still leaks.
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::off), 10.0);
    c.power.per_core_power_gating = true;
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::off), 0.0);
    // Cluster: 50 * 1000 * 1 uW + 20 mW/V.
    EXPECT_DOUBLE_EQ(model.uncore_mw(c, s), 70.0);
    s.cores_on = 0;
    EXPECT_DOUBLE_EQ(model.uncore_mw(c, s), 20.0);
    // At 500 MHz and 0.9 V: 100 * 500 * 0.81 uW = 40.5 mW, leakage 9 mW.
    s.freq_mhz = 500;
    s.voltage_mv = 900;
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::on), 40.5 + 9.0);
    s.state = cluster_power::off;
    EXPECT_DOUBLE_EQ(model.core_mw(c, s, core_power::on), 0.0);
    EXPECT_DOUBLE_EQ(model.uncore_mw(c, s), 0.0);
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
    eas_power_model eas(1.0);
    energy_meter m(soc, eas);
    m.advance_all(2 * ms);
    EXPECT_EQ(violated([&] { m.core_state(1 * ms, 0, core_power::wfi); }),
              "accounting-interval @0.001000000000 in cluster c");
}

struct spiky_model final : power_model {
    double spike_mw = 0;
    double core_mw(const cluster_params&, const cluster_snapshot& s, core_power k) const override
    {
        return k == core_power::on && s.state == cluster_power::on ? 30 : 0;
    }
    double uncore_mw(const cluster_params&, const cluster_snapshot&) const override { return 200 + spike_mw; }
};

TEST(energy_meter, power_beyond_the_tables_is_a_simulator_bug)
{
    soc_params soc = test::small_soc();
    spiky_model model;
    energy_meter m(soc, model); // bound: 2 x 30 + 200 = 260 mW
    EXPECT_DOUBLE_EQ(m.max_cluster_power_mw(0), 260.0);
    model.spike_mw = 1;
    EXPECT_EQ(violated([&] { m.frequency(1 * ms, 0, 500); }), "power-within-tables @0.001000000000 in cluster c");
    model.spike_mw = -201;
    EXPECT_EQ(violated([&] { m.frequency(2 * ms, 0, 1000); }), "power-within-tables @0.002000000000 in cluster c");
    model.spike_mw = 0;
    EXPECT_EQ(violated([&] { m.frequency(3 * ms, 0, 750); }), "power-within-tables @0.003000000000 in cluster c");
}

TEST(energy_meter, totals_are_checked_at_the_end)
{
    soc_params soc = test::small_soc();
    eas_power_model eas(1.0);
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
    eas_power_model eas(1.0);
    energy_meter m(soc, eas);
    // 0-1 ms: both cores busy at 1000 MHz (30 + 30 + 200 mW); then off, the cluster going down
    // for 1 ms (WFI 5 mW, +3 uJ), off for 2 ms (1 mW), coming up for 1 ms (5 mW, +7 uJ), and
    // one core busy again for 1 ms at 500 MHz (10 + 100 mW).
    m.core_state(1 * ms, 0, core_power::off);
    m.core_state(1 * ms, 1, core_power::off);
    m.cluster_state(1 * ms, 0, cluster_power::powering_down);
    m.cluster_state(2 * ms, 0, cluster_power::off);
    m.frequency(3 * ms, 0, 500);
    m.cluster_state(4 * ms, 0, cluster_power::powering_up);
    m.cluster_state(5 * ms, 0, cluster_power::on);
    m.core_state(5 * ms, 0, core_power::on);
    m.advance_all(6 * ms);
    m.check_totals(6 * ms);
    // uJ: core0 30 + 10 = 40, core1 30; uncore busy 200 + 100, going down 5, off 2, coming
    // up 5, transitions 3 + 7: 322.
    EXPECT_NEAR(m.core_energy_j(0, core_power::on), 40e-6, 1e-15);
    EXPECT_NEAR(m.uncore_busy_energy_j(0), 300e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::powering_down), 5e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::off), 2e-6, 1e-15);
    EXPECT_NEAR(m.uncore_energy_j(0, cluster_power::powering_up), 5e-6, 1e-15);
    EXPECT_NEAR(m.transition_energy_j(0, cluster_transition::power_down), 3e-6, 1e-15);
    EXPECT_NEAR(m.transition_energy_j(0, cluster_transition::power_up), 7e-6, 1e-15);
    EXPECT_EQ(m.transitions(0, cluster_transition::power_up), 1u);
    EXPECT_NEAR(m.uncore_energy_j(0), 322e-6, 1e-15);
    EXPECT_NEAR(m.total_energy_j(), 392e-6, 1e-15);
    // By OPP: 1000 MHz until 3 ms (60 + 200 + 5 + 3 + 1), 500 MHz after (1 + 7 + 5 + 110).
    EXPECT_NEAR(m.cluster_opp_energy_j(0, 1), 269e-6, 1e-15);
    EXPECT_NEAR(m.cluster_opp_energy_j(0, 0), 123e-6, 1e-15);
    EXPECT_DOUBLE_EQ(m.cluster_residency_s(0, cluster_power::powering_down), 0.001);
    EXPECT_DOUBLE_EQ(m.cluster_residency_s(0, cluster_power::off), 0.002);
}

} // namespace
} // namespace blsim::model
