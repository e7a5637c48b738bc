// Unit tests of the glTF writer's two conversions that must be exact: OpenGEX Bezier curves to
// CUBICSPLINE samplers (values and tangents at the keys, and the curve between them, equal the
// source's as the sampler evaluates it) and bone batches merged into one joint list (skinned world
// positions equal the CPU reference's), on fixtures built here and on every shared sample.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/test_paths.h"
#include "convert_gltf/glb_reader.h"
#include "convert/gltf/gltf_curves.h"
#include "convert/gltf/gltf_skin.h"
#include "convert/gltf/gltf_writer.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

Track bezierFixture() {
    Track t;
    t.channel = Channel::Translation;
    t.interpolation = Interpolation::Bezier;
    t.components = 3;
    t.times = {0.25f, 0.75f, 2.0f, 2.1f};
    t.values = {0, 0, 0, 1, 2, -1, 3, -2, 0.5f, 3, 0, 4};
    t.inValues = {0, 0, 0, 0.2f, 1.5f, -2, 2.5f, -1, 0.2f, 3.5f, 0.5f, 3};
    t.outValues = {0.5f, 0.1f, 0.3f, 2, 2.5f, 0, 3.5f, -3, 1, 0, 0, 0};
    return t;
}

// The glTF curve equals the Bezier curve the sampler evaluates, between and at the keys.
void expectSameCurve(const Track& track, float offset, const std::string& what) {
    std::vector<float> times, outputs;
    ASSERT_TRUE(gltf::bezierToCubicSpline(track, offset, times, outputs)) << what;
    ASSERT_EQ(times.size(), track.times.size());
    ASSERT_EQ(outputs.size(), track.times.size() * track.components * 3);
    const size_t comps = track.components;
    float scale = 1.0f;
    for (float v : track.values) scale = std::max(scale, std::fabs(v));
    std::vector<float> a(comps), b(comps);
    const float t0 = track.times.front(), t1 = track.times.back();
    for (int i = 0; i <= 400; ++i) {
        const float t = t0 + (t1 - t0) * float(i) / 400.0f;
        sampleTrack(track, t, a.data());
        gltf::evaluateCubicSpline(times, outputs, uint32_t(comps), t - offset, b.data());
        for (size_t c = 0; c < comps; ++c) ASSERT_NEAR(a[c], b[c], 2e-4f * scale) << what << " at " << t;
    }
    for (size_t k = 0; k < times.size(); ++k) {
        EXPECT_FLOAT_EQ(times[k], track.times[k] - offset);
        for (size_t c = 0; c < comps; ++c) {
            // The value at the key, and the tangents: the curve's one-sided derivatives there.
            EXPECT_FLOAT_EQ(outputs[(k * 3 + 1) * comps + c], track.values[k * comps + c]) << what;
            if (k + 1 < times.size()) {
                const float h = (track.times[k + 1] - track.times[k]) * 1e-3f;
                sampleTrack(track, track.times[k] + h, a.data());
                const float slope = (a[c] - track.values[k * comps + c]) / h;
                EXPECT_NEAR(outputs[(k * 3 + 2) * comps + c], slope, 2e-2f * std::max(1.0f, std::fabs(slope)))
                    << what << " out-tangent of key " << k;
            }
            if (k > 0) {
                const float h = (track.times[k] - track.times[k - 1]) * 1e-3f;
                sampleTrack(track, track.times[k] - h, a.data());
                const float slope = (track.values[k * comps + c] - a[c]) / h;
                EXPECT_NEAR(outputs[(k * 3 + 0) * comps + c], slope, 2e-2f * std::max(1.0f, std::fabs(slope)))
                    << what << " in-tangent of key " << k;
            }
        }
    }
}

TEST(GltfCurves, BezierBecomesCubicSplineWithTheSameValuesAndTangents) {
    expectSameCurve(bezierFixture(), 0.0f, "fixture");
    expectSameCurve(bezierFixture(), 0.25f, "fixture starting at 0.25 s");
}

