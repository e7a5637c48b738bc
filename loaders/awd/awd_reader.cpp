// AWD 2.0 / 2.1 reader: header, body decompression, the block walk, references, the scene graph,
// materials, textures, methods, lights, cameras and commands. Geometry is in awd_geometry.cpp.
//
// Two passes over the (decompressed) body. The first walks the block headers only, so that a
// reference to a block that comes later can name it. The second reads each block in file order;
// a reference must point to a block already read (the spec's backward rule), which is what lets
// the reader resolve everything in one go. Vertex streams stay views into the body.
//
// Where the spec is silent or disagrees with the files, the layouts follow Away3D's AWD2Parser
// (the reference reader the exporters were written against): scene headers hold a 4x3 matrix
// (12 numbers, not the 16 the spec's table says), colours are little-endian 0xAARRGGBB words,
// float properties take the header's property precision, the Camera, TextureProjector and Command
// blocks have the fields AWD2Parser reads, and material repeat defaults to off.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string_view>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtx/quaternion.hpp>

#include "loaders/awd/awd_internal.h"
#include "loaders/formats.h"

namespace esv {
namespace awd {
namespace {

std::string num(uint64_t v) { return std::to_string(v); }

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

glm::vec3 rgb(uint32_t color) {
    return glm::vec3(float((color >> 16) & 0xFFu), float((color >> 8) & 0xFFu), float(color & 0xFFu)) / 255.0f;
}

std::string colorText(uint32_t color) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%08X", color);
    return buf;
}

uint32_t u32At(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

std::string typeName(uint8_t type) {
    const char* name = blockTypeName(type);
    return name ? std::string(name) : "type " + num(type);
}

// Names of the block types a reference may point to, for messages: "a Material or a ...".
std::string typeList(std::initializer_list<uint8_t> types) {
    std::string out;
    size_t i = 0;
    for (uint8_t t : types) {
        if (i > 0) out += (i + 1 == types.size()) ? " or " : ", ";
        out += typeName(t);
        ++i;
    }
    return out;
}


// The rotation that turns -Z into `to` (a unit vector), keeping the turn as small as possible.
glm::mat4 rotateMinusZTo(const glm::vec3& to) {
    const glm::vec3 from(0.0f, 0.0f, -1.0f);
    const float d = glm::dot(from, to);
    if (d > 0.99999f) return glm::mat4(1.0f);
    if (d < -0.99999f) return glm::rotate(glm::mat4(1.0f), glm::pi<float>(), glm::vec3(0.0f, 1.0f, 0.0f));
    return glm::mat4_cast(glm::rotation(from, to));
}

const char* const kCubeFaces[6] = {"+X", "-X", "+Y", "-Y", "+Z", "-Z"};

}  // namespace

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(v));
    return buf;
}

Reader::Reader(const std::string& path, const LoadOptions& options, Scene& scene,
               std::vector<Problem>& problems)
    : m_scene(scene), m_diag(path, options, scene, problems) {}

std::string Reader::blockWhere() const {
    std::string out = m_header.compression == 1   ? "zlib body / "
                      : m_header.compression == 2 ? "LZMA body / "
                                                  : "";
    if (!m_current) return out.empty() ? out : out.substr(0, out.size() - 3);
    out += m_current->id ? "block " + num(m_current->id) : std::string("temporary block");
    out += " (" + typeName(m_current->type);
    if (!m_currentName.empty()) out += " " + quoted(m_currentName);
    out += ")";
    return out;
}

// ---------------------------------------------------------------------------------------------
// Field readers

bool Reader::ended(ByteReader& r, const char* what) {
    if (r.ok()) return false;
    fatal(r.offset(), blockWhere(),
          std::string("the block ends inside its ") + what + " (" + num(r.remaining()) + " bytes left)");
    return true;
}

bool Reader::readString(ByteReader& r, std::string& out, const char* what) {
    const uint64_t at = r.offset();
    const uint16_t length = r.u16();
    if (ended(r, (std::string(what) + " string").c_str())) return false;
    if (length > r.remaining()) {
        fatal(at, blockWhere(),
              std::string("the ") + what + " string claims " + num(length) + " bytes, " + num(r.remaining()) +
                  " remain in the block");
        r.fail();
        return false;
    }
    out.assign(reinterpret_cast<const char*>(r.current()), length);
    r.skip(length);
    return true;
}

bool Reader::readAttrs(ByteReader& r, AttrList& out, const char* what) {
    out.items.clear();
    out.offset = r.offset();
    const uint32_t length = r.u32();
    if (ended(r, (std::string(what) + " attribute list").c_str())) return false;
    if (length > r.remaining()) {
        fatal(out.offset, blockWhere(),
              std::string("the ") + what + " attribute list claims " + num(length) + " bytes, " + num(r.remaining()) +
                  " remain in the block");
        r.fail();
        return false;
    }
    ByteReader list = r.sub(length);
    while (!list.atEnd()) {
        Attr a;
        a.offset = list.offset();
        a.key = list.u16();
        a.length = list.u32();
        if (!list.ok() || a.length > list.remaining()) {
            // Away3D skips to the end of the list here; so do we.
            violation(a.offset, blockWhere() + " / " + what + " attributes",
                      list.ok() ? "attribute " + num(a.key) + " claims " + num(a.length) + " bytes, " +
                                      num(list.remaining()) + " remain in its list; the rest of the list is skipped"
                                : "the list ends inside an attribute header; the rest of the list is skipped");
            break;
        }
        a.value = list.current();
        list.skip(a.length);
        out.items.push_back(a);
    }
    return true;
}

bool Reader::readUserAttrs(ByteReader& r, const char* what) {
    const uint64_t at = r.offset();
    const uint32_t length = r.u32();
    if (ended(r, (std::string(what) + " user attribute list").c_str())) return false;
    if (length > r.remaining()) {
        fatal(at, blockWhere(),
              std::string("the ") + what + " user attribute list claims " + num(length) + " bytes, " + num(r.remaining()) +
                  " remain in the block");
        r.fail();
        return false;
    }
    ByteReader list = r.sub(length);
    const std::string where = blockWhere() + " / " + what + " user attributes";
    while (!list.atEnd()) {
        const uint64_t itemAt = list.offset();
        const uint8_t ns = list.u8();
        const uint16_t keyLength = list.u16();
        if (!list.ok() || keyLength > list.remaining()) {
            violation(itemAt, where, "the list ends inside an attribute's name; the rest of the list is skipped");
            break;
        }
        std::string key(reinterpret_cast<const char*>(list.current()), keyLength);
        list.skip(keyLength);
        const uint8_t type = list.u8();
        const uint32_t valueLength = list.u32();
        if (!list.ok() || valueLength > list.remaining()) {
            violation(itemAt, where,
                      "attribute " + quoted(key) + " claims " + num(valueLength) + " bytes, " +
                          num(list.ok() ? list.remaining() : 0) + " remain in its list; the rest of the list is skipped");
            break;
        }
        const uint8_t* v = list.current();
        list.skip(valueLength);
        if (ns != 0 && !m_namespaces.count(ns))
            violation(itemAt, where, "attribute " + quoted(key) + " names namespace " + num(ns) + ", which no Namespace block defines");

        // The value as text, for the report and the object's attributes.
        std::string value;
        size_t element = 0;
        const char* tname = fieldTypeName(type);
        switch (type) {
            case field::Int8: case field::UInt8: case field::Bool: element = 1; break;
            case field::Int16: case field::UInt16: element = 2; break;
            case field::Int32: case field::UInt32: case field::Float32: case field::Float32Libawd:
            case field::Color: case field::BlockAddr: element = 4; break;
            case field::Float64: case field::Float64Libawd: element = 8; break;
            default: break;
        }
        if (type == field::String) {
            value = "\"" + std::string(reinterpret_cast<const char*>(v), std::min<size_t>(valueLength, 120)) +
                    (valueLength > 120 ? "...\"" : "\"");
        } else if (element && valueLength % element != 0) {
            violation(itemAt, where,
                      "attribute " + quoted(key) + ": " + num(valueLength) + " bytes are not a whole number of " +
                          tname + " values");
            value = num(valueLength) + " bytes";
        } else if (element && valueLength > 0) {
            const size_t count = valueLength / element;
            for (size_t i = 0; i < count && i < 16; ++i) {
                const uint8_t* p = v + i * element;
                if (i) value += ", ";
                switch (type) {
                    case field::Int8: value += std::to_string(int8_t(p[0])); break;
                    case field::UInt8: value += std::to_string(p[0]); break;
                    case field::Bool: value += p[0] ? "true" : "false"; break;
                    case field::Int16: value += std::to_string(int16_t(uint16_t(p[0] | p[1] << 8))); break;
                    case field::UInt16: value += std::to_string(uint16_t(p[0] | p[1] << 8)); break;
                    case field::Int32: value += std::to_string(int32_t(u32At(p))); break;
                    case field::UInt32: case field::BlockAddr: value += std::to_string(u32At(p)); break;
                    case field::Color: value += colorText(u32At(p)); break;
                    case field::Float32: case field::Float32Libawd: {
                        float f;
                        std::memcpy(&f, p, 4);
                        value += fmt(f);
                        break;
                    }
                    default: {
                        double d;
                        std::memcpy(&d, p, 8);
                        value += fmt(d);
                        break;
                    }
                }
            }
            if (count > 16) value += ", ... (" + num(count) + " values)";
        } else {
            value = num(valueLength) + " bytes";
        }
        std::string nsText = ns ? (m_namespaces.count(ns) ? m_namespaces[ns] + " " : "namespace " + num(ns) + " ") : "";
        const std::string typeText = tname ? tname : "type " + num(type);
        info(blockWhere() + ": " + what + " user attribute " + nsText + quoted(key) + " (" + typeText + ") = " + value);
        // The block's own list names the attribute plainly; a part's (sub-geometry, joint, method) says whose it is.
        static const std::set<std::string, std::less<>> kOwnLists = {"object", "light",    "camera",   "sky box",
                                                                      "texture", "material", "geometry", "primitive"};
        UserAttribute attribute;
        attribute.name = (kOwnLists.count(std::string_view(what)) ? std::string() : std::string(what) + ": ") + nsText + key;
        attribute.type = typeText;
        attribute.value = std::move(value);
        m_blockAttributes.push_back(std::move(attribute));
    }
    return true;
}

