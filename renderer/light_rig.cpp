// The frame's lights (see light_rig.h).
#include "renderer/light_rig.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/type_ptr.hpp>

namespace esv {
namespace {

// World space to the spot's texture space (u_lightProjection in mesh.frag): a square frustum
// down the light's -Z with half angle outerCone (45 degrees when the cone is 90 or wider),
// image right along +X and up along +Y (OpenGEX LightObject), the top row at t = 0.
glm::mat4 projectionMatrix(const Light& light, const glm::mat4& world) {
    const float half =
        light.outerCone > 1e-4f && light.outerCone < 1.5707963f ? light.outerCone : 0.78539816f;
    const float t = std::tan(half);
    glm::mat4 p(0.0f);
    p[0][0] = 0.5f / t;  // q.x = 0.5 x / t + 0.5 (-z)
    p[2][0] = -0.5f;
    p[1][1] = -0.5f / t;  // q.y = -0.5 y / t + 0.5 (-z)
    p[2][1] = -0.5f;
    p[2][3] = -1.0f;  // q.w = -z, the depth in front of the light
    return p * glm::inverse(world);
}

}  // namespace

bool projectable(const Light& light, const std::vector<GpuTexture>& textures) {
    const int32_t t = light.projection.texture;
    return light.type == LightType::Spot && t >= 0 && size_t(t) < textures.size() &&
           textures[t].texture && textures[t].target == GL_TEXTURE_2D;
}

float LightRig::fileIrradiance(const ViewSettings& view, const glm::mat4& viewMatrix) const {
    if (m_lights.empty()) return 0.0f;
    // At seven points of the scene (its centre, and half its radius from it to the left, the right,
    // above, below, toward the eye and away from it, as the camera sees it), the irradiance on five
    // normals of the visible side (toward the eye, and tilted 60 degrees up, down, left and right):
    // the largest. A point light close to one side of the model lights that side far more than
    // the centre.
    const glm::vec3 centre = view.orbit.sceneRadius > 0.0f ? view.orbit.sceneCenter : view.orbit.target;
    const float r = 0.5f * std::max(view.orbit.sceneRadius, 0.0f);
    const glm::mat3 cameraToWorld(glm::inverse(viewMatrix));
    const glm::vec3 toEye = glm::normalize(cameraToWorld[2]), up = glm::normalize(cameraToWorld[1]),
                    right = glm::normalize(cameraToWorld[0]);
    const glm::vec3 normals[] = {toEye, 0.5f * toEye + 0.866f * up, 0.5f * toEye - 0.866f * up,
                                 0.5f * toEye + 0.866f * right, 0.5f * toEye - 0.866f * right};
    const glm::vec3 points[] = {centre,          centre - r * right, centre + r * right, centre + r * up,
                                centre - r * up, centre + r * toEye, centre - r * toEye};
    float given = 0.0f;
    for (const glm::vec3& p : points)
        for (const glm::vec3& n : normals) {
            float sum = 0.0f;
            for (const LightSlot& light : m_lights) {
                glm::vec3 toLight = -glm::vec3(light.position);
                float irradiance = light.luminance;
                if (light.position.w != 0.0f) {
                    const glm::vec3 d = glm::vec3(light.position) - p;
                    if (glm::length(d) < 1e-6f) continue;
                    toLight = glm::normalize(d);
                    irradiance = light.strengthAt(p);
                    if (light.spot.w > -1.5f && glm::dot(-toLight, glm::vec3(light.spot)) < light.spot.w) continue;
                }
                sum += irradiance * std::max(glm::dot(n, glm::normalize(toLight)), 0.0f);
            }
            given = std::max(given, sum);
        }
    return given;
}

void LightRig::collect(const Scene& scene, const Pose& pose, const ViewSettings& view, const glm::mat4& viewMatrix,
                       const std::vector<GpuTexture>& textures) {
    m_lights.clear();
    m_viewLights.clear();
    m_projectedLight = -1;
    const bool fileLights = view.lighting != Lighting::Studio;
    for (size_t n = 0; fileLights && n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind != NodeKind::Light || node.object < 0) continue;
        const Light& light = scene.lights[node.object];
        if (!light.enabled || light.type == LightType::Ambient) continue;
        const glm::mat4& world = pose.objectWorld[n];
        const glm::vec3 forward = -glm::normalize(glm::vec3(world[2]));  // lights shine down their -Z
        LightSlot slot;
        const glm::vec3 color = light.color * light.intensity;
        slot.color = glm::vec4(color, light.type == LightType::Spot ? light.falloffExponent : 0.0f);
        slot.attenuation = glm::vec4(light.constantAttenuation, light.linearAttenuation, light.quadraticAttenuation,
                                     light.attenuationOffset);
        const bool innerCone = light.openGexFalloff || light.innerCone > 0.0f;
        slot.range = glm::vec4(light.rangeStart, light.range, innerCone ? std::cos(light.innerCone) : -2.0f,
                               (light.smoothRange ? 1.0f : 0.0f) + (light.openGexFalloff ? 2.0f : 0.0f) +
                                   (light.smoothCone ? 4.0f : 0.0f) + (light.coneLinearInCosine ? 8.0f : 0.0f));
        slot.position = light.type == LightType::Directional ? glm::vec4(forward, 0.0f)
                                                             : glm::vec4(glm::vec3(world[3]), 1.0f);
        slot.spot = light.type == LightType::Spot ? glm::vec4(forward, std::cos(light.outerCone))
                                                  : glm::vec4(0.0f, 0.0f, -1.0f, -2.0f);
        slot.luminance = glm::dot(color, glm::vec3(0.2126f, 0.7152f, 0.0722f));
        if (m_projectedLight < 0 && projectable(light, textures)) {
            slot.projection = light.projection;
            m_projectedLight = int(m_lights.size());
            m_lightProjection = projectionMatrix(light, world);
        }
        m_lights.push_back(slot);
    }
    const glm::mat3 cameraToWorld(glm::inverse(viewMatrix));
    auto directional = [](const glm::vec3& travel, const glm::vec3& color) {
        LightSlot slot;
        slot.position = glm::vec4(glm::normalize(travel), 0.0f);
        slot.color = glm::vec4(color, 0.0f);
        slot.luminance = glm::dot(color, glm::vec3(0.2126f, 0.7152f, 0.0722f));
        return slot;
    };
    m_sky = m_ground = glm::vec3(0.0f);
    m_response = 0.0f;
    m_exposure = 1.0f;
    m_rigStrength = 0.0f;
    m_up = scene.up == UpAxis::Z ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    if (view.lighting != Lighting::File) {
        // A studio rig that turns with the camera, so it always lights the side in view, over a
        // sky-over-ground ambient fixed to the scene's up axis, so shadowed sides keep their shape.
        // Directions towards each light in camera space (x right, y up, z towards the viewer).
        static const struct {
            glm::vec3 towards, color;
        } kRig[] = {{{-0.55f, 0.6f, 0.6f}, {0.6f, 0.57f, 0.525f}},  // key: warm, upper left, in front
                    {{0.8f, 0.05f, 0.6f}, {0.28f, 0.31f, 0.36f}},   // fill: cool, right, soft
                    {{0.25f, 0.55f, -0.8f}, {0.4f, 0.4f, 0.4f}}};   // rim: behind, for the outline
        // Both rigs: the file's lights exposed down to kFileTarget on the side in view, and the rig
        // making up what they leave short of kRigTarget.
        const float given = fileIrradiance(view, viewMatrix);
        if (given > kFileTarget) {
            m_exposure = kFileTarget / given;
            for (LightSlot& slot : m_lights) {
                slot.color = glm::vec4(glm::vec3(slot.color) * m_exposure, slot.color.w);
                slot.luminance *= m_exposure;
            }
        }
        const float scale = glm::clamp(1.0f - m_exposure * given / kRigTarget, kLeastRig, 1.0f);
        m_rigStrength = scale;
        for (const auto& light : kRig)
            m_viewLights.push_back(directional(-(cameraToWorld * light.towards), scale * light.color));
        // The ambient keeps at least half its strength: it is what keeps the side no light reaches
        // from going black.
        const float ambientScale = std::max(scale, kLeastRigAmbient);
        m_sky = ambientScale * kSkyColor;
        m_ground = ambientScale * kGroundColor;
        m_response = 1.0f;
    }
    if (view.headlight) m_viewLights.push_back(directional(-cameraToWorld[2], glm::vec3(0.6f)));
    if (m_lights.empty() && m_viewLights.empty()) {
        // Nothing is ever black by accident: a headlight from the eye and a dim fill from above.
        m_viewLights.push_back(directional(-cameraToWorld[2], glm::vec3(0.85f)));
        m_viewLights.push_back(directional(glm::vec3(0.3f, -1.0f, 0.2f), glm::vec3(0.3f)));
    }
}

