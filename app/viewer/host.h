// What drives the viewer core (viewer_loop.h): a Host gives it a GLES context, the window's sizes,
// input as plain events, the clipboard, a clock and the Dear ImGui platform backend. GLFW on the
// desktop (glfw_host.h), headless EGL for tests (headless_host.h); SDL2 and the browser later. The
// core knows nothing else of windows; the ImGui renderer backend (OpenGL3) is shared by all hosts.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace esv {

// The keys the viewer reads (shortcuts, the script's `press`, the panels' text fields). A host maps
// its own key codes to these and drops the others; letters, digits and F1-F12 are contiguous.
// clang-format off
enum class Key : uint8_t {
    Unknown,
    A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z,
    Num0, Num1, Num2, Num3, Num4, Num5, Num6, Num7, Num8, Num9,
    F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12,
    Space, Enter, Escape, Tab, Backspace, Delete, Left, Right, Up, Down, Home, End, PageUp, PageDown,
    Comma, Period, Minus, Equal, LeftBracket, RightBracket, KeypadAdd, KeypadSubtract,
    LeftShift, RightShift, LeftControl, RightControl, LeftAlt, RightAlt,
    Count
};
// clang-format on

// Modifier bits of a key or mouse button event.
constexpr unsigned kModShift = 1u, kModControl = 2u, kModAlt = 4u, kModSuper = 8u;

enum class MouseButton : uint8_t { Left, Right, Middle, Count };

enum class EventType : uint8_t {
    MouseMove,    // x, y: the pointer in window coordinates (see Host::windowSize)
    MouseButton,  // button, down, mods
    Wheel,        // x, y: horizontal and vertical steps (positive: right, away from the user)
    Key,          // key, down, mods (key repeat is no event: a key is down until its release)
    Text,         // codepoint: a typed character (the panels get text through the host's ImGui backend)
    Drop,         // paths: files or folders dropped on the window
    Resize,       // width, height: the framebuffer's new size in pixels
    Close,        // the user asked to close the window
    // The app went to the background (Android's pause): the viewer draws nothing and its clocks
    // stop until Resume. The context may be lost meanwhile (ContextLost says so).
    Pause,
    Resume,  // back in the foreground: drawing and the clocks go on where they stopped
    // The GLES context was lost with every object in it (Android destroys it in the background on
    // many devices) and the host made a new one, current now: the viewer drops what it held without
    // a GL call and makes it again from the scene in memory.
    ContextLost
};

// One input event, in the order the host saw them. Fields a type does not name are left at zero.
struct Event {
    EventType type = EventType::MouseMove;
    double x = 0.0, y = 0.0;
    MouseButton button = MouseButton::Left;
    Key key = Key::Unknown;
    bool down = false;
    unsigned mods = 0;
    uint32_t codepoint = 0;
    int width = 0, height = 0;
    std::vector<std::string> paths;

    static Event mouseMove(double x, double y) {
        Event e;
        e.x = x;
        e.y = y;
        return e;
    }
    static Event mouseButton(MouseButton button, bool down, unsigned mods = 0) {
        Event e = of(EventType::MouseButton);
        e.button = button;
        e.down = down;
        e.mods = mods;
        return e;
    }
    static Event wheel(double x, double y) {
        Event e = of(EventType::Wheel);
        e.x = x;
        e.y = y;
        return e;
    }
    static Event keyEvent(Key key, bool down, unsigned mods = 0) {
        Event e = of(EventType::Key);
        e.key = key;
        e.down = down;
        e.mods = mods;
        return e;
    }
    static Event text(uint32_t codepoint) {
        Event e = of(EventType::Text);
        e.codepoint = codepoint;
        return e;
    }
    static Event drop(std::vector<std::string> paths) {
        Event e = of(EventType::Drop);
        e.paths = std::move(paths);
        return e;
    }
    static Event resize(int width, int height) {
        Event e = of(EventType::Resize);
        e.width = width;
        e.height = height;
        return e;
    }
    static Event close() { return of(EventType::Close); }
    static Event of(EventType type) {
        Event e;
        e.type = type;
        return e;
    }
};

// A size in pixels (framebuffer) or window coordinates.
struct HostSize {
    int width = 0, height = 0;
};

// What the viewer asks of the window it runs in.
struct HostConfig {
    std::string title;
    int width = 1280, height = 720;  // window coordinates
    int glesMajor = 3;               // 2 or 3: an OpenGL ES major.0 context
    bool vsync = true;               // off for scripted runs, which step at a fixed rate
};

class Host {
public:
    virtual ~Host() = default;

    // Opens the window (or surface) with a current GLES `glesMajor`.0 context, loads the GLES entry
    // points through glad and installs gl::installCallCounter(). Returns false with `error` set to
    // one line when there is no display, no such context or no entry points; the destructor closes
    // whatever was opened.
    virtual bool open(const HostConfig& config, std::string& error) = 0;

    // The default framebuffer's size in pixels, and the window's in the coordinates of mouse events
    // (the two differ on high-density displays).
    virtual HostSize framebufferSize() const = 0;
    virtual HostSize windowSize() const = 0;
    // The display's interface scale (1 on a standard-density screen, 2 on a double-density one).
    virtual float contentScale() const = 0;
    // Whether the user has a touch screen attached: the panels are then sized for fingers unless
    // `set touch-ui off`.
    virtual bool touchScreen() const { return false; }

    // Appends what happened since the last call to `events`, oldest first (the host's ImGui backend
    // sees the same input). Called once at the start of every frame.
    virtual void pollEvents(std::vector<Event>& events) = 0;

    // The clipboard as UTF-8 (empty when it holds no text), and replacing it.
    virtual std::string clipboardText() = 0;
    virtual void setClipboardText(const std::string& text) = 0;

    // Seconds from an arbitrary start, never going back.
    virtual double time() const = 0;

    // Shows the frame drawn into framebuffer 0.
    virtual void swapBuffers() = 0;

    // Waits up to `seconds` for the host's next event (paused in the background, the viewer draws
    // nothing and need not spin); the default returns at once.
    virtual void waitEvents(double seconds) { (void)seconds; }

    // For tests: destroys the GLES context (and its surface) as a platform does to an app in the
    // background, makes a new one current with the same configuration and entry points, and queues a
    // ContextLost event for the next pollEvents. False with `error` set when the host cannot (the
    // default) or the new context cannot be made.
    virtual bool loseContext(std::string& error) {
        error = "this host cannot lose its context on request";
        return false;
    }

    // Dear ImGui's platform backend: init after ImGui::CreateContext (false when it cannot), new
    // frame before ImGui::NewFrame (display size, delta time, mouse, keys and text for the panels),
    // shutdown before ImGui::DestroyContext.
    virtual bool imguiInit() = 0;
    virtual void imguiNewFrame() = 0;
    virtual void imguiShutdown() = 0;
};

}  // namespace esv
