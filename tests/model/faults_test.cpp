// tests/model/faults_test.cpp -- injected hardware faults: the source's draws and triggers
// (reproducible, times used once at the first eligible operation at or after them, 100 %
// always, 0 % never and nothing drawn), and each hook in its model: a failed power-up, a
// refused DVFS request, a CCI port change left pending, a spurious interrupt, an SGI lost on its
// way to a powered-down CPU. Worked by hand from test::small_soc and the GIC bench.
//
// gtest_discover_tests runs every TEST in a process of its own: one SystemC elaboration each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "blsim/model/cci.h"
#include "blsim/model/core.h"
#include "blsim/model/faults.h"
#include "blsim/model/jitter.h"
#include "blsim/model/power_controller.h"
#include "test_soc.h"
#include "tlm_stim.h"

namespace blsim::model {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

sc_time us(double v) { return sc_time(v, SC_US); }
double now_us() { return sc_core::sc_time_stamp().to_seconds() * 1e6; }

fault_params dvfs_fail(double pct, std::vector<double> at_s = {})
{
    fault_params p;
    p.dvfs_fail.probability_pct = pct;
    p.dvfs_fail.at_s = std::move(at_s);
    return p;
}

// --- the source ---------------------------------------------------------------------------

TEST(faults, the_same_seed_gives_the_same_draws_and_another_seed_others)
{
    fault_source a(dvfs_fail(50), 7), b(dvfs_fail(50), 7), c(dvfs_fail(50), 8);
    fault fa = a.stream(fault_kind::dvfs_fail, "pwrc"), fb = b.stream(fault_kind::dvfs_fail, "pwrc"),
          fc = c.stream(fault_kind::dvfs_fail, "pwrc");
    std::string sa, sb, sc;
    for (int i = 0; i < 200; i++) {
        sa += fa.fires(us(i)) ? '1' : '0';
        sb += fb.fires(us(i)) ? '1' : '0';
        sc += fc.fires(us(i)) ? '1' : '0';
    }
    EXPECT_EQ(sa, sb);
    EXPECT_NE(sa, sc);
    EXPECT_EQ(fa.draws(), 200u); // one per eligible operation
    // Around half fail; each counted.
    const auto ones = static_cast<std::uint64_t>(std::count(sa.begin(), sa.end(), '1'));
    EXPECT_GT(ones, 70u);
    EXPECT_LT(ones, 130u);
    EXPECT_EQ(a.injected(fault_kind::dvfs_fail), ones);
    EXPECT_EQ(a.injected_total(), ones);
}

TEST(faults, draws_come_from_the_jitter_generator_under_a_block_name_of_their_own)
{
    fault_source src(dvfs_fail(50), 5);
    fault f = src.stream(fault_kind::dvfs_fail, "pwrc");
    const std::uint64_t key = jitter_key(5, jitter_block_id("faults/dvfs_fail/pwrc"));
    for (std::uint64_t k = 0; k < 4; k++)
        EXPECT_EQ(f.next_unit(), jitter_unit(jitter_bits(key, k)));
    // Not the jitter's block of the same device: the jitter's draws are another stream.
    EXPECT_NE(jitter_key(5, jitter_block_id("pwrc")), key);
}

TEST(faults, probability_100_always_fires_and_0_never_drawing_nothing)
{
    fault_source always(dvfs_fail(100), 1), never(dvfs_fail(0), 1);
    fault a = always.stream(fault_kind::dvfs_fail, "pwrc");
    fault n = never.stream(fault_kind::dvfs_fail, "pwrc");
    EXPECT_FALSE(n.enabled());
    for (int i = 0; i < 1000; i++) {
        EXPECT_TRUE(a.fires(us(i)));
        EXPECT_FALSE(n.fires(us(i)));
    }
    EXPECT_EQ(always.injected(fault_kind::dvfs_fail), 1000u);
    EXPECT_EQ(never.injected(fault_kind::dvfs_fail), 0u);
    EXPECT_EQ(n.draws(), 0u);
    // Another kind, not configured, hands out streams that are off.
    EXPECT_FALSE(always.stream(fault_kind::cci_stuck, "cci400").enabled());
    EXPECT_FALSE(always.configured(fault_kind::power_up_fail));
    EXPECT_TRUE(always.any());
    EXPECT_FALSE(fault_source().any());
}

TEST(faults, each_time_fails_the_first_eligible_operation_at_or_after_it_once)
{
    // Given out of order; without a probability nothing is drawn.
    fault_source src(dvfs_fail(0, {30e-6, 10e-6, 10e-6}), 1);
    ASSERT_EQ(src.times(fault_kind::dvfs_fail), (std::vector<sc_time>{us(10), us(10), us(30)}));
    fault f = src.stream(fault_kind::dvfs_fail, "pwrc");
    std::string s;
    for (double t : {5.0, 9.999, 10.0, 12.0, 13.0, 29.0, 31.0, 40.0})
        s += f.fires(us(t)) ? '1' : '0';
    // 10 us: two times there, one each for the operations at 10 and 12; 30 us: the one at 31.
    EXPECT_EQ(s, "00110010");
    EXPECT_EQ(src.injected(fault_kind::dvfs_fail), 3u);
    EXPECT_EQ(f.draws(), 0u);
}

TEST(faults, times_move_no_other_operations_draw)
{
    // With a probability, every operation draws once, a time due or not: the outcome of the
    // operations away from the time is the same with it and without it.
    fault_source plain(dvfs_fail(30), 3), timed(dvfs_fail(30, {20e-6}), 3);
    fault p = plain.stream(fault_kind::dvfs_fail, "pwrc"), t = timed.stream(fault_kind::dvfs_fail, "pwrc");
    for (int i = 0; i < 100; i++) {
        const bool a = p.fires(us(i)), b = t.fires(us(i));
        if (i == 20)
            EXPECT_TRUE(b);
        else
            EXPECT_EQ(a, b) << "operation at " << i << " us";
    }
    EXPECT_EQ(p.draws(), t.draws());
}

// --- the power controller -----------------------------------------------------------------

// A bus target for a core that makes no register accesses.
struct no_device : sc_core::sc_module {
    tlm_utils::simple_target_socket<no_device> socket{"socket"};
    explicit no_device(sc_core::sc_module_name n) : sc_module(n)
    {
        socket.register_b_transport(this, &no_device::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_time&) { t.set_response_status(tlm::TLM_OK_RESPONSE); }
};

TEST(faults, a_failed_power_up_leaves_everything_off_and_reports_after_the_timeout)
{
    soc_params soc = test::small_soc(1); // core off 10/20 us, cluster off 100/200 us
    power_controller pc("pc", soc);
    test::unused_master regs_master("regs_master", pc.regs);
    fault_params fp;
    fp.power_up_fail.probability_pct = 100;
    fp.power_up_fail.timeout_us = 50;
    fault_source src(fp, 1);
    pc.set_faults(src);
    clock_domain clock("clk", 1000);
    core c0("cpu0", 0, 0, soc.clusters[0], clock, pc, 1024.0 * 1000);
    no_device dev("dev");
    c0.bus.bind(dev.socket);
    sc_core::sc_signal<bool> irq("irq"), wake("wake");
    c0.irq.bind(irq);
    c0.wake.bind(wake);
    pc.reg_write(power_controller::PWRDN_EN, 1);
    pc.reg_write(power_controller::WAKE_INT_MASK, 1u << 0);
    std::vector<std::string> log;
    pc.connect_irq([&](bool level) { log.push_back(std::to_string(static_cast<int>(now_us())) + (level ? " irq high" : " irq low")); });
    pc.core_changed.subscribe([&](unsigned, core_power, core_power s) {
        log.push_back(std::to_string(static_cast<int>(now_us())) + " cpu0 " + to_string(s));
    });
    pc.cluster_changed.subscribe([&](unsigned, cluster_power, cluster_power s) {
        log.push_back(std::to_string(static_cast<int>(now_us())) + " cluster " + to_string(s));
    });
    double resumed_us = -1;
    c0.set_software([&] {
        c0.power_down();
        resumed_us = c0.local_time().to_seconds() * 1e6;
    });
    std::uint32_t status = 0, mask_after = 0;
    test::thread drv("drv", [&] {
        // The wake condition at 100 us, while the cluster powers down (10..110 us): without
        // the fault it would abort the power-down.
        sc_core::wait(us(100));
        wake.write(true);
        sc_core::wait(us(75)); // 175 us: the controller gave the first attempt up at 150 us
        mask_after = pc.reg_read(power_controller::WAKE_INT_MASK);
        status = pc.reg_read(power_controller::PWC_STATUS); // clears it, lowers the line
        // The wake-up still armed, it tried again at 150 us, failed (100 %), and reports at
        // 200 us. Software gives the core up at 220 us: the attempt under way (from 200 us)
        // still reports, at 250 us, and is the last.
        sc_core::wait(us(45));
        pc.reg_write(power_controller::WAKE_INT_MASK, 0);
    });
    sc_core::sc_start(us(1000));

    EXPECT_EQ(mask_after, 1u);
    EXPECT_EQ(status, power_controller::stat_power_up_err(0, 0));
    EXPECT_EQ(status, 1u << 16);
    EXPECT_EQ(log, (std::vector<std::string>{
                       "10 cpu0 off", "10 cluster powering_down", "110 cluster off", "150 irq high", "175 irq low",
                       "200 irq high",
                   }));
    EXPECT_EQ(resumed_us, -1); // never powered up
    EXPECT_EQ(pc.core_state(0), core_power::off);
    EXPECT_EQ(pc.power_ups_failed(), 3u);
    EXPECT_EQ(src.injected(fault_kind::power_up_fail), 3u);
    EXPECT_EQ(pc.reg_read(power_controller::PWC_STATUS), 1u << 16);
}

TEST(faults, a_power_up_at_a_time_fails_once_and_the_controller_tries_again)
{
    soc_params soc = test::small_soc(1);
    power_controller pc("pc", soc);
    test::unused_master regs_master("regs_master", pc.regs);
    fault_params fp;
    fp.power_up_fail.at_s = {0};
    fault_source src(fp, 1);
    pc.set_faults(src);
    clock_domain clock("clk", 1000);
    core c0("cpu0", 0, 0, soc.clusters[0], clock, pc, 1024.0 * 1000);
    no_device dev("dev");
    c0.bus.bind(dev.socket);
    sc_core::sc_signal<bool> irq("irq"), wake("wake");
    c0.irq.bind(irq);
    c0.wake.bind(wake);
    pc.reg_write(power_controller::PWRDN_EN, 1);
    pc.reg_write(power_controller::WAKE_INT_MASK, 1u << 0);
    double resumed_us = -1;
    core_power resumed_state = core_power::off;
    c0.set_software([&] {
        c0.power_down();
        resumed_us = c0.local_time().to_seconds() * 1e6;
        resumed_state = pc.core_state(0);
    });
    test::thread drv("drv", [&] {
        sc_core::wait(us(100));
        wake.write(true); // fails: given up at 150 us, and tried again at once
        sc_core::wait(us(100));
        EXPECT_EQ(pc.reg_read(power_controller::PWC_STATUS), 1u << 16);
    });
    sc_core::sc_start(us(1000));
    // The cluster went off at 110 us; up from 150 us (200 us), the core's 20 us exit after.
    EXPECT_DOUBLE_EQ(resumed_us, 370);
    EXPECT_EQ(resumed_state, core_power::on);
    EXPECT_EQ(src.injected(fault_kind::power_up_fail), 1u);
}

struct dvfs_bench {
    soc_params soc = test::small_soc(1); // voltage 10 us, frequency 30 us; OPPs 500, 1000 MHz
    clock_domain clock{"clk", 1000};
    voltage_domain voltage{"vdd", 1000};
    dvfs_controller dvfs{"dvfs", soc.clusters[0].opps, soc.clusters[0].dvfs, clock, voltage, 1};
    power_controller pc{"pc", soc};
    test::unused_master regs_master{"regs_master", pc.regs};
    std::vector<std::string> irq;
    dvfs_bench()
    {
        pc.attach_dvfs(0, dvfs);
        pc.connect_irq([this](bool level) { irq.push_back(std::to_string(static_cast<int>(now_us())) + (level ? " high" : " low")); });
    }
};

struct stimulus : sc_core::sc_module {
    std::function<void()> body;
    stimulus(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b))
    {
        SC_HAS_PROCESS(stimulus);
        SC_THREAD(run);
    }
    void run() { body(); }
};

TEST(faults, a_refused_dvfs_request_answers_stat_err_at_once_and_leaves_the_clock)
{
    dvfs_bench b;
    fault_source src(dvfs_fail(100), 1);
    b.pc.set_faults(src);
    std::uint32_t status = 0;
    stimulus s("s", [&] {
        b.pc.reg_write(power_controller::PERF_LVL, 0); // 1000 -> 500 MHz: refused
        sc_core::wait(us(100));
        status = b.pc.reg_read(power_controller::PWC_STATUS);
    });
    sc_core::sc_start(us(1000));
    EXPECT_EQ(status, power_controller::stat_err(0));
    EXPECT_EQ(b.irq, (std::vector<std::string>{"0 high", "100 low"}));
    EXPECT_EQ(b.clock.freq_mhz(), 1000);
    EXPECT_EQ(b.voltage.voltage_mv(), 1000);
    EXPECT_EQ(src.injected(fault_kind::dvfs_fail), 1u);
}

TEST(faults, a_dvfs_request_at_a_time_fails_and_the_others_complete)
{
    dvfs_bench b;
    fault_source src(dvfs_fail(0, {50e-6}), 1);
    b.pc.set_faults(src);
    std::vector<std::uint32_t> status;
    std::vector<int> mhz;
    stimulus s("s", [&] {
        for (std::uint32_t level : {0u, 1u, 1u}) { // at 0 (before the time), 100 and 200 us
            b.pc.reg_write(power_controller::PERF_LVL, level);
            sc_core::wait(us(100));
            status.push_back(b.pc.reg_read(power_controller::PWC_STATUS));
            mhz.push_back(b.clock.freq_mhz());
        }
    });
    sc_core::sc_start(us(1000));
    EXPECT_EQ(status, (std::vector<std::uint32_t>{1, 2, 1}));
    EXPECT_EQ(mhz, (std::vector<int>{500, 500, 1000}));
    EXPECT_EQ(src.injected(fault_kind::dvfs_fail), 1u);
}

// --- the CCI-400 ---------------------------------------------------------------------------

struct cci_stimulus : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<cci_stimulus> regs{"regs"};
    std::function<void(cci_stimulus&)> body;
    cci_stimulus(sc_core::sc_module_name n, std::function<void(cci_stimulus&)> b) : sc_module(n), body(std::move(b))
    {
        SC_HAS_PROCESS(cci_stimulus);
        SC_THREAD(run);
    }
    void run() { body(*this); }
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
    std::uint32_t status() { return access(cci::status_offset, false); }
};

