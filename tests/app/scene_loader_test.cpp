// Loading off the render thread: results arrive once through poll(), progress ends at 1, errors
// come back as problems, and a newer request replaces an older one.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/scene_loader.h"
#include "common/test_paths.h"

namespace {

std::string demoPod() { return (esv::test::sourceDir() / "assets" / "demo.pod").string(); }

esv::LoadResult waitForResult(esv::SceneLoader& loader) {
    esv::LoadResult result;
    for (int i = 0; i < 2000 && !loader.poll(result); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return result;
}

TEST(SceneLoader, LoadsOffThreadAndHandsTheResultOverOnce) {
    esv::SceneLoader loader;
    esv::RendererInfo gpu;
    gpu.paletteCapacity = 3;  // smaller than the demo's 4-bone batch: the loader must rebatch
    loader.start(demoPod(), gpu);
    esv::LoadResult result = waitForResult(loader);
    ASSERT_TRUE(result.scene) << (result.problems.empty() ? "" : result.problems[0].format());
    EXPECT_FALSE(loader.busy());
    float fraction = 0.0f;
    std::string stage;
    loader.progress(fraction, stage);
    EXPECT_EQ(fraction, 1.0f);
    for (const esv::Mesh& mesh : result.scene->meshes) EXPECT_LE(mesh.maxBonesPerBatch, 3u) << mesh.name;
    esv::LoadResult again;
    EXPECT_FALSE(loader.poll(again)) << "a result is handed over once";
}

TEST(SceneLoader, ABadFileComesBackAsProblemsWithTheFileName) {
    const auto path = esv::test::outputDir() / "loader_truncated.pod";
    std::ifstream in(demoPod(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(path, std::ios::binary) << bytes.substr(0, 300);
    esv::SceneLoader loader;
    loader.start(path.string(), esv::RendererInfo{});
    esv::LoadResult result = waitForResult(loader);
    EXPECT_FALSE(result.scene);
    ASSERT_EQ(result.problems.size(), 1u);
    EXPECT_EQ(result.problems[0].format(), path.string() + ": offset 0x32: scene: the file ends before the block's end tag");

    loader.start("/nonexistent/model.pod", esv::RendererInfo{});
    result = waitForResult(loader);
    ASSERT_EQ(result.problems.size(), 1u);
    EXPECT_EQ(result.problems[0].file, "/nonexistent/model.pod");
}

TEST(SceneLoader, ANewerRequestReplacesTheOlderOne) {
    esv::SceneLoader loader;
    loader.start("/nonexistent/first.pod", esv::RendererInfo{});
    loader.start(demoPod(), esv::RendererInfo{});
    esv::LoadResult result = waitForResult(loader);
    ASSERT_TRUE(result.scene);
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
