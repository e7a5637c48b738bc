// Drawn over the 3D view, under the panel windows: the legend of the debug view modes, the selected
// and hovered joint's name, the POF markers (the renderer draws them; labels and the shield here),
// the load progress and errors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/panels.h"
#include "app/viewer_actions.h"
#include "renderer/camera.h"
#include "scene/cpu_reference.h"

namespace esv {
namespace {

ImU32 toImColor(const glm::vec4& c) {
    return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a));
}
ImU32 toImColor(const glm::vec3& c) {
    return toImColor(glm::vec4(c, 1.0f));
}

// Text with a dark shadow, readable over any model.
void shadowedText(ImDrawList* draw, const ImVec2& at, ImU32 color, const char* text) {
    draw->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 220), text);
    draw->AddText(at, color, text);
}

// The 3D view's rectangle in ImGui coordinates.
LayoutRect viewArea(const ViewerState& s) {
    const ImGuiIO& io = ImGui::GetIO();
    return s.layout.viewport.empty() ? LayoutRect{0, 0, io.DisplaySize.x, io.DisplaySize.y}
                                     : s.layout.viewport;
}

// A legend box in the bottom left corner of the 3D view: `lines` of text above a heat-ramp bar
// (heatColor, as mesh.frag draws it) labelled with `low`, `middle` and `high`; no bar when `low` is
// null. Swatches (`swatches`, captioned by their index) replace the bar when given.
void legendBox(const ViewerState& s, const std::vector<std::string>& lines, const char* low,
               const char* middle, const char* high, const std::vector<glm::vec3>& swatches = {}) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    const LayoutRect area = viewArea(s);
    const float font = ImGui::GetFontSize();
    const float pad = 0.5f * font, barWidth = 14.0f * font, barHeight = 0.9f * font;
    float width = barWidth;
    for (const std::string& line : lines) width = std::max(width, ImGui::CalcTextSize(line.c_str()).x);
    const float swatch = 1.3f * font, swatchGap = 0.4f * font;
    if (!swatches.empty()) width = std::max(width, float(swatches.size()) * (swatch + swatchGap));
    float height = float(lines.size()) * (font + 2.0f);
    if (low) height += barHeight + font + 6.0f;
    if (!swatches.empty()) height += swatch + font + 6.0f;
    const ImVec2 min(area.x + 10.0f, area.bottom() - 10.0f - height - 2.0f * pad);
    const ImVec2 max(min.x + width + 2.0f * pad, area.bottom() - 10.0f);
    draw->AddRectFilled(min, max, IM_COL32(20, 22, 26, 200), 4.0f);
    float y = min.y + pad;
    for (const std::string& line : lines) {
        draw->AddText(ImVec2(min.x + pad, y), IM_COL32(235, 235, 235, 255), line.c_str());
        y += font + 2.0f;
    }
    if (low) {
        // The ramp is linear between its corners at 0, 1/4, 1/2, 3/4 and 1: four gradients draw it exactly.
        y += 2.0f;
        for (int i = 0; i < 4; ++i) {
            const float x0 = min.x + pad + barWidth * float(i) / 4.0f,
                        x1 = min.x + pad + barWidth * float(i + 1) / 4.0f;
            const ImU32 left = toImColor(heatColor(float(i) / 4.0f)),
                        right = toImColor(heatColor(float(i + 1) / 4.0f));
            draw->AddRectFilledMultiColor(ImVec2(x0, y), ImVec2(x1, y + barHeight), left, right, right, left);
        }
        y += barHeight + 2.0f;
        const float x0 = min.x + pad;
        draw->AddText(ImVec2(x0, y), IM_COL32(235, 235, 235, 255), low);
        const float mw = ImGui::CalcTextSize(middle).x, hw = ImGui::CalcTextSize(high).x;
        draw->AddText(ImVec2(x0 + 0.5f * (barWidth - mw), y), IM_COL32(235, 235, 235, 255), middle);
        draw->AddText(ImVec2(x0 + barWidth - hw, y), IM_COL32(235, 235, 235, 255), high);
    }
    if (!swatches.empty()) {
        y += 2.0f;
        for (size_t i = 0; i < swatches.size(); ++i) {
            const float x = min.x + pad + float(i) * (swatch + swatchGap);
            draw->AddRectFilled(ImVec2(x, y), ImVec2(x + swatch, y + swatch), toImColor(swatches[i]));
            char index[24];
            std::snprintf(index, sizeof(index), "%zu", i);
            const float iw = ImGui::CalcTextSize(index).x;
            draw->AddText(ImVec2(x + 0.5f * (swatch - iw), y + swatch + 2.0f), IM_COL32(235, 235, 235, 255),
                          index);
        }
    }
}

