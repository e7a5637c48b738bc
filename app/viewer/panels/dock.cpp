// The window's frame around the 3D view: the menu bar, the status bar and the docked regions (one
// window per region, its panels as tabs), placed every frame from the layout (app/viewer/layout.h), with
// splitters on the regions' inner edges. Dear ImGui 1.86 has no docking: the placement is ours.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>
#include <imgui_internal.h>

#include "app/viewer/panels.h"
#include "app/viewer/scene_info.h"
#include "app/viewer/viewer_actions.h"

namespace esv {
namespace {

const ImVec4 kErrorColor(1.0f, 0.42f, 0.36f, 1.0f);
const ImVec4 kWarningColor(1.0f, 0.78f, 0.35f, 1.0f);

constexpr const char* kRegionWindows[kDockRegions] = {"##dock_left", "##dock_right", "##dock_bottom"};
constexpr float kSplitterWidth = 5.0f;
// Where the keys go is shown by a thin line in the navigation colour: on the 3D view's border when
// it has them, on the border of the region whose panel has them otherwise.
constexpr float kFocusLine = 2.0f;
constexpr float kFocusAlpha = 0.75f;

void focusFrame(ImDrawList* drawList, const LayoutRect& r) {
    const float half = 0.5f * kFocusLine - 0.5f;  // AddRect adds half a pixel itself
    drawList->AddRect(ImVec2(r.x + half, r.y + half), ImVec2(r.right() - half, r.bottom() - half),
                      ImGui::GetColorU32(ImGuiCol_NavHighlight, kFocusAlpha), 0.0f, 0, kFocusLine);
}

// What has the keys, in words for the status bar.
std::string keyboardOwner(const ViewerState& s) {
    if (s.keyboardToView) return "3D view";
    const Region r = focusedRegion();
    if (r < Region::Overlay) return panelTitle(frontTab(s, r));
    return ImGui::GetCurrentContext()->OpenPopupStack.Size > 0 ? "menu" : "panels";
}

// A panel takes a tab when it is open and has something to show: the POF panel only for POF scenes.
bool shown(const ViewerState& s, PanelId id) {
    if (!s.panel(id) || panelRegion(id) == Region::Overlay) return false;
    return id != PanelId::Pof || (s.scene && s.scene->pof);
}

void drawPanel(ViewerState& s, PanelId id, FileBrowser& browser) {
    switch (id) {
        case PanelId::Main:
            drawMainPanel(s);
            break;
        case PanelId::Browser:
            drawBrowserPanel(s, browser);
            break;
        case PanelId::Tree:
            drawTreePanel(s);
            break;
        case PanelId::Inspector:
            drawInspectorPanel(s);
            break;
        case PanelId::Report:
            drawReportPanel(s);
            break;
        case PanelId::Skinning:
            drawSkinningPanel(s);
            break;
        case PanelId::Pof:
            drawPofPanel(s);
            break;
        case PanelId::Cost:
            drawCostPanel(s);
            break;
        case PanelId::Stats:
        case PanelId::Count:
            break;
    }
}

// A window that appears (a panel opened by Ctrl+O or a script, the panels shown again after H) does
// not take the keyboard: only a click or F6 gives it to a panel.
constexpr ImGuiWindowFlags kFixedWindow =
    ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
    ImGuiWindowFlags_NoFocusOnAppearing;

void placeNext(const LayoutRect& r) {
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
}

void screenshotMenu(ViewerState& s) {
    static char shotPath[256] = "esview-screenshot.png";
    static int shotSize[2] = {1920, 1080};
    ImGui::SetNextItemWidth(220);
    ImGui::InputText("file", shotPath, sizeof(shotPath));
    if (ImGui::MenuItem("Save the window", "P")) {
        s.requestScreenshot = shotPath;
        s.screenshotWidth = s.screenshotHeight = 0;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The window as shown, panels included");
    ImGui::Separator();
    ImGui::SetNextItemWidth(220);
    ImGui::InputInt2("size", shotSize);
    ImGui::BeginDisabled(!s.scene);
    if (ImGui::MenuItem("Save the scene offscreen")) {
        s.requestScreenshot = shotPath;
        s.screenshotWidth = std::clamp(shotSize[0], 1, 16384);
        s.screenshotHeight = std::clamp(shotSize[1], 1, 16384);
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The scene alone, rendered offscreen at this size");
}

void fileMenu(ViewerState& s) {
    if (!ImGui::BeginMenu("File")) return;
    if (ImGui::MenuItem("Open...", "Ctrl+O")) showPanel(s, PanelId::Browser);
    if (ImGui::BeginMenu("Recent", !s.recentFiles.empty())) {
        for (const std::string& f : s.recentFiles)
            if (ImGui::MenuItem(f.c_str())) s.requestOpen = f;
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Reload", "F5", false, !s.path.empty() && !s.load.active)) s.requestReload = true;
    ImGui::MenuItem("Reload when the file changes", nullptr, &s.watchFile);
    ImGui::Separator();
    // B beside A: the browser's next model opens as B (compare_view.h).
    if (ImGui::MenuItem("Compare with...", nullptr, false, s.scene != nullptr)) {
        s.compare.pickInBrowser = true;
        showPanel(s, PanelId::Browser);
    }
    if (ImGui::MenuItem("Stop comparing", "Esc", false, s.compare.active())) s.compare.requestClose = true;
    ImGui::Separator();
    if (ImGui::BeginMenu("Screenshot")) {
        screenshotMenu(s);
        ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) s.requestQuit = true;
    ImGui::EndMenu();
}

void viewMenu(ViewerState& s, bool& hidePanels) {
    if (!ImGui::BeginMenu("View")) return;
    for (int m = 0; m < int(ViewMode::Count); ++m) {
        char key[4] = "";
        if (m < 9) std::snprintf(key, sizeof(key), "%d", m + 1);
        if (ImGui::MenuItem(viewModeName(ViewMode(m)), key, s.view.mode == ViewMode(m)))
            s.view.mode = ViewMode(m);
    }
    ImGui::Separator();
    ImGui::MenuItem("Wireframe overlay", "W", &s.view.wireframeOverlay);
    ImGui::MenuItem("Skeleton", "K", &s.view.showSkeleton);
    ImGui::Separator();
    const bool scene = s.scene != nullptr;
    if (ImGui::MenuItem("Frame scene", "F", false, scene)) frameScene(s);
    if (ImGui::MenuItem("Frame selection", "G", false, scene && s.selection.node >= 0)) frameSelection(s);
    if (ImGui::MenuItem("Reset view", "R", false, scene)) resetView(s);
    ImGui::Separator();
    ImGui::MenuItem("Frame rate in the status bar", nullptr, &s.showFps);
    ImGui::MenuItem("Hide panels", "H", &hidePanels);
    ImGui::EndMenu();
}

void panelsMenu(ViewerState& s) {
    if (!ImGui::BeginMenu("Panels")) return;
    for (size_t i = 0; i < size_t(PanelId::Count); ++i) {
        const PanelId id = PanelId(i);
        bool open = s.panel(id);
        const bool usable = id != PanelId::Pof || (s.scene && s.scene->pof);
        if (ImGui::MenuItem(panelTitle(id), nullptr, &open, usable)) {
            if (open)
                showPanel(s, id);
            else
                s.panel(id) = false;
        }
    }
    ImGui::EndMenu();
}

void helpMenu(ViewerState& s) {
    if (!ImGui::BeginMenu("Help")) return;
    if (ImGui::BeginMenu("Keys")) {
        static const char* const kKeys[][2] = {
            {"left drag, arrows, A / D", "orbit"},
            {"right or middle drag, shift+drag, shift+arrows", "pan"},
            {"wheel, + / -, PgUp / PgDn", "zoom (ctrl+wheel: field of view)"},
            {"click / double click", "select / frame the selection"},
            {"ctrl+click", "a skinned vertex's stored influences (skinning debugger)"},
            {"F / G / R", "frame scene / selection, reset the view"},
            {"1-9", "view modes"},
            {"W / K", "wireframe overlay / skeleton"},
            {"Space, shift+Space", "play / pause, play backwards"},
            {", / .  [ / ]  Home / End", "frame, key, start / end (of the play range when set)"},
            {"shift+[ / shift+]", "key of the selected node"},
            {"I / O, shift+I", "play range in / out at the playhead, clear it"},
            {"Tab, shift+Tab", "select the next / previous node"},
            {"C", "next file camera"},
            {"P", "screenshot of the window"},
            {"F5, ctrl+R", "reload"},
            {"ctrl+O", "open a file"},
            {"H", "hide the panels"},
            {"F6", "keyboard to the panels / the 3D view (the keys follow the pointer)"},
            {"Esc", "close a menu or the browser, leave a panel, clear the selection (never quits)"},
            {"Ctrl+Q", "quit (as the window's close button and File > Quit)"},
        };
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
            for (const auto& k : kKeys) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(k[0]);
                ImGui::TableNextColumn();
                ImGui::TextDisabled("%s", k[1]);
            }
            ImGui::EndTable();
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("About")) {
        ImGui::TextUnformatted("esview 0.1.0: POD, AWD, OpenGEX and POF models on OpenGL ES");
        ImGui::TextDisabled("%s, %s", s.rendererInfo.es3 ? "OpenGL ES 3.0" : "OpenGL ES 2.0",
                            s.gles2 ? "ES2 limits enforced" : "no limits enforced");
        ImGui::TextDisabled("Dear ImGui %s", IMGUI_VERSION);
        ImGui::EndMenu();
    }
    ImGui::EndMenu();
}

void menuBar(ViewerState& s, const LayoutRect& r, bool& hidePanels) {
    placeNext(r);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    const bool open = ImGui::Begin("##menubar", nullptr,
                                   kFixedWindow | ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoScrollbar |
                                       ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar(3);
    if (open && ImGui::BeginMenuBar()) {
        fileMenu(s);
        viewMenu(s, hidePanels);
        panelsMenu(s);
        helpMenu(s);
        ImGui::EndMenuBar();
    }
    ImGui::End();
}

size_t warningCount(const ViewerState& s) {
    if (!s.scene) return 0;
    return size_t(std::count_if(s.scene->report.begin(), s.scene->report.end(),
                                [](const ReportLine& l) { return l.severity == Severity::Warning; }));
}

void statusBar(ViewerState& s, const LayoutRect& r) {
    placeNext(r);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 2));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    const bool open = ImGui::Begin("##statusbar", nullptr,
                                   kFixedWindow | ImGuiWindowFlags_NoScrollbar |
                                       ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoNav);
    ImGui::PopStyleVar(2);
    if (!open) {
        ImGui::End();
        return;
    }
    // Right side first in width: warnings (a button to the import report) and the frame rate.
    const size_t warnings = warningCount(s);
    const std::string keysText = "keys: " + keyboardOwner(s);
    char warningText[48] = "", fpsText[48] = "";
    if (warnings > 0)
        std::snprintf(warningText, sizeof(warningText), "%zu warning%s", warnings, warnings == 1 ? "" : "s");
    if (s.showFps) {
        const float fps = ImGui::GetIO().Framerate;
        std::snprintf(fpsText, sizeof(fpsText), "%.0f fps (%.2f ms)", fps, fps > 0.0f ? 1000.0f / fps : 0.0f);
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    float rightWidth = ImGui::CalcTextSize(keysText.c_str()).x + style.ItemSpacing.x;
    if (warningText[0])
        rightWidth += ImGui::CalcTextSize(warningText).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
    if (fpsText[0]) rightWidth += ImGui::CalcTextSize(fpsText).x + style.ItemSpacing.x;
    const float rightStart = std::max(ImGui::GetContentRegionAvail().x - rightWidth, 0.0f);

    // Left: the load in flight, else its error, else the document and the last status line.
    ImGui::PushClipRect(ImGui::GetCursorScreenPos(),
                        ImVec2(ImGui::GetCursorScreenPos().x + rightStart - style.ItemSpacing.x, r.bottom()),
                        true);
    ImGui::AlignTextToFramePadding();
    if (s.load.active) {
        char overlay[160];
        std::snprintf(overlay, sizeof(overlay), "%s %.0f%%", s.load.stage.c_str(), 100.0f * s.load.progress);
        ImGui::TextUnformatted(("loading " + s.load.path).c_str());
        ImGui::SameLine();
        ImGui::ProgressBar(s.load.progress, ImVec2(180, ImGui::GetTextLineHeight()), overlay);
    } else if (!s.load.error.empty()) {
        const std::string firstLine = s.load.error.substr(0, s.load.error.find('\n'));
        ImGui::TextColored(kErrorColor, "%s", firstLine.c_str());
    } else if (s.scene) {
        ImGui::Text("%s  |  %s: %s", s.path.c_str(), s.scene->format.c_str(), sceneCountsText(*s.scene).c_str());
        if (!s.status.empty()) {
            ImGui::SameLine();
            ImGui::TextDisabled("|  %s", s.status.c_str());
        }
    } else {
        ImGui::TextDisabled("%s", s.status.empty() ? "No scene: File > Open..." : s.status.c_str());
    }
    ImGui::PopClipRect();

    ImGui::SameLine(rightStart + style.WindowPadding.x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", keysText.c_str());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Keys go to the 3D view while the pointer is over it, to a panel once it is clicked;\n"
            "F6 moves them between the panels and the view, Esc gives them back to the view");
    ImGui::SameLine();
    if (warningText[0]) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarningColor);
        if (ImGui::SmallButton(warningText)) showPanel(s, PanelId::Report);
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open the import report");
        ImGui::SameLine();
    }
    if (fpsText[0]) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(fpsText);
    }
    ImGui::End();
}

// One region: its window, a tab per shown panel, the selected one's contents. While the bottom
// folds, the right region's tabs are its own panels' and then the bottom's; each panel's choice is
// kept in its own region's entry of s.tabs, and which of the two is in front in s.foldedFront.
void region(ViewerState& s, size_t r, FileBrowser& browser) {
    const LayoutRect& rect = s.layout.regions[r];
    const bool folded = s.layout.bottomFolded && r == size_t(Region::Right);
    placeNext(rect);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    const bool open =
        ImGui::Begin(kRegionWindows[r], nullptr,
                     kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    // Tabs that do not fit the column shrink, their titles ending in an ellipsis (in full on hover).
    if (open && ImGui::BeginTabBar("##tabs", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
        const size_t bottom = size_t(Region::Bottom);
        const bool request = s.tabRequest[r] || (folded && s.tabRequest[bottom]);
        const PanelId front = frontTab(s, Region(r));
        s.tabRequest[r] = false;
        if (folded) s.tabRequest[bottom] = false;
        for (size_t i = 0; i < size_t(PanelId::Count); ++i) {
            const PanelId id = PanelId(i);
            if (size_t(dockedRegion(id, s.layout.bottomFolded)) != r || !shown(s, id)) continue;
            bool keep = true;
            const ImGuiTabItemFlags flags = request && front == id ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(panelTitle(id), &keep, flags)) {
                // A tab asked for this frame becomes the selected one next frame: until then it holds.
                if (!request) {
                    const Region home = panelRegion(id);
                    s.tabs[size_t(home)] = id;
                    if (folded) s.foldedFront = home;
                }
                drawPanel(s, id, browser);
                ImGui::EndTabItem();
            }
            if (!keep) s.panel(id) = false;
        }
        ImGui::EndTabBar();
    }
    if (!s.keyboardToView && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
        ImDrawList* drawList = ImGui::GetWindowDrawList();
        drawList->PushClipRect(ImVec2(rect.x, rect.y), ImVec2(rect.right(), rect.bottom()));
        focusFrame(drawList, rect);
        drawList->PopClipRect();
    }
    ImGui::End();
}

// A draggable edge of a region: a thin window over the edge (on the 3D view's side), dragging it
// changes the region's size fraction.
void splitter(ViewerState& s, Region r) {
    const LayoutRect& rect = s.layout.regions[size_t(r)];
    const LayoutRect& view = s.layout.viewport;
    if (rect.empty() || view.empty()) return;
    const float width = std::max(ImGui::GetIO().DisplaySize.x, 1.0f);
    const float middle = std::max(s.layout.statusBar.y - s.layout.menuBar.bottom(), 1.0f);
    const bool vertical = r != Region::Bottom;
    LayoutRect bar;
    if (r == Region::Left)
        bar = {rect.right(), view.y, kSplitterWidth, view.h};
    else if (r == Region::Right)
        bar = {rect.x - kSplitterWidth, view.y, kSplitterWidth, view.h};
    else
        bar = {view.x, rect.y - kSplitterWidth, view.w, kSplitterWidth};
    placeNext(bar);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    const char* names[] = {"##split_left", "##split_right", "##split_bottom"};
    ImGui::Begin(names[size_t(r)], nullptr,
                 kFixedWindow | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    ImGui::PopStyleVar(3);
    ImGui::InvisibleButton("##edge", ImVec2(bar.w, bar.h));
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
        ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(bar.x, bar.y), ImVec2(bar.right(), bar.bottom()),
                                                  ImGui::GetColorU32(ImGuiCol_SeparatorHovered));
    }
    if (ImGui::IsItemActive()) {
        const ImVec2 d = ImGui::GetIO().MouseDelta;
        if (r == Region::Left)
            s.layoutSizes.left = (rect.w + d.x) / width;
        else if (r == Region::Right)
            s.layoutSizes.right = (rect.w - d.x) / width;
        else
            s.layoutSizes.bottom = (rect.h - d.y) / middle;
    }
    ImGui::End();
}

}  // namespace

