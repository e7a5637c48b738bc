// The panels' pure helpers: texture display names, the frame readout, the timeline's tick
// thinning, labels cut to a width with an ellipsis, and the choice and scale of the panels' font.
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <imgui.h>

#include "app/viewer/panels/fitted_text.h"
#include "app/viewer/ui_font.h"
#include "app/viewer/ui_text.h"

namespace {

TEST(TextureDisplayName, BaseNameOfPathsAndUrls) {
    EXPECT_EQ(esv::textureDisplayName("file:///C:/Users/art/maps/skin%20diffuse.png"), "skin diffuse.png");
    EXPECT_EQ(esv::textureDisplayName("file:///home/art/maps/skin.png"), "skin.png");
    EXPECT_EQ(esv::textureDisplayName("file://server/share/rock.tga"), "rock.tga");
    EXPECT_EQ(esv::textureDisplayName("C:\\Models\\Textures\\metal.pvr"), "metal.pvr");
    EXPECT_EQ(esv::textureDisplayName("textures/wood.jpg"), "wood.jpg");
    EXPECT_EQ(esv::textureDisplayName("..\\tex/mixed\\a.dds"), "a.dds");
    EXPECT_EQ(esv::textureDisplayName("plain.png"), "plain.png");
    EXPECT_EQ(esv::textureDisplayName("Skin_Material"), "Skin_Material");
    EXPECT_EQ(esv::textureDisplayName(""), "");
    EXPECT_EQ(esv::textureDisplayName("maps/"), "maps");
    EXPECT_EQ(esv::textureDisplayName("/"), "");
    // A stray percent sign is kept as it is; escapes decode.
    EXPECT_EQ(esv::textureDisplayName("100%.png"), "100%.png");
    EXPECT_EQ(esv::textureDisplayName("a%2"), "a%2");
    EXPECT_EQ(esv::textureDisplayName("file:///x/%C3%A9t%C3%A9.png"), "\xC3\xA9t\xC3\xA9.png");
}

TEST(FrameText, WholeFramesReadAsIntegers) {
    EXPECT_EQ(esv::frameText(12.000001f, 40.0f), "frame 12 / 40");
    EXPECT_EQ(esv::frameText(11.9996f, 40.0f), "frame 12 / 40");
    EXPECT_EQ(esv::frameText(0.0f, 40.0f), "frame 0 / 40");
    EXPECT_EQ(esv::frameText(-0.0002f, 40.0f), "frame 0 / 40");
    // Between frames: the whole frame reached, never a fraction (the time says the rest).
    EXPECT_EQ(esv::frameText(12.4f, 40.0f), "frame 12 / 40");
    EXPECT_EQ(esv::frameText(12.9f, 39.9999f), "frame 12 / 40");
    EXPECT_EQ(esv::frameText(3.0f, 0.0f), "frame 3");
}

TEST(TimelineTicks, ThinnedToOnePerSpacing) {
    // A baked clip: a key every frame, 100 frames at 30 fps over 200 pixels (2 px apart).
    std::vector<float> baked;
    for (int f = 0; f <= 100; ++f) baked.push_back(float(f) / 30.0f);
    const float duration = 100.0f / 30.0f;
    EXPECT_FALSE(esv::ticksReadable(baked, duration, 200.0f, 4.0f));
    const std::vector<float> thin = esv::thinTicks(baked, duration, 200.0f, 4.0f);
    EXPECT_EQ(thin.front(), 0.0f);
    EXPECT_LE(thin.size(), size_t(200 / 4 + 1));  // every second key, 4 px apart
    EXPECT_GE(thin.size(), size_t(200 / 4 - 1));
    for (size_t i = 1; i < thin.size(); ++i)
        EXPECT_GE((thin[i] - thin[i - 1]) * 200.0f / duration, 4.0f - 1e-3f);
    // Sparse keys are all kept.
    const std::vector<float> sparse = {0.0f, 1.0f, 2.5f, duration};
    EXPECT_TRUE(esv::ticksReadable(sparse, duration, 200.0f, 4.0f));
    EXPECT_EQ(esv::thinTicks(sparse, duration, 200.0f, 4.0f), sparse);
    // Wide enough, the baked clip's keys are all drawn.
    EXPECT_EQ(esv::thinTicks(baked, duration, 500.0f, 4.0f).size(), baked.size());
    // Nothing to draw on an empty or zero-length timeline.
    EXPECT_TRUE(esv::thinTicks({}, duration, 200.0f, 4.0f).empty());
    EXPECT_TRUE(esv::thinTicks(baked, 0.0f, 200.0f, 4.0f).empty());
    EXPECT_TRUE(esv::thinTicks(baked, duration, 0.0f, 4.0f).empty());
}

// A width of one unit per code point (UTF-8 continuation bytes add nothing).
float codePoints(std::string_view text) {
    float width = 0.0f;
    for (char c : text) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1.0f : 0.0f;
    return width;
}

TEST(FitText, KeepsWhatFitsAndCutsTheRestWithAnEllipsis) {
    EXPECT_EQ(esv::fitText("Skeleton", 8.0f, codePoints), "Skeleton");
    EXPECT_EQ(esv::fitText("Skeleton", 100.0f, codePoints), "Skeleton");
    EXPECT_EQ(esv::fitText("", 0.0f, codePoints), "");
    // Seven code points and the one of U+2026 make the eight that fit.
    EXPECT_EQ(esv::fitText("Skeleton_Root", 8.0f, codePoints), "Skeleto\xE2\x80\xA6");
    EXPECT_EQ(esv::fitText("Skeleton_Root", 8.0f, codePoints, esv::kEllipsisAscii), "Skele...");
    // A width between whole characters rounds down.
    EXPECT_EQ(esv::fitText("Skeleton_Root", 8.9f, codePoints), "Skeleto\xE2\x80\xA6");
    // Too narrow for any of the text: the ellipsis alone.
    EXPECT_EQ(esv::fitText("Skeleton", 0.5f, codePoints), "\xE2\x80\xA6");
    EXPECT_EQ(esv::fitText("Skeleton", 1.0f, codePoints), "\xE2\x80\xA6");
    EXPECT_EQ(esv::fitText("Skeleton", 2.0f, codePoints), "S\xE2\x80\xA6");
}

TEST(FitText, CutsBetweenCodePointsAndDropsTheSpacesBeforeTheEllipsis) {
    // "\xC3\xA9" is e acute: never split into a lone lead byte.
    EXPECT_EQ(esv::fitText("\xC3\xA9t\xC3\xA9 d\xC3\xA9j\xC3\xA0", 4.0f, codePoints),
              "\xC3\xA9t\xC3\xA9\xE2\x80\xA6");
    EXPECT_EQ(esv::fitText("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 3.0f, codePoints),
              "\xC3\xA9\xC3\xA9\xE2\x80\xA6");
    // "mesh 3 ..." at 6: "mesh 3" and the ellipsis take 7, so "mesh" (its space dropped) ends it.
    EXPECT_EQ(esv::fitText("mesh 3 \"Body\"", 6.0f, codePoints), "mesh\xE2\x80\xA6");
    EXPECT_EQ(esv::fitText("   x", 2.0f, codePoints), "\xE2\x80\xA6") << "only spaces before the cut";
}

// With glyphs of different widths the cut text is the longest prefix that fits: never wider than
// asked (unless it is the ellipsis alone), and one more code point would not fit. Bisection keeps the
// calls to the measure near log2 of the length.
TEST(FitText, LongestPrefixThatFitsInFewMeasures) {
    size_t calls = 0;
    const auto measure = [&calls](std::string_view text) {
        ++calls;
        float width = 0.0f;
        for (char c : text) width += c == 'W' ? 3.0f : c == 'i' ? 0.5f : c == '.' ? 0.75f : 1.0f;
        return width;
    };
    const std::string text = "WiWiiWWx_Wide joint name i of a Biped skeleton";
    for (float width = 0.0f; width <= 60.0f; width += 0.25f) {
        const std::string cut = esv::fitText(text, width, measure, esv::kEllipsisAscii);
        if (cut == text) {
            EXPECT_LE(measure(text), width);
            continue;
        }
        ASSERT_GE(cut.size(), 3u);
        ASSERT_EQ(cut.substr(cut.size() - 3), "...");
        const std::string prefix = cut.substr(0, cut.size() - 3);
        EXPECT_EQ(text.compare(0, prefix.size(), prefix), 0) << width;
        if (prefix.empty()) continue;
        EXPECT_LE(measure(cut), width) << cut;
        std::string longer = text.substr(0, prefix.size() + 1);
        while (!longer.empty() && longer.back() == ' ') longer = text.substr(0, longer.size() + 1);
        EXPECT_GT(measure(longer + "..."), width) << "\"" << cut << "\" at " << width;
    }
    calls = 0;
    const std::string long_(2000, 'x');
    EXPECT_EQ(esv::fitText(long_, 100.0f, measure, "...").size(), 100u);
    EXPECT_LE(calls, 14u);
}

// In a Dear ImGui frame with the panels' font: a cut label is no wider than asked and ends in the
// font's ellipsis, U+2026 when a TrueType font is found (the atlas holds it), three full stops with
// the built-in font.
TEST(FitText, PanelsFontMeasuresAndEndsWithItsEllipsis) {
    ImGui::CreateContext();
    esv::UiFont font;
    ASSERT_TRUE(esv::applyUiFont(font, 1.0f, false, false));
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(640, 480);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
    if (!font.path.empty()) {
        EXPECT_EQ(esv::fontEllipsis(), esv::kEllipsis) << font.path;
        EXPECT_EQ(ImGui::GetFont()->EllipsisChar, ImWchar(0x2026)) << "tab titles take it too";
    } else {
        EXPECT_EQ(esv::fontEllipsis(), esv::kEllipsisAscii);
    }
    const std::string name = "Bip01 L Forearm Twist Helper (a very long joint name)";
    const std::string cut = esv::fitToWidth(name, 120.0f);
    EXPECT_NE(cut, name);
    EXPECT_LE(ImGui::CalcTextSize(cut.c_str()).x, 120.0f);
    EXPECT_EQ(cut.substr(cut.size() - esv::fontEllipsis().size()), esv::fontEllipsis());
    EXPECT_EQ(esv::fitToWidth("Bip01", 120.0f), "Bip01");
    EXPECT_EQ(esv::formatText("mesh %d \"%s\"", 3, "Body"), "mesh 3 \"Body\"");
    ImGui::EndFrame();
    ImGui::DestroyContext();
}

TEST(UiFont, FirstFontThatExistsElseBuiltIn) {
    const std::vector<std::string> candidates = {"/a/DejaVuSans.ttf", "/b/Noto.ttf"};
    EXPECT_EQ(esv::chooseUiFont(candidates, [](const std::string&) { return true; }), "/a/DejaVuSans.ttf");
    EXPECT_EQ(esv::chooseUiFont(candidates, [](const std::string& p) { return p == "/b/Noto.ttf"; }),
              "/b/Noto.ttf");
    EXPECT_EQ(esv::chooseUiFont(candidates, [](const std::string&) { return false; }), "");
    EXPECT_EQ(esv::uiFontCandidates().front(), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
}

TEST(UiFont, ScaleIsTheSettingTimesTheContentScale) {
    EXPECT_FLOAT_EQ(esv::effectiveUiScale(1.0f, 1.0f), 1.0f);
    EXPECT_FLOAT_EQ(esv::effectiveUiScale(1.5f, 2.0f), 3.0f);
    EXPECT_FLOAT_EQ(esv::effectiveUiScale(10.0f, 1.0f), esv::kUiScaleMax);
    EXPECT_FLOAT_EQ(esv::effectiveUiScale(0.1f, 1.0f), esv::kUiScaleMin);
    EXPECT_FLOAT_EQ(esv::effectiveUiScale(1.0f, 0.0f), 1.0f);  // a host that reports none
    EXPECT_FLOAT_EQ(esv::effectiveUiScale(1.0f, -3.0f), 1.0f);
}

// Touch-sized panels: rows a finger can hit (about 32 px at scale 1 on a 160 dpi screen), twice
// that at scale 2, rebuilt when touch is switched; on only when set on, or in auto on a touch screen.
TEST(UiFont, TouchStyleSizesTargetsForFingers) {
    EXPECT_TRUE(esv::touchUiActive(esv::TouchUi::On, false));
    EXPECT_TRUE(esv::touchUiActive(esv::TouchUi::Auto, true));
    EXPECT_FALSE(esv::touchUiActive(esv::TouchUi::Auto, false));
    EXPECT_FALSE(esv::touchUiActive(esv::TouchUi::Off, true));
    ImGui::CreateContext();
    esv::UiFont font;
    ASSERT_TRUE(esv::applyUiFont(font, 1.0f, false, false));
    const ImGuiStyle mouse = ImGui::GetStyle();
    EXPECT_FALSE(font.touch);
    EXPECT_EQ(mouse.TouchExtraPadding.x, 0.0f);
    EXPECT_FALSE(esv::applyUiFont(font, 1.0f, false, false));  // nothing changed
    ASSERT_TRUE(esv::applyUiFont(font, 1.0f, false, true));
    const ImGuiStyle touch = ImGui::GetStyle();
    EXPECT_TRUE(font.touch);
    const float row = font.pixels + 2.0f * touch.FramePadding.y;
    EXPECT_GE(row, 30.0f);
    EXPECT_GE(row, 1.4f * (font.pixels + 2.0f * mouse.FramePadding.y));
    EXPECT_GT(touch.TouchExtraPadding.x, 0.0f);
    EXPECT_GE(touch.ScrollbarSize, 24.0f);
    EXPECT_GE(touch.GrabMinSize, 24.0f);
    EXPECT_GT(touch.ItemSpacing.y, mouse.ItemSpacing.y);
    ASSERT_TRUE(esv::applyUiFont(font, 2.0f, false, true));
    EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.y, 2.0f * touch.FramePadding.y);
    EXPECT_FLOAT_EQ(ImGui::GetStyle().ScrollbarSize, 2.0f * touch.ScrollbarSize);
    ASSERT_TRUE(esv::applyUiFont(font, 2.0f, false, false));
    EXPECT_EQ(ImGui::GetStyle().TouchExtraPadding.x, 0.0f);
    ImGui::DestroyContext();
}

}  // namespace
