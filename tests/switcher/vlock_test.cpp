// tests/switcher/vlock_test.cpp -- the vlock voting algorithm under many interleavings.
//
// 2 to 8 voters (SystemC threads standing for the CPUs of a cluster coming out of reset) run
// bls_vlock_trylock() on one lock concurrently. Every shared-memory access takes a random
// time drawn from a seeded generator and happens at a random point of it, so each round is a
// different interleaving of the voters' loads and stores; WFE and SEV are modelled exactly
// (an event register per CPU). Exactly one voter must win each contended round, and a voter
// that arrives after the lock is taken must lose. Beyond 4 voters the voting flags take two
// words, and the lock must wait for both.
//
// One SystemC elaboration per process: this executable holds a single TEST.
#include <gtest/gtest.h>

#include <stdexcept>

#include <array>
#include <cstdlib>
#include <random>
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include <bls/vlock.h>

namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

constexpr unsigned max_voters = BLS_VLOCK_MAX_VOTERS; // 8: a cluster's CPUs at most
constexpr uint64_t lock_addr = 0x40;

struct world {
    std::array<uint8_t, 256> mem{};
    std::array<bool, max_voters> event_reg{};
    std::array<sc_core::sc_event, max_voters> event;
    std::mt19937_64 rng{12345};
    unsigned accesses = 0;

    // Fixed timing instead (the adversarial round): each voter's accesses take its latency.
    bool fixed = false;
    std::array<sc_time, max_voters> latency{};

    sc_time random_ns(unsigned max_ns) { return sc_time(static_cast<double>(rng() % (max_ns + 1)), SC_NS); }
};

world& w_of(void* p) { return *static_cast<world*>(p); }

// An access takes 1..9 ns, and happens at a random point inside that time (with fixed timing:
// the voter's latency, at its end).
void timed_access(world& w, unsigned cpu)
{
    if (w.fixed) {
        sc_core::wait(w.latency.at(cpu));
        w.accesses++;
        return;
    }
    sc_time before = w.random_ns(8) + sc_time(1, SC_NS);
    sc_time after = w.random_ns(4);
    sc_core::wait(before);
    w.accesses++;
    (void)after;
}

uint32_t shm_read(void* p, unsigned cpu, uint64_t addr, unsigned bytes)
{
    world& w = w_of(p);
    timed_access(w, cpu);
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= static_cast<uint32_t>(w.mem.at(addr + i)) << (8 * i);
    if (!w.fixed)
        sc_core::wait(w.random_ns(4));
    return v;
}

void shm_write(void* p, unsigned cpu, uint64_t addr, unsigned bytes, uint32_t v)
{
    world& w = w_of(p);
    timed_access(w, cpu);
    for (unsigned i = 0; i < bytes; i++)
        w.mem.at(addr + i) = static_cast<uint8_t>(v >> (8 * i));
    if (!w.fixed)
        sc_core::wait(w.random_ns(4));
}

void wfe(void* p, unsigned cpu)
{
    world& w = w_of(p);
    if (!w.event_reg[cpu])
        sc_core::wait(w.event[cpu]);
    w.event_reg[cpu] = false;
}

void sev(void* p, unsigned)
{
    world& w = w_of(p);
    for (unsigned c = 0; c < max_voters; c++) {
        w.event_reg[c] = true;
        w.event[c].notify(sc_core::SC_ZERO_TIME);
    }
}

void dsb(void*, unsigned) {}

[[noreturn]] void unused() { std::abort(); }
uint64_t now_ns(void*, unsigned) { return sc_core::sc_time_stamp().value() / 1000; }

const bls_platform_ops ops = {
    .now_ns = now_ns,
    .cpu_execute = [](void*, unsigned, const bls_work*, double*) -> int { unused(); },
    .cpu_wait_for_interrupt = [](void*, unsigned) { unused(); },
    .cpu_wait_for_event = wfe,
    .cpu_dsb = dsb,
    .cpu_send_event = sev,
    .cpu_power_down = [](void*, unsigned) { unused(); },
    .mmio_read32 = [](void*, unsigned, uint64_t) -> uint32_t { unused(); },
    .mmio_write32 = [](void*, unsigned, uint64_t, uint32_t) { unused(); },
    .mmio_poll32 = [](void*, unsigned, uint64_t, uint32_t, uint64_t) -> uint32_t { unused(); },
    .shm_read = shm_read,
    .shm_write = shm_write,
    .cache_clean_invalidate = [](void*, unsigned, enum bls_cache_level) { unused(); },
    .cpu_irq_mask = [](void*, unsigned, int) { unused(); },
    .mem_read_uncached = [](void*, unsigned, unsigned) { unused(); },
    .cpu_delay_cycles = [](void*, unsigned, uint64_t) { unused(); },
    .timer_set = [](void*, unsigned, uint64_t) { unused(); },
    .timer_get = [](void*, unsigned) -> uint64_t { unused(); },
    .bug = [](void*, unsigned, const char*, int, const char* check) {
        throw std::logic_error(std::string("check failed: ") + check);
    },
    .trace = [](void*, unsigned, unsigned, unsigned, unsigned) { unused(); },
};

