// tests/report/report_test.cpp -- scripts/plot over real runs: its pictures, and its report.html
// rendered by Debian's headless chromium (docs/report.md). Needs python3-matplotlib and
// chromium (scripts/setup installs both).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "e2e.h"

namespace {

namespace fs = std::filesystem;

using blsim_test::blsim;
using blsim_test::quote;
using blsim_test::result;
using blsim_test::scenario;
using blsim_test::slurp;

using blsim_test::shell;

bool is_png(const fs::path& p)
{
    const std::string head = slurp(p).substr(0, 8);
    return head == std::string("\x89PNG\r\n\x1a\n", 8);
}

// How many distinct colours the picture has (decoded by matplotlib): a blank or one-colour
// image has 1, a drawn figure hundreds.
std::size_t colours(const fs::path& p)
{
    const result r = shell("/usr/bin/python3 -c 'import sys, numpy, matplotlib.image as m; "
                           "a = m.imread(sys.argv[1]); "
                           "print(len(numpy.unique(a.reshape(-1, a.shape[-1]), axis=0)))' " +
                           quote(p.string()));
    return r.status == 0 ? std::stoul(r.out) : 0;
}

std::size_t count(const std::string& hay, const std::string& needle)
{
    std::size_t n = 0;
    for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
        ++n;
    return n;
}

class report_test : public blsim_test::scratch_test {
protected:
    report_test() : scratch_test("report-test", start::made) {}

    result plot(const std::string& args)
    {
        return shell("/usr/bin/python3 " + quote(std::string(BLSIM_SOURCE_DIR) + "/scripts/plot") + " " + args);
    }
    // Debian's chromium, headless, with a HOME of its own (its profile and crash database).
    result chromium(const std::string& args)
    {
        fs::create_directories(dir / "home");
        return shell("HOME=" + quote((dir / "home").string()) +
                         " chromium --headless --no-sandbox --disable-gpu --disable-extensions"
                         " --no-first-run --hide-scrollbars " +
                         args);
    }
};

TEST_F(report_test, pictures_and_report_render_in_chromium)
{
    const fs::path run = dir / "run";
    // 0.3 s of the ping-pong script: four switches (both logical CPUs there and back).
    result r = blsim("run -q --trace perfetto --out " + quote(run.string()) + " " +
                     quote(scenario("switch-pingpong.yaml")) + " --set duration_s=0.3");
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(run / "trace.json"));

    r = plot(quote(run.string()) + " --slowest 3");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    for (const char* png : {"power_freq.png", "energy.png", "governor.png", "hosts.png", "handshake.png",
                            "anatomy.png", "blackout_hist.png"}) {
        EXPECT_TRUE(fs::exists(run / png)) << png;
        EXPECT_TRUE(is_png(run / png)) << png;
        EXPECT_GT(colours(run / png), 20u) << png << " looks blank";
        EXPECT_NE(r.out.find((run / png).string()), std::string::npos) << r.out;
    }
    ASSERT_TRUE(fs::exists(run / "report.html"));

    // The pictures are deterministic: the same run plotted again gives the same bytes.
    const std::string hosts = slurp(run / "hosts.png"), hist = slurp(run / "blackout_hist.png");
    ASSERT_EQ(plot(quote(run.string()) + " --slowest 3").status, 0);
    EXPECT_EQ(slurp(run / "hosts.png"), hosts);
    EXPECT_EQ(slurp(run / "blackout_hist.png"), hist);

