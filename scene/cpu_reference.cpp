#include "scene/cpu_reference.h"
#include "scene/tangents.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace esv {
namespace {

// Little-endian loads assembled byte by byte, so unaligned offsets and big-endian hosts both work;
// floats go through memcpy of their bit pattern.
uint16_t loadU16(const uint8_t* p) {
    return static_cast<uint16_t>(p[0] | p[1] << 8);
}
uint32_t loadU32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t loadU64(const uint8_t* p) {
    return uint64_t(loadU32(p)) | uint64_t(loadU32(p + 4)) << 32;
}

template <typename T>
T load(const uint8_t* p) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "scalar");
    T v;
    if constexpr (sizeof(T) == 1) {
        std::memcpy(&v, p, 1);
    } else if constexpr (sizeof(T) == 2) {
        const uint16_t bits = loadU16(p);
        std::memcpy(&v, &bits, 2);
    } else if constexpr (sizeof(T) == 4) {
        const uint32_t bits = loadU32(p);
        std::memcpy(&v, &bits, 4);
    } else {
        const uint64_t bits = loadU64(p);
        std::memcpy(&v, &bits, 8);
    }
    return v;
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = (h >> 15) & 1u, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    float magnitude;
    if (exponent == 0) {
        magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal
    } else if (exponent == 31) {
        magnitude = mantissa ? std::nanf("") : INFINITY;
    } else {
        magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
    }
    return sign ? -magnitude : magnitude;
}

// GLES 3 normalisation rules: signed c / (2^(b-1) - 1) clamped to -1; unsigned c / (2^b - 1).
float readComponent(const uint8_t* p, ComponentType type, bool normalized) {
    switch (type) {
        case ComponentType::Float32:
            return load<float>(p);
        case ComponentType::Float16:
            return halfToFloat(load<uint16_t>(p));
        case ComponentType::Float64:
            return static_cast<float>(load<double>(p));
        case ComponentType::Fixed16_16:
            return static_cast<float>(load<int32_t>(p) / 65536.0);  // exact in double
        case ComponentType::Int8: {
            float v = load<int8_t>(p);
            return normalized ? std::max(v / 127.0f, -1.0f) : v;
        }
        case ComponentType::UInt8: {
            float v = load<uint8_t>(p);
            return normalized ? v / 255.0f : v;
        }
        case ComponentType::Int16: {
            float v = load<int16_t>(p);
            return normalized ? std::max(v / 32767.0f, -1.0f) : v;
        }
        case ComponentType::UInt16: {
            float v = load<uint16_t>(p);
            return normalized ? v / 65535.0f : v;
        }
        case ComponentType::Int32: {
            double v = load<int32_t>(p);
            return static_cast<float>(normalized ? std::max(v / 2147483647.0, -1.0) : v);
        }
        case ComponentType::UInt32: {
            double v = load<uint32_t>(p);
            return static_cast<float>(normalized ? v / 4294967295.0 : v);
        }
        default:
            return 0.0f;
    }
}

int32_t signExtend(uint32_t value, int bits) {
    const uint32_t sign = 1u << (bits - 1);
    return static_cast<int32_t>((value ^ sign) - sign);
}

}  // namespace

float quantizationHalfStep(const VertexAttribute& a) {
    if (!a.normalized) return 0.0f;
    switch (a.type) {
        case ComponentType::Int8:
            return 0.5f / 127.0f;
        case ComponentType::UInt8:
            return 0.5f / 255.0f;
        case ComponentType::Int16:
            return 0.5f / 32767.0f;
        case ComponentType::UInt16:
            return 0.5f / 65535.0f;
        case ComponentType::Int2_10_10_10:
            return 0.5f / 511.0f;
        case ComponentType::UInt2_10_10_10:
            return 0.5f / 1023.0f;
        default:
            return 0.0f;
    }
}

