// The device host: an SDL2 window with a GLES context (EGL), SDL's input turned into the viewer's
// events exactly as the GLFW host turns GLFW's (one key table, host_keys.h), touch turned into mouse
// events by TouchGestures, and Dear ImGui's SDL backend for the panels. SDL picks its video back end
// at run time (SDL_VIDEODRIVER: x11, wayland, kmsdrm, offscreen; Android's own), so the same viewer
// runs in a desktop window, full screen on a board with no windowing system, and with no display at
// all. The only file of the viewer that includes SDL is sdl_host.cpp.
#pragma once

#include <string>
#include <vector>

#include "app/viewer/host.h"
#include "app/viewer/touch_gestures.h"
#include "app/viewer/touch_pointer.h"

struct SDL_Window;

namespace esv {

// The display's interface scale from what SDL reports: a window whose drawable is larger than the
// window (a high-density surface: Wayland's output scale, Android, macOS) scales by that ratio;
// otherwise the display's dots per inch over `referenceDpi` (96 on desktops, 160 on Android), in
// quarter steps and at least 1; 1 when `dpi` is 0 (SDL could not say).
float sdlContentScale(HostSize window, HostSize drawable, float dpi, float referenceDpi);

class SdlHost final : public Host {
public:
    SdlHost() = default;
    ~SdlHost() override;
    SdlHost(const SdlHost&) = delete;
    SdlHost& operator=(const SdlHost&) = delete;

    // Errors: "no display for the SDL host (DRIVER): SDL's reason" when SDL's video cannot start (DRIVER
    // is $SDL_VIDEODRIVER; a run with it unset refuses SDL's fallback to its offscreen driver, as a
    // window that nobody sees could not be closed), "cannot create a GLES M.0 window|context with SDL
    // (DRIVER): ...", "cannot load the GLES entry points".
    bool open(const HostConfig& config, std::string& error) override;
    HostSize framebufferSize() const override;
    HostSize windowSize() const override;
    // sdlContentScale of this window.
    float contentScale() const override;
    bool touchScreen() const override;
    void pollEvents(std::vector<Event>& events) override;
    std::string clipboardText() override;
    void setClipboardText(const std::string& text) override;
    double time() const override;
    void swapBuffers() override;
    // SDL_WaitEventTimeout: a paused viewer sleeps until something happens.
    void waitEvents(double seconds) override;
    // Deletes the context and makes a new one on the same window (the window's EGL surface stays).
    bool loseContext(std::string& error) override;
    // The panels get SDL's mouse, keys and text through ImGui's SDL backend; touch lays its pointer,
    // buttons and wheel over them.
    bool imguiInit() override;
    void imguiNewFrame() override;
    void imguiShutdown() override;

private:
    // A new GLES context on the window, current, with the swap interval and the entry points loaded.
    bool makeContext(std::string& error);
    // After the app returns to the foreground or SDL reports a render device reset: a context SDL made
    // in place of ours (Android's SDL does so when its EGL context did not survive) is adopted, one
    // that can no longer be made current is replaced; either way a ContextLost event follows.
    void checkContext(std::vector<Event>& events);

    bool m_initialized = false;  // SDL_Init succeeded
    SDL_Window* m_window = nullptr;
    void* m_context = nullptr;  // SDL_GLContext
    int m_glesMajor = 3;
    bool m_vsync = true;
    bool m_background = false;  // between SDL's will-enter-background and did-enter-foreground
    bool m_imgui = false;
    uint64_t m_start = 0;                // SDL_GetPerformanceCounter at open
    std::vector<Event> m_pending;        // events of open(), for the first poll
    std::vector<std::string> m_dropped;  // paths of a drop not yet complete
    TouchGestures m_touch;
    bool m_screenKeyboard = false;  // text input started for a focused text field (screen keyboards)
    TouchPointer m_touchPointer;    // what touch leaves for the panels
};

}  // namespace esv
