#include "app/viewer/ui_font.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <imgui.h>
#include <imgui_impl_opengl3.h>

namespace esv {

const std::vector<std::string>& uiFontCandidates() {
    static const std::vector<std::string> paths = {
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",  // fonts-dejavu-core (setup.sh installs it)
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/system/fonts/Roboto-Regular.ttf",  // Android (platforms/android)
    };
    return paths;
}

std::string chooseUiFont(const std::vector<std::string>& candidates,
                         const std::function<bool(const std::string&)>& exists) {
    for (const std::string& path : candidates)
        if (exists(path)) return path;
    return std::string();
}

float effectiveUiScale(float uiScale, float contentScale) {
    const float ui = std::isfinite(uiScale) ? std::clamp(uiScale, kUiScaleMin, kUiScaleMax) : 1.0f;
    const float content =
        std::isfinite(contentScale) && contentScale > 0.0f ? std::min(contentScale, 4.0f) : 1.0f;
    return ui * content;
}

void touchStyle(float scale, ImGuiStyle& style) {
    style.FramePadding = ImVec2(10.0f * scale, 8.0f * scale);
    style.ItemSpacing = ImVec2(10.0f * scale, 8.0f * scale);
    style.ItemInnerSpacing = ImVec2(8.0f * scale, 6.0f * scale);
    style.WindowPadding = ImVec2(10.0f * scale, 10.0f * scale);
    style.TouchExtraPadding = ImVec2(4.0f * scale, 4.0f * scale);
    style.ScrollbarSize = 24.0f * scale;
    style.GrabMinSize = 24.0f * scale;
    style.IndentSpacing = 24.0f * scale;
}

bool touchUiActive(TouchUi mode, bool hostTouchScreen) {
    return mode == TouchUi::On || (mode == TouchUi::Auto && hostTouchScreen);
}

const char* touchUiName(TouchUi mode) {
    switch (mode) {
        case TouchUi::On:
            return "on";
        case TouchUi::Off:
            return "off";
        default:
            return "auto";
    }
}

bool applyUiFont(UiFont& font, float scale, bool texture, bool touch) {
    if (font.scale == scale && font.touch == touch) return false;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    font.path = chooseUiFont(uiFontCandidates(), [](const std::string& path) {
        std::error_code ec;
        return std::filesystem::is_regular_file(path, ec);
    });
    font.note.clear();
    ImFont* loaded = nullptr;
    if (!font.path.empty()) {
        font.pixels = std::round(kUiFontPixels * scale);
        // Latin-1 as Dear ImGui's default range, and U+2026 for the ellipsis that ends labels cut to
        // their column (Dear ImGui's own, on tabs, takes it too when the font has it).
        static const ImWchar kRanges[] = {0x0020, 0x00FF, 0x2026, 0x2026, 0};
        loaded = io.Fonts->AddFontFromFileTTF(font.path.c_str(), font.pixels, nullptr, kRanges);
        if (!loaded) font.note = "'" + font.path + "' does not load; the built-in font is used";
    } else {
        font.note = "no TrueType font found (install fonts-dejavu-core); the built-in font is used";
    }
    if (!loaded) {
        font.path.clear();
        ImFontConfig config;
        config.SizePixels = std::round(13.0f * scale);
        font.pixels = config.SizePixels;
        io.Fonts->AddFontDefault(&config);
    }
    io.Fonts->Build();
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.ScaleAllSizes(scale);
    if (touch) touchStyle(scale, style);
    ImGui::GetStyle() = style;
    if (texture) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    font.scale = scale;
    font.touch = touch;
    return true;
}

}  // namespace esv
