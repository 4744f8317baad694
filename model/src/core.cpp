// model/src/core.cpp
#include "blsim/model/core.h"

#include <algorithm>

#include <cmath>
#include <cstring>

#include "blsim/model/invariant.h"
#include "blsim/model/sim_time.h"
#include "blsim/model/tlm_util.h"

namespace blsim::model {

core::core(sc_core::sc_module_name name, unsigned cpu, unsigned cluster,
           const cluster_params& params, clock_domain& clock, power_controller& pc,
           double reference_capacity)
    : sc_module(name), bus("bus"), irq("irq"), wake("wake"), cpu_(cpu), cluster_(cluster),
      capacity_dmips_mhz_(params.capacity_dmips_mhz), clock_(clock), pc_(pc),
      reference_capacity_(reference_capacity)
{
    BLSIM_CHECK(reference_capacity > 0);
    SC_HAS_PROCESS(core);
    SC_THREAD(thread);
    // The software's whole call chain (C kernel, platform verbs, TLM transport into the
    // devices, SystemC reports) runs on this coroutine's stack: SystemC's 64 KiB default is
    // too small, and overflowing it silently corrupts the heap.
    set_stack_size(software_stack_bytes);
    bus.register_invalidate_direct_mem_ptr(this, &core::invalidate_dmi);
    // Every transaction this core issues names it: the extension travels with the reused
    // payload for good (which deletes it), rather than being set and cleared per access.
    ext_ = new cpu_extension;
    ext_->cpu = cpu_;
    ext_->cluster = cluster_;
    trans_.set_extension(ext_);
}

void core::thread()
{
    if (software_)
        software_();
    // Software that returns leaves nothing to run: the core goes off and stays off.
    if (pc_.core_state(cpu_) == core_power::on)
        pc_.core_enter_off(cpu_, take_lead());
}

double core::progress_rate(double mem_fraction) const
{
    // Time per reference ns: the compute part stretches by reference/actual capacity, the
    // memory part does not stretch at all.
    double capacity = static_cast<double>(capacity_dmips_mhz_) * clock_.freq_mhz();
    double ns_per_ref_ns = (1.0 - mem_fraction) * reference_capacity_ / capacity + mem_fraction;
    return 1.0 / ns_per_ref_ns;
}

const sc_core::sc_event_or_list& core::either(sc_core::sc_event_or_list& list, const sc_core::sc_event& a,
                                              const sc_core::sc_event& b)
{
    // Built once (the ports' events exist only after binding): a temporary list per wait
    // would be allocated and freed on every one.
    if (list.size() == 0) {
        list |= a;
        list |= b;
    }
    return list;
}

int core::execute(double ref_ns, double mem_fraction, double* done_ref_ns)
{
    BLSIM_CHECK(pc_.core_state(cpu_) == core_power::on);
    // The work starts at the core's local time. The time ahead of the kernel is waited with
    // the first segment (one context switch, not two); an interrupt or a clock change before
    // the work starts cuts that wait, with no progress made. An interrupt already signalled
    // is looked at on the core's clock, as it would be after a sync.
    sc_core::sc_time lead = take_lead();
    if (lead > sc_core::SC_ZERO_TIME && irq.read() && !irq_masked_) {
        wait(lead);
        lead = sc_core::SC_ZERO_TIME;
    }
    double remaining = ref_ns;
    while (remaining > 0 && !(irq.read() && !irq_masked_)) {
        const double rate = progress_rate(mem_fraction);
        const double need_ps = std::ceil(remaining / rate * 1e3);
        segments_++;
        if (need_ps <= 0) {
            remaining = 0;
            break;
        }
        const sc_core::sc_time need = sc_core::sc_time::from_value(static_cast<std::uint64_t>(need_ps));
        const sc_core::sc_time start = sim_now() + lead;
        if (irq_masked_)
            wait(lead + need, clock_.changed_event());
        else
            wait(lead + need, either(clock_or_irq_, clock_.changed_event(), irq.posedge_event()));
        const sc_core::sc_time now = sim_now();
        if (now < start) {
            lead = start - now; // cut before the work began
            continue;
        }
        lead = sc_core::SC_ZERO_TIME;
        const sc_core::sc_time elapsed = now - start;
        if (elapsed >= need)
            remaining = 0;
        else
            remaining = std::max(0.0, remaining - elapsed.to_seconds() * 1e9 * rate);
    }
    owe(lead); // still ahead, if an interrupt came first
    *done_ref_ns = ref_ns - remaining;
    return remaining > 0 ? 1 : 0;
}

void core::wait_for_interrupt()
{
    sync();
    if (irq.read())
        return;
    pc_.core_enter_wfi(cpu_);
    while (!irq.read())
        wait(irq.posedge_event());
    owe(pc_.core_exit(cpu_));
}

void core::wait_for_event()
{
    // The instruction and the loop around it take a few cycles even when WFE does not sleep
    // (an event already set, an interrupt pending): without them a spin loop would not let
    // simulated time pass, and the CPU it waits for could never get on.
    // A WFE that does not sleep (the event register set, an interrupt pending: a spin loop)
    // is settled, not waited out: if nobody has anything due before the core's time, nothing
    // can set or clear what it looks at, and a loop spinning on a lock whose holder is busy
    // runs its iterations without a context switch each until the holder's next activity.
    // One that may sleep first waits out what it owes, and looks again.
    offset_ += clock_.cycles(wfe_cycles);
    settle();
    // An interrupt is a wake-up event only when not masked (CPSR.I), unlike for WFI: a CPU
    // with interrupts off (MCPM's paths, a switch's blackout) sleeps until an SEV.
    if (!event_register_ && !irq_wakes_wfe()) {
        sync();
        if (!event_register_ && !irq_wakes_wfe()) {
            in_wfe_ = true;
            if (irq_masked_)
                wait(event_);
            else
                wait(either(event_or_irq_, event_, irq.posedge_event()));
            in_wfe_ = false;
            forget_horizon(); // others ran
        }
    }
    event_register_ = false;
}

void core::power_down()
{
    // The local time ahead is waited with the entry latency (one context switch, not two).
    pc_.core_enter_off(cpu_, take_lead());
    // The power controller wakes it when an interrupt targets it (the GIC's wake output)
    // and software has armed its wake-up (WAKE_INT_MASK).
    // A power-up that fails (fault injection) leaves the core off with its wake-up disarmed:
    // it waits for software to re-arm it.
    do {
        while (!(wake.read() && pc_.wakeup_enabled(cpu_)))
            wait(either(wake_or_mask_, wake.posedge_event(), pc_.wakeup_mask_event(cpu_)));
    } while (pc_.core_power_up_fails(cpu_));
    owe(pc_.core_exit(cpu_)); // the software runs once the core is out of reset
    event_register_ = false; // a reset clears it
    irq_masked_ = true;      // and masks interrupts (CPSR.I): software unmasks when it is ready
}

void core::stall(const sc_core::sc_time& t)
{
    offset_ += t;
    settle();
}

sc_core::sc_time core::take_lead()
{
    const sc_core::sc_time lead = offset_;
    offset_ = sc_core::SC_ZERO_TIME;
    owed_ = false;
    return lead;
}

void core::owe(const sc_core::sc_time& t)
{
    if (t == sc_core::SC_ZERO_TIME)
        return;
    offset_ += t;
    owed_ = true;
}

void core::sync()
{
    owed_ = false;
    horizon_known_ = false; // a wait lets others run
    if (offset_ > sc_core::SC_ZERO_TIME) {
        const sc_core::sc_time t = offset_;
        offset_ = sc_core::SC_ZERO_TIME;
        wait(t);
    }
}

// Lookahead. Waiting out the local time only lets the other processes catch up; if none of
// them has anything to do before it (no runnable process, no notification due earlier), no
// one can observe the difference, and the wait (a context switch) is skipped. The time stays
// owed: a device access or a blocking service still waits it out first, since devices act at
// the kernel's time. Shared memory has no such side effects, so a sequence of uncontended
// shared accesses -- MCPM's states and locks while the other cores sleep or compute -- runs
// without a single context switch, and a contended one still interleaves access by access.
void core::settle()
{
    if (offset_ == sc_core::SC_ZERO_TIME)
        return;
    // Asking SystemC costs a few hundred instructions, and MCPM's sequences make runs of
    // shared accesses: between them nothing can have changed what is pending (forget_horizon()).
    if (!horizon_known_) {
        horizon_ = sc_core::sc_time_to_pending_activity();
        horizon_known_ = true;
    }
    if (offset_ < horizon_)
        owed_ = true; // skipped, not forgiven: the next device access waits it out
    else
        sync();
}

std::uint32_t core::access(std::uint64_t addr, bool write, std::uint32_t value, unsigned bytes,
                           sc_core::sc_time* steady_until)
{
    if (owed_)
        sync(); // devices act at the kernel's time: what is owed is waited out first
    value = transport(addr, write, value, bytes, steady_until);
    if (offset_ > quantum_)
        sync();
    return value;
}

std::uint32_t core::transport(std::uint64_t addr, bool write, std::uint32_t value, unsigned bytes,
                              sc_core::sc_time* steady_until)
{
    tlm::tlm_generic_payload& trans = trans_;
    ext_->steady_until = sc_core::SC_ZERO_TIME; // no promise unless this target makes one
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    trans.set_data_length(bytes);
    trans.set_streaming_width(bytes);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const sc_core::sc_time before = offset_;
    bus->b_transport(trans, offset_);
    // The load or store takes the core at least a cycle, whatever the device: a polling loop
    // over a register that answers at once must still let simulated time pass.
    if (offset_ == before)
        offset_ += clock_.cycles(1);
    if (steady_until)
        *steady_until = ext_->steady_until;
    mmio_accesses_++;
    if (!trans.is_response_ok())
        value = 0; // a decode error reads as zero (the router has warned)
    return value;
}

std::uint32_t core::mmio_read(std::uint64_t addr) { return access(addr, false, 0, 4); }

std::uint32_t core::poll(std::uint64_t addr, std::uint32_t mask, const sc_core::sc_time& timeout)
{
    const sc_core::sc_time start = sim_now() + offset_;
    for (;;) {
        const sc_core::sc_time issued = sim_now() + offset_;
        sc_core::sc_time steady;
        const std::uint32_t v = access(addr, false, 0, 4, &steady);
        const sc_core::sc_time done = sim_now() + offset_;
        if (!(v & mask) || done - start > timeout)
            return v;
        // The next reads are issued one access apart; those before @steady read @v again.
        // Count them and their time, and make only the first read past it.
        const sc_core::sc_time each = done - issued;
        if (steady > done && each > sc_core::SC_ZERO_TIME) {
            const std::uint64_t e = each.value();
            std::uint64_t skip = (steady.value() - issued.value() - 1) / e; // reads still before it
            const std::uint64_t budget = (start + timeout - done).value() / e; // ... and the timeout
            skip = std::min(skip, budget);
            if (skip > 0) {
                offset_ += sc_core::sc_time::from_value(skip * e);
                mmio_accesses_ += skip;
                if (offset_ > quantum_)
                    sync();
            }
        }
    }
}

void core::mmio_write(std::uint64_t addr, std::uint32_t value) { access(addr, true, value, 4); }

// A shared access happens at the core's exact time: every shared access of the other cores
// before it in simulated time has happened, none after. Its latency is then owed, and waited
// out before anything else the core does touches the system (the next shared or device
// access, a barrier, a blocking service): others observe the same times as if it had been
// waited at once, with one context switch less per access.
std::uint32_t core::shared_read(std::uint64_t addr, unsigned bytes)
{
    settle();
    const std::uint32_t v = shared_access(addr, false, 0, bytes);
    owed_ = true;
    return v;
}

void core::shared_write(std::uint64_t addr, unsigned bytes, std::uint32_t value)
{
    settle();
    shared_access(addr, true, value, bytes);
    owed_ = true;
}

namespace {

// A copy of a shared access's 1, 2 or 4 bytes (MCPM's states and locks: a word or a byte),
// each size a constant the compiler turns into one load and store, not a call to memcpy.
void copy_access(void* to, const void* from, unsigned bytes)
{
    switch (bytes) {
    case 4: std::memcpy(to, from, 4); break;
    case 1: std::memcpy(to, from, 1); break;
    case 2: std::memcpy(to, from, 2); break;
    default: std::memcpy(to, from, bytes); break;
    }
}

} // namespace

// Shared memory is plain memory: after the first transaction to it the core holds a direct
// pointer (TLM-2.0 DMI) and its later accesses are a copy and the granted latency, the same
// bytes and the same time as the transaction, without the bus.
std::uint32_t core::shared_access(std::uint64_t addr, bool write, std::uint32_t value, unsigned bytes)
{
    if (dmi_valid_ && addr >= dmi_.get_start_address() && addr + bytes - 1 <= dmi_.get_end_address()) {
        unsigned char* p = dmi_.get_dmi_ptr() + (addr - dmi_.get_start_address());
        if (write) {
            copy_access(p, &value, bytes);
            offset_ += jitter_.apply(dmi_.get_write_latency(), jitter_class::shared_memory);
        } else {
            value = 0;
            copy_access(&value, p, bytes);
            offset_ += jitter_.apply(dmi_.get_read_latency(), jitter_class::shared_memory);
        }
        mmio_accesses_++;
        return value;
    }
    const sc_core::sc_time before = offset_;
    forget_horizon(); // through the bus, to a target that might notify
    value = transport(addr, write, value, bytes, nullptr);
    if (jitter_.enabled())
        offset_ = before + jitter_.apply(offset_ - before, jitter_class::shared_memory);
    if (trans_.is_dmi_allowed()) {
        trans_.set_address(addr);
        dmi_valid_ = bus->get_direct_mem_ptr(trans_, dmi_) && dmi_.is_read_write_allowed();
    }
    return value;
}

void core::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end)
{
    if (dmi_valid_ && start <= dmi_.get_end_address() && end >= dmi_.get_start_address())
        dmi_valid_ = false;
}

} // namespace blsim::model
