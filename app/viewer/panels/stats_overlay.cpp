// The stats overlay: a small translucent box in the 3D view's top right corner with frame times,
// draw counts, skinning palette use against the uniform limit and texture memory. It takes no
// input, like the simple overlay of the Dear ImGui demo.
#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/viewer/panels.h"

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
    // Where it sits (its size as auto-resize last fitted it), for the legend to keep clear of.
    s.statsRect = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x,
                   ImGui::GetWindowSize().y};
    // Plain words, a label and a value per row.
    auto row = [](const char* label) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(label);
        ImGui::TableSetColumnIndex(1);
    };
    if (!ImGui::BeginTable("stats", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::End();
        return;
    }
    const float fps = ImGui::GetIO().Framerate;
    row("Frame");
    ImGui::Text("%.1f ms (%.0f fps)", fps > 0.0f ? 1000.0f / fps : 0.0f, fps);
    row("CPU work");
    ImGui::Text("%.2f ms", s.cpuFrameMs);
    row("GPU time");
    if (s.rendererInfo.gpuTimer && std::isfinite(s.stats.gpuMs) && s.stats.gpuMs >= 0.0f)
        ImGui::Text("%.2f ms", s.stats.gpuMs);
    else
        ImGui::TextDisabled("not measured");
    if (s.scene) {
        row("Draw calls");
        ImGui::Text("%u", s.stats.drawCalls);
        row("Triangles");
        ImGui::Text("%u", s.stats.triangles);
        if (s.stats.overdrawCovered > 0) {
            row("Overdraw");
            ImGui::Text("%.2f fragments a covered pixel, %u at most",
                        double(s.stats.overdrawShaded) / double(s.stats.overdrawCovered), s.stats.overdrawMax);
        }
        if (s.stats.lines || s.stats.points) {
            row("Lines, points");
            ImGui::Text("%u, %u", s.stats.lines, s.stats.points);
        }
        row("State changes");
        const StateChanges& k = s.stats.changes;
        ImGui::Text("%u (programs %u, textures %u, uniforms %u: %.1f KiB, palettes %.1f KiB)", k.total(), k.programs,
                    k.textures, k.uniforms, double(k.uniformBytes) / 1024.0, double(k.paletteBytes) / 1024.0);
        row("Bone batches");
        ImGui::Text("%u", s.stats.boneBatchesDrawn);
        const int limit = s.rendererInfo.maxVertexUniformVectors;
        const int used = static_cast<int>(s.stats.paletteVectorsMax) + s.rendererInfo.reservedVertexVectors;
        row("Vertex uniforms");
        if (s.stats.paletteVectorsMax == 0)
            ImGui::TextDisabled("no skinned draw (limit %d)", limit);
        else
            ImGui::TextColored(limit > 0 && used > limit ? kOverColor : ImGui::GetStyleColorVec4(ImGuiCol_Text),
                               "%d of %d (palette %u)", used, limit, s.stats.paletteVectorsMax);
        row("Texture memory");
        ImGui::Text("%.2f MiB", static_cast<double>(s.rendererInfo.textureBytes) / (1024.0 * 1024.0));
        const LoadTimes& t = s.loadTimes;
        row("Loaded in");
        ImGui::Text("%.0f ms (file %.0f, textures %.0f, prepare %.0f, upload %.0f)", t.totalMs(), t.readMs,
                    t.texturesMs, t.prepareMs, t.uploadMs);
    }
    row("Graphics API");
    if (s.rendererInfo.es3)
        ImGui::TextUnformatted("OpenGL ES 3.0");
    else
        ImGui::Text("OpenGL ES 2.0%s", !s.gles2        ? ""
                                       : s.gles2Strict ? " (strict device profile)"
                                                       : " (limits enforced)");
    ImGui::EndTable();
    if (!s.scene) {
        ImGui::TextDisabled("no scene");
        ImGui::End();
        return;
    }
    // Instances the GPU path could not take this frame, and why (never a silent fallback).
    if (s.stats.cpuMorphedNodes || s.stats.cpuSkinnedNodes)
        ImGui::TextColored(kOverColor, "On the CPU: %u morphed (too many targets), %u skinned (batch over palette)",
                           s.stats.cpuMorphedNodes, s.stats.cpuSkinnedNodes);
    if (s.stats.morphTextureNodes) ImGui::Text("Morphs from the delta texture: %u", s.stats.morphTextureNodes);
    if (s.stats.glErrors > 0) ImGui::TextColored(kOverColor, "%u GL errors", s.stats.glErrors);

    if (s.view.mode == ViewMode::SkinDiff) {
        if (s.stats.skinDiffMax >= 0.0f)
            ImGui::Text("Skin difference, largest %.6g", s.stats.skinDiffMax);
        else
            ImGui::TextDisabled("Skin difference: nothing compared");
    }
    ImGui::End();
}

}  // namespace esv
