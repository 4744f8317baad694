// tests/model/gic400_test.cpp -- the GIC-400 through its TLM register frames: access latency
// and DVFS, banking, SGI filters and sources, spurious reads, the irq and wake lines, SPI
// routing, the Linux gic_migrate_target procedure, priorities, EOI errors, level-sensitive
// SPIs and unmapped offsets.
//
// One SystemC elaboration per process: every TEST builds its own bench (gtest_discover_tests
// runs each TEST in a process of its own). Register side effects take place when an access is
// issued; the stimulus thread then waits out the returned delay (20 GIC cycles, 100 ns at
// 200 MHz), so the k-th access of a test is issued at k * 100 ns.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <systemc>
#include <vector>

#include "tlm_stim.h"

namespace blsim::test {
namespace {

using G = model::gic400;
using sc_core::sc_time;
using sc_core::SC_NS;

constexpr std::uint32_t spurious = 1023;

sc_time ns(double v) { return sc_time(v, SC_NS); }

// SGIR value: SGI @id, target filter @filter, target list @list.
constexpr std::uint32_t sgir(unsigned id, unsigned filter, unsigned list = 0)
{
    return (filter << 24) | (list << 16) | id;
}

TEST(gic400, register_access_costs_20_gic_cycles_and_follows_dvfs)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        EXPECT_EQ(b.dr(0, G::GICD_TYPER), 0x84u);
        EXPECT_EQ(b.last_delay, ns(100)); // 20 cycles at 200 MHz
        EXPECT_EQ(sc_core::sc_time_stamp(), ns(100));
        b.cw(0, G::GICC_PMR, 0xff); // the CPU interface frame costs the same
        EXPECT_EQ(b.last_delay, ns(100));
        EXPECT_EQ(sc_core::sc_time_stamp(), ns(200));
        // The delay is added to the initiator's local time offset, not substituted for it.
        b.access(false, 0, false, G::GICD_IIDR, 0, 4, ns(30));
        EXPECT_EQ(b.last_delay, ns(130));
        EXPECT_EQ(sc_core::sc_time_stamp(), ns(330));

        b.clock.set_freq_mhz(100); // DVFS: half the frequency, twice the latency
        EXPECT_EQ(b.dr(0, G::GICD_TYPER), 0x84u);
        EXPECT_EQ(b.last_delay, ns(200));
        EXPECT_EQ(sc_core::sc_time_stamp(), ns(530));
        EXPECT_EQ(b.cr(0, G::GICC_PMR), 0xf8u);
        EXPECT_EQ(b.last_delay, ns(200));
        EXPECT_EQ(sc_core::sc_time_stamp(), ns(730));
    });
}

