// The Cost panel: what the scene as loaded costs on a device profile (the cost library's report, as
// `esview cost` prints it) in sortable tables of meshes and textures, coloured against the device's
// budgets, beside the renderer's last frame. The report is made when the scene or the device changes
// (updateCostView), not every frame. A build without the cost library (the browser's) says so.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "app/viewer/panels/fitted_text.h"
#include "app/viewer/panels/panel_window.h"
#include "app/viewer/viewer_actions.h"
#include "cost/cost_report.h"
#include "target/device_profiles.h"

namespace esv {

std::string costDeviceName(const ViewerState& s) {
    for (const std::string* name : {&s.cost.device, &s.device, &s.rendererInfo.device})
        if (!name->empty() && findDevice(*name)) return findDevice(*name)->name;
    return "ge8320";
}

bool updateCostView(ViewerState& s) {
#if ESVIEW_HAS_COST
    CostView& c = s.cost;
    const std::string device = costDeviceName(s);
    if (!s.loaded) {
        c.report.reset();
        return false;
    }
    if (c.report && c.loads == s.loadsCompleted && c.reportDevice == device) return true;
    const auto start = std::chrono::steady_clock::now();
    // At the rest pose, as `check --budget` measures the frame: the same figures whatever is playing.
    c.report = std::make_shared<const CostReport>(analyzeCost(*s.loaded, *findDevice(device)));
    c.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    c.loads = s.loadsCompleted;
    c.reportDevice = device;
    c.meshOrder.clear();
    c.textureOrder.clear();
    return true;
#else
    (void)s;
    return false;
#endif
}

#if ESVIEW_HAS_COST
namespace {

// Green within the budget, amber near it, red over it (README: the Cost panel).
enum class Level { None, Green, Amber, Red };

const ImVec4 kLevelColors[] = {ImVec4(0, 0, 0, 0), ImVec4(0.45f, 0.85f, 0.45f, 1.0f),
                               ImVec4(1.0f, 0.72f, 0.3f, 1.0f), ImVec4(1.0f, 0.35f, 0.3f, 1.0f)};

constexpr ImGuiTableFlags kTableFlags =
    ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit |
    ImGuiTableFlags_Resizable | ImGuiTableFlags_Sortable | ImGuiTableFlags_SortMulti |
    ImGuiTableFlags_SortTristate | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;

// A frame total against its budget: green up to 75% of it, amber up to the budget, red over it.
Level budgetLevel(double value, double budget) {
    if (budget <= 0) return Level::None;
    return value > budget ? Level::Red : value > 0.75 * budget ? Level::Amber : Level::Green;
}

// One mesh's or texture's share of a frame budget: amber above a quarter of it, red above half.
Level shareLevel(double value, double budget) {
    if (budget <= 0) return Level::None;
    return value > 0.5 * budget ? Level::Red : value > 0.25 * budget ? Level::Amber : Level::Green;
}

void coloredText(Level level, const char* text) {
    if (level == Level::None)
        ImGui::TextUnformatted(text);
    else
        ImGui::TextColored(kLevelColors[size_t(level)], "%s", text);
}

std::string kib(uint64_t bytes) {
    return formatText("%.1f", double(bytes) / 1024.0);
}

// "688.0 KiB", "256.0 MiB".
std::string bytesText(uint64_t bytes) {
    return bytes >= (uint64_t(10) << 20) ? formatText("%.1f MiB", double(bytes) / 1048576.0)
                                         : kib(bytes) + " KiB";
}

template <typename T>
int compareValues(const T& a, const T& b) {
    return a < b ? -1 : b < a ? 1 : 0;
}

// Sorts `order` (indices into `rows`) by the table's sort specs; `compare(a, b, column)` is <0, 0, >0.
template <typename Row, typename Compare>
void sortRows(std::vector<int>& order, const std::vector<Row>& rows, Compare compare) {
    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    const bool fresh = order.size() != rows.size();
    if (fresh) {
        order.resize(rows.size());
        for (size_t i = 0; i < rows.size(); ++i) order[i] = int(i);
    }
    if (!specs || (!specs->SpecsDirty && !fresh)) return;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        for (int i = 0; i < specs->SpecsCount; ++i) {
            const ImGuiTableColumnSortSpecs& c = specs->Specs[i];
            const int d = compare(rows[size_t(a)], rows[size_t(b)], c.ColumnIndex);
            if (d != 0) return c.SortDirection == ImGuiSortDirection_Descending ? d > 0 : d < 0;
        }
        return a < b;
    });
    specs->SpecsDirty = false;
}

