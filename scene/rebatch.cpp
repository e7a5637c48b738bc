#include "scene/rebatch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "scene/cpu_reference.h"

namespace esv {
namespace {

constexpr uint32_t kMaxInfluences = 4;  // one vec4 of indices and one of weights per vertex
constexpr uint32_t kMaxBudget = 65536;  // UInt16 local indices; the reference ignores indices >= 65536
constexpr uint32_t kNone = UINT32_MAX;

void storeLE(uint8_t* p, uint32_t value, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}

void storeFloat(uint8_t* p, float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    storeLE(p, bits, 4);
}

size_t attributeBytes(const VertexAttribute& a) {
    return isPacked(a.type) ? 4 : componentSize(a.type) * std::clamp<size_t>(a.components, 1, 4);
}

bool isBoneAttribute(const VertexAttribute& a) {
    return a.semantic == Semantic::BoneIndices || a.semantic == Semantic::BoneWeights;
}

bool isSkinned(const Mesh& mesh) {
    return findAttribute(mesh, Semantic::BoneIndices, 0, nullptr) &&
           findAttribute(mesh, Semantic::BoneWeights, 0, nullptr);
}

bool drawsTriangles(Primitive p) {
    return p == Primitive::Triangles || p == Primitive::TriangleStrip || p == Primitive::TriangleFan ||
           p == Primitive::Quads;
}

// The mesh's triangles in the order BoneBatch::firstTriangle counts them (the shared expansion),
// with per-submesh counts; fails on anything that draws but is not triangles, and on bad indices.
struct TriangleList {
    std::vector<uint32_t> corners;           // 3 per triangle, vertex indices
    std::vector<uint32_t> submeshTriangles;  // per submesh
};

bool listTriangles(const Mesh& mesh, TriangleList& out, std::string& error) {
    const bool indexed = mesh.indices.count > 0;
    const ComponentType type = mesh.indices.type;
    if (indexed && type != ComponentType::UInt8 && type != ComponentType::UInt16 &&
        type != ComponentType::UInt32) {
        error = std::string("index type ") + componentTypeName(type) + " is not an unsigned integer";
        return false;
    }
    for (size_t i = 0; i < mesh.submeshes.size(); ++i) {
        const Submesh& s = mesh.submeshes[i];
        if (!drawsTriangles(s.primitive) && s.indexCount > 0) {
            error = "submesh " + std::to_string(i) + " draws " + primitiveName(s.primitive) +
                    "; only triangle primitives can be re-batched";
            return false;
        }
    }
    std::vector<uint32_t> starts;
    expandTriangles(mesh, out.corners, &starts);
    const uint32_t total = static_cast<uint32_t>(out.corners.size() / 3);
    for (size_t i = 0; i < starts.size(); ++i)
        out.submeshTriangles.push_back((i + 1 < starts.size() ? starts[i + 1] : total) - starts[i]);
    // The expansion reads an index outside the data (or past the vertices) as all ones.
    for (size_t c = 0; c < out.corners.size(); ++c)
        if (out.corners[c] >= mesh.vertexCount) {
            error = "triangle " + std::to_string(c / 3) + " names vertex " +
                    (out.corners[c] == UINT32_MAX
                         ? std::string("outside the index data")
                         : std::to_string(out.corners[c]) + " of " + std::to_string(mesh.vertexCount));
            return false;
        }
    return true;
}

// A vertex's influences after merging: joint indices into the skin and their weights.
struct Influences {
    uint8_t count = 0;
    int32_t joint[kMaxInfluences] = {0, 0, 0, 0};
    float weight[kMaxInfluences] = {0, 0, 0, 0};
};

// One BoneIndices/BoneWeights pair of the same set.
struct InfluenceSet {
    const VertexStream* indexStream = nullptr;
    const VertexAttribute* indices = nullptr;
    const VertexStream* weightStream = nullptr;
    const VertexAttribute* weights = nullptr;
};

class InfluenceReader {
public:
    InfluenceReader(const Mesh& mesh, const RebatchOptions& options, RebatchSummary& report)
        : m_mesh(mesh), m_options(options), m_report(report) {
        // Sets in order of their set number, so set 0 keeps the first slots.
        int maxSet = 0;
        for (const VertexStream& st : mesh.streams)
            for (const VertexAttribute& a : st.attributes)
                if (isBoneAttribute(a)) maxSet = std::max<int>(maxSet, a.set);
        for (int set = 0; set <= maxSet; ++set) {
            InfluenceSet s;
            s.indices = findAttribute(mesh, Semantic::BoneIndices, static_cast<uint8_t>(set), &s.indexStream);
            s.weights =
                findAttribute(mesh, Semantic::BoneWeights, static_cast<uint8_t>(set), &s.weightStream);
            if (s.indices && s.weights) m_sets.push_back(s);
        }
    }

