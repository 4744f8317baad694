// soc/config/src/scenario.cpp -- a scenario loaded: its file (or a built-in one) read, bound to
// the schema (schema_soc.cpp, schema_workload.cpp, schema_kernel.cpp), checked (check.cpp),
// and written back as the effective configuration; and the configuration reference.
//
// Every key a user can write is declared once, in the schema files, with its type, unit, range
// and meaning; docs/config.md is generated from these declarations.
#include "blsim/soc/scenario.h"
#include "scenario_internal.h"

#include <bls/cpufreq.h>
#include <bls/cpuidle.h>
#include <bls/governor.h>
#include <bls/kernel.h>
#include <bls/types.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "blsim/model/power_formulas.h"
#include "blsim/soc/rtapp_config.h"
#include "blsim/soc/schema.h"

namespace blsim::soc {

using cfg::bind_context;
using cfg::diagnostics;
using cfg::mark;
using cfg::node;
using cfg::schema;

using namespace detail;

// --- files --------------------------------------------------------------------------------

bool read_source(const std::string& path, std::string& text, std::string& error)
{
    if (path.rfind(builtin_prefix, 0) == 0) {
        const char* content = embedded_file(path.substr(std::strlen(builtin_prefix)));
        if (!content) {
            error = "no such built-in file";
            return false;
        }
        text = content;
        return true;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = std::strerror(EISDIR);
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return true;
}

namespace detail {

std::string resolve_relative(const std::string& from_file, const std::string& ref)
{
    bool builtin = from_file.rfind(builtin_prefix, 0) == 0;
    std::filesystem::path base(builtin ? from_file.substr(std::strlen(builtin_prefix)) : from_file);
    std::filesystem::path target(ref);
    if (ref.rfind(builtin_prefix, 0) == 0 || target.is_absolute())
        return ref;
    std::string joined = (base.parent_path() / target).lexically_normal().string();
    return builtin ? builtin_prefix + joined : joined;
}

} // namespace detail


bool mode_switched(const std::string& mode) { return mode == "iks" || mode == "cluster-migration"; }

unsigned kernel_mode_of(const std::string& mode)
{
    if (mode == "smp")
        return BLS_MODE_SMP;
    if (mode == "iks")
        return BLS_MODE_IKS;
    if (mode == "cluster-migration")
        return BLS_MODE_CLUSTER_MIGRATION;
    if (mode == "hmp")
        return BLS_MODE_HMP;
    if (mode == "eas")
        return BLS_MODE_EAS;
    return 0;
}

const char* mode_name(unsigned kernel_mode)
{
    switch (kernel_mode) {
    case BLS_MODE_SMP: return "smp";
    case BLS_MODE_IKS: return "iks";
    case BLS_MODE_CLUSTER_MIGRATION: return "cluster-migration";
    case BLS_MODE_HMP: return "hmp";
    case BLS_MODE_EAS: return "eas";
    }
    return nullptr;
}

int big_cluster(const model::soc_params& soc)
{
    if (soc.clusters.size() != 2)
        return -1;
    auto top = [](const model::cluster_params& c) {
        return static_cast<double>(c.capacity_dmips_mhz) * (c.opps.empty() ? 0 : c.opps.back().freq_mhz);
    };
    return top(soc.clusters[1]) > top(soc.clusters[0]) ? 1 : 0;
}

int logical_cpus(const scenario_config& cfg)
{
    int total = 0;
    for (const model::cluster_params& c : cfg.soc.clusters)
        total += c.cores;
    if (!mode_switched(cfg.mode) || cfg.soc.clusters.size() != 2)
        return total;
    // Each CPU of the boot cluster (the first) pairs with one of the other.
    return std::min(cfg.soc.clusters[0].cores, cfg.soc.clusters[1].cores);
}

bool apply_tunable_write(governor_config& g, const tunable_write& w, const mark& at, diagnostics& diag)
{
    if (w.tunable == "boostpulse") {
        if (g.name != "interactive") {
            diag.error(at, "boostpulse is interactive's; the governor is " + g.name);
            return false;
        }
        return true;
    }
    if (g.name == "performance" || g.name == "powersave" || g.name == "userspace") {
        diag.error(at, "the " + g.name + " governor has no tunable '" + w.tunable + "'");
        return false;
    }
    if (g.name == "interactive") {
        std::string why;
        if (w.tunable == "variant") {
            diag.error(at, "variant is the interactive governor's generation, not a sysfs file: it is not "
                           "written during the run");
            return false;
        }
        if (!interactive_has(g.interactive.variant, w.tunable, why)) {
            diag.error(at, why);
            return false;
        }
    }
    // The write as the scenario would give it: governor.<name>.<tunable>: <value>.
    node inner = node::map(at);
    inner.keys.push_back(w.tunable);
    inner.key_marks.push_back(at);
    inner.items.push_back(node::scalar(w.value, at));
    node outer = node::map(at);
    outer.keys.push_back(g.name);
    outer.key_marks.push_back(at);
    outer.items.push_back(inner);
    const std::size_t before = diag.count();
    bind_context ctx(diag);
    governor_schema().bind(outer, g, ctx, "governor");
    return diag.count() == before;
}

bool load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                   scenario_config& out, diagnostics& diag)
{
    std::string text, error;
    if (!read_source(path, text, error)) {
        diag.error(path + ": cannot read: " + error);
        return false;
    }
    return load_scenario_text(text, path, overrides, out, diag);
}

namespace {

// An rt-app JSON file given where a scenario goes: it is JSON with C comments (which YAML
// reads as a syntax error) or JSON without them (which reads as a mapping of unknown keys).
// Either way its top level is rt-app's 'tasks' (and 'global'), not a scenario's keys.
bool rtapp_json_given_for_scenario(const std::string& text, const node* root)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || text[first] != '{')
        return false;
    if (root)
        return root->find("tasks") && !root->find("workload");
    return text.find("\"tasks\"") != std::string::npos;
}

