// Touch gestures as the viewer's mouse (app/viewer/touch_gestures.h): synthetic fingers give the events of
// one-finger orbit and taps, two-finger pan and pinch zoom, and the double tap's frame key; then the
// same gestures drive the viewer core over the headless host, which orbits, pans, zooms and frames.
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli/commands.h"
#include "app/hosts/headless_host.h"
#include "app/viewer/touch_gestures.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_state.h"
#include "common/viewer_session.h"

namespace {

using esv::Event;
using esv::EventType;
using esv::Key;
using esv::MouseButton;

// The events as short words, e.g. "move 10,20", "left down", "wheel 0,1.00", "F up".
std::string describe(const std::vector<Event>& events) {
    std::string text;
    char word[64];
    for (const Event& e : events) {
        switch (e.type) {
            case EventType::MouseMove:
                std::snprintf(word, sizeof(word), "move %g,%g", e.x, e.y);
                break;
            case EventType::MouseButton:
                std::snprintf(word, sizeof(word), "%s %s",
                              e.button == MouseButton::Left    ? "left"
                              : e.button == MouseButton::Right ? "right"
                                                               : "middle",
                              e.down ? "down" : "up");
                break;
            case EventType::Wheel:
                std::snprintf(word, sizeof(word), "wheel %.2f,%.2f", e.x, e.y);
                break;
            case EventType::Key:
                std::snprintf(word, sizeof(word), "%s %s", e.key == Key::F ? "F" : "key",
                              e.down ? "down" : "up");
                break;
            default:
                std::snprintf(word, sizeof(word), "other");
                break;
        }
        text += (text.empty() ? "" : "; ") + std::string(word);
    }
    return text;
}

TEST(TouchGestures, OneFingerHoldsTheLeftButtonWhereItTouches) {
    esv::TouchGestures touch;
    std::vector<Event> out;
    touch.down(7, 100, 200, 0.0, out);
    touch.move(7, 130, 210, out);
    touch.up(7, 150, 220, 0.5, out);
    EXPECT_EQ(describe(out), "move 100,200; left down; move 130,210; move 150,220; left up");
    EXPECT_EQ(touch.fingers(), 0);
    // A finger that is not down neither moves nor lifts anything.
    out.clear();
    touch.move(9, 1, 1, out);
    touch.up(9, 1, 1, 1.0, out);
    EXPECT_TRUE(out.empty()) << describe(out);
}

TEST(TouchGestures, TwoFingersPanAtTheirMidpointAndPinchAsWheelSteps) {
    esv::TouchGestures touch;
    std::vector<Event> out;
    touch.down(1, 100, 100, 0.0, out);
    touch.down(2, 200, 100, 0.05, out);
    // The left button lets go at the midpoint (no click where it pressed), the right one presses there.
    EXPECT_EQ(describe(out), "move 100,100; left down; move 150,100; left up; right down");
    out.clear();
    // Both fingers move 20 down, one after the other: the midpoint pans; the distance changes on the
    // way and comes back, so the wheel steps cancel out.
    touch.move(1, 100, 120, out);
    touch.move(2, 200, 120, out);
    EXPECT_EQ(describe(out), "move 150,110; wheel 0.00,0.15; move 150,120; wheel 0.00,-0.15");
    ASSERT_EQ(out.size(), 4u);
    EXPECT_NEAR(out[1].y + out[3].y, 0.0, 1e-12);
    out.clear();
    // Spreading to twice the distance: ln 2 / ln(1 / 0.88) = 5.42 steps towards the model.
    touch.move(2, 300, 120, out);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1].type, EventType::Wheel);
    EXPECT_NEAR(out[1].y, std::log(2.0) / -std::log(esv::kWheelStepZoom), 1e-9);
    EXPECT_NEAR(std::pow(esv::kWheelStepZoom, out[1].y), 0.5, 1e-9);  // the orbit distance halves
    out.clear();
    // Pinching back to the start is as many steps away.
    touch.move(2, 200, 120, out);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_NEAR(out[1].y, -std::log(2.0) / -std::log(esv::kWheelStepZoom), 1e-9);
    out.clear();
    // A third finger is ignored; lifting one of the two ends the gesture, and the finger left does
    // not orbit until every finger has lifted.
    touch.down(3, 400, 400, 0.2, out);
    touch.move(3, 410, 400, out);
    EXPECT_TRUE(out.empty()) << describe(out);
    touch.up(1, 100, 120, 0.3, out);
    EXPECT_EQ(describe(out), "right up");
    out.clear();
    touch.move(2, 260, 160, out);
    touch.up(3, 410, 400, 0.4, out);
    touch.up(2, 260, 160, 0.4, out);
    EXPECT_TRUE(out.empty()) << describe(out);
    EXPECT_EQ(touch.fingers(), 0);
    touch.down(4, 50, 50, 0.5, out);
    EXPECT_EQ(describe(out), "move 50,50; left down");
}

