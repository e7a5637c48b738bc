// The gizmos a scene with no drawn mesh shows (app/viewer/gizmos.h) and what the 3D view says of it
// (noMeshText), on scenes built in code, without GL: the lines of each kind of node where its
// transform puts them, their size from the spread of the nodes, and framing that covers them. Then
// in the viewer on the headless host: a file of lights and a camera shows their gizmos in its 3D
// view and says what it holds; a file with a mesh shows neither.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include "app/cli/commands.h"
#include "app/viewer/gizmos.h"
#include "app/hosts/headless_host.h"
#include "app/viewer/scene_info.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_script.h"
#include "common/image_compare.h"
#include "common/no_mesh_fixture.h"
#include "common/viewer_session.h"
#include "scene/demo_scene.h"

namespace {

using esv::Annotations;
using esv::NodeKind;

// Adds a node of `kind` at `at` (with a new light or camera object for those kinds); its index.
int addNode(esv::Scene& scene, NodeKind kind, const glm::vec3& at, const std::string& name) {
    esv::Node node;
    node.name = name;
    node.kind = kind;
    node.local.translation = at;
    if (kind == NodeKind::Light) {
        node.object = int32_t(scene.lights.size());
        scene.lights.emplace_back();
        scene.lights.back().name = name;
    } else if (kind == NodeKind::Camera) {
        node.object = int32_t(scene.cameras.size());
        scene.cameras.emplace_back();
        scene.cameras.back().name = name;
    }
    scene.nodes.push_back(node);
    return int(scene.nodes.size()) - 1;
}

Annotations gizmosAtRest(const esv::Scene& scene, float size, size_t& count) {
    esv::Pose pose;
    esv::evaluatePose(scene, -1, 0.0f, pose);
    Annotations out;
    count = esv::sceneGizmos(scene, pose, size, out);
    return out;
}

bool near(const glm::vec3& a, const glm::vec3& b) {
    return glm::length(a - b) < 1e-4f;
}

// The lines' end points other than `apex`.
std::vector<glm::vec3> endsAwayFrom(const Annotations& a, const glm::vec3& apex) {
    std::vector<glm::vec3> ends;
    for (size_t i = 0; i + 1 < a.lines.size(); i += 2) {
        if (near(a.lines[i].position, apex)) ends.push_back(a.lines[i + 1].position);
        if (near(a.lines[i + 1].position, apex)) ends.push_back(a.lines[i].position);
    }
    return ends;
}

TEST(Gizmos, PointLightIsAStarAroundItsOrigin) {
    esv::Scene scene;
    addNode(scene, NodeKind::Light, {4.0f, 1.0f, -2.0f}, "lamp");
    size_t count = 0;
    const Annotations a = gizmosAtRest(scene, 2.0f, count);
    EXPECT_EQ(count, 1u);
    ASSERT_EQ(a.lines.size(), 14u) << "7 lines: three axes and four diagonals";
    ASSERT_EQ(a.points.size(), 1u);
    EXPECT_TRUE(near(a.points[0].position, {4.0f, 1.0f, -2.0f}));
    for (size_t i = 0; i < a.lines.size(); i += 2) {
        // Each line runs through the light, 1 unit (half the size) each way.
        EXPECT_TRUE(near(0.5f * (a.lines[i].position + a.lines[i + 1].position), {4.0f, 1.0f, -2.0f}));
        EXPECT_NEAR(glm::length(a.lines[i].position - a.lines[i + 1].position), 2.0f, 1e-4f);
    }
    for (const esv::OverlayVertex& v : a.lines) EXPECT_EQ(v.color, esv::kLightGizmoColor);
}

TEST(Gizmos, DirectionalLightIsAnArrowDownItsMinusZ) {
    esv::Scene scene;
    const int n = addNode(scene, NodeKind::Light, {0.0f, 3.0f, 0.0f}, "sun");
    scene.lights[0].type = esv::LightType::Directional;
    // Turned to shine along -Y (its -Z rotated by -90 degrees about X).
    scene.nodes[n].local.rotation = glm::angleAxis(-1.5707963f, glm::vec3(1.0f, 0.0f, 0.0f));
    size_t count = 0;
    const Annotations a = gizmosAtRest(scene, 2.0f, count);
    ASSERT_EQ(a.lines.size(), 10u) << "5 lines: the shaft and four barbs";
    EXPECT_TRUE(near(a.lines[0].position, {0.0f, 3.0f, 0.0f}));
    EXPECT_TRUE(near(a.lines[1].position, {0.0f, 1.0f, 0.0f})) << "the tip, 2 units down -Y";
    for (size_t i = 2; i < a.lines.size(); i += 2) {
        EXPECT_TRUE(near(a.lines[i].position, {0.0f, 1.0f, 0.0f}));
        EXPECT_NEAR(a.lines[i + 1].position.y, 1.6f, 1e-4f) << "the barbs point back toward the light";
    }
}

TEST(Gizmos, SpotLightIsAConeAsWideAsItsOuterCone) {
    esv::Scene scene;
    addNode(scene, NodeKind::Light, {0.0f, 0.0f, 5.0f}, "spot");
    scene.lights[0].type = esv::LightType::Spot;
    scene.lights[0].outerCone = 0.5f;
    size_t count = 0;
    const Annotations a = gizmosAtRest(scene, 2.0f, count);
    ASSERT_EQ(a.lines.size(), 24u) << "12 lines: four sides and an 8-segment rim";
    const std::vector<glm::vec3> sides = endsAwayFrom(a, {0.0f, 0.0f, 5.0f});
    ASSERT_EQ(sides.size(), 4u);
    for (const glm::vec3& p : sides) {
        EXPECT_NEAR(p.z, 3.0f, 1e-4f) << "the rim 2 units down -Z";
        EXPECT_NEAR(glm::length(glm::vec2(p)), 2.0f * std::tan(0.5f), 1e-4f);
    }
    // A spot light with the POD default of a half sphere stays a readable 60-degree cone.
    scene.lights[0].outerCone = 3.14159265f;
    const Annotations wide = gizmosAtRest(scene, 2.0f, count);
    for (const glm::vec3& p : endsAwayFrom(wide, {0.0f, 0.0f, 5.0f}))
        EXPECT_NEAR(glm::length(glm::vec2(p)), 2.0f * std::tan(1.0471976f), 1e-3f);
}

TEST(Gizmos, CameraIsAFrustumAlongItsView) {
    esv::Scene scene;
    addNode(scene, NodeKind::Camera, {1.0f, 2.0f, 3.0f}, "eye");
    scene.cameras[0].yfov = 0.8f;
    size_t count = 0;
    const Annotations a = gizmosAtRest(scene, 2.0f, count);
    EXPECT_EQ(count, 1u);
    ASSERT_EQ(a.lines.size(), 20u) << "10 lines: 4 edges to the eye, the far rectangle, the up mark";
    for (const esv::OverlayVertex& v : a.lines) EXPECT_EQ(v.color, esv::kCameraGizmoColor);
    const std::vector<glm::vec3> corners = endsAwayFrom(a, {1.0f, 2.0f, 3.0f});
    ASSERT_EQ(corners.size(), 4u);
    const float halfHeight = 2.0f * std::tan(0.4f), halfWidth = halfHeight * 4.0f / 3.0f;
    for (const glm::vec3& p : corners) {
        EXPECT_NEAR(p.z, 1.0f, 1e-4f) << "2 units down the camera's -Z";
        EXPECT_NEAR(std::abs(p.y - 2.0f), halfHeight, 1e-4f);
        EXPECT_NEAR(std::abs(p.x - 1.0f), halfWidth, 1e-4f) << "4:3 when the viewport decides";
    }
    // The up mark lies above the far rectangle's top edge.
    float highest = -1e30f;
    for (const esv::OverlayVertex& v : a.lines) highest = std::max(highest, v.position.y);
    EXPECT_GT(highest, 2.0f + halfHeight + 0.1f);

    // Aimed at a target node, it looks at the target.
    const int target = addNode(scene, NodeKind::Empty, {1.0f + 10.0f, 2.0f, 3.0f}, "target");
    scene.cameras[0].targetNode = target;
    const Annotations aimed = gizmosAtRest(scene, 2.0f, count);
    EXPECT_EQ(count, 2u);
    for (const glm::vec3& p : endsAwayFrom(aimed, {1.0f, 2.0f, 3.0f})) {
        EXPECT_NEAR(p.x, 3.0f, 1e-4f) << "the far rectangle 2 units toward the target, along +X";
        EXPECT_NEAR(std::abs(p.y - 2.0f), halfHeight, 1e-4f) << "its up still the camera's +Y";
    }
    // A target straight along the camera's up: the frustum still points at it.
    scene.nodes[size_t(target)].local.translation = {1.0f, 12.0f, 3.0f};
    for (const glm::vec3& p : endsAwayFrom(gizmosAtRest(scene, 2.0f, count), {1.0f, 2.0f, 3.0f}))
        EXPECT_NEAR(p.y, 4.0f, 1e-4f);

    // Orthographic: a box of 14 lines.
    scene.cameras[0].targetNode = -1;
    scene.cameras[0].orthographic = true;
    scene.nodes.pop_back();
    const Annotations box = gizmosAtRest(scene, 2.0f, count);
    EXPECT_EQ(box.lines.size(), 28u);
}

TEST(Gizmos, EmptyIsACrossAlongItsAxes) {
    esv::Scene scene;
    const int n = addNode(scene, NodeKind::Empty, {0.0f, 0.0f, 1.0f}, "empty");
    scene.nodes[n].local.rotation = glm::angleAxis(0.7853982f, glm::vec3(0.0f, 0.0f, 1.0f));
    scene.nodes[n].local.scale = glm::vec3(5.0f);  // the cross keeps the gizmo size, not the node's scale
    size_t count = 0;
    const Annotations a = gizmosAtRest(scene, 2.0f, count);
    ASSERT_EQ(a.lines.size(), 6u);
    for (const esv::OverlayVertex& v : a.lines) EXPECT_EQ(v.color, esv::kEmptyGizmoColor);
    const float h = std::sqrt(0.5f);
    EXPECT_TRUE(near(a.lines[0].position, {-h, -h, 1.0f})) << "its X axis, turned 45 degrees about Z";
    EXPECT_TRUE(near(a.lines[1].position, {h, h, 1.0f}));
    EXPECT_TRUE(near(a.lines[5].position, {0.0f, 0.0f, 2.0f}));
}

// Bones, mesh nodes, invisible nodes and the nodes esview added get none; each kind has its colour.
TEST(Gizmos, OnlyVisibleLightsCamerasAndEmptiesOfTheFile) {
    esv::Scene scene;
    addNode(scene, NodeKind::Light, {1.0f, 0.0f, 0.0f}, "lamp");
    addNode(scene, NodeKind::Camera, {-1.0f, 0.0f, 0.0f}, "eye");
    addNode(scene, NodeKind::Empty, {0.0f, 1.0f, 0.0f}, "empty");
    addNode(scene, NodeKind::Bone, {0.0f, 2.0f, 0.0f}, "bone");
    addNode(scene, NodeKind::Mesh, {0.0f, 3.0f, 0.0f}, "no mesh");
    scene.nodes[size_t(addNode(scene, NodeKind::Empty, {0.0f, 4.0f, 0.0f}, "hidden"))].visible = false;
    scene.nodes[size_t(addNode(scene, NodeKind::Empty, {0.0f, 5.0f, 0.0f}, "added"))].viewerAdded = true;
    size_t count = 0;
    const Annotations a = gizmosAtRest(scene, 1.0f, count);
    EXPECT_EQ(count, 3u);
    EXPECT_EQ(a.lines.size(), 2u * (7 + 10 + 3));
    ASSERT_EQ(a.points.size(), 3u);
    EXPECT_EQ(a.points[0].color, esv::kLightGizmoColor);
    EXPECT_EQ(a.points[1].color, esv::kCameraGizmoColor);
    EXPECT_EQ(a.points[2].color, esv::kEmptyGizmoColor);
    EXPECT_NE(esv::kLightGizmoColor, esv::kCameraGizmoColor);
    EXPECT_NE(esv::kCameraGizmoColor, esv::kEmptyGizmoColor);
    EXPECT_NE(esv::kLightGizmoColor, esv::kEmptyGizmoColor);
}

TEST(Gizmos, SizeFollowsTheSpreadOfTheNodes) {
    esv::Scene scene;
    addNode(scene, NodeKind::Light, {5.0f, 7.0f, 9.0f}, "lamp");
    esv::Pose pose;
    esv::evaluatePose(scene, -1, 0.0f, pose);
    EXPECT_EQ(esv::gizmoSize(scene, pose), 1.0f) << "one node: the default";
    addNode(scene, NodeKind::Camera, {5.0f + 30.0f, 7.0f + 40.0f, 9.0f}, "eye");
    esv::evaluatePose(scene, -1, 0.0f, pose);
    EXPECT_NEAR(esv::gizmoSize(scene, pose), 5.0f, 1e-4f) << "a tenth of the 50-unit diagonal";
}

TEST(Gizmos, NoMeshTextCountsWhatIsThere) {
    esv::Scene scene;
    EXPECT_EQ(esv::noMeshText(scene), "no meshes, no nodes");
    addNode(scene, NodeKind::Light, {}, "a");
    EXPECT_EQ(esv::noMeshText(scene), "no meshes: 1 light");
    addNode(scene, NodeKind::Light, {}, "b");
    addNode(scene, NodeKind::Light, {}, "c");
    addNode(scene, NodeKind::Camera, {}, "eye");
    EXPECT_EQ(esv::noMeshText(scene), "no meshes: 3 lights, 1 camera");
    addNode(scene, NodeKind::Empty, {}, "e1");
    addNode(scene, NodeKind::Empty, {}, "e2");
    EXPECT_EQ(esv::noMeshText(scene), "no meshes: 3 lights, 1 camera, 2 empty nodes");
    scene.meshes.emplace_back();  // a mesh no node places
    EXPECT_EQ(esv::noMeshText(scene), "no mesh drawn: 3 lights, 1 camera, 2 empty nodes");
    EXPECT_EQ(esv::counted(1, "vertex", "vertices"), "1 vertex");
    EXPECT_EQ(esv::counted(2, "clip"), "2 clips");
}

// With nothing drawn, framing fits the gizmos (their vertices are the points framed) and says so;
// a scene with a mesh is framed on it as before.
TEST(Gizmos, FramingCoversTheGizmos) {
    esv::Scene scene;
    addNode(scene, NodeKind::Light, {0.0f, 0.0f, 0.0f}, "lamp");
    const int camera = addNode(scene, NodeKind::Camera, {0.0f, 0.0f, 10.0f}, "eye");
    (void)camera;
    esv::Bounds bounds;
    std::vector<glm::vec3> points;
    float size = 0.0f;
    EXPECT_FALSE(esv::sceneFraming(scene, -1, esv::PofViewState{}, bounds, points, &size));
    EXPECT_FLOAT_EQ(size, 1.0f) << "a tenth of the 10-unit spread";
    size_t count = 0;
    const Annotations a = gizmosAtRest(scene, size, count);
    EXPECT_EQ(points.size(), a.lines.size() + a.points.size());
    ASSERT_TRUE(bounds.valid());
    for (const esv::OverlayVertex& v : a.lines) {
        EXPECT_TRUE(glm::all(glm::greaterThanEqual(v.position, bounds.min - 1e-5f)));
        EXPECT_TRUE(glm::all(glm::lessThanEqual(v.position, bounds.max + 1e-5f)));
    }
    // The camera's frustum reaches 1 unit down from it, the light's star half a unit around it.
    EXPECT_NEAR(bounds.min.z, -0.5f, 1e-4f);
    EXPECT_GT(bounds.max.x - bounds.min.x, 1.0f) << "the frustum's far rectangle is wider than a point";

    const esv::Scene demo = esv::makeDemoScene();
    size = -1.0f;
    EXPECT_TRUE(esv::sceneFraming(demo, -1, esv::PofViewState{}, bounds, points, &size));
    EXPECT_EQ(size, -1.0f) << "no gizmos to size";
}

TEST(GizmoViewer, FileOfLightsAndACameraShowsThemAndSaysSo) {
    const std::filesystem::path dir = esv::test::viewerWorkDir("gizmos_", "viewer");
    const std::filesystem::path file = esv::test::writeNoMeshFixture("gizmos_viewer/lights_and_camera.ogex");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;
    options.file = file.string();
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(esv::test::frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    const nlohmann::json j = nlohmann::json::parse(esv::viewerStateJson(s));
    EXPECT_EQ(j["no_mesh_note"], "no meshes: 3 lights, 1 camera");
    EXPECT_EQ(j["gizmos"], true);
    // Point light 7 lines, directional 5, spot 12, camera 10; a point at each node.
    EXPECT_EQ(s.annotations.lines.size(), 2u * (7 + 5 + 12 + 10));
    EXPECT_EQ(s.annotations.points.size(), 4u);
    EXPECT_EQ(s.view.annotations, &s.annotations);

    // The screenshot shows each gizmo at its node, in the 3D view.
    const std::filesystem::path shot = dir / "lights_and_camera.png";
    s.requestScreenshot = shot.string();
    ASSERT_TRUE(viewer.frame());
    esv::test::Image image;
    ASSERT_TRUE(esv::test::loadPng(shot.string(), image));
    const esv::ViewportRect view = esv::sceneViewport(s);
    for (const auto& [at, color] : {std::pair{esv::test::kNoMeshBulb, esv::kLightGizmoColor},
                                    std::pair{esv::test::kNoMeshSun, esv::kLightGizmoColor},
                                    std::pair{esv::test::kNoMeshSpot, esv::kLightGizmoColor},
                                    std::pair{esv::test::kNoMeshCamera, esv::kCameraGizmoColor}}) {
        glm::vec2 pixel;
        ASSERT_TRUE(esv::projectToScreen(s, at, pixel));
        EXPECT_GE(pixel.x, float(view.x));
        EXPECT_LT(pixel.x, float(view.x + view.width));
        EXPECT_GE(pixel.y, float(view.y));
        EXPECT_LT(pixel.y, float(view.y + view.height));
        EXPECT_GE(esv::test::gizmoPixels(image, pixel, 3, color), 9)
            << "no gizmo at " << pixel.x << ", " << pixel.y;
    }

    // A file with a mesh (the demo, which has lights and a camera too): no gizmos, nothing said.
    s.requestOpen = "demo";
    ASSERT_TRUE(viewer.frame());
    ASSERT_TRUE(esv::test::frameUntilLoaded(viewer));
    ASSERT_EQ(s.path, "demo");
    ASSERT_TRUE(viewer.frame());
    EXPECT_FALSE(s.gizmos);
    EXPECT_EQ(s.noMeshNote, "");
    EXPECT_TRUE(s.annotations.empty());
    EXPECT_EQ(s.view.annotations, nullptr);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

}  // namespace
