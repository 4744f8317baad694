// soc/config/src/rtapp_config.cpp -- rt-app's grammar (doc/tutorial.txt, src/rt-app_parse_config.c)
// read into workloads::rtapp_params, every unsupported construct refused by name.
//
// Global keys accepted and without effect in simulation, as they only set up rt-app's own
// logging, tracing, calibration or memory (checked for rt-app's types, then ignored but for
// the log that blsim run --rtapp-log writes):
//   logdir, log_basename (the log files' prefix), log_size, ftrace, gnuplot, lock_pages,
//   calibration (run's unit is the reference CPU's work here, whatever CPU rt-app would
//   calibrate on; a number of ns per loop sets the log's perf unit), io_device (where iorun
//   writes: /dev/null, or a block device the scenario describes) and mem_buffer_size (the buffer mem and iorun write), cumulative_slack (only
//   changes what rt-app logs as slack; blsim keeps every timer's sample), and pi_enabled
//   false (its default; true would change behaviour blsim does not model: refused).
//   default_policy is every thread's class unless it gives its own: SCHED_OTHER, SCHED_FIFO,
//   SCHED_RR or SCHED_DEADLINE (SCHED_IDLE is refused as a model limit). A thread's
//   "priority" is its nice value under SCHED_OTHER, its real-time priority (1..99, default 10
//   as rt-app's) under SCHED_FIFO and SCHED_RR, 0 under SCHED_DEADLINE, whose parameters are
//   dl-runtime, dl-period (default: the runtime) and dl-deadline (default: the period), or
//   the legacy thread keys period and deadline, checked as sched_setattr checks them and
//   admitted as Linux admits them (bls_sched_add_task). The top-level "resources" object, kept by
//   rt-app for backward compatibility (resources are created from their uses), is accepted
//   and has no effect either.
#include "blsim/soc/rtapp_config.h"

#include <bls/sched.h>
#include <bls/types.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"

namespace blsim::soc {

using cfg::diagnostics;
using cfg::mark;
using cfg::node;
using workloads::rtapp_event;

namespace {

// rt-app's event names. A key is an event when it begins with one of them (rt-app's
// obj_is_event); which one, in the order its parse_task_event_data tries them ("runtime5" is a
// runtime, "run5" a run).
enum class ev { none, sleep, runtime, run, mem, iorun, lock, unlock, signal, broad, wait, sync,
                barrier, timer, resume, suspend, yield, fork };

ev classify(const std::string& key)
{
    static const std::pair<const char*, ev> order[] = {
        {"sleep", ev::sleep},   {"runtime", ev::runtime}, {"run", ev::run},
        {"mem", ev::mem},       {"iorun", ev::iorun},     {"unlock", ev::unlock},
        {"lock", ev::lock},     {"signal", ev::signal},   {"broad", ev::broad},
        {"wait", ev::wait},     {"sync", ev::sync},       {"barrier", ev::barrier},
        {"timer", ev::timer},   {"resume", ev::resume},   {"suspend", ev::suspend},
        {"yield", ev::yield},   {"fork", ev::fork}};
    for (const auto& [prefix, kind] : order)
        if (key.compare(0, std::strlen(prefix), prefix) == 0)
            return kind;
    return ev::none;
}

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

constexpr long long int_max = INT_MAX;

// The kind of value a key of rt-app's grammar takes: 'i' an integer, 's' a string, 'b' a
// boolean, 'm' a mapping, '?' more than one. A "did you mean" names only a key that takes the
// kind of value written, so that 'exec': 5000 is not offered 'sync' (a mapping).
char value_kind_of_key(const std::string& k)
{
    switch (classify(k)) {
    case ev::run: case ev::runtime: case ev::sleep: case ev::mem: case ev::iorun: return 'i';
    case ev::timer: case ev::wait: case ev::sync: return 'm';
    case ev::none: break;
    default: return 's';
    }
    static const std::map<std::string, char> keys = {
        {"loop", 'i'}, {"instance", 'i'}, {"dl-runtime", 'i'}, {"dl-period", 'i'}, {"dl-deadline", 'i'}, {"dl-reclaim", 'b'}, {"delay", 'i'}, {"priority", 'i'}, {"duration", 'i'},
        {"mem_buffer_size", 'i'}, {"cpus", '?'}, {"policy", 's'}, {"default_policy", 's'},
        {"logdir", 's'}, {"log_basename", 's'}, {"io_device", 's'}, {"calibration", '?'},
        {"log_size", '?'}, {"ftrace", '?'}, {"phases", 'm'}, {"tasks", 'm'}, {"global", 'm'},
        {"resources", 'm'}, {"pi_enabled", 'b'}, {"gnuplot", 'b'}, {"lock_pages", 'b'},
        {"cumulative_slack", 'b'}};
    const auto it = keys.find(k);
    return it == keys.end() ? '?' : it->second;
}

char value_kind(const node& v)
{
    long long x = 0;
    if (v.is_map())
        return 'm';
    if (v.is_scalar() && v.plain && (v.value == "true" || v.value == "false"))
        return 'b';
    if (v.is_scalar() && cfg::parse_integer(v, x))
        return 'i';
    return v.is_scalar() ? 's' : 'l';
}

// Global keys rt-app does not read (json-c keeps them, rt-app never asks): historic ones that
// public use cases still carry. Accepted with a note.
bool informational_global(const std::string& k)
{
    return k == "frag";
}

// A value as an error shows it: a quoted number is a string to rt-app (json-c types it so).
std::string shown(const node& n)
{
    if (n.is_scalar() && !n.plain)
        return "the string '" + n.value + "'";
    return cfg::describe(n);
}
constexpr unsigned max_resources = workloads::max_events;

class parser {
public:
    parser(diagnostics& d, std::string prefix, cpu_limit pinnable)
        : d_(d), prefix_(std::move(prefix)), pinnable_(std::move(pinnable))
    {
    }

