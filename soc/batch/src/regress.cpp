// soc/batch/src/regress.cpp -- `blsim regress` (docs/regress.md).
#include "blsim/soc/regress.h"
#include "blsim/soc/results_dir.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>

#include "blsim/soc/args.h"
#include "blsim/soc/child_runs.h"
#include "blsim/soc/scenario.h"
#include "blsim/soc/schema.h"
#include "blsim/soc/exit_codes.h"
#include "metrics.h"

namespace blsim::soc {

namespace fs = std::filesystem;
using json = nlohmann::json; // objects keep their keys sorted: goldens are written that way

namespace {

// How many lines of a failed run's stderr are shown.
constexpr std::size_t stderr_tail_lines = 10;

constexpr const char* builtin_prefix = "builtin:";


// The case file's keys (docs/regress.md).
struct case_doc {
    std::string scenario;
    cfg::node set;
    std::vector<regress_metric> metrics;
};

cfg::schema<case_doc> case_schema()
{
    cfg::schema<regress_metric> m;
    m.text("path", &regress_metric::path, "A dotted path into summary.json.", true)
        .real("abs", &regress_metric::abs, 0, 1e300, "", "Absolute tolerance.")
        .real("rel", &regress_metric::rel, 0, 1e300, "", "Tolerance relative to the golden value.");
    cfg::schema<case_doc> s;
    s.text("scenario", &case_doc::scenario, "The scenario, relative to the case file.", true)
        .tree("set", &case_doc::set, "KEY=VALUE overrides, as blsim run --set.")
        .list("metrics", &case_doc::metrics, m, 1, 1000, "The compared numbers.", true);
    return s;
}

// @ref relative to the directory of @from_file (a built-in or absolute @ref as it is).
std::string resolve_relative(const std::string& from_file, const std::string& ref)
{
    const fs::path target(ref);
    if (ref.rfind(builtin_prefix, 0) == 0 || target.is_absolute())
        return ref;
    return (fs::path(from_file).parent_path() / target).lexically_normal().string();
}

// Line and column (1-based) of byte @pos of @text.
cfg::mark locate(const std::string& file, const std::string& text, std::size_t pos)
{
    cfg::mark m{file, 1, 1};
    for (std::size_t i = 0; i < pos && i < text.size(); i++) {
        if (text[i] == '\n') {
            m.line++;
            m.col = 1;
        } else {
            m.col++;
        }
    }
    return m;
}

// Where in the JSON @text the first number too large for a double starts (npos: none).
std::size_t overflowing_number(const std::string& text)
{
    for (std::size_t i = 0; i < text.size(); i++) {
        const char ch = text[i];
        if (ch == '"') { // skip a string, its escapes included
            for (i++; i < text.size() && text[i] != '"'; i++)
                if (text[i] == '\\')
                    i++;
            continue;
        }
        if (ch == '-' || (ch >= '0' && ch <= '9')) {
            std::size_t end = i;
            while (end < text.size() && std::strchr("+-.0123456789eE", text[end]) && text[end] != '\0')
                end++;
            const double v = std::strtod(text.substr(i, end - i).c_str(), nullptr);
            if (std::isinf(v))
                return i;
            i = end - 1;
        }
    }
    return std::string::npos;
}

// A case's golden values, as read from its file.
struct golden_file {
    bool exists = false;
    std::map<std::string, double> values;
};

// Read the golden file @path. A missing file is no error (the case reports that it needs
// blessing); an unreadable or malformed one is.
bool load_golden(const std::string& path, golden_file& g, cfg::diagnostics& diag)
{
    g = golden_file{};
    std::error_code ec;
    if (!fs::exists(path, ec))
        return true;
    g.exists = true;
    std::string text, why;
    if (!read_source(path, text, why)) {
        diag.error(path + ": cannot read: " + why);
        return false;
    }
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        diag.error(locate(path, text, e.byte ? e.byte - 1 : 0),
                   "not a golden file: JSON syntax error (run 'blsim regress --bless' to rewrite it)");
        return false;
    } catch (const json::out_of_range&) {
        // A number beyond a double's range (1e999): the parser says so without a position.
        const std::size_t at = overflowing_number(text);
        diag.error(locate(path, text, at == std::string::npos ? 0 : at),
                   "not a golden file: a number beyond the range of a double (run 'blsim regress --bless' to "
                   "rewrite it)");
        return false;
    }
    if (!j.is_object()) {
        diag.error(cfg::mark{path, 1, 1}, std::string("not a golden file: a JSON ") + j.type_name() +
                                              ", not an object of metric: value");
        return false;
    }
    bool ok = true;
    for (const auto& [key, value] : j.items()) {
        if (value.is_number()) {
            g.values[key] = value.get<double>();
            continue;
        }
        const std::size_t at = text.find(json(key).dump());
        diag.error(at == std::string::npos ? cfg::mark{path, 0, 0} : locate(path, text, at),
                   "'" + key + "': expected a number, got " +
                       (value.is_null() ? std::string("null") : std::string("a ") + value.type_name()));
        ok = false;
    }
    return ok;
}

// "null" or "a <type>": how a message names a JSON value's type.
std::string type_words(const json& v)
{
    return v.is_null() ? std::string("null") : std::string("a ") + v.type_name();
}

// Where the value of @path is in the summary @j, or why it is not a number there (a segment of
// digits indexes a list).
std::optional<json> lookup(const json& j, const std::string& path, std::string& why)
{
    const std::vector<std::string> keys = dotted_path(path);
    const path_walk<json> w = walk_path(j, keys, true);
    const std::string walked = walked_path(keys, w.walked);
    const std::string key = w.walked < keys.size() ? keys[w.walked] : std::string();
    switch (w.end) {
    case path_end::found: break;
    case path_end::no_key:
        why = (walked.empty() ? std::string("summary.json") : walked) + " has no '" + key + "'";
        return std::nullopt;
    case path_end::not_index:
        why = walked + " is a list, and '" + key + "' is not an index";
        return std::nullopt;
    case path_end::no_item:
        why = walked + " has " + std::to_string(w.at->size()) + " items, no [" + key + "]";
        return std::nullopt;
    case path_end::not_container:
        why = walked + " is " + type_words(*w.at) + ", not a mapping";
        return std::nullopt;
    }
    if (!w.at->is_number()) {
        why = "the value is " + type_words(*w.at) + ", not a number";
        return std::nullopt;
    }
    return *w.at;
}

// Removes a directory tree when it goes out of scope.
struct temp_dir {
    std::string path;
    ~temp_dir()
    {
        if (!path.empty()) {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    }
};

std::string describe_status(int st)
{
    if (WIFEXITED(st))
        return "exit status " + std::to_string(WEXITSTATUS(st));
    if (WIFSIGNALED(st))
        return "killed by signal " + std::to_string(WTERMSIG(st)) + " (" + strsignal(WTERMSIG(st)) + ")";
    return "status " + std::to_string(st);
}

// Load the case's scenario with its overrides, as its run will; an override's problem is
// located in the case file (where the override is written) rather than at "--set:N:col".
void check_scenario(const regress_case& c, cfg::diagnostics& diag)
{
    cfg::diagnostics d;
    scenario_config cfg;
    if (load_scenario(c.scenario, c.set, cfg, d))
        return;
    for (const std::string& m : d.messages()) {
        int n = 0, col = 0, used = 0;
        if (std::sscanf(m.c_str(), "--set:%d:%d: %n", &n, &col, &used) == 2 && used > 0 && n >= 1 &&
            static_cast<std::size_t>(n) <= c.set_at.size()) {
            cfg::mark at = c.set_at[static_cast<std::size_t>(n) - 1];
            at.col += col - 1;
            diag.error(at, "set[" + std::to_string(n - 1) + "]: " + m.substr(static_cast<std::size_t>(used)));
        } else {
            diag.error(m);
        }
    }
}

// Numbers as the table shows them.
std::string number(double v) { return cfg::format_number(v); }

std::string short_number(double v, bool sign)
{
    if (v == 0)
        return "0";
    char buf[64];
    std::snprintf(buf, sizeof buf, sign ? "%+.3g" : "%.3g", v);
    return buf;
}

std::string tolerance_text(const regress_metric& m)
{
    if (m.abs == 0 && m.rel == 0)
        return "exact";
    std::string s;
    if (m.abs != 0)
        s = "abs " + short_number(m.abs, false);
    if (m.rel != 0)
        s += (s.empty() ? "" : " or ") + std::string("rel ") + short_number(m.rel, false);
    return s;
}

std::string pad_left(const std::string& s, std::size_t w) { return std::string(w - std::min(w, s.size()), ' ') + s; }
std::string pad_right(const std::string& s, std::size_t w) { return s + std::string(w - std::min(w, s.size()), ' '); }

std::string rstrip(std::string s)
{
    s.erase(s.find_last_not_of(' ') + 1);
    return s;
}

// The table: a heading, a rule, a row each; @right says which columns are right-aligned.
std::string table(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right)
{
    std::vector<std::size_t> w(right.size(), 0);
    for (const auto& r : rows)
        for (std::size_t k = 0; k < r.size(); k++)
            w[k] = std::max(w[k], r[k].size());
    std::string out;
    for (std::size_t i = 0; i < rows.size(); i++) {
        std::string line;
        for (std::size_t k = 0; k < rows[i].size(); k++)
            line += (k ? "  " : "") + (right[k] ? pad_left(rows[i][k], w[k]) : pad_right(rows[i][k], w[k]));
        out += rstrip(line) + "\n";
        if (i == 0) {
            std::string rule;
            for (std::size_t k = 0; k < w.size(); k++)
                rule += (k ? "  " : "") + std::string(w[k], '-');
            out += rule + "\n";
        }
    }
    return out;
}

} // namespace

cmdline::command regress_command(regress_options& opt)
{
    cmdline::command cmd;
    cmd.name = "regress";
    cmd.rules.double_dash_ends_options = false;
    cmd.rules.lone_dash_is_operand = false;
    cmd.options = {
        cmdline::value("--jobs", "-j", "N", "at most N runs at once (default: the number of online CPUs)",
                       [&opt](const std::string& v, std::string& e) { return parse_jobs(v, opt.jobs, e); },
                       "-j needs a number of runs"),
        cmdline::flag("--bless", nullptr,
                      "write every case's golden file from this run's values instead of\n"
                      "comparing (all or none: nothing is written if a value is missing)",
                      [&opt](const std::string&, std::string&) { return opt.bless = true; }),
        cmdline::repeated("--only", nullptr, "NAME", "only the case NAME (repeatable)",
                          [&opt](const std::string& name, std::string& e) {
                              if (name.empty())
                                  e = "--only needs a case name";
                              else
                                  opt.only.push_back(name);
                              return !name.empty();
                          }),
        cmdline::note("--help", "-h", nullptr, "this text"),
    };
    cmd.operand = [&opt](const std::string& a, std::string& e) {
        if (opt.dir_given) {
            e = "regress: only one DIR may be given (also got '" + a + "')";
            return false;
        }
        opt.dir = a;
        opt.dir_given = true;
        return true;
    };
    return cmd;
}

bool parse_regress_args(const std::vector<std::string>& args, regress_options& opt, bool& help, std::string& error)
{
    const cmdline::outcome parsed = cmdline::parse(regress_command(opt), args, error);
    help = parsed == cmdline::outcome::help;
    return parsed != cmdline::outcome::error;
}

bool load_regress_case(const std::string& path, regress_case& out, cfg::diagnostics& diag)
{
    const std::size_t before = diag.count();
    out = regress_case{};
    out.file = path;
    out.name = fs::path(path).stem().string();
    out.golden = (fs::path(path).parent_path() / (out.name + ".golden.json")).string();
    std::string text, why;
    if (!read_source(path, text, why)) {
        diag.error(path + ": cannot read: " + why);
        return false;
    }
    cfg::node root;
    if (!cfg::parse_yaml(text, path, root, diag))
        return false;
    cfg::bind_context ctx(diag);
    ctx.record("", root.at);
    case_doc doc;
    case_schema().bind(root, doc, ctx, "");

    if (ctx.given("scenario") && !doc.scenario.empty()) {
        out.scenario = resolve_relative(path, doc.scenario);
        // Named as written, and as resolved when that differs.
        const std::string shown =
            "'" + doc.scenario + "'" + (out.scenario != doc.scenario ? " (" + out.scenario + ")" : "");
        std::string scenario_text;
        if (!read_source(out.scenario, scenario_text, why))
            diag.error(ctx.where("scenario"), "scenario: cannot read " + shown + ": " + why);
        else
            out.loadable = true;
    }

    if (ctx.given("set") && !doc.set.is_null()) {
        if (!doc.set.is_seq()) {
            diag.error(doc.set.at, "set: expected a list of KEY=VALUE, got " + cfg::describe(doc.set));
            out.loadable = false;
        } else {
            for (std::size_t i = 0; i < doc.set.items.size(); i++) {
                const cfg::node& n = doc.set.items[i];
                const std::size_t eq = n.is_scalar() ? n.value.find('=') : std::string::npos;
                if (eq == std::string::npos || eq == 0) {
                    diag.error(n.at, "set[" + std::to_string(i) + "]: expected KEY=VALUE, got " + cfg::describe(n));
                    out.loadable = false;
                    continue;
                }
                cfg::mark at = n.at;
                if (!n.plain)
                    at.col++; // past the opening quote
                out.set.push_back(n.value);
                out.set_at.push_back(at);
            }
        }
    }

    std::map<std::string, int> seen; // path -> line
    for (std::size_t i = 0; i < doc.metrics.size(); i++) {
        const regress_metric& m = doc.metrics[i];
        const std::string key = "metrics[" + std::to_string(i) + "].path";
        const cfg::mark at = ctx.where(key);
        if (m.path.empty())
            continue; // reported by the schema
        const std::vector<std::string> parts = dotted_path(m.path);
        if (std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) {
            diag.error(at, key + ": '" + m.path + "' is not a dotted path into summary.json (an empty part)");
            continue;
        }
        if (auto it = seen.find(m.path); it != seen.end()) {
            diag.error(at, key + ": '" + m.path + "' is compared already (line " + std::to_string(it->second) + ")");
            continue;
        }
        seen[m.path] = at.line;
        out.metrics.push_back(m);
    }
    return diag.count() == before;
}

bool regress_within(const regress_metric& m, double value, double golden)
{
    const double d = std::fabs(value - golden);
    return d <= m.abs || d <= m.rel * std::fabs(golden);
}

namespace {

// The cases of a run of the command, in name order, with what their runs gave.
struct case_set {
    std::vector<regress_case> cases;
    std::vector<golden_file> goldens; // each case's golden values (none read with --bless)
    std::vector<json> summaries;      // each run's summary.json
    std::vector<bool> ran;            // whether the run succeeded and left a summary.json
};

// One compared number: its case, its metric, and its value (or why there is none).
struct metric_row {
    const regress_case* c;
    const regress_metric* m;
    std::optional<json> value;
    std::string why;
};

// The case files, DIR/*.yaml in name order; false (reported) when there are none.
bool list_case_files(const regress_options& opt, std::vector<std::string>& files, std::ostream& err)
{
    std::error_code ec;
    if (!fs::is_directory(opt.dir, ec)) {
        err << "blsim: regress: '" << opt.dir << "' is not a directory"
            << (opt.dir_given ? "" : " (run from the repository root, or name the directory of cases)") << "\n";
        return false;
    }
    for (fs::directory_iterator it(opt.dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".yaml" && it->is_regular_file())
            files.push_back(it->path().lexically_normal().string());
    if (ec) {
        err << "blsim: regress: cannot list '" << opt.dir << "': " << ec.message() << "\n";
        return false;
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        err << "blsim: regress: no cases in '" << opt.dir << "' (files named *.yaml)\n";
        return false;
    }
    return true;
}

// The names --only chooses among the cases @names (empty: every case); false (reported, every
// unknown name) when one is not a case.
bool chosen_cases(const regress_options& opt, const std::vector<std::string>& names, std::set<std::string>& only,
                  std::ostream& err)
{
    bool bad = false;
    for (const std::string& n : opt.only) {
        if (std::find(names.begin(), names.end(), n) == names.end()) {
            std::string list;
            for (const std::string& k : names)
                list += (list.empty() ? "" : ", ") + k;
            err << "blsim: regress: --only '" << n << "': no such case in '" << opt.dir << "' (cases: " << list
                << ")\n";
            bad = true;
        }
        only.insert(n);
    }
    return !bad;
}

// Every chosen case is checked (its file, its scenario with the overrides, its golden file)
// before anything runs; false (the problems printed) when any is bad.
bool load_cases(const regress_options& opt, const std::vector<std::string>& files,
                const std::vector<std::string>& names, const std::set<std::string>& only, case_set& set,
                std::ostream& err)
{
    cfg::diagnostics diag;
    for (std::size_t i = 0; i < files.size(); i++) {
        if (!only.empty() && !only.count(names[i]))
            continue;
        regress_case c;
        golden_file g;
        load_regress_case(files[i], c, diag);
        if (c.loadable)
            check_scenario(c, diag);
        if (!opt.bless)
            load_golden(c.golden, g, diag);
        set.cases.push_back(std::move(c));
        set.goldens.push_back(std::move(g));
    }
    if (!diag.ok()) {
        diag.print(err);
        return false;
    }
    return true;
}

// Runs every case into its directory under @work, at most N at once; every case runs, even
// after one fails, so that the report does not depend on timing. False (reported) when the
// runs cannot be made or waited for.
bool run_cases(const regress_options& opt, const case_set& set, temp_dir& work, std::vector<run_request>& runs,
               std::vector<run_outcome>& outcomes, std::ostream& err)
{
    // An environment failure (TMPDIR missing, full or unwritable), named with its path.
    std::string tmpl, why;
    if (!make_scratch_dir("blsim-regress", tmpl, why)) {
        err << "blsim: error: regress: cannot create a temporary directory " << why << "\n";
        return false;
    }
    work.path = tmpl;
    const std::vector<regress_case>& cases = set.cases;
    runs.resize(cases.size());
    for (std::size_t k = 0; k < cases.size(); k++) {
        runs[k] = {opt.exe, (fs::path(work.path) / cases[k].name).string(), cases[k].scenario, cases[k].set, {},
                   (fs::path(work.path) / (cases[k].name + ".stderr")).string()};
    }
    std::string error;
    if (!run_children(runs, {runs_at_once(opt.jobs), false, ""}, outcomes, error)) {
        err << "blsim: regress: waiting for the runs: " << error << "\n";
        return false;
    }
    return true;
}

// Each case's outcome, in name order: its run's messages, then its summary.json read.
void read_outcomes(const regress_options& opt, const std::vector<run_request>& runs,
                   const std::vector<run_outcome>& outcomes, case_set& set, std::ostream& err)
{
    set.summaries.assign(set.cases.size(), json());
    set.ran.assign(set.cases.size(), false);
    for (std::size_t k = 0; k < set.cases.size(); k++) {
        const run_outcome& o = outcomes[k];
        const std::string& name = set.cases[k].name;
        if (!o.start_error.empty()) {
            err << "blsim: regress: " << name << ": cannot start '" << opt.exe << "': " << o.start_error << "\n";
            continue;
        }
        const std::vector<std::string> lines = file_lines(runs[k].stderr_file);
        if (!o.succeeded()) {
            err << "blsim: regress: " << name << ": the run failed (" << describe_status(o.status) << ")";
            write_stderr_tail(err, lines, stderr_tail_lines);
            continue;
        }
        if (!lines.empty()) {
            err << "blsim: regress: " << name << ": the run printed:\n";
            write_indented(err, lines);
        }
        std::string why;
        const json_file got =
            read_json_file((fs::path(runs[k].out_dir) / "summary.json").string(), set.summaries[k], why);
        if (got == json_file::unreadable)
            err << "blsim: regress: " << name << ": the run left no summary.json: " << why << "\n";
        else if (got == json_file::not_json)
            err << "blsim: regress: " << name << ": the run's summary.json is not JSON\n";
        set.ran[k] = got == json_file::ok;
    }
}

// Every metric's value (or why there is none, reported).
std::vector<metric_row> metric_values(const case_set& set, std::ostream& err)
{
    std::vector<metric_row> rows;
    for (std::size_t k = 0; k < set.cases.size(); k++)
        for (const regress_metric& m : set.cases[k].metrics) {
            metric_row r{&set.cases[k], &m, std::nullopt, ""};
            if (set.ran[k]) {
                r.value = lookup(set.summaries[k], m.path, r.why);
                if (!r.value)
                    err << "blsim: regress: " << set.cases[k].name << ": " << m.path << ": " << r.why << "\n";
            }
            rows.push_back(std::move(r));
        }
    return rows;
}

// --bless: writes every case's golden file from @rows, or none: a case that cannot be blessed
// leaves every file as it was.
int bless(const case_set& set, const std::vector<metric_row>& rows, std::ostream& out, std::ostream& err)
{
    const std::vector<regress_case>& cases = set.cases;
    std::size_t unusable = 0;
    for (const metric_row& r : rows)
        unusable += r.value ? 0 : 1;
    if (unusable) {
        err << "blsim: regress: --bless: " << unusable << " of " << rows.size()
            << " metrics have no value (above); no golden file was written\n";
        return exit_failed;
    }
    std::size_t fresh = 0, changed = 0;
    for (std::size_t k = 0; k < cases.size(); k++) {
        golden_file old;
        cfg::diagnostics ignored; // an unreadable old golden is simply replaced
        load_golden(cases[k].golden, old, ignored);
        json doc = json::object();
        std::size_t case_fresh = 0, case_changed = 0;
        for (const metric_row& r : rows) {
            if (r.c != &cases[k])
                continue;
            doc[r.m->path] = *r.value;
            auto it = old.values.find(r.m->path);
            if (it == old.values.end())
                case_fresh++;
            else if (it->second != r.value->get<double>())
                case_changed++;
        }
        std::string error;
        if (!write_file_atomically(cases[k].golden, doc.dump(2) + "\n", error)) {
            err << "blsim: regress: --bless: cannot write " << error << "\n";
            return exit_failed;
        }
        fresh += case_fresh;
        changed += case_changed;
        out << "blessed " << cases[k].golden << ": " << cases[k].metrics.size() << " metrics (" << case_fresh
            << " new, " << case_changed << " changed)\n";
    }
    out << "regress: blessed " << cases.size() << (cases.size() == 1 ? " case, " : " cases, ") << rows.size()
        << " metrics (" << fresh << " new, " << changed << " changed)\n";
    return exit_ok;
}

// The comparison with the goldens: the table's rows, how many rows have each status, the cases
// that did not pass (in order), and each case's metrics without a golden value.
struct verdicts {
    std::vector<std::vector<std::string>> table_rows = {
        {"case", "metric", "golden", "value", "drift", "rel drift", "tolerance", "status"}};
    std::map<std::string, std::size_t> counts;
    std::vector<std::string> failed_cases;
    std::map<std::string, std::vector<std::string>> no_golden; // case -> its metrics without a golden value
};

verdicts judge(const case_set& set, const std::vector<metric_row>& rows)
{
    verdicts v;
    for (const metric_row& r : rows) {
        const std::size_t k = static_cast<std::size_t>(r.c - set.cases.data());
        const golden_file& g = set.goldens[k];
        auto it = g.values.find(r.m->path);
        const bool has_golden = it != g.values.end();
        const double golden = has_golden ? it->second : 0;
        std::string status, drift = "-", rel = "-";
        if (!set.ran[k]) {
            status = "RUN-FAILED";
        } else if (!r.value) {
            status = "MISSING";
        } else if (!has_golden) {
            status = "NO-GOLDEN";
        } else {
            const double value = r.value->get<double>(), d = value - golden;
            drift = short_number(d, true);
            rel = golden != 0 ? short_number(d / std::fabs(golden), true) : d == 0 ? "0" : "-";
            status = regress_within(*r.m, value, golden) ? "PASS" : "DRIFT";
        }
        if (status == "NO-GOLDEN")
            v.no_golden[r.c->name].push_back(r.m->path);
        v.counts[status]++;
        if (status != "PASS" && (v.failed_cases.empty() || v.failed_cases.back() != r.c->name))
            v.failed_cases.push_back(r.c->name);
        v.table_rows.push_back({r.c->name, r.m->path, has_golden ? number(golden) : "-",
                                r.value ? number(r.value->get<double>()) : "-", drift, rel, tolerance_text(*r.m),
                                status});
    }
    return v;
}

// For each case with metrics lacking a golden value: which, and the command that blesses them.
void report_no_golden(const regress_options& opt, const case_set& set, const verdicts& v, std::ostream& err)
{
    for (const regress_case& c : set.cases)
        if (auto it = v.no_golden.find(c.name); it != v.no_golden.end()) {
            const std::string how = "blsim regress " + (opt.dir_given ? opt.dir + " " : std::string()) +
                                    "--bless --only " + c.name;
            std::string which;
            for (const std::string& m : it->second)
                which += (which.empty() ? "" : ", ") + m;
            err << "blsim: regress: " << c.name << ": "
                << (set.goldens[static_cast<std::size_t>(&c - set.cases.data())].exists
                        ? "its golden file " + c.golden + " has no value for " + which
                        : "no golden file " + c.golden + " yet")
                << "; run '" << how << "' to write it\n";
        }
}

// The table, then one line: the counts of each status and the cases that failed.
void print_report(const case_set& set, std::size_t metric_count, verdicts& v, std::ostream& out)
{
    out << table(v.table_rows, {false, false, true, true, true, true, false, false});
    out << "regress: " << set.cases.size() << (set.cases.size() == 1 ? " case, " : " cases, ") << metric_count
        << " metrics: ";
    std::string parts;
    for (const char* s : {"PASS", "DRIFT", "MISSING", "NO-GOLDEN", "RUN-FAILED"})
        if (v.counts[s])
            parts += (parts.empty() ? "" : ", ") + std::to_string(v.counts[s]) + " " + s;
    out << parts;
    if (!v.failed_cases.empty()) {
        out << "; failed: ";
        for (std::size_t i = 0; i < v.failed_cases.size(); i++)
            out << (i ? ", " : "") << v.failed_cases[i];
    }
    out << "\n";
    out.flush();
}

} // namespace

int run_regress(const regress_options& opt, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> files;
    if (!list_case_files(opt, files, err))
        return exit_usage;
    std::vector<std::string> names;
    for (const std::string& f : files)
        names.push_back(fs::path(f).stem().string());
    std::set<std::string> only;
    if (!chosen_cases(opt, names, only, err))
        return exit_usage;
    case_set set;
    if (!load_cases(opt, files, names, only, set, err))
        return exit_usage;

    temp_dir work;
    std::vector<run_request> runs;
    std::vector<run_outcome> outcomes;
    if (!run_cases(opt, set, work, runs, outcomes, err))
        return exit_failed;
    read_outcomes(opt, runs, outcomes, set, err);
    const std::vector<metric_row> rows = metric_values(set, err);
    if (opt.bless)
        return bless(set, rows, out, err);

    verdicts v = judge(set, rows);
    report_no_golden(opt, set, v, err);
    print_report(set, rows.size(), v, out);
    return v.failed_cases.empty() ? exit_ok : exit_failed;
}

} // namespace blsim::soc
