// Labels cut to the width they are given in a panel: the text ends in an ellipsis where it does not
// fit, and shows in full in a tooltip while the pointer is over it (fitText of app/viewer/ui_text.h, with
// the current Dear ImGui font measuring). Rows of toggles wrap where the column is narrow.
#pragma once

#include <string>
#include <string_view>

#include <imgui.h>

namespace esv {

// The current font's ellipsis: U+2026 when the font has that glyph (DejaVu Sans, built with it by
// app/viewer/ui_font.cpp), else three full stops (Dear ImGui's built-in font).
std::string_view fontEllipsis();

// `text` cut to `width` pixels of the current font, ending in fontEllipsis() when cut.
std::string fitToWidth(std::string_view text, float width);

// printf into a string (for the fitted calls below, which take whole texts).
std::string formatText(const char* format, ...) IM_FMTARGS(1);

// Draws `text` as ImGui::TextUnformatted does (in `color`, or the text colour when it is null), cut
// to the width left on the current line; when cut, hovering it shows the whole text. Returns true
// when the text was cut.
bool fittedText(std::string_view text, const ImVec4* color = nullptr);
bool fittedTextDisabled(std::string_view text);

// ImGui::TreeNodeEx with `label` cut to the width left after the arrow; when cut, hovering the row
// shows the whole label (unless `tooltip` is false: the caller shows its own, with the label in it).
bool fittedTreeNode(const void* id, ImGuiTreeNodeFlags flags, std::string_view label, bool tooltip = true);
bool fittedTreeNode(const char* id, ImGuiTreeNodeFlags flags, std::string_view label, bool tooltip = true);

// ImGui::Selectable (or SmallButton) with `text` cut to the width left on the line; when cut,
// hovering it shows the whole text. Its ID is `id` in the current ID scope, whatever the cut.
bool fittedSelectable(const char* id, std::string_view text, bool selected);
bool fittedSmallButton(const char* id, std::string_view text);

// Continues the line with a checkbox or radio button labelled `label` where it fits in the window,
// else leaves it to start the next line (the bottom panels are narrow tabs of the right region in
// windows under 1600 pixels wide).
void sameLineIfFits(const char* label);

// The tooltip of a cut label: the whole `text`, wrapped at 40 times the font size.
void fullTextTooltip(std::string_view text);

}  // namespace esv
