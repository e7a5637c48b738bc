#include "convert/gltf/gltf_writer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>
#include <stb_image_write.h>

#include "convert/gltf/gltf_curves.h"
#include "convert/gltf/gltf_skin.h"
#include "loaders/textures/decode.h"
#include "scene/cpu_reference.h"
#include "scene/pof_extras.h"
#include "scene/sampler.h"
#include "scene/tangents.h"

namespace esv {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// glTF 2.0 accessor component types and buffer view targets (specification 3.6.2, 3.6.1).
constexpr int kByte = 5120, kUByte = 5121, kShort = 5122, kUShort = 5123, kUInt = 5125, kFloat = 5126;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr float kPi = 3.14159265358979f;

enum class Enc : uint8_t { Float, Int8, UInt8, Int16, UInt16, Count };
constexpr int kEncGl[] = {kFloat, kByte, kUByte, kShort, kUShort};
constexpr size_t kEncSize[] = {4, 1, 1, 2, 2};
static_assert(sizeof(kEncGl) / sizeof(kEncGl[0]) == size_t(Enc::Count), "one GL type per encoding");
static_assert(sizeof(kEncSize) / sizeof(kEncSize[0]) == size_t(Enc::Count), "one size per encoding");

struct Encoding {
    Enc enc = Enc::Float;
    bool normalized = false;
};

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

const char* accessorType(int components) {
    switch (components) {
        case 1:
            return "SCALAR";
        case 2:
            return "VEC2";
        case 3:
            return "VEC3";
        case 4:
            return "VEC4";
        default:
            return "MAT4";
    }
}

size_t align4(size_t n) {
    return (n + 3) & ~size_t(3);
}

// Equal within 1e-4 of the larger of 1 and the largest element.
bool nearlyEqual(const glm::mat4& a, const glm::mat4& b) {
    float largest = 1.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) largest = std::max(largest, std::fabs(b[c][r]));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!(std::fabs(a[c][r] - b[c][r]) <= 1e-4f * largest)) return false;
    return true;
}

bool isIdentity(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::fabs(m[c][r] - (c == r ? 1.0f : 0.0f)) > 1e-7f) return false;
    return true;
}

float finiteOr(float v, float fallback) {
    return std::isfinite(v) ? v : fallback;
}

struct Trs {
    glm::vec3 t{0.0f};
    glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 s{1.0f};
    bool exact = true;  // translation * rotation * scale reproduces the matrix
};

// The matrix as translation * rotation * scale. A zero scale on one or two axes keeps a rotation
// built from the other axes (glTF allows zero scales, not a matrix that cannot be decomposed); a
// shear or a projective row makes the result inexact, the nearest T*R*S.
Trs decompose(const glm::mat4& m) {
    Trs out;
    out.t = glm::vec3(m[3]);
    glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    float scale[3];
    int zero = 0, kept = 0;
    for (int i = 0; i < 3; ++i) {
        scale[i] = glm::length(axis[i]);
        if (!std::isfinite(scale[i]) || !std::isfinite(out.t[i])) {
            out = Trs{};
            out.exact = false;
            return out;
        }
        if (scale[i] > 0.0f) {
            axis[i] /= scale[i];
            kept = i;
        } else {
            ++zero;
        }
    }
    if (zero == 1) {
        for (int k = 0; k < 3; ++k)
            if (scale[k] == 0.0f) axis[k] = glm::normalize(glm::cross(axis[(k + 1) % 3], axis[(k + 2) % 3]));
    } else if (zero == 2) {
        const glm::vec3 a = axis[kept];
        const glm::vec3 other = std::fabs(a.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
        axis[(kept + 1) % 3] = glm::normalize(glm::cross(a, other));
        axis[(kept + 2) % 3] = glm::cross(a, axis[(kept + 1) % 3]);
    } else if (zero == 3) {
        axis[0] = glm::vec3(1, 0, 0);
        axis[1] = glm::vec3(0, 1, 0);
        axis[2] = glm::vec3(0, 0, 1);
    }
    glm::mat3 rotation(axis[0], axis[1], axis[2]);
    if (glm::determinant(rotation) < 0.0f) {
        rotation[0] = -rotation[0];
        scale[0] = -scale[0];
    }
    const glm::quat q = glm::quat_cast(rotation);
    const float len = glm::length(q);
    out.r = len > 0.0f && std::isfinite(len) ? q / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    out.s = glm::vec3(scale[0], scale[1], scale[2]);
    Transform back;
    back.translation = out.t;
    back.rotation = out.r;
    back.scale = out.s;
    const glm::mat4 b = back.toMatrix();
    float largest = 1.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) largest = std::max(largest, std::fabs(m[c][r]));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!(std::fabs(b[c][r] - m[c][r]) <= 1e-4f * largest)) out.exact = false;
    return out;
}

Trs trsOf(const Transform& t) {
    if (t.useMatrix) return decompose(t.matrix);
    Trs out;
    out.t = t.translation;
    const float len = glm::length(t.rotation);
    out.r = len > 0.0f && std::isfinite(len) ? t.rotation / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    out.s = t.scale;
    return out;
}

bool meshHasBones(const Mesh& mesh) {
    return findAttribute(mesh, Semantic::BoneIndices, 0, nullptr) &&
           findAttribute(mesh, Semantic::BoneWeights, 0, nullptr);
}

// The mesh of node `i` as the writer draws it, or nullptr (no mesh, no positions, nothing drawable).
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

// The transform of the child node that carries a non-skinned instance's mesh (identity: none).
// `rest` is the scene's rest pose (evaluatePose with clip -1).
glm::mat4 helperTransform(const Scene& scene, const Pose& rest, size_t i) {
    const Node& node = scene.nodes[i];
    // A camera with a target looks at it (renderer/camera.cpp: up along the node's Y); glTF has no
    // targets, so the child holds the orientation at rest.
    if (node.kind == NodeKind::Camera && node.object >= 0 && size_t(node.object) < scene.cameras.size()) {
        const int32_t target = scene.cameras[node.object].targetNode;
        if (target >= 0 && size_t(target) < scene.nodes.size()) {
            const glm::mat4& world = rest.objectWorld[i];
            const glm::vec3 eye(world[3]), at(rest.world[target][3]), up(world[1]);
            const glm::vec3 look = at - eye;
            if (glm::length(look) > 0.0f &&
                glm::length(glm::cross(look, up)) > 1e-6f * glm::length(look) * glm::length(up)) {
                const glm::mat4 cameraWorld = glm::inverse(glm::lookAt(eye, at, glm::normalize(up)));
                const glm::mat4 aim = glm::inverse(rest.world[i]) * cameraWorld;
                // Exporters usually turn the camera node towards its target already.
                if (!nearlyEqual(aim, node.objectTransform)) return aim;
            }
        }
    }
    // Lights and cameras sit where their object transform puts them, as the renderer places them.
    if ((node.kind == NodeKind::Light || node.kind == NodeKind::Camera) && node.object >= 0)
        return node.objectTransform;
    const Mesh* mesh = writtenMesh(scene, i);
    if (!mesh || instanceSkinned(scene, i)) return glm::mat4(1.0f);
    glm::mat4 h = scene.nodes[i].objectTransform;
    if (gltfKeepsQuantizedPositions(*mesh)) h = h * mesh->positionUnpack;
    return h;
}

// OpenGEX base-weighted morphing (Mesh::morphBaseWeighted) draws s * base + sum w_i (M_i - base),
// s the sum of the absolute targets' weights. glTF draws base + sum w_i d_i; one more target whose
// delta is the base itself, weighted s - 1, makes the two the same.
bool hasBaseTarget(const Mesh& mesh) {
    return mesh.morphBaseWeighted && !mesh.morphTargets.empty();
}

// glTF weights for `count` esview weights (missing ones 0), with the base target's weight appended
// where the mesh has one: s - 1, or for tangents (CUBICSPLINE) the sum of the absolute targets' ones.
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

// FreeSpace file axes (left-handed) to the scene's: (x, y, z) -> (x, y, -z) (scene/pof_extras.h).
glm::vec3 pofToScene(const glm::vec3& v) {
    return {v.x, v.y, -v.z};
}
Json vec3Json(const glm::vec3& v) {
    return Json::array({v.x, v.y, v.z});
}

std::string safeStem(const std::string& stem) {
    std::string out;
    for (char c : stem)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return out.empty() ? "model" : out;
}

