// A KTX texture through the whole program: the shared sample nsdk_gnome6.pod beside the KTX 1.1
// rewrap of its gnome_texture.pvr (written by tests/textures/ktx/make_ktx_fixtures.py) instead of
// the PVR. `info` finds it without a warning (the model names gnome_texture.png), `render` draws the
// same picture as with the PVR (PVRTC stored bottom-up: decoded in software both ways), and `cost`
// gives the same texture figures.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "common/run_esview.h"
#include "common/test_paths.h"
#include "loaders/textures/image_reader.h"
#include "scene/bytes.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

test::RunResult run(const std::string& args) {
    return test::runEsview(ESVIEW_BINARY, args, "ktx_cli");
}

std::vector<uint8_t> pixels(const fs::path& png) {
    const std::string text = test::readText(png);
    Image image;
    std::string error;
    EXPECT_TRUE(readImage(makeOwnedBytes(std::vector<uint8_t>(text.begin(), text.end())), image, error))
        << error;
    if (image.surfaces.empty()) return {};
    return std::vector<uint8_t>(image.surface(0).begin(), image.surface(0).end());
}

TEST(KtxCli, a_model_draws_and_costs_the_same_with_its_texture_as_ktx) {
    ESVIEW_REQUIRE_MODELS("pod/nsdk");
    const fs::path fixture = test::outputDir() / "ktx" / "gnome_texture_from_pvr.ktx";
    ASSERT_TRUE(fs::exists(fixture)) << "the KTX fixtures were not generated (target ktx_fixtures)";
    const fs::path dir = test::outputDir() / "ktx_cli";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(test::modelsDir() / "pod/nsdk/nsdk_gnome6.pod", dir / "nsdk_gnome6.pod");
    fs::copy_file(fixture, dir / "gnome_texture.ktx");
    const std::string ktxModel = "'" + (dir / "nsdk_gnome6.pod").string() + "'";
    const std::string pvrModel = "'" + (test::modelsDir() / "pod/nsdk/nsdk_gnome6.pod").string() + "'";

    const test::RunResult info = run("info " + ktxModel + " --json");
    ASSERT_EQ(info.exitCode, 0) << info.err;
    EXPECT_TRUE(nlohmann::json::parse(info.out)["warnings"].empty()) << info.out;

    const test::RunResult a =
        run("render " + ktxModel + " -o '" + (dir / "ktx.png").string() + "' --size 160x160");
    const test::RunResult b =
        run("render " + pvrModel + " -o '" + (dir / "pvr.png").string() + "' --size 160x160");
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    const std::vector<uint8_t> ktxPixels = pixels(dir / "ktx.png"), pvrPixels = pixels(dir / "pvr.png");
    ASSERT_EQ(ktxPixels.size(), size_t(160 * 160 * 4));
    EXPECT_TRUE(ktxPixels == pvrPixels) << "the KTX texture draws differently from the PVR";

    const test::RunResult ktxCost = run("cost " + ktxModel + " --device ge8320 --json");
    const test::RunResult pvrCost = run("cost " + pvrModel + " --device ge8320 --json");
    ASSERT_EQ(ktxCost.exitCode, 0) << ktxCost.err;
    ASSERT_EQ(pvrCost.exitCode, 0) << pvrCost.err;
    const nlohmann::json k = nlohmann::json::parse(ktxCost.out)["textures"][0];
    const nlohmann::json p = nlohmann::json::parse(pvrCost.out)["textures"][0];
    for (const char* key :
         {"format", "width", "height", "mip_levels", "stored_bytes", "gpu_bytes", "usable_as_is"})
        EXPECT_EQ(k[key], p[key]) << key;
    EXPECT_EQ(k["gpu_bytes"], 699136);  // PVRTC1 4bpp 1024x1024, 11 levels, as stored
    fs::remove_all(dir);
}

}  // namespace
}  // namespace esv
