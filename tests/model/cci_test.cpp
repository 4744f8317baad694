// tests/model/cci_test.cpp -- the CCI-400 between two clusters and DRAM: register
// semantics (snoop control, change pending), snoop hits against DRAM misses, an inbound
// cluster fed by the outbound's caches while they are coherent and by DRAM after, flush
// costs growing with dirty lines, the rule that a cluster leaves coherency empty, and a last
// man's L2 flush at TC2's figures.
//
// gtest_discover_tests runs every TEST in a process of its own: one SystemC elaboration each.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "blsim/model/cci.h"
#include "blsim/model/invariant.h"
#include "blsim/model/cluster.h"
#include "blsim/model/dram.h"
#include "test_soc.h"

namespace blsim::model {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

double ns(const sc_time& t) { return t.to_seconds() * 1e9; }

// Devices the cores would reach: none are used here.
struct no_device : sc_core::sc_module {
    tlm_utils::multi_passthrough_target_socket<no_device> socket{"socket"};
    explicit no_device(sc_core::sc_module_name n) : sc_module(n)
    {
        socket.register_b_transport(this, &no_device::b_transport);
    }
    void b_transport(int, tlm::tlm_generic_payload& t, sc_time&) { t.set_response_status(tlm::TLM_OK_RESPONSE); }
};

struct results {
    std::uint32_t s3_reset = 0, status_after_write = 0, status_later = 0, status_same = 0;
    double cold = -1, warm = -1, snooped = -1, after_disable = -1;
    double l1_clean_dirty = -1, l1_clean_clean = -1, l2_clean_dirty = -1;
    std::uint64_t snoops_before = 0, snoops_after = 0;
    std::string error;
};

struct stimulus : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<stimulus> regs{"regs"};
    cluster &big, &little;
    cci& interconnect;
    results& r;

    stimulus(sc_core::sc_module_name n, cluster& b, cluster& l, cci& c, results& res)
        : sc_module(n), big(b), little(l), interconnect(c), r(res)
    {
        SC_HAS_PROCESS(stimulus);
        SC_THREAD(run);
    }

    std::uint32_t access(std::uint32_t offset, bool write, std::uint32_t v = 0)
    {
        tlm::tlm_generic_payload t;
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(offset);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        t.set_data_length(4);
        t.set_streaming_width(4);
        sc_time d = sc_core::SC_ZERO_TIME;
        regs->b_transport(t, d);
        wait(d); // 10 cycles at 500 MHz: 20 ns
        return v;
    }

    void run()
    {
        // Reset: snoops off; the ACE interfaces report snoop and DVM support (bits 31:30).
        r.s3_reset = access(cci::snoop_control(3), false);
        // Enabling S3 sets change_pending for 200 cycles (400 ns) from the write.
        access(cci::snoop_control(3), true, 3);
        r.status_after_write = access(cci::status_offset, false); // at 20 ns
        wait(sc_time(400, SC_NS));
        r.status_later = access(cci::status_offset, false); // at 440 ns
        access(cci::snoop_control(4), true, 3);
        access(cci::snoop_control(4), true, 3); // no change: nothing pending after it
        wait(sc_time(400, SC_NS));
        access(cci::snoop_control(4), true, 3);
        r.status_same = access(cci::status_offset, false);

        // A cold 64 KiB working set on big: 1024 lines through the CCI; little holds none,
        // so DRAM serves them: 40 + 65536 / 8 cycles at 400 MHz = 20580 ns.
        r.cold = ns(big.warm(0, 1, 64, sc_core::SC_ZERO_TIME));
        wait(sc_time(1, sc_core::SC_MS));
        r.warm = ns(big.warm(0, 1, 64, sc_core::SC_ZERO_TIME));
        // The same context starting on little (an inbound cluster after a switch): its
        // misses snoop big, which has every line: 30 + 4 x 1023 cycles at 500 MHz.
        r.snooped = ns(little.warm(0, 1, 64, sc_core::SC_ZERO_TIME));

        // Flushing costs grow with dirty lines: big's L1 holds 512 lines of context 1.
        // Clean: 512 cycles of set/way walk at 1000 MHz. With half of them dirty:
        // + 4 cycles each for 256 lines.
        big.written(0, 1, 0.5);
        r.l1_clean_dirty = ns(big.clean_invalidate_l1(0));
        big.warm(1, 1, 64, sc_core::SC_ZERO_TIME); // core 1's L1 gets the lines, clean
        r.l1_clean_clean = ns(big.clean_invalidate_l1(1));
        // L2 (512 KiB, 8192 lines, inclusive) holds the context's 1024 lines, half of them
        // dirty: written() dirties the L2's copies too. The walk, 8192 + 4 x 512 = 10240
        // cycles at 1000 MHz, overlaps the write-back of the 512 dirty lines to DRAM, 40 +
        // 32768 / 8 cycles at 400 MHz = 10340 ns: the longer of the two is the clean's time.
        wait(sc_time(1, sc_core::SC_MS));
        r.l2_clean_dirty = ns(big.clean_invalidate_l2(sc_core::SC_ZERO_TIME));

        // big leaves coherency, empty: allowed. little, cleaned too, refetches: no snoop
        // goes out (big's interface is off), DRAM serves everything.
        access(cci::snoop_control(3), true, 0);
        wait(sc_time(1, sc_core::SC_MS));
        little.clean_invalidate_l2(sc_core::SC_ZERO_TIME);
        r.snoops_before = interconnect.snoops();
        r.after_disable = ns(little.warm(0, 1, 64, sc_core::SC_ZERO_TIME));
        r.snoops_after = interconnect.snoops();

        // little leaving coherency while it holds lines is a software bug that stops the run.
        try {
            access(cci::snoop_control(4), true, 0);
        } catch (const invariant_violation& e) {
            r.error = e.what();
        }
    }
};

