// workloads/src/rtapp.cpp -- rt-app's execution model over blsim's steps (the contract is in
// the header: what each event becomes, loops, the end of the use case).
#include "blsim/workloads/rtapp.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace blsim::workloads {

namespace {

// rt-app's memload stores 16 bytes a cycle (docs/workloads.md, "mem and iorun").
constexpr double mem_store_bytes_per_cycle = 16.0;
// A write(2) to /dev/null, on the reference CPU: an assumption (docs/calibration.md).
constexpr double devnull_write_ref_ns = 1000.0;

} // namespace

namespace {

std::uint64_t us_to_ns(double us) { return static_cast<std::uint64_t>(std::llround(us * 1000.0)); }

bool is_unique_timer(const std::string& ref) { return ref.compare(0, 6, "unique") == 0; }

std::uint32_t cpu_mask(const std::vector<int>& cpus)
{
    std::uint32_t m = 0;
    for (int c : cpus)
        m |= 1u << c;
    return m;
}

step make(step::kind_t k, std::uint64_t until_ns = 0, unsigned event = 0)
{
    step s;
    s.kind = k;
    s.until_ns = until_ns;
    s.event = event;
    return s;
}

// The resources an event names, in rt-app's order of creation (a wait: its condition, then
// its mutex). Kinds: 0 mutex, 1 condition, 2 barrier.
template <class F>
void for_each_resource(const rtapp_event& e, F&& f)
{
    switch (e.kind) {
    case rtapp_event::lock:
    case rtapp_event::unlock: f(0, e.ref); break;
    case rtapp_event::wait:
    case rtapp_event::sync:
        f(1, e.ref);
        f(0, e.mutex);
        break;
    case rtapp_event::signal:
    case rtapp_event::broad:
    case rtapp_event::suspend:
    case rtapp_event::resume: f(1, e.ref); break;
    case rtapp_event::barrier: f(2, e.ref); break;
    default: break;
    }
}

void invalid(const std::string& what) { throw std::invalid_argument("rtapp: " + what); }

// The first of the steps queued, taken off the queue.
step pop_front(std::vector<step>& queued)
{
    const step s = queued.front();
    queued.erase(queued.begin());
    return s;
}

// A time or a difference of times in ns, rounded to the nearest us (rt-app's
// timespec_to_usec and its kin round).
std::int64_t round_us(double ns) { return std::llround(ns / 1000.0); }

} // namespace

unsigned rtapp_nevents(const rtapp_params& p)
{
    std::map<std::pair<int, std::string>, bool> seen;
    for (const rtapp_thread& t : p.threads)
        for (const rtapp_phase& ph : t.phases)
            for (const rtapp_event& e : ph.events)
                for_each_resource(e, [&](int k, const std::string& name) { seen[{k, name}] = true; });
    return static_cast<unsigned>(seen.size());
}


rtapp::rtapp(rtapp_params p, unsigned event_base) : p_(std::move(p)), base_(event_base)
{
    // The parser refuses all of this with located messages; a programmatic caller gets the
    // first problem.
    check_threads_and_allocate();
    check_settings();
    create_threads();
    check_forks();
}

// Each thread's definition checked, and the resources its events name given their events
// (and the timers their mode), definition after definition.
void rtapp::check_threads_and_allocate()
{
    for (std::size_t d = 0; d < p_.threads.size(); d++) {
        const rtapp_thread& t = p_.threads[d];
        if (t.instances < 0)
            invalid("thread '" + t.name + "': negative instances");
        if (t.loop != -1 && t.loop < 1)
            invalid("thread '" + t.name + "': loop must be -1 or >= 1");
        if (t.phases.empty())
            invalid("thread '" + t.name + "': no phase");
        for (const rtapp_phase& ph : t.phases) {
            if (ph.loop < 1)
                invalid("thread '" + t.name + "': a phase loop must be >= 1");
            if (ph.events.empty())
                invalid("thread '" + t.name + "': a phase without events");
            for (const rtapp_event& e : ph.events) {
                if (!(e.us >= 0) || (e.kind == rtapp_event::timer && !(e.us > 0)))
                    invalid("thread '" + t.name + "': a negative duration or a timer without period");
                bool named = true;
                for_each_resource(e, [&](int, const std::string& name) { named = named && !name.empty(); });
                if (!named || (e.kind == rtapp_event::timer && e.ref.empty()))
                    invalid("thread '" + t.name + "': an event without its resource's name");
                if (e.kind == rtapp_event::timer) {
                    const std::string key = is_unique_timer(e.ref) ? "d:" + std::to_string(d) + ":" + e.ref
                                                                   : "g:" + e.ref;
                    absolute_[key] = absolute_[key] || e.absolute;
                }
                for_each_resource(e, [&](int k, const std::string& name) {
                    const unsigned s = allocate(static_cast<res_kind>(k), name);
                    if (k == 2)
                        barriers_[s].users += static_cast<unsigned>(t.instances);
                });
            }
        }
    }
}

