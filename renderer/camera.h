// Camera maths: the orbit camera's axes and matrices, framing a box, and the view and projection a
// frame is drawn with. Plain functions of the scene, pose and view settings, with no GL, so the
// renderer draws and the app projects labels and picks with the same matrices.
#pragma once

#include <glm/glm.hpp>

#include "renderer/view_settings.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

// Frames the orbit camera on the box min..max for a picture of `aspect` (w/h), keeping its yaw,
// pitch and field of view: the distance is the smallest at which all eight corners project
// inside `region` less a margin of kFrameMargin of its size on each side, in both directions,
// and the target moves off the box centre (across the view only) so that the projected box is
// centred in the region along the direction that binds, and within it along the other. So the
// projected box spans 1 - 2 kFrameMargin of the region's width or height. Records the box's
// bounding sphere for orbitMatrices.
inline constexpr float kFrameMargin = 0.05f;
void frameBounds(OrbitCamera& orbit, const glm::vec3& min, const glm::vec3& max, float aspect,
                 const ViewRegion& region = {});
// frameBounds fitting `count` points (within min..max; not finite ones are skipped) instead of the
// box's corners: the tighter fit of what is drawn when the points lie on it. The box still gives
// the recorded sphere. With no finite point the box is framed as a point.
void framePoints(OrbitCamera& orbit, const glm::vec3* points, size_t count, const glm::vec3& min,
                 const glm::vec3& max, float aspect, const ViewRegion& region = {});
// The first view of a scene: a three-quarter view of its front from a little above. Sets zUp, and
// yaw and pitch so that the eye lies kFirstViewYaw around the up axis from `front` (the direction the
// models face, Scene::front) and kFirstViewPitch above the ground plane; a front along the up axis
// counts as the default front (+Z, or -Y when Z is up). Target, distance and field of view stay.
inline constexpr float kFirstViewYaw = 0.6f, kFirstViewPitch = 0.35f;
void firstView(OrbitCamera& orbit, const glm::vec3& front, bool zUp);
// Unit vector from the orbit target toward the eye, and the up axis, in scene coordinates.
glm::vec3 orbitDirection(const OrbitCamera& orbit);
glm::vec3 orbitUp(const OrbitCamera& orbit);

// The view and projection matrices of the orbit camera for a viewport of `aspect` (w/h). With a
// recorded scene sphere (sceneRadius > 0) near and far enclose it: near = max(d - 1.5 r,
// 1e-3 d, 1e-4) and far = (d + 1.5 r) * 1.01, d being the eye's distance to the sphere's centre;
// otherwise near = d / 100 and far = 100 d with d the orbit distance.
void orbitMatrices(const OrbitCamera& orbit, float aspect, glm::mat4& view, glm::mat4& projection);

// The view and projection Renderer::draw uses for a width x height viewport: the file camera
// `settings.camera` at `pose` when the scene has a node for it, else the orbit camera. World
// point p lands at pixel ((ndc.x + 1) / 2 * width, (1 - ndc.y) / 2 * height) from the top left,
// ndc = (projection * view * p).xy / w.
void cameraMatrices(const Scene& scene, const Pose& pose, const ViewSettings& settings, int width, int height,
                    glm::mat4& view, glm::mat4& projection);

}  // namespace esv
