// tests/switcher/kernel_test.cpp -- the C kernel and its GIC and CCI drivers against a fake
// platform that records every hardware verb it is asked for.
//
// bls_kernel_cpu_main() never returns, as a CPU's software never does; the fake ends a test
// by jumping out of it (longjmp) when the scripted run is over. No C++ object with a
// destructor lives between the setjmp and the longjmp.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <csetjmp>
#include <cstdio>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <bls/kernel.h>
#include <bls/spc.h>

namespace {

constexpr uint64_t dist = 0x1000, cpuif = 0x2000, cci = 0x90000, spc = 0x7fff0b00;

struct fake_platform {
    std::vector<std::string> calls;
    std::jmp_buf done;
    int idle_calls_left = 1;       // WFI / power-down calls before the test ends
    double interrupt_after = -1;   // execute: an interrupt arrives after this much work
    std::deque<uint32_t> iar;      // what GICC_IAR answers, then 1023
    std::map<uint64_t, uint8_t> shm; // shared memory (MCPM's states, vlocks)
    int cci_pending_reads = 2;     // CCI status reads that still see change_pending
    bls_kernel* kernel = nullptr;  // set it to have WFE stand for the boot CPU
    std::map<uint64_t, uint32_t> spc_regs; // the power controller's registers read back
    std::map<unsigned, uint64_t> timer;    // each CPU's programmed deadline
    std::vector<std::deque<bls_step>> steps; // each task's steps, then asleep for ever
};

fake_platform& fake(void* p) { return *static_cast<fake_platform*>(p); }

std::string reg_name(uint64_t a)
{
    char buf[48];
    if (a == dist + BLS_GICD_CTLR) return "GICD_CTLR";
    if (a >= dist + BLS_GICD_ISENABLER && a < dist + BLS_GICD_ISENABLER + 0x80) {
        std::snprintf(buf, sizeof buf, "GICD_ISENABLER%u", unsigned(a - dist - BLS_GICD_ISENABLER) / 4);
        return buf;
    }
    if (a >= dist + BLS_GICD_IPRIORITYR && a < dist + BLS_GICD_IPRIORITYR + 0x400) {
        std::snprintf(buf, sizeof buf, "GICD_IPRIORITYR%u", unsigned(a - dist - BLS_GICD_IPRIORITYR) / 4);
        return buf;
    }
    if (a >= dist + BLS_GICD_ITARGETSR && a < dist + BLS_GICD_ITARGETSR + 0x400) {
        std::snprintf(buf, sizeof buf, "GICD_ITARGETSR%u", unsigned(a - dist - BLS_GICD_ITARGETSR) / 4);
        return buf;
    }
    if (a == cpuif + BLS_GICC_CTLR) return "GICC_CTLR";
    if (a == cpuif + BLS_GICC_PMR) return "GICC_PMR";
    if (a == cpuif + BLS_GICC_IAR) return "GICC_IAR";
    if (a == cpuif + BLS_GICC_EOIR) return "GICC_EOIR";
    if (a == cci + BLS_CCI_STATUS) return "CCI_STATUS";
    if (a >= spc && a < spc + 0x100) {
        const unsigned o = unsigned(a - spc);
        if (o == BLS_SPC_PERF_LVL(0) || o == BLS_SPC_PERF_LVL(1)) {
            std::snprintf(buf, sizeof buf, "SPC_PERF_LVL%u", o / 8);
            return buf;
        }
        if (o == BLS_SPC_PWC_STATUS) return "SPC_PWC_STATUS";
        if (o == BLS_SPC_WAKE_INT_MASK) return "SPC_WAKE_INT_MASK";
        if (o == BLS_SPC_PWRDN_EN(0) || o == BLS_SPC_PWRDN_EN(1)) {
            std::snprintf(buf, sizeof buf, "SPC_PWRDN_EN%u", (o - 0x30) / 4);
            return buf;
        }
        if (o >= BLS_SPC_BX_ADDR(0, 0) && o < BLS_SPC_BX_ADDR(2, 0)) {
            std::snprintf(buf, sizeof buf, "SPC_BX_ADDR%u_%u", (o - 0x68) / 16, (o - 0x68) % 16 / 4);
            return buf;
        }
    }
    if (a >= cci + 0x1000 && a < cci + 0x6000 && (a - cci) % 0x1000 == 0) {
        std::snprintf(buf, sizeof buf, "CCI_SNOOP_CONTROL_S%u", unsigned(a - cci) / 0x1000 - 1);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
    return buf;
}

uint64_t fake_now_ns(void*, unsigned) { return 0; }

int fake_execute(void* p, unsigned cpu, const bls_work* w, double* done)
{
    fake_platform& f = fake(p);
    f.calls.push_back("execute cpu" + std::to_string(cpu) + " ctx" + std::to_string(w->ctx) + " " +
                      std::to_string(static_cast<int>(w->ref_ns)) + " ws" + std::to_string(w->working_set_kb));
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

void fake_wfe(void* p, unsigned cpu)
{
    fake_platform& f = fake(p);
    f.calls.push_back("wfe cpu" + std::to_string(cpu));
    if (f.kernel)
        f.kernel->booted = 1; // meanwhile, the boot CPU came up
}

void fake_sev(void* p, unsigned cpu) { fake(p).calls.push_back("sev cpu" + std::to_string(cpu)); }

void fake_dsb(void* p, unsigned cpu) { fake(p).calls.push_back("dsb cpu" + std::to_string(cpu)); }

void fake_power_down(void* p, unsigned cpu)
{
    fake_platform& f = fake(p);
    f.calls.push_back("power_down cpu" + std::to_string(cpu));
    end_or_continue(f);
}

uint32_t fake_read(void* p, unsigned, uint64_t addr)
{
    fake_platform& f = fake(p);
    f.calls.push_back("R " + reg_name(addr));
    if (addr == cpuif + BLS_GICC_IAR) {
        if (f.iar.empty())
            return BLS_GIC_SPURIOUS;
        uint32_t v = f.iar.front();
        f.iar.pop_front();
        return v;
    }
    if (addr == cci + BLS_CCI_STATUS)
        return f.cci_pending_reads-- > 0 ? BLS_CCI_CHANGE_PENDING : 0;
    auto it = f.spc_regs.find(addr);
    return it == f.spc_regs.end() ? 0 : it->second;
}

void fake_write(void* p, unsigned, uint64_t addr, uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", v);
    fake(p).calls.push_back("W " + reg_name(addr) + "=" + buf);
    if (addr >= spc && addr < spc + 0x100)
        fake(p).spc_regs[addr] = v;
}

void fake_clean(void* p, unsigned cpu, enum bls_cache_level level)
{
    fake(p).calls.push_back("clean L" + std::to_string(static_cast<int>(level)) + " cpu" + std::to_string(cpu));
}

uint32_t fake_shm_read(void* p, unsigned, uint64_t addr, unsigned bytes)
{
    fake_platform& f = fake(p);
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= static_cast<uint32_t>(f.shm[addr + i]) << (8 * i);
    return v;
}

void fake_shm_write(void* p, unsigned, uint64_t addr, unsigned bytes, uint32_t v)
{
    fake_platform& f = fake(p);
    for (unsigned i = 0; i < bytes; i++)
        f.shm[addr + i] = static_cast<uint8_t>(v >> (8 * i));
}

void fake_timer_set(void* p, unsigned cpu, uint64_t deadline)
{
    fake_platform& f = fake(p);
    f.calls.push_back("timer cpu" + std::to_string(cpu) + " " +
                      (deadline == BLS_TIMER_OFF ? std::string("off") : std::to_string(deadline)));
    f.timer[cpu] = deadline;
}

uint64_t fake_timer_get(void* p, unsigned cpu)
{
    fake_platform& f = fake(p);
    auto it = f.timer.find(cpu);
    return it == f.timer.end() ? BLS_TIMER_OFF : it->second;
}

// The workload: each task's scripted steps; past them, asleep until the end of time.
int fake_next(void* p, unsigned task, uint64_t, bls_step* st)
{
    fake_platform& f = fake(p);
    if (task < f.steps.size() && !f.steps[task].empty()) {
        *st = f.steps[task].front();
        f.steps[task].pop_front();
    } else {
        *st = bls_step{};
        st->kind = BLS_STEP_SLEEP;
        st->until_ns = UINT64_MAX - 1;
    }
    return 0;
}

const bls_workload_ops fake_workload = {.next = fake_next};

bls_step run_step(double ref_ns, uint32_t ws_kb = 0)
{
    bls_step st{};
    st.kind = BLS_STEP_RUN;
    st.ref_ns = ref_ns;
    st.working_set_kb = ws_kb;
    return st;
}

// Asleep until @until_ns; with @io, waiting for block I/O.
bls_step sleep_step(uint64_t until_ns, int io = 0)
{
    return bls_step{BLS_STEP_SLEEP, 0, 0, 0, 0, until_ns, io, 0, 0, 0, 0};
}

const bls_platform_ops fake_ops = {
    .now_ns = fake_now_ns,
    .cpu_execute = fake_execute,
    .cpu_wait_for_interrupt = fake_wfi,
    .cpu_wait_for_event = fake_wfe,
    .cpu_dsb = fake_dsb,
    .cpu_send_event = fake_sev,
    .cpu_power_down = fake_power_down,
    .mmio_read32 = fake_read,
    .mmio_write32 = fake_write,
    .mmio_poll32 = [](void* p, unsigned cpu, uint64_t addr, uint32_t mask, uint64_t) -> uint32_t {
        uint32_t v;
        while ((v = fake_read(p, cpu, addr)) & mask) {
        }
        return v;
    },
    .shm_read = fake_shm_read,
    .shm_write = fake_shm_write,
    .cache_clean_invalidate = fake_clean,
    .cpu_irq_mask = [](void* p, unsigned cpu, int m) {
        fake(p).calls.push_back(std::string(m ? "mask" : "unmask") + " cpu" + std::to_string(cpu));
    },
    .mem_read_uncached = [](void* p, unsigned cpu, unsigned n) {
        fake(p).calls.push_back("uncached cpu" + std::to_string(cpu) + " " + std::to_string(n));
    },
    .cpu_delay_cycles = [](void* p, unsigned cpu, uint64_t n) {
        fake(p).calls.push_back("delay cpu" + std::to_string(cpu) + " " + std::to_string(n));
    },
    .timer_set = fake_timer_set,
    .timer_get = fake_timer_get,
    .bug = [](void*, unsigned cpu, const char* file, int line, const char* check) {
        // A check of the C code failed: the test fails with it (the exception unwinds
        // through the C frames, compiled with -fexceptions).
        throw std::logic_error("cpu" + std::to_string(cpu) + ": check failed: " + check + " (" + file + ":" +
                               std::to_string(line) + ")");
    },
    .trace = [](void* p, unsigned cpu, unsigned ev, unsigned a, unsigned b) {
        fake(p).calls.push_back("trace cpu" + std::to_string(cpu) + " " + std::to_string(ev) + " " +
                                std::to_string(a) + " " + std::to_string(b));
    },
};

// cpu0 and cpu1 in cluster 0 (CCI S3; OPPs 500 and 1000 MHz, booting at 1000), cpu2 alone in
// cluster 1 (CCI S4; 400 and 800 MHz, booting at 400); two tasks pinned to cpu0, the
// userspace governor, WFI and power-down as idle states. The power controller's interrupt is
// SPI 95 (127).
bls_kernel_config two_tasks_on_cpu0()
{
    bls_kernel_config c{};
    c.hw.ncpus = 3;
    c.hw.nclusters = 2;
    c.hw.cpu_cluster[0] = 0;
    c.hw.cpu_cluster[1] = 0;
    c.hw.cpu_cluster[2] = 1;
    c.hw.cluster_cci_port[0] = 3;
    c.hw.cluster_cci_port[1] = 4;
    c.hw.gic_dist_base = dist;
    c.hw.gic_cpu_base = cpuif;
    c.hw.cci_base = cci;
    c.hw.shm_base = 0x80000;
    c.hw.spc_base = spc;
    c.hw.spc_irq = 127;
    c.hw.timer_ppi = 30;
    c.hw.gic_nirqs = 160;
    c.cpufreq.nopps[0] = c.cpufreq.nopps[1] = 2;
    c.cpufreq.opp_mhz[0][0] = 500;
    c.cpufreq.opp_mhz[0][1] = 1000;
    c.cpufreq.opp_mhz[1][0] = 400;
    c.cpufreq.opp_mhz[1][1] = 800;
    c.cpufreq.boot_level[0] = 1;
    c.cpufreq.boot_level[1] = 0;
    c.cpufreq.big_cluster = 0;
    c.cpufreq.little_cluster = 1;
    c.capacity_dmips_mhz[0] = 1024;
    c.capacity_dmips_mhz[1] = 512;
    c.sched.latency_ns = 6000000;
    c.sched.min_granularity_ns = 750000;
    c.sched.wakeup_granularity_ns = 1000000;
    c.sched.balance_interval_ns = 4000000;
    for (unsigned cl = 0; cl < 2; cl++) {
        c.cpuidle.nstates[cl] = 2;
        c.cpuidle.state[cl][0] = {BLS_IDLE_WFI, 1, 1};
        c.cpuidle.state[cl][1] = {BLS_IDLE_POWER_DOWN, 1000, 2000};
    }
    c.cpuidle.latency_limit_us = UINT32_MAX;
    c.governor = &bls_gov_userspace;
    bls_governor_default_tunables(&c.tunables);
    c.boot_cpu = 0;
    c.ntasks = 2;
    c.tasks[0] = {1u << 0, 0, BLS_SCHED_NORMAL, 0, 0, 0, 0, 0};
    c.tasks[1] = {1u << 0, 0, BLS_SCHED_NORMAL, 0, 0, 0, 0, 0};
    return c;
}

void run_cpu(bls_kernel* k, fake_platform& f, unsigned cpu)
{
    if (setjmp(f.done) == 0)
        bls_kernel_cpu_main(k, cpu);
}

// The calls that start with one of @prefixes, in order.
std::vector<std::string> only(const std::vector<std::string>& calls, std::vector<std::string> prefixes)
{
    std::vector<std::string> out;
    for (const std::string& c : calls)
        for (const std::string& p : prefixes)
            if (c.rfind(p, 0) == 0) {
                out.push_back(c);
                break;
            }
    return out;
}

// What every CPU does to its GIC CPU interface at boot and after a power-up: the timer
// interrupt (PPI 30) at priority 0xa0 (byte 2 of IPRIORITYR7), enabled; PMR open; on.
const std::vector<std::string> gic_cpu_init = {
    "R GICD_IPRIORITYR7", "W GICD_IPRIORITYR7=0xa00000", "W GICD_ISENABLER0=0x40000000",
    "W GICC_PMR=0xf0", "W GICC_CTLR=0x1",
};

std::vector<std::string> concat(std::vector<std::vector<std::string>> parts)
{
    std::vector<std::string> out;
    for (auto& p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

TEST(kernel, init_checks_platform_ops_and_configuration)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    EXPECT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    EXPECT_EQ(k.mcpm.use_count[0][0], 1u); // every CPU starts up, counted
    EXPECT_EQ(k.mcpm.use_count[0][1], 1u);
    EXPECT_EQ(k.mcpm.use_count[1][0], 1u);
    EXPECT_EQ(k.sched.ntasks, 2u);
    EXPECT_EQ(k.sched.task[0].state, BLS_TASK_NEW);

    bls_platform_ops missing = fake_ops;
    missing.cache_clean_invalidate = nullptr;
    EXPECT_EQ(bls_kernel_init(&k, &c, &missing, &f, &fake_workload, &f), -BLS_ENOSYS);
    missing = fake_ops;
    missing.timer_set = nullptr;
    EXPECT_EQ(bls_platform_ops_check(&missing), -BLS_ENOSYS);
    EXPECT_EQ(bls_platform_ops_check(&fake_ops), 0);

    EXPECT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, nullptr, &f), -BLS_EINVAL); // no workload
    bls_kernel_config bad = c;
    bad.tasks[1].affinity = 1u << 3; // no cpu3
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.tasks[0].nice = 20;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.boot_cpu = 3;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.hw.cpu_cluster[2] = 2;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.hw.timer_ppi = 12; // an SGI number, not a PPI
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.hw.spc_irq = 50; // one of the doorbells
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.cpufreq.boot_level[1] = 2; // no such OPP
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.governor = nullptr;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.cpuidle.state[1][0].kind = BLS_IDLE_POWER_DOWN; // the shallowest state must be WFI
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
    bad = c;
    bad.capacity_dmips_mhz[1] = 0;
    EXPECT_EQ(bls_kernel_init(&k, &bad, &fake_ops, &f, &fake_workload, &f), -BLS_EINVAL);
}

TEST(kernel, boot_cpu_brings_up_the_gic_and_cpufreq_then_wakes_the_tasks_and_releases_the_others)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    c.boot_mhz[0] = 1000;
    c.boot_mhz[1] = 800;
    f.steps = {{run_step(10, 64)}, {}};
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    f.idle_calls_left = 100; // stop at the power-down: nothing will be runnable
    run_cpu(&k, f, 0);
    // Firmware's part first: both clusters join coherency (the status poll sees the change
    // pending twice for the first), then the distributor; each logical CPU's doorbell (SPI
    // 48 + l) routed to its CPU at priority 0xa0 and enabled; the power controller's
    // interrupt, level-sensitive, to cpu0; the boot frequencies (cluster 0 is at 1000 MHz
    // already; cluster 1 goes from 400 to 800: OPP 1 asked of the power controller, its
    // completion to come as an interrupt); the tasks woken (each traced: wakeup, task, cpu);
    // and SEV.
    std::vector<std::string> routing;
    for (unsigned l = 0; l < 3; l++) {
        const unsigned irq = 48 + l;
        char t[64], p[64], e[64];
        const unsigned shift = 8 * (irq % 4);
        std::snprintf(t, sizeof t, "W GICD_ITARGETSR%u=0x%x", irq / 4, (1u << l) << shift);
        std::snprintf(p, sizeof p, "W GICD_IPRIORITYR%u=0x%x", irq / 4, 0xa0u << shift);
        std::snprintf(e, sizeof e, "W GICD_ISENABLER1=0x%x", 1u << (irq % 32));
        routing.insert(routing.end(), {"R GICD_ITARGETSR" + std::to_string(irq / 4), t,
                                       "R GICD_IPRIORITYR" + std::to_string(irq / 4), p, e});
    }
    const auto tp = [](unsigned event) { return "trace cpu0 " + std::to_string(event); };
    const std::string wakeup = tp(BLS_TRACE_SCHED_WAKEUP);
    // The mode it boots in (the switcher off: SMP), then the tasks woken.
    const std::string mode_smp = tp(BLS_TRACE_MODE) + " " + std::to_string(BLS_MODE_SMP) + " 0";
    // Up to the first execution.
    auto first_run = std::find_if(f.calls.begin(), f.calls.end(),
                                  [](const std::string& x) { return x.rfind("execute", 0) == 0; });
    ASSERT_NE(first_run, f.calls.end());
    const std::vector<std::string> calls(f.calls.begin(), first_run + 1);
    EXPECT_EQ(only(calls, {"W", "R", "trace", "dsb", "sev", "execute", "timer"}),
              concat({{"W CCI_SNOOP_CONTROL_S3=0x3", "R CCI_STATUS", "R CCI_STATUS",
                       "R CCI_STATUS", "W CCI_SNOOP_CONTROL_S4=0x3", "R CCI_STATUS",
                       "W GICD_CTLR=0x1"},
                      routing,
                      {"R 0x1c1c", "W 0x1c1c=0x0", // GICD_ICFGR7: SPI 127 level
                       "R GICD_ITARGETSR31", "W GICD_ITARGETSR31=0x1000000",
                       "R GICD_IPRIORITYR31", "W GICD_IPRIORITYR31=0xa0000000",
                       "W GICD_ISENABLER3=0x80000000",
                       tp(BLS_TRACE_SPC_REQUEST) + " 1 1", "W SPC_PERF_LVL1=0x1", mode_smp,
                       wakeup + " 0 0", wakeup + " 1 0", "dsb cpu0", "sev cpu0"},
                      gic_cpu_init,
                      // The handler runs at boot and after interrupts only. Task 0 runs
                      // first (the lowest id among equals: a switch from idle, and its
                      // wake-up latency, 0 ns), with a timer for the end of its slice: two
                      // tasks of equal weight share 6 ms, 3 ms each.
                      {"R GICC_IAR", tp(BLS_TRACE_SCHED_SWITCH) + " 4294967295 0",
                       tp(BLS_TRACE_WAKEUP_LATENCY) + " 0 0",
                       "timer cpu0 3000000", "execute cpu0 ctx0 10 ws64"}}));
    EXPECT_EQ(k.booted, 1);
    EXPECT_EQ(k.cpufreq.stats.spc_requests, 1u);
    EXPECT_EQ(k.cpufreq.stats.clock_unchanged, 1u);
}

TEST(kernel, a_secondary_waits_for_the_boot_cpu)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    c.ntasks = 0;
    c.cpuidle.nstates[0] = 1; // WFI only: it idles there
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    f.kernel = &k;
    run_cpu(&k, f, 1);
    EXPECT_EQ(only(f.calls, {"wfe", "W", "R", "wfi", "timer"}),
              concat({{"wfe cpu1"}, gic_cpu_init, {"R GICC_IAR", "wfi cpu1"}}));
}

