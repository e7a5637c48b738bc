// What `esview info` prints: the DESIGN.md fields as JSON, and a readable text form of them.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "app/viewer/scene_source.h"

namespace esv {

// The nodes the file holds, as `info`, `check` and the viewer count them: the nodes esview added
// itself (AWD skeleton joints, Node::viewerAdded) left out.
size_t fileNodeCount(const Scene& scene);
// The file's meshes: scene meshes that are not parts of another (Mesh::partOf, glTF primitives).
size_t fileMeshCount(const Scene& scene);

// "1 clip", "2 clips", "3 vertices": `n` and its noun, `singular` when n is 1, else `plural`
// (`singular` with an "s" when null).
std::string counted(uint64_t n, const char* singular, const char* plural = nullptr);

// What the 3D view says of a scene with no drawn mesh: "no meshes: 3 lights, 1 camera", listing the
// file's light, camera, empty and bone nodes that there are (the nodes the gizmos stand for, so a
// light object no node places is not counted), "no mesh drawn: ..." when the file has meshes that
// nothing places visibly, and "no meshes, no nodes" when it holds neither.
std::string noMeshText(const Scene& scene);

// "12 nodes, 1 mesh, 3 materials": the counts the viewer's status bar and tree show, with `info`'s
// node count and nouns in the singular or plural.
std::string sceneCountsText(const Scene& scene, bool materials = true);

// "loaded model.pod: 12 nodes, 1 mesh, 3 materials, 2 textures": the line the web build prints for a
// finished load (after "esview: "), with the status bar's counts (sceneCountsText) and the textures.
std::string loadedText(const std::string& path, const Scene& scene);

// Builds the info object for `scene` evaluated at `pose` (bounds are computed on the CPU, after
// skinning and morphing, in the file's own axes and units).
nlohmann::json sceneInfoJson(const Scene& scene, const Pose& pose, const ResolvedTime& time);

// A human-readable rendering of sceneInfoJson's object for `scene`: counts with their nouns in the
// singular or plural, coordinates at float precision, clip durations in seconds with their frame
// range where the file gives a frame rate (read from `scene`, which the object does not record).
std::string sceneInfoText(const nlohmann::json& info, const Scene& scene);

}  // namespace esv
