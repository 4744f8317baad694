// workloads/include/blsim/workloads/rtapp.h -- rt-app's threads, played step by step.
//
// rt-app (github.com/scheduler-tools/rt-app, doc/tutorial.txt) describes a use case as threads
// made of phases made of events. This is its execution model over blsim's steps; the grammar
// (JSON or the same structure in YAML) is read by soc/ (blsim/soc/rtapp_config.h) into the
// plain rtapp_params below. docs/workloads-rtapp.md is the user's description.
//
// What the events become, at the time the thread reaches them (@now):
//   run N      step run of N us of work on the reference CPU (the fastest CPU at its top OPP;
//              rt-app calibrates its loop on one CPU, blsim's unit of work is that one): it
//              takes longer on a slower CPU or at a lower frequency.
//   runtime N  spin_until now + N us: busy for N us of wall time, whatever the CPU's speed.
//   sleep N    sleep_until now + N us.
//   timer      rt-app's timer: the named timer's next wake-up is its previous one + period
//              (the first: the use case's start + the thread's delay + period). Reached before
//              it: sleep_until it. Reached after it (late): go on at once, and in relative
//              mode the next period counts from now; in absolute mode it does not (the thread
//              catches up, no drift). A timer is shared by every thread that names it, as in
//              rt-app, unless its ref begins with "unique" (one per thread instance). Its mode
//              is absolute when any of its uses says so (rt-app keeps it per timer).
//   lock M     take mutex M: free, go on; held, block on M's event and queue (FIFO). unlock
//              hands M to the first queued thread (its owner from then on) and signals the
//              event, whose longest waiter the kernel wakes: that same thread. No barging.
//   wait       {ref C, mutex M}: pthread_cond_wait. M must be held (the parser checks): it is
//              released (handed on) and the thread blocks on C's event; woken, it takes M
//              again (queueing if it is held). Release and block are two steps the kernel
//              takes at the same instant, so no signal can fall between them.
//   signal C   wake C's longest waiter (none: lost, as pthread_cond_signal). broad C: all.
//   sync       {ref C, mutex M}: signal C, then wait {C, M} (rt-app's sig_and_wait).
//   suspend T / resume T: block on condition T / broadcast it (rt-app also takes a mutex
//              named T around each, only for an instant: not modelled).
//   barrier B  the users of B are its uses in the document, each counted once per instance
//              of its thread (rt-app's count). An arrival that is not the last blocks; the
//              last broadcasts and goes on.
// Events that take no time (lock of a free mutex, a late timer...) are passed in the same
// call; the step returned is the first that does something.
//
// Loops: a phase runs @loop times (>= 1) before the next; the thread runs its phases @loop
// times (-1: forever), then exits. The global duration (seconds, <= 0: none) counts from the
// first call of next() of any thread (the use case's start, rt-app's t_zero): from then on
// every thread stops at its next event boundary. Sleeps, timer waits and runtime spins are cut
// at the end so that it comes on time; a run in progress is finished first. Stopping, a
// thread drops the mutexes it holds, and the first one to stop broadcasts every event of the
// workload, one step each, so that blocked threads wake and stop too (rt-app's shutdown wakes
// every condition and barrier the same way). A thread is only stopped when the kernel asks it
// for a step: if every thread is blocked at the end, they stay so.
//
// Robustness: the parser refuses what would misbehave (a mutex not held where it is
// unlocked or waited with, a thread looping forever through events that take no time). A
// programmatic caller is not protected from the first; from the second, a thread that passes
// a million events in one call without a step is ended.
//
// rt-app's log (rt-app.c's thread_body and log_timing): with @log set, each thread keeps one
// row per iteration of a phase (each pass over its events), as rt-app writes to
// <logdir>/<log_basename>-<name>-<index>.log. An iteration starts when its first event is
// reached and ends when the thread goes on past its last one (the step it gave finished: a run
// done, a timer's sleep woken from); a row is kept only when the iteration ends before the
// use case's end (rt-app logs none once its shutdown began). Columns, in us (each time or
// difference rounded to the nearest us, as rt-app rounds): perf (rt-app's loop count in thousands: each run event adds
// floor(N / calib_ns_per_loop), each runtime event floor(32 / calib_ns_per_loop) per started
// 32 us), run (wall time of its run and runtime events, each rounded), period (end - start),
// start and end (simulated time since boot), rel_st (start - the use case's start), slack
// (the last timer's wake-up time - the time it was reached, negative when late; the sum over
// the iteration's timers with cumulative_slack), c_duration and c_period (the configured sums
// of run and runtime durations and of timer periods), wu_lat (how late the thread ran after
// its timers' wake-ups, summed; 0 after a late timer, as rt-app resets it). Recording the log
// changes no step.
//
// Threads: each thread object gives @instances tasks, named as rt-app names them,
// "<name>-<index>", the index counting every created thread of the document in order (tasks
// in document order, instances one after the other): "a" with 2 instances then "b" gives
// a-0, a-1, b-2. Deterministic: no randomness anywhere.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "blsim/workloads/step.h"

