// tests/switcher/fake_soc.h -- a small concurrent platform for the C power-management code.
//
// Each CPU is a SystemC thread that runs C code through a bls_platform_ops table whose verbs
// cost time: shared-memory accesses take a (seeded, random) few nanoseconds, WFE/SEV use one
// event register per CPU, and power-down blocks the CPU until an interrupt reaches it (an SGI
// written to GICD_SGIR, or irq_wake()) with its wake-up armed in the power controller's
// WAKE_INT_MASK, as TC2's SPC wakes cores. The backend-level verbs (cache maintenance, CCI
// port control, the power controller's registers) are recorded in a log with their time and
// CPU. Tests script what each CPU does and check the log and the shared states.
#pragma once

#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include <array>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <bls/mcpm.h>
#include <bls/spc.h>
#include <bls/switcher.h>

namespace blsim::test {

class fake_soc {
public:
    static constexpr unsigned ncpus = 4; // cpu0-1 cluster 0 (S3), cpu2-3 cluster 1 (S4)
    static constexpr uint64_t shm_base = 0x1000;
    static constexpr uint64_t spc_base = 0x400000;

    struct entry {
        double t_ns;
        unsigned cpu;
        std::string what;
    };

    explicit fake_soc(std::uint64_t seed, unsigned max_access_ns = 8) : rng_(seed), max_ns_(max_access_ns)
    {
        hw.ops = &ops_;
        hw.plat = this;
        hw.ncpus = ncpus;
        hw.nclusters = 2;
        hw.cpu_cluster[0] = hw.cpu_cluster[1] = 0;
        hw.cpu_cluster[2] = hw.cpu_cluster[3] = 1;
        hw.cluster_cci_port[0] = 3;
        hw.cluster_cci_port[1] = 4;
        hw.gic_dist_base = 0x100000;
        hw.gic_cpu_base = 0x200000;
        hw.cci_base = 0x300000;
        hw.shm_base = shm_base;
        hw.spc_base = spc_base;
        hw.spc_irq = 127;
        hw.timer_ppi = 30;
        hw.gic_nirqs = 64;
        cluster_powered_.fill(true);
        cpu_powered_.fill(true);
    }

    bls_hw hw{};
    std::vector<entry> log;
    // BLS_TRACE_MCPM_CPU_STATE, in order: (cpu, enum bls_mcpm_cpu_state).
    std::vector<std::pair<unsigned, unsigned>> mcpm_states;
    std::array<uint8_t, 0x2000> mem{};
    std::array<unsigned, 2> cluster_power_offs{};
    // Cache maintenance and CCI changes take this long, so that races land inside them.
    double slow_op_ns = 200;
    // Device registers read back what was written (the CCI status reads 0: never pending).
    std::map<uint64_t, uint32_t> regs;
    // Called for every write to the GIC's GICD_SGIR (from CPU @cpu, value @v).
    std::function<void(unsigned cpu, uint32_t v)> on_sgi;
    // A deaf CPU loses every interrupt sent to it (a lost wake-up), logged as "irq lost".
    std::array<bool, ncpus> deaf{};
    // cpu_irq_mask's calls, in order: (cpu, masked). Kept out of the log.
    std::vector<std::pair<unsigned, int>> irq_masks;

    // Run @fn as CPU @cpu's software, starting at @start_ns.
    void run(unsigned cpu, double start_ns, std::function<void()> fn)
    {
        sc_core::sc_spawn([cpu, start_ns, fn] {
            sc_core::wait(sc_core::sc_time(start_ns, sc_core::SC_NS));
            (void)cpu;
            fn();
        });
    }

    // An interrupt for @cpu: it wakes @cpu from power-down if its wake-up is armed (no MCPM
    // use count involved).
    void irq_wake(unsigned cpu)
    {
        note(cpu, "irq wake");
        interrupt(cpu);
    }

    bool cpu_powered(unsigned cpu) const { return cpu_powered_[cpu]; }
    // Drop the interrupts pending at @cpu (they were taken).
    void forget_irqs(unsigned cpu) { irq_pending_[cpu] = false; }
    bool cluster_powered(unsigned cl) const { return cluster_powered_[cl]; }
    uint32_t shm(uint32_t off) const
    {
        return mem[shm_base + off] | mem[shm_base + off + 1] << 8 | mem[shm_base + off + 2] << 16 |
               static_cast<uint32_t>(mem[shm_base + off + 3]) << 24;
    }
    std::vector<std::string> log_of(unsigned cpu) const
    {
        std::vector<std::string> out;
        for (const entry& e : log)
            if (e.cpu == cpu)
                out.push_back(e.what);
        return out;
    }
    double time_of(const std::string& what) const
    {
        for (const entry& e : log)
            if (e.what == what)
                return e.t_ns;
        return -1;
    }

private:
    static fake_soc& self(void* p) { return *static_cast<fake_soc*>(p); }
    static double now_ns() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }
    void note(unsigned cpu, std::string what) { log.push_back({now_ns(), cpu, std::move(what)}); }
    sc_core::sc_time random_ns() { return sc_core::sc_time(1 + static_cast<double>(rng_() % max_ns_), sc_core::SC_NS); }

