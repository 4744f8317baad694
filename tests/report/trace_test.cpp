// tests/report/trace_test.cpp -- the timelines a run writes with --trace: their structure, as the
// tools that open them need it (docs/traces.md).
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "e2e.h"
#include "shell.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

using blsim_test::simulated;
using blsim_test::slurp;

int run(const std::string& args)
{
    return std::system((std::string(BLSIM_BINARY) + " run -q " + args + " 2>/dev/null").c_str());
}

class trace_test : public blsim_test::scratch_test {
protected:
    trace_test() : scratch_test("trace-test") {}
};

const std::string pingpong = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/switch-pingpong.yaml";

TEST_F(trace_test, the_perfetto_timeline_is_well_formed_track_by_track)
{
    ASSERT_EQ(run("--out " + dir.string() + " --trace perfetto " + pingpong + " --set duration_s=0.8"), 0);
    json t = json::parse(slurp(dir / "trace.json"));
    const json& ev = t.at("traceEvents");
    ASSERT_GT(ev.size(), 100u);

    std::map<std::pair<int, int>, double> last_ts; // instants: per track, in order
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> complete;
    std::map<std::string, int> flows;
    std::set<std::string> processes, names;
    int counters = 0;
    for (const json& e : ev) {
        const std::string ph = e.at("ph");
        if (ph == "M") {
            if (e.at("name") == "process_name")
                processes.insert(e.at("args").at("name").get<std::string>());
            continue;
        }
        ASSERT_TRUE(e.at("ts").is_number()) << e.dump();
        const double ts = e.at("ts");
        if (ph == "C") {
            ASSERT_TRUE(e.at("args").at("value").is_number()) << e.dump();
            counters++;
            names.insert(e.at("name").get<std::string>());
            continue;
        }
        if (ph == "s" || ph == "f") {
            flows[std::to_string(e.at("id").get<long>())] += ph == "s" ? 1 : -1;
            continue;
        }
        const std::pair<int, int> track{e.at("pid"), e.at("tid")};
        if (ph == "X") {
            complete[track].push_back({ts, ts + e.at("dur").get<double>()});
            names.insert(e.at("name").get<std::string>());
            continue;
        }
        // No B/E: Chrome's trace engine pairs them on one stack for the whole trace.
        ASSERT_EQ(ph, "i") << e.dump();
        if (last_ts.count(track)) {
            EXPECT_GE(ts, last_ts[track]) << "time goes back on track " << track.first << "/" << track.second;
        }
        last_ts[track] = ts;
    }
    // Complete slices on a track either nest or follow each other: a switch contains its
    // phases, and a state track holds one state at a time.
    for (auto& [track, xs] : complete) {
        std::sort(xs.begin(), xs.end(), [](auto a, auto b) { return a.first < b.first || (a.first == b.first && a.second > b.second); });
        std::vector<double> ends;
        for (const auto& [b, e] : xs) {
            while (!ends.empty() && ends.back() <= b + 1e-9)
                ends.pop_back();
            if (!ends.empty()) {
                EXPECT_LE(e, ends.back() + 1e-9) << "overlapping slices on " << track.first << "/" << track.second;
            }
            ends.push_back(e);
        }
    }
    for (const auto& [id, n] : flows)
        EXPECT_EQ(n, 0) << "flow " << id << " without both ends";
    EXPECT_TRUE(processes.count("cluster a15") && processes.count("cluster a7") && processes.count("logical CPUs"));
    for (const char* n : {"freq_mhz", "voltage_mv", "power_mw", "energy_j", "blackout", "GIC migration", "outbound down",
                          "switch a15->a7", "switch a7->a15", "GOING_DOWN", "DOWN", "COMING_UP", "UP"})
        EXPECT_TRUE(names.count(n)) << n;
    EXPECT_GT(counters, 10);
    EXPECT_FALSE(flows.empty());
}

