#include "app/viewer/legend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scene/cpu_reference.h"

namespace esv {

ViewLegend viewLegend(const ViewerState& s) {
    ViewLegend legend;
    if (!s.scene) return legend;
    const Scene& scene = *s.scene;
    if (s.view.mode == ViewMode::Weights) {
        legend.ramp = true;
        legend.low = "0";
        legend.middle = "0.5";
        legend.high = "1";
        const int bone = s.view.weightBone;
        if (bone >= 0 && size_t(bone) < scene.nodes.size()) {
            legend.lines = {"Weights of joint '" + scene.nodes[size_t(bone)].name + "'",
                            "each vertex: that joint's weight (blue: none)"};
        } else {
            // mesh.vert: with no joint chosen a vertex shows the largest of its weights, whatever
            // joint it belongs to.
            legend.lines = {"Weights: strongest influence", "each vertex: its largest weight, of any joint",
                            "red: one joint alone; green, blue: blended"};
        }
        legend.lines.push_back("meshes without a GPU skin: shaded");
    } else if (s.view.mode == ViewMode::Batches) {
        int batches = 1;
        for (const BatchBudget& b : s.skin.batches) batches = std::max(batches, b.batch + 1);
        for (int b = 0; b < std::min(batches, int(kBatchColorCount)); ++b)
            legend.swatches.push_back(batchColor(size_t(b)));
        legend.lines = {"Batches: each bone batch of a mesh in its colour",
                        "(a mesh without batches: batch 0)"};
        if (batches > int(kBatchColorCount))
            legend.lines.push_back("batch " + std::to_string(kBatchColorCount) +
                                   " and on: the colours again");
    } else if (s.view.mode == ViewMode::SkinDiff) {
        const Bounds bounds = sceneBounds(scene, s.pose);
        legend.skinDiffRange = resolvedSkinDiffRange(
            s.view.skinDiffRange, bounds.valid() ? glm::length(bounds.max - bounds.min) : 0.0f);
        char text[96];
        legend.ramp = true;
        legend.low = "0";
        std::snprintf(text, sizeof(text), "%.3g", 0.5 * double(legend.skinDiffRange));
        legend.middle = text;
        std::snprintf(text, sizeof(text), "%.3g", double(legend.skinDiffRange));
        legend.high = text;
        std::snprintf(text, sizeof(text), "red at %.3g%s; grey: not compared", double(legend.skinDiffRange),
                      s.view.skinDiffRange > 0.0f ? "" : " (1e-3 of the box diagonal)");
        legend.lines = {"Skin diff: |GPU - CPU| position, in model units", text};
    } else if (s.view.mode == ViewMode::Mip) {
        // mesh.frag MODE_MIP's level colours.
        legend.swatches = {{0.1f, 0.2f, 1.0f}, {0.0f, 0.8f, 1.0f}, {0.1f, 0.9f, 0.1f},
                           {1.0f, 1.0f, 0.0f}, {1.0f, 0.5f, 0.0f}, {1.0f, 0.0f, 0.0f}};
        legend.lines = {"Mip: the level of each diffuse map sampled", "levels 0 to 5 and smaller; grey: no map"};
    } else if (s.view.mode == ViewMode::Overdraw || s.view.mode == ViewMode::OverdrawAll) {
        // shaders/overdraw.frag's scale: 1, 2, 3, 4, 5, 6-7, 8 and more fragments a pixel.
        legend.swatches = {{0.05f, 0.1f, 0.45f}, {0.1f, 0.35f, 1.0f}, {0.1f, 0.85f, 0.2f}, {1.0f, 0.95f, 0.1f},
                           {1.0f, 0.55f, 0.0f},  {0.95f, 0.1f, 0.05f}, {1.0f, 1.0f, 1.0f}};
        char text[96];
        const double covered = double(std::max<uint32_t>(s.stats.overdrawCovered, 1));
        std::snprintf(text, sizeof text, "%.2f a covered pixel on average, %u at most",
                      double(s.stats.overdrawShaded) / covered, s.stats.overdrawMax);
        legend.lines = {s.view.mode == ViewMode::Overdraw
                            ? "Overdraw (hidden surface removal): nearest opaque layer, then blended and alpha-tested ones"
                            : "Overdraw, every layer: fragments shaded without depth testing",
                        "1, 2, 3, 4, 5, 6-7, 8+ fragments a pixel", text};
    } else if (s.view.mode == ViewMode::TexelDensity) {
        // mesh.frag MODE_TEXEL_DENSITY's scale: 1/8, 1/2, 1, 2, 8 texels a pixel.
        legend.swatches = {{0.1f, 0.2f, 1.0f}, {0.7f, 0.73f, 1.0f}, {1.0f, 1.0f, 1.0f},
                           {1.0f, 0.7f, 0.7f}, {1.0f, 0.1f, 0.1f}};
        legend.lines = {"Texel density: base texels per screen pixel", "1/8, 1/2, 1, 2, 8 and more; grey: no map"};
    }
    return legend;
}

namespace {

// The distance between two rectangles that do not overlap: 0 when they touch.
float gap(const LayoutRect& a, const LayoutRect& b) {
    const float dx = std::max({b.x - a.right(), a.x - b.right(), 0.0f});
    const float dy = std::max({b.y - a.bottom(), a.y - b.bottom(), 0.0f});
    return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

LayoutRect placeLegend(const LayoutRect& view, float width, float height, float margin,
                       const LayoutRect& subject, const std::vector<LayoutRect>& avoid) {
    const float left = view.x + margin, right = view.right() - margin - width;
    const float top = view.y + margin, bottom = view.bottom() - margin - height;
    const LayoutRect corners[] = {{left, bottom, width, height},
                                  {right, bottom, width, height},
                                  {left, top, width, height},
                                  {right, top, width, height}};
    // A view too small for the legend between its margins has no corner free for it.
    if (subject.empty() || width + 2.0f * margin > view.w || height + 2.0f * margin > view.h)
        return corners[0];
    int best = -1;
    float bestGap = 0.0f;
    for (int i = 0; i < 4; ++i) {
        const LayoutRect& r = corners[i];
        if (r.overlaps(subject)) continue;
        if (std::any_of(avoid.begin(), avoid.end(), [&](const LayoutRect& a) { return r.overlaps(a); }))
            continue;
        const float g = gap(r, subject);
        if (best < 0 || g > bestGap + 1.0f) {
            best = i;
            bestGap = g;
        }
    }
    return corners[best < 0 ? 0 : best];
}

}  // namespace esv
