// OpenGEX geometry: GeometryObject -> Mesh (vertex arrays as streams, index arrays as submeshes,
// levels of detail), morph targets (absolute and relative, the spec's weighted sum) and skins
// (Skeleton bind poses, variable influence counts as fixed sets of 4).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "loaders/opengex/opengex_internal.h"

namespace esv::ogex {
namespace {

std::string str(std::string_view v) { return std::string(v); }

// Calls f(values, count) with the elements of unsigned data of 8, 16 or 32 bits in their own
// type, without a copy; false for other types, which the callers read widened (readUInts).
template <class F>
bool visitNarrowUInts(const ddl::PrimitiveData& data, F&& f) {
    const size_t n = data.elementCount();
    switch (data.type) {
        case ddl::DataType::UInt8: f(data.as<uint8_t>(), n); return true;
        case ddl::DataType::UInt16: f(data.as<uint16_t>(), n); return true;
        case ddl::DataType::UInt32: f(data.as<uint32_t>(), n); return true;
        default: return false;
    }
}

// Appends the indices of unsigned data of at most 32 bits to `out` when every one is below
// `limit`, raising `most` to the largest; false, with nothing appended, otherwise.
bool appendIndicesBelow(const ddl::PrimitiveData& data, uint64_t limit, std::vector<uint32_t>& out, uint64_t& most) {
    bool inRange = false;
    const bool narrow = visitNarrowUInts(data, [&](const auto* values, size_t n) {
        uint32_t largest = 0;
        for (size_t i = 0; i < n; ++i) largest = std::max<uint32_t>(largest, values[i]);
        if (n && largest >= limit) return;
        const size_t at = out.size();
        out.resize(at + n);
        std::copy(values, values + n, out.begin() + std::ptrdiff_t(at));
        if (n) most = std::max<uint64_t>(most, largest);
        inRange = true;
    });
    return narrow && inRange;
}

// A VertexArray attrib: the semantic and set ("texcoord" index 1, or the older "texcoord[1]").
bool semanticOf(std::string_view attrib, uint64_t index, Semantic& semantic, uint64_t& set) {
    set = index;
    const size_t bracket = attrib.find('[');
    if (bracket != std::string_view::npos && attrib.back() == ']') {
        uint64_t n = 0;
        for (size_t i = bracket + 1; i + 1 < attrib.size(); ++i) {
            if (attrib[i] < '0' || attrib[i] > '9' || n > 1000) return false;
            n = n * 10 + uint64_t(attrib[i] - '0');
        }
        set = n;
        attrib = attrib.substr(0, bracket);
    }
    if (attrib == "position") {
        semantic = Semantic::Position;
    } else if (attrib == "normal") {
        semantic = Semantic::Normal;
    } else if (attrib == "tangent") {
        semantic = Semantic::Tangent;
    } else if (attrib == "bitangent") {
        semantic = Semantic::Binormal;
    } else if (attrib == "color") {
        semantic = Semantic::Color;
    } else if (attrib == "texcoord") {
        semantic = Semantic::TexCoord;
    } else {
        return false;
    }
    return true;
}

bool primitiveOf(std::string_view name, Primitive& p) {
    if (name == "triangles") {
        p = Primitive::Triangles;
    } else if (name == "triangle_strip") {
        p = Primitive::TriangleStrip;
    } else if (name == "quads") {
        p = Primitive::Quads;
    } else if (name == "lines") {
        p = Primitive::Lines;
    } else if (name == "line_strip") {
        p = Primitive::LineStrip;
    } else if (name == "points") {
        p = Primitive::Points;
    } else {
        return false;
    }
    return true;
}

// Subarray size an IndexArray of this primitive must have (0 = a flat list).
uint32_t groupSize(Primitive p) {
    switch (p) {
        case Primitive::Triangles:
            return 3;
        case Primitive::Quads:
            return 4;
        case Primitive::Lines:
            return 2;
        default:
            return 0;
    }
}

// Turns the clockwise faces of submesh `sub` (its indices at the end of `indices`, restarts as
// UINT32_MAX) counter-clockwise and clears Submesh::frontFaceCW: a triangle's last two corners
// swap, a quad's second and fourth; each run of a strip starts with its first index twice (one
// degenerate triangle, after which every triangle's parity, and so its winding, is the other one),
// the strip's lengths growing by one. Lines and points have no faces.
void flipWinding(Primitive primitive, std::vector<uint32_t>& indices, Submesh& sub) {
    sub.frontFaceCW = false;
    const size_t first = sub.firstIndex;
    if (primitive == Primitive::Triangles) {
        for (size_t i = first; i + 2 < indices.size(); i += 3) std::swap(indices[i + 1], indices[i + 2]);
    } else if (primitive == Primitive::Quads) {
        for (size_t i = first; i + 3 < indices.size(); i += 4) std::swap(indices[i + 1], indices[i + 3]);
    } else if (primitive == Primitive::TriangleStrip) {
        std::vector<uint32_t> out;
        out.reserve(indices.size() - first + 8);
        bool runStart = true;
        for (size_t i = first; i < indices.size(); ++i) {
            if (indices[i] == UINT32_MAX) {
                runStart = true;
            } else if (runStart) {
                out.push_back(indices[i]);
                runStart = false;
            }
            out.push_back(indices[i]);
        }
        indices.resize(first);
        indices.insert(indices.end(), out.begin(), out.end());
        for (uint32_t& length : sub.stripLengths) ++length;
        sub.indexCount = static_cast<uint32_t>(indices.size() - first);
    }
}

struct ArrayRef {
    const Structure* array = nullptr;  // the VertexArray
    const Structure* data = nullptr;   // its primitive
    Semantic semantic = Semantic::Position;
    uint8_t set = 0;
    uint32_t morph = 0;
    uint32_t components = 0;
    uint32_t count = 0;  // vertices
};

// The array's values as floats, `components` per vertex.
std::vector<float> floatsOf(Reader& r, const ArrayRef& a) {
    std::vector<float> v;
    r.readFloats(a.data, v);
    v.resize(size_t(a.count) * a.components);
    return v;
}

// ---- The parts of a GeometryObject (Reader::readGeometryObject), in the order they run.

using StructureMap = std::map<uint64_t, const Structure*>;

// What the parts share: the object's name, the Mesh that is drawn (the lowest lod) and what it
// holds once its VertexArrays are checked.
struct LodMesh {
    std::string objectName;
    const Structure* mesh = nullptr;
    Primitive primitive = Primitive::Triangles;
    std::string_view primitiveName;
    std::vector<ArrayRef> arrays;
    std::vector<const Structure*> indexArrays;
    const Structure* skin = nullptr;
    uint32_t vertexCount = 0;
};

// Sorts a GeometryObject's children: Meshes by level of detail, Morph structures by index.
void collectLodsAndMorphs(Reader& r, const Structure* s, StructureMap& lods, StructureMap& morphs) {
    for (const Structure* c : s->children) {
        if (c->primitive) {
            r.violation(c, "a GeometryObject holds no data of its own");
            continue;
        }
        if (c->identifier == "Mesh") {
            const uint64_t lod = r.propUInt(c, "lod", 0);
            if (lods.count(lod)) {
                r.violation(c, "a second Mesh with lod " + std::to_string(lod));
                continue;
            }
            lods[lod] = c;
        } else if (c->identifier == "Morph") {
            const uint64_t index = r.propUInt(c, "index", 0);
            if (morphs.count(index)) {
                r.violation(c, "a second Morph with index " + std::to_string(index));
                continue;
            }
            morphs[index] = c;
        } else {
            ++r.m_unknown;
            ++r.m_unknownKinds[str(c->identifier)];
        }
    }
}

// Checks VertexArray `c` of the drawn Mesh into `a`: its attrib, set, morph index and data. False
// (after a violation or a note) when the array is not kept; `lod.arrays` are those kept before it.
bool readVertexArray(Reader& r, const Structure* c, const LodMesh& lod, ArrayRef& a) {
    a.array = c;
    const std::string_view attrib = r.propString(c, "attrib", "");
    uint64_t set = 0;
    if (attrib.empty()) {
        r.violation(c, "a VertexArray needs an attrib");
        return false;
    }
    if (!semanticOf(attrib, r.propUInt(c, "index", 0), a.semantic, set)) {
        r.note("geometry '" + lod.objectName + "': vertex array \"" + str(attrib) + "\" is not one this viewer draws; ignored");
        return false;
    }
    if (set > 7) {
        r.violation(c, "attribute index " + std::to_string(set) + " is beyond the 8 sets this viewer reads");
        return false;
    }
    a.set = static_cast<uint8_t>(set);
    const uint64_t morph = r.propUInt(c, "morph", 0);
    if (morph > std::numeric_limits<uint32_t>::max()) {
        r.violation(c, "morph index " + std::to_string(morph) + " is out of range");
        return false;
    }
    a.morph = static_cast<uint32_t>(morph);
    a.data = r.dataOf(c, "half, float or double");
    if (!a.data) return false;
    const DataType t = a.data->data.type;
    if (t != DataType::Float && t != DataType::Double && t != DataType::Half) {
        r.violation(a.data, std::string("vertex arrays hold half, float or double data, found ") + ddl::dataTypeName(t));
        return false;
    }
    a.components = std::max<uint32_t>(1, a.data->data.arraySize);
    if (a.components > 4) {
        r.violation(a.data, "vertex data has 1 to 4 components, found " + std::to_string(a.components));
        return false;
    }
    a.count = static_cast<uint32_t>(std::min<size_t>(a.data->data.elementCount() / a.components, UINT32_MAX));
    bool duplicate = false;
    for (const ArrayRef& other : lod.arrays)
        duplicate |= other.semantic == a.semantic && other.set == a.set && other.morph == a.morph;
    if (duplicate) {
        r.violation(c, "a second \"" + str(attrib) + "\" array with index " + std::to_string(set) +
                           " for morph target " + std::to_string(a.morph) + " (ignored; give it another index)");
        return false;
    }
    return true;
}

// Sorts the drawn Mesh's children: its checked VertexArrays, its IndexArrays and its Skin.
void collectMeshChildren(Reader& r, LodMesh& lod) {
    for (const Structure* c : lod.mesh->children) {
        if (c->primitive) {
            r.violation(c, "a Mesh holds no data of its own");
            continue;
        }
        if (c->identifier == "VertexArray") {
            ArrayRef a;
            if (readVertexArray(r, c, lod, a)) lod.arrays.push_back(a);
        } else if (c->identifier == "IndexArray") {
            lod.indexArrays.push_back(c);
        } else if (c->identifier == "Skin") {
            if (lod.skin) r.violation(c, "a Mesh holds one Skin");
            if (!lod.skin) lod.skin = c;
        } else {
            ++r.m_unknown;
            ++r.m_unknownKinds[str(c->identifier)];
        }
    }
    if (lod.arrays.empty()) r.violation(lod.mesh, "a Mesh must contain at least one VertexArray");
}

// Sets the vertex count: the base position array's, else the first array's. Arrays of another
// length break the mesh rule and are dropped (an empty one is the common case). Returns the
// lowest morph index of any array (UINT32_MAX when there is none).
uint32_t matchVertexCounts(Reader& r, LodMesh& lod) {
    uint32_t baseMorph = UINT32_MAX;
    for (const ArrayRef& a : lod.arrays) baseMorph = std::min(baseMorph, a.morph);
    const ArrayRef* positions = nullptr;
    for (const ArrayRef& a : lod.arrays)
        if (a.semantic == Semantic::Position && (!positions || a.morph < positions->morph)) positions = &a;
    const bool hasPositions = positions != nullptr;
    lod.vertexCount = positions ? positions->count : lod.arrays.empty() ? 0 : lod.arrays.front().count;
    std::vector<ArrayRef> kept;
    for (const ArrayRef& a : lod.arrays) {
        if (a.count != lod.vertexCount) {
            r.violation(a.array, "this array has " + std::to_string(a.count) + " vertices, the mesh " +
                                     std::to_string(lod.vertexCount) + "; all arrays of a mesh must match (array ignored)");
            continue;
        }
        kept.push_back(a);
    }
    lod.arrays = std::move(kept);
    if (!hasPositions) {
        // Not against the spec (no attrib is required), but nothing can be drawn without positions.
        r.m_diag.warn(r.placeOf(lod.mesh), r.where(lod.mesh), "the mesh has no position array; it is not drawn");
    }
    return baseMorph;
}

// Every morph index that has arrays or a Morph structure, ascending.
std::vector<uint32_t> morphIndicesOf(const std::vector<ArrayRef>& arrays, const StructureMap& morphs) {
    std::vector<uint32_t> morphIndices;
    for (const ArrayRef& a : arrays)
        if (std::find(morphIndices.begin(), morphIndices.end(), a.morph) == morphIndices.end()) morphIndices.push_back(a.morph);
    for (const auto& [index, m] : morphs)
        if (index <= UINT32_MAX && std::find(morphIndices.begin(), morphIndices.end(), uint32_t(index)) == morphIndices.end())
            morphIndices.push_back(static_cast<uint32_t>(index));
    std::sort(morphIndices.begin(), morphIndices.end());
    return morphIndices;
}

// The array of attribute `sem`, set `set` for morph index `morph`: its own, else the one with the
// lowest morph index; null when the attribute has none.
const ArrayRef* baseArray(const std::vector<ArrayRef>& arrays, Semantic sem, uint8_t set, uint32_t morph) {
    const ArrayRef* found = nullptr;
    for (const ArrayRef& a : arrays)
        if (a.semantic == sem && a.set == set) {
            if (a.morph == morph) return &a;
            if (!found || a.morph < found->morph) found = &a;
        }
    return found;
}

// Base array `a` as a mesh stream, as stored: float data is moved out of the parse tree (unless
// morph targets still read it), half stays half, double is converted once (counted in `doubles`).
VertexStream baseStream(Reader& r, const ArrayRef& a, uint32_t vertexCount, bool morphing, size_t& doubles) {
    VertexStream stream;
    stream.count = vertexCount;
    VertexAttribute attr;
    attr.semantic = a.semantic;
    attr.set = a.set;
    attr.components = static_cast<uint8_t>(a.components);
    const DataType t = a.data->data.type;
    if (t == DataType::Half) {
        attr.type = ComponentType::Float16;
        stream.stride = 2 * a.components;
        std::vector<uint8_t> bytes(a.data->data.bytes.begin(),
                                   a.data->data.bytes.begin() + std::ptrdiff_t(size_t(vertexCount) * stream.stride));
        stream.bytes = makeOwnedBytes(std::move(bytes));
    } else if (t == DataType::Float && !morphing) {
        attr.type = ComponentType::Float32;
        stream.stride = 4 * a.components;
        // Nobody else reads this array: take its bytes instead of copying them.
        std::vector<uint8_t>& owned = const_cast<Structure*>(a.data)->data.bytes;
        owned.resize(size_t(vertexCount) * stream.stride);
        stream.bytes = makeOwnedBytes(std::move(owned));
        const_cast<Structure*>(a.data)->data.bytes.clear();
    } else {
        if (t == DataType::Double) ++doubles;
        attr.type = ComponentType::Float32;
        stream.stride = 4 * a.components;
        std::vector<float> v = floatsOf(r, a);
        std::vector<uint8_t> bytes(v.size() * 4);
        if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
        stream.bytes = makeOwnedBytes(std::move(bytes));
    }
    if (a.semantic == Semantic::Color) attr.normalized = false;
    stream.attributes.push_back(attr);
    return stream;
}

// The base arrays (lowest morph index per attribute) become the mesh's streams.
void writeBaseStreams(Reader& r, const LodMesh& lod, uint32_t baseMorph, bool morphing, Mesh& mesh) {
    size_t doubles = 0;
    for (const ArrayRef& a : lod.arrays) {
        if (baseArray(lod.arrays, a.semantic, a.set, baseMorph) != &a) continue;
        mesh.streams.push_back(baseStream(r, a, lod.vertexCount, morphing, doubles));
    }
    if (doubles) r.note("geometry '" + lod.objectName + "': " + std::to_string(doubles) + " double vertex array(s) converted to float once (GLES reads no doubles)");
}

// Values of attribute `sem` for morph target k (its own array, else the lowest-index one), as 3
// components per vertex (missing ones are 0, as the spec says).
std::vector<float> morphValues(Reader& r, const LodMesh& lod, Semantic sem, uint32_t k) {
    const ArrayRef* a = baseArray(lod.arrays, sem, 0, k);
    std::vector<float> v = a ? floatsOf(r, *a) : std::vector<float>();
    std::vector<float> out(size_t(lod.vertexCount) * 3, 0.0f);
    if (a)
        for (uint32_t i = 0; i < lod.vertexCount; ++i)
            for (uint32_t c = 0; c < 3 && c < a->components; ++c) out[size_t(i) * 3 + c] = v[size_t(i) * a->components + c];
    return out;
}

// A morph target's stream: positions, then normals when `withNormals`, interleaved.
VertexStream morphStream(const std::vector<float>& pos, const std::vector<float>& nrm, uint32_t vertexCount, bool withNormals) {
    VertexStream stream;
    const uint32_t stride = withNormals ? 24 : 12;
    std::vector<uint8_t> bytes(size_t(vertexCount) * stride);
    for (uint32_t i = 0; i < vertexCount; ++i) {
        std::memcpy(&bytes[size_t(i) * stride], &pos[size_t(i) * 3], 12);
        if (withNormals) std::memcpy(&bytes[size_t(i) * stride + 12], &nrm[size_t(i) * 3], 12);
    }
    stream.bytes = makeOwnedBytes(std::move(bytes));
    stream.stride = stride;
    stream.count = vertexCount;
    stream.attributes.push_back({Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0});
    if (withNormals)
        stream.attributes.push_back({Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 12});
    return stream;
}

// Morph target k: its name, whether it is relative (and to which absolute target), and its
// positions (and normals) as a stream.
MorphTarget readMorphTarget(Reader& r, const LodMesh& lod, const StructureMap& morphs,
                            const std::vector<uint32_t>& morphIndices, uint32_t k, uint32_t baseMorph, bool withNormals) {
    MorphTarget target;
    const Structure* morph = morphs.count(k) ? morphs.at(k) : nullptr;
    target.name = morph ? r.nameOf(morph) : "";
    if (target.name.empty()) target.name = "morph " + std::to_string(k);
    bool hasBase = false;
    const uint64_t base = morph ? r.propUInt(morph, "base", 0, &hasBase) : 0;
    target.relative = hasBase;
    if (hasBase) {
        const bool baseIsTarget = base <= UINT32_MAX &&
                                  std::find(morphIndices.begin(), morphIndices.end(), uint32_t(base)) != morphIndices.end();
        const bool baseRelative = morphs.count(base) && morphs.at(base)->property("base");
        if (!baseIsTarget || baseRelative || base == k) {
            r.violation(morph, "the base of a relative morph target must be another, absolute morph target (base " +
                                   std::to_string(base) + ")");
            target.relative = false;
        }
    }
    target.isBase = !target.relative && k == baseMorph;
    std::vector<float> pos = morphValues(r, lod, Semantic::Position, k);
    std::vector<float> nrm = withNormals ? morphValues(r, lod, Semantic::Normal, k) : std::vector<float>();
    if (target.relative) {
        // M_i = A_i - A_b(i), stored as the delta the renderer adds.
        const std::vector<float> basePos = morphValues(r, lod, Semantic::Position, static_cast<uint32_t>(base));
        for (size_t i = 0; i < pos.size(); ++i) pos[i] -= basePos[i];
        if (withNormals) {
            const std::vector<float> baseNrm = morphValues(r, lod, Semantic::Normal, static_cast<uint32_t>(base));
            for (size_t i = 0; i < nrm.size(); ++i) nrm[i] -= baseNrm[i];
        }
    }
    target.stream = morphStream(pos, nrm, lod.vertexCount, withNormals);
    return target;
}

// Every morph index becomes a morph target of the mesh (blending positions, and normals when both
// the base and a target have them), with the spec's default weights.
void writeMorphTargets(Reader& r, const LodMesh& lod, const StructureMap& morphs, const std::vector<uint32_t>& morphIndices,
                       GeometryInfo& info, Mesh& mesh) {
    const bool hasNormals = baseArray(lod.arrays, Semantic::Normal, 0, info.baseMorph) != nullptr;
    bool targetNormals = false;
    for (const ArrayRef& a : lod.arrays) targetNormals |= a.semantic == Semantic::Normal && a.morph != info.baseMorph;
    const bool withNormals = hasNormals && targetNormals;
    for (uint32_t k : morphIndices) {
        MorphTarget target = readMorphTarget(r, lod, morphs, morphIndices, k, info.baseMorph, withNormals);
        info.morphTarget[k] = static_cast<uint32_t>(mesh.morphTargets.size());
        mesh.morphTargets.push_back(std::move(target));
    }
    // No MorphWeight at all: morph target 0 weighs 1, the others 0 (spec, MorphWeight).
    mesh.defaultMorphWeights.assign(mesh.morphTargets.size(), 0.0f);
    auto zero = info.morphTarget.find(0);
    mesh.defaultMorphWeights[zero != info.morphTarget.end() ? zero->second : 0] = 1.0f;
    mesh.morphBaseWeighted = true;
    bool tangents = false;
    for (const ArrayRef& a : lod.arrays) tangents |= a.morph != info.baseMorph && a.semantic != Semantic::Position && a.semantic != Semantic::Normal;
    if (tangents) r.note("geometry '" + lod.objectName + "': morph targets blend positions and normals; other morphed arrays are ignored");
}

// What the IndexArrays of a mesh build together: one index buffer (restarts as UINT32_MAX) and
// the material value of each submesh slot.
struct IndexBuild {
    std::vector<uint32_t> indices;
    uint64_t maxIndex = 0;
    std::vector<uint32_t> materialValues;
    bool restartRewritten = false;
    size_t flippedArrays = 0;
};

// Appends the indices of IndexArray `ia` (data `d`) for submesh `sub`, checking each against the
// vertex count and splitting strips at `restart` when `hasRestart`. False when the array adds no
// submesh: unreadable data, or an index out of range (the load fails; the rest is still checked).
bool appendIndexArray(Reader& r, const LodMesh& lod, const Structure* ia, const Structure* d, bool hasRestart,
                      uint64_t restart, Submesh& sub, IndexBuild& b) {
    const uint32_t group = groupSize(lod.primitive);
    const uint32_t vertexCount = lod.vertexCount;
    std::vector<uint32_t>& indices = b.indices;
    sub.firstIndex = static_cast<uint32_t>(indices.size());
    std::vector<uint64_t> values;
    uint32_t run = 0;
    // The common case straight from the parsed data (no widened copy): no restarts, unsigned
    // indices of at most 32 bits, every one in range. Anything else goes through `values`.
    if (!hasRestart && appendIndicesBelow(d->data, vertexCount, indices, b.maxIndex))
        run = static_cast<uint32_t>(indices.size()) - sub.firstIndex;
    else if (!r.readUInts(d, values))
        return false;
    const uint32_t size = std::max<uint32_t>(1, d->data.arraySize);
    if (group ? size != group : size != 1)
        r.violation(d, std::string(group ? "indices of " : "indices of a ") + str(lod.primitiveName) + " come " +
                           (group ? "in subarrays of " + std::to_string(group) : std::string("as a flat list")) +
                           ", found subarrays of " + std::to_string(size));
    if (!hasRestart && !values.empty()) {
        // The common case in one tight pass: no restarts, every index in range.
        uint64_t most = 0;
        for (uint64_t v : values) most = std::max(most, v);
        if (most < vertexCount) {
            const size_t at = indices.size();
            indices.resize(at + values.size());
            for (size_t i = 0; i < values.size(); ++i) indices[at + i] = static_cast<uint32_t>(values[i]);
            b.maxIndex = std::max(b.maxIndex, most);
            run = static_cast<uint32_t>(values.size());
            values.clear();
        }
    }
    for (uint64_t v : values) {
        if (hasRestart && v == restart) {
            if (lod.primitive == Primitive::TriangleStrip && run >= 3) sub.stripLengths.push_back(run - 2);
            indices.push_back(UINT32_MAX);  // the all-ones restart of the index type chosen below
            run = 0;
            continue;
        }
        if (v >= vertexCount) {
            r.fail(ia, "index " + std::to_string(v) + " is out of range for " + std::to_string(vertexCount) + " vertices");
            indices.resize(sub.firstIndex);
            return false;
        }
        b.maxIndex = std::max(b.maxIndex, v);
        indices.push_back(static_cast<uint32_t>(v));
        ++run;
    }
    if (hasRestart) {
        sub.primitiveRestart = true;
        if (lod.primitive == Primitive::TriangleStrip && run >= 3) sub.stripLengths.push_back(run - 2);
        b.restartRewritten |= restart != 0xFFFFFFFFull;
    }
    sub.indexCount = static_cast<uint32_t>(indices.size()) - sub.firstIndex;
    return true;
}

// IndexArray `ia` as one submesh of `mesh`: its properties, its indices (turned counter-clockwise
// when its front is "cw") and its material slot.
void readIndexArray(Reader& r, const LodMesh& lod, const Structure* ia, IndexBuild& b, Mesh& mesh) {
    const uint32_t group = groupSize(lod.primitive);
    const Primitive primitive = lod.primitive;
    Submesh sub;
    sub.primitive = primitive;
    const uint64_t material = r.propUInt(ia, "material", 0);
    bool hasRestart = false;
    const uint64_t restart = r.propUInt(ia, "restart", 0, &hasRestart);
    if (hasRestart && primitive != Primitive::TriangleStrip && primitive != Primitive::LineStrip) {
        r.violation(ia, "restart applies to line_strip and triangle_strip meshes only");
        hasRestart = false;
    }
    const std::string_view front = r.propString(ia, "front", "ccw");
    if (front != "ccw" && front != "cw") r.violation(ia, "front must be \"cw\" or \"ccw\", found \"" + str(front) + "\"");
    sub.frontFaceCW = front == "cw";
    const Structure* d = r.dataOf(ia, "unsigned integer");
    if (!d) return;
    if (!appendIndexArray(r, lod, ia, d, hasRestart, restart, sub, b)) return;
    if (sub.frontFaceCW) {
        // Clockwise fronts are turned counter-clockwise here, where they are read, so that the
        // renderer, the converters and every reader downstream see one winding.
        flipWinding(primitive, b.indices, sub);
        ++b.flippedArrays;
    }
    if (group && sub.indexCount % group)
        r.violation(d, std::to_string(sub.indexCount) + " indices do not make whole " + str(lod.primitiveName));
    // Material slots are dense: the k-th distinct material value is slot k.
    std::vector<uint32_t>& materialValues = b.materialValues;
    auto slot = std::find(materialValues.begin(), materialValues.end(), material);
    if (slot == materialValues.end()) {
        if (material > UINT32_MAX) {
            r.violation(ia, "material index " + std::to_string(material) + " is out of range");
            return;
        }
        materialValues.push_back(static_cast<uint32_t>(material));
        slot = materialValues.end() - 1;
    }
    sub.materialSlot = static_cast<uint32_t>(slot - materialValues.begin());
    mesh.submeshes.push_back(std::move(sub));
}

// The index buffer in the narrowest type that holds every index and keeps all-ones free for
// restarts.
void writeIndexBuffer(Reader& r, const LodMesh& lod, const IndexBuild& b, Mesh& mesh) {
    const std::vector<uint32_t>& indices = b.indices;
    const uint64_t maxIndex = b.maxIndex;
    const ComponentType type = maxIndex < 0xFF ? ComponentType::UInt8 : maxIndex < 0xFFFF ? ComponentType::UInt16 : ComponentType::UInt32;
    const size_t size = componentSize(type);
    std::vector<uint8_t> bytes(indices.size() * size);
    auto narrowTo = [&](auto tag) {
        using T = decltype(tag);
        for (size_t i = 0; i < indices.size(); ++i) {
            const T v = static_cast<T>(indices[i]);  // restarts (all ones) become all ones of T
            std::memcpy(&bytes[i * sizeof(T)], &v, sizeof(T));
        }
    };
    if (type == ComponentType::UInt8) narrowTo(uint8_t());
    else if (type == ComponentType::UInt16) narrowTo(uint16_t());
    else std::memcpy(bytes.data(), indices.data(), bytes.size());
    mesh.indices.type = type;
    mesh.indices.count = static_cast<uint32_t>(indices.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(bytes));
    if (b.restartRewritten) r.note("geometry '" + lod.objectName + "': strip restart indices stored as all ones of the index type");
}

// The IndexArrays as submeshes, all in one index buffer (a mesh without any draws its vertices in
// order). Returns the IndexArray material value of each submesh slot.
std::vector<uint32_t> readIndexArrays(Reader& r, const LodMesh& lod, Mesh& mesh) {
    IndexBuild b;
    size_t total = 0;
    for (const Structure* ia : lod.indexArrays)
        for (const Structure* k : ia->children)
            if (k->primitive) total += k->data.elementCount();
    b.indices.reserve(total);
    for (const Structure* ia : lod.indexArrays) readIndexArray(r, lod, ia, b, mesh);
    if (b.flippedArrays)
        r.note("geometry '" + lod.objectName + "': " + std::to_string(b.flippedArrays) +
               (b.flippedArrays == 1 ? " index array" : " index arrays") +
               " wound clockwise (front = \"cw\") turned counter-clockwise");
    const uint32_t group = groupSize(lod.primitive);
    const uint32_t vertexCount = lod.vertexCount;
    if (lod.indexArrays.empty() && vertexCount > 0) {
        // No IndexArray: as if one held 0 .. n-1 (spec, Mesh).
        Submesh sub;
        sub.primitive = lod.primitive;
        sub.indexCount = vertexCount;
        mesh.submeshes.push_back(sub);
        b.materialValues.push_back(0);
        if (group && vertexCount % group) r.violation(lod.mesh, std::to_string(vertexCount) + " vertices do not make whole " + str(lod.primitiveName));
    }
    if (!b.indices.empty()) writeIndexBuffer(r, lod, b, mesh);
    return b.materialValues;
}

// Other levels of detail are listed, not drawn.
void listOtherLods(Reader& r, const StructureMap& lods, const LodMesh& lod) {
    for (auto it = std::next(lods.begin()); it != lods.end(); ++it) {
        size_t vertices = 0, lodIndices = 0;
        const std::string_view p = r.propString(it->second, "primitive", "triangles");
        if (p != lod.primitiveName) r.violation(it->second, "every level of detail must use the same primitive");
        for (const Structure* c : it->second->children) {
            if (c->primitive) continue;
            const Structure* d = nullptr;
            for (const Structure* k : c->children)
                if (k->primitive) d = k;
            if (!d) continue;
            if (c->identifier == "VertexArray" && r.propString(c, "attrib", "") == "position" && r.propUInt(c, "morph", 0) == 0)
                vertices = d->data.elementCount() / std::max<uint32_t>(1, d->data.arraySize);
            if (c->identifier == "IndexArray") lodIndices += d->data.elementCount();
        }
        r.note("geometry '" + lod.objectName + "': lod " + std::to_string(it->first) + " (" + std::to_string(vertices) +
               " vertices, " + std::to_string(lodIndices) + " indices) is listed, not drawn");
    }
}

}  // namespace

// A GeometryObject -> one Mesh (its lowest lod) and what nodes bind to it; see the parts above.
void Reader::readGeometryObject(const Structure* s) {
    GeometryInfo info;
    info.visible = propBool(s, "visible", true);
    propBool(s, "shadow", true);
    propBool(s, "motion_blur", true);

    StructureMap lods, morphs;
    collectLodsAndMorphs(*this, s, lods, morphs);
    LodMesh lod;
    lod.objectName = s->hasName ? str(s->name.identifier) : "geometry " + std::to_string(m_scene.meshes.size());
    Mesh mesh;
    mesh.name = lod.objectName;
    info.mesh = static_cast<int32_t>(m_scene.meshes.size());
    if (lods.empty()) {
        violation(s, "a GeometryObject must contain at least one Mesh");
        m_scene.meshes.push_back(std::move(mesh));
        m_geometry[s] = std::move(info);
        return;
    }
    lod.mesh = lods.begin()->second;
    if (lods.begin()->first != 0)
        note("geometry '" + lod.objectName + "': no lod 0 mesh; lod " + std::to_string(lods.begin()->first) + " is drawn");

    // ---- vertex arrays
    lod.primitiveName = propString(lod.mesh, "primitive", "triangles");
    if (!primitiveOf(lod.primitiveName, lod.primitive)) {
        violation(lod.mesh, "unknown primitive \"" + str(lod.primitiveName) + "\"");
        m_scene.meshes.push_back(std::move(mesh));
        m_geometry[s] = std::move(info);
        return;
    }
    collectMeshChildren(*this, lod);
    const uint32_t baseMorph = matchVertexCounts(*this, lod);
    mesh.vertexCount = lod.vertexCount;
    info.baseMorph = baseMorph == UINT32_MAX ? 0 : baseMorph;
    const std::vector<uint32_t> morphIndices = morphIndicesOf(lod.arrays, morphs);
    const bool morphing = morphIndices.size() > 1 && lod.vertexCount > 0;
    writeBaseStreams(*this, lod, info.baseMorph, morphing, mesh);

    // ---- morph targets: every morph index that has arrays or a Morph structure.
    if (morphing) {
        writeMorphTargets(*this, lod, morphs, morphIndices, info, mesh);
    } else {
        for (const auto& [index, m] : morphs) note("geometry '" + lod.objectName + "': Morph " + std::to_string(index) + " has no vertex data of its own");
    }

    // ---- index arrays: one submesh each, all in one index buffer.
    info.materialIndices = readIndexArrays(*this, lod, mesh);
    listOtherLods(*this, lods, lod);
    info.skin = lod.skin;
    m_scene.meshes.push_back(std::move(mesh));
    m_geometry[s] = std::move(info);
}

namespace {

// ---- The parts of binding a Skin (Reader::bindSkins), in the order they run.

// The structures a Skin holds, one of each (the first where a file has more); null where none.
struct SkinParts {
    const Structure* skeleton = nullptr;
    const Structure* bind = nullptr;  // the Skin's own Transform (T_bind)
    const Structure* counts = nullptr;
    const Structure* boneIndices = nullptr;
    const Structure* boneWeights = nullptr;
};

// Sorts the children of Skin `s`; false (after a violation for each) when a required one is missing.
bool collectSkinParts(Reader& r, const Structure* s, SkinParts& p) {
    for (const Structure* c : s->children) {
        if (c->primitive) {
            r.violation(c, "a Skin holds no data of its own");
            continue;
        }
        const Structure** slot = c->identifier == "Skeleton"          ? &p.skeleton
                                 : c->identifier == "Transform"       ? &p.bind
                                 : c->identifier == "BoneCountArray"  ? &p.counts
                                 : c->identifier == "BoneIndexArray"  ? &p.boneIndices
                                 : c->identifier == "BoneWeightArray" ? &p.boneWeights
                                                                      : nullptr;
        if (!slot) continue;
        if (*slot) r.violation(c, "a Skin holds one " + str(c->identifier));
        if (!*slot) *slot = c;
    }
    bool ok = true;
    for (auto [structure, name] : {std::pair{p.skeleton, "Skeleton"}, std::pair{p.counts, "BoneCountArray"},
                                   std::pair{p.boneIndices, "BoneIndexArray"}, std::pair{p.boneWeights, "BoneWeightArray"}})
        if (!structure) {
            r.violation(s, std::string("a Skin must contain a ") + name);
            ok = false;
        }
    return ok;
}

// The bones of BoneRefArray `refs` as node indices (skin.joints); false unless every one names a node.
bool readBoneRefs(Reader& r, const Structure* refs, Skin& skin) {
    const Structure* refData = r.dataOf(refs, "ref");
    if (!refData || refData->data.type != DataType::Ref) {
        if (refData) r.violation(refData, "a BoneRefArray holds ref data");
        return false;
    }
    for (const ddl::Reference& ref : refData->data.refs) {
        const Structure* bone = r.resolveRef(refData, ref, "a bone node");
        auto node = bone ? r.m_node.find(bone) : r.m_node.end();
        if (bone && node == r.m_node.end()) r.violation(refData, "the bone reference " + ref.toString() + " names no node");
        if (bone && node != r.m_node.end() && bone->identifier != "BoneNode")
            r.violation(refData, "the bone reference " + ref.toString() + " names a " + str(bone->identifier) + ", not a BoneNode");
        skin.joints.push_back(node != r.m_node.end() ? node->second : -1);
    }
    if (std::find(skin.joints.begin(), skin.joints.end(), -1) != skin.joints.end()) {
        r.violation(refData, "every bone reference must name a node (skin ignored)");
        return false;
    }
    return true;
}

// The Skeleton's bind-pose Transform `bindPoses` (B_k, one per bone) and the Skin's own Transform
// `bind` (T_bind, identity when null) as skin.inverseBind; false when there are too few poses.
bool readBindPoses(Reader& r, const Structure* bindPoses, const Structure* bind, Skin& skin) {
    const Structure* poseData = r.dataOf(bindPoses, "float[16]");
    std::vector<float> poses;
    if (!r.readFloats(poseData, poses)) return false;
    const uint32_t size = poseData->data.arraySize;
    if (size != 16 && size != 12 && size != 9 && size != 6 && size != 4) {
        r.violation(poseData, "bind-pose transforms are float[16], [12], [9], [6] or [4]");
        return false;
    }
    if (poses.size() / size != skin.joints.size()) {
        r.violation(poseData, std::to_string(poses.size() / size) + " bind-pose transforms for " +
                                  std::to_string(skin.joints.size()) + " bones");
        if (poses.size() / size < skin.joints.size()) return false;
    }
    glm::mat4 skinBind(1.0f);
    if (bind) {
        const Structure* d = r.dataOf(bind, "float[16]");
        std::vector<float> v;
        if (r.readFloats(d, v) && v.size() >= d->data.arraySize && d->data.arraySize >= 4) {
            skinBind = expandMatrix(v.data(), d->data.arraySize);
            if (v.size() != d->data.arraySize) r.violation(d, "a Skin's Transform holds one matrix");
        }
    }
    // P = sum w_i M_k B_k^-1 T_bind P (spec, Skin): the palette's inverse bind is B_k^-1 T_bind.
    bool singular = false;
    for (size_t j = 0; j < skin.joints.size(); ++j) {
        const glm::mat4 b = expandMatrix(&poses[j * size], size);
        const float det = glm::determinant(b);
        if (!(std::fabs(det) > 1e-12f) || !std::isfinite(det)) singular = true;
        skin.inverseBind.push_back(glm::inverse(b) * skinBind);
    }
    if (singular) r.violation(poseData, "a bind-pose transform cannot be inverted");
    return true;
}

// The Skeleton of skin parts `p`: its bones (skin.joints) and their inverse bind poses; false when
// the skin cannot be bound.
bool readSkeleton(Reader& r, const SkinParts& p, Skin& skin) {
    const Structure* refs = nullptr;
    const Structure* bindPoses = nullptr;
    for (const Structure* c : p.skeleton->children) {
        if (c->primitive) continue;
        if (c->identifier == "BoneRefArray") refs = c;
        if (c->identifier == "Transform") bindPoses = c;
    }
    if (!refs || !bindPoses) {
        r.violation(p.skeleton, std::string("a Skeleton must contain a ") + (!refs ? "BoneRefArray" : "Transform"));
        return false;
    }
    return readBoneRefs(r, refs, skin) && readBindPoses(r, bindPoses, p.bind, skin);
}

// A skin's influences: counts per vertex, then indices and weights back to back, in the file's
// own types where they are narrow enough (C and I), else widened.
template <class C, class I>
struct Influences {
    const C* counts;
    size_t countSize;
    const I* indices;
    size_t indexSize;
    const float* weights;
    size_t weightSize;
};
template <class C, class I>
Influences(const C*, size_t, const I*, size_t, const float*, size_t) -> Influences<C, I>;

// Checks influences `in` against the mesh and the skeleton: one count per vertex, as many indices
// and weights as the counts sum to, every index a bone, at most 64 per vertex. Sets `most` to the
// largest count; false (after a violation) when the skin cannot be bound.
template <class C, class I>
bool checkInfluences(Reader& r, const SkinParts& p, size_t jointCount, uint32_t vertexCount, const Influences<C, I>& in,
                     uint64_t& most) {
    if (in.countSize != vertexCount) {
        r.violation(p.counts, "the BoneCountArray has " + std::to_string(in.countSize) + " entries, the mesh " +
                                  std::to_string(vertexCount) + " vertices (skin ignored)");
        return false;
    }
    uint64_t total = 0;
    for (size_t v = 0; v < in.countSize; ++v) {
        total += in.counts[v];
        most = std::max<uint64_t>(most, in.counts[v]);
    }
    if (in.indexSize != total || in.weightSize != total) {
        r.violation(in.indexSize != total ? p.boneIndices : p.boneWeights,
                    "the bone counts sum to " + std::to_string(total) + "; the BoneIndexArray has " +
                        std::to_string(in.indexSize) + " entries and the BoneWeightArray " +
                        std::to_string(in.weightSize) + " (skin ignored)");
        return false;
    }
    uint64_t largestIndex = 0;
    for (size_t i = 0; i < in.indexSize; ++i) largestIndex = std::max<uint64_t>(largestIndex, in.indices[i]);
    if (in.indexSize && largestIndex >= jointCount) {
        for (size_t i = 0; i < in.indexSize; ++i)
            if (in.indices[i] >= jointCount) {
                r.violation(p.boneIndices, "bone index " + std::to_string(uint64_t(in.indices[i])) +
                                               " is beyond the skeleton's " + std::to_string(jointCount) + " bones");
                break;
            }
        return false;
    }
    if (most > 64) {
        r.violation(p.counts, "a vertex with " + std::to_string(std::min<uint64_t>(most, 1u << 20)) +
                                  " bone influences; at most 64 are read");
        return false;
    }
    return true;
}

// Adds checked influences `in` (at most `most` per vertex) to the mesh in sets of four: UInt8 or
// UInt16 joint indices and Float32 weights, one interleaved stream per set. The reference path
// sums every set (the spec's formula); the renderer keeps the 4 strongest per vertex when it
// re-batches.
template <class C, class I>
void writeInfluenceStreams(Reader& r, size_t jointCount, const Influences<C, I>& in, uint64_t most, Mesh& mesh) {
    const uint32_t sets = std::max<uint32_t>(1, static_cast<uint32_t>((most + 3) / 4));
    const bool wide = jointCount > 256;
    const uint32_t indexBytes = wide ? 8 : 4;
    const uint32_t stride = indexBytes + 16;
    std::vector<std::vector<uint8_t>> streams(sets, std::vector<uint8_t>(size_t(mesh.vertexCount) * stride, 0));
    size_t cursor = 0;
    uint32_t over4 = 0;
    if (sets == 1 && !wide) {
        // The usual case, up to 4 influences and 256 bones: one stream, written in place.
        uint8_t* at = streams[0].data();
        for (uint32_t v = 0; v < mesh.vertexCount; ++v, at += stride) {
            const uint32_t n = static_cast<uint32_t>(in.counts[v]);
            for (uint32_t k = 0; k < n; ++k, ++cursor) {
                at[k] = static_cast<uint8_t>(in.indices[cursor]);
                std::memcpy(at + 4 + k * 4, &in.weights[cursor], 4);
            }
        }
    } else {
        for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
            const uint32_t n = static_cast<uint32_t>(in.counts[v]);
            over4 += n > 4 ? 1 : 0;
            for (uint32_t k = 0; k < n; ++k, ++cursor) {
                uint8_t* at = &streams[k / 4][size_t(v) * stride];
                const uint32_t slot = k % 4;
                if (wide) {
                    const uint16_t j = static_cast<uint16_t>(in.indices[cursor]);
                    std::memcpy(at + slot * 2, &j, 2);
                } else {
                    at[slot] = static_cast<uint8_t>(in.indices[cursor]);
                }
                std::memcpy(at + indexBytes + slot * 4, &in.weights[cursor], 4);
            }
        }
    }
    for (uint32_t set = 0; set < sets; ++set) {
        VertexStream stream;
        stream.count = mesh.vertexCount;
        stream.stride = stride;
        stream.bytes = makeOwnedBytes(std::move(streams[set]));
        stream.attributes.push_back({Semantic::BoneIndices, static_cast<uint8_t>(set),
                                     wide ? ComponentType::UInt16 : ComponentType::UInt8, 4, false, Swizzle::Identity, 0});
        stream.attributes.push_back({Semantic::BoneWeights, static_cast<uint8_t>(set), ComponentType::Float32, 4, false,
                                     Swizzle::Identity, indexBytes});
        mesh.streams.push_back(std::move(stream));
    }
    if (over4)
        r.note("mesh '" + mesh.name + "': " + std::to_string(over4) + " vertices have more than 4 bone influences (up to " +
               std::to_string(most) + "); bounds use all of them, the renderer the 4 strongest");
}

// Influences `in` checked and added to the mesh; false when the skin cannot be bound.
template <class C, class I>
bool bindInfluences(Reader& r, const SkinParts& p, const Skin& skin, const Influences<C, I>& in, Mesh& mesh) {
    uint64_t most = 0;
    if (!checkInfluences(r, p, skin.joints.size(), mesh.vertexCount, in, most)) return false;
    writeInfluenceStreams(r, skin.joints.size(), in, most, mesh);
    return true;
}

// The BoneCountArray, BoneIndexArray and BoneWeightArray of skin parts `p` as streams of the mesh.
// Read in the file's own types when they are unsigned integers of at most 32 bits and floats (no
// widened copies); any other types through readUInts and readFloats. False when the skin cannot
// be bound.
bool readInfluences(Reader& r, const SkinParts& p, const Skin& skin, Mesh& mesh) {
    const Structure* countData = r.dataOf(p.counts, "unsigned integer");
    const Structure* indexData = r.dataOf(p.boneIndices, "unsigned integer");
    const Structure* weightData = r.dataOf(p.boneWeights, "float");
    bool read = false, bound = false;
    if (countData && indexData && weightData && weightData->data.type == ddl::DataType::Float) {
        const float* weights = weightData->data.as<float>();
        const size_t weightSize = weightData->data.elementCount();
        visitNarrowUInts(countData->data, [&](const auto* countValues, size_t countSize) {
            read = visitNarrowUInts(indexData->data, [&](const auto* indexValues, size_t indexSize) {
                bound = bindInfluences(
                    r, p, skin, Influences{countValues, countSize, indexValues, indexSize, weights, weightSize}, mesh);
            });
        });
    }
    if (!read) {
        std::vector<uint64_t> countValues, indexValues;
        std::vector<float> weightValues;
        if (!r.readUInts(countData, countValues) || !r.readUInts(indexData, indexValues) ||
            !r.readFloats(weightData, weightValues))
            return false;
        bound = bindInfluences(r, p, skin,
                               Influences{countValues.data(), countValues.size(), indexValues.data(), indexValues.size(),
                                          weightValues.data(), weightValues.size()},
                               mesh);
    }
    return bound;
}

}  // namespace

// Skins need the bone nodes, so they are bound after the node tree is read.
void Reader::bindSkins() {
    // GeometryObjects in file order, so skins are numbered predictably.
    std::vector<std::pair<const Structure*, GeometryInfo*>> skinned;
    for (const Structure* s : m_doc.roots()) {
        auto it = m_geometry.find(s);
        if (it != m_geometry.end() && it->second.skin && it->second.mesh >= 0) skinned.emplace_back(s, &it->second);
    }
    for (auto& [object, info] : skinned) {
        Mesh& mesh = m_scene.meshes[info->mesh];
        SkinParts parts;
        Skin skin;
        skin.name = mesh.name;
        if (!collectSkinParts(*this, info->skin, parts) || !readSkeleton(*this, parts, skin) ||
            !readInfluences(*this, parts, skin, mesh))
            continue;
        const int32_t skinIndex = static_cast<int32_t>(m_scene.skins.size());
        m_scene.skins.push_back(std::move(skin));
        for (const auto& [node, geometry] : m_geometryNodes)
            if (geometry == object) m_scene.nodes[m_node[node]].skin = skinIndex;
    }
}

}  // namespace esv::ogex