TEST(GltfCurves, BezierTimeCurveAtThirdsIsExactOtherwiseRefused) {
    Track t = bezierFixture();
    for (size_t k = 0; k < t.times.size(); ++k) {
        const float before = k > 0 ? t.times[k] - t.times[k - 1] : 1.0f;
        const float after = k + 1 < t.times.size() ? t.times[k + 1] - t.times[k] : 1.0f;
        t.inTimes.push_back(t.times[k] - before / 3.0f);
        t.outTimes.push_back(t.times[k] + after / 3.0f);
    }
    EXPECT_TRUE(gltf::timeCurveIsLinear(t));
    expectSameCurve(t, 0.0f, "time curve at thirds");
    t.outTimes[1] = t.times[1] + 0.05f;
    EXPECT_FALSE(gltf::timeCurveIsLinear(t));
    std::vector<float> times, outputs;
    EXPECT_FALSE(gltf::bezierToCubicSpline(t, 0.0f, times, outputs));
    Track linear = bezierFixture();
    linear.interpolation = Interpolation::Linear;
    EXPECT_FALSE(gltf::bezierToCubicSpline(linear, 0.0f, times, outputs));
}

// Every Bezier track of the shared samples that converts gives the same curve.
TEST(GltfCurves, SharedSampleBezierTracks) {
    ESVIEW_REQUIRE_MODELS("");
    size_t converted = 0, bezier = 0;
    for (const auto& entry : fs::recursive_directory_iterator(test::modelsDir())) {
        if (!entry.is_regular_file() || entry.path().extension() != ".ogex") continue;
        LoadResult loaded = loadSceneFile(entry.path().string());
        if (!loaded.scene) continue;
        for (const Clip& clip : loaded.scene->animation.clips)
            for (const Track& t : clip.tracks) {
                std::vector<float> times, outputs;
                bezier += t.interpolation == Interpolation::Bezier;
                if (t.interpolation != Interpolation::Bezier || t.channel == Channel::Rotation ||
                    !gltf::bezierToCubicSpline(t, clip.start, times, outputs))
                    continue;
                expectSameCurve(t, clip.start, entry.path().filename().string());
                ++converted;
            }
    }
    std::printf("Bezier tracks compared: %zu of %zu\n", converted, bezier);
}

// A mesh with two bone batches whose vertices hold batch-local indices.
Scene batchedSkinFixture() {
    Scene scene;
    scene.format = "fixture";
    Node meshNode;
    meshNode.name = "mesh";
    meshNode.kind = NodeKind::Mesh;
    meshNode.object = 0;
    meshNode.skin = 0;
    meshNode.materials = {-1};
    scene.nodes.push_back(meshNode);
    for (int j = 0; j < 4; ++j) {
        Node bone;
        bone.name = "bone" + std::to_string(j);
        bone.kind = NodeKind::Bone;
        bone.parent = j == 0 ? -1 : j;  // a chain under node 1
        bone.local.translation = glm::vec3(0.5f * float(j), 1.0f, -0.25f * float(j));
        bone.local.rotation = glm::angleAxis(0.3f * float(j + 1), glm::normalize(glm::vec3(1, 2, 3 - j)));
        bone.local.scale = glm::vec3(1.0f + 0.1f * float(j));
        scene.nodes.push_back(bone);
    }
    Skin skin;
    for (int j = 0; j < 4; ++j) {
        skin.joints.push_back(j + 1);
        skin.inverseBind.push_back(
            glm::inverse(glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, float(j), 0.0f))));
    }
    scene.skins.push_back(skin);

    Mesh mesh;
    mesh.name = "batched";
    mesh.vertexCount = 6;
    const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1};
    const std::vector<uint8_t> indices = {0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1};  // local to each batch
    const std::vector<float> weights = {1, 0, 0.25f, 0.75f, 0.5f, 0.5f, 0.6f, 0.4f, 0, 1, 0.3f, 0.7f};
    auto stream = [&](const void* data, size_t bytes, uint32_t stride, VertexAttribute a) {
        std::vector<uint8_t> copy(bytes);
        std::memcpy(copy.data(), data, bytes);
        VertexStream s;
        s.bytes = makeOwnedBytes(std::move(copy));
        s.stride = stride;
        s.count = 6;
        s.attributes = {a};
        mesh.streams.push_back(s);
    };
    VertexAttribute p;
    stream(positions.data(), positions.size() * 4, 12, p);
    VertexAttribute bi;
    bi.semantic = Semantic::BoneIndices;
    bi.type = ComponentType::UInt8;
    bi.components = 2;
    stream(indices.data(), indices.size(), 2, bi);
    VertexAttribute bw;
    bw.semantic = Semantic::BoneWeights;
    bw.components = 2;
    stream(weights.data(), weights.size() * 4, 8, bw);
    const std::vector<uint16_t> triangles = {0, 1, 2, 3, 4, 5};
    std::vector<uint8_t> indexBytes(triangles.size() * 2);
    std::memcpy(indexBytes.data(), triangles.data(), indexBytes.size());
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.bytes = makeOwnedBytes(std::move(indexBytes));
    mesh.indices.count = 6;
    Submesh sub;
    sub.indexCount = 6;
    mesh.submeshes.push_back(sub);
    mesh.boneBatches = {{{1, 3}, 0, 1}, {{0, 2}, 1, 1}};
    mesh.boneIndicesBatchLocal = true;
    mesh.maxBonesPerBatch = 2;
    scene.meshes.push_back(mesh);
    return scene;
}

