// soc/report/src/rtapp_logs.cpp -- rt-app's log files of the run (blsim/soc/results.h;
// docs/results.md, "rt-app's log").
#include "blsim/soc/results.h"

#include "blsim/workloads/composite.h"
#include "blsim/workloads/rtapp.h"

namespace blsim::soc {

std::vector<std::pair<std::string, std::string>> rtapp_log_files(const platform& p)
{
    std::vector<std::pair<std::string, std::string>> files;
    if (const auto* r = workloads::find_part<workloads::rtapp>(p.workload()))
        for (const workloads::rtapp_thread_stats& t : r->stats())
            files.push_back({t.log_file, workloads::rtapp_log_text(t.log)});
    return files;
}

} // namespace blsim::soc
