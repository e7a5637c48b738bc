// POD writer: the scene model to a PowerVR POD 2.0 file, inverting the reader's mapping
// (loaders/pod/README.md) so that what is written reads back as the same scene.
//
// Two phases, like the reader. Planning checks that POD can express the scene and decides the file
// layout: node order (mesh nodes, light nodes, camera nodes, the rest; notes 3), the frame count,
// vertex layouts, bone batch node lists. Emitting then writes the tag stream in one pass. Choices:
// - Vertex data is written as stored. An interleaved mesh whose one stream is already aligned the
//   way the reader wants is copied byte for byte (padding included); otherwise the attributes are
//   packed in POD list order, each aligned to its component size.
// - POD stores one value per frame. Tracks whose keys lie on frames and interpolate the way POD
//   does (linear translation, rotation, scale and FOV; stepped matrices) are written exactly;
//   others only when PodWriteOptions::bakeAnimation asks to sample them.
// - POD's rest pose is frame 0, and skins bind at frame 0 (notes 5): inverse binds must equal
//   inverse(BoneWorld(0)) * MeshNodeWorld(0). When the clip starts elsewhere than the rest pose the
//   rest pose becomes frame 0 and the clip follows (PodWriteOptions::restFrame).
// - Camera and light nodes: the reader gives them objectTransform = rotate(-90 deg, X) (POD objects
//   look down -Y). Any other objectTransform O that is a rotation is folded into the node as
//   local * O * inverse(R), and the node's children get its inverse, so every world matrix is kept.
#include "loaders/pod/pod_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "loaders/pod/pod_format.h"
#include "scene/sampler.h"

namespace esv {
namespace {

constexpr uint32_t kMaxFrames = 1u << 20;  // a sanity cap: POD stores every frame of every channel

std::string num(uint64_t v) {
    return std::to_string(v);
}
std::string quoted(const std::string& s) {
    return "\"" + s + "\"";
}

// ---------------------------------------------------------------------------------------------
// Output

// Which bytes of a vertex (or index) element to reverse on big-endian output.
struct SwapField {
    uint32_t offset;  // inside the element
    uint32_t unit;    // 2 or 4 bytes
    uint32_t count;   // consecutive units
};

class Sink {
public:
    Sink(std::vector<uint8_t>& out, bool bigEndian) : m_out(out), m_big(bigEndian) {}

    void word(uint32_t v) {
        uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
        if (m_big) std::swap(b[0], b[3]), std::swap(b[1], b[2]);
        m_out.insert(m_out.end(), b, b + 4);
    }
    void tag(uint32_t id, uint64_t length) {
        if (length > 0xFFFFFFFFull) m_tooLong = true;
        word(id);
        word(static_cast<uint32_t>(length));
    }
    void open(uint32_t id) { tag(id, 0); }
    void close(uint32_t id) { tag(id | pod::kEndTagBit, 0); }
    void words(uint32_t id, const uint32_t* values, size_t n) {
        tag(id, uint64_t(n) * 4);
        for (size_t i = 0; i < n; ++i) word(values[i]);
        close(id);
    }
    void words(uint32_t id, const std::vector<uint32_t>& values) { words(id, values.data(), values.size()); }
    void u32(uint32_t id, uint32_t v) { words(id, &v, 1); }
    void i32(uint32_t id, int32_t v) { u32(id, static_cast<uint32_t>(v)); }
    // Bytes as they are (strings, user data).
    void raw(uint32_t id, const void* data, size_t size) {
        tag(id, size);
        const uint8_t* p = static_cast<const uint8_t*>(data);
        if (size) m_out.insert(m_out.end(), p, p + size);
        close(id);
    }
    void str(uint32_t id, const std::string& s) { raw(id, s.c_str(), s.size() + 1); }
    // Vertex or index data stored little-endian in `bytes`; on big-endian output every field of
    // every whole element (`stride` bytes apart) is reversed.
    void data(uint32_t id, std::vector<uint8_t>& bytes, uint32_t stride,
              const std::vector<SwapField>& fields) {
        if (m_big && stride > 0) {
            for (size_t base = 0; base + stride <= bytes.size(); base += stride)
                for (const SwapField& f : fields)
                    for (uint32_t k = 0; k < f.count; ++k)
                        std::reverse(bytes.begin() + base + f.offset + k * f.unit,
                                     bytes.begin() + base + f.offset + (k + 1) * f.unit);
        }
        raw(id, bytes.data(), bytes.size());
    }
    bool tooLong() const { return m_tooLong; }

private:
    std::vector<uint8_t>& m_out;
    bool m_big;
    bool m_tooLong = false;
};

// ---------------------------------------------------------------------------------------------
// Mappings the reader inverts

// POD attribute list per semantic (the reader's kVertexLists, with the UVW lists before colours).
uint32_t listOf(Semantic s) {
    switch (s) {
        case Semantic::Position:
            return pod::VertexList;
        case Semantic::Normal:
            return pod::NormalList;
        case Semantic::Tangent:
            return pod::TangentList;
        case Semantic::Binormal:
            return pod::BinormalList;
        case Semantic::TexCoord:
            return pod::UvwList;
        case Semantic::Color:
            return pod::VertexColourList;
        case Semantic::BoneIndices:
            return pod::BoneIndexList;
        case Semantic::BoneWeights:
            return pod::BoneWeightList;
        default:
            return 0;
    }
}
// Order in which the reader lists a mesh's attributes: lists 6006-6009, the UVW lists, 6011-6013.
int listRank(Semantic s) {
    switch (s) {
        case Semantic::Position:
            return 0;
        case Semantic::Normal:
            return 1;
        case Semantic::Tangent:
            return 2;
        case Semantic::Binormal:
            return 3;
        case Semantic::TexCoord:
            return 4;
        case Semantic::Color:
            return 5;
        case Semantic::BoneIndices:
            return 6;
        default:
            return 7;
    }
}

// The POD data type (9000) and component count (9001) that read back as `a` (notes 7). False with
// `why` when no POD type does.
bool podTypeOf(const VertexAttribute& a, bool packedBytes, uint32_t& type, uint32_t& n, std::string& why) {
    using DT = pod::DataType;
    const bool norm = a.normalized;
    n = a.components;
    if (a.components < 1 || a.components > 4) {
        why = num(a.components) + " components; POD attributes hold 1 to 4";
        return false;
    }
    if (a.swizzle != Swizzle::Identity) {
        // Only 4 normalised bytes in one 32-bit word carry a channel order in POD.
        if (a.type != ComponentType::UInt8 || !norm || a.components != 4) {
            why = "a swizzled attribute that is not 4 normalised bytes";
            return false;
        }
        type = static_cast<uint32_t>(a.swizzle == Swizzle::ABGR ? DT::Rgba : DT::Argb);
        n = 1;
        return true;
    }
    auto plain = [&](DT t) {
        if (norm) {
            why = std::string("normalised ") + componentTypeName(a.type) + " has no POD type";
            return false;
        }
        type = static_cast<uint32_t>(t);
        return true;
    };
    switch (a.type) {
        case ComponentType::Float32:
            return plain(DT::Float);
        case ComponentType::Float16:
            return plain(DT::Float16);
        case ComponentType::Fixed16_16:
            return plain(DT::Fixed16_16);
        case ComponentType::Int32:
            return plain(DT::Int);
        case ComponentType::UInt32:
            return plain(DT::UnsignedInt);
        case ComponentType::Int16:
            type = static_cast<uint32_t>(norm ? DT::ShortNorm : DT::Short);
            return true;
        case ComponentType::UInt16:
            type = static_cast<uint32_t>(norm ? DT::UnsignedShortNorm : DT::UnsignedShort);
            return true;
        case ComponentType::Int8:
            type = static_cast<uint32_t>(norm ? DT::ByteNorm : DT::Byte);
            return true;
        case ComponentType::UInt8:
            if (packedBytes && a.components == 4) {
                type = static_cast<uint32_t>(norm ? DT::Abgr : DT::UByte4);
                n = 1;
            } else {
                type = static_cast<uint32_t>(norm ? DT::UnsignedByteNorm : DT::UnsignedByte);
            }
            return true;
        case ComponentType::Int2_10_10_10:
            if (norm && a.components == 3) {
                type = static_cast<uint32_t>(DT::Dec3n);
                n = 1;
                return true;
            }
            why = "packed 10/10/10/2 data other than normalised x, y, z (DEC3N) has no POD type";
            return false;
        default:
            why = std::string(componentTypeName(a.type)) + " data has no POD type";
            return false;
    }
}

// POD types that store one 32-bit word per vertex (n = 1).
bool isWordType(uint32_t podType) {
    using DT = pod::DataType;
    for (DT t : {DT::Rgba, DT::Argb, DT::D3dColor, DT::UByte4, DT::Dec3n, DT::Abgr})
        if (podType == static_cast<uint32_t>(t)) return true;
    return false;
}

bool blendFactorToGl(BlendFactor f, uint32_t& out) {
    static constexpr uint32_t kGl[] = {0,      1,      0x0300, 0x0301, 0x0302, 0x0303, 0x0304, 0x0305,
                                       0x0306, 0x0307, 0x0308, 0x8001, 0x8002, 0x8003, 0x8004};
    static_assert(sizeof(kGl) / sizeof(kGl[0]) == static_cast<size_t>(BlendFactor::Count));
    if (f >= BlendFactor::Count) return false;
    out = kGl[static_cast<size_t>(f)];
    return true;
}
bool blendOpToGl(BlendOp op, uint32_t& out) {
    static constexpr uint32_t kGl[] = {0x8006, 0x800A, 0x800B, 0x8007, 0x8008};
    static_assert(sizeof(kGl) / sizeof(kGl[0]) == static_cast<size_t>(BlendOp::Count));
    if (op >= BlendOp::Count) return false;
    out = kGl[static_cast<size_t>(op)];
    return true;
}

// Material texture blocks, in the order exporters write them, and the slot each reads back into.
struct TextureBlock {
    uint32_t id;
    TextureSlot slot;
    bool pbr;  // written for metal/rough materials only
};
constexpr TextureBlock kTextureBlocks[] = {
    {pod::DiffuseTextureIndex, TextureSlot::Diffuse, false},
    {pod::AmbientTextureIndex, TextureSlot::Ambient, false},
    {pod::SpecularColourTextureIndex, TextureSlot::SpecularColour, false},
    {pod::SpecularLevelTextureIndex, TextureSlot::Count, false},  // always -1 (read into Specular)
    {pod::BumpMapTextureIndex, TextureSlot::Normal, false},
    {pod::EmissiveTextureIndex, TextureSlot::Emissive, false},
    {pod::GlossinessTextureIndex, TextureSlot::Shininess, false},
    {pod::OpacityTextureIndex, TextureSlot::Opacity, false},
    {pod::ReflectionTextureIndex, TextureSlot::Reflection, false},
    {pod::RefractionTextureIndex, TextureSlot::Refraction, false},
    {pod::MetallicityTextureIndex, TextureSlot::Metallic, true},
    {pod::RoughnessTextureIndex, TextureSlot::Roughness, true},
};

// Node channels in the order the reader's kChannels lists them.
enum Slot { kT, kR, kS, kM, kSlots };
struct SlotDef {
    uint32_t dataId, indexId, flag;
    uint32_t used, stored;
    Channel channel;
};
constexpr SlotDef kSlotDefs[kSlots] = {
    {pod::AnimationPosition, pod::AnimationPositionIndex, pod::kHasPositionAnimation, 3, 3,
     Channel::Translation},
    {pod::AnimationRotation, pod::AnimationRotationIndex, pod::kHasRotationAnimation, 4, 4,
     Channel::Rotation},
    {pod::AnimationScale, pod::AnimationScaleIndex, pod::kHasScaleAnimation, 3, 7, Channel::Scale},
    {pod::AnimationMatrix, pod::AnimationMatrixIndex, pod::kHasMatrixAnimation, 16, 16, Channel::Matrix},
};

bool nearlyIdentity(const glm::mat4& m, float tolerance) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::fabs(m[c][r] - (c == r ? 1.0f : 0.0f)) > tolerance) return false;
    return true;
}

