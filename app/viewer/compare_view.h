// File → Compare with…: a second model (B) beside the open one (A), the viewer's side of `esview
// compare`. B is loaded on a worker like A and drawn by a renderer of its own in the same GL context,
// through the same orbit camera (in B's up axis), at A's time (the clip of the same name, else of the
// same index, else the rest pose), with the node of the same name as A's selection highlighted. Three
// modes: split (one view, A left of a divider the mouse drags and B right of it), side by side (the 3D
// view halved) and difference (both drawn offscreen at the view's size and judged by the golden rule,
// golden_rule.h: the picture `esview compare -o` writes, and its figures). This file holds the state
// and the GL-free logic; the frame loop draws.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/viewer/golden_rule.h"
#include "app/viewer/pof_view.h"
#include "app/viewer/transport.h"
#include "renderer/renderer.h"
#include "renderer/view_settings.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

struct ViewerState;
struct ViewportRect;

enum class CompareMode { Split, Side, Difference, Count };
// "split", "side", "diff": as the script's `compare-mode` spells them.
const char* compareModeName(CompareMode mode);
bool parseCompareMode(const std::string& name, CompareMode& mode);

// The difference view's judgement of B's picture against A's (golden::compareImages with the golden
// rule's tolerance): model pixels are those either picture covers.
struct CompareFigures {
    bool valid = false;  // false until the difference view has been drawn at least once
    int width = 0, height = 0;  // the pictures' size (the 3D view's)
    size_t modelPixels = 0, pixelsOff = 0;
    double shareOff = 0.0;        // of the model pixels, off by more than the tolerance
    double meanDifference = 0.0;  // levels, worst channel of the model's mean colour
    int maxDifference = 0;
    bool alike = false;  // meets the golden rule (as `esview compare` exits 0)
};

struct CompareView {
    // B as opened: its path (empty while nothing is compared), as loaded and prepared for `renderer`.
    std::string path;
    int64_t fileStamp = 0;  // of `path` when loaded: B is loaded again when it changes (as A is)
    int loads = 0;          // loads of B installed (opens and reloads)
    std::shared_ptr<const Scene> loaded;
    std::unique_ptr<Scene> scene;
    std::unique_ptr<Renderer> renderer;
    // B at A's time (updateComparePose): its transport follows A's, its clip matched to A's.
    Transport transport;
    Pose pose, scratchPose;
    PofViewState pof;  // a POF B draws its first detail level
    ViewSettings view;  // A's view settings as B is drawn with them (compareViewSettings)
    int selected = -1;  // B's node of the name of A's selection; -1 when none
    // B's framing (sceneFraming over its clip matching A's, in A's axes), which A's framing takes in.
    Bounds bounds;
    std::vector<glm::vec3> framingPoints;
    CompareMode mode = CompareMode::Split;
    float divider = 0.5f;  // split: where the divider stands across the 3D view, 0 (left) .. 1 (right)
    bool draggingDivider = false;
    // The load of B in flight (its path) and the last one's error (one line; empty: none).
    bool loading = false;
    std::string loadingPath;
    std::string error;
    // Requests the frame loop carries out between frames: open B (a path), close it.
    std::string requestOpen;
    bool requestClose = false;
    // The file browser opens the next model clicked as B (File → Compare with…), not as A.
    bool pickInBrowser = false;
    CompareFigures figures;
    // The difference picture as a GL texture for the 3D view (0: none yet), owned by the frame loop.
    unsigned diffTexture = 0;
    // What the picture in it was drawn from (a hash, see drawDifference) and when (host seconds).
    uint64_t diffKey = 0;
    double diffDrawn = 0.0;
    int diffDraws = 0;  // pictures drawn so far

    bool active() const { return scene != nullptr; }
};

// Point `p` of scene `from` in the axes of scene `to`, through the Y-up display axes both are seen
// in: a Z-up scene's (x, y, z) is (x, z, -y) there, as `convert` turns it (scene/up_axis.h). So a
// Z-up source and its Y-up conversion share one camera.
glm::vec3 intoAxesOf(const Scene& to, const Scene& from, const glm::vec3& p);
// Box `b` of scene `from` in the axes of scene `to`: the box of its corners there.
Bounds boundsIntoAxesOf(const Scene& to, const Scene& from, const Bounds& b);
// Orbit camera `ofA` of scene `a` as the same view of the display axes in scene `b`'s axes.
OrbitCamera orbitIntoAxesOf(const OrbitCamera& ofA, const Scene& a, const Scene& b);

// B's clip for A's clip `clipA`: the clip of B with the same name, else the one of the same index,
// else -1 (the rest pose). -1 for -1.
int matchingClip(const Scene& a, int clipA, const Scene& b);

// Makes B (s.compare.scene) follow A: its transport at A's time in the matching clip (the blend clip
// too), its pose evaluated, the node named as A's selected one selected (exact name; -1 when A has
// none or B has no such node), and the view settings B is drawn with (compareViewSettings). Call
// each frame after A's pose. Nothing without a B.
void updateCompare(ViewerState& s);

// A's view settings for drawing B: the orbit camera in B's axes, A's file camera's index when B has
// that camera (else the orbit), B's selected node highlighted (and its influences shown when it is a
// joint), no annotations (A's POF markers and gizmos are A's).
ViewSettings compareViewSettings(const ViewerState& s);

// The rectangles (framebuffer pixels, y down, as ViewportRect) where A and B are drawn in the 3D view
// `view`: split: both the whole view (the divider's scissor parts them, splitColumn); side by side:
// the left and the right half (one width: an odd view's last column is left clear); difference:
// both the whole view.
void compareRects(CompareMode mode, const ViewportRect& view, ViewportRect& a, ViewportRect& b);
// Split: the first framebuffer column of B's part of `view` at divider position `divider` (0..1).
int splitColumn(const ViewportRect& view, float divider);

// Judges picture `b` against picture `a` (one size) by the golden rule into figures, and gives the
// difference picture `esview compare -o` writes (golden::differenceImage) in `diff`.
CompareFigures judgePictures(const golden::Image& a, const golden::Image& b, golden::Image& diff);

// One line for the 3D view and the status bar: "B: 1.23% of 4567 model pixels off, mean difference
// 0.45 levels: alike" (or "different"); empty before the figures are valid.
std::string compareFiguresText(const CompareFigures& f);

// Installs a finished load of B: uploads `prepared` to B's renderer (made first when there is none,
// with A's renderer's options) and makes it B, with its framing (CompareView::bounds). On failure B
// stays as it was and `error` says why.
bool installCompare(ViewerState& s, std::shared_ptr<const Scene> loaded, std::unique_ptr<Scene> prepared,
                    const std::string& path, const RendererOptions& options, std::string& error);

// Closes B: its scene and renderer go (while the context is current), the mode and divider stay.
// The difference texture is the frame loop's to delete.
void closeCompare(ViewerState& s);

}  // namespace esv
