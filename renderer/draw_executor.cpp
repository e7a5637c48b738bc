// The draw list's executor: applies the items of renderer/draw_list.h in order through the GL state
// cache. A node's vertex inputs are bound at its first item, a submesh's program, lights, morphs,
// matrices and textures at its first item, and each item sends its palette, its look and one draw.
// It decides nothing the view asks for: that is in the items.
#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

#include "renderer/gl_renderer_impl.h"

namespace esv::detail {

void GlRenderer::execute(const Scene& scene, const Pose& pose, const DrawList& list, FrameStats& stats) {
    for (const DrawPass& pass : list.passes) {
        if (pass.offsetFill) {
            m_state.enable(GL_POLYGON_OFFSET_FILL, true);
            m_state.polygonOffset(1.0f, 1.0f);
        }
        beginPassWrites(pass.writes);
        uint32_t node = ~0u, submesh = ~0u;
        bool begun = false, skip = false;
        for (size_t i = pass.first; i < pass.end; ++i) {
            const DrawItem& item = list.items[i];
            const DrawNode& d = list.nodes[item.drawNode];
            if (item.drawNode != node) {
                node = item.drawNode;
                submesh = ~0u;
                begun = skip = false;
            }
            if (skip) continue;
            if (item.kind == DrawKind::SkinDiff) {
                // Instances that cannot be compared fall through to their grey items.
                skip = !m_dryRun && drawSkinDiff(scene, pose, d.node, stats);
                continue;
            }
            if (!begun) {
                beginNode(scene, pose, d);
                begun = true;
            }
            if (item.submesh != submesh) {
                beginSubmesh(scene, pose, d, item);
                submesh = item.submesh;
            }
            if (!m_dryRun) drawItem(scene, d, item, stats);  // prepareFrame: everything but the draws
        }
        if (pass.offsetOffAfter) m_state.enable(GL_POLYGON_OFFSET_FILL, false);
        endPassWrites(pass.writes);
    }
}

void GlRenderer::beginPassWrites(PassWrites writes) {
    if (writes == PassWrites::Colour) return;
    const bool counting = writes != PassWrites::DepthOnly;
    m_state.colorMask(counting);
    m_state.enable(GL_DEPTH_TEST, writes != PassWrites::CountAll);
    m_state.depthFunc(writes == PassWrites::CountNearest ? GL_EQUAL : GL_LEQUAL);
    m_state.depthMask(writes == PassWrites::DepthOnly);
    m_state.enable(GL_BLEND, counting);
    if (counting) {
        // One unit a fragment: the shader writes 1/255 in red, added to what is there.
        m_state.blendFuncSeparate(GL_ONE, GL_ONE, GL_ONE, GL_ONE);
        m_state.blendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
    }
}

void GlRenderer::endPassWrites(PassWrites writes) {
    if (writes == PassWrites::Colour) return;
    m_state.colorMask(true);
    m_state.enable(GL_DEPTH_TEST, true);
    m_state.depthFunc(GL_LEQUAL);
    m_state.depthMask(true);
    m_state.enable(GL_BLEND, false);
}

void GlRenderer::beginNode(const Scene& scene, const Pose& pose, const DrawNode& d) {
    GpuMesh& gpu = m_gpu.meshes[scene.nodes[d.node].object];
    // Vertex inputs, shared by every program this node draws with (locations are fixed).
    m_vertexBase = gpu.submeshes.empty() ? 0 : gpu.submeshes.front().baseVertex;
    if (d.cpu) {
        bindCpuVertices(scene, pose, d.node, gpu);
    } else {
        bindMesh(gpu, d.gpuSkinned);
    }
    if (d.edges && !gpu.edges) buildEdges(gpu);
    m_state.bindElementBuffer(d.edges ? gpu.edges.get() : gpu.indices.get());
    m_lights.select(glm::vec3(pose.objectWorld[d.node][3]));
}

void GlRenderer::beginSubmesh(const Scene& scene, const Pose& pose, const DrawNode& d, const DrawItem& item) {
    const size_t n = d.node;
    const Node& node = scene.nodes[n];
    const Mesh& mesh = scene.meshes[node.object];
    GpuMesh& gpu = m_gpu.meshes[node.object];
    const GpuSubmesh& s = gpu.submeshes[item.submesh];
    const ShaderFeatures& f = item.features;
    const MeshProgram& p = *item.program;
    if (s.baseVertex != m_vertexBase) moveVertexBase(n, gpu, d.cpu, d.gpuSkinned, s.baseVertex);
    m_state.useProgram(p.program.get());
    m_state.uniformMatrix4fv(p.viewProjection, 1, glm::value_ptr(m_projection * m_view));
    m_state.uniform3fv(p.eye, 1, glm::value_ptr(m_eye));
    m_lights.setUniforms(m_state, p);
    if (f.lightProjection) {
        m_lights.setProjectionUniforms(m_state, p);
        bindTexture(lightProjectionUnit(m_caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100),
                    m_lights.projectionTexture(), m_white);
    }
    if (d.cpu) {
        const glm::mat4 identity(1.0f);
        m_state.uniformMatrix4fv(p.model, 1, glm::value_ptr(identity));
        m_state.uniformMatrix4fv(p.positionUnpack, 1, glm::value_ptr(identity));
    } else {
        bindMorphs(gpu, f.morphTexture ? std::vector<int>() : d.morphs, pose, n, f, p);
        if (f.morphTexture) bindMorphTexture(gpu, pose, n, p);
        m_state.uniformMatrix4fv(p.model, 1, glm::value_ptr(pose.objectWorld[n]));
        m_state.uniformMatrix4fv(p.positionUnpack, 1, glm::value_ptr(mesh.positionUnpack));
        const GLuint tangentLoc = tangentLocation(m_caps.maxVertexAttribs);
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
    // Texture coordinate set 1, only for programs that read it (the CPU path's vertex arrays too:
    // it comes from the stored stream either way).
    if (gpu.uv1Stream >= 0) {
        const GLuint uv1Loc = uv1Location(m_caps.maxVertexAttribs);
        if (f.uv1Maps) {
            const GpuStream& s1 = gpu.streams[size_t(gpu.uv1Stream)];
            m_state.bindArrayBuffer(s1.buffer.get());
            m_state.enableAttribute(uv1Loc, true);
            m_state.attributePointer(uv1Loc, gpu.uv1.size, gpu.uv1.glType, gpu.uv1.normalized,
                                     static_cast<GLsizei>(s1.plan.stride),
                                     uintptr_t(gpu.uv1.offset) + uintptr_t(m_vertexBase) * s1.plan.stride);
        } else {
            m_state.enableAttribute(uv1Loc, false);
        }
    }
    bindMaterialTextures(scene, pose, materialOf(scene, node, s.materialSlot), f, p);
}

void GlRenderer::drawItem(const Scene& scene, const DrawNode& d, const DrawItem& item, FrameStats& stats) {
    const Node& node = scene.nodes[d.node];
    const Mesh& mesh = scene.meshes[node.object];
    const GpuMesh& gpu = m_gpu.meshes[node.object];
    const GpuSubmesh& s = gpu.submeshes[item.submesh];
    const ShaderFeatures& f = item.features;
    const MeshProgram& p = *item.program;
    if (item.batch >= 0) {
        batchPalette(mesh, d.palette, size_t(item.batch));
        const size_t uploaded = std::min<size_t>(m_bones.size(), size_t(f.boneCount));
        if (uploaded > 0) {
            const uint64_t before = m_state.changes().uniformBytes;
            m_state.uniformMatrix4fv(p.bones, static_cast<GLsizei>(uploaded), glm::value_ptr(m_bones[0]));
            m_state.countPaletteBytes(m_state.changes().uniformBytes - before);
        }
        if (item.countsBatch) {
            ++stats.boneBatchesDrawn;
            stats.paletteVectorsMax = std::max(stats.paletteVectorsMax, uint32_t(uploaded) * kVectorsPerBone);
        }
    }
    if (f.skinned && f.mode == ViewMode::Weights) m_state.uniform1f(p.weightBone, item.weightBone);
    if (p.pointSize >= 0) m_state.uniform1f(p.pointSize, item.pointSize);
    if (item.look == DrawLook::Count) {
        setCulling(materialOf(scene, node, s.materialSlot));  // back faces culled are never shaded
    } else if (item.look == DrawLook::Material) {
        setMaterial(scene, node, s.materialSlot, p, glm::vec3(item.color));
    } else {
        setFlat(p, item.color, materialOf(scene, node, s.materialSlot));
        if (item.look == DrawLook::Outline) {
            // The hull is the back faces, whatever the material culls, a little behind the
            // surface so a two-sided face seen from behind is not covered.
            m_state.enable(GL_CULL_FACE, true);
            m_state.cullFace(GL_FRONT);
            m_state.enable(GL_POLYGON_OFFSET_FILL, true);
            m_state.polygonOffset(2.0f, 8.0f);
            m_state.uniform2fv(p.outline, 1, glm::value_ptr(m_outline));
        }
    }
    const GLuint indices = item.indices == DrawIndices::Primitives ? gpu.primitives.get()
                           : item.indices == DrawIndices::Edges    ? gpu.edges.get()
                                                                   : gpu.indices.get();
    m_state.bindElementBuffer(indices);
    glDrawElements(item.mode, static_cast<GLsizei>(item.count), item.indexType, reinterpret_cast<const void*>(item.offset));
    ++stats.drawCalls;
    stats.triangles += item.triangles;
    stats.lines += item.lines;
    stats.points += item.points;
    checkGl("glDrawElements", stats.glErrors);
}

}  // namespace esv::detail