// True when `a` and `b` agree to a tolerance relative to their size, rotation part and translation
// separately (inverse binds recomputed from a chain of transforms carry rounding).
bool nearlyEqual(const glm::mat4& a, const glm::mat4& b) {
    float linear = 1.0f, translation = 1.0f;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 4; ++r) linear = std::max(linear, std::fabs(b[c][r]));
    for (int r = 0; r < 4; ++r) translation = std::max(translation, std::fabs(b[3][r]));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            const float tolerance = 1e-4f * (c == 3 ? translation : linear);
            if (!(std::fabs(a[c][r] - b[c][r]) <= tolerance)) return false;
        }
    return true;
}

// ---------------------------------------------------------------------------------------------
// The writer

class Writer {
public:
    Writer(const Scene& scene, const PodWriteOptions& options, std::vector<std::string>* notes)
        : m_scene(scene), m_o(options), m_notes(notes) {}

    bool run(std::vector<uint8_t>& out, std::string& error) {
        out.clear();
        const bool ok = plan() && emit(out);
        if (!ok) {
            error = m_error.empty() ? "the scene could not be written" : m_error;
            out.clear();
            out.shrink_to_fit();
        }
        return ok;
    }

private:
    struct TrackPlan {
        const Track* track = nullptr;
        std::vector<int32_t> keyOfFrame;  // clip frame -> key index, -1: sample the track there
    };
    struct NodeAnim {
        TrackPlan slot[kSlots];
        bool useMatrix = false;
    };
    // Rotations folded into a node's transform: local' = pre * local * post (object transforms).
    struct Adjust {
        glm::quat pre{1.0f, 0.0f, 0.0f, 0.0f}, post{1.0f, 0.0f, 0.0f, 0.0f};
        bool hasPre = false, hasPost = false;
    };

    // --- diagnostics ---------------------------------------------------------------------------

    bool fail(const std::string& where, const std::string& message) {
        if (m_error.empty()) m_error = where.empty() ? message : where + ": " + message;
        return false;
    }
    void note(const std::string& text) {
        if (m_notes) m_notes->push_back(text);
    }
    std::string nodeName(size_t i) const { return "node " + num(i) + " " + quoted(m_scene.nodes[i].name); }

    // A non-vertex number as stored: float bits, or 16.16 in fixed-point files where the reader
    // reads this value as fixed (`fixedAllowed`; the PBR blocks and units never are).
    uint32_t real(float v, bool fixedAllowed = true) {
        if (m_o.fixedPoint && fixedAllowed) {
            const double scaled = std::nearbyint(double(v) * 65536.0);
            if (!(scaled >= -2147483648.0 && scaled <= 2147483647.0)) {
                fail("", "the value " + std::to_string(v) + " does not fit 16.16 fixed point (scene flag 1)");
                return 0;
            }
            return static_cast<uint32_t>(static_cast<int32_t>(scaled));
        }
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return bits;
    }
    void reals(Sink& s, uint32_t id, const float* v, size_t n, bool fixedAllowed = true) {
        uint32_t w[16];
        for (size_t i = 0; i < n; ++i) w[i] = real(v[i], fixedAllowed);
        s.words(id, w, n);
    }
    void reals(Sink& s, uint32_t id, const glm::vec3& v) { reals(s, id, &v[0], 3); }
    // A value the reader defaults to when its block is absent: left out when it is that default and
    // 16.16 cannot hold it exactly (pi, the default falloff angle), so that it reads back as it was.
    void realOrDefault(Sink& s, uint32_t id, float v, float readerDefault) {
        const double scaled = double(v) * 65536.0;
        if (m_o.fixedPoint && v == readerDefault && scaled != std::nearbyint(scaled)) return;
        reals(s, id, &v, 1);
    }

    // --- planning ------------------------------------------------------------------------------

    bool plan() {
        return planScene() && planNodes() && planAnimation() && planMeshes() && planMaterials() &&
               planLightsAndCameras();
    }

    bool planScene() {
        const Scene& s = m_scene;
        if (s.up != UpAxis::Y) return fail("scene", "a Z-up scene: POD has no up axis (Y up is assumed)");
        const float fps = s.animation.fps;
        if (!(fps >= 1.0f && fps <= 4294967295.0f) || fps != std::floor(fps))
            return fail("scene", "FPS " + std::to_string(fps) +
                                     " is not a whole number of frames per second (POD stores an integer)");
        m_fps = fps;
        if (!(std::isfinite(s.metersPerUnit) && s.metersPerUnit > 0.0f))
            return fail("scene", "units " + std::to_string(s.metersPerUnit) + " is not a positive length");
        if (s.nodes.size() > 0x7FFFFFFFu || s.meshes.size() > 0x7FFFFFFFu)
            return fail("scene", "too many objects for POD");
        return true;
    }

