// `esview convert DIR OUTDIR --to pod|glb|gltf [--jobs N] [--json] [--shard K/N]`: a whole art
// folder converted into a mirrored tree, as a batch or a CI matrix runs it. Outputs newer than
// their model and its textures are skipped; one JSON line per file; shards split the file list by
// a stable hash of the relative path, so that N machines together convert every file exactly once.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/run_esview.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
using esv::test::RunResult;

RunResult run(const std::string& args) {
    return esv::test::runEsview(ESVIEW_BINARY, args, "convert_batch");
}

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = esv::test::outputDir() / ("convert_batch_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::vector<nlohmann::json> jsonLines(const std::string& out) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << "not JSON: " << line;
        lines.push_back(std::move(j));
    }
    return lines;
}

// A small art tree from the shared samples: a POD with its texture in a subfolder, an AWD
// with several clips (refused without an option), an OpenGEX file at the top, a text file that is
// no model.
fs::path artTree(const std::string& name) {
    const fs::path models = esv::test::modelsDir();
    const fs::path root = freshDir(name + "_in");
    fs::create_directories(root / "chars" / "oolong");
    for (const char* f : {"oolong_model_fixed.pod", "mallet.bmp"})
        fs::copy_file(models / "pod" / "oolong" / f, root / "chars" / "oolong" / f);
    fs::create_directories(root / "anim");
    fs::copy_file(models / "awd" / "PolarBear.awd", root / "anim" / "PolarBear.awd");
    fs::copy_file(models / "ogex" / "magnum_mesh.ogex", root / "magnum_mesh.ogex");
    std::ofstream(root / "notes.txt") << "not a model\n";
    return root;
}

std::map<std::string, std::string> statusByPath(const std::vector<nlohmann::json>& lines) {
    std::map<std::string, std::string> out;
    for (const nlohmann::json& j : lines)
        if (j.contains("path")) out[j["path"].get<std::string>()] = j["status"].get<std::string>();
    return out;
}

TEST(ConvertBatch, MirrorsTheTreeSkipsWhatIsUpToDateAndReportsEachFile) {
    ESVIEW_REQUIRE_MODELS("pod");
    const fs::path in = artTree("mirror");
    const fs::path out = freshDir("mirror_out");
    RunResult r = run("convert " + quoted(in) + " " + quoted(out) + " --to pod --json --jobs 2");
    EXPECT_EQ(r.exitCode, 1) << "the AWD's clips are refused without an option: " << r.err;
    std::vector<nlohmann::json> lines = jsonLines(r.out);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    const nlohmann::json summary = lines.back()["summary"];
    EXPECT_EQ(summary["files"], 3);
    EXPECT_EQ(summary["converted"], 2);
    EXPECT_EQ(summary["refused"], 1);
    std::map<std::string, std::string> status = statusByPath(lines);
    EXPECT_EQ(status[(in / "anim" / "PolarBear.awd").string()], "refused");
    for (const nlohmann::json& j : lines)
        if (j.value("status", "") == "refused") {
            ASSERT_FALSE(j["problems"].empty());
            EXPECT_NE(j["problems"][0].get<std::string>().find("(--clip NAME"), std::string::npos) << j.dump();
        }
    EXPECT_TRUE(fs::exists(out / "chars" / "oolong" / "oolong_model_fixed.pod"));
    EXPECT_TRUE(fs::exists(out / "magnum_mesh.pod"));
    EXPECT_FALSE(fs::exists(out / "anim" / "PolarBear.pod"));
    EXPECT_FALSE(fs::exists(out / "notes.pod"));

    // Again with --lossy: the two written are up to date, the refused one is converted.
    r = run("convert " + quoted(in) + " " + quoted(out) + " --to pod --json --lossy");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    status = statusByPath(jsonLines(r.out));
    EXPECT_EQ(status[(in / "anim" / "PolarBear.awd").string()], "converted");
    EXPECT_EQ(status[(in / "magnum_mesh.ogex").string()], "up to date");
    EXPECT_EQ(status[(in / "chars" / "oolong" / "oolong_model_fixed.pod").string()], "up to date");
    EXPECT_TRUE(fs::exists(out / "anim" / "PolarBear.pod"));

    // A texture newer than the output makes its model convert again; the others stay.
    const fs::path pod = out / "chars" / "oolong" / "oolong_model_fixed.pod";
    fs::last_write_time(in / "chars" / "oolong" / "mallet.bmp", fs::last_write_time(pod) + std::chrono::seconds(5));
    r = run("convert " + quoted(in) + " " + quoted(out) + " --to pod --json --lossy");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    status = statusByPath(jsonLines(r.out));
    EXPECT_EQ(status[(in / "chars" / "oolong" / "oolong_model_fixed.pod").string()], "converted");
    EXPECT_EQ(status[(in / "magnum_mesh.ogex").string()], "up to date");
    EXPECT_EQ(status[(in / "anim" / "PolarBear.awd").string()], "up to date");

    // Text: each file's lines, then one summary line.
    r = run("convert " + quoted(in) + " " + quoted(out) + " --to glb --lossy");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("converted 3 files to glb: 3 written, 0 up to date, 0 refused"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::exists(out / "anim" / "PolarBear.glb"));
}

