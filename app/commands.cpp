#include "app/commands.h"

#include <CLI/CLI.hpp>

namespace esv {

int runCommandLine(int argc, char** argv) {
    CLI::App app{"esview: real-time viewer for POD, OpenGEX, AWD and POF models"};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? kExitOk : kExitUsage;
    }
    return kExitOk;
}

}  // namespace esv
