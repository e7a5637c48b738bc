// glTF reader: meshes (primitives as submeshes, or as meshes of their own), vertex streams as
// stored, morph targets and skins (gltf_internal.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "loaders/gltf/gltf_internal.h"
#include "loaders/index_scan.h"

namespace esv::gltf {
namespace {

// What a vertex attribute may be stored as (glTF 2.0 3.7.2.1; KHR_mesh_quantization widens it).
struct AttributeRule {
    Semantic semantic;
    uint8_t set;
    bool known;
};

AttributeRule ruleFor(const std::string& name) {
    auto numbered = [&](const char* prefix, Semantic s) -> AttributeRule {
        const size_t n = std::strlen(prefix);
        if (name.compare(0, n, prefix) != 0 || name.size() == n || name.size() > n + 2) return {s, 0, false};
        for (size_t i = n; i < name.size(); ++i)
            if (name[i] < '0' || name[i] > '9') return {s, 0, false};
        return {s, uint8_t(std::stoi(name.substr(n))), true};
    };
    if (name == "POSITION") return {Semantic::Position, 0, true};
    if (name == "NORMAL") return {Semantic::Normal, 0, true};
    if (name == "TANGENT") return {Semantic::Tangent, 0, true};
    if (AttributeRule r = numbered("TEXCOORD_", Semantic::TexCoord); r.known) return r;
    if (AttributeRule r = numbered("COLOR_", Semantic::Color); r.known) return r;
    if (AttributeRule r = numbered("JOINTS_", Semantic::BoneIndices); r.known) return r;
    if (AttributeRule r = numbered("WEIGHTS_", Semantic::BoneWeights); r.known) return r;
    return {Semantic::Position, 0, false};
}

bool isInt8or16(ComponentType t) {
    return t == ComponentType::Int8 || t == ComponentType::UInt8 || t == ComponentType::Int16 ||
           t == ComponentType::UInt16;
}

// Empty when `a` may hold `semantic`; else what is wrong. `target`: a morph target's delta.
std::string attributeTypeProblem(Semantic semantic, const Accessor& a, bool quantization, bool target) {
    const bool f = a.type == ComponentType::Float32;
    const bool snorm = a.normalized && (a.type == ComponentType::Int8 || a.type == ComponentType::Int16);
    const bool unorm = a.normalized && (a.type == ComponentType::UInt8 || a.type == ComponentType::UInt16);
    bool ok = false;
    std::string types = a.typeName;
    switch (semantic) {
        case Semantic::Position:
            ok = a.components == 3 && (f || (quantization && isInt8or16(a.type)));
            break;
        case Semantic::Normal:
            ok = a.components == 3 && (f || (quantization && (snorm || (target && isInt8or16(a.type)))));
            break;
        case Semantic::Tangent:
            ok = a.components == (target ? 3u : 4u) &&
                 (f || (quantization && (snorm || (target && isInt8or16(a.type)))));
            break;
        case Semantic::TexCoord:
            ok = a.components == 2 && (f || unorm || (quantization && isInt8or16(a.type)));
            break;
        case Semantic::Color:
            ok = (a.components == 3 || a.components == 4) && (f || unorm);
            break;
        case Semantic::BoneIndices:
            ok = a.components == 4 && !a.normalized &&
                 (a.type == ComponentType::UInt8 || a.type == ComponentType::UInt16);
            break;
        case Semantic::BoneWeights:
            ok = a.components == 4 && (f || unorm);
            break;
        default:
            break;
    }
    if (ok && a.typeName.compare(0, 3, "MAT") == 0) ok = false;
    if (ok) return {};
    return std::string(a.normalized ? "normalized " : "") + componentTypeName(a.type) + " " + types +
           " is not allowed" +
           (quantization || a.type == ComponentType::Float32 ? "" : " (without KHR_mesh_quantization)");
}

// Copies the streams' attributes into one interleaved stream (each element 4-byte aligned).
VertexStream interleave(const std::vector<VertexStream>& streams, uint32_t count) {
    VertexStream out;
    uint32_t stride = 0;
    for (const VertexStream& s : streams)
        for (const VertexAttribute& a : s.attributes) {
            VertexAttribute b = a;
            b.offset = stride;
            out.attributes.push_back(b);
            stride += (uint32_t(componentSize(a.type)) * a.components + 3) / 4 * 4;
        }
    std::vector<uint8_t> bytes(size_t(count) * stride);
    size_t k = 0;
    for (const VertexStream& s : streams)
        for (const VertexAttribute& a : s.attributes) {
            const size_t size = componentSize(a.type) * a.components;
            for (uint32_t v = 0; v < count; ++v)
                std::memcpy(bytes.data() + size_t(v) * stride + out.attributes[k].offset,
                            s.bytes.data + size_t(v) * s.stride + a.offset, size);
            ++k;
        }
    out.bytes = makeOwnedBytes(std::move(bytes));
    out.stride = stride;
    out.count = count;
    return out;
}

}  // namespace

// One primitive as read: its draw mode and indices (a view, or made here for a line loop).
struct PrimitiveData {
    Primitive primitive = Primitive::Triangles;
    const Accessor* indices = nullptr;
    std::vector<uint32_t> made;  // line loop expanded to lines
    bool hasMade = false;
    uint32_t vertexCount = 0;
    int32_t material = -1;
};

// The joint and weight accessors of one influence set (JOINTS_n, WEIGHTS_n).
struct InfluenceSet {
    const Accessor* joints = nullptr;
    const Accessor* weights = nullptr;
};

// The scene holds four influences a vertex: with JOINTS_1 / WEIGHTS_1 (and further sets) beside set
// 0, each vertex keeps its four largest weights (a joint named twice counts once, its weights
// summed), renormalised to sum to 1, in a stream of its own (16-bit joints, float weights) that
// replaces set 0's attributes. One information line says how many vertices lost influence and the
// largest weight dropped. A set without its other half is left out with a warning.
static void mergeInfluenceSets(Reader& r, const std::string& where, const std::vector<InfluenceSet>& sets,
                               uint32_t vertexCount, std::vector<VertexStream>& streams) {
    std::vector<InfluenceSet> used;
    for (size_t k = 0; k < sets.size(); ++k) {
        if (sets[k].joints && sets[k].weights) {
            used.push_back(sets[k]);
        } else if (sets[k].joints || sets[k].weights) {
            const std::string n = std::to_string(k);
            r.m_diag.warn(FilePlace{}, where + (sets[k].joints ? "/JOINTS_" : "/WEIGHTS_") + n,
                          sets[k].joints ? "has no WEIGHTS_" + n + ": not drawn" : "has no JOINTS_" + n + ": not drawn");
        }
    }
    if (!sets[0].joints || !sets[0].weights) {
        if (!used.empty()) r.m_diag.warn(FilePlace{}, where, "joint influences without JOINTS_0 and WEIGHTS_0: not drawn");
        return;
    }
    if (used.size() < 2) return;
    if (!r.spend(uint64_t(vertexCount) * 24, where)) return;
    std::vector<std::vector<float>> joints(used.size()), weights(used.size());
    for (size_t k = 0; k < used.size(); ++k) {
        r.readFloats(*used[k].joints, joints[k]);
        r.readFloats(*used[k].weights, weights[k]);
    }
    constexpr uint32_t kStride = 4 * 2 + 4 * 4;  // four u16 joints, four float weights
    std::vector<uint8_t> bytes(size_t(vertexCount) * kStride);
    std::vector<std::pair<float, uint16_t>> all;  // (weight, joint)
    uint32_t lost = 0;
    float largestDropped = 0.0f;
    for (uint32_t v = 0; v < vertexCount; ++v) {
        all.clear();
        for (size_t k = 0; k < used.size(); ++k)
            for (size_t c = 0; c < 4; ++c) {
                const float w = weights[k][size_t(v) * 4 + c];
                const uint16_t j = uint16_t(joints[k][size_t(v) * 4 + c]);
                if (!(w > 0.0f)) continue;
                auto same = std::find_if(all.begin(), all.end(), [j](const auto& e) { return e.second == j; });
                if (same != all.end()) same->first += w;
                else all.push_back({w, j});
            }
        // Largest first; equal weights by joint, so the choice does not depend on the set order.
        std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) {
            return x.first != y.first ? x.first > y.first : x.second < y.second;
        });
        if (all.size() > 4) {
            ++lost;
            largestDropped = std::max(largestDropped, all[4].first);
            all.resize(4);
        }
        float sum = 0.0f;
        for (const auto& e : all) sum += e.first;
        uint16_t j[4] = {0, 0, 0, 0};
        float w[4] = {0, 0, 0, 0};
        for (size_t c = 0; c < all.size(); ++c) {
            j[c] = all[c].second;
            w[c] = all[c].first / sum;
        }
        std::memcpy(&bytes[size_t(v) * kStride], j, sizeof j);
        std::memcpy(&bytes[size_t(v) * kStride + sizeof j], w, sizeof w);
    }
    // Set 0's attributes leave their streams (a stream left empty goes).
    for (VertexStream& s : streams)
        s.attributes.erase(std::remove_if(s.attributes.begin(), s.attributes.end(),
                                          [](const VertexAttribute& a) {
                                              return a.semantic == Semantic::BoneIndices ||
                                                     a.semantic == Semantic::BoneWeights;
                                          }),
                           s.attributes.end());
    streams.erase(std::remove_if(streams.begin(), streams.end(),
                                 [](const VertexStream& s) { return s.attributes.empty(); }),
                  streams.end());
    VertexStream merged;
    merged.bytes = makeOwnedBytes(std::move(bytes));
    merged.stride = kStride;
    merged.count = vertexCount;
    VertexAttribute a;
    a.semantic = Semantic::BoneIndices;
    a.type = ComponentType::UInt16;
    a.components = 4;
    merged.attributes.push_back(a);
    a.semantic = Semantic::BoneWeights;
    a.type = ComponentType::Float32;
    a.offset = 8;
    merged.attributes.push_back(a);
    streams.push_back(std::move(merged));
    char dropped[32];
    std::snprintf(dropped, sizeof dropped, "%.3g", double(largestDropped));
    r.m_diag.info(where + ": " + std::to_string(used.size()) + " joint influence sets merged, the 4 largest of " +
                  std::to_string(4 * used.size()) + " weights a vertex kept and renormalised: " +
                  std::to_string(lost) + " of " + std::to_string(vertexCount) + " vertices lost influence" +
                  (lost ? std::string(" (largest weight dropped ") + dropped + ")" : std::string()));
}

