// soc/src/platform.cpp
#include "blsim/soc/platform.h"

#include <cassert>
#include <stdexcept>

namespace blsim::soc {

namespace {

std::uint64_t now_ps()
{
    return sc_core::sc_time_stamp().value();
}

double reference_capacity(const model::soc_params& soc)
{
    double best = 0;
    for (const model::cluster_params& c : soc.clusters)
        best = std::max(best, static_cast<double>(c.capacity_dmips_mhz) * c.opps.back().freq_mhz);
    return best;
}

} // namespace

platform::platform(const scenario_config& cfg) : cfg_(cfg)
{
    // Every time in the model is an integer number of picoseconds.
    if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
        throw std::logic_error("blsim needs SystemC's default 1 ps time resolution");

    const model::soc_params& soc = cfg_.soc;
    pc_ = std::make_unique<model::power_controller>("power_controller", soc);
    const double ref = reference_capacity(soc);
    unsigned first_cpu = 0;
    for (std::size_t i = 0; i < soc.clusters.size(); i++) {
        const model::cluster_params& cp = soc.clusters[i];
        clusters_.push_back(std::make_unique<model::cluster>(
            cp.name.c_str(), static_cast<unsigned>(i), cp, first_cpu, *pc_, ref));
        for (unsigned k = 0; k < clusters_.back()->ncores(); k++)
            cores_.push_back(&clusters_.back()->core_at(k));
        first_cpu += cp.cores;
    }

    // Observers: the energy meter hears every power-state, frequency and voltage change.
    power_model_ = model::make_power_model(soc.energy);
    meter_ = std::make_unique<model::energy_meter>(soc, *power_model_);
    pc_->core_changed.subscribe([this](unsigned cpu, model::core_power, model::core_power s) {
        meter_->core_state(now_ps(), cpu, s);
    });
    pc_->cluster_changed.subscribe(
        [this](unsigned cl, model::cluster_power, model::cluster_power s) {
            meter_->cluster_state(now_ps(), cl, s);
        });
    for (std::size_t i = 0; i < clusters_.size(); i++) {
        const unsigned cl = static_cast<unsigned>(i);
        clusters_[i]->clock().changed.subscribe(
            [this, cl](int, int mhz) { meter_->frequency(now_ps(), cl, mhz); });
        clusters_[i]->voltage().changed.subscribe(
            [this, cl](int, int mv) { meter_->voltage(now_ps(), cl, mv); });
    }

    // The software: one C kernel shared by every core, the governor started on the boot CPU.
    governor_.ops = &bls_governor_fixed;
    governor_.plat_ops = &systemc_platform_ops();
    governor_.plat = this;
    governor_.nclusters = static_cast<unsigned>(soc.clusters.size());
    for (std::size_t i = 0; i < soc.clusters.size(); i++) {
        const model::cluster_params& cp = soc.clusters[i];
        governor_.freq_mhz[i] = static_cast<unsigned>(cp.opps.at(model::boot_opp_index(cp)).freq_mhz);
        for (const auto& [name, mhz] : cfg_.governor.freq_mhz)
            if (name == cp.name)
                governor_.freq_mhz[i] = static_cast<unsigned>(mhz);
    }

    bls_kernel_config kc{};
    kc.ncpus = static_cast<unsigned>(cores_.size());
    kc.boot_cpu = 0;
    kc.ntasks = static_cast<unsigned>(cfg_.workload.tasks.size());
    for (std::size_t t = 0; t < cfg_.workload.tasks.size(); t++) {
        kc.tasks[t].cpu = static_cast<unsigned>(cfg_.workload.tasks[t].cpu);
        kc.tasks[t].mem_fraction = cfg_.workload.tasks[t].mem_fraction;
    }
    int rc = bls_kernel_init(&kernel_, &kc, &systemc_platform_ops(), this, &governor_);
    if (rc != 0)
        throw std::logic_error("bls_kernel_init refused a validated configuration: " +
                               std::to_string(rc));
    for (model::core* c : cores_) {
        const unsigned cpu = c->cpu();
        c->set_software([this, cpu] { bls_kernel_cpu_main(&kernel_, cpu); });
    }

    workload_ = std::make_unique<workloads::constant_taskset>(
        "workload", cfg_.workload.tasks, [this](unsigned task, double ref_ns) {
            bls_kernel_add_work(&kernel_, task, ref_ns);
            cores_.at(cfg_.workload.tasks[task].cpu)->raise_irq();
        });
}

platform::~platform() = default;

model::core& platform::core_at(unsigned cpu) { return *cores_.at(cpu); }

void platform::run()
{
    sc_core::sc_start(sc_core::sc_time(cfg_.duration_s, sc_core::SC_SEC));
    meter_->advance_all(now_ps());
}

std::uint64_t platform::events() const
{
    std::uint64_t n = pc_->transitions() + workload_->releases();
    for (const auto& cl : clusters_) {
        n += cl->dvfs().transitions();
        for (unsigned k = 0; k < cl->ncores(); k++)
            n += cl->core_at(k).segments();
    }
    return n;
}

} // namespace blsim::soc
