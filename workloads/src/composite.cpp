// workloads/src/composite.cpp
#include "blsim/workloads/composite.h"

namespace blsim::workloads {

void composite::add(std::unique_ptr<workload> part)
{
    for (unsigned t = 0; t < part->ntasks(); t++)
        owner_.push_back({parts_.size(), t});
    const std::size_t before = groups().size();
    group_offset_.push_back(before > 0 ? static_cast<unsigned>(before) - 1 : 0);
    parts_.push_back(std::move(part));
}

std::vector<group_info> composite::groups() const
{
    std::vector<group_info> all;
    for (std::size_t p = 0; p < parts_.size(); p++) {
        const std::vector<group_info> g = parts_[p]->groups();
        for (std::size_t i = 1; i < g.size(); i++) {
            if (all.empty())
                all.push_back(g[0]);
            group_info x = g[i];
            if (x.parent != 0)
                x.parent += group_offset_[p];
            all.push_back(x);
        }
    }
    return all;
}

task_info composite::info(unsigned task) const
{
    const auto& [p, t] = owner_.at(task);
    task_info i = parts_[p]->info(t);
    if (i.group != 0)
        i.group += group_offset_[p];
    return i;
}

step composite::next(unsigned task, std::uint64_t now_ns)
{
    const auto& [p, t] = owner_.at(task);
    step s = parts_[p]->next(t, now_ns);
    if (s.kind == step::fork) {
        // The part names its own task: the composite's number for it is the one after the
        // part's first task, as add() laid them out.
        s.task += task - t;
    } else if (s.kind == step::move_group && s.group != 0) {
        s.group += group_offset_[p];
    }
    return s;
}

} // namespace blsim::workloads
