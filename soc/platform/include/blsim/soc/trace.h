// soc/platform/include/blsim/soc/trace.h -- a run's timeline, for the tools the field already uses.
//
// The recorder is an observer: the platform hands it the models' power-state, clock, voltage
// and power changes and the C kernel's tracepoints (scheduler, cpuidle, cpufreq, the
// switcher), each at its time. It keeps compact records and formats nothing while the run
// goes; at the end the writers of soc/report/ (blsim/soc/trace_writers.h) turn them into
//   - Chrome's trace-event JSON (trace.json, or trace.json.gz), which ui.perfetto.dev and
//     chrome://tracing open: a process per cluster with tracks per physical CPU, a process of
//     logical CPUs with each switch's phases as nested slices, flow arrows, counters;
//   - the text of the kernel's /sys/kernel/tracing/trace (trace.txt), with the events and
//     field formats Linux prints, which Perfetto's systrace import and trace parsers read.
// docs/traces.md describes both, track by track and event by event. With tracing off the
// recorder does not exist, and the run pays nothing for it.
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "blsim/model/power_state.h"
#include "blsim/soc/switch_probe.h"

namespace blsim::soc {

// A cpufreq policy's limits, for ftrace's cpu_frequency_limits.
struct policy_limits {
    unsigned cpu = 0; // its first logical CPU
    unsigned min_mhz = 0, max_mhz = 0;
};

struct trace_context {
    std::vector<std::string> task_names;
    std::vector<int> task_prio; // the kernel's prio, as ftrace prints it: 120 + nice, or 99 - rt_priority
    std::vector<std::string> cluster_names;
    std::vector<unsigned> cpu_cluster;                     // physical CPU -> cluster
    std::vector<std::vector<std::string>> idle_state_names; // per cluster
};

class trace_recorder {
public:
    explicit trace_recorder(trace_context ctx);

    enum class counter { freq_mhz, voltage_mv, power_mw, energy_j };

    void core_power(std::uint64_t t_ps, unsigned cpu, model::core_power s);
    void cluster_power(std::uint64_t t_ps, unsigned cluster, model::cluster_power s);
    void cluster_counter(std::uint64_t t_ps, unsigned cluster, counter c, double value);
    // A tracepoint of the C kernel (enum bls_trace_event), on physical CPU @cpu.
    void kernel(std::uint64_t t_ps, unsigned cpu, unsigned event, unsigned a, unsigned b);

    std::size_t records() const { return recs_.size(); }

    // What was recorded, in the order it came, for the writers (blsim/soc/trace_writers.h).
    enum class kind : std::uint8_t { core, cluster, counter, kernel };
    struct rec {
        std::uint64_t t_ps;
        kind k;
        std::uint8_t sub; // core/cluster power state, counter kind, kernel event
        std::uint16_t cpu;
        std::uint32_t a, b; // a kernel event's arguments
        double value;
    };
    const std::vector<rec>& recs() const { return recs_; }
    const trace_context& context() const { return ctx_; }

private:
    trace_context ctx_;
    std::vector<rec> recs_;
    struct last_sample {
        bool set = false;
        std::uint64_t t_ps = 0;
        double value = 0;
    };
    std::vector<std::array<last_sample, 4>> last_; // per cluster, per counter
};

// The VCD (trace.vcd): a few integer signals (the GIC's lines, the power states, the clocks),
// each change recorded as the model publishes it and the file written at the end. It only
// listens: no SystemC signal, process, event or trace file of its own, so a run traced this
// way simulates exactly what an untraced run does.
class vcd_recorder {
public:
    // Declares a signal of @width bits (1..64) holding @initial at time zero; its index.
    unsigned add(const std::string& name, unsigned width, std::uint64_t initial);
    // @signal holds @value from @t_ps on (the last change at one time wins; times need not
    // come in order).
    void change(std::uint64_t t_ps, unsigned signal, std::uint64_t value);
    // The file: header, the values at time zero ($dumpvars), then each time something changed.
    std::string text() const;

private:
    struct signal {
        std::string name;
        unsigned width;
        std::uint64_t initial;
    };
    struct change_rec {
        std::uint64_t t_ps;
        std::uint32_t signal;
        std::uint64_t value;
    };
    std::vector<signal> signals_;
    std::vector<change_rec> changes_;
};

// Appends @v in decimal (no locale, no printf): how the trace files and the VCD write integers.
inline void append_int(std::string& b, std::uint64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    b.append(buf, r.ptr);
}

// @text compressed in gzip's format (RFC 1952), as `gzip -9` would write it.
std::string gzip(const std::string& text);

} // namespace blsim::soc
