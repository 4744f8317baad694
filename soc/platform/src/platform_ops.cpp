// soc/platform/src/platform_ops.cpp -- the hardware verbs of bls/platform_ops.h, over the SystemC models.
//
// The analogue of a kernel platform backend (tc2_pm.c): each verb is a few lines of
// mechanism; protocols and policies stay in the C code that calls them. Verbs documented as
// "runs on @cpu" are called from that core's SystemC thread and may wait() in it.
#include <systemc>

#include <bls/spc.h>

#include "blsim/model/invariant.h"
#include "blsim/model/sim_time.h"
#include "blsim/soc/platform.h"

namespace blsim::soc {

// The power controller's register layout exists twice, as layers must not see each other: in
// the model (the hardware) and in the C driver (bls/spc.h). Here, where both are visible, they
// are held to agree.
using spc = model::power_controller;
static_assert(BLS_SPC_PERF_LVL(0) == spc::PERF_LVL && BLS_SPC_PERF_LVL(1) == spc::PERF_LVL + 8);
static_assert(BLS_SPC_PWC_STATUS == spc::PWC_STATUS && BLS_SPC_WAKE_INT_MASK == spc::WAKE_INT_MASK);
static_assert(BLS_SPC_PWRDN_EN(0) == spc::PWRDN_EN && BLS_SPC_PWRDN_EN(1) == spc::PWRDN_EN + 4);
static_assert(BLS_SPC_BX_ADDR(0, 0) == spc::BX_ADDR && BLS_SPC_BX_ADDR(1, 2) == spc::BX_ADDR + 16 + 8);
static_assert(BLS_SPC_STAT_COMPLETE(1) == spc::stat_complete(1) && BLS_SPC_STAT_ERR(1) == spc::stat_err(1));
static_assert(BLS_SPC_BX_ADDR_WIDE(3) == spc::BX_ADDR + 12 && BLS_SPC_WAKE_CPU_WIDE(5) == 1u << 5 &&
              BLS_SPC_STAT_PWRUP_ERR_WIDE(5) == 1u << 21 && BLS_SPC_WIDE_MAX_CPUS == spc::max_cpus_wide);
static_assert(BLS_MAX_CPUS_PER_CLUSTER == spc::max_cores_per_cluster && BLS_MAX_CLUSTERS == spc::max_clusters);

struct platform_ops_impl {
    static platform& self(void* plat) { return *static_cast<platform*>(plat); }

    static std::uint64_t now_ns(void* plat, unsigned cpu)
    {
        return self(plat).core_at(cpu).local_time().value() / 1000; // resolution is 1 ps
    }

    static int cpu_execute(void* plat, unsigned cpu, const bls_work* work, double* done_ref_ns)
    {
        platform& p = self(plat);
        model::core& c = p.core_at(cpu);
        model::cluster& cl = p.cluster_of_cpu(cpu);
        const unsigned k = p.core_index(cpu);
        p.check_executing(cpu, true);
        // A cold cache first fetches the working set; the core stalls meanwhile.
        if (work->working_set_kb > 0)
            c.stall(cl.warm(k, work->ctx, work->working_set_kb, c.local_offset()));
        int interrupted = c.execute(work->ref_ns, work->mem_fraction, done_ref_ns);
        if (work->working_set_kb > 0 && *done_ref_ns > 0)
            cl.written(k, work->ctx, work->write_fraction);
        p.check_executing(cpu, false);
        return interrupted ? -BLS_EINTR : 0;
    }

    static void cpu_wait_for_interrupt(void* plat, unsigned cpu)
    {
        self(plat).core_at(cpu).wait_for_interrupt();
    }

    static void cpu_wait_for_event(void* plat, unsigned cpu) { self(plat).core_at(cpu).wait_for_event(); }

    static void cpu_dsb(void* plat, unsigned cpu) { self(plat).core_at(cpu).settle(); }

    static void cpu_send_event(void* plat, unsigned cpu)
    {
        platform& p = self(plat);
        p.core_at(cpu).send_event(p.cores());
    }

    static void cpu_power_down(void* plat, unsigned cpu) { self(plat).core_at(cpu).power_down(); }

    static uint32_t mmio_read32(void* plat, unsigned cpu, uint64_t addr)
    {
        return self(plat).core_at(cpu).mmio_read(addr);
    }

