// Materials, textures, samplers and images of the glTF writer (gltf_writer_internal.h).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include <stb_image_write.h>

#include "convert/gltf/gltf_writer_internal.h"
#include "loaders/textures/decode.h"

namespace esv::gltf {
namespace {

void pngWriter(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    const auto* bytes = static_cast<const uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

const char* wrapNames[] = {"repeat", "clamp", "mirror", "border", "mirror clamp", "mirror border"};
static_assert(sizeof(wrapNames) / sizeof(wrapNames[0]) == size_t(Wrap::Count), "one name per wrap mode");

int glWrap(Wrap w) {
    switch (w) {
        case Wrap::Repeat:
            return 10497;
        case Wrap::Mirror:
            return 33648;
        default:
            return 33071;  // clamp to edge: the nearest GL has for the border modes
    }
}

}  // namespace

int Writer::imageFor(int textureIndex) {
    auto found = m_imageOf.find(textureIndex);
    if (found != m_imageOf.end()) return found->second;
    const Texture& tex = m_scene.textures[textureIndex];
    int result = -1;
    if (tex.placeholder || tex.image.empty()) {
        if (!tex.notDrawn) note("texture '" + tex.path + "' was not found or not readable: left out");
    } else {
        std::vector<uint8_t> bytes;
        std::string mime, ext;
        const Image& image = tex.image;
        if (image.container == "png" || image.container == "jpeg") {
            mime = image.container == "png" ? "image/png" : "image/jpeg";
            ext = image.container == "png" ? ".png" : ".jpg";
            if (tex.embedded.size) {
                bytes.assign(tex.embedded.data, tex.embedded.data + tex.embedded.size);
            } else {
                std::ifstream in(tex.resolvedPath, std::ios::binary);
                bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            }
        }
        if (bytes.empty()) {
            Image decoded;
            std::string error;
            const Image* rgba = &image;
            if (image.format != PixelFormat::Rgba8 || image.bottomUp) {
                if (decodeImage(image, decoded, error)) {
                    rgba = &decoded;
                } else {
                    rgba = nullptr;
                    note("texture '" + tex.path + "' could not be decoded (" + error + "): left out");
                }
            }
            if (rgba && !rgba->surfaces.empty() &&
                rgba->surfaces[0].size >= size_t(rgba->width) * rgba->height * 4) {
                mime = "image/png";
                ext = ".png";
                stbi_write_png_to_func(pngWriter, &bytes, int(rgba->width), int(rgba->height), 4,
                                       rgba->surfaces[0].data, int(rgba->width * 4));
                note("texture '" + tex.path + "' (" + image.container + ", " + pixelFormatName(image.format) +
                     ") written as PNG" + (image.isCube() ? " (its first cube face)" : ""));
            }
        }
        if (!bytes.empty()) {
            Json img = {{"name", tex.name.empty() ? tex.path : tex.name}};
            if (m_options.binary) {
                img["bufferView"] = addView(bytes.data(), bytes.size(), 0, 0);
                img["mimeType"] = mime;
            } else {
                const std::string file = m_stem + "_" + std::to_string(m_images.size()) + ext;
                img["uri"] = file;
                m_sideFiles.push_back({file, std::move(bytes)});
            }
            m_images.push_back(img);
            result = int(m_images.size() - 1);
        }
    }
    m_imageOf[textureIndex] = result;
    return result;
}

// Texture info for `ref`, or null when it names no usable image.
Json Writer::textureInfo(const TextureRef& ref, const std::string& where, size_t* uvSets) {
    if (ref.texture < 0 || size_t(ref.texture) >= m_scene.textures.size()) return nullptr;
    const int image = imageFor(ref.texture);
    if (image < 0) return nullptr;
    const std::array<int, 4> samplerKey{int(ref.wrapS), int(ref.wrapT), int(ref.minFilter), int(ref.magFilter)};
    auto s = m_samplerOf.find(samplerKey);
    int sampler;
    if (s == m_samplerOf.end()) {
        // The filters as read (TextureFilter's order); esview's own choice is linear, trilinear.
        static constexpr int kMinFilters[] = {9987, 9728, 9729, 9984, 9985, 9986, 9987};
        static_assert(sizeof(kMinFilters) / sizeof(kMinFilters[0]) == size_t(TextureFilter::Count));
        m_samplers.push_back({{"magFilter", ref.magFilter == TextureFilter::Nearest ? 9728 : 9729},
                              {"minFilter", kMinFilters[std::min(size_t(ref.minFilter), size_t(TextureFilter::Count) - 1)]},
                              {"wrapS", glWrap(ref.wrapS)},
                              {"wrapT", glWrap(ref.wrapT)}});
        sampler = int(m_samplers.size() - 1);
        m_samplerOf[samplerKey] = sampler;
    } else {
        sampler = s->second;
    }
    const auto textureKey = std::make_pair(image, sampler);
    auto t = m_textureOf.find(textureKey);
    int texture;
    if (t == m_textureOf.end()) {
        m_textures.push_back({{"sampler", sampler}, {"source", image}});
        texture = int(m_textures.size() - 1);
        m_textureOf[textureKey] = texture;
    } else {
        texture = t->second;
    }
    if (wrapNeedsShader(ref.wrapS) || wrapNeedsShader(ref.wrapT))
        note(where + ": " + wrapNames[size_t(wrapNeedsShader(ref.wrapS) ? ref.wrapS : ref.wrapT)] +
             " addressing written as clamp to edge");
    if (!isIdentitySwizzle(ref.swizzle))
        note(where + ": texture swizzle " + swizzleText(ref.swizzle) + " left out");
    Json info = {{"index", texture}};
    if (ref.uvSet) info["texCoord"] = ref.uvSet;
    *uvSets = std::max<size_t>(*uvSets, size_t(ref.uvSet) + 1);
    if (ref.uvTransform >= 0 && size_t(ref.uvTransform) < m_scene.uvTransforms.size()) {
        const glm::mat4 m = m_scene.uvTransforms[ref.uvTransform].matrix();
        // KHR_texture_transform: uv' = T * R * S * uv with R = [cos sin; -sin cos].
        const glm::vec2 cu(m[0][0], m[0][1]), cv(m[1][0], m[1][1]);
        const float su = glm::length(cu);
        const float sv = (cu.x * cv.y - cu.y * cv.x) < 0.0f ? -glm::length(cv) : glm::length(cv);
        const float rotation = std::atan2(-cu.y, cu.x);
        const float orthogonal = std::fabs(glm::dot(cu, cv));
        if (su > 0.0f && orthogonal <= 1e-4f * su * std::fabs(sv)) {
            Json tt = {{"offset", {m[3][0], m[3][1]}}, {"rotation", rotation}, {"scale", {su, sv}}};
            if (ref.uvSet) tt["texCoord"] = ref.uvSet;
            info["extensions"]["KHR_texture_transform"] = tt;
            m_extUsed.insert("KHR_texture_transform");
        } else {
            note(where + ": texture coordinate transform with shear left out");
        }
    }
    return info;
}

Json Writer::materialJson(const Material& mat) {
    Json m = {{"name", mat.name}};
    Json pbr = Json::object();
    size_t uvSets = 0;
    const std::string where = "material '" + mat.name + "'";
    auto tex = [&](TextureSlot slot) { return textureInfo(mat.texture(slot), where, &uvSets); };
    auto clamp01 = [](float x) { return std::clamp(finiteOr(x, 0.0f), 0.0f, 1.0f); };
    const glm::vec3 diffuse = glm::clamp(mat.diffuse, glm::vec3(0.0f), glm::vec3(1.0f));
    pbr["baseColorFactor"] = {clamp01(diffuse.r), clamp01(diffuse.g), clamp01(diffuse.b),
                              clamp01(mat.opacity)};
    Json base = tex(TextureSlot::Diffuse);
    if (!base.is_null()) pbr["baseColorTexture"] = base;
    if (mat.model == ShadingModel::MetalRough) {
        Json specular = Json::object();
        if (mat.specularFactor != 1.0f || mat.specularColorFactor != glm::vec3(1.0f)) {
            const glm::vec3 sc = glm::max(mat.specularColorFactor, glm::vec3(0.0f));
            specular = {{"specularFactor", clamp01(mat.specularFactor)}, {"specularColorFactor", {sc.r, sc.g, sc.b}}};
        }
        Json strength = tex(TextureSlot::SpecularStrength), tint = tex(TextureSlot::SpecularTint);
        if (!strength.is_null()) specular["specularTexture"] = strength;
        if (!tint.is_null()) specular["specularColorTexture"] = tint;
        if (!specular.empty()) {
            m["extensions"]["KHR_materials_specular"] = specular;
            m_extUsed.insert("KHR_materials_specular");
        }
        if (mat.ior != 1.5f && std::isfinite(mat.ior) && iorInGltfRange(mat.ior)) {
            m["extensions"]["KHR_materials_ior"] = {{"ior", mat.ior}};
            m_extUsed.insert("KHR_materials_ior");
        }
        pbr["metallicFactor"] = clamp01(mat.metallic);
        pbr["roughnessFactor"] = clamp01(mat.roughness);
        Json mr = tex(TextureSlot::Metallic);
        if (mr.is_null()) mr = tex(TextureSlot::Roughness);
        if (!mr.is_null()) pbr["metallicRoughnessTexture"] = mr;
        if (mat.texture(TextureSlot::Metallic).texture >= 0 &&
            mat.texture(TextureSlot::Roughness).texture >= 0 &&
            mat.texture(TextureSlot::Metallic).texture != mat.texture(TextureSlot::Roughness).texture)
            note(where + ": separate metallic and roughness maps; the metallic one is written");
    } else {
        // Blinn-Phong exponent n to roughness: GGX alpha = sqrt(2 / (n + 2)), roughness = sqrt(alpha).
        pbr["metallicFactor"] = 0.0f;
        pbr["roughnessFactor"] =
            mat.shininess > 0.0f ? clamp01(std::pow(2.0f / (mat.shininess + 2.0f), 0.25f)) : 1.0f;
        if (mat.model == ShadingModel::Classic) {
            Json specular = Json::object();
            const glm::vec3 sc = glm::clamp(mat.specular, glm::vec3(0.0f), glm::vec3(1.0f));
            specular["specularColorFactor"] = {sc.r, sc.g, sc.b};
            Json st = tex(TextureSlot::Specular);
            if (!st.is_null()) specular["specularColorTexture"] = st;
            if (sc != glm::vec3(1.0f) || !st.is_null()) {
                m["extensions"]["KHR_materials_specular"] = specular;
                m_extUsed.insert("KHR_materials_specular");
            }
        }
    }
    m["pbrMetallicRoughness"] = pbr;
    if (mat.model == ShadingModel::Unlit) {
        m["extensions"]["KHR_materials_unlit"] = Json::object();
        m_extUsed.insert("KHR_materials_unlit");
    }
    Json normal = tex(TextureSlot::Normal);
    if (normal.is_null()) normal = tex(TextureSlot::Bump);
    if (!normal.is_null()) {
        if (mat.normalScale != 1.0f) normal["scale"] = finiteOr(mat.normalScale, 1.0f);
        m["normalTexture"] = normal;
    }
    Json occlusion = tex(TextureSlot::Occlusion);
    if (!occlusion.is_null()) {
        if (mat.occlusionStrength != 1.0f) occlusion["strength"] = clamp01(mat.occlusionStrength);
        m["occlusionTexture"] = occlusion;
    }
    glm::vec3 emissive = glm::max(mat.emissive, glm::vec3(0.0f));
    Json et = tex(TextureSlot::Emissive);
    if (!et.is_null()) {
        m["emissiveTexture"] = et;
        if (emissive == glm::vec3(0.0f)) emissive = glm::vec3(1.0f);
    }
    const float strongest = std::max(emissive.r, std::max(emissive.g, emissive.b));
    if (strongest > 1.0f && std::isfinite(strongest)) {
        emissive /= strongest;
        m["extensions"]["KHR_materials_emissive_strength"] = {{"emissiveStrength", strongest}};
        m_extUsed.insert("KHR_materials_emissive_strength");
    }
    if (emissive != glm::vec3(0.0f)) m["emissiveFactor"] = {emissive.r, emissive.g, emissive.b};

    for (TextureSlot slot : {TextureSlot::Ambient, TextureSlot::Shininess, TextureSlot::Opacity,
                             TextureSlot::Reflection, TextureSlot::Refraction})
        if (mat.texture(slot).texture >= 0)
            note(where + ": " + textureSlotName(slot) + " map has no glTF counterpart: left out");
    // KHR_materials_specular's maps scale the metal/rough model's F0 and F90: other models drop them.
    if (mat.model != ShadingModel::MetalRough)
        for (TextureSlot slot : {TextureSlot::SpecularStrength, TextureSlot::SpecularTint})
            if (mat.texture(slot).texture >= 0)
                note(where + ": " + textureSlotName(slot) + " map on a material that is not metal/rough: left out");

    if (mat.alphaCutoff > 0.0f) {
        m["alphaMode"] = "MASK";
        m["alphaCutoff"] = mat.alphaCutoff;
    } else if (mat.blend.enabled || mat.opacity < 1.0f) {
        m["alphaMode"] = "BLEND";
        const bool usual =
            !mat.blend.enabled ||
            (mat.blend.srcRgb == BlendFactor::SrcAlpha &&
             mat.blend.dstRgb == BlendFactor::OneMinusSrcAlpha) ||
            (mat.blend.srcRgb == BlendFactor::One && mat.blend.dstRgb == BlendFactor::OneMinusSrcAlpha);
        if (!usual) note(where + ": blending other than source-over written as BLEND (factors in extras)");
        if (mat.blend.enabled)
            m["extras"]["blend"] = {{"src_rgb", int(mat.blend.srcRgb)},
                                    {"dst_rgb", int(mat.blend.dstRgb)},
                                    {"src_alpha", int(mat.blend.srcAlpha)},
                                    {"dst_alpha", int(mat.blend.dstAlpha)}};
    }
    if (mat.twoSided) m["doubleSided"] = true;
    m["extras"]["shading"] = mat.model == ShadingModel::Classic      ? "classic"
                             : mat.model == ShadingModel::MetalRough ? "metal/rough"
                                                                     : "unlit";
    m["extras"]["ambient"] = vec3Json(mat.ambient);
    if (mat.model == ShadingModel::Classic) {
        m["extras"]["specular"] = vec3Json(mat.specular);
        m["extras"]["shininess"] = mat.shininess;
    }
    m_materialUvSets.push_back(uvSets);
    return m;
}

}  // namespace esv::gltf