int readAttribute(const VertexStream& stream, const VertexAttribute& attribute, uint32_t vertex,
                  float out[4]) {
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    const uint8_t* p = stream.bytes.data + size_t(vertex) * stream.stride + attribute.offset;
    const int components = std::clamp<int>(attribute.components, 1, 4);
    float v[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    if (isPacked(attribute.type)) {
        const uint32_t word = load<uint32_t>(p);
        const uint32_t fields[4] = {word & 0x3FFu, (word >> 10) & 0x3FFu, (word >> 20) & 0x3FFu, word >> 30};
        for (int c = 0; c < 4; ++c) {
            const int bits = c == 3 ? 2 : 10;
            if (attribute.type == ComponentType::Int2_10_10_10) {
                const float s = static_cast<float>(signExtend(fields[c], bits));
                v[c] = attribute.normalized ? std::max(s / float((1 << (bits - 1)) - 1), -1.0f) : s;
            } else {
                const float u = static_cast<float>(fields[c]);
                v[c] = attribute.normalized ? u / float((1 << bits) - 1) : u;
            }
        }
        if (components < 4) v[3] = 1.0f;
    } else {
        const size_t size = componentSize(attribute.type);
        for (int c = 0; c < components; ++c)
            v[c] = readComponent(p + c * size, attribute.type, attribute.normalized);
    }
    switch (attribute.swizzle) {
        case Swizzle::BGRA:
            std::swap(v[0], v[2]);
            break;             // memory b,g,r,a
        case Swizzle::ABGR: {  // memory a,b,g,r
            const float a = v[0], b = v[1], g = v[2], r = v[3];
            v[0] = r;
            v[1] = g;
            v[2] = b;
            v[3] = a;
            break;
        }
        default:
            break;
    }
    for (int c = 0; c < components; ++c) out[c] = v[c];
    if (attribute.swizzle != Swizzle::Identity) out[3] = v[3];
    return components;
}

const VertexAttribute* findAttribute(const Mesh& mesh, Semantic semantic, uint8_t set,
                                     const VertexStream** stream) {
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& a : s.attributes)
            if (a.semantic == semantic && a.set == set) {
                if (stream) *stream = &s;
                return &a;
            }
    return nullptr;
}

namespace {

// Index `i` of the mesh's index data (or `i` itself for a non-indexed mesh); UINT32_MAX when `i`
// lies outside the index data, so an unvalidated range reads nothing.
uint32_t meshIndex(const Mesh& mesh, uint64_t i) {
    if (mesh.indices.count == 0) return i < mesh.vertexCount ? static_cast<uint32_t>(i) : UINT32_MAX;
    if (i >= mesh.indices.count) return UINT32_MAX;
    const size_t size = componentSize(mesh.indices.type);
    if ((i + 1) * size > mesh.indices.bytes.size) return UINT32_MAX;
    const uint8_t* p = mesh.indices.bytes.data + i * size;
    switch (mesh.indices.type) {
        case ComponentType::UInt8:
            return p[0];
        case ComponentType::UInt16:
            return loadU16(p);
        default:
            return loadU32(p);
    }
}

// Per-vertex batch lookup for batch-local bone indices: the batch whose triangle range covers a
// triangle using the vertex (the exporter gives each vertex to exactly one batch; notes 5).
void vertexBatches(const Mesh& mesh, std::vector<int32_t>& batchOf) {
    batchOf.assign(mesh.vertexCount, -1);
    if (mesh.boneBatches.empty()) return;
    std::vector<uint32_t> triangles;
    expandTriangles(mesh, triangles);
    const size_t triangleCountAll = triangles.size() / 3;
    for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
        const BoneBatch& batch = mesh.boneBatches[b];
        const size_t end =
            std::min<size_t>(size_t(batch.firstTriangle) + batch.triangleCount, triangleCountAll);
        for (size_t t = batch.firstTriangle; t < end; ++t)
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = triangles[t * 3 + k];
                if (v < batchOf.size() && batchOf[v] < 0) batchOf[v] = static_cast<int32_t>(b);
            }
    }
}

