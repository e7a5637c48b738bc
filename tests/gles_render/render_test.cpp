// Headless rendering tests (EGL on llvmpipe): reference images of the demo scene in ES3 and ES2
// mode and in the debug views, no GL error anywhere, and the GPU-skinned silhouette against the
// CPU reference path.
#include <algorithm>
#include <memory>

#include <gtest/gtest.h>

#include <glad/gles2.h>

#include "common/image_compare.h"
#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/load.h"
#include "target/binding_plan.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/sampler.h"

namespace {

using esv::test::Image;

constexpr int kSize = 192;
// Pixels that must move between two poses: beyond the golden tolerance.
constexpr int kTolerance = esv::test::GoldenRule{}.tolerance;

using esv::test::Rendered;

// Renders `scene` as the golden images were rendered (see renderHeadless).
Rendered render(const esv::Scene& scene, float seconds, esv::ViewSettings view, bool gles2) {
    return esv::test::renderHeadless(scene, seconds, view, gles2, kSize);
}

void expectClean(const Rendered& r) {
    EXPECT_EQ(r.stats.glErrors, 0u);
    EXPECT_GT(r.stats.drawCalls, 0u);
}

class DemoRender : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_scene = std::make_unique<esv::Scene>(esv::makeDemoScene()); }
    static void TearDownTestSuite() { s_scene.reset(); }
    static std::unique_ptr<esv::Scene> s_scene;
};
std::unique_ptr<esv::Scene> DemoRender::s_scene;

TEST_F(DemoRender, Es3AtTwoTimesMatchesGolden) {
    for (float t : {0.0f, 0.5f}) {
        Rendered r = render(*s_scene, t, {}, false);
        expectClean(r);
        // Two bone batches for the tentacle plus the blob: three draws.
        EXPECT_EQ(r.stats.drawCalls, 3u);
        const std::string name = t == 0.0f ? "demo_es3_t0" : "demo_es3_t0.5";
        EXPECT_EQ(esv::test::matchGolden(name, r.image), "");
    }
}

TEST_F(DemoRender, Es2LooksLikeEs3) {
    for (float t : {0.0f, 0.5f}) {
        Rendered r = render(*s_scene, t, {}, true);
        expectClean(r);
        // Same references as ES3: the ES2 path must be visually equivalent.
        const std::string name = t == 0.0f ? "demo_es3_t0" : "demo_es3_t0.5";
        if (esv::test::updatingGoldens()) continue;
        EXPECT_EQ(esv::test::matchGolden(name, r.image), "") << "ES2 mode";
    }
}

TEST_F(DemoRender, AnimationMovesThePixels) {
    Rendered rest = render(*s_scene, 0.0f, {}, false);
    Rendered bent = render(*s_scene, 0.5f, {}, false);
    const auto r = esv::test::compareImages(rest.image, bent.image, kTolerance);
    EXPECT_GT(r.differingFraction, 0.05);
}

TEST_F(DemoRender, DebugViewsMatchGolden) {
    for (esv::ViewMode mode : {esv::ViewMode::Batches, esv::ViewMode::Wireframe, esv::ViewMode::Normals,
                               esv::ViewMode::Weights, esv::ViewMode::Uv, esv::ViewMode::Unlit}) {
        esv::ViewSettings view;
        view.mode = mode;
        for (bool gles2 : {false, true}) {
            Rendered r = render(*s_scene, 0.5f, view, gles2);
            expectClean(r);
            if (gles2 && esv::test::updatingGoldens()) continue;
            // The wireframe is lines: softpipe's picture of it has a golden of its own (and softpipe
            // rewrites no other).
            std::string golden = std::string("demo_") + esv::viewModeName(mode);
            if (mode == esv::ViewMode::Wireframe) {
                golden = esv::test::lineGolden(golden);
            } else if (esv::test::updatingGoldens() && esv::test::drawsWithSoftpipe()) {
                continue;
            }
            EXPECT_EQ(esv::test::matchGolden(golden, r.image), "") << (gles2 ? "ES2" : "ES3");
        }
    }
}

// Tangent lines: one more overlay draw, and the tangent colour (orange-red) shows beside the normals.
TEST_F(DemoRender, TangentLinesAreDrawn) {
    esv::ViewSettings view;
    view.showTangentLines = true;
    for (bool gles2 : {false, true}) {
        Rendered plain = render(*s_scene, 0.5f, {}, gles2);
        Rendered r = render(*s_scene, 0.5f, view, gles2);
        expectClean(r);
        EXPECT_EQ(r.stats.drawCalls, plain.stats.drawCalls + 1);
        int tangentPixels = 0;
        for (size_t i = 0; i + 3 < r.image.rgba.size(); i += 4) {
            const uint8_t* p = &r.image.rgba[i];
            if (p[0] > 200 && p[1] > 90 && p[1] < 140 && p[2] > 50 && p[2] < 100) ++tangentPixels;
        }
        EXPECT_GT(tangentPixels, 50) << (gles2 ? "ES2" : "ES3");
    }
}

