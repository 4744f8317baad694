// soc/config/src/scenario.cpp -- the configuration schema of blsim and its semantic checks.
//
// Every key a user can write is declared here, once, with its type, unit, range and meaning;
// docs/config.md is generated from these declarations.
#include "blsim/soc/scenario.h"

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

namespace {

constexpr const char* builtin_prefix = "builtin:";

// The ACE slave interfaces of an interconnect, in order.
std::vector<int> ace_ports(model::cci_variant v)
{
    std::vector<int> ace;
    for (unsigned s = 0; s < model::cci_slaves(v); s++)
        if (model::cci_is_ace(v, s))
            ace.push_back(static_cast<int>(s));
    return ace;
}

// "S3 or S4", "S0, S1, S2 or S3".
std::string port_list(const std::vector<int>& ports)
{
    std::string s;
    for (std::size_t i = 0; i < ports.size(); i++)
        s += (i == 0 ? "" : i + 1 == ports.size() ? " or " : ", ") + ("S" + std::to_string(ports[i]));
    return s;
}

// --- schemas ------------------------------------------------------------------------------

schema<model::opp_point> opp_schema()
{
    schema<model::opp_point> s;
    s.integer("freq_mhz", &model::opp_point::freq_mhz, 1, 10000, "MHz", "Core clock frequency.", true)
        .integer("voltage_mv", &model::opp_point::voltage_mv, 500, 1500, "mV",
                 "Supply voltage at this frequency.", true)
        .real("core_power_eas", &model::opp_point::core_power_eas, 0, 1e6, "EAS units",
              "Power of one busy core at this OPP (EAS energy model).", true)
        .real("cluster_power_eas", &model::opp_point::cluster_power_eas, 0, 1e6, "EAS units",
              "Power of the cluster's shared logic while any of its cores is busy.", true);
    return s;
}

schema<model::dvfs_params> dvfs_schema()
{
    schema<model::dvfs_params> s;
    s.real("voltage_latency_us", &model::dvfs_params::voltage_latency_us, 0, 1e6, "us",
           "Regulator settling time for a voltage change.", true)
        .real("freq_latency_us", &model::dvfs_params::freq_latency_us, 0, 1e6, "us",
              "PLL relock time for a frequency change; the core runs at the old frequency "
              "meanwhile.",
              true);
    return s;
}

schema<model::power_params> power_schema()
{
    using p = model::power_params;
    schema<p> s;
    s.real("core_wfi_entry_us", &p::core_wfi_entry_us, 0, 1e6, "us", "Core WFI entry latency.", true)
        .real("core_wfi_exit_us", &p::core_wfi_exit_us, 0, 1e6, "us",
              "Core WFI exit latency (interrupt to running).", true)
        .real("core_off_entry_us", &p::core_off_entry_us, 0, 1e6, "us", "Core power-down latency.", true)
        .real("core_off_exit_us", &p::core_off_exit_us, 0, 1e6, "us", "Core power-up latency.", true)
        .real("cluster_off_entry_us", &p::cluster_off_entry_us, 0, 1e6, "us",
              "Hardware cluster power-down, from its last core off (with PWRDN_EN set) to the "
              "cluster off; the software's cache flush before it is timed apart.", true)
        .real("cluster_off_exit_us", &p::cluster_off_exit_us, 0, 1e6, "us",
              "Hardware cluster power-up, from the wake-up to its first core's own exit; the "
              "software's restore after it is timed apart.", true)
        .choice("cluster_entry_wakeup", &p::cluster_entry_wakeup,
                {{"abort", model::entry_wakeup::abort}, {"complete", model::entry_wakeup::complete}},
                "A wake-up during the cluster's power-down: abort it (the cluster is back on at "
                "once) or let it complete and power the cluster straight up again.")
        .real("cluster_up_energy_uj", &p::cluster_up_energy_uj, 0, 1e6, "uJ",
              "Energy of one cluster power-up beyond the idle power drawn meanwhile (charging "
              "the domain).")
        .real("cluster_down_energy_uj", &p::cluster_down_energy_uj, 0, 1e6, "uJ",
              "Energy of one completed cluster power-down beyond the idle power drawn meanwhile.")
        .boolean("cluster_power_down", &p::cluster_power_down,
                 "Whether the cluster powers off when its last core does.")
        .boolean("per_core_power_gating", &p::per_core_power_gating,
                 "Whether a core can be power-gated on its own (false on TC2: an off core is "
                 "held in reset and still leaks in the cv2f model).");
    return s;
}

schema<model::cv2f_params> cv2f_schema()
{
    using p = model::cv2f_params;
    schema<p> s;
    s.real("core_dyn_uw_per_mhz_v2", &p::core_dyn_uw_per_mhz_v2, 0, 1e5, "uW/MHz/V^2",
           "Dynamic power coefficient of a busy core (device tree dynamic-power-coefficient).")
        .real("cluster_dyn_uw_per_mhz_v2", &p::cluster_dyn_uw_per_mhz_v2, 0, 1e5, "uW/MHz/V^2",
              "Dynamic power coefficient of the shared logic's activity while a core is busy, "
              "beyond its clock (clock_uw_per_mhz_v2).");
    return s;
}

schema<model::leakage_params> leakage_schema()
{
    using p = model::leakage_params;
    schema<p> s;
    s.integer("ref_mv", &p::ref_mv, 100, 5000, "mV", "Supply at which the leakages below are given.")
        .real("e_fold_mv", &p::e_fold_mv, 10, 10000, "mV",
              "Supply step that multiplies every leakage by e (leakage ~ exp((V - ref_mv) / e_fold_mv)).")
        .real("shared_mw", &p::shared_mw, 0, 1e6, "mW",
              "Leakage of the cluster's shared logic (SCU, L2 controller, clocking) while powered, at ref_mv.",
              true)
        .real("core_mw", &p::core_mw, 0, 1e6, "mW",
              "Leakage of one core while powered (in WFI, busy, or held in reset without per-core "
              "power gating), at ref_mv.",
              true)
        .real("l2_uw_per_kb", &p::l2_uw_per_kb, 0, 1e6, "uW/KiB",
              "Leakage of the L2's RAMs per KiB while the cluster is powered, at ref_mv.", true);
    return s;
}

schema<model::cache_params> cache_schema()
{
    using p = model::cache_params;
    schema<p> s;
    s.integer("l1d_kb", &p::l1d_kb, 1, 1024, "KiB", "L1 data cache of each core.", true)
        .integer("l2_kb", &p::l2_kb, 1, 65536, "KiB", "Shared L2 cache of the cluster.", true)
        .integer("line_bytes", &p::line_bytes, 16, 256, "bytes", "Cache line size.")
        .integer("l2_hit_cycles", &p::l2_hit_cycles, 0, 10000, "core cycles",
                 "First line served from L2 into L1.")
        .integer("l2_cycles_per_line", &p::l2_cycles_per_line, 0, 10000, "core cycles",
                 "Each further line from L2.")
        .integer("l1_walk_cycles_per_line", &p::l1_walk_cycles_per_line, 0, 10000, "core cycles",
                 "Set/way maintenance of the L1: one operation per line of its capacity.")
        .integer("l2_walk_cycles_per_line", &p::l2_walk_cycles_per_line, 0, 10000, "core cycles",
                 "Set/way maintenance of the L2: one operation per line of its capacity.")
        .integer("clean_cycles_per_line", &p::clean_cycles_per_line, 0, 10000, "core cycles",
                 "Issuing the write-back of one dirty line during a clean, beyond the walk (the "
                 "transfer itself is the interconnect's and DRAM's, overlapped with the walk).");
    return s;
}

schema<model::idle_state_params> idle_state_schema()
{
    using p = model::idle_state_params;
    schema<p> s;
    s.text("name", &p::name, "State name, used in results.", true)
        .choice("kind", &p::kind, {{"wfi", std::string("wfi")}, {"power_down", std::string("power_down")}},
                "wfi: the core clock-gated; power_down: the core powered off through MCPM, and "
                "its cluster with it when it is the last.")
        .integer("exit_latency_us", &p::exit_latency_us, 0, 10000000, "us",
                 "Worst-case entry plus exit latency, as cpuidle's exit_latency.")
        .integer("target_residency_us", &p::target_residency_us, 0, 100000000, "us",
                 "Shortest idle period for which the state saves energy.");
    return s;
}

schema<model::cluster_params> cluster_schema()
{
    using p = model::cluster_params;
    schema<p> s;
    s.text("name", &p::name, "Cluster name, used in results and in --set paths.", true)
        .text("core_type", &p::core_type, "Core type, informational (e.g. cortex-a15).")
        .integer("cores", &p::cores, 1, BLS_MAX_CPUS_PER_CLUSTER, "",
                 "Number of cores (a limit of this model, not of the architecture).", true)
        .integer("capacity_dmips_mhz", &p::capacity_dmips_mhz, 1, 4096, "DMIPS/MHz (normalised)",
                 "Per-MHz capacity, as the device tree's capacity-dmips-mhz.", true)
        .integer("boot_freq_mhz", &p::boot_freq_mhz, 0, 10000, "MHz",
                 "Frequency at reset; must be an OPP. 0 = the highest OPP.")
        .integer("cci_port", &p::cci_port, -1, 6, "",
                 "Interconnect slave interface the cluster is behind, one of the variant's ACE "
                 "interfaces (cci-400: 3 or 4; cci-500: 0-3; cci-550: 0-5); -1: the ACE interfaces "
                 "in cluster order (cci-400: S3, S4; the 5x0s: S0, S1, ...).")
        .list("opps", &p::opps, opp_schema(), 1, 32,
              "Operating points, by strictly ascending frequency; neither voltage_mv nor "
              "core_power_eas may fall as it rises.", true)
        .real("wfi_power_eas", &p::wfi_power_eas, 0, 1e6, "EAS units",
              "The EAS energy model's cost of a powered cluster with every core idle ('WFI'), as "
              "the scheduler's estimate (mode eas) uses it; the hardware draws leakage and clock "
              "instead (docs/calibration.md).",
              true)
        .real("off_power_eas", &p::off_power_eas, 0, 1e6, "EAS units",
              "Cluster power while powered down (EAS 'cluster-sleep' idle state): the scheduler's "
              "estimate, and what the hardware draws (times eas_mw_per_unit) in both power models.",
              true)
        .real("eas_mw_per_unit", &p::eas_mw_per_unit, 1e-6, 1000, "mW/EAS unit",
              "How many mW one of this cluster's EAS units is (docs/calibration.md). Required.")
        .integer("eas_l2_kb", &p::eas_l2_kb, 0, 65536, "KiB",
                 "The L2 size the EAS tables were measured with; the EAS model adds the L2 "
                 "leakage of any difference from caches.l2_kb. 0: caches.l2_kb.")
        .object("leakage", &p::leakage, leakage_schema(),
                "Static power while the cluster is powered, in both power models. Required.")
        .real("clock_uw_per_mhz_v2", &p::clock_uw_per_mhz_v2, 0, 1e5, "uW/MHz/V^2",
              "Clock of the powered cluster's shared logic (clock tree, L2, SCU), drawn while its "
              "cores are idle too, in both power models.")
        .object("dvfs", &p::dvfs, dvfs_schema(), "DVFS transition latencies.")
        .object("power", &p::power, power_schema(), "Power controller latencies and gating.")
        .object("cv2f", &p::cv2f, cv2f_schema(), "Coefficients of the C*V^2*f power model.")
        .object("caches", &p::caches, cache_schema(), "L1 data and L2 caches.")
        .list("idle_states", &p::idle_states, idle_state_schema(), 1, BLS_MAX_IDLE_STATES,
              "cpuidle states of the cluster's CPUs, shallowest first; the first must be wfi. "
              "Default: wfi (1 us, 1 us) and cluster-sleep (power_down, 1500 us, 2500 us).");
    return s;
}

schema<model::gic_params> gic_schema()
{
    using p = model::gic_params;
    schema<p> s;
    s.address("dist_base", &p::dist_base, "Distributor register frame.")
        .address("cpu_base", &p::cpu_base, "CPU interface register frame.")
        .integer("spis", &p::spis, 0, 988, "", "Shared peripheral interrupts; 32 + spis must be a multiple of 32.")
        .integer("clock_mhz", &p::clock_mhz, 1, 10000, "MHz", "Clock the register latency is counted in.")
        .integer("access_cycles", &p::access_cycles, 0, 100000, "cycles", "One register access.");
    return s;
}

schema<model::cci_params> cci_schema()
{
    using p = model::cci_params;
    schema<p> s;
    s.choice("model", &p::variant,
             {{"cci-400", model::cci_variant::cci400},
              {"cci-500", model::cci_variant::cci500},
              {"cci-550", model::cci_variant::cci550}},
             "The interconnect. cci-400: two ACE interfaces (S3, S4), broadcast snoops (TC2, "
             "Exynos 5422); cci-500: four (S0-S3) and cci-550: six (S0-S5), each with a snoop "
             "filter that sends a snoop only to a cluster holding the line (docs/hardware.md, \"CCI\").")
        .address("base", &p::base, "Register block.")
        .integer("clock_mhz", &p::clock_mhz, 1, 10000, "MHz", "Interconnect clock.")
        .integer("access_cycles", &p::access_cycles, 0, 100000, "cycles", "One register access.")
        .integer("change_pending_cycles", &p::change_pending_cycles, 0, 10000000, "cycles",
                 "How long Status.change_pending stays set after a snoop-control change.")
        .integer("snoop_hit_cycles", &p::snoop_hit_cycles, 0, 100000, "cycles",
                 "First line served from another cluster's cache.")
        .integer("cycles_per_line", &p::cycles_per_line, 0, 100000, "cycles",
                 "Each further line through the interconnect.");
    return s;
}

schema<model::spc_params> spc_schema()
{
    using p = model::spc_params;
    schema<p> s;
    s.address("base", &p::base, "Register block (TC2: the SPC at SCC + 0xb00).")
        .integer("clock_mhz", &p::clock_mhz, 1, 10000, "MHz", "Clock the register latency is counted in.")
        .integer("access_cycles", &p::access_cycles, 0, 100000, "cycles", "One register access.")
        .integer("irq", &p::irq, 64, 1019, "",
                 "Interrupt ID of its completion interrupt: an SPI above the kernel's timers "
                 "and doorbells (32-63) that the GIC implements (TC2: SPI 95, ID 127).");
    return s;
}

schema<model::sram_params> sram_schema()
{
    using p = model::sram_params;
    schema<p> s;
    s.address("base", &p::base, "Where the SRAM is.")
        .integer("size_kb", &p::size_kb, 2, 65536, "KiB",
                 "Its size: at least the state the power-management code shares (MCPM's states, "
                 "vlocks and entry vectors, 1 KiB, and the switcher's handshake words).")
        .integer("clock_mhz", &p::clock_mhz, 1, 10000, "MHz", "Clock of its port.")
        .integer("access_cycles", &p::access_cycles, 0, 100000, "cycles", "One access.");
    return s;
}

schema<model::dram_params> dram_schema()
{
    using p = model::dram_params;
    schema<p> s;
    s.integer("clock_mhz", &p::clock_mhz, 1, 10000, "MHz", "DRAM controller clock.")
        .integer("latency_cycles", &p::latency_cycles, 0, 100000, "cycles", "Request to first data.")
        .integer("bytes_per_cycle", &p::bytes_per_cycle, 1, 1024, "bytes/cycle", "Peak transfer rate.")
        .integer("access_bytes", &p::access_bytes, 1, 4096, "bytes",
                 "One access (a cache line): the unit the average latency is reported per.");
    return s;
}

schema<model::energy_params> energy_schema()
{
    using p = model::energy_params;
    schema<p> s;
    s.choice("model", &p::model,
             {{"eas", model::power_model_kind::eas}, {"cv2f", model::power_model_kind::cv2f}},
             "Power model of a busy core and cluster: the EAS tables, or C*V^2*f; idle and static "
             "power are the same in both (clusters' leakage and clock_uw_per_mhz_v2).")
        .boolean("scheduler_cluster_terms", &p::scheduler_cluster_terms,
                 "Whether the scheduler's energy model (mode eas) counts the EAS tables' cluster terms "
                 "(cluster_power_eas while busy, wfi_power_eas while idle), as the EAS patches' TC2 model "
                 "did; false: each core's power alone, as Linux's energy model built from the device "
                 "tree's dynamic-power-coefficient. The hardware's power is the same either way.");
    return s;
}

schema<model::soc_params> soc_schema()
{
    using p = model::soc_params;
    schema<p> s;
    s.text("name", &p::name, "SoC name.", true)
        .list("clusters", &p::clusters, cluster_schema(), 1, BLS_MAX_CLUSTERS,
              "Clusters, in CPU-numbering order: the first cluster's cores are cpu0, cpu1, ...",
              true)
        .object("energy", &p::energy, energy_schema(), "How power is computed.")
        .object("gic", &p::gic, gic_schema(), "GIC-400 interrupt controller.")
        .object("cci", &p::cci, cci_schema(), "Cache-coherent interconnect (CCI-400/500/550).")
        .object("dram", &p::dram, dram_schema(), "DRAM and its controller.")
        .object("sram", &p::sram, sram_schema(),
                "On-chip SRAM: strongly-ordered memory for the power-management state CPUs "
                "share with caches off (MCPM, vlocks).")
        .object("spc", &p::spc, spc_schema(),
                "The power controller's registers and interrupt (TC2's SPC): core and cluster "
                "power, DVFS requests.");
    return s;
}

schema<workloads::util_step> util_step_schema()
{
    schema<workloads::util_step> s;
    s.real("at_ms", &workloads::util_step::at_ms, 0, 1e9, "ms", "From this time on (by release).", true)
        .real("util_pct", &workloads::util_step::util_pct, 0, 100, "%",
              "Work per period from then, as a share of the period on the reference CPU.", true);
    return s;
}

std::vector<std::pair<std::string, workloads::task_info::policy_t>> policy_choices()
{
    return {{"SCHED_OTHER", workloads::task_info::normal},
            {"SCHED_FIFO", workloads::task_info::fifo},
            {"SCHED_RR", workloads::task_info::rr}};
}

schema<workloads::task_params> task_schema()
{
    using p = workloads::task_params;
    schema<p> s;
    s.text("name", &p::name, "Task name.", true)
        .integers("cpus", &p::cpus, 0, BLS_MAX_CPUS - 1, BLS_MAX_CPUS, "",
                  "Logical CPUs the task may run on (its affinity); empty: every one. Each must "
                  "exist in every mode of the run (below the paired count if the switcher is ever on).")
        .integer("nice", &p::nice, -20, 19, "", "Nice value: its share when CPUs are contended.")
        .choice("policy", &p::policy, policy_choices(),
                "Scheduling class: SCHED_OTHER (CFS), or real time, SCHED_FIFO or SCHED_RR.")
        .integer("rt_priority", &p::rt_priority, 0, 99, "",
                 "Real-time priority, 1..99 (higher first), with SCHED_FIFO and SCHED_RR; 0 with SCHED_OTHER.")
        .real("util_pct", &p::util_pct, 0, 100, "%",
              "Work per period, as a share of the period on the reference CPU.", true)
        .real("period_ms", &p::period_ms, 0.001, 1e6, "ms", "Release period.", true)
        .real("offset_ms", &p::offset_ms, 0, 1e6, "ms", "Time of the first release.")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "",
              "Share of the work that is memory stall and does not scale with frequency.")
        .integer("working_set_kb", &p::working_set_kb, 0, 1048576, "KiB",
                 "Data the task touches each time it runs; a cold cache fetches it "
                 "(0: no cache effects).")
        .real("write_fraction", &p::write_fraction, 0, 1, "",
              "Share of the working set the task dirties.")
        .list("util_steps", &p::util_steps, util_step_schema(), 0, 10000,
              "Later utilisations: from each step's at_ms on, its util_pct (ascending times).");
    return s;
}

