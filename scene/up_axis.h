// Turning a Z-up scene to Y up, as POD and glTF 2.0 both want: (x, y, z) becomes (x, z, -y), a
// rotation of -90 degrees about X applied above the root nodes, so that everything below them
// (meshes, skins, cameras, lights, animation) turns with them and nothing else changes.
#pragma once

#include "scene/scene.h"

namespace esv {

// The rotation that takes Z-up axes to Y-up ones.
glm::quat zUpToYUpRotation();

// Turns `scene` to Y up when it is Z up (Scene::up) and returns true; returns false and leaves it
// as it is otherwise. Each root node's transform is pre-multiplied by the rotation: TRS nodes turn
// their translation and rotation, matrix nodes their matrix, and nodes built of transform elements
// get the rotation as a new first element (their Element tracks renumbered). The roots' translation,
// rotation and matrix tracks turn key by key, Bezier control values included; scale, visibility,
// morph and UV tracks need nothing. Skins need nothing either: their joints turn with the roots and
// the inverse bind matrices are relative to them. Scene::front turns too.
bool turnSceneToYUp(Scene& scene);

}  // namespace esv
