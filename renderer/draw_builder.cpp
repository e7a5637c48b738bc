// The draw list's builder: every decision of a frame's passes (renderer/draw_list.h). The scene pass
// draws each visible mesh node in the view's mode, opaque nodes first and transparent ones back to
// front; the debug views are passes over the same nodes (the wireframe overlay's edges, the
// selection outline) or the modes the scene pass builds its items in (wireframe, batches, weights,
// UV, SkinDiff). Programs are linked here, on first use, as a pipeline is made before it is drawn.
#include <algorithm>

#include "renderer/gl_renderer_impl.h"
#include "scene/cpu_reference.h"

namespace esv::detail {
namespace {

// Flat passes over the scene, coloured apart from the heat ramp and from each other.
const glm::vec4 kEdgeColor(0.9f, 0.9f, 0.9f, 1.0f);  // wireframe overlay
// The selection outline: amber, apart from the missing-texture checker's magenta and grey and the
// skeleton's orange joints.
const glm::vec4 kAccentColor(1.0f, 0.75f, 0.0f, 1.0f);

}  // namespace

void GlRenderer::buildFrame(const Scene& scene, const Pose& pose, const ViewSettings& view, DrawList& list,
                            FrameStats& stats) {
    if (view.mode == ViewMode::Overdraw || view.mode == ViewMode::OverdrawAll) {
        buildOverdrawFrame(scene, pose, view, list, stats);
        return;
    }
    list.clear();
    // Opaque first, then transparent ones back to front.
    struct Later {
        size_t node;
        float depth;
    };
    std::vector<Later> transparent;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        if (!drawable(scene, pose, n)) continue;
        if (isTransparent(scene, scene.nodes[n])) {
            transparent.push_back({n, (m_view * pose.objectWorld[n][3]).z});
            continue;
        }
        buildNode(scene, pose, view, n, nullptr, list, stats);
    }
    std::sort(transparent.begin(), transparent.end(), [](const Later& a, const Later& b) { return a.depth < b.depth; });
    for (const Later& later : transparent) buildNode(scene, pose, view, later.node, nullptr, list, stats);
    // Lines cannot take a polygon offset (GLES has no GL_POLYGON_OFFSET_LINE): with the wireframe
    // overlay the filled surfaces are pushed back instead, so edges drawn later at their true depth win.
    const bool overlay = view.wireframeOverlay || view.mode == ViewMode::ShadedWire;
    list.passes.push_back({"scene", 0, list.items.size(), overlay, true});
    if (overlay) {
        const size_t first = list.items.size();
        const FlatPass edges{true, kEdgeColor};
        for (size_t n = 0; n < scene.nodes.size(); ++n)
            if (drawable(scene, pose, n)) buildNode(scene, pose, view, n, &edges, list, stats);
        list.passes.push_back({"edges", first, list.items.size(), false, false});
    }
    const int highlight = view.highlightNode;
    if (highlight >= 0 && size_t(highlight) < scene.nodes.size() && drawable(scene, pose, size_t(highlight))) {
        // One more draw per drawn range of the node, its surface left as it is: the outline.
        const size_t first = list.items.size();
        const FlatPass outline{false, kAccentColor, true};
        buildNode(scene, pose, view, size_t(highlight), &outline, list, stats);
        list.passes.push_back({"outline", first, list.items.size(), false, true});
    }
}

void GlRenderer::buildOverdrawFrame(const Scene& scene, const Pose& pose, const ViewSettings& view, DrawList& list,
                                    FrameStats& stats) {
    list.clear();
    auto pass = [&](const char* name, SubmeshFilter filter, PassWrites writes) {
        const size_t first = list.items.size();
        m_filter = filter;
        for (size_t n = 0; n < scene.nodes.size(); ++n)
            if (drawable(scene, pose, n)) buildNode(scene, pose, view, n, nullptr, list, stats);
        m_filter = SubmeshFilter::All;
        DrawPass p{name, first, list.items.size(), false, false};
        p.writes = writes;
        list.passes.push_back(p);
    };
    if (view.mode == ViewMode::OverdrawAll) {
        pass("every layer", SubmeshFilter::All, PassWrites::CountAll);
        return;
    }
    pass("opaque depth", SubmeshFilter::Opaque, PassWrites::DepthOnly);
    pass("nearest opaque layer", SubmeshFilter::Opaque, PassWrites::CountNearest);
    pass("blended and alpha-tested layers", SubmeshFilter::Layers, PassWrites::CountInFront);
}

