#include "scene/skin_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "scene/cpu_reference.h"

namespace esv {
namespace {

constexpr int kMaxSlots = 4;  // one vec4 of indices per vertex, as the CPU path and the shaders read

// Bytes one vertex of `a` occupies in its stream.
size_t attributeBytes(const VertexAttribute& a) {
    return isPacked(a.type) ? 4 : componentSize(a.type) * std::clamp<size_t>(a.components, 1, 4);
}

// Vertices of `stream` that `a` can be read from without leaving the bytes (readAttribute does not
// check; a validated scene holds them all, this keeps an unvalidated one from reading past).
uint32_t readableVertices(const VertexStream& stream, const VertexAttribute& a, uint32_t wanted) {
    uint32_t n = std::min(wanted, stream.count);
    const size_t bytes = attributeBytes(a);
    if (n == 0 || a.offset > stream.bytes.size || bytes > stream.bytes.size - a.offset) return 0;
    if (stream.stride == 0) return n;
    // Vertex v is readable when v * stride <= size - offset - bytes.
    const size_t lastStart = (stream.bytes.size - a.offset - bytes) / stream.stride;
    return static_cast<uint32_t>(std::min<size_t>(n, lastStart + 1));
}

// Why a slot's index names no joint of the skin.
enum class IndexFault : uint8_t {
    None,
    NotABone,          // negative, fractional beyond 65535, or not finite: no bone at all
    NoBatch,           // batch-local index on a vertex no bone batch draws
    OutsideBatch,      // batch-local index past the batch's palette
    BatchJointOutside, // the batch's palette entry names no joint of the skin
    OutsideSkin,       // skin joint index past the skin's joints
};

// One influence slot of a vertex as the CPU skinning path (worldVertices) interprets it.
struct Slot {
    float weight = 0.0f;
    float index = 0.0f;   // as stored (indices arrive as floats)
    int32_t joint = -1;   // skin joint index; -1 when the index names none
    IndexFault fault = IndexFault::None;
    int32_t batch = -1;   // batch the index was resolved through (batch-local meshes)
};

// Reads the influences of one skinned mesh instance. Mirrors worldVertices: set 0 only; a slot for
// each index component (at most 4); a slot past the stored weights takes what the weights before
// it left (1 - running total of the weights the path applied); zero weights are skipped; an index
// is a skin joint, or with batch-local indices a position in the palette of the first bone batch
// whose triangle range (expandTriangles order) uses the vertex.
class InfluenceReader {
public:
    InfluenceReader(const Scene& scene, int node) {
        if (node < 0 || static_cast<size_t>(node) >= scene.nodes.size()) return;
        const Node& n = scene.nodes[node];
        if (n.kind != NodeKind::Mesh || n.skin < 0 || static_cast<size_t>(n.skin) >= scene.skins.size() ||
            n.object < 0 || static_cast<size_t>(n.object) >= scene.meshes.size())
            return;
        m_mesh = &scene.meshes[n.object];
        m_skin = &scene.skins[n.skin];
        m_indices = findAttribute(*m_mesh, Semantic::BoneIndices, 0, &m_indexStream);
        m_weights = findAttribute(*m_mesh, Semantic::BoneWeights, 0, &m_weightStream);
        if (!m_indices || !m_weights) return;
        m_vertices = std::min(readableVertices(*m_indexStream, *m_indices, m_mesh->vertexCount),
                              readableVertices(*m_weightStream, *m_weights, m_mesh->vertexCount));
        if (m_mesh->boneIndicesBatchLocal) vertexBatches();
    }

    const Mesh* mesh() const { return m_mesh; }
    const Skin* skin() const { return m_skin; }
    bool skinned() const { return m_indices && m_weights; }
    uint32_t vertices() const { return m_vertices; }
    const VertexAttribute& weightAttribute() const { return *m_weights; }
    const VertexStream& indexStream() const { return *m_indexStream; }
    const VertexStream& weightStream() const { return *m_weightStream; }
    const VertexAttribute& indexAttribute() const { return *m_indices; }
    // The bone batch a batch-local index of vertex `v` is read through; -1 when none (or the
    // mesh's indices are skin joints).
    int32_t batchOf(uint32_t v) const { return v < m_batchOf.size() ? m_batchOf[v] : -1; }
    int weightComponents() const { return std::clamp<int>(m_weights->components, 1, 4); }

