// The viewer's window layout: a menu bar at the top, a status bar at the bottom, docked regions on
// the left, the right and along the bottom, and the 3D view in the rectangle that is left. Pure
// functions of the window size, the content scale and which regions hold an open panel; the panels
// are placed from it every frame (no floating windows), so nothing covers the 3D view.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace esv {

// Windows of the panel; each can be shown or hidden (Panels menu, `panel NAME on|off`).
enum class PanelId : uint8_t {
    Main,       // animation transport, view and render settings
    Browser,    // file browser
    Tree,       // scene tree
    Inspector,  // the selected node, mesh, material, texture, light
    Report,     // import report
    Stats,      // stats overlay (drawn over the 3D view's corner, takes no input)
    Skinning,   // bone batches, weight issues, morph sliders
    Pof,        // POF detail levels, debris, markers, shield, subobjects (shown for POF scenes)
    Cost,       // what the scene costs on a device: meshes, textures, the frame against its budgets
    Count
};
const char* panelName(PanelId id);  // "main", "browser", ... (scripts, dumps, the layout file)
bool parsePanelName(const std::string& name, PanelId& id);
const char* panelTitle(PanelId id);  // the tab's label: "Settings", "Files", "Scene", ...

// Where a panel docks. Regions holding several open panels show them as tabs; Overlay panels are
// drawn over the 3D view and take no room.
enum class Region : uint8_t { Left, Right, Bottom, Overlay, Count };
inline constexpr size_t kDockRegions = 3;  // Left, Right, Bottom
Region panelRegion(PanelId id);            // the panel's own region, where it docks in a wide window
const char* regionName(Region region);     // "left", "right", "bottom", "overlay"

// Below this window width (pixels at content scale 1) the bottom region's panels become tabs of the
// right region after its own: a strip along the bottom of a narrow window leaves the 3D view too
// little height for what it adds.
inline constexpr float kBottomFoldWidth = 1600.0f;
// True when a window `width` pixels wide at content `scale` folds the bottom region into the right.
bool bottomFolds(float width, float scale);
// Where the panel is drawn: its own region, or the right one for a bottom panel while the bottom folds.
Region dockedRegion(PanelId id, bool bottomFolded);

// A rectangle in window pixels from the top left.
struct LayoutRect {
    float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;
    bool empty() const { return !(w > 0.0f) || !(h > 0.0f); }
    float right() const { return x + w; }
    float bottom() const { return y + h; }
    // True when the two share an area (touching edges do not count); empty rectangles overlap nothing.
    bool overlaps(const LayoutRect& o) const {
        return !empty() && !o.empty() && x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
    }
    bool contains(float px, float py) const { return px >= x && px < right() && py >= y && py < bottom(); }
};

// The adjustable part: each docked region's size as a fraction of the window's width (sides) or of
// the height between the bars (bottom), before the clamps of computeLayout. The splitters edit these
// and the layout file keeps them. The defaults leave the 3D view over 55% of a 1280x720 window with
// both sides in use (the left at its 220-pixel minimum, the right 282 pixels) and 62% of the width
// of a wider one.
struct LayoutSizes {
    float left = 0.16f;
    float right = 0.22f;
    float bottom = 0.22f;
};

struct LayoutInput {
    float width = 0.0f, height = 0.0f;  // the window, in window pixels
    float scale = 1.0f;                 // content scale: the pixel clamps grow with it
    float menuBarHeight = 0.0f, statusBarHeight = 0.0f;
    std::array<bool, kDockRegions> used{};  // a region with no open panel takes no room
    LayoutSizes sizes;
};

struct Layout {
    bool bottomFolded = false;  // the bottom region's panels are tabs of the right region
    LayoutRect menuBar, statusBar;
    std::array<LayoutRect, kDockRegions> regions;  // empty when unused
    LayoutRect viewport;                           // the 3D view
};

// The side columns run from the menu bar to the status bar; the bottom region lies between them
// under the 3D view. In a window narrower than kBottomFoldWidth x scale the bottom region takes no
// room and its panels make the right region used (bottomFolded). A side takes its fraction of the
// width clamped to [220, 480] x scale pixels, the
// bottom its fraction of the height between the bars clamped to [110, 420] x scale; whatever the
// fractions, the sides together leave the 3D view at least 40% of the width (both shrink in
// proportion) and the bottom leaves it at least 45% of the height between the bars. Fractions that
// are not finite take the defaults. A window of no size gives empty rectangles.
Layout computeLayout(const LayoutInput& in);

// What the layout file keeps between runs: open panels, the region sizes, each region's selected
// tab (a panel of that region, or Count for none) and, for a window that folds the bottom region,
// whose selected tab the right region shows in front: its own (Right) or the bottom's (Bottom). Each
// region keeps its own choice, so the file reads the same whatever the window's width.
struct SavedLayout {
    std::array<bool, size_t(PanelId::Count)> panels{};
    LayoutSizes sizes;
    std::array<PanelId, kDockRegions> tabs{PanelId::Count, PanelId::Count, PanelId::Count};
    Region foldedFront = Region::Right;
};
// One line per fact: `layout version 2` first, `panel NAME on|off`, `size REGION FRACTION` for a
// region the user resized (one at its default is left out, so a later default applies to it),
// `tab REGION NAME`, and `tab folded right|bottom` for foldedFront (a version that does not know it
// skips the line).
std::string formatLayout(const SavedLayout& layout);
// Reads what formatLayout writes into `layout`, keeping what `text` does not mention; unknown or
// malformed lines are skipped (a file from another version still gives what it can), fractions are
// clamped to [0.05, 0.8] and a tab must belong to its region. A file without the version line was
// written by a viewer that saved every size: a size there equal to that viewer's default (left
// 0.18, right 0.25, bottom 0.22) was never resized and is skipped.
void parseLayout(const std::string& text, SavedLayout& layout);

}  // namespace esv
