// Vertex windows: rewrites a mesh so that every index of every submesh fits 16 bits, for targets
// without 32-bit indices (ES 2.0 without GL_OES_element_index_uint). Elements (triangles, line
// segments, points) are taken in the order the expand functions list them and packed greedily
// into windows of at most `maxVertices` vertices; each window's vertices are contiguous in the
// output, each output submesh draws from one window with Submesh::baseVertex at its start, and a
// vertex used by several windows is copied into each. Triangle order is kept, so bone batch
// triangle ranges stay valid. Pure CPU, no GL.
#pragma once

#include <cstdint>
#include <string>

#include "scene/scene.h"

namespace esv {

struct VertexWindowSummary {
    uint32_t windows = 0;             // windows of the output (each submesh draws from one)
    uint32_t verticesBefore = 0;      // Mesh::vertexCount of the input
    uint32_t verticesAfter = 0;       // of the output: every vertex an element uses, copies included
    uint32_t duplicatedVertices = 0;  // output vertices beyond the first copy of each input vertex
    uint32_t submeshesBefore = 0, submeshesAfter = 0;
    bool adjacencyDropped = false;  // Mesh::adjacency named the old vertices and was not kept
};

struct VertexWindowResult {
    bool ok = false;
    std::string error;  // one sentence when !ok (the mesh is then left empty)
    Mesh mesh;
    VertexWindowSummary summary;
};

// The largest vertex index any submesh draws (with its baseVertex), or -1 when it draws none.
int64_t largestDrawnIndex(const Mesh& mesh);

// True when some submesh draws a vertex at or above `maxVertices`.
bool needsVertexWindows(const Mesh& mesh, uint32_t maxVertices = 65536);

// Splits `mesh` into windows of at most `maxVertices` (3..65536) vertices. The output's submeshes
// are triangle lists, line lists or point lists (strips, fans, quads and restarts expanded) with
// UInt16 indices local to their window; patches and NURBS, which are not drawn, keep their
// primitive with no indices. Streams, morph target streams and tangent frames are gathered into
// the new vertex order as stored; bone batches, materials slots and windings are kept.
//
// Fails on a maxVertices below 3 or above 65536, an index outside the vertices, or a stream or morph
// target holding fewer vertices than the mesh.
VertexWindowResult splitVertexWindows(const Mesh& mesh, uint32_t maxVertices = 65536);

}  // namespace esv