bool Reader::readNumber(ByteReader& r, bool wide, double& out, const char* what) {
    out = wide ? r.f64() : double(r.f32());
    return !ended(r, what);
}

bool Reader::readMatrix(ByteReader& r, glm::mat4& out, const char* what) {
    out = glm::mat4(1.0f);
    const size_t need = m_header.matrix64 ? 96 : 48;
    if (!r.canRead(need)) {
        r.fail();
        ended(r, what);
        return false;
    }
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 3; ++row) out[c][row] = m_header.matrix64 ? float(r.f64()) : r.f32();
    return true;
}

double Reader::propFloat(const AttrList& list, uint16_t key, double fallback, bool wideExpected) {
    const Attr* a = list.find(key);
    if (!a) return fallback;
    if (a->length != 4 && a->length != 8) {
        violation(a->offset, blockWhere(),
                  "property " + num(key) + " is " + num(a->length) + " bytes, not a float32 or float64; the default " +
                      fmt(fallback) + " is used");
        return fallback;
    }
    if ((a->length == 8) != wideExpected)
        violation(a->offset, blockWhere(),
                  "property " + num(key) + " is a " + (a->length == 8 ? "float64" : "float32") +
                      ", but the header's precision flags ask for " + (wideExpected ? "float64" : "float32") +
                      " (read by its size)");
    if (a->length == 8) {
        double d;
        std::memcpy(&d, a->value, 8);
        return d;
    }
    float f;
    std::memcpy(&f, a->value, 4);
    return f;
}

uint32_t Reader::propUInt(const AttrList& list, uint16_t key, uint32_t fallback, uint32_t size) {
    const Attr* a = list.find(key);
    if (!a) return fallback;
    if (a->length != size) {
        violation(a->offset, blockWhere(),
                  "property " + num(key) + " is " + num(a->length) + " bytes, expected " + num(size) + "; the default " +
                      num(fallback) + " is used");
        return fallback;
    }
    switch (size) {
        case 1: return a->value[0];
        case 2: return uint32_t(a->value[0]) | uint32_t(a->value[1]) << 8;
        default: return u32At(a->value);
    }
}

bool Reader::propBool(const AttrList& list, uint16_t key, bool fallback) {
    const Attr* a = list.find(key);
    if (!a) return fallback;
    if (a->length != 1) {
        violation(a->offset, blockWhere(),
                  "property " + num(key) + " (a bool) is " + num(a->length) + " bytes, expected 1; the default " +
                      (fallback ? "true" : "false") + " is used");
        return fallback;
    }
    return a->value[0] != 0;
}

void Reader::unknownProps(const AttrList& list, std::initializer_list<uint16_t> known, const char* what) {
    for (const Attr& a : list.items)
        if (std::find(known.begin(), known.end(), a.key) == known.end())
            info(blockWhere() + ": " + what + " property " + num(a.key) + " (" + num(a.length) +
                 " bytes) is not defined for this block; ignored");
}

// ---------------------------------------------------------------------------------------------
// References

const BlockRef* Reader::resolve(uint32_t id, uint64_t offset, std::initializer_list<uint8_t> types, const char* what,
                                bool& ok) {
    ok = true;
    if (id == 0) return nullptr;
    auto found = m_blocks.find(id);
    if (found == m_blocks.end()) {
        ok = false;
        auto later = m_firstEntry.find(id);
        if (later != m_firstEntry.end()) {
            const BlockEntry& e = m_entries[later->second];
            if (m_current && e.offset == m_current->offset)
                fatal(offset, blockWhere(), std::string(what) + " refers to the block itself (id " + num(id) + ")");
            else
                fatal(offset, blockWhere(),
                      std::string(what) + " refers to block " + num(id) + " (" + typeName(e.type) + ") at offset " +
                          hex(e.offset + m_bodyBase) +
                          ", which comes later in the file (references must point backwards)");
        } else {
            fatal(offset, blockWhere(), std::string(what) + " refers to block " + num(id) + ", which the file does not define");
        }
        return nullptr;
    }
    const BlockRef& ref = found->second;
    if (std::find(types.begin(), types.end(), ref.type) == types.end()) {
        ok = false;
        fatal(offset, blockWhere(),
              std::string(what) + " refers to block " + num(id) + " (" +
                  (ref.type ? typeName(ref.type) : std::string("a user block")) +
                  (ref.name.empty() ? "" : " " + quoted(ref.name)) + "), which is not a " + typeList(types));
        return nullptr;
    }
    if (ref.index < 0) return nullptr;  // that block failed to read (already reported) or is not kept
    return &ref;
}

// ---------------------------------------------------------------------------------------------
// The block readers

namespace {

struct SceneHeader {
    uint32_t parent = 0;
    uint64_t parentOffset = 0;
    glm::mat4 matrix{1.0f};
    std::string name;
};

// Away3D pivots: the object turns and scales about the pivot point (T(p) * M * T(-p)).
glm::mat4 withPivot(const glm::mat4& m, const glm::vec3& pivot) {
    if (pivot == glm::vec3(0.0f)) return m;
    return glm::translate(glm::mat4(1.0f), pivot) * m * glm::translate(glm::mat4(1.0f), -pivot);
}

}  // namespace

class BlockReader {
public:
    BlockReader(Reader& reader, ByteReader& r) : m(reader), m_r(r) {}

    bool sceneHeader(SceneHeader& h) {
        h.parentOffset = m_r.offset();
        h.parent = m_r.u32();
        if (m.ended(m_r, "parent id")) return false;
        if (!m.readMatrix(m_r, h.matrix, "transform")) return false;
        if (!m.readString(m_r, h.name, "name")) return false;
        m.m_currentName = h.name;
        return true;
    }

    // A node for a scene-graph block, parented as its header says.
    int32_t addNode(const SceneHeader& h, NodeKind kind, const glm::vec3& pivot, bool visible) {
        int32_t parent = -1;
        bool ok = true;
        const BlockRef* p = m.resolve(h.parent, h.parentOffset,
                                      {block::Scene, block::Container, block::MeshInstance, block::SkyBox, block::Light,
                                       block::Camera},
                                      "the parent", ok);
        if (!ok) return -1;
        if (p) parent = p->index;
        if (m.m_current->type == block::Scene && h.parent != 0)
            m.violation(h.parentOffset, m.blockWhere(), "a Scene block has no parent, but its parent id is " + num(h.parent));
        Node node;
        node.name = h.name;
        node.parent = parent;
        node.kind = kind;
        node.local.useMatrix = true;
        node.local.matrix = withPivot(h.matrix, pivot);
        node.visible = visible;
        m.m_scene.nodes.push_back(std::move(node));
        m.m_pivots.push_back(pivot);
        return static_cast<int32_t>(m.m_scene.nodes.size() - 1);
    }

    // Pivot (1-3, matrix precision) and visibility (4) of Away3D's object properties.
    void objectProps(const AttrList& props, glm::vec3& pivot, bool& visible) {
        const bool wide = m.m_header.matrix64;
        pivot = glm::vec3(float(m.propFloat(props, 1, 0.0, wide)), float(m.propFloat(props, 2, 0.0, wide)),
                          float(m.propFloat(props, 3, 0.0, wide)));
        visible = m.propUInt(props, 4, 1, 1) != 0;
    }

    int32_t sceneObject(uint8_t type) {
        SceneHeader h;
        if (!sceneHeader(h)) return -1;
        glm::vec3 pivot(0.0f);
        bool visible = true;
        switch (type) {
            case block::Scene:
            case block::Container: {
                AttrList props;
                if (!m.readAttrs(m_r, props, "object")) return -1;
                if (m.m_header.v21()) {
                    objectProps(props, pivot, visible);
                    m.unknownProps(props, {1, 2, 3, 4}, "object");
                } else if (!props.items.empty()) {
                    m.info(m.blockWhere() + ": AWD 2.0 containers have no properties; " + num(props.items.size()) +
                           " ignored, as Away3D does");
                }
                if (!m.readUserAttrs(m_r, "object")) return -1;
                return addNode(h, NodeKind::Empty, pivot, visible);
            }
            case block::MeshInstance: return meshInstance(h);
            case block::Light: return light(h);
            case block::Camera: return camera(h);
            default: return -1;
        }
    }

