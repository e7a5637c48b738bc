// The glTF 2.0 reader's shared state (loaders/gltf): one Reader per file, defined by concern in
// gltf_reader.cpp (container, JSON, buffers, nodes, cameras, lights), gltf_accessors.cpp
// (accessors, sparse values, float reads), gltf_meshes.cpp (primitives, morph targets, skins),
// gltf_materials.cpp (materials, textures, images) and gltf_animation.cpp (clips). Nothing outside
// loaders/gltf includes it.
//
// Every problem names the JSON pointer of what is wrong ("/accessors/3") and one fact; a .glb's
// container problems name their byte offset. Every index, offset, count and stride is checked
// against what is present before it is used, and nothing is allocated on a count from the file
// before that count has been checked against the bytes that hold it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "loaders/diagnostics.h"
#include "loaders/load.h"
#include "scene/scene.h"

namespace esv::gltf {

using Json = nlohmann::json;

// Caps against absurd files (beyond what any real asset holds).
constexpr size_t kMaxJsonDepth = 64;
constexpr uint64_t kMaxObjects = 1u << 20;  // entries of any top-level array
constexpr uint64_t kMaxKeys = 1u << 26;     // animation keys per sampler
constexpr uint32_t kMaxMorphTargets = 64;
constexpr uint32_t kMaxJointsPerSkin = 1u << 16;

// True when this build decodes EXT_meshopt_compression (meshoptimizer linked).
bool meshoptSupported();
// True when this build decodes KHR_draco_mesh_compression (the Draco library linked).
bool dracoSupported();
// The scene's component type for a glTF componentType code; false for an unknown code.
bool componentTypeOf(uint64_t code, ComponentType& out);

// "/accessors/3"
std::string pointer(const char* array, size_t index);

// glTF CUBICSPLINE sampler data (per key: in-tangent, value, out-tangent; tangents per second) as the
// scene's Bezier track: values, and control values v_k - a_k (t_k - t_k-1) / 3 before and
// v_k + b_k (t_k+1 - t_k) / 3 after each key (the value itself at the ends). The sampler's Bezier
// segment is then exactly glTF's Hermite curve.
void cubicSplineToBezier(const std::vector<float>& times, const std::vector<float>& outputs, uint32_t comps,
                         Track& track);

// An accessor resolved against its buffer view: `count` elements of `components` x `type`,
// `stride` bytes apart from `bytes.data` (the view covers exactly what the elements use).
struct Accessor {
    bool resolved = false;  // checked (good or bad)
    bool ok = false;
    ComponentType type = ComponentType::Float32;
    uint32_t components = 1;  // 1..16 (SCALAR .. MAT4)
    std::string typeName;     // "VEC3"
    bool normalized = false;
    uint32_t count = 0;
    uint32_t stride = 0;       // bytes between elements
    uint32_t elementSize = 0;  // components x component size (matrix columns padded as glTF pads them)
    int32_t bufferView = -1;   // -1: zeros or materialized (sparse)
    uint32_t viewStride = 0;   // the buffer view's byteStride (0: none)
    uint64_t offsetInView = 0;
    ByteView bytes;
    int64_t largestIndex = -1;  // an index accessor's largest value once scanned (-1: not yet)
};

// One buffer view: its bytes (inside a buffer) and byteStride.
struct BufferView {
    bool resolved = false;
    bool ok = false;
    ByteView bytes;
    uint32_t stride = 0;
    uint64_t offsetInBuffer = 0;
};

class Reader {
public:
    Reader(const std::string& path, const LoadOptions& options, Scene& scene, std::vector<Problem>& problems);
    void run(const ByteView& file);

    // --- gltf_reader.cpp
    bool parseContainer(const ByteView& file);
    bool parseJson(const uint8_t* data, size_t size, uint64_t fileOffset);
    void readBuffers();
    bool decodeUri(const std::string& uri, const std::string& where, std::vector<uint8_t>& out,
                   std::string* mime, bool* isData);
    std::string resolveRelative(const std::string& uri) const;  // a path beside the model file
    static std::string uriPath(const std::string& uri);         // percent escapes decoded
    void checkExtensions();
    void readCameras();
    void readLights();
    void readNodes();
    void readNode(size_t i);
    void readScenes();
    void addNodeObjects(size_t i, const Json& n);

