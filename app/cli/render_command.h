// `esview render`: draw a scene headless (EGL, no display) into an offscreen target and write a PNG.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/viewer/scene_source.h"
#include "renderer/view_settings.h"
#include "scene/cpu_reference.h"

namespace esv {

// One picture of a sequence: the animation frame it is drawn at (none: the request's time) and how
// far the orbit camera turns about the up axis from the view it frames (radians, added to its yaw).
struct RenderShot {
    std::optional<double> frame;
    float yawOffset = 0.0f;
};

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
    // The orbit camera to draw with instead of the first view (compare's camera, shared by two
    // scenes); ignored through a file camera.
    std::optional<OrbitCamera> orbit;
    // The pictures to draw, in order, each on every background; empty: one at `time`.
    std::vector<RenderShot> shots;
};

// What renderFrames drew: one RGBA8 picture (tightly packed rows, top row first) per background, for
// each shot in turn.
struct RenderedFrames {
    std::vector<std::vector<uint8_t>> rgba;
    OrbitCamera orbit;  // the orbit camera of the first shot (RenderRequest::orbit when given)
    unsigned drawCalls = 0, triangles = 0;
    // What the viewer's 3D view says of a scene that draws no mesh (noMeshText); empty otherwise.
    std::string noMeshNote;
};

// A scene opened for rendering: loaded with its textures, the time resolved and the request's
// camera and joint checked against it.
struct RenderScene {
    LoadResult loaded;
    ResolvedTime time;
    int weightBone = -1;
};

// Opens `request.file` for rendering; every problem is printed on stderr, one line each. Returns an
// ExitCode (1 when the input is bad).
int openRenderScene(const RenderRequest& request, RenderScene& opened);

// The box and points the first view frames on the scene `request` draws (sceneFraming over the
// clip drawn, or the rest pose alone without RenderRequest::frameClip); true when a mesh is drawn.
bool renderFraming(const RenderRequest& request, const Scene& scene, const ResolvedTime& time, Bounds& bounds,
                   std::vector<glm::vec3>& points, float* gizmoScale = nullptr);

// Prepares and draws the opened scene as `request` asks, as renderFrames does.
int renderOpened(const RenderRequest& request, const RenderScene& opened, RenderedFrames& out);

// Loads, prepares and draws `request` in a headless context into `out`, writing nothing; every
// problem is printed on stderr, one line each. Returns an ExitCode (1 when the input is bad or the
// context cannot be made).
int renderFrames(const RenderRequest& request, RenderedFrames& out);

// Renders as asked; returns an ExitCode (1 when the input is bad or the PNG cannot be written).
int runRender(const RenderRequest& request);

}  // namespace esv
