// soc/report/src/trace_ftrace.cpp -- trace.txt (blsim/soc/trace_writers.h): the kernel's
// trace text, as Linux's ftrace prints it, from the platform's trace recorder after the run;
// its events in docs/traces.md.
#include "blsim/soc/trace_writers.h"

#include <bls/types.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <sstream>

#include "trace_records.h"

namespace blsim::soc {

namespace {

using trace_records::none;

std::string comm(const std::string& name)
{
    std::string c = name.substr(0, 15); // TASK_COMM_LEN - 1
    std::replace(c.begin(), c.end(), ' ', '_');
    return c;
}

// Whether a task switched out at record i went to sleep (its next event is a wake-up) or
// was preempted (it is switched in again first): prev_state S or R, by record (@order: the
// records in time order).
std::vector<char> prev_states(const std::vector<trace_recorder::rec>& recs, const std::vector<std::size_t>& order,
                              std::size_t ntasks)
{
    std::vector<char> prev_state(recs.size(), 'R');
    std::vector<std::size_t> pending(ntasks, SIZE_MAX);
    for (std::size_t i : order) {
        const trace_recorder::rec& r = recs[i];
        if (r.k != trace_recorder::kind::kernel)
            continue;
        const unsigned a = r.a, b = r.b;
        if (r.sub == BLS_TRACE_SCHED_SWITCH) {
            if (a != none && a < pending.size())
                pending[a] = i;
            if (b != none && b < pending.size())
                pending[b] = SIZE_MAX;
        } else if (r.sub == BLS_TRACE_SCHED_WAKEUP && a < pending.size() && pending[a] != SIZE_MAX) {
            prev_state[pending[a]] = 'S';
            pending[a] = SIZE_MAX;
        }
    }
    // Tasks still out at the end: asleep, or exited, unless the trace shows otherwise.
    for (std::size_t p : pending)
        if (p != SIZE_MAX)
            prev_state[p] = 'S';
    return prev_state;
}

// The trace's lines, formatted as the records come in time order, with what the kernel's
// view of the CPUs needs remembered between them.
class ftrace_writer {
public:
    ftrace_writer(const trace_context& ctx, std::vector<char> prev_state)
        : ctx_(ctx), logical_of_(ctx.cpu_cluster.size()), current_(ctx.cpu_cluster.size(), -1),
          task_cpu_(ctx.task_names.size(), 0), prev_state_(std::move(prev_state))
    {
        for (unsigned c = 0; c < logical_of_.size(); c++)
            logical_of_[c] = c;
    }

    void frequency_limits(const std::vector<policy_limits>& policies);
    void record(std::size_t i, const trace_recorder::rec& r);
    std::string text() const;

private:
    static int pid(unsigned task) { return static_cast<int>(task) + 100; }
    int prio(unsigned task) const { return task < ctx_.task_prio.size() ? ctx_.task_prio[task] : 120; }
    unsigned hwid(unsigned cpu) const;
    void use(unsigned l) { ncpus_used_ = std::max(ncpus_used_, l + 1); }
    void emit(unsigned cpu, std::uint64_t t_ps, const char* event, const std::string& fields);

    void sched_switch(std::size_t i, const trace_recorder::rec& r);
    void sched_wakeup(const trace_recorder::rec& r);
    void sched_migrate(const trace_recorder::rec& r);
    void cpu_migrate(const trace_recorder::rec& r, const char* event);

