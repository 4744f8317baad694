// soc/platform/include/blsim/soc/switch_probe.h -- the latency probe: turns the switcher's and the
// cpufreq driver's tracepoints and the power controller's state changes into one record per
// switch, and checks the invariants a switch must keep.
//
// It is an observer: the C code emits tracepoints through the platform's trace verb and never
// calls it. Times are picoseconds of simulated time, all on the kernel's clock (the trace verb
// brings the system up to the tracing CPU's time first).
//
// A switch's record opens at its request and completes when its outbound core is off, or, if
// the outbound was the last core of its cluster and the cluster then powered down, when the
// cluster is off (or the power-down was aborted). Its energy (docs/switcher.md, "What a switch
// costs"):
//   energy_window_j   the whole SoC from the request until the switch completes;
//   energy_overhead_j what the switch itself spent beyond running the same work: the inbound
//                     core from its power-on to the blackout's end; the outbound core from
//                     the blackout's start until it is off; the inbound cluster's shared logic
//                     from its power-up until the blackout's end if the switch powered it up
//                     (its power-up energy included); the outbound cluster's from the
//                     blackout's start until it is off if the switch took it down.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "blsim/model/energy.h"
#include "blsim/model/faults.h"
#include "blsim/model/histogram.h"
#include "blsim/model/jitter.h"
#include "blsim/model/params.h"

namespace blsim::soc {

// The blackout's steps (enum bls_switch_step), in order, then the restore that ends it.
inline constexpr int switch_steps = 6;
inline constexpr const char* switch_step_names[switch_steps] = {
    "gic_migration", "tick_cpu_pm", "context_save", "l1_clean", "handshake_wait", "restore"};

struct switch_record {
    unsigned logical = 0;
    unsigned group = 0; // cluster migration: the group of switches moving together (>= 1); 0: none
    unsigned from_cluster = 0, to_cluster = 0;
    unsigned outbound = 0, inbound = 0;
    std::uint64_t t_cpufreq = 0; // the frequency request that led to it (0: none, e.g. the switcher off)
    std::uint64_t t_request = 0;
    std::uint64_t t_inbound_power_on = 0; // the inbound core turned on (or was kicked, if already on)
    std::uint64_t t_alive = 0;
    std::uint64_t t_blackout_start = 0;
    std::uint64_t t_step[switch_steps - 1] = {}; // end of each step but the last (restore)
    std::uint64_t t_blackout_end = 0;
    std::uint64_t t_outbound_off = 0;
    std::uint64_t t_done = 0; // outbound off, or its cluster off after it
    bool inbound_cluster_powered_up = false;
    bool outbound_cluster_powered_down = false;
    double energy_window_j = 0;
    double energy_overhead_j = 0;

    // Duration of blackout step @k (0..switch_steps-1), in ps.
    std::uint64_t step_ps(int k) const;
};

// The switch's own work that the configuration sets (once per switch, whatever the
// attempts): the cycles of its cost-model steps (switcher.costs_cycles, at the running CPU's
// clock) and the words its inbound reads uncached (switcher.restore_uncached_words).
struct switch_software {
    std::uint64_t cycles = 0;
    std::uint64_t uncached_words = 0;
};

// The longest a switch may take from its inbound's kick to the end of its blackout, beyond
// the unmodelled software's share, with @soc's power controller and DVFS latencies and the
// fault timeouts configured, each at its jittered maximum: per attempt (the first kick and
// each retry, BLS_SWITCH_KICKS + 1) a cluster caught powering down then powered up again, the
// core's power-up, a WFI's entry and exit, every DVFS step of the largest table, a failed
// power-up's timeout and a stuck CCI port; plus the SGIs' delivery delays; plus @sw's cycles
// at the slowest OPP of any cluster and its uncached words, each a DRAM round trip at the
// memory's latency.
std::uint64_t switch_hang_bound_ps(const model::soc_params& soc, const model::jitter_params& jitter,
                                   const model::fault_params& faults, const switch_software& sw = {});

class switch_probe {
public:
    // @meter holds the energies; @advance integrates it up to a time.
    switch_probe(unsigned ncpus, const model::energy_meter& meter, std::function<void(std::uint64_t)> advance);

