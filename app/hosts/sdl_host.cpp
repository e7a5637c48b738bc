#include "app/hosts/sdl_host.h"

#include <glad/gles2.h>
#include <SDL.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8
#include <imgui_impl_sdl.h>

#include "app/hosts/egl_context.h"
#include "app/hosts/host_keys.h"
#include "renderer/gl_calls.h"

namespace esv {
namespace {

// The viewer's key for an SDL scancode (Key::Unknown for keys the viewer does not read).
Key keyFromSdl(SDL_Scancode scancode) {
    switch (scancode) {
#define ESV_SDL_KEY_CASE(viewerKey, glfwKey, sdlKey) \
    case sdlKey:                                     \
        return Key::viewerKey;
        ESV_HOST_KEYS(ESV_SDL_KEY_CASE)
#undef ESV_SDL_KEY_CASE
        default:
            return Key::Unknown;
    }
}

unsigned modsFromSdl(unsigned mods) {
    return (mods & KMOD_SHIFT ? kModShift : 0u) | (mods & KMOD_CTRL ? kModControl : 0u) |
           (mods & KMOD_ALT ? kModAlt : 0u) | (mods & KMOD_GUI ? kModSuper : 0u);
}

// " (x11)": the video driver asked for or in use, for error lines.
std::string driverNote() {
    const char* current = SDL_GetCurrentVideoDriver();
    const char* asked = std::getenv("SDL_VIDEODRIVER");
    const char* name = current ? current : asked && *asked ? asked : nullptr;
    return name ? std::string(" (") + name + ")" : std::string();
}

#if defined(__ANDROID__)
constexpr float kReferenceDpi = 160.0f;  // Android's medium density
#else
constexpr float kReferenceDpi = 96.0f;
#endif

}  // namespace

float sdlContentScale(HostSize window, HostSize drawable, float dpi, float referenceDpi) {
    if (window.width > 0 && drawable.width > window.width) return float(drawable.width) / float(window.width);
    if (dpi > 0.0f && referenceDpi > 0.0f)
        return std::max(std::round(dpi / referenceDpi * 4.0f) / 4.0f, 1.0f);
    return 1.0f;
}

SdlHost::~SdlHost() {
    if (m_context) {
        keepGraphicsDriversLoaded();
        SDL_GL_DeleteContext(m_context);
    }
    if (m_window) SDL_DestroyWindow(m_window);
    if (m_initialized) SDL_Quit();
}

bool SdlHost::open(const HostConfig& config, std::string& error) {
    // EGL on X11 as on every device (and as the GLFW host); touch reaches the viewer through
    // TouchGestures only, not as SDL's emulated mouse too.
    SDL_SetHint(SDL_HINT_VIDEO_X11_FORCE_EGL, "1");
    SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0");
    SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        const std::string reason = SDL_GetError();  // before driverNote, which sets another
        error = "no display for the SDL host" + driverNote() + ": " + reason;
        return false;
    }
    m_initialized = true;
    const char* asked = std::getenv("SDL_VIDEODRIVER");
    const std::string driver = SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "";
    if ((!asked || !*asked) && (driver == "offscreen" || driver == "dummy")) {
        error = "no display for the SDL host: only SDL's " + driver +
                " driver started (SDL_VIDEODRIVER=offscreen draws with no display)";
        return false;
    }

    const std::string version = std::to_string(config.glesMajor) + ".0";
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, config.glesMajor);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_RED_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_GREEN_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_BLUE_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    m_window =
        SDL_CreateWindow(config.title.c_str(), SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, config.width,
                         config.height, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!m_window) {
        const std::string reason = SDL_GetError();
        error = "cannot create a GLES " + version + " window with SDL" + driverNote() + ": " + reason;
        return false;
    }
    m_glesMajor = config.glesMajor;
    m_vsync = config.vsync;
    if (!makeContext(error)) return false;

    TouchOptions touch;
    touch.slop *= double(contentScale());
    m_touch = TouchGestures(touch);
    m_start = SDL_GetPerformanceCounter();
    // The pointer where it is, if it is over the window already (the GLFW host does the same).
    if (SDL_GetMouseFocus() == m_window) {
        int x = 0, y = 0;
        SDL_GetMouseState(&x, &y);
        m_pending.push_back(Event::mouseMove(x, y));
    }
    return true;
}

bool SdlHost::makeContext(std::string& error) {
    m_context = SDL_GL_CreateContext(m_window);
    if (!m_context || SDL_GL_MakeCurrent(m_window, m_context) != 0) {
        const std::string reason = SDL_GetError();
        error = "cannot create a GLES " + std::to_string(m_glesMajor) + ".0 context with SDL" + driverNote() +
                ": " + reason;
        return false;
    }
    SDL_GL_SetSwapInterval(m_vsync ? 1 : 0);
    if (!gladLoadGLES2(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress))) {
        error = "cannot load the GLES entry points";
        return false;
    }
    gl::installCallCounter();
    keepGraphicsDriversLoaded();
    return true;
}

