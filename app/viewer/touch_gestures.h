// Touch as the viewer's mouse: a host with a touch screen (SDL on a board or a phone) feeds each
// finger's down, move and up here and hands the viewer core the mouse events they stand for (host.h),
// so the core, its panels and its scripts need nothing of touch.
//  - One finger holds the left button where it touches: dragging it orbits in the 3D view, a tap
//    clicks (selects in the view, presses a panel's button).
//  - Two fingers hold the right button at their midpoint, so moving them together pans, and the change
//    of their distance turns into wheel steps (pinch zoom): spreading them to f times their distance
//    divides the orbit distance by f (kWheelStepZoom per step).
//  - A tap soon after another tap near it (a double tap) also presses F, which frames the scene; the key
//    is released at the next frame (nextFrame), since the core reads keys once a frame. The taps stay
//    clicks too (over a panel, a double click there; F then goes where the keys go).
// Fingers beyond the second are ignored; after a two-finger gesture nothing happens until every finger
// is lifted (the last one does not start orbiting with a jump). Pure logic, no clock of its own.
#pragma once

#include <cstdint>
#include <vector>

#include "app/viewer/host.h"

namespace esv {

// The orbit distance's factor per wheel step away from the user (the viewer's mouse wheel zoom).
constexpr double kWheelStepZoom = 0.88;

struct TouchOptions {
    double tapSeconds = 0.35;        // the longest touch that is a tap
    double doubleTapSeconds = 0.35;  // from a tap's lift to the next tap's touch
    double slop = 16.0;              // how far a tap may move, and the double tap's second from the first
                                     // (window coordinates; a host scales it with the content scale)
};

class TouchGestures {
public:
    explicit TouchGestures(TouchOptions options = {}) : m_options(options) {}

    // A finger touches, moves or lifts at (x, y) in window coordinates; `seconds` is the host's clock.
    // Appends the events they stand for to `out`.
    void down(int64_t finger, double x, double y, double seconds, std::vector<Event>& out);
    void move(int64_t finger, double x, double y, std::vector<Event>& out);
    void up(int64_t finger, double x, double y, double seconds, std::vector<Event>& out);
    // The touches were taken away (the window lost them): every button is released, no tap counts.
    void cancel(std::vector<Event>& out);
    // Events due at the start of a frame (a double tap's key release). Call once per frame, before the
    // frame's touches.
    void nextFrame(std::vector<Event>& out);

    // Fingers down now.
    int fingers() const { return int(m_fingers.size()); }

private:
    enum class Mode : uint8_t { Idle, One, Two, Done };
    struct Finger {
        int64_t id = 0;
        double x = 0.0, y = 0.0;
    };
    Finger* find(int64_t id);
    void midpoint(double& x, double& y, double& distance) const;  // of the first two fingers

    TouchOptions m_options;
    std::vector<Finger> m_fingers;  // in the order they touched
    Mode m_mode = Mode::Idle;
    double m_distance = 0.0;  // between the two fingers at the last wheel step (Mode::Two)
    // The one-finger touch so far: where and when it began, whether it is still a tap.
    double m_downX = 0.0, m_downY = 0.0, m_downSeconds = 0.0;
    bool m_tap = false;
    // The last tap, which the next may make a double tap.
    bool m_lastTap = false;
    double m_lastTapX = 0.0, m_lastTapY = 0.0, m_lastTapSeconds = 0.0;
    bool m_releaseKey = false;  // F is down until the next frame
};

}  // namespace esv
