// model/include/blsim/model/tlm_util.h -- what travels with a TLM transaction in this model.
#pragma once

#include <tlm>

namespace blsim::model {

// The CPU that issued a transaction: banked registers (GIC) and coherent traffic (CCI) need
// to know. Initiators that are not CPUs leave it absent.
struct cpu_extension : tlm::tlm_extension<cpu_extension> {
    unsigned cpu = 0;
    unsigned cluster = 0;
    // Out, on a read: a register whose value is a function of time may say until when (at
    // the latest) it keeps reading the value just returned, so that a polling CPU can skip
    // the reads that would return it again (core::poll). Zero: no promise.
    sc_core::sc_time steady_until;

    tlm_extension_base* clone() const override { return new cpu_extension(*this); }
    void copy_from(const tlm_extension_base& other) override
    {
        *this = static_cast<const cpu_extension&>(other);
    }
};

// A coherent burst from a cluster: @lines cache lines of software context @ctx. The
// interconnect reports how many were served by snoops. Ordinary execution sends one such
// transaction per cold start of a context rather than one per line (docs/memory.md).
struct coherent_extension : tlm::tlm_extension<coherent_extension> {
    unsigned ctx = 0;
    std::uint64_t lines = 0;
    std::uint64_t snoop_hits = 0; // out

    tlm_extension_base* clone() const override { return new coherent_extension(*this); }
    void copy_from(const tlm_extension_base& other) override
    {
        *this = static_cast<const coherent_extension&>(other);
    }
};

// The issuing CPU of @trans, or @fallback when it carries none.
inline unsigned cpu_of(const tlm::tlm_generic_payload& trans, unsigned fallback = 0)
{
    cpu_extension* ext = nullptr;
    trans.get_extension(ext);
    return ext ? ext->cpu : fallback;
}

} // namespace blsim::model
