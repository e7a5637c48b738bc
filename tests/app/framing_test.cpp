// Framing in the viewer: the orbit camera fitted to the 3D view's rectangle (again when its shape
// changes while the camera is where framing put it), a ground under the subject left out of the
// box, and the first view of each format's front.
#include <cmath>

#include <gtest/gtest.h>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_state.h"
#include "renderer/camera.h"
#include "scene/demo_scene.h"

namespace {

using esv::Bounds;
using esv::ViewportRect;

Bounds box(glm::vec3 min, glm::vec3 max) {
    Bounds b;
    b.add(min);
    b.add(max);
    return b;
}

TEST(Framing, FollowsTheViewportUntilTheCameraMoves) {
    esv::ViewerState s;
    s.scene = std::make_unique<esv::Scene>(esv::makeDemoScene());
    s.framebufferWidth = 1280;
    s.framebufferHeight = 720;
    esv::updatePose(s);
    s.bounds = box({-3.0f, -0.5f, -0.5f}, {3.0f, 0.5f, 0.5f});
    // Before the first layout the whole framebuffer is the view.
    EXPECT_EQ(esv::sceneViewport(s), (ViewportRect{0, 0, 1280, 720}));
    esv::frameScene(s);
    const esv::OrbitCamera full = s.view.orbit;
    EXPECT_TRUE(s.framed);

    // The layout leaves a narrower rectangle: framing is done again for it (the camera had not moved).
    const ViewportRect middle{230, 19, 743, 507};
    esv::updateViewport(s, middle);
    EXPECT_EQ(esv::sceneViewport(s), middle);
    EXPECT_GT(s.view.orbit.distance, full.distance) << "a narrower view needs the camera further away";
    esv::OrbitCamera expected;
    esv::frameBounds(expected, s.bounds.min, s.bounds.max, 743.0f / 507.0f);
    EXPECT_FLOAT_EQ(s.view.orbit.distance, expected.distance);
    EXPECT_EQ(s.view.orbit.target, expected.target);

    // The same rectangle again: nothing moves; one moved but of the same shape: nothing either.
    const esv::OrbitCamera framed = s.view.orbit;
    esv::updateViewport(s, middle);
    EXPECT_EQ(s.view.orbit.distance, framed.distance);
    esv::updateViewport(s, ViewportRect{0, 19, 743, 507});
    EXPECT_EQ(s.view.orbit.distance, framed.distance);

    // The user orbits: later layout changes leave the camera alone.
    s.view.orbit.yaw += 0.3f;
    esv::updateViewport(s, middle);
    EXPECT_FALSE(s.framed);
    const esv::OrbitCamera moved = s.view.orbit;
    esv::updateViewport(s, ViewportRect{0, 0, 1280, 720});
    EXPECT_EQ(s.view.orbit.distance, moved.distance);
    EXPECT_EQ(s.view.orbit.target, moved.target);

    // Frame scene (F) fits the current view and follows it again, e.g. when the window is resized.
    esv::frameScene(s);
    EXPECT_TRUE(s.framed);
    const float before = s.view.orbit.distance;
    esv::updateViewport(s, ViewportRect{0, 0, 360, 720});
    EXPECT_GT(s.view.orbit.distance, before) << "a tall view needs the camera further away for a wide box";
    const float aspect = s.framedAspect;
    EXPECT_FLOAT_EQ(aspect, 0.5f);
}

TEST(Framing, AGroundUnderTheSubjectIsLeftOut) {
    esv::Scene scene;  // Y up
    scene.nodes.resize(3);
    const Bounds subject = box({-0.5f, 0.0f, -0.3f}, {0.5f, 1.8f, 0.3f});
    const Bounds ground = box({-20.0f, -0.01f, -20.0f}, {20.0f, 0.0f, 20.0f});
    EXPECT_EQ(esv::framingBounds(scene, {subject, ground, Bounds{}}).max, subject.max);
    EXPECT_EQ(esv::framingBounds(scene, {subject, ground, Bounds{}}).min, subject.min);
    // A character in a T pose (wide along X, thin along Z) on a ground not much wider than its arms
    // (onkba_light.awd: 1.44 and 9.2 times, 13 times its footprint).
    const Bounds tPose = box({-40.8f, 0.0f, -8.4f}, {40.8f, 81.0f, 8.4f});
    const Bounds floor = box({-58.8f, 0.0f, -76.9f}, {58.8f, 0.0f, 76.9f});
    EXPECT_EQ(esv::framingBounds(scene, {tPose, floor}).max, tPose.max);

    // Not a ground: a plane about as wide as the subject (a card, a floor tile), one above the
    // subject's feet (a ceiling), a slab that is thick, a plane standing up.
    for (const Bounds& other :
         {box({-1.0f, -0.01f, -1.0f}, {1.0f, 0.0f, 1.0f}), box({-20.0f, 1.8f, -20.0f}, {20.0f, 1.81f, 20.0f}),
          box({-20.0f, -2.0f, -20.0f}, {20.0f, 0.0f, 20.0f}),
          box({-20.0f, -10.0f, 0.0f}, {20.0f, 10.0f, 0.01f})}) {
        const Bounds framed = esv::framingBounds(scene, {subject, other});
        EXPECT_EQ(framed.min, glm::min(subject.min, other.min));
        EXPECT_EQ(framed.max, glm::max(subject.max, other.max));
    }
    // Only a plane: it is what there is to see.
    EXPECT_EQ(esv::framingBounds(scene, {ground}).max, ground.max);

    // Z up: the ground is thin along Z.
    scene.up = esv::UpAxis::Z;
    const Bounds standing = box({-0.5f, -0.3f, 0.0f}, {0.5f, 0.3f, 1.8f});
    const Bounds zFloor = box({-20.0f, -20.0f, -0.01f}, {20.0f, 20.0f, 0.0f});
    EXPECT_EQ(esv::framingBounds(scene, {standing, zFloor}).min, standing.min);
    EXPECT_EQ(esv::framingBounds(scene, {subject, ground}).min, glm::min(subject.min, ground.min))
        << "a Y-thin plane is a wall in a Z-up scene";
}

TEST(Framing, TheFirstViewLooksAtTheFrontFromAbove) {
    for (bool zUp : {false, true}) {
        const glm::vec3 up = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
        for (const glm::vec3& front : {glm::vec3(0, 0, 1), glm::vec3(0, 0, -1), glm::vec3(1, 0, 0),
                                       glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, -1, 0)}) {
            if (glm::dot(front, up) != 0.0f) continue;
            SCOPED_TRACE(std::to_string(front.x) + " " + std::to_string(front.y) + " " +
                         std::to_string(front.z) + (zUp ? " Z up" : " Y up"));
            esv::OrbitCamera orbit;
            orbit.yaw = 2.5f;
            esv::firstView(orbit, front, zUp);
            EXPECT_EQ(orbit.zUp, zUp);
            const glm::vec3 eye = esv::orbitDirection(orbit);
            // In front (cos 34 degrees of the way, with the 20 degrees of pitch), to one side, above.
            EXPECT_NEAR(glm::dot(eye, front), std::cos(esv::kFirstViewYaw) * std::cos(esv::kFirstViewPitch),
                        1e-5f);
            EXPECT_NEAR(glm::dot(eye, up), std::sin(esv::kFirstViewPitch), 1e-5f);
        }
    }
    // POD's +Z front with Y up is the angle the viewer always had.
    esv::OrbitCamera pod;
    esv::firstView(pod, glm::vec3(0, 0, 1), false);
    EXPECT_FLOAT_EQ(pod.yaw, esv::OrbitCamera{}.yaw);
    EXPECT_FLOAT_EQ(pod.pitch, esv::OrbitCamera{}.pitch);
    // A front along the up axis: the default front.
    esv::OrbitCamera upright;
    esv::firstView(upright, glm::vec3(0, 1, 0), false);
    EXPECT_FLOAT_EQ(upright.yaw, esv::kFirstViewYaw);
}