void showPanel(ViewerState& s, PanelId id) {
    s.panel(id) = true;
    const Region r = panelRegion(id);
    if (size_t(r) < kDockRegions) {
        s.tabs[size_t(r)] = id;
        s.tabRequest[size_t(r)] = true;
    }
    if (r == Region::Right || r == Region::Bottom) s.foldedFront = r;
}

PanelId frontTab(const ViewerState& s, Region r) {
    if (size_t(r) >= kDockRegions) return PanelId::Count;
    const PanelId bottom = s.tabs[size_t(Region::Bottom)];
    if (r == Region::Right && s.layout.bottomFolded && s.foldedFront == Region::Bottom &&
        bottom < PanelId::Count && shown(s, bottom))
        return bottom;
    return s.tabs[size_t(r)];
}

void drawDockedPanels(ViewerState& s, FileBrowser& browser, bool& hidePanels, float contentScale) {
    const ImGuiIO& io = ImGui::GetIO();
    // A panel that appears (a script, a shortcut, a dropped folder) comes to the front of its region.
    // The panels open at start keep the saved tabs, except the POF panel: it appears with a POF scene,
    // even one loaded before the first layout (else its tab would depend on how fast the file loads).
    for (size_t i = 0; i < size_t(PanelId::Count); ++i) {
        const bool now = shown(s, PanelId(i));
        if (now && !s.panelsShown[i] && (s.layoutStarted || PanelId(i) == PanelId::Pof))
            showPanel(s, PanelId(i));
        s.panelsShown[i] = now;
    }
    s.layoutStarted = true;

    LayoutInput in;
    in.width = io.DisplaySize.x;
    in.height = io.DisplaySize.y;
    in.scale = contentScale;
    in.sizes = s.layoutSizes;
    if (!hidePanels) {
        in.menuBarHeight = ImGui::GetFrameHeight();
        in.statusBarHeight = ImGui::GetFrameHeight() + 4.0f;
        for (size_t i = 0; i < size_t(PanelId::Count); ++i) {
            const size_t r = size_t(panelRegion(PanelId(i)));
            if (r < kDockRegions && shown(s, PanelId(i))) in.used[r] = true;
        }
    }
    const bool wasFolded = s.layout.bottomFolded;
    s.layout = computeLayout(in);
    // Folding or unfolding moves tabs between tab bars: each region then shows its kept choice again.
    if (s.layout.bottomFolded != wasFolded) s.tabRequest.fill(true);
    s.panelRects.fill(LayoutRect{});
    s.viewHint = hidePanels ? "Panels hidden: press H to show them" : "";
    if (hidePanels) {
        // Bottom left of the view, small and grey: enough to find the way back, little in the picture.
        const ImVec2 size = ImGui::CalcTextSize(s.viewHint.c_str());
        const ImVec2 at(8.0f, io.DisplaySize.y - size.y - 8.0f);
        ImDrawList* draw = ImGui::GetForegroundDrawList();
        draw->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 2.0f), ImVec2(at.x + size.x + 4.0f, at.y + size.y + 2.0f),
                            IM_COL32(0, 0, 0, 110), 3.0f);
        draw->AddText(at, IM_COL32(200, 200, 200, 220), s.viewHint.c_str());
        return;
    }

    menuBar(s, s.layout.menuBar, hidePanels);
    statusBar(s, s.layout.statusBar);
    for (size_t r = 0; r < kDockRegions; ++r) {
        if (s.layout.regions[r].empty()) continue;
        region(s, r, browser);
        for (size_t i = 0; i < size_t(PanelId::Count); ++i)
            if (size_t(dockedRegion(PanelId(i), s.layout.bottomFolded)) == r && shown(s, PanelId(i)))
                s.panelRects[i] = s.layout.regions[r];
    }
    for (Region r : {Region::Left, Region::Right, Region::Bottom}) splitter(s, r);
    // Behind every window, over the scene.
    if (s.keyboardToView && !s.layout.viewport.empty())
        focusFrame(ImGui::GetBackgroundDrawList(), s.layout.viewport);
}

void focusPanels(const ViewerState& s) {
    for (Region r : {Region::Right, Region::Left, Region::Bottom})
        if (!s.layout.regions[size_t(r)].empty()) {
            ImGui::SetWindowFocus(kRegionWindows[size_t(r)]);
            // Navigation starts on the window's first item, as for a window focused when it appears.
            if (ImGuiWindow* window = ImGui::FindWindowByName(kRegionWindows[size_t(r)]))
                if (window == ImGui::GetCurrentContext()->NavWindow) ImGui::NavInitWindow(window, false);
            return;
        }
}

Region focusedRegion() {
    const ImGuiWindow* focused = ImGui::GetCurrentContext()->NavWindow;
    if (!focused) return Region::Count;
    for (size_t r = 0; r < kDockRegions; ++r)
        if (focused->RootWindow && focused->RootWindow == ImGui::FindWindowByName(kRegionWindows[r]))
            return Region(r);
    return Region::Count;
}

}  // namespace esv
