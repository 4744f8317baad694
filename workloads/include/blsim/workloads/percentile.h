// workloads/include/blsim/workloads/percentile.h -- the statistics workloads report.
#pragma once

#include <vector>

namespace blsim::workloads {

// The @p-th percentile (0..100) of @v by nearest rank (the ceil(p/100 * n)-th smallest; p 100:
// the maximum); 0 for an empty list.
double percentile(std::vector<double> v, double p);

} // namespace blsim::workloads
