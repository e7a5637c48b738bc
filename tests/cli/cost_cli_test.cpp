// `esview cost`: the JSON fields the README documents, their values against the cost library on the
// same file, the frame measured by drawing it, the text table, and bad input.
#include <filesystem>
#include <fstream>
#include <sstream>

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

// `check --device NAME --budget FILE`: a budget at exactly the file's values passes, one below a
// value fails with one line naming the file, the measure, the value and the limit, and exit code 1;
// --json gives each file a budget object; a budget that cannot be read is a usage error.
std::string writeBudget(const std::string& name, const std::string& text) {
    const std::filesystem::path path = test::outputDir() / name;
    std::ofstream(path) << text;
    return path.string();
}

TEST(CheckBudget, LimitsAtTheValuesPassAndBelowThemFail) {
    ESVIEW_REQUIRE_MODELS("pod");
    const std::string file = (test::modelsDir() / "pod/cocos3d/cocos3d_man.pod").string();
    LoadResult loaded = loadSceneFile(file);
    ASSERT_TRUE(loaded.scene);
    readSceneTextures(*loaded.scene);
    const CostReport report = analyzeCost(*loaded.scene, *findDevice("sgx540"));
    const std::vector<std::pair<std::string, uint64_t>> values = {
        {"triangles", report.frame.triangles},         {"draws", report.frame.draws},
        {"vertices", report.totals.vertices},          {"vertex_bytes", report.totals.vertexBytes},
        {"texture_bytes", report.totals.textureBytes}, {"bones_per_batch", report.totals.maxBonesPerBatch},
        {"texture_size", report.totals.maxTextureSize}};
    nlohmann::ordered_json exact;
    for (const auto& [measure, value] : values) exact[measure] = value;
    const std::string at = writeBudget("budget_at.json", exact.dump());
    const test::RunResult pass = run("check '" + file + "' --device sgx540 --budget '" + at + "'");
    EXPECT_EQ(pass.exitCode, 0) << pass.err;
    EXPECT_NE(pass.out.find("ok (pod"), std::string::npos) << pass.out;
    for (const auto& [measure, value] : values) {
        SCOPED_TRACE(measure);
        ASSERT_GT(value, 0u);
        nlohmann::ordered_json below = exact;
        below[measure] = value - 1;
        const std::string path = writeBudget("budget_" + measure + ".json", below.dump());
        const test::RunResult fail = run("check '" + file + "' --device sgx540 --budget '" + path + "'");
        EXPECT_EQ(fail.exitCode, 1);
        EXPECT_NE(fail.err.find(file + ": over budget on sgx540: " + measure + " " + std::to_string(value) +
                                ", the limit " + std::to_string(value - 1) + "\n"),
                  std::string::npos)
            << fail.err;
        EXPECT_NE(fail.err.find(file + ": over budget (1 measure)"), std::string::npos) << fail.err;
    }
    // JSON: the file's budget object, then the summary with the files over budget.
    nlohmann::ordered_json tight = exact;
    tight["triangles"] = 1;
    const test::RunResult json =
        run("check '" + file + "' demo --json --jobs 2 --device sgx540 --budget '" + writeBudget("budget_tight.json", tight.dump()) + "'");
    EXPECT_EQ(json.exitCode, 1);
    std::istringstream lines(json.out);
    std::string line;
    std::vector<nlohmann::json> parsed;
    while (std::getline(lines, line)) parsed.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(parsed.size(), 3u) << json.out;
    const nlohmann::json& man = parsed[0]["path"] == file ? parsed[0] : parsed[1];
    EXPECT_EQ(man["budget"]["device"], "sgx540");
    EXPECT_FALSE(man["budget"]["ok"].get<bool>());
    ASSERT_EQ(man["budget"]["measures"].size(), values.size());
    EXPECT_EQ(man["budget"]["measures"][0]["measure"], "triangles");
    EXPECT_EQ(man["budget"]["measures"][0]["value"], report.frame.triangles);
    EXPECT_TRUE(man["budget"]["measures"][0]["over"].get<bool>());
    EXPECT_FALSE(man["budget"]["measures"][1]["over"].get<bool>());
    EXPECT_EQ(parsed[2]["summary"]["over_budget"], 2) << "the demo has triangles too";
}

TEST(CheckBudget, BudgetsThatCannotBeReadAreUsageErrors) {
    for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
             {"{\"tris\": 3}", "unknown measure 'tris'"},
             {"{\"draws\": -1}", "'draws': the limit must be a whole number of zero or more, not -1"},
             {"{\"draws\": 2.5}", "not 2.5"},
             {"[1, 2]", "a budget is a JSON object"},
             {"not json", "a budget is a JSON object"}}) {
        const test::RunResult r = run("check demo --budget '" + writeBudget("budget_bad.json", text) + "'");
        EXPECT_EQ(r.exitCode, 2) << text;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
    const test::RunResult missing = run("check demo --budget /nonexistent/budget.json");
    EXPECT_EQ(missing.exitCode, 2);
}

}  // namespace
}  // namespace esv