    void tracepoint(std::uint64_t t_ps, unsigned cpu, unsigned event, unsigned a, unsigned b,
                    unsigned cpu_cluster);

    // The unmodelled software's share of the 'switch-completes' bound: far above what a
    // switch's C code and register traffic take at nominal latencies.
    static constexpr std::uint64_t software_hang_ps = 100'000'000'000ull;
    // The longest a switch may take from its inbound's kick to the end of its blackout with
    // the scenario's latencies at their jittered maxima and its configured work
    // (switch_hang_bound_ps): the bound of 'switch-completes' is software_hang_ps plus it.
    void set_hang_bound(std::uint64_t hardware_ps) { switch_hang_ps = software_hang_ps + hardware_ps; }
    std::uint64_t hang_bound_ps() const { return switch_hang_ps; }
    void core_on(std::uint64_t t_ps, unsigned cpu, unsigned cluster);
    void core_off(std::uint64_t t_ps, unsigned cpu, unsigned cluster);
    void cluster_changed(std::uint64_t t_ps, unsigned cluster, model::cluster_power s);
    // The end of the run: switches whose completion was still pending are closed.
    void finish(std::uint64_t t_ps);

    // A device interrupt was raised for @logical (a timer or a doorbell) at @t_ps.
    void irq_raised(std::uint64_t t_ps, unsigned logical, unsigned irq)
    {
        raised_[key(logical, irq)]++;
        auto& first = first_unhandled_[key(logical, irq)];
        if (!first)
            first = t_ps; // an edge raised again before it is handled merges into it
    }
    // An edge raised while the same interrupt was pending: the GIC merges it (one delivery).
    void irq_merged() { merged_total_++; }
    std::uint64_t irqs_merged() const { return merged_total_; }
    // Interrupt latencies, raise to handler, in ps (one per delivery).
    const model::log_histogram& irq_latency() const { return irq_latency_; }
    // Distributions over the completed switches, in ps.
    const model::log_histogram& blackout() const { return blackout_; }
    const model::log_histogram& request_to_alive() const { return request_to_alive_; }
    const model::log_histogram& total() const { return total_; }
    const model::log_histogram& dvfs_wait() const { return dvfs_wait_; }
    const model::log_histogram& step(int k) const { return step_.at(static_cast<std::size_t>(k)); }
    // Cluster migration: the groups of completed switches, and each group's blackout, from its
    // first switch's blackout start to its last one's end, in ps (computed from records()).
    std::size_t groups() const;
    model::log_histogram group_blackout() const;
    // Memory held by the distributions: fixed, whatever the run's length.
    std::size_t distribution_bytes() const;
    double overhead_energy_j() const { return overhead_j_; }
    double window_energy_j() const { return window_j_; }

    const std::vector<switch_record>& records() const { return done_; }
    std::uint64_t irqs_handled() const { return handled_total_; }
    // Problems found by the end of the run: interrupts lost or delivered twice. Empty is good.
    std::vector<std::string> final_check(const std::function<bool(unsigned irq)>& still_pending) const;

    // Invariant 'no-ipi-lost', at a switch's outbound entering its power-down
    // (BLS_TRACE_OUTBOUND_DOWN: logical cpu @logical now on @inbound): the outbound, which
    // hosts no logical CPU (@hosts_logical false; true when the switcher was turned off
    // meanwhile, and it is a logical CPU of its own again), has no SGI pending in the GIC
    // but the switcher's and the kernel's physical ones (BLS_SGI_KICK, BLS_SGI_INBOUND_ALIVE):
    // an IPI of the logical CPU sent before the GIC migration was forwarded by it (the send
    // holds the map lock, and GICD_SGIR makes the SGI pending in the distributor at once,
    // however late its delivery), and none sent after targets the outbound. @sgi_sources:
    // GICD_SPENDSGIR's bytes at the outbound, a bit per source CPU. Throws on a violation.
    static void check_no_ipi_lost(std::uint64_t t_ps, unsigned outbound, unsigned logical, unsigned inbound,
                                  bool hosts_logical, const std::uint8_t (&sgi_sources)[16]);

private:
    static std::uint64_t key(unsigned logical, unsigned irq) { return (std::uint64_t(logical) << 32) | irq; }
    // A switch whose inbound was kicked this long before the end of the run without reaching
    // its blackout hangs: invariant 'switch-completes' (100 ms of software, plus what the
    // configured hardware latencies allow: set_hang_bound).
    std::uint64_t switch_hang_ps = software_hang_ps;

