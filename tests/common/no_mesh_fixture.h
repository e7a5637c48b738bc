// A file without geometry for the gizmo tests: an OpenGEX scene of three lights (a point light, a
// directional one and a spot light) and a camera, Z up, written into the test output folder.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <glm/glm.hpp>

#include "common/test_paths.h"

namespace esv::test {

// Where the fixture puts its nodes: the point light, the directional light, the spot light and
// the camera, each at a plain translation.
inline constexpr glm::vec3 kNoMeshBulb{4.0f, 0.0f, 0.0f}, kNoMeshSun{0.0f, 0.0f, 4.0f},
    kNoMeshSpot{-4.0f, 0.0f, 0.0f}, kNoMeshCamera{0.0f, -4.0f, 1.0f};

// Writes the fixture as outputDir()/`name` and returns its path.
inline std::filesystem::path writeNoMeshFixture(const std::string& name = "lights_and_camera.ogex") {
    const std::filesystem::path path = outputDir() / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << R"(Metric (key = "up") {string {"z"}}
LightNode {Name {string {"Bulb"}} ObjectRef {ref {$bulb}} Translation {float[3] {{4.0, 0.0, 0.0}}}}
LightNode {Name {string {"Sun"}} ObjectRef {ref {$sun}} Translation {float[3] {{0.0, 0.0, 4.0}}}}
LightNode {Name {string {"Spot"}} ObjectRef {ref {$spot}} Translation {float[3] {{-4.0, 0.0, 0.0}}}}
CameraNode {Name {string {"Cam"}} ObjectRef {ref {$cam}} Translation {float[3] {{0.0, -4.0, 1.0}}}}
LightObject $bulb (type = "point") {}
LightObject $sun (type = "infinite") {}
LightObject $spot (type = "spot") {}
CameraObject $cam {}
)";
    return path;
}

}  // namespace esv::test