TEST(gic400, banked_registers_and_typer)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        // GICD_TYPER: ITLinesNumber 4 (32 * 5 = 160 IRQs), CPUNumber 4 (five interfaces).
        for (unsigned c : {0u, 4u}) {
            const std::uint32_t typer = b.dr(c, G::GICD_TYPER);
            EXPECT_EQ(typer & 0x1f, 4u);
            EXPECT_EQ((typer >> 5) & 7, 4u);
            EXPECT_EQ(typer, 0x84u);
        }

        // ITARGETSR words 0-7: each byte is the reader's own bit...
        EXPECT_EQ(b.dr(0, G::GICD_ITARGETSR + 0x00), 0x01010101u);
        EXPECT_EQ(b.dr(3, G::GICD_ITARGETSR + 0x1c), 0x08080808u);
        EXPECT_EQ(b.dr(4, G::GICD_ITARGETSR + 0x10), 0x10101010u);
        // ...and writes to them are ignored, word or byte.
        b.dw(0, G::GICD_ITARGETSR + 0x10, 0xffffffffu);
        b.dw(1, G::GICD_ITARGETSR + 0x13, 0x1f, 1);
        EXPECT_EQ(b.dr(0, G::GICD_ITARGETSR + 0x10), 0x01010101u);
        EXPECT_EQ(b.dr(1, G::GICD_ITARGETSR + 0x10), 0x02020202u);
        EXPECT_EQ(b.dr(2, G::GICD_ITARGETSR + 0x10), 0x04040404u);
        // Word 8 onwards (SPIs) is shared.
        b.dw(0, G::GICD_ITARGETSR + 32, 0x04, 1);
        EXPECT_EQ(b.dr(3, G::GICD_ITARGETSR + 32), 0x00000004u);

        // ISENABLER0: SGI enables read as one; PPI enables are per CPU.
        EXPECT_EQ(b.dr(0, G::GICD_ISENABLER), 0x0000ffffu);
        b.dw(1, G::GICD_ISENABLER, 1u << 20);
        EXPECT_EQ(b.dr(1, G::GICD_ISENABLER), 0x0010ffffu);
        EXPECT_EQ(b.dr(0, G::GICD_ISENABLER), 0x0000ffffu);
        EXPECT_EQ(b.dr(2, G::GICD_ICENABLER), 0x0000ffffu);
        b.dw(1, G::GICD_ICENABLER, 0xffffffffu); // clears the PPI; SGI enables are fixed
        EXPECT_EQ(b.dr(1, G::GICD_ISENABLER), 0x0000ffffu);

        // IPRIORITYR for SGIs and PPIs: per CPU.
        b.dw(1, G::GICD_IPRIORITYR + 20, 0x00000090u); // PPIs 20-23
        EXPECT_EQ(b.dr(1, G::GICD_IPRIORITYR + 20), 0x00000090u);
        EXPECT_EQ(b.dr(0, G::GICD_IPRIORITYR + 20), 0x00000000u);
        b.dw(3, G::GICD_IPRIORITYR + 2, 0x48, 1); // SGI 2
        EXPECT_EQ(b.dr(3, G::GICD_IPRIORITYR + 0), 0x00480000u);
        EXPECT_EQ(b.dr(2, G::GICD_IPRIORITYR + 0), 0x00000000u);
    });
}

TEST(gic400, sgi_target_filters)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        const std::uint64_t errors0 = b.gic.guest_errors();
        // SPENDSGIR word w holds SGIs 4w..4w+3, a byte each, a bit per source CPU.
        auto spend = [&](unsigned reader, unsigned word) { return b.dr(reader, G::GICD_SPENDSGIR + 4 * word); };

        // Filter 0, from cpu1: the list (cpus 0, 2, 4).
        b.dw(1, G::GICD_SGIR, sgir(3, 0, 0x15));
        for (unsigned c = 0; c < 5; c++)
            EXPECT_EQ(spend(c, 0), (c % 2 == 0) ? 0x02000000u : 0u) << "cpu" << c;
        EXPECT_EQ(b.gic.irqs_raised(), 3u);

        // Filter 1, from cpu2: all but self; the list is ignored.
        b.dw(2, G::GICD_SGIR, sgir(7, 1, 0x01));
        for (unsigned c = 0; c < 5; c++)
            EXPECT_EQ(spend(c, 1), c == 2 ? 0u : 0x04000000u) << "cpu" << c;
        EXPECT_EQ(b.gic.irqs_raised(), 7u);

        // Filter 2, from cpu4: self only.
        b.dw(4, G::GICD_SGIR, sgir(8, 2, 0x0f));
        for (unsigned c = 0; c < 5; c++)
            EXPECT_EQ(spend(c, 2), c == 4 ? 0x00000010u : 0u) << "cpu" << c;
        EXPECT_EQ(b.gic.irqs_raised(), 8u);

        // Filter 3: reserved, ignored, a guest error.
        b.dw(0, G::GICD_SGIR, sgir(9, 3, 0x1f));
        for (unsigned c = 0; c < 5; c++) {
            EXPECT_EQ(spend(c, 2), c == 4 ? 0x00000010u : 0u) << "cpu" << c;
            EXPECT_EQ(spend(c, 3), 0u) << "cpu" << c;
        }
        EXPECT_EQ(b.gic.irqs_raised(), 8u);
        EXPECT_EQ(b.gic.guest_errors(), errors0 + 1);
        // The earlier SGIs are all still there.
        EXPECT_EQ(spend(0, 0), 0x02000000u);
        EXPECT_EQ(spend(0, 1), 0x04000000u);
    });
}

