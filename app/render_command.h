// `esview render`: draw a scene headless (EGL, no display) into an offscreen target and write a PNG.
#pragma once

#include <string>
#include <vector>

#include "app/scene_source.h"
#include "renderer/view_settings.h"

namespace esv {

struct RenderRequest {
    std::string file;
    std::string output;
    int width = 800, height = 600;
    TimeSelection time;
    int camera = -1;
    ViewMode mode = ViewMode::Shaded;
    bool gles2 = false;
    bool gles2Strict = false;  // the strict ES 2.0 device profile (implies gles2)
    bool skeleton = false;
    int weightBone = -1;
    bool normalLines = false;
    bool tangentLines = false;
    Lighting lighting = kDefaultLighting;  // the viewer's default
    MissingTexture missingTexture = kDefaultMissingTexture;
    std::vector<std::string> texturePaths;  // folders searched for textures after the model's own
};

// Renders as asked; returns an ExitCode (1 when the input is bad or the PNG cannot be written).
int runRender(const RenderRequest& request);

// Writes tightly packed RGBA8 rows (top row first) as a PNG. Returns false on I/O failure.
bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace esv