// Skinned world positions from the merged influences equal the CPU reference's for `node`.
void expectSameSkinning(const Scene& scene, const Pose& pose, int node, const std::string& what) {
    const Mesh& mesh = scene.meshes[scene.nodes[node].object];
    const Skin& skin = scene.skins[scene.nodes[node].skin];
    const gltf::VertexInfluences influences = gltf::mergeBoneBatches(mesh, uint32_t(skin.joints.size()));
    ASSERT_GT(influences.sets, 0u) << what;
    std::vector<glm::vec3> reference;
    worldVertices(scene, pose, node, reference);
    ASSERT_EQ(reference.size(), mesh.vertexCount);
    std::vector<glm::mat4> palette;
    skinPalette(scene, pose, node, palette);
    const VertexStream* ps = nullptr;
    const VertexAttribute* pa = findAttribute(mesh, Semantic::Position, 0, &ps);
    ASSERT_NE(pa, nullptr);
    const size_t slots = size_t(influences.sets) * 4;
    float extent = 1.0f;
    for (const glm::vec3& r : reference) extent = std::max(extent, glm::length(r));
    size_t compared = 0;
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
        // The writer divides the weights by their sum, as glTF asks; undone here so that the merge
        // itself is compared (vertices with no weight are left to the reference's fallback).
        const float sum = influences.rawSums[v];
        if (sum == 0.0f) continue;
        float raw[4];
        readAttribute(*ps, *pa, v, raw);
        const glm::vec4 local = mesh.positionUnpack * glm::vec4(raw[0], raw[1], raw[2], 1.0f);
        glm::mat4 m(0.0f);
        for (size_t k = 0; k < slots; ++k) {
            const float w = influences.weights[v * slots + k];
            if (w != 0.0f) m += w * sum * palette[influences.joints[v * slots + k]];
        }
        const glm::vec3 mine(m * local);
        ASSERT_NEAR(glm::length(mine - reference[v]), 0.0f, 1e-4f * extent) << what << " vertex " << v;
        ++compared;
    }
    EXPECT_GT(compared, 0u) << what;
}

TEST(GltfSkin, BatchesMergeIntoOneJointList) {
    Scene scene = batchedSkinFixture();
    const gltf::VertexInfluences influences = gltf::mergeBoneBatches(scene.meshes[0], 4);
    ASSERT_EQ(influences.sets, 1u);
    // Vertex 1 (batch 0: bones 1, 3): local 1 -> joint 3 (0.25), local 0 -> joint 1 (0.75), heaviest first.
    EXPECT_EQ(influences.joints[4 + 0], 1);
    EXPECT_FLOAT_EQ(influences.weights[4 + 0], 0.75f);
    EXPECT_EQ(influences.joints[4 + 1], 3);
    // Vertex 4 (batch 1: bones 0, 2): local 1 -> joint 2 with all the weight; the zero slot names joint 0.
    EXPECT_EQ(influences.joints[16 + 0], 2);
    EXPECT_FLOAT_EQ(influences.weights[16 + 0], 1.0f);
    EXPECT_FLOAT_EQ(influences.weights[16 + 1], 0.0f);
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    expectSameSkinning(scene, pose, 0, "fixture");
}

