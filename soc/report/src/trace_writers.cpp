// soc/report/src/trace_writers.cpp -- a run's timeline as files (blsim/soc/trace_writers.h):
// Chrome's trace-event JSON and the kernel's trace text, from the platform's trace recorder
// (soc/platform/src/trace.cpp), after the run.
#include "blsim/soc/trace_writers.h"

#include <bls/mcpm.h>
#include <bls/types.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "blsim/model/invariant.h"
#include "blsim/soc/scenario.h"

namespace blsim::soc {

namespace {

constexpr unsigned none = ~0u;

// Chrome's trace-event JSON, streamed. Timestamps are microseconds; ours are picoseconds.
std::string ts(std::uint64_t t_ps)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%" PRIu64 ".%06" PRIu64, t_ps / 1000000, t_ps % 1000000);
    return buf;
}

std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// The events, emitted in time order (stable: an end and a begin at the same time stay in
// the order they were recorded). Their text goes into one buffer as it is formatted; only
// (time, offset, length) is sorted.
class json_out {
public:
    void add(std::uint64_t t_ps, const std::string& text)
    {
        events_.push_back({t_ps, buf_.size(), text.size()});
        buf_ += text;
    }
    // @write appends the event's text to the buffer it is given.
    template <class F>
    std::size_t add_with(std::uint64_t t_ps, F&& write)
    {
        const std::size_t offset = buf_.size();
        write(buf_);
        events_.push_back({t_ps, offset, buf_.size() - offset});
        return events_.size() - 1;
    }
    void meta(std::string text) { meta_.push_back(std::move(text)); }
    std::string write()
    {
        std::stable_sort(events_.begin(), events_.end(), [](const ref& x, const ref& y) { return x.t_ps < y.t_ps; });
        std::string text = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
        text.reserve(buf_.size() + 2 * events_.size() + 4096);
        bool first = true;
        for (const std::string& m : meta_) {
            text += first ? "" : ",\n";
            text += m;
            first = false;
        }
        for (const ref& e : events_) {
            text += first ? "" : ",\n";
            text.append(buf_, e.offset, e.len);
            first = false;
        }
        text += "\n]}\n";
        return text;
    }

private:
    struct ref {
        std::uint64_t t_ps;
        std::size_t offset, len;
    };
    std::vector<std::string> meta_;
    std::vector<ref> events_;
    std::string buf_;
};

// Track numbering (docs/traces.md): a process per cluster, one for the logical CPUs.
int cluster_pid(unsigned c) { return 1 + static_cast<int>(c); }
constexpr int logical_pid = 50;
int cpu_tid(unsigned cpu, int k) { return 100 * (static_cast<int>(cpu) + 1) + k; } // 0 tasks, 1 idle, 2 power, 3 mcpm
int cluster_tid(unsigned c) { return 10000 + static_cast<int>(c); }
int logical_tid(unsigned l) { return 5000 + static_cast<int>(l); }
constexpr int mode_tid = 4999; // the big.LITTLE mode's changes, in the logical CPUs' process

// A time in microseconds with six decimals: picoseconds, exactly.
void append_ts(std::string& b, std::uint64_t t_ps)
{
    append_int(b, t_ps / 1000000);
    char frac[7];
    std::uint64_t f = t_ps % 1000000;
    for (int i = 5; i >= 0; i--, f /= 10)
        frac[i] = static_cast<char>('0' + f % 10);
    b += '.';
    b.append(frac, 6);
}

void append_quoted(std::string& b, const std::string& s)
{
    b += '"';
    for (char c : s) {
        if (c == '"' || c == '\\')
            b += '\\';
        b += c;
    }
    b += '"';
}

// An instant (i) or a complete slice (X, when @t1 is given) on a track.
void append_slice(std::string& b, char ph, const std::string& name, int pid, int tid, std::uint64_t t,
                  const char* cat = nullptr, const std::uint64_t* t1 = nullptr)
{
    b += "{\"ph\":\"";
    b += ph;
    b += "\",\"pid\":";
    append_int(b, static_cast<std::uint64_t>(pid));
    b += ",\"tid\":";
    append_int(b, static_cast<std::uint64_t>(tid));
    b += ",\"ts\":";
    append_ts(b, t);
    if (t1) {
        b += ",\"dur\":";
        append_ts(b, *t1 - t);
    }
    if (!name.empty()) {
        b += ",\"name\":";
        append_quoted(b, name);
    }
    if (cat) {
        b += ",\"cat\":\"";
        b += cat;
        b += '"';
    }
    b += '}';
}

// A state's slice on its track, as one complete (X) event: begin and duration.
void append_state(std::string& b, const std::string& name, int pid, int tid, std::uint64_t t0, std::uint64_t t1,
                  const char* cat)
{
    append_slice(b, 'X', name, pid, tid, t0, cat, &t1);
}

std::string slice(char ph, const std::string& name, int pid, int tid, std::uint64_t t, const char* cat = nullptr)
{
    std::string s;
    append_slice(s, ph, name, pid, tid, t, cat);
    return s;
}

std::string complete(const std::string& name, int pid, int tid, std::uint64_t t, std::uint64_t end, const std::string& args)
{
    return "{\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + ts(t) +
           ",\"dur\":" + ts(end > t ? end - t : 0) + ",\"name\":" + quoted(name) + ",\"cat\":\"switch\"" +
           (args.empty() ? "" : ",\"args\":{" + args + "}") + "}";
}

// @v with three decimals (ms, mW, MHz are far coarser; energy in J keeps its mJ), by
// integer arithmetic: a counter is formatted for every power change.
void append_fixed(std::string& b, double v)
{
    long long m = std::llround(v * 1000.0);
    if (m < 0) {
        b += '-';
        m = -m;
    }
    append_int(b, static_cast<std::uint64_t>(m / 1000));
    const int f = static_cast<int>(m % 1000);
    if (f) {
        char frac[4] = {'.', static_cast<char>('0' + f / 100), static_cast<char>('0' + f / 10 % 10),
                        static_cast<char>('0' + f % 10)};
        int n = 4;
        while (frac[n - 1] == '0')
            n--;
        b.append(frac, static_cast<std::size_t>(n));
    }
}

void append_counter(std::string& b, const std::string& name, int pid, std::uint64_t t, double v)
{
    b += "{\"ph\":\"C\",\"pid\":";
    append_int(b, static_cast<std::uint64_t>(pid));
    b += ",\"ts\":";
    append_ts(b, t);
    b += ",\"name\":\"";
    b += name;
    b += "\",\"args\":{\"value\":";
    append_fixed(b, v);
    b += "}}";
}

std::string name_meta(const char* what, int pid, int tid, const std::string& name)
{
    return std::string("{\"ph\":\"M\",\"name\":\"") + what + "\",\"pid\":" + std::to_string(pid) +
           (tid >= 0 ? ",\"tid\":" + std::to_string(tid) : std::string()) + ",\"args\":{\"name\":" + quoted(name) + "}}";
}

} // namespace

