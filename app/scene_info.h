// What `esview info` prints: the DESIGN.md fields as JSON, and a readable text form of them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/scene_source.h"

namespace esv {

// Builds the info object for `scene` evaluated at `pose` (bounds are computed on the CPU, after
// skinning and morphing, in the file's own axes and units).
nlohmann::json sceneInfoJson(const Scene& scene, const Pose& pose, const ResolvedTime& time);

// A human-readable rendering of sceneInfoJson's object for `scene`: counts with their nouns in the
// singular or plural, coordinates at float precision, clip durations in seconds with their frame
// range where the file gives a frame rate (read from `scene`, which the object does not record).
std::string sceneInfoText(const nlohmann::json& info, const Scene& scene);

}  // namespace esv