TEST(faults, a_stuck_port_change_stays_pending_and_a_retry_neither_restarts_nor_extends_it)
{
    fault_params fp;
    fp.cci_stuck.at_s = {0};
    fp.cci_stuck.stuck_us = 5;
    fault_source src(fp, 1);
    cci cci("cci", cci_params{}, {});
    no_device dram("dram");
    cci.master.bind(dram.socket);
    cci.set_faults(src);
    std::vector<std::uint32_t> seen;
    cci_stimulus s("s", [&](cci_stimulus& s) {
        s.access(cci::snoop_control(3), true, 3); // at 0: stuck until 5 us (nominal 400 ns)
        sc_core::wait(us(1));
        seen.push_back(s.status()); // 1.02 us
        sc_core::wait(us(1));
        s.access(cci::snoop_control(3), true, 3); // 2.04 us: the driver's retry, no change
        sc_core::wait(sc_time(2900, SC_NS));
        seen.push_back(s.status()); // 4.96 us
        sc_core::wait(sc_time(100, SC_NS));
        seen.push_back(s.status()); // 5.08 us: over
        // A change once the time is used: nominal, 400 ns.
        s.access(cci::snoop_control(4), true, 3);
        seen.push_back(s.status());
        sc_core::wait(sc_time(400, SC_NS));
        seen.push_back(s.status());
    });
    s.regs.bind(cci.regs);
    sc_core::sc_start();
    EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 1, 0, 1, 0}));
    EXPECT_EQ(src.injected(fault_kind::cci_stuck), 1u);
}

