// tests/platform/kernel_config_test.cpp -- the governors' tunables: one table (bls/governor.h)
// gives the kernel's defaults, the scenario's and the copy between them.
#include <gtest/gtest.h>

#include <bls/governor.h>
#include <bls/sched.h>

#include <cstring>

#include "blsim/soc/platform.h"

namespace {

using blsim::soc::governor_config;
using blsim::soc::governor_tunables;

// A scenario that sets no tunable gives the kernel exactly Linux's defaults, field for field
// (the interactive governor's are its 2013 generation's, the scenario's default variant).
TEST(kernel_config, a_scenario_without_tunables_gives_the_kernels_defaults)
{
    bls_governor_tunables linux_defaults;
    bls_governor_default_tunables(&linux_defaults);
    const bls_governor_tunables from_scenario = governor_tunables(governor_config{});
    EXPECT_EQ(0, std::memcmp(&linux_defaults, &from_scenario, sizeof linux_defaults));
    EXPECT_EQ(99u, from_scenario.interactive.go_hispeed_load);
    EXPECT_EQ(80000, from_scenario.interactive.timer_slack_us);
    EXPECT_EQ(20000u, from_scenario.ondemand.sampling_rate_us);
    EXPECT_EQ(20u, from_scenario.conservative.down_threshold);
    EXPECT_EQ(10000u, from_scenario.schedutil.rate_limit_us);
}

// Each key lands in its sysfs-named field, units as the key says.
TEST(kernel_config, each_governor_key_is_copied_into_its_field)
{
    governor_config g;
    g.interactive.go_hispeed_load_pct = 70;
    g.interactive.timer_slack_us = -1;
    g.interactive.boost = true;
    g.interactive.go_hispeed_load2_pct = 95;
    g.interactive.target_loads = "85 1000:95";
    g.ondemand.up_threshold_pct = 95;
    g.ondemand.powersave_bias_permille = 100;
    g.conservative.freq_step_pct = 10;
    g.conservative.sampling_down_factor = 3;
    g.schedutil.rate_limit_us = 500;
    const bls_governor_tunables t = governor_tunables(g);
    EXPECT_EQ(70u, t.interactive.go_hispeed_load);
    EXPECT_EQ(-1, t.interactive.timer_slack_us);
    EXPECT_EQ(1, t.interactive.boost);
    EXPECT_EQ(95u, t.interactive.go_hispeed_load2);
    ASSERT_EQ(2u, t.interactive.ntarget_loads);
    EXPECT_EQ(1000u, t.interactive.target_load_freq[1]);
    EXPECT_EQ(95u, t.interactive.target_load[1]);
    EXPECT_EQ(80000u, t.interactive.min_sample_time_us); // untouched: the default
    EXPECT_EQ(95u, t.ondemand.up_threshold);
    EXPECT_EQ(100u, t.ondemand.powersave_bias);
    EXPECT_EQ(10u, t.conservative.freq_step);
    EXPECT_EQ(3u, t.conservative.sampling_down_factor);
    EXPECT_EQ(500u, t.schedutil.rate_limit_us);
}

} // namespace

namespace {

// HMP's table (bls/sched.h) gives the scenario its keys in their own units: each key's default
// times its scale is the kernel's default, to within the key's unit. Only the two intervals
// are not exact: Linux's 4096 << 10 ns is 4194.304 us, which the scenario's whole microseconds
// round to 4194 (and a scenario copies 4194000 ns into the kernel).
TEST(kernel_config, hmp_keys_default_to_linuxs_values_in_their_units)
{
    bls_hmp_config linux_defaults;
    bls_hmp_default_config(&linux_defaults);
    const blsim::soc::hmp_config scenario_defaults;
#define BLSIM_EXPECT_DEFAULT(kind, field, c_type, def, key, min, max, unit, scale, ...)                      \
    EXPECT_LT(linux_defaults.field - static_cast<c_type>(scenario_defaults.key) * static_cast<c_type>(scale),  \
              static_cast<c_type>(scale))                                                                     \
        << #key;
    BLS_HMP_TUNABLES(BLSIM_EXPECT_DEFAULT)
#undef BLSIM_EXPECT_DEFAULT
    EXPECT_EQ(4194304u, linux_defaults.up_interval_ns);
    EXPECT_EQ(4194, scenario_defaults.up_interval_us);
    EXPECT_EQ(700u, linux_defaults.up_threshold);
    EXPECT_EQ(700, scenario_defaults.up_threshold);
    EXPECT_EQ(1, linux_defaults.forced_up);
    EXPECT_TRUE(scenario_defaults.forced_up_migration);
    EXPECT_EQ(5, scenario_defaults.prio_filter_nice);
}

} // namespace