    static void mmio_write32(void* plat, unsigned cpu, uint64_t addr, uint32_t value)
    {
        self(plat).core_at(cpu).mmio_write(addr, value);
    }

    static uint32_t mmio_poll32(void* plat, unsigned cpu, uint64_t addr, uint32_t mask, uint64_t timeout_ns)
    {
        return self(plat).core_at(cpu).poll(addr, mask,
                                            sc_core::sc_time::from_value(timeout_ns > UINT64_MAX / 1000 ? UINT64_MAX : timeout_ns * 1000));
    }

    static uint32_t shm_read(void* plat, unsigned cpu, uint64_t addr, unsigned bytes)
    {
        return self(plat).core_at(cpu).shared_read(addr, bytes);
    }

    static void shm_write(void* plat, unsigned cpu, uint64_t addr, unsigned bytes, uint32_t value)
    {
        self(plat).core_at(cpu).shared_write(addr, bytes, value);
    }

    static void cache_clean_invalidate(void* plat, unsigned cpu, enum bls_cache_level level)
    {
        platform& p = self(plat);
        model::core& c = p.core_at(cpu);
        model::cluster& cl = p.cluster_of_cpu(cpu);
        c.stall(level == BLS_CACHE_L1 ? cl.clean_invalidate_l1(p.core_index(cpu))
                                      : cl.clean_invalidate_l2(c.local_offset()));
    }

    static void cpu_irq_mask(void* plat, unsigned cpu, int masked)
    {
        self(plat).core_at(cpu).set_irq_masked(masked != 0);
    }

    static void mem_read_uncached(void* plat, unsigned cpu, unsigned words)
    {
        platform& p = self(plat);
        model::core& c = p.core_at(cpu);
        model::cluster& cl = p.cluster_of_cpu(cpu);
        // A word at a time, each settled (the lookahead): the memory channel serves its masters
        // in the order their requests reach it, and these dependent round trips are spread over
        // the whole restore. Issued in one go, a restore ran ahead of every other master and
        // booked the channel up to its end: another master's earlier request then queued
        // behind all of it (two inbounds restoring at once, the second took twice as long).
        for (unsigned i = 0; i < words; i++)
            c.stall(cl.read_uncached_word(c.local_offset()));
    }

    static void cpu_delay_cycles(void* plat, unsigned cpu, uint64_t cycles)
    {
        platform& p = self(plat);
        p.core_at(cpu).stall(p.cluster_of_cpu(cpu).clock().cycles(static_cast<double>(cycles)));
    }

    static void timer_set(void* plat, unsigned cpu, uint64_t deadline_ns)
    {
        self(plat).timer_->set(cpu, deadline_ns);
    }

    static uint64_t timer_get(void* plat, unsigned cpu) { return self(plat).timer_->deadline(cpu); }

    static void bug(void*, unsigned cpu, const char* file, int line, const char* check)
    {
        model::check_failed(check, file, line, model::now_ps(),
                            cpu == ~0u ? std::string("the C kernel") : "cpu" + std::to_string(cpu));
    }

