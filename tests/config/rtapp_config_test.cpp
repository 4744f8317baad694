// tests/config/rtapp_config_test.cpp -- rt-app documents: the shipped examples parse, every
// unsupported construct and malformed value is refused with its exact located message, and
// the same document written in YAML reads the same as in JSON.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "blsim/soc/rtapp_config.h"
#include "blsim/workloads/rtapp.h"

namespace {

using namespace blsim;
using workloads::rtapp_event;
using workloads::rtapp_params;

const std::string examples = std::string(BLSIM_SOURCE_DIR) + "/configs/rtapp/";

std::vector<std::string> errors_of(const std::string& text, rtapp_params* out = nullptr)
{
    cfg::diagnostics d;
    cfg::node doc;
    rtapp_params p;
    if (cfg::parse_yaml(soc::blank_json_comments(text), "t.json", doc, d) && soc::parse_rtapp(doc, d, p) && out)
        *out = p;
    return d.messages();
}

void expect_same(const rtapp_params& a, const rtapp_params& b)
{
    EXPECT_EQ(a.duration_s, b.duration_s);
    ASSERT_EQ(a.threads.size(), b.threads.size());
    for (std::size_t i = 0; i < a.threads.size(); i++) {
        const auto& x = a.threads[i];
        const auto& y = b.threads[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.instances, y.instances);
        EXPECT_EQ(x.loop, y.loop);
        EXPECT_EQ(x.cpus, y.cpus);
        EXPECT_EQ(x.nice, y.nice);
        EXPECT_EQ(x.delay_us, y.delay_us);
        ASSERT_EQ(x.phases.size(), y.phases.size());
        for (std::size_t j = 0; j < x.phases.size(); j++) {
            EXPECT_EQ(x.phases[j].name, y.phases[j].name);
            EXPECT_EQ(x.phases[j].loop, y.phases[j].loop);
            ASSERT_EQ(x.phases[j].events.size(), y.phases[j].events.size());
            for (std::size_t k = 0; k < x.phases[j].events.size(); k++) {
                const rtapp_event& e = x.phases[j].events[k];
                const rtapp_event& f = y.phases[j].events[k];
                EXPECT_EQ(e.kind, f.kind);
                EXPECT_EQ(e.us, f.us);
                EXPECT_EQ(e.ref, f.ref);
                EXPECT_EQ(e.mutex, f.mutex);
                EXPECT_EQ(e.absolute, f.absolute);
            }
        }
    }
}

TEST(rtapp_config, the_periodic_example_parses)
{
    cfg::diagnostics d;
    rtapp_params p;
    ASSERT_TRUE(soc::load_rtapp_json(examples + "periodic.json", d, p)) << d.messages().front();
    EXPECT_EQ(p.duration_s, 4);
    ASSERT_EQ(p.threads.size(), 2u);
    const auto& per = p.threads[0];
    EXPECT_EQ(per.name, "periodic");
    EXPECT_EQ(per.nice, -5);
    EXPECT_EQ(per.loop, -1);
    ASSERT_EQ(per.phases.size(), 1u);
    ASSERT_EQ(per.phases[0].events.size(), 2u);
    EXPECT_EQ(per.phases[0].events[0].kind, rtapp_event::run);
    EXPECT_EQ(per.phases[0].events[0].us, 4000);
    EXPECT_EQ(per.phases[0].events[1].kind, rtapp_event::timer);
    EXPECT_EQ(per.phases[0].events[1].us, 16000);
    EXPECT_EQ(per.phases[0].events[1].ref, "unique");
    EXPECT_TRUE(per.phases[0].events[1].absolute);
    EXPECT_EQ(p.threads[1].instances, 2);
    EXPECT_EQ(p.threads[1].delay_us, 1000);
    workloads::rtapp w(p);
    ASSERT_EQ(w.ntasks(), 3u);
    EXPECT_EQ(w.info(0).name, "periodic-0");
    EXPECT_EQ(w.info(2).name, "background-2");
    EXPECT_EQ(w.nevents(), 0u);
}

TEST(rtapp_config, the_mutex_pipeline_example_parses)
{
    cfg::diagnostics d;
    rtapp_params p;
    ASSERT_TRUE(soc::load_rtapp_json(examples + "mutex-pipeline.json", d, p)) << d.messages().front();
    EXPECT_EQ(p.duration_s, 3);
    ASSERT_EQ(p.threads.size(), 3u);
    const auto& prod = p.threads[0];
    ASSERT_EQ(prod.phases.size(), 2u);
    EXPECT_EQ(prod.phases[0].name, "warmup");
    EXPECT_EQ(prod.phases[0].loop, 10);
    EXPECT_EQ(prod.phases[1].loop, 50);
    EXPECT_EQ(prod.phases[1].events.size(), 7u);
    const auto& cons = p.threads[1];
    EXPECT_EQ(cons.cpus, (std::vector<int>{2, 3, 4}));
    EXPECT_EQ(cons.phases[0].events[1].kind, rtapp_event::wait);
    EXPECT_EQ(cons.phases[0].events[1].ref, "frame_ready");
    EXPECT_EQ(cons.phases[0].events[1].mutex, "queue_lock");
    EXPECT_EQ(cons.phases[0].events[2].kind, rtapp_event::runtime);
    workloads::rtapp w(p);
    EXPECT_EQ(w.ntasks(), 3u);
    EXPECT_EQ(w.nevents(), 3u); // queue_lock, frame_ready, frame_done
}

TEST(rtapp_config, yaml_reads_the_same_as_json)
{
    const std::string yaml = R"(global:
  duration: 3
  default_policy: SCHED_OTHER
  pi_enabled: false
  logdir: ./
  log_basename: pipeline
  gnuplot: false
tasks:
  producer:
    loop: -1
    phases:
      warmup:
        loop: 10
        run: 6000
        timer: {ref: frame, period: 20000, mode: absolute}
      steady:
        loop: 50
        run0: 2000
        lock: queue_lock
        runtime: 200
        signal: frame_ready
        unlock: queue_lock
        barrier: frame_done
        timer:
          ref: frame
          period: 20000
          mode: absolute
  consumer:
    loop: -1
    cpus: [2, 3, 4]
    lock: queue_lock
    wait: {ref: frame_ready, mutex: queue_lock}
    runtime: 100
    unlock: queue_lock
    run: 3000
    barrier: frame_done
  logger:
    loop: -1
    priority: 5
    run: 500
    barrier: frame_done
    sleep: 1000
)";
    cfg::diagnostics d;
    cfg::node doc;
    rtapp_params from_yaml, from_json;
    ASSERT_TRUE(cfg::parse_yaml(yaml, "s.yaml", doc, d));
    ASSERT_TRUE(soc::parse_rtapp(doc, d, from_yaml)) << d.messages().front();
    ASSERT_TRUE(soc::load_rtapp_json(examples + "mutex-pipeline.json", d, from_json));
    expect_same(from_yaml, from_json);
}

