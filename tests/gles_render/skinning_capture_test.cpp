// GPU skinning against the CPU reference: the positions and normals the vertex shader computes
// (captured with transform feedback from the buffers, attribute setup and palettes used for
// drawing) must match scene/cpu_reference at several frames, for the demo and for the skinned
// sample PODs (interleaved float, fixed point, non-interleaved, several bone batches).
#include <cmath>
#include <cstring>
#include <cstdio>
#include <memory>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/sampler.h"

namespace {

struct Errors {
    double maxPosition = 0.0;  // world units
    double maxNormalAngle = 0.0;  // radians
    size_t compared = 0;
};

// Captures every skinned mesh instance of `scene` at `seconds` of clip 0 and compares it with the
// CPU reference. Positions are compared against the scene's size.
Errors compareAt(esv::Renderer& renderer, const esv::Scene& scene, float seconds) {
    Errors e;
    esv::Pose pose;
    esv::evaluatePose(scene, scene.animation.clips.empty() ? -1 : 0, seconds, pose);
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const esv::Node& node = scene.nodes[n];
        if (node.kind != esv::NodeKind::Mesh || node.object < 0) continue;
        if (node.skin < 0 && scene.meshes[node.object].morphTargets.empty()) continue;
        std::vector<glm::vec3> gpuPositions, gpuNormals, cpuPositions, cpuNormals;
        std::string error;
        EXPECT_TRUE(renderer.captureVertices(scene, pose, int(n), gpuPositions, gpuNormals, error)) << error;
        esv::worldVertices(scene, pose, int(n), cpuPositions, &cpuNormals);
        EXPECT_EQ(gpuPositions.size(), cpuPositions.size());
        for (size_t v = 0; v < std::min(gpuPositions.size(), cpuPositions.size()); ++v) {
            if (std::isnan(gpuPositions[v].x)) continue;  // used by no triangle
            ++e.compared;
            e.maxPosition = std::max(e.maxPosition, double(glm::length(gpuPositions[v] - cpuPositions[v])));
            if (v < cpuNormals.size() && glm::length(cpuNormals[v]) > 0.0f && glm::length(gpuNormals[v]) > 0.0f) {
                const float c = glm::dot(glm::normalize(gpuNormals[v]), glm::normalize(cpuNormals[v]));
                e.maxNormalAngle = std::max(e.maxNormalAngle, double(std::acos(std::min(1.0f, c))));
            }
        }
    }
    return e;
}

float sceneSize(const esv::Scene& scene) {
    esv::Pose pose;
    esv::evaluatePose(scene, -1, 0.0f, pose);
    const esv::Bounds b = esv::sceneBounds(scene, pose);
    return glm::length(b.max - b.min);
}

// Captures and compares the scene `harness` holds (ES3: transform feedback), as it was prepared.
void checkPrepared(esv::test::RenderHarness& harness, const std::string& name) {
    const esv::Scene& scene = harness.scene();
    const float size = sceneSize(scene);
    ASSERT_GT(size, 0.0f);
    const float duration = scene.animation.clips.empty() ? 0.0f : scene.animation.clips[0].duration();
    size_t compared = 0;
    double worstPosition = 0.0, worstAngle = 0.0;
    for (float t : {0.0f, 0.31f * duration, 0.67f * duration, duration}) {
        const Errors e = compareAt(harness.renderer(), scene, t);
        compared += e.compared;
        worstPosition = std::max(worstPosition, e.maxPosition / size);
        worstAngle = std::max(worstAngle, e.maxNormalAngle);
        EXPECT_LT(e.maxPosition, 1e-4 * size) << name << " at " << t << " s";
        EXPECT_LT(e.maxNormalAngle, 0.01) << name << " at " << t << " s";
    }
    EXPECT_GT(compared, 0u) << name << ": no skinned vertex was compared";
    std::printf("%s: %zu vertices compared, max position error %.2e of the model size, max normal angle %.2e rad\n",
                name.c_str(), compared, worstPosition, worstAngle);
}

// `scene` prepared for an ES3 context as the app prepares it, then captured and compared.
void checkScene(const esv::Scene& scene, const std::string& name) {
    esv::test::RenderHarness harness(false, 64, 64);
    ASSERT_TRUE(harness.setScene(scene));
    checkPrepared(harness, name);
}

TEST(SkinningCapture, DemoMatchesCpuReference) { checkScene(esv::makeDemoScene(), "demo"); }

TEST(SkinningCapture, SkinnedPodSamplesMatchCpuReference) {
    ESVIEW_REQUIRE_MODELS("pod");
    for (const char* file : {"cocos3d/cocos3d_man.pod", "cocos3d/cocos3d_mallet.pod", "oolong/oolong_model_fixed.pod",
                             "oolong/oolong_model_float_noninterleaved.pod"}) {
        esv::LoadResult r = esv::loadSceneFile((esv::test::modelsDir() / "pod" / file).string());
        ASSERT_NE(r.scene, nullptr) << file;
        checkScene(*r.scene, file);
    }
}

