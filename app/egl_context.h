// A headless GLES context through EGL on Mesa (surfaceless platform, no display, no window).
// Rendering goes to an OffscreenTarget; the renderer itself knows nothing of EGL.
#pragma once

#include <string>

namespace esv {

// Sanitizer builds only: marks every library loaded so far (the driver and what it loaded) as never
// unloaded, so LeakSanitizer can name the driver frames of allocations the driver itself never
// frees (and tests/lsan.supp can suppress them by library), and so that no library with thread-local
// storage is unloaded under a thread whose storage LeakSanitizer scans at exit (its tracer crashes
// on such a thread). Called after a context is made and again before it is destroyed. Does nothing
// in other builds.
void keepGraphicsDriversLoaded();

class EglContext {
public:
    EglContext() = default;
    ~EglContext();
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

    // Creates a GLES `major`.0 context (2 or 3), makes it current without a surface and loads
    // the GLES entry points. Returns false with `error` set when EGL or the context is unavailable.
    // With a surface size, a pbuffer of that size (RGBA8, 24-bit depth) is current instead, so
    // framebuffer 0 exists (the headless viewer host draws there).
    bool create(int major, std::string& error, int surfaceWidth = 0, int surfaceHeight = 0);

private:
    void* m_display = nullptr;
    void* m_context = nullptr;
    void* m_surface = nullptr;
};

}  // namespace esv