    static void trace(void* plat, unsigned cpu, unsigned event, unsigned a, unsigned b)
    {
        platform& p = self(plat);
        model::core& c = p.core_at(cpu);
        if (p.trace_)
            p.trace_->kernel(c.local_time().value(), cpu, event, a, b);
        // Observers of the switch's events read the energy meter at the event's time: the
        // CPU's register accesses may have run ahead of the kernel, and the meter must never
        // be integrated beyond the kernel's time (a later change would close a negative
        // interval), so the CPU catches the kernel up first. An interrupt's acknowledgement
        // only needs its time: it is stamped with the CPU's own, without a context switch
        // (one per interrupt would cost the hot path).
        // The operating system's events need their time only (and come by the thousand); but
        // a mode change reads the meter at its time, as a switch's phases do: the CPU catches
        // the kernel up first (when it is the CPU's own thread that traces, as it should be;
        // otherwise the kernel's time is the event's).
        if (event >= BLS_TRACE_SCHED_WAKEUP && event != BLS_TRACE_SWITCH_ABORTED) { // the OS's
            std::uint64_t t = c.local_time().value();
            if (event == BLS_TRACE_MODE) {
                const sc_core::sc_process_handle h = sc_core::sc_get_current_process_handle();
                const bool own_thread =
                    sc_core::sc_is_running() && h.valid() && h.proc_kind() == sc_core::SC_THREAD_PROC_;
                if (own_thread)
                    c.sync();
                t = own_thread ? c.local_time().value() : model::sim_now().value();
            }
            p.os_probe_->tracepoint(t, cpu, event, a, b);
            return;
        }
        if (event == BLS_TRACE_GUEST_ERROR) {
            p.guest_error(cpu, a, b);
            return;
        }
        if (event != BLS_TRACE_IRQ_HANDLED)
            c.sync();
        if (event == BLS_TRACE_OUTBOUND_DOWN) { // invariant 'no-ipi-lost' (switch_probe.h)
            std::uint8_t sources[16];
            for (unsigned w = 0; w < 4; w++) {
                const std::uint32_t v = p.gic_->dist_read(cpu, model::gic400::GICD_SPENDSGIR + 4 * w);
                for (unsigned k = 0; k < 4; k++)
                    sources[4 * w + k] = static_cast<std::uint8_t>(v >> (8 * k));
            }
            switch_probe::check_no_ipi_lost(c.local_time().value(), cpu, a, b,
                                            bls_switcher_logical_of(&p.kernel_.sw, cpu) >= 0, sources);
        }
        p.probe_->tracepoint(c.local_time().value(), cpu, event, a, b, p.power().cluster_of(cpu));
    }
};

// A verb that may notify an event (a timer, a device's, a wake-up) or wait other than through
// the core's sync() ends by making the core forget the lookahead horizon its barrier keeps
// (core::forget_horizon): others may have run, or have activity due sooner. A run of MCPM's
// shared accesses then asks SystemC what is pending once, not once per access. Not wrapped:
// the shared accesses, the barrier, the clock read and the interrupt mask (they neither wait
// nor notify: the mask is the core's own flag, read when it next executes or waits); the
// stalls (a cache clean, uncached reads, a delay) and the tracepoints, whose only way to
// SystemC is the core's sync(), which forgets by itself; WFE, which forgets when it waits
// (core::wait_for_event: the WFE of a spin loop that does not sleep keeps it); and SEV, which
// forgets only when it woke a core from WFE (core::send_event; otherwise it sets event
// registers and notifies nothing).
template <typename F, F verb>
struct forgetting;

template <typename R, typename... A, R (*verb)(void*, unsigned, A...)>
struct forgetting<R (*)(void*, unsigned, A...), verb> {
    static R call(void* plat, unsigned cpu, A... args)
    {
        struct forget {
            model::core& c;
            ~forget() { c.forget_horizon(); }
        } guard{platform_ops_impl::self(plat).core_at(cpu)};
        return verb(plat, cpu, args...);
    }
};

#define BLSIM_FORGETTING(v) forgetting<decltype(&platform_ops_impl::v), &platform_ops_impl::v>::call

const bls_platform_ops& systemc_platform_ops()
{
    static const bls_platform_ops ops = {
        .now_ns = platform_ops_impl::now_ns,
        .cpu_execute = BLSIM_FORGETTING(cpu_execute),
        .cpu_wait_for_interrupt = BLSIM_FORGETTING(cpu_wait_for_interrupt),
        .cpu_wait_for_event = platform_ops_impl::cpu_wait_for_event,
        .cpu_dsb = platform_ops_impl::cpu_dsb,
        .cpu_send_event = platform_ops_impl::cpu_send_event,
        .cpu_power_down = BLSIM_FORGETTING(cpu_power_down),
        .mmio_read32 = BLSIM_FORGETTING(mmio_read32),
        .mmio_write32 = BLSIM_FORGETTING(mmio_write32),
        .mmio_poll32 = BLSIM_FORGETTING(mmio_poll32),
        .shm_read = platform_ops_impl::shm_read,
        .shm_write = platform_ops_impl::shm_write,
        .cache_clean_invalidate = platform_ops_impl::cache_clean_invalidate,
        .cpu_irq_mask = platform_ops_impl::cpu_irq_mask,
        .mem_read_uncached = platform_ops_impl::mem_read_uncached,
        .cpu_delay_cycles = platform_ops_impl::cpu_delay_cycles,
        .timer_set = BLSIM_FORGETTING(timer_set),
        .timer_get = platform_ops_impl::timer_get,
        .bug = platform_ops_impl::bug,
        .trace = platform_ops_impl::trace,
    };
    return ops;
}

#undef BLSIM_FORGETTING

} // namespace blsim::soc
