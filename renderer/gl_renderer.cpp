// The GLES renderer: uploads a validated scene as stored (a GpuScene) and draws one call per
// (mesh node, submesh, bone batch) through a draw list. See renderer.h for the contract,
// gl_renderer_impl.h for the parts. This file: the renderer's creation, setScene, and the frame.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include <glm/gtc/type_ptr.hpp>

#include "renderer/camera.h"
#include "renderer/gl_calls.h"
#include "renderer/gl_renderer_impl.h"
#include "target/device_profiles.h"
#include "target/strict_profile.h"
#include "scene/cpu_reference.h"

namespace esv {
namespace detail {

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
      m_textureSupport(detectTextureSupport(caps.es3, caps.strict, caps.device)),
      m_timer(caps.timer) {
    // The cache also follows texture coordinate set 1's location, past the morph range and tangent.
    m_state.configure(m_caps.vao, std::max(attributeLimit(), uv1Location(m_caps.maxVertexAttribs) + 1));
}

bool GlRenderer::setScene(const Scene& scene, std::vector<ReportLine>& report, std::string& error) {
    m_gpu.clear();
    m_reported.clear();
    // Their vertex arrays are gone (names may come back): uploads go to the context's state.
    m_state.forgetObjects();
    m_state.resetContextState();
    m_state.bindVertexArray(0);
    m_gpu.meshes.resize(scene.meshes.size());
    VertexCaps vcaps;
    vcaps.es3 = m_caps.es3;
    vcaps.fixedPoint = !m_caps.webgl;
    for (size_t i = 0; i < scene.meshes.size(); ++i)
        if (!uploadMesh(scene.meshes[i], m_gpu.meshes[i], vcaps, report, error)) return false;
    m_paletteCapacity = std::min(paletteCapacity(m_caps.maxVertexUniformVectors, kReservedVertexVectors), 256);
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind != NodeKind::Mesh || node.object < 0) continue;
        const Mesh& mesh = scene.meshes[node.object];
        if (node.skin >= 0 && m_gpu.meshes[node.object].hasSkin) {
            size_t needed = mesh.boneBatches.empty() ? scene.skins[node.skin].joints.size() : mesh.maxBonesPerBatch;
            for (const BoneBatch& b : mesh.boneBatches) needed = std::max(needed, b.bones.size());
            if (needed > size_t(m_paletteCapacity)) {
                m_gpu.paletteOnCpu.insert(n);
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
        if (projectable(light, m_gpu.textures)) projected.push_back(light.name);
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
        GpuMesh& gpu = m_gpu.meshes[i];
        if (!mesh.tangentFrames || mesh.tangentFrames->size() != mesh.vertexCount || !gpu.hasNormal || !gpu.hasUv)
            continue;
        gpu.tangents = gl::makeBuffer();
        m_state.bindArrayBuffer(gpu.tangents.get());
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(mesh.tangentFrames->size() * sizeof(glm::vec4)),
                     mesh.tangentFrames->data(), GL_STATIC_DRAW);
    }
    // Texture coordinate set 1 is kept only for meshes a material of a node drawing them samples it
    // on (it takes attribute slots from the morph range where there are few: see uv1Location).
    std::vector<bool> namesUv1(scene.meshes.size(), false);
    for (const Node& node : scene.nodes) {
        if (node.kind != NodeKind::Mesh || node.object < 0 || size_t(node.object) >= scene.meshes.size()) continue;
        for (int32_t m : node.materials)
            if (m >= 0 && size_t(m) < scene.materials.size())
                for (const TextureRef& ref : scene.materials[m].textures)
                    if (ref.texture >= 0 && ref.uvSet == 1) namesUv1[node.object] = true;
    }
    for (size_t i = 0; i < scene.meshes.size(); ++i)
        if (!namesUv1[i]) m_gpu.meshes[i].uv1Stream = -1;
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
    i.device = m_caps.device ? m_caps.device->name : std::string();
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
    for (const GpuTexture& t : m_gpu.textures) i.textureBytes += t.gpuBytes;
    return i;
}

unsigned GlRenderer::textureObject(int index) const {
    return index >= 0 && size_t(index) < m_gpu.textures.size() ? m_gpu.textures[index].texture.get() : 0u;
}

void GlRenderer::prepareFrame(const Scene& scene, const Pose& pose, const ViewSettings& view) {
    FrameStats ignored;
    m_dryRun = true;
    m_state.resetContextState();
    buildFrame(scene, pose, view, m_list, ignored);
    execute(scene, pose, m_list, ignored);
    m_dryRun = false;
    if (m_caps.vao) m_state.bindVertexArray(0);
    m_state.disableContextAttributes();
}

FrameStats GlRenderer::draw(const Scene& scene, const Pose& pose, const ViewSettings& view, int width, int height,
                            int x, int y) {
    FrameStats stats;
    const uint64_t callsBefore = gl::callCount();
    const StateChanges changesBefore = m_state.changes();
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
    m_lights.collect(scene, pose, view, m_view, m_gpu.textures);
    stats.fileLightExposure = m_lights.exposure();
    if (view.mode == ViewMode::SkinDiff) {
        const Bounds bounds = sceneBounds(scene, pose);
        const float diagonal = bounds.valid() ? glm::length(bounds.max - bounds.min) : 0.0f;
        m_skinDiffRange = resolvedSkinDiffRange(view.skinDiffRange, diagonal);
    }
    const int highlight = view.highlightNode >= 0 && size_t(view.highlightNode) < scene.nodes.size() ? view.highlightNode : -1;
    // The outline's width in clip units per w (u_outline).
    m_outline = glm::vec2(2.0f * kOutlinePixels / float(std::max(width, 1)),
                          2.0f * kOutlinePixels / float(std::max(height, 1)));
    const bool counting = (view.mode == ViewMode::Overdraw || view.mode == ViewMode::OverdrawAll) &&
                          beginOverdraw(width, height, stats);
    buildFrame(scene, pose, view, m_list, stats);
    if (counting || (view.mode != ViewMode::Overdraw && view.mode != ViewMode::OverdrawAll))
        execute(scene, pose, m_list, stats);
    if (counting) endOverdraw(width, height, x, y, stats);
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
    stats.changes = m_state.changes() - changesBefore;
    return stats;
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
    // A device profile (target/device_profiles.h) holds the renderer to what that device's driver
    // gives: its ES version, its extensions (those the context also has) and its limits. The strict
    // profile is the device `strict-es2`: no extension at all, kStrictLimits.
    const DeviceProfile* device =
        !options.device.empty() ? findDevice(options.device) : options.gles2Strict ? findDevice("strict-es2") : nullptr;
    if (!options.device.empty() && !device) {
        error = "unknown device '" + options.device + "' (the devices: " + deviceNameList() + ")";
        return nullptr;
    }
    const bool strict = device && device->name == "strict-es2";
    const bool gles2 = options.gles2 || strict || (device && device->esVersion < 30);
    const auto hasExtension = [device](const char* name) {
        return gl::hasExtension(name) && (!device || deviceHasExtension(*device, name));
    };
    caps.strict = strict;
    caps.device = device;
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
    caps.derivatives = caps.es3 || hasExtension("GL_OES_standard_derivatives");
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
    caps.maxFragmentUniformVectors = 0;
    caps.maxTextureUnits = units;
    if (device) {
        caps.maxVertexUniformVectors = std::min(caps.maxVertexUniformVectors, device->limits.vertexUniformVectors);
        caps.maxVertexAttribs = std::min(caps.maxVertexAttribs, device->limits.vertexAttribs);
        caps.maxFragmentUniformVectors = std::min(int(fragmentVectors), device->limits.fragmentUniformVectors);
        caps.maxTextureUnits = std::min(int(units), device->limits.textureUnits);
    }
    // Without GL_FRAGMENT_PRECISION_HIGH (which the strict profile treats as undefined) fragment
    // shaders are mediump.
    caps.fragmentHighp = !strict;
    while (glGetError() != GL_NO_ERROR) {
    }
    return std::make_unique<detail::GlRenderer>(options, caps);
}

}  // namespace esv