TEST_F(trace_test, the_ftrace_text_has_the_kernels_shape_and_events)
{
    ASSERT_EQ(run("--out " + dir.string() + " --trace ftrace " + pingpong + " --set duration_s=0.8"), 0);
    std::istringstream in(slurp(dir / "trace.txt"));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "# tracer: nop");
    const std::regex entry(R"(^\s*(\S+)-(\d+)\s+\[(\d{3})\] \S{4}\s+(\d+\.\d{6}): (\w+): (.*)$)");
    const std::map<std::string, std::regex> fields = {
        {"sched_switch", std::regex(R"(prev_comm=\S+ prev_pid=\d+ prev_prio=\d+ prev_state=[RS] ==> next_comm=\S+ next_pid=\d+ next_prio=\d+)")},
        {"sched_wakeup", std::regex(R"(comm=\S+ pid=\d+ prio=\d+ target_cpu=\d{3})")},
        {"sched_migrate_task", std::regex(R"(comm=\S+ pid=\d+ prio=\d+ orig_cpu=\d+ dest_cpu=\d+)")},
        {"cpu_frequency", std::regex(R"(state=\d+ cpu_id=\d+)")},
        {"cpu_idle", std::regex(R"(state=\d+ cpu_id=\d+)")},
        {"cpu_frequency_limits", std::regex(R"(min=\d+ max=\d+ cpu_id=\d+)")},
        {"cpu_migrate_begin", std::regex(R"(timestamp=\d+ cpu_hwid=0x[0-9A-F]{8})")},
        {"cpu_migrate_finish", std::regex(R"(timestamp=\d+ cpu_hwid=0x[0-9A-F]{8})")},
    };
    std::map<std::string, int> count;
    double last = 0;
    int lines = 0;
    while (std::getline(in, line)) {
        if (line.rfind("#", 0) == 0)
            continue;
        std::smatch m;
        ASSERT_TRUE(std::regex_match(line, m, entry)) << line;
        const double t = std::stod(m[4]);
        EXPECT_GE(t, last) << line;
        last = t;
        const std::string ev = m[5], f = m[6];
        ASSERT_TRUE(fields.count(ev)) << "unexpected event: " << line;
        EXPECT_TRUE(std::regex_match(f, fields.at(ev))) << line;
        count[ev]++;
        lines++;
    }
    EXPECT_GT(lines, 100);
    // switch-pingpong's 12 switches in its first 0.8 s: each begins and finishes once.
    json s = json::parse(slurp(dir / "summary.json"));
    const int switches = s["switches"]["count"];
    EXPECT_GT(switches, 0);
    EXPECT_EQ(count["cpu_migrate_begin"], switches);
    EXPECT_EQ(count["cpu_migrate_finish"], switches);
    EXPECT_EQ(count["cpu_frequency_limits"], 2); // one per logical CPU's policy
    for (const char* ev : {"sched_switch", "sched_wakeup", "cpu_idle", "cpu_frequency"})
        EXPECT_GT(count[ev], 0) << ev;
}