TEST(kernel, interrupts_are_acknowledged_and_ended_until_spurious)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    c.ntasks = 0;
    c.cpuidle.nstates[0] = 1;
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    f.iar = {30, 30, 5u | (2u << 10)}; // two timer interrupts, and SGI 5 from cpu2
    run_cpu(&k, f, 0);
    // The timer's (level) line is lowered by disarming it before its end of interrupt.
    EXPECT_EQ(only(f.calls, {"R GICC_IAR", "W GICC_EOIR", "wfi", "timer"}),
              (std::vector<std::string>{"R GICC_IAR", "timer cpu0 off", "W GICC_EOIR=0x1e", "R GICC_IAR",
                                        "timer cpu0 off", "W GICC_EOIR=0x1e", "R GICC_IAR",
                                        "W GICC_EOIR=0x805", "R GICC_IAR", "wfi cpu0"}));
    EXPECT_EQ(k.stats.timer_irqs, 2u);
}

TEST(kernel, a_task_runs_its_steps_then_sleeps_and_the_cpu_idles_until_its_deadline)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    c.ntasks = 1;
    // Asleep for 1.5 us: WFI's target residency fits, power-down's does not.
    f.steps = {{run_step(100, 64), run_step(50), sleep_step(1500), run_step(20)}};
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    // Its last idle periods were short (2 us): menu finds that pattern.
    std::fill(std::begin(k.cpuidle.dev[0].menu.intervals), std::end(k.cpuidle.dev[0].menu.intervals), 2u);
    run_cpu(&k, f, 0);
    // Alone on its CPU, the task runs without a timer (NOHZ); asleep, its deadline is the
    // timer's, and cpuidle picks WFI for 1.5 us.
    EXPECT_EQ(only(f.calls, {"execute", "wfi", "power_down", "timer"}),
              (std::vector<std::string>{"execute cpu0 ctx0 100 ws64", "execute cpu0 ctx0 50 ws0",
                                        "timer cpu0 1500", "wfi cpu0"}));
    EXPECT_EQ(k.sched.task[0].state, BLS_TASK_SLEEPING);
    EXPECT_DOUBLE_EQ(k.task_stats[0].done_ref_ns, 150);
    EXPECT_EQ(k.task_stats[0].steps, 3u);
    EXPECT_EQ(k.cpuidle.stats[0].entries[0], 1u);
}

