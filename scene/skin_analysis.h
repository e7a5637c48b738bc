// Skinning facts for the debugger: per-vertex weight problems, which vertices each joint moves,
// and what every bone batch costs in uniforms. Pure CPU, no GL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace esv {

// One vertex influenced by a joint, with the weight (sum over the vertex's slots naming that joint).
struct VertexInfluence {
    uint32_t vertex = 0;
    float weight = 0.0f;
};

// A vertex whose weights are suspect.
struct WeightIssue {
    int node = -1;         // mesh instance node
    uint32_t vertex = 0;
    float weightSum = 0.0f;
    int influences = 0;    // non-zero weights
    std::string what;      // "weights sum to 0.73", "negative weight -0.10", "bone index 9 outside batch of 8", ...
};

// One bone batch of one skinned mesh instance and its uniform cost. A skinned mesh without bone
// batches has one entry with batch = -1: the whole skin as one palette over all its triangles.
struct BatchBudget {
    int node = -1, mesh = -1, batch = -1;
    uint32_t bones = 0;
    uint32_t uniformVectors = 0;  // bones * vectorsPerBone
    uint32_t firstTriangle = 0, triangleCount = 0;
    bool overLimit = false;       // uniformVectors + reserved > the limit
};

struct SkinAnalysis {
    // One entry per problem (a vertex with two negative weights has two); at most kMaxIssues
    // listed; the counts below are complete.
    std::vector<WeightIssue> issues;
    static constexpr size_t kMaxIssues = 1000;
    size_t skinnedVertices = 0;
    size_t badSums = 0;           // vertices with |sum - 1| > tolerance (+ half a step per normalised integer weight)
    size_t negativeWeights = 0;   // weights < 0
    size_t badIndices = 0;        // influences (weight != 0) whose index is outside the batch palette / skin joints
    size_t maxInfluences = 0;     // largest count of non-zero weights on one vertex
    std::vector<BatchBudget> batches;
};

// Analyses every skinned mesh instance. `vectorsPerBone` is the palette layout (4 for mat4),
// `reservedVectors` the vertex uniforms the shader uses besides the palette, `vectorLimit`
// GL_MAX_VERTEX_UNIFORM_VECTORS as enforced. Weights are read as stored (normalised types mapped).
// Influences are read as the CPU skinning path (worldVertices) reads them: BoneIndices/BoneWeights
// set 0, one slot per index component (at most 4), a slot past the stored weights taking 1 minus
// the weights applied before it, zero weights ignored. A weight sum is over all non-zero slots.
SkinAnalysis analyzeSkinning(const Scene& scene, int vectorsPerBone, int reservedVectors, int vectorLimit,
                             float sumTolerance = 1e-3f);

// Vertices of mesh instance `node` that joint node `joint` moves, ascending by vertex, with
// weights > 0. Batch-local indices are resolved through the batch whose triangles use the vertex.
void jointInfluences(const Scene& scene, int node, int joint, std::vector<VertexInfluence>& out);

// One vertex's influences as the mesh stores them (BoneIndices and BoneWeights set 0), for the
// debugger's picked vertex.
struct StoredInfluences {
    int node = -1;        // mesh instance node
    uint32_t vertex = 0;  // in the mesh's vertex list
    std::vector<float> indices;  // every stored index component, in order (batch-local for batch-local meshes)
    std::vector<float> weights;  // every stored weight component, in order (normalised types mapped to 0..1)
    // Per stored index: the skin joint it names and that joint's node (-1 when it names none, as
    // the skinning path then ignores it).
    std::vector<int32_t> joints, jointNodes;
    // Bone batches whose triangles use the vertex, ascending; a batch-local index is read through
    // the first (the CPU and GPU paths' batch). Empty for a mesh without batches.
    std::vector<int32_t> batches;
};

// The stored influences of vertex `vertex` of skinned mesh instance `node`; false (out untouched)
// when the node is not a skinned mesh instance with BoneIndices and BoneWeights set 0, or the
// vertex is not in its streams.
bool storedInfluences(const Scene& scene, int node, uint32_t vertex, StoredInfluences& out);

// Where one joint sits in the bone batches: mesh instance `node`'s batch `batch` (-1: the mesh has
// no batches and the whole skin is its palette) holds the joint at palette index `palette`.
struct JointBatch {
    int node = -1, batch = -1, palette = -1;
};
// Every skinned mesh instance's batches whose palette holds joint node `joint`, in node then batch
// order (a joint named twice in one palette counts once, at its first index).
std::vector<JointBatch> jointBatches(const Scene& scene, int joint);

// The skinning debugger's hide and solo of bones: the joints whose influence is taken away.
struct BoneMask {
    std::vector<int32_t> muted;  // joint nodes whose weights are zeroed
    int32_t solo = -1;           // when >= 0: every joint node but this one is muted
    bool empty() const { return muted.empty() && solo < 0; }
};

// Rewrites the bone weights of every skinned mesh (each mesh through the skin of the first skinned
// node that draws it) so that the joints `mask` mutes move nothing, as skinning tools do for a bone
// that does not deform: a muted joint's weights become 0 and the vertex's other weights are scaled
// back to the sum they had, so it follows its other joints; a vertex no other joint moves has no
// weight left and is drawn as the renderer and the CPU path draw a vertex without weight, by its
// node's matrix (where the bind placed it). Influences are read as the CPU path reads them (every
// BoneIndices/BoneWeights set, a weight missing after set 0's stored ones taking what is left), and
// each set's weights are written as a new Float32 stream with one weight per index component (the
// old weight attribute is dropped from its stream; indices and the other attributes stay as they
// are). Returns the number of meshes rewritten.
size_t maskBoneWeights(Scene& scene, const BoneMask& mask);

}  // namespace esv