    void document(const node& doc, workloads::rtapp_params& out);

private:
    struct event_at {
        rtapp_event e;
        std::string path;
        mark key;
    };
    struct thread_at {
        std::string path;
        mark key;
        std::vector<std::vector<event_at>> phases;
    };

    std::string path(const std::string& p) const { return prefix_.empty() ? p : prefix_ + "." + p; }

    workloads::task_info::policy_t default_policy_ = workloads::task_info::normal;

    void error(const mark& at, const std::string& p, const std::string& text) { d_.error(at, p + ": " + text); }

    void unknown(const node& map, std::size_t i, const std::string& where,
                 const std::vector<std::string>& known)
    {
        const char kind = value_kind(map.items[i]);
        std::vector<std::string> alike;
        for (const std::string& k : known) {
            const char want = value_kind_of_key(k);
            if (want == '?' || want == kind)
                alike.push_back(k);
        }
        const std::string best = cfg::closest_key(map.keys[i], alike);
        d_.error(map.key_marks[i], "unknown key '" + map.keys[i] + "' in " + where +
                                       (best.empty() || cfg::edit_distance(best, map.keys[i]) > std::max<std::size_t>(2, map.keys[i].size() / 2)
                                            ? std::string()
                                            : " (did you mean '" + best + "'?)"));
    }

    bool integer(const node& n, const std::string& p, long long lo, long long hi,
                 const std::string& what, long long& out)
    {
        long long v = 0;
        if (!cfg::parse_integer(n, v) || v < lo || v > hi) {
            error(n.at, p, "expected " + what + ", got " + shown(n));
            return false;
        }
        out = v;
        return true;
    }

    bool boolean(const node& n, const std::string& p, bool& out)
    {
        if (n.is_scalar() && n.plain && (n.value == "true" || n.value == "false")) {
            out = n.value == "true";
            return true;
        }
        error(n.at, p, "expected true or false, got " + shown(n));
        return false;
    }

    bool text(const node& n, const std::string& p, const std::string& what, std::string& out)
    {
        if (!n.is_scalar() || n.value.empty()) {
            error(n.at, p, "expected " + what + ", got " + cfg::describe(n));
            return false;
        }
        out = n.value;
        return true;
    }

    // A policy name: SCHED_OTHER, SCHED_FIFO and SCHED_RR are modelled; rt-app's other two are
    // refused as model limits (docs/workloads.md).
    bool policy(const node& n, const std::string& p, workloads::task_info::policy_t& out)
    {
        if (!n.is_scalar()) {
            error(n.at, p, "expected a policy name, got " + cfg::describe(n));
            return false;
        }
        static const std::pair<const char*, workloads::task_info::policy_t> modelled[] = {
            {"SCHED_OTHER", workloads::task_info::normal},
            {"SCHED_FIFO", workloads::task_info::fifo},
            {"SCHED_RR", workloads::task_info::rr},
            {"SCHED_DEADLINE", workloads::task_info::deadline}};
        for (const auto& [name, pol] : modelled)
            if (n.value == name) {
                out = pol;
                return true;
            }
        if (n.value == "SCHED_IDLE")
            error(n.at, p, "policy 'SCHED_IDLE' is not supported: blsim models SCHED_OTHER, SCHED_FIFO, "
                           "SCHED_RR and SCHED_DEADLINE");
        else
            error(n.at, p, "'" + n.value +
                               "' is not an rt-app policy (SCHED_OTHER, SCHED_IDLE, SCHED_RR, SCHED_FIFO, "
                               "SCHED_DEADLINE)");
        return false;
    }

