// The command line of DESIGN.md: parsing and the subcommands. Returns the process exit code:
// 0 success, 1 bad input (one line per problem on stderr), 2 usage error (ExitCode).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/viewer/exit_code.h"
#include "app/viewer/scene_source.h"

namespace CLI {
class App;
}

namespace esv {

// A subcommand that registers itself from its own file (convert, thumbnail): `cli` is its parser,
// parsed() once the command line named it; `run` does the work and returns an ExitCode.
struct Subcommand {
    CLI::App* cli = nullptr;
    std::function<int()> run;
};

// --frame/--time/--clip on `cmd`, into `time`.
void addTimeOptions(CLI::App* cmd, TimeSelection& time);
// A CLI11 check: empty for a device profile's name, else the message naming the devices.
std::string checkDeviceName(const std::string& name);

// A CLI11 check: empty for a view mode's name (parseViewMode), else the message naming the modes.
std::string checkViewModeName(const std::string& name);
// A CLI11 check: empty for a WxH size (1 to 99999 each), else the message.
std::string checkSize(const std::string& size);

// Runs esview with `argv` as main() gets it (argv[0] the program name).
int runCommandLine(int argc, char** argv);

}  // namespace esv
