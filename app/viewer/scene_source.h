// Opening what the command line names: a model file, or `demo` for the built-in scene; and
// choosing the animation time from --frame / --time / --clip.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

// True when `name` names the built-in demo scene rather than a file.
bool isDemoName(const std::string& name);

// Loads `name` (the demo scene or a file). On failure the result has no scene and its problems
// say why, one line each.
LoadResult openScene(const std::string& name, const LoadOptions& options = {});

// When to evaluate the scene: no frame/time = the rest pose (the scene as written).
struct TimeSelection {
    std::optional<double> frame;
    std::optional<double> seconds;
    std::string clip;  // name or index; empty = the first clip
};

struct ResolvedTime {
    int clip = -1;        // -1 = rest pose
    float seconds = 0.0f; // absolute time on the clip's timeline
};

// Resolves a selection against the scene. Returns false with `error` set when the clip is unknown.
bool resolveTime(const Scene& scene, const TimeSelection& selection, ResolvedTime& out, std::string& error);

}  // namespace esv
