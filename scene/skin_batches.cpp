#include "scene/skin_batches.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "scene/cpu_reference.h"

namespace esv {
namespace {

constexpr int kMaxComponents = 4;

struct SkinAttributes {
    const VertexStream* indexStream = nullptr;
    const VertexAttribute* index = nullptr;
    const VertexStream* weightStream = nullptr;
    const VertexAttribute* weight = nullptr;
    size_t indexStreamSlot = 0;
};

bool findSkinAttributes(const Mesh& mesh, SkinAttributes& a) {
    a.index = findAttribute(mesh, Semantic::BoneIndices, 0, &a.indexStream);
    a.weight = findAttribute(mesh, Semantic::BoneWeights, 0, &a.weightStream);
    if (!a.index || !a.weight) return false;
    a.indexStreamSlot = static_cast<size_t>(a.indexStream - mesh.streams.data());
    return true;
}

// Writes `value` as one bone index component of `type` at `p`.
bool storeIndex(uint8_t* p, ComponentType type, uint32_t value) {
    switch (type) {
        case ComponentType::Float32: {
            const float f = static_cast<float>(value);
            std::memcpy(p, &f, 4);
            return true;
        }
        case ComponentType::UInt8:
            if (value > 0xFF) return false;
            p[0] = static_cast<uint8_t>(value);
            return true;
        case ComponentType::Int8:
            if (value > 0x7F) return false;
            p[0] = static_cast<uint8_t>(value);
            return true;
        case ComponentType::UInt16:
        case ComponentType::Int16: {
            if (value > (type == ComponentType::UInt16 ? 0xFFFFu : 0x7FFFu)) return false;
            const uint16_t v = static_cast<uint16_t>(value);
            std::memcpy(p, &v, 2);
            return true;
        }
        case ComponentType::UInt32:
        case ComponentType::Int32:
            std::memcpy(p, &value, 4);
            return true;
        default:
            return false;
    }
}

// Copies vertex `from` of `stream` to vertex `to` of `bytes` (same stride).
void copyVertex(const VertexStream& stream, uint32_t from, std::vector<uint8_t>& bytes, uint32_t to) {
    if (from >= stream.count) return;
    std::memcpy(bytes.data() + size_t(to) * stream.stride, stream.bytes.data + size_t(from) * stream.stride,
                stream.stride);
}

}  // namespace

uint32_t bonesPerDraw(const Mesh& mesh) {
    SkinAttributes a;
    if (!findSkinAttributes(mesh, a)) return 0;
    if (!mesh.boneBatches.empty()) {
        uint32_t most = mesh.maxBonesPerBatch;
        for (const BoneBatch& b : mesh.boneBatches) most = std::max<uint32_t>(most, uint32_t(b.bones.size()));
        return most;
    }
    uint32_t highest = 0;
    float idx[4], w[4];
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
        const int n = readAttribute(*a.indexStream, *a.index, v, idx);
        readAttribute(*a.weightStream, *a.weight, v, w);
        for (int c = 0; c < n && c < kMaxComponents; ++c)
            if (w[c] > 0.0f && idx[c] >= 0.0f) highest = std::max(highest, uint32_t(idx[c]) + 1);
    }
    return highest;
}

