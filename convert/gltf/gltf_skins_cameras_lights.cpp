// Skins, cameras and KHR_lights_punctual lights of the glTF writer (gltf_writer_internal.h).
#include <algorithm>
#include <cmath>

#include "convert/gltf/gltf_writer_internal.h"

namespace esv::gltf {
namespace {

float clampColor(float c) {
    return std::clamp(finiteOr(c, 1.0f), 0.0f, 1.0f);
}

}  // namespace

void Writer::writeSkinsCamerasLights() {
    for (const Skin& skin : m_scene.skins)
        m_skinOf.push_back(skin.joints.empty() ? -1 : addSkin(skin, glm::mat4(1.0f)));
    for (const Camera& cam : m_scene.cameras) {
        Json c = {{"name", cam.name}};
        const float znear = cam.nearZ > 0.0f ? cam.nearZ : 0.01f;
        const float zfar = cam.farZ > znear ? cam.farZ : znear * 1000.0f;
        if (cam.orthographic) {
            const float ymag = cam.orthoHeight > 0.0f ? cam.orthoHeight * 0.5f : 1.0f;
            c["type"] = "orthographic";
            c["orthographic"] = {{"xmag", ymag * (cam.aspect > 0.0f ? cam.aspect : 1.0f)},
                                 {"ymag", ymag},
                                 {"znear", std::max(cam.nearZ, 0.0f)},
                                 {"zfar", zfar}};
        } else {
            float yfov = cam.yfov;
            if (cam.xfov > 0.0f) {
                const float aspect = cam.aspect > 0.0f ? cam.aspect : 1.0f;
                yfov = 2.0f * std::atan(std::tan(cam.xfov * 0.5f) / aspect);
                if (!(cam.aspect > 0.0f))
                    note("camera '" + cam.name +
                         "': horizontal field of view written as vertical (no aspect ratio)");
            }
            if (!(yfov > 0.0f && yfov < kPi)) yfov = 0.7854f;
            c["type"] = "perspective";
            c["perspective"] = {{"yfov", yfov}, {"znear", znear}, {"zfar", zfar}};
            if (cam.aspect > 0.0f) c["perspective"]["aspectRatio"] = cam.aspect;
        }
        m_cameras.push_back(c);
    }
    for (const Light& light : m_scene.lights) {
        if (light.type == LightType::Ambient || !light.enabled) {
            m_lightOf.push_back(-1);
            note("light '" + light.name + "': " +
                 (light.enabled ? "ambient lights have no glTF counterpart" : "switched off") + ": left out");
            continue;
        }
        Json l = {
            {"name", light.name},
            {"color", {clampColor(light.color.r), clampColor(light.color.g), clampColor(light.color.b)}},
            {"intensity", std::max(finiteOr(light.intensity, 1.0f), 0.0f)}};
        if (light.type == LightType::Directional) {
            l["type"] = "directional";
        } else {
            l["type"] = light.type == LightType::Spot ? "spot" : "point";
            if (light.range > 0.0f) l["range"] = light.range;
            if (light.type == LightType::Spot) {
                const float outer = std::clamp(light.outerCone, 1e-4f, kPi * 0.5f);
                const float inner = std::clamp(light.innerCone, 0.0f, outer * 0.999f);
                l["spot"] = {{"innerConeAngle", inner}, {"outerConeAngle", outer}};
            }
        }
        // glTF lights fall off with the inverse square; the file's own attenuation is kept here.
        l["extras"] = {{"constant_attenuation", light.constantAttenuation},
                       {"linear_attenuation", light.linearAttenuation},
                       {"quadratic_attenuation", light.quadraticAttenuation}};
        m_lights.push_back(l);
        m_lightOf.push_back(int(m_lights.size() - 1));
        m_extUsed.insert("KHR_lights_punctual");
    }
}

// A glTF skin for `skin`; `unpack` (a POD unpack matrix of quantised positions the skinned mesh
// keeps) is folded into the inverse bind matrices: joint * inverseBind * unpack * stored.
int Writer::addSkin(const Skin& skin, const glm::mat4& unpack) {
    std::vector<float> ibm;
    for (size_t j = 0; j < skin.joints.size(); ++j) {
        const glm::mat4 m = (j < skin.inverseBind.size() ? skin.inverseBind[j] : glm::mat4(1.0f)) * unpack;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) ibm.push_back(c == 3 && r == 3 ? 1.0f : (r == 3 ? 0.0f : m[c][r]));
    }
    Json s = {{"joints", skin.joints}, {"inverseBindMatrices", addAccessor(ibm, 16, {}, false, 0)}};
    if (!skin.name.empty()) s["name"] = skin.name;
    m_skins.push_back(s);
    return int(m_skins.size() - 1);
}

// The glTF skin of skinned instance `node` (-1: none).
int Writer::skinFor(const Node& node) {
    const Mesh& mesh = m_scene.meshes[node.object];
    if (m_skinOf[node.skin] < 0 || !gltfKeepsQuantizedPositions(mesh) || isIdentity(mesh.positionUnpack))
        return m_skinOf[node.skin];
    const auto key = std::make_pair(int(node.skin), int(node.object));
    auto found = m_unpackedSkins.find(key);
    if (found != m_unpackedSkins.end()) return found->second;
    const int index = addSkin(m_scene.skins[node.skin], mesh.positionUnpack);
    m_unpackedSkins[key] = index;
    return index;
}

}  // namespace esv::gltf
