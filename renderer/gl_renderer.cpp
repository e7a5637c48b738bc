// The GLES renderer: uploads a validated scene as stored and draws one call per
// (mesh node, submesh, bone batch). See renderer.h for the contract.
#include <algorithm>
#include <cstddef>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "renderer/binding_plan.h"
#include "renderer/gl_calls.h"
#include "renderer/gl_objects.h"
#include "renderer/gl_state.h"
#include "renderer/renderer.h"
#include "renderer/shader_program.h"
#include "renderer/textures.h"
#include "scene/cpu_reference.h"
#include "scene/skin_analysis.h"

namespace esv {
namespace {

// Uniform vectors the mesh program needs besides the palette: matrices, material, 4 lights.
constexpr int kReservedVertexVectors = 16;
constexpr int kVectorsPerBone = 4;  // palette entries are mat4 (u_bones in mesh.vert)
constexpr int kMaxLights = 4;
// Timer queries in flight: results are read a few frames late so reading never waits on the GPU.
constexpr int kTimerQueries = 4;

struct Caps {
    bool es3 = false;
    bool vao = false;
    bool uintIndices = false;
    bool timer = false;  // GL_EXT_disjoint_timer_query
    int maxVertexUniformVectors = 128;
    int maxVertexAttribs = 8;
};

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
    // Lines (segment pairs, strips expanded across restarts) then points, expanded once at upload.
    gl::Buffer primitives;
    GLenum primitiveType = GL_UNSIGNED_SHORT;
    uint32_t primitiveSize = 2;
    uint32_t lineSegments = 0, points = 0;
    bool hasNormal = false, hasColor = false, hasUv = false, hasSkin = false;
    int influences = 0;
};

// A node drawn from CPU-computed world positions (morphs, or a palette over the budget).
struct CpuNode {
    gl::Buffer positions;
    gl::Buffer normals;
    gl::VertexArray vao;
    bool normalsBound = false;
};

// A light as the shader takes it, with what is needed to rank it for a draw.
struct LightSlot {
    glm::vec4 position{0.0f};     // w = 0: direction of travel; w = 1: position
    glm::vec4 color{0.0f};        // rgb, w: spot falloff exponent
    glm::vec4 attenuation{1, 0, 0, 0};  // constant, linear, quadratic, offset
    glm::vec4 range{0, 0, -2, 0};       // see u_lightRange in mesh.frag
    glm::vec4 spot{0, 0, -1, -2};
    float luminance = 0.0f;
    TextureRef projection;  // the projected spot's image (texture -1: none)

    // Irradiance estimate at `p` used to pick the strongest lights of a draw.
    float strengthAt(const glm::vec3& p) const {
        if (position.w == 0.0f) return luminance;
        const float d = glm::length(glm::vec3(position) - p);
        return luminance / std::max(attenuation.x + attenuation.y * d + attenuation.z * d * d, 1e-6f);
    }
};

bool checkGl(const char* where, uint32_t& errors) {
#ifdef ESVIEW_GL_CHECKS
    bool ok = true;
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        std::fprintf(stderr, "esview: GL error 0x%04X after %s\n", e, where);
        ++errors;
        ok = false;
    }
    return ok;
#else
    (void)where;
    (void)errors;
    return true;
#endif
}

const glm::vec3 kBatchColors[] = {{0.9f, 0.3f, 0.25f}, {0.25f, 0.75f, 0.35f}, {0.25f, 0.45f, 0.95f},
                                  {0.95f, 0.8f, 0.2f},  {0.75f, 0.35f, 0.9f},  {0.2f, 0.85f, 0.85f},
                                  {0.95f, 0.55f, 0.15f}, {0.6f, 0.6f, 0.6f}};

// Debug overlay colours, chosen apart from the heat ramp and from each other.
const glm::vec4 kEdgeColor(0.9f, 0.9f, 0.9f, 1.0f);         // wireframe overlay
const glm::vec4 kAccentColor(1.0f, 0.2f, 0.85f, 1.0f);      // selection edges (magenta)
const glm::vec4 kAccentTint(1.0f, 0.2f, 0.85f, 0.25f);      // selection tint, blended
const glm::vec4 kBoneColor(1.0f, 0.85f, 0.2f, 1.0f);        // skeleton lines
const glm::vec4 kJointColor(1.0f, 0.35f, 0.1f, 1.0f);       // skeleton joints
const glm::vec4 kBindBoneColor(0.1f, 0.8f, 0.75f, 1.0f);    // bind-pose skeleton lines (cyan)
const glm::vec4 kBindJointColor(0.1f, 0.6f, 0.95f, 1.0f);   // bind-pose skeleton joints
const glm::vec4 kAxisColors[3] = {{1.0f, 0.1f, 0.1f, 1.0f}, {0.1f, 1.0f, 0.1f, 1.0f}, {0.15f, 0.3f, 1.0f, 1.0f}};
const glm::vec3 kSkinDiffGrey(0.6f);  // SkinDiff: what is not compared

// The Weights mode's ramp (mesh.frag): blue at 0, green at 0.5, red at 1.
glm::vec3 heatColor(float w) {
    w = std::min(std::max(w, 0.0f), 1.0f);
    return glm::clamp(glm::vec3(2.0f * w - 0.5f, 1.0f - std::abs(2.0f * w - 1.0f), 1.5f - 2.0f * w), 0.0f, 1.0f);
}

// A redraw of a node in one flat colour over the shaded scene (overlays), instead of its view mode.
struct FlatPass {
    bool edges = false;  // every triangle edge as GL_LINES; else the triangles, blended by colour.a
    glm::vec4 color{1.0f};
};

// Every joint: the skins' joints and Bone nodes.
std::vector<uint8_t> jointNodes(const Scene& scene) {
    std::vector<uint8_t> joint(scene.nodes.size(), 0);
    for (const Skin& skin : scene.skins)
        for (int32_t j : skin.joints)
            if (j >= 0 && size_t(j) < joint.size()) joint[j] = 1;
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].kind == NodeKind::Bone) joint[n] = 1;
    return joint;
}

class GlRenderer final : public Renderer {
public:
    GlRenderer(const RendererOptions& options, const Caps& caps)
        : m_options(options),
          m_caps(caps),
          m_programs(caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100, caps.maxVertexAttribs),
          m_textureSupport(detectTextureSupport(caps.es3)) {
        m_state.configure(m_caps.vao, attributeLimit());
    }

