// model/src/invariant.cpp
#include "blsim/model/invariant.h"

#include <cstdio>
#include <cstring>

namespace blsim::model {

namespace {

std::string message(const std::string& name, std::uint64_t t_ps, const std::string& block,
                    const std::string& detail)
{
    return "invariant '" + name + "' violated at " + format_time_s(t_ps) + " s in " + block + ": " + detail;
}

} // namespace

invariant_violation::invariant_violation(std::string name, std::uint64_t t_ps, std::string block,
                                         const std::string& detail)
    : std::logic_error(message(name, t_ps, block, detail)), name_(std::move(name)), t_ps_(t_ps),
      block_(std::move(block))
{
}

invariant_violation::invariant_violation(std::uint64_t t_ps, std::string block, const std::string& check,
                                         const std::string& place)
    : std::logic_error("check failed at " + format_time_s(t_ps) + " s in " + block + ": " + check + " (" + place + ")"),
      name_("check"), t_ps_(t_ps), block_(std::move(block))
{
}

void check_failed(const char* check, const char* file, int line, std::uint64_t t_ps, const std::string& block)
{
    // The file relative to the source tree: the part from the layer's folder on.
    std::string f = file ? file : "?";
    for (const char* layer : {"/switcher/", "/model/", "/soc/", "/workloads/"}) {
        const std::size_t at = f.rfind(layer);
        if (at != std::string::npos) {
            f = f.substr(at + 1);
            break;
        }
    }
    throw invariant_violation(t_ps, block, check, f + ":" + std::to_string(line));
}

void invariant_failed(const char* name, std::uint64_t t_ps, const std::string& block, const std::string& detail)
{
    throw invariant_violation(name, t_ps, block, detail);
}

std::string format_time_s(std::uint64_t t_ps)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%llu.%012llu", static_cast<unsigned long long>(t_ps / 1000000000000ull),
                  static_cast<unsigned long long>(t_ps % 1000000000000ull));
    return buf;
}

} // namespace blsim::model