TEST(TouchGestures, DoubleTapPressesTheFrameKeyUntilTheNextFrame) {
    esv::TouchGestures touch;
    std::vector<Event> out;
    touch.down(1, 300, 300, 1.00, out);
    touch.up(1, 302, 301, 1.10, out);
    EXPECT_EQ(describe(out), "move 300,300; left down; move 302,301; left up");
    out.clear();
    touch.down(2, 305, 296, 1.30, out);
    touch.up(2, 305, 296, 1.38, out);
    EXPECT_EQ(describe(out), "move 305,296; left down; move 305,296; left up; F down");
    out.clear();
    touch.nextFrame(out);
    EXPECT_EQ(describe(out), "F up");
    out.clear();
    touch.nextFrame(out);
    EXPECT_TRUE(out.empty());
    // A third tap starts over: it is a first tap again.
    touch.down(3, 305, 296, 1.50, out);
    touch.up(3, 305, 296, 1.55, out);
    EXPECT_EQ(describe(out).find("F down"), std::string::npos) << describe(out);
}

TEST(TouchGestures, NoDoubleTapWhenTooLateTooFarTooLongOrDragged) {
    struct Case {
        const char* name;
        double x2, down2, up2, drag;
        double firstUp = 0.1;
    };
    const Case cases[] = {
        {"too late", 100, 0.50, 0.55, 0},  // 0.40 s after the first tap's lift
        {"too far", 140, 0.20, 0.25, 0},   // 40 units away
        {"too long", 100, 0.20, 0.70, 0},  // a half-second press is no tap
        {"dragged", 100, 0.20, 0.25, 30},  // the second touch moved 30 units
        {"first too long", 100, 0.80, 0.85, 0, 0.65},
    };
    for (const Case& c : cases) {
        esv::TouchGestures touch;
        std::vector<Event> out;
        touch.down(1, 100, 100, 0.0, out);
        touch.up(1, 100, 100, c.firstUp, out);
        touch.down(2, c.x2, 100, c.down2, out);
        if (c.drag > 0) touch.move(2, c.x2 + c.drag, 100, out);
        touch.up(2, c.x2 + c.drag, 100, c.up2, out);
        EXPECT_EQ(describe(out).find("F down"), std::string::npos) << c.name << ": " << describe(out);
    }
}

TEST(TouchGestures, CancelReleasesWhatIsHeld) {
    esv::TouchGestures touch;
    std::vector<Event> out;
    touch.down(1, 10, 10, 0.0, out);
    touch.down(2, 50, 10, 0.0, out);
    out.clear();
    touch.cancel(out);
    EXPECT_EQ(describe(out), "right up");
    EXPECT_EQ(touch.fingers(), 0);
}

// The viewer core over the headless host, each gesture's events in the frame of their finger event.
class TouchViewer : public ::testing::Test {
protected:
    void SetUp() override {
        esv::test::viewerWorkDir("touch_", ::testing::UnitTest::GetInstance()->current_test_info()->name());
        ASSERT_EQ(viewer.start(host, esv::ViewerOptions{}), esv::kExitOk);
        ASSERT_TRUE(esv::test::frameUntilLoaded(viewer));
        viewer.state().transport.playing = false;
    }
    // Hands the frame's gesture events (after the ones due at a new frame) to the viewer.
    void frame(const std::function<void(std::vector<Event>&)>& fingers = nullptr) {
        std::vector<Event> out;
        touch.nextFrame(out);
        if (fingers) fingers(out);
        for (Event& e : out) host.push(std::move(e));
        ASSERT_TRUE(viewer.frame());
    }
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::TouchGestures touch;
    // A point of the 1280x720 window that no panel covers.
    static constexpr double kX = 640.0, kY = 600.0;
};