// The streams of an attributes object ("attributes" of a primitive, or a morph target): accessors
// in one strided buffer view share one stream, as stored; every other accessor is a stream.
static bool buildStreams(Reader& r, const Json& attributes, const std::string& where, bool target,
                         std::vector<VertexStream>& streams, uint32_t& vertexCount) {
    if (!attributes.is_object()) {
        r.fail(where, "expected an object");
        return false;
    }
    struct Member {
        const Accessor* a;
        VertexAttribute attribute;
    };
    std::map<int32_t, std::vector<Member>> byView;  // strided views
    std::vector<InfluenceSet> sets;
    bool ok = true;
    vertexCount = 0;
    for (auto it = attributes.begin(); it != attributes.end(); ++it) {
        const std::string name = it.key();
        const std::string w = where + "/" + name;
        const AttributeRule rule = ruleFor(name);
        if (!rule.known || (target && rule.semantic != Semantic::Position &&
                            rule.semantic != Semantic::Normal && rule.semantic != Semantic::Tangent)) {
            r.m_diag.info(w + ": attribute not drawn");
            continue;
        }
        if (!it->is_number_unsigned()) {
            r.fail(w, "expected an accessor index");
            ok = false;
            continue;
        }
        const Accessor* a = r.accessor(int32_t(std::min<uint64_t>(it->get<uint64_t>(), 0x7FFFFFFF)), w);
        if (!a) {
            ok = false;
            continue;
        }
        const std::string problem = attributeTypeProblem(rule.semantic, *a, r.m_quantization, target);
        if (!problem.empty()) {
            r.fail(w, problem);
            ok = false;
            continue;
        }
        if (vertexCount != 0 && a->count != vertexCount) {
            r.fail(w, "count " + std::to_string(a->count) + " differs from the other attributes' " +
                          std::to_string(vertexCount));
            ok = false;
            continue;
        }
        vertexCount = a->count;
        if (rule.semantic == Semantic::BoneIndices || rule.semantic == Semantic::BoneWeights) {
            if (sets.size() <= rule.set) sets.resize(size_t(rule.set) + 1);
            (rule.semantic == Semantic::BoneIndices ? sets[rule.set].joints : sets[rule.set].weights) = a;
            if (rule.set > 0) continue;  // merged with set 0 below
        }
        VertexAttribute attribute;
        attribute.semantic = rule.semantic;
        attribute.set = rule.set;
        attribute.type = a->type;
        attribute.components = uint8_t(a->components);
        attribute.normalized = a->normalized;
        if (a->bufferView >= 0 && a->viewStride > 0) {
            byView[a->bufferView].push_back({a, attribute});
        } else {
            VertexStream s;
            s.bytes = a->bytes;
            s.stride = a->stride;
            s.count = a->count;
            s.attributes.push_back(attribute);
            streams.push_back(std::move(s));
        }
    }
    // Interleaved: one stream from the lowest offset; an attribute that does not fit the stride
    // from there (glTF allows any offset) gets its own stream.
    for (auto& [view, members] : byView) {
        std::sort(members.begin(), members.end(),
                  [](const Member& x, const Member& y) { return x.a->offsetInView < y.a->offsetInView; });
        const Accessor* first = members.front().a;
        VertexStream s;
        s.stride = first->viewStride;
        s.count = vertexCount;
        uint64_t end = 0;
        for (Member& m : members) {
            const uint64_t rel = m.a->offsetInView - first->offsetInView;
            if (rel + m.a->elementSize > s.stride) {
                VertexStream own;
                own.bytes = m.a->bytes;
                own.stride = m.a->stride;
                own.count = m.a->count;
                own.attributes.push_back(m.attribute);
                streams.push_back(std::move(own));
                continue;
            }
            m.attribute.offset = uint32_t(rel);
            s.attributes.push_back(m.attribute);
            end = std::max<uint64_t>(end, rel + m.a->bytes.size);
        }
        // Every member's bytes were checked inside the view, so the union is too.
        s.bytes = ByteView{first->bytes.owner, first->bytes.data, size_t(end)};
        if (!s.attributes.empty()) streams.push_back(std::move(s));
    }
    if (ok && sets.size() > 1) mergeInfluenceSets(r, where, sets, vertexCount, streams);
    return ok;
}