namespace blsim::workloads {

struct rtapp_event {
    enum kind_t { run, runtime, sleep, timer, lock, unlock, wait, signal, broad, sync, suspend,
                  resume, barrier, yield, fork, mem, iorun };
    kind_t kind = run;
    double us = 0;          // run, runtime, sleep: duration; timer: period (> 0)
    std::string ref;        // the resource: mutex, condition, barrier, timer or thread name (suspend,
                            // resume, fork)
    std::string mutex;      // wait, sync: the mutex released while waiting
    bool absolute = false;  // timer: mode absolute (default relative)
    std::uint64_t bytes = 0; // mem, iorun: bytes written
};

struct rtapp_phase {
    std::string name;   // "" for a thread written without "phases"
    long loop = 1;      // >= 1
    std::vector<int> cpus; // the thread's affinity while in this phase; empty: the thread's
    int group = -1;        // its taskgroup from this phase on (index into taskgroups + 1, 0
                           // the root); -1: the one it has
    std::vector<rtapp_event> events; // in document order; at least one
};

struct rtapp_thread {
    std::string name;
    int instances = 1;       // >= 0
    long loop = -1;          // -1: forever; else >= 1
    std::vector<int> cpus;   // empty: every CPU
    int nice = 0;            // rt-app's "priority" under SCHED_OTHER
    task_info::policy_t policy = task_info::normal; // its "policy" (else global.default_policy)
    int rt_priority = 0;     // rt-app's "priority" under SCHED_FIFO and SCHED_RR (1..99, default 10)
    int forks = 0;           // instances started by other threads' fork events (after the others)
    unsigned group = 0;      // its taskgroup at the start (index into taskgroups + 1; 0 the root)
    // SCHED_DEADLINE: dl-runtime, dl-deadline and dl-period, in ns.
    std::uint64_t dl_runtime_ns = 0, dl_deadline_ns = 0, dl_period_ns = 0;
    double delay_us = 0;     // before its first event
    std::vector<rtapp_phase> phases;
};

struct rtapp_params {
    double duration_s = -1;  // <= 0: none
    std::vector<rtapp_thread> threads;
    // mem and iorun: the thread's buffer (global.mem_buffer_size; rt-app's default 4 MiB),
    // written from its start by each pass; the reference CPU's top clock (the SoC's, set by the
    // scenario), by which a store's cycles become reference work.
    std::uint64_t mem_buffer_bytes = 4u << 20;
    double ref_mhz = 0;
    // iorun: to /dev/null (each write returns at once), or to a block device whose bandwidth
    // (bytes per ns) and per-write latency the scenario gives.
    bool io_null = true;
    double io_bytes_per_ns = 0.02, io_latency_ns = 0;
    // The taskgroups the threads name ("/tg1", "/tg1/tg11"; each parent before its children),
    // group i + 1 each; every one with cpu.shares 1024, as rt-app creates them.
    std::vector<std::string> taskgroups;
    std::vector<unsigned> taskgroup_shares; // each one's cpu.shares (1024 as rt-app leaves them)
    // The log (global keys of the same names): kept only with @log.
    bool log = false;
    std::string log_basename = "rt-app";
    bool cumulative_slack = false;
    long calib_ns_per_loop = 1; // "calibration" as ns per loop; 1 when it names a CPU or is absent
};

// One row of rt-app's log (see above), in rt-app's column order.
struct rtapp_log_row {
    unsigned idx = 0;
    std::uint64_t perf = 0, run_us = 0, period_us = 0, start_us = 0, end_us = 0, rel_st_us = 0;
    std::int64_t slack_us = 0;
    std::uint64_t c_duration_us = 0, c_period_us = 0, wu_lat_us = 0;
};

// rt-app's log file of a thread: its header line, then one line per row, formatted as rt-app
// formats them (space-padded columns).
std::string rtapp_log_text(const std::vector<rtapp_log_row>& rows);

// Kernel events needed by @p: one per distinct mutex, condition (wait, signal, broad, sync,
// suspend, resume share them by name) and barrier, in that namespace each (a mutex and a
// condition may share a name). Timers need none.
unsigned rtapp_nevents(const rtapp_params& p);

// Statistics of one thread instance, readable after (or during) the run.
struct rtapp_thread_stats {
    std::string name;
    // Passes over all of its phases, and phase iterations (rt-app's log lines), counted when
    // the last event of the pass or iteration is reached (its step handed out).
    std::uint64_t loops = 0;
    std::uint64_t phase_loops = 0;
    // rt-app's log rows (rtapp_params::log), and its file name ("<log_basename>-<name>.log").
    std::vector<rtapp_log_row> log;
    std::string log_file;
    // One sample each per timer event reached: how long before the timer's wake-up time the
    // thread got there (slack, >= 0), and how long after it (lateness, > 0 only when late).
    // One of the two is 0 in each pair (workloads::percentile() summarises them).
    std::vector<double> slack_us, lateness_us;
};


class rtapp : public workload {
public:
    // @p as parse_rtapp makes it. @event_base: the first of the rtapp_nevents(p) events it
    // uses. Throws std::invalid_argument on parameters that the parser would have refused
    // (bad loops, no events, too many events, an unknown wait mutex...).
    explicit rtapp(rtapp_params p, unsigned event_base = 0);

