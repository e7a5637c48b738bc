// The interactive viewer's frame loop, independent of the window it runs in: the renderer and the
// Dear ImGui panels over a Host (host.h), driven by the host's input events (mouse, keyboard,
// dropped files) and by scripts; loading, hot reload and screenshots.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/viewer/exit_code.h"

namespace esv {

class Host;
struct ViewerState;

struct ViewerOptions {
    std::string file = "demo";
    int width = 1280, height = 720;
    // Close after this many frames (0 = run until closed or a script quits) and save the last frame.
    int maxFrames = 0;
    std::string screenshot;
    // Commands to run between frames (see viewer_script.h); the script is checked before the window opens.
    std::string script;
    bool gles2 = false;
    bool gles2Strict = false;  // the strict ES 2.0 device profile (implies gles2): device strict-es2
    std::string device;        // a device profile (target/device_profiles.h) the renderer holds to
    // Folders searched for textures after a model's own (--texture-path), before the remembered ones.
    std::vector<std::string> texturePaths;
};

// The viewer frame by frame, for hosts that own the main loop (a browser calls back once a frame)
// and for tests that look at the state between frames.
class ViewerLoop {
public:
    ViewerLoop();
    ~ViewerLoop();  // finish() if it was not called
    ViewerLoop(const ViewerLoop&) = delete;
    ViewerLoop& operator=(const ViewerLoop&) = delete;

    // Checks the script, opens the host (the window and its GLES context), creates the renderer and
    // the panels and starts loading `options.file`. Returns kExitOk, or an ExitCode with one line on
    // stderr when the script is invalid, the host cannot open or there is no renderer. `host` must
    // outlive this object.
    int start(Host& host, const ViewerOptions& options);

    // One frame: the host's events, loads, input, the script's commands, drawing, a screenshot,
    // swapping. Between the host's Pause and Resume events a frame only takes events (and waits for
    // them, unscripted): nothing is drawn and the animation does not advance, so it goes on where it
    // stopped. After a ContextLost event every GL object the viewer held (renderer, panels) is
    // dropped without a GL call and made again on the new context from the scene in memory.
    // Returns false when the viewer is done: closed, quit or the last of `maxFrames`; then
    // call finish(). A file that cannot be opened does not end the run: the window shows why (the
    // load error banner), and so does stderr when it is the file named in the options.
    bool frame();

    // Waits for a load still running, then shuts the panels and the renderer down while the context
    // is current. Returns the run's ExitCode: 1 when the file named in the options could not be
    // opened (whatever was opened after it), a script failed (the line and why on stderr) or a
    // scripted screenshot could not be written.
    int finish();

    // Runs script commands (viewer_script.h) from the next frame on, as `options.script` does; a
    // host that takes commands while it runs (the browser page) calls it. False with `error` set
    // when the text does not parse or an earlier script is still running.
    bool runScript(const std::string& text, std::string& error);

    // What the viewer shows (valid after start).
    ViewerState& state();

private:
    // The end of a frame, drawn or not: a context loss a script asked for, and whether it was the last.
    void finishFrame(bool lastFrame);
    // After a context loss: drops the renderer's and the panels' GL objects without a GL call
    // (state().context counts it), and makes them again on the new context before the next drawn frame.
    void dropGlObjects();
    bool restoreGlObjects();

    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// start, frame until done, finish: the ExitCode of the run.
int runViewer(Host& host, const ViewerOptions& options);

}  // namespace esv
