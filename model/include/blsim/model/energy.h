// model/include/blsim/model/energy.h -- power models and the event-driven energy meter.
//
// Plain C++, no SystemC: the meter is told what changed and when (in picoseconds), and
// integrates power over the interval since the previous change of the same cluster. Nothing
// is sampled or polled, so the integral is exact for piecewise-constant power.
//
// Power-state semantics (docs/calibration.md), the same in both power models. A cluster's
// power is its shared logic's ("uncore") plus its cores'. While the cluster is powered (on,
// powering up or down), whether or not a core runs:
//   - its shared logic draws its idle power: leakage (shared logic and L2, steeply rising with
//     the supply) plus its clock (C*f*V^2);
//   - every core that is powered draws its leakage: in WFI, and when "off" but held in reset
//     (a cluster without per-core power gating, as TC2);
// and a busy core adds its busy power, and the shared logic its busy power (the EAS table's
// cluster power at the OPP, or the cv2f model's activity term). A powered-down cluster draws
// only what its power switch lets through (off_power_eas). A cluster's power-up and
// power-down also cost a fixed energy each (the power model's transition energy), charged to
// its uncore when a power-up starts and when a power-down completes (an aborted power-down
// never opened the power switch).
//
// The meter checks its own numbers as it makes them (docs/architecture.md, "Invariants"):
// no accounting interval is negative, every part's power is finite, non-negative and within
// what the cluster's tables allow, energy never decreases; check_totals() at the end of a run
// checks that residencies add up to the elapsed time and the energy breakdowns to the totals.
// A violation throws invariant_violation.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "blsim/model/params.h"
#include "blsim/model/power_formulas.h"
#include "blsim/model/power_state.h"

namespace blsim::model {

// What a power model needs to know about a cluster at one instant.
struct cluster_snapshot {
    cluster_power state = cluster_power::on;
    int opp_index = 0;  // index of the current frequency in the cluster's OPP table
    int freq_mhz = 0;
    int voltage_mv = 0;
    int cores_on = 0;   // cores in core_power::on
};

enum class cluster_transition { power_up, power_down };

class power_model {
public:
    virtual ~power_model() = default;
    // Power of one core of @cluster in state @s, in mW.
    virtual double core_mw(const cluster_params& cluster, const cluster_snapshot& snap,
                           core_power s) const = 0;
    // Power of @cluster's shared logic, in mW.
    virtual double uncore_mw(const cluster_params& cluster, const cluster_snapshot& snap) const = 0;
    // Both are functions of their arguments alone (the meter reuses a price while the
    // cluster's snapshot is unchanged).
    // Energy of one power-up or power-down of @cluster, beyond the power it draws meanwhile, in J.
    double transition_j(const cluster_params& cluster, cluster_transition t) const;
    // The most @cluster can draw: every core busy at the top OPP, in mW (the bound the meter
    // checks against).
    double max_cluster_mw(const cluster_params& cluster) const;
};

// Busy power from the EAS tables (docs/calibration.md), in EAS units scaled by each cluster's
// eas_mw_per_unit: a busy core's table power on top of its leakage; the busy cluster's table
// power, which (measured at the OPP's supply with the other cores idle) contains the static
// power of the cluster as measured, less that, plus the static power of its shared logic and
// its L2 (of caches.l2_kb, not necessarily eas_l2_kb) at the rail's present supply. At an
// OPP's own supply with the measured L2, a busy cluster draws exactly the tables' power.
// Idle power as every model's: leakage and clock.
class eas_power_model final : public power_model {
public:
    double core_mw(const cluster_params&, const cluster_snapshot&, core_power) const override;
    double uncore_mw(const cluster_params&, const cluster_snapshot&) const override;
};

// Busy power as C*V^2*f: a busy core's dynamic power on top of its leakage; the shared
// logic's activity on top of its idle power.
class cv2f_power_model final : public power_model {
public:
    double core_mw(const cluster_params&, const cluster_snapshot&, core_power) const override;
    double uncore_mw(const cluster_params&, const cluster_snapshot&) const override;
};

std::unique_ptr<power_model> make_power_model(const energy_params& p);

// The power formulas (leakage, C·V²·f, the shared logic idle and busy): power_formulas.h.


class energy_meter {
public:
    // Every core starts on, every cluster on at its boot OPP.
    energy_meter(const soc_params& soc, const power_model& model);

