// Drawn over the 3D view, under the panel windows: joint names, the load progress and errors.
#include <cstdio>

#include <imgui.h>

#include "app/panels.h"
#include "app/viewer_actions.h"

namespace esv {

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

    if (s.load.active) {
        // A small centred progress box; the old scene stays visible and usable underneath.
        const ImVec2 size(320, 0);
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
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
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y - 12.0f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
        ImGui::SetNextWindowSizeConstraints(ImVec2(300, 0), ImVec2(io.DisplaySize.x * 0.8f, 300));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.35f, 0.08f, 0.07f, 0.92f));
        ImGui::Begin("##loaderror", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize |
                                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                                 ImGuiWindowFlags_NoMove);
        ImGui::TextUnformatted("Could not open the file; the previous scene stays.");
        ImGui::PushTextWrapPos(io.DisplaySize.x * 0.75f);
        ImGui::TextUnformatted(s.load.error.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::SmallButton("Dismiss")) s.load.error.clear();
        ImGui::End();
        ImGui::PopStyleColor();
    }
}

}  // namespace esv
