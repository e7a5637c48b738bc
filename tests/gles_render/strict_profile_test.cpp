// The strict ES 2.0 device profile (RendererOptions::gles2Strict, `--gles2-strict`): what the
// renderer sees of the context (no extension, the limits of target/strict_profile.h), and every
// shared sample drawn under it against the same view drawn with ES3, under the golden rule
// (tests/common/image_compare.h), with a table of what each sample needed adapted.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli/commands.h"
#include "common/image_compare.h"
#include "common/render_harness.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"
#include "loaders/format_table.h"
#include "loaders/load.h"
#include "loaders/textures/scene_textures.h"
#include "renderer/shader_program.h"
#include "target/strict_profile.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/vertex_windows.h"

namespace {

namespace fs = std::filesystem;

TEST(StrictProfile, RendererSeesNoExtensionAndTheProfilesLimits) {
    esv::test::RenderHarness harness(true, 64, 64, true, /*strict=*/true);
    ASSERT_TRUE(harness.ok());
    const esv::RendererInfo info = harness.info();
    EXPECT_TRUE(info.strict);
    EXPECT_FALSE(info.es3);
    EXPECT_FALSE(info.vertexArrays);   // no OES_vertex_array_object
    EXPECT_FALSE(info.uintIndices);    // no OES_element_index_uint
    EXPECT_FALSE(info.npotTextures);   // no OES_texture_npot
    EXPECT_FALSE(info.floatTextures);  // no OES_texture_float
    EXPECT_FALSE(info.gpuTimer);       // no EXT_disjoint_timer_query
    EXPECT_FALSE(info.fragmentHighp);  // GL_FRAGMENT_PRECISION_HIGH treated as undefined
    for (size_t f = 0; f < size_t(esv::PixelFormat::Count); ++f)
        EXPECT_FALSE(info.compressedFormats[f]) << esv::pixelFormatName(esv::PixelFormat(f));
    EXPECT_EQ(info.maxVertexUniformVectors, esv::kStrictLimits.vertexUniformVectors);
    EXPECT_EQ(info.maxFragmentUniformVectors, esv::kStrictLimits.fragmentUniformVectors);
    EXPECT_EQ(info.maxVertexAttribs, esv::kStrictLimits.vertexAttribs);
    EXPECT_EQ(info.maxTextureUnits, esv::kStrictLimits.textureUnits);
    EXPECT_EQ(info.maxTextureSize, esv::kStrictLimits.maxTextureSize);
    const esv::TargetCaps target = harness.target();
    EXPECT_EQ(target.esVersion, 2);
    EXPECT_FALSE(target.uintIndices);
    EXPECT_FALSE(target.npotTextures);
    EXPECT_EQ(target.maxTextureSize, esv::kStrictLimits.maxTextureSize);
    // Plain ES2 mode keeps what the context lists and the renderer's own NPOT fallback.
    esv::test::RenderHarness plain(true, 64, 64);
    ASSERT_TRUE(plain.ok());
    EXPECT_FALSE(plain.info().strict);
    EXPECT_TRUE(plain.info().fragmentHighp);
    EXPECT_TRUE(plain.target().npotTextures);
}

struct SampleRun {
    std::string name;
    bool drawn = false;
    esv::test::Image strict, es3;
    // ES3 with the textures decoded as the strict profile decodes them (no compressed format), for
    // samples whose compressed textures the strict profile had to decode.
    esv::test::Image es3Decoded;
    esv::PrepareStats prepared;
    esv::FrameStats stats;
    int fragmentVectors = 0;
    std::vector<std::string> adaptations;  // the warnings preparation, upload and the frame added
};

// Every shared sample that loads, drawn at rest and framed, under the strict profile and with ES3:
// the pictures meet the golden rule against each other, no draw makes a GL error, and no program
// is over the profile's fragment uniform budget.
TEST(StrictProfile, EverySharedSampleMatchesItsEs3Render) {
    ESVIEW_REQUIRE_MODELS("");
    constexpr int kWidth = 320, kHeight = 240;
    std::vector<SampleRun> runs;
    std::vector<std::unique_ptr<esv::Scene>> scenes;
    for (const fs::path& path : esv::test::sharedModelFiles()) {
        esv::LoadResult r = esv::loadSceneFile(path.string());
        if (!r.scene) continue;  // files that fail to load are other tests' business
        SampleRun run;
        run.name = fs::relative(path, esv::test::modelsDir()).string();
        runs.push_back(run);
        scenes.push_back(std::move(r.scene));
    }
    ASSERT_GE(runs.size(), 50u);
    {
        esv::test::RenderHarness strict(true, kWidth, kHeight, true, /*strict=*/true);
        ASSERT_TRUE(strict.ok());
        for (size_t i = 0; i < runs.size(); ++i) {
            SampleRun& run = runs[i];
            if (!strict.setScene(*scenes[i], &run.prepared)) continue;
            esv::test::Rendered r = strict.drawAt(-1.0f, esv::ViewSettings{});
            run.strict = r.image;
            run.stats = r.stats;
            run.drawn = true;
            for (size_t l = scenes[i]->report.size(); l < strict.report().size(); ++l)
                if (strict.report()[l].severity == esv::Severity::Warning)
                    run.adaptations.push_back(strict.report()[l].text);
            for (const std::string& note : r.stats.notes) run.adaptations.push_back(note);
            run.fragmentVectors = strict.info().fragmentUniformVectorsUsed;
        }
    }
    {
        esv::test::RenderHarness es3(false, kWidth, kHeight);
        ASSERT_TRUE(es3.ok());
        for (size_t i = 0; i < runs.size(); ++i) {
            if (!runs[i].drawn || !es3.setScene(*scenes[i])) continue;
            runs[i].es3 = es3.drawAt(-1.0f, esv::ViewSettings{}).image;
            if (runs[i].prepared.texturesDecoded == 0) continue;
            esv::TargetCaps decoding = es3.target();
            decoding.compressedFormats = {};
            if (es3.setScene(*scenes[i], decoding))
                runs[i].es3Decoded = es3.drawAt(-1.0f, esv::ViewSettings{}).image;
        }
    }
    const esv::test::GoldenRule rule;
    const fs::path dir = esv::test::outputDir() / "strict_profile";
    fs::create_directories(dir);
    std::string table =
        "sample | model px | off% | mean diff | decoded tex | resized tex | narrowed idx | "
        "cpu morph | most frag vectors so far | other warnings\n";
    size_t compared = 0, adapted = 0;
    for (const SampleRun& run : runs) {
        if (!run.drawn) {
            ADD_FAILURE() << run.name << ": not drawn under the strict profile";
            continue;
        }
        const esv::test::CompareResult c = esv::test::compareImages(run.strict, run.es3, rule.tolerance);
        std::string broken = esv::test::brokenRules(c, rule);
        // A compressed texture ES3 samples as stored but the strict profile decodes (no S3TC, ETC or
        // PVRTC there) differs where the stored image has no mip chain: decoded RGBA8 images get
        // generated mipmaps, compressed ones cannot. Such a sample must then match ES3 drawing the
        // same decoded textures: what is left is the strict profile's own doing.
        std::string decodedNote;
        if (!broken.empty() && !run.es3Decoded.rgba.empty()) {
            const esv::test::CompareResult d =
                esv::test::compareImages(run.strict, run.es3Decoded, rule.tolerance);
            decodedNote = " (against ES3 with the same decoded textures: " +
                          std::to_string(100.0 * d.modelFraction).substr(0, 4) + "% off)";
            broken = esv::test::brokenRules(d, rule);
            if (!broken.empty()) broken += " against ES3 drawing the same decoded textures";
        }
        std::string other;
        for (const std::string& line : run.adaptations)
            if (line.find("resized from") == std::string::npos &&
                line.find("narrowed to 16 bits") == std::string::npos)
                other += (other.empty() ? "" : "; ") + line;
        char row[500];
        std::snprintf(row, sizeof row, "%s | %zu | %.2f%s | %.2f | %zu | %zu | %zu | %u | %d | %s\n",
                      run.name.c_str(), c.modelPixels, 100.0 * c.modelFraction, decodedNote.c_str(),
                      c.meanDifference, run.prepared.texturesDecoded, run.prepared.texturesResized,
                      run.prepared.indexListsNarrowed, run.stats.cpuMorphedNodes, run.fragmentVectors,
                      other.substr(0, 160).c_str());
        table += row;
        ++compared;
        if (!run.adaptations.empty() || run.stats.cpuMorphedNodes > 0) ++adapted;
        EXPECT_EQ(run.stats.glErrors, 0u) << run.name;
        EXPECT_LE(run.fragmentVectors, esv::kStrictLimits.fragmentUniformVectors) << run.name;
        for (const std::string& note : run.stats.notes)
            EXPECT_EQ(note.find("would not link"), std::string::npos) << run.name << ": " << note;
        if (!broken.empty()) {
            std::string name = run.name;
            std::replace(name.begin(), name.end(), '/', '_');
            esv::test::savePng((dir / (name + ".strict.png")).string(), run.strict);
            esv::test::savePng((dir / (name + ".es3.png")).string(), run.es3);
        }
        EXPECT_TRUE(broken.empty()) << run.name << ": the strict render against the ES3 one: " << broken;
    }
    std::printf("%s%zu samples compared, %zu adapted\n", table.c_str(), compared, adapted);
    EXPECT_GE(compared, 50u);
}

// A program whose fragment uniforms exceed the budget is linked again with fewer lights, under the
// key asked for, with a note; the draw then fills only the slots it has. Counted by the driver's
// active uniforms (Mesa keeps fewer of the map arrays active than glslangValidator's reflection).
TEST(StrictProfile, ProgramsOverTheFragmentBudgetKeepFewerLights) {
    esv::test::RenderHarness harness(true, 64, 64, true, /*strict=*/true);
    ASSERT_TRUE(harness.ok());
    esv::ShaderFeatures f;
    f.normal = f.uv = f.textured = f.materialMaps = f.normalMap = true;
    f.mapTransforms = true;
    f.lightProjection = true;
    std::string error;
    // Without a budget (ES3, plain ES2) every light stays.
    esv::ProgramCache unlimited(esv::GlslVersion::Es100, 8, false);
    const esv::MeshProgram* all = unlimited.get(f, error);
    ASSERT_NE(all, nullptr) << error;
    EXPECT_EQ(all->maxLights, esv::kMaxShaderLights);
    EXPECT_TRUE(unlimited.takeNotes().empty());
    const int full = all->fragmentUniformVectors;
    EXPECT_GT(full, 8 * esv::kVectorsPerLight);
    std::printf("the largest shaded program: %d fragment uniform vectors (profile budget %d)\n", full,
                esv::kStrictLimits.fragmentUniformVectors);
    // A budget one vector short of two lights less: six lights.
    const int budget = full - esv::kVectorsPerLight - 1;
    esv::ProgramCache tight(esv::GlslVersion::Es100, 8, false, budget);
    const esv::MeshProgram* p = tight.get(f, error);
    ASSERT_NE(p, nullptr) << error;
    EXPECT_EQ(p->maxLights, 6);
    EXPECT_EQ(p->fragmentUniformVectors, full - 2 * esv::kVectorsPerLight);
    std::vector<std::string> notes = tight.takeNotes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("holds 6 of 8 lights"), std::string::npos) << notes[0];
    EXPECT_EQ(tight.get(f, error), p) << "cached under the key asked for";
    EXPECT_TRUE(tight.takeNotes().empty());
    EXPECT_EQ(tight.maxFragmentUniformVectors(), p->fragmentUniformVectors);
    // The profile's own budget.
    esv::ProgramCache profile(esv::GlslVersion::Es100, 8, false, esv::kStrictLimits.fragmentUniformVectors);
    const esv::MeshProgram* q = profile.get(f, error);
    ASSERT_NE(q, nullptr) << error;
    EXPECT_EQ(q->maxLights, esv::lightsWithinBudget(full, 8, esv::kStrictLimits.fragmentUniformVectors));
    EXPECT_LE(q->fragmentUniformVectors, esv::kStrictLimits.fragmentUniformVectors);
}

