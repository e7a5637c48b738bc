// The cost report (cost/cost_report.h): its cache, fetch and overdraw figures against
// meshoptimizer's own calls on the same data, the FIFO model against a case counted by hand, the
// GPU bytes of every shared PVR and DDS texture against the data bytes of its file, and the frame
// and limits of a skinned sample on small devices.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <meshoptimizer.h>

#include "common/test_paths.h"
#include "cost/cost_report.h"
#include "loaders/load.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/scene_textures.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "target/binding_plan.h"
#include "target/texture_plan.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

// A triangle list over positions (float x, y, z), one stream, 16-bit indices.
Scene listScene(const std::vector<glm::vec3>& positions, const std::vector<uint16_t>& indices) {
    Scene scene;
    scene.format = "test";
    Mesh mesh;
    mesh.name = "list";
    mesh.vertexCount = uint32_t(positions.size());
    VertexStream stream;
    std::vector<uint8_t> bytes(positions.size() * 12);
    std::memcpy(bytes.data(), positions.data(), bytes.size());
    stream.bytes = makeOwnedBytes(std::move(bytes));
    stream.stride = 12;
    stream.count = mesh.vertexCount;
    stream.attributes = {{Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0}};
    mesh.streams.push_back(stream);
    std::vector<uint8_t> indexBytes(indices.size() * 2);
    std::memcpy(indexBytes.data(), indices.data(), indexBytes.size());
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = uint32_t(indices.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(indexBytes));
    Submesh sub;
    sub.indexCount = uint32_t(indices.size());
    mesh.submeshes.push_back(sub);
    scene.meshes.push_back(mesh);
    Node node;
    node.name = "list";
    node.kind = NodeKind::Mesh;
    node.object = 0;
    scene.nodes.push_back(node);
    scene.materials.push_back(Material{});
    scene.nodes[0].materials = {0};
    return scene;
}

// Five triangles over six vertices through a 3-entry FIFO, by hand:
//   (0 1 2) misses all three: cache 0 1 2, 3 transformed
//   (1 2 3) misses 3: cache 1 2 3, 4       (2 3 4) misses 4: cache 2 3 4, 5
//   (3 4 5) misses 5: cache 3 4 5, 6       (0 1 5) misses 0 and 1, hits 5: cache 5 0 1, 8
// ACMR 8 / 5 triangles = 1.6, ATVR 8 / 6 vertices.
TEST(CostMesh, FifoFiguresMatchACaseCountedByHand) {
    const Scene scene = listScene({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 0, 0}, {2, 1, 0}},
                                  {0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 0, 1, 5});
    DeviceProfile device = *findDevice("sgx540");
    device.vertexCache = 3;
    const MeshCost m = analyzeMesh(scene, 0, device);
    EXPECT_EQ(m.triangles, 5u);
    EXPECT_EQ(m.verticesTransformed, 8u);
    EXPECT_FLOAT_EQ(m.acmr, 1.6f);
    EXPECT_FLOAT_EQ(m.atvr, 8.0f / 6.0f);
    // With the cache large enough for the whole mesh, each vertex once: ATVR 1.
    device.vertexCache = 16;
    const MeshCost big = analyzeMesh(scene, 0, device);
    EXPECT_EQ(big.verticesTransformed, 6u);
    EXPECT_FLOAT_EQ(big.atvr, 1.0f);
    EXPECT_EQ(m.vertexBytes, 72u);
    EXPECT_EQ(m.indexBytes, 30u);
    EXPECT_EQ(m.duplicateVertices, 0u);
}

