// soc/config/include/blsim/soc/schema.h -- typed, documented configuration schemas.
//
// A schema<T> declares, once, every key of a plain struct T: its type, unit, range and
// description, and which member it fills. From that one declaration come
//   - binding: node tree -> struct, checking types, ranges, unknown and missing keys, with
//     every error located (file:line:col) and collected rather than thrown;
//   - emission: struct -> node tree, for the effective configuration written with results;
//   - documentation: the tables of docs/config.md (a test keeps them in step).
// Defaults are the struct's own member initialisers.
#pragma once

#include <charconv>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "blsim/soc/config_node.h"

namespace blsim::cfg {

// Binding state shared by every schema of one configuration: the diagnostics, and where each
// bound value came from (for the semantic checks that run afterwards).
class bind_context {
public:
    // A scenario records a few hundred keys: room for them at once, rather than rehashing
    // on the way (a sweep binds one scenario per point, twice).
    explicit bind_context(diagnostics& d) : diag(d) { marks_.reserve(1024); }

    diagnostics& diag;

    void record(const std::string& path, const mark& at) { marks_[path] = at; }
    // Where @path was given; for a defaulted key, where its closest given parent was.
    mark where(std::string path) const;
    // Whether @path was given (in a file or an override), rather than defaulted.
    bool given(const std::string& path) const { return marks_.count(path) != 0; }
    // Whether a key below @prefix (a path) was given in @file; @at: the first such, in the
    // file's order.
    bool given_below_in(const std::string& prefix, const std::string& file, mark& at) const;

private:
    std::unordered_map<std::string, mark> marks_; // looked up only, never walked in order
};

struct doc_row {
    std::string key, type, unit, default_value, range, description;
};

std::string format_number(double v);
bool parse_integer(const node& n, long long& out);
bool parse_real(const node& n, double& out);
bool parse_address(const node& n, long long& out); // 40-bit physical address, hex or decimal
std::string format_address(long long v);
std::string describe(const node& n); // "'abc'", "a mapping", "a list", "nothing"
// Whether @s, written as a plain YAML scalar, reads back as the same string (not as nothing,
// a boolean or a number): otherwise it is written quoted.
bool plain_safe(const std::string& s);
std::string closest_key(const std::string& key, const std::vector<std::string>& known);

template <class T>
class schema {
public:
    using binder = std::function<void(const node&, T&, bind_context&, const std::string&)>;
    using emitter = std::function<node(const T&)>;
    using documenter = std::function<void(std::vector<doc_row>&, const std::string&, const T&)>;

    schema& integer(const char* key, int T::*m, long long lo, long long hi, const char* unit,
                    const char* doc, bool required = false)
    {
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            int v = 0;
            if (bind_integer(n, lo, hi, path, ctx, v))
                out.*m = v;
        };
        auto emit = [=](const T& v) { return node::scalar(std::to_string(v.*m), {}); };
        add(key, "integer", unit, std::to_string(lo) + ".." + std::to_string(hi), doc, required,
            bind, emit);
        return *this;
    }

