// soc/cli/test_hooks.cpp -- the test build's hooks (soc/cli/test_hooks.h): linked into
// blsim-test only, never into the release blsim.
#define SC_INCLUDE_DYNAMIC_PROCESSES // the injected bugs run as spawned methods
#include "test_hooks.h"

#include <systemc>

#include <bls/mutant.h>

#include "blsim/model/cluster.h"
#include "blsim/model/energy.h"
#include "blsim/model/invariant.h"
#include "blsim/model/power_controller.h"

namespace blsim::soc {

constexpr injected_bug all_injected_bugs[] = {injected_bug::meter_time_reversal, injected_bug::mcpm_state_corruption,
                                              injected_bug::task_lost, injected_bug::dirty_line_lost};

const char* to_string(injected_bug b)
{
    switch (b) {
    case injected_bug::none: return "none";
    case injected_bug::meter_time_reversal: return "meter-time-reversal";
    case injected_bug::mcpm_state_corruption: return "mcpm-state-corruption";
    case injected_bug::task_lost: return "task-lost";
    case injected_bug::dirty_line_lost: return "dirty-line-lost";
    }
    return "?";
}

injected_bug injected_bug_named(const std::string& name)
{
    for (injected_bug b : all_injected_bugs)
        if (name == to_string(b))
            return b;
    return injected_bug::none;
}

std::string injected_bug_names()
{
    std::string names;
    for (injected_bug b : all_injected_bugs)
        names += (names.empty() ? "" : ", ") + std::string(to_string(b));
    return names;
}

namespace {

// enum bls_mutant's names, in its order (index = value).
constexpr const char* mutant_names_table[] = {
    "none", "gic-forgets-pending-sgis", "vlock-without-voting", "last-man-ignores-inbound",
    "gate-opened-before-save",
};
static_assert(sizeof mutant_names_table / sizeof mutant_names_table[0] == BLS_MUTANT_COUNT,
              "a name for every bls_mutant");

} // namespace

unsigned mutant_named(const std::string& name)
{
    for (unsigned m = 1; m < BLS_MUTANT_COUNT; m++)
        if (name == mutant_names_table[m])
            return m;
    return 0;
}

const char* mutant_name(unsigned mutant) { return mutant < BLS_MUTANT_COUNT ? mutant_names_table[mutant] : "?"; }

std::string mutant_names()
{
    std::string s;
    for (unsigned m = 1; m < BLS_MUTANT_COUNT; m++)
        s += (m > 1 ? ", " : "") + std::string(mutant_names_table[m]);
    return s;
}

bool take_test_hook(const std::vector<std::string>& args, std::size_t& i, test_hooks& hooks, std::string& error)
{
    const std::string& a = args[i];
    const bool mutant = a == "--mutant" || a.rfind("--mutant=", 0) == 0;
    const bool bug = a == "--inject-bug" || a.rfind("--inject-bug=", 0) == 0;
    if (!mutant && !bug)
        return false;
    const std::string name = mutant ? "--mutant" : "--inject-bug";
    std::string v;
    if (a == name) {
        if (i + 1 < args.size())
            v = args[++i];
    } else {
        v = a.substr(name.size() + 1);
    }
    if (mutant) {
        hooks.mutant = mutant_named(v);
        if (!hooks.mutant)
            error = "--mutant needs one of: " + mutant_names();
    } else {
        hooks.bug = injected_bug_named(v);
        if (hooks.bug == injected_bug::none)
            error = "--inject-bug needs one of: " + injected_bug_names();
    }
    return true;
}

void inject_bug(platform& plat, injected_bug bug)
{
    platform& p = plat;
    if (bug == injected_bug::none)
        return;
    if (bug == injected_bug::dirty_line_lost) {
        // Cache maintenance gone wrong: once the run is halfway, the first cluster to start
        // its power-down (its last man has cleaned its caches and left coherency) has a
        // core's L1 and the L2 filled and written behind the clean. Its power going, the
        // platform finds the dirty lines (invariant no-dirty-line-lost).
        const std::uint64_t halfway_ps = static_cast<std::uint64_t>(p.cfg_.duration_s / 2 * 1e12);
        p.pc_->cluster_changed.subscribe([&p, halfway_ps, armed = true](unsigned cl, model::cluster_power,
                                                                        model::cluster_power s) mutable {
            if (!armed || s != model::cluster_power::powering_down || model::now_ps() < halfway_ps)
                return;
            armed = false;
            model::cluster& c = *p.clusters_[cl];
            c.warm(0, 0, 4, sc_core::SC_ZERO_TIME); // 4 KiB of context 0, into core 0's L1
            c.written(0, 0, 1.0);
        });
        return;
    }
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&p.inject_event_);
    opts.dont_initialize();
    sc_core::sc_spawn(
        [&p, bug] {
            if (bug == injected_bug::meter_time_reversal) {
                // What the trace verb once did: integrate up to one core's local time, ahead
                // of the kernel's, and then hear of a change at the kernel's time.
                p.meter_->advance_all(model::now_ps() + 1000000);
                p.meter_->voltage(model::now_ps(), 0, p.clusters_[0]->voltage().voltage_mv());
            } else if (bug == injected_bug::mcpm_state_corruption) {
                // Its next power-down then asks for an illegal transition, DOWN -> GOING_DOWN.
                p.kernel_.mcpm.cpu_state[p.pc_->cluster_of(0)][0] = BLS_CPU_DOWN;
            } else if (bug == injected_bug::task_lost) {
                // A migration gone wrong: the first sleeping task moved (its CPU and the
                // CPU's task set) to a CPU nobody runs, whose timer will never wake it. The
                // next scheduling point finds it.
                bls_sched& s = p.kernel_.sched;
                unsigned offline = 0;
                while (offline < s.cfg.ncpus && (s.online >> offline & 1u))
                    offline++;
                for (unsigned i = 0; i < s.ntasks && offline < s.cfg.ncpus; i++)
                    if (s.task[i].state == BLS_TASK_SLEEPING) {
                        const std::uint64_t bit = std::uint64_t{1} << (i % 64);
                        s.on_cpu[s.task[i].cpu][i / 64] &= ~bit;
                        s.on_cpu[offline][i / 64] |= bit;
                        s.task[i].cpu = offline;
                        break;
                    }
            }
        },
        "injected_bug", &opts);
    p.inject_event_.notify(sc_core::sc_time(p.cfg_.duration_s / 2, sc_core::SC_SEC));
}

} // namespace blsim::soc