// Every figure of every mesh of the demo and of the shared samples equals meshoptimizer's own calls
// on the triangles expandTriangles gives, for two cache sizes.
void expectMeshoptFigures(const Scene& scene, const std::string& what) {
    for (const char* name : {"sgx540", "ge8320"}) {
        const DeviceProfile& device = *findDevice(name);
        for (size_t i = 0; i < scene.meshes.size(); ++i) {
            SCOPED_TRACE(what + " mesh " + std::to_string(i) + " " + name);
            const Mesh& mesh = scene.meshes[i];
            const MeshCost m = analyzeMesh(scene, i, device);
            std::vector<uint32_t> tris;
            expandTriangles(mesh, tris);
            ASSERT_EQ(m.triangles, tris.size() / 3);
            if (tris.empty()) continue;
            const auto stored = meshopt_analyzeVertexCache(tris.data(), tris.size(), mesh.vertexCount, device.vertexCache, 0, 0);
            EXPECT_EQ(m.acmr, stored.acmr);
            EXPECT_EQ(m.atvr, stored.atvr);
            EXPECT_EQ(m.verticesTransformed, stored.vertices_transformed);
            std::vector<uint32_t> better(tris.size());
            meshopt_optimizeVertexCache(better.data(), tris.data(), tris.size(), mesh.vertexCount);
            const auto optimized = meshopt_analyzeVertexCache(better.data(), better.size(), mesh.vertexCount, device.vertexCache, 0, 0);
            EXPECT_EQ(m.acmrOptimized, optimized.acmr);
            EXPECT_EQ(m.atvrOptimized, optimized.atvr);
            EXPECT_LE(m.acmrOptimized, m.acmr + 1e-6f) << "the optimized order is no worse";
            uint64_t fetched = 0, size = 0;
            for (const VertexStream& s : mesh.streams) {
                fetched += meshopt_analyzeVertexFetch(tris.data(), tris.size(), mesh.vertexCount, s.stride).bytes_fetched;
                size += uint64_t(mesh.vertexCount) * s.stride;
            }
            EXPECT_EQ(m.bytesFetched, fetched);
            EXPECT_FLOAT_EQ(m.overfetch, float(double(fetched) / double(size)));
            // Overdraw over the positions as the shader places them (unpack applied).
            std::vector<float> xyz(size_t(mesh.vertexCount) * 3);
            const VertexStream* s = nullptr;
            const VertexAttribute* a = findAttribute(mesh, Semantic::Position, 0, &s);
            ASSERT_TRUE(a && s);
            for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
                float p[4] = {0, 0, 0, 1};
                readAttribute(*s, *a, v, p);
                const glm::vec4 q = mesh.positionUnpack * glm::vec4(p[0], p[1], p[2], 1.0f);
                std::memcpy(&xyz[size_t(v) * 3], &q[0], 12);
            }
            EXPECT_EQ(m.overdraw, meshopt_analyzeOverdraw(tris.data(), tris.size(), xyz.data(), mesh.vertexCount, 12).overdraw);
        }
    }
}

TEST(CostMesh, FiguresAreMeshoptimizersOwnOnTheDemoAndSamples) {
    expectMeshoptFigures(makeDemoScene(), "demo");
    for (const char* file : {"pod/cocos3d/cocos3d_man.pod", "pod/nsdk/nsdk_Bumpmap_scene.pod", "pof/air_F-14.pof",
                             "ogex/assimp_animation_example.ogex", "awd/PolarBear.awd"}) {
        const fs::path path = test::modelsDir() / file;
        if (!fs::exists(path)) {
            ESVIEW_REQUIRE_MODELS("pod");
            continue;
        }
        LoadResult r = loadSceneFile(path.string());
        ASSERT_TRUE(r.scene) << file;
        expectMeshoptFigures(*r.scene, file);
    }
}

// The data bytes of a PVR (v3: after the 52-byte header and its metadata; v2: after its header)
// or DDS (after "DDS " and the 124-byte header, and the DX10 header when there is one) file.
uint64_t dataBytes(const std::vector<uint8_t>& f) {
    auto u32 = [&](size_t at) { uint32_t v; std::memcpy(&v, &f[at], 4); return v; };
    if (f.size() >= 52 && u32(0) == 0x03525650u) return f.size() - 52 - u32(48);
    if (f.size() >= 52 && std::memcmp(&f[44], "PVR!", 4) == 0) return f.size() - u32(0);
    if (f.size() >= 128 && std::memcmp(f.data(), "DDS ", 4) == 0)
        return f.size() - 128 - (std::memcmp(&f[84], "DX10", 4) == 0 ? 20 : 0);
    return 0;
}

TEST(CostTexture, GpuBytesOfEverySharedPvrAndDdsWithItsMipChainAreItsDataBytes) {
    ESVIEW_REQUIRE_MODELS("pod");
    size_t checked = 0;
    for (const auto& entry : fs::recursive_directory_iterator(test::modelsDir())) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".pvr" && ext != ".dds") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        Scene scene = listScene({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
        Texture texture;
        texture.name = entry.path().filename().string();
        std::string error;
        auto bytes = std::make_shared<const std::vector<uint8_t>>(file);
        ASSERT_TRUE(readImage(ByteView{bytes, bytes->data(), bytes->size()}, texture.image, error)) << error;
        const Image& image = texture.image;
        const bool chain = image.levels > 1;
        // A device that samples the format as stored, at any size: ge8320 (PVRTC, ETC, ASTC) or
        // desktop (BC).
        TargetCaps probe = deviceTargetCaps(*findDevice("ge8320"));
        const DeviceProfile& device = *findDevice(probe.supports(image.format) ? "ge8320" : "desktop");
        scene.textures.push_back(texture);
        const CostReport r = analyzeCost(scene, device);
        ASSERT_EQ(r.textures.size(), 1u);
        const TextureCost& t = r.textures[0];
        SCOPED_TRACE(entry.path().string() + " " + t.format + " " + std::to_string(t.mipLevels) + " levels on " + device.name);
        if (!isCompressed(image.format)) continue;  // other layouts are widened to RGBA8 as they are read
        EXPECT_EQ(t.storedBytes, dataBytes(file));
        if (chain && image.levels == fullMipChain(image.width, image.height)) {
            EXPECT_EQ(t.gpuBytes, dataBytes(file));
            EXPECT_TRUE(t.usableAsIs) << (t.problems.empty() ? "" : t.problems[0]);
            ++checked;
        }
    }
    EXPECT_GE(checked, 5u) << "the shared PVR files with mip chains";
}

