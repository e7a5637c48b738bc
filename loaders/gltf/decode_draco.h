// KHR_draco_mesh_compression: a primitive whose vertices and triangles are one Draco-encoded
// buffer view. The decoded attributes come out tightly packed in the component type and count of
// the accessors the primitive names, so the rest of the reader treats them as stored data.
// Built with Debian's libdraco where ESVIEW_HAS_DRACO is set; elsewhere every decode is refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace esv::gltf {

// glTF component types (5120 BYTE ... 5126 FLOAT).
struct DracoAttributeRequest {
    uint32_t id = 0;            // the Draco attribute's unique id (the extension's attributes map)
    uint32_t componentType = 5126;
    uint32_t components = 3;    // 1..4 (or 16 for MAT4, which no vertex attribute uses)
    bool normalized = false;    // integer output read as normalised by the accessor
};

struct DracoMesh {
    uint32_t vertexCount = 0;
    std::vector<uint32_t> indices;               // three per triangle
    std::vector<std::vector<uint8_t>> attributes;  // one per request, vertexCount * element bytes
};

// True where this build can decode Draco data.
bool dracoAvailable();

// Decodes `size` bytes of a Draco mesh. Fails with one sentence in `error` when the data does not
// decode, is a point cloud, lacks a requested attribute, or would take more than `maxBytes`.
bool decodeDracoMesh(const uint8_t* data, size_t size, const std::vector<DracoAttributeRequest>& requests,
                     uint64_t maxBytes, DracoMesh& out, std::string& error);

}  // namespace esv::gltf
