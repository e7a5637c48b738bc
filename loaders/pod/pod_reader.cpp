// POD reader: PowerVR POD 2.0/2.1 files to the scene model.
//
// Two phases. The parser walks the tag stream once and records, per container, where each known
// leaf block lies in the file buffer (nothing is copied). The builder then maps those blocks to the
// scene: vertex streams are views into the file buffer, numbers are decoded (float or 16.16 fixed
// point), references are range-checked with the offset of the block that holds them.
//
// What the specification leaves vague follows pod-reader-notes.md (the legacy CPVRTModelPOD reader
// where generations disagree). Choices of this reader:
// - Unknown blocks are skipped by length; their children, if they were containers, are read at the
//   current level and skipped too (legacy behaviour). The grammar itself nests at most four deep
//   (file / scene / mesh / data list), and the parser only descends into known containers in their
//   known places, so the depth is bounded by construction.
// - Problems come in two kinds. Structural ones (truncated blocks, missing end tags of containers,
//   version, endianness, Num* counts that disagree with the blocks, references that cannot be
//   repaired) fail the load. Recoverable violations (a stray end tag, a material index out of range,
//   an index array longer than needed) are repaired and reported as warnings in the import report,
//   or as problems in check mode (LoadOptions::collectAll), which lists every one with its offset.
// - Interleaved attributes whose offset or stride is not a multiple of their component size are
//   re-packed once into an aligned copy with a warning (WebGL and several GLES drivers reject or
//   slow down unaligned attributes; notes 6). Everything else stays a view into the file.
// - Camera and light nodes look along the node's -Y axis with -Z up (notes 3). The renderer's
//   convention is -Z forward, +Y up, so those nodes get objectTransform = rotation of -90 degrees
//   about X (maps -Z to -Y and +Y to -Z); it is not inherited by children.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "loaders/byte_reader.h"
#include "loaders/diagnostics.h"
#include "loaders/formats.h"
#include "loaders/pod/pod_format.h"

namespace esv {

namespace {

std::string num(uint64_t v) { return std::to_string(v); }
std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(v));
    return buf;
}
std::string nameOf(uint32_t id) {
    const char* name = pod::blockName(id);
    return name ? std::string(name) : "block " + num(id);
}
std::string join(const std::string& where, uint32_t id) { return where + " / " + nameOf(id); }

// ---------------------------------------------------------------------------------------------
// Phase 1: the block stream

// One leaf block as found in the file: its start tag's offset and its payload.
struct Leaf {
    uint64_t offset = 0;
    const uint8_t* data = nullptr;
    uint32_t size = 0;
    bool present = false;

    uint32_t u32At(size_t index) const {  // caller checks (index + 1) * 4 <= size
        const uint8_t* p = data + index * 4;
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    size_t words() const { return size / 4; }
    uint64_t valueOffset(size_t index) const { return offset + 8 + uint64_t(index) * 4; }
};

// Phase 1 keeps 16 bytes per leaf block (no fixed tables per container), so that what the parser
// stores stays proportional to the file, whatever mix of blocks it holds.
struct LeafEntry {
    uint64_t offset;  // of the start tag; the payload follows 8 bytes later
    uint32_t id;
    uint32_t size;
};
struct Range {  // a container's direct leaves in RawFile::leaves
    uint32_t first = 0;
    uint32_t count = 0;
};
struct RawContainer {
    uint64_t offset = 0;
    Range leaves;
};
struct RawDataList {  // a POD Data Block (2.9) inside a mesh attribute list
    uint64_t offset = 0;
    uint32_t id = 0;
    Range leaves;
};
struct RawMesh {
    uint64_t offset = 0;
    Range leaves;
    uint32_t firstList = 0, listCount = 0;  // its attribute lists in RawFile::lists, in file order
};
struct RawFile {
    const uint8_t* base = nullptr;
    std::vector<LeafEntry> leaves;
    std::vector<RawDataList> lists;
    Leaf version, exportOptions, history;
    uint64_t sceneOffset = 0;
    bool hasScene = false;
    Range scene;
    std::vector<RawContainer> cameras, lights, nodes, textures, materials;
    std::vector<RawMesh> meshes;
    size_t unknownBlocks = 0;
    uint64_t trailingBytes = 0;
};

// The leaves of one container, looked up by block id (the last one wins when a block repeats).
class LeafView {
public:
    LeafView(const RawFile& file, Range range) : m_file(file), m_range(range) {}
    Leaf operator[](uint32_t id) const {
        for (uint32_t i = m_range.count; i-- > 0;) {
            const LeafEntry& e = m_file.leaves[m_range.first + i];
            if (e.id == id) return Leaf{e.offset, m_file.base + e.offset + 8, e.size, true};
        }
        return Leaf{};
    }

private:
    const RawFile& m_file;
    Range m_range;
};

struct Tag {
    uint64_t offset = 0;
    uint32_t id = 0;
    uint32_t length = 0;
    bool end = false;
};

// The ids a container holds as leaves: [base, base + span) except the container ids.
struct LeafIds {
    uint32_t base;
    uint32_t span;
    bool contains(uint32_t id) const { return id >= base && id - base < span && !pod::isContainer(id); }
};
constexpr LeafIds kSceneLeaves{2000, 20}, kCameraLeaves{8000, 5}, kLightLeaves{7000, 8}, kMeshLeaves{6000, 23},
    kNodeLeaves{5000, 18}, kTextureLeaves{4000, 1}, kMaterialLeaves{3000, 42}, kDataLeaves{9000, 4};

class Parser {
public:
    Parser(const uint8_t* data, size_t size, Diagnostics& diag) : m_r(data, size), m_diag(diag) {}

    // Walks the whole stream into `out`; false after a structural error (already reported).
    bool parse(RawFile& out) {
        m_file = &out;
        out.base = m_r.data();
        if (m_r.size() >= 4 && ByteReader(m_r.data(), m_r.size()).u32() == pod::kEndiannessMismatch) {
            m_diag.fatal(0, "", "this POD file was written big-endian (its version tag reads 0xE8030000); "
                                "only little-endian POD files can be read");
            return false;
        }
        if (m_r.size() < 8) {
            m_diag.fatal(0, "", "the file is too short to be a POD file (" + num(m_r.size()) + " bytes)");
            return false;
        }
        Tag t;
        while (next(t)) {
            if (t.end) {
                if (pod::blockName(t.id))
                    m_diag.violation(t.offset, "", "unexpected end tag of a " + nameOf(t.id) + " block");
                if (!skip(t, "")) return false;
                continue;
            }
            if (t.id == pod::Scene) {
                if (t.length != 0) containerLength(t, "scene");
                out.hasScene = true;
                out.sceneOffset = t.offset;
                if (!scene(t)) return false;
                // The legacy reader stops at the scene's end tag; anything after it is not read.
                out.trailingBytes = m_r.remaining();
                return true;
            }
            if (pod::isContainer(t.id)) {
                m_diag.violation(t.offset, "", "a " + nameOf(t.id) + " block outside the scene; skipped");
                continue;
            }
            Leaf leaf;
            if (!readLeaf(t, "", leaf)) return false;
            switch (t.id) {
                case pod::Version: out.version = leaf; break;
                case pod::ExportOptions: out.exportOptions = leaf; break;
                case pod::History: out.history = leaf; break;
                default: misplacedOrUnknown(t, ""); break;
            }
        }
        if (!m_r.ok() || m_r.remaining() != 0) {
            m_diag.fatal(m_r.offset(), "", "the file ends inside a block tag (" + num(m_r.remaining()) + " stray bytes)");
            return false;
        }
        return true;
    }

private:
    // Reads the next tag; false at the end of the data (fewer than 8 bytes left).
    bool next(Tag& t) {
        if (m_r.remaining() < 8) return false;
        t.offset = m_r.offset();
        uint32_t id = m_r.u32();
        t.length = m_r.u32();
        t.end = (id & pod::kEndTagBit) != 0;
        t.id = id & ~pod::kEndTagBit;
        return true;
    }

    bool skip(const Tag& t, const std::string& where) {
        if (t.length > m_r.remaining()) {
            m_diag.fatal(t.offset, where.empty() ? nameOf(t.id) : join(where, t.id),
                         "block length " + num(t.length) + " runs past the end of the file (" +
                             num(m_r.remaining()) + " bytes left)");
            return false;
        }
        m_r.skip(t.length);
        return true;
    }

    void containerLength(const Tag& t, const std::string& where) {
        m_diag.violation(t.offset, where, "container block has length " + num(t.length) +
                                              "; containers have length 0 and hold their children");
    }

    void misplacedOrUnknown(const Tag& t, const std::string& where) {
        if (pod::blockName(t.id))
            m_diag.violation(t.offset, where, "a " + nameOf(t.id) + " block (" + num(t.id) + ") does not belong here; skipped");
        else
            ++m_file->unknownBlocks;
    }

    // Takes the payload of leaf `t` and consumes its end tag, which must follow right where the
    // length says the block ends.
    bool readLeaf(const Tag& t, const std::string& where, Leaf& leaf) {
        if (t.length > m_r.remaining()) {
            m_diag.fatal(t.offset, where.empty() ? nameOf(t.id) : join(where, t.id),
                         "block length " + num(t.length) + " runs past the end of the file (" +
                             num(m_r.remaining()) + " bytes left)");
            return false;
        }
        leaf = Leaf{t.offset, m_r.current(), t.length, true};
        m_r.skip(t.length);
        if (m_r.remaining() >= 8) {
            ByteReader peek(m_r.current(), 8);
            uint32_t id = peek.u32();
            uint32_t length = peek.u32();
            if (id == (t.id | pod::kEndTagBit)) {
                m_r.skip(8);
                if (length != 0) {
                    m_diag.violation(t.offset, where.empty() ? nameOf(t.id) : join(where, t.id),
                                     "end tag has length " + num(length) + "; end tags have length 0");
                }
                return true;
            }
        }
        // Unknown ids may be containers of a later format version: no end tag expected here.
        if (pod::blockName(t.id))
            m_diag.violation(t.offset, where.empty() ? nameOf(t.id) : join(where, t.id),
                             "no end tag where the block's length (" + num(t.length) + ") says it ends");
        return true;
    }

    // Reads the children of container `open` until its end tag. Leaves with ids in `ids` are
    // recorded in `out` (appended to RawFile::leaves when the container ends); `onContainer(tag)`
    // returns 1 when it read a child container, 0 after a structural error, -1 for containers that
    // do not belong here. The grammar nests at most 3 containers deep (scene / mesh / list).
    template <class OnContainer>
    bool container(const Tag& open, const std::string& where, LeafIds ids, Range& out, OnContainer onContainer) {
        std::vector<LeafEntry>& local = m_scratch[std::min<size_t>(m_depth, m_scratch.size() - 1)];
        ++m_depth;
        local.clear();
        std::array<uint8_t, 64> seen{};
        bool ok = true;
        Tag t;
        for (;;) {
            if (!next(t)) {
                m_diag.fatal(open.offset, where, "the file ends before the block's end tag");
                ok = false;
                break;
            }
            if (t.end) {
                if (t.id == open.id) {
                    if (t.length != 0)
                        m_diag.violation(t.offset, where, "end tag has length " + num(t.length) + "; end tags have length 0");
                    break;
                }
                if (pod::blockName(t.id))
                    m_diag.violation(t.offset, where, "unexpected end tag of a " + nameOf(t.id) + " block");
                if (!skip(t, where)) {
                    ok = false;
                    break;
                }
                continue;
            }
            if (pod::isContainer(t.id)) {
                if (t.length != 0) containerLength(t, join(where, t.id));
                int handled = onContainer(t);
                if (handled == 0) {
                    ok = false;
                    break;
                }
                if (handled < 0)
                    m_diag.violation(t.offset, where, "a " + nameOf(t.id) + " block does not belong here; its children are skipped");
                continue;
            }
            Leaf leaf;
            if (!readLeaf(t, where, leaf)) {
                ok = false;
                break;
            }
            if (!ids.contains(t.id)) {
                misplacedOrUnknown(t, where);
                continue;
            }
            if (seen[t.id - ids.base]++)
                m_diag.violation(t.offset, join(where, t.id), "the block appears twice; the last one is used");
            local.push_back({t.offset, t.id, t.length});
        }
        --m_depth;
        out.first = static_cast<uint32_t>(m_file->leaves.size());
        out.count = static_cast<uint32_t>(local.size());
        m_file->leaves.insert(m_file->leaves.end(), local.begin(), local.end());
        return ok;
    }
    static int noContainers(const Tag&) { return -1; }