// KTX files (tests/textures/ktx: written by make_ktx_fixtures.py and ktx-parse at build time) go the
// same container-agnostic way: a format the device samples costs its stored chain, else the decoded
// RGBA8. ETC1 16x8 with its full chain of 5 levels: 64 + 16 + 8 + 8 + 8 bytes; the ETC2 RGBA cube
// 8x8 with 4 levels: 6 x (64 + 16 + 16 + 16); ASTC 6x6 KTX2 (Zstandard) 37x23, 3 of 6 levels
// (7x4, 3x2 and 2x1 blocks of 16 bytes). On the strict ES 2.0 profile (no compressed format) the
// power-of-two ones cost their RGBA8 decode with a generated chain.
TEST(CostTexture, KtxTexturesCostTheirStoredChainWhereSampledElseTheDecodedSize) {
    const fs::path dir = test::outputDir() / "ktx";
    if (!fs::exists(dir / "ktx1.done")) GTEST_SKIP() << "the KTX fixtures were not generated (target ktx_fixtures)";
    struct Case {
        const char* file;
        uint64_t stored;
    };
    std::vector<Case> cases = {{"etc1_le.ktx", 104}, {"etc1_be.ktx", 104}, {"etc2_cube.ktx", 672}};
    if (fs::exists(dir / "ktx2.done")) {
        cases.push_back({"etc2_cube.ktx2", 672});
        cases.push_back({"astc6x6_zstd.ktx2", 448 + 96 + 32});
    }
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        std::ifstream in(dir / c.file, std::ios::binary);
        const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        Scene scene = listScene({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
        Texture texture;
        texture.name = c.file;
        std::string error;
        ASSERT_TRUE(readImage(makeOwnedBytes(file), texture.image, error)) << error;
        scene.textures.push_back(texture);
        const Image& image = texture.image;
        // ge8320 samples ETC1, ETC2 and ASTC as stored; strict-es2 samples no compressed format.
        const CostReport sampled = analyzeCost(scene, *findDevice("ge8320"));
        ASSERT_EQ(sampled.textures.size(), 1u);
        EXPECT_EQ(sampled.textures[0].container, image.container);
        EXPECT_EQ(sampled.textures[0].storedBytes, c.stored);
        EXPECT_EQ(sampled.textures[0].gpuBytes, c.stored);
        EXPECT_EQ(sampled.textures[0].mipLevels, image.levels);
        EXPECT_EQ(sampled.textures[0].faces, image.faces);
        if (image.format == PixelFormat::Astc) continue;  // 37x23: resized to powers of two on ES 2.0
        const CostReport decoded = analyzeCost(scene, *findDevice("strict-es2"));
        ASSERT_EQ(decoded.textures.size(), 1u);
        EXPECT_FALSE(decoded.textures[0].usableAsIs);
        // The decoded RGBA8 with its generated chain: every level down to 1x1, per face.
        uint64_t rgba = 0;
        for (uint32_t l = 0; l < fullMipChain(image.width, image.height); ++l)
            rgba += uint64_t(image.levelWidth(l)) * image.levelHeight(l) * 4 * image.faces;
        EXPECT_EQ(decoded.textures[0].gpuBytes, rgba);
    }
}

// An RGBA8 1024x1024 texture: 4 MiB, 5.33 MiB with its generated chain; on an SGX it is suggested
// as PVRTC 4bpp (682.8 KiB with mips), on a GE8320 as ASTC 6x6.
TEST(CostTexture, UncompressedTexturesGetASuggestionWithItsSize) {
    Scene scene = listScene({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2});
    Texture texture;
    texture.name = "albedo";
    texture.image.width = texture.image.height = 1024;
    texture.image.container = "test";
    texture.image.surfaces.push_back(makeOwnedBytes(std::vector<uint8_t>(1024 * 1024 * 4, 255)));
    scene.textures.push_back(texture);
    const CostReport sgx = analyzeCost(scene, *findDevice("sgx540"));
    ASSERT_EQ(sgx.textures.size(), 1u);
    EXPECT_EQ(sgx.textures[0].gpuBytes, 4ull * 1024 * 1024 * 4 / 3);
    uint64_t pvrtc = 0;
    for (uint32_t s = 1024; s >= 1; s /= 2) pvrtc += std::max<uint64_t>(uint64_t(s) * s / 2, 32);
    EXPECT_EQ(sgx.textures[0].suggestedBytes, pvrtc);
    EXPECT_NE(sgx.textures[0].suggestion.find("1024x1024 RGBA8, 5.33 MiB with mips; PVRTC 4bpp: 682.8 KiB"), std::string::npos)
        << sgx.textures[0].suggestion;
    const CostReport rogue = analyzeCost(scene, *findDevice("ge8320"));
    EXPECT_NE(rogue.textures[0].suggestion.find("ASTC 6x6"), std::string::npos) << rogue.textures[0].suggestion;
}

// The skinned man: the frame draws each batch range, and a device whose palette is smaller than a
// batch says so and has it re-batched.
TEST(CostFrame, SkinnedManOnSmallAndLargeDevices) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult r = loadSceneFile((test::modelsDir() / "pod/cocos3d/cocos3d_man.pod").string());
    ASSERT_TRUE(r.scene);
    readSceneTextures(*r.scene);
    const CostReport large = analyzeCost(*r.scene, *findDevice("ge8320"));
    EXPECT_EQ(large.frame.draws, 4u) << "3 nodes, the body in 2 batches";
    uint32_t triangles = 0, bones = 0;
    for (const MeshCost& m : large.meshes) {
        triangles += m.triangles;
        for (const BatchCost& b : m.batches) bones = std::max(bones, b.bones);
    }
    EXPECT_EQ(large.frame.triangles, triangles);
    EXPECT_EQ(large.totals.maxBonesPerBatch, bones);
    EXPECT_TRUE(large.overLimits.empty()) << large.overLimits.front();
    // A device with a palette of 4 bones, below the largest batch: the batch is over, and
    // preparation splits it into more, smaller ones.
    ASSERT_GT(bones, 4u);
    DeviceProfile tiny = *findDevice("sgx540");
    tiny.limits.vertexUniformVectors = kReservedVertexVectors + 4 * 4;
    const CostReport small = analyzeCost(*r.scene, tiny);
    ASSERT_FALSE(small.overLimits.empty());
    EXPECT_NE(small.overLimits.front().find("exceeds the device's palette of 4"), std::string::npos)
        << small.overLimits.front();
    EXPECT_GT(small.frame.draws, large.frame.draws) << "more, smaller batches";
    bool rebatched = false;
    for (const std::string& line : small.preparation) rebatched |= line.find("re-batched for 4 bones per batch") != std::string::npos;
    EXPECT_TRUE(rebatched) << "the preparation's line is in the report";
}