void LightRig::select(const glm::vec3& p) {
    m_order.resize(m_lights.size());
    for (size_t i = 0; i < m_order.size(); ++i) m_order[i] = i;
    if (m_lights.size() > size_t(kMaxFileLights))
        std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) {
            return m_lights[a].strengthAt(p) > m_lights[b].strengthAt(p);
        });
    const int fileCount = int(std::min<size_t>(m_lights.size(), kMaxFileLights));
    const int viewCount = int(std::min<size_t>(m_viewLights.size(), kMaxViewLights));
    m_lightCount = fileCount + viewCount;
    m_projectedSlot = -1;
    for (int i = 0; i < fileCount; ++i)
        if (int(m_order[i]) == m_projectedLight) m_projectedSlot = i;
    for (int i = 0; i < kMaxLights; ++i) {
        const LightSlot slot = i < fileCount               ? m_lights[m_order[i]]
                               : i < fileCount + viewCount ? m_viewLights[size_t(i - fileCount)]
                                                           : LightSlot();
        m_lightPosition[i] = slot.position;
        m_lightColor[i] = slot.color;
        m_lightAttenuation[i] = slot.attenuation;
        m_lightRange[i] = slot.range;
        m_lightSpot[i] = slot.spot;
    }
}

void LightRig::setUniforms(gl::StateCache& state, const MeshProgram& p) const {
    // A program with fewer light slots (a small fragment uniform budget) takes the first lights:
    // the file's strongest, then the viewer's in the rig's order.
    const int slots = std::min(kMaxLights, p.maxLights);
    state.uniform1i(p.lightCount, std::min(m_lightCount, slots));
    state.uniform4fv(p.lightPosition, slots, glm::value_ptr(m_lightPosition[0]));
    state.uniform4fv(p.lightColor, slots, glm::value_ptr(m_lightColor[0]));
    state.uniform4fv(p.lightAttenuation, slots, glm::value_ptr(m_lightAttenuation[0]));
    state.uniform4fv(p.lightRange, slots, glm::value_ptr(m_lightRange[0]));
    state.uniform4fv(p.lightSpot, slots, glm::value_ptr(m_lightSpot[0]));
    state.uniform3fv(p.skyColor, 1, glm::value_ptr(m_sky));
    state.uniform3fv(p.groundColor, 1, glm::value_ptr(m_ground));
    state.uniform4f(p.up, m_up.x, m_up.y, m_up.z, m_response);
}

void LightRig::setProjectionUniforms(gl::StateCache& state, const MeshProgram& p) const {
    state.uniformMatrix4fv(p.lightProjection, 1, glm::value_ptr(m_lightProjection));
    state.uniform1f(p.projectedLight, float(m_projectedSlot));
}

TextureRef LightRig::projectionTexture() const {
    // Clamped: outside [0, 1] the shader gives no light, and ES2 takes any size so.
    TextureRef ref = m_lights[size_t(m_projectedLight)].projection;
    ref.wrapS = ref.wrapT = Wrap::Clamp;
    return ref;
}

}  // namespace esv
