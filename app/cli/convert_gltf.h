// `esview convert IN OUT.gltf|OUT.glb`: the scene written as glTF 2.0 (a .gltf with its .bin and
// images beside it, or one .glb).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace esv {

struct Scene;
struct ConvertLog;

struct GltfConvertOptions {
    double resampleFps = 30.0;  // rate at which curves glTF cannot hold exactly are sampled
};

// Adds the glTF options (group "To glTF") to the convert subcommand.
void addGltfConvertOptions(CLI::App* convert, GltfConvertOptions& options);

// Writes `scene` (as loaded from `input`) to `output`; `binary` for .glb. Notes go to log.out, a
// refusal as one line to log.err. Returns an ExitCode.
int convertToGltf(Scene& scene, const std::string& input, const std::string& output, bool binary,
                  const std::vector<std::string>& texturePaths, const GltfConvertOptions& options,
                  ConvertLog& log);

}  // namespace esv
