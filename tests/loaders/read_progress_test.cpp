// The one file reader: loadSceneFile and readWholeFile report how far they have read, in 4 MiB
// steps, ending at 1, whether the format parses the mapping (OpenGEX) or gets a copy (POD), and
// give the same scene and bytes as without progress.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

// An OpenGEX file of about `mib` MiB: one mesh whose position array is padded with comments.
fs::path largeOpenGex(const std::string& name, size_t mib) {
    const fs::path path = test::outputDir() / name;
    std::ofstream out(path, std::ios::binary);
    out << "GeometryNode {ObjectRef {ref {$o}}}\nGeometryObject $o {Mesh {VertexArray (attrib = "
           "\"position\") "
           "{float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}}}\n";
    const std::string comment = "// " + std::string(1020, 'x') + "\n";
    for (size_t i = 0; i < mib * 1024; ++i) out << comment;
    return path;
}

std::vector<float> steps(const std::function<void(const ReadProgress&)>& read) {
    std::vector<float> seen;
    read([&](float f) { seen.push_back(f); });
    return seen;
}

void expectSteps(const std::vector<float>& seen, size_t count) {
    ASSERT_EQ(seen.size(), count);
    for (size_t i = 1; i < seen.size(); ++i) EXPECT_GT(seen[i], seen[i - 1]);
    EXPECT_EQ(seen.back(), 1.0f);
}

TEST(ReadProgress, MappedTextIsReadInStepsAndParsesAsWithout) {
    const fs::path path = largeOpenGex("progress_large.ogex", 9);  // 9 MiB and a bit: three steps
    LoadResult withProgress;
    const std::vector<float> seen =
        steps([&](const ReadProgress& p) { withProgress = loadSceneFile(path.string(), {}, p); });
    expectSteps(seen, 3);
    LoadResult without = loadSceneFile(path.string());
    ASSERT_TRUE(withProgress.scene) << (withProgress.problems.empty() ? ""
                                                                      : withProgress.problems[0].format());
    ASSERT_TRUE(without.scene);
    EXPECT_EQ(withProgress.scene->meshes.size(), 1u);
    EXPECT_EQ(withProgress.scene->meshes[0].vertexCount, without.scene->meshes[0].vertexCount);
    fs::remove(path);
}

TEST(ReadProgress, WholeFileReadIsCopiedInStepsWithTheSameBytes) {
    const fs::path path = largeOpenGex("progress_bytes.ogex", 5);  // two steps
    std::string error;
    std::shared_ptr<const std::vector<uint8_t>> stepped;
    const std::vector<float> seen =
        steps([&](const ReadProgress& p) { stepped = readWholeFile(path.string(), error, p); });
    expectSteps(seen, 2);
    auto plain = readWholeFile(path.string(), error);
    ASSERT_TRUE(stepped);
    ASSERT_TRUE(plain);
    EXPECT_EQ(*stepped, *plain);
    EXPECT_EQ(stepped->size(), fs::file_size(path));
    fs::remove(path);
}

TEST(ReadProgress, BinaryModelGetsItsOwnCopyAndOneStep) {
    const fs::path path = test::sourceDir() / "assets" / "demo.pod";
    LoadResult r;
    const std::vector<float> seen =
        steps([&](const ReadProgress& p) { r = loadSceneFile(path.string(), {}, p); });
    expectSteps(seen, 1);
    ASSERT_TRUE(r.scene) << (r.problems.empty() ? "" : r.problems[0].format());
    EXPECT_FALSE(r.scene->meshes.empty());
}

TEST(ReadProgress, ErrorsReadTheSameWithProgress) {
    std::string error;
    bool called = false;
    EXPECT_FALSE(readWholeFile("/nonexistent/model.pod", error, [&](float) { called = true; }));
    EXPECT_EQ(error, "No such file or directory");
    EXPECT_FALSE(readWholeFile(test::outputDir().string(), error, [&](float) { called = true; }));
    EXPECT_EQ(error, "it is a directory");
    EXPECT_FALSE(called);
    const fs::path empty = test::outputDir() / "progress_empty.pod";
    std::ofstream(empty).close();
    auto bytes = readWholeFile(empty.string(), error, [&](float) { called = true; });
    ASSERT_TRUE(bytes);
    EXPECT_TRUE(bytes->empty());
    LoadResult r = loadSceneFile("/nonexistent/model.pod", {}, [&](float) {});
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_EQ(r.problems[0].format(),
              "/nonexistent/model.pod: cannot read the file: No such file or directory");
}

}  // namespace
}  // namespace esv
