// Debug views and capture: the vertices the GPU computes read back through transform feedback,
// the SkinDiff view that compares them with the CPU reference, and the overlay drawn over the
// scene (skeleton, bind pose, joint axes, normal and tangent lines, one joint's influence).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>

#include <glm/gtc/type_ptr.hpp>

#include "renderer/gl_renderer_impl.h"
#include "scene/cpu_reference.h"

namespace esv::detail {
namespace {

// Debug overlay colours, chosen apart from the heat ramp and from each other.
const glm::vec4 kBoneColor(1.0f, 0.85f, 0.2f, 1.0f);        // skeleton lines
const glm::vec4 kJointColor(1.0f, 0.35f, 0.1f, 1.0f);       // skeleton joints
const glm::vec4 kBindBoneColor(0.1f, 0.8f, 0.75f, 1.0f);    // bind-pose skeleton lines (cyan)
const glm::vec4 kBindJointColor(0.1f, 0.6f, 0.95f, 1.0f);   // bind-pose skeleton joints
const glm::vec4 kAxisColors[3] = {{1.0f, 0.1f, 0.1f, 1.0f}, {0.1f, 1.0f, 0.1f, 1.0f}, {0.15f, 0.3f, 1.0f, 1.0f}};

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

}  // namespace

bool GlRenderer::captureVertices(const Scene& scene, const Pose& pose, int n, std::vector<glm::vec3>& positions,
                                 std::vector<glm::vec3>& normals, std::string& error) {
    if (!m_caps.es3) {
        error = "capturing vertices needs transform feedback (ES3)";
        return false;
    }
    if (n < 0 || size_t(n) >= scene.nodes.size() || scene.nodes[n].kind != NodeKind::Mesh || scene.nodes[n].object < 0) {
        error = "node " + std::to_string(n) + " is not a mesh instance";
        return false;
    }
    std::vector<int> active;
    activeMorphs(pose, size_t(n), m_gpu.meshes[scene.nodes[n].object], active);
    const bool morphTexture = useMorphTexture(m_gpu.meshes[scene.nodes[n].object], active);
    if (m_gpu.paletteOnCpu.count(size_t(n)) ||
        (!morphTexture && int(active.size()) > morphCapacity(m_gpu.meshes[scene.nodes[n].object]))) {
        error = "node '" + scene.nodes[n].name + "' is drawn from CPU-computed vertices";
        return false;
    }
    const Node& node = scene.nodes[n];
    const Mesh& mesh = scene.meshes[node.object];
    GpuMesh& gpu = m_gpu.meshes[node.object];
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
    m_vertexBase = 0;  // every vertex, by its number in the mesh
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
    if (!checkGl("transform feedback capture", errors)) error = "GL errors while capturing vertices: " + takeGlErrors();
    return error.empty();
}

void GlRenderer::drawOverlay(const Scene& scene, const Pose& pose, const ViewSettings& view, FrameStats& stats) {
    if (!m_overlay.program) {
        std::string error;
        m_state.programChanged();
        if (!buildOverlayProgram(m_caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100, m_overlay, error)) {
            if (m_reported.insert(0x4000000000000000ull).second) stats.notes.push_back(error);
            return;
        }
        m_overlayBuffer = gl::makeBuffer();
    }
    // Depth-tested lines on the surface; the rest shows through the mesh.
    std::vector<OverlayVertex> surfaceLines, lines, points, influence, markers, annotationPoints;
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
    // The app's annotations join the line sets of their depth mode and add at most one draw of
    // their points.
    const Annotations* extra = view.annotations && !view.annotations->empty() ? view.annotations : nullptr;
    if (extra) {
        auto pulled = [&](OverlayVertex v) {
            if (!extra->throughSurfaces) v.position += (m_eye - v.position) * (1.0f / 200.0f);
            return v;
        };
        std::vector<OverlayVertex>& set = extra->throughSurfaces ? lines : surfaceLines;
        for (const OverlayVertex& v : extra->lines) set.push_back(pulled(v));
        for (const OverlayVertex& v : extra->points) annotationPoints.push_back(pulled(v));
    }
    m_state.useProgram(m_overlay.program.get());
    m_state.uniformMatrix4fv(m_overlay.viewProjection, 1, glm::value_ptr(m_projection * m_view));
    // A vertex array of its own keeps the overlay's attributes between frames: without one, every
    // other attribute must be switched off each frame.
    if (m_caps.vao && !m_overlayVao) {
        m_overlayVao = gl::makeVertexArray();
        m_state.bindVertexArray(m_overlayVao.get());
        for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
    } else if (m_caps.vao) {
        m_state.bindVertexArray(m_overlayVao.get());
    } else {
        for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
    }
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
    if (extra) drawSet(annotationPoints, GL_POINTS, !extra->throughSurfaces, extra->pointSize);
    m_state.enable(GL_DEPTH_TEST, true);
}

template <typename Emit>
void GlRenderer::bindPoseSkeleton(const Scene& scene, Emit&& emit) {
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

bool GlRenderer::drawSkinDiff(const Scene& scene, const Pose& pose, size_t n, FrameStats& stats) {
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
    const GpuMesh& gpu = m_gpu.meshes[scene.nodes[n].object];
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
        if (gpu.windowed) {
            m_state.bindArrayBuffer(m_skinDiffPositions.get());
            m_state.attributePointer(kLocPosition, 3, GL_FLOAT, false, 0,
                                     uintptr_t(s.baseVertex) * sizeof(glm::vec3));
            m_state.bindArrayBuffer(m_skinDiffColors.get());
            m_state.attributePointer(kLocColor, 3, GL_FLOAT, false, 0,
                                     uintptr_t(s.baseVertex) * sizeof(glm::vec3));
        }
        setCulling(materialOf(scene, scene.nodes[n], s.materialSlot));
        glDrawElements(GL_TRIANGLES, GLsizei(s.triangleCount * 3), gpu.indexType,
                       reinterpret_cast<const void*>(uintptr_t(s.firstTriangle) * 3 * gpu.indexSize));
        ++stats.drawCalls;
        stats.triangles += s.triangleCount;
        checkGl("SkinDiff draw", stats.glErrors);
    }
    if (gpu.windowed) {  // the shared vertex array starts at vertex 0 for the next node
        m_state.bindArrayBuffer(m_skinDiffPositions.get());
        m_state.attributePointer(kLocPosition, 3, GL_FLOAT, false, 0, 0);
        m_state.bindArrayBuffer(m_skinDiffColors.get());
        m_state.attributePointer(kLocColor, 3, GL_FLOAT, false, 0, 0);
    }
    return true;
}

}  // namespace esv::detail
