// `esview compare A B`: every shared POD sample is alike its own conversion, different models and a
// copy with one texture darkened by 10% are different; exit codes, the JSON figures and the
// difference image.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
using esv::test::RunResult;

// Small pictures keep the sweep quick; the rule is measured over the model's pixels.
const std::string kSize = " --size 256x256";

RunResult esview(const std::string& args) {
    return esv::test::runEsview(ESVIEW_BINARY, args, "compare");
}

std::string quoted(const fs::path& path) {
    return "'" + path.string() + "'";
}

// An empty folder of this test's own under the test output folder.
fs::path freshDir(const std::string& name) {
    const fs::path dir = esv::test::outputDir() / "compare" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

size_t lineCount(const std::string& text) {
    return size_t(std::count(text.begin(), text.end(), '\n'));
}

bool isPod(const fs::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".pod";
}

const fs::path kMallet = fs::path("pod") / "cocos3d" / "cocos3d_mallet.pod";
const fs::path kSphere = fs::path("pod") / "nsdk" / "nsdk_sphere.pod";
const fs::path kMan = fs::path("pod") / "cocos3d" / "cocos3d_man.pod";

// The converted file names the source's textures, which stay beside the source: --texture-path.
TEST(CompareCli, EveryPodSampleIsAlikeItsConversion) {
    ESVIEW_REQUIRE_MODELS("pod");
    const fs::path dir = freshDir("converted");
    size_t compared = 0;
    for (const fs::path& source : esv::test::sharedModelFiles()) {
        if (!isPod(source)) continue;
        SCOPED_TRACE(source.string());
        const fs::path converted = dir / source.filename();
        const RunResult convert = esview("convert " + quoted(source) + " " + quoted(converted));
        ASSERT_EQ(convert.exitCode, 0) << convert.err;
        const RunResult r = esview("compare " + quoted(source) + " " + quoted(converted) + kSize +
                                   " --texture-path " + quoted(source.parent_path()));
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_EQ(lineCount(r.out), 1u) << r.out;
        EXPECT_NE(r.out.find(": alike: "), std::string::npos) << r.out;
        ++compared;
    }
    EXPECT_GE(compared, 17u);
}

// A Z-up OpenGEX scene and its POD conversion, turned to Y up: seen through the same display axes
// they are alike (the converter turns (x, y, z) to (x, z, -y)).
TEST(CompareCli, ZUpSourceIsAlikeItsTurnedConversion) {
    ESVIEW_REQUIRE_MODELS("ogex");
    const fs::path source = esv::test::modelsDir() / "ogex" / "lengyel_Example.ogex";
    const fs::path converted = freshDir("zup") / "lengyel_Example.pod";
    const RunResult convert = esview("convert " + quoted(source) + " " + quoted(converted) + " --lossy");
    ASSERT_EQ(convert.exitCode, 0) << convert.err;
    ASSERT_NE(convert.out.find("Z-up scene turned"), std::string::npos) << convert.out;
    const RunResult r = esview("compare " + quoted(source) + " " + quoted(converted) + kSize +
                               " --texture-path " + quoted(source.parent_path()) + " --json");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_GT(j["model_pixels"].get<int>(), 10000);
    EXPECT_TRUE(j["camera"]["z_up"].get<bool>());
}

TEST(CompareCli, DifferentModelsAreDifferent) {
    ESVIEW_REQUIRE_MODELS("pod");
    const RunResult r = esview("compare " + quoted(esv::test::modelsDir() / kSphere) + " " +
                               quoted(esv::test::modelsDir() / kMallet) + kSize);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.out), 1u) << r.out;
    EXPECT_NE(r.out.find(": different: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("model pixels off"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("mean difference"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
}

// A copy of the mallet beside a copy of its texture darkened by 10%: different; beside an exact
// copy: alike.
TEST(CompareCli, TextureDarkenedByTenPercentIsDifferent) {
    ESVIEW_REQUIRE_MODELS("pod");
    const fs::path source = esv::test::modelsDir() / kMallet;
    const fs::path same = freshDir("mallet_same"), dark = freshDir("mallet_dark");
    for (const fs::path& dir : {same, dark}) {
        fs::copy_file(source, dir / source.filename());
        fs::copy_file(source.parent_path() / "mallet.png", dir / "mallet.png");
    }
    esv::test::Image texture;
    ASSERT_TRUE(esv::test::loadPng((dark / "mallet.png").string(), texture));
    for (size_t i = 0; i < texture.rgba.size(); ++i)
        if (i % 4 != 3) texture.rgba[i] = static_cast<uint8_t>(texture.rgba[i] * 9 / 10);
    ASSERT_TRUE(esv::test::savePng((dark / "mallet.png").string(), texture));

    const RunResult alike =
        esview("compare " + quoted(source) + " " + quoted(same / source.filename()) + kSize);
    EXPECT_EQ(alike.exitCode, 0) << alike.out << alike.err;
    const RunResult r =
        esview("compare " + quoted(source) + " " + quoted(dark / source.filename()) + kSize + " --json");
    ASSERT_EQ(r.exitCode, 1) << r.out << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j["alike"].get<bool>());
    EXPECT_GT(j["mean_difference"].get<double>(), 3.0) << r.out;
}

