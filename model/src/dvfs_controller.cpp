// model/src/dvfs_controller.cpp
#include "blsim/model/dvfs_controller.h"

#include "blsim/model/invariant.h"

namespace blsim::model {

using sc_core::sc_time;
using sc_core::SC_US;

dvfs_controller::dvfs_controller(sc_core::sc_module_name name, const std::vector<opp_point>& opps,
                                 const dvfs_params& params, clock_domain& clock,
                                 voltage_domain& voltage, int boot_index)
    : sc_module(name), opps_(opps), params_(params), clock_(clock), voltage_(voltage),
      current_(boot_index), target_(boot_index)
{
    BLSIM_CHECK(boot_index >= 0 && boot_index < static_cast<int>(opps.size()));
    BLSIM_CHECK(clock.freq_mhz() == opps[boot_index].freq_mhz);
    SC_HAS_PROCESS(dvfs_controller);
    SC_THREAD(run);
}

int dvfs_controller::index_of(int freq_mhz) const
{
    for (std::size_t i = 0; i < opps_.size(); i++)
        if (opps_[i].freq_mhz == freq_mhz)
            return static_cast<int>(i);
    return -1;
}

void dvfs_controller::request(int index)
{
    BLSIM_CHECK(index >= 0 && index < static_cast<int>(opps_.size()));
    target_ = index;
    request_event_.notify(sc_core::SC_ZERO_TIME);
}

void dvfs_controller::run()
{
    const sc_time v_lat(params_.voltage_latency_us, SC_US);
    const sc_time f_lat(params_.freq_latency_us, SC_US);
    for (;;) {
        while (target_ == current_)
            wait(request_event_);
        const opp_point& next = opps_[target_];
        const int index = target_;
        if (next.freq_mhz > clock_.freq_mhz()) {
            if (next.voltage_mv != voltage_.voltage_mv()) {
                wait(jitter_.apply(v_lat, jitter_class::dvfs));
                voltage_.set_voltage_mv(next.voltage_mv);
            }
            wait(jitter_.apply(f_lat, jitter_class::dvfs));
            clock_.set_freq_mhz(next.freq_mhz);
        } else {
            wait(jitter_.apply(f_lat, jitter_class::dvfs));
            clock_.set_freq_mhz(next.freq_mhz);
            if (next.voltage_mv != voltage_.voltage_mv()) {
                wait(jitter_.apply(v_lat, jitter_class::dvfs));
                voltage_.set_voltage_mv(next.voltage_mv);
            }
        }
        current_ = index;
        transitions_++;
        done_event_.notify(sc_core::SC_ZERO_TIME);
    }
}

} // namespace blsim::model
