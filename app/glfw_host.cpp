#include "app/glfw_host.h"

#include <glad/gles2.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <utility>

#include <imgui_impl_glfw.h>

#include "app/egl_context.h"
#include "app/host_keys.h"
#include "renderer/gl_calls.h"

namespace esv {
namespace {

void errorCallback(int code, const char* description) {
    std::fprintf(stderr, "esview: window system error 0x%X: %s\n", code, description);
}

// The viewer's key for a GLFW key code (Key::Unknown for keys the viewer does not read).
Key keyFromGlfw(int key) {
    switch (key) {
#define ESV_GLFW_KEY_CASE(viewerKey, glfwKey, sdlKey) \
    case glfwKey:                                     \
        return Key::viewerKey;
        ESV_HOST_KEYS(ESV_GLFW_KEY_CASE)
#undef ESV_GLFW_KEY_CASE
        default:
            return Key::Unknown;
    }
}

unsigned modsFromGlfw(int mods) {
    return (mods & GLFW_MOD_SHIFT ? kModShift : 0u) | (mods & GLFW_MOD_CONTROL ? kModControl : 0u) |
           (mods & GLFW_MOD_ALT ? kModAlt : 0u) | (mods & GLFW_MOD_SUPER ? kModSuper : 0u);
}

}  // namespace

// Installed before ImGui_ImplGlfw_InitForOpenGL, which chains to them and restores them on shutdown.
struct GlfwHost::Callbacks {
    static void push(GLFWwindow* window, Event event) {
        static_cast<GlfwHost*>(glfwGetWindowUserPointer(window))->m_events.push_back(std::move(event));
    }
    static void cursorPos(GLFWwindow* window, double x, double y) { push(window, Event::mouseMove(x, y)); }
    static void mouseButton(GLFWwindow* window, int button, int action, int mods) {
        MouseButton b = MouseButton::Count;
        if (button == GLFW_MOUSE_BUTTON_LEFT) b = MouseButton::Left;
        if (button == GLFW_MOUSE_BUTTON_RIGHT) b = MouseButton::Right;
        if (button == GLFW_MOUSE_BUTTON_MIDDLE) b = MouseButton::Middle;
        if (b == MouseButton::Count) return;
        // The press happens where the pointer is, even if it has not moved since the window opened.
        double x = 0.0, y = 0.0;
        glfwGetCursorPos(window, &x, &y);
        push(window, Event::mouseMove(x, y));
        push(window, Event::mouseButton(b, action == GLFW_PRESS, modsFromGlfw(mods)));
    }
    static void scroll(GLFWwindow* window, double x, double y) { push(window, Event::wheel(x, y)); }
    static void key(GLFWwindow* window, int key, int, int action, int mods) {
        const Key k = keyFromGlfw(key);
        if (k != Key::Unknown && action != GLFW_REPEAT)
            push(window, Event::keyEvent(k, action == GLFW_PRESS, modsFromGlfw(mods)));
    }
    static void character(GLFWwindow* window, unsigned int codepoint) {
        push(window, Event::text(codepoint));
    }
    static void drop(GLFWwindow* window, int count, const char** paths) {
        push(window, Event::drop(std::vector<std::string>(paths, paths + count)));
    }
    static void framebufferSize(GLFWwindow* window, int width, int height) {
        push(window, Event::resize(width, height));
    }
    static void close(GLFWwindow* window) { push(window, Event::close()); }
};

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

    glfwSetWindowUserPointer(m_window, this);
    glfwSetCursorPosCallback(m_window, Callbacks::cursorPos);
    glfwSetMouseButtonCallback(m_window, Callbacks::mouseButton);
    glfwSetScrollCallback(m_window, Callbacks::scroll);
    glfwSetKeyCallback(m_window, Callbacks::key);
    glfwSetCharCallback(m_window, Callbacks::character);
    glfwSetDropCallback(m_window, Callbacks::drop);
    glfwSetFramebufferSizeCallback(m_window, Callbacks::framebufferSize);
    glfwSetWindowCloseCallback(m_window, Callbacks::close);
    double x = 0.0, y = 0.0;
    glfwGetCursorPos(m_window, &x, &y);
    m_events.push_back(Event::mouseMove(x, y));
    return true;
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
