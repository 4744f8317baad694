// soc/config/src/rtapp_config.cpp -- rt-app's grammar (doc/tutorial.txt, src/rt-app_parse_config.c)
// read into workloads::rtapp_params, every unsupported construct refused by name: the JSON file,
// the document and its global keys, and the forks (the threads, their phases and events:
// rtapp_threads.cpp).
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
#include "rtapp_parser.h"

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

namespace rtapp_detail {

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

// A value as an error shows it: a quoted number is a string to rt-app (json-c types it so).
std::string shown(const node& n)
{
    if (n.is_scalar() && !n.plain)
        return "the string '" + n.value + "'";
    return cfg::describe(n);
}

namespace {

// Global keys rt-app does not read (json-c keeps them, rt-app never asks): historic ones that
// public use cases still carry. Accepted with a note.
bool informational_global(const std::string& k)
{
    return k == "frag";
}

} // namespace

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

} // namespace rtapp_detail

using cfg::node;
using rtapp_detail::classify;
using rtapp_detail::ev;
using rtapp_detail::parser;

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