TEST_F(trace_test, mode_changes_and_cross_cluster_migrations_are_instants)
{
    const std::string tour = std::string(BLSIM_SOURCE_DIR) + "/configs/scenarios/mode-tour.yaml";
    ASSERT_EQ(run("--out " + dir.string() + " --trace perfetto,ftrace " + tour), 0);
    const json t = json::parse(slurp(dir / "trace.json"));
    const json s = json::parse(slurp(dir / "summary.json"));
    std::vector<std::string> modes;
    int xmigrated = 0, grouped = 0;
    bool mode_track_named = false;
    for (const json& e : t.at("traceEvents")) {
        if (e.at("ph") == "M") {
            mode_track_named |= e.at("args").at("name") == "big.LITTLE mode" && e.at("pid") == 50;
            continue;
        }
        if (e.value("cat", "") == "mode") {
            // Global instants, on the mode's own track.
            EXPECT_EQ(e.at("ph"), "i") << e.dump();
            EXPECT_EQ(e.at("s"), "g") << e.dump();
            EXPECT_EQ(e.at("pid"), 50) << e.dump();
            const std::string name = e.at("name");
            modes.push_back(name);
            EXPECT_EQ(e.at("args").at("mode"), name.substr(5, name.find(" (") - 5)) << e.dump(); // "mode X (from Y)"
        }
        const std::string name = e.value("name", "");
        if (name.rfind("switch ", 0) == 0 && e.contains("args") && e.at("args").contains("group"))
            grouped++; // cluster migration's switches carry their group
        if (name.rfind("xmigrated ", 0) == 0) {
            // On the task track of the CPU the task now runs on, with the move's latency.
            xmigrated++;
            EXPECT_EQ(e.at("ph"), "i") << e.dump();
            EXPECT_EQ(e.at("tid").get<int>() % 100, 0) << e.dump();
            const std::string cluster = e.at("pid") == 1 ? "a15" : "a7";
            EXPECT_EQ(name.substr(name.size() - cluster.size() - 4), " -> " + cluster) << e.dump();
            // (0 when the CPU it moved to was at a scheduling point at that very instant.)
            EXPECT_GE(e.at("args").at("latency_us").get<double>(), 0) << e.dump();
        }
    }
    EXPECT_TRUE(mode_track_named);
    EXPECT_EQ(modes, (std::vector<std::string>{"mode iks", "mode hmp (from iks)", "mode eas (from hmp)",
                                               "mode cluster-migration (from eas)",
                                               "mode smp (from cluster-migration)"}));
    EXPECT_EQ(xmigrated, s["migrations"]["count"].get<int>());
    EXPECT_EQ(grouped, 2 * s["cluster_migration"]["groups"].get<int>()); // both logical CPUs of each group
    EXPECT_GT(grouped, 0);
    EXPECT_GT(xmigrated, 0);
    // The kernel's text has no event Linux would not print: the moves are sched_migrate_task.
    const std::string text = slurp(dir / "trace.txt");
    EXPECT_EQ(text.find("xmigrat"), std::string::npos);
    EXPECT_EQ(text.find("mode"), std::string::npos);
    EXPECT_NE(text.find("sched_migrate_task"), std::string::npos);
}

TEST_F(trace_test, traces_are_the_same_bytes_each_time_and_gzip_holds_the_same_text)
{
    ASSERT_EQ(run("--out " + (dir / "a").string() + " --trace perfetto,ftrace --set duration_s=1"), 0);
    ASSERT_EQ(run("--out " + (dir / "b").string() + " --trace perfetto,ftrace --gzip --set duration_s=1"), 0);
    ASSERT_EQ(run("--out " + (dir / "c").string() + " --trace perfetto,ftrace --set duration_s=1"), 0);
    EXPECT_EQ(slurp(dir / "a" / "trace.json"), slurp(dir / "c" / "trace.json"));
    EXPECT_EQ(slurp(dir / "a" / "trace.txt"), slurp(dir / "c" / "trace.txt"));
    for (const char* f : {"trace.json", "trace.txt"}) {
        gzFile g = gzopen((dir / "b" / (std::string(f) + ".gz")).c_str(), "rb");
        ASSERT_NE(g, nullptr) << f;
        std::string text;
        char buf[65536];
        for (int n; (n = gzread(g, buf, sizeof buf)) > 0;)
            text.append(buf, static_cast<std::size_t>(n));
        gzclose(g);
        EXPECT_EQ(text, slurp(dir / "a" / f)) << f;
    }
    json s = json::parse(slurp(dir / "b" / "summary.json"));
    EXPECT_EQ(s["files"], json({"effective-config.yaml", "switches.csv", "trace.json.gz", "trace.txt.gz"}));
}

TEST_F(trace_test, the_vcd_holds_the_lines_power_states_and_clocks_without_the_date)
{
    ASSERT_EQ(run("--out " + dir.string() + " --trace vcd --set duration_s=0.2"), 0);
    const std::string vcd = slurp(dir / "trace.vcd");
    for (const char* v : {"cpu0_irq", "cpu0_wake", "cpu4_power", "a15_power", "a7_freq_mhz"})
        EXPECT_NE(vcd.find(v), std::string::npos) << v;
    EXPECT_NE(vcd.find("$timescale\n     1 ps\n$end"), std::string::npos);
    EXPECT_NE(vcd.find("(omitted: blsim's outputs depend only on the scenario and seed)"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / ".trace.tmp.vcd"));
}