TEST(cci, snoops_feed_an_inbound_cluster_until_the_outbound_leaves_coherency)
{
    soc_params soc = test::small_soc(2);
    soc.clusters.push_back(soc.clusters[0]);
    soc.clusters[0].name = "big";
    soc.clusters[1].name = "little";
    power_controller pc("pc", soc);
    test::unused_master regs_master("regs_master", pc.regs);
    cluster big("big", 0, soc.clusters[0], 0, pc, 1024.0 * 1000);
    cluster little("little", 1, soc.clusters[1], 2, pc, 1024.0 * 1000);
    no_device dev("dev");
    sc_core::sc_vector<sc_core::sc_signal<bool>> lines("line", 8);
    unsigned next = 0;
    for (cluster* cl : {&big, &little})
        for (unsigned i = 0; i < cl->ncores(); i++) {
            cl->core_at(i).bus.bind(dev.socket);
            cl->core_at(i).irq.bind(lines[next++]);
            cl->core_at(i).wake.bind(lines[next++]);
        }
    cci cci("cci", cci_params{}, {3, 4});
    dram mem("dram", dram_params{});
    big.ace.bind(cci.slave[0]);
    little.ace.bind(cci.slave[1]);
    cci.attach(0, big, "big");
    cci.attach(1, little, "little");
    cci.master.bind(mem.socket);
    results r;
    stimulus stim("stim", big, little, cci, r);
    stim.regs.bind(cci.regs);

    sc_core::sc_start(sc_time(10, sc_core::SC_MS));

    EXPECT_EQ(r.s3_reset, 0xc0000000u);
    EXPECT_EQ(r.status_after_write, 1u);
    EXPECT_EQ(r.status_later, 0u);
    EXPECT_EQ(r.status_same, 0u);
    EXPECT_DOUBLE_EQ(r.cold, 20580);
    EXPECT_DOUBLE_EQ(r.warm, 0);
    EXPECT_DOUBLE_EQ(r.snooped, (30 + 4 * 1023) * 2.0);
    EXPECT_LT(r.snooped, r.cold);
    EXPECT_DOUBLE_EQ(r.l1_clean_dirty, 512 + 4 * 256);
    EXPECT_DOUBLE_EQ(r.l1_clean_clean, 512);
    EXPECT_DOUBLE_EQ(r.l2_clean_dirty, (40 + 32768 / 8) * 2.5);
    EXPECT_DOUBLE_EQ(r.after_disable, 20580);
    EXPECT_EQ(r.snoops_after, r.snoops_before);
    EXPECT_EQ(cci.snoop_hits(), 1024u);
    EXPECT_EQ(r.error, "invariant 'coherency-exit-clean' violated at 0.003000980000 s in the CCI-400: "
                       "snoops disabled on slave interface S4 (little) while its caches hold 1536 "
                       "valid lines: a cluster must be flushed before it leaves coherency");
}


