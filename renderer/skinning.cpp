// Skinning and morph targets: the active targets of a draw through extra attributes or (ES3) a
// texture of every target's deltas, and each bone batch's palette.
#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

#include "renderer/gl_renderer_impl.h"
#include "scene/cpu_reference.h"

namespace esv::detail {

void GlRenderer::uploadMorphTexture(const Mesh& mesh, GpuMesh& gpu, std::vector<ReportLine>& report) {
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

void GlRenderer::bindMorphTexture(const GpuMesh& gpu, const Pose& pose, size_t n, const MeshProgram& p) {
    glm::vec4 weights[kMaxTextureMorphTargets / 4] = {};
    const std::vector<float>& w = pose.morphWeights[n];
    for (size_t t = 0; t < w.size() && t < size_t(kMaxTextureMorphTargets); ++t) weights[t / 4][int(t % 4)] = w[t];
    m_state.uniform4fv(p.morphTextureWeights, kMaxTextureMorphTargets / 4, glm::value_ptr(weights[0]));
    m_state.uniform4i(p.morphLayout, int(gpu.morphs.size()), gpu.morphRows, gpu.morphWidth, gpu.morphTextureNormals ? 1 : 0);
    if (p.morphBaseScale >= 0) m_state.uniform1f(p.morphBaseScale, morphBaseScaleOf(gpu, w));
    m_state.bindTexture(kUnitMorphDeltas, GL_TEXTURE_2D, gpu.morphDeltas.get());
}

void GlRenderer::activeMorphs(const Pose& pose, size_t n, const GpuMesh& gpu, std::vector<int>& active) const {
    active.clear();
    if (gpu.morphs.empty() || n >= pose.morphWeights.size()) return;
    const std::vector<float>& w = pose.morphWeights[n];
    // The base target adds nothing; it only matters when it makes the base scale other than 1.
    const bool baseScaled = morphBaseScaleOf(gpu, w) != 1.0f;
    for (size_t t = 0; t < gpu.morphs.size() && t < w.size(); ++t)
        if (w[t] != 0.0f && gpu.morphs[t].position >= 0 && (!gpu.morphs[t].isBase || baseScaled))
            active.push_back(int(t));
}

float GlRenderer::morphBaseScaleOf(const GpuMesh& gpu, const std::vector<float>& w) {
    if (!gpu.morphBaseWeighted) return 1.0f;
    float sum = 0.0f;
    for (size_t t = 0; t < gpu.morphs.size() && t < w.size(); ++t)
        if (!gpu.morphs[t].relative) sum += w[t];
    return sum;
}

int GlRenderer::morphCapacity(const GpuMesh& gpu) const {
    // A normal-mapped mesh gives the top of the morph range to its tangent attribute.
    int slots = m_morphSlots;
    if (gpu.tangents) slots = std::min(slots, int(tangentLocation(m_caps.maxVertexAttribs)) - int(kLocMorphBase));
    // Likewise texture coordinate set 1 (below the tangent's with ES 2's 8 attributes: none left).
    if (gpu.uv1Stream >= 0) slots = std::min(slots, int(uv1Location(m_caps.maxVertexAttribs)) - int(kLocMorphBase));
    return std::min(kMaxGpuMorphTargets, gpu.morphNormals ? slots / 2 : slots);
}

void GlRenderer::bindMorphs(const GpuMesh& gpu, const std::vector<int>& active, const Pose& pose, size_t n,
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
                                     static_cast<GLsizei>(m.plan.stride),
                                     uintptr_t(b.offset) + uintptr_t(m_vertexBase) * m.plan.stride);
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

void GlRenderer::batchPalette(const Mesh& mesh, const std::vector<glm::mat4>& palette, size_t b) {
    if (mesh.boneBatches.empty()) {
        m_bones = palette;
        return;
    }
    const BoneBatch& batch = mesh.boneBatches[b];
    m_bones.assign(batch.bones.size(), glm::mat4(1.0f));
    for (size_t i = 0; i < batch.bones.size(); ++i)
        if (batch.bones[i] >= 0 && size_t(batch.bones[i]) < palette.size()) m_bones[i] = palette[batch.bones[i]];
}

float GlRenderer::weightBoneLocal(const Scene& scene, const Node& node, const Mesh& mesh, size_t b, int weightBone) {
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

}  // namespace esv::detail
