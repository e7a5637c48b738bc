// The POF panel (FreeSpace models, Scene::pof): detail level and debris, marker and shield
// toggles, sliders for rotating subobjects, and the subobject tree with the selected subobject's
// properties in file axes. Selecting a subobject selects its scene node (subobject i is node i).
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "app/viewer/panels/fitted_text.h"
#include "app/viewer/panels/panel_window.h"
#include "app/viewer/viewer_actions.h"

namespace esv {
namespace {

const char* movementTypeName(int32_t type) {
    switch (type) {
        case -1:
            return "none";
        case 0:
            return "position";
        case 1:
            return "rotate";
        case 2:
            return "rotate (special)";
        case 3:
            return "triggered";
        case 4:
            return "intrinsic rotate";
        default:
            return "other";
    }
}

const char* movementAxisName(int32_t axis) {
    switch (axis) {
        case -1:
            return "none";
        case 0:
            return "X";
        case 1:
            return "Z";
        case 2:
            return "Y";
        default:
            return "other";
    }
}

std::string subobjectLabel(const PofExtras& pof, int node) {
    const PofExtras::Subobject& o = pof.subobjects[node];
    std::string label = std::to_string(o.number) + " " + o.name;
    if (o.detailLevel >= 0) label += "  [LOD" + std::to_string(o.detailLevel) + "]";
    if (o.debris) label += "  [debris]";
    return label;
}

void row(const char* name, const char* format, ...) IM_FMTARGS(2);
void row(const char* name, const char* format, ...) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", name);
    ImGui::TableSetColumnIndex(1);
    va_list args;
    va_start(args, format);
    ImGui::TextWrappedV(format, args);
    va_end(args);
}

void vecRow(const char* name, const glm::vec3& v) {
    row(name, "%.3f  %.3f  %.3f", v.x, v.y, v.z);
}

void properties(const ViewerState& s, const PofExtras& pof, int node) {
    const PofExtras::Subobject& o = pof.subobjects[node];
    if (!ImGui::BeginTable("##pofprops", 2, ImGuiTableFlags_RowBg)) return;
    ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, 80.0f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    row("name", "%s", o.name.c_str());
    row("number", "%d (node %d)", o.number, node);
    const int parent = pofSubobjectNode(pof, o.parent);
    row("parent", "%d%s%s", o.parent, parent >= 0 ? " " : "",
        parent >= 0 ? pof.subobjects[parent].name.c_str() : "");
    vecRow("offset", o.offset);
    row("radius", "%.3f", o.radius);
    vecRow("centre", o.center);
    vecRow("bounds min", o.boundsMin);
    vecRow("bounds max", o.boundsMax);
    row("movement", "%s, axis %s", movementTypeName(o.movementType), movementAxisName(o.movementAxis));
    if (pof.version >= 2301)
        row("translation", "%s, axis %s", movementTypeName(o.translationType),
            movementAxisName(o.translationAxis));
    row("properties", "%s", o.properties.empty() ? "-" : o.properties.c_str());
    row("polygons", "%u textured, %u flat; %u triangles", o.texturedPolygons, o.flatPolygons, o.triangles);
    if (o.detailLevel >= 0) row("detail level", "%d", o.detailLevel);
    row("drawn", "%s%s", size_t(node) < s.pose.visible.size() && s.pose.visible[node] ? "yes" : "no",
        o.debris ? " (debris)" : "");
    ImGui::EndTable();
}

// Subobjects as a tree by parent; rows select. Cycles cannot recurse: each node is drawn once.
void subobjectTree(ViewerState& s, const PofExtras& pof, const std::vector<std::vector<int>>& children,
                   int node, std::vector<uint8_t>& drawn, int depth) {
    if (drawn[node] || depth > 64) return;
    drawn[node] = 1;
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth;
    if (children[node].empty()) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
    if (s.selection.node == node) flags |= ImGuiTreeNodeFlags_Selected;
    if (depth == 0) flags |= ImGuiTreeNodeFlags_DefaultOpen;
    const bool visible = size_t(node) < s.pose.visible.size() && s.pose.visible[node];
    if (!visible) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.5f, 0.5f, 0.5f, 1.0f));
    const bool open =
        fittedTreeNode(reinterpret_cast<void*>(intptr_t(node)), flags, subobjectLabel(pof, node));
    if (!visible) ImGui::PopStyleColor();
    if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) selectNode(s, node);
    if (open && !children[node].empty()) {
        for (int child : children[node]) subobjectTree(s, pof, children, child, drawn, depth + 1);
        ImGui::TreePop();
    }
}