    // Node order (spec 3.6): mesh nodes, light nodes, camera nodes, then every other node.
    bool planNodes() {
        const Scene& s = m_scene;
        const size_t count = s.nodes.size();
        std::vector<int32_t> group[4];
        std::vector<int32_t> lightNode(s.lights.size(), -1), cameraNode(s.cameras.size(), -1);
        for (size_t i = 0; i < count; ++i) {
            const Node& n = s.nodes[i];
            const std::string w = nodeName(i);
            if (!n.visible) return fail(w, "a hidden node: POD has no visibility");
            if (n.parent < -1 || n.parent >= static_cast<int32_t>(count) ||
                n.parent == static_cast<int32_t>(i))
                return fail(w, "parent " + std::to_string(n.parent) + " is not a node of the scene");
            if (n.skin >= 0 && n.kind != NodeKind::Mesh)
                return fail(w, "a skin on a node that shows no mesh");
            if (n.skin < -1 || n.skin >= static_cast<int32_t>(s.skins.size()))
                return fail(w, "skin " + std::to_string(n.skin) + " out of range");
            switch (n.kind) {
                case NodeKind::Mesh:
                    if (n.object < 0 || n.object >= static_cast<int32_t>(s.meshes.size()))
                        return fail(w, "mesh " + std::to_string(n.object) + " out of range");
                    if (n.materials.size() > 1)
                        return fail(w, num(n.materials.size()) + " materials; a POD mesh node has one");
                    if (!n.materials.empty() &&
                        (n.materials[0] < -1 || n.materials[0] >= static_cast<int32_t>(s.materials.size())))
                        return fail(w, "material " + std::to_string(n.materials[0]) + " out of range");
                    group[0].push_back(static_cast<int32_t>(i));
                    break;
                case NodeKind::Light:
                    if (n.object < 0 || n.object >= static_cast<int32_t>(s.lights.size()))
                        return fail(w, "light " + std::to_string(n.object) + " out of range");
                    if (lightNode[n.object] >= 0)
                        return fail(w, "light " + num(n.object) +
                                           " is shown by two nodes; POD places each light on one node");
                    lightNode[n.object] = static_cast<int32_t>(i);
                    group[1].push_back(static_cast<int32_t>(i));
                    break;
                case NodeKind::Camera:
                    if (n.object < 0 || n.object >= static_cast<int32_t>(s.cameras.size()))
                        return fail(w, "camera " + std::to_string(n.object) + " out of range");
                    if (cameraNode[n.object] >= 0)
                        return fail(w, "camera " + num(n.object) +
                                           " is shown by two nodes; POD places each camera on one node");
                    cameraNode[n.object] = static_cast<int32_t>(i);
                    group[2].push_back(static_cast<int32_t>(i));
                    break;
                default:
                    group[3].push_back(static_cast<int32_t>(i));
                    break;
            }
        }
        for (size_t l = 0; l < lightNode.size(); ++l)
            if (lightNode[l] < 0)
                return fail("light " + num(l), "no node shows it; POD places each light on its own node");
        for (size_t c = 0; c < cameraNode.size(); ++c)
            if (cameraNode[c] < 0)
                return fail("camera " + num(c), "no node shows it; POD places each camera on its own node");
        m_meshNodes = static_cast<uint32_t>(group[0].size());
        for (const auto& g : group) m_order.insert(m_order.end(), g.begin(), g.end());
        m_newIndex.assign(count, -1);
        for (size_t k = 0; k < m_order.size(); ++k) m_newIndex[m_order[k]] = static_cast<int32_t>(k);
        bool reordered = false;
        for (size_t k = 0; k < m_order.size(); ++k)
            reordered = reordered || m_order[k] != static_cast<int32_t>(k);
        if (reordered)
            note("nodes reordered as POD wants them: mesh nodes, light nodes, camera nodes, then the rest");

        // Object transforms: identity, or (cameras and lights) the reader's rotation about X, or a
        // rotation that can be folded into the node and undone for its children.
        m_adjust.assign(count, Adjust{});
        const glm::mat4 podObject = glm::rotate(glm::mat4(1.0f), glm::radians(-90.0f), glm::vec3(1, 0, 0));
        for (size_t i = 0; i < count; ++i) {
            const Node& n = s.nodes[i];
            const bool object = n.kind == NodeKind::Light || n.kind == NodeKind::Camera;
            const glm::mat4 fold = object ? n.objectTransform * glm::inverse(podObject) : n.objectTransform;
            if (nearlyIdentity(fold, 1e-5f)) continue;
            if (!object)
                return fail(nodeName(i),
                            "an object transform on a node that shows no camera or light; POD has none");
            const glm::mat3 r(fold);
            const bool rotation = nearlyIdentity(glm::mat4(glm::transpose(r) * r), 1e-4f) &&
                                  std::fabs(glm::determinant(r) - 1.0f) < 1e-4f &&
                                  std::fabs(fold[0][3]) + std::fabs(fold[1][3]) + std::fabs(fold[2][3]) +
                                          std::fabs(fold[3][0]) + std::fabs(fold[3][1]) +
                                          std::fabs(fold[3][2]) + std::fabs(fold[3][3] - 1.0f) <
                                      1e-5f;
            if (!rotation)
                return fail(
                    nodeName(i),
                    "the object transform is not a rotation; POD can only fold a rotation into the node");
            const glm::quat q = glm::normalize(glm::quat_cast(r));
            m_adjust[i].post = q;
            m_adjust[i].hasPost = true;
            for (size_t c = 0; c < count; ++c) {
                if (s.nodes[c].parent != static_cast<int32_t>(i)) continue;
                m_adjust[c].pre = glm::inverse(q) * m_adjust[c].pre;
                m_adjust[c].hasPre = true;
            }
        }
        for (const Adjust& a : m_adjust)
            if (a.hasPost) {
                note("camera and light object transforms folded into their nodes (POD objects look down -Y)");
                break;
            }
        return checkParentCycles();
    }

    bool checkParentCycles() {
        const size_t count = m_scene.nodes.size();
        std::vector<uint8_t> state(count, 0);  // 0 unseen, 1 on the current walk, 2 done
        std::vector<size_t> walk;
        for (size_t i = 0; i < count; ++i) {
            walk.clear();
            size_t at = i;
            while (state[at] == 0) {
                state[at] = 1;
                walk.push_back(at);
                const int32_t p = m_scene.nodes[at].parent;
                if (p < 0) break;
                at = static_cast<size_t>(p);
                if (state[at] == 1)
                    return fail(nodeName(at), "the node is its own ancestor (a parent cycle)");
            }
            for (size_t w : walk) state[w] = 2;
        }
        return true;
    }

    // Which tracks POD keeps, the frame count, whether a rest frame comes first.
    bool planAnimation() {
        const Scene& s = m_scene;
        const auto& clips = s.animation.clips;
        const Clip* clip = nullptr;
        if (m_o.clip >= 0) {
            if (static_cast<size_t>(m_o.clip) >= clips.size())
                return fail("animation", "clip " + std::to_string(m_o.clip) + " does not exist (" +
                                             num(clips.size()) + " clips)");
            clip = &clips[m_o.clip];
        } else if (clips.size() > 1) {
            return fail("animation",
                        num(clips.size()) + " clips; POD holds one (choose it with PodWriteOptions::clip)");
        } else if (!clips.empty()) {
            clip = &clips[0];
        }
        m_anim.assign(s.nodes.size(), NodeAnim{});
        m_fov.assign(s.cameras.size(), TrackPlan{});
        uint64_t lastFrame = 0;
        bool anyTrack = false;
        if (clip) {
            if (clip->start != 0.0f)
                return fail("clip " + quoted(clip->name), "starts at " + std::to_string(clip->start) +
                                                              " s; POD animation starts at frame 0");
            bool dropped = false;
            for (size_t t = 0; t < clip->tracks.size(); ++t) {
                const Track& tr = clip->tracks[t];
                const std::string w = "clip " + quoted(clip->name) + " / track " + num(t);
                if (tr.node < 0 || static_cast<size_t>(tr.node) >= s.nodes.size())
                    return fail(w, "node " + std::to_string(tr.node) + " out of range");
                TrackPlan* plan = nullptr;
                uint32_t need = 0;
                switch (tr.channel) {
                    case Channel::Translation:
                        plan = &m_anim[tr.node].slot[kT], need = 3;
                        break;
                    case Channel::Rotation:
                        plan = &m_anim[tr.node].slot[kR], need = 4;
                        break;
                    case Channel::Scale:
                        plan = &m_anim[tr.node].slot[kS], need = 3;
                        break;
                    case Channel::Matrix:
                        plan = &m_anim[tr.node].slot[kM], need = 16;
                        break;
                    case Channel::CameraFov: {
                        const Node& n = s.nodes[tr.node];
                        if (n.kind != NodeKind::Camera)
                            return fail(w, "a field of view track on " + nodeName(tr.node) +
                                               ", which shows no camera");
                        plan = &m_fov[n.object];
                        need = 1;
                        break;
                    }
                    case Channel::MorphWeights:
                        if (!m_o.dropMorphTargets) return fail(w, "morph weights: POD has no morph targets");
                        dropped = true;
                        continue;
                    default:
                        return fail(w, std::string(channelName(tr.channel)) + " tracks have no POD block");
                }
                if (plan->track)
                    return fail(w, "a second " + std::string(channelName(tr.channel)) + " track for " +
                                       nodeName(tr.node));
                if (tr.components != need || tr.values.size() < tr.times.size() * need)
                    return fail(w, num(tr.components) + " floats per key; " + channelName(tr.channel) +
                                       " keys hold " + num(need));
                if (tr.times.empty()) continue;
                plan->track = &tr;
                anyTrack = true;
                for (size_t k = 0; k < tr.times.size(); ++k) {
                    const double f = double(tr.times[k]) * m_fps;
                    if (!(f >= 0.0 && f < double(kMaxFrames)))
                        return fail(w, "key time " + std::to_string(tr.times[k]) + " s is outside 0 to " +
                                           num(kMaxFrames) + " frames");
                    lastFrame = std::max<uint64_t>(lastFrame, static_cast<uint64_t>(std::ceil(f - 1e-3)));
                }
            }
            if (dropped) note("morph weight tracks dropped (POD has no morph targets)");
            if (anyTrack)
                lastFrame = std::max<uint64_t>(
                    lastFrame,
                    static_cast<uint64_t>(std::max(0.0, std::ceil(double(clip->end) * m_fps - 1e-3))));
        }
        uint64_t clipFrames = s.animation.frames;
        if (anyTrack) clipFrames = std::max<uint64_t>(clipFrames, lastFrame + 1);
        if (clipFrames > kMaxFrames)
            return fail("animation", num(clipFrames) + " frames; this writer stops at " + num(kMaxFrames));
        m_clipFrames = static_cast<uint32_t>(clipFrames);

        for (size_t n = 0; n < s.nodes.size(); ++n) {
            NodeAnim& a = m_anim[n];
            const bool trs = a.slot[kT].track || a.slot[kR].track || a.slot[kS].track;
            a.useMatrix = s.nodes[n].local.useMatrix || a.slot[kM].track;
            if (a.useMatrix && trs)
                return fail(nodeName(n),
                            "translation, rotation or scale tracks on a node with a matrix; POD nodes have "
                            "one or the other");
            for (int k = 0; k < kSlots; ++k)
                if (a.slot[k].track && !planTrack(a.slot[k], nodeName(n))) return false;
        }
        for (size_t c = 0; c < m_fov.size(); ++c)
            if (m_fov[c].track && !planTrack(m_fov[c], "camera " + num(c))) return false;

        // POD's rest pose (and bind pose) is frame 0: does the clip start there?
        bool differs = false;
        std::string first;
        float rest[16], start[16];
        for (size_t n = 0; n < s.nodes.size() && !differs; ++n)
            for (int k = 0; k < kSlots && !differs; ++k) {
                const TrackPlan& p = m_anim[n].slot[k];
                if (!p.track) continue;
                restValue(n, k, rest);
                trackValue(p, 0, start);
                if (std::memcmp(rest, start, kSlotDefs[k].used * sizeof(float)) != 0) {
                    differs = true;
                    first = nodeName(n) + " " + channelName(kSlotDefs[k].channel);
                }
            }
        for (size_t c = 0; c < m_fov.size() && !differs; ++c) {
            if (!m_fov[c].track) continue;
            trackValue(m_fov[c], 0, start);
            if (start[0] != s.cameras[c].yfov) differs = true, first = "camera " + num(c) + " field of view";
        }
        if (differs) {
            if (!m_o.restFrame)
                return fail(
                    first,
                    "the rest pose differs from the clip at time 0, and POD's rest and bind pose is frame 0");
            m_shift = 1;
            note(
                "the rest pose is frame 0 and the clip starts at frame 1 (the rest pose differs from the "
                "clip's start: " +
                first + ")");
        }
        m_frames = m_clipFrames + m_shift;
        if (m_frames > kMaxFrames)
            return fail("animation", num(m_frames) + " frames; this writer stops at " + num(kMaxFrames));
        return true;
    }

