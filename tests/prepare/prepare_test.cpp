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

// The half-float triangle's positions as 16.16 fixed point (0, 1 and 0.5 units).
Scene fixedTriangle() {
    Scene scene = halfFloatTriangle();
    VertexStream& stream = scene.meshes[0].streams[0];
    const int32_t fixed[] = {0, 0, 0, 0x10000, 0, 0, 0, 0x8000, 0};
    std::vector<uint8_t> bytes(sizeof(fixed));
    std::memcpy(bytes.data(), fixed, sizeof(fixed));
    stream.bytes = makeOwnedBytes(std::move(bytes));
    stream.stride = 12;
    stream.attributes[0].type = ComponentType::Fixed16_16;
    return scene;
}

TEST(Prepare, WebGlWidensFixedPointWithAnInfoLine) {
    const Scene loaded = fixedTriangle();
    for (int es : {2, 3}) {
        TargetCaps webgl = es == 2 ? es2Target() : es3Target();
        webgl.fixedAttributes = false;
        PrepareStats stats, nativeStats;
        auto forWebgl = prepareForTarget(loaded, webgl, {}, &stats);
        auto forNative = prepareForTarget(loaded, es == 2 ? es2Target() : es3Target(), {}, &nativeStats);
        EXPECT_EQ(stats.streamsConverted, 1u) << "ES " << es;
        EXPECT_EQ(nativeStats.streamsConverted, 0u) << "ES contexts read GL_FIXED";
        const VertexStream& converted = forWebgl->meshes[0].streams[0];
        ASSERT_EQ(converted.attributes[0].type, ComponentType::Float32);
        float second[3], third[3];
        std::memcpy(second, converted.bytes.data + converted.stride, sizeof(second));
        std::memcpy(third, converted.bytes.data + 2 * converted.stride, sizeof(third));
        EXPECT_EQ(second[0], 1.0f);
        EXPECT_EQ(third[1], 0.5f);
        // Nothing lost and nothing the user could change: an info line, no warning.
        size_t infos = 0;
        for (const ReportLine& line : forWebgl->report) {
            EXPECT_NE(line.severity, Severity::Warning) << line.text;
            infos += line.severity == Severity::Info && line.text.find("fixed-point") != std::string::npos;
        }
        EXPECT_EQ(infos, 1u);
    }
    // Half floats on WebGL 1 (ES2 rules) still warn, fixed point or not.
    TargetCaps webgl1 = es2Target();
    webgl1.fixedAttributes = false;
    const Scene half = halfFloatTriangle();
    const std::unique_ptr<Scene> prepared = prepareForTarget(half, webgl1);
    size_t warnings = 0;
    for (const ReportLine& line : prepared->report)
        warnings +=
            line.severity == Severity::Warning && line.text.find("converted to float32") != std::string::npos;
    EXPECT_EQ(warnings, 1u);
}

// ES 2 has no texture unit left for KHR_materials_specular's maps (units 9 and 10 on ES 3): an
// information line per metal/rough material that has one, naming the maps; none on ES 3, none for
// a material with the factors alone, none for a classic material (which never samples them).
TEST(Prepare, Es2NotesTheSpecularMapsItCannotDraw) {
    Scene loaded;
    Texture texture;
    texture.name = "map";
    texture.image.width = texture.image.height = 1;
    texture.image.surfaces.push_back(makeOwnedBytes({255, 255, 255, 255}));
    loaded.textures.push_back(texture);
    Material both, tint, factors, classic;
    both.name = "both", tint.name = "tint", factors.name = "factors", classic.name = "classic";
    both.model = tint.model = factors.model = ShadingModel::MetalRough;
    both.texture(TextureSlot::SpecularStrength).texture = 0;
    both.texture(TextureSlot::SpecularTint).texture = 0;
    tint.texture(TextureSlot::SpecularTint).texture = 0;
    factors.specularFactor = 0.5f;
    classic.texture(TextureSlot::SpecularStrength).texture = 0;
    loaded.materials = {both, tint, factors, classic};
    PrepareStats stats;
    const std::unique_ptr<Scene> es2 = prepareForTarget(loaded, es2Target(), {}, &stats);
    EXPECT_EQ(stats.specularMapsUndrawn, 2u);
    std::vector<std::string> lines;
    for (const ReportLine& line : es2->report)
        if (line.text.find("KHR_materials_specular") != std::string::npos) {
            EXPECT_EQ(line.severity, Severity::Info) << line.text;
            lines.push_back(line.text);
        }
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "material 'both': KHR_materials_specular's specularTexture and specularColorTexture are "
                        "not drawn on ES 2 (no texture unit left: the other maps take all 8); its factors are");
    EXPECT_EQ(lines[1], "material 'tint': KHR_materials_specular's specularColorTexture is not drawn on ES 2 (no "
                        "texture unit left: the other maps take all 8); its factors are");
    // The maps stay in the prepared scene (the panel shows them); the renderer leaves them out.
    EXPECT_EQ(es2->materials[0].texture(TextureSlot::SpecularStrength).texture, 0);
    const std::unique_ptr<Scene> es3 = prepareForTarget(loaded, es3Target(), {}, &stats);
    EXPECT_EQ(stats.specularMapsUndrawn, 0u);
    for (const ReportLine& line : es3->report) EXPECT_EQ(line.text.find("KHR_materials_specular"), std::string::npos);
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