    // rt-app's "priority" under @pol: the nice value for SCHED_OTHER, the real-time priority
    // (1..99) for SCHED_FIFO and SCHED_RR.
    bool priority(const node& n, const std::string& p, workloads::task_info::policy_t pol, int& out)
    {
        if (pol == workloads::task_info::normal)
            return nice(n, p, out);
        if (pol == workloads::task_info::deadline) {
            long long v = 0;
            if (!integer(n, p, 0, 0, "0 (sched_setattr refuses a priority under SCHED_DEADLINE)", v))
                return false;
            out = 0;
            return true;
        }
        long long v = 0;
        if (!integer(n, p, 1, 99, "a real-time priority 1..99 (under SCHED_FIFO and SCHED_RR)", v))
            return false;
        out = static_cast<int>(v);
        return true;
    }

    bool cpus(const node& n, const std::string& p, std::vector<int>& out)
    {
        if (!n.is_seq()) {
            error(n.at, p, "expected a list of CPU numbers, got " + cfg::describe(n));
            return false;
        }
        bool ok = true;
        std::vector<int> v;
        for (std::size_t i = 0; i < n.items.size(); i++) {
            long long c = 0;
            const std::string ip = p + "[" + std::to_string(i) + "]";
            if (!integer(n.items[i], ip, 0, BLS_MAX_CPUS - 1, "a CPU number 0.." + std::to_string(BLS_MAX_CPUS - 1), c)) {
                ok = false;
            } else if (c >= pinnable_.cpus) {
                // As the mode (or a mode change) leaves the SoC: the task could never run there.
                error(n.items[i].at, ip, "cpu" + std::to_string(c) + " does not exist (the SoC has " +
                                             std::to_string(pinnable_.cpus) + pinnable_.what);
                ok = false;
            } else {
                v.push_back(static_cast<int>(c));
            }
        }
        if (ok)
            out = v;
        return ok;
    }

    // SCHED_OTHER's priority, the nice value: rt-app hands it to setpriority, which clamps it
    // to -20..19 (said in a note).
    bool nice(const node& n, const std::string& p, int& out)
    {
        long long v = 0;
        if (!integer(n, p, INT_MIN, int_max, "a nice value -20..19 (SCHED_OTHER's priority)", v))
            return false;
        const long long c = std::clamp(v, -20LL, 19LL);
        if (c != v)
            d_.note(n.at, p + ": nice " + std::to_string(v) + " is outside -20..19: " + std::to_string(c) +
                              ", as setpriority clamps it");
        out = static_cast<int>(c);
        return true;
    }

    // A deadline thread's parameter named by @k (dl-runtime, dl-period, dl-deadline), in ns.
    static std::uint64_t dl_param(const workloads::rtapp_thread& t, const std::string& k)
    {
        return k == "dl-runtime" ? t.dl_runtime_ns : k == "dl-period" ? t.dl_period_ns : t.dl_deadline_ns;
    }

    // The CPUs @c of a SCHED_DEADLINE thread (at @n, @p) must be every CPU of the run, as Linux
    // refuses to narrow a deadline task's affinity; they are then no restriction (cleared).
    // Other threads' are kept. Returns whether they may stand.
    bool dl_cpus(const workloads::rtapp_thread& t, std::vector<int>& c, const node& n, const std::string& p)
    {
        if (t.policy != workloads::task_info::deadline)
            return true;
        const std::set<int> named(c.begin(), c.end());
        if (pinnable_.cpus < BLS_MAX_CPUS && static_cast<int>(named.size()) == pinnable_.cpus) {
            c.clear();
            return true;
        }
        error(n.at, p, "a SCHED_DEADLINE thread cannot be pinned: Linux refuses (sched_setattr: EPERM, "
                       "sched_setaffinity: EBUSY) a deadline task whose CPUs are not all the CPUs of its "
                       "root domain; give every CPU or none");
        return false;
    }

    // dl-reclaim (SCHED_FLAG_RECLAIM): false only, GRUB's reclaiming is not modelled.
    void dl_reclaim(const node& v, const std::string& p, const workloads::rtapp_thread& t)
    {
        bool b = false;
        if (boolean(v, p, b) && b && t.policy == workloads::task_info::deadline)
            error(v.at, p, "bandwidth reclaiming (GRUB, SCHED_FLAG_RECLAIM) is not supported: blsim's deadline "
                           "tasks run at most their runtime per period; only false");
    }