    // Keys to frames; refuses what POD cannot hold unless asked to sample it.
    bool planTrack(TrackPlan& p, const std::string& owner) {
        const Track& t = *p.track;
        const std::string w = owner + " / " + channelName(t.channel) + " track";
        const bool podInterpolation = t.channel == Channel::Matrix ? t.interpolation == Interpolation::Step
                                                                   : t.interpolation == Interpolation::Linear;
        p.keyOfFrame.assign(m_clipFrames, -1);
        bool offFrame = false;
        for (size_t k = 0; k < t.times.size(); ++k) {
            const double f = double(t.times[k]) * m_fps;
            const double frame = std::nearbyint(f);
            if (std::fabs(f - frame) > 1e-3 || frame >= m_clipFrames) {
                offFrame = true;
                continue;
            }
            int32_t& slot = p.keyOfFrame[static_cast<size_t>(frame)];
            if (slot >= 0 && !m_o.bakeAnimation)
                return fail(w, "two keys on frame " + num(static_cast<uint64_t>(frame)));
            slot = static_cast<int32_t>(k);
        }
        if (offFrame || (!podInterpolation && t.times.size() > 1)) {
            if (!m_o.bakeAnimation) {
                return fail(w, offFrame
                                   ? "keys between frames; POD stores one value per frame (set bakeAnimation "
                                     "to sample the track)"
                                   : std::string(t.channel == Channel::Matrix ? "interpolated matrices"
                                                                              : "non-linear interpolation") +
                                         "; POD interpolates translation, rotation, scale and FOV linearly "
                                         "and steps matrices (set bakeAnimation to sample the track)");
            }
            p.keyOfFrame.assign(m_clipFrames, -1);  // sample every frame
            note(w + " sampled at every frame");
        }
        return true;
    }

    // --- values per frame -------------------------------------------------------------------------

    void restValue(size_t n, int slot, float* out) const {
        const Transform& l = m_scene.nodes[n].local;
        switch (slot) {
            case kT:
                std::memcpy(out, &l.translation[0], 12);
                break;
            case kR:
                out[0] = l.rotation.x, out[1] = l.rotation.y, out[2] = l.rotation.z, out[3] = l.rotation.w;
                break;
            case kS:
                std::memcpy(out, &l.scale[0], 12);
                break;
            default: {
                const glm::mat4 m = l.toMatrix();
                std::memcpy(out, glm::value_ptr(m), 64);
                break;
            }
        }
    }
    void trackValue(const TrackPlan& p, uint32_t clipFrame, float* out) const {
        const Track& t = *p.track;
        const int32_t key = clipFrame < p.keyOfFrame.size() ? p.keyOfFrame[clipFrame] : -1;
        if (key >= 0) {
            std::memcpy(out, t.values.data() + size_t(key) * t.components, t.components * sizeof(float));
        } else {
            sampleTrack(t, float(clipFrame) / m_fps, out);
        }
    }

    // Node `n`'s channel `slot` at written frame `frame`, as stored: conjugate rotation, 7 scale
    // floats, with the object-transform fold applied.
    bool storedChannel(size_t n, int slot, uint32_t frame, std::vector<uint32_t>& out) {
        float v[16];
        const TrackPlan& p = m_anim[n].slot[slot];
        if (p.track && frame >= m_shift)
            trackValue(p, frame - m_shift, v);
        else
            restValue(n, slot, v);
        const Adjust& a = m_adjust[n];
        switch (slot) {
            case kT:
                if (a.hasPre) {
                    const glm::vec3 t = a.pre * glm::vec3(v[0], v[1], v[2]);
                    v[0] = t.x, v[1] = t.y, v[2] = t.z;
                }
                for (int i = 0; i < 3; ++i) out.push_back(real(v[i]));
                break;
            case kR: {
                glm::quat q(v[3], v[0], v[1], v[2]);
                if (a.hasPre || a.hasPost) q = a.pre * q * a.post;
                // Stored as the conjugate (notes 4).
                const float stored[4] = {-q.x, -q.y, -q.z, q.w};
                for (float f : stored) out.push_back(real(f));
                break;
            }
            case kS: {
                if (a.hasPost) {
                    const float big = std::max({std::fabs(v[0]), std::fabs(v[1]), std::fabs(v[2])});
                    if (std::fabs(v[0] - v[1]) > 1e-6f * big || std::fabs(v[0] - v[2]) > 1e-6f * big)
                        return fail(nodeName(n),
                                    "non-uniform scale on a camera or light node whose object transform must "
                                    "be folded in");
                }
                for (int i = 0; i < 3; ++i) out.push_back(real(v[i]));
                for (int i = 0; i < 4; ++i) out.push_back(real(0.0f));  // floats 3-6 are never used (notes 4)
                break;
            }
            default: {
                glm::mat4 m = glm::make_mat4(v);
                if (a.hasPre || a.hasPost) m = glm::mat4_cast(a.pre) * m * glm::mat4_cast(a.post);
                const float* f = glm::value_ptr(m);
                for (int i = 0; i < 16; ++i) out.push_back(real(f[i]));
                break;
            }
        }
        return m_error.empty();
    }
    bool animated(const TrackPlan& p) const { return p.track && m_frames >= 2; }

    // --- meshes ----------------------------------------------------------------------------------

    struct AttrPlan {
        const VertexStream* stream;
        const VertexAttribute* attr;
        uint32_t list, podType, n;
        uint32_t size;    // bytes per vertex
        uint32_t unit;    // byte-swap unit (1: none)
        uint32_t align;   // as the reader checks it
        uint32_t offset;  // in the written vertex (interleaved)
    };
    struct MeshPlan {
        std::vector<AttrPlan> attrs;
        uint32_t uvSets = 0;
        bool interleaved = false;
        const VertexStream* verbatim = nullptr;
        uint32_t stride = 0;
        uint32_t numFaces = 0, meshType = 0, indexCount = 0;
        std::vector<uint32_t> strips;
        bool indexed = false;
        ComponentType indexType = ComponentType::UInt16;
        uint32_t maxBones = 0;
        std::vector<uint32_t> batchBones, batchCounts, batchOffsets;
    };

    bool planMeshes() {
        const Scene& s = m_scene;
        m_meshes.resize(s.meshes.size());
        Pose rest;
        bool skinned = false;
        for (const Node& n : s.nodes) skinned = skinned || n.skin >= 0;
        for (const Mesh& m : s.meshes) skinned = skinned || !m.boneBatches.empty();
        if (skinned) evaluatePose(s, -1, 0.0f, rest);
        for (size_t i = 0; i < s.meshes.size(); ++i)
            if (!planMesh(i, m_meshes[i]) || !planBatches(i, m_meshes[i], rest)) return false;
        return true;
    }

