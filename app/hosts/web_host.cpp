#include "app/hosts/web_host.h"

#include <glad/gles2.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <emscripten/html5.h>

#include <cmath>
#include <utility>

#include <imgui.h>
#include <imgui_impl_glfw.h>

#include "app/hosts/glfw_input.h"
#include "renderer/gl_calls.h"

namespace esv {
namespace {

constexpr const char* kCanvas = "#canvas";

GLADapiproc loadGl(const char* name) {
    return reinterpret_cast<GLADapiproc>(emscripten_webgl_get_proc_address(name));
}

}  // namespace

// Touch on the canvas: each finger to TouchGestures, in canvas pixels (CSS pixels times the device
// pixel ratio), the page's own handling of the touch (scrolling, compatibility mouse events) prevented.
struct WebHost::Touch {
    static EM_BOOL event(int type, const EmscriptenTouchEvent* e, void* data) {
        WebHost& host = *static_cast<WebHost*>(data);
        const double ratio = emscripten_get_device_pixel_ratio();
        // When the browser took the touch (the event's time stamp, in ms), not when a busy page
        // got to it: taps and double taps are timed as the user made them.
        const double seconds = e->timestamp / 1000.0;
        std::vector<Event> gesture;
        for (int i = 0; i < e->numTouches; ++i) {
            const EmscriptenTouchPoint& t = e->touches[i];
            if (!t.isChanged) continue;
            const double x = double(t.targetX) * ratio, y = double(t.targetY) * ratio;
            if (type == EMSCRIPTEN_EVENT_TOUCHSTART) host.m_touch.down(t.identifier, x, y, seconds, gesture);
            if (type == EMSCRIPTEN_EVENT_TOUCHMOVE) host.m_touch.move(t.identifier, x, y, gesture);
            if (type == EMSCRIPTEN_EVENT_TOUCHEND) host.m_touch.up(t.identifier, x, y, seconds, gesture);
        }
        if (type == EMSCRIPTEN_EVENT_TOUCHCANCEL) host.m_touch.cancel(gesture);
        host.m_touchPointer.take(gesture, host.m_events);
        return EM_TRUE;
    }
    static EM_BOOL mouse(int, const EmscriptenMouseEvent*, void* data) {
        static_cast<WebHost*>(data)->m_touchPointer.mouseUsed();
        return EM_FALSE;  // GLFW's handlers take the event
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

    // Installed before ImGui_ImplGlfw_InitForOpenGL, which chains to them.
    installGlfwInput(m_window, &m_events);
    // Touch: Emscripten's GLFW would make one finger a mouse; the gestures of TouchGestures instead.
    EM_ASM({
        const canvas = Module["canvas"];
        canvas.removeEventListener("touchmove", GLFW.onMousemove, true);
        canvas.removeEventListener("touchstart", GLFW.onMouseButtonDown, true);
        canvas.removeEventListener("touchcancel", GLFW.onMouseButtonUp, true);
        canvas.removeEventListener("touchend", GLFW.onMouseButtonUp, true);
    });
    TouchOptions touch;
    touch.slop *= double(contentScale());
    m_touch = TouchGestures(touch);
    emscripten_set_touchstart_callback(kCanvas, this, EM_TRUE, Touch::event);
    emscripten_set_touchmove_callback(kCanvas, this, EM_TRUE, Touch::event);
    emscripten_set_touchend_callback(kCanvas, this, EM_TRUE, Touch::event);
    emscripten_set_touchcancel_callback(kCanvas, this, EM_TRUE, Touch::event);
    emscripten_set_mousedown_callback(kCanvas, this, EM_TRUE, Touch::mouse);
    emscripten_set_mousemove_callback(kCanvas, this, EM_TRUE, Touch::mouse);
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

bool WebHost::touchScreen() const {
    return EM_ASM_INT({ return navigator.maxTouchPoints > 0 ? 1 : 0; }) != 0;
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
    // Touches reach the page between frames, before this poll: what a gesture leaves for the next
    // frame (a double tap's key release) is queued after this frame's events, for the next poll.
    std::vector<Event> gesture;
    m_touch.nextFrame(gesture);
    m_touchPointer.take(gesture, m_events);
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
    m_touchPointer.applyToImGui();
}

void WebHost::imguiShutdown() {
    ImGui_ImplGlfw_Shutdown();
}

}  // namespace esv