void pngWriter(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    const auto* bytes = static_cast<const uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

const char* wrapNames[] = {"repeat", "clamp", "mirror", "border", "mirror clamp", "mirror border"};
static_assert(sizeof(wrapNames) / sizeof(wrapNames[0]) == size_t(Wrap::Count), "one name per wrap mode");

int glWrap(Wrap w) {
    switch (w) {
        case Wrap::Repeat:
            return 10497;
        case Wrap::Mirror:
            return 33648;
        default:
            return 33071;  // clamp to edge: the nearest GL has for the border modes
    }
}

// Mesh attribute data shared by every instance of one (mesh, skin) pair.
struct MeshData {
    bool written = false;
    Json attributes = Json::object();  // everything but TEXCOORD_n
    std::vector<int> uvAccessors;      // per texture coordinate set (-1: the mesh has none)
    Json targets = Json::array();
    std::vector<std::pair<int, int>> primitives;  // per submesh: mode, index accessor (-1: nothing drawn)
    bool skinned = false;
    uint32_t targetCount = 0;
};

class Writer {
public:
    Writer(const Scene& scene, const GltfWriteOptions& options, GltfWriteReport& report,
           const std::string& stem)
        : m_scene(scene), m_options(options), m_report(report), m_stem(stem) {}

    Json build() {
        const size_t n = m_scene.nodes.size();
        evaluatePose(m_scene, -1, 0.0f, m_rest);
        m_meshHolder.resize(n);
        for (size_t i = 0; i < n; ++i) m_meshHolder[i] = int(i);
        for (size_t i = 0; i < n; ++i) {
            const Node& node = m_scene.nodes[i];
            if (node.kind != NodeKind::Mesh) continue;
            for (int32_t m : node.materials)
                if (m >= 0 && size_t(m) < m_scene.materials.size() &&
                    normalMapTexture(m_scene.materials[m]) >= 0)
                    m_needsTangents.insert(node.object);
        }
        for (const Material& material : m_scene.materials) m_materials.push_back(materialJson(material));
        writeSkinsCamerasLights();
        writeNodes();
        if (m_scene.pof) writePofPoints(*m_scene.pof);
        writeAnimations();
        writeScenes();

        Json root;
        root["asset"] = {{"version", "2.0"}, {"generator", "esview convert"}};
        if (!m_extUsed.empty())
            root["extensionsUsed"] = Json(std::vector<std::string>(m_extUsed.begin(), m_extUsed.end()));
        if (!m_extRequired.empty())
            root["extensionsRequired"] =
                Json(std::vector<std::string>(m_extRequired.begin(), m_extRequired.end()));
        if (!m_lights.empty()) root["extensions"]["KHR_lights_punctual"]["lights"] = m_lights;
        root["scene"] = 0;
        root["scenes"] = m_scenes;
        auto put = [&](const char* name, const Json& array) {
            if (!array.empty()) root[name] = array;
        };
        put("nodes", m_nodes);
        put("meshes", m_meshes);
        put("materials", m_materials);
        put("textures", m_textures);
        put("images", m_images);
        put("samplers", m_samplers);
        put("skins", m_skins);
        put("cameras", m_cameras);
        put("animations", m_animations);
        put("accessors", m_accessors);
        put("bufferViews", m_views);
        if (!m_bin.empty()) {
            Json buffer = {{"byteLength", m_bin.size()}};
            if (!m_options.binary) buffer["uri"] = m_stem + ".bin";
            root["buffers"] = Json::array({buffer});
        }
        Json extras = {{"source_format", m_scene.format},
                       {"up_axis", m_scene.up == UpAxis::Z ? "Z" : "Y"},
                       {"meters_per_unit", m_scene.metersPerUnit},
                       {"ambient", vec3Json(m_scene.ambient)}};
        root["extras"] = extras;
        m_report.nodes = m_nodes.size();
        m_report.meshes = m_meshes.size();
        m_report.materials = m_materials.size();
        m_report.images = m_images.size();
        m_report.animations = m_animations.size();
        m_report.scenes = m_scenes.size();
        return root;
    }

    std::vector<uint8_t>& bin() { return m_bin; }
    std::vector<std::pair<std::string, std::vector<uint8_t>>>& sideFiles() { return m_sideFiles; }

private:
    void note(const std::string& text) {
        if (std::find(m_report.notes.begin(), m_report.notes.end(), text) == m_report.notes.end())
            m_report.notes.push_back(text);
    }

    // ---- buffer, views, accessors

    int addView(const uint8_t* data, size_t size, int target, size_t stride) {
        m_bin.resize(align4(m_bin.size()), 0);
        Json view = {{"buffer", 0}, {"byteOffset", m_bin.size()}, {"byteLength", size}};
        if (stride) view["byteStride"] = stride;
        if (target) view["target"] = target;
        m_bin.insert(m_bin.end(), data, data + size);
        m_views.push_back(view);
        return int(m_views.size() - 1);
    }

    // Encodes `values` (components per element) and adds an accessor for them. Vertex attributes
    // (target kArrayBuffer) get elements aligned to 4 bytes (specification 3.6.2.4).
    int addAccessor(const std::vector<float>& values, int components, Encoding encoding, bool minMax,
                    int target) {
        const size_t comps = components == 16 ? 16 : size_t(components);
        const size_t count = values.size() / comps;
        const size_t size = kEncSize[size_t(encoding.enc)];
        const size_t element = comps * size;
        const size_t stride = target == kArrayBuffer ? align4(element) : element;
        std::vector<uint8_t> data(count * stride, 0);
        std::vector<double> lo(comps, 1e300), hi(comps, -1e300);
        for (size_t e = 0; e < count; ++e)
            for (size_t c = 0; c < comps; ++c) {
                const float f = finiteOr(values[e * comps + c], 0.0f);
                uint8_t* p = &data[e * stride + c * size];
                double stored = 0.0;
                auto quant = [&](float scale, float low, float high) {
                    const float x = encoding.normalized ? std::clamp(f, low / scale, high / scale) * scale
                                                        : std::clamp(f, low, high);
                    return std::round(x);
                };
                switch (encoding.enc) {
                    case Enc::Float: {
                        std::memcpy(p, &f, 4);
                        stored = f;
                        break;
                    }
                    case Enc::Int8: {
                        const auto v = static_cast<int8_t>(quant(127.0f, -127.0f, 127.0f));
                        std::memcpy(p, &v, 1);
                        stored = v;
                        break;
                    }
                    case Enc::UInt8: {
                        const auto v = static_cast<uint8_t>(quant(255.0f, 0.0f, 255.0f));
                        *p = v;
                        stored = v;
                        break;
                    }
                    case Enc::Int16: {
                        const auto v = static_cast<int16_t>(quant(32767.0f, -32767.0f, 32767.0f));
                        std::memcpy(p, &v, 2);
                        stored = v;
                        break;
                    }
                    default: {
                        const auto v = static_cast<uint16_t>(quant(65535.0f, 0.0f, 65535.0f));
                        std::memcpy(p, &v, 2);
                        stored = v;
                        break;
                    }
                }
                lo[c] = std::min(lo[c], stored);
                hi[c] = std::max(hi[c], stored);
            }
        const int view = addView(data.data(), data.size(), target, stride != element ? stride : 0);
        Json accessor = {{"bufferView", view},
                         {"componentType", kEncGl[size_t(encoding.enc)]},
                         {"count", count},
                         {"type", accessorType(components)}};
        if (encoding.normalized) accessor["normalized"] = true;
        if (minMax && count > 0) {
            accessor["min"] = lo;
            accessor["max"] = hi;
        }
        m_accessors.push_back(accessor);
        return int(m_accessors.size() - 1);
    }

    int addIndices(const std::vector<uint32_t>& indices, uint32_t vertexCount) {
        std::vector<uint8_t> data;
        int type = kUInt;
        // 65535 is the primitive restart value of 16-bit indices, which glTF forbids.
        if (vertexCount <= 65535) {
            type = kUShort;
            data.resize(indices.size() * 2);
            for (size_t i = 0; i < indices.size(); ++i) {
                const auto v = static_cast<uint16_t>(indices[i]);
                std::memcpy(&data[i * 2], &v, 2);
            }
        } else {
            data.resize(indices.size() * 4);
            std::memcpy(data.data(), indices.data(), data.size());
        }
        const int view = addView(data.data(), data.size(), kElementArrayBuffer, 0);
        m_accessors.push_back(
            {{"bufferView", view}, {"componentType", type}, {"count", indices.size()}, {"type", "SCALAR"}});
        return int(m_accessors.size() - 1);
    }

    int addJoints(const std::vector<uint16_t>& joints, uint32_t jointCount) {
        std::vector<uint8_t> data;
        int type = kUByte;
        if (jointCount <= 256) {
            data.assign(joints.begin(), joints.end());
        } else {
            type = kUShort;
            data.resize(joints.size() * 2);
            std::memcpy(data.data(), joints.data(), data.size());
        }
        const int view = addView(data.data(), data.size(), kArrayBuffer, 0);
        m_accessors.push_back(
            {{"bufferView", view}, {"componentType", type}, {"count", joints.size() / 4}, {"type", "VEC4"}});
        return int(m_accessors.size() - 1);
    }

    // ---- meshes

    MeshData& meshData(int meshIndex, int skinIndex) {
        MeshData& md = m_meshData[{meshIndex, skinIndex}];
        if (md.written) return md;
        md.written = true;
        const Mesh& mesh = m_scene.meshes[meshIndex];
        const uint32_t count = mesh.vertexCount;
        const bool skinned = skinIndex >= 0;
        float v[4];

        const VertexStream* posStream = nullptr;
        const VertexAttribute* posAttr = findAttribute(mesh, Semantic::Position, 0, &posStream);
        const bool keepQuantized = gltfKeepsQuantizedPositions(mesh);
        std::vector<float> basePositions(size_t(count) * 3);
        for (uint32_t i = 0; i < count; ++i) {
            readAttribute(*posStream, *posAttr, i, v);
            glm::vec3 p(v[0], v[1], v[2]);
            if (!keepQuantized) p = glm::vec3(mesh.positionUnpack * glm::vec4(p, 1.0f));
            basePositions[i * 3 + 0] = p.x;
            basePositions[i * 3 + 1] = p.y;
            basePositions[i * 3 + 2] = p.z;
        }
        if (keepQuantized) {
            m_extUsed.insert("KHR_mesh_quantization");
            m_extRequired.insert("KHR_mesh_quantization");
            md.attributes["POSITION"] =
                addAccessor(basePositions, 3, integerEncoding(*posAttr), true, kArrayBuffer);
        } else {
            if (posAttr->type != ComponentType::Float32)
                note(std::string("mesh '") + mesh.name + "': " + componentTypeName(posAttr->type) +
                     " positions widened to floats" +
                     (isIdentity(mesh.positionUnpack) ? "" : " with the unpack matrix applied"));
            md.attributes["POSITION"] = addAccessor(basePositions, 3, {}, true, kArrayBuffer);
        }

        const VertexStream* nrmStream = nullptr;
        const VertexAttribute* nrmAttr = findAttribute(mesh, Semantic::Normal, 0, &nrmStream);
        std::vector<float> normals, storedNormals;
        bool normalsQuantized = false;
        if (nrmAttr) {
            normals.resize(size_t(count) * 3);
            storedNormals.resize(size_t(count) * 3);
            bool unit = true;
            for (uint32_t i = 0; i < count; ++i) {
                readAttribute(*nrmStream, *nrmAttr, i, v);
                glm::vec3 nrm(v[0], v[1], v[2]);
                std::memcpy(&storedNormals[i * 3], v, 3 * sizeof(float));
                const float len = glm::length(nrm);
                // glTF wants unit normals whatever their type (the validator allows rounding of about
                // 0.005); quantised ones further off are widened and normalised.
                if (!(std::fabs(len - 1.0f) <= 0.005f)) unit = false;
                nrm = len > 0.0f && std::isfinite(len) ? nrm / len : glm::vec3(0.0f, 0.0f, 1.0f);
                normals[i * 3 + 0] = nrm.x;
                normals[i * 3 + 1] = nrm.y;
                normals[i * 3 + 2] = nrm.z;
            }
            const Encoding stored = integerEncoding(*nrmAttr);
            const bool quantized =
                unit && stored.normalized && (stored.enc == Enc::Int8 || stored.enc == Enc::Int16);
            normalsQuantized = quantized;
            if (quantized) {
                m_extUsed.insert("KHR_mesh_quantization");
                m_extRequired.insert("KHR_mesh_quantization");
            } else if (nrmAttr->type != ComponentType::Float32) {
                note(std::string("mesh '") + mesh.name + "': " + componentTypeName(nrmAttr->type) +
                     " normals widened to floats and normalised (" +
                     (unit ? "glTF has no such normal type" : "not of unit length as glTF requires") + ")");
            }
            md.attributes["NORMAL"] = quantized ? addAccessor(storedNormals, 3, stored, false, kArrayBuffer)
                                                : addAccessor(normals, 3, {}, false, kArrayBuffer);

            // Tangents: the file's, or for a normal-mapped mesh without them the ones esview computes
            // (scene/tangents.h), so a viewer need not generate its own.
            std::vector<glm::vec4> frames;
            const bool fileTangents = findAttribute(mesh, Semantic::Tangent, 0, nullptr) != nullptr;
            if ((fileTangents || m_needsTangents.count(meshIndex)) && computeTangents(mesh, frames) &&
                frames.size() == count) {
                std::vector<float> tangents(size_t(count) * 4);
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
                if (usable) {
                    md.attributes["TANGENT"] = addAccessor(tangents, 4, {}, false, kArrayBuffer);
                } else {
                    note(std::string("mesh '") + mesh.name + "': tangents left out (some are zero)");
                }
            }
        }

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
            if (enc.enc != Enc::Float &&
                !((enc.enc == Enc::UInt8 || enc.enc == Enc::UInt16) && enc.normalized)) {
                m_extUsed.insert("KHR_mesh_quantization");
                m_extRequired.insert("KHR_mesh_quantization");
            }
            md.uvAccessors.push_back(addAccessor(uv, 2, enc, false, kArrayBuffer));
        }
        while (!md.uvAccessors.empty() && md.uvAccessors.back() < 0) md.uvAccessors.pop_back();

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
            md.attributes["COLOR_" + std::to_string(set)] =
                addAccessor(colors, comps, enc, false, kArrayBuffer);
        }

        if (skinned) {
            const uint32_t joints = uint32_t(m_scene.skins[skinIndex].joints.size());
            const gltf::VertexInfluences influences = gltf::mergeBoneBatches(mesh, joints);
            if (influences.sets > 0) {
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
                    md.attributes["WEIGHTS_" + std::to_string(s)] =
                        addAccessor(w, 4, {}, false, kArrayBuffer);
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
        }

        // Morph targets: deltas in the space the base positions were written in.
        md.targetCount = uint32_t(mesh.morphTargets.size());
        bool targetNormals = false;
        for (const MorphTarget& target : mesh.morphTargets)
            for (const VertexAttribute& a : target.stream.attributes)
                if (a.semantic == Semantic::Normal && nrmAttr) targetNormals = true;
        for (const MorphTarget& target : mesh.morphTargets) {
            const VertexAttribute* tp = nullptr;
            const VertexAttribute* tn = nullptr;
            for (const VertexAttribute& a : target.stream.attributes) {
                if (a.semantic == Semantic::Position && !tp) tp = &a;
                if (a.semantic == Semantic::Normal && !tn) tn = &a;
            }
            std::vector<float> dp(size_t(count) * 3, 0.0f), dn(size_t(count) * 3, 0.0f);
            const glm::mat3 linear = keepQuantized ? glm::mat3(1.0f) : glm::mat3(mesh.positionUnpack);
            for (uint32_t i = 0; i < count && i < target.stream.count; ++i) {
                if (tp) {
                    readAttribute(target.stream, *tp, i, v);
                    glm::vec3 d(v[0], v[1], v[2]);
                    if (!target.relative) {
                        float base[4];
                        readAttribute(*posStream, *posAttr, i, base);
                        d -= glm::vec3(base[0], base[1], base[2]);
                    }
                    d = linear * d;
                    dp[i * 3] = d.x;
                    dp[i * 3 + 1] = d.y;
                    dp[i * 3 + 2] = d.z;
                }
                if (tn && targetNormals) {
                    readAttribute(target.stream, *tn, i, v);
                    glm::vec3 d(v[0], v[1], v[2]);
                    if (!target.relative) {
                        float base[4];
                        readAttribute(*nrmStream, *nrmAttr, i, base);
                        d -= glm::vec3(base[0], base[1], base[2]);
                    }
                    dn[i * 3] = d.x;
                    dn[i * 3 + 1] = d.y;
                    dn[i * 3 + 2] = d.z;
                }
            }
            Json t = {{"POSITION", addAccessor(dp, 3, {}, true, kArrayBuffer)}};
            if (targetNormals) t["NORMAL"] = addAccessor(dn, 3, {}, false, kArrayBuffer);
            md.targets.push_back(t);
        }
        if (hasBaseTarget(mesh)) {
            Json t = {{"POSITION", addAccessor(basePositions, 3, {}, true, kArrayBuffer)}};
            if (targetNormals)
                t["NORMAL"] =
                    addAccessor(normalsQuantized ? storedNormals : normals, 3, {}, false, kArrayBuffer);
            md.targets.push_back(t);
            ++md.targetCount;
        }

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
                const size_t first = size_t((*starts)[s]) * per;
                const size_t end = s + 1 < starts->size() ? size_t((*starts)[s + 1]) * per : list->size();
                std::vector<uint32_t> indices;
                for (size_t k = first; k + per <= end && k + per <= list->size(); k += per) {
                    bool ok = true;
                    for (int j = 0; j < per; ++j) ok = ok && (*list)[k + j] < count;
                    if (ok)
                        indices.insert(indices.end(), list->begin() + long(k), list->begin() + long(k + per));
                }
                if (!indices.empty()) accessor = addIndices(indices, count);
            }
            md.primitives.push_back({mode, accessor});
        }
        return md;
    }

    int zeroUvAccessor(uint32_t count) {
        auto it = m_zeroUv.find(count);
        if (it != m_zeroUv.end()) return it->second;
        const int accessor =
            addAccessor(std::vector<float>(size_t(count) * 2, 0.0f), 2, {}, false, kArrayBuffer);
        m_zeroUv[count] = accessor;
        return accessor;
    }

    // The glTF mesh for node `i` (-1 when nothing of it can be drawn).
    int meshFor(size_t i, bool skinned) {
        const Node& node = m_scene.nodes[i];
        if (!writtenMesh(m_scene, i)) return -1;
        const Mesh& mesh = m_scene.meshes[node.object];
        std::vector<int> materials;
        for (const Submesh& sub : mesh.submeshes) {
            const int32_t m =
                sub.materialSlot < node.materials.size() ? node.materials[sub.materialSlot] : -1;
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
                m["weights"] = gltfWeights(mesh, mesh.defaultMorphWeights.data(),
                                           mesh.defaultMorphWeights.size(), false);
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

    // ---- materials and textures

    int imageFor(int textureIndex) {
        auto found = m_imageOf.find(textureIndex);
        if (found != m_imageOf.end()) return found->second;
        const Texture& tex = m_scene.textures[textureIndex];
        int result = -1;
        if (tex.placeholder || tex.image.empty()) {
            if (!tex.notDrawn) note("texture '" + tex.path + "' was not found or not readable: left out");
        } else {
            std::vector<uint8_t> bytes;
            std::string mime, ext;
            const Image& image = tex.image;
            if (image.container == "png" || image.container == "jpeg") {
                mime = image.container == "png" ? "image/png" : "image/jpeg";
                ext = image.container == "png" ? ".png" : ".jpg";
                if (tex.embedded.size) {
                    bytes.assign(tex.embedded.data, tex.embedded.data + tex.embedded.size);
                } else {
                    std::ifstream in(tex.resolvedPath, std::ios::binary);
                    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
                }
            }
            if (bytes.empty()) {
                Image decoded;
                std::string error;
                const Image* rgba = &image;
                if (image.format != PixelFormat::Rgba8 || image.bottomUp) {
                    if (decodeImage(image, decoded, error)) {
                        rgba = &decoded;
                    } else {
                        rgba = nullptr;
                        note("texture '" + tex.path + "' could not be decoded (" + error + "): left out");
                    }
                }
                if (rgba && !rgba->surfaces.empty() &&
                    rgba->surfaces[0].size >= size_t(rgba->width) * rgba->height * 4) {
                    mime = "image/png";
                    ext = ".png";
                    stbi_write_png_to_func(pngWriter, &bytes, int(rgba->width), int(rgba->height), 4,
                                           rgba->surfaces[0].data, int(rgba->width * 4));
                    note("texture '" + tex.path + "' (" + image.container + ", " +
                         pixelFormatName(image.format) + ") written as PNG" +
                         (image.isCube() ? " (its first cube face)" : ""));
                }
            }
            if (!bytes.empty()) {
                Json img = {{"name", tex.name.empty() ? tex.path : tex.name}};
                if (m_options.binary) {
                    img["bufferView"] = addView(bytes.data(), bytes.size(), 0, 0);
                    img["mimeType"] = mime;
                } else {
                    const std::string file = m_stem + "_" + std::to_string(m_images.size()) + ext;
                    img["uri"] = file;
                    m_sideFiles.push_back({file, std::move(bytes)});
                }
                m_images.push_back(img);
                result = int(m_images.size() - 1);
            }
        }
        m_imageOf[textureIndex] = result;
        return result;
    }

    // Texture info for `ref`, or null when it names no usable image.
    Json textureInfo(const TextureRef& ref, const std::string& where, size_t* uvSets) {
        if (ref.texture < 0 || size_t(ref.texture) >= m_scene.textures.size()) return nullptr;
        const int image = imageFor(ref.texture);
        if (image < 0) return nullptr;
        const auto samplerKey = std::make_pair(int(ref.wrapS), int(ref.wrapT));
        auto s = m_samplerOf.find(samplerKey);
        int sampler;
        if (s == m_samplerOf.end()) {
            m_samplers.push_back({{"magFilter", 9729},
                                  {"minFilter", 9987},
                                  {"wrapS", glWrap(ref.wrapS)},
                                  {"wrapT", glWrap(ref.wrapT)}});
            sampler = int(m_samplers.size() - 1);
            m_samplerOf[samplerKey] = sampler;
        } else {
            sampler = s->second;
        }
        const auto textureKey = std::make_pair(image, sampler);
        auto t = m_textureOf.find(textureKey);
        int texture;
        if (t == m_textureOf.end()) {
            m_textures.push_back({{"sampler", sampler}, {"source", image}});
            texture = int(m_textures.size() - 1);
            m_textureOf[textureKey] = texture;
        } else {
            texture = t->second;
        }
        if (wrapNeedsShader(ref.wrapS) || wrapNeedsShader(ref.wrapT))
            note(where + ": " + wrapNames[size_t(wrapNeedsShader(ref.wrapS) ? ref.wrapS : ref.wrapT)] +
                 " addressing written as clamp to edge");
        if (!isIdentitySwizzle(ref.swizzle))
            note(where + ": texture swizzle " + swizzleText(ref.swizzle) + " left out");
        Json info = {{"index", texture}};
        if (ref.uvSet) info["texCoord"] = ref.uvSet;
        *uvSets = std::max<size_t>(*uvSets, size_t(ref.uvSet) + 1);
        if (ref.uvTransform >= 0 && size_t(ref.uvTransform) < m_scene.uvTransforms.size()) {
            const glm::mat4 m = m_scene.uvTransforms[ref.uvTransform].matrix();
            // KHR_texture_transform: uv' = T * R * S * uv with R = [cos sin; -sin cos].
            const glm::vec2 cu(m[0][0], m[0][1]), cv(m[1][0], m[1][1]);
            const float su = glm::length(cu);
            const float sv = (cu.x * cv.y - cu.y * cv.x) < 0.0f ? -glm::length(cv) : glm::length(cv);
            const float rotation = std::atan2(-cu.y, cu.x);
            const float orthogonal = std::fabs(glm::dot(cu, cv));
            if (su > 0.0f && orthogonal <= 1e-4f * su * std::fabs(sv)) {
                Json tt = {{"offset", {m[3][0], m[3][1]}}, {"rotation", rotation}, {"scale", {su, sv}}};
                if (ref.uvSet) tt["texCoord"] = ref.uvSet;
                info["extensions"]["KHR_texture_transform"] = tt;
                m_extUsed.insert("KHR_texture_transform");
            } else {
                note(where + ": texture coordinate transform with shear left out");
            }
        }
        return info;
    }

    Json materialJson(const Material& mat) {
        Json m = {{"name", mat.name}};
        Json pbr = Json::object();
        size_t uvSets = 0;
        const std::string where = "material '" + mat.name + "'";
        auto tex = [&](TextureSlot slot) { return textureInfo(mat.texture(slot), where, &uvSets); };
        auto clamp01 = [](float x) { return std::clamp(finiteOr(x, 0.0f), 0.0f, 1.0f); };
        const glm::vec3 diffuse = glm::clamp(mat.diffuse, glm::vec3(0.0f), glm::vec3(1.0f));
        pbr["baseColorFactor"] = {clamp01(diffuse.r), clamp01(diffuse.g), clamp01(diffuse.b),
                                  clamp01(mat.opacity)};
        Json base = tex(TextureSlot::Diffuse);
        if (!base.is_null()) pbr["baseColorTexture"] = base;
        if (mat.model == ShadingModel::MetalRough) {
            pbr["metallicFactor"] = clamp01(mat.metallic);
            pbr["roughnessFactor"] = clamp01(mat.roughness);
            Json mr = tex(TextureSlot::Metallic);
            if (mr.is_null()) mr = tex(TextureSlot::Roughness);
            if (!mr.is_null()) pbr["metallicRoughnessTexture"] = mr;
            if (mat.texture(TextureSlot::Metallic).texture >= 0 &&
                mat.texture(TextureSlot::Roughness).texture >= 0 &&
                mat.texture(TextureSlot::Metallic).texture != mat.texture(TextureSlot::Roughness).texture)
                note(where + ": separate metallic and roughness maps; the metallic one is written");
        } else {
            // Blinn-Phong exponent n to roughness: GGX alpha = sqrt(2 / (n + 2)), roughness = sqrt(alpha).
            pbr["metallicFactor"] = 0.0f;
            pbr["roughnessFactor"] =
                mat.shininess > 0.0f ? clamp01(std::pow(2.0f / (mat.shininess + 2.0f), 0.25f)) : 1.0f;
            if (mat.model == ShadingModel::Classic) {
                Json specular = Json::object();
                const glm::vec3 sc = glm::clamp(mat.specular, glm::vec3(0.0f), glm::vec3(1.0f));
                specular["specularColorFactor"] = {sc.r, sc.g, sc.b};
                Json st = tex(TextureSlot::Specular);
                if (!st.is_null()) specular["specularColorTexture"] = st;
                if (sc != glm::vec3(1.0f) || !st.is_null()) {
                    m["extensions"]["KHR_materials_specular"] = specular;
                    m_extUsed.insert("KHR_materials_specular");
                }
            }
        }
        m["pbrMetallicRoughness"] = pbr;
        if (mat.model == ShadingModel::Unlit) {
            m["extensions"]["KHR_materials_unlit"] = Json::object();
            m_extUsed.insert("KHR_materials_unlit");
        }
        Json normal = tex(TextureSlot::Normal);
        if (normal.is_null()) normal = tex(TextureSlot::Bump);
        if (!normal.is_null()) m["normalTexture"] = normal;
        Json occlusion = tex(TextureSlot::Occlusion);
        if (!occlusion.is_null()) m["occlusionTexture"] = occlusion;
        glm::vec3 emissive = glm::max(mat.emissive, glm::vec3(0.0f));
        Json et = tex(TextureSlot::Emissive);
        if (!et.is_null()) {
            m["emissiveTexture"] = et;
            if (emissive == glm::vec3(0.0f)) emissive = glm::vec3(1.0f);
        }
        const float strongest = std::max(emissive.r, std::max(emissive.g, emissive.b));
        if (strongest > 1.0f && std::isfinite(strongest)) {
            emissive /= strongest;
            m["extensions"]["KHR_materials_emissive_strength"] = {{"emissiveStrength", strongest}};
            m_extUsed.insert("KHR_materials_emissive_strength");
        }
        if (emissive != glm::vec3(0.0f)) m["emissiveFactor"] = {emissive.r, emissive.g, emissive.b};

        for (TextureSlot slot : {TextureSlot::Ambient, TextureSlot::Shininess, TextureSlot::Opacity,
                                 TextureSlot::Reflection, TextureSlot::Refraction})
            if (mat.texture(slot).texture >= 0)
                note(where + ": " + textureSlotName(slot) + " map has no glTF counterpart: left out");

        if (mat.alphaCutoff > 0.0f) {
            m["alphaMode"] = "MASK";
            m["alphaCutoff"] = mat.alphaCutoff;
        } else if (mat.blend.enabled || mat.opacity < 1.0f) {
            m["alphaMode"] = "BLEND";
            const bool usual =
                !mat.blend.enabled ||
                (mat.blend.srcRgb == BlendFactor::SrcAlpha &&
                 mat.blend.dstRgb == BlendFactor::OneMinusSrcAlpha) ||
                (mat.blend.srcRgb == BlendFactor::One && mat.blend.dstRgb == BlendFactor::OneMinusSrcAlpha);
            if (!usual)
                note(where + ": blending other than source-over written as BLEND (factors in extras)");
            if (mat.blend.enabled)
                m["extras"]["blend"] = {{"src_rgb", int(mat.blend.srcRgb)},
                                        {"dst_rgb", int(mat.blend.dstRgb)},
                                        {"src_alpha", int(mat.blend.srcAlpha)},
                                        {"dst_alpha", int(mat.blend.dstAlpha)}};
        }
        if (mat.twoSided) m["doubleSided"] = true;
        m["extras"]["shading"] = mat.model == ShadingModel::Classic      ? "classic"
                                 : mat.model == ShadingModel::MetalRough ? "metal/rough"
                                                                         : "unlit";
        m["extras"]["ambient"] = vec3Json(mat.ambient);
        if (mat.model == ShadingModel::Classic) {
            m["extras"]["specular"] = vec3Json(mat.specular);
            m["extras"]["shininess"] = mat.shininess;
        }
        m_materialUvSets.push_back(uvSets);
        return m;
    }

    // ---- skins, cameras, lights

    void writeSkinsCamerasLights() {
        for (const Skin& skin : m_scene.skins)
            m_skinOf.push_back(skin.joints.empty() ? -1 : addSkin(skin, glm::mat4(1.0f)));
        for (const Camera& cam : m_scene.cameras) {
            Json c = {{"name", cam.name}};
            const float znear = cam.nearZ > 0.0f ? cam.nearZ : 0.01f;
            const float zfar = cam.farZ > znear ? cam.farZ : znear * 1000.0f;
            if (cam.orthographic) {
                const float ymag = cam.orthoHeight > 0.0f ? cam.orthoHeight * 0.5f : 1.0f;
                c["type"] = "orthographic";
                c["orthographic"] = {{"xmag", ymag * (cam.aspect > 0.0f ? cam.aspect : 1.0f)},
                                     {"ymag", ymag},
                                     {"znear", std::max(cam.nearZ, 0.0f)},
                                     {"zfar", zfar}};
            } else {
                float yfov = cam.yfov;
                if (cam.xfov > 0.0f) {
                    const float aspect = cam.aspect > 0.0f ? cam.aspect : 1.0f;
                    yfov = 2.0f * std::atan(std::tan(cam.xfov * 0.5f) / aspect);
                    if (!(cam.aspect > 0.0f))
                        note("camera '" + cam.name +
                             "': horizontal field of view written as vertical (no aspect ratio)");
                }
                if (!(yfov > 0.0f && yfov < kPi)) yfov = 0.7854f;
                c["type"] = "perspective";
                c["perspective"] = {{"yfov", yfov}, {"znear", znear}, {"zfar", zfar}};
                if (cam.aspect > 0.0f) c["perspective"]["aspectRatio"] = cam.aspect;
            }
            m_cameras.push_back(c);
        }
        for (const Light& light : m_scene.lights) {
            if (light.type == LightType::Ambient || !light.enabled) {
                m_lightOf.push_back(-1);
                note("light '" + light.name +
                     "': " + (light.enabled ? "ambient lights have no glTF counterpart" : "switched off") +
                     ": left out");
                continue;
            }
            Json l = {
                {"name", light.name},
                {"color", {clampColor(light.color.r), clampColor(light.color.g), clampColor(light.color.b)}},
                {"intensity", std::max(finiteOr(light.intensity, 1.0f), 0.0f)}};
            if (light.type == LightType::Directional) {
                l["type"] = "directional";
            } else {
                l["type"] = light.type == LightType::Spot ? "spot" : "point";
                if (light.range > 0.0f) l["range"] = light.range;
                if (light.type == LightType::Spot) {
                    const float outer = std::clamp(light.outerCone, 1e-4f, kPi * 0.5f);
                    const float inner = std::clamp(light.innerCone, 0.0f, outer * 0.999f);
                    l["spot"] = {{"innerConeAngle", inner}, {"outerConeAngle", outer}};
                }
            }
            // glTF lights fall off with the inverse square; the file's own attenuation is kept here.
            l["extras"] = {{"constant_attenuation", light.constantAttenuation},
                           {"linear_attenuation", light.linearAttenuation},
                           {"quadratic_attenuation", light.quadraticAttenuation}};
            m_lights.push_back(l);
            m_lightOf.push_back(int(m_lights.size() - 1));
            m_extUsed.insert("KHR_lights_punctual");
        }
    }

    // A glTF skin for `skin`; `unpack` (a POD unpack matrix of quantised positions the skinned mesh
    // keeps) is folded into the inverse bind matrices: joint * inverseBind * unpack * stored.
    int addSkin(const Skin& skin, const glm::mat4& unpack) {
        std::vector<float> ibm;
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            const glm::mat4 m =
                (j < skin.inverseBind.size() ? skin.inverseBind[j] : glm::mat4(1.0f)) * unpack;
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r)
                    ibm.push_back(c == 3 && r == 3 ? 1.0f : (r == 3 ? 0.0f : m[c][r]));
        }
        Json s = {{"joints", skin.joints}, {"inverseBindMatrices", addAccessor(ibm, 16, {}, false, 0)}};
        if (!skin.name.empty()) s["name"] = skin.name;
        m_skins.push_back(s);
        return int(m_skins.size() - 1);
    }

    // The glTF skin of skinned instance `node` (-1: none).
    int skinFor(const Node& node) {
        const Mesh& mesh = m_scene.meshes[node.object];
        if (m_skinOf[node.skin] < 0 || !gltfKeepsQuantizedPositions(mesh) || isIdentity(mesh.positionUnpack))
            return m_skinOf[node.skin];
        const auto key = std::make_pair(int(node.skin), int(node.object));
        auto found = m_unpackedSkins.find(key);
        if (found != m_unpackedSkins.end()) return found->second;
        const int index = addSkin(m_scene.skins[node.skin], mesh.positionUnpack);
        m_unpackedSkins[key] = index;
        return index;
    }

    static float clampColor(float c) { return std::clamp(finiteOr(c, 1.0f), 0.0f, 1.0f); }

    // ---- nodes

    static void putTrs(Json& n, const Trs& trs) {
        if (trs.t != glm::vec3(0.0f)) n["translation"] = vec3Json(trs.t);
        if (trs.r != glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) n["rotation"] = {trs.r.x, trs.r.y, trs.r.z, trs.r.w};
        if (trs.s != glm::vec3(1.0f)) n["scale"] = vec3Json(trs.s);
    }

    void writeNodes() {
        const size_t count = m_scene.nodes.size();
        m_nodes = Json::array();
        for (size_t i = 0; i < count; ++i) m_nodes.push_back(Json::object());
        std::vector<std::vector<int>> children(count);
        for (size_t i = 0; i < count; ++i) {
            const int32_t p = m_scene.nodes[i].parent;
            if (p >= 0 && size_t(p) < count) children[p].push_back(int(i));
        }
        for (size_t i = 0; i < count; ++i) {
            const Node& node = m_scene.nodes[i];
            Json n = {{"name", node.name}};
            const Trs trs = trsOf(node.local);
            putTrs(n, trs);
            if (!trs.exact)
                note("node '" + node.name +
                     "': a matrix that is not T*R*S (shear) written as the nearest T*R*S");
            std::vector<int> kids = children[i];
            const bool skinned = instanceSkinned(m_scene, i);
            const int mesh = meshFor(i, skinned);
            if (mesh >= 0) {
                const glm::mat4 helper = helperTransform(m_scene, m_rest, i);
                Json* holder = &n;
                Json child;
                if (!isIdentity(helper)) {
                    child = {{"name", node.name + " (object)"}};
                    const Trs h = decompose(helper);
                    putTrs(child, h);
                    if (!h.exact)
                        note("node '" + node.name +
                             "': an object transform with shear written as the nearest T*R*S");
                    holder = &child;
                }
                (*holder)["mesh"] = mesh;
                const MeshData& md = m_meshData[{node.object, skinned ? node.skin : -1}];
                if (skinned && md.skinned && skinFor(node) >= 0) (*holder)["skin"] = skinFor(node);
                if (!node.morphWeights.empty() && md.targetCount) {
                    (*holder)["weights"] = gltfWeights(m_scene.meshes[node.object], node.morphWeights.data(),
                                                       node.morphWeights.size(), false);
                }
                if (holder == &child) {
                    m_nodes.push_back(child);
                    m_meshHolder[i] = int(m_nodes.size() - 1);
                    m_meshTargets[m_meshHolder[i]] = md.targetCount;
                    kids.push_back(m_meshHolder[i]);
                } else {
                    m_meshTargets[int(i)] = md.targetCount;
                }
            }
            Json object = Json::object();
            if (node.kind == NodeKind::Camera && node.object >= 0 && size_t(node.object) < m_cameras.size()) {
                object["camera"] = node.object;
                const int32_t target = m_scene.cameras[node.object].targetNode;
                if (target >= 0 && size_t(target) < count &&
                    !nearlyEqual(helperTransform(m_scene, m_rest, i), node.objectTransform))
                    note("camera '" + m_scene.cameras[node.object].name + "' looks at node '" +
                         m_scene.nodes[target].name +
                         "': written turned towards it (glTF cameras have no target)");
            }
            if (node.kind == NodeKind::Light && node.object >= 0 && size_t(node.object) < m_lightOf.size() &&
                m_lightOf[node.object] >= 0)
                object["extensions"]["KHR_lights_punctual"]["light"] = m_lightOf[node.object];
            if (!object.empty()) {
                const glm::mat4 helper = helperTransform(m_scene, m_rest, i);
                if (isIdentity(helper)) {
                    n.update(object);
                } else {
                    object["name"] = node.name + " (object)";
                    const Trs h = decompose(helper);
                    putTrs(object, h);
                    if (!h.exact)
                        note("node '" + node.name +
                             "': an object transform with shear written as the nearest T*R*S");
                    m_nodes.push_back(object);
                    kids.push_back(int(m_nodes.size() - 1));
                    if (node.kind == NodeKind::Camera && m_scene.cameras[node.object].targetNode >= 0)
                        m_aimedCameras.push_back({int(i), int(m_nodes.size() - 1)});
                }
            }
            if (!kids.empty()) n["children"] = kids;
            if (!node.visible) n["extras"]["visible"] = false;
            if (node.kind == NodeKind::Bone) n["extras"]["bone"] = true;
            for (const UserAttribute& a : node.attributes) n["extras"]["attributes"][a.name] = a.value;
            m_nodes[i] = n;
        }
    }

    int pointNode(const std::string& name, const glm::vec3& position, Json extras) {
        Json n = {{"name", name}};
        if (position != glm::vec3(0.0f)) n["translation"] = vec3Json(position);
        n["extras"] = std::move(extras);
        m_nodes.push_back(n);
        return int(m_nodes.size() - 1);
    }

    void writePofPoints(const PofExtras& pof) {
        std::vector<int> group;
        auto firing = [&](const std::vector<std::vector<PofExtras::FiringPoint>>& slots, const char* kind) {
            for (size_t s = 0; s < slots.size(); ++s)
                for (size_t p = 0; p < slots[s].size(); ++p) {
                    const PofExtras::FiringPoint& fp = slots[s][p];
                    group.push_back(
                        pointNode(std::string(kind) + " " + std::to_string(s) + "." + std::to_string(p),
                                  pofToScene(fp.position),
                                  {{"pof", kind},
                                   {"slot", s},
                                   {"point", p},
                                   {"normal", vec3Json(pofToScene(fp.normal))},
                                   {"external_angle_offset", fp.externalAngleOffset}}));
                }
        };
        firing(pof.gunSlots, "gun");
        firing(pof.missileSlots, "missile");
        for (size_t d = 0; d < pof.docks.size(); ++d) {
            const PofExtras::Dock& dock = pof.docks[d];
            std::vector<int> points;
            for (size_t p = 0; p < dock.points.size(); ++p)
                points.push_back(pointNode(
                    "dock " + std::to_string(d) + "." + std::to_string(p),
                    pofToScene(dock.points[p].position),
                    {{"pof", "dock point"}, {"normal", vec3Json(pofToScene(dock.points[p].normal))}}));
            Json n = {{"name", "dock " + std::to_string(d)},
                      {"extras", {{"pof", "dock"}, {"properties", dock.properties}, {"paths", dock.paths}}}};
            if (!points.empty()) n["children"] = points;
            m_nodes.push_back(n);
            group.push_back(int(m_nodes.size() - 1));
        }
        for (size_t t = 0; t < pof.thrusters.size(); ++t) {
            const PofExtras::Thruster& thruster = pof.thrusters[t];
            std::vector<int> glows;
            for (size_t g = 0; g < thruster.glows.size(); ++g)
                glows.push_back(pointNode("thruster " + std::to_string(t) + "." + std::to_string(g),
                                          pofToScene(thruster.glows[g].position),
                                          {{"pof", "thruster glow"},
                                           {"normal", vec3Json(pofToScene(thruster.glows[g].normal))},
                                           {"radius", thruster.glows[g].radius}}));
            Json n = {{"name", "thruster " + std::to_string(t)},
                      {"extras", {{"pof", "thruster"}, {"properties", thruster.properties}}}};
            if (!glows.empty()) n["children"] = glows;
            m_nodes.push_back(n);
            group.push_back(int(m_nodes.size() - 1));
        }
        for (const PofExtras::Path& path : pof.paths) {
            Json vertices = Json::array();
            for (const PofExtras::PathVertex& v : path.vertices)
                vertices.push_back({{"position", vec3Json(pofToScene(v.position))},
                                    {"radius", v.radius},
                                    {"turrets", v.turrets}});
            group.push_back(pointNode(path.name.empty() ? "path" : path.name, glm::vec3(0.0f),
                                      {{"pof", "path"}, {"parent", path.parent}, {"vertices", vertices}}));
        }
        for (const PofExtras::SpecialPoint& sp : pof.specialPoints)
            group.push_back(
                pointNode(sp.name.empty() ? "special point" : sp.name, pofToScene(sp.point),
                          {{"pof", "special point"}, {"properties", sp.properties}, {"radius", sp.radius}}));
        for (size_t e = 0; e < pof.eyePoints.size(); ++e)
            group.push_back(pointNode("eye " + std::to_string(e), pofToScene(pof.eyePoints[e].offset),
                                      {{"pof", "eye point"},
                                       {"subobject", pof.eyePoints[e].subobject},
                                       {"normal", vec3Json(pofToScene(pof.eyePoints[e].normal))}}));
        for (size_t t = 0; t < pof.turrets.size(); ++t) {
            const PofExtras::TurretBank& bank = pof.turrets[t];
            Json points = Json::array();
            for (const glm::vec3& p : bank.points) points.push_back(vec3Json(pofToScene(p)));
            group.push_back(pointNode("turret bank " + std::to_string(t), glm::vec3(0.0f),
                                      {{"pof", bank.missile ? "missile turret" : "gun turret"},
                                       {"subobject", bank.subobject},
                                       {"physical_parent", bank.physicalParent},
                                       {"normal", vec3Json(pofToScene(bank.normal))},
                                       {"points", points}}));
        }
        Json g = {{"name", "pof points"}, {"extras", {{"pof", "points"}}}};
        if (!group.empty()) g["children"] = group;
        m_nodes.push_back(g);
        m_pofGroup = int(m_nodes.size() - 1);
    }

    void writeScenes() {
        std::vector<int> roots;
        for (size_t i = 0; i < m_scene.nodes.size(); ++i)
            if (m_scene.nodes[i].parent < 0 || size_t(m_scene.nodes[i].parent) >= m_scene.nodes.size())
                roots.push_back(int(i));
        const PofExtras* pof = m_scene.pof.get();
        if (pof && !pof->detailLevels.empty()) {
            // One scene per detail level (LOD0 the default), and the roots no level holds (debris).
            std::set<int> used;
            for (size_t level = 0; level < pof->detailLevels.size(); ++level) {
                int node = -1;
                for (size_t s = 0; s < pof->subobjects.size() && s < m_scene.nodes.size(); ++s)
                    if (pof->subobjects[s].number == pof->detailLevels[level]) node = int(s);
                if (node < 0) continue;
                for (int guard = 0; m_scene.nodes[node].parent >= 0 && guard < 1 << 16; ++guard)
                    node = m_scene.nodes[node].parent;
                std::vector<int> nodes = {node};
                if (m_pofGroup >= 0) nodes.push_back(m_pofGroup);
                used.insert(node);
                m_scenes.push_back({{"name", "detail " + std::to_string(level)}, {"nodes", nodes}});
            }
            std::vector<int> rest;
            for (int r : roots)
                if (!used.count(r)) rest.push_back(r);
            if (!rest.empty()) m_scenes.push_back({{"name", "debris and other"}, {"nodes", rest}});
            if (!m_scenes.empty()) return;
        }
        if (m_pofGroup >= 0) roots.push_back(m_pofGroup);
        Json scene = {{"name", m_scene.format}};
        if (!roots.empty()) scene["nodes"] = roots;
        m_scenes.push_back(scene);
    }

    // ---- animations

    bool exactTrack(const Track& t, const Clip& clip, bool allowBezier) const {
        const size_t n = t.times.size();
        if (n == 0 || t.components == 0 || t.values.size() < n * t.components) return false;
        for (size_t k = 0; k + 1 < n; ++k)
            if (!(t.times[k + 1] > t.times[k])) return false;
        if (t.times.front() < clip.start - 1e-5f || t.times.back() > clip.end + 1e-4f) return false;
        if (!gltf::timeCurveIsLinear(t)) return false;
        if (t.interpolation == Interpolation::Step || t.interpolation == Interpolation::Linear) return true;
        return allowBezier && t.interpolation == Interpolation::Bezier &&
               t.inValues.size() >= n * t.components && t.outValues.size() >= n * t.components;
    }

    int timesAccessor(std::vector<float> times) {
        for (float& t : times) t = std::max(t, 0.0f);
        return addAccessor(times, 1, {}, true, 0);
    }

    void addChannel(Json& channels, Json& samplers, int node, const char* path, int input, int output,
                    const char* interpolation) {
        samplers.push_back({{"input", input}, {"output", output}, {"interpolation", interpolation}});
        channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", node}, {"path", path}}}});
    }

    // Weight keys of a MorphWeights track (`cubic`: in-tangent, value, out-tangent per key) as glTF
    // weights of the track's mesh.
    std::vector<float> weightKeys(const Track& track, const std::vector<float>& keys, bool cubic) const {
        const Mesh& mesh = m_scene.meshes[m_scene.nodes[track.node].object];
        const size_t n = track.components;
        std::vector<float> out;
        for (size_t k = 0; k + n <= keys.size(); k += n) {
            const bool tangent = cubic && (k / n) % 3 != 1;
            const std::vector<float> w = gltfWeights(mesh, &keys[k], n, tangent);
            out.insert(out.end(), w.begin(), w.end());
        }
        return out;
    }

    static void continuousQuaternions(std::vector<float>& q) {
        for (size_t k = 0; k + 4 <= q.size(); k += 4) {
            glm::quat r(q[k + 3], q[k], q[k + 1], q[k + 2]);
            const float len = glm::length(r);
            r = len > 0.0f && std::isfinite(len) ? r / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
            if (k >= 4) {
                const glm::quat prev(q[k - 1], q[k - 4], q[k - 3], q[k - 2]);
                if (glm::dot(prev, r) < 0.0f) r = -r;
            }
            q[k] = r.x;
            q[k + 1] = r.y;
            q[k + 2] = r.z;
            q[k + 3] = r.w;
        }
    }

    void writeAnimations() {
        const size_t count = m_scene.nodes.size();
        Pose pose;
        for (size_t c = 0; c < m_scene.animation.clips.size(); ++c) {
            const Clip& clip = m_scene.animation.clips[c];
            const std::string where = "clip '" + clip.name + "'";
            std::vector<uint8_t> resampleTrs(count, 0), resampleWeights(count, 0);
            std::vector<const Track*> exact;
            std::map<std::pair<int, int>, int> perTarget;
            for (const Track& t : clip.tracks) {
                if (t.node < 0 || size_t(t.node) >= count) {
                    note(where + ": texture coordinate animation left out (glTF core has none)");
                    continue;
                }
                const Node& node = m_scene.nodes[t.node];
                switch (t.channel) {
                    case Channel::Translation:
                    case Channel::Scale:
                    case Channel::Rotation:
                        if (node.elements.empty() &&
                            t.components == (t.channel == Channel::Rotation ? 4u : 3u) &&
                            exactTrack(t, clip, t.channel != Channel::Rotation)) {
                            exact.push_back(&t);
                            ++perTarget[{t.node, int(t.channel)}];
                        } else {
                            resampleTrs[t.node] = 1;
                        }
                        break;
                    case Channel::Matrix:
                    case Channel::Element:
                        resampleTrs[t.node] = 1;
                        break;
                    case Channel::MorphWeights:
                    case Channel::MorphWeight: {
                        auto targets = m_meshTargets.find(m_meshHolder[t.node]);
                        if (targets == m_meshTargets.end() || targets->second == 0) break;
                        if (t.channel == Channel::MorphWeights &&
                            t.components == m_scene.meshes[node.object].morphTargets.size() &&
                            exactTrack(t, clip, true)) {
                            exact.push_back(&t);
                            ++perTarget[{t.node, int(t.channel)}];
                        } else {
                            resampleWeights[t.node] = 1;
                        }
                        break;
                    }
                    case Channel::CameraFov:
                        note(where + ": camera field of view animation left out (glTF core has none)");
                        break;
                    case Channel::Visibility:
                        note(where + ": visibility animation left out (glTF core has none)");
                        break;
                    default:
                        note(where + ": texture coordinate animation left out (glTF core has none)");
                        break;
                }
            }
            // Two tracks on one target cannot both be glTF channels: that node is resampled.
            for (const auto& [target, n] : perTarget)
                if (n > 1) {
                    if (target.second == int(Channel::MorphWeights)) {
                        resampleWeights[target.first] = 1;
                    } else {
                        resampleTrs[target.first] = 1;
                    }
                }

            Json channels = Json::array(), samplers = Json::array();
            for (const Track* t : exact) {
                const bool weights = t->channel == Channel::MorphWeights;
                if (weights ? resampleWeights[t->node] : resampleTrs[t->node]) continue;
                const char* path = weights                              ? "weights"
                                   : t->channel == Channel::Translation ? "translation"
                                   : t->channel == Channel::Rotation    ? "rotation"
                                                                        : "scale";
                const int target = weights ? m_meshHolder[t->node] : t->node;
                if (t->interpolation == Interpolation::Bezier) {
                    std::vector<float> times, outputs;
                    if (!gltf::bezierToCubicSpline(*t, clip.start, times, outputs)) continue;
                    if (weights) outputs = weightKeys(*t, outputs, true);
                    addChannel(channels, samplers, target, path, timesAccessor(times),
                               addAccessor(outputs, weights ? 1 : int(t->components), {}, false, 0),
                               "CUBICSPLINE");
                    continue;
                }
                std::vector<float> times(t->times);
                for (float& time : times) time -= clip.start;
                std::vector<float> values(t->values.begin(),
                                          t->values.begin() + long(t->times.size() * t->components));
                if (t->channel == Channel::Rotation) continuousQuaternions(values);
                if (weights) values = weightKeys(*t, values, false);
                addChannel(channels, samplers, target, path, timesAccessor(times),
                           addAccessor(values, weights ? 1 : int(t->components), {}, false, 0),
                           t->interpolation == Interpolation::Step ? "STEP" : "LINEAR");
            }

            const bool anyResampled =
                std::find(resampleTrs.begin(), resampleTrs.end(), 1) != resampleTrs.end() ||
                std::find(resampleWeights.begin(), resampleWeights.end(), 1) != resampleWeights.end();
            if (anyResampled || !m_aimedCameras.empty()) {
                double fps = m_options.resampleFps > 0.0 ? m_options.resampleFps : 30.0;
                double duration = double(clip.end) - double(clip.start);
                if (!(duration > 0.0) || !std::isfinite(duration)) duration = 0.0;
                // A clip hours long would make samples without bound: the rate drops to fit.
                constexpr double kMaxSamples = 65536.0;
                if (duration * fps > kMaxSamples) {
                    fps = kMaxSamples / duration;
                    char rate[32];
                    std::snprintf(rate, sizeof rate, "%g", fps);
                    note(where + ": resampled at " + rate +
                         " frames per second to stay within 65536 samples");
                }
                const size_t steps = size_t(std::ceil(duration * fps - 1e-4));
                std::vector<float> times;
                for (size_t k = 0; k <= steps; ++k)
                    times.push_back(float(std::min(double(k) / fps, duration)));
                if (times.size() > 1 && times[times.size() - 1] <= times[times.size() - 2]) times.pop_back();
                std::vector<std::vector<float>> tr(count), rot(count), sc(count), w(count);
                std::vector<std::vector<float>> aimT(m_aimedCameras.size()), aimR(m_aimedCameras.size());
                for (float time : times) {
                    evaluatePose(m_scene, int(c), clip.start + time, pose);
                    // A camera aiming at a target turns as either moves: its child follows.
                    for (size_t a = 0; a < m_aimedCameras.size(); ++a) {
                        const Trs aim =
                            decompose(helperTransform(m_scene, pose, size_t(m_aimedCameras[a].first)));
                        aimT[a].insert(aimT[a].end(), {aim.t.x, aim.t.y, aim.t.z});
                        aimR[a].insert(aimR[a].end(), {aim.r.x, aim.r.y, aim.r.z, aim.r.w});
                    }
                    for (size_t i = 0; i < count; ++i) {
                        if (resampleTrs[i]) {
                            const Trs trs = trsOf(pose.local[i]);
                            tr[i].insert(tr[i].end(), {trs.t.x, trs.t.y, trs.t.z});
                            rot[i].insert(rot[i].end(), {trs.r.x, trs.r.y, trs.r.z, trs.r.w});
                            sc[i].insert(sc[i].end(), {trs.s.x, trs.s.y, trs.s.z});
                        }
                        if (resampleWeights[i]) {
                            const std::vector<float> none;
                            const std::vector<float>& esv =
                                i < pose.morphWeights.size() ? pose.morphWeights[i] : none;
                            const std::vector<float> weights = gltfWeights(
                                m_scene.meshes[m_scene.nodes[i].object], esv.data(), esv.size(), false);
                            w[i].insert(w[i].end(), weights.begin(), weights.end());
                        }
                    }
                }
                int input = -1;
                auto inputAccessor = [&] {
                    if (input < 0) input = timesAccessor(times);
                    return input;
                };
                for (size_t a = 0; a < m_aimedCameras.size(); ++a) {
                    continuousQuaternions(aimR[a]);
                    auto varies = [](const std::vector<float>& v, size_t n) {
                        for (size_t k = n; k < v.size(); ++k)
                            if (std::fabs(v[k] - v[k % n]) > 1e-4f * std::max(1.0f, std::fabs(v[k % n])))
                                return true;
                        return false;
                    };
                    if (!varies(aimT[a], 3) && !varies(aimR[a], 4)) continue;
                    addChannel(channels, samplers, m_aimedCameras[a].second, "translation", inputAccessor(),
                               addAccessor(aimT[a], 3, {}, false, 0), "LINEAR");
                    addChannel(channels, samplers, m_aimedCameras[a].second, "rotation", inputAccessor(),
                               addAccessor(aimR[a], 4, {}, false, 0), "LINEAR");
                    note(where + ": camera '" + m_scene.nodes[m_aimedCameras[a].first].name +
                         "' turning towards its target resampled");
                }
                for (size_t i = 0; i < count; ++i) {
                    if (resampleTrs[i]) {
                        continuousQuaternions(rot[i]);
                        addChannel(channels, samplers, int(i), "translation", inputAccessor(),
                                   addAccessor(tr[i], 3, {}, false, 0), "LINEAR");
                        addChannel(channels, samplers, int(i), "rotation", inputAccessor(),
                                   addAccessor(rot[i], 4, {}, false, 0), "LINEAR");
                        addChannel(channels, samplers, int(i), "scale", inputAccessor(),
                                   addAccessor(sc[i], 3, {}, false, 0), "LINEAR");
                    }
                    if (resampleWeights[i])
                        addChannel(channels, samplers, m_meshHolder[i], "weights", inputAccessor(),
                                   addAccessor(w[i], 1, {}, false, 0), "LINEAR");
                }
                if (anyResampled) {
                    char rate[32];
                    std::snprintf(rate, sizeof rate, "%g", fps);
                    note(where + ": curves glTF cannot hold exactly resampled at " + rate +
                         " frames per second");
                }
            }
            if (channels.empty()) {
                note(where + ": nothing glTF can animate: left out");
                continue;
            }
            m_animations.push_back({{"name", clip.name}, {"channels", channels}, {"samplers", samplers}});
        }
    }

    const Scene& m_scene;
    const GltfWriteOptions& m_options;
    GltfWriteReport& m_report;
    std::string m_stem;
    std::vector<uint8_t> m_bin;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> m_sideFiles;
    Json m_views = Json::array(), m_accessors = Json::array(), m_meshes = Json::array(),
         m_materials = Json::array(), m_textures = Json::array(), m_images = Json::array(),
         m_samplers = Json::array(), m_nodes = Json::array(), m_skins = Json::array(),
         m_cameras = Json::array(), m_lights = Json::array(), m_animations = Json::array(),
         m_scenes = Json::array();
    std::set<std::string> m_extUsed, m_extRequired;
    std::map<std::pair<int, int>, MeshData> m_meshData;
    std::map<std::tuple<int, int, std::vector<int>>, int> m_meshOf;
    std::map<uint32_t, int> m_zeroUv;
    std::map<int, int> m_imageOf;
    std::map<std::pair<int, int>, int> m_samplerOf, m_textureOf;
    std::vector<size_t> m_materialUvSets;
    std::vector<int> m_skinOf, m_lightOf;
    std::map<std::pair<int, int>, int>
        m_unpackedSkins;  // (skin, mesh) -> skin with the mesh's unpack folded in
    std::vector<int> m_meshHolder;
    std::map<int, uint32_t> m_meshTargets;  // glTF node holding a mesh -> its morph target count
    std::set<int> m_needsTangents;
    Pose m_rest;                                      // the scene as written
    std::vector<std::pair<int, int>> m_aimedCameras;  // camera node with a target, its child holding the aim
                                                      // // meshes some instance draws with a normal map
    int m_pofGroup = -1;
};

