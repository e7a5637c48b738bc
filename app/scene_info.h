// What `esview info` prints: the DESIGN.md fields as JSON, and a readable text form of them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/scene_source.h"

namespace esv {

// The nodes the file holds, as `info`, `check` and the viewer count them: the nodes esview added
// itself (AWD skeleton joints, Node::viewerAdded) left out.
size_t fileNodeCount(const Scene& scene);

// "12 nodes, 1 mesh, 3 materials": the counts the viewer's status bar and tree show, with `info`'s
// node count and nouns in the singular or plural.
std::string sceneCountsText(const Scene& scene, bool materials = true);

// Builds the info object for `scene` evaluated at `pose` (bounds are computed on the CPU, after
// skinning and morphing, in the file's own axes and units).
nlohmann::json sceneInfoJson(const Scene& scene, const Pose& pose, const ResolvedTime& time);

// A human-readable rendering of sceneInfoJson's object for `scene`: counts with their nouns in the
// singular or plural, coordinates at float precision, clip durations in seconds with their frame
// range where the file gives a frame rate (read from `scene`, which the object does not record).
std::string sceneInfoText(const nlohmann::json& info, const Scene& scene);

}  // namespace esv
