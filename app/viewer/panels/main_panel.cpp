// The settings panel: animation transport with a timeline, view and render settings (the file, the
// panels and screenshots are in the menu bar, the status line in the status bar).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include <imgui.h>

#include "app/viewer/file_browser.h"
#include "app/viewer/panels.h"
#include "app/viewer/ui_text.h"
#include "app/viewer/viewer_actions.h"

namespace esv {
namespace {

// Continues the line with an item `width` wide when it fits in the window, else the item starts the
// next line (a narrow panel, touch sizes): rows of buttons wrap instead of being cut.
void sameLineIfFits(float width) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

float buttonWidth(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

// Key ticks closer than this many pixels are thinned (a clip baked at every frame is all keys).
constexpr float kTickSpacing = 4.0f;
// A press this close to an end of the play range (pixels) drags that end instead of seeking.
constexpr float kRangeHandle = 5.0f;

// Which end of the play range a press at `x` takes: 0 none, 1 the in point, 2 the out point (the
// nearer; on a range of one instant, the side the press is on).
int rangeHandleAt(const Transport& t, float x, float inX, float outX) {
    if (!t.range) return 0;
    const float toIn = std::abs(x - inX), toOut = std::abs(x - outX);
    if (std::min(toIn, toOut) > kRangeHandle) return 0;
    if (toIn == toOut) return x < inX ? 1 : 2;
    return toIn < toOut ? 1 : 2;
}

// A scrubbing timeline: the clip's range with ticks at key times and the playhead. Clicking or
// dragging sets the time (and pauses, so the frame under the mouse stays); dragging an end of the
// play range moves that end. When the clip's keys are too dense to read, the selected node's keys are
// shown (when it has any), thinned to one tick per kTickSpacing pixels.
void timeline(ViewerState& s) {
    const Scene& scene = *s.scene;
    Transport& t = s.transport;
    const float duration = transportDuration(scene, t.clip);
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 28.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("timeline", size);
    s.timelineRect = {origin.x, origin.y, size.x, size.y};
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(40, 44, 52, 255), 3.0f);
    if (duration <= 0.0f) {
        draw->AddText(ImVec2(origin.x + 6, origin.y + 7), IM_COL32(150, 150, 150, 255), "no animation");
        return;
    }
    auto xOf = [&](float time) { return origin.x + 4.0f + (size.x - 8.0f) * (time / duration); };
    // Frame ticks when they are far enough apart to read, key ticks always.
    const float fps = transportFrameRate(scene, t.clip);
    const float frames = duration * fps;
    if (frames > 0.0f && (size.x - 8.0f) / frames >= 4.0f)
        for (int f = 0; f <= int(frames); ++f) {
            const float x = xOf(float(f) / fps);
            draw->AddLine(ImVec2(x, origin.y + size.y - 5), ImVec2(x, origin.y + size.y - 1), IM_COL32(90, 96, 110, 255));
        }
    if (s.timelineClip != t.clip) {
        s.timelineKeys = clipKeyTimes(scene, t.clip);
        s.timelineClip = t.clip;
    }
    const float width = size.x - 8.0f;
    const std::vector<float>* keys = &s.timelineKeys;
    std::vector<float> nodeKeys;
    if (!ticksReadable(s.timelineKeys, duration, width, kTickSpacing) && s.selection.node >= 0) {
        nodeKeys = clipKeyTimes(scene, t.clip, s.selection.node);
        if (!nodeKeys.empty()) keys = &nodeKeys;
    }
    for (float key : thinTicks(*keys, duration, width, kTickSpacing)) {
        const float x = xOf(key);
        draw->AddLine(ImVec2(x, origin.y + 3), ImVec2(x, origin.y + 12), IM_COL32(240, 200, 80, 255), 1.5f);
    }
    // The selected node's own keys under the clip's, where shift+[ and shift+] step.
    if (s.selection.node >= 0 && keys != &nodeKeys) {
        nodeKeys = clipKeyTimes(scene, t.clip, s.selection.node);
        for (float key : thinTicks(nodeKeys, duration, width, kTickSpacing)) {
            const float x = xOf(key);
            draw->AddLine(ImVec2(x, origin.y + 13), ImVec2(x, origin.y + 20), IM_COL32(90, 200, 240, 255),
                          1.5f);
        }
    }
    // The play range: the parts outside it dimmed, its ends as green bars.
    if (t.range) {
        const float in = xOf(t.rangeIn), out = xOf(t.rangeOut);
        const ImU32 dim = IM_COL32(0, 0, 0, 110), edge = IM_COL32(110, 220, 110, 255);
        draw->AddRectFilled(origin, ImVec2(in, origin.y + size.y), dim);
        draw->AddRectFilled(ImVec2(out, origin.y), ImVec2(origin.x + size.x, origin.y + size.y), dim);
        draw->AddLine(ImVec2(in, origin.y), ImVec2(in, origin.y + size.y), edge, 2.0f);
        draw->AddLine(ImVec2(out, origin.y), ImVec2(out, origin.y + size.y), edge, 2.0f);
    }
    const float mouseX = ImGui::GetIO().MousePos.x;
    if (ImGui::IsItemActivated()) s.rangeDrag = rangeHandleAt(t, mouseX, xOf(t.rangeIn), xOf(t.rangeOut));
    if (ImGui::IsItemActive()) {
        const float u = (mouseX - origin.x - 4.0f) / std::max(size.x - 8.0f, 1.0f);
        const float time = std::clamp(u, 0.0f, 1.0f) * duration;
        if (s.rangeDrag == 1 && t.range) {
            setPlayRange(scene, t, std::min(time, t.rangeOut), t.rangeOut);
        } else if (s.rangeDrag == 2 && t.range) {
            setPlayRange(scene, t, t.rangeIn, std::max(time, t.rangeIn));
        } else {
            seekTransport(scene, t, time);
            t.playing = false;
        }
    }
    const float x = xOf(t.time);
    draw->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + size.y), IM_COL32(255, 90, 70, 255), 2.0f);
    if (ImGui::IsItemHovered()) {
        const float u = (mouseX - origin.x - 4.0f) / std::max(size.x - 8.0f, 1.0f);
        const int handle =
            ImGui::IsItemActive() ? s.rangeDrag : rangeHandleAt(t, mouseX, xOf(t.rangeIn), xOf(t.rangeOut));
        ImGui::SetTooltip("%.3f s (%s)%s", std::clamp(u, 0.0f, 1.0f) * duration,
                          frameText(std::clamp(u, 0.0f, 1.0f) * duration * fps, 0.0f).c_str(),
                          handle == 1   ? "\ndrag: the play range's in point"
                          : handle == 2 ? "\ndrag: the play range's out point"
                                        : "");
    }
}

