// model/include/blsim/model/cluster.h -- a cluster: its cores, their L1 data caches, the
// shared L2, the clock and voltage domains, the DVFS controller, and the ACE master port
// through which it reaches the interconnect.
//
// Memory traffic of ordinary execution is aggregated: when software starts running a
// context on a core, warm() brings that context's working set into the core's L1 and the
// cluster's L2 in one step, and charges the time to serve what was missing: L2 hits at the
// core clock, the rest as one coherent burst through the CCI (snoops of the other cluster,
// then DRAM). Cache maintenance (clean_invalidate_l1/l2) writes dirty lines back the same
// way. docs/memory.md gives the cost model and its error bounds.
#pragma once

#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "blsim/model/cache.h"
#include "blsim/model/cci.h"
#include "blsim/model/clock_domain.h"
#include "blsim/model/core.h"
#include "blsim/model/dvfs_controller.h"
#include "blsim/model/jitter.h"
#include "blsim/model/params.h"
#include "blsim/model/power_controller.h"
#include "blsim/model/tlm_util.h"
#include "blsim/model/voltage_domain.h"

namespace blsim::model {

class cluster : public sc_core::sc_module, public snoop_if {
public:
    tlm_utils::simple_initiator_socket<cluster> ace; // to the CCI slave interface

    // @first_cpu: the global number of this cluster's first core.
    cluster(sc_core::sc_module_name name, unsigned index, const cluster_params& params,
            unsigned first_cpu, power_controller& pc, double reference_capacity);

    unsigned index() const { return index_; }
    const cluster_params& params() const { return params_; }
    clock_domain& clock() { return clock_; }
    voltage_domain& voltage() { return voltage_; }
    dvfs_controller& dvfs() { return *dvfs_; }
    unsigned ncores() const { return static_cast<unsigned>(cores_.size()); }
    core& core_at(unsigned i) { return *cores_.at(i); }

    // Jitter of its latencies: L2 hits of a fill ("cluster.<name>.fill", memory accesses), its
    // cache maintenance walks ("cluster.<name>.maintenance"), its DVFS steps
    // ("cluster.<name>.dvfs"), and its cores' shared-memory accesses ("cpu<N>"). Before the
    // simulation starts.
    void set_jitter(jitter_source& source);

    const cache_state& l1(unsigned core_index) const { return l1_.at(core_index); }
    const cache_state& l2() const { return l2_; }

    // Bring @ctx's working set (@ws_kb) into core @core_index's L1 and the L2. Returns the
    // time the core stalls for the lines that were missing; @offset is the core's local time
    // offset (the requests leave at sc_time_stamp() + offset).
    sc_core::sc_time warm(unsigned core_index, unsigned ctx, std::uint64_t ws_kb,
                          const sc_core::sc_time& offset);
    // @ctx, running on core @core_index, dirtied @write_fraction of its lines.
    void written(unsigned core_index, unsigned ctx, double write_fraction);
    // Clean and invalidate: L1 into L2 (inside the cluster); L2 (with every L1) into memory,
    // the write-back leaving at sc_time_stamp() + @offset. Return the time.
    sc_core::sc_time clean_invalidate_l1(unsigned core_index);
    sc_core::sc_time clean_invalidate_l2(const sc_core::sc_time& offset);
    // One 32-bit read from memory with caches off (a resume path issues them one after
    // another, each settled by its core): a round trip through the interconnect to DRAM,
    // leaving at sc_time_stamp() + @offset. Returns the time.
    sc_core::sc_time read_uncached_word(const sc_core::sc_time& offset);
    // Power loss: a core's L1 (or, for the cluster, everything) is gone. Returns the dirty
    // lines that were lost, which software should have cleaned.
    std::uint64_t core_powered_off(unsigned core_index);
    std::uint64_t cluster_powered_off();

    // snoop_if
    std::uint64_t snoop_read(unsigned ctx, std::uint64_t lines) override;
    std::uint64_t valid_lines() const override;

    // Counters, in lines.
    std::uint64_t l2_hits() const { return l2_hits_; }
    std::uint64_t fetched() const { return fetched_; }   // through the interconnect
    std::uint64_t written_back() const { return written_back_; }
    std::uint64_t uncached_reads() const { return uncached_reads_; } // words

private:
    std::uint64_t lines_of_kb(std::uint64_t kb) const;
    sc_core::sc_time burst(tlm::tlm_command cmd, unsigned ctx, std::uint64_t lines,
                           const sc_core::sc_time& offset);

    unsigned index_;
    const cluster_params& params_;
    clock_domain clock_;
    voltage_domain voltage_;
    std::unique_ptr<dvfs_controller> dvfs_;
    std::vector<std::unique_ptr<core>> cores_;
    std::vector<cache_state> l1_;
    cache_state l2_;
    std::uint64_t l2_hits_ = 0, fetched_ = 0, written_back_ = 0, uncached_reads_ = 0;
    // read_uncached_word's transaction, made once: a restore reads many words.
    tlm::tlm_generic_payload uncached_;
    jitter fill_jitter_, maintenance_jitter_;
    tlm::tlm_generic_payload burst_;    // every coherent burst's (burst())
    coherent_extension* coh_ = nullptr; // on burst_, which owns it
};

} // namespace blsim::model
