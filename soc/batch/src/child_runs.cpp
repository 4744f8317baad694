// soc/batch/src/child_runs.cpp -- running `blsim run` child processes (child_runs.h).
#include "blsim/soc/child_runs.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <thread>

#include "blsim/soc/scenario.h"

extern char** environ;

namespace blsim::soc {

namespace {

// set_self_runner's: the one process-wide setting, made by main() before any command runs.
self_runner_fn self_runner = nullptr;

// In the child, after fork: @path opened as descriptor @target.
bool open_as(const char* path, int flags, int target)
{
    const int fd = ::open(path, flags, 0644);
    if (fd < 0)
        return false;
    if (fd != target) {
        if (::dup2(fd, target) < 0)
            return false;
        ::close(fd);
    }
    return true;
}

// `blsim run -q --out DIR [--set K=V]... [extra] SCENARIO`: @r's command line.
std::vector<std::string> run_args(const run_request& r)
{
    std::string scenario = r.scenario;
    if (!scenario.empty() && scenario[0] == '-')
        scenario = "./" + scenario; // not to be taken for an option
    std::vector<std::string> args = {"blsim", "run", "-q", "--out", r.out_dir};
    for (const std::string& o : r.overrides) {
        args.push_back("--set");
        args.push_back(o);
    }
    args.insert(args.end(), r.extra_args.begin(), r.extra_args.end());
    args.push_back(scenario);
    return args;
}

// In the child: it could not start; errno to the parent through @report_fd (if any).
[[noreturn]] void could_not_start(int report_fd)
{
    const int e = errno;
    if (report_fd >= 0) {
        ssize_t ignored = ::write(report_fd, &e, sizeof e);
        (void)ignored;
    }
    ::_exit(127);
}

// In the child, after fork: stdin and stdout to /dev/null, stderr to @r's file, then the run,
// in this process (@in_process: the fork of blsim runs it) or by exec. @report_fd: the pipe
// that tells the parent why the child could not start (-1: none, @opt's message instead).
[[noreturn]] void be_the_run(const run_request& r, const child_run_options& opt, std::vector<std::string>& args,
                             std::vector<char*>& argv, int report_fd, bool in_process, pid_t parent)
{
    const bool report_start = report_fd >= 0;
    if (opt.die_with_parent) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
    }
    if (!open_as("/dev/null", O_RDONLY, 0) || !open_as("/dev/null", O_WRONLY, 1) ||
        !open_as(r.stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 2))
        could_not_start(report_fd);
    if (in_process) {
        // A fork keeps the parent's signal handlers (an exec would reset them): the run
        // dies of Ctrl-C as a 'blsim run' does, and the parent alone says what it means.
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        // Started: the parent's read of the report pipe ends here, as an exec would end it.
        if (report_start)
            ::close(report_fd);
        const int rc = self_runner(static_cast<int>(args.size()), argv.data());
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        ::_exit(rc); // not exit(): the parent's atexit handlers and buffers are the parent's
    }
    ::execv(r.exe.c_str(), argv.data());
    if (!report_start) {
        ssize_t ignored = ::write(2, opt.exec_failure_message.data(), opt.exec_failure_message.size());
        (void)ignored;
    }
    could_not_start(report_fd);
}

// In the parent: whether the child @pid started, from the report pipe @report (closed here);
// false with @error (the child reaped, @pid -1) when it could not.
bool child_started(int report[2], pid_t& pid, std::string& error)
{
    ::close(report[1]);
    int e = 0;
    ssize_t n;
    while ((n = ::read(report[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    ::close(report[0]);
    if (n != static_cast<ssize_t>(sizeof e))
        return true;
    error = std::strerror(e);
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
    return false;
}

// Starts @r's run, its pid into @pid; false with @error when it could not be started.
bool start(const run_request& r, const child_run_options& opt, pid_t& pid, std::string& error)
{
    std::vector<std::string> args = run_args(r);
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    // The child reports why it could not start (an errno) through this pipe, closed on exec.
    int report[2] = {-1, -1};
    const bool report_start = opt.exec_failure_message.empty();
    if (report_start && ::pipe2(report, O_CLOEXEC) != 0) {
        error = std::strerror(errno);
        return false;
    }
    // (Not under AddressSanitizer: a forked copy's SystemC threads switch stacks the
    // sanitizer did not see created, and it warns on every run; such a build execs.)
#if defined(__SANITIZE_ADDRESS__)
    const bool in_process = false;
#else
    const bool in_process = self_runner && r.exe == "/proc/self/exe";
#endif
    const pid_t parent = ::getpid();
    // Nothing buffered may be written twice, by the parent and by its forked copy.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    pid = ::fork();
    if (pid < 0) {
        error = std::strerror(errno);
        if (report_start) {
            ::close(report[0]);
            ::close(report[1]);
        }
        return false;
    }
    if (pid == 0)
        be_the_run(r, opt, args, argv, report_start ? report[1] : -1, in_process, parent);
    return report_start ? child_started(report, pid, error) : true;
}

template <class Json>
json_file read_json(const std::string& path, Json& doc, std::string& why)
{
    std::string text;
    if (!read_source(path, text, why))
        return json_file::unreadable;
    Json parsed = Json::parse(text, nullptr, false);
    if (parsed.is_discarded())
        return json_file::not_json;
    doc = std::move(parsed);
    return json_file::ok;
}

} // namespace

void set_self_runner(self_runner_fn runner) { self_runner = runner; }

bool run_outcome::succeeded() const { return start_error.empty() && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

bool run_children(const std::vector<run_request>& requests, const child_run_options& opt,
                  std::vector<run_outcome>& outcomes, std::string& error, const run_done_fn& on_done)
{
    outcomes.assign(requests.size(), run_outcome{});
    const std::size_t limit = std::max(opt.max_at_once, 1u);
    std::map<pid_t, std::size_t> running;
    std::size_t next = 0;
    while (next < requests.size() || !running.empty()) {
        if (opt.stop_starting && next < requests.size() && opt.stop_starting()) {
            next = requests.size();
            if (running.empty())
                break;
        }
        while (running.size() < limit && next < requests.size()) {
            const std::size_t i = next++;
            pid_t pid = -1;
            if (start(requests[i], opt, pid, outcomes[i].start_error))
                running[pid] = i;
            else if (on_done)
                on_done(i, outcomes[i], requests.size() - next + running.size());
        }
        if (running.empty())
            continue;
        int st = 0;
        const pid_t pid = ::waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            error = std::strerror(errno);
            return false;
        }
        auto it = running.find(pid);
        if (it == running.end())
            continue;
        const std::size_t i = it->second;
        running.erase(it);
        outcomes[i].status = st;
        if (on_done)
            on_done(i, outcomes[i], requests.size() - next + running.size());
    }
    return true;
}

namespace {

// What interrupt_notice's handler writes: prepared beforehand, since a signal handler may
// only write(2) what is already there.
char notice_text[512];
std::size_t notice_len = 0;
struct sigaction notice_old_int, notice_old_term;

void notice_and_die(int sig)
{
    ssize_t ignored = ::write(STDERR_FILENO, notice_text, notice_len);
    (void)ignored;
    ::signal(sig, SIG_DFL);
    ::raise(sig); // the default action: the exit status says which signal, as for any program
}

} // namespace

interrupt_notice::interrupt_notice(const std::string& text)
{
    const std::string line = "\n" + text + "\n";
    notice_len = std::min(line.size(), sizeof notice_text);
    std::memcpy(notice_text, line.data(), notice_len);
    struct sigaction sa {};
    sa.sa_handler = notice_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &notice_old_int);
    ::sigaction(SIGTERM, &sa, &notice_old_term);
}

interrupt_notice::~interrupt_notice()
{
    ::sigaction(SIGINT, &notice_old_int, nullptr);
    ::sigaction(SIGTERM, &notice_old_term, nullptr);
}

namespace {

double monotonic_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

progress_line::progress_line(std::ostream& err, std::string what, std::string failed_word, std::size_t total,
                             std::size_t done_before)
    : err_(err), what_(std::move(what)), failed_word_(std::move(failed_word)), total_(total), done_(done_before),
      start_s_(monotonic_s())
{
    const char* ci = std::getenv("CI");
    live_ = ::isatty(STDERR_FILENO) && !(ci && std::string(ci) == "true");
    if (live_)
        draw();
}

void progress_line::finished(const std::string& line, bool failed, std::size_t remaining)
{
    done_++;
    now_++;
    failed_ += failed;
    remaining_ = remaining;
    if (live_) {
        draw();
    } else {
        err_ << "blsim: " << what_ << ": [" << done_ << "/" << total_ << "] " << line << "\n";
        err_.flush();
    }
}

void progress_line::end()
{
    if (live_) {
        err_ << "\r\033[K";
        err_.flush();
    }
}

void progress_line::draw()
{
    std::string eta = "-";
    if (now_ > 0) {
        const double per = (monotonic_s() - start_s_) / static_cast<double>(now_);
        eta = std::to_string(static_cast<long long>(std::ceil(per * static_cast<double>(remaining_)))) + " s";
    }
    err_ << "\r\033[Kblsim: " << what_ << ": " << done_ << "/" << total_ << " runs done, " << failed_ << " "
         << failed_word_ << ", ETA " << eta;
    err_.flush();
}

std::string shell_word(const std::string& s)
{
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+=:,@") ==
                          std::string::npos)
        return s;
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string script_path(const std::string& name)
{
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::canonical("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = exe.parent_path() / BLSIM_SCRIPTS_FROM_BIN / name;
        if (std::filesystem::exists(installed, ec))
            return installed.lexically_normal().string();
    }
    return std::string(BLSIM_SOURCE_SCRIPTS_DIR) + "/" + name;
}

int run_python_script(const std::string& script, const std::string& arg, bool quiet)
{
    std::string python = "/usr/bin/python3", s = script, a = arg;
    std::vector<char*> argv = {python.data(), s.data(), a.data(), nullptr};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (quiet)
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    int st = -1;
    if (posix_spawn(&pid, python.c_str(), &fa, nullptr, argv.data(), environ) == 0) {
        while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
    }
    posix_spawn_file_actions_destroy(&fa);
    return st;
}

unsigned runs_at_once(unsigned jobs) { return std::max(jobs ? jobs : std::thread::hardware_concurrency(), 1u); }

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t from = 0;
    for (std::size_t at; (at = text.find('\n', from)) != std::string::npos; from = at + 1)
        lines.push_back(text.substr(from, at - from));
    if (from < text.size())
        lines.push_back(text.substr(from));
    return lines;
}

std::vector<std::string> file_lines(const std::string& path)
{
    std::string text, why;
    read_source(path, text, why);
    return lines_of(text);
}

std::vector<std::string> last_lines(const std::vector<std::string>& lines, std::size_t n)
{
    return {lines.end() - static_cast<std::ptrdiff_t>(std::min(n, lines.size())), lines.end()};
}

void write_stderr_tail(std::ostream& err, const std::vector<std::string>& lines, std::size_t n)
{
    if (lines.empty()) {
        err << "; it printed nothing\n";
        return;
    }
    err << "; " << (lines.size() > n ? "the last lines of " : "") << "its stderr:\n";
    write_indented(err, last_lines(lines, n));
}

void write_indented(std::ostream& err, const std::vector<std::string>& lines)
{
    for (const std::string& l : lines)
        err << "  " << l << "\n";
}

json_file read_json_file(const std::string& path, nlohmann::json& doc, std::string& why)
{
    return read_json(path, doc, why);
}

json_file read_json_file(const std::string& path, nlohmann::ordered_json& doc, std::string& why)
{
    return read_json(path, doc, why);
}

bool set_split_in_two(const std::string& v, const char* next, std::string& error)
{
    if (v.find('=') != std::string::npos || v.empty() || !next || next[0] == '\0' || next[0] == '-')
        return false;
    error = "--set " + v + " " + next + ": a --set is one argument, KEY=VALUE: --set " + v + "=" + next;
    return true;
}

bool parse_jobs(const std::string& v, unsigned& jobs, std::string& error)
{
    const bool digits = !v.empty() && v.size() <= 4 &&
                        std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoul(v) == 0) {
        error = "-j needs a positive whole number of runs (got '" + v + "')";
        return false;
    }
    jobs = static_cast<unsigned>(std::stoul(v));
    return true;
}

std::vector<std::string> dotted_path(const std::string& path)
{
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (std::size_t at; (at = path.find('.', from)) != std::string::npos; from = at + 1)
        parts.push_back(path.substr(from, at - from));
    parts.push_back(path.substr(from));
    return parts;
}

} // namespace blsim::soc
