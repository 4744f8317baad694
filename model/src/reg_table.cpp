// model/src/reg_table.cpp
#include "blsim/model/reg_table.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <systemc>

namespace blsim::model {

void reg_table::build_index() const
{
    std::uint64_t words = 0;
    for (const reg_def& r : regs_)
        words = std::max<std::uint64_t>(words, r.offset / 4 + std::uint64_t{r.count});
    linear_ = words > max_index_words || regs_.size() >= 0xffff;
    if (linear_ || regs_.empty())
        return;
    index_.assign(static_cast<std::size_t>(words), 0);
    for (std::size_t i = regs_.size(); i-- > 0;) { // the first declared written last: it wins
        const reg_def& r = regs_[i];
        if (r.offset % 4 != 0) {
            linear_ = true; // a table of words only; never declared so, but decode it right
            index_.clear();
            return;
        }
        for (std::uint32_t w = 0; w < r.count; w++)
            index_[r.offset / 4 + w] = static_cast<std::uint16_t>(i + 1);
    }
}

// The index not built yet (the first access), or an offset past it, or a table too wide for
// one: build it if it can be, else scan.
const reg_def* reg_table::find_unindexed(std::uint32_t offset, unsigned& index) const
{
    if (index_.empty() && !linear_)
        build_index();
    if (!linear_) {
        const std::size_t w = offset / 4; // offset is word-aligned
        if (w >= index_.size() || index_[w] == 0)
            return nullptr;
        const reg_def& r = regs_[index_[w] - 1u];
        index = static_cast<unsigned>(w - r.offset / 4);
        return &r;
    }
    for (const reg_def& r : regs_) {
        if (offset >= r.offset && offset < r.offset + 4 * r.count) {
            index = (offset - r.offset) / 4;
            return &r;
        }
    }
    return nullptr;
}

void reg_table::guest_error(const std::string& what)
{
    guest_errors_++;
    SC_REPORT_WARNING(("blsim/" + owner_).c_str(), what.c_str());
}

// The guest's mistakes, kept out of line, away from the accesses that decode.
[[gnu::cold]] void reg_table::unmapped(bool write, std::uint32_t offset)
{
    char msg[96];
    if (write)
        std::snprintf(msg, sizeof msg, "write of unmapped offset 0x%x (ignored)", offset);
    else
        std::snprintf(msg, sizeof msg, "read of unmapped offset 0x%x (read as zero)", offset);
    guest_error(msg);
}

[[gnu::cold]] void reg_table::written_read_only(const reg_def& r)
{
    guest_error(std::string("write to read-only register ") + r.name + " (ignored)");
}

inline std::uint32_t reg_table::read_word(unsigned cpu, std::uint32_t offset)
{
    unsigned index = 0;
    const reg_def* r = find(offset & ~3u, index);
    if (!r) {
        unmapped(false, offset);
        return 0;
    }
    if (r->access == reg_access::wo || !r->read)
        return 0; // write-only registers read as zero
    return r->read(cpu, index);
}

inline void reg_table::write_word(unsigned cpu, std::uint32_t offset, std::uint32_t value, std::uint32_t mask)
{
    unsigned index = 0;
    const reg_def* r = find(offset & ~3u, index);
    if (!r) {
        unmapped(true, offset);
        return;
    }
    if (r->access == reg_access::ro || !r->write) {
        written_read_only(*r);
        return;
    }
    r->write(cpu, index, value & mask, mask);
}

std::uint32_t reg_table::read(unsigned cpu, std::uint32_t offset) { return read_word(cpu, offset); }

void reg_table::write(unsigned cpu, std::uint32_t offset, std::uint32_t value, std::uint32_t mask)
{
    write_word(cpu, offset, value, mask);
}

void reg_table::access(unsigned cpu, tlm::tlm_generic_payload& trans)
{
    const std::uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length();
    const unsigned lane = addr & 3u;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (!(len == 1 || len == 2 || len == 4) || lane + len > 4) {
        guest_error("unsupported access size or alignment (ignored)");
        return;
    }
    const std::uint32_t word = static_cast<std::uint32_t>(addr) & ~3u;
    const std::uint32_t mask = (len == 4 ? ~0u : ((1u << (8 * len)) - 1)) << (8 * lane);
    unsigned char* data = trans.get_data_ptr();
    if (trans.is_read()) {
        std::uint32_t v = read_word(cpu, word) >> (8 * lane);
        if (len == 4)
            std::memcpy(data, &v, 4); // a word (nearly every access): a plain store
        else
            std::memcpy(data, &v, len); // little-endian host and model
    } else if (trans.is_write()) {
        std::uint32_t v = 0;
        if (len == 4)
            std::memcpy(&v, data, 4);
        else
            std::memcpy(&v, data, len);
        write_word(cpu, word, v << (8 * lane), mask);
    }
}

} // namespace blsim::model
