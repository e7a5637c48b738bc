// The CPU reference path: decodes stored attributes, skins and morphs vertices, computes bounds.
// It is what the GPU path is tested against and what `info` reports bounds from.
#pragma once

#include <vector>

#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

struct Bounds {
    glm::vec3 min{1e30f};
    glm::vec3 max{-1e30f};
    bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
    void add(const glm::vec3& p) {
        min = glm::min(min, p);
        max = glm::max(max, p);
    }
    void add(const Bounds& b) {
        if (b.valid()) {
            add(b.min);
            add(b.max);
        }
    }
};

// Reads vertex `vertex` of `attribute` in `stream` as floats (normalised types mapped to [0,1] or
// [-1,1], swizzle applied, missing components filled with 0,0,0,1). Returns the logical component
// count. The stream must have been validated (the read is in range).
int readAttribute(const VertexStream& stream, const VertexAttribute& attribute, uint32_t vertex, float out[4]);

// Half a step of a normalised integer attribute type (0 for floats and unnormalised types): the
// rounding a stored value may carry. Weight-sum checks allow it per stored weight, so quantised
// weights summing to 254/255 pass.
float quantizationHalfStep(const VertexAttribute& attribute);

// Finds the first attribute with `semantic`/`set` among the mesh's streams; nullptr if absent.
const VertexAttribute* findAttribute(const Mesh& mesh, Semantic semantic, uint8_t set,
                                     const VertexStream** stream);

// The mesh's triangles as a list of vertex indices (3 per triangle): lists as stored, strips
// (POD lengths, restart indices, or one run), fans and quads expanded with their winding kept;
// points, lines, patches and NURBS contribute none. Indices include each submesh's baseVertex (so
// they name vertices of the mesh). `submeshStart`, when given, receives each submesh's first
// triangle. Bone batch triangle ranges index this list.
void expandTriangles(const Mesh& mesh, std::vector<uint32_t>& triangles, std::vector<uint32_t>* submeshStart = nullptr);

// The mesh's line segments as pairs of vertex indices: Lines as stored (a trailing odd index is
// dropped), LineStrip runs expanded to one segment per consecutive pair, split at restart indices
// (all ones of the index type, OpenGEX) as expandTriangles splits triangle strips; other
// primitives contribute none. `submeshStart`, when given, receives each submesh's first segment.
void expandLines(const Mesh& mesh, std::vector<uint32_t>& lines, std::vector<uint32_t>* submeshStart = nullptr);

// The vertex indices of the mesh's Points submeshes, in order; other primitives contribute none.
// `submeshStart`, when given, receives each submesh's first point.
void expandPoints(const Mesh& mesh, std::vector<uint32_t>& points, std::vector<uint32_t>* submeshStart = nullptr);

// Positions (and normals, when `normals` is non-null and the mesh has them) of mesh instance `node`
// in world space at `pose`: unpack matrix, morph targets, skinning (or the node's object world matrix).
// `tangents`, when non-null, receives unit world-space tangents (the file's or computed from UV set
// 0, see computeTangents; morph targets do not move them), or stays empty when there are none.
void worldVertices(const Scene& scene, const Pose& pose, int node, std::vector<glm::vec3>& positions,
                   std::vector<glm::vec3>* normals = nullptr, std::vector<glm::vec3>* tangents = nullptr);

// World-space box of every visible mesh instance at `pose`, after morphing and skinning: the
// vertices that triangle, line and point submeshes draw (patches and NURBS are not drawn).
// `perNode`, when non-null, receives each node's own box (invalid for nodes that draw nothing).
Bounds sceneBounds(const Scene& scene, const Pose& pose, std::vector<Bounds>* perNode = nullptr);

}  // namespace esv
