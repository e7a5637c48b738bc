#include "app/viewer/layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace esv {
namespace {

constexpr float kSideMin = 220.0f, kSideMax = 480.0f;      // pixels at scale 1
constexpr float kBottomMin = 110.0f, kBottomMax = 420.0f;  // pixels at scale 1
constexpr float kSidesMaxShare = 0.6f;                     // of the width, both columns together
constexpr float kBottomMaxShare = 0.55f;                   // of the height between the bars
constexpr float kFractionMin = 0.05f, kFractionMax = 0.8f;

float fraction(float value, float fallback) {
    return std::isfinite(value) && value > 0.0f ? std::clamp(value, kFractionMin, kFractionMax) : fallback;
}

struct PanelInfo {
    const char* name;
    const char* title;
    Region region;
};

// In PanelId order; the order within a region is the order of its tabs.
constexpr PanelInfo kPanels[] = {
    {"main", "Settings", Region::Right},
    {"browser", "Files", Region::Left},
    {"tree", "Scene", Region::Left},
    {"inspector", "Inspector", Region::Right},
    {"report", "Import report", Region::Bottom},
    {"stats", "Stats", Region::Overlay},
    {"skinning", "Skinning", Region::Bottom},
    {"pof", "POF", Region::Bottom},
    {"cost", "Cost", Region::Bottom},
};
static_assert(sizeof(kPanels) / sizeof(kPanels[0]) == size_t(PanelId::Count));

constexpr const char* kRegionNames[] = {"left", "right", "bottom", "overlay"};
static_assert(sizeof(kRegionNames) / sizeof(kRegionNames[0]) == size_t(Region::Count));

bool parseRegion(const std::string& name, size_t& region) {
    for (size_t r = 0; r < kDockRegions; ++r)
        if (name == kRegionNames[r]) {
            region = r;
            return true;
        }
    return false;
}

}  // namespace

const char* panelName(PanelId id) {
    return id < PanelId::Count ? kPanels[size_t(id)].name : "?";
}

bool parsePanelName(const std::string& name, PanelId& id) {
    for (size_t i = 0; i < size_t(PanelId::Count); ++i)
        if (name == kPanels[i].name) {
            id = PanelId(i);
            return true;
        }
    return false;
}

const char* panelTitle(PanelId id) {
    return id < PanelId::Count ? kPanels[size_t(id)].title : "?";
}

Region panelRegion(PanelId id) {
    return id < PanelId::Count ? kPanels[size_t(id)].region : Region::Overlay;
}

const char* regionName(Region region) {
    return region < Region::Count ? kRegionNames[size_t(region)] : "?";
}

bool bottomFolds(float width, float scale) {
    const float s = std::isfinite(scale) && scale > 0.0f ? scale : 1.0f;
    return width < kBottomFoldWidth * s;
}

Region dockedRegion(PanelId id, bool bottomFolded) {
    const Region r = panelRegion(id);
    return bottomFolded && r == Region::Bottom ? Region::Right : r;
}

