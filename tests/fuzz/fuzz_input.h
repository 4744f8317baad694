// tests/fuzz/fuzz_input.h -- the fuzz targets' input format: a scenario document, optionally
// followed by a line "#--set" and one override per line (what `blsim run --set` takes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace blsim_fuzz {

struct input {
    std::string scenario;
    std::vector<std::string> overrides;
};

inline input split_input(const std::uint8_t* data, std::size_t size)
{
    const std::string all(reinterpret_cast<const char*>(data), size);
    input in{all, {}};
    const std::size_t split = all.find("\n#--set\n");
    if (split != std::string::npos) {
        in.scenario = all.substr(0, split + 1);
        std::size_t at = split + 8;
        while (at < all.size()) {
            std::size_t end = all.find('\n', at);
            if (end == std::string::npos)
                end = all.size();
            in.overrides.push_back(all.substr(at, end - at));
            at = end + 1;
        }
    }
    return in;
}

} // namespace blsim_fuzz
