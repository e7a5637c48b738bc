// The skinning debugger: the weight analysis (s.skin) with its issue list, what every bone batch
// costs in vertex uniforms against the limit the renderer enforces, the joints, the weight and
// skeleton view switches, and morph target sliders that override the animation per target.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/legend.h"
#include "app/viewer/panels.h"
#include "app/viewer/panels/fitted_text.h"
#include "app/viewer/panels/panel_window.h"
#include "app/viewer/viewer_actions.h"

namespace esv {
namespace {

const ImVec4 kWarningColor(1.0f, 0.72f, 0.3f, 1.0f);
const ImVec4 kOverColor(0.9f, 0.25f, 0.2f, 1.0f);
constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;

bool validNode(const Scene& scene, int n) {
    return n >= 0 && static_cast<size_t>(n) < scene.nodes.size();
}

// `text` as a printf format that prints it literally.
std::string escapeFormat(const std::string& text) {
    std::string out;
    for (char c : text) {
        out += c;
        if (c == '%') out += '%';
    }
    return out;
}

std::string nodeLabel(const Scene& scene, int n) {
    if (!validNode(scene, n)) return n < 0 ? std::string("-") : "node " + std::to_string(n) + " (invalid)";
    const std::string& name = scene.nodes[static_cast<size_t>(n)].name;
    return name.empty() ? "node " + std::to_string(n) : name;
}

// "hidden: a, b" / "solo: a": what the bone mask takes away.
std::string boneMaskText(const ViewerState& s) {
    const Scene& scene = *s.scene;
    if (s.boneMask.solo >= 0) return "solo: " + nodeLabel(scene, s.boneMask.solo);
    std::string text = "hidden:";
    for (size_t i = 0; i < s.boneMask.muted.size(); ++i)
        text += (i ? ", " : " ") + nodeLabel(scene, s.boneMask.muted[i]);
    return text;
}

// Skin joints and Bone nodes, in node order.
void collectJoints(const Scene& scene, std::vector<int>& joints) {
    std::vector<uint8_t> mark(scene.nodes.size(), 0);
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].kind == NodeKind::Bone) mark[n] = 1;
    for (const Skin& skin : scene.skins)
        for (int32_t j : skin.joints)
            if (validNode(scene, j)) mark[static_cast<size_t>(j)] = 1;
    joints.clear();
    for (size_t n = 0; n < mark.size(); ++n)
        if (mark[n]) joints.push_back(static_cast<int>(n));
}

// A selectable node name that selects the node when clicked.
void nodeLink(ViewerState& s, int n, const char* idSuffix) {
    const std::string label = nodeLabel(*s.scene, n) + "##" + idSuffix;
    if (ImGui::Selectable(label.c_str(), s.selection.node == n && n >= 0,
                          ImGuiSelectableFlags_SpanAllColumns) &&
        validNode(*s.scene, n))
        selectNode(s, n);
}

void drawSummary(const ViewerState& s) {
    const SkinAnalysis& a = s.skin;
    auto count = [](const char* what, size_t value) {
        if (value > 0)
            ImGui::TextColored(kWarningColor, "%s: %zu", what, value);
        else
            ImGui::Text("%s: 0", what);
    };
    ImGui::Text("skinned vertices: %zu", a.skinnedVertices);
    count("weight sums off", a.badSums);
    count("negative weights", a.negativeWeights);
    count("bad bone indices", a.badIndices);
    ImGui::Text("max influences per vertex: %zu", a.maxInfluences);
}

