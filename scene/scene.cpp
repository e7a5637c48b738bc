#include "scene/scene.h"

#include <glm/gtc/matrix_transform.hpp>

namespace esv {

ByteView makeOwnedBytes(std::vector<uint8_t> bytes) {
    auto owner = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    return ByteView{owner, owner->data(), owner->size()};
}

size_t componentSize(ComponentType type) {
    static constexpr size_t kSizes[] = {4, 2, 8, 4, 1, 1, 2, 2, 4, 4, 4, 4};
    static_assert(sizeof(kSizes) / sizeof(kSizes[0]) == static_cast<size_t>(ComponentType::Count));
    return kSizes[static_cast<size_t>(type)];
}

const char* componentTypeName(ComponentType type) {
    static constexpr const char* kNames[] = {"float32", "float16", "float64", "fixed16.16",
                                             "int8",    "uint8",   "int16",   "uint16",
                                             "int32",   "uint32",  "int2_10_10_10", "uint2_10_10_10"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(ComponentType::Count));
    return kNames[static_cast<size_t>(type)];
}

const char* semanticName(Semantic semantic) {
    static constexpr const char* kNames[] = {"position", "normal",  "tangent",      "binormal",
                                             "color",    "texcoord", "bone_indices", "bone_weights"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(Semantic::Count));
    return kNames[static_cast<size_t>(semantic)];
}

const char* primitiveName(Primitive primitive) {
    static constexpr const char* kNames[] = {"points",         "lines",          "line_strip",
                                             "triangles",      "triangle_strip", "triangle_fan",
                                             "quads",          "patches",        "nurbs"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(Primitive::Count));
    return kNames[static_cast<size_t>(primitive)];
}

const char* textureSlotName(TextureSlot slot) {
    static constexpr const char* kNames[] = {"diffuse",  "ambient",    "specular",   "shininess", "normal",
                                             "bump",     "emissive",   "opacity",    "reflection",
                                             "refraction", "metallic", "roughness", "occlusion"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(TextureSlot::Count));
    return kNames[static_cast<size_t>(slot)];
}

const char* lightTypeName(LightType type) {
    static constexpr const char* kNames[] = {"point", "directional", "spot", "ambient"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(LightType::Count));
    return kNames[static_cast<size_t>(type)];
}

const char* nodeKindName(NodeKind kind) {
    static constexpr const char* kNames[] = {"empty", "mesh", "light", "camera", "bone"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(NodeKind::Count));
    return kNames[static_cast<size_t>(kind)];
}

const char* channelName(Channel channel) {
    static constexpr const char* kNames[] = {"translation", "rotation",   "scale",     "matrix",
                                             "morph_weights", "camera_fov", "visibility"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(Channel::Count));
    return kNames[static_cast<size_t>(channel)];
}

glm::mat4 Transform::toMatrix() const {
    if (useMatrix) return matrix;
    glm::mat4 m = glm::translate(glm::mat4(1.0f), translation);
    m *= glm::mat4_cast(rotation);
    return glm::scale(m, scale);
}

uint32_t triangleCount(const Submesh& submesh) {
    switch (submesh.primitive) {
        case Primitive::Triangles:
            return submesh.indexCount / 3;
        case Primitive::Quads:
            return submesh.indexCount / 4 * 2;
        case Primitive::TriangleStrip:
            if (!submesh.stripLengths.empty()) {
                uint64_t total = 0;
                for (uint32_t len : submesh.stripLengths) total += len;
                return static_cast<uint32_t>(total);
            }
            [[fallthrough]];
        case Primitive::TriangleFan:
            // Without explicit lengths a strip/fan is one run (restart indices are counted by the
            // loader, which splits runs into stripLengths when it sees them).
            return submesh.indexCount >= 3 ? submesh.indexCount - 2 : 0;
        default:
            return 0;
    }
}

uint32_t triangleCount(const Mesh& mesh) {
    uint64_t total = 0;
    for (const Submesh& s : mesh.submeshes) total += triangleCount(s);
    return static_cast<uint32_t>(total);
}

}  // namespace esv
