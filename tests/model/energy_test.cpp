// tests/model/energy_test.cpp -- the energy meter and power models, worked by hand.
#include <gtest/gtest.h>

#include "blsim/model/energy.h"
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

} // namespace
} // namespace blsim::model
