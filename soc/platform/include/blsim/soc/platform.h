// soc/platform/include/blsim/soc/platform.h -- the composition root: builds the SoC a scenario
// describes, installs the C kernel as the software of every core, wires observers, runs.
//
// SystemC allows one elaboration per process: construct at most one platform per process.
#pragma once

#include <bls/governor.h>
#include <bls/kernel.h>
#include <bls/platform_ops.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "blsim/model/cci.h"
#include "blsim/model/cluster.h"
#include "blsim/model/dram.h"
#include "blsim/model/energy.h"
#include "blsim/model/faults.h"
#include "blsim/model/generic_timer.h"
#include "blsim/model/gic400.h"
#include "blsim/model/jitter.h"
#include "blsim/model/power_controller.h"
#include "blsim/model/router.h"
#include "blsim/model/sram.h"
#include "blsim/soc/os_probe.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/switch_probe.h"
#include "blsim/soc/trace.h"
#include "blsim/workloads/constant_taskset.h"

namespace blsim::soc {

// A simulator bug found during a run: an invariant violated, a SystemC error. main() prints
// "blsim: internal error: <what>" and exits 1 without publishing results.
class internal_error : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

enum class injected_bug; // soc/cli/test_hooks.h: the test build's own

class platform {
public:
    // @mutant: a known-bad variant of the switcher's C code to run (enum bls_mutant), which
    // only a switcher built with its mutants has (blsim-test; soc/cli/test_hooks.h).
    explicit platform(const scenario_config& cfg, unsigned mutant = 0);
    ~platform();

    // Simulate cfg.duration_s and bring the accounting up to the end time.
    // @progress, if given, is called now and then with the simulated time reached and the
    // run's duration (seconds).
    using progress_fn = std::function<void(double, double)>;
    void run(const progress_fn& progress = {});

    const scenario_config& config() const { return cfg_; }
    unsigned ncpus() const { return pc_->ncpus(); }
    unsigned nclusters() const { return static_cast<unsigned>(clusters_.size()); }
    model::cluster& cluster_at(unsigned i) { return *clusters_.at(i); }
    model::core& core_at(unsigned cpu) { return *cores_.at(cpu); }
    const std::vector<model::core*>& cores() const { return cores_; }
    model::power_controller& power() { return *pc_; }
    model::gic400& gic() { return *gic_; }
    model::cci& cci() { return *cci_; }
    model::dram& memory() { return *dram_; }
    model::sram& shared_memory() { return *sram_; }
    model::cluster& cluster_of_cpu(unsigned cpu) { return *clusters_.at(pc_->cluster_of(cpu)); }
    // The core's index within its cluster.
    unsigned core_index(unsigned cpu) const { return cpu - first_cpu_.at(pc_->cluster_of(cpu)); }
    const model::energy_meter& meter() const { return *meter_; }
    // The run's timing jitter (off unless the scenario's jitter.enabled), and its draws.
    const model::jitter_source& jitter() const { return *jitter_; }
    // The run's injected faults (none unless the scenario's faults: configures some): which
    // kinds are configured, and how many of each were injected (faults().injected(kind)).
    const model::fault_source& faults() const { return *faults_; }
    // The CPUs whose injected power-up failure was still in the power controller's timeout
    // when the run ended, each with when it began (s): whatever waited on them (their timers,
    // tasks queued there) had not run since. run() warns of each.
    std::vector<std::pair<unsigned, double>> power_ups_failing_at_end() const;
    // Task @t's runtime so far (ns), the stretch it is running now included.
    std::uint64_t task_runtime_ns(unsigned t) const;
    const bls_kernel& kernel() const { return kernel_; }
    bls_kernel& kernel() { return kernel_; }
    const switch_probe& probe() const { return *probe_; }
    const os_probe& os() const { return *os_probe_; }
    // Guest errors the C code reported: CCI port changes it gave up on.
    std::uint64_t cci_timeouts() const { return cci_timeouts_; }
    // ... CCI port changes it asked again after a timeout, power-ups reported failed to it.
    std::uint64_t cci_retries() const { return cci_retries_; }
    std::uint64_t power_up_failures() const { return power_up_failures_; }

    // Model events processed: work segments, power-state and OPP transitions, timer
    // expiries, device register accesses.
    std::uint64_t events() const;

    // The per-CPU timer interrupt (the generic timer's non-secure physical timer).
    static constexpr unsigned timer_ppi = 30;
    const model::generic_timer& timers() const { return *timer_; }
    const workloads::workload& workload() const { return *workload_; }

