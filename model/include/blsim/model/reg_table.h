// model/include/blsim/model/reg_table.h -- memory-mapped registers declared as a table.
//
// A peripheral declares each register (or array of registers) once: name, offset, number of
// 32-bit words, access, and the side effects of a read or a write as small functions. The
// table decodes an access, applies byte enables for sub-word accesses, and answers
// unmapped offsets as read-as-zero / write-ignored with a warning (a guest error, as the
// real hardware's reserved space behaves), so no peripheral writes an offset if-chain.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <tlm>
#include <vector>

namespace blsim::model {

enum class reg_access { ro, wo, rw };

struct reg_def {
    const char* name;
    std::uint32_t offset;    // of word 0
    std::uint32_t count = 1; // consecutive 32-bit words
    reg_access access = reg_access::rw;
    // @cpu: the accessing CPU (banked registers); @index: word within the array.
    std::function<std::uint32_t(unsigned cpu, unsigned index)> read;
    // @mask: the bits the access writes (byte enables); keep the others.
    std::function<void(unsigned cpu, unsigned index, std::uint32_t value, std::uint32_t mask)> write;
};

class reg_table {
public:
    explicit reg_table(std::string owner) : owner_(std::move(owner)) {}

    void add(reg_def r)
    {
        regs_.push_back(std::move(r));
        index_.clear(); // rebuilt at the next access
    }

    // Serve @trans (offset relative to the table's base) for @cpu. Accesses of 1, 2 or 4
    // bytes inside one word. Always answers TLM_OK_RESPONSE, as the hardware does.
    void access(unsigned cpu, tlm::tlm_generic_payload& trans);

    // Untimed helpers for tests and debuggers.
    std::uint32_t read(unsigned cpu, std::uint32_t offset);
    void write(unsigned cpu, std::uint32_t offset, std::uint32_t value, std::uint32_t mask = ~0u);

    std::uint64_t guest_errors() const { return guest_errors_; }

private:
    // The register covering word-aligned @offset (and @index, the word within it), or null.
    // Inline: once the index is built, every access decodes with one load.
    const reg_def* find(std::uint32_t offset, unsigned& index) const
    {
        const std::size_t w = offset / 4;
        if (w >= index_.size())
            return find_unindexed(offset, index);
        const std::uint16_t i = index_[w];
        if (i == 0)
            return nullptr;
        const reg_def& r = regs_[i - 1u];
        index = static_cast<unsigned>(w - r.offset / 4);
        return &r;
    }
    const reg_def* find_unindexed(std::uint32_t offset, unsigned& index) const;
    void build_index() const;
    std::uint32_t read_word(unsigned cpu, std::uint32_t offset);
    void write_word(unsigned cpu, std::uint32_t offset, std::uint32_t value, std::uint32_t mask);
    void unmapped(bool write, std::uint32_t offset);
    void written_read_only(const reg_def& r);
    void guest_error(const std::string& what);

    std::string owner_;
    std::vector<reg_def> regs_;
    // Decoding by direct index: for each word offset below the last register's end, 1 + the
    // register covering it (0: none), the first declared winning as a scan would find it.
    // Built lazily (the table is filled in the owner's constructor); every access is a load.
    static constexpr std::size_t max_index_words = 1u << 16;
    mutable std::vector<std::uint16_t> index_;
    mutable bool linear_ = false; // a span too wide for an index: the scan
    std::uint64_t guest_errors_ = 0;
};

} // namespace blsim::model
