// KHR_draco_mesh_compression through Debian's libdraco (see decode_draco.h).
#include "loaders/gltf/decode_draco.h"

#include <cstring>

#ifndef ESVIEW_HAS_DRACO
#define ESVIEW_HAS_DRACO 0
#endif
#if ESVIEW_HAS_DRACO
#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>
#endif

namespace esv::gltf {

#if ESVIEW_HAS_DRACO

namespace {

uint32_t componentBytes(uint32_t componentType) {
    switch (componentType) {
    case 5120:
    case 5121:
        return 1;
    case 5122:
    case 5123:
        return 2;
    case 5125:
    case 5126:
        return 4;
    default:
        return 0;
    }
}

// Writes every point's value of `attribute` into `out` as `components` values of type T.
template <class T>
bool convertAll(const draco::PointAttribute& attribute, uint32_t points, uint32_t components, uint8_t* out) {
    T value[16];
    for (uint32_t p = 0; p < points; ++p) {
        if (!attribute.ConvertValue<T>(attribute.mapped_index(draco::PointIndex(p)), int8_t(components), value))
            return false;
        std::memcpy(out + size_t(p) * components * sizeof(T), value, components * sizeof(T));
    }
    return true;
}

bool convertAttribute(const draco::PointAttribute& attribute, const DracoAttributeRequest& request, uint32_t points,
                      uint8_t* out) {
    switch (request.componentType) {
    case 5120:
        return convertAll<int8_t>(attribute, points, request.components, out);
    case 5121:
        return convertAll<uint8_t>(attribute, points, request.components, out);
    case 5122:
        return convertAll<int16_t>(attribute, points, request.components, out);
    case 5123:
        return convertAll<uint16_t>(attribute, points, request.components, out);
    case 5125:
        return convertAll<uint32_t>(attribute, points, request.components, out);
    case 5126:
        return convertAll<float>(attribute, points, request.components, out);
    default:
        return false;
    }
}

}  // namespace

bool dracoAvailable() { return true; }

bool decodeDracoMesh(const uint8_t* data, size_t size, const std::vector<DracoAttributeRequest>& requests,
                     uint64_t maxBytes, DracoMesh& out, std::string& error) {
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(data), size);
    auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
    if (!type.ok() || type.value() != draco::TRIANGULAR_MESH) {
        error = type.ok() ? "the Draco data is a point cloud, not a triangle mesh"
                          : "the Draco data does not decode: " + type.status().error_msg_string();
        return false;
    }
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok()) {
        error = "the Draco data does not decode: " + decoded.status().error_msg_string();
        return false;
    }
    const draco::Mesh& mesh = *decoded.value();
    const uint32_t points = mesh.num_points();
    const uint64_t faces = mesh.num_faces();
    uint64_t total = faces * 3 * 4;
    for (const DracoAttributeRequest& r : requests) {
        const uint32_t bytes = componentBytes(r.componentType);
        if (bytes == 0 || r.components == 0 || r.components > 16) {
            error = "attribute " + std::to_string(r.id) + " asks for an unknown component type or count";
            return false;
        }
        total += uint64_t(points) * r.components * bytes;
    }
    if (total > maxBytes) {
        error = "the decoded Draco mesh (" + std::to_string(points) + " vertices, " + std::to_string(faces) +
                " triangles) is over the " + std::to_string(maxBytes) + "-byte limit";
        return false;
    }
    out.vertexCount = points;
    out.indices.resize(size_t(faces) * 3);
    for (uint32_t f = 0; f < faces; ++f) {
        const draco::Mesh::Face& face = mesh.face(draco::FaceIndex(f));
        for (int k = 0; k < 3; ++k) out.indices[size_t(f) * 3 + k] = face[k].value();
    }
    out.attributes.assign(requests.size(), {});
    for (size_t i = 0; i < requests.size(); ++i) {
        const DracoAttributeRequest& r = requests[i];
        const draco::PointAttribute* attribute = mesh.GetAttributeByUniqueId(r.id);
        if (!attribute) {
            error = "the Draco data has no attribute with id " + std::to_string(r.id);
            return false;
        }
        out.attributes[i].resize(size_t(points) * r.components * componentBytes(r.componentType));
        if (points && !convertAttribute(*attribute, r, points, out.attributes[i].data())) {
            error = "Draco attribute " + std::to_string(r.id) + " does not convert to the accessor's type";
            return false;
        }
    }
    return true;
}

#else

bool dracoAvailable() { return false; }

bool decodeDracoMesh(const uint8_t*, size_t, const std::vector<DracoAttributeRequest>&, uint64_t, DracoMesh&,
                     std::string& error) {
    error = "KHR_draco_mesh_compression is not supported by this build (it was made without libdraco)";
    return false;
}

#endif

}  // namespace esv::gltf