    // Reads vertex `v`, whose batch-local indices (if any) select from `batch` (nullptr: none).
    Influences read(uint32_t v, const BoneBatch* batch) {
        std::vector<Pair>& pairs = m_pairs;
        pairs.clear();
        float storedSum = 0.0f, tolerance = m_options.weightTolerance;
        float idx[4], wts[4];
        for (const InfluenceSet& s : m_sets) {
            const int influences = readAttribute(*s.indexStream, *s.indices, v, idx);
            const int weightCount = readAttribute(*s.weightStream, *s.weights, v, wts);
            tolerance += quantizationHalfStep(*s.weights) * static_cast<float>(weightCount);
            float total = 0.0f;
            for (int k = 0; k < influences; ++k) {
                // As the reference: a missing stored weight takes what the earlier ones left.
                const float w = k < weightCount ? wts[k] : 1.0f - total;
                if (w == 0.0f) continue;
                int32_t joint = -1;
                if (idx[k] >= 0.0f && idx[k] < 65536.0f) {
                    const int local = static_cast<int>(idx[k]);
                    joint = local;
                    if (m_mesh.boneIndicesBatchLocal)
                        joint = batch && static_cast<size_t>(local) < batch->bones.size()
                                    ? batch->bones[local]
                                    : -1;
                }
                // A non-finite weight would turn the whole vertex into NaN; it names no usable bone.
                if (joint < 0 || !std::isfinite(w) ||
                    (m_options.skinJoints > 0 && static_cast<size_t>(joint) >= m_options.skinJoints)) {
                    ++m_report.invalidInfluences;
                    continue;
                }
                total += w;
                storedSum += w;
                size_t j = 0;
                while (j < pairs.size() && pairs[j].joint != joint) ++j;
                if (j == pairs.size()) pairs.push_back({joint, 0.0f});
                pairs[j].weight += w;
            }
        }
        // Merged influences may cancel to zero; they then name no bone.
        pairs.erase(
            std::remove_if(pairs.begin(), pairs.end(), [](const Pair& p) { return p.weight == 0.0f; }),
            pairs.end());
        size_t n = pairs.size();
        bool normalise = false;
        if (n > kMaxInfluences) {
            std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
                return std::fabs(a.weight) > std::fabs(b.weight);
            });
            n = kMaxInfluences;
            ++m_report.influencesReduced;
            normalise = true;
        }
        if (n > 0 && std::fabs(storedSum - 1.0f) > tolerance) {
            ++m_report.weightsRenormalised;
            normalise = true;
        }
        float keptSum = 0.0f;
        for (size_t i = 0; i < n; ++i) keptSum += pairs[i].weight;
        if (!(std::fabs(keptSum) > 1e-6f)) normalise = false;  // nothing sensible to scale to 1
        Influences out;
        out.count = static_cast<uint8_t>(n);
        for (size_t i = 0; i < n; ++i) {
            out.joint[i] = pairs[i].joint;
            out.weight[i] = normalise ? pairs[i].weight / keptSum : pairs[i].weight;
        }
        return out;
    }

    // Influence slots the output needs: all stored slots, at most 4.
    uint32_t slots() const {
        uint32_t total = 0;
        for (const InfluenceSet& s : m_sets) total += std::clamp<uint32_t>(s.indices->components, 1, 4);
        return std::clamp<uint32_t>(total, 1, kMaxInfluences);
    }

private:
    struct Pair {
        int32_t joint;
        float weight;
    };
    const Mesh& m_mesh;
    const RebatchOptions& m_options;
    RebatchSummary& m_report;
    std::vector<InfluenceSet> m_sets;
    std::vector<Pair> m_pairs;  // scratch, reused per vertex
};