TEST(rtapp_config, a_document_inside_a_scenario_is_located_under_its_path)
{
    const std::string yaml = "workload:\n  rtapp:\n    tasks:\n      t:\n        run: fast\n";
    cfg::diagnostics d;
    cfg::node doc;
    ASSERT_TRUE(cfg::parse_yaml(yaml, "s.yaml", doc, d));
    rtapp_params p;
    EXPECT_FALSE(soc::parse_rtapp(*doc.find("workload")->find("rtapp"), d, p, "workload.rtapp"));
    EXPECT_EQ(d.messages(), (std::vector<std::string>{
                                "s.yaml:5:14: workload.rtapp.tasks.t.run: expected an integer number of "
                                "microseconds 0..2147483647, got 'fast'"}));
}

TEST(rtapp_config, event_names_match_by_prefix_as_rt_app_does)
{
    rtapp_params p;
    ASSERT_TRUE(errors_of(R"({"tasks": {"t": {"runtime0": 1, "run_big": 2, "sleep1": 3, "timer_a": {"ref": "x", "period": 4},
                              "lock_a": "m", "unlock_a": "m", "broadcast": "c", "signal2": "c"}}})",
                          &p)
                    .empty());
    ASSERT_EQ(p.threads.size(), 1u);
    const auto& ev = p.threads[0].phases[0].events;
    ASSERT_EQ(ev.size(), 8u);
    const std::vector<rtapp_event::kind_t> kinds = {rtapp_event::runtime, rtapp_event::run,  rtapp_event::sleep,
                                                    rtapp_event::timer,   rtapp_event::lock, rtapp_event::unlock,
                                                    rtapp_event::broad,   rtapp_event::signal};
    for (std::size_t i = 0; i < kinds.size(); i++)
        EXPECT_EQ(ev[i].kind, kinds[i]) << i;
    EXPECT_FALSE(ev[3].absolute); // rt-app's default mode: relative
    EXPECT_EQ(p.threads[0].loop, -1);
    EXPECT_EQ(p.duration_s, -1);
}

TEST(rtapp_config, mem_and_iorun_write_bytes_to_a_buffer_and_a_device)
{
    rtapp_params p;
    EXPECT_TRUE(errors_of(R"({"global": {"mem_buffer_size": 1048576},
        "tasks": {"t": {"run": 1000, "mem0": 4096, "iorun": 100000, "sleep": 10}}})",
                          &p)
                    .empty());
    EXPECT_EQ(p.mem_buffer_bytes, 1048576u);
    const auto& ev = p.threads[0].phases[0].events;
    EXPECT_EQ(ev[1].kind, rtapp_event::mem);
    EXPECT_EQ(ev[1].bytes, 4096u);
    EXPECT_EQ(ev[2].kind, rtapp_event::iorun);
    EXPECT_EQ(ev[2].bytes, 100000u);
    EXPECT_TRUE(p.io_null); // rt-app's default device
    EXPECT_EQ(errors_of(R"({
  "global": { "io_device": "/dev/sda", "mem_buffer_size": 0 },
  "tasks": {
    "t": { "run": 1000, "iorun": 4096, "mem": -1 }
  }
})"),
              (std::vector<std::string>{
                  "t.json:2:59: global.mem_buffer_size: expected an integer number of bytes >= 1, got '0'",
                  "t.json:4:47: tasks.t.mem: expected an integer number of bytes, got '-1'"}));
}

TEST(rtapp_config, real_time_policies_give_the_class_and_priority_means_the_real_time_one)
{
    // default_policy applies to every thread without its own; under FIFO and RR "priority" is
    // the real-time priority (10 when not given, as rt-app), under SCHED_OTHER the nice value.
    rtapp_params p;
    EXPECT_EQ(errors_of(R"({
  "global": { "default_policy": "SCHED_FIFO" },
  "tasks": {
    "a": { "run": 1000 },
    "b": { "policy": "SCHED_RR", "priority": 42, "run": 1000 },
    "c": { "policy": "SCHED_OTHER", "priority": -5, "run": 1000 }
  }
})",
                        &p),
              std::vector<std::string>{});
    ASSERT_EQ(p.threads.size(), 3u);
    EXPECT_EQ(p.threads[0].policy, workloads::task_info::fifo);
    EXPECT_EQ(p.threads[0].rt_priority, 10);
    EXPECT_EQ(p.threads[1].policy, workloads::task_info::rr);
    EXPECT_EQ(p.threads[1].rt_priority, 42);
    EXPECT_EQ(p.threads[2].policy, workloads::task_info::normal);
    EXPECT_EQ(p.threads[2].rt_priority, 0);
    EXPECT_EQ(p.threads[2].nice, -5);
}

