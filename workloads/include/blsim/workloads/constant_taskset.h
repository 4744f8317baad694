// workloads/include/blsim/workloads/constant_taskset.h -- periodic tasks of constant utilisation.
//
// Each task is released every period_ms, starting at offset_ms, with util_pct of the period
// as work measured on the reference CPU (the SoC's fastest core at its top OPP). On a slower
// core or OPP the same work takes longer; a task whose work does not fit accumulates backlog.
// No randomness: the same parameters give the same releases.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

namespace blsim::workloads {

struct task_params {
    std::string name;
    int cpu = 0;
    double util_pct = 0;     // of the reference CPU, per period
    double period_ms = 0;
    double offset_ms = 0;    // first release
    double mem_fraction = 0; // share of the work that is memory stall
    int working_set_kb = 0;  // data the task touches each time it runs (0: caches not modelled)
    double write_fraction = 0.25; // share of that data it dirties
};

class constant_taskset : public sc_core::sc_module {
public:
    // @release is called at each release with the task's index and its work in reference ns.
    using release_fn = std::function<void(unsigned task, double ref_ns)>;

    constant_taskset(sc_core::sc_module_name name, std::vector<task_params> tasks,
                     release_fn release);

    std::uint64_t releases() const { return releases_; }

private:
    void on_timer();

    std::vector<task_params> tasks_;
    std::vector<sc_core::sc_time> next_;
    release_fn release_;
    std::uint64_t releases_ = 0;
};

} // namespace blsim::workloads
