#include "app/convert_command.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/convert_gltf.h"
#include "app/convert_pod.h"
#include "app/scene_source.h"

namespace esv {
namespace {

struct ConvertArgs {
    std::string input, output;
    std::vector<std::string> texturePaths;
    PodConvertOptions pod;
    GltfConvertOptions gltf;
};

std::string lowerExtension(const std::string& path) {
    size_t slash = path.find_last_of("/\\");
    size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

int runConvert(ConvertArgs& args) {
    const std::string ext = lowerExtension(args.output);
    if (ext != "pod" && ext != "gltf" && ext != "glb") {
        std::fprintf(stderr, "esview convert: %s: the output must end in .pod, .gltf or .glb\n", args.output.c_str());
        return kExitUsage;
    }
    LoadResult loaded = openScene(args.input);
    if (!loaded.scene) {
        for (const Problem& p : loaded.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
        return kExitBadInput;
    }
    if (ext == "pod") return convertToPod(*loaded.scene, args.input, args.output, args.texturePaths, args.pod);
    return convertToGltf(*loaded.scene, args.input, args.output, ext == "glb", args.texturePaths, args.gltf);
}

}  // namespace

Subcommand addConvertCommand(CLI::App& app) {
    auto args = std::make_shared<ConvertArgs>();
    CLI::App* cmd = app.add_subcommand(
        "convert", "Convert a model to POD shaped for the device (.pod) or to glTF 2.0 (.gltf with .bin, or .glb)");
    cmd->add_option("IN", args->input, "Model file (archive.vp:path/model.pof inside a VP archive), or 'demo'")
        ->required();
    cmd->add_option("OUT", args->output, "Output file; its extension picks the format: .pod, .gltf or .glb")
        ->required();
    cmd->add_option("--texture-path", args->texturePaths,
                    "Also look for textures in this folder, after the model's own (repeatable)")
        ->check(CLI::ExistingDirectory);
    addPodConvertOptions(cmd, args->pod);
    addGltfConvertOptions(cmd, args->gltf);
    return {cmd, [args] { return runConvert(*args); }};
}

}  // namespace esv
