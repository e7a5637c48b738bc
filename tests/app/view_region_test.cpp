// Framing in the viewer: the part of the window the panels leave free, and the orbit camera fitted
// to it (again when the panels or the window change while the camera is where framing put it).
#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "app/viewer_actions.h"
#include "app/viewer_state.h"
#include "renderer/camera.h"
#include "scene/demo_scene.h"

namespace {

using esv::PixelRect;
using esv::ViewRegion;

void expectRegion(const ViewRegion& r, float x0, float y0, float x1, float y1) {
    EXPECT_NEAR(r.x0, x0, 1e-5f);
    EXPECT_NEAR(r.y0, y0, 1e-5f);
    EXPECT_NEAR(r.x1, x1, 1e-5f);
    EXPECT_NEAR(r.y1, y1, 1e-5f);
}

TEST(ViewRegion, LargestRectangleNoPanelCovers) {
    // Nothing covers the window: all of it.
    expectRegion(esv::uncoveredRegion({}, 1280, 720), 0, 0, 1, 1);
    // Left and right columns: the middle, full height.
    expectRegion(esv::uncoveredRegion({{10, 10, 340, 710}, {940, 10, 1270, 710}}, 1280, 720), 340.0f / 1280,
                 0, 940.0f / 1280, 1);
    // The viewer's default layout at 1280x720: main panel and scene tree on the left, inspector on the
    // right, the stats box at the top between them: the free part below the stats box.
    const std::vector<PixelRect> layout = {
        {10, 10, 350, 350}, {10, 360, 340, 710}, {940, 10, 1270, 710}, {690, 10, 930, 140}};
    expectRegion(esv::uncoveredRegion(layout, 1280, 720), 350.0f / 1280, 140.0f / 720, 940.0f / 1280, 1);
    // A bottom panel between the columns.
    const std::vector<PixelRect> withBottom = {
        {10, 10, 340, 710}, {940, 10, 1270, 710}, {360, 440, 930, 710}};
    expectRegion(esv::uncoveredRegion(withBottom, 1280, 720), 340.0f / 1280, 0, 940.0f / 1280, 440.0f / 720);
    // Panels hanging past the window are clipped to it.
    expectRegion(esv::uncoveredRegion({{-50, -50, 200, 800}}, 1000, 500), 0.2f, 0, 1, 1);
    // Panels that leave only a sliver free: the whole window.
    expectRegion(esv::uncoveredRegion({{0, 0, 1250, 720}}, 1280, 720), 0, 0, 1, 1);
    // A zero-sized window.
    expectRegion(esv::uncoveredRegion(layout, 0, 0), 0, 0, 1, 1);
}

TEST(ViewRegion, FramingFollowsThePanelsUntilTheCameraMoves) {
    esv::ViewerState s;
    s.scene = std::make_unique<esv::Scene>(esv::makeDemoScene());
    s.framebufferWidth = 1280;
    s.framebufferHeight = 720;
    esv::updatePose(s);
    s.bounds.add(glm::vec3(-1.0f, -2.0f, -0.5f));
    s.bounds.add(glm::vec3(3.0f, 2.0f, 0.5f));
    esv::frameScene(s);
    const esv::OrbitCamera full = s.view.orbit;
    EXPECT_TRUE(s.framed);

    // The panels appear: framing is done again for the free part (the camera had not moved).
    const std::vector<PixelRect> columns = {{0, 0, 340, 720}, {940, 0, 1280, 720}};
    esv::updateViewRegion(s, columns, 1280, 720);
    expectRegion(s.viewRegion, 340.0f / 1280, 0, 940.0f / 1280, 1);
    EXPECT_GT(s.view.orbit.distance, full.distance) << "a narrower region needs the camera further away";
    esv::OrbitCamera expected;
    esv::frameBounds(expected, s.bounds.min, s.bounds.max, 1280.0f / 720.0f, s.viewRegion);
    EXPECT_FLOAT_EQ(s.view.orbit.distance, expected.distance);
    EXPECT_EQ(s.view.orbit.target, expected.target);

    // The same panels again: nothing moves.
    const esv::OrbitCamera framed = s.view.orbit;
    esv::updateViewRegion(s, columns, 1280, 720);
    EXPECT_EQ(s.view.orbit.distance, framed.distance);

    // The user orbits: later panel changes leave the camera alone.
    s.view.orbit.yaw += 0.3f;
    esv::updateViewRegion(s, columns, 1280, 720);
    EXPECT_FALSE(s.framed);
    const esv::OrbitCamera moved = s.view.orbit;
    esv::updateViewRegion(s, {}, 1280, 720);
    EXPECT_EQ(s.view.orbit.distance, moved.distance);
    EXPECT_EQ(s.view.orbit.target, moved.target);

    // Frame scene (F) fits the current region and follows it again, e.g. when the window is resized.
    esv::frameScene(s);
    EXPECT_TRUE(s.framed);
    const float before = s.view.orbit.distance;
    s.framebufferWidth = 360;
    esv::updateViewRegion(s, {}, 360, 720);
    EXPECT_GT(s.view.orbit.distance, before) << "a tall window needs the camera further away for a wide box";
}

}  // namespace
