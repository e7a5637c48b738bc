// Bone-batch re-batching with influence reduction: rewrites a skinned mesh so that every bone batch
// fits a palette budget (ES2 guarantees 128 vertex uniform vectors; a 4x3 palette entry costs 3)
// and every vertex has at most 4 influences (several BoneIndices/BoneWeights sets merged, the
// strongest kept, weights renormalised). Pure CPU, no GL; the output is an ordinary Mesh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "scene/scene.h"

namespace esv {

struct RebatchOptions {
    // Joints of the skin the mesh is drawn with; 0 = unknown. When known, an influence naming a
    // joint outside the skin is dropped (the reference path ignores it too), and a mesh without
    // batches whose skin fits the budget is left as it is.
    size_t skinJoints = 0;
    // A vertex's weights are renormalised when their sum differs from 1 by more than this (plus half
    // a step of the stored type per weight for normalised integer weights, so rounding is not counted).
    float weightTolerance = 1e-3f;
};

// What rebatchBones did. Vertex counts are of the mesh's vertex list; influence counts are of the
// vertices that triangles use (each counted once, before duplication).
struct RebatchSummary {
    bool changed = false;    // false: the mesh already fitted and was returned as it was
    uint32_t triangles = 0;  // drawn triangles, the same before and after
    uint32_t batchesBefore = 0, batchesAfter = 0;
    uint32_t largestBatch = 0;  // bones in the largest output batch
    uint32_t verticesBefore = 0, verticesAfter = 0;
    uint32_t duplicatedVertices = 0;  // output vertices beyond the first copy of each source vertex
    uint32_t droppedVertices = 0;     // source vertices no triangle uses (not written)
    uint32_t influencesReduced = 0;   // vertices with more than 4 non-zero influences, cut to the 4 strongest
    uint32_t weightsRenormalised = 0;  // vertices whose stored weights did not sum to 1
    uint32_t invalidInfluences = 0;    // non-zero influences naming no bone of their batch or skin, dropped
    bool adjacencyDropped = false;     // Mesh::adjacency referred to the old vertices and was not kept
};

struct RebatchResult {
    bool ok = false;
    std::string error;  // one sentence when !ok (the mesh is then left empty)
    Mesh mesh;
    RebatchSummary summary;
};

// The cheap check: true when `mesh` needs no rewrite for a palette of `maxBonesPerBatch` bones,
// i.e. it is not skinned (no BoneIndices/BoneWeights set 0), or it has one influence set and
// batch-local bone batches that each fit, or it has no batches and `skinJoints` (when non-zero)
// fits. Reads no vertex data.
bool fitsBoneBudget(const Mesh& mesh, uint32_t maxBonesPerBatch, size_t skinJoints = 0);

// Rewrites `mesh` so that every bone batch names at most `maxBonesPerBatch` bones (1..65536) and
// every vertex at most 4 influences. When fitsBoneBudget() holds, returns a copy of the mesh with
// summary.changed = false.
//
// Otherwise triangles are taken in the order expandTriangles() lists them (the order batch ranges
// count in: strips, fans and quads expanded, strip restarts honoured) and grouped greedily: a batch
// grows triangle by triangle and a new one starts when a triangle's bones would overflow it, so each
// batch is a contiguous triangle range (it may run across submesh boundaries; the renderer draws
// the intersections). Input bone indices are read as the CPU reference reads them (batch-local
// through the vertex's batch when Mesh::boneIndicesBatchLocal is set, skin joint indices otherwise).
// Each batch gets its own copy of the vertices it uses. The output has one Triangles submesh per
// input submesh (same material slot, winding flag; a submesh that drew nothing stays empty), indices
// UInt16 when the vertex count allows (else UInt32), streams repacked with every non-bone attribute
// as stored, and one influence set: bone indices (UInt8 for budgets up to 256, else UInt16, local to
// the batch) and Float32 weights, in the stream that held BoneIndices set 0. Influences of all sets
// are merged per joint; more than 4 keep the 4 strongest (by magnitude) renormalised to 1; weights
// that do not sum to 1 are renormalised. Morph target streams are remapped with the vertices.
// boneIndicesBatchLocal is set and maxBonesPerBatch becomes the budget.
//
// Fails (ok = false, error set) on: a budget of 0 or above 65536; a non-triangle submesh that draws
// something (points, lines, patches, NURBS); an index outside the vertices; a stream or morph target
// holding fewer vertices than the mesh; one triangle whose vertices need more bones than the budget
// (possible only below 12 bones).
RebatchResult rebatchBones(const Mesh& mesh, uint32_t maxBonesPerBatch, const RebatchOptions& options = {});

// Runs rebatchBones on every mesh that a skinned node draws, with the skin's joint count, and
// replaces the meshes it rewrites. Adds to scene.report: an info line per rewritten mesh, a warning
// when influences were reduced or weights renormalised, and a warning (mesh left as it was) per
// failure. Returns the number of meshes rewritten.
size_t rebatchSceneBones(Scene& scene, uint32_t maxBonesPerBatch);

}  // namespace esv