schema<workloads::bbench_page> bbench_page_schema()
{
    using p = workloads::bbench_page;
    schema<p> s;
    s.text("name", &p::name, "Page name.", true)
        .integer("resources", &p::resources, 1, 1000, "",
                 "Files read and processed one after another (the HTML, scripts, style sheets, images).")
        .real("work_ms", &p::work_ms, 0, 1e6, "ms",
              "The page load's CPU work in all its phases, on the reference CPU (split by workload.bbench.phases).")
        .real("height_px", &p::height_px, 0, 1e6, "px", "The document's height: how far BBench scrolls it.");
    return s;
}

schema<workloads::bbench_phase> bbench_phase_schema()
{
    using p = workloads::bbench_phase;
    schema<p> s;
    s.real("share", &p::share, 0, 1, "", "Share of a page's load work (the phases' shares add up to 1).")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "",
              "Share of the phase's work that is memory stall (DRAM's time on either core).");
    return s;
}

schema<workloads::bbench_phases> bbench_phases_schema()
{
    using p = workloads::bbench_phases;
    schema<p> s;
    s.object("parse", &p::parse, bbench_phase_schema(), "Main thread: HTML parsing, DOM building.")
        .object("script", &p::script, bbench_phase_schema(), "Main thread: JavaScript.")
        .object("style", &p::style, bbench_phase_schema(), "Main thread: CSS style resolution.")
        .object("layout", &p::layout, bbench_phase_schema(),
                "Main thread: layout (also the memory fraction of a scroll step's event).")
        .object("paint", &p::paint, bbench_phase_schema(), "Raster thread: painting the changed tiles.")
        .object("composite", &p::composite, bbench_phase_schema(), "Compositor: drawing the frame.");
    return s;
}

schema<workloads::bbench_scroll> bbench_scroll_schema()
{
    using p = workloads::bbench_scroll;
    schema<p> s;
    s.real("settle_ms", &p::settle_ms, 0, 1e6, "ms",
           "From a page's onload to its first scroll step (none for the run's first page).")
        .real("delay_ms", &p::delay_ms, 0, 1e6, "ms", "Between two scroll steps (BBench's scrollDelay).")
        .real("step_px", &p::step_px, 1, 1e6, "px", "How far a step scrolls (BBench's scrollSize).")
        .real("main_ms", &p::main_ms, 0, 1e5, "ms", "Main thread's work per step (the scroll event), on the reference CPU.")
        .real("paint_ms", &p::paint_ms, 0, 1e5, "ms", "Raster thread's work per step (the newly exposed tiles).")
        .real("composite_ms", &p::composite_ms, 0, 1e5, "ms", "Compositor's work per step (one frame).");
    return s;
}