    // Each attribute of m's streams into p.attrs: its POD list, type, size and alignment.
    bool planAttributes(const Mesh& m, const std::string& w, MeshPlan& p) {
        for (const VertexStream& st : m.streams) {
            if (st.count != m.vertexCount)
                return fail(w,
                            "a stream of " + num(st.count) + " vertices in a mesh of " + num(m.vertexCount));
            for (const VertexAttribute& a : st.attributes) {
                const std::string aw = w + " / " + semanticName(a.semantic) + " " + num(a.set);
                AttrPlan ap{&st, &a, listOf(a.semantic), 0, 0, 0, 1, 1, 0};
                if (!ap.list) return fail(aw, "no POD attribute list holds this semantic");
                if (a.set != 0 && a.semantic != Semantic::TexCoord)
                    return fail(aw, "POD holds one set of this attribute");
                std::string why;
                if (!podTypeOf(a, m_o.packedBytes, ap.podType, ap.n, why)) return fail(aw, why);
                ap.size = static_cast<uint32_t>(isPacked(a.type) ? 4 : componentSize(a.type) * a.components);
                ap.align = static_cast<uint32_t>(isPacked(a.type) ? 4 : componentSize(a.type));
                // Packed types are one 32-bit word (notes 7): swapped whole on big-endian output.
                ap.unit = isWordType(ap.podType) ? 4 : static_cast<uint32_t>(componentSize(a.type));
                if (m.vertexCount > 0) {
                    const uint64_t need = uint64_t(st.stride) * (m.vertexCount - 1) + a.offset + ap.size;
                    if (need > st.bytes.size || (m.vertexCount > 1 && st.stride < ap.size))
                        return fail(aw, num(m.vertexCount) + " vertices of stride " + num(st.stride) +
                                            " need " + num(need) + " bytes, the stream holds " +
                                            num(st.bytes.size));
                }
                for (const AttrPlan& other : p.attrs)
                    if (other.attr->semantic == a.semantic && other.attr->set == a.set)
                        return fail(aw, "the attribute appears twice");
                p.attrs.push_back(ap);
            }
        }
        return true;
    }

    // p.attrs sorted in POD list order, texture sets counted (numbered 0, 1, 2...), positions
    // required when there are vertices; positions says whether there are any.
    bool planAttributeOrder(const Mesh& m, const std::string& w, MeshPlan& p, bool& positions) {
        std::stable_sort(p.attrs.begin(), p.attrs.end(), [](const AttrPlan& a, const AttrPlan& b) {
            const int ra = listRank(a.attr->semantic), rb = listRank(b.attr->semantic);
            return ra != rb ? ra < rb : a.attr->set < b.attr->set;
        });
        for (const AttrPlan& a : p.attrs)
            if (a.attr->semantic == Semantic::TexCoord) {
                if (a.attr->set != p.uvSets)
                    return fail(w,
                                "texture coordinate sets must be numbered 0, 1, 2... (POD numbers its UVW "
                                "lists in order)");
                ++p.uvSets;
            }
        positions = false;
        for (const AttrPlan& a : p.attrs) positions = positions || a.attr->semantic == Semantic::Position;
        if (m.vertexCount > 0 && !positions)
            return fail(w, num(m.vertexCount) + " vertices but no positions");
        return true;
    }

    // Layout: the stream as it is when it already suits the reader, else packed in list order.
    void planLayout(const Mesh& m, MeshPlan& p) {
        p.interleaved = m_o.interleave && m.vertexCount > 0 && !p.attrs.empty();
        if (p.interleaved) {
            const VertexStream* only = p.attrs.front().stream;
            bool asIs = only->stride > 0;
            for (const AttrPlan& a : p.attrs)
                asIs = asIs && a.stream == only && a.attr->offset % a.align == 0 &&
                       only->stride % a.align == 0 && uint64_t(a.attr->offset) + a.size <= only->stride;
            if (asIs) {
                p.verbatim = only;
                p.stride = only->stride;
                for (AttrPlan& a : p.attrs) a.offset = a.attr->offset;
            } else {
                uint32_t cursor = 0;
                for (AttrPlan& a : p.attrs) {
                    const uint32_t align = std::max(a.align, a.unit);
                    cursor = (cursor + align - 1) / align * align;
                    a.offset = cursor;
                    cursor += a.size;
                }
                p.stride = (cursor + 3) / 4 * 4;
            }
        }
    }

    // Primitive (6001, 6004, 6005, 6021): the submesh's checks, mesh type, strips and face count.
    bool planPrimitive(const std::string& w, const Submesh& sub, MeshPlan& p) {
        if (sub.firstIndex != 0)
            return fail(w, "the submesh starts at index " + num(sub.firstIndex) +
                               "; POD draws a mesh's indices from the first");
        if (sub.primitiveRestart) return fail(w, "primitive restart: POD has none");
        if (sub.baseVertex != 0)
            return fail(w,
                        "a base vertex of " + num(sub.baseVertex) + ": POD indices name the mesh's vertices");
        if (sub.frontFaceCW) return fail(w, "clockwise front faces: POD has no winding flag");
        if (sub.materialSlot != 0)
            return fail(w, "material slot " + num(sub.materialSlot) + "; POD mesh nodes have one material");
        p.indexCount = sub.indexCount;
        switch (sub.primitive) {
            case Primitive::Triangles:
                break;
            case Primitive::Points:
                p.meshType = 1;
                break;
            case Primitive::Lines:
                p.meshType = 2;
                break;
            case Primitive::Patches:
                p.meshType = 3;
                break;
            case Primitive::Nurbs:
                p.meshType = 4;
                break;
            case Primitive::TriangleStrip: {
                p.strips = sub.stripLengths;
                if (p.strips.empty()) {
                    if (sub.indexCount < 3)
                        return fail(w, "a triangle strip of " + num(sub.indexCount) + " indices");
                    p.strips.push_back(sub.indexCount - 2);
                    note(w + ": the triangle strip is written as one strip of " + num(sub.indexCount - 2) +
                         " triangles");
                }
                uint64_t indices = 0, faces = 0;
                for (uint32_t len : p.strips) indices += uint64_t(len) + 2, faces += len;
                if (indices != sub.indexCount)
                    return fail(
                        w, "strips of " + num(indices) + " indices in a submesh of " + num(sub.indexCount));
                if (faces > 0xFFFFFFFFull) return fail(w, "too many strip triangles");
                p.numFaces = static_cast<uint32_t>(faces);
                break;
            }
            default:
                return fail(
                    w, std::string("a ") + primitiveName(sub.primitive) +
                           " submesh: POD has triangle lists and strips (and points, lines, patches, NURBS)");
        }
        if (sub.primitive != Primitive::TriangleStrip) {
            if (sub.indexCount % 3 != 0)
                return fail(w, num(sub.indexCount) + " indices; POD counts " + primitiveName(sub.primitive) +
                                   " in faces of 3");
            p.numFaces = sub.indexCount / 3;
        }
        return true;
    }

    // Indices (6003): 8-bit widened to 16, unused ones left out, a non-indexed count checked.
    bool planIndices(const Mesh& m, const std::string& w, MeshPlan& p) {
        p.indexed = m.indices.count > 0;
        if (p.indexed) {
            if (m.indices.type != ComponentType::UInt8 && m.indices.type != ComponentType::UInt16 &&
                m.indices.type != ComponentType::UInt32)
                return fail(w, std::string(componentTypeName(m.indices.type)) + " indices");
            const size_t size = componentSize(m.indices.type);
            if (m.indices.count < p.indexCount || m.indices.bytes.size / size < p.indexCount)
                return fail(w, "the submesh uses " + num(p.indexCount) + " indices, the index data holds " +
                                   num(std::min<uint64_t>(m.indices.count, m.indices.bytes.size / size)));
            p.indexType =
                m.indices.type == ComponentType::UInt32 ? ComponentType::UInt32 : ComponentType::UInt16;
            if (m.indices.type == ComponentType::UInt8)
                note(w + ": 8-bit indices widened to 16 bits (POD has 16- and 32-bit indices)");
            if (m.indices.count > p.indexCount)
                note(w + ": " + num(m.indices.count - p.indexCount) +
                     " indices the submesh does not use are left out");
        } else if (p.indexCount > m.vertexCount) {
            return fail(w, "a non-indexed submesh of " + num(p.indexCount) + " vertices in a mesh of " +
                               num(m.vertexCount));
        }
        return true;
    }

    // Mesh index's plan p: what POD cannot hold fails, then attributes, layout, primitive, indices.
    bool planMesh(size_t index, MeshPlan& p) {
        const Mesh& m = m_scene.meshes[index];
        const std::string w = "mesh " + num(index) + (m.name.empty() ? "" : " " + quoted(m.name));
        if (!m.morphTargets.empty()) {
            if (!m_o.dropMorphTargets)
                return fail(w, "morph targets: POD has none (set dropMorphTargets to leave them out)");
            note(w + ": " + num(m.morphTargets.size()) + " morph targets dropped");
        }
        if (m.submeshes.size() > 1)
            return fail(w, num(m.submeshes.size()) +
                               " submeshes; a POD mesh draws one primitive list with one material");
        bool positions = false;
        if (!planAttributes(m, w, p) || !planAttributeOrder(m, w, p, positions)) return false;
        planLayout(m, p);

        // Primitive and indices (6001-6005, 6021).
        Submesh sub;
        if (!m.submeshes.empty()) sub = m.submeshes[0];
        if (!planPrimitive(w, sub, p) || !planIndices(m, w, p)) return false;
        if (!nearlyIdentity(m.positionUnpack, 0.0f) && !positions)
            return fail(w, "an unpack matrix without positions");
        return true;
    }