    // Timelines (docs/traces.md). Call before run(): @perfetto and @ftrace record what the
    // report's trace_files() writes at the end (blsim/soc/trace_writers.h); @vcd_path (without
    // its .vcd) opens SystemC's VCD file of power states, interrupt lines and clocks, written
    // while the run goes.
    void enable_traces(bool perfetto, bool ftrace, const std::string& vcd_path);
    // The recorder (null: tracing off), which files it records for, and what the writers add
    // to it: the switches' records, the cpufreq policies' limits now.
    const trace_recorder* trace() const { return trace_.get(); }
    bool traces_perfetto() const { return trace_perfetto_; }
    bool traces_ftrace() const { return trace_ftrace_; }
    const std::vector<switch_record>& switch_records() const { return probe_->records(); }
    std::vector<policy_limits> policy_limits_now() const;
    // Flush and close the VCD file (before it is moved into place).
    void close_vcd();

private:
    friend struct platform_ops_impl;
    friend void inject_bug(platform& plat, injected_bug bug);
    // The constructor's steps, in order (each after the ones it needs): the hardware built
    // and wired (soc/platform/src/build_hw.cpp), the device windows mapped on the bus
    // (build_hw.cpp), the timing jitter and injected faults handed to the blocks (build_hw.cpp),
    // the observers wired (soc/platform/src/wire_observers.cpp), the C kernel loaded on the
    // cores, the userspace timeline scheduled.
    void build_hw();
    void map_bus();
    void perturb_hw();
    void wire_observers();
    void load_kernel(unsigned mutant);
    void schedule_timeline();
    // enable_traces' two timelines (wire_observers.cpp).
    void record_trace();
    void record_vcd(const std::string& vcd_path);
    // @what (a CPU or a cluster) lost @dirty_lines > 0 dirty cache lines as its power went:
    // a bug of the C code, and the run stops (no-dirty-line-lost).
    [[noreturn]] void power_loss(std::uint64_t dirty_lines, const std::string& what);
    // The C code saw the hardware misbehave (enum bls_guest_error): warned, counted, the run
    // goes on.
    void guest_error(unsigned cpu, unsigned code, unsigned detail);
    void check_executing(unsigned cpu, bool starting);

    scenario_config cfg_;
    std::unique_ptr<model::jitter_source> jitter_; // before the blocks that draw from it
    std::unique_ptr<model::fault_source> faults_;  // likewise
    std::unique_ptr<model::power_controller> pc_;
    std::vector<std::unique_ptr<model::cluster>> clusters_;
    std::vector<model::core*> cores_;
    std::vector<unsigned> first_cpu_;
    std::unique_ptr<model::clock_domain> gic_clock_;
    std::unique_ptr<model::gic400> gic_;
    std::unique_ptr<model::cci> cci_;
    std::unique_ptr<model::dram> dram_;
    std::unique_ptr<model::sram> sram_;
    std::unique_ptr<model::router> bus_;
    // The GIC drives these from whichever process touched it (a CPU acknowledging, a
    // peripheral raising), possibly two in the same delta cycle; every write is the GIC's
    // whole current level, so the last one is right and no writer check applies.
    using line = sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS>;
    sc_core::sc_vector<line> irq_lines_{"irq_line"};
    sc_core::sc_vector<line> wake_lines_{"wake_line"};
    std::unique_ptr<model::power_model> power_model_;
    std::unique_ptr<model::energy_meter> meter_;
    std::unique_ptr<model::generic_timer> timer_;
    std::unique_ptr<workloads::workload> workload_;
    std::unique_ptr<switch_probe> probe_;
    std::unique_ptr<os_probe> os_probe_;
    std::unique_ptr<trace_recorder> trace_; // null: tracing off
    bool trace_perfetto_ = false, trace_ftrace_ = false;
    std::unique_ptr<vcd_recorder> vcd_; // null: no VCD
    std::string vcd_path_;
    std::vector<int> executing_; // per logical CPU: the CPU running its work, or -1
    std::uint64_t cci_timeouts_ = 0;
    std::uint64_t cci_retries_ = 0;
    std::uint64_t power_up_failures_ = 0;
    // The scenario's userspace writes, by what they write.
    enum class userspace_write { setspeed, switcher_on, switcher_off, tunable, mode };
    struct script_entry {
        double at_ms;
        userspace_write kind;
        unsigned cpu;   // setspeed: the logical CPU written to
        unsigned value; // setspeed: the frequency; tunable: its index in governor.writes;
                        // mode: the mode (enum bls_mode)
    };
    governor_config live_governor_; // the governor's tunables as written so far
    std::vector<script_entry> script_;
    sc_core::sc_event timeline_event_;
    sc_core::sc_event inject_event_;
    std::size_t timeline_next_ = 0;
    void timeline_step();
    // The C kernel's configuration: the SoC as its drivers see it, the scheduler, cpuidle,
    // cpufreq and the governor, the tasks (soc/platform/src/kernel_config.cpp).
    bls_kernel_config kernel_config() const;
    // A doorbell of @logical.
    void raise(unsigned logical, unsigned irq);
    // Not value-initialised: bls_kernel_init sets up all of it that is read (megabytes of
    // per-task tables, sized for BLS_MAX_TASKS, are filled as tasks are added).
    bls_kernel kernel_;
};

// The governor's tunables as the kernel takes them (soc/platform/src/kernel_config.cpp).
bls_governor_tunables governor_tunables(const governor_config& g);

// The platform-operations table implemented over the models (soc/platform/src/platform_ops.cpp).
const bls_platform_ops& systemc_platform_ops();

} // namespace blsim::soc