TEST(kernel, a_sleep_in_io_counts_in_its_cpus_iowait_which_menu_sees)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    c.ntasks = 1;
    f.steps = {{run_step(100), sleep_step(1500, 1)}}; // a wait for block I/O
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    run_cpu(&k, f, 0);
    // Asleep in I/O on cpu0: counted there, and cpuidle's menu chose in the iowait half of
    // its buckets (1 us to the timer: the first decade, 6 + 0).
    EXPECT_EQ(k.sched.task[0].state, BLS_TASK_SLEEPING);
    EXPECT_EQ(bls_sched_nr_iowait(&k.sched, 0), 1u);
    EXPECT_EQ(k.cpuidle.dev[0].menu.bucket, 6u);
    EXPECT_TRUE(bls_sched_no_task_lost(&k.sched));
}

TEST(kernel, an_interrupted_step_goes_on_where_it_stopped)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    c.ntasks = 1;
    f.steps = {{run_step(100, 64)}};
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    f.interrupt_after = 40; // 40 ref ns in
    run_cpu(&k, f, 0);
    EXPECT_EQ(only(f.calls, {"execute"}),
              (std::vector<std::string>{"execute cpu0 ctx0 100 ws64", "execute cpu0 ctx0 60 ws64"}));
    EXPECT_DOUBLE_EQ(k.task_stats[0].done_ref_ns, 100);
}