TEST_F(TouchViewer, OneFingerOrbitsTwoFingersPanAndZoomDoubleTapFrames) {
    esv::ViewerState& s = viewer.state();
    esv::OrbitCamera& orbit = s.view.orbit;

    // One finger dragged 100 units right: 1 radian of yaw, as the mouse's left drag.
    const float yaw = orbit.yaw;
    frame([&](auto& out) { touch.down(1, kX - 50, kY, 0.0, out); });
    frame([&](auto& out) { touch.move(1, kX, kY, out); });
    frame([&](auto& out) { touch.move(1, kX + 50, kY, out); });
    frame([&](auto& out) { touch.up(1, kX + 50, kY, 0.5, out); });
    EXPECT_NEAR(orbit.yaw, yaw - 1.0f, 1e-5f);
    EXPECT_EQ(s.selection.node, -1);  // a drag, not a tap: nothing picked

    // The frame key's view, to compare the double tap's with.
    frame([&](auto& out) { out.push_back(Event::keyEvent(Key::F, true)); });
    frame([&](auto& out) { out.push_back(Event::keyEvent(Key::F, false)); });
    const esv::OrbitCamera framed = orbit;

    // Two fingers spread from 100 to 200 units apart: the orbit distance halves.
    const float distance = orbit.distance;
    frame([&](auto& out) {
        touch.down(2, kX - 50, kY - 100, 1.0, out);
        touch.down(3, kX + 50, kY - 100, 1.0, out);
    });
    frame([&](auto& out) { touch.move(3, kX + 150, kY - 100, out); });
    EXPECT_NEAR(orbit.distance, distance * 0.5f, distance * 1e-4f);
    // Moving both together pans: the target moves, the distance and the angles stay.
    const glm::vec3 target = orbit.target;
    frame([&](auto& out) {
        touch.move(2, kX - 50, kY - 60, out);
        touch.move(3, kX + 150, kY - 60, out);
    });
    EXPECT_GT(glm::length(orbit.target - target), 1e-4f);
    EXPECT_NEAR(orbit.distance, distance * 0.5f, distance * 1e-4f);
    EXPECT_NEAR(orbit.yaw, framed.yaw, 1e-6f);
    frame([&](auto& out) {
        touch.up(2, kX - 50, kY - 60, 1.5, out);
        touch.up(3, kX + 150, kY - 60, 1.5, out);
    });

    // A double tap on the empty view frames the scene, as F does.
    frame([&](auto& out) { touch.down(4, kX, kY, 2.0, out); });
    frame([&](auto& out) { touch.up(4, kX, kY, 2.05, out); });
    frame([&](auto& out) { touch.down(5, kX, kY, 2.2, out); });
    frame([&](auto& out) { touch.up(5, kX, kY, 2.25, out); });
    frame();
    EXPECT_NEAR(orbit.distance, framed.distance, framed.distance * 1e-4f);
    EXPECT_NEAR(glm::length(orbit.target - framed.target), 0.0f, 1e-4f * framed.distance);
}

// A tap that begins and ends within one frame (a slow frame on a slow device) still picks, and a
// double tap of such taps still frames: the viewer counts a press released in the frame it came in.
TEST_F(TouchViewer, TapsWithinOneFrameStillPickAndFrame) {
    esv::ViewerState& s = viewer.state();
    esv::OrbitCamera& orbit = s.view.orbit;
    // A point on the model: the first of a grid of one-frame-per-event taps across the view that picks.
    const esv::ViewportRect view = esv::sceneViewport(s);
    double hitX = -1, hitY = -1;
    double seconds = 0.0;
    for (int j = 1; j < 8 && hitX < 0; ++j) {
        for (int i = 1; i < 8 && hitX < 0; ++i) {
            const double x = view.x + view.width * i / 8.0, y = view.y + view.height * j / 8.0;
            frame([&](auto& out) { touch.down(1, x, y, seconds, out); });
            frame([&](auto& out) { touch.up(1, x, y, seconds + 0.05, out); });
            seconds += 1.0;  // no double taps
            if (s.selection.node >= 0) hitX = x, hitY = y;
        }
    }
    ASSERT_GE(hitX, 0.0) << "no tap on the demo scene picked anything";
    const int picked = s.selection.node;
    frame([&](auto& out) { out.push_back(Event::keyEvent(Key::Escape, true)); });
    frame([&](auto& out) { out.push_back(Event::keyEvent(Key::Escape, false)); });
    ASSERT_EQ(s.selection.node, -1);

    // The same tap, down and up in one frame.
    frame([&](auto& out) {
        touch.down(2, hitX, hitY, seconds, out);
        touch.up(2, hitX, hitY, seconds + 0.05, out);
    });
    frame();
    EXPECT_EQ(s.selection.node, picked);
    seconds += 1.0;

    // Zoomed in, then a double tap of one-frame taps on the empty view frames the scene as F does.
    frame([&](auto& out) { out.push_back(Event::keyEvent(Key::F, true)); });
    frame([&](auto& out) { out.push_back(Event::keyEvent(Key::F, false)); });
    const float framed = orbit.distance;
    frame([&](auto& out) { out.push_back(Event::wheel(0.0, 5.0)); });
    ASSERT_LT(orbit.distance, framed * 0.9f);
    for (int tap = 0; tap < 2; ++tap) {
        frame([&](auto& out) {
            touch.down(3 + tap, kX, kY, seconds, out);
            touch.up(3 + tap, kX, kY, seconds + 0.05, out);
        });
        seconds += 0.1;
    }
    frame();
    EXPECT_NEAR(orbit.distance, framed, framed * 1e-4f);
}

}  // namespace