    bool setScene(const Scene& scene, std::vector<ReportLine>& report, std::string& error) override {
        m_meshes.clear();
        m_cpuNodes.clear();
        m_paletteOnCpu.clear();
        m_reported.clear();
        // Their vertex arrays are gone (names may come back): uploads go to the context's state.
        m_state.forgetObjects();
        m_state.resetContextState();
        m_state.bindVertexArray(0);
        m_meshes.resize(scene.meshes.size());
        VertexCaps vcaps;
        vcaps.es3 = m_caps.es3;
        for (size_t i = 0; i < scene.meshes.size(); ++i)
            if (!uploadMesh(scene.meshes[i], m_meshes[i], vcaps, report, error)) return false;
        m_paletteCapacity = std::min(paletteCapacity(m_caps.maxVertexUniformVectors, kReservedVertexVectors), 256);
        for (size_t n = 0; n < scene.nodes.size(); ++n) {
            const Node& node = scene.nodes[n];
            if (node.kind != NodeKind::Mesh || node.object < 0) continue;
            const Mesh& mesh = scene.meshes[node.object];
            if (node.skin >= 0 && m_meshes[node.object].hasSkin) {
                size_t needed = mesh.boneBatches.empty() ? scene.skins[node.skin].joints.size() : mesh.maxBonesPerBatch;
                for (const BoneBatch& b : mesh.boneBatches) needed = std::max(needed, b.bones.size());
                if (needed > size_t(m_paletteCapacity)) {
                    m_paletteOnCpu.insert(n);
                    report.push_back({Severity::Warning, "node '" + node.name + "': " + std::to_string(needed) +
                                                             " bones per batch exceed the palette of " +
                                                             std::to_string(m_paletteCapacity) +
                                                             " matrices; skinned on the CPU"});
                }
            }
        }
        m_morphSlots = std::max(0, std::min(m_caps.maxVertexAttribs - int(kLocMorphBase), 2 * kMaxGpuMorphTargets));
        uploadTextures(scene, report);
        // One projection texture per frame: it takes a sampler and a matrix in every lit program.
        std::vector<std::string> projected;
        for (const Light& light : scene.lights)
            if (projectable(light)) projected.push_back(light.name);
        if (projected.size() > 1) {
            std::string names;
            for (const std::string& name : projected) names += (names.empty() ? "'" : ", '") + name + "'";
            report.push_back({Severity::Warning, std::to_string(projected.size()) +
                                                     " spot lights have projection textures (" + names +
                                                     "); only the first enabled one in node order is "
                                                     "projected, the others light unfiltered"});
        }
        // Tangent frames the preparation stage made for meshes some material normal-maps.
        for (size_t i = 0; i < scene.meshes.size(); ++i) {
            const Mesh& mesh = scene.meshes[i];
            GpuMesh& gpu = m_meshes[i];
            if (!mesh.tangentFrames || mesh.tangentFrames->size() != mesh.vertexCount || !gpu.hasNormal || !gpu.hasUv)
                continue;
            gpu.tangents = gl::makeBuffer();
            m_state.bindArrayBuffer(gpu.tangents.get());
            glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(mesh.tangentFrames->size() * sizeof(glm::vec4)),
                         mesh.tangentFrames->data(), GL_STATIC_DRAW);
        }
        // Texture uploads bound textures behind the cache's back.
        m_state.resetContextState();
        uint32_t errors = 0;
        if (!checkGl("scene upload", errors)) {
            error = "GL errors while uploading the scene";
            return false;
        }
        return true;
    }

    RendererInfo info() const override {
        RendererInfo i;
        i.es3 = m_caps.es3;
        i.vertexArrays = m_caps.vao;
        i.uintIndices = m_caps.uintIndices;
        i.maxVertexUniformVectors = m_caps.maxVertexUniformVectors;
        i.maxVertexAttribs = m_caps.maxVertexAttribs;
        i.paletteCapacity = std::min(paletteCapacity(m_caps.maxVertexUniformVectors, kReservedVertexVectors), 256);
        i.vectorsPerBone = kVectorsPerBone;
        i.reservedVertexVectors = kReservedVertexVectors;
        i.gpuTimer = m_caps.timer;
        i.compressedFormats = m_textureSupport.native;
        i.npotTextures = m_textureSupport.npot;
        i.maxTextureSize = m_textureSupport.maxSize;
        i.textureBytes = 0;
        for (const GpuTexture& t : m_textures) i.textureBytes += t.gpuBytes;
        return i;
    }

    unsigned textureObject(int index) const override {
        return index >= 0 && size_t(index) < m_textures.size() ? m_textures[index].texture.get() : 0u;
    }

    void prepareFrame(const Scene& scene, const Pose& pose, const ViewSettings& view) override {
        FrameStats ignored;
        m_dryRun = true;
        m_state.resetContextState();
        for (size_t n = 0; n < scene.nodes.size(); ++n)
            if (drawable(scene, pose, n)) drawNode(scene, pose, view, n, ignored);
        if (view.wireframeOverlay) {
            const FlatPass edges{true, kEdgeColor};
            for (size_t n = 0; n < scene.nodes.size(); ++n)
                if (drawable(scene, pose, n)) drawNode(scene, pose, view, n, ignored, &edges);
        }
        m_dryRun = false;
        if (m_caps.vao) m_state.bindVertexArray(0);
        m_state.disableContextAttributes();
    }

    FrameStats draw(const Scene& scene, const Pose& pose, const ViewSettings& view, int width, int height) override {
        FrameStats stats;
        const uint64_t callsBefore = gl::callCount();
        // The host and the panel changed the context's state since the last frame.
        m_state.resetContextState();
        glViewport(0, 0, width, height);
        const glm::vec4 clear = view.useSceneClearColor ? glm::vec4(scene.clearColor, 1.0f) : view.clearColor;
        glClearColor(clear.r, clear.g, clear.b, clear.a);
        glClearDepthf(1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        // Timed from after the clear: llvmpipe returns a timestamp, not a duration, for a query begun
        // before the context has drawn anything (and a clear is close to free on tile-based GPUs).
        beginGpuTimer();
        m_state.enable(GL_DEPTH_TEST, true);
        m_state.depthFunc(GL_LEQUAL);
        m_state.depthMask(true);
        m_state.enable(GL_BLEND, false);

        cameraMatrices(scene, pose, view, width, height, m_view, m_projection);
        m_eye = glm::vec3(glm::inverse(m_view)[3]);
        m_forceTwoSided = view.forceTwoSided;
        collectLights(scene, pose, view);
        if (view.mode == ViewMode::SkinDiff) {
            const Bounds bounds = sceneBounds(scene, pose);
            const float diagonal = bounds.valid() ? glm::length(bounds.max - bounds.min) : 0.0f;
            m_skinDiffRange = view.skinDiffRange > 0.0f ? view.skinDiffRange : std::max(1e-3f * diagonal, 1e-12f);
        }
        const int highlight = view.highlightNode >= 0 && size_t(view.highlightNode) < scene.nodes.size() ? view.highlightNode : -1;
        const bool highlightMesh = highlight >= 0 && drawable(scene, pose, size_t(highlight));
        // Lines cannot take a polygon offset (GLES has no GL_POLYGON_OFFSET_LINE): the filled
        // surfaces are pushed back instead, so edges drawn later at their true depth win.
        const bool edgeOverlay = view.wireframeOverlay || highlightMesh;
        if (edgeOverlay) {
            m_state.enable(GL_POLYGON_OFFSET_FILL, true);
            m_state.polygonOffset(1.0f, 1.0f);
        }

        // Opaque first, then transparent ones back to front.
        struct Item {
            size_t node;
            float depth;
        };
        std::vector<Item> transparent;
        for (size_t n = 0; n < scene.nodes.size(); ++n) {
            if (!drawable(scene, pose, n)) continue;
            if (isTransparent(scene, scene.nodes[n])) {
                glm::vec4 c = m_view * pose.objectWorld[n][3];
                transparent.push_back({n, c.z});
                continue;
            }
            drawNode(scene, pose, view, n, stats);
        }
        std::sort(transparent.begin(), transparent.end(), [](const Item& a, const Item& b) { return a.depth < b.depth; });
        for (const Item& item : transparent) drawNode(scene, pose, view, item.node, stats);
        m_state.enable(GL_POLYGON_OFFSET_FILL, false);
        if (view.wireframeOverlay) {
            const FlatPass edges{true, kEdgeColor};
            for (size_t n = 0; n < scene.nodes.size(); ++n)
                if (drawable(scene, pose, n)) drawNode(scene, pose, view, n, stats, &edges);
        }
        if (highlightMesh) {
            // A light tint over the node's visible surface, then its edges in the accent colour.
            const FlatPass tint{false, kAccentTint}, edges{true, kAccentColor};
            drawNode(scene, pose, view, size_t(highlight), stats, &tint);
            drawNode(scene, pose, view, size_t(highlight), stats, &edges);
        }
        if (view.showSkeleton || view.showNormalLines || view.showTangentLines || view.showJointAxes ||
            view.showBindPose || highlight >= 0 || view.influenceJoint >= 0)
            drawOverlay(scene, pose, view, stats);
        m_state.enable(GL_BLEND, false);
        m_state.depthMask(true);
        // What is bound stays ours: no vertex array of ours is left bound for others to change,
        // and without vertex arrays no attribute array of ours is left enabled.
        if (m_caps.vao) m_state.bindVertexArray(0);
        m_state.disableContextAttributes();
        endGpuTimer();
        stats.gpuMs = m_gpuMs;
        checkGl("frame end", stats.glErrors);
        stats.glCalls = uint32_t(gl::callCount() - callsBefore);
        return stats;
    }

private:
    bool uploadMesh(const Mesh& mesh, GpuMesh& gpu, const VertexCaps& vcaps, std::vector<ReportLine>& report,
                    std::string& error) {
        for (const VertexStream& stream : mesh.streams) {
            GpuStream gs;
            gs.plan = planBindings(stream, vcaps);
            const VertexStream* source = &stream;
            VertexStream converted;
            if (gs.plan.needsConversion) {
                // One named pass, reported: the GPU cannot read the stored type (or its alignment).
                converted = convertToFloat(stream);
                gs.plan = planBindings(converted, vcaps);
                source = &converted;
                report.push_back({Severity::Warning, "mesh '" + mesh.name + "': a vertex stream was converted to float32 "
                                                     "once because this context cannot read its stored types or alignment"});
            }
            gs.buffer = gl::makeBuffer();
            m_state.bindArrayBuffer(gs.buffer.get());
            glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(size_t(source->stride) * source->count),
                         source->bytes.data, GL_STATIC_DRAW);
            for (const AttributeBinding& b : gs.plan.attributes) {
                if (b.semantic == Semantic::Normal && b.set == 0) gpu.hasNormal = true;
                if (b.semantic == Semantic::Color && b.set == 0) gpu.hasColor = true;
                if (b.semantic == Semantic::TexCoord && b.set == 0) gpu.hasUv = true;
                if (b.semantic == Semantic::BoneIndices) gpu.influences = std::max(gpu.influences, b.size);
            }
            gpu.streams.push_back(std::move(gs));
        }
        gpu.morphNormals = gpu.hasNormal && !mesh.morphTargets.empty();
        gpu.morphBaseWeighted = mesh.morphBaseWeighted;
        for (const MorphTarget& target : mesh.morphTargets) {
            GpuMorph gm;
            gm.relative = target.relative;
            gm.isBase = target.isBase;
            gm.plan = planBindings(target.stream, vcaps);
            VertexStream converted;
            const VertexStream* source = &target.stream;
            if (gm.plan.needsConversion) {
                converted = convertToFloat(target.stream);
                gm.plan = planBindings(converted, vcaps);
                source = &converted;
                report.push_back({Severity::Warning, "mesh '" + mesh.name + "': morph target '" + target.name +
                                                         "' was converted to float32 once for this context"});
            }
            for (size_t a = 0; a < gm.plan.attributes.size(); ++a) {
                if (gm.plan.attributes[a].semantic == Semantic::Position && gm.position < 0) gm.position = int(a);
                if (gm.plan.attributes[a].semantic == Semantic::Normal && gm.normal < 0) gm.normal = int(a);
            }
            gpu.morphNormals &= gm.normal >= 0;
            gm.buffer = gl::makeBuffer();
            m_state.bindArrayBuffer(gm.buffer.get());
            glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(size_t(source->stride) * source->count),
                         source->bytes.data, GL_STATIC_DRAW);
            gpu.morphs.push_back(std::move(gm));
        }
        if (m_caps.es3 && mesh.morphTargets.size() > size_t(kMaxGpuMorphTargets) &&
            mesh.morphTargets.size() <= size_t(kMaxTextureMorphTargets))
            uploadMorphTexture(mesh, gpu, report);
        const VertexAttribute* weights = findAttribute(mesh, Semantic::BoneWeights, 0, nullptr);
        gpu.hasSkin = gpu.influences > 0 && weights;
        if (gpu.hasSkin) gpu.influences = std::min({gpu.influences, int(weights->components), 4});

        // Triangle list: the stored indices when every submesh is a list, else expanded once.
        bool allLists = true;
        for (const Submesh& s : mesh.submeshes) allLists &= s.primitive == Primitive::Triangles;
        std::vector<uint32_t> expanded, starts;
        expandTriangles(mesh, expanded, &starts);
        const uint32_t triangle = static_cast<uint32_t>(expanded.size() / 3);
        for (size_t i = 0; i < mesh.submeshes.size(); ++i) {
            GpuSubmesh g;
            g.firstTriangle = starts[i];
            g.triangleCount = (i + 1 < starts.size() ? starts[i + 1] : triangle) - starts[i];
            g.materialSlot = mesh.submeshes[i].materialSlot;
            gpu.submeshes.push_back(g);
        }
        gpu.triangles = triangle;
        gpu.triangleList = expanded;
        if (!uploadPrimitives(mesh, gpu, report, error)) return false;

        uint32_t maxIndex = 0;
        for (uint32_t v : expanded) maxIndex = std::max(maxIndex, v);
        const bool needUint = maxIndex > 0xFFFF;
        if (needUint && !m_caps.uintIndices) {
            error = "mesh '" + mesh.name + "' needs 32-bit indices, which this context lacks (OES_element_index_uint)";
            return false;
        }
        gpu.indices = gl::makeBuffer();
        m_state.bindElementBuffer(gpu.indices.get());
        if (allLists && mesh.indices.count > 0 &&
            (mesh.indices.type != ComponentType::UInt32 || m_caps.uintIndices)) {
            // Stored as the file has it: one upload, no conversion.
            const GLenum types[] = {GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_UNSIGNED_INT};
            const int t = mesh.indices.type == ComponentType::UInt8 ? 0 : mesh.indices.type == ComponentType::UInt16 ? 1 : 2;
            gpu.indexType = types[t];
            gpu.indexSize = t == 0 ? 1 : t == 1 ? 2 : 4;
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(size_t(mesh.indices.count) * gpu.indexSize),
                         mesh.indices.bytes.data, GL_STATIC_DRAW);
        } else if (needUint) {
            gpu.indexType = GL_UNSIGNED_INT;
            gpu.indexSize = 4;
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(expanded.size() * 4), expanded.data(),
                         GL_STATIC_DRAW);
        } else {
            std::vector<uint16_t> shorts(expanded.begin(), expanded.end());
            gpu.indexType = GL_UNSIGNED_SHORT;
            gpu.indexSize = 2;
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(shorts.size() * 2), shorts.data(), GL_STATIC_DRAW);
            if (!allLists)
                report.push_back({Severity::Info, "mesh '" + mesh.name + "': strips expanded to a triangle list once for drawing"});
        }
        return true;
    }

    // Lines, line strips and points: one index list of GL_LINES pairs then GL_POINTS indices,
    // expanded once (strip restarts honoured as for triangle strips), and each such submesh's range.
    bool uploadPrimitives(const Mesh& mesh, GpuMesh& gpu, std::vector<ReportLine>& report, std::string& error) {
        std::vector<uint32_t> lines, lineStarts, points, pointStarts;
        expandLines(mesh, lines, &lineStarts);
        expandPoints(mesh, points, &pointStarts);
        if (lines.empty() && points.empty()) return true;
        if (!mesh.boneBatches.empty()) {
            // Bone batches are triangle ranges: no palette is known to fit a line or point vertex.
            report.push_back({Severity::Warning, "mesh '" + mesh.name + "': its lines and points are not drawn (bone batches cover triangles only)"});
            return true;
        }
        const size_t segments = lines.size() / 2;
        for (size_t i = 0; i < mesh.submeshes.size() && i < gpu.submeshes.size(); ++i) {
            GpuSubmesh& g = gpu.submeshes[i];
            const Primitive primitive = mesh.submeshes[i].primitive;
            if (primitive == Primitive::Lines || primitive == Primitive::LineStrip) {
                const size_t end = i + 1 < lineStarts.size() ? lineStarts[i + 1] : segments;
                g.mode = GL_LINES;
                g.firstElement = lineStarts[i] * 2;
                g.elementCount = uint32_t((end - lineStarts[i]) * 2);
            } else if (primitive == Primitive::Points) {
                const size_t end = i + 1 < pointStarts.size() ? pointStarts[i + 1] : points.size();
                g.mode = GL_POINTS;
                g.firstElement = uint32_t(lines.size() + pointStarts[i]);
                g.elementCount = uint32_t(end - pointStarts[i]);
            }
        }
        lines.insert(lines.end(), points.begin(), points.end());
        uint32_t maxIndex = 0;
        for (uint32_t v : lines) maxIndex = std::max(maxIndex, v);
        gpu.primitives = gl::makeBuffer();
        m_state.bindElementBuffer(gpu.primitives.get());
        if (maxIndex > 0xFFFF) {
            if (!m_caps.uintIndices) {
                error = "mesh '" + mesh.name + "' needs 32-bit indices, which this context lacks (OES_element_index_uint)";
                return false;
            }
            gpu.primitiveType = GL_UNSIGNED_INT;
            gpu.primitiveSize = 4;
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(lines.size() * 4), lines.data(), GL_STATIC_DRAW);
        } else {
            std::vector<uint16_t> shorts(lines.begin(), lines.end());
            gpu.primitiveType = GL_UNSIGNED_SHORT;
            gpu.primitiveSize = 2;
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(shorts.size() * 2), shorts.data(), GL_STATIC_DRAW);
        }
        gpu.lineSegments = uint32_t(segments);
        gpu.points = uint32_t(points.size());
        report.push_back({Severity::Info, "mesh '" + mesh.name + "': " + std::to_string(segments) + " line segments and " +
                                              std::to_string(points.size()) + " points expanded once for drawing"});
        return true;
    }

    // Every target's position (and normal) deltas in stored space, one RGBA32F texel per vertex.
    void uploadMorphTexture(const Mesh& mesh, GpuMesh& gpu, std::vector<ReportLine>& report) {
        const uint32_t count = mesh.vertexCount;
        if (count == 0) return;
        GLint maxSize = 2048;
        glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
        const int width = int(std::min<uint32_t>(count, uint32_t(std::min(maxSize, 4096))));
        const int rows = int((count + uint32_t(width) - 1) / uint32_t(width));
        const VertexStream *baseP = nullptr, *baseN = nullptr;
        const VertexAttribute* bp = findAttribute(mesh, Semantic::Position, 0, &baseP);
        const VertexAttribute* bn = findAttribute(mesh, Semantic::Normal, 0, &baseN);
        bool normals = bn != nullptr;
        for (const MorphTarget& t : mesh.morphTargets) {
            bool has = false;
            for (const VertexAttribute& a : t.stream.attributes) has |= a.semantic == Semantic::Normal;
            normals &= has;
        }
        const int targets = int(mesh.morphTargets.size());
        const int height = rows * targets * (normals ? 2 : 1);
        if (!bp || height > maxSize) return;
        std::vector<float> texels(size_t(width) * size_t(height) * 4, 0.0f);
        for (int t = 0; t < targets; ++t) {
            const MorphTarget& target = mesh.morphTargets[t];
            const VertexAttribute *tp = nullptr, *tn = nullptr;
            for (const VertexAttribute& a : target.stream.attributes) {
                if (a.semantic == Semantic::Position && !tp) tp = &a;
                if (a.semantic == Semantic::Normal && !tn) tn = &a;
            }
            for (uint32_t v = 0; v < count && v < target.stream.count; ++v) {
                float value[4], base[4];
                for (int kind = 0; kind < (normals ? 2 : 1); ++kind) {
                    const VertexAttribute* a = kind == 0 ? tp : tn;
                    if (!a) continue;
                    readAttribute(target.stream, *a, v, value);
                    if (!target.relative) {
                        readAttribute(kind == 0 ? *baseP : *baseN, kind == 0 ? *bp : *bn, v, base);
                        for (int c = 0; c < 3; ++c) value[c] -= base[c];
                    }
                    const size_t row = size_t(kind) * size_t(rows) * targets + size_t(t) * rows + v / uint32_t(width);
                    float* texel = &texels[(row * size_t(width) + v % uint32_t(width)) * 4];
                    for (int c = 0; c < 3; ++c) texel[c] = value[c];
                }
            }
        }
        GLuint name = 0;
        glGenTextures(1, &name);
        gpu.morphDeltas = gl::Texture(name);
        glBindTexture(GL_TEXTURE_2D, name);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, width, height, 0, GL_RGBA, GL_FLOAT, texels.data());
        gpu.morphRows = rows;
        gpu.morphWidth = width;
        gpu.morphTextureNormals = normals;
        report.push_back({Severity::Info, "mesh '" + mesh.name + "': " + std::to_string(targets) +
                                              " morph targets blended on the GPU from a " + std::to_string(width) +
                                              "x" + std::to_string(height) + " texture of deltas"});
    }

    // Sets the texture path's uniforms: weights of every target (by index) and the layout.
    void bindMorphTexture(const GpuMesh& gpu, const Pose& pose, size_t n, const MeshProgram& p) {
        glm::vec4 weights[kMaxTextureMorphTargets / 4] = {};
        const std::vector<float>& w = pose.morphWeights[n];
        for (size_t t = 0; t < w.size() && t < size_t(kMaxTextureMorphTargets); ++t) weights[t / 4][int(t % 4)] = w[t];
        m_state.uniform4fv(p.morphTextureWeights, kMaxTextureMorphTargets / 4, glm::value_ptr(weights[0]));
        m_state.uniform4i(p.morphLayout, int(gpu.morphs.size()), gpu.morphRows, gpu.morphWidth, gpu.morphTextureNormals ? 1 : 0);
        if (p.morphBaseScale >= 0) m_state.uniform1f(p.morphBaseScale, morphBaseScaleOf(gpu, w));
        m_state.bindTexture(kUnitMorphDeltas, GL_TEXTURE_2D, gpu.morphDeltas.get());
    }

    // True when node n's active targets go through the texture of deltas this frame.
    bool useMorphTexture(const GpuMesh& gpu, const std::vector<int>& active) const {
        return gpu.morphDeltas && int(active.size()) > morphCapacity(gpu);
    }

    void buildEdges(GpuMesh& gpu) {
        std::vector<uint32_t> edges;
        edges.reserve(gpu.triangleList.size() * 2);
        for (size_t t = 0; t + 2 < gpu.triangleList.size(); t += 3)
            for (int e = 0; e < 3; ++e) {
                uint32_t a = gpu.triangleList[t + e], b = gpu.triangleList[t + (e + 1) % 3];
                edges.push_back(a);
                edges.push_back(b);
            }
        gpu.edgeCount = static_cast<uint32_t>(edges.size());
        gpu.edges = gl::makeBuffer();
        m_state.bindElementBuffer(gpu.edges.get());
        if (gpu.indexType == GL_UNSIGNED_INT) {
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(edges.size() * 4), edges.data(), GL_STATIC_DRAW);
        } else {
            std::vector<uint16_t> shorts(edges.begin(), edges.end());
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(shorts.size() * 2), shorts.data(), GL_STATIC_DRAW);
        }
    }

    static bool isTransparent(const Scene& scene, const Node& node) {
        for (int32_t m : node.materials)
            if (m >= 0 && (scene.materials[m].blend.enabled || scene.materials[m].opacity < 1.0f)) return true;
        return false;
    }

    // Every enabled light of the scene (read from Scene::lights each frame, so the panel's edits
    // show at once) unless the view ignores them, the headlight pair when none is in use, and the
    // camera rig on top when asked for.
    void collectLights(const Scene& scene, const Pose& pose, const ViewSettings& view) {
        m_lights.clear();
        m_projectedLight = -1;
        for (size_t n = 0; view.sceneLights && n < scene.nodes.size(); ++n) {
            const Node& node = scene.nodes[n];
            if (node.kind != NodeKind::Light || node.object < 0) continue;
            const Light& light = scene.lights[node.object];
            if (!light.enabled || light.type == LightType::Ambient) continue;
            const glm::mat4& world = pose.objectWorld[n];
            const glm::vec3 forward = -glm::normalize(glm::vec3(world[2]));  // lights shine down their -Z
            LightSlot slot;
            const glm::vec3 color = light.color * light.intensity;
            slot.color = glm::vec4(color, light.type == LightType::Spot ? light.falloffExponent : 0.0f);
            slot.attenuation = glm::vec4(light.constantAttenuation, light.linearAttenuation, light.quadraticAttenuation,
                                         light.attenuationOffset);
            const bool innerCone = light.openGexFalloff || light.innerCone > 0.0f;
            slot.range = glm::vec4(light.rangeStart, light.range, innerCone ? std::cos(light.innerCone) : -2.0f,
                                   (light.smoothRange ? 1.0f : 0.0f) + (light.openGexFalloff ? 2.0f : 0.0f) +
                                       (light.smoothCone ? 4.0f : 0.0f) + (light.coneLinearInCosine ? 8.0f : 0.0f));
            slot.position = light.type == LightType::Directional ? glm::vec4(forward, 0.0f)
                                                                 : glm::vec4(glm::vec3(world[3]), 1.0f);
            slot.spot = light.type == LightType::Spot ? glm::vec4(forward, std::cos(light.outerCone))
                                                      : glm::vec4(0.0f, 0.0f, -1.0f, -2.0f);
            slot.luminance = glm::dot(color, glm::vec3(0.2126f, 0.7152f, 0.0722f));
            if (m_projectedLight < 0 && projectable(light)) {
                slot.projection = light.projection;
                m_projectedLight = int(m_lights.size());
                m_lightProjection = projectionMatrix(light, world);
            }
            m_lights.push_back(slot);
        }
        const glm::mat3 cameraToWorld(glm::inverse(m_view));
        auto directional = [](const glm::vec3& travel, const glm::vec3& color) {
            LightSlot slot;
            slot.position = glm::vec4(glm::normalize(travel), 0.0f);
            slot.color = glm::vec4(color, 0.0f);
            slot.luminance = glm::dot(color, glm::vec3(0.2126f, 0.7152f, 0.0722f));
            return slot;
        };
        if (m_lights.empty() && view.headlight) {
            // Nothing is ever black by accident: a headlight from the eye and a dim fill from above.
            m_lights.push_back(directional(-cameraToWorld[2], glm::vec3(0.85f)));
            m_lights.push_back(directional(glm::vec3(0.3f, -1.0f, 0.2f), glm::vec3(0.3f)));
        }
        if (view.defaultRig) {
            // A studio rig that turns with the camera, so it always lights the side in view.
            // Directions towards each light in camera space (x right, y up, z towards the viewer).
            static const struct {
                glm::vec3 towards, color;
            } kRig[] = {{{-0.55f, 0.6f, 0.6f}, {0.8f, 0.76f, 0.7f}},    // key: warm, upper left, in front
                        {{0.8f, 0.05f, 0.6f}, {0.28f, 0.31f, 0.36f}},   // fill: cool, right, soft
                        {{0.25f, 0.55f, -0.8f}, {0.6f, 0.6f, 0.6f}}};   // rim: behind, for the outline
            for (const auto& light : kRig) m_lights.push_back(directional(-(cameraToWorld * light.towards), light.color));
        }
    }

    // True for a spot light whose projection texture the renderer holds (a 2D one).
    bool projectable(const Light& light) const {
        const int32_t t = light.projection.texture;
        return light.type == LightType::Spot && t >= 0 && size_t(t) < m_textures.size() &&
               m_textures[t].texture && m_textures[t].target == GL_TEXTURE_2D;
    }

    // World space to the spot's texture space (u_lightProjection in mesh.frag): a square frustum
    // down the light's -Z with half angle outerCone (45 degrees when the cone is 90 or wider),
    // image right along +X and up along +Y (OpenGEX LightObject), the top row at t = 0.
    static glm::mat4 projectionMatrix(const Light& light, const glm::mat4& world) {
        const float half =
            light.outerCone > 1e-4f && light.outerCone < 1.5707963f ? light.outerCone : 0.78539816f;
        const float t = std::tan(half);
        glm::mat4 p(0.0f);
        p[0][0] = 0.5f / t;  // q.x = 0.5 x / t + 0.5 (-z)
        p[2][0] = -0.5f;
        p[1][1] = -0.5f / t;  // q.y = -0.5 y / t + 0.5 (-z)
        p[2][1] = -0.5f;
        p[2][3] = -1.0f;  // q.w = -z, the depth in front of the light
        return p * glm::inverse(world);
    }

    // The (at most kMaxLights) strongest lights at `p` into the uniform arrays.
    void selectLights(const glm::vec3& p) {
        m_order.resize(m_lights.size());
        for (size_t i = 0; i < m_order.size(); ++i) m_order[i] = i;
        if (m_lights.size() > size_t(kMaxLights))
            std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) {
                return m_lights[a].strengthAt(p) > m_lights[b].strengthAt(p);
            });
        m_lightCount = int(std::min<size_t>(m_lights.size(), kMaxLights));
        m_projectedSlot = -1;
        for (int i = 0; i < m_lightCount; ++i)
            if (int(m_order[i]) == m_projectedLight) m_projectedSlot = i;
        for (int i = 0; i < kMaxLights; ++i) {
            const LightSlot slot = i < m_lightCount ? m_lights[m_order[i]] : LightSlot();
            m_lightPosition[i] = slot.position;
            m_lightColor[i] = slot.color;
            m_lightAttenuation[i] = slot.attenuation;
            m_lightRange[i] = slot.range;
            m_lightSpot[i] = slot.spot;
        }
    }

    GLuint attributeLimit() const {
        return GLuint(std::min(m_caps.maxVertexAttribs, int(kLocMorphBase) + 2 * kMaxGpuMorphTargets + 1));
    }

    void bindStreams(const GpuMesh& gpu, bool skinned) {
        for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
        for (const GpuStream& s : gpu.streams) {
            m_state.bindArrayBuffer(s.buffer.get());
            for (const AttributeBinding& b : s.plan.attributes) {
                int loc = -1;
                switch (b.semantic) {
                    case Semantic::Position: loc = b.set == 0 ? int(kLocPosition) : -1; break;
                    case Semantic::Normal: loc = b.set == 0 ? int(kLocNormal) : -1; break;
                    case Semantic::Color: loc = b.set == 0 ? int(kLocColor) : -1; break;
                    case Semantic::TexCoord: loc = b.set == 0 ? int(kLocUv) : -1; break;
                    case Semantic::BoneIndices: loc = skinned ? int(kLocBoneIndices) : -1; break;
                    case Semantic::BoneWeights: loc = skinned ? int(kLocBoneWeights) : -1; break;
                    default: break;
                }
                if (loc < 0) continue;
                m_state.enableAttribute(loc, true);
                m_state.attributePointer(GLuint(loc), b.size, b.glType, b.normalized, static_cast<GLsizei>(s.plan.stride),
                                         uintptr_t(b.offset));
            }
        }
    }

    // Binds the mesh's attribute setup: its VAO (made and filled on first use) where vertex arrays
    // exist, plain pointers otherwise. Current values of disabled attributes are context state
    // (not VAO state), so they are set on every draw.
    void bindMesh(GpuMesh& gpu, bool skinned) {
        if (m_caps.vao) {
            gl::VertexArray& vao = gpu.vao[skinned ? 1 : 0];
            if (!vao) {
                vao = gl::makeVertexArray();
                m_state.bindVertexArray(vao.get());
                bindStreams(gpu, skinned);
            } else {
                m_state.bindVertexArray(vao.get());
            }
        } else {
            bindStreams(gpu, skinned);
        }
        // Missing skin inputs read as zero weights (the shader then uses the model matrix).
        if (skinned) m_state.attributeValue(kLocBoneWeights, 0, 0, 0, 0);
        m_state.attributeValue(kLocColor, 1, 1, 1, 1);
    }

    static const Material& materialOf(const Scene& scene, const Node& node, uint32_t slot) {
        static const Material fallback;
        if (slot < node.materials.size() && node.materials[slot] >= 0) return scene.materials[node.materials[slot]];
        return fallback;
    }

    void uploadTextures(const Scene& scene, std::vector<ReportLine>& report) {
        m_textures.clear();
        m_textures.resize(scene.textures.size());
        std::vector<std::string> notes;
        std::string error;
        auto neutral = [&](GpuTexture& t, uint8_t r, uint8_t g, uint8_t b) {
            Image image;
            image.width = image.height = 1;
            image.container = "neutral";
            image.surfaces.push_back(makeOwnedBytes({r, g, b, 255}));
            notes.clear();
            uploadTexture(image, m_textureSupport, t, notes, error);
        };
        if (!m_white.texture) {
            neutral(m_white, 255, 255, 255);
            neutral(m_flatNormal, 128, 128, 255);
        }
        // ES2 has no swizzle state: a texture's pixels are permuted once at upload, so every
        // reference to it must ask for the same swizzle (the OpenGEX reader makes one texture per
        // reference). ES3 sets the swizzle per bind instead.
        std::vector<std::vector<TextureSwizzle>> swizzles(scene.textures.size());
        auto want = [&](const TextureRef& ref) {
            if (ref.texture < 0 || size_t(ref.texture) >= scene.textures.size()) return;
            std::vector<TextureSwizzle>& list = swizzles[size_t(ref.texture)];
            const TextureSwizzle resolved = resolveSwizzle(ref.swizzle, 4);
            if (std::find(list.begin(), list.end(), resolved) == list.end()) list.push_back(resolved);
        };
        if (!m_caps.es3) {
            for (const Material& material : scene.materials)
                for (const TextureRef& ref : material.textures) want(ref);
            for (const Light& light : scene.lights) want(light.projection);
        }
        for (size_t i = 0; i < scene.textures.size(); ++i) {
            const Texture& texture = scene.textures[i];
            const std::string label = "texture '" + (texture.name.empty() ? texture.path : texture.name) + "'";
            Image checker, swizzled;
            const Image* image = &texture.image;
            if (image->empty()) {
                // Not prepared (prepareSceneTextures was not run): drawn as if the material had no map.
                report.push_back({Severity::Warning, label + ": no image was prepared for it; drawn untextured"});
                continue;
            } else if (isCompressed(image->format) && !m_textureSupport.supports(image->format)) {
                checker = makeCheckerImage();
                image = &checker;
                report.push_back({Severity::Warning, label + ": " + pixelFormatName(texture.image.format) +
                                                         " is not supported by this context and was not decoded; a "
                                                         "checker is shown"});
            }
            const std::vector<TextureSwizzle>& wanted = swizzles[i];
            if (image == &texture.image && !texture.placeholder && !wanted.empty() && !isIdentitySwizzle(wanted.front())) {
                const std::string text = swizzleText(wanted.front());
                if (wanted.size() > 1)
                    report.push_back({Severity::Warning, label + ": sampled with " + std::to_string(wanted.size()) +
                                                             " different swizzles; ES2 mode applies \"" + text +
                                                             "\" to every use"});
                if (swizzleImage(*image, wanted.front(), swizzled)) {
                    image = &swizzled;
                    report.push_back({Severity::Info, label + ": swizzle \"" + text + "\" applied to the pixels at upload (ES2)"});
                } else {
                    report.push_back({Severity::Warning, label + ": swizzle \"" + text + "\" not applied: " +
                                                             pixelFormatName(image->format) +
                                                             " stays compressed and ES2 has no texture swizzle"});
                }
            } else if (wanted.size() > 1) {
                report.push_back({Severity::Warning, label + ": sampled with " + std::to_string(wanted.size()) +
                                                         " different swizzles; ES2 mode shows it unswizzled everywhere"});
            }
            notes.clear();
            if (!uploadTexture(*image, m_textureSupport, m_textures[i], notes, error)) {
                report.push_back({Severity::Warning, label + ": " + error + "; a checker is shown"});
                checker = makeCheckerImage();
                notes.clear();
                uploadTexture(checker, m_textureSupport, m_textures[i], notes, error);
            }
            for (const std::string& note : notes) report.push_back({Severity::Info, label + ": " + note});
        }
    }

    // Binds `texture` (or the neutral `fallback`) on `unit` with the reference's wrap modes and, on
    // ES3, its swizzle (ES2 permuted the pixels at upload). True when the reference's own texture
    // was bound, false for the fallback.
    // The program for `f`, linked on first use (linking leaves the new program in use).
    const MeshProgram* programFor(const ShaderFeatures& f, std::string& error) {
        const size_t linked = m_programs.size();
        const MeshProgram* p = m_programs.get(f, error);
        if (m_programs.size() != linked) m_state.programChanged();
        return p;
    }

    bool bindTexture(int unit, const TextureRef& ref, GpuTexture& fallback, GLenum target = GL_TEXTURE_2D) {
        GpuTexture* t = &fallback;
        if (ref.texture >= 0 && size_t(ref.texture) < m_textures.size() && m_textures[ref.texture].texture &&
            m_textures[ref.texture].target == target)
            t = &m_textures[ref.texture];
        m_state.bindTexture(unit, t->target, t->texture.get());
        // Wrap and swizzle live in the texture object: set on its unit, and only what differs.
        const TextureSwizzle& swizzle = t == &fallback ? kIdentitySwizzle : ref.swizzle;
        if (wrapDiffers(*t, ref.wrapS, ref.wrapT) || (m_caps.es3 && swizzleDiffers(*t, swizzle))) {
            m_state.activeTexture(unit);
            applyWrap(*t, ref.wrapS, ref.wrapT);
            if (m_caps.es3) applySwizzle(*t, swizzle);
        }
        return t != &fallback;
    }

    // The references a material's maps sample, by MAP_TRANSFORMS index (= texture unit), as
    // bindMaterialTextures binds them; null where the unit is not sampled.
    static void sampledMaps(const Material& m, const ShaderFeatures& f, const TextureRef* (&refs)[kTransformedMaps]) {
        for (const TextureRef*& r : refs) r = nullptr;
        if (f.textured) refs[kUnitDiffuse] = &m.texture(TextureSlot::Diffuse);
        if (f.materialMaps) {
            const bool pbr = f.metalRough;
            refs[kUnitSpecular] = &m.texture(pbr ? TextureSlot::Metallic : TextureSlot::Specular);
            refs[kUnitEmissive] = &m.texture(TextureSlot::Emissive);
            refs[kUnitOpacity] = &m.texture(pbr ? TextureSlot::Roughness : TextureSlot::Opacity);
        }
        if (f.normalMap) {
            refs[kUnitNormal] = &m.texture(TextureSlot::Normal);
            if (refs[kUnitNormal]->texture < 0) refs[kUnitNormal] = &m.texture(TextureSlot::Bump);
        }
    }

    // True when a map the features sample needs MAP_TRANSFORMS (a uv transform or an emulated wrap).
    static bool needsMapTransforms(const Material& m, const ShaderFeatures& f) {
        const TextureRef* refs[kTransformedMaps];
        sampledMaps(m, f, refs);
        for (const TextureRef* r : refs)
            if (r && r->texture >= 0 && r->needsShaderAddressing()) return true;
        return false;
    }

    void bindMaterialTextures(const Scene& scene, const Pose& pose, const Material& m, const ShaderFeatures& f,
                              const MeshProgram& p) {
        const TextureRef* refs[kTransformedMaps];
        sampledMaps(m, f, refs);
        bool bound[kTransformedMaps] = {};
        if (refs[kUnitDiffuse]) bound[kUnitDiffuse] = bindTexture(kUnitDiffuse, *refs[kUnitDiffuse], m_white);
        for (int unit : {int(kUnitSpecular), int(kUnitEmissive), int(kUnitOpacity)})
            if (refs[unit]) bound[unit] = bindTexture(unit, *refs[unit], m_white);
        if (refs[kUnitNormal]) bound[kUnitNormal] = bindTexture(kUnitNormal, *refs[kUnitNormal], m_flatNormal);
        if (f.reflection == 1) bindTexture(kUnitReflection, m.texture(TextureSlot::Reflection), m_white);
        if (f.reflection == 2)
            bindTexture(kUnitReflectionCube, m.texture(TextureSlot::Reflection), m_white, GL_TEXTURE_CUBE_MAP);
        if (!f.mapTransforms) return;
        // Each map's transform at this pose (animated uv matrices) and its emulated addressing; a
        // neutral stand-in samples untransformed.
        glm::vec4 rows[2 * kTransformedMaps], borders[kTransformedMaps];
        for (int i = 0; i < kTransformedMaps; ++i) {
            const bool use = refs[i] && bound[i];
            glm::mat4 uv(1.0f);
            if (use && refs[i]->uvTransform >= 0 && size_t(refs[i]->uvTransform) < scene.uvTransforms.size())
                uv = size_t(refs[i]->uvTransform) < pose.uvMatrices.size() ? pose.uvMatrices[refs[i]->uvTransform]
                                                                          : scene.uvTransforms[refs[i]->uvTransform].matrix();
            auto mode = [](Wrap w) {
                return w == Wrap::Border ? 1.0f : w == Wrap::MirrorClamp ? 2.0f : w == Wrap::MirrorBorder ? 3.0f : 0.0f;
            };
            rows[2 * i] = glm::vec4(uv[0][0], uv[1][0], uv[3][0], use ? mode(refs[i]->wrapS) : 0.0f);
            rows[2 * i + 1] = glm::vec4(uv[0][1], uv[1][1], uv[3][1], use ? mode(refs[i]->wrapT) : 0.0f);
            borders[i] = use ? refs[i]->border : glm::vec4(0.0f);
        }
        m_state.uniform4fv(p.mapUv, 2 * kTransformedMaps, glm::value_ptr(rows[0]));
        m_state.uniform4fv(p.mapBorder, kTransformedMaps, glm::value_ptr(borders[0]));
    }

    // The material's uniforms and render state; `flat` is the colour of the batches, wireframe and
    // SkinDiff views.
    void setMaterial(const Scene& scene, const Node& node, uint32_t slot, const MeshProgram& p, const glm::vec3& flat) {
        const Material* m = &materialOf(scene, node, slot);
        m_state.uniform3fv(p.ambient, 1, glm::value_ptr(m->ambient * scene.ambient + (m_lights.empty() ? glm::vec3(0.2f) : glm::vec3(0.0f))));
        // Reflectivity: the material's, or half strength when it has a reflection map but no value.
        const float reflectivity = m->reflectivity > 0.0f ? m->reflectivity : 0.5f;
        m_state.uniform4f(p.surface, m->metallic, m->roughness, reflectivity, m->alphaCutoff);
        glm::vec4 diffuse(m->diffuse, m->opacity);
        m_state.uniform4fv(p.diffuse, 1, glm::value_ptr(diffuse));
        m_state.uniform3fv(p.specular, 1, glm::value_ptr(m->specular));
        m_state.uniform3fv(p.emissive, 1, glm::value_ptr(m->emissive));
        m_state.uniform1f(p.shininess, m->shininess);
        m_state.uniform4f(p.flatColor, flat.r, flat.g, flat.b, 1.0f);
        setCulling(*m);
        if (m->blend.enabled || m->opacity < 1.0f) {
            m_state.enable(GL_BLEND, true);
            m_state.depthMask(false);
            if (m->blend.enabled) {
                static constexpr GLenum kFactors[] = {GL_ZERO, GL_ONE, GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_SRC_ALPHA,
                                                      GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA,
                                                      GL_DST_COLOR, GL_ONE_MINUS_DST_COLOR, GL_SRC_ALPHA_SATURATE,
                                                      GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR, GL_CONSTANT_ALPHA,
                                                      GL_ONE_MINUS_CONSTANT_ALPHA};
                static_assert(sizeof(kFactors) / sizeof(kFactors[0]) == static_cast<size_t>(BlendFactor::Count));
                // MIN/MAX are ES3 (or EXT_blend_minmax); ES2 mode keeps to add/subtract.
                const GLenum kOps[] = {GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT,
                                       m_caps.es3 ? GLenum(GL_MIN) : GLenum(GL_FUNC_ADD), m_caps.es3 ? GLenum(GL_MAX) : GLenum(GL_FUNC_ADD)};
                static_assert(sizeof(kOps) / sizeof(kOps[0]) == static_cast<size_t>(BlendOp::Count));
                const BlendState& b = m->blend;
                m_state.blendFuncSeparate(kFactors[size_t(b.srcRgb)], kFactors[size_t(b.dstRgb)], kFactors[size_t(b.srcAlpha)],
                                    kFactors[size_t(b.dstAlpha)]);
                m_state.blendEquationSeparate(kOps[size_t(b.opRgb)], kOps[size_t(b.opAlpha)]);
                m_state.blendColor(b.constant.r, b.constant.g, b.constant.b, b.constant.a);
            } else {
                m_state.blendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
                m_state.blendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
            }
        } else {
            m_state.enable(GL_BLEND, false);
            m_state.depthMask(true);
        }
    }

    // The targets of node `n` with a non-zero weight at `pose` (at most kMaxGpuMorphTargets are
    // blended on the GPU; more at once send the node down the CPU path for that frame).
    void activeMorphs(const Pose& pose, size_t n, const GpuMesh& gpu, std::vector<int>& active) const {
        active.clear();
        if (gpu.morphs.empty() || n >= pose.morphWeights.size()) return;
        const std::vector<float>& w = pose.morphWeights[n];
        // The base target adds nothing; it only matters when it makes the base scale other than 1.
        const bool baseScaled = morphBaseScaleOf(gpu, w) != 1.0f;
        for (size_t t = 0; t < gpu.morphs.size() && t < w.size(); ++t)
            if (w[t] != 0.0f && gpu.morphs[t].position >= 0 && (!gpu.morphs[t].isBase || baseScaled))
                active.push_back(int(t));
    }

    // Same as morphBaseScale(mesh, weights), from the uploaded targets.
    static float morphBaseScaleOf(const GpuMesh& gpu, const std::vector<float>& w) {
        if (!gpu.morphBaseWeighted) return 1.0f;
        float sum = 0.0f;
        for (size_t t = 0; t < gpu.morphs.size() && t < w.size(); ++t)
            if (!gpu.morphs[t].relative) sum += w[t];
        return sum;
    }

    int morphCapacity(const GpuMesh& gpu) const {
        // A normal-mapped mesh gives the top of the morph range to its tangent attribute.
        int slots = m_morphSlots;
        if (gpu.tangents) slots = std::min(slots, int(tangentLocation(m_caps.maxVertexAttribs)) - int(kLocMorphBase));
        return std::min(kMaxGpuMorphTargets, gpu.morphNormals ? slots / 2 : slots);
    }

    // Points the morph attribute locations at the active targets' buffers (and turns the other
    // morph locations off), then sets the weights. Called after bindMesh on every draw.
    void bindMorphs(const GpuMesh& gpu, const std::vector<int>& active, const Pose& pose, size_t n,
                    const ShaderFeatures& f, const MeshProgram& p) {
        const int targets = f.morphTargets;
        std::vector<bool> used(attributeLimit(), false);
        glm::vec4 weights(0.0f), absolute(0.0f);
        for (int i = 0; i < targets; ++i) {
            const GpuMorph& m = gpu.morphs[active[i]];
            weights[i] = pose.morphWeights[n][active[i]];
            absolute[i] = m.relative ? 0.0f : 1.0f;
            m_state.bindArrayBuffer(m.buffer.get());
            auto point = [&](GLuint loc, const AttributeBinding& b) {
                if (loc >= used.size()) return;
                used[loc] = true;
                m_state.enableAttribute(loc, true);
                m_state.attributePointer(loc, std::min(b.size, 3), b.glType, b.normalized,
                                         static_cast<GLsizei>(m.plan.stride), uintptr_t(b.offset));
            };
            point(morphPositionLocation(i), m.plan.attributes[m.position]);
            if (f.morphNormals) point(morphNormalLocation(targets, i), m.plan.attributes[m.normal]);
        }
        for (GLuint loc = kLocMorphBase; loc < used.size(); ++loc)
            if (!used[loc]) m_state.enableAttribute(loc, false);
        if (targets > 0) {
            m_state.uniform4fv(p.morphWeights, 1, glm::value_ptr(weights));
            m_state.uniform4fv(p.morphAbsolute, 1, glm::value_ptr(absolute));
        }
        if (p.morphBaseScale >= 0) m_state.uniform1f(p.morphBaseScale, morphBaseScaleOf(gpu, pose.morphWeights[n]));
    }

    ShaderFeatures featuresFor(const Scene& scene, const Node& node, const GpuMesh& gpu, ViewMode mode, bool cpu,
                               bool gpuSkinned, const Material* material = nullptr) const {
        const Mesh& mesh = scene.meshes[node.object];
        ShaderFeatures f;
        f.mode = mode;
        f.normal = gpu.hasNormal;
        f.color = gpu.hasColor;
        f.uv = gpu.hasUv;
        f.skinned = gpuSkinned;
        if (material && f.uv && (mode == ViewMode::Shaded || mode == ViewMode::Unlit)) {
            const Material& m = *material;
            auto has = [&](TextureSlot slot) { return m.texture(slot).texture >= 0; };
            f.textured = has(TextureSlot::Diffuse);
            if (mode == ViewMode::Shaded) {
                f.metalRough = m.model == ShadingModel::MetalRough;
                f.materialMaps = f.metalRough ? has(TextureSlot::Metallic) || has(TextureSlot::Roughness) ||
                                                    has(TextureSlot::Emissive)
                                              : has(TextureSlot::Specular) || has(TextureSlot::Emissive) ||
                                                    has(TextureSlot::Opacity);
                // Normal maps need the tangent stream; the CPU path has no skinned tangents.
                f.normalMap = !cpu && gpu.tangents && f.normal && normalMapTexture(m) >= 0;
                const int32_t reflection = m.texture(TextureSlot::Reflection).texture;
                if (reflection >= 0 && size_t(reflection) < m_textures.size())
                    f.reflection = m_textures[reflection].target == GL_TEXTURE_CUBE_MAP ? 2 : f.metalRough ? 0 : 1;
                // The maps ride on the diffuse sampler's define (a white texture when it is absent).
                f.textured |= f.materialMaps || f.normalMap;
            }
            f.mapTransforms = needsMapTransforms(m, f);
        }
        f.lightProjection = material && mode == ViewMode::Shaded && m_projectedLight >= 0;
        if (gpuSkinned) {
            f.boneCount = std::max(1, std::min<int>(m_paletteCapacity, std::max<int>(mesh.maxBonesPerBatch, 8)));
            for (const BoneBatch& b : mesh.boneBatches) f.boneCount = std::max<int>(f.boneCount, int(b.bones.size()));
            if (mesh.boneBatches.empty()) f.boneCount = int(scene.skins[node.skin].joints.size());
            // Round the palette up to a multiple of 8 so files share a few programs.
            f.boneCount = std::min(m_paletteCapacity, (f.boneCount + 7) / 8 * 8);
            f.influences = std::max(1, gpu.influences);
        }
        return f;
    }

    // The palette of batch `b` (or the whole skin when the mesh has no batches) into m_bones.
    void batchPalette(const Mesh& mesh, const std::vector<glm::mat4>& palette, size_t b) {
        if (mesh.boneBatches.empty()) {
            m_bones = palette;
            return;
        }
        const BoneBatch& batch = mesh.boneBatches[b];
        m_bones.assign(batch.bones.size(), glm::mat4(1.0f));
        for (size_t i = 0; i < batch.bones.size(); ++i)
            if (batch.bones[i] >= 0 && size_t(batch.bones[i]) < palette.size()) m_bones[i] = palette[batch.bones[i]];
    }

    bool captureVertices(const Scene& scene, const Pose& pose, int n, std::vector<glm::vec3>& positions,
                         std::vector<glm::vec3>& normals, std::string& error) override {
        if (!m_caps.es3) {
            error = "capturing vertices needs transform feedback (ES3)";
            return false;
        }
        if (n < 0 || size_t(n) >= scene.nodes.size() || scene.nodes[n].kind != NodeKind::Mesh || scene.nodes[n].object < 0) {
            error = "node " + std::to_string(n) + " is not a mesh instance";
            return false;
        }
        std::vector<int> active;
        activeMorphs(pose, size_t(n), m_meshes[scene.nodes[n].object], active);
        const bool morphTexture = useMorphTexture(m_meshes[scene.nodes[n].object], active);
        if (m_paletteOnCpu.count(size_t(n)) ||
            (!morphTexture && int(active.size()) > morphCapacity(m_meshes[scene.nodes[n].object]))) {
            error = "node '" + scene.nodes[n].name + "' is drawn from CPU-computed vertices";
            return false;
        }
        const Node& node = scene.nodes[n];
        const Mesh& mesh = scene.meshes[node.object];
        GpuMesh& gpu = m_meshes[node.object];
        const bool gpuSkinned = node.skin >= 0 && gpu.hasSkin;
        ShaderFeatures f = featuresFor(scene, node, gpu, ViewMode::Unlit, false, gpuSkinned);
        f.capture = true;
        f.morphTexture = morphTexture;
        f.morphTargets = morphTexture ? 0 : int(active.size());
        f.morphNormals = f.morphTargets > 0 && gpu.morphNormals;
        const MeshProgram* p = programFor(f, error);
        if (!p) return false;
        const uint32_t count = mesh.vertexCount;
        const float nan = std::nanf("");
        positions.assign(count, glm::vec3(nan));
        normals.assign(count, glm::vec3(nan));
        if (count == 0) return true;

        // Which batch owns each vertex: the first whose triangles use it (as the CPU reference does).
        const size_t batches = gpuSkinned && !mesh.boneBatches.empty() ? mesh.boneBatches.size() : 1;
        std::vector<int32_t> owner(count, -1);
        for (size_t b = 0; b < batches; ++b) {
            uint32_t first = 0, triangles = gpu.triangles;
            if (gpuSkinned && !mesh.boneBatches.empty()) {
                first = std::min(mesh.boneBatches[b].firstTriangle, gpu.triangles);
                triangles = std::min(mesh.boneBatches[b].triangleCount, gpu.triangles - first);
            }
            for (size_t i = size_t(first) * 3; i < size_t(first + triangles) * 3 && i < gpu.triangleList.size(); ++i) {
                const uint32_t v = gpu.triangleList[i];
                if (v < count && owner[v] < 0) owner[v] = int32_t(b);
            }
        }

        m_state.useProgram(p->program.get());
        m_state.uniformMatrix4fv(p->viewProjection, 1, glm::value_ptr(glm::mat4(1.0f)));
        m_state.uniformMatrix4fv(p->model, 1, glm::value_ptr(pose.objectWorld[n]));
        m_state.uniformMatrix4fv(p->positionUnpack, 1, glm::value_ptr(mesh.positionUnpack));
        bindMesh(gpu, gpuSkinned);
        bindMorphs(gpu, morphTexture ? std::vector<int>() : active, pose, size_t(n), f, *p);
        if (morphTexture) bindMorphTexture(gpu, pose, size_t(n), *p);
        std::vector<glm::mat4> palette;
        if (gpuSkinned) skinPalette(scene, pose, n, palette);

        // Draws need a complete framebuffer even with rasterisation off (a surfaceless context has none).
        GLint previousFramebuffer = 0;
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previousFramebuffer);
        gl::Framebuffer scratchFramebuffer;
        gl::Renderbuffer scratchColor;
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            GLuint name = 0;
            glGenFramebuffers(1, &name);
            scratchFramebuffer = gl::Framebuffer(name);
            glGenRenderbuffers(1, &name);
            scratchColor = gl::Renderbuffer(name);
            glBindRenderbuffer(GL_RENDERBUFFER, scratchColor.get());
            glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
            glBindFramebuffer(GL_FRAMEBUFFER, scratchFramebuffer.get());
            glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, scratchColor.get());
        }

        // One buffer kept for every capture (the SkinDiff view captures each frame).
        if (!m_feedback) m_feedback = gl::makeBuffer();
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, m_feedback.get());
        const GLsizeiptr bytes = GLsizeiptr(count) * 6 * sizeof(float);
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, nullptr, GL_STREAM_READ);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, m_feedback.get());
        glEnable(GL_RASTERIZER_DISCARD);
        uint32_t errors = 0;
        for (size_t b = 0; b < batches; ++b) {
            if (gpuSkinned) {
                batchPalette(mesh, palette, b);
                if (!m_bones.empty())
                    glUniformMatrix4fv(p->bones, static_cast<GLsizei>(std::min<size_t>(m_bones.size(), f.boneCount)),
                                       GL_FALSE, glm::value_ptr(m_bones[0]));
            }
            // Every vertex through this batch's palette; only the vertices it owns are kept.
            glBeginTransformFeedback(GL_POINTS);
            glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(count));
            glEndTransformFeedback();
            const float* data = static_cast<const float*>(glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, GL_MAP_READ_BIT));
            if (!data) {
                error = "the transform feedback buffer cannot be mapped";
                break;
            }
            for (uint32_t v = 0; v < count; ++v)
                if (owner[v] == int32_t(b)) {
                    positions[v] = glm::vec3(data[6 * size_t(v)], data[6 * size_t(v) + 1], data[6 * size_t(v) + 2]);
                    normals[v] = glm::vec3(data[6 * size_t(v) + 3], data[6 * size_t(v) + 4], data[6 * size_t(v) + 5]);
                }
            glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
        }
        glDisable(GL_RASTERIZER_DISCARD);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
        m_state.bindVertexArray(0);
        glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previousFramebuffer));
        if (!checkGl("transform feedback capture", errors)) error = "GL errors while capturing vertices";
        return error.empty();
    }

    // Overlays from the CPU pose, drawn with the overlay program after the scene: the skeleton
    // (lines parent -> child between joints, joint markers), its bind pose, joint axes, vertex
    // normal and tangent lines, the selected node's axis tripod, and one joint's influence.
    void drawOverlay(const Scene& scene, const Pose& pose, const ViewSettings& view, FrameStats& stats) {
        if (!m_overlay.program) {
            std::string error;
            m_state.programChanged();
            if (!buildOverlayProgram(m_caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100, m_overlay, error)) {
                if (m_reported.insert(0x4000000000000000ull).second) stats.notes.push_back(error);
                return;
            }
            m_overlayBuffer = gl::makeBuffer();
        }
        struct OverlayVertex {
            glm::vec3 position;
            glm::vec4 color;
        };
        // Depth-tested lines on the surface; the rest shows through the mesh.
        std::vector<OverlayVertex> surfaceLines, lines, points, influence, markers;
        auto axes = [&](const glm::mat4& world, float length) {
            const glm::vec3 origin(world[3]);
            for (int a = 0; a < 3; ++a) {
                const glm::vec3 axis(world[a]);
                if (glm::dot(axis, axis) <= 0.0f) continue;
                lines.push_back({origin, kAxisColors[a]});
                lines.push_back({origin + length * glm::normalize(axis), kAxisColors[a]});
            }
        };
        const std::vector<uint8_t> joint = jointNodes(scene);
        if (view.showSkeleton) {
            for (size_t n = 0; n < scene.nodes.size(); ++n) {
                if (!joint[n]) continue;
                const glm::vec3 p(pose.world[n][3]);
                points.push_back({p, kJointColor});
                const int32_t parent = scene.nodes[n].parent;
                if (parent >= 0 && joint[parent]) {
                    lines.push_back({glm::vec3(pose.world[parent][3]), kBoneColor});
                    lines.push_back({p, kBoneColor});
                }
            }
        }
        if (view.showBindPose) bindPoseSkeleton(scene, [&](const glm::vec3& a, const glm::vec3* b) {
            if (b) {
                lines.push_back({a, kBindBoneColor});
                lines.push_back({*b, kBindBoneColor});
            } else {
                points.push_back({a, kBindJointColor});
            }
        });
        if (view.showJointAxes)
            for (size_t n = 0; n < scene.nodes.size(); ++n)
                if (joint[n]) axes(pose.world[n], 0.05f * view.orbit.distance);
        if (view.highlightNode >= 0 && size_t(view.highlightNode) < scene.nodes.size())
            axes(pose.world[view.highlightNode], 0.12f * view.orbit.distance);
        if (view.influenceJoint >= 0 && size_t(view.influenceJoint) < scene.nodes.size()) {
            for (size_t n = 0; n < scene.nodes.size(); ++n) {
                if (!drawable(scene, pose, n) || scene.nodes[n].skin < 0) continue;
                jointInfluences(scene, int(n), view.influenceJoint, m_influences);
                if (m_influences.empty()) continue;
                worldVertices(scene, pose, int(n), m_positions);
                for (const VertexInfluence& v : m_influences)
                    if (v.vertex < m_positions.size())
                        influence.push_back({m_positions[v.vertex], glm::vec4(heatColor(v.weight), 1.0f)});
            }
            markers.push_back({glm::vec3(pose.world[view.influenceJoint][3]), kJointColor});
        }
        if (view.showNormalLines || view.showTangentLines) {
            const float length = 0.015f * view.orbit.distance;
            const glm::vec4 normalColor(0.3f, 0.9f, 1.0f, 1.0f), tangentColor(1.0f, 0.45f, 0.3f, 1.0f);
            std::vector<glm::vec3> tangents;
            for (size_t n = 0; n < scene.nodes.size(); ++n) {
                if (!drawable(scene, pose, n)) continue;
                worldVertices(scene, pose, int(n), m_positions, &m_normals, view.showTangentLines ? &tangents : nullptr);
                for (size_t v = 0; view.showNormalLines && v < m_positions.size() && v < m_normals.size(); ++v) {
                    surfaceLines.push_back({m_positions[v], normalColor});
                    surfaceLines.push_back({m_positions[v] + length * m_normals[v], normalColor});
                }
                for (size_t v = 0; v < m_positions.size() && v < tangents.size(); ++v) {
                    surfaceLines.push_back({m_positions[v], tangentColor});
                    surfaceLines.push_back({m_positions[v] + length * tangents[v], tangentColor});
                }
            }
        }
        m_state.useProgram(m_overlay.program.get());
        m_state.uniformMatrix4fv(m_overlay.viewProjection, 1, glm::value_ptr(m_projection * m_view));
        if (m_caps.vao) m_state.bindVertexArray(0);
        for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
        m_state.bindArrayBuffer(m_overlayBuffer.get());
        m_state.enableAttribute(kLocPosition, true);
        m_state.enableAttribute(kLocColor, true);
        m_state.enable(GL_CULL_FACE, false);
        m_state.enable(GL_BLEND, false);
        m_state.depthMask(true);
        auto drawSet = [&](const std::vector<OverlayVertex>& set, GLenum primitive, bool depth, float pointSize) {
            if (set.empty()) return;
            if (depth) {
                m_state.enable(GL_DEPTH_TEST, true);
            } else {
                m_state.enable(GL_DEPTH_TEST, false);
            }
            m_state.uniform1f(m_overlay.pointSize, pointSize);
            glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(set.size() * sizeof(OverlayVertex)), set.data(), GL_STREAM_DRAW);
            m_state.attributePointer(kLocPosition, 3, GL_FLOAT, false, sizeof(OverlayVertex), 0);
            m_state.attributePointer(kLocColor, 4, GL_FLOAT, false, sizeof(OverlayVertex), offsetof(OverlayVertex, color));
            glDrawArrays(primitive, 0, static_cast<GLsizei>(set.size()));
            ++stats.drawCalls;
            checkGl("overlay draw", stats.glErrors);
        };
        drawSet(surfaceLines, GL_LINES, true, 1.0f);
        drawSet(lines, GL_LINES, false, 1.0f);
        drawSet(points, GL_POINTS, false, 7.0f);
        drawSet(influence, GL_POINTS, false, 5.0f);
        drawSet(markers, GL_POINTS, false, 13.0f);
        m_state.enable(GL_DEPTH_TEST, true);
    }

    // Calls emit(joint, &parent) for every bone and emit(joint, nullptr) for every joint of every
    // skin in its bind pose: joint j's world bind matrix is inverse(inverseBind[j]), the matrix at
    // which the skin leaves the stored vertices where they are. POD folds the mesh node's frame-0
    // world matrix into inverseBind (scene.h, Skin), so there the stored vertices, and with them the
    // bind skeleton, are placed by that matrix: the rest pose's, which is frame 0 for POD.
    template <typename Emit>
    void bindPoseSkeleton(const Scene& scene, Emit&& emit) {
        bool placed = false;
        for (const Skin& skin : scene.skins) placed |= skin.bindPlacedByMeshNode;
        if (placed) evaluatePose(scene, -1, 0.0f, m_restPose);
        for (size_t s = 0; s < scene.skins.size(); ++s) {
            const Skin& skin = scene.skins[s];
            glm::mat4 placement(1.0f);
            if (skin.bindPlacedByMeshNode)
                for (size_t n = 0; n < scene.nodes.size(); ++n)
                    if (scene.nodes[n].skin == int32_t(s)) {
                        placement = m_restPose.world[n];
                        break;
                    }
            std::map<int32_t, glm::vec3> bind;  // joint node -> bind position
            for (size_t j = 0; j < skin.joints.size() && j < skin.inverseBind.size(); ++j)
                bind[skin.joints[j]] = glm::vec3(placement * glm::inverse(skin.inverseBind[j])[3]);
            for (const auto& [node, position] : bind) {
                emit(position, nullptr);
                const auto parent = bind.find(scene.nodes[node].parent);
                if (parent != bind.end()) emit(position, &parent->second);
            }
        }
    }

    // Binds the attributes of the CPU path: world-space positions and normals computed on the CPU
    // (drawn with identity matrices), colours and UVs from the stored streams.
    void bindCpuVertices(const Scene& scene, const Pose& pose, size_t n, GpuMesh& gpu) {
        CpuNode& c = m_cpuNodes[n];
        if (!c.positions) {
            c.positions = gl::makeBuffer();
            c.normals = gl::makeBuffer();
        }
        worldVertices(scene, pose, static_cast<int>(n), m_positions, gpu.hasNormal ? &m_normals : nullptr);
        const bool setup = !m_caps.vao || !c.vao;
        if (m_caps.vao) {
            if (!c.vao) c.vao = gl::makeVertexArray();
            m_state.bindVertexArray(c.vao.get());
        }
        if (setup) {
            for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
            for (const GpuStream& s : gpu.streams) {
                m_state.bindArrayBuffer(s.buffer.get());
                for (const AttributeBinding& b : s.plan.attributes) {
                    if (b.set != 0 || (b.semantic != Semantic::Color && b.semantic != Semantic::TexCoord)) continue;
                    const GLuint loc = b.semantic == Semantic::Color ? kLocColor : kLocUv;
                    m_state.enableAttribute(loc, true);
                    m_state.attributePointer(loc, b.size, b.glType, b.normalized, static_cast<GLsizei>(s.plan.stride),
                                             uintptr_t(b.offset));
                }
            }
        }
        m_state.bindArrayBuffer(c.positions.get());
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_positions.size() * sizeof(glm::vec3)), m_positions.data(),
                     GL_STREAM_DRAW);
        if (setup) {
            m_state.enableAttribute(kLocPosition, true);
            m_state.attributePointer(kLocPosition, 3, GL_FLOAT, false, 0, 0);
        }
        if (gpu.hasNormal) {
            m_state.bindArrayBuffer(c.normals.get());
            glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_normals.size() * sizeof(glm::vec3)), m_normals.data(),
                         GL_STREAM_DRAW);
            if (setup) {
                m_state.enableAttribute(kLocNormal, true);
                m_state.attributePointer(kLocNormal, 3, GL_FLOAT, false, 0, 0);
            }
        }
        if (!gpu.hasColor) m_state.attributeValue(kLocColor, 1, 1, 1, 1);
    }

    static bool drawable(const Scene& scene, const Pose& pose, size_t n) {
        const Node& node = scene.nodes[n];
        return node.kind == NodeKind::Mesh && node.object >= 0 && pose.visible[n];
    }

    // Draws mesh node n in the view's mode, or in one flat colour when `flat` is given (overlays).
    void drawNode(const Scene& scene, const Pose& pose, const ViewSettings& view, size_t n, FrameStats& stats,
                  const FlatPass* flat = nullptr) {
        const Node& node = scene.nodes[n];
        const Mesh& mesh = scene.meshes[node.object];
        GpuMesh& gpu = m_meshes[node.object];
        if ((gpu.triangles == 0 && gpu.lineSegments == 0 && gpu.points == 0) || gpu.streams.empty()) return;
        activeMorphs(pose, n, gpu, m_active);
        const bool morphTexture = useMorphTexture(gpu, m_active);
        const bool morphsOnCpu = !morphTexture && int(m_active.size()) > morphCapacity(gpu);
        if (morphsOnCpu && !m_dryRun && m_reported.insert(0x8000000000000000ull | n).second)
            stats.notes.push_back("node '" + node.name + "': " + std::to_string(m_active.size()) +
                                  " morph targets active at once exceed the " + std::to_string(morphCapacity(gpu)) +
                                  " the GPU path blends; blended on the CPU");
        const bool cpu = morphsOnCpu || m_paletteOnCpu.count(n) > 0;
        if (!flat) {
            stats.cpuMorphedNodes += morphsOnCpu ? 1 : 0;
            stats.cpuSkinnedNodes += m_paletteOnCpu.count(n) ? 1 : 0;
            stats.morphTextureNodes += morphTexture ? 1 : 0;
        }
        const bool gpuSkinned = !cpu && node.skin >= 0 && gpu.hasSkin;
        const bool skinDiff = !flat && view.mode == ViewMode::SkinDiff;
        // Instances that cannot be compared fall through and draw grey.
        if (skinDiff && gpuSkinned && !m_dryRun && drawSkinDiff(scene, pose, n, stats)) return;

        // Vertex inputs, shared by every program this node draws with (locations are fixed).
        if (cpu) {
            bindCpuVertices(scene, pose, n, gpu);
        } else {
            bindMesh(gpu, gpuSkinned);
        }
        const bool wire = flat ? flat->edges : view.mode == ViewMode::Wireframe;
        if (wire && !gpu.edges) buildEdges(gpu);
        m_state.bindElementBuffer(wire ? gpu.edges.get() : gpu.indices.get());
        selectLights(glm::vec3(pose.objectWorld[n][3]));

        std::vector<glm::mat4> palette;
        if (gpuSkinned) skinPalette(scene, pose, static_cast<int>(n), palette);
        // Bone batches split the triangle list; a mesh without batches is one range.
        const size_t batches = gpuSkinned && !mesh.boneBatches.empty() ? mesh.boneBatches.size() : 1;
        const GLuint tangentLoc = tangentLocation(m_caps.maxVertexAttribs);
        // Flat passes are unlit and ignore the material's maps; SkinDiff shades what it does not
        // compare in flat grey.
        const ViewMode mode = flat ? ViewMode::Unlit : skinDiff ? ViewMode::Batches : view.mode;

        // Materials follow submeshes: one program per submesh's material, then one draw per batch range.
        for (const GpuSubmesh& s : gpu.submeshes) {
            // Lines and points: the flat edge passes draw them too (the tint pass is for surfaces);
            // shaded and wireframe views show them in the material's colours, lit when the mesh has
            // normals.
            const bool primitive = s.mode != GL_TRIANGLES;
            if (primitive ? s.elementCount == 0 || (flat && !flat->edges) : s.triangleCount == 0) continue;
            ViewMode submeshMode = mode;
            if (primitive && (mode == ViewMode::Shaded || mode == ViewMode::Wireframe))
                submeshMode = gpu.hasNormal ? ViewMode::Shaded : ViewMode::Unlit;
            const Material& material = materialOf(scene, node, s.materialSlot);
            ShaderFeatures f = featuresFor(scene, node, gpu, submeshMode, cpu, gpuSkinned, flat ? nullptr : &material);
            f.points = s.mode == GL_POINTS;
            if (flat) f.color = false;  // one colour, not modulated by vertex colours
            if (!cpu && morphTexture) {
                f.morphTexture = true;
            } else if (!cpu) {
                f.morphTargets = int(m_active.size());
                f.morphNormals = f.morphTargets > 0 && gpu.morphNormals;
            }
            if (f.mode == ViewMode::Weights && !gpuSkinned) f.mode = ViewMode::Shaded;
            std::string error;
            const MeshProgram* p = programFor(f, error);
            if (!p) {
                if (!m_dryRun && m_reported.insert(f.key()).second) stats.notes.push_back(error);
                continue;
            }
            m_state.useProgram(p->program.get());
            m_state.uniformMatrix4fv(p->viewProjection, 1, glm::value_ptr(m_projection * m_view));
            m_state.uniform3fv(p->eye, 1, glm::value_ptr(m_eye));
            m_state.uniform1i(p->lightCount, m_lightCount);
            m_state.uniform4fv(p->lightPosition, kMaxLights, glm::value_ptr(m_lightPosition[0]));
            m_state.uniform4fv(p->lightColor, kMaxLights, glm::value_ptr(m_lightColor[0]));
            m_state.uniform4fv(p->lightAttenuation, kMaxLights, glm::value_ptr(m_lightAttenuation[0]));
            m_state.uniform4fv(p->lightRange, kMaxLights, glm::value_ptr(m_lightRange[0]));
            m_state.uniform4fv(p->lightSpot, kMaxLights, glm::value_ptr(m_lightSpot[0]));
            if (f.lightProjection) {
                m_state.uniformMatrix4fv(p->lightProjection, 1, glm::value_ptr(m_lightProjection));
                m_state.uniform1f(p->projectedLight, float(m_projectedSlot));
                // Clamped: outside [0, 1] the shader gives no light, and ES2 takes any size so.
                TextureRef ref = m_lights[size_t(m_projectedLight)].projection;
                ref.wrapS = ref.wrapT = Wrap::Clamp;
                bindTexture(lightProjectionUnit(m_caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100), ref,
                            m_white);
            }
            if (cpu) {
                const glm::mat4 identity(1.0f);
                m_state.uniformMatrix4fv(p->model, 1, glm::value_ptr(identity));
                m_state.uniformMatrix4fv(p->positionUnpack, 1, glm::value_ptr(identity));
            } else {
                bindMorphs(gpu, f.morphTexture ? std::vector<int>() : m_active, pose, n, f, *p);
                if (f.morphTexture) bindMorphTexture(gpu, pose, n, *p);
                m_state.uniformMatrix4fv(p->model, 1, glm::value_ptr(pose.objectWorld[n]));
                m_state.uniformMatrix4fv(p->positionUnpack, 1, glm::value_ptr(mesh.positionUnpack));
                if (tangentLoc < GLuint(m_caps.maxVertexAttribs)) {
                    if (f.normalMap) {
                        m_state.bindArrayBuffer(gpu.tangents.get());
                        m_state.enableAttribute(tangentLoc, true);
                        m_state.attributePointer(tangentLoc, 4, GL_FLOAT, false, 0, 0);
                    } else if (gpu.tangents) {
                        m_state.enableAttribute(tangentLoc, false);
                    }
                }
            }
            bindMaterialTextures(scene, pose, material, f, *p);
            if (m_dryRun) continue;  // prepareFrame: the program, arrays and buffers exist now
            if (primitive) {
                drawPrimitives(scene, view, node, mesh, gpu, s, f, *p, palette, flat, wire, stats);
                continue;
            }

            for (size_t b = 0; b < batches; ++b) {
                uint32_t first = 0, count = gpu.triangles;
                if (gpuSkinned && !mesh.boneBatches.empty()) {
                    const BoneBatch& batch = mesh.boneBatches[b];
                    first = batch.firstTriangle;
                    count = std::min(batch.triangleCount, gpu.triangles - std::min(first, gpu.triangles));
                }
                const uint32_t lo = std::max(first, s.firstTriangle);
                const uint32_t hi = std::min(first + count, s.firstTriangle + s.triangleCount);
                if (lo >= hi) continue;
                if (gpuSkinned) {
                    batchPalette(mesh, palette, b);
                    const size_t uploaded = std::min<size_t>(m_bones.size(), size_t(f.boneCount));
                    if (uploaded > 0)
                        m_state.uniformMatrix4fv(p->bones, static_cast<GLsizei>(uploaded), glm::value_ptr(m_bones[0]));
                    ++stats.boneBatchesDrawn;
                    stats.paletteVectorsMax = std::max(stats.paletteVectorsMax, uint32_t(uploaded) * kVectorsPerBone);
                }
                if (gpuSkinned && f.mode == ViewMode::Weights) m_state.uniform1f(p->weightBone, weightBoneLocal(scene, node, mesh, b, view.weightBone));
                if (flat) {
                    setFlat(*p, *flat, material);
                } else {
                    const glm::vec3 flatColor = skinDiff ? kSkinDiffGrey
                                                : view.mode == ViewMode::Batches ? kBatchColors[b % 8]
                                                                                 : kBatchColors[(b + 3) % 8];
                    setMaterial(scene, node, s.materialSlot, *p, flatColor);
                }
                if (wire) {
                    const GLenum type = gpu.indexType == GL_UNSIGNED_INT ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
                    glDrawElements(GL_LINES, static_cast<GLsizei>((hi - lo) * 6), type,
                                   reinterpret_cast<const void*>(uintptr_t(lo) * 6 * (type == GL_UNSIGNED_INT ? 4 : 2)));
                } else {
                    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>((hi - lo) * 3), gpu.indexType,
                                   reinterpret_cast<const void*>(uintptr_t(lo) * 3 * gpu.indexSize));
                }
                ++stats.drawCalls;
                stats.triangles += hi - lo;
                checkGl("glDrawElements", stats.glErrors);
            }
        }
    }

    // One Lines/LineStrip/Points submesh `s` of mesh node `node` with program `p` already set up
    // (matrices, lights, morphs, textures): the whole skin palette (meshes with bone batches have no
    // line or point ranges), the material or flat colour, and one GL_LINES or GL_POINTS draw. The
    // node's triangle (or edge) index buffer is bound again afterwards.
    void drawPrimitives(const Scene& scene, const ViewSettings& view, const Node& node, const Mesh& mesh, GpuMesh& gpu,
                        const GpuSubmesh& s, const ShaderFeatures& f, const MeshProgram& p,
                        const std::vector<glm::mat4>& palette, const FlatPass* flat, bool wire, FrameStats& stats) {
        if (f.skinned) {
            batchPalette(mesh, palette, 0);
            const size_t uploaded = std::min<size_t>(m_bones.size(), size_t(f.boneCount));
            if (uploaded > 0) m_state.uniformMatrix4fv(p.bones, static_cast<GLsizei>(uploaded), glm::value_ptr(m_bones[0]));
            if (f.mode == ViewMode::Weights) m_state.uniform1f(p.weightBone, weightBoneLocal(scene, node, mesh, 0, view.weightBone));
        }
        if (p.pointSize >= 0) m_state.uniform1f(p.pointSize, std::max(view.pointSize, 1.0f));
        if (flat) {
            setFlat(p, *flat, materialOf(scene, node, s.materialSlot));
        } else {
            setMaterial(scene, node, s.materialSlot, p, kBatchColors[3]);
        }
        m_state.bindElementBuffer(gpu.primitives.get());
        glDrawElements(s.mode, static_cast<GLsizei>(s.elementCount), gpu.primitiveType,
                       reinterpret_cast<const void*>(uintptr_t(s.firstElement) * gpu.primitiveSize));
        m_state.bindElementBuffer(wire ? gpu.edges.get() : gpu.indices.get());
        ++stats.drawCalls;
        if (s.mode == GL_POINTS) {
            stats.points += s.elementCount;
            checkGl("glDrawElements(GL_POINTS)", stats.glErrors);
        } else {
            stats.lines += s.elementCount / 2;
            checkGl("glDrawElements(GL_LINES)", stats.glErrors);
        }
    }

    // Culling as the material asks, unless the view forces every material two-sided.
    void setCulling(const Material& m) const {
        if (m.twoSided || m_forceTwoSided) {
            m_state.enable(GL_CULL_FACE, false);
        } else {
            m_state.enable(GL_CULL_FACE, true);
            m_state.cullFace(GL_BACK);
        }
    }

    // State of a flat overlay pass: its colour (alpha-blended below 1), no alpha test, and no depth
    // writes, so overlays never hide each other.
    void setFlat(const MeshProgram& p, const FlatPass& flat, const Material& m) const {
        m_state.uniform4fv(p.diffuse, 1, glm::value_ptr(flat.color));
        m_state.uniform4f(p.surface, 0.0f, 0.0f, 0.0f, 0.0f);
        setCulling(m);
        m_state.depthMask(false);
        if (flat.color.a < 1.0f) {
            m_state.enable(GL_BLEND, true);
            m_state.blendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            m_state.blendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
        } else {
            m_state.enable(GL_BLEND, false);
        }
    }

    // SkinDiff view of GPU-skinned node n: captures what the vertex stage computes (transform
    // feedback, ES3), compares each vertex with the CPU reference and draws the reference surface
    // coloured by the difference over m_skinDiffRange. False when the node cannot be captured.
    bool drawSkinDiff(const Scene& scene, const Pose& pose, size_t n, FrameStats& stats) {
        if (!m_caps.es3) return false;
        std::string error;
        if (!captureVertices(scene, pose, int(n), m_captured, m_capturedNormals, error)) return false;
        worldVertices(scene, pose, int(n), m_positions);
        if (m_positions.size() != m_captured.size()) return false;
        m_colors.resize(m_positions.size());
        for (size_t v = 0; v < m_positions.size(); ++v) {
            if (std::isnan(m_captured[v].x)) {  // no triangle uses it: nothing to draw or compare
                m_colors[v] = kSkinDiffGrey;
                continue;
            }
            const float d = glm::length(m_captured[v] - m_positions[v]);
            stats.skinDiffMax = std::max(stats.skinDiffMax, d);
            m_colors[v] = heatColor(d / m_skinDiffRange);
        }
        ShaderFeatures f;
        f.mode = ViewMode::SkinDiff;
        f.color = true;
        const MeshProgram* p = programFor(f, error);
        if (!p) {
            if (m_reported.insert(f.key()).second) stats.notes.push_back(error);
            return false;
        }
        // One pair of stream buffers and one VAO serve every node, refilled per draw.
        if (!m_skinDiffVao) {
            m_skinDiffPositions = gl::makeBuffer();
            m_skinDiffColors = gl::makeBuffer();
            m_skinDiffVao = gl::makeVertexArray();
            m_state.bindVertexArray(m_skinDiffVao.get());
            for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
            m_state.bindArrayBuffer(m_skinDiffPositions.get());
            m_state.enableAttribute(kLocPosition, true);
            m_state.attributePointer(kLocPosition, 3, GL_FLOAT, false, 0, 0);
            m_state.bindArrayBuffer(m_skinDiffColors.get());
            m_state.enableAttribute(kLocColor, true);
            m_state.attributePointer(kLocColor, 3, GL_FLOAT, false, 0, 0);
        }
        m_state.bindVertexArray(m_skinDiffVao.get());
        m_state.bindArrayBuffer(m_skinDiffPositions.get());
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(m_positions.size() * sizeof(glm::vec3)), m_positions.data(), GL_STREAM_DRAW);
        m_state.bindArrayBuffer(m_skinDiffColors.get());
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(m_colors.size() * sizeof(glm::vec3)), m_colors.data(), GL_STREAM_DRAW);
        const GpuMesh& gpu = m_meshes[scene.nodes[n].object];
        m_state.bindElementBuffer(gpu.indices.get());
        m_state.useProgram(p->program.get());
        const glm::mat4 identity(1.0f);
        m_state.uniformMatrix4fv(p->viewProjection, 1, glm::value_ptr(m_projection * m_view));
        m_state.uniformMatrix4fv(p->model, 1, glm::value_ptr(identity));
        m_state.uniformMatrix4fv(p->positionUnpack, 1, glm::value_ptr(identity));
        m_state.enable(GL_BLEND, false);
        m_state.depthMask(true);
        for (const GpuSubmesh& s : gpu.submeshes) {
            if (s.triangleCount == 0) continue;
            setCulling(materialOf(scene, scene.nodes[n], s.materialSlot));
            glDrawElements(GL_TRIANGLES, GLsizei(s.triangleCount * 3), gpu.indexType,
                           reinterpret_cast<const void*>(uintptr_t(s.firstTriangle) * 3 * gpu.indexSize));
            ++stats.drawCalls;
            stats.triangles += s.triangleCount;
            checkGl("SkinDiff draw", stats.glErrors);
        }
        return true;
    }

    // The selected joint's index in batch b's palette (-1: strongest influence; -2: not in this batch).
    static float weightBoneLocal(const Scene& scene, const Node& node, const Mesh& mesh, size_t b, int weightBone) {
        if (weightBone < 0) return -1.0f;
        float local = -2.0f;
        const Skin& skin = scene.skins[node.skin];
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            if (skin.joints[j] != weightBone) continue;
            if (mesh.boneBatches.empty()) {
                local = float(j);
            } else {
                const std::vector<int32_t>& bones = mesh.boneBatches[b].bones;
                for (size_t i = 0; i < bones.size(); ++i)
                    if (bones[i] == int32_t(j)) local = float(i);
            }
        }
        return local;
    }

    // GPU time of the frame: one TIME_ELAPSED query per frame from a small ring; results are
    // collected when they are ready (never waited for), the newest kept in m_gpuMs.
    void beginGpuTimer() {
        m_timing = false;
        if (!m_caps.timer) return;
        if (!m_timerQueries[0]) {
            GLuint names[kTimerQueries] = {};
            glGenQueriesEXT(kTimerQueries, names);
            for (int i = 0; i < kTimerQueries; ++i) m_timerQueries[i] = gl::Query(names[i]);
        }
        // Reading GPU_DISJOINT also clears it: a disjoint event (clock change, power state) makes
        // the results in flight meaningless, so they are dropped.
        GLint disjoint = 0;
        glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
        for (int k = 0; k < kTimerQueries; ++k) {
            const int i = (m_timerNext + k) % kTimerQueries;  // oldest first
            if (!m_timerPending[i]) continue;
            GLuint available = 0;
            glGetQueryObjectuivEXT(m_timerQueries[i].get(), GL_QUERY_RESULT_AVAILABLE_EXT, &available);
            if (!available) break;  // later ones are not ready either
            GLuint64 nanoseconds = 0;
            glGetQueryObjectui64vEXT(m_timerQueries[i].get(), GL_QUERY_RESULT_EXT, &nanoseconds);
            m_timerPending[i] = false;
            if (!disjoint) m_gpuMs = float(double(nanoseconds) * 1e-6);
        }
        if (m_timerPending[m_timerNext]) return;  // every query still in flight: this frame goes untimed
        glBeginQueryEXT(GL_TIME_ELAPSED_EXT, m_timerQueries[m_timerNext].get());
        m_timing = true;
    }

    void endGpuTimer() {
        if (!m_timing) return;
        glEndQueryEXT(GL_TIME_ELAPSED_EXT);
        m_timerPending[m_timerNext] = true;
        m_timerNext = (m_timerNext + 1) % kTimerQueries;
        m_timing = false;
    }

    RendererOptions m_options;
    Caps m_caps;
    mutable gl::StateCache m_state;  // every state change of a frame goes through it
    bool m_dryRun = false;           // prepareFrame: everything a draw needs, but no draws
    ProgramCache m_programs;
    std::vector<GpuMesh> m_meshes;
    std::map<size_t, CpuNode> m_cpuNodes;  // nodes drawn from CPU-computed vertices, made on first use
    std::set<size_t> m_paletteOnCpu;       // skinned nodes whose palette exceeds the budget
    int m_morphSlots = 0;                  // vertex attributes left for morph targets
    std::vector<int> m_active;
    OverlayProgram m_overlay;
    gl::Buffer m_overlayBuffer;
    int m_paletteCapacity = 0;
    glm::mat4 m_view{1.0f}, m_projection{1.0f};
    glm::vec3 m_eye{0.0f};
    int m_lightCount = 0;
    glm::vec4 m_lightPosition[kMaxLights]{};
    glm::vec4 m_lightColor[kMaxLights]{};
    glm::vec4 m_lightAttenuation[kMaxLights]{};
    glm::vec4 m_lightRange[kMaxLights]{};
    glm::vec4 m_lightSpot[kMaxLights]{};
    std::vector<LightSlot> m_lights;  // every enabled light this frame (or the default pair)
    int m_projectedLight = -1;        // index into m_lights of the one projected spot; -1: none
    int m_projectedSlot = -1;         // its index among the current draw's lights; -1: not among them
    glm::mat4 m_lightProjection{1.0f};
    std::vector<size_t> m_order;
    TextureFormatSupport m_textureSupport;
    std::vector<GpuTexture> m_textures;  // one per Scene::textures entry
    GpuTexture m_white, m_flatNormal;  // neutral maps for units a material leaves empty
    std::vector<glm::mat4> m_bones;
    std::vector<glm::vec3> m_positions, m_normals;
    std::set<uint64_t> m_reported;
    bool m_forceTwoSided = false;  // this frame's ViewSettings::forceTwoSided
    gl::Buffer m_feedback;         // transform feedback target of captureVertices
    // SkinDiff: this frame's full-scale difference, the captured vertices, per-vertex colours, and
    // the stream buffers and VAO that draw them.
    float m_skinDiffRange = 1.0f;
    std::vector<glm::vec3> m_captured, m_capturedNormals, m_colors;
    gl::Buffer m_skinDiffPositions, m_skinDiffColors;
    gl::VertexArray m_skinDiffVao;
    std::vector<VertexInfluence> m_influences;  // influenceJoint's vertices of one node
    Pose m_restPose;                                       // bind-pose skeleton of POD skins
    gl::Query m_timerQueries[kTimerQueries];
    bool m_timerPending[kTimerQueries] = {};
    int m_timerNext = 0;
    bool m_timing = false;
    float m_gpuMs = -1.0f;
};

}  // namespace