    // Rendered: the page's script marks every <img> once the window has loaded.
    const std::string url = quote("file://" + (run / "report.html").string());
    r = chromium("--virtual-time-budget=5000 --dump-dom " + url);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string& dom = r.out;
    EXPECT_NE(dom.find("data-ready=\"1\""), std::string::npos) << "the load handler did not run:\n" << dom;
    EXPECT_EQ(count(dom, "<img "), 7u) << dom;
    EXPECT_EQ(count(dom, "data-loaded=\"1\""), 7u) << dom;
    EXPECT_EQ(count(dom, "data-loaded=\"0\""), 0u) << dom;
    for (const char* id : {"t-energy", "t-cores", "t-perf", "t-switch-counts", "t-switches", "t-tasks",
                           "t-time-in-state", "glance", "fig-power_freq", "fig-energy", "fig-governor", "fig-hosts",
                           "fig-handshake", "fig-anatomy", "fig-blackout_hist"})
        EXPECT_NE(dom.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
    EXPECT_NE(dom.find("blsim report: switch-pingpong"), std::string::npos);
    EXPECT_NE(dom.find("IKS switches of both logical CPUs on a 100 ms script"), std::string::npos); // the description
    // The switches table has the run's count: 4 switches.
    std::smatch m;
    ASSERT_TRUE(std::regex_search(dom, m, std::regex("switches completed</td><td class=\"n\">([0-9]+)<")));
    EXPECT_EQ(m[1], "4");
    // The summary at the top: no BBench in this scenario, so energy first; four switches; the
    // trace linked.
    ASSERT_TRUE(std::regex_search(dom, m, std::regex("id=\"glance\"><div><span class=\"k\">([a-z ]+)<")));
    EXPECT_EQ(m[1], "energy");
    EXPECT_NE(dom.find("<span class=\"k\">switches</span><span class=\"v\">4</span>"), std::string::npos);
    EXPECT_NE(dom.find("<a href=\"trace.json\">"), std::string::npos);
    // The energy picture is under "Energy and power", before the other pictures.
    EXPECT_LT(dom.find("id=\"fig-energy\""), dom.find("<h2>Pictures</h2>"));
    // Every picture names where it comes from; none is linked from the network.
    EXPECT_EQ(dom.find("http://"), std::string::npos);
    EXPECT_EQ(dom.find("https://"), std::string::npos);

    // A screenshot, as a reader sees it.
    r = chromium("--screenshot=" + quote((dir / "shot.png").string()) + " --window-size=1280,2400 " + url);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(is_png(dir / "shot.png")) << r.err;
    EXPECT_GT(colours(dir / "shot.png"), 20u) << "the screenshot looks blank";
}

TEST_F(report_test, without_trace_or_switches_the_pictures_say_so)
{
    const fs::path run = dir / "run";
    // 50 ms: before the script's first switch, and no trace.
    result r = blsim("run -q --out " + quote(run.string()) + " " + quote(scenario("switch-pingpong.yaml")) +
                     " --set duration_s=0.05");
    ASSERT_EQ(r.status, 0) << r.err;
    // An older run's picture in the same directory goes: it would not belong to this run.
    { std::ofstream(run / "power_freq.png") << "stale"; }

    r = plot(quote(run.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("--trace perfetto"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(run / "power_freq.png"));
    for (const char* png : {"energy.png", "hosts.png", "handshake.png", "anatomy.png", "blackout_hist.png"})
        EXPECT_TRUE(is_png(run / png)) << png;
    const std::string html = slurp(run / "report.html");
    EXPECT_NE(html.find("--trace perfetto"), std::string::npos);
    EXPECT_EQ(html.find("power_freq.png"), std::string::npos);
    EXPECT_EQ(html.find("<span class=\"k\">timeline</span>"), std::string::npos); // no trace to link
    EXPECT_EQ(count(html, "<img "), 5u);
    EXPECT_NE(html.find("id=\"t-switches\""), std::string::npos);
    EXPECT_NE(html.find("none for this workload"), std::string::npos); // a constant workload has no perf
}

TEST_F(report_test, usage_errors_exit_2)
{
    result r = plot(quote((dir / "missing").string()));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no such directory"), std::string::npos) << r.err;

    r = plot(quote(dir.string())); // a directory, but no summary.json
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("summary.json"), std::string::npos) << r.err;

    { std::ofstream(dir / "summary.json") << "{ not json"; }
    r = plot(quote(dir.string()));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("summary.json"), std::string::npos) << r.err;

    EXPECT_EQ(plot("").status, 2);
    EXPECT_EQ(plot(quote(dir.string()) + " --slowest 0").status, 2);
    r = plot(quote(dir.string()) + " --window 12:10");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("plot: --window 12:10: expected A:B in seconds with A < B, e.g. --window 10:12"),
              std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "report.html"));
}

} // namespace

TEST_F(report_test, the_governor_picture_shows_the_window_asked_for)
{
    const fs::path run = dir / "run";
    result r = blsim("run -q --trace perfetto --out " + quote(run.string()) + " " +
                     quote(scenario("governor-steps.yaml")) + " --set duration_s=2");
    ASSERT_EQ(r.status, 0) << r.err;
    r = plot(quote(run.string()) + " --window 0.5:1.5");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GT(colours(run / "governor.png"), 20u);
    EXPECT_NE(slurp(run / "report.html").find("from 0.500 s to 1.500 s"), std::string::npos);
    // A window after the run's end is refused before anything is drawn.
    fs::remove(run / "governor.png");
    r = plot(quote(run.string()) + " --window 5:6");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("plot: --window 5:6: the run ends at 2 s"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(run / "governor.png"));
}