    struct open_switch {
        switch_record r;
        double soc_at_request_j = 0;
        double ib_core_at_on_j = 0, ib_core_at_end_j = 0;
        double ob_core_at_start_j = 0, ob_core_at_off_j = 0;
        double ib_uncore_at_up_j = 0, ib_uncore_at_end_j = 0;
        double ob_uncore_at_start_j = 0, ob_uncore_at_down_j = 0;
        double soc_at_done_j = 0;
        bool kicked = false;           // armed: its inbound is powered and kicked
        bool closing = false;          // the outbound is off
        bool awaiting_cluster = false; // ... and its cluster is powering down
        bool settled = false;          // ... and its cluster's power-down ended (or never began)
    };
    // tracepoint's events (enum bls_trace_event) that take more than a line or two: an
    // interrupt handled, a cpufreq transaction begun, a switch requested, its inbound kicked
    // (@s open), its blackout ended (@logical's switch open).
    void irq_handled(std::uint64_t t, unsigned logical, unsigned irq);
    void cpufreq_begun(std::uint64_t t, unsigned logical, unsigned cluster);
    void switch_requested(std::uint64_t t, unsigned logical, unsigned cluster);
    void inbound_kicked(open_switch& s, std::uint64_t t, unsigned outbound, unsigned inbound, unsigned from_cluster);
    void blackout_ended(std::uint64_t t, unsigned logical);
    // A switch requested for @logical to @cluster at @t.
    open_switch request_at(unsigned logical, std::uint64_t t, unsigned cluster);
    // The group of @logical's request being made (cluster migration; 0: none).
    unsigned take_group(unsigned logical);
    void complete(open_switch& s);
    void close_settled(std::uint64_t t_ps); // complete the closing switches not waiting for a cluster
    double core_j(std::uint64_t t, unsigned cpu);
    double uncore_j(std::uint64_t t, unsigned cluster);
    double soc_j(std::uint64_t t);

    const model::energy_meter& meter_;
    std::function<void(std::uint64_t)> advance_;
    std::vector<std::optional<open_switch>> open_;  // per logical CPU, until its blackout ends
    std::vector<std::optional<open_switch>> next_;  // per logical CPU: a request made while its switch is armed
    std::vector<open_switch> closing_;              // past the blackout, until complete
    std::vector<switch_record> done_;
    std::vector<std::optional<std::pair<std::uint64_t, unsigned>>> cpufreq_; // per logical: (t, cluster)
    // Per logical CPU: the group announced for its next switch (BLS_TRACE_SWITCH_GROUP), and
    // the group of the cpufreq transaction it announced (0: none).
    std::vector<unsigned> pending_group_, txn_group_;
    std::vector<std::uint64_t> cluster_up_since_; // per cluster: its power-up start, not yet claimed
    std::vector<double> up_uncore_;               // ... its shared logic's energy then
    std::vector<double> up_lump_seen_;            // power-up energies the meter has charged
    std::map<std::uint64_t, std::uint64_t> raised_, handled_, first_unhandled_;
    model::log_histogram irq_latency_, blackout_, request_to_alive_, total_, dvfs_wait_;
    std::vector<model::log_histogram> step_;
    double overhead_j_ = 0, window_j_ = 0;
    std::uint64_t handled_total_ = 0, merged_total_ = 0;
};

} // namespace blsim::soc