void refuse_rtapp_json(const std::string& path, diagnostics& diag)
{
    diag.error(mark{path, 1, 1},
               "this is an rt-app JSON file, not a scenario: a scenario runs it as its workload "
               "('workload: {kind: rtapp, rtapp_json: FILE}', docs/workloads.md), e.g. "
               "blsim run configs/scenarios/rtapp-periodic.yaml --set workload.rtapp_json=" + path);
}

} // namespace

bool load_scenario_text(const std::string& text, const std::string& path, const std::vector<std::string>& overrides,
                        scenario_config& out, diagnostics& diag)
{
    std::string error;
    node root;
    {
        diagnostics parsing;
        const bool parsed = cfg::parse_yaml(text, path, root, parsing);
        if (rtapp_json_given_for_scenario(text, parsed ? &root : nullptr)) {
            refuse_rtapp_json(path, diag);
            return false;
        }
        // Anything to say (an error, a note): parsed again, to say it (parse_yaml's messages
        // go to the caller's list).
        if (!parsed || parsing.count() != 0 || parsing.note_count() != 0) {
            root = node{};
            if (!cfg::parse_yaml(text, path, root, diag))
                return false;
        }
    }

    // A 'soc' override replaces the reference itself, so it is applied before resolving.
    std::vector<std::pair<int, std::string>> later;
    for (std::size_t i = 0; i < overrides.size(); i++) {
        const std::string& o = overrides[i];
        if (o.rfind("soc=", 0) == 0)
            cfg::apply_override(root, o, static_cast<int>(i + 1), diag);
        else
            later.emplace_back(static_cast<int>(i + 1), o);
    }

    bool soc_ok = true;
    if (node* soc = root.find("soc"); soc && soc->is_scalar()) {
        const std::string soc_path = resolve_relative(relative_to(soc->at, path), soc->value);
        std::string soc_text;
        node soc_root;
        if (!read_source(soc_path, soc_text, error))
            diag.error(soc->at, "cannot read SoC file '" + soc->value + "': " + error);
        else
            cfg::parse_yaml(soc_text, soc_path, soc_root, diag);
        // On failure the SoC is left empty, and the rest is still checked so that every
        // error is reported at once.
        soc_ok = diag.ok();
        *soc = std::move(soc_root);
    }

    for (const auto& [index, o] : later)
        cfg::apply_override(root, o, index, diag);

    bind_context ctx(diag);
    ctx.record("", root.at);
    scenario_config c;
    if (soc_ok) {
        scenario_schema().bind(root, c, ctx, "");
    } else {
        // The SoC could not be read: check everything but it, without its noise.
        node rest = root;
        std::size_t i = std::find(rest.keys.begin(), rest.keys.end(), "soc") - rest.keys.begin();
        if (i < rest.keys.size()) {
            rest.keys.erase(rest.keys.begin() + i);
            rest.key_marks.erase(rest.key_marks.begin() + i);
            rest.items.erase(rest.items.begin() + i);
        }
        scenario_schema(false).bind(rest, c, ctx, "");
        return false;
    }
    if (!diag.ok())
        return false;
    apply_interactive_variant(c, ctx);
    check_workload(c, path, ctx, diag);
    check(c, ctx, diag);
    if (!diag.ok())
        return false;
    // cci_port -1: the variant's ACE interfaces in cluster order (checked above).
    const std::vector<int> ace = ace_ports(c.soc.cci.variant);
    for (std::size_t i = 0; i < c.soc.clusters.size(); i++)
        if (c.soc.clusters[i].cci_port == -1)
            c.soc.clusters[i].cci_port = ace.at(i);
    out = std::move(c);
    return true;
}