    // Bone batches (6015-6019): node indices per batch, from the skins of the nodes showing the mesh.
    bool planBatches(size_t index, MeshPlan& p, const Pose& rest) {
        const Scene& s = m_scene;
        const Mesh& m = s.meshes[index];
        const std::string w = "mesh " + num(index) + (m.name.empty() ? "" : " " + quoted(m.name));
        std::vector<size_t> instances;
        bool anySkin = false, allSkins = true;
        for (size_t n = 0; n < s.nodes.size(); ++n) {
            if (s.nodes[n].kind != NodeKind::Mesh || s.nodes[n].object != static_cast<int32_t>(index))
                continue;
            instances.push_back(n);
            anySkin = anySkin || s.nodes[n].skin >= 0;
            allSkins = allSkins && s.nodes[n].skin >= 0;
        }
        if (m.boneBatches.empty() && !anySkin) return true;
        if (!allSkins || instances.empty())
            return fail(
                w, m.boneBatches.empty() || instances.empty()
                       ? "bone batches, but no node shows the mesh with a skin (POD batches name bone nodes)"
                       : "skinned and unskinned instances; POD skins every node of a mesh with bone batches");
        std::vector<BoneBatch> batches = m.boneBatches;
        const Skin& first = s.skins[s.nodes[instances[0]].skin];
        if (batches.empty()) {
            // A skin without batches: one batch of all its joints (bone indices are joint indices).
            BoneBatch all;
            for (size_t j = 0; j < first.joints.size(); ++j) all.bones.push_back(static_cast<int32_t>(j));
            all.triangleCount = p.numFaces;
            batches.push_back(all);
            note(w + ": skinned without bone batches; written as one batch of its " +
                 num(first.joints.size()) + " joints");
        } else if (!m.boneIndicesBatchLocal) {
            bool identity = batches.size() == 1;
            for (size_t k = 0; identity && k < batches[0].bones.size(); ++k)
                identity = batches[0].bones[k] == static_cast<int32_t>(k);
            if (!identity)
                return fail(w, "bone batches whose vertex bone indices are not local to the batch");
        }
        uint32_t maxBones = m.maxBonesPerBatch;
        for (const BoneBatch& b : batches)
            maxBones = std::max<uint32_t>(maxBones, static_cast<uint32_t>(b.bones.size()));
        if (maxBones == 0) return fail(w, "bone batches without bones");
        p.maxBones = maxBones;
        for (size_t b = 0; b < batches.size(); ++b) {
            const BoneBatch& batch = batches[b];
            const uint64_t end = uint64_t(batch.firstTriangle) + batch.triangleCount;
            const uint64_t expected = b + 1 < batches.size() ? batches[b + 1].firstTriangle : p.numFaces;
            if (end != expected)
                return fail(w + " / bone batch " + num(b),
                            "covers triangles " + num(batch.firstTriangle) + " to " + num(end) +
                                "; POD batches run from one offset to the next (or to the " +
                                num(p.numFaces) + " faces)");
            p.batchOffsets.push_back(batch.firstTriangle);
            p.batchCounts.push_back(static_cast<uint32_t>(batch.bones.size()));
            for (uint32_t k = 0; k < maxBones; ++k) {
                int32_t boneNode = 0;  // padding, as the exporters write it
                if (k < batch.bones.size()) {
                    const int32_t joint = batch.bones[k];
                    int32_t agreed = -1;
                    for (size_t inst : instances) {
                        const Skin& skin = s.skins[s.nodes[inst].skin];
                        if (joint < 0 || static_cast<size_t>(joint) >= skin.joints.size() ||
                            skin.joints[joint] < 0 ||
                            static_cast<size_t>(skin.joints[joint]) >= s.nodes.size())
                            return fail(w + " / bone batch " + num(b), "bone " + std::to_string(joint) +
                                                                           " is not a joint of the skin of " +
                                                                           nodeName(inst));
                        if (agreed >= 0 && skin.joints[joint] != agreed)
                            return fail(w,
                                        "instances whose skins name different bone nodes; POD batches name "
                                        "one node per bone");
                        agreed = skin.joints[joint];
                    }
                    boneNode = m_newIndex[agreed];
                }
                p.batchBones.push_back(static_cast<uint32_t>(boneNode));
            }
        }
        // POD derives inverse binds from frame 0 (notes 5): they must be what the reader computes.
        for (size_t inst : instances) {
            const Skin& skin = s.skins[s.nodes[inst].skin];
            for (const BoneBatch& batch : batches)
                for (int32_t joint : batch.bones) {
                    const int32_t jointNode = skin.joints[joint];
                    const glm::mat4 expected = glm::inverse(rest.world[jointNode]) * rest.world[inst];
                    const glm::mat4 given = static_cast<size_t>(joint) < skin.inverseBind.size()
                                                ? skin.inverseBind[joint]
                                                : glm::mat4(1.0f);
                    if (!nearlyEqual(given, expected))
                        return fail("skin " + num(s.nodes[inst].skin) + " of " + nodeName(inst),
                                    "the inverse bind matrix of joint " + num(joint) + " (" +
                                        nodeName(jointNode) +
                                        ") is not inverse(bone world) * mesh node world at the rest pose; "
                                        "POD binds skins at frame 0");
                }
        }
        return true;
    }

    // --- materials, textures, lights, cameras ----------------------------------------------------

    bool planMaterials() {
        const Scene& s = m_scene;
        for (size_t t = 0; t < s.textures.size(); ++t) {
            if (!s.textures[t].embedded.empty())
                return fail("texture " + num(t), "an embedded image; POD refers to texture files by name");
            if (s.textures[t].path.empty()) return fail("texture " + num(t), "no file name");
        }
        for (size_t i = 0; i < s.materials.size(); ++i) {
            const Material& m = s.materials[i];
            const std::string w = "material " + num(i) + " " + quoted(m.name);
            if (m.model == ShadingModel::Unlit) return fail(w, "an unlit material: POD has no such model");
            const bool pbr = m.model == ShadingModel::MetalRough;
            if (!pbr &&
                (m.metallic != 0.0f || m.roughness != 1.0f || m.ior != 1.5f || m.reflectivity != 0.0f))
                return fail(w,
                            "metal/rough values on a classic material; POD's PBR blocks would make it a "
                            "metal/rough material");
            if (m.twoSided) return fail(w, "two-sided: POD has no such flag");
            if (m.alphaCutoff != 0.0f) return fail(w, "an alpha cutoff: POD has none");
            if (!m.vertexColors) return fail(w, "vertex colours switched off: POD has no such flag");
            if (m.emissive != glm::vec3(0.0f)) {
                if (!pbr)
                    return fail(w,
                                "an emissive colour on a classic material; POD's emission block (3036) makes "
                                "it metal/rough");
                int big = 0;
                for (int c = 1; c < 3; ++c)
                    if (std::fabs(m.diffuse[c]) > std::fabs(m.diffuse[big])) big = c;
                const float k = m.diffuse[big] != 0.0f ? m.emissive[big] / m.diffuse[big] : 0.0f;
                const glm::vec3 back = m.diffuse * k;
                for (int c = 0; c < 3; ++c)
                    if (!(std::fabs(back[c] - m.emissive[c]) <=
                          1e-6f * std::max(1.0f, std::fabs(m.emissive[c]))))
                        return fail(w,
                                    "an emissive colour that is not a multiple of the diffuse colour; POD "
                                    "stores emission as an amount of the base colour");
            }
            for (size_t slot = 0; slot < m.textures.size(); ++slot) {
                const TextureRef& r = m.textures[slot];
                if (r.texture < 0) continue;
                const std::string tw =
                    w + " / " + textureSlotName(static_cast<TextureSlot>(slot)) + " texture";
                if (r.texture >= static_cast<int32_t>(s.textures.size()))
                    return fail(tw, "texture " + num(r.texture) + " out of range");
                if (r.uvSet != 0)
                    return fail(tw, "texture coordinate set " + num(r.uvSet) + "; POD textures use set 0");
                if (r.wrapS != Wrap::Repeat || r.wrapT != Wrap::Repeat)
                    return fail(tw, "a wrap mode other than repeat; POD has none");
                bool block = false;
                for (const TextureBlock& b : kTextureBlocks)
                    block = block || (static_cast<size_t>(b.slot) == slot && (pbr || !b.pbr));
                if (!block)
                    return fail(tw, pbr || (static_cast<TextureSlot>(slot) != TextureSlot::Metallic &&
                                            static_cast<TextureSlot>(slot) != TextureSlot::Roughness)
                                        ? "no POD texture block reads into this slot"
                                        : "a metallic or roughness texture makes a POD material metal/rough");
            }
            uint32_t gl;
            for (BlendFactor f : {m.blend.srcRgb, m.blend.dstRgb, m.blend.srcAlpha, m.blend.dstAlpha})
                if (!blendFactorToGl(f, gl)) return fail(w, "an unknown blend factor");
            for (BlendOp op : {m.blend.opRgb, m.blend.opAlpha})
                if (!blendOpToGl(op, gl)) return fail(w, "an unknown blend operation");
        }
        return true;
    }

