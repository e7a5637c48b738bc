// `esview cost`: the JSON fields the README documents, their values against the cost library on the
// same file, the frame measured by drawing it, the text table, and bad input.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/run_esview.h"
#include "common/test_paths.h"
#include "cost/cost_report.h"
#include "loaders/load.h"
#include "loaders/textures/scene_textures.h"

namespace esv {
namespace {

test::RunResult run(const std::string& args) {
    return test::runEsview(ESVIEW_BINARY, args, "cost");
}

TEST(CostCli, JsonFieldsAreTheLibrarysFiguresForTheFile) {
    ESVIEW_REQUIRE_MODELS("pod");
    const std::string file = (test::modelsDir() / "pod/cocos3d/cocos3d_man.pod").string();
    const test::RunResult r = run("cost '" + file + "' --device sgx540 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["device"]["name"], "sgx540");
    EXPECT_EQ(j["device"]["vertex_cache"], findDevice("sgx540")->vertexCache);
    LoadResult loaded = loadSceneFile(file);
    ASSERT_TRUE(loaded.scene);
    readSceneTextures(*loaded.scene);
    const CostReport report = analyzeCost(*loaded.scene, *findDevice("sgx540"));
    ASSERT_EQ(j["meshes"].size(), report.meshes.size());
    for (size_t i = 0; i < report.meshes.size(); ++i) {
        const nlohmann::json& m = j["meshes"][i];
        const MeshCost& c = report.meshes[i];
        EXPECT_EQ(m["name"], c.name);
        EXPECT_EQ(m["vertices"], c.vertices);
        EXPECT_EQ(m["triangles"], c.triangles);
        EXPECT_FLOAT_EQ(m["acmr"].get<float>(), c.acmr);
        EXPECT_FLOAT_EQ(m["atvr"].get<float>(), c.atvr);
        EXPECT_FLOAT_EQ(m["acmr_optimized"].get<float>(), c.acmrOptimized);
        EXPECT_FLOAT_EQ(m["overfetch"].get<float>(), c.overfetch);
        EXPECT_FLOAT_EQ(m["overdraw"].get<float>(), c.overdraw);
        EXPECT_EQ(m["vertex_bytes"], c.vertexBytes);
        EXPECT_EQ(m["index_bytes"], c.indexBytes);
        ASSERT_EQ(m["batches"].size(), c.batches.size());
    }
    ASSERT_EQ(j["textures"].size(), report.textures.size());
    for (size_t i = 0; i < report.textures.size(); ++i) {
        const nlohmann::json& t = j["textures"][i];
        for (const char* key : {"name", "file", "format", "width", "height", "mip_levels", "gpu_bytes"})
            EXPECT_TRUE(t.contains(key)) << key;
        EXPECT_EQ(t["gpu_bytes"], report.textures[i].gpuBytes);
    }
    // The frame: drawn headless with the device's renderer profile, its state changes measured.
    const nlohmann::json& frame = j["frame"];
    EXPECT_EQ(frame["draws"], report.frame.draws);
    EXPECT_TRUE(frame["measured"].get<bool>());
    EXPECT_GE(frame["state_changes"]["programs"].get<int>(), 1);
    EXPECT_GT(frame["state_changes"]["palette_bytes"].get<int>(), 0) << "the body's two batches share a program";
    EXPECT_EQ(j["totals"]["triangles"], report.totals.triangles);
}

TEST(CostCli, TextTableAndBadInput) {
    const test::RunResult demo = run("cost demo --device strict-es2");
    ASSERT_EQ(demo.exitCode, 0) << demo.err;
    EXPECT_NE(demo.out.find("demo on Strict ES 2.0 profile (--gles2-strict) (strict-es2: OpenGL ES 2.0"), std::string::npos) << demo.out;
    for (const char* heading : {"Meshes", "vertices", "ACMR", "Frame at 0.00 s:", "state changes:", "Totals:"})
        EXPECT_NE(demo.out.find(heading), std::string::npos) << heading << "\n" << demo.out;
    const test::RunResult unknown = run("cost demo --device sgx999");
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("unknown device 'sgx999'"), std::string::npos) << unknown.err;
    const test::RunResult missing = run("cost /nonexistent/model.pod");
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("/nonexistent/model.pod"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace esv
