// `esview convert IN OUT.pod`: the scene written as POD shaped for the device (what PVRGeoPOD
// does): bone batches for a palette budget, interleaved or separate streams, per-attribute
// quantisation with the error it introduced reported, vertex-cache order, strips, fixed point.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace esv {

struct Scene;
struct ConvertLog;

struct PodConvertOptions {
    bool separate = false;  // one array per attribute instead of one interleaved buffer
    int maxBones = -1;      // bones per batch; -1: the renderer's ES 2.0 palette (podDefaultMaxBones)
    std::vector<std::string> quantize;  // --quantize items (convert/pod/pod_shape.h, parsePodQuantize)
    bool optimize = false;
    bool strips = false;
    bool fixedPoint = false;
    std::string clip;  // name or index of the clip to write; empty: the only one
    bool dropMorphs = false;
    bool bindPoseRest = false;
    bool dropHidden = false;
    bool dropVisibility = false;
    bool dropUvAnimation = false;
    bool plainTextures = false;  // texture coordinate transforms and swizzles left out
    bool wrapRepeat = false;
    bool plainLights = false;   // light ranges, inner cones, switched-off and ambient lights as POD has them
    bool plainCameras = false;  // orthographic cameras and fixed aspect ratios as POD has them
    bool plainMaterials = false;  // two-sided, alpha cutoff, unlit, vertex colours off, emission as POD has them
    // Every drop above with its default (the first clip when there are several): what batch users want.
    bool lossy = false;
    float fps = 0.0f;  // > 0: sample animation at this rate
};

// The renderer's ES 2.0 palette: what 128 vertex uniform vectors (the ES 2.0 minimum, the strict
// profile) leave after the mesh program's other uniforms, 4 vectors per bone.
int podDefaultMaxBones();

// Adds the POD options (group "To POD") to the convert subcommand.
void addPodConvertOptions(CLI::App* convert, PodConvertOptions& options);

// Shapes `scene` (as loaded from `input`) and writes it to `output`. Says what it changed and the
// error each quantisation introduced in log.out, every refusal as one line in log.err (`input: ...`).
// Nothing is written unless everything succeeds. Returns an ExitCode.
int convertToPod(Scene& scene, const std::string& input, const std::string& output,
                 const std::vector<std::string>& texturePaths, const PodConvertOptions& options, ConvertLog& log);

}  // namespace esv
