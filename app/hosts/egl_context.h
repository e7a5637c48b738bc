// A headless GLES context through EGL on Mesa (surfaceless platform, no display, no window).
// Rendering goes to an OffscreenTarget; the renderer itself knows nothing of EGL.
#pragma once

#include <string>

namespace esv {

// Marks every library loaded so far (the driver and what it loaded) as never unloaded, so that
// eglTerminate leaves the driver mapped and the next context of the process reuses it. Called after
// a context is made and again before it is destroyed. A driver loaded anew for each context gets new
// thread-local storage each time, and on 32-bit ARM glibc's TLS descriptor resolver (Debian 12's
// glibc 2.36) does not keep r12 across its slow path, the call to __tls_get_addr that a newly loaded
// module's storage takes: the 33rd load of Mesa's swrast_dri.so in a process then passed a null
// once-flag to pthread_once and crashed (test_render on armhf, llvmpipe or softpipe). In sanitizer
// builds it also lets LeakSanitizer name the driver frames of allocations the driver itself never
// frees (tests/lsan.supp suppresses them by library), and no library with thread-local storage is
// unloaded under a thread whose storage LeakSanitizer scans at exit (its tracer crashes there).
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
