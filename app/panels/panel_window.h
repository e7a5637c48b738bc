// The opening every scene panel shares: skip when hidden, place at its default spot the first
// time, let the close button hide it, and show a hint instead of the contents when no scene is open.
#pragma once

#include <imgui.h>

#include "app/viewer_state.h"

namespace esv {

// True when the caller should draw the contents and then call ImGui::End(); false when the panel
// is hidden, collapsed or has no scene (the window is already ended).
inline bool beginScenePanel(ViewerState& s, PanelId id, const char* title, const ImVec2& pos, const ImVec2& size,
                            ImGuiWindowFlags flags = 0, const char* noScene = "No scene loaded.") {
    if (!s.panel(id)) return false;
    ImGui::SetNextWindowPos(pos, ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(size, ImGuiCond_FirstUseEver);
    if (!ImGui::Begin(title, &s.panel(id), flags)) {
        ImGui::End();
        return false;
    }
    if (!s.scene) {
        ImGui::TextDisabled("%s", noScene);
        ImGui::End();
        return false;
    }
    return true;
}

}  // namespace esv
