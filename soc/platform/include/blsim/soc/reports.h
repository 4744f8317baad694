// soc/platform/include/blsim/soc/reports.h -- one handler for SystemC's reports.
//
// SystemC prints its reports on stdout by default, with file and process lines. blsim's
// output is its own: a warning (the guest misprogramming a device, a register the hardware
// ignores) goes to stderr as one line, "blsim: warning: <message>", and after the first few
// of one kind the rest are only counted; summarise_reports() prints the counts at the end.
// Errors still stop the run (SystemC throws them; soc::platform turns them into internal
// errors). Informational reports are dropped.
#pragma once

#include <ostream>

namespace blsim::soc {

// Install the handler (once, before the simulation is built).
void install_report_handler();

// "blsim: warning: N more warnings like '...'" for each kind whose warnings were cut short.
void summarise_reports(std::ostream& err);

} // namespace blsim::soc