    schema& real(const char* key, double T::*m, double lo, double hi, const char* unit,
                 const char* doc, bool required = false)
    {
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            double v = 0;
            if (!parse_real(n, v)) {
                ctx.diag.error(n.at, path + ": expected a number, got " + describe(n));
                return;
            }
            if (v < lo || v > hi) {
                ctx.diag.error(n.at, path + ": " + n.value + " is out of range " +
                                         format_number(lo) + ".." + format_number(hi));
                return;
            }
            out.*m = v;
        };
        auto emit = [=](const T& v) { return node::scalar(format_number(v.*m), {}); };
        add(key, "number", unit, format_number(lo) + ".." + format_number(hi), doc, required,
            bind, emit);
        return *this;
    }

    // A physical address: written in hex (0x2c001000) or decimal, emitted in hex.
    schema& address(const char* key, long long T::*m, const char* doc)
    {
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            long long v = 0;
            if (!parse_address(n, v)) {
                ctx.diag.error(n.at, path + ": expected an address, got " + describe(n));
                return;
            }
            out.*m = v;
        };
        auto emit = [=](const T& v) { return node::scalar(format_address(v.*m), {}); };
        add(key, "address", "", "0..0xffffffffff", doc, false, bind, emit);
        return *this;
    }

    schema& boolean(const char* key, bool T::*m, const char* doc)
    {
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            if (n.is_scalar() && n.plain && (n.value == "true" || n.value == "false")) {
                out.*m = n.value == "true";
                return;
            }
            ctx.diag.error(n.at, path + ": expected true or false, got " + describe(n));
        };
        auto emit = [=](const T& v) { return node::scalar(v.*m ? "true" : "false", {}); };
        add(key, "boolean", "", "true, false", doc, false, bind, emit);
        return *this;
    }

    schema& text(const char* key, std::string T::*m, const char* doc, bool required = false)
    {
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            if (!n.is_scalar()) {
                ctx.diag.error(n.at, path + ": expected a string, got " + describe(n));
                return;
            }
            if (required && n.value.empty()) {
                ctx.diag.error(n.at, path + ": must not be empty");
                return;
            }
            out.*m = n.value;
        };
        auto emit = [=](const T& v) { return node::scalar(v.*m, {}, plain_safe(v.*m)); };
        add(key, "string", "", "", doc, required, bind, emit);
        return *this;
    }

    // A subtree kept as it is (located), for a part another parser reads: rt-app's
    // documents. Emitted back unchanged.
    schema& tree(const char* key, node T::*m, const char* doc)
    {
        auto bind = [=](const node& n, T& out, bind_context&, const std::string&) { out.*m = n; };
        auto emit = [=](const T& v) { return v.*m; };
        add(key, "mapping", "", "", doc, false, bind, emit);
        return *this;
    }

    template <class E>
    schema& choice(const char* key, E T::*m, std::vector<std::pair<std::string, E>> options,
                   const char* doc, bool required = false)
    {
        std::string names;
        for (const auto& o : options)
            names += (names.empty() ? "" : ", ") + o.first;
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            for (const auto& o : options)
                if (n.is_scalar() && n.value == o.first) {
                    out.*m = o.second;
                    return;
                }
            ctx.diag.error(n.at, path + ": expected one of " + names + ", got " + describe(n));
        };
        auto emit = [=](const T& v) {
            for (const auto& o : options)
                if (o.second == v.*m)
                    return node::scalar(o.first, {});
            return node{};
        };
        add(key, "choice", "", names, doc, required, bind, emit);
        return *this;
    }

    template <class U>
    schema& object(const char* key, U T::*m, const schema<U>& sub, const char* doc,
                   bool required = false)
    {
        // One copy of the sub-schema, shared by the three functions (a copy each, and the
        // copies of those, made building the whole schema cost a third of a short run).
        auto sp = std::make_shared<const schema<U>>(sub);
        auto bind = [m, sp](const node& n, T& out, bind_context& ctx, const std::string& path) {
            sp->bind(n, out.*m, ctx, path);
        };
        auto emit = [m, sp](const T& v) { return sp->emit(v.*m); };
        field f = make(key, "mapping", "", "", doc, required, std::move(bind), std::move(emit));
        f.nested = [m, sp](std::vector<doc_row>& rows, const std::string& prefix, const T& d) {
            sp->document(rows, prefix, d.*m);
        };
        fields_.push_back(std::move(f));
        return *this;
    }

    template <class U>
    schema& list(const char* key, std::vector<U> T::*m, const schema<U>& sub, std::size_t lo,
                 std::size_t hi, const char* doc, bool required = false)
    {
        auto sp = std::make_shared<const schema<U>>(sub);
        auto bind = [m, sp, lo, hi](const node& n, T& out, bind_context& ctx, const std::string& path) {
            if (!n.is_seq()) {
                ctx.diag.error(n.at, path + ": expected a list, got " + describe(n));
                return;
            }
            if (n.items.size() < lo || n.items.size() > hi) {
                ctx.diag.error(n.at, path + ": expected " + std::to_string(lo) + ".." +
                                         std::to_string(hi) + " items, got " +
                                         std::to_string(n.items.size()));
                return;
            }
            std::vector<U> items(n.items.size());
            for (std::size_t i = 0; i < n.items.size(); i++) {
                const std::string p = path + "[" + std::to_string(i) + "]";
                ctx.record(p, n.items[i].at);
                sp->bind(n.items[i], items[i], ctx, p);
            }
            out.*m = std::move(items);
        };
        auto emit = [m, sp](const T& v) {
            node n;
            n.k = node::kind::seq;
            for (const U& item : v.*m)
                n.items.push_back(sp->emit(item));
            return n;
        };
        field f = make(key, "list", "", std::to_string(lo) + ".." + std::to_string(hi) + " items",
                       doc, required, std::move(bind), std::move(emit));
        f.nested = [sp](std::vector<doc_row>& rows, const std::string& prefix, const T&) {
            sp->document(rows, prefix + "[]", U{});
        };
        fields_.push_back(std::move(f));
        return *this;
    }

    // A list of integers (a set of CPUs).
    schema& integers(const char* key, std::vector<int> T::*m, long long lo, long long hi,
                     std::size_t max_items, const char* unit, const char* doc)
    {
        return list_of<int>(
            key, m, max_items, "list of integers", unit, std::to_string(lo) + ".." + std::to_string(hi), doc,
            [=](const node& v, const std::string& p, bind_context& ctx, int& x) {
                return bind_integer(v, lo, hi, p, ctx, x);
            },
            [](int x) { return std::to_string(x); });
    }

    // A list of numbers (times), each within [@lo, @hi].
    schema& reals(const char* key, std::vector<double> T::*m, double lo, double hi,
                  std::size_t max_items, const char* unit, const char* doc)
    {
        return list_of<double>(
            key, m, max_items, "list of numbers", unit, format_number(lo) + ".." + format_number(hi), doc,
            [=](const node& v, const std::string& p, bind_context& ctx, double& x) {
                if (!parse_real(v, x)) {
                    ctx.diag.error(v.at, p + ": expected a number, got " + describe(v));
                    return false;
                }
                if (x < lo || x > hi) {
                    ctx.diag.error(v.at, p + ": " + v.value + " is out of range " + format_number(lo) + ".." +
                                             format_number(hi));
                    return false;
                }
                return true;
            },
            [](double x) { return format_number(x); });
    }

    // The field declared last is emitted only when @present says so: a section added to the
    // configuration that, left at its defaults, must not change the effective configuration
    // written by runs that do not use it. Documented and bound as any other.
    schema& emitted_if(std::function<bool(const T&)> present)
    {
        fields_.back().present = std::move(present);
        return *this;
    }

    // A mapping of free names (e.g. cluster names) to integers.
    schema& named_integers(const char* key, std::vector<std::pair<std::string, int>> T::*m,
                           long long lo, long long hi, const char* unit, const char* doc)
    {
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            if (!n.is_map()) {
                ctx.diag.error(n.at, path + ": expected a mapping, got " + describe(n));
                return;
            }
            std::vector<std::pair<std::string, int>> items;
            for (std::size_t i = 0; i < n.keys.size(); i++) {
                const node& v = n.items[i];
                const std::string p = path + "." + n.keys[i];
                ctx.record(p, v.at);
                int x = 0;
                if (bind_integer(v, lo, hi, p, ctx, x))
                    items.emplace_back(n.keys[i], x);
            }
            out.*m = std::move(items);
        };
        auto emit = [=](const T& v) {
            node n = node::map({});
            for (const auto& [name, x] : v.*m) {
                n.keys.push_back(name);
                n.key_marks.push_back({});
                n.items.push_back(node::scalar(std::to_string(x), {}));
            }
            return n;
        };
        add(key, "mapping name: integer", unit,
            std::to_string(lo) + ".." + std::to_string(hi), doc, false, bind, emit);
        return *this;
    }

    // Bind mapping @n to @out. Keys not given keep @out's current values.
    void bind(const node& n, T& out, bind_context& ctx, const std::string& path) const
    {
        if (!n.is_map()) {
            ctx.diag.error(n.at, (path.empty() ? std::string("document") : path) +
                                     ": expected a mapping, got " + describe(n));
            return;
        }
        for (std::size_t i = 0; i < n.keys.size(); i++) {
            const field* f = lookup(n.keys[i]);
            if (!f) {
                std::vector<std::string> known;
                for (const field& k : fields_)
                    known.push_back(k.key);
                std::string where = path.empty() ? "" : " in " + path;
                ctx.diag.error(n.key_marks[i], "unknown key '" + n.keys[i] + "'" + where +
                                                   " (did you mean '" +
                                                   closest_key(n.keys[i], known) + "'?)");
                continue;
            }
            const std::string p = path.empty() ? f->key : path + "." + f->key;
            ctx.record(p, n.items[i].at);
            f->bind(n.items[i], out, ctx, p);
        }
        for (const field& f : fields_)
            if (f.required && !n.find(f.key))
                ctx.diag.error(n.at, (path.empty() ? std::string("document") : path) +
                                         ": missing required key '" + f.key + "'");
    }

    node emit(const T& v) const
    {
        node n = node::map({});
        for (const field& f : fields_) {
            if (f.present && !f.present(v))
                continue;
            n.keys.push_back(f.key);
            n.key_marks.push_back({});
            n.items.push_back(f.emit(v));
        }
        return n;
    }

    void document(std::vector<doc_row>& rows, const std::string& prefix, const T& defaults) const
    {
        for (const field& f : fields_) {
            const std::string key = prefix.empty() ? f.key : prefix + "." + f.key;
            std::string def;
            if (f.required) {
                def = "required";
            } else if (!f.nested) {
                node d = f.emit(defaults);
                def = d.is_scalar() ? d.value : d.is_null() ? "" : "";
                if (d.is_map() || d.is_seq())
                    def = d.items.empty() ? (d.is_map() ? "{}" : "[]") : "";
            }
            rows.push_back({key, f.type, f.unit, def, f.range, f.doc});
            if (f.nested)
                f.nested(rows, key, defaults);
        }
    }

