// The pointer touch leaves for Dear ImGui's panels. A host whose ImGui backend knows no touch (SDL's
// ignores finger events it has turned into mouse events; the browser's GLFW sees none) hands the
// viewer the mouse events of TouchGestures through here and lays their pointer, buttons and wheel
// over what the backend set, each ImGui frame, while the last pointer input was a finger.
#pragma once

#include <cstddef>
#include <vector>

#include "app/viewer/host.h"

namespace esv {

class TouchPointer {
public:
    // Moves a gesture's events (TouchGestures' output) to `events`, keeping what they do to the pointer.
    void take(std::vector<Event>& gesture, std::vector<Event>& events);
    // A mouse or trackpad moved or pressed: the panels follow the backend's pointer again.
    void mouseUsed() { m_active = false; }
    // After the ImGui backend's NewFrame: the touch pointer over the backend's, when a finger was last.
    // A press and its release within one frame still reach the panels as a press.
    void applyToImGui();
    bool active() const { return m_active; }

private:
    bool m_active = false;
    float m_x = 0.0f, m_y = 0.0f;
    bool m_buttons[size_t(MouseButton::Count)] = {};
    bool m_pressed[size_t(MouseButton::Count)] = {};  // pressed since the last ImGui frame
    float m_wheelX = 0.0f, m_wheelY = 0.0f;
};

}  // namespace esv
