// Writing a scene as glTF 2.0: a .gltf with its .bin and images beside it, or one .glb. The
// mapping from the scene model is described in convert/README.md, section "glTF".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace esv {

struct PofExtras;

struct GltfWriteOptions {
    bool binary = false;        // .glb: JSON, buffer and images in one file
    double resampleFps = 30.0;  // rate for curves glTF cannot hold exactly (TCB, element tracks, ...)
};

// What the writer did that a reader of the output should know (lossy mappings, resampled curves,
// textures left out), one plain sentence each, plus the output's counts for reports and tests.
struct GltfWriteReport {
    std::vector<std::string> notes;
    size_t nodes = 0, meshes = 0, primitives = 0, materials = 0, images = 0, animations = 0, scenes = 0;
    std::vector<std::string> files;  // every file written, the main one first
};

// Writes `scene` to `outputPath`. Textures are taken from Texture::image (run readSceneTextures
// first): PNG and JPEG files are copied byte for byte, every other image is decoded and written as
// PNG; placeholders for missing textures are left out with a note. Nothing is written unless the
// whole output could be built; on failure returns false with `error` (one sentence) set. Files of a
// .gltf (the .bin and the images) are named after the output's stem and written beside it.
bool writeGltf(const Scene& scene, const std::string& outputPath, const GltfWriteOptions& options,
               GltfWriteReport& report, std::string& error);

// Nodes the writer adds besides the scene's own, all reachable from the default scene:
// one child per non-skinned mesh instance whose object transform (OpenGEX), or whose unpack
// matrix when its positions stay quantised (POD), is not the identity, and per light or camera
// node whose object transform is not; and the POF point nodes.
size_t gltfHelperNodeCount(const Scene& scene);

// POF game points written as nodes: one group node, then one node per gun and missile point, dock
// (and each of its points), thruster (and each glow), path, special point, eye point and turret bank.
size_t pofPointNodeCount(const PofExtras& pof);

// True when the positions of `mesh` are kept as stored (8- or 16-bit integers, through
// KHR_mesh_quantization) rather than widened to floats with the unpack matrix applied.
bool gltfKeepsQuantizedPositions(const Mesh& mesh);

}  // namespace esv
