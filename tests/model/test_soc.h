// tests/model/test_soc.h -- a small SoC description whose numbers are easy to work by hand.
#pragma once

#include <cmath>
#include <functional>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "blsim/model/params.h"

namespace blsim::test {

// One cluster "c" of @cores cores, capacity 1024/MHz, OPPs 500 MHz/900 mV and 1000 MHz/1000 mV
// (EAS core 10/30, cluster 100/200), WFI 5, off 1, 1 mW per EAS unit; leakage at 900 mV: the
// shared logic 2 mW, a core 0.5 mW, no L2, doubling at 1000 mV (e-fold 100 mV / ln 2); no clock.
inline model::soc_params small_soc(int cores = 2)
{
    model::cluster_params c;
    c.name = "c";
    c.cores = cores;
    c.capacity_dmips_mhz = 1024;
    c.opps = {{500, 900, 10, 100}, {1000, 1000, 30, 200}};
    c.wfi_power_eas = 5;
    c.off_power_eas = 1;
    c.eas_mw_per_unit = 1.0;
    c.leakage.ref_mv = 900;
    c.leakage.e_fold_mv = 100 / std::log(2.0);
    c.leakage.shared_mw = 2;
    c.leakage.core_mw = 0.5;
    c.dvfs = {10, 30};
    c.power.core_wfi_entry_us = 1;
    c.power.core_wfi_exit_us = 2;
    c.power.core_off_entry_us = 10;
    c.power.core_off_exit_us = 20;
    c.power.cluster_off_entry_us = 100;
    c.power.cluster_off_exit_us = 200;
    model::soc_params soc;
    soc.name = "small";
    soc.clusters = {c};
    soc.energy.model = model::power_model_kind::eas;
    return soc;
}

// Binds a block's register socket that a test does not drive through the bus (the power
// controller's), as SystemC requires every socket bound.
struct unused_master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<unused_master> out{"out"};
    template <class Target>
    unused_master(sc_core::sc_module_name n, Target& target_socket) : sc_module(n)
    {
        out.bind(target_socket);
    }
};

// A thread running @body once, from the start of the simulation: a test's stimulus.
struct thread : sc_core::sc_module {
    std::function<void()> body;
    thread(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b))
    {
        SC_HAS_PROCESS(thread);
        SC_THREAD(run);
    }
    void run() { body(); }
};

} // namespace blsim::test
