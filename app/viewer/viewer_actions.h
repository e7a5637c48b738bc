// What the panel, the keyboard, the mouse and scripts do to the viewer state. Each action is one
// function so every way of driving the viewer behaves the same.
#pragma once

#include <string>
#include <vector>

#include "app/viewer/viewer_state.h"

namespace esv {

// True for nodes that are skin joints or Bone nodes.
bool isJoint(const Scene& scene, int node);

// Node index by exact name, or by index when `name` is a number; -1 when none.
int findNode(const Scene& scene, const std::string& name);

// Selects `node` (-1 clears). Selecting a joint also shows its influences (view.influenceJoint) and
// makes it the Weights view's joint, switching to that view when s.weightsOnJointPick is set; every
// selection highlights the node in the viewport (view.highlightNode).
void selectNode(ViewerState& s, int node);

// The framebuffer rectangle the scene is drawn in: s.viewport, or the whole framebuffer before the
// first layout; while a second model is compared side by side (compare_view.h), the left half of it.
ViewportRect sceneViewport(const ViewerState& s);

// What the renderer draws over the scene this frame besides the scene itself (POF markers and
// shield, pofFrameAnnotations; the gizmos of a scene with no drawn mesh, sceneGizmos) into s.annotations, with s.view.annotations pointing at it, or null
// when there is nothing. Called each frame once the viewport is laid out, before the overlays and
// the draw.
void updateFrameAnnotations(ViewerState& s);

// The box framing fits, from each node's box (sceneBounds' perNode): their union without a ground
// under the subject, that is a node whose box is a thin horizontal slab (at most 2% as thick along
// the scene's up axis as it is wide), at least 2.5 times as wide as everything else in both
// horizontal directions (or 1.25 times and covering at least 8 times its footprint), and not above
// the bottom tenth of it. The whole union when nothing else
// is left.
Bounds framingBounds(const Scene& scene, const std::vector<Bounds>& perNode);

// What the viewer frames on `scene`: the rest pose and samples over `clip` (-1: none), so the
// animated scene stays in view while it plays, as the POF view `pof` draws them (one detail level,
// no debris unless shown), without a ground under the subject (framingBounds). `bounds` is the box
// of it all; `points` are vertices spread over it (up to about 16384 a pose), which framePoints
// fits. Returns true when a mesh is drawn in one of those poses. When none is, the scene's gizmos
// (sceneGizmos in those poses, gizmoSize of the rest pose across, which `gizmoScale` receives when
// given) stand in: `points` are their vertices and `bounds` holds them and the nodes' origins (the
// origin when there is none), and false is returned.
bool sceneFraming(const Scene& scene, int clip, const PofViewState& pof, Bounds& bounds,
                  std::vector<glm::vec3>& points, float* gizmoScale = nullptr);

// The direction from the model toward the eye of the file's first camera (in node order) at rest:
// the +Z axis of its view; false when the file has no camera.
bool fileCameraDirection(const Scene& scene, glm::vec3& toEye);

// The first view of `scene` framed: the default field of view; the direction of the file's first
// camera (fileCameraDirection, its pitch kept within kFileCameraPitch of level) when it has one,
// so the model is seen from the side its author looked at it from, else firstView from
// Scene::front (a three-quarter front view following the format's up axis); then framePoints (or
// frameBounds without points) on sceneFraming's result for a view of `aspect` (w/h). What the
// viewer shows of a newly opened file in its 3D view, and what `esview render` draws by default in
// its whole image.
inline constexpr float kFileCameraPitch = 1.2f;
void frameFirstView(OrbitCamera& orbit, const Scene& scene, const Bounds& bounds,
                    const std::vector<glm::vec3>& points, float aspect);

// Orbit camera: fit the whole scene (all clip samples, framingBounds), the selected node, or the
// format's first view (firstView with Scene::front: a three-quarter front view), into the 3D view
// (sceneViewport) at its aspect. Frame scene keeps the camera's angles. While a second model is
// compared (compare_view.h) the scene and reset views fit its framing too.
void frameScene(ViewerState& s);
// frameScene while the orbit camera is still where the last framing put it (a second model opened
// or closed beside the scene); a camera the user moved, or a file camera looked through, stays.
void reframeIfUntouched(ViewerState& s);
void frameSelection(ViewerState& s);
void resetView(ViewerState& s);

// Called once a frame with the 3D view's rectangle of that frame: records it, and frames the scene
// again when its shape changed while the orbit camera is still where the last framing put it (the
// start-up view waits for the panels to be laid out, and follows the window while untouched).
void updateViewport(ViewerState& s, const ViewportRect& viewport);

// Plays clip `clip` (-1: the rest pose) from its start (selectClip), as the panel's combo and the
// script's `clip` do: the framing box covers its samples from now on (sceneFraming), and while the
// orbit camera is still where the last framing put it the scene is framed again for it (frameScene);
// a camera the user moved, or a file camera looked through, stays.
void switchClip(ViewerState& s, int clip);

// Opens panel `id` and brings its tab to the front of the region it is drawn in (the right one for
// a bottom panel while the bottom region folds).
void showPanel(ViewerState& s, PanelId id);
// The selected tab of docked region `r` as this frame's layout draws it: the region's own, or for the
// right region while the bottom folds, the bottom's when that is in front (ViewerState::foldedFront).
PanelId frontTab(const ViewerState& s, Region r);

// Morph weight override of `target` of mesh node `node`; NaN returns it to the animation.
void setMorphOverride(ViewerState& s, int node, int target, float weight);
void clearMorphOverrides(ViewerState& s);

// Evaluates the transport at its time into s.pose and applies the morph overrides.
void updatePose(ViewerState& s);

// Uploads a freshly loaded scene (`prepared` for s.renderer from `loaded`) and makes it current:
// keeps camera, view settings, clip (by name), time and selection (by name) when `keepView`
// (reload), else shows it from its first view (resetView) and starts the first clip. Counts a load. When the
// upload fails the previous scene stays (re-uploaded) and `error` says why.
bool installScene(ViewerState& s, std::shared_ptr<const Scene> loaded, std::unique_ptr<Scene> prepared,
                  const std::string& path, bool keepView, std::string& error);

// Prepares the scene as loaded again for s.renderer (after a new renderer: ES2 limits on or off)
// and installs it keeping the view, without reading the file again (no load is counted).
bool reprepareScene(ViewerState& s, std::string& error);

// Hides (mutes) and solos bones (ViewerState::boneMask, maskBoneWeights): the scene is prepared
// again from the scene as loaded with the mask's weights and installed keeping the view. False with
// `error` set, and the mask as it was, when a node is no joint or the upload fails.
bool setBoneMask(ViewerState& s, const BoneMask& mask, std::string& error);

// The GL texture object the renderer made for scene texture `index` (0 when none), for thumbnails.
unsigned textureObject(const ViewerState& s, int index);

// Viewport picking at framebuffer pixel (x, y) of the window, y down: the joint whose marker is within
// `radiusPx` (when the skeleton is shown) or else the nearest mesh node hit by the ray; -1 = none, and
// for a pixel outside sceneViewport (B's half of a side-by-side comparison).
int pickAt(const ViewerState& s, float x, float y, float radiusPx = 8.0f);
// The skeleton's joint nearest framebuffer pixel (x, y) within `radiusPx` (for hovering and
// picking joints); -1 = none.
int jointAt(const ViewerState& s, float x, float y, float radiusPx = 8.0f);

// The scene whose vertex numbers and influences are the file's: the scene as loaded where it has the
// prepared scene's nodes (the preparation may re-batch and duplicate vertices, never nodes), else the
// prepared scene.
const Scene& fileScene(const ViewerState& s);

// The skinned vertex nearest framebuffer pixel (x, y) within `radiusPx` that no surface hides, as
// the CPU skinning path places it at the current pose (what is drawn), in fileScene's vertex
// numbering: false when there is none.
bool skinnedVertexAt(const ViewerState& s, float x, float y, float radiusPx, int& node, uint32_t& vertex);

// Shows vertex `vertex` of skinned mesh instance `node` (fileScene's numbering) as the picked
// vertex (ViewerState::pickedVertex). False with `error` set, and nothing changed, when the node is
// no skinned mesh instance or has no such vertex.
bool pickVertex(ViewerState& s, int node, uint32_t vertex, std::string& error);
void clearPickedVertex(ViewerState& s);

// The bone batches that hold joint node `joint` (jointBatches on the drawn scene), as one line:
// "batches 0, 2 of Body; the whole skin of Head" (a mesh without batches draws its skin as one
// palette); empty when no skinned mesh instance names the joint.
std::string jointBatchText(const Scene& scene, int joint);

// The picked vertex as lines of text (the 3D view's box beside it and the inspector): which vertex of
// which node, the bone batches that draw it, then per stored influence slot its bone index as stored,
// the joint node it names ("-" for none) and its weight as stored ("-" when the file stores fewer
// weights than indices). Empty when no vertex is picked.
std::vector<std::string> pickedVertexLines(const ViewerState& s);

// POF scenes (Scene::pof). setPofLod draws detail level `lod` (its root and descendants) and hides
// the other levels; setPofSpin rotates a rotating subobject (scene node) by `degrees` about its
// movement axis. Both return false with `error` set when the scene is not POF or the argument is out
// of range, and change nothing then.
bool setPofLod(ViewerState& s, int lod, std::string& error);
bool setPofSpin(ViewerState& s, int node, float degrees, std::string& error);
// Scene node of the POF subobject named `text`, else numbered `text`; -1 when none.
int findPofSubobject(const Scene& scene, const std::string& text);

// The POF marker within `radiusPx` of framebuffer pixel (x, y) (y down), nearest first; -1 = none.
int pofMarkerAt(const ViewerState& s, const std::vector<PofMarker>& markers, float x, float y,
                float radiusPx = 6.0f);

// True when a drawn mesh lies between the camera and world point `world` (a POF marker drawn
// depth-tested is hidden there).
bool hiddenBySurface(const ViewerState& s, const glm::vec3& world);

// Projects a world point to framebuffer pixels of the window (y down, through the 3D view's
// rectangle); false when behind the camera.
bool projectToScreen(const ViewerState& s, const glm::vec3& world, glm::vec2& pixel);

// The screen box of world box `box` with the current camera: the smallest rectangle holding its eight
// corners projected (projectToScreen, framebuffer pixels, y down) in `min` and `max`. False when the
// box is empty or a corner is behind the camera.
bool projectBox(const ViewerState& s, const Bounds& box, glm::vec2& min, glm::vec2& max);

}  // namespace esv
