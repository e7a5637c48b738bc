// What a scene costs on a device (`esview cost`, `check --budget`, the viewer's Cost panel), offline:
// per mesh the vertex and index bytes as stored and the post-transform cache, fetch and overdraw
// figures meshoptimizer computes for the device's FIFO model; per texture the bytes the device's
// upload leaves in GPU memory and what a compressed format would save; per frame at a pose the
// draws, triangles, vertices transformed and bytes fetched; and every limit of the device the scene
// exceeds, with what the preparation stage does about it. GL-free: the frame's state changes come
// from a renderer (FrameCost::measured), filled in by the caller that has a context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "target/state_changes.h"
#include "scene/scene.h"
#include "target/device_profiles.h"

namespace esv {

struct BatchCost {
    uint32_t bones = 0;           // matrices the batch's palette holds
    uint32_t paletteVectors = 0;  // bones x 4 plus what the programs keep besides the palette
    bool overLimit = false;       // more bones than the device's palette takes: re-batched
};

struct MeshCost {
    std::string name;
    uint32_t vertices = 0;
    uint32_t triangles = 0;  // as stored (strips and fans counted as the triangles they make)
    uint32_t lines = 0, points = 0;
    std::vector<std::string> attributes;  // "position float32x3 +0 (stride 32)"
    uint64_t vertexBytes = 0;             // every stream, count x stride
    uint64_t indexBytes = 0;              // the stored index list
    // meshoptimizer over the triangles in the file's own order, with the device's FIFO (warp and
    // primitive groups off), and after meshopt_optimizeVertexCache; 0 for a mesh with no triangles.
    float acmr = 0, atvr = 0, acmrOptimized = 0, atvrOptimized = 0;
    uint32_t verticesTransformed = 0;  // per draw of the whole mesh, in the file's order
    float overfetch = 0;                // bytes fetched over stream bytes, every stream
    uint64_t bytesFetched = 0;
    float overdraw = 0;  // meshopt_analyzeOverdraw: shaded over covered pixels (its axis views)
    uint32_t duplicateVertices = 0;  // byte-identical in every stream
    std::vector<BatchCost> batches;  // bone batches (one for a skinned mesh stored without)
    uint32_t morphTargets = 0;
    uint64_t morphBytes = 0;
};

struct TextureCost {
    std::string name;
    std::string file;    // the file found; empty when embedded or missing
    std::string format;  // as stored: pixelFormatName ("RGBA8", "PVRTC1 4bpp RGBA", ...)
    std::string container;
    uint32_t width = 0, height = 0, mipLevels = 0, faces = 1;
    bool missing = false;  // not found: the checker stands in
    uint64_t storedBytes = 0;  // every surface as read
    uint64_t gpuBytes = 0;     // what the device's upload leaves resident (texture_plan.h)
    bool usableAsIs = true;    // the device samples it as stored
    std::vector<std::string> problems;  // why not: format, size, power of two, PVRTC square
    std::string suggestion;             // a compressed format the device samples, with its size
    uint64_t suggestedBytes = 0;        // 0: no suggestion
};

struct FrameCost {
    double seconds = 0;      // the pose's time (the rest pose: 0 with no clip)
    uint32_t draws = 0;      // one per (node, submesh, bone batch range), after preparation
    uint32_t triangles = 0;
    uint32_t verticesTransformed = 0;  // the device's FIFO over each drawn mesh's order
    uint64_t vertexBytesFetched = 0;
    uint64_t textureBytes = 0;  // resident: every texture the scene uploads
    bool measured = false;      // `changes` come from drawing the frame (a GL context was there)
    StateChanges changes;
};

struct CostTotals {
    uint64_t vertices = 0, triangles = 0, vertexBytes = 0, indexBytes = 0, morphBytes = 0;
    uint64_t textureBytes = 0;    // gpu bytes of every texture
    uint32_t maxBonesPerBatch = 0;
    uint32_t maxTextureSize = 0;  // the largest side of any texture
};

struct CostReport {
    const DeviceProfile* device = nullptr;
    std::vector<MeshCost> meshes;      // file order
    std::vector<TextureCost> textures;  // file order
    FrameCost frame;
    CostTotals totals;
    // Every limit of the device the scene exceeds, one sentence each, and what the preparation
    // stage did about it (its report lines for this device).
    std::vector<std::string> overLimits;
    std::vector<std::string> preparation;
};

// The cost of `scene` (loaded, its textures read) on `device`, at `seconds` into clip `clip`
// (-1: the rest pose).
CostReport analyzeCost(const Scene& scene, const DeviceProfile& device, int clip = -1, float seconds = 0.0f);

// Per-mesh figures alone (the tests compare them with meshoptimizer's own calls).
MeshCost analyzeMesh(const Scene& scene, size_t mesh, const DeviceProfile& device);

}  // namespace esv
