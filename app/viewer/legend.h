// What the colours of a debug view mean, for the legend in a corner of the 3D view (placeLegend) and
// for the state dump: the Weights view's ramp and joint, the Batches view's colours, the SkinDiff
// view's scale in model units. Reads the same definitions the renderer draws with (heatColor,
// batchColor, resolvedSkinDiffRange in renderer/view_settings.h).
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "app/viewer/viewer_state.h"

namespace esv {

struct ViewLegend {
    std::vector<std::string> lines;  // the title, then what the colours mean; empty: no legend
    // A heatColor bar from 0 (left) to 1 (right) labelled at its ends and middle.
    bool ramp = false;
    std::string low, middle, high;
    std::vector<glm::vec3> swatches;  // batch colours, captioned by their batch index
    float skinDiffRange = 0.0f;       // SkinDiff: the difference (model units) that reads red
    bool empty() const { return lines.empty(); }
};

// The legend of s.view.mode for the scene and pose shown; empty for the modes that need none (and
// without a scene).
ViewLegend viewLegend(const ViewerState& s);

// Where a legend of `width` x `height` goes in the 3D view `view` (window pixels): `margin` in from
// one of its corners, the one farthest from `subject` (the model's box on screen) among those where it
// overlaps neither `subject` nor any of `avoid` (other overlays), the first of bottom left, bottom
// right, top left, top right on a tie within a pixel. Bottom left, the legend's place when the model
// leaves it no room, when no corner is free or `subject` is empty (the model's place unknown).
LayoutRect placeLegend(const LayoutRect& view, float width, float height, float margin,
                       const LayoutRect& subject, const std::vector<LayoutRect>& avoid);

}  // namespace esv