// A vertex the triangles of two batches share (vertex 2: batch 0's triangle and batch 1's) takes its
// joints from the first batch, as the CPU reference does: local 0 and 1 are joints 1 and 3 there,
// joints 0 and 2 in the second batch.
TEST(GltfSkin, AVertexSharedByTwoBatchesResolvesThroughTheFirst) {
    Scene scene = batchedSkinFixture();
    Mesh& mesh = scene.meshes[0];
    const std::vector<uint16_t> triangles = {0, 1, 2, 2, 4, 5};
    std::vector<uint8_t> indexBytes(triangles.size() * 2);
    std::memcpy(indexBytes.data(), triangles.data(), indexBytes.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(indexBytes));
    const gltf::VertexInfluences influences = gltf::mergeBoneBatches(mesh, 4);
    ASSERT_EQ(influences.sets, 1u);
    // Vertex 2 weighs 0.5 and 0.5 on locals 0 and 1.
    std::vector<int> joints = {influences.joints[8 + 0], influences.joints[8 + 1]};
    std::sort(joints.begin(), joints.end());
    EXPECT_EQ(joints, (std::vector<int>{1, 3}));
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    expectSameSkinning(scene, pose, 0, "shared vertex");
}

// Every skinned instance of the shared samples, at rest and in the middle of each clip.
TEST(GltfSkin, SharedSamplesSkinAsTheCpuReference) {
    ESVIEW_REQUIRE_MODELS("");
    size_t instances = 0, batched = 0;
    for (const auto& entry : fs::recursive_directory_iterator(test::modelsDir())) {
        if (!entry.is_regular_file()) continue;
        const std::string ext = entry.path().extension().string();
        if (ext != ".pod" && ext != ".ogex" && ext != ".awd" && ext != ".AWD") continue;
        LoadResult loaded = loadSceneFile(entry.path().string());
        if (!loaded.scene) continue;
        const Scene& scene = *loaded.scene;
        for (size_t i = 0; i < scene.nodes.size(); ++i) {
            const Node& node = scene.nodes[i];
            if (node.kind != NodeKind::Mesh || node.skin < 0 || node.object < 0) continue;
            const Mesh& mesh = scene.meshes[node.object];
            if (!findAttribute(mesh, Semantic::BoneIndices, 0, nullptr) ||
                scene.skins[node.skin].joints.empty())
                continue;
            Pose pose;
            evaluatePose(scene, -1, 0.0f, pose);
            const std::string what = entry.path().filename().string() + " / " + node.name;
            expectSameSkinning(scene, pose, int(i), what + " at rest");
            for (size_t c = 0; c < scene.animation.clips.size(); ++c) {
                const Clip& clip = scene.animation.clips[c];
                evaluatePose(scene, int(c), 0.5f * (clip.start + clip.end), pose);
                expectSameSkinning(scene, pose, int(i), what + " in clip " + clip.name);
            }
            ++instances;
            batched += mesh.boneIndicesBatchLocal;
        }
    }
    EXPECT_GT(instances, 0u) << "the shared samples have skinned meshes";
    EXPECT_GT(batched, 0u) << "the shared samples have bone batches";
}

