// model/include/blsim/model/energy.h -- power models and the event-driven energy meter.
//
// Plain C++, no SystemC: the meter is told what changed and when (in picoseconds), and
// integrates power over the interval since the previous change of the same cluster. Nothing
// is sampled or polled, so the integral is exact for piecewise-constant power.
//
// Power is split as the EAS energy model splits it: each core's own power, plus the
// cluster's shared ("uncore") power. A cluster's energy is its uncore energy plus its cores'.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "blsim/model/params.h"
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

class power_model {
public:
    virtual ~power_model() = default;
    // Power of one core of @cluster in state @s, in mW.
    virtual double core_mw(const cluster_params& cluster, const cluster_snapshot& snap,
                           core_power s) const = 0;
    // Power of @cluster's shared logic, in mW.
    virtual double uncore_mw(const cluster_params& cluster, const cluster_snapshot& snap) const = 0;
};

// The EAS tables (docs/calibration.md), in EAS units scaled by energy.eas_mw_per_unit.
class eas_power_model final : public power_model {
public:
    explicit eas_power_model(double mw_per_unit) : mw_per_unit_(mw_per_unit) {}
    double core_mw(const cluster_params&, const cluster_snapshot&, core_power) const override;
    double uncore_mw(const cluster_params&, const cluster_snapshot&) const override;

private:
    double mw_per_unit_;
};

// C*V^2*f dynamic power plus leakage linear in V.
class cv2f_power_model final : public power_model {
public:
    double core_mw(const cluster_params&, const cluster_snapshot&, core_power) const override;
    double uncore_mw(const cluster_params&, const cluster_snapshot&) const override;
};

std::unique_ptr<power_model> make_power_model(const energy_params& p);

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

    unsigned ncpus() const { return static_cast<unsigned>(cores_.size()); }
    unsigned nclusters() const { return static_cast<unsigned>(clusters_.size()); }

    double core_energy_j(unsigned cpu) const { return cores_.at(cpu).energy_j; }
    double uncore_energy_j(unsigned cluster) const { return clusters_.at(cluster).uncore_energy_j; }
    double cluster_energy_j(unsigned cluster) const;
    double total_energy_j() const;

    double core_residency_s(unsigned cpu, core_power s) const;
    double cluster_residency_s(unsigned cluster, cluster_power s) const;
    double opp_residency_s(unsigned cluster, int opp_index) const;

    // Instantaneous power, in mW, as of the last change.
    double cluster_power_mw(unsigned cluster) const;

private:
    struct core_acc {
        unsigned cluster = 0;
        core_power state = core_power::on;
        double power_mw = 0;
        double energy_j = 0;
        std::uint64_t residency_ps[3] = {0, 0, 0};
    };
    struct cluster_acc {
        const cluster_params* params = nullptr;
        cluster_snapshot snap;
        std::vector<unsigned> cpus;
        std::uint64_t last_ps = 0;
        double uncore_mw = 0;
        double uncore_energy_j = 0;
        std::uint64_t state_ps[2] = {0, 0};
        std::vector<std::uint64_t> opp_ps;
    };

    void advance(unsigned cluster, std::uint64_t t_ps);
    void reprice(unsigned cluster);

    const power_model& model_;
    std::vector<core_acc> cores_;
    std::vector<cluster_acc> clusters_;
};

// The OPP a cluster boots at: boot_freq_mhz, or the highest OPP when it is 0.
int boot_opp_index(const cluster_params& cluster);

} // namespace blsim::model
