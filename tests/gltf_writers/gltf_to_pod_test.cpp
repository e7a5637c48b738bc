// glTF as a source for `convert`: each of Blender's scenes converted to POD shaped for the device
// (with --lossy, which takes each drop POD needs with a note), then `esview compare` of the glTF
// with the POD: alike at rest and, where the conversion keeps the motion, inside a clip. The skinned
// tube keeps its bones in one batch within the default palette and bends the same.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "common/run_esview.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
using esv::test::RunResult;

RunResult run(const std::string& args) { return esv::test::runEsview(ESVIEW_BINARY, args, "gltf_to_pod"); }

struct Case {
    const char* scene;
    const char* times;  // the times compared, space-separated
};

class GltfToPod : public ::testing::TestWithParam<Case> {};

TEST_P(GltfToPod, ConvertedPodDrawsAsTheGltf) {
    const Case c = GetParam();
    const fs::path dir = fs::path(GLTF_FIXTURES_DIR) / "blender";
    const fs::path in = dir / (std::string(c.scene) + ".glb");
    const fs::path out = esv::test::outputDir() / "gltf_to_pod" / (std::string(c.scene) + ".pod");
    fs::create_directories(out.parent_path());
    const RunResult refused = run("convert '" + in.string() + "' '" + out.string() + "'");
    if (refused.err.find("unknown file format") != std::string::npos) GTEST_SKIP() << "this esview reads no glTF";
    const RunResult converted = run("convert '" + in.string() + "' '" + out.string() + "' --lossy");
    ASSERT_EQ(converted.exitCode, 0) << converted.out << converted.err;
    ASSERT_TRUE(fs::exists(out));
    std::string times = c.times;
    for (size_t at = 0; at < times.size();) {
        const size_t end = std::min(times.find(' ', at), times.size());
        const std::string t = times.substr(at, end - at);
        at = end + 1;
        const RunResult compared = run("compare '" + in.string() + "' '" + out.string() + "' --size 256x256 --time " + t +
                                       " --texture-path '" + out.parent_path().string() + "'");
        EXPECT_EQ(compared.exitCode, 0) << "at " << t << " s: " << compared.out << compared.err;
        EXPECT_NE(compared.out.find(": alike: "), std::string::npos) << compared.out;
    }
}

// The lights scene's clip is left out of the inside-a-clip times: POD's frame 0 is the rest pose
// there, so the converted clip starts a frame later (convert's note says so).
INSTANTIATE_TEST_SUITE_P(Blender, GltfToPod,
                         ::testing::Values(Case{"skinned", "0 0.5"}, Case{"textured", "0 1"},
                                           Case{"shapekeys", "0"}, Case{"lights", "0"}),
                         [](const ::testing::TestParamInfo<Case>& p) { return std::string(p.param.scene); });

}  // namespace
