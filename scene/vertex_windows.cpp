#include "scene/vertex_windows.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "scene/cpu_reference.h"

namespace esv {
namespace {

constexpr uint32_t kNone = UINT32_MAX;

bool drawsTriangles(Primitive p) {
    return p == Primitive::Triangles || p == Primitive::TriangleStrip || p == Primitive::TriangleFan ||
           p == Primitive::Quads;
}

// The corners of each submesh's elements: triangles (3), line segments (2) or points (1).
struct Elements {
    std::vector<uint32_t> triangles, lines, points;
    std::vector<uint32_t> triangleStart, lineStart, pointStart;

    explicit Elements(const Mesh& mesh) {
        expandTriangles(mesh, triangles, &triangleStart);
        expandLines(mesh, lines, &lineStart);
        expandPoints(mesh, points, &pointStart);
    }
    // Submesh i's corners and the corners per element.
    void of(const Mesh& mesh, size_t i, const uint32_t*& first, size_t& count, uint32_t& per) const {
        const Primitive p = mesh.submeshes[i].primitive;
        auto range = [&](const std::vector<uint32_t>& list, const std::vector<uint32_t>& start, uint32_t k) {
            const size_t elements = list.size() / k;
            const size_t begin = start[i], end = i + 1 < start.size() ? start[i + 1] : elements;
            first = list.data() + begin * k;
            count = (end - begin) * k;
            per = k;
        };
        first = nullptr;
        count = 0;
        per = 1;
        if (drawsTriangles(p)) {
            range(triangles, triangleStart, 3);
        } else if (p == Primitive::Lines || p == Primitive::LineStrip) {
            range(lines, lineStart, 2);
        } else if (p == Primitive::Points) {
            range(points, pointStart, 1);
        }
    }
};

// The stream's vertices in the order `source` names them, as stored.
VertexStream gather(const VertexStream& stream, const std::vector<uint32_t>& source) {
    VertexStream out = stream;
    out.count = static_cast<uint32_t>(source.size());
    std::vector<uint8_t> bytes(size_t(stream.stride) * source.size());
    for (size_t v = 0; v < source.size(); ++v)
        std::memcpy(bytes.data() + v * stream.stride, stream.bytes.data + size_t(source[v]) * stream.stride,
                    stream.stride);
    out.bytes = makeOwnedBytes(std::move(bytes));
    return out;
}

bool holds(const VertexStream& stream, uint32_t vertices) {
    return stream.count >= vertices && stream.bytes.size >= size_t(stream.stride) * vertices;
}

}  // namespace

int64_t largestDrawnIndex(const Mesh& mesh) {
    int64_t largest = -1;
    std::vector<uint32_t> list;
    for (auto expand : {&expandTriangles, &expandLines, &expandPoints}) {
        expand(mesh, list, nullptr);
        for (uint32_t v : list) largest = std::max<int64_t>(largest, v);
    }
    return largest;
}

bool needsVertexWindows(const Mesh& mesh, uint32_t maxVertices) {
    return largestDrawnIndex(mesh) >= int64_t(maxVertices);
}

VertexWindowResult splitVertexWindows(const Mesh& mesh, uint32_t maxVertices) {
    VertexWindowResult result;
    auto fail = [&](const std::string& why) {
        result.ok = false;
        result.error = "mesh '" + mesh.name + "': " + why;
        result.mesh = Mesh();
        return std::move(result);
    };
    if (maxVertices < 3 || maxVertices > 65536) return fail("a window must hold 3 to 65536 vertices");
    for (const VertexStream& stream : mesh.streams)
        if (!holds(stream, mesh.vertexCount))
            return fail("a vertex stream holds fewer vertices than the mesh");
    for (const MorphTarget& morph : mesh.morphTargets)
        if (!holds(morph.stream, mesh.vertexCount))
            return fail("morph target '" + morph.name + "' holds fewer vertices than the mesh");
    if (mesh.tangentFrames && mesh.tangentFrames->size() < mesh.vertexCount)
        return fail("its tangent frames cover fewer vertices than the mesh");

    const Elements elements(mesh);
    // Per input vertex: the window that last copied it and its copy there (stamped, never cleared).
    std::vector<uint32_t> windowOf(mesh.vertexCount, kNone), copyOf(mesh.vertexCount, 0);
    std::vector<uint32_t> source;  // output vertex -> input vertex
    std::vector<uint16_t> indices;
    std::vector<uint8_t> copied(mesh.vertexCount, 0);
    uint32_t window = 0, base = 0;
    bool windowUsed = false;

    Mesh& out = result.mesh;
    for (size_t i = 0; i < mesh.submeshes.size(); ++i) {
        const Submesh& in = mesh.submeshes[i];
        const uint32_t* corners = nullptr;
        size_t count = 0;
        uint32_t per = 1;
        elements.of(mesh, i, corners, count, per);
        const Primitive primitive = drawsTriangles(in.primitive) ? Primitive::Triangles
                                    : in.primitive == Primitive::Lines || in.primitive == Primitive::LineStrip
                                        ? Primitive::Lines
                                        : in.primitive;
        auto open = [&]() {
            Submesh s;
            s.primitive = primitive;
            s.firstIndex = static_cast<uint32_t>(indices.size());
            s.frontFaceCW = in.frontFaceCW;
            s.materialSlot = in.materialSlot;
            s.baseVertex = base;
            out.submeshes.push_back(s);
        };
        open();
        for (size_t e = 0; e < count; e += per) {
            uint32_t fresh = 0;
            for (uint32_t k = 0; k < per; ++k) {
                const uint32_t v = corners[e + k];
                if (v >= mesh.vertexCount)
                    return fail("an index (" + std::to_string(v) + ") names no vertex (" +
                                std::to_string(mesh.vertexCount) + ")");
                // A corner repeated inside the element is counted once.
                bool seen = windowOf[v] == window;
                for (uint32_t j = 0; j < k && !seen; ++j) seen = corners[e + j] == v;
                fresh += seen ? 0 : 1;
            }
            const uint32_t size = static_cast<uint32_t>(source.size()) - base;
            if (windowUsed && size + fresh > maxVertices) {
                // Close the window: later vertices start at the next one's base.
                ++window;
                base = static_cast<uint32_t>(source.size());
                windowUsed = false;
                if (out.submeshes.back().indexCount == 0) {
                    out.submeshes.back().baseVertex = base;
                } else {
                    open();
                }
            }
            windowUsed = true;
            for (uint32_t k = 0; k < per; ++k) {
                const uint32_t v = corners[e + k];
                if (windowOf[v] != window) {
                    if (source.size() >= UINT32_MAX - 1) return fail("too many vertices after copying");
                    windowOf[v] = window;
                    copyOf[v] = static_cast<uint32_t>(source.size());
                    result.summary.duplicatedVertices += copied[v];
                    copied[v] = 1;
                    source.push_back(v);
                }
                indices.push_back(static_cast<uint16_t>(copyOf[v] - base));
            }
            out.submeshes.back().indexCount += per;
        }
    }

    out.name = mesh.name;
    out.vertexCount = static_cast<uint32_t>(source.size());
    out.positionUnpack = mesh.positionUnpack;
    out.boneBatches = mesh.boneBatches;
    out.boneIndicesBatchLocal = mesh.boneIndicesBatchLocal;
    out.maxBonesPerBatch = mesh.maxBonesPerBatch;
    out.defaultMorphWeights = mesh.defaultMorphWeights;
    out.morphBaseWeighted = mesh.morphBaseWeighted;
    out.attributes = mesh.attributes;
    for (const VertexStream& stream : mesh.streams) out.streams.push_back(gather(stream, source));
    for (const MorphTarget& morph : mesh.morphTargets) {
        MorphTarget m = morph;
        m.stream = gather(morph.stream, source);
        out.morphTargets.push_back(std::move(m));
    }
    if (mesh.tangentFrames) {
        auto frames = std::make_shared<std::vector<glm::vec4>>(source.size());
        for (size_t v = 0; v < source.size(); ++v) (*frames)[v] = (*mesh.tangentFrames)[source[v]];
        out.tangentFrames = std::move(frames);
    }
    out.indices.type = ComponentType::UInt16;
    out.indices.count = static_cast<uint32_t>(indices.size());
    {
        std::vector<uint8_t> bytes(indices.size() * 2);
        if (!indices.empty()) std::memcpy(bytes.data(), indices.data(), bytes.size());
        out.indices.bytes = makeOwnedBytes(std::move(bytes));
    }

    result.ok = true;
    result.summary.windows = source.empty() ? 0 : window + 1;
    result.summary.verticesBefore = mesh.vertexCount;
    result.summary.verticesAfter = out.vertexCount;
    result.summary.submeshesBefore = static_cast<uint32_t>(mesh.submeshes.size());
    result.summary.submeshesAfter = static_cast<uint32_t>(out.submeshes.size());
    result.summary.adjacencyDropped = mesh.adjacency.size > 0;
    return result;
}

}  // namespace esv
