// soc/report/src/trace_perfetto.cpp -- trace.json (blsim/soc/trace_writers.h): Chrome's
// trace-event JSON, which ui.perfetto.dev opens, from the platform's trace recorder after the
// run; its tracks and events in docs/traces.md.
#include "blsim/soc/trace_writers.h"

#include <bls/mcpm.h>
#include <bls/types.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>

#include "blsim/model/invariant.h"
#include "blsim/soc/scenario.h"
#include "trace_records.h"

namespace blsim::soc {

namespace {

using trace_records::none;

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


// The recorder's records drawn on their tracks, then the switches: the events in json_out,
// with what drawing them needs to remember between records.
class perfetto_writer {
public:
    explicit perfetto_writer(const trace_context& ctx)
        : ctx_(ctx), ncpus_(static_cast<unsigned>(ctx.cpu_cluster.size())), cpu_off_(ncpus_, false),
          carried_(ncpus_), running_(ncpus_, none), carried_task_(ncpus_, none)
    {
    }

    void name_tracks();
    void record(const trace_recorder::rec& r);
    void end_open_slices(std::uint64_t end_ps);
    void draw_switch(const switch_record& r);
    std::string write() { return out_.write(); }

private:
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

    void end_slice(int pid, int tid, std::uint64_t t);
    void begin_slice(int pid, int tid, std::uint64_t t, const std::string& name, const char* cat);
    const open_slice* task_open(unsigned cpu) const;
    [[noreturn]] void task_on_off_cpu(unsigned cpu, std::uint64_t t, const std::string& task, const std::string& how) const;
    int logical_track(unsigned l);
    void instant(const std::string& name, int pid, int tid, std::uint64_t t, const char* cat, const std::string& extra);
    void flow(const char* name, unsigned from_cpu, std::uint64_t t0, unsigned to_cpu, std::uint64_t t1);

    // The records, by kind.
    void core(const trace_recorder::rec& r);
    void kernel(const trace_recorder::rec& r);
    // The kernel's events (on the CPU's cluster's process, @pid).
    void sched_switch(const trace_recorder::rec& r, int pid);
    void blackout_begin(const trace_recorder::rec& r, int pid);
    void blackout_end(const trace_recorder::rec& r, int pid);
    void cpu_idle(const trace_recorder::rec& r, int pid);
    void wakeup_or_migrate(const trace_recorder::rec& r, int pid);
    void mode(const trace_recorder::rec& r);
    void xmigrated(const trace_recorder::rec& r, int pid);
    void switch_aborted(const trace_recorder::rec& r);
    void logical_counter(const trace_recorder::rec& r, const char* what);