// A scene with two clips: exact Step, Linear and Bezier tracks, and a TCB track to resample.
Scene animatedFixture() {
    Scene scene;
    scene.format = "fixture";
    for (const char* name : {"a", "b"}) {
        Node node;
        node.name = name;
        scene.nodes.push_back(node);
    }
    Clip one;
    one.name = "one";
    one.start = 1.0f;
    one.end = 3.0f;
    Track move;
    move.node = 0;
    move.channel = Channel::Translation;
    move.times = {1.0f, 2.0f, 3.0f};
    move.values = {0, 0, 0, 1, 2, 3, 4, 5, 6};
    one.tracks.push_back(move);
    Track turn;
    turn.node = 0;
    turn.channel = Channel::Rotation;
    turn.interpolation = Interpolation::Step;
    turn.components = 4;
    turn.times = {1.0f, 3.0f};
    turn.values = {0, 0, 0, 1, 0, 0.6f, 0, 0.8f};
    one.tracks.push_back(turn);
    Track grow;
    grow.node = 1;
    grow.channel = Channel::Scale;
    grow.interpolation = Interpolation::Bezier;
    grow.times = {1.0f, 3.0f};
    grow.values = {1, 1, 1, 2, 2, 2};
    grow.inValues = {1, 1, 1, 1.5f, 1.5f, 1.5f};
    grow.outValues = {1.2f, 1.2f, 1.2f, 2, 2, 2};
    one.tracks.push_back(grow);
    scene.animation.clips.push_back(one);
    Clip two;
    two.name = "two";
    two.start = 0.0f;
    two.end = 1.0f;
    Track spline;
    spline.node = 1;
    spline.channel = Channel::Translation;
    spline.interpolation = Interpolation::Tcb;
    spline.times = {0.0f, 0.5f, 1.0f};
    spline.values = {0, 0, 0, 1, 1, 0, 2, 0, 0};
    spline.tension = {0.5f, 0.5f, 0.5f};
    spline.continuity = {0, 0, 0};
    spline.bias = {0, 0.2f, 0};
    two.tracks.push_back(spline);
    scene.animation.clips.push_back(two);
    return scene;
}

