// tests/switcher/kernel_test.cpp -- the C kernel against a fake platform that records every
// hardware verb it is asked for.
//
// bls_kernel_cpu_main() never returns, as a CPU's software never does; the fake ends a test
// by jumping out of it (longjmp) when the scripted run is over. No C++ object with a
// destructor lives between the setjmp and the longjmp.
#include <gtest/gtest.h>

#include <csetjmp>
#include <string>
#include <vector>

#include <bls/kernel.h>

namespace {

struct fake_platform {
    std::vector<std::string> calls;
    std::jmp_buf done;
    int idle_calls_left = 1;     // WFI / power-down calls before the test ends
    double interrupt_after = -1; // execute: pretend an interrupt arrives after this much work
    bls_kernel* kernel = nullptr;
};

fake_platform& fake(void* p) { return *static_cast<fake_platform*>(p); }

uint64_t fake_now_ns(void*) { return 0; }

int fake_execute(void* p, unsigned cpu, const bls_work* w, double* done)
{
    fake_platform& f = fake(p);
    f.calls.push_back("execute cpu" + std::to_string(cpu) + " " + std::to_string(static_cast<int>(w->ref_ns)));
    if (f.interrupt_after >= 0 && f.interrupt_after < w->ref_ns) {
        *done = f.interrupt_after;
        f.interrupt_after = -1;
        return -BLS_EINTR;
    }
    *done = w->ref_ns;
    return 0;
}

void end_or_continue(fake_platform& f)
{
    if (--f.idle_calls_left <= 0)
        std::longjmp(f.done, 1);
}

void fake_wfi(void* p, unsigned cpu)
{
    fake_platform& f = fake(p);
    f.calls.push_back("wfi cpu" + std::to_string(cpu));
    end_or_continue(f);
}

unsigned fake_irq_ack(void* p, unsigned cpu)
{
    fake(p).calls.push_back("ack cpu" + std::to_string(cpu));
    return 0;
}

void fake_power_down(void* p, unsigned cpu)
{
    fake_platform& f = fake(p);
    f.calls.push_back("power_down cpu" + std::to_string(cpu));
    end_or_continue(f);
}

int fake_set_freq(void* p, unsigned cluster, unsigned mhz)
{
    fake(p).calls.push_back("set_freq cluster" + std::to_string(cluster) + " " + std::to_string(mhz));
    return 0;
}

const bls_platform_ops fake_ops = {
    .now_ns = fake_now_ns,
    .cpu_execute = fake_execute,
    .cpu_wait_for_interrupt = fake_wfi,
    .cpu_irq_ack = fake_irq_ack,
    .cpu_power_down = fake_power_down,
    .cluster_set_freq = fake_set_freq,
};

bls_kernel_config two_tasks_on_cpu0()
{
    bls_kernel_config c{};
    c.ncpus = 2;
    c.boot_cpu = 0;
    c.ntasks = 2;
    c.tasks[0] = {0, 0.0};
    c.tasks[1] = {0, 0.25};
    return c;
}

void run_cpu(bls_kernel* k, fake_platform& f, unsigned cpu)
{
    if (setjmp(f.done) == 0)
        bls_kernel_cpu_main(k, cpu);
}

TEST(kernel, init_checks_platform_ops_and_configuration)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    EXPECT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, nullptr), 0);

    bls_platform_ops missing = fake_ops;
    missing.cpu_power_down = nullptr;
    EXPECT_EQ(bls_kernel_init(&k, &c, &missing, &f, nullptr), -BLS_ENOSYS);
    EXPECT_EQ(bls_platform_ops_check(&missing), -BLS_ENOSYS);
    EXPECT_EQ(bls_platform_ops_check(&fake_ops), 0);

    bls_kernel_config bad = c;
    bad.tasks[1].cpu = 2;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, nullptr), -BLS_EINVAL);
    bad = c;
    bad.tasks[0].mem_fraction = 1.5;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, nullptr), -BLS_EINVAL);
    bad = c;
    bad.boot_cpu = 2;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, nullptr), -BLS_EINVAL);

    bls_governor no_start{};
    EXPECT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &no_start), -BLS_EINVAL);
}

TEST(kernel, a_cpu_without_tasks_powers_down)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, nullptr), 0);
    ASSERT_EQ(bls_kernel_add_work(&k, 0, 100), 0); // cpu0's work is not cpu1's business
    run_cpu(&k, f, 1);
    EXPECT_EQ(f.calls, (std::vector<std::string>{"ack cpu1", "power_down cpu1"}));
}

TEST(kernel, round_robin_then_wfi)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, nullptr), 0);
    ASSERT_EQ(bls_kernel_add_work(&k, 1, 300), 0);
    ASSERT_EQ(bls_kernel_add_work(&k, 0, 100), 0);
    run_cpu(&k, f, 0);
    EXPECT_EQ(f.calls, (std::vector<std::string>{"ack cpu0", "execute cpu0 100", "ack cpu0",
                                                 "execute cpu0 300", "ack cpu0", "wfi cpu0"}));
    EXPECT_DOUBLE_EQ(k.stats[0].done_ref_ns, 100);
    EXPECT_DOUBLE_EQ(k.stats[1].done_ref_ns, 300);
    EXPECT_DOUBLE_EQ(k.stats[1].released_ref_ns, 300);
}

TEST(kernel, a_preempted_task_goes_to_the_back)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, nullptr), 0);
    bls_kernel_add_work(&k, 0, 100);
    bls_kernel_add_work(&k, 1, 300);
    f.interrupt_after = 40; // task 0 is interrupted 40 ref ns in
    run_cpu(&k, f, 0);
    EXPECT_EQ(f.calls, (std::vector<std::string>{"ack cpu0", "execute cpu0 100", "ack cpu0",
                                                 "execute cpu0 300", "ack cpu0", "execute cpu0 60",
                                                 "ack cpu0", "wfi cpu0"}));
    EXPECT_EQ(k.stats[0].preemptions, 1u);
    EXPECT_DOUBLE_EQ(k.stats[0].done_ref_ns, 100);
}

TEST(kernel, the_governor_starts_on_the_boot_cpu_before_any_task)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    bls_governor gov{};
    gov.ops = &bls_governor_fixed;
    gov.plat_ops = &fake_ops;
    gov.plat = &f;
    gov.nclusters = 2;
    gov.freq_mhz[0] = 1000;
    gov.freq_mhz[1] = 800;
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &gov), 0);
    bls_kernel_add_work(&k, 0, 10);
    run_cpu(&k, f, 0);
    EXPECT_EQ(f.calls, (std::vector<std::string>{"set_freq cluster0 1000", "set_freq cluster1 800",
                                                 "ack cpu0", "execute cpu0 10", "ack cpu0",
                                                 "wfi cpu0"}));
    EXPECT_EQ(bls_kernel_add_work(&k, 2, 10), -BLS_EINVAL);
    EXPECT_EQ(bls_kernel_add_work(&k, 0, -1), -BLS_EINVAL);
}

} // namespace