schema<workloads::bbench_params> bbench_schema()
{
    using p = workloads::bbench_params;
    schema<p> s;
    s.list("pages", &p::pages, bbench_page_schema(), 0, 1000,
           "The sites, visited in this order; empty: BBench's nine (docs/workloads.md).")
        .integer("iterations", &p::iterations, 0, 1000000, "",
                 "Passes over the sites (BBench's: 2; the score takes every pass but the first); 0: until the run ends.")
        .real("start_ms", &p::start_ms, 0, 1e9, "ms", "The first request.")
        .real("io_cold_ms", &p::io_cold_ms, 0, 1e5, "ms",
              "Reading one resource from storage, in the first pass (block I/O: the CPU's iowait).")
        .real("io_warm_ms", &p::io_warm_ms, 0, 1e5, "ms", "Reading one resource in later passes (the page cache).")
        .object("phases", &p::phases, bbench_phases_schema(), "A page load's phases: share of its work, memory stall.")
        .object("scroll", &p::scroll, bbench_scroll_schema(), "Scrolling each page to the bottom after it loads.")
        .real("jitter_pct", &p::jitter_pct, 0, 100, "%",
              "Each resource's amounts drawn uniformly within +- this share (from the seed).")
        .boolean("shuffle", &p::shuffle,
                 "Each pass visits the sites in an order drawn from the seed (BBench: false, a fixed order).")
        .integer("main_working_set_kb", &p::main_working_set_kb, 0, 1048576, "KiB",
                 "Main thread's data per resource or scroll step.")
        .integer("raster_working_set_kb", &p::raster_working_set_kb, 0, 1048576, "KiB",
                 "Raster thread's data per item.")
        .integer("composite_working_set_kb", &p::composite_working_set_kb, 0, 1048576, "KiB",
                 "Compositor's data per frame.")
        .integers("cpus", &p::cpus, 0, BLS_MAX_CPUS - 1, BLS_MAX_CPUS, "",
                  "The browser threads' affinity; empty: every CPU. As tasks[].cpus, CPUs of "
                  "every mode of the run.");
    return s;
}

schema<workloads::audio_thread_params> audio_thread_schema()
{
    using p = workloads::audio_thread_params;
    schema<p> s;
    s.real("period_ms", &p::period_ms, 0.1, 1000, "ms", "It wakes every period, and must be done within it.")
        .real("work_us", &p::work_us, 0, 1e6, "us", "Work each time, on the reference CPU.")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "", "Share of the work that is memory stall.")
        .integer("nice", &p::nice, -20, 19, "", "Nice value (SCHED_OTHER).")
        .choice("policy", &p::policy, policy_choices(),
                "Scheduling class: SCHED_OTHER (CFS), or real time, SCHED_FIFO or SCHED_RR.")
        .integer("rt_priority", &p::rt_priority, 0, 99, "",
                 "Real-time priority, 1..99 (higher first), with SCHED_FIFO and SCHED_RR; 0 with SCHED_OTHER.");
    return s;
}

schema<audio_config> audio_schema()
{
    using p = audio_config;
    schema<p> s;
    s.boolean("enabled", &p::enabled, "Music plays beside the workload (with kind: audio, alone).")
        .object<workloads::audio_thread_params>("decoder", &p::decoder, audio_thread_schema(),
                "The MP3 decoder: one frame (1152 samples, 26.1 ms at 44.1 kHz) each period.")
        .object<workloads::audio_thread_params>("mixer", &p::mixer, audio_thread_schema(),
                "The audio server's mixer: one hardware buffer each period (TC2: 1024 frames at 48 kHz).")
        .integer("working_set_kb", &p::working_set_kb, 0, 1048576, "KiB", "Data each thread touches per wake-up.")
        .real("start_ms", &p::start_ms, 0, 1e9, "ms", "Both threads' first wake-up.")
        .integers("cpus", &p::cpus, 0, BLS_MAX_CPUS - 1, BLS_MAX_CPUS, "", "Affinity; empty: every CPU. As tasks[].cpus, CPUs of every mode of the "
                  "run.");
    return s;
}

schema<replay_config> replay_schema()
{
    using p = replay_config;
    schema<p> s;
    s.text("csv", &p::csv, "CSV of time_ms,task,util_pct[,cpu] rows (a header line first), relative to the scenario "
           "(to the working directory when given with --set).")
        .real("period_ms", &p::period_ms, 0.1, 1e5, "ms", "Each task runs its utilisation of every period.")
        .boolean("pin_cpus", &p::pin_cpus, "Pin each task to the cpu of its first row (the cpu column), which must "
                 "exist in every mode of the run (as tasks[].cpus).")
        .real("mem_fraction", &p::mem_fraction, 0, 1, "", "Share of the work that is memory stall.")
        .integer("working_set_kb", &p::working_set_kb, 0, 1048576, "KiB", "Data each job touches.");
    return s;
}

schema<rtapp_io_config> rtapp_io_schema()
{
    using p = rtapp_io_config;
    schema<p> s;
    s.real("bandwidth_mb_s", &p::bandwidth_mb_s, 0.1, 1e5, "MB/s",
           "The write bandwidth rt-app's iorun gets from a device other than /dev/null: the thread waits in "
           "I/O wait for its bytes at this rate (dirty-page throttling; docs/workloads.md). 20: a 2013 "
           "phone's eMMC, an assumption.")
        .real("latency_us", &p::latency_us, 0, 1e6, "us", "Added to each write(2) of such a device.");
    return s;
}

schema<taskgroup_shares> taskgroup_shares_schema()
{
    using p = taskgroup_shares;
    schema<p> s;
    s.text("path", &p::path, "A taskgroup of the rt-app document (\"/tg1\", \"/tg1/tg11\").")
        .integer("shares", &p::shares, 2, 262144, "", "Its cpu.shares (cgroup v1): its weight against its siblings.");
    return s;
}

schema<workload_config> workload_schema()
{
    schema<workload_config> s;
    s.choice("kind", &workload_config::kind,
             {{"constant", std::string("constant")},
              {"bbench", std::string("bbench")},
              {"audio", std::string("audio")},
              {"rtapp", std::string("rtapp")},
              {"replay", std::string("replay")}},
             "Workload. constant: periodic tasks of constant utilisation; bbench: a browser loading "
             "pages; audio: the music decoder alone; rtapp: rt-app threads; replay: utilisation "
             "over time from a CSV (docs/workloads.md).")
        .list("tasks", &workload_config::tasks, task_schema(), 0, BLS_MAX_TASKS,
              "constant: the task set.")
        .object("bbench", &workload_config::bbench, bbench_schema(), "bbench: the browser and its pages.")
        .object("audio", &workload_config::audio, audio_schema(), "Background audio (any kind).")
        .tree("rtapp", &workload_config::rtapp,
              "rtapp: an rt-app document ({global, tasks}) written here, as its JSON would be.")
        .text("rtapp_json", &workload_config::rtapp_json,
              "rtapp: an rt-app JSON file, relative to the scenario (to the working directory when given "
              "with --set), instead of rtapp.")
        .object("rtapp_io", &workload_config::rtapp_io, rtapp_io_schema(),
                "rtapp: the block device iorun writes to when global.io_device is not /dev/null.")
        .list("rtapp_taskgroups", &workload_config::rtapp_taskgroups, taskgroup_shares_schema(), 0, BLS_MAX_GROUPS - 1,
              "rtapp: cpu.shares of the document's taskgroups (rt-app creates them at 1024, the default here).")
        .object("replay", &workload_config::replay, replay_schema(), "replay: the trace and how to replay it.");
    return s;
}

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
        .integer("hispeed_freq_mhz", &p::hispeed_freq_mhz, 0, 100000, "MHz",
                 "Speed to jump to on a load burst; 0: the policy's maximum.")
        .integer("go_hispeed_load_pct", &p::go_hispeed_load_pct, 1, 1000, "%",
                 "Load at or above which the speed jumps to hispeed_freq_mhz. The default is "
                 "variant 2013's; 2012's is 85.")
        .text("target_loads", &p::target_loads,
              "2013: target load per speed, as sysfs takes it: 'L0 F1:L1 F2:L2 ...' (L in %, F in "
              "MHz ascending): L0 below F1, L1 from F1, ...")
        .emitted_if(not_2012)
        .integer("min_sample_time_us", &p::min_sample_time_us, 0, 100000000, "us",
                 "Time a speed is held before the governor may lower it.")
        .integer("timer_rate_us", &p::timer_rate_us, 1000, 100000000, "us", "Sampling period while busy.")
        .integer("above_hispeed_delay_us", &p::above_hispeed_delay_us, 0, 100000000, "us",
                 "Time at or above hispeed (2012: at it) before going higher.")
        .integer("timer_slack_us", &p::timer_slack_us, -1, 100000000, "us",
                 "2013: how much later than a sample an idle CPU above the minimum speed is woken to "
                 "lower it; -1: never. (2012's timer wakes an idle CPU above the minimum at the sample.)")
        .emitted_if(not_2012)
        .boolean("boost", &p::boost, "Hold every CPU at hispeed_freq_mhz or above.")
        .integer("boostpulse_duration_us", &p::boostpulse_duration_us, 0, 100000000, "us",
                 "2013: length of a boost pulse (a write of boostpulse). (2012: a pulse raises to "
                 "hispeed_freq_mhz, held by min_sample_time_us.)")
        .emitted_if(not_2012)
        .boolean("io_is_busy", &p::io_is_busy,
                 "2013: time idle with a task waiting for block I/O counts as busy. (2012 always "
                 "counts it busy.)")
        .emitted_if(not_2012)
        .integer("hispeed_freq2_mhz", &p::hispeed_freq2_mhz, 0, 100000, "MHz",
                 "Ours, unverified against any Linaro tree: a second threshold above "
                 "hispeed_freq_mhz; beyond it only at go_hispeed_load2_pct. 0: none.")
        .integer("go_hispeed_load2_pct", &p::go_hispeed_load2_pct, 1, 1000, "%",
                 "Load at or above which the speed may pass, and jumps to, hispeed_freq2_mhz.");
    return s;
}

schema<ondemand_config> ondemand_schema()
{
    using p = ondemand_config;
    schema<p> s;
    s.integer("sampling_rate_us", &p::sampling_rate_us, 1000, 100000000, "us", "Sampling period.")
        .integer("up_threshold_pct", &p::up_threshold_pct, 1, 100, "%",
                 "Load above which the policy goes to its maximum.")
        .integer("sampling_down_factor", &p::sampling_down_factor, 1, 100000, "",
                 "Sampling periods spent at the maximum before the next evaluation.")
        .integer("powersave_bias_permille", &p::powersave_bias_permille, 0, 1000, "per mille",
                 "Share of the chosen speed given up (the table entry at or below the rest).");
    return s;
}

schema<conservative_config> conservative_schema()
{
    using p = conservative_config;
    schema<p> s;
    s.integer("sampling_rate_us", &p::sampling_rate_us, 1000, 100000000, "us", "Sampling period.")
        .integer("up_threshold_pct", &p::up_threshold_pct, 1, 100, "%", "Load above which it steps up.")
        .integer("down_threshold_pct", &p::down_threshold_pct, 0, 99, "%", "Load below which it steps down.")
        .integer("freq_step_pct", &p::freq_step_pct, 0, 100, "%", "Step, as a share of the policy's maximum.")
        .integer("sampling_down_factor", &p::sampling_down_factor, 1, 100000, "",
                 "Samples below the threshold before a step down.");
    return s;
}