// Unit length, or the vector unchanged when it has none (a zero normal stays zero, not NaN).
glm::vec3 safeNormalize(const glm::vec3& v) {
    const float len = glm::length(v);
    return len > 0.0f ? v / len : v;
}

// A submesh's index with its base vertex added; an index out of range (UINT32_MAX) stays so.
uint32_t withBase(uint32_t index, uint32_t base) {
    const uint64_t v = uint64_t(index) + base;
    return index == UINT32_MAX || v >= UINT32_MAX ? UINT32_MAX : uint32_t(v);
}

}  // namespace

void expandTriangles(const Mesh& mesh, std::vector<uint32_t>& triangles,
                     std::vector<uint32_t>* submeshStart) {
    triangles.clear();
    if (submeshStart) submeshStart->clear();
    const uint32_t restart = mesh.indices.type == ComponentType::UInt8    ? 0xFFu
                             : mesh.indices.type == ComponentType::UInt16 ? 0xFFFFu
                                                                          : 0xFFFFFFFFu;
    for (const Submesh& s : mesh.submeshes) {
        if (submeshStart) submeshStart->push_back(static_cast<uint32_t>(triangles.size() / 3));
        const uint64_t first = s.firstIndex;
        auto at = [&](uint64_t i) { return withBase(meshIndex(mesh, i), s.baseVertex); };
        switch (s.primitive) {
            case Primitive::Triangles:
                for (uint64_t i = 0; i + 3 <= s.indexCount; i += 3)
                    triangles.insert(triangles.end(), {at(first + i), at(first + i + 1), at(first + i + 2)});
                break;
            case Primitive::Quads:
                for (uint64_t i = 0; i + 4 <= s.indexCount; i += 4) {
                    const uint32_t q0 = at(first + i), q1 = at(first + i + 1);
                    const uint32_t q2 = at(first + i + 2), q3 = at(first + i + 3);
                    triangles.insert(triangles.end(), {q0, q1, q2, q0, q2, q3});
                }
                break;
            case Primitive::TriangleStrip: {
                // POD strips: consecutive runs of len + 2 indices, no degenerate joins (notes 6);
                // restart strips (OpenGEX): runs between all-ones indices.
                auto run = [&](uint64_t start, uint64_t len) {
                    for (uint64_t t = 0; t < len; ++t) {
                        uint32_t v0 = at(start + t), v1 = at(start + t + 1);
                        const uint32_t v2 = at(start + t + 2);
                        if (t & 1) std::swap(v0, v1);  // keep the winding of every other triangle
                        triangles.insert(triangles.end(), {v0, v1, v2});
                    }
                };
                // Restart indices first: a loader may also list the strips' lengths (for counting),
                // but the restart markers sit between them in the index data.
                if (s.primitiveRestart && mesh.indices.count > 0) {
                    uint64_t runStart = first;
                    for (uint64_t i = first; i <= first + s.indexCount; ++i)
                        if (i == first + s.indexCount || meshIndex(mesh, i) == restart) {
                            if (i - runStart >= 3) run(runStart, i - runStart - 2);
                            runStart = i + 1;
                        }
                } else if (!s.stripLengths.empty()) {
                    uint64_t start = first;
                    for (uint32_t len : s.stripLengths) {
                        run(start, len);
                        start += uint64_t(len) + 2;
                    }
                } else if (s.indexCount >= 3) {
                    run(first, s.indexCount - 2);
                }
                break;
            }
            case Primitive::TriangleFan: {
                const uint32_t centre = at(first);
                for (uint64_t t = 0; t + 3 <= s.indexCount; ++t)
                    triangles.insert(triangles.end(), {centre, at(first + t + 1), at(first + t + 2)});
                break;
            }
            default:
                break;
        }
    }
}

