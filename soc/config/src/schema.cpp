// soc/config/src/schema.cpp -- scalar conversions and helpers shared by every schema.
#include "blsim/soc/schema.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace blsim::cfg {

mark bind_context::where(std::string path) const
{
    for (;;) {
        auto it = marks_.find(path);
        if (it != marks_.end())
            return it->second;
        std::size_t cut = path.find_last_of(".[");
        if (cut == std::string::npos)
            break;
        path.resize(cut);
    }
    auto root = marks_.find("");
    return root == marks_.end() ? mark{} : root->second;
}

bool bind_context::given_below_in(const std::string& prefix, const std::string& file, mark& at) const
{
    bool found = false;
    for (const auto& [path, m] : marks_) {
        if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0 ||
            (path[prefix.size()] != '.' && path[prefix.size()] != '[') || m.file != file)
            continue;
        if (!found || std::make_pair(m.line, m.col) < std::make_pair(at.line, at.col))
            at = m;
        found = true;
    }
    return found;
}

std::string format_number(double v)
{
    // Whole numbers as integers (1000000, not 1e+06); others as the shortest text that
    // reads back to the same double. Deterministic and readable.
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

bool parse_integer(const node& n, long long& out)
{
    if (!n.is_scalar() || !n.plain || n.value.empty())
        return false;
    const char* s = n.value.c_str();
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(s, &end, 10);
    if (errno || *end != '\0')
        return false;
    out = v;
    return true;
}

bool parse_address(const node& n, long long& out)
{
    if (!n.is_scalar() || !n.plain || n.value.empty() || n.value[0] == '-')
        return false;
    const bool hex = n.value.size() > 2 && n.value[0] == '0' && (n.value[1] == 'x' || n.value[1] == 'X');
    const char* s = n.value.c_str();
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
    if (errno || *end != '\0' || v >= (1ull << 40))
        return false;
    out = static_cast<long long>(v);
    return true;
}

std::string format_address(long long v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

bool parse_real(const node& n, double& out)
{
    if (!n.is_scalar() || !n.plain || n.value.empty())
        return false;
    const char* s = n.value.c_str();
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s, &end);
    if (errno || *end != '\0' || !std::isfinite(v))
        return false;
    out = v;
    return true;
}

std::string describe(const node& n)
{
    switch (n.k) {
    case node::kind::null: return "nothing";
    case node::kind::scalar: return "'" + n.value + "'";
    case node::kind::map: return "a mapping";
    case node::kind::seq: return "a list";
    }
    return "?";
}

bool plain_safe(const std::string& s)
{
    static const char* const special[] = {"", "~", "null", "Null", "NULL", "true", "True", "TRUE",
                                          "false", "False", "FALSE", "yes", "Yes", "YES", "no",
                                          "No", "NO", "on", "On", "ON", "off", "Off", "OFF"};
    for (const char* w : special)
        if (s == w)
            return false;
    double d;
    return !parse_real(node::scalar(s, {}), d);
}

std::string closest_key(const std::string& key, const std::vector<std::string>& known)
{
    std::string best;
    std::size_t best_d = std::string::npos;
    for (const std::string& k : known) {
        std::size_t d = edit_distance(key, k);
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best;
}

} // namespace blsim::cfg
