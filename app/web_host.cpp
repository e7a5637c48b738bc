#include "app/web_host.h"

#include <glad/gles2.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <emscripten/html5.h>

#include <cmath>
#include <utility>

#include <imgui.h>
#include <imgui_impl_glfw.h>

#include "app/host_keys.h"
#include "renderer/gl_calls.h"

namespace esv {
namespace {

constexpr const char* kCanvas = "#canvas";

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

GLADapiproc loadGl(const char* name) {
    return reinterpret_cast<GLADapiproc>(emscripten_webgl_get_proc_address(name));
}

}  // namespace

// Installed before ImGui_ImplGlfw_InitForOpenGL, which chains to them.
struct WebHost::Callbacks {
    static void push(GLFWwindow* window, Event event) {
        static_cast<WebHost*>(glfwGetWindowUserPointer(window))->m_events.push_back(std::move(event));
    }
    static void cursorPos(GLFWwindow* window, double x, double y) { push(window, Event::mouseMove(x, y)); }
    static void mouseButton(GLFWwindow* window, int button, int action, int mods) {
        MouseButton b = MouseButton::Count;
        if (button == GLFW_MOUSE_BUTTON_LEFT) b = MouseButton::Left;
        if (button == GLFW_MOUSE_BUTTON_RIGHT) b = MouseButton::Right;
        if (button == GLFW_MOUSE_BUTTON_MIDDLE) b = MouseButton::Middle;
        if (b == MouseButton::Count) return;
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
};

WebHost::~WebHost() {
    if (m_context > 0) emscripten_webgl_destroy_context(m_context);
    if (m_window) glfwDestroyWindow(m_window);
    if (m_initialized) glfwTerminate();
}

HostSize WebHost::cssPixelSize() const {
    double w = 0.0, h = 0.0;
    emscripten_get_element_css_size(kCanvas, &w, &h);
    const double ratio = emscripten_get_device_pixel_ratio();
    HostSize size;
    size.width = std::max(1, int(std::lround(w * ratio)));
    size.height = std::max(1, int(std::lround(h * ratio)));
    return size;
}

bool WebHost::open(const HostConfig& config, std::string& error) {
    if (!glfwInit()) {
        error = "cannot start the page's input (GLFW)";
        return false;
    }
    m_initialized = true;
    m_size = cssPixelSize();
    if (m_size.width <= 1 || m_size.height <= 1) m_size = HostSize{config.width, config.height};
    // GLFW for input only: the context is made below, WebGL 1 or 2 as asked.
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    m_window = glfwCreateWindow(m_size.width, m_size.height, config.title.c_str(), nullptr, nullptr);
    if (!m_window) {
        error = "cannot open the canvas (GLFW)";
        return false;
    }
    emscripten_set_canvas_element_size(kCanvas, m_size.width, m_size.height);

    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = config.glesMajor >= 3 ? 2 : 1;
    attributes.minorVersion = 0;
    attributes.alpha = false;
    attributes.depth = true;
    attributes.stencil = true;
    attributes.antialias = false;
    // Kept after the frame, so the page (and a headless browser's screenshot) can read it back.
    attributes.preserveDrawingBuffer = true;
    m_context = emscripten_webgl_create_context(kCanvas, &attributes);
    if (m_context <= 0) {
        error = "cannot create a WebGL " + std::to_string(attributes.majorVersion) + " context";
        return false;
    }
    emscripten_webgl_make_context_current(m_context);
    // Every extension is enabled (enableExtensionsByDefault); glGetString lists them with a GL_ prefix.
    if (!gladLoadGLES2(loadGl)) {
        error = "cannot load the GLES entry points";
        return false;
    }
    gl::installCallCounter();

    glfwSetWindowUserPointer(m_window, this);
    glfwSetCursorPosCallback(m_window, Callbacks::cursorPos);
    glfwSetMouseButtonCallback(m_window, Callbacks::mouseButton);
    glfwSetScrollCallback(m_window, Callbacks::scroll);
    glfwSetKeyCallback(m_window, Callbacks::key);
    glfwSetCharCallback(m_window, Callbacks::character);
    return true;
}

HostSize WebHost::framebufferSize() const {
    return m_size;
}

HostSize WebHost::windowSize() const {
    return m_size;
}

float WebHost::contentScale() const {
    return float(emscripten_get_device_pixel_ratio());
}

void WebHost::pollEvents(std::vector<Event>& events) {
    // The page lays the canvas out (it fills the window); its pixels follow the CSS size.
    const HostSize size = cssPixelSize();
    if (size.width != m_size.width || size.height != m_size.height) {
        m_size = size;
        glfwSetWindowSize(m_window, size.width, size.height);
        emscripten_set_canvas_element_size(kCanvas, size.width, size.height);
        m_events.push_back(Event::resize(size.width, size.height));
    }
    for (Event& e : m_events) events.push_back(std::move(e));
    m_events.clear();
}

double WebHost::time() const {
    return glfwGetTime();
}

bool WebHost::imguiInit() {
    return ImGui_ImplGlfw_InitForOpenGL(m_window, true);
}

void WebHost::imguiNewFrame() {
    ImGui_ImplGlfw_NewFrame();
    // Two frames can see the same clock (a busy or throttled page); Dear ImGui needs time to pass.
    ImGuiIO& io = ImGui::GetIO();
    if (!(io.DeltaTime > 0.0f)) io.DeltaTime = 1.0f / 1000.0f;
}

void WebHost::imguiShutdown() {
    ImGui_ImplGlfw_Shutdown();
}

}  // namespace esv