// Draw mode, indices and material of primitive `p`.
static bool readPrimitive(Reader& r, const Json& prim, const std::string& where, uint32_t vertexCount,
                          PrimitiveData& out) {
    static const Primitive kModes[] = {Primitive::Points,     Primitive::Lines,     Primitive::Lines,
                                       Primitive::LineStrip,  Primitive::Triangles, Primitive::TriangleStrip,
                                       Primitive::TriangleFan};
    uint64_t mode = 4;
    r.getUint(prim, "mode", where, mode, false);
    if (mode > 6) {
        r.fail(where + "/mode", std::to_string(mode) + " is not a glTF primitive mode (0 to 6)");
        return false;
    }
    out.primitive = kModes[mode];
    out.vertexCount = vertexCount;
    if (r.member(prim, "material")) r.getIndex(prim, "material", where, "materials", out.material, true);
    if (r.member(prim, "indices")) {
        int32_t index = -1;
        if (!r.getIndex(prim, "indices", where, "accessors", index, true)) return false;
        const Accessor* a = r.accessor(index, where + "/indices");
        if (!a) return false;
        if (a->components != 1 || a->normalized ||
            (a->type != ComponentType::UInt8 && a->type != ComponentType::UInt16 &&
             a->type != ComponentType::UInt32)) {
            r.fail(where + "/indices", "accessor " + std::to_string(index) + " (" +
                                           componentTypeName(a->type) + " " + a->typeName +
                                           ") is not unsigned byte, short or int SCALAR");
            return false;
        }
        if (a->bufferView >= 0 && a->viewStride > 0)
            r.m_diag.violation(FilePlace{}, where + "/indices", "its buffer view has a byteStride");
        uint32_t value = 0;
        const uint32_t k = r.firstIndexPast(*a, vertexCount, value);
        if (k < a->count) {
            r.fail(where + "/indices", "index " + std::to_string(k) + " is " + std::to_string(value) + ", past the " +
                                           std::to_string(vertexCount) + " vertices");
            return false;
        }
        out.indices = a;
        if (mode == 2) r.readIndices(*a, out.made);
    } else if (mode == 2) {
        out.made.resize(vertexCount);
        for (uint32_t v = 0; v < vertexCount; ++v) out.made[v] = v;
    }
    if (mode == 2) {
        // LINE_LOOP has no GLES draw mode the scene keeps: the loop becomes lines, closing one included.
        std::vector<uint32_t> lines;
        const size_t n = out.made.size();
        for (size_t k = 0; n >= 2 && k < n; ++k) {
            lines.push_back(out.made[k]);
            lines.push_back(out.made[(k + 1) % n]);
        }
        out.made = std::move(lines);
        out.hasMade = true;
        r.m_diag.info(where + ": line loop drawn as " + std::to_string(out.made.size() / 2) + " lines");
    }
    return true;
}