    // Fills the vertex's slots with a non-zero weight; returns how many.
    int read(uint32_t v, Slot (&slots)[kMaxSlots]) const {
        float idx[4], wts[4];
        const int influences = readAttribute(*m_indexStream, *m_indices, v, idx);
        const int weightCount = readAttribute(*m_weightStream, *m_weights, v, wts);
        int count = 0;
        float total = 0.0f;
        for (int k = 0; k < influences && k < kMaxSlots; ++k) {
            const float w = k < weightCount ? wts[k] : 1.0f - total;
            if (w == 0.0f) continue;
            Slot& s = slots[count++];
            s = Slot{};
            s.weight = w;
            s.index = idx[k];
            if (!(idx[k] >= 0.0f && idx[k] < 65536.0f)) {
                s.fault = IndexFault::NotABone;
                continue;
            }
            const int local = static_cast<int>(idx[k]);
            int32_t joint = local;
            if (m_mesh->boneIndicesBatchLocal) {
                const int32_t b = v < m_batchOf.size() ? m_batchOf[v] : -1;
                s.batch = b;
                if (b < 0) {
                    s.fault = IndexFault::NoBatch;
                    continue;
                }
                const std::vector<int32_t>& bones = m_mesh->boneBatches[b].bones;
                if (static_cast<size_t>(local) >= bones.size()) {
                    s.fault = IndexFault::OutsideBatch;
                    continue;
                }
                joint = bones[local];
            }
            if (joint < 0 || static_cast<size_t>(joint) >= m_skin->joints.size()) {
                s.fault = m_mesh->boneIndicesBatchLocal ? IndexFault::BatchJointOutside : IndexFault::OutsideSkin;
                continue;
            }
            s.joint = joint;
            total += w;
        }
        return count;
    }

private:
    // As cpu_reference's vertexBatches: the first batch whose triangles use the vertex.
    void vertexBatches() {
        m_batchOf.assign(m_mesh->vertexCount, -1);
        if (m_mesh->boneBatches.empty()) return;
        std::vector<uint32_t> triangles;
        expandTriangles(*m_mesh, triangles);
        const size_t triangleTotal = triangles.size() / 3;
        for (size_t b = 0; b < m_mesh->boneBatches.size(); ++b) {
            const BoneBatch& batch = m_mesh->boneBatches[b];
            const size_t end = std::min<size_t>(size_t(batch.firstTriangle) + batch.triangleCount, triangleTotal);
            for (size_t t = batch.firstTriangle; t < end; ++t)
                for (int k = 0; k < 3; ++k) {
                    const uint32_t v = triangles[t * 3 + k];
                    if (v < m_batchOf.size() && m_batchOf[v] < 0) m_batchOf[v] = static_cast<int32_t>(b);
                }
        }
    }

