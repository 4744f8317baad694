// soc/batch/include/blsim/soc/results_dir.h -- a results set on disk: an output directory that
// holds exactly one run's (or one batch's) files, published at once, and files written so that
// a reader never sees half of one (docs/results.md, "One run, one set"). No SystemC: every
// command that writes results uses these, the batch commands and `blsim run` alike.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace blsim::soc {

// Create @dir if needed and make sure files can be written there (before simulating).
// Returns false with @error set.
bool prepare_results_dir(const std::string& dir, std::string& error);

// An output directory holds exactly one run's set, published at once (docs/results.md,
// "One run, one set"): the set is written into a hidden sibling of @dir (same parent,
// ".NAME.blsim-tmp.PID"), then renamed to @dir.
//
// check_out_dir: @dir may be used: absent, or an empty directory, or (with @force) any
// directory. False with @error set (a usage error: nothing is touched).
// @option: how the messages name the directory ("--out", "--rtapp-log").
bool check_out_dir(const std::string& dir, bool force, std::string& error, const std::string& option = "--out");
// Creates @dir's parent if needed and the staging directory, its path into @staging, after
// removing the staging directories other runs in that parent left when they were killed
// (their owner pid no longer alive). False with @error ("PATH: errno text").
bool stage_out_dir(const std::string& dir, std::string& staging, std::string& error);
// Publishes @staging as @dir: renamed in; an older @dir (--force) is renamed aside first and
// removed after. False with @error, @dir as it was.
bool publish_out_dir(const std::string& staging, const std::string& dir, std::string& error);
// A fresh scratch directory in TMPDIR ("PREFIX-XXXXXX"), its path into @path; false with
// @error ("in DIR: errno text") when TMPDIR is missing, full or unwritable.
bool make_scratch_dir(const std::string& prefix, std::string& path, std::string& error);
// Where `blsim run --rtapp-log @log_dir` puts rt-app's logs (docs/results.md, "rt-app's
// log"): inside the results directory @out_dir (the same, or below it), @in_set true and
// @sub the path below it ("" for @out_dir itself); elsewhere, @in_set false: a directory of
// its own, checked as --out is (absent or empty, or any with @force). False with @error (a
// usage error): the log directory would hold the results directory, or is not usable.
bool place_rtapp_log(const std::string& out_dir, const std::string& log_dir, bool force, bool& in_set,
                     std::string& sub, std::string& error);
// Every file of a set directory (below it: "DIR/NAME"), sorted, but summary.json.
std::vector<std::string> set_files(const std::string& dir);

// Publish @files (name, content; a name may hold directories, created) into @dir, creating it, as one set: the last file is the
// set's completion marker. An older marker is removed first; then each file is written to a
// temporary name and renamed, the marker last. A reader never sees half a file, and a
// directory without the marker holds no complete set. Returns false with @error set.
bool write_files(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                 std::string& error);
// Write @text to @path through a temporary name beside it (".NAME.tmp-PID"), renamed over it:
// a reader sees the old file or the new one, never half of one. False with @error set (the
// temporary removed).
bool write_file_atomically(const std::string& path, const std::string& text, std::string& error);

// Peak resident set size of this process, in MiB.
double peak_rss_mb();

} // namespace blsim::soc
