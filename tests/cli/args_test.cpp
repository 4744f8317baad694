// tests/cli/args_test.cpp -- the option parser every command uses (blsim/soc/args.h): its
// grammar, its messages and its help rows, on small tables written for the test. Links
// bls_args alone (the proof that it needs nothing else).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "blsim/soc/args.h"

namespace {

namespace cmdline = blsim::soc::cmdline;
using cmdline::outcome;
using strings = std::vector<std::string>;

// What a test command's options came to.
struct parsed {
    bool verbose = false;
    std::string out;
    std::vector<std::string> sets, operands;
    unsigned jobs = 0;
};

// The two words of --set K V, as blsim's set_split_in_two judges them.
bool split_check(const std::string& v, const char* next, std::string& error)
{
    if (v.find('=') != std::string::npos || !next || next[0] == '-')
        return false;
    error = "split: " + v + " " + next;
    return true;
}

cmdline::command test_command(parsed& p)
{
    cmdline::command cmd;
    cmd.name = "test";
    cmd.options = {
        cmdline::flag("--verbose", "-v", "say more", [&p](const std::string&, std::string&) {
            p.verbose = true;
            return true;
        }),
        cmdline::value("--out", nullptr, "DIR", "where to", [&p](const std::string& v, std::string& e) {
            p.out = v;
            if (v.empty())
                e = "--out needs a directory";
            return !v.empty();
        }),
        cmdline::value("--jobs", "-j", "N", "runs at once",
                       [&p](const std::string& v, std::string& e) {
                           if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) {
                               e = "-j: got '" + v + "'";
                               return false;
                           }
                           p.jobs = static_cast<unsigned>(std::stoul(v));
                           return true;
                       },
                       "-j needs a number of runs"),
        cmdline::repeated("--set", nullptr, "KEY=VALUE", "an override",
                          [&p](const std::string& v, std::string&) {
                              p.sets.push_back(v);
                              return true;
                          },
                          "--set needs KEY=VALUE", split_check),
        cmdline::note("--help", "-h", nullptr, "this text"),
    };
    cmd.operand = [&p](const std::string& a, std::string&) {
        p.operands.push_back(a);
        return true;
    };
    return cmd;
}

outcome parse(const strings& args, parsed& p, std::string& error, cmdline::grammar rules = {})
{
    cmdline::command cmd = test_command(p);
    cmd.rules = rules;
    return cmdline::parse(cmd, args, error);
}

TEST(Args, TakesEveryFormOfAnOption)
{
    parsed p;
    std::string error;
    ASSERT_EQ(parse({"a", "-v", "--out", "d", "--set=x=1", "--set", "y=2", "-j3", "b"}, p, error), outcome::ok)
        << error;
    EXPECT_TRUE(p.verbose);
    EXPECT_EQ(p.out, "d");
    EXPECT_EQ(p.sets, (strings{"x=1", "y=2"}));
    EXPECT_EQ(p.jobs, 3u);
    EXPECT_EQ(p.operands, (strings{"a", "b"}));

    parsed q;
    ASSERT_EQ(parse({"--out=e", "--jobs=4", "-j", "5", "--verbose"}, q, error), outcome::ok) << error;
    EXPECT_EQ(q.out, "e");
    EXPECT_EQ(q.jobs, 5u); // the last wins
    EXPECT_TRUE(q.verbose);
}

TEST(Args, NamesAnUnknownOptionWithItsCommand)
{
    parsed p;
    std::string error;
    EXPECT_EQ(parse({"--bogus"}, p, error), outcome::error);
    EXPECT_EQ(error, "test: unknown option '--bogus'");
    // A flag takes no value, and a note is no option.
    error.clear();
    EXPECT_EQ(parse({"--verbose=1"}, p, error), outcome::error);
    EXPECT_EQ(error, "test: unknown option '--verbose=1'");
    error.clear();
    EXPECT_EQ(parse({"-vx"}, p, error), outcome::error);
    EXPECT_EQ(error, "test: unknown option '-vx'");
}

TEST(Args, AValueMissingAtTheEnd)
{
    parsed p;
    std::string error;
    // With a message of its own:
    EXPECT_EQ(parse({"-j"}, p, error), outcome::error);
    EXPECT_EQ(error, "-j needs a number of runs");
    EXPECT_EQ(parse({"--set"}, p, error), outcome::error);
    EXPECT_EQ(error, "--set needs KEY=VALUE");
    // Without: the option judges the empty value, as it judges --out= and --out "".
    EXPECT_EQ(parse({"--out"}, p, error), outcome::error);
    EXPECT_EQ(error, "--out needs a directory");
    error.clear();
    EXPECT_EQ(parse({"--out="}, p, error), outcome::error);
    EXPECT_EQ(error, "--out needs a directory");
    EXPECT_EQ(parse({"-jx"}, p, error), outcome::error);
    EXPECT_EQ(error, "-j: got 'x'");
}