    const Mesh* m_mesh = nullptr;
    const Skin* m_skin = nullptr;
    const VertexStream* m_indexStream = nullptr;
    const VertexStream* m_weightStream = nullptr;
    const VertexAttribute* m_indices = nullptr;
    const VertexAttribute* m_weights = nullptr;
    uint32_t m_vertices = 0;
    std::vector<int32_t> m_batchOf;
};

std::string format(const char* fmt, double a, double b = 0.0, double c = 0.0) {
    char text[160];
    std::snprintf(text, sizeof text, fmt, a, b, c);
    return text;
}

// "bone index 9 outside batch of 8", "bone index 3 outside skin of 5 joints", ...
std::string indexProblem(const InfluenceReader& reader, const Slot& s) {
    const Mesh& mesh = *reader.mesh();
    const double joints = static_cast<double>(reader.skin()->joints.size());
    switch (s.fault) {
        case IndexFault::NoBatch:
            return format("bone index %g on a vertex no bone batch draws", s.index);
        case IndexFault::OutsideBatch:
            return format("bone index %g outside batch of %g", s.index,
                          static_cast<double>(mesh.boneBatches[s.batch].bones.size()));
        case IndexFault::BatchJointOutside:
            return format("bone index %g of batch %g names joint %g", s.index, s.batch,
                          mesh.boneBatches[s.batch].bones[static_cast<size_t>(s.index)]) +
                   format(", outside skin of %g joints", joints);
        case IndexFault::OutsideSkin:
            return format("bone index %g outside skin of %g joints", s.index, joints);
        default:
            return format("bone index %g names no bone", s.index);
    }
}

}  // namespace

SkinAnalysis analyzeSkinning(const Scene& scene, int vectorsPerBone, int reservedVectors, int vectorLimit,
                             float sumTolerance) {
    SkinAnalysis result;
    const uint64_t perBone = static_cast<uint64_t>(std::max(vectorsPerBone, 0));
    const int64_t reserved = reservedVectors, limit = vectorLimit;
    auto budget = [&](int node, int mesh, int batch, size_t bones, uint32_t first, uint32_t triangles) {
        BatchBudget b;
        b.node = node;
        b.mesh = mesh;
        b.batch = batch;
        b.bones = static_cast<uint32_t>(bones);
        b.uniformVectors = static_cast<uint32_t>(std::min<uint64_t>(bones * perBone, UINT32_MAX));
        b.firstTriangle = first;
        b.triangleCount = triangles;
        b.overLimit = static_cast<int64_t>(b.uniformVectors) + reserved > limit;
        result.batches.push_back(b);
    };
    auto issue = [&](int node, uint32_t vertex, float sum, int influences, std::string what) {
        if (result.issues.size() >= SkinAnalysis::kMaxIssues) return;
        result.issues.push_back({node, vertex, sum, influences, std::move(what)});
    };

    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const int node = static_cast<int>(i);
        InfluenceReader reader(scene, node);
        if (!reader.mesh()) continue;
        const Mesh& mesh = *reader.mesh();
        const int meshIndex = scene.nodes[i].object;
        // Without batches the renderer binds the whole skin as one palette over every triangle.
        if (mesh.boneBatches.empty()) {
            budget(node, meshIndex, -1, reader.skin()->joints.size(), 0, triangleCount(mesh));
        } else {
            for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
                const BoneBatch& batch = mesh.boneBatches[b];
                budget(node, meshIndex, static_cast<int>(b), batch.bones.size(), batch.firstTriangle,
                       batch.triangleCount);
            }
        }
        if (!reader.skinned()) continue;

        const float tolerance =
            sumTolerance + quantizationHalfStep(reader.weightAttribute()) * static_cast<float>(reader.weightComponents());
        Slot slots[kMaxSlots];
        result.skinnedVertices += reader.vertices();
        for (uint32_t v = 0; v < reader.vertices(); ++v) {
            const int count = reader.read(v, slots);
            float sum = 0.0f;
            int positive = 0;
            for (int k = 0; k < count; ++k) {
                sum += slots[k].weight;
                if (slots[k].weight > 0.0f) ++positive;
            }
            result.maxInfluences = std::max(result.maxInfluences, static_cast<size_t>(positive));
            if (!(std::fabs(sum - 1.0f) <= tolerance)) {
                ++result.badSums;
                issue(node, v, sum, positive, format("weights sum to %.3f", sum));
            }
            for (int k = 0; k < count; ++k) {
                if (slots[k].weight < 0.0f) {
                    ++result.negativeWeights;
                    issue(node, v, sum, positive, format("negative weight %.3f", slots[k].weight));
                }
                if (slots[k].joint < 0) {
                    ++result.badIndices;
                    issue(node, v, sum, positive, indexProblem(reader, slots[k]));
                }
            }
        }
    }
    return result;
}

void jointInfluences(const Scene& scene, int node, int joint, std::vector<VertexInfluence>& out) {
    out.clear();
    InfluenceReader reader(scene, node);
    if (!reader.skinned()) return;
    const std::vector<int32_t>& joints = reader.skin()->joints;
    // The skin may name the node in more than one slot; a slot counts when any of them matches.
    if (std::find(joints.begin(), joints.end(), joint) == joints.end()) return;
    Slot slots[kMaxSlots];
    for (uint32_t v = 0; v < reader.vertices(); ++v) {
        const int count = reader.read(v, slots);
        float weight = 0.0f;
        for (int k = 0; k < count; ++k)
            if (slots[k].weight > 0.0f && slots[k].joint >= 0 && joints[slots[k].joint] == joint)
                weight += slots[k].weight;
        if (weight > 0.0f) out.push_back({v, weight});
    }
}