TEST(rtapp_config, what_a_class_cannot_be_is_refused_and_located)
{
    EXPECT_EQ(errors_of(R"({
  "tasks": {
    "t": {
      "policy": "SCHED_FIFO",
      "priority": 0,
      "phases": {
        "p1": { "policy": "SCHED_OTHER", "run": 1000 },
        "p2": { "priority": 11, "run": 1000 }
      }
    },
    "u": { "policy": "SCHED_IDLE", "run": 1000 }
  }
})"),
              (std::vector<std::string>{
                  "t.json:5:19: tasks.t.priority: expected a real-time priority 1..99 (under SCHED_FIFO and "
                  "SCHED_RR), got '0'",
                  "t.json:7:27: tasks.t.phases.p1.policy: a policy per phase is not supported (a task's class "
                  "is fixed in blsim): give it at thread level",
                  "t.json:8:29: tasks.t.phases.p2.priority: a priority per phase is not supported (a task's "
                  "real-time priority is fixed in blsim): give it at thread level",
                  "t.json:11:22: tasks.u.policy: policy 'SCHED_IDLE' is not supported: blsim models "
                  "SCHED_OTHER, SCHED_FIFO, SCHED_RR and SCHED_DEADLINE"}));
}

// Deadline threads: rt-app's parameters and defaults (dl-period the runtime, dl-deadline the
// period; the legacy period and deadline at thread level), checked as sched_setattr checks
// them, and admitted as Linux admits them on the run's CPUs.
std::vector<std::string> dl_errors_of(const std::string& text, rtapp_params* out = nullptr, int cpus = 2,
                                      std::vector<std::string>* notes = nullptr)
{
    cfg::diagnostics d;
    cfg::node doc;
    rtapp_params p;
    soc::cpu_limit lim;
    lim.cpus = cpus;
    lim.dl_bw = 996147ull * static_cast<unsigned>(cpus); // 950 ms of every 1 s each
    lim.dl_bw_what = "95% of each of the " + std::to_string(cpus) + " CPUs";
    if (cfg::parse_yaml(soc::blank_json_comments(text), "t.json", doc, d) && soc::parse_rtapp(doc, d, p, "", lim) && out)
        *out = p;
    if (notes)
        *notes = d.note_messages();
    return d.messages();
}

TEST(rtapp_config, deadline_threads_take_rt_apps_parameters_and_defaults)
{
    rtapp_params p;
    std::vector<std::string> notes;
    EXPECT_TRUE(dl_errors_of(R"({
  "global": { "default_policy": "SCHED_DEADLINE" },
  "tasks": {
    "a": { "dl-runtime": 12000, "dl-period": 100000, "run": 10000,
           "timer": { "ref": "unique", "period": 100000 }, "yield": "" },
    "b": { "dl-runtime": 5000, "run": 1000, "sleep": 10000 },
    "c": { "dl-runtime": 1000, "period": 20000, "deadline": 10000, "cpus": [1, 0], "dl-reclaim": false,
           "run": 500, "sleep": 1000 },
    "d": { "policy": "SCHED_FIFO", "dl-period": 7, "run": 10, "yield": "" }
  }
})",
                             &p, 2, &notes)
                    .empty());
    EXPECT_EQ(notes, (std::vector<std::string>{"t.json:9:36: note: tasks.d.dl-period: a SCHED_DEADLINE parameter, "
                                               "ignored (as Linux ignores it) for a thread that is not SCHED_DEADLINE"}));
    ASSERT_EQ(p.threads.size(), 4u);
    using ti = workloads::task_info;
    EXPECT_EQ(p.threads[0].policy, ti::deadline);
    EXPECT_EQ(p.threads[0].dl_runtime_ns, 12000000u);
    EXPECT_EQ(p.threads[0].dl_period_ns, 100000000u);
    EXPECT_EQ(p.threads[0].dl_deadline_ns, 100000000u); // the period
    EXPECT_EQ(p.threads[0].phases[0].events.back().kind, rtapp_event::yield);
    EXPECT_EQ(p.threads[1].dl_period_ns, 5000000u);     // the runtime
    EXPECT_EQ(p.threads[1].dl_deadline_ns, 5000000u);
    EXPECT_EQ(p.threads[2].dl_period_ns, 20000000u);    // legacy names
    EXPECT_EQ(p.threads[2].dl_deadline_ns, 10000000u);
    EXPECT_TRUE(p.threads[2].cpus.empty());             // every CPU: no restriction
    EXPECT_EQ(p.threads[3].policy, ti::fifo);
    EXPECT_EQ(p.threads[3].dl_period_ns, 0u);
}

