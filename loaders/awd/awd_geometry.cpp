// AWD geometry blocks: TriangleGeometry (sub-geometries of data streams) and PrimitiveGeometry
// (parametric shapes, tessellated by awd_primitives as Away3D builds them).
//
// A TriangleGeometry is one scene mesh; each sub-geometry is one submesh with its material slot.
// With one sub-geometry (what exporters write) every float32 stream is a view into the body, and
// so are the 16-bit face indices. Several sub-geometries each index their own vertices, which
// the scene cannot express without a per-submesh vertex base, so their streams are packed into
// one buffer per attribute (indices rebased) in one pass with a report line. Streams are read as
// Away3D reads them, whatever data type byte they carry (exporters write both the spec's and
// libawd's numbering, and PolarBear.awd labels 16-bit indices as uint32): positions, UVs, normals,
// tangents and joint weights are floats of the header's geometry precision, face and joint
// indices are uint16. float64 streams are converted to float32 once (GLES has no doubles).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "loaders/awd/awd_internal.h"
#include "loaders/awd/awd_primitives.h"

namespace esv::awd {
namespace {

std::string num(uint64_t v) { return std::to_string(v); }

// One data stream as found in a sub-geometry.
struct RawStream {
    uint8_t type = 0;
    uint8_t dataType = 0;
    const uint8_t* data = nullptr;
    uint32_t length = 0;
    uint64_t offset = 0;  // of the stream header
};

// One attribute of one sub-geometry: `count` vertices of `components` values.
struct Source {
    const uint8_t* data = nullptr;  // stored values (float32/float64, or uint16)
    uint32_t count = 0;
    uint8_t components = 0;
    bool wide = false;                  // float64
    std::vector<float> computed;        // normals computed here (data then points into it)
};

struct SubGeometry {
    uint32_t vertices = 0;
    const uint8_t* positions = nullptr;
    const uint8_t* indices = nullptr;
    uint32_t indexCount = 0;  // whole triangles
    Source normals, tangents, jointIndices, jointWeights;
    std::vector<Source> uvs;
    glm::vec2 uvScale{1.0f};
};

float loadFloat(const uint8_t* p, bool wide) {
    if (wide) {
        double d;
        std::memcpy(&d, p, 8);
        return static_cast<float>(d);
    }
    float f;
    std::memcpy(&f, p, 4);
    return f;
}

uint16_t loadU16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

// Vertex normals as Away3D derives them: the sum of the unit face normals around each vertex,
// normalised (zero where no triangle uses the vertex).
std::vector<float> computeNormals(const SubGeometry& sub, bool wide) {
    std::vector<float> normals(size_t(sub.vertices) * 3, 0.0f);
    const size_t step = wide ? 8 : 4;
    auto position = [&](uint32_t v) {
        const uint8_t* p = sub.positions + size_t(v) * 3 * step;
        return glm::vec3(loadFloat(p, wide), loadFloat(p + step, wide), loadFloat(p + 2 * step, wide));
    };
    for (uint32_t t = 0; t + 2 < sub.indexCount; t += 3) {
        const uint32_t a = loadU16(sub.indices + 2 * size_t(t)), b = loadU16(sub.indices + 2 * size_t(t) + 2),
                       c = loadU16(sub.indices + 2 * size_t(t) + 4);
        const glm::vec3 n = glm::cross(position(b) - position(a), position(c) - position(a));
        const float length = glm::length(n);
        if (!(length > 0.0f) || !std::isfinite(length)) continue;
        const glm::vec3 unit = n / length;
        for (uint32_t v : {a, b, c})
            for (int k = 0; k < 3; ++k) normals[size_t(v) * 3 + k] += unit[k];
    }
    for (size_t v = 0; v < sub.vertices; ++v) {
        glm::vec3 n(normals[v * 3], normals[v * 3 + 1], normals[v * 3 + 2]);
        const float length = glm::length(n);
        if (length > 0.0f) n /= length;
        for (int k = 0; k < 3; ++k) normals[v * 3 + k] = n[k];
    }
    return normals;
}

// True when `length` bytes from the reader's position are whole data streams end to end (each a
// 6-byte header and the length it gives).
bool streamsTile(const ByteReader& r, size_t length) {
    if (length > r.remaining()) return false;
    const uint8_t* p = r.current();
    size_t at = 0;
    while (at < length) {
        if (length - at < 6) return false;
        const uint32_t n =
            uint32_t(p[at + 2]) | uint32_t(p[at + 3]) << 8 | uint32_t(p[at + 4]) << 16 | uint32_t(p[at + 5]) << 24;
        if (n > length - at - 6) return false;
        at += 6 + size_t(n);
    }
    return true;
}

// A sub-geometry's length, properties, data streams and user attributes. False when the block
// cannot be read on (reported).
bool readSubStreams(Reader& reader, ByteReader& r, const std::string& where, bool wide, uint64_t& subAt,
                    glm::vec2& subScale, std::vector<RawStream>& streams) {
    subAt = r.offset();
    const uint32_t subLength = r.u32();
    if (reader.ended(r, "sub-geometry length")) return false;
    // The length covers the streams (spec); AwayBuilder counts the properties in too. Away3D
    // reads both, so the streams are taken to end where one of the two readings makes them
    // tile exactly (the spec's first). The sub-geometry's user attributes follow.
    AttrList subProps;
    const size_t propsStart = r.position();
    if (!reader.readAttrs(r, subProps, "sub-geometry")) return false;
    const size_t propsSize = r.position() - propsStart;
    size_t streamsLength = subLength;
    if (!streamsTile(r, subLength) && subLength >= propsSize && streamsTile(r, subLength - propsSize))
        streamsLength = subLength - propsSize;
    if (streamsLength > r.remaining()) {
        reader.fatal(subAt, where,
                     "the sub-geometry claims " + num(subLength) + " bytes, " + num(r.remaining() + propsSize) +
                         " remain in the block");
        return false;
    }
    ByteReader sr = r.sub(streamsLength);
    subScale = glm::vec2(float(reader.propFloat(subProps, 1, 1.0, wide)), float(reader.propFloat(subProps, 2, 1.0, wide)));
    reader.unknownProps(subProps, {1, 2}, "sub-geometry");
    while (!sr.atEnd()) {
        RawStream st;
        st.offset = sr.offset();
        st.type = sr.u8();
        st.dataType = sr.u8();
        st.length = sr.u32();
        if (!sr.ok()) {
            reader.fatal(st.offset, where, "the sub-geometry ends inside a stream header");
            return false;
        }
        if (st.length > sr.remaining()) {
            reader.fatal(st.offset, where,
                         std::string("the ") + (streamTypeName(st.type) ? streamTypeName(st.type) : "data") +
                             " stream claims " + num(st.length) + " bytes, " + num(sr.remaining()) +
                             " remain in the sub-geometry");
            return false;
        }
        st.data = sr.current();
        sr.skip(st.length);
        streams.push_back(st);
    }
    return reader.readUserAttrs(r, "sub-geometry");
}

// The streams of one sub-geometry by kind: the first of each kind, every UV stream in order.
struct StreamSlots {
    const RawStream* positions = nullptr;
    const RawStream* indices = nullptr;
    const RawStream* normals = nullptr;
    const RawStream* tangents = nullptr;
    const RawStream* joints = nullptr;
    const RawStream* weights = nullptr;
    std::vector<const RawStream*> uvs;
};

// Sorts `streams` into their slots, reporting undefined types and second streams of a kind.
StreamSlots sortStreams(Reader& reader, const std::string& where, const std::vector<RawStream>& streams) {
    StreamSlots slots;
    for (const RawStream& st : streams) {
        const RawStream** slot = nullptr;
        switch (st.type) {
            case stream::Positions: slot = &slots.positions; break;
            case stream::Indices: slot = &slots.indices; break;
            case stream::Normals: slot = &slots.normals; break;
            case stream::Tangents: slot = &slots.tangents; break;
            case stream::JointIndices: slot = &slots.joints; break;
            case stream::JointWeights: slot = &slots.weights; break;
            case stream::UVs: slots.uvs.push_back(&st); continue;
            default:
                reader.info(where + ": stream type " + num(st.type) + " (" + num(st.length) + " bytes) is not defined; skipped");
                continue;
        }
        if (*slot) {
            reader.violation(st.offset, where,
                             std::string("a second ") + streamTypeName(st.type) + " stream; only the first is used");
            continue;
        }
        *slot = &st;
    }
    return slots;
}

// Whole elements of `size` bytes in a stream; a remainder is a violation and is left out.
uint32_t wholeElements(Reader& reader, const std::string& where, const RawStream& st, size_t size, const char* what) {
    if (st.length % size != 0)
        reader.violation(st.offset, where,
                         std::string("the ") + what + " stream is " + num(st.length) + " bytes, not a multiple of its " +
                             num(size) + "-byte elements; the last " + num(st.length % size) + " bytes are ignored");
    return static_cast<uint32_t>(st.length / size);
}

// The face indices: whole triangles, each naming a vertex of the sub-geometry. False when an
// index is out of range (fatal).
bool takeIndices(Reader& reader, const std::string& where, const StreamSlots& slots, SubGeometry& sub) {
    const RawStream* indices = slots.indices;
    if (!indices) {
        if (sub.vertices > 0)
            reader.violation(slots.positions->offset, where, "the sub-geometry has no face indices; it draws nothing");
        return true;
    }
    uint32_t count = wholeElements(reader, where, *indices, 2, "face indices");
    if (count % 3 != 0)
        reader.violation(indices->offset, where,
                         num(count) + " face indices are not whole triangles; the last " + num(count % 3) + " are ignored");
    count -= count % 3;
    for (uint32_t i = 0; i < count; ++i) {
        const uint16_t v = loadU16(indices->data + 2 * size_t(i));
        if (v >= sub.vertices) {
            reader.fatal(indices->offset + 6 + 2 * uint64_t(i), where,
                         "face index " + num(i) + " is " + num(v) + ", past the sub-geometry's " + num(sub.vertices) +
                             " vertices");
            return false;
        }
    }
    sub.indices = indices->data;
    sub.indexCount = count;
    return true;
}

// A per-vertex stream (`components` floats a vertex) as `out`. It must cover every vertex: a short
// one is dropped, extra values are ignored.
void takePerVertex(Reader& reader, const std::string& where, const RawStream* st, uint8_t components, bool wide,
                   const char* what, uint32_t vertices, Source& out) {
    if (!st || vertices == 0) return;
    const uint32_t count = wholeElements(reader, where, *st, components * (wide ? 8 : 4), what);
    if (count < vertices) {
        reader.violation(st->offset, where,
                         std::string("the ") + what + " stream holds " + num(count) + " values for " + num(vertices) +
                             " vertices; it is not used");
        return;
    }
    if (count > vertices)
        reader.violation(st->offset, where,
                         std::string("the ") + what + " stream holds " + num(count) + " values for " + num(vertices) +
                             " vertices; the extra ones are ignored");
    out.data = st->data;
    out.count = vertices;
    out.components = components;
    out.wide = wide;
}

// Each vertex's joint weights must sum to 1 (spec, "Joint index and weight streams"); one
// violation for all the vertices whose weights do not.
void checkWeightSums(Reader& reader, const std::string& where, const RawStream& weights, uint32_t vertices,
                     uint32_t perVertex, bool wide) {
    const size_t floatSize = wide ? 8 : 4;
    uint32_t bad = 0, first = 0;
    float firstSum = 0.0f;
    for (uint32_t v = 0; v < vertices; ++v) {
        float sum = 0.0f;
        for (uint32_t k = 0; k < perVertex; ++k)
            sum += loadFloat(weights.data + (size_t(v) * perVertex + k) * floatSize, wide);
        if (!(std::fabs(sum - 1.0f) <= 1e-3f)) {
            if (bad++ == 0) {
                first = v;
                firstSum = sum;
            }
        }
    }
    if (bad)
        reader.violation(weights.offset, where,
                         "the joint weights of " + num(bad) + " vertices do not sum to 1 (first: vertex " + num(first) +
                             ", sum " + std::to_string(firstSum) + ")");
}

// Joints: the same number of indices and weights, a whole number (at most 64) per vertex.
void takeJoints(Reader& reader, const std::string& where, const StreamSlots& slots, bool wide, SubGeometry& sub) {
    const RawStream* joints = slots.joints;
    const RawStream* weights = slots.weights;
    if (!(joints || weights) || sub.vertices == 0) return;
    if (!joints || !weights) {
        reader.violation((joints ? joints : weights)->offset, where,
                         std::string("joint ") + (joints ? "indices" : "weights") + " without joint " +
                             (joints ? "weights" : "indices") + "; not used");
        return;
    }
    const uint32_t ji = wholeElements(reader, where, *joints, 2, "joint indices");
    const uint32_t jw = wholeElements(reader, where, *weights, wide ? 8 : 4, "joint weights");
    const uint32_t perVertexCount = ji / sub.vertices;
    if (ji != jw) {
        reader.violation(weights->offset, where,
                         num(ji) + " joint indices but " + num(jw) + " joint weights (they must match); not used");
    } else if (perVertexCount == 0 || ji % sub.vertices != 0) {
        reader.violation(joints->offset, where,
                         num(ji) + " joint indices are not a whole number per vertex for " + num(sub.vertices) +
                             " vertices; not used");
    } else if (perVertexCount > 64) {
        reader.violation(joints->offset, where, num(perVertexCount) + " joints per vertex is more than 64; not used");
    } else {
        sub.jointIndices = Source{joints->data, sub.vertices, uint8_t(perVertexCount), false, {}};
        sub.jointWeights = Source{weights->data, sub.vertices, uint8_t(perVertexCount), wide, {}};
        checkWeightSums(reader, where, *weights, sub.vertices, perVertexCount, wide);
    }
}

// One sub-geometry (number `index`) appended to `subs`. False when the block cannot be read on.
bool readSubGeometry(Reader& reader, ByteReader& r, uint16_t index, bool wide, const glm::vec2& geoScale,
                     std::vector<SubGeometry>& subs) {
    const std::string where = reader.blockWhere() + " / sub-geometry " + num(index);
    uint64_t subAt = 0;
    glm::vec2 subScale(1.0f);
    std::vector<RawStream> streams;
    if (!readSubStreams(reader, r, where, wide, subAt, subScale, streams)) return false;

    SubGeometry sub;
    // Away3D's UV scaling: the geometry's scale when it is not 1, else the inverse of the
    // sub-geometry's (its scaleUV calls are absolute, the last one wins).
    for (int k = 0; k < 2; ++k)
        sub.uvScale[k] = geoScale[k] != 1.0f ? geoScale[k] : (subScale[k] != 1.0f && subScale[k] != 0.0f ? 1.0f / subScale[k] : 1.0f);
    const StreamSlots slots = sortStreams(reader, where, streams);
    if (slots.positions) {
        sub.positions = slots.positions->data;
        sub.vertices = wholeElements(reader, where, *slots.positions, 3 * (wide ? 8 : 4), "positions");
    }
    if (!takeIndices(reader, where, slots, sub)) return false;
    takePerVertex(reader, where, slots.normals, 3, wide, "normals", sub.vertices, sub.normals);
    takePerVertex(reader, where, slots.tangents, 3, wide, "tangents", sub.vertices, sub.tangents);
    for (const RawStream* st : slots.uvs) {
        Source uv;
        takePerVertex(reader, where, st, 2, wide, "UVs", sub.vertices, uv);
        if (uv.data) sub.uvs.push_back(std::move(uv));
    }
    takeJoints(reader, where, slots, wide, sub);
    if (!slots.positions && (slots.indices || !slots.uvs.empty() || slots.normals))
        reader.violation(streams.empty() ? subAt : streams.front().offset, where,
                         "the sub-geometry has no positions; it draws nothing");
    subs.push_back(std::move(sub));
    return true;
}

// Missing normals: computed from the triangles, as Away3D does. True when any were.
bool computeMissingNormals(std::vector<SubGeometry>& subs, bool wide) {
    bool computed = false;
    for (SubGeometry& sub : subs) {
        if (sub.normals.data || sub.vertices == 0) continue;
        sub.normals.computed = computeNormals(sub, wide);
        sub.normals.data = reinterpret_cast<const uint8_t*>(sub.normals.computed.data());
        sub.normals.count = sub.vertices;
        sub.normals.components = 3;
        sub.normals.wide = false;
        computed = true;
    }
    return computed;
}

// The scene mesh being made from the sub-geometries, and what its stream builders share.
struct MeshBuild {
    Mesh& mesh;
    const std::vector<SubGeometry>& subs;
    const std::shared_ptr<const std::vector<uint8_t>>& owner;  // of the bytes the views point into
    bool single = false;     // one sub-geometry: streams can be views
    bool converted = false;  // a float64 stream was converted to float32
};

// The subs' sources (`pick`) packed into one buffer of `components` values a vertex: float32
// (float64 converted, UVs scaled) or uint16, zero where a sub-geometry has none.
template <class Pick>
std::vector<uint8_t> packStream(MeshBuild& build, Semantic semantic, bool isFloat, uint8_t components, Pick pick) {
    const size_t elementSize = isFloat ? 4 : 2;
    std::vector<uint8_t> packed(size_t(build.mesh.vertexCount) * components * elementSize, 0);
    size_t base = 0;
    for (const SubGeometry& sub : build.subs) {
        const Source& s = pick(sub);
        if (s.data) {
            for (size_t v = 0; v < s.count; ++v)
                for (size_t k = 0; k < s.components; ++k) {
                    uint8_t* out = packed.data() + ((base + v) * components + k) * elementSize;
                    if (isFloat) {
                        float f = s.computed.empty() ? loadFloat(s.data + (v * s.components + k) * (s.wide ? 8 : 4), s.wide)
                                                     : s.computed[v * s.components + k];
                        if (semantic == Semantic::TexCoord) f *= sub.uvScale[k & 1];
                        std::memcpy(out, &f, 4);
                    } else {
                        std::memcpy(out, s.data + (v * s.components + k) * 2, 2);
                    }
                }
            if (s.wide) build.converted = true;
        }
        base += sub.vertices;
    }
    return packed;
}

// One attribute stream from the subs' sources (`pick`), a view when it can be, else packed.
template <class Pick>
void addStream(Reader& reader, MeshBuild& build, Semantic semantic, uint8_t set, bool isFloat, Pick pick) {
    Mesh& mesh = build.mesh;
    uint8_t components = 0;
    bool any = false;
    for (const SubGeometry& sub : build.subs) {
        const Source& s = pick(sub);
        if (!s.data) continue;
        any = true;
        components = std::max(components, s.components);
    }
    if (!any) return;
    const size_t elementSize = isFloat ? 4 : 2;
    // Checked in 64 bits: with a 32-bit size_t (armhf) the product could wrap to a short buffer.
    if (uint64_t(mesh.vertexCount) * components * elementSize > SIZE_MAX) {
        reader.violation(reader.m_current->offset + reader.m_bodyBase, reader.blockWhere(),
                         num(mesh.vertexCount) + " vertices of " + num(components) +
                             " components are more than this machine can address; the stream is not used");
        return;
    }
    VertexStream vs;
    vs.count = mesh.vertexCount;
    const SubGeometry& first = build.subs.front();
    const Source& firstSource = pick(first);
    const bool scaled = semantic == Semantic::TexCoord && first.uvScale != glm::vec2(1.0f);
    if (build.single && !firstSource.wide && firstSource.computed.empty() && !scaled)
        vs.bytes = ByteView{build.owner, firstSource.data, size_t(firstSource.count) * components * elementSize};
    else
        vs.bytes = makeOwnedBytes(packStream(build, semantic, isFloat, components, pick));
    vs.stride = static_cast<uint32_t>(components * elementSize);
    // More than four values per vertex (joints) become consecutive sets of up to four.
    for (uint8_t start = 0, s = 0; start < components; start = uint8_t(start + 4), ++s) {
        VertexAttribute a;
        a.semantic = semantic;
        a.set = semantic == Semantic::BoneIndices || semantic == Semantic::BoneWeights ? s : set;
        a.type = isFloat ? ComponentType::Float32 : ComponentType::UInt16;
        a.components = static_cast<uint8_t>(std::min(4, components - start));
        a.offset = uint32_t(start) * uint32_t(elementSize);
        vs.attributes.push_back(a);
    }
    mesh.streams.push_back(std::move(vs));
}

// Every vertex stream of the mesh: positions, normals, tangents, up to 8 UV sets and joints.
void addVertexStreams(Reader& reader, MeshBuild& build, bool wide) {
    const std::vector<SubGeometry>& subs = build.subs;
    std::vector<Source> positionSources(subs.size());
    for (size_t i = 0; i < subs.size(); ++i)
        if (subs[i].positions) positionSources[i] = Source{subs[i].positions, subs[i].vertices, 3, wide, {}};
    addStream(reader, build, Semantic::Position, 0, true, [&](const SubGeometry& s) -> const Source& {
        return positionSources[static_cast<size_t>(&s - subs.data())];
    });
    addStream(reader, build, Semantic::Normal, 0, true, [](const SubGeometry& s) -> const Source& { return s.normals; });
    addStream(reader, build, Semantic::Tangent, 0, true, [](const SubGeometry& s) -> const Source& { return s.tangents; });
    size_t uvSets = 0;
    for (const SubGeometry& sub : subs) uvSets = std::max(uvSets, sub.uvs.size());
    static const Source kNone{};
    for (size_t set = 0; set < uvSets && set < 8; ++set)
        addStream(reader, build, Semantic::TexCoord, uint8_t(set), true, [set](const SubGeometry& s) -> const Source& {
            return set < s.uvs.size() ? s.uvs[set] : kNone;
        });
    // Joints: every sub-geometry with the same number per vertex, else none.
    uint8_t jointsPerVertex = 0;
    bool jointsAgree = true;
    for (const SubGeometry& sub : subs) {
        if (sub.vertices == 0) continue;
        const uint8_t n = sub.jointIndices.data ? sub.jointIndices.components : 0;
        if (jointsPerVertex == 0 && n) jointsPerVertex = n;
        if (n != jointsPerVertex) jointsAgree = false;
    }
    if (jointsPerVertex && !jointsAgree) {
        reader.violation(reader.m_current->offset + reader.m_bodyBase, reader.blockWhere(),
                         "the sub-geometries bind different numbers of joints per vertex (or some none); joints are not used");
    } else if (jointsPerVertex) {
        addStream(reader, build, Semantic::BoneIndices, 0, false, [](const SubGeometry& s) -> const Source& { return s.jointIndices; });
        addStream(reader, build, Semantic::BoneWeights, 0, true, [](const SubGeometry& s) -> const Source& { return s.jointWeights; });
    }
}

// The face indices: a view for one sub-geometry, else rebased into one buffer (16-bit while the
// vertices allow).
void addIndices(Reader& reader, MeshBuild& build) {
    const std::vector<SubGeometry>& subs = build.subs;
    Mesh& mesh = build.mesh;
    uint64_t totalVertices = 0, totalIndices = 0;
    for (const SubGeometry& sub : subs) {
        totalVertices += sub.vertices;
        totalIndices += sub.indexCount;
    }
    if (build.single && subs.front().indexCount) {
        mesh.indices.type = ComponentType::UInt16;
        mesh.indices.bytes = ByteView{build.owner, subs.front().indices, size_t(subs.front().indexCount) * 2};
        mesh.indices.count = subs.front().indexCount;
    } else if (totalIndices > UINT32_MAX || totalIndices * 4 > SIZE_MAX) {
        // Checked in 64 bits: with a 32-bit size_t (armhf) the buffer's size could wrap.
        reader.violation(reader.m_current->offset + reader.m_bodyBase, reader.blockWhere(),
                         num(totalIndices) + " face indices are more than this machine can address; the geometry draws nothing");
    } else if (totalIndices) {
        const bool narrow = totalVertices <= 65536;
        const size_t isize = narrow ? 2 : 4;
        std::vector<uint8_t> packed(static_cast<size_t>(totalIndices) * isize);
        size_t at = 0;
        uint32_t base = 0;
        for (const SubGeometry& sub : subs) {
            for (uint32_t i = 0; i < sub.indexCount; ++i, ++at) {
                const uint32_t v = base + loadU16(sub.indices + 2 * size_t(i));
                for (size_t b = 0; b < isize; ++b) packed[at * isize + b] = static_cast<uint8_t>(v >> (8 * b));
            }
            base += sub.vertices;
        }
        mesh.indices.type = narrow ? ComponentType::UInt16 : ComponentType::UInt32;
        mesh.indices.bytes = makeOwnedBytes(std::move(packed));
        mesh.indices.count = static_cast<uint32_t>(totalIndices);
    }
}

// One triangle submesh per sub-geometry, its material slot the sub-geometry's number.
void addSubmeshes(Mesh& mesh, const std::vector<SubGeometry>& subs) {
    uint32_t first = 0;
    for (size_t s = 0; s < subs.size(); ++s) {
        Submesh sm;
        sm.primitive = Primitive::Triangles;
        sm.firstIndex = first;
        sm.indexCount = subs[s].indexCount;
        sm.materialSlot = static_cast<uint32_t>(s);
        first += subs[s].indexCount;
        mesh.submeshes.push_back(std::move(sm));
    }
}

}  // namespace

void Reader::readTriangleGeometry(ByteReader& r) {
    std::string name;
    if (!readString(r, name, "name")) return;
    m_currentName = name;
    const uint16_t subCount = r.u16();
    if (ended(r, "sub-geometry count")) return;
    AttrList props;
    if (!readAttrs(r, props, "geometry")) return;
    const bool wide = m_header.geometry64;
    const glm::vec2 geoScale(float(propFloat(props, 1, 1.0, wide)), float(propFloat(props, 2, 1.0, wide)));
    unknownProps(props, {1, 2}, "geometry");
    std::vector<SubGeometry> subs;
    for (uint16_t s = 0; s < subCount; ++s)
        if (!readSubGeometry(*this, r, s, wide, geoScale, subs)) return;
    if (!readUserAttrs(r, "geometry")) return;
    if (computeMissingNormals(subs, wide)) m_computedNormals.push_back(name);

    Mesh mesh;
    mesh.name = name;
    uint64_t totalVertices = 0;
    for (const SubGeometry& sub : subs) totalVertices += sub.vertices;
    mesh.vertexCount = static_cast<uint32_t>(totalVertices);  // at most 65535 x 65535 fits
    MeshBuild build{mesh, subs, m_blockOwner ? m_blockOwner : m_body, subs.size() == 1, false};
    addVertexStreams(*this, build, wide);
    if (wide) {
        for (const SubGeometry& sub : subs) {
            if (sub.positions) ++m_float64Streams;
            m_float64Streams += (sub.normals.data && sub.normals.computed.empty()) + (sub.tangents.data != nullptr) +
                                sub.uvs.size() + (sub.jointWeights.data != nullptr);
        }
        if (build.converted) ++m_float64Geometries;
    }
    addIndices(*this, build);
    if (subs.size() > 1) m_packedGeometries.push_back(name);
    addSubmeshes(mesh, subs);
    std::vector<uint32_t>& subVertices = m_subVertices[static_cast<int32_t>(m_scene.meshes.size())];
    for (const SubGeometry& sub : subs) subVertices.push_back(sub.vertices);
    m_scene.meshes.push_back(std::move(mesh));
}

void Reader::readPrimitiveGeometry(ByteReader& r) {
    std::string name;
    if (!readString(r, name, "name")) return;
    m_currentName = name;
    const uint64_t typeAt = r.offset();
    const uint8_t type = r.u8();
    if (ended(r, "primitive type")) return;
    AttrList props;
    if (!readAttrs(r, props, "primitive")) return;
    if (!readUserAttrs(r, "primitive")) return;

    Mesh mesh;
    mesh.name = name;
    PrimitiveKind kind;
    if (!primitiveKindFromId(type, kind)) {
        violation(typeAt, blockWhere(),
                  "primitive type " + num(type) + " is not defined (1 plane ... 7 torus); the geometry is empty, as in Away3D");
        m_scene.meshes.push_back(std::move(mesh));
        return;
    }
    PrimitiveParams params = defaultParams(kind);
    const bool wide = m_header.geometry64;
    for (const Attr& a : props.items) {
        double value = 0.0;
        // Property types by key range (TypedPropertiesList): floats 101-200, uint16 301-400,
        // bool 701-800; Away3D reads the float ones with the geometry precision.
        if (a.key >= 101 && a.key <= 200) {
            value = propFloat(props, a.key, 0.0, wide);
            if (props.find(a.key) != &a) continue;  // a repeated key: the last one counts
            if (a.length != 4 && a.length != 8) continue;
        } else if (a.key >= 301 && a.key <= 400) {
            if (a.length != 2) {
                violation(a.offset, blockWhere(), "property " + num(a.key) + " is " + num(a.length) + " bytes, expected a uint16; ignored");
                continue;
            }
            value = loadU16(a.value);
        } else if (a.key >= 701 && a.key <= 800) {
            if (a.length != 1) {
                violation(a.offset, blockWhere(), "property " + num(a.key) + " is " + num(a.length) + " bytes, expected a bool; ignored");
                continue;
            }
            value = a.value[0] != 0 ? 1.0 : 0.0;
        } else {
            info(blockWhere() + ": property " + num(a.key) + " is not defined for primitives; ignored");
            continue;
        }
        if (!setPrimitiveProperty(kind, a.key, value, params))
            info(blockWhere() + ": property " + num(a.key) + " is not defined for a " + primitiveKindName(kind) + "; ignored");
    }
    // Away3D uploads a primitive as one vertex buffer, which Stage3D caps at 65535 vertices; a
    // file asking for many times that is refused here before anything is built.
    const auto segments = [](uint32_t s) { return uint64_t(s) + 2; };
    uint64_t estimate = 0;
    switch (kind) {
        case PrimitiveKind::Cube:
            estimate = 2 * (segments(params.segmentsW) * segments(params.segmentsH) +
                            segments(params.segmentsH) * segments(params.segmentsD) +
                            segments(params.segmentsW) * segments(params.segmentsD));
            break;
        case PrimitiveKind::Torus: estimate = segments(params.segmentsR) * segments(params.segmentsT); break;
        default: estimate = segments(params.segmentsW) * segments(params.segmentsH) * 2; break;
    }
    constexpr uint64_t kMaxVertices = 4 * 65536;
    if (estimate > kMaxVertices) {
        violation(typeAt, blockWhere(),
                  "the segment counts ask for about " + num(estimate) + " vertices, more than the " + num(kMaxVertices) +
                      " this reader builds (Away3D draws at most 65535); the geometry is empty");
        m_scene.meshes.push_back(std::move(mesh));
        return;
    }
    PrimitiveMesh built;
    std::string error;
    if (!buildPrimitive(kind, params, built, error)) {
        violation(typeAt, blockWhere(), error + "; the geometry is empty");
        m_scene.meshes.push_back(std::move(mesh));
        return;
    }
    const uint32_t vertices = static_cast<uint32_t>(built.vertexCount());
    mesh.vertexCount = vertices;
    auto floats = [&](std::vector<float>& values, Semantic semantic, uint8_t components) {
        if (values.size() < size_t(vertices) * components) return;
        VertexStream vs;
        std::vector<uint8_t> bytes(values.size() * 4);
        std::memcpy(bytes.data(), values.data(), bytes.size());
        vs.bytes = makeOwnedBytes(std::move(bytes));
        vs.stride = components * 4u;
        vs.count = vertices;
        VertexAttribute a;
        a.semantic = semantic;
        a.components = components;
        vs.attributes.push_back(a);
        mesh.streams.push_back(std::move(vs));
    };
    floats(built.positions, Semantic::Position, 3);
    floats(built.normals, Semantic::Normal, 3);
    floats(built.tangents, Semantic::Tangent, 3);
    floats(built.uvs, Semantic::TexCoord, 2);
    const bool narrow = vertices <= 65536;
    std::vector<uint8_t> indices(built.indices.size() * (narrow ? 2 : 4));
    for (size_t i = 0; i < built.indices.size(); ++i) {
        const uint32_t v = built.indices[i];
        const size_t size = narrow ? 2 : 4;
        for (size_t b = 0; b < size; ++b) indices[size * i + b] = static_cast<uint8_t>(v >> (8 * b));
    }
    mesh.indices.type = narrow ? ComponentType::UInt16 : ComponentType::UInt32;
    mesh.indices.count = static_cast<uint32_t>(built.indices.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(indices));
    Submesh sm;
    sm.indexCount = mesh.indices.count;
    mesh.submeshes.push_back(sm);
    info(blockWhere() + ": " + primitiveKindName(kind) + " primitive, " + num(vertices) + " vertices, " +
         num(built.triangleCount()) + " triangles (tessellated as Away3D does)");
    m_scene.meshes.push_back(std::move(mesh));
}

}  // namespace esv::awd