void expandLines(const Mesh& mesh, std::vector<uint32_t>& lines, std::vector<uint32_t>* submeshStart) {
    lines.clear();
    if (submeshStart) submeshStart->clear();
    const uint32_t restart = mesh.indices.type == ComponentType::UInt8    ? 0xFFu
                             : mesh.indices.type == ComponentType::UInt16 ? 0xFFFFu
                                                                          : 0xFFFFFFFFu;
    for (const Submesh& s : mesh.submeshes) {
        if (submeshStart) submeshStart->push_back(static_cast<uint32_t>(lines.size() / 2));
        const uint64_t first = s.firstIndex;
        auto at = [&](uint64_t i) { return withBase(meshIndex(mesh, i), s.baseVertex); };
        if (s.primitive == Primitive::Lines) {
            for (uint64_t i = 0; i + 2 <= s.indexCount; i += 2)
                lines.insert(lines.end(), {at(first + i), at(first + i + 1)});
        } else if (s.primitive == Primitive::LineStrip) {
            // Runs between restart markers (OpenGEX IndexArray restart, stored as all ones).
            const bool restarts = s.primitiveRestart && mesh.indices.count > 0;
            uint64_t runStart = first;
            for (uint64_t i = first; i <= first + s.indexCount; ++i)
                if (i == first + s.indexCount || (restarts && meshIndex(mesh, i) == restart)) {
                    for (uint64_t k = runStart; k + 1 < i; ++k) lines.insert(lines.end(), {at(k), at(k + 1)});
                    runStart = i + 1;
                }
        }
    }
}

void expandPoints(const Mesh& mesh, std::vector<uint32_t>& points, std::vector<uint32_t>* submeshStart) {
    points.clear();
    if (submeshStart) submeshStart->clear();
    for (const Submesh& s : mesh.submeshes) {
        if (submeshStart) submeshStart->push_back(static_cast<uint32_t>(points.size()));
        if (s.primitive != Primitive::Points) continue;
        for (uint64_t i = 0; i < s.indexCount; ++i)
            points.push_back(withBase(meshIndex(mesh, uint64_t(s.firstIndex) + i), s.baseVertex));
    }
}