// `esview render --gles2-strict` says what it adapted, one line each, and draws.
TEST(StrictProfile, RenderCommandPrintsEachAdaptation) {
    ESVIEW_REQUIRE_MODELS("ogex/magnum_texture.ogex");
    ESVIEW_REQUIRE_MODELS("pof/oih_chimera.pof");
    const fs::path dir = esv::test::outputDir() / "strict_profile";
    fs::create_directories(dir);
    const auto render = [&](const std::string& sample, std::string& err) {
        const std::string out = (dir / "render_command.png").string();
        std::vector<std::string> args = {
            "esview",  "render",        (esv::test::modelsDir() / sample).string(), "-o", out, "--size",
            "160x120", "--gles2-strict"};
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        testing::internal::CaptureStderr();
        const int code = esv::runCommandLine(int(argv.size()), argv.data());
        err = testing::internal::GetCapturedStderr();
        return code;
    };
    std::string err;
    EXPECT_EQ(render("ogex/magnum_texture.ogex", err), 0) << err;
    EXPECT_NE(err.find("warning: texture 'image.tga': resized from 2x3 to 2x4 for this target (no "
                       "non-power-of-two textures without GL_OES_texture_npot)"),
              std::string::npos)
        << err;
    EXPECT_EQ(render("pof/oih_chimera.pof", err), 0) << err;
    EXPECT_NE(
        err.find("note: texture 0 'chimerauv': BC1 (DXT1) RGB decoded to RGBA8 in software (no GPU support)"),
        std::string::npos)
        << err;
}

