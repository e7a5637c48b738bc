// Drawn over the 3D view, under the panel windows: joint names, POF markers and the shield mesh,
// the load progress and errors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <imgui.h>

#include "app/panels.h"
#include "app/viewer_actions.h"
#include "renderer/camera.h"

namespace esv {
namespace {

// Marker colours follow PofMarkerKind order.
const ImU32 kPofColors[] = {
    IM_COL32(255, 80, 60, 255),    // guns
    IM_COL32(255, 170, 40, 255),   // missiles
    IM_COL32(160, 130, 255, 255),  // turrets (violet: magenta is the missing-texture checker)
    IM_COL32(80, 255, 120, 255),   // docks
    IM_COL32(80, 170, 255, 255),   // thrusters
    IM_COL32(255, 255, 255, 255),  // eyes
    IM_COL32(255, 240, 90, 255),   // specials
    IM_COL32(120, 255, 255, 255),  // glows
};
static_assert(sizeof(kPofColors) / sizeof(kPofColors[0]) == static_cast<size_t>(PofMarkerKind::Count));

// POF markers (with normals as short lines, radii as circles, dock paths as lines) and the shield
// wireframe, projected with the current camera; the marker under the mouse shows its label.
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
    for (const PofPolyline& line : lines) {
        const ImU32 color = kPofColors[size_t(line.kind)];
        ImVec2 a, b;
        for (size_t i = 0; i + 1 < line.points.size(); ++i)
            if (project(line.points[i], a) && project(line.points[i + 1], b)) draw->AddLine(a, b, color, 1.5f);
    }
    const float normalLength = s.bounds.valid() ? 0.04f * glm::length(s.bounds.max - s.bounds.min) : 1.0f;
    const glm::vec3 cameraRight = glm::vec3(glm::inverse(view)[0]);
    for (const PofMarker& m : markers) {
        ImVec2 at;
        if (!project(m.position, at)) continue;
        const ImU32 color = kPofColors[size_t(m.kind)];
        ImVec2 end;
        if (m.normal != glm::vec3(0.0f) && project(m.position + m.normal * normalLength, end))
            draw->AddLine(at, end, color, 1.5f);
        if (m.radius > 0.0f && project(m.position + cameraRight * m.radius, end)) {
            const float r = std::sqrt((end.x - at.x) * (end.x - at.x) + (end.y - at.y) * (end.y - at.y));
            if (r >= 2.0f && r < 4.0f * (w + h)) draw->AddCircle(at, r, m.lit ? color : IM_COL32(90, 90, 90, 200), 24);
        }
        if (m.lit) {
            draw->AddCircleFilled(at, 4.0f, IM_COL32(0, 0, 0, 200));
            draw->AddCircleFilled(at, 3.0f, color);
        } else {
            draw->AddCircle(at, 3.0f, IM_COL32(90, 90, 90, 220));
        }
    }
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantCaptureMouse && ImGui::IsMousePosValid()) {
        const int hovered = pofMarkerAt(s, markers, io.MousePos.x * io.DisplayFramebufferScale.x,
                                        io.MousePos.y * io.DisplayFramebufferScale.y);
        ImVec2 at;
        if (hovered >= 0 && project(markers[hovered].position, at)) {
            draw->AddCircle(at, 7.0f, IM_COL32(255, 255, 255, 255), 16, 2.0f);
            ImGui::SetTooltip("%s", markers[hovered].label.c_str());
        }
    }
}

}  // namespace

void drawViewportOverlay(ViewerState& s) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    const ImGuiIO& io = ImGui::GetIO();
    // Framebuffer pixels to ImGui coordinates (they differ on high-DPI displays).
    const float sx = io.DisplayFramebufferScale.x > 0.0f ? 1.0f / io.DisplayFramebufferScale.x : 1.0f;
    const float sy = io.DisplayFramebufferScale.y > 0.0f ? 1.0f / io.DisplayFramebufferScale.y : 1.0f;

    if (s.scene && s.showJointNames && s.pose.world.size() == s.scene->nodes.size()) {
        for (size_t n = 0; n < s.scene->nodes.size(); ++n) {
            if (!isJoint(*s.scene, int(n))) continue;
            glm::vec2 p;
            if (!projectToScreen(s, glm::vec3(s.pose.world[n][3]), p)) continue;
            const bool selected = int(n) == s.selection.node;
            const ImVec2 at(p.x * sx + 6.0f, p.y * sy - 7.0f);
            const char* name = s.scene->nodes[n].name.c_str();
            draw->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 200), name);
            draw->AddText(at, selected ? IM_COL32(255, 120, 90, 255) : IM_COL32(255, 230, 150, 255), name);
        }
    }

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