// The batch each vertex's batch-local indices select from, as the reference path finds it: the first
// batch whose triangle range holds a triangle using the vertex.
std::vector<int32_t> vertexBatches(const Mesh& mesh, const TriangleList& triangles) {
    std::vector<int32_t> batchOf(mesh.vertexCount, -1);
    const size_t count = triangles.corners.size() / 3;
    for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
        const BoneBatch& batch = mesh.boneBatches[b];
        const size_t end = std::min<size_t>(size_t(batch.firstTriangle) + batch.triangleCount, count);
        for (size_t t = batch.firstTriangle; t < end; ++t)
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = triangles.corners[t * 3 + k];
                if (batchOf[v] < 0) batchOf[v] = static_cast<int32_t>(b);
            }
    }
    return batchOf;
}

bool checkStream(const VertexStream& stream, uint32_t vertexCount, const std::string& where,
                 std::string& error) {
    if (vertexCount == 0) return true;
    if (stream.count < vertexCount) {
        error = where + " holds " + std::to_string(stream.count) + " vertices, the mesh has " +
                std::to_string(vertexCount);
        return false;
    }
    for (const VertexAttribute& a : stream.attributes) {
        const uint64_t needed = uint64_t(vertexCount - 1) * stream.stride + a.offset + attributeBytes(a);
        if (needed > stream.bytes.size) {
            error = where + " / " + semanticName(a.semantic) + ": " + std::to_string(vertexCount) +
                    " vertices need " + std::to_string(needed) + " bytes, the stream holds " +
                    std::to_string(stream.bytes.size);
            return false;
        }
    }
    return true;
}

uint32_t align4(uint64_t v) {
    return static_cast<uint32_t>((v + 3) & ~uint64_t(3));
}

// A copy of `stream` holding, for each output vertex, the bytes of its source vertex.
VertexStream remapStream(const VertexStream& stream, const std::vector<uint32_t>& source) {
    VertexStream out;
    out.stride = stream.stride;
    out.count = static_cast<uint32_t>(source.size());
    out.attributes = stream.attributes;
    std::vector<uint8_t> bytes(size_t(out.stride) * source.size(), 0);
    // The last vertex may end before the stride does; copy only what the stream holds.
    for (size_t i = 0; i < source.size(); ++i) {
        const size_t from = size_t(source[i]) * stream.stride;
        const size_t length =
            from < stream.bytes.size ? std::min<size_t>(stream.stride, stream.bytes.size - from) : 0;
        std::memcpy(bytes.data() + i * out.stride, stream.bytes.data + from, length);
    }
    out.bytes = makeOwnedBytes(std::move(bytes));
    return out;
}

}  // namespace

bool fitsBoneBudget(const Mesh& mesh, uint32_t maxBonesPerBatch, size_t skinJoints) {
    if (!isSkinned(mesh)) return true;
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& a : s.attributes)
            if (isBoneAttribute(a) && a.set > 0) return false;  // more than 4 influences possible
    if (mesh.boneBatches.empty()) return skinJoints > 0 && skinJoints <= maxBonesPerBatch;
    if (!mesh.boneIndicesBatchLocal) return false;  // a batch palette cannot serve skin joint indices
    for (const BoneBatch& b : mesh.boneBatches)
        if (b.bones.size() > maxBonesPerBatch) return false;
    return true;
}