std::string perfetto_json(const trace_recorder& r, const std::vector<switch_record>& switches, std::uint64_t end_ps)
{
    const trace_context& ctx = r.context();
    const std::vector<trace_recorder::rec>& recs = r.recs();
    json_out out;
    const unsigned ncpus = static_cast<unsigned>(ctx.cpu_cluster.size());
    for (unsigned c = 0; c < ctx.cluster_names.size(); c++) {
        out.meta(name_meta("process_name", cluster_pid(c), -1, "cluster " + ctx.cluster_names[c]));
        out.meta(name_meta("thread_name", cluster_pid(c), cluster_tid(c), "cluster power"));
    }
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        const int pid = cluster_pid(ctx.cpu_cluster[cpu]);
        const std::string n = "cpu" + std::to_string(cpu);
        out.meta(name_meta("thread_name", pid, cpu_tid(cpu, 0), n + " task"));
        out.meta(name_meta("thread_name", pid, cpu_tid(cpu, 1), n + " idle"));
        out.meta(name_meta("thread_name", pid, cpu_tid(cpu, 2), n + " power"));
        out.meta(name_meta("thread_name", pid, cpu_tid(cpu, 3), n + " mcpm"));
    }
    out.meta(name_meta("process_name", logical_pid, -1, "logical CPUs"));
    bool mode_named = false;

    // Open slices, to end at the next state and at the end of the run, by tid. Each is
    // written when it ends, as one complete (X) event: B/E pairs of many tracks interleave,
    // and Chrome's trace engine (DevTools, Lighthouse) pairs B with E on one stack for the
    // whole trace, reading them as mismatched. A slice that would end where it began is not
    // drawn.
    struct open_slice {
        int pid = 0; // 0: none
        std::string name;
        const char* cat = nullptr;
        std::uint64_t t0 = 0;
    };
    std::map<int, open_slice> open;
    auto end_slice = [&](int pid, int tid, std::uint64_t t) {
        auto it = open.find(tid);
        if (it == open.end() || !it->second.pid)
            return;
        const open_slice& o = it->second;
        if (t > o.t0)
            out.add_with(o.t0, [&](std::string& b) { append_state(b, o.name, pid, tid, o.t0, t, o.cat); });
        it->second.pid = 0;
    };
    auto begin_slice = [&](int pid, int tid, std::uint64_t t, const std::string& name, const char* cat) {
        end_slice(pid, tid, t);
        open[tid] = {pid, name, cat, t};
    };
    // A task slice is drawn only while its CPU is powered: a task's slice on the outbound
    // ends at the switch's blackout start and goes on, under the same name, on the inbound
    // at its end. A task slice open while its CPU is off is a bug of the simulator (the
    // C kernel ran a task there, or the recorder lost an event): the run stops.
    std::vector<bool> cpu_off(ncpus, false);
    std::vector<std::string> carried(ncpus); // per outbound: the task in flight across a switch
    std::vector<unsigned> running(ncpus, none); // per CPU: the task its task track shows
    std::vector<unsigned> carried_task(ncpus, none);
    auto task_open = [&](unsigned cpu) -> const open_slice* {
        auto it = open.find(cpu_tid(cpu, 0));
        return it != open.end() && it->second.pid ? &it->second : nullptr;
    };
    auto task_on_off_cpu = [&](unsigned cpu, std::uint64_t t, const std::string& task, const std::string& how) {
        model::invariant_failed("trace-task-on-powered-cpu", t, "cpu" + std::to_string(cpu), "task '" + task + "' " + how);
    };
    std::map<unsigned, bool> logical_named;
    auto logical_track = [&](unsigned l) {
        if (!logical_named[l]) {
            logical_named[l] = true;
            out.meta(name_meta("thread_name", logical_pid, logical_tid(l), "logical cpu" + std::to_string(l)));
        }
        return logical_tid(l);
    };
    static const char* const counter_names[] = {"freq_mhz", "voltage_mv", "power_mw", "energy_j"};

    std::vector<std::size_t> order(recs.size());
    for (std::size_t i = 0; i < order.size(); i++)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return recs[x].t_ps < recs[y].t_ps; });
    for (std::size_t i : order) {
        const trace_recorder::rec& r = recs[i];
        switch (r.k) {
        case trace_recorder::kind::core: {
            const int pid = cluster_pid(ctx.cpu_cluster.at(r.cpu));
            cpu_off.at(r.cpu) = static_cast<model::core_power>(r.sub) == model::core_power::off;
            if (cpu_off[r.cpu])
                if (const open_slice* o = task_open(r.cpu))
                    task_on_off_cpu(r.cpu, r.t_ps, o->name, "is running when the CPU powers off");
            begin_slice(pid, cpu_tid(r.cpu, 2), r.t_ps, model::to_string(static_cast<model::core_power>(r.sub)), "power");
            break;
        }
        case trace_recorder::kind::cluster:
            begin_slice(cluster_pid(r.cpu), cluster_tid(r.cpu), r.t_ps,
                        model::to_string(static_cast<model::cluster_power>(r.sub)), "power");
            break;
        case trace_recorder::kind::counter:
            out.add_with(r.t_ps, [&](std::string& b) {
                append_counter(b, counter_names[r.sub], cluster_pid(r.cpu), r.t_ps, r.value);
            });
            break;
        case trace_recorder::kind::kernel: {
            const unsigned ev = r.sub, a = r.a, b = r.b;
            const int pid = cluster_pid(ctx.cpu_cluster.at(r.cpu));
            switch (ev) {
            case BLS_TRACE_SCHED_SWITCH:
                if (b == none) {
                    end_slice(pid, cpu_tid(r.cpu, 0), r.t_ps);
                } else {
                    if (cpu_off.at(r.cpu))
                        task_on_off_cpu(r.cpu, r.t_ps, ctx.task_names.at(b), "is switched in while the CPU is off");
                    begin_slice(pid, cpu_tid(r.cpu, 0), r.t_ps, ctx.task_names.at(b), "sched");
                }
                running.at(r.cpu) = b;
                break;
            case BLS_TRACE_BLACKOUT_BEGIN: // on the outbound: its task leaves it
                if (const open_slice* o = task_open(r.cpu)) {
                    carried.at(r.cpu) = o->name;
                    end_slice(pid, cpu_tid(r.cpu, 0), r.t_ps);
                }
                carried_task.at(r.cpu) = running.at(r.cpu);
                running[r.cpu] = none;
                break;
            case BLS_TRACE_BLACKOUT_END: // on the inbound (b: the outbound): the task arrives
                if (b < ncpus && !carried[b].empty()) {
                    if (cpu_off.at(r.cpu))
                        task_on_off_cpu(r.cpu, r.t_ps, carried[b], "arrives from cpu" + std::to_string(b) + " while the CPU is off");
                    begin_slice(pid, cpu_tid(r.cpu, 0), r.t_ps, carried[b], "sched");
                    carried[b].clear();
                    running.at(r.cpu) = carried_task[b];
                }
                break;
            case BLS_TRACE_CPU_IDLE: {
                const unsigned c = ctx.cpu_cluster.at(r.cpu);
                if (a == none)
                    end_slice(pid, cpu_tid(r.cpu, 1), r.t_ps);
                else
                    begin_slice(pid, cpu_tid(r.cpu, 1), r.t_ps,
                                a < ctx.idle_state_names.at(c).size() ? ctx.idle_state_names[c][a] : "state " + std::to_string(a),
                                "idle");
                break;
            }
            case BLS_TRACE_IRQ_HANDLED: {
                std::string s = slice('i', "irq " + std::to_string(b), pid, cpu_tid(r.cpu, 0), r.t_ps, "irq");
                s.insert(s.size() - 1, ",\"s\":\"t\"");
                out.add(r.t_ps, s);
                break;
            }
            case BLS_TRACE_SCHED_WAKEUP:
            case BLS_TRACE_SCHED_MIGRATE: {
                // A task moved while it runs (hotplug takes a CPU's tasks, the running one
                // too, with no switch traced on it): it runs there no more.
                if (ev == BLS_TRACE_SCHED_MIGRATE)
                    for (unsigned c = 0; c < ncpus; c++)
                        if (running[c] == a) {
                            end_slice(cluster_pid(ctx.cpu_cluster[c]), cpu_tid(c, 0), r.t_ps);
                            running[c] = none;
                        }
                const std::string what = ev == BLS_TRACE_SCHED_WAKEUP ? "wakeup " : "migrate ";
                std::string s = slice('i', what + ctx.task_names.at(a) + " -> cpu" + std::to_string(b), pid,
                                      cpu_tid(r.cpu, 0), r.t_ps, "sched");
                s.insert(s.size() - 1, ",\"s\":\"t\"");
                out.add(r.t_ps, s);
                break;
            }
            case BLS_TRACE_CPU_FREQUENCY:
                logical_track(a);
                out.add_with(r.t_ps, [&](std::string& o) {
                    append_counter(o, "cpu" + std::to_string(a) + " freq_mhz", logical_pid, r.t_ps, b);
                });
                break;
            case BLS_TRACE_MCPM_CPU_STATE: {
                static const char* const names[] = {"DOWN", "COMING_UP", "UP", "GOING_DOWN"};
                const unsigned k = b - BLS_CPU_DOWN;
                begin_slice(pid, cpu_tid(r.cpu, 3), r.t_ps, k < 4 ? names[k] : "?", "mcpm");
                break;
            }
            case BLS_TRACE_MODE: {
                // A global instant (across every track), on a track of its own.
                if (!mode_named) {
                    mode_named = true;
                    out.meta(name_meta("thread_name", logical_pid, mode_tid, "big.LITTLE mode"));
                }
                const char* now = mode_name(a);
                const char* before = b ? mode_name(b) : nullptr;
                const std::string now_s = now ? now : std::to_string(a);
                std::string name = "mode " + now_s;
                std::string args = "\"mode\":" + quoted(now_s);
                if (b) {
                    const std::string before_s = before ? before : std::to_string(b);
                    name += " (from " + before_s + ")";
                    args += ",\"previous\":" + quoted(before_s);
                }
                std::string s = slice('i', name, logical_pid, mode_tid, r.t_ps, "mode");
                s.insert(s.size() - 1, ",\"s\":\"g\",\"args\":{" + args + "}");
                out.add(r.t_ps, s);
                break;
            }
            case BLS_TRACE_TASK_XMIGRATED: {
                // On the CPU it now runs on, with the time from the decision to move it.
                const std::string& to = ctx.cluster_names.at(ctx.cpu_cluster.at(r.cpu));
                std::string s = slice('i', "xmigrated " + ctx.task_names.at(a) + " -> " + to, pid,
                                      cpu_tid(r.cpu, 0), r.t_ps, "sched");
                std::string args = ",\"s\":\"t\",\"args\":{\"latency_us\":";
                append_ts(args, static_cast<std::uint64_t>(b) * 1000); // ns -> ps, printed as us
                args += "}";
                s.insert(s.size() - 1, args);
                out.add(r.t_ps, s);
                break;
            }
            case BLS_TRACE_SWITCH_ABORTED: {
                // A switch given up (its inbound never came up, docs/switcher.md "Faults") has
                // no phases to draw: an instant on the logical CPU's track, at the outbound's
                // decision, naming the inbound that failed.
                std::string s = slice('i', "switch given up: inbound cpu" + std::to_string(b) + " never came up",
                                      logical_pid, logical_track(a), r.t_ps, "switch");
                s.insert(s.size() - 1, ",\"s\":\"t\",\"args\":{\"outbound\":" + std::to_string(r.cpu) +
                                           ",\"inbound\":" + std::to_string(b) + "}");
                out.add(r.t_ps, s);
                break;
            }
            case BLS_TRACE_GOV_LOAD:
                logical_track(a);
                out.add_with(r.t_ps, [&](std::string& o) {
                    append_counter(o, "cpu" + std::to_string(a) + " load_pct", logical_pid, r.t_ps, b);
                });
                break;
            default:
                break;
            }
            break;
        }
        }
    }
    for (const auto& [tid, o] : open)
        if (o.pid)
            end_slice(o.pid, tid, end_ps);

    // Switches: the phases as nested slices on the logical CPU's track, and the two messages
    // between the CPUs (the early poke, the "inbound alive" SGI) as flow arrows between the
    // CPUs' power tracks.
    static const char* const step_names[] = {"GIC migration", "tick, cpu_pm", "context save", "L1 clean",
                                             "handshake wait", "restore"};
    std::uint64_t flow_id = 1;
    for (const switch_record& r : switches) {
        const int tid = logical_track(r.logical);
        const std::uint64_t end = std::max({r.t_done, r.t_outbound_off, r.t_blackout_end, r.t_alive});
        const std::string dir = ctx.cluster_names.at(r.from_cluster) + "->" + ctx.cluster_names.at(r.to_cluster);
        out.add(r.t_request, complete("switch " + dir, logical_pid, tid, r.t_request, end,
                                      "\"outbound\":" + std::to_string(r.outbound) + ",\"inbound\":" + std::to_string(r.inbound) +
                                          (r.group ? ",\"group\":" + std::to_string(r.group) : std::string())));
        const std::uint64_t on = std::max(r.t_request, r.t_inbound_power_on);
        out.add(r.t_request, complete("request to power-on", logical_pid, tid, r.t_request, on, ""));
        out.add(on, complete("inbound power-up to alive", logical_pid, tid, on, std::max(on, r.t_alive), ""));
        out.add(r.t_blackout_start, complete("blackout", logical_pid, tid, r.t_blackout_start, r.t_blackout_end, ""));
        std::uint64_t from = r.t_blackout_start;
        for (int k = 0; k < switch_steps; k++) {
            const std::uint64_t to = k < switch_steps - 1 ? std::max(from, r.t_step[k]) : r.t_blackout_end;
            out.add(from, complete(step_names[k], logical_pid, tid, from, std::max(from, to), ""));
            from = std::max(from, to);
        }
        if (r.t_outbound_off)
            out.add(r.t_blackout_end, complete("outbound down", logical_pid, tid, r.t_blackout_end,
                                               std::max(r.t_blackout_end, r.t_outbound_off), ""));
        auto flow = [&](const char* name, unsigned from_cpu, std::uint64_t t0, unsigned to_cpu, std::uint64_t t1) {
            const std::string id = std::to_string(flow_id++);
            out.add(t0, "{\"ph\":\"s\",\"id\":" + id + ",\"name\":\"" + name + "\",\"cat\":\"switch\",\"pid\":" +
                            std::to_string(cluster_pid(ctx.cpu_cluster.at(from_cpu))) + ",\"tid\":" +
                            std::to_string(cpu_tid(from_cpu, 2)) + ",\"ts\":" + ts(t0) + "}");
            out.add(t1, "{\"ph\":\"f\",\"bp\":\"e\",\"id\":" + id + ",\"name\":\"" + name + "\",\"cat\":\"switch\",\"pid\":" +
                            std::to_string(cluster_pid(ctx.cpu_cluster.at(to_cpu))) + ",\"tid\":" +
                            std::to_string(cpu_tid(to_cpu, 2)) + ",\"ts\":" + ts(t1) + "}");
        };
        flow("early poke", r.outbound, r.t_request, r.inbound, on);
        flow("inbound alive", r.inbound, r.t_alive, r.outbound, r.t_alive);
    }
    return out.write();
}