    unsigned ntasks() const override { return static_cast<unsigned>(threads_.size()); }
    task_info info(unsigned task) const override;
    step next(unsigned task, std::uint64_t now_ns) override;
    std::vector<group_info> groups() const override;

    unsigned nevents() const { return nevents_; }
    const std::vector<rtapp_thread_stats>& stats() const { return stats_; }

    // The kernel event of a resource (for tests and traces): @kind lock or unlock names a
    // mutex, barrier a barrier, any other kind a condition; -1 when the document has none.
    int event_of(rtapp_event::kind_t kind, const std::string& name) const;

private:
    static constexpr unsigned none = ~0u;
    enum class res_kind { mutex, cond, barrier };
    struct mutex_state {
        unsigned event = 0;
        unsigned owner = none;
        std::vector<unsigned> waiters; // FIFO, in the order they blocked
    };
    struct barrier_state {
        unsigned event = 0;
        unsigned users = 0;
        unsigned arrived = 0;
    };
    struct timer_state {
        bool init = false;
        bool absolute = false;
        std::uint64_t next_ns = 0;
    };
    enum class pending { none, lock, cond, barrier };
    struct thread_state {
        std::size_t def = 0;        // index into p_.threads
        bool started = false, finished = false;
        bool forked = false;        // started by a fork, at fork_ns (its reference time)
        std::uint64_t fork_ns = 0;
        std::uint64_t first_ns = 0; // t_first: the use case's start + delay
        long thread_loop = 0, phase_loop = 0;
        std::size_t phase = 0, event = 0;
        pending wait = pending::none; // what it blocked on, to finish when woken
        unsigned wait_mutex = none;   // pending::lock: the mutex; pending::cond: to take again
        std::vector<step> queued;     // instant steps then a block, handed out in order
        std::vector<unsigned> held;   // mutexes held
        std::uint32_t cpus = 0;       // the affinity it has now (bits; 0: every CPU)
        unsigned group = 0;           // the taskgroup it is in now
        // The log's iteration in progress: begun, its last event passed (ends at the next
        // event or exit), and what the step handed out measures when it finishes.
        bool row_open = false, row_closing = false;
        enum class measuring { none, run, timer } measure = measuring::none;
        std::uint64_t measure_from_ns = 0; // run: its start; timer: its wake-up time
        std::uint64_t row_start_ns = 0;
        rtapp_log_row row;
    };