struct tally {
    unsigned rounds = 0, bad_rounds = 0, late_losses = 0, late_rounds = 0;
    std::array<unsigned, max_voters> wins{};
};

struct arena : sc_core::sc_module {
    world& w;
    bls_hw hw{};
    tally results[max_voters + 1];
    unsigned nvoters = 0;
    int outcome[max_voters] = {};
    sc_core::sc_event start[max_voters];
    sc_core::sc_event finished;
    unsigned done = 0;
    int slow_won = -1, quick_won = -1; // the adversarial round's outcome

    explicit arena(sc_core::sc_module_name n, world& wd) : sc_module(n), w(wd)
    {
        hw.ops = &ops;
        hw.plat = &w;
        SC_HAS_PROCESS(arena);
        SC_THREAD(referee);
        for (unsigned v = 0; v < max_voters; v++)
            sc_core::sc_spawn([this, v] { voter(v); });
    }

    void voter(unsigned v)
    {
        for (;;) {
            wait(start[v]);
            outcome[v] = bls_vlock_trylock(&hw, v, lock_addr, v);
            if (++done == nvoters)
                finished.notify(sc_core::SC_ZERO_TIME);
        }
    }

    void referee()
    {
        for (unsigned n = 2; n <= max_voters; n++) {
            nvoters = n;
            hw.ncpus = n; // one cluster of n CPUs (cpu_cluster[] is all 0)
            for (unsigned round = 0; round < 3000; round++) {
                w.mem.fill(0);
                w.event_reg.fill(false);
                done = 0;
                // Voters start within 30 ns of each other: their accesses overlap.
                for (unsigned v = 0; v < n; v++)
                    start[v].notify(w.random_ns(30));
                wait(finished);
                unsigned winners = 0;
                for (unsigned v = 0; v < n; v++)
                    if (outcome[v] == 0) {
                        winners++;
                        results[n].wins[v]++;
                    }
                results[n].rounds++;
                if (winners != 1)
                    results[n].bad_rounds++;
                // The lock stays taken: one more contender must lose at once.
                done = 0;
                nvoters = 1;
                const unsigned late = (round % n + 1) % n;
                if (outcome[late] != 0) { // a loser tries again, after the fact
                    start[late].notify(sc_core::SC_ZERO_TIME);
                    wait(finished);
                    results[n].late_rounds++;
                    if (outcome[late] != 0)
                        results[n].late_losses++;
                }
                nvoters = n;
            }
        }
        adversarial_round();
    }

    // Voter 5 of 8 (its flag in the second word) is slow, 100 ns an access; voter 0 takes 5 ns
    // and arrives at 220 ns, when voter 5 has found the owner byte free (at 200 ns) but not yet
    // written it (300 ns). Voter 0 takes the lock by 235 ns and must then wait for voter 5's
    // flag, in the second word, to fall (400 ns): the owner byte is then voter 5's, who wins.
    // A lock that looked at the first word only would let both win.
    void adversarial_round()
    {
        w.fixed = true;
        w.latency.fill(sc_time(5, SC_NS));
        w.latency[5] = sc_time(100, SC_NS);
        w.mem.fill(0);
        w.event_reg.fill(false);
        hw.ncpus = 8;
        nvoters = 2;
        done = 0;
        start[5].notify(sc_core::SC_ZERO_TIME);
        start[0].notify(sc_time(220, SC_NS));
        wait(finished);
        slow_won = outcome[5] == 0;
        quick_won = outcome[0] == 0;
    }
};

TEST(vlock, exactly_one_winner_under_random_interleavings)
{
    world w;
    arena a("arena", w);
    sc_core::sc_start();

    for (unsigned n = 2; n <= max_voters; n++) {
        const tally& t = a.results[n];
        EXPECT_EQ(t.rounds, 3000u) << n << " voters";
        EXPECT_EQ(t.bad_rounds, 0u) << n << " voters";
        EXPECT_EQ(t.late_losses, t.late_rounds) << n << " voters";
        EXPECT_GT(t.late_rounds, 0u);
        // Not fair, but every voter wins sometimes: the interleavings really vary.
        for (unsigned v = 0; v < n; v++)
            EXPECT_GT(t.wins[v], 0u) << n << " voters, voter " << v;
    }
    EXPECT_GT(w.accesses, 21000u * 6);
    EXPECT_EQ(a.slow_won, 1);
    EXPECT_EQ(a.quick_won, 0);
}

} // namespace
