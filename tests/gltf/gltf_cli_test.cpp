// The command line on glTF files, through the format table with nothing glTF-specific in app/: a
// shared sample converted to .glb and .gltf by `esview convert`, then `info --json` (the file's
// counts, a mesh split by primitive counted once), `check --json` and `render`; a bad file's line
// names its JSON pointer and exits 1.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/run_esview.h"
#include "common/test_paths.h"
#include "gltf/gltf_fixtures.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using test::RunResult;

RunResult run(const std::string& args) {
    return test::runEsview(ESVIEW_BINARY, args, "gltf_cli");
}

TEST(GltfCli, ConvertedSampleInfoCheckAndRender) {
    const fs::path source = test::modelsDir() / "ogex" / "assimp_animation_example.ogex";
    if (!fs::exists(source)) ESVIEW_SKIP_UNLESS_REQUIRED() << source << " not found";
    const fs::path dir = test::outputDir() / "gltf_cli";
    fs::create_directories(dir);
    for (const char* ext : {".glb", ".gltf"}) {
        SCOPED_TRACE(ext);
        const fs::path out = dir / (std::string("anim") + ext);
        ASSERT_EQ(run("convert '" + source.string() + "' '" + out.string() + "'").exitCode, 0);
        const RunResult info = run("info '" + out.string() + "' --json");
        ASSERT_EQ(info.exitCode, 0) << info.err;
        const nlohmann::json j = nlohmann::json::parse(info.out);
        EXPECT_EQ(j["format"], "gltf");
        EXPECT_EQ(j["meshes"].size(), 2u);
        EXPECT_EQ(j["triangles_total"], 64u);
        EXPECT_EQ(j["animation"]["clips"].size(), 1u);
        EXPECT_EQ(j["lights"].size(), 1u);
        const RunResult check = run("check '" + out.string() + "' --json");
        EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
        const fs::path png = dir / (std::string("anim") + ext + ".png");
        const RunResult render =
            run("render '" + out.string() + "' -o '" + png.string() + "' --size 64x48 --time 1");
        EXPECT_EQ(render.exitCode, 0) << render.err;
        EXPECT_TRUE(fs::exists(png));
    }
}

TEST(GltfCli, MeshSplitByPrimitiveCountsOnce) {
    test::Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    const std::string json = test::withBuffer(R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "bufferViews":[{"buffer":0,"byteLength":36}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                  {"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
     "meshes":[{"name":"two","primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":1}}]}],
     "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})",
                                              b);
    const fs::path file = test::outputDir() / "gltf_cli_split.gltf";
    std::ofstream(file) << json;
    const RunResult info = run("info '" + file.string() + "' --json");
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const nlohmann::json j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["nodes"], 1u);
    ASSERT_EQ(j["meshes"].size(), 1u);
    EXPECT_EQ(j["meshes"][0]["vertices"], 6u);
    EXPECT_EQ(j["meshes"][0]["triangles"], 2u);
    EXPECT_EQ(j["mesh_instances"], 1u);
}

TEST(GltfCli, BadFileNamesItsPointerAndExitsOne) {
    const fs::path file = test::outputDir() / "gltf_cli_bad.gltf";
    std::ofstream(file) << R"({"asset":{"version":"2.0"},"nodes":[{"mesh":3}],"scenes":[{"nodes":[0]}]})";
    const RunResult check = run("check '" + file.string() + "'");
    EXPECT_EQ(check.exitCode, 1);
    EXPECT_NE((check.out + check.err)
                  .find(file.string() + ": /nodes/0/mesh: mesh 3 does not exist (the file has 0)"),
              std::string::npos)
        << check.out << check.err;
}

}  // namespace
}  // namespace esv