void drawIssues(ViewerState& s) {
    const std::vector<WeightIssue>& issues = s.skin.issues;
    const size_t total = s.skin.badSums + s.skin.negativeWeights + s.skin.badIndices;
    if (!ImGui::CollapsingHeader(("Weight issues (" + std::to_string(issues.size()) + ")###issues").c_str()))
        return;
    if (issues.empty()) {
        ImGui::TextDisabled("No weight issues.");
        return;
    }
    if (issues.size() >= SkinAnalysis::kMaxIssues || total > issues.size())
        ImGui::TextDisabled("Listing the first %zu; the counts above are complete.", issues.size());
    const float height =
        ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(std::min<size_t>(issues.size(), 12) + 1) +
        ImGui::GetStyle().CellPadding.y * 4.0f;
    if (!ImGui::BeginTable("issues", 5, kTableFlags | ImGuiTableFlags_ScrollY, ImVec2(0, height))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("node");
    ImGui::TableSetupColumn("vertex");
    ImGui::TableSetupColumn("sum");
    ImGui::TableSetupColumn("influences");
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(issues.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const WeightIssue& issue = issues[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            nodeLink(s, issue.node, "issue");
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::Text("%u", issue.vertex);
            ImGui::TableNextColumn();
            ImGui::Text("%.4f", issue.weightSum);
            ImGui::TableNextColumn();
            ImGui::Text("%d", issue.influences);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(issue.what.c_str());
        }
    }
    ImGui::EndTable();
}

void drawBudgets(ViewerState& s) {
    const std::vector<BatchBudget>& batches = s.skin.batches;
    if (!ImGui::CollapsingHeader(
            ("Bone batch budgets (" + std::to_string(batches.size()) + ")###budgets").c_str(),
            ImGuiTreeNodeFlags_DefaultOpen))
        return;
    const int limit = s.rendererInfo.maxVertexUniformVectors;
    const int reserved = s.rendererInfo.reservedVertexVectors;
    ImGui::Text("vertex uniform vectors: palette (%d per bone) + %d reserved, limit %d",
                s.rendererInfo.vectorsPerBone, reserved, limit);
    if (batches.empty()) {
        ImGui::TextDisabled("No skinned mesh instances.");
        return;
    }
    size_t over = 0;
    for (const BatchBudget& b : batches) over += b.overLimit ? 1 : 0;
    if (over > 0) ImGui::TextColored(kOverColor, "%zu batches exceed the limit", over);

    const bool scroll = batches.size() > 12;
    const float height = scroll ? ImGui::GetTextLineHeightWithSpacing() * 14.0f : 0.0f;
    if (!ImGui::BeginTable("budgets", 7, kTableFlags | (scroll ? ImGuiTableFlags_ScrollY : 0),
                           ImVec2(0, height)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("node");
    ImGui::TableSetupColumn("batch");
    ImGui::TableSetupColumn("colour");
    ImGui::TableSetupColumn("bones");
    ImGui::TableSetupColumn("vectors");
    ImGui::TableSetupColumn("triangles");
    ImGui::TableSetupColumn("use of limit", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(batches.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const BatchBudget& b = batches[static_cast<size_t>(i)];
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            nodeLink(s, b.node, "batch");
            ImGui::TableNextColumn();
            ImGui::Text("%d", b.batch);
            ImGui::TableNextColumn();
            // The Batches view's colour of this batch (the renderer's batchColor).
            const glm::vec3 c = batchColor(size_t(std::max(b.batch, 0)));
            const float side = ImGui::GetTextLineHeight();
            ImGui::ColorButton(
                "##colour", ImVec4(c.r, c.g, c.b, 1.0f),
                ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop | ImGuiColorEditFlags_NoBorder,
                ImVec2(2.0f * side, side));
            ImGui::TableNextColumn();
            ImGui::Text("%u", b.bones);
            ImGui::TableNextColumn();
            ImGui::Text("%u", b.uniformVectors);
            ImGui::TableNextColumn();
            ImGui::Text("%u +%u", b.firstTriangle, b.triangleCount);
            ImGui::TableNextColumn();
            const long used = static_cast<long>(b.uniformVectors) + reserved;
            const float fraction = limit > 0 ? static_cast<float>(used) / static_cast<float>(limit) : 0.0f;
            char overlay[64];
            std::snprintf(overlay, sizeof overlay, "%ld / %d", used, limit);
            if (b.overLimit) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, kOverColor);
            ImGui::ProgressBar(std::min(fraction, 1.0f), ImVec2(-FLT_MIN, 0), overlay);
            if (b.overLimit) ImGui::PopStyleColor();
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
}

void drawJoints(ViewerState& s, const std::vector<int>& joints) {
    if (!ImGui::CollapsingHeader(("Joints (" + std::to_string(joints.size()) + ")###joints").c_str())) return;
    if (joints.empty()) {
        ImGui::TextDisabled("No joints.");
        return;
    }
    const float height =
        ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(std::min<size_t>(joints.size(), 10));
    ImGui::BeginChild("joint list", ImVec2(0, height + ImGui::GetStyle().WindowPadding.y * 2.0f), true);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(joints.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const int j = joints[static_cast<size_t>(i)];
            const std::string label = std::to_string(j) + ": " + nodeLabel(*s.scene, j);
            const bool selected = s.selection.node == j || s.selection.joint == j;
            ImGui::PushID(j);
            const std::string shown = fitToWidth(label, ImGui::GetContentRegionAvail().x);
            if (ImGui::Selectable((shown + "###joint").c_str(), selected)) selectNode(s, j);
            if (ImGui::IsItemHovered())
                fullTextTooltip((shown != label ? label + "\n" : std::string()) +
                                "Select; the viewport shows the vertices it moves");
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
}

void drawViewControls(ViewerState& s, const std::vector<int>& joints) {
    if (!ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) return;
    auto modeButton = [&](const char* label, ViewMode mode) {
        if (ImGui::RadioButton(label, s.view.mode == mode)) s.view.mode = mode;
    };
    modeButton("shaded", ViewMode::Shaded);
    sameLineIfFits("weights");
    modeButton("weights", ViewMode::Weights);
    sameLineIfFits("batches");
    modeButton("batches", ViewMode::Batches);
    sameLineIfFits("skin diff");
    modeButton("skin diff", ViewMode::SkinDiff);
    if (s.view.mode == ViewMode::SkinDiff) {
        // The automatic range as the renderer resolves it (the legend's).
        char automatic[64];
        std::snprintf(automatic, sizeof(automatic), "auto: %.3g units", double(viewLegend(s).skinDiffRange));
        ImGui::DragFloat("red at", &s.view.skinDiffRange, 1e-4f, 0.0f, 1e6f,
                         s.view.skinDiffRange > 0.0f ? "%.5g units" : automatic);
        if (s.stats.skinDiffMax >= 0.0f)
            ImGui::Text("largest GPU - CPU difference: %.6g", s.stats.skinDiffMax);
        else
            ImGui::TextDisabled("nothing compared (needs ES3 transform feedback and a GPU-skinned mesh)");
    }

    const Scene& scene = *s.scene;
    const std::string current = s.view.weightBone < 0 ? std::string("strongest influence")
                                                      : std::to_string(s.view.weightBone) + ": " +
                                                            nodeLabel(scene, s.view.weightBone);
    if (ImGui::BeginCombo("weight bone", current.c_str())) {
        if (ImGui::Selectable("strongest influence", s.view.weightBone < 0)) s.view.weightBone = -1;
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(joints.size()));
        while (clipper.Step()) {
            for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
                const int j = joints[static_cast<size_t>(i)];
                ImGui::PushID(j);
                const std::string label = std::to_string(j) + ": " + nodeLabel(scene, j);
                if (ImGui::Selectable(label.c_str(), s.view.weightBone == j)) s.view.weightBone = j;
                ImGui::PopID();
            }
        }
        ImGui::EndCombo();
    }
    const int selected = validNode(scene, s.selection.node) ? s.selection.node : -1;
    bool selectedIsJoint = false;
    for (int j : joints) selectedIsJoint = selectedIsJoint || j == selected;
    if (!selectedIsJoint) ImGui::BeginDisabled();
    if (ImGui::Button("Weights of the selected joint")) {
        s.view.weightBone = selected;
        s.view.mode = ViewMode::Weights;
    }
    if (!selectedIsJoint) ImGui::EndDisabled();

    if (s.selection.joint >= 0) {
        // The selected joint's bone batches (the Batches view's numbers).
        const std::string batches = jointBatchText(scene, s.selection.joint);
        ImGui::TextWrapped("%s: %s", nodeLabel(scene, s.selection.joint).c_str(),
                           batches.empty() ? "in no bone palette" : batches.c_str());
    }
    if (s.selection.joint >= 0 || !s.boneMask.empty()) {
        // Hide or solo the selected joint's influence (the drawn scene's weights, not the file's).
        if (ImGui::BeginMenu("Bone influence")) {
            boneMaskMenu(s, s.selection.joint);
            ImGui::EndMenu();
        }
        if (!s.boneMask.empty()) {
            ImGui::SameLine();
            ImGui::TextColored(kWarningColor, "%s", boneMaskText(s).c_str());
        }
    }
    ImGui::Checkbox("weights of the picked joint", &s.weightsOnJointPick);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Selecting a joint (tree, viewport, this panel) shows the Weights view of it");

    ImGui::Checkbox("skeleton", &s.view.showSkeleton);
    sameLineIfFits("joint axes");
    ImGui::Checkbox("joint axes", &s.view.showJointAxes);
    sameLineIfFits("bind pose");
    ImGui::Checkbox("bind pose", &s.view.showBindPose);
    sameLineIfFits("joint names");
    ImGui::Checkbox("joint names", &s.showJointNames);
    sameLineIfFits("all");
    if (!s.showJointNames) ImGui::BeginDisabled();
    ImGui::Checkbox("all", &s.allJointNames);
    if (!s.showJointNames) ImGui::EndDisabled();
    ImGui::TextDisabled("Ctrl+click a vertex: its influences");
}

void drawMorphs(ViewerState& s) {
    const Scene& scene = *s.scene;
    std::vector<int> nodes;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind == NodeKind::Mesh && node.object >= 0 &&
            static_cast<size_t>(node.object) < scene.meshes.size() &&
            !scene.meshes[static_cast<size_t>(node.object)].morphTargets.empty())
            nodes.push_back(static_cast<int>(n));
    }
    if (!ImGui::CollapsingHeader(
            ("Morph targets (" + std::to_string(nodes.size()) + " nodes)###morphs").c_str(),
            ImGuiTreeNodeFlags_DefaultOpen))
        return;
    if (nodes.empty()) {
        ImGui::TextDisabled("No mesh has morph targets.");
        return;
    }
    if (ImGui::Button("Reset all")) clearMorphOverrides(s);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every target follows the animation again");

    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int n : nodes) {
        const Node& node = scene.nodes[static_cast<size_t>(n)];
        const Mesh& mesh = scene.meshes[static_cast<size_t>(node.object)];
        ImGui::PushID(n);
        const std::string title = nodeLabel(scene, n) + " (mesh \"" + mesh.name + "\", " +
                                  std::to_string(mesh.morphTargets.size()) + " targets)";
        if (fittedTreeNode("morph node", ImGuiTreeNodeFlags_DefaultOpen, title)) {
            const std::vector<float>* weights = static_cast<size_t>(n) < s.pose.morphWeights.size()
                                                    ? &s.pose.morphWeights[static_cast<size_t>(n)]
                                                    : nullptr;
            const std::vector<float>* overrides = static_cast<size_t>(n) < s.morphOverride.size()
                                                      ? &s.morphOverride[static_cast<size_t>(n)]
                                                      : nullptr;
            for (size_t t = 0; t < mesh.morphTargets.size(); ++t) {
                ImGui::PushID(static_cast<int>(t));
                float weight = weights && t < weights->size()        ? (*weights)[t]
                               : t < mesh.defaultMorphWeights.size() ? mesh.defaultMorphWeights[t]
                                                                     : 0.0f;
                const bool overridden = overrides && t < overrides->size() && !std::isnan((*overrides)[t]);
                bool animated = !overridden;
                if (ImGui::Checkbox("animated", &animated)) {
                    // Unticking pins the current weight; ticking returns the target to the animation.
                    setMorphOverride(s, n, static_cast<int>(t), animated ? nan : weight);
                }
                ImGui::SameLine();
                const std::string& name = mesh.morphTargets[t].name;
                const std::string label = name.empty() ? "target " + std::to_string(t) : name;
                ImGui::SetNextItemWidth(-FLT_MIN);
                if (ImGui::SliderFloat("##weight", &weight, 0.0f, 1.0f,
                                       (escapeFormat(label) + " %.3f").c_str()))
                    setMorphOverride(s, n, static_cast<int>(t), weight);
                ImGui::PopID();
            }
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
}

}  // namespace

void boneMaskMenu(ViewerState& s, int joint) {
    BoneMask mask = s.boneMask;
    bool changed = false;
    if (joint >= 0) {
        const auto at = std::find(mask.muted.begin(), mask.muted.end(), joint);
        const bool muted = at != mask.muted.end();
        if (ImGui::MenuItem("Hide bone", nullptr, muted, mask.solo < 0)) {
            if (muted)
                mask.muted.erase(at);
            else
                mask.muted.push_back(joint);
            changed = true;
        }
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("Its weights zeroed: its vertices follow their other bones, or stay where the bind put them");
        if (ImGui::MenuItem("Solo bone", nullptr, mask.solo == joint)) {
            mask.solo = mask.solo == joint ? -1 : joint;
            changed = true;
        }
    }
    if (ImGui::MenuItem("Show all bones", nullptr, false, !mask.empty())) {
        mask = BoneMask{};
        changed = true;
    }
    std::string error;
    if (changed && !setBoneMask(s, mask, error)) s.status = "Bone mask: " + error;
}

void drawSkinningPanel(ViewerState& s) {
    // Its tables and long lines scroll sideways in a narrow column.
    if (!beginScenePanel(s, PanelId::Skinning, ImGuiWindowFlags_HorizontalScrollbar)) return;
    std::vector<int> joints;
    collectJoints(*s.scene, joints);
    drawSummary(s);
    drawIssues(s);
    drawBudgets(s);
    drawJoints(s, joints);
    drawViewControls(s, joints);
    drawMorphs(s);
    endScenePanel();
}

}  // namespace esv
