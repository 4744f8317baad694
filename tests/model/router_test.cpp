// tests/model/router_test.cpp -- the system bus: an access reaches the target that owns its
// address, at the offset within it; an unmapped one is an address error; a DMI grant and its
// invalidation are translated between the target's offsets and bus addresses, and an
// invalidation reaches every initiator.
//
// One SystemC elaboration per process: this executable holds a single TEST.
#include <gtest/gtest.h>

#include <cstdint>
#include <systemc>
#include <tlm_utils/passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <utility>
#include <vector>

#include "blsim/model/router.h"

namespace blsim::model {
namespace {

// A 4 KiB target that records the offsets it is accessed at and grants DMI over all of it.
struct target : sc_core::sc_module {
    tlm_utils::passthrough_target_socket<target> socket{"socket"};
    std::vector<std::uint64_t> offsets;
    unsigned char mem[0x1000] = {};
    explicit target(sc_core::sc_module_name n) : sc_module(n)
    {
        socket.register_b_transport(this, &target::b_transport);
        socket.register_get_direct_mem_ptr(this, &target::get_direct_mem_ptr);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&)
    {
        offsets.push_back(t.get_address());
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi)
    {
        dmi.set_dmi_ptr(mem);
        dmi.set_start_address(0);
        dmi.set_end_address(sizeof mem - 1);
        dmi.allow_read_write();
        return true;
    }
};

// An initiator that records the invalidations it hears of, in bus addresses.
struct initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<initiator> socket{"socket"};
    std::vector<std::pair<std::uint64_t, std::uint64_t>> invalidated;
    explicit initiator(sc_core::sc_module_name n) : sc_module(n)
    {
        socket.register_invalidate_direct_mem_ptr(this, &initiator::invalidate);
    }
    void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { invalidated.emplace_back(start, end); }
    tlm::tlm_response_status read(std::uint64_t addr)
    {
        std::uint32_t v = 0;
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        t.set_data_length(4);
        t.set_streaming_width(4);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, d);
        return t.get_response_status();
    }
};

TEST(router, routes_by_address_and_tells_every_initiator_of_an_invalidation)
{
    router bus("bus");
    target a("a"), b("b");
    initiator cpu0("cpu0"), cpu1("cpu1");
    cpu0.socket.bind(bus.in);
    cpu1.socket.bind(bus.in);
    bus.out.bind(a.socket); // target 0
    bus.out.bind(b.socket); // target 1
    bus.map(0x10000, 0x1000, 0);
    bus.map(0x20000, 0x800, 1); // half of b's 4 KiB is on the bus
    sc_core::sc_start(sc_core::SC_ZERO_TIME);

    // Offsets within the owner; the last hit's range is tried first, then the others.
    EXPECT_EQ(cpu0.read(0x10004), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cpu1.read(0x20010), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cpu0.read(0x10ffc), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(a.offsets, (std::vector<std::uint64_t>{0x4, 0xffc}));
    EXPECT_EQ(b.offsets, (std::vector<std::uint64_t>{0x10}));
    // Past b's window (0x20800) and between the windows: address errors, counted.
    EXPECT_EQ(cpu1.read(0x20800), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(cpu1.read(0x18000), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(bus.decode_errors(), 2u);

    // A DMI grant in bus addresses, clipped to the window: b grants its 4 KiB, the bus
    // maps 2 KiB of it.
    tlm::tlm_generic_payload t;
    t.set_address(0x20010);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(cpu1.socket->get_direct_mem_ptr(t, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0x20000u);
    EXPECT_EQ(dmi.get_end_address(), 0x207ffu);
    EXPECT_EQ(t.get_address(), 0x20010u); // given back as it came

    // b takes back [0x100, 0xfff]: in bus addresses, clipped to its window, to both CPUs.
    b.socket->invalidate_direct_mem_ptr(0x100, 0xfff);
    const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected = {{0x20100, 0x207ff}};
    EXPECT_EQ(cpu0.invalidated, expected);
    EXPECT_EQ(cpu1.invalidated, expected);
    // Beyond the window: no one hears of it.
    b.socket->invalidate_direct_mem_ptr(0x900, 0xfff);
    EXPECT_EQ(cpu0.invalidated.size(), 1u);
}

} // namespace
} // namespace blsim::model
