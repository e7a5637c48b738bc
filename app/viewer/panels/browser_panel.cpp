// The file browser window: folders (FreeSpace VP archives among them), model files filtered by
// extension, recent files; after File → Compare with… the model clicked opens as B beside the open one.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string>

#include <imgui.h>

#include "app/viewer/file_browser.h"
#include "app/viewer/panels.h"
#include "app/viewer/panels/fitted_text.h"
#include "loaders/format_table.h"

namespace esv {
namespace {

bool containsIgnoringCase(const std::string& text, const std::string& part) {
    if (part.empty()) return true;
    auto lower = [](std::string v) {
        for (char& c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
        return v;
    };
    return lower(text).find(lower(part)) != std::string::npos;
}

std::string sizeText(uintmax_t bytes) {
    char text[32];
    if (bytes >= (uintmax_t(1) << 20)) std::snprintf(text, sizeof(text), "%.1f MiB", double(bytes) / (1 << 20));
    else if (bytes >= 1024) std::snprintf(text, sizeof(text), "%.1f KiB", double(bytes) / 1024);
    else std::snprintf(text, sizeof(text), "%ju B", bytes);
    return text;
}

// A model clicked in the browser: opened as A, or as B after File → Compare with… (once).
void openPicked(ViewerState& s, const std::string& path) {
    if (s.compare.pickInBrowser) {
        s.compare.requestOpen = path;
        s.compare.pickInBrowser = false;
    } else {
        s.requestOpen = path;
    }
}

}  // namespace

void drawBrowserPanel(ViewerState& s, FileBrowser& browser) {
    if (!s.panel(PanelId::Browser)) return;
    ImGui::BeginChild("browser");
    if (browser.directory().empty()) browser.setDirectory(".");
    if (ImGui::Button("Up")) browser.up();
    ImGui::SameLine();
    if (ImGui::Button("Refresh")) browser.refresh();
    ImGui::SameLine();
    if (ImGui::Checkbox("all files", &browser.showAll)) browser.refresh();
    ImGui::SameLine();
    static char filter[128] = "";
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##filter", "filter by name", filter, sizeof(filter))) browser.nameFilter = filter;

    static char typed[1024] = "";
    ImGui::SetNextItemWidth(-60);
    if (ImGui::InputTextWithHint("##path", browser.directory().c_str(), typed, sizeof(typed),
                                 ImGuiInputTextFlags_EnterReturnsTrue)) {
        if (FileBrowser::isFolder(typed)) {
            browser.setDirectory(typed);
        } else {
            s.requestOpen = typed;
        }
        typed[0] = 0;
    }
    ImGui::SameLine();
    ImGui::TextDisabled("(Enter)");
    if (s.compare.pickInBrowser) {
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Choose the model to compare with (B)");
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) s.compare.pickInBrowser = false;
    }
    if (!browser.error().empty()) ImGui::TextColored(ImVec4(1.0f, 0.42f, 0.36f, 1.0f), "%s", browser.error().c_str());
    ImGui::TextDisabled("%s", browser.directory().c_str());

    const float recentHeight = s.recentFiles.empty() ? 0.0f : 110.0f;
    if (ImGui::BeginTable("files", 2, ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter,
                          ImVec2(0, -recentHeight - ImGui::GetFrameHeightWithSpacing()))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("size", ImGuiTableColumnFlags_WidthFixed, 80.0f);
        ImGui::TableHeadersRow();
        std::string enter;  // a folder to enter after the loop (the listing must not change inside it)
        for (const BrowserEntry& e : browser.entries()) {
            if (!e.directory && !containsIgnoringCase(e.name, browser.nameFilter)) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const std::string label = e.archive ? "[vp] " + e.name : e.directory ? "[dir] " + e.name : e.name;
            const std::string shown = fitToWidth(label, ImGui::GetContentRegionAvail().x);
            const bool clicked = ImGui::Selectable(
                (shown + "###" + label).c_str(), false,
                ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick);
            if (shown != label && ImGui::IsItemHovered()) fullTextTooltip(label);
            if (clicked) {
                const std::string full = browser.pathOf(e);
                if (e.directory) enter = full;
                else if (ImGui::IsMouseDoubleClicked(0) || !browser.showAll) openPicked(s, full);
            }
            ImGui::TableNextColumn();
            if (!e.directory || e.archive) ImGui::TextDisabled("%s", sizeText(e.size).c_str());
        }
        ImGui::EndTable();
        if (!enter.empty()) browser.setDirectory(enter);
    }
    static const std::string kOpens =
        formatNameList(", ") + " (also inside FreeSpace .vp archives); or drop a file on the window";
    ImGui::TextDisabled("%s", kOpens.c_str());
    if (!s.recentFiles.empty()) {
        ImGui::Separator();
        ImGui::TextUnformatted("Recent");
        ImGui::BeginChild("recent", ImVec2(0, recentHeight - ImGui::GetTextLineHeightWithSpacing()));
        for (const std::string& f : s.recentFiles) {
            ImGui::PushID(f.c_str());
            if (fittedSelectable("recent", f, false)) openPicked(s, f);
            ImGui::PopID();
        }
        ImGui::EndChild();
    }
    ImGui::EndChild();
}

}  // namespace esv
