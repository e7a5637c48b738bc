// What `esview info` prints: the DESIGN.md fields as JSON, and a readable text form of them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/scene_source.h"

namespace esv {

// Builds the info object for `scene` evaluated at `pose` (bounds are computed on the CPU, after
// skinning and morphing, in the file's own axes and units).
nlohmann::json sceneInfoJson(const Scene& scene, const Pose& pose, const ResolvedTime& time);

// A human-readable rendering of sceneInfoJson's object.
std::string sceneInfoText(const nlohmann::json& info);

}  // namespace esv
