// Bone-batch re-batching: splits a skinned mesh's triangles into batches whose bones fit a
// palette budget (one draw per batch, the batch's matrices in a uniform array). Used when a
// file's batches exceed what the context allows (ES2: 128 vertex uniform vectors) and for skinned
// meshes without batches (OpenGEX, AWD). Pure CPU, no GL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace esv {

struct RebatchReport {
    uint32_t batches = 0;
    uint32_t maxBones = 0;  // the largest batch made
    uint32_t verticesBefore = 0;
    uint32_t verticesAfter = 0;  // after duplicating vertices shared by several batches
};

// Bones one draw of `mesh` needs: its largest batch, or (without batches) the highest vertex bone
// index + 1. 0 for a mesh without bone indices and weights.
uint32_t bonesPerDraw(const Mesh& mesh);

// Rebuilds `mesh` into `out` with batches of at most `maxBones` bones: triangles in their order
// (strips, fans and quads expanded; submeshes kept as triangle lists), a batch closed when the next
// triangle's bones would overflow it, vertices copied per batch that uses them (every stream and
// morph target, bytes as stored), bone indices rewritten local to their batch in their stored
// type, new 16-bit (or 32-bit when needed) indices. Only influences with a weight above zero count.
// Returns false with `error` when one triangle alone needs more than `maxBones` bones or the bone
// index type cannot hold a local index.
bool rebatchMesh(const Mesh& mesh, uint32_t maxBones, Mesh& out, RebatchReport& report, std::string& error);

// Re-batches every mesh of `scene` whose draws need more than `maxBones` bones; one report line
// per mesh (a warning when it cannot, which leaves that mesh as it was).
void rebatchScene(Scene& scene, uint32_t maxBones);

}  // namespace esv
