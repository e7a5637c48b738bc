// The browser host (Emscripten): a WebGL 2 or WebGL 1 context on the page's canvas (#canvas), the
// canvas kept at its CSS size times the device pixel ratio, input and Dear ImGui's platform backend
// through Emscripten's GLFW emulation, touch through TouchGestures as on the SDL host (one finger
// orbits, two pan and pinch-zoom, a double tap frames). Window coordinates are canvas pixels (as
// Emscripten's GLFW reports the pointer), so the window and framebuffer sizes are the same and the
// content scale is the device pixel ratio. The only file of the viewer that includes Emscripten's headers
// besides web_main.cpp.
#pragma once

#include <string>
#include <vector>

#include "app/viewer/host.h"
#include "app/viewer/touch_gestures.h"
#include "app/viewer/touch_pointer.h"

struct GLFWwindow;

namespace esv {

class WebHost final : public Host {
public:
    WebHost() = default;
    ~WebHost() override;
    WebHost(const WebHost&) = delete;
    WebHost& operator=(const WebHost&) = delete;

    // glesMajor 3: WebGL 2; 2: WebGL 1. Errors: "cannot create a WebGL N context", "cannot load the
    // GLES entry points".
    bool open(const HostConfig& config, std::string& error) override;
    HostSize framebufferSize() const override;
    HostSize windowSize() const override;
    float contentScale() const override;
    // The browser reports touch points (navigator.maxTouchPoints): the panels take touch sizes.
    bool touchScreen() const override;
    void pollEvents(std::vector<Event>& events) override;
    std::string clipboardText() override { return m_clipboard; }
    void setClipboardText(const std::string& text) override { m_clipboard = text; }
    double time() const override;
    void swapBuffers() override {}  // the browser shows the canvas when the frame's callback returns
    bool imguiInit() override;
    void imguiNewFrame() override;
    void imguiShutdown() override;

    // Files or folders the page wrote into the in-memory file system from a drop or its file
    // picker: one Drop event at the next poll, as a desktop drop gives.
    void drop(std::vector<std::string> paths) { m_events.push_back(Event::drop(std::move(paths))); }

private:
    struct Touch;  // the canvas's touch callbacks
    friend struct Touch;

    // The canvas's CSS size times the device pixel ratio, in pixels.
    HostSize cssPixelSize() const;

    bool m_initialized = false;
    GLFWwindow* m_window = nullptr;
    int m_context = 0;  // EMSCRIPTEN_WEBGL_CONTEXT_HANDLE
    HostSize m_size;
    std::vector<Event> m_events;  // queued by GLFW's callbacks and the touch callbacks
    TouchGestures m_touch;
    TouchPointer m_touchPointer;  // what touch leaves for the panels
    std::string m_clipboard;
};

}  // namespace esv