std::unique_ptr<Renderer> Renderer::create(const RendererOptions& options, std::string& error) {
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    if (!version) {
        error = "no current GL context";
        return nullptr;
    }
    Caps caps;
    const bool contextEs3 = std::strstr(version, "OpenGL ES 3") != nullptr;
    // ES2 mode enforces the ES 2.0 minimums even where the driver grants more (llvmpipe grants 3.2).
    caps.es3 = contextEs3 && !options.gles2;
    caps.uintIndices = caps.es3 || gl::hasExtension("GL_OES_element_index_uint");
    gl::VertexArrayApi& vao = gl::vertexArrayApi();
    if (caps.es3) {
        vao = {glGenVertexArrays, glBindVertexArray, glDeleteVertexArrays};  // through the counting hooks
    } else if (gl::hasExtension("GL_OES_vertex_array_object")) {
        vao = {glGenVertexArraysOES, glBindVertexArrayOES, glDeleteVertexArraysOES};
    } else {
        vao = {};
    }
    caps.vao = vao.available();
    // The EXT entry points exist on ES2 as well; glad loads them only when the context lists the extension.
    caps.timer = gl::hasExtension("GL_EXT_disjoint_timer_query") && glad_glGenQueriesEXT && glad_glBeginQueryEXT &&
                 glad_glEndQueryEXT && glad_glGetQueryObjectuivEXT && glad_glGetQueryObjectui64vEXT &&
                 glad_glDeleteQueriesEXT;
    GLint vectors = 128, attribs = 8;
    glGetIntegerv(GL_MAX_VERTEX_UNIFORM_VECTORS, &vectors);
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &attribs);
    caps.maxVertexUniformVectors = options.gles2 ? std::min(vectors, 128) : vectors;
    caps.maxVertexAttribs = options.gles2 ? std::min(attribs, 8) : attribs;
    while (glGetError() != GL_NO_ERROR) {
    }
    return std::make_unique<GlRenderer>(options, caps);
}

