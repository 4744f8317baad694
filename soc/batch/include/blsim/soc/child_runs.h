// soc/batch/include/blsim/soc/child_runs.h -- running `blsim run` child processes, at most N at
// once, for the commands that run scenarios by the same binary (compare, regress, sweep).
//
// The contract: each request becomes `blsim run -q --out OUT_DIR [--set K=V]... [EXTRA]...
// SCENARIO` (SCENARIO made "./SCENARIO" when it starts with '-', so that it is not taken for an
// option), executed as `exe` with stdin and stdout on /dev/null and stderr into `stderr_file`
// (created or truncated). Every request is run, in order, however many fail; the caller reads
// each one's outcome (its wait status, or why it could not be started) and its files.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace blsim::soc {

// How a request for this very binary (exe "/proc/self/exe", the commands' default) runs: with
// a runner set, the child is a fork of this process that calls it with the run's argv
// ({"blsim", "run", ...}) and exits with what it returns, so that a point pays neither the
// exec nor the dynamic loading of a fresh process (docs/performance.md, "Sweeps"). What a run
// computes depends only on its arguments and files, so the results are the same either way.
// Without a runner, or for another exe, the child executes `exe`; so does every child of an
// AddressSanitizer build (scripts/check-sanitizers), where the forked copy's coroutine stacks
// make the sanitizer warn. Set once, by main(), before any command runs.
using self_runner_fn = int (*)(int argc, char** argv);
void set_self_runner(self_runner_fn runner);

struct run_request {
    std::string exe;                     // the blsim binary
    std::string out_dir;                 // --out
    std::string scenario;                // the last argument
    std::vector<std::string> overrides;  // each passed as --set K=V, in order
    std::vector<std::string> extra_args; // after the overrides, before the scenario
    std::string stderr_file;             // the child's stderr
};

struct run_outcome {
    int status = 0;          // the child's wait status (waitpid), when it was started
    std::string start_error; // why it could not be started (strerror's words); empty when it was
    bool succeeded() const;  // started and exited 0
};

struct child_run_options {
    unsigned max_at_once = 1; // at least one at a time
    // The children are killed (SIGKILL) when this process dies (PR_SET_PDEATHSIG), so that a
    // killed parent leaves no run still writing.
    bool die_with_parent = false;
    // Empty: a child that cannot be set up or executed is a start error (as posix_spawn
    // reports it). Otherwise it is a run that exits 127, having written this text to its
    // stderr file when `exe` could not be executed.
    std::string exec_failure_message;
    // When set and true, no further request is started: those not yet started keep a default
    // outcome and get no on_done call; the running ones are waited for.
    std::function<bool()> stop_starting = nullptr;
};

// Called as each request ends (or fails to start): its index, its outcome, and how many
// requests are still running or not yet started.
using run_done_fn = std::function<void(std::size_t index, const run_outcome& outcome, std::size_t remaining)>;

// The runs of @requests, at most @opt.max_at_once at a time, their outcomes into @outcomes (in
// request order). False with @error (strerror's words) when waiting for the children fails.
bool run_children(const std::vector<run_request>& requests, const child_run_options& opt,
                  std::vector<run_outcome>& outcomes, std::string& error, const run_done_fn& on_done = {});

// Progress of a command's runs on @err: on a terminal (and not under CI=true) one line,
// redrawn as runs finish ("blsim: WHAT: 12/40 runs done, 1 FAILED_WORD, ETA 3 s"); otherwise
// one plain line per finished run ("blsim: WHAT: [12/40] <its line>").
class progress_line {
public:
    progress_line(std::ostream& err, std::string what, std::string failed_word, std::size_t total,
                  std::size_t done_before);
    // A run ended: @line describes it (for the plain form), @failed counts it as failed;
    // @remaining runs are still running or to start.
    void finished(const std::string& line, bool failed, std::size_t remaining);
    // Clears the redrawn line (nothing in the plain form).
    void end();

private:
    void draw();
    std::ostream& err_;
    std::string what_, failed_word_;
    std::size_t total_, done_, now_ = 0, failed_ = 0, remaining_ = 0;
    double start_s_;
    bool live_ = false;
};

// @s as one word for a POSIX shell, in the commands printed for a user to paste: as it is when
// it is a plain word, otherwise single-quoted.
std::string shell_word(const std::string& s);

// The path of blsim's helper script @name (plot, plot-compare, plot-pareto, tune): beside an
// installed binary, PREFIX/share/blsim/scripts/@name (the binary being PREFIX/bin/blsim, as
// `cmake --install` lays them out); otherwise, for a binary in its build tree, the source
// tree's scripts/@name. Found from the running binary's own path, so an installed blsim works
// from any directory.
std::string script_path(const std::string& name);

// Runs `/usr/bin/python3 @script @arg` (no shell: @arg is passed as it is) with stdin from
// /dev/null, and stdout too when @quiet; waits for it. Its wait status, or -1 when it could not
// be started. For the plot scripts (scripts/plot, scripts/plot-pareto).
int run_python_script(const std::string& script, const std::string& arg, bool quiet);

// How many runs at once for a -j value: @jobs, or the hardware's concurrency when 0; at least 1.
unsigned runs_at_once(unsigned jobs);
// The value of -j / --jobs: a positive whole number, into @jobs; false with @error otherwise.
bool parse_jobs(const std::string& v, unsigned& jobs, std::string& error);
// While it lives, Ctrl-C (SIGINT) or SIGTERM prints @text on stderr before the process dies of
// the signal as it would have: for a command that can be resumed, how to resume. One at a
// time; the handlers before it are restored when it ends. Runs forked in-process reset them.
class interrupt_notice {
public:
    explicit interrupt_notice(const std::string& text);
    ~interrupt_notice();
    interrupt_notice(const interrupt_notice&) = delete;
    interrupt_notice& operator=(const interrupt_notice&) = delete;
};

// A --set written as two arguments ("--set duration_s 10"): @v the value the option took,
// @next the argument after it (nullptr when none). True, with @error saying how to write it,
// when @v has no '=' and @next reads as its value; then @next would otherwise be taken for a
// scenario ("10: cannot read").
bool set_split_in_two(const std::string& v, const char* next, std::string& error);

// The keys of a dotted path into summary.json ("energy_j.total"), empty ones included.
std::vector<std::string> dotted_path(const std::string& path);

// The lines of @text, without the empty one after a final newline.
std::vector<std::string> lines_of(const std::string& text);
// The lines of the file @path; none when it cannot be read.
std::vector<std::string> file_lines(const std::string& path);
// The last @n of @lines.
std::vector<std::string> last_lines(const std::vector<std::string>& lines, std::size_t n);

// After "... failed (WHY)": "; it printed nothing\n", or "; its stderr:\n" (or "; the last
// lines of its stderr:\n" when there are more than @n) and those lines, as write_indented does.
void write_stderr_tail(std::ostream& err, const std::vector<std::string>& lines, std::size_t n);
// Each of @lines on a line of its own, indented by two spaces.
void write_indented(std::ostream& err, const std::vector<std::string>& lines);

// Reading a JSON file (such as a run's summary.json): what became of it, with @why (strerror's
// words) when it could not be read.
enum class json_file { ok, unreadable, not_json };
json_file read_json_file(const std::string& path, nlohmann::json& doc, std::string& why);
json_file read_json_file(const std::string& path, nlohmann::ordered_json& doc, std::string& why);

} // namespace blsim::soc
