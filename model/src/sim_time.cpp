// model/src/sim_time.cpp -- now_ps() (blsim/model/invariant.h): the simulated time, from
// SystemC's kernel. Apart from the rest of invariant.cpp, which needs no SystemC.
#include <systemc>

#include "blsim/model/invariant.h"

namespace blsim::model {

std::uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }

} // namespace blsim::model
