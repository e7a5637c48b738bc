// The process exit codes the command line and the viewer return: 0 success, 1 bad input (one line
// per problem on stderr), 2 usage error. Apart from cli/commands.h so that the viewer core, which
// returns them from a run, does not include the command line.
#pragma once

namespace esv {

enum ExitCode : int { kExitOk = 0, kExitBadInput = 1, kExitUsage = 2 };

}  // namespace esv