    static uint32_t shm_read(void* p, unsigned, uint64_t addr, unsigned bytes)
    {
        fake_soc& f = self(p);
        sc_core::wait(f.random_ns());
        uint32_t v = 0;
        for (unsigned i = 0; i < bytes; i++)
            v |= static_cast<uint32_t>(f.mem.at(addr + i)) << (8 * i);
        return v;
    }
    static void shm_write(void* p, unsigned, uint64_t addr, unsigned bytes, uint32_t v)
    {
        fake_soc& f = self(p);
        sc_core::wait(f.random_ns());
        for (unsigned i = 0; i < bytes; i++)
            f.mem.at(addr + i) = static_cast<uint8_t>(v >> (8 * i));
    }
    static void wfe(void* p, unsigned cpu)
    {
        fake_soc& f = self(p);
        if (!f.event_reg_[cpu])
            sc_core::wait(f.event_[cpu]);
        f.event_reg_[cpu] = false;
    }
    static void sev(void* p, unsigned)
    {
        fake_soc& f = self(p);
        for (unsigned c = 0; c < ncpus; c++) {
            f.event_reg_[c] = true;
            f.event_[c].notify(sc_core::SC_ZERO_TIME);
        }
    }
    static void dsb(void*, unsigned) {}
    void interrupt(unsigned cpu)
    {
        if (deaf[cpu]) {
            note(cpu, "irq lost");
            return;
        }
        irq_pending_[cpu] = true;
        wake_event_[cpu].notify(sc_core::SC_ZERO_TIME);
    }
    bool may_wake(unsigned cpu) const
    {
        const unsigned cl = hw.cpu_cluster[cpu], k = cpu % 2;
        return irq_pending_[cpu] && (wake_mask_ & BLS_SPC_WAKE_CPU(cl, k));
    }
    static void power_down(void* p, unsigned cpu)
    {
        fake_soc& f = self(p);
        f.note(cpu, "wfi: power off");
        const unsigned cl = f.hw.cpu_cluster[cpu];
        if (!f.may_wake(cpu)) {
            f.cpu_powered_[cpu] = false;
            bool all_off = true;
            for (unsigned c = 0; c < ncpus; c++)
                if (f.hw.cpu_cluster[c] == cl && f.cpu_powered_[c])
                    all_off = false;
            if (all_off && f.pwrdn_en_[cl]) {
                f.cluster_powered_[cl] = false;
                f.cluster_power_offs[cl]++;
                f.note(cpu, "cluster " + std::to_string(cl) + " off");
            }
            while (!f.may_wake(cpu))
                sc_core::wait(f.wake_event_[cpu]);
            f.cluster_powered_[cl] = true;
            f.cpu_powered_[cpu] = true;
        }
        f.irq_pending_[cpu] = false; // taken by the woken CPU
        f.note(cpu, "powered up");
    }
    // The power controller's registers, decoded into the log.
    void spc_write(unsigned cpu, uint32_t off, uint32_t v)
    {
        char buf[64];
        if (off == BLS_SPC_WAKE_INT_MASK) {
            wake_mask_ = v;
            for (unsigned c = 0; c < ncpus; c++)
                wake_event_[c].notify(sc_core::SC_ZERO_TIME);
            std::snprintf(buf, sizeof buf, "wake_int_mask=0x%x", v);
        } else if (off == BLS_SPC_PWRDN_EN(0) || off == BLS_SPC_PWRDN_EN(1)) {
            const unsigned cl = (off - BLS_SPC_PWRDN_EN(0)) / 4;
            pwrdn_en_[cl] = v != 0;
            std::snprintf(buf, sizeof buf, "pwrdn_en cluster%u=%u", cl, v);
        } else if (off >= BLS_SPC_BX_ADDR(0, 0) && off < BLS_SPC_BX_ADDR(2, 0)) {
            const unsigned cl = (off - BLS_SPC_BX_ADDR(0, 0)) / 16, k = (off - BLS_SPC_BX_ADDR(0, 0)) % 16 / 4;
            std::snprintf(buf, sizeof buf, "bx_addr cpu%u=0x%x", 2 * cl + k, v);
        } else {
            std::snprintf(buf, sizeof buf, "spc 0x%x=0x%x", off, v);
        }
        note(cpu, buf);
    }
    static uint32_t mmio_read(void* p, unsigned, uint64_t addr)
    {
        fake_soc& f = self(p);
        sc_core::wait(f.random_ns());
        if (addr == f.hw.cci_base + BLS_CCI_STATUS)
            return 0;
        if (addr == f.hw.spc_base + BLS_SPC_WAKE_INT_MASK)
            return f.wake_mask_;
        auto it = f.regs.find(addr);
        return it == f.regs.end() ? 0 : it->second;
    }
    static void mmio_write(void* p, unsigned cpu, uint64_t addr, uint32_t v)
    {
        fake_soc& f = self(p);
        if (addr >= f.hw.spc_base && addr < f.hw.spc_base + 0x100) {
            f.spc_write(cpu, static_cast<uint32_t>(addr - f.hw.spc_base), v);
            sc_core::wait(f.random_ns());
            return;
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "mmio 0x%llx=0x%x", static_cast<unsigned long long>(addr), v);
        f.note(cpu, buf);
        f.regs[addr] = v;
        if (addr == f.hw.gic_dist_base + BLS_GICD_SGIR) {
            if (f.on_sgi)
                f.on_sgi(cpu, v);
            for (unsigned t = 0; t < ncpus; t++)
                if (v & (1u << (16 + t)))
                    f.interrupt(t);
        }
        if (addr >= f.hw.cci_base && addr < f.hw.cci_base + 0x10000)
            sc_core::wait(sc_core::sc_time(f.slow_op_ns, sc_core::SC_NS));
        else
            sc_core::wait(f.random_ns());
    }
    static void clean(void* p, unsigned cpu, enum bls_cache_level level)
    {
        fake_soc& f = self(p);
        f.note(cpu, "clean L" + std::to_string(static_cast<int>(level)) + " begin");
        sc_core::wait(sc_core::sc_time(f.slow_op_ns, sc_core::SC_NS));
        f.note(cpu, "clean L" + std::to_string(static_cast<int>(level)) + " end");
    }

