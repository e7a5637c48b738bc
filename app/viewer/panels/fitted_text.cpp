#include "app/viewer/panels/fitted_text.h"

#include <cstdarg>
#include <cstdio>

#include "app/viewer/ui_text.h"

namespace esv {

std::string_view fontEllipsis() {
    const ImFont* font = ImGui::GetFont();
    return font && font->FindGlyphNoFallback(ImWchar(0x2026)) ? kEllipsis : kEllipsisAscii;
}

std::string fitToWidth(std::string_view text, float width) {
    return fitText(
        text, width, [](std::string_view t) { return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x; },
        fontEllipsis());
}

std::string formatText(const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int size = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    std::string text;
    if (size > 0) {
        text.resize(size_t(size) + 1);
        std::vsnprintf(text.data(), text.size(), format, args);
        text.resize(size_t(size));
    }
    va_end(args);
    return text;
}

void fullTextTooltip(std::string_view text) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(40.0f * ImGui::GetFontSize());
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void sameLineIfFits(const char* label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width =
        ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
    if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <=
        ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        ImGui::SameLine();
}

bool fittedText(std::string_view text, const ImVec4* color) {
    const std::string shown = fitToWidth(text, ImGui::GetContentRegionAvail().x);
    const bool cut = shown != text;
    if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
    ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
    if (color) ImGui::PopStyleColor();
    if (cut && ImGui::IsItemHovered()) fullTextTooltip(text);
    return cut;
}

bool fittedTextDisabled(std::string_view text) {
    const ImVec4 disabled = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    return fittedText(text, &disabled);
}

namespace {

// The tree node of either kind of ID, its label cut after the arrow.
template <typename Id>
bool treeNode(Id id, ImGuiTreeNodeFlags flags, std::string_view label, bool tooltip) {
    const float width = ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing();
    const std::string shown = fitToWidth(label, width);
    const bool open = ImGui::TreeNodeEx(id, flags, "%s", shown.c_str());
    if (tooltip && shown != label && ImGui::IsItemHovered()) fullTextTooltip(label);
    return open;
}

}  // namespace

bool fittedTreeNode(const void* id, ImGuiTreeNodeFlags flags, std::string_view label, bool tooltip) {
    return treeNode(id, flags, label, tooltip);
}

bool fittedTreeNode(const char* id, ImGuiTreeNodeFlags flags, std::string_view label, bool tooltip) {
    return treeNode(id, flags, label, tooltip);
}

bool fittedSelectable(const char* id, std::string_view text, bool selected) {
    const std::string shown = fitToWidth(text, ImGui::GetContentRegionAvail().x);
    const bool clicked = ImGui::Selectable((shown + "###" + id).c_str(), selected);
    if (shown != text && ImGui::IsItemHovered()) fullTextTooltip(text);
    return clicked;
}

bool fittedSmallButton(const char* id, std::string_view text) {
    const float padding = 2.0f * ImGui::GetStyle().FramePadding.x;
    const std::string shown = fitToWidth(text, ImGui::GetContentRegionAvail().x - padding);
    const bool clicked = ImGui::SmallButton((shown + "###" + id).c_str());
    if (shown != text && ImGui::IsItemHovered()) fullTextTooltip(text);
    return clicked;
}

}  // namespace esv
