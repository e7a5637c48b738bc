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
    const size_t floatSize = wide ? 8 : 4;
    const glm::vec2 geoScale(float(propFloat(props, 1, 1.0, wide)), float(propFloat(props, 2, 1.0, wide)));
    unknownProps(props, {1, 2}, "geometry");

    std::vector<SubGeometry> subs;
    for (uint16_t s = 0; s < subCount; ++s) {
        const std::string where = blockWhere() + " / sub-geometry " + num(s);
        const uint64_t subAt = r.offset();
        const uint32_t subLength = r.u32();
        if (ended(r, "sub-geometry length")) return;
        // The length covers the streams (spec); AwayBuilder counts the properties in too. Away3D
        // reads both, so the streams are taken to end where one of the two readings makes them
        // tile exactly (the spec's first). The sub-geometry's user attributes follow.
        AttrList subProps;
        const size_t propsStart = r.position();
        if (!readAttrs(r, subProps, "sub-geometry")) return;
        const size_t propsSize = r.position() - propsStart;
        auto tiles = [&](size_t length) {
            if (length > r.remaining()) return false;
            const uint8_t* p = r.current();
            size_t at = 0;
            while (at < length) {
                if (length - at < 6) return false;
                const uint32_t n = uint32_t(p[at + 2]) | uint32_t(p[at + 3]) << 8 | uint32_t(p[at + 4]) << 16 |
                                   uint32_t(p[at + 5]) << 24;
                if (n > length - at - 6) return false;
                at += 6 + size_t(n);
            }
            return true;
        };
        size_t streamsLength = subLength;
        if (!tiles(subLength) && subLength >= propsSize && tiles(subLength - propsSize)) streamsLength = subLength - propsSize;
        if (streamsLength > r.remaining()) {
            fatal(subAt, where, "the sub-geometry claims " + num(subLength) + " bytes, " + num(r.remaining() + propsSize) +
                                    " remain in the block");
            return;
        }
        ByteReader sr = r.sub(streamsLength);
        const glm::vec2 subScale(float(propFloat(subProps, 1, 1.0, wide)), float(propFloat(subProps, 2, 1.0, wide)));
        unknownProps(subProps, {1, 2}, "sub-geometry");
        std::vector<RawStream> streams;
        while (!sr.atEnd()) {
            RawStream st;
            st.offset = sr.offset();
            st.type = sr.u8();
            st.dataType = sr.u8();
            st.length = sr.u32();
            if (!sr.ok()) {
                fatal(st.offset, where, "the sub-geometry ends inside a stream header");
                return;
            }
            if (st.length > sr.remaining()) {
                fatal(st.offset, where,
                      std::string("the ") + (streamTypeName(st.type) ? streamTypeName(st.type) : "data") + " stream claims " +
                          num(st.length) + " bytes, " + num(sr.remaining()) + " remain in the sub-geometry");
                return;
            }
            st.data = sr.current();
            sr.skip(st.length);
            streams.push_back(st);
        }
        if (!readUserAttrs(r, "sub-geometry")) return;

        SubGeometry sub;
        // Away3D's UV scaling: the geometry's scale when it is not 1, else the inverse of the
        // sub-geometry's (its scaleUV calls are absolute, the last one wins).
        for (int k = 0; k < 2; ++k)
            sub.uvScale[k] = geoScale[k] != 1.0f ? geoScale[k] : (subScale[k] != 1.0f && subScale[k] != 0.0f ? 1.0f / subScale[k] : 1.0f);

        // Whole elements of `size` bytes; a remainder is a violation and is left out.
        auto whole = [&](const RawStream& st, size_t size, const char* what) {
            if (st.length % size != 0)
                violation(st.offset, where,
                          std::string("the ") + what + " stream is " + num(st.length) + " bytes, not a multiple of its " +
                              num(size) + "-byte elements; the last " + num(st.length % size) + " bytes are ignored");
            return static_cast<uint32_t>(st.length / size);
        };
        const RawStream* positions = nullptr;
        const RawStream* indices = nullptr;
        const RawStream* normals = nullptr;
        const RawStream* tangents = nullptr;
        const RawStream* joints = nullptr;
        const RawStream* weights = nullptr;
        std::vector<const RawStream*> uvs;
        for (const RawStream& st : streams) {
            const RawStream** slot = nullptr;
            switch (st.type) {
                case stream::Positions: slot = &positions; break;
                case stream::Indices: slot = &indices; break;
                case stream::Normals: slot = &normals; break;
                case stream::Tangents: slot = &tangents; break;
                case stream::JointIndices: slot = &joints; break;
                case stream::JointWeights: slot = &weights; break;
                case stream::UVs: uvs.push_back(&st); continue;
                default:
                    info(where + ": stream type " + num(st.type) + " (" + num(st.length) + " bytes) is not defined; skipped");
                    continue;
            }
            if (*slot) {
                violation(st.offset, where,
                          std::string("a second ") + streamTypeName(st.type) + " stream; only the first is used");
                continue;
            }
            *slot = &st;
        }
        if (positions) {
            sub.positions = positions->data;
            sub.vertices = whole(*positions, 3 * floatSize, "positions");
        }
        if (indices) {
            uint32_t count = whole(*indices, 2, "face indices");
            if (count % 3 != 0)
                violation(indices->offset, where,
                          num(count) + " face indices are not whole triangles; the last " + num(count % 3) + " are ignored");
            count -= count % 3;
            // Every index must name a vertex of this sub-geometry.
            for (uint32_t i = 0; i < count; ++i) {
                const uint16_t v = loadU16(indices->data + 2 * size_t(i));
                if (v >= sub.vertices) {
                    fatal(indices->offset + 6 + 2 * uint64_t(i), where,
                          "face index " + num(i) + " is " + num(v) + ", past the sub-geometry's " + num(sub.vertices) + " vertices");
                    return;
                }
            }
            sub.indices = indices->data;
            sub.indexCount = count;
        } else if (sub.vertices > 0) {
            violation(positions->offset, where, "the sub-geometry has no face indices; it draws nothing");
        }
        // A per-vertex stream must cover every vertex; a short one is dropped, extra values ignored.
        auto perVertex = [&](const RawStream* st, uint8_t components, const char* what, Source& out) {
            if (!st || sub.vertices == 0) return;
            const uint32_t count = whole(*st, components * floatSize, what);
            if (count < sub.vertices) {
                violation(st->offset, where,
                          std::string("the ") + what + " stream holds " + num(count) + " values for " + num(sub.vertices) +
                              " vertices; it is not used");
                return;
            }
            if (count > sub.vertices)
                violation(st->offset, where,
                          std::string("the ") + what + " stream holds " + num(count) + " values for " + num(sub.vertices) +
                              " vertices; the extra ones are ignored");
            out.data = st->data;
            out.count = sub.vertices;
            out.components = components;
            out.wide = wide;
        };
        perVertex(normals, 3, "normals", sub.normals);
        perVertex(tangents, 3, "tangents", sub.tangents);
        for (size_t u = 0; u < uvs.size(); ++u) {
            Source uv;
            perVertex(uvs[u], 2, "UVs", uv);
            if (uv.data) sub.uvs.push_back(std::move(uv));
        }
        // Joints: the same number of indices and weights, a whole number per vertex.
        if ((joints || weights) && sub.vertices > 0) {
            if (!joints || !weights) {
                violation((joints ? joints : weights)->offset, where,
                          std::string("joint ") + (joints ? "indices" : "weights") + " without joint " +
                              (joints ? "weights" : "indices") + "; not used");
            } else {
                const uint32_t ji = whole(*joints, 2, "joint indices");
                const uint32_t jw = whole(*weights, floatSize, "joint weights");
                const uint32_t perVertexCount = ji / sub.vertices;
                if (ji != jw) {
                    violation(weights->offset, where,
                              num(ji) + " joint indices but " + num(jw) + " joint weights (they must match); not used");
                } else if (perVertexCount == 0 || ji % sub.vertices != 0) {
                    violation(joints->offset, where,
                              num(ji) + " joint indices are not a whole number per vertex for " + num(sub.vertices) +
                                  " vertices; not used");
                } else if (perVertexCount > 64) {
                    violation(joints->offset, where, num(perVertexCount) + " joints per vertex is more than 64; not used");
                } else {
                    sub.jointIndices = Source{joints->data, sub.vertices, uint8_t(perVertexCount), false, {}};
                    sub.jointWeights = Source{weights->data, sub.vertices, uint8_t(perVertexCount), wide, {}};
                    // Each vertex's weights must sum to 1 (spec, "Joint index and weight streams").
                    uint32_t bad = 0, first = 0;
                    float firstSum = 0.0f;
                    for (uint32_t v = 0; v < sub.vertices; ++v) {
                        float sum = 0.0f;
                        for (uint32_t k = 0; k < perVertexCount; ++k)
                            sum += loadFloat(weights->data + (size_t(v) * perVertexCount + k) * floatSize, wide);
                        if (!(std::fabs(sum - 1.0f) <= 1e-3f)) {
                            if (bad++ == 0) {
                                first = v;
                                firstSum = sum;
                            }
                        }
                    }
                    if (bad)
                        violation(weights->offset, where,
                                  "the joint weights of " + num(bad) + " vertices do not sum to 1 (first: vertex " + num(first) +
                                      ", sum " + std::to_string(firstSum) + ")");
                }
            }
        }
        if (!positions && (indices || !uvs.empty() || normals))
            violation(streams.empty() ? subAt : streams.front().offset, where, "the sub-geometry has no positions; it draws nothing");
        subs.push_back(std::move(sub));
    }
    if (!readUserAttrs(r, "geometry")) return;

    // Missing normals: computed from the triangles, as Away3D does.
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
    if (computed) m_computedNormals.push_back(name);

    Mesh mesh;
    mesh.name = name;
    uint64_t totalVertices = 0;
    for (const SubGeometry& sub : subs) totalVertices += sub.vertices;
    mesh.vertexCount = static_cast<uint32_t>(totalVertices);  // at most 65535 x 65535 fits
    const std::shared_ptr<const std::vector<uint8_t>>& owner = m_blockOwner ? m_blockOwner : m_body;
    const bool single = subs.size() == 1;
    bool converted = false;

    // One attribute stream from the subs' sources (`pick`), a view when it can be, else packed.
    auto addStream = [&](Semantic semantic, uint8_t set, bool isFloat, auto pick) {
        uint8_t components = 0;
        bool any = false;
        for (const SubGeometry& sub : subs) {
            const Source& s = pick(sub);
            if (!s.data) continue;
            any = true;
            components = std::max(components, s.components);
        }
        if (!any) return;
        const size_t elementSize = isFloat ? 4 : 2;
        // Checked in 64 bits: with a 32-bit size_t (armhf) the product could wrap to a short buffer.
        if (uint64_t(mesh.vertexCount) * components * elementSize > SIZE_MAX) {
            violation(m_current->offset + m_bodyBase, blockWhere(),
                      num(mesh.vertexCount) + " vertices of " + num(components) +
                          " components are more than this machine can address; the stream is not used");
            return;
        }
        VertexStream vs;
        vs.count = mesh.vertexCount;
        const SubGeometry& first = subs.front();
        const Source& firstSource = pick(first);
        const bool scaled = semantic == Semantic::TexCoord && first.uvScale != glm::vec2(1.0f);
        if (single && !firstSource.wide && firstSource.computed.empty() && !scaled) {
            vs.bytes = ByteView{owner, firstSource.data, size_t(firstSource.count) * components * elementSize};
        } else {
            std::vector<uint8_t> packed(size_t(mesh.vertexCount) * components * elementSize, 0);
            size_t base = 0;
            for (const SubGeometry& sub : subs) {
                const Source& s = pick(sub);
                if (s.data) {
                    for (size_t v = 0; v < s.count; ++v)
                        for (size_t k = 0; k < s.components; ++k) {
                            uint8_t* out = packed.data() + ((base + v) * components + k) * elementSize;
                            if (isFloat) {
                                float f = s.computed.empty()
                                              ? loadFloat(s.data + (v * s.components + k) * (s.wide ? 8 : 4), s.wide)
                                              : s.computed[v * s.components + k];
                                if (semantic == Semantic::TexCoord) f *= sub.uvScale[k & 1];
                                std::memcpy(out, &f, 4);
                            } else {
                                std::memcpy(out, s.data + (v * s.components + k) * 2, 2);
                            }
                        }
                    if (s.wide) converted = true;
                }
                base += sub.vertices;
            }
            vs.bytes = makeOwnedBytes(std::move(packed));
        }
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
    };
    std::vector<Source> positionSources(subs.size());
    for (size_t i = 0; i < subs.size(); ++i)
        if (subs[i].positions) positionSources[i] = Source{subs[i].positions, subs[i].vertices, 3, wide, {}};
    addStream(Semantic::Position, 0, true, [&](const SubGeometry& s) -> const Source& {
        return positionSources[static_cast<size_t>(&s - subs.data())];
    });
    addStream(Semantic::Normal, 0, true, [](const SubGeometry& s) -> const Source& { return s.normals; });
    addStream(Semantic::Tangent, 0, true, [](const SubGeometry& s) -> const Source& { return s.tangents; });
    size_t uvSets = 0;
    for (const SubGeometry& sub : subs) uvSets = std::max(uvSets, sub.uvs.size());
    static const Source kNone{};
    for (size_t set = 0; set < uvSets && set < 8; ++set)
        addStream(Semantic::TexCoord, uint8_t(set), true, [set](const SubGeometry& s) -> const Source& {
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
        violation(m_current->offset + m_bodyBase, blockWhere(),
                  "the sub-geometries bind different numbers of joints per vertex (or some none); joints are not used");
    } else if (jointsPerVertex) {
        addStream(Semantic::BoneIndices, 0, false, [](const SubGeometry& s) -> const Source& { return s.jointIndices; });
        addStream(Semantic::BoneWeights, 0, true, [](const SubGeometry& s) -> const Source& { return s.jointWeights; });
    }
    if (wide) {
        for (const SubGeometry& sub : subs) {
            if (sub.positions) ++m_float64Streams;
            m_float64Streams += (sub.normals.data && sub.normals.computed.empty()) + (sub.tangents.data != nullptr) +
                                sub.uvs.size() + (sub.jointWeights.data != nullptr);
        }
        if (converted) ++m_float64Geometries;
    }

    // Indices: a view for one sub-geometry, else rebased into one buffer.
    uint64_t totalIndices = 0;
    for (const SubGeometry& sub : subs) totalIndices += sub.indexCount;
    if (single && subs.front().indexCount) {
        mesh.indices.type = ComponentType::UInt16;
        mesh.indices.bytes = ByteView{owner, subs.front().indices, size_t(subs.front().indexCount) * 2};
        mesh.indices.count = subs.front().indexCount;
    } else if (totalIndices > UINT32_MAX || totalIndices * 4 > SIZE_MAX) {
        // Checked in 64 bits: with a 32-bit size_t (armhf) the buffer's size could wrap.
        violation(m_current->offset + m_bodyBase, blockWhere(),
                  num(totalIndices) +
                      " face indices are more than this machine can address; the geometry draws nothing");
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
    if (subs.size() > 1) m_packedGeometries.push_back(name);
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