// ---------------------------------------------------------------------------------------------
// The strict ES 2.0 profile's adaptations (TargetCaps as targetCaps() fills them for a renderer
// with RendererOptions::gles2Strict: no NPOT, 2048 texels, no 32-bit indices).

TargetCaps strictTarget() {
    TargetCaps t = es2Target();
    t.npotTextures = false;
    t.maxTextureSize = 2048;
    return t;
}

// An RGBA8 texture of width x height whose texel (x, y) is (x, y, 7, 255) modulo 256.
Texture gradientTexture(const std::string& name, uint32_t width, uint32_t height) {
    Texture t;
    t.name = name;
    t.image.width = width;
    t.image.height = height;
    std::vector<uint8_t> rgba(size_t(width) * height * 4);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
            p[0] = uint8_t(x);
            p[1] = uint8_t(y);
            p[2] = 7;
            p[3] = 255;
        }
    t.image.surfaces.push_back(makeOwnedBytes(std::move(rgba)));
    return t;
}

size_t countLines(const Scene& scene, const std::string& part) {
    return size_t(std::count_if(scene.report.begin(), scene.report.end(), [&](const ReportLine& l) {
        return l.severity == Severity::Warning && l.text.find(part) != std::string::npos;
    }));
}

TEST(StrictPrepare, NonPowerOfTwoTexturesAreResizedUpWithOneLineEach) {
    Scene loaded;
    loaded.textures.push_back(gradientTexture("npot", 3, 5));
    loaded.textures.push_back(gradientTexture("pot", 4, 8));
    PrepareStats stats;
    auto prepared = prepareForTarget(loaded, strictTarget(), {}, &stats);
    EXPECT_EQ(stats.texturesResized, 1u);
    EXPECT_EQ(prepared->textures[0].image.width, 4u);
    EXPECT_EQ(prepared->textures[0].image.height, 8u);
    EXPECT_EQ(prepared->textures[0].image.levels, 1u);
    EXPECT_EQ(prepared->textures[0].image.surface(0).size, 4u * 8u * 4u);
    EXPECT_EQ(prepared->textures[1].image.width, 4u);  // a power of two already
    EXPECT_EQ(countLines(*prepared, "texture 'npot': resized from 3x5 to 4x8"), 1u);
    EXPECT_EQ(countLines(*prepared, "GL_OES_texture_npot"), 1u);
    // The loaded scene keeps its image; ES3 and plain ES2 targets resize nothing.
    EXPECT_EQ(loaded.textures[0].image.width, 3u);
    PrepareStats es3;
    prepareForTarget(loaded, es3Target(), {}, &es3);
    EXPECT_EQ(es3.texturesResized, 0u);
    PrepareStats es2;
    prepareForTarget(loaded, es2Target(), {}, &es2);
    EXPECT_EQ(es2.texturesResized, 0u);
}

// A cube map's faces must be square: non-square faces of 3x5 become 8x8 (the larger power of two on
// both sides), every face of it, not 4x8.
TEST(StrictPrepare, NonSquareCubeFacesAreMadeSquare) {
    Scene loaded;
    Texture cube = gradientTexture("cube", 3, 5);
    cube.image.faces = 6;
    const ByteView face = cube.image.surfaces[0];
    for (int f = 1; f < 6; ++f) cube.image.surfaces.push_back(face);
    ASSERT_TRUE(cube.image.isCube());
    loaded.textures.push_back(cube);
    PrepareStats stats;
    auto prepared = prepareForTarget(loaded, strictTarget(), {}, &stats);
    EXPECT_EQ(stats.texturesResized, 1u);
    const Image& image = prepared->textures[0].image;
    EXPECT_EQ(image.width, 8u);
    EXPECT_EQ(image.height, 8u);
    EXPECT_EQ(image.faces, 6u);
    ASSERT_EQ(image.surfaces.size(), 6u);
    for (size_t f = 0; f < 6; ++f) EXPECT_EQ(image.surfaces[f].size, 8u * 8u * 4u) << "face " << f;
    EXPECT_EQ(countLines(*prepared, "texture 'cube': resized from 3x5 to 8x8"), 1u);
}