TEST(gic400, sgi_sources_are_acknowledged_lowest_first)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.dw(2, G::GICD_SGIR, sgir(5, 0, 0x01)); // cpu2 first...
        b.dw(1, G::GICD_SGIR, sgir(5, 0, 0x01)); // ...then cpu1
        EXPECT_EQ(b.dr(0, G::GICD_SPENDSGIR + 4), 0x00000600u); // SGI 5: sources 1 and 2
        EXPECT_EQ(b.gic.irqs_raised(), 2u);

        EXPECT_EQ(b.cr(0, G::GICC_IAR), 5u | (1u << 10));
        EXPECT_EQ(b.dr(0, G::GICD_SPENDSGIR + 4), 0x00000400u); // source 2 still pending
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);               // SGI 5 is active
        b.cw(0, G::GICC_EOIR, 5u | (1u << 10));
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 5u | (2u << 10));
        EXPECT_EQ(b.dr(0, G::GICD_SPENDSGIR + 4), 0u);
        b.cw(0, G::GICC_EOIR, 5u | (2u << 10));
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);

        EXPECT_EQ(b.gic.irqs_delivered(), 2u);
        EXPECT_EQ(b.gic.spurious_reads(), 2u);
        EXPECT_EQ(b.gic.guest_errors(), 0u);
    });
}

TEST(gic400, spurious_when_nothing_can_be_signalled)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious); // nothing pending
        b.setup_spi(40, 0x01, 0x80);
        b.gic.raise_spi(40);

        b.dw(0, G::GICD_CTLR, 0); // distributor off
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        b.dw(0, G::GICD_CTLR, 1);

        b.cw(0, G::GICC_CTLR, 0); // CPU interface off
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        b.cw(0, G::GICC_CTLR, 1);

        b.cw(0, G::GICC_PMR, 0x80); // equal to the priority: masked
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        b.cw(0, G::GICC_PMR, 0x40); // above it: masked
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);

        EXPECT_EQ(b.dr(0, G::GICD_ISPENDR + 4), 1u << 8); // the spurious reads took nothing
        EXPECT_EQ(b.gic.irqs_delivered(), 0u);
        b.cw(0, G::GICC_PMR, 0x88);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 40u);
        EXPECT_EQ(b.gic.spurious_reads(), 5u);
        EXPECT_EQ(b.gic.irqs_delivered(), 1u);
    });
}

TEST(gic400, irq_line_follows_the_cpu_interface_and_wake_does_not)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.dw(0, G::GICD_CTLR, 1);       // 0 ns
        b.cw(1, G::GICC_CTLR, 1);       // 100
        b.cw(1, G::GICC_PMR, 0xff);     // 200
        b.setup_spi(50, 0x02);          // 300, 400, 500: targets cpu1
        b.gic.raise_spi(50);            // 600: irq1 and wake1 rise
        sc_core::wait(ns(100));
        EXPECT_TRUE(b.irq_sig[1].read());
        EXPECT_TRUE(b.wake_sig[1].read());
        EXPECT_EQ(b.cr(1, G::GICC_IAR), 50u); // 700: both fall
        EXPECT_FALSE(b.irq_sig[1].read());
        b.cw(1, G::GICC_EOIR, 50);      // 800
        b.cw(1, G::GICC_CTLR, 0);       // 900: interface off
        b.gic.raise_spi(50);            // 1000: wake1 rises, irq1 does not
        sc_core::wait(ns(100));
        EXPECT_FALSE(b.irq_sig[1].read());
        EXPECT_TRUE(b.wake_sig[1].read());
        EXPECT_EQ(b.cr(1, G::GICC_IAR), spurious); // 1100
        b.cw(1, G::GICC_CTLR, 1);       // 1200: irq1 rises
        EXPECT_TRUE(b.irq_sig[1].read());
        EXPECT_EQ(b.cr(1, G::GICC_IAR), 50u); // 1300: both fall
        b.cw(1, G::GICC_EOIR, 50);      // 1400
    });
    const std::vector<gic_edge> expected = {
        {ns(600), true, 1, true},   {ns(600), false, 1, true},
        {ns(700), true, 1, false},  {ns(700), false, 1, false},
        {ns(1000), false, 1, true}, {ns(1200), true, 1, true},
        {ns(1300), true, 1, false}, {ns(1300), false, 1, false},
    };
    EXPECT_EQ(b.edges, expected);
}