// What the colours of the Weights, Batches and SkinDiff views mean.
void drawLegend(const ViewerState& s) {
    if (!s.scene) return;
    const Scene& scene = *s.scene;
    if (s.view.mode == ViewMode::Weights) {
        const int bone = s.view.weightBone;
        if (bone >= 0 && size_t(bone) < scene.nodes.size()) {
            legendBox(s,
                      {"Weights of joint '" + scene.nodes[bone].name + "'",
                       "each vertex: that joint's weight (blue: none)"},
                      "0", "0.5", "1");
        } else {
            // mesh.vert: with no joint chosen each vertex shows max(weights), whichever joint that is.
            legendBox(s,
                      {"Weights: strongest influence", "each vertex: its largest weight, of any joint",
                       "red: one joint alone; green, blue: blended"},
                      "0", "0.5", "1");
        }
    } else if (s.view.mode == ViewMode::Batches) {
        int batches = 1;
        for (const BatchBudget& b : s.skin.batches) batches = std::max(batches, b.batch + 1);
        std::vector<glm::vec3> swatches;
        for (int b = 0; b < std::min<int>(batches, int(kBatchColorCount)); ++b)
            swatches.push_back(batchColor(size_t(b)));
        std::vector<std::string> lines = {"Batches: each bone batch of a mesh in its colour",
                                          "(a mesh without batches: batch 0)"};
        if (batches > int(kBatchColorCount))
            lines.push_back("batch " + std::to_string(kBatchColorCount) + " and on repeat the colours");
        legendBox(s, lines, nullptr, nullptr, nullptr, swatches);
    } else if (s.view.mode == ViewMode::SkinDiff) {
        const Bounds bounds = sceneBounds(scene, s.pose);
        const float range = resolvedSkinDiffRange(
            s.view.skinDiffRange, bounds.valid() ? glm::length(bounds.max - bounds.min) : 0.0f);
        char middle[32], high[32], line[96];
        std::snprintf(middle, sizeof(middle), "%.3g", 0.5 * double(range));
        std::snprintf(high, sizeof(high), "%.3g", double(range));
        std::snprintf(line, sizeof(line), "red at %.3g%s; grey: not compared", double(range),
                      s.view.skinDiffRange > 0.0f ? "" : " (1e-3 of the box diagonal)");
        legendBox(s, {"Skin diff: |GPU - CPU| position, in model units", line}, "0", middle, high);
    }
}

// The skeleton's joint nearest framebuffer pixel (x, y) within `radiusPx`; -1 = none.
int jointAt(const ViewerState& s, float x, float y, float radiusPx) {
    int best = -1;
    float bestDistance = radiusPx;
    for (size_t n = 0; n < s.scene->nodes.size(); ++n) {
        if (!isJoint(*s.scene, int(n))) continue;
        glm::vec2 p;
        if (!projectToScreen(s, glm::vec3(s.pose.world[n][3]), p)) continue;
        const float d = glm::length(p - glm::vec2(x, y));
        if (d <= bestDistance) {
            bestDistance = d;
            best = int(n);
        }
    }
    return best;
}

// The mouse in framebuffer pixels when it is over the 3D view and no panel takes it.
bool mouseOverView(const ViewerState& s, glm::vec2& pixel) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureMouse || !ImGui::IsMousePosValid()) return false;
    if (!viewArea(s).contains(io.MousePos.x, io.MousePos.y)) return false;
    pixel =
        glm::vec2(io.MousePos.x * io.DisplayFramebufferScale.x, io.MousePos.y * io.DisplayFramebufferScale.y);
    return true;
}