TEST(rtapp_config, deadline_parameters_linux_refuses_are_refused)
{
    EXPECT_EQ(dl_errors_of(R"({
  "tasks": {
    "a": { "policy": "SCHED_DEADLINE", "run": 10, "sleep": 10 },
    "b": { "policy": "SCHED_DEADLINE", "dl-runtime": 100, "dl-deadline": 50, "run": 10, "sleep": 10 },
    "c": { "policy": "SCHED_DEADLINE", "dl-runtime": 10, "dl-period": 5000000, "run": 10, "sleep": 10 },
    "d": { "policy": "SCHED_DEADLINE", "dl-runtime": 10, "dl-period": 1000, "cpus": [1], "run": 10, "sleep": 10,
           "dl-reclaim": true, "priority": 3 },
    "e": { "dl-runtime": 300, "run": 10, "sleep": 10 },
    "f": { "policy": "SCHED_DEADLINE", "dl-runtime": 10, "dl-period": 100, "loop": -1, "yield": "" },
    "g": { "loop": -1, "yield": "" }
  }
})"),
              (std::vector<std::string>{
                  "t.json:3:5: tasks.a: SCHED_DEADLINE needs a dl-runtime of at least 2 us (Linux's least is "
                  "1024 ns), got 0 us: sched_setattr refuses it (EINVAL)",
                  "t.json:4:59: tasks.b: dl-deadline (50 us) is shorter than dl-runtime (100 us): sched_setattr "
                  "refuses it (EINVAL)",
                  "t.json:5:58: tasks.c: dl-period 5000000 us is outside 100..4194304 us "
                  "(sched_deadline_period_min_us, _max_us): sched_setattr refuses it (EINVAL)",
                  "t.json:6:85: tasks.d.cpus: a SCHED_DEADLINE thread cannot be pinned: Linux refuses "
                  "(sched_setattr: EPERM, sched_setaffinity: EBUSY) a deadline task whose CPUs are not all the "
                  "CPUs of its root domain; give every CPU or none",
                  "t.json:7:26: tasks.d.dl-reclaim: bandwidth reclaiming (GRUB, SCHED_FLAG_RECLAIM) is not "
                  "supported: blsim's deadline tasks run at most their runtime per period; only false",
                  "t.json:7:44: tasks.d.priority: expected 0 (sched_setattr refuses a priority under "
                  "SCHED_DEADLINE), got '3'",
                  "t.json:8:12: tasks.e.dl-runtime: a custom slice (dl-runtime of a SCHED_OTHER thread, EEVDF's "
                  "sched_runtime) is not supported: blsim's CFS slices by sched_latency",
                  "t.json:10:5: tasks.g: loops forever but none of its events takes time (run, runtime, sleep, "
                  "mem or iorun above 0, timer, wait, sync, suspend, a barrier shared with another thread, "
                  "or a SCHED_DEADLINE thread's yield): the simulated time would stand still"}));
}

TEST(rtapp_config, admission_control_refuses_the_thread_that_overflows_the_cpus)
{
    // Two CPUs at 95 %: 1.9 CPUs. Three threads of 0.6 (1.8) are admitted; the fourth's 0.2
    // brings 2.0: refused, at its name.
    EXPECT_EQ(dl_errors_of(R"({
  "global": { "default_policy": "SCHED_DEADLINE" },
  "tasks": {
    "a": { "instance": 3, "dl-runtime": 60000, "dl-period": 100000, "run": 10, "sleep": 10 },
    "b": { "dl-runtime": 20000, "dl-period": 100000, "run": 10, "sleep": 10 }
  }
})"),
              (std::vector<std::string>{
                  "t.json:5:5: tasks.b: admission control refuses it (sched_setattr: EBUSY): with it the "
                  "SCHED_DEADLINE threads reserve 2.000 CPUs, more than 95% of each of the 2 CPUs"}));
}

TEST(rtapp_config, global_keys_that_change_behaviour_are_refused)
{
    EXPECT_EQ(errors_of(R"({
  "global": {
    "duration": 2.5,
    "pi_enabled": true,
    "default_policy": "SCHED_BATCH",
    "log_basenam": "x",
    "calibration": "CPU0",
    "ftrace": "main,task",
    "lock_pages": false
  },
  "tasks": {
    "t": {
      "run": 1000
    }
  }
})"),
              (std::vector<std::string>{
                  "t.json:3:17: global.duration: expected an integer number of seconds (-1: none), got '2.5'",
                  "t.json:4:19: global.pi_enabled: priority inheritance is not supported (blsim's mutexes are "
                  "handed over in FIFO order): only false",
                  "t.json:5:23: global.default_policy: 'SCHED_BATCH' is not an rt-app policy (SCHED_OTHER, "
                  "SCHED_IDLE, SCHED_RR, SCHED_FIFO, SCHED_DEADLINE)",
                  "t.json:6:5: unknown key 'log_basenam' in global (did you mean 'log_basename'?)"}));
}

TEST(rtapp_config, malformed_event_values_are_located)
{
    EXPECT_EQ(errors_of(R"({
  "tasks": {
    "t": {
      "run": -3,
      "sleep": "100",
      "timer": { "ref": "x", "mode": "abs" },
      "lock": ["m"]
    }
  }
})"),
              (std::vector<std::string>{
                  "t.json:4:14: tasks.t.run: expected an integer number of microseconds 0..2147483647, got '-3'",
                  "t.json:5:16: tasks.t.sleep: expected an integer number of microseconds 0..2147483647, got "
                  "the string '100'",
                  "t.json:6:16: tasks.t.timer: missing required key 'period'",
                  "t.json:6:38: tasks.t.timer.mode: expected absolute or relative, got 'abs'",
                  "t.json:7:15: tasks.t.lock: expected the name of a mutex, got a list"}));
}