// A skinned mesh stored without batches draws with the joints its vertices weight, not every joint
// of its skin: PolarBear's skin lists 31 joints, and preparation puts its weighted ones in one batch
// of the SGX 540's 28 (its report line says so), so the cost report calls nothing over the limit.
TEST(CostMesh, UnbatchedSkinsCountTheJointsTheirWeightsUse) {
    ESVIEW_REQUIRE_MODELS("awd");
    LoadResult r = loadSceneFile((test::modelsDir() / "awd/PolarBear.awd").string());
    ASSERT_TRUE(r.scene);
    ASSERT_EQ(r.scene->skins.size(), 1u);
    const size_t skinJoints = r.scene->skins[0].joints.size();
    const CostReport report = analyzeCost(*r.scene, *findDevice("sgx540"));
    ASSERT_EQ(report.meshes.size(), 1u);
    ASSERT_EQ(report.meshes[0].batches.size(), 1u);
    const uint32_t bones = report.meshes[0].batches[0].bones;
    EXPECT_LT(bones, skinJoints);
    EXPECT_LE(bones, uint32_t(devicePaletteCapacity(*findDevice("sgx540"))));
    EXPECT_FALSE(report.meshes[0].batches[0].overLimit);
    EXPECT_TRUE(report.overLimits.empty()) << report.overLimits.front();
    bool oneBatch = false;
    for (const std::string& line : report.preparation) oneBatch |= line.find("-> 1 batches") != std::string::npos;
    EXPECT_TRUE(oneBatch) << "preparation fits it in one batch";
}

}  // namespace
}  // namespace esv