std::string effective_yaml(const scenario_config& c)
{
    return "# blsim effective configuration: every key, defaults included.\n" +
           cfg::emit_yaml(scenario_schema().emit(c));
}

std::vector<cfg::doc_row> config_reference_rows()
{
    std::vector<cfg::doc_row> rows;
    // The defaults documented are a scenario's own: built on the heap, where GCC 12's
    // -Wmaybe-uninitialized does not misread the inlined temporary's string members.
    const auto defaults = std::make_unique<scenario_config>();
    scenario_schema().document(rows, "", *defaults);
    return rows;
}

std::string config_reference_markdown()
{
    const std::vector<cfg::doc_row> rows = config_reference_rows();
    std::ostringstream md;
    md << "# Configuration reference\n\n"
          "<!-- Generated by `build/blsim config-reference` from soc/config/src/schema_*.cpp; a test "
          "fails when this file and the schema disagree. -->\n\n"
          "A scenario is one YAML file. Its `soc` key names a SoC file (a path relative to the\n"
          "scenario) or holds the SoC mapping itself; `configs/soc/tc2.yaml` is the reference.\n"
          "Every key below can be overridden from the command line with\n"
          "`--set dotted.key=value`; list items are addressed by index or by their `name`\n"
          "(`--set soc.clusters.a15.cores=1`, `--set workload.tasks.0.util_pct=50`), and the\n"
          "value is YAML (`--set governor.freq_mhz={a15: 800}`).\n\n"
          "Unknown keys are errors. Errors are reported as `file:line:col: message` (for an\n"
          "override: `--set:N:col`, N counting the --set options from 1), all of them at once,\n"
          "and blsim exits with status 2 without writing anything. YAML tags (`!!str 5`,\n"
          "`!!int`, `!custom`) are such errors too, in every file blsim reads: a value is read\n"
          "by its key's type alone, never by a tag.\n\n"
          "`[]` in a key marks a list item. \"required\" keys have no default. Ranges are\n"
          "inclusive. EAS units: the EAS energy model's normalised power, the A7 core at 1 GHz\n"
          "= 1024 (docs/calibration.md).\n\n"
          "| key | type | unit | default | range | meaning |\n"
          "|---|---|---|---|---|---|\n";
    for (const cfg::doc_row& r : rows)
        md << "| `" << r.key << "` | " << r.type << " | " << r.unit << " | "
           << (r.default_value.empty() ? "" : "`" + r.default_value + "`") << " | " << r.range
           << " | " << r.description << " |\n";
    return md.str();
}

} // namespace blsim::soc
