// soc/batch/src/sweep_pareto.cpp -- `blsim sweep pareto DIR`: which points of a finished sweep are
// worth having (the Pareto front of a performance metric against a cost, energy by default),
// and the cheapest point that keeps a given share of a baseline's performance
// (docs/sweeps.md, "Analysis").
//
// It reads only DIR/results.json (and DIR/manifest.json to name the base scenario), so it
// works the same on a single machine's sweep, a resumed one or a merge of shards.
#include <sys/wait.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "blsim/soc/args.h"
#include "blsim/soc/child_runs.h"
#include "blsim/soc/results_dir.h"
#include "blsim/soc/sweep.h"
#include "blsim/soc/exit_codes.h"
#include "sweep_detail.h"


namespace blsim::soc::sweep_detail {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

// Rows of the front printed; pareto.csv has them all.
constexpr std::size_t max_printed_rows = 30;

bool parse_real(const std::string& s, double& v)
{
    const char* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, v);
    return !s.empty() && r.ec == std::errc() && r.ptr == end && std::isfinite(v);
}

// One point of the sweep with both metrics.
struct candidate {
    std::size_t row;  // index into results.json's points
    std::string id;
    double perf, cost;
};

// The points no other point beats: none has perf >= and cost <= with one of them strictly.
// Sorted by cost, then perf descending; a group of equal cost keeps its best perf only, and
// only if that beats every cheaper group. Equal points are all kept. Returned in cost order
// (ties by id).
std::vector<candidate> front_of(std::vector<candidate> all)
{
    std::sort(all.begin(), all.end(), [](const candidate& a, const candidate& b) {
        if (a.cost != b.cost)
            return a.cost < b.cost;
        if (a.perf != b.perf)
            return a.perf > b.perf;
        return a.id < b.id;
    });
    std::vector<candidate> front;
    bool any = false;
    double best_cheaper = 0; // the best perf of every strictly cheaper group
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].cost == all[i].cost)
            j++;
        const double group_best = all[i].perf;
        if (!any || group_best > best_cheaper) {
            for (std::size_t k = i; k < j && all[k].perf == group_best; k++)
                front.push_back(all[k]);
            best_cheaper = group_best;
            any = true;
        }
        i = j;
    }
    return front;
}

// What the threshold is measured against.
struct baseline_value {
    std::string name; // the point id or the path, as given
    double perf = 0, cost = 0;
    bool has_cost = false;
};

bool read_baseline(const std::string& given, const json& results, const sweep_options& opt, baseline_value& b,
                   std::string& error)
{
    b.name = given;
    for (const json& p : results.at("points")) {
        if (p.at("id").get<std::string>() != given)
            continue;
        const json& perf = p.at("metrics").at(opt.perf_metric).at("mean");
        const json& cost = p.at("metrics").at(opt.cost_metric).at("mean");
        if (!perf.is_number()) {
            error = "--baseline " + given + ": the point has no " + opt.perf_metric + " (all its runs failed or lack it)";
            return false;
        }
        b.perf = perf.get<double>();
        b.has_cost = cost.is_number();
        b.cost = b.has_cost ? cost.get<double>() : 0;
        return true;
    }
    std::error_code ec;
    const fs::path file = fs::is_directory(given, ec) ? fs::path(given) / "summary.json" : fs::path(given);
    json summary;
    std::string why;
    switch (read_json_file(file.string(), summary, why)) {
    case json_file::ok: break;
    case json_file::unreadable:
        error = "--baseline " + given + ": not a point of the sweep, and " + file.string() + " cannot be read: " + why;
        return false;
    case json_file::not_json:
        error = "--baseline " + given + ": " + file.string() + " is not JSON";
        return false;
    }
    if (!metric_of(summary, opt.perf_metric, b.perf)) {
        error = "--baseline " + given + ": " + file.string() + " has no number at " + opt.perf_metric;
        return false;
    }
    b.has_cost = metric_of(summary, opt.cost_metric, b.cost);
    return true;
}

// The point's parameters as `--set K=V` arguments, as a sweep passes them to its runs, each
// one word for the shell.
std::string set_args(const json& parameters)
{
    std::string s;
    for (const auto& [key, v] : parameters.items()) {
        sweep_value sv;
        sv.t = sweep_value::type::string;
        sv.s = json_value_text(v);
        s += " --set " + shell_word(key + "=" + (v.is_string() ? sv.override_text() : sv.s));
    }
    return s;
}

// Six significant digits: what a reader compares (pareto.csv keeps ten).
std::string short_text(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v == 0 ? 0.0 : v);
    return buf;
}

std::string ratio_text(double v, double of)
{
    if (of == 0)
        return "-";
    std::ostringstream o;
    o.precision(3);
    o << std::fixed << v / of << "x";
    return o.str();
}

} // namespace