uint32_t maxBones(const MeshCost& m) {
    uint32_t bones = 0;
    for (const BatchCost& b : m.batches) bones = std::max(bones, b.bones);
    return bones;
}

bool batchOver(const MeshCost& m) {
    return std::any_of(m.batches.begin(), m.batches.end(), [](const BatchCost& b) { return b.overLimit; });
}

int compareMeshes(const MeshCost& a, const MeshCost& b, int column) {
    switch (column) {
        case 0:
            return a.name.compare(b.name);
        case 1:
            return compareValues(a.vertices, b.vertices);
        case 2:
            return compareValues(a.triangles, b.triangles);
        case 3:
            return compareValues(a.vertexBytes, b.vertexBytes);
        case 4:
            return compareValues(a.acmr, b.acmr);
        case 5:
            return compareValues(a.acmrOptimized, b.acmrOptimized);
        case 6:
            return compareValues(a.atvr, b.atvr);
        case 7:
            return compareValues(a.overfetch, b.overfetch);
        case 8:
            return compareValues(a.overdraw, b.overdraw);
        case 9:
            return compareValues(a.duplicateVertices, b.duplicateVertices);
        case 10:
            return compareValues(maxBones(a), maxBones(b));
        default:
            return 0;
    }
}

bool oversized(const TextureCost& t, const DeviceProfile& d) {
    return d.limits.maxTextureSize > 0 &&
           (t.width > uint32_t(d.limits.maxTextureSize) || t.height > uint32_t(d.limits.maxTextureSize));
}

int compareTextures(const TextureCost& a, const TextureCost& b, int column) {
    switch (column) {
        case 0:
            return a.name.compare(b.name);
        case 1:
            return a.format.compare(b.format);
        case 2:
            return compareValues(uint64_t(a.width) * a.height, uint64_t(b.width) * b.height);
        case 3:
            return compareValues(a.mipLevels, b.mipLevels);
        case 4:
            return compareValues(a.gpuBytes, b.gpuBytes);
        case 5:
            return compareValues(a.usableAsIs, b.usableAsIs);
        case 6:
            return a.suggestion.compare(b.suggestion);
        default:
            return 0;
    }
}

// The first node of the scene that draws mesh `mesh`; -1 when none does.
int nodeDrawing(const Scene& scene, int mesh) {
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].kind == NodeKind::Mesh && scene.nodes[n].object == mesh) return int(n);
    return -1;
}

// Up to 12 rows and the header, with room for the sideways scroll bar (the tables keep their columns'
// widths and scroll in a narrow column rather than squeeze them).
float tableHeight(size_t rows) {
    return ImGui::GetTextLineHeightWithSpacing() * float(std::min<size_t>(rows, 12) + 1) +
           ImGui::GetStyle().CellPadding.y * 4.0f + ImGui::GetStyle().ScrollbarSize;
}

void meshTooltip(const MeshCost& m, int node, const Scene& scene, int palette) {
    ImGui::BeginTooltip();
    ImGui::Text("%s: %s KiB of vertices, %s KiB of indices", m.name.c_str(), kib(m.vertexBytes).c_str(),
                kib(m.indexBytes).c_str());
    for (const std::string& a : m.attributes) ImGui::BulletText("%s", a.c_str());
    ImGui::Text("ATVR optimized %.3f, %u vertices transformed, %s KiB fetched", m.atvrOptimized,
                m.verticesTransformed, kib(m.bytesFetched).c_str());
    if (m.lines || m.points) ImGui::Text("%u lines, %u points", m.lines, m.points);
    if (m.morphTargets) ImGui::Text("%u morph targets, %s KiB", m.morphTargets, kib(m.morphBytes).c_str());
    for (size_t i = 0; i < m.batches.size(); ++i)
        ImGui::TextColored(kLevelColors[size_t(m.batches[i].overLimit ? Level::Red : Level::None)],
                           "bone batch %zu: %u bones, %u uniform vectors%s", i, m.batches[i].bones,
                           m.batches[i].paletteVectors, m.batches[i].overLimit ? " (over the palette)" : "");
    if (!m.batches.empty()) ImGui::TextDisabled("the device's palette: %d bones", palette);
    ImGui::TextDisabled(node >= 0 ? "click: select node '%s'" : "no node draws it%s",
                        node >= 0 ? scene.nodes[size_t(node)].name.c_str() : "");
    ImGui::EndTooltip();
}

