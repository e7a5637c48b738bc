#include "app/convert_gltf.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "app/commands.h"

namespace esv {

void addGltfConvertOptions(CLI::App* convert, GltfConvertOptions& options) {
    convert->add_option("--resample-fps", options.resampleFps,
                        "Frames per second at which curves glTF cannot hold exactly are sampled (default 30)")
        ->check(CLI::Range(1.0, 1000.0))
        ->group("To glTF");
}

int convertToGltf(Scene&, const std::string&, const std::string& output, bool, const std::vector<std::string>&,
                  const GltfConvertOptions&) {
    std::fprintf(stderr, "esview convert: %s: glTF output is not built yet\n", output.c_str());
    return kExitUsage;
}

}  // namespace esv