schema<schedutil_config> schedutil_schema()
{
    schema<schedutil_config> s;
    s.integer("rate_limit_us", &schedutil_config::rate_limit_us, 0, 100000000, "us",
              "Shortest time between two frequency evaluations.");
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
    s.integer("up_threshold", &p::up_threshold, 0, 1023, "load (0..1024)",
              "A task whose HMP load is above it belongs on a big CPU (/sys/kernel/hmp/up_threshold).")
        .integer("down_threshold", &p::down_threshold, 0, 1023, "load (0..1024)",
                 "A task whose HMP load is below it belongs on a little CPU; below up_threshold.")
        .integer("load_avg_period_ms", &p::load_avg_period_ms, 1, 1000, "ms",
                 "Half-life of the HMP load (the runnable average HMP decides by).")
        .boolean("frequency_invariant", &p::frequency_invariant,
                 "Count runnable time at the CPU's frequency's share of its cluster's top "
                 "(HMP_FREQUENCY_INVARIANT_SCALE, /sys/kernel/hmp/frequency_invariant_load_scale); "
                 "false: in full, so that a light task on a slow little CPU looks heavy.")
        .integer("up_interval_us", &p::up_interval_us, 0, 10000000, "us",
                 "Least time from a task's last move between clusters to a move up (Linux: 4096 << 10 ns).")
        .integer("down_interval_us", &p::down_interval_us, 0, 10000000, "us",
                 "Least time from a task's last move between clusters to a move down.")
        .boolean("fork_to_big", &p::fork_to_big, "New tasks start on a big CPU, with a full load.")
        .boolean("wake_migration", &p::wake_migration, "A waking task changes cluster by its load.")
        .boolean("forced_up_migration", &p::forced_up_migration,
                 "A task running on a little CPU above up_threshold is moved up at once.")
        .boolean("idle_pull", &p::idle_pull, "An idle big CPU pulls the heaviest such task.")
        .boolean("offload", &p::offload,
                 "A big CPU with tasks waiting pushes one to an idle little CPU.")
        .boolean("prio_filter", &p::prio_filter,
                 "Tasks at nice prio_filter_nice or above never go up (off in the TC2 defconfig).")
        .integer("prio_filter_nice", &p::prio_filter_nice, -20, 19, "", "The nice level of prio_filter.")
        .boolean("packing", &p::packing,
                 "Small tasks are packed on the first little CPU (off on TC2) ...")
        .integer("packing_limit", &p::packing_limit, 0, 1024, "load (0..1024)",
                 "... while its load stays below this.");
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
            "it, sets the core's error bit (16 + 4 * cluster + core) in PWC_STATUS, raises its interrupt, "
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
const schema<scenario_config>& scenario_schema(bool soc_required = true)
{
    if (soc_required) {
        static const schema<scenario_config>* const with_soc = new schema<scenario_config>(make_scenario_schema(true));
        return *with_soc;
    }
    static const schema<scenario_config>* const without_soc = new schema<scenario_config>(make_scenario_schema(false));
    return *without_soc;
}

} // namespace

// --- files --------------------------------------------------------------------------------

