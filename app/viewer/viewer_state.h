// Everything the viewer window shows and edits, in one plain struct: the open document, the
// renderer, view settings, transport, selection, panels and pending requests. The ImGui panels,
// the keyboard and mouse, and scripts all read and edit this state (through viewer_actions.h for
// anything with side effects), so a script can do whatever a person can do with the panel.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/viewer/compare_view.h"
#include "app/viewer/layout.h"
#include "app/viewer/pof_view.h"
#include "app/viewer/transport.h"
#include "app/viewer/ui_font.h"
#include "renderer/renderer.h"
#include "renderer/view_settings.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/scene.h"
#include "scene/skin_analysis.h"

namespace esv {

class SceneLoader;
struct CostReport;  // cost/cost_report.h

struct Selection {
    int node = -1;      // any node
    int joint = -1;     // a skin joint or bone node whose influences are shown (-1: none)
    int material = -1;  // inspector focus when picked from a list
    int texture = -1;
    int textureLayer = 0;  // the array layer of `texture` the inspector shows (KTX arrays)
    int textureFace = 0;   // the cube map face of `texture` the inspector shows (+X, -X, +Y, -Y, +Z, -Z)
    int light = -1;
};

// The inspector's picture of a later array layer (Image::layerSurfaces) or of a cube map's face (a
// cube map object cannot be drawn through ImGui's 2D binding): the frame loop decodes the selected
// texture's layer or face and uploads it as RGBA8 to `object` before the panels are drawn, again
// only when the selection, the layer, the face or the scene changes.
struct LayerPreview {
    int texture = -1, layer = 0, face = 0;
    const Scene* scene = nullptr;
    int loads = -1;       // ViewerState::loadsCompleted when it was made
    unsigned object = 0;  // GL texture (0: none)
    std::string error;    // why the layer could not be decoded
};

// State of the load in flight (or the last one's error).
struct LoadStatus {
    bool active = false;
    std::string path;
    float progress = 0.0f;  // 0..1
    std::string stage;      // "reading", "parsing", "textures 3/12", ...
    // The last failed load, or a drop that opened nothing (one line), shown until the next load
    // starts; empty = none.
    std::string error;
};

// How long the last load that was installed took, in wall-clock milliseconds: reading and parsing
// the file, reading its textures and preparing it (on the loader's worker), and the GL upload.
struct LoadTimes {
    double readMs = 0.0, texturesMs = 0.0, prepareMs = 0.0, uploadMs = 0.0;
    double totalMs() const { return readMs + texturesMs + prepareMs + uploadMs; }
};

// The Cost panel (panels/cost_panel.cpp): the device it measures the scene against and its report
// on the scene as loaded, made again when the scene or the device changes (updateCostView), not
// every frame. Not in a build without the cost library (the browser's): `report` stays null.
struct CostView {
    std::string device;  // chosen in the panel or by `set cost-device`; empty: costDeviceName's default
    std::shared_ptr<const CostReport> report;
    int loads = -1;            // ViewerState::loadsCompleted when the report was made
    std::string reportDevice;  // the device it was made for
    double ms = 0.0;           // how long the analysis took
    // The tables' rows in their sorted order (indices into the report's meshes and textures); empty
    // after a new report, so the tables sort again.
    std::vector<int> meshOrder, textureOrder;
};

// A rectangle of the framebuffer in pixels from the top left.
struct ViewportRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool empty() const { return width <= 0 || height <= 0; }
    bool operator==(const ViewportRect& o) const {
        return x == o.x && y == o.y && width == o.width && height == o.height;
    }
};

struct ViewerState {
    // The open document: as loaded (textures read as stored), and prepared for the renderer from
    // it (what is drawn and inspected). `path` is what was opened (a file path or "demo").
    std::shared_ptr<const Scene> loaded;
    std::unique_ptr<Scene> scene;
    std::string path;
    int64_t fileStamp = 0;  // modification time + size of `path` when loaded, for hot reload
    int loadsCompleted = 0;  // files loaded and installed so far (first open, reloads, opens)
    bool watchFile = true;

    std::unique_ptr<Renderer> renderer;
    RendererInfo rendererInfo;
    bool gles2 = false;  // ES2 limits enforced by the renderer (switching recreates it)
    bool gles2Strict = false;  // with gles2: the strict ES 2.0 device profile (--gles2-strict)
    std::string device;        // --device: the profile the renderer holds to (empty: none)

    ViewSettings view;
    Transport transport;
    Pose pose, scratchPose;
    // Per node: morph weights set by the panel or scripts; NaN = follow the animation.
    std::vector<std::vector<float>> morphOverride;

    Selection selection;
    SkinAnalysis skin;
    // Key times of the clip the timeline shows (clipKeyTimes sorts every track's keys: once per clip).
    std::vector<float> timelineKeys;
    int timelineClip = -2;  // -2: not computed for this scene
    // The timeline as the panel drew it last frame (window pixels; empty when not drawn), and which
    // end of the play range a drag on it moves: 0 none (the drag seeks), 1 the in point, 2 the out point.
    LayoutRect timelineRect;
    int rangeDrag = 0;
    // Rest pose plus samples of the current clip, without a ground under the subject: what "frame
    // scene" fits (the points, vertices spread over it; the box when there are none).
    Bounds bounds;
    std::vector<glm::vec3> framingPoints;
    // A scene that draws no mesh (sceneFraming): its lights, cameras and empty nodes are drawn as
    // gizmos `gizmoSize` across (sceneGizmos), and the 3D view says what it holds (noMeshText,
    // "no meshes: 3 lights, 1 camera"). Off and empty for a scene with a mesh.
    bool gizmos = false;
    float gizmoSize = 1.0f;
    std::string noMeshNote;

