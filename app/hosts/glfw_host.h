// The desktop host: a GLFW window with a GLES context created through EGL, GLFW's input turned
// into the viewer's events (glfw_input.h, shared with the browser host), minimising as the viewer's
// pause, and Dear ImGui's GLFW backend for the panels. Only glfw_host.cpp and glfw_input.cpp
// include GLFW.
#pragma once

#include <vector>

#include "app/viewer/host.h"

struct GLFWwindow;

namespace esv {

class GlfwHost final : public Host {
public:
    GlfwHost() = default;
    ~GlfwHost() override;
    GlfwHost(const GlfwHost&) = delete;
    GlfwHost& operator=(const GlfwHost&) = delete;

    // Errors: "cannot open a window (no display?); ...", "cannot create a GLES window", "cannot load
    // the GLES entry points". GLFW's own errors go to stderr as they happen.
    bool open(const HostConfig& config, std::string& error) override;
    HostSize framebufferSize() const override;
    HostSize windowSize() const override;
    float contentScale() const override;
    void pollEvents(std::vector<Event>& events) override;
    std::string clipboardText() override;
    void setClipboardText(const std::string& text) override;
    double time() const override;
    void swapBuffers() override;
    // glfwWaitEventsTimeout: a paused viewer (the window minimised) sleeps until something happens.
    void waitEvents(double seconds) override;
    bool imguiInit() override;
    void imguiNewFrame() override;
    void imguiShutdown() override;

private:
    bool m_initialized = false;  // glfwInit succeeded
    GLFWwindow* m_window = nullptr;
    std::vector<Event> m_events;  // queued by the callbacks during glfwPollEvents
};

}  // namespace esv
