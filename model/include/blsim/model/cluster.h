// model/include/blsim/model/cluster.h -- a cluster: its cores, clock and voltage domains and
// the DVFS controller that moves them together.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/core.h"
#include "blsim/model/dvfs_controller.h"
#include "blsim/model/params.h"
#include "blsim/model/power_controller.h"
#include "blsim/model/voltage_domain.h"

namespace blsim::model {

class cluster : public sc_core::sc_module {
public:
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

private:
    unsigned index_;
    const cluster_params& params_;
    clock_domain clock_;
    voltage_domain voltage_;
    std::unique_ptr<dvfs_controller> dvfs_;
    std::vector<std::unique_ptr<core>> cores_;
};

} // namespace blsim::model
