#include "app/hosts/egl_context.h"

#include <cstring>

#include <dlfcn.h>
#include <link.h>

#include <glad/egl.h>
#include <glad/gles2.h>

#include "renderer/gl_calls.h"

namespace esv {

namespace {

GLADapiproc loadGl(const char* name) { return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name)); }

EGLDisplay openDisplay() {
    EGLDisplay display = EGL_NO_DISPLAY;
    // Preferred: Mesa's surfaceless platform; it needs no display server and no device node.
    if (eglGetPlatformDisplayEXT)
        display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display == EGL_NO_DISPLAY && eglQueryDevicesEXT && eglGetPlatformDisplayEXT) {
        EGLDeviceEXT devices[8];
        EGLint count = 0;
        if (eglQueryDevicesEXT(8, devices, &count) && count > 0)
            display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
    }
    if (display == EGL_NO_DISPLAY) display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    return display;
}

}  // namespace

void keepGraphicsDriversLoaded() {
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void*) {
            const char* path = info->dlpi_name;
            // RTLD_NOLOAD: only objects already mapped; RTLD_NODELETE: later dlclose calls keep them.
            if (path && *path) dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
            return 0;
        },
        nullptr);
}

bool EglContext::create(int major, std::string& error, int surfaceWidth, int surfaceHeight) {
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
        error = "libEGL could not be loaded";
        return false;
    }
    EGLDisplay display = openDisplay();
    EGLint eglMajor = 0, eglMinor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &eglMajor, &eglMinor)) {
        error = "no EGL display could be initialised";
        return false;
    }
    m_display = display;
    // Reload with the display to get its extension entry points.
    gladLoaderLoadEGL(display);
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        error = "EGL cannot bind the OpenGL ES API";
        return false;
    }
    const EGLint renderable = major >= 3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_ES2_BIT;
    const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, renderable,
                                       EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                       EGL_DEPTH_SIZE, 24, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!eglChooseConfig(display, configAttributes, &config, 1, &configs) || configs < 1) {
        error = "no EGL config for an OpenGL ES " + std::to_string(major) + " pbuffer";
        return false;
    }
    const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
    if (context == EGL_NO_CONTEXT) {
        error = "eglCreateContext failed for OpenGL ES " + std::to_string(major);
        return false;
    }
    m_context = context;
    EGLSurface surface = EGL_NO_SURFACE;
    if (surfaceWidth > 0 && surfaceHeight > 0) {
        const EGLint surfaceAttributes[] = {EGL_WIDTH, surfaceWidth, EGL_HEIGHT, surfaceHeight, EGL_NONE};
        surface = eglCreatePbufferSurface(display, config, surfaceAttributes);
        if (surface == EGL_NO_SURFACE) {
            error = "no EGL pbuffer of " + std::to_string(surfaceWidth) + "x" + std::to_string(surfaceHeight);
            return false;
        }
        m_surface = surface;
    }
    if (!eglMakeCurrent(display, surface, surface, context)) {
        error = surface == EGL_NO_SURFACE ? "the context cannot be made current without a surface"
                                          : "the context cannot be made current on its pbuffer";
        return false;
    }
    if (!gladLoadGLES2(loadGl)) {
        error = "the GLES entry points could not be loaded";
        return false;
    }
    gl::installCallCounter();
    keepGraphicsDriversLoaded();
    return true;
}

EglContext::~EglContext() {
    if (!m_display) return;
    // What the driver loaded while drawing stays loaded too, past eglTerminate.
    keepGraphicsDriversLoaded();
    eglMakeCurrent(static_cast<EGLDisplay>(m_display), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (m_surface) eglDestroySurface(static_cast<EGLDisplay>(m_display), static_cast<EGLSurface>(m_surface));
    if (m_context) eglDestroyContext(static_cast<EGLDisplay>(m_display), static_cast<EGLContext>(m_context));
    eglTerminate(static_cast<EGLDisplay>(m_display));
}

}  // namespace esv
