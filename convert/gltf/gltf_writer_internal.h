// The glTF writer's shared state and helpers, internal to convert/gltf: the Writer class is
// declared here and defined by concern across gltf_writer.cpp (document, files), gltf_buffers.cpp
// (buffer, views, accessors), gltf_meshes.cpp (meshes, morph targets), gltf_materials.cpp
// (materials, textures, images), gltf_skins_cameras_lights.cpp, gltf_nodes.cpp (nodes, POF points,
// scenes) and gltf_animations.cpp. Nothing outside convert/gltf includes it.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "convert/gltf/gltf_writer.h"
#include "scene/pof_extras.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv::gltf {

using Json = nlohmann::ordered_json;

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

inline size_t align4(size_t n) {
    return (n + 3) & ~size_t(3);
}

inline float finiteOr(float v, float fallback) {
    return std::isfinite(v) ? v : fallback;
}

inline Json vec3Json(const glm::vec3& v) {
    return Json::array({v.x, v.y, v.z});
}

struct Trs {
    glm::vec3 t{0.0f};
    glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 s{1.0f};
    bool exact = true;  // translation * rotation * scale reproduces the matrix
};

// ---- transforms (gltf_nodes.cpp)

// Equal within 1e-4 of the larger of 1 and the largest element.
bool nearlyEqual(const glm::mat4& a, const glm::mat4& b);
// Every element within 1e-7 of the identity's.
bool isIdentity(const glm::mat4& m);
// The matrix as translation * rotation * scale. A zero scale on one or two axes keeps a rotation
// built from the other axes (glTF allows zero scales, not a matrix that cannot be decomposed); a
// shear or a projective row makes the result inexact, the nearest T*R*S.
Trs decompose(const glm::mat4& m);
// The transform as T*R*S, its rotation normalised (a matrix transform decomposed).
Trs trsOf(const Transform& t);
// The transform of the child node that carries a non-skinned instance's mesh (identity: none).
// `rest` is the scene's rest pose (evaluatePose with clip -1).
glm::mat4 helperTransform(const Scene& scene, const Pose& rest, size_t i);

// ---- mesh instances (gltf_meshes.cpp)

// The mesh of node `i` as the writer draws it, or nullptr (no mesh, no positions, nothing drawable).
const Mesh* writtenMesh(const Scene& scene, size_t i);
// True when node `i` draws its mesh skinned: a skin with joints and a mesh with bone indices and weights.
bool instanceSkinned(const Scene& scene, size_t i);
// OpenGEX base-weighted morphing (Mesh::morphBaseWeighted) draws s * base + sum w_i (M_i - base),
// s the sum of the absolute targets' weights. glTF draws base + sum w_i d_i; one more target whose
// delta is the base itself, weighted s - 1, makes the two the same.
bool hasBaseTarget(const Mesh& mesh);
// glTF weights for `count` esview weights (missing ones 0), with the base target's weight appended
// where the mesh has one: s - 1, or for tangents (CUBICSPLINE) the sum of the absolute targets' ones.
std::vector<float> gltfWeights(const Mesh& mesh, const float* weights, size_t count, bool tangent);

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

struct MeshBase;     // a mesh's base positions and normals as written (gltf_meshes.cpp)
struct ClipTracks;   // a clip's tracks sorted into exact and resampled (gltf_animations.cpp)
struct ClipSamples;  // a clip's resampled curves (gltf_animations.cpp)

// Builds the glTF document of one scene: the JSON, the binary buffer and, for a .gltf, the image
// files written beside it. One Writer per output; build() once.
class Writer {
public:
    Writer(const Scene& scene, const GltfWriteOptions& options, GltfWriteReport& report,
           const std::string& stem)
        : m_scene(scene), m_options(options), m_report(report), m_stem(stem) {}

    // The whole document; the report's counts set. Throws what nlohmann::json throws.
    Json build();

    std::vector<uint8_t>& bin() { return m_bin; }
    std::vector<std::pair<std::string, std::vector<uint8_t>>>& sideFiles() { return m_sideFiles; }

private:
    void note(const std::string& text);
    void requireQuantization();