    bool scene(const Tag& open) {
        RawFile& f = *m_file;
        auto simple = [&](std::vector<RawContainer>& list, const char* what, LeafIds ids, const Tag& t) {
            RawContainer c;
            c.offset = t.offset;
            const std::string w = std::string("scene / ") + what + " " + num(list.size());
            bool ok = container(t, w, ids, c.leaves, noContainers);
            list.push_back(c);
            return ok ? 1 : 0;
        };
        auto onContainer = [&](const Tag& t) -> int {
            switch (t.id) {
                case pod::CameraBlock: return simple(f.cameras, "camera", kCameraLeaves, t);
                case pod::LightBlock: return simple(f.lights, "light", kLightLeaves, t);
                case pod::MeshBlock: return mesh(t) ? 1 : 0;
                case pod::NodeBlock: return simple(f.nodes, "node", kNodeLeaves, t);
                case pod::TextureBlock: return simple(f.textures, "texture", kTextureLeaves, t);
                case pod::MaterialBlock: return simple(f.materials, "material", kMaterialLeaves, t);
                default: return -1;
            }
        };
        return container(open, "scene", kSceneLeaves, f.scene, onContainer);
    }

    bool mesh(const Tag& open) {
        RawFile& f = *m_file;
        RawMesh m;
        m.offset = open.offset;
        m.firstList = static_cast<uint32_t>(f.lists.size());
        const std::string where = "scene / mesh " + num(f.meshes.size());
        size_t uvw = 0;
        auto onContainer = [&](const Tag& t) -> int {
            if (t.id != pod::VertexIndexList && t.id != pod::AdjacencyIndexList &&
                !(t.id >= pod::VertexList && t.id <= pod::BoneWeightList))
                return -1;
            RawDataList list;
            list.offset = t.offset;
            list.id = t.id;
            std::string w = t.id == pod::UvwList ? where + " / UVW list " + num(uvw++) : join(where, t.id);
            bool ok = container(t, w, kDataLeaves, list.leaves, noContainers);
            f.lists.push_back(list);
            return ok ? 1 : 0;
        };
        bool ok = container(open, where, kMeshLeaves, m.leaves, onContainer);
        m.listCount = static_cast<uint32_t>(f.lists.size() - m.firstList);
        f.meshes.push_back(m);
        return ok;
    }

    ByteReader m_r;
    Diagnostics& m_diag;
    RawFile* m_file = nullptr;
    std::array<std::vector<LeafEntry>, 4> m_scratch;  // one per nesting level
    size_t m_depth = 0;
};

// ---------------------------------------------------------------------------------------------
// Phase 2: blocks to the scene model

// POD data type (9000) -> stored attribute format (notes 7). Packed types store n = 1 per vertex.
struct TypeInfo {
    bool valid;
    ComponentType type;
    bool normalized;
    Swizzle swizzle;
    uint8_t packedComponents;  // logical components of one packed 32-bit word; 0 = not packed
    uint8_t size;              // bytes per stored component (or per packed word)
    const char* name;
};
constexpr TypeInfo kTypes[] = {
    {false, ComponentType::Float32, false, Swizzle::Identity, 0, 4, "none"},
    {true, ComponentType::Float32, false, Swizzle::Identity, 0, 4, "float"},
    {true, ComponentType::Int32, false, Swizzle::Identity, 0, 4, "int"},
    {true, ComponentType::UInt16, false, Swizzle::Identity, 0, 2, "unsigned short"},
    {true, ComponentType::UInt8, true, Swizzle::ABGR, 4, 4, "RGBA"},  // R in the top byte: memory a,b,g,r
    {true, ComponentType::UInt8, true, Swizzle::BGRA, 4, 4, "ARGB"},  // memory b,g,r,a
    {true, ComponentType::UInt8, true, Swizzle::BGRA, 4, 4, "D3DCOLOR"},
    {true, ComponentType::UInt8, false, Swizzle::Identity, 4, 4, "UBYTE4"},
    {true, ComponentType::Int2_10_10_10, true, Swizzle::Identity, 3, 4, "DEC3N"},  // /511, w unused
    {true, ComponentType::Fixed16_16, false, Swizzle::Identity, 0, 4, "fixed 16.16"},
    {true, ComponentType::UInt8, false, Swizzle::Identity, 0, 1, "unsigned byte"},
    {true, ComponentType::Int16, false, Swizzle::Identity, 0, 2, "short"},
    {true, ComponentType::Int16, true, Swizzle::Identity, 0, 2, "normalised short"},
    {true, ComponentType::Int8, false, Swizzle::Identity, 0, 1, "byte"},
    {true, ComponentType::Int8, true, Swizzle::Identity, 0, 1, "normalised byte"},
    {true, ComponentType::UInt8, true, Swizzle::Identity, 0, 1, "unsigned normalised byte"},
    {true, ComponentType::UInt16, true, Swizzle::Identity, 0, 2, "unsigned normalised short"},
    {true, ComponentType::UInt32, false, Swizzle::Identity, 0, 4, "unsigned int"},
    {true, ComponentType::UInt8, true, Swizzle::Identity, 4, 4, "ABGR"},  // memory r,g,b,a
    {true, ComponentType::Float16, false, Swizzle::Identity, 0, 2, "half float"},
};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == static_cast<size_t>(pod::DataType::Count));

// Node channels: animation array, its index array, the deprecated static block, the flag bit.
struct ChannelDef {
    uint32_t dataId, indexId, oldId, flag;
    uint32_t stored;  // floats per stored element (scale stores 7, only 0-2 are used: notes 4)
    uint32_t used;    // floats per key
    Channel channel;
};
constexpr ChannelDef kChannels[] = {
    {pod::AnimationPosition, pod::AnimationPositionIndex, pod::NodePosition, pod::kHasPositionAnimation, 3, 3, Channel::Translation},
    {pod::AnimationRotation, pod::AnimationRotationIndex, pod::NodeRotation, pod::kHasRotationAnimation, 4, 4, Channel::Rotation},
    {pod::AnimationScale, pod::AnimationScaleIndex, pod::NodeScale, pod::kHasScaleAnimation, 7, 3, Channel::Scale},
    {pod::AnimationMatrix, pod::AnimationMatrixIndex, pod::NodeMatrix, pod::kHasMatrixAnimation, 16, 16, Channel::Matrix},
};

struct ListDef {
    uint32_t id;
    Semantic semantic;
};
constexpr ListDef kVertexLists[] = {
    {pod::VertexList, Semantic::Position},       {pod::NormalList, Semantic::Normal},
    {pod::TangentList, Semantic::Tangent},       {pod::BinormalList, Semantic::Binormal},
    {pod::VertexColourList, Semantic::Color},    {pod::BoneIndexList, Semantic::BoneIndices},
    {pod::BoneWeightList, Semantic::BoneWeights},
};

// Material texture blocks -> slots. The bump map slot holds normal maps in every exporter and SDK
// sample (Bumpmap: MarbleNormalMap.pvr), so it maps to Normal. Specular level has no slot of its
// own; it is kept in Specular when no specular colour texture is given.
struct TextureDef {
    uint32_t id;
    TextureSlot slot;
};
constexpr TextureDef kTextureBlocks[] = {
    {pod::DiffuseTextureIndex, TextureSlot::Diffuse},
    {pod::AmbientTextureIndex, TextureSlot::Ambient},
    {pod::SpecularColourTextureIndex, TextureSlot::SpecularColour},
    {pod::BumpMapTextureIndex, TextureSlot::Normal},
    {pod::EmissiveTextureIndex, TextureSlot::Emissive},
    {pod::GlossinessTextureIndex, TextureSlot::Shininess},
    {pod::OpacityTextureIndex, TextureSlot::Opacity},
    {pod::ReflectionTextureIndex, TextureSlot::Reflection},
    {pod::RefractionTextureIndex, TextureSlot::Refraction},
    {pod::MetallicityTextureIndex, TextureSlot::Metallic},
    {pod::RoughnessTextureIndex, TextureSlot::Roughness},
};

bool blendFactorFromGl(uint32_t v, BlendFactor& out, bool& usesFactorArray) {
    switch (v) {
        case 0: out = BlendFactor::Zero; return true;
        case 1: out = BlendFactor::One; return true;
        // POD's own BLEND_FACTOR / ONE_MINUS_BLEND_FACTOR (notes 2): the constant colour, taken
        // from the blend factor array.
        case 2: out = BlendFactor::ConstantColor; usesFactorArray = true; return true;
        case 3: out = BlendFactor::OneMinusConstantColor; usesFactorArray = true; return true;
        case 0x0300: out = BlendFactor::SrcColor; return true;
        case 0x0301: out = BlendFactor::OneMinusSrcColor; return true;
        case 0x0302: out = BlendFactor::SrcAlpha; return true;
        case 0x0303: out = BlendFactor::OneMinusSrcAlpha; return true;
        case 0x0304: out = BlendFactor::DstAlpha; return true;
        case 0x0305: out = BlendFactor::OneMinusDstAlpha; return true;
        case 0x0306: out = BlendFactor::DstColor; return true;
        case 0x0307: out = BlendFactor::OneMinusDstColor; return true;
        case 0x0308: out = BlendFactor::SrcAlphaSaturate; return true;
        case 0x8001: out = BlendFactor::ConstantColor; return true;
        case 0x8002: out = BlendFactor::OneMinusConstantColor; return true;
        case 0x8003: out = BlendFactor::ConstantAlpha; return true;
        case 0x8004: out = BlendFactor::OneMinusConstantAlpha; return true;
        default: return false;
    }
}

bool blendOpFromGl(uint32_t v, BlendOp& out) {
    switch (v) {
        case 0x8006: out = BlendOp::Add; return true;
        case 0x8007: out = BlendOp::Min; return true;
        case 0x8008: out = BlendOp::Max; return true;
        case 0x800A: out = BlendOp::Subtract; return true;
        case 0x800B: out = BlendOp::ReverseSubtract; return true;
        default: return false;
    }
}

std::string leafString(const Leaf& leaf) {
    if (!leaf.present || leaf.size == 0) return {};
    const char* p = reinterpret_cast<const char*>(leaf.data);
    size_t n = 0;
    while (n < leaf.size && p[n] != '\0') ++n;
    return std::string(p, n);
}

