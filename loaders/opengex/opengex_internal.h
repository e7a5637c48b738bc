// Internals of the OpenGEX reader shared by its source files (not a public interface).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <glm/glm.hpp>

#include "loaders/diagnostics.h"
#include "loaders/load.h"
#include "loaders/opengex/openddl/openddl.h"

namespace esv::ogex {

using ddl::DataType;
using ddl::Structure;

// The global units and axes (Metric structures) and the colour conversion they imply.
struct Metrics {
    float distance = 1.0f;  // metres per unit
    float angle = 1.0f;     // radians per unit
    float time = 1.0f;      // seconds per unit
    bool upZ = true;        // the spec's default up axis is z
    std::string forward = "x";
    glm::vec2 red{0.64f, 0.33f}, green{0.3f, 0.6f}, blue{0.15f, 0.06f}, white{0.3127f, 0.329f};
    bool colorSpaceIsSrgb = true;
    glm::mat3 toSrgb{1.0f};  // file RGB -> linear sRGB primaries
};

// What a GeometryObject became: its mesh, and what nodes need to bind to it.
struct GeometryInfo {
    int32_t mesh = -1;
    std::vector<uint32_t> materialIndices;  // IndexArray material value of each submesh slot
    std::map<uint32_t, uint32_t> morphTarget;  // OpenGEX morph index -> Mesh::morphTargets index
    uint32_t baseMorph = 0;                    // morph index of the base arrays
    const Structure* skin = nullptr;           // the lod mesh's Skin structure, bound after the nodes
    bool visible = true;
};

class Reader {
public:
    Reader(ddl::Document& doc, const std::string& path, const LoadOptions& options, Scene& scene,
           std::vector<Problem>& problems);
    // Reads the whole document into the scene. Problems go to `problems` (see violation/fail).
    void run();

    // ---- reporting (opengex_reader.cpp; caps and modes in loaders/diagnostics.h)
    // A violation of the spec that the reader can read around: a problem in check mode, a warning
    // (with the line) otherwise.
    void violation(const Structure* at, const std::string& message);
    // A violation that makes the file unusable: always a problem (the load fails).
    void fail(const Structure* at, const std::string& message);
    void note(const std::string& message) { m_diag.info(message); }
    void warn(const std::string& message) { m_diag.warn(message); }
    std::string where(const Structure* at) const;
    // The line (and column) of `at` in the file; none for null.
    FilePlace placeOf(const Structure* at) const;

    // ---- data access (opengex_reader.cpp)
    // The single primitive substructure of `s` (a violation when there is none or more than one).
    const Structure* dataOf(const Structure* s, const char* expected);
    // Floats of a float, double or half primitive (a violation for other types).
    bool readFloats(const Structure* data, std::vector<float>& out);
    // Unsigned integers of any integer primitive (a violation for negatives and other types).
    bool readUInts(const Structure* data, std::vector<uint64_t>& out);
    bool readFloat(const Structure* s, float& out);  // a structure holding one float
    bool readString(const Structure* s, std::string& out);  // a structure holding one string
    std::string_view propString(const Structure* s, std::string_view key, std::string_view fallback);
    bool propBool(const Structure* s, std::string_view key, bool fallback, bool* present = nullptr);
    uint64_t propUInt(const Structure* s, std::string_view key, uint64_t fallback, bool* present = nullptr);
    float propFloat(const Structure* s, std::string_view key, float fallback, bool* present = nullptr);
    const Structure* resolveRef(const Structure* holder, const ddl::Reference& ref, const char* what);
    // The structure named by the single ref in `s` (ObjectRef, MaterialRef).
    const Structure* refTarget(const Structure* s, const char* what);
    std::string nameOf(const Structure* s);  // its Name substructure's string, or ""
    glm::vec3 toSrgb(const glm::vec3& rgb) const { return m_metrics.toSrgb * rgb; }

    // ---- geometry (opengex_geometry.cpp)
    void readGeometryObject(const Structure* s);
    void bindSkins();

    ddl::Document& m_doc;
    Scene& m_scene;
    Diagnostics m_diag;
    Metrics m_metrics;

    std::unordered_map<const Structure*, GeometryInfo> m_geometry;
    std::unordered_map<const Structure*, int32_t> m_material;
    std::unordered_map<const Structure*, Light> m_lightObject;
    // LightObject -> its projection Texture's file name; the scene texture is made when a LightNode
    // first places the object (Light::projection then names it for every instance).
    std::unordered_map<const Structure*, std::string> m_lightProjectionFile;
    std::unordered_map<const Structure*, Camera> m_cameraObject;
    std::unordered_map<const Structure*, int32_t> m_node;  // node structure -> node index
    // Animatable structures: Transform/Translation/Rotation/Scale -> (node, element), MorphWeight ->
    // (node, Mesh::morphTargets index); inside a Texture: (uv transform, element), node -1.
    struct Target {
        int32_t node = -1;
        int32_t uvTransform = -1;  // Scene::uvTransforms index for a texture coordinate transform
        uint32_t index = 0;
        bool morphWeight = false;
        ElementKind kind = ElementKind::Matrix;
        bool angle = false;  // values are angles (the angle metric applies)
    };
    std::unordered_map<const Structure*, Target> m_targets;
    std::vector<std::pair<int32_t, const Structure*>> m_animations;  // (node, Animation)
    std::vector<std::pair<int32_t, const Structure*>> m_uvAnimations;  // (uv transform, Animation in a Texture)
    std::vector<std::pair<const Structure*, const Structure*>> m_geometryNodes;  // (node, GeometryObject)
    std::unordered_set<const Structure*> m_placed;  // objects some node references
    size_t m_unknown = 0;
    std::map<std::string, size_t> m_unknownKinds;
};

// A Transform's float[16|12|9|6|4] subarray expanded to a column-major 4x4 matrix.
glm::mat4 expandMatrix(const float* values, uint32_t size);

}  // namespace esv::ogex