TEST(rtapp_config, per_phase_properties_blsim_keeps_per_thread_are_refused_and_cpus_per_phase_are_not)
{
    EXPECT_EQ(errors_of(R"({
  "tasks": {
    "t": {
      "cpus": [0, 1],
      "priority": -3,
      "run": 10,
      "phases": {
        "a": {
          "cpus": [2],
          "priority": 4,
          "util_min": 100,
          "loop": 0,
          "delay": 5
        }
      }
    }
  }
})"),
              (std::vector<std::string>{
                  "t.json:6:7: tasks.t.run: events beside 'phases' are ignored by rt-app: move 'run' into a phase",
                  "t.json:10:23: tasks.t.phases.a.priority: a priority per phase is not supported (a task's "
                  "nice value is fixed in blsim): give it at thread level",
                  "t.json:11:11: tasks.t.phases.a.util_min: rt-app key 'util_min' is not supported: "
                  "utilization clamping is not modelled",
                  "t.json:12:19: tasks.t.phases.a.loop: expected a count >= 1, got '0'",
                  "t.json:13:11: tasks.t.phases.a.delay: 'delay' is a thread key: rt-app ignores it in a phase"}));
}

TEST(rtapp_config, the_same_cpus_and_priority_in_a_phase_are_accepted)
{
    rtapp_params p;
    EXPECT_TRUE(errors_of(R"({"tasks": {"t": {"cpus": [1, 0], "priority": 3, "loop": 2, "phases": {
        "a": {"cpus": [0, 1], "priority": 3, "policy": "SCHED_OTHER", "loop": 4, "run": 10},
        "b": {"sleep": 10}}}}})",
                          &p)
                    .empty());
    ASSERT_EQ(p.threads[0].phases.size(), 2u);
    EXPECT_EQ(p.threads[0].loop, 2);
    EXPECT_EQ(p.threads[0].phases[0].loop, 4);
    EXPECT_EQ(p.threads[0].phases[1].loop, 1);
    EXPECT_EQ(p.threads[0].nice, 3);
}

TEST(rtapp_config, mutexes_must_be_used_in_order_within_a_phase)
{
    EXPECT_EQ(errors_of(R"({
  "tasks": {
    "t": {
      "lock": "a",
      "wait": { "ref": "c", "mutex": "b" },
      "unlock": "b",
      "lock1": "a",
      "run": 10
    }
  }
})"),
              (std::vector<std::string>{
                  "t.json:4:7: tasks.t.lock: mutex 'a' is still held at the end of the thread's events: blsim "
                  "needs each phase to unlock what it locks",
                  "t.json:5:7: tasks.t.wait: mutex 'b' must be locked before waiting on 'c' (pthread_cond_wait "
                  "needs it held)",
                  "t.json:6:7: tasks.t.unlock: mutex 'b' is not held here",
                  "t.json:7:7: tasks.t.lock1: mutex 'a' is already held here: rt-app's mutexes are not "
                  "recursive (the thread would deadlock)"}));
}

TEST(rtapp_config, a_thread_looping_forever_without_time_is_refused)
{
    EXPECT_EQ(errors_of(R"({
  "tasks": {
    "spin": {
      "lock": "m",
      "unlock": "m"
    },
    "once": {
      "loop": 3,
      "signal": "c"
    },
    "alone": {
      "barrier": "b",
      "run": 0
    }
  }
})"),
              (std::vector<std::string>{
                  "t.json:3:5: tasks.spin: loops forever but none of its events takes time (run, runtime, "
                  "sleep, mem or iorun above 0, timer, wait, sync, suspend, a barrier shared with another "
                  "thread, or a SCHED_DEADLINE thread's yield): the simulated time would stand still",
                  "t.json:11:5: tasks.alone: loops forever but none of its events takes time (run, runtime, "
                  "sleep, mem or iorun above 0, timer, wait, sync, suspend, a barrier shared with another "
                  "thread, or a SCHED_DEADLINE thread's yield): the simulated time would stand still"}));
}

TEST(rtapp_config, more_resources_than_kernel_events_are_refused_at_the_first_extra)
{
    std::string text = "{\n  \"tasks\": {\n    \"t\": {\n      \"run\": 10,\n";
    for (int i = 0; i < 4097; i++)
        text += "      \"signal" + std::to_string(i) + "\": \"c" + std::to_string(i) + "\"" + (i < 4096 ? ",\n" : "\n");
    text += "    }\n  }\n}\n";
    EXPECT_EQ(errors_of(text), (std::vector<std::string>{
                                   "t.json:4101:7: tasks.t.signal4096: 'c4096' would be the 4097th mutex, condition "
                                   "or barrier of the use case: blsim's kernel has 4096 events"}));
}

TEST(rtapp_config, the_document_needs_tasks)
{
    EXPECT_EQ(errors_of("{\n  \"global\": {},\n  \"task\": {}\n}\n"),
              (std::vector<std::string>{"t.json:1:1: rt-app document: missing required key 'tasks'",
                                        "t.json:3:3: unknown key 'task' in the rt-app document (did you mean "
                                        "'tasks'?)"}));
    EXPECT_EQ(errors_of("{\"tasks\": []}"),
              (std::vector<std::string>{
                  "t.json:1:11: tasks: expected a mapping of thread names to threads, got a list"}));
    EXPECT_EQ(errors_of("{\"tasks\": {\"t\": {\"lop\": 2, \"loop\": 0}}}"),
              (std::vector<std::string>{
                  "t.json:1:18: unknown key 'lop' in tasks.t (did you mean 'loop'?)",
                  "t.json:1:36: tasks.t.loop: expected -1 (forever) or a count >= 1, got '0'"}));
}

