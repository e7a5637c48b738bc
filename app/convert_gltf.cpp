#include "app/convert_gltf.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "app/commands.h"
#include "app/convert_notes.h"
#include "convert/gltf/gltf_writer.h"
#include "loaders/textures/scene_textures.h"
#include "scene/up_axis.h"

namespace esv {

void addGltfConvertOptions(CLI::App* convert, GltfConvertOptions& options) {
    convert->add_option("--resample-fps", options.resampleFps,
                        "Frames per second at which curves glTF cannot hold exactly are sampled (default 30)")
        ->check(CLI::Range(1.0, 1000.0))
        ->group("To glTF");
}

int convertToGltf(Scene& scene, const std::string& input, const std::string& output, bool binary,
                  const std::vector<std::string>& texturePaths, const GltfConvertOptions& options) {
    readSceneTextures(scene, {}, texturePaths);
    for (const ReportLine& line : scene.report)
        if (line.severity == Severity::Warning)
            std::printf("%s: warning: %s\n", input.c_str(), line.text.c_str());
    // glTF is Y up and no reader looks at extras: a Z-up scene is turned, as for POD.
    const bool turned = turnSceneToYUp(scene);
    GltfWriteOptions writeOptions;
    writeOptions.binary = binary;
    writeOptions.resampleFps = options.resampleFps;
    GltfWriteReport report;
    std::string error;
    if (!writeGltf(scene, output, writeOptions, report, error)) {
        std::fprintf(stderr, "%s: %s\n", input.c_str(), error.c_str());
        return kExitBadInput;
    }
    if (turned)
        std::printf("%s: note: the Z-up scene turned to glTF's Y up: (x, y, z) becomes (x, z, -y)\n", input.c_str());
    for (const std::string& note : summarizeNotes(report.notes)) std::printf("%s: %s\n", input.c_str(), note.c_str());
    std::printf(
        "%s: wrote %s: %zu nodes, %zu meshes (%zu primitives), %zu materials, %zu images, %zu animations, "
        "%zu scenes\n",
        input.c_str(), output.c_str(), report.nodes, report.meshes, report.primitives, report.materials,
        report.images, report.animations, report.scenes);
    return kExitOk;
}

}  // namespace esv
