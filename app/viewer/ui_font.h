// The panels' font: a TrueType font from a Debian font package at a readable size, scaled by the
// UI scale setting and the host's content scale; Dear ImGui's built-in 13 px font when no file is
// there.
#pragma once

#include <functional>
#include <string>
#include <vector>

struct ImGuiStyle;

namespace esv {

// Pixel height of the panels' text at scale 1 (ImGui's built-in font is 13).
constexpr float kUiFontPixels = 15.0f;
constexpr float kUiScaleMin = 0.5f, kUiScaleMax = 3.0f;

// Where the TrueType font is looked for, in order (fonts-dejavu-core first).
const std::vector<std::string>& uiFontCandidates();

// The first of `candidates` that `exists` accepts; empty when none does (the built-in font).
std::string chooseUiFont(const std::vector<std::string>& candidates,
                         const std::function<bool(const std::string&)>& exists);

// The scale the panels are drawn at: the UI scale setting (clamped to [kUiScaleMin, kUiScaleMax])
// times the host's content scale (1 where it reports none or nonsense).
float effectiveUiScale(float uiScale, float contentScale);

// What the font atlas holds now.
struct UiFont {
    std::string path;     // the TrueType file, empty for the built-in font
    float pixels = 0.0f;  // glyph height in pixels
    bool touch = false;   // the style has touch-sized targets (applyUiFont's `touch`)
    float scale = 0.0f;   // effective scale it was built for (0: never built)
    std::string note;     // why the built-in font is used, empty otherwise
};

// Rebuilds Dear ImGui's font atlas and style for `scale` (effectiveUiScale) when it differs from
// `font.scale`: the TrueType font at kUiFontPixels x scale (the built-in font, scaled, when no file
// is found or it does not load, with `font.note` saying so), the dark style's sizes scaled. Call
// between frames, with an ImGui context; when `texture` is true the OpenGL3 backend's font texture
// is made again (it exists after the backend's first new frame). True when it rebuilt.
// `touch`: widgets sized for fingers (touchStyle), rebuilt when it changes too.
bool applyUiFont(UiFont& font, float scale, bool texture, bool touch = false);

// Dear ImGui's style made for fingers at `scale`: rows and buttons about 9 mm high on a 160 dpi
// screen (32 px at scale 1, against ImGui's 21), wider scroll bars and slider grabs, more space
// between rows, and extra padding around every target (TouchExtraPadding), so that a finger hits
// what it means to on a phone or a touch panel.
void touchStyle(float scale, ImGuiStyle& style);

// Whether the panels are sized for touch: `mode` (the `set touch-ui` setting) on or off, or in
// auto when the host has a touch screen.
enum class TouchUi : uint8_t { Auto, On, Off };
bool touchUiActive(TouchUi mode, bool hostTouchScreen);
const char* touchUiName(TouchUi mode);

}  // namespace esv