// The play range's buttons (in and out at the playhead, clear) and its ends as times and frames.
void playRangeRow(const Scene& scene, Transport& t, float fps) {
    ImGui::BeginDisabled(!(transportDuration(scene, t.clip) > 0.0f));
    if (ImGui::Button("In")) setRangePointAtTime(scene, t, false);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play range starts at the playhead (I)");
    ImGui::SameLine();
    if (ImGui::Button("Out")) setRangePointAtTime(scene, t, true);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play range ends at the playhead (O)");
    ImGui::SameLine();
    ImGui::BeginDisabled(!t.range);
    if (ImGui::Button("Clear")) clearPlayRange(t);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Play the whole clip again (shift+I or shift+O)");
    ImGui::EndDisabled();
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (t.range)
        ImGui::Text("range %.2f - %.2f s (frames %d - %d)", t.rangeIn, t.rangeOut,
                    wholeFrame(t.rangeIn * fps), wholeFrame(t.rangeOut * fps));
    else
        ImGui::TextDisabled("whole clip");
}

void clipCombo(const char* label, const Scene& scene, int& clip, bool allowRest) {
    const char* current = clip >= 0 ? scene.animation.clips[clip].name.c_str() : (allowRest ? "(rest pose)" : "(none)");
    if (ImGui::BeginCombo(label, current)) {
        if (ImGui::Selectable(allowRest ? "(rest pose)" : "(none)", clip < 0)) clip = -1;
        for (size_t i = 0; i < scene.animation.clips.size(); ++i) {
            const Clip& c = scene.animation.clips[i];
            char text[256];
            std::snprintf(text, sizeof(text), "%zu: %s (%.2f s)##clip%zu", i, c.name.c_str(), c.duration(), i);
            if (ImGui::Selectable(text, clip == int(i))) clip = int(i);
        }
        ImGui::EndCombo();
    }
}