bool read_source(const std::string& path, std::string& text, std::string& error)
{
    if (path.rfind(builtin_prefix, 0) == 0) {
        const char* content = embedded_file(path.substr(std::strlen(builtin_prefix)));
        if (!content) {
            error = "no such built-in file";
            return false;
        }
        text = content;
        return true;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = std::strerror(EISDIR);
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return true;
}

namespace {

std::string resolve_relative(const std::string& from_file, const std::string& ref)
{
    bool builtin = from_file.rfind(builtin_prefix, 0) == 0;
    std::filesystem::path base(builtin ? from_file.substr(std::strlen(builtin_prefix)) : from_file);
    std::filesystem::path target(ref);
    if (ref.rfind(builtin_prefix, 0) == 0 || target.is_absolute())
        return ref;
    std::string joined = (base.parent_path() / target).lexically_normal().string();
    return builtin ? builtin_prefix + joined : joined;
}

// --- semantic checks ----------------------------------------------------------------------

// The governor's own tunables that need more than a range: interactive's target_loads (as
// the kernel parses it) and conservative's thresholds in order.
void check_governor_tunables(const governor_config& g, const std::string& prefix, const mark& at,
                             diagnostics& d)
{
    bls_interactive_tunables it{};
    const int col = bls_interactive_parse_target_loads(&it, g.interactive.target_loads.c_str());
    if (col)
        d.error(at, prefix + "interactive.target_loads: '" + g.interactive.target_loads +
                        "' is not 'L0 F1:L1 ...' (loads 1..100 %, frequencies ascending); the problem is "
                        "at character " + std::to_string(col));
    if (g.conservative.down_threshold_pct >= g.conservative.up_threshold_pct)
        d.error(at, prefix + "conservative.down_threshold_pct: " +
                        std::to_string(g.conservative.down_threshold_pct) +
                        " % must be below up_threshold_pct (" +
                        std::to_string(g.conservative.up_threshold_pct) + " %)");
}

// The interactive keys its 2012 generation does not have (docs/os.md).
const std::vector<std::string>& interactive_2013_only()
{
    static const std::vector<std::string> keys = {"target_loads", "timer_slack_us", "boostpulse_duration_us",
                                                  "io_is_busy"};
    return keys;
}

// Whether interactive's generation @variant has the tunable @key; otherwise the message why not.
bool interactive_has(const std::string& variant, const std::string& key, std::string& why)
{
    if (variant == "2012" &&
        std::find(interactive_2013_only().begin(), interactive_2013_only().end(), key) != interactive_2013_only().end()) {
        why = "the 2012 generation of interactive has no tunable '" + key + "' (variant 2013 has)";
        return false;
    }
    return true;
}

// The interactive governor's generation: its defaults for the keys the scenario did not give
// (the struct's own are 2013's, from the kernel's table of both).
void apply_interactive_variant(scenario_config& c, const bind_context& ctx)
{
    interactive_config& i = c.governor.interactive;
    bls_interactive_tunables d{};
    bls_interactive_default_tunables(&d, i.variant == "2012" ? BLS_INTERACTIVE_2012 : BLS_INTERACTIVE_2013);
    auto fill = [&](const char* key, int& field, long long value) {
        if (!ctx.given(std::string("governor.interactive.") + key))
            field = static_cast<int>(value);
    };
    fill("go_hispeed_load_pct", i.go_hispeed_load_pct, d.go_hispeed_load);
    fill("min_sample_time_us", i.min_sample_time_us, d.min_sample_time_us);
    fill("timer_rate_us", i.timer_rate_us, d.timer_rate_us);
    fill("above_hispeed_delay_us", i.above_hispeed_delay_us, d.above_hispeed_delay_us);
}

void check_governor(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    for (const std::string& key : interactive_2013_only()) {
        const std::string path = "governor.interactive." + key;
        std::string why;
        if (ctx.given(path) && !interactive_has(c.governor.interactive.variant, key, why))
            d.error(ctx.where(path), path + ": " + why);
    }
    check_governor_tunables(c.governor, "governor.", ctx.where("governor"), d);
    governor_config g = c.governor;
    double last = 0;
    for (std::size_t i = 0; i < c.governor.writes.size(); i++) {
        const tunable_write& w = c.governor.writes[i];
        const std::string p = "governor.writes[" + std::to_string(i) + "]";
        if (w.at_ms < last)
            d.error(ctx.where(p + ".at_ms"), p + ".at_ms: writes go in time order; " +
                                                 cfg::format_number(w.at_ms) + " ms is before the previous " +
                                                 cfg::format_number(last) + " ms");
        last = w.at_ms;
        // (Only the keys checked together: an earlier bad value is reported once.)
        if (apply_tunable_write(g, w, ctx.where(p + ".value"), d) &&
            (w.tunable == "target_loads" || w.tunable == "up_threshold_pct" || w.tunable == "down_threshold_pct"))
            check_governor_tunables(g, p + ": after it, governor.", ctx.where(p + ".value"), d);
    }
}

// A replay trace: "time_ms,task,util_pct[,cpu]" rows after a header line. Each task becomes a
// periodic task whose utilisation steps at each of its rows.
void load_replay_csv(const std::string& file, workload_config& w, const mark& at, const cpu_limit& lim, diagnostics& d)
{
    std::string text, error;
    if (!read_source(file, text, error)) {
        d.error(at, "workload.replay.csv: cannot read '" + w.replay.csv + "': " + error);
        return;
    }
    const std::string shown = file.rfind(builtin_prefix, 0) == 0 ? file.substr(std::strlen(builtin_prefix)) : file;
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    bool header = false, with_cpu = false;
    std::map<std::string, std::size_t> index;
    std::vector<workloads::task_params>& tasks = w.replay_tasks;
    tasks.clear();
    while (std::getline(in, line)) {
        lineno++;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::pair<std::string, int>> cells; // text, column (1-based)
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = line.find(',', start);
            cells.push_back({line.substr(start, comma == std::string::npos ? std::string::npos : comma - start),
                             static_cast<int>(start) + 1});
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        const mark here{shown, lineno, 1};
        if (!header) {
            header = true;
            const std::string h = line;
            if (h == "time_ms,task,util_pct,cpu")
                with_cpu = true;
            else if (h != "time_ms,task,util_pct") {
                d.error(here, "replay header must be 'time_ms,task,util_pct' or 'time_ms,task,util_pct,cpu', got '" + h + "'");
                return;
            }
            continue;
        }
        if (cells.size() != (with_cpu ? 4u : 3u)) {
            d.error(here, "expected " + std::to_string(with_cpu ? 4 : 3) + " comma-separated values, got " +
                              std::to_string(cells.size()));
            continue;
        }
        auto number = [&](std::size_t k, double lo, double hi, double& v) {
            node n = node::scalar(cells[k].first, {shown, lineno, cells[k].second});
            if (!cfg::parse_real(n, v) || v < lo || v > hi) {
                d.error(n.at, "'" + cells[k].first + "' is not a number in " + cfg::format_number(lo) + ".." +
                                  cfg::format_number(hi));
                return false;
            }
            return true;
        };
        double t = 0, u = 0, cpu = -1;
        if (!number(0, 0, 1e9, t) || !number(2, 0, 100, u) || (with_cpu && !number(3, 0, BLS_MAX_CPUS - 1, cpu)))
            continue;
        const std::string& name = cells[1].first;
        if (name.empty()) {
            d.error({shown, lineno, cells[1].second}, "the task name is empty");
            continue;
        }
        auto it = index.find(name);
        if (it == index.end()) {
            if (tasks.size() == BLS_MAX_TASKS) {
                d.error({shown, lineno, cells[1].second}, "more than " + std::to_string(BLS_MAX_TASKS) + " tasks");
                return;
            }
            workloads::task_params tp;
            tp.name = name;
            tp.period_ms = w.replay.period_ms;
            tp.mem_fraction = w.replay.mem_fraction;
            tp.working_set_kb = w.replay.working_set_kb;
            if (with_cpu && w.replay.pin_cpus) {
                tp.cpus = {static_cast<int>(cpu)};
                if (tp.cpus[0] >= lim.cpus) // the pin of its first row (workload.replay.pin_cpus)
                    d.error({shown, lineno, cells[3].second},
                            "task '" + name + "' is pinned (workload.replay.pin_cpus) to cpu" +
                                std::to_string(tp.cpus[0]) + ", which does not exist (the SoC has " +
                                std::to_string(lim.cpus) + lim.what);
            }
            it = index.emplace(name, tasks.size()).first;
            tasks.push_back(tp);
        }
        workloads::task_params& tp = tasks[it->second];
        if (!tp.util_steps.empty() && t < tp.util_steps.back().at_ms) {
            d.error(here, "task '" + name + "': rows go in time order; " + cells[0].first + " ms is before its previous " +
                              cfg::format_number(tp.util_steps.back().at_ms) + " ms");
            continue;
        }
        tp.util_steps.push_back({t, u});
    }
    if (!header)
        d.error(mark{shown, 1, 1}, "the replay file is empty (a header line 'time_ms,task,util_pct' first)");
}

// Whether the switcher runs at any time of the run: a switched mode at boot or later, or
// switcher.activity turning it on.
bool ever_switched(const scenario_config& c)
{
    bool on = mode_switched(c.mode);
    for (const mode_change& m : c.mode_changes)
        on |= mode_switched(m.mode);
    for (const activity_change& a : c.switcher.activity)
        on |= a.active;
    return on;
}

// The CPUs a task may be pinned to: those that exist whether the switcher is on or off (with it
// on at any time, by the mode or a change, only the logical CPUs it pairs).
cpu_limit pinnable_cpus(const scenario_config& c)
{
    const bool ever_on = ever_switched(c);
    cpu_limit lim;
    lim.cpus = logical_cpus(c);
    if (ever_on && c.soc.clusters.size() == 2)
        lim.cpus = std::min(c.soc.clusters[0].cores, c.soc.clusters[1].cores);
    lim.what = ever_on ? " logical CPUs with the switcher on)" : " CPUs)";
    // Deadline admission: the real-time bandwidth of each of those CPUs (bls_sched_add_task
    // admits against the CPUs active at boot, never fewer).
    if (c.sched.rt_runtime_us >= 0) {
        const std::uint64_t per_cpu = bls_sched_bw(1000ull * static_cast<unsigned>(c.sched.rt_period_us),
                                                   1000ull * static_cast<unsigned>(c.sched.rt_runtime_us));
        lim.dl_bw = per_cpu * static_cast<std::uint64_t>(lim.cpus);
        char share[32];
        std::snprintf(share, sizeof share, "%.4g%%", 100.0 * c.sched.rt_runtime_us / c.sched.rt_period_us);
        lim.dl_bw_what = std::string(share) + " of each of the " + std::to_string(lim.cpus) +
                         (ever_on ? " logical CPUs with the switcher on" : " CPUs") +
                         " (sched.rt_runtime_us of sched.rt_period_us; -1 lifts the limit)";
    }
    return lim;
}

// Whether the switcher is on at @at_ms as the scenario asks for it: the mode at boot, then the
// last change (mode_changes, switcher.activity) before that time.
bool switched_at(const scenario_config& c, double at_ms)
{
    bool on = mode_switched(c.mode);
    double latest = -1;
    for (const mode_change& m : c.mode_changes)
        if (m.at_ms < at_ms && m.at_ms >= latest) {
            latest = m.at_ms;
            on = mode_switched(m.mode);
        }
    for (const activity_change& a : c.switcher.activity)
        if (a.at_ms < at_ms && a.at_ms >= latest) {
            latest = a.at_ms;
            on = a.active;
        }
    return on;
}

// The modes and their changes: what each needs of the SoC, and the changes' order.
void check_modes(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    // Every place a mode is named: (key, mode).
    std::vector<std::pair<std::string, std::string>> named = {{"mode", c.mode}};
    for (std::size_t i = 0; i < c.mode_changes.size(); i++)
        named.emplace_back("mode_changes[" + std::to_string(i) + "].mode", c.mode_changes[i].mode);
    const std::string nclusters = std::to_string(c.soc.clusters.size());
    bool eas_reported = false;
    for (const auto& [key, mode] : named) {
        if (mode_switched(mode) && c.soc.clusters.size() != 2)
            d.error(ctx.where(key), key + ": " + mode + " runs the switcher, which pairs the CPUs of two "
                                                       "clusters; the SoC has " + nclusters);
        if (mode == "hmp" && c.soc.clusters.size() < 2)
            d.error(ctx.where(key), key + ": hmp sorts tasks between a big and a little cluster; the SoC has " +
                                        nclusters);
        if (mode == "eas" && !eas_reported) {
            // EAS places by the SoC's energy model: a busy core's power at every OPP.
            for (std::size_t i = 0; i < c.soc.clusters.size() && !eas_reported; i++)
                for (std::size_t k = 0; k < c.soc.clusters[i].opps.size() && !eas_reported; k++)
                    if (!(c.soc.clusters[i].opps[k].core_power_eas > 0)) {
                        d.error(ctx.where(key), key + ": eas places tasks by the SoC's EAS energy model; soc.clusters[" +
                                                    std::to_string(i) + "].opps[" + std::to_string(k) +
                                                    "].core_power_eas is " +
                                                    cfg::format_number(c.soc.clusters[i].opps[k].core_power_eas) +
                                                    " (every OPP's must be above 0)");
                        eas_reported = true;
                    }
        }
    }
    if (!c.mode_changes.empty() && !c.switcher.activity.empty())
        d.error(ctx.where("mode_changes"), "mode_changes: not together with switcher.activity (on is mode iks, "
                                           "off mode smp: give those changes in mode_changes)");
    for (std::size_t i = 1; i < c.mode_changes.size(); i++)
        if (c.mode_changes[i].at_ms < c.mode_changes[i - 1].at_ms) {
            const std::string p = "mode_changes[" + std::to_string(i) + "].at_ms";
            d.error(ctx.where(p), p + ": changes go in time order; " + cfg::format_number(c.mode_changes[i].at_ms) +
                                      " ms is before the previous " +
                                      cfg::format_number(c.mode_changes[i - 1].at_ms) + " ms");
        } else if (c.mode_changes[i].at_ms == c.mode_changes[i - 1].at_ms) {
            // Only the last would be taken: say which mode is meant.
            const std::string p = "mode_changes[" + std::to_string(i) + "].at_ms";
            d.error(ctx.where(p), p + ": two changes at one instant (" + cfg::format_number(c.mode_changes[i].at_ms) +
                                      " ms, as mode_changes[" + std::to_string(i - 1) + "]); keep one");
        }
    if (c.hmp.down_threshold >= c.hmp.up_threshold) {
        // Located where the pair was last touched: the down threshold, unless only the up one was given.
        const bool up_only = ctx.given("hmp.up_threshold") && !ctx.given("hmp.down_threshold");
        d.error(ctx.where(up_only ? "hmp.up_threshold" : "hmp.down_threshold"),
                "hmp.down_threshold: " + std::to_string(c.hmp.down_threshold) + " must be below up_threshold (" +
                    std::to_string(c.hmp.up_threshold) + ")");
    }
}

// The workload's own rules, and CPU hotplug.
// What a file a key names is relative to: the scenario, or the working directory for a path
// given on the command line (--set), as a path typed in a shell is read (the SoC's likewise).
std::string relative_to(const mark& given_at, const std::string& scenario_path)
{
    return given_at.file == "--set" ? std::string("./") : scenario_path;
}

// A file a scenario names (relative to it) as the run read it: absolute (or built in), so
// that effective-config.yaml, written elsewhere, names the same file when it is run again.
std::string source_path_as_run(const std::string& scenario_path, const std::string& ref)
{
    const std::string resolved = resolve_relative(scenario_path, ref);
    if (resolved.rfind(builtin_prefix, 0) == 0)
        return resolved;
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(resolved, ec);
    return ec ? resolved : abs.lexically_normal().string();
}

// A task's class and real-time priority agree: 1..99 with SCHED_FIFO and SCHED_RR, 0 (none)
// with SCHED_OTHER (sched_setscheduler's EINVAL).
void check_class(workloads::task_info::policy_t policy, int rt_priority, const std::string& p,
                 const bind_context& ctx, diagnostics& d)
{
    const bool rt = policy != workloads::task_info::normal;
    if (rt && rt_priority < 1)
        d.error(ctx.where(p + ".rt_priority"), p + ".rt_priority: a real-time task (" +
                                                   (policy == workloads::task_info::fifo ? "SCHED_FIFO" : "SCHED_RR") +
                                                   ") needs a priority 1..99");
    else if (!rt && rt_priority != 0)
        d.error(ctx.where(p + ".rt_priority"), p + ".rt_priority: " + std::to_string(rt_priority) +
                                                   " is a real-time priority, but the policy is SCHED_OTHER: give "
                                                   "policy SCHED_FIFO or SCHED_RR, or use nice");
}

void check_workload(scenario_config& c, const std::string& path, const bind_context& ctx, diagnostics& d)
{
    workload_config& w = c.workload;
    for (std::size_t i = 0; i < w.tasks.size(); i++)
        check_class(w.tasks[i].policy, w.tasks[i].rt_priority, "workload.tasks[" + std::to_string(i) + "]", ctx, d);
    check_class(w.audio.decoder.policy, w.audio.decoder.rt_priority, "workload.audio.decoder", ctx, d);
    check_class(w.audio.mixer.policy, w.audio.mixer.rt_priority, "workload.audio.mixer", ctx, d);
    if (w.kind != "constant" && !w.tasks.empty())
        d.error(ctx.where("workload.tasks"), "workload.tasks: only with kind: constant (this workload is " + w.kind + ")");
    if (w.kind != "rtapp" && (!w.rtapp.is_null() || !w.rtapp_json.empty()))
        d.error(ctx.where(w.rtapp_json.empty() ? "workload.rtapp" : "workload.rtapp_json"),
                std::string(w.rtapp_json.empty() ? "workload.rtapp" : "workload.rtapp_json") +
                    ": only with kind: rtapp (this workload is " + w.kind + ")");
    if (w.kind != "rtapp" && !w.rtapp_taskgroups.empty())
        d.error(ctx.where("workload.rtapp_taskgroups"),
                "workload.rtapp_taskgroups: only with kind: rtapp (this workload is " + w.kind + ")");
    if (w.kind == "replay") {
        if (w.replay.csv.empty())
            d.error(ctx.where("workload.replay"), "workload.replay.csv: kind replay needs the trace's CSV file");
        else {
            const mark at = ctx.where("workload.replay.csv");
            const std::string from = relative_to(at, path);
            load_replay_csv(resolve_relative(from, w.replay.csv), w, at, pinnable_cpus(c), d);
            w.replay.csv = source_path_as_run(from, w.replay.csv);
        }
    }
    if (w.kind == "rtapp") {
        const bool inline_doc = !w.rtapp.is_null(), file = !w.rtapp_json.empty();
        if (inline_doc == file)
            d.error(ctx.where("workload"), "workload: kind rtapp needs exactly one of rtapp (the document) and "
                                           "rtapp_json (a file)");
        else if (inline_doc)
            parse_rtapp(w.rtapp, d, w.rtapp_params, "workload.rtapp", pinnable_cpus(c));
        else {
            const mark at = ctx.where("workload.rtapp_json");
            const std::string from = relative_to(at, path);
            load_rtapp_json(resolve_relative(from, w.rtapp_json), d, w.rtapp_params, &at, pinnable_cpus(c));
            w.rtapp_json = source_path_as_run(from, w.rtapp_json);
        }
        // The shares given to its taskgroups: each names one, once.
        std::set<std::string> seen;
        for (std::size_t i = 0; i < w.rtapp_taskgroups.size(); i++) {
            const taskgroup_shares& g = w.rtapp_taskgroups[i];
            const std::string p = "workload.rtapp_taskgroups[" + std::to_string(i) + "].path";
            const auto& names = w.rtapp_params.taskgroups;
            const auto it = std::find(names.begin(), names.end(), g.path);
            if (d.ok() && it == names.end())
                d.error(ctx.where(p), p + ": '" + g.path + "' is not a taskgroup of the rt-app document" +
                                          (names.empty() ? std::string(" (it has none)") : ""));
            else if (!seen.insert(g.path).second)
                d.error(ctx.where(p), p + ": '" + g.path + "' is given shares twice");
            else if (it != names.end())
                w.rtapp_params.taskgroup_shares[static_cast<std::size_t>(it - names.begin())] =
                    static_cast<unsigned>(g.shares);
        }
        if (d.ok() && rtapp_nevents(w.rtapp_params) > workloads::max_events) // the music player uses none
            d.error(ctx.where("workload"), "workload: the rt-app document needs more than " +
                                               std::to_string(workloads::max_events) + " events");
    }
    {
        // Every kind's tasks, and the music player's two beside it, share the kernel's task table.
        std::size_t n = 0;
        std::string what;
        if (w.kind == "constant")
            n = w.tasks.size(), what = " constant tasks";
        else if (w.kind == "replay")
            n = w.replay_tasks.size(), what = " replayed tasks";
        else if (w.kind == "bbench")
            n = 3, what = " browser threads";
        else if (w.kind == "audio")
            n = 2, what = " music player threads";
        else if (w.kind == "rtapp") {
            for (const workloads::rtapp_thread& t : w.rtapp_params.threads)
                n += static_cast<std::size_t>(t.instances) + static_cast<std::size_t>(t.forks);
            what = " rt-app threads";
        }
        const std::size_t extra = w.audio.enabled ? 2 : 0;
        if (n + extra > BLS_MAX_TASKS)
            d.error(ctx.where(extra ? "workload.audio.enabled" : "workload"),
                    std::string(extra ? "workload.audio.enabled" : "workload") + ": " + std::to_string(n) + what +
                        (extra ? " and the music player's 2" : "") + "; the kernel runs at most " +
                        std::to_string(BLS_MAX_TASKS) + " tasks");
    }
    if (w.kind == "bbench") {
        // The phases split a page's work: their shares add up to the whole of it.
        const workloads::bbench_phases& ph = w.bbench.phases;
        const double sum = ph.parse.share + ph.script.share + ph.style.share + ph.layout.share + ph.paint.share +
                           ph.composite.share;
        if (std::fabs(sum - 1.0) > 1e-9)
            d.error(ctx.where("workload.bbench.phases"),
                    "workload.bbench.phases: the shares of parse, script, style, layout, paint and composite add "
                    "up to " + cfg::format_number(sum) + ", not 1 (each is a share of a page's load work)");
    }
    if (w.kind == "audio" && w.audio.enabled)
        d.error(ctx.where("workload.audio.enabled"),
                "workload.audio.enabled: kind audio is the music alone; 'enabled' adds it beside another kind");

    // Hotplug.
    int ncpus = 0;
    for (const model::cluster_params& cl : c.soc.clusters)
        ncpus += cl.cores;
    if (c.online_cpus.empty())
        return;
    uint32_t online = 0;
    for (std::size_t k = 0; k < c.online_cpus.size(); k++) {
        const std::string p = "online_cpus[" + std::to_string(k) + "]";
        const int cpu = c.online_cpus[k];
        if (cpu >= ncpus)
            d.error(ctx.where(p), p + ": cpu" + std::to_string(cpu) + " does not exist (the SoC has " +
                                      std::to_string(ncpus) + " CPUs)");
        else if (online >> cpu & 1u)
            d.error(ctx.where(p), p + ": cpu" + std::to_string(cpu) + " is listed twice");
        online |= 1u << cpu;
    }
    if (ever_switched(c) || !c.switcher.activity.empty())
        d.error(ctx.where("online_cpus"), "online_cpus: CPU hotplug is for runs without the switcher "
                                          "(mode smp, hmp or eas, in mode_changes too, and no switcher.activity)");
    for (std::size_t k = 0; k < c.governor.setspeed.size(); k++) {
        const int cpu = c.governor.setspeed[k].cpu;
        if (cpu >= 0 && cpu < 32 && !(online >> cpu & 1u)) {
            const std::string p = "governor.setspeed[" + std::to_string(k) + "].cpu";
            d.error(ctx.where(p), p + ": cpu" + std::to_string(cpu) + " is offline (online_cpus)");
        }
    }
    auto check_affinity = [&](const std::vector<int>& cpus, const std::string& p, const std::string& who) {
        if (cpus.empty())
            return;
        for (int cpu : cpus)
            if (cpu < 32 && (online >> cpu & 1u))
                return;
        d.error(ctx.where(p), p + ": " + who + " may run only on offline CPUs (online_cpus)");
    };
    for (std::size_t i = 0; i < w.tasks.size(); i++)
        check_affinity(w.tasks[i].cpus, "workload.tasks[" + std::to_string(i) + "].cpus", "task '" + w.tasks[i].name + "'");
    check_affinity(w.bbench.cpus, "workload.bbench.cpus", "the browser");
    check_affinity(w.audio.cpus, "workload.audio.cpus", "the music player");
}

void check(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    std::set<std::string> names;
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++) {
        const model::cluster_params& cl = c.soc.clusters[i];
        const std::string p = "soc.clusters[" + std::to_string(i) + "]";
        if (!names.insert(cl.name).second)
            d.error(ctx.where(p + ".name"), p + ".name: cluster name '" + cl.name + "' is used twice");
        if (cl.opps.size() > BLS_MAX_OPPS)
            d.error(ctx.where(p + ".opps"), p + ".opps: " + std::to_string(cl.opps.size()) +
                                                " OPPs; the kernel's cpufreq tables hold " +
                                                std::to_string(BLS_MAX_OPPS) + " (a limit of this model)");
        // A power model's coefficients have no sensible default: 0 would report 0 J, and no
        // leakage an idle cluster that costs nothing.
        if (!ctx.given(p + ".eas_mw_per_unit"))
            d.error(ctx.where(p), p + ".eas_mw_per_unit: required: how many mW one of the cluster's EAS units is "
                                      "(TC2: A15 0.1872, A7 0.1432; docs/calibration.md)");
        if (!ctx.given(p + ".leakage"))
            d.error(ctx.where(p), p + ".leakage: required: the cluster's static power while powered, "
                                      "{shared_mw, core_mw, l2_uw_per_kb} at ref_mv (scripts/calibrate-power "
                                      "derives it from the EAS tables; docs/calibration.md)");
        if (c.soc.energy.model == model::power_model_kind::cv2f)
            for (const char* k : {"core_dyn_uw_per_mhz_v2", "cluster_dyn_uw_per_mhz_v2"})
                if (!ctx.given(p + ".cv2f." + k))
                    d.error(ctx.where(p + ".cv2f." + k),
                            p + ".cv2f." + k + ": required with soc.energy.model cv2f (docs/calibration.md)");
        for (std::size_t k = 1; k < cl.opps.size(); k++) {
            const std::string q = p + ".opps[" + std::to_string(k) + "]";
            if (cl.opps[k].freq_mhz <= cl.opps[k - 1].freq_mhz)
                d.error(ctx.where(q + ".freq_mhz"),
                        q + ".freq_mhz: OPPs must be in strictly ascending frequency order");
            if (cl.opps[k].voltage_mv < cl.opps[k - 1].voltage_mv)
                d.error(ctx.where(q + ".voltage_mv"),
                        q + ".voltage_mv: voltage must not fall as frequency rises");
            // A faster clock at no lower a supply draws no less (C*V^2*f): a busy core costs at
            // least what it costs an OPP below. (Not the cluster's power: measured tables, TC2's
            // A7 one among them, dip where the static power they contain was measured lower.)
            if (cl.opps[k].freq_mhz > cl.opps[k - 1].freq_mhz &&
                cl.opps[k].core_power_eas < cl.opps[k - 1].core_power_eas)
                d.error(ctx.where(q + ".core_power_eas"),
                        q + ".core_power_eas: a busy core's power must not fall as frequency rises: " +
                            cfg::format_number(cl.opps[k].core_power_eas) + " at " +
                            std::to_string(cl.opps[k].freq_mhz) + " MHz is below opps[" + std::to_string(k - 1) +
                            "]'s " + cfg::format_number(cl.opps[k - 1].core_power_eas) + " at " +
                            std::to_string(cl.opps[k - 1].freq_mhz) + " MHz");
        }
        // The scheduler's EAS idle costs draw no more than the states above them: powered down
        // no more than powered and idle, idle no more than busy at any OPP.
        if (cl.off_power_eas > cl.wfi_power_eas)
            d.error(ctx.where(p + ".off_power_eas"),
                    p + ".off_power_eas: a cluster powered down may not draw more than powered and idle "
                        "(wfi_power_eas " + cfg::format_number(cl.wfi_power_eas) + ")");
        for (std::size_t k = 0; k < cl.opps.size(); k++)
            if (cl.wfi_power_eas > cl.opps[k].cluster_power_eas) {
                d.error(ctx.where(p + ".wfi_power_eas"),
                        p + ".wfi_power_eas: a cluster powered and idle may not draw more than busy (opps[" +
                            std::to_string(k) + "].cluster_power_eas " +
                            cfg::format_number(cl.opps[k].cluster_power_eas) + ")");
                break;
            }
        // The hardware's busy cluster (the EAS table, less its cores' leakage, plus any L2
        // beyond the one it was measured with) draws at least what it draws idle (leakage and
        // clock): the table was measured with the cluster's static power in it.
        if (c.soc.energy.model == model::power_model_kind::eas)
            for (std::size_t k = 0; k < cl.opps.size(); k++) {
                const model::opp_point& o = cl.opps[k];
                const double busy = model::eas_uncore_busy_mw(cl, static_cast<int>(k), o.voltage_mv);
                const double idle = model::uncore_idle_mw(cl, o.freq_mhz, o.voltage_mv);
                if (busy >= idle * (1 - 1e-12))
                    continue;
                const int eas_kb = cl.eas_l2_kb > 0 ? cl.eas_l2_kb : cl.caches.l2_kb;
                char buf[512];
                if (eas_kb != cl.caches.l2_kb && ctx.given(p + ".eas_l2_kb")) {
                    // The leakage describes the cluster the tables were measured on: with
                    // eas_l2_kb of L2, whose leakage the table's static power must contain.
                    std::snprintf(buf, sizeof buf,
                                  "tables measured with %d KiB of L2 contain its leakage, %.4g mW at %d MHz "
                                  "beside the shared logic's and the cores', more than the table's %.4g mW: "
                                  "derive the leakage for that L2 (scripts/calibrate-power)",
                                  eas_kb, model::l2_leakage_mw(cl, eas_kb, o.voltage_mv), o.freq_mhz,
                                  o.cluster_power_eas * cl.eas_mw_per_unit);
                    const std::string q = p + ".eas_l2_kb";
                    d.error(ctx.where(q), q + ": " + buf);
                    break;
                }
                std::snprintf(buf, sizeof buf,
                              "busy at %d MHz this cluster's shared logic draws %.4g mW (the table's %.4g, "
                              "less %d cores' leakage%s), below the %.4g mW it draws idle: its leakage and "
                              "clock (leakage, clock_uw_per_mhz_v2) exceed what the table measured; lower "
                              "them, or check the table",
                              o.freq_mhz, busy, o.cluster_power_eas * cl.eas_mw_per_unit, cl.cores,
                              eas_kb != cl.caches.l2_kb ? ", with the L2 leakage of caches.l2_kb - eas_l2_kb" : "",
                              idle);
                const std::string q = p + ".opps[" + std::to_string(k) + "].cluster_power_eas";
                d.error(ctx.where(q), q + ": " + buf);
                break;
            }
        if (cl.boot_freq_mhz != 0 &&
            std::none_of(cl.opps.begin(), cl.opps.end(),
                         [&](const model::opp_point& o) { return o.freq_mhz == cl.boot_freq_mhz; }))
            d.error(ctx.where(p + ".boot_freq_mhz"), p + ".boot_freq_mhz: " +
                                                         std::to_string(cl.boot_freq_mhz) +
                                                         " MHz is not an OPP of cluster '" +
                                                         cl.name + "'");
    }

    // Device windows on the system bus may not overlap.
    struct window {
        const char* key;
        std::uint64_t base, size;
    };
    const window windows[] = {
        {"soc.gic.dist_base", static_cast<std::uint64_t>(c.soc.gic.dist_base), 0x1000},
        {"soc.gic.cpu_base", static_cast<std::uint64_t>(c.soc.gic.cpu_base), 0x2000},
        {"soc.cci.base", static_cast<std::uint64_t>(c.soc.cci.base), 0x10000},
        {"soc.sram.base", static_cast<std::uint64_t>(c.soc.sram.base), static_cast<std::uint64_t>(c.soc.sram.size_kb) * 1024},
        {"soc.spc.base", static_cast<std::uint64_t>(c.soc.spc.base), 0x100},
    };
    for (std::size_t i = 0; i < std::size(windows); i++)
        for (std::size_t k = 0; k < i; k++) {
            const window &a = windows[k], &b = windows[i];
            if (a.base < b.base + b.size && b.base < a.base + a.size) {
                char buf[160];
                std::snprintf(buf, sizeof buf, ": [0x%llx, 0x%llx) overlaps %s's [0x%llx, 0x%llx)",
                              static_cast<unsigned long long>(b.base), static_cast<unsigned long long>(b.base + b.size),
                              a.key, static_cast<unsigned long long>(a.base),
                              static_cast<unsigned long long>(a.base + a.size));
                d.error(ctx.where(b.key), std::string(b.key) + buf);
            }
        }

    // Each cluster behind an ACE interface of the interconnect, one cluster per interface.
    const model::cci_variant cci = c.soc.cci.variant;
    const std::string cci_name = model::cci_product_name(cci);
    const std::vector<int> ace = ace_ports(cci);
    std::set<int> ports;
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++) {
        const std::string p = "soc.clusters[" + std::to_string(i) + "].cci_port";
        const int port = c.soc.clusters[i].cci_port;
        if (port == -1 && i >= ace.size()) {
            d.error(ctx.where(p), p + ": the " + cci_name + " has " + std::to_string(ace.size()) +
                                      " ACE interfaces; cluster " + std::to_string(i + 1) +
                                      " cannot be made coherent (soc.cci.model: cci-550 has six)");
            continue;
        }
        if (port >= 0 && !model::cci_is_ace(cci, static_cast<unsigned>(port))) {
            d.error(ctx.where(p), p + ": S" + std::to_string(port) + " is not an ACE interface of the " +
                                      cci_name + "; clusters need one of " + port_list(ace));
            continue;
        }
        const int resolved = port == -1 ? ace[i] : port;
        if (!ports.insert(resolved).second)
            d.error(ctx.where(p), p + ": CCI slave interface S" + std::to_string(resolved) +
                                      " serves another cluster already");
    }
    // The GIC-400 has eight CPU interfaces (GICv2's limit: its target fields are 8 bits).
    int ncpus = 0;
    for (const model::cluster_params& cl : c.soc.clusters)
        ncpus += cl.cores;
    if (ncpus > static_cast<int>(model::gic_max_cpus))
        d.error(ctx.where("soc.clusters"), "soc.clusters: " + std::to_string(ncpus) +
                                               " cores; the GIC-400 serves at most " +
                                               std::to_string(model::gic_max_cpus) +
                                               " (GICv2's eight CPU interfaces)");
    if ((32 + c.soc.gic.spis) % 32 != 0)
        d.error(ctx.where("soc.gic.spis"), "soc.gic.spis: 32 + " + std::to_string(c.soc.gic.spis) +
                                               " is not a multiple of 32");
    else if (c.soc.spc.irq >= 32 + c.soc.gic.spis)
        d.error(ctx.where("soc.spc.irq"), "soc.spc.irq: interrupt " + std::to_string(c.soc.spc.irq) +
                                              " is beyond the GIC's " + std::to_string(32 + c.soc.gic.spis) +
                                              " (soc.gic.spis)");

    for (const auto& setting : c.governor.freq_mhz) {
        // (Named copies: a lambda may not capture a structured binding in C++17.)
        const std::string& cluster = setting.first;
        const int mhz = setting.second;
        const std::string p = "governor.freq_mhz." + cluster;
        auto it = std::find_if(c.soc.clusters.begin(), c.soc.clusters.end(),
                               [&](const model::cluster_params& cl) { return cl.name == cluster; });
        if (it == c.soc.clusters.end()) {
            d.error(ctx.where(p), p + ": no cluster named '" + cluster + "'");
            continue;
        }
        if (std::none_of(it->opps.begin(), it->opps.end(),
                         [&](const model::opp_point& o) { return o.freq_mhz == mhz; }))
            d.error(ctx.where(p), p + ": " + std::to_string(mhz) + " MHz is not an OPP of cluster '" +
                                      cluster + "'");
        else if (c.governor.name != "userspace")
            // Legal, and what Linux does (a boot frequency the governor then moves off), but
            // rarely what someone who writes it means.
            d.note(ctx.where(p), p + ": " + std::to_string(mhz) + " MHz at boot only: the " + c.governor.name +
                                     " governor sets the frequency from its start (to hold " + std::to_string(mhz) +
                                     " MHz, also set governor.name=userspace)");
    }

    // Another governor's tunables are kept but not read. Said when that is likely a slip:
    // written on the command line, or in the same file that names the governor. (A scenario
    // written for interactive, run with --set governor.name=ondemand, is not a slip.)
    for (const char* other : {"interactive", "ondemand", "conservative", "schedutil"}) {
        const std::string p = std::string("governor.") + other;
        if (c.governor.name == other || !ctx.given(p))
            continue;
        mark at = ctx.where(p);
        const bool slip = ctx.given_below_in(p, "--set", at) ||
                          (at.file != "--set" && at.file == ctx.where("governor.name").file);
        if (slip)
            d.note(at, p + ": " + other + "'s tunables are not read: the governor is " + c.governor.name);
    }

    check_modes(c, ctx, d);
    // A spurious interrupt every few nanoseconds would leave the run nothing else to simulate.
    if (c.faults.spurious_irq.interval_us > 0 && c.faults.spurious_irq.interval_us < 1)
        d.error(ctx.where("faults.spurious_irq.interval_us"),
                "faults.spurious_irq.interval_us: " + cfg::format_number(c.faults.spurious_irq.interval_us) +
                    " us is below 1 us (0: no spurious interrupts at random)");
    bool activity_on = false;
    for (const activity_change& a : c.switcher.activity)
        activity_on |= a.active;
    if (activity_on && c.soc.clusters.size() != 2)
        d.error(ctx.where("switcher.activity"), "switcher.activity: the switcher pairs the CPUs of "
                                                "two clusters; the SoC has " +
                                                    std::to_string(c.soc.clusters.size()));
    const bool ever_on = ever_switched(c);
    // Tasks stay on logical CPUs that exist whether the switcher is on or off: the constant
    // tasks, the browser and the music player here; rt-app threads and replayed tasks where
    // their files are read (check_workload).
    const cpu_limit pinnable = pinnable_cpus(c);
    const int nlogical = pinnable.cpus;
    const std::string& cpus_are = pinnable.what;
    std::set<std::string> task_names;
    for (std::size_t i = 0; i < c.workload.tasks.size(); i++)
        if (!task_names.insert(c.workload.tasks[i].name).second) {
            const std::string p = "workload.tasks[" + std::to_string(i) + "].name";
            d.error(ctx.where(p), p + ": task name '" + c.workload.tasks[i].name + "' is used twice");
        }
    for (std::size_t i = 0; i < c.workload.tasks.size(); i++) {
        const workloads::task_params& t = c.workload.tasks[i];
        for (std::size_t k = 1; k < t.util_steps.size(); k++)
            if (t.util_steps[k].at_ms < t.util_steps[k - 1].at_ms) {
                const std::string p = "workload.tasks[" + std::to_string(i) + "].util_steps[" + std::to_string(k) + "].at_ms";
                d.error(ctx.where(p), p + ": steps go in time order; " + cfg::format_number(t.util_steps[k].at_ms) +
                                          " ms is before the previous " +
                                          cfg::format_number(t.util_steps[k - 1].at_ms) + " ms");
            }
        for (std::size_t k = 0; k < t.cpus.size(); k++) {
            const std::string p = "workload.tasks[" + std::to_string(i) + "].cpus[" + std::to_string(k) + "]";
            if (t.cpus[k] >= nlogical)
                d.error(ctx.where(p), p + ": cpu" + std::to_string(t.cpus[k]) + " does not exist (the SoC has " +
                                          std::to_string(nlogical) + cpus_are);
        }
    }
    auto check_pinned = [&](const std::vector<int>& cpus, const std::string& key) {
        for (std::size_t k = 0; k < cpus.size(); k++) {
            const std::string p = key + "[" + std::to_string(k) + "]";
            if (cpus[k] >= nlogical)
                d.error(ctx.where(p), p + ": cpu" + std::to_string(cpus[k]) + " does not exist (the SoC has " +
                                          std::to_string(nlogical) + cpus_are);
        }
    };
    check_pinned(c.workload.bbench.cpus, "workload.bbench.cpus");
    check_pinned(c.workload.audio.cpus, "workload.audio.cpus");
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++) {
        const std::vector<model::idle_state_params>& st = c.soc.clusters[i].idle_states;
        const std::string p = "soc.clusters[" + std::to_string(i) + "].idle_states";
        if (!st.empty() && st.front().kind != "wfi")
            d.error(ctx.where(p + "[0].kind"), p + "[0].kind: the shallowest idle state must be wfi");
        for (std::size_t k = 1; k < st.size(); k++)
            if (st[k].target_residency_us < st[k - 1].target_residency_us)
                d.error(ctx.where(p + "[" + std::to_string(k) + "].target_residency_us"),
                        p + "[" + std::to_string(k) + "].target_residency_us: states go shallowest first: " +
                            std::to_string(st[k].target_residency_us) + " us is below the previous state's " +
                            std::to_string(st[k - 1].target_residency_us));
    }
    check_governor(c, ctx, d);
    if (c.sched.latency_us < c.sched.min_granularity_us)
        d.error(ctx.where("sched.latency_us"), "sched.latency_us: " + std::to_string(c.sched.latency_us) +
                                                   " us is shorter than sched.min_granularity_us (" +
                                                   std::to_string(c.sched.min_granularity_us) +
                                                   " us): the period holds at least one slice");
    if (c.sched.rt_runtime_us > c.sched.rt_period_us)
        d.error(ctx.where("sched.rt_runtime_us"),
                "sched.rt_runtime_us: " + std::to_string(c.sched.rt_runtime_us) + " us is longer than sched.rt_period_us (" +
                    std::to_string(c.sched.rt_period_us) + " us): Linux refuses it (-1 lifts the limit)");
    const int big = big_cluster(c.soc);
    // The cpufreq driver's merged table, as the kernel builds it: refused here when it would be,
    // and what the switcher's timeline is checked against.
    bls_vtable table;
    bool have_table = false;
    if (ever_on && big >= 0) {
        const model::cluster_params &bg = c.soc.clusters[static_cast<std::size_t>(big)],
                                    &lt = c.soc.clusters[static_cast<std::size_t>(1 - big)];
        if (!bg.opps.empty() && !lt.opps.empty() && bg.opps.size() <= BLS_MAX_OPPS && lt.opps.size() <= BLS_MAX_OPPS) {
            unsigned bm[BLS_MAX_OPPS], lm[BLS_MAX_OPPS];
            for (std::size_t i = 0; i < bg.opps.size(); i++)
                bm[i] = static_cast<unsigned>(bg.opps[i].freq_mhz);
            for (std::size_t i = 0; i < lt.opps.size(); i++)
                lm[i] = static_cast<unsigned>(lt.opps[i].freq_mhz);
            have_table = bls_cpufreq_build(&table, 0, bm, static_cast<unsigned>(bg.opps.size()), 1, lm,
                                           static_cast<unsigned>(lt.opps.size())) == 0;
            if (!have_table) {
                const std::string q = "soc.clusters[" + std::to_string(1 - big) + "].opps[" +
                                      std::to_string(lt.opps.size() - 1) + "].freq_mhz";
                d.error(ctx.where(q), q + ": with the switcher, the little cluster's OPPs at half their "
                                          "frequency (up to " +
                                          std::to_string(lt.opps.back().freq_mhz / 2) +
                                          " virtual MHz) must not pass the big cluster's (from " +
                                          std::to_string(bg.opps.front().freq_mhz) +
                                          " MHz): the cpufreq driver's merged table would interleave");
            }
        }
    }
    for (std::size_t i = 0; i < c.governor.setspeed.size(); i++) {
        const freq_request& r = c.governor.setspeed[i];
        const std::string p = "governor.setspeed[" + std::to_string(i) + "]";
        if (c.governor.name != "userspace") {
            d.error(ctx.where(p), p + ": scaling_setspeed is the userspace governor's; the governor is " +
                                      c.governor.name);
            break;
        }
        if (r.cpu >= nlogical) {
            d.error(ctx.where(p + ".cpu"), p + ".cpu: cpu" + std::to_string(r.cpu) +
                                               " does not exist (the SoC has " +
                                               std::to_string(nlogical) + cpus_are);
            continue;
        }
        // A virtual frequency while the switcher is on, a real one of the CPU's cluster without:
        // as the switcher is at boot or as the changes before the write leave it (the kernel
        // takes a change a little later, and refuses a write it cannot take, counting it).
        auto valid = [&](bool switched) {
            if (switched) // the merged virtual table (without one, its own error is reported above)
                return big >= 0 && (!have_table || bls_cpufreq_lookup(&table, static_cast<unsigned>(r.freq_mhz)) != nullptr);
            int cpu = r.cpu;
            for (const model::cluster_params& cl : c.soc.clusters) {
                if (cpu < cl.cores)
                    return std::any_of(cl.opps.begin(), cl.opps.end(),
                                       [&](const model::opp_point& o) { return o.freq_mhz == r.freq_mhz; });
                cpu -= cl.cores;
            }
            return false;
        };
        const bool on = switched_at(c, r.at_ms);
        const bool ok = valid(on) || valid(mode_switched(c.mode));
        if (!ok)
            d.error(ctx.where(p + ".freq_mhz"),
                    p + ".freq_mhz: " + std::to_string(r.freq_mhz) + " MHz is not " +
                        (on ? "in the switcher's virtual frequency table"
                                            : "an OPP of the CPU's cluster"));
    }
}

} // namespace

