// tests/model/core_test.cpp -- a core executing work event by event: progress at the current
// frequency, a DVFS change mid-work, memory stall, interrupts, WFI, WFE, register accesses
// with temporal decoupling, polling, lookahead (and SEV's and a spinning WFE's effect on it),
// and power-down with wake-up.
//
// One SystemC elaboration per process: this executable holds a single TEST.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "blsim/model/core.h"
#include "blsim/model/power_controller.h"
#include "blsim/model/tlm_util.h"
#include "test_soc.h"

namespace blsim::model {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

double now_ns() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

// A register that reads as 0x100 + the reading CPU, costing 10 ns. Two status registers
// for polling: 0x20 reads as 0 and promises to until 1 ms from now (the CCI's change-pending
// window does so), 0x24 reads as 1 and promises nothing.
struct stub_device : sc_core::sc_module {
    static constexpr std::uint64_t promising = 0x20, busy = 0x24;
    tlm_utils::simple_target_socket<stub_device> socket{"socket"};
    std::vector<double> seen_at_ns; // the access times the device saw (kernel time + offset)
    unsigned busy_reads = 0;
    explicit stub_device(sc_core::sc_module_name n) : sc_module(n)
    {
        socket.register_b_transport(this, &stub_device::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_time& delay)
    {
        seen_at_ns.push_back((sc_core::sc_time_stamp() + delay).to_seconds() * 1e9);
        if (t.is_read()) {
            std::uint32_t v = 0x100 + cpu_of(t, 99);
            if (t.get_address() == promising) {
                v = 0;
                cpu_extension* ext = nullptr;
                t.get_extension(ext);
                ext->steady_until = sc_core::sc_time_stamp() + delay + sc_time(1, sc_core::SC_MS);
            } else if (t.get_address() == busy) {
                v = 1;
                busy_reads++;
            }
            std::memcpy(t.get_data_ptr(), &v, 4);
        }
        delay += sc_time(10, SC_NS);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct driver : sc_core::sc_module {
    clock_domain& clk;
    sc_core::sc_signal<bool>& irq0;
    sc_core::sc_signal<bool>& wake1;
    driver(sc_core::sc_module_name n, clock_domain& c, sc_core::sc_signal<bool>& i,
           sc_core::sc_signal<bool>& w)
        : sc_module(n), clk(c), irq0(i), wake1(w)
    {
        SC_HAS_PROCESS(driver);
        SC_THREAD(run);
    }
    void run()
    {
        wait(sc_time(500, SC_NS));
        clk.set_freq_mhz(1000);
        wait(sc_time(1500, SC_NS)); // 2000 ns
        irq0.write(true);
        wait(sc_time(500, SC_NS)); // 2500 ns
        irq0.write(false);
        wait(sc_time(500, SC_NS)); // 3000 ns
        irq0.write(true);
        wait(sc_time(50, SC_US) - sc_core::sc_time_stamp());
        wake1.write(true);
    }
};

TEST(core, executes_work_at_the_current_frequency)
{
    soc_params soc = test::small_soc(2); // WFI 1/2 us, off 10/20 us
    const cluster_params& cp = soc.clusters[0];
    power_controller pc("pc", soc);
    test::unused_master regs_master("regs_master", pc.regs);
    clock_domain clock("clk", 500);
    // Reference: capacity 1024 at 1000 MHz, so 1 ref ns takes 1 ns at 1000 MHz, 2 ns at 500.
    core c0("cpu0", 0, 0, cp, clock, pc, 1024.0 * 1000);
    core c1("cpu1", 1, 0, cp, clock, pc, 1024.0 * 1000);
    stub_device dev0("dev0"), dev1("dev1");
    c0.bus.bind(dev0.socket);
    c1.bus.bind(dev1.socket);
    sc_core::sc_signal<bool> irq0("irq0"), irq1("irq1"), wake0("wake0"), wake1("wake1");
    c0.irq.bind(irq0);
    c0.wake.bind(wake0);
    c1.irq.bind(irq1);
    c1.wake.bind(wake1);
    driver drv("driver", clock, irq0, wake1);
    // cpu1 (cluster 0, core 1) may be woken from power-down by an interrupt: its
    // WAKE_INT_MASK bit, as software sets it before powering down.
    pc.reg_write(power_controller::WAKE_INT_MASK, 1u << 1);

    std::vector<std::pair<double, double>> c0_steps; // (time, work done)
    std::vector<int> c0_rc;
    std::vector<std::uint32_t> values;
    double mmio_local_ns = 0, mmio_synced_ns = 0, c1_released_ns = 0, c1_resumed_ns = 0;
    std::vector<double> lookahead_ns; // kernel times after the stalls that may be owed
    std::vector<double> sev_ns;       // kernel times after the stalls that follow SEVs
    std::vector<double> spin_ns;      // a spin loop of WFEs: kernel and local time, then synced
    double c1_rewoken_ns = 0;
    bool c1_masked_after_reset = false; // a power-up out of reset masks interrupts
    double masked_wfe_ns = 0;           // a WFE with its interrupt pending but masked: at the SEV
    sc_core::sc_event poke("poke");
    std::vector<std::pair<double, core_power>> c1_states;
    std::vector<std::uint32_t> c1_polled;
    pc.core_changed.subscribe([&](unsigned cpu, core_power, core_power s) {
        if (cpu == 1)
            c1_states.push_back({now_ns(), s});
    });

    c0.set_software([&] {
        double done = 0;
        // 1000 ref ns at 500 MHz; the clock doubles at 500 ns, when 250 are done: the
        // remaining 750 take 750 ns, so the work completes at 1250 ns.
        c0_rc.push_back(c0.execute(1000, 0.0, &done));
        c0_steps.push_back({now_ns(), done});
        // Half memory stall at 1000 MHz: 1 ns per ref ns either way; 100 ref ns = 100 ns.
        c0_rc.push_back(c0.execute(100, 0.5, &done));
        c0_steps.push_back({now_ns(), done});
        // Interrupted at 2000 ns after 650 of 1000.
        c0_rc.push_back(c0.execute(1000, 0.0, &done));
        c0_steps.push_back({now_ns(), done});
        // With the interrupt still signalled WFI returns at once...
        c0.wait_for_interrupt();
        c0_steps.push_back({now_ns(), 0});
        // ...and once it dropped (2500 ns) it clock-gates: the 1 us entry ends at 3600 ns;
        // the interrupt raised meanwhile (3000 ns) wakes it at once, and the 2 us exit
        // latency brings it back at 5600 ns.
        // The exit latency is the core's to owe: its software sees it on the core's clock.
        wait(sc_time(600, SC_NS)); // 2600 ns
        c0.wait_for_interrupt();
        c0_steps.push_back({c0.local_time().to_seconds() * 1e9, 0});
        // Two register reads: 10 ns each, kept as local time until the core syncs.
        values.push_back(c0.mmio_read(0x10));
        values.push_back(c0.mmio_read(0x14));
        mmio_local_ns = c0.local_time().to_seconds() * 1e9;
        c0.sync();
        mmio_synced_ns = now_ns();
        // SEV releases cpu1 from WFE.
        c0.signal_event();
        c1.signal_event();
        c1_released_ns = now_ns();
        // Lookahead: nothing else is due for tens of microseconds, so a stall of 100 ns is
        // owed, not waited; nor is 1 ns more. Then this thread notifies an event due in
        // 50 ns: once the core forgets the horizon it keeps, the next stall (now 101 ns
        // ahead) must let that event happen first, and waits.
        wait(sc_time(1, SC_US)); // cpu1, woken, goes on into its power-down's entry
        lookahead_ns.push_back(now_ns());
        c0.stall(sc_time(100, SC_NS));
        c0.stall(sc_time(1, SC_NS));
        lookahead_ns.push_back(now_ns());
        poke.notify(sc_time(50, SC_NS));
        c0.forget_horizon();
        c0.stall(sc_time(1, SC_NS));
        lookahead_ns.push_back(now_ns());
        // SEV: an event register set is nothing new to wait for, so the horizon is kept and a
        // stall stays owed; an event that wakes cpu1 (back in WFE by 100 us) at cpu0's local
        // time is, and the next stall past it waits.
        wait(sc_time(100, SC_US) - sc_core::sc_time_stamp());
        c0.stall(sc_time(100, SC_NS));
        c0.send_event({&c0});
        c0.stall(sc_time(1, SC_NS));
        sev_ns.push_back(now_ns()); // 100 us: owed still
        c0.send_event({&c0, &c1});  // cpu1 wakes at 100.101 us
        c0.stall(sc_time(1, SC_NS));
        sev_ns.push_back(now_ns()); // 100.102 us: waited
        // A WFE that does not sleep (cpu0's interrupt is still signalled) is settled like a
        // stall: with nothing due, a spin loop's 100 iterations of 4 cycles at 1000 MHz stay
        // owed, 400 ns of local time with the kernel's unchanged, until the core syncs.
        wait(sc_time(200, SC_US) - sc_core::sc_time_stamp());
        for (int i = 0; i < 100; i++)
            c0.wait_for_event();
        spin_ns = {now_ns(), c0.local_time().to_seconds() * 1e9};
        c0.sync();
        spin_ns.push_back(now_ns());
        // Masked (CPSR.I), the same pending interrupt no longer ends a WFE (ARMv7-A; WFI
        // would still wake): it sleeps until cpu1's SEV at 300 us.
        c0.set_irq_masked(true);
        c0.wait_for_event();
        masked_wfe_ns = now_ns();
        for (;;)
            wait(sc_time(1, sc_core::SC_MS));
    });

    c1.set_software([&] {
        c1.wait_for_event();
        c1_resumed_ns = now_ns();
        // Power down: 10 us entry; not the last core, so the cluster stays up. The wake
        // line (raised at 50 us) powers it up again after its 20 us exit latency.
        c1.power_down();
        c1_masked_after_reset = c1.irq_masked();
        c1_states.push_back({c1.local_time().to_seconds() * 1e9, core_power::on});
        // A poll that ends at its first read, on a register that promised its value...
        c1_polled.push_back(c1.poll(stub_device::promising, 1, sc_time(1, SC_US)));
        // ...leaves no promise behind for the next access: a poll of a register that
        // promises nothing reads it every 10 ns until its 50 ns are over, 6 reads.
        c1_polled.push_back(c1.poll(stub_device::busy, 1, sc_time(50, SC_NS)));
        c1.wait_for_event(); // from 70.06 us: the SEV in cpu0's run of stalls wakes it
        c1_rewoken_ns = now_ns();
        wait(sc_time(300, SC_US) - sc_core::sc_time_stamp());
        c1.send_event({&c0, &c1});
    });

    sc_core::sc_start(sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(c0_steps.size(), 5u);
    EXPECT_EQ(c0_rc, (std::vector<int>{0, 0, 1}));
    EXPECT_NEAR(c0_steps[0].first, 1250, 1e-6);
    EXPECT_DOUBLE_EQ(c0_steps[0].second, 1000);
    EXPECT_NEAR(c0_steps[1].first, 1350, 1e-6);
    EXPECT_DOUBLE_EQ(c0_steps[1].second, 100);
    EXPECT_NEAR(c0_steps[2].first, 2000, 1e-6);
    EXPECT_NEAR(c0_steps[2].second, 650, 1e-6);
    EXPECT_NEAR(c0_steps[3].first, 2000, 1e-6);
    EXPECT_NEAR(c0_steps[4].first, 5600, 1e-6);
    // Register reads carry the issuing CPU; the second leaves at the first's local time.
    EXPECT_EQ(values, (std::vector<std::uint32_t>{0x100, 0x100}));
    ASSERT_EQ(dev0.seen_at_ns.size(), 2u);
    EXPECT_NEAR(dev0.seen_at_ns[0], 5600, 1e-6);
    EXPECT_NEAR(dev0.seen_at_ns[1], 5610, 1e-6);
    EXPECT_NEAR(mmio_local_ns, 5620, 1e-6);
    EXPECT_NEAR(mmio_synced_ns, 5620, 1e-6);
    EXPECT_NEAR(c1_resumed_ns, c1_released_ns, 1e-6);
    ASSERT_EQ(lookahead_ns.size(), 3u);
    EXPECT_NEAR(lookahead_ns[1], lookahead_ns[0], 1e-6);
    EXPECT_NEAR(lookahead_ns[2], lookahead_ns[0] + 102, 1e-6);

    // cpu1: off after its 10 us entry latency, on again at the wake-up (50 us), running
    // its software again 20 us later.
    ASSERT_GE(c1_states.size(), 3u);
    EXPECT_NEAR(c1_states[0].first, c1_released_ns + 10000, 1e-6);
    EXPECT_EQ(c1_states[0].second, core_power::off);
    EXPECT_NEAR(c1_states[1].first, 50000, 1e-6);
    EXPECT_EQ(c1_states[1].second, core_power::on);
    EXPECT_NEAR(c1_states[2].first, 70000, 1e-6);
    EXPECT_EQ(pc.cluster_state(0), cluster_power::on);
    EXPECT_EQ(c1_polled, (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(dev1.busy_reads, 6u);
    ASSERT_EQ(sev_ns.size(), 2u);
    EXPECT_NEAR(sev_ns[0], 100000, 1e-6);
    EXPECT_NEAR(sev_ns[1], 100102, 1e-6);
    EXPECT_NEAR(c1_rewoken_ns, 100101, 1e-6);
    ASSERT_EQ(spin_ns.size(), 3u);
    EXPECT_NEAR(spin_ns[0], 200000, 1e-6);
    EXPECT_NEAR(spin_ns[1], 200400, 1e-6);
    EXPECT_NEAR(spin_ns[2], 200400, 1e-6);
    EXPECT_TRUE(c1_masked_after_reset);
    EXPECT_NEAR(masked_wfe_ns, 300000, 1e-6);
}

} // namespace
} // namespace blsim::model
