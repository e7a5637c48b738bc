// The lights of a frame as the mesh program takes them: every enabled light of the scene (or the
// default pair, and the camera rig when asked for) collected once per frame, the strongest few at
// each draw picked into the uniform arrays (u_lightPosition, ... in mesh.frag), and the one
// projected spot (LIGHT_PROJECTION). Set uniforms through the renderer's state cache.
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
    static constexpr int kMaxLights = 4;  // lights per draw (the uniform arrays of mesh.frag)

    // Every enabled light of the scene (read from Scene::lights each frame, so the panel's edits
    // show at once) unless the view ignores them, the headlight pair when none is in use, and the
    // camera rig on top when asked for. `viewMatrix` is the frame's view (the headlight and the rig
    // turn with the camera); the first enabled projectable spot in node order is the projected one.
    void collect(const Scene& scene, const Pose& pose, const ViewSettings& view, const glm::mat4& viewMatrix,
                 const std::vector<GpuTexture>& textures);

    // The (at most kMaxLights) strongest lights at `p` into the uniform arrays.
    void select(const glm::vec3& p);

    // The selected lights' count and arrays into program `p` (in use).
    void setUniforms(gl::StateCache& state, const MeshProgram& p) const;
    // LIGHT_PROJECTION: the projected spot's matrix (world to its texture space) and its index among
    // the selected lights (-1 when it is not among them) into program `p` (in use).
    void setProjectionUniforms(gl::StateCache& state, const MeshProgram& p) const;
    // The projected spot's texture, clamped on both axes; only while projecting().
    TextureRef projectionTexture() const;

    bool empty() const { return m_lights.empty(); }  // nothing lights this frame
    bool projecting() const { return m_projectedLight >= 0; }

private:
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

    std::vector<LightSlot> m_lights;  // every enabled light this frame (or the default pair)
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
