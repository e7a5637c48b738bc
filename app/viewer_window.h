// The interactive viewer: a GLFW window with a GLES context (through EGL), the renderer and the
// Dear ImGui panels, driven by mouse, keyboard, dropped files and scripts.
#pragma once

#include <string>

namespace esv {

struct ViewerOptions {
    std::string file = "demo";
    int width = 1280, height = 720;
    // Close after this many frames (0 = run until closed or a script quits) and save the last frame.
    int maxFrames = 0;
    std::string screenshot;
    // Commands to run between frames (see viewer_script.h); the script is checked before the window opens.
    std::string script;
    bool gles2 = false;
};

// Opens the window and runs until it is closed. Returns an ExitCode: 1 with one line on stderr when
// the first file cannot be opened, no window can be created (for example without a display), or a
// script fails (the line and why).
int runViewer(const ViewerOptions& options);

}  // namespace esv