// The skeleton overlay: bone lines and joint markers drawn over the skin at the posed joints.
TEST_F(DemoRender, SkeletonOverlayMatchesGoldenAndMarksEveryJoint) {
    esv::ViewSettings view;
    view.showSkeleton = true;
    view.showNormalLines = true;
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness harness(gles2, kSize, kSize);
        ASSERT_TRUE(harness.setScene(*s_scene));
        const esv::Pose pose = harness.poseAt(0.5f);
        Rendered r = harness.drawFramed(pose, view);
        expectClean(r);
        EXPECT_EQ(r.stats.drawCalls, 3u + 3u);  // scene + normal lines, bone lines, joint points
        if (gles2 && esv::test::updatingGoldens()) continue;
        EXPECT_EQ(esv::test::matchGolden(esv::test::lineGolden("demo_skeleton"), r.image), "")
            << (gles2 ? "ES2" : "ES3");
        // Each joint's projected position carries the marker colour (orange: red high, blue low).
        int joints = 0;
        for (int32_t j : harness.scene().skins[0].joints) {
            const glm::vec2 at = harness.project(pose, view, glm::vec3(pose.world[j][3]));
            const int x = int(at.x), y = int(at.y);
            if (x < 0 || y < 0 || x >= kSize || y >= kSize) continue;
            const uint8_t* px = &r.image.rgba[(size_t(y) * kSize + x) * 4];
            EXPECT_GT(px[0], 200) << "joint " << j;
            EXPECT_LT(px[2], 80) << "joint " << j;
            ++joints;
        }
        EXPECT_EQ(joints, 6);
    }
}

// Weights of one joint: red where that bone owns the vertex, blue elsewhere (the strongest-influence
// view is red almost everywhere on a chain). Vertex colours mode shows the mesh's colours.
TEST_F(DemoRender, SingleBoneWeightsAndVertexColours) {
    esv::ViewSettings all;
    all.mode = esv::ViewMode::Weights;
    esv::ViewSettings one = all;
    one.weightBone = s_scene->skins[0].joints[3];
    for (bool gles2 : {false, true}) {
        Rendered a = render(*s_scene, 0.5f, all, gles2);
        Rendered o = render(*s_scene, 0.5f, one, gles2);
        expectClean(a);
        expectClean(o);
        auto count = [](const Image& image, bool red) {
            size_t n = 0;
            for (size_t i = 0; i < image.rgba.size(); i += 4) {
                const int r = image.rgba[i], b = image.rgba[i + 2];
                n += red ? (r > 150 && b < 100) : (b > 150 && r < 100);
            }
            return n;
        };
        // One bone of six owns a fraction of what the strongest-influence view paints red.
        EXPECT_GT(count(o.image, true), 20u);
        EXPECT_LT(count(o.image, true) * 2, count(a.image, true));
        EXPECT_GT(count(o.image, false), count(a.image, false));
        if (gles2 && esv::test::updatingGoldens()) continue;
        EXPECT_EQ(esv::test::matchGolden("demo_weights_bone3", o.image), "") << (gles2 ? "ES2" : "ES3");
    }
    esv::ViewSettings colours;
    colours.mode = esv::ViewMode::VertexColors;
    Rendered c = render(*s_scene, 0.5f, colours, false);
    expectClean(c);
    EXPECT_EQ(esv::test::matchGolden("demo_colors", c.image), "");
}

TEST_F(DemoRender, FileCameraMatchesGolden) {
    esv::ViewSettings view;
    view.camera = 0;
    Rendered r = render(*s_scene, 0.5f, view, false);
    expectClean(r);
    EXPECT_EQ(esv::test::matchGolden("demo_camera0", r.image), "");
}

// The GPU-skinned silhouette must cover the CPU reference vertices projected with the same camera.
TEST_F(DemoRender, GpuSkinningMatchesCpuReference) {
    for (bool gles2 : {false, true}) {
        esv::ViewSettings view;
        view.mode = esv::ViewMode::Unlit;
        esv::test::RenderHarness harness(gles2, kSize, kSize);
        ASSERT_TRUE(harness.setScene(*s_scene));
        const esv::Pose pose = harness.poseAt(0.5f);
        Rendered r = harness.drawFramed(pose, view);
        // Tentacle (node 1) vertices, projected; each must land on a non-background pixel.
        std::vector<glm::vec3> positions;
        esv::worldVertices(harness.scene(), pose, 1, positions);
        ASSERT_FALSE(positions.empty());
        const uint8_t* background = &r.image.rgba[0];
        size_t inside = 0, covered = 0;
        for (const glm::vec3& world : positions) {
            const glm::vec2 at = harness.project(pose, view, world);
            int x = int(at.x), y = int(at.y);
            if (x < 1 || y < 1 || x >= kSize - 1 || y >= kSize - 1) continue;
            ++inside;
            // A vertex on the silhouette may fall half a pixel outside: look at its 3x3 neighbourhood.
            bool hit = false;
            for (int dy = -1; dy <= 1 && !hit; ++dy)
                for (int dx = -1; dx <= 1 && !hit; ++dx) {
                    const uint8_t* px = &r.image.rgba[(size_t(y + dy) * kSize + (x + dx)) * 4];
                    hit = std::abs(px[0] - background[0]) + std::abs(px[1] - background[1]) +
                              std::abs(px[2] - background[2]) > 30;
                }
            covered += hit;
        }
        ASSERT_GT(inside, positions.size() / 2);
        EXPECT_GE(double(covered) / double(inside), 0.995) << (gles2 ? "ES2" : "ES3");
    }
}