namespace {
// One mesh's vertices as worldVertices builds them: the base position and normal attributes
// (nrmAttr null when normals are not wanted or the mesh has none) and the arrays they fill.
struct MeshVertices {
    const Mesh* mesh;
    const VertexStream* posStream;
    const VertexAttribute* posAttr;
    const VertexStream* nrmStream;
    const VertexAttribute* nrmAttr;
    uint32_t count;
    std::vector<glm::vec3>* positions;
    std::vector<glm::vec3>* normals;
};

// The base positions (through the unpack matrix) and normals in model space.
void readBaseVertices(const MeshVertices& mv) {
    const Mesh& mesh = *mv.mesh;
    std::vector<glm::vec3>& positions = *mv.positions;
    float v[4];
    for (uint32_t i = 0; i < mv.count; ++i) {
        readAttribute(*mv.posStream, *mv.posAttr, i, v);
        positions[i] = glm::vec3(mesh.positionUnpack * glm::vec4(v[0], v[1], v[2], 1.0f));
        if (mv.nrmAttr) {
            readAttribute(*mv.nrmStream, *mv.nrmAttr, i, v);
            (*mv.normals)[i] = glm::vec3(v[0], v[1], v[2]);
        }
    }
}

// Adds morph target `target` at weight w to the model-space positions and normals.
void addMorphTarget(const MeshVertices& mv, const MorphTarget& target, float w) {
    const Mesh& mesh = *mv.mesh;
    std::vector<glm::vec3>& positions = *mv.positions;
    std::vector<glm::vec3>* normals = mv.normals;
    float v[4];
    const VertexAttribute* tp = nullptr;
    const VertexAttribute* tn = nullptr;
    for (const VertexAttribute& a : target.stream.attributes) {
        if (a.semantic == Semantic::Position && !tp) tp = &a;
        if (a.semantic == Semantic::Normal && !tn) tn = &a;
    }
    for (uint32_t i = 0; i < mv.count && i < target.stream.count; ++i) {
        if (tp) {
            readAttribute(target.stream, *tp, i, v);
            if (target.relative) {
                positions[i] += w * glm::vec3(mesh.positionUnpack * glm::vec4(v[0], v[1], v[2], 0.0f));
            } else {
                // Absolute targets blend from the unmorphed base toward the target.
                float base[4];
                readAttribute(*mv.posStream, *mv.posAttr, i, base);
                const glm::vec4 delta(v[0] - base[0], v[1] - base[1], v[2] - base[2], 0.0f);
                positions[i] += w * glm::vec3(mesh.positionUnpack * delta);
            }
        }
        if (tn && mv.nrmAttr) {
            readAttribute(target.stream, *tn, i, v);
            glm::vec3 value(v[0], v[1], v[2]);
            if (target.relative) {
                (*normals)[i] += w * value;
            } else {
                float base[4];
                readAttribute(*mv.nrmStream, *mv.nrmAttr, i, base);
                (*normals)[i] += w * (value - glm::vec3(base[0], base[1], base[2]));
            }
        }
    }
}

// Morph targets blend in the unpacked model space, after the base is scaled as the shader does.
void applyMorphTargets(const MeshVertices& mv, const std::vector<float>& weights) {
    const Mesh& mesh = *mv.mesh;
    std::vector<glm::vec3>& positions = *mv.positions;
    const float baseScale = morphBaseScale(mesh, weights);
    if (baseScale != 1.0f) {
        float v[4];
        // Scaled in stored space, like the shader: the unpack matrix is applied afterwards.
        for (uint32_t i = 0; i < mv.count; ++i) {
            readAttribute(*mv.posStream, *mv.posAttr, i, v);
            positions[i] = glm::vec3(mesh.positionUnpack *
                                     glm::vec4(baseScale * v[0], baseScale * v[1], baseScale * v[2], 1.0f));
            if (mv.nrmAttr) (*mv.normals)[i] *= baseScale;
        }
    }
    for (size_t t = 0; t < mesh.morphTargets.size() && t < weights.size(); ++t) {
        const float w = weights[t];
        if (w == 0.0f) continue;
        addMorphTarget(mv, mesh.morphTargets[t], w);
    }
}

// One influence set of a skinned mesh: bone indices and weights, each with its stream.
struct InfluenceSet {
    const VertexStream *indexStream, *weightStream;
    const VertexAttribute *indices, *weights;
};

// Influence sets beyond the first (OpenGEX vertices with more than 4 bones) add their terms to
// the same sum: the reference path follows the file's formula with every influence.
std::vector<InfluenceSet> influenceSets(const Mesh& mesh, const InfluenceSet& first) {
    std::vector<InfluenceSet> sets{first};
    for (uint8_t set = 1; set < 16; ++set) {
        InfluenceSet extra{};
        extra.indices = findAttribute(mesh, Semantic::BoneIndices, set, &extra.indexStream);
        extra.weights = findAttribute(mesh, Semantic::BoneWeights, set, &extra.weightStream);
        if (!extra.indices || !extra.weights) break;
        sets.push_back(extra);
    }
    return sets;
}

// The weighted sum of palette matrices for vertex i; total gets the sum of the weights used.
glm::mat4 skinMatrix(const Mesh& mesh, const std::vector<InfluenceSet>& sets,
                     const std::vector<int32_t>& batchOf, const std::vector<glm::mat4>& palette, uint32_t i,
                     float& total) {
    float idx[4], wts[4];
    glm::mat4 m(0.0f);
    total = 0.0f;
    for (size_t set = 0; set < sets.size(); ++set) {
        const int influences = readAttribute(*sets[set].indexStream, *sets[set].indices, i, idx);
        const int weightCount = readAttribute(*sets[set].weightStream, *sets[set].weights, i, wts);
        for (int k = 0; k < influences && k < 4; ++k) {
            // A single stored weight with more indices: the remaining weight goes to the last bone.
            float w = k < weightCount ? wts[k] : set == 0 ? 1.0f - total : 0.0f;
            if (w == 0.0f) continue;
            // Indices arrive as floats (GLSL ES 1.00 has no integer attributes); a value no int can
            // hold names no bone, and converting it would be undefined.
            if (!(idx[k] >= 0.0f && idx[k] < 65536.0f)) continue;
            const int local = static_cast<int>(idx[k]);
            int joint = local;
            if (mesh.boneIndicesBatchLocal) {
                const int32_t b = batchOf.empty() ? -1 : batchOf[i];
                if (b < 0 || static_cast<size_t>(local) >= mesh.boneBatches[b].bones.size()) continue;
                joint = mesh.boneBatches[b].bones[local];
            }
            if (joint < 0 || static_cast<size_t>(joint) >= palette.size()) continue;
            m += w * palette[joint];
            total += w;
        }
    }
    return m;
}

// Skins the model-space vertices into world space with the palette (the node's object world
// matrix for a vertex no bone moves).
void skinVertices(const MeshVertices& mv, const Pose& pose, int node, const std::vector<glm::mat4>& palette,
                  const std::vector<InfluenceSet>& sets, std::vector<glm::vec3>* tangents,
                  bool haveTangents) {
    const Mesh& mesh = *mv.mesh;
    std::vector<glm::vec3>& positions = *mv.positions;
    std::vector<int32_t> batchOf;
    if (mesh.boneIndicesBatchLocal) vertexBatches(mesh, batchOf);
    for (uint32_t i = 0; i < mv.count; ++i) {
        float total = 0.0f;
        glm::mat4 m = skinMatrix(mesh, sets, batchOf, palette, i, total);
        if (total == 0.0f) m = pose.objectWorld[node];
        positions[i] = glm::vec3(m * glm::vec4(positions[i], 1.0f));
        if (mv.nrmAttr) {
            const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(m)));
            (*mv.normals)[i] = safeNormalize(normalMatrix * (*mv.normals)[i]);
        }
        if (haveTangents) (*tangents)[i] = safeNormalize(glm::mat3(m) * (*tangents)[i]);
    }
}
}  // namespace