    int32_t meshInstance(const SceneHeader& h) {
        const uint64_t geometryAt = m_r.offset();
        const uint32_t geometryId = m_r.u32();
        const uint16_t materialCount = m_r.u16();
        if (m.ended(m_r, "geometry and material count")) return -1;
        if (!m_r.canReadArray(materialCount, 4)) {
            m_r.fail();
            m.ended(m_r, "material list");
            return -1;
        }
        bool ok = true;
        const BlockRef* geometry =
            m.resolve(geometryId, geometryAt, {block::TriangleGeometry, block::PrimitiveGeometry}, "the geometry", ok);
        if (!ok) return -1;
        std::vector<int32_t> materials;
        for (uint16_t i = 0; i < materialCount; ++i) {
            const uint64_t at = m_r.offset();
            const uint32_t id = m_r.u32();
            const BlockRef* mat = m.resolve(id, at, {block::Material}, "a material", ok);
            if (!ok) return -1;
            materials.push_back(mat ? mat->index : -1);
        }
        AttrList props;
        if (!m.readAttrs(m_r, props, "object")) return -1;
        glm::vec3 pivot(0.0f);
        bool visible = true;
        bool castShadows = true;  // Away3D's default when the property is absent
        if (m.m_header.v21()) {
            objectProps(props, pivot, visible);
            castShadows = m.propBool(props, 5, true);
            m.unknownProps(props, {1, 2, 3, 4, 5}, "object");
        } else if (!props.items.empty()) {
            m.info(m.blockWhere() + ": AWD 2.0 mesh instances have no properties; " + num(props.items.size()) +
                   " ignored, as Away3D does");
        }
        if (!m.readUserAttrs(m_r, "object")) return -1;

        const int32_t node = addNode(h, geometry ? NodeKind::Mesh : NodeKind::Empty, pivot, visible);
        if (node < 0) return -1;
        Node& n = m.m_scene.nodes[node];
        if (!geometry) {
            m.violation(geometryAt, m.blockWhere(), "the mesh instance names no geometry (null); it draws nothing");
            return node;
        }
        n.object = geometry->index;
        // One material per sub-geometry; with fewer listed, the last repeats (Away3D).
        const Mesh& mesh = m.m_scene.meshes[geometry->index];
        const size_t slots = std::max<size_t>(1, mesh.submeshes.size());
        if (materials.size() > slots)
            m.info(m.blockWhere() + ": lists " + num(materials.size()) + " materials for " + num(slots) +
                   " sub-geometries; the extra ones are unused");
        for (size_t s = 0; s < slots; ++s)
            n.materials.push_back(materials.empty() ? -1 : materials[std::min(s, materials.size() - 1)]);
        if (!castShadows) m.m_noShadowInstances.push_back(h.name);
        return node;
    }

    int32_t light(const SceneHeader& h) {
        const uint64_t typeAt = m_r.offset();
        const uint8_t type = m_r.u8();
        if (m.ended(m_r, "light type")) return -1;
        AttrList props;
        if (!m.readAttrs(m_r, props, "light")) return -1;
        if (!m.readUserAttrs(m_r, "light")) return -1;

        const bool wideProps = m.m_header.properties64;
        Light light;
        light.name = h.name;
        if (type == 2) {
            light.type = LightType::Directional;
        } else {
            light.type = LightType::Point;
            if (type != 1)
                m.violation(typeAt, m.blockWhere(),
                            "light type " + num(type) + " is not defined (1 = point, 2 = directional); read as a point light");
        }
        // Point lights fade linearly from `radius` to zero at `falloff` (Away3D PointLight).
        if (light.type == LightType::Point) {
            light.rangeStart = float(m.propFloat(props, 1, 90000.0, wideProps));
            light.range = float(m.propFloat(props, 2, 100000.0, wideProps));
            if (!(light.range > light.rangeStart)) light.range = light.rangeStart + 1e-3f;
        }
        const uint32_t color = m.propUInt(props, 3, 0xFFFFFF, 4);
        light.color = rgb(color);
        const float specular = float(m.propFloat(props, 4, 1.0, wideProps));
        light.intensity = float(m.propFloat(props, 5, 1.0, wideProps));
        const uint32_t ambientColor = m.propUInt(props, 7, 0xFFFFFF, 4);
        const float ambient = float(m.propFloat(props, 8, 0.0, wideProps));
        const uint32_t mapper = m.propUInt(props, 9, 0, 1);
        light.castsShadows = mapper != 0;
        const bool wideMatrix = m.m_header.matrix64;
        const glm::vec3 direction(float(m.propFloat(props, 21, 0.0, wideMatrix)), float(m.propFloat(props, 22, -1.0, wideMatrix)),
                                  float(m.propFloat(props, 23, 1.0, wideMatrix)));
        m.unknownProps(props, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 23}, "light");

        std::string facts = m.blockWhere() + ": " + (light.type == LightType::Point ? "point" : "directional") +
                            " light, colour " + colorText(color) + ", diffuse " +
                            fmt(light.intensity) + ", specular " + fmt(specular) + ", ambient " + colorText(ambientColor) +
                            " x " + fmt(ambient);
        if (light.type == LightType::Point)
            facts += ", radius " + fmt(light.rangeStart) + ", falloff " + fmt(light.range);
        else
            facts += ", direction (" + fmt(direction.x) + ", " + fmt(direction.y) + ", " + fmt(direction.z) + ")";
        if (mapper) {
            static const char* const kMappers[] = {"none", "DirectionalShadowMapper", "NearDirectionalShadowMapper",
                                                   "CascadeShadowMapper", "CubeMapShadowMapper"};
            facts += std::string(", shadow mapper ") + (mapper < 5 ? kMappers[mapper] : ("type " + num(mapper)).c_str());
            if (m.has(props, 10)) {
                static const uint32_t kDepthSizes[] = {256, 512, 2048, 1024};
                const uint32_t size = m.propUInt(props, 10, 2, 1);
                facts += ", depth map " + (size < 4 ? num(kDepthSizes[size]) : "index " + num(size));
            }
            if (m.has(props, 11)) facts += ", coverage " + fmt(m.propFloat(props, 11, 0.5, wideProps));
            if (m.has(props, 12)) facts += ", " + num(m.propUInt(props, 12, 3, 2)) + " cascades";
            facts += " (shadows are not drawn)";
        }
        m.info(facts);
        if (specular != 1.0f)
            m.info(m.blockWhere() + ": the specular level " + fmt(specular) +
                   " is not drawn (the renderer's lights have one intensity)");

