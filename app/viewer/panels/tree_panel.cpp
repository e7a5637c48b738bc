// The scene tree: Scene::nodes drawn as a hierarchy from their parent indices, one row per node
// with its kind, name and (for mesh instances) the mesh and instance number. Rows are flattened
// each frame from an open-state array kept here, so long trees go through ImGuiListClipper and a
// selection made elsewhere (viewport picking) can open its ancestors and scroll to its row.
#include <cfloat>
#include <cstdint>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/scene_info.h"
#include "app/viewer/panels.h"
#include "app/viewer/panels/fitted_text.h"
#include "app/viewer/panels/panel_window.h"
#include "app/viewer/viewer_actions.h"

namespace esv {
namespace {

const ImVec4 kHiddenColor(0.5f, 0.5f, 0.5f, 1.0f);
const ImVec4 kInfoColor(0.6f, 0.6f, 0.6f, 1.0f);

struct KindTag {
    const char* text;
    ImVec4 color;
};

// Tag colours follow NodeKind order; joints that are not Bone nodes get the bone tag too.
constexpr int kKinds = static_cast<int>(NodeKind::Count);
const KindTag kKindTags[] = {
    {"[empty]", ImVec4(0.6f, 0.6f, 0.6f, 1.0f)},   // Empty
    {"[mesh]", ImVec4(0.45f, 0.8f, 1.0f, 1.0f)},   // Mesh
    {"[light]", ImVec4(1.0f, 0.85f, 0.3f, 1.0f)},  // Light
    {"[camera]", ImVec4(0.6f, 1.0f, 0.6f, 1.0f)},  // Camera
    {"[bone]", ImVec4(1.0f, 0.55f, 0.75f, 1.0f)},  // Bone
};
static_assert(sizeof(kKindTags) / sizeof(kKindTags[0]) == static_cast<size_t>(kKinds));

// Per-scene facts the rows need, rebuilt every frame (linear in the node count).
struct TreeIndex {
    std::vector<std::vector<int>> children;
    std::vector<int> roots;
    std::vector<uint8_t> joint;              // skin joint or Bone node
    std::vector<int> instanceOf, instances;  // per node: k (1-based) of n nodes sharing its mesh
};

struct Row {
    int node;
    int depth;
};

// Panel state that outlives a frame.
struct TreeState {
    const Scene* scene = nullptr;
    size_t nodeCount = 0;
    std::vector<uint8_t> open;  // per node
    int lastSelection = -1;     // selection seen last frame; a change not made here is revealed
    ImGuiTextFilter filter;
    int contextNode = -1;
    TreeIndex index;
    std::vector<Row> rows;
};

TreeState& treeState() {
    static TreeState state;
    return state;
}

bool validNode(const Scene& scene, int n) {
    return n >= 0 && static_cast<size_t>(n) < scene.nodes.size();
}

void buildIndex(const Scene& scene, TreeIndex& index) {
    const size_t count = scene.nodes.size();
    index.children.resize(count);
    for (auto& c : index.children) c.clear();
    index.roots.clear();
    index.joint.assign(count, 0);
    index.instanceOf.assign(count, 0);
    index.instances.assign(count, 0);
    for (size_t n = 0; n < count; ++n) {
        const int parent = scene.nodes[n].parent;
        // A parent that is out of range is shown as a root.
        if (validNode(scene, parent) && static_cast<size_t>(parent) != n)
            index.children[static_cast<size_t>(parent)].push_back(static_cast<int>(n));
        else
            index.roots.push_back(static_cast<int>(n));
        if (scene.nodes[n].kind == NodeKind::Bone) index.joint[n] = 1;
    }
    // Nodes on a parent cycle (rejected by validation, but the panel must not depend on it) are
    // reachable from no root: each first one found becomes a root so every node has a row.
    std::vector<uint8_t> reached(count, 0);
    std::vector<int> stack(index.roots.begin(), index.roots.end());
    for (size_t n = 0; n <= count; ++n) {
        while (!stack.empty()) {
            const size_t m = static_cast<size_t>(stack.back());
            stack.pop_back();
            if (reached[m]) continue;
            reached[m] = 1;
            for (int child : index.children[m]) stack.push_back(child);
        }
        if (n < count && !reached[n]) {
            index.roots.push_back(static_cast<int>(n));
            stack.push_back(static_cast<int>(n));
        }
    }
    for (const Skin& skin : scene.skins)
        for (int32_t j : skin.joints)
            if (validNode(scene, j)) index.joint[static_cast<size_t>(j)] = 1;
    std::vector<int> perMesh(scene.meshes.size(), 0);
    for (size_t n = 0; n < count; ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind == NodeKind::Mesh && node.object >= 0 &&
            static_cast<size_t>(node.object) < perMesh.size())
            index.instanceOf[n] = ++perMesh[static_cast<size_t>(node.object)];
    }
    for (size_t n = 0; n < count; ++n) {
        const Node& node = scene.nodes[n];
        if (index.instanceOf[n] > 0) index.instances[n] = perMesh[static_cast<size_t>(node.object)];
    }
}

// Depth-first rows of the open part of the tree. Iterative, with a visited mark, so parent cycles
// in a malformed scene neither recurse without bound nor repeat rows.
void flattenRows(const TreeIndex& index, const std::vector<uint8_t>& open, std::vector<Row>& rows) {
    rows.clear();
    std::vector<uint8_t> visited(index.children.size(), 0);
    std::vector<Row> stack;
    for (auto it = index.roots.rbegin(); it != index.roots.rend(); ++it) stack.push_back({*it, 0});
    while (!stack.empty()) {
        const Row row = stack.back();
        stack.pop_back();
        const size_t n = static_cast<size_t>(row.node);
        if (visited[n]) continue;
        visited[n] = 1;
        rows.push_back(row);
        if (!open[n]) continue;
        const auto& kids = index.children[n];
        for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, row.depth + 1});
    }
}

