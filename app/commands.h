// The command line of DESIGN.md: parsing and the subcommands. Returns the process exit code:
// 0 success, 1 bad input (one line per problem on stderr), 2 usage error.
#pragma once

#include <string>
#include <vector>

namespace esv {

enum ExitCode : int { kExitOk = 0, kExitBadInput = 1, kExitUsage = 2 };

// Runs esview with `argv` as main() gets it (argv[0] the program name).
int runCommandLine(int argc, char** argv);

}  // namespace esv
