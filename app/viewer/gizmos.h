// What a scene with no drawn mesh shows in its place: each light, camera and empty node as a small
// wire gizmo in the overlay's lines (ViewSettings::annotations), built on the CPU without GL so that
// the viewer and `esview render` draw the same and tests can count the lines.
#pragma once

#include <cstddef>

#include <glm/glm.hpp>

#include "renderer/view_settings.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

// The gizmos' colours, one per kind of node, apart from the debug views' axis colours.
inline constexpr glm::vec4 kLightGizmoColor{1.0f, 0.85f, 0.25f, 1.0f};
inline constexpr glm::vec4 kCameraGizmoColor{0.35f, 0.8f, 1.0f, 1.0f};
inline constexpr glm::vec4 kEmptyGizmoColor{0.85f, 0.85f, 0.85f, 1.0f};

// A gizmo's size in scene units for `pose` of `scene`: a tenth of the diagonal of the box of the
// node origins, so that gizmos of a spread-out scene stay apart and those of a compact one are
// visible; 1 when there is at most one distinct origin (framing then zooms to the gizmo anyway).
float gizmoSize(const Scene& scene, const Pose& pose);

// Appends to `out` the gizmo of every visible light, camera and empty node of `scene` (the file's
// own nodes: none the reader added) at `pose`, `size` scene units across (gizmoSize), in its
// kind's colour, with a point at each node's origin:
// - a point or ambient light: a star of 7 lines through its origin (its three axes and four diagonals);
// - a directional light: an arrow of 5 lines along its -Z, the direction it shines in;
// - a spot light: a cone of 12 lines (4 sides and an 8-segment rim) along its -Z, as wide as its outer
//   cone (kept between 5 and 60 degrees so that it stays readable);
// - a camera: a frustum pyramid of 10 lines along its -Z (or toward its target node) with its field
//   of view and aspect (4:3 when the viewport decides), a small triangle marking its up side; an
//   orthographic camera draws a box of 14 lines instead;
// - an empty node: a 3-axis cross of 3 lines along its axes.
// Bones, mesh nodes and invisible nodes get none. Returns the number of gizmos appended.
size_t sceneGizmos(const Scene& scene, const Pose& pose, float size, Annotations& out);

}  // namespace esv