// Without a camera in the file: the format's three-quarter front view.
TEST(Framing, ResetViewTakesTheFormatsFirstView) {
    esv::ViewerState s;
    s.scene = std::make_unique<esv::Scene>(esv::makeDemoScene());
    for (esv::Node& node : s.scene->nodes)
        if (node.kind == esv::NodeKind::Camera) node.kind = esv::NodeKind::Empty;
    glm::vec3 toEye;
    ASSERT_FALSE(esv::fileCameraDirection(*s.scene, toEye));
    s.scene->front = glm::vec3(0, 0, -1);
    s.framebufferWidth = 1280;
    s.framebufferHeight = 720;
    esv::updatePose(s);
    s.bounds = box({-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f});
    s.view.orbit.yaw = 0.1f;
    s.view.orbit.yfov = 0.3f;
    esv::resetView(s);
    EXPECT_GT(glm::dot(esv::orbitDirection(s.view.orbit), s.scene->front), 0.5f);
    EXPECT_FLOAT_EQ(s.view.orbit.yfov, esv::OrbitCamera{}.yfov);
    EXPECT_TRUE(s.framed);
}

// With a camera in the file the first view looks from the camera's side, whatever the format's
// convention: the demo's camera turned to look at the scene from behind (-Z, where POD's
// convention looks from +Z) gives an orbit from behind, its pitch that of the camera. A camera
// looking straight down keeps the orbit off the pole.
TEST(Framing, FirstViewLooksFromTheFilesCamera) {
    esv::Scene scene = esv::makeDemoScene();
    int cameraNode = -1;
    for (size_t n = 0; n < scene.nodes.size() && cameraNode < 0; ++n)
        if (scene.nodes[n].kind == esv::NodeKind::Camera) cameraNode = int(n);
    ASSERT_GE(cameraNode, 0) << "the demo has a camera";
    esv::Node& camera = scene.nodes[size_t(cameraNode)];
    ASSERT_LT(camera.parent, 0) << "placed in world space";
    scene.cameras[size_t(camera.object)].targetNode = -1;
    // Behind the scene and a little above, looking toward it: its +Z axis points back at the eye.
    const glm::vec3 toEye = glm::normalize(glm::vec3(0.3f, 0.4f, -1.0f));
    camera.local = esv::Transform{};
    camera.local.useMatrix = true;
    camera.local.matrix = glm::inverse(glm::lookAt(6.0f * toEye, glm::vec3(0.0f), glm::vec3(0, 1, 0)));
    glm::vec3 found;
    ASSERT_TRUE(esv::fileCameraDirection(scene, found));
    EXPECT_NEAR(glm::dot(found, toEye), 1.0f, 1e-5f);
    esv::OrbitCamera orbit;
    const esv::Bounds bounds = box({-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f});
    esv::frameFirstView(orbit, scene, bounds, {}, 1.5f);
    EXPECT_NEAR(glm::dot(esv::orbitDirection(orbit), toEye), 1.0f, 1e-5f);
    EXPECT_LT(glm::dot(esv::orbitDirection(orbit), scene.front), 0.0f) << "from behind, as the camera looks";

    camera.local.matrix = glm::inverse(glm::lookAt(glm::vec3(0, 6, 0), glm::vec3(0.0f), glm::vec3(0, 0, -1)));
    esv::frameFirstView(orbit, scene, bounds, {}, 1.5f);
    EXPECT_NEAR(orbit.pitch, esv::kFileCameraPitch, 1e-5f) << "straight down, held off the pole";
}

}  // namespace