// What the whole document needs: a calibration, mem and iorun's settings, room for its events.
void rtapp::check_settings() const
{
    if (p_.calib_ns_per_loop < 1)
        invalid("calibration must be at least 1 ns per loop");
    for (const rtapp_thread& t : p_.threads)
        for (const rtapp_phase& ph : t.phases)
            for (const rtapp_event& e : ph.events)
                if ((e.kind == rtapp_event::mem || e.kind == rtapp_event::iorun) &&
                    (!(p_.ref_mhz > 0) || p_.mem_buffer_bytes == 0))
                    invalid("mem and iorun need the reference CPU's clock and a buffer");
    if (nevents_ > max_events || base_ > max_events - nevents_)
        invalid("needs " + std::to_string(nevents_) + " events from event " + std::to_string(base_) +
                ": more than the kernel's " + std::to_string(max_events));
}

// The threads started at once, then those held back for forks (rt-app numbers forked
// threads as it creates them; here in the order of their definitions).
void rtapp::create_threads()
{
    fork_slots_.resize(p_.threads.size());
    forks_done_.assign(p_.threads.size(), 0);
    for (std::size_t d = 0; d < p_.threads.size(); d++) {
        def_of_[p_.threads[d].name] = d;
        for (int i = 0; i < p_.threads[d].instances; i++)
            add_thread(d, false);
    }
    for (std::size_t d = 0; d < p_.threads.size(); d++)
        for (int i = 0; i < p_.threads[d].forks; i++)
            add_thread(d, true);
}

// One instance of definition @d, numbered in the order of creation.
void rtapp::add_thread(std::size_t d, bool forked)
{
    const std::size_t index = stats_.size();
    thread_state ts;
    ts.def = d;
    ts.forked = forked;
    ts.cpus = cpu_mask(p_.threads[d].cpus); // its task starts with them (task_info::cpus)
    ts.group = p_.threads[d].group;          // and in it (task_info::group)
    if (forked)
        fork_slots_[d].push_back(static_cast<unsigned>(threads_.size()));
    threads_.push_back(ts);
    rtapp_thread_stats st;
    st.name = p_.threads[d].name + "-" + std::to_string(index);
    if (p_.log)
        st.log_file = p_.log_basename + "-" + st.name + ".log";
    stats_.push_back(st);
}

// Every fork names a thread the document defines.
void rtapp::check_forks() const
{
    for (const rtapp_thread& t : p_.threads)
        for (const rtapp_phase& ph : t.phases)
            for (const rtapp_event& e : ph.events)
                if (e.kind == rtapp_event::fork && !def_of_.count(e.ref))
                    invalid("thread '" + t.name + "' forks '" + e.ref + "', which the document does not define");
}

unsigned rtapp::allocate(res_kind k, const std::string& name)
{
    auto key = std::make_pair(static_cast<int>(k), name);
    auto it = index_.find(key);
    if (it != index_.end())
        return it->second;
    const unsigned event = base_ + nevents_++;
    unsigned s = 0;
    switch (k) {
    case res_kind::mutex:
        s = static_cast<unsigned>(mutexes_.size());
        mutexes_.push_back({event, none, {}});
        break;
    case res_kind::cond:
        s = static_cast<unsigned>(cond_events_.size());
        cond_events_.push_back(event);
        break;
    case res_kind::barrier:
        s = static_cast<unsigned>(barriers_.size());
        barriers_.push_back({event, 0, 0});
        break;
    }
    index_[key] = s;
    return s;
}