namespace {
// One rewrite's working state: the influences of every used vertex (in dense ids into joints),
// then the output vertices, their local bone indices, the triangles' corners and the batches.
struct Rebatch {
    std::vector<Influences> influences;
    std::vector<int32_t> joints;  // every joint used, sorted; influences then hold dense ids into it
    uint32_t usedVertices = 0;
    std::vector<uint32_t> source;        // output vertex -> source vertex
    std::vector<uint16_t> localIndices;  // output vertex -> 4 local bone indices
    std::vector<uint32_t> outCorners;
    std::vector<BoneBatch> batches;
};

// The unchanged mesh and its summary, for a mesh that already fits the budget.
void keepAsIs(const Mesh& mesh, RebatchResult& result) {
    RebatchSummary& report = result.summary;
    result.ok = true;
    result.mesh = mesh;
    report.triangles = triangleCount(mesh);
    report.verticesAfter = mesh.vertexCount;
    report.batchesAfter = report.batchesBefore;
    for (const BoneBatch& b : mesh.boneBatches)
        report.largestBatch = std::max(report.largestBatch, static_cast<uint32_t>(b.bones.size()));
}

// The streams and morph targets checked to hold every vertex, then the triangles listed; false
// with error (without the mesh name) otherwise.
bool listInput(const Mesh& mesh, TriangleList& triangles, std::string& error) {
    for (size_t i = 0; i < mesh.streams.size(); ++i)
        if (!checkStream(mesh.streams[i], mesh.vertexCount, "stream " + std::to_string(i), error))
            return false;
    for (size_t i = 0; i < mesh.morphTargets.size(); ++i)
        if (!checkStream(mesh.morphTargets[i].stream, mesh.vertexCount, "morph target " + std::to_string(i),
                         error))
            return false;
    if (!listTriangles(mesh, triangles, error)) return false;
    if (triangles.corners.size() / 3 > UINT32_MAX / 3) {
        error = "too many triangles";
        return false;
    }
    return true;
}

// Influences of every used vertex, in skin joint indices, read once; then renumbered densely.
void readInfluences(const Mesh& mesh, const TriangleList& triangles, InfluenceReader& reader, Rebatch& r) {
    const std::vector<int32_t> batchOf =
        mesh.boneIndicesBatchLocal ? vertexBatches(mesh, triangles) : std::vector<int32_t>();
    std::vector<Influences>& influences = r.influences;
    std::vector<int32_t>& joints = r.joints;
    influences.resize(mesh.vertexCount);
    std::vector<uint8_t> used(mesh.vertexCount, 0);
    for (uint32_t v : triangles.corners) {
        if (used[v]) continue;
        used[v] = 1;
        const BoneBatch* batch =
            !batchOf.empty() && batchOf[v] >= 0 ? &mesh.boneBatches[batchOf[v]] : nullptr;
        influences[v] = reader.read(v, batch);
        joints.insert(joints.end(), influences[v].joint, influences[v].joint + influences[v].count);
    }
    std::sort(joints.begin(), joints.end());
    joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
    for (size_t v = 0; v < influences.size(); ++v)
        for (uint8_t k = 0; k < influences[v].count; ++k)
            influences[v].joint[k] = static_cast<int32_t>(
                std::lower_bound(joints.begin(), joints.end(), influences[v].joint[k]) - joints.begin());
    for (uint8_t u : used) r.usedVertices += u;
}

// Greedy batching of the triangles in order into r.batches, vertices copied per batch they
// appear in; fails (error without the mesh name) on a triangle over the budget or too many vertices.
bool batchTriangles(const TriangleList& triangles, size_t triangleTotal, uint32_t vertexCount,
                    uint32_t maxBonesPerBatch, Rebatch& r, std::string& error) {
    const std::vector<Influences>& influences = r.influences;
    // Per joint: its local index in the batch stamped with the batch number; per source vertex:
    // its output copy stamped likewise, so nothing is cleared between batches.
    std::vector<uint32_t> jointBatch(r.joints.size(), kNone), jointLocal(r.joints.size(), 0);
    std::vector<uint32_t> vertexBatch(vertexCount, kNone), vertexCopy(vertexCount, 0);
    std::vector<BoneBatch>& batches = r.batches;
    r.outCorners.resize(triangles.corners.size());
    r.source.reserve(r.usedVertices);
    r.localIndices.reserve(size_t(r.usedVertices) * kMaxInfluences);
    for (size_t t = 0; t < triangleTotal; ++t) {
        const uint32_t* corner = &triangles.corners[t * 3];
        int32_t fresh[3 * kMaxInfluences];
        uint32_t freshCount = 0;
        auto gather = [&](uint32_t batchNumber) {
            freshCount = 0;
            for (int k = 0; k < 3; ++k) {
                const Influences& in = influences[corner[k]];
                for (uint8_t i = 0; i < in.count; ++i) {
                    const int32_t j = in.joint[i];
                    if (jointBatch[j] == batchNumber) continue;
                    if (std::find(fresh, fresh + freshCount, j) == fresh + freshCount)
                        fresh[freshCount++] = j;
                }
            }
        };
        uint32_t current = batches.empty() ? kNone : static_cast<uint32_t>(batches.size() - 1);
        if (current != kNone) gather(current);
        if (current == kNone || batches[current].bones.size() + freshCount > maxBonesPerBatch) {
            current = static_cast<uint32_t>(batches.size());
            batches.emplace_back();
            batches.back().firstTriangle = static_cast<uint32_t>(t);
            gather(current);
            if (freshCount > maxBonesPerBatch) {
                error = "triangle " + std::to_string(t) + " uses " + std::to_string(freshCount) +
                        " bones, more than the budget of " + std::to_string(maxBonesPerBatch) + " per batch";
                return false;
            }
        }
        BoneBatch& batch = batches[current];
        for (uint32_t i = 0; i < freshCount; ++i) {
            jointBatch[fresh[i]] = current;
            jointLocal[fresh[i]] = static_cast<uint32_t>(batch.bones.size());
            batch.bones.push_back(r.joints[fresh[i]]);
        }
        ++batch.triangleCount;
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = corner[k];
            if (vertexBatch[v] != current) {
                if (r.source.size() >= UINT32_MAX - 1) {
                    error = "too many vertices after duplication";
                    return false;
                }
                vertexBatch[v] = current;
                vertexCopy[v] = static_cast<uint32_t>(r.source.size());
                r.source.push_back(v);
                const Influences& in = influences[v];
                for (uint32_t i = 0; i < kMaxInfluences; ++i)
                    r.localIndices.push_back(i < in.count ? static_cast<uint16_t>(jointLocal[in.joint[i]])
                                                          : 0);
            }
            r.outCorners[t * 3 + k] = vertexCopy[v];
        }
    }
    return true;
}

