// soc/platform/src/build_hw.cpp -- the platform's hardware: the blocks a scenario's SoC has,
// wired together, their register windows on the bus, and the timing jitter and injected faults
// they draw from.
#include "blsim/soc/platform.h"

#include <algorithm>

namespace blsim::soc {

namespace {

// The devices' register windows on the bus, in the order their sockets are bound to it: a
// window's number is its device's target index on the router.
enum class bus_window : unsigned { gic_distributor, gic_cpu_interface, cci, sram, power_controller };

// Bind @device as the bus's next target and map [base, base + size) to it as @window.
template <typename socket>
void map_window(model::router& bus, bus_window window, socket& device, long long base, std::uint64_t size)
{
    bus.out.bind(device);
    bus.map(static_cast<std::uint64_t>(base), size, static_cast<unsigned>(window));
}

double reference_capacity(const model::soc_params& soc)
{
    double best = 0;
    for (const model::cluster_params& c : soc.clusters)
        best = std::max(best, static_cast<double>(c.capacity_dmips_mhz) * c.opps.back().freq_mhz);
    return best;
}

} // namespace

void platform::build_hw()
{
    // The clusters and their cores, under the power controller.
    const model::soc_params& soc = cfg_.soc;
    pc_ = std::make_unique<model::power_controller>("power_controller", soc);
    const double ref = reference_capacity(soc);
    unsigned first_cpu = 0;
    std::vector<unsigned> cci_ports;
    for (std::size_t i = 0; i < soc.clusters.size(); i++) {
        const model::cluster_params& cp = soc.clusters[i];
        clusters_.push_back(std::make_unique<model::cluster>(
            cp.name.c_str(), static_cast<unsigned>(i), cp, first_cpu, *pc_, ref));
        for (unsigned k = 0; k < clusters_.back()->ncores(); k++)
            cores_.push_back(&clusters_.back()->core_at(k));
        first_cpu_.push_back(first_cpu);
        first_cpu += static_cast<unsigned>(cp.cores);
        cci_ports.push_back(static_cast<unsigned>(cp.cci_port));
    }
    const unsigned ncpus = first_cpu;

    // The system: interrupt controller, interconnect, memory, and the bus CPUs reach
    // device registers through.
    gic_clock_ = std::make_unique<model::clock_domain>("gic.clock", soc.gic.clock_mhz);
    gic_ = std::make_unique<model::gic400>("gic", ncpus, soc.gic, *gic_clock_);
    cci_ = std::make_unique<model::cci>("cci", soc.cci, cci_ports);
    dram_ = std::make_unique<model::dram>("dram", soc.dram);
    bus_ = std::make_unique<model::router>("bus");
    irq_lines_.init(ncpus);
    wake_lines_.init(ncpus);
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        cores_[cpu]->bus.bind(bus_->in);
        cores_[cpu]->irq.bind(irq_lines_[cpu]);
        cores_[cpu]->wake.bind(wake_lines_[cpu]);
        gic_->irq[cpu].bind(irq_lines_[cpu]);
        gic_->wake[cpu].bind(wake_lines_[cpu]);
    }
    sram_ = std::make_unique<model::sram>("sram", soc.sram);
    // The power controller's completion interrupt is a level line into the GIC; the clusters'
    // DVFS controllers are behind its performance requests.
    pc_->connect_irq([this](bool level) { gic_->set_spi_level(static_cast<unsigned>(cfg_.soc.spc.irq), level); });
    for (std::size_t i = 0; i < clusters_.size(); i++)
        pc_->attach_dvfs(static_cast<unsigned>(i), clusters_[i]->dvfs());
    for (std::size_t i = 0; i < clusters_.size(); i++) {
        clusters_[i]->ace.bind(cci_->slave[i]);
        cci_->attach(static_cast<unsigned>(i), *clusters_[i], soc.clusters[i].name);
    }
    cci_->master.bind(dram_->socket);

    // The per-CPU timers: each drives its CPU's timer PPI, level-sensitive.
    timer_ = std::make_unique<model::generic_timer>(
        "timer", ncpus, [this](unsigned cpu, bool level) { gic_->set_ppi_level(cpu, timer_ppi, level); });
}

void platform::map_bus()
{
    const model::soc_params& soc = cfg_.soc;
    map_window(*bus_, bus_window::gic_distributor, gic_->dist_socket, soc.gic.dist_base, 0x1000);
    map_window(*bus_, bus_window::gic_cpu_interface, gic_->cpu_socket, soc.gic.cpu_base, 0x2000);
    map_window(*bus_, bus_window::cci, cci_->regs, soc.cci.base, 0x10000);
    map_window(*bus_, bus_window::sram, sram_->socket, soc.sram.base, sram_->size());
    map_window(*bus_, bus_window::power_controller, pc_->regs, soc.spc.base,
               model::power_controller::window_bytes);
}

void platform::perturb_hw()
{
    // Timing jitter: each block draws from streams of its own, named after it (docs/hardware.md,
    // "Timing jitter"); off, nothing draws and every latency is nominal.
    jitter_ = std::make_unique<model::jitter_source>(cfg_.jitter, static_cast<std::uint64_t>(cfg_.seed));
    if (jitter_->enabled()) {
        pc_->set_jitter(*jitter_);
        for (auto& cl : clusters_)
            cl->set_jitter(*jitter_);
        gic_->set_jitter(*jitter_);
        cci_->set_jitter(*jitter_);
        dram_->set_jitter(*jitter_);
    }
    // Injected faults, from streams of their own (independent of the jitter's): with none
    // configured no block is told, and nothing draws.
    faults_ = std::make_unique<model::fault_source>(cfg_.faults, static_cast<std::uint64_t>(cfg_.seed));
    if (faults_->any()) {
        pc_->set_faults(*faults_);
        cci_->set_faults(*faults_);
        gic_->set_faults(*faults_, [this](unsigned cpu) { return pc_->core_state(cpu) == model::core_power::off; });
    }
}

} // namespace blsim::soc
