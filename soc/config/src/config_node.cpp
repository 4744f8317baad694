// soc/config/src/config_node.cpp -- YAML to node tree with marks (libyaml), overrides, emission.
#include "blsim/soc/config_node.h"

#include <yaml.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <tuple>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <sstream>

#include "blsim/model/invariant.h"

namespace blsim::cfg {

const std::string interned::empty_;

interned::interned(const std::string& s)
{
    if (s.empty())
        return;
    // Node-based: an element never moves, so the pointers handed out stay valid. Never
    // shrinks: a process reads a handful of files. The lock: a test may parse on threads.
    static std::mutex lock;
    static std::unordered_set<std::string> names;
    std::lock_guard<std::mutex> hold(lock);
    p_ = &*names.insert(s).first;
}

std::string mark::str() const
{
    if (line <= 0)
        return file;
    return file.str() + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const node* node::find(std::string_view key) const
{
    if (k != kind::map)
        return nullptr;
    for (std::size_t i = 0; i < keys.size(); i++)
        if (keys[i] == key)
            return &items[i];
    return nullptr;
}

node* node::find(std::string_view key)
{
    return const_cast<node*>(static_cast<const node*>(this)->find(key));
}

node node::scalar(std::string v, mark at, bool plain)
{
    node n;
    n.k = kind::scalar;
    n.value = std::move(v);
    n.at = std::move(at);
    n.plain = plain;
    return n;
}

node node::map(mark at)
{
    node n;
    n.k = kind::map;
    n.at = std::move(at);
    return n;
}

void diagnostics::error(const mark& at, const std::string& message)
{
    entries_.push_back({at, message});
}

void diagnostics::error(const std::string& message) { entries_.push_back({mark{}, message}); }

void diagnostics::note(const mark& at, const std::string& message)
{
    notes_.push_back({at, message});
}

std::vector<std::string> diagnostics::messages() const
{
    return sorted_lines(entries_, nullptr);
}

std::vector<std::string> diagnostics::note_messages() const
{
    return sorted_lines(notes_, "note");
}

void diagnostics::print_notes(std::ostream& os) const
{
    for (const std::string& m : note_messages())
        os << m << '\n';
}

std::vector<std::string> diagnostics::sorted_lines(const std::vector<entry>& entries_, const char* kind)
{
    std::vector<std::string> files; // in order of first mention
    auto file_rank = [&](const mark& m) -> std::size_t {
        if (m.file.empty())
            return 0;
        if (m.file == "--set")
            return std::numeric_limits<std::size_t>::max();
        auto it = std::find(files.begin(), files.end(), m.file);
        return 1 + static_cast<std::size_t>(it - files.begin());
    };
    for (const entry& e : entries_)
        if (!e.at.file.empty() && e.at.file != "--set" &&
            std::find(files.begin(), files.end(), e.at.file) == files.end())
            files.push_back(e.at.file);

    std::vector<const entry*> sorted;
    for (const entry& e : entries_)
        sorted.push_back(&e);
    std::stable_sort(sorted.begin(), sorted.end(), [&](const entry* a, const entry* b) {
        return std::make_tuple(file_rank(a->at), a->at.line, a->at.col) <
               std::make_tuple(file_rank(b->at), b->at.line, b->at.col);
    });
    // One line per error, whatever the offending text holds: control characters (a newline in
    // a quoted value or key) are written as escapes.
    auto one_line = [](const std::string& text) {
        std::string o;
        for (unsigned char ch : text) {
            if (ch == '\n')
                o += "\\n";
            else if (ch == '\r')
                o += "\\r";
            else if (ch == '\t')
                o += "\\t";
            else if (ch < 0x20 || ch == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", ch);
                o += buf;
            } else {
                o += static_cast<char>(ch);
            }
        }
        return o;
    };
    std::vector<std::string> out;
    const std::string label = kind ? std::string(kind) + ": " : std::string();
    for (const entry* e : sorted)
        out.push_back(one_line(e->at.file.empty() ? label + e->text : e->at.str() + ": " + label + e->text));
    return out;
}

std::string diagnostics::first_text() const
{
    return entries_.empty() ? std::string() : entries_.front().text;
}

void diagnostics::print(std::ostream& os) const
{
    for (const std::string& m : messages())
        os << m << '\n';
}

// --- parsing ------------------------------------------------------------------------------

namespace {

struct parser_deleter {
    void operator()(yaml_parser_t* p) const
    {
        yaml_parser_delete(p);
        delete p;
    }
};

struct event_guard {
    yaml_event_t ev;
    ~event_guard() { yaml_event_delete(&ev); }
};

class tree_builder {
public:
    tree_builder(const std::string& text, const std::string& file, diagnostics& diag,
                 std::vector<key_repeat>* repeats)
        : file_(file), diag_(diag), repeats_(repeats), parser_(new yaml_parser_t)
    {
        yaml_parser_initialize(parser_.get());
        yaml_parser_set_input_string(parser_.get(),
                                     reinterpret_cast<const unsigned char*>(text.data()),
                                     text.size());
    }

    bool build(node& out)
    {
        event_guard e{};
        // Stream start, then either stream end (empty file) or one document.
        if (!next(e.ev) || e.ev.type != YAML_STREAM_START_EVENT)
            return false;
        event_guard d{};
        if (!next(d.ev))
            return false;
        if (d.ev.type == YAML_STREAM_END_EVENT) {
            out = node::map(mark{file_, 1, 1});
            return true;
        }
        if (!parse_node(out))
            return false;
        event_guard end{};
        if (!next(end.ev))
            return false;
        BLSIM_CHECK_AT(end.ev.type == YAML_DOCUMENT_END_EVENT, 0); // before any simulation: at 0
        event_guard more{};
        if (!next(more.ev))
            return false;
        if (more.ev.type != YAML_STREAM_END_EVENT) {
            diag_.error(at(more.ev.start_mark), "only one YAML document is allowed");
            return false;
        }
        return true;
    }

private:
    mark at(const yaml_mark_t& m) const
    {
        return mark{file_, static_cast<int>(m.line) + 1, static_cast<int>(m.column) + 1};
    }

    bool next(yaml_event_t& ev)
    {
        if (yaml_parser_parse(parser_.get(), &ev))
            return true;
        const yaml_parser_t& p = *parser_;
        std::string msg = "YAML syntax error: ";
        msg += p.problem ? p.problem : "unknown problem";
        if (p.context) {
            msg += " (";
            msg += p.context;
            msg += ")";
        }
        diag_.error(at(p.problem_mark), msg);
        return false;
    }

    void remember(const yaml_char_t* anchor, const node& n)
    {
        if (anchor)
            anchors_[reinterpret_cast<const char*>(anchor)] = {n, size_of(n)};
    }

    // Parses the node whose first event is next in the stream.
    bool parse_node(node& out)
    {
        event_guard e{};
        if (!next(e.ev))
            return false;
        return parse_from(e.ev, out);
    }

    // Limits that keep a hostile file from exhausting the stack or the memory: a document is a
    // configuration, not data.
    static constexpr int max_depth = 64;
    static constexpr std::size_t max_nodes = 100000;

    static std::size_t size_of(const node& n)
    {
        std::size_t k = 1;
        for (const node& c : n.items)
            k += size_of(c);
        return k;
    }

    bool count(std::size_t n, const yaml_mark_t& where)
    {
        nodes_ += n;
        if (nodes_ <= max_nodes)
            return true;
        diag_.error(at(where), "the document expands to more than " + std::to_string(max_nodes) +
                                   " nodes (aliases repeat what they name): not a configuration blsim reads");
        return false;
    }

    bool parse_from(const yaml_event_t& ev, node& out)
    {
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
            if (depth_ >= max_depth) {
                diag_.error(at(ev.start_mark), "lists and mappings nested deeper than " +
                                                   std::to_string(max_depth) + " levels");
                return false;
            }
            depth_++;
            const bool ok = parse_collection(ev, out);
            depth_--;
            return ok;
        }
        switch (ev.type) {
        case YAML_ALIAS_EVENT: {
            auto it = anchors_.find(reinterpret_cast<const char*>(ev.data.alias.anchor));
            if (it == anchors_.end()) {
                diag_.error(at(ev.start_mark), "unknown alias");
                return false;
            }
            if (!count(it->second.second, ev.start_mark))
                return false;
            out = it->second.first;
            return true;
        }
        case YAML_SCALAR_EVENT: {
            if (!untagged(ev.data.scalar.tag, ev.start_mark))
                return false;
            std::string v(reinterpret_cast<const char*>(ev.data.scalar.value),
                          ev.data.scalar.length);
            bool plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
            if (plain && (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL")) {
                out = node{};
                out.at = at(ev.start_mark);
            } else {
                out = node::scalar(std::move(v), at(ev.start_mark), plain);
            }
            remember(ev.data.scalar.anchor, out);
            return count(1, ev.start_mark);
        }
        default:
            diag_.error(at(ev.start_mark), "unexpected YAML event");
            return false;
        }
    }

    // YAML tags (!!str, !!int, !foo) are refused, not ignored: a value is read by its key's
    // type alone, and a tag would seem to change it (docs/config.md).
    bool untagged(const yaml_char_t* tag, const yaml_mark_t& where)
    {
        if (!tag)
            return true;
        std::string t(reinterpret_cast<const char*>(tag));
        const std::string core = "tag:yaml.org,2002:";
        if (t.rfind(core, 0) == 0)
            t = "!!" + t.substr(core.size());
        diag_.error(at(where), "YAML tag '" + t + "' is not supported: write the value alone (its key's type "
                                                  "decides how it is read)");
        return false;
    }

    // A sequence (@ev its start): its items, up to its end.
    bool parse_sequence(const yaml_event_t& ev, node& out)
    {
        out = node{};
        out.k = node::kind::seq;
        out.at = at(ev.start_mark);
        const yaml_char_t* anchor = ev.data.sequence_start.anchor;
        for (;;) {
            event_guard item{};
            if (!next(item.ev))
                return false;
            if (item.ev.type == YAML_SEQUENCE_END_EVENT)
                break;
            node child;
            if (!parse_from(item.ev, child))
                return false;
            out.items.push_back(std::move(child));
        }
        remember(anchor, out);
        return true;
    }

    // The key @k written again in the mapping @out (first at @first), with the value @v, as
    // rt-app's workgen, then json-c, read it (parse_yaml's contract): a value that opens a block
    // mapping replaces the first one's, in its place (true: @v is taken); anything else is
    // renamed as workgen numbers it (@k's value, @counter this mapping's count).
    bool replace_repeated(node& out, std::size_t first, node& k, node& v, int& counter)
    {
        key_repeat r{k.at, out.key_marks[first], k.value, {}};
        const bool opens_block = v.is_map() && !v.key_marks.empty() && v.key_marks.front().line > k.at.line;
        if (opens_block) {
            out.items[first] = std::move(v);
            repeats_->push_back(std::move(r));
            return true;
        }
        std::string name;
        do
            name = k.value + std::to_string(counter++);
        while (out.find(name));
        counter--; // workgen moves its counter on only past a name that is taken
        r.read_as = name;
        repeats_->push_back(std::move(r));
        k.value = name;
        return false;
    }

    // A mapping (@ev its start): its keys and values, up to its end.
    bool parse_mapping(const yaml_event_t& ev, node& out)
    {
        out = node::map(at(ev.start_mark));
        const yaml_char_t* anchor = ev.data.mapping_start.anchor;
        int counter = 1; // workgen's, for this mapping's repeated keys
        for (;;) {
            event_guard key{};
            if (!next(key.ev))
                return false;
            if (key.ev.type == YAML_MAPPING_END_EVENT)
                break;
            node k;
            if (!parse_from(key.ev, k))
                return false;
            if (!k.is_scalar()) {
                diag_.error(k.at, "mapping keys must be plain strings");
                return false;
            }
            const std::size_t first =
                std::find(out.keys.begin(), out.keys.end(), k.value) - out.keys.begin();
            if (first < out.keys.size() && !repeats_) {
                diag_.error(k.at, "duplicate key '" + k.value + "' (first at line " +
                                      std::to_string(out.key_marks[first].line) + ")");
                return false;
            }
            node v;
            if (!parse_node(v))
                return false;
            if (first < out.keys.size() && replace_repeated(out, first, k, v, counter))
                continue;
            out.keys.push_back(k.value);
            out.key_marks.push_back(k.at);
            out.items.push_back(std::move(v));
        }
        remember(anchor, out);
        return true;
    }

    bool parse_collection(const yaml_event_t& ev, node& out)
    {
        if (!count(1, ev.start_mark))
            return false;
        if (!untagged(ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.tag : ev.data.mapping_start.tag,
                      ev.start_mark))
            return false;
        switch (ev.type) {
        case YAML_SEQUENCE_START_EVENT: return parse_sequence(ev, out);
        case YAML_MAPPING_START_EVENT: return parse_mapping(ev, out);
        default:
            diag_.error(at(ev.start_mark), "unexpected YAML event");
            return false;
        }
    }

    interned file_;
    diagnostics& diag_;
    std::vector<key_repeat>* repeats_;
    std::unique_ptr<yaml_parser_t, parser_deleter> parser_;
    std::map<std::string, std::pair<node, std::size_t>> anchors_; // each with its size in nodes
    int depth_ = 0;
    std::size_t nodes_ = 0;
};

} // namespace

namespace {

// The documents parse_yaml read without a diagnostic, by (name, text): a pure function's
// memo, so it changes no result. Bounded: a sweep or a test reads a handful of files many times,
// among many one-off documents (each --set value is one), so the least recently used goes first.
struct parsed_cache {
    static constexpr std::size_t max_entries = 16;
    struct entry {
        node tree;
        std::uint64_t used = 0;
    };
    std::map<std::pair<std::string, std::string>, entry> trees;
    std::uint64_t clock = 0;
};

parsed_cache& parsed()
{
    static parsed_cache cache;
    return cache;
}

} // namespace

bool parse_yaml(const std::string& text, const std::string& file_name, node& out,
                diagnostics& diag, std::vector<key_repeat>* repeats)
{
    // (With @repeats the caller wants the renames reported: parsed afresh.)
    auto key = std::make_pair(file_name, text);
    if (!repeats) {
        auto hit = parsed().trees.find(key);
        if (hit != parsed().trees.end()) {
            hit->second.used = ++parsed().clock;
            out = hit->second.tree;
            return true;
        }
    }
    const std::size_t errors = diag.count(), notes = diag.note_count();
    tree_builder b(text, file_name, diag, repeats);
    node n;
    if (!b.build(n))
        return false;
    if (n.is_null()) {
        n = node::map(n.at);
    } else if (!n.is_map()) {
        diag.error(n.at, "the document must be a mapping of keys to values");
        return false;
    }
    if (!repeats && diag.count() == errors && diag.note_count() == notes) {
        auto& trees = parsed().trees;
        if (trees.size() >= parsed_cache::max_entries)
            trees.erase(std::min_element(trees.begin(), trees.end(), [](const auto& a, const auto& b) {
                return a.second.used < b.second.used;
            }));
        trees.emplace(std::move(key), parsed_cache::entry{n, ++parsed().clock});
    }
    out = std::move(n);
    return true;
}

// --- overrides ----------------------------------------------------------------------------

namespace {

// An override's value @text, YAML too (so lists and mappings can be given in flow style), every
// node of it located at @at, the value's start in the override.
bool override_value(const std::string& text, const mark& at, node& value, diagnostics& diag)
{
    diagnostics sub;
    node wrapper;
    if (!parse_yaml("v: " + text, "--set", wrapper, sub)) {
        // The problem's own location is inside the "v: " wrapper; the value's start is
        // the only location that means something to the user.
        diag.error(at, "bad value: " + sub.first_text());
        return false;
    }
    value = wrapper.items.front();
    std::vector<node*> stack{&value};
    while (!stack.empty()) {
        node* n = stack.back();
        stack.pop_back();
        n->at = at;
        for (mark& m : n->key_marks)
            m = at;
        for (node& c : n->items)
            stack.push_back(&c);
    }
    return true;
}

// The item of @list (at @walked) that the key's component @part (at @at) names, by index or by
// its "name"; nullptr (reported) when there is none.
node* list_item(node& list, const std::string& part, const std::string& walked, const mark& at, diagnostics& diag)
{
    node* child = nullptr;
    bool numeric = std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numeric) {
        // Anything longer than any list could be is simply not an item.
        if (part.size() <= 9 && std::stoul(part) < list.items.size())
            child = &list.items[std::stoul(part)];
    } else {
        for (node& item : list.items)
            if (const node* name = item.find("name"); name && name->value == part)
                child = &item;
    }
    if (!child) {
        std::string have;
        for (std::size_t i = 0; i < list.items.size(); i++) {
            const node* name = list.items[i].find("name");
            have += (i ? ", " : "") + (name ? name->value : std::to_string(i));
        }
        diag.error(at, "'" + walked + "' has no item '" + part + "' (have: " + have + ")");
    }
    return child;
}

// The value of @cur (at @walked) under the key's component @part (at @at), added when it is
// missing (a mapping, unless @part is the @last component); nullptr (reported) when @cur is a
// value.
node* map_entry(node& cur, const std::string& part, bool last, const std::string& walked, const mark& at,
                diagnostics& diag)
{
    if (cur.is_null())
        cur = node::map(cur.at);
    if (!cur.is_map()) {
        diag.error(at, "'" + walked + "' is a value, not a mapping");
        return nullptr;
    }
    node* child = cur.find(part);
    if (!child) {
        cur.keys.push_back(part);
        cur.key_marks.push_back(at);
        cur.items.push_back(last ? node{} : node::map(at));
        child = &cur.items.back();
    }
    return child;
}

} // namespace

bool apply_override(node& root, const std::string& assignment, int index, diagnostics& diag)
{
    auto here = [&](std::size_t offset) { return mark{"--set", index, static_cast<int>(offset) + 1}; };

    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        diag.error(here(0), "expected key=value, got '" + assignment + "'");
        return false;
    }
    const std::string key = assignment.substr(0, eq);
    node value;
    if (!override_value(assignment.substr(eq + 1), here(eq + 1), value, diag))
        return false;