bool parse_pareto_args(const std::vector<std::string>& args, sweep_options& opt, std::string& error)
{
    opt.pareto = true;
    auto text = [](std::string& field) {
        return [&field](const std::string& v, std::string&) {
            field = v;
            return true;
        };
    };
    cmdline::command cmd;
    cmd.name = "sweep pareto";
    cmd.rules.lone_dash_is_operand = false;
    cmd.options = {
        cmdline::value("--perf", nullptr, "METRIC", "", text(opt.perf_metric), "sweep pareto: --perf needs a value"),
        cmdline::value("--cost", nullptr, "METRIC", "", text(opt.cost_metric), "sweep pareto: --cost needs a value"),
        cmdline::value("--baseline", nullptr, "B", "", text(opt.baseline), "sweep pareto: --baseline needs a value"),
        cmdline::value("--min-fraction", nullptr, "F", "",
                       [&opt](const std::string& v, std::string& e) {
                           if (!parse_real(v, opt.min_fraction) || opt.min_fraction <= 0 || opt.min_fraction > 100) {
                               e = "sweep pareto: --min-fraction needs a number above 0 and at most 100 (got '" + v +
                                   "')";
                               return false;
                           }
                           return true;
                       },
                       "sweep pareto: --min-fraction needs a value"),
        cmdline::value("--min-perf", nullptr, "V", "",
                       [&opt](const std::string& v, std::string& e) {
                           if (!parse_real(v, opt.min_perf)) {
                               e = "sweep pareto: --min-perf needs a number (got '" + v + "')";
                               return false;
                           }
                           return true;
                       },
                       "sweep pareto: --min-perf needs a value"),
        cmdline::flag("--no-plot", nullptr, "", [&opt](const std::string&, std::string&) {
            opt.plot = false;
            return true;
        }),
    };
    cmd.operand = [&opt](const std::string& a, std::string& e) {
        if (!opt.out_dir.empty()) {
            e = "sweep pareto: only one sweep directory may be given (also got '" + a + "')";
            return false;
        }
        opt.out_dir = a;
        return true;
    };
    if (cmdline::parse(cmd, args, error, 1) != cmdline::outcome::ok)
        return false;
    if (opt.out_dir.empty()) {
        error = "sweep pareto: needs the sweep's directory (blsim sweep pareto DIR --perf METRIC)";
        return false;
    }
    if (opt.perf_metric.empty()) {
        error = "sweep pareto: needs --perf METRIC, the performance metric (higher is better)";
        return false;
    }
    if (opt.cost_metric.empty() || opt.perf_metric == opt.cost_metric) {
        error = "sweep pareto: --cost must name a metric other than --perf";
        return false;
    }
    if (opt.min_fraction >= 0 && opt.baseline.empty()) {
        error = "sweep pareto: --min-fraction needs --baseline (a point id, a run directory or a summary.json)";
        return false;
    }
    if (opt.min_fraction >= 0 && opt.min_perf >= 0) {
        error = "sweep pareto: give --min-fraction or --min-perf, not both";
        return false;
    }
    return true;
}

