// model/src/gic400.cpp
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "blsim/model/gic400.h"

#include <algorithm>
#include <cmath>

#include "blsim/model/invariant.h"
#include "blsim/model/sim_time.h"
#include "blsim/model/tlm_util.h"

namespace blsim::model {

namespace {

// Apply a set-bit / clear-bit register write: call @fn for each bit set in @value, lowest
// first (a write sets one bit or a few).
template <class F>
void for_each_bit(std::uint32_t value, F fn)
{
    for (; value != 0; value &= value - 1)
        fn(static_cast<unsigned>(__builtin_ctz(value)));
}

// Apply a byte-per-interrupt register write: call @fn for each byte lane the access writes.
template <class F>
void for_each_byte(std::uint32_t value, std::uint32_t mask, F fn)
{
    for (unsigned k = 0; k < 4; k++)
        if ((mask >> (8 * k)) & 0xff)
            fn(k, static_cast<std::uint8_t>(value >> (8 * k)));
}

// GIC-400 implements 32 priority levels: the low three bits read as zero.
constexpr std::uint8_t priority_mask = 0xf8;

} // namespace

gic400::gic400(sc_core::sc_module_name name, unsigned ncpus, const gic_params& params,
               clock_domain& clock)
    : sc_module(name), dist_socket("dist_socket"), cpu_socket("cpu_socket"), irq("irq", ncpus),
      wake("wake", ncpus), ncpus_(ncpus), nirqs_(nprivate + static_cast<unsigned>(params.spis)),
      params_(params), clock_(clock), cpus_(ncpus), spis_(static_cast<std::size_t>(params.spis)),
      spi_pending_bits_((static_cast<std::size_t>(params.spis) + 31) / 32, 0),
      dist_regs_(std::string(basename()) + ".distributor"), cpu_regs_(std::string(basename()) + ".cpu_interface"),
      irq_level_(ncpus, false), wake_level_(ncpus, false)
{
    BLSIM_CHECK(ncpus >= 1 && ncpus <= max_cpus);
    BLSIM_CHECK(params.spis >= 0 && nirqs_ % 32 == 0 && nirqs_ <= 1020);
    // GIC-400 implements the SGI enables as always set (GICD_ISENABLER0[15:0] read as one).
    for (cpu_state& c : cpus_)
        for (unsigned id = 0; id < nsgi; id++)
            c.priv[id].enabled = true;
    dist_socket.register_b_transport(this, &gic400::b_transport_dist);
    cpu_socket.register_b_transport(this, &gic400::b_transport_cpu);
    declare_dist_registers();
    declare_cpu_registers();
}

gic400::irq_state& gic400::state(unsigned cpu, unsigned id)
{
    return id < nprivate ? cpus_.at(cpu).priv[id] : spis_.at(id - nprivate);
}

// --- register tables -----------------------------------------------------------------------

// The distributor's registers, in the order they are declared (where two overlap, the
// first declared wins): its control and identification, the bit-per-interrupt registers,
// the per-interrupt fields, the SGIs'.
void gic400::declare_dist_registers()
{
    declare_dist_control_registers();
    declare_dist_bit_registers();
    declare_dist_field_registers();
    declare_dist_sgi_registers();
}

void gic400::declare_dist_control_registers()
{
    reg_table& t = dist_regs_;
    t.add({"GICD_CTLR", GICD_CTLR, 1, reg_access::rw,
           [this](unsigned, unsigned) { return dist_enabled_ ? 1u : 0u; },
           [this](unsigned, unsigned, std::uint32_t v, std::uint32_t m) {
               if (m & 1) {
                   dist_enabled_ = v & 1;
                   update();
               }
           }});
    t.add({"GICD_TYPER", GICD_TYPER, 1, reg_access::ro,
           [this](unsigned, unsigned) { return (nirqs_ / 32 - 1) | ((ncpus_ - 1) << 5); }, nullptr});
    t.add({"GICD_IIDR", GICD_IIDR, 1, reg_access::ro,
           [](unsigned, unsigned) { return 0x0200143bu; }, nullptr}); // GIC-400, ARM
}

void gic400::declare_dist_bit_registers()
{
    reg_table& t = dist_regs_;
    const unsigned words = nirqs_ / 32;
    // A bit-per-interrupt register reads one property of 32 interrupts.
    auto bits = [](auto property) {
        return [property](unsigned cpu, unsigned w) {
            std::uint32_t v = 0;
            for (unsigned b = 0; b < 32; b++)
                v |= (property(cpu, 32 * w + b) ? 1u : 0u) << b;
            return v;
        };
    };
    auto enabled = [this](unsigned cpu, unsigned id) { return state(cpu, id).enabled; };
    auto pending = [this](unsigned cpu, unsigned id) { return is_pending(cpu, id); };
    auto active = [this](unsigned cpu, unsigned id) { return state(cpu, id).active; };
    // A set/clear register acts on each interrupt whose bit is written. SGIs are left out:
    // their enables are fixed on GIC-400 and they are made pending through GICD_SGIR or
    // GICD_SPENDSGIR only.
    auto act_on_bits = [this](auto action) {
        return [this, action](unsigned cpu, unsigned w, std::uint32_t v, std::uint32_t) {
            std::uint32_t cpus = 0;
            for_each_bit(v, [&](unsigned b) {
                if (32 * w + b >= nsgi) {
                    action(cpu, 32 * w + b);
                    cpus |= configured(cpu, 32 * w + b);
                }
            });
            update(cpus);
        };
    };

    t.add({"GICD_ISENABLER", GICD_ISENABLER, words, reg_access::rw,
           bits(enabled),
           act_on_bits([this](unsigned cpu, unsigned id) { state(cpu, id).enabled = true; })});
    t.add({"GICD_ICENABLER", GICD_ICENABLER, words, reg_access::rw,
           bits(enabled),
           act_on_bits([this](unsigned cpu, unsigned id) { state(cpu, id).enabled = false; })});
    t.add({"GICD_ISPENDR", GICD_ISPENDR, words, reg_access::rw,
           bits(pending),
           act_on_bits([this](unsigned cpu, unsigned id) { set_pending(cpu, id, true); })});
    t.add({"GICD_ICPENDR", GICD_ICPENDR, words, reg_access::rw,
           bits(pending),
           act_on_bits([this](unsigned cpu, unsigned id) { set_pending(cpu, id, false); })});
    t.add({"GICD_ISACTIVER", GICD_ISACTIVER, words, reg_access::ro,
           bits(active),
           nullptr});
}

// A byte (or two bits) per interrupt: priority, targets, configuration.
void gic400::declare_dist_field_registers()
{
    reg_table& t = dist_regs_;
    t.add({"GICD_IPRIORITYR", GICD_IPRIORITYR, nirqs_ / 4, reg_access::rw,
           [this](unsigned cpu, unsigned w) {
               std::uint32_t v = 0;
               for (unsigned k = 0; k < 4; k++)
                   v |= static_cast<std::uint32_t>(state(cpu, 4 * w + k).priority) << (8 * k);
               return v;
           },
           [this](unsigned cpu, unsigned w, std::uint32_t v, std::uint32_t m) {
               std::uint32_t cpus = 0;
               for_each_byte(v, m, [&](unsigned k, std::uint8_t p) {
                   state(cpu, 4 * w + k).priority = p & priority_mask;
                   cpus |= configured(cpu, 4 * w + k);
               });
               update(cpus);
           }});
    t.add({"GICD_ITARGETSR", GICD_ITARGETSR, nirqs_ / 4, reg_access::rw,
           [this](unsigned cpu, unsigned w) {
               // Words 0-7 (SGIs, PPIs) are banked: every byte is the reader's own bit.
               if (w < nprivate / 4)
                   return 0x01010101u * (1u << cpu);
               std::uint32_t v = 0;
               for (unsigned k = 0; k < 4; k++)
                   v |= static_cast<std::uint32_t>(state(cpu, 4 * w + k).targets) << (8 * k);
               return v;
           },
           [this](unsigned cpu, unsigned w, std::uint32_t v, std::uint32_t m) {
               if (w < nprivate / 4)
                   return; // read-only: writes ignored, as the architecture says
               const std::uint8_t present = static_cast<std::uint8_t>((1u << ncpus_) - 1);
               for_each_byte(v, m, [&](unsigned k, std::uint8_t targets) {
                   state(cpu, 4 * w + k).targets = targets & present;
               });
               update();
           }});
    t.add({"GICD_ICFGR", GICD_ICFGR, nirqs_ / 16, reg_access::rw,
           [this](unsigned cpu, unsigned w) {
               std::uint32_t v = 0;
               for (unsigned k = 0; k < 16; k++)
                   v |= (state(cpu, 16 * w + k).edge ? 2u : 0u) << (2 * k);
               return v;
           },
           [this](unsigned cpu, unsigned w, std::uint32_t v, std::uint32_t m) {
               if (w == 0)
                   return; // SGIs: always edge, read-only
               for (unsigned k = 0; k < 16; k++)
                   if ((m >> (2 * k)) & 2)
                       state(cpu, 16 * w + k).edge = (v >> (2 * k)) & 2;
           }});
}

void gic400::declare_dist_sgi_registers()
{
    reg_table& t = dist_regs_;
    t.add({"GICD_SGIR", GICD_SGIR, 1, reg_access::wo, nullptr,
           [this](unsigned cpu, unsigned, std::uint32_t v, std::uint32_t) { send_sgi(cpu, v); }});
    t.add({"GICD_CPENDSGIR", GICD_CPENDSGIR, nsgi / 4, reg_access::rw,
           [this](unsigned cpu, unsigned w) {
               std::uint32_t v = 0;
               for (unsigned k = 0; k < 4; k++)
                   v |= static_cast<std::uint32_t>(cpus_[cpu].sgi_sources[4 * w + k]) << (8 * k);
               return v;
           },
           [this](unsigned cpu, unsigned w, std::uint32_t v, std::uint32_t m) {
               for_each_byte(v, m, [&](unsigned k, std::uint8_t src) {
                   cpus_[cpu].sgi_sources[4 * w + k] &= static_cast<std::uint8_t>(~src);
                   sync_pending_mask(cpu, 4 * w + k);
               });
               update();
           }});
    t.add({"GICD_SPENDSGIR", GICD_SPENDSGIR, nsgi / 4, reg_access::rw,
           [this](unsigned cpu, unsigned w) {
               std::uint32_t v = 0;
               for (unsigned k = 0; k < 4; k++)
                   v |= static_cast<std::uint32_t>(cpus_[cpu].sgi_sources[4 * w + k]) << (8 * k);
               return v;
           },
           [this](unsigned cpu, unsigned w, std::uint32_t v, std::uint32_t m) {
               const std::uint8_t present = static_cast<std::uint8_t>((1u << ncpus_) - 1);
               for_each_byte(v, m, [&](unsigned k, std::uint8_t src) {
                   cpus_[cpu].sgi_sources[4 * w + k] |= src & present;
                   sync_pending_mask(cpu, 4 * w + k);
               });
               update();
           }});
}

void gic400::declare_cpu_registers()
{
    reg_table& t = cpu_regs_;
    t.add({"GICC_CTLR", GICC_CTLR, 1, reg_access::rw,
           [this](unsigned cpu, unsigned) { return cpus_[cpu].enabled ? 1u : 0u; },
           [this](unsigned cpu, unsigned, std::uint32_t v, std::uint32_t m) {
               if (m & 1) {
                   cpus_[cpu].enabled = v & 1;
                   update(1u << cpu); // its own interface
               }
           }});
    t.add({"GICC_PMR", GICC_PMR, 1, reg_access::rw,
           [this](unsigned cpu, unsigned) { return static_cast<std::uint32_t>(cpus_[cpu].pmr); },
           [this](unsigned cpu, unsigned, std::uint32_t v, std::uint32_t m) {
               if (m & 0xff) {
                   cpus_[cpu].pmr = static_cast<std::uint8_t>(v) & priority_mask;
                   update(1u << cpu);
               }
           }});
    t.add({"GICC_BPR", GICC_BPR, 1, reg_access::rw,
           [this](unsigned cpu, unsigned) { return static_cast<std::uint32_t>(cpus_[cpu].bpr); },
           [this](unsigned cpu, unsigned, std::uint32_t v, std::uint32_t) {
               cpus_[cpu].bpr = static_cast<std::uint8_t>(v & 7);
           }});
    t.add({"GICC_IAR", GICC_IAR, 1, reg_access::ro,
           [this](unsigned cpu, unsigned) { return acknowledge(cpu); }, nullptr});
    t.add({"GICC_EOIR", GICC_EOIR, 1, reg_access::wo, nullptr,
           [this](unsigned cpu, unsigned, std::uint32_t v, std::uint32_t) { end_of_interrupt(cpu, v); }});
    t.add({"GICC_RPR", GICC_RPR, 1, reg_access::ro,
           [this](unsigned cpu, unsigned) { return static_cast<std::uint32_t>(running_priority(cpu)); },
           nullptr});
    t.add({"GICC_HPPIR", GICC_HPPIR, 1, reg_access::ro,
           [this](unsigned cpu, unsigned) {
               std::uint32_t id = best_pending(cpu, false);
               if (id < nsgi) {
                   std::uint8_t src = cpus_[cpu].sgi_sources[id];
                   id |= static_cast<std::uint32_t>(__builtin_ctz(src)) << 10;
               }
               return id;
           },
           nullptr});
}

// --- transport ----------------------------------------------------------------------------

void gic400::b_transport_dist(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    dist_regs_.access(cpu_of(trans), trans);
    delay += jitter_.apply(clock_.cycles(params_.access_cycles), jitter_class::register_access);
}

void gic400::b_transport_cpu(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay)
{
    cpu_regs_.access(cpu_of(trans), trans);
    delay += jitter_.apply(clock_.cycles(params_.access_cycles), jitter_class::register_access);
}

// --- interrupt logic ----------------------------------------------------------------------

void gic400::set_pending(unsigned cpu, unsigned id, bool pending)
{
    BLSIM_CHECK(id >= nsgi && "SGIs are pending per source");
    irq_state& s = state(cpu, id);
    if (id >= nprivate && s.pending != pending) {
        const unsigned i = id - nprivate;
        spi_pending_bits_[i / 32] ^= 1u << (i % 32);
        spis_pending_ += pending ? 1 : -1;
    }
    s.pending = pending;
    if (id < nprivate)
        sync_pending_mask(cpu, id);
}

void gic400::sync_pending_mask(unsigned cpu, unsigned id)
{
    cpu_state& c = cpus_[cpu];
    const bool p = id < nsgi ? c.sgi_sources[id] != 0 : c.priv[id].pending;
    c.pending_mask = p ? c.pending_mask | (1u << id) : c.pending_mask & ~(1u << id);
}

bool gic400::is_pending(unsigned cpu, unsigned id) const
{
    if (id < nsgi)
        return cpus_[cpu].sgi_sources[id] != 0;
    return id < nprivate ? cpus_[cpu].priv[id].pending : spis_[id - nprivate].pending;
}

std::uint8_t gic400::running_priority(unsigned cpu) const
{
    std::uint8_t rp = 0xff;
    for (std::uint32_t id : cpus_[cpu].active_stack) {
        const irq_state& s = id < nprivate ? cpus_[cpu].priv[id] : spis_[id - nprivate];
        rp = std::min(rp, s.priority);
    }
    return rp;
}

std::uint32_t gic400::best_pending(unsigned cpu, bool for_wake) const
{
    if (!dist_enabled_)
        return spurious;
    const cpu_state& c = cpus_[cpu];
    if (!for_wake && !c.enabled)
        return spurious;
    if (c.pending_mask == 0 && spis_pending_ == 0)
        return spurious; // nothing pending anywhere: the common case of update()
    // Signalled only when of strictly higher priority than the mask and the running priority.
    const unsigned threshold = for_wake ? 0x100u : std::min<unsigned>(c.pmr, running_priority(cpu));
    std::uint32_t best = spurious;
    unsigned best_prio = threshold;
    auto consider = [&](std::uint32_t id, const irq_state& s, bool pending) {
        if (pending && s.enabled && !s.active && s.priority < best_prio) {
            best = id;
            best_prio = s.priority;
        }
    };
    // Only the private interrupts that are pending (and have reached the CPU interface):
    // usually none or one.
    for (std::uint32_t m = c.pending_mask & ~c.sgi_in_flight; m != 0; m &= m - 1) {
        const unsigned id = static_cast<unsigned>(__builtin_ctz(m));
        consider(id, c.priv[id], true);
    }
    // Only the SPIs that are pending: usually none or one.
    for (unsigned w = 0; spis_pending_ != 0 && w < spi_pending_bits_.size(); w++)
        for (std::uint32_t m = spi_pending_bits_[w]; m != 0; m &= m - 1) {
            const unsigned i = 32 * w + static_cast<unsigned>(__builtin_ctz(m));
            consider(nprivate + i, spis_[i], (spis_[i].targets & (1u << cpu)) != 0);
        }
    return best;
}

std::uint32_t gic400::acknowledge(unsigned cpu)
{
    if (cpus_[cpu].phantom) {
        // An injected spurious IRQ: this read finds nothing behind it, whatever is pending;
        // the line falls back to what the pending state says.
        cpus_[cpu].phantom = false;
        spurious_++;
        update(1u << cpu);
        return spurious;
    }
    const std::uint32_t id = best_pending(cpu, false);
    if (id == spurious) {
        spurious_++;
        return spurious;
    }
    cpu_state& c = cpus_[cpu];
    std::uint32_t value = id;
    if (id < nsgi) {
        const unsigned src = static_cast<unsigned>(__builtin_ctz(c.sgi_sources[id]));
        c.sgi_sources[id] &= static_cast<std::uint8_t>(~(1u << src));
        sync_pending_mask(cpu, id);
        c.sgi_active_src[id] = static_cast<std::uint8_t>(src);
        value |= src << 10;
    } else {
        set_pending(cpu, id, false);
    }
    irq_state& s = state(cpu, id);
    s.active = true;
    s.active_cpu = cpu;
    c.active_stack.push_back(id);
    irqs_delivered_++;
    update(affected(cpu, id));
    return value;
}

void gic400::end_of_interrupt(unsigned cpu, std::uint32_t value)
{
    const std::uint32_t id = value & 0x3ff;
    cpu_state& c = cpus_[cpu];
    auto it = std::find(c.active_stack.begin(), c.active_stack.end(), id);
    if (id >= nirqs_ || it == c.active_stack.end()) {
        guest_errors_++;
        SC_REPORT_WARNING("blsim/gic400", ("EOI of interrupt " + std::to_string(id) +
                                           ", which is not active on cpu" + std::to_string(cpu))
                                              .c_str());
        return;
    }
    c.active_stack.erase(it);
    irq_state& s = state(cpu, id);
    s.active = false;
    if (id >= nsgi && !s.edge && s.line)
        set_pending(cpu, id, true); // a level-sensitive line still high pends again
    update(affected(cpu, id));
}

void gic400::send_sgi(unsigned from, std::uint32_t value)
{
    const unsigned filter = (value >> 24) & 3;
    const unsigned id = value & 0xf;
    std::uint32_t targets = 0;
    switch (filter) {
    case 0: targets = (value >> 16) & 0xff; break;
    case 1: targets = ((1u << ncpus_) - 1) & ~(1u << from); break;
    case 2: targets = 1u << from; break;
    default:
        guest_errors_++;
        SC_REPORT_WARNING("blsim/gic400", "GICD_SGIR with the reserved target filter 3 (ignored)");
        return;
    }
    const bool delayed = sgi_jitter_.enabled(jitter_class::sgi_delivery);
    for (unsigned t = 0; t < ncpus_; t++) {
        if (targets & (1u << t)) {
            // Injected: lost on its way to a powered-down CPU (an eligible SGI per such target).
            if (wakeup_lost_.enabled() && cpu_powered_off_(t) && wakeup_lost_.fires(sim_now())) {
                sgis_lost_++;
                irqs_raised_++; // sent all the same
                continue;
            }
            const bool was_pending = cpus_[t].sgi_sources[id] != 0;
            cpus_[t].sgi_sources[id] |= static_cast<std::uint8_t>(1u << from);
            sync_pending_mask(t, id);
            irqs_raised_++;
            if (delayed)
                delay_sgi(t, id, was_pending);
        }
    }
    update(targets);
}

void gic400::set_jitter(jitter_source& source)
{
    jitter_ = source.stream("gic400");
    sgi_jitter_ = source.stream("gic400.sgi");
    if (sgi_jitter_.enabled(jitter_class::sgi_delivery)) {
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.set_sensitivity(&sgi_due_);
        opts.dont_initialize();
        sc_core::sc_spawn([this] { deliver_sgis(); }, "sgi_delivery", &opts);
    }
}

void gic400::set_faults(fault_source& source, std::function<bool(unsigned cpu)> cpu_powered_off)
{
    faults_ = &source;
    cpu_powered_off_ = std::move(cpu_powered_off);
    wakeup_lost_ = cpu_powered_off_ ? source.stream(fault_kind::wakeup_lost, "gic400") : fault{};
    spurious_arrival_ = source.stream(fault_kind::spurious_irq, "gic400.arrivals");
    spurious_cpu_ = source.stream(fault_kind::spurious_irq, "gic400.cpu");
    if (spurious_arrival_.enabled())
        sc_core::sc_spawn([this] { spurious_arrivals(); }, "spurious_irq");
}

void gic400::spurious_arrivals()
{
    // Two sources merged in time order: random arrivals, exponential intervals of mean
    // interval_us (a Poisson process), and the listed times. The thread ends when neither has
    // another: it never polls.
    const std::vector<sc_core::sc_time>& at = faults_->times(fault_kind::spurious_irq);
    const double mean_ps = faults_->params().spurious_irq.interval_us * 1e6;
    auto interval = [&] {
        const double u = spurious_arrival_.next_unit(); // [0, 1): 1 - u in (0, 1]
        return sc_core::sc_time::from_value(static_cast<std::uint64_t>(-mean_ps * std::log1p(-u) + 0.5));
    };
    const bool random = mean_ps > 0;
    sc_core::sc_time next_random = random ? interval() : sc_core::SC_ZERO_TIME;
    std::size_t next_at = 0;
    for (;;) {
        const bool listed = next_at < at.size() && (!random || at[next_at] <= next_random);
        if (!listed && !random)
            return;
        const sc_core::sc_time due = listed ? at[next_at] : next_random;
        spurious_due_.notify(due - sim_now());
        wait(spurious_due_);
        if (listed)
            next_at++;
        else
            next_random += interval();
        inject_spurious();
    }
}

void gic400::inject_spurious()
{
    unsigned candidates[max_cpus];
    unsigned n = 0;
    for (unsigned cpu = 0; cpu < ncpus_; cpu++)
        if (cpus_[cpu].enabled)
            candidates[n++] = cpu;
    if (n == 0)
        return; // no CPU could see it: skipped, nothing drawn
    const unsigned cpu = candidates[std::min(n - 1, static_cast<unsigned>(spurious_cpu_.next_unit() * n))];
    if (cpus_[cpu].phantom)
        return; // merges into the one not yet read
    cpus_[cpu].phantom = true;
    spurious_injected_++;
    faults_->count(fault_kind::spurious_irq);
    update(1u << cpu);
}

void gic400::delay_sgi(unsigned cpu, unsigned id, bool was_pending)
{
    cpu_state& c = cpus_[cpu];
    const std::uint32_t bit = 1u << id;
    const sc_core::sc_time d = sgi_jitter_.delay(jitter_class::sgi_delivery);
    const sc_core::sc_time now = sim_now();
    if (was_pending && !(c.sgi_in_flight & bit))
        return; // already signalled: another source changes nothing the CPU interface sees
    if (d == sc_core::SC_ZERO_TIME) {
        c.sgi_in_flight &= ~bit; // arrives at once
        return;
    }
    // The first delivery to arrive makes the SGI visible, with every source pending by then.
    const sc_core::sc_time at = now + d;
    if (was_pending && c.sgi_arrival[id] <= at)
        return;
    c.sgi_in_flight |= bit;
    c.sgi_arrival[id] = at;
    sgi_flights_.push({at, sgi_seq_++, cpu, id});
    sgi_due_.notify(d); // the earlier of this and a notification already pending
}

void gic400::deliver_sgis()
{
    const sc_core::sc_time now = sim_now();
    std::uint32_t cpus = 0;
    while (!sgi_flights_.empty() && sgi_flights_.top().at <= now) {
        const sgi_flight f = sgi_flights_.top();
        sgi_flights_.pop();
        cpu_state& c = cpus_[f.cpu];
        // A later send may have moved the arrival (earlier), or cleared and re-sent it (later).
        if ((c.sgi_in_flight >> f.id & 1u) && c.sgi_arrival[f.id] <= now) {
            c.sgi_in_flight &= ~(1u << f.id);
            cpus |= 1u << f.cpu;
        }
    }
    if (cpus)
        update(cpus);
    if (!sgi_flights_.empty())
        sgi_due_.notify(sgi_flights_.top().at - now);
}

void gic400::raise_ppi(unsigned cpu, unsigned id)
{
    BLSIM_CHECK(id >= nsgi && id < nprivate && cpu < ncpus_);
    set_pending(cpu, id, true);
    irqs_raised_++;
    update(1u << cpu);
}

void gic400::set_ppi_level(unsigned cpu, unsigned id, bool level)
{
    BLSIM_CHECK(id >= nsgi && id < nprivate && cpu < ncpus_);
    irq_state& s = state(cpu, id);
    s.edge = false; // a PPI driven by a line: the GIC-400's fixed, level configuration
    if (level && !s.line) {
        irqs_raised_++;
        if (!s.active)
            set_pending(cpu, id, true);
    } else if (!level) {
        set_pending(cpu, id, false);
    }
    s.line = level;
    update(1u << cpu);
}

void gic400::raise_spi(unsigned id)
{
    BLSIM_CHECK(id >= nprivate && id < nirqs_);
    set_pending(0, id, true);
    irqs_raised_++;
    update();
}

void gic400::set_spi_level(unsigned id, bool level)
{
    BLSIM_CHECK(id >= nprivate && id < nirqs_);
    irq_state& s = spis_[id - nprivate];
    if (level && !s.line) {
        irqs_raised_++;
        if (!s.active)
            set_pending(0, id, true);
    } else if (!level && !s.edge) {
        set_pending(0, id, false);
    }
    s.line = level;
    update();
}

std::uint32_t gic400::configured(unsigned cpu, std::uint32_t id) const
{
    return id < nprivate ? 1u << cpu : ~0u;
}

std::uint32_t gic400::affected(unsigned cpu, std::uint32_t id) const
{
    if (id < nprivate)
        return 1u << cpu;
    return spis_[id - nprivate].targets | (1u << cpu);
}

void gic400::update(std::uint32_t cpus)
{
    if (ncpus_ < 32)
        cpus &= (1u << ncpus_) - 1;
    for (; cpus != 0; cpus &= cpus - 1) { // the CPUs asked for, lowest first
        const unsigned cpu = static_cast<unsigned>(__builtin_ctz(cpus));
        // Whatever may be signalled would also wake: no candidate for waking (the common
        // case), no need to look at the interface and the masks.
        const bool w = best_pending(cpu, true) != spurious;
        const bool i = (w && best_pending(cpu, false) != spurious) || (cpus_[cpu].phantom && cpus_[cpu].enabled);
        if (i != irq_level_[cpu]) {
            irq_level_[cpu] = i;
            irq[cpu].write(i);
            line_written.publish(cpu, false, i);
        }
        if (w != wake_level_[cpu]) {
            wake_level_[cpu] = w;
            wake[cpu].write(w);
            line_written.publish(cpu, true, w);
        }
    }
}

} // namespace blsim::model
