// soc/report/src/trace_records.h -- what the two trace writers (trace_perfetto.cpp,
// trace_ftrace.cpp) read the recorder's records with.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "blsim/soc/trace.h"

namespace blsim::soc::trace_records {

// A kernel tracepoint's task or CPU argument that names none (the idle task, no state).
inline constexpr unsigned none = ~0u;

// The records' indices in time order (stable: records at the same time stay in the order
// they came). Each CPU records in its own time, and a CPU running ahead of another may
// record first (docs/hardware.md, temporal decoupling).
inline std::vector<std::size_t> time_order(const std::vector<trace_recorder::rec>& recs)
{
    std::vector<std::size_t> order(recs.size());
    for (std::size_t i = 0; i < order.size(); i++)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return recs[x].t_ps < recs[y].t_ps; });
    return order;
}

} // namespace blsim::soc::trace_records
