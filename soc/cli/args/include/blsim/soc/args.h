// soc/cli/args/include/blsim/soc/args.h -- blsim's option parser: one table per command, from
// which both the parse and the option lines of the command's --help are made. Dependency-free
// (the C++ library only), so that soc/batch/, which builds without SystemC, parses its
// commands with it too (scripts/check-layers).
//
// The grammar every command shares: --name VALUE or --name=VALUE; a short alias as -x VALUE
// or -xVALUE (-j4); flags only as written (--json=1 is an unknown option); an argument not
// starting with '-' is an operand. What differs between commands is a grammar field, so that
// each keeps the messages its tests assert.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace blsim::soc::cmdline {

enum class kind {
    flag,     // no value
    value,    // one value; given twice, the last wins
    repeated, // a value each time, all kept in order
    note,     // no option: a line of the help only (a subcommand, a test build's option)
};

// Stores a value (empty for a flag) into the command's options. False with @error: refused.
using take_fn = std::function<bool(const std::string& value, std::string& error)>;
// A check of a value given as its own word against the word after it (--set KEY VALUE, which
// the shell split): true with @error when the two were meant as one.
using next_word_check_fn = bool (*)(const std::string& value, const char* next, std::string& error);

struct option {
    const char* name = nullptr;       // "--out"; for a note, the help line's label
    const char* alias = nullptr;      // "-j", or nullptr
    const char* value_name = nullptr; // "DIR", shown after the name; nullptr for a flag
    kind what = kind::flag;
    const char* help = "";            // the description, lines separated by '\n'
    take_fn take;
    // A value option's message when it ends the arguments with no value; nullptr: take("").
    const char* missing = nullptr;
    next_word_check_fn next_word_check = nullptr;
};

// The table's rows, by kind.
inline option flag(const char* name, const char* alias, const char* help, take_fn take)
{
    return {name, alias, nullptr, kind::flag, help, std::move(take), nullptr, nullptr};
}
inline option value(const char* name, const char* alias, const char* value_name, const char* help, take_fn take,
                    const char* missing = nullptr, next_word_check_fn check = nullptr)
{
    return {name, alias, value_name, kind::value, help, std::move(take), missing, check};
}
inline option repeated(const char* name, const char* alias, const char* value_name, const char* help, take_fn take,
                       const char* missing = nullptr, next_word_check_fn check = nullptr)
{
    return {name, alias, value_name, kind::repeated, help, std::move(take), missing, check};
}
inline option note(const char* name, const char* alias, const char* value_name, const char* help)
{
    return {name, alias, value_name, kind::note, help, nullptr, nullptr, nullptr};
}

// What differs between the commands' parsers (each keeps its own behaviour).
struct grammar {
    // -h/--help anywhere means help, nothing else checked (the batch commands); false: it is
    // an option like the others, taken in turn (run: an earlier bad option is reported).
    bool help_anywhere = true;
    bool double_dash_ends_options = true; // "--": every later argument is an operand
    bool lone_dash_is_operand = true;     // "-": an operand (else an unknown option)
};

struct command {
    std::string name; // in "NAME: unknown option '-x'"
    std::vector<option> options;
    // Takes an operand (an argument that is not an option). False with @error: refused.
    std::function<bool(const std::string& operand, std::string& error)> operand;
    // Options the table does not list, tried before an option is called unknown (the test
    // hooks of blsim-test): takes args[i] (and its value, advancing @i) and returns true, with
    // @error for a bad value; false when args[i] is not one of them.
    std::function<bool(const std::vector<std::string>& args, std::size_t& i, std::string& error)> other;
    grammar rules;
};

enum class outcome { ok, help, error };

// Parse @args from index @from with @cmd's table, calling each option's take and the
// operand's function in order. The checks that need every argument (a required operand,
// options that exclude each other) are the caller's, after an ok.
outcome parse(const command& cmd, const std::vector<std::string>& args, std::string& error,
              std::size_t from = 0);

// One line of a help's table: "  LABEL" and the text from column 22 (on the next line when
// the label is too wide); the text's further lines indented to column 22. A label of several
// lines ("a\nb") puts all but the last on lines of their own.
std::string help_row(const std::string& label, const std::string& text);

// The option lines of a --help: a help_row per option, in the table's order; the label is
// "-a, --name VALUE".
std::string option_lines(const std::vector<option>& options);

} // namespace blsim::soc::cmdline