bool mode_switched(const std::string& mode) { return mode == "iks" || mode == "cluster-migration"; }

unsigned kernel_mode_of(const std::string& mode)
{
    if (mode == "smp")
        return BLS_MODE_SMP;
    if (mode == "iks")
        return BLS_MODE_IKS;
    if (mode == "cluster-migration")
        return BLS_MODE_CLUSTER_MIGRATION;
    if (mode == "hmp")
        return BLS_MODE_HMP;
    if (mode == "eas")
        return BLS_MODE_EAS;
    return 0;
}

const char* mode_name(unsigned kernel_mode)
{
    switch (kernel_mode) {
    case BLS_MODE_SMP: return "smp";
    case BLS_MODE_IKS: return "iks";
    case BLS_MODE_CLUSTER_MIGRATION: return "cluster-migration";
    case BLS_MODE_HMP: return "hmp";
    case BLS_MODE_EAS: return "eas";
    }
    return nullptr;
}

int big_cluster(const model::soc_params& soc)
{
    if (soc.clusters.size() != 2)
        return -1;
    auto top = [](const model::cluster_params& c) {
        return static_cast<double>(c.capacity_dmips_mhz) * (c.opps.empty() ? 0 : c.opps.back().freq_mhz);
    };
    return top(soc.clusters[1]) > top(soc.clusters[0]) ? 1 : 0;
}