const KindTag& tagOf(const Scene& scene, const TreeIndex& index, int n) {
    const Node& node = scene.nodes[static_cast<size_t>(n)];
    const int kind = static_cast<int>(node.kind) < kKinds ? static_cast<int>(node.kind) : 0;
    if (node.kind == NodeKind::Empty && index.joint[static_cast<size_t>(n)])
        return kKindTags[static_cast<int>(NodeKind::Bone)];
    return kKindTags[kind];
}

// One node's row: tree node (or leaf) with the kind tag, name, and mesh/instancing details.
// Returns true when the row was right-clicked (the caller opens the context menu outside the row's ID).
bool drawRow(ViewerState& s, TreeState& st, int n, bool asTree, bool reveal) {
    const Scene& scene = *s.scene;
    const Node& node = scene.nodes[static_cast<size_t>(n)];
    const TreeIndex& index = st.index;
    const bool hidden = static_cast<size_t>(n) < s.pose.visible.size()
                            ? s.pose.visible[static_cast<size_t>(n)] == 0
                            : !node.visible;
    const bool leaf = !asTree || index.children[static_cast<size_t>(n)].empty();

    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick |
                               ImGuiTreeNodeFlags_SpanAvailWidth | ImGuiTreeNodeFlags_NoTreePushOnOpen;
    if (leaf) flags |= ImGuiTreeNodeFlags_Leaf;
    if (s.selection.node == n) flags |= ImGuiTreeNodeFlags_Selected;

    ImGui::PushID(n);
    if (!leaf) ImGui::SetNextItemOpen(st.open[static_cast<size_t>(n)] != 0, ImGuiCond_Always);
    const KindTag& tag = tagOf(scene, index, n);
    if (hidden) ImGui::PushStyleColor(ImGuiCol_Text, kHiddenColor);
    // An empty label: the tag, name and mesh details follow on the same line in their own colours.
    const bool opened = ImGui::TreeNodeEx("##node", flags, "%s", "");
    if (!leaf && ImGui::IsItemToggledOpen()) st.open[static_cast<size_t>(n)] = opened ? 1 : 0;
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && !ImGui::IsItemToggledOpen()) {
        selectNode(s, n);
        st.lastSelection = s.selection.node;
    }
    const bool context = ImGui::IsItemClicked(ImGuiMouseButton_Right);
    const bool rowHovered = ImGui::IsItemHovered();
    if (reveal) ImGui::SetScrollHereY(0.5f);

    ImGui::SameLine();
    ImGui::TextColored(hidden ? kHiddenColor : tag.color, "%s", tag.text);
    ImGui::SameLine();
    // The name, then the mesh details, each cut to what is left of the row (keeping room for the
    // hidden mark); the row's tooltip has them in full.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float hiddenWidth = hidden ? ImGui::CalcTextSize("(hidden)").x + style.ItemSpacing.x : 0.0f;
    const std::string name = node.name.empty() ? "node " + std::to_string(n) : node.name;
    const std::string shownName = fitToWidth(name, ImGui::GetContentRegionAvail().x - hiddenWidth);
    bool cut = shownName != name;
    if (node.name.empty())
        ImGui::TextDisabled("%s", shownName.c_str());
    else
        ImGui::TextUnformatted(shownName.c_str());
    std::string details;
    if (node.kind == NodeKind::Mesh && node.object >= 0 &&
        static_cast<size_t>(node.object) < scene.meshes.size()) {
        const Mesh& mesh = scene.meshes[static_cast<size_t>(node.object)];
        const int k = index.instanceOf[static_cast<size_t>(n)],
                  count = index.instances[static_cast<size_t>(n)];
        details = count > 1 ? formatText("mesh %d \"%s\", instance %d of %d", node.object, mesh.name.c_str(),
                                         k, count)
                            : formatText("mesh %d \"%s\"", node.object, mesh.name.c_str());
        ImGui::SameLine();
        // Not even a few letters of it fit: the tooltip alone has it.
        const float room = ImGui::GetContentRegionAvail().x - hiddenWidth;
        const std::string shownDetails = room >= 3.0f * ImGui::GetFontSize() ? fitToWidth(details, room) : "";
        cut = cut || shownDetails != details;
        ImGui::TextColored(kInfoColor, "%s", shownDetails.c_str());
    }
    if (hidden) {
        ImGui::SameLine();
        ImGui::TextDisabled("(hidden)");
        ImGui::PopStyleColor();
    }
    if (rowHovered && (cut || !node.name.empty()))
        fullTextTooltip(
            (node.name.empty() ? formatText("node %d", n) : formatText("node %d: %s", n, node.name.c_str())) +
            (details.empty() ? "" : "\n" + details));
    ImGui::PopID();
    return context;
}

