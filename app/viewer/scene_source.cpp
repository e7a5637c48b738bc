#include "app/viewer/scene_source.h"

#include <cstdlib>

#include "scene/demo_scene.h"

namespace esv {

bool isDemoName(const std::string& name) { return name == "demo"; }

LoadResult openScene(const std::string& name, const LoadOptions& options) {
    if (isDemoName(name)) {
        LoadResult result;
        result.scene = std::make_unique<Scene>(makeDemoScene());
        result.scene->sourcePath = "demo";
        validateScene(*result.scene, "demo", result.problems);
        if (!result.problems.empty()) result.scene.reset();
        return result;
    }
    return loadSceneFile(name, options);
}

bool resolveTime(const Scene& scene, const TimeSelection& selection, ResolvedTime& out, std::string& error) {
    const auto& clips = scene.animation.clips;
    int clip = clips.empty() ? -1 : 0;
    if (!selection.clip.empty()) {
        clip = -1;
        for (size_t i = 0; i < clips.size(); ++i)
            if (clips[i].name == selection.clip) clip = static_cast<int>(i);
        if (clip < 0) {
            char* end = nullptr;
            long index = std::strtol(selection.clip.c_str(), &end, 10);
            if (end && *end == '\0' && index >= 0 && static_cast<size_t>(index) < clips.size())
                clip = static_cast<int>(index);
        }
        if (clip < 0) {
            std::string names;
            for (size_t i = 0; i < clips.size(); ++i) names += (i ? ", '" : "'") + clips[i].name + "'";
            error = "no animation clip named '" + selection.clip + "' (" +
                    (clips.empty() ? std::string("the file has none") : "the clips: " + names) + ")";
            return false;
        }
    }
    out = {};
    if (!selection.frame && !selection.seconds) return true;  // rest pose
    double seconds = selection.seconds ? *selection.seconds : *selection.frame / double(scene.animation.fps > 0 ? scene.animation.fps : 30.0f);
    out.clip = clip;
    out.seconds = static_cast<float>(clip >= 0 ? clips[clip].start + seconds : seconds);
    return true;
}

}  // namespace esv
