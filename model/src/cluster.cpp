// model/src/cluster.cpp
#include "blsim/model/cluster.h"

#include "blsim/model/energy.h"
#include "blsim/model/invariant.h"
#include "blsim/model/tlm_util.h"

namespace blsim::model {

namespace {

std::uint64_t kb_to_lines(std::uint64_t kb, int line_bytes)
{
    return (kb * 1024 + static_cast<std::uint64_t>(line_bytes) - 1) / static_cast<std::uint64_t>(line_bytes);
}

} // namespace

cluster::cluster(sc_core::sc_module_name name, unsigned index, const cluster_params& params,
                 unsigned first_cpu, power_controller& pc, double reference_capacity)
    : sc_module(name), ace("ace"), index_(index), params_(params),
      clock_(params.name + ".clock", params.opps.at(boot_opp_index(params)).freq_mhz),
      voltage_(params.name + ".voltage", params.opps.at(boot_opp_index(params)).voltage_mv),
      l2_(kb_to_lines(static_cast<std::uint64_t>(params.caches.l2_kb), params.caches.line_bytes))
{
    dvfs_ = std::make_unique<dvfs_controller>("dvfs", params.opps, params.dvfs, clock_, voltage_,
                                              boot_opp_index(params));
    for (int i = 0; i < params.cores; i++) {
        std::string core_name = "cpu" + std::to_string(first_cpu + i);
        cores_.push_back(std::make_unique<core>(core_name.c_str(), first_cpu + i, index, params,
                                                clock_, pc, reference_capacity));
        l1_.emplace_back(lines_of_kb(static_cast<std::uint64_t>(params.caches.l1d_kb)));
    }
    // The coherent bursts' payload, reused (one allocates its extension array on construction)
    // with its extension for good, which it owns. The interconnect and the memory serve a
    // burst without waiting, so no second burst of this cluster can start while one is in it.
    coh_ = new coherent_extension;
    burst_.set_extension(coh_);
}

void cluster::set_jitter(jitter_source& source)
{
    const std::string prefix = "cluster." + params_.name;
    fill_jitter_ = source.stream(prefix + ".fill");
    maintenance_jitter_ = source.stream(prefix + ".maintenance");
    dvfs_->set_jitter(source.stream(prefix + ".dvfs"));
    for (auto& c : cores_)
        c->set_jitter(source);
}

std::uint64_t cluster::lines_of_kb(std::uint64_t kb) const
{
    return kb_to_lines(kb, params_.caches.line_bytes);
}

sc_core::sc_time cluster::burst(tlm::tlm_command cmd, unsigned ctx, std::uint64_t lines,
                                const sc_core::sc_time& offset)
{
    tlm::tlm_generic_payload& trans = burst_;
    coh_->ctx = ctx;
    coh_->lines = lines;
    coh_->snoop_hits = 0;
    trans.set_command(cmd);
    trans.set_address(0); // the statistical caches have no addresses; the length is what counts
    trans.set_data_ptr(nullptr);
    trans.set_data_length(static_cast<unsigned>(lines * static_cast<std::uint64_t>(params_.caches.line_bytes)));
    trans.set_streaming_width(trans.get_data_length());
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = offset;
    ace->b_transport(trans, delay);
    BLSIM_CHECK(trans.is_response_ok());
    return delay - offset;
}

sc_core::sc_time cluster::warm(unsigned core_index, unsigned ctx, std::uint64_t ws_kb,
                               const sc_core::sc_time& offset)
{
    const std::uint64_t ws = lines_of_kb(ws_kb);
    if (ws == 0)
        return sc_core::SC_ZERO_TIME;
    cache_state& l1 = l1_.at(core_index);
    const std::uint64_t in_l2 = l2_.lines(ctx);

    // L1 first: what it lacks comes from L2 when L2 has it. Dirty lines it evicts go
    // down into L2.
    const cache_state::fill_result r1 = l1.fill(ctx, ws);
    for (const auto& [victim, n] : r1.evicted_dirty_by_ctx)
        l2_.absorb_dirty(victim, n);
    const std::uint64_t from_l2 = std::min(r1.filled, in_l2);

    // L2 then gets the whole working set (as much as fits) through the interconnect.
    const cache_state::fill_result r2 = l2_.fill(ctx, ws);
    sc_core::sc_time stall = sc_core::SC_ZERO_TIME;
    if (from_l2 > 0) {
        l2_hits_ += from_l2;
        stall += fill_jitter_.apply(
            clock_.cycles(params_.caches.l2_hit_cycles +
                          static_cast<double>(params_.caches.l2_cycles_per_line) * (from_l2 - 1)),
            jitter_class::memory_access);
    }
    if (r2.filled > 0) {
        fetched_ += r2.filled;
        stall += burst(tlm::TLM_READ_COMMAND, ctx, r2.filled, offset + stall);
    }
    // L2 victims that were dirty go to memory: posted writes, they occupy the DRAM but the
    // core does not wait for them.
    if (r2.evicted_dirty > 0) {
        written_back_ += r2.evicted_dirty;
        burst(tlm::TLM_WRITE_COMMAND, ctx, r2.evicted_dirty, offset + stall);
    }
    return stall;
}

void cluster::written(unsigned core_index, unsigned ctx, double write_fraction)
{
    // The L2 is inclusive: the lines written are dirty there too, including those the L1 is
    // too small to hold (they were written back into the L2 as the L1 evicted them).
    l1_.at(core_index).write(ctx, write_fraction);
    l2_.write(ctx, write_fraction);
}

sc_core::sc_time cluster::clean_invalidate_l1(unsigned core_index)
{
    cache_state& l1 = l1_.at(core_index);
    // Set/way maintenance visits every line; each dirty one costs a write into L2.
    const std::uint64_t dirty = l1.clean([this](unsigned ctx, std::uint64_t n) { l2_.absorb_dirty(ctx, n); });
    l1.invalidate();
    return maintenance_jitter_.apply(
        clock_.cycles(static_cast<double>(params_.caches.l1_walk_cycles_per_line) * l1.capacity() +
                      static_cast<double>(params_.caches.clean_cycles_per_line) * dirty),
        jitter_class::cache_maintenance);
}

sc_core::sc_time cluster::clean_invalidate_l2(const sc_core::sc_time& offset)
{
    // L1s first (v7_exit_coherency_flush(all) cleans the caller's L1 and L2; the other
    // cores of the cluster are down with clean L1s), then L2 to memory.
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    for (unsigned i = 0; i < l1_.size(); i++)
        if (l1_[i].valid_lines() > 0)
            t += clean_invalidate_l1(i);
    const std::uint64_t dirty = l2_.clean([](unsigned, std::uint64_t) {});
    l2_.invalidate();
    // The walk issues the dirty lines' write-backs as it goes; the interconnect and DRAM
    // drain them meanwhile. The clean ends when both the walk and the drain are done.
    const sc_core::sc_time walk = maintenance_jitter_.apply(
        clock_.cycles(static_cast<double>(params_.caches.l2_walk_cycles_per_line) * l2_.capacity() +
                      static_cast<double>(params_.caches.clean_cycles_per_line) * dirty),
        jitter_class::cache_maintenance);
    sc_core::sc_time drain = sc_core::SC_ZERO_TIME;
    if (dirty > 0) {
        written_back_ += dirty;
        drain = burst(tlm::TLM_WRITE_COMMAND, 0, dirty, offset + t);
    }
    return t + std::max(walk, drain);
}

sc_core::sc_time cluster::read_uncached_word(const sc_core::sc_time& offset)
{
    sc_core::sc_time delay = offset;
    std::uint32_t word = 0;
    tlm::tlm_generic_payload& trans = uncached_;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(0);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ace->b_transport(trans, delay);
    BLSIM_CHECK(trans.is_response_ok());
    uncached_reads_++;
    return delay - offset;
}

std::uint64_t cluster::core_powered_off(unsigned core_index)
{
    return l1_.at(core_index).invalidate();
}

std::uint64_t cluster::cluster_powered_off()
{
    std::uint64_t lost = l2_.invalidate();
    for (cache_state& l1 : l1_)
        lost += l1.invalidate();
    return lost;
}

std::uint64_t cluster::snoop_read(unsigned ctx, std::uint64_t lines)
{
    // L2 holds everything its L1s hold (the model keeps it inclusive).
    return std::min(lines, l2_.lines(ctx));
}

std::uint64_t cluster::valid_lines() const
{
    std::uint64_t n = l2_.valid_lines();
    for (const cache_state& l1 : l1_)
        n += l1.valid_lines();
    return n;
}

} // namespace blsim::model
