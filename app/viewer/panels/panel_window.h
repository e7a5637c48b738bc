// The opening every scene panel shares. Panels draw into their tab of a docked region's window
// (panels/dock.cpp): each in a child window of its own, so that each tab keeps its own scrolling.
#pragma once

#include <imgui.h>

#include "app/viewer/viewer_state.h"

namespace esv {

// True when the caller should draw the contents and then call endScenePanel(); false when the
// panel is hidden, or when no scene is open (the hint `noScene` is shown instead).
inline bool beginScenePanel(ViewerState& s, PanelId id, ImGuiWindowFlags flags = 0,
                            const char* noScene = "No scene loaded.") {
    if (!s.panel(id)) return false;
    if (!s.scene) {
        ImGui::TextDisabled("%s", noScene);
        return false;
    }
    ImGui::BeginChild(panelName(id), ImVec2(0, 0), false, flags);
    return true;
}

inline void endScenePanel() {
    ImGui::EndChild();
}

}  // namespace esv
