// tests/switcher/cpufreq_test.cpp -- the merged virtual OPP table and the switch decision,
// for TC2's tables (arm_big_little.c, docs/sources.md).
#include <gtest/gtest.h>

#include <vector>

#include <bls/cpufreq.h>

namespace {

const unsigned a15[] = {500, 600, 700, 800, 900, 1000, 1100, 1200};
const unsigned a7[] = {350, 400, 500, 600, 700, 800, 900, 1000};
constexpr unsigned big = 0, little = 1;

TEST(cpufreq, tc2_merged_table_halves_the_a7_and_skips_the_duplicate_500)
{
    bls_vtable t;
    ASSERT_EQ(bls_cpufreq_build(&t, big, a15, 8, little, a7, 8), 0);
    std::vector<unsigned> virt, cluster, actual;
    for (unsigned i = 0; i < t.n; i++) {
        virt.push_back(t.opp[i].virt_mhz);
        cluster.push_back(t.opp[i].cluster);
        actual.push_back(t.opp[i].actual_mhz);
    }
    EXPECT_EQ(virt, (std::vector<unsigned>{175, 200, 250, 300, 350, 400, 450, 500, 600, 700, 800, 900,
                                           1000, 1100, 1200}));
    EXPECT_EQ(cluster, (std::vector<unsigned>{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(actual[7], 1000u); // virtual 500 is the A7 at 1000 MHz
    EXPECT_EQ(t.big_min_mhz, 500u);
    EXPECT_EQ(t.little_max_mhz, 500u);
}

TEST(cpufreq, the_boundary_keeps_the_current_cluster)
{
    bls_vtable t;
    ASSERT_EQ(bls_cpufreq_build(&t, big, a15, 8, little, a7, 8), 0);
    EXPECT_EQ(bls_cpufreq_cluster_for(&t, big, 450), little);
    EXPECT_EQ(bls_cpufreq_cluster_for(&t, big, 500), big); // exactly 500 stays put
    EXPECT_EQ(bls_cpufreq_cluster_for(&t, little, 500), little);
    EXPECT_EQ(bls_cpufreq_cluster_for(&t, little, 600), big);
    EXPECT_EQ(bls_cpufreq_cluster_for(&t, big, 1200), big);
    EXPECT_EQ(bls_cpufreq_cluster_for(&t, little, 175), little);
    EXPECT_EQ(bls_cpufreq_actual_mhz(&t, little, 450), 900u);
    EXPECT_EQ(bls_cpufreq_actual_mhz(&t, big, 500), 500u);
    EXPECT_EQ(bls_cpufreq_actual_mhz(&t, little, 500), 1000u);
    EXPECT_NE(bls_cpufreq_lookup(&t, 450), nullptr);
    EXPECT_EQ(bls_cpufreq_lookup(&t, 455), nullptr);
}

TEST(cpufreq, bad_tables_are_refused)
{
    bls_vtable t;
    const unsigned descending[] = {600, 500};
    EXPECT_EQ(bls_cpufreq_build(&t, big, descending, 2, little, a7, 8), -BLS_EINVAL);
    EXPECT_EQ(bls_cpufreq_build(&t, big, a15, 0, little, a7, 8), -BLS_EINVAL);
    EXPECT_EQ(bls_cpufreq_build(&t, big, a15, 8, big, a7, 8), -BLS_EINVAL);
    // A little cluster whose halved range overlaps the big one cannot be merged.
    const unsigned fast_little[] = {800, 1600};
    EXPECT_EQ(bls_cpufreq_build(&t, big, a15, 8, little, fast_little, 2), -BLS_EINVAL);
}

} // namespace
