// What the panel, the keyboard, the mouse and scripts do to the viewer state. Each action is one
// function so every way of driving the viewer behaves the same.
#pragma once

#include <string>
#include <vector>

#include "app/viewer_state.h"

namespace esv {

// True for nodes that are skin joints or Bone nodes.
bool isJoint(const Scene& scene, int node);

// Node index by exact name, or by index when `name` is a number; -1 when none.
int findNode(const Scene& scene, const std::string& name);

// Selects `node` (-1 clears). Selecting a joint also shows its influences (view.influenceJoint);
// every selection highlights the node in the viewport (view.highlightNode).
void selectNode(ViewerState& s, int node);

// Orbit camera: fit the whole scene (all clip samples), the selected node, or the default angle,
// into the part of the window no panel covers (s.viewRegion) at the window's aspect.
void frameScene(ViewerState& s);
void frameSelection(ViewerState& s);
void resetView(ViewerState& s);

// An axis-aligned rectangle in window pixels from the top left.
struct PixelRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
// The largest rectangle of the width x height window that none of `covered` overlaps, as
// fractions of the window (ViewRegion). Rectangles are clipped to the window; the whole window
// when nothing covers it; when panels leave less than a tenth of the width or height free, the
// whole window too (a model framed into a sliver is no use).
ViewRegion uncoveredRegion(const std::vector<PixelRect>& covered, float width, float height);

// Called once a frame with the panels' rectangles of that frame: updates s.viewRegion, and frames
// the scene again when the window's shape or the free region changed while the orbit camera is
// still where the last framing put it (the start-up view waits for the panels to be laid out).
void updateViewRegion(ViewerState& s, const std::vector<PixelRect>& covered, float width, float height);

// Morph weight override of `target` of mesh node `node`; NaN returns it to the animation.
void setMorphOverride(ViewerState& s, int node, int target, float weight);
void clearMorphOverrides(ViewerState& s);

// Evaluates the transport at its time into s.pose and applies the morph overrides.
void updatePose(ViewerState& s);

// Uploads a freshly loaded scene (`prepared` for s.renderer from `loaded`) and makes it current:
// keeps camera, view settings, clip (by name), time and selection (by name) when `keepView`
// (reload), else frames it and starts the first clip. Counts a load. When the upload fails the
// previous scene stays (re-uploaded) and `error` says why.
bool installScene(ViewerState& s, std::shared_ptr<const Scene> loaded, std::unique_ptr<Scene> prepared,
                  const std::string& path, bool keepView, std::string& error);

// Prepares the scene as loaded again for s.renderer (after a new renderer: ES2 limits on or off)
// and installs it keeping the view, without reading the file again (no load is counted).
bool reprepareScene(ViewerState& s, std::string& error);

// The GL texture object the renderer made for scene texture `index` (0 when none), for thumbnails.
unsigned textureObject(const ViewerState& s, int index);

// Viewport picking at framebuffer pixel (x, y), y down: the joint whose marker is within
// `radiusPx` (when the skeleton is shown) or else the nearest mesh node hit by the ray; -1 = none.
int pickAt(const ViewerState& s, float x, float y, float radiusPx = 8.0f);

// POF scenes (Scene::pof). setPofLod draws detail level `lod` (its root and descendants) and hides
// the other levels; setPofSpin rotates a rotating subobject (scene node) by `degrees` about its
// movement axis. Both return false with `error` set when the scene is not POF or the argument is out
// of range, and change nothing then.
bool setPofLod(ViewerState& s, int lod, std::string& error);
bool setPofSpin(ViewerState& s, int node, float degrees, std::string& error);
// Scene node of the POF subobject named `text`, else numbered `text`; -1 when none.
int findPofSubobject(const Scene& scene, const std::string& text);

// The POF marker within `radiusPx` of framebuffer pixel (x, y) (y down), nearest first; -1 = none.
int pofMarkerAt(const ViewerState& s, const std::vector<PofMarker>& markers, float x, float y, float radiusPx = 6.0f);

// Projects a world point to framebuffer pixels (y down); false when behind the camera.
bool projectToScreen(const ViewerState& s, const glm::vec3& world, glm::vec2& pixel);

}  // namespace esv