    bool planLightsAndCameras() {
        const Scene& s = m_scene;
        for (size_t i = 0; i < s.lights.size(); ++i) {
            const Light& l = s.lights[i];
            const std::string w = "light " + num(i) + " " + quoted(l.name);
            if (l.type != LightType::Point && l.type != LightType::Directional && l.type != LightType::Spot)
                return fail(w, std::string("a ") + lightTypeName(l.type) +
                                   " light: POD has point, directional and spot lights");
            if (l.range != 0.0f) return fail(w, "a range: POD lights reach infinitely far");
            if (l.innerCone != 0.0f)
                return fail(w, "an inner cone angle: POD spot lights have a falloff angle and exponent only");
            if (!l.enabled) return fail(w, "switched off: POD has no such flag");
            if (l.targetNode < -1 || l.targetNode >= static_cast<int32_t>(s.nodes.size()))
                return fail(w, "target node out of range");
            if (l.intensity != 1.0f) note(w + ": intensity folded into the colour");
        }
        for (size_t i = 0; i < s.cameras.size(); ++i) {
            const Camera& c = s.cameras[i];
            const std::string w = "camera " + num(i) + " " + quoted(c.name);
            if (c.orthographic) return fail(w, "an orthographic camera: POD cameras are perspective");
            if (c.aspect != 0.0f)
                return fail(w, "a fixed aspect ratio: POD cameras take it from the viewport");
            if (c.targetNode < -1 || c.targetNode >= static_cast<int32_t>(s.nodes.size()))
                return fail(w, "target node out of range");
        }
        return true;
    }

    // --- emitting --------------------------------------------------------------------------------

    int32_t remap(int32_t node) const { return node < 0 ? -1 : m_newIndex[node]; }

    bool emit(std::vector<uint8_t>& out) {
        const Scene& s = m_scene;
        Sink k(out, m_o.bigEndian);
        k.str(pod::Version, pod::kVersionString);
        if (!m_o.history.empty()) k.str(pod::History, m_o.history);
        k.open(pod::Scene);
        reals(k, pod::ClearColour, s.clearColor);
        reals(k, pod::AmbientColour, s.ambient);
        k.u32(pod::NumCameras, static_cast<uint32_t>(s.cameras.size()));
        k.u32(pod::NumLights, static_cast<uint32_t>(s.lights.size()));
        k.u32(pod::NumMeshes, static_cast<uint32_t>(s.meshes.size()));
        k.u32(pod::NumNodes, static_cast<uint32_t>(s.nodes.size()));
        k.u32(pod::NumMeshNodes, m_meshNodes);
        k.u32(pod::NumTextures, static_cast<uint32_t>(s.textures.size()));
        k.u32(pod::NumMaterials, static_cast<uint32_t>(s.materials.size()));
        k.u32(pod::NumFrames, m_frames);
        k.u32(pod::Fps, static_cast<uint32_t>(m_fps));
        k.u32(pod::SceneFlags, m_o.fixedPoint ? pod::kSceneFlagFixedPoint : 0u);
        k.u32(pod::Units, real(s.metersPerUnit, false));
        if (!m_o.sceneUserData.empty()) {
            k.raw(pod::SceneUserData, m_o.sceneUserData.data(), m_o.sceneUserData.size());
        } else if (m_shift > 0) {
            const std::string mark = pod::kClipStartUserData + num(m_shift);
            k.raw(pod::SceneUserData, reinterpret_cast<const uint8_t*>(mark.data()), mark.size());
        }
        for (size_t i = 0; i < s.cameras.size(); ++i) camera(k, i);
        for (const Light& l : s.lights) light(k, l);
        for (const Material& m : s.materials) material(k, m);
        for (const Texture& t : s.textures) {
            k.open(pod::TextureBlock);
            k.str(pod::TextureName, t.path);
            k.close(pod::TextureBlock);
        }
        for (size_t i = 0; i < s.meshes.size() && m_error.empty(); ++i) mesh(k, i);
        for (int32_t n : m_order)
            if (!node(k, static_cast<size_t>(n))) return false;
        k.close(pod::Scene);
        if (k.tooLong()) return fail("", "a block larger than 4 GiB: POD lengths are 32-bit");
        return m_error.empty();
    }

    void camera(Sink& k, size_t i) {
        const Camera& c = m_scene.cameras[i];
        k.open(pod::CameraBlock);
        k.i32(pod::CameraTargetIndex, remap(c.targetNode));
        realOrDefault(k, pod::FieldOfView, c.yfov, Camera{}.yfov);
        reals(k, pod::FarPlane, &c.farZ, 1);
        reals(k, pod::NearPlane, &c.nearZ, 1);
        const TrackPlan& fov = m_fov[i];
        if (animated(fov)) {
            std::vector<uint32_t> values;
            values.reserve(m_frames);
            for (uint32_t f = 0; f < m_frames; ++f) {
                float v = c.yfov;  // frame 0 is the rest pose when the clip follows it
                if (f >= m_shift) trackValue(fov, f - m_shift, &v);
                values.push_back(real(v));
            }
            k.words(pod::FovAnimation, values);
        }
        k.close(pod::CameraBlock);
    }

    void light(Sink& k, const Light& l) {
        k.open(pod::LightBlock);
        k.i32(pod::LightTargetIndex, remap(l.targetNode));
        reals(k, pod::LightColour, l.color * l.intensity);
        k.u32(pod::LightType, static_cast<uint32_t>(l.type));  // 0 point, 1 directional, 2 spot
        reals(k, pod::ConstantAttenuation, &l.constantAttenuation, 1);
        reals(k, pod::LinearAttenuation, &l.linearAttenuation, 1);
        reals(k, pod::QuadraticAttenuation, &l.quadraticAttenuation, 1);
        realOrDefault(k, pod::FalloffAngle, l.outerCone, Light{}.outerCone);
        reals(k, pod::FalloffExponent, &l.falloffExponent, 1);
        k.close(pod::LightBlock);
    }

    void material(Sink& k, const Material& m) {
        const bool pbr = m.model == ShadingModel::MetalRough;
        k.open(pod::MaterialBlock);
        k.u32(pod::MaterialFlags, m.blend.enabled ? pod::kMaterialBlendingEnabled : 0u);
        k.str(pod::MaterialName, m.name);
        for (const TextureBlock& b : kTextureBlocks) {
            if (b.pbr && !pbr) continue;
            k.i32(b.id, b.slot == TextureSlot::Count ? -1 : m.texture(b.slot).texture);
        }
        reals(k, pod::MaterialOpacity, &m.opacity, 1);
        reals(k, pod::MaterialAmbient, m.ambient);
        reals(k, pod::MaterialDiffuse, m.diffuse);
        reals(k, pod::MaterialSpecular, m.specular);
        // The file holds a 0..1 fraction, the model a Blinn-Phong exponent (exact: a power of two).
        const float shininess = m.shininess / pod::kPodShininessScale;
        reals(k, pod::MaterialShininess, &shininess, 1);
        if (!m.effectFile.empty()) k.str(pod::EffectFileName, m.effectFile);
        if (!m.effectName.empty()) k.str(pod::EffectName, m.effectName);
        const std::pair<uint32_t, BlendFactor> factors[] = {{pod::BlendSrcRgb, m.blend.srcRgb},
                                                            {pod::BlendSrcAlpha, m.blend.srcAlpha},
                                                            {pod::BlendDstRgb, m.blend.dstRgb},
                                                            {pod::BlendDstAlpha, m.blend.dstAlpha}};
        uint32_t gl = 0;
        for (const auto& f : factors) {
            blendFactorToGl(f.second, gl);
            k.u32(f.first, gl);
        }
        blendOpToGl(m.blend.opRgb, gl);
        k.u32(pod::BlendOpRgb, gl);
        blendOpToGl(m.blend.opAlpha, gl);
        k.u32(pod::BlendOpAlpha, gl);
        // Constant colours are written as GL enums (0x8001...), so the reader takes the blend
        // colour; the factor array gets the same value for readers that look there.
        reals(k, pod::BlendColour, &m.blend.constant[0], 4);
        reals(k, pod::BlendFactorArray, &m.blend.constant[0], 4);
        if (!m.userData.empty()) k.raw(pod::MaterialUserData, m.userData.data(), m.userData.size());
        if (pbr) {
            reals(k, pod::Metallicity, &m.metallic, 1, false);
            reals(k, pod::Roughness, &m.roughness, 1, false);
            reals(k, pod::Ior, &m.ior, 1, false);
            reals(k, pod::Reflectivity, &m.reflectivity, 1, false);
            if (m.emissive != glm::vec3(0.0f)) {
                int big = 0;
                for (int c = 1; c < 3; ++c)
                    if (std::fabs(m.diffuse[c]) > std::fabs(m.diffuse[big])) big = c;
                const float amount = m.emissive[big] / m.diffuse[big];
                reals(k, pod::Emission, &amount, 1, false);
            }
        }
        k.close(pod::MaterialBlock);
    }