        m.m_scene.lights.push_back(light);
        m.m_lightDirections.push_back(direction);
        m.m_lightAmbient.push_back(rgb(ambientColor) * ambient);
        m.m_lightPlaced.push_back(false);
        const int32_t node = addNode(h, NodeKind::Light, glm::vec3(0.0f), true);
        if (node >= 0) m.m_scene.nodes[node].object = static_cast<int32_t>(m.m_scene.lights.size() - 1);
        return node;
    }

    int32_t camera(const SceneHeader& h) {
        m_r.u8();  // active camera flag (Away3D does not use it)
        m_r.u16();  // number of lenses (only one is read, as in Away3D)
        const uint64_t lensAt = m_r.offset();
        const uint16_t lens = m_r.u16();
        if (m.ended(m_r, "lens")) return -1;
        AttrList lensProps, props;
        if (!m.readAttrs(m_r, lensProps, "lens")) return -1;
        if (!m.readAttrs(m_r, props, "object")) return -1;
        if (!m.readUserAttrs(m_r, "camera")) return -1;
        const bool wide = m.m_header.properties64;
        Camera cam;
        cam.name = h.name;
        switch (lens) {
            case 5001:  // PerspectiveLens: vertical field of view in degrees
                cam.yfov = glm::radians(float(m.propFloat(lensProps, 101, 60.0, wide)));
                break;
            case 5002:  // OrthographicLens: projection height
                cam.orthographic = true;
                cam.orthoHeight = float(m.propFloat(lensProps, 101, 500.0, wide));
                break;
            case 5003: {  // OrthographicOffCenterLens: min x, max x, min y, max y
                cam.orthographic = true;
                const double minY = m.propFloat(lensProps, 103, -300.0, wide), maxY = m.propFloat(lensProps, 104, 300.0, wide);
                cam.orthoHeight = float(maxY - minY);
                m.info(m.blockWhere() + ": off-centre orthographic lens (x " + fmt(m.propFloat(lensProps, 101, -400.0, wide)) +
                       " .. " + fmt(m.propFloat(lensProps, 102, 400.0, wide)) + ", y " + fmt(minY) + " .. " + fmt(maxY) +
                       ") shown centred");
                break;
            }
            default:
                m.violation(lensAt, m.blockWhere(),
                            "lens type " + num(lens) + " is not defined (5001 perspective, 5002 orthographic, 5003 "
                            "off-centre orthographic); a perspective lens is used");
                break;
        }
        glm::vec3 pivot(0.0f);
        bool visible = true;
        objectProps(props, pivot, visible);
        cam.nearZ = float(m.propFloat(props, 101, 20.0, wide));
        cam.farZ = float(m.propFloat(props, 102, 3000.0, wide));
        m.unknownProps(lensProps, {101, 102, 103, 104}, "lens");
        m.unknownProps(props, {1, 2, 3, 4, 101, 102}, "object");
        m.m_scene.cameras.push_back(cam);
        const int32_t node = addNode(h, NodeKind::Camera, pivot, visible);
        if (node < 0) return -1;
        Node& n = m.m_scene.nodes[node];
        n.object = static_cast<int32_t>(m.m_scene.cameras.size() - 1);
        // Away3D cameras look down +Z (left-handed); the renderer's look down -Z.
        n.objectTransform = glm::rotate(glm::mat4(1.0f), glm::pi<float>(), glm::vec3(0.0f, 1.0f, 0.0f));
        return node;
    }

    int32_t skyBox() {
        std::string name;
        if (!m.readString(m_r, name, "name")) return -1;
        m.m_currentName = name;
        const uint64_t at = m_r.offset();
        const uint32_t cubeId = m_r.u32();
        if (m.ended(m_r, "cube texture id")) return -1;
        bool ok = true;
        const BlockRef* cube = m.resolve(cubeId, at, {block::CubeTexture}, "the cube texture", ok);
        if (!ok) return -1;
        AttrList props;
        if (!m.readAttrs(m_r, props, "sky box")) return -1;
        m.unknownProps(props, {}, "sky box");
        if (!m.readUserAttrs(m_r, "sky box")) return -1;
        m.info(m.blockWhere() + ": sky box" +
               (cube ? " with cube texture " + quoted(m.m_cubes[cube->index].name) : std::string(" without a cube texture")) +
               " (the renderer draws no sky box)");
        Node node;
        node.name = name;
        m.m_scene.nodes.push_back(std::move(node));
        m.m_pivots.push_back(glm::vec3(0.0f));
        return static_cast<int32_t>(m.m_scene.nodes.size() - 1);
    }

    int32_t textureProjector() {
        SceneHeader h;
        if (!sceneHeader(h)) return -1;
        const uint64_t at = m_r.offset();
        const uint32_t textureId = m_r.u32();
        TextureProjector p;
        p.name = h.name;
        p.aspect = m_r.f32();  // always float32 in AWD2Parser
        p.fov = m_r.f32();
        if (m.ended(m_r, "texture, aspect ratio and field of view")) return -1;
        bool ok = true;
        const BlockRef* tex = m.resolve(textureId, at, {block::BitmapTexture}, "the texture", ok);
        if (!ok) return -1;
        const BlockRef* parent = m.resolve(h.parent, h.parentOffset,
                                           {block::Scene, block::Container, block::MeshInstance, block::SkyBox,
                                            block::Light, block::Camera},
                                           "the parent", ok);
        if (!ok) return -1;
        AttrList props;
        if (!m.readAttrs(m_r, props, "object")) return -1;
        glm::vec3 pivot(0.0f);
        bool visible = true;
        objectProps(props, pivot, visible);
        m.unknownProps(props, {1, 2, 3, 4}, "object");
        if (!m.readUserAttrs(m_r, "texture projector")) return -1;
        p.texture = tex ? tex->index : -1;
        p.transform = withPivot(h.matrix, pivot);
        p.parentNode = parent ? parent->index : -1;
        m.info(m.blockWhere() + ": texture projector" +
               (tex ? " of texture " + quoted(m.m_scene.textures[tex->index].name) : std::string()) + ", aspect " +
               fmt(p.aspect) + ", field of view " + fmt(p.fov) + " degrees (projection is not drawn)");
        m.m_projectors.push_back(p);
        return static_cast<int32_t>(m.m_projectors.size() - 1);
    }

    int32_t lightPicker() {
        std::string name;
        if (!m.readString(m_r, name, "name")) return -1;
        m.m_currentName = name;
        const uint16_t count = m_r.u16();
        if (m.ended(m_r, "light count")) return -1;
        if (!m_r.canReadArray(count, 4)) {
            m_r.fail();
            m.ended(m_r, "light list");
            return -1;
        }
        LightPicker picker;
        picker.name = name;
        bool ok = true;
        for (uint16_t i = 0; i < count; ++i) {
            const uint64_t at = m_r.offset();
            const BlockRef* light = m.resolve(m_r.u32(), at, {block::Light}, "a light", ok);
            if (!ok) return -1;
            if (light) picker.lights.push_back(m.m_scene.nodes[light->index].object);
        }
        if (!m.readUserAttrs(m_r, "light picker")) return -1;
        m.m_pickers.push_back(std::move(picker));
        return static_cast<int32_t>(m.m_pickers.size() - 1);
    }

    // ---- textures

    // Embedded image data: JPEG and PNG are read by loaders/textures; ATF (Adobe's compressed
    // texture container) is not.
    void checkImage(const uint8_t* data, size_t size, uint64_t at, const std::string& what) {
        static const uint8_t kJpeg[] = {0xFF, 0xD8, 0xFF};
        static const uint8_t kPng[] = {0x89, 'P', 'N', 'G'};
        if (size >= 3 && std::memcmp(data, kJpeg, 3) == 0) return;
        if (size >= 4 && std::memcmp(data, kPng, 4) == 0) return;
        if (size >= 3 && std::memcmp(data, "ATF", 3) == 0) {
            m.warn(at, m.blockWhere(), what + " is an ATF texture, which esview cannot read; a placeholder is shown");
            return;
        }
        m.violation(at, m.blockWhere(), what + " is neither JPEG nor PNG data (" + num(size) + " bytes)");
    }

    Texture image(uint8_t type, const std::string& name, uint64_t typeAt, const std::string& what, bool& ok) {
        Texture t;
        t.name = name;
        const uint64_t at = m_r.offset();
        const uint32_t length = m_r.u32();
        if (m.ended(m_r, "image length")) {
            ok = false;
            return t;
        }
        if (length > m_r.remaining()) {
            m.fatal(at, m.blockWhere(), what + " claims " + num(length) + " bytes, " + num(m_r.remaining()) + " remain in the block");
            m_r.fail();
            ok = false;
            return t;
        }
        const uint8_t* data = m_r.current();
        m_r.skip(length);
        if (type == 0) {
            t.path.assign(reinterpret_cast<const char*>(data), length);
            if (t.path.empty()) m.violation(at, m.blockWhere(), what + " is external but names no file");
        } else {
            if (type != 1)
                m.violation(typeAt, m.blockWhere(),
                            "image type " + num(type) + " is not defined (0 = external, 1 = embedded); read as embedded");
            if (length == 0) {
                m.violation(at, m.blockWhere(), what + " is embedded but holds no data");
            } else {
                t.embedded = ByteView{m.m_blockOwner ? m.m_blockOwner : m.m_body, data, length};
                checkImage(data, length, at + 4, what);
            }
        }
        return t;
    }

    int32_t bitmapTexture() {
        std::string name;
        if (!m.readString(m_r, name, "name")) return -1;
        m.m_currentName = name;
        const uint64_t typeAt = m_r.offset();
        const uint8_t type = m_r.u8();
        if (m.ended(m_r, "image type")) return -1;
        bool ok = true;
        Texture t = image(type, name, typeAt, "the image", ok);
        if (!ok) return -1;
        AttrList props;
        if (!m.readAttrs(m_r, props, "texture")) return -1;
        m.unknownProps(props, {}, "texture");
        if (!m.readUserAttrs(m_r, "texture")) return -1;
        m.m_scene.textures.push_back(std::move(t));
        return static_cast<int32_t>(m.m_scene.textures.size() - 1);
    }

    int32_t cubeTexture() {
        const uint64_t typeAt = m_r.offset();
        const uint8_t type = m_r.u8();
        if (m.ended(m_r, "image type")) return -1;
        std::string name;
        if (!m.readString(m_r, name, "name")) return -1;
        m.m_currentName = name;
        std::vector<Texture> faces;
        for (int f = 0; f < 6; ++f) {
            bool ok = true;
            faces.push_back(image(type, name + " " + kCubeFaces[f], typeAt, std::string("face ") + kCubeFaces[f], ok));
            if (!ok) return -1;
        }
        AttrList props;
        if (!m.readAttrs(m_r, props, "cube texture")) return -1;
        m.unknownProps(props, {}, "cube texture");
        if (!m.readUserAttrs(m_r, "cube texture")) return -1;
        CubeTexture cube;
        cube.name = name;
        cube.firstTexture = static_cast<int32_t>(m.m_scene.textures.size());
        for (Texture& t : faces) m.m_scene.textures.push_back(std::move(t));
        m.m_cubes.push_back(cube);
        return static_cast<int32_t>(m.m_cubes.size() - 1);
    }

    // ---- methods

    // A TypedPropertiesList (uint16 type, properties, user attributes). Property types follow the
    // key ranges: 1-100 BlockAddr, 101-200 float, 201-300 uint32, 301-400 uint16, 401-500 uint8,
    // 501-600 string, 601-700 colour, 701-800 bool, 801-900 matrix (a list of floats).
    bool method(Method& out, const char* what) {
        const uint64_t at = m_r.offset();
        out.type = m_r.u16();
        if (m.ended(m_r, "method type")) return false;
        if (!m.readAttrs(m_r, out.props, what)) return false;
        for (const Attr& a : out.props.items) {
            if (a.key >= 1 && a.key <= 100) {
                if (a.length != 4) {
                    m.violation(a.offset, m.blockWhere(), std::string(what) + " property " + num(a.key) + " (a BlockAddr) is " +
                                                              num(a.length) + " bytes, expected 4; ignored");
                    continue;
                }
                const uint32_t id = u32At(a.value);
                const bool cubeKey = (out.type == 1 || out.type == 403 || out.type == 408 || out.type == 410) && a.key == 1;
                const bool methodKey = (out.type == 998 || out.type == 999 || out.type == 1001 || out.type == 1002) && a.key == 1;
                const bool projectorKey = out.type == 405 && a.key == 1;
                bool ok = true;
                if (cubeKey) {
                    const BlockRef* ref = m.resolve(id, a.offset, {block::CubeTexture}, "a method's cube texture", ok);
                    if (ref) out.cubes[a.key] = ref->index;
                } else if (methodKey) {
                    // resolved by the caller (the target block type depends on the method)
                } else if (projectorKey) {
                    m.resolve(id, a.offset, {block::TextureProjector}, "a method's texture projector", ok);
                } else {
                    const BlockRef* ref = m.resolve(id, a.offset, {block::BitmapTexture}, "a method's texture", ok);
                    if (ref) out.textures[a.key] = ref->index;
                }
                if (!ok) return false;
            } else {
                size_t size = 0;
                if (a.key >= 201 && a.key <= 300) size = 4;
                else if (a.key >= 301 && a.key <= 400) size = 2;
                else if (a.key >= 401 && a.key <= 500) size = 1;
                else if (a.key >= 601 && a.key <= 700) size = 4;
                else if (a.key >= 701 && a.key <= 800) size = 1;
                const bool isFloat = (a.key >= 101 && a.key <= 200) || (a.key >= 801 && a.key <= 900);
                if (size && a.length != size)
                    m.violation(a.offset, m.blockWhere(),
                                std::string(what) + " property " + num(a.key) + " is " + num(a.length) + " bytes, expected " +
                                    num(size) + "; ignored");
                else if (isFloat && (a.length == 0 || (a.length % 4 != 0)))
                    m.violation(a.offset, m.blockWhere(),
                                std::string(what) + " property " + num(a.key) + " is " + num(a.length) +
                                    " bytes, not a whole number of floats; ignored");
                else if (a.key > 900 || a.key == 0)
                    m.info(m.blockWhere() + ": " + what + " property " + num(a.key) + " is outside the typed ranges; ignored");
            }
        }
        (void)at;
        return m.readUserAttrs(m_r, what);
    }

    // A method property by key as text, for the report.
    std::string methodProps(const Method& mt) {
        std::string out;
        for (const Attr& a : mt.props.items) {
            std::string v;
            if (a.key >= 101 && a.key <= 200 && (a.length == 4 || a.length == 8))
                v = fmt(m.propFloat(mt.props, a.key, 0.0, a.length == 8));
            else if (((a.key >= 201 && a.key <= 300) || (a.key >= 1 && a.key <= 100)) && a.length == 4)
                v = num(u32At(a.value));
            else if (a.key >= 301 && a.key <= 400 && a.length == 2)
                v = num(uint32_t(a.value[0]) | uint32_t(a.value[1]) << 8);
            else if (a.key >= 401 && a.key <= 500 && a.length == 1)
                v = num(a.value[0]);
            else if (a.key >= 601 && a.key <= 700 && a.length == 4)
                v = colorText(u32At(a.value));
            else if (a.key >= 701 && a.key <= 800 && a.length == 1)
                v = a.value[0] ? "true" : "false";
            else
                v = num(a.length) + " bytes";
            out += (out.empty() ? "" : ", ") + num(a.key) + " = " + v;
        }
        return out.empty() ? "defaults" : out;
    }

    static std::string methodName(uint16_t type) {
        const char* n = methodTypeName(type);
        return (n ? std::string(n) : std::string("method")) + " (" + num(type) + ")";
    }

    int32_t sharedMethod() {
        std::string name;
        if (!m.readString(m_r, name, "name")) return -1;
        m.m_currentName = name;
        Method mt;
        mt.name = name;
        if (!method(mt, "method")) return -1;
        if (!m.readUserAttrs(m_r, "shared method")) return -1;
        if (mt.type < 401 || mt.type > 411)
            m.violation(mt.props.offset - 2, m.blockWhere(),
                        "method type " + num(mt.type) + " is not an effect method (401-411); kept but not applied");
        m.info(m.blockWhere() + ": " + methodName(mt.type) + ": " + methodProps(mt));
        m.m_sharedMethods.push_back(std::move(mt));
        return static_cast<int32_t>(m.m_sharedMethods.size() - 1);
    }

    int32_t shadowMethod() {
        std::string name;
        if (!m.readString(m_r, name, "name")) return -1;
        m.m_currentName = name;
        const uint64_t lightAt = m_r.offset();
        const uint32_t lightId = m_r.u32();
        if (m.ended(m_r, "light id")) return -1;
        bool ok = true;
        const BlockRef* light = m.resolve(lightId, lightAt, {block::Light}, "the light", ok);
        if (!ok) return -1;
        Method mt;
        mt.name = name;
        if (!method(mt, "shadow method")) return -1;
        if (!m.readUserAttrs(m_r, "shadow method")) return -1;
        if (!light) m.violation(lightAt, m.blockWhere(), "the shadow method names no light (Away3D drops it)");
        mt.light = light ? m.m_scene.nodes[light->index].object : -1;
        if (mt.type == 1001 || mt.type == 1002) {
            const Attr* base = mt.props.find(1);
            if (base && base->length == 4) {
                const BlockRef* ref = m.resolve(u32At(base->value), base->offset, {block::ShadowMethod}, "the base shadow method", ok);
                if (!ok) return -1;
                mt.baseShadow = ref ? ref->index : -1;
            }
            if (mt.baseShadow < 0)
                m.violation(mt.props.offset, m.blockWhere(), methodName(mt.type) + " needs a base shadow method (property 1)");
        } else if (mt.type < 1101 || mt.type > 1104) {
            m.violation(mt.props.offset - 2, m.blockWhere(),
                        "shadow method type " + num(mt.type) + " is not defined (1001, 1002, 1101-1104)");
        }
        if (light) m.m_scene.lights[mt.light].castsShadows = true;
        m.info(m.blockWhere() + ": " + methodName(mt.type) + " for light " +
               (light ? quoted(m.m_scene.lights[mt.light].name) : std::string("(none)")) + ": " + methodProps(mt) +
               " (shadows are not drawn)");
        m.m_shadowMethods.push_back(std::move(mt));
        return static_cast<int32_t>(m.m_shadowMethods.size() - 1);
    }

    // ---- materials

    int32_t material() {
        std::string name;
        if (!m.readString(m_r, name, "name")) return -1;
        m.m_currentName = name;
        const uint64_t typeAt = m_r.offset();
        const uint8_t type = m_r.u8();
        const uint8_t methodCount = m_r.u8();
        if (m.ended(m_r, "material type and method count")) return -1;
        AttrList props;
        if (!m.readAttrs(m_r, props, "material")) return -1;

        Material mat;
        mat.name = name;
        const bool wide = m.m_header.properties64;
        auto texture = [&](uint16_t key, const char* what, int32_t& out) {
            out = -1;
            const Attr* a = props.find(key);
            if (!a) return true;
            if (a->length != 4) {
                m.violation(a->offset, m.blockWhere(), std::string(what) + " (property " + num(key) + ") is " + num(a->length) +
                                                           " bytes, expected a 4-byte BlockAddr; ignored");
                return true;
            }
            bool ok = true;
            const BlockRef* ref = m.resolve(u32At(a->value), a->offset, {block::BitmapTexture}, what, ok);
            if (ref) out = ref->index;
            return ok;
        };
        int32_t diffuse = -1, normal = -1, ambientTex = -1, specularTex = -1;
        if (!texture(2, "the texture", diffuse) || !texture(3, "the normal texture", normal) ||
            !texture(17, "the ambient texture", ambientTex) || !texture(21, "the specular texture", specularTex))
            return -1;
        int32_t picker = -1;
        if (const Attr* a = props.find(22)) {
            if (a->length == 4) {
                bool ok = true;
                const BlockRef* ref = m.resolve(u32At(a->value), a->offset, {block::LightPicker}, "the light picker", ok);
                if (!ok) return -1;
                picker = ref ? ref->index : -1;
            } else {
                m.violation(a->offset, m.blockWhere(), "the light picker (property 22) is not a 4-byte BlockAddr; ignored");
            }
        }

        if (type == 2) {
            mat.diffuse = glm::vec3(1.0f);
            if (diffuse >= 0) mat.texture(TextureSlot::Diffuse).texture = diffuse;
            else m.m_materialNotes["texture material without a texture (drawn white)"].push_back(name);
        } else {
            if (type != 1)
                m.violation(typeAt, m.blockWhere(),
                            "material type " + num(type) + " is not defined (1 = colour, 2 = texture); read as a colour material");
            mat.diffuse = rgb(m.propUInt(props, 1, 0xCCCCCC, 4));  // Away3D's default colour
            if (diffuse >= 0) {
                m.info(m.blockWhere() + ": a colour material with a texture (property 2); the texture is not used");
            }
        }
        if (normal >= 0) mat.texture(TextureSlot::Normal).texture = normal;
        if (ambientTex >= 0) mat.texture(TextureSlot::Ambient).texture = ambientTex;
        if (specularTex >= 0) mat.texture(TextureSlot::Specular).texture = specularTex;

        const uint32_t special = m.propUInt(props, 4, 0, 1);
        const bool smooth = m.propBool(props, 5, true);
        const bool mipmap = m.propBool(props, 6, true);
        mat.twoSided = m.propBool(props, 7, false);
        const bool premultiplied = m.propBool(props, 8, false);
        const uint32_t blendMode = m.propUInt(props, 9, 0, 1);
        mat.opacity = float(m.propFloat(props, 10, 1.0, wide));
        const bool alphaBlending = m.propBool(props, 11, false);
        mat.alphaCutoff = float(m.propFloat(props, 12, 0.0, wide));
        const bool repeat = m.propBool(props, 13, false);  // Away3D's default (the spec says true)
        const float ambientLevel = float(m.propFloat(props, 15, 1.0, wide));
        mat.ambient = rgb(m.propUInt(props, 16, 0xFFFFFF, 4)) * ambientLevel;
        const float specularLevel = float(m.propFloat(props, 18, 1.0, wide));
        mat.shininess = float(m.propFloat(props, 19, 50.0, wide));
        mat.specular = rgb(m.propUInt(props, 20, 0xFFFFFF, 4)) * specularLevel;
        if (m.has(props, 14))
            m.info(m.blockWhere() + ": the diffuse level (property 14, " + fmt(m.propFloat(props, 14, 1.0, wide)) +
                   ") is not used by Away3D; ignored");
        m.unknownProps(props, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22}, "material");

        // Blending: Away3D's blend modes as GL factors; "normal" with alpha blending or alpha < 1
        // becomes its "layer" mode.
        auto blend = [&](BlendFactor src, BlendFactor dst) {
            mat.blend.enabled = true;
            mat.blend.srcRgb = mat.blend.srcAlpha = src;
            mat.blend.dstRgb = mat.blend.dstAlpha = dst;
        };
        switch (blendMode) {
            case 0:
            case 11:
                if (alphaBlending || mat.opacity < 1.0f) blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha);
                break;
            case 1: blend(BlendFactor::SrcAlpha, BlendFactor::One); break;                     // ADD
            case 2: blend(BlendFactor::Zero, BlendFactor::SrcAlpha); break;                    // ALPHA
            case 8: blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha); break;        // LAYER
            case 10: blend(BlendFactor::Zero, BlendFactor::SrcColor); break;                   // MULTIPLY
            case 13: blend(BlendFactor::One, BlendFactor::OneMinusSrcColor); break;            // SCREEN
            default:
                m.violation(props.find(9)->offset, m.blockWhere(),
                            "blend mode " + num(blendMode) + " is not one Away3D draws (0 normal, 1 add, 2 alpha, 8 layer, "
                            "10 multiply, 13 screen); drawn as normal");
                break;
        }
        const Wrap wrap = repeat ? Wrap::Repeat : Wrap::Clamp;
        for (TextureRef& t : mat.textures) t.wrapS = t.wrapT = wrap;

        if (special == 1) m.m_materialNotes["multi-pass material (drawn in one pass)"].push_back(name);
        if (special >= 2)
            m.violation(props.find(4)->offset, m.blockWhere(),
                        "material kind " + num(special) + " (property 4) is not single- or multi-pass; Away3D refuses it");
        if (!smooth) m.m_materialNotes["smooth off: unfiltered textures asked for (drawn filtered)"].push_back(name);
        if (!mipmap) m.m_materialNotes["mipmap off: no mipmaps asked for (drawn with mipmaps)"].push_back(name);
        if (premultiplied) m.m_materialNotes["pre-multiplied alpha (textures are read as straight alpha)"].push_back(name);
        if (picker >= 0) {
            std::string lights;
            for (int32_t l : m.m_pickers[picker].lights)
                lights += (lights.empty() ? "" : ", ") + quoted(m.m_scene.lights[l].name);
            m.m_materialNotes["lit by light picker " + quoted(m.m_pickers[picker].name) + " (" +
                              (lights.empty() ? "no lights" : lights) + "; the renderer lights every material with every light)"]
                .push_back(name);
        }

        // Shading methods: what the renderer can show is mapped, the rest is listed.
        for (uint8_t i = 0; i < methodCount; ++i) {
            Method mt;
            if (!method(mt, "method")) return -1;
            if (!applyMethod(mt, mat)) return -1;
        }
        if (!m.readUserAttrs(m_r, "material")) return -1;
        m.m_scene.materials.push_back(std::move(mat));
        return static_cast<int32_t>(m.m_scene.materials.size() - 1);
    }

    bool applyMethod(const Method& mt, Material& mat) {
        const std::string& name = mat.name;
        auto note = [&](const std::string& text) { m.m_materialNotes[text].push_back(name); };
        switch (mt.type) {
            case 998: {  // a ShadowMethod block
                const Attr* a = mt.props.find(1);
                bool ok = true;
                const BlockRef* ref = a && a->length == 4 ? m.resolve(u32At(a->value), a->offset, {block::ShadowMethod},
                                                                      "the shadow method", ok)
                                                          : nullptr;
                if (!ok) return false;
                if (ref) note("shadows received through " + quoted(m.m_shadowMethods[ref->index].name) + " (not drawn)");
                else m.violation(mt.props.offset, m.blockWhere(), "ShadowMapMethodBlockMethod (998) names no shadow method");
                return true;
            }
            case 999: {  // a SharedMethod block
                const Attr* a = mt.props.find(1);
                bool ok = true;
                const BlockRef* ref = a && a->length == 4 ? m.resolve(u32At(a->value), a->offset, {block::SharedMethod},
                                                                      "the shared method", ok)
                                                          : nullptr;
                if (!ok) return false;
                if (!ref) {
                    m.violation(mt.props.offset, m.blockWhere(), "EffectMethodBlockMethod (999) names no shared method");
                    return true;
                }
                return applyEffect(m.m_sharedMethods[ref->index], mat);
            }
            case 102:
                note("PhongSpecularMethod (102), drawn with the renderer's Blinn-Phong");
                return true;
            default:
                if (mt.type >= 401 && mt.type <= 411) return applyEffect(mt, mat);
                m.m_materialWarnings[methodName(mt.type) + ", which the renderer does not draw [" +
                                     methodProps(mt) + "]"]
                    .push_back(name);
                return true;
        }
    }

    bool applyEffect(const Method& mt, Material& mat) {
        const std::string& name = mat.name;
        auto note = [&](const std::string& text) { m.m_materialNotes[text].push_back(name); };
        const std::string label = (mt.name.empty() ? "" : quoted(mt.name) + " ") + methodName(mt.type);
        switch (mt.type) {
            case 402: {  // ColorTransform: multipliers scale the colour and alpha; the offset is listed
                const float a = float(m.propFloat(mt.props, 101, 1.0, m.m_header.properties64));
                const float r = float(m.propFloat(mt.props, 102, 1.0, m.m_header.properties64));
                const float g = float(m.propFloat(mt.props, 103, 1.0, m.m_header.properties64));
                const float b = float(m.propFloat(mt.props, 104, 1.0, m.m_header.properties64));
                mat.diffuse *= glm::vec3(r, g, b);
                mat.opacity *= a;
                if (mat.opacity < 1.0f && !mat.blend.enabled) {
                    mat.blend.enabled = true;
                    mat.blend.srcRgb = mat.blend.srcAlpha = BlendFactor::SrcAlpha;
                    mat.blend.dstRgb = mat.blend.dstAlpha = BlendFactor::OneMinusSrcAlpha;
                }
                if (m.has(mt.props, 601)) note(label + ": the colour offset is not drawn");
                return true;
            }
            case 407: {  // AlphaMask: the texture's alpha is the opacity
                auto t = mt.textures.find(1);
                if (t != mt.textures.end()) {
                    TextureRef& ref = mat.texture(TextureSlot::Opacity);
                    ref.texture = t->second;
                    ref.uvSet = m.propBool(mt.props, 701, false) ? 1 : 0;
                    ref.wrapS = ref.wrapT = mat.texture(TextureSlot::Diffuse).wrapS;
                } else {
                    note(label + " without a texture (nothing masked)");
                }
                return true;
            }
            default:
                m.m_materialWarnings[label + ", which the renderer does not draw [" + methodProps(mt) + "]"]
                    .push_back(name);
                return true;
        }
    }

    // ---- commands, namespaces, meta-data

    int32_t command() {
        m_r.u8();  // "has blocks" (unused by Away3D)
        SceneHeader h;
        if (!sceneHeader(h)) return -1;
        m_r.u16();  // number of commands (Away3D reads one)
        const uint64_t typeAt = m_r.offset();
        const uint16_t type = m_r.u16();
        if (m.ended(m_r, "command type")) return -1;
        AttrList props;
        if (!m.readAttrs(m_r, props, "command")) return -1;
        m.unknownProps(props, {1}, "command");
        AttrList objectProps;
        glm::vec3 pivot(0.0f);
        bool visible = true;
        if (!m_r.atEnd()) {
            if (!m.readAttrs(m_r, objectProps, "object")) return -1;
            this->objectProps(objectProps, pivot, visible);
            m.unknownProps(objectProps, {1, 2, 3, 4}, "object");
            if (!m.readUserAttrs(m_r, "command")) return -1;
        }
        if (type != 1) {
            m.violation(typeAt, m.blockWhere(),
                        "command " + num(type) + " is not one this reader knows (1 = put object into the scene graph); ignored");
            return 0;
        }
        bool ok = true;
        const Attr* target = props.find(1);
        if (!target || target->length != 4) {
            m.violation(props.offset, m.blockWhere(), "the command names no target object (property 1)");
            return 0;
        }
        const BlockRef* object = m.resolve(u32At(target->value), target->offset,
                                           {block::Light, block::TextureProjector, block::Camera, block::Container,
                                            block::MeshInstance},
                                           "the target object", ok);
        if (!ok) return -1;
        const BlockRef* parent = m.resolve(h.parent, h.parentOffset,
                                           {block::Scene, block::Container, block::MeshInstance, block::SkyBox,
                                            block::Light, block::Camera},
                                           "the parent", ok);
        if (!ok || !object) return ok ? 0 : -1;
        const glm::mat4 local = withPivot(h.matrix, pivot);
        const int32_t parentNode = parent ? parent->index : -1;
        if (object->type == block::TextureProjector) {
            m.m_projectors[object->index].transform = local;
            m.m_projectors[object->index].parentNode = parentNode;
            return 0;
        }
        // A parent inside the object's own subtree would make a loop.
        for (int32_t p = parentNode, steps = 0; p >= 0 && steps <= int(m.m_scene.nodes.size()); p = m.m_scene.nodes[p].parent, ++steps)
            if (p == object->index) {
                m.fatal(h.parentOffset, m.blockWhere(), "the new parent lies inside the object's own subtree (a parent loop)");
                return -1;
            }
        Node& n = m.m_scene.nodes[object->index];
        n.parent = parentNode;
        n.local.useMatrix = true;
        n.local.matrix = local;
        m.m_pivots[object->index] = pivot;
        if (object->type == block::Light && n.object >= 0) m.m_lightPlaced[n.object] = true;
        return 0;
    }

    int32_t nameSpace() {
        const uint64_t at = m_r.offset();
        const uint8_t handle = m_r.u8();
        if (m.ended(m_r, "namespace handle")) return -1;
        std::string uri;
        if (!m.readString(m_r, uri, "namespace URI")) return -1;
        m.m_currentName = uri;
        if (handle == 0) {
            m.violation(at, m.blockWhere(), "namespace handle 0 is reserved for the null namespace; ignored");
            return 0;
        }
        for (const auto& [h, u] : m.m_namespaces)
            if (u == uri && h != handle)
                m.violation(at, m.blockWhere(), "namespace " + quoted(uri) + " already has handle " + num(h));
        if (m.m_namespaces.count(handle) && m.m_namespaces[handle] != uri)
            m.violation(at, m.blockWhere(),
                        "namespace handle " + num(handle) + " was defined before as " + quoted(m.m_namespaces[handle]));
        m.m_namespaces[handle] = uri;
        m.info(m.blockWhere() + ": namespace " + num(handle) + " = " + quoted(uri));
        return 0;
    }

    // Meta-data: uint32 timestamp (1) and the encoder's and generator's names and versions (2-5).
    // Prefab3D's AWD2Exporter writes each string as a VarString whose value length leaves out
    // the 2-byte length prefix; that form is recognised (and reported in check mode).
    int32_t metaData() {
        if (m_r.atEnd()) {  // AwayBuilder writes an empty meta-data block
            m.info(m.blockWhere() + ": empty meta-data block");
            return 0;
        }
        const uint64_t at = m_r.offset();
        const uint32_t length = m_r.u32();
        if (m.ended(m_r, "meta-data attribute list")) return -1;
        if (length > m_r.remaining()) {
            m.fatal(at, m.blockWhere(),
                    "the meta-data attribute list claims " + num(length) + " bytes, " + num(m_r.remaining()) + " remain in the block");
            return -1;
        }
        ByteReader list = m_r.sub(length);
        static const char* const kNames[] = {"", "created", "encoder", "encoder version", "generator", "generator version"};
        std::string text;
        bool quirk = false;
        while (!list.atEnd()) {
            const uint64_t itemAt = list.offset();
            const uint16_t key = list.u16();
            uint32_t size = list.u32();
            if (!list.ok() || size > list.remaining()) {
                m.violation(itemAt, m.blockWhere(), "a meta-data attribute overruns its list; the rest is skipped");
                break;
            }
            const uint8_t* v = list.current();
            std::string value;
            if (key == 1 && size == 4) {
                value = num(u32At(v)) + " s after 1970";
            } else if (key >= 2 && key <= 5) {
                if (size + uint64_t(2) <= list.remaining() && size >= 2 &&
                    (uint32_t(v[0]) | uint32_t(v[1]) << 8) == size) {
                    if (!quirk)
                        m.violation(itemAt, m.blockWhere(),
                                    "meta-data attribute " + num(key) +
                                        " holds a VarString whose 2-byte length its value length leaves out (Prefab3D "
                                        "exporter); such strings are read whole");
                    quirk = true;
                    v += 2;
                    list.skip(2);
                }
                value = quoted(std::string(reinterpret_cast<const char*>(v), size));
            } else {
                value = num(size) + " bytes";
                if (key < 1 || key > 5)
                    m.info(m.blockWhere() + ": meta-data attribute " + num(key) + " is not defined; ignored");
            }
            list.skip(size);
            if (key >= 1 && key <= 5) text += (text.empty() ? "" : ", ") + std::string(kNames[key]) + " " + value;
        }
        m.info("AWD meta-data: " + (text.empty() ? std::string("none") : text));
        // Prefab3D follows the list with a user attribute list, which the spec does not have.
        if (m_r.remaining() >= 4 && !m.readUserAttrs(m_r, "meta-data")) return -1;
        return 0;
    }

