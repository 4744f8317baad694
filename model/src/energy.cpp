// model/src/energy.cpp
#include "blsim/model/energy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "blsim/model/invariant.h"

namespace blsim::model {

namespace {

// Dividing (rather than multiplying by 1e-12, which is not exact in binary) keeps whole
// seconds whole in the results.
constexpr double ps_per_s = 1e12;

// Relative slack of the floating-point checks: sums of many terms differ in the last bits.
constexpr double rel_tolerance = 1e-9;

std::size_t core_slot(core_power s)
{
    switch (s) {
    case core_power::on: return 0;
    case core_power::wfi: return 1;
    case core_power::off: return 2;
    }
    BLSIM_CHECK(!"bad core_power");
    return 0;
}

std::size_t cluster_slot(cluster_power s)
{
    switch (s) {
    case cluster_power::on: return 0;
    case cluster_power::off: return 1;
    case cluster_power::powering_up: return 2;
    case cluster_power::powering_down: return 3;
    }
    BLSIM_CHECK(!"bad cluster_power");
    return 0;
}

bool powered(cluster_power s) { return s != cluster_power::off; }

std::string num(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

bool close(double a, double b)
{
    return std::fabs(a - b) <= rel_tolerance * std::max(std::fabs(a), std::fabs(b)) + 1e-18;
}

} // namespace

int boot_opp_index(const cluster_params& cluster)
{
    if (cluster.boot_freq_mhz == 0)
        return static_cast<int>(cluster.opps.size()) - 1;
    for (std::size_t i = 0; i < cluster.opps.size(); i++)
        if (cluster.opps[i].freq_mhz == cluster.boot_freq_mhz)
            return static_cast<int>(i);
    BLSIM_CHECK(!"boot_freq_mhz was validated to be an OPP");
    return 0;
}


double power_model::transition_j(const cluster_params& c, cluster_transition t) const
{
    return (t == cluster_transition::power_up ? c.power.cluster_up_energy_uj : c.power.cluster_down_energy_uj) * 1e-6;
}

double power_model::max_cluster_mw(const cluster_params& c) const
{
    // Power grows with the supply and is linear in the number of busy cores, so every state
    // the cluster can be in is bounded by one of: some OPP at the table's highest voltage (a
    // DVFS transition raises the rail before the clock and lowers it after), with every core
    // busy or none. Tables need not grow with frequency.
    int vmax = 0;
    for (const opp_point& o : c.opps)
        vmax = std::max(vmax, o.voltage_mv);
    double bound = 0;
    for (std::size_t i = 0; i < c.opps.size(); i++) {
        cluster_snapshot s;
        s.state = cluster_power::on;
        s.opp_index = static_cast<int>(i);
        s.freq_mhz = c.opps[i].freq_mhz;
        s.voltage_mv = vmax;
        s.cores_on = c.cores;
        bound = std::max(bound, uncore_mw(c, s) + c.cores * core_mw(c, s, core_power::on));
        s.cores_on = 0;
        bound = std::max(bound, uncore_mw(c, s) + c.cores * core_mw(c, s, core_power::wfi));
    }
    return bound;
}

// --- both models: what a core draws beside its busy power -----------------------------

namespace {

// A core's power in @s other than busy, in every model: its leakage while its cluster is
// powered and it is not power-gated (WFI is clock gating; an "off" core without per-core
// power gating is held in reset, still powered).
double core_idle_mw(const cluster_params& c, const cluster_snapshot& snap, core_power s)
{
    if (!powered(snap.state) || (s == core_power::off && c.power.per_core_power_gating))
        return 0.0;
    return core_leakage_mw(c, snap.voltage_mv);
}

bool busy(const cluster_snapshot& snap) { return snap.state == cluster_power::on && snap.cores_on > 0; }

} // namespace

// --- EAS ---------------------------------------------------------------------------------

double eas_power_model::core_mw(const cluster_params& c, const cluster_snapshot& snap, core_power s) const
{
    double p = core_idle_mw(c, snap, s);
    if (s == core_power::on && snap.state == cluster_power::on)
        p += c.opps.at(snap.opp_index).core_power_eas * c.eas_mw_per_unit;
    return p;
}

double eas_power_model::uncore_mw(const cluster_params& c, const cluster_snapshot& snap) const
{
    if (!powered(snap.state))
        return c.off_power_eas * c.eas_mw_per_unit;
    if (busy(snap))
        return eas_uncore_busy_mw(c, snap.opp_index, snap.voltage_mv);
    return uncore_idle_mw(c, snap.freq_mhz, snap.voltage_mv);
}

// --- C*V^2*f ------------------------------------------------------------------------------

double cv2f_power_model::core_mw(const cluster_params& c, const cluster_snapshot& snap, core_power s) const
{
    double p = core_idle_mw(c, snap, s);
    if (s == core_power::on && snap.state == cluster_power::on)
        p += cv2f_mw(c.cv2f.core_dyn_uw_per_mhz_v2, snap.freq_mhz, snap.voltage_mv);
    return p;
}

double cv2f_power_model::uncore_mw(const cluster_params& c, const cluster_snapshot& snap) const
{
    if (!powered(snap.state))
        return c.off_power_eas * c.eas_mw_per_unit;
    double p = uncore_idle_mw(c, snap.freq_mhz, snap.voltage_mv);
    if (busy(snap))
        p += cv2f_mw(c.cv2f.cluster_dyn_uw_per_mhz_v2, snap.freq_mhz, snap.voltage_mv);
    return p;
}

std::unique_ptr<power_model> make_power_model(const energy_params& p)
{
    if (p.model == power_model_kind::cv2f)
        return std::make_unique<cv2f_power_model>();
    return std::make_unique<eas_power_model>();
}

// --- meter --------------------------------------------------------------------------------

energy_meter::energy_meter(const soc_params& soc, const power_model& model) : model_(model)
{
    for (const cluster_params& cp : soc.clusters) {
        cluster_acc c;
        c.params = &cp;
        c.block = "cluster " + cp.name;
        c.snap.opp_index = boot_opp_index(cp);
        c.snap.freq_mhz = cp.opps.at(c.snap.opp_index).freq_mhz;
        c.snap.voltage_mv = cp.opps.at(c.snap.opp_index).voltage_mv;
        c.snap.cores_on = cp.cores;
        c.opp_ps.assign(cp.opps.size(), 0);
        c.opp_j.assign(cp.opps.size(), 0.0);
        c.max_mw = model_.max_cluster_mw(cp);
        for (int i = 0; i < cp.cores; i++) {
            c.cpus.push_back(static_cast<unsigned>(cores_.size()));
            core_acc k;
            k.cluster = static_cast<unsigned>(clusters_.size());
            cores_.push_back(k);
        }
        clusters_.push_back(std::move(c));
        reprice(static_cast<unsigned>(clusters_.size() - 1), 0);
    }
}

void energy_meter::advance(unsigned cluster, std::uint64_t t_ps)
{
    cluster_acc& c = clusters_.at(cluster);
    if (t_ps < c.last_ps)
        invariant_failed("accounting-interval", t_ps, c.block,
                         "a change dated " + format_time_s(t_ps) + " s arrived after the meter had integrated up to " +
                             format_time_s(c.last_ps) + " s (a negative interval)");
    const std::uint64_t dt = t_ps - c.last_ps;
    if (dt == 0)
        return;
    const double dt_s = dt / ps_per_s;
    const std::size_t cs = cluster_slot(c.snap.state);
    // mW * s = mJ
    const double uncore_j = c.uncore_mw * dt_s * 1e-3;
    double cluster_j = uncore_j;
    c.uncore_energy_j += uncore_j;
    c.state_j[cs] += uncore_j;
    if (c.snap.state == cluster_power::on && c.snap.cores_on > 0)
        c.uncore_busy_j += uncore_j;
    c.state_ps[cs] += dt;
    c.opp_ps[c.snap.opp_index] += dt;
    for (unsigned cpu : c.cpus) {
        core_acc& k = cores_[cpu];
        const double j = k.power_mw * dt_s * 1e-3;
        const std::size_t ks = core_slot(k.state);
        k.energy_j += j;
        k.state_j[ks] += j;
        k.residency_ps[ks] += dt;
        cluster_j += j;
    }
    c.opp_j[c.snap.opp_index] += cluster_j;
    // Powers were checked when set; this catches what arithmetic could still do to them.
    if (!(cluster_j >= 0) || !std::isfinite(c.uncore_energy_j))
        invariant_failed("energy-monotonic", t_ps, c.block,
                         "the energy of " + format_time_s(dt) + " s changed by " + num(cluster_j) + " J");
    c.last_ps = t_ps;
}

const energy_meter::cluster_acc::price& energy_meter::priced(cluster_acc& c)
{
    const cluster_snapshot& s = c.snap;
    const auto same = [&s](const cluster_snapshot& m) {
        return m.cores_on == s.cores_on && m.state == s.state && m.opp_index == s.opp_index &&
               m.freq_mhz == s.freq_mhz && m.voltage_mv == s.voltage_mv;
    };
    // The slot at position @k of the recency order moves to the front.
    const auto to_front = [&c](std::size_t k) {
        const std::uint8_t slot = c.recent[k];
        std::memmove(c.recent + 1, c.recent, k);
        c.recent[0] = slot;
        return slot;
    };
    for (std::size_t k = 0; k < c.nprice; k++)
        if (same(c.prices[c.recent[k]].snap))
            return c.prices[to_front(k)];
    if (c.nprice < cluster_acc::nprices) { // a free slot, last in the order
        c.recent[c.nprice] = static_cast<std::uint8_t>(c.nprice);
        c.nprice++;
    } // else full: the least recently used is replaced
    cluster_acc::price& p = c.prices[to_front(c.nprice - 1)];
    p.snap = s;
    for (core_power k : {core_power::on, core_power::wfi, core_power::off})
        p.core_mw[core_slot(k)] = model_.core_mw(*c.params, s, k);
    p.uncore_mw = model_.uncore_mw(*c.params, s);
    return p;
}

void energy_meter::reprice(unsigned cluster, std::uint64_t t_ps)
{
    cluster_acc& c = clusters_[cluster];
    const cluster_acc::price& price = priced(c);
    double total = 0;
    for (unsigned cpu : c.cpus) {
        const double p = price.core_mw[core_slot(cores_[cpu].state)];
        if (!(p >= 0) || !std::isfinite(p))
            invariant_failed("power-within-tables", t_ps, "cpu" + std::to_string(cpu),
                             "core power " + num(p) + " mW");
        cores_[cpu].power_mw = p;
        total += p;
    }
    c.uncore_mw = price.uncore_mw;
    if (!(c.uncore_mw >= 0) || !std::isfinite(c.uncore_mw))
        invariant_failed("power-within-tables", t_ps, c.block, "shared-logic power " + num(c.uncore_mw) + " mW");
    total += c.uncore_mw;
    if (total > c.max_mw * (1 + rel_tolerance))
        invariant_failed("power-within-tables", t_ps, c.block,
                         "draws " + num(total) + " mW, above the " + num(c.max_mw) +
                             " mW its tables allow (every core busy at the top OPP)");
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
    reprice(k.cluster, t_ps);
}

void energy_meter::cluster_state(std::uint64_t t_ps, unsigned cluster, cluster_power s)
{
    advance(cluster, t_ps);
    cluster_acc& c = clusters_[cluster];
    // A power-up's own energy is charged when it starts; a power-down's when it completes
    // (an aborted one never opened the power switch).
    int tr = -1;
    if (s == cluster_power::powering_up)
        tr = static_cast<int>(cluster_transition::power_up);
    else if (s == cluster_power::off && c.snap.state == cluster_power::powering_down)
        tr = static_cast<int>(cluster_transition::power_down);
    if (tr >= 0) {
        const double j = model_.transition_j(*c.params, static_cast<cluster_transition>(tr));
        if (!(j >= 0) || !std::isfinite(j))
            invariant_failed("energy-monotonic", t_ps, c.block, "a transition costing " + num(j) + " J");
        c.transition_j[tr] += j;
        c.transition_count[tr]++;
        c.uncore_energy_j += j;
        c.opp_j[c.snap.opp_index] += j;
    }
    c.snap.state = s;
    reprice(cluster, t_ps);
}

void energy_meter::frequency(std::uint64_t t_ps, unsigned cluster, int freq_mhz)
{
    advance(cluster, t_ps);
    cluster_acc& c = clusters_[cluster];
    int index = -1;
    for (std::size_t i = 0; i < c.params->opps.size(); i++)
        if (c.params->opps[i].freq_mhz == freq_mhz)
            index = static_cast<int>(i);
    if (index < 0)
        invariant_failed("power-within-tables", t_ps, c.block,
                         "clock set to " + std::to_string(freq_mhz) + " MHz, not an OPP of its table");
    c.snap.opp_index = index;
    c.snap.freq_mhz = freq_mhz;
    reprice(cluster, t_ps);
}

void energy_meter::voltage(std::uint64_t t_ps, unsigned cluster, int voltage_mv)
{
    advance(cluster, t_ps);
    clusters_[cluster].snap.voltage_mv = voltage_mv;
    reprice(cluster, t_ps);
}

void energy_meter::advance_all(std::uint64_t t_ps)
{
    for (unsigned c = 0; c < clusters_.size(); c++)
        advance(c, t_ps);
}

void energy_meter::check_totals(std::uint64_t t_ps) const
{
    auto fail_sum = [&](const std::string& block, const std::string& what, std::uint64_t got) {
        invariant_failed("residency-sum", t_ps, block,
                         what + " add up to " + format_time_s(got) + " s of " + format_time_s(t_ps) + " s");
    };
    auto fail_parts = [&](const std::string& block, const std::string& what, double parts, double total) {
        invariant_failed("energy-parts-sum", t_ps, block,
                         what + " add up to " + num(parts) + " J, the total is " + num(total) + " J");
    };
    double total = 0;
    for (const cluster_acc& c : clusters_) {
        if (c.last_ps != t_ps)
            fail_sum(c.block, "integrated intervals", c.last_ps);
        std::uint64_t sum = 0;
        for (std::uint64_t ps : c.state_ps)
            sum += ps;
        if (sum != t_ps)
            fail_sum(c.block, "power-state residencies", sum);
        sum = 0;
        for (std::uint64_t ps : c.opp_ps)
            sum += ps;
        if (sum != t_ps)
            fail_sum(c.block, "OPP residencies", sum);

        double uncore = c.transition_j[0] + c.transition_j[1];
        for (double j : c.state_j)
            uncore += j;
        if (!close(uncore, c.uncore_energy_j))
            fail_parts(c.block, "shared-logic energies by state", uncore, c.uncore_energy_j);
        double cluster = c.uncore_energy_j;
        for (unsigned cpu : c.cpus) {
            const core_acc& k = cores_[cpu];
            const std::string block = "cpu" + std::to_string(cpu);
            std::uint64_t r = 0;
            double j = 0;
            for (int s = 0; s < ncore_states; s++) {
                r += k.residency_ps[s];
                j += k.state_j[s];
            }
            if (r != t_ps)
                fail_sum(block, "power-state residencies", r);
            if (!close(j, k.energy_j))
                fail_parts(block, "energies by state", j, k.energy_j);
            cluster += k.energy_j;
        }
        double by_opp = 0;
        for (double j : c.opp_j)
            by_opp += j;
        if (!close(by_opp, cluster))
            fail_parts(c.block, "energies by OPP", by_opp, cluster);
        total += cluster;
    }
    if (!close(total, total_energy_j()))
        fail_parts("the SoC", "cluster energies", total, total_energy_j());
}

double energy_meter::core_energy_j(unsigned cpu, core_power s) const
{
    return cores_.at(cpu).state_j[core_slot(s)];
}

double energy_meter::uncore_energy_j(unsigned cluster, cluster_power s) const
{
    return clusters_.at(cluster).state_j[cluster_slot(s)];
}

double energy_meter::transition_energy_j(unsigned cluster, cluster_transition t) const
{
    return clusters_.at(cluster).transition_j[static_cast<int>(t)];
}

std::uint64_t energy_meter::transitions(unsigned cluster, cluster_transition t) const
{
    return clusters_.at(cluster).transition_count[static_cast<int>(t)];
}

double energy_meter::cluster_energy_j(unsigned cluster) const
{
    const cluster_acc& c = clusters_.at(cluster);
    double e = c.uncore_energy_j;
    for (unsigned cpu : c.cpus)
        e += cores_[cpu].energy_j;
    return e;
}

double energy_meter::cluster_opp_energy_j(unsigned cluster, int opp_index) const
{
    return clusters_.at(cluster).opp_j.at(opp_index);
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
