// model/include/blsim/model/params.h -- plain parameter structs for the SoC blocks.
//
// The models take these by const reference and never see YAML; soc/ fills them from the
// configuration (see docs/config.md for every field's unit, default and range). Units are in
// the field names.
#pragma once

#include <string>
#include <vector>

namespace blsim::model {

// One operating point of a cluster. Tables are ordered by ascending frequency (as Linux
// OPP tables are); index 0 is the slowest.
struct opp_point {
    int freq_mhz = 0;
    int voltage_mv = 0;
    double core_power_eas = 0;    // EAS energy-model units, one core busy
    double cluster_power_eas = 0; // EAS units, the cluster's shared logic while any core is busy
};

struct dvfs_params {
    double voltage_latency_us = 0; // time for the regulator to settle at a new voltage
    double freq_latency_us = 0;    // time for the PLL to relock at a new frequency
};

// What a wake-up arriving while a cluster powers down does (docs/hardware.md, "Power
// controller"): abort the power-down, the cluster back on at once; or let it complete and
// power the cluster straight up again.
enum class entry_wakeup { abort, complete };

// Hardware latencies of the power controller: what the silicon takes, not what cpuidle's
// end-to-end figures (which include the software's cache flushing and restore) say.
struct power_params {
    double core_wfi_entry_us = 0;
    double core_wfi_exit_us = 0;
    double core_off_entry_us = 0;
    double core_off_exit_us = 0;
    double cluster_off_entry_us = 0;
    double cluster_off_exit_us = 0;
    entry_wakeup cluster_entry_wakeup = entry_wakeup::abort;
    bool cluster_power_down = true; // may the cluster power off when its last core does?
    bool per_core_power_gating = false; // false: an "off" core is held in reset, still leaking
    // Energy of one cluster power-up / power-down beyond the power drawn meanwhile (charging
    // and discharging the domain, the L2's hardware initialisation): a lump per transition.
    double cluster_up_energy_uj = 0;
    double cluster_down_energy_uj = 0;
};

// Static power of a powered cluster, the same for both power models (docs/calibration.md,
// "Power-state semantics"): the leakage of its shared logic (SCU, L2 controller, clocking),
// of each core that is powered (clock-gated in WFI, or held in reset where cores cannot be
// power-gated on their own), and of the L2's RAMs. Each is given at ref_mv and grows as
// exp((V - ref_mv) / e_fold_mv) with the cluster's supply: leakage rises steeply with voltage
// (drain-induced barrier lowering), which is what makes the EAS tables' cluster power jump at
// the top OPPs while it stays flat with frequency below them.
struct leakage_params {
    int ref_mv = 850;
    double e_fold_mv = 340;    // the supply step that multiplies leakage by e
    double shared_mw = 0;      // the cluster's shared logic, at ref_mv
    double core_mw = 0;        // one powered core, at ref_mv
    double l2_uw_per_kb = 0;   // the L2's RAMs, per KiB, at ref_mv
};

// The C*V^2*f power model's dynamic coefficients (its static power is leakage_params').
struct cv2f_params {
    double core_dyn_uw_per_mhz_v2 = 0;    // a busy core (device tree dynamic-power-coefficient)
    double cluster_dyn_uw_per_mhz_v2 = 0; // the shared logic's activity while a core is busy,
                                          // beyond its clock (cluster_params::clock_uw_per_mhz_v2)
};

// Caches of one cluster: a private L1 data cache per core and a shared L2.
struct cache_params {
    int l1d_kb = 32;
    int l2_kb = 512;
    int line_bytes = 64;
    int l2_hit_cycles = 20;         // first line from L2 to L1, core cycles
    int l2_cycles_per_line = 4;     // each further line, core cycles
    int l1_walk_cycles_per_line = 1; // set/way maintenance, per line of L1 capacity
    int l2_walk_cycles_per_line = 1; // set/way maintenance, per line of L2 capacity
    int clean_cycles_per_line = 4;  // cache maintenance per dirty line, core cycles
};

// A cpuidle state of the cluster's CPUs (drivers/cpuidle: exit latency and target residency
// as the device tree's idle-states give them, entry + exit latency).
struct idle_state_params {
    std::string name;
    std::string kind = "wfi"; // wfi | power_down (the core off; the cluster too when last)
    int exit_latency_us = 1;
    int target_residency_us = 1;
};

struct cluster_params {
    std::string name;
    std::string core_type;
    int cores = 0;
    int capacity_dmips_mhz = 0; // per-MHz capacity, as the device tree's capacity-dmips-mhz
    int boot_freq_mhz = 0;      // 0: boot at the highest OPP
    int cci_port = -1;          // the CCI slave interface the cluster is behind; -1: the
                                // variant's ACE interfaces in cluster order (resolved at load)
    std::vector<opp_point> opps;
    // The EAS energy model's idle costs, as the EAS patches give them: what the scheduler's
    // estimate (mode eas) charges a powered idle cluster, and a powered-down one. The
    // hardware's idle power is leakage + clock below; its powered-down power is
    // off_power_eas * eas_mw_per_unit.
    double wfi_power_eas = 0;
    double off_power_eas = 0;
    double eas_mw_per_unit = 0; // how many mW one of this cluster's EAS units is
    int eas_l2_kb = 0;          // the L2 size the EAS tables were measured with (0: l2_kb)
    leakage_params leakage;
    // The clock of a powered cluster's shared logic (clock tree, L2, SCU), which runs while
    // its cores are idle in WFI: power C*f*V^2, in both power models.
    double clock_uw_per_mhz_v2 = 0;
    dvfs_params dvfs;
    power_params power;
    cv2f_params cv2f;
    cache_params caches;
    // Shallowest first. The default is a generic pair: WFI, and power-down with TC2's little
    // cluster's figures.
    std::vector<idle_state_params> idle_states = {{"wfi", "wfi", 1, 1},
                                                  {"cluster-sleep", "power_down", 1500, 2500}};
};

enum class power_model_kind { eas, cv2f };

struct energy_params {
    power_model_kind model = power_model_kind::eas;
    // Whether the scheduler's energy model (mode eas) holds the tables' cluster terms
    // (cluster_power_eas, wfi_power_eas), as the EAS patches' TC2 model did; false: cores
    // only, as Linux's energy model built from the device tree's dynamic-power-coefficient.
    // The hardware's power is the same either way.
    bool scheduler_cluster_terms = true;
};

// GIC-400 (GICv2): eight CPU interfaces at most (its target fields are 8 bits wide).
constexpr unsigned gic_max_cpus = 8;

// GIC-400 (GICv2). Register access latency is in cycles of the GIC's clock.
struct gic_params {
    long long dist_base = 0x2c001000;
    long long cpu_base = 0x2c002000;
    int spis = 128;          // shared peripheral interrupts (IDs 32..32+spis-1)
    int clock_mhz = 200;
    int access_cycles = 20;  // one register access, request to response
};

// The cache-coherent interconnect: a CCI-400 (TC2), or a CCI-500/550-class one with more ACE
// interfaces and a snoop filter (cci.h).
enum class cci_variant { cci400, cci500, cci550 };

// Each variant's slave interfaces, and which of them are ACE (may serve a cluster): the
// largest configuration of each, the ACE interfaces numbered first on the 5x0s.
//   cci-400  S0-S4, S3-S4 ACE, broadcast snoops
//   cci-500  S0-S6, S0-S3 ACE, a snoop filter
//   cci-550  S0-S6, S0-S5 ACE, a snoop filter
constexpr unsigned cci_max_slaves = 7;
constexpr unsigned cci_slaves(cci_variant v) { return v == cci_variant::cci400 ? 5 : 7; }
constexpr bool cci_is_ace(cci_variant v, unsigned slave)
{
    return v == cci_variant::cci400 ? (slave == 3 || slave == 4)
           : v == cci_variant::cci500 ? slave < 4
                                      : slave < 6;
}
constexpr bool cci_has_snoop_filter(cci_variant v) { return v != cci_variant::cci400; }
constexpr const char* cci_product_name(cci_variant v)
{
    return v == cci_variant::cci400 ? "CCI-400" : v == cci_variant::cci500 ? "CCI-500" : "CCI-550";
}

struct cci_params {
    cci_variant variant = cci_variant::cci400;
    long long base = 0x2c090000;
    int clock_mhz = 500;
    int access_cycles = 10;          // register access
    int change_pending_cycles = 200; // Status.change_pending stays set after a snoop-control write
    int snoop_hit_cycles = 30;       // first line served by a snoop
    int cycles_per_line = 4;         // each further line through the interconnect
};

// DRAM and its controller: one channel shared by every master.
struct dram_params {
    int clock_mhz = 400;
    int latency_cycles = 40;  // request to first data
    int bytes_per_cycle = 8;  // peak transfer rate (x32 DDR: 4 bytes, both edges)
    int access_bytes = 64;    // one access (a cache line): the unit latency is averaged over
};

// The power controller's register block (TC2: the SPC inside the SCC) and its interrupt.
struct spc_params {
    long long base = 0x7fff0b00;
    int clock_mhz = 100;
    int access_cycles = 20; // one register access, request to response
    int irq = 127;          // the interrupt ID its completions raise (TC2: SPI 95)
};

// On-chip SRAM: strongly-ordered memory the power-management code shares between CPUs.
struct sram_params {
    long long base = 0x2e000000;
    int size_kb = 64;
    int clock_mhz = 200;
    int access_cycles = 10;
};

struct soc_params {
    std::string name;
    std::vector<cluster_params> clusters;
    energy_params energy;
    gic_params gic;
    cci_params cci;
    dram_params dram;
    sram_params sram;
    spc_params spc;
};

} // namespace blsim::model