private:
    // An integer scalar within [@lo, @hi] into @out; otherwise a located error and false.
    // A list of at most @max_items values, each bound by @item (which reports its own errors
    // and returns whether the value is good) and emitted by @fmt.
    template <typename V, typename Item, typename Fmt>
    schema& list_of(const char* key, std::vector<V> T::*m, std::size_t max_items, const char* type,
                    const char* unit, const std::string& range, const char* doc, Item item, Fmt fmt)
    {
        auto bind = [=](const node& n, T& out, bind_context& ctx, const std::string& path) {
            if (!n.is_seq()) {
                ctx.diag.error(n.at, path + ": expected a list, got " + describe(n));
                return;
            }
            if (n.items.size() > max_items) {
                ctx.diag.error(n.at, path + ": expected at most " + std::to_string(max_items) +
                                         " items, got " + std::to_string(n.items.size()));
                return;
            }
            std::vector<V> items;
            for (std::size_t i = 0; i < n.items.size(); i++) {
                const node& v = n.items[i];
                const std::string p = path + "[" + std::to_string(i) + "]";
                ctx.record(p, v.at);
                V x{};
                if (item(v, p, ctx, x))
                    items.push_back(x);
            }
            out.*m = std::move(items);
        };
        auto emit = [=](const T& v) {
            node n;
            n.k = node::kind::seq;
            for (const V& x : v.*m)
                n.items.push_back(node::scalar(fmt(x), {}));
            return n;
        };
        add(key, type, unit, range, doc, false, bind, emit);
        return *this;
    }

    static bool bind_integer(const node& n, long long lo, long long hi, const std::string& path,
                             bind_context& ctx, int& out)
    {
        long long v = 0;
        if (!parse_integer(n, v)) {
            ctx.diag.error(n.at, path + ": expected an integer, got " + describe(n));
            return false;
        }
        if (v < lo || v > hi) {
            ctx.diag.error(n.at, path + ": " + n.value + " is out of range " + std::to_string(lo) + ".." +
                                     std::to_string(hi));
            return false;
        }
        out = static_cast<int>(v);
        return true;
    }

    struct field {
        std::string key, type, unit, range, doc;
        bool required = false;
        binder bind;
        emitter emit;
        documenter nested;
        std::function<bool(const T&)> present; // emitted only when true (null: always)
    };

    field make(const char* key, const char* type, const char* unit, std::string range,
               const char* doc, bool required, binder bind, emitter emit)
    {
        field f;
        f.key = key;
        f.type = type;
        f.unit = unit;
        f.range = std::move(range);
        f.doc = doc;
        f.required = required;
        f.bind = std::move(bind);
        f.emit = std::move(emit);
        return f;
    }

    void add(const char* key, const char* type, const char* unit, std::string range,
             const char* doc, bool required, binder bind, emitter emit)
    {
        fields_.push_back(make(key, type, unit, std::move(range), doc, required, std::move(bind),
                               std::move(emit)));
    }

    const field* lookup(const std::string& key) const
    {
        for (const field& f : fields_)
            if (f.key == key)
                return &f;
        return nullptr;
    }

    std::vector<field> fields_;
};

} // namespace blsim::cfg