namespace {

// What the analysis finds in a sweep's results: the points with both metrics, their front,
// and the point the constraint picks.
struct analysis {
    json results;                  // DIR/results.json
    std::vector<std::string> keys; // the swept parameters
    std::vector<candidate> all, front;
    baseline_value base;
    bool has_base = false, constrained = false;
    double threshold = 0;                // the constraint's least perf
    const candidate* best = nullptr;     // into front
    const candidate* closest = nullptr;  // without a best: the highest perf, to say by how much
};

// DIR/results.json, checked to be a sweep's and to have both metrics. An exit status.
int read_results(const sweep_options& opt, const fs::path& dir, analysis& a, std::ostream& err)
{
    const std::string what = "blsim: sweep pareto: ";
    std::string why;
    const fs::path results_file = dir / "results.json";
    switch (read_json_file(results_file.string(), a.results, why)) {
    case json_file::ok: break;
    case json_file::unreadable:
        err << what << results_file.string() << ": cannot read: " << why << " (run the sweep first)\n";
        return exit_usage;
    case json_file::not_json:
        err << what << results_file.string() << ": not JSON\n";
        return exit_usage;
    }
    std::vector<std::string> metrics;
    try {
        metrics = a.results.at("metrics").get<std::vector<std::string>>();
        a.keys = a.results.at("parameters").get<std::vector<std::string>>();
        (void)a.results.at("points").size();
    } catch (const std::exception&) {
        err << what << results_file.string() << ": not a sweep's results\n";
        return exit_usage;
    }
    for (const std::string* m : {&opt.perf_metric, &opt.cost_metric}) {
        if (std::find(metrics.begin(), metrics.end(), *m) != metrics.end())
            continue;
        std::string list;
        for (const std::string& s : metrics)
            list += (list.empty() ? "" : ", ") + s;
        err << what << "'" << *m << "' is not a metric of this sweep (its metrics: " << list << ")\n";
        return exit_usage;
    }
    return exit_ok;
}

// The points with both metrics, in results.json's order.
std::vector<candidate> candidates(const sweep_options& opt, const json& points)
{
    std::vector<candidate> all;
    for (std::size_t r = 0; r < points.size(); r++) {
        const json& perf = points[r]["metrics"][opt.perf_metric]["mean"];
        const json& cost = points[r]["metrics"][opt.cost_metric]["mean"];
        if (perf.is_number() && cost.is_number())
            all.push_back({r, points[r]["id"].get<std::string>(), perf.get<double>(), cost.get<double>()});
    }
    return all;
}

// The cheapest point that reaches the threshold is on the front (a cheaper one with at least
// its perf would beat it); ties by the higher perf, then the id.
void choose_best(analysis& a)
{
    for (const candidate& c : a.front) {
        if (a.constrained && c.perf >= a.threshold && (!a.best || c.cost < a.best->cost))
            a.best = &c;
        if (!a.closest || c.perf > a.closest->perf)
            a.closest = &c;
    }
}

// pareto.csv: the front, cheapest first.
std::string pareto_csv(const sweep_options& opt, const analysis& a)
{
    const json& points = a.results.at("points");
    std::string csv = "id";
    for (const std::string& k : a.keys)
        csv += "," + csv_cell(k);
    csv += "," + csv_cell(opt.perf_metric + ".mean") + "," + csv_cell(opt.perf_metric + ".std") + "," +
           csv_cell(opt.cost_metric + ".mean") + "," + csv_cell(opt.cost_metric + ".std") + "\n";
    for (const candidate& c : a.front) {
        const json& p = points[c.row];
        csv += csv_cell(c.id);
        for (const std::string& k : a.keys)
            csv += "," + (p["parameters"].contains(k) ? csv_cell(json_value_text(p["parameters"][k])) : "");
        const json& ps = p["metrics"][opt.perf_metric]["std"];
        const json& cs = p["metrics"][opt.cost_metric]["std"];
        csv += "," + number_text(c.perf) + "," + (ps.is_number() ? number_text(ps.get<double>()) : "") + "," +
               number_text(c.cost) + "," + (cs.is_number() ? number_text(cs.get<double>()) : "") + "\n";
    }
    return csv;
}

// pareto.json: the metrics, the counts, the front's ids, the baseline, the constraint, the best.
json pareto_json(const sweep_options& opt, const analysis& a)
{
    json front_json = json::array();
    for (const candidate& c : a.front)
        front_json.push_back(c.id);
    json doc;
    doc["perf"] = opt.perf_metric;
    doc["cost"] = opt.cost_metric;
    doc["points"] = a.results.at("points").size();
    doc["points_with_both"] = a.all.size();
    doc["front"] = front_json;
    if (a.has_base)
        doc["baseline"] = {{"name", a.base.name},
                           {"perf", a.base.perf},
                           {"cost", a.base.has_cost ? json(a.base.cost) : json(nullptr)}};
    else
        doc["baseline"] = nullptr;
    if (a.constrained)
        doc["constraint"] = {{"min_perf", a.threshold},
                             {"min_fraction", opt.min_fraction >= 0 ? json(opt.min_fraction) : json(nullptr)}};
    else
        doc["constraint"] = nullptr;
    doc["best"] = a.best ? json(a.best->id) : json(nullptr);
    return doc;
}

// The front as a table, cheapest first, at most max_printed_rows of it.
void print_front(const sweep_options& opt, const analysis& a, std::ostream& out)
{
    const json& points = a.results.at("points");
    out << "pareto: " << a.all.size() << " of " << points.size() << " points have " << opt.perf_metric << " and "
        << opt.cost_metric << "; " << a.front.size() << " on the front (higher " << opt.perf_metric << ", lower "
        << opt.cost_metric << "), cheapest first:\n";
    std::size_t w_cost = opt.cost_metric.size(), w_perf = opt.perf_metric.size();
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-12s  %*s  %*s  parameters\n", "id", static_cast<int>(w_cost),
                  opt.cost_metric.c_str(), static_cast<int>(w_perf), opt.perf_metric.c_str());
    out << buf;
    for (std::size_t i = 0; i < a.front.size() && i < max_printed_rows; i++) {
        const candidate& c = a.front[i];
        std::string params;
        for (const auto& [k, v] : points[c.row]["parameters"].items())
            params += (params.empty() ? "" : " ") + k + "=" + json_value_text(v);
        std::snprintf(buf, sizeof buf, "  %-12s  %*s  %*s  ", c.id.c_str(), static_cast<int>(w_cost),
                      short_text(c.cost).c_str(), static_cast<int>(w_perf), short_text(c.perf).c_str());
        out << buf << params << "\n";
    }
    if (a.front.size() > max_printed_rows)
        out << "  ... " << a.front.size() - max_printed_rows << " more in pareto.csv\n";
}