// The names of the selected joint and of the joint under the mouse (not every joint: a skeleton's
// names on top of each other read as nothing).
void drawJointNames(const ViewerState& s, ImDrawList* draw, float sx, float sy) {
    if (!s.scene || !s.showJointNames || s.pose.world.size() != s.scene->nodes.size()) return;
    std::vector<int> shown;
    for (int n : {s.selection.node, s.selection.joint})
        if (n >= 0 && size_t(n) < s.scene->nodes.size() && isJoint(*s.scene, n)) shown.push_back(n);
    glm::vec2 mouse;
    const int hovered = mouseOverView(s, mouse) ? jointAt(s, mouse.x, mouse.y, 8.0f) : -1;
    if (hovered >= 0) shown.push_back(hovered);
    for (size_t i = 0; i < shown.size(); ++i) {
        const int n = shown[i];
        if (std::find(shown.begin(), shown.begin() + long(i), n) != shown.begin() + long(i)) continue;
        glm::vec2 p;
        if (!projectToScreen(s, glm::vec3(s.pose.world[n][3]), p)) continue;
        const bool selected = n == s.selection.node || n == s.selection.joint;
        shadowedText(draw, ImVec2(p.x * sx + 6.0f, p.y * sy - 7.0f),
                     selected ? IM_COL32(255, 120, 90, 255) : IM_COL32(255, 230, 150, 255),
                     s.scene->nodes[size_t(n)].name.c_str());
    }
}

// POF markers: the renderer draws them (depth-tested, or through the hull with x-ray) from
// s.annotations; here the shield wireframe, and the label of the selected and of the hovered marker.
void drawPofOverlay(ViewerState& s, ImDrawList* draw, float sx, float sy) {
    if (!s.scene || !s.scene->pof || s.pose.world.size() != s.scene->nodes.size()) return;
    const ViewportRect v = sceneViewport(s);
    if (v.empty()) return;
    bool any = s.pof.shield;
    for (bool on : s.pof.markers) any = any || on;
    if (!any) return;
    glm::mat4 view, projection;
    cameraMatrices(*s.scene, s.pose, s.view, v.width, v.height, view, projection);
    const glm::mat4 viewProjection = projection * view;
    const float w = float(v.width), h = float(v.height);
    auto project = [&](const glm::vec3& world, ImVec2& out) {
        const glm::vec4 clip = viewProjection * glm::vec4(world, 1.0f);
        if (clip.w <= 1e-6f) return false;
        out = ImVec2((float(v.x) + (clip.x / clip.w * 0.5f + 0.5f) * w) * sx,
                     (float(v.y) + (0.5f - clip.y / clip.w * 0.5f) * h) * sy);
        return true;
    };

    if (s.pof.shield) {
        std::vector<glm::vec3> segments;
        pofShieldEdges(*s.scene->pof, segments);
        ImVec2 a, b;
        for (size_t i = 0; i + 1 < segments.size(); i += 2)
            if (project(segments[i], a) && project(segments[i + 1], b)) draw->AddLine(a, b, IM_COL32(90, 200, 255, 120));
    }

    std::vector<PofMarker> markers;
    std::vector<PofPolyline> lines;
    pofMarkers(*s.scene, s.pose, s.pof, false, markers, lines);
    const float normalLength = s.bounds.valid() ? 0.04f * glm::length(s.bounds.max - s.bounds.min) : 1.0f;
    const glm::mat4 cameraToWorld = glm::inverse(view);
    pofAnnotations(markers, lines, glm::normalize(glm::vec3(cameraToWorld[0])),
                   glm::normalize(glm::vec3(cameraToWorld[1])), normalLength, s.pof.xray, s.annotations);
    if (!s.annotations.empty()) s.view.annotations = &s.annotations;

    auto label = [&](const PofMarker& m, bool hovered) {
        ImVec2 at;
        if (!project(m.position, at)) return;
        draw->AddCircle(at, 7.0f, hovered ? IM_COL32(255, 255, 255, 255) : toImColor(pofMarkerColor(m.kind)),
                        16, 2.0f);
        shadowedText(draw, ImVec2(at.x + 10.0f, at.y - 8.0f), IM_COL32(255, 255, 255, 255), m.label.c_str());
    };
    glm::vec2 mouse;
    const int hovered = mouseOverView(s, mouse) ? pofMarkerAt(s, markers, mouse.x, mouse.y) : -1;
    // A click in the view (released where it was pressed) selects the marker under the mouse, or none.
    const ImGuiIO& io = ImGui::GetIO();
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !io.WantCaptureMouse &&
        io.MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] <= io.MouseDragThreshold * io.MouseDragThreshold)
        s.pof.selectedMarker = hovered >= 0 ? markers[size_t(hovered)].label : std::string();
    for (size_t i = 0; i < markers.size(); ++i)
        if (int(i) != hovered && !s.pof.selectedMarker.empty() && markers[i].label == s.pof.selectedMarker)
            label(markers[i], false);
    if (hovered >= 0) label(markers[size_t(hovered)], true);
}

}  // namespace

