// soc/report/src/trace_writers.cpp -- the trace files a run asked for (blsim/soc/trace_writers.h):
// trace.json (trace_perfetto.cpp) and trace.txt (trace_ftrace.cpp), from the platform's trace
// recorder (soc/platform/src/trace.cpp), after the run.
#include "blsim/soc/trace_writers.h"

#include "blsim/model/invariant.h"

namespace blsim::soc {

std::vector<std::pair<std::string, std::string>> trace_files(const platform& p, bool compress)
{
    std::vector<std::pair<std::string, std::string>> files;
    const trace_recorder* r = p.trace();
    if (!r)
        return files;
    const std::uint64_t end = model::now_ps();
    if (p.traces_perfetto()) {
        std::string text = perfetto_json(*r, p.switch_records(), end);
        files.emplace_back(compress ? "trace.json.gz" : "trace.json", compress ? gzip(text) : std::move(text));
    }
    if (p.traces_ftrace()) {
        std::string text = ftrace_text(*r, p.policy_limits_now());
        files.emplace_back(compress ? "trace.txt.gz" : "trace.txt", compress ? gzip(text) : std::move(text));
    }
    return files;
}

} // namespace blsim::soc
