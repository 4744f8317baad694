// model/include/blsim/model/dvfs_controller.h -- applies OPP requests to a cluster's clock and
// voltage domains with the transition latencies of the power controller.
//
// Going up, the voltage is raised first and the frequency follows; going down, the frequency
// is lowered first and the voltage follows, so the clock never runs faster than its voltage
// allows. Each step takes its latency; the core keeps running at the old frequency until the
// PLL has relocked. Requests arriving during a transition are coalesced: when one transition
// ends the controller moves to the latest request.
#pragma once

#include <systemc>
#include <vector>

#include "blsim/model/clock_domain.h"
#include "blsim/model/jitter.h"
#include "blsim/model/params.h"
#include "blsim/model/voltage_domain.h"

namespace blsim::model {

class dvfs_controller : public sc_core::sc_module {
public:
    dvfs_controller(sc_core::sc_module_name name, const std::vector<opp_point>& opps,
                    const dvfs_params& params, clock_domain& clock, voltage_domain& voltage,
                    int boot_index);

    // Ask for OPP @index (into the ascending table). Any context; never blocks.
    void request(int index);

    // Jitter of its voltage and frequency steps (each step one draw). Before the simulation
    // starts.
    void set_jitter(jitter j) { jitter_ = j; }

    // Index of @freq_mhz in the table, or -1 when it is not an OPP.
    int index_of(int freq_mhz) const;

    const std::vector<opp_point>& opps() const { return opps_; }
    int current_index() const { return current_; }
    // Notified when a transition has finished (the clock and the voltage are at the OPP).
    const sc_core::sc_event& done_event() const { return done_event_; }
    int target_index() const { return target_; }
    std::uint64_t transitions() const { return transitions_; }

private:
    void run();

    const std::vector<opp_point>& opps_;
    dvfs_params params_;
    clock_domain& clock_;
    voltage_domain& voltage_;
    int current_;
    int target_;
    std::uint64_t transitions_ = 0;
    sc_core::sc_event request_event_;
    sc_core::sc_event done_event_;
    jitter jitter_;
};

} // namespace blsim::model
