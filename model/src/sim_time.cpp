// model/src/sim_time.cpp -- now_ps() (blsim/model/invariant.h): the simulated time, from
// SystemC's kernel. Apart from the rest of invariant.cpp, which needs no SystemC.
#include <systemc>

#include "blsim/model/invariant.h"
#include "blsim/model/sim_time.h"

namespace blsim::model {

std::uint64_t now_ps() { return sim_now().value(); }

} // namespace blsim::model