TEST(kernel, a_workload_that_never_runs_nor_waits_is_a_guest_error_and_its_task_ends)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    c.ntasks = 1;
    bls_step sig{};
    sig.kind = BLS_STEP_SIGNAL;
    sig.event = 3;
    f.steps = {std::deque<bls_step>(2000, sig)};
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    c.cpuidle.nstates[0] = 1;
    run_cpu(&k, f, 0);
    EXPECT_EQ(k.stats.workload_errors, 1u);
    EXPECT_EQ(k.sched.task[0].state, BLS_TASK_EXITED);
    EXPECT_EQ(k.task_stats[0].steps, 1000u);
    const std::string guest_error = "trace cpu0 " + std::to_string(BLS_TRACE_GUEST_ERROR);
    EXPECT_EQ(only(f.calls, {guest_error}), (std::vector<std::string>{guest_error + " 2 0"}));
}

// The power-management verbs, without the shared-memory traffic of MCPM and its vlocks.
const std::vector<std::string> pm = {"W GICC_CTLR", "clean", "W CCI", "R CCI", "power_down",
                                     "W SPC", "R SPC"};

TEST(kernel, a_cpu_that_is_not_the_last_of_its_cluster_cleans_only_its_l1)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    k.booted = 1;
    run_cpu(&k, f, 1); // no task on cpu1, no deadline: power-down; cpu0 is still up
    // Its wake-up armed in the power controller (bit 1: cluster 0, core 1), its GIC
    // interface off, its L1 cleaned, down.
    EXPECT_EQ(only(f.calls, pm), (std::vector<std::string>{"W GICC_CTLR=0x1", "R SPC_WAKE_INT_MASK",
                                                           "W SPC_WAKE_INT_MASK=0x2", "W GICC_CTLR=0x0",
                                                           "clean L1 cpu1", "power_down cpu1"}));
    EXPECT_EQ(k.mcpm.use_count[0][1], 0u);
    EXPECT_EQ(k.mcpm.stats.last_man, 0u);
}

