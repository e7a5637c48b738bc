#include "app/hosts/headless_host.h"

#include <utility>

#include <imgui.h>

namespace esv {

void HeadlessHost::push(Event event) {
    m_queue.push_back(std::move(event));
}

bool HeadlessHost::open(const HostConfig& config, std::string& error) {
    m_size = {config.width, config.height};
    m_glesMajor = config.glesMajor;
    m_context = std::make_unique<EglContext>();
    return m_context->create(config.glesMajor, error, config.width, config.height);
}

bool HeadlessHost::loseContext(std::string& error) {
    m_context.reset();  // the pbuffer and every GL object of the context go with it
    m_context = std::make_unique<EglContext>();
    if (!m_context->create(m_glesMajor, error, m_size.width, m_size.height)) return false;
    m_queue.push_back(Event::of(EventType::ContextLost));
    return true;
}

void HeadlessHost::pollEvents(std::vector<Event>& events) {
    ++m_frames;
    for (Event& e : m_queue) {
        switch (e.type) {
            case EventType::MouseMove:
                m_mouseX = float(e.x);
                m_mouseY = float(e.y);
                break;
            case EventType::MouseButton:
                if (e.button < MouseButton::Count) m_buttons[size_t(e.button)] = e.down;
                break;
            case EventType::Wheel:
                m_wheelX += float(e.x);
                m_wheelY += float(e.y);
                break;
            case EventType::Key:
                if (e.key < Key::Count) m_keys[size_t(e.key)] = e.down;
                break;
            case EventType::Text:
                m_text.push_back(e.codepoint);
                break;
            case EventType::Resize:
                m_size = {e.width, e.height};
                break;
            case EventType::Drop:
            case EventType::Close:
            case EventType::Pause:
            case EventType::Resume:
            case EventType::ContextLost:
                break;
        }
        events.push_back(std::move(e));
    }
    m_queue.clear();
}

bool HeadlessHost::imguiInit() {
    ImGuiIO& io = ImGui::GetIO();
    io.BackendPlatformName = "esview_headless";
    // ImGui's keys index KeysDown by the viewer's Key (keyboard navigation needs at least these).
    const std::pair<ImGuiKey, Key> kKeys[] = {{ImGuiKey_Tab, Key::Tab},
                                              {ImGuiKey_LeftArrow, Key::Left},
                                              {ImGuiKey_RightArrow, Key::Right},
                                              {ImGuiKey_UpArrow, Key::Up},
                                              {ImGuiKey_DownArrow, Key::Down},
                                              {ImGuiKey_PageUp, Key::PageUp},
                                              {ImGuiKey_PageDown, Key::PageDown},
                                              {ImGuiKey_Home, Key::Home},
                                              {ImGuiKey_End, Key::End},
                                              {ImGuiKey_Space, Key::Space},
                                              {ImGuiKey_Enter, Key::Enter},
                                              {ImGuiKey_Escape, Key::Escape},
                                              {ImGuiKey_Backspace, Key::Backspace},
                                              {ImGuiKey_Delete, Key::Delete},
                                              {ImGuiKey_A, Key::A},
                                              {ImGuiKey_C, Key::C},
                                              {ImGuiKey_V, Key::V},
                                              {ImGuiKey_X, Key::X},
                                              {ImGuiKey_Y, Key::Y},
                                              {ImGuiKey_Z, Key::Z}};
    for (const auto& [imguiKey, key] : kKeys) io.KeyMap[imguiKey] = int(key);
    return true;
}

void HeadlessHost::imguiNewFrame() {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(m_size.width), float(m_size.height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    io.DeltaTime = 1.0f / 30.0f;
    io.MousePos = ImVec2(m_mouseX, m_mouseY);
    for (size_t i = 0; i < size_t(MouseButton::Count); ++i) io.MouseDown[i] = m_buttons[i];
    io.MouseWheel += m_wheelY;
    io.MouseWheelH += m_wheelX;
    m_wheelX = m_wheelY = 0.0f;
    auto held = [&](Key a, Key b) { return m_keys[size_t(a)] || m_keys[size_t(b)]; };
    io.KeyShift = held(Key::LeftShift, Key::RightShift);
    io.KeyCtrl = held(Key::LeftControl, Key::RightControl);
    io.KeyAlt = held(Key::LeftAlt, Key::RightAlt);
    for (size_t key = 0; key < size_t(Key::Count); ++key) io.KeysDown[key] = m_keys[key];
    for (uint32_t c : m_text) io.AddInputCharacter(c);
    m_text.clear();
}

}  // namespace esv