unsigned rtapp::slot(res_kind k, const std::string& name) const
{
    return index_.at({static_cast<int>(k), name});
}

int rtapp::event_of(rtapp_event::kind_t kind, const std::string& name) const
{
    const res_kind k = kind == rtapp_event::lock || kind == rtapp_event::unlock ? res_kind::mutex
                       : kind == rtapp_event::barrier ? res_kind::barrier
                                                      : res_kind::cond;
    auto it = index_.find({static_cast<int>(k), name});
    if (it == index_.end())
        return -1;
    switch (k) {
    case res_kind::mutex: return static_cast<int>(mutexes_[it->second].event);
    case res_kind::cond: return static_cast<int>(cond_events_[it->second]);
    case res_kind::barrier: return static_cast<int>(barriers_[it->second].event);
    }
    return -1;
}

task_info rtapp::info(unsigned task) const
{
    const rtapp_thread& t = p_.threads.at(threads_.at(task).def);
    return {stats_[task].name, t.cpus,           t.nice,           t.policy,
            t.rt_priority,     t.dl_runtime_ns,  t.dl_deadline_ns, t.dl_period_ns,
            threads_.at(task).forked, t.group};
}

std::vector<group_info> rtapp::groups() const
{
    if (p_.taskgroups.empty())
        return {};
    std::vector<group_info> g{{"/", 0, 1024}};
    for (const std::string& path : p_.taskgroups) {
        const std::string parent = path.substr(0, path.rfind('/'));
        const auto it = std::find(p_.taskgroups.begin(), p_.taskgroups.end(), parent);
        const std::size_t i = g.size() - 1;
        const unsigned shares = i < p_.taskgroup_shares.size() ? p_.taskgroup_shares[i] : 1024u;
        g.push_back({path, it == p_.taskgroups.end() ? 0u : static_cast<unsigned>(it - p_.taskgroups.begin()) + 1, shares});
    }
    return g;
}

std::uint64_t rtapp::clamp_end(std::uint64_t t) const
{
    return end_ns_ != 0 && t > end_ns_ ? end_ns_ : t;
}

rtapp::timer_state& rtapp::timer(unsigned task, const rtapp_event& e)
{
    const std::size_t d = threads_[task].def;
    const bool unique = is_unique_timer(e.ref);
    const std::string key = unique ? "u:" + std::to_string(task) + ":" + e.ref : "g:" + e.ref;
    auto it = timers_.find(key);
    if (it == timers_.end()) {
        timer_state t;
        t.absolute = absolute_[unique ? "d:" + std::to_string(d) + ":" + e.ref : key];
        it = timers_.emplace(key, t).first;
    }
    return it->second;
}

// Take mutex @m: free, it is @task's at once; held, @task queues and blocks.
void rtapp::take(unsigned task, unsigned m)
{
    thread_state& ts = threads_[task];
    mutex_state& mx = mutexes_[m];
    if (mx.owner == none) {
        mx.owner = task;
        ts.held.push_back(m);
        return;
    }
    mx.waiters.push_back(task);
    ts.wait = pending::lock;
    ts.wait_mutex = m;
    ts.queued.push_back(make(step::block, 0, mx.event));
}

// Release mutex @m held by @task: to the first waiter, whom the signal wakes (the kernel wakes
// the longest waiter on the event, and every waiter blocked in the order of the queue).
void rtapp::release(unsigned task, unsigned m)
{
    thread_state& ts = threads_[task];
    mutex_state& mx = mutexes_[m];
    auto it = std::find(ts.held.begin(), ts.held.end(), m);
    if (mx.owner != task || it == ts.held.end())
        return; // not held (the parser refuses such documents): nothing to release
    ts.held.erase(it);
    if (mx.waiters.empty()) {
        mx.owner = none;
        return;
    }
    const unsigned next = mx.waiters.front();
    mx.waiters.erase(mx.waiters.begin());
    mx.owner = next;
    threads_[next].held.push_back(m);
    ts.queued.push_back(make(step::signal, 0, mx.event));
}