private:
    Reader& m;
    ByteReader& m_r;
};

// ---------------------------------------------------------------------------------------------
// The file

// The 12-byte header: magic, version, flags, compression and body length. False when the file
// cannot be read (reported).
bool Reader::readHeader(const uint8_t* data, size_t size) {
    if (size < kHeaderSize || std::memcmp(data, "AWD", 3) != 0) {
        fatal(0, "header", size < kHeaderSize ? "the file is " + num(size) + " bytes, shorter than the 12-byte AWD header"
                                              : "the file does not start with \"AWD\"");
        return false;
    }
    ByteReader h(data, size);
    h.skip(3);
    m_header.major = h.u8();
    m_header.minor = h.u8();
    m_header.flags = h.u16();
    m_header.compression = h.u8();
    m_header.bodyLength = h.u32();
    if (m_header.major != 2 || m_header.minor > 1) {
        fatal(3, "header", "AWD version " + num(m_header.major) + "." + num(m_header.minor) + " is not supported (2.0 and 2.1 are)");
        return false;
    }
    m_header.streaming = (m_header.flags & kFlagStreaming) != 0;
    if (m_header.flags & ~kKnownHeaderFlags)
        // Flags the spec does not define (Away3D's tools set 0x80) are ignored, as Away3D does: a
        // warning, not a violation.
        warn(5, "header", "header flags " + hex(m_header.flags & ~kKnownHeaderFlags) +
                              " are not defined by the spec and are ignored");
    if (m_header.v21()) {
        m_header.matrix64 = (m_header.flags & kFlagMatrix64) != 0;
        m_header.geometry64 = (m_header.flags & kFlagGeometry64) != 0;
        m_header.properties64 = (m_header.flags & kFlagProperties64) != 0;
    } else if (m_header.flags & (kFlagMatrix64 | kFlagGeometry64 | kFlagProperties64)) {
        violation(5, "header", "precision flags " + hex(m_header.flags & 0xE) +
                                   " are defined for AWD 2.1 only; this 2.0 file is read as float32, as Away3D does");
    }
    if (m_header.compression > 2) {
        fatal(7, "header", "compression type " + num(m_header.compression) + " is not defined (0 none, 1 zlib, 2 LZMA)");
        return false;
    }
    return true;
}

