// The import report: every line the loaders, texture preparation and renderer upload appended to
// Scene::report, with warnings in colour, a text filter, a warnings-only switch and a copy button.
#include <cfloat>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "app/viewer/panels/panel_window.h"

namespace esv {
namespace {

const ImVec4 kWarningColor(1.0f, 0.72f, 0.3f, 1.0f);

// Above this many lines the list is drawn unwrapped through a clipper (rows of one height).
constexpr size_t kWrapLimit = 200;

struct ReportState {
    ImGuiTextFilter filter;
    bool warningsOnly = false;
    std::vector<int> shown;  // indices into Scene::report passing the filter, rebuilt each frame
};

ReportState& reportState() {
    static ReportState state;
    return state;
}

const char* prefix(Severity severity) {
    return severity == Severity::Warning ? "warning: " : "";
}

}  // namespace

void drawReportPanel(ViewerState& s) {
    if (!beginScenePanel(s, PanelId::Report)) return;
    const std::vector<ReportLine>& report = s.scene->report;
    ReportState& st = reportState();

    size_t infos = 0, warnings = 0;
    for (const ReportLine& line : report) (line.severity == Severity::Warning ? warnings : infos)++;
    ImGui::Text("%zu lines: %zu info,", report.size(), infos);
    ImGui::SameLine();
    if (warnings > 0)
        ImGui::TextColored(kWarningColor, "%zu warnings", warnings);
    else
        ImGui::TextUnformatted("0 warnings");

    st.shown.clear();
    for (size_t i = 0; i < report.size(); ++i) {
        if (st.warningsOnly && report[i].severity != Severity::Warning) continue;
        if (!st.filter.PassFilter(report[i].text.c_str())) continue;
        st.shown.push_back(static_cast<int>(i));
    }

    ImGui::Checkbox("warnings only", &st.warningsOnly);
    ImGui::SameLine();
    if (ImGui::Button("Copy")) {
        std::string text;
        for (int i : st.shown) {
            const ReportLine& line = report[static_cast<size_t>(i)];
            text += prefix(line.severity);
            text += line.text;
            text += '\n';
        }
        ImGui::SetClipboardText(text.c_str());
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Copies the %zu lines shown to the clipboard", st.shown.size());
    ImGui::SameLine();
    st.filter.Draw("filter##report", -FLT_MIN);

    ImGui::BeginChild("report lines", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    if (report.empty())
        ImGui::TextDisabled("The import reported nothing.");
    else if (st.shown.empty())
        ImGui::TextDisabled("No line matches.");
    auto drawLine = [&](const ReportLine& line, bool wrap) {
        if (line.severity == Severity::Warning) ImGui::PushStyleColor(ImGuiCol_Text, kWarningColor);
        if (wrap)
            ImGui::TextWrapped("%s%s", prefix(line.severity), line.text.c_str());
        else
            ImGui::Text("%s%s", prefix(line.severity), line.text.c_str());
        if (line.severity == Severity::Warning) ImGui::PopStyleColor();
    };
    if (st.shown.size() <= kWrapLimit) {
        for (int i : st.shown) drawLine(report[static_cast<size_t>(i)], true);
    } else {
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(st.shown.size()));
        while (clipper.Step())
            for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r)
                drawLine(report[static_cast<size_t>(st.shown[static_cast<size_t>(r)])], false);
    }
    ImGui::EndChild();
    endScenePanel();
}

}  // namespace esv