// The mesh's indices: one view for a single stored index list, else every primitive's indices
// copied into one list of the widest type (made lists as 32-bit).
static void setIndices(Reader& r, Mesh& mesh, std::vector<PrimitiveData>& prims) {
    (void)r;
    bool anyIndexed = false;
    for (const PrimitiveData& p : prims) anyIndexed |= p.indices || p.hasMade;
    uint32_t first = 0;
    if (!anyIndexed) {
        for (const PrimitiveData& p : prims) {
            Submesh s;
            s.primitive = p.primitive;
            s.indexCount = p.vertexCount;
            s.materialSlot = uint32_t(mesh.submeshes.size());
            mesh.submeshes.push_back(s);
        }
        return;
    }
    if (prims.size() == 1 && prims[0].indices && !prims[0].hasMade &&
        prims[0].indices->stride == componentSize(prims[0].indices->type)) {
        mesh.indices = {prims[0].indices->type, prims[0].indices->bytes, prims[0].indices->count};
    } else {
        ComponentType widest = ComponentType::UInt8;
        for (const PrimitiveData& p : prims) {
            if (p.hasMade)
                widest = ComponentType::UInt32;
            else if (p.indices && componentSize(p.indices->type) > componentSize(widest))
                widest = p.indices->type;
        }
        std::vector<uint32_t> all;
        for (const PrimitiveData& p : prims) {
            std::vector<uint32_t> values;
            if (p.hasMade)
                values = p.made;
            else
                r.readIndices(*p.indices, values);
            all.insert(all.end(), values.begin(), values.end());
        }
        const size_t size = componentSize(widest);
        std::vector<uint8_t> bytes(all.size() * size);
        for (size_t k = 0; k < all.size(); ++k) {
            if (size == 1)
                bytes[k] = uint8_t(all[k]);
            else if (size == 2) {
                const uint16_t v = uint16_t(all[k]);
                std::memcpy(&bytes[k * 2], &v, 2);
            } else {
                std::memcpy(&bytes[k * 4], &all[k], 4);
            }
        }
        mesh.indices = {widest, makeOwnedBytes(std::move(bytes)), uint32_t(all.size())};
    }
    for (const PrimitiveData& p : prims) {
        Submesh s;
        s.primitive = p.primitive;
        s.firstIndex = first;
        s.indexCount = p.hasMade ? uint32_t(p.made.size()) : p.indices->count;
        s.materialSlot = uint32_t(mesh.submeshes.size());
        first += s.indexCount;
        mesh.submeshes.push_back(s);
    }
}