// Submeshes (one triangle list per input submesh, in the same order) and the new indices.
void writeTriangles(const Mesh& mesh, const TriangleList& triangles, const Rebatch& r, Mesh& out) {
    uint32_t firstTriangle = 0;
    for (size_t i = 0; i < mesh.submeshes.size(); ++i) {
        const Submesh& s = mesh.submeshes[i];
        Submesh o;
        o.primitive = drawsTriangles(s.primitive) ? Primitive::Triangles : s.primitive;
        o.firstIndex = firstTriangle * 3;
        o.indexCount = triangles.submeshTriangles[i] * 3;
        o.frontFaceCW = s.frontFaceCW;
        o.materialSlot = s.materialSlot;
        out.submeshes.push_back(o);
        firstTriangle += triangles.submeshTriangles[i];
    }

    // Indices: 16-bit while every index stays below the all-ones value.
    out.indices.type = out.vertexCount <= 0xFFFFu ? ComponentType::UInt16 : ComponentType::UInt32;
    out.indices.count = static_cast<uint32_t>(r.outCorners.size());
    const size_t size = componentSize(out.indices.type);
    std::vector<uint8_t> bytes(r.outCorners.size() * size);
    for (size_t i = 0; i < r.outCorners.size(); ++i) storeLE(bytes.data() + i * size, r.outCorners[i], size);
    out.indices.bytes = makeOwnedBytes(std::move(bytes));
}

// How the new influence set is stored: slots of indexType (size indexSize bytes) and of floats.
struct InfluenceLayout {
    uint32_t slots;
    ComponentType indexType;
    size_t indexSize;
};

