// Internals of the AWD reader shared by its source files (not a public interface).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/glm.hpp>

#include "loaders/awd/awd_format.h"
#include "loaders/byte_reader.h"
#include "loaders/diagnostics.h"
#include "loaders/load.h"

namespace esv::awd {

// One numeric attribute ("property"): key, value bytes (inside the body buffer) and where they lie.
struct Attr {
    uint16_t key = 0;
    uint32_t length = 0;
    const uint8_t* value = nullptr;
    uint64_t offset = 0;  // of the key
};
struct AttrList {
    std::vector<Attr> items;
    uint64_t offset = 0;  // of the list's length field
    const Attr* find(uint16_t key) const {
        const Attr* found = nullptr;
        for (const Attr& a : items)
            if (a.key == key) found = &a;  // the last one wins, as in Away3D
        return found;
    }
};

// A block as found by the first pass over the body: its header and payload.
struct BlockEntry {
    uint32_t id = 0;
    uint8_t ns = 0;
    uint8_t type = 0;
    uint8_t flags = 0;
    uint32_t length = 0;
    uint64_t offset = 0;  // of the block header
    const uint8_t* payload = nullptr;
};

// What a block read so far became: references resolve through these.
struct BlockRef {
    uint8_t type = 0;
    uint64_t offset = 0;
    int32_t index = -1;  // mesh, node, material, texture or reader-table index by type; -1 = unusable
    std::string name;
};

// A shading, effect or shadow method: its type and properties (with block references resolved).
struct Method {
    uint16_t type = 0;
    std::string name;  // of its SharedMethod / ShadowMethod block, or "" inside a material
    AttrList props;
    std::map<uint16_t, int32_t> textures;  // BlockAddr key -> scene texture index (2D textures)
    std::map<uint16_t, int32_t> cubes;     // BlockAddr key -> cube texture index
    int32_t baseShadow = -1;               // cascade / near shadow methods: their base method
    int32_t light = -1;                    // shadow methods: the light they shadow
};

struct CubeTexture {
    std::string name;
    int32_t firstTexture = -1;  // six consecutive scene textures: +X, -X, +Y, -Y, +Z, -Z
};
struct LightPicker {
    std::string name;
    std::vector<int32_t> lights;  // scene light indices
};
struct TextureProjector {
    std::string name;
    int32_t texture = -1;
    float aspect = 1.0f, fov = 60.0f;  // fov in degrees, as Away3D keeps it
    glm::mat4 transform{1.0f};
    int32_t parentNode = -1;
};

// Animation blocks as read (turned into scene joints, skins, morph targets and clips by
// finishAnimation once every block is read).
struct SkeletonJoint {
    std::string name;
    int32_t parent = -1;  // index into the skeleton's joints (Away3D: the stored parent id - 1)
    glm::mat4 inverseBind{1.0f};
};
struct Skeleton {
    std::string name;
    uint32_t blockId = 0;
    uint64_t offset = 0;
    std::vector<SkeletonJoint> joints;
};
struct SkeletonPose {
    std::string name;
    uint32_t blockId = 0;
    uint64_t offset = 0;
    std::vector<glm::mat4> transforms;  // local to the parent joint
    std::vector<uint8_t> has;           // per joint: the pose defines it
};
struct AnimFrame {
    int32_t pose = -1;  // SkeletonPose index (skeleton clips)
    uint32_t durationMs = 0;
    std::vector<float> positions;  // vertex clips: the frame's target (absolute or deltas)
};
// A SkeletonAnimation (skeleton) or MeshPose / MeshPoseAnimation (vertex) clip.
struct AnimClip {
    std::string name;
    uint32_t blockId = 0;
    uint8_t type = 0;
    uint64_t offset = 0;
    std::vector<AnimFrame> frames;
    int32_t mesh = -1;        // vertex clips: the target geometry (scene mesh)
    int32_t instance = -1;    // vertex clips naming a MeshInstance: that node
    bool relative = false;    // vertex clips: additive (absolutePositions false)
    bool loop = true, stitchFinalFrame = false;
    std::vector<int32_t> clipIndex;  // scene clips made from it
};
struct AnimationSet {
    std::string name;
    std::vector<int32_t> clips;  // AnimClip indices
};
struct Animator {
    std::string name;
    uint32_t blockId = 0;
    uint64_t offset = 0;
    uint16_t type = 0;  // 1 skeleton, 2 vertex
    int32_t skeleton = -1;
    int32_t set = -1;
    std::vector<int32_t> instances;  // MeshInstance nodes
};
struct UvClip {
    std::string name;
    std::vector<glm::mat4> matrices;
    std::vector<uint32_t> durationsMs;
};

// Header facts that decide how numbers are read.
struct Header {
    uint8_t major = 0, minor = 0;
    uint16_t flags = 0;
    uint8_t compression = 0;
    uint32_t bodyLength = 0;
    bool streaming = false;
    bool matrix64 = false, geometry64 = false, properties64 = false;
    bool v21() const { return major == 2 && minor == 1; }
};

class Reader {
public:
    Reader(const std::string& path, const LoadOptions& options, Scene& scene, std::vector<Problem>& problems);
    // Reads the whole file (kept alive by the scene's views) into the scene.
    void run(const std::shared_ptr<const std::vector<uint8_t>>& file);