// The body: what follows the header, the length checked unless the file is streaming, inflated
// when the header says it is compressed. False when it cannot be read (reported).
bool Reader::openBody(const std::shared_ptr<const std::vector<uint8_t>>& file) {
    const size_t size = file->size();
    size_t available = size - kHeaderSize;
    if (m_header.streaming) {
        info("streaming file: the body is read until the data ends (the header's body length is not used)");
        if (m_header.compression != 0)
            violation(7, "header", "a streaming file must not be compressed (spec: Streaming AWD); decompressed anyway");
    } else if (m_header.bodyLength > available) {
        fatal(8, "header",
              "the header says the body is " + num(m_header.bodyLength) + " bytes, but only " + num(available) +
                  " follow it (the file is truncated)");
        return false;
    } else if (m_header.bodyLength < available) {
        violation(kHeaderSize + uint64_t(m_header.bodyLength), "",
                  num(available - m_header.bodyLength) + " bytes after the body (its length is in the header) are ignored");
        available = m_header.bodyLength;
    }
    const uint8_t* body = file->data() + kHeaderSize;
    if (m_header.compression == 0) {
        m_body = file;
        m_bodyData = body;
        m_bodySize = available;
        return true;
    }
    auto inflated = std::make_shared<std::vector<uint8_t>>();
    std::string error;
    const uint64_t limit = decompressionLimit(available);
    bool ok;
    size_t trailing = 0;
    if (m_header.compression == 1)
        ok = inflateZlib(body, available, limit, *inflated, trailing, error);
    else
        ok = inflateLzma(body, available, limit, *inflated, error);
    if (!ok) {
        fatal(kHeaderSize, "body", error);
        return false;
    }
    if (trailing)
        violation(kHeaderSize + available - trailing, "body", num(trailing) + " bytes after the end of the zlib stream are ignored");
    m_inflatedTotal = inflated->size();
    m_body = inflated;
    m_bodyData = inflated->data();
    m_bodySize = inflated->size();
    return true;
}