// The base scenario as the manifest names it, from where the sweep was started ("BASE" when
// the manifest does not say).
std::string base_scenario(const fs::path& dir)
{
    json manifest;
    std::string why, base_path = "BASE";
    if (read_json_file((dir / "manifest.json").string(), manifest, why) == json_file::ok &&
        manifest.contains("spec") && manifest.contains("base") && manifest["spec"].is_string() &&
        manifest["base"].is_string()) {
        const std::string b = manifest["base"].get<std::string>();
        const fs::path spec(manifest["spec"].get<std::string>());
        base_path = b.rfind("builtin:", 0) == 0 || fs::path(b).is_absolute()
                        ? b
                        : (spec.parent_path() / b).lexically_normal().string();
    }
    return base_path;
}

// The constraint, and the point it picks with the command that runs it alone (or how close
// the front comes).
void print_constraint(const sweep_options& opt, const fs::path& dir, const analysis& a, std::ostream& out)
{
    out << "constraint: " << opt.perf_metric << " >= ";
    if (opt.min_fraction >= 0)
        out << short_text(opt.min_fraction) << " x " << short_text(a.base.perf) << " (baseline " << a.base.name
            << ") = ";
    out << short_text(a.threshold) << "\n";
    if (a.best) {
        out << "best: point " << a.best->id << ": " << opt.cost_metric << " " << short_text(a.best->cost);
        if (a.has_base && a.base.has_cost)
            out << " (" << ratio_text(a.best->cost, a.base.cost) << " the baseline's)";
        out << ", " << opt.perf_metric << " " << short_text(a.best->perf);
        if (a.has_base)
            out << " (" << ratio_text(a.best->perf, a.base.perf) << ")";
        out << "\n";
        out << "  blsim run " << base_scenario(dir) << set_args(a.results.at("points")[a.best->row]["parameters"])
            << "\n";
    } else if (a.closest) {
        out << "best: none reaches it; the highest " << opt.perf_metric << " is " << short_text(a.closest->perf)
            << " (point " << a.closest->id << ", " << ratio_text(a.closest->perf, a.threshold)
            << " the threshold)\n";
    } else {
        out << "best: none (no point has both metrics)\n";
    }
}

// The files written, and with --plot the picture drawn from them. An exit status.
int finish(const sweep_options& opt, const fs::path& dir, std::ostream& out, std::ostream& err)
{
    out << "written: " << (dir / "pareto.csv").string() << ", " << (dir / "pareto.json").string();
    if (opt.plot) {
        const std::string script =
            opt.plot_script.empty() ? script_path("plot-pareto") : opt.plot_script;
        const int st = run_python_script(script, dir.string(), false);
        if (st != 0) {
            out << "\n";
            out.flush();
            err << "blsim: sweep pareto: " << script << " failed (exit status "
                << (st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1) << "); pareto.csv and pareto.json are written\n";
            return exit_failed;
        }
        out << ", " << (dir / "pareto.png").string();
    }
    out << "\n";
    out.flush();
    return exit_ok;
}

} // namespace

int run_pareto(const sweep_options& opt, std::ostream& out, std::ostream& err)
{
    const fs::path dir(opt.out_dir);
    const std::string what = "blsim: sweep pareto: ";
    analysis a;
    if (const int rc = read_results(opt, dir, a, err); rc != exit_ok)
        return rc;
    a.all = candidates(opt, a.results.at("points"));
    if (!opt.baseline.empty()) {
        std::string error;
        if (!read_baseline(opt.baseline, a.results, opt, a.base, error)) {
            err << what << error << "\n";
            return exit_usage;
        }
        a.has_base = true;
    }
    a.constrained = opt.min_fraction >= 0 || opt.min_perf >= 0;
    a.threshold = opt.min_fraction >= 0 ? opt.min_fraction * a.base.perf : opt.min_perf;
    a.front = front_of(a.all);
    choose_best(a);

    std::string error;
    if (!write_file_atomically((dir / "pareto.csv").string(), pareto_csv(opt, a), error) ||
        !write_file_atomically((dir / "pareto.json").string(), pareto_json(opt, a).dump(2) + "\n", error)) {
        err << what << "cannot write " << error << "\n";
        return exit_failed;
    }
    print_front(opt, a, out);
    if (a.constrained)
        print_constraint(opt, dir, a, out);
    return finish(opt, dir, out, err);
}

} // namespace blsim::soc::sweep_detail
