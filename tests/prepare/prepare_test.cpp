// The preparation stage: each step does what the target needs and no more, the scene as loaded is
// never changed, and preparing the same loaded scene for two targets gives what preparing each
// from scratch gives. Facts from the sample files (counts and formats the samples hold).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "loaders/textures/scene_textures.h"
#include "prepare/prepare.h"
#include "scene/scene.h"

namespace esv {
namespace {

TargetCaps es2Target(int palette = 0) {
    TargetCaps t;
    t.esVersion = 2;
    t.paletteCapacity = palette;
    t.uintIndices = false;
    return t;
}

TargetCaps es3Target(int palette = 0) {
    TargetCaps t;
    t.paletteCapacity = palette;
    return t;
}

std::unique_ptr<Scene> loadSample(const std::string& relative) {
    LoadResult r = loadSceneFile((test::modelsDir() / relative).string());
    EXPECT_TRUE(r.scene) << relative << (r.problems.empty() ? "" : ": " + r.problems[0].format());
    return std::move(r.scene);
}

uint32_t largestBatch(const Scene& scene) {
    uint32_t most = 0;
    for (const Mesh& m : scene.meshes)
        for (const BoneBatch& b : m.boneBatches) most = std::max(most, uint32_t(b.bones.size()));
    return most;
}

// A one-triangle mesh whose positions are half floats (ES3 reads them; ES2 cannot).
Scene halfFloatTriangle() {
    Scene scene;
    Mesh mesh;
    mesh.name = "half";
    const uint16_t halves[] = {0x0000, 0x0000, 0x0000, 0,      0x3C00, 0x0000,
                               0x0000, 0,      0x0000, 0x3C00, 0x0000, 0};
    std::vector<uint8_t> bytes(sizeof(halves));
    std::memcpy(bytes.data(), halves, sizeof(halves));
    VertexStream stream;
    stream.bytes = makeOwnedBytes(std::move(bytes));
    stream.stride = 8;
    stream.count = 3;
    VertexAttribute position;
    position.type = ComponentType::Float16;
    position.components = 3;
    stream.attributes.push_back(position);
    mesh.streams.push_back(stream);
    mesh.vertexCount = 3;
    Submesh sub;
    sub.primitive = Primitive::Triangles;
    sub.indexCount = 3;
    mesh.submeshes.push_back(sub);
    scene.meshes.push_back(mesh);
    Node node;
    node.kind = NodeKind::Mesh;
    node.object = 0;
    scene.nodes.push_back(node);
    return scene;
}

TEST(Prepare, Es2WidensHalfFloatsOnceAndEs3ReadsThemAsStored) {
    const Scene loaded = halfFloatTriangle();
    PrepareStats es2, es3;
    auto forEs2 = prepareForTarget(loaded, es2Target(), {}, &es2);
    auto forEs3 = prepareForTarget(loaded, es3Target(), {}, &es3);
    EXPECT_EQ(es2.streamsConverted, 1u);
    EXPECT_EQ(es3.streamsConverted, 0u);
    EXPECT_EQ(forEs2->meshes[0].streams[0].attributes[0].type, ComponentType::Float32);
    EXPECT_EQ(forEs3->meshes[0].streams[0].attributes[0].type, ComponentType::Float16);
    EXPECT_EQ(loaded.meshes[0].streams[0].attributes[0].type, ComponentType::Float16)
        << "the loaded scene changed";
    // ES3 keeps the file's bytes (a view into the same buffer); ES2 has its own float copy.
    EXPECT_EQ(forEs3->meshes[0].streams[0].bytes.data, loaded.meshes[0].streams[0].bytes.data);
    EXPECT_NE(forEs2->meshes[0].streams[0].bytes.data, loaded.meshes[0].streams[0].bytes.data);
    float second[3];
    std::memcpy(second, forEs2->meshes[0].streams[0].bytes.data + forEs2->meshes[0].streams[0].stride,
                sizeof(second));
    EXPECT_EQ(second[0], 1.0f);
    EXPECT_EQ(second[1], 0.0f);
    size_t warnings = 0;
    for (const ReportLine& line : forEs2->report)
        warnings +=
            line.severity == Severity::Warning && line.text.find("converted to float32") != std::string::npos;
    EXPECT_EQ(warnings, 1u);
    EXPECT_TRUE(loaded.report.empty());
}

TEST(Prepare, BatchesAreSplitForThePaletteAndTheLoadedSceneKeepsTheFilesBatches) {
    ESVIEW_REQUIRE_MODELS("pod");
    auto loaded = loadSample("pod/cocos3d/cocos3d_man.pod");
    ASSERT_TRUE(loaded);
    EXPECT_EQ(largestBatch(*loaded), 9u);  // the file's batches (pod_samples_test: max bones 9)
    PrepareStats small, large;
    auto forSmall = prepareForTarget(*loaded, es2Target(6), {}, &small);
    auto forLarge = prepareForTarget(*loaded, es3Target(64), {}, &large);
    // The body and the legs have batches over 6 bones; the belt's one batch names 9 bones but its
    // triangles fit in 6 without splitting, so it stays.
    EXPECT_EQ(small.meshesRebatched, 2u);
    EXPECT_LE(largestBatch(*forSmall), 6u);
    ASSERT_EQ(forSmall->meshes.size(), 3u);
    EXPECT_EQ(forSmall->meshes[0].boneBatches.size(), 16u);
    EXPECT_EQ(forSmall->meshes[1].boneBatches.size(), 2u);
    EXPECT_EQ(forSmall->meshes[2].boneBatches.size(), 1u);
    EXPECT_EQ(large.meshesRebatched, 0u);
    EXPECT_EQ(largestBatch(*forLarge), 9u);
    EXPECT_EQ(largestBatch(*loaded), 9u) << "the loaded scene changed";
    for (size_t m = 0; m < loaded->meshes.size(); ++m)
        EXPECT_EQ(forLarge->meshes[m].boneBatches.size(), loaded->meshes[m].boneBatches.size());
    EXPECT_EQ(loaded->meshes[0].boneBatches.size(), 2u);
}

TEST(Prepare, NormalMappedMeshGetsTangentFramesAndUnsupportedTexturesAreDecoded) {
    ESVIEW_REQUIRE_MODELS("pod");
    auto loaded = loadSample("pod/nsdk/nsdk_Bumpmap_scene.pod");
    ASSERT_TRUE(loaded);
    ASSERT_EQ(readSceneTextures(*loaded), 0);
    ASSERT_EQ(loaded->textures.size(), 2u);
    for (const Texture& t : loaded->textures) EXPECT_TRUE(isCompressed(t.image.format)) << t.path;

    PrepareStats stats;
    auto plain = prepareForTarget(*loaded, es2Target(), {}, &stats);  // samples no compressed format
    EXPECT_EQ(stats.texturesRead, 0u) << "the caller read them";
    EXPECT_EQ(stats.texturesDecoded, 2u);
    for (const Texture& t : plain->textures) EXPECT_EQ(t.image.format, PixelFormat::Rgba8) << t.path;
    for (const Texture& t : loaded->textures)
        EXPECT_TRUE(isCompressed(t.image.format)) << "the loaded scene changed";
    EXPECT_EQ(stats.tangentMeshes, 1u);
    ASSERT_TRUE(plain->meshes[0].tangentFrames);
    EXPECT_EQ(plain->meshes[0].tangentFrames->size(), plain->meshes[0].vertexCount);
    EXPECT_EQ(plain->meshes[0].vertexCount, 20443u);
    EXPECT_FALSE(loaded->meshes[0].tangentFrames);
    for (const glm::vec4& t : *plain->meshes[0].tangentFrames) {
        ASSERT_NEAR(glm::length(glm::vec3(t)), 1.0f, 1e-3f);
        ASSERT_TRUE(t.w == 1.0f || t.w == -1.0f);
    }

    // A target that samples the stored format keeps the stored image (the same bytes), except the
    // normal map, whose PVR orientation says its rows are stored bottom-up: block data cannot be
    // flipped as stored, so it is decoded for every target.
    TargetCaps native = es3Target();
    for (const Texture& t : loaded->textures) native.compressedFormats[size_t(t.image.format)] = true;
    ASSERT_FALSE(loaded->textures[0].image.bottomUp);
    ASSERT_TRUE(loaded->textures[1].image.bottomUp);
    PrepareStats nativeStats;
    auto kept = prepareForTarget(*loaded, native, {}, &nativeStats);
    EXPECT_EQ(nativeStats.texturesDecoded, 1u);
    EXPECT_EQ(kept->textures[0].image.surfaces[0].data, loaded->textures[0].image.surfaces[0].data);
    EXPECT_EQ(kept->textures[1].image.format, PixelFormat::Rgba8);
}

TEST(Prepare, ReadsTexturesWhenTheCallerHasNotAndReportsProgressToTheEnd) {
    ESVIEW_REQUIRE_MODELS("pod");
    auto loaded = loadSample("pod/cocos3d/cocos3d_man.pod");
    ASSERT_TRUE(loaded);
    ASSERT_FALSE(texturesRead(*loaded));
    std::vector<std::pair<float, std::string>> steps;
    PrepareStats stats;
    auto prepared = prepareForTarget(
        *loaded, es3Target(), [&](float f, const std::string& stage) { steps.emplace_back(f, stage); },
        &stats);
    EXPECT_EQ(stats.texturesRead, 3u);
    EXPECT_TRUE(texturesRead(*prepared));
    EXPECT_FALSE(texturesRead(*loaded)) << "the loaded scene changed";
    for (const Texture& t : prepared->textures) EXPECT_FALSE(t.placeholder) << t.path;
    ASSERT_FALSE(steps.empty());
    for (size_t i = 1; i < steps.size(); ++i)
        EXPECT_GE(steps[i].first, steps[i - 1].first) << steps[i].second;
    EXPECT_EQ(steps.back().first, 1.0f);
    EXPECT_EQ(steps.back().second, "prepared");
}

TEST(Prepare, PreparingForAnotherTargetEqualsPreparingFromScratch) {
    ESVIEW_REQUIRE_MODELS("pod");
    auto loaded = loadSample("pod/cocos3d/cocos3d_man.pod");
    ASSERT_TRUE(loaded);
    readSceneTextures(*loaded);
    const size_t reportBefore = loaded->report.size();
    auto first = prepareForTarget(*loaded, es2Target(6));
    EXPECT_LE(largestBatch(*first), 6u);
    auto second = prepareForTarget(*loaded, es3Target(60));
    auto again = prepareForTarget(*loaded, es2Target(6));
    auto fresh = loadSample("pod/cocos3d/cocos3d_man.pod");
    readSceneTextures(*fresh);
    auto scratch = prepareForTarget(*fresh, es2Target(6));
    EXPECT_EQ(loaded->report.size(), reportBefore);
    ASSERT_EQ(again->meshes.size(), scratch->meshes.size());
    for (size_t m = 0; m < again->meshes.size(); ++m) {
        const Mesh& a = again->meshes[m];
        const Mesh& b = scratch->meshes[m];
        EXPECT_EQ(a.vertexCount, b.vertexCount);
        ASSERT_EQ(a.boneBatches.size(), b.boneBatches.size());
        for (size_t i = 0; i < a.boneBatches.size(); ++i)
            EXPECT_EQ(a.boneBatches[i].bones, b.boneBatches[i].bones);
        ASSERT_EQ(a.indices.bytes.size, b.indices.bytes.size);
        EXPECT_EQ(std::memcmp(a.indices.bytes.data, b.indices.bytes.data, a.indices.bytes.size), 0);
    }
    ASSERT_EQ(again->report.size(), scratch->report.size());
    for (size_t i = 0; i < again->report.size(); ++i)
        EXPECT_EQ(again->report[i].text, scratch->report[i].text);
    EXPECT_EQ(largestBatch(*second), 9u);
}

}  // namespace
}  // namespace esv
