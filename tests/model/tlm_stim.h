// tests/model/tlm_stim.h -- a GIC-400 test bench: the GIC on its own 200 MHz clock, signals on
// every irq/wake output with an edge log, and a stimulus thread that reaches the two register
// frames through real TLM-2.0 b_transport calls (cpu_extension naming the accessing CPU),
// waiting out each returned delay so that time advances as it would for a core.
//
// SystemC allows one elaboration per process: construct one bench per TEST, inside its body.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <utility>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/gic400.h"
#include "blsim/model/params.h"
#include "blsim/model/tlm_util.h"

namespace blsim::test {

// One change of an irq or wake output, as seen by a process sensitive to it.
struct gic_edge {
    sc_core::sc_time at;
    bool is_irq; // false: wake
    unsigned cpu;
    bool level;
    bool operator==(const gic_edge& o) const
    {
        return at == o.at && is_irq == o.is_irq && cpu == o.cpu && level == o.level;
    }
};

inline std::ostream& operator<<(std::ostream& os, const gic_edge& e)
{
    return os << (e.is_irq ? "irq" : "wake") << e.cpu << '=' << e.level << " @ " << e.at;
}

struct gic_bench : sc_core::sc_module {
    using gic400 = model::gic400;

    model::clock_domain clock;
    gic400 gic;
    // Written by whichever process touches the GIC (the stimulus thread, its own SGI delivery
    // when that is jittered), as in the platform.
    using line = sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS>;
    sc_core::sc_vector<line> irq_sig;
    sc_core::sc_vector<line> wake_sig;
    tlm_utils::simple_initiator_socket<gic_bench> dist_init{"dist_init"};
    tlm_utils::simple_initiator_socket<gic_bench> cpu_init{"cpu_init"};

    std::function<void(gic_bench&)> body; // runs in the stimulus thread
    bool done = false;                     // the body ran to its end
    sc_core::sc_time last_delay;           // returned by the latest access
    std::vector<gic_edge> edges;

    SC_HAS_PROCESS(gic_bench);

    explicit gic_bench(sc_core::sc_module_name n, unsigned ncpus = 5,
                       const model::gic_params& params = model::gic_params{})
        : sc_module(n), clock("gic_clk", 200), gic("gic", ncpus, params, clock),
          irq_sig("irq_sig", ncpus), wake_sig("wake_sig", ncpus), levels_(2 * ncpus, 0)
    {
        gic.irq.bind(irq_sig);
        gic.wake.bind(wake_sig);
        dist_init.bind(gic.dist_socket);
        cpu_init.bind(gic.cpu_socket);
        SC_THREAD(run);
        SC_METHOD(monitor);
        for (auto& s : irq_sig)
            sensitive << s;
        for (auto& s : wake_sig)
            sensitive << s;
        dont_initialize();
    }

    // --- register access through TLM (stimulus thread only) ---
    std::uint32_t access(bool cpu_frame, unsigned cpu, bool write, std::uint32_t offset,
                         std::uint32_t value, unsigned len,
                         sc_core::sc_time start_delay = sc_core::SC_ZERO_TIME)
    {
        tlm::tlm_generic_payload t;
        unsigned char buf[4];
        std::uint32_t v = write ? value : 0xa5a5a5a5u; // poison: a read must overwrite it
        std::memcpy(buf, &v, 4);
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(offset);
        t.set_data_ptr(buf);
        t.set_data_length(len);
        t.set_streaming_width(len);
        t.set_byte_enable_ptr(nullptr);
        t.set_dmi_allowed(false);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        model::cpu_extension ext;
        ext.cpu = cpu;
        t.set_extension(&ext);
        sc_core::sc_time delay = start_delay; // the initiator's local time offset
        if (cpu_frame)
            cpu_init->b_transport(t, delay);
        else
            dist_init->b_transport(t, delay);
        t.clear_extension(&ext);
        EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
        last_delay = delay;
        wait(delay);
        std::memcpy(&v, buf, 4);
        return len == 4 ? v : v & ((1u << (8 * len)) - 1);
    }
    std::uint32_t dr(unsigned cpu, std::uint32_t off, unsigned len = 4) { return access(false, cpu, false, off, 0, len); }
    void dw(unsigned cpu, std::uint32_t off, std::uint32_t v, unsigned len = 4) { access(false, cpu, true, off, v, len); }
    std::uint32_t cr(unsigned cpu, std::uint32_t off) { return access(true, cpu, false, off, 0, 4); }
    void cw(unsigned cpu, std::uint32_t off, std::uint32_t v) { access(true, cpu, true, off, v, 4); }

    // The irq lines, a bit per CPU interface (as of the last delta).
    std::uint32_t irq_lines() const
    {
        std::uint32_t m = 0;
        for (unsigned c = 0; c < irq_sig.size(); c++)
            m |= (irq_sig[c].read() ? 1u : 0u) << c;
        return m;
    }
    // Distributor on; every CPU interface on with PMR 0xff (reads back 0xf8). 11 accesses.
    void enable_all()
    {
        dw(0, gic400::GICD_CTLR, 1);
        for (unsigned c = 0; c < gic.ncpus(); c++) {
            cw(c, gic400::GICC_CTLR, 1);
            cw(c, gic400::GICC_PMR, 0xff);
        }
    }
    // SPI @id: enabled, priority @prio, targets @targets (byte accesses, as Linux does).
    void setup_spi(unsigned id, std::uint8_t targets, std::uint8_t prio = 0)
    {
        dw(0, gic400::GICD_ITARGETSR + id, targets, 1);
        dw(0, gic400::GICD_IPRIORITYR + id, prio, 1);
        dw(0, gic400::GICD_ISENABLER + 4 * (id / 32), 1u << (id % 32));
    }

    static double now_ns() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

private:
    void run()
    {
        if (body)
            body(*this);
        done = true;
    }
    void monitor()
    {
        const unsigned n = gic.ncpus();
        for (unsigned c = 0; c < n; c++) {
            for (bool is_irq : {true, false}) {
                const bool now = (is_irq ? irq_sig[c] : wake_sig[c]).read();
                unsigned char& was = levels_[2 * c + (is_irq ? 0 : 1)];
                if (now != static_cast<bool>(was)) {
                    edges.push_back({sc_core::sc_time_stamp(), is_irq, c, now});
                    was = now ? 1 : 0;
                }
            }
        }
    }
    std::vector<unsigned char> levels_; // last seen: irq, wake per CPU
};

// Runs @body in the bench's stimulus thread until the simulation starves.
inline void run(gic_bench& b, std::function<void(gic_bench&)> body)
{
    b.body = std::move(body);
    sc_core::sc_start();
    EXPECT_TRUE(b.done) << "the stimulus thread did not finish";
}

} // namespace blsim::test
