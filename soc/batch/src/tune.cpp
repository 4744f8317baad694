// soc/batch/src/tune.cpp -- `blsim tune` (docs/tune.md): starts scripts/tune, the Optuna search, with
// this binary's path; and answers its override checks with the scenario loader itself, so
// that a tune spec's keys and values are judged exactly as 'blsim run --set' judges them.
#include "blsim/soc/tune.h"

#include "blsim/soc/child_runs.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "blsim/soc/config_node.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/exit_codes.h"

namespace blsim::soc {

namespace {

const char* const tune_help =
    "usage: blsim tune SPEC --out DIR [-j N] [--trials N] [--min-fraction F]\n"
    "\n"
    "Search the parameters of SPEC's base scenario (a YAML file, docs/tune.md) with Optuna's\n"
    "TPE sampler for the lowest (or highest) objective metric under constraints, each trial\n"
    "its own 'blsim run -q' into DIR/trials/NNNN/. The baselines the spec names run once\n"
    "(DIR/baselines/NAME/). The study is DIR/study.db: running the same command again resumes\n"
    "it, and a larger --trials extends it. Writes DIR/trials.csv, DIR/best.json and\n"
    "DIR/trials.png, and prints the best tuning as --set lines against every baseline.\n"
    "\n"
    "  --out DIR           the tune's directory (required); created if missing\n"
    "  -j, --jobs N        trials asked and run at once (default: DIR's last, else 1). The\n"
    "                      trials depend on the seed and N, not on timing: the same spec,\n"
    "                      seed and N give the same trials\n"
    "  --trials N          the budget, trials in all (default: the spec's 'trials')\n"
    "  --min-fraction F    the spec's 'min_fraction' (what its constraints name so)\n"
    "  -h, --help          this text\n"
    "\n"
    "Runs /usr/bin/python3 scripts/tune (python3-optuna, python3-matplotlib, python3-yaml).\n"
    "The spec is checked, every parameter's values with the base scenario, before anything is\n"
    "written (file:line:col: message). Exit status: 0 done (failed trials are recorded and the\n"
    "search goes on), 1 every trial failed, a baseline failed or an environment failure, 2 bad\n"
    "input, nothing written.\n";


} // namespace

bool check_override_groups(const std::string& base, const std::string& request, std::string& response,
                           std::string& error)
{
    nlohmann::json groups;
    try {
        groups = nlohmann::json::parse(request);
    } catch (const nlohmann::json::parse_error& e) {
        error = std::string("not JSON: ") + e.what();
        return false;
    }
    if (!groups.is_array()) {
        error = "expected an array of arrays of \"key=value\" strings";
        return false;
    }
    nlohmann::json answer = nlohmann::json::array();
    for (const auto& g : groups) {
        if (!g.is_array()) {
            error = "expected an array of arrays of \"key=value\" strings";
            return false;
        }
        std::vector<std::string> overrides;
        for (const auto& o : g) {
            if (!o.is_string()) {
                error = "expected an array of arrays of \"key=value\" strings";
                return false;
            }
            overrides.push_back(o.get<std::string>());
        }
        cfg::diagnostics diag;
        scenario_config cfg;
        load_scenario(base, overrides, cfg, diag);
        answer.push_back(diag.messages());
    }
    response = answer.dump() + "\n";
    return true;
}

int run_tune(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    for (const std::string& a : args) {
        if (a == "--")
            break;
        if (a == "-h" || a == "--help") {
            out << tune_help;
            return exit_ok;
        }
    }
    // scripts/tune's question: does the base accept these overrides? The groups come on stdin.
    if (!args.empty() && args[0] == "--check-overrides") {
        if (args.size() != 2) {
            err << "blsim: tune --check-overrides needs BASE, and the groups on stdin\n";
            return exit_usage;
        }
        const std::string request((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        std::string response, error;
        if (!check_override_groups(args[1], request, response, error)) {
            err << "blsim: tune --check-overrides: " << error << "\n";
            return exit_usage;
        }
        out << response;
        out.flush();
        return exit_ok;
    }

    // The search: this process becomes the Python script, told where this binary is (its runs
    // use the same one).
    char exe[4096];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        err << "blsim: tune: cannot find this binary (/proc/self/exe): " << std::strerror(errno) << "\n";
        return exit_failed;
    }
    exe[n] = '\0';
    std::string python = "/usr/bin/python3", script = script_path("tune"), flag = "--blsim", self = exe;
    std::vector<std::string> words = {python, script, flag, self};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    out.flush();
    err.flush();
    ::execv(python.c_str(), argv.data());
    err << "blsim: tune: cannot run " << python << " " << script << ": " << std::strerror(errno)
        << " (scripts/setup installs python3 and python3-optuna)\n";
    return exit_failed;
}

} // namespace blsim::soc
