// model/src/generic_timer.cpp
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "blsim/model/generic_timer.h"

#include "blsim/model/invariant.h"
#include "blsim/model/sim_time.h"

namespace blsim::model {

generic_timer::generic_timer(sc_core::sc_module_name name, unsigned ncpus, line_fn line)
    : sc_module(name), line_(std::move(line)), deadline_(ncpus, off), fired_(ncpus, 0),
      level_(ncpus, false), event_storage_("expiry", ncpus)
{
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        events_.push_back(&event_storage_[cpu]);
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.set_sensitivity(events_.back());
        opts.dont_initialize();
        sc_core::sc_spawn([this, cpu] { expire(cpu); }, sc_core::sc_gen_unique_name("cpu"), &opts);
    }
}

void generic_timer::set(unsigned cpu, std::uint64_t deadline_ns)
{
    BLSIM_CHECK(cpu < deadline_.size());
    if (level_[cpu]) {
        level_[cpu] = false;
        line_(cpu, false);
    }
    deadline_[cpu] = deadline_ns;
    events_[cpu]->cancel();
    if (deadline_ns == off)
        return;
    const std::uint64_t now_ps = sim_now().value();
    const std::uint64_t at_ps = deadline_ns > UINT64_MAX / 1000 ? UINT64_MAX : deadline_ns * 1000;
    if (at_ps <= now_ps)
        expire(cpu);
    else
        events_[cpu]->notify(sc_core::sc_time::from_value(at_ps - now_ps));
}

void generic_timer::expire(unsigned cpu)
{
    if (deadline_[cpu] == off || level_[cpu])
        return;
    fired_[cpu]++;
    level_[cpu] = true;
    line_(cpu, true);
}

std::uint64_t generic_timer::fired() const
{
    std::uint64_t n = 0;
    for (std::uint64_t f : fired_)
        n += f;
    return n;
}

} // namespace blsim::model