    const bls_platform_ops ops_ = {
        .now_ns = [](void*, unsigned) -> uint64_t { return sc_core::sc_time_stamp().value() / 1000; },
        .cpu_execute = [](void*, unsigned, const bls_work*, double*) -> int { return 0; },
        .cpu_wait_for_interrupt = [](void*, unsigned) {},
        .cpu_wait_for_event = wfe,
        .cpu_dsb = dsb,
        .cpu_send_event = sev,
        .cpu_power_down = power_down,
        .mmio_read32 = mmio_read,
        .mmio_write32 = mmio_write,
        .mmio_poll32 = [](void* p, unsigned cpu, uint64_t addr, uint32_t mask, uint64_t) -> uint32_t {
            uint32_t v;
            while ((v = mmio_read(p, cpu, addr)) & mask) {
            }
            return v;
        },
        .shm_read = shm_read,
        .shm_write = shm_write,
        .cache_clean_invalidate = clean,
        .cpu_irq_mask = [](void* p, unsigned cpu, int masked) { self(p).irq_masks.emplace_back(cpu, masked); },
        .mem_read_uncached = [](void*, unsigned, unsigned words) {
            sc_core::wait(sc_core::sc_time(100.0 * words, sc_core::SC_NS));
        },
        .cpu_delay_cycles = [](void*, unsigned cpu, uint64_t n) {
            (void)cpu;
            sc_core::wait(sc_core::sc_time(static_cast<double>(n), sc_core::SC_NS));
        },
        // Each CPU's timer, kept but not logged (no test here schedules anything by it).
        .timer_set = [](void* p, unsigned cpu, uint64_t deadline) { self(p).timer_.at(cpu) = deadline; },
        .timer_get = [](void* p, unsigned cpu) -> uint64_t { return self(p).timer_.at(cpu); },
        .bug = [](void*, unsigned cpu, const char* file, int line, const char* check) {
            throw std::logic_error("cpu" + std::to_string(cpu) + ": check failed: " + check + " (" + file + ":" +
                                   std::to_string(line) + ")");
        },
        .trace = [](void* p, unsigned cpu, unsigned ev, unsigned a, unsigned b) {
            // MCPM's state changes are for observers (a timeline): kept apart from the log
            // of what the code did to the hardware.
            if (ev == BLS_TRACE_MCPM_CPU_STATE) {
                self(p).mcpm_states.push_back({a, b});
                return;
            }
            self(p).note(cpu, "trace " + std::to_string(ev) + " " + std::to_string(a) + " " + std::to_string(b));
        },
    };
    std::mt19937_64 rng_;
    unsigned max_ns_;
    std::array<bool, ncpus> event_reg_{};
    std::array<sc_core::sc_event, ncpus> event_;
    std::array<bool, ncpus> irq_pending_{};
    uint32_t wake_mask_ = 0;
    std::array<sc_core::sc_event, ncpus> wake_event_;
    std::array<bool, ncpus> cpu_powered_{};
    std::array<bool, 2> cluster_powered_{};
    std::array<bool, 2> pwrdn_en_{};
    std::array<uint64_t, ncpus> timer_{UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
};

} // namespace blsim::test
