// soc/config/include/blsim/soc/rtapp_config.h -- rt-app documents (JSON files, or the same structure
// written in YAML inside a scenario) into workloads::rtapp_params.
//
// The grammar is rt-app's (doc/tutorial.txt, src/rt-app_parse_config.c): a mapping with
// "tasks" (thread name -> thread) and optionally "global" and "resources". Event keys are
// matched by prefix as rt-app does ("run0", "sleep_long", "timer1"; "runtime..." before
// "run..."). Every construct blsim does not model is an error naming it, never skipped; every
// error is located at the offending key or value and collected, not thrown.
// docs/workloads-rtapp.md lists what is supported and what each event becomes.
#pragma once

#include <string>

#include "blsim/soc/config_node.h"
#include "blsim/workloads/rtapp.h"

namespace blsim::soc {

// The CPUs a task may be pinned to, 0..cpus-1, and how an error says so: "... (the SoC has "
// cpus what, e.g. " logical CPUs with the switcher on)".
struct cpu_limit {
    int cpus = 1 << 30; // no limit
    std::string what = " CPUs)";
    // Deadline admission: the bandwidth (bls_sched_bw's fixed point) the SCHED_DEADLINE
    // threads may reserve together, and how the message names it; UINT64_MAX: no limit.
    std::uint64_t dl_bw = UINT64_MAX;
    std::string dl_bw_what;
};

// Read the rt-app document @doc into @out (replaced only on success). Errors are reported as
// "<path>: <message>" at the offending key or value, <path> being the dotted path of the value
// within the document ("tasks.thread0.phases.p1.run0"), prefixed by @path when the document
// sits inside another one ("workload.rtapp"). A thread's or phase's "cpus" naming a CPU at or
// beyond @pinnable.cpus is an error at that CPU. Returns whether no error was found.
bool parse_rtapp(const cfg::node& doc, cfg::diagnostics& diag, workloads::rtapp_params& out,
                 const std::string& path = "", const cpu_limit& pinnable = {});

// Read rt-app JSON file @path: C comments (which json-c, rt-app's parser, accepts) are blanked
// out keeping every line and column, the text is parsed with cfg::parse_yaml (JSON is YAML),
// then parse_rtapp. An unreadable file: "cannot read rt-app file 'PATH': REASON", located at
// @at when given (the key that named the file).
bool load_rtapp_json(const std::string& path, cfg::diagnostics& diag, workloads::rtapp_params& out,
                     const cfg::mark* at = nullptr, const cpu_limit& pinnable = {});

// @text with its /* ... */ and // ... comments outside strings replaced by spaces (newlines
// kept), so that positions do not move.
std::string blank_json_comments(const std::string& text);

} // namespace blsim::soc