bool storedInfluences(const Scene& scene, int node, uint32_t vertex, StoredInfluences& out) {
    InfluenceReader reader(scene, node);
    if (!reader.skinned() || vertex >= reader.vertices()) return false;
    const Mesh& mesh = *reader.mesh();
    const std::vector<int32_t>& skinJoints = reader.skin()->joints;
    StoredInfluences result;
    result.node = node;
    result.vertex = vertex;
    float values[4];
    const int indexCount = readAttribute(reader.indexStream(), reader.indexAttribute(), vertex, values);
    result.indices.assign(values, values + std::clamp(indexCount, 0, 4));
    const int weightCount = readAttribute(reader.weightStream(), reader.weightAttribute(), vertex, values);
    result.weights.assign(values, values + std::clamp(weightCount, 0, 4));
    const int32_t batch = mesh.boneIndicesBatchLocal ? reader.batchOf(vertex) : -1;
    for (float index : result.indices) {
        int32_t joint = -1;
        if (index >= 0.0f && index < 65536.0f) {
            const size_t local = static_cast<size_t>(index);
            if (!mesh.boneIndicesBatchLocal)
                joint = static_cast<int32_t>(local);
            else if (batch >= 0 && local < mesh.boneBatches[size_t(batch)].bones.size())
                joint = mesh.boneBatches[size_t(batch)].bones[local];
        }
        if (joint < 0 || static_cast<size_t>(joint) >= skinJoints.size()) joint = -1;
        result.joints.push_back(joint);
        result.jointNodes.push_back(joint >= 0 ? skinJoints[size_t(joint)] : -1);
    }
    if (!mesh.boneBatches.empty()) {
        std::vector<uint32_t> triangles;
        expandTriangles(mesh, triangles);
        const size_t triangleTotal = triangles.size() / 3;
        for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
            const BoneBatch& bb = mesh.boneBatches[b];
            const size_t end = std::min<size_t>(size_t(bb.firstTriangle) + bb.triangleCount, triangleTotal);
            bool uses = false;
            for (size_t t = bb.firstTriangle; t < end && !uses; ++t)
                uses = triangles[t * 3] == vertex || triangles[t * 3 + 1] == vertex || triangles[t * 3 + 2] == vertex;
            if (uses) result.batches.push_back(static_cast<int32_t>(b));
        }
    }
    out = std::move(result);
    return true;
}

std::vector<JointBatch> jointBatches(const Scene& scene, int joint) {
    std::vector<JointBatch> out;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        InfluenceReader reader(scene, static_cast<int>(n));
        if (!reader.mesh()) continue;
        const std::vector<int32_t>& skinJoints = reader.skin()->joints;
        auto names = [&](int32_t j) {
            return j >= 0 && static_cast<size_t>(j) < skinJoints.size() && skinJoints[size_t(j)] == joint;
        };
        const std::vector<BoneBatch>& batches = reader.mesh()->boneBatches;
        if (batches.empty()) {
            for (size_t j = 0; j < skinJoints.size(); ++j)
                if (names(static_cast<int32_t>(j))) {
                    out.push_back({static_cast<int>(n), -1, static_cast<int>(j)});
                    break;
                }
            continue;
        }
        for (size_t b = 0; b < batches.size(); ++b)
            for (size_t p = 0; p < batches[b].bones.size(); ++p)
                if (names(batches[b].bones[p])) {
                    out.push_back({static_cast<int>(n), static_cast<int>(b), static_cast<int>(p)});
                    break;
                }
    }
    return out;
}