bool writeFile(const fs::path& path, const fs::path& named, const std::vector<uint8_t>& bytes,
               std::string& error) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out) out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (out) out.close();
    if (!out) {
        error = "cannot write " + named.string() + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

void appendU32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace

bool gltfKeepsQuantizedPositions(const Mesh& mesh) {
    const VertexAttribute* attr = findAttribute(mesh, Semantic::Position, 0, nullptr);
    if (!attr || attr->components < 3) return false;
    const bool integer = attr->type == ComponentType::Int8 || attr->type == ComponentType::UInt8 ||
                         attr->type == ComponentType::Int16 || attr->type == ComponentType::UInt16;
    // The unpack matrix goes into a child node's transform, or for a skinned mesh (whose node's
    // transform glTF ignores) into the inverse bind matrices of a skin of its own.
    return integer;
}

size_t pofPointNodeCount(const PofExtras& pof) {
    size_t n = 1 + pof.paths.size() + pof.specialPoints.size() + pof.eyePoints.size() + pof.turrets.size();
    for (const auto& slot : pof.gunSlots) n += slot.size();
    for (const auto& slot : pof.missileSlots) n += slot.size();
    for (const auto& dock : pof.docks) n += 1 + dock.points.size();
    for (const auto& thruster : pof.thrusters) n += 1 + thruster.glows.size();
    return n;
}

size_t gltfHelperNodeCount(const Scene& scene) {
    Pose rest;
    evaluatePose(scene, -1, 0.0f, rest);
    size_t n = 0;
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        if (!isIdentity(helperTransform(scene, rest, i))) ++n;
    if (scene.pof) n += pofPointNodeCount(*scene.pof);
    return n;
}

bool writeGltf(const Scene& scene, const std::string& outputPath, const GltfWriteOptions& options,
               GltfWriteReport& report, std::string& error) {
    const fs::path output(outputPath);
    const std::string stem = safeStem(output.stem().string());
    Writer writer(scene, options, report, stem);
    Json root;
    try {
        root = writer.build();
    } catch (const std::exception& e) {
        error = std::string("cannot build the glTF document: ") + e.what();
        return false;
    }
    // Names come from the file as bytes: invalid UTF-8 is replaced (U+FFFD) rather than refused.
    std::string text = root.dump(options.binary ? -1 : 1, ' ', false, Json::error_handler_t::replace);
    std::vector<std::pair<fs::path, std::vector<uint8_t>>> files;
    if (options.binary) {
        while (text.size() % 4) text += ' ';
        std::vector<uint8_t>& bin = writer.bin();
        bin.resize(align4(bin.size()), 0);
        std::vector<uint8_t> glb;
        const size_t total = 12 + 8 + text.size() + (bin.empty() ? 0 : 8 + bin.size());
        if (total > 0xFFFFFFFFu) {
            error = "the model is larger than a .glb can hold (4 GiB)";
            return false;
        }
        appendU32(glb, 0x46546C67);  // "glTF"
        appendU32(glb, 2);
        appendU32(glb, uint32_t(total));
        appendU32(glb, uint32_t(text.size()));
        appendU32(glb, 0x4E4F534A);  // "JSON"
        glb.insert(glb.end(), text.begin(), text.end());
        if (!bin.empty()) {
            appendU32(glb, uint32_t(bin.size()));
            appendU32(glb, 0x004E4942);  // "BIN\0"
            glb.insert(glb.end(), bin.begin(), bin.end());
        }
        files.push_back({output, std::move(glb)});
    } else {
        text += '\n';
        files.push_back({output, std::vector<uint8_t>(text.begin(), text.end())});
        const fs::path dir = output.parent_path();
        if (!writer.bin().empty()) files.push_back({dir / (stem + ".bin"), std::move(writer.bin())});
        for (auto& [name, bytes] : writer.sideFiles()) files.push_back({dir / name, std::move(bytes)});
    }
    // Every file goes to a temporary name first, so a failure leaves nothing half written.
    std::vector<fs::path> written;
    for (const auto& [path, bytes] : files) {
        fs::path temp = path;
        temp += ".part";
        if (!writeFile(temp, path, bytes, error)) {
            std::error_code ec;
            for (const fs::path& p : written) fs::remove(p, ec);
            fs::remove(temp, ec);
            return false;
        }
        written.push_back(temp);
    }
    for (size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        fs::rename(written[i], files[i].first, ec);
        if (ec) {
            error = "cannot write " + files[i].first.string() + ": " + ec.message();
            for (size_t j = i; j < written.size(); ++j) fs::remove(written[j], ec);
            return false;
        }
        report.files.push_back(files[i].first.string());
    }
    return true;
}

}  // namespace esv