// Morph targets of a primitive: POSITION, NORMAL and TANGENT deltas in one stream each.
static bool readTargets(Reader& r, const Json& prim, const std::string& where, Mesh& mesh) {
    const Json* targets = r.member(prim, "targets");
    if (!targets) return true;
    if (!targets->is_array() || targets->size() > kMaxMorphTargets) {
        r.fail(where + "/targets",
               "expected an array of at most " + std::to_string(kMaxMorphTargets) + " targets");
        return false;
    }
    for (size_t t = 0; t < targets->size(); ++t) {
        const std::string w = where + "/targets/" + std::to_string(t);
        std::vector<VertexStream> streams;
        uint32_t count = 0;
        if (!buildStreams(r, (*targets)[t], w, true, streams, count)) return false;
        if (count != 0 && count != mesh.vertexCount) {
            r.fail(w, "count " + std::to_string(count) + " differs from the primitive's " +
                          std::to_string(mesh.vertexCount) + " vertices");
            return false;
        }
        MorphTarget target;
        target.relative = true;
        if (streams.size() == 1)
            target.stream = std::move(streams[0]);
        else if (!streams.empty())
            target.stream = interleave(streams, mesh.vertexCount);
        else
            target.stream.count = mesh.vertexCount;
        mesh.morphTargets.push_back(std::move(target));
    }
    return true;
}