// A character re-batched to a palette smaller than its file's batches (9 bones -> 6): more batches,
// vertices duplicated on their borders, and the GPU still skins exactly like the CPU reference.
TEST(SkinningCapture, RebatchedCharacterMatchesCpuReference) {
    ESVIEW_REQUIRE_MODELS("pod");
    esv::LoadResult r = esv::loadSceneFile((esv::test::modelsDir() / "pod" / "cocos3d/cocos3d_man.pod").string());
    ASSERT_NE(r.scene, nullptr);
    size_t batchesBefore = 0, batchesAfter = 0;
    for (const esv::Mesh& m : r.scene->meshes) batchesBefore += m.boneBatches.size();
    // The preparation stage re-batches for a target whose palette holds 6 bones.
    esv::test::RenderHarness harness(false, 64, 64);
    ASSERT_TRUE(harness.ok());
    esv::TargetCaps small = harness.target();
    small.paletteCapacity = 6;
    esv::PrepareStats stats;
    ASSERT_TRUE(harness.setScene(*r.scene, small, &stats));
    EXPECT_GT(stats.meshesRebatched, 0u);
    for (const esv::Mesh& m : harness.scene().meshes) {
        batchesAfter += m.boneBatches.size();
        for (const esv::BoneBatch& b : m.boneBatches) EXPECT_LE(b.bones.size(), 6u) << m.name;
    }
    EXPECT_GT(batchesAfter, batchesBefore);
    checkPrepared(harness, "cocos3d_man re-batched to 6 bones");
}

// `scene` set on a fresh renderer (ES3, or ES2 with its limits) and drawn once at `seconds` of clip
// 0 into a 64x64 target: the report of setScene and the frame's stats. `prepare` false uploads the
// scene as it is, for tests of what the renderer itself does with what preparation would change.
struct DrawnOnce {
    bool ok = false;
    std::vector<esv::ReportLine> report;
    esv::FrameStats stats;
};
DrawnOnce drawOnce(const esv::Scene& scene, float seconds, bool gles2, bool prepare = true,
                   bool strict = false) {
    DrawnOnce out;
    esv::test::RenderHarness harness(gles2, 64, 64, /*checkErrors=*/false, strict);
    const bool ready =
        prepare ? harness.setScene(scene) : harness.setPrepared(std::make_unique<esv::Scene>(scene));
    if (!ready) return out;
    out.report = harness.report();
    out.stats = harness.draw(harness.poseAt(seconds), esv::ViewSettings{}).stats;
    out.ok = true;
    return out;
}

// Ten morph targets active at once (more than the four attribute slots): ES3 blends them from a
// texture of deltas, relative and absolute targets with positions and normals, and matches the CPU.
TEST(SkinningCapture, ManyMorphTargetsFromTheDeltaTextureMatchCpuReference) {
    esv::Scene scene = esv::makeDemoScene();
    int meshIndex = -1, node = -1;
    for (size_t i = 0; i < scene.meshes.size(); ++i)
        if (!scene.meshes[i].morphTargets.empty()) meshIndex = int(i);
    ASSERT_GE(meshIndex, 0);
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].kind == esv::NodeKind::Mesh && scene.nodes[n].object == meshIndex) node = int(n);
    esv::Mesh& mesh = scene.meshes[meshIndex];
    const esv::VertexStream* ps = nullptr;
    const esv::VertexStream* ns = nullptr;
    const esv::VertexAttribute* pa = esv::findAttribute(mesh, esv::Semantic::Position, 0, &ps);
    const esv::VertexAttribute* na = esv::findAttribute(mesh, esv::Semantic::Normal, 0, &ns);
    ASSERT_TRUE(pa && na);
    const esv::MorphTarget bulge = mesh.morphTargets[0];
    mesh.morphTargets.clear();
    constexpr int kTargets = 10;
    for (int t = 0; t < kTargets; ++t) {
        // Target t: the bulge scaled and skewed per target, with tilted normals; odd targets absolute.
        const bool absolute = t % 2 == 1;
        std::vector<float> values;
        for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
            float base[4], normal[4], delta[4];
            esv::readAttribute(*ps, *pa, v, base);
            esv::readAttribute(*ns, *na, v, normal);
            esv::readAttribute(bulge.stream, bulge.stream.attributes[0], v, delta);
            const glm::vec3 d = glm::vec3(delta[0], delta[1], delta[2]) * (0.2f + 0.1f * t) +
                                glm::vec3(0.01f * t, -0.005f * t, 0.0f);
            const glm::vec3 dn(0.05f * (t % 3), 0.03f, -0.02f * (t % 2));
            const glm::vec3 p = absolute ? glm::vec3(base[0], base[1], base[2]) + d : d;
            const glm::vec3 n = absolute ? glm::vec3(normal[0], normal[1], normal[2]) + dn : dn;
            values.insert(values.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
        }
        esv::MorphTarget target;
        target.name = "t" + std::to_string(t);
        target.relative = !absolute;
        target.stream.stride = 24;
        target.stream.count = mesh.vertexCount;
        std::vector<uint8_t> bytes(values.size() * sizeof(float));
        std::memcpy(bytes.data(), values.data(), bytes.size());
        target.stream.bytes = esv::makeOwnedBytes(std::move(bytes));
        target.stream.attributes = {
            {esv::Semantic::Position, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 0},
            {esv::Semantic::Normal, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 12}};
        mesh.morphTargets.push_back(std::move(target));
    }
    mesh.defaultMorphWeights.assign(kTargets, 0.0f);
    // Every target weighted at every key, differently per target.
    for (esv::Track& track : scene.animation.clips[0].tracks) {
        if (track.node != node || track.channel != esv::Channel::MorphWeights) continue;
        std::vector<float> values;
        for (size_t k = 0; k < track.times.size(); ++k)
            for (int t = 0; t < kTargets; ++t) values.push_back(0.1f + 0.05f * t + 0.3f * track.values[k]);
        track.components = kTargets;
        track.values = values;
    }
    {
        esv::test::RenderHarness harness(false, 64, 64);
        ASSERT_TRUE(harness.setScene(scene));
        bool textured = false;
        for (const esv::ReportLine& line : harness.report())
            textured |= line.text.find("10 morph targets blended on the GPU from a") != std::string::npos;
        EXPECT_TRUE(textured) << "the report names the texture path";
        checkPrepared(harness, "demo with ten morph targets");
    }

    // Drawn, the fallbacks are counted: ES3 blends the ten from the texture of deltas; ES2 mode has
    // no such texture and four attribute slots, so that instance is morphed on the CPU.
    for (bool gles2 : {false, true}) {
        const DrawnOnce drawn = drawOnce(scene, 0.5f, gles2);
        ASSERT_TRUE(drawn.ok);
        const esv::FrameStats& stats = drawn.stats;
        EXPECT_EQ(stats.morphTextureNodes, gles2 ? 0u : 1u) << (gles2 ? "ES2" : "ES3");
        EXPECT_EQ(stats.cpuMorphedNodes, gles2 ? 1u : 0u) << (gles2 ? "ES2" : "ES3");
        EXPECT_EQ(stats.cpuSkinnedNodes, 0u);
    }
    // The strict ES2 profile sees no OES_texture_float (and no vertex texture units): the same CPU
    // fallback, counted, and no texture of deltas.
    const DrawnOnce strict = drawOnce(scene, 0.5f, true, true, /*strict=*/true);
    ASSERT_TRUE(strict.ok);
    EXPECT_EQ(strict.stats.morphTextureNodes, 0u);
    EXPECT_EQ(strict.stats.cpuMorphedNodes, 1u);
    EXPECT_EQ(strict.stats.glErrors, 0u);
}