TEST(kernel, the_last_man_leaves_coherency_and_the_first_man_comes_back)
{
    bls_kernel k;
    fake_platform f;
    bls_kernel_config c = two_tasks_on_cpu0();
    ASSERT_EQ(bls_kernel_init(&k, &c, &fake_ops, &f, &fake_workload, &f), 0);
    k.booted = 1;
    f.idle_calls_left = 2; // power down, be woken (an interrupt), power down again
    run_cpu(&k, f, 2);     // cpu2 is alone in cluster 1
    // tc2_pm.c's order: its wake-up armed (bit 4: cluster 1, core 0) and its GIC interface
    // off; the cluster's power-down enabled and the global wake-ups (bits 10-11) armed; L1
    // and L2 cleaned; out of coherency (the busy-poll sees change_pending twice, then clear).
    const std::vector<std::string> down = {
        "R SPC_WAKE_INT_MASK", "W SPC_WAKE_INT_MASK=0x10", "W GICC_CTLR=0x0", "W SPC_PWRDN_EN1=0x1",
        "R SPC_WAKE_INT_MASK", "W SPC_WAKE_INT_MASK=0xc10", "clean L1 cpu2", "clean L2 cpu2",
        "W CCI_SNOOP_CONTROL_S4=0x0", "R CCI_STATUS", "R CCI_STATUS", "R CCI_STATUS",
        "power_down cpu2"};
    // Woken, cpu2 wins the first-man vlock, brings S4 back, and once running counts itself
    // and the cluster up again: power-down and global wake-ups off (cluster_is_up), its own
    // wake-up and resume address cleared (cpu_is_up); then its GIC interface is on again.
    const std::vector<std::string> up = {"W CCI_SNOOP_CONTROL_S4=0x3", "R CCI_STATUS",
                                         "W SPC_PWRDN_EN1=0x0", "R SPC_WAKE_INT_MASK",
                                         "W SPC_WAKE_INT_MASK=0x10", "R SPC_WAKE_INT_MASK",
                                         "W SPC_WAKE_INT_MASK=0x0", "W SPC_BX_ADDR1_0=0x0",
                                         "W GICC_CTLR=0x1"};
    EXPECT_EQ(only(f.calls, pm),
              concat({{"W GICC_CTLR=0x1"}, down, up,
                      {"R SPC_WAKE_INT_MASK", "W SPC_WAKE_INT_MASK=0x10", "W GICC_CTLR=0x0",
                       "W SPC_PWRDN_EN1=0x1", "R SPC_WAKE_INT_MASK", "W SPC_WAKE_INT_MASK=0xc10",
                       "clean L1 cpu2", "clean L2 cpu2", "W CCI_SNOOP_CONTROL_S4=0x0", "R CCI_STATUS",
                       "power_down cpu2"}}));
    EXPECT_EQ(k.mcpm.stats.last_man, 2u);
    EXPECT_EQ(k.mcpm.stats.first_man, 1u);
    EXPECT_EQ(f.shm[0x80000 + BLS_MCPM_CLUSTER_STATE(1)], BLS_CLUSTER_DOWN);
    EXPECT_EQ(f.shm[0x80000 + BLS_MCPM_CPU_STATE(1, 0)], BLS_CPU_DOWN);
    // Interrupts masked on the way into idle and back, as Linux's idle loop has them: a
    // pending one still wakes the power controller, but not MCPM's WFE loops (its lock, a
    // CPU GOING_DOWN), which sleep until an SEV.
    EXPECT_EQ(only(f.calls, {"mask", "unmask", "power_down", "W GICC_CTLR"}),
              (std::vector<std::string>{"W GICC_CTLR=0x1", "mask cpu2", "W GICC_CTLR=0x0", "power_down cpu2",
                                        "W GICC_CTLR=0x1", "unmask cpu2", "mask cpu2", "W GICC_CTLR=0x0",
                                        "power_down cpu2"}));
}

} // namespace
