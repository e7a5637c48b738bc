// Loading off the render thread: results arrive once through poll(), progress ends at 1, errors
// come back as problems, and a newer request replaces an older one.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/viewer/scene_loader.h"
#include "common/test_paths.h"

namespace {

std::string demoPod() { return (esv::test::sourceDir() / "assets" / "demo.pod").string(); }

esv::LoadedScene waitForResult(esv::SceneLoader& loader) {
    esv::LoadedScene result;
    for (int i = 0; i < 2000 && !loader.poll(result); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return result;
}

TEST(SceneLoader, LoadsOffThreadAndHandsTheResultOverOnce) {
    esv::SceneLoader loader;
    esv::TargetCaps gpu;
    gpu.paletteCapacity = 3;  // smaller than the demo's 4-bone batch: the loader must rebatch
    loader.start(demoPod(), gpu);
    esv::LoadedScene result = waitForResult(loader);
    ASSERT_TRUE(result.prepared) << (result.problems.empty() ? "" : result.problems[0].format());
    ASSERT_TRUE(result.loaded);
    EXPECT_FALSE(loader.busy());
    float fraction = 0.0f;
    std::string stage;
    loader.progress(fraction, stage);
    EXPECT_EQ(fraction, 1.0f);
    for (const esv::Mesh& mesh : result.prepared->meshes) EXPECT_LE(mesh.maxBonesPerBatch, 3u) << mesh.name;
    // The scene as loaded keeps the file's batches, for preparing again for another target.
    uint32_t loadedMax = 0;
    for (const esv::Mesh& mesh : result.loaded->meshes) loadedMax = std::max(loadedMax, mesh.maxBonesPerBatch);
    EXPECT_EQ(loadedMax, 4u);
    esv::LoadedScene again;
    EXPECT_FALSE(loader.poll(again)) << "a result is handed over once";
}

TEST(SceneLoader, ABadFileComesBackAsProblemsWithTheFileName) {
    const auto path = esv::test::outputDir() / "loader_truncated.pod";
    std::ifstream in(demoPod(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(path, std::ios::binary) << bytes.substr(0, 300);
    esv::SceneLoader loader;
    loader.start(path.string(), esv::TargetCaps{});
    esv::LoadedScene result = waitForResult(loader);
    EXPECT_FALSE(result.prepared);
    EXPECT_FALSE(result.loaded);
    ASSERT_EQ(result.problems.size(), 1u);
    EXPECT_EQ(result.problems[0].format(), path.string() + ": offset 0x32: scene: the file ends before the block's end tag");

    loader.start("/nonexistent/model.pod", esv::TargetCaps{});
    result = waitForResult(loader);
    ASSERT_EQ(result.problems.size(), 1u);
    EXPECT_EQ(result.problems[0].file, "/nonexistent/model.pod");
}

TEST(SceneLoader, ANewerRequestReplacesTheOlderOne) {
    esv::SceneLoader loader;
    loader.start("/nonexistent/first.pod", esv::TargetCaps{});
    loader.start(demoPod(), esv::TargetCaps{});
    esv::LoadedScene result = waitForResult(loader);
    ASSERT_TRUE(result.prepared);
    EXPECT_EQ(loader.path(), demoPod());
    EXPECT_FALSE(loader.poll(result)) << "the first request's result was dropped";
}

TEST(SceneLoader, FileStampChangesWithTheModificationTime) {
    const auto path = esv::test::outputDir() / "loader_stamp.pod";
    std::ofstream(path) << "abc";
    const int64_t first = esv::fileStamp(path.string());
    EXPECT_NE(first, 0);
    std::filesystem::last_write_time(path, std::filesystem::last_write_time(path) + std::chrono::seconds(2));
    EXPECT_NE(esv::fileStamp(path.string()), first);
    EXPECT_EQ(esv::fileStamp("demo"), 0);
    EXPECT_EQ(esv::fileStamp("/nonexistent/x.pod"), 0);
}

}  // namespace