// Sample PODs through the whole path (reader, sampler, renderer), ES3 against references and ES2
// against the same references: a skinned character at two frames, a fixed-point file with a
// hierarchy, a skinned mallet, a large static mesh.
TEST(PodRender, SamplesMatchGoldenInEs3AndEs2) {
    ESVIEW_REQUIRE_MODELS("pod");
    struct Case {
        const char* file;
        float frame;
        const char* golden;
        uint32_t draws;
    };
    const Case cases[] = {
        {"cocos3d/cocos3d_man.pod", 0.0f, "pod_man_f0", 4},
        {"cocos3d/cocos3d_man.pod", 12.0f, "pod_man_f12", 4},
        {"oolong/oolong_IntroducingPOD_fixed.pod", 40.0f, "pod_intro_fixed_f40", 4},
        {"oolong/oolong_model_fixed.pod", 20.0f, "pod_mallet_fixed_f20", 3},
        {"nsdk/nsdk_Bumpmap_scene.pod", 0.0f, "pod_satyr", 1},
    };
    for (const Case& c : cases) {
        esv::LoadResult loaded = esv::loadSceneFile((esv::test::modelsDir() / "pod" / c.file).string());
        ASSERT_NE(loaded.scene, nullptr) << c.file;
        const esv::Scene& scene = *loaded.scene;
        const float seconds = esv::frameToSeconds(scene, c.frame);
        for (bool gles2 : {false, true}) {
            // Without clips, render() shows the rest pose.
            Rendered r = render(scene, scene.animation.clips.empty() ? -1.0f : seconds, {}, gles2);
            expectClean(r);
            EXPECT_EQ(r.stats.drawCalls, c.draws) << c.file;
            if (gles2 && esv::test::updatingGoldens()) continue;
            EXPECT_EQ(esv::test::matchGolden(c.golden, r.image), "") << c.file << (gles2 ? " ES2" : " ES3");
        }
    }
}

// What the renderer takes from the context: ES3 uses vertex arrays and 32-bit indices; ES2 mode
// enforces the ES 2.0 minimums and uses extensions only where the context lists them.
TEST(RendererCaps, Es3AndEs2ModeChooseTheirFeatures) {
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness harness(gles2, 64, 64);
        ASSERT_TRUE(harness.ok());
        const esv::RendererInfo info = harness.info();
        const std::string extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
        auto listed = [&](const std::string& name) { return (" " + extensions + " ").find(" " + name + " ") != std::string::npos; };
        if (gles2) {
            EXPECT_FALSE(info.es3);
            EXPECT_EQ(info.maxVertexUniformVectors, 128);
            EXPECT_EQ(info.maxVertexAttribs, 8);
            EXPECT_EQ(info.paletteCapacity, esv::paletteCapacity(128, 16));
            EXPECT_EQ(info.vertexArrays, listed("GL_OES_vertex_array_object"));
            EXPECT_EQ(info.uintIndices, listed("GL_OES_element_index_uint"));
        } else {
            EXPECT_TRUE(info.es3);
            EXPECT_TRUE(info.vertexArrays);
            EXPECT_TRUE(info.uintIndices);
            EXPECT_GE(info.maxVertexUniformVectors, 256);
        }
        // The demo draws cleanly through whichever attribute path was chosen.
        ASSERT_TRUE(harness.setScene(esv::makeDemoScene()));
        const esv::Pose pose = harness.poseAt(0.25f);
        for (int frame = 0; frame < 2; ++frame) {
            const esv::FrameStats stats = harness.draw(pose, {}).stats;
            EXPECT_EQ(stats.glErrors, 0u);
            EXPECT_EQ(stats.drawCalls, 3u);
        }
    }
}

TEST(RendererLimits, Es2PaletteFitsIn128Vectors) {
    // 128 vectors less what the program reserves, four per matrix.
    EXPECT_LE(esv::paletteCapacity(128, 16) * 4 + 16, 128);
    EXPECT_GE(esv::paletteCapacity(128, 16), 8);  // enough for POD's usual 8-10 bones per batch
}

}  // namespace