nlohmann::json writeFixture(const Scene& scene, double fps, const std::string& name) {
    const fs::path dir = test::outputDir() / "gltf_units";
    fs::create_directories(dir);
    const std::string path = (dir / (name + ".gltf")).string();
    GltfWriteOptions options;
    options.resampleFps = fps;
    GltfWriteReport report;
    std::string error;
    EXPECT_TRUE(writeGltf(scene, path, options, report, error)) << error;
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

TEST(GltfWriter, EveryClipIsAnAnimationExactOrResampled) {
    for (double fps : {10.0, 30.0}) {
        const nlohmann::json doc = writeFixture(animatedFixture(), fps, "animated");
        ASSERT_EQ(doc["animations"].size(), 2u);
        const nlohmann::json& one = doc["animations"][0];
        const nlohmann::json& two = doc["animations"][1];
        EXPECT_EQ(one["name"], "one");
        EXPECT_EQ(two["name"], "two");
        // Clip one: three exact channels, times from the clip's start.
        ASSERT_EQ(one["channels"].size(), 3u);
        std::map<std::string, std::string> interpolation;
        for (const auto& channel : one["channels"]) {
            const auto& sampler = one["samplers"][channel["sampler"].get<int>()];
            const std::string key = std::to_string(channel["target"]["node"].get<int>()) + " " +
                                    channel["target"]["path"].get<std::string>();
            interpolation[key] = sampler["interpolation"];
            const auto& input = doc["accessors"][sampler["input"].get<int>()];
            EXPECT_FLOAT_EQ(input["min"][0].get<float>(), 0.0f) << key;
            EXPECT_FLOAT_EQ(input["max"][0].get<float>(), 2.0f) << key;
            const auto& output = doc["accessors"][sampler["output"].get<int>()];
            if (key == "1 scale") {
                EXPECT_EQ(output["count"], 6u) << "in-tangent, value, out-tangent per key";
            }
            if (key == "0 translation") {
                EXPECT_EQ(output["count"], 3u);
            }
        }
        EXPECT_EQ(interpolation["0 translation"], "LINEAR");
        EXPECT_EQ(interpolation["0 rotation"], "STEP");
        EXPECT_EQ(interpolation["1 scale"], "CUBICSPLINE");
        // Clip two: TCB resampled at the rate asked for, as T, R and S of its node.
        ASSERT_EQ(two["channels"].size(), 3u);
        for (const auto& channel : two["channels"]) {
            const auto& sampler = two["samplers"][channel["sampler"].get<int>()];
            EXPECT_EQ(channel["target"]["node"], 1);
            EXPECT_EQ(sampler["interpolation"], "LINEAR");
            EXPECT_EQ(doc["accessors"][sampler["input"].get<int>()]["count"], size_t(fps) + 1) << fps;
        }
    }
}

// Names are bytes from the file: ones that are not UTF-8 still give a document (U+FFFD in them).
TEST(GltfWriter, NamesThatAreNotUtf8) {
    Scene scene = animatedFixture();
    scene.nodes[0].name = "bad \xff\xfe name";
    scene.animation.clips[0].name = "\x8f";
    const nlohmann::json doc = writeFixture(scene, 30.0, "names");
    EXPECT_EQ(doc["nodes"][0]["name"], "bad \xEF\xBF\xBD\xEF\xBF\xBD name");
}

// A metal/rough material's glTF terms survive writing and reading back: sampler filters, the
// normal scale, the occlusion strength and KHR_materials_specular's factors.
TEST(GltfWriter, MaterialTermsAndSamplerFiltersRoundTrip) {
    Scene scene = animatedFixture();
    scene.animation.clips.clear();
    Texture texture;
    texture.name = "grey";
    texture.image.width = texture.image.height = 1;
    texture.image.container = "png";
    texture.image.surfaces.push_back(makeOwnedBytes({128, 128, 128, 255}));
    scene.textures.push_back(texture);
    Material m;
    m.name = "m";
    m.model = ShadingModel::MetalRough;
    m.normalScale = 0.5f;
    m.occlusionStrength = 0.25f;
    m.specularFactor = 0.75f;
    m.specularColorFactor = glm::vec3(1.0f, 0.5f, 0.25f);
    m.texture(TextureSlot::Normal).texture = 0;
    m.texture(TextureSlot::Normal).magFilter = TextureFilter::Nearest;
    m.texture(TextureSlot::Normal).minFilter = TextureFilter::NearestMipmapLinear;
    m.texture(TextureSlot::Occlusion).texture = 0;  // esview's own filters
    scene.materials.push_back(m);
    const nlohmann::json doc = writeFixture(scene, 30.0, "material_terms");
    const nlohmann::json& written = doc["materials"][0];
    EXPECT_FLOAT_EQ(written["normalTexture"]["scale"].get<float>(), 0.5f);
    EXPECT_FLOAT_EQ(written["occlusionTexture"]["strength"].get<float>(), 0.25f);
    const nlohmann::json& specular = written["extensions"]["KHR_materials_specular"];
    EXPECT_FLOAT_EQ(specular["specularFactor"].get<float>(), 0.75f);
    EXPECT_FLOAT_EQ(specular["specularColorFactor"][1].get<float>(), 0.5f);
    auto samplerOf = [&](const nlohmann::json& info) {
        return doc["samplers"][doc["textures"][info["index"].get<int>()]["sampler"].get<int>()];
    };
    EXPECT_EQ(samplerOf(written["normalTexture"])["magFilter"], 9728);
    EXPECT_EQ(samplerOf(written["normalTexture"])["minFilter"], 9986);
    EXPECT_EQ(samplerOf(written["occlusionTexture"])["magFilter"], 9729);
    EXPECT_EQ(samplerOf(written["occlusionTexture"])["minFilter"], 9987);
    const LoadResult back = loadSceneFile((test::outputDir() / "gltf_units" / "material_terms.gltf").string());
    ASSERT_TRUE(back.scene);
    const Material& read = back.scene->materials.at(0);
    EXPECT_FLOAT_EQ(read.normalScale, 0.5f);
    EXPECT_FLOAT_EQ(read.occlusionStrength, 0.25f);
    EXPECT_FLOAT_EQ(read.specularFactor, 0.75f);
    EXPECT_EQ(read.specularColorFactor, glm::vec3(1.0f, 0.5f, 0.25f));
    EXPECT_EQ(read.texture(TextureSlot::Normal).magFilter, TextureFilter::Nearest);
    EXPECT_EQ(read.texture(TextureSlot::Normal).minFilter, TextureFilter::NearestMipmapLinear);
    EXPECT_EQ(read.texture(TextureSlot::Occlusion).minFilter, TextureFilter::LinearMipmapLinear);
}

// KHR_materials_specular's maps are written into the extension (without factors of their own too)
// and read back into the same slots, the strength map with its texture coordinate transform; a
// classic material's strength map has no glTF counterpart and is left out with a note.
TEST(GltfWriter, SpecularMapsRoundTrip) {
    Scene scene = animatedFixture();
    scene.animation.clips.clear();
    for (const char* name : {"strength", "tint"}) {
        Texture texture;
        texture.name = name;
        texture.image.width = texture.image.height = 1;
        texture.image.container = "png";
        const uint8_t level = scene.textures.empty() ? 64 : 192;
        texture.image.surfaces.push_back(makeOwnedBytes({level, level, level, level}));
        scene.textures.push_back(texture);
    }
    UvTransform shift;
    shift.name = "shift";
    TransformElement e;
    e.kind = ElementKind::Translate;
    e.value = {0.25f, 0.5f, 0.0f};
    shift.elements.push_back(e);
    scene.uvTransforms.push_back(shift);
    Material m;
    m.name = "m";
    m.model = ShadingModel::MetalRough;
    m.texture(TextureSlot::SpecularStrength).texture = 0;
    m.texture(TextureSlot::SpecularStrength).uvTransform = 0;
    m.texture(TextureSlot::SpecularTint).texture = 1;
    m.texture(TextureSlot::SpecularTint).wrapS = Wrap::Clamp;
    scene.materials.push_back(m);
    Material classic;
    classic.name = "classic";
    classic.texture(TextureSlot::SpecularStrength).texture = 0;
    scene.materials.push_back(classic);
    const fs::path path = test::outputDir() / "gltf_units" / "specular_maps.gltf";
    fs::create_directories(path.parent_path());
    GltfWriteReport report;
    std::string error;
    ASSERT_TRUE(writeGltf(scene, path.string(), GltfWriteOptions{}, report, error)) << error;
    std::string notes;
    for (const std::string& n : report.notes) notes += n + "\n";
    EXPECT_NE(notes.find("material 'classic': specular_strength map on a material that is not metal/rough: left out"),
              std::string::npos)
        << notes;
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    const nlohmann::json& specular = doc["materials"][0]["extensions"]["KHR_materials_specular"];
    EXPECT_FALSE(specular.contains("specularFactor")) << "the default factors are not written";
    ASSERT_TRUE(specular.contains("specularTexture")) << specular.dump();
    ASSERT_TRUE(specular.contains("specularColorTexture")) << specular.dump();
    EXPECT_TRUE(specular["specularTexture"]["extensions"].contains("KHR_texture_transform"));
    // The classic material's specular colour is its own (0 here); its strength map is not written.
    EXPECT_FALSE(doc["materials"][1]["extensions"]["KHR_materials_specular"].contains("specularTexture"))
        << doc["materials"][1].dump();
    const LoadResult back = loadSceneFile(path.string());
    ASSERT_TRUE(back.scene);
    const Scene& b = *back.scene;
    const Material& read = b.materials.at(0);
    const TextureRef& strength = read.texture(TextureSlot::SpecularStrength);
    const TextureRef& tint = read.texture(TextureSlot::SpecularTint);
    ASSERT_GE(strength.texture, 0);
    ASSERT_GE(tint.texture, 0);
    EXPECT_EQ(b.textures.at(size_t(strength.texture)).name, "strength");
    EXPECT_EQ(b.textures.at(size_t(tint.texture)).name, "tint");
    EXPECT_EQ(tint.wrapS, Wrap::Clamp);
    EXPECT_EQ(tint.wrapT, Wrap::Repeat);
    EXPECT_EQ(tint.uvTransform, -1);
    ASSERT_GE(strength.uvTransform, 0);
    const glm::vec4 uv = b.uvTransforms.at(size_t(strength.uvTransform)).matrix() * glm::vec4(0, 0, 0, 1);
    EXPECT_NEAR(uv.x, 0.25f, 1e-6f);
    EXPECT_NEAR(uv.y, 0.5f, 1e-6f);
    EXPECT_FLOAT_EQ(read.specularFactor, 1.0f);
    EXPECT_EQ(read.specularColorFactor, glm::vec3(1.0f));
    EXPECT_EQ(b.materials.at(1).texture(TextureSlot::SpecularStrength).texture, -1);
}

// glTF wants node matrices that decompose; a zero scale on an axis is written as T, R and S.
TEST(GltfWriter, ZeroScaleMatrixBecomesTrs) {
    Scene scene = animatedFixture();
    scene.animation.clips.clear();
    scene.nodes[1].local.useMatrix = true;
    scene.nodes[1].local.matrix = glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)) *
                                  glm::rotate(glm::mat4(1.0f), 0.5f, glm::vec3(0, 0, 1)) *
                                  glm::scale(glm::mat4(1.0f), glm::vec3(2, 0, 3));
    const nlohmann::json doc = writeFixture(scene, 30.0, "zero_scale");
    const nlohmann::json& node = doc["nodes"][1];
    EXPECT_FALSE(node.contains("matrix"));
    ASSERT_TRUE(node.contains("scale"));
    EXPECT_NEAR(node["scale"][0].get<float>(), 2.0f, 1e-5f);
    EXPECT_NEAR(node["scale"][1].get<float>(), 0.0f, 1e-5f);
    EXPECT_NEAR(node["scale"][2].get<float>(), 3.0f, 1e-5f);
    EXPECT_NEAR(node["rotation"][2].get<float>(), std::sin(0.25f), 1e-5f);
    EXPECT_NEAR(node["translation"][1].get<float>(), 2.0f, 1e-5f);
}

