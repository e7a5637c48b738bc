// A cross build's pictures against the build machine's: `esview render FILE -o OUT.png` of every
// shared sample by this build (an ARM binary under qemu-user) and by a native build of the same
// source (ESVIEW_REFERENCE_BINARY), compared with the golden rule. Built only in cross builds that
// name a reference binary (./setup.sh test-arm64 does). Both pictures and, on a mismatch, the
// difference image stay in the test output folder.
//
// The native picture is drawn with GALLIUM_NOSSE=1. llvmpipe has x86-only code paths (SSE texture
// filtering and reciprocal approximations) that ARM builds of Mesa do not have: drawn with them,
// every textured pixel of Head_PhongSpec.awd is a level or two off the ARM picture and its
// highlights up to 22 levels, in Mesa, not here (its normals view matches to 9 pixels). Without
// them the two machines' pictures agree to a few dozen pixels, so what is compared is esview's
// own work on ARM: the file read with unsigned char and other alignment, the scene prepared, the
// vertex data uploaded and drawn.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"
#include "loaders/format_table.h"

namespace {

namespace fs = std::filesystem;

// The shared samples, relative to the models folder (the test names come from them).
std::vector<std::string> samples() {
    std::vector<std::string> files;
    for (const fs::path& file : esv::test::sharedModelFiles())
        files.push_back(fs::relative(file, esv::test::modelsDir()).string());
    return files;
}

// The list comes from ../shared: without it there is nothing to compare, which CI does not allow.
TEST(CrossRenderSamples, AreThere) {
    ESVIEW_REQUIRE_MODELS("");
    EXPECT_GT(samples().size(), 40u);
}

class CrossRender : public testing::TestWithParam<std::string> {};

// A small picture keeps the emulated renders short; the view, lighting and frame are render's
// defaults, so this is the picture a user of the ARM build gets.
TEST_P(CrossRender, MatchesTheNativeBuild) {
    const fs::path file = esv::test::modelsDir() / GetParam();
    std::string stem = GetParam();
    std::replace(stem.begin(), stem.end(), '/', '_');
    const fs::path dir = esv::test::outputDir() / "cross_render";
    fs::create_directories(dir);
    const fs::path native = dir / (stem + ".native.png"), cross = dir / (stem + ".cross.png");
    fs::remove(native);
    fs::remove(cross);
    const std::string args = "render '" + file.string() + "' --size 400x300 -o ";
    const esv::test::RunResult a = esv::test::runEsview(
        ESVIEW_REFERENCE_BINARY, args + "'" + native.string() + "'", "cross_native", "GALLIUM_NOSSE=1");
    const esv::test::RunResult b =
        esv::test::runEsview(ESVIEW_BINARY, args + "'" + cross.string() + "'", "cross_emulated");
    ASSERT_EQ(b.exitCode, a.exitCode) << "native: " << a.err << "\ncross: " << b.err;
    if (a.exitCode != 0) {
        EXPECT_EQ(b.err, a.err) << "both refuse the file, for the same reasons";
        return;
    }
    esv::test::Image expected, actual;
    ASSERT_TRUE(esv::test::loadPng(native.string(), expected)) << native;
    ASSERT_TRUE(esv::test::loadPng(cross.string(), actual)) << cross << ": " << b.err;
    const std::string mismatch = esv::test::matchImage("cross_render_" + stem, actual, expected);
    EXPECT_TRUE(mismatch.empty()) << mismatch;
}

std::string testName(const testing::TestParamInfo<std::string>& info) {
    std::string name;
    for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(SharedSamples, CrossRender, testing::ValuesIn(samples()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CrossRender);

}  // namespace