void GlRenderer::buildNode(const Scene& scene, const Pose& pose, const ViewSettings& view, size_t n,
                           const FlatPass* flat, DrawList& list, FrameStats& stats) {
    const Node& node = scene.nodes[n];
    const GpuMesh& gpu = m_gpu.meshes[node.object];
    if ((gpu.triangles == 0 && gpu.lineSegments == 0 && gpu.points == 0) || gpu.streams.empty()) return;
    DrawNode d;
    d.node = n;
    activeMorphs(pose, n, gpu, d.morphs);
    d.morphTexture = useMorphTexture(gpu, d.morphs);
    const bool morphsOnCpu = !d.morphTexture && int(d.morphs.size()) > morphCapacity(gpu);
    if (morphsOnCpu && !m_dryRun && m_reported.insert(0x8000000000000000ull | n).second)
        stats.notes.push_back("node '" + node.name + "': " + std::to_string(d.morphs.size()) +
                              " morph targets active at once exceed the " + std::to_string(morphCapacity(gpu)) +
                              " the GPU path blends; blended on the CPU");
    d.cpu = morphsOnCpu || m_gpu.paletteOnCpu.count(n) > 0;
    if (!flat) {
        stats.cpuMorphedNodes += morphsOnCpu ? 1 : 0;
        stats.cpuSkinnedNodes += m_gpu.paletteOnCpu.count(n) ? 1 : 0;
        stats.morphTextureNodes += d.morphTexture ? 1 : 0;
    }
    d.gpuSkinned = !d.cpu && node.skin >= 0 && gpu.hasSkin;
    d.edges = flat ? flat->edges : view.mode == ViewMode::Wireframe;
    if (d.gpuSkinned) skinPalette(scene, pose, static_cast<int>(n), d.palette);
    const uint32_t index = uint32_t(list.nodes.size());
    list.nodes.push_back(std::move(d));
    // SkinDiff compares what it can capture and draws the rest (and what fails) in flat grey.
    const bool skinDiff = !flat && view.mode == ViewMode::SkinDiff;
    if (skinDiff && list.nodes[index].gpuSkinned) {
        DrawItem capture;
        capture.kind = DrawKind::SkinDiff;
        capture.drawNode = index;
        list.items.push_back(capture);
    }
    for (uint32_t s = 0; s < gpu.submeshes.size(); ++s) buildSubmesh(scene, view, index, s, flat, list, stats);
}