void drawContextMenu(ViewerState& s, TreeState& st) {
    if (!ImGui::BeginPopup("node menu")) return;
    const Scene& scene = *s.scene;
    const int n = st.contextNode;
    if (!validNode(scene, n)) {
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    const std::string& name = scene.nodes[static_cast<size_t>(n)].name;
    ImGui::TextDisabled("node %d %s", n, name.c_str());
    ImGui::Separator();
    if (ImGui::MenuItem("Select", nullptr, s.selection.node == n)) selectNode(s, n);
    if (ImGui::MenuItem("Frame")) {
        selectNode(s, n);
        frameSelection(s);
    }
    if (static_cast<size_t>(n) < st.index.joint.size() && st.index.joint[static_cast<size_t>(n)]) {
        // The vertices it moves are drawn over the scene; the Weights mode follows the same joint.
        if (ImGui::MenuItem("Show influences")) {
            selectNode(s, n);
            s.selection.joint = n;
            s.view.influenceJoint = n;
            s.view.weightBone = n;
        }
        boneMaskMenu(s, n);
    }
    ImGui::EndPopup();
}

}  // namespace

void drawTreePanel(ViewerState& s) {
    if (!beginScenePanel(s, PanelId::Tree, 0, "No scene loaded: File > Open..."))
        return;
    const Scene& scene = *s.scene;
    TreeState& st = treeState();
    if (st.scene != &scene || st.nodeCount != scene.nodes.size()) {
        // A new scene: roots open, everything else closed.
        st.scene = &scene;
        st.nodeCount = scene.nodes.size();
        st.open.assign(scene.nodes.size(), 0);
        st.lastSelection = -2;
        st.contextNode = -1;
    }
    buildIndex(scene, st.index);
    if (st.lastSelection == -2)
        for (int r : st.index.roots) st.open[static_cast<size_t>(r)] = 1;

    ImGui::TextUnformatted(sceneCountsText(scene, false).c_str());
    ImGui::TextUnformatted("filter");
    ImGui::SameLine();
    st.filter.Draw("##filter", -FLT_MIN);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Node names containing the text (\"a,b\" for either, \"-x\" to exclude)");
    if (scene.nodes.empty()) {
        ImGui::TextDisabled("The scene has no nodes.");
        endScenePanel();
        return;
    }

    // A selection made elsewhere (picking, scripts, the inspector): open its ancestors, scroll to it.
    const int selected = validNode(scene, s.selection.node) ? s.selection.node : -1;
    bool reveal = false;
    if (selected != st.lastSelection) {
        reveal = selected >= 0;
        if (reveal) {
            int p = scene.nodes[static_cast<size_t>(selected)].parent;
            for (size_t guard = 0; validNode(scene, p) && guard < scene.nodes.size(); ++guard) {
                st.open[static_cast<size_t>(p)] = 1;
                p = scene.nodes[static_cast<size_t>(p)].parent;
            }
        }
        st.lastSelection = selected;
    }

    const bool filtering = st.filter.IsActive();
    st.rows.clear();
    if (filtering) {
        // A flat list of matches: where a node sits is in its tooltip and the inspector.
        for (size_t n = 0; n < scene.nodes.size(); ++n)
            if (st.filter.PassFilter(scene.nodes[n].name.c_str()))
                st.rows.push_back({static_cast<int>(n), 0});
    } else {
        flattenRows(st.index, st.open, st.rows);
    }

    ImGui::BeginChild("tree rows", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    int revealRow = -1;
    if (reveal)
        for (size_t r = 0; r < st.rows.size(); ++r)
            if (st.rows[r].node == selected) revealRow = static_cast<int>(r);
    if (filtering && st.rows.empty()) ImGui::TextDisabled("No node matches.");

    const float indent = ImGui::GetStyle().IndentSpacing;
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(st.rows.size()));
    if (revealRow >= 0) clipper.ForceDisplayRangeByIndices(revealRow, revealRow + 1);
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const Row& row = st.rows[static_cast<size_t>(r)];
            const float offset = indent * static_cast<float>(row.depth);
            if (offset > 0.0f) ImGui::Indent(offset);
            if (drawRow(s, st, row.node, !filtering, r == revealRow)) {
                st.contextNode = row.node;
                ImGui::OpenPopup("node menu");
            }
            if (offset > 0.0f) ImGui::Unindent(offset);
        }
    }
    drawContextMenu(s, st);
    ImGui::EndChild();
    endScenePanel();
}

}  // namespace esv
