// soc/src/platform_ops.cpp -- the hardware verbs of bls/platform_ops.h, over the SystemC models.
//
// The analogue of a kernel platform backend (tc2_pm.c): each verb is a few lines of
// mechanism; protocols and policies stay in the C code that calls them. Verbs documented as
// "runs on @cpu" are called from that core's SystemC thread and may wait() in it.
#include <systemc>

#include "blsim/soc/platform.h"

namespace blsim::soc {

struct platform_ops_impl {
    static platform& self(void* plat) { return *static_cast<platform*>(plat); }

    static std::uint64_t now_ns(void*)
    {
        return sc_core::sc_time_stamp().value() / 1000; // resolution is 1 ps
    }

    static int cpu_execute(void* plat, unsigned cpu, const bls_work* work, double* done_ref_ns)
    {
        int interrupted = self(plat).core_at(cpu).execute(work->ref_ns, work->mem_fraction,
                                                          done_ref_ns);
        return interrupted ? -BLS_EINTR : 0;
    }

    static void cpu_wait_for_interrupt(void* plat, unsigned cpu)
    {
        self(plat).core_at(cpu).wait_for_interrupt();
    }

    static unsigned cpu_irq_ack(void* plat, unsigned cpu) { return self(plat).core_at(cpu).irq_ack(); }

    static void cpu_power_down(void* plat, unsigned cpu) { self(plat).core_at(cpu).power_down(); }

    static int cluster_set_freq(void* plat, unsigned cluster, unsigned freq_mhz)
    {
        platform& p = self(plat);
        if (cluster >= p.nclusters())
            return -BLS_EINVAL;
        model::dvfs_controller& dvfs = p.cluster_at(cluster).dvfs();
        int index = dvfs.index_of(static_cast<int>(freq_mhz));
        if (index < 0)
            return -BLS_EINVAL;
        dvfs.request(index);
        return 0;
    }
};

const bls_platform_ops& systemc_platform_ops()
{
    static const bls_platform_ops ops = {
        .now_ns = platform_ops_impl::now_ns,
        .cpu_execute = platform_ops_impl::cpu_execute,
        .cpu_wait_for_interrupt = platform_ops_impl::cpu_wait_for_interrupt,
        .cpu_irq_ack = platform_ops_impl::cpu_irq_ack,
        .cpu_power_down = platform_ops_impl::cpu_power_down,
        .cluster_set_freq = platform_ops_impl::cluster_set_freq,
    };
    return ops;
}

} // namespace blsim::soc
