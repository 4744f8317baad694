// tests/fuzz/fuzz_config.cpp -- a libFuzzer target over the configuration loader and --set.
//
// An input is a scenario document, optionally followed by a line "#--set" and one override
// per line (what `blsim run --set` takes). The scenario is named as if it sat in
// configs/scenarios/, so "soc: ../soc/tc2.yaml" finds the SoC built into the binary.
//
// What must hold for every input, or the fuzzer has found a bug: the loader returns (no
// crash, no hang, no sanitizer report); it either accepts, or refuses with located messages
// of one line each; and an accepted configuration's effective YAML loads back to the same
// effective YAML. Built with clang and -fsanitize=fuzzer by -DBLSIM_FUZZ=ON; the replay
// (fuzz_replay.cpp) runs the same function over the corpus in every build, under ctest.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "blsim/soc/scenario.h"
#include "fuzz_input.h"

namespace {

[[noreturn]] void found(const std::string& what)
{
    std::fprintf(stderr, "fuzz_config: %s\n", what.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const blsim_fuzz::input in = blsim_fuzz::split_input(data, size);
    const std::string& text = in.scenario;
    const std::vector<std::string>& overrides = in.overrides;
    const std::string name = "builtin:configs/scenarios/fuzz.yaml";
    blsim::cfg::diagnostics diag;
    blsim::soc::scenario_config cfg;
    if (!blsim::soc::load_scenario_text(text, name, overrides, cfg, diag)) {
        const std::vector<std::string> messages = diag.messages();
        if (messages.empty())
            found("refused without a message");
        for (const std::string& m : messages)
            if (m.empty() || m.find('\n') != std::string::npos)
                found("a message that is not one line: '" + m + "'");
        return 0;
    }
    const std::string effective = blsim::soc::effective_yaml(cfg);
    blsim::cfg::diagnostics again_diag;
    blsim::soc::scenario_config again;
    if (!blsim::soc::load_scenario_text(effective, name, {}, again, again_diag))
        found("the effective configuration does not load back: " + again_diag.first_text());
    if (blsim::soc::effective_yaml(again) != effective)
        found("the effective configuration does not round-trip");
    return 0;
}
