// soc/config/include/blsim/soc/config_node.h -- a YAML document as a tree that remembers where every
// value came from, plus the diagnostics list that configuration errors are collected into.
//
// libyaml parses; this tree keeps each node's file, line and column (1-based) so that
// validation, which happens later and in one pass, can say exactly where a problem is.
// Command-line overrides (--set key=value) are applied to the same tree, and carry a
// location of their own: file "--set", line = which --set (1-based), column within it.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace blsim::cfg {

// A string kept once per process: a mark's file name. Every node and every key of a tree
// carries one, and a sweep copies its base scenario's tree for each point; copying an interned
// name copies a pointer, where a std::string of a path would allocate. Compares and reads as
// the string it holds.
class interned {
public:
    interned() = default;
    interned(const std::string& s);
    interned(const char* s) : interned(std::string(s)) {}

    const std::string& str() const { return *p_; }
    operator const std::string&() const { return *p_; }
    bool empty() const { return p_->empty(); }

    friend bool operator==(const interned& a, const interned& b) { return a.p_ == b.p_; }
    friend bool operator!=(const interned& a, const interned& b) { return a.p_ != b.p_; }
    friend bool operator==(const interned& a, const std::string& b) { return *a.p_ == b; }
    friend bool operator==(const std::string& a, const interned& b) { return a == *b.p_; }
    friend bool operator!=(const interned& a, const std::string& b) { return *a.p_ != b; }
    friend bool operator==(const interned& a, const char* b) { return *a.p_ == b; }
    friend bool operator!=(const interned& a, const char* b) { return *a.p_ != b; }
    friend std::ostream& operator<<(std::ostream& os, const interned& a) { return os << *a.p_; }

private:
    static const std::string empty_;
    const std::string* p_ = &empty_;
};

struct mark {
    interned file;
    int line = 0; // 1-based; 0 when unknown
    int col = 0;  // 1-based

    std::string str() const;
};

struct node {
    enum class kind { null, scalar, map, seq };

    kind k = kind::null;
    mark at;
    std::string value;   // scalars
    bool plain = true;   // an unquoted scalar (only those can be numbers, booleans or null)
    std::vector<std::string> keys; // maps: keys[i] belongs to items[i]
    std::vector<mark> key_marks;
    std::vector<node> items;       // map values or sequence items

    bool is_map() const { return k == kind::map; }
    bool is_seq() const { return k == kind::seq; }
    bool is_scalar() const { return k == kind::scalar; }
    bool is_null() const { return k == kind::null; }

    // Map lookup; nullptr when absent (or not a map).
    const node* find(std::string_view key) const;
    node* find(std::string_view key);

    static node scalar(std::string v, mark at, bool plain = true);
    static node map(mark at);
};

// All user-facing configuration errors. They are reported in reading order: errors without
// a location first, then each file's (files in the order they were first mentioned, errors by
// line and column), then the overrides' (by --set number and column), whatever order the
// checks found them in.
class diagnostics {
public:
    void error(const mark& at, const std::string& message);
    void error(const std::string& message); // no location (e.g. the command line itself)
    // Something the user should know that is not an error ("file:line:col: note: ...").
    void note(const mark& at, const std::string& message);

    bool ok() const { return entries_.empty(); }
    std::size_t count() const { return entries_.size(); }
    std::size_t note_count() const { return notes_.size(); }
    std::vector<std::string> messages() const;
    // The first error's message without its location.
    std::string first_text() const;
    void print(std::ostream& os) const;
    // The notes, in the errors' order, "file:line:col: note: message" each.
    std::vector<std::string> note_messages() const;
    void print_notes(std::ostream& os) const;

private:
    struct entry {
        mark at;
        std::string text;
    };
    static std::vector<std::string> sorted_lines(const std::vector<entry>& entries, const char* kind);
    std::vector<entry> entries_, notes_;
};

// A key written again in one mapping of a document read as rt-app's workgen reads it (see
// parse_yaml's @repeats).
struct key_repeat {
    mark at;              // the repeated key
    mark first;           // where the key was first written in that mapping
    std::string key;      // as written
    std::string read_as;  // the new name; empty when it replaced the earlier value instead
};

// Parse YAML @text named @file_name (for marks) into @out: one document, a mapping at the
// top. Returns false and records the error on a syntax error. Anchors and aliases are
// expanded. A key written twice in one mapping is an error, unless @repeats is given: then the
// document is read as rt-app reads its JSON after its workgen script (docs/workloads.md,
// "rt-app"): a repeated key whose value opens a mapping that goes on over the next lines
// replaces the earlier value in its place (workgen, which reads line by line, counts such a
// key inside the new mapping and leaves it; json-c then keeps the last value); any other is
// renamed to the key followed by the mapping's counter (from 1, moved on while the name is
// taken), "run" to "run1". Each repeat is appended to @repeats.
// A document read once without a problem is kept (by its name and text, the last few) and a
// second parse of the same text returns the same tree at once: a sweep loads its base once per
// point, and its forked runs inherit what the parent read (docs/performance.md, "Sweeps").
bool parse_yaml(const std::string& text, const std::string& file_name, node& out,
                diagnostics& diag, std::vector<key_repeat>* repeats = nullptr);

// Apply one override "dotted.key=value" (the @index-th --set, 1-based) to @root. List items
// are addressed by index or by the value of their 'name' key. Missing map keys are created
// (the schema then reports them if they are unknown). Returns false on a malformed override.
bool apply_override(node& root, const std::string& assignment, int index, diagnostics& diag);

// Serialise a tree as YAML (block style, keys in tree order).
std::string emit_yaml(const node& root);

// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

} // namespace blsim::cfg
