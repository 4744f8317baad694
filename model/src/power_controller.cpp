// model/src/power_controller.cpp
#include "blsim/model/power_controller.h"

#include <algorithm>
#include <cassert>

namespace blsim::model {

using sc_core::sc_time;
using sc_core::SC_US;

power_controller::power_controller(sc_core::sc_module_name name, const soc_params& soc)
    : sc_module(name)
{
    for (const cluster_params& cp : soc.clusters) {
        cluster_slot slot;
        slot.params = cp.power;
        slot.wfi_entry = sc_time(cp.power.core_wfi_entry_us, SC_US);
        slot.wfi_exit = sc_time(cp.power.core_wfi_exit_us, SC_US);
        slot.off_entry = sc_time(cp.power.core_off_entry_us, SC_US);
        slot.off_exit = sc_time(cp.power.core_off_exit_us, SC_US);
        slot.cluster_entry = sc_time(cp.power.cluster_off_entry_us, SC_US);
        slot.cluster_exit = sc_time(cp.power.cluster_off_exit_us, SC_US);
        slot.changed_event = std::make_unique<sc_core::sc_event>();
        for (int i = 0; i < cp.cores; i++) {
            slot.cpus.push_back(static_cast<unsigned>(cpu_cluster_.size()));
            cpu_cluster_.push_back(static_cast<unsigned>(clusters_.size()));
            cores_.push_back(core_power::on);
            wake_requested_.push_back(false);
            wake_events_.push_back(std::make_unique<sc_core::sc_event>());
        }
        clusters_.push_back(std::move(slot));
    }
}

cluster_power power_controller::cluster_state(unsigned cluster) const
{
    switch (clusters_.at(cluster).phase) {
    case cluster_phase::on: return cluster_power::on;
    case cluster_phase::going_down: return cluster_power::powering_down;
    case cluster_phase::off: return cluster_power::off;
    case cluster_phase::coming_up: return cluster_power::powering_up;
    }
    return cluster_power::on;
}

void power_controller::set_core(unsigned cpu, core_power s)
{
    core_power old = cores_.at(cpu);
    if (old == s)
        return;
    cores_[cpu] = s;
    transitions_++;
    core_changed.publish(cpu, old, s);
}

void power_controller::set_cluster(unsigned cluster, cluster_phase p)
{
    cluster_slot& c = clusters_.at(cluster);
    cluster_power old = cluster_state(cluster);
    c.phase = p;
    c.changed_event->notify(sc_core::SC_ZERO_TIME);
    cluster_power now = cluster_state(cluster);
    if (old != now) {
        transitions_++;
        cluster_changed.publish(cluster, old, now);
    }
}

void power_controller::core_enter_wfi(unsigned cpu)
{
    assert(cores_.at(cpu) == core_power::on);
    wait(clusters_[cpu_cluster_[cpu]].wfi_entry);
    set_core(cpu, core_power::wfi);
}

void power_controller::core_enter_off(unsigned cpu)
{
    assert(cores_.at(cpu) == core_power::on);
    unsigned cl = cpu_cluster_[cpu];
    cluster_slot& c = clusters_[cl];
    wait(c.off_entry);
    set_core(cpu, core_power::off);

    bool last_man = std::all_of(c.cpus.begin(), c.cpus.end(),
                                [&](unsigned o) { return cores_[o] == core_power::off; });
    if (last_man && c.params.cluster_power_down && c.powerdown_enabled &&
        c.phase == cluster_phase::on) {
        set_cluster(cl, cluster_phase::going_down);
        wait(c.cluster_entry);
        set_cluster(cl, cluster_phase::off);
    }
}

void power_controller::cluster_power_up(unsigned cluster)
{
    cluster_slot& c = clusters_[cluster];
    for (;;) {
        switch (c.phase) {
        case cluster_phase::on:
            return;
        case cluster_phase::going_down:
        case cluster_phase::coming_up:
            // Another CPU of this cluster is moving it: let it finish, then look again.
            wait(*c.changed_event);
            break;
        case cluster_phase::off:
            set_cluster(cluster, cluster_phase::coming_up);
            wait(c.cluster_exit);
            set_cluster(cluster, cluster_phase::on);
            return;
        }
    }
}

void power_controller::core_exit(unsigned cpu)
{
    core_power from = cores_.at(cpu);
    assert(from != core_power::on);
    const cluster_slot& slot = clusters_[cpu_cluster_[cpu]];
    if (from == core_power::wfi) {
        set_core(cpu, core_power::on);
        wait(slot.wfi_exit);
        return;
    }
    cluster_power_up(cpu_cluster_[cpu]);
    wake_requested_[cpu] = false;
    set_core(cpu, core_power::on);
    wait(slot.off_exit);
}

void power_controller::set_cluster_power_down(unsigned cluster, bool enable)
{
    clusters_.at(cluster).powerdown_enabled = enable;
}

void power_controller::request_power_up(unsigned cpu)
{
    wake_requested_.at(cpu) = true;
    wake_events_[cpu]->notify(sc_core::SC_ZERO_TIME);
}

} // namespace blsim::model