void animationSection(ViewerState& s) {
    const Scene& scene = *s.scene;
    Transport& t = s.transport;
    int clip = t.clip;
    clipCombo("clip", scene, clip, true);
    if (clip != t.clip) switchClip(s, clip);

    // Transport buttons: start, key back, frame back, reverse, play/pause, frame on, key on, end.
    if (ImGui::Button("|<")) jumpToStart(scene, t);
    ImGui::SameLine();
    // Shift-click steps through the selected node's keys alone, as shift+[ and shift+] do.
    const int keyNode = ImGui::GetIO().KeyShift ? s.selection.node : -1;
    if (ImGui::Button("<<")) stepKeys(scene, t, -1, keyNode);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous key ([); shift: of the selected node (shift+[)");
    ImGui::SameLine();
    if (ImGui::Button("<")) stepFrames(scene, t, -1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous frame (,)");
    ImGui::SameLine();
    const bool backwards = t.speed * float(t.direction) < 0.0f;
    if (ImGui::Button(t.playing && backwards ? "||##rev" : "<|")) {
        if (t.playing && backwards) {
            t.playing = false;
        } else {
            t.speed = -std::abs(t.speed == 0.0f ? 1.0f : t.speed);
            t.direction = 1;
            t.playing = true;
        }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play backwards (Shift+Space)");
    ImGui::SameLine();
    if (ImGui::Button(t.playing && !backwards ? "||" : "|>")) {
        if (t.playing && !backwards) {
            t.playing = false;
        } else {
            t.speed = std::abs(t.speed == 0.0f ? 1.0f : t.speed);
            t.direction = 1;
            t.playing = true;
        }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play / pause (Space)");
    ImGui::SameLine();
    if (ImGui::Button(">")) stepFrames(scene, t, 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Next frame (.)");
    ImGui::SameLine();
    if (ImGui::Button(">>")) stepKeys(scene, t, 1, keyNode);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Next key (]); shift: of the selected node (shift+])");
    ImGui::SameLine();
    if (ImGui::Button(">|")) jumpToEnd(scene, t);

    timeline(s);
    const float fps = transportFrameRate(scene, t.clip);
    const std::string frame = frameText(transportFrame(scene, t), transportDuration(scene, t.clip) * fps);
    ImGui::TextWrapped("%.2f / %.2f s   %s at %.4g fps", t.time, transportDuration(scene, t.clip), frame.c_str(), fps);
    playRangeRow(scene, t, fps);

    int loop = int(t.loop);
    const char* loops[] = {"loop", "once", "ping-pong"};
    ImGui::SetNextItemWidth(110);
    if (ImGui::Combo("##loop", &loop, loops, 3)) t.loop = LoopMode(loop);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-50);
    ImGui::SliderFloat("speed", &t.speed, -4.0f, 4.0f, "%.2fx");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Negative speeds play backwards; right-click resets");
    if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) t.speed = 1.0f;

    if (scene.animation.clips.size() > 1 && ImGui::TreeNode("Blend a second clip")) {
        int blend = t.blendClip;
        clipCombo("blend clip", scene, blend, false);
        if (blend != t.blendClip) {
            t.blendClip = blend;
            t.blendTime = 0.0f;
            if (blend >= 0 && t.blendWeight == 0.0f) t.blendWeight = 0.5f;
        }
        ImGui::BeginDisabled(t.blendClip < 0);
        ImGui::SliderFloat("weight", &t.blendWeight, 0.0f, 1.0f, "%.2f");
        ImGui::EndDisabled();
        ImGui::TreePop();
    }
}

void viewSection(ViewerState& s) {
    const Scene& scene = *s.scene;
    int mode = static_cast<int>(s.view.mode);
    const char* modes[static_cast<size_t>(ViewMode::Count)];
    for (size_t i = 0; i < static_cast<size_t>(ViewMode::Count); ++i) modes[i] = viewModeName(static_cast<ViewMode>(i));
    if (ImGui::Combo("mode", &mode, modes, static_cast<int>(ViewMode::Count))) s.view.mode = static_cast<ViewMode>(mode);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keys 1-9 switch modes");

    std::string cameraLabel = s.view.camera < 0 ? "orbit" : std::to_string(s.view.camera) + ": " + scene.cameras[s.view.camera].name;
    if (ImGui::BeginCombo("camera", cameraLabel.c_str())) {
        if (ImGui::Selectable("orbit", s.view.camera < 0)) s.view.camera = -1;
        for (size_t i = 0; i < scene.cameras.size(); ++i) {
            std::string label = std::to_string(i) + ": " + scene.cameras[i].name;
            if (ImGui::Selectable(label.c_str(), s.view.camera == int(i))) s.view.camera = int(i);
        }
        ImGui::EndCombo();
    }
    float fov = glm::degrees(s.view.orbit.yfov);
    if (ImGui::SliderFloat("fov", &fov, 5.0f, 150.0f, "%.0f deg")) s.view.orbit.yfov = glm::radians(fov);
    if (ImGui::Button("Frame (F)")) frameScene(s);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Frame the scene");
    sameLineIfFits(buttonWidth("Selection (G)"));
    ImGui::BeginDisabled(s.selection.node < 0);
    if (ImGui::Button("Selection (G)")) frameSelection(s);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Frame the selected node");
    sameLineIfFits(buttonWidth("Reset (R)"));
    if (ImGui::Button("Reset (R)")) resetView(s);
    // The three ways to light the scene, in the section that starts open: the file's lights, the studio rig, both.
    ImGui::TextUnformatted("lights");
    static constexpr struct {
        Lighting lighting;
        const char* label;
        const char* tip;
    } kLightings[] = {
        {Lighting::File, "File", "The file's own lights (a headlight when it has none)"},
        {Lighting::Studio, "Studio", "The viewer's key, fill and rim lights and a sky-over-ground ambient"},
        {Lighting::Both, "File + Studio", "The file's lights and the studio rig, dimmed to add to them"}};
    static_assert(sizeof(kLightings) / sizeof(kLightings[0]) == size_t(Lighting::Count));
    // On the label's line while they fit, the rest wrapped to the next lines.
    for (const auto& choice : kLightings) {
        sameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                       ImGui::CalcTextSize(choice.label).x);
        if (ImGui::RadioButton(choice.label, s.view.lighting == choice.lighting)) s.view.lighting = choice.lighting;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", choice.tip);
    }
    // The file's lights dimmed beside the rig: said, with by how much.
    if (s.view.lighting == Lighting::Both && s.stats.fileLightExposure < 0.995f) {
        ImGui::TextDisabled("file lights at %.0f%%", 100.0f * s.stats.fileLightExposure);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("The file's lights alone light the side in view more than the studio rig does:\n"
                              "they are dimmed so that both together stay in range. \"File\" shows them as they are.");
    }
}

void renderSection(ViewerState& s) {
    ViewSettings& v = s.view;
    ImGui::ColorEdit3("background", &v.clearColor.x, ImGuiColorEditFlags_NoInputs);
    ImGui::SameLine();
    ImGui::Checkbox("headlight", &v.headlight);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A light from the eye on top of the others");
    ImGui::SameLine();
    bool checker = v.missingTexture == MissingTexture::Checker;
    if (ImGui::Checkbox("missing-texture checker", &checker))
        v.missingTexture = checker ? MissingTexture::Checker : MissingTexture::Grey;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Textures that were not found: a magenta checker instead of neutral grey");
    // Texture folders searched after the model's own; one added here is remembered and the open file
    // reloaded to look in it.
    for (size_t i = 0; i < s.textureFolders.size(); ++i) ImGui::TextDisabled("textures: %s", s.textureFolders[i].c_str());
    static char folder[512] = "";
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 15.0f);
    ImGui::InputTextWithHint("##texfolder", "folder with textures", folder, sizeof(folder));
    ImGui::SameLine();
    if (ImGui::Button("Add texture folder") && folder[0] != '\0') {
        std::error_code ec;
        if (!std::filesystem::is_directory(folder, ec)) {
            s.status = std::string("not a folder: ") + folder;
        } else if (std::find(s.textureFolders.begin(), s.textureFolders.end(), folder) == s.textureFolders.end()) {
            s.textureFolders.push_back(folder);
            saveTextureFolders(std::vector<std::string>(
                s.textureFolders.begin() + std::ptrdiff_t(s.textureFoldersFromCommandLine), s.textureFolders.end()));
            s.requestReload = true;
            folder[0] = '\0';
        }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Look for missing textures in this folder too (remembered)");
    ImGui::Checkbox("wire overlay (W)", &v.wireframeOverlay);
    ImGui::SameLine();
    ImGui::Checkbox("two-sided", &v.forceTwoSided);
    ImGui::Checkbox("skeleton (K)", &v.showSkeleton);
    ImGui::SameLine();
    ImGui::Checkbox("axes", &v.showJointAxes);
    ImGui::SameLine();
    ImGui::Checkbox("bind pose", &v.showBindPose);
    ImGui::SameLine();
    ImGui::Checkbox("names", &s.showJointNames);
    ImGui::Checkbox("normals", &v.showNormalLines);
    ImGui::SameLine();
    ImGui::Checkbox("tangents", &v.showTangentLines);
    ImGui::SameLine();
    bool gles2 = s.gles2;
    if (ImGui::Checkbox("ES2 limits", &gles2)) {
        s.gles2 = gles2;
        s.requestRecreateRenderer = true;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Enforce OpenGL ES 2.0: 128 vertex uniform vectors, no ES3 features (reloads the scene)");
    ImGui::SetNextItemWidth(160.0f * ImGui::GetFontSize() / kUiFontPixels);
    ImGui::SliderFloat("UI scale", &s.uiScale, kUiScaleMin, kUiScaleMax, "%.2fx", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Size of the panels' text and widgets; right-click resets");
    if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) s.uiScale = 1.0f;
    int touch = static_cast<int>(s.touchUi);
    ImGui::SetNextItemWidth(100.0f * ImGui::GetFontSize() / kUiFontPixels);
    if (ImGui::Combo("touch-sized", &touch, "auto\0on\0off\0")) s.touchUi = static_cast<TouchUi>(touch);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Rows, buttons and scroll bars big enough for fingers (auto: where the screen is a touch "
            "screen)");
    if (!s.uiFont.note.empty()) ImGui::TextDisabled("%s", s.uiFont.note.c_str());

}

// File → Compare with…'s settings while B is open or loading: B's file, the mode, the divider, B's
// clip and selected node as they follow A's, the difference view's figures, and closing B.
void compareSection(ViewerState& s) {
    CompareView& c = s.compare;
    if (c.loading) ImGui::TextWrapped("Loading B: %s", c.loadingPath.c_str());
    if (!c.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.42f, 0.36f, 1.0f), "%s", c.error.c_str());
    if (!c.active()) return;
    ImGui::TextWrapped("B: %s", c.path.c_str());
    static const char* const kLabels[] = {"Split", "Side by side", "Difference"};
    static_assert(sizeof(kLabels) / sizeof(kLabels[0]) == size_t(CompareMode::Count));
    for (size_t m = 0; m < size_t(CompareMode::Count); ++m) {
        if (m > 0) sameLineIfFits(ImGui::CalcTextSize(kLabels[m]).x + 2.0f * ImGui::GetFrameHeight());
        if (ImGui::RadioButton(kLabels[m], c.mode == CompareMode(m))) c.mode = CompareMode(m);
    }
    if (c.mode == CompareMode::Split) ImGui::SliderFloat("divider", &c.divider, 0.0f, 1.0f, "%.2f");
    const Scene& b = *c.scene;
    const int clip = c.transport.clip;
    ImGui::Text("B's clip: %s", clip >= 0 ? b.animation.clips[size_t(clip)].name.c_str() : "rest pose");
    ImGui::Text("B's selection: %s", c.selected >= 0 ? b.nodes[size_t(c.selected)].name.c_str() : "none");
    if (c.mode == CompareMode::Difference && c.figures.valid) ImGui::TextWrapped("%s", compareFiguresText(c.figures).c_str());
    if (ImGui::Button("Stop comparing")) c.requestClose = true;
}

}  // namespace

void drawMainPanel(ViewerState& s) {
    if (!s.panel(PanelId::Main)) return;
    s.timelineRect = {};
    ImGui::BeginChild("main");
    if (!s.scene) {
        ImGui::TextDisabled("No scene loaded: File > Open...");
    } else {
        if ((s.compare.active() || s.compare.loading || !s.compare.error.empty()) &&
            ImGui::CollapsingHeader("Compare", ImGuiTreeNodeFlags_DefaultOpen))
            compareSection(s);
        if (ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) animationSection(s);
        if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) viewSection(s);
        if (ImGui::CollapsingHeader("Render settings")) renderSection(s);
    }
    ImGui::EndChild();
}

}  // namespace esv