// Issue 24: --trace vcd changed the results (SystemC's sc_trace and the signals it needed
// were activity of their own). Every shipped scenario, shortened, untraced and with each
// trace kind: the same results to the byte.
TEST_F(trace_test, no_trace_kind_changes_what_any_shipped_scenario_simulates)
{
    const std::vector<fs::path> scenarios = blsim_test::shipped_scenarios();
    for (const fs::path& sc : scenarios) {
        const std::string n = sc.stem().string();
        ASSERT_EQ(run("--out " + (dir / n / "none").string() + " " + sc.string() + " --set duration_s=1"), 0) << n;
        const std::string untraced = simulated(dir / n / "none" / "summary.json");
        for (const char* kind : {"perfetto", "ftrace", "vcd"}) {
            const fs::path out = dir / n / kind;
            ASSERT_EQ(run("--out " + out.string() + " --trace " + kind + " " + sc.string() + " --set duration_s=1"), 0)
                << n << " " << kind;
            EXPECT_EQ(simulated(out / "summary.json"), untraced) << n << " with --trace " << kind;
        }
        fs::remove_all(dir / n);
    }
}

// Issue 24: a task's slice began on a switch's outbound and went on there while the outbound
// was off (audio-decoder on a powered-off cpu0 for 12.4 s of the default run). No task slice
// overlaps its CPU's off state; every state is one named complete (X) slice that does not end
// where it began.
TEST_F(trace_test, no_task_is_drawn_on_a_powered_off_cpu_in_the_default_run)
{
    ASSERT_EQ(run("--out " + dir.string() + " --trace perfetto " + BLSIM_SOURCE_DIR + "/configs/scenarios/default.yaml"), 0);
    const json t = json::parse(slurp(dir / "trace.json"));
    // Per track (pid, tid): the closed slices (begin, end, name), and the open one.
    using track = std::pair<int, int>;
    struct slice {
        double b, e;
        std::string name;
    };
    std::map<track, std::vector<slice>> closed;
    for (const json& e : t.at("traceEvents")) {
        const std::string ph = e.at("ph");
        ASSERT_TRUE(ph != "B" && ph != "E") << "states are complete slices: " << e.dump();
        if (ph != "X" || e.value("cat", "") == "switch")
            continue;
        const track k{e.at("pid"), e.at("tid")};
        const double ts = e.at("ts");
        ASSERT_TRUE(e.contains("name")) << "a nameless slice: " << e.dump();
        EXPECT_GT(e.at("dur").get<double>(), 0) << "a slice ending where it began: " << e.dump();
        closed[k].push_back({ts, ts + e.at("dur").get<double>(), e.at("name")});
    }
    std::size_t tasks = 0, offs = 0, overlaps = 0;
    for (const auto& [k, slices] : closed) {
        if (k.second % 100 != 0 || k.second < 100 || k.second >= 5000)
            continue; // not a cpuN task track (docs/traces.md's numbering)
        const track power{k.first, k.second + 2};
        ASSERT_TRUE(closed.count(power)) << k.second;
        for (const slice& p : closed.at(power)) {
            if (p.name != "off")
                continue;
            offs++;
            for (const slice& s : slices) {
                if (s.b < p.e && p.b < s.e) {
                    if (overlaps++ < 5)
                        ADD_FAILURE() << "'" << s.name << "' " << s.b << "-" << s.e << " us on cpu" << k.second / 100 - 1
                                      << ", off " << p.b << "-" << p.e << " us";
                }
            }
        }
        tasks += slices.size();
    }
    EXPECT_EQ(overlaps, 0u);
    EXPECT_GT(tasks, 1000u);
    EXPECT_GT(offs, 10u);
}