int logical_cpus(const scenario_config& cfg)
{
    int total = 0;
    for (const model::cluster_params& c : cfg.soc.clusters)
        total += c.cores;
    if (!mode_switched(cfg.mode) || cfg.soc.clusters.size() != 2)
        return total;
    // Each CPU of the boot cluster (the first) pairs with one of the other.
    return std::min(cfg.soc.clusters[0].cores, cfg.soc.clusters[1].cores);
}

bool apply_tunable_write(governor_config& g, const tunable_write& w, const mark& at, diagnostics& diag)
{
    if (w.tunable == "boostpulse") {
        if (g.name != "interactive") {
            diag.error(at, "boostpulse is interactive's; the governor is " + g.name);
            return false;
        }
        return true;
    }
    if (g.name == "performance" || g.name == "powersave" || g.name == "userspace") {
        diag.error(at, "the " + g.name + " governor has no tunable '" + w.tunable + "'");
        return false;
    }
    if (g.name == "interactive") {
        std::string why;
        if (w.tunable == "variant") {
            diag.error(at, "variant is the interactive governor's generation, not a sysfs file: it is not "
                           "written during the run");
            return false;
        }
        if (!interactive_has(g.interactive.variant, w.tunable, why)) {
            diag.error(at, why);
            return false;
        }
    }
    // The write as the scenario would give it: governor.<name>.<tunable>: <value>.
    node inner = node::map(at);
    inner.keys.push_back(w.tunable);
    inner.key_marks.push_back(at);
    inner.items.push_back(node::scalar(w.value, at));
    node outer = node::map(at);
    outer.keys.push_back(g.name);
    outer.key_marks.push_back(at);
    outer.items.push_back(inner);
    const std::size_t before = diag.count();
    bind_context ctx(diag);
    governor_schema().bind(outer, g, ctx, "governor");
    return diag.count() == before;
}

