// tests/model/dram_test.cpp -- DRAM latency, bandwidth and contention between masters.
//
// One SystemC elaboration per process: this executable holds a single TEST.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "blsim/model/dram.h"

namespace blsim::model {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

struct master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<master> socket{"socket"};
    explicit master(sc_core::sc_module_name n) : sc_module(n) {}
    // Read @bytes, leaving @offset after the kernel's time; returns the delay added.
    double read_ns(unsigned bytes, sc_time offset = sc_core::SC_ZERO_TIME)
    {
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_data_ptr(nullptr);
        t.set_data_length(bytes);
        sc_time d = offset;
        socket->b_transport(t, d);
        return (d - offset).to_seconds() * 1e9;
    }
};

struct router2 : sc_core::sc_module { // two masters, one DRAM port
    tlm_utils::simple_target_socket_tagged<router2> in[2];
    tlm_utils::simple_initiator_socket<router2> out{"out"};
    explicit router2(sc_core::sc_module_name n) : sc_module(n)
    {
        for (int i = 0; i < 2; i++)
            in[i].register_b_transport(this, &router2::b_transport, i);
    }
    void b_transport(int, tlm::tlm_generic_payload& t, sc_time& d) { out->b_transport(t, d); }
};

TEST(dram, latency_bandwidth_and_contention)
{
    dram_params p; // 400 MHz, 40 cycles latency, 8 bytes a cycle, 64-byte accesses
    dram mem("dram", p);
    router2 r("r");
    master a("a"), b("b");
    a.socket.bind(r.in[0]);
    b.socket.bind(r.in[1]);
    r.out.bind(mem.socket);

    struct results { double single = 0, big = 0, behind = 0, later = 0; } res;
    struct driver : sc_core::sc_module {
        master &a, &b;
        results& res;
        driver(sc_core::sc_module_name n, master& a, master& b, results& r)
            : sc_module(n), a(a), b(b), res(r)
        {
            SC_HAS_PROCESS(driver);
            SC_THREAD(run);
        }
        void run()
        {
            // One line on an idle channel: 40 cycles + 64 / 8 = 8 cycles at 2.5 ns.
            res.single = a.read_ns(64);
            wait(sc_time(1, sc_core::SC_US));
            // 64 KiB from a: 8192 cycles of transfer (20480 ns) + 100 ns of latency. b's line,
            // issued at the same time, waits for the channel: 20480 + 100 + 20 ns.
            res.big = a.read_ns(65536);
            res.behind = b.read_ns(64);
            // Once the channel is free again, b sees the idle latency.
            wait(sc_time(30, sc_core::SC_US));
            res.later = b.read_ns(64);
        }
    } drv("drv", a, b, res);

    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    EXPECT_DOUBLE_EQ(res.single, 120);
    EXPECT_DOUBLE_EQ(res.big, 20580);
    EXPECT_DOUBLE_EQ(res.behind, 20600);
    EXPECT_DOUBLE_EQ(res.later, 120);
    EXPECT_EQ(mem.bytes(), 64u * 3 + 65536);
    EXPECT_EQ(mem.transactions(), 4u);
    // Per 64-byte access: 1 + 1024 + 1 + 1 accesses. The big burst's accesses each count
    // 100 + 20 ns (pipelined); b's queued line 20480 + 120.
    EXPECT_NEAR(mem.avg_latency_ns(), (120.0 * 1026 + 20600) / 1027, 1e-9);
}

} // namespace
} // namespace blsim::model