TEST(rtapp_config, an_unreadable_file_is_reported_without_location)
{
    cfg::diagnostics d;
    rtapp_params p;
    EXPECT_FALSE(soc::load_rtapp_json("/nonexistent-blsim-dir/x.json", d, p));
    EXPECT_EQ(d.messages(), (std::vector<std::string>{
                                "cannot read rt-app file '/nonexistent-blsim-dir/x.json': No such file or directory"}));
}

TEST(rtapp_config, comments_are_blanked_keeping_positions)
{
    const std::string in = "{ /* a\n comment */ \"logdir\": \"a//b/*c*/\", // end\n \"x\": 1 }";
    const std::string out = soc::blank_json_comments(in);
    EXPECT_EQ(out, "{     \n            \"logdir\": \"a//b/*c*/\",       \n \"x\": 1 }");
    // A commented rt-app file parses, and what follows a comment keeps its column.
    EXPECT_EQ(errors_of("{ /* c */ \"tasks\": { \"t\": { \"run\": \"x\" } } }"),
              (std::vector<std::string>{"t.json:1:36: tasks.t.run: expected an integer number of microseconds "
                                        "0..2147483647, got the string 'x'"}));
}


// --- rt-app's files as people write them (issue 25) ------------------------------------------

const std::string written = std::string(BLSIM_SOURCE_DIR) + "/tests/config/data/rtapp/";

// The keys of @text's top mapping as parse_yaml reads them with rt-app's workgen rule.
std::vector<std::string> keys_read(const std::string& text, std::vector<cfg::key_repeat>* repeats = nullptr)
{
    cfg::diagnostics d;
    cfg::node doc;
    std::vector<cfg::key_repeat> r;
    EXPECT_TRUE(cfg::parse_yaml(text, "t.json", doc, d, repeats ? repeats : &r)) << d.messages().front();
    return doc.keys;
}

TEST(rtapp_config, repeated_keys_are_renamed_in_order_with_workgens_counter)
{
    // workgen's counter starts at 1 in each mapping and moves on only past a name taken: run,
    // run1 (written), run -> run2 (run1 is taken), sleep, sleep -> sleep2 (the counter is at 2).
    EXPECT_EQ(keys_read("{\"run\": 1, \"run1\": 2, \"run\": 3, \"sleep\": 4, \"sleep\": 5}"),
              (std::vector<std::string>{"run", "run1", "run2", "sleep", "sleep2"}));
    // Each mapping has its own counter: the inner one starts at 1 again, the outer goes on.
    EXPECT_EQ(keys_read("{\"a\": 1, \"a\": 2, \"m\": {\"a\": 1, \"a\": 2}, \"a\": 3}"),
              (std::vector<std::string>{"a", "a1", "m", "a2"}));
    // Outside rt-app's reading a repeated key is an error, as before.
    cfg::diagnostics d;
    cfg::node doc;
    EXPECT_FALSE(cfg::parse_yaml("{\"a\": 1, \"a\": 2}", "t.yaml", doc, d));
    EXPECT_EQ(d.messages(), (std::vector<std::string>{"t.yaml:1:10: duplicate key 'a' (first at line 1)"}));
}

TEST(rtapp_config, a_repeated_key_opening_a_mapping_over_lines_replaces_the_first_in_its_place)
{
    // workgen reads line by line and counts a key on the line that opens a mapping inside that
    // mapping: it never renames it, and json-c keeps the last value where the first stood.
    std::vector<cfg::key_repeat> r;
    const std::string text = "{\n\"p1\": {\n\"run\": 1},\n\"p2\": {\n\"run\": 2},\n\"p1\": {\n\"run\": 3}\n}";
    cfg::diagnostics d;
    cfg::node doc;
    ASSERT_TRUE(cfg::parse_yaml(text, "t.json", doc, d, &r));
    EXPECT_EQ(doc.keys, (std::vector<std::string>{"p1", "p2"}));
    EXPECT_EQ(doc.items[0].find("run")->value, "3");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].key, "p1");
    EXPECT_EQ(r[0].read_as, "");
    EXPECT_EQ(r[0].at.line, 6);
    EXPECT_EQ(r[0].first.line, 2);
    // On one line ({"ref": ...} timers), workgen sees the key at its own level: renamed.
    EXPECT_EQ(keys_read("{\"timer\": {\"ref\": \"t\", \"period\": 1},\n\"timer\": {\"ref\": \"t\", \"period\": 1}}"),
              (std::vector<std::string>{"timer", "timer1"}));
}

