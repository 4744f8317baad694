// tests/soc/shell.h -- what the end-to-end tests share: running a command line (blsim, a
// script, chromium) and reading the files it wrote.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
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

} // namespace blsim_test