    const trace_context& ctx_;
    const unsigned ncpus_;
    json_out out_;
    std::map<int, open_slice> open_;
    // A task slice is drawn only while its CPU is powered: a task's slice on the outbound
    // ends at the switch's blackout start and goes on, under the same name, on the inbound
    // at its end. A task slice open while its CPU is off is a bug of the simulator (the
    // C kernel ran a task there, or the recorder lost an event): the run stops.
    std::vector<bool> cpu_off_;
    std::vector<std::string> carried_;   // per outbound: the task in flight across a switch
    std::vector<unsigned> running_;      // per CPU: the task its task track shows
    std::vector<unsigned> carried_task_;
    std::map<unsigned, bool> logical_named_;
    bool mode_named_ = false;
    std::uint64_t flow_id_ = 1;
};

// The processes and threads named up front: the clusters' and their CPUs' tracks.
void perfetto_writer::name_tracks()
{
    for (unsigned c = 0; c < ctx_.cluster_names.size(); c++) {
        out_.meta(name_meta("process_name", cluster_pid(c), -1, "cluster " + ctx_.cluster_names[c]));
        out_.meta(name_meta("thread_name", cluster_pid(c), cluster_tid(c), "cluster power"));
    }
    for (unsigned cpu = 0; cpu < ncpus_; cpu++) {
        const int pid = cluster_pid(ctx_.cpu_cluster[cpu]);
        const std::string n = "cpu" + std::to_string(cpu);
        out_.meta(name_meta("thread_name", pid, cpu_tid(cpu, 0), n + " task"));
        out_.meta(name_meta("thread_name", pid, cpu_tid(cpu, 1), n + " idle"));
        out_.meta(name_meta("thread_name", pid, cpu_tid(cpu, 2), n + " power"));
        out_.meta(name_meta("thread_name", pid, cpu_tid(cpu, 3), n + " mcpm"));
    }
    out_.meta(name_meta("process_name", logical_pid, -1, "logical CPUs"));
}

void perfetto_writer::end_slice(int pid, int tid, std::uint64_t t)
{
    auto it = open_.find(tid);
    if (it == open_.end() || !it->second.pid)
        return;
    const open_slice& o = it->second;
    if (t > o.t0)
        out_.add_with(o.t0, [&](std::string& b) { append_state(b, o.name, pid, tid, o.t0, t, o.cat); });
    it->second.pid = 0;
}

void perfetto_writer::begin_slice(int pid, int tid, std::uint64_t t, const std::string& name, const char* cat)
{
    end_slice(pid, tid, t);
    open_[tid] = {pid, name, cat, t};
}

const perfetto_writer::open_slice* perfetto_writer::task_open(unsigned cpu) const
{
    auto it = open_.find(cpu_tid(cpu, 0));
    return it != open_.end() && it->second.pid ? &it->second : nullptr;
}

void perfetto_writer::task_on_off_cpu(unsigned cpu, std::uint64_t t, const std::string& task, const std::string& how) const
{
    model::invariant_failed("trace-task-on-powered-cpu", t, "cpu" + std::to_string(cpu), "task '" + task + "' " + how);
}

// A logical CPU's track, named when first drawn on.
int perfetto_writer::logical_track(unsigned l)
{
    if (!logical_named_[l]) {
        logical_named_[l] = true;
        out_.meta(name_meta("thread_name", logical_pid, logical_tid(l), "logical cpu" + std::to_string(l)));
    }
    return logical_tid(l);
}

// An instant event; @extra, its scope and arguments, go after the slice's fields.
void perfetto_writer::instant(const std::string& name, int pid, int tid, std::uint64_t t, const char* cat,
                              const std::string& extra)
{
    std::string s = slice('i', name, pid, tid, t, cat);
    s.insert(s.size() - 1, extra);
    out_.add(t, s);
}

void perfetto_writer::record(const trace_recorder::rec& r)
{
    static const char* const counter_names[] = {"freq_mhz", "voltage_mv", "power_mw", "energy_j"};
    switch (r.k) {
    case trace_recorder::kind::core:
        core(r);
        break;
    case trace_recorder::kind::cluster:
        begin_slice(cluster_pid(r.cpu), cluster_tid(r.cpu), r.t_ps,
                    model::to_string(static_cast<model::cluster_power>(r.sub)), "power");
        break;
    case trace_recorder::kind::counter:
        out_.add_with(r.t_ps, [&](std::string& b) {
            append_counter(b, counter_names[r.sub], cluster_pid(r.cpu), r.t_ps, r.value);
        });
        break;
    case trace_recorder::kind::kernel:
        kernel(r);
        break;
    }
}

void perfetto_writer::core(const trace_recorder::rec& r)
{
    const int pid = cluster_pid(ctx_.cpu_cluster.at(r.cpu));
    cpu_off_.at(r.cpu) = static_cast<model::core_power>(r.sub) == model::core_power::off;
    if (cpu_off_[r.cpu])
        if (const open_slice* o = task_open(r.cpu))
            task_on_off_cpu(r.cpu, r.t_ps, o->name, "is running when the CPU powers off");
    begin_slice(pid, cpu_tid(r.cpu, 2), r.t_ps, model::to_string(static_cast<model::core_power>(r.sub)), "power");
}

void perfetto_writer::kernel(const trace_recorder::rec& r)
{
    static const char* const mcpm_states[] = {"DOWN", "COMING_UP", "UP", "GOING_DOWN"};
    const int pid = cluster_pid(ctx_.cpu_cluster.at(r.cpu));
    switch (r.sub) {
    case BLS_TRACE_SCHED_SWITCH:
        sched_switch(r, pid);
        break;
    case BLS_TRACE_BLACKOUT_BEGIN:
        blackout_begin(r, pid);
        break;
    case BLS_TRACE_BLACKOUT_END:
        blackout_end(r, pid);
        break;
    case BLS_TRACE_CPU_IDLE:
        cpu_idle(r, pid);
        break;
    case BLS_TRACE_IRQ_HANDLED:
        instant("irq " + std::to_string(r.b), pid, cpu_tid(r.cpu, 0), r.t_ps, "irq", ",\"s\":\"t\"");
        break;
    case BLS_TRACE_SCHED_WAKEUP:
    case BLS_TRACE_SCHED_MIGRATE:
        wakeup_or_migrate(r, pid);
        break;
    case BLS_TRACE_CPU_FREQUENCY:
        logical_counter(r, " freq_mhz");
        break;
    case BLS_TRACE_MCPM_CPU_STATE: {
        const unsigned k = r.b - BLS_CPU_DOWN;
        begin_slice(pid, cpu_tid(r.cpu, 3), r.t_ps, k < 4 ? mcpm_states[k] : "?", "mcpm");
        break;
    }
    case BLS_TRACE_MODE:
        mode(r);
        break;
    case BLS_TRACE_TASK_XMIGRATED:
        xmigrated(r, pid);
        break;
    case BLS_TRACE_SWITCH_ABORTED:
        switch_aborted(r);
        break;
    case BLS_TRACE_GOV_LOAD:
        logical_counter(r, " load_pct");
        break;
    default:
        break;
    }
}

void perfetto_writer::sched_switch(const trace_recorder::rec& r, int pid)
{
    const unsigned b = r.b;
    if (b == none) {
        end_slice(pid, cpu_tid(r.cpu, 0), r.t_ps);
    } else {
        if (cpu_off_.at(r.cpu))
            task_on_off_cpu(r.cpu, r.t_ps, ctx_.task_names.at(b), "is switched in while the CPU is off");
        begin_slice(pid, cpu_tid(r.cpu, 0), r.t_ps, ctx_.task_names.at(b), "sched");
    }
    running_.at(r.cpu) = b;
}

// On the outbound: its task leaves it.
void perfetto_writer::blackout_begin(const trace_recorder::rec& r, int pid)
{
    if (const open_slice* o = task_open(r.cpu)) {
        carried_.at(r.cpu) = o->name;
        end_slice(pid, cpu_tid(r.cpu, 0), r.t_ps);
    }
    carried_task_.at(r.cpu) = running_.at(r.cpu);
    running_[r.cpu] = none;
}

// On the inbound (b: the outbound): the task arrives.
void perfetto_writer::blackout_end(const trace_recorder::rec& r, int pid)
{
    const unsigned b = r.b;
    if (b < ncpus_ && !carried_[b].empty()) {
        if (cpu_off_.at(r.cpu))
            task_on_off_cpu(r.cpu, r.t_ps, carried_[b], "arrives from cpu" + std::to_string(b) + " while the CPU is off");
        begin_slice(pid, cpu_tid(r.cpu, 0), r.t_ps, carried_[b], "sched");
        carried_[b].clear();
        running_.at(r.cpu) = carried_task_[b];
    }
}

void perfetto_writer::cpu_idle(const trace_recorder::rec& r, int pid)
{
    const unsigned a = r.a;
    const unsigned c = ctx_.cpu_cluster.at(r.cpu);
    if (a == none)
        end_slice(pid, cpu_tid(r.cpu, 1), r.t_ps);
    else
        begin_slice(pid, cpu_tid(r.cpu, 1), r.t_ps,
                    a < ctx_.idle_state_names.at(c).size() ? ctx_.idle_state_names[c][a] : "state " + std::to_string(a),
                    "idle");
}

void perfetto_writer::wakeup_or_migrate(const trace_recorder::rec& r, int pid)
{
    const unsigned ev = r.sub, a = r.a, b = r.b;
    // A task moved while it runs (hotplug takes a CPU's tasks, the running one too, with no
    // switch traced on it): it runs there no more.
    if (ev == BLS_TRACE_SCHED_MIGRATE)
        for (unsigned c = 0; c < ncpus_; c++)
            if (running_[c] == a) {
                end_slice(cluster_pid(ctx_.cpu_cluster[c]), cpu_tid(c, 0), r.t_ps);
                running_[c] = none;
            }
    const std::string what = ev == BLS_TRACE_SCHED_WAKEUP ? "wakeup " : "migrate ";
    instant(what + ctx_.task_names.at(a) + " -> cpu" + std::to_string(b), pid, cpu_tid(r.cpu, 0), r.t_ps, "sched",
            ",\"s\":\"t\"");
}

// A global instant (across every track), on a track of its own.
void perfetto_writer::mode(const trace_recorder::rec& r)
{
    const unsigned a = r.a, b = r.b;
    if (!mode_named_) {
        mode_named_ = true;
        out_.meta(name_meta("thread_name", logical_pid, mode_tid, "big.LITTLE mode"));
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
    instant(name, logical_pid, mode_tid, r.t_ps, "mode", ",\"s\":\"g\",\"args\":{" + args + "}");
}

// On the CPU it now runs on, with the time from the decision to move it.
void perfetto_writer::xmigrated(const trace_recorder::rec& r, int pid)
{
    const std::string& to = ctx_.cluster_names.at(ctx_.cpu_cluster.at(r.cpu));
    const std::string name = "xmigrated " + ctx_.task_names.at(r.a) + " -> " + to;
    std::string args = ",\"s\":\"t\",\"args\":{\"latency_us\":";
    append_ts(args, static_cast<std::uint64_t>(r.b) * 1000); // ns -> ps, printed as us
    args += "}";
    instant(name, pid, cpu_tid(r.cpu, 0), r.t_ps, "sched", args);
}

// A switch given up (its inbound never came up, docs/switcher.md "Faults") has no phases to
// draw: an instant on the logical CPU's track, at the outbound's decision, naming the
// inbound that failed.
void perfetto_writer::switch_aborted(const trace_recorder::rec& r)
{
    const unsigned a = r.a, b = r.b;
    const std::string name = "switch given up: inbound cpu" + std::to_string(b) + " never came up";
    const int tid = logical_track(a);
    instant(name, logical_pid, tid, r.t_ps, "switch",
            ",\"s\":\"t\",\"args\":{\"outbound\":" + std::to_string(r.cpu) + ",\"inbound\":" + std::to_string(b) + "}");
}

// A counter of logical CPU a (its frequency, its load), b its value.
void perfetto_writer::logical_counter(const trace_recorder::rec& r, const char* what)
{
    const unsigned a = r.a, b = r.b;
    logical_track(a);
    out_.add_with(r.t_ps, [&](std::string& o) {
        append_counter(o, "cpu" + std::to_string(a) + what, logical_pid, r.t_ps, b);
    });
}

void perfetto_writer::end_open_slices(std::uint64_t end_ps)
{
    for (const auto& [tid, o] : open_)
        if (o.pid)
            end_slice(o.pid, tid, end_ps);
}

// A switch: the phases as nested slices on the logical CPU's track, and the two messages
// between the CPUs (the early poke, the "inbound alive" SGI) as flow arrows between the
// CPUs' power tracks.
void perfetto_writer::draw_switch(const switch_record& r)
{
    static const char* const step_names[] = {"GIC migration", "tick, cpu_pm", "context save", "L1 clean",
                                             "handshake wait", "restore"};
    const int tid = logical_track(r.logical);
    const std::uint64_t end = std::max({r.t_done, r.t_outbound_off, r.t_blackout_end, r.t_alive});
    const std::string dir = ctx_.cluster_names.at(r.from_cluster) + "->" + ctx_.cluster_names.at(r.to_cluster);
    out_.add(r.t_request, complete("switch " + dir, logical_pid, tid, r.t_request, end,
                                   "\"outbound\":" + std::to_string(r.outbound) + ",\"inbound\":" + std::to_string(r.inbound) +
                                       (r.group ? ",\"group\":" + std::to_string(r.group) : std::string())));
    const std::uint64_t on = std::max(r.t_request, r.t_inbound_power_on);
    out_.add(r.t_request, complete("request to power-on", logical_pid, tid, r.t_request, on, ""));
    out_.add(on, complete("inbound power-up to alive", logical_pid, tid, on, std::max(on, r.t_alive), ""));
    out_.add(r.t_blackout_start, complete("blackout", logical_pid, tid, r.t_blackout_start, r.t_blackout_end, ""));
    std::uint64_t from = r.t_blackout_start;
    for (int k = 0; k < switch_steps; k++) {
        const std::uint64_t to = k < switch_steps - 1 ? std::max(from, r.t_step[k]) : r.t_blackout_end;
        out_.add(from, complete(step_names[k], logical_pid, tid, from, std::max(from, to), ""));
        from = std::max(from, to);
    }
    if (r.t_outbound_off)
        out_.add(r.t_blackout_end, complete("outbound down", logical_pid, tid, r.t_blackout_end,
                                            std::max(r.t_blackout_end, r.t_outbound_off), ""));
    flow("early poke", r.outbound, r.t_request, r.inbound, on);
    flow("inbound alive", r.inbound, r.t_alive, r.outbound, r.t_alive);
}

// A message from one CPU to another: a flow arrow between their power tracks.
void perfetto_writer::flow(const char* name, unsigned from_cpu, std::uint64_t t0, unsigned to_cpu, std::uint64_t t1)
{
    const std::string id = std::to_string(flow_id_++);
    out_.add(t0, "{\"ph\":\"s\",\"id\":" + id + ",\"name\":\"" + name + "\",\"cat\":\"switch\",\"pid\":" +
                     std::to_string(cluster_pid(ctx_.cpu_cluster.at(from_cpu))) + ",\"tid\":" +
                     std::to_string(cpu_tid(from_cpu, 2)) + ",\"ts\":" + ts(t0) + "}");
    out_.add(t1, "{\"ph\":\"f\",\"bp\":\"e\",\"id\":" + id + ",\"name\":\"" + name + "\",\"cat\":\"switch\",\"pid\":" +
                     std::to_string(cluster_pid(ctx_.cpu_cluster.at(to_cpu))) + ",\"tid\":" +
                     std::to_string(cpu_tid(to_cpu, 2)) + ",\"ts\":" + ts(t1) + "}");
}

} // namespace

std::string perfetto_json(const trace_recorder& r, const std::vector<switch_record>& switches, std::uint64_t end_ps)
{
    perfetto_writer w(r.context());
    w.name_tracks();
    for (std::size_t i : trace_records::time_order(r.recs()))
        w.record(r.recs()[i]);
    w.end_open_slices(end_ps);
    for (const switch_record& s : switches)
        w.draw_switch(s);
    return w.write();
}

} // namespace blsim::soc