TEST(rtapp_config, a_use_case_written_as_rt_apps_are_reads_with_notes_only_for_what_is_not_an_event)
{
    cfg::diagnostics d;
    rtapp_params p;
    ASSERT_TRUE(soc::load_rtapp_json(written + "workgen_repeats.json", d, p)) << d.messages().front();
    const std::string f = written + "workgen_repeats.json";
    EXPECT_EQ(d.note_messages(),
              (std::vector<std::string>{
                  f + ":28:5: note: 'p1' repeated (first at line 19): as rt-app reads it, its value replaces the "
                      "first one's, in its place",
                  f + ":38:3: note: global.frag: rt-app does not read 'frag' (a key of its older versions): ignored"}));
    ASSERT_EQ(p.threads.size(), 2u);
    const auto& a = p.threads[0].phases.at(0).events;
    std::vector<std::pair<rtapp_event::kind_t, double>> seen;
    for (const auto& e : a)
        seen.push_back({e.kind, e.us});
    EXPECT_EQ(seen, (std::vector<std::pair<rtapp_event::kind_t, double>>{
                        {rtapp_event::run, 5000}, {rtapp_event::run, 100}, {rtapp_event::run, 3000},
                        {rtapp_event::sleep, 7000}, {rtapp_event::sleep, 1000}, {rtapp_event::timer, 20000},
                        {rtapp_event::timer, 20000}, {rtapp_event::suspend, 0}}));
    EXPECT_EQ(a.back().ref, "taskA"); // an empty suspend names its own thread, as workgen writes it
    const auto& b = p.threads[1].phases;
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0].name, "p1");
    ASSERT_EQ(b[0].events.size(), 3u); // the second p1's: run 2000, run 2000, sleep
    EXPECT_EQ(b[0].events[1].us, 2000);
    EXPECT_EQ(b[1].name, "p2");
    EXPECT_EQ(b[1].events[1].ref, "taskA");
}

TEST(rtapp_config, rt_apps_old_exec_period_grammar_is_named_with_how_to_convert)
{
    cfg::diagnostics d;
    rtapp_params p;
    EXPECT_FALSE(soc::load_rtapp_json(written + "old_grammar.json", d, p));
    EXPECT_EQ(d.messages(), (std::vector<std::string>{
                                written + "old_grammar.json:4:4: tasks.thread0: 'exec' and 'period' are rt-app's old "
                                          "grammar (before phases and events), which rt-app no longer reads: write the "
                                          "thread as events, \"run\": <exec> then \"timer\": {\"ref\": \"unique\", "
                                          "\"period\": <period>} (docs/workloads.md, \"rt-app\")"}));
}

TEST(rtapp_config, an_unknown_key_is_offered_only_a_key_that_takes_the_same_kind_of_value)
{
    cfg::diagnostics d;
    rtapp_params p;
    EXPECT_FALSE(soc::load_rtapp_json(written + "unknown_keys.json", d, p));
    const std::string f = written + "unknown_keys.json";
    EXPECT_EQ(d.messages(), (std::vector<std::string>{
                                f + ":5:4: unknown key 'rnu' in tasks.t (did you mean 'run'?)",
                                f + ":6:4: unknown key 'slep' in tasks.t"})); // a mapping: not 'sleep'
}


TEST(rtapp_config, a_bare_suspend_names_its_own_thread_as_workgen_writes_it)
{
    // "suspend", with no value, as rt-app's video use cases write it: the thread's own name.
    cfg::diagnostics d;
    rtapp_params p;
    ASSERT_TRUE(soc::load_rtapp_json(written + "bare_suspend.json", d, p)) << d.messages().front();
    ASSERT_EQ(p.threads.size(), 2u);
    const auto& e = p.threads[0].phases.at(0).events;
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].kind, rtapp_event::suspend);
    EXPECT_EQ(e[0].ref, "display");
    EXPECT_EQ(p.threads[1].phases.at(0).events[1].ref, "display");
}

TEST(rtapp_config, an_external_workload_is_refused_as_a_model_limit)
{
    EXPECT_EQ(errors_of("{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"external_workload0\": "
                        "{\"library_name\": \"x.so\", \"main_method\": \"f\"}}}}}}"),
              (std::vector<std::string>{"t.json:1:35: tasks.t.phases.p.external_workload0: rt-app key "
                                        "'external_workload0' is not supported: rt-app's external workloads run a "
                                        "function of a shared library, which a simulation cannot"}));
}


TEST(rtapp_config, cpus_per_phase_are_the_threads_affinity_in_that_phase)
{
    cfg::diagnostics d;
    rtapp_params p;
    ASSERT_TRUE(soc::load_rtapp_json(written + "phase_cpus.json", d, p)) << d.messages().front();
    const auto& t = p.threads.at(0);
    EXPECT_EQ(t.cpus, (std::vector<int>{2}));
    ASSERT_EQ(t.phases.size(), 3u);
    EXPECT_EQ(t.phases[0].cpus, (std::vector<int>{0}));
    EXPECT_EQ(t.phases[1].cpus, (std::vector<int>{1}));
    EXPECT_TRUE(t.phases[2].cpus.empty()); // the thread's
    // Each phase's CPUs are checked against the SoC as the thread's are: with CPUs 0 and 1
    // only, the thread's CPU 2 is refused (phase3 runs on it), phase1's and phase2's are not.
    cfg::diagnostics d2;
    EXPECT_FALSE(soc::load_rtapp_json(written + "phase_cpus.json", d2, p, nullptr, {2, " CPUs)", UINT64_MAX, ""}));
    EXPECT_EQ(d2.messages(), (std::vector<std::string>{written + "phase_cpus.json:5:14: tasks.thread0.cpus[0]: cpu2 "
                                                                 "does not exist (the SoC has 2 CPUs)"}));
}

} // namespace