TEST(faults, a_change_while_a_port_is_stuck_does_not_end_it_early)
{
    fault_params fp;
    fp.cci_stuck.at_s = {0};
    fp.cci_stuck.stuck_us = 5;
    fault_source src(fp, 1);
    cci cci("cci", cci_params{}, {});
    no_device dram("dram");
    cci.master.bind(dram.socket);
    cci.set_faults(src);
    std::vector<std::uint32_t> seen;
    cci_stimulus s("s", [&](cci_stimulus& s) {
        s.access(cci::snoop_control(3), true, 3); // stuck until 5 us
        sc_core::wait(us(1));
        s.access(cci::snoop_control(4), true, 3); // a change of its own, nominal: 1.4 us
        sc_core::wait(us(2));
        seen.push_back(s.status()); // 3.04 us
        sc_core::wait(us(2));
        seen.push_back(s.status()); // 5.06 us
    });
    s.regs.bind(cci.regs);
    sc_core::sc_start();
    EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 0}));
    EXPECT_EQ(src.injected(fault_kind::cci_stuck), 1u);
}

} // namespace
} // namespace blsim::model

// --- the GIC-400 ---------------------------------------------------------------------------

namespace blsim::test {
namespace {

using G = model::gic400;
using model::fault_kind;
using model::fault_params;
using model::fault_source;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

TEST(faults, a_spurious_irq_reads_1023_once_and_never_wakes)
{
    fault_params fp;
    fp.spurious_irq.at_s = {5e-6, 1e-6}; // at 1 us no CPU interface is enabled: skipped
    fault_source src(fp, 1);
    gic_bench b("bench", 2);
    b.gic.set_faults(src, [](unsigned) { return false; });
    run(b, [](gic_bench& b) {
        b.dw(0, G::GICD_CTLR, 1);
        b.cw(1, G::GICC_PMR, 0xff);
        sc_core::wait(sc_time(2, SC_US));
        b.cw(1, G::GICC_CTLR, 1); // cpu1's interface on (cpu0's stays off): the only candidate
        while (!b.irq_sig[1].read())
            sc_core::wait(b.irq_sig[1].value_changed_event());
        EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(5, SC_US));
        EXPECT_EQ(b.cr(1, G::GICC_HPPIR), G::spurious); // not seen there
        EXPECT_TRUE(b.irq_sig[1].read());
        EXPECT_EQ(b.cr(1, G::GICC_IAR), G::spurious);
        EXPECT_FALSE(b.irq_sig[1].read()); // back to the real state: nothing pending
        // A real SGI afterwards is taken as usual.
        b.dw(0, G::GICD_SGIR, (0u << 24) | (0x02u << 16) | 4);
        EXPECT_EQ(b.cr(1, G::GICC_IAR), 4u);
    });
    const std::vector<gic_edge> expected = {
        {sc_time(5, SC_US), true, 1, true},
        {sc_time(5, SC_US) + sc_time(100, SC_NS), true, 1, false}, // the IAR read, after HPPIR's
        {sc_time(5, SC_US) + sc_time(200, SC_NS), true, 1, true},  // the SGI
        {sc_time(5, SC_US) + sc_time(200, SC_NS), false, 1, true},
        {sc_time(5, SC_US) + sc_time(300, SC_NS), true, 1, false}, // acknowledged
        {sc_time(5, SC_US) + sc_time(300, SC_NS), false, 1, false},
    };
    EXPECT_EQ(b.edges, expected);
    EXPECT_EQ(src.injected(fault_kind::spurious_irq), 1u);
    EXPECT_EQ(b.gic.spurious_injected(), 1u);
}

TEST(faults, a_spurious_irq_takes_precedence_over_a_pending_interrupt_once)
{
    fault_params fp;
    fp.spurious_irq.at_s = {3e-6};
    fault_source src(fp, 1);
    gic_bench b("bench", 1);
    b.gic.set_faults(src, [](unsigned) { return false; });
    run(b, [](gic_bench& b) {
        b.enable_all();
        sc_core::wait(sc_time(3, SC_US) - sc_core::sc_time_stamp() + sc_time(1, SC_NS));
        b.dw(0, G::GICD_SGIR, (2u << 24) | 7); // SGI 7 to itself, with the spurious one unread
        EXPECT_EQ(b.cr(0, G::GICC_IAR), G::spurious);
        EXPECT_TRUE(b.irq_sig[0].read()); // the SGI is still signalled
        EXPECT_EQ(b.cr(0, G::GICC_IAR), 7u);
    });
}

TEST(faults, spurious_irqs_arrive_at_random_with_the_mean_interval)
{
    fault_params fp;
    fp.spurious_irq.interval_us = 10;
    fault_source src(fp, 1);
    gic_bench b("bench", 1);
    b.gic.set_faults(src, [](unsigned) { return false; });
    int read = 0, other = 0;
    b.body = [&](gic_bench& b) {
        b.enable_all();
        for (;;) {
            while (!b.irq_sig[0].read())
                sc_core::wait(b.irq_sig[0].value_changed_event());
            if (b.cr(0, G::GICC_IAR) == G::spurious)
                read++;
            else
                other++;
        }
    };
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    // 100 expected over 1 ms; seed 1 draws these (Poisson: within 3 sigma of 100).
    const auto n = src.injected(fault_kind::spurious_irq);
    EXPECT_GT(n, 70u);
    EXPECT_LT(n, 130u);
    EXPECT_EQ(other, 0);
    EXPECT_GE(static_cast<std::uint64_t>(read) + 1, n); // the last may be unread at the end
    EXPECT_LE(static_cast<std::uint64_t>(read), n);
}

TEST(faults, an_sgi_to_a_powered_down_cpu_is_lost_there_only)
{
    fault_params fp;
    fp.wakeup_lost.probability_pct = 100;
    fault_source src(fp, 1);
    gic_bench b("bench", 3);
    bool cpu2_off = true;
    b.gic.set_faults(src, [&](unsigned cpu) { return cpu == 2 && cpu2_off; });
    run(b, [&](gic_bench& b) {
        b.enable_all();
        b.dw(0, G::GICD_SGIR, (0u << 24) | (0x06u << 16) | 1); // SGI 1 to cpu1 and cpu2
        EXPECT_EQ(b.dr(1, G::GICD_SPENDSGIR), 0x0100u); // cpu1: pending from cpu0
        EXPECT_EQ(b.dr(2, G::GICD_SPENDSGIR), 0u);      // cpu2: lost
        EXPECT_FALSE(b.wake_sig[2].read());
        EXPECT_EQ(b.cr(2, G::GICC_IAR), G::spurious);
        cpu2_off = false; // powered up: no longer eligible
        b.dw(0, G::GICD_SGIR, (0u << 24) | (0x04u << 16) | 1);
        EXPECT_EQ(b.dr(2, G::GICD_SPENDSGIR), 0x0100u);
        EXPECT_EQ(b.cr(2, G::GICC_IAR), 1u);
    });
    EXPECT_EQ(src.injected(fault_kind::wakeup_lost), 1u);
    EXPECT_EQ(b.gic.sgis_lost(), 1u);
    EXPECT_EQ(b.gic.irqs_raised(), 3u); // sent all the same
}

TEST(faults, nothing_configured_nothing_happens)
{
    fault_source src; // none
    gic_bench b("bench", 2);
    b.gic.set_faults(src, [](unsigned) { return true; });
    run(b, [](gic_bench& b) {
        b.enable_all();
        b.dw(0, G::GICD_SGIR, (0u << 24) | (0x02u << 16) | 1);
        EXPECT_EQ(b.cr(1, G::GICC_IAR), 1u);
    });
    EXPECT_EQ(src.injected_total(), 0u);
}

} // namespace
} // namespace blsim::test