bool rebatchMesh(const Mesh& mesh, uint32_t maxBones, Mesh& out, RebatchReport& report, std::string& error) {
    report = {};
    report.verticesBefore = mesh.vertexCount;
    SkinAttributes a;
    if (!findSkinAttributes(mesh, a)) {
        error = "mesh '" + mesh.name + "' has no bone indices and weights";
        return false;
    }
    if (maxBones == 0) {
        error = "a palette of 0 bones";
        return false;
    }
    if (a.index->normalized || isPacked(a.index->type)) {
        error = "mesh '" + mesh.name + "': bone indices stored as " + componentTypeName(a.index->type) +
                " cannot be rewritten";
        return false;
    }
    const uint32_t vertexCount = mesh.vertexCount;
    std::vector<uint32_t> triangles, starts;
    expandTriangles(mesh, triangles, &starts);
    const uint32_t triangleCount = static_cast<uint32_t>(triangles.size() / 3);

    // Global joints of each vertex's influences (batch-local indices resolved through the batch
    // whose triangles first use the vertex, as the reference path does).
    std::vector<int32_t> owner(vertexCount, -1);
    if (mesh.boneIndicesBatchLocal)
        for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
            const BoneBatch& batch = mesh.boneBatches[b];
            const uint32_t end = std::min(triangleCount, batch.firstTriangle + batch.triangleCount);
            for (uint32_t t = batch.firstTriangle; t < end; ++t)
                for (int k = 0; k < 3; ++k) {
                    const uint32_t v = triangles[size_t(t) * 3 + k];
                    if (v < vertexCount && owner[v] < 0) owner[v] = int32_t(b);
                }
        }
    std::vector<std::array<int32_t, kMaxComponents>> joints(vertexCount);
    const int components = std::min<int>(a.index->components, kMaxComponents);
    for (uint32_t v = 0; v < vertexCount; ++v) {
        float idx[4], w[4];
        readAttribute(*a.indexStream, *a.index, v, idx);
        readAttribute(*a.weightStream, *a.weight, v, w);
        joints[v].fill(-1);
        for (int c = 0; c < components; ++c) {
            if (!(w[c] > 0.0f) || idx[c] < 0.0f) continue;
            int32_t j = static_cast<int32_t>(idx[c] + 0.5f);
            if (mesh.boneIndicesBatchLocal) {
                if (owner[v] < 0) continue;
                const BoneBatch& batch = mesh.boneBatches[owner[v]];
                if (j >= int32_t(batch.bones.size())) continue;
                j = batch.bones[j];
            }
            joints[v][c] = j;
        }
    }

    // Greedy partition of the triangle list.
    std::vector<BoneBatch> batches;
    std::vector<int32_t> current;
    uint32_t batchStart = 0;
    auto bonesOf = [&](uint32_t t, std::vector<int32_t>& bones) {
        bones.clear();
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = triangles[size_t(t) * 3 + k];
            if (v >= vertexCount) continue;
            for (int32_t j : joints[v])
                if (j >= 0 && std::find(bones.begin(), bones.end(), j) == bones.end()) bones.push_back(j);
        }
    };
    std::vector<int32_t> bones, merged;
    for (uint32_t t = 0; t < triangleCount; ++t) {
        bonesOf(t, bones);
        if (bones.size() > maxBones) {
            error = "mesh '" + mesh.name + "': triangle " + std::to_string(t) + " alone needs " +
                    std::to_string(bones.size()) + " bones, more than the palette of " + std::to_string(maxBones);
            return false;
        }
        merged = current;
        for (int32_t j : bones)
            if (std::find(merged.begin(), merged.end(), j) == merged.end()) merged.push_back(j);
        if (merged.size() > maxBones) {
            batches.push_back({current, batchStart, t - batchStart});
            batchStart = t;
            current = bones;
        } else {
            current.swap(merged);
        }
    }
    if (triangleCount > batchStart || batches.empty()) batches.push_back({current, batchStart, triangleCount - batchStart});

    // New vertices: one per (batch, original vertex) used.
    std::vector<uint32_t> source;  // new vertex -> original vertex
    std::vector<uint32_t> batchOfNew;
    std::vector<uint32_t> newIndices(triangles.size());
    std::vector<uint32_t> stamp(vertexCount, UINT32_MAX), mapped(vertexCount, 0);
    for (uint32_t b = 0; b < batches.size(); ++b) {
        const BoneBatch& batch = batches[b];
        for (size_t i = size_t(batch.firstTriangle) * 3; i < size_t(batch.firstTriangle + batch.triangleCount) * 3; ++i) {
            const uint32_t v = triangles[i];
            if (v >= vertexCount) {
                newIndices[i] = 0;
                continue;
            }
            if (stamp[v] != b) {
                stamp[v] = b;
                mapped[v] = static_cast<uint32_t>(source.size());
                source.push_back(v);
                batchOfNew.push_back(b);
            }
            newIndices[i] = mapped[v];
        }
    }
    const uint32_t newCount = static_cast<uint32_t>(source.size());

    out = Mesh();
    out.name = mesh.name;
    out.vertexCount = newCount;
    out.positionUnpack = mesh.positionUnpack;
    out.defaultMorphWeights = mesh.defaultMorphWeights;
    for (size_t s = 0; s < mesh.streams.size(); ++s) {
        const VertexStream& in = mesh.streams[s];
        std::vector<uint8_t> bytes(size_t(in.stride) * newCount);
        for (uint32_t v = 0; v < newCount; ++v) copyVertex(in, source[v], bytes, v);
        if (s == a.indexStreamSlot) {
            const size_t size = componentSize(a.index->type);
            for (uint32_t v = 0; v < newCount; ++v) {
                const std::vector<int32_t>& local = batches[batchOfNew[v]].bones;
                for (int c = 0; c < components; ++c) {
                    const int32_t j = joints[source[v]][c];
                    const auto it = std::find(local.begin(), local.end(), j);
                    const uint32_t l = j >= 0 && it != local.end() ? uint32_t(it - local.begin()) : 0u;
                    if (!storeIndex(bytes.data() + size_t(v) * in.stride + a.index->offset + c * size, a.index->type, l)) {
                        error = "mesh '" + mesh.name + "': bone index type " + componentTypeName(a.index->type) +
                                " cannot hold local index " + std::to_string(l);
                        return false;
                    }
                }
            }
        }
        VertexStream stream = in;
        stream.count = newCount;
        stream.bytes = makeOwnedBytes(std::move(bytes));
        out.streams.push_back(std::move(stream));
    }
    for (const MorphTarget& target : mesh.morphTargets) {
        MorphTarget t = target;
        std::vector<uint8_t> bytes(size_t(target.stream.stride) * newCount);
        for (uint32_t v = 0; v < newCount; ++v) copyVertex(target.stream, source[v], bytes, v);
        t.stream.count = newCount;
        t.stream.bytes = makeOwnedBytes(std::move(bytes));
        out.morphTargets.push_back(std::move(t));
    }

    // Indices and submeshes: triangle lists over the same triangle order.
    const bool wide = newCount > 0xFFFF;
    std::vector<uint8_t> indexBytes(newIndices.size() * (wide ? 4 : 2));
    for (size_t i = 0; i < newIndices.size(); ++i) {
        if (wide) {
            std::memcpy(indexBytes.data() + 4 * i, &newIndices[i], 4);
        } else {
            const uint16_t v16 = static_cast<uint16_t>(newIndices[i]);
            std::memcpy(indexBytes.data() + 2 * i, &v16, 2);
        }
    }
    out.indices.type = wide ? ComponentType::UInt32 : ComponentType::UInt16;
    out.indices.count = static_cast<uint32_t>(newIndices.size());
    out.indices.bytes = makeOwnedBytes(std::move(indexBytes));
    for (size_t i = 0; i < mesh.submeshes.size(); ++i) {
        Submesh s = mesh.submeshes[i];
        const uint32_t first = starts[i];
        const uint32_t end = i + 1 < starts.size() ? starts[i + 1] : triangleCount;
        s.primitive = Primitive::Triangles;
        s.firstIndex = first * 3;
        s.indexCount = (end - first) * 3;
        s.stripLengths.clear();
        s.primitiveRestart = false;
        out.submeshes.push_back(std::move(s));
    }
    out.boneBatches = std::move(batches);
    out.boneIndicesBatchLocal = true;
    for (const BoneBatch& b : out.boneBatches) out.maxBonesPerBatch = std::max<uint32_t>(out.maxBonesPerBatch, uint32_t(b.bones.size()));

    report.batches = static_cast<uint32_t>(out.boneBatches.size());
    report.maxBones = out.maxBonesPerBatch;
    report.verticesAfter = newCount;
    return true;
}

void rebatchScene(Scene& scene, uint32_t maxBones) {
    for (Mesh& mesh : scene.meshes) {
        const uint32_t needed = bonesPerDraw(mesh);
        if (needed <= maxBones) continue;
        Mesh rebuilt;
        RebatchReport r;
        std::string error;
        if (!rebatchMesh(mesh, maxBones, rebuilt, r, error)) {
            scene.warn("re-batching failed: " + error);
            continue;
        }
        scene.warn("mesh '" + mesh.name + "': " + std::to_string(needed) + " bones per draw exceed the palette of " +
                   std::to_string(maxBones) + "; re-batched into " + std::to_string(r.batches) + " batches (at most " +
                   std::to_string(r.maxBones) + " bones), " + std::to_string(r.verticesAfter - std::min(r.verticesAfter, r.verticesBefore)) +
                   " vertices duplicated");
        mesh = std::move(rebuilt);
    }
}

}  // namespace esv