class Builder {
public:
    Builder(const RawFile& raw, std::shared_ptr<const std::vector<uint8_t>> bytes, Diagnostics& diag, Scene& scene)
        : m_raw(raw), m_bytes(std::move(bytes)), m_diag(diag), m_scene(scene), m_budget(m_bytes->size() / 2 + (16u << 20)) {}

    void build() {
        header();
        if (m_diag.failed() && !m_diag.collectAll()) return;
        sceneValues();
        counts();
        if (m_diag.failed() && !m_diag.collectAll()) return;
        // Sizes from the blocks actually present (each at least 16 bytes of the file).
        m_scene.textures.reserve(m_raw.textures.size());
        m_scene.materials.reserve(m_raw.materials.size());
        m_scene.cameras.reserve(m_raw.cameras.size());
        m_scene.lights.reserve(m_raw.lights.size());
        m_scene.meshes.reserve(m_raw.meshes.size());
        m_meshJoints.reserve(m_raw.meshes.size());
        m_scene.nodes.reserve(m_raw.nodes.size());
        for (size_t i = 0; i < m_raw.textures.size(); ++i) texture(i);
        for (size_t i = 0; i < m_raw.materials.size(); ++i) material(i);
        for (size_t i = 0; i < m_raw.cameras.size(); ++i) camera(i);
        for (size_t i = 0; i < m_raw.lights.size(); ++i) light(i);
        for (size_t i = 0; i < m_raw.meshes.size(); ++i) mesh(i);
        for (size_t i = 0; i < m_raw.nodes.size(); ++i) node(i);
        if (m_diag.failed() && !m_diag.collectAll()) return;
        cameraFovTracks();
        objectNames();
        skins();
        finishAnimation();
    }

private:
    // --- value helpers -------------------------------------------------------------------------

