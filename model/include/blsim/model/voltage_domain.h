// model/include/blsim/model/voltage_domain.h -- a voltage rail shared by one or more clusters.
#pragma once

#include <string>

#include "blsim/model/observable.h"

namespace blsim::model {

class voltage_domain {
public:
    voltage_domain(std::string name, int voltage_mv);

    const std::string& name() const { return name_; }
    int voltage_mv() const { return voltage_mv_; }

    // Called by the DVFS controller only.
    void set_voltage_mv(int mv);

    observable<int /*old_mv*/, int /*new_mv*/> changed;

private:
    std::string name_;
    int voltage_mv_;
};

} // namespace blsim::model
