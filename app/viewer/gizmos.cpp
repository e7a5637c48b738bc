#include "app/viewer/gizmos.h"

#include <algorithm>
#include <cmath>

namespace esv {
namespace {

constexpr float kPi = 3.14159265f;

// Appends lines and points of one colour to an Annotations.
struct GizmoLines {
    Annotations& out;
    glm::vec4 color;
    void line(const glm::vec3& a, const glm::vec3& b) const {
        out.lines.push_back({a, color});
        out.lines.push_back({b, color});
    }
    void point(const glm::vec3& p) const { out.points.push_back({p, color}); }
};

// The unit axes of `m`'s upper 3x3; an axis that is zero or not finite (a node scaled to nothing)
// takes the world's, so that the gizmo keeps its shape.
void unitAxes(const glm::mat4& m, glm::vec3 axes[3]) {
    for (int a = 0; a < 3; ++a) {
        const glm::vec3 v(m[a]);
        const float length = glm::length(v);
        glm::vec3 unit(0.0f);
        unit[a] = 1.0f;
        axes[a] = length > 1e-20f && std::isfinite(length) ? v / length : unit;
    }
}

// A star of 7 lines `size` across through `at`: the three axes and the four diagonals between them.
void star(const GizmoLines& g, const glm::vec3& at, const glm::vec3 axes[3], float size) {
    const float h = 0.5f * size;
    for (int a = 0; a < 3; ++a) g.line(at - h * axes[a], at + h * axes[a]);
    for (float sx : {-1.0f, 1.0f})
        for (float sy : {-1.0f, 1.0f}) {
            const glm::vec3 d = glm::normalize(sx * axes[0] + sy * axes[1] + axes[2]);
            g.line(at - h * d, at + h * d);
        }
}

// An arrow of 5 lines from `at` along unit `forward`, `size` long, its head four short barbs.
void arrow(const GizmoLines& g, const glm::vec3& at, const glm::vec3& forward, const glm::vec3& right,
           const glm::vec3& up, float size) {
    const glm::vec3 tip = at + size * forward, back = tip - 0.3f * size * forward;
    g.line(at, tip);
    for (const glm::vec3& side : {right, -right, up, -up}) g.line(tip, back + 0.12f * size * side);
}

// A cone of 12 lines from `at` along unit `forward`, `size` long, with half angle `halfAngle`: four
// sides and a rim of eight segments.
void cone(const GizmoLines& g, const glm::vec3& at, const glm::vec3& forward, const glm::vec3& right,
          const glm::vec3& up, float size, float halfAngle) {
    const glm::vec3 centre = at + size * forward;
    const float radius = size * std::tan(halfAngle);
    glm::vec3 rim[8];
    for (int i = 0; i < 8; ++i) {
        const float angle = 2.0f * kPi * float(i) / 8.0f;
        rim[i] = centre + radius * (std::cos(angle) * right + std::sin(angle) * up);
    }
    for (int i = 0; i < 8; ++i) g.line(rim[i], rim[(i + 1) % 8]);
    for (int i = 0; i < 8; i += 2) g.line(at, rim[i]);
}

void lightGizmo(const GizmoLines& g, const Light& light, const glm::mat4& world, float size) {
    glm::vec3 axes[3];
    unitAxes(world, axes);
    const glm::vec3 at(world[3]), forward = -axes[2];  // lights shine down their -Z, as the light rig has it
    switch (light.type) {
        case LightType::Directional:
            arrow(g, at, forward, axes[0], axes[1], size);
            break;
        case LightType::Spot: {
            const float halfAngle = std::clamp(std::isfinite(light.outerCone) ? light.outerCone : 0.0f,
                                               5.0f * kPi / 180.0f, 60.0f * kPi / 180.0f);
            cone(g, at, forward, axes[0], axes[1], size, halfAngle);
            break;
        }
        default:
            star(g, at, axes, size);
            break;
    }
    g.point(at);
}

// A frustum pyramid (perspective) or box (orthographic) `size` deep along unit `forward` from `at`,
// with a small triangle over its far top edge marking the camera's up.
void cameraGizmo(const GizmoLines& g, const Camera& camera, float fov, const glm::vec3& at,
                 const glm::vec3& forward, const glm::vec3& right, const glm::vec3& up, float size) {
    const float aspect = camera.aspect > 0.0f && std::isfinite(camera.aspect) ? camera.aspect : 4.0f / 3.0f;
    float halfHeight = 0.0f;
    if (camera.orthographic) {
        halfHeight = 0.35f * size;
    } else {
        float yfov = fov;
        if (camera.xfov > 0.0f) yfov = 2.0f * std::atan(std::tan(0.5f * camera.xfov) / aspect);
        if (!std::isfinite(yfov)) yfov = Camera{}.yfov;
        halfHeight = size * std::tan(0.5f * std::clamp(yfov, 5.0f * kPi / 180.0f, 120.0f * kPi / 180.0f));
    }
    const float halfWidth = halfHeight * aspect;
    const glm::vec3 far = at + size * forward;
    const glm::vec3 corners[4] = {
        far - halfWidth * right - halfHeight * up, far + halfWidth * right - halfHeight * up,
        far + halfWidth * right + halfHeight * up, far - halfWidth * right + halfHeight * up};
    for (int i = 0; i < 4; ++i) g.line(corners[i], corners[(i + 1) % 4]);
    if (camera.orthographic) {
        const glm::vec3 back = -size * forward;
        for (int i = 0; i < 4; ++i) g.line(corners[i] + back, corners[(i + 1) % 4] + back);
        for (const glm::vec3& c : corners) g.line(c + back, c);
    } else {
        for (const glm::vec3& c : corners) g.line(at, c);
    }
    const glm::vec3 peak = far + (halfHeight + 0.5f * halfWidth) * up;
    g.line(corners[3] + 0.5f * halfWidth * right, peak);
    g.line(peak, corners[2] - 0.5f * halfWidth * right);
    g.point(at);
}

}  // namespace

float gizmoSize(const Scene& scene, const Pose& pose) {
    glm::vec3 lo(0.0f), hi(0.0f);
    bool any = false;
    for (size_t n = 0; n < scene.nodes.size() && n < pose.world.size(); ++n) {
        const glm::vec3 p(pose.world[n][3]);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
        lo = any ? glm::min(lo, p) : p;
        hi = any ? glm::max(hi, p) : p;
        any = true;
    }
    const float diagonal = glm::length(hi - lo);
    return diagonal > 0.0f && std::isfinite(diagonal) ? 0.1f * diagonal : 1.0f;
}

size_t sceneGizmos(const Scene& scene, const Pose& pose, float size, Annotations& out) {
    const size_t count = scene.nodes.size();
    if (pose.world.size() != count || pose.objectWorld.size() != count || pose.visible.size() != count)
        return 0;
    size_t gizmos = 0;
    for (size_t n = 0; n < count; ++n) {
        const Node& node = scene.nodes[n];
        if (!pose.visible[n] || node.viewerAdded) continue;
        if (node.kind == NodeKind::Light && node.object >= 0 && size_t(node.object) < scene.lights.size()) {
            lightGizmo({out, kLightGizmoColor}, scene.lights[size_t(node.object)], pose.objectWorld[n], size);
        } else if (node.kind == NodeKind::Camera && node.object >= 0 &&
                   size_t(node.object) < scene.cameras.size()) {
            const Camera& camera = scene.cameras[size_t(node.object)];
            const glm::mat4& world = pose.objectWorld[n];
            glm::vec3 axes[3];
            unitAxes(world, axes);
            const glm::vec3 at(world[3]);
            glm::vec3 forward = -axes[2], right = axes[0], up = axes[1];
            // A camera aimed at a target node looks at it, as the renderer's camera does; its up is
            // its +Y, or its +Z when it looks along that.
            if (camera.targetNode >= 0 && size_t(camera.targetNode) < count) {
                const glm::vec3 to = glm::vec3(pose.world[size_t(camera.targetNode)][3]) - at;
                glm::vec3 side = glm::cross(to, axes[1]);
                if (!(glm::length(side) > 1e-6f * glm::length(to))) side = glm::cross(to, axes[2]);
                if (glm::length(to) > 0.0f && glm::length(side) > 0.0f) {
                    forward = glm::normalize(to);
                    right = glm::normalize(side);
                    up = glm::cross(right, forward);
                }
            }
            const float fov =
                n < pose.cameraFov.size() && pose.cameraFov[n] > 0.0f ? pose.cameraFov[n] : camera.yfov;
            cameraGizmo({out, kCameraGizmoColor}, camera, fov, at, forward, right, up, size);
        } else if (node.kind == NodeKind::Empty) {
            const GizmoLines g{out, kEmptyGizmoColor};
            glm::vec3 axes[3];
            unitAxes(pose.world[n], axes);
            const glm::vec3 at(pose.world[n][3]);
            for (const glm::vec3& axis : axes) g.line(at - 0.5f * size * axis, at + 0.5f * size * axis);
            g.point(at);
        } else {
            continue;
        }
        ++gizmos;
    }
    return gizmos;
}

}  // namespace esv