// The log's share of event @e, reached at @now_ns (before do_event: a timer's wake-up time
// is the one it sleeps to).
void rtapp::log_event(unsigned task, const rtapp_event& e, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    rtapp_log_row& r = ts.row;
    const std::uint64_t us = static_cast<std::uint64_t>(std::llround(e.us));
    const std::uint64_t calib = static_cast<std::uint64_t>(p_.calib_ns_per_loop);
    switch (e.kind) {
    case rtapp_event::run:
    case rtapp_event::runtime:
        // run: rt-app's fixed amount of loops; runtime: its 32 us bursts until the time is
        // up, as many as the reference CPU would need.
        r.perf += e.kind == rtapp_event::run ? us / calib : (us + 31) / 32 * (32 / calib);
        r.c_duration_us += us;
        ts.measure = thread_state::measuring::run;
        ts.measure_from_ns = now_ns;
        break;
    case rtapp_event::timer: {
        const timer_state& t = timer(task, e);
        const std::uint64_t wake = (t.init ? t.next_ns : ts.first_ns) + us_to_ns(e.us);
        const std::int64_t slack = round_us(static_cast<double>(wake) - static_cast<double>(now_ns));
        r.c_period_us += us;
        r.slack_us = p_.cumulative_slack ? r.slack_us + slack : slack;
        if (now_ns < wake) {
            ts.measure = thread_state::measuring::timer;
            ts.measure_from_ns = wake;
        } else {
            r.wu_lat_us = 0; // rt-app: a late timer resets it
        }
        break;
    }
    default: break;
    }
}

// What the step handed out last measured, now that it finished (@now_ns).
void rtapp::log_settle(unsigned task, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    const double since = static_cast<double>(now_ns) - static_cast<double>(ts.measure_from_ns);
    if (ts.measure == thread_state::measuring::run)
        ts.row.run_us += static_cast<std::uint64_t>(round_us(since));
    else if (ts.measure == thread_state::measuring::timer)
        ts.row.wu_lat_us += static_cast<std::uint64_t>(std::max<std::int64_t>(0, round_us(since)));
    ts.measure = thread_state::measuring::none;
}

// The iteration whose last event was passed ends at @now_ns: its row is kept unless the use
// case is over.
void rtapp::log_close(unsigned task, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    if (!ts.row_closing)
        return;
    ts.row_open = ts.row_closing = false;
    if (end_ns_ != 0 && now_ns >= end_ns_)
        return;
    rtapp_log_row r = ts.row;
    r.idx = task;
    r.start_us = static_cast<std::uint64_t>(round_us(static_cast<double>(ts.row_start_ns)));
    r.end_us = static_cast<std::uint64_t>(round_us(static_cast<double>(now_ns)));
    r.period_us = static_cast<std::uint64_t>(round_us(static_cast<double>(now_ns - ts.row_start_ns)));
    r.rel_st_us = static_cast<std::uint64_t>(round_us(static_cast<double>(ts.row_start_ns - t_zero_ns_)));
    stats_[task].log.push_back(r);
}

// The log's row begins with the first event of an iteration; each event adds its share.
void rtapp::log_begin(unsigned task, const rtapp_event& e, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    if (!ts.row_open) {
        ts.row_open = true;
        ts.row_start_ns = now_ns;
        ts.row = rtapp_log_row{};
    }
    log_event(task, e, now_ns);
}

// A timer: sleep to its next period, or, late, count the lateness (a relative timer's next
// period then counts from now).
void rtapp::do_timer(unsigned task, const rtapp_event& e, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    timer_state& t = timer(task, e);
    if (!t.init) {
        t.init = true;
        t.next_ns = ts.first_ns;
    }
    t.next_ns += us_to_ns(e.us);
    rtapp_thread_stats& st = stats_[task];
    if (now_ns < t.next_ns) {
        st.slack_us.push_back(static_cast<double>(t.next_ns - now_ns) / 1000.0);
        st.lateness_us.push_back(0);
        ts.queued.push_back(make(step::sleep_until, clamp_end(t.next_ns)));
    } else {
        st.slack_us.push_back(0);
        st.lateness_us.push_back(static_cast<double>(now_ns - t.next_ns) / 1000.0);
        if (!t.absolute)
            t.next_ns = now_ns; // relative: the next period counts from now
    }
}

