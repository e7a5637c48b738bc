#include "app/viewer/touch_gestures.h"

#include <algorithm>
#include <cmath>

namespace esv {

TouchGestures::Finger* TouchGestures::find(int64_t id) {
    for (Finger& f : m_fingers)
        if (f.id == id) return &f;
    return nullptr;
}

void TouchGestures::midpoint(double& x, double& y, double& distance) const {
    const Finger& a = m_fingers[0];
    const Finger& b = m_fingers[1];
    x = 0.5 * (a.x + b.x);
    y = 0.5 * (a.y + b.y);
    distance = std::hypot(a.x - b.x, a.y - b.y);
}

void TouchGestures::down(int64_t finger, double x, double y, double seconds, std::vector<Event>& out) {
    if (find(finger)) {  // a repeated down: taken as a move
        move(finger, x, y, out);
        return;
    }
    m_fingers.push_back({finger, x, y});
    if (m_mode == Mode::Idle) {
        m_mode = Mode::One;
        m_downX = x;
        m_downY = y;
        m_downSeconds = seconds;
        m_tap = true;
        out.push_back(Event::mouseMove(x, y));
        out.push_back(Event::mouseButton(MouseButton::Left, true));
    } else if (m_mode == Mode::One && m_fingers.size() == 2) {
        // The left button lets go where the right one presses, away from where it pressed (so the
        // release is no click); both in one frame, so the view neither orbits to the midpoint nor picks.
        double mx = 0.0, my = 0.0;
        midpoint(mx, my, m_distance);
        m_mode = Mode::Two;
        m_tap = m_lastTap = false;
        out.push_back(Event::mouseMove(mx, my));
        out.push_back(Event::mouseButton(MouseButton::Left, false));
        out.push_back(Event::mouseButton(MouseButton::Right, true));
    }
}

void TouchGestures::move(int64_t finger, double x, double y, std::vector<Event>& out) {
    Finger* f = find(finger);
    if (!f) return;
    f->x = x;
    f->y = y;
    if (m_mode == Mode::One && finger == m_fingers[0].id) {
        if (std::abs(x - m_downX) > m_options.slop || std::abs(y - m_downY) > m_options.slop) m_tap = false;
        out.push_back(Event::mouseMove(x, y));
    } else if (m_mode == Mode::Two && (finger == m_fingers[0].id || finger == m_fingers[1].id)) {
        double mx = 0.0, my = 0.0, distance = 0.0;
        midpoint(mx, my, distance);
        out.push_back(Event::mouseMove(mx, my));
        if (m_distance > 0.0 && distance > 0.0 && distance != m_distance) {
            // distance *= kWheelStepZoom^steps in the view: steps = ln(new / old) / ln(1 / kWheelStepZoom).
            const double steps = std::log(distance / m_distance) / -std::log(kWheelStepZoom);
            out.push_back(Event::wheel(0.0, steps));
        }
        m_distance = distance;
    }
}

void TouchGestures::up(int64_t finger, double x, double y, double seconds, std::vector<Event>& out) {
    Finger* f = find(finger);
    if (!f) return;
    const bool first = finger == m_fingers[0].id;
    const bool second = m_fingers.size() > 1 && finger == m_fingers[1].id;
    if (m_mode == Mode::One && first) {
        out.push_back(Event::mouseMove(x, y));
        out.push_back(Event::mouseButton(MouseButton::Left, false));
        const bool tap = m_tap && seconds - m_downSeconds <= m_options.tapSeconds &&
                         std::abs(x - m_downX) <= m_options.slop && std::abs(y - m_downY) <= m_options.slop;
        const bool doubleTap = tap && m_lastTap &&
                               m_downSeconds - m_lastTapSeconds <= m_options.doubleTapSeconds &&
                               std::abs(m_downX - m_lastTapX) <= m_options.slop &&
                               std::abs(m_downY - m_lastTapY) <= m_options.slop;
        if (doubleTap) {
            out.push_back(Event::keyEvent(Key::F, true));
            m_releaseKey = true;
            m_lastTap = false;
        } else {
            m_lastTap = tap;
            m_lastTapX = x;
            m_lastTapY = y;
            m_lastTapSeconds = seconds;
        }
    } else if (m_mode == Mode::Two && (first || second)) {
        out.push_back(Event::mouseButton(MouseButton::Right, false));
        m_mode = Mode::Done;
    }
    m_fingers.erase(m_fingers.begin() + (f - m_fingers.data()));
    if (m_fingers.empty()) m_mode = Mode::Idle;
}

void TouchGestures::cancel(std::vector<Event>& out) {
    if (m_mode == Mode::One) out.push_back(Event::mouseButton(MouseButton::Left, false));
    if (m_mode == Mode::Two) out.push_back(Event::mouseButton(MouseButton::Right, false));
    m_fingers.clear();
    m_mode = Mode::Idle;
    m_tap = m_lastTap = false;
}

void TouchGestures::nextFrame(std::vector<Event>& out) {
    if (!m_releaseKey) return;
    out.push_back(Event::keyEvent(Key::F, false));
    m_releaseKey = false;
}

}  // namespace esv
