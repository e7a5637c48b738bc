// Skin influences as glTF holds them: one joint list per skin (POD bone batches merged back).
#pragma once

#include <cstdint>
#include <vector>

#include "scene/scene.h"

namespace esv::gltf {

// Per-vertex influences of a skinned mesh, four per set (JOINTS_n / WEIGHTS_n).
struct VertexInfluences {
    uint32_t sets = 0;             // influence sets of four; 0 when the mesh has no bone data
    std::vector<uint16_t> joints;  // vertexCount * sets * 4: indices into the skin's joints
    std::vector<float> weights;    // vertexCount * sets * 4, each vertex summing to 1
    std::vector<float> rawSums;    // per vertex: the weights' sum before dividing (0: unweighted)
    uint32_t unweighted = 0;       // vertices with no usable influence (given joint 0, weight 1)
    uint32_t droppedInfluences =
        0;  // influences naming no joint of the skin (as the CPU reference skips them)
};

// Reads the mesh's bone indices and weights as the CPU reference (worldVertices) does: every
// BoneIndices/BoneWeights set, a slot past the stored weights of set 0 taking 1 minus the weights
// before it, batch-local indices resolved through the first bone batch whose triangles use the
// vertex, indices outside the skin's `jointCount` dropped. Slots naming the same joint are merged,
// zero weights get joint 0, and each vertex's weights are divided by their sum (glTF requires
// sums of 1), which changes nothing for weights that already sum to 1.
VertexInfluences mergeBoneBatches(const Mesh& mesh, uint32_t jointCount);

}  // namespace esv::gltf