// wait (sync: signal first): release the mutex and block on the condition; woken, the
// thread takes the mutex again (next()).
void rtapp::do_wait(unsigned task, const rtapp_event& e)
{
    thread_state& ts = threads_[task];
    const unsigned c = cond_events_[slot(res_kind::cond, e.ref)];
    if (e.kind == rtapp_event::sync)
        ts.queued.push_back(make(step::signal, 0, c));
    const unsigned m = slot(res_kind::mutex, e.mutex);
    release(task, m);
    ts.wait = pending::cond;
    ts.wait_mutex = m;
    ts.queued.push_back(make(step::block, 0, c));
}

// memset of the thread's buffer, pass after pass from its start (rt-app's memload): the
// stores at 16 bytes a cycle (a 128-bit store a cycle; the L2's 4 cycles a 64-byte line:
// docs/calibration.md) as work on the reference CPU, the buffer's lines through the cache
// model (fetched while cold, left dirty).
void rtapp::do_mem(unsigned task, const rtapp_event& e)
{
    step s = make(step::run);
    s.ref_ns = static_cast<double>(e.bytes) / mem_store_bytes_per_cycle / (p_.ref_mhz * 1e-3);
    const std::uint64_t touched = std::min(e.bytes, p_.mem_buffer_bytes);
    s.working_set_kb = static_cast<int>((touched + 1023) / 1024);
    s.write_fraction = 1.0;
    if (s.working_set_kb > 0)
        threads_[task].queued.push_back(s);
}

// write(2)s of the buffer to io_device, a buffer's worth each: to /dev/null each returns at
// once; to a block device the thread first waits in I/O for the bytes at the device's
// bandwidth and each write's latency (dirty-page throttling holds a writer to what the device
// takes).
void rtapp::do_iorun(unsigned task, const rtapp_event& e, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    const std::uint64_t calls = (e.bytes + p_.mem_buffer_bytes - 1) / p_.mem_buffer_bytes;
    if (!p_.io_null && calls > 0) {
        const double wait = static_cast<double>(e.bytes) / p_.io_bytes_per_ns + static_cast<double>(calls) * p_.io_latency_ns;
        step w = make(step::sleep_until, clamp_end(now_ns + static_cast<std::uint64_t>(std::llround(wait))));
        w.io = true;
        ts.queued.push_back(w);
    }
    step s = make(step::run);
    s.ref_ns = static_cast<double>(calls) * devnull_write_ref_ns;
    if (calls > 0)
        ts.queued.push_back(s);
}

// The next instance held back for the fork; the parser made one per fork the document can
// reach, so none lacks (more would be a parser bug: nothing is started).
void rtapp::do_fork(unsigned task, const rtapp_event& e, std::uint64_t now_ns)
{
    const std::size_t d = def_of_.at(e.ref);
    if (forks_done_[d] < fork_slots_[d].size()) {
        const unsigned child = fork_slots_[d][forks_done_[d]++];
        threads_[child].fork_ns = now_ns;
        step s = make(step::fork);
        s.task = child;
        threads_[task].queued.push_back(s);
    }
}

// The last user to arrive wakes the others; the rest block.
void rtapp::do_barrier(unsigned task, const rtapp_event& e)
{
    thread_state& ts = threads_[task];
    barrier_state& b = barriers_[slot(res_kind::barrier, e.ref)];
    if (b.arrived + 1 >= b.users) {
        b.arrived = 0;
        ts.queued.push_back(make(step::broadcast, 0, b.event));
    } else {
        b.arrived++;
        ts.wait = pending::barrier;
        ts.queued.push_back(make(step::block, 0, b.event));
    }
}