// OpenGEX base-weighted morphing (the base scaled by the absolute targets' weights) is exact in
// glTF through one more target: the output draws esview's box at rest and during a weight clip.
TEST(GltfWriter, OpenGexBaseWeightedMorphsAreExact) {
    Scene scene;
    scene.format = "fixture";
    Node node;
    node.name = "morphed";
    node.kind = NodeKind::Mesh;
    node.object = 0;
    node.materials = {-1};
    scene.nodes.push_back(node);
    Mesh mesh;
    mesh.name = "blend";
    mesh.vertexCount = 3;
    mesh.morphBaseWeighted = true;
    auto stream = [](std::vector<float> positions) {
        VertexStream s;
        std::vector<uint8_t> bytes(positions.size() * 4);
        std::memcpy(bytes.data(), positions.data(), bytes.size());
        s.bytes = makeOwnedBytes(std::move(bytes));
        s.stride = 12;
        s.count = 3;
        s.attributes = {VertexAttribute{}};
        return s;
    };
    const std::vector<float> base = {0, 0, 0, 2, 0, 0, 0, 2, 0};
    mesh.streams.push_back(stream(base));
    Submesh sub;
    sub.indexCount = 3;
    mesh.submeshes.push_back(sub);
    MorphTarget baseTarget{"base", stream(base), false, true};
    MorphTarget moved{"moved", stream({1, 1, 0, 4, 1, 0, 1, 5, 2}), false, false};
    mesh.morphTargets = {baseTarget, moved};
    mesh.defaultMorphWeights = {0.3f, 0.3f};
    scene.meshes.push_back(mesh);
    Clip clip;
    clip.name = "blend";
    clip.end = 1.0f;
    Track weights;
    weights.node = 0;
    weights.channel = Channel::MorphWeights;
    weights.components = 2;
    weights.times = {0.0f, 1.0f};
    weights.values = {0.5f, 0.5f, 0.2f, 0.9f};
    clip.tracks.push_back(weights);
    scene.animation.clips.push_back(clip);

    const fs::path path = test::outputDir() / "gltf_units" / "base_weighted.glb";
    fs::create_directories(path.parent_path());
    GltfWriteOptions options;
    options.binary = true;
    GltfWriteReport report;
    std::string error;
    ASSERT_TRUE(writeGltf(scene, path.string(), options, report, error)) << error;
    test::Glb glb;
    ASSERT_TRUE(test::readGlb(path.string(), glb));
    ASSERT_EQ(glb.doc["meshes"][0]["primitives"][0]["targets"].size(), 3u);
    for (float t : {-1.0f, 0.0f, 0.5f, 1.0f}) {
        Pose pose;
        evaluatePose(scene, t < 0.0f ? -1 : 0, std::max(t, 0.0f), pose);
        const Bounds expected = sceneBounds(scene, pose);
        const Bounds got = test::glbBounds(glb, t < 0.0f ? -1 : 0, std::max(t, 0.0f));
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(got.min[a], expected.min[a], 1e-5f) << "time " << t;
            EXPECT_NEAR(got.max[a], expected.max[a], 1e-5f) << "time " << t;
        }
    }
}

}  // namespace
}  // namespace esv
