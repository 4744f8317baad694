// model/include/blsim/model/sim_time.h -- the kernel's current time, read inline.
#pragma once

#include <systemc>

namespace blsim::model {

// sc_core::sc_time_stamp(), without the call into libsystemc: SystemC 2.3.4 defines that
// function out of line, around the simulation context's inline accessor. The models read
// the time tens of thousands of times per simulated second (about 2 % of a run's host work
// went into the calls). Same value, same reference: use it wherever a model reads the time.
inline const sc_core::sc_time& sim_now() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

} // namespace blsim::model