    FrameStats stats;
    float cpuFrameMs = 0.0f;  // update + draw submission of the last frame
    int framebufferWidth = 0, framebufferHeight = 0;
    // The 3D view: the rectangle of the framebuffer the layout leaves to the scene (drawing,
    // framing, picking and labels use it). Empty until the first frame is laid out; sceneViewport()
    // then gives the whole framebuffer.
    ViewportRect viewport;
    // The orbit camera as the last framing left it, with the view's aspect it used. While the camera
    // is unchanged, a new aspect frames again (updateViewport).
    bool framed = false;
    OrbitCamera framedOrbit;
    float framedAspect = 0.0f;

    // The window layout of this frame (window pixels) and what the user adjusts and the layout file
    // keeps: region sizes, the selected tab of each region. `panelRects` is where each panel was
    // drawn this frame (empty when it was not).
    Layout layout;
    LayoutSizes layoutSizes;
    std::array<PanelId, kDockRegions> tabs{PanelId::Tree, PanelId::Main, PanelId::Report};
    // While the bottom region folds into the right one (a narrow window), whose selected tab the right
    // region shows: its own or the bottom's. Each keeps its own, so a wider window shows both again.
    Region foldedFront = Region::Right;
    std::array<LayoutRect, size_t(PanelId::Count)> panelRects{};
    // What the overlays over the 3D view took this frame (window pixels; empty when not drawn): the view
    // mode's legend, the load error box (widened to its message's right end where that runs past the
    // box), the stats overlay (the legend keeps clear of the last two as they were the frame before).
    LayoutRect legendRect, errorBoxRect, statsRect;
    // Bring `tabs[region]` to the front next frame (the layout file's tabs at start, showPanel).
    std::array<bool, kDockRegions> tabRequest{true, true, true};
    // Which panels had a tab last frame: one that appears comes to the front.
    std::array<bool, size_t(PanelId::Count)> panelsShown{};
    bool layoutStarted = false;
    bool showFps = false;  // the status bar shows the frame rate
    // Where this frame's keys go: the 3D view's shortcuts, or Dear ImGui (a panel that has the focus,
    // an open menu, a text field). The frame loop decides it before ImGui sees the keys.
    bool keyboardToView = true;

    // In PanelId order. The stats overlay starts closed (the status bar and View menu open it), and so
    // does the Cost panel (its analysis runs only while it is open).
    std::array<bool, static_cast<size_t>(PanelId::Count)> panels{
        true, false, true, true, false, false, false, true, false};
    // The panels' size: the UI scale setting (times the host's content scale), and the font built for it.
    float uiScale = 1.0f;
    TouchUi touchUi = TouchUi::Auto;  // touch-sized panels: on, off, or where the host has a touch screen
    UiFont uiFont;
    CostView cost;
    PofViewState pof;  // POF scenes: drawn detail level, debris, markers, shield, spins
    // Joint names over the viewport besides the selected joint's (always drawn): the hovered joint's,
    // and with allJointNames every joint's.
    bool showJointNames = false;
    bool allJointNames = false;
    // Selecting a joint (tree, viewport, panel, `select`) shows the Weights view of it.
    bool weightsOnJointPick = true;
    // The vertex the skinning debugger shows (ctrl+click in the 3D view, `pick-vertex`): its
    // influences as the file stores them, read from the scene as loaded. node -1: none.
    StoredInfluences pickedVertex;
    // Hidden (muted) and solo bones: the scene drawn has their weights taken away (maskBoneWeights;
    // the analysis, the picked vertex and the file keep the stored ones). Kept by a reload; a new file
    // starts without.
    BoneMask boneMask;
    // What the overlays hand the renderer this frame (POF markers, gizmos; view.annotations points here).
    Annotations annotations;
    LoadStatus load;
    // File → Compare with…: a second model beside this one (compare_view.h); inactive while none is open.
    CompareView compare;
    LayerPreview layerPreview;
    LoadTimes loadTimes;                   // of the scene shown (zero before the first load)
    std::vector<std::string> recentFiles;  // most recent first
    // Folders searched for textures after a model's own: --texture-path, then those the panel
    // added (remembered in the configuration folder).
    std::vector<std::string> textureFolders;
    size_t textureFoldersFromCommandLine = 0;
    std::string status;                    // one line in the status bar
    // A line drawn in the 3D view while the panels are hidden (H): how to bring them back.
    std::string viewHint;
    // The GL context as the host reported it: contexts lost, the times the viewer's GL objects were
    // made again on a new one, and the GL calls the last drop of a lost context's objects made (none
    // may reach GL: the context is gone).
    struct {
        int losses = 0;
        int restores = 0;
        uint64_t dropGlCalls = 0;
    } context;

    // Requests the frame loop carries out at a safe point (between frames).
    std::string requestOpen;        // path to open
    bool requestReload = false;
    bool requestRecreateRenderer = false;  // after `gles2` changed
    std::string requestScreenshot;         // PNG path
    int screenshotWidth = 0, screenshotHeight = 0;  // 0: the window (panel included); else offscreen scene
    bool requestQuit = false;

    bool panel(PanelId id) const { return panels[static_cast<size_t>(id)]; }
    bool& panel(PanelId id) { return panels[static_cast<size_t>(id)]; }
};

}  // namespace esv
