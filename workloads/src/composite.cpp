// workloads/src/composite.cpp
#include "blsim/workloads/composite.h"

namespace blsim::workloads {

void composite::add(std::unique_ptr<workload> part)
{
    for (unsigned t = 0; t < part->ntasks(); t++)
        owner_.push_back({parts_.size(), t});
    parts_.push_back(std::move(part));
}

task_info composite::info(unsigned task) const
{
    const auto& [p, t] = owner_.at(task);
    return parts_[p]->info(t);
}

step composite::next(unsigned task, std::uint64_t now_ns)
{
    const auto& [p, t] = owner_.at(task);
    step s = parts_[p]->next(t, now_ns);
    if (s.kind == step::fork) {
        // The part names its own task: the composite's number for it is the one after the
        // part's first task, as add() laid them out.
        s.task += task - t;
    }
    return s;
}

} // namespace blsim::workloads
