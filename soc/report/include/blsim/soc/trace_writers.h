// soc/report/include/blsim/soc/trace_writers.h -- a run's timeline as files, written from the
// platform's trace recorder (blsim/soc/trace.h) after the run: Chrome's trace-event JSON
// (trace.json), which ui.perfetto.dev opens, and the kernel's trace text (trace.txt).
// docs/traces.md describes both, track by track and event by event.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "blsim/soc/platform.h"
#include "blsim/soc/trace.h"

namespace blsim::soc {

// trace.json: @switches drawn as nested phases on their logical CPUs; @end_ps closes what is
// still open. Checks what it draws (docs/traces.md, "trace-task-on-powered-cpu").
std::string perfetto_json(const trace_recorder& r, const std::vector<switch_record>& switches, std::uint64_t end_ps);
// trace.txt: @policies, the cpufreq policies' limits, printed as cpu_frequency_limits at time 0.
std::string ftrace_text(const trace_recorder& r, const std::vector<policy_limits>& policies);

// The trace files the run asked for (name, content; gzip-compressed with @gzip), at the end
// of the run: none without tracing.
std::vector<std::pair<std::string, std::string>> trace_files(const platform& p, bool gzip);

} // namespace blsim::soc
