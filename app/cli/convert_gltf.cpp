#include "app/cli/convert_gltf.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/convert_notes.h"
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
                  const std::vector<std::string>& texturePaths, const GltfConvertOptions& options,
                  ConvertLog& log) {
    readSceneTextures(scene, {}, texturePaths);
    for (const ReportLine& line : scene.report)
        if (line.severity == Severity::Warning)
            appendf(log.out, "%s: warning: %s\n", input.c_str(), line.text.c_str());
    // glTF is Y up and no reader looks at extras: a Z-up scene is turned, as for POD.
    const bool turned = turnSceneToYUp(scene);
    GltfWriteOptions writeOptions;
    writeOptions.binary = binary;
    writeOptions.resampleFps = options.resampleFps;
    GltfWriteReport report;
    std::string error;
    if (!writeGltf(scene, output, writeOptions, report, error)) {
        appendf(log.err, "%s: %s\n", input.c_str(), error.c_str());
        return kExitBadInput;
    }
    if (turned)
        appendf(log.out, "%s: note: the Z-up scene turned to glTF's Y up: (x, y, z) becomes (x, z, -y)\n", input.c_str());
    for (const std::string& note : summarizeNotes(report.notes)) appendf(log.out, "%s: %s\n", input.c_str(), note.c_str());
    auto count = [](size_t n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    appendf(log.out, "%s: wrote %s: %s, %s (%s), %s, %s, %s, %s\n", input.c_str(), output.c_str(),
            count(report.nodes, "node", "nodes").c_str(), count(report.meshes, "mesh", "meshes").c_str(),
            count(report.primitives, "primitive", "primitives").c_str(),
            count(report.materials, "material", "materials").c_str(), count(report.images, "image", "images").c_str(),
            count(report.animations, "animation", "animations").c_str(), count(report.scenes, "scene", "scenes").c_str());
    return kExitOk;
}

}  // namespace esv