int Reader::decodedAttribute(const std::string& name, uint64_t code, uint32_t components, const Json& acc,
                             const std::string& where, VertexAttribute& out) {
    const AttributeRule rule = ruleFor(name);
    if (!rule.known || ((rule.semantic == Semantic::BoneIndices || rule.semantic == Semantic::BoneWeights) &&
                        rule.set > 0)) {
        m_diag.info(where + ": attribute not drawn");
        return 0;
    }
    Accessor a;
    if (!componentTypeOf(code, a.type)) {
        fail(where, std::to_string(code) + " is not a glTF component type");
        return -1;
    }
    a.components = components;
    a.typeName = getString(acc, "type");
    const Json* norm = member(acc, "normalized");
    a.normalized = norm && norm->is_boolean() && norm->get<bool>();
    const std::string problem = attributeTypeProblem(rule.semantic, a, m_quantization, false);
    if (!problem.empty()) {
        fail(where, problem);
        return -1;
    }
    out.semantic = rule.semantic;
    out.set = rule.set;
    out.type = a.type;
    out.components = uint8_t(components);
    out.normalized = a.normalized;
    out.offset = 0;
    return 1;
}

// A Draco-compressed primitive (its own scene mesh): decoded streams and faces, its targets as
// plain accessors.
static bool readDracoPart(Reader& r, const Json& prim, const std::string& where, Mesh& m,
                          std::vector<int32_t>& materials) {
    std::vector<PrimitiveData> data(1);
    if (!r.decodeDraco(prim, where, m, data[0].made)) return false;
    uint64_t mode = 4;
    r.getUint(prim, "mode", where, mode, false);
    if (mode != 4) {
        r.fail(where + "/mode",
               "a Draco primitive draws triangles (mode 4), not mode " + std::to_string(mode));
        return false;
    }
    data[0].hasMade = true;
    data[0].vertexCount = m.vertexCount;
    if (r.member(prim, "material")) r.getIndex(prim, "material", where, "materials", data[0].material, true);
    if (!readTargets(r, prim, where, m)) return false;
    setIndices(r, m, data);
    materials.push_back(data[0].material);
    return true;
}

static bool isDraco(const Reader& r, const Json& prim) {
    const Json* ext = r.member(prim, "extensions");
    return ext && r.member(*ext, "KHR_draco_mesh_compression") && dracoSupported();
}

