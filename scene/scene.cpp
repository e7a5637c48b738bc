#include "scene/scene.h"

#include <cmath>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

namespace esv {

ByteView makeOwnedBytes(std::vector<uint8_t> bytes) {
    auto owner = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    const uint8_t* data = owner->data();
    const size_t size = owner->size();
    return ByteView{std::move(owner), data, size};
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
                                             "refraction", "metallic", "roughness", "occlusion",
                                             "specular_strength", "specular_tint"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(TextureSlot::Count));
    return kNames[static_cast<size_t>(slot)];
}

const char* wrapName(Wrap wrap) {
    static constexpr const char* kNames[] = {"repeat", "clamp", "mirror_repeat", "border", "mirror_clamp", "mirror_border"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(Wrap::Count));
    return static_cast<size_t>(wrap) < static_cast<size_t>(Wrap::Count) ? kNames[static_cast<size_t>(wrap)] : "unknown";
}

std::string swizzleText(const TextureSwizzle& swizzle) {
    static constexpr char kCodes[] = {'r', 'g', 'b', 'a', '0', '1', 'i'};
    static_assert(sizeof(kCodes) == static_cast<size_t>(SwizzleSource::Count));
    std::string text;
    for (SwizzleSource s : swizzle) text += static_cast<size_t>(s) < sizeof(kCodes) ? kCodes[static_cast<size_t>(s)] : '?';
    return text;
}

bool parseSwizzle(const std::string& text, TextureSwizzle& out) {
    if (text.size() != 1 && text.size() != 4) return false;
    TextureSwizzle parsed{};
    for (size_t i = 0; i < 4; ++i) {
        switch (text[text.size() == 1 ? 0 : i]) {
            case 'r': case 'x': parsed[i] = SwizzleSource::Red; break;
            case 'g': case 'y': parsed[i] = SwizzleSource::Green; break;
            case 'b': case 'z': parsed[i] = SwizzleSource::Blue; break;
            case 'a': case 'w': parsed[i] = SwizzleSource::Alpha; break;
            case '0': parsed[i] = SwizzleSource::Zero; break;
            case '1': parsed[i] = SwizzleSource::One; break;
            case 'i': parsed[i] = SwizzleSource::Identity; break;
            default: return false;
        }
    }
    out = parsed;
    return true;
}

TextureSwizzle resolveSwizzle(const TextureSwizzle& swizzle, int channels) {
    channels = channels < 1 ? 1 : channels > 4 ? 4 : channels;
    TextureSwizzle out = swizzle;
    for (int i = 0; i < 4; ++i) {
        if (out[i] != SwizzleSource::Identity) continue;
        // "rgba", "rgb1", "rg01", "r001": the position's own channel while the texture has it,
        // then zeros, and alpha one.
        out[i] = i < channels ? static_cast<SwizzleSource>(i) : i == 3 ? SwizzleSource::One : SwizzleSource::Zero;
    }
    return out;
}

bool isIdentitySwizzle(const TextureSwizzle& swizzle, int channels) {
    return resolveSwizzle(swizzle, channels) == resolveSwizzle(kIdentitySwizzle, channels);
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
                                             "morph_weights", "camera_fov", "visibility", "element",
                                             "morph_weight",  "uv_element"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(Channel::Count));
    return kNames[static_cast<size_t>(channel)];
}

const char* elementKindName(ElementKind kind) {
    static constexpr const char* kNames[] = {"matrix",  "translate_x", "translate_y", "translate_z", "translate",
                                             "rotate_x", "rotate_y",   "rotate_z",    "rotate_axis", "rotate_quaternion",
                                             "scale_x", "scale_y",     "scale_z",     "scale"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(ElementKind::Count));
    return static_cast<size_t>(kind) < static_cast<size_t>(ElementKind::Count) ? kNames[static_cast<size_t>(kind)]
                                                                                 : "unknown";
}

uint32_t elementComponents(ElementKind kind) {
    switch (kind) {
        case ElementKind::Matrix:
            return 16;
        case ElementKind::Translate:
        case ElementKind::Scale:
            return 3;
        case ElementKind::RotateAxis:
        case ElementKind::RotateQuat:
            return 4;
        default:
            return 1;
    }
}

glm::mat4 TransformElement::toMatrix(ElementKind kind, const float* v) {
    glm::mat4 m(1.0f);
    switch (kind) {
        case ElementKind::Matrix:
            std::memcpy(&m[0][0], v, 16 * sizeof(float));
            return m;
        case ElementKind::TranslateX:
        case ElementKind::TranslateY:
        case ElementKind::TranslateZ:
            m[3][static_cast<int>(kind) - static_cast<int>(ElementKind::TranslateX)] = v[0];
            return m;
        case ElementKind::Translate:
            m[3] = glm::vec4(v[0], v[1], v[2], 1.0f);
            return m;
        case ElementKind::RotateX:
        case ElementKind::RotateY:
        case ElementKind::RotateZ: {
            glm::vec3 axis(0.0f);
            axis[static_cast<int>(kind) - static_cast<int>(ElementKind::RotateX)] = 1.0f;
            return glm::rotate(m, v[0], axis);
        }
        case ElementKind::RotateAxis: {
            const glm::vec3 axis(v[1], v[2], v[3]);
            const float len = glm::length(axis);
            if (!(len > 0.0f) || !std::isfinite(len)) return m;  // no axis: no rotation
            return glm::rotate(m, v[0], axis / len);
        }
        case ElementKind::RotateQuat: {
            const glm::quat q(v[3], v[0], v[1], v[2]);
            const float len = glm::length(q);
            if (!(len > 0.0f) || !std::isfinite(len)) return m;
            return glm::mat4_cast(q / len);
        }
        case ElementKind::ScaleX:
        case ElementKind::ScaleY:
        case ElementKind::ScaleZ:
            m[static_cast<int>(kind) - static_cast<int>(ElementKind::ScaleX)]
             [static_cast<int>(kind) - static_cast<int>(ElementKind::ScaleX)] = v[0];
            return m;
        case ElementKind::Scale:
            m[0][0] = v[0];
            m[1][1] = v[1];
            m[2][2] = v[2];
            return m;
        default:
            return m;
    }
}

glm::mat4 UvTransform::matrix() const {
    glm::mat4 m(1.0f);
    for (const TransformElement& e : elements) m = m * e.toMatrix();
    return m;
}

float morphBaseScale(const Mesh& mesh, const std::vector<float>& weights) {
    if (!mesh.morphBaseWeighted) return 1.0f;
    float sum = 0.0f;
    for (size_t t = 0; t < mesh.morphTargets.size() && t < weights.size(); ++t)
        if (!mesh.morphTargets[t].relative) sum += weights[t];
    return sum;
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
            // With restarts the loader lists the runs that draw (none may).
            if (!submesh.stripLengths.empty() || submesh.primitiveRestart) {
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

int32_t normalMapTexture(const Material& material) {
    const int32_t normal = material.texture(TextureSlot::Normal).texture;
    return normal >= 0 ? normal : material.texture(TextureSlot::Bump).texture;
}

}  // namespace esv
