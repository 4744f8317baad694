// soc/config/src/rtapp_threads.cpp -- rt-app's threads read into workloads::rtapp_thread: their
// own keys, their phases, the events of each phase, the mutexes a phase holds, and a
// SCHED_DEADLINE thread's reservation (the document around them: rtapp_config.cpp).
#include "rtapp_parser.h"

#include <bls/sched.h>
#include <bls/types.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <set>

#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"

namespace blsim::soc::rtapp_detail {

namespace {

const std::vector<std::string> event_names = {"run",   "runtime", "sleep", "timer",   "lock",
                                              "unlock", "wait",   "signal", "broad",  "sync",
                                              "barrier", "suspend", "resume", "yield", "fork"};

std::vector<std::string> with_events(std::vector<std::string> keys)
{
    keys.insert(keys.end(), event_names.begin(), event_names.end());
    return keys;
}

// The keys blsim reads in a thread and in a phase (for "did you mean").
const std::vector<std::string> dl_keys = {"dl-runtime", "dl-period", "dl-deadline", "dl-reclaim"};
const std::vector<std::string> thread_known = with_events({"instance", "loop", "delay", "cpus", "priority", "policy",
                                                           "phases", "dl-runtime", "dl-period", "dl-deadline",
                                                           "dl-reclaim"});
const std::vector<std::string> phase_known = with_events(
    {"loop", "cpus", "priority", "policy", "dl-runtime", "dl-period", "dl-deadline", "dl-reclaim"});

bool is_dl_key(const std::string& k)
{
    return std::find(dl_keys.begin(), dl_keys.end(), k) != dl_keys.end();
}

// Keys of rt-app's thread and phase objects blsim does not model, and why.
const char* unsupported_key(const std::string& k)
{
    if (k == "util_min" || k == "util_max")
        return "utilization clamping is not modelled";
    if (k.compare(0, 17, "external_workload") == 0)
        return "rt-app's external workloads run a function of a shared library, which a simulation cannot";
    if (k == "nodes_membind" || k == "membind_nodes")
        return "NUMA memory binding is not modelled";
    return nullptr;
}

const char* unsupported_event(ev k)
{
    switch (k) {
    default: return nullptr;
    }
}

} // namespace

void parser::name_map(const node& n, const std::string& p, const std::vector<std::string>& keys,
                      std::map<std::string, const node*>& out)
{
    for (std::size_t i = 0; i < n.keys.size(); i++) {
        if (std::find(keys.begin(), keys.end(), n.keys[i]) == keys.end())
            unknown(n, i, p, keys);
        else
            out[n.keys[i]] = &n.items[i];
    }
}

// Register a named resource where it is first used; the 65th is refused.
void parser::resource(int kind, const std::string& name, const event_at& at)
{
    if (!resources_.insert({kind, name}).second || resources_.size() <= max_resources || too_many_)
        return;
    too_many_ = true;
    error(at.key, at.path, "'" + name + "' would be the " + std::to_string(max_resources + 1) +
                               "th mutex, condition or barrier of the use case: blsim's kernel has " +
                               std::to_string(max_resources) + " events");
}

// An event whose value is a duration in microseconds: run, runtime, sleep.
bool parser::duration_event(rtapp_event::kind_t kind, const node& v, event_at& out)
{
    out.e.kind = kind;
    long long x = 0;
    if (!integer(v, out.path, 0, int_max, "an integer number of microseconds 0.." + std::to_string(int_max), x))
        return false;
    out.e.us = static_cast<double>(x);
    return true;
}

// An event whose value names a resource of @resource_kind (0 a mutex, 1 a condition): lock,
// unlock, signal, broad.
bool parser::named_event(rtapp_event::kind_t kind, const node& v, const char* what, int resource_kind,
                         event_at& out)
{
    out.e.kind = kind;
    if (!text(v, out.path, what, out.e.ref))
        return false;
    resource(resource_kind, out.e.ref, out);
    return true;
}

// suspend and resume name a thread, whose condition they wait on and signal.
bool parser::suspend_event(bool suspend, const node& v, event_at& out)
{
    rtapp_event& e = out.e;
    e.kind = suspend ? rtapp_event::suspend : rtapp_event::resume;
    if (suspend && (v.is_null() || (v.is_scalar() && v.value.empty()))) {
        // Left empty ("suspend": "") or bare ("suspend", a key without a value, which a
        // flow mapping reads as null), as rt-app's use cases write it: workgen writes the
        // thread's own name.
        e.ref = thread_name_;
    } else if (!text(v, out.path, "the name of a thread", e.ref)) {
        return false;
    }
    resource(1, e.ref, out);
    return true;
}

// An event whose value is a number of bytes written: mem, iorun.
bool parser::bytes_event(rtapp_event::kind_t kind, const node& v, event_at& out)
{
    out.e.kind = kind;
    long long x = 0;
    if (!integer(v, out.path, 0, LLONG_MAX, "an integer number of bytes", x))
        return false;
    out.e.bytes = static_cast<std::uint64_t>(x);
    return true;
}

// A barrier, which each of its uses joins with its thread's @instances (as rt-app counts).
bool parser::barrier_event(const node& v, int instances, event_at& out)
{
    rtapp_event& e = out.e;
    e.kind = rtapp_event::barrier;
    if (!text(v, out.path, "the name of a barrier", e.ref))
        return false;
    resource(2, e.ref, out);
    barrier_users_[e.ref] += instances; // rt-app: each use counts its thread's instances
    return true;
}

// wait and sync: {ref: a condition, mutex: the mutex released while waiting}.
bool parser::wait_event(rtapp_event::kind_t kind, const node& v, event_at& out)
{
    const std::string& p = out.path;
    rtapp_event& e = out.e;
    e.kind = kind;
    if (!v.is_map()) {
        error(v.at, p, "expected a mapping {ref, mutex}, got " + cfg::describe(v));
        return false;
    }
    std::map<std::string, const node*> f;
    const std::size_t before = d_.count();
    name_map(v, p, {"ref", "mutex"}, f);
    for (const char* req : {"ref", "mutex"})
        if (!f.count(req))
            error(v.at, p, std::string("missing required key '") + req + "'");
    if (f.count("ref"))
        text(*f["ref"], p + ".ref", "the name of a condition", e.ref);
    if (f.count("mutex"))
        text(*f["mutex"], p + ".mutex", "the name of a mutex", e.mutex);
    if (d_.count() != before)
        return false;
    resource(1, e.ref, out);
    resource(0, e.mutex, out);
    return true;
}

// A timer: {ref, period in us, mode absolute or relative (the default)}.
bool parser::timer_event(const node& v, event_at& out)
{
    const std::string& p = out.path;
    rtapp_event& e = out.e;
    e.kind = rtapp_event::timer;
    if (!v.is_map()) {
        error(v.at, p, "expected a mapping {ref, period, mode}, got " + cfg::describe(v));
        return false;
    }
    std::map<std::string, const node*> f;
    const std::size_t before = d_.count();
    name_map(v, p, {"ref", "period", "mode"}, f);
    for (const char* req : {"ref", "period"})
        if (!f.count(req))
            error(v.at, p, std::string("missing required key '") + req + "'");
    if (f.count("ref"))
        text(*f["ref"], p + ".ref", "the name of a timer", e.ref);
    long long x = 0;
    if (f.count("period") &&
        integer(*f["period"], p + ".period", 1, int_max,
                "an integer number of microseconds 1.." + std::to_string(int_max), x))
        e.us = static_cast<double>(x);
    if (f.count("mode")) {
        const node& m = *f["mode"];
        if (m.is_scalar() && (m.value == "absolute" || m.value == "relative"))
            e.absolute = m.value == "absolute";
        else
            error(m.at, p + ".mode", "expected absolute or relative, got " + cfg::describe(m));
    }
    return d_.count() == before;
}

// One event of a phase (@key, at @key_at, with the value @v), into @out; whether it was read.
bool parser::event(const std::string& key, const mark& key_at, const node& v, const std::string& p,
                   int instances, event_at& out)
{
    const ev k = classify(key);
    out.path = p;
    out.key = key_at;
    if (const char* why = unsupported_event(k)) {
        d_.error(key_at, p + ": rt-app event '" + key + "' is not supported: " + why);
        return false;
    }
    switch (k) {
    case ev::run: return duration_event(rtapp_event::run, v, out);
    case ev::runtime: return duration_event(rtapp_event::runtime, v, out);
    case ev::sleep: return duration_event(rtapp_event::sleep, v, out);
    case ev::lock: return named_event(rtapp_event::lock, v, "the name of a mutex", 0, out);
    case ev::unlock: return named_event(rtapp_event::unlock, v, "the name of a mutex", 0, out);
    case ev::signal: return named_event(rtapp_event::signal, v, "the name of a condition", 1, out);
    case ev::broad: return named_event(rtapp_event::broad, v, "the name of a condition", 1, out);
    case ev::suspend: return suspend_event(true, v, out);
    case ev::resume: return suspend_event(false, v, out);
    case ev::mem: return bytes_event(rtapp_event::mem, v, out);
    case ev::iorun: return bytes_event(rtapp_event::iorun, v, out);
    case ev::yield:
        out.e.kind = rtapp_event::yield; // rt-app reads no value
        return true;
    case ev::fork:
        out.e.kind = rtapp_event::fork;
        return text(v, p, "the name of a thread", out.e.ref);
    case ev::barrier: return barrier_event(v, instances, out);
    case ev::wait: return wait_event(rtapp_event::wait, v, out);
    case ev::sync: return wait_event(rtapp_event::sync, v, out);
    case ev::timer: return timer_event(v, out);
    default: return false;
    }
}

// The keys of a phase object (or of a thread written without "phases"): loop, events, and
// the properties blsim keeps per thread (equal to the thread's, or refused).
// @is_thread: @n is the thread itself, whose own keys thread() has read.
bool parser::phase_keys(const node& n, const std::string& p, bool is_thread, workloads::rtapp_thread& t,
                        long& loop, std::vector<event_at>& events)
{
    const std::size_t before = d_.count();
    loop = 1;
    phase_cpus_.clear();
    phase_group_ = -1;
    if (old_grammar(n, p))
        return false;
    for (std::size_t i = 0; i < n.keys.size(); i++) {
        const std::string& k = n.keys[i];
        const node& v = n.items[i];
        const std::string kp = p + "." + k;
        if (is_thread && (k == "instance" || k == "delay" || k == "cpus" || k == "priority" ||
                          k == "policy" || k == "loop" || k == "taskgroup" || k == "period" ||
                          k == "deadline" || k == "phases" || is_dl_key(k)))
            continue; // thread keys: thread() has them
        long long x = 0;
        if (k == "loop") {
            if (integer(v, kp, 1, LONG_MAX, "a count >= 1", x))
                loop = static_cast<long>(x);
        } else if (k == "cpus") {
            // The thread's affinity while in this phase (rt-app sets it at the phase's start).
            std::vector<int> c;
            if (cpus(v, kp, c) && !is_thread && dl_cpus(t, c, v, kp))
                phase_cpus_ = c;
        } else if (k == "dl-reclaim") {
            dl_reclaim(v, kp, t);
        } else if (is_dl_key(k)) {
            if (integer(v, kp, 0, int_max, "an integer number of microseconds", x) &&
                t.policy == workloads::task_info::deadline && static_cast<std::uint64_t>(x) * 1000 != dl_param(t, k))
                error(v.at, kp, "deadline parameters per phase are not supported (a task's reservation is fixed "
                                "in blsim): give them at thread level");
        } else if (k == "priority") {
            const bool rt = t.policy != workloads::task_info::normal;
            int nv = 0;
            if (priority(v, kp, t.policy, nv) && nv != (rt ? t.rt_priority : t.nice))
                error(v.at, kp, "a priority per phase is not supported (a task's " +
                                    std::string(rt ? "real-time priority" : "nice value") +
                                    " is fixed in blsim): give it at thread level");
        } else if (k == "policy") {
            workloads::task_info::policy_t pol = t.policy;
            if (policy(v, kp, pol) && pol != t.policy)
                error(v.at, kp, "a policy per phase is not supported (a task's class is fixed in blsim): "
                                "give it at thread level");
        } else if (k == "taskgroup") {
            const int g = taskgroup(v, kp);
            if (!is_thread && g >= 0)
                phase_group_ = g;
        } else if (const char* why = unsupported_key(k)) {
            d_.error(n.key_marks[i], kp + ": rt-app key '" + k + "' is not supported: " + why);
        } else if (k == "instance" || k == "delay" || k == "phases") {
            d_.error(n.key_marks[i], kp + ": '" + k + "' is a thread key: rt-app ignores it in a phase");
        } else if (classify(k) != ev::none) {
            event_at a;
            if (event(k, n.key_marks[i], v, kp, t.instances, a))
                events.push_back(a);
        } else {
            unknown(n, i, p, is_thread ? thread_known : phase_known);
        }
    }
    if (events.empty() && d_.count() == before)
        error(n.at, p, "no events (rt-app refuses a phase without events: run, sleep, timer...)");
    return d_.count() == before;
}

// Mutexes within one phase: each lock of one not held, each unlock of one held, wait and sync
// holding their mutex, nothing held at the end (so that the phase can loop).
void parser::check_locks(const std::vector<event_at>& events, const std::string& where)
{
    std::vector<const event_at*> held;
    auto find = [&](const std::string& m) {
        return std::find_if(held.begin(), held.end(), [&](const event_at* a) { return a->e.ref == m; });
    };
    for (const event_at& a : events) {
        const rtapp_event& e = a.e;
        if (e.kind == rtapp_event::lock) {
            if (find(e.ref) != held.end())
                d_.error(a.key, a.path + ": mutex '" + e.ref + "' is already held here: rt-app's "
                                         "mutexes are not recursive (the thread would deadlock)");
            else
                held.push_back(&a);
        } else if (e.kind == rtapp_event::unlock) {
            auto it = find(e.ref);
            if (it == held.end())
                d_.error(a.key, a.path + ": mutex '" + e.ref + "' is not held here");
            else
                held.erase(it);
        } else if ((e.kind == rtapp_event::wait || e.kind == rtapp_event::sync) && find(e.mutex) == held.end()) {
            d_.error(a.key, a.path + ": mutex '" + e.mutex + "' must be locked before waiting on '" +
                                e.ref + "' (pthread_cond_wait needs it held)");
        }
    }
    for (const event_at* a : held)
        d_.error(a->key, a->path + ": mutex '" + a->e.ref + "' is still held at the end of " + where +
                             ": blsim needs each phase to unlock what it locks");
}

// A SCHED_DEADLINE thread's reservation, as rt-app reads it (dl-runtime; dl-period, else the
// legacy period, else the runtime; dl-deadline, else the legacy deadline, else the period),
// checked as sched_setattr checks it, then admitted as Linux admits it: the deadline threads'
// bandwidths together within the run's real-time bandwidth (docs/os.md, "Deadline tasks").
void parser::deadline_params(const std::string& tp, const mark& key,
                             const std::map<std::string, std::pair<std::uint64_t, mark>>& given,
                             workloads::rtapp_thread& t)
{
    auto get = [&](const char* k, const char* legacy) -> const std::pair<std::uint64_t, mark>* {
        for (const char* name : {k, legacy}) {
            const auto it = name ? given.find(name) : given.end();
            if (it != given.end() && it->second.first != 0)
                return &it->second;
        }
        return nullptr;
    };
    const auto* r = get("dl-runtime", nullptr);
    const auto* pe = get("dl-period", "period");
    const auto* de = get("dl-deadline", "deadline");
    const std::uint64_t runtime = r ? r->first : 0, period = pe ? pe->first : runtime,
                        deadline = de ? de->first : period;
    const std::string us = " us";
    auto refuse = [&](const mark& at, const std::string& why) {
        d_.error(at, tp + ": " + why + ": sched_setattr refuses it (EINVAL)");
    };
    const std::size_t before = d_.count();
    if (runtime * 1000 < 1024)
        refuse(r ? r->second : key, "SCHED_DEADLINE needs a dl-runtime of at least 2 us (Linux's least is 1024 ns), got " +
                                        std::to_string(runtime) + us);
    else if (deadline < runtime)
        refuse(de ? de->second : key, "dl-deadline (" + std::to_string(deadline) + us + ") is shorter than dl-runtime (" +
                                          std::to_string(runtime) + us + ")");
    else if (period < deadline)
        refuse(pe ? pe->second : key, "dl-period (" + std::to_string(period) + us + ") is shorter than dl-deadline (" +
                                          std::to_string(deadline) + us + ")");
    else if (period < 100 || period > (1u << 22))
        refuse(pe ? pe->second : key, "dl-period " + std::to_string(period) +
                                          " us is outside 100..4194304 us (sched_deadline_period_min_us, _max_us)");
    if (d_.count() != before)
        return;
    t.dl_runtime_ns = runtime * 1000;
    t.dl_period_ns = period * 1000;
    t.dl_deadline_ns = deadline * 1000;
    // Admission (__dl_overflow), each instance a task of its own.
    const std::uint64_t bw = bls_sched_bw(t.dl_period_ns, t.dl_runtime_ns);
    dl_total_bw_ += bw * static_cast<std::uint64_t>(t.instances);
    if (pinnable_.dl_bw != UINT64_MAX && dl_total_bw_ > pinnable_.dl_bw) {
        char cpus[64];
        std::snprintf(cpus, sizeof cpus, "%.3f", static_cast<double>(dl_total_bw_) / (1 << 20));
        d_.error(key, tp + ": admission control refuses it (sched_setattr: EBUSY): with it the SCHED_DEADLINE "
                           "threads reserve " + std::string(cpus) + " CPUs, more than " + pinnable_.dl_bw_what);
    }
}

// The thread's class first, which says what its "priority" is (rt-app: the global
// default_policy when it gives none; a real-time thread without a priority gets 10).
void parser::thread_class(const node& n, const std::string& tp, workloads::rtapp_thread& t)
{
    t.policy = default_policy_;
    if (const node* pol = n.find("policy"))
        policy(*pol, tp + ".policy", t.policy);
    if (t.policy == workloads::task_info::fifo || t.policy == workloads::task_info::rr)
        t.rt_priority = 10;
}

// A SCHED_DEADLINE parameter given to the thread (@n's key @i): dl-*, or rt-app's legacy names
// of dl-period and dl-deadline at thread level; kept in @dl_given for deadline_params.
void parser::thread_dl_key(const node& n, std::size_t i, const std::string& kp, workloads::rtapp_thread& t,
                           std::map<std::string, std::pair<std::uint64_t, mark>>& dl_given)
{
    const std::string& k = n.keys[i];
    long long x = 0;
    if (!integer(n.items[i], kp, 0, int_max, "an integer number of microseconds", x)) {
    } else if (t.policy == workloads::task_info::normal && k == "dl-runtime" && x != 0) {
        // rt-app passes it as sched_runtime, which Linux 6.12's EEVDF takes for the
        // task's slice.
        d_.error(n.key_marks[i], kp + ": a custom slice (dl-runtime of a SCHED_OTHER thread, EEVDF's "
                                      "sched_runtime) is not supported: blsim's CFS slices by sched_latency");
    } else {
        dl_given[k] = {static_cast<std::uint64_t>(x), n.key_marks[i]};
        if (t.policy != workloads::task_info::deadline)
            d_.note(n.key_marks[i], kp + ": a SCHED_DEADLINE parameter, ignored (as Linux ignores it) "
                                         "for a thread that is not SCHED_DEADLINE");
    }
}

// The thread's own keys, before its phases, which compare theirs with them. Its "loop" is
// left in @loop, its deadline parameters in @dl_given; with @has_phases, events and phase keys
// beside them are refused (without, phase_keys reads them).
void parser::thread_keys(const node& n, const std::string& tp, bool has_phases, workloads::rtapp_thread& t,
                         const node*& loop, std::map<std::string, std::pair<std::uint64_t, mark>>& dl_given)
{
    for (std::size_t i = 0; i < n.keys.size(); i++) {
        const std::string& k = n.keys[i];
        const node& v = n.items[i];
        const std::string kp = tp + "." + k;
        long long x = 0;
        if (k == "instance") {
            if (integer(v, kp, 0, int_max, "an instance count >= 0", x))
                t.instances = static_cast<int>(x);
        } else if (k == "loop") {
            loop = &v;
        } else if (k == "delay") {
            if (integer(v, kp, 0, int_max, "an integer number of microseconds 0.." + std::to_string(int_max), x))
                t.delay_us = static_cast<double>(x);
        } else if (k == "cpus") {
            if (cpus(v, kp, t.cpus) && !dl_cpus(t, t.cpus, v, kp))
                t.cpus.clear();
        } else if (k == "dl-reclaim") {
            dl_reclaim(v, kp, t);
        } else if (is_dl_key(k) || k == "period" || k == "deadline") {
            thread_dl_key(n, i, kp, t, dl_given);
        } else if (k == "priority") {
            if (t.policy == workloads::task_info::normal)
                nice(v, kp, t.nice);
            else
                priority(v, kp, t.policy, t.rt_priority);
        } else if (k == "policy") {
            // read by thread_class
        } else if (k == "phases") {
            // read by thread_phases
        } else if (k == "taskgroup") {
            const int g = taskgroup(v, kp);
            if (g >= 0)
                t.group = static_cast<unsigned>(g);
        } else if (classify(k) != ev::none) {
            if (has_phases)
                d_.error(n.key_marks[i], kp + ": events beside 'phases' are ignored by rt-app: move '" + k +
                                              "' into a phase");
        } else if (!has_phases) {
            // phase_keys() reads them (and reports the unknown ones) in thread_as_phase.
        } else if (const char* why = unsupported_key(k)) {
            d_.error(n.key_marks[i], kp + ": rt-app key '" + k + "' is not supported: " + why);
        } else {
            unknown(n, i, tp, thread_known);
        }
    }
}

// The thread's "loop": -1 (forever) or a count.
void parser::thread_loop(const node& loop, const std::string& tp, workloads::rtapp_thread& t)
{
    long long x = 0;
    if (integer(loop, tp + ".loop", -1, LONG_MAX, "-1 (forever) or a count >= 1", x)) {
        if (x == 0)
            error(loop.at, tp + ".loop", "expected -1 (forever) or a count >= 1, got " + shown(loop));
        else
            t.loop = static_cast<long>(x);
    }
}

// One phase, written in the thread. rt-app reads its "loop" as the phase's and runs the thread
// once; the same as looping the thread, which blsim counts in its loops.
void parser::thread_as_phase(const node& n, const std::string& tp, workloads::rtapp_thread& t)
{
    std::vector<event_at> events;
    long phase_loop = 1;
    if (!phase_keys(n, tp, true, t, phase_loop, events))
        return;
    check_locks(events, "the thread's events");
    workloads::rtapp_phase ph;
    for (const event_at& a : events)
        ph.events.push_back(a.e);
    t.phases.push_back(std::move(ph));
    threads_.back().phases.push_back(std::move(events));
}

// The thread's "phases": a mapping of names to phases, read in order.
void parser::thread_phases(const node& phases, const std::string& tp, workloads::rtapp_thread& t)
{
    const std::string pp = tp + ".phases";
    if (!phases.is_map() || phases.keys.empty()) {
        error(phases.at, pp, "expected a mapping of phase names to phases, got " +
                                 (phases.is_map() ? std::string("an empty mapping") : cfg::describe(phases)));
        return;
    }
    for (std::size_t i = 0; i < phases.keys.size(); i++) {
        const std::string php = pp + "." + phases.keys[i];
        const node& pn = phases.items[i];
        if (!pn.is_map()) {
            error(pn.at, php, "expected a mapping (a phase), got " + cfg::describe(pn));
            continue;
        }
        workloads::rtapp_phase ph;
        ph.name = phases.keys[i];
        std::vector<event_at> events;
        long phase_loop = 1;
        if (!phase_keys(pn, php, false, t, phase_loop, events))
            continue;
        check_locks(events, "phase '" + ph.name + "'");
        ph.loop = phase_loop;
        ph.cpus = phase_cpus_;
        ph.group = phase_group_;
        for (const event_at& a : events)
            ph.events.push_back(a.e);
        t.phases.push_back(std::move(ph));
        threads_.back().phases.push_back(std::move(events));
    }
}

// A thread of the document's "tasks" (@name, at @key), into @t.
void parser::thread(const std::string& name, const mark& key, const node& n, workloads::rtapp_thread& t)
{
    const std::string tp = path("tasks." + name);
    t.name = name;
    thread_name_ = name;
    threads_.push_back({tp, key, {}});
    if (!n.is_map()) {
        error(n.at, tp, "expected a mapping (a thread), got " + cfg::describe(n));
        return;
    }
    if (old_grammar(n, tp))
        return;
    const node* phases = n.find("phases");
    thread_class(n, tp, t);
    const node* loop = nullptr;
    std::map<std::string, std::pair<std::uint64_t, mark>> dl_given; // key -> (us, where)
    thread_keys(n, tp, phases != nullptr, t, loop, dl_given);
    if (t.policy == workloads::task_info::deadline)
        deadline_params(tp, key, dl_given, t);
    if (loop)
        thread_loop(*loop, tp, t);
    if (phases)
        thread_phases(*phases, tp, t);
    else
        thread_as_phase(n, tp, t);
}

} // namespace blsim::soc::rtapp_detail
