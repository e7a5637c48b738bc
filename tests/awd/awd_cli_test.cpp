// The command line on AWD files: `esview info FILE --json` counts as DESIGN.md defines them for AWD,
// and `esview check FILE` lists each violation on its own line with block and offset, exit 1.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "awd/awd_writer.h"
#include "loaders/awd/awd_format.h"
#include "common/run_esview.h"
#include "common/test_paths.h"

namespace esv {
namespace {

using awdtest::AwdWriter;
using awdtest::Props;

using test::RunResult;

RunResult run(const std::string& args) { return test::runEsview(ESVIEW_BINARY, args, "awd_cli"); }

std::string writeFixture(const std::string& name, const std::vector<uint8_t>& bytes) {
    const auto path = test::outputDir() / name;
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return path.string();
}

// A scene with every node kind DESIGN.md counts: Scene, Container, MeshInstance, Light, Camera, SkyBox.
std::vector<uint8_t> sceneFixture() {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2, 0, 2, 3, 0, 3, 1}));
    const uint32_t geo = w.block(1, w.triangleGeometry("tri", {sub}));
    const uint32_t ball = w.block(11, w.primitive("ball", 3, Props().f(101, 1.0)));
    const uint32_t mat = w.block(81, w.material("mat", 1, Props().color(1, 0x808080)));
    const uint32_t scene = w.block(21, w.container(0, glm::mat4(1.0f), "scene"));
    const uint32_t group = w.block(22, w.container(scene, glm::translate(glm::mat4(1.0f), glm::vec3(10, 0, 0)), "group"));
    w.block(23, w.meshInstance(group, glm::mat4(1.0f), "a", geo, {mat}));
    w.block(23, w.meshInstance(scene, glm::translate(glm::mat4(1.0f), glm::vec3(0, -5, 0)), "b", ball, {mat}));
    w.block(41, w.light(0, glm::mat4(1.0f), "sun", 2, Props()));
    w.block(42, w.camera(0, glm::mat4(1.0f), "cam", 5001, Props(), Props()));
    const uint32_t cube = w.block(83, w.cubeTexture("sky", false, std::vector<awdtest::Bytes>(6, awdtest::Bytes().text("f.jpg"))));
    w.block(31, w.skyBox("skybox", cube));
    return w.finish();
}

TEST(AwdCli, InfoJsonCountsTheFileOwnObjects) {
    const std::string file = writeFixture("awd_cli_scene.awd", sceneFixture());
    RunResult r = run("info '" + file + "' --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["format"], "awd");
    EXPECT_EQ(j["nodes"], 7);  // Scene, Container, 2 MeshInstances, Light, Camera, SkyBox
    EXPECT_EQ(j["meshes"].size(), 2u);
    EXPECT_EQ(j["meshes"][0]["name"], "tri");
    EXPECT_EQ(j["meshes"][0]["vertices"], 4);
    EXPECT_EQ(j["meshes"][0]["triangles"], 3);
    EXPECT_EQ(j["meshes"][1]["name"], "ball");
    EXPECT_EQ(j["mesh_instances"], 2);
    EXPECT_EQ(j["lights"].size(), 1u);
    EXPECT_EQ(j["lights"][0]["type"], "directional");
    EXPECT_EQ(j["cameras"], 1);
    EXPECT_EQ(j["materials"].size(), 1u);
    EXPECT_EQ(j["textures"].size(), 6u);
    // Bounds at rest in the file's own units: the triangle geometry under the group (x 10..12,
    // y 0..3, z 0..4) and the unit sphere at (0, -5, 0).
    const auto& b = j["bounds"];
    EXPECT_NEAR(b["min"][0].get<double>(), -1.0, 1e-5);
    EXPECT_NEAR(b["min"][1].get<double>(), -6.0, 1e-5);
    EXPECT_NEAR(b["min"][2].get<double>(), -1.0, 1e-5);
    EXPECT_NEAR(b["max"][0].get<double>(), 12.0, 1e-5);
    EXPECT_NEAR(b["max"][1].get<double>(), 3.0, 1e-5);
    EXPECT_NEAR(b["max"][2].get<double>(), 4.0, 1e-5);
}

TEST(AwdCli, CheckListsEachViolationWithBlockAndOffset) {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    AwdWriter::Stream pos = w.floats(1, {0, 0, 0, 1, 0, 0, 0, 1, 0});
    pos.data.u8(0);
    sub.streams.push_back(pos);
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    sub.streams.push_back(AwdWriter::shorts(6, {0, 1, 0, 1, 0, 1}));
    sub.streams.push_back(w.floats(7, {0.5, 0.4, 1, 0, 1, 0}));
    w.block(1, w.triangleGeometry("bad", {sub}));
    const std::string file = writeFixture("awd_cli_bad.awd", w.finish());
    RunResult r = run("check '" + file + "'");
    EXPECT_EQ(r.exitCode, 1);
    std::vector<std::string> lines;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 3u) << r.err;
    EXPECT_EQ(lines[0], file + ": offset 0x2A: block 1 (TriangleGeometry 'bad') / sub-geometry 0: the positions stream is 37 bytes, "
                              "not a multiple of its 12-byte elements; the last 1 bytes are ignored");
    EXPECT_NE(lines[1].find("the joint weights of 1 vertices do not sum to 1 (first: vertex 0, sum 0.9"), std::string::npos) << lines[1];
    EXPECT_EQ(lines[2], file + ": 2 problems");

    // A load error (a forward reference) is one line too, exit 1, for info as for check.
    AwdWriter f;
    f.blockWithId(1, 23, f.meshInstance(0, glm::mat4(1.0f), "early", 2, {}));
    f.blockWithId(2, 1, f.triangleGeometry("late", {sub}));
    const std::string forward = writeFixture("awd_cli_forward.awd", f.finish());
    r = run("info '" + forward + "'");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("which comes later in the file (references must point backwards)"), std::string::npos) << r.err;
}

