// tests/model/core_test.cpp -- a core executing work event by event: progress at the current
// frequency, a DVFS change mid-work, memory stall, interrupts, WFI and power-down latencies.
//
// One SystemC elaboration per process: this executable holds a single TEST.
#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "blsim/model/core.h"
#include "blsim/model/power_controller.h"
#include "test_soc.h"

namespace blsim::model {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

double now_ns() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

TEST(core, executes_work_at_the_current_frequency)
{
    soc_params soc = test::small_soc(2);
    const cluster_params& cp = soc.clusters[0];
    power_controller pc("pc", soc);
    clock_domain clock("clk", 500);
    // Reference: capacity 1024 at 1000 MHz, so 1 ref ns takes 1 ns at 1000 MHz, 2 ns at 500.
    core c0("cpu0", 0, cp, clock, pc, 1024.0 * 1000);
    core c1("cpu1", 1, cp, clock, pc, 1024.0 * 1000);

    struct step {
        double t_ns;
        int rc;
        double done;
    };
    std::vector<step> steps;
    std::vector<std::pair<double, core_power>> c1_states;
    pc.core_changed.subscribe([&](unsigned cpu, core_power, core_power s) {
        if (cpu == 1)
            c1_states.push_back({now_ns(), s});
    });

    c0.set_software([&] {
        double done = 0;
        // 1000 ref ns at 500 MHz; the clock doubles at 500 ns, when 250 are done:
        // the remaining 750 take 750 ns, so the work completes at 1250 ns.
        int rc = c0.execute(1000, 0.0, &done);
        steps.push_back({now_ns(), rc, done});
        // Half memory stall at 1000 MHz: 1 ns per ref ns either way; 100 ref ns = 100 ns.
        rc = c0.execute(100, 0.5, &done);
        steps.push_back({now_ns(), rc, done});
        // Interrupted at 2000 ns (raised by cpu1's software) after 650 ns of 1000.
        rc = c0.execute(1000, 0.0, &done);
        steps.push_back({now_ns(), rc, done});
        EXPECT_EQ(c0.irq_ack(), 1u);
        EXPECT_EQ(c0.irq_ack(), 0u);
        // A pending interrupt makes WFI return at once; with none it sleeps until one.
        c0.raise_irq();
        c0.wait_for_interrupt();
        steps.push_back({now_ns(), 0, 0});
        c0.irq_ack();
        for (;;)
            c0.wait_for_interrupt(), c0.irq_ack();
    });

    c1.set_software([&] {
        wait(sc_time(2000, SC_NS));
        c0.raise_irq();
        // Power down: 10 us entry; it is not the last core, so the cluster stays up.
        c1.power_down();
        steps.push_back({now_ns(), 0, 0}); // woken at 50 us, + 20 us exit
    });

    struct driver : sc_core::sc_module {
        driver(sc_core::sc_module_name n, clock_domain& clk, core& woken)
            : sc_module(n), clk(clk), woken(woken)
        {
            SC_HAS_PROCESS(driver);
            SC_THREAD(run);
        }
        void run()
        {
            wait(sc_time(500, SC_NS));
            clk.set_freq_mhz(1000);
            wait(sc_time(50, SC_US) - sc_time(500, SC_NS));
            woken.raise_irq();
        }
        clock_domain& clk;
        core& woken;
    } drv("driver", clock, c1);

    sc_core::sc_start(sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(steps.size(), 5u);
    EXPECT_NEAR(steps[0].t_ns, 1250, 1e-6);
    EXPECT_EQ(steps[0].rc, 0);
    EXPECT_DOUBLE_EQ(steps[0].done, 1000);
    EXPECT_NEAR(steps[1].t_ns, 1350, 1e-6);
    EXPECT_DOUBLE_EQ(steps[1].done, 100);
    EXPECT_NEAR(steps[2].t_ns, 2000, 1e-6);
    EXPECT_EQ(steps[2].rc, 1);
    EXPECT_NEAR(steps[2].done, 650, 1e-6);
    EXPECT_NEAR(steps[3].t_ns, 2000, 1e-6); // WFI with an interrupt pending: no time
    EXPECT_NEAR(steps[4].t_ns, 70000, 1e-6);

    // cpu1: off after its 10 us entry latency, on again when woken at 50 us, and off for
    // good 10 us after its software returned at 70 us.
    ASSERT_EQ(c1_states.size(), 3u);
    EXPECT_NEAR(c1_states[0].first, 12000, 1e-6);
    EXPECT_EQ(c1_states[0].second, core_power::off);
    EXPECT_NEAR(c1_states[1].first, 50000, 1e-6);
    EXPECT_EQ(c1_states[1].second, core_power::on);
    EXPECT_NEAR(c1_states[2].first, 80000, 1e-6);
    EXPECT_EQ(c1_states[2].second, core_power::off);
    EXPECT_EQ(pc.cluster_state(0), cluster_power::on);
    // cpu0 ends in WFI: 1 us entry latency after its last acknowledgement.
    EXPECT_EQ(pc.core_state(0), core_power::wfi);
}

} // namespace
} // namespace blsim::model
