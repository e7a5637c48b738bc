// What setScene uploads for one scene (sokol_gfx's resources, filament's renderables): per mesh its
// vertex streams as stored, index lists, edges, morph targets and vertex arrays; per scene texture
// its GL texture; the nodes drawn from CPU-computed vertices. The frame's draw list
// (renderer/draw_list.h) refers to these by index; nothing here changes while a frame is drawn
// except what is made on first use (edges, vertex arrays, CPU vertex buffers).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "renderer/gl_objects.h"
#include "renderer/textures.h"
#include "target/binding_plan.h"

namespace esv::detail {

struct GpuStream {
    gl::Buffer buffer;
    BindingPlan plan;
};

// A submesh's draw range after strip expansion: triangles [first, first + count) of the mesh's
// triangle list (or the stored list when the mesh has only triangle-list submeshes). Lines, line
// strips and points draw `elementCount` indices from `firstElement` of GpuMesh::primitives with
// `mode` GL_LINES or GL_POINTS instead.
struct GpuSubmesh {
    uint32_t firstTriangle = 0;
    uint32_t triangleCount = 0;
    uint32_t materialSlot = 0;
    GLenum mode = GL_TRIANGLES;
    uint32_t firstElement = 0, elementCount = 0;
    // Submesh::baseVertex: its indices are uploaded less this, and its vertex attributes point
    // this many vertices into their buffers (ES 2.0 has no glDrawElementsBaseVertex).
    uint32_t baseVertex = 0;
};

// One morph target's stream, uploaded as stored; indices of its position/normal bindings in `plan`.
struct GpuMorph {
    gl::Buffer buffer;
    BindingPlan plan;
    int position = -1;
    int normal = -1;
    bool relative = true;
    bool isBase = false;  // the mesh's own base arrays (OpenGEX): no delta, its weight scales the base
};

struct GpuMesh {
    std::vector<GpuStream> streams;
    std::vector<GpuMorph> morphs;
    bool morphBaseWeighted = false;  // Mesh::morphBaseWeighted
    bool morphNormals = false;  // every target carries normals and the mesh has normals
    gl::Buffer tangents;     // vec4 per vertex, made when a material normal-maps the mesh
    // ES3, more targets than the attribute path holds: every target's deltas in one float texture.
    gl::Texture morphDeltas;
    int morphRows = 0, morphWidth = 0;
    bool morphTextureNormals = false;
    gl::Buffer indices;      // triangle list indices (stored, or expanded from strips)
    GLenum indexType = 0;    // 0 = non-indexed triangle list
    uint32_t indexSize = 0;
    gl::Buffer edges;        // GL_LINES indices for wireframe, built on first use
    gl::VertexArray vao[2];  // attribute setup without and with skin inputs, made on first draw
    uint32_t edgeCount = 0;
    std::vector<uint32_t> triangleList;  // kept only to build edges lazily
    std::vector<GpuSubmesh> submeshes;
    uint32_t triangles = 0;
    bool windowed = false;  // some submesh has a baseVertex: attributes are re-pointed per submesh
    // Lines (segment pairs, strips expanded across restarts) then points, expanded once at upload.
    gl::Buffer primitives;
    GLenum primitiveType = GL_UNSIGNED_SHORT;
    uint32_t primitiveSize = 2;
    uint32_t lineSegments = 0, points = 0;
    bool hasNormal = false, hasColor = false, hasUv = false, hasSkin = false;
    // Texture coordinate set 1: the stream and binding that hold it (-1: none), pointed at
    // uv1Location for programs with ShaderFeatures::uv1Maps.
    int uv1Stream = -1;
    AttributeBinding uv1;
    int influences = 0;
};

// A node drawn from CPU-computed world positions (morphs, or a palette over the budget).
struct CpuNode {
    gl::Buffer positions;
    gl::Buffer normals;
    gl::VertexArray vao;
    bool normalsBound = false;
};

struct GpuScene {
    std::vector<GpuMesh> meshes;           // one per Scene::meshes entry
    std::vector<GpuTexture> textures;      // one per Scene::textures entry
    std::vector<bool> placeholder;         // per scene texture: the checker stands in for a missing file
    std::map<size_t, CpuNode> cpuNodes;    // nodes drawn from CPU-computed vertices, made on first use
    std::set<size_t> paletteOnCpu;         // skinned nodes whose palette exceeds the budget

    void clear() {
        meshes.clear();
        textures.clear();
        placeholder.clear();
        cpuNodes.clear();
        paletteOnCpu.clear();
    }
};

}  // namespace esv::detail
