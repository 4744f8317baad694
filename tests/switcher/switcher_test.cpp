// tests/switcher/switcher_test.cpp -- the switch handshake on a concurrent fake platform: the
// order of what the outbound and the inbound do, -EBUSY, and the pairing rules.
//
// One SystemC elaboration per process: this executable holds a single TEST; the pairing
// checks need no simulation and have their own.
#include <gtest/gtest.h>

#include <algorithm>

#include "fake_soc.h"

namespace {

using blsim::test::fake_soc;
using strings = std::vector<std::string>;

bls_switcher_config config()
{
    bls_switcher_config c{};
    c.enabled = 1;
    c.pairing = BLS_PAIRING_LINUX;
    c.boot_cluster = 0;
    c.costs = {100, 100, 100, 100, 100, 100, 100};
    return c;
}

TEST(switcher, linux_pairing_takes_the_last_free_cpu_and_in_order_the_first)
{
    fake_soc soc(1); // cpu0-1 in cluster 0, cpu2-3 in cluster 1
    bls_mcpm m;
    ASSERT_EQ(bls_mcpm_init(&m, &soc.hw, &bls_mcpm_tc2), 0);
    bls_switcher sw;
    bls_switcher_config c = config();
    ASSERT_EQ(bls_switcher_init(&sw, &soc.hw, &m, &c), 0);
    EXPECT_EQ(bls_switcher_nlogical(&sw), 2u);
    EXPECT_EQ(sw.pair[0][1], 3u); // cpu0 with cpu3
    EXPECT_EQ(sw.pair[1][1], 2u); // cpu1 with cpu2
    EXPECT_EQ(bls_switcher_logical_of(&sw, 2), -1);
    EXPECT_EQ(bls_switcher_logical_of(&sw, 1), 1);
    c.pairing = BLS_PAIRING_IN_ORDER;
    ASSERT_EQ(bls_switcher_init(&sw, &soc.hw, &m, &c), 0);
    EXPECT_EQ(sw.pair[0][1], 2u);
    EXPECT_EQ(sw.pair[1][1], 3u);
    c.enabled = 0;
    ASSERT_EQ(bls_switcher_init(&sw, &soc.hw, &m, &c), 0);
    EXPECT_EQ(bls_switcher_nlogical(&sw), 4u);
    EXPECT_EQ(bls_switch_request(&sw, 0, 0, 1, nullptr, nullptr), -BLS_EINVAL); // switcher off
}

TEST(switcher, turning_it_off_and_on_changes_the_logical_map)
{
    fake_soc soc(1);
    bls_mcpm m;
    ASSERT_EQ(bls_mcpm_init(&m, &soc.hw, &bls_mcpm_tc2), 0);
    bls_switcher sw;
    bls_switcher_config c = config();
    ASSERT_EQ(bls_switcher_init(&sw, &soc.hw, &m, &c), 0);
    ASSERT_EQ(bls_switcher_active(&sw), 1);

    // A pair that is not home cannot be dissolved: the kernel switches it back first.
    sw.host[0] = 3;
    sw.hosted[0] = -1;
    sw.hosted[3] = 0;
    EXPECT_EQ(bls_switcher_set_active(&sw, 0), -BLS_EINVAL);
    EXPECT_EQ(bls_switcher_active(&sw), 1);
    sw.host[0] = 0;
    sw.hosted[0] = 0;
    sw.hosted[3] = -1;

    // Off: every CPU its own logical CPU.
    ASSERT_EQ(bls_switcher_set_active(&sw, 0), 0);
    EXPECT_EQ(bls_switcher_nlogical(&sw), 4u);
    for (unsigned cpu = 0; cpu < 4; cpu++)
        EXPECT_EQ(bls_switcher_logical_of(&sw, cpu), static_cast<int>(cpu));
    EXPECT_EQ(bls_switch_request(&sw, 0, 0, 1, nullptr, nullptr), -BLS_EINVAL);

    // On again: the pairs, hosted by their boot-cluster CPUs; the partners offline.
    ASSERT_EQ(bls_switcher_set_active(&sw, 1), 0);
    EXPECT_EQ(bls_switcher_nlogical(&sw), 2u);
    EXPECT_EQ(bls_switcher_logical_of(&sw, 0), 0);
    EXPECT_EQ(bls_switcher_logical_of(&sw, 1), 1);
    EXPECT_EQ(bls_switcher_logical_of(&sw, 2), -1);
    EXPECT_EQ(bls_switcher_logical_of(&sw, 3), -1);
    EXPECT_EQ(bls_switch_request(&sw, 0, 0, 1, nullptr, nullptr), 0);
}

struct done_log {
    std::vector<std::pair<unsigned, unsigned>> calls;
    static void done(void* cookie, unsigned logical, unsigned cluster)
    {
        static_cast<done_log*>(cookie)->calls.push_back({logical, cluster});
    }
};

TEST(switcher, handshake_order_between_outbound_and_inbound)
{
    fake_soc soc(7);
    bls_mcpm m;
    ASSERT_EQ(bls_mcpm_init(&m, &soc.hw, &bls_mcpm_tc2), 0);
    bls_switcher sw;
    bls_switcher_config c = config();
    ASSERT_EQ(bls_switcher_init(&sw, &soc.hw, &m, &c), 0);
    done_log dl;
    int first = 99, second = 99;
    // The inbound's early poke is a write to GICD_SGIR: deliver "inbound alive".
    soc.on_sgi = [&](unsigned, uint32_t v) {
        if ((v & 0xf) == BLS_SGI_INBOUND_ALIVE)
            for (unsigned t = 0; t < fake_soc::ncpus; t++)
                if (v & (1u << (16 + t)))
                    bls_switcher_alive(&sw, t);
    };
    // An SPI targeting cpu0 before the switch (word 8 of ITARGETSR: SPIs 32-35).
    soc.regs[0x100000 + BLS_GICD_ITARGETSR + 32] = 0x01010201;

    soc.run(0, 0, [&] { bls_mcpm_sync_init(&m, 0); });
    // cpu2 and cpu3 are partners: offline until a switch needs them. cpu3, last of its
    // cluster, takes cluster 1 down.
    soc.run(2, 1000, [&] { bls_switcher_offline(&sw, 2); });
    soc.run(3, 2000, [&] {
        bls_switcher_offline(&sw, 3);
        bls_switcher_inbound(&sw, 3);
    });
    // cpu0 asks for logical cpu0 to move to cluster 1, and acts as its kswitcher.
    soc.run(0, 10000, [&] {
        // Logical cpu0's next deadline is on cpu0's timer: it must move with it (tick
        // suspend and resume).
        soc.hw.ops->timer_set(soc.hw.plat, 0, 5000000);
        first = bls_switch_request(&sw, 0, 0, 1, &done_log::done, &dl);
        second = bls_switch_request(&sw, 0, 0, 1, &done_log::done, &dl);
        bls_switcher_service(&sw, 0); // arm: power cpu3 up, kick it
        EXPECT_EQ(bls_switcher_phase(&sw, 0), BLS_SWITCH_ARMED);
        while (bls_switcher_phase(&sw, 0) != BLS_SWITCH_ALIVE) // "keeps running normal work"
            sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
        bls_switcher_service(&sw, 0); // the blackout; then cpu0 powers down for good
    });

    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    EXPECT_EQ(first, 0);
    EXPECT_EQ(second, -BLS_EBUSY);
    EXPECT_EQ(sw.stats.busy_refusals, 1u);
    EXPECT_EQ(dl.calls, (std::vector<std::pair<unsigned, unsigned>>{{0, 1}}));
    EXPECT_EQ(bls_switcher_host_of(&sw, 0), 3u);
    EXPECT_EQ(bls_switcher_logical_of(&sw, 3), 0);
    EXPECT_EQ(bls_switcher_logical_of(&sw, 0), -1);
    EXPECT_EQ(sw.stats.switches, 1u);
    EXPECT_EQ(bls_switcher_phase(&sw, 0), BLS_SWITCH_IDLE);

    auto at = [&](const std::string& what) { return soc.time_of(what); };
    const double powerup_cluster = at("pwrdn_en cluster1=0");   // cluster_powerup
    const double powerup_cpu = at("bx_addr cpu3=0x80008000");   // cpu_powerup
    const double alive = at("mmio 0x100f00=0x10001");           // cpu3's poke: SGI 1 to cpu0
    const double blackout_begin = at("trace 4 0 3");
    // SPIs 32, 34 and 35 targeted cpu0 (bit 0) and go to cpu3 (bit 3); SPI 33 stays on cpu1.
    const double migrate = at("mmio 0x100820=0x8080208");
    const double blackout_end = at("trace 5 0 0");
    const double ob_down = at("trace 6 0 3");
    double ob_off = -1;
    for (const fake_soc::entry& e : soc.log)
        if (e.cpu == 0 && e.what == "wfi: power off")
            ob_off = e.t_ns;
    ASSERT_GT(powerup_cluster, 0);
    EXPECT_LE(powerup_cluster, powerup_cpu); // the cluster is kept up before the CPU is asked
    EXPECT_LT(powerup_cpu, alive);
    EXPECT_LT(alive, blackout_begin);
    EXPECT_LT(blackout_begin, migrate); // GIC migration inside the blackout
    EXPECT_LT(migrate, blackout_end);
    EXPECT_LT(blackout_end, ob_down);   // the outbound powers down after the handshake
    EXPECT_GT(ob_off, ob_down);
    // cpu3 took cluster 1 down when it went offline; cpu1 still holds cluster 0 up, so
    // cpu0 was not a last man, and cluster 1, powered up again for the inbound, stays up.
    EXPECT_EQ(m.stats.last_man, 1u);
    EXPECT_EQ(m.stats.first_man, 1u);
    EXPECT_EQ(soc.cluster_power_offs[0], 0u);
    EXPECT_EQ(soc.cluster_power_offs[1], 1u);
    EXPECT_EQ(soc.regs[0x100000 + BLS_GICD_ITARGETSR + 32], 0x08080208u);
    // The timer's deadline moved with the logical CPU: off on the outbound, on the inbound.
    EXPECT_EQ(soc.hw.ops->timer_get(soc.hw.plat, 0), BLS_TIMER_OFF);
    EXPECT_EQ(soc.hw.ops->timer_get(soc.hw.plat, 3), 5000000u);
}

} // namespace