// A distributor write recomputes the lines of the CPUs the change can matter to: cpu0
// configures an SPI pending for cpu2, whose line follows its enable and its priority (and
// the other CPUs' lines stay low).
TEST(gic400, another_cpus_configuration_of_an_spi_moves_its_targets_line)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.setup_spi(40, 0x04); // cpu2
        b.dw(0, G::GICD_ISPENDR + 4, 1u << 8); // made pending by cpu0
        EXPECT_EQ(b.irq_lines(), 0x04u);
        b.dw(0, G::GICD_ICENABLER + 4, 1u << 8); // disabled
        EXPECT_EQ(b.irq_lines(), 0u);
        b.dw(0, G::GICD_ISENABLER + 4, 1u << 8); // enabled again
        EXPECT_EQ(b.irq_lines(), 0x04u);
        b.dw(0, G::GICD_IPRIORITYR + 40, 0xf8, 1); // no higher than cpu2's mask (0xf8)
        EXPECT_EQ(b.irq_lines(), 0u);
        b.dw(0, G::GICD_IPRIORITYR + 40, 0x80, 1);
        EXPECT_EQ(b.irq_lines(), 0x04u);
        b.dw(0, G::GICD_ICPENDR + 4, 1u << 8); // its pending state cleared
        EXPECT_EQ(b.irq_lines(), 0u);
    });
}

TEST(gic400, spi_routing_and_byte_accesses)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.setup_spi(40, 0x04); // cpu2
        b.gic.raise_spi(40);
        for (unsigned c : {0u, 1u, 3u, 4u})
            EXPECT_EQ(b.cr(c, G::GICC_IAR), spurious) << "cpu" << c;
        EXPECT_EQ(b.irq_lines(), 0x04u); // cpu2's only

        b.dw(0, G::GICD_ITARGETSR + 40, 0x08, 1); // retarget to cpu3 while pending
        EXPECT_EQ(b.cr(2, G::GICC_IAR), spurious);
        EXPECT_EQ(b.irq_lines(), 0x08u); // cpu3's only
        EXPECT_EQ(b.cr(3, G::GICC_IAR), 40u);
        b.cw(3, G::GICC_EOIR, 40);
        EXPECT_EQ(b.gic.irqs_delivered(), 1u);

        // Byte writes touch their byte only; targets of absent CPU interfaces read as zero.
        b.dw(0, G::GICD_ITARGETSR + 41, 0x10, 1);
        b.dw(0, G::GICD_ITARGETSR + 43, 0x03, 1);
        EXPECT_EQ(b.dr(0, G::GICD_ITARGETSR + 40), 0x03001008u);
        b.dw(0, G::GICD_ITARGETSR + 42, 0xff, 1);
        EXPECT_EQ(b.dr(0, G::GICD_ITARGETSR + 40), 0x031f1008u);
        EXPECT_EQ(b.dr(0, G::GICD_ITARGETSR + 42, 1), 0x1fu);

        b.dw(0, G::GICD_IPRIORITYR + 41, 0x90, 1);
        b.dw(0, G::GICD_IPRIORITYR + 43, 0xe0, 1);
        EXPECT_EQ(b.dr(0, G::GICD_IPRIORITYR + 40), 0xe0009000u);
        b.dw(0, G::GICD_IPRIORITYR + 42, 0x5848, 2); // halfword: IDs 42 and 43
        EXPECT_EQ(b.dr(0, G::GICD_IPRIORITYR + 40), 0x58489000u);
        EXPECT_EQ(b.dr(0, G::GICD_IPRIORITYR + 41, 1), 0x90u);
    });
}