    unsigned slot(res_kind k, const std::string& name) const;
    unsigned allocate(res_kind k, const std::string& name);
    std::uint64_t clamp_end(std::uint64_t t) const;
    void check_threads_and_allocate();
    void check_settings() const;
    void create_threads();
    void add_thread(std::size_t d, bool forked);
    void check_forks() const;
    void start_clock(std::uint64_t now_ns);
    bool enter_phase(unsigned task, step& out);
    step pass_events(unsigned task, std::uint64_t now_ns);
    void do_event(unsigned task, const rtapp_event& e, std::uint64_t now_ns);
    void log_begin(unsigned task, const rtapp_event& e, std::uint64_t now_ns);
    void do_timer(unsigned task, const rtapp_event& e, std::uint64_t now_ns);
    void do_wait(unsigned task, const rtapp_event& e);
    void do_mem(unsigned task, const rtapp_event& e);
    void do_iorun(unsigned task, const rtapp_event& e, std::uint64_t now_ns);
    void do_fork(unsigned task, const rtapp_event& e, std::uint64_t now_ns);
    void do_barrier(unsigned task, const rtapp_event& e);
    void release(unsigned task, unsigned m);
    void take(unsigned task, unsigned m);
    void advance(unsigned task);
    step stop(unsigned task);
    void log_settle(unsigned task, std::uint64_t now_ns);
    void log_close(unsigned task, std::uint64_t now_ns);
    void log_event(unsigned task, const rtapp_event& e, std::uint64_t now_ns);
    timer_state& timer(unsigned task, const rtapp_event& e);

    rtapp_params p_;
    unsigned base_ = 0;
    unsigned nevents_ = 0;
    std::map<std::pair<int, std::string>, unsigned> index_; // (res_kind, name) -> its slot
    std::vector<mutex_state> mutexes_;
    std::vector<unsigned> cond_events_;
    std::vector<barrier_state> barriers_;
    // Timers by key: "g:<ref>" shared, "u:<task>:<ref>" a "unique" one of one instance.
    std::map<std::string, timer_state> timers_;
    std::map<std::string, bool> absolute_; // timer key (unique ones by "d:<def>:<ref>")
    std::vector<thread_state> threads_;
    std::vector<rtapp_thread_stats> stats_;
    // Forks: each thread's instances held back for them, and how many were started.
    std::vector<std::vector<unsigned>> fork_slots_;
    std::vector<std::size_t> forks_done_;
    std::map<std::string, std::size_t> def_of_; // thread name -> index into p_.threads
    bool t_zero_set_ = false;
    std::uint64_t t_zero_ns_ = 0;
    std::uint64_t end_ns_ = 0;         // 0: no end
    bool ending_ = false;              // the duration is over: every thread stops
    bool flushed_ = false;             // the broadcasts of the end are handed out
    std::vector<unsigned> end_broadcasts_;
};

} // namespace blsim::workloads