TEST(ConvertBatch, ShardsSplitTheListOnceAndAlike) {
    ESVIEW_REQUIRE_MODELS("");
    const fs::path in = esv::test::modelsDir();
    std::multiset<std::string> all;
    std::map<std::string, int> shardOf;
    size_t total = 0;
    for (int k = 1; k <= 3; ++k) {
        const fs::path out = freshDir("shard" + std::to_string(k));
        const RunResult r = run("convert " + quoted(in) + " " + quoted(out) + " --to glb --lossy --json --jobs 2 --shard " +
                                std::to_string(k) + "/3");
        EXPECT_EQ(r.exitCode, 0) << r.err;
        for (const nlohmann::json& j : jsonLines(r.out)) {
            if (j.contains("summary")) continue;
            all.insert(j["path"].get<std::string>());
            shardOf[j["path"].get<std::string>()] = k;
            ++total;
        }
    }
    // Every model exactly once across the shards: the unsharded list.
    const fs::path whole = freshDir("shard_whole");
    const RunResult r = run("convert " + quoted(in) + " " + quoted(whole) + " --to glb --lossy --json --jobs 2");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::multiset<std::string> expected;
    for (const nlohmann::json& j : jsonLines(r.out))
        if (!j.contains("summary")) expected.insert(j["path"].get<std::string>());
    EXPECT_GE(expected.size(), 20u);
    EXPECT_EQ(all, expected);
    EXPECT_EQ(total, expected.size());
    // No shard is empty or holds everything.
    std::map<int, int> sizes;
    for (const auto& [path, k] : shardOf) ++sizes[k];
    EXPECT_EQ(sizes.size(), 3u);
    // The same split with another number of jobs, and again.
    const fs::path again = freshDir("shard_again");
    const RunResult one = run("convert " + quoted(in) + " " + quoted(again) + " --to glb --lossy --json --jobs 1 --shard 2/3");
    for (const nlohmann::json& j : jsonLines(one.out)) {
        if (j.contains("summary")) continue;
        EXPECT_EQ(shardOf[j["path"].get<std::string>()], 2) << j["path"];
    }
}

TEST(ConvertBatch, UsageAndEmptyFolders) {
    const fs::path empty = freshDir("empty");
    const fs::path out = freshDir("usage_out");
    RunResult r = run("convert " + quoted(empty) + " " + quoted(out) + " --to pod");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no model files found"), std::string::npos) << r.err;
    r = run("convert " + quoted(empty) + " " + quoted(out));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--to pod"), std::string::npos) << r.err;
    for (const char* bad : {"0/3", "4/3", "1/0", "x/2", "2"}) {
        r = run("convert " + quoted(empty) + " " + quoted(out) + " --to pod --shard " + bad);
        EXPECT_EQ(r.exitCode, 2) << bad;
        EXPECT_NE(r.err.find("--shard"), std::string::npos) << bad << ": " << r.err;
    }
    r = run("convert demo " + quoted(out / "demo.glb") + " --to pod");
    EXPECT_EQ(r.exitCode, 2) << "--to disagrees with the output's extension";
}

}  // namespace
