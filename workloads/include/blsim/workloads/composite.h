// workloads/include/blsim/workloads/composite.h -- several workloads side by side.
//
// A browser with music playing is two workloads at once. The composite numbers their tasks
// one after the other; each part is built with its own range of events (its event base), so
// that their steps need no translation.
#pragma once

#include <memory>
#include <vector>

#include "blsim/workloads/step.h"

namespace blsim::workloads {

class composite : public workload {
public:
    void add(std::unique_ptr<workload> part);

    unsigned ntasks() const override { return static_cast<unsigned>(owner_.size()); }
    task_info info(unsigned task) const override;
    step next(unsigned task, std::uint64_t now_ns) override;
    // The root, then each part's other groups in turn (a part's group g is the composite's
    // g + its offset).
    std::vector<group_info> groups() const override;

    std::size_t nparts() const { return parts_.size(); }
    const workload& part(std::size_t i) const { return *parts_.at(i); }

private:
    std::vector<std::unique_ptr<workload>> parts_;
    std::vector<std::pair<std::size_t, unsigned>> owner_; // task -> (part, its own index)
    std::vector<unsigned> group_offset_;                  // part -> its groups' offset
};

// The part of @w of type T (w itself, or one of a composite's), or nullptr.
template <class T>
const T* find_part(const workload& w)
{
    if (const T* t = dynamic_cast<const T*>(&w))
        return t;
    if (const composite* c = dynamic_cast<const composite*>(&w))
        for (std::size_t i = 0; i < c->nparts(); i++)
            if (const T* t = dynamic_cast<const T*>(&c->part(i)))
                return t;
    return nullptr;
}

} // namespace blsim::workloads