// A width for the next widget of at most `most` pixels that leaves its label `label` room on the
// line (the panel is a narrow tab of the right region in a window under 1600 pixels wide).
void nextItemWidth(float most, const char* label) {
    const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(label, nullptr, true).x -
                       ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(std::clamp(room, std::min(most, 4.0f * ImGui::GetFontSize()), most));
}

}  // namespace

void drawPofPanel(ViewerState& s) {
    if (!s.scene || !s.scene->pof) return;
    if (!beginScenePanel(s, PanelId::Pof)) return;
    const PofExtras& pof = *s.scene->pof;
    fittedText(formatText("version %d, %zu subobjects, radius %.2f, mass %.2f", pof.version,
                          pof.subobjects.size(), pof.maxRadius, pof.mass));

    // Detail level and debris.
    const int levels = std::max(int(pof.detailLevels.size()), 1);
    char preview[96];
    auto levelName = [&](int l, char* out, size_t size) {
        const int node =
            l < int(pof.detailLevels.size()) ? pofSubobjectNode(pof, pof.detailLevels[l]) : pof.lod0Node;
        std::snprintf(out, size, "LOD%d %s", l, node >= 0 ? pof.subobjects[node].name.c_str() : "(missing)");
    };
    levelName(s.pof.lod, preview, sizeof(preview));
    nextItemWidth(220.0f, "detail level");
    if (ImGui::BeginCombo("detail level", preview)) {
        for (int l = 0; l < levels; ++l) {
            char name[96];
            levelName(l, name, sizeof(name));
            if (ImGui::Selectable(name, l == s.pof.lod)) {
                std::string error;
                setPofLod(s, l, error);
            }
        }
        ImGui::EndCombo();
    }
    char debris[48];
    std::snprintf(debris, sizeof(debris), "debris (%zu)", pof.debris.size());
    sameLineIfFits(debris);
    if (ImGui::Checkbox(debris, &s.pof.debris)) updatePose(s);
    char shield[48];
    std::snprintf(shield, sizeof(shield), "shield (%zu)", pof.shieldFaces.size());
    sameLineIfFits(shield);
    if (!pof.hasShield) ImGui::BeginDisabled();
    ImGui::Checkbox(shield, &s.pof.shield);
    if (!pof.hasShield) ImGui::EndDisabled();

    // Marker toggles with what each kind has.
    std::vector<PofMarker> all;
    std::vector<PofPolyline> lines;
    pofMarkers(*s.scene, s.pose, s.pof, true, all, lines);
    ImGui::TextDisabled("markers");
    // Each kind's swatch is the colour the view draws it in; four kinds a row, fewer in a narrow column.
    const float column = 10.5f * ImGui::GetFontSize();
    const size_t perRow = size_t(std::clamp(int((ImGui::GetContentRegionAvail().x - 8.0f) / column), 1, 4));
    const float swatch = ImGui::GetFrameHeight();
    for (size_t k = 0; k < size_t(PofMarkerKind::Count); ++k) {
        size_t count = 0;
        for (const PofMarker& m : all) count += size_t(m.kind) == k;
        char label[48];
        std::snprintf(label, sizeof(label), "%s (%zu)", pofMarkerKindName(PofMarkerKind(k)), count);
        if (k % perRow != 0) ImGui::SameLine(float(k % perRow) * column + 8.0f);
        const glm::vec4 c = pofMarkerColor(PofMarkerKind(k));
        ImGui::PushID(int(k));
        ImGui::ColorButton(
            "##swatch", ImVec4(c.r, c.g, c.b, c.a),
            ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop | ImGuiColorEditFlags_NoBorder,
            ImVec2(swatch, swatch));
        ImGui::PopID();
        ImGui::SameLine(0.0f, 4.0f);
        ImGui::Checkbox(label, &s.pof.markers[k]);
    }
    if (ImGui::SmallButton("all markers")) s.pof.markers.fill(true);
    ImGui::SameLine();
    if (ImGui::SmallButton("no markers")) s.pof.markers.fill(false);
    sameLineIfFits("x-ray");
    ImGui::Checkbox("x-ray", &s.pof.xray);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Markers through the hull (otherwise hidden behind it)");

    // Rotating subobjects that are drawn.
    bool header = false;
    for (size_t n = 0; n < pof.subobjects.size() && n < s.pof.spinDegrees.size(); ++n) {
        glm::vec3 axis;
        if (!pofSpinAxis(pof, int(n), axis) || n >= s.pose.visible.size() || !s.pose.visible[n]) continue;
        if (!header && !ImGui::CollapsingHeader("Rotating subobjects")) break;
        header = true;
        float degrees = s.pof.spinDegrees[n];
        ImGui::PushID(int(n));
        const std::string label =
            formatText("%s (axis %.2f %.2f %.2f)", pof.subobjects[n].name.c_str(), axis.x, axis.y, axis.z);
        const float width = std::min(220.0f, 0.5f * ImGui::GetContentRegionAvail().x);
        const std::string shown = fitToWidth(
            label, ImGui::GetContentRegionAvail().x - width - ImGui::GetStyle().ItemInnerSpacing.x);
        ImGui::SetNextItemWidth(width);
        const bool moved =
            ImGui::SliderFloat((shown + "###spin").c_str(), &degrees, -180.0f, 180.0f, "%.0f deg");
        if (shown != label && ImGui::IsItemHovered()) fullTextTooltip(label);
        if (moved) {
            std::string error;
            setPofSpin(s, int(n), degrees, error);
        }
        ImGui::PopID();
    }

    if (ImGui::CollapsingHeader("Subobjects", ImGuiTreeNodeFlags_DefaultOpen)) {
        const int count = int(pof.subobjects.size());
        std::vector<std::vector<int>> children(static_cast<size_t>(count));
        std::vector<int> roots;
        for (int n = 0; n < count; ++n) {
            const int parent = n < int(s.scene->nodes.size()) ? s.scene->nodes[n].parent : -1;
            if (parent >= 0 && parent < count && parent != n)
                children[size_t(parent)].push_back(n);
            else
                roots.push_back(n);
        }
        // The tree beside the properties where both fit (the bottom strip), above them otherwise.
        const float propertiesWidth = 300.0f;
        const ImVec2 room = ImGui::GetContentRegionAvail();
        const bool beside = room.x >= 2.0f * propertiesWidth;
        const float treeHeight = std::max(0.45f * room.y, 8.0f * ImGui::GetFrameHeightWithSpacing());
        ImGui::BeginChild("##poftree", beside ? ImVec2(room.x - propertiesWidth, 0) : ImVec2(0, treeHeight),
                          true);
        std::vector<uint8_t> drawn(static_cast<size_t>(count), 0);
        for (int root : roots) subobjectTree(s, pof, children, root, drawn, 0);
        for (int n = 0; n < count; ++n)
            subobjectTree(s, pof, children, n, drawn, 0);  // nodes on parent loops
        ImGui::EndChild();
        if (beside) ImGui::SameLine();
        // Stacked, the properties take what is left, and at least their rows (the panel scrolls).
        const float propertiesHeight = beside
                                           ? 0.0f
                                           : std::max(room.y - treeHeight - ImGui::GetStyle().ItemSpacing.y,
                                                      15.0f * ImGui::GetTextLineHeightWithSpacing());
        ImGui::BeginChild("##pofprops", ImVec2(0, propertiesHeight), true);
        if (s.selection.node >= 0 && s.selection.node < count)
            properties(s, pof, s.selection.node);
        else
            ImGui::TextDisabled("Select a subobject.");
        ImGui::EndChild();
    }
    endScenePanel();
}

}  // namespace esv
