// The browser has no EGL: the headless context (egl_context.h) that `esview render` uses is not
// made there. Built instead of egl_context.cpp in the web build, so the viewer core links unchanged.
#include "app/hosts/egl_context.h"

namespace esv {

void keepGraphicsDriversLoaded() {}

EglContext::~EglContext() = default;

bool EglContext::create(int, std::string& error, int, int) {
    error = "no EGL in the browser";
    return false;
}

}  // namespace esv