TEST(Args, ChecksASeparateValueAgainstTheNextWord)
{
    parsed p;
    std::string error;
    EXPECT_EQ(parse({"--set", "k", "v"}, p, error), outcome::error);
    EXPECT_EQ(error, "split: k v");
    // Not when the value is joined, nor when the next word is an option.
    parsed q;
    EXPECT_EQ(parse({"--set=k", "v", "--set", "k", "-v"}, q, error), outcome::ok);
    EXPECT_EQ(q.sets, (strings{"k", "k"}));
    EXPECT_EQ(q.operands, (strings{"v"}));
}

TEST(Args, HelpAnywhereOrInTurn)
{
    parsed p;
    std::string error;
    // The batch commands' grammar: -h anywhere, even as a value, and before any check.
    EXPECT_EQ(parse({"--bogus", "--out", "-h"}, p, error), outcome::help);
    // run's: in turn, an earlier bad option is reported first; a value is a value.
    const cmdline::grammar in_turn{false, false, false};
    EXPECT_EQ(parse({"--bogus", "--help"}, p, error, in_turn), outcome::error);
    EXPECT_EQ(error, "test: unknown option '--bogus'");
    EXPECT_EQ(parse({"--help", "--bogus"}, p, error, in_turn), outcome::help);
    parsed q;
    EXPECT_EQ(parse({"--out", "-h"}, q, error, in_turn), outcome::ok);
    EXPECT_EQ(q.out, "-h");
}

TEST(Args, DoubleDashAndLoneDash)
{
    parsed p;
    std::string error;
    ASSERT_EQ(parse({"-", "", "--", "-v", "--"}, p, error), outcome::ok) << error;
    EXPECT_EQ(p.operands, (strings{"-", "", "-v", "--"}));
    EXPECT_FALSE(p.verbose);

    cmdline::grammar strict;
    strict.double_dash_ends_options = false;
    strict.lone_dash_is_operand = false;
    EXPECT_EQ(parse({"--"}, p, error, strict), outcome::error);
    EXPECT_EQ(error, "test: unknown option '--'");
    EXPECT_EQ(parse({"-"}, p, error, strict), outcome::error);
    EXPECT_EQ(error, "test: unknown option '-'");
}

TEST(Args, OtherOptionsAreTriedBeforeUnknown)
{
    parsed p;
    std::string taken;
    cmdline::command cmd = test_command(p);
    cmd.other = [&taken](const strings& args, std::size_t& i, std::string& error) {
        if (args[i] != "--hook")
            return false;
        if (i + 1 >= args.size())
            error = "--hook needs a name";
        else
            taken = args[++i];
        return true;
    };
    std::string error;
    ASSERT_EQ(cmdline::parse(cmd, {"--hook", "h", "x"}, error), outcome::ok) << error;
    EXPECT_EQ(taken, "h");
    EXPECT_EQ(p.operands, (strings{"x"}));
    EXPECT_EQ(cmdline::parse(cmd, {"--hook"}, error), outcome::error);
    EXPECT_EQ(error, "--hook needs a name");
    EXPECT_EQ(cmdline::parse(cmd, {"--nope"}, error), outcome::error);
    EXPECT_EQ(error, "test: unknown option '--nope'");
}

TEST(Args, ARefusedOperandStopsTheParse)
{
    parsed p;
    cmdline::command cmd = test_command(p);
    cmd.operand = [](const std::string& a, std::string& error) {
        error = "only flags (got '" + a + "')";
        return false;
    };
    std::string error;
    EXPECT_EQ(cmdline::parse(cmd, {"-v", "x", "--bogus"}, error), outcome::error);
    EXPECT_EQ(error, "only flags (got 'x')");
    // From an index: what comes before is the caller's (sweep merge).
    EXPECT_EQ(cmdline::parse(cmd, {"x", "-v"}, error, 1), outcome::ok);
}

TEST(Args, HelpRowsStartTheirTextAtColumn22)
{
    EXPECT_EQ(cmdline::help_row("--out DIR", "where to\nand more"),
              "  --out DIR           where to\n"
              "                      and more\n");
    // A label too wide for its column: the text on the next line.
    EXPECT_EQ(cmdline::help_row("--a-very-long-one XY", "text"),
              "  --a-very-long-one XY\n"
              "                      text\n");
    EXPECT_EQ(cmdline::help_row("--nineteen-chars-xy", "t"), "  --nineteen-chars-xy t\n");
    // A label of several lines.
    EXPECT_EQ(cmdline::help_row("one\ntwo", "text"),
              "  one\n"
              "  two                 text\n");
}

TEST(Args, OptionLinesFromTheTable)
{
    parsed p;
    EXPECT_EQ(cmdline::option_lines(test_command(p).options),
              "  -v, --verbose       say more\n"
              "  --out DIR           where to\n"
              "  -j, --jobs N        runs at once\n"
              "  --set KEY=VALUE     an override\n"
              "  -h, --help          this text\n");
}

} // namespace