TEST(gic400, migrate_target_moves_spis_and_reraises_pending_sgis)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.dw(3, G::GICD_SGIR, sgir(1, 0, 0x01)); // SGI 1 from cpu3, pending on cpu0
        b.setup_spi(45, 0x01);                   // SPI 45 on cpu0, pending
        b.gic.raise_spi(45);
        b.dw(0, G::GICD_ITARGETSR + 44, 0x11, 1); // SPI 44: cpu0 and cpu4 (not pending)
        b.dw(0, G::GICD_ITARGETSR + 46, 0x02, 1); // SPI 46: cpu1 only

        // gic_migrate_target(2), executed by cpu0 (drivers/irqchip/irq-gic.c).
        const unsigned cur = 0, next = 2;
        const std::uint32_t typer = b.dr(cur, G::GICD_TYPER);
        const unsigned gic_irqs = 32 * ((typer & 0x1f) + 1);
        const std::uint32_t cur_target_mask = 0x01010101u << cur;
        const unsigned ror_val = (cur - next) & 31;
        auto ror32 = [](std::uint32_t w, unsigned s) { return s ? (w >> s) | (w << (32 - s)) : w; };
        for (unsigned i = 8; i < (gic_irqs + 3) / 4; i++) {
            std::uint32_t val = b.dr(cur, G::GICD_ITARGETSR + 4 * i);
            const std::uint32_t active_mask = val & cur_target_mask;
            if (active_mask) {
                val &= ~active_mask;
                val |= ror32(active_mask, ror_val);
                b.dw(cur, G::GICD_ITARGETSR + 4 * i, val);
            }
        }
        for (unsigned i = 0; i < 16; i += 4) {
            std::uint32_t val = b.dr(cur, G::GICD_SPENDSGIR + i);
            if (!val)
                continue;
            b.dw(cur, G::GICD_CPENDSGIR + i, val);
            for (unsigned j = i; j < i + 4; j++) {
                if (val & 0xff)
                    b.dw(cur, G::GICD_SGIR, (1u << (next + 16)) | j);
                val >>= 8;
            }
        }

        EXPECT_EQ(b.dr(0, G::GICD_ITARGETSR + 44), 0x00020414u);
        EXPECT_EQ(b.dr(0, G::GICD_SPENDSGIR), 0u);
        EXPECT_EQ(b.dr(2, G::GICD_SPENDSGIR), 0x00000100u); // SGI 1, source cpu0
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        EXPECT_EQ(b.cr(2, G::GICC_IAR), 1u | (0u << 10)); // the original source is lost
        b.cw(2, G::GICC_EOIR, 1);
        EXPECT_EQ(b.cr(2, G::GICC_IAR), 45u);
        b.cw(2, G::GICC_EOIR, 45);
        EXPECT_EQ(b.cr(2, G::GICC_IAR), spurious);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        EXPECT_EQ(b.gic.irqs_delivered(), 2u);
        EXPECT_EQ(b.gic.guest_errors(), 0u);
    });
}

TEST(gic400, priority_order_and_running_priority)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.setup_spi(40, 0x01, 0xa0);
        b.setup_spi(41, 0x01, 0x80);
        b.setup_spi(42, 0x01, 0x40);
        b.setup_spi(43, 0x01, 0x60);
        b.setup_spi(44, 0x01, 0x60);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0xffu); // idle

        // Highest priority (lowest value) first, whatever the IDs.
        b.gic.raise_spi(40);
        b.gic.raise_spi(41);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 41u);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0x80u);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious); // 40 (0xa0) blocked by the running 0x80
        b.cw(0, G::GICC_EOIR, 41);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0xffu);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 40u);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0xa0u);
        // A higher priority one preempts the running one.
        b.gic.raise_spi(42);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 42u);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0x40u);
        b.cw(0, G::GICC_EOIR, 42);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0xa0u);
        b.cw(0, G::GICC_EOIR, 40);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0xffu);

        // Equal priority: the lower ID first, and no preemption by an equal priority.
        b.gic.raise_spi(44);
        b.gic.raise_spi(43);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 43u);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        b.cw(0, G::GICC_EOIR, 43);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 44u);
        b.cw(0, G::GICC_EOIR, 44);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0xffu);

        // 32 levels: the low three bits of a priority read as zero.
        b.dw(0, G::GICD_IPRIORITYR + 50, 0xa7, 1);
        EXPECT_EQ(b.dr(0, G::GICD_IPRIORITYR + 48), 0x00a00000u);
        b.cw(0, G::GICC_PMR, 0x57);
        EXPECT_EQ(b.cr(0, G::GICC_PMR), 0x50u);
        EXPECT_EQ(b.gic.guest_errors(), 0u);
    });
}