void worldVertices(const Scene& scene, const Pose& pose, int node, std::vector<glm::vec3>& positions,
                   std::vector<glm::vec3>* normals, std::vector<glm::vec3>* tangents) {
    positions.clear();
    if (normals) normals->clear();
    if (tangents) tangents->clear();
    positions.clear();  // callers reuse the vector: nothing stale may survive an early return
    if (node < 0 || static_cast<size_t>(node) >= scene.nodes.size()) return;
    const Node& n = scene.nodes[node];
    if (n.kind != NodeKind::Mesh || n.object < 0 || static_cast<size_t>(n.object) >= scene.meshes.size())
        return;
    const Mesh& mesh = scene.meshes[n.object];
    const VertexStream* posStream = nullptr;
    const VertexAttribute* posAttr = findAttribute(mesh, Semantic::Position, 0, &posStream);
    if (!posAttr) return;
    const VertexStream* nrmStream = nullptr;
    const VertexAttribute* nrmAttr = normals ? findAttribute(mesh, Semantic::Normal, 0, &nrmStream) : nullptr;

    const uint32_t count = mesh.vertexCount;
    positions.resize(count);
    if (nrmAttr) normals->resize(count);
    if (tangents) {
        std::vector<glm::vec4> frames;
        if (computeTangents(mesh, frames) && frames.size() == count) {
            tangents->resize(count);
            for (uint32_t i = 0; i < count; ++i) (*tangents)[i] = glm::vec3(frames[i]);
        }
    }
    const bool haveTangents = tangents && !tangents->empty();
    const MeshVertices mv{&mesh, posStream, posAttr, nrmStream, nrmAttr, count, &positions, normals};
    readBaseVertices(mv);

    const std::vector<float>* weights =
        static_cast<size_t>(node) < pose.morphWeights.size() ? &pose.morphWeights[node] : nullptr;
    if (weights && !weights->empty()) applyMorphTargets(mv, *weights);

    const VertexStream* idxStream = nullptr;
    const VertexStream* wStream = nullptr;
    const VertexAttribute* idxAttr = findAttribute(mesh, Semantic::BoneIndices, 0, &idxStream);
    const VertexAttribute* wAttr = findAttribute(mesh, Semantic::BoneWeights, 0, &wStream);
    std::vector<glm::mat4> palette;
    skinPalette(scene, pose, node, palette);
    if (palette.empty() || !idxAttr || !wAttr) {
        const glm::mat4& world = pose.objectWorld[node];
        const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(world)));
        for (uint32_t i = 0; i < count; ++i) {
            positions[i] = glm::vec3(world * glm::vec4(positions[i], 1.0f));
            if (nrmAttr) (*normals)[i] = safeNormalize(normalMatrix * (*normals)[i]);
            if (haveTangents) (*tangents)[i] = safeNormalize(glm::mat3(world) * (*tangents)[i]);
        }
        return;
    }
    const std::vector<InfluenceSet> sets = influenceSets(mesh, {idxStream, wStream, idxAttr, wAttr});
    skinVertices(mv, pose, node, palette, sets, tangents, haveTangents);
}