void Reader::readMesh(size_t index, const Json& mesh) {
    const std::string where = pointer("meshes", index);
    m_meshFirst[index] = int32_t(m_scene.meshes.size());
    const Json* prims = member(mesh, "primitives");
    if (!prims || !prims->is_array() || prims->empty()) {
        fail(where + "/primitives", "expected a non-empty array");
        return;
    }
    // Primitives with the same attributes and targets share one scene mesh (a submesh each).
    bool shared = true;
    for (size_t p = 1; p < prims->size(); ++p) {
        const Json& a = (*prims)[0];
        const Json& b = (*prims)[p];
        shared &= a.is_object() && b.is_object() &&
                  a.value("attributes", Json()) == b.value("attributes", Json()) &&
                  a.value("targets", Json()) == b.value("targets", Json()) &&
                  (member(a, "indices") != nullptr) == (member(b, "indices") != nullptr) &&
                  !isDraco(*this, a) && !isDraco(*this, b);
    }
    const std::string name = getString(mesh, "name");
    std::vector<std::string> targetNames;
    if (const Json* extras = member(mesh, "extras"))
        if (const Json* names = member(*extras, "targetNames"); names && names->is_array())
            for (const Json& n : *names)
                targetNames.push_back(n.is_string() ? n.get<std::string>() : std::string());
    std::vector<float> weights;
    if (const Json* w = member(mesh, "weights"); w && w->is_array())
        for (const Json& v : *w) weights.push_back(v.is_number() ? float(v.get<double>()) : 0.0f);
    const size_t parts = shared ? 1 : prims->size();
    for (size_t part = 0; part < parts && !m_diag.stopped(); ++part) {
        const size_t firstPrim = part, lastPrim = shared ? prims->size() : part + 1;
        const std::string pw = where + "/primitives/" + std::to_string(firstPrim);
        const Json& prim = (*prims)[firstPrim];
        if (!objectAt(prim, pw)) return;
        Mesh m;
        m.name = parts > 1 ? name + " (primitive " + std::to_string(part) + ")" : name;
        std::vector<int32_t> materials;
        const Json* attributes = member(prim, "attributes");
        if (isDraco(*this, prim)) {
            if (!readDracoPart(*this, prim, pw, m, materials)) return;
            finishPart(index, std::move(m), std::move(materials), targetNames, weights, where);
            continue;
        }
        if (!attributes) {
            fail(pw, "has no attributes");
            return;
        }
        if (!buildStreams(*this, *attributes, pw + "/attributes", false, m.streams, m.vertexCount)) return;
        if (!member(*attributes, "POSITION")) {
            fail(pw + "/attributes", "has no POSITION");
            return;
        }
        if (!readTargets(*this, prim, pw, m)) return;
        std::vector<PrimitiveData> data(lastPrim - firstPrim);
        for (size_t p = firstPrim; p < lastPrim; ++p) {
            const std::string w = where + "/primitives/" + std::to_string(p);
            if (!objectAt((*prims)[p], w) ||
                !readPrimitive(*this, (*prims)[p], w, m.vertexCount, data[p - firstPrim]))
                return;
            const int32_t material = data[p - firstPrim].material;
            materials.push_back(material);  // -1: the viewer's default material
        }
        setIndices(*this, m, data);
        finishPart(index, std::move(m), std::move(materials), targetNames, weights, where);
    }
    // A split mesh's parts after the first say which file mesh they belong to (`info` counts it once).
    for (uint32_t p = 1; p < m_meshParts[index]; ++p)
        m_scene.meshes[size_t(m_meshFirst[index]) + p].partOf = m_meshFirst[index];
}

// Morph target names and default weights, then the scene mesh added as a part of file mesh `index`.
void Reader::finishPart(size_t index, Mesh m, std::vector<int32_t> materials,
                        const std::vector<std::string>& targetNames, const std::vector<float>& weights,
                        const std::string& where) {
    for (size_t t = 0; t < m.morphTargets.size(); ++t)
        if (t < targetNames.size()) m.morphTargets[t].name = targetNames[t];
    if (!m.morphTargets.empty()) {
        m.defaultMorphWeights.assign(m.morphTargets.size(), 0.0f);
        if (!weights.empty() && weights.size() != m.morphTargets.size())
            fail(where + "/weights", std::to_string(weights.size()) + " weights for " +
                                         std::to_string(m.morphTargets.size()) + " morph targets");
        else if (!weights.empty())
            m.defaultMorphWeights = weights;
    }
    m_scene.meshes.push_back(std::move(m));
    m_meshMaterials.push_back(std::move(materials));
    ++m_meshParts[index];
}

