// The window layout (app/viewer/layout.h): docked regions from the window size, the 3D view in what is
// left, nothing overlapping it, regions with no open panel taking no room, and the layout file.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "app/viewer/layout.h"

namespace {

using esv::Layout;
using esv::LayoutInput;
using esv::LayoutRect;
using esv::PanelId;
using esv::Region;

LayoutInput input(float width, float height, bool left, bool right, bool bottom) {
    LayoutInput in;
    in.width = width;
    in.height = height;
    in.menuBarHeight = 19.0f;
    in.statusBarHeight = 23.0f;
    in.used = {left, right, bottom};
    return in;
}

const LayoutRect& region(const Layout& l, Region r) {
    return l.regions[size_t(r)];
}

// Every rectangle of the layout lies in the window, and none overlaps another.
void expectTiled(const Layout& l, float width, float height) {
    std::vector<LayoutRect> all = {l.menuBar, l.statusBar, l.viewport};
    for (const LayoutRect& r : l.regions) all.push_back(r);
    for (size_t i = 0; i < all.size(); ++i) {
        if (all[i].empty()) continue;
        EXPECT_GE(all[i].x, 0.0f);
        EXPECT_GE(all[i].y, 0.0f);
        EXPECT_LE(all[i].right(), width);
        EXPECT_LE(all[i].bottom(), height);
        for (size_t j = i + 1; j < all.size(); ++j)
            EXPECT_FALSE(all[i].overlaps(all[j])) << i << " and " << j;
    }
    // Together they cover the window: no gap between regions.
    float area = 0.0f;
    for (const LayoutRect& r : all)
        if (!r.empty()) area += r.w * r.h;
    EXPECT_NEAR(area, width * height, 1.0f);
}

TEST(Layout, RegionsScaleWithTheWindowAndLeaveTheViewFree) {
    for (const auto& [w, h] :
         {std::pair{1280.0f, 720.0f}, std::pair{1600.0f, 900.0f}, std::pair{1920.0f, 1080.0f}}) {
        const Layout l = esv::computeLayout(input(w, h, true, true, true));
        expectTiled(l, w, h);
        EXPECT_EQ(l.menuBar.y, 0.0f);
        EXPECT_EQ(l.menuBar.h, 19.0f);
        EXPECT_EQ(l.statusBar.bottom(), h);
        // Sides: their fractions of the width (16% and 22%, the left no narrower than 220 pixels),
        // full height between the bars.
        EXPECT_NEAR(region(l, Region::Left).w, std::max(220.0f, std::round(0.16f * w)), 0.5f);
        EXPECT_NEAR(region(l, Region::Right).w, std::round(0.22f * w), 0.5f);
        EXPECT_EQ(region(l, Region::Left).y, 19.0f);
        EXPECT_EQ(region(l, Region::Right).bottom(), h - 23.0f);
        EXPECT_EQ(l.bottomFolded, w < 1600.0f);
        if (l.bottomFolded) {
            // Under 1600 pixels the bottom panels are tabs of the right region: the view keeps the
            // whole height between the bars and over 55% of the window.
            EXPECT_TRUE(region(l, Region::Bottom).empty());
            EXPECT_EQ(l.viewport.h, h - 42.0f);
            EXPECT_GE(l.viewport.w * l.viewport.h, 0.55f * w * h) << w;
            continue;
        }
        // Bottom: 22% of the height between the bars, under the view only.
        EXPECT_NEAR(region(l, Region::Bottom).h, std::round(0.22f * (h - 42.0f)), 0.5f);
        EXPECT_EQ(region(l, Region::Bottom).x, region(l, Region::Left).w);
        EXPECT_EQ(region(l, Region::Bottom).w, l.viewport.w);
        // With every region in use the view keeps over 45% of the window, and over half of each dimension.
        EXPECT_GT(l.viewport.w * l.viewport.h, 0.45f * w * h) << w;
        EXPECT_GT(l.viewport.w, 0.6f * w);
        EXPECT_GT(l.viewport.h, 0.7f * h);
    }
    // At 1600x900 the right column is wider than at 1280x720: it follows the window.
    EXPECT_GT(region(esv::computeLayout(input(1600, 900, true, true, true)), Region::Right).w,
              region(esv::computeLayout(input(1280, 720, true, true, true)), Region::Right).w);
}

TEST(Layout, UnusedRegionsTakeNoRoom) {
    const Layout none = esv::computeLayout(input(1280, 720, false, false, false));
    for (const LayoutRect& r : none.regions) EXPECT_TRUE(r.empty());
    EXPECT_EQ(none.viewport.x, 0.0f);
    EXPECT_EQ(none.viewport.w, 1280.0f);
    EXPECT_EQ(none.viewport.y, 19.0f);
    EXPECT_EQ(none.viewport.h, 720.0f - 42.0f);
    expectTiled(none, 1280, 720);

    // The default panels of a model without POF data: the scene tree left, settings and inspector right.
    const Layout sides = esv::computeLayout(input(1280, 720, true, true, false));
    EXPECT_TRUE(region(sides, Region::Bottom).empty());
    EXPECT_EQ(sides.viewport.bottom(), 720.0f - 23.0f);
    EXPECT_GE(sides.viewport.w * sides.viewport.h, 0.55f * 1280 * 720);
    expectTiled(sides, 1280, 720);

    const Layout right = esv::computeLayout(input(1600, 900, false, true, true));
    EXPECT_EQ(right.viewport.x, 0.0f);
    EXPECT_EQ(region(right, Region::Bottom).x, 0.0f);
    expectTiled(right, 1600, 900);
}

TEST(Layout, ClampsKeepRegionsUsableAndTheViewLarge) {
    // A small window: the sides keep their 220-pixel minimum until they would take over 60% of the
    // width, then shrink together.
    const Layout small = esv::computeLayout(input(700, 500, true, true, true));
    EXPECT_NEAR(region(small, Region::Left).w + region(small, Region::Right).w, 420.0f, 1.0f);
    EXPECT_NEAR(region(small, Region::Left).w, region(small, Region::Right).w, 1.0f);
    expectTiled(small, 700, 500);
    // A wide, low window: the bottom keeps its 110-pixel minimum.
    const Layout low = esv::computeLayout(input(1700, 300, true, true, true));
    EXPECT_EQ(region(low, Region::Bottom).h, 110.0f);
    expectTiled(low, 1700, 300);
    EXPECT_EQ(region(esv::computeLayout(input(800, 600, true, true, true)), Region::Left).w, 220.0f);
    // A very large window: the sides stop at 480 pixels, the bottom at 420.
    const Layout large = esv::computeLayout(input(3840, 2160, true, true, true));
    EXPECT_EQ(region(large, Region::Left).w, 480.0f);
    EXPECT_EQ(region(large, Region::Right).w, 480.0f);
    EXPECT_EQ(region(large, Region::Bottom).h, 420.0f);
    // Content scale 2: the minimum doubles.
    LayoutInput scaled = input(1280, 720, true, true, true);
    scaled.scale = 2.0f;
    EXPECT_GE(region(esv::computeLayout(scaled), Region::Left).w, 0.3f * 1280 - 1);
    // Dragged fractions follow, within the clamps; nonsense takes the default.
    LayoutInput dragged = input(1920, 1080, true, true, true);
    dragged.sizes.left = 0.2f;
    dragged.sizes.bottom = std::nanf("");
    const Layout d = esv::computeLayout(dragged);
    EXPECT_NEAR(region(d, Region::Left).w, 384.0f, 0.5f);
    EXPECT_NEAR(region(d, Region::Bottom).h, std::round(0.22f * (1080 - 42)), 0.5f);
    expectTiled(d, 1920, 1080);
    // No window: nothing.
    const Layout zero = esv::computeLayout(input(0, 0, true, true, true));
    EXPECT_TRUE(zero.viewport.empty());
}

// Under 1600 pixels of width (times the content scale) the bottom region folds into the right: it
// takes no room, and its panels make the right region used even with no right panel open.
TEST(Layout, TheBottomFoldsIntoTheRightBelow1600Pixels) {
    EXPECT_TRUE(esv::bottomFolds(1599.0f, 1.0f));
    EXPECT_FALSE(esv::bottomFolds(1600.0f, 1.0f));
    EXPECT_TRUE(esv::bottomFolds(2399.0f, 1.5f));
    EXPECT_FALSE(esv::bottomFolds(2400.0f, 1.5f));
    EXPECT_TRUE(esv::bottomFolds(1599.0f, std::nanf(""))) << "a scale that is not finite counts as 1";

    const Layout narrow = esv::computeLayout(input(1599, 900, true, false, true));
    EXPECT_TRUE(narrow.bottomFolded);
    EXPECT_TRUE(region(narrow, Region::Bottom).empty());
    EXPECT_FALSE(region(narrow, Region::Right).empty()) << "the bottom panels are tabs there";
    EXPECT_NEAR(region(narrow, Region::Right).w, std::round(0.22f * 1599), 0.5f);
    EXPECT_EQ(narrow.viewport.h, 900.0f - 42.0f);
    expectTiled(narrow, 1599, 900);

    const Layout wide = esv::computeLayout(input(1600, 900, true, false, true));
    EXPECT_FALSE(wide.bottomFolded);
    EXPECT_FALSE(region(wide, Region::Bottom).empty());
    EXPECT_TRUE(region(wide, Region::Right).empty());
    EXPECT_LT(wide.viewport.h, 900.0f - 42.0f);
    expectTiled(wide, 1600, 900);

    // Folded with right panels open too: one right column, as wide as without the bottom panels.
    const Layout both = esv::computeLayout(input(1599, 900, true, true, true));
    EXPECT_EQ(region(both, Region::Right).w,
              region(esv::computeLayout(input(1599, 900, true, true, false)), Region::Right).w);
    EXPECT_TRUE(region(both, Region::Bottom).empty());
    // Content scale 2: a 3000-pixel window still folds, a 3200-pixel one does not.
    LayoutInput scaled = input(3000, 1600, true, true, true);
    scaled.scale = 2.0f;
    EXPECT_TRUE(esv::computeLayout(scaled).bottomFolded);
    scaled.width = 3200.0f;
    EXPECT_FALSE(esv::computeLayout(scaled).bottomFolded);
    EXPECT_FALSE(region(esv::computeLayout(scaled), Region::Bottom).empty());

    // Where each panel is drawn: a bottom panel moves to the right region, the others stay.
    EXPECT_EQ(esv::dockedRegion(PanelId::Pof, true), Region::Right);
    EXPECT_EQ(esv::dockedRegion(PanelId::Skinning, true), Region::Right);
    EXPECT_EQ(esv::dockedRegion(PanelId::Report, true), Region::Right);
    EXPECT_EQ(esv::dockedRegion(PanelId::Pof, false), Region::Bottom);
    EXPECT_EQ(esv::dockedRegion(PanelId::Tree, true), Region::Left);
    EXPECT_EQ(esv::dockedRegion(PanelId::Main, true), Region::Right);
    EXPECT_EQ(esv::dockedRegion(PanelId::Stats, true), Region::Overlay);
}

TEST(Layout, PanelsDockByKind) {
    EXPECT_EQ(esv::panelRegion(PanelId::Tree), Region::Left);
    EXPECT_EQ(esv::panelRegion(PanelId::Browser), Region::Left);
    EXPECT_EQ(esv::panelRegion(PanelId::Main), Region::Right);
    EXPECT_EQ(esv::panelRegion(PanelId::Inspector), Region::Right);
    EXPECT_EQ(esv::panelRegion(PanelId::Report), Region::Bottom);
    EXPECT_EQ(esv::panelRegion(PanelId::Skinning), Region::Bottom);
    EXPECT_EQ(esv::panelRegion(PanelId::Pof), Region::Bottom);
    EXPECT_EQ(esv::panelRegion(PanelId::Stats), Region::Overlay);
    for (size_t i = 0; i < size_t(PanelId::Count); ++i) {
        PanelId id;
        ASSERT_TRUE(esv::parsePanelName(esv::panelName(PanelId(i)), id));
        EXPECT_EQ(id, PanelId(i));
    }
}

TEST(Layout, LayoutFileRoundTripsAndSkipsWhatItDoesNotKnow) {
    esv::SavedLayout saved;
    saved.panels[size_t(PanelId::Report)] = true;
    saved.panels[size_t(PanelId::Tree)] = true;
    saved.sizes.right = 0.3f;
    saved.tabs[size_t(Region::Right)] = PanelId::Inspector;
    saved.tabs[size_t(Region::Bottom)] = PanelId::Report;
    saved.foldedFront = Region::Bottom;
    const std::string text = esv::formatLayout(saved);
    EXPECT_NE(text.find("tab folded bottom\n"), std::string::npos) << text;
    esv::SavedLayout read;
    esv::parseLayout(text, read);
    EXPECT_EQ(read.panels, saved.panels);
    EXPECT_FLOAT_EQ(read.sizes.right, 0.3f);
    EXPECT_FLOAT_EQ(read.sizes.left, saved.sizes.left);
    EXPECT_EQ(read.tabs, saved.tabs);
    EXPECT_EQ(read.foldedFront, Region::Bottom);
    EXPECT_EQ(esv::formatLayout(read), text);

    esv::SavedLayout kept;
    kept.panels[size_t(PanelId::Main)] = true;
    esv::parseLayout(
        "panel main off\npanel nosuch on\nsize left 7\nsize right x\nsize top 0.3\n"
        "tab left inspector\ntab bottom pof\npanel tree on extra\ntab folded left\n\n",
        kept);
    EXPECT_EQ(kept.foldedFront, Region::Right) << "only the right and bottom regions share the right column";
    EXPECT_FALSE(kept.panels[size_t(PanelId::Main)]);
    EXPECT_FALSE(kept.panels[size_t(PanelId::Tree)]) << "a line with extra words is skipped";
    EXPECT_FLOAT_EQ(kept.sizes.left, 0.8f) << "clamped";
    EXPECT_FLOAT_EQ(kept.sizes.right, esv::LayoutSizes{}.right);
    EXPECT_EQ(kept.tabs[size_t(Region::Left)], PanelId::Count) << "the inspector is not a left panel";
    EXPECT_EQ(kept.tabs[size_t(Region::Bottom)], PanelId::Pof);
}

// Sizes at their defaults are not written, so a later default reaches them; a file from the
// viewers that wrote every size (no version line) keeps the sizes a user dragged and drops those
// at those viewers' defaults (0.18, 0.25, 0.22), which would hold the 3D view under 55% of a
// 1280x720 window.
TEST(Layout, SizesAtTheirDefaultsFollowNewDefaults) {
    esv::SavedLayout saved;
    saved.sizes.left = 0.3f;
    const std::string text = esv::formatLayout(saved);
    EXPECT_EQ(text.rfind("layout version 2\n", 0), 0u) << text;
    EXPECT_NE(text.find("size left 0.3000\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("size right"), std::string::npos) << "right is at its default: " << text;
    EXPECT_EQ(text.find("size bottom"), std::string::npos) << text;

    esv::SavedLayout old;
    esv::parseLayout("panel main on\nsize left 0.1800\nsize right 0.3300\nsize bottom 0.2200\n", old);
    EXPECT_FLOAT_EQ(old.sizes.left, esv::LayoutSizes{}.left) << "the first viewers' default left";
    EXPECT_FLOAT_EQ(old.sizes.right, 0.33f) << "dragged";
    EXPECT_FLOAT_EQ(old.sizes.bottom, esv::LayoutSizes{}.bottom);
    esv::SavedLayout versioned;
    esv::parseLayout("layout version 2\nsize left 0.1800\n", versioned);
    EXPECT_FLOAT_EQ(versioned.sizes.left, 0.18f) << "a versioned file's sizes are what the user chose";
}

}  // namespace
