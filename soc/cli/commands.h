// soc/cli/commands.h -- blsim's commands, one file each (cmd_*.cpp), as main.cpp's command
// table calls them: the arguments after the command's name in, the exit status out.
#pragma once

#include <iostream>
#include <string>
#include <vector>

#include "blsim/soc/exit_codes.h"

namespace blsim::cli {

using arguments = std::vector<std::string>;

int cmd_run(const arguments& args);
int cmd_compare(const arguments& args);
int cmd_regress(const arguments& args);
int cmd_sweep(const arguments& args);
int cmd_explore(const arguments& args);
int cmd_tune(const arguments& args);

// A usage error: "blsim: MESSAGE" and the pointer to --help on stderr; returns exit_usage.
int usage_error(const std::string& message);

} // namespace blsim::cli

namespace blsim::cli {

// A command of soc/batch/: its arguments parsed by @parse (false: a usage error), its --help
// printed, or @run run with the options.
template <class Options, class Parse, class Help, class Run>
int batch_command(const arguments& args, Parse parse, Help help_text, Run run)
{
    Options opt;
    bool help = false;
    std::string error;
    if (!parse(args, opt, help, error))
        return usage_error(error);
    if (help) {
        std::cout << help_text();
        return blsim::soc::exit_ok;
    }
    return run(opt, std::cout, std::cerr);
}

} // namespace blsim::cli
