// model/include/blsim/model/power_controller.h -- the SoC power controller (TC2's SPC).
//
// Holds the power state of every core and cluster, their entry and exit latencies, and the
// wake-up requests. The state-changing sequences are blocking calls made from the thread of
// the CPU they concern, the way a real core's last instructions (WFI, a power-down request)
// hand it to the controller: they consume that CPU's simulated time.
//
// Accounting convention: a core or cluster counts as on from the moment its exit (power-up)
// starts and until its entry (power-down) latency has elapsed, so transitions are charged at
// the on-state power.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "blsim/model/observable.h"
#include "blsim/model/params.h"
#include "blsim/model/power_state.h"

namespace blsim::model {

class power_controller : public sc_core::sc_module {
public:
    power_controller(sc_core::sc_module_name name, const soc_params& soc);

    unsigned ncpus() const { return static_cast<unsigned>(cpu_cluster_.size()); }
    unsigned nclusters() const { return static_cast<unsigned>(clusters_.size()); }
    unsigned cluster_of(unsigned cpu) const { return cpu_cluster_.at(cpu); }

    core_power core_state(unsigned cpu) const { return cores_.at(cpu); }
    cluster_power cluster_state(unsigned cluster) const;

    // WFI entry: runs on @cpu, which is on. Waits the entry latency, then clock-gates it.
    void core_enter_wfi(unsigned cpu);
    // Power-down: runs on @cpu, which is on. Waits the entry latency and turns it off; when
    // it was the last core up and the cluster may power down, waits the cluster's entry
    // latency and turns the cluster off too.
    void core_enter_off(unsigned cpu);
    // Wake-up: runs on @cpu, which is in WFI or off. Powers its cluster up first when needed
    // (one CPU does it; another arriving meanwhile waits for it), then the core.
    void core_exit(unsigned cpu);

    // A wake-up request for a core (as software writing the controller's power-up register
    // would make). Any context. A request for a core that is not off yet is kept: the core
    // comes straight back up when it goes down.
    void request_power_up(unsigned cpu);
    // Software's permission for @cluster to power off with its last core (TC2's PWRDN_EN);
    // effective only where the configuration says the cluster can be power-gated.
    void set_cluster_power_down(unsigned cluster, bool enable);
    bool cluster_power_down_enabled(unsigned cluster) const { return clusters_.at(cluster).powerdown_enabled; }
    bool power_up_requested(unsigned cpu) const { return wake_requested_.at(cpu); }
    const sc_core::sc_event& power_up_event(unsigned cpu) const { return *wake_events_.at(cpu); }

    observable<unsigned /*cpu*/, core_power /*old*/, core_power /*new*/> core_changed;
    observable<unsigned /*cluster*/, cluster_power /*old*/, cluster_power /*new*/> cluster_changed;

    std::uint64_t transitions() const { return transitions_; }

private:
    // The controller's own view includes the transitional states; observers see on/off.
    enum class cluster_phase { on, going_down, off, coming_up };

    void set_core(unsigned cpu, core_power s);
    void set_cluster(unsigned cluster, cluster_phase p);
    void cluster_power_up(unsigned cluster);

    struct cluster_slot {
        power_params params;
        // The latencies as simulation times, converted once.
        sc_core::sc_time wfi_entry, wfi_exit, off_entry, off_exit, cluster_entry, cluster_exit;
        std::vector<unsigned> cpus;
        cluster_phase phase = cluster_phase::on;
        bool powerdown_enabled = false; // set by software before its last core goes down
        std::unique_ptr<sc_core::sc_event> changed_event;
    };

    std::vector<cluster_slot> clusters_;
    std::vector<unsigned> cpu_cluster_;
    std::vector<core_power> cores_;
    std::vector<bool> wake_requested_;
    std::vector<std::unique_ptr<sc_core::sc_event>> wake_events_;
    std::uint64_t transitions_ = 0;
};

} // namespace blsim::model