    void deadline_params(const std::string& tp, const mark& key,
                         const std::map<std::string, std::pair<std::uint64_t, mark>>& given,
                         workloads::rtapp_thread& t);

    void global(const node& g, workloads::rtapp_params& out);
    void forks(workloads::rtapp_params& out);
    void thread(const std::string& name, const mark& key, const node& n, workloads::rtapp_thread& t);
    bool phase_keys(const node& n, const std::string& p, bool is_thread, workloads::rtapp_thread& t,
                    long& loop, std::vector<event_at>& events);
    bool event(const std::string& key, const mark& key_at, const node& v, const std::string& p,
               int instances, event_at& out);
    void name_map(const node& n, const std::string& p, const std::vector<std::string>& keys,
                  std::map<std::string, const node*>& out);
    void resource(int kind, const std::string& name, const event_at& at);
    void check_locks(const std::vector<event_at>& events, const std::string& where);

    // A thread or phase in rt-app's first grammar (0.x: exec, period, resources, no events):
    // said once, at 'exec', with how to convert, rather than as unknown keys. Returns whether
    // it was.
    bool old_grammar(const node& n, const std::string& p)
    {
        const auto it = std::find(n.keys.begin(), n.keys.end(), "exec");
        if (it == n.keys.end())
            return false;
        d_.error(n.key_marks[static_cast<std::size_t>(it - n.keys.begin())],
                 p + ": 'exec' and 'period' are rt-app's old grammar (before phases and events), which rt-app no "
                     "longer reads: write the thread as events, \"run\": <exec> then \"timer\": {\"ref\": "
                     "\"unique\", \"period\": <period>} (docs/workloads.md, \"rt-app\")");
        return true;
    }

    diagnostics& d_;
    std::string prefix_;
    cpu_limit pinnable_;
    std::set<std::pair<int, std::string>> resources_;
    bool too_many_ = false;
    std::map<std::string, long long> barrier_users_;
    std::vector<thread_at> threads_;
    std::string thread_name_; // of the thread being read
    std::uint64_t dl_total_bw_ = 0; // the SCHED_DEADLINE threads' bandwidth so far (admission)
    std::vector<int> phase_cpus_; // of the phase being read (empty: the thread's)
    int phase_group_ = -1;        // of the phase being read (-1: unchanged)
    std::pair<std::string, mark> io_device_{"/dev/null", mark{}};
    std::vector<std::string> taskgroups_; // every taskgroup named, parents first

