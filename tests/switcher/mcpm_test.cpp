// tests/switcher/mcpm_test.cpp -- MCPM on a concurrent fake platform: the last man takes its
// cluster down, the first man brings it back, a power-up racing a teardown waits for it and
// sets the cluster up again, a CPU coming up makes the last man abort, and a CPU waiting at its
// gate pokes again for a new power-up.
//
// One SystemC elaboration per process: the four scenarios live in one TEST, each in a world
// of its own (fake platform, MCPM instance), one millisecond apart.
#include <gtest/gtest.h>

#include "fake_soc.h"

namespace {

using blsim::test::fake_soc;
using strings = std::vector<std::string>;

struct world {
    fake_soc soc;
    bls_mcpm m{};
    uint32_t vector[fake_soc::ncpus] = {};
    explicit world(std::uint64_t seed) : soc(seed)
    {
        EXPECT_EQ(bls_mcpm_init(&m, &soc.hw, &bls_mcpm_tc2), 0);
    }
    // What a CPU does to go idle: open its own gate, power down, come back.
    void idle(unsigned cpu)
    {
        bls_mcpm_set_entry_vector(&m, cpu, cpu, 1);
        vector[cpu] = bls_mcpm_cpu_power_down(&m, cpu);
        bls_mcpm_cpu_powered_up(&m, cpu);
    }
    uint32_t cpu_state(unsigned cpu) const
    {
        const unsigned cl = soc.hw.cpu_cluster[cpu];
        return soc.shm(BLS_MCPM_CPU_STATE(cl, bls_mcpm_cpu_index(&soc.hw, cpu)));
    }
    uint32_t cluster_state(unsigned cl) const { return soc.shm(BLS_MCPM_CLUSTER_STATE(cl)); }
};

TEST(mcpm, last_man_first_man_races_and_aborts)
{
    // --- A: cpu2 then cpu3 go idle; cpu3, the last man, takes cluster 1 down; cpu0 later
    // powers cpu3 up (and, as on TC2, an interrupt to it does it) and cpu3, the first man,
    // brings the cluster back.
    world a(1);
    a.soc.run(0, 0, [&] { bls_mcpm_sync_init(&a.m, 0); });
    a.soc.run(2, 1000, [&] { a.idle(2); });
    a.soc.run(3, 2000, [&] { a.idle(3); });
    a.soc.run(0, 50000, [&] {
        bls_mcpm_cpu_power_up(&a.m, 0, 3);
        bls_gic_send_sgi(&a.soc.hw, 0, 3, 0);
    });

    // --- B: as A, but cpu0 powers cpu2 up while cpu3 is cleaning L2 in its critical
    // section: the cluster is not allowed to power off, and cpu2, first man, waits for the
    // teardown to finish and sets the cluster up again.
    world b(2);
    const double B = 1e6;
    b.soc.run(0, B, [&] { bls_mcpm_sync_init(&b.m, 0); });
    b.soc.run(2, B + 1000, [&] { b.idle(2); });
    b.soc.run(3, B + 2000, [&] { b.idle(3); });
    double b_power_up_at = -1;
    b.soc.run(0, B + 2000, [&] {
        // Wait until cpu3 is inside its L2 clean, then power cpu2 up.
        while (b.soc.time_of("clean L2 begin") < 0)
            sc_core::wait(sc_core::sc_time(10, sc_core::SC_NS));
        b_power_up_at = sc_core::sc_time_stamp().to_seconds() * 1e9;
        bls_mcpm_cpu_power_up(&b.m, 0, 2);
        bls_gic_send_sgi(&b.soc.hw, 0, 2, 0);
    });

    // --- C: cpu2 is down; an interrupt wakes it just as cpu3 goes idle: cpu3 counts itself
    // last man, but finds cpu2 coming up and aborts; the cluster stays up.
    world c(3);
    const double C = 2e6;
    c.soc.run(0, C, [&] { bls_mcpm_sync_init(&c.m, 0); });
    c.soc.run(2, C + 1000, [&] { c.idle(2); });
    c.soc.run(3, C + 5000, [&] { c.idle(3); });
    c.soc.run(0, C + 5000, [&] { c.soc.irq_wake(2); });

    // --- D: a CPU waiting at its gate, having poked for a power-up since withdrawn, pokes
    // again for the next (docs/mcpm.md, "the late poke"). cpu2 goes down with its gate
    // closed; a poke is installed and an interrupt wakes it, without a use count (as when a
    // switch withdrew its power-up after the inbound had read its poke): it pokes and waits.
    // That poke is cleared, the next one installed, and cpu0 powers cpu2 up with an
    // interrupt, as a switch choosing it as its inbound does: it fires the new poke.
    world d(4);
    const double D = 3e6;
    d.soc.run(0, D, [&] { bls_mcpm_sync_init(&d.m, 0); });
    d.soc.run(2, D + 1000, [&] {
        bls_mcpm_set_entry_vector(&d.m, 2, 2, 0);
        d.vector[2] = bls_mcpm_cpu_power_down(&d.m, 2);
    });
    d.soc.run(0, D + 100000, [&] {
        bls_mcpm_set_early_poke(&d.m, 0, 2, 0x500000, 0x1);
        d.soc.irq_wake(2);
    });
    d.soc.run(0, D + 200000, [&] {
        bls_mcpm_set_early_poke(&d.m, 0, 2, 0, 0x1);
        bls_mcpm_set_early_poke(&d.m, 0, 2, 0x500000, 0x2);
        bls_mcpm_cpu_power_up(&d.m, 0, 2);
        bls_gic_send_sgi(&d.soc.hw, 0, 2, 0);
    });
    d.soc.run(0, D + 300000, [&] {
        bls_mcpm_set_entry_vector(&d.m, 0, 2, 7);
        d.soc.hw.ops->cpu_send_event(d.soc.hw.plat, 0);
    });

    sc_core::sc_start(sc_core::sc_time(4, sc_core::SC_MS));

    // A
    EXPECT_EQ(a.m.stats.last_man, 1u);
    EXPECT_EQ(a.m.stats.first_man, 1u);
    // cpu0's power-up masks its interrupts around MCPM's lock, as Linux's does, and unmasks
    // them after (the idle paths here are the test's, which leaves the masking to its kernel).
    EXPECT_EQ(a.soc.irq_masks, (std::vector<std::pair<unsigned, int>>{{0, 1}, {0, 0}}));
    EXPECT_EQ(a.soc.cluster_power_offs[1], 1u);
    // cpu3: its wake-up armed (cpu2's already is: bit 4, now bit 5 too), GIC interface off,
    // cluster power-down enabled and the global wake-ups armed, L1 and L2 cleaned, CCI S4
    // (0x300000 + 0x5000) snoops off, off with its cluster; then up as first man, S4 on, and
    // once running its own wake-up and resume address cleared (cpu0's power-up counted it,
    // so it is not the first man by use count: cluster_is_up does not run, and the global
    // wake-ups stay armed, as in Linux).
    EXPECT_EQ(a.soc.log_of(3),
              (strings{"wake_int_mask=0x30", "mmio 0x200000=0x0", "pwrdn_en cluster1=1",
                       "wake_int_mask=0xc30", "clean L1 begin", "clean L1 end", "clean L2 begin",
                       "clean L2 end", "mmio 0x305000=0x0", "wfi: power off", "cluster 1 off",
                       "powered up", "mmio 0x305000=0x3", "wake_int_mask=0xc10", "bx_addr cpu3=0x0"}));
    // cpu0's power-up of a CPU in an unused cluster keeps the cluster powered first, then
    // sets the CPU's resume address and wake-up, and the interrupt wakes it.
    EXPECT_EQ(a.soc.log_of(0), (strings{"pwrdn_en cluster1=0", "bx_addr cpu3=0x80008000",
                                        "wake_int_mask=0xc30", "mmio 0x100f00=0x80000"}));
    EXPECT_EQ(a.soc.log_of(2), (strings{"wake_int_mask=0x10", "mmio 0x200000=0x0", "clean L1 begin",
                                        "clean L1 end", "wfi: power off"}));
    // The timeline's view of cpu3: MCPM's states in the order the protocol allows.
    std::vector<unsigned> cpu3;
    for (const auto& [cpu, state] : a.soc.mcpm_states)
        if (cpu == 3)
            cpu3.push_back(state);
    EXPECT_EQ(cpu3, (std::vector<unsigned>{BLS_CPU_GOING_DOWN, BLS_CPU_DOWN, BLS_CPU_COMING_UP, BLS_CPU_UP}));
    EXPECT_EQ(a.cluster_state(1), BLS_CLUSTER_UP);
    EXPECT_EQ(a.cpu_state(3), BLS_CPU_UP);
    EXPECT_EQ(a.cpu_state(2), BLS_CPU_DOWN);
    EXPECT_EQ(a.vector[3], 1u);
    EXPECT_EQ(a.m.use_count[1][1], 1u);
    EXPECT_EQ(a.m.use_count[1][0], 0u);

    // B
    EXPECT_GT(b_power_up_at, 0);
    EXPECT_EQ(b.m.stats.last_man, 1u);
    EXPECT_EQ(b.m.stats.first_man, 1u);
    EXPECT_EQ(b.soc.cluster_power_offs[1], 0u); // cluster_powerup cleared PWRDN_EN in time
    const double cci_off = b.soc.time_of("mmio 0x305000=0x0");
    const double cci_on = b.soc.time_of("mmio 0x305000=0x3");
    EXPECT_GT(cci_off, 0);
    EXPECT_GT(cci_on, cci_off); // set up again only after the teardown completed
    EXPECT_EQ(b.cluster_state(1), BLS_CLUSTER_UP);
    EXPECT_EQ(b.cpu_state(2), BLS_CPU_UP);
    EXPECT_EQ(b.cpu_state(3), BLS_CPU_DOWN);
    EXPECT_EQ(b.vector[2], 1u);

    // C
    EXPECT_EQ(c.m.stats.last_man, 0u);
    EXPECT_EQ(c.m.stats.last_man_aborted, 1u);
    EXPECT_EQ(c.m.stats.first_man, 0u);
    EXPECT_EQ(c.soc.cluster_power_offs[1], 0u);
    EXPECT_EQ(c.cluster_state(1), BLS_CLUSTER_UP);
    EXPECT_EQ(c.cpu_state(2), BLS_CPU_UP);
    EXPECT_EQ(c.cpu_state(3), BLS_CPU_DOWN);
    EXPECT_EQ(c.m.use_count[1][0], 1u); // counted up by powered_up, after an interrupt wake
    strings c3 = c.soc.log_of(3);
    EXPECT_EQ(std::count(c3.begin(), c3.end(), std::string("clean L2 begin")), 0);

    // D: the first poke on entry, the second from the gate (a late one), then through.
    strings d2;
    for (const std::string& e : d.soc.log_of(2))
        if (e.rfind("mmio 0x500000", 0) == 0)
            d2.push_back(e);
    EXPECT_EQ(d2, (strings{"mmio 0x500000=0x1", "mmio 0x500000=0x2"}));
    EXPECT_GT(d.soc.time_of("mmio 0x500000=0x2"), D + 200000);
    EXPECT_EQ(d.m.stats.late_pokes, 1u);
    EXPECT_EQ(d.vector[2], 7u);
    EXPECT_EQ(d.cpu_state(2), BLS_CPU_UP);
}

} // namespace
