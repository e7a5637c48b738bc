// What the headless viewer tests share: a clean output folder that also holds the viewer's
// configuration, running frames until a file is shown, and reading a file back.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/viewer/exit_code.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/test_paths.h"

namespace esv::test {

// outputDir()/<prefix><name>, emptied; the recent-files list, the layout and the texture folders
// go there too ($ESVIEW_CONFIG_DIR), not to the user's configuration.
inline std::filesystem::path viewerWorkDir(const std::string& prefix, const std::string& name) {
    const std::filesystem::path dir = outputDir() / (prefix + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    setenv("ESVIEW_CONFIG_DIR", dir.c_str(), 1);
    return dir;
}

// Runs frames until a scene is shown and no load or reload is pending (at most `limit` frames).
inline bool frameUntilLoaded(ViewerLoop& viewer, int limit = 2000) {
    for (int i = 0; i < limit; ++i) {
        if (!viewer.frame()) return false;
        const ViewerState& s = viewer.state();
        if (s.scene && !s.load.active && s.requestOpen.empty() && !s.requestReload) return true;
    }
    return false;
}

// Starts `viewer` on `host` with `options`, runs frames until the file is shown, pauses at time 0
// and draws three more frames: where the session tests begin. False when the viewer did not start
// or the file was not shown.
template <class Host>
bool startPausedAtZero(ViewerLoop& viewer, Host& host, const ViewerOptions& options) {
    if (viewer.start(host, options) != kExitOk || !frameUntilLoaded(viewer)) return false;
    ViewerState& s = viewer.state();
    s.transport.playing = false;
    seekTransport(*s.scene, s.transport, 0.0f);
    for (int i = 0; i < 3; ++i) viewer.frame();
    return true;
}

// The whole file as bytes; empty when it cannot be read.
inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Fraction of the pixels in the box [x0, x1) x [y0, y1) that are reddish (the load error banner's
// background).
inline double reddishFraction(const Image& image, int x0, int y0, int x1, int y1) {
    size_t red = 0, total = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x, ++total) {
            const uint8_t* p = &image.rgba[(size_t(y) * image.width + x) * 4];
            red += p[0] > 60 && p[0] > 2 * p[1] && p[0] > 2 * p[2];
        }
    return total ? double(red) / double(total) : 0.0;
}

}  // namespace esv::test