    const trace_context& ctx_;
    // Linux numbers CPUs as the scheduler sees them: logical CPUs. A physical CPU hosts the
    // logical CPU its last idle entry or switch said (none yet: its own number).
    std::vector<unsigned> logical_of_;
    std::vector<int> current_; // task running on each physical CPU
    std::vector<unsigned> task_cpu_;
    const std::vector<char> prev_state_;
    std::ostringstream body_;
    std::uint64_t entries_ = 0;
    // The header's #P: one more than the highest CPU number the lines use, in the CPU column
    // or in a field naming a CPU (parsers size their per-CPU buffers by it).
    unsigned ncpus_used_ = 0;
};

unsigned ftrace_writer::hwid(unsigned cpu) const
{
    unsigned index = 0;
    for (unsigned c = 0; c < cpu; c++)
        index += ctx_.cpu_cluster[c] == ctx_.cpu_cluster[cpu];
    return (ctx_.cpu_cluster[cpu] << 8) | index; // MPIDR: Aff1 cluster, Aff0 core
}

void ftrace_writer::emit(unsigned cpu, std::uint64_t t_ps, const char* event, const std::string& fields)
{
    use(logical_of_[cpu]);
    const int cur = current_[cpu];
    const std::string who = cur < 0 ? "<idle>" : comm(ctx_.task_names[static_cast<unsigned>(cur)]);
    char line[512];
    std::snprintf(line, sizeof line, "%16s-%-7d [%03u] d..2 %6" PRIu64 ".%06" PRIu64 ": %s: %s\n", who.c_str(),
                  cur < 0 ? 0 : pid(static_cast<unsigned>(cur)), logical_of_[cpu], static_cast<std::uint64_t>(t_ps / 1000000000000u),
                  (t_ps / 1000000) % 1000000, event, fields.c_str());
    body_ << line;
    entries_++;
}

// The cpufreq policies' limits, at time 0.
void ftrace_writer::frequency_limits(const std::vector<policy_limits>& policies)
{
    char fields[512];
    for (const policy_limits& p : policies) {
        std::snprintf(fields, sizeof fields, "min=%u max=%u cpu_id=%u", p.min_mhz * 1000, p.max_mhz * 1000, p.cpu);
        use(p.cpu);
        emit(p.cpu < logical_of_.size() ? p.cpu : 0, 0, "cpu_frequency_limits", fields);
    }
}

void ftrace_writer::record(std::size_t i, const trace_recorder::rec& r)
{
    if (r.k != trace_recorder::kind::kernel)
        return;
    const unsigned a = r.a, b = r.b;
    const unsigned cpu = r.cpu;
    char fields[512];
    switch (r.sub) {
    case BLS_TRACE_SCHED_SWITCH:
        sched_switch(i, r);
        break;
    case BLS_TRACE_SCHED_WAKEUP:
        sched_wakeup(r);
        break;
    case BLS_TRACE_SCHED_MIGRATE:
        sched_migrate(r);
        break;
    case BLS_TRACE_CPU_IDLE:
        logical_of_[cpu] = b;
        std::snprintf(fields, sizeof fields, "state=%u cpu_id=%u", a, b);
        emit(cpu, r.t_ps, "cpu_idle", fields);
        break;
    case BLS_TRACE_CPU_FREQUENCY:
        std::snprintf(fields, sizeof fields, "state=%u cpu_id=%u", b * 1000, a);
        use(a);
        emit(cpu, r.t_ps, "cpu_frequency", fields);
        break;
    case BLS_TRACE_BLACKOUT_BEGIN: // on the outbound: the logical CPU leaves it
        logical_of_[cpu] = a;
        cpu_migrate(r, "cpu_migrate_begin");
        break;
    case BLS_TRACE_BLACKOUT_END: // on the inbound: it arrives
        logical_of_[cpu] = a;
        current_[cpu] = current_[b < current_.size() ? b : cpu];
        cpu_migrate(r, "cpu_migrate_finish");
        break;
    default:
        break;
    }
}

void ftrace_writer::sched_switch(std::size_t i, const trace_recorder::rec& r)
{
    const unsigned a = r.a, b = r.b;
    const unsigned cpu = r.cpu;
    const unsigned l = logical_of_[cpu];
    const std::string prev = a == none ? "swapper/" + std::to_string(l) : comm(ctx_.task_names.at(a));
    const std::string next = b == none ? "swapper/" + std::to_string(l) : comm(ctx_.task_names.at(b));
    char fields[512];
    std::snprintf(fields, sizeof fields,
                  "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
                  prev.c_str(), a == none ? 0 : pid(a), a == none ? 120 : prio(a),
                  a == none ? "R" : (prev_state_[i] == 'S' ? "S" : "R"), next.c_str(), b == none ? 0 : pid(b),
                  b == none ? 120 : prio(b));
    emit(cpu, r.t_ps, "sched_switch", fields);
    current_[cpu] = b == none ? -1 : static_cast<int>(b);
    if (b != none)
        task_cpu_[b] = l;
}

void ftrace_writer::sched_wakeup(const trace_recorder::rec& r)
{
    const unsigned a = r.a, b = r.b;
    char fields[512];
    std::snprintf(fields, sizeof fields, "comm=%s pid=%d prio=%d target_cpu=%03u", comm(ctx_.task_names.at(a)).c_str(),
                  pid(a), prio(a), b);
    use(b);
    emit(r.cpu, r.t_ps, "sched_wakeup", fields);
    task_cpu_[a] = b;
}

void ftrace_writer::sched_migrate(const trace_recorder::rec& r)
{
    const unsigned a = r.a, b = r.b;
    char fields[512];
    std::snprintf(fields, sizeof fields, "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u",
                  comm(ctx_.task_names.at(a)).c_str(), pid(a), prio(a), task_cpu_[a], b);
    use(task_cpu_[a]);
    use(b);
    emit(r.cpu, r.t_ps, "sched_migrate_task", fields);
    task_cpu_[a] = b;
    for (int& c : current_) // taken off the CPU it ran on (hotplug): that CPU runs nothing now
        if (c == static_cast<int>(a))
            c = -1;
}

// A switch's blackout, as the kernel's cpu_migrate events: on the physical CPU.
void ftrace_writer::cpu_migrate(const trace_recorder::rec& r, const char* event)
{
    char fields[512];
    std::snprintf(fields, sizeof fields, "timestamp=%" PRIu64 " cpu_hwid=0x%08X", r.t_ps / 1000, hwid(r.cpu));
    emit(r.cpu, r.t_ps, event, fields);
}

std::string ftrace_writer::text() const
{
    std::ostringstream os;
    os << "# tracer: nop\n#\n# entries-in-buffer/entries-written: " << entries_ << "/" << entries_
       << "   #P:" << ncpus_used_ << "\n#\n"
       << "#                                _-----=> irqs-off\n"
          "#                               / _----=> need-resched\n"
          "#                              | / _---=> hardirq/softirq\n"
          "#                              || / _--=> preempt-depth\n"
          "#                              ||| /     delay\n"
          "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
          "#              | |         |   ||||      |         |\n"
       << body_.str();
    return os.str();
}

} // namespace

std::string ftrace_text(const trace_recorder& r, const std::vector<policy_limits>& policies)
{
    const std::vector<trace_recorder::rec>& recs = r.recs();
    const std::vector<std::size_t> order = trace_records::time_order(recs);
    ftrace_writer w(r.context(), prev_states(recs, order, r.context().task_names.size()));
    w.frequency_limits(policies);
    for (std::size_t i : order)
        w.record(i, recs[i]);
    return w.text();
}

} // namespace blsim::soc
