// model/src/cci.cpp
#include "blsim/model/cci.h"

#include <algorithm>

#include "blsim/model/invariant.h"
#include "blsim/model/sim_time.h"
#include "blsim/model/tlm_util.h"

namespace blsim::model {

cci::cci(sc_core::sc_module_name name, const cci_params& params,
               std::vector<unsigned> slave_ports)
    : sc_module(name), regs("regs"), slave("slave", slave_ports.size()), master("master"),
      params_(params), ports_(std::move(slave_ports)), nslaves_(cci_slaves(params.variant)),
      clock_(std::string(basename()) + ".clock", params.clock_mhz), regs_(basename())
{
    regs.register_b_transport(this, &cci::b_transport_regs);
    for (unsigned k = 0; k < ports_.size(); k++) {
        BLSIM_CHECK(ports_[k] < nslaves_ && cci_is_ace(params_.variant, ports_[k]));
        slave[k].register_b_transport(this, &cci::b_transport_slave, static_cast<int>(k));
    }

    regs_.add({"control_override", 0x0000, 1, reg_access::rw,
               [this](unsigned, unsigned) { return control_override_; },
               [this](unsigned, unsigned, std::uint32_t v, std::uint32_t m) {
                   control_override_ = (control_override_ & ~m) | v;
               }});
    regs_.add({"status", status_offset, 1, reg_access::ro,
               [this](unsigned, unsigned) { return access_time_ < pending_until_ ? 1u : 0u; },
               nullptr});
    for (unsigned i = 0; i < nslaves_; i++) {
        regs_.add({"snoop_control", snoop_control(i), 1, reg_access::rw,
                   [this, i](unsigned, unsigned) {
                       // ACE interfaces support snoops and DVM.
                       const std::uint32_t support =
                           cci_is_ace(params_.variant, i) ? (snoop_supported | dvm_supported) : 0;
                       return control_[i] | support;
                   },
                   [this, i](unsigned, unsigned, std::uint32_t v, std::uint32_t m) {
                       write_snoop_control(i, v, m);
                   }});
    }
}

void cci::attach(unsigned k, snoop_if& caches, std::string cluster_name)
{
    const unsigned s = ports_.at(k);
    BLSIM_CHECK(!caches_[s]);
    caches_[s] = &caches;
    names_[s] = std::move(cluster_name);
}

void cci::write_snoop_control(unsigned s, std::uint32_t value, std::uint32_t mask)
{
    const std::uint32_t old = control_[s];
    control_[s] = (old & ~mask) | (value & mask & (snoop_enable | dvm_enable));
    if (!cci_is_ace(params_.variant, s))
        control_[s] = 0; // ACE-Lite interfaces cannot be snooped
    if (control_[s] != old) {
        // (Jitter draws first, stuck or not: a fault moves no jitter draw.)
        sc_core::sc_time until =
            access_time_ + jitter_.apply(clock_.cycles(params_.change_pending_cycles), jitter_class::register_access);
        if (stuck_fault_.fires(access_time_))
            stuck_until_ = until = access_time_ + stuck_time_;
        // A change while a stuck one lasts does not end it early. A write that changes nothing
        // (the driver's retry of the same request) is no change at all: it neither restarts
        // nor extends the stuck period, nor is it an operation that may fail.
        if (access_time_ < stuck_until_)
            until = std::max(until, stuck_until_);
        pending_until_ = until;
    }
    if ((old & snoop_enable) && !(control_[s] & snoop_enable) && caches_[s] &&
        caches_[s]->valid_lines() > 0) {
        invariant_failed("coherency-exit-clean", access_time_.value(), std::string("the ") + cci_product_name(params_.variant),
                         "snoops disabled on slave interface S" + std::to_string(s) + " (" + names_[s] +
                             ") while its caches hold " + std::to_string(caches_[s]->valid_lines()) +
                             " valid lines: a cluster must be flushed before it leaves coherency");
    }
}

void cci::b_transport_regs(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    access_time_ = sim_now() + delay;
    cpu_extension* ext = nullptr;
    trans.get_extension(ext);
    regs_.access(ext ? ext->cpu : 0, trans); // as cpu_of(trans)
    // The status reads change_pending until the change completes, and nothing else changes
    // it meanwhile but another write (which a poller's own loop does not make). With the
    // accesses jittered, no promise: the reads it would spare each take a time of their own.
    if (ext && trans.is_read() && trans.get_address() == status_offset && access_time_ < pending_until_ &&
        !jitter_.enabled(jitter_class::register_access))
        ext->steady_until = pending_until_;
    delay += jitter_.apply(clock_.cycles(params_.access_cycles), jitter_class::register_access);
}

void cci::b_transport_slave(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    const unsigned from = ports_.at(static_cast<unsigned>(id));
    coherent_extension* coh = nullptr;
    trans.get_extension(coh);
    const std::uint64_t len = trans.get_data_length();
    bytes_ += len;

    if (trans.is_read() && coh && coh->lines > 0) {
        // Every other cluster that is in coherency is asked in turn: without a snoop filter
        // for every line still missing (broadcast), with one only for the lines it holds.
        const bool filtered = cci_has_snoop_filter(params_.variant);
        std::uint64_t remaining = coh->lines;
        std::uint64_t hits = 0;
        for (unsigned s = 0; s < nslaves_ && remaining > 0; s++) {
            if (s == from || !caches_[s] || !snoops_enabled(s))
                continue;
            const std::uint64_t h = caches_[s]->snoop_read(coh->ctx, remaining);
            snoops_ += filtered ? h : remaining;
            BLSIM_CHECK(h <= remaining);
            hits += h;
            remaining -= h;
        }
        snoop_hits_ += hits;
        coh->snoop_hits = hits;
        if (hits > 0)
            delay += snoop_jitter_.apply(clock_.cycles(params_.snoop_hit_cycles +
                                                       static_cast<double>(params_.cycles_per_line) * (hits - 1)),
                                         jitter_class::memory_access);
        if (remaining > 0) {
            const std::uint64_t line_bytes = len / coh->lines;
            const std::uint64_t dram_bytes = remaining * line_bytes;
            trans.set_data_length(static_cast<unsigned>(dram_bytes));
            master->b_transport(trans, delay);
            trans.set_data_length(static_cast<unsigned>(len));
        }
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    // Write-backs and non-coherent traffic go straight to memory.
    master->b_transport(trans, delay);
}

} // namespace blsim::model