void rtapp::do_event(unsigned task, const rtapp_event& e, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    if (p_.log)
        log_begin(task, e, now_ns);
    switch (e.kind) {
    case rtapp_event::run: {
        step s = make(step::run);
        s.ref_ns = e.us * 1000.0;
        ts.queued.push_back(s);
        break;
    }
    case rtapp_event::runtime:
        ts.queued.push_back(make(step::spin_until, clamp_end(now_ns + us_to_ns(e.us))));
        break;
    case rtapp_event::sleep:
        ts.queued.push_back(make(step::sleep_until, clamp_end(now_ns + us_to_ns(e.us))));
        break;
    case rtapp_event::timer: do_timer(task, e, now_ns); break;
    case rtapp_event::lock: take(task, slot(res_kind::mutex, e.ref)); break;
    case rtapp_event::unlock: release(task, slot(res_kind::mutex, e.ref)); break;
    case rtapp_event::sync:
    case rtapp_event::wait: do_wait(task, e); break;
    case rtapp_event::signal:
        ts.queued.push_back(make(step::signal, 0, cond_events_[slot(res_kind::cond, e.ref)]));
        break;
    case rtapp_event::broad:
    case rtapp_event::resume:
        ts.queued.push_back(make(step::broadcast, 0, cond_events_[slot(res_kind::cond, e.ref)]));
        break;
    case rtapp_event::suspend:
        ts.queued.push_back(make(step::block, 0, cond_events_[slot(res_kind::cond, e.ref)]));
        break;
    case rtapp_event::yield: ts.queued.push_back(make(step::yield)); break;
    case rtapp_event::mem: do_mem(task, e); break;
    case rtapp_event::iorun: do_iorun(task, e, now_ns); break;
    case rtapp_event::fork: do_fork(task, e, now_ns); break;
    case rtapp_event::barrier: do_barrier(task, e); break;
    }
}

// Past the current event: the next one, phase loop, phase, thread loop.
void rtapp::advance(unsigned task)
{
    thread_state& ts = threads_[task];
    const rtapp_thread& t = p_.threads[ts.def];
    if (++ts.event < t.phases[ts.phase].events.size())
        return;
    ts.event = 0;
    ts.row_closing = ts.row_open; // the log's row ends where the thread goes on
    stats_[task].phase_loops++;
    if (++ts.phase_loop < t.phases[ts.phase].loop)
        return;
    ts.phase_loop = 0;
    if (++ts.phase < t.phases.size())
        return;
    ts.phase = 0;
    stats_[task].loops++;
    if (++ts.thread_loop == t.loop)
        ts.finished = true;
}

// The use case is over: release what @task holds, hand out the broadcasts that wake every
// blocked thread (once, whoever stops first), then exit.
step rtapp::stop(unsigned task)
{
    thread_state& ts = threads_[task];
    ts.queued.clear();
    if (ts.wait == pending::lock && mutexes_[ts.wait_mutex].owner != task) {
        auto& w = mutexes_[ts.wait_mutex].waiters;
        w.erase(std::remove(w.begin(), w.end(), task), w.end());
    }
    ts.wait = pending::none;
    for (unsigned m : ts.held)
        if (mutexes_[m].owner == task)
            mutexes_[m].owner = none;
    ts.held.clear();
    if (!flushed_) {
        flushed_ = true;
        for (unsigned e = base_ + nevents_; e > base_; e--)
            end_broadcasts_.push_back(e - 1); // handed out from the back: lowest first
    }
    if (!end_broadcasts_.empty()) {
        const unsigned e = end_broadcasts_.back();
        end_broadcasts_.pop_back();
        return make(step::broadcast, 0, e);
    }
    ts.finished = true;
    return make(step::exit);
}

// The use case's clock starts at the first call: time zero, and its end if it has a duration.
void rtapp::start_clock(std::uint64_t now_ns)
{
    if (t_zero_set_)
        return;
    t_zero_set_ = true;
    t_zero_ns_ = now_ns;
    if (p_.duration_s > 0)
        end_ns_ = now_ns + static_cast<std::uint64_t>(std::llround(p_.duration_s * 1e9));
}