TEST(StrictPrepare, TexturesAboveTheSizeLimitAreDownscaledKeepingTheirAspect) {
    Scene loaded;
    loaded.textures.push_back(gradientTexture("wide", 4096, 1024));
    loaded.textures.push_back(gradientTexture("odd", 3000, 100));
    PrepareStats stats;
    auto prepared = prepareForTarget(loaded, strictTarget(), {}, &stats);
    EXPECT_EQ(stats.texturesResized, 2u);
    EXPECT_EQ(prepared->textures[0].image.width, 2048u);
    EXPECT_EQ(prepared->textures[0].image.height, 512u);
    EXPECT_EQ(countLines(*prepared, "above GL_MAX_TEXTURE_SIZE 2048"), 1u);
    // 3000x100 -> 2048x68 for the limit, then powers of two: 2048x128 (rounded up, within the limit).
    EXPECT_EQ(prepared->textures[1].image.width, 2048u);
    EXPECT_EQ(prepared->textures[1].image.height, 128u);
    for (const Texture& t : prepared->textures)
        EXPECT_EQ(t.image.surface(0).size, size_t(t.image.width) * t.image.height * 4);
}

TEST(StrictPrepare, ResizeKeepsAConstantImageConstantAndFiltersAGradient) {
    Texture constant = gradientTexture("c", 6, 6);
    std::vector<uint8_t> grey(6 * 6 * 4, 128);
    constant.image.surfaces[0] = makeOwnedBytes(std::move(grey));
    for (auto [w, h] : {std::pair<uint32_t, uint32_t>{8, 8}, {4, 2}, {1, 1}}) {
        const Image out = resizeImage(constant.image, w, h);
        ASSERT_EQ(out.surface(0).size, size_t(w) * h * 4);
        for (size_t i = 0; i < out.surface(0).size; ++i)
            ASSERT_EQ(out.surface(0).data[i], 128) << w << "x" << h;
    }
    // A horizontal ramp 0..255 over 256 texels halved: texel x averages source 2x and 2x+1.
    const Image ramp = gradientTexture("r", 256, 1).image;
    const Image half = resizeImage(ramp, 128, 1);
    for (uint32_t x = 0; x < 128; ++x) EXPECT_NEAR(half.surface(0).data[x * 4], 2.0 * x + 0.5, 1.0) << x;
}

// A mesh of `count` 32-bit indices counting from `first`.
Mesh uintIndexedMesh(const std::string& name, uint32_t first, uint32_t count) {
    Mesh mesh;
    mesh.name = name;
    std::vector<uint8_t> bytes(size_t(count) * 4);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t v = first + i;
        std::memcpy(&bytes[size_t(i) * 4], &v, 4);
    }
    mesh.indices.type = ComponentType::UInt32;
    mesh.indices.count = count;
    mesh.indices.bytes = makeOwnedBytes(std::move(bytes));
    return mesh;
}

TEST(StrictPrepare, ThirtyTwoBitIndicesAreNarrowedWhereTheyFitSixteenBits) {
    Scene loaded;
    loaded.meshes.push_back(uintIndexedMesh("fits", 65530, 6));   // 65530 .. 65535
    loaded.meshes.push_back(uintIndexedMesh("large", 65534, 3));  // 65534 .. 65536
    PrepareStats stats;
    auto prepared = prepareForTarget(loaded, strictTarget(), {}, &stats);
    EXPECT_EQ(stats.indexListsNarrowed, 1u);
    EXPECT_EQ(stats.indexListsTooLarge, 1u);
    const IndexData& narrowed = prepared->meshes[0].indices;
    ASSERT_EQ(narrowed.type, ComponentType::UInt16);
    ASSERT_EQ(narrowed.count, 6u);
    ASSERT_EQ(narrowed.bytes.size, 12u);
    for (uint32_t i = 0; i < 6; ++i) {
        uint16_t v;
        std::memcpy(&v, narrowed.bytes.data + i * 2, 2);
        EXPECT_EQ(v, 65530 + i);
    }
    EXPECT_EQ(countLines(*prepared, "mesh 'fits': 6 32-bit indices narrowed to 16 bits"), 1u);
    EXPECT_EQ(prepared->meshes[1].indices.type, ComponentType::UInt32);
    EXPECT_EQ(countLines(*prepared, "mesh 'large': indices above 65535 need GL_OES_element_index_uint"), 1u);
    // The loaded scene keeps its 32-bit list; a target with 32-bit indices narrows nothing.
    EXPECT_EQ(loaded.meshes[0].indices.type, ComponentType::UInt32);
    PrepareStats es3;
    prepareForTarget(loaded, es3Target(), {}, &es3);
    EXPECT_EQ(es3.indexListsNarrowed, 0u);
}

}  // namespace
}  // namespace esv