    float real(uint32_t bits) const {
        if (m_fixed) return static_cast<float>(static_cast<int32_t>(bits)) / 65536.0f;
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    static float realFloat(uint32_t bits) {
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }

    // A 4-byte leaf. False (value untouched) when absent or too short.
    bool u32(const Leaf& leaf, const std::string& where, uint32_t& out) {
        if (!leaf.present) return false;
        if (leaf.size != 4) {
            m_diag.violation(leaf.offset, where, "holds " + num(leaf.size) + " bytes; expected one 32-bit value");
            if (leaf.size < 4) return false;
        }
        out = leaf.u32At(0);
        return true;
    }
    bool i32(const Leaf& leaf, const std::string& where, int32_t& out) {
        uint32_t v;
        if (!u32(leaf, where, v)) return false;
        out = static_cast<int32_t>(v);
        return true;
    }
    // `n` Float/Fixed values (fixed point when the scene flag says so and `fixedAllowed`).
    bool reals(const Leaf& leaf, const std::string& where, float* out, size_t n, bool fixedAllowed = true) {
        if (!leaf.present) return false;
        if (leaf.size != n * 4) {
            m_diag.violation(leaf.offset, where, "holds " + num(leaf.size) + " bytes; expected " + num(n) + " 32-bit values");
            if (leaf.size < n * 4) return false;
        }
        for (size_t i = 0; i < n; ++i) out[i] = fixedAllowed ? real(leaf.u32At(i)) : realFloat(leaf.u32At(i));
        return true;
    }
    ByteView view(const uint8_t* data, size_t size) const { return ByteView{m_bytes, data, size}; }
    LeafView leaves(Range range) const { return LeafView(m_raw, range); }
    // The mesh's attribute list `id` (the last one when it repeats), or null.
    const RawDataList* listOf(const RawMesh& mesh, uint32_t id) const {
        for (uint32_t i = mesh.listCount; i-- > 0;)
            if (m_raw.lists[mesh.firstList + i].id == id) return &m_raw.lists[mesh.firstList + i];
        return nullptr;
    }
    std::vector<const RawDataList*> uvwLists(const RawMesh& mesh) const {
        std::vector<const RawDataList*> out;
        for (uint32_t i = 0; i < mesh.listCount; ++i)
            if (m_raw.lists[mesh.firstList + i].id == pod::UvwList) out.push_back(&m_raw.lists[mesh.firstList + i]);
        return out;
    }

    // --- file and scene ------------------------------------------------------------------------

    void header() {
        const Leaf& v = m_raw.version;
        if (!v.present) {
            m_diag.fatal(0, "", "no version block (1000): not a POD file");
            return;
        }
        std::string text = leafString(v);
        if (v.size != sizeof(pod::kVersionString) || text != pod::kVersionString) {
            m_diag.fatal(v.offset, "version", "version \"" + text + "\" (" + num(v.size) + " bytes) is not \"" +
                                                   pod::kVersionString + "\"");
        }
        if (!m_raw.hasScene) m_diag.fatal(0, "", "no scene block (1001)");
        // The history string is free text, often several lines ("Modified by: ..."): one line here.
        std::string history;
        for (char ch : leafString(m_raw.history)) {
            if (ch == '\n' || ch == '\r') {
                if (!history.empty() && history.back() != ' ') history += " | ";
            } else {
                history += ch;
            }
        }
        while (!history.empty() && (history.back() == ' ' || history.back() == '|')) history.pop_back();
        if (!history.empty()) m_diag.info("exported by: " + history);
        if (m_raw.unknownBlocks > 0) m_diag.info("skipped " + num(m_raw.unknownBlocks) + " unknown blocks");
        if (m_raw.trailingBytes > 0)
            m_diag.warn(m_raw.sceneOffset, "", num(m_raw.trailingBytes) + " bytes after the scene's end tag are ignored");
    }

    void sceneValues() {
        const LeafView s = leaves(m_raw.scene);
        const std::string w = "scene";
        uint32_t flags = 0;
        if (u32(s[pod::SceneFlags], join(w, pod::SceneFlags), flags)) {
            m_fixed = (flags & pod::kSceneFlagFixedPoint) != 0;
            if (m_fixed) m_diag.info("fixed-point file: non-vertex numbers are 16.16 and were converted to float");
            if (flags & ~pod::kSceneFlagFixedPoint)
                m_diag.warn(s[pod::SceneFlags].offset, join(w, pod::SceneFlags), "unknown scene flags " + hex(flags) + " ignored");
        }
        float c[3];
        // A colour that is not a number (exporters leave garbage in unused fields) is dropped: NaN
        // multiplied into every material's ambient would blank the channels it holds.
        auto colour = [&](uint32_t id, glm::vec3& out) {
            if (!reals(s[id], join(w, id), c, 3)) return;
            if (std::isfinite(c[0]) && std::isfinite(c[1]) && std::isfinite(c[2])) {
                out = glm::make_vec3(c);
            } else {
                m_diag.warn(s[id].offset, join(w, id), "holds a value that is not a finite number; ignored");
            }
        };
        colour(pod::ClearColour, m_scene.clearColor);
        colour(pod::AmbientColour, m_scene.ambient);
        float units = 1.0f;
        if (reals(s[pod::Units], join(w, pod::Units), &units, 1, false)) {
            if (std::isfinite(units) && units > 0.0f) {
                m_scene.metersPerUnit = units;
            } else {
                m_diag.violation(s[pod::Units].offset, join(w, pod::Units), "units " + std::to_string(units) + " is not a positive length; 1 m is used");
            }
        }
        uint32_t fps = 30;
        if (u32(s[pod::Fps], join(w, pod::Fps), fps) && fps == 0) {
            m_diag.violation(s[pod::Fps].offset, join(w, pod::Fps), "FPS is 0; 30 is used");
            fps = 30;
        } else if (!s[pod::Fps].present) {
            m_diag.info("no FPS block: 30 frames per second");
        }
        m_fps = static_cast<float>(fps);
        m_scene.animation.fps = m_fps;
        u32(s[pod::NumFrames], join(w, pod::NumFrames), m_frames);
        m_scene.animation.frames = m_frames;
        if (s[pod::SceneUserData].present) clipStartMark(s[pod::SceneUserData]);
    }

    // esview's writer's mark (pod::kClipStartUserData): the clip starts at that frame, after the rest
    // pose. Other user data is not used.
    void clipStartMark(const Leaf& user) {
        const std::string text(reinterpret_cast<const char*>(user.data), user.size);
        const std::string mark = pod::kClipStartUserData;
        uint32_t frame = 0;
        bool digits = text.size() > mark.size() && text.size() <= mark.size() + 9 && text.compare(0, mark.size(), mark) == 0;
        for (size_t i = mark.size(); digits && i < text.size(); ++i) {
            digits = text[i] >= '0' && text[i] <= '9';
            frame = frame * 10 + uint32_t(text[i] - '0');
        }
        if (!digits) {
            m_diag.info("scene user data (" + num(user.size) + " bytes) is not used");
            return;
        }
        if (frame + 1 >= m_frames) {
            m_diag.violation(user.offset, "scene / " + nameOf(pod::SceneUserData),
                             "the clip starts at frame " + num(frame) + " of " + num(m_frames) + "; frame 0 is used");
            return;
        }
        m_firstFrame = frame;
        m_scene.animation.frames = m_frames - frame;
        m_diag.info("the clip starts at frame " + num(frame) + " (esview's mark): frame 0 is the rest pose");
    }

    // Num* blocks must match the blocks present (both SDK readers refuse a scene otherwise).
    void counts() {
        const LeafView s = leaves(m_raw.scene);
        struct CountDef {
            uint32_t id;
            size_t actual;
            const char* what;
        };
        const CountDef defs[] = {
            {pod::NumCameras, m_raw.cameras.size(), "camera"},
            {pod::NumLights, m_raw.lights.size(), "light"},
            {pod::NumMeshes, m_raw.meshes.size(), "mesh"},
            {pod::NumNodes, m_raw.nodes.size(), "node"},
            {pod::NumTextures, m_raw.textures.size(), "texture"},
            {pod::NumMaterials, m_raw.materials.size(), "material"},
        };
        for (const CountDef& d : defs) {
            uint32_t declared = 0;
            bool present = u32(s[d.id], join("scene", d.id), declared);
            if (declared != d.actual)
                m_diag.fatal(present ? s[d.id].offset : m_raw.sceneOffset, join("scene", d.id),
                             "declares " + num(declared) + " but the scene holds " + num(d.actual) + " " + d.what +
                                 " blocks");
        }
        u32(s[pod::NumMeshNodes], join("scene", pod::NumMeshNodes), m_meshNodes);
        const uint64_t objects = uint64_t(m_meshNodes) + m_raw.lights.size() + m_raw.cameras.size();
        if (objects > m_raw.nodes.size()) {
            m_diag.fatal(s[pod::NumMeshNodes].present ? s[pod::NumMeshNodes].offset : m_raw.sceneOffset,
                         join("scene", pod::NumMeshNodes),
                         num(m_meshNodes) + " mesh nodes + " + num(m_raw.lights.size()) + " light nodes + " +
                             num(m_raw.cameras.size()) + " camera nodes exceed the " + num(m_raw.nodes.size()) + " nodes");
            m_meshNodes = static_cast<uint32_t>(std::min<uint64_t>(m_meshNodes, m_raw.nodes.size()));
        }
    }

    // --- textures, materials, cameras, lights ----------------------------------------------------

    void texture(size_t i) {
        const RawContainer& t = m_raw.textures[i];
        Texture tex;
        tex.path = leafString(leaves(t.leaves)[pod::TextureName]);
        tex.name = tex.path;
        if (tex.path.empty())
            m_diag.violation(t.offset, "scene / texture " + num(i), "the texture has no file name");
        m_scene.textures.push_back(std::move(tex));
    }

    void material(size_t i) {
        const RawContainer& raw = m_raw.materials[i];
        const LeafView L = leaves(raw.leaves);
        const std::string w = "scene / material " + num(i);
        Material m;
        m.name = leafString(L[pod::MaterialName]);
        // The legacy reader leaves colours and shininess zeroed when their blocks are absent.
        m.ambient = m.diffuse = m.specular = glm::vec3(0.0f);
        m.shininess = 0.0f;
        float v[4];
        if (reals(L[pod::MaterialOpacity], join(w, pod::MaterialOpacity), v, 1)) m.opacity = v[0];
        else m_diag.info("material " + num(i) + " has no opacity block: opacity 1");
        if (reals(L[pod::MaterialAmbient], join(w, pod::MaterialAmbient), v, 3)) m.ambient = glm::make_vec3(v);
        if (reals(L[pod::MaterialDiffuse], join(w, pod::MaterialDiffuse), v, 3)) m.diffuse = glm::make_vec3(v);
        if (reals(L[pod::MaterialSpecular], join(w, pod::MaterialSpecular), v, 3)) m.specular = glm::make_vec3(v);
        // POD stores shininess as a 0..1 fraction (the exporter's glossiness); the scene model holds
        // a Blinn-Phong exponent, which fixed-function GL and PowerVR-era engines got by x128.
        if (reals(L[pod::MaterialShininess], join(w, pod::MaterialShininess), v, 1)) m.shininess = v[0] * pod::kPodShininessScale;
        m.effectFile = leafString(L[pod::EffectFileName]);
        m.effectName = leafString(L[pod::EffectName]);

        for (const TextureDef& d : kTextureBlocks) {
            int32_t index = -1;
            if (!i32(L[d.id], join(w, d.id), index)) continue;
            m.texture(d.slot).texture = textureIndex(index, L[d.id], join(w, d.id));
        }
        int32_t level = -1;
        if (i32(L[pod::SpecularLevelTextureIndex], join(w, pod::SpecularLevelTextureIndex), level) && level >= 0) {
            level = textureIndex(level, L[pod::SpecularLevelTextureIndex], join(w, pod::SpecularLevelTextureIndex));
            if (level >= 0) {
                if (m.texture(TextureSlot::SpecularColour).texture < 0) {
                    m.texture(TextureSlot::SpecularColour).texture = level;
                    m_diag.info("material " + num(i) + ": specular level texture used as the specular texture");
                } else {
                    m_diag.warn(L[pod::SpecularLevelTextureIndex].offset, join(w, pod::SpecularLevelTextureIndex),
                                "a specular level texture beside a specular colour texture is not used");
                }
            }
        }

        // Blending (2.3.19-2.3.27): GL enums, defaults ONE/ZERO/ADD (notes 2).
        bool usesFactorArray = false;
        const std::pair<uint32_t, BlendFactor*> factors[] = {{pod::BlendSrcRgb, &m.blend.srcRgb},
                                                             {pod::BlendSrcAlpha, &m.blend.srcAlpha},
                                                             {pod::BlendDstRgb, &m.blend.dstRgb},
                                                             {pod::BlendDstAlpha, &m.blend.dstAlpha}};
        for (const auto& f : factors) {
            uint32_t gl = 0;
            if (!u32(L[f.first], join(w, f.first), gl)) continue;
            if (!blendFactorFromGl(gl, *f.second, usesFactorArray))
                m_diag.violation(L[f.first].offset, join(w, f.first), "unknown blend function " + hex(gl) + "; the default is used");
        }
        const std::pair<uint32_t, BlendOp*> ops[] = {{pod::BlendOpRgb, &m.blend.opRgb}, {pod::BlendOpAlpha, &m.blend.opAlpha}};
        for (const auto& o : ops) {
            uint32_t gl = 0;
            if (!u32(L[o.first], join(w, o.first), gl)) continue;
            if (!blendOpFromGl(gl, *o.second))
                m_diag.violation(L[o.first].offset, join(w, o.first), "unknown blend operation " + hex(gl) + "; ADD is used");
        }
        float colour[4] = {0, 0, 0, 0}, factor[4] = {0, 0, 0, 0};
        bool hasColour = reals(L[pod::BlendColour], join(w, pod::BlendColour), colour, 4);
        reals(L[pod::BlendFactorArray], join(w, pod::BlendFactorArray), factor, 4);
        m.blend.constant = glm::make_vec4(usesFactorArray ? factor : colour);
        if (usesFactorArray && hasColour && glm::make_vec4(colour) != glm::make_vec4(factor))
            m_diag.warn(L[pod::BlendColour].offset, join(w, pod::BlendColour),
                        "blend functions use both the blend colour and the blend factor; GLES has one constant, the factor is used");
        uint32_t flags = 0;
        if (u32(L[pod::MaterialFlags], join(w, pod::MaterialFlags), flags)) {
            m.blend.enabled = (flags & pod::kMaterialBlendingEnabled) != 0;
            if (flags & ~pod::kMaterialBlendingEnabled)
                m_diag.warn(L[pod::MaterialFlags].offset, join(w, pod::MaterialFlags), "unknown material flags " + hex(flags) + " ignored");
        }
        const Leaf& user = L[pod::MaterialUserData];
        if (user.present) m.userData.assign(user.data, user.data + user.size);

        // Extended PBR blocks (2.3.29-2.3.39): plain floats, never fixed point.
        bool pbr = false;
        if (reals(L[pod::Metallicity], join(w, pod::Metallicity), v, 1, false)) m.metallic = v[0], pbr = true;
        if (reals(L[pod::Roughness], join(w, pod::Roughness), v, 1, false)) m.roughness = v[0], pbr = true;
        if (reals(L[pod::Ior], join(w, pod::Ior), v, 1, false)) m.ior = v[0], pbr = true;
        if (reals(L[pod::Reflectivity], join(w, pod::Reflectivity), v, 1, false)) m.reflectivity = v[0], pbr = true;
        if (reals(L[pod::Emission], join(w, pod::Emission), v, 1, false)) {
            // Emission is the amount of self-illumination of the base colour.
            m.emissive = m.diffuse * v[0];
            pbr = true;
        }
        for (uint32_t id : {uint32_t(pod::SubSurfaceScattering), uint32_t(pod::SubSurfaceScatteringDepth),
                            uint32_t(pod::SubSurfaceScatteringColour), uint32_t(pod::EmissionLuminance)}) {
            if (L[id].present) {
                m_diag.info("material " + num(i) + ": " + nameOf(id) + " is not used by the viewer");
                pbr = true;
            }
        }
        if (m.texture(TextureSlot::Metallic).texture >= 0 || m.texture(TextureSlot::Roughness).texture >= 0) pbr = true;
        if (pbr) m.model = ShadingModel::MetalRough;
        m_scene.materials.push_back(std::move(m));
    }

    int32_t textureIndex(int32_t index, const Leaf& leaf, const std::string& where) {
        if (index >= -1 && index < static_cast<int32_t>(m_raw.textures.size())) return index;
        m_diag.violation(leaf.offset, where, "texture index " + std::to_string(index) + " out of range (" +
                                                 num(m_raw.textures.size()) + " textures); no texture is used");
        return -1;
    }

    int32_t nodeReference(int32_t index, const Leaf& leaf, const std::string& where) {
        if (index >= -1 && index < static_cast<int32_t>(m_raw.nodes.size())) return index;
        m_diag.violation(leaf.offset, where, "node index " + std::to_string(index) + " out of range (" +
                                                 num(m_raw.nodes.size()) + " nodes); ignored");
        return -1;
    }

    void camera(size_t i) {
        const LeafView L = leaves(m_raw.cameras[i].leaves);
        const std::string w = "scene / camera " + num(i);
        Camera c;
        // SDK defaults for absent blocks (notes 2).
        c.nearZ = 5.0f;
        c.farZ = 5000.0f;
        int32_t target = -1;
        if (i32(L[pod::CameraTargetIndex], join(w, pod::CameraTargetIndex), target))
            c.targetNode = nodeReference(target, L[pod::CameraTargetIndex], join(w, pod::CameraTargetIndex));
        float v;
        if (reals(L[pod::FieldOfView], join(w, pod::FieldOfView), &v, 1)) c.yfov = v;
        if (reals(L[pod::FarPlane], join(w, pod::FarPlane), &v, 1)) c.farZ = v;
        if (reals(L[pod::NearPlane], join(w, pod::NearPlane), &v, 1)) c.nearZ = v;
        const Leaf& anim = L[pod::FovAnimation];
        if (anim.present) {
            if (anim.size % 4 != 0)
                m_diag.violation(anim.offset, join(w, pod::FovAnimation), "holds " + num(anim.size) + " bytes, not a whole number of values");
            if (anim.words() > 0) c.yfov = real(anim.u32At(0));  // the rest pose is frame 0
        }
        if (!(c.yfov > 0.0f && c.yfov < 3.1415f))
            m_diag.warn(L[pod::FieldOfView].offset, join(w, pod::FieldOfView), "field of view " + std::to_string(c.yfov) + " is not between 0 and pi radians");
        m_scene.cameras.push_back(c);
    }

    void light(size_t i) {
        const LeafView L = leaves(m_raw.lights[i].leaves);
        const std::string w = "scene / light " + num(i);
        Light l;
        int32_t target = -1;
        if (i32(L[pod::LightTargetIndex], join(w, pod::LightTargetIndex), target))
            l.targetNode = nodeReference(target, L[pod::LightTargetIndex], join(w, pod::LightTargetIndex));
        float v[3];
        if (reals(L[pod::LightColour], join(w, pod::LightColour), v, 3)) l.color = glm::make_vec3(v);
        uint32_t type = 0;
        if (u32(L[pod::LightType], join(w, pod::LightType), type)) {
            if (type <= 2) {
                l.type = static_cast<LightType>(type);  // 0 point, 1 directional, 2 spot: same order
            } else {
                m_diag.violation(L[pod::LightType].offset, join(w, pod::LightType), "unknown light type " + num(type) + "; a point light is used");
            }
        }
        if (reals(L[pod::ConstantAttenuation], join(w, pod::ConstantAttenuation), v, 1)) l.constantAttenuation = v[0];
        if (reals(L[pod::LinearAttenuation], join(w, pod::LinearAttenuation), v, 1)) l.linearAttenuation = v[0];
        if (reals(L[pod::QuadraticAttenuation], join(w, pod::QuadraticAttenuation), v, 1)) l.quadraticAttenuation = v[0];
        if (reals(L[pod::FalloffAngle], join(w, pod::FalloffAngle), v, 1)) l.outerCone = v[0];
        if (reals(L[pod::FalloffExponent], join(w, pod::FalloffExponent), v, 1)) l.falloffExponent = v[0];
        m_scene.lights.push_back(l);
    }

    // --- meshes ------------------------------------------------------------------------------------

    struct ListValues {
        uint32_t type = 0, n = 0, stride = 0;
    };

    ListValues listValues(const RawDataList& list, const std::string& where) {
        const LeafView D = leaves(list.leaves);
        ListValues v;
        u32(D[pod::DataBlockType], join(where, pod::DataBlockType), v.type);
        u32(D[pod::DataBlockComponents], join(where, pod::DataBlockComponents), v.n);
        u32(D[pod::DataBlockStride], join(where, pod::DataBlockStride), v.stride);
        return v;
    }

    // One attribute list -> attribute (+ where its data lies). False when the list is absent or unusable.
    bool attribute(const RawDataList* listPtr, const std::string& where, Semantic semantic, uint8_t set, bool interleaved,
                   const Leaf& interleavedData, uint32_t vertexCount, VertexAttribute& attr, uint32_t& stride,
                   const uint8_t*& base, size_t& baseSize) {
        if (!listPtr) return false;
        const RawDataList& list = *listPtr;
        const LeafView D = leaves(list.leaves);
        ListValues v = listValues(list, where);
        if (v.n == 0) return false;  // SDK 4/5 test: an attribute exists only when n != 0
        if (v.type >= static_cast<uint32_t>(pod::DataType::Count) || !kTypes[v.type].valid) {
            m_diag.fatal(D[pod::DataBlockType].present ? D[pod::DataBlockType].offset : list.offset,
                         join(where, pod::DataBlockType), "unknown data type " + num(v.type));
            return false;
        }
        const TypeInfo& t = kTypes[v.type];
        attr.semantic = semantic;
        attr.set = set;
        attr.type = t.type;
        attr.normalized = t.normalized;
        attr.swizzle = t.swizzle;
        uint64_t elementSize;
        if (t.packedComponents) {
            if (v.n != 1) {
                m_diag.fatal(D[pod::DataBlockComponents].offset, join(where, pod::DataBlockComponents),
                             num(v.n) + " " + t.name + " words per vertex; GLES attributes hold one");
                return false;
            }
            attr.components = t.packedComponents;
            elementSize = 4;
        } else {
            if (v.n > 4) {
                m_diag.fatal(D[pod::DataBlockComponents].offset, join(where, pod::DataBlockComponents),
                             num(v.n) + " components; GLES attributes hold 1 to 4");
                return false;
            }
            attr.components = static_cast<uint8_t>(v.n);
            elementSize = uint64_t(t.size) * v.n;
        }
        const Leaf& data = D[pod::DataBlockData];
        const std::string dataWhere = join(where, pod::DataBlockData);
        if (!data.present) {
            m_diag.fatal(list.offset, where, "the list has " + num(v.n) + " components but no data block");
            return false;
        }
        if (interleaved) {
            // 9003 holds the offset of the first element inside the interleaved data (spec 3.3).
            if (data.size != 4) {
                m_diag.fatal(data.offset, dataWhere, "holds " + num(data.size) + " bytes; an interleaved list holds a 4-byte offset");
                return false;
            }
            attr.offset = data.u32At(0);
            stride = v.stride;
            base = interleavedData.data;
            baseSize = interleavedData.size;
            if (vertexCount > 1 && uint64_t(attr.offset) + elementSize > stride) {
                m_diag.fatal(D[pod::DataBlockStride].present ? D[pod::DataBlockStride].offset : list.offset,
                             join(where, pod::DataBlockStride),
                             "offset " + num(attr.offset) + " + " + num(elementSize) + " bytes of " + t.name +
                                 " data do not fit in the stride " + num(stride));
                return false;
            }
        } else {
            attr.offset = 0;
            stride = v.stride;
            if (stride == 0) {
                stride = static_cast<uint32_t>(elementSize);
            } else if (stride < elementSize) {
                m_diag.fatal(D[pod::DataBlockStride].offset, join(where, pod::DataBlockStride),
                             "stride " + num(stride) + " is smaller than one element (" + num(elementSize) + " bytes of " + t.name + ")");
                return false;
            }
            base = data.data;
            baseSize = data.size;
        }
        if (vertexCount > 0) {
            const uint64_t need = uint64_t(stride) * (vertexCount - 1) + attr.offset + elementSize;
            if (need > baseSize) {
                m_diag.fatal(interleaved ? interleavedData.offset : data.offset, interleaved ? dataWhere : dataWhere,
                             num(vertexCount) + " vertices of stride " + num(stride) + " need " + num(need) + " bytes, the data holds " +
                                 num(baseSize));
                return false;
            }
        }
        return true;
    }

    // Vertex streams (6006-6013, 6022): one stream per list, or the interleaved buffer (spec 3.3).
    void meshStreams(const RawMesh& raw, const LeafView& L, const std::string& w, size_t index,
                     const std::vector<const RawDataList*>& uvws, Mesh& mesh) {
        // Interleaved data is one buffer shared by the attributes (spec 3.3).
        const Leaf& inter = L[pod::InterleavedDataList];
        const bool interleaved = inter.present && inter.size > 0;
        struct Found {
            VertexAttribute attr;
            uint32_t stride;
            const uint8_t* base;
            size_t size;
        };
        std::vector<Found> found;
        auto addList = [&](const RawDataList* list, const std::string& where, Semantic semantic, uint8_t set) {
            Found f{};
            if (attribute(list, where, semantic, set, interleaved, inter, mesh.vertexCount, f.attr, f.stride, f.base, f.size))
                found.push_back(f);
        };
        for (const ListDef& d : kVertexLists) {
            if (d.semantic == Semantic::Color) {
                for (size_t u = 0; u < uvws.size(); ++u)
                    addList(uvws[u], w + " / UVW list " + num(u), Semantic::TexCoord, static_cast<uint8_t>(std::min<size_t>(u, 255)));
            }
            addList(listOf(raw, d.id), join(w, d.id), d.semantic, 0);
        }
        // Positions are what makes a mesh (spec 3.5: blocks a mesh needs to function are present);
        // requiring them also ties the vertex count to bytes in the file for every consumer.
        bool hasPositions = false;
        for (const Found& f : found) hasPositions = hasPositions || f.attr.semantic == Semantic::Position;
        if (mesh.vertexCount > 0 && !hasPositions)
            m_diag.fatal(raw.offset, w, num(mesh.vertexCount) + " vertices but no usable vertex list (6006)");
        for (const Found& f : found) {
            VertexStream* target = nullptr;
            if (interleaved) {
                for (VertexStream& s : mesh.streams)
                    if (s.stride == f.stride) target = &s;
            }
            if (!target) {
                mesh.streams.emplace_back();
                target = &mesh.streams.back();
                target->bytes = view(f.base, f.size);
                target->stride = f.stride;
                target->count = mesh.vertexCount;
            }
            target->attributes.push_back(f.attr);
        }
        if (interleaved && mesh.streams.size() > 1)
            m_diag.warn(inter.offset, join(w, pod::InterleavedDataList),
                        "the interleaved attributes use " + num(mesh.streams.size()) + " different strides; one stream per stride");
        if (!interleaved && inter.present)
            m_diag.info("mesh " + num(index) + ": empty interleaved data block; the lists hold the data");
        for (size_t s = 0; s < mesh.streams.size(); ++s) alignStream(mesh.streams[s], index);
    }

    // Strips (6004 lengths in triangles, 6005 count) into sub; returns the indices they use, or
    // three per face for a list (notes 6).
    uint64_t meshStrips(const RawMesh& raw, const LeafView& L, const std::string& w, uint32_t numFaces, uint32_t numStrips,
                        Submesh& sub) {
        uint64_t expectedIndices = uint64_t(numFaces) * 3;
        const Leaf& lengths = L[pod::StripLength];
        if (lengths.present && !L[pod::NumStrips].present) numStrips = static_cast<uint32_t>(lengths.words());
        if (numStrips > 0) {
            sub.primitive = Primitive::TriangleStrip;
            if (!lengths.present || lengths.words() < numStrips) {
                m_diag.fatal(lengths.present ? lengths.offset : raw.offset, join(w, pod::StripLength),
                             num(numStrips) + " strips but " + num(lengths.present ? lengths.words() : 0) + " strip lengths");
            } else {
                if (lengths.size != uint64_t(numStrips) * 4)
                    m_diag.violation(lengths.offset, join(w, pod::StripLength),
                                     "holds " + num(lengths.size) + " bytes for " + num(numStrips) + " strip lengths");
                uint64_t triangles = 0, indices = 0;
                sub.stripLengths.reserve(numStrips);
                for (uint32_t s = 0; s < numStrips; ++s) {
                    uint32_t len = lengths.u32At(s);
                    sub.stripLengths.push_back(len);
                    triangles += len;
                    indices += uint64_t(len) + 2;
                }
                if (triangles != numFaces)
                    m_diag.violation(lengths.offset, join(w, pod::StripLength),
                                     "the strips hold " + num(triangles) + " triangles, the face count says " + num(numFaces));
                expectedIndices = indices;
            }
        } else if (lengths.present && lengths.size > 0) {
            m_diag.violation(lengths.offset, join(w, pod::StripLength), "strip lengths in a mesh with no strips are ignored");
        }
        return expectedIndices;
    }

    // Index data (6003 data block): 16- or 32-bit, the first expectedIndices of it into mesh.indices.
    void meshIndexData(const RawDataList& faces, const std::string& fw, const ListValues& v, uint64_t expectedIndices,
                       uint32_t numFaces, Mesh& mesh) {
        const LeafView F = leaves(faces.leaves);
        const Leaf data = F[pod::DataBlockData];
        ComponentType type = ComponentType::UInt16;
        if (v.type == static_cast<uint32_t>(pod::DataType::UnsignedShort)) {
            type = ComponentType::UInt16;
        } else if (v.type == static_cast<uint32_t>(pod::DataType::UnsignedInt) ||
                   v.type == static_cast<uint32_t>(pod::DataType::Int)) {
            type = ComponentType::UInt32;
        } else {
            m_diag.fatal(F[pod::DataBlockType].present ? F[pod::DataBlockType].offset : faces.offset,
                         join(fw, pod::DataBlockType), "index type " + num(v.type) + " is neither unsigned short (3) nor unsigned int (17)");
        }
        if (v.n != 1)
            m_diag.violation(F[pod::DataBlockComponents].offset, join(fw, pod::DataBlockComponents),
                             num(v.n) + " components per index; 1 is used");
        const size_t isize = componentSize(type);
        const uint64_t available = data.present ? data.size / isize : 0;
        if (!data.present || available < expectedIndices) {
            m_diag.fatal(data.present ? data.offset : faces.offset, join(fw, pod::DataBlockData),
                         num(expectedIndices) + " indices needed for " + num(numFaces) + " faces, the data holds " + num(available));
        } else {
            if (available > expectedIndices || data.size % isize != 0)
                m_diag.violation(data.offset, join(fw, pod::DataBlockData),
                                 "holds " + num(data.size) + " bytes, more than the " + num(expectedIndices) + " indices the faces use");
            mesh.indices.type = type;
            mesh.indices.bytes = view(data.data, static_cast<size_t>(expectedIndices * isize));
            mesh.indices.count = static_cast<uint32_t>(expectedIndices);
        }
    }

    // Primitive and indices (6001-6005): fills sub and mesh.indices; returns the index count drawn.
    uint32_t meshIndices(const RawMesh& raw, const LeafView& L, const std::string& w, uint32_t numFaces, uint32_t numStrips,
                         Mesh& mesh, Submesh& sub) {
        // Indices (6003): 16- or 32-bit, always a plain array (never interleaved).
        const RawDataList* faces = listOf(raw, pod::VertexIndexList);
        ListValues v;
        const std::string fw = join(w, pod::VertexIndexList);
        if (faces) v = listValues(*faces, fw);
        uint64_t expectedIndices = meshStrips(raw, L, w, numFaces, numStrips, sub);
        if (expectedIndices > 0xFFFFFFFFull) {
            m_diag.fatal(L[pod::NumFaces].offset, join(w, pod::NumFaces), num(numFaces) + " faces are more than a mesh can index");
            expectedIndices = 0;
        }

        if (v.n > 0) {
            meshIndexData(*faces, fw, v, expectedIndices, numFaces, mesh);
        } else if (expectedIndices > mesh.vertexCount) {
            m_diag.fatal(L[pod::NumFaces].present ? L[pod::NumFaces].offset : raw.offset, join(w, pod::NumFaces),
                         "a non-indexed mesh with " + num(numFaces) + " faces needs " + num(expectedIndices) + " vertices, it has " +
                             num(mesh.vertexCount));
            expectedIndices = 0;
        }
        return static_cast<uint32_t>(expectedIndices);
    }

    // Mesh type (6008): points, lines, patches and NURBS are kept but not drawn as triangles.
    void meshPrimitive(const LeafView& L, const std::string& w, uint32_t meshType, Submesh& sub) {
        switch (meshType) {
            case 0: break;
            case 1: sub.primitive = Primitive::Points; break;
            case 2: sub.primitive = Primitive::Lines; break;
            case 3: sub.primitive = Primitive::Patches; break;
            case 4: sub.primitive = Primitive::Nurbs; break;
            default:
                m_diag.violation(L[pod::MeshType].offset, join(w, pod::MeshType), "unknown mesh type " + num(meshType) + "; triangles are assumed");
                meshType = 0;
        }
        if (meshType != 0) {
            sub.stripLengths.clear();
            m_diag.warn(L[pod::MeshType].offset, join(w, pod::MeshType),
                        std::string("a ") + primitiveName(sub.primitive) + " mesh: kept but not drawn as triangles");
        }
    }

    // One mesh block (spec 3.3) into m_scene.meshes: counts, streams, primitive, indices, unpack
    // matrix, adjacency and bone batches.
    void mesh(size_t index) {
        const RawMesh& raw = m_raw.meshes[index];
        const LeafView L = leaves(raw.leaves);
        const std::string w = "scene / mesh " + num(index);
        Mesh mesh;
        uint32_t numFaces = 0, numUvw = 0, numStrips = 0, meshType = 0;
        u32(L[pod::NumVertices], join(w, pod::NumVertices), mesh.vertexCount);
        u32(L[pod::NumFaces], join(w, pod::NumFaces), numFaces);
        bool hasNumUvw = u32(L[pod::NumUvwChannels], join(w, pod::NumUvwChannels), numUvw);
        u32(L[pod::NumStrips], join(w, pod::NumStrips), numStrips);
        u32(L[pod::MeshType], join(w, pod::MeshType), meshType);

        const std::vector<const RawDataList*> uvws = uvwLists(raw);
        if (hasNumUvw && numUvw != uvws.size())
            m_diag.violation(L[pod::NumUvwChannels].offset, join(w, pod::NumUvwChannels),
                             "declares " + num(numUvw) + " UVW channels but the mesh holds " + num(uvws.size()) + " UVW lists");

        meshStreams(raw, L, w, index, uvws, mesh);
        Submesh sub;
        const uint32_t indexCount = meshIndices(raw, L, w, numFaces, numStrips, mesh, sub);
        sub.firstIndex = 0;
        sub.indexCount = indexCount;
        meshPrimitive(L, w, meshType, sub);
        mesh.submeshes.push_back(std::move(sub));

        // Unpack matrix (6020): positions only, applied in the vertex shader (notes 6).
        float unpack[16];
        if (reals(L[pod::UnpackMatrix], join(w, pod::UnpackMatrix), unpack, 16)) mesh.positionUnpack = glm::make_mat4(unpack);

        const RawDataList* adjacency = listOf(raw, pod::AdjacencyIndexList);
        const Leaf a = adjacency ? leaves(adjacency->leaves)[pod::DataBlockData] : Leaf{};
        if (a.present) {
            mesh.adjacency = view(a.data, a.size);
        }

        boneBatches(raw, index, numFaces, mesh);
        // Per-vertex bone indices are checked in check mode only: a normal load never loops over
        // vertices (consumers index a batch's bones with care instead).
        if (m_diag.collectAll() && !mesh.boneBatches.empty()) checkBoneIndices(raw, index, mesh);
        m_scene.meshes.push_back(std::move(mesh));
    }

    // Re-packs an interleaved stream whose attributes are not aligned to their component size into
    // an aligned copy (the one per-vertex pass this reader may make; notes 6, isgl3d_man.pod).
    void alignStream(VertexStream& s, size_t meshIndex) {
        auto alignment = [](const VertexAttribute& a) { return isPacked(a.type) ? size_t(4) : componentSize(a.type); };
        bool aligned = true;
        for (const VertexAttribute& a : s.attributes)
            if (a.offset % alignment(a) != 0 || s.stride % alignment(a) != 0) aligned = false;
        if (aligned || s.count == 0) return;
        std::vector<size_t> order(s.attributes.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.attributes[a].offset < s.attributes[b].offset; });
        std::vector<uint32_t> newOffsets(s.attributes.size());
        size_t cursor = 0;
        for (size_t i : order) {
            const VertexAttribute& a = s.attributes[i];
            size_t align = alignment(a);
            cursor = (cursor + align - 1) / align * align;
            newOffsets[i] = static_cast<uint32_t>(cursor);
            cursor += isPacked(a.type) ? 4 : componentSize(a.type) * a.components;
        }
        const size_t newStride = (cursor + 3) / 4 * 4;
        std::vector<uint8_t> out(newStride * s.count);
        for (uint32_t v = 0; v < s.count; ++v) {
            for (size_t i = 0; i < s.attributes.size(); ++i) {
                const VertexAttribute& a = s.attributes[i];
                size_t size = isPacked(a.type) ? 4 : componentSize(a.type) * a.components;
                std::memcpy(out.data() + v * newStride + newOffsets[i], s.bytes.data + size_t(v) * s.stride + a.offset, size);
            }
        }
        m_diag.warn(leaves(m_raw.meshes[meshIndex].leaves)[pod::InterleavedDataList].offset,
                    "scene / mesh " + num(meshIndex) + " / interleaved data",
                    "attributes at offsets or a stride (" + num(s.stride) + ") not aligned to their component size; re-packed " +
                        num(s.count) + " vertices to stride " + num(newStride) + " for GLES");
        for (size_t i = 0; i < s.attributes.size(); ++i) s.attributes[i].offset = newOffsets[i];
        s.stride = static_cast<uint32_t>(newStride);
        s.bytes = makeOwnedBytes(std::move(out));
    }

