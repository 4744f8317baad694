// workloads/src/percentile.cpp
#include "blsim/workloads/percentile.h"

#include <algorithm>
#include <cmath>

namespace blsim::workloads {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double rank = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(v.size()));
    const std::size_t i = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
    return v[std::min(i, v.size() - 1)];
}

} // namespace blsim::workloads
