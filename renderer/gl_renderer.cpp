// The GLES renderer: uploads a validated scene as stored and draws one call per
// (mesh node, submesh, bone batch). See renderer.h for the contract, gl_renderer_impl.h for the
// parts. This file: the renderer's creation, setScene, and the frame.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include <glm/gtc/type_ptr.hpp>

#include "renderer/camera.h"
#include "renderer/gl_calls.h"
#include "renderer/gl_renderer_impl.h"
#include "target/strict_profile.h"
#include "scene/cpu_reference.h"

namespace esv {
namespace detail {
namespace {

// Flat passes over the scene, coloured apart from the heat ramp and from each other.
const glm::vec4 kEdgeColor(0.9f, 0.9f, 0.9f, 1.0f);         // wireframe overlay
// The selection outline: amber, apart from the missing-texture checker's magenta and grey and the
// skeleton's orange joints.
const glm::vec4 kAccentColor(1.0f, 0.75f, 0.0f, 1.0f);

}  // namespace

std::vector<std::string>& glErrorLog() {
    static std::vector<std::string> log;  // the thread that owns the context is the only writer
    return log;
}

bool checkGl(const char* where, uint32_t& errors) {
#ifdef ESVIEW_GL_CHECKS
    bool ok = true;
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        char text[96];
        std::snprintf(text, sizeof text, "GL error 0x%04X after %s", e, where);
        if (glErrorLog().size() < 64) glErrorLog().emplace_back(text);
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

std::string takeGlErrors() {
    std::string text;
    for (const std::string& line : glErrorLog()) text += (text.empty() ? "" : "; ") + line;
    glErrorLog().clear();
    return text;
}

GlRenderer::GlRenderer(const RendererOptions& options, const Caps& caps)
    : m_options(options),
      m_caps(caps),
      m_programs(caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100, caps.maxVertexAttribs,
                 caps.fragmentHighp, caps.maxFragmentUniformVectors),
      m_textureSupport(detectTextureSupport(caps.es3, caps.strict)),
      m_timer(caps.timer) {
    m_state.configure(m_caps.vao, attributeLimit());
}

bool GlRenderer::setScene(const Scene& scene, std::vector<ReportLine>& report, std::string& error) {
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
    vcaps.fixedPoint = !m_caps.webgl;
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
        if (projectable(light, m_textures)) projected.push_back(light.name);
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
        error = "GL errors while uploading the scene: " + takeGlErrors();
        return false;
    }
    return true;
}

RendererInfo GlRenderer::info() const {
    RendererInfo i;
    i.es3 = m_caps.es3;
    i.vertexArrays = m_caps.vao;
    i.uintIndices = m_caps.uintIndices;
    i.maxVertexUniformVectors = m_caps.maxVertexUniformVectors;
    i.maxVertexAttribs = m_caps.maxVertexAttribs;
    i.paletteCapacity = std::min(paletteCapacity(m_caps.maxVertexUniformVectors, kReservedVertexVectors), 256);
    i.vectorsPerBone = kVectorsPerBone;
    i.reservedVertexVectors = kReservedVertexVectors;
    i.strict = m_caps.strict;
    i.fixedAttributes = !m_caps.webgl;
    i.floatTextures = m_caps.es3;  // the texture of morph deltas (RGBA32F) is an ES3 path
    i.fragmentHighp = m_caps.fragmentHighp;
    i.maxFragmentUniformVectors = m_caps.maxFragmentUniformVectors;
    i.maxTextureUnits = m_caps.maxTextureUnits;
    i.fragmentUniformVectorsUsed = m_programs.maxFragmentUniformVectors();
    i.gpuTimer = m_caps.timer;
    i.compressedFormats = m_textureSupport.native;
    i.npotTextures = m_textureSupport.npot;
    i.maxTextureSize = m_textureSupport.maxSize;
    i.textureBytes = 0;
    for (const GpuTexture& t : m_textures) i.textureBytes += t.gpuBytes;
    return i;
}

unsigned GlRenderer::textureObject(int index) const {
    return index >= 0 && size_t(index) < m_textures.size() ? m_textures[index].texture.get() : 0u;
}

void GlRenderer::prepareFrame(const Scene& scene, const Pose& pose, const ViewSettings& view) {
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
    const int highlight = view.highlightNode;
    if (highlight >= 0 && size_t(highlight) < scene.nodes.size() && drawable(scene, pose, size_t(highlight))) {
        const FlatPass outline{false, kAccentColor, true};
        drawNode(scene, pose, view, size_t(highlight), ignored, &outline);
    }
    m_dryRun = false;
    if (m_caps.vao) m_state.bindVertexArray(0);
    m_state.disableContextAttributes();
}

FrameStats GlRenderer::draw(const Scene& scene, const Pose& pose, const ViewSettings& view, int width, int height,
                            int x, int y) {
    FrameStats stats;
    const uint64_t callsBefore = gl::callCount();
    // The host and the panel changed the context's state since the last frame.
    m_state.resetContextState();
    glViewport(x, y, width, height);
    const glm::vec4 clear = view.useSceneClearColor ? glm::vec4(scene.clearColor, 1.0f) : view.clearColor;
    glClearColor(clear.r, clear.g, clear.b, clear.a);
    glClearDepthf(1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // Timed from after the clear: llvmpipe returns a timestamp, not a duration, for a query begun
    // before the context has drawn anything (and a clear is close to free on tile-based GPUs).
    m_timer.begin();
    m_state.enable(GL_DEPTH_TEST, true);
    m_state.depthFunc(GL_LEQUAL);
    m_state.depthMask(true);
    m_state.enable(GL_BLEND, false);

    cameraMatrices(scene, pose, view, width, height, m_view, m_projection);
    m_eye = glm::vec3(glm::inverse(m_view)[3]);
    m_forceTwoSided = view.forceTwoSided;
    m_missingGrey = view.missingTexture == MissingTexture::Grey;
    m_lights.collect(scene, pose, view, m_view, m_textures);
    stats.fileLightExposure = m_lights.exposure();
    if (view.mode == ViewMode::SkinDiff) {
        const Bounds bounds = sceneBounds(scene, pose);
        const float diagonal = bounds.valid() ? glm::length(bounds.max - bounds.min) : 0.0f;
        m_skinDiffRange = resolvedSkinDiffRange(view.skinDiffRange, diagonal);
    }
    const int highlight = view.highlightNode >= 0 && size_t(view.highlightNode) < scene.nodes.size() ? view.highlightNode : -1;
    const bool highlightMesh = highlight >= 0 && drawable(scene, pose, size_t(highlight));
    // Lines cannot take a polygon offset (GLES has no GL_POLYGON_OFFSET_LINE): the filled
    // surfaces are pushed back instead, so edges drawn later at their true depth win.
    if (view.wireframeOverlay) {
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
        // One more draw per drawn range of the node, its surface left as it is: the outline.
        m_outline = glm::vec2(2.0f * kOutlinePixels / float(std::max(width, 1)),
                              2.0f * kOutlinePixels / float(std::max(height, 1)));
        const FlatPass outline{false, kAccentColor, true};
        drawNode(scene, pose, view, size_t(highlight), stats, &outline);
        m_state.enable(GL_POLYGON_OFFSET_FILL, false);
    }
    if (view.showSkeleton || view.showNormalLines || view.showTangentLines || view.showJointAxes ||
        view.showBindPose || highlight >= 0 || view.influenceJoint >= 0 ||
        (view.annotations && !view.annotations->empty()))
        drawOverlay(scene, pose, view, stats);
    m_state.enable(GL_BLEND, false);
    m_state.depthMask(true);
    // What is bound stays ours: no vertex array of ours is left bound for others to change,
    // and without vertex arrays no attribute array of ours is left enabled.
    if (m_caps.vao) m_state.bindVertexArray(0);
    m_state.disableContextAttributes();
    m_timer.end();
    stats.gpuMs = m_timer.lastMs();
    checkGl("frame end", stats.glErrors);
    if (stats.glErrors > 0) stats.notes.push_back(takeGlErrors());
    for (std::string& note : m_programs.takeNotes()) stats.notes.push_back(std::move(note));
    stats.glCalls = uint32_t(gl::callCount() - callsBefore);
    return stats;
}

void GlRenderer::drawNode(const Scene& scene, const Pose& pose, const ViewSettings& view, size_t n, FrameStats& stats,
                          const FlatPass* flat) {
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
    m_vertexBase = gpu.submeshes.empty() ? 0 : gpu.submeshes.front().baseVertex;
    if (cpu) {
        bindCpuVertices(scene, pose, n, gpu);
    } else {
        bindMesh(gpu, gpuSkinned);
    }
    const bool wire = flat ? flat->edges : view.mode == ViewMode::Wireframe;
    if (wire && !gpu.edges) buildEdges(gpu);
    m_state.bindElementBuffer(wire ? gpu.edges.get() : gpu.indices.get());
    m_lights.select(glm::vec3(pose.objectWorld[n][3]));

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
        // Lines and points: the flat edge and outline passes draw them again in their colour (they
        // have no surface to ring; other flat passes are for surfaces); shaded and wireframe views
        // show them in the material's colours, lit when the mesh has normals.
        const bool primitive = s.mode != GL_TRIANGLES;
        if (primitive ? s.elementCount == 0 || (flat && !flat->edges && !flat->outline) : s.triangleCount == 0)
            continue;
        if (s.baseVertex != m_vertexBase) moveVertexBase(n, gpu, cpu, gpuSkinned, s.baseVertex);
        ViewMode submeshMode = mode;
        if (primitive && (mode == ViewMode::Shaded || mode == ViewMode::Wireframe))
            submeshMode = gpu.hasNormal ? ViewMode::Shaded : ViewMode::Unlit;
        const Material& material = materialOf(scene, node, s.materialSlot);
        ShaderFeatures f = featuresFor(scene, node, gpu, submeshMode, cpu, gpuSkinned, flat ? nullptr : &material);
        f.points = s.mode == GL_POINTS;
        if (flat) f.color = false;  // one colour, not modulated by vertex colours
        f.outline = flat && flat->outline && !primitive;
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
        m_lights.setUniforms(m_state, *p);
        if (f.lightProjection) {
            m_lights.setProjectionUniforms(m_state, *p);
            bindTexture(lightProjectionUnit(m_caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100),
                        m_lights.projectionTexture(), m_white);
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
                    m_state.attributePointer(tangentLoc, 4, GL_FLOAT, false, 0,
                                             uintptr_t(m_vertexBase) * sizeof(glm::vec4));
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
                if (flat->outline) {
                    // The hull is the back faces, whatever the material culls, a little behind the
                    // surface so a two-sided face seen from behind is not covered.
                    m_state.enable(GL_CULL_FACE, true);
                    m_state.cullFace(GL_FRONT);
                    m_state.enable(GL_POLYGON_OFFSET_FILL, true);
                    m_state.polygonOffset(2.0f, 8.0f);
                    m_state.uniform2fv(p->outline, 1, glm::value_ptr(m_outline));
                }
            } else {
                const glm::vec3 flatColor = skinDiff                         ? kSkinDiffGrey
                                            : view.mode == ViewMode::Batches ? batchColor(b)
                                                                             : batchColor(b + 3);
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

void GlRenderer::drawPrimitives(const Scene& scene, const ViewSettings& view, const Node& node, const Mesh& mesh,
                                GpuMesh& gpu, const GpuSubmesh& s, const ShaderFeatures& f, const MeshProgram& p,
                                const std::vector<glm::mat4>& palette, const FlatPass* flat, bool wire,
                                FrameStats& stats) {
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
        setMaterial(scene, node, s.materialSlot, p, batchColor(3));
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

}  // namespace detail

std::unique_ptr<Renderer> Renderer::create(const RendererOptions& options, std::string& error) {
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    if (!version) {
        error = "no current GL context";
        return nullptr;
    }
    detail::Caps caps;
    const bool contextEs3 = std::strstr(version, "OpenGL ES 3") != nullptr;
    // The strict profile sees no extension at all (kStrictExtensions) and kStrictLimits.
    const bool strict = options.gles2Strict;
    const bool gles2 = options.gles2 || strict;
    const auto hasExtension = [strict](const char* name) { return !strict && gl::hasExtension(name); };
    caps.strict = strict;
    caps.webgl = std::strstr(version, "WebGL") != nullptr;
    // ES2 mode enforces the ES 2.0 minimums even where the driver grants more (llvmpipe grants 3.2).
    caps.es3 = contextEs3 && !gles2;
    caps.uintIndices = caps.es3 || hasExtension("GL_OES_element_index_uint");
    gl::VertexArrayApi& vao = gl::vertexArrayApi();
    if (caps.es3) {
        vao = {glGenVertexArrays, glBindVertexArray, glDeleteVertexArrays};  // through the counting hooks
    } else if (hasExtension("GL_OES_vertex_array_object")) {
        vao = {glGenVertexArraysOES, glBindVertexArrayOES, glDeleteVertexArraysOES};
    } else {
        vao = {};
    }
    caps.vao = vao.available();
    // The EXT entry points exist on ES2 as well; glad loads them only when the context lists the extension.
    caps.timer = hasExtension("GL_EXT_disjoint_timer_query") && glad_glGenQueriesEXT &&
                 glad_glBeginQueryEXT && glad_glEndQueryEXT && glad_glGetQueryObjectuivEXT &&
                 glad_glGetQueryObjectui64vEXT && glad_glDeleteQueriesEXT;
    GLint vectors = 128, attribs = 8, fragmentVectors = 16, units = 8;
    glGetIntegerv(GL_MAX_VERTEX_UNIFORM_VECTORS, &vectors);
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &attribs);
    glGetIntegerv(GL_MAX_FRAGMENT_UNIFORM_VECTORS, &fragmentVectors);
    glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &units);
    caps.maxVertexUniformVectors = gles2 ? std::min(vectors, 128) : vectors;
    caps.maxVertexAttribs = gles2 ? std::min(attribs, 8) : attribs;
    caps.maxFragmentUniformVectors =
        strict ? std::min(fragmentVectors, kStrictLimits.fragmentUniformVectors) : 0;
    caps.maxTextureUnits = strict ? std::min(units, kStrictLimits.textureUnits) : units;
    // Without GL_FRAGMENT_PRECISION_HIGH (which the strict profile treats as undefined) fragment
    // shaders are mediump.
    caps.fragmentHighp = !strict;
    while (glGetError() != GL_NO_ERROR) {
    }
    return std::make_unique<detail::GlRenderer>(options, caps);
}

}  // namespace esv
