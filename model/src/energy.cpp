// model/src/energy.cpp
#include "blsim/model/energy.h"

#include <cassert>

namespace blsim::model {

namespace {

// Dividing (rather than multiplying by 1e-12, which is not exact in binary) keeps whole
// seconds whole in the results.
constexpr double ps_per_s = 1e12;

std::size_t core_slot(core_power s)
{
    switch (s) {
    case core_power::on: return 0;
    case core_power::wfi: return 1;
    case core_power::off: return 2;
    }
    assert(!"bad core_power");
    return 0;
}

std::size_t cluster_slot(cluster_power s) { return s == cluster_power::on ? 0 : 1; }

double volts(const cluster_snapshot& s) { return s.voltage_mv * 1e-3; }

} // namespace

int boot_opp_index(const cluster_params& cluster)
{
    if (cluster.boot_freq_mhz == 0)
        return static_cast<int>(cluster.opps.size()) - 1;
    for (std::size_t i = 0; i < cluster.opps.size(); i++)
        if (cluster.opps[i].freq_mhz == cluster.boot_freq_mhz)
            return static_cast<int>(i);
    assert(!"boot_freq_mhz was validated to be an OPP");
    return 0;
}

// --- EAS ---------------------------------------------------------------------------------

double eas_power_model::core_mw(const cluster_params& c, const cluster_snapshot& snap,
                                core_power s) const
{
    // EAS core idle states cost 0; only a busy core has power of its own.
    if (s != core_power::on || snap.state == cluster_power::off)
        return 0.0;
    return c.opps.at(snap.opp_index).core_power_eas * mw_per_unit_;
}

double eas_power_model::uncore_mw(const cluster_params& c, const cluster_snapshot& snap) const
{
    if (snap.state == cluster_power::off)
        return c.off_power_eas * mw_per_unit_;
    if (snap.cores_on > 0)
        return c.opps.at(snap.opp_index).cluster_power_eas * mw_per_unit_;
    return c.wfi_power_eas * mw_per_unit_;
}

// --- C*V^2*f ------------------------------------------------------------------------------

double cv2f_power_model::core_mw(const cluster_params& c, const cluster_snapshot& snap,
                                 core_power s) const
{
    if (snap.state == cluster_power::off)
        return 0.0;
    const double v = volts(snap);
    const double leak = c.cv2f.core_leakage_mw_per_v * v;
    switch (s) {
    case core_power::on:
        // uW/MHz/V^2 * MHz * V^2 = uW
        return c.cv2f.core_dyn_uw_per_mhz_v2 * snap.freq_mhz * v * v * 1e-3 + leak;
    case core_power::wfi:
        return leak;
    case core_power::off:
        return c.power.per_core_power_gating ? 0.0 : leak;
    }
    return 0.0;
}

double cv2f_power_model::uncore_mw(const cluster_params& c, const cluster_snapshot& snap) const
{
    if (snap.state == cluster_power::off)
        return 0.0;
    const double v = volts(snap);
    double p = c.cv2f.cluster_leakage_mw_per_v * v;
    if (snap.cores_on > 0)
        p += c.cv2f.cluster_dyn_uw_per_mhz_v2 * snap.freq_mhz * v * v * 1e-3;
    return p;
}

std::unique_ptr<power_model> make_power_model(const energy_params& p)
{
    if (p.model == power_model_kind::cv2f)
        return std::make_unique<cv2f_power_model>();
    return std::make_unique<eas_power_model>(p.eas_mw_per_unit);
}

// --- meter --------------------------------------------------------------------------------

energy_meter::energy_meter(const soc_params& soc, const power_model& model) : model_(model)
{
    for (const cluster_params& cp : soc.clusters) {
        cluster_acc c;
        c.params = &cp;
        c.snap.opp_index = boot_opp_index(cp);
        c.snap.freq_mhz = cp.opps.at(c.snap.opp_index).freq_mhz;
        c.snap.voltage_mv = cp.opps.at(c.snap.opp_index).voltage_mv;
        c.snap.cores_on = cp.cores;
        c.opp_ps.assign(cp.opps.size(), 0);
        for (int i = 0; i < cp.cores; i++) {
            c.cpus.push_back(static_cast<unsigned>(cores_.size()));
            core_acc k;
            k.cluster = static_cast<unsigned>(clusters_.size());
            cores_.push_back(k);
        }
        clusters_.push_back(std::move(c));
        reprice(static_cast<unsigned>(clusters_.size() - 1));
    }
}

void energy_meter::advance(unsigned cluster, std::uint64_t t_ps)
{
    cluster_acc& c = clusters_.at(cluster);
    assert(t_ps >= c.last_ps);
    const std::uint64_t dt = t_ps - c.last_ps;
    if (dt == 0)
        return;
    const double dt_s = dt / ps_per_s;
    // mW * s = mJ
    c.uncore_energy_j += c.uncore_mw * dt_s * 1e-3;
    c.state_ps[cluster_slot(c.snap.state)] += dt;
    c.opp_ps[c.snap.opp_index] += dt;
    for (unsigned cpu : c.cpus) {
        core_acc& k = cores_[cpu];
        k.energy_j += k.power_mw * dt_s * 1e-3;
        k.residency_ps[core_slot(k.state)] += dt;
    }
    c.last_ps = t_ps;
}

void energy_meter::reprice(unsigned cluster)
{
    cluster_acc& c = clusters_[cluster];
    for (unsigned cpu : c.cpus)
        cores_[cpu].power_mw = model_.core_mw(*c.params, c.snap, cores_[cpu].state);
    c.uncore_mw = model_.uncore_mw(*c.params, c.snap);
}

void energy_meter::core_state(std::uint64_t t_ps, unsigned cpu, core_power s)
{
    core_acc& k = cores_.at(cpu);
    advance(k.cluster, t_ps);
    cluster_acc& c = clusters_[k.cluster];
    if (k.state == core_power::on)
        c.snap.cores_on--;
    if (s == core_power::on)
        c.snap.cores_on++;
    k.state = s;
    reprice(k.cluster);
}

void energy_meter::cluster_state(std::uint64_t t_ps, unsigned cluster, cluster_power s)
{
    advance(cluster, t_ps);
    clusters_[cluster].snap.state = s;
    reprice(cluster);
}

void energy_meter::frequency(std::uint64_t t_ps, unsigned cluster, int freq_mhz)
{
    advance(cluster, t_ps);
    cluster_acc& c = clusters_[cluster];
    int index = -1;
    for (std::size_t i = 0; i < c.params->opps.size(); i++)
        if (c.params->opps[i].freq_mhz == freq_mhz)
            index = static_cast<int>(i);
    assert(index >= 0 && "the DVFS controller only sets table frequencies");
    c.snap.opp_index = index;
    c.snap.freq_mhz = freq_mhz;
    reprice(cluster);
}

void energy_meter::voltage(std::uint64_t t_ps, unsigned cluster, int voltage_mv)
{
    advance(cluster, t_ps);
    clusters_[cluster].snap.voltage_mv = voltage_mv;
    reprice(cluster);
}

void energy_meter::advance_all(std::uint64_t t_ps)
{
    for (unsigned c = 0; c < clusters_.size(); c++)
        advance(c, t_ps);
}

double energy_meter::cluster_energy_j(unsigned cluster) const
{
    const cluster_acc& c = clusters_.at(cluster);
    double e = c.uncore_energy_j;
    for (unsigned cpu : c.cpus)
        e += cores_[cpu].energy_j;
    return e;
}

double energy_meter::total_energy_j() const
{
    double e = 0;
    for (unsigned c = 0; c < clusters_.size(); c++)
        e += cluster_energy_j(c);
    return e;
}

double energy_meter::core_residency_s(unsigned cpu, core_power s) const
{
    return cores_.at(cpu).residency_ps[core_slot(s)] / ps_per_s;
}

double energy_meter::cluster_residency_s(unsigned cluster, cluster_power s) const
{
    return clusters_.at(cluster).state_ps[cluster_slot(s)] / ps_per_s;
}

double energy_meter::opp_residency_s(unsigned cluster, int opp_index) const
{
    return clusters_.at(cluster).opp_ps.at(opp_index) / ps_per_s;
}

double energy_meter::cluster_power_mw(unsigned cluster) const
{
    const cluster_acc& c = clusters_.at(cluster);
    double p = c.uncore_mw;
    for (unsigned cpu : c.cpus)
        p += cores_[cpu].power_mw;
    return p;
}

} // namespace blsim::model