void drawViewportOverlay(ViewerState& s) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    const ImGuiIO& io = ImGui::GetIO();
    // Framebuffer pixels to ImGui coordinates (they differ on high-DPI displays).
    const float sx = io.DisplayFramebufferScale.x > 0.0f ? 1.0f / io.DisplayFramebufferScale.x : 1.0f;
    const float sy = io.DisplayFramebufferScale.y > 0.0f ? 1.0f / io.DisplayFramebufferScale.y : 1.0f;

    // Rebuilt below for this frame when something is to be drawn.
    s.view.annotations = nullptr;
    s.annotations.lines.clear();
    s.annotations.points.clear();
    drawLegend(s);
    drawJointNames(s, draw, sx, sy);
    drawPofOverlay(s, draw, sx, sy);
    // The banners sit in the 3D view, clear of the panels.
    const LayoutRect area = s.layout.viewport.empty() ? LayoutRect{0, 0, io.DisplaySize.x, io.DisplaySize.y} : s.layout.viewport;

    if (s.load.active) {
        // A small centred progress box; the old scene stays visible and usable underneath.
        const ImVec2 size(320, 0);
        ImGui::SetNextWindowPos(ImVec2(area.x + area.w * 0.5f, area.y + area.h * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
        ImGui::SetNextWindowSize(size);
        ImGui::SetNextWindowBgAlpha(0.85f);
        ImGui::Begin("##loading", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                               ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                               ImGuiWindowFlags_NoNav);
        ImGui::TextWrapped("Loading %s", s.load.path.c_str());
        char overlay[96];
        std::snprintf(overlay, sizeof(overlay), "%s %.0f%%", s.load.stage.c_str(), 100.0f * s.load.progress);
        ImGui::ProgressBar(s.load.progress, ImVec2(-1, 0), overlay);
        ImGui::End();
    }

    if (!s.load.error.empty()) {
        // The error stays until dismissed or the next load; the previous scene keeps running.
        ImGui::SetNextWindowPos(ImVec2(area.x + area.w * 0.5f, area.bottom() - 12.0f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
        ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(300.0f, area.w), 0), ImVec2(std::max(area.w - 20.0f, 1.0f), 300));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.35f, 0.08f, 0.07f, 0.92f));
        ImGui::Begin("##loaderror", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize |
                                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                                 ImGuiWindowFlags_NoMove);
        ImGui::TextUnformatted(s.scene ? "Could not open the file; the previous scene stays." : "Could not open the file.");
        ImGui::PushTextWrapPos(io.DisplaySize.x * 0.75f);
        ImGui::TextUnformatted(s.load.error.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::SmallButton("Dismiss")) s.load.error.clear();
        ImGui::End();
        ImGui::PopStyleColor();
    }
}

}  // namespace esv