// One stream repacked for the output vertices: its non-bone attributes as stored, plus the new
// influence set when host. False (o untouched) when nothing of it is left.
bool repackStream(const VertexStream& stream, bool host, const InfluenceLayout& l, const Rebatch& r,
                  uint32_t vertexCount, VertexStream& o) {
    std::vector<std::pair<VertexAttribute, uint32_t>> kept;  // new attribute, old offset
    uint64_t offset = 0;
    for (const VertexAttribute& a : stream.attributes) {
        if (isBoneAttribute(a)) continue;
        VertexAttribute n = a;
        n.offset = static_cast<uint32_t>(offset);
        kept.emplace_back(n, a.offset);
        offset = align4(offset + attributeBytes(a));
    }
    uint32_t indexOffset = 0, weightOffset = 0;
    if (host) {
        indexOffset = static_cast<uint32_t>(offset);
        offset = align4(offset + l.indexSize * l.slots);
        weightOffset = static_cast<uint32_t>(offset);
        offset += 4 * l.slots;
    }
    if (kept.empty() && !host) return false;  // held only influence sets that are now merged
    o.stride = align4(offset);
    o.count = vertexCount;
    std::vector<uint8_t> bytes(size_t(o.stride) * r.source.size(), 0);
    for (size_t v = 0; v < r.source.size(); ++v) {
        uint8_t* dst = bytes.data() + v * o.stride;
        const uint8_t* src = stream.bytes.data + size_t(r.source[v]) * stream.stride;
        for (const auto& [attribute, oldOffset] : kept)
            std::memcpy(dst + attribute.offset, src + oldOffset, attributeBytes(attribute));
        if (host) {
            const Influences& in = r.influences[r.source[v]];
            for (uint32_t i = 0; i < l.slots; ++i) {
                storeLE(dst + indexOffset + i * l.indexSize, r.localIndices[v * kMaxInfluences + i],
                        l.indexSize);
                storeFloat(dst + weightOffset + i * 4, i < in.count ? in.weight[i] : 0.0f);
            }
        }
    }
    for (auto& k : kept) o.attributes.push_back(k.first);
    if (host) {
        VertexAttribute idx;
        idx.semantic = Semantic::BoneIndices;
        idx.type = l.indexType;
        idx.components = static_cast<uint8_t>(l.slots);
        idx.offset = indexOffset;
        VertexAttribute wts;
        wts.semantic = Semantic::BoneWeights;
        wts.type = ComponentType::Float32;
        wts.components = static_cast<uint8_t>(l.slots);
        wts.offset = weightOffset;
        o.attributes.push_back(idx);
        o.attributes.push_back(wts);
    }
    o.bytes = makeOwnedBytes(std::move(bytes));
    return true;
}
}  // namespace

RebatchResult rebatchBones(const Mesh& mesh, uint32_t maxBonesPerBatch, const RebatchOptions& options) {
    RebatchResult result;
    RebatchSummary& report = result.summary;
    report.verticesBefore = mesh.vertexCount;
    report.batchesBefore = static_cast<uint32_t>(mesh.boneBatches.size());
    auto fail = [&](std::string error) {
        result.ok = false;
        result.error = "mesh '" + mesh.name + "': " + error;
        result.mesh = Mesh{};
        return std::move(result);
    };
    if (maxBonesPerBatch == 0 || maxBonesPerBatch > kMaxBudget)
        return fail("a budget of " + std::to_string(maxBonesPerBatch) + " bones per batch is outside 1.." +
                    std::to_string(kMaxBudget));

    if (fitsBoneBudget(mesh, maxBonesPerBatch, options.skinJoints)) {
        keepAsIs(mesh, result);
        return result;
    }

    std::string error;
    TriangleList triangles;
    if (!listInput(mesh, triangles, error)) return fail(error);
    const size_t triangleTotal = triangles.corners.size() / 3;
    report.triangles = static_cast<uint32_t>(triangleTotal);

    InfluenceReader reader(mesh, options, report);
    Rebatch r;
    readInfluences(mesh, triangles, reader, r);
    report.droppedVertices = mesh.vertexCount - r.usedVertices;
    if (!batchTriangles(triangles, triangleTotal, mesh.vertexCount, maxBonesPerBatch, r, error))
        return fail(error);

    Mesh& out = result.mesh;
    out.name = mesh.name;
    out.vertexCount = static_cast<uint32_t>(r.source.size());
    out.positionUnpack = mesh.positionUnpack;
    out.boneIndicesBatchLocal = true;
    out.maxBonesPerBatch = maxBonesPerBatch;
    out.defaultMorphWeights = mesh.defaultMorphWeights;
    writeTriangles(mesh, triangles, r, out);

    // Streams: every non-bone attribute repacked as stored; the new influence set goes where
    // BoneIndices set 0 was.
    const VertexStream* boneHost = nullptr;
    findAttribute(mesh, Semantic::BoneIndices, 0, &boneHost);
    const ComponentType indexType = maxBonesPerBatch <= 256 ? ComponentType::UInt8 : ComponentType::UInt16;
    const InfluenceLayout layout{reader.slots(), indexType, componentSize(indexType)};
    for (const VertexStream& stream : mesh.streams) {
        VertexStream o;
        if (repackStream(stream, &stream == boneHost, layout, r, out.vertexCount, o))
            out.streams.push_back(std::move(o));
    }

    for (const MorphTarget& target : mesh.morphTargets) {
        MorphTarget t;
        t.name = target.name;
        t.relative = target.relative;
        t.stream = remapStream(target.stream, r.source);
        out.morphTargets.push_back(std::move(t));
    }

    out.boneBatches = std::move(r.batches);
    report.changed = true;
    report.batchesAfter = static_cast<uint32_t>(out.boneBatches.size());
    for (const BoneBatch& b : out.boneBatches)
        report.largestBatch = std::max(report.largestBatch, static_cast<uint32_t>(b.bones.size()));
    report.verticesAfter = out.vertexCount;
    report.duplicatedVertices = out.vertexCount - r.usedVertices;
    report.adjacencyDropped = !mesh.adjacency.empty();
    result.ok = true;
    return result;
}