TEST_F(report_test, the_governor_picture_marks_hmps_cross_cluster_moves)
{
    // 2 s of BBench under HMP: the tasks start on the A15s and move; every cross-cluster move
    // the summary counts is marked (the trace's xmigrated instants).
    const fs::path run = dir / "run";
    result r = blsim("run -q --trace perfetto --out " + quote(run.string()) + " " + quote(scenario("bbench-hmp.yaml")) +
                     " --set duration_s=2");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string summary = slurp(run / "summary.json");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(summary, m, std::regex("\"migrations\": \\{\\s*\"count\": ([0-9]+)")));
    const std::string moves = m[1];
    EXPECT_NE(moves, "0");
    ASSERT_EQ(plot(quote(run.string()) + " --window 0:2").status, 0);
    EXPECT_NE(slurp(run / "report.html").find("In the window: 0 switches, " + moves + " cross-cluster task moves."),
              std::string::npos);
    EXPECT_GT(colours(run / "governor.png"), 20u);
}

TEST_F(report_test, compare_report_draws_the_runs_side_by_side)
{
    const fs::path out = dir / "cmp";
    result r = blsim("compare -j2 --report " + quote(out.string()) + " " + quote(scenario("bbench-2xa15.yaml")) + " " +
                     quote(scenario("bbench-iks-tuned.yaml")));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_NE(r.out.find("report: " + (out / "report.html").string() + "\n"), std::string::npos) << r.out;
    // The runs are kept beside the page, and compare.json names them.
    EXPECT_TRUE(fs::exists(out / "1-bbench-2xa15" / "summary.json"));
    EXPECT_TRUE(fs::exists(out / "2-bbench-iks-tuned" / "summary.json"));
    EXPECT_NE(slurp(out / "compare.json").find("\"dir\": \"" + (out / "1-bbench-2xa15").string() + "\""),
              std::string::npos);
    for (const char* png : {"compare.png", "energy.png"})
        EXPECT_GT(colours(out / png), 20u) << png << " looks blank";

    const std::string url = quote("file://" + (out / "report.html").string());
    r = chromium("--virtual-time-budget=5000 --dump-dom " + url);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count(r.out, "data-loaded=\"1\""), 2u) << r.out;
    EXPECT_EQ(count(r.out, "data-loaded=\"0\""), 0u) << r.out;
    for (const char* id : {"t-compare", "fig-compare", "fig-energy"})
        EXPECT_NE(r.out.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
    // Each row links its run; the IKS row carries its ratios to the first.
    EXPECT_NE(r.out.find("<a href=\"1-bbench-2xa15/summary.json\">"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("<td>bbench-iks-tuned</td><td class=\"n\">iks</td><td class=\"n\">5.250 (0.89x)</td>"),
              std::string::npos) << r.out;
    r = chromium("--screenshot=" + quote((dir / "cmp-shot.png").string()) + " --window-size=1280,2000 " + url);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GT(colours(dir / "cmp-shot.png"), 20u) << "the screenshot looks blank";

    // A --report path that is a file is refused before anything runs.
    { std::ofstream(dir / "file") << "x"; }
    r = blsim("compare --report " + quote((dir / "file").string()) + " " + quote(scenario("bbench-2xa15.yaml")) +
              " " + quote(scenario("bbench-2xa7.yaml")));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("blsim: compare: --report '" + (dir / "file").string() + "': it exists and is not a directory"),
              std::string::npos) << r.err;
}

TEST_F(report_test, one_command_gives_the_timeline_and_the_report)
{
    const fs::path run = dir / "run";
    result r = blsim("run -q --report --out " + quote(run.string()) + " " + scenario("switch-pingpong.yaml") +
                     " --set duration_s=0.3");
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* f : {"trace.json", "report.html", "power_freq.png", "energy.png", "hosts.png", "handshake.png",
                          "anatomy.png", "blackout_hist.png"})
        EXPECT_TRUE(fs::exists(run / f)) << f;
}