namespace {

// The global keys that shape only the log blsim run --rtapp-log writes: read, with their
// defaults when absent (rt-app's "rt-app", off, and 1 ns per loop for a calibration CPU).
TEST(rtapp_config, the_logs_global_keys_are_read_for_the_log)
{
    rtapp_params p;
    EXPECT_TRUE(errors_of(R"({"global": {"log_basename": "uc", "calibration": 7, "cumulative_slack": true},
  "tasks": {"t": {"run": 1000}}})", &p).empty());
    EXPECT_EQ(p.log_basename, "uc");
    EXPECT_EQ(p.calib_ns_per_loop, 7);
    EXPECT_TRUE(p.cumulative_slack);
    EXPECT_FALSE(p.log); // only the command line asks for it
    EXPECT_TRUE(errors_of(R"({"global": {"calibration": "CPU3"}, "tasks": {"t": {"run": 1000}}})", &p).empty());
    EXPECT_EQ(p.log_basename, "rt-app");
    EXPECT_EQ(p.calib_ns_per_loop, 1);
    EXPECT_FALSE(p.cumulative_slack);
    EXPECT_EQ(errors_of(R"({"global": {"log_basename": "logs/uc"}, "tasks": {"t": {"run": 1000}}})"),
              (std::vector<std::string>{"t.json:1:29: global.log_basename: expected a file name prefix (not "
                                        "empty, no '/'), got 'logs/uc'"}));
}

} // namespace

namespace {

TEST(rtapp_config, what_rt_app_runs_though_linux_or_json_c_bend_it_is_read_as_they_do_with_notes)
{
    using namespace blsim;
    const std::string f = std::string(BLSIM_SOURCE_DIR) + "/tests/config/data/rtapp/after_the_document.json";
    cfg::diagnostics d;
    workloads::rtapp_params p;
    ASSERT_TRUE(soc::load_rtapp_json(f, d, p)) << d.messages().front();
    EXPECT_EQ(p.threads[0].nice, 19);
    EXPECT_EQ(d.note_messages(),
              (std::vector<std::string>{
                  f + ":6:17: note: tasks.thread0.priority: nice 40 is outside -20..19: 19, as setpriority clamps it",
                  f + ":11:2: note: text after the rt-app document (',') ignored, as json-c (rt-app's parser) reads "
                      "the first value only"}));
}

} // namespace

namespace {

TEST(rtapp_config, forks_hold_back_an_instance_per_fork_the_document_can_reach)
{
    // "p": 2 instances x loop 3 x phase loop 2 = 12 forks of "c"; "q" forks "c" once more.
    rtapp_params p;
    EXPECT_TRUE(errors_of(R"({"tasks": {
        "p": {"instance": 2, "loop": 3, "phases": {"a": {"loop": 2, "fork": "c", "run": 10}}},
        "q": {"loop": 1, "fork": "c", "run": 10},
        "c": {"instance": 0, "loop": 1, "run": 10}}})",
                          &p)
                    .empty());
    EXPECT_EQ(p.threads[2].forks, 13);
    EXPECT_EQ(p.threads[0].forks, 0);
    EXPECT_EQ(p.threads[0].phases[0].events[0].kind, rtapp_event::fork);
    EXPECT_EQ(p.threads[0].phases[0].events[0].ref, "c");
    EXPECT_EQ(errors_of(R"({"tasks": {
  "p": {"run": 10, "fork": "nobody", "sleep": 10},
  "q": {"run": 10, "fork": "c", "sleep": 10},
  "c": {"instance": 0, "loop": 1, "fork": "d", "run": 10},
  "d": {"instance": 0, "loop": 1, "run": 10}}})"),
              (std::vector<std::string>{
                  "t.json:2:20: tasks.p.fork: forks 'nobody', which is not a thread of the document",
                  "t.json:3:20: tasks.q.fork: a fork in a thread that loops forever would start threads without "
                  "bound (blsim holds back a thread for each fork): give 'q' a loop count",
                  "t.json:4:35: tasks.c.fork: a thread started by a fork that forks in turn is not supported "
                  "(blsim holds back a thread for each fork the document can reach)"}));
}

} // namespace

namespace {

TEST(rtapp_config, taskgroups_are_registered_with_their_parents_and_changed_per_phase)
{
    rtapp_params p;
    EXPECT_TRUE(errors_of(R"({"tasks": {
        "a": {"taskgroup": "/tg1/tg11", "phases": {
            "p0": {"run": 10, "sleep": 10},
            "p1": {"run": 10, "sleep": 10, "taskgroup": "/"},
            "p2": {"run": 10, "sleep": 10, "taskgroup": "/tg2"},
            "p3": {"run": 10, "sleep": 10, "taskgroup": ""}}},
        "b": {"taskgroup": "/tg1", "run": 10, "sleep": 10}}})",
                          &p)
                    .empty());
    EXPECT_EQ(p.taskgroups, (std::vector<std::string>{"/tg1", "/tg1/tg11", "/tg2"}));
    EXPECT_EQ(p.threads[0].group, 2u);
    EXPECT_EQ(p.threads[0].phases[0].group, -1);
    EXPECT_EQ(p.threads[0].phases[1].group, 0);
    EXPECT_EQ(p.threads[0].phases[2].group, 3);
    EXPECT_EQ(p.threads[0].phases[3].group, -1);
    EXPECT_EQ(p.threads[1].group, 1u);
    const workloads::rtapp w(p);
    const std::vector<workloads::group_info> g = w.groups();
    ASSERT_EQ(g.size(), 4u);
    EXPECT_EQ(g[2].path, "/tg1/tg11");
    EXPECT_EQ(g[2].parent, 1u);
    EXPECT_EQ(g[3].parent, 0u);
    EXPECT_EQ(g[3].shares, 1024u);
    EXPECT_EQ(errors_of(R"({"tasks": {"a": {"taskgroup": "tg1/", "run": 10, "sleep": 10}}})"),
              (std::vector<std::string>{"t.json:1:31: tasks.a.taskgroup: expected a taskgroup path such as \"/tg1\" "
                                        "or \"/tg1/tg11\", got 'tg1/'"}));
}

} // namespace