bool load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                   scenario_config& out, diagnostics& diag)
{
    std::string text, error;
    if (!read_source(path, text, error)) {
        diag.error(path + ": cannot read: " + error);
        return false;
    }
    return load_scenario_text(text, path, overrides, out, diag);
}

namespace {

// An rt-app JSON file given where a scenario goes: it is JSON with C comments (which YAML
// reads as a syntax error) or JSON without them (which reads as a mapping of unknown keys).
// Either way its top level is rt-app's 'tasks' (and 'global'), not a scenario's keys.
bool rtapp_json_given_for_scenario(const std::string& text, const node* root)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || text[first] != '{')
        return false;
    if (root)
        return root->find("tasks") && !root->find("workload");
    return text.find("\"tasks\"") != std::string::npos;
}

void refuse_rtapp_json(const std::string& path, diagnostics& diag)
{
    diag.error(mark{path, 1, 1},
               "this is an rt-app JSON file, not a scenario: a scenario runs it as its workload "
               "('workload: {kind: rtapp, rtapp_json: FILE}', docs/workloads.md), e.g. "
               "blsim run configs/scenarios/rtapp-periodic.yaml --set workload.rtapp_json=" + path);
}

} // namespace

bool load_scenario_text(const std::string& text, const std::string& path, const std::vector<std::string>& overrides,
                        scenario_config& out, diagnostics& diag)
{
    std::string error;
    node root;
    {
        diagnostics parsing;
        const bool parsed = cfg::parse_yaml(text, path, root, parsing);
        if (rtapp_json_given_for_scenario(text, parsed ? &root : nullptr)) {
            refuse_rtapp_json(path, diag);
            return false;
        }
        // Anything to say (an error, a note): parsed again, to say it (parse_yaml's messages
        // go to the caller's list).
        if (!parsed || parsing.count() != 0 || parsing.note_count() != 0) {
            root = node{};
            if (!cfg::parse_yaml(text, path, root, diag))
                return false;
        }
    }

    // A 'soc' override replaces the reference itself, so it is applied before resolving.
    std::vector<std::pair<int, std::string>> later;
    for (std::size_t i = 0; i < overrides.size(); i++) {
        const std::string& o = overrides[i];
        if (o.rfind("soc=", 0) == 0)
            cfg::apply_override(root, o, static_cast<int>(i + 1), diag);
        else
            later.emplace_back(static_cast<int>(i + 1), o);
    }

    bool soc_ok = true;
    if (node* soc = root.find("soc"); soc && soc->is_scalar()) {
        const std::string soc_path = resolve_relative(relative_to(soc->at, path), soc->value);
        std::string soc_text;
        node soc_root;
        if (!read_source(soc_path, soc_text, error))
            diag.error(soc->at, "cannot read SoC file '" + soc->value + "': " + error);
        else
            cfg::parse_yaml(soc_text, soc_path, soc_root, diag);
        // On failure the SoC is left empty, and the rest is still checked so that every
        // error is reported at once.
        soc_ok = diag.ok();
        *soc = std::move(soc_root);
    }

    for (const auto& [index, o] : later)
        cfg::apply_override(root, o, index, diag);

    bind_context ctx(diag);
    ctx.record("", root.at);
    scenario_config c;
    if (soc_ok) {
        scenario_schema().bind(root, c, ctx, "");
    } else {
        // The SoC could not be read: check everything but it, without its noise.
        node rest = root;
        std::size_t i = std::find(rest.keys.begin(), rest.keys.end(), "soc") - rest.keys.begin();
        if (i < rest.keys.size()) {
            rest.keys.erase(rest.keys.begin() + i);
            rest.key_marks.erase(rest.key_marks.begin() + i);
            rest.items.erase(rest.items.begin() + i);
        }
        scenario_schema(false).bind(rest, c, ctx, "");
        return false;
    }
    if (!diag.ok())
        return false;
    apply_interactive_variant(c, ctx);
    check_workload(c, path, ctx, diag);
    check(c, ctx, diag);
    if (!diag.ok())
        return false;
    // cci_port -1: the variant's ACE interfaces in cluster order (checked above).
    const std::vector<int> ace = ace_ports(c.soc.cci.variant);
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++)
        if (c.soc.clusters[i].cci_port == -1)
            c.soc.clusters[i].cci_port = ace.at(i);
    out = std::move(c);
    return true;
}

std::string effective_yaml(const scenario_config& c)
{
    return "# blsim effective configuration: every key, defaults included.\n" +
           cfg::emit_yaml(scenario_schema().emit(c));
}

std::vector<cfg::doc_row> config_reference_rows()
{
    std::vector<cfg::doc_row> rows;
    // The defaults documented are a scenario's own: built on the heap, where GCC 12's
    // -Wmaybe-uninitialized does not misread the inlined temporary's string members.
    const auto defaults = std::make_unique<scenario_config>();
    scenario_schema().document(rows, "", *defaults);
    return rows;
}

std::string config_reference_markdown()
{
    const std::vector<cfg::doc_row> rows = config_reference_rows();
    std::ostringstream md;
    md << "# Configuration reference\n\n"
          "<!-- Generated by `build/blsim config-reference` from soc/config/src/scenario.cpp; a test "
          "fails when this file and the schema disagree. -->\n\n"
          "A scenario is one YAML file. Its `soc` key names a SoC file (a path relative to the\n"
          "scenario) or holds the SoC mapping itself; `configs/soc/tc2.yaml` is the reference.\n"
          "Every key below can be overridden from the command line with\n"
          "`--set dotted.key=value`; list items are addressed by index or by their `name`\n"
          "(`--set soc.clusters.a15.cores=1`, `--set workload.tasks.0.util_pct=50`), and the\n"
          "value is YAML (`--set governor.freq_mhz={a15: 800}`).\n\n"
          "Unknown keys are errors. Errors are reported as `file:line:col: message` (for an\n"
          "override: `--set:N:col`, N counting the --set options from 1), all of them at once,\n"
          "and blsim exits with status 2 without writing anything. YAML tags (`!!str 5`,\n"
          "`!!int`, `!custom`) are such errors too, in every file blsim reads: a value is read\n"
          "by its key's type alone, never by a tag.\n\n"
          "`[]` in a key marks a list item. \"required\" keys have no default. Ranges are\n"
          "inclusive. EAS units: the EAS energy model's normalised power, the A7 core at 1 GHz\n"
          "= 1024 (docs/calibration.md).\n\n"
          "| key | type | unit | default | range | meaning |\n"
          "|---|---|---|---|---|---|\n";
    for (const cfg::doc_row& r : rows)
        md << "| `" << r.key << "` | " << r.type << " | " << r.unit << " | "
           << (r.default_value.empty() ? "" : "`" + r.default_value + "`") << " | " << r.range
           << " | " << r.description << " |\n";
    return md.str();
}

} // namespace blsim::soc