    void mesh(Sink& k, size_t index) {
        const Mesh& m = m_scene.meshes[index];
        const MeshPlan& p = m_meshes[index];
        k.open(pod::MeshBlock);
        k.u32(pod::NumVertices, m.vertexCount);
        k.u32(pod::NumFaces, p.numFaces);
        k.u32(pod::NumUvwChannels, p.uvSets);
        k.u32(pod::NumStrips, static_cast<uint32_t>(p.strips.size()));
        if (!p.strips.empty()) k.words(pod::StripLength, p.strips);
        if (p.interleaved) {
            std::vector<uint8_t> bytes;
            std::vector<SwapField> fields;
            if (p.verbatim) {
                const size_t size = static_cast<size_t>(
                    std::min<uint64_t>(p.verbatim->bytes.size, uint64_t(p.stride) * m.vertexCount));
                bytes.assign(p.verbatim->bytes.data, p.verbatim->bytes.data + size);
            } else {
                bytes.assign(size_t(p.stride) * m.vertexCount, 0);
                for (const AttrPlan& a : p.attrs)
                    for (uint32_t v = 0; v < m.vertexCount; ++v)
                        std::memcpy(bytes.data() + size_t(v) * p.stride + a.offset,
                                    a.stream->bytes.data + size_t(v) * a.stream->stride + a.attr->offset,
                                    a.size);
            }
            for (const AttrPlan& a : p.attrs)
                if (a.unit > 1) fields.push_back({a.offset, a.unit, a.size / a.unit});
            k.data(pod::InterleavedDataList, bytes, p.stride, fields);
        }
        k.u32(pod::MaxNumBonesPerBatch, p.maxBones);
        k.u32(pod::NumBoneBatches, static_cast<uint32_t>(p.batchCounts.size()));
        if (!p.batchCounts.empty()) {
            k.words(pod::BoneBatchIndexList, p.batchBones);
            k.words(pod::NumBoneIndicesPerBatch, p.batchCounts);
            k.words(pod::BoneOffsetPerBatch, p.batchOffsets);
        }
        if (m.positionUnpack != glm::mat4(1.0f))
            reals(k, pod::UnpackMatrix, glm::value_ptr(m.positionUnpack), 16);
        if (p.meshType != 0) k.u32(pod::MeshType, p.meshType);

        // Index list: 16- or 32-bit, never interleaved.
        const uint32_t isize = static_cast<uint32_t>(componentSize(p.indexType));
        const uint32_t itype = static_cast<uint32_t>(
            p.indexType == ComponentType::UInt32 ? pod::DataType::UnsignedInt : pod::DataType::UnsignedShort);
        k.open(pod::VertexIndexList);
        k.u32(pod::DataBlockType, itype);
        k.u32(pod::DataBlockComponents, p.indexed ? 1 : 0);
        k.u32(pod::DataBlockStride, p.indexed ? isize : 0);
        if (p.indexed) {
            std::vector<uint8_t> bytes;
            if (m.indices.type == ComponentType::UInt8) {
                bytes.resize(size_t(p.indexCount) * 2);
                for (uint32_t i = 0; i < p.indexCount; ++i)
                    bytes[2 * i] = m.indices.bytes.data[i], bytes[2 * i + 1] = 0;
            } else {
                bytes.assign(m.indices.bytes.data, m.indices.bytes.data + size_t(p.indexCount) * isize);
            }
            k.data(pod::DataBlockData, bytes, isize, {{0, isize, 1}});
        }
        k.close(pod::VertexIndexList);

        // Every attribute list, unused ones with 0 components (as the exporters write them).
        auto list = [&](uint32_t id, const AttrPlan* a) {
            k.open(id);
            k.u32(pod::DataBlockType, a ? a->podType : static_cast<uint32_t>(pod::DataType::Float));
            k.u32(pod::DataBlockComponents, a ? a->n : 0);
            k.u32(pod::DataBlockStride, a ? (p.interleaved ? p.stride : a->size) : 0);
            if (a && p.interleaved) {
                k.u32(pod::DataBlockData, a->offset);
            } else if (a) {
                std::vector<uint8_t> bytes(size_t(a->size) * m.vertexCount);
                for (uint32_t v = 0; v < m.vertexCount; ++v)
                    std::memcpy(bytes.data() + size_t(v) * a->size,
                                a->stream->bytes.data + size_t(v) * a->stream->stride + a->attr->offset,
                                a->size);
                std::vector<SwapField> fields;
                if (a->unit > 1) fields.push_back({0, a->unit, a->size / a->unit});
                k.data(pod::DataBlockData, bytes, a->size, fields);
            } else if (p.interleaved) {
                k.u32(pod::DataBlockData, 0);
            }
            k.close(id);
        };
        auto find = [&](Semantic sem, uint32_t set) -> const AttrPlan* {
            for (const AttrPlan& a : p.attrs)
                if (a.attr->semantic == sem && a.attr->set == set) return &a;
            return nullptr;
        };
        list(pod::VertexList, find(Semantic::Position, 0));
        list(pod::NormalList, find(Semantic::Normal, 0));
        list(pod::TangentList, find(Semantic::Tangent, 0));
        list(pod::BinormalList, find(Semantic::Binormal, 0));
        for (uint32_t u = 0; u < p.uvSets; ++u) list(pod::UvwList, find(Semantic::TexCoord, u));
        list(pod::VertexColourList, find(Semantic::Color, 0));
        list(pod::BoneIndexList, find(Semantic::BoneIndices, 0));
        list(pod::BoneWeightList, find(Semantic::BoneWeights, 0));
        if (!m.adjacency.empty()) {
            k.open(pod::AdjacencyIndexList);
            k.u32(pod::DataBlockType, itype);
            k.u32(pod::DataBlockComponents, 1);
            k.u32(pod::DataBlockStride, isize);
            std::vector<uint8_t> bytes(m.adjacency.begin(), m.adjacency.end());
            k.data(pod::DataBlockData, bytes, isize, {{0, isize, 1}});
            k.close(pod::AdjacencyIndexList);
        }
        k.close(pod::MeshBlock);
    }

    bool node(Sink& k, size_t n) {
        const Node& nd = m_scene.nodes[n];
        k.open(pod::NodeBlock);
        k.i32(pod::NodeIndex,
              nd.kind == NodeKind::Mesh || nd.kind == NodeKind::Light || nd.kind == NodeKind::Camera
                  ? nd.object
                  : -1);
        k.str(pod::NodeName, nd.name);
        k.i32(pod::NodeMaterialIndex,
              nd.kind == NodeKind::Mesh && !nd.materials.empty() ? nd.materials[0] : -1);
        k.i32(pod::NodeParentIndex, remap(nd.parent));
        const NodeAnim& a = m_anim[n];
        uint32_t flags = 0;
        for (int s = 0; s < kSlots; ++s)
            if (animated(a.slot[s])) flags |= kSlotDefs[s].flag;
        k.u32(pod::AnimationFlags, flags);
        std::vector<uint32_t> values, element;
        for (int s = 0; s < kSlots; ++s) {
            if ((s == kM) != a.useMatrix) continue;
            const SlotDef& d = kSlotDefs[s];
            const uint32_t frames = animated(a.slot[s]) ? m_frames : 1;
            values.clear();
            values.reserve(size_t(frames) * d.stored);
            if (!m_o.indexedAnimation || frames == 1) {
                for (uint32_t f = 0; f < frames; ++f)
                    if (!storedChannel(n, s, f, values)) return false;
                k.words(d.dataId, values);
                continue;
            }
            // Indexed animation: each distinct element once, one float offset per frame (notes 4).
            std::map<std::vector<uint32_t>, uint32_t> offsetOf;
            std::vector<uint32_t> index;
            index.reserve(frames);
            for (uint32_t f = 0; f < frames; ++f) {
                element.clear();
                if (!storedChannel(n, s, f, element)) return false;
                auto it = offsetOf.emplace(element, static_cast<uint32_t>(values.size()));
                if (it.second) values.insert(values.end(), element.begin(), element.end());
                index.push_back(it.first->second);
            }
            k.words(d.dataId, values);
            k.words(d.indexId, index);
        }
        k.close(pod::NodeBlock);
        return m_error.empty();
    }

    // --- state ---------------------------------------------------------------------------------

    const Scene& m_scene;
    const PodWriteOptions& m_o;
    std::vector<std::string>* m_notes;
    std::string m_error;
    float m_fps = 30.0f;
    uint32_t m_meshNodes = 0;
    std::vector<int32_t> m_order;     // written node -> scene node
    std::vector<int32_t> m_newIndex;  // scene node -> written node
    std::vector<Adjust> m_adjust;
    std::vector<NodeAnim> m_anim;
    std::vector<TrackPlan> m_fov;  // per camera
    uint32_t m_clipFrames = 0, m_frames = 0, m_shift = 0;
    std::vector<MeshPlan> m_meshes;
};

}  // namespace

bool writePod(const Scene& scene, const PodWriteOptions& options, std::vector<uint8_t>& out,
              std::string& error, std::vector<std::string>* notes) {
    Writer writer(scene, options, notes);
    return writer.run(out, error);
}

}  // namespace esv