namespace {

// One influence set of a mesh: its bone indices and weights with their streams (as influenceSets in
// cpu_reference.cpp finds them).
struct MaskSet {
    const VertexStream* indexStream = nullptr;
    const VertexStream* weightStream = nullptr;
    const VertexAttribute* indices = nullptr;
    const VertexAttribute* weights = nullptr;
};

// The mesh's weights with `mask` applied, one Float32 array per set (index components per vertex).
std::vector<std::vector<float>> maskedWeights(const Mesh& mesh, const Skin& skin, const InfluenceReader& reader,
                                              const std::vector<MaskSet>& sets, const Scene& scene,
                                              const BoneMask& mask) {
    auto muted = [&](int32_t jointNode) {
        if (mask.solo >= 0) return jointNode != mask.solo;
        return std::find(mask.muted.begin(), mask.muted.end(), jointNode) != mask.muted.end();
    };
    std::vector<std::vector<float>> out(sets.size());
    for (size_t set = 0; set < sets.size(); ++set)
        out[set].assign(size_t(mesh.vertexCount) * std::clamp<size_t>(sets[set].indices->components, 1, 4), 0.0f);
    struct Applied {
        size_t set, at;
        float weight;
        bool keep;
    };
    std::vector<Applied> applied;
    float idx[4], wts[4];
    for (uint32_t v = 0; v < reader.vertices(); ++v) {
        applied.clear();
        float total = 0.0f, kept = 0.0f;
        for (size_t set = 0; set < sets.size(); ++set) {
            const int influences = readAttribute(*sets[set].indexStream, *sets[set].indices, v, idx);
            const int weightCount = readAttribute(*sets[set].weightStream, *sets[set].weights, v, wts);
            const size_t width = std::clamp<size_t>(sets[set].indices->components, 1, 4);
            for (int k = 0; k < influences && k < 4; ++k) {
                const float w = k < weightCount ? wts[k] : set == 0 ? 1.0f - total : 0.0f;
                if (w == 0.0f || !(idx[k] >= 0.0f && idx[k] < 65536.0f)) continue;
                int32_t joint = static_cast<int32_t>(idx[k]);
                if (mesh.boneIndicesBatchLocal) {
                    const int32_t b = reader.batchOf(v);
                    if (b < 0 || size_t(joint) >= mesh.boneBatches[size_t(b)].bones.size()) continue;
                    joint = mesh.boneBatches[size_t(b)].bones[size_t(joint)];
                }
                if (joint < 0 || size_t(joint) >= skin.joints.size()) continue;
                const int32_t node = skin.joints[size_t(joint)];
                const bool keep = !muted(node) && node >= 0 && size_t(node) < scene.nodes.size();
                applied.push_back({set, size_t(v) * width + size_t(k), w, keep});
                total += w;
                if (keep) kept += w;
            }
        }
        // The kept weights scaled back to the vertex's sum; none kept: no weight at all.
        const float scale = kept != 0.0f ? total / kept : 0.0f;
        for (const Applied& a : applied)
            if (a.keep) out[a.set][a.at] = a.weight * scale;
    }
    return out;
}

}  // namespace

size_t maskBoneWeights(Scene& scene, const BoneMask& mask) {
    if (mask.empty()) return 0;
    std::vector<uint8_t> done(scene.meshes.size(), 0);
    size_t rewritten = 0;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        InfluenceReader reader(scene, static_cast<int>(n));
        if (!reader.skinned() || reader.vertices() == 0 || done[size_t(scene.nodes[n].object)]) continue;
        done[size_t(scene.nodes[n].object)] = 1;
        Mesh& mesh = scene.meshes[size_t(scene.nodes[n].object)];
        std::vector<MaskSet> sets;
        for (uint8_t set = 0; set < 8; ++set) {
            MaskSet m;
            m.indices = findAttribute(mesh, Semantic::BoneIndices, set, &m.indexStream);
            m.weights = findAttribute(mesh, Semantic::BoneWeights, set, &m.weightStream);
            if (!m.indices || !m.weights) break;
            sets.push_back(m);
        }
        const std::vector<std::vector<float>> weights =
            maskedWeights(mesh, *reader.skin(), reader, sets, scene, mask);
        // Each set's weight attribute leaves its stream; its masked weights come as a stream of their own.
        for (size_t set = 0; set < sets.size(); ++set)
            for (VertexStream& stream : mesh.streams) {
                std::vector<VertexAttribute>& list = stream.attributes;
                list.erase(std::remove_if(list.begin(), list.end(),
                                          [&](const VertexAttribute& a) {
                                              return a.semantic == Semantic::BoneWeights && a.set == set;
                                          }),
                           list.end());
            }
        for (size_t set = 0; set < weights.size(); ++set) {
            VertexStream stream;
            VertexAttribute attribute;
            attribute.semantic = Semantic::BoneWeights;
            attribute.set = static_cast<uint8_t>(set);
            attribute.type = ComponentType::Float32;
            attribute.components = static_cast<uint8_t>(weights[set].size() / std::max<size_t>(mesh.vertexCount, 1));
            stream.stride = uint32_t(attribute.components) * 4u;
            stream.count = mesh.vertexCount;
            std::vector<uint8_t> bytes(weights[set].size() * sizeof(float));
            if (!bytes.empty()) std::memcpy(bytes.data(), weights[set].data(), bytes.size());
            stream.bytes = makeOwnedBytes(std::move(bytes));
            stream.attributes.push_back(attribute);
            mesh.streams.push_back(std::move(stream));
        }
        ++rewritten;
    }
    return rewritten;
}

}  // namespace esv