    // The key's dotted components, walked from the root: list items and mapping keys.
    node* cur = &root;
    std::string walked;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = key.find('.', start);
        const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        const bool last = dot == std::string::npos;
        if (part.empty()) {
            diag.error(here(start), "empty component in key '" + key + "'");
            return false;
        }
        node* child = cur->is_seq() ? list_item(*cur, part, walked, here(start), diag)
                                    : map_entry(*cur, part, last, walked, here(start), diag);
        if (!child)
            return false;
        walked += (walked.empty() ? "" : ".") + part;
        if (last) {
            *child = std::move(value);
            return true;
        }
        cur = child;
        start = dot + 1;
    }
}

// --- emission -----------------------------------------------------------------------------

namespace {

struct emitter {
    yaml_emitter_t e;
    std::string out;

    static int write(void* data, unsigned char* buffer, size_t size)
    {
        static_cast<emitter*>(data)->out.append(reinterpret_cast<char*>(buffer), size);
        return 1;
    }

    emitter()
    {
        yaml_emitter_initialize(&e);
        yaml_emitter_set_output(&e, &emitter::write, this);
        yaml_emitter_set_unicode(&e, 1);
        yaml_emitter_set_width(&e, 100);
    }
    ~emitter() { yaml_emitter_delete(&e); }