// Issue 24: #P said every physical CPU; the lines use the logical ones. It is one more than the
// highest CPU number the lines use, in the CPU column or in a CPU field.
TEST_F(trace_test, the_ftrace_headers_cpu_count_is_the_cpus_its_lines_use)
{
    for (const char* sc : {"default.yaml", "switch-pingpong.yaml", "bbench-hmp.yaml"}) {
        const fs::path out = dir / sc;
        ASSERT_EQ(run("--out " + out.string() + " --trace ftrace " + BLSIM_SOURCE_DIR + "/configs/scenarios/" + sc +
                      " --set duration_s=1"),
                  0);
        const std::string text = slurp(out / "trace.txt");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(#P:(\d+)\n)"))) << sc;
        const unsigned p = static_cast<unsigned>(std::stoul(m[1]));
        unsigned used = 0;
        const std::regex cpu(R"(\[(\d{3})\]|(?:cpu_id|target_cpu|orig_cpu|dest_cpu)=(\d+))");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), cpu); it != std::sregex_iterator(); ++it)
            used = std::max(used, static_cast<unsigned>(std::stoul((*it)[1].matched ? (*it)[1] : (*it)[2])) + 1);
        EXPECT_EQ(p, used) << sc;
    }
}

// Issue 24: the VCD's signals start at documented values (docs/traces.md): the lines low, the
// power states and clocks as the platform has them at time zero.
TEST_F(trace_test, the_vcd_signals_start_at_their_documented_values)
{
    ASSERT_EQ(run("--out " + dir.string() + " --trace vcd --set duration_s=0.2"), 0);
    const std::string vcd = slurp(dir / "trace.vcd");
    std::map<std::string, std::string> id; // name -> identifier
    const std::regex var(R"(\$var wire \d+ (\S+) (\S+)( \[\d+:0\])? \$end)");
    for (auto it = std::sregex_iterator(vcd.begin(), vcd.end(), var); it != std::sregex_iterator(); ++it)
        id[(*it)[2]] = (*it)[1];
    ASSERT_EQ(id.size(), 5u * 3 + 2 * 2);
    const std::size_t d = vcd.find("$dumpvars\n"), e = vcd.find("$end\n", d);
    ASSERT_NE(d, std::string::npos);
    std::map<std::string, std::string> initial; // identifier -> value
    std::istringstream in(vcd.substr(d + 10, e - d - 10));
    for (std::string line; std::getline(in, line);) {
        if (line[0] == 'b')
            initial[line.substr(line.find(' ') + 1)] = line.substr(0, line.find(' '));
        else
            initial[line.substr(1)] = line.substr(0, 1);
    }
    for (unsigned cpu = 0; cpu < 5; cpu++) {
        const std::string n = "cpu" + std::to_string(cpu);
        EXPECT_EQ(initial[id[n + "_irq"]], "0") << n;
        EXPECT_EQ(initial[id[n + "_wake"]], "0") << n;
    }
    for (unsigned cpu = 0; cpu < 5; cpu++) // 0x41 on: every core is powered out of reset
        EXPECT_EQ(initial[id["cpu" + std::to_string(cpu) + "_power"]], "b1000001") << cpu;
    EXPECT_EQ(initial[id["a15_power"]], "b1010001"); // 0x51 on
    EXPECT_EQ(initial[id["a7_power"]], "b1010001");
    EXPECT_EQ(initial[id["a15_freq_mhz"]], "b10010110000"); // 1200 MHz: the SoC file's boot clocks
    EXPECT_EQ(initial[id["a7_freq_mhz"]], "b1111101000");   // 1000 MHz
    // After $dumpvars, only changes, in time order.
    std::uint64_t last = 0;
    for (std::size_t p = vcd.find("\n#", e); p != std::string::npos; p = vcd.find("\n#", p + 1)) {
        const std::uint64_t t = std::stoull(vcd.substr(p + 2));
        EXPECT_GT(t, last);
        last = t;
    }
    EXPECT_GT(last, 0u);
}

TEST_F(trace_test, an_unknown_trace_kind_is_a_usage_error)
{
    EXPECT_EQ(WEXITSTATUS(run("--out " + dir.string() + " --trace perfetto,systrace")), 2);
    EXPECT_FALSE(fs::exists(dir / "summary.json"));
}

} // namespace
