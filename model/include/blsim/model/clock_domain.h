// model/include/blsim/model/clock_domain.h -- a clock domain: the frequency its blocks run at.
//
// Latencies anywhere in the model are in cycles of the owning domain and converted here at
// the current frequency, so a DVFS change is seen by every block in the domain. Blocks that
// have work in flight wait on changed_event() and recompute their completion times.
#pragma once

#include <systemc>

#include "blsim/model/observable.h"

namespace blsim::model {

class clock_domain {
public:
    clock_domain(std::string name, int freq_mhz);

    const std::string& name() const { return name_; }
    int freq_mhz() const { return freq_mhz_; }

    // Duration of @cycles at the current frequency, rounded up to the time resolution.
    sc_core::sc_time cycles(double cycles) const;

    // Called by the DVFS controller only.
    void set_freq_mhz(int freq_mhz);

    const sc_core::sc_event& changed_event() const { return changed_; }
    observable<int /*old_mhz*/, int /*new_mhz*/> changed;

private:
    sc_core::sc_time convert(double cycles) const;

    std::string name_;
    int freq_mhz_;
    sc_core::sc_event changed_;
    // The few whole-cycle latencies the models use (an access, a register, a handshake step)
    // are converted on every access: each is kept with the frequency it was converted at.
    static constexpr int memo_cycles = 64;
    mutable sc_core::sc_time memo_[memo_cycles];
    mutable int memo_mhz_[memo_cycles] = {};
    // The larger ones recur as well (a line fill of the DRAM, an L1 or L2 clean of so many
    // lines, the CCI's snoop set-up): a few kept by their exact value, found by its bits.
    struct converted {
        double cycles;
        int mhz = 0; // 0: empty (a frequency is positive)
        sc_core::sc_time time;
    };
    static constexpr unsigned memo_values = 16;
    mutable converted recent_[memo_values];
    sc_core::sc_time convert_recalled(double cycles) const;
};

inline sc_core::sc_time clock_domain::cycles(double cycles) const
{
    if (cycles >= 0 && cycles < memo_cycles) {
        const int n = static_cast<int>(cycles);
        if (n == cycles) {
            if (memo_mhz_[n] != freq_mhz_) {
                memo_[n] = convert(cycles);
                memo_mhz_[n] = freq_mhz_;
            }
            return memo_[n];
        }
    }
    return convert_recalled(cycles);
}

} // namespace blsim::model