bool SdlHost::loseContext(std::string& error) {
    if (m_context) {
        keepGraphicsDriversLoaded();
        SDL_GL_MakeCurrent(m_window, nullptr);
        SDL_GL_DeleteContext(m_context);
        m_context = nullptr;
    }
    if (!makeContext(error)) return false;
    m_pending.push_back(Event::of(EventType::ContextLost));
    return true;
}

void SdlHost::checkContext(std::vector<Event>& events) {
    SDL_GLContext current = SDL_GL_GetCurrentContext();
    if (current && current != m_context) {
        // SDL made a new context (its Android back end does when ours is gone): ours went with it.
        m_context = current;
        SDL_GL_SetSwapInterval(m_vsync ? 1 : 0);
        if (gladLoadGLES2(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress))) gl::installCallCounter();
        events.push_back(Event::of(EventType::ContextLost));
        return;
    }
    if (m_context && SDL_GL_MakeCurrent(m_window, m_context) == 0) return;  // it survived
    // Lost: not to be deleted (there is nothing left to delete), replaced by a new one.
    std::string error;
    if (!makeContext(error)) {
        SDL_Log("esview: %s", error.c_str());
        events.push_back(Event::close());
        return;
    }
    events.push_back(Event::of(EventType::ContextLost));
}

HostSize SdlHost::framebufferSize() const {
    HostSize size;
    SDL_GL_GetDrawableSize(m_window, &size.width, &size.height);
    return size;
}

HostSize SdlHost::windowSize() const {
    HostSize size;
    SDL_GetWindowSize(m_window, &size.width, &size.height);
    return size;
}

bool SdlHost::touchScreen() const {
    // Devices only, not a finger seen: the panels must not change size under a finger mid-tap.
    return SDL_GetNumTouchDevices() > 0;
}

float SdlHost::contentScale() const {
    float dpi = 0.0f;
    const int display = SDL_GetWindowDisplayIndex(m_window);
    if (display < 0 || SDL_GetDisplayDPI(display, nullptr, &dpi, nullptr) != 0) dpi = 0.0f;
    return sdlContentScale(windowSize(), framebufferSize(), dpi, kReferenceDpi);
}