    // ---- diagnostics (loaders/diagnostics.h)
    // Makes the file unusable: always a problem; the load stops unless in check mode.
    void fatal(uint64_t offset, const std::string& where, const std::string& message) {
        m_diag.fatal(offset, where, message);
    }
    // A violation the reader reads around: a problem in check mode, a warning otherwise.
    void violation(uint64_t offset, const std::string& where, const std::string& message) {
        m_diag.violation(offset, where, message);
    }
    void warn(uint64_t offset, const std::string& where, const std::string& message) {
        m_diag.warn(offset, where, message);
    }
    // An information line for the import report (capped, with a count of what was left out).
    void info(const std::string& text) { m_diag.info(text); }
    bool stopped() const { return m_diag.stopped(); }

    // ---- field readers (awd_reader.cpp); each reports a block that ends inside the field
    bool readString(ByteReader& r, std::string& out, const char* what);
    bool readAttrs(ByteReader& r, AttrList& out, const char* what);
    bool readUserAttrs(ByteReader& r, const char* what);
    bool readNumber(ByteReader& r, bool wide, double& out, const char* what);
    bool readMatrix(ByteReader& r, glm::mat4& out, const char* what);  // 4x3, column-major
    bool ended(ByteReader& r, const char* what);  // reports a short read as fatal; true when short

    // Typed property access. Floats take 4 or 8 bytes (the header's precision is checked); other
    // types their exact size. A wrong size is a violation and yields the default.
    double propFloat(const AttrList& list, uint16_t key, double fallback, bool wideExpected);
    uint32_t propUInt(const AttrList& list, uint16_t key, uint32_t fallback, uint32_t size);
    bool propBool(const AttrList& list, uint16_t key, bool fallback);
    bool has(const AttrList& list, uint16_t key) const { return list.find(key) != nullptr; }
    // Info lines for the keys of `list` that are not in `known`.
    void unknownProps(const AttrList& list, std::initializer_list<uint16_t> known, const char* what);

    // ---- references (awd_reader.cpp)
    // Resolves a BlockAddr read at `offset`: 0 is null (returns nullptr, ok). A reference to a later
    // block, to no block, or to a block of another type than `types` is fatal and names both blocks.
    const BlockRef* resolve(uint32_t id, uint64_t offset, std::initializer_list<uint8_t> types, const char* what,
                            bool& ok);

    // Scene-wide results once every block is read: light directions, ambient, visibility, and the
    // report's summary lines.
    void finish();

    // ---- animation (awd_animation.cpp): each returns the reader-table index, -1 when unusable
    int32_t readSkeleton(ByteReader& r);
    int32_t readSkeletonPose(ByteReader& r);
    int32_t readSkeletonAnimation(ByteReader& r);
    int32_t readMeshPose(ByteReader& r, bool animation);
    int32_t readAnimationSet(ByteReader& r);
    int32_t readAnimator(ByteReader& r);
    int32_t readUvAnimation(ByteReader& r);
    // Joints, skins, morph targets, UV transforms and clips from what the animation blocks said.
    void finishAnimation();

    // ---- geometry (awd_geometry.cpp)
    void readTriangleGeometry(ByteReader& r);
    void readPrimitiveGeometry(ByteReader& r);

    // Context of the block being read.
    std::string blockWhere() const;

    Scene& m_scene;
    Diagnostics m_diag;

    Header m_header;
    std::shared_ptr<const std::vector<uint8_t>> m_body;  // owner of every view into the body
    const uint8_t* m_bodyData = nullptr;
    size_t m_bodySize = 0;
    uint64_t m_bodyBase = kHeaderSize;  // file offset of body byte 0 (as if uncompressed)
    std::shared_ptr<const std::vector<uint8_t>> m_blockOwner;  // a block's own decompressed payload
    uint64_t m_inflatedTotal = 0;

    std::vector<BlockEntry> m_entries;
    std::unordered_map<uint32_t, size_t> m_firstEntry;  // id -> first entry with it
    std::unordered_map<uint32_t, BlockRef> m_blocks;    // persistent blocks read so far
    const BlockEntry* m_current = nullptr;
    std::string m_currentName;
    // The user attributes read in the current block, given to the node, mesh, material or texture
    // the block makes (scene UserAttribute); a block that makes none leaves them in the report.
    std::vector<UserAttribute> m_blockAttributes;
    std::map<uint8_t, std::string> m_namespaces;

