// bench/systemc_limit.cpp -- this machine's limit for blsim's kind of simulation.
//
// A few SC_THREADs, each doing wait(period) in a loop: one timed notification and one
// context switch per event, the pattern of blsim's cores (model/src/core.cpp), and nothing
// else. Processes N timed events in total and prints, as JSON on stdout, the wall time of
// sc_start and the events per second. scripts/bench runs it with blsim's own event count.
//
// usage: systemc_limit [--events N] [--threads T]
#include <systemc>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct waiter : sc_core::sc_module {
    waiter(sc_core::sc_module_name name, sc_core::sc_time period, std::uint64_t n)
        : sc_core::sc_module(name), period_(period), n_(n)
    {
        SC_HAS_PROCESS(waiter);
        SC_THREAD(run);
    }

    void run()
    {
        for (std::uint64_t i = 0; i < n_; i++) {
            wait(period_);
            done++;
        }
    }

    sc_core::sc_time period_;
    std::uint64_t n_;
    std::uint64_t done = 0;
};

int usage(const char* why)
{
    std::fprintf(stderr, "systemc_limit: %s\nusage: systemc_limit [--events N] [--threads T]\n", why);
    return 2;
}

bool parse_u64(const char* s, std::uint64_t& out)
{
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (!*s || *end || s[0] == '-')
        return false;
    out = v;
    return true;
}

} // namespace

int main(int argc, char* argv[])
{
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
    std::uint64_t events = 10000000, threads = 5;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if ((a == "--events" || a == "--threads") && i + 1 < argc) {
            if (!parse_u64(argv[++i], a == "--events" ? events : threads))
                return usage(("bad number for " + a).c_str());
        } else if (a == "-h" || a == "--help") {
            std::printf("usage: systemc_limit [--events N] [--threads T]\n");
            return 0;
        } else {
            return usage(("unknown argument '" + a + "'").c_str());
        }
    }
    if (threads < 1 || threads > 10000)
        return usage("--threads must be 1..10000");

    // blsim's resolution (soc/platform/src/platform.cpp). Periods differ between threads (1 ns plus a
    // few ps each) so that, like blsim's cores, their wake-ups fall mostly at distinct times.
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    std::vector<waiter*> procs;
    for (std::uint64_t t = 0; t < threads; t++) {
        const std::uint64_t n = events / threads + (t < events % threads ? 1 : 0);
        const std::string name = "w" + std::to_string(t);
        procs.push_back(new waiter(name.c_str(), sc_core::sc_time(1000.0 + 7.0 * static_cast<double>(t), sc_core::SC_PS), n));
    }

    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const auto t1 = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(t1 - t0).count();

    std::uint64_t done = 0;
    for (const waiter* w : procs)
        done += w->done;
    if (done != events) {
        std::fprintf(stderr, "systemc_limit: processed %" PRIu64 " events, expected %" PRIu64 "\n", done, events);
        return 1;
    }
    std::printf("{\"events\": %" PRIu64 ", \"threads\": %" PRIu64 ", \"wall_s\": %.6f, \"events_per_s\": %.0f, "
                "\"sim_time_s\": %.9g}\n",
                events, threads, wall, wall > 0 ? static_cast<double>(events) / wall : 0.0,
                sc_core::sc_time_stamp().to_seconds());
    return 0;
}
