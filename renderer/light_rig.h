// The lights of a frame as the mesh program takes them: the file's enabled lights and the
// viewer's own (the studio rig, the headlight, or the stand-in pair when nothing else lights the
// scene) collected once per frame, at each draw the strongest few of the file's and every one of
// the viewer's picked into the uniform arrays (u_lightPosition, ... in mesh.frag), the hemisphere
// ambient, and the one projected spot (LIGHT_PROJECTION). Set uniforms through the renderer's
// state cache.
#pragma once

#include <algorithm>
#include <vector>

#include <glm/glm.hpp>

#include "renderer/gl_state.h"
#include "renderer/shader_program.h"
#include "renderer/textures.h"
#include "renderer/view_settings.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

// True for a spot light whose projection texture the renderer holds (a 2D one); `textures` are
// the uploaded Scene::textures, by index.
bool projectable(const Light& light, const std::vector<GpuTexture>& textures);

class LightRig {
public:
    static constexpr int kMaxFileLights = 4;  // the file's lights per draw, the strongest at the node
    static constexpr int kMaxViewLights = 4;  // the viewer's: the rig's three and the headlight
    static constexpr int kMaxLights = kMaxFileLights + kMaxViewLights;  // MAX_LIGHTS of mesh.frag
    // The studio rig's hemisphere ambient: the light a surface facing straight up (down) gets.
    static constexpr glm::vec3 kSkyColor{0.306f, 0.323f, 0.357f}, kGroundColor{0.17f, 0.16f, 0.15f};
    // Beside the file's lights the rig makes up what they leave short of kRigTarget on the side in
    // view, at least kLeastRig of its strength (its ambient at least
    // kLeastRigAmbient).
    static constexpr float kRigTarget = 0.7f, kLeastRig = 0.3f, kLeastRigAmbient = 0.7f;
    // With both rigs (Lighting::Both) the file's lights are exposed so that what they give the side
    // in view is at most kFileTarget, the share of kRigTarget the rig's least strength leaves them:
    // the file's lights, the rig and the ambient together then light a surface about as much as
    // the studio rig alone (irradiance near 1), however strong the file's lights are.
    static constexpr float kFileTarget = kRigTarget * (1.0f - kLeastRig);

    // What ViewSettings::lighting asks for: every enabled light of the scene (read from
    // Scene::lights each frame, so the panel's edits show at once) for File and Both, exposed
    // (exposure()) for Both; the studio rig, the hemisphere ambient and the studio response
    // (mesh.frag: diffuse light through the display gamma, highlights rolled off) for Studio and
    // Both, the rig dimmed beside the file's lights; the headlight when asked for; and the headlight
    // pair when nothing else would light the scene. `viewMatrix` is the frame's view (the rig and the headlight turn with
    // the camera); the first enabled projectable spot in node order is the projected one.
    void collect(const Scene& scene, const Pose& pose, const ViewSettings& view, const glm::mat4& viewMatrix,
                 const std::vector<GpuTexture>& textures);

    // The (at most kMaxFileLights) strongest of the file's lights at `p`, then the viewer's, into
    // the uniform arrays.
    void select(const glm::vec3& p);

    // The selected lights' count and arrays into program `p` (in use).
    void setUniforms(gl::StateCache& state, const MeshProgram& p) const;
    // LIGHT_PROJECTION: the projected spot's matrix (world to its texture space) and its index among
    // the selected lights (-1 when it is not among them) into program `p` (in use).
    void setProjectionUniforms(gl::StateCache& state, const MeshProgram& p) const;
    // The projected spot's texture, clamped on both axes; only while projecting().
    TextureRef projectionTexture() const;

    bool empty() const { return m_lights.empty() && m_viewLights.empty(); }  // nothing lights this frame
    bool projecting() const { return m_projectedLight >= 0; }
    // The scale of the file's lights this frame: below 1 only with both rigs and file lights that
    // give the side in view more than kFileTarget.
    float exposure() const { return m_exposure; }
    // The scale of the studio rig this frame (0 without it; 1 alone; at least kLeastRig beside
    // the file's lights).
    float rigStrength() const { return m_rigStrength; }

private:
    // What the file's lights (as collected, before the exposure) give the side in view around the
    // orbit camera's scene centre: the largest irradiance over a few points near it and five
    // normals of that side.
    float fileIrradiance(const ViewSettings& view, const glm::mat4& viewMatrix) const;

    // A light as the shader takes it, with what is needed to rank it for a draw.
    struct LightSlot {
        glm::vec4 position{0.0f};     // w = 0: direction of travel; w = 1: position
        glm::vec4 color{0.0f};        // rgb, w: spot falloff exponent
        glm::vec4 attenuation{1, 0, 0, 0};  // constant, linear, quadratic, offset
        glm::vec4 range{0, 0, -2, 0};       // see u_lightRange in mesh.frag
        glm::vec4 spot{0, 0, -1, -2};
        float luminance = 0.0f;
        TextureRef projection;  // the projected spot's image (texture -1: none)

        // Irradiance estimate at `p` used to pick the strongest lights of a draw.
        float strengthAt(const glm::vec3& p) const {
            if (position.w == 0.0f) return luminance;
            const float d = glm::length(glm::vec3(position) - p);
            return luminance / std::max(attenuation.x + attenuation.y * d + attenuation.z * d * d, 1e-6f);
        }
    };

    std::vector<LightSlot> m_lights;      // every enabled light of the file this frame
    std::vector<LightSlot> m_viewLights;  // the viewer's: rig, headlight, or the stand-in pair
    glm::vec3 m_sky{0.0f}, m_ground{0.0f};  // hemisphere ambient (black: none)
    glm::vec3 m_up{0.0f, 1.0f, 0.0f};       // the scene's up axis, toward the sky
    float m_response = 0.0f;                // u_up.w: 1 for the studio response (mesh.frag)
    float m_exposure = 1.0f, m_rigStrength = 0.0f;
    int m_projectedLight = -1;        // index into m_lights of the one projected spot; -1: none
    int m_projectedSlot = -1;         // its index among the current draw's lights; -1: not among them
    glm::mat4 m_lightProjection{1.0f};
    std::vector<size_t> m_order;
    int m_lightCount = 0;
    glm::vec4 m_lightPosition[kMaxLights]{};
    glm::vec4 m_lightColor[kMaxLights]{};
    glm::vec4 m_lightAttenuation[kMaxLights]{};
    glm::vec4 m_lightRange[kMaxLights]{};
    glm::vec4 m_lightSpot[kMaxLights]{};
};

}  // namespace esv
