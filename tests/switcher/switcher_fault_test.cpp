// tests/switcher/switcher_fault_test.cpp -- a switch whose inbound never comes up: the outbound
// kicks it again after inbound_timeout_ns, gives the switch up after BLS_SWITCH_KICKS kicks
// (the power-up withdrawn, the logical CPU stays, its request answered with the cluster it is
// on), and a later switch to the same inbound works; a power-up the power controller reports
// failed ends the switch at the outbound's next service, without waiting for the timeout.
//
// One SystemC elaboration per process: this executable holds a single TEST.
#include <gtest/gtest.h>

#include "fake_soc.h"

namespace {

using blsim::test::fake_soc;

struct done_log {
    std::vector<std::pair<unsigned, unsigned>> calls;
    static void done(void* cookie, unsigned logical, unsigned cluster)
    {
        static_cast<done_log*>(cookie)->calls.push_back({logical, cluster});
    }
};

unsigned kicks_to(const fake_soc& soc, unsigned cpu)
{
    // GICD_SGIR = target list << 16 | SGI 0 (BLS_SGI_KICK), from the outbound's switcher.
    const std::string w = "mmio 0x100f00=0x" + std::to_string(1u << (16 + cpu) >> 16) + "0000";
    unsigned n = 0;
    for (const fake_soc::entry& e : soc.log)
        n += e.what == w;
    return n;
}

TEST(switcher_faults, an_inbound_that_never_comes_up_is_kicked_again_then_the_switch_given_up)
{
    fake_soc soc(11);
    bls_mcpm m;
    ASSERT_EQ(bls_mcpm_init(&m, &soc.hw, &bls_mcpm_tc2), 0);
    bls_switcher sw;
    bls_switcher_config c{};
    c.enabled = 1;
    c.pairing = BLS_PAIRING_LINUX; // logical 0: cpu0 and cpu3
    c.costs = {100, 100, 100, 100, 100, 100, 100};
    c.inbound_timeout_ns = 100000; // 100 us
    ASSERT_EQ(bls_switcher_init(&sw, &soc.hw, &m, &c), 0);
    soc.on_sgi = [&](unsigned, uint32_t v) {
        if ((v & 0xf) == BLS_SGI_INBOUND_ALIVE)
            for (unsigned t = 0; t < fake_soc::ncpus; t++)
                if (v & (1u << (16 + t)))
                    bls_switcher_alive(&sw, t);
    };
    done_log dl;
    std::vector<uint64_t> give_up_ns;
    int not_an_inbound = 99, reported = 99, aborted_seen[2] = {99, 99};

    soc.run(0, 0, [&] { bls_mcpm_sync_init(&m, 0); });
    soc.run(2, 1000, [&] { bls_switcher_offline(&sw, 2); });
    soc.run(3, 2000, [&] {
        // Offline; then the inbound of the second switch, and the host of logical cpu0.
        bls_switcher_offline(&sw, 3);
        bls_switcher_inbound(&sw, 3);
        // Third switch: back to cpu0 (once it is off), whose power-up the power controller
        // reports failed.
        while (soc.cpu_powered(0))
            sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        ASSERT_EQ(bls_switch_request(&sw, 3, 0, 0, &done_log::done, &dl), 0);
        bls_switcher_service(&sw, 3);
        ASSERT_EQ(bls_switcher_phase(&sw, 0), BLS_SWITCH_ARMED);
        while (bls_switcher_phase(&sw, 0) == BLS_SWITCH_ARMED) {
            sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
            bls_switcher_service(&sw, 3);
        }
        give_up_ns.push_back(soc.hw.ops->now_ns(soc.hw.plat, 3));
        aborted_seen[1] = bls_switcher_take_aborted(&sw, 0);
    });
    // The power controller's interrupt handler, on cpu1, 20 us into the third switch.
    soc.run(1, 0, [&] {
        while (sw.stats.switches == 0 || bls_switcher_phase(&sw, 0) != BLS_SWITCH_ARMED)
            sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        sc_core::wait(sc_core::sc_time(20, sc_core::SC_US));
        not_an_inbound = bls_switcher_inbound_failed(&sw, 1, 2);
        reported = bls_switcher_inbound_failed(&sw, 1, 0);
        bls_mcpm_cpu_power_up_failed(&m, 1, 0);
    });
    // First switch: logical cpu0 to cluster 1, with cpu3 deaf to its kicks.
    soc.run(0, 10000, [&] {
        soc.deaf[3] = true;
        ASSERT_EQ(bls_switch_request(&sw, 0, 0, 1, &done_log::done, &dl), 0);
        bls_switcher_service(&sw, 0);
        while (bls_switcher_phase(&sw, 0) == BLS_SWITCH_ARMED) {
            sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
            bls_switcher_service(&sw, 0);
        }
        give_up_ns.push_back(soc.hw.ops->now_ns(soc.hw.plat, 0));
        aborted_seen[0] = bls_switcher_take_aborted(&sw, 0);
        EXPECT_EQ(bls_switcher_take_aborted(&sw, 0), 0); // once
        // What the give-up left: cpu3 down and unwanted, its wake-up and poke gone.
        EXPECT_EQ(m.use_count[1][1], 0u);
        EXPECT_EQ(soc.shm(BLS_MCPM_POKE_ADDR(1, 1)), 0u);
        EXPECT_EQ(soc.hw.ops->mmio_read32(soc.hw.plat, 0, soc.hw.spc_base + BLS_SPC_WAKE_INT_MASK) &
                      BLS_SPC_WAKE_CPU(1, 1),
                  0u);
        // Second switch, cpu3 hearing again: it goes through.
        soc.deaf[3] = false;
        ASSERT_EQ(bls_switch_request(&sw, 0, 0, 1, &done_log::done, &dl), 0);
        bls_switcher_service(&sw, 0);
        while (bls_switcher_phase(&sw, 0) != BLS_SWITCH_ALIVE)
            sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        soc.deaf[0] = true; // from now on: no interrupt wakes cpu0 (nor the one it just had)
        soc.forget_irqs(0);
        bls_switcher_service(&sw, 0); // the blackout; cpu0 powers down
    });

    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));

    // First switch: three kicks, 100 us apart, then given up: the logical CPU stayed on
    // cluster 0 and its request was answered so.
    ASSERT_EQ(give_up_ns.size(), 2u);
    EXPECT_EQ(aborted_seen[0], 1);
    EXPECT_EQ(sw.stats.kick_retries, 2u);
    EXPECT_GE(give_up_ns[0], 10000u + 3 * 100000u);
    EXPECT_LT(give_up_ns[0], 10000u + 3 * 100000u + 20000u);
    // Second: through, to cpu3 (kicked once more). Third: given up when the power controller
    // reported cpu0's power-up failed, 20 us in, long before its first timeout: the handler,
    // on cpu1, kicked the outbound (cpu3, hosting logical cpu0) to have it give up.
    EXPECT_EQ(kicks_to(soc, 3), 5u);
    const double kicked = soc.time_of("trace 2 0 0"); // BLS_TRACE_INBOUND_KICKED, to cpu0
    ASSERT_GT(kicked, 0);
    EXPECT_GE(static_cast<double>(give_up_ns[1]), kicked + 20000);
    EXPECT_LT(static_cast<double>(give_up_ns[1]), kicked + 100000);
    EXPECT_EQ(not_an_inbound, 0);
    EXPECT_EQ(reported, 1);
    EXPECT_EQ(aborted_seen[1], 1);
    EXPECT_EQ(sw.stats.aborted, 2u);
    EXPECT_EQ(sw.stats.switches, 1u);
    EXPECT_EQ(dl.calls, (std::vector<std::pair<unsigned, unsigned>>{{0, 0}, {0, 1}, {0, 1}}));
    EXPECT_EQ(bls_switcher_host_of(&sw, 0), 3u);
    EXPECT_EQ(bls_switcher_phase(&sw, 0), BLS_SWITCH_IDLE);
    EXPECT_EQ(m.stats.power_up_errors, 1u);
    EXPECT_EQ(m.stats.power_ups_cancelled, 2u);
    EXPECT_EQ(m.use_count[0][0], 0u);
}

} // namespace