// The JSON object: every figure, consistent with itself, the time asked for and the camera.
TEST(CompareCli, JsonFigures) {
    ESVIEW_REQUIRE_MODELS("pod");
    const fs::path man = esv::test::modelsDir() / kMan;
    const RunResult r =
        esview("compare " + quoted(man) + " " + quoted(man) + " --size 200x150 --frame 5 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lineCount(r.out), 1u);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    for (const char* key : {"alike", "model_pixels", "pixels_off", "share_off", "mean_difference",
                            "max_difference", "size", "time", "camera"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j["alike"].get<bool>());
    EXPECT_GT(j["model_pixels"].get<int>(), 1000);
    EXPECT_EQ(j["pixels_off"].get<int>(), 0);
    EXPECT_EQ(j["share_off"].get<double>(), 0.0);
    EXPECT_EQ(j["mean_difference"].get<double>(), 0.0);
    EXPECT_EQ(j["max_difference"].get<int>(), 0);
    EXPECT_EQ(j["size"]["width"].get<int>(), 200);
    EXPECT_EQ(j["size"]["height"].get<int>(), 150);
    EXPECT_EQ(j["time"]["clip"].get<std::string>(), "Take 001");
    EXPECT_NEAR(j["time"]["seconds"].get<double>(), 5.0 / 25.0, 1e-6);  // the file's 25 frames a second
    EXPECT_GT(j["camera"]["distance"].get<double>(), 0.0);

    const RunResult other = esview("compare " + quoted(man) + " " + quoted(esv::test::modelsDir() / kSphere) +
                                   " --size 200x150 --json");
    ASSERT_EQ(other.exitCode, 1) << other.err;
    const nlohmann::json k = nlohmann::json::parse(other.out);
    EXPECT_FALSE(k["alike"].get<bool>());
    EXPECT_GT(k["pixels_off"].get<int>(), 0);
    EXPECT_NEAR(k["share_off"].get<double>(), k["pixels_off"].get<double>() / k["model_pixels"].get<double>(),
                1e-9);
    EXPECT_GT(k["max_difference"].get<int>(), 10);
    EXPECT_TRUE(k["time"]["clip"].is_null());  // no --frame or --time: the rest pose
}