// A bone batch larger than the palette is skinned on the CPU: a report line when the scene is set,
// and a count in every frame's stats (the demo's tentacle with 40 bones named in its first batch,
// over ES2's palette of 28).
TEST(SkinningCapture, BatchOverThePaletteIsCountedAsCpuSkinned) {
    esv::Scene scene = esv::makeDemoScene();
    size_t skinnedNodes = 0;
    for (esv::Mesh& mesh : scene.meshes) {
        if (mesh.boneBatches.empty()) continue;
        std::vector<int32_t>& bones = mesh.boneBatches[0].bones;
        const std::vector<int32_t> first = bones;
        while (bones.size() < 40) bones.push_back(first[bones.size() % first.size()]);
        mesh.maxBonesPerBatch = 40;
    }
    for (const esv::Node& n : scene.nodes)
        if (n.kind == esv::NodeKind::Mesh && n.skin >= 0) ++skinnedNodes;
    ASSERT_GT(skinnedNodes, 0u);
    for (bool gles2 : {false, true}) {
        // Unprepared on purpose: the preparation stage would split the batch for ES2's palette, and
        // this is about what the renderer does with a batch it cannot take.
        const DrawnOnce drawn = drawOnce(scene, 0.5f, gles2, /*prepare=*/false);
        ASSERT_TRUE(drawn.ok);
        bool reported = false;
        for (const esv::ReportLine& line : drawn.report)
            reported |= line.severity == esv::Severity::Warning &&
                        line.text.find("40 bones per batch exceed the palette") != std::string::npos;
        EXPECT_EQ(reported, gles2) << (gles2 ? "ES2" : "ES3");
        const esv::FrameStats& stats = drawn.stats;
        EXPECT_EQ(stats.cpuSkinnedNodes, gles2 ? uint32_t(skinnedNodes) : 0u) << (gles2 ? "ES2" : "ES3");
        EXPECT_EQ(stats.boneBatchesDrawn > 0, !gles2);
    }
}

TEST(SkinningCapture, Es2ModeSaysItCannotCapture) {
    esv::test::RenderHarness harness(true, 64, 64, /*checkErrors=*/false);
    ASSERT_TRUE(harness.setScene(esv::makeDemoScene()));
    const esv::Pose pose = harness.poseAt(0.0f);
    std::vector<glm::vec3> p, n;
    std::string error;
    EXPECT_FALSE(harness.renderer().captureVertices(harness.scene(), pose, 1, p, n, error));
    EXPECT_NE(error.find("ES3"), std::string::npos) << error;
}

}  // namespace