void SdlHost::pollEvents(std::vector<Event>& events) {
    for (Event& e : m_pending) events.push_back(std::move(e));
    m_pending.clear();
    std::vector<Event> gesture;
    m_touch.nextFrame(gesture);
    m_touchPointer.take(gesture, events);
    const HostSize window = windowSize();
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (m_imgui) ImGui_ImplSDL2_ProcessEvent(&e);
        switch (e.type) {
            case SDL_MOUSEMOTION:
                if (e.motion.which == SDL_TOUCH_MOUSEID) break;
                m_touchPointer.mouseUsed();
                events.push_back(Event::mouseMove(e.motion.x, e.motion.y));
                break;
            case SDL_MOUSEBUTTONDOWN:
            case SDL_MOUSEBUTTONUP: {
                if (e.button.which == SDL_TOUCH_MOUSEID) break;
                MouseButton b = MouseButton::Count;
                if (e.button.button == SDL_BUTTON_LEFT) b = MouseButton::Left;
                if (e.button.button == SDL_BUTTON_RIGHT) b = MouseButton::Right;
                if (e.button.button == SDL_BUTTON_MIDDLE) b = MouseButton::Middle;
                if (b == MouseButton::Count) break;
                m_touchPointer.mouseUsed();
                // The press happens where the pointer is, as the GLFW host says.
                events.push_back(Event::mouseMove(e.button.x, e.button.y));
                events.push_back(
                    Event::mouseButton(b, e.type == SDL_MOUSEBUTTONDOWN, modsFromSdl(SDL_GetModState())));
                break;
            }
            case SDL_MOUSEWHEEL: {
                if (e.wheel.which == SDL_TOUCH_MOUSEID) break;
                const double flip = e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -1.0 : 1.0;
                events.push_back(Event::wheel(flip * e.wheel.preciseX, flip * e.wheel.preciseY));
                break;
            }
            case SDL_KEYDOWN:
            case SDL_KEYUP: {
                const Key k = keyFromSdl(e.key.keysym.scancode);
                if (k != Key::Unknown && !e.key.repeat)
                    events.push_back(
                        Event::keyEvent(k, e.type == SDL_KEYDOWN, modsFromSdl(e.key.keysym.mod)));
                break;
            }
            case SDL_TEXTINPUT: {
                const char* text = e.text.text;
                const char* end = text + SDL_strlen(text);
                while (text < end) {
                    unsigned int c = 0;
                    const int length = ImTextCharFromUtf8(&c, text, end);
                    if (length <= 0) break;
                    text += length;
                    if (c != 0) events.push_back(Event::text(c));
                }
                break;
            }
            case SDL_DROPFILE:
                if (e.drop.file) {
                    m_dropped.emplace_back(e.drop.file);
                    SDL_free(e.drop.file);
                }
                break;
            case SDL_DROPTEXT:
                SDL_free(e.drop.file);
                break;
            case SDL_DROPCOMPLETE:
                // One event for the whole drop, as GLFW gives it.
                if (!m_dropped.empty()) events.push_back(Event::drop(std::move(m_dropped)));
                m_dropped.clear();
                break;
            case SDL_FINGERDOWN:
            case SDL_FINGERMOTION:
            case SDL_FINGERUP: {
                // SDL gives fingers in [0, 1] across the window.
                const double x = double(e.tfinger.x) * window.width, y = double(e.tfinger.y) * window.height;
                const double seconds = e.tfinger.timestamp / 1000.0;
                if (e.type == SDL_FINGERDOWN) m_touch.down(e.tfinger.fingerId, x, y, seconds, gesture);
                if (e.type == SDL_FINGERMOTION) m_touch.move(e.tfinger.fingerId, x, y, gesture);
                if (e.type == SDL_FINGERUP) m_touch.up(e.tfinger.fingerId, x, y, seconds, gesture);
                m_touchPointer.take(gesture, events);
                break;
            }
            case SDL_WINDOWEVENT:
                if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
                    const HostSize pixels = framebufferSize();
                    events.push_back(Event::resize(pixels.width, pixels.height));
                } else if (e.window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
                    m_touch.cancel(gesture);
                    m_touchPointer.take(gesture, events);
                } else if (e.window.event == SDL_WINDOWEVENT_CLOSE) {
                    events.push_back(Event::close());
                }
                break;
            case SDL_QUIT:
            case SDL_APP_TERMINATING:
                events.push_back(Event::close());
                break;
            case SDL_APP_WILLENTERBACKGROUND:
            case SDL_APP_DIDENTERBACKGROUND:
                // Nothing is drawn from here on (Android may destroy the surface and the context).
                if (m_background) break;
                m_background = true;
                m_touch.cancel(gesture);
                m_touchPointer.take(gesture, events);
                events.push_back(Event::of(EventType::Pause));
                break;
            case SDL_APP_WILLENTERFOREGROUND:
                break;  // the surface is back only once SDL says the app did enter the foreground
            case SDL_APP_DIDENTERFOREGROUND:
                if (!m_background) break;
                m_background = false;
                checkContext(events);
                events.push_back(Event::of(EventType::Resume));
                break;
            case SDL_RENDER_DEVICE_RESET:
                checkContext(events);
                break;
            default:
                break;
        }
    }
    // A drop whose end did not come (older drivers send none).
    if (!m_dropped.empty()) {
        events.push_back(Event::drop(std::move(m_dropped)));
        m_dropped.clear();
    }
}

std::string SdlHost::clipboardText() {
    char* text = SDL_GetClipboardText();
    std::string result = text ? text : "";
    SDL_free(text);
    return result;
}

void SdlHost::setClipboardText(const std::string& text) {
    SDL_SetClipboardText(text.c_str());
}

double SdlHost::time() const {
    return double(SDL_GetPerformanceCounter() - m_start) / double(SDL_GetPerformanceFrequency());
}

void SdlHost::swapBuffers() {
    SDL_GL_SwapWindow(m_window);
}

void SdlHost::waitEvents(double seconds) {
    SDL_WaitEventTimeout(nullptr, int(std::clamp(seconds, 0.0, 10.0) * 1000.0));
#if SDL_VERSION_ATLEAST(2, 24, 0)
    // The poll sentinel that waiting queued would end the next poll before the events it waited for.
    SDL_FlushEvent(SDL_POLLSENTINEL);
#endif
}

bool SdlHost::imguiInit() {
    m_imgui = ImGui_ImplSDL2_InitForOpenGL(m_window, m_context);
    return m_imgui;
}

void SdlHost::imguiNewFrame() {
    ImGui_ImplSDL2_NewFrame();
    // Where the keyboard is on the screen (Android), it shows while a text field has the focus.
    if (SDL_HasScreenKeyboardSupport()) {
        const bool want = ImGui::GetIO().WantTextInput;
        if (want != m_screenKeyboard) {
            if (want) {
                SDL_StartTextInput();
            } else {
                SDL_StopTextInput();
            }
            m_screenKeyboard = want;
        }
    }
    m_touchPointer.applyToImGui();
}

void SdlHost::imguiShutdown() {
    if (m_imgui) ImGui_ImplSDL2_Shutdown();
    m_imgui = false;
}

}  // namespace esv