    // A taskgroup's path ("/tg1/tg11"; "/" the root; "" none, -1): its group, registering it
    // and its parents; -2 when malformed (reported).
    int taskgroup(const node& v, const std::string& p)
    {
        if (!v.is_scalar()) {
            error(v.at, p, "expected a taskgroup path such as \"/tg1\", got " + cfg::describe(v));
            return -2;
        }
        const std::string& path = v.value;
        if (path.empty())
            return -1;
        if (path == "/")
            return 0;
        if (path[0] != '/' || path.back() == '/' || path.find("//") != std::string::npos) {
            error(v.at, p, "expected a taskgroup path such as \"/tg1\" or \"/tg1/tg11\", got '" + path + "'");
            return -2;
        }
        int id = 0;
        for (std::size_t at = path.find('/', 1);; at = path.find('/', at + 1)) {
            const std::string prefix = path.substr(0, at);
            auto it = std::find(taskgroups_.begin(), taskgroups_.end(), prefix);
            if (it == taskgroups_.end()) {
                if (taskgroups_.size() + 1 >= BLS_MAX_GROUPS) {
                    error(v.at, p, "'" + prefix + "' would be taskgroup " + std::to_string(taskgroups_.size() + 1) +
                                       ": blsim's scheduler has " + std::to_string(BLS_MAX_GROUPS - 1) +
                                       " besides the root");
                    return -2;
                }
                taskgroups_.push_back(prefix);
                it = taskgroups_.end() - 1;
            }
            id = static_cast<int>(it - taskgroups_.begin()) + 1;
            if (at == std::string::npos)
                return id;
        }
    }
};

void parser::document(const node& doc, workloads::rtapp_params& out)
{
    const std::string root = prefix_.empty() ? "rt-app document" : prefix_;
    if (!doc.is_map()) {
        d_.error(doc.at, root + ": expected a mapping with 'tasks', got " + cfg::describe(doc));
        return;
    }
    static const std::vector<std::string> top = {"global", "tasks", "resources"};
    for (std::size_t i = 0; i < doc.keys.size(); i++)
        if (std::find(top.begin(), top.end(), doc.keys[i]) == top.end())
            unknown(doc, i, prefix_.empty() ? "the rt-app document" : prefix_, top);
    if (const node* g = doc.find("global"))
        global(*g, out);
    const node* tasks = doc.find("tasks");
    if (!tasks) {
        d_.error(doc.at, root + ": missing required key 'tasks'");
        return;
    }
    const std::string tp = path("tasks");
    if (!tasks->is_map() || tasks->keys.empty()) {
        error(tasks->at, tp, "expected a mapping of thread names to threads, got " +
                                 (tasks->is_map() ? std::string("an empty mapping") : cfg::describe(*tasks)));
        return;
    }
    for (std::size_t i = 0; i < tasks->keys.size(); i++) {
        workloads::rtapp_thread t;
        thread(tasks->keys[i], tasks->key_marks[i], tasks->items[i], t);
        out.threads.push_back(std::move(t));
    }
    forks(out);
    out.taskgroups = taskgroups_;
    out.taskgroup_shares.assign(taskgroups_.size(), BLS_GROUP_DEFAULT_SHARES);
    // iorun writes to io_device: /dev/null (rt-app's default), or a block device the
    // scenario describes (workload.rtapp_io).
    out.io_null = io_device_.first == "/dev/null";
    // A thread that loops forever through events that all take no time would hold the
    // simulated time still (rt-app would spin a CPU): refused.
    for (std::size_t i = 0; i < threads_.size() && i < out.threads.size(); i++) {
        const workloads::rtapp_thread& t = out.threads[i];
        if (t.loop != -1 || t.instances == 0)
            continue;
        bool takes_time = false;
        for (const auto& ph : threads_[i].phases)
            for (const event_at& a : ph) {
                const rtapp_event& e = a.e;
                switch (e.kind) {
                case rtapp_event::run:
                case rtapp_event::runtime:
                case rtapp_event::sleep: takes_time |= e.us > 0; break;
                case rtapp_event::timer:
                case rtapp_event::wait:
                case rtapp_event::sync:
                case rtapp_event::suspend: takes_time = true; break;
                case rtapp_event::barrier: takes_time |= barrier_users_[e.ref] >= 2; break;
                case rtapp_event::yield: takes_time |= t.policy == workloads::task_info::deadline; break;
                case rtapp_event::mem:
                case rtapp_event::iorun: takes_time |= e.bytes > 0; break;
                default: break;
                }
            }
        if (!takes_time && !threads_[i].phases.empty())
            error(threads_[i].key, threads_[i].path,
                  "loops forever but none of its events takes time (run, runtime, sleep, mem or iorun "
                  "above 0, timer, wait, sync, suspend, a barrier shared with another thread, or a "
                  "SCHED_DEADLINE thread's yield): the simulated time would stand still");
    }
}

// Fork events: each names a thread of the document, and blsim holds back one instance of it
// per fork the document can reach (a fork event's thread instances x thread loops x phase
// loops), started when the fork comes. So a forking thread must loop a bounded number of times,
// and not be started by a fork itself.
void parser::forks(workloads::rtapp_params& out)
{
    std::map<std::string, std::size_t> def;
    for (std::size_t i = 0; i < out.threads.size(); i++)
        def.emplace(out.threads[i].name, i);
    std::set<std::size_t> forked;
    for (const thread_at& th : threads_)
        for (const auto& ph : th.phases)
            for (const event_at& a : ph)
                if (a.e.kind == rtapp_event::fork) {
                    if (!def.count(a.e.ref))
                        d_.error(a.key, a.path + ": forks '" + a.e.ref + "', which is not a thread of the document");
                    else
                        forked.insert(def[a.e.ref]);
                }
    for (std::size_t i = 0; i < threads_.size() && i < out.threads.size(); i++) {
        const workloads::rtapp_thread& t = out.threads[i];
        for (std::size_t j = 0; j < threads_[i].phases.size() && j < t.phases.size(); j++)
            for (const event_at& a : threads_[i].phases[j]) {
                if (a.e.kind != rtapp_event::fork || !def.count(a.e.ref))
                    continue;
                if (forked.count(i)) {
                    d_.error(a.key, a.path + ": a thread started by a fork that forks in turn is not supported "
                                             "(blsim holds back a thread for each fork the document can reach)");
                } else if (t.loop == -1) {
                    d_.error(a.key, a.path + ": a fork in a thread that loops forever would start threads "
                                             "without bound (blsim holds back a thread for each fork): give '" +
                                             t.name + "' a loop count");
                } else {
                    const long long n = static_cast<long long>(t.instances) * t.loop * t.phases[j].loop;
                    workloads::rtapp_thread& target = out.threads[def[a.e.ref]];
                    target.forks = static_cast<int>(std::min<long long>(int_max, target.forks + n));
                }
            }
    }
}

void parser::global(const node& g, workloads::rtapp_params& out)
{
    const std::string gp = path("global");
    if (!g.is_map()) {
        error(g.at, gp, "expected a mapping, got " + cfg::describe(g));
        return;
    }
    static const std::vector<std::string> known = {
        "duration",  "default_policy", "pi_enabled", "calibration", "logdir",         "log_basename",
        "log_size",  "ftrace",         "gnuplot",    "lock_pages",  "io_device",      "mem_buffer_size",
        "cumulative_slack"};
    for (std::size_t i = 0; i < g.keys.size(); i++) {
        const std::string& k = g.keys[i];
        const node& v = g.items[i];
        const std::string p = gp + "." + k;
        bool b = false;
        long long x = 0;
        if (k == "duration") {
            if (integer(v, p, INT_MIN, int_max, "an integer number of seconds (-1: none)", x))
                out.duration_s = x > 0 ? static_cast<double>(x) : -1;
        } else if (k == "default_policy") {
            policy(v, p, default_policy_);
        } else if (k == "pi_enabled") {
            if (boolean(v, p, b) && b)
                error(v.at, p, "priority inheritance is not supported (blsim's mutexes are handed "
                               "over in FIFO order): only false");
        } else if (k == "gnuplot" || k == "lock_pages" || k == "cumulative_slack") {
            if (boolean(v, p, b) && k == "cumulative_slack")
                out.cumulative_slack = b;
        } else if (k == "logdir" || k == "log_basename" || k == "io_device") {
            if (k == "io_device" && v.is_scalar())
                io_device_ = {v.value, v.at};
            if (!v.is_scalar())
                error(v.at, p, "expected a string, got " + cfg::describe(v));
            else if (k == "log_basename" && (v.value.empty() || v.value.find('/') != std::string::npos))
                error(v.at, p, "expected a file name prefix (not empty, no '/'), got '" + v.value + "'");
            else if (k == "log_basename")
                out.log_basename = v.value;
        } else if (k == "log_size" || k == "ftrace") {
            if (!v.is_scalar())
                error(v.at, p, "expected a string or a number, got " + cfg::describe(v));
        } else if (k == "calibration") {
            const bool cpu = v.is_scalar() && v.value.size() > 3 && v.value.compare(0, 3, "CPU") == 0 &&
                             std::all_of(v.value.begin() + 3, v.value.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!cpu && !(cfg::parse_integer(v, x) && x >= 0))
                error(v.at, p, "expected 'CPU<n>' or an integer (ns per loop), got " + cfg::describe(v));
            else if (!cpu && x > 0) // 0: rt-app calibrates, as for a CPU
                out.calib_ns_per_loop = static_cast<long>(std::min<long long>(x, LONG_MAX));
        } else if (k == "mem_buffer_size") {
            if (integer(v, p, 1, int_max, "an integer number of bytes >= 1", x))
                out.mem_buffer_bytes = static_cast<std::uint64_t>(x);
        } else if (informational_global(k)) {
            d_.note(g.key_marks[i], p + ": rt-app does not read '" + k + "' (a key of its older versions): ignored");
        } else {
            unknown(g, i, gp, known);
        }
    }
}

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

bool parser::event(const std::string& key, const mark& key_at, const node& v, const std::string& p,
                   int instances, event_at& out)
{
    const ev k = classify(key);
    out.path = p;
    out.key = key_at;
    rtapp_event& e = out.e;
    if (const char* why = unsupported_event(k)) {
        d_.error(key_at, p + ": rt-app event '" + key + "' is not supported: " + why);
        return false;
    }
    long long x = 0;
    const std::string us = "an integer number of microseconds 0.." + std::to_string(int_max);
    switch (k) {
    case ev::run:
    case ev::runtime:
    case ev::sleep:
        e.kind = k == ev::run ? rtapp_event::run : k == ev::runtime ? rtapp_event::runtime : rtapp_event::sleep;
        if (!integer(v, p, 0, int_max, us, x))
            return false;
        e.us = static_cast<double>(x);
        return true;
    case ev::lock:
    case ev::unlock:
        e.kind = k == ev::lock ? rtapp_event::lock : rtapp_event::unlock;
        if (!text(v, p, "the name of a mutex", e.ref))
            return false;
        resource(0, e.ref, out);
        return true;
    case ev::signal:
    case ev::broad:
        e.kind = k == ev::signal ? rtapp_event::signal : rtapp_event::broad;
        if (!text(v, p, "the name of a condition", e.ref))
            return false;
        resource(1, e.ref, out);
        return true;
    case ev::suspend:
    case ev::resume:
        e.kind = k == ev::suspend ? rtapp_event::suspend : rtapp_event::resume;
        if (k == ev::suspend && (v.is_null() || (v.is_scalar() && v.value.empty()))) {
            // Left empty ("suspend": "") or bare ("suspend", a key without a value, which a
            // flow mapping reads as null), as rt-app's use cases write it: workgen writes the
            // thread's own name.
            e.ref = thread_name_;
        } else if (!text(v, p, "the name of a thread", e.ref)) {
            return false;
        }
        resource(1, e.ref, out);
        return true;
    case ev::mem:
    case ev::iorun:
        e.kind = k == ev::mem ? rtapp_event::mem : rtapp_event::iorun;
        if (!integer(v, p, 0, LLONG_MAX, "an integer number of bytes", x))
            return false;
        e.bytes = static_cast<std::uint64_t>(x);
        return true;
    case ev::yield:
        e.kind = rtapp_event::yield; // rt-app reads no value
        return true;
    case ev::fork:
        e.kind = rtapp_event::fork;
        return text(v, p, "the name of a thread", e.ref);
    case ev::barrier:
        e.kind = rtapp_event::barrier;
        if (!text(v, p, "the name of a barrier", e.ref))
            return false;
        resource(2, e.ref, out);
        barrier_users_[e.ref] += instances; // rt-app: each use counts its thread's instances
        return true;
    case ev::wait:
    case ev::sync: {
        e.kind = k == ev::wait ? rtapp_event::wait : rtapp_event::sync;
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
    case ev::timer: {
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
    // Its class first, which says what its "priority" is (rt-app: the global default_policy
    // when it gives none; a real-time thread without a priority gets 10).
    t.policy = default_policy_;
    if (const node* pol = n.find("policy"))
        policy(*pol, tp + ".policy", t.policy);
    if (t.policy == workloads::task_info::fifo || t.policy == workloads::task_info::rr)
        t.rt_priority = 10;
    // The thread's own keys first: the phases compare theirs with them.
    const node* loop = nullptr;
    std::map<std::string, std::pair<std::uint64_t, mark>> dl_given; // key -> (us, where)
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
            // dl-*, or rt-app's legacy names of dl-period and dl-deadline at thread level.
            if (!integer(v, kp, 0, int_max, "an integer number of microseconds", x)) {
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
        } else if (k == "priority") {
            if (t.policy == workloads::task_info::normal)
                nice(v, kp, t.nice);
            else
                priority(v, kp, t.policy, t.rt_priority);
        } else if (k == "policy") {
            // read above
        } else if (k == "phases") {
            // below
        } else if (k == "taskgroup") {
            const int g = taskgroup(v, kp);
            if (g >= 0)
                t.group = static_cast<unsigned>(g);
        } else if (classify(k) != ev::none) {
            if (phases)
                d_.error(n.key_marks[i], kp + ": events beside 'phases' are ignored by rt-app: move '" + k +
                                              "' into a phase");
        } else if (!phases) {
            // phase_keys() reads them (and reports the unknown ones) below.
        } else if (const char* why = unsupported_key(k)) {
            d_.error(n.key_marks[i], kp + ": rt-app key '" + k + "' is not supported: " + why);
        } else {
            unknown(n, i, tp, thread_known);
        }
    }
    if (t.policy == workloads::task_info::deadline)
        deadline_params(tp, key, dl_given, t);
    if (loop) {
        long long x = 0;
        if (integer(*loop, tp + ".loop", -1, LONG_MAX, "-1 (forever) or a count >= 1", x)) {
            if (x == 0)
                error(loop->at, tp + ".loop", "expected -1 (forever) or a count >= 1, got " + shown(*loop));
            else
                t.loop = static_cast<long>(x);
        }
    }
    if (!phases) {
        // One phase, written in the thread. rt-app reads its "loop" as the phase's and runs
        // the thread once; the same as looping the thread, which blsim counts in its loops.
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
        return;
    }
    const std::string pp = tp + ".phases";
    if (!phases->is_map() || phases->keys.empty()) {
        error(phases->at, pp, "expected a mapping of phase names to phases, got " +
                                  (phases->is_map() ? std::string("an empty mapping") : cfg::describe(*phases)));
        return;
    }
    for (std::size_t i = 0; i < phases->keys.size(); i++) {
        const std::string php = pp + "." + phases->keys[i];
        const node& pn = phases->items[i];
        if (!pn.is_map()) {
            error(pn.at, php, "expected a mapping (a phase), got " + cfg::describe(pn));
            continue;
        }
        workloads::rtapp_phase ph;
        ph.name = phases->keys[i];
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

} // namespace

bool parse_rtapp(const cfg::node& doc, cfg::diagnostics& diag, workloads::rtapp_params& out,
                 const std::string& path, const cpu_limit& pinnable)
{
    const std::size_t before = diag.count();
    workloads::rtapp_params p;
    parser(diag, path, pinnable).document(doc, p);
    if (diag.count() != before)
        return false;
    out = std::move(p);
    return true;
}

std::string blank_json_comments(const std::string& text)
{
    std::string s = text;
    enum { code, str, line, block } st = code;
    for (std::size_t i = 0; i < s.size(); i++) {
        const char c = s[i];
        const char n = i + 1 < s.size() ? s[i + 1] : '\0';
        switch (st) {
        case code:
            if (c == '"') {
                st = str;
            } else if (c == '/' && n == '/') {
                st = line;
                s[i] = s[i + 1] = ' ';
                i++;
            } else if (c == '/' && n == '*') {
                st = block;
                s[i] = s[i + 1] = ' ';
                i++;
            }
            break;
        case str:
            if (c == '\\')
                i++;
            else if (c == '"')
                st = code;
            break;
        case line:
            if (c == '\n')
                st = code;
            else
                s[i] = ' ';
            break;
        case block:
            if (c == '*' && n == '/') {
                s[i] = s[i + 1] = ' ';
                i++;
                st = code;
            } else if (c != '\n') {
                s[i] = ' ';
            }
            break;
        }
    }
    return s;
}

bool load_rtapp_json(const std::string& path, cfg::diagnostics& diag, workloads::rtapp_params& out,
                     const cfg::mark* at, const cpu_limit& pinnable)
{
    std::string text, error;
    if (!read_source(path, text, error)) {
        const std::string msg = "cannot read rt-app file '" + path + "': " + error;
        if (at)
            diag.error(*at, msg);
        else
            diag.error(msg);
        return false;
    }
    node doc;
    std::vector<cfg::key_repeat> repeats;
    std::string json = blank_json_comments(text);
    // A comma after the document ("},"), left by editing: json-c reads the first value and
    // nothing after it, so rt-app runs such a file. Read as it does, with a note.
    const std::size_t last = json.find_last_not_of(" \t\r\n");
    const std::size_t before = last == std::string::npos || last == 0 ? std::string::npos
                                                                      : json.find_last_not_of(" \t\r\n,", last);
    if (last != std::string::npos && json[last] == ',' && before != std::string::npos && json[before] == '}') {
        const std::size_t comma = json.find(',', before);
        const std::size_t line_start = json.rfind('\n', comma);
        const int line = 1 + static_cast<int>(std::count(json.begin(), json.begin() + static_cast<long>(comma), '\n'));
        const int col = static_cast<int>(comma - (line_start == std::string::npos ? 0 : line_start + 1)) + 1;
        diag.note(cfg::mark{path, line, col}, "text after the rt-app document (',') ignored, as json-c (rt-app's "
                                              "parser) reads the first value only");
        for (std::size_t i = before + 1; i < json.size(); i++)
            if (json[i] == ',')
                json[i] = ' ';
    }
    if (!cfg::parse_yaml(json, path, doc, diag, &repeats))
        return false;
    // Repeated event keys are how rt-app's use cases are written ("run", "sleep", "run"...):
    // read as workgen renames them, silently. Anything else repeated is worth a note.
    for (const cfg::key_repeat& r : repeats) {
        if (classify(r.key) != ev::none)
            continue;
        const std::string first = " (first at line " + std::to_string(r.first.line) + ")";
        diag.note(r.at, r.read_as.empty()
                            ? "'" + r.key + "' repeated" + first +
                                  ": as rt-app reads it, its value replaces the first one's, in its place"
                            : "'" + r.key + "' repeated" + first + ": read as '" + r.read_as +
                                  "', as rt-app's workgen renames it");
    }
    return parse_rtapp(doc, diag, out, "", pinnable);
}

} // namespace blsim::soc