void Reader::prescanIndices() {
    const Json& meshes = array("meshes");
    const Json& accessors = array("accessors");
    // The primitives' index accessors that have a buffer view, by their counts' bytes: below
    // kSharedScanBytes in all, nothing is done here (and small files report their problems exactly
    // in the order of the meshes).
    std::vector<bool> seen(accessors.size(), false);
    std::vector<std::pair<size_t, std::string>> wanted;  // accessor, where a primitive names it
    uint64_t total = 0;
    for (size_t i = 0; i < meshes.size(); ++i) {
        const Json* prims = member(meshes[i], "primitives");
        if (!prims || !prims->is_array()) continue;
        for (size_t p = 0; p < prims->size(); ++p) {
            const Json& prim = (*prims)[p];
            const Json* indices = member(prim, "indices");
            if (!indices || !indices->is_number_unsigned() || isDraco(*this, prim)) continue;
            const uint64_t index = indices->get<uint64_t>();
            if (index >= accessors.size() || seen[index]) continue;
            const Json& acc = accessors[index];
            const Json* count = member(acc, "count");
            const Json* type = member(acc, "componentType");
            if (!member(acc, "bufferView") || member(acc, "sparse") || !count || !count->is_number_unsigned() ||
                !type || !type->is_number_unsigned())
                continue;
            const uint64_t code = type->get<uint64_t>();
            const uint64_t size = code == 5121 ? 1 : code == 5123 ? 2 : code == 5125 ? 4 : 0;
            if (size == 0 || count->get<uint64_t>() > (uint64_t(1) << 40)) continue;
            seen[index] = true;
            total += count->get<uint64_t>() * size;
            wanted.emplace_back(size_t(index), pointer("meshes", i) + "/primitives/" + std::to_string(p) + "/indices");
        }
    }
    if (total < kSharedScanBytes) return;
    // Resolved in the meshes' order (a problem found here is the one readMesh would have met a little
    // later), then scanned.
    std::vector<Accessor*> scans;
    for (const auto& [index, where] : wanted) {
        if (m_diag.stopped()) return;
        const Accessor* a = accessor(int32_t(index), where);
        if (a && a->components == 1 && !a->normalized && a->largestIndex < 0 &&
            (a->type == ComponentType::UInt8 || a->type == ComponentType::UInt16 || a->type == ComponentType::UInt32))
            scans.push_back(&m_accessors[index]);
    }
    scanOnTwoThreads(
        scans.size(), [&](size_t i) { return uint64_t(scans[i]->count) * componentSize(scans[i]->type); },
        [&](size_t from, size_t to) {
            for (size_t i = from; i < to; ++i) {
                Accessor& a = *scans[i];
                a.largestIndex = largestIndex(a.type, a.bytes.data, a.count, a.stride, false);
            }
        });
}

void Reader::readMeshes() {
    const Json& meshes = array("meshes");
    m_meshFirst.assign(meshes.size(), -1);
    m_meshParts.assign(meshes.size(), 0);
    prescanIndices();
    for (size_t i = 0; i < meshes.size() && !m_diag.stopped(); ++i) {
        if (!objectAt(meshes[i], pointer("meshes", i))) continue;
        readMesh(i, meshes[i]);
        if (m_meshParts[i] == 0) m_meshFirst[i] = -1;
    }
}

void Reader::readSkins() {
    const Json& skins = array("skins");
    const size_t nodeCount = array("nodes").size();
    for (size_t i = 0; i < skins.size(); ++i) {
        const std::string where = pointer("skins", i);
        Skin skin;
        const Json& s = skins[i];
        if (objectAt(s, where)) {
            skin.name = getString(s, "name");
            const Json* joints = member(s, "joints");
            if (!joints || !joints->is_array() || joints->empty() || joints->size() > kMaxJointsPerSkin) {
                fail(where + "/joints",
                     "expected an array of 1 to " + std::to_string(kMaxJointsPerSkin) + " node indices");
            } else {
                for (size_t j = 0; j < joints->size(); ++j) {
                    const Json& v = (*joints)[j];
                    if (!v.is_number_unsigned() || v.get<uint64_t>() >= nodeCount) {
                        fail(where + "/joints/" + std::to_string(j), "node " + v.dump().substr(0, 20) +
                                                                         " does not exist (the file has " +
                                                                         std::to_string(nodeCount) + ")");
                        skin.joints.clear();
                        break;
                    }
                    skin.joints.push_back(v.get<int32_t>());
                }
            }
            skin.inverseBind.assign(skin.joints.size(), glm::mat4(1.0f));
            int32_t ibm = -1;
            if (getIndex(s, "inverseBindMatrices", where, "accessors", ibm, false)) {
                const Accessor* a = accessor(ibm, where + "/inverseBindMatrices");
                if (a && (a->typeName != "MAT4" || a->type != ComponentType::Float32)) {
                    fail(where + "/inverseBindMatrices",
                         "accessor " + std::to_string(ibm) + " is not float MAT4");
                } else if (a && a->count < skin.joints.size()) {
                    fail(where + "/inverseBindMatrices", std::to_string(a->count) + " matrices for " +
                                                             std::to_string(skin.joints.size()) + " joints");
                } else if (a) {
                    std::vector<float> m;
                    readFloats(*a, m);
                    for (size_t j = 0; j < skin.joints.size(); ++j)
                        std::memcpy(&skin.inverseBind[j][0][0], &m[j * 16], 16 * sizeof(float));
                }
            }
            getIndex(s, "skeleton", where, "nodes", skin.skeletonRoot, false);
        }
        m_scene.skins.push_back(std::move(skin));
    }
}

}  // namespace esv::gltf
