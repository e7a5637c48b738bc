// glTF reader: images, textures, samplers and materials (gltf_internal.h).
#include <algorithm>
#include <cstdio>

#include "loaders/gltf/gltf_internal.h"

namespace esv::gltf {
namespace {

bool wrapOf(uint64_t code, Wrap& out) {
    switch (code) {
        case 10497:
            out = Wrap::Repeat;
            return true;
        case 33071:
            out = Wrap::Clamp;
            return true;
        case 33648:
            out = Wrap::Mirror;
            return true;
        default:
            return false;
    }
}

}  // namespace

// Scene textures are the file's images (same index); a glTF texture names one and a sampler.
void Reader::readImagesAndTextures() {
    const Json& images = array("images");
    for (size_t i = 0; i < images.size(); ++i) {
        const std::string where = pointer("images", i);
        const Json& im = images[i];
        Texture tex;
        if (objectAt(im, where)) {
            tex.name = getString(im, "name");
            const Json* uri = member(im, "uri");
            int32_t view = -1;
            if (uri && uri->is_string()) {
                const std::string u = uri->get<std::string>();
                if (u.compare(0, 5, "data:") == 0) {
                    std::vector<uint8_t> bytes;
                    bool isData = false;
                    if (decodeUri(u, where + "/uri", bytes, nullptr, &isData))
                        tex.embedded = makeOwnedBytes(std::move(bytes));
                    if (tex.name.empty()) tex.name = "image " + std::to_string(i);
                } else {
                    // Found, read and decoded by loaders/textures, relative to the model's folder.
                    tex.path = uriPath(u);
                    if (tex.name.empty()) tex.name = tex.path;
                }
            } else if (getIndex(im, "bufferView", where, "bufferViews", view, false)) {
                if (const BufferView* v = bufferView(view, where + "/bufferView")) tex.embedded = v->bytes;
                if (tex.name.empty()) tex.name = "image " + std::to_string(i);
            } else {
                fail(where, "has neither a uri nor a bufferView");
            }
        }
        m_scene.textures.push_back(std::move(tex));
    }
    // Samplers are checked whether used or not (each texture reference takes its filters). An unknown
    // code is a warning, as the glTF-Validator has it; the wrap falls back to repeat.
    const Json& samplers = array("samplers");
    for (size_t s = 0; s < samplers.size(); ++s) {
        const std::string where = pointer("samplers", s);
        uint64_t code = 0;
        Wrap wrap;
        for (const char* key : {"wrapS", "wrapT"})
            if (getUint(samplers[s], key, where, code, false) && !wrapOf(code, wrap))
                m_diag.warn(FilePlace{}, where + "/" + key,
                            std::to_string(code) + " is not a wrap mode: repeat");
        if (getUint(samplers[s], "magFilter", where, code, false) && code != 9728 && code != 9729)
            m_diag.warn(FilePlace{}, where + "/magFilter",
                        std::to_string(code) + " is not NEAREST or LINEAR");
        if (getUint(samplers[s], "minFilter", where, code, false) &&
            (code < 9728 || code > 9987 || (code > 9729 && code < 9984)))
            m_diag.warn(FilePlace{}, where + "/minFilter",
                        std::to_string(code) + " is not a minification filter");
    }
    const Json& textures = array("textures");
    for (size_t t = 0; t < textures.size(); ++t) {
        const std::string where = pointer("textures", t);
        int32_t source = -1;
        const Json& tx = textures[t];
        getIndex(tx, "source", where, "images", source, false);
        if (const Json* ext = member(tx, "extensions"))
            if (const Json* basis = member(*ext, "KHR_texture_basisu"))
                getIndex(*basis, "source", where + "/extensions/KHR_texture_basisu", "images", source, true);
        m_textureMap.push_back(source);
    }
}

// A textureInfo object: texture, texCoord set, sampler wrap, KHR_texture_transform.
static void readTextureInfo(Reader& r, const Json& info, const std::string& where, const std::string& name,
                            TextureRef& ref) {
    int32_t index = -1;
    if (!r.objectAt(info, where) || !r.getIndex(info, "index", where, "textures", index, true)) return;
    ref.texture = r.m_textureMap[size_t(index)];
    uint64_t set = 0;
    if (r.getUint(info, "texCoord", where, set, false)) {
        if (set > 7) r.fail(where + "/texCoord", std::to_string(set) + " exceeds the 8 sets read");
        ref.uvSet = uint8_t(std::min<uint64_t>(set, 7));
    }
    const Json& texture = r.array("textures")[size_t(index)];
    int32_t sampler = -1;
    if (r.getIndex(texture, "sampler", pointer("textures", size_t(index)), "samplers", sampler, false)) {
        const Json& s = r.array("samplers")[size_t(sampler)];
        const std::string sw = pointer("samplers", size_t(sampler));
        uint64_t code = 0;
        if (r.getUint(s, "wrapS", sw, code, false)) wrapOf(code, ref.wrapS);  // checked with the samplers
        if (r.getUint(s, "wrapT", sw, code, false)) wrapOf(code, ref.wrapT);
        if (r.getUint(s, "magFilter", sw, code, false) && (code == 9728 || code == 9729))
            ref.magFilter = code == 9728 ? TextureFilter::Nearest : TextureFilter::Linear;
        if (r.getUint(s, "minFilter", sw, code, false)) {
            // NEAREST, LINEAR, then the four mipmap filters in GL's order (9984 .. 9987).
            if (code == 9728 || code == 9729)
                ref.minFilter = code == 9728 ? TextureFilter::Nearest : TextureFilter::Linear;
            else if (code >= 9984 && code <= 9987)
                ref.minFilter = TextureFilter(uint32_t(TextureFilter::NearestMipmapNearest) + uint32_t(code - 9984));
        }
    }
    const Json* ext = r.member(info, "extensions");
    const Json* tt = ext ? r.member(*ext, "KHR_texture_transform") : nullptr;
    if (!tt) return;
    const std::string tw = where + "/extensions/KHR_texture_transform";
    float offset[2] = {0, 0}, scale[2] = {1, 1}, rotation = 0.0f;
    r.getFloats(*tt, "offset", tw, offset, 2);
    r.getFloats(*tt, "scale", tw, scale, 2);
    r.getFloat(*tt, "rotation", tw, rotation);
    if (r.getUint(*tt, "texCoord", tw, set, false)) ref.uvSet = uint8_t(std::min<uint64_t>(set, 7));
    // uv' = T * R * S * uv with R = [cos sin; -sin cos] (the extension's rotation runs clockwise).
    UvTransform transform;
    transform.name = name;
    TransformElement e;
    e.kind = ElementKind::Translate;
    e.value = {offset[0], offset[1], 0.0f};
    transform.elements.push_back(e);
    e.kind = ElementKind::RotateZ;
    e.value = {-rotation};
    transform.elements.push_back(e);
    e.kind = ElementKind::Scale;
    e.value = {scale[0], scale[1], 1.0f};
    transform.elements.push_back(e);
    ref.uvTransform = int32_t(r.m_scene.uvTransforms.size());
    r.m_scene.uvTransforms.push_back(std::move(transform));
}

static void readPbr(Reader& r, const Json& pbr, const std::string& where, Material& m) {
    float base[4] = {1, 1, 1, 1};
    r.getFloats(pbr, "baseColorFactor", where, base, 4);
    m.diffuse = glm::vec3(base[0], base[1], base[2]);
    m.opacity = base[3];
    m.metallic = 1.0f;
    m.roughness = 1.0f;
    r.getFloat(pbr, "metallicFactor", where, m.metallic);
    r.getFloat(pbr, "roughnessFactor", where, m.roughness);
    const std::string name = "material '" + m.name + "'";
    if (const Json* t = r.member(pbr, "baseColorTexture"))
        readTextureInfo(r, *t, where + "/baseColorTexture", name + " / diffuse",
                        m.texture(TextureSlot::Diffuse));
    if (const Json* t = r.member(pbr, "metallicRoughnessTexture")) {
        // The renderer reads metallic from blue and roughness from green, as glTF packs them.
        readTextureInfo(r, *t, where + "/metallicRoughnessTexture", name + " / metallic roughness",
                        m.texture(TextureSlot::Metallic));
        m.texture(TextureSlot::Roughness) = m.texture(TextureSlot::Metallic);
    }
}

static void readMaterialExtensions(Reader& r, const Json& ext, const std::string& where, Material& m) {
    if (r.member(ext, "KHR_materials_unlit")) m.model = ShadingModel::Unlit;
    if (const Json* es = r.member(ext, "KHR_materials_emissive_strength")) {
        float strength = 1.0f;
        r.getFloat(*es, "emissiveStrength", where + "/KHR_materials_emissive_strength", strength);
        m.emissive *= strength;
    }
    if (const Json* io = r.member(ext, "KHR_materials_ior")) {
        // The index of refraction sets the dielectric F0 = ((ior - 1) / (ior + 1))^2 (0.04 at the
        // default 1.5). The schema allows 1 and above, or exactly 0 (F0 1).
        const std::string iw = where + "/KHR_materials_ior";
        float ior = 1.5f;
        if (r.getFloat(*io, "ior", iw, ior)) {
            if (iorInGltfRange(ior))
                m.ior = ior;
            else {
                char text[32];
                std::snprintf(text, sizeof text, "%g", double(ior));
                r.fail(iw + "/ior", std::string("index of refraction ") + text + " is below 1 and not 0");
            }
        }
    }
    if (const Json* sp = r.member(ext, "KHR_materials_specular")) {
        // The factors and maps scale the dielectric F0 and F90 (the renderer's metal/rough shading;
        // the maps on ES 3 only, see prepare/); the colour is also the material's specular, as the
        // panel and `info` show it.
        const std::string sw = where + "/KHR_materials_specular";
        float colour[3] = {1, 1, 1};
        r.getFloats(*sp, "specularColorFactor", sw, colour, 3);
        r.getFloat(*sp, "specularFactor", sw, m.specularFactor);
        m.specularColorFactor = glm::vec3(colour[0], colour[1], colour[2]);
        m.specular = m.specularColorFactor;
        const std::string name = "material '" + m.name + "'";
        if (const Json* t = r.member(*sp, "specularTexture"))
            readTextureInfo(r, *t, sw + "/specularTexture", name + " / specular strength",
                            m.texture(TextureSlot::SpecularStrength));
        if (const Json* t = r.member(*sp, "specularColorTexture"))
            readTextureInfo(r, *t, sw + "/specularColorTexture", name + " / specular colour",
                            m.texture(TextureSlot::SpecularTint));
    }
}

void Reader::readMaterials() {
    const Json& materials = array("materials");
    for (size_t i = 0; i < materials.size(); ++i) {
        const std::string where = pointer("materials", i);
        const Json& j = materials[i];
        Material m;
        m.model = ShadingModel::MetalRough;
        m.diffuse = glm::vec3(1.0f);
        m.metallic = 1.0f;
        m.roughness = 1.0f;
        m.vertexColors = true;
        if (!objectAt(j, where)) {
            m_scene.materials.push_back(m);
            continue;
        }
        m.name = getString(j, "name");
        const std::string name = "material '" + m.name + "'";
        if (const Json* pbr = member(j, "pbrMetallicRoughness"))
            readPbr(*this, *pbr, where + "/pbrMetallicRoughness", m);
        if (const Json* t = member(j, "normalTexture")) {
            readTextureInfo(*this, *t, where + "/normalTexture", name + " / normal",
                            m.texture(TextureSlot::Normal));
            getFloat(*t, "scale", where + "/normalTexture", m.normalScale);
        }
        if (const Json* t = member(j, "occlusionTexture")) {
            readTextureInfo(*this, *t, where + "/occlusionTexture", name + " / occlusion",
                            m.texture(TextureSlot::Occlusion));
            getFloat(*t, "strength", where + "/occlusionTexture", m.occlusionStrength);
        }
        if (const Json* t = member(j, "emissiveTexture"))
            readTextureInfo(*this, *t, where + "/emissiveTexture", name + " / emissive",
                            m.texture(TextureSlot::Emissive));
        float emissive[3] = {0, 0, 0};
        getFloats(j, "emissiveFactor", where, emissive, 3);
        m.emissive = glm::vec3(emissive[0], emissive[1], emissive[2]);
        const std::string mode = member(j, "alphaMode") ? getString(j, "alphaMode") : "OPAQUE";
        if (mode == "MASK") {
            m.alphaCutoff = 0.5f;
            getFloat(j, "alphaCutoff", where, m.alphaCutoff);
        } else if (mode == "BLEND") {
            m.blend.enabled = true;
            m.blend.srcRgb = BlendFactor::SrcAlpha;
            m.blend.dstRgb = BlendFactor::OneMinusSrcAlpha;
            m.blend.srcAlpha = BlendFactor::One;
            m.blend.dstAlpha = BlendFactor::OneMinusSrcAlpha;
        } else if (mode == "OPAQUE") {
            m.opacity = 1.0f;  // glTF ignores alpha when opaque
        } else {
            fail(where + "/alphaMode", "'" + mode.substr(0, 20) + "' is not OPAQUE, MASK or BLEND");
        }
        const Json* ds = member(j, "doubleSided");
        m.twoSided = ds && ds->is_boolean() && ds->get<bool>();
        if (const Json* ext = member(j, "extensions"))
            readMaterialExtensions(*this, *ext, where + "/extensions", m);
        m_scene.materials.push_back(std::move(m));
    }
}

}  // namespace esv::gltf
