// soc/config/src/rtapp_parser.h -- the reader of rt-app's grammar, which rtapp_config.cpp (the
// document, its global keys and forks, the JSON file) and rtapp_threads.cpp (the threads, their
// phases and events) share. Private to soc/config/src/.
#pragma once

#include <bls/sched.h>
#include <bls/types.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "blsim/soc/rtapp_config.h"
#include "blsim/soc/schema.h"

namespace blsim::soc::rtapp_detail {

using cfg::diagnostics;
using cfg::mark;
using cfg::node;
using workloads::rtapp_event;

// rt-app's event names. A key is an event when it begins with one of them (rt-app's
// obj_is_event); which one, in the order its parse_task_event_data tries them ("runtime5" is a
// runtime, "run5" a run).
enum class ev { none, sleep, runtime, run, mem, iorun, lock, unlock, signal, broad, wait, sync,
                barrier, timer, resume, suspend, yield, fork };

// The event a key is (ev::none: not an event).
ev classify(const std::string& key);

constexpr long long int_max = INT_MAX;

// The kind of value a key of rt-app's grammar takes: 'i' an integer, 's' a string, 'b' a
// boolean, 'm' a mapping, '?' more than one. A "did you mean" names only a key that takes the
// kind of value written, so that 'exec': 5000 is not offered 'sync' (a mapping).
char value_kind_of_key(const std::string& k);
char value_kind(const node& v);
// A value as an error shows it: a quoted number is a string to rt-app (json-c types it so).
std::string shown(const node& n);

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
    // The steps of thread() (rtapp_threads.cpp).
    void thread_class(const node& n, const std::string& tp, workloads::rtapp_thread& t);
    void thread_keys(const node& n, const std::string& tp, bool has_phases, workloads::rtapp_thread& t,
                     const node*& loop, std::map<std::string, std::pair<std::uint64_t, mark>>& dl_given);
    void thread_dl_key(const node& n, std::size_t i, const std::string& kp, workloads::rtapp_thread& t,
                       std::map<std::string, std::pair<std::uint64_t, mark>>& dl_given);
    void thread_loop(const node& loop, const std::string& tp, workloads::rtapp_thread& t);
    void thread_as_phase(const node& n, const std::string& tp, workloads::rtapp_thread& t);
    void thread_phases(const node& phases, const std::string& tp, workloads::rtapp_thread& t);
    bool phase_keys(const node& n, const std::string& p, bool is_thread, workloads::rtapp_thread& t,
                    long& loop, std::vector<event_at>& events);
    bool event(const std::string& key, const mark& key_at, const node& v, const std::string& p,
               int instances, event_at& out);
    // One step of event() per kind of event (rtapp_threads.cpp).
    bool duration_event(rtapp_event::kind_t kind, const node& v, event_at& out);
    bool named_event(rtapp_event::kind_t kind, const node& v, const char* what, int resource_kind, event_at& out);
    bool suspend_event(bool suspend, const node& v, event_at& out);
    bool bytes_event(rtapp_event::kind_t kind, const node& v, event_at& out);
    bool barrier_event(const node& v, int instances, event_at& out);
    bool wait_event(rtapp_event::kind_t kind, const node& v, event_at& out);
    bool timer_event(const node& v, event_at& out);
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

} // namespace blsim::soc::rtapp_detail
