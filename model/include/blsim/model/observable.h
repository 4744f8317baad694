// model/include/blsim/model/observable.h -- a list of subscribers to one kind of event.
//
// Blocks publish what happens to them (a state change, a new OPP); observers such as the
// energy meter or a trace writer subscribe. A block never calls accounting code directly.
#pragma once

#include <functional>
#include <utility>
#include <vector>

namespace blsim::model {

template <class... Args>
class observable {
public:
    using callback = std::function<void(Args...)>;

    void subscribe(callback cb) { subscribers_.push_back(std::move(cb)); }

    void publish(Args... args) const
    {
        for (const auto& cb : subscribers_)
            cb(args...);
    }

private:
    std::vector<callback> subscribers_;
};

} // namespace blsim::model