    // Bone batches (6015-6019, notes 5): node indices per batch, converted to indices into the
    // mesh's joint list (the distinct nodes of all batches); skins are made per mesh node later.
    void boneBatches(const RawMesh& raw, size_t index, uint32_t numFaces, Mesh& mesh) {
        const LeafView L = leaves(raw.leaves);
        const std::string w = "scene / mesh " + num(index);
        uint32_t count = 0, maxBones = 0;
        u32(L[pod::NumBoneBatches], join(w, pod::NumBoneBatches), count);
        u32(L[pod::MaxNumBonesPerBatch], join(w, pod::MaxNumBonesPerBatch), maxBones);
        MeshJoints& joints = m_meshJoints.emplace_back();
        if (count == 0) {
            if (L[pod::BoneBatchIndexList].present && L[pod::BoneBatchIndexList].size > 0)
                m_diag.violation(L[pod::BoneBatchIndexList].offset, join(w, pod::BoneBatchIndexList), "bone batches in a mesh whose batch count is 0 are ignored");
            return;
        }
        const Leaf& bones = L[pod::BoneBatchIndexList];
        const Leaf& counts = L[pod::NumBoneIndicesPerBatch];
        const Leaf& offsets = L[pod::BoneOffsetPerBatch];
        if (maxBones == 0) {
            m_diag.fatal(L[pod::MaxNumBonesPerBatch].present ? L[pod::MaxNumBonesPerBatch].offset : raw.offset,
                         join(w, pod::MaxNumBonesPerBatch), num(count) + " bone batches of at most 0 bones");
            return;
        }
        if (!bones.present || bones.words() / maxBones < count) {
            m_diag.fatal(bones.present ? bones.offset : raw.offset, join(w, pod::BoneBatchIndexList),
                         num(count) + " batches of " + num(maxBones) + " bones need " + num(uint64_t(count) * maxBones) +
                             " node indices, the block holds " + num(bones.present ? bones.words() : 0));
            return;
        }
        if (!counts.present || counts.words() < count) {
            m_diag.fatal(counts.present ? counts.offset : raw.offset, join(w, pod::NumBoneIndicesPerBatch),
                         num(count) + " batches but " + num(counts.present ? counts.words() : 0) + " bone counts");
            return;
        }
        if (!offsets.present || offsets.words() < count) {
            m_diag.fatal(offsets.present ? offsets.offset : raw.offset, join(w, pod::BoneOffsetPerBatch),
                         num(count) + " batches but " + num(offsets.present ? offsets.words() : 0) + " triangle offsets");
            return;
        }
        mesh.maxBonesPerBatch = maxBones;
        mesh.boneIndicesBatchLocal = true;
        const int32_t nodeCount = static_cast<int32_t>(m_raw.nodes.size());
        // Node -> joint map, reset after each mesh so that the cost stays linear in the batch lists.
        std::vector<int32_t>& jointOfNode = m_jointOfNode;
        if (jointOfNode.size() != m_raw.nodes.size()) jointOfNode.assign(m_raw.nodes.size(), -1);
        struct Reset {
            std::vector<int32_t>& map;
            const std::vector<int32_t>& touched;
            ~Reset() {
                for (int32_t n : touched) map[n] = -1;
            }
        } reset{jointOfNode, joints.nodes};
        for (uint32_t b = 0; b < count; ++b) {
            BoneBatch batch;
            uint32_t n = counts.u32At(b);
            if (n > maxBones) {
                m_diag.fatal(counts.valueOffset(b), join(w, pod::NumBoneIndicesPerBatch),
                             "batch " + num(b) + " uses " + num(n) + " bones, more than the maximum " + num(maxBones));
                n = maxBones;
            }
            batch.bones.reserve(n);
            for (uint32_t k = 0; k < n; ++k) {
                const size_t at = size_t(b) * maxBones + k;
                int32_t node = static_cast<int32_t>(bones.u32At(at));
                if (node < 0 || node >= nodeCount) {
                    m_diag.fatal(bones.valueOffset(at), join(w, pod::BoneBatchIndexList),
                                 "node index " + std::to_string(node) + " out of range (" + num(m_raw.nodes.size()) + " nodes)");
                    node = 0;
                    if (nodeCount == 0) continue;
                }
                if (jointOfNode[node] < 0) {
                    jointOfNode[node] = static_cast<int32_t>(joints.nodes.size());
                    joints.nodes.push_back(node);
                }
                batch.bones.push_back(jointOfNode[node]);
            }
            const uint32_t first = offsets.u32At(b);
            const uint32_t end = b + 1 < count ? offsets.u32At(b + 1) : numFaces;
            if (first > end || end > numFaces) {
                m_diag.fatal(offsets.valueOffset(b), join(w, pod::BoneOffsetPerBatch),
                             "batch " + num(b) + " covers triangles " + num(first) + " to " + num(end) + " of " + num(numFaces));
            } else {
                batch.firstTriangle = first;
                batch.triangleCount = end - first;
            }
            mesh.boneBatches.push_back(std::move(batch));
        }
        if (mesh.submeshes.front().primitive == Primitive::TriangleStrip)
            m_diag.warn(raw.offset, w, "bone batches in a strip mesh: batch ranges count strip triangles");
    }

