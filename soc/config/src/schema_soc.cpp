// soc/config/src/schema_soc.cpp -- the SoC file's schema: clusters and their OPPs, power, caches
// and idle states, the GIC, the CCI, the power controller, SRAM, DRAM and the energy model
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
                 "Number of cores (up to a DynamIQ cluster's 8; the GIC-400 serves 8 in all).", true)
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

} // namespace detail

} // namespace blsim::soc