glm::vec3 Renderer::orbitDirection(const OrbitCamera& o) {
    const glm::vec3 yUp(std::cos(o.pitch) * std::sin(o.yaw), std::sin(o.pitch), std::cos(o.pitch) * std::cos(o.yaw));
    // Z up: the Y-up frame turned so that its +Y is +Z and its +Z (toward the default eye) is -Y.
    return o.zUp ? glm::vec3(yUp.x, -yUp.z, yUp.y) : yUp;
}

glm::vec3 Renderer::orbitUp(const OrbitCamera& o) {
    return o.zUp ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
}

void Renderer::orbitMatrices(const OrbitCamera& o, float aspect, glm::mat4& view, glm::mat4& projection) {
    const glm::vec3 dir = orbitDirection(o);
    const glm::vec3 eye = o.target + o.distance * dir;
    view = glm::lookAt(eye, o.target, orbitUp(o));
    float nearZ = std::max(o.distance * 0.01f, 1e-4f), farZ = o.distance * 100.0f;
    if (o.sceneRadius > 0.0f) {
        // Everything lies within the radius of the centre, so within d +- r of the eye; 1.5 r leaves
        // room for animation beyond the framed box. The centre rather than the target, so panning
        // cannot clip the scene. Inside the sphere near falls to 1e-3 d: nothing is clipped, at the
        // cost of depth precision only there.
        const float d = glm::length(eye - o.sceneCenter);
        nearZ = std::max({d - 1.5f * o.sceneRadius, d * 1e-3f, 1e-4f});
        farZ = std::max((d + 1.5f * o.sceneRadius) * 1.01f, nearZ * 2.0f);
    }
    projection = glm::perspective(o.yfov, aspect, nearZ, farZ);
}