size_t rebatchSceneBones(Scene& scene, uint32_t maxBonesPerBatch) {
    // Joint count per mesh from the skinned nodes drawing it; 0 when they disagree or none says.
    std::vector<int64_t> joints(scene.meshes.size(), -1);
    std::vector<uint8_t> skinned(scene.meshes.size(), 0);
    for (const Node& n : scene.nodes) {
        if (n.kind != NodeKind::Mesh || n.object < 0 || static_cast<size_t>(n.object) >= scene.meshes.size())
            continue;
        if (n.skin < 0 || static_cast<size_t>(n.skin) >= scene.skins.size()) continue;
        const int64_t count = static_cast<int64_t>(scene.skins[n.skin].joints.size());
        skinned[n.object] = 1;
        int64_t& j = joints[n.object];
        j = j < 0 || j == count ? count : 0;
    }
    size_t rewritten = 0;
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        if (!skinned[m]) continue;
        RebatchOptions options;
        options.skinJoints = static_cast<size_t>(std::max<int64_t>(joints[m], 0));
        RebatchResult r = rebatchBones(scene.meshes[m], maxBonesPerBatch, options);
        if (!r.ok) {
            scene.warn(r.error + "; left as it was (bone batches may exceed the palette)");
            continue;
        }
        if (!r.summary.changed) continue;
        const RebatchSummary& rep = r.summary;
        const std::string name = "mesh '" + r.mesh.name + "': ";
        scene.info(name + "re-batched for " + std::to_string(maxBonesPerBatch) +
                   " bones per batch: " + std::to_string(rep.batchesBefore) + " -> " +
                   std::to_string(rep.batchesAfter) + " batches, " + std::to_string(rep.verticesBefore) +
                   " -> " + std::to_string(rep.verticesAfter) + " vertices (" +
                   std::to_string(rep.duplicatedVertices) + " duplicated)");
        if (rep.influencesReduced > 0)
            scene.warn(name + std::to_string(rep.influencesReduced) +
                       " vertices had more than 4 bone influences; kept the 4 strongest");
        if (rep.weightsRenormalised > 0)
            scene.warn(name + std::to_string(rep.weightsRenormalised) +
                       " vertices had bone weights not summing to 1; renormalised");
        if (rep.invalidInfluences > 0)
            scene.warn(name + std::to_string(rep.invalidInfluences) +
                       " bone influences named no bone; dropped");
        if (rep.adjacencyDropped) scene.info(name + "adjacency data dropped by re-batching");
        scene.meshes[m] = std::move(r.mesh);
        ++rewritten;
    }
    return rewritten;
}

}  // namespace esv
