// The Dear ImGui windows of the viewer. Each draws from and edits ViewerState; call between
// ImGui::NewFrame and ImGui::Render.
#pragma once

#include <string>

#include "app/viewer/viewer_state.h"

namespace esv {

class FileBrowser;

// The menu bar, the status bar and the docked regions with their panels as tabs, laid out for this
// frame's window (app/viewer/layout.h) into s.layout and s.panelRects; with `hidePanels` only the layout
// (the 3D view takes the window). The View menu can set `hidePanels`. Call before the overlays.
void drawDockedPanels(ViewerState& s, FileBrowser& browser, bool& hidePanels, float contentScale);
// Gives the keyboard to the panels: the right region's window, else the left's or the bottom's.
void focusPanels(const ViewerState& s);
// The docked region whose window (or a child of it) has Dear ImGui's focus; Region::Count when none
// has (nothing focused, the menu bar, a popup).
Region focusedRegion();

// The panels' contents, drawn into their tab of the region's window by drawDockedPanels.
void drawMainPanel(ViewerState& s);       // transport, view and render settings
void drawBrowserPanel(ViewerState& s, FileBrowser& browser);
void drawTreePanel(ViewerState& s);       // scene tree with kinds, instancing, selection
void drawInspectorPanel(ViewerState& s);  // selected node: transforms, channels, mesh, material, textures, light
void drawReportPanel(ViewerState& s);     // import report
void drawSkinningPanel(ViewerState& s);   // bone batches and budgets, weight issues, morph sliders
void drawPofPanel(ViewerState& s);       // POF: detail level, debris, markers, shield, spins, subobjects
void drawCostPanel(ViewerState& s);      // the scene's cost on a device: meshes, textures, the frame

// The Cost panel's device: the one chosen there (s.cost.device), else the profile the viewer's
// renderer holds to (--device, --gles2-strict), else ge8320.
std::string costDeviceName(const ViewerState& s);
// Makes s.cost.report again when the scene as loaded or the device changed since it was made (the
// panel calls it as it draws, a script's `dump` before it writes). False when there is no report:
// no scene, or a build without the cost library (the browser's).
bool updateCostView(ViewerState& s);

// Menu items that hide (mute), solo and show again joint `joint`'s influence (setBoneMask), for the
// scene tree's context menu and the Skinning panel; an error goes to the status line.
void boneMaskMenu(ViewerState& s, int joint);

// Over the 3D view (s.layout.viewport), taking no room:
void drawStatsOverlay(ViewerState& s);    // frame time, draws, triangles, batches, uniforms, memory
void drawViewportOverlay(ViewerState& s); // joint names, load progress, error banner (foreground draw list)

}  // namespace esv
