// A host with no window and no window system: a GLES context on an EGL pbuffer of a fixed size
// (egl_context.h), input that the caller queues, and a small Dear ImGui platform backend fed from
// those events. It runs the viewer core where no display exists (tests drive it event by event);
// its clock advances 1/30 s per frame, so runs repeat exactly. Pause, Resume and ContextLost come
// as the caller pushes them, or from loseContext (which really destroys the context).
#pragma once

#include <cfloat>
#include <memory>
#include <vector>

#include "app/hosts/egl_context.h"
#include "app/viewer/host.h"

namespace esv {

class HeadlessHost final : public Host {
public:
    // Queues an event for the next pollEvents, that is the viewer's next frame. A button's press
    // and its release belong in different frames, as they would arrive from a person.
    void push(Event event);

    // The pbuffer has the configured size (window and framebuffer coincide); errors are EglContext's.
    bool open(const HostConfig& config, std::string& error) override;
    HostSize framebufferSize() const override { return m_size; }
    HostSize windowSize() const override { return m_size; }
    float contentScale() const override { return 1.0f; }
    void pollEvents(std::vector<Event>& events) override;
    std::string clipboardText() override { return m_clipboard; }  // a clipboard of its own
    void setClipboardText(const std::string& text) override { m_clipboard = text; }
    double time() const override { return m_frames / 30.0; }
    void swapBuffers() override {}  // a pbuffer has nothing to show
    // A new EGL context and pbuffer of the same version and size after the old ones are destroyed.
    bool loseContext(std::string& error) override;
    // The panels get the mouse, wheel, text and the keys of host.h (navigation, copy and paste).
    bool imguiInit() override;
    void imguiNewFrame() override;
    void imguiShutdown() override {}

private:
    std::unique_ptr<EglContext> m_context;
    int m_glesMajor = 3;
    HostSize m_size;
    std::vector<Event> m_queue;
    int m_frames = 0;  // pollEvents calls
    std::string m_clipboard;
    // The input as the panels see it, from the events delivered so far.
    float m_mouseX = -FLT_MAX, m_mouseY = -FLT_MAX;  // no pointer until it moves
    bool m_buttons[size_t(MouseButton::Count)] = {};
    bool m_keys[size_t(Key::Count)] = {};
    float m_wheelX = 0.0f, m_wheelY = 0.0f;  // since the last ImGui frame
    std::vector<uint32_t> m_text;            // since the last ImGui frame
};

}  // namespace esv