// --- ftrace text -----------------------------------------------------------------------------

namespace {

std::string comm(const std::string& name)
{
    std::string c = name.substr(0, 15); // TASK_COMM_LEN - 1
    std::replace(c.begin(), c.end(), ' ', '_');
    return c;
}

} // namespace

std::string ftrace_text(const trace_recorder& r, const std::vector<policy_limits>& policies)
{
    const trace_context& ctx = r.context();
    const std::vector<trace_recorder::rec>& recs = r.recs();
    // Linux numbers CPUs as the scheduler sees them: logical CPUs. A physical CPU hosts the
    // logical CPU its last idle entry or switch said (none yet: its own number).
    std::vector<unsigned> logical_of(ctx.cpu_cluster.size());
    for (unsigned c = 0; c < logical_of.size(); c++)
        logical_of[c] = c;
    std::vector<int> current(ctx.cpu_cluster.size(), -1); // task running on each physical CPU
    std::vector<unsigned> task_cpu(ctx.task_names.size(), 0);
    auto pid = [](unsigned task) { return static_cast<int>(task) + 100; };
    auto hwid = [&](unsigned cpu) {
        unsigned index = 0;
        for (unsigned c = 0; c < cpu; c++)
            index += ctx.cpu_cluster[c] == ctx.cpu_cluster[cpu];
        return (ctx.cpu_cluster[cpu] << 8) | index; // MPIDR: Aff1 cluster, Aff0 core
    };

    // Whether a task switched out at record i went to sleep (its next event is a wake-up) or
    // was preempted (it is switched in again first): prev_state S or R.
    // The records in time order: each CPU records in its own time, and a CPU running ahead
    // of another may record first (docs/hardware.md, temporal decoupling).
    std::vector<std::size_t> order(recs.size());
    for (std::size_t i = 0; i < order.size(); i++)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return recs[x].t_ps < recs[y].t_ps; });

    std::vector<char> prev_state(recs.size(), 'R');
    {
        std::vector<std::size_t> pending(ctx.task_names.size(), SIZE_MAX);
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
    }

    std::ostringstream body;
    std::uint64_t entries = 0;
    char line[512];
    // The header's #P: one more than the highest CPU number the lines use, in the CPU column
    // or in a field naming a CPU (parsers size their per-CPU buffers by it).
    unsigned ncpus_used = 0;
    auto use = [&](unsigned l) { ncpus_used = std::max(ncpus_used, l + 1); };
    auto emit = [&](unsigned cpu, std::uint64_t t_ps, const char* event, const std::string& fields) {
        use(logical_of[cpu]);
        const int cur = current[cpu];
        const std::string who = cur < 0 ? "<idle>" : comm(ctx.task_names[static_cast<unsigned>(cur)]);
        std::snprintf(line, sizeof line, "%16s-%-7d [%03u] d..2 %6" PRIu64 ".%06" PRIu64 ": %s: %s\n", who.c_str(),
                      cur < 0 ? 0 : pid(static_cast<unsigned>(cur)), logical_of[cpu], static_cast<std::uint64_t>(t_ps / 1000000000000u),
                      (t_ps / 1000000) % 1000000, event, fields.c_str());
        body << line;
        entries++;
    };
    auto prio = [&](unsigned task) { return task < ctx.task_prio.size() ? ctx.task_prio[task] : 120; };

    for (const policy_limits& p : policies) {
        std::snprintf(line, sizeof line, "min=%u max=%u cpu_id=%u", p.min_mhz * 1000, p.max_mhz * 1000, p.cpu);
        use(p.cpu);
        emit(p.cpu < logical_of.size() ? p.cpu : 0, 0, "cpu_frequency_limits", line);
    }
    for (std::size_t i : order) {
        const trace_recorder::rec& r = recs[i];
        if (r.k != trace_recorder::kind::kernel)
            continue;
        const unsigned ev = r.sub, a = r.a, b = r.b;
        const unsigned cpu = r.cpu;
        switch (ev) {
        case BLS_TRACE_SCHED_SWITCH: {
            const unsigned l = logical_of[cpu];
            const std::string prev = a == none ? "swapper/" + std::to_string(l) : comm(ctx.task_names.at(a));
            const std::string next = b == none ? "swapper/" + std::to_string(l) : comm(ctx.task_names.at(b));
            std::snprintf(line, sizeof line,
                          "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
                          prev.c_str(), a == none ? 0 : pid(a), a == none ? 120 : prio(a),
                          a == none ? "R" : (prev_state[i] == 'S' ? "S" : "R"), next.c_str(), b == none ? 0 : pid(b),
                          b == none ? 120 : prio(b));
            emit(cpu, r.t_ps, "sched_switch", line);
            current[cpu] = b == none ? -1 : static_cast<int>(b);
            if (b != none)
                task_cpu[b] = l;
            break;
        }
        case BLS_TRACE_SCHED_WAKEUP:
            std::snprintf(line, sizeof line, "comm=%s pid=%d prio=%d target_cpu=%03u", comm(ctx.task_names.at(a)).c_str(),
                          pid(a), prio(a), b);
            use(b);
            emit(cpu, r.t_ps, "sched_wakeup", line);
            task_cpu[a] = b;
            break;
        case BLS_TRACE_SCHED_MIGRATE:
            std::snprintf(line, sizeof line, "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u",
                          comm(ctx.task_names.at(a)).c_str(), pid(a), prio(a), task_cpu[a], b);
            use(task_cpu[a]);
            use(b);
            emit(cpu, r.t_ps, "sched_migrate_task", line);
            task_cpu[a] = b;
            for (int& c : current) // taken off the CPU it ran on (hotplug): that CPU runs nothing now
                if (c == static_cast<int>(a))
                    c = -1;
            break;
        case BLS_TRACE_CPU_IDLE:
            logical_of[cpu] = b;
            std::snprintf(line, sizeof line, "state=%u cpu_id=%u", a, b);
            emit(cpu, r.t_ps, "cpu_idle", line);
            break;
        case BLS_TRACE_CPU_FREQUENCY:
            std::snprintf(line, sizeof line, "state=%u cpu_id=%u", b * 1000, a);
            use(a);
            emit(cpu, r.t_ps, "cpu_frequency", line);
            break;
        case BLS_TRACE_BLACKOUT_BEGIN: // on the outbound: the logical CPU leaves it
            logical_of[cpu] = a;
            std::snprintf(line, sizeof line, "timestamp=%" PRIu64 " cpu_hwid=0x%08X", r.t_ps / 1000, hwid(cpu));
            emit(cpu, r.t_ps, "cpu_migrate_begin", line);
            break;
        case BLS_TRACE_BLACKOUT_END: // on the inbound: it arrives
            logical_of[cpu] = a;
            current[cpu] = current[b < current.size() ? b : cpu];
            std::snprintf(line, sizeof line, "timestamp=%" PRIu64 " cpu_hwid=0x%08X", r.t_ps / 1000, hwid(cpu));
            emit(cpu, r.t_ps, "cpu_migrate_finish", line);
            break;
        default:
            break;
        }
    }
    std::ostringstream os;
    os << "# tracer: nop\n#\n# entries-in-buffer/entries-written: " << entries << "/" << entries
       << "   #P:" << ncpus_used << "\n#\n"
       << "#                                _-----=> irqs-off\n"
          "#                               / _----=> need-resched\n"
          "#                              | / _---=> hardirq/softirq\n"
          "#                              || / _--=> preempt-depth\n"
          "#                              ||| /     delay\n"
          "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
          "#              | |         |   ||||      |         |\n"
       << body.str();
    return os.str();
}

std::vector<std::pair<std::string, std::string>> trace_files(const platform& p, bool compress)
{
    std::vector<std::pair<std::string, std::string>> files;
    const trace_recorder* r = p.trace();
    if (!r)
        return files;
    const std::uint64_t end = model::now_ps();
    if (p.traces_perfetto()) {
        std::string text = perfetto_json(*r, p.switch_records(), end);
        files.emplace_back(compress ? "trace.json.gz" : "trace.json", compress ? gzip(text) : std::move(text));
    }
    if (p.traces_ftrace()) {
        std::string text = ftrace_text(*r, p.policy_limits_now());
        files.emplace_back(compress ? "trace.txt.gz" : "trace.txt", compress ? gzip(text) : std::move(text));
    }
    return files;
}

} // namespace blsim::soc