// With boxes alike the camera is the one `render A` draws with, so A's picture is render's: the
// difference image of two alike pictures is that picture in grey at half brightness.
TEST(CompareCli, SameBoxesDrawAsRenderDoes) {
    const fs::path dir = freshDir("camera");
    const RunResult r = esview("compare demo demo --size 160x120 -o " + quoted(dir / "diff.png"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const RunResult render = esview("render demo --size 160x120 -o " + quoted(dir / "render.png"));
    ASSERT_EQ(render.exitCode, 0) << render.err;
    esv::test::Image diff, picture;
    ASSERT_TRUE(esv::test::loadPng((dir / "diff.png").string(), diff));
    ASSERT_TRUE(esv::test::loadPng((dir / "render.png").string(), picture));
    ASSERT_EQ(diff.rgba.size(), picture.rgba.size());
    for (size_t i = 0; i < diff.rgba.size(); i += 4) {
        const int grey = (int(picture.rgba[i]) + picture.rgba[i + 1] + picture.rgba[i + 2]) / 6;
        ASSERT_EQ(int(diff.rgba[i]), grey) << i / 4;
        ASSERT_EQ(diff.rgba[i], diff.rgba[i + 1]);
        ASSERT_EQ(diff.rgba[i], diff.rgba[i + 2]);
    }
}

// Boxes that differ: A's first view direction (yaw, pitch) kept, moved back to frame both.
TEST(CompareCli, CameraWidensToFrameBoth) {
    ESVIEW_REQUIRE_MODELS("pod");
    const fs::path sphere = esv::test::modelsDir() / kSphere, mallet = esv::test::modelsDir() / kMallet;
    const RunResult own = esview("compare " + quoted(sphere) + " " + quoted(sphere) + kSize + " --json");
    const RunResult both = esview("compare " + quoted(sphere) + " " + quoted(mallet) + kSize + " --json");
    const RunResult other = esview("compare " + quoted(mallet) + " " + quoted(mallet) + kSize + " --json");
    ASSERT_EQ(own.exitCode, 0) << own.err;
    ASSERT_EQ(both.exitCode, 1) << both.err;
    ASSERT_EQ(other.exitCode, 0) << other.err;
    const nlohmann::json a = nlohmann::json::parse(own.out)["camera"],
                         ab = nlohmann::json::parse(both.out)["camera"],
                         b = nlohmann::json::parse(other.out)["camera"];
    EXPECT_FLOAT_EQ(ab["yaw"].get<float>(), a["yaw"].get<float>());
    EXPECT_FLOAT_EQ(ab["pitch"].get<float>(), a["pitch"].get<float>());
    EXPECT_GE(ab["distance"].get<double>(), a["distance"].get<double>() * 0.999);
    EXPECT_GE(ab["distance"].get<double>() * 1.001,
              std::min(a["distance"].get<double>(), b["distance"].get<double>()));
    EXPECT_NE(ab["distance"].get<double>(), a["distance"].get<double>());
}

// -o writes the difference image at the render size; pixels beyond the tolerance are red.
TEST(CompareCli, DifferenceImage) {
    ESVIEW_REQUIRE_MODELS("pod");
    const fs::path dir = freshDir("difference");
    const RunResult r =
        esview("compare " + quoted(esv::test::modelsDir() / kSphere) + " " +
               quoted(esv::test::modelsDir() / kMallet) + " --size 300x200 -o " + quoted(dir / "d.png"));
    ASSERT_EQ(r.exitCode, 1) << r.err;
    esv::test::Image diff;
    ASSERT_TRUE(esv::test::loadPng((dir / "d.png").string(), diff));
    EXPECT_EQ(diff.width, 300);
    EXPECT_EQ(diff.height, 200);
    size_t red = 0;
    for (size_t i = 0; i < diff.rgba.size(); i += 4)
        red += diff.rgba[i] >= 128 && diff.rgba[i + 1] == 0 && diff.rgba[i + 2] == 0;
    EXPECT_GT(red, 1000u);
}

TEST(CompareCli, ExitCodes) {
    const fs::path dir = freshDir("exit_codes");
    EXPECT_EQ(esview("compare demo demo --size 64x64").exitCode, 0);
    for (const char* args :
         {"compare demo", "compare", "compare demo demo --mode nonsense", "compare demo demo --size 0x5",
          "compare demo demo --frame 1 --time 2", "compare demo demo --device no-such-device",
          "compare demo demo --no-such-option"}) {
        const RunResult r = esview(args);
        EXPECT_EQ(r.exitCode, 2) << args << ": " << r.err;
        EXPECT_NE(r.err, "") << args;
    }
    // Unreadable inputs: 1, one line for each problem, nothing on stdout.
    const RunResult missing = esview("compare demo " + quoted(dir / "missing.pod"));
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_EQ(lineCount(missing.err), 1u) << missing.err;
    EXPECT_NE(missing.err.find("missing.pod"), std::string::npos) << missing.err;
    EXPECT_EQ(missing.out, "");
    const RunResult both = esview("compare " + quoted(dir / "a.pod") + " " + quoted(dir / "b.pod"));
    EXPECT_EQ(both.exitCode, 1);
    EXPECT_EQ(lineCount(both.err), 2u) << both.err;
    const RunResult clip = esview("compare demo demo --clip no-such-clip");
    EXPECT_EQ(clip.exitCode, 1);
    EXPECT_NE(clip.err.find("no-such-clip"), std::string::npos) << clip.err;
}

}  // namespace