    // --- JSON helpers: a problem names `where` + "/" + key; false when absent (required: a problem)
    const Json* member(const Json& object, const char* key) const;
    const Json& array(const char* name) const;  // a top-level array (an empty one when absent)
    bool getIndex(const Json& object, const char* key, const std::string& where, const char* target,
                  int32_t& out, bool required);
    bool getUint(const Json& object, const char* key, const std::string& where, uint64_t& out, bool required);
    bool getFloat(const Json& object, const char* key, const std::string& where, float& out);
    bool getFloats(const Json& object, const char* key, const std::string& where, float* out, size_t n);
    std::string getString(const Json& object, const char* key) const;
    bool objectAt(const Json& value, const std::string& where);
    void fail(const std::string& where, const std::string& message);
    void failAt(uint64_t offset, const std::string& where, const std::string& message);

    // --- gltf_accessors.cpp
    const BufferView* bufferView(int32_t index, const std::string& where);
    const Accessor* accessor(int32_t index, const std::string& where);
    bool resolveAccessor(size_t index, Accessor& a);
    // Takes `bytes` the file's counts make the reader allocate (zeros of accessors without a view,
    // decompressed views) from the budget, 64 MiB or 64 times the file's size; a problem past it.
    bool spend(uint64_t bytes, const std::string& where);
    bool decodeMeshopt(const Json& ext, const std::string& where, BufferView& view);  // gltf_meshopt.cpp
    // gltf_draco.cpp: a Draco primitive's streams (into `mesh`) and faces (into `indices`).
    bool decodeDraco(const Json& prim, const std::string& where, Mesh& mesh, std::vector<uint32_t>& indices);
    // gltf_meshes.cpp: the vertex attribute a decoded (Draco) attribute `name` of accessor `acc` is:
    // 1, or 0 when it is not drawn, or -1 after a problem.
    int decodedAttribute(const std::string& name, uint64_t code, uint32_t components, const Json& acc,
                         const std::string& where, VertexAttribute& out);
    bool applySparse(size_t index, const Json& sparse, Accessor& a);
    void checkDeclaredBounds(const Json& j, const std::string& at, const Accessor& a);
    bool readFloats(const Accessor& a, std::vector<float>& out) const;
    bool readIndices(const Accessor& a, std::vector<uint32_t>& out) const;
    // The position of the first of `a`'s indices that is `limit` or more (a.count when none is),
    // and its value in `value`: a vectorised scan of the stored bytes, copying nothing.
    uint32_t firstIndexPast(const Accessor& a, uint32_t limit, uint32_t& value) const;
    // With many indices, every primitive's index accessor resolved ahead of the meshes and scanned
    // for its largest value on two threads (Accessor::largestIndex); firstIndexPast then only compares.
    void prescanIndices();

    // --- gltf_meshes.cpp
    void readMeshes();
    void readMesh(size_t index, const Json& mesh);
    void finishPart(size_t index, Mesh m, std::vector<int32_t> materials,
                    const std::vector<std::string>& targetNames, const std::vector<float>& weights,
                    const std::string& where);
    void readSkins();

    // --- gltf_materials.cpp
    void readImagesAndTextures();
    void readMaterials();

    // --- gltf_animation.cpp
    void readAnimations();
    void readAnimation(size_t index, const Json& animation);

    std::string m_path;
    LoadOptions m_options;
    Scene& m_scene;
    Diagnostics m_diag;
    Json m_doc;
    bool m_glb = false;
    ByteView m_binChunk;  // .glb BIN chunk (empty when none)
    uint64_t m_binOffset = 0;
    std::vector<ByteView> m_buffers;  // empty view: missing
    std::vector<bool> m_bufferOk;
    std::vector<bool> m_bufferFallback;  // EXT_meshopt_compression fallback buffer without data
    std::vector<BufferView> m_views;
    std::vector<Accessor> m_accessors;
    // glTF mesh -> first scene mesh and the number of scene meshes (parts) made of it.
    std::vector<int32_t> m_meshFirst;
    std::vector<uint32_t> m_meshParts;
    std::vector<std::vector<int32_t>> m_meshMaterials;  // per scene mesh: material per submesh slot
    std::vector<int32_t> m_textureMap;                  // glTF texture -> scene texture (-1: none)
    std::vector<int32_t> m_lightMap;                    // KHR_lights_punctual light -> scene light
    std::vector<int32_t> m_nodeSkin;                    // glTF node -> its skin (-1)
    bool m_quantization = false;                        // KHR_mesh_quantization used
    uint64_t m_budget = 0, m_budgetTotal = 0;
};

}  // namespace esv::gltf