    void emit(yaml_event_t& ev)
    {
        int ok = yaml_emitter_emit(&e, &ev);
        BLSIM_CHECK_AT(ok && "the emitter only fails on malformed event sequences", 0);
        (void)ok;
    }

    void scalar(const std::string& v, bool plain)
    {
        yaml_event_t ev;
        yaml_scalar_event_initialize(&ev, nullptr, nullptr,
                                     reinterpret_cast<yaml_char_t*>(const_cast<char*>(v.c_str())),
                                     static_cast<int>(v.size()), 1, 1,
                                     plain ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
        emit(ev);
    }

    void tree(const node& n)
    {
        yaml_event_t ev;
        switch (n.k) {
        case node::kind::null:
            scalar("null", true);
            break;
        case node::kind::scalar:
            scalar(n.value, n.plain);
            break;
        case node::kind::seq: {
            // Short lists of scalars read best on one line.
            bool flat = std::all_of(n.items.begin(), n.items.end(),
                                    [](const node& c) { return !c.is_map() && !c.is_seq(); });
            yaml_sequence_start_event_initialize(&ev, nullptr, nullptr, 1,
                                                 flat ? YAML_FLOW_SEQUENCE_STYLE
                                                      : YAML_BLOCK_SEQUENCE_STYLE);
            emit(ev);
            for (const node& c : n.items)
                tree(c);
            yaml_sequence_end_event_initialize(&ev);
            emit(ev);
            break;
        }
        case node::kind::map: {
            // Small records of scalars (an OPP, a task) read best on one line, as written.
            bool flat = !n.items.empty() && n.items.size() <= 6 &&
                        std::all_of(n.items.begin(), n.items.end(),
                                    [](const node& c) { return !c.is_map() && !c.is_seq(); });
            yaml_mapping_start_event_initialize(&ev, nullptr, nullptr, 1,
                                                flat ? YAML_FLOW_MAPPING_STYLE
                                                     : YAML_BLOCK_MAPPING_STYLE);
            emit(ev);
            for (std::size_t i = 0; i < n.keys.size(); i++) {
                scalar(n.keys[i], true);
                tree(n.items[i]);
            }
            yaml_mapping_end_event_initialize(&ev);
            emit(ev);
            break;
        }
        }
    }
};

} // namespace

std::string emit_yaml(const node& root)
{
    emitter em;
    yaml_event_t ev;
    yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
    em.emit(ev);
    yaml_document_start_event_initialize(&ev, nullptr, nullptr, nullptr, 1);
    em.emit(ev);
    em.tree(root);
    yaml_document_end_event_initialize(&ev, 1);
    em.emit(ev);
    yaml_stream_end_event_initialize(&ev);
    em.emit(ev);
    yaml_emitter_flush(&em.e);
    return em.out;
}

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); j++)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); i++) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); j++) {
            std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

} // namespace blsim::cfg
