// tests/model/jitter_test.cpp -- seeded timing jitter (model/jitter.h): the counter-based
// generator against values worked out by hand (an independent implementation of SplitMix64
// and FNV-1a), the independence of blocks, the bounds, the counts; and the GIC-400's jittered
// register accesses and SGI delivery through its TLM frames.
//
// One SystemC elaboration per process: the GIC tests build their bench inside the TEST
// (gtest_discover_tests runs each TEST in a process of its own).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <systemc>
#include <vector>

#include "blsim/model/jitter.h"
#include "tlm_stim.h"

namespace blsim::test {
namespace {

using model::jitter;
using model::jitter_class;
using model::jitter_params;
using model::jitter_source;
using sc_core::sc_time;

sc_time ps(std::uint64_t v) { return sc_time::from_value(v); }
sc_time ns(double v) { return sc_time(v, sc_core::SC_NS); }

jitter_params on(double pct = 50)
{
    jitter_params p;
    p.enabled = true;
    p.register_access_pct = p.shared_memory_pct = p.memory_access_pct = p.wakeup_pct = pct;
    p.power_transition_pct = p.dvfs_pct = p.cache_maintenance_pct = pct;
    p.sgi_delivery_ns = 1000;
    return p;
}

TEST(jitter, generator_matches_values_worked_out_by_hand)
{
    // SplitMix64 seeded with 0: its first output is the well-known 0xe220a8397b1dcdaf.
    EXPECT_EQ(model::splitmix64_mix(0x9e3779b97f4a7c15ull), 0xe220a8397b1dcdafull);
    // FNV-1a's test vectors, and a block name.
    EXPECT_EQ(model::jitter_block_id(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(model::jitter_block_id("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(model::jitter_block_id("cpu3"), 0x2135f290944ca4ceull);
    // Seed 1, block "cpu3": its key and first three draws.
    const std::uint64_t key = model::jitter_key(1, model::jitter_block_id("cpu3"));
    EXPECT_EQ(key, 0xdf8825370334642dull);
    EXPECT_EQ(model::jitter_bits(key, 0), 0x7a9190c624585f10ull);
    EXPECT_EQ(model::jitter_bits(key, 1), 0x82c1dfb358631db6ull);
    EXPECT_EQ(model::jitter_bits(key, 2), 0xdcfcdf78f3e7fadeull);
    EXPECT_DOUBLE_EQ(model::jitter_unit(0x7a9190c624585f10ull), 0.47878365361643327);
    EXPECT_DOUBLE_EQ(model::jitter_unit(0x82c1dfb358631db6ull), 0.5107707798819202);
    // Another seed, another key.
    EXPECT_EQ(model::jitter_key(2, model::jitter_block_id("cpu3")), 0x98b1313613e3647aull);

    // Through a stream: u = 2 * 0.4787836... - 1 = -0.0424327; 100 ns at 50 % becomes
    // 100000 * (1 - 0.0212163) = 97878.4 ps, rounded to 97878.
    jitter_source src(on(50), 1);
    jitter j = src.stream("cpu3");
    EXPECT_EQ(j.apply(ps(100000), jitter_class::shared_memory), ps(97878));
    EXPECT_DOUBLE_EQ(j.next_unit(), 0.5107707798819202); // the second draw
    EXPECT_EQ(j.draws(), 2u);
    EXPECT_EQ(src.draws(jitter_class::shared_memory), 1u); // next_unit() perturbs nothing
}

TEST(jitter, blocks_are_independent_of_each_other)
{
    // Block b's sequence is the same whether block a draws before, between or not at all,
    // and whether other blocks exist.
    auto sequence_of_b = [](int a_draws_between, bool more_blocks) {
        jitter_source src(on(50), 7);
        jitter a = src.stream("a");
        jitter extra;
        if (more_blocks)
            extra = src.stream("zzz");
        jitter b = src.stream("b");
        std::vector<sc_time> out;
        for (int i = 0; i < 20; i++) {
            for (int k = 0; k < a_draws_between; k++)
                a.apply(ns(100), jitter_class::register_access);
            if (more_blocks)
                extra.apply(ns(100), jitter_class::dvfs);
            out.push_back(b.apply(ns(100), jitter_class::register_access));
        }
        return out;
    };
    const std::vector<sc_time> alone = sequence_of_b(0, false);
    EXPECT_EQ(sequence_of_b(3, false), alone);
    EXPECT_EQ(sequence_of_b(1, true), alone);
    // ... and it is not constant, nor another block's.
    EXPECT_GT(std::set<sc_time>(alone.begin(), alone.end()).size(), 10u);
    jitter_source src(on(50), 7);
    jitter c = src.stream("c");
    std::vector<sc_time> other;
    for (int i = 0; i < 20; i++)
        other.push_back(c.apply(ns(100), jitter_class::register_access));
    EXPECT_NE(other, alone);
    // Same seed, same block name: the same sequence, in another source.
    jitter_source again(on(50), 7);
    jitter c2 = again.stream("c");
    for (int i = 0; i < 20; i++)
        EXPECT_EQ(c2.apply(ns(100), jitter_class::register_access), other[static_cast<std::size_t>(i)]);
}

TEST(jitter, bounds_are_respected_and_counted)
{
    for (double pct : {10.0, 50.0, 100.0}) {
        jitter_source src(on(pct), 3);
        jitter j = src.stream("cluster.a15.dvfs");
        const std::uint64_t nominal = 1000000; // 1 us
        std::uint64_t lo = ~0ull, hi = 0;
        for (int i = 0; i < 10000; i++) {
            const std::uint64_t v = j.apply(ps(nominal), jitter_class::dvfs).value();
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        const double f = pct / 100;
        EXPECT_GE(lo, static_cast<std::uint64_t>(nominal * (1 - f))) << pct;
        EXPECT_LE(hi, static_cast<std::uint64_t>(nominal * (1 + f))) << pct;
        // Both sides of the nominal are reached, close to the bounds.
        EXPECT_LT(lo, static_cast<std::uint64_t>(nominal * (1 - 0.9 * f))) << pct;
        EXPECT_GT(hi, static_cast<std::uint64_t>(nominal * (1 + 0.9 * f))) << pct;
        EXPECT_EQ(src.draws(jitter_class::dvfs), 10000u);
        EXPECT_EQ(src.draws(jitter_class::register_access), 0u);
    }
    // SGI delivery: an extra delay in [0, sgi_delivery_ns).
    jitter_source src(on(50), 3);
    jitter j = src.stream("gic400.sgi");
    sc_time lo = ns(2000), hi = sc_core::SC_ZERO_TIME;
    for (int i = 0; i < 10000; i++) {
        const sc_time d = j.delay(jitter_class::sgi_delivery);
        lo = std::min(lo, d);
        hi = std::max(hi, d);
    }
    EXPECT_LT(hi, ns(1000));
    EXPECT_GT(hi, ns(900));
    EXPECT_LT(lo, ns(100));
    EXPECT_EQ(src.draws(jitter_class::sgi_delivery), 10000u);
}

TEST(jitter, nothing_is_drawn_when_off_at_zero_or_for_a_zero_latency)
{
    // Off: the nominal, no draw.
    jitter_params off = on(50);
    off.enabled = false;
    jitter_source src_off(off, 1);
    jitter j = src_off.stream("gic400");
    EXPECT_FALSE(j.enabled());
    EXPECT_EQ(j.apply(ps(12345), jitter_class::register_access), ps(12345));
    EXPECT_EQ(j.delay(jitter_class::sgi_delivery), sc_core::SC_ZERO_TIME);
    EXPECT_EQ(j.draws(), 0u);
    jitter none; // default-constructed: off
    EXPECT_EQ(none.apply(ps(777), jitter_class::wakeup), ps(777));

    // On, with one class at 0 %: that class is nominal and draws nothing.
    jitter_params p = on(50);
    p.wakeup_pct = 0;
    p.sgi_delivery_ns = 0;
    jitter_source src(p, 1);
    jitter k = src.stream("pwrc.cpu0");
    EXPECT_FALSE(k.enabled(jitter_class::wakeup));
    EXPECT_TRUE(k.enabled(jitter_class::power_transition));
    EXPECT_EQ(k.apply(ps(5000000), jitter_class::wakeup), ps(5000000));
    EXPECT_EQ(k.delay(jitter_class::sgi_delivery), sc_core::SC_ZERO_TIME);
    EXPECT_EQ(k.apply(sc_core::SC_ZERO_TIME, jitter_class::power_transition), sc_core::SC_ZERO_TIME);
    EXPECT_EQ(k.draws(), 0u);
    EXPECT_NE(k.apply(ps(5000000), jitter_class::power_transition), ps(5000000)); // (almost surely)
    EXPECT_EQ(k.draws(), 1u);
    EXPECT_EQ(src.draws(jitter_class::power_transition), 1u);
}

// --- the GIC-400 with jitter ------------------------------------------------------------------

using G = model::gic400;
constexpr std::uint32_t spurious = 1023;

TEST(jitter, gic_register_accesses_vary_within_their_bound)
{
    jitter_source src(on(50), 11);
    gic_bench b("bench");
    b.gic.set_jitter(src);
    run(b, [](gic_bench& b) {
        std::set<sc_time> seen;
        for (int i = 0; i < 50; i++) {
            EXPECT_EQ(b.dr(0, G::GICD_TYPER), 0x84u);
            EXPECT_GE(b.last_delay, ns(50)); // 100 ns nominal, +- 50 %
            EXPECT_LE(b.last_delay, ns(150));
            seen.insert(b.last_delay);
        }
        EXPECT_GT(seen.size(), 40u);
    });
    EXPECT_EQ(src.draws(jitter_class::register_access), 50u);
}

TEST(jitter, an_sgi_is_pending_at_once_and_signalled_after_its_delivery_delay)
{
    jitter_params p = on(0); // register accesses nominal: 100 ns each
    p.sgi_delivery_ns = 100000; // up to 100 us: far beyond the accesses around it
    jitter_source src(p, 5);
    gic_bench b("bench");
    b.gic.set_jitter(src);
    sc_time sent;
    run(b, [&](gic_bench& b) {
        b.enable_all();
        sent = sc_core::sc_time_stamp();
        b.dw(1, G::GICD_SGIR, (0u << 24) | (0x01u << 16) | 3); // SGI 3 to cpu0, from cpu1
        // The distributor has it pending at once; the CPU interface does not see it yet.
        EXPECT_EQ(b.dr(0, G::GICD_SPENDSGIR), 0x02000000u);
        EXPECT_FALSE(b.irq_sig[0].read());
        EXPECT_FALSE(b.wake_sig[0].read());
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
        // Once delivered: signalled, acknowledged with its source.
        while (!b.irq_sig[0].read())
            sc_core::wait(b.irq_sig[0].value_changed_event());
        EXPECT_TRUE(b.wake_sig[0].read());
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 3u | (1u << 10));
        b.cw(0, G::GICC_EOIR, 3u | (1u << 10));
        EXPECT_EQ(b.cr(0, G::GICC_IAR), spurious);
    });
    ASSERT_FALSE(b.edges.empty());
    const sc_time arrival = b.edges.front().at;
    // Seed 5, block "gic400.sgi", draw 0: u = 0.858877960..., 85887.796 ns (floored to ps).
    EXPECT_EQ(arrival, sent + ps(85887796));
    EXPECT_EQ(src.draws(jitter_class::sgi_delivery), 1u);
    EXPECT_EQ(b.gic.irqs_raised(), 1u);
    EXPECT_EQ(b.gic.irqs_delivered(), 1u);
}

} // namespace
} // namespace blsim::test
