// soc/config/src/scenario.cpp -- a scenario loaded: its file (or a built-in one) read, bound to
// the schema (schema_soc.cpp, schema_workload.cpp, schema_kernel.cpp), checked (check_soc.cpp,
// check_workload.cpp, check_kernel.cpp), and written back as the effective configuration. (The
// configuration reference: reference.cpp.)
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

// The scenario's text parsed into @root; false (reported) for a syntax error or an rt-app
// JSON file given where a scenario goes.
bool parse_scenario(const std::string& text, const std::string& path, node& root, diagnostics& diag)
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
    return true;
}

// A 'soc' override replaces the reference itself, so it is applied before resolving; the
// others (with their index, from 1), to apply after it, are returned.
std::vector<std::pair<int, std::string>> apply_soc_overrides(node& root, const std::vector<std::string>& overrides,
                                                             diagnostics& diag)
{
    std::vector<std::pair<int, std::string>> later;
    for (std::size_t i = 0; i < overrides.size(); i++) {
        const std::string& o = overrides[i];
        if (o.rfind("soc=", 0) == 0)
            cfg::apply_override(root, o, static_cast<int>(i + 1), diag);
        else
            later.emplace_back(static_cast<int>(i + 1), o);
    }
    return later;
}

// The SoC file the scenario names (relative to the scenario, @path) read in place of its
// reference; whether it could be (and nothing before it failed).
bool read_soc_reference(node& root, const std::string& path, diagnostics& diag)
{
    node* soc = root.find("soc");
    if (!soc || !soc->is_scalar())
        return true;
    const std::string soc_path = resolve_relative(relative_to(soc->at, path), soc->value);
    std::string soc_text, error;
    node soc_root;
    if (!read_source(soc_path, soc_text, error))
        diag.error(soc->at, "cannot read SoC file '" + soc->value + "': " + error);
    else
        cfg::parse_yaml(soc_text, soc_path, soc_root, diag);
    // On failure the SoC is left empty, and the rest is still checked so that every
    // error is reported at once.
    const bool soc_ok = diag.ok();
    *soc = std::move(soc_root);
    return soc_ok;
}

// The SoC could not be read: everything but it bound (and so checked), without its noise.
void bind_without_soc(const node& root, scenario_config& c, bind_context& ctx)
{
    node rest = root;
    std::size_t i = std::find(rest.keys.begin(), rest.keys.end(), "soc") - rest.keys.begin();
    if (i < rest.keys.size()) {
        rest.keys.erase(rest.keys.begin() + i);
        rest.key_marks.erase(rest.key_marks.begin() + i);
        rest.items.erase(rest.items.begin() + i);
    }
    scenario_schema(false).bind(rest, c, ctx, "");
}

} // namespace

bool load_scenario_text(const std::string& text, const std::string& path, const std::vector<std::string>& overrides,
                        scenario_config& out, diagnostics& diag)
{
    node root;
    if (!parse_scenario(text, path, root, diag))
        return false;
    const std::vector<std::pair<int, std::string>> later = apply_soc_overrides(root, overrides, diag);
    const bool soc_ok = read_soc_reference(root, path, diag);
    for (const auto& [index, o] : later)
        cfg::apply_override(root, o, index, diag);

    bind_context ctx(diag);
    ctx.record("", root.at);
    scenario_config c;
    if (!soc_ok) {
        bind_without_soc(root, c, ctx);
        return false;
    }
    scenario_schema().bind(root, c, ctx, "");
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

} // namespace blsim::soc
