// soc/config/src/schema_kernel.cpp -- the kernel's schema (the governors, the scheduler, cpuidle,
// the switcher, modes, HMP), jitter and faults, and the scenario's own, built once
// (docs/config.md).
#include "scenario_internal.h"

#include <bls/cpufreq.h>
#include <bls/cpuidle.h>
#include <bls/governor.h>
#include <bls/kernel.h>
#include <bls/types.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "blsim/model/power_formulas.h"
#include "blsim/soc/rtapp_config.h"
#include "blsim/soc/schema.h"

namespace blsim::soc {

using cfg::bind_context;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;
using cfg::schema;

namespace detail {

// A subsystem's keys from its table's rows (bls/tunable.h), in the table's order.
#define BLSIM_TUNABLE_KEY(kind, field, c_type, def, key, min, max, unit, scale, since, doc)                  \
    BLSIM_TUNABLE_KEY_##kind(key, min, max, unit, doc) BLSIM_TUNABLE_SINCE_##since
#define BLSIM_TUNABLE_KEY_INT(key, min, max, unit, doc) .integer(#key, &p::key, min, max, unit, doc)
#define BLSIM_TUNABLE_KEY_BOOL(key, min, max, unit, doc) .boolean(#key, &p::key, doc)
#define BLSIM_TUNABLE_SINCE_ALL
#define BLSIM_TUNABLE_SINCE_G2013 .emitted_if(not_2012)

schema<interactive_config> interactive_schema()
{
    using p = interactive_config;
    // The keys the 2012 generation does not have are not written for it.
    auto not_2012 = [](const p& c) { return c.variant != "2012"; };
    schema<p> s;
    s.choice("variant", &p::variant, {{"2012", std::string("2012")}, {"2013", std::string("2013")}},
             "The governor's generation (docs/os.md). 2013: late-2012/2013 AOSP, frequency-weighted "
             "load and target_loads. 2012: mid-2012 AOSP android-3.0/3.4, the first big.LITTLE "
             "measurements' (load = the busier of two windows, unweighted; speed = max x load / 100; "
             "go_hispeed_load_pct 85 by default; no target_loads, timer_slack_us, "
             "boostpulse_duration_us or io_is_busy, which are refused with it).")
        BLS_INTERACTIVE_TUNABLES_HISPEED(BLSIM_TUNABLE_KEY)
        .text("target_loads", &p::target_loads,
              "2013: target load per speed, as sysfs takes it: 'L0 F1:L1 F2:L2 ...' (L in %, F in "
              "MHz ascending): L0 below F1, L1 from F1, ...")
        .emitted_if(not_2012)
        BLS_INTERACTIVE_TUNABLES_TIMING(BLSIM_TUNABLE_KEY);
    return s;
}

schema<ondemand_config> ondemand_schema()
{
    using p = ondemand_config;
    schema<p> s;
    s BLS_ONDEMAND_TUNABLES(BLSIM_TUNABLE_KEY);
    return s;
}

schema<conservative_config> conservative_schema()
{
    using p = conservative_config;
    schema<p> s;
    s BLS_CONSERVATIVE_TUNABLES(BLSIM_TUNABLE_KEY);
    return s;
}

schema<schedutil_config> schedutil_schema()
{
    using p = schedutil_config;
    schema<p> s;
    s BLS_SCHEDUTIL_TUNABLES(BLSIM_TUNABLE_KEY);
    return s;
}

schema<freq_request> freq_request_schema()
{
    schema<freq_request> s;
    s.real("at_ms", &freq_request::at_ms, 0, 1e9, "ms", "When.", true)
        .integer("cpu", &freq_request::cpu, 0, BLS_MAX_CPUS - 1, "", "Logical CPU.", true)
        .integer("freq_mhz", &freq_request::freq_mhz, 1, 10000, "MHz",
                 "Frequency written: virtual (the merged table) with the switcher on, an OPP "
                 "of the CPU's cluster without.",
                 true);
    return s;
}

schema<tunable_write> tunable_write_schema()
{
    schema<tunable_write> s;
    s.real("at_ms", &tunable_write::at_ms, 0, 1e9, "ms", "When.", true)
        .text("tunable", &tunable_write::tunable,
              "A key of governor.<name> (e.g. go_hispeed_load_pct), or boostpulse.", true)
        .text("value", &tunable_write::value, "The value, as that key takes it (boostpulse: 1).", true);
    return s;
}

schema<governor_config> governor_schema()
{
    schema<governor_config> s;
    s.choice("name", &governor_config::name,
             {{"performance", std::string("performance")}, {"powersave", std::string("powersave")},
              {"userspace", std::string("userspace")}, {"interactive", std::string("interactive")},
              {"ondemand", std::string("ondemand")}, {"conservative", std::string("conservative")},
              {"schedutil", std::string("schedutil")}},
             "cpufreq governor, one instance per policy (a logical CPU with the switcher on, a "
             "cluster without).")
        .named_integers("freq_mhz", &governor_config::freq_mhz, 1, 10000, "MHz",
                        "Boot frequency per cluster name, set before the governor starts (the "
                        "userspace governor keeps it); clusters not named stay at their boot OPP.")
        .object("interactive", &governor_config::interactive, interactive_schema(),
                "Tunables of interactive (Android's governor).")
        .object("ondemand", &governor_config::ondemand, ondemand_schema(), "Tunables of ondemand.")
        .object("conservative", &governor_config::conservative, conservative_schema(),
                "Tunables of conservative.")
        .object("schedutil", &governor_config::schedutil, schedutil_schema(), "Tunables of schedutil.")
        .list("setspeed", &governor_config::setspeed, freq_request_schema(), 0, 100000,
              "userspace: scaling_setspeed writes over the run (each may switch a logical CPU).")
        .list("writes", &governor_config::writes, tunable_write_schema(), 0, 100000,
              "Writes to the governor's tunables over the run (sysfs), in time order.");
    return s;
}

schema<sched_config> sched_schema()
{
    using p = sched_config;
    schema<p> s;
    s.integer("latency_us", &p::latency_us, 100, 1000000, "us",
              "sched_latency: the period in which every runnable task runs once.")
        .integer("min_granularity_us", &p::min_granularity_us, 10, 1000000, "us",
                 "Shortest slice; the period stretches when more tasks wait than fit.")
        .integer("wakeup_granularity_us", &p::wakeup_granularity_us, 0, 1000000, "us",
                 "How much more entitled a woken task must be to preempt.")
        .boolean("scale_with_cpus", &p::scale_with_cpus,
                 "Scale the three times above by 1 + log2(online CPUs, at most 8), as Linux does.")
        .integer("balance_interval_us", &p::balance_interval_us, 100, 10000000, "us",
                 "Period of balancing on a CPU with tasks waiting.")
        .integer("rt_period_us", &p::rt_period_us, 1, 2000000000, "us",
                 "sched_rt_period_us: the period of the real-time tasks' bandwidth on each CPU.")
        .integer("rt_runtime_us", &p::rt_runtime_us, -1, 2000000000, "us",
                 "sched_rt_runtime_us: what real-time tasks may run of each period on a CPU before "
                 "they are throttled until it ends (-1: no limit).")
        .integer("rr_timeslice_ms", &p::rr_timeslice_ms, 1, 100000, "ms",
                 "sched_rr_timeslice_ms: SCHED_RR's quantum among tasks of one priority.")
        .boolean("freq_invariant", &p::freq_invariant,
                 "Load tracking scales running time by the frequency's share of the cluster's maximum.")
        .boolean("cpu_invariant", &p::cpu_invariant,
                 "Load tracking scales running time by the cluster's capacity's share of the fastest's.");
    return s;
}

schema<menu_config> menu_schema()
{
    schema<menu_config> s;
    s.choice("version", &menu_config::version, {{"3.10", std::string("3.10")}, {"3.13", std::string("3.13")}},
             "3.10: menu as Android's 3.10 kernels shipped it. 3.13: with that release's changes (the "
             "performance multiplier caps the latency, the exit latency of the state entered, no "
             "correction factor above unity, the repeating pattern only below the next timer).");
    return s;
}

schema<cpuidle_config> cpuidle_schema()
{
    schema<cpuidle_config> s;
    s.boolean("enabled", &cpuidle_config::enabled,
              "Use the SoC's idle states; false: WFI only (a CPU with nothing to run is never powered down).")
        .integer("latency_limit_us", &cpuidle_config::latency_limit_us, -1, 100000000, "us",
                 "PM QoS limit: no idle state with a longer exit latency. -1: none.")
        .choice("governor", &cpuidle_config::governor, {{"menu", std::string("menu")}, {"ladder", std::string("ladder")}},
                "The cpuidle governor (docs/os.md). menu: predicts the idle time from the next timer, "
                "corrected by what past idle periods measured, and from a repeating pattern; ladder: "
                "one state deeper after 4 idle periods longer than the state's exit latency, one "
                "shallower after one shorter.")
        .object("menu", &cpuidle_config::menu, menu_schema(), "The menu governor.");
    return s;
}

// @soc_required is false only to check the rest of a scenario whose SoC could not be read.
schema<switch_costs> costs_schema()
{
    schema<switch_costs> s;
    s.integer("tick_suspend", &switch_costs::tick_suspend, 0, 10000000, "cycles",
              "Outbound: suspend the tick (clockevents shutdown: a timer register write and calls).")
        .integer("cpu_pm_enter", &switch_costs::cpu_pm_enter, 0, 10000000, "cycles",
                 "Outbound: cpu_pm_enter's notifier chain and VFP save; its GIC state save (3 "
                 "register reads) is timed by the GIC.")
        .integer("context_save", &switch_costs::context_save, 0, 10000000, "cycles",
                 "Outbound: cpu_suspend's register and MMU state (its L1 clean is timed by the cache model).")
        .integer("stack_switch", &switch_costs::stack_switch, 0, 10000000, "cycles",
                 "Outbound: move to the private stack before opening the gate.")
        .integer("context_restore", &switch_costs::context_restore, 0, 10000000, "cycles",
                 "Inbound: cpu_resume's register moves and turning the MMU and caches on; its "
                 "uncached memory accesses are switcher.restore_uncached_words.")
        .integer("cpu_pm_exit", &switch_costs::cpu_pm_exit, 0, 10000000, "cycles",
                 "Inbound: cpu_pm_exit's notifier chain and VFP restore; its GIC state restore "
                 "(13 register writes) is timed by the GIC.")
        .integer("tick_resume", &switch_costs::tick_resume, 0, 10000000, "cycles",
                 "Inbound: resume the tick (program the next event).");
    return s;
}

schema<activity_change> activity_schema()
{
    schema<activity_change> s;
    s.real("at_ms", &activity_change::at_ms, 0, 1e9, "ms", "When.", true)
        .boolean("active", &activity_change::active,
                 "true: turn the switcher on (partners and unpaired CPUs go offline); false: "
                 "every logical CPU back to the boot cluster, then the others online.");
    return s;
}

schema<switcher_config> switcher_schema()
{
    schema<switcher_config> s;
    s.choice("pairing", &switcher_config::pairing,
                {{"linux", std::string("linux")}, {"in_order", std::string("in_order")}},
                "linux: each boot-cluster CPU with the last free CPU of the other cluster (TC2: "
                "cpu0-cpu4, cpu1-cpu3); in_order: with the first.")
        .object("costs_cycles", &switcher_config::costs_cycles, costs_schema(),
                "Cycles of the switch steps the model does not detail, at the running CPU's clock.")
        .integer("restore_uncached_words", &switcher_config::restore_uncached_words, 0, 1000000, "words",
                 "Inbound: memory words cpu_resume reads with caches and MMU off (instruction "
                 "fetches, the saved context), each a DRAM round trip whatever the CPU's clock.")
        .list("activity", &switcher_config::activity, activity_schema(), 0, 10000,
              "Turning the switcher on and off during the run (the real system's "
              "/sys/kernel/bL_switcher/active): on is mode iks, off mode smp. Not with mode_changes.");
    return s;
}

// The modes by name, with the kernel's values (enum bls_mode).
const std::vector<std::pair<std::string, std::string>>& mode_options()
{
    static const std::vector<std::pair<std::string, std::string>> options = {
        {"smp", "smp"}, {"iks", "iks"}, {"cluster-migration", "cluster-migration"}, {"hmp", "hmp"}, {"eas", "eas"}};
    return options;
}

schema<mode_change> mode_change_schema()
{
    schema<mode_change> s;
    s.real("at_ms", &mode_change::at_ms, 0, 1e9, "ms", "When.", true)
        .choice("mode", &mode_change::mode, mode_options(),
                "The mode asked for (as mode). Between a switched mode (iks, cluster-migration) and "
                "one without the switcher, the switcher turns off (every logical CPU back to the "
                "boot cluster, then the others online) or on.",
                true);
    return s;
}

schema<hmp_config> hmp_schema()
{
    using p = hmp_config;
    schema<p> s;
    s BLS_HMP_TUNABLES(BLSIM_TUNABLE_KEY);
    return s;
}

schema<model::jitter_params> jitter_schema()
{
    using p = model::jitter_params;
    schema<p> s;
    s.boolean("enabled", &p::enabled,
              "Perturb every timed platform operation's latency L to L * (1 + u * pct / 100), u "
              "uniform in [-1, 1) drawn from the run's seed, per block from a counter of its own "
              "(docs/hardware.md, \"Timing jitter\"). Off: every latency nominal, and the seed "
              "changes no timing.")
        .real("register_access_pct", &p::register_access_pct, 0, 100, "%",
              "Bound of device register accesses (GIC-400, CCI-400, power controller) and of the "
              "CCI's change-pending time.")
        .real("shared_memory_pct", &p::shared_memory_pct, 0, 100, "%",
              "Bound of strongly-ordered shared-memory accesses (the SRAM of MCPM's states, the "
              "vlocks, the switch handshake).")
        .real("memory_access_pct", &p::memory_access_pct, 0, 100, "%",
              "Bound of cache fills from L2, lines served by CCI snoops, and DRAM's latency (not "
              "its transfer or queueing).")
        .real("sgi_delivery_ns", &p::sgi_delivery_ns, 0, 1e6, "ns",
              "SGI delivery has no latency of its own in the model: each SGI reaches each "
              "target's CPU interface (its IRQ and wake-up) after an extra delay uniform in "
              "[0, this); the distributor has it pending at once.")
        .real("wakeup_pct", &p::wakeup_pct, 0, 100, "%",
              "Bound of a core's wake-up: its WFI and power-down exit latencies.")
        .real("power_transition_pct", &p::power_transition_pct, 0, 100, "%",
              "Bound of a core's WFI and power-down entry, and of a cluster's power-down and "
              "power-up.")
        .real("dvfs_pct", &p::dvfs_pct, 0, 100, "%", "Bound of each DVFS voltage and frequency step.")
        .real("cache_maintenance_pct", &p::cache_maintenance_pct, 0, 100, "%",
              "Bound of the set/way clean and invalidate walks of the L1s and L2s (the DRAM drain "
              "of a clean is a memory access).");
    return s;
}

// The trigger every fault kind but the spurious interrupt has: a probability per eligible
// operation (@eligible says which), and times.
template <class P>
void fault_trigger_fields(schema<P>& s, const std::string& eligible)
{
    const std::string chance = "The chance that each eligible operation fails; eligible: " + eligible + ".";
    s.real("probability_pct", &P::probability_pct, 0, 100, "%", chance.c_str())
        .reals("at_s", &P::at_s, 0, 1e6, 10000, "s",
               "Simulated times, in any order: for each, the first eligible operation at or after it "
               "fails (each time once). With probability_pct too, either makes an operation fail.");
}

schema<model::fault_params> faults_schema()
{
    using p = model::fault_params;
    schema<model::power_up_fail_params> up;
    fault_trigger_fields(up, "each power-up of a core from off, when its wake-up condition (an interrupt "
                             "targeting it, its WAKE_INT_MASK bit set) becomes true");
    up.real("timeout_us", &model::power_up_fail_params::timeout_us, 1, 1e6, "us",
            "The power controller's own timeout: this long after a failed power-up attempt it gives up on "
            "it, sets the core's error bit (16 + 4 * cluster + core; 16 + CPU number with a cluster of more than 4 cores) in PWC_STATUS, raises its interrupt, "
            "and tries again while the core's wake-up stays armed.");
    schema<model::fault_trigger> lost;
    fault_trigger_fields(lost, "each target of a GICD_SGIR write that is powered off at that moment; the "
                               "SGI never becomes pending at that target");
    schema<model::cci_stuck_params> stuck;
    fault_trigger_fields(stuck, "each Snoop Control write that changes a port's state (a write of the "
                                "value it holds, the driver's retry, is none)");
    stuck.real("stuck_us", &model::cci_stuck_params::stuck_us, 0, 1e6, "us",
               "How long the CCI's change_pending stays set after a failed change, instead of "
               "change_pending_cycles (the driver polls 1000 us, then asks again, three times in all).");
    schema<model::spurious_irq_params> spurious;
    spurious
        .real("interval_us", &model::spurious_irq_params::interval_us, 0, 1e9, "us",
              "Mean time between spurious interrupts at random instants (exponential intervals, drawn from "
              "the seed); 0: none at random. At least 1 us otherwise. Each asserts the IRQ line of one CPU "
              "(uniformly among those whose GIC CPU interface is enabled) with nothing behind it: its next "
              "GICC_IAR read answers 1023.")
        .reals("at_s", &model::spurious_irq_params::at_s, 0, 1e6, 10000, "s",
               "Simulated times, in any order, of one spurious interrupt each (besides the random ones).");
    schema<model::fault_trigger> dvfs;
    fault_trigger_fields(dvfs, "each PERF_LVL request to a valid level (a no-op one included); it is "
                               "answered STAT_ERR at once and the clock is not changed");
    schema<p> s;
    s.object("power_up_fail", &p::power_up_fail, up,
             "A core's power-up from off does not complete: the core, and its cluster if it was off, stay "
             "off (docs/hardware.md, \"Fault injection\").")
        .object("wakeup_lost", &p::wakeup_lost, lost, "An SGI to a powered-down CPU is lost.")
        .object("cci_stuck", &p::cci_stuck, stuck, "A CCI-400 port change stays pending for long.")
        .object("spurious_irq", &p::spurious_irq, spurious, "Spurious interrupts.")
        .object("dvfs_fail", &p::dvfs_fail, dvfs, "A DVFS request is refused.");
    return s;
}

schema<scenario_config> make_scenario_schema(bool soc_required)
{
    schema<scenario_config> s;
    s.text("name", &scenario_config::name, "Scenario name, copied into the results.", true)
        .text("description", &scenario_config::description, "Free text.")
        .integer("seed", &scenario_config::seed, 0, 2147483647, "",
                 "Seed of every random choice of the run; same seed, same results.")
        .real("duration_s", &scenario_config::duration_s, 1e-6, 1e6, "s", "Simulated time.")
        .choice("mode", &scenario_config::mode, mode_options(),
                "The big.LITTLE mode at boot. smp: the switcher off, every CPU its own, CFS "
                "placement; iks: the In-Kernel Switcher, CPUs paired across the two clusters, a "
                "cpufreq policy per logical CPU; cluster-migration: the switcher's pairs under one "
                "policy, all moving cluster together; hmp: the switcher off, Linaro's big.LITTLE MP "
                "sorting tasks between the clusters by load (hmp); eas: the switcher off, "
                "energy-aware wake-up placement by the SoC's EAS tables.")
        .list("mode_changes", &scenario_config::mode_changes, mode_change_schema(), 0, 10000,
              "Mode changes during the run, in time order (no two at one instant), as Linaro's "
              "sysfs allowed. Not with "
              "switcher.activity.")
        .object("soc", &scenario_config::soc, soc_schema(),
                "The SoC. In a scenario file, a path to a SoC file (relative to the scenario) "
                "or the mapping itself.",
                soc_required)
        .object("governor", &scenario_config::governor, governor_schema(), "cpufreq governor.")
        .object("sched", &scenario_config::sched, sched_schema(), "The scheduler.")
        .object("hmp", &scenario_config::hmp, hmp_schema(),
                "Linaro's big.LITTLE MP (mode hmp), at the LSK's defaults for TC2.")
        .object("cpuidle", &scenario_config::cpuidle, cpuidle_schema(), "cpuidle.")
        .object("workload", &scenario_config::workload, workload_schema(), "What runs.")
        .object("switcher", &scenario_config::switcher, switcher_schema(), "The In-Kernel Switcher.")
        .integers("online_cpus", &scenario_config::online_cpus, 0, BLS_MAX_CPUS - 1, BLS_MAX_CPUS, "",
                  "CPU hotplug at boot: the CPUs that come up, the others stay powered down "
                  "(empty: every CPU). Only in modes without the switcher (smp, hmp, eas), "
                  "mode_changes included.")
        .object("jitter", &scenario_config::jitter, jitter_schema(),
                "Seeded timing jitter, off by default so that results stay comparable: with it on, "
                "the seed decides the interleavings of the CPUs' races; the same seed, the same bytes.")
        .object("faults", &scenario_config::faults, faults_schema(),
                "Injected hardware faults, none by default, for the software's recovery paths; drawn from "
                "the seed, independently of the jitter (docs/hardware.md, \"Fault injection\"). Written to the "
                "effective configuration only when one is configured.")
        .emitted_if([](const scenario_config& c) { return c.faults.any(); });
    return s;
}

// Built once per process, on first use, and never destroyed (thousands of std::function
// objects: building one was a quarter of a 1 ms run, docs/performance.md); a schema holds
// no run-dependent state.
const schema<scenario_config>& scenario_schema(bool soc_required)
{
    if (soc_required) {
        static const schema<scenario_config>* const with_soc = new schema<scenario_config>(make_scenario_schema(true));
        return *with_soc;
    }
    static const schema<scenario_config>* const without_soc = new schema<scenario_config>(make_scenario_schema(false));
    return *without_soc;
}

} // namespace detail

} // namespace blsim::soc
