// The golden-image rule itself (common/image_compare.h): real renders of the demo scene and of a
// sample POD meet it against their goldens, and renders that are wrong in ways a viewer cares about
// (the model darker, in greyscale, shifted by a pixel, at another frame, without its texture) break it.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "common/image_compare.h"
#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/load.h"
#include "prepare/prepare.h"
#include "scene/demo_scene.h"
#include "scene/sampler.h"

namespace {

using esv::test::crop;
using esv::test::Image;

// The rule's verdict on `actual` against tests/golden/<golden>.png: empty when it passes, else the
// broken rules with their values (printed, so the margins show in the test log).
std::string verdict(const std::string& what, const Image& actual, const Image& expected,
                    const std::string& golden, const esv::test::GoldenRule& rule = {}) {
    const esv::test::CompareResult r = esv::test::compareImages(actual, expected, rule.tolerance);
    const std::string broken = esv::test::brokenRules(r, rule);
    std::cout << what << " vs " << golden << ": model fraction " << r.modelFraction * 100.0
              << "%, picture fraction " << r.differingFraction * 100.0 << "%, mean off " << r.meanDifference
              << " -> " << (broken.empty() ? "pass" : broken) << "\n";
    return broken;
}

std::string verdict(const std::string& what, const Image& actual, const std::string& golden) {
    Image expected;
    EXPECT_TRUE(esv::test::loadPng((esv::test::sourceDir() / "tests" / "golden" / (golden + ".png")).string(),
                                   expected))
        << golden;
    return verdict(what, actual, expected, golden);
}

// `image` with every model pixel (against the corner background) replaced by `change(rgb)`.
Image changeModel(const Image& image, const std::function<void(uint8_t*)>& change) {
    Image out = image;
    const esv::test::Rgb background = esv::test::cornerBackground(image);
    for (size_t i = 0; i < out.rgba.size(); i += 4)
        if (esv::test::isModelPixel(image, i, background)) change(&out.rgba[i]);
    return out;
}

Image darkened(const Image& image, float fraction) {
    return changeModel(image, [&](uint8_t* p) {
        for (int c = 0; c < 3; ++c) p[c] = static_cast<uint8_t>(std::lround(p[c] * (1.0f - fraction)));
    });
}

Image greyscale(const Image& image) {
    return changeModel(image, [](uint8_t* p) {
        const uint8_t grey = static_cast<uint8_t>(std::lround(0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2]));
        p[0] = p[1] = p[2] = grey;
    });
}

// `image` moved `dx` pixels to the right, the uncovered column filled with the background.
Image shiftedRight(const Image& image, int dx) {
    Image out = image;
    const esv::test::Rgb background = esv::test::cornerBackground(image);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            uint8_t* p = &out.rgba[(size_t(y) * image.width + x) * 4];
            if (x < dx) {
                p[0] = background[0], p[1] = background[1], p[2] = background[2];
            } else {
                const uint8_t* from = &image.rgba[(size_t(y) * image.width + x - dx) * 4];
                for (int c = 0; c < 4; ++c) p[c] = from[c];
            }
        }
    return out;
}

// Every golden case gets its wrong variants: each must break the rule, the real render must not.
void expectRuleSeparates(const std::string& what, const Image& real, const std::string& golden) {
    EXPECT_EQ(verdict(what, real, golden), "") << what << ": the real render must pass";
    for (float fraction : {0.1f, 0.2f, 0.3f}) {
        const std::string name = what + " darkened " + std::to_string(int(fraction * 100.0f)) + "%";
        EXPECT_NE(verdict(name, darkened(real, fraction), golden), "") << name;
    }
    EXPECT_NE(verdict(what + " greyscale", greyscale(real), golden), "") << what << " greyscale";
}

class GoldenRule : public ::testing::Test {
protected:
    void SetUp() override {
        if (esv::test::updatingGoldens()) GTEST_SKIP() << "the golden images are being rewritten";
    }
};

TEST_F(GoldenRule, DemoSceneRendersPassAndAlteredOnesFail) {
    const esv::Scene scene = esv::makeDemoScene();
    for (bool gles2 : {false, true}) {
        const std::string mode = gles2 ? "ES2 " : "ES3 ";
        const Image real = esv::test::renderHeadless(scene, 0.5f, {}, gles2).image;
        expectRuleSeparates(mode + "demo t0.5", real, "demo_es3_t0.5");
        // A wrong animation frame: 0.05 s early.
        EXPECT_NE(verdict(mode + "demo t0.45", esv::test::renderHeadless(scene, 0.45f, {}, gles2).image,
                          "demo_es3_t0.5"),
                  "");
        // Thin geometry one pixel off: the wireframe and the skeleton overlay (lines: softpipe's
        // pictures of them have goldens of their own, lineGolden).
        esv::ViewSettings wire;
        wire.mode = esv::ViewMode::Wireframe;
        const Image wireframe = esv::test::renderHeadless(scene, 0.5f, wire, gles2).image;
        const std::string wireGolden = esv::test::lineGolden("demo_wireframe");
        EXPECT_EQ(verdict(mode + "wireframe", wireframe, wireGolden), "");
        EXPECT_NE(verdict(mode + "wireframe shifted 1px", shiftedRight(wireframe, 1), wireGolden), "");
        esv::ViewSettings bones;
        bones.showSkeleton = true;
        bones.showNormalLines = true;
        const Image skeleton = esv::test::renderHeadless(scene, 0.5f, bones, gles2).image;
        const std::string skeletonGolden = esv::test::lineGolden("demo_skeleton");
        EXPECT_EQ(verdict(mode + "skeleton", skeleton, skeletonGolden), "");
        EXPECT_NE(verdict(mode + "skeleton shifted 1px", shiftedRight(skeleton, 1), skeletonGolden), "");
    }
}