    // Every bone index of every vertex of a batch's triangles must name one of the batch's bones
    // (weights of zero included: the spec pads unused influences with valid indices).
    void checkBoneIndices(const RawMesh& raw, size_t index, const Mesh& mesh) {
        const VertexStream* stream = nullptr;
        const VertexAttribute* attr = nullptr;
        for (const VertexStream& s : mesh.streams)
            for (const VertexAttribute& a : s.attributes)
                if (a.semantic == Semantic::BoneIndices) stream = &s, attr = &a;
        const std::string w = "scene / mesh " + num(index);
        const RawDataList* list = listOf(raw, pod::BoneIndexList);
        if (!attr) {
            m_diag.violation(raw.offset, w, "bone batches but no bone index list");
            return;
        }
        const Submesh& sub = mesh.submeshes.front();
        if (sub.primitive != Primitive::Triangles) return;  // strip batches: ranges are not corner lists
        const size_t csize = isPacked(attr->type) ? 1 : componentSize(attr->type);
        auto component = [&](uint32_t vertex, uint32_t c) -> uint64_t {
            const uint8_t* p = stream->bytes.data + size_t(vertex) * stream->stride + attr->offset + c * csize;
            uint32_t bits = 0;
            for (size_t i = 0; i < csize && i < 4; ++i) bits |= uint32_t(p[i]) << (8 * i);
            switch (attr->type) {
                case ComponentType::Float32: {
                    float f;
                    std::memcpy(&f, &bits, 4);
                    return f >= 0.0f && f < 4294967295.0f ? static_cast<uint64_t>(f) : ~0ull;
                }
                case ComponentType::Fixed16_16: return static_cast<int32_t>(bits) < 0 ? ~0ull : bits >> 16;
                case ComponentType::Int8: return static_cast<int8_t>(bits) < 0 ? ~0ull : bits;
                case ComponentType::Int16: return static_cast<int16_t>(bits) < 0 ? ~0ull : bits;
                case ComponentType::Int32: return static_cast<int32_t>(bits) < 0 ? ~0ull : bits;
                default: return bits;
            }
        };
        const uint8_t* ib = mesh.indices.bytes.data;
        const bool wide = mesh.indices.type == ComponentType::UInt32;
        uint64_t bad = 0;
        std::string first;
        for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
            const BoneBatch& batch = mesh.boneBatches[b];
            const uint64_t end = std::min<uint64_t>(uint64_t(batch.firstTriangle) + batch.triangleCount, sub.indexCount / 3);
            for (uint64_t t = batch.firstTriangle; t < end; ++t) {
                for (uint32_t corner = 0; corner < 3; ++corner) {
                    const uint64_t i = t * 3 + corner;
                    uint32_t v = static_cast<uint32_t>(i);
                    if (mesh.indices.count > 0)
                        v = wide ? uint32_t(ib[4 * i]) | uint32_t(ib[4 * i + 1]) << 8 | uint32_t(ib[4 * i + 2]) << 16 |
                                       uint32_t(ib[4 * i + 3]) << 24
                                 : uint32_t(ib[2 * i]) | uint32_t(ib[2 * i + 1]) << 8;
                    if (v >= mesh.vertexCount) continue;  // the validator reports the index
                    for (uint32_t c = 0; c < attr->components; ++c) {
                        const uint64_t bone = component(v, c);
                        if (bone < batch.bones.size()) continue;
                        if (bad++ == 0)
                            first = "vertex " + num(v) + " names bone " + (bone == ~0ull ? std::string("-1") : num(bone)) +
                                    " of batch " + num(b) + ", which has " + num(batch.bones.size());
                    }
                }
            }
        }
        if (bad > 0)
            m_diag.violation(list && leaves(list->leaves)[pod::DataBlockData].present ? leaves(list->leaves)[pod::DataBlockData].offset
                             : list ? list->offset : raw.offset,
                             join(w, pod::BoneIndexList), num(bad) + " bone indices outside their batch (first: " + first + ")");
    }

    // --- nodes and animation ---------------------------------------------------------------------

    void node(size_t i) {
        const RawContainer& raw = m_raw.nodes[i];
        const LeafView L = leaves(raw.leaves);
        const std::string w = "scene / node " + num(i);
        Node n;
        n.name = leafString(L[pod::NodeName]);
        int32_t object = -1, material = -1, parent = -1;
        i32(L[pod::NodeIndex], join(w, pod::NodeIndex), object);
        i32(L[pod::NodeMaterialIndex], join(w, pod::NodeMaterialIndex), material);
        if (!i32(L[pod::NodeParentIndex], join(w, pod::NodeParentIndex), parent) && !L[pod::NodeParentIndex].present)
            parent = -1;
        const uint64_t lights = m_raw.lights.size(), cameras = m_raw.cameras.size();
        // Node order (spec 3.6): mesh nodes, light nodes, camera nodes, then everything else.
        uint64_t objects = 0;
        if (i < m_meshNodes) {
            n.kind = NodeKind::Mesh;
            objects = m_raw.meshes.size();
        } else if (i < m_meshNodes + lights) {
            n.kind = NodeKind::Light;
            objects = lights;
        } else if (i < m_meshNodes + lights + cameras) {
            n.kind = NodeKind::Camera;
            objects = cameras;
        }
        if (n.kind != NodeKind::Empty) {
            if (object < 0 || static_cast<uint64_t>(object) >= objects) {
                m_diag.fatal(L[pod::NodeIndex].present ? L[pod::NodeIndex].offset : raw.offset, join(w, pod::NodeIndex),
                             std::string(nodeKindName(n.kind)) + " index " + std::to_string(object) + " out of range (" + num(objects) + ")");
                object = -1;
            }
            n.object = object;
        }
        if (n.kind == NodeKind::Mesh) {
            if (material < -1 || material >= static_cast<int32_t>(m_raw.materials.size())) {
                m_diag.violation(L[pod::NodeMaterialIndex].offset, join(w, pod::NodeMaterialIndex),
                                 "material index " + std::to_string(material) + " out of range (" + num(m_raw.materials.size()) +
                                     " materials); the default material is used");
                material = -1;
            }
            n.materials = {material};
        }
        if (n.kind == NodeKind::Light || n.kind == NodeKind::Camera) {
            // POD cameras and lights look along -Y with -Z up; ours along -Z with +Y up (see top).
            n.objectTransform = glm::rotate(glm::mat4(1.0f), glm::radians(-90.0f), glm::vec3(1, 0, 0));
        }
        if (parent < -1 || parent >= static_cast<int32_t>(m_raw.nodes.size()) || parent == static_cast<int32_t>(i)) {
            m_diag.fatal(L[pod::NodeParentIndex].offset, join(w, pod::NodeParentIndex),
                         "parent index " + std::to_string(parent) +
                             (parent == static_cast<int32_t>(i) ? " is the node itself" : " out of range (" + num(m_raw.nodes.size()) + " nodes)"));
            parent = -1;
        }
        n.parent = parent;
        if (L[pod::NodeUserData].present) ++m_nodeUserData;
        transform(raw, i, n);
        m_scene.nodes.push_back(std::move(n));
    }

    // Frame-0 local transform and animation tracks of one node (notes 4).
    void transform(const RawContainer& raw, size_t index, Node& n) {
        const LeafView L = leaves(raw.leaves);
        const std::string w = "scene / node " + num(index);
        uint32_t flags = 0;
        u32(L[pod::AnimationFlags], join(w, pod::AnimationFlags), flags);
        // Old node format: static blocks 5004-5006/5010 make an existing animation array animated.
        const bool oldFormat = L[pod::NodePosition].present || L[pod::NodeRotation].present || L[pod::NodeScale].present ||
                               L[pod::NodeMatrix].present;
        if (flags & ~0xFu)
            m_diag.warn(L[pod::AnimationFlags].offset, join(w, pod::AnimationFlags), "unknown animation flags " + hex(flags) + " ignored");

        const bool useMatrix = L[pod::AnimationMatrix].present || L[pod::NodeMatrix].present;
        for (const ChannelDef& c : kChannels) {
            if (useMatrix != (c.channel == Channel::Matrix)) {
                if (useMatrix && (flags & c.flag))
                    m_diag.info("node " + num(index) + ": " + channelName(c.channel) + " animation beside a matrix is not used (the matrix wins)");
                continue;
            }
            std::vector<float> frame0(c.used, 0.0f);
            if (c.channel == Channel::Rotation) frame0 = {0, 0, 0, 1};
            if (c.channel == Channel::Scale) frame0 = {1, 1, 1};
            if (c.channel == Channel::Matrix) frame0 = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
            channel(raw, index, c, flags, oldFormat, frame0.data());
            switch (c.channel) {
                case Channel::Translation: n.local.translation = glm::make_vec3(frame0.data()); break;
                case Channel::Rotation:
                    // The stored quaternion is the conjugate of the rotation (notes 4): x,y,z negated.
                    n.local.rotation = glm::quat(frame0[3], -frame0[0], -frame0[1], -frame0[2]);
                    break;
                case Channel::Scale: n.local.scale = glm::make_vec3(frame0.data()); break;
                case Channel::Matrix:
                    n.local.matrix = glm::make_mat4(frame0.data());
                    n.local.useMatrix = true;
                    break;
                default: break;
            }
        }
    }

    // Reads one channel: frame-0 value into `frame0` (c.used floats) and, when animated, a track.
    void channel(const RawContainer& raw, size_t index, const ChannelDef& c, uint32_t flags, bool oldFormat, float* frame0) {
        const LeafView L = leaves(raw.leaves);
        const std::string w = "scene / node " + num(index);
        const Leaf& data = L[c.dataId];
        const Leaf& old = L[c.oldId];
        const Leaf& idx = L[c.indexId];
        bool animated = (flags & c.flag) != 0 || (oldFormat && data.present);
        if (old.present) {
            // Deprecated static values: 3 floats (scale may hold 3 or 7), 4, 16 (notes 4).
            const size_t words = old.words();
            if (words < c.used || old.size % 4 != 0)
                m_diag.violation(old.offset, join(w, c.oldId), "holds " + num(old.size) + " bytes; expected " + num(c.used) + " values");
            for (size_t k = 0; k < c.used && k < words; ++k) frame0[k] = real(old.u32At(k));
        }
        if (!data.present) {
            if (flags & c.flag)
                m_diag.violation(L[pod::AnimationFlags].offset, join(w, pod::AnimationFlags),
                                 std::string(channelName(c.channel)) + " is flagged animated but has no animation data");
            return;
        }
        if (data.size % 4 != 0)
            m_diag.violation(data.offset, join(w, c.dataId), "holds " + num(data.size) + " bytes, not a whole number of values");
        const size_t floats = data.words();
        // Entries that hold at least the `used` floats: scale stores 7 per frame but a lone static
        // value may be written with 3.
        const size_t entries = floats >= c.used ? (floats - c.used) / c.stored + 1 : 0;
        if (entries == 0) {
            m_diag.violation(data.offset, join(w, c.dataId), "holds " + num(floats) + " values; one " + channelName(c.channel) + " needs " + num(c.used));
            return;
        }
        const bool indexed = idx.present && animated;
        auto element = [&](size_t floatOffset, float* out) {
            for (uint32_t k = 0; k < c.used; ++k) out[k] = real(data.u32At(floatOffset + k));
        };
        // Index arrays hold float offsets into the data (legacy pfAnimPosition[idx[frame]]).
        auto indexAt = [&](size_t frame, size_t& floatOffset) {
            uint32_t o = idx.u32At(frame);
            if (uint64_t(o) + c.used > floats) {
                m_diag.violation(idx.valueOffset(frame), join(w, c.indexId),
                                 "offset " + num(o) + " + " + num(c.used) + " runs past the " + num(floats) + " animation values; 0 is used");
                o = 0;
            }
            floatOffset = o;
        };
        if (indexed && idx.words() == 0) {
            m_diag.violation(idx.offset, join(w, c.indexId), "an empty animation index");
            element(0, frame0);
            return;
        }
        if (indexed) {
            size_t o = 0;
            indexAt(0, o);
            element(o, frame0);
        } else {
            element(0, frame0);
        }
        if (!animated) return;
        if (m_frames < 2) {
            if (m_frames == 0 && (flags & c.flag))
                m_diag.info("node " + num(index) + ": " + channelName(c.channel) + " is flagged animated in a scene of 0 frames");
            return;
        }
        size_t keys = indexed ? idx.words() : entries;
        if (keys < m_frames)
            m_diag.violation(indexed ? idx.offset : data.offset, join(w, indexed ? c.indexId : c.dataId),
                             "holds " + num(keys) + " frames of " + channelName(c.channel) + " animation, the scene has " + num(m_frames));
        keys = std::min<size_t>(keys, m_frames);
        if (!spend(uint64_t(keys) * (c.used + 1) * 4, data.offset, join(w, c.dataId))) return;
        Track track;
        track.node = static_cast<int32_t>(index);
        track.channel = c.channel;
        // POD interpolates position, rotation and scale; matrices are never interpolated (notes 4).
        track.interpolation = c.channel == Channel::Matrix ? Interpolation::Step : Interpolation::Linear;
        track.components = c.used;
        // Keys before the clip's first frame (the rest pose, pod::kClipStartUserData) are left out.
        const size_t first = std::min<size_t>(m_firstFrame, keys - 1);
        track.times.resize(keys - first);
        track.values.resize((keys - first) * c.used);
        for (size_t k = first; k < keys; ++k) {
            track.times[k - first] = static_cast<float>(k - first) / m_fps;
            size_t o = k * c.stored;
            if (indexed) indexAt(k, o);
            float* out = &track.values[(k - first) * c.used];
            element(o, out);
            if (c.channel == Channel::Rotation) {
                // Conjugate (notes 4); negating x,y,z of every key keeps slerp consistent.
                out[0] = -out[0];
                out[1] = -out[1];
                out[2] = -out[2];
            }
        }
        m_tracks.push_back(std::move(track));
    }

    // Animated FOV (8004): one value per frame, lerped; a track on every node showing the camera.
    void cameraFovTracks() {
        if (m_frames < 2) return;
        std::vector<uint8_t> reported(m_raw.cameras.size(), 0);
        for (size_t n = 0; n < m_scene.nodes.size(); ++n) {
            const Node& node = m_scene.nodes[n];
            if (node.kind != NodeKind::Camera || node.object < 0 || static_cast<size_t>(node.object) >= m_raw.cameras.size()) continue;
            const size_t i = static_cast<size_t>(node.object);
            const Leaf anim = leaves(m_raw.cameras[i].leaves)[pod::FovAnimation];
            if (!anim.present || anim.words() < 2) continue;
            size_t keys = anim.words();
            if (keys < m_frames && !reported[i]) {
                m_diag.violation(anim.offset, "scene / camera " + num(i) + " / " + nameOf(pod::FovAnimation),
                                 "holds " + num(keys) + " frames, the scene has " + num(m_frames));
                reported[i] = 1;
            }
            keys = std::min<size_t>(keys, m_frames);
            if (!spend(uint64_t(keys) * 8, anim.offset, "scene / camera " + num(i) + " / " + nameOf(pod::FovAnimation))) return;
            Track track;
            track.node = static_cast<int32_t>(n);
            track.channel = Channel::CameraFov;
            track.components = 1;
            const size_t first = std::min<size_t>(m_firstFrame, keys - 1);
            track.times.resize(keys - first);
            track.values.resize(keys - first);
            for (size_t k = first; k < keys; ++k) {
                track.times[k - first] = static_cast<float>(k - first) / m_fps;
                track.values[k - first] = real(anim.u32At(k));
            }
            m_tracks.push_back(std::move(track));
        }
    }

    // Data the reader derives from the file (tracks, skins) may multiply what the file holds:
    // indexed keys, instanced skins. A budget proportional to the file size keeps a crafted file
    // from asking for gigabytes; a real file stays far below it.
    bool spend(uint64_t bytes, uint64_t offset, const std::string& where) {
        if (bytes <= m_budget) {
            m_budget -= bytes;
            return true;
        }
        if (!m_budgetReported)
            m_diag.fatal(offset, where, "the animation and skin data derived from this file would exceed " +
                                            num((m_bytes->size() / 2 + (16u << 20)) >> 20) + " MiB, out of proportion to its size");
        m_budgetReported = true;
        m_budget = 0;
        return false;
    }

    // POD meshes, lights and cameras have no names of their own: they take their first node's.
    void objectNames() {
        for (const Node& n : m_scene.nodes) {
            if (n.object < 0) continue;
            const size_t o = static_cast<size_t>(n.object);
            if (n.kind == NodeKind::Mesh && o < m_scene.meshes.size() && m_scene.meshes[o].name.empty()) m_scene.meshes[o].name = n.name;
            if (n.kind == NodeKind::Light && o < m_scene.lights.size() && m_scene.lights[o].name.empty()) m_scene.lights[o].name = n.name;
            if (n.kind == NodeKind::Camera && o < m_scene.cameras.size() && m_scene.cameras[o].name.empty()) m_scene.cameras[o].name = n.name;
        }
        if (m_nodeUserData > 0) m_diag.info(num(m_nodeUserData) + " nodes carry user data, which is not used");
    }

    // World matrices at frame 0 (the bind pose: POD stores no inverse bind matrices, notes 5).
    std::vector<glm::mat4> restWorld() {
        const size_t count = m_scene.nodes.size();
        std::vector<glm::mat4> world(count, glm::mat4(1.0f));
        std::vector<uint8_t> state(count, 0);  // 0 todo, 1 done
        std::vector<size_t> chain;
        for (size_t i = 0; i < count; ++i) {
            chain.clear();
            size_t at = i;
            // Parents were range-checked; the length cap stops a cycle (reported by the validator).
            while (state[at] == 0 && chain.size() <= count) {
                chain.push_back(at);
                int32_t p = m_scene.nodes[at].parent;
                if (p < 0 || static_cast<size_t>(p) >= count) break;
                at = static_cast<size_t>(p);
            }
            for (size_t k = chain.size(); k-- > 0;) {
                size_t node = chain[k];
                if (state[node]) continue;
                int32_t p = m_scene.nodes[node].parent;
                glm::mat4 parentWorld = (p >= 0 && static_cast<size_t>(p) < count && state[p]) ? world[p] : glm::mat4(1.0f);
                world[node] = parentWorld * m_scene.nodes[node].local.toMatrix();
                state[node] = 1;
            }
        }
        return world;
    }

    // One skin per skinned mesh node: joints are the mesh's batch nodes, inverseBind_j =
    // inverse(BoneWorld(0)) * MeshNodeWorld(0), so that world(joint, t) * inverseBind_j is the POD
    // bone matrix BoneWorld(t) * inverse(BoneWorld(0)) * MeshNodeWorld(0) (notes 5).
    void skins() {
        bool any = false;
        for (const MeshJoints& j : m_meshJoints) any = any || !j.nodes.empty();
        if (!any) return;
        const std::vector<glm::mat4> world = restWorld();
        std::vector<glm::mat4> inverseWorld(world.size());
        std::vector<uint8_t> inverted(world.size(), 0);
        for (size_t n = 0; n < m_scene.nodes.size(); ++n) {
            Node& node = m_scene.nodes[n];
            if (node.kind != NodeKind::Mesh || node.object < 0 || static_cast<size_t>(node.object) >= m_meshJoints.size()) continue;
            const MeshJoints& joints = m_meshJoints[node.object];
            if (joints.nodes.empty()) continue;
            // Inverse binds, plus the batch bone entries the validator walks per instance.
            uint64_t batchBones = 0;
            for (const BoneBatch& b : m_scene.meshes[node.object].boneBatches) batchBones += b.bones.size();
            if (!spend(uint64_t(joints.nodes.size()) * 68 + batchBones * 4, m_raw.nodes[n].offset, "scene / node " + num(n))) return;
            Skin skin;
            skin.name = node.name;
            skin.joints = joints.nodes;
            skin.bindPlacedByMeshNode = true;  // inverseBind folds in the mesh node's rest world matrix
            skin.inverseBind.reserve(joints.nodes.size());
            for (int32_t j : joints.nodes) {
                if (!inverted[j]) {
                    const float det = glm::determinant(world[j]);
                    if (!std::isfinite(det) || std::fabs(det) < 1e-20f) {
                        m_diag.violation(m_raw.nodes[j].offset, "scene / node " + num(j),
                                         "the bone's frame-0 world matrix cannot be inverted; identity is used");
                        inverseWorld[j] = glm::mat4(1.0f);
                    } else {
                        inverseWorld[j] = glm::inverse(world[j]);
                    }
                    inverted[j] = 1;
                }
                skin.inverseBind.push_back(inverseWorld[j] * world[n]);
                if (m_scene.nodes[j].kind == NodeKind::Empty) m_scene.nodes[j].kind = NodeKind::Bone;
            }
            node.skin = static_cast<int32_t>(m_scene.skins.size());
            m_scene.skins.push_back(std::move(skin));
        }
    }

    void finishAnimation() {
        if (m_tracks.empty()) return;
        Clip clip;
        clip.name = "Take 001";
        clip.start = 0.0f;
        clip.end = static_cast<float>(m_frames - 1 - m_firstFrame) / m_fps;
        clip.tracks = std::move(m_tracks);
        m_scene.animation.clips.push_back(std::move(clip));
    }

    struct MeshJoints {
        std::vector<int32_t> nodes;
    };

    const RawFile& m_raw;
    std::shared_ptr<const std::vector<uint8_t>> m_bytes;
    Diagnostics& m_diag;
    Scene& m_scene;
    bool m_fixed = false;
    float m_fps = 30.0f;
    uint32_t m_frames = 0;
    uint32_t m_firstFrame = 0;  // the clip's first frame (pod::kClipStartUserData), 0 without the mark
    uint32_t m_meshNodes = 0;
    size_t m_nodeUserData = 0;
    std::vector<MeshJoints> m_meshJoints;  // per mesh, in mesh order
    std::vector<int32_t> m_jointOfNode;
    uint64_t m_budget = 0;
    bool m_budgetReported = false;
    std::vector<Track> m_tracks;
};

}  // namespace

LoadResult loadPod(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path, const LoadOptions& options) {
    LoadResult result;
    if (!bytes) {
        result.problems.push_back({path, -1, 0, 0, "", "no data"});
        return result;
    }
    auto scene = std::make_unique<Scene>();
    scene->format = "pod";
    Diagnostics diag(path, options, *scene, result.problems);
    RawFile raw;
    Parser parser(bytes->data(), bytes->size(), diag);
    const bool parsed = parser.parse(raw);
    if (parsed) {
        Builder builder(raw, bytes, diag, *scene);
        builder.build();
    }
    // A structural failure leaves no scene (check mode has listed every problem it could find).
    if (!parsed || diag.failed()) return result;
    diag.finish();
    result.scene = std::move(scene);
    return result;
}

}  // namespace esv
