// soc/batch/src/results_dir.cpp -- a results set on disk (blsim/soc/results_dir.h).
#include "blsim/soc/results_dir.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace blsim::soc {

bool prepare_results_dir(const std::string& dir, std::string& error)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        error = dir + ": " + ec.message();
        return false;
    }
    // Prove that files can be created there, before minutes of simulation depend on it.
    const std::filesystem::path probe = std::filesystem::path(dir) / ".blsim-write-test";
    {
        std::ofstream out(probe, std::ios::binary | std::ios::trunc);
        if (!out) {
            error = dir + ": " + std::strerror(errno);
            return false;
        }
    }
    std::filesystem::remove(probe, ec);
    return true;
}

namespace {

namespace fs = std::filesystem;

// The directory an --out names, without a trailing slash ("out/" is "out").
fs::path out_path(const std::string& dir)
{
    fs::path p = fs::path(dir).lexically_normal();
    if (!p.has_filename() && p.has_parent_path())
        p = p.parent_path();
    return p;
}

fs::path parent_of(const fs::path& p)
{
    return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

constexpr const char* staging_tag = ".blsim-tmp.";
constexpr const char* old_tag = ".blsim-old.";

// The pid a hidden staging or old-set name ends with (".NAME.blsim-tmp.PID"), or 0.
pid_t owner_of(const std::string& name)
{
    if (name.empty() || name[0] != '.')
        return 0;
    std::size_t at = name.rfind(staging_tag);
    std::size_t len = std::strlen(staging_tag);
    if (at == std::string::npos) {
        at = name.rfind(old_tag);
        len = std::strlen(old_tag);
    }
    if (at == std::string::npos || at + len >= name.size())
        return 0;
    const std::string digits = name.substr(at + len);
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9)
        return 0;
    return static_cast<pid_t>(std::stol(digits));
}

} // namespace

bool check_out_dir(const std::string& dir, bool force, std::string& error, const std::string& option)
{
    const fs::path p = out_path(dir);
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (!fs::exists(st))
        return true;
    if (!fs::is_directory(st)) {
        error = option + " " + dir + ": exists and is not a directory";
        return false;
    }
    if (force)
        return true;
    fs::directory_iterator it(p, ec);
    if (ec) {
        error = "cannot write results to " + dir + ": " + ec.message();
        return false;
    }
    if (it != fs::directory_iterator()) {
        error = option + " " + dir + ": not empty (an earlier run's results?); give a new directory, or --force to "
                "replace its contents with this run's";
        return false;
    }
    return true;
}

bool place_rtapp_log(const std::string& out_dir, const std::string& log_dir, bool force, bool& in_set,
                     std::string& sub, std::string& error)
{
    std::error_code ec;
    const fs::path out = fs::absolute(out_path(out_dir), ec).lexically_normal();
    const fs::path log = fs::absolute(out_path(log_dir), ec).lexically_normal();
    const fs::path below = log.lexically_relative(out);
    in_set = !below.empty() && *below.begin() != "..";
    if (in_set) {
        sub = below == "." ? std::string() : below.string();
        return true;
    }
    const fs::path above = out.lexically_relative(log);
    if (!above.empty() && *above.begin() != "..") {
        error = "--rtapp-log " + log_dir + ": holds the results directory --out " + out_dir +
                "; give a directory beside it, or inside it";
        return false;
    }
    return check_out_dir(log_dir, force, error, "--rtapp-log");
}

bool stage_out_dir(const std::string& dir, std::string& staging, std::string& error)
{
    const fs::path p = out_path(dir);
    const fs::path parent = parent_of(p);
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) {
        error = dir + ": " + ec.message();
        return false;
    }
    // What killed runs left in this parent: removed once their owner is gone.
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const pid_t owner = owner_of(it->path().filename().string());
        if (owner > 0 && owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH)
            stale.push_back(it->path());
    }
    for (const fs::path& s : stale)
        fs::remove_all(s, ec);
    const fs::path tmp = parent / ("." + p.filename().string() + staging_tag + std::to_string(::getpid()));
    fs::remove_all(tmp, ec);
    if (::mkdir(tmp.c_str(), 0777) != 0) {
        error = dir + ": " + std::strerror(errno);
        return false;
    }
    staging = tmp.string();
    return true;
}

bool publish_out_dir(const std::string& staging, const std::string& dir, std::string& error)
{
    const fs::path p = out_path(dir);
    std::error_code ec;
    fs::path old;
    if (fs::exists(fs::symlink_status(p, ec))) {
        // An empty directory goes; one with an older set (--force) is renamed aside.
        if (!fs::remove(p, ec) || ec) {
            old = parent_of(p) / ("." + p.filename().string() + old_tag + std::to_string(::getpid()));
            fs::remove_all(old, ec);
            fs::rename(p, old, ec);
            if (ec) {
                error = dir + ": " + ec.message();
                return false;
            }
        }
    }
    fs::rename(staging, p, ec);
    if (ec) {
        error = dir + ": " + ec.message();
        std::error_code back;
        if (!old.empty())
            fs::rename(old, p, back);
        return false;
    }
    if (!old.empty())
        fs::remove_all(old, ec);
    return true;
}

bool make_scratch_dir(const std::string& prefix, std::string& path, std::string& error)
{
    std::error_code ec;
    const fs::path parent = fs::temp_directory_path(ec);
    if (ec) {
        const char* env = std::getenv("TMPDIR");
        error = "in " + std::string(env ? env : "") + ": " + ec.message();
        return false;
    }
    std::string tmpl = (parent / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data())) {
        error = "in " + parent.string() + ": " + std::strerror(errno);
        return false;
    }
    path = tmpl;
    return true;
}

std::vector<std::string> set_files(const std::string& dir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().lexically_relative(dir).string();
        if (n != "summary.json" && !it->is_directory(ec))
            names.push_back(n);
    }
    std::sort(names.begin(), names.end());
    return names;
}

bool write_files(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                 std::string& error)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        error = dir + ": " + ec.message();
        return false;
    }
    // The last file marks the set complete: an older one goes first, so that until the new
    // set is whole no marker says it is.
    if (!files.empty()) {
        std::filesystem::remove(std::filesystem::path(dir) / files.back().first, ec);
        if (ec) {
            error = (std::filesystem::path(dir) / files.back().first).string() + ": " + ec.message();
            return false;
        }
    }
    for (const auto& [name, content] : files) {
        const std::filesystem::path path = std::filesystem::path(dir) / name;
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) {
            error = path.parent_path().string() + ": " + ec.message();
            return false;
        }
        if (!write_file_atomically(path.string(), content, error))
            return false;
    }
    return true;
}

bool write_file_atomically(const std::string& path, const std::string& text, std::string& error)
{
    const std::filesystem::path p(path);
    const std::filesystem::path tmp = p.parent_path() / ("." + p.filename().string() + ".tmp-" + std::to_string(::getpid()));
    std::error_code ec;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            error = tmp.string() + ": " + std::strerror(errno);
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, p, ec);
    if (ec) {
        error = p.string() + ": " + ec.message();
        std::filesystem::remove(tmp, ec);
        return false;
    }
    return true;
}

double peak_rss_mb()
{
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0; // ru_maxrss is in KiB on Linux
}

} // namespace blsim::soc
