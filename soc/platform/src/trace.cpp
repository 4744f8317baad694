// soc/platform/src/trace.cpp -- the trace recorder, the VCD recorder and gzip (blsim/soc/trace.h).
#include "blsim/soc/trace.h"

#include <bls/types.h>
#include <zlib.h>

#include <algorithm>
#include <stdexcept>

namespace blsim::soc {

trace_recorder::trace_recorder(trace_context ctx) : ctx_(std::move(ctx)) { recs_.reserve(1 << 16); }

void trace_recorder::core_power(std::uint64_t t_ps, unsigned cpu, model::core_power s)
{
    recs_.push_back({t_ps, kind::core, static_cast<std::uint8_t>(s), static_cast<std::uint16_t>(cpu), 0, 0, 0});
}

void trace_recorder::cluster_power(std::uint64_t t_ps, unsigned cluster, model::cluster_power s)
{
    recs_.push_back({t_ps, kind::cluster, static_cast<std::uint8_t>(s), static_cast<std::uint16_t>(cluster), 0, 0, 0});
}

void trace_recorder::cluster_counter(std::uint64_t t_ps, unsigned cluster, counter c, double value)
{
    // A counter holds its value until the next sample: an unchanged value adds nothing, and
    // the cumulative energy is sampled at most once a millisecond (it changes with every
    // power change, which power_mw already shows exactly).
    if (cluster >= last_.size())
        last_.resize(cluster + 1);
    last_sample& last = last_[cluster][static_cast<std::size_t>(c)];
    if (last.set && (last.value == value || (c == counter::energy_j && t_ps - last.t_ps < 1000000000ull)))
        return;
    last = {true, t_ps, value};
    recs_.push_back({t_ps, kind::counter, static_cast<std::uint8_t>(c), static_cast<std::uint16_t>(cluster), 0, 0, value});
}

static_assert(BLS_TRACE_LAST < 256, "a kernel event is kept in a record's 8-bit sub");

void trace_recorder::kernel(std::uint64_t t_ps, unsigned cpu, unsigned event, unsigned a, unsigned b)
{
    recs_.push_back({t_ps, kind::kernel, static_cast<std::uint8_t>(event), static_cast<std::uint16_t>(cpu), a, b, 0});
}

// --- VCD ------------------------------------------------------------------------------------

unsigned vcd_recorder::add(const std::string& name, unsigned width, std::uint64_t initial)
{
    if (width < 1 || width > 64)
        throw std::logic_error("vcd_recorder: a signal of " + std::to_string(width) + " bits");
    signals_.push_back({name, width, initial});
    return static_cast<unsigned>(signals_.size() - 1);
}

void vcd_recorder::change(std::uint64_t t_ps, unsigned signal, std::uint64_t value)
{
    if (signal >= signals_.size())
        throw std::logic_error("vcd_recorder: no signal " + std::to_string(signal));
    changes_.push_back({t_ps, static_cast<std::uint32_t>(signal), value});
}

namespace {

// VCD identifiers: printable ASCII from '!' to '~', as digits of base 94.
std::string vcd_id(unsigned n)
{
    std::string id;
    do {
        id += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n);
    return id;
}

void vcd_value(std::string& b, unsigned width, std::uint64_t v, const std::string& id)
{
    if (width == 1) {
        b += (v & 1) ? '1' : '0';
    } else {
        b += 'b';
        int top = static_cast<int>(width) - 1;
        while (top > 0 && !(v >> top & 1))
            top--;
        for (int i = top; i >= 0; i--)
            b += (v >> i & 1) ? '1' : '0';
        b += ' ';
    }
    b += id;
    b += '\n';
}

} // namespace

std::string vcd_recorder::text() const
{
    std::string b = "$date\n     (omitted: blsim's outputs depend only on the scenario and seed)\n$end\n\n"
                    "$version\n     blsim\n$end\n\n$timescale\n     1 ps\n$end\n\n$scope module SystemC $end\n";
    std::vector<std::string> ids;
    for (unsigned i = 0; i < signals_.size(); i++) {
        ids.push_back(vcd_id(i));
        const signal& s = signals_[i];
        b += "$var wire " + std::to_string(s.width) + " " + ids[i] + " " + s.name;
        if (s.width > 1)
            b += " [" + std::to_string(s.width - 1) + ":0]";
        b += " $end\n";
    }
    b += "$upscope $end\n$enddefinitions $end\n\n$dumpvars\n";
    std::vector<change_rec> ch = changes_;
    std::stable_sort(ch.begin(), ch.end(), [](const change_rec& x, const change_rec& y) { return x.t_ps < y.t_ps; });
    // $dumpvars: the values at time zero, once everything done at time zero is done.
    std::vector<std::uint64_t> value;
    for (unsigned i = 0; i < signals_.size(); i++)
        value.push_back(signals_[i].initial);
    for (const change_rec& c : ch)
        if (c.t_ps == 0)
            value[c.signal] = c.value;
    for (unsigned i = 0; i < signals_.size(); i++)
        vcd_value(b, signals_[i].width, value[i], ids[i]);
    b += "$end\n";
    // At each time, each signal's last value there, printed when it differs from before.
    std::vector<std::uint64_t> next = value;
    for (std::size_t i = 0; i < ch.size();) {
        const std::uint64_t t = ch[i].t_ps;
        std::size_t j = i;
        for (; j < ch.size() && ch[j].t_ps == t; j++)
            next[ch[j].signal] = ch[j].value;
        bool stamped = false;
        for (std::size_t k = i; k < j; k++) {
            const unsigned s = ch[k].signal;
            if (next[s] == value[s])
                continue;
            if (!stamped) {
                b += '#';
                append_int(b, t);
                b += '\n';
                stamped = true;
            }
            value[s] = next[s];
            vcd_value(b, signals_[s].width, value[s], ids[s]);
        }
        i = j;
    }
    return b;
}

std::string gzip(const std::string& text)
{
    z_stream z{};
    // 15 + 16: a gzip header and trailer around the deflate stream. Level 6, gzip's own
    // default: level 9 compressed the default scenario's traces in twice the time, 5 % smaller.
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib: deflateInit2 failed");
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    const std::size_t n = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("zlib: deflate did not finish");
    out.resize(n);
    return out;
}

} // namespace blsim::soc
