// `esview cost FILE [--device NAME] [--json] [--frame N | --time S]`: what a model costs on a device
// profile (cost/cost_report.h), as a readable table or one JSON object. The frame's state changes
// are measured by drawing it headless with the device's renderer profile when EGL is there.
#pragma once

#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/viewer/scene_source.h"

namespace esv {

struct CostRequest {
    std::string file;
    std::string device = "ge8320";
    bool json = false;
    TimeSelection time;
    std::vector<std::string> texturePaths;
};

// Returns an ExitCode: 0 with the report on stdout, 1 when the file cannot be read (one line per
// problem on stderr).
int runCost(const CostRequest& request);

// The `cost` subcommand on `app`.
Subcommand addCostCommand(CLI::App& app);

}  // namespace esv