void Renderer::frameBounds(OrbitCamera& orbit, const glm::vec3& min, const glm::vec3& max, float aspect,
                           const ViewRegion& region) {
    const glm::vec3 center = 0.5f * (min + max);
    const float radius = std::max(0.5f * glm::length(max - min), 1e-3f);
    orbit.sceneCenter = center;
    orbit.sceneRadius = radius;
    if (!(aspect > 0.0f) || !std::isfinite(aspect)) aspect = 1.0f;

    // The camera's axes as glm::lookAt builds them: right, up, and `dir` toward the eye.
    const glm::vec3 dir = orbitDirection(orbit);
    glm::vec3 right = glm::cross(-dir, orbitUp(orbit));
    if (glm::length(right) < 1e-6f) right = glm::cross(-dir, glm::vec3(0.0f, 0.0f, 1.0f));
    if (glm::length(right) < 1e-6f) right = glm::vec3(1.0f, 0.0f, 0.0f);
    right = glm::normalize(right);
    const glm::vec3 up = glm::cross(right, -dir);

    // The region in tangent units (x right, y up) with the margin taken off.
    ViewRegion r = region;
    if (!(r.x1 - r.x0 > 0.05f) || !(r.y1 - r.y0 > 0.05f) || r.x0 < 0.0f || r.y0 < 0.0f || r.x1 > 1.0f ||
        r.y1 > 1.0f)
        r = ViewRegion{};
    const float ty = std::tan(0.5f * orbit.yfov), tx = ty * aspect;
    const float mx = kFrameMargin * (r.x1 - r.x0), my = kFrameMargin * (r.y1 - r.y0);
    const float ax = (2.0f * (r.x0 + mx) - 1.0f) * tx, bx = (2.0f * (r.x1 - mx) - 1.0f) * tx;
    const float ay = (1.0f - 2.0f * (r.y1 - my)) * ty, by = (1.0f - 2.0f * (r.y0 + my)) * ty;

    // A corner at (x, y, z) from the centre seen from the eye at target + d dir, target = centre +
    // cx right + cy up, lies inside when a <= (x - cx) / (d - z) <= b. That is cx + b d >= x + b z
    // and cx + a d <= x + a z for every corner: d >= (U - L) / (b - a) with U = max(x + b z) and
    // L = min(x + a z), and then cx anywhere in [U - b d, L - a d].
    float ux = -INFINITY, lx = INFINITY, uy = -INFINITY, ly = INFINITY, farthest = -INFINITY;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y, (i & 4) ? max.z : min.z);
        const glm::vec3 rel = corner - center;
        const float x = glm::dot(rel, right), y = glm::dot(rel, up), z = glm::dot(rel, dir);
        ux = std::max(ux, x + bx * z);
        lx = std::min(lx, x + ax * z);
        uy = std::max(uy, y + by * z);
        ly = std::min(ly, y + ay * z);
        farthest = std::max(farthest, z);
    }
    float d = std::max({(ux - lx) / (bx - ax), (uy - ly) / (by - ay), farthest + 1e-3f * radius});
    // A box of (almost) no size: its minimum sphere, as a point is framed.
    if (!std::isfinite(d) || d <= 0.0f || glm::length(max - min) < 2e-3f)
        d = std::max(std::isfinite(d) ? d : 0.0f, radius / std::sin(0.5f * orbit.yfov));
    const float cx = 0.5f * ((ux - bx * d) + (lx - ax * d));
    const float cy = 0.5f * ((uy - by * d) + (ly - ay * d));
    orbit.target = center + (std::isfinite(cx) ? cx : 0.0f) * right + (std::isfinite(cy) ? cy : 0.0f) * up;
    orbit.distance = d;
}