Layout computeLayout(const LayoutInput& in) {
    Layout l;
    const float w = in.width, h = in.height;
    if (!(w > 0.0f) || !(h > 0.0f) || !std::isfinite(w) || !std::isfinite(h)) return l;
    const float s = std::isfinite(in.scale) && in.scale > 0.0f ? in.scale : 1.0f;
    const float menuH =
        std::round(std::clamp(std::isfinite(in.menuBarHeight) ? in.menuBarHeight : 0.0f, 0.0f, h / 4));
    const float statusH =
        std::round(std::clamp(std::isfinite(in.statusBarHeight) ? in.statusBarHeight : 0.0f, 0.0f, h / 4));
    l.menuBar = {0.0f, 0.0f, w, menuH};
    l.statusBar = {0.0f, h - statusH, w, statusH};
    const float top = menuH, bottom = h - statusH, middle = std::max(bottom - top, 0.0f);
    std::array<bool, kDockRegions> used = in.used;
    l.bottomFolded = bottomFolds(w, s);
    if (l.bottomFolded && used[size_t(Region::Bottom)]) {
        used[size_t(Region::Right)] = true;
        used[size_t(Region::Bottom)] = false;
    }

    const LayoutSizes defaults;
    const auto side = [&](float f, float fallback) {
        return std::clamp(fraction(f, fallback) * w, kSideMin * s, kSideMax * s);
    };
    float left = used[size_t(Region::Left)] ? side(in.sizes.left, defaults.left) : 0.0f;
    float right = used[size_t(Region::Right)] ? side(in.sizes.right, defaults.right) : 0.0f;
    if (left + right > kSidesMaxShare * w) {
        const float k = kSidesMaxShare * w / (left + right);
        left *= k;
        right *= k;
    }
    float low = used[size_t(Region::Bottom)] ? std::clamp(fraction(in.sizes.bottom, defaults.bottom) * middle,
                                                          kBottomMin * s, kBottomMax * s)
                                             : 0.0f;
    low = std::min(low, kBottomMaxShare * middle);
    left = std::round(left);
    right = std::round(right);
    low = std::round(low);

    if (left > 0.0f) l.regions[size_t(Region::Left)] = {0.0f, top, left, middle};
    if (right > 0.0f) l.regions[size_t(Region::Right)] = {w - right, top, right, middle};
    const float centre = std::max(w - left - right, 0.0f);
    if (low > 0.0f) l.regions[size_t(Region::Bottom)] = {left, bottom - low, centre, low};
    l.viewport = {left, top, centre, std::max(middle - low, 0.0f)};
    return l;
}

std::string formatLayout(const SavedLayout& layout) {
    std::string text = "layout version 2\n";
    for (size_t i = 0; i < size_t(PanelId::Count); ++i)
        text += std::string("panel ") + kPanels[i].name + (layout.panels[i] ? " on\n" : " off\n");
    const float sizes[kDockRegions] = {layout.sizes.left, layout.sizes.right, layout.sizes.bottom};
    const LayoutSizes defaults;
    const float defaultSizes[kDockRegions] = {defaults.left, defaults.right, defaults.bottom};
    for (size_t r = 0; r < kDockRegions; ++r) {
        if (std::abs(sizes[r] - defaultSizes[r]) < 1e-4f) continue;
        char line[64];
        std::snprintf(line, sizeof(line), "size %s %.4f\n", kRegionNames[r], double(sizes[r]));
        text += line;
    }
    for (size_t r = 0; r < kDockRegions; ++r)
        if (layout.tabs[r] < PanelId::Count)
            text += std::string("tab ") + kRegionNames[r] + " " + panelName(layout.tabs[r]) + "\n";
    text += std::string("tab folded ") + (layout.foldedFront == Region::Bottom ? "bottom\n" : "right\n");
    return text;
}

void parseLayout(const std::string& text, SavedLayout& layout) {
    // The defaults of the viewers that wrote every size and no version line.
    static constexpr float kFirstDefaults[kDockRegions] = {0.18f, 0.25f, 0.22f};
    const bool versioned = text.rfind("layout version ", 0) == 0;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string kind, a, b, extra;
        if (!(words >> kind >> a >> b) || (words >> extra)) continue;
        PanelId id;
        size_t region;
        if (kind == "panel" && parsePanelName(a, id) && (b == "on" || b == "off")) {
            layout.panels[size_t(id)] = b == "on";
        } else if (kind == "size" && parseRegion(a, region)) {
            float value = 0.0f;
            char* end = nullptr;
            value = std::strtof(b.c_str(), &end);
            if (end == b.c_str() || *end != '\0' || !std::isfinite(value)) continue;
            if (!versioned && std::abs(value - kFirstDefaults[region]) < 1e-4f) continue;
            value = std::clamp(value, kFractionMin, kFractionMax);
            (region == 0   ? layout.sizes.left
             : region == 1 ? layout.sizes.right
                           : layout.sizes.bottom) = value;
        } else if (kind == "tab" && parseRegion(a, region) && parsePanelName(b, id) &&
                   size_t(panelRegion(id)) == region) {
            layout.tabs[region] = id;
        } else if (kind == "tab" && a == "folded" && (b == "right" || b == "bottom")) {
            layout.foldedFront = b == "bottom" ? Region::Bottom : Region::Right;
        }
    }
}

}  // namespace esv