// A textured sample whose texture is made non-power-of-two (mallet.png, 256x256, resampled to
// 200x180): ES3 samples it as it is, with mipmaps and repeat; the strict profile resizes it to
// 256x256 in preparation (one warning) and matches ES3 under the golden rule. Plain ES2 mode clamps
// it without mipmaps (the renderer's fallback), measured alongside.
TEST(StrictProfile, NonPowerOfTwoTextureIsResizedAndMatchesEs3) {
    ESVIEW_REQUIRE_MODELS("pod/cocos3d/cocos3d_mallet.pod");
    esv::LoadResult r =
        esv::loadSceneFile((esv::test::modelsDir() / "pod/cocos3d/cocos3d_mallet.pod").string());
    ASSERT_TRUE(r.scene);
    esv::readSceneTextures(*r.scene);
    size_t changed = 0;
    for (esv::Texture& t : r.scene->textures)
        if (!t.placeholder && t.image.format == esv::PixelFormat::Rgba8 && !t.image.empty()) {
            t.image = esv::resizeImage(t.image, 200, 180);
            ++changed;
        }
    ASSERT_EQ(changed, 1u);
    constexpr int kSize = 256;
    esv::test::Image es3Image, es2Image;
    {
        esv::test::RenderHarness es3(false, kSize, kSize);
        ASSERT_TRUE(es3.setScene(*r.scene));
        es3Image = es3.drawAt(-1.0f, esv::ViewSettings{}).image;
    }
    {
        esv::test::RenderHarness es2(true, kSize, kSize);
        ASSERT_TRUE(es2.setScene(*r.scene));
        es2Image = es2.drawAt(-1.0f, esv::ViewSettings{}).image;
    }
    esv::test::RenderHarness strict(true, kSize, kSize, true, /*strict=*/true);
    esv::PrepareStats stats;
    ASSERT_TRUE(strict.setScene(*r.scene, &stats));
    EXPECT_EQ(stats.texturesResized, 1u);
    size_t lines = 0;
    for (const esv::ReportLine& line : strict.report())
        lines += line.text.find("resized from 200x180 to 256x256") != std::string::npos;
    EXPECT_EQ(lines, 1u);
    const esv::test::Rendered drawn = strict.drawAt(-1.0f, esv::ViewSettings{});
    EXPECT_EQ(drawn.stats.glErrors, 0u);
    const esv::test::GoldenRule rule;
    const esv::test::CompareResult c = esv::test::compareImages(drawn.image, es3Image, rule.tolerance);
    const esv::test::CompareResult plain = esv::test::compareImages(es2Image, es3Image, rule.tolerance);
    std::printf(
        "NPOT mallet against ES3: strict (resized) %.2f%% of %zu model pixels off, mean %.2f; plain ES2 "
        "(clamped, no mipmaps) %.2f%% off, mean %.2f\n",
        100.0 * c.modelFraction, c.modelPixels, c.meanDifference, 100.0 * plain.modelFraction,
        plain.meanDifference);
    EXPECT_EQ(esv::test::brokenRules(c, rule), "");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Vertex windows: a mesh that draws a vertex above 65535 is split for a target without 32-bit
// indices (scene/vertex_windows.h), and the renderer points each window's attributes at its base.

// Every mesh of `scene` split into windows of `window` vertices (what the preparation stage does
// with 65536), so that small scenes exercise every drawing path with several windows.
std::unique_ptr<esv::Scene> splitEveryMesh(const esv::Scene& prepared, uint32_t window) {
    auto split = std::make_unique<esv::Scene>(prepared);
    for (esv::Mesh& mesh : split->meshes) {
        esv::VertexWindowResult r = esv::splitVertexWindows(mesh, window);
        EXPECT_TRUE(r.ok) << r.error;
        if (r.ok) mesh = std::move(r.mesh);
    }
    return split;
}

// Draws `loaded` prepared for the harness's target, once as prepared and once with every mesh in
// windows of 97 vertices, in each view mode, and expects the same bounds and the same picture.
void expectWindowsDrawTheSame(const esv::Scene& loaded, bool gles2, float seconds, const char* what) {
    constexpr int kSize = 160;
    esv::test::RenderHarness plain(gles2, kSize, kSize), windowed(gles2, kSize, kSize);
    ASSERT_TRUE(plain.setScene(loaded));
    ASSERT_TRUE(windowed.setPrepared(splitEveryMesh(plain.scene(), 97)));
    size_t windows = 0;
    for (const esv::Mesh& mesh : windowed.scene().meshes)
        for (const esv::Submesh& s : mesh.submeshes) windows += s.baseVertex > 0;
    ASSERT_GT(windows, 2u) << what;
    for (float t : {-1.0f, seconds}) {
        const esv::Bounds a = esv::sceneBounds(plain.scene(), plain.poseAt(t));
        const esv::Bounds b = esv::sceneBounds(windowed.scene(), windowed.poseAt(t));
        EXPECT_EQ(a.min, b.min) << what << " at " << t;
        EXPECT_EQ(a.max, b.max) << what << " at " << t;
    }
    for (esv::ViewMode mode : {esv::ViewMode::Shaded, esv::ViewMode::Wireframe, esv::ViewMode::Batches,
                               esv::ViewMode::VertexColors, esv::ViewMode::SkinDiff}) {
        esv::ViewSettings view;
        view.mode = mode;
        const esv::Pose pose = plain.poseAt(seconds);
        const esv::ViewSettings framed = plain.framed(pose, view);
        const esv::test::Rendered a = plain.draw(pose, framed);
        const esv::test::Rendered b = windowed.draw(windowed.poseAt(seconds), framed);
        EXPECT_EQ(b.stats.glErrors, 0u) << what << " " << esv::viewModeName(mode);
        EXPECT_EQ(a.stats.triangles, b.stats.triangles) << what << " " << esv::viewModeName(mode);
        EXPECT_GT(b.stats.drawCalls, a.stats.drawCalls) << what << " " << esv::viewModeName(mode);
        const esv::test::CompareResult c = esv::test::compareImages(b.image, a.image, 0);
        EXPECT_EQ(c.differingFraction, 0.0)
            << what << " " << (gles2 ? "ES2 " : "ES3 ") << esv::viewModeName(mode) << ": "
            << 100.0 * c.modelFraction << "% of " << c.modelPixels << " model pixels differ, worst "
            << c.maxDifference;
    }
}

TEST(VertexWindowsRender, DemoInWindowsDrawsLikeTheDemo) {
    const esv::Scene demo = esv::makeDemoScene();
    for (bool gles2 : {false, true}) {
        expectWindowsDrawTheSame(demo, gles2, 0.8f, "demo");
        // Three morph targets at once: blended on the GPU in ES3, on the CPU in ES2 (one target fits
        // its attributes), which draws windows too.
        esv::Scene threeMorphs = demo;
        size_t morphed = 0;
        for (esv::Mesh& mesh : threeMorphs.meshes) {
            if (mesh.morphTargets.empty()) continue;
            const esv::MorphTarget target = mesh.morphTargets[0];
            mesh.morphTargets.push_back(target);
            mesh.morphTargets.push_back(target);
            mesh.defaultMorphWeights.resize(3, 0.3f);
            ++morphed;
        }
        ASSERT_EQ(morphed, 1u);
        for (esv::Node& node : threeMorphs.nodes)
            if (!node.morphWeights.empty()) node.morphWeights.resize(3, 0.3f);
        expectWindowsDrawTheSame(threeMorphs, gles2, 1.7f, gles2 ? "demo, CPU morphs" : "demo, three morphs");
    }
}

TEST(VertexWindowsRender, SkinnedCharacterInWindowsDrawsLikeTheCharacter) {
    ESVIEW_REQUIRE_MODELS("pod/cocos3d/cocos3d_man.pod");
    esv::LoadResult r = esv::loadSceneFile((esv::test::modelsDir() / "pod/cocos3d/cocos3d_man.pod").string());
    ASSERT_TRUE(r.scene);
    for (bool gles2 : {false, true}) expectWindowsDrawTheSame(*r.scene, gles2, 0.5f, "cocos3d_man");
}

// A wavy grid of 261 x 261 vertices with 32-bit indices, coloured per vertex: more than 65536
// vertices, so the strict profile must split it.
esv::Scene largeGridScene() {
    constexpr uint32_t kSide = 261;
    esv::Scene scene;
    esv::Mesh mesh;
    mesh.name = "large grid";
    mesh.vertexCount = kSide * kSide;
    esv::VertexStream stream;
    stream.stride = 16;
    stream.count = mesh.vertexCount;
    stream.attributes = {
        {esv::Semantic::Position, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 0},
        {esv::Semantic::Color, 0, esv::ComponentType::UInt8, 4, true, esv::Swizzle::Identity, 12}};
    std::vector<uint8_t> bytes(size_t(stream.stride) * mesh.vertexCount);
    for (uint32_t y = 0; y < kSide; ++y)
        for (uint32_t x = 0; x < kSide; ++x) {
            const size_t v = size_t(y) * kSide + x;
            const float p[3] = {float(x) / 26.0f, float(y) / 26.0f,
                                0.6f * std::sin(float(x) * 0.07f) * std::cos(float(y) * 0.05f)};
            std::memcpy(&bytes[v * 16], p, 12);
            const uint8_t c[4] = {uint8_t(((x / 20) + (y / 20)) % 2 ? 230 : 40), uint8_t(y), uint8_t(x), 255};
            std::memcpy(&bytes[v * 16 + 12], c, 4);
        }
    stream.bytes = esv::makeOwnedBytes(std::move(bytes));
    mesh.streams.push_back(stream);
    std::vector<uint32_t> indices;
    for (uint32_t y = 0; y + 1 < kSide; ++y)
        for (uint32_t x = 0; x + 1 < kSide; ++x) {
            const uint32_t v = y * kSide + x;
            indices.insert(indices.end(), {v, v + 1, v + kSide, v + 1, v + kSide + 1, v + kSide});
        }
    std::vector<uint8_t> indexBytes(indices.size() * 4);
    std::memcpy(indexBytes.data(), indices.data(), indexBytes.size());
    mesh.indices.type = esv::ComponentType::UInt32;
    mesh.indices.count = uint32_t(indices.size());
    mesh.indices.bytes = esv::makeOwnedBytes(std::move(indexBytes));
    esv::Submesh sub;
    sub.indexCount = mesh.indices.count;
    mesh.submeshes.push_back(sub);
    scene.meshes.push_back(mesh);
    esv::Material material;
    material.name = "grid";
    material.model = esv::ShadingModel::Unlit;
    scene.materials.push_back(material);
    esv::Node node;
    node.name = "grid";
    node.kind = esv::NodeKind::Mesh;
    node.object = 0;
    node.materials = {0};
    scene.nodes.push_back(node);
    return scene;
}

TEST(StrictProfile, MeshAboveSixteenBitIndicesIsSplitIntoWindowsAndMatchesEs3) {
    const esv::Scene scene = largeGridScene();
    constexpr int kSize = 256;
    esv::test::RenderHarness es3(false, kSize, kSize);
    ASSERT_TRUE(es3.setScene(scene));
    esv::ViewSettings view;
    view.mode = esv::ViewMode::VertexColors;
    const esv::test::Rendered expected = es3.drawAt(-1.0f, view);

    esv::test::RenderHarness strict(true, kSize, kSize, true, /*strict=*/true);
    esv::PrepareStats stats;
    ASSERT_TRUE(strict.setScene(scene, &stats));
    EXPECT_EQ(stats.meshesSplit, 1u);
    EXPECT_EQ(stats.indexListsTooLarge, 0u);
    const esv::Mesh& split = strict.scene().meshes[0];
    EXPECT_EQ(split.indices.type, esv::ComponentType::UInt16);
    EXPECT_EQ(split.submeshes.size(), 2u);  // 68,121 vertices: two windows
    size_t lines = 0;
    for (const esv::ReportLine& line : strict.report())
        lines += line.text.find("mesh 'large grid': 68121 vertices drawn in 2 windows of at most 65536") !=
                 std::string::npos;
    EXPECT_EQ(lines, 1u);
    const esv::test::Rendered drawn = strict.drawAt(-1.0f, view);
    EXPECT_EQ(drawn.stats.glErrors, 0u);
    EXPECT_EQ(drawn.stats.triangles, expected.stats.triangles);
    const esv::test::GoldenRule rule;
    const esv::test::CompareResult c = esv::test::compareImages(drawn.image, expected.image, rule.tolerance);
    EXPECT_EQ(esv::test::brokenRules(c, rule), "");
    EXPECT_GT(c.modelPixels, size_t(kSize * kSize / 4));
}
