// The strict ES 2.0 device profile (RendererOptions::gles2Strict, `--gles2-strict`): what the
// renderer sees of the context (no extension, the limits of renderer/strict_profile.h), and every
// shared sample drawn under it against the same view drawn with ES3, under the golden rule
// (tests/common/image_compare.h), with a table of what each sample needed adapted.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/commands.h"
#include "common/image_compare.h"
#include "common/render_harness.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"
#include "loaders/format_table.h"
#include "loaders/load.h"
#include "loaders/textures/scene_textures.h"
#include "renderer/shader_program.h"
#include "renderer/strict_profile.h"

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