void Renderer::cameraMatrices(const Scene& scene, const Pose& pose, const ViewSettings& settings, int width, int height,
                              glm::mat4& view, glm::mat4& projection) {
    const float aspect = height > 0 ? float(width) / float(height) : 1.0f;
    int cameraNode = -1;
    if (settings.camera >= 0 && size_t(settings.camera) < scene.cameras.size())
        for (size_t n = 0; n < scene.nodes.size(); ++n)
            if (scene.nodes[n].kind == NodeKind::Camera && scene.nodes[n].object == settings.camera) {
                cameraNode = static_cast<int>(n);
                break;
            }
    if (cameraNode < 0) {
        orbitMatrices(settings.orbit, aspect, view, projection);
        return;
    }
    const Camera& cam = scene.cameras[settings.camera];
    const glm::mat4& world = pose.objectWorld[cameraNode];
    if (cam.targetNode >= 0) {
        const glm::vec3 eye(world[3]), target(pose.world[cam.targetNode][3]);
        view = glm::lookAt(eye, target, glm::normalize(glm::vec3(world[1])));
    } else {
        view = glm::inverse(world);
    }
    const float cameraAspect = cam.aspect > 0.0f ? cam.aspect : aspect;
    float fov = pose.cameraFov[cameraNode] > 0.0f ? pose.cameraFov[cameraNode] : cam.yfov;
    // A horizontal field of view (OpenGEX "fov") keeps its width: the vertical one follows the aspect.
    if (cam.xfov > 0.0f) fov = 2.0f * std::atan(std::tan(0.5f * cam.xfov) / cameraAspect);
    projection = glm::perspective(fov, cameraAspect, cam.nearZ, cam.farZ);
}

}  // namespace esv
