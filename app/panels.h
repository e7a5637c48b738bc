// The Dear ImGui windows of the viewer. Each draws from and edits ViewerState; call between
// ImGui::NewFrame and ImGui::Render.
#pragma once

#include "app/viewer_state.h"

namespace esv {

class FileBrowser;

void drawMainPanel(ViewerState& s);       // file, transport, view and render settings
// The file browser window's title (the viewer leaves it out of the panels that framing avoids).
inline constexpr const char* kBrowserTitle = "Open a model";
void drawBrowserPanel(ViewerState& s, FileBrowser& browser);
void drawTreePanel(ViewerState& s);       // scene tree with kinds, instancing, selection
void drawInspectorPanel(ViewerState& s);  // selected node: transforms, channels, mesh, material, textures, light
void drawReportPanel(ViewerState& s);     // import report
void drawStatsOverlay(ViewerState& s);    // frame time, draws, triangles, batches, uniforms, memory
void drawSkinningPanel(ViewerState& s);   // bone batches and budgets, weight issues, morph sliders
void drawPofPanel(ViewerState& s);       // POF: detail level, debris, markers, shield, spins, subobjects
void drawViewportOverlay(ViewerState& s); // joint names, load progress, error banner (foreground draw list)

}  // namespace esv
