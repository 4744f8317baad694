// tests/common/shell.h -- what the end-to-end tests share: running a command line (blsim, a
// script, chromium), a scratch directory per test, and writing its inputs and reading the files
// it wrote.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace blsim_test {

struct result {
    int status = -1; // the exit status; -1: killed by a signal, or not run
    std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Writes @text to @p, making its directory.
inline void write(const std::filesystem::path& p, const std::string& text)
{
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// @s quoted for the shell.
inline std::string quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs the shell command line @cmd: its stdout, its stderr (through a file of this process's
// own), its exit status.
inline result shell(const std::string& cmd)
{
    static int n = 0;
    const std::filesystem::path err = std::filesystem::temp_directory_path() /
                                      ("blsim-test-err-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    result r;
    FILE* p = ::popen((cmd + " 2>" + quote(err.string())).c_str(), "r");
    if (p == nullptr)
        return r;
    char buf[4096];
    std::size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, p)) > 0)
        r.out.append(buf, k);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.err = slurp(err);
    std::filesystem::remove(err);
    return r;
}

// What a run simulated, from its summary.json: all of it but the list of files written and
// the host's own measurements (wall time and memory, which vary from run to run anyway).
inline std::string simulated(const std::filesystem::path& summary)
{
    nlohmann::json s = nlohmann::json::parse(slurp(summary));
    s.erase("files");
    for (const char* k : {"wall_s", "realtime_factor", "peak_rss_mb"})
        s.at("host").erase(k);
    return s.dump(1);
}

// A test with a directory of its own, "<TMPDIR>/blsim-<what>-<pid>-<test name>", removed
// before and after. At the start it is absent (a run's --out, which blsim makes), or made
// empty (where the test writes its inputs, or runs blsim from).
class scratch_test : public ::testing::Test {
protected:
    enum class start { absent, made };
    explicit scratch_test(const std::string& what, start how = start::absent) : what_(what), how_(how) {}
    void SetUp() override
    {
        dir = std::filesystem::temp_directory_path() /
              ("blsim-" + what_ + "-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir);
        if (how_ == start::made)
            std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    std::filesystem::path dir;

private:
    std::string what_;
    start how_;
};

} // namespace blsim_test
