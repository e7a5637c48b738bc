// A frame as a list of plain draw items (sokol_gfx's pipelines and bindings, filament's render
// primitives): the builder (draw_builder.cpp) turns each (node, submesh, bone batch) of a pass into a
// DrawItem, deciding everything the view asks for (program features, flat colours, edges, palettes);
// the executor (draw_executor.cpp) applies the items in order through the GL state cache and knows
// nothing of view modes. FrameStats counts from what the executor sent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "renderer/shader_program.h"

namespace esv::detail {

// One node of one pass: the vertex inputs its items share.
struct DrawNode {
    size_t node = 0;
    bool cpu = false;           // world-space vertices the CPU computed (morphs or palette over budget)
    bool gpuSkinned = false;    // the skin inputs are bound and palettes uploaded
    bool edges = false;         // the triangle items draw the edge list (GL_LINES) instead
    std::vector<int> morphs;    // morph targets active at this pose (attribute path), by index
    bool morphTexture = false;  // every target from the texture of deltas instead
    std::vector<glm::mat4> palette;  // the skin's whole palette at this pose (gpuSkinned)
};

// How an item's surface looks besides its program.
enum class DrawLook : uint8_t {
    Material,  // the material's uniforms and render state; `color` is the flat colour of the debug views
    Flat,      // one colour (`color`, blended below alpha 1), no depth writes
    Outline,   // Flat, as an inverted hull: front faces culled, pushed back in depth, u_outline set
    Count,     // the overdraw views: only the material's culling; depth and blending are the pass's
};

enum class DrawIndices : uint8_t { Triangles, Edges, Primitives };

enum class DrawKind : uint8_t {
    Range,     // one glDrawElements
    SkinDiff,  // the SkinDiff capture of the node; when it draws, the node's other items are skipped
};

struct DrawItem {
    DrawKind kind = DrawKind::Range;
    uint32_t drawNode = 0;  // DrawList::nodes index
    uint32_t submesh = 0;   // GpuMesh::submeshes index
    const MeshProgram* program = nullptr;
    ShaderFeatures features;
    // Bone batch whose palette the draw uploads (the whole skin when the mesh has no batches); -1
    // when the node is not GPU-skinned. `countsBatch`: a triangle range, counted in FrameStats.
    int32_t batch = -1;
    bool countsBatch = false;
    float weightBone = -1.0f;  // u_weightBone (Weights view): the selected joint's palette index
    float pointSize = 1.0f;    // u_pointSize, where the program has it (Points submeshes)
    DrawLook look = DrawLook::Material;
    glm::vec4 color{1.0f};
    // The index range: `count` indices of `indexType` from byte `offset` of the chosen list.
    DrawIndices indices = DrawIndices::Triangles;
    GLenum mode = GL_TRIANGLES;
    GLenum indexType = GL_UNSIGNED_SHORT;
    uint32_t count = 0;
    uintptr_t offset = 0;
    uint32_t triangles = 0, lines = 0, points = 0;  // what the draw covers, for FrameStats
};

// Items of one pass run with the pass's fill offset: on (factor 1, units 1) when the wireframe
// overlay follows, so the surfaces lose to the edges drawn at their true depth; off afterwards.
// How a pass of the overdraw views writes: depth only (the nearest opaque surface), or one count a
// fragment added into the count target, depth-tested equal (the nearest opaque layer once), in
// front of the opaque depth (blended and alpha-tested layers), or untested (every layer).
enum class PassWrites : uint8_t { Colour, DepthOnly, CountNearest, CountInFront, CountAll };

struct DrawPass {
    const char* name = "";
    size_t first = 0, end = 0;  // items [first, end)
    bool offsetFill = false;
    bool offsetOffAfter = false;
    PassWrites writes = PassWrites::Colour;
};

struct DrawList {
    std::vector<DrawNode> nodes;
    std::vector<DrawItem> items;
    std::vector<DrawPass> passes;

    void clear() {
        nodes.clear();
        items.clear();
        passes.clear();
    }
};

}  // namespace esv::detail
