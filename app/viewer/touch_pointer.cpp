#include "app/viewer/touch_pointer.h"

#include <utility>

#include <imgui.h>

namespace esv {

void TouchPointer::take(std::vector<Event>& gesture, std::vector<Event>& events) {
    for (Event& e : gesture) {
        switch (e.type) {
            case EventType::MouseMove:
                m_active = true;
                m_x = float(e.x);
                m_y = float(e.y);
                break;
            case EventType::MouseButton:
                m_active = true;
                m_buttons[size_t(e.button)] = e.down;
                if (e.down) m_pressed[size_t(e.button)] = true;
                break;
            case EventType::Wheel:
                m_wheelX += float(e.x);
                m_wheelY += float(e.y);
                break;
            default:
                break;
        }
        events.push_back(std::move(e));
    }
    gesture.clear();
}

void TouchPointer::applyToImGui() {
    if (!m_active) return;
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(m_x, m_y);
    for (size_t i = 0; i < size_t(MouseButton::Count); ++i) {
        io.MouseDown[i] = m_buttons[i] || m_pressed[i];
        m_pressed[i] = false;
    }
    io.MouseWheel += m_wheelY;
    io.MouseWheelH += m_wheelX;
    m_wheelX = m_wheelY = 0.0f;
}

}  // namespace esv