    std::vector<CubeTexture> m_cubes;
    std::vector<LightPicker> m_pickers;
    std::vector<Method> m_sharedMethods;
    std::vector<Method> m_shadowMethods;
    std::vector<TextureProjector> m_projectors;
    std::vector<glm::vec3> m_lightDirections;  // per scene light: Away3D's direction (directional)
    std::vector<glm::vec3> m_lightAmbient;     // per scene light: ambient colour x level
    std::vector<bool> m_lightPlaced;           // per scene light: put into the graph by a Command
    std::vector<glm::vec3> m_pivots;           // per node: Away3D pivot point

    std::vector<Skeleton> m_skeletons;
    std::vector<SkeletonPose> m_poses;
    std::vector<AnimClip> m_clips;
    std::vector<AnimationSet> m_sets;
    std::vector<Animator> m_animators;
    std::vector<UvClip> m_uvClips;
    std::map<int32_t, std::vector<uint32_t>> m_subVertices;  // per scene mesh (TriangleGeometry): vertices per sub-geometry
    std::map<int32_t, std::pair<uint32_t, uint64_t>> m_meshBlocks;  // per scene mesh: its block id and offset

    // Summaries written once at the end.
    std::map<std::string, size_t> m_unknownBlocks;
    size_t m_float64Streams = 0, m_float64Geometries = 0;
    std::vector<std::string> m_computedNormals;
    std::vector<std::string> m_packedGeometries;
    std::map<std::string, std::vector<std::string>> m_materialNotes;     // info: note -> material names
    std::map<std::string, std::vector<std::string>> m_materialWarnings;  // warning: note -> material names
    std::vector<std::string> m_noShadowInstances;
    uint32_t m_expectedId = 1;

private:
    // ---- parts of run (awd_reader.cpp); each bool is false when the file cannot be read on
    bool readHeader(const uint8_t* data, size_t size);
    bool openBody(const std::shared_ptr<const std::vector<uint8_t>>& file);
    bool indexBlocks();
    void readBlock(const BlockEntry& e, size_t fileSize);
    void checkBlockId(const BlockEntry& e, uint64_t headerAt);
    bool blockPayload(const BlockEntry& e, uint64_t headerAt, size_t fileSize, const uint8_t*& payload,
                      size_t& payloadSize);
    int32_t dispatchBlock(const BlockEntry& e, uint64_t headerAt, ByteReader& r, bool& skipped);
    void giveBlockAttributes(uint8_t type, int32_t index);

    // ---- parts of readMeshPose (awd_animation.cpp); each bool is false when the block is done
    struct MeshPoseLayout;
    bool ignoreAnimation(ByteReader& r, uint64_t at, const std::string& why);
    bool readMeshPoseHeader(ByteReader& r, bool animation, AnimClip& clip, MeshPoseLayout& layout);
    bool resolveMeshPoseTarget(ByteReader& r, AnimClip& clip, MeshPoseLayout& layout);
    bool readMeshPoseFrame(ByteReader& r, const MeshPoseLayout& layout, bool relative, const std::vector<float>& base,
                           uint16_t f, uint64_t& kept, AnimFrame& frame);
    bool readMeshPoseSub(ByteReader& r, const MeshPoseLayout& layout, uint16_t f, uint16_t s, uint32_t frameStyle,
                         float* out);
    void readMeshPosePositions(ByteReader& data, uint64_t streamAt, const std::string& where,
                               const MeshPoseLayout& layout, uint16_t s, uint32_t frameStyle,
                               const std::vector<uint32_t>& indices, float* out);

    // ---- parts of finishAnimation (awd_animation.cpp), in the order it runs them
    struct AnimationPlan;
    void linkSkeletons(AnimationPlan& plan);
    void checkSkeletonFit(const AnimationPlan& plan);
    int32_t sceneClipFor(AnimationPlan& plan, int32_t c);
    void createSceneClips(AnimationPlan& plan);
    void makeSkins(AnimationPlan& plan);
    void addJointTracks(AnimationPlan& plan, int32_t c, const Skeleton& sk, int32_t firstJoint,
                        const std::vector<glm::mat4>& bindLocal);
    void makeMorphTargets(AnimationPlan& plan);
    void addFrameTargets(AnimClip& ac, Mesh& mesh);
    void makeUvClips();
    void reportAnimation(const AnimationPlan& plan);
};

std::string quoted(const std::string& s);
std::string hex(uint64_t v);

}  // namespace esv::awd
