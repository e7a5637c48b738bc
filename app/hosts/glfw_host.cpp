#include "app/hosts/glfw_host.h"

#include <glad/gles2.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <utility>

#include <imgui_impl_glfw.h>

#include "app/hosts/egl_context.h"
#include "app/hosts/glfw_input.h"
#include "renderer/gl_calls.h"

namespace esv {
namespace {

void errorCallback(int code, const char* description) {
    std::fprintf(stderr, "esview: window system error 0x%X: %s\n", code, description);
}

// The window's own events, beside the input of installGlfwInput.
void dropCallback(GLFWwindow* window, int count, const char** paths) {
    glfwEventQueue(window).push_back(Event::drop(std::vector<std::string>(paths, paths + count)));
}

void framebufferSizeCallback(GLFWwindow* window, int width, int height) {
    glfwEventQueue(window).push_back(Event::resize(width, height));
}

void closeCallback(GLFWwindow* window) {
    glfwEventQueue(window).push_back(Event::close());
}

// A minimised window is the desktop's background: nothing is drawn and the clocks stop until it is
// restored (the viewer's Pause and Resume, as Android's lifecycle gives them on the SDL host).
void iconifyCallback(GLFWwindow* window, int iconified) {
    glfwEventQueue(window).push_back(Event::of(iconified ? EventType::Pause : EventType::Resume));
}

}  // namespace

GlfwHost::~GlfwHost() {
    if (m_window) glfwDestroyWindow(m_window);
    if (m_initialized) glfwTerminate();
}

bool GlfwHost::open(const HostConfig& config, std::string& error) {
    glfwSetErrorCallback(errorCallback);
    if (!glfwInit()) {
        error = "cannot open a window (no display?); try 'esview render FILE -o out.png'";
        return false;
    }
    m_initialized = true;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, config.glesMajor);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    m_window = glfwCreateWindow(config.width, config.height, config.title.c_str(), nullptr, nullptr);
    if (!m_window) {
        error = "cannot create a GLES window";
        return false;
    }
    glfwMakeContextCurrent(m_window);
    glfwSwapInterval(config.vsync ? 1 : 0);
    if (!gladLoadGLES2(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        error = "cannot load the GLES entry points";
        return false;
    }
    gl::installCallCounter();
    keepGraphicsDriversLoaded();

    // Installed before ImGui_ImplGlfw_InitForOpenGL, which chains to them and restores them on shutdown.
    installGlfwInput(m_window, &m_events);
    glfwSetDropCallback(m_window, dropCallback);
    glfwSetFramebufferSizeCallback(m_window, framebufferSizeCallback);
    glfwSetWindowCloseCallback(m_window, closeCallback);
    glfwSetWindowIconifyCallback(m_window, iconifyCallback);
    double x = 0.0, y = 0.0;
    glfwGetCursorPos(m_window, &x, &y);
    m_events.push_back(Event::mouseMove(x, y));
    return true;
}

void GlfwHost::waitEvents(double seconds) {
    glfwWaitEventsTimeout(seconds);
}

HostSize GlfwHost::framebufferSize() const {
    HostSize size;
    glfwGetFramebufferSize(m_window, &size.width, &size.height);
    return size;
}

HostSize GlfwHost::windowSize() const {
    HostSize size;
    glfwGetWindowSize(m_window, &size.width, &size.height);
    return size;
}

float GlfwHost::contentScale() const {
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(m_window, &x, &y);
    return x;
}

void GlfwHost::pollEvents(std::vector<Event>& events) {
    glfwPollEvents();
    for (Event& e : m_events) events.push_back(std::move(e));
    m_events.clear();
}

std::string GlfwHost::clipboardText() {
    const char* text = glfwGetClipboardString(m_window);
    return text ? text : "";
}

void GlfwHost::setClipboardText(const std::string& text) {
    glfwSetClipboardString(m_window, text.c_str());
}

double GlfwHost::time() const {
    return glfwGetTime();
}

void GlfwHost::swapBuffers() {
    glfwSwapBuffers(m_window);
}

bool GlfwHost::imguiInit() {
    return ImGui_ImplGlfw_InitForOpenGL(m_window, true);
}

void GlfwHost::imguiNewFrame() {
    ImGui_ImplGlfw_NewFrame();
}

void GlfwHost::imguiShutdown() {
    ImGui_ImplGlfw_Shutdown();
}

}  // namespace esv
