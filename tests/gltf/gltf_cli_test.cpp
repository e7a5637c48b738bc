// The command line on glTF files, through the format table with nothing glTF-specific in app/: a
// shared sample converted to .glb and .gltf by `esview convert`, then `info --json` (the file's
// counts, a mesh split by primitive counted once), `check --json` and `render`; a bad file's line
// names its JSON pointer and exits 1.
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/image_compare.h"
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

namespace esv {
namespace {

// A quad filling a camera's view, textured (unlit) with a 2x2 image: red, green / blue, white.
std::string filteredQuad(int magFilter) {
    test::Bin b;
    b.put<float>({-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0});  // positions
    b.put<float>({0, 1, 1, 1, 1, 0, 0, 0});                  // texture coordinates
    b.put<uint16_t>({0, 1, 2, 0, 2, 3});
    std::string json = test::withBuffer(R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "extensionsUsed":["KHR_materials_unlit"],
     "bufferViews":[{"buffer":0,"byteLength":48},{"buffer":0,"byteOffset":48,"byteLength":32},
                    {"buffer":0,"byteOffset":80,"byteLength":12}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[-1,-1,0],"max":[1,1,0]},
                  {"bufferView":1,"componentType":5126,"count":4,"type":"VEC2"},
                  {"bufferView":2,"componentType":5123,"count":6,"type":"SCALAR"}],
     "images":[{"uri":"checker2x2.png"}],
     "samplers":[{"magFilter":@MAG@,"minFilter":9729}],
     "textures":[{"source":0,"sampler":0}],
     "materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},
                   "extensions":{"KHR_materials_unlit":{}}}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"indices":2,"material":0}]}],
     "cameras":[{"type":"perspective","perspective":{"yfov":0.9,"znear":0.1,"zfar":10}}],
     "nodes":[{"mesh":0},{"camera":0,"translation":[0,0,2.2]}],"scenes":[{"nodes":[0,1]}],"scene":0})",
                                        b);
    json.replace(json.find("@MAG@"), 5, std::to_string(magFilter));
    return json;
}

// The sampler's filters reach the GPU: NEAREST magnification draws the 2x2 texture as four flat
// blocks, LINEAR blends between them (the quad fills the view, each texel some 30 pixels wide).
TEST(GltfCli, SamplerFiltersAreDrawn) {
    const fs::path dir = test::outputDir() / "gltf_filters";
    fs::create_directories(dir);
    test::Image checker;
    checker.width = checker.height = 2;
    checker.rgba = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    ASSERT_TRUE(test::savePng((dir / "checker2x2.png").string(), checker));
    size_t colours[2] = {};
    for (int k = 0; k < 2; ++k) {
        const int filter = k == 0 ? 9728 : 9729;  // NEAREST, LINEAR
        const fs::path file = dir / ("quad_" + std::to_string(filter) + ".gltf");
        std::ofstream(file) << filteredQuad(filter);
        const fs::path png = dir / ("quad_" + std::to_string(filter) + ".png");
        const RunResult r = run("render '" + file.string() + "' --camera 0 --mode unlit --size 64x64 -o '" +
                                png.string() + "'");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        test::Image picture;
        ASSERT_TRUE(test::loadPng(png.string(), picture));
        std::set<uint32_t> distinct;
        for (int y = 16; y < 48; ++y)  // the middle, well inside the quad
            for (int x = 16; x < 48; ++x) {
                const uint8_t* p = &picture.rgba[size_t(y * picture.width + x) * 4];
                distinct.insert(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
            }
        colours[k] = distinct.size();
    }
    EXPECT_LE(colours[0], 4u) << "NEAREST: the four texels, flat";
    EXPECT_GE(colours[1], 100u) << "LINEAR: blends between them";
}

}  // namespace
}  // namespace esv
