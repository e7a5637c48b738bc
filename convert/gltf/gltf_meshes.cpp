// Meshes and morph targets of the glTF writer (gltf_writer_internal.h): vertex attributes shared by
// every instance of one (mesh, skin), and one glTF mesh per (mesh, skin, materials).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "convert/gltf/gltf_skin.h"
#include "convert/gltf/gltf_writer_internal.h"
#include "scene/cpu_reference.h"
#include "scene/tangents.h"

namespace esv {
namespace gltf {
namespace {

// The glTF encoding of a stored integer type, or Float when glTF has none for it.
Encoding integerEncoding(const VertexAttribute& a) {
    switch (a.type) {
        case ComponentType::Int8:
            return {Enc::Int8, a.normalized};
        case ComponentType::UInt8:
            return {Enc::UInt8, a.normalized};
        case ComponentType::Int16:
            return {Enc::Int16, a.normalized};
        case ComponentType::UInt16:
            return {Enc::UInt16, a.normalized};
        default:
            return {Enc::Float, false};
    }
}

bool meshHasBones(const Mesh& mesh) {
    return findAttribute(mesh, Semantic::BoneIndices, 0, nullptr) &&
           findAttribute(mesh, Semantic::BoneWeights, 0, nullptr);
}

}  // namespace

const Mesh* writtenMesh(const Scene& scene, size_t i) {
    const Node& node = scene.nodes[i];
    if (node.kind != NodeKind::Mesh || node.object < 0 || size_t(node.object) >= scene.meshes.size())
        return nullptr;
    const Mesh& mesh = scene.meshes[node.object];
    if (mesh.vertexCount == 0 || !findAttribute(mesh, Semantic::Position, 0, nullptr)) return nullptr;
    for (const Submesh& sub : mesh.submeshes)
        if (sub.indexCount > 0 && sub.primitive != Primitive::Patches && sub.primitive != Primitive::Nurbs)
            return &mesh;
    return nullptr;
}

bool instanceSkinned(const Scene& scene, size_t i) {
    const Node& node = scene.nodes[i];
    const Mesh* mesh = writtenMesh(scene, i);
    return mesh && node.skin >= 0 && size_t(node.skin) < scene.skins.size() &&
           !scene.skins[node.skin].joints.empty() && meshHasBones(*mesh);
}

bool hasBaseTarget(const Mesh& mesh) {
    return mesh.morphBaseWeighted && !mesh.morphTargets.empty();
}

std::vector<float> gltfWeights(const Mesh& mesh, const float* weights, size_t count, bool tangent) {
    std::vector<float> out(weights, weights + std::min(count, mesh.morphTargets.size()));
    out.resize(mesh.morphTargets.size(), 0.0f);
    if (hasBaseTarget(mesh)) {
        float sum = 0.0f;
        for (size_t t = 0; t < out.size(); ++t)
            if (!mesh.morphTargets[t].relative) sum += out[t];
        out.push_back(tangent ? sum : sum - 1.0f);
    }
    return out;
}

// A mesh's base positions and normals as written: the morph targets are deltas from them, and the
// OpenGEX base target is them.
struct MeshBase {
    const VertexStream* posStream = nullptr;
    const VertexAttribute* posAttr = nullptr;
    bool keepQuantized = false;  // positions as stored, the unpack matrix left to the node or skin
    std::vector<float> positions;
    const VertexStream* nrmStream = nullptr;
    const VertexAttribute* nrmAttr = nullptr;
    std::vector<float> normals, storedNormals;  // of unit length; as the file stores them
    bool normalsQuantized = false;              // NORMAL written as stored (KHR_mesh_quantization)
};

namespace {

// The base positions, with the unpack matrix applied unless they stay quantised.
std::vector<float> readPositions(const Mesh& mesh, const MeshBase& base) {
    const uint32_t count = mesh.vertexCount;
    float v[4];
    std::vector<float> basePositions(size_t(count) * 3);
    for (uint32_t i = 0; i < count; ++i) {
        readAttribute(*base.posStream, *base.posAttr, i, v);
        glm::vec3 p(v[0], v[1], v[2]);
        if (!base.keepQuantized) p = glm::vec3(mesh.positionUnpack * glm::vec4(p, 1.0f));
        basePositions[i * 3 + 0] = p.x;
        basePositions[i * 3 + 1] = p.y;
        basePositions[i * 3 + 2] = p.z;
    }
    return basePositions;
}

// Fills base.normals (normalised) and base.storedNormals; true when every stored one is of unit length.
bool readNormals(const Mesh& mesh, MeshBase& base) {
    const uint32_t count = mesh.vertexCount;
    float v[4];
    base.normals.resize(size_t(count) * 3);
    base.storedNormals.resize(size_t(count) * 3);
    bool unit = true;
    for (uint32_t i = 0; i < count; ++i) {
        readAttribute(*base.nrmStream, *base.nrmAttr, i, v);
        glm::vec3 nrm(v[0], v[1], v[2]);
        std::memcpy(&base.storedNormals[i * 3], v, 3 * sizeof(float));
        const float len = glm::length(nrm);
        // glTF wants unit normals whatever their type (the validator allows rounding of about
        // 0.005); quantised ones further off are widened and normalised.
        if (!(std::fabs(len - 1.0f) <= 0.005f)) unit = false;
        nrm = len > 0.0f && std::isfinite(len) ? nrm / len : glm::vec3(0.0f, 0.0f, 1.0f);
        base.normals[i * 3 + 0] = nrm.x;
        base.normals[i * 3 + 1] = nrm.y;
        base.normals[i * 3 + 2] = nrm.z;
    }
    return unit;
}

// The tangent frames as glTF TANGENTs (unit xyz, w the handedness sign); false when one is zero.
bool unitTangents(const std::vector<glm::vec4>& frames, uint32_t count, std::vector<float>& tangents) {
    tangents.resize(size_t(count) * 4);
    bool usable = true;
    for (uint32_t i = 0; i < count && usable; ++i) {
        glm::vec3 t(frames[i]);
        const float len = glm::length(t);
        if (!(len > 1e-6f) || !std::isfinite(len)) usable = false;
        t /= len;
        tangents[i * 4 + 0] = t.x;
        tangents[i * 4 + 1] = t.y;
        tangents[i * 4 + 2] = t.z;
        tangents[i * 4 + 3] = frames[i].w < 0.0f ? -1.0f : 1.0f;
    }
    return usable;
}

// The position (dp) and, with `normals`, normal (dn) deltas of one target, positions in the space
// the base positions were written in.
void morphDeltas(const Mesh& mesh, const MorphTarget& target, const MeshBase& base, bool normals,
                 std::vector<float>& dp, std::vector<float>& dn) {
    const uint32_t count = mesh.vertexCount;
    float v[4];
    const VertexAttribute* tp = nullptr;
    const VertexAttribute* tn = nullptr;
    for (const VertexAttribute& a : target.stream.attributes) {
        if (a.semantic == Semantic::Position && !tp) tp = &a;
        if (a.semantic == Semantic::Normal && !tn) tn = &a;
    }
    dp.assign(size_t(count) * 3, 0.0f);
    dn.assign(size_t(count) * 3, 0.0f);
    const glm::mat3 linear = base.keepQuantized ? glm::mat3(1.0f) : glm::mat3(mesh.positionUnpack);
    for (uint32_t i = 0; i < count && i < target.stream.count; ++i) {
        if (tp) {
            readAttribute(target.stream, *tp, i, v);
            glm::vec3 d(v[0], v[1], v[2]);
            if (!target.relative) {
                float stored[4];
                readAttribute(*base.posStream, *base.posAttr, i, stored);
                d -= glm::vec3(stored[0], stored[1], stored[2]);
            }
            d = linear * d;
            dp[i * 3] = d.x;
            dp[i * 3 + 1] = d.y;
            dp[i * 3 + 2] = d.z;
        }
        if (tn && normals) {
            readAttribute(target.stream, *tn, i, v);
            glm::vec3 d(v[0], v[1], v[2]);
            if (!target.relative) {
                float stored[4];
                readAttribute(*base.nrmStream, *base.nrmAttr, i, stored);
                d -= glm::vec3(stored[0], stored[1], stored[2]);
            }
            dn[i * 3] = d.x;
            dn[i * 3 + 1] = d.y;
            dn[i * 3 + 2] = d.z;
        }
    }
}

// The whole elements (`per` indices each) of submesh `s` in an expanded list, those naming a vertex
// past `count` left out.
std::vector<uint32_t> submeshIndices(const std::vector<uint32_t>& list, const std::vector<uint32_t>& starts,
                                     size_t s, int per, uint32_t count) {
    const size_t first = size_t(starts[s]) * per;
    const size_t end = s + 1 < starts.size() ? size_t(starts[s + 1]) * per : list.size();
    std::vector<uint32_t> indices;
    for (size_t k = first; k + per <= end && k + per <= list.size(); k += per) {
        bool ok = true;
        for (int j = 0; j < per; ++j) ok = ok && list[k + j] < count;
        if (ok) indices.insert(indices.end(), list.begin() + long(k), list.begin() + long(k + per));
    }
    return indices;
}

}  // namespace

// The vertex data of one (mesh, skin) pair, written once, in this order: attributes, morph targets,
// then the index accessors per submesh.
MeshData& Writer::meshData(int meshIndex, int skinIndex) {
    MeshData& md = m_meshData[{meshIndex, skinIndex}];
    if (md.written) return md;
    md.written = true;
    const Mesh& mesh = m_scene.meshes[meshIndex];
    MeshBase base;
    writePositions(md, mesh, base);
    writeNormals(md, mesh, base);
    if (base.nrmAttr) writeTangents(md, mesh, meshIndex);
    writeTexCoords(md, mesh);
    writeColors(md, mesh);
    if (skinIndex >= 0) writeJoints(md, mesh, skinIndex);
    writeMorphTargets(md, mesh, base);
    writePrimitives(md, mesh);
    return md;
}

void Writer::requireQuantization() {
    m_extUsed.insert("KHR_mesh_quantization");
    m_extRequired.insert("KHR_mesh_quantization");
}

// POSITION: quantised as stored (KHR_mesh_quantization), else floats with the unpack matrix applied.
void Writer::writePositions(MeshData& md, const Mesh& mesh, MeshBase& base) {
    base.posAttr = findAttribute(mesh, Semantic::Position, 0, &base.posStream);
    base.keepQuantized = gltfKeepsQuantizedPositions(mesh);
    base.positions = readPositions(mesh, base);
    if (base.keepQuantized) {
        requireQuantization();
        md.attributes["POSITION"] =
            addAccessor(base.positions, 3, integerEncoding(*base.posAttr), true, kArrayBuffer);
    } else {
        if (base.posAttr->type != ComponentType::Float32)
            note(std::string("mesh '") + mesh.name + "': " + componentTypeName(base.posAttr->type) +
                 " positions widened to floats" +
                 (isIdentity(mesh.positionUnpack) ? "" : " with the unpack matrix applied"));
        md.attributes["POSITION"] = addAccessor(base.positions, 3, {}, true, kArrayBuffer);
    }
}

// NORMAL: quantised as stored when of unit length in a signed normalised type, else unit floats.
void Writer::writeNormals(MeshData& md, const Mesh& mesh, MeshBase& base) {
    base.nrmAttr = findAttribute(mesh, Semantic::Normal, 0, &base.nrmStream);
    if (!base.nrmAttr) return;
    const bool unit = readNormals(mesh, base);
    const Encoding stored = integerEncoding(*base.nrmAttr);
    const bool quantized = unit && stored.normalized && (stored.enc == Enc::Int8 || stored.enc == Enc::Int16);
    base.normalsQuantized = quantized;
    if (quantized) {
        requireQuantization();
    } else if (base.nrmAttr->type != ComponentType::Float32) {
        note(std::string("mesh '") + mesh.name + "': " + componentTypeName(base.nrmAttr->type) +
             " normals widened to floats and normalised (" +
             (unit ? "glTF has no such normal type" : "not of unit length as glTF requires") + ")");
    }
    md.attributes["NORMAL"] = quantized ? addAccessor(base.storedNormals, 3, stored, false, kArrayBuffer)
                                        : addAccessor(base.normals, 3, {}, false, kArrayBuffer);
}

// TANGENT: the file's, or for a normal-mapped mesh without them the ones esview computes
// (scene/tangents.h), so a viewer need not generate its own.
void Writer::writeTangents(MeshData& md, const Mesh& mesh, int meshIndex) {
    const uint32_t count = mesh.vertexCount;
    std::vector<glm::vec4> frames;
    const bool fileTangents = findAttribute(mesh, Semantic::Tangent, 0, nullptr) != nullptr;
    if ((fileTangents || m_needsTangents.count(meshIndex)) && computeTangents(mesh, frames) &&
        frames.size() == count) {
        std::vector<float> tangents;
        if (unitTangents(frames, count, tangents)) {
            md.attributes["TANGENT"] = addAccessor(tangents, 4, {}, false, kArrayBuffer);
        } else {
            note(std::string("mesh '") + mesh.name + "': tangents left out (some are zero)");
        }
    }
}

// One accessor per texture coordinate set (TEXCOORD_n is added per primitive, meshFor).
void Writer::writeTexCoords(MeshData& md, const Mesh& mesh) {
    const uint32_t count = mesh.vertexCount;
    float v[4];
    for (uint8_t set = 0; set < 8; ++set) {
        const VertexStream* stream = nullptr;
        const VertexAttribute* attr = findAttribute(mesh, Semantic::TexCoord, set, &stream);
        if (!attr) {
            md.uvAccessors.push_back(-1);
            continue;
        }
        std::vector<float> uv(size_t(count) * 2);
        for (uint32_t i = 0; i < count; ++i) {
            readAttribute(*stream, *attr, i, v);
            uv[i * 2] = v[0];
            uv[i * 2 + 1] = v[1];
        }
        Encoding enc = integerEncoding(*attr);
        // Core glTF has unsigned normalised texture coordinates; the rest need the extension.
        if (enc.enc != Enc::Float && !((enc.enc == Enc::UInt8 || enc.enc == Enc::UInt16) && enc.normalized))
            requireQuantization();
        md.uvAccessors.push_back(addAccessor(uv, 2, enc, false, kArrayBuffer));
    }
    while (!md.uvAccessors.empty() && md.uvAccessors.back() < 0) md.uvAccessors.pop_back();
}

// COLOR_n: clamped to 0..1, unsigned normalised bytes and shorts kept as stored.
void Writer::writeColors(MeshData& md, const Mesh& mesh) {
    const uint32_t count = mesh.vertexCount;
    float v[4];
    for (uint8_t set = 0; set < 8; ++set) {
        const VertexStream* stream = nullptr;
        const VertexAttribute* attr = findAttribute(mesh, Semantic::Color, set, &stream);
        if (!attr) break;
        const int comps = attr->components >= 4 ? 4 : 3;
        std::vector<float> colors(size_t(count) * comps);
        for (uint32_t i = 0; i < count; ++i) {
            readAttribute(*stream, *attr, i, v);
            for (int c = 0; c < comps; ++c) colors[i * comps + c] = std::clamp(v[c], 0.0f, 1.0f);
        }
        Encoding enc;
        if (attr->normalized && attr->type == ComponentType::UInt8) enc = {Enc::UInt8, true};
        if (attr->normalized && attr->type == ComponentType::UInt16) enc = {Enc::UInt16, true};
        md.attributes["COLOR_" + std::to_string(set)] = addAccessor(colors, comps, enc, false, kArrayBuffer);
    }
}

// JOINTS_n and WEIGHTS_n: the bone batches merged into one joint list (gltf_skin.h), four per set.
void Writer::writeJoints(MeshData& md, const Mesh& mesh, int skinIndex) {
    const uint32_t count = mesh.vertexCount;
    const uint32_t joints = uint32_t(m_scene.skins[skinIndex].joints.size());
    const gltf::VertexInfluences influences = gltf::mergeBoneBatches(mesh, joints);
    if (influences.sets == 0) return;
    md.skinned = true;
    for (uint32_t s = 0; s < influences.sets; ++s) {
        std::vector<uint16_t> j(size_t(count) * 4);
        std::vector<float> w(size_t(count) * 4);
        for (uint32_t i = 0; i < count; ++i)
            for (int k = 0; k < 4; ++k) {
                j[i * 4 + k] = influences.joints[(size_t(i) * influences.sets + s) * 4 + k];
                w[i * 4 + k] = influences.weights[(size_t(i) * influences.sets + s) * 4 + k];
            }
        md.attributes["JOINTS_" + std::to_string(s)] = addJoints(j, joints);
        md.attributes["WEIGHTS_" + std::to_string(s)] = addAccessor(w, 4, {}, false, kArrayBuffer);
    }
    if (mesh.boneIndicesBatchLocal && mesh.boneBatches.size() > 1)
        note("mesh '" + mesh.name + "': " + std::to_string(mesh.boneBatches.size()) +
             " bone batches merged into one joint list");
    if (influences.unweighted)
        note("mesh '" + mesh.name + "': " + std::to_string(influences.unweighted) +
             " vertices without weights bound to the skin's first joint");
    if (influences.droppedInfluences)
        note("mesh '" + mesh.name + "': " + std::to_string(influences.droppedInfluences) +
             " influences naming no joint left out");
}

// Morph targets: deltas in the space the base positions were written in, then the OpenGEX base
// target (hasBaseTarget) where the mesh has one.
void Writer::writeMorphTargets(MeshData& md, const Mesh& mesh, const MeshBase& base) {
    md.targetCount = uint32_t(mesh.morphTargets.size());
    bool targetNormals = false;
    for (const MorphTarget& target : mesh.morphTargets)
        for (const VertexAttribute& a : target.stream.attributes)
            if (a.semantic == Semantic::Normal && base.nrmAttr) targetNormals = true;
    for (const MorphTarget& target : mesh.morphTargets) {
        std::vector<float> dp, dn;
        morphDeltas(mesh, target, base, targetNormals, dp, dn);
        Json t = {{"POSITION", addAccessor(dp, 3, {}, true, kArrayBuffer)}};
        if (targetNormals) t["NORMAL"] = addAccessor(dn, 3, {}, false, kArrayBuffer);
        md.targets.push_back(t);
    }
    if (hasBaseTarget(mesh)) {
        Json t = {{"POSITION", addAccessor(base.positions, 3, {}, true, kArrayBuffer)}};
        if (targetNormals)
            t["NORMAL"] = addAccessor(base.normalsQuantized ? base.storedNormals : base.normals, 3, {}, false,
                                      kArrayBuffer);
        md.targets.push_back(t);
        ++md.targetCount;
    }
}

// Per submesh: its glTF mode and index accessor (-1 when nothing of it can be drawn).
void Writer::writePrimitives(MeshData& md, const Mesh& mesh) {
    std::vector<uint32_t> triangles, lines, points;
    std::vector<uint32_t> triStart, lineStart, pointStart;
    expandTriangles(mesh, triangles, &triStart);
    expandLines(mesh, lines, &lineStart);
    expandPoints(mesh, points, &pointStart);
    for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
        const Submesh& sub = mesh.submeshes[s];
        const std::vector<uint32_t>* list = nullptr;
        const std::vector<uint32_t>* starts = nullptr;
        int mode = 4, per = 3;
        switch (sub.primitive) {
            case Primitive::Triangles:
            case Primitive::TriangleStrip:
            case Primitive::TriangleFan:
            case Primitive::Quads:
                list = &triangles;
                starts = &triStart;
                break;
            case Primitive::Lines:
            case Primitive::LineStrip:
                list = &lines;
                starts = &lineStart;
                mode = 1;
                per = 2;
                break;
            case Primitive::Points:
                list = &points;
                starts = &pointStart;
                mode = 0;
                per = 1;
                break;
            default:
                note("mesh '" + mesh.name + "': " + primitiveName(sub.primitive) + " submesh left out");
                break;
        }
        int accessor = -1;
        if (list && s < starts->size()) {
            const std::vector<uint32_t> indices = submeshIndices(*list, *starts, s, per, mesh.vertexCount);
            if (!indices.empty()) accessor = addIndices(indices, mesh.vertexCount);
        }
        md.primitives.push_back({mode, accessor});
    }
}

int Writer::zeroUvAccessor(uint32_t count) {
    auto it = m_zeroUv.find(count);
    if (it != m_zeroUv.end()) return it->second;
    const int accessor = addAccessor(std::vector<float>(size_t(count) * 2, 0.0f), 2, {}, false, kArrayBuffer);
    m_zeroUv[count] = accessor;
    return accessor;
}

// The glTF mesh for node `i` (-1 when nothing of it can be drawn).
int Writer::meshFor(size_t i, bool skinned) {
    const Node& node = m_scene.nodes[i];
    if (!writtenMesh(m_scene, i)) return -1;
    const Mesh& mesh = m_scene.meshes[node.object];
    std::vector<int> materials;
    for (const Submesh& sub : mesh.submeshes) {
        const int32_t m = sub.materialSlot < node.materials.size() ? node.materials[sub.materialSlot] : -1;
        materials.push_back(m >= 0 && size_t(m) < m_scene.materials.size() ? m : -1);
    }
    const int skin = skinned ? node.skin : -1;
    const auto key = std::make_tuple(node.object, skin, materials);
    auto found = m_meshOf.find(key);
    if (found != m_meshOf.end()) return found->second;

    MeshData& md = meshData(node.object, skin);
    Json primitives = Json::array();
    for (size_t s = 0; s < md.primitives.size(); ++s) {
        if (md.primitives[s].second < 0) continue;
        Json p = {{"attributes", md.attributes}};
        const int material = materials[s];
        size_t uvNeeded = md.uvAccessors.size();
        if (material >= 0) uvNeeded = std::max<size_t>(uvNeeded, m_materialUvSets[material]);
        for (size_t set = 0; set < uvNeeded; ++set) {
            int accessor = set < md.uvAccessors.size() ? md.uvAccessors[set] : -1;
            for (size_t lower = set; accessor < 0 && lower-- > 0;)
                accessor = lower < md.uvAccessors.size() ? md.uvAccessors[lower] : -1;
            if (accessor < 0) {
                accessor = zeroUvAccessor(mesh.vertexCount);
                note("mesh '" + mesh.name +
                     "': a material samples texture coordinates the mesh does not have (zeros written)");
            } else if (set >= md.uvAccessors.size() || md.uvAccessors[set] < 0) {
                note("mesh '" + mesh.name + "': a material samples texture coordinate set " +
                     std::to_string(set) + ", which the mesh lacks (the set below it is used)");
            }
            p["attributes"]["TEXCOORD_" + std::to_string(set)] = accessor;
        }
        p["indices"] = md.primitives[s].second;
        p["mode"] = md.primitives[s].first;
        if (material >= 0) p["material"] = material;
        if (!md.targets.empty()) p["targets"] = md.targets;
        primitives.push_back(p);
    }
    int index = -1;
    if (!primitives.empty()) {
        Json m = {{"name", mesh.name}, {"primitives", primitives}};
        if (md.targetCount) {
            m["weights"] =
                gltfWeights(mesh, mesh.defaultMorphWeights.data(), mesh.defaultMorphWeights.size(), false);
            std::vector<std::string> names;
            for (const MorphTarget& t : mesh.morphTargets) names.push_back(t.name);
            if (hasBaseTarget(mesh)) names.push_back("OpenGEX base weight");
            m["extras"]["targetNames"] = names;
        }
        m_meshes.push_back(m);
        m_report.primitives += primitives.size();
        index = int(m_meshes.size() - 1);
    }
    m_meshOf[key] = index;
    return index;
}

}  // namespace gltf

bool gltfKeepsQuantizedPositions(const Mesh& mesh) {
    const VertexAttribute* attr = findAttribute(mesh, Semantic::Position, 0, nullptr);
    if (!attr || attr->components < 3) return false;
    const bool integer = attr->type == ComponentType::Int8 || attr->type == ComponentType::UInt8 ||
                         attr->type == ComponentType::Int16 || attr->type == ComponentType::UInt16;
    // The unpack matrix goes into a child node's transform, or for a skinned mesh (whose node's
    // transform glTF ignores) into the inverse bind matrices of a skin of its own.
    return integer;
}

}  // namespace esv
