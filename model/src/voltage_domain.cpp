// model/src/voltage_domain.cpp
#include "blsim/model/voltage_domain.h"

#include "blsim/model/invariant.h"

namespace blsim::model {

voltage_domain::voltage_domain(std::string name, int voltage_mv)
    : name_(std::move(name)), voltage_mv_(voltage_mv)
{
    BLSIM_CHECK(voltage_mv > 0);
}

void voltage_domain::set_voltage_mv(int mv)
{
    BLSIM_CHECK(mv > 0);
    if (mv == voltage_mv_)
        return;
    int old = voltage_mv_;
    voltage_mv_ = mv;
    changed.publish(old, mv);
}

} // namespace blsim::model