TEST(AwdCli, SampleFileInfo) {
    ESVIEW_REQUIRE_MODELS("awd");
    RunResult r = run("info '" + (test::modelsDir() / "awd" / "ContainerHirarchy.awd").string() + "' --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["nodes"], 99);
    EXPECT_EQ(j["mesh_instances"], 81);
    EXPECT_EQ(j["meshes"].size(), 1u);
    EXPECT_EQ(j["warnings"].size(), 0u);
    r = run("check '" + (test::modelsDir() / "awd" / "ContainerHirarchy.awd").string() + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

// A real zlib file rewritten as the Away3D tools write LZMA files: the body recompressed with the
// .lzma header (properties, dictionary size, 64-bit size), header flag 0x80 set, and the same again
// in the spec's layout. check passes with one warning for the flag, and info gives the same scene.
TEST(AwdCli, RealFileAsTheToolsWriteLzma) {
    ESVIEW_REQUIRE_MODELS("awd");
    const auto source = test::modelsDir() / "awd" / "Head_PhongSpec.awd";
    std::ifstream in(source, std::ios::binary);
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(file.size(), 12u);
    ASSERT_EQ(file[7], 1);  // zlib
    std::vector<uint8_t> body;
    std::string error;
    size_t trailing = 0;
    ASSERT_TRUE(awd::inflateZlib(file.data() + 12, file.size() - 12, awd::kMaxDecompressedBytes, body, trailing, error))
        << error;

    RunResult original = run("info '" + source.string() + "' --json");
    ASSERT_EQ(original.exitCode, 0) << original.err;
    nlohmann::json expected = nlohmann::json::parse(original.out);
    for (auto layout : {awdtest::LzmaLayout::Alone, awdtest::LzmaLayout::Spec}) {
        const std::vector<uint8_t> z = awdtest::lzmaCompress(body, layout);
        std::vector<uint8_t> lzma(file.begin(), file.begin() + 12);
        lzma[5] = 0x80;  // flags, high byte 0
        lzma[6] = 0x00;
        lzma[7] = 2;     // LZMA
        for (int i = 0; i < 4; ++i) lzma[8 + i] = static_cast<uint8_t>(z.size() >> (8 * i));
        lzma.insert(lzma.end(), z.begin(), z.end());
        const std::string path = writeFixture(layout == awdtest::LzmaLayout::Alone ? "head_lzma_tools.awd" : "head_lzma_spec.awd", lzma);
        RunResult r = run("check '" + path + "'");
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("warning: offset 0x5: header: header flags 0x80 are not defined by the spec and are ignored"),
                  std::string::npos)
            << r.out;
        r = run("info '" + path + "' --json");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        nlohmann::json j = nlohmann::json::parse(r.out);
        for (const char* key : {"nodes", "meshes", "materials", "textures", "bounds", "triangles_total", "vertices_total"})
            EXPECT_EQ(j[key], expected[key]) << key;
    }
}

// Clips by name or index: info --json lists them with their durations, and --clip / --time move
// the box (PolarBear.awd's Walk, numbers from samples_expected.py); the skeleton's joints are not
// counted as nodes.
TEST(AwdCli, ClipsAndBoxesAtClipTimes) {
    ESVIEW_REQUIRE_MODELS("awd");
    const std::string file = "'" + (test::modelsDir() / "awd" / "PolarBear.awd").string() + "'";
    RunResult r = run("info " + file + " --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["nodes"], 21);
    const auto& clips = j["animation"]["clips"];
    ASSERT_EQ(clips.size(), 3u);
    EXPECT_EQ(clips[0]["name"], "Breathe");
    EXPECT_NEAR(clips[0]["duration_s"].get<double>(), 1.2, 1e-6);
    EXPECT_EQ(clips[2]["name"], "Walk");
    for (const std::string clip : {"Walk", "2"}) {
        r = run("info " + file + " --json --clip " + clip + " --time 0.3");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        j = nlohmann::json::parse(r.out);
        EXPECT_NEAR(j["bounds"]["min"][2].get<double>(), -238.81542509808378, 0.05);
        EXPECT_NEAR(j["bounds"]["max"][2].get<double>(), 58.89931771160886, 0.05);
        EXPECT_NEAR(j["bounds"]["max"][1].get<double>(), 219.5843493631888, 0.05);
    }
    r = run("info " + file + " --json --clip Dance");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("no animation clip named 'Dance' (the clips: 'Breathe', "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'Walk')"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace esv