Bounds sceneBounds(const Scene& scene, const Pose& pose, std::vector<Bounds>* perNode) {
    Bounds bounds;
    if (perNode) perNode->assign(scene.nodes.size(), Bounds{});
    std::vector<glm::vec3> positions;
    std::vector<uint8_t> used;
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& n = scene.nodes[i];
        if (n.kind != NodeKind::Mesh || (i < pose.visible.size() && !pose.visible[i])) continue;
        if (n.object < 0 || static_cast<size_t>(n.object) >= scene.meshes.size()) continue;
        const Mesh& mesh = scene.meshes[n.object];
        // Only what is drawn counts: vertices referenced by triangle, line and point submeshes
        // (patches and NURBS are not drawn).
        auto drawn = [](const Submesh& s) {
            return s.primitive != Primitive::Patches && s.primitive != Primitive::Nurbs;
        };
        bool drawsSomething = false;
        for (const Submesh& s : mesh.submeshes) drawsSomething |= drawn(s);
        if (!drawsSomething) continue;
        worldVertices(scene, pose, static_cast<int>(i), positions);
        used.assign(positions.size(), mesh.indices.count == 0 ? 1 : 0);
        if (mesh.indices.count > 0) {
            const uint32_t restart = mesh.indices.type == ComponentType::UInt8    ? 0xFFu
                                     : mesh.indices.type == ComponentType::UInt16 ? 0xFFFFu
                                                                                  : 0xFFFFFFFFu;
            for (const Submesh& s : mesh.submeshes) {
                if (!drawn(s)) continue;
                const uint64_t end =
                    std::min<uint64_t>(uint64_t(s.firstIndex) + s.indexCount, mesh.indices.count);
                for (uint64_t k = s.firstIndex; k < end; ++k) {
                    const uint32_t stored = meshIndex(mesh, k);
                    if (s.primitiveRestart && stored == restart) continue;
                    const uint32_t v = withBase(stored, s.baseVertex);
                    if (v < used.size()) used[v] = 1;
                }
            }
        }
        for (size_t v = 0; v < positions.size(); ++v)
            if (used[v] && std::isfinite(positions[v].x) && std::isfinite(positions[v].y) &&
                std::isfinite(positions[v].z)) {
                bounds.add(positions[v]);
                if (perNode) (*perNode)[i].add(positions[v]);
            }
    }
    return bounds;
}

}  // namespace esv
