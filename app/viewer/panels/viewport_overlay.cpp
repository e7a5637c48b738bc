// Drawn over the 3D view, under the panel windows: the legend of the debug view modes, the selected
// and hovered joint's name, the POF markers (the renderer draws them; labels and the shield here),
// what a scene without a mesh holds, the load progress and errors; a compared model's divider, names,
// difference picture and figures.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/legend.h"
#include "app/viewer/panels.h"
#include "app/viewer/viewer_actions.h"
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

// The model's box on screen in ImGui coordinates: the framing box (every pose of the clip, as framed)
// projected with the current camera; empty when it cannot be (no scene, a corner behind the camera).
LayoutRect modelScreenBox(const ViewerState& s, float sx, float sy) {
    glm::vec2 min, max;
    if (!s.scene || !projectBox(s, s.bounds, min, max)) return {};
    return {min.x * sx, min.y * sy, (max.x - min.x) * sx, (max.y - min.y) * sy};
}

// The legend (viewLegend) in a box in a corner of the 3D view clear of the model where one is
// (placeLegend), else the bottom left: its lines above a heat-ramp bar (heatColor, as mesh.frag draws
// it) with its labels, or above its swatches. Its rectangle goes to s.legendRect.
void drawLegend(ViewerState& s, float sx, float sy) {
    const ViewLegend legend = viewLegend(s);
    s.legendRect = {};
    if (legend.empty()) return;
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    const LayoutRect area = viewArea(s);
    const float font = ImGui::GetFontSize();
    const float pad = 0.5f * font, barWidth = 14.0f * font, barHeight = 0.9f * font;
    const float swatch = 1.3f * font, swatchGap = 0.4f * font;
    const ImU32 textColor = IM_COL32(235, 235, 235, 255);
    float width = legend.ramp ? barWidth : 0.0f;
    for (const std::string& line : legend.lines) width = std::max(width, ImGui::CalcTextSize(line.c_str()).x);
    width = std::max(width, float(legend.swatches.size()) * (swatch + swatchGap));
    float height = float(legend.lines.size()) * (font + 2.0f);
    if (legend.ramp) height += barHeight + font + 6.0f;
    if (!legend.swatches.empty()) height += swatch + font + 6.0f;
    std::vector<LayoutRect> avoid;
    for (const LayoutRect& r : {s.errorBoxRect, s.statsRect})
        if (!r.empty()) avoid.push_back(r);
    s.legendRect =
        placeLegend(area, width + 2.0f * pad, height + 2.0f * pad, 10.0f, modelScreenBox(s, sx, sy), avoid);
    const ImVec2 min(s.legendRect.x, s.legendRect.y);
    const ImVec2 max(s.legendRect.right(), s.legendRect.bottom());
    draw->AddRectFilled(min, max, IM_COL32(20, 22, 26, 200), 4.0f);
    float y = min.y + pad;
    for (const std::string& line : legend.lines) {
        draw->AddText(ImVec2(min.x + pad, y), textColor, line.c_str());
        y += font + 2.0f;
    }
    const float x0 = min.x + pad;
    if (legend.ramp) {
        // The ramp is linear between its corners at 0, 1/4, 1/2, 3/4 and 1: four gradients draw it exactly.
        y += 2.0f;
        for (int i = 0; i < 4; ++i) {
            const float left = x0 + barWidth * float(i) / 4.0f, right = x0 + barWidth * float(i + 1) / 4.0f;
            const ImU32 from = toImColor(heatColor(float(i) / 4.0f)),
                        to = toImColor(heatColor(float(i + 1) / 4.0f));
            draw->AddRectFilledMultiColor(ImVec2(left, y), ImVec2(right, y + barHeight), from, to, to, from);
        }
        y += barHeight + 2.0f;
        const float middle = ImGui::CalcTextSize(legend.middle.c_str()).x;
        const float high = ImGui::CalcTextSize(legend.high.c_str()).x;
        draw->AddText(ImVec2(x0, y), textColor, legend.low.c_str());
        draw->AddText(ImVec2(x0 + 0.5f * (barWidth - middle), y), textColor, legend.middle.c_str());
        draw->AddText(ImVec2(x0 + barWidth - high, y), textColor, legend.high.c_str());
    }
    if (!legend.swatches.empty()) {
        y += 2.0f;
        for (size_t i = 0; i < legend.swatches.size(); ++i) {
            const float x = x0 + float(i) * (swatch + swatchGap);
            draw->AddRectFilled(ImVec2(x, y), ImVec2(x + swatch, y + swatch), toImColor(legend.swatches[i]));
            const std::string index = std::to_string(i);
            const float indexWidth = ImGui::CalcTextSize(index.c_str()).x;
            draw->AddText(ImVec2(x + 0.5f * (swatch - indexWidth), y + swatch + 2.0f), textColor,
                          index.c_str());
        }
    }
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

// The selected joint's name with its bone batches, always (a picked joint is named where it is);
// with s.showJointNames also the joint under the mouse's, and with s.allJointNames every joint's (one
// skeleton's names over each other read as little, so that is a switch of its own).
void drawJointNames(const ViewerState& s, ImDrawList* draw, float sx, float sy) {
    if (!s.scene || s.pose.world.size() != s.scene->nodes.size()) return;
    std::vector<int> shown;
    for (int n : {s.selection.node, s.selection.joint})
        if (n >= 0 && size_t(n) < s.scene->nodes.size() && isJoint(*s.scene, n)) shown.push_back(n);
    glm::vec2 mouse;
    const int hovered = s.showJointNames && mouseOverView(s, mouse) ? jointAt(s, mouse.x, mouse.y, 8.0f) : -1;
    if (hovered >= 0) shown.push_back(hovered);
    if (s.showJointNames && s.allJointNames)
        for (size_t n = 0; n < s.scene->nodes.size(); ++n)
            if (isJoint(*s.scene, int(n))) shown.push_back(int(n));
    for (size_t i = 0; i < shown.size(); ++i) {
        const int n = shown[i];
        if (std::find(shown.begin(), shown.begin() + long(i), n) != shown.begin() + long(i)) continue;
        glm::vec2 p;
        if (!projectToScreen(s, glm::vec3(s.pose.world[n][3]), p)) continue;
        const bool selected = n == s.selection.node || n == s.selection.joint;
        std::string text = s.scene->nodes[size_t(n)].name;
        if (selected) {
            const std::string batches = jointBatchText(*s.scene, n);
            if (!batches.empty()) text += " (" + batches + ")";
        }
        shadowedText(draw, ImVec2(p.x * sx + 6.0f, p.y * sy - 7.0f),
                     selected ? IM_COL32(255, 120, 90, 255) : IM_COL32(255, 230, 150, 255), text.c_str());
    }
}

// The picked vertex (ViewerState::pickedVertex): a ring where the CPU skinning path puts it and, beside
// it, its influences as the file stores them: each stored bone index, the joint it names and its weight,
// and the bone batches that draw it.
void drawPickedVertex(const ViewerState& s, ImDrawList* draw, float sx, float sy) {
    const StoredInfluences& p = s.pickedVertex;
    if (!s.scene || p.node < 0) return;
    const Scene& scene = fileScene(s);
    if (size_t(p.node) >= scene.nodes.size() || s.pose.world.size() != scene.nodes.size()) return;
    std::vector<glm::vec3> positions;
    worldVertices(scene, s.pose, p.node, positions);
    glm::vec2 at;
    if (p.vertex >= positions.size() || !projectToScreen(s, positions[p.vertex], at)) return;
    const ImVec2 ring(at.x * sx, at.y * sy);
    draw->AddCircle(ring, 6.0f, IM_COL32(0, 0, 0, 220), 16, 3.5f);
    draw->AddCircle(ring, 6.0f, IM_COL32(255, 255, 255, 255), 16, 1.5f);
    const std::vector<std::string> lines = pickedVertexLines(s);
    const float font = ImGui::GetFontSize(), pad = 0.4f * font;
    float width = 0.0f;
    for (const std::string& line : lines) width = std::max(width, ImGui::CalcTextSize(line.c_str()).x);
    const ImVec2 min(ring.x + 12.0f, ring.y + 12.0f);
    draw->AddRectFilled(min, ImVec2(min.x + width + 2.0f * pad, min.y + float(lines.size()) * font + 2.0f * pad),
                        IM_COL32(20, 22, 26, 220), 4.0f);
    for (size_t i = 0; i < lines.size(); ++i)
        draw->AddText(ImVec2(min.x + pad, min.y + pad + float(i) * font), IM_COL32(235, 235, 235, 255),
                      lines[i].c_str());
}

// POF markers and the shield: the renderer draws them (depth-tested, or through the hull with x-ray)
// from s.annotations, made before the panels (updateFrameAnnotations); here the label of the
// selected and of the hovered marker, and the click that selects one.
void drawPofOverlay(ViewerState& s, ImDrawList* draw, float sx, float sy) {
    if (!s.scene || !s.scene->pof || s.pose.world.size() != s.scene->nodes.size()) return;
    const ViewportRect v = sceneViewport(s);
    if (v.empty()) return;
    bool any = false;
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

    std::vector<PofMarker> markers;
    std::vector<PofPolyline> lines;
    pofMarkers(*s.scene, s.pose, s.pof, false, markers, lines);

    auto label = [&](const PofMarker& m, bool hovered) {
        ImVec2 at;
        if (!project(m.position, at)) return;
        draw->AddCircle(at, 7.0f, hovered ? IM_COL32(255, 255, 255, 255) : toImColor(pofMarkerColor(m.kind)),
                        16, 2.0f);
        shadowedText(draw, ImVec2(at.x + 10.0f, at.y - 8.0f), IM_COL32(255, 255, 255, 255), m.label.c_str());
    };
    glm::vec2 mouse;
    int hovered = mouseOverView(s, mouse) ? pofMarkerAt(s, markers, mouse.x, mouse.y) : -1;
    // A marker hidden behind the hull is not there to point at (x-ray shows it).
    if (hovered >= 0 && !s.pof.xray && hiddenBySurface(s, markers[size_t(hovered)].position)) hovered = -1;
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

// A scene that draws no mesh: what it holds instead (ViewerState::noMeshNote), centred at the top of
// the 3D view, so that an empty-looking view is not taken for a failed load.
void drawNoMeshNote(const ViewerState& s, ImDrawList* draw) {
    if (!s.scene || s.noMeshNote.empty()) return;
    const LayoutRect area = viewArea(s);
    const ImVec2 size = ImGui::CalcTextSize(s.noMeshNote.c_str());
    const ImVec2 at(area.x + 0.5f * (area.w - size.x), area.y + 0.75f * ImGui::GetFontSize());
    draw->AddRectFilled(ImVec2(at.x - 6.0f, at.y - 3.0f), ImVec2(at.x + size.x + 6.0f, at.y + size.y + 3.0f),
                        IM_COL32(20, 22, 26, 200), 4.0f);
    draw->AddText(at, IM_COL32(235, 235, 235, 255), s.noMeshNote.c_str());
}

// Compare with…: in the difference view its picture over the whole 3D view (the frame loop fills the
// texture after this is laid out, before it is drawn) and the golden rule's figures; in the split view
// the divider and its grip; the names of A and B over their parts.
void drawCompareOverlay(const ViewerState& s, ImDrawList* draw) {
    const CompareView& c = s.compare;
    if (!c.active()) return;
    const LayoutRect area = viewArea(s);
    const ImU32 textColor = IM_COL32(235, 235, 235, 255);
    const float font = ImGui::GetFontSize(), pad = 0.5f * font;
    const std::string nameA = "A: " + std::filesystem::path(s.path).filename().string();
    const std::string nameB = "B: " + std::filesystem::path(c.path).filename().string();
    if (c.mode == CompareMode::Difference) {
        if (c.diffTexture != 0)
            draw->AddImage(ImTextureID(intptr_t(c.diffTexture)), ImVec2(area.x, area.y),
                           ImVec2(area.right(), area.bottom()));
        const std::string line = c.figures.valid ? compareFiguresText(c.figures) : nameB;
        shadowedText(draw, ImVec2(area.x + pad, area.y + pad), textColor, (nameA + " vs " + line).c_str());
        return;
    }
    float split = area.x + area.w * 0.5f;
    if (c.mode == CompareMode::Split) {
        split = area.x + area.w * std::clamp(c.divider, 0.0f, 1.0f);
        const ImU32 line = c.draggingDivider ? IM_COL32(255, 200, 80, 255) : IM_COL32(235, 235, 235, 230);
        draw->AddLine(ImVec2(split, area.y), ImVec2(split, area.bottom()), line, 2.0f);
        const float grip = 0.6f * font, middle = area.y + area.h * 0.5f;
        draw->AddRectFilled(ImVec2(split - grip * 0.5f, middle - grip * 1.5f),
                            ImVec2(split + grip * 0.5f, middle + grip * 1.5f), line, 3.0f);
    }
    shadowedText(draw, ImVec2(area.x + pad, area.y + pad), textColor, nameA.c_str());
    const float widthB = ImGui::CalcTextSize(nameB.c_str()).x;
    shadowedText(draw, ImVec2(std::max(split + pad, area.right() - pad - widthB), area.y + pad), textColor,
                 nameB.c_str());
}

}  // namespace

void drawViewportOverlay(ViewerState& s) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    const ImGuiIO& io = ImGui::GetIO();
    // Framebuffer pixels to ImGui coordinates (they differ on high-DPI displays).
    const float sx = io.DisplayFramebufferScale.x > 0.0f ? 1.0f / io.DisplayFramebufferScale.x : 1.0f;
    const float sy = io.DisplayFramebufferScale.y > 0.0f ? 1.0f / io.DisplayFramebufferScale.y : 1.0f;

    drawCompareOverlay(s, draw);
    drawLegend(s, sx, sy);
    s.errorBoxRect = {};
    s.statsRect = {};  // drawStatsOverlay's, after this
    drawJointNames(s, draw, sx, sy);
    drawPickedVertex(s, draw, sx, sy);
    drawPofOverlay(s, draw, sx, sy);
    drawNoMeshNote(s, draw);
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
        // At most the 3D view's width less 10 pixels a side, long lines wrapped to it.
        const float maxWidth = std::max(area.w - 20.0f, 1.0f);
        ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(300.0f, maxWidth), 0), ImVec2(maxWidth, 300));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.35f, 0.08f, 0.07f, 0.92f));
        ImGui::Begin("##loaderror", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize |
                                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                                 ImGuiWindowFlags_NoMove);
        // The wrap position is in the window's coordinates: its right edge less the padding (a
        // scrollbar, shown past 300 pixels of height, takes its own room inside that).
        const float wrapAt =
            std::max(maxWidth - ImGui::GetStyle().WindowPadding.x - ImGui::GetStyle().ScrollbarSize, 1.0f);
        ImGui::PushTextWrapPos(wrapAt);
        ImGui::TextUnformatted(s.scene ? "Could not open the file; the previous scene stays."
                                       : "Could not open the file.");
        ImGui::TextUnformatted(s.load.error.c_str());
        const float textRight = ImGui::GetItemRectMax().x;
        ImGui::PopTextWrapPos();
        if (ImGui::SmallButton("Dismiss")) s.load.error.clear();
        // The box, and the message where it runs past the box's edge (the window clips it there).
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        s.errorBoxRect = {pos.x, pos.y, std::max(size.x, textRight - pos.x), size.y};
        ImGui::End();
        ImGui::PopStyleColor();
    }
}

}  // namespace esv
