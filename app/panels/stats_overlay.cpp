// The stats overlay: a small translucent box in the 3D view's top right corner with frame times,
// draw counts, skinning palette use against the uniform limit and texture memory. It takes no
// input, like the simple overlay of the Dear ImGui demo.
#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/panels.h"

namespace esv {
namespace {

const ImVec4 kOverColor(1.0f, 0.35f, 0.3f, 1.0f);

// Distance of the overlay from the 3D view's edges.
constexpr float kPad = 10.0f;

}  // namespace

void drawStatsOverlay(ViewerState& s) {
    if (!s.panel(PanelId::Stats)) return;
    const LayoutRect& view = s.layout.viewport;
    if (view.empty()) return;
    const ImVec2 pos(view.x + std::max(view.w - kPad, kPad), view.y + kPad);
    ImGui::SetNextWindowPos(pos, ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(std::max(view.w - 2 * kPad, 1.0f), std::max(view.h - 2 * kPad, 1.0f)));
    ImGui::SetNextWindowBgAlpha(0.35f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoInputs;
    if (!ImGui::Begin("Stats", &s.panel(PanelId::Stats), flags)) {
        ImGui::End();
        return;
    }
    const float fps = ImGui::GetIO().Framerate;
    ImGui::Text("CPU %.2f ms   %.0f fps (%.2f ms)", s.cpuFrameMs, fps, fps > 0.0f ? 1000.0f / fps : 0.0f);
    if (s.rendererInfo.gpuTimer && std::isfinite(s.stats.gpuMs) && s.stats.gpuMs >= 0.0f)
        ImGui::Text("GPU %.2f ms", s.stats.gpuMs);
    else
        ImGui::TextDisabled("GPU n/a");

    if (!s.scene) {
        ImGui::TextDisabled("no scene");
        ImGui::End();
        return;
    }
    if (s.stats.lines || s.stats.points)
        ImGui::Text("%u draws, %u triangles, %u lines, %u points", s.stats.drawCalls, s.stats.triangles,
                    s.stats.lines, s.stats.points);
    else
        ImGui::Text("%u draws, %u triangles", s.stats.drawCalls, s.stats.triangles);
    ImGui::Text("bone batches drawn %u", s.stats.boneBatchesDrawn);
    const int limit = s.rendererInfo.maxVertexUniformVectors;
    const int used = static_cast<int>(s.stats.paletteVectorsMax) + s.rendererInfo.reservedVertexVectors;
    const bool over = limit > 0 && used > limit;
    if (s.stats.paletteVectorsMax == 0)
        ImGui::TextDisabled("uniforms: no skinned draw (limit %d)", limit);
    else
        ImGui::TextColored(over ? kOverColor : ImGui::GetStyleColorVec4(ImGuiCol_Text),
                           "uniforms: palette %u + %d / %d", s.stats.paletteVectorsMax,
                           s.rendererInfo.reservedVertexVectors, limit);
    // Instances the GPU path could not take this frame, and why (never a silent fallback).
    if (s.stats.cpuMorphedNodes || s.stats.cpuSkinnedNodes)
        ImGui::TextColored(kOverColor, "on the CPU: %u morphed (too many targets), %u skinned (batch over palette)",
                           s.stats.cpuMorphedNodes, s.stats.cpuSkinnedNodes);
    if (s.stats.morphTextureNodes) ImGui::Text("morphs from the delta texture: %u", s.stats.morphTextureNodes);
    ImGui::Text("textures %.2f MiB", static_cast<double>(s.rendererInfo.textureBytes) / (1024.0 * 1024.0));
    if (s.rendererInfo.es3)
        ImGui::TextUnformatted("OpenGL ES 3.0");
    else
        ImGui::Text("OpenGL ES 2.0%s", s.gles2 ? " (limits enforced)" : "");
    if (s.stats.glErrors > 0) ImGui::TextColored(kOverColor, "%u GL errors", s.stats.glErrors);

    if (s.view.mode == ViewMode::SkinDiff) {
        if (s.stats.skinDiffMax >= 0.0f)
            ImGui::Text("skin diff max %.6g", s.stats.skinDiffMax);
        else
            ImGui::TextDisabled("skin diff: nothing compared");
    }
    ImGui::End();
}

}  // namespace esv