void meshRow(ViewerState& s, const CostReport& r, int index) {
    const MeshCost& m = r.meshes[size_t(index)];
    const DeviceProfile& d = *r.device;
    const Level triangles = shareLevel(m.triangles, d.budgets.triangles);
    const Level batches = batchOver(m) ? Level::Red : Level::None;
    const Level row = std::max(triangles, batches);
    const int node = s.scene ? nodeDrawing(*s.scene, index) : -1;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(index);
    if (row >= Level::Amber) ImGui::PushStyleColor(ImGuiCol_Text, kLevelColors[size_t(row)]);
    const std::string name = m.name.empty() ? "mesh " + std::to_string(index) : m.name;
    if (ImGui::Selectable(name.c_str(), node >= 0 && s.selection.node == node,
                          ImGuiSelectableFlags_SpanAllColumns) &&
        node >= 0)
        selectNode(s, node);
    if (row >= Level::Amber) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) meshTooltip(m, node, *s.scene, devicePaletteCapacity(d));
    ImGui::PopID();
    ImGui::TableNextColumn();
    ImGui::Text("%u", m.vertices);
    ImGui::TableNextColumn();
    coloredText(triangles, std::to_string(m.triangles).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(kib(m.vertexBytes).c_str());
    for (float v : {m.acmr, m.acmrOptimized, m.atvr, m.overfetch, m.overdraw}) {
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", double(v));
    }
    ImGui::TableNextColumn();
    ImGui::Text("%u", m.duplicateVertices);
    ImGui::TableNextColumn();
    if (m.batches.empty())
        ImGui::TextDisabled("-");
    else
        coloredText(batches, formatText("%zu: %u bones%s", m.batches.size(), maxBones(m),
                                        batchOver(m) ? " (over)" : "")
                                 .c_str());
}

