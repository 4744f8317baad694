// soc/cli/args/src/args.cpp -- the option parser and the help rows (blsim/soc/args.h).
#include "blsim/soc/args.h"

#include <algorithm>

namespace blsim::soc::cmdline {

namespace {

constexpr std::size_t help_column = 22; // where every help table's text starts

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// args[i] as an option of @o: true if it is one, with its value taken (or refused) into
// @error; false if it is another argument. @i advances past a value given as its own word.
bool take_option(const option& o, const std::vector<std::string>& args, std::size_t& i, std::string& error,
                 bool& taken)
{
    const std::string& a = args[i];
    taken = false;
    if (o.what == kind::note)
        return false;
    const bool by_name = a == o.name || (o.alias && a == o.alias);
    if (o.what == kind::flag) {
        if (!by_name)
            return false;
        taken = o.take("", error);
        return true;
    }
    if (by_name) {
        if (i + 1 >= args.size()) {
            if (o.missing) {
                error = o.missing;
                return true;
            }
            taken = o.take("", error);
            return true;
        }
        const std::string& v = args[++i];
        if (o.next_word_check && o.next_word_check(v, i + 1 < args.size() ? args[i + 1].c_str() : nullptr, error))
            return true;
        taken = o.take(v, error);
        return true;
    }
    // Joined: --name=VALUE, or a short alias's -xVALUE.
    const std::string long_prefix = std::string(o.name) + "=";
    if (starts_with(a, long_prefix)) {
        taken = o.take(a.substr(long_prefix.size()), error);
        return true;
    }
    if (o.alias && o.alias[1] != '-' && starts_with(a, o.alias) && !starts_with(a, "--")) {
        taken = o.take(a.substr(std::string(o.alias).size()), error);
        return true;
    }
    return false;
}

bool is_help(const std::string& a) { return a == "-h" || a == "--help"; }

} // namespace

outcome parse(const command& cmd, const std::vector<std::string>& args, std::string& error, std::size_t from)
{
    if (cmd.rules.help_anywhere && std::any_of(args.begin() + static_cast<std::ptrdiff_t>(from), args.end(), is_help))
        return outcome::help;
    bool options_done = false;
    for (std::size_t i = from; i < args.size(); i++) {
        const std::string& a = args[i];
        const bool operand = options_done || a.empty() || a[0] != '-' || (a == "-" && cmd.rules.lone_dash_is_operand);
        if (operand) {
            if (!cmd.operand(a, error))
                return outcome::error;
            continue;
        }
        if (a == "--" && cmd.rules.double_dash_ends_options) {
            options_done = true;
            continue;
        }
        if (!cmd.rules.help_anywhere && is_help(a))
            return outcome::help;
        bool matched = false;
        for (const option& o : cmd.options) {
            bool taken = false;
            if (take_option(o, args, i, error, taken)) {
                if (!taken)
                    return outcome::error;
                matched = true;
                break;
            }
        }
        if (matched)
            continue;
        if (cmd.other && cmd.other(args, i, error)) {
            if (!error.empty())
                return outcome::error;
            continue;
        }
        error = cmd.name + ": unknown option '" + a + "'";
        return outcome::error;
    }
    return outcome::ok;
}

std::string help_row(const std::string& label, const std::string& text)
{
    const std::string indent(help_column, ' ');
    std::string out;
    std::string last = label;
    for (std::size_t nl; (nl = last.find('\n')) != std::string::npos; last = last.substr(nl + 1))
        out += "  " + last.substr(0, nl) + "\n";
    std::string line = "  " + last;
    if (line.size() < help_column)
        line += std::string(help_column - line.size(), ' ');
    else
        line += "\n" + indent;
    std::string rest = text;
    for (std::size_t nl; (nl = rest.find('\n')) != std::string::npos; rest = rest.substr(nl + 1)) {
        out += line + rest.substr(0, nl) + "\n";
        line = indent;
    }
    return out + line + rest + "\n";
}

std::string option_lines(const std::vector<option>& options)
{
    std::string out;
    for (const option& o : options) {
        std::string label = o.alias ? std::string(o.alias) + ", " + o.name : std::string(o.name);
        if (o.value_name)
            label += std::string(" ") + o.value_name;
        out += help_row(label, o.help);
    }
    return out;
}

} // namespace blsim::soc::cmdline