// A phase begins: its CPUs, or the thread's, as rt-app sets them (sched_setaffinity) when
// they differ from the ones it runs with; then its taskgroup, when the phase names one it is
// not in. False when neither changes.
bool rtapp::enter_phase(unsigned task, step& out)
{
    thread_state& ts = threads_[task];
    const rtapp_thread& t = p_.threads[ts.def];
    const rtapp_phase& ph = t.phases[ts.phase];
    const std::uint32_t want = cpu_mask(ph.cpus.empty() ? t.cpus : ph.cpus);
    if (want != ts.cpus) {
        ts.cpus = want;
        out = make(step::affinity);
        out.cpus = want;
        return true;
    }
    if (ph.group >= 0 && static_cast<unsigned>(ph.group) != ts.group) {
        ts.group = static_cast<unsigned>(ph.group);
        out = make(step::move_group);
        out.group = ts.group;
        return true;
    }
    return false;
}

// Events that take no time are passed in this call. A thread that only ever passes such
// events (the parser refuses it) would never give the kernel a step: it is ended.
step rtapp::pass_events(unsigned task, std::uint64_t now_ns)
{
    thread_state& ts = threads_[task];
    for (unsigned passed = 0; passed < 1000000; passed++) {
        if (p_.log && ts.queued.empty())
            log_close(task, now_ns);
        if (ts.finished)
            return make(step::exit);
        step s;
        if (ts.event == 0 && ts.phase_loop == 0 && enter_phase(task, s))
            return s;
        const rtapp_event& e = p_.threads[ts.def].phases[ts.phase].events[ts.event];
        do_event(task, e, now_ns);
        advance(task);
        if (!ts.queued.empty())
            return pop_front(ts.queued);
    }
    ts.finished = true;
    return make(step::exit);
}

step rtapp::next(unsigned task, std::uint64_t now_ns)
{
    thread_state& ts = threads_.at(task);
    if (p_.log && ts.measure != thread_state::measuring::none)
        log_settle(task, now_ns);
    if (ts.finished && ts.queued.empty()) {
        if (p_.log)
            log_close(task, now_ns);
        return make(step::exit);
    }
    start_clock(now_ns);
    if (end_ns_ != 0 && now_ns >= end_ns_)
        ending_ = true;
    if (ending_)
        return stop(task);

    if (!ts.started) {
        ts.started = true;
        ts.first_ns = (ts.forked ? ts.fork_ns : t_zero_ns_) + us_to_ns(p_.threads[ts.def].delay_us);
        if (ts.first_ns > now_ns)
            return make(step::sleep_until, clamp_end(ts.first_ns));
    }

    if (!ts.queued.empty())
        return pop_front(ts.queued);

    // Woken from a block: finish what it blocked in.
    const pending was = ts.wait;
    ts.wait = pending::none;
    if (was == pending::cond) {
        take(task, ts.wait_mutex); // pthread_cond_wait returns holding its mutex
        if (!ts.queued.empty())
            return pop_front(ts.queued);
    }
    // pending::lock: the releaser made this thread the owner. pending::barrier: released.

    return pass_events(task, now_ns);
}

std::string rtapp_log_text(const std::vector<rtapp_log_row>& rows)
{
    // rt-app's header and row formats (log_timing): the same widths, one space apart.
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%s %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s\n", "#idx", "perf", "run",
                  "period", "start", "end", "rel_st", "slack", "c_duration", "c_period", "wu_lat");
    out += line;
    for (const rtapp_log_row& r : rows) {
        std::snprintf(line, sizeof line, "%4u %8llu %8llu %8llu %15llu %15llu %15llu %10lld %10llu %10llu %10llu\n",
                      r.idx, static_cast<unsigned long long>(r.perf), static_cast<unsigned long long>(r.run_us),
                      static_cast<unsigned long long>(r.period_us), static_cast<unsigned long long>(r.start_us),
                      static_cast<unsigned long long>(r.end_us), static_cast<unsigned long long>(r.rel_st_us),
                      static_cast<long long>(r.slack_us), static_cast<unsigned long long>(r.c_duration_us),
                      static_cast<unsigned long long>(r.c_period_us), static_cast<unsigned long long>(r.wu_lat_us));
        out += line;
    }
    return out;
}

} // namespace blsim::workloads
