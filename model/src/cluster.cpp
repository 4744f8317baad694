// model/src/cluster.cpp
#include "blsim/model/cluster.h"

#include "blsim/model/energy.h"

namespace blsim::model {

cluster::cluster(sc_core::sc_module_name name, unsigned index, const cluster_params& params,
                 unsigned first_cpu, power_controller& pc, double reference_capacity)
    : sc_module(name), index_(index), params_(params),
      clock_(params.name + ".clock", params.opps.at(boot_opp_index(params)).freq_mhz),
      voltage_(params.name + ".voltage", params.opps.at(boot_opp_index(params)).voltage_mv)
{
    dvfs_ = std::make_unique<dvfs_controller>("dvfs", params.opps, params.dvfs, clock_, voltage_,
                                              boot_opp_index(params));
    for (int i = 0; i < params.cores; i++) {
        std::string core_name = "cpu" + std::to_string(first_cpu + i);
        cores_.push_back(std::make_unique<core>(core_name.c_str(), first_cpu + i, params, clock_,
                                                pc, reference_capacity));
    }
}

} // namespace blsim::model