void GlRenderer::buildSubmesh(const Scene& scene, const ViewSettings& view, uint32_t index, uint32_t submesh,
                              const FlatPass* flat, DrawList& list, FrameStats& stats) {
    const DrawNode& d = list.nodes[index];
    const Node& node = scene.nodes[d.node];
    const Mesh& mesh = scene.meshes[node.object];
    const GpuMesh& gpu = m_gpu.meshes[node.object];
    const GpuSubmesh& s = gpu.submeshes[submesh];
    // Lines and points: the flat edge and outline passes draw them again in their colour (they
    // have no surface to ring; other flat passes are for surfaces); shaded and wireframe views
    // show them in the material's colours, lit when the mesh has normals.
    const bool primitive = s.mode != GL_TRIANGLES;
    if (primitive ? s.elementCount == 0 || (flat && !flat->edges && !flat->outline) : s.triangleCount == 0) return;
    // Flat passes are unlit and ignore the material's maps; SkinDiff shades what it does not
    // compare in flat grey.
    const bool skinDiff = !flat && view.mode == ViewMode::SkinDiff;
    const bool counting = view.mode == ViewMode::Overdraw || view.mode == ViewMode::OverdrawAll;
    const Material& material = materialOf(scene, node, s.materialSlot);
    if (counting) {
        // Surfaces only; the HSR passes split opaque surfaces from blended and alpha-tested ones.
        const bool layered = material.blend.enabled || material.opacity < 1.0f || material.alphaCutoff > 0.0f;
        if (primitive || (m_filter == SubmeshFilter::Opaque && layered) || (m_filter == SubmeshFilter::Layers && !layered))
            return;
    }
    ViewMode mode = flat ? ViewMode::Unlit : skinDiff ? ViewMode::Batches : view.mode;
    if (mode == ViewMode::ShadedWire) mode = ViewMode::Shaded;  // its edges are a pass of their own
    // An unlit material (glTF's KHR_materials_unlit) is its base colour, texture and vertex colours.
    if (mode == ViewMode::Shaded && material.model == ShadingModel::Unlit) mode = ViewMode::Unlit;
    if ((mode == ViewMode::Mip || mode == ViewMode::TexelDensity) && !m_caps.derivatives) {
        if (!m_dryRun && m_reported.insert(0x0800000000000000ull).second)
            stats.notes.push_back("the mip and texel-density views need screen-space derivatives (OpenGL ES 3.0 or "
                                  "GL_OES_standard_derivatives), which this context or device profile does not "
                                  "give: drawn unlit");
        mode = ViewMode::Unlit;
    }
    if (primitive && (mode == ViewMode::Shaded || mode == ViewMode::Wireframe))
        mode = gpu.hasNormal ? ViewMode::Shaded : ViewMode::Unlit;
    ShaderFeatures f =
        featuresFor(scene, node, gpu, mode, d.cpu, d.gpuSkinned, flat || counting ? nullptr : &material);
    f.points = s.mode == GL_POINTS;
    if (flat || counting) f.color = false;  // one colour, not modulated by vertex colours
    f.outline = flat && flat->outline && !primitive;
    if (!d.cpu && d.morphTexture) {
        f.morphTexture = true;
    } else if (!d.cpu) {
        f.morphTargets = int(d.morphs.size());
        f.morphNormals = f.morphTargets > 0 && gpu.morphNormals;
    }
    if (f.mode == ViewMode::Weights && !d.gpuSkinned) f.mode = ViewMode::Shaded;
    std::string error;
    const MeshProgram* p = programFor(f, error);
    if (!p) {
        if (!m_dryRun && m_reported.insert(f.key()).second) stats.notes.push_back(error);
        return;
    }
    DrawItem item;
    item.drawNode = index;
    item.submesh = submesh;
    item.program = p;
    item.features = f;
    item.pointSize = std::max(view.pointSize, 1.0f);
    item.look = counting ? DrawLook::Count
                : flat   ? (flat->outline && !primitive ? DrawLook::Outline : DrawLook::Flat)
                         : DrawLook::Material;
    const bool weights = d.gpuSkinned && f.mode == ViewMode::Weights;
    if (primitive) {
        // Meshes with bone batches have no line or point ranges: the whole palette.
        item.batch = d.gpuSkinned ? 0 : -1;
        if (weights) item.weightBone = weightBoneLocal(scene, node, mesh, 0, view.weightBone);
        item.color = flat ? flat->color : glm::vec4(batchColor(3), 1.0f);
        item.indices = DrawIndices::Primitives;
        item.mode = s.mode;
        item.indexType = gpu.primitiveType;
        item.count = s.elementCount;
        item.offset = uintptr_t(s.firstElement) * gpu.primitiveSize;
        if (s.mode == GL_POINTS) {
            item.points = s.elementCount;
        } else {
            item.lines = s.elementCount / 2;
        }
        list.items.push_back(item);
        return;
    }
    // Bone batches split the triangle list; a mesh without batches is one range.
    const size_t batches = d.gpuSkinned && !mesh.boneBatches.empty() ? mesh.boneBatches.size() : 1;
    for (size_t b = 0; b < batches; ++b) {
        uint32_t first = 0, count = gpu.triangles;
        if (d.gpuSkinned && !mesh.boneBatches.empty()) {
            const BoneBatch& batch = mesh.boneBatches[b];
            first = batch.firstTriangle;
            count = std::min(batch.triangleCount, gpu.triangles - std::min(first, gpu.triangles));
        }
        const uint32_t lo = std::max(first, s.firstTriangle);
        const uint32_t hi = std::min(first + count, s.firstTriangle + s.triangleCount);
        if (lo >= hi) continue;
        DrawItem range = item;
        range.batch = d.gpuSkinned ? int32_t(b) : -1;
        range.countsBatch = d.gpuSkinned;
        if (weights) range.weightBone = weightBoneLocal(scene, node, mesh, b, view.weightBone);
        if (flat) {
            range.color = flat->color;
        } else {
            const glm::vec3 c = skinDiff ? kSkinDiffGrey : view.mode == ViewMode::Batches ? batchColor(b) : batchColor(b + 3);
            range.color = glm::vec4(c, 1.0f);
        }
        if (d.edges) {
            const GLenum type = gpu.indexType == GL_UNSIGNED_INT ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
            range.indices = DrawIndices::Edges;
            range.mode = GL_LINES;
            range.indexType = type;
            range.count = (hi - lo) * 6;
            range.offset = uintptr_t(lo) * 6 * (type == GL_UNSIGNED_INT ? 4 : 2);
        } else {
            range.indices = DrawIndices::Triangles;
            range.mode = GL_TRIANGLES;
            range.indexType = gpu.indexType;
            range.count = (hi - lo) * 3;
            range.offset = uintptr_t(lo) * 3 * gpu.indexSize;
        }
        range.triangles = hi - lo;
        list.items.push_back(range);
    }
}

}  // namespace esv::detail
