// `esview compare A B [--time S | --frame N] [--clip C] [--size WxH] [--mode M] [--device NAME]
// [-o DIFF.png] [--json]`: renders two models headless with one camera, lights and time, and judges
// the pictures with the golden rule the rendering tests use (app/viewer/golden_rule.h). The check after
// `convert`: the source against the converted file.
#pragma once

#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/viewer/scene_source.h"

namespace esv {

struct CompareRequest {
    std::string a, b;
    std::string output;  // the difference image (golden::differenceImage); empty: none
    bool json = false;
    TimeSelection time;
    int width = 800, height = 600;
    std::string mode = "shaded";
    std::string device;
    std::vector<std::string> texturePaths;
};

// Renders A and B as `esview render` does, both with A's first view (the orbit framing the union of
// both framings, seen from A's first view's direction, when their framing boxes differ) and the
// request's time, and compares B's picture with A's. Model pixels are those that differ from the
// background (A's corners) in either picture. Returns an ExitCode: 0 alike, 1 different (both with
// one line on stdout, or the JSON object) or when a file cannot be read (one line per problem on
// stderr).
int runCompare(const CompareRequest& request);

// The `compare` subcommand on `app`.
Subcommand addCompareCommand(CLI::App& app);

}  // namespace esv
