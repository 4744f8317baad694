// tests/fuzz/fuzz_run.cpp -- a libFuzzer target that loads AND runs a scenario, so that inputs
// the loader accepts but the simulation then fails on are found (docs/howto.md, "Fuzz").
//
// The input format is fuzz_config.cpp's (fuzz_input.h): a scenario document named as if it sat
// in the source tree's configs/scenarios/ (so that its SoC and rt-app files are found), optionally followed by "#--set" and one override per line. A refused
// input is fine (fuzz_config checks how it is refused). An accepted one is run for a short
// time: its duration_s is clamped to [0.05, 0.2] s after validation (mode changes and switcher
// activity dated later simply do not happen). Task counts are not capped: the short duration
// bounds the cost, and the size of a task set is itself an input that may break a run.
//
// SystemC allows one elaboration per process, so each accepted input runs in a child process
// (fork). What must hold, or the fuzzer has found a bug: the child runs to the end with no
// internal error (an invariant, a SystemC error), no crash and within a wall-clock bound; the
// energy is finite and positive; every core's and every cluster's residencies sum to the
// duration. The parent aborts on any of these, which is what libFuzzer and the replay see.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "blsim/model/power_state.h"
#include "blsim/soc/platform.h"
#include "blsim/soc/scenario.h"
#include "fuzz_input.h"

namespace {

constexpr double min_duration_s = 0.05;
constexpr double max_duration_s = 0.2;
constexpr unsigned wall_bound_s = 120; // a run of 0.2 s simulated takes well under a second

[[noreturn]] void found(const std::string& what)
{
    std::fprintf(stderr, "fuzz_run: %s\n", what.c_str());
    std::abort();
}

// In the child: run @cfg and check the results; the exit status says what went wrong.
[[noreturn]] void run_child(const blsim::soc::scenario_config& cfg)
{
    ::alarm(wall_bound_s);
    try {
        blsim::soc::platform plat(cfg);
        plat.run();
        const auto& m = plat.meter();
        const double e = m.total_energy_j();
        if (!std::isfinite(e) || e <= 0) {
            std::fprintf(stderr, "fuzz_run: energy %g J\n", e);
            std::_Exit(4);
        }
        const double d = cfg.duration_s;
        auto near = [d](double s) { return std::fabs(s - d) <= 1e-9 * d + 1e-12; };
        using blsim::model::cluster_power;
        using blsim::model::core_power;
        for (unsigned cpu = 0; cpu < plat.power().ncpus(); cpu++) {
            const double s = m.core_residency_s(cpu, core_power::on) + m.core_residency_s(cpu, core_power::wfi) +
                             m.core_residency_s(cpu, core_power::off);
            if (!near(s)) {
                std::fprintf(stderr, "fuzz_run: cpu%u's residencies sum to %.12f s of %.12f s\n", cpu, s, d);
                std::_Exit(5);
            }
        }
        for (unsigned c = 0; c < plat.nclusters(); c++) {
            double s = 0;
            for (cluster_power p : {cluster_power::on, cluster_power::off, cluster_power::powering_up,
                                    cluster_power::powering_down})
                s += m.cluster_residency_s(c, p);
            if (!near(s)) {
                std::fprintf(stderr, "fuzz_run: cluster %u's residencies sum to %.12f s of %.12f s\n", c, s, d);
                std::_Exit(5);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_run: internal error: %s\n", e.what());
        std::_Exit(3);
    }
    std::fflush(stderr);
    std::_Exit(0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const blsim_fuzz::input in = blsim_fuzz::split_input(data, size);
    blsim::cfg::diagnostics diag;
    blsim::soc::scenario_config cfg;
    if (!blsim::soc::load_scenario_text(in.scenario, BLSIM_SOURCE_DIR "/configs/scenarios/fuzz.yaml", in.overrides, cfg, diag)) {
        if (std::getenv("FUZZ_RUN_VERBOSE"))
            std::fprintf(stderr, "fuzz_run: refused: %s\n", diag.first_text().c_str());
        return 0;
    }
    cfg.duration_s = std::fmin(std::fmax(cfg.duration_s, min_duration_s), max_duration_s);
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0)
        found("fork failed");
    if (pid == 0)
        run_child(cfg);
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid)
        found("waitpid failed");
    if (WIFSIGNALED(status))
        found(WTERMSIG(status) == SIGALRM ? "an accepted input's run hangs"
                                          : "an accepted input's run dies of signal " + std::to_string(WTERMSIG(status)));
    if (WEXITSTATUS(status) != 0)
        found("an accepted input's run fails (exit status " + std::to_string(WEXITSTATUS(status)) + ")");
    return 0;
}
