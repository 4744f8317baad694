// tests/fuzz/fuzz_replay.cpp -- runs a fuzz target over a corpus, in any build (ctest's
// fuzz_replay and fuzz_run_replay): every shipped configuration and every reproducer of a
// loader or run-time bug stays fixed.
//
// usage: fuzz_replay DIR_OR_FILE...   (directories are walked recursively; *.yaml and files
//        without an extension are inputs)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; i++) {
        const fs::path p(argv[i]);
        if (fs::is_directory(p)) {
            for (const auto& e : fs::recursive_directory_iterator(p))
                if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension().empty()))
                    inputs.push_back(e.path());
        } else {
            inputs.push_back(p);
        }
    }
    std::sort(inputs.begin(), inputs.end());
    for (const fs::path& p : inputs) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        const std::string s = ss.str();
        std::fprintf(stderr, "fuzz_replay: %s\n", p.string().c_str()); // which input, if it aborts
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    }
    std::printf("fuzz_replay: %zu inputs, no failure\n", inputs.size());
    return inputs.empty() ? 1 : 0;
}