    // ---- buffer, views, accessors (gltf_buffers.cpp)
    int addView(const uint8_t* data, size_t size, int target, size_t stride);
    int addAccessor(const std::vector<float>& values, int components, Encoding encoding, bool minMax,
                    int target);
    int addIndices(const std::vector<uint32_t>& indices, uint32_t vertexCount);
    int addJoints(const std::vector<uint16_t>& joints, uint32_t jointCount);

    // ---- meshes (gltf_meshes.cpp)
    MeshData& meshData(int meshIndex, int skinIndex);
    void writePositions(MeshData& md, const Mesh& mesh, MeshBase& base);
    void writeNormals(MeshData& md, const Mesh& mesh, MeshBase& base);
    void writeTangents(MeshData& md, const Mesh& mesh, int meshIndex);
    void writeTexCoords(MeshData& md, const Mesh& mesh);
    void writeColors(MeshData& md, const Mesh& mesh);
    void writeJoints(MeshData& md, const Mesh& mesh, int skinIndex);
    void writeMorphTargets(MeshData& md, const Mesh& mesh, const MeshBase& base);
    void writePrimitives(MeshData& md, const Mesh& mesh);
    int zeroUvAccessor(uint32_t count);
    int meshFor(size_t i, bool skinned);

    // ---- materials and textures (gltf_materials.cpp)
    int imageFor(int textureIndex);
    Json textureInfo(const TextureRef& ref, const std::string& where, size_t* uvSets);
    Json materialJson(const Material& mat);

    // ---- skins, cameras, lights (gltf_skins_cameras_lights.cpp)
    void writeSkinsCamerasLights();
    int addSkin(const Skin& skin, const glm::mat4& unpack);
    int skinFor(const Node& node);

    // ---- nodes and scenes (gltf_nodes.cpp)
    void writeNodes();
    int pointNode(const std::string& name, const glm::vec3& position, Json extras);
    void writePofPoints(const PofExtras& pof);
    void writeScenes();

    // ---- animations (gltf_animations.cpp)
    void writeAnimations();
    bool exactTrack(const Track& t, const Clip& clip, bool allowBezier) const;
    int timesAccessor(std::vector<float> times);
    void addChannel(Json& channels, Json& samplers, int node, const char* path, int input, int output,
                    const char* interpolation);
    std::vector<float> weightKeys(const Track& track, const std::vector<float>& keys, bool cubic) const;
    void sortTracks(const Clip& clip, const std::string& where, ClipTracks& tracks);
    void writeExactChannels(const Clip& clip, const ClipTracks& tracks, Json& channels, Json& samplers);
    void writeResampledChannels(size_t clipIndex, const ClipTracks& tracks, const std::string& where,
                                Pose& pose, Json& channels, Json& samplers);
    double resampleRate(const Clip& clip, const std::string& where);
    void sampleClip(size_t clipIndex, const std::vector<float>& times, const ClipTracks& tracks, Pose& pose,
                    ClipSamples& samples);
    int sampleTimesAccessor(const std::vector<float>& times, int& input);
    void writeAimChannels(ClipSamples& samples, const std::vector<float>& times, int& input,
                          const std::string& where, Json& channels, Json& samplers);
    void writeNodeChannels(ClipSamples& samples, const ClipTracks& tracks, const std::vector<float>& times,
                           int& input, Json& channels, Json& samplers);

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
    std::map<std::array<int, 4>, int> m_samplerOf;  // wrapS, wrapT, minFilter, magFilter
    std::map<std::pair<int, int>, int> m_textureOf;
    std::vector<size_t> m_materialUvSets;
    std::vector<int> m_skinOf, m_lightOf;
    std::map<std::pair<int, int>, int>
        m_unpackedSkins;  // (skin, mesh) -> skin with the mesh's unpack folded in
    std::vector<int> m_meshHolder;
    std::map<int, uint32_t> m_meshTargets;            // glTF node holding a mesh -> its morph target count
    std::set<int> m_needsTangents;                    // meshes some instance draws with a normal map
    Pose m_rest;                                      // the scene as written
    std::vector<std::pair<int, int>> m_aimedCameras;  // camera node with a target, its child holding the aim
    int m_pofGroup = -1;
};

}  // namespace esv::gltf