// Pass 1: the block headers, into m_entries. A streaming file is read up to a cut block; in
// another file one is fatal (false).
bool Reader::indexBlocks() {
    ByteReader r(m_bodyData, m_bodySize, m_bodyBase);
    while (!r.atEnd()) {
        BlockEntry e;
        e.offset = r.position();
        if (r.remaining() < kBlockHeaderSize) {
            const std::string message = "the body ends inside a block header (" + num(r.remaining()) + " bytes left)";
            if (m_header.streaming) {
                warn(r.offset(), blockWhere(), message + "; the stream is read up to there");
                break;
            }
            fatal(r.offset(), blockWhere(), message);
            return false;
        }
        e.id = r.u32();
        e.ns = r.u8();
        e.type = r.u8();
        e.flags = r.u8();
        e.length = r.u32();
        if (e.length > r.remaining()) {
            const std::string message = "block " + num(e.id) + " (" + typeName(e.type) + ") claims " + num(e.length) +
                                        " bytes, only " + num(r.remaining()) + " remain in the body";
            if (m_header.streaming) {
                warn(e.offset + m_bodyBase, "", message + "; the stream is read up to there");
                break;
            }
            fatal(e.offset + m_bodyBase, "", message + " (the file is truncated)");
            return false;
        }
        e.payload = r.current();
        r.skip(e.length);
        if (e.id != 0) m_firstEntry.emplace(e.id, m_entries.size());
        m_entries.push_back(e);
    }
    return true;
}

// A block id used again, or not one more than the last (the spec counts them up from 1).
void Reader::checkBlockId(const BlockEntry& e, uint64_t headerAt) {
    if (e.id == 0) return;
    if (m_blocks.count(e.id)) {
        violation(headerAt, blockWhere(),
                  "block id " + num(e.id) + " is used again (first at offset " + hex(m_blocks[e.id].offset + m_bodyBase) +
                      "); later references mean this block");
    } else if (e.id != m_expectedId) {
        violation(headerAt, blockWhere(), "block ids count up by one from 1: expected " + num(m_expectedId) + ", found " + num(e.id));
    }
    if (e.id >= m_expectedId) m_expectedId = e.id + 1;
}

// The block's payload, decompressed on its own when the block says so (Away3D block flags),
// within what is left of the file's decompression budget. False when it cannot be (fatal).
bool Reader::blockPayload(const BlockEntry& e, uint64_t headerAt, size_t fileSize, const uint8_t*& payload,
                          size_t& payloadSize) {
    const uint64_t payloadAt = headerAt + kBlockHeaderSize;
    payload = e.payload;
    payloadSize = e.length;
    if (e.flags & kBlockFlagCompressed) {
        auto inflated = std::make_shared<std::vector<uint8_t>>();
        std::string error;
        const uint64_t budget =
            decompressionLimit(fileSize) > m_inflatedTotal ? decompressionLimit(fileSize) - m_inflatedTotal : 0;
        size_t trailing = 0;
        const bool ok = (e.flags & kBlockFlagLzma) ? inflateLzma(payload, payloadSize, budget, *inflated, error)
                                                   : inflateZlib(payload, payloadSize, budget, *inflated, trailing, error);
        if (!ok) {
            fatal(payloadAt, blockWhere(), "the block's own compressed payload: " + error);
            return false;
        }
        m_inflatedTotal += inflated->size();
        m_blockOwner = inflated;
        payload = inflated->data();
        payloadSize = inflated->size();
    }
    if (e.flags & kBlockFlagHighPrecision)
        info(blockWhere() + ": the block's high-precision flag is not used; the header's precision flags decide, as in Away3D");
    if (e.flags & ~(kBlockFlagHighPrecision | kBlockFlagCompressed | kBlockFlagLzma))
        warn(headerAt + 6, blockWhere(),
             "block flags " + hex(e.flags & ~(kBlockFlagHighPrecision | kBlockFlagCompressed | kBlockFlagLzma)) +
                 " are not defined by the spec and are ignored");
    return true;
}

