// The plain view-settings struct the panel and the command line edit and the renderer consumes.
#pragma once

#include <cstdint>

#include <glm/glm.hpp>

namespace esv {

enum class ViewMode : uint8_t {
    Shaded,
    Wireframe,
    Normals,
    Weights,
    Batches,
    Uv,
    Unlit,
    VertexColors,
    Count
};
const char* viewModeName(ViewMode mode);
// Parses "shaded", "wireframe", ...; returns false for an unknown name.
bool parseViewMode(const char* name, ViewMode& mode);

// An orbit camera around `target`: yaw/pitch in radians, distance in scene units.
struct OrbitCamera {
    glm::vec3 target{0.0f};
    float yaw = 0.6f;
    float pitch = 0.35f;
    float distance = 5.0f;
    float yfov = 0.7854f;
};

struct ViewSettings {
    ViewMode mode = ViewMode::Shaded;
    int camera = -1;  // index into Scene::cameras; -1 = the orbit camera
    OrbitCamera orbit;
    bool showSkeleton = false;  // bones as lines from parent to child, joints as points, over the scene
    bool showNormalLines = false;  // each vertex normal as a short line (CPU-skinned positions)
    bool showTangentLines = false;  // each vertex tangent as a short line (file's or computed from UVs)
    int weightBone = -1;  // Weights mode: node index of the joint whose weights to show; -1 = strongest influence
    glm::vec4 clearColor{0.18f, 0.19f, 0.22f, 1.0f};
    bool headlight = true;  // add a headlight and fill when the scene has no lights
    bool useSceneClearColor = false;
};

}  // namespace esv
