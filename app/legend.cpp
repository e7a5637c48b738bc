#include "app/legend.h"

#include <algorithm>
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
    }
    return legend;
}

}  // namespace esv