// matchGolden's failure: one line naming each broken rule with its value, and the actual and diff
// images in the test output folder.
TEST_F(GoldenRule, MismatchNamesTheRuleAndWritesTheImages) {
    const esv::Scene scene = esv::makeDemoScene();
    const Image dark = darkened(esv::test::renderHeadless(scene, 0.5f, {}, false).image, 0.2f);
    // Under a name of its own, so the files of a real demo_es3_t0.5 mismatch are never overwritten.
    Image expected;
    ASSERT_TRUE(esv::test::loadPng(
        (esv::test::sourceDir() / "tests" / "golden" / "demo_es3_t0.5.png").string(), expected));
    const std::string message = esv::test::matchImage("golden_rule_darkened", dark, expected);
    EXPECT_NE(message.find("model pixels beyond 10 levels"), std::string::npos) << message;
    EXPECT_NE(message.find("model mean colour off by"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_TRUE(std::filesystem::exists(esv::test::outputDir() / "golden_rule_darkened.actual.png"));
    EXPECT_TRUE(std::filesystem::exists(esv::test::outputDir() / "golden_rule_darkened.diff.png"));
}

// Viewer screenshots (tests/app/viewer_window_test.cpp): the golden itself stands for the real
// screenshot, which matches it exactly here. The panels dilute the whole window, so the viewport
// between them is compared on its own.
TEST_F(GoldenRule, ScreenshotViewportShowsAShadingChange) {
    Image golden;
    ASSERT_TRUE(esv::test::loadPng(
        (esv::test::sourceDir() / "tests" / "golden" / "viewer_man_shaded.png").string(), golden));
    const esv::test::GoldenRule rule{10, 0.02, 0.004, 3.0};  // the viewer tests' kScreenshotRule
    const Image viewport = crop(golden, 350, 0, 930, 630);
    auto inWindow = [&](const Image& changed) {
        Image out = golden;
        for (int y = 0; y < viewport.height; ++y)
            std::copy_n(&changed.rgba[size_t(y) * viewport.width * 4], viewport.width * 4,
                        &out.rgba[(size_t(y) * golden.width + 350) * 4]);
        return out;
    };
    EXPECT_EQ(verdict("viewport", viewport, viewport, "viewer_man_shaded viewport", rule), "");
    for (float fraction : {0.1f, 0.2f, 0.3f}) {
        const std::string name = "viewport darkened " + std::to_string(int(fraction * 100.0f)) + "%";
        EXPECT_NE(verdict(name, darkened(viewport, fraction), viewport, "viewer_man_shaded viewport", rule),
                  "");
        verdict("window, " + name, inWindow(darkened(viewport, fraction)), golden, "viewer_man_shaded", rule);
    }
    EXPECT_NE(
        verdict("viewport greyscale", greyscale(viewport), viewport, "viewer_man_shaded viewport", rule), "");
    verdict("window, viewport greyscale", inWindow(greyscale(viewport)), golden, "viewer_man_shaded", rule);
}

TEST_F(GoldenRule, PodManRendersPassAndAlteredOnesFail) {
    ESVIEW_REQUIRE_MODELS("pod/cocos3d/cocos3d_man.pod");
    esv::LoadResult loaded =
        esv::loadSceneFile((esv::test::modelsDir() / "pod" / "cocos3d" / "cocos3d_man.pod").string());
    ASSERT_NE(loaded.scene, nullptr);
    const esv::Scene& scene = *loaded.scene;
    ASSERT_FALSE(scene.textures.empty());
    // The man's textures missing (a name no search finds): each becomes the checker placeholder.
    esv::Scene untextured = scene;
    for (esv::Texture& texture : untextured.textures) {
        texture.path = "no_such_texture_" + texture.name + ".png";
        texture.embedded = {};
    }
    {
        const std::unique_ptr<esv::Scene> prepared = esv::prepareForTarget(untextured, esv::TargetCaps{});
        size_t placeholders = 0;
        for (const esv::Texture& texture : prepared->textures) placeholders += texture.placeholder;
        EXPECT_EQ(placeholders, prepared->textures.size());
    }
    for (bool gles2 : {false, true}) {
        const std::string mode = gles2 ? "ES2 " : "ES3 ";
        const Image f12 =
            esv::test::renderHeadless(scene, esv::frameToSeconds(scene, 12.0f), {}, gles2).image;
        expectRuleSeparates(mode + "man f12", f12, "pod_man_f12");
        EXPECT_NE(
            verdict(mode + "man f11",
                    esv::test::renderHeadless(scene, esv::frameToSeconds(scene, 11.0f), {}, gles2).image,
                    "pod_man_f12"),
            "");
        EXPECT_NE(
            verdict(mode + "man f0 missing textures",
                    esv::test::renderHeadless(untextured, esv::frameToSeconds(scene, 0.0f), {}, gles2).image,
                    "pod_man_f0"),
            "");
    }
}

}  // namespace
