// `esview render`: draw a scene headless (EGL, no display) into an offscreen target and write a PNG.
#pragma once

#include <string>
#include <vector>

#include "app/viewer/scene_source.h"
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
    bool gles2Strict = false;  // the strict ES 2.0 device profile (implies gles2): device strict-es2
    std::string device;        // a device profile (target/device_profiles.h) the renderer holds to
    bool skeleton = false;
    std::string weightBone;  // a joint's node name or index; empty: each vertex's strongest weight
    bool normalLines = false;
    bool tangentLines = false;
    Lighting lighting = kDefaultLighting;  // the viewer's default
    MissingTexture missingTexture = kDefaultMissingTexture;
    std::vector<std::string> texturePaths;  // folders searched for textures after the model's own
    // The framing fits the rest pose and samples over the clip drawn, as the viewer's does; false:
    // the rest pose alone (a thumbnail, drawn at rest, framed tightly on it).
    bool frameClip = true;
    // The frame is drawn once on each of these backgrounds, one picture each (a thumbnail's two
    // give it a transparent background); empty: once on the viewer's.
    std::vector<glm::vec4> clearColors;
    // A scene that draws no mesh shows its lights, cameras and empty nodes as gizmos (sceneGizmos),
    // as the viewer does; false: nothing (a thumbnail, which has nothing to show then).
    bool gizmos = true;
};

// What renderFrames drew: one RGBA8 picture (tightly packed rows, top row first) per background.
struct RenderedFrames {
    std::vector<std::vector<uint8_t>> rgba;
    unsigned drawCalls = 0, triangles = 0;
    // What the viewer's 3D view says of a scene that draws no mesh (noMeshText); empty otherwise.
    std::string noMeshNote;
};

// Loads, prepares and draws `request` in a headless context into `out`, writing nothing; every
// problem is printed on stderr, one line each. Returns an ExitCode (1 when the input is bad or the
// context cannot be made).
int renderFrames(const RenderRequest& request, RenderedFrames& out);

// Renders as asked; returns an ExitCode (1 when the input is bad or the PNG cannot be written).
int runRender(const RenderRequest& request);

}  // namespace esv