// Reads the block's fields by its type. Returns the index of what it made (-1 when nothing);
// `skipped` tells an unknown type.
int32_t Reader::dispatchBlock(const BlockEntry& e, uint64_t headerAt, ByteReader& r, bool& skipped) {
    BlockReader b(*this, r);
    switch (e.type) {
        case block::TriangleGeometry:
        case block::PrimitiveGeometry: {
            const size_t meshes = m_scene.meshes.size();
            if (e.type == block::TriangleGeometry)
                readTriangleGeometry(r);
            else
                readPrimitiveGeometry(r);
            const int32_t index = m_scene.meshes.size() > meshes ? static_cast<int32_t>(meshes) : -1;
            if (index >= 0) m_meshBlocks[index] = {e.id, headerAt};
            return index;
        }
        case block::Scene:
        case block::Container:
        case block::MeshInstance:
        case block::Light:
        case block::Camera: return b.sceneObject(e.type);
        case block::SkyBox: return b.skyBox();
        case block::TextureProjector: return b.textureProjector();
        case block::LightPicker: return b.lightPicker();
        case block::Material: return b.material();
        case block::BitmapTexture: return b.bitmapTexture();
        case block::CubeTexture: return b.cubeTexture();
        case block::SharedMethod: return b.sharedMethod();
        case block::ShadowMethod: return b.shadowMethod();
        case block::Skeleton: return readSkeleton(r);
        case block::SkeletonPose: return readSkeletonPose(r);
        case block::SkeletonAnimation: return readSkeletonAnimation(r);
        case block::MeshPose: return readMeshPose(r, false);
        case block::MeshPoseAnimation: return readMeshPose(r, true);
        case block::AnimationSet: return readAnimationSet(r);
        case block::UVAnimation: return readUvAnimation(r);
        case block::Animator: return readAnimator(r);
        case block::Command: return b.command();
        case block::Namespace: return b.nameSpace();
        case block::MetaData: return b.metaData();
        default:
            m_unknownBlocks["unknown block type " + num(e.type) + " (skipped)"]++;
            skipped = true;
            return -1;
    }
}

// The user attributes read in the block go to what it made (`index` of the block type's kind).
void Reader::giveBlockAttributes(uint8_t type, int32_t index) {
    std::vector<UserAttribute>* owner = nullptr;
    switch (type) {
        case block::TriangleGeometry:
        case block::PrimitiveGeometry: owner = &m_scene.meshes[size_t(index)].attributes; break;
        case block::Scene:
        case block::Container:
        case block::MeshInstance:
        case block::Light:
        case block::Camera:
        case block::SkyBox: owner = &m_scene.nodes[size_t(index)].attributes; break;
        case block::Material: owner = &m_scene.materials[size_t(index)].attributes; break;
        case block::BitmapTexture: owner = &m_scene.textures[size_t(index)].attributes; break;
        default: break;
    }
    if (owner) owner->insert(owner->end(), m_blockAttributes.begin(), m_blockAttributes.end());
}

// Pass 2, one block: id checks, then its payload read by type and recorded for later references.
// A block in a user namespace is skipped (and recorded, unusable).
void Reader::readBlock(const BlockEntry& e, size_t fileSize) {
    m_current = &e;
    m_currentName.clear();
    m_blockOwner.reset();
    const uint64_t headerAt = e.offset + m_bodyBase;
    checkBlockId(e, headerAt);
    BlockRef ref;
    ref.type = e.ns == 0 ? e.type : 0;
    ref.offset = e.offset;
    if (e.ns != 0) {
        auto ns = m_namespaces.find(e.ns);
        if (ns == m_namespaces.end())
            violation(headerAt, blockWhere(),
                      "namespace " + num(e.ns) + " is defined by no Namespace block before it; the block is skipped");
        else
            m_unknownBlocks["user block type " + num(e.type) + " in namespace " + quoted(ns->second) + " (skipped)"]++;
        if (e.id) m_blocks[e.id] = ref;
        return;
    }
    const uint8_t* payload = nullptr;
    size_t payloadSize = 0;
    if (!blockPayload(e, headerAt, fileSize, payload, payloadSize)) return;
    ByteReader r(payload, payloadSize, headerAt + kBlockHeaderSize);
    m_blockAttributes.clear();
    const bool failedBefore = m_diag.failed();
    bool skipped = false;
    const int32_t index = dispatchBlock(e, headerAt, r, skipped);
    if (index >= 0 && !m_blockAttributes.empty()) giveBlockAttributes(e.type, index);
    ref.index = index;
    ref.name = m_currentName;
    if (e.id) m_blocks[e.id] = ref;
    if (!skipped && !(m_diag.failed() && !failedBefore) && r.ok() && !r.atEnd())
        violation(r.offset(), blockWhere(), num(r.remaining()) + " bytes after the block's fields are ignored");
}

void Reader::run(const std::shared_ptr<const std::vector<uint8_t>>& file) {
    m_scene.format = "awd";
    // Away3D's default camera stands on -Z looking toward +Z, Y up, and models are authored to face it.
    m_scene.front = {0.0f, 0.0f, -1.0f};
    if (!readHeader(file->data(), file->size())) return;
    if (!openBody(file)) return;
    if (!indexBlocks()) return;
    for (const BlockEntry& e : m_entries) {
        if (stopped()) return;
        readBlock(e, file->size());
    }
    m_current = nullptr;
    if (stopped()) return;
    finish();
}

namespace {

std::string nameList(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size() && i < 8; ++i) out += (i ? ", " : "") + quoted(names[i]);
    if (names.size() > 8) out += " and " + num(names.size() - 8) + " more";
    return out;
}

}  // namespace

void Reader::finish() {
    finishAnimation();
    // Directional lights shine along Away3D's direction property, given in the parent's space
    // (AWD2Parser builds them from it and not from the matrix). The renderer's lights shine down
    // their object's -Z, so the object transform turns -Z onto the direction seen from the node.
    for (size_t i = 0; i < m_scene.nodes.size(); ++i) {
        Node& n = m_scene.nodes[i];
        if (n.kind != NodeKind::Light || n.object < 0) continue;
        if (m_scene.lights[n.object].type != LightType::Directional) continue;
        glm::vec3 d = m_lightDirections[n.object];
        const glm::mat3 linear(n.local.matrix);
        if (glm::abs(glm::determinant(linear)) > 1e-12f) d = glm::inverse(linear) * d;
        const float length = glm::length(d);
        n.objectTransform = length > 1e-12f && std::isfinite(length) ? rotateMinusZTo(d / length) : glm::mat4(1.0f);
    }
    // Away3D adds each light's ambient colour x level to the materials it lights; the scene has one
    // ambient term, the sum over the lights.
    glm::vec3 ambient(0.0f);
    for (const glm::vec3& a : m_lightAmbient) ambient += a;
    m_scene.ambient = glm::clamp(ambient, glm::vec3(0.0f), glm::vec3(1.0f));

    // An invisible container hides what it holds. Each node is resolved once (parents may come
    // after their children once commands have moved them), so this is linear in the node count.
    size_t hidden = 0;
    {
        const size_t count = m_scene.nodes.size();
        std::vector<uint8_t> state(count, 0);  // 0 unresolved, 1 on the current walk, 2 resolved
        std::vector<size_t> walk;
        for (size_t i = 0; i < count; ++i) {
            walk.clear();
            size_t node = i;
            bool parentVisible = true;
            while (state[node] == 0) {
                state[node] = 1;
                walk.push_back(node);
                const int32_t p = m_scene.nodes[node].parent;
                if (p < 0 || static_cast<size_t>(p) >= count) break;
                if (state[p] == 1) break;  // a loop: the validator reports it
                if (state[p] == 2) {
                    parentVisible = m_scene.nodes[p].visible;
                    break;
                }
                node = static_cast<size_t>(p);
            }
            for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
                Node& n = m_scene.nodes[*it];
                if (n.visible && !parentVisible) {
                    n.visible = false;
                    ++hidden;
                }
                parentVisible = n.visible;
                state[*it] = 2;
            }
        }
    }
    if (hidden) info(num(hidden) + " objects are hidden because a container above them is (visibility 0)");

    for (const auto& [what, count] : m_unknownBlocks) m_diag.warn(num(count) + " x " + what);
    if (m_float64Streams)
        m_diag.warn("float64 geometry converted to float32 once (GLES has no double attributes): " +
                    num(m_float64Streams) + " streams in " + num(m_float64Geometries) + " geometries");
    if (!m_computedNormals.empty())
        info("normals computed (Away3D derives them the same way) for geometries that store none: " +
             nameList(m_computedNormals));
    if (!m_packedGeometries.empty())
        info("sub-geometries packed into one vertex buffer per stream (the scene has no per-submesh vertex base): " +
             nameList(m_packedGeometries));
    for (const auto& [note, names] : m_materialNotes) info(note + ": material" + (names.size() == 1 ? " " : "s ") + nameList(names));
    for (const auto& [note, names] : m_materialWarnings)
        m_diag.warn(note + ": material" + (names.size() == 1 ? " " : "s ") + nameList(names));
    if (!m_noShadowInstances.empty())
        info("mesh instances that cast no shadow (the renderer draws no shadows): " + nameList(m_noShadowInstances));
    m_diag.finish();
}

}  // namespace awd

LoadResult loadAwd(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path, const LoadOptions& options) {
    LoadResult result;
    auto scene = std::make_unique<Scene>();
    try {
        awd::Reader reader(path, options, *scene, result.problems);
        reader.run(bytes);
    } catch (const std::bad_alloc&) {
        result.problems.push_back({path, -1, 0, 0, "", "out of memory while reading the file"});
    }
    if (result.problems.empty()) result.scene = std::move(scene);
    return result;
}

}  // namespace esv