    void core_state(std::uint64_t t_ps, unsigned cpu, core_power s);
    void cluster_state(std::uint64_t t_ps, unsigned cluster, cluster_power s);
    void frequency(std::uint64_t t_ps, unsigned cluster, int freq_mhz);
    void voltage(std::uint64_t t_ps, unsigned cluster, int voltage_mv);
    // Integrate every cluster up to @t_ps (end of run, or before reading results).
    void advance_all(std::uint64_t t_ps);
    // Everything integrated up to @t_ps: residencies add up to @t_ps, every energy breakdown
    // to its total. Throws invariant_violation otherwise.
    void check_totals(std::uint64_t t_ps) const;

    unsigned ncpus() const { return static_cast<unsigned>(cores_.size()); }
    unsigned nclusters() const { return static_cast<unsigned>(clusters_.size()); }

    double core_energy_j(unsigned cpu) const { return cores_.at(cpu).energy_j; }
    double core_energy_j(unsigned cpu, core_power s) const;
    double uncore_energy_j(unsigned cluster) const { return clusters_.at(cluster).uncore_energy_j; }
    // The shared logic's energy while in @s (power-up and power-down energies not included).
    double uncore_energy_j(unsigned cluster, cluster_power s) const;
    // ... while powered with at least one core busy (cluster_power::on, cores on).
    double uncore_busy_energy_j(unsigned cluster) const { return clusters_.at(cluster).uncore_busy_j; }
    double transition_energy_j(unsigned cluster, cluster_transition t) const;
    std::uint64_t transitions(unsigned cluster, cluster_transition t) const;
    double cluster_energy_j(unsigned cluster) const;
    // The cluster's energy (cores and shared logic) while its clock was at OPP @opp_index.
    double cluster_opp_energy_j(unsigned cluster, int opp_index) const;
    double total_energy_j() const;

    double core_residency_s(unsigned cpu, core_power s) const;
    double cluster_residency_s(unsigned cluster, cluster_power s) const;
    double opp_residency_s(unsigned cluster, int opp_index) const;

    // Instantaneous power, in mW, as of the last change.
    double cluster_power_mw(unsigned cluster) const;
    double max_cluster_power_mw(unsigned cluster) const { return clusters_.at(cluster).max_mw; }
    std::uint64_t last_ps(unsigned cluster) const { return clusters_.at(cluster).last_ps; }

private:
    static constexpr int ncore_states = 3;
    static constexpr int ncluster_states = 4;
    struct core_acc {
        unsigned cluster = 0;
        core_power state = core_power::on;
        double power_mw = 0;
        double energy_j = 0;
        double state_j[ncore_states] = {0, 0, 0};
        std::uint64_t residency_ps[ncore_states] = {0, 0, 0};
    };
    struct cluster_acc {
        const cluster_params* params = nullptr;
        std::string block; // "cluster <name>", for invariant messages
        cluster_snapshot snap;
        std::vector<unsigned> cpus;
        std::uint64_t last_ps = 0;
        double uncore_mw = 0;
        double max_mw = 0;
        double uncore_energy_j = 0;
        double uncore_busy_j = 0;
        double state_j[ncluster_states] = {0, 0, 0, 0};
        std::uint64_t state_ps[ncluster_states] = {0, 0, 0, 0};
        double transition_j[2] = {0, 0};
        std::uint64_t transition_count[2] = {0, 0};
        std::vector<std::uint64_t> opp_ps;
        std::vector<double> opp_j;
        // The model's last prices, by snapshot: a cluster goes through a handful of
        // snapshots over and over (its cores on and off, its power states, its OPPs), and
        // pricing one is the leakage's exp() and the tables' lookups, at every state change.
        struct price {
            cluster_snapshot snap;
            double core_mw[3] = {0, 0, 0}; // by core_slot()
            double uncore_mw = 0;
        };
        static constexpr std::size_t nprices = 16;
        price prices[nprices];
        std::size_t nprice = 0; // filled
        // The slots of prices, most recently used first: the snapshots a cluster cycles
        // through (a handful) stay at the front, where the search finds them; the last slot
        // is the one replaced once all are filled.
        std::uint8_t recent[nprices] = {};
    };
    // The model's prices at @c's snapshot, from the memo or computed into it.
    const cluster_acc::price& priced(cluster_acc& c);

    void advance(unsigned cluster, std::uint64_t t_ps);
    void reprice(unsigned cluster, std::uint64_t t_ps);

    const power_model& model_;
    std::vector<core_acc> cores_;
    std::vector<cluster_acc> clusters_;
};

// The OPP a cluster boots at: boot_freq_mhz, or the highest OPP when it is 0.
int boot_opp_index(const cluster_params& cluster);

} // namespace blsim::model