struct flush_stimulus : sc_core::sc_module {
    cluster& cl;
    double flush_ns = -1;
    flush_stimulus(sc_core::sc_module_name n, cluster& c) : sc_module(n), cl(c)
    {
        SC_HAS_PROCESS(flush_stimulus);
        SC_THREAD(run);
    }
    void run()
    {
        cl.warm(0, 1, 1024, sc_core::SC_ZERO_TIME); // a 1 MiB working set: the whole L2
        wait(sc_time(1, sc_core::SC_MS));           // (its fill has long left the DRAM)
        cl.written(0, 1, 0.5);                      // half of it dirty, in L1 and L2
        flush_ns = ns(cl.clean_invalidate_l2(sc_core::SC_ZERO_TIME));
    }
};

TEST(cci, a_last_mans_l2_flush_at_tc2_figures)
{
    // TC2's A15 cluster at 1000 MHz: 32 KiB L1s, a 1 MiB L2, set/way walks of 8 (L1) and 5
    // (L2) cycles a line, 4 cycles to issue each dirty line; DRAM at 400 MHz, 8 bytes a cycle.
    soc_params soc = test::small_soc(2);
    cache_params& c = soc.clusters[0].caches;
    c.l1d_kb = 32;
    c.l2_kb = 1024;
    c.l1_walk_cycles_per_line = 8;
    c.l2_walk_cycles_per_line = 5;
    c.clean_cycles_per_line = 4;
    power_controller pc("pc", soc);
    test::unused_master regs_master("regs_master", pc.regs);
    cluster big("big", 0, soc.clusters[0], 0, pc, 1024.0 * 1000);
    no_device dev("dev");
    sc_core::sc_vector<sc_core::sc_signal<bool>> lines("line", 4);
    for (unsigned i = 0; i < big.ncores(); i++) {
        big.core_at(i).bus.bind(dev.socket);
        big.core_at(i).irq.bind(lines[2 * i]);
        big.core_at(i).wake.bind(lines[2 * i + 1]);
    }
    cci cci("cci", cci_params{}, {3});
    test::unused_master cci_master("cci_master", cci.regs);
    dram mem("dram", dram_params{});
    big.ace.bind(cci.slave[0]);
    cci.attach(0, big, "big");
    cci.master.bind(mem.socket);
    flush_stimulus stim("stim", big);
    sc_core::sc_start(sc_time(10, sc_core::SC_MS));

    // v7_exit_coherency_flush(all), worked by hand:
    //   core 0's L1 first: 512 lines x 8 cycles + 256 dirty x 4 = 5120 cycles, 5.12 us (the
    //   other core's L1 is empty and skipped);
    //   then the L2: its walk, 16384 lines x 5 cycles + 8192 dirty x 4 = 114688 cycles,
    //   114.688 us, issues the write-backs as it goes; DRAM drains the 8192 lines (512 KiB)
    //   in 40 + 524288 / 8 = 65576 cycles at 400 MHz, 163.94 us: the drain is the bound.
    //   5.12 + 163.94 = 169.06 us, a sixth of the device tree's 1 ms cluster entry latency,
    //   which assumes this half-dirty L2 (cpuidle-big_little.c) and the lowest OPP.
    EXPECT_NEAR(stim.flush_ns, 169060, 1e-6);
    EXPECT_EQ(big.written_back(), 8192u);
}


