// Camera maths (see camera.h): no GL here.
#include "renderer/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace esv {

glm::vec3 orbitDirection(const OrbitCamera& o) {
    const glm::vec3 yUp(std::cos(o.pitch) * std::sin(o.yaw), std::sin(o.pitch), std::cos(o.pitch) * std::cos(o.yaw));
    // Z up: the Y-up frame turned so that its +Y is +Z and its +Z (toward the default eye) is -Y.
    return o.zUp ? glm::vec3(yUp.x, -yUp.z, yUp.y) : yUp;
}

glm::vec3 orbitUp(const OrbitCamera& o) {
    return o.zUp ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
}

void firstView(OrbitCamera& o, const glm::vec3& front, bool zUp) {
    o.zUp = zUp;
    // orbitDirection at pitch 0 is (sin yaw, 0, cos yaw), or (sin yaw, -cos yaw, 0) with Z up.
    const float along = zUp ? -front.y : front.z;
    const float yaw = std::abs(front.x) + std::abs(along) > 1e-6f && std::isfinite(front.x) && std::isfinite(along)
                          ? std::atan2(front.x, along)
                          : 0.0f;
    o.yaw = yaw + kFirstViewYaw;
    o.pitch = kFirstViewPitch;
}

void orbitMatrices(const OrbitCamera& o, float aspect, glm::mat4& view, glm::mat4& projection) {
    const glm::vec3 dir = orbitDirection(o);
    const glm::vec3 eye = o.target + o.distance * dir;
    view = glm::lookAt(eye, o.target, orbitUp(o));
    float nearZ = std::max(o.distance * 0.01f, 1e-4f), farZ = o.distance * 100.0f;
    if (o.sceneRadius > 0.0f) {
        // Everything lies within the radius of the centre, so within d +- r of the eye; 1.5 r leaves
        // room for animation beyond the framed box. The centre rather than the target, so panning
        // cannot clip the scene. Inside the sphere near falls to 1e-3 d: nothing is clipped, at the
        // cost of depth precision only there.
        const float d = glm::length(eye - o.sceneCenter);
        nearZ = std::max({d - 1.5f * o.sceneRadius, d * 1e-3f, 1e-4f});
        farZ = std::max((d + 1.5f * o.sceneRadius) * 1.01f, nearZ * 2.0f);
    }
    projection = glm::perspective(o.yfov, aspect, nearZ, farZ);
}

