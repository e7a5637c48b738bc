// The interactive viewer: a GLFW window with a GLES context (through EGL), the renderer and the
// Dear ImGui panel.
#pragma once

#include <string>

namespace esv {

struct ViewerOptions {
    std::string file = "demo";
    int width = 1280, height = 720;
    // Test hooks: close after this many frames (0 = run until closed) and save the last frame.
    int maxFrames = 0;
    std::string screenshot;
    bool gles2 = false;
};

// Opens the window and runs until it is closed. Returns an ExitCode; 1 with one line on stderr when
// the file cannot be opened or no window can be created (for example without a display).
int runViewer(const ViewerOptions& options);
inline int runViewer(const std::string& file) {
    ViewerOptions options;
    options.file = file;
    return runViewer(options);
}

}  // namespace esv
