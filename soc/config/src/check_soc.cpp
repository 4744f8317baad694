// soc/config/src/check_soc.cpp -- the semantic checks of the SoC: what its schema's types and
// ranges cannot say (its clusters' OPPs and power tables, the bus's windows, the interconnect's
// and the interrupt controller's limits, the idle states).
#include "scenario_internal.h"

#include <bls/types.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <set>

#include "blsim/model/power_formulas.h"

namespace blsim::soc {

using cfg::bind_context;
using cfg::diagnostics;
using cfg::mark;

namespace detail {

namespace {

// A cluster's names and required keys: a name used once, its OPPs within the kernel's tables,
// and the power model's coefficients, which have no default.
void check_cluster_declared(const scenario_config& c, const model::cluster_params& cl, const std::string& p,
                            std::set<std::string>& names, const bind_context& ctx, diagnostics& d)
{
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
}

// A cluster's OPPs in ascending order, and what a faster one costs.
void check_opp_order(const model::cluster_params& cl, const std::string& p, const bind_context& ctx, diagnostics& d)
{
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
}

// The scheduler's EAS idle costs draw no more than the states above them: powered down no more
// than powered and idle, idle no more than busy at any OPP.
void check_eas_idle_costs(const model::cluster_params& cl, const std::string& p, const bind_context& ctx,
                          diagnostics& d)
{
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
}

// The hardware's busy cluster (the EAS table, less its cores' leakage, plus any L2 beyond the
// one it was measured with) draws at least what it draws idle (leakage and clock): the table was
// measured with the cluster's static power in it.
void check_eas_uncore_power(const model::cluster_params& cl, const std::string& p, const bind_context& ctx,
                            diagnostics& d)
{
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
}

// The frequency a cluster boots at is one of its OPPs.
void check_boot_freq(const model::cluster_params& cl, const std::string& p, const bind_context& ctx, diagnostics& d)
{
    if (cl.boot_freq_mhz != 0 &&
        std::none_of(cl.opps.begin(), cl.opps.end(),
                     [&](const model::opp_point& o) { return o.freq_mhz == cl.boot_freq_mhz; }))
        d.error(ctx.where(p + ".boot_freq_mhz"), p + ".boot_freq_mhz: " +
                                                     std::to_string(cl.boot_freq_mhz) +
                                                     " MHz is not an OPP of cluster '" +
                                                     cl.name + "'");
}

} // namespace

void check_clusters(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    std::set<std::string> names;
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++) {
        const model::cluster_params& cl = c.soc.clusters[i];
        const std::string p = "soc.clusters[" + std::to_string(i) + "]";
        check_cluster_declared(c, cl, p, names, ctx, d);
        check_opp_order(cl, p, ctx, d);
        check_eas_idle_costs(cl, p, ctx, d);
        if (c.soc.energy.model == model::power_model_kind::eas)
            check_eas_uncore_power(cl, p, ctx, d);
        check_boot_freq(cl, p, ctx, d);
    }
}

// Device windows on the system bus may not overlap.
void check_device_windows(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
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
}

// Each cluster behind an ACE interface of the interconnect, one cluster per interface.
void check_cci_ports(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
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
}

// The interrupt controller's limits: the GIC-400 has eight CPU interfaces (GICv2's limit: its
// target fields are 8 bits), and its interrupt lines come in 32s.
void check_gic(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
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
}


// The fault injection's: a spurious interrupt every few nanoseconds would leave the run nothing
// else to simulate.
void check_faults(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
    if (c.faults.spurious_irq.interval_us > 0 && c.faults.spurious_irq.interval_us < 1)
        d.error(ctx.where("faults.spurious_irq.interval_us"),
                "faults.spurious_irq.interval_us: " + cfg::format_number(c.faults.spurious_irq.interval_us) +
                    " us is below 1 us (0: no spurious interrupts at random)");
}

// Each cluster's idle states, shallowest (wfi) first.
void check_idle_states(const scenario_config& c, const bind_context& ctx, diagnostics& d)
{
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
}

} // namespace detail

} // namespace blsim::soc