// Three clusters behind a CCI-550: a context warm in the second cluster starts on the third.
// Without a snoop filter every other coherent cluster would be looked up for every missing
// line (2 x 1024 for the cold read, the first cluster in vain for the second); the filter
// sends lookups only where the lines are, and the same lines come from the same cache, at
// the same cost.
struct three_stimulus : sc_core::sc_module {
    cci& ic;
    cluster &holder, &reader;
    double snooped_ns = -1;
    std::uint64_t cold_snoops = 0, snoops = 0, hits = 0;
    three_stimulus(sc_core::sc_module_name n, cci& c, cluster& h, cluster& r) : sc_module(n), ic(c), holder(h), reader(r)
    {
        SC_HAS_PROCESS(three_stimulus);
        SC_THREAD(run);
    }
    void run()
    {
        for (unsigned s : {0u, 1u, 2u})
            ic.reg_write(cci::snoop_control(s), cci::snoop_enable);
        holder.warm(0, 1, 64, sc_core::SC_ZERO_TIME); // 1024 lines, from DRAM
        cold_snoops = ic.snoops();
        wait(sc_time(1, sc_core::SC_MS));
        const std::uint64_t before = ic.snoops();
        snooped_ns = ns(reader.warm(0, 1, 64, sc_core::SC_ZERO_TIME));
        snoops = ic.snoops() - before;
        hits = ic.snoop_hits();
    }
};

struct three_clusters {
    soc_params soc = test::small_soc(1);
    std::unique_ptr<power_controller> pc;
    std::unique_ptr<test::unused_master> regs_master;
    std::vector<std::unique_ptr<cluster>> clusters;
    no_device dev{"dev"};
    sc_core::sc_vector<sc_core::sc_signal<bool>> lines{"line", 6};
    explicit three_clusters()
    {
        soc.clusters.push_back(soc.clusters[0]);
        soc.clusters.push_back(soc.clusters[0]);
        pc = std::make_unique<power_controller>("pc", soc);
        regs_master = std::make_unique<test::unused_master>("regs_master", pc->regs);
        for (unsigned i = 0; i < 3; i++) {
            soc.clusters[i].name = "c" + std::to_string(i);
            clusters.push_back(std::make_unique<cluster>(soc.clusters[i].name.c_str(), i, soc.clusters[i], i, *pc,
                                                         1024.0 * 1000));
            clusters[i]->core_at(0).bus.bind(dev.socket);
            clusters[i]->core_at(0).irq.bind(lines[2 * i]);
            clusters[i]->core_at(0).wake.bind(lines[2 * i + 1]);
        }
    }
};

// The lookups sent for the cold read and for the read from the third cluster.
std::pair<std::uint64_t, std::uint64_t> three_cluster_snoops(cci_variant v, double* snooped_ns)
{
    three_clusters t;
    cci_params p;
    p.variant = v;
    cci ic("cci", p, {0, 1, 2});
    dram mem("dram", dram_params{});
    for (unsigned i = 0; i < 3; i++) {
        t.clusters[i]->ace.bind(ic.slave[i]);
        ic.attach(i, *t.clusters[i], t.soc.clusters[i].name);
    }
    ic.master.bind(mem.socket);
    test::unused_master cci_master("cci_master", ic.regs);
    three_stimulus stim("stim", ic, *t.clusters[1], *t.clusters[2]);
    sc_core::sc_start(sc_time(10, sc_core::SC_MS));
    EXPECT_EQ(stim.hits, 1024u);
    *snooped_ns = stim.snooped_ns;
    return {stim.cold_snoops, stim.snoops};
}

TEST(cci, a_snoop_filter_sends_lookups_only_where_the_lines_are)
{
    double snooped = 0;
    const auto [cold, warm] = three_cluster_snoops(cci_variant::cci550, &snooped);
    EXPECT_EQ(cold, 0u);     // nobody holds the lines: DRAM, no lookup
    EXPECT_EQ(warm, 1024u);  // c1's lines, none sent to c0
    EXPECT_DOUBLE_EQ(snooped, (30 + 4 * 1023) * 2.0);                     // as from a neighbour
    // The variants' ACE interfaces, as the register block reports them.
    EXPECT_TRUE(cci_is_ace(cci_variant::cci550, 5));
    EXPECT_FALSE(cci_is_ace(cci_variant::cci550, 6));
    EXPECT_FALSE(cci_is_ace(cci_variant::cci500, 4));
    EXPECT_FALSE(cci_is_ace(cci_variant::cci400, 2));
    EXPECT_EQ(cci_slaves(cci_variant::cci400), 5u);
}

} // namespace
} // namespace blsim::model
