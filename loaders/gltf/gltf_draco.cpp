// glTF reader: KHR_draco_mesh_compression primitives, decoded by the Draco library where the build
// has it (ESVIEW_HAVE_DRACO: Debian's libdraco-dev); without it the extension is unknown and a file
// requiring it is refused with one line (gltf_internal.h). The decoded attributes are copies in the
// accessors' own component types; the faces become a 32-bit index list.
#include <cstring>

#include "loaders/gltf/gltf_internal.h"

#if ESVIEW_HAVE_DRACO
#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>
#endif

namespace esv::gltf {

bool dracoSupported() {
    return ESVIEW_HAVE_DRACO != 0;
}

#if ESVIEW_HAVE_DRACO
namespace {

// Every point's value of `att` as `components` values of T, tightly packed.
template <typename T>
bool copyValues(const draco::PointAttribute& att, uint32_t points, uint32_t components, uint8_t* out) {
    T value[4];
    for (uint32_t p = 0; p < points; ++p) {
        if (!att.ConvertValue<T>(att.mapped_index(draco::PointIndex(p)), int8_t(components), value))
            return false;
        std::memcpy(out + size_t(p) * components * sizeof(T), value, components * sizeof(T));
    }
    return true;
}

bool copyAttribute(const draco::PointAttribute& att, ComponentType type, uint32_t points, uint32_t components,
                   uint8_t* out) {
    switch (type) {
        case ComponentType::Int8:
            return copyValues<int8_t>(att, points, components, out);
        case ComponentType::UInt8:
            return copyValues<uint8_t>(att, points, components, out);
        case ComponentType::Int16:
            return copyValues<int16_t>(att, points, components, out);
        case ComponentType::UInt16:
            return copyValues<uint16_t>(att, points, components, out);
        case ComponentType::UInt32:
            return copyValues<uint32_t>(att, points, components, out);
        default:
            return copyValues<float>(att, points, components, out);
    }
}

}  // namespace
#endif

// The streams and faces of a Draco-compressed primitive: `mesh` gets the streams and vertex count,
// `indices` the faces' corners.
bool Reader::decodeDraco(const Json& prim, const std::string& where, Mesh& mesh,
                         std::vector<uint32_t>& indices) {
    const std::string at = where + "/extensions/KHR_draco_mesh_compression";
#if ESVIEW_HAVE_DRACO
    const Json& ext = *member(*member(prim, "extensions"), "KHR_draco_mesh_compression");
    int32_t view = -1;
    const Json* ids = member(ext, "attributes");
    const Json* attributes = member(prim, "attributes");
    if (!objectAt(ext, at) || !getIndex(ext, "bufferView", at, "bufferViews", view, true)) return false;
    if (!ids || !ids->is_object() || !attributes || !attributes->is_object()) {
        fail(at, "needs the attributes objects of the primitive and of the extension");
        return false;
    }
    const BufferView* v = bufferView(view, at + "/bufferView");
    if (!v) return false;
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(v->bytes.data), v->bytes.size);
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok() || !decoded.value()) {
        fail(at, "the Draco data does not decode (" +
                     (decoded.ok() ? std::string("no mesh") : decoded.status().error_msg_string()) + ")");
        return false;
    }
    const draco::Mesh& dm = *decoded.value();
    const uint32_t points = dm.num_points();
    for (auto it = attributes->begin(); it != attributes->end(); ++it) {
        const std::string w = where + "/attributes/" + it.key();
        const Json* id = member(*ids, it.key().c_str());
        int32_t index = -1;
        if (!it->is_number_unsigned() || it->get<uint64_t>() >= array("accessors").size()) {
            fail(w, "accessor " + it->dump().substr(0, 20) + " does not exist");
            return false;
        }
        index = it->get<int32_t>();
        const Json& acc = array("accessors")[size_t(index)];
        uint64_t code = 0, count = 0;
        if (!getUint(acc, "componentType", pointer("accessors", size_t(index)), code, true) ||
            !getUint(acc, "count", pointer("accessors", size_t(index)), count, true))
            return false;
        const std::string type = getString(acc, "type");
        const uint32_t components = type == "SCALAR" ? 1
                                    : type == "VEC2" ? 2
                                    : type == "VEC3" ? 3
                                    : type == "VEC4" ? 4
                                                     : 0;
        const draco::PointAttribute* att =
            id && id->is_number_unsigned() ? dm.GetAttributeByUniqueId(id->get<uint32_t>()) : nullptr;
        if (!att || components == 0 || count != points) {
            fail(w, !att ? "no Draco attribute of that id"
                         : "accessor " + std::to_string(index) + " (" + type + ", count " +
                               std::to_string(count) + ") does not fit the Draco data's " +
                               std::to_string(points) + " points");
            return false;
        }
        VertexAttribute a;
        const int use = decodedAttribute(it.key(), code, components, acc, w, a);
        if (use < 0) return false;
        if (use == 0) continue;
        const size_t size = componentSize(a.type) * components;
        if (points > (uint64_t(256) << 20) / size) {
            fail(w, std::to_string(points) + " points exceed the reader's cap");
            return false;
        }
        std::vector<uint8_t> bytes(size_t(points) * size);
        if (!copyAttribute(*att, a.type, points, components, bytes.data())) {
            fail(w, "the Draco attribute does not convert to the accessor's type");
            return false;
        }
        VertexStream s;
        s.bytes = makeOwnedBytes(std::move(bytes));
        s.stride = uint32_t(size);
        s.count = points;
        s.attributes.push_back(a);
        mesh.streams.push_back(std::move(s));
    }
    mesh.vertexCount = points;
    if (uint64_t(dm.num_faces()) * 3 > (uint64_t(256) << 20) / 4) {
        fail(at, std::to_string(dm.num_faces()) + " faces exceed the reader's cap");
        return false;
    }
    indices.reserve(size_t(dm.num_faces()) * 3);
    for (uint32_t f = 0; f < dm.num_faces(); ++f)
        for (int c = 0; c < 3; ++c) {
            const uint32_t corner = dm.face(draco::FaceIndex(f))[c].value();
            if (corner >= points) {
                fail(at, "face " + std::to_string(f) + " uses point " + std::to_string(corner) + " of " +
                             std::to_string(points));
                return false;
            }
            indices.push_back(corner);
        }
    return true;
#else
    (void)prim;
    (void)mesh;
    (void)indices;
    fail(at, "this build of esview has no Draco decoder");
    return false;
#endif
}

}  // namespace esv::gltf
