// The preparation stage: everything between "loaded" and "ready for this GPU", in one documented
// order, from a small plain description of the target. Every caller that draws a scene (the
// viewer's loader thread, `render`, benchmarks, render tests) goes through it. The scene as loaded
// is never changed: a new target (ES2/ES3, another palette budget) prepares it again in memory,
// without reading the model file again.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "scene/scene.h"

namespace esv {

struct RendererInfo;

// What a GPU can take, as the preparation stage needs it: no GL types, no renderer.
struct TargetCaps {
    int esVersion = 3;        // 2: ES 2.0 vertex types only (no half floats, ints, 2_10_10_10)
    int paletteCapacity = 0;  // bone matrices per draw; 0: no budget, batches stay as stored
    bool uintIndices = true;  // 32-bit indices (ES3 or OES_element_index_uint)
    // Compressed formats sampled natively; the others are decoded to RGBA8.
    std::array<bool, static_cast<size_t>(PixelFormat::Count)> compressedFormats{};

    bool es3() const { return esVersion >= 3; }
    bool supports(PixelFormat format) const {
        return format == PixelFormat::Rgba8 || compressedFormats[static_cast<size_t>(format)];
    }
};

// The target a renderer found in its context.
TargetCaps targetCaps(const RendererInfo& info);

// What one preparation did (the stats overlay and tests read it; each also has report lines).
struct PrepareStats {
    size_t texturesRead = 0;      // images read here because the caller had not read them
    size_t texturesDecoded = 0;   // compressed images decoded to RGBA8 for this target
    size_t meshesRebatched = 0;   // meshes whose bone batches were split for the palette
    size_t streamsConverted = 0;  // vertex streams and morph targets widened to float32
    size_t tangentMeshes = 0;     // meshes given tangent frames for normal mapping
};

// Called with the fraction done (0..1) and the step: "textures 3/12", "bone batches", ...
using PrepareProgress = std::function<void(float fraction, const std::string& stage)>;

// Prepares a copy of `loaded` for `target`. The copy shares the vertex, index and image bytes of
// `loaded` (views into the same buffers); what a step rewrites is new memory owned by the copy.
// The steps, in this order:
//   1. textures: read the images if the caller has not (readSceneTextures), then decode the
//      compressed images the target cannot sample, and those stored bottom-up, to RGBA8;
//   2. bone batches larger than the target's palette are split (rebatchSceneBones), so that the
//      GPU and CPU paths see the same mesh;
//   3. vertex streams and morph targets whose stored types the target cannot read (half floats,
//      integers and packed types on ES2, unaligned attributes anywhere) are widened to float32;
//   4. tangent frames for every mesh a material normal-maps (from the file's tangents when it
//      has them, else computed from positions, normals and UVs).
// Each step adds its lines to the copy's import report. Never fails: what cannot be prepared is
// left as loaded with a warning (the renderer then draws what it can).
std::unique_ptr<Scene> prepareForTarget(const Scene& loaded, const TargetCaps& target,
                                        const PrepareProgress& progress = {}, PrepareStats* stats = nullptr);

}  // namespace esv
