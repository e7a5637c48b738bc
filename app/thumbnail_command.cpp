#include "app/thumbnail_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

namespace esv {

Subcommand addThumbnailCommand(CLI::App& app) {
    struct Args {
        std::string input, output;
        int size = 256;
    };
    auto args = std::make_shared<Args>();
    CLI::App* cmd = app.add_subcommand("thumbnail", "Render a framed, lit thumbnail of a model to a PNG");
    cmd->add_option("IN", args->input, "Model file")->required();
    cmd->add_option("OUT", args->output, "PNG to write")->required();
    cmd->add_option("--size", args->size, "Width and height in pixels (default 256)")->check(CLI::Range(16, 4096));
    return {cmd, [args] {
                std::fprintf(stderr, "esview thumbnail: %s: not built yet\n", args->output.c_str());
                return int(kExitUsage);
            }};
}

}  // namespace esv
