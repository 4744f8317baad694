// model/src/jitter.cpp
#include "blsim/model/jitter.h"

#include <cmath>

#include "blsim/model/invariant.h"

namespace blsim::model {

double jitter::next_unit()
{
    return jitter_unit(jitter_bits(key_, counter_++));
}

sc_core::sc_time jitter::perturb(const sc_core::sc_time& nominal, jitter_class c)
{
    const unsigned i = static_cast<unsigned>(c);
    const double f = bound_[i];
    if (f <= 0 || nominal == sc_core::SC_ZERO_TIME)
        return nominal;
    const double u = 2 * next_unit() - 1; // [-1, 1)
    if (counts_)
        (*counts_)[i]++;
    // Never negative (f <= 1, checked when the source was made): rounded half up.
    const double ps = static_cast<double>(nominal.value()) * (1 + u * f) + 0.5;
    return sc_core::sc_time::from_value(static_cast<std::uint64_t>(ps));
}

sc_core::sc_time jitter::delay(jitter_class c)
{
    const unsigned i = static_cast<unsigned>(c);
    if (!on_ || bound_[i] <= 0)
        return sc_core::SC_ZERO_TIME;
    if (counts_)
        (*counts_)[i]++;
    const double ps = std::floor(next_unit() * bound_[i] * 1e3); // ns to ps, [0, bound)
    return sc_core::sc_time::from_value(static_cast<std::uint64_t>(ps));
}

jitter_source::jitter_source(const jitter_params& params, std::uint64_t seed) : params_(params), seed_(seed)
{
    for (jitter_class c : all_jitter_classes) {
        const double b = params.bound(c);
        BLSIM_CHECK(b >= 0 && (c == jitter_class::sgi_delivery || b <= 1));
    }
}

jitter jitter_source::stream(std::string_view name)
{
    jitter j;
    if (!params_.enabled)
        return j;
    j.on_ = true;
    j.key_ = jitter_key(seed_, jitter_block_id(name));
    for (jitter_class c : all_jitter_classes)
        j.bound_[static_cast<unsigned>(c)] = params_.bound(c);
    j.counts_ = &counts_;
    return j;
}

} // namespace blsim::model
