// Scene upload and attribute setup: each vertex stream with one glBufferData, the stored index
// list (or one expanded from strips), lines and points, edge lists on first use; attribute
// pointers in a VAO per (mesh, skinned) where vertex arrays exist, and the CPU path's streams.
#include <algorithm>

#include "renderer/gl_renderer_impl.h"
#include "scene/cpu_reference.h"

namespace esv::detail {

bool GlRenderer::uploadMesh(const Mesh& mesh, GpuMesh& gpu, const VertexCaps& vcaps, std::vector<ReportLine>& report,
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
            if (b.semantic == Semantic::TexCoord && b.set == 1 && gpu.uv1Stream < 0) {
                gpu.uv1Stream = int(gpu.streams.size());
                gpu.uv1 = b;
            }
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
        g.baseVertex = mesh.submeshes[i].baseVertex;
        gpu.windowed |= g.baseVertex != 0;
        gpu.submeshes.push_back(g);
    }
    gpu.triangles = triangle;
    gpu.triangleList = expanded;
    if (!uploadPrimitives(mesh, gpu, report, error)) return false;

    // A windowed mesh's indices count from its submesh's base vertex.
    if (gpu.windowed)
        for (const GpuSubmesh& g : gpu.submeshes)
            for (size_t i = size_t(g.firstTriangle) * 3; i < size_t(g.firstTriangle + g.triangleCount) * 3;
                 ++i)
                expanded[i] -= g.baseVertex;
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

bool GlRenderer::uploadPrimitives(const Mesh& mesh, GpuMesh& gpu, std::vector<ReportLine>& report,
                                  std::string& error) {
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
    for (const GpuSubmesh& g : gpu.submeshes)
        if (g.mode != GL_TRIANGLES)
            for (size_t i = g.firstElement; i < size_t(g.firstElement) + g.elementCount; ++i)
                lines[i] -= g.baseVertex;
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

void GlRenderer::buildEdges(GpuMesh& gpu) {
    std::vector<uint32_t> edges;
    edges.reserve(gpu.triangleList.size() * 2);
    for (const GpuSubmesh& g : gpu.submeshes) {
        const size_t end = std::min(size_t(g.firstTriangle + g.triangleCount) * 3, gpu.triangleList.size());
        for (size_t t = size_t(g.firstTriangle) * 3; t + 2 < end; t += 3)
            for (int e = 0; e < 3; ++e) {
                edges.push_back(gpu.triangleList[t + e] - g.baseVertex);
                edges.push_back(gpu.triangleList[t + (e + 1) % 3] - g.baseVertex);
            }
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

void GlRenderer::bindStreams(const GpuMesh& gpu, bool skinned) {
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
            m_state.attributePointer(GLuint(loc), b.size, b.glType, b.normalized,
                                     static_cast<GLsizei>(s.plan.stride),
                                     uintptr_t(b.offset) + uintptr_t(m_vertexBase) * s.plan.stride);
        }
    }
}

void GlRenderer::bindMesh(GpuMesh& gpu, bool skinned) {
    if (m_caps.vao) {
        gl::VertexArray& vao = gpu.vao[skinned ? 1 : 0];
        if (!vao) {
            vao = gl::makeVertexArray();
            m_state.bindVertexArray(vao.get());
            bindStreams(gpu, skinned);
        } else {
            m_state.bindVertexArray(vao.get());
            if (gpu.windowed) bindStreams(gpu, skinned);  // to this submesh's base (the cache keeps it cheap)
        }
    } else {
        bindStreams(gpu, skinned);
    }
    // Missing skin inputs read as zero weights (the shader then uses the model matrix).
    if (skinned) m_state.attributeValue(kLocBoneWeights, 0, 0, 0, 0);
    m_state.attributeValue(kLocColor, 1, 1, 1, 1);
}

void GlRenderer::bindCpuVertices(const Scene& scene, const Pose& pose, size_t n, GpuMesh& gpu) {
    CpuNode& c = m_gpu.cpuNodes[n];
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
    m_state.bindArrayBuffer(c.positions.get());
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_positions.size() * sizeof(glm::vec3)),
                 m_positions.data(), GL_STREAM_DRAW);
    if (gpu.hasNormal) {
        m_state.bindArrayBuffer(c.normals.get());
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_normals.size() * sizeof(glm::vec3)),
                     m_normals.data(), GL_STREAM_DRAW);
    }
    pointCpuVertices(n, gpu, setup);
    if (!gpu.hasColor) m_state.attributeValue(kLocColor, 1, 1, 1, 1);
}

void GlRenderer::pointCpuVertices(size_t n, const GpuMesh& gpu, bool setup) {
    if (!setup && !gpu.windowed) return;  // the vertex array holds them
    const CpuNode& c = m_gpu.cpuNodes[n];
    if (setup)
        for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
    const uintptr_t base = m_vertexBase;
    for (const GpuStream& s : gpu.streams) {
        for (const AttributeBinding& b : s.plan.attributes) {
            if (b.set != 0 || (b.semantic != Semantic::Color && b.semantic != Semantic::TexCoord)) continue;
            const GLuint loc = b.semantic == Semantic::Color ? kLocColor : kLocUv;
            m_state.bindArrayBuffer(s.buffer.get());
            m_state.enableAttribute(loc, true);
            m_state.attributePointer(loc, b.size, b.glType, b.normalized, static_cast<GLsizei>(s.plan.stride),
                                     uintptr_t(b.offset) + base * s.plan.stride);
        }
    }
    m_state.bindArrayBuffer(c.positions.get());
    m_state.enableAttribute(kLocPosition, true);
    m_state.attributePointer(kLocPosition, 3, GL_FLOAT, false, 0, base * sizeof(glm::vec3));
    if (gpu.hasNormal) {
        m_state.bindArrayBuffer(c.normals.get());
        m_state.enableAttribute(kLocNormal, true);
        m_state.attributePointer(kLocNormal, 3, GL_FLOAT, false, 0, base * sizeof(glm::vec3));
    }
}

void GlRenderer::moveVertexBase(size_t n, GpuMesh& gpu, bool cpu, bool skinned, uint32_t base) {
    m_vertexBase = base;
    if (cpu) {
        if (m_caps.vao) m_state.bindVertexArray(m_gpu.cpuNodes[n].vao.get());
        pointCpuVertices(n, gpu, false);
    } else {
        bindMesh(gpu, skinned);
    }
}

}  // namespace esv::detail
