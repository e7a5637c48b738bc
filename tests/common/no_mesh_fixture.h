// A file without geometry for the gizmo tests: an OpenGEX scene of three lights (a point light, a
// directional one and a spot light) and a camera, Z up, written into the test output folder; and
// the pixels of a gizmo's colour in a picture.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <glm/glm.hpp>

#include "common/image_compare.h"
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

// Pixels of `image` within `radius` of `at` (pixels from the top left) that are `color` within 6
// levels: the gizmos are drawn unlit, in their kind's colour (app/viewer/gizmos.h).
inline int gizmoPixels(const Image& image, const glm::vec2& at, int radius, const glm::vec4& color) {
    int count = 0;
    for (int y = int(at.y) - radius; y <= int(at.y) + radius; ++y)
        for (int x = int(at.x) - radius; x <= int(at.x) + radius; ++x) {
            if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
            const uint8_t* p = &image.rgba[(size_t(y) * size_t(image.width) + size_t(x)) * 4];
            bool same = true;
            for (int c = 0; c < 3; ++c)
                same = same && std::abs(int(p[c]) - int(std::lround(color[c] * 255.0f))) <= 6;
            count += same ? 1 : 0;
        }
    return count;
}

}  // namespace esv::test