void frameBounds(OrbitCamera& orbit, const glm::vec3& min, const glm::vec3& max, float aspect,
                 const ViewRegion& region) {
    glm::vec3 corners[8];
    for (int i = 0; i < 8; ++i)
        corners[i] = glm::vec3((i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y, (i & 4) ? max.z : min.z);
    framePoints(orbit, corners, 8, min, max, aspect, region);
}

void framePoints(OrbitCamera& orbit, const glm::vec3* points, size_t count, const glm::vec3& min,
                 const glm::vec3& max, float aspect, const ViewRegion& region) {
    const glm::vec3 center = 0.5f * (min + max);
    const float radius = std::max(0.5f * glm::length(max - min), 1e-3f);
    orbit.sceneCenter = center;
    orbit.sceneRadius = radius;
    if (!(aspect > 0.0f) || !std::isfinite(aspect)) aspect = 1.0f;

    // The camera's axes as glm::lookAt builds them: right, up, and `dir` toward the eye.
    const glm::vec3 dir = orbitDirection(orbit);
    glm::vec3 right = glm::cross(-dir, orbitUp(orbit));
    if (glm::length(right) < 1e-6f) right = glm::cross(-dir, glm::vec3(0.0f, 0.0f, 1.0f));
    if (glm::length(right) < 1e-6f) right = glm::vec3(1.0f, 0.0f, 0.0f);
    right = glm::normalize(right);
    const glm::vec3 up = glm::cross(right, -dir);

    // The region in tangent units (x right, y up) with the margin taken off.
    ViewRegion r = region;
    if (!(r.x1 - r.x0 > 0.05f) || !(r.y1 - r.y0 > 0.05f) || r.x0 < 0.0f || r.y0 < 0.0f || r.x1 > 1.0f ||
        r.y1 > 1.0f)
        r = ViewRegion{};
    const float ty = std::tan(0.5f * orbit.yfov), tx = ty * aspect;
    const float mx = kFrameMargin * (r.x1 - r.x0), my = kFrameMargin * (r.y1 - r.y0);
    const float ax = (2.0f * (r.x0 + mx) - 1.0f) * tx, bx = (2.0f * (r.x1 - mx) - 1.0f) * tx;
    const float ay = (1.0f - 2.0f * (r.y1 - my)) * ty, by = (1.0f - 2.0f * (r.y0 + my)) * ty;

    // A point at (x, y, z) from the centre seen from the eye at target + d dir, target = centre +
    // cx right + cy up, lies inside when a <= (x - cx) / (d - z) <= b. That is cx + b d >= x + b z
    // and cx + a d <= x + a z for every point: d >= (U - L) / (b - a) with U = max(x + b z) and
    // L = min(x + a z), and then cx anywhere in [U - b d, L - a d].
    float ux = -INFINITY, lx = INFINITY, uy = -INFINITY, ly = INFINITY, farthest = -INFINITY;
    for (size_t i = 0; i < count; ++i) {
        if (!std::isfinite(points[i].x) || !std::isfinite(points[i].y) || !std::isfinite(points[i].z)) continue;
        const glm::vec3 rel = points[i] - center;
        const float x = glm::dot(rel, right), y = glm::dot(rel, up), z = glm::dot(rel, dir);
        ux = std::max(ux, x + bx * z);
        lx = std::min(lx, x + ax * z);
        uy = std::max(uy, y + by * z);
        ly = std::min(ly, y + ay * z);
        farthest = std::max(farthest, z);
    }
    float d = std::max({(ux - lx) / (bx - ax), (uy - ly) / (by - ay), farthest + 1e-3f * radius});
    // A box of (almost) no size: its minimum sphere, as a point is framed.
    if (!std::isfinite(d) || d <= 0.0f || glm::length(max - min) < 2e-3f)
        d = std::max(std::isfinite(d) ? d : 0.0f, radius / std::sin(0.5f * orbit.yfov));
    const float cx = 0.5f * ((ux - bx * d) + (lx - ax * d));
    const float cy = 0.5f * ((uy - by * d) + (ly - ay * d));
    orbit.target = center + (std::isfinite(cx) ? cx : 0.0f) * right + (std::isfinite(cy) ? cy : 0.0f) * up;
    orbit.distance = d;
}

void cameraMatrices(const Scene& scene, const Pose& pose, const ViewSettings& settings, int width, int height,
                    glm::mat4& view, glm::mat4& projection) {
    const float aspect = height > 0 ? float(width) / float(height) : 1.0f;
    int cameraNode = -1;
    if (settings.camera >= 0 && size_t(settings.camera) < scene.cameras.size())
        for (size_t n = 0; n < scene.nodes.size(); ++n)
            if (scene.nodes[n].kind == NodeKind::Camera && scene.nodes[n].object == settings.camera) {
                cameraNode = static_cast<int>(n);
                break;
            }
    if (cameraNode < 0) {
        orbitMatrices(settings.orbit, aspect, view, projection);
        return;
    }
    const Camera& cam = scene.cameras[settings.camera];
    const glm::mat4& world = pose.objectWorld[cameraNode];
    if (cam.targetNode >= 0) {
        const glm::vec3 eye(world[3]), target(pose.world[cam.targetNode][3]);
        view = glm::lookAt(eye, target, glm::normalize(glm::vec3(world[1])));
    } else {
        view = glm::inverse(world);
    }
    const float cameraAspect = cam.aspect > 0.0f ? cam.aspect : aspect;
    float fov = pose.cameraFov[cameraNode] > 0.0f ? pose.cameraFov[cameraNode] : cam.yfov;
    // A horizontal field of view (OpenGEX "fov") keeps its width: the vertical one follows the aspect.
    if (cam.xfov > 0.0f) fov = 2.0f * std::atan(std::tan(0.5f * cam.xfov) / cameraAspect);
    projection = glm::perspective(fov, cameraAspect, cam.nearZ, cam.farZ);
}

}  // namespace esv
