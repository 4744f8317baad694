// soc/platform/src/reports.cpp
#include "blsim/soc/reports.h"

#include <iostream>
#include <map>
#include <string>
#include <systemc>

namespace blsim::soc {

namespace {

// Warnings of one kind printed in full; the others are counted.
constexpr unsigned shown_per_kind = 3;

std::map<std::string, unsigned>& counts()
{
    // The handler is a plain function SystemC calls: its state can only be static. One
    // simulation per process, so one set of counts per run.
    static std::map<std::string, unsigned> c;
    return c;
}

std::string one_line(std::string s)
{
    for (char& ch : s)
        if (ch == '\n' || ch == '\r')
            ch = ' ';
    return s;
}

void handler(const sc_core::sc_report& r, const sc_core::sc_actions& actions)
{
    switch (r.get_severity()) {
    case sc_core::SC_INFO:
        return;
    case sc_core::SC_WARNING: {
        const unsigned n = ++counts()[r.get_msg_type()];
        if (n <= shown_per_kind)
            std::cerr << "blsim: warning: " << one_line(r.get_msg()) << "\n";
        return;
    }
    default:
        // Errors: SystemC's own handling (they are thrown and end the run as internal errors).
        sc_core::sc_report_handler::default_handler(r, actions & ~(sc_core::SC_DISPLAY | sc_core::SC_LOG));
        return;
    }
}

} // namespace

void install_report_handler()
{
    sc_core::sc_report_handler::set_handler(handler);
}

void summarise_reports(std::ostream& err)
{
    for (const auto& [kind, n] : counts())
        if (n > shown_per_kind)
            err << "blsim: warning: " << (n - shown_per_kind) << " more warnings of " << kind << "\n";
}

} // namespace blsim::soc
