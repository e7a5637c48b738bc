// Exposure of every shared sample at `render`'s default view: the model's pixels (those the
// model covers in two renders over different background colours) must be neither mostly black nor
// blown out. The budget is what an artist expects of a viewer's first look at a file.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/format_table.h"
#include "loaders/load.h"

namespace {

constexpr int kWidth = 160, kHeight = 120;
constexpr double kDarkLuminance = 25.0, kBlownLuminance = 245.0;
constexpr double kMaxDark = 0.20, kMaxBlown = 0.10;

struct Exposure {
    size_t modelPixels = 0;
    double dark = 0.0, blown = 0.0;  // fractions of the model pixels
    bool withinBudget() const { return dark <= kMaxDark && blown <= kMaxBlown; }
};

// The shared samples of the four model formats, in a stable order.
std::vector<std::filesystem::path> samples() {
    std::vector<std::filesystem::path> files;
    for (const char* folder : {"pod", "awd", "ogex", "pof"})
        for (const auto& entry : std::filesystem::recursive_directory_iterator(esv::test::modelsDir() / folder))
            if (entry.is_regular_file() && esv::hasModelExtension(entry.path().string())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// `view` as `esview render` sets it up for the rest pose (the orbit camera framing the scene, its
// up axis the file's), drawn over the default background and over magenta: a pixel that differs
// from the background in either is the model's (blended surfaces included), and its luminance is
// read over the default background.
Exposure measure(esv::test::RenderHarness& harness, esv::ViewSettings view, bool fromBehind) {
    const esv::Pose pose = harness.poseAt(-1.0f);
    view.orbit.zUp = harness.scene().up == esv::UpAxis::Z;
    if (fromBehind) view.orbit.yaw += 3.14159265f;
    const esv::test::Rendered standard = harness.drawFramed(pose, view);
    const glm::vec4 background = view.clearColor;
    view.clearColor = glm::vec4(1.0f, 0.0f, 1.0f, 1.0f);
    const esv::test::Rendered magenta = harness.drawFramed(pose, view);
    EXPECT_EQ(standard.stats.glErrors, 0u);
    const auto level = [](float c) { return int(std::lround(c * 255.0f)); };
    const int bg[2][3] = {{level(background.r), level(background.g), level(background.b)}, {255, 0, 255}};
    const auto differs = [](const uint8_t* p, const int* c) {
        return std::abs(p[0] - c[0]) > 1 || std::abs(p[1] - c[1]) > 1 || std::abs(p[2] - c[2]) > 1;
    };
    Exposure e;
    size_t dark = 0, blown = 0;
    const std::vector<uint8_t>& a = standard.image.rgba;
    const std::vector<uint8_t>& b = magenta.image.rgba;
    for (size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4) {
        if (!differs(&a[i], bg[0]) && !differs(&b[i], bg[1])) continue;
        ++e.modelPixels;
        const double luminance = 0.2126 * a[i] + 0.7152 * a[i + 1] + 0.0722 * a[i + 2];
        dark += luminance < kDarkLuminance ? 1 : 0;
        blown += luminance > kBlownLuminance ? 1 : 0;
    }
    if (e.modelPixels > 0) {
        e.dark = double(dark) / double(e.modelPixels);
        e.blown = double(blown) / double(e.modelPixels);
    }
    return e;
}

}  // namespace

// Every sample within the budget with the default lighting, at render's view and from behind (the
// studio rig turns with the camera; the file's lights do not). A sample whose own colours are
// dark (the unlit view from that side already has more than kMaxDark of its pixels dark: pure
// blues, black paint) may not reach the budget; the lighting must then darken no more than
// kOwnDarkMargin of its pixels beyond its colours. With the file's lights alone a known-dark
// sample breaks the budget, so the measurement can tell.
TEST(Exposure, EverySampleIsLitAtTheDefaultView) {
    ESVIEW_REQUIRE_MODELS("");
    constexpr double kOwnDarkMargin = 0.15;
    esv::test::RenderHarness harness(false, kWidth, kHeight);
    ASSERT_TRUE(harness.ok());
    size_t measured = 0, fileOnlyOver = 0, ownDark = 0;
    bool knownDarkFails = false;
    esv::ViewSettings standard, fileOnly, unlit;
    fileOnly.lighting = esv::Lighting::File;
    unlit.mode = esv::ViewMode::Unlit;
    std::printf("dark%% and blown%% of the model's pixels; ! over the budget\n");
    std::printf("%-44s %6s | %-13s | %-13s | %-13s | %-13s | %s\n", "sample", "pixels", "default", "behind",
                "lighting=file", "file behind", "unlit dark% (front, behind)");
    for (const std::filesystem::path& path : samples()) {
        esv::LoadResult loaded = esv::loadSceneFile(path.string());
        if (!loaded.scene) continue;  // files that fail to load are other tests' business
        if (!harness.setScene(*loaded.scene)) continue;
        const Exposure e[4] = {measure(harness, standard, false), measure(harness, standard, true),
                               measure(harness, fileOnly, false), measure(harness, fileOnly, true)};
        const Exposure own[2] = {measure(harness, unlit, false), measure(harness, unlit, true)};
        const std::string name = std::filesystem::relative(path, esv::test::modelsDir()).string();
        std::printf("%-44s %6zu", name.c_str(), e[0].modelPixels);
        for (const Exposure& x : e)
            std::printf(" | %5.1f %5.1f %c", 100.0 * x.dark, 100.0 * x.blown, x.withinBudget() ? ' ' : '!');
        std::printf(" | %5.1f %5.1f\n", 100.0 * own[0].dark, 100.0 * own[1].dark);
        if (e[0].modelPixels == 0) continue;  // nothing drawn (a file of cameras, lights or materials only)
        ++measured;
        for (int i = 0; i < 2; ++i) {
            const char* side = i == 0 ? "" : " (from behind)";
            const bool darkColours = own[i].dark > kMaxDark;
            ownDark += darkColours ? 1 : 0;
            EXPECT_LE(e[i].dark, darkColours ? own[i].dark + kOwnDarkMargin : kMaxDark)
                << name << side << ": too many dark model pixels";
            EXPECT_LE(e[i].blown, kMaxBlown) << name << side << ": too many blown-out model pixels";
        }
        const bool fileOver = !e[2].withinBudget() || !e[3].withinBudget();
        fileOnlyOver += fileOver ? 1 : 0;
        if (path.filename() == "Head_PhongSpec.awd") knownDarkFails = fileOver;
    }
    EXPECT_GE(measured, 50u);
    EXPECT_LE(ownDark, 12u) << "the allowance for dark colours is for a few samples";
    EXPECT_TRUE(knownDarkFails) << "Head_PhongSpec.awd lit by its own lights alone should break the budget";
    EXPECT_GE(fileOnlyOver, 5u);
}