void drawMeshes(ViewerState& s, const CostReport& r) {
    if (!ImGui::CollapsingHeader(("Meshes (" + std::to_string(r.meshes.size()) + ")###meshes").c_str(),
                                 ImGuiTreeNodeFlags_DefaultOpen))
        return;
    if (r.meshes.empty()) {
        ImGui::TextDisabled("No meshes.");
        return;
    }
    if (!ImGui::BeginTable("meshes", 11, kTableFlags, ImVec2(0, tableHeight(r.meshes.size())))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("mesh");
    for (const char* column : {"vertices", "triangles", "vertex KiB", "ACMR", "ACMR opt", "ATVR", "overfetch",
                               "overdraw", "duplicates", "batches, bones"})
        ImGui::TableSetupColumn(column, ImGuiTableColumnFlags_PreferSortDescending);
    ImGui::TableHeadersRow();
    sortRows(s.cost.meshOrder, r.meshes, compareMeshes);
    ImGuiListClipper clipper;
    clipper.Begin(int(s.cost.meshOrder.size()));
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
            meshRow(s, r, s.cost.meshOrder[size_t(i)]);
    ImGui::EndTable();
}

void textureRow(const CostReport& r, int index) {
    const TextureCost& t = r.textures[size_t(index)];
    const DeviceProfile& d = *r.device;
    const Level gpu = shareLevel(double(t.gpuBytes), double(d.budgets.textureBytes));
    const Level stored = oversized(t, d)              ? Level::Red
                         : !t.usableAsIs || t.missing ? Level::Amber
                                                      : Level::Green;
    const Level row = std::max(gpu, stored);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    coloredText(row >= Level::Amber ? row : Level::None,
                (t.name.empty() ? "texture " + std::to_string(index) : t.name).c_str());
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::Text("%s%s", t.file.empty() ? "(embedded or not found)" : t.file.c_str(),
                    t.missing ? ": missing" : "");
        ImGui::Text("%s, %u face%s, %s KiB stored", t.container.c_str(), t.faces, t.faces == 1 ? "" : "s",
                    kib(t.storedBytes).c_str());
        for (const std::string& p : t.problems) ImGui::BulletText("%s", p.c_str());
        if (!t.suggestion.empty())
            ImGui::Text("suggestion: %s (%s KiB)", t.suggestion.c_str(), kib(t.suggestedBytes).c_str());
        ImGui::EndTooltip();
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(t.format.c_str());
    ImGui::TableNextColumn();
    coloredText(oversized(t, d) ? Level::Red : Level::None, formatText("%ux%u", t.width, t.height).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%u", t.mipLevels);
    ImGui::TableNextColumn();
    coloredText(gpu, kib(t.gpuBytes).c_str());
    ImGui::TableNextColumn();
    coloredText(t.usableAsIs ? Level::Green : Level::Amber, t.usableAsIs ? "yes" : "no");
    ImGui::TableNextColumn();
    if (t.suggestion.empty())
        ImGui::TextDisabled("-");
    else
        ImGui::TextUnformatted(t.suggestion.c_str());
}

void drawTextures(ViewerState& s, const CostReport& r) {
    if (!ImGui::CollapsingHeader(("Textures (" + std::to_string(r.textures.size()) + ")###textures").c_str(),
                                 ImGuiTreeNodeFlags_DefaultOpen))
        return;
    if (r.textures.empty()) {
        ImGui::TextDisabled("No textures.");
        return;
    }
    if (!ImGui::BeginTable("textures", 7, kTableFlags, ImVec2(0, tableHeight(r.textures.size())))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("texture");
    ImGui::TableSetupColumn("format");
    ImGui::TableSetupColumn("size", ImGuiTableColumnFlags_PreferSortDescending);
    ImGui::TableSetupColumn("mips", ImGuiTableColumnFlags_PreferSortDescending);
    ImGui::TableSetupColumn("GPU KiB", ImGuiTableColumnFlags_PreferSortDescending);
    ImGui::TableSetupColumn("as stored");
    ImGui::TableSetupColumn("suggestion", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    sortRows(s.cost.textureOrder, r.textures, compareTextures);
    ImGuiListClipper clipper;
    clipper.Begin(int(s.cost.textureOrder.size()));
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
            textureRow(r, s.cost.textureOrder[size_t(i)]);
    ImGui::EndTable();
}

// A row of the frame table: the renderer's last frame, the report's estimate, the device's budget.
void frameRow(const char* label, const std::string& live, Level liveLevel, const std::string& estimate,
              Level estimateLevel, const std::string& budget) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    ImGui::TableNextColumn();
    if (live.empty())
        ImGui::TextDisabled("-");
    else
        coloredText(liveLevel, live.c_str());
    ImGui::TableNextColumn();
    if (estimate.empty())
        ImGui::TextDisabled("-");
    else
        coloredText(estimateLevel, estimate.c_str());
    ImGui::TableNextColumn();
    if (budget.empty())
        ImGui::TextDisabled("-");
    else
        ImGui::TextUnformatted(budget.c_str());
}

void drawFrame(const ViewerState& s, const CostReport& r) {
    if (!ImGui::CollapsingHeader("Frame", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const DeviceBudgets& b = r.device->budgets;
    const FrameStats& live = s.stats;
    const FrameCost& f = r.frame;
    if (ImGui::BeginTable("frame", 4,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit |
                              ImGuiTableFlags_ScrollX,
                          ImVec2(0, tableHeight(4)))) {
        ImGui::TableSetupColumn("");
        ImGui::TableSetupColumn("last frame drawn");
        ImGui::TableSetupColumn("estimate, rest pose");
        ImGui::TableSetupColumn("budget");
        ImGui::TableHeadersRow();
        const auto num = [](uint64_t v) { return std::to_string(v); };
        frameRow("draws", num(live.drawCalls), budgetLevel(live.drawCalls, b.draws), num(f.draws),
                 budgetLevel(f.draws, b.draws), num(b.draws));
        frameRow("triangles", num(live.triangles), budgetLevel(live.triangles, b.triangles), num(f.triangles),
                 budgetLevel(f.triangles, b.triangles), num(b.triangles));
        frameRow("vertices transformed", "", Level::None,
                 num(f.verticesTransformed) + " (" + kib(f.vertexBytesFetched) + " KiB fetched)", Level::None,
                 "");
        frameRow("textures resident", "", Level::None, bytesText(r.totals.textureBytes),
                 budgetLevel(double(r.totals.textureBytes), double(b.textureBytes)),
                 bytesText(b.textureBytes));
        ImGui::EndTable();
    }
    const StateChanges& k = live.changes;
    ImGui::Text(
        "State changes, last frame: %u (programs %u, textures %u, vertex arrays %u, buffers %u, attributes "
        "%u, "
        "render state %u, uniforms %u: %s KiB, of which palettes %s KiB)",
        k.total(), k.programs, k.textures, k.vertexArrays, k.buffers, k.attributes, k.renderState, k.uniforms,
        kib(k.uniformBytes).c_str(), kib(k.paletteBytes).c_str());
    ImGui::TextDisabled(
        "The last frame is the renderer's (%s, the current pose and view); the estimate is %s's.",
        s.rendererInfo.device.empty() ? "no device profile" : s.rendererInfo.device.c_str(),
        r.device->name.c_str());
}

void drawLimits(const CostReport& r) {
    if (!r.overLimits.empty() &&
        ImGui::CollapsingHeader(
            ("Over the device's limits (" + std::to_string(r.overLimits.size()) + ")###over").c_str(),
            ImGuiTreeNodeFlags_DefaultOpen))
        for (const std::string& line : r.overLimits)
            ImGui::TextColored(kLevelColors[size_t(Level::Red)], "%s", line.c_str());
    if (!r.preparation.empty() &&
        ImGui::CollapsingHeader(
            ("What preparation does (" + std::to_string(r.preparation.size()) + ")###prep").c_str()))
        for (const std::string& line : r.preparation) ImGui::BulletText("%s", line.c_str());
}

void deviceCombo(ViewerState& s, const CostReport& r) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
    const std::string current = r.device->name + " (" + r.device->title + ")";
    if (ImGui::BeginCombo("device", current.c_str())) {
        for (const DeviceProfile& d : deviceProfiles()) {
            const std::string label = d.name + " (" + d.title + ")";
            if (ImGui::Selectable(label.c_str(), &d == r.device)) s.cost.device = d.name;
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    const DeviceProfile& d = *r.device;
    ImGui::TextDisabled(
        "ES %d.%d, %d bones per draw, textures up to %d; budgets: %u triangles, %u draws, %s of "
        "textures (analysed in %.0f ms)",
        d.esVersion / 10, d.esVersion % 10, devicePaletteCapacity(d), d.limits.maxTextureSize,
        d.budgets.triangles, d.budgets.draws, bytesText(d.budgets.textureBytes).c_str(), s.cost.ms);
}

void drawTotals(const CostReport& r) {
    const CostTotals& t = r.totals;
    const DeviceBudgets& b = r.device->budgets;
    ImGui::Text("Totals: %llu vertices,", static_cast<unsigned long long>(t.vertices));
    ImGui::SameLine();
    coloredText(budgetLevel(double(t.triangles), b.triangles),
                formatText("%llu triangles,", static_cast<unsigned long long>(t.triangles)).c_str());
    ImGui::SameLine();
    ImGui::Text("%s of vertices, %s of indices,", bytesText(t.vertexBytes).c_str(),
                bytesText(t.indexBytes).c_str());
    ImGui::SameLine();
    coloredText(budgetLevel(double(t.textureBytes), double(b.textureBytes)),
                formatText("%s of textures", bytesText(t.textureBytes).c_str()).c_str());
}

}  // namespace
#endif

void drawCostPanel(ViewerState& s) {
    if (!beginScenePanel(s, PanelId::Cost, ImGuiWindowFlags_HorizontalScrollbar)) return;
#if ESVIEW_HAS_COST
    if (!updateCostView(s)) {
        ImGui::TextDisabled("The scene as loaded is not kept: nothing to measure.");
    } else {
        const std::shared_ptr<const CostReport> report = s.cost.report;  // the combo may replace it
        deviceCombo(s, *report);
        drawTotals(*report);
        drawLimits(*report);
        drawMeshes(s, *report);
        drawTextures(s, *report);
        drawFrame(s, *report);
    }
#else
    ImGui::TextDisabled("The Cost panel is not in this build (esview cost FILE has the report).");
#endif
    endScenePanel();
}

}  // namespace esv
