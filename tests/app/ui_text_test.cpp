// The panels' pure helpers: texture display names, the frame readout, the timeline's tick
// thinning, and the choice and scale of the panels' font.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <imgui.h>

#include "app/ui_font.h"
#include "app/ui_text.h"

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
