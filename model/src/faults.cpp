// model/src/faults.cpp
#include "blsim/model/faults.h"

#include <algorithm>
#include <string>

#include "blsim/model/invariant.h"
#include "blsim/model/jitter.h"

namespace blsim::model {

double fault::next_unit() { return jitter_unit(jitter_bits(key_, counter_++)); }

bool fault::decide(const sc_core::sc_time& when)
{
    fault_kind_state& k = *kind_;
    // One draw per eligible operation whenever there is a probability, a time due or not: the
    // times then move no other operation's draw.
    bool fails = k.probability > 0 && next_unit() < k.probability;
    if (k.next_time < k.times.size() && k.times[k.next_time] <= when) {
        k.next_time++; // used: by this operation, whether it failed by chance too or not
        fails = true;
    }
    if (fails)
        k.injected++;
    return fails;
}

fault_source::fault_source(const fault_params& params, std::uint64_t seed) : params_(params), seed_(seed)
{
    for (fault_kind kind : all_fault_kinds) {
        fault_kind_state& k = kinds_[index(kind)];
        const std::vector<double>& at =
            kind == fault_kind::spurious_irq ? params.spurious_irq.at_s : trigger_of(params, kind)->at_s;
        for (double s : at) {
            BLSIM_CHECK(s >= 0);
            k.times.push_back(sc_core::sc_time(s, sc_core::SC_SEC));
        }
        std::sort(k.times.begin(), k.times.end());
        if (const fault_trigger* t = trigger_of(params, kind)) {
            BLSIM_CHECK(t->probability_pct >= 0 && t->probability_pct <= 100);
            k.probability = t->probability_pct / 100;
        }
    }
    BLSIM_CHECK(params.spurious_irq.interval_us >= 0);
}

fault fault_source::stream(fault_kind kind, std::string_view block)
{
    fault f;
    if (!params_.configured(kind))
        return f;
    f.kind_ = &kinds_[index(kind)];
    const std::string name = std::string("faults/") + to_string(kind) + "/" + std::string(block);
    f.key_ = jitter_key(seed_, jitter_block_id(name));
    return f;
}

std::uint64_t fault_source::injected_total() const
{
    std::uint64_t n = 0;
    for (const fault_kind_state& k : kinds_)
        n += k.injected;
    return n;
}

} // namespace blsim::model