TEST(gic400, eoi_of_an_inactive_interrupt_is_a_guest_error)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.setup_spi(40, 0x01, 0x80);
        b.gic.raise_spi(40);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 40u);
        b.gic.raise_spi(40); // active and pending
        const std::uint64_t errors0 = b.gic.guest_errors();
        const std::uint64_t delivered0 = b.gic.irqs_delivered();

        b.cw(0, G::GICC_EOIR, 41); // never active
        EXPECT_EQ(b.gic.guest_errors(), errors0 + 1);
        b.cw(1, G::GICC_EOIR, 40); // active, but on cpu0
        EXPECT_EQ(b.gic.guest_errors(), errors0 + 2);
        b.cw(0, G::GICC_EOIR, 3); // an SGI that is not active
        EXPECT_EQ(b.gic.guest_errors(), errors0 + 3);
        EXPECT_EQ(b.dr(0, G::GICD_ISACTIVER + 4), 1u << 8);
        EXPECT_EQ(b.dr(0, G::GICD_ISPENDR + 4), 1u << 8);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0x80u);
        EXPECT_EQ(b.cr(1, G::GICC_RPR), 0xffu);

        b.cw(0, G::GICC_EOIR, 40); // the real one
        EXPECT_EQ(b.gic.guest_errors(), errors0 + 3);
        EXPECT_EQ(b.dr(0, G::GICD_ISACTIVER + 4), 0u);
        EXPECT_EQ(b.cr(0, G::GICC_RPR), 0xffu);
        b.cw(0, G::GICC_EOIR, 40); // twice
        EXPECT_EQ(b.gic.guest_errors(), errors0 + 4);
        EXPECT_EQ(b.gic.irqs_delivered(), delivered0);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 40u); // the second edge is still there
    });
}

TEST(gic400, level_sensitive_spi_pends_again_while_the_line_is_high)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.setup_spi(40, 0x01);
        const std::uint32_t cfg = b.dr(0, G::GICD_ICFGR + 8); // IDs 32-47
        b.dw(0, G::GICD_ICFGR + 8, cfg & ~(2u << 16));      // 40: level-sensitive
        EXPECT_EQ(b.dr(0, G::GICD_ICFGR + 8), cfg & ~(2u << 16));
        const std::uint64_t raised0 = b.gic.irqs_raised();

        b.gic.set_spi_level(40, true);
        EXPECT_EQ(b.dr(0, G::GICD_ISPENDR + 4), 1u << 8);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 40u);
        b.cw(0, G::GICC_EOIR, 40); // line still high: pending again
        EXPECT_EQ(b.dr(0, G::GICD_ISPENDR + 4), 1u << 8);
        EXPECT_TRUE(b.irq_sig[0].read());
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 40u);
        b.gic.set_spi_level(40, false);
        b.cw(0, G::GICC_EOIR, 40); // line low: done
        EXPECT_EQ(b.dr(0, G::GICD_ISPENDR + 4), 0u);
        EXPECT_FALSE(b.irq_sig[0].read());
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);

        // A level that drops before it is acknowledged leaves nothing pending.
        b.gic.set_spi_level(40, true);
        b.gic.set_spi_level(40, false);
        EXPECT_EQ(b.dr(0, G::GICD_ISPENDR + 4), 0u);
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        EXPECT_EQ(b.gic.irqs_raised(), raised0 + 2);
        EXPECT_EQ(b.gic.irqs_delivered(), 2u);
    });
}

TEST(gic400, unmapped_offsets_read_as_zero_and_count_guest_errors)
{
    gic_bench b("bench");
    run(b, [](gic_bench& b) {
        EXPECT_EQ(b.gic.guest_errors(), 0u);
        EXPECT_EQ(b.dr(0, 0x010), 0u); // reserved in the distributor
        EXPECT_EQ(b.last_delay, ns(100));
        EXPECT_EQ(b.gic.guest_errors(), 1u);
        EXPECT_EQ(b.cr(0, 0x030), 0u); // reserved in the CPU interface
        EXPECT_EQ(b.gic.guest_errors(), 2u);
        b.dw(0, 0x010, 0xffffffffu); // ignored
        EXPECT_EQ(b.gic.guest_errors(), 3u);
        EXPECT_EQ(b.dr(0, 0x010), 0u);
        EXPECT_EQ(b.gic.guest_errors(), 4u);
        EXPECT_EQ(b.dr(0, G::GICD_CTLR), 0u); // mapped: no error
        EXPECT_EQ(b.gic.guest_errors(), 4u);
    });
}

} // namespace
} // namespace blsim::test
