// `esview render` of a file with no mesh draws its lights, cameras and empty nodes as gizmos (the
// viewer's, app/viewer/gizmos.h), framed in the picture, and succeeds; a file with a mesh draws none. The
// pictures are made by the command line itself, in this process, and kept in the test output folder.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli/commands.h"
#include "app/viewer/gizmos.h"
#include "app/cli/render_command.h"
#include "app/viewer/scene_source.h"
#include "app/viewer/viewer_actions.h"
#include "common/image_compare.h"
#include "common/no_mesh_fixture.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"
#include "renderer/camera.h"

namespace {

namespace fs = std::filesystem;
using esv::test::Image;

// Runs `esview render FILE -o OUT.png` (800x600) and reads the picture back.
int renderToImage(const fs::path& file, const std::string& name, Image& image) {
    const fs::path out = esv::test::outputDir() / "gizmo_render" / (name + ".png");
    fs::create_directories(out.parent_path());
    fs::remove(out);
    std::vector<std::string> args = {"esview", "render", file.string(), "-o", out.string()};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    const int exitCode = esv::runCommandLine(int(argv.size()), argv.data());
    if (exitCode == 0) {
        EXPECT_TRUE(esv::test::loadPng(out.string(), image)) << out;
    }
    return exitCode;
}

// Where `render` puts world point `at` of `file` in its 800x600 picture: its default view, framed
// as the viewer frames the file (sceneFraming, frameFirstView), in pixels from the top left.
glm::vec2 projected(const fs::path& file, const glm::vec3& at) {
    esv::LoadResult loaded = esv::openScene(file.string());
    EXPECT_TRUE(loaded.scene);
    if (!loaded.scene) return glm::vec2(-1.0f);
    const esv::Scene& scene = *loaded.scene;
    esv::Bounds bounds;
    std::vector<glm::vec3> points;
    sceneFraming(scene, scene.animation.clips.empty() ? -1 : 0, esv::PofViewState{}, bounds, points);
    esv::OrbitCamera orbit;
    esv::frameFirstView(orbit, scene, bounds, points, 800.0f / 600.0f);
    glm::mat4 view, projection;
    esv::orbitMatrices(orbit, 800.0f / 600.0f, view, projection);
    const glm::vec4 clip = projection * view * glm::vec4(at, 1.0f);
    return {(clip.x / clip.w * 0.5f + 0.5f) * 800.0f, (0.5f - clip.y / clip.w * 0.5f) * 600.0f};
}

bool inPicture(const glm::vec2& p) {
    return p.x >= 0.0f && p.y >= 0.0f && p.x < 800.0f && p.y < 600.0f;
}

TEST(GizmoRender, LightsAndCameraOfAFileWithoutMeshes) {
    const fs::path file = esv::test::writeNoMeshFixture("gizmo_render/lights_and_camera.ogex");
    Image image;
    ASSERT_EQ(renderToImage(file, "lights_and_camera", image), esv::kExitOk);
    for (const auto& [at, color] : {std::pair{esv::test::kNoMeshBulb, esv::kLightGizmoColor},
                                    std::pair{esv::test::kNoMeshSun, esv::kLightGizmoColor},
                                    std::pair{esv::test::kNoMeshSpot, esv::kLightGizmoColor},
                                    std::pair{esv::test::kNoMeshCamera, esv::kCameraGizmoColor}}) {
        const glm::vec2 p = projected(file, at);
        ASSERT_TRUE(inPicture(p)) << p.x << ", " << p.y;
        // The point at the node is 7 pixels across: most of the 7x7 around it.
        EXPECT_GE(esv::test::gizmoPixels(image, p, 3, color), 25) << "no gizmo at " << p.x << ", " << p.y;
    }
    // What the viewer's 3D view says comes with the picture.
    esv::RenderRequest request;
    request.file = file.string();
    esv::RenderedFrames frames;
    ASSERT_EQ(esv::renderFrames(request, frames), esv::kExitOk);
    EXPECT_EQ(frames.noMeshNote, "no meshes: 3 lights, 1 camera");
    EXPECT_EQ(frames.triangles, 0u);
}

// A shared file of one camera and one of empty nodes only: their gizmos are drawn and framed.
TEST(GizmoRender, SharedFilesOfACameraAndOfEmptyNodes) {
    ESVIEW_REQUIRE_MODELS("ogex/squareys_Camera.ogex");
    ESVIEW_REQUIRE_MODELS("ogex/squareys_LinkedParentedObjects.ogex");
    for (const auto& [name, color] : {std::pair{"squareys_Camera", esv::kCameraGizmoColor},
                                      std::pair{"squareys_LinkedParentedObjects", esv::kEmptyGizmoColor}}) {
        SCOPED_TRACE(name);
        const fs::path file = esv::test::modelsDir() / "ogex" / (std::string(name) + ".ogex");
        Image image;
        ASSERT_EQ(renderToImage(file, name, image), esv::kExitOk);
        esv::LoadResult loaded = esv::openScene(file.string());
        ASSERT_TRUE(loaded.scene);
        esv::Pose pose;
        esv::evaluatePose(*loaded.scene, -1, 0.0f, pose);
        size_t nodes = 0;
        for (size_t n = 0; n < loaded.scene->nodes.size(); ++n) {
            const glm::vec2 p = projected(file, glm::vec3(pose.world[n][3]));
            EXPECT_TRUE(inPicture(p)) << "node " << n << " at " << p.x << ", " << p.y;
            nodes += esv::test::gizmoPixels(image, p, 3, color) >= 9 ? 1 : 0;
        }
        EXPECT_EQ(nodes, loaded.scene->nodes.size()) << "a gizmo at every node";
    }
}

// The demo has two lights and a camera besides its meshes: it draws them as it always did, no
// gizmos, and `render` says nothing of missing meshes.
TEST(GizmoRender, FileWithAMeshDrawsNoGizmos) {
    esv::RenderRequest request;
    request.file = "demo";
    esv::RenderedFrames frames;
    ASSERT_EQ(esv::renderFrames(request, frames), esv::kExitOk);
    EXPECT_EQ(frames.noMeshNote, "");
    ASSERT_EQ(frames.rgba.size(), 1u);
    Image image;
    image.width = 800;
    image.height = 600;
    image.rgba = frames.rgba.front();
    esv::LoadResult loaded = esv::openScene("demo");
    ASSERT_TRUE(loaded.scene);
    esv::Pose pose;
    esv::evaluatePose(*loaded.scene, -1, 0.0f, pose);
    size_t inView = 0;
    for (size_t n = 0; n < loaded.scene->nodes.size(); ++n) {
        const esv::NodeKind kind = loaded.scene->nodes[n].kind;
        if (kind != esv::NodeKind::Light && kind != esv::NodeKind::Camera) continue;
        const glm::vec2 p = projected("demo", glm::vec3(pose.world[n][3]));
        const glm::vec4 color = kind == esv::NodeKind::Light ? esv::kLightGizmoColor : esv::kCameraGizmoColor;
        EXPECT_EQ(esv::test::gizmoPixels(image, p, 4, color), 0) << loaded.scene->nodes[n].name;
        inView += inPicture(p) ? 1 : 0;
    }
    EXPECT_GE(inView, 1u) << "a light or the camera lies in the picture, where a gizmo would show";
}

}  // namespace
