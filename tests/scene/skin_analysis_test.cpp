// Skinning analysis (scene/skin_analysis.h): meshes built by hand with UInt8 bone indices and float
// or normalised UInt8 weights, so every sum, bad weight, bad index, joint influence and batch budget
// has a known answer; the CPU skinning path must move vertices by the weights the analysis reports.
// One test reads a skinned POD sample from ../shared/models when it is there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/skin_analysis.h"

namespace esv {
namespace {

constexpr float kEps = 1e-6f;

// Stored influences of one vertex: index and weight values as the file holds them (weights already
// scaled to 0..255 for normalised UInt8).
struct V {
    std::vector<uint8_t> idx;
    std::vector<float> w;
};

// One stream: position Float32 x3 @0 (vertex i at x = i), BoneIndices UInt8 x idxComps @12, then
// BoneWeights (Float32, or UInt8 normalised) x wComps, unaligned. One Triangles submesh.
Mesh skinnedMesh(const std::vector<V>& verts, uint8_t idxComps, uint8_t wComps, bool uint8Weights,
                 const std::vector<uint16_t>& triangles) {
    Mesh mesh;
    mesh.name = "skinned";
    mesh.vertexCount = static_cast<uint32_t>(verts.size());
    const uint32_t wSize = uint8Weights ? 1 : 4;
    VertexStream s;
    s.stride = 12 + idxComps + wSize * wComps;
    s.count = mesh.vertexCount;
    s.attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0},
        {Semantic::BoneIndices, 0, ComponentType::UInt8, idxComps, false, Swizzle::Identity, 12},
        {Semantic::BoneWeights, 0, uint8Weights ? ComponentType::UInt8 : ComponentType::Float32, wComps,
         uint8Weights, Swizzle::Identity, 12u + idxComps},
    };
    std::vector<uint8_t> bytes(size_t(s.stride) * verts.size(), 0);
    for (size_t i = 0; i < verts.size(); ++i) {
        uint8_t* p = bytes.data() + i * s.stride;
        const float pos[3] = {static_cast<float>(i), 0.0f, 0.0f};
        std::memcpy(p, pos, 12);  // the test host is little-endian, like every target
        for (size_t k = 0; k < verts[i].idx.size() && k < idxComps; ++k) p[12 + k] = verts[i].idx[k];
        for (size_t k = 0; k < verts[i].w.size() && k < wComps; ++k) {
            uint8_t* at = p + 12 + idxComps + k * wSize;
            if (uint8Weights) {
                *at = static_cast<uint8_t>(verts[i].w[k]);
            } else {
                std::memcpy(at, &verts[i].w[k], 4);
            }
        }
    }
    s.bytes = makeOwnedBytes(std::move(bytes));
    mesh.streams.push_back(std::move(s));
    std::vector<uint8_t> indexBytes(triangles.size() * 2);
    std::memcpy(indexBytes.data(), triangles.data(), indexBytes.size());
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = static_cast<uint32_t>(triangles.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(indexBytes));
    Submesh sub;
    sub.indexCount = mesh.indices.count;
    mesh.submeshes.push_back(sub);
    return mesh;
}

// Node 0 draws mesh 0 with skin 0; nodes 1..joints are the skin's joints in order (joint j is node
// j + 1, so joint indices and node indices differ).
Scene skinnedScene(Mesh mesh, size_t joints) {
    Scene scene;
    scene.meshes.push_back(std::move(mesh));
    Node instance;
    instance.name = "instance";
    instance.kind = NodeKind::Mesh;
    instance.object = 0;
    instance.skin = 0;
    scene.nodes.push_back(instance);
    Skin skin;
    for (size_t j = 0; j < joints; ++j) {
        Node bone;
        bone.name = "bone" + std::to_string(j);
        bone.kind = NodeKind::Bone;
        scene.nodes.push_back(bone);
        skin.joints.push_back(static_cast<int32_t>(j + 1));
        skin.inverseBind.emplace_back(1.0f);
    }
    scene.skins.push_back(skin);
    return scene;
}

SkinAnalysis analyze(const Scene& scene) {
    return analyzeSkinning(scene, 4, 10, 128);
}

std::vector<VertexInfluence> influences(const Scene& scene, int node, int joint) {
    std::vector<VertexInfluence> out{{99, 9.0f}};  // replaced, not appended to
    jointInfluences(scene, node, joint, out);
    return out;
}

TEST(SkinAnalysis, GoodWeightsHaveNoIssues) {
    const Scene scene = skinnedScene(skinnedMesh({{{0, 0, 0, 0}, {1, 0, 0, 0}},
                                                  {{0, 1, 0, 0}, {0.5f, 0.5f, 0, 0}},
                                                  {{0, 1, 2, 3}, {0.25f, 0.25f, 0.25f, 0.25f}},
                                                  {{3, 2, 1, 0}, {0.7f, 0.2f, 0.1f, 0}}},
                                                 4, 4, false, {0, 1, 2, 1, 2, 3}),
                                     4);
    const SkinAnalysis a = analyze(scene);
    EXPECT_TRUE(a.issues.empty());
    EXPECT_EQ(a.skinnedVertices, 4u);
    EXPECT_EQ(a.badSums, 0u);
    EXPECT_EQ(a.negativeWeights, 0u);
    EXPECT_EQ(a.badIndices, 0u);
    EXPECT_EQ(a.maxInfluences, 4u);
    // No batches: the whole skin is one palette over every triangle.
    ASSERT_EQ(a.batches.size(), 1u);
    const BatchBudget& b = a.batches[0];
    EXPECT_EQ(b.node, 0);
    EXPECT_EQ(b.mesh, 0);
    EXPECT_EQ(b.batch, -1);
    EXPECT_EQ(b.bones, 4u);
    EXPECT_EQ(b.uniformVectors, 16u);
    EXPECT_EQ(b.firstTriangle, 0u);
    EXPECT_EQ(b.triangleCount, 2u);
    EXPECT_FALSE(b.overLimit);

    // Joint 3 (node 4): 0.25 on vertex 2, 0.7 on vertex 3; joint indices are not node indices.
    const std::vector<VertexInfluence> j3 = influences(scene, 0, 4);
    ASSERT_EQ(j3.size(), 2u);
    EXPECT_EQ(j3[0].vertex, 2u);
    EXPECT_FLOAT_EQ(j3[0].weight, 0.25f);
    EXPECT_EQ(j3[1].vertex, 3u);
    EXPECT_FLOAT_EQ(j3[1].weight, 0.7f);
    const std::vector<VertexInfluence> j0 = influences(scene, 0, 1);
    // Zero-weight slots name joint 0 on vertices 0 and 3 too; they add nothing and count for nothing.
    ASSERT_EQ(j0.size(), 3u);
    EXPECT_EQ(j0[0].vertex, 0u);
    EXPECT_FLOAT_EQ(j0[0].weight, 1.0f);
    EXPECT_EQ(j0[2].vertex, 2u);
    EXPECT_TRUE(influences(scene, 0, 0).empty());  // the instance node is no joint
    EXPECT_TRUE(influences(scene, 1, 1).empty());  // a bone node is no mesh instance
    EXPECT_TRUE(influences(scene, 9, 1).empty());
}

TEST(SkinAnalysis, BadSumsNegativeWeightsAndBadIndices) {
    const Scene scene = skinnedScene(skinnedMesh({{{0, 1}, {0.5f, 0.2f}},    // sums to 0.7
                                                  {{0, 1}, {1.25f, -0.25f}},  // sums to 1, one negative
                                                  {{5, 0}, {1.0f, 0.0f}},     // joint 5 of 3
                                                  {{0, 1}, {0.0f, 0.0f}},     // no weight at all
                                                  {{200, 2}, {0.0f, 1.0f}}},  // a zero weight's index is unused
                                                 2, 2, false, {0, 1, 2, 2, 3, 4}),
                                     3);
    const SkinAnalysis a = analyze(scene);
    EXPECT_EQ(a.skinnedVertices, 5u);
    EXPECT_EQ(a.badSums, 2u);
    EXPECT_EQ(a.negativeWeights, 1u);
    EXPECT_EQ(a.badIndices, 1u);
    EXPECT_EQ(a.maxInfluences, 2u);
    ASSERT_EQ(a.issues.size(), 4u);
    EXPECT_EQ(a.issues[0].vertex, 0u);
    EXPECT_EQ(a.issues[0].node, 0);
    EXPECT_EQ(a.issues[0].what, "weights sum to 0.700");
    EXPECT_FLOAT_EQ(a.issues[0].weightSum, 0.7f);
    EXPECT_EQ(a.issues[0].influences, 2);
    EXPECT_EQ(a.issues[1].vertex, 1u);
    EXPECT_EQ(a.issues[1].what, "negative weight -0.250");
    EXPECT_FLOAT_EQ(a.issues[1].weightSum, 1.0f);
    EXPECT_EQ(a.issues[1].influences, 1);  // only weights > 0 count
    EXPECT_EQ(a.issues[2].vertex, 2u);
    EXPECT_EQ(a.issues[2].what, "bone index 5 outside skin of 3 joints");
    EXPECT_EQ(a.issues[3].vertex, 3u);
    EXPECT_EQ(a.issues[3].what, "weights sum to 0.000");
    EXPECT_EQ(a.issues[3].influences, 0);

    // The bad index and the negative weight move nothing; the rest is as stored.
    const std::vector<VertexInfluence> j1 = influences(scene, 0, 2);
    ASSERT_EQ(j1.size(), 1u);
    EXPECT_EQ(j1[0].vertex, 0u);
    EXPECT_FLOAT_EQ(j1[0].weight, 0.2f);

    // A looser tolerance accepts 0.7 but not 0.
    EXPECT_EQ(analyzeSkinning(scene, 4, 10, 128, 0.31f).badSums, 1u);
}

TEST(SkinAnalysis, MissingWeightsAreReadAsTheCpuPathReadsThem) {
    // Two indices, one stored weight: the second slot takes what the first left.
    Scene scene = skinnedScene(
        skinnedMesh({{{0, 1}, {0.25f}}, {{0, 2}, {1.0f}}, {{1, 2}, {0.5f}}}, 2, 1, false, {0, 1, 2}), 3);
    const SkinAnalysis a = analyze(scene);
    EXPECT_TRUE(a.issues.empty());
    EXPECT_EQ(a.maxInfluences, 2u);
    const std::vector<VertexInfluence> j1 = influences(scene, 0, 2);
    ASSERT_EQ(j1.size(), 2u);
    EXPECT_EQ(j1[0].vertex, 0u);
    EXPECT_FLOAT_EQ(j1[0].weight, 0.75f);
    EXPECT_EQ(j1[1].vertex, 2u);
    EXPECT_FLOAT_EQ(j1[1].weight, 0.5f);
    const std::vector<VertexInfluence> j2 = influences(scene, 0, 3);
    ASSERT_EQ(j2.size(), 1u);  // vertex 1's second slot is left 0: only vertex 2
    EXPECT_EQ(j2[0].vertex, 2u);

    // The CPU path moves each vertex by its influence on a moved joint.
    scene.nodes[2].local.translation = {0.0f, 8.0f, 0.0f};
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    std::vector<glm::vec3> positions;
    worldVertices(scene, pose, 0, positions);
    ASSERT_EQ(positions.size(), 3u);
    for (uint32_t v = 0; v < 3; ++v) {
        float expected = 0.0f;
        for (const VertexInfluence& in : j1)
            if (in.vertex == v) expected = 8.0f * in.weight;
        EXPECT_NEAR(positions[v].y, expected, kEps) << v;
    }

    // Three indices, two weights summing past 1: the third slot gets a negative remainder, as the
    // CPU path applies it.
    scene = skinnedScene(skinnedMesh({{{0, 1, 2}, {0.5f, 0.75f}}}, 3, 2, false, {0, 0, 0}), 3);
    const SkinAnalysis b = analyze(scene);
    EXPECT_EQ(b.badSums, 0u);
    EXPECT_EQ(b.negativeWeights, 1u);
    ASSERT_EQ(b.issues.size(), 1u);
    EXPECT_EQ(b.issues[0].what, "negative weight -0.250");
    scene.nodes[3].local.translation = {0.0f, 8.0f, 0.0f};  // joint 2
    evaluatePose(scene, -1, 0.0f, pose);
    worldVertices(scene, pose, 0, positions);
    EXPECT_NEAR(positions[0].y, -2.0f, kEps);
}

TEST(SkinAnalysis, NormalisedUInt8Weights) {
    const Scene scene = skinnedScene(skinnedMesh({{{0, 1}, {128, 127}},   // 255/255
                                                  {{0, 1}, {127, 127}},   // 254/255: rounding, accepted
                                                  {{0, 1}, {120, 120}},   // 240/255
                                                  {{1, 0}, {255, 0}}},
                                                 2, 2, true, {0, 1, 2, 1, 2, 3}),
                                     2);
    const SkinAnalysis a = analyze(scene);
    EXPECT_EQ(a.badSums, 1u);
    ASSERT_EQ(a.issues.size(), 1u);
    EXPECT_EQ(a.issues[0].vertex, 2u);
    EXPECT_EQ(a.issues[0].what, "weights sum to 0.941");
    EXPECT_EQ(a.maxInfluences, 2u);

    const std::vector<VertexInfluence> j0 = influences(scene, 0, 1);
    ASSERT_EQ(j0.size(), 3u);
    EXPECT_FLOAT_EQ(j0[0].weight, 128.0f / 255.0f);
    EXPECT_FLOAT_EQ(j0[1].weight, 127.0f / 255.0f);
    EXPECT_FLOAT_EQ(j0[2].weight, 120.0f / 255.0f);
    const std::vector<VertexInfluence> j1 = influences(scene, 0, 2);
    ASSERT_EQ(j1.size(), 4u);
    EXPECT_EQ(j1[3].vertex, 3u);
    EXPECT_EQ(j1[3].weight, 1.0f);
}

// Two batches sharing vertex 2: triangle 0 (0,1,2) in batch 0 with bones {0,1}, triangle 1 (2,3,4)
// in batch 1 with bones {2,3}; vertex 5 is in no triangle. Indices are batch-local.
Scene batchedScene(std::vector<int32_t> secondBatchBones = {2, 3}) {
    Mesh mesh = skinnedMesh({{{0, 0}, {1.0f, 0.0f}},
                             {{1, 0}, {1.0f, 0.0f}},
                             {{1, 0}, {0.5f, 0.5f}},  // batch 0 (the first that draws it): joints 1, 0
                             {{0, 0}, {1.0f, 0.0f}},  // batch 1: joint 2
                             {{1, 2}, {0.6f, 0.4f}},  // batch 1: joint 3, local 2 outside the batch
                             {{0, 0}, {1.0f, 0.0f}}},
                            2, 2, false, {0, 1, 2, 2, 3, 4});
    mesh.boneIndicesBatchLocal = true;
    mesh.boneBatches.push_back({{0, 1}, 0, 1});
    mesh.boneBatches.push_back({std::move(secondBatchBones), 1, 1});
    mesh.maxBonesPerBatch = 2;
    return skinnedScene(std::move(mesh), 4);
}

TEST(SkinAnalysis, BatchLocalIndicesMapThroughTheVertexBatch) {
    const Scene scene = batchedScene();
    auto expect = [&](int jointNode, std::vector<std::pair<uint32_t, float>> want) {
        const std::vector<VertexInfluence> got = influences(scene, 0, jointNode);
        ASSERT_EQ(got.size(), want.size()) << "joint node " << jointNode;
        for (size_t i = 0; i < want.size(); ++i) {
            EXPECT_EQ(got[i].vertex, want[i].first) << "joint node " << jointNode;
            EXPECT_FLOAT_EQ(got[i].weight, want[i].second) << "joint node " << jointNode;
        }
    };
    expect(1, {{0, 1.0f}, {2, 0.5f}});  // joint 0: local 0 in batch 0 only
    expect(2, {{1, 1.0f}, {2, 0.5f}});
    expect(3, {{3, 1.0f}});             // joint 2: local 0 in batch 1
    expect(4, {{4, 0.6f}});

    const SkinAnalysis a = analyze(scene);
    EXPECT_EQ(a.skinnedVertices, 6u);
    EXPECT_EQ(a.badSums, 0u);
    EXPECT_EQ(a.badIndices, 2u);
    ASSERT_EQ(a.issues.size(), 2u);
    EXPECT_EQ(a.issues[0].vertex, 4u);
    EXPECT_EQ(a.issues[0].what, "bone index 2 outside batch of 2");
    EXPECT_EQ(a.issues[1].vertex, 5u);
    EXPECT_EQ(a.issues[1].what, "bone index 0 on a vertex no bone batch draws");

    // A batch naming a joint the skin does not have.
    const SkinAnalysis b = analyze(batchedScene({2, 7}));
    EXPECT_EQ(b.badIndices, 3u);
    ASSERT_EQ(b.issues.size(), 3u);
    EXPECT_EQ(b.issues[0].vertex, 4u);
    EXPECT_EQ(b.issues[0].what, "bone index 1 of batch 1 names joint 7, outside skin of 4 joints");
}

TEST(SkinAnalysis, BatchBudgetsAndOverLimit) {
    Scene scene = batchedScene();
    scene.meshes[0].boneBatches[1].bones = {0, 1, 2, 3, 3};  // 5 bones (a repeat still costs a slot)
    // A second instance of the same mesh, an unskinned instance and a skinned one without bones data.
    Node second = scene.nodes[0];
    second.name = "second";
    scene.nodes.push_back(second);  // node 5
    Node plain;
    plain.kind = NodeKind::Mesh;
    plain.object = 0;
    scene.nodes.push_back(plain);  // node 6: no skin, no budget
    Mesh bare;
    bare.vertexCount = 3;
    Submesh sub;
    sub.indexCount = 3;
    bare.submeshes.push_back(sub);
    scene.meshes.push_back(bare);
    Node bareNode;
    bareNode.kind = NodeKind::Mesh;
    bareNode.object = 1;
    bareNode.skin = 0;
    scene.nodes.push_back(bareNode);  // node 7: the whole skin as one palette, no vertices

    const SkinAnalysis a = analyzeSkinning(scene, 4, 10, 25);
    ASSERT_EQ(a.batches.size(), 5u);
    EXPECT_EQ(a.skinnedVertices, 12u);
    const uint32_t bones[5] = {2, 5, 2, 5, 4};
    const int nodes[5] = {0, 0, 5, 5, 7};
    const int batch[5] = {0, 1, 0, 1, -1};
    for (size_t i = 0; i < 5; ++i) {
        const BatchBudget& b = a.batches[i];
        EXPECT_EQ(b.node, nodes[i]) << i;
        EXPECT_EQ(b.mesh, nodes[i] == 7 ? 1 : 0) << i;
        EXPECT_EQ(b.batch, batch[i]) << i;
        EXPECT_EQ(b.bones, bones[i]) << i;
        EXPECT_EQ(b.uniformVectors, bones[i] * 4) << i;
        EXPECT_EQ(b.overLimit, bones[i] * 4 + 10 > 25) << i;  // 18 fits, 30 and 26 do not
        EXPECT_EQ(b.triangleCount, 1u) << i;
        EXPECT_EQ(b.firstTriangle, batch[i] == 1 ? 1u : 0u) << i;
    }
    // At the limit exactly is not over it; a 4x3 palette costs 3 vectors a bone.
    const SkinAnalysis c = analyzeSkinning(scene, 3, 10, 25);
    EXPECT_EQ(c.batches[1].uniformVectors, 15u);
    EXPECT_FALSE(c.batches[1].overLimit);
    EXPECT_TRUE(analyzeSkinning(scene, 3, 11, 25).batches[1].overLimit);
}

TEST(SkinAnalysis, IssueListIsCappedButCountsAreNot) {
    std::vector<V> verts(1100, V{{0, 1}, {0.25f, 0.25f}});
    const Scene scene = skinnedScene(skinnedMesh(verts, 2, 2, false, {0, 1, 2}), 2);
    const SkinAnalysis a = analyze(scene);
    EXPECT_EQ(a.badSums, 1100u);
    EXPECT_EQ(a.issues.size(), SkinAnalysis::kMaxIssues);
    EXPECT_EQ(a.issues.back().vertex, SkinAnalysis::kMaxIssues - 1);
}

TEST(SkinAnalysis, PodSample) {
    ESVIEW_REQUIRE_MODELS("pod/cocos3d/cocos3d_man.pod");
    const LoadResult loaded = loadSceneFile((test::modelsDir() / "pod/cocos3d/cocos3d_man.pod").string());
    ASSERT_TRUE(loaded.ok()) << (loaded.problems.empty() ? "" : loaded.problems[0].format());
    const Scene& scene = *loaded.scene;

    // Every batch of every skinned instance (2 + 1 + 1 in this file), each within its skin.
    size_t expectedBatches = 0;
    int skinnedNode = -1;
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& n = scene.nodes[i];
        if (n.kind != NodeKind::Mesh || n.skin < 0) continue;
        expectedBatches += std::max<size_t>(1, scene.meshes[n.object].boneBatches.size());
        if (skinnedNode < 0) skinnedNode = static_cast<int>(i);
    }
    const SkinAnalysis a = analyzeSkinning(scene, 4, 16, 128);
    EXPECT_EQ(expectedBatches, 4u);
    ASSERT_EQ(a.batches.size(), expectedBatches);
    for (const BatchBudget& b : a.batches) {
        const Mesh& mesh = scene.meshes[b.mesh];
        ASSERT_GE(b.batch, 0);
        EXPECT_EQ(b.bones, mesh.boneBatches[b.batch].bones.size());
        EXPECT_LE(b.bones, 9u);
        EXPECT_FALSE(b.overLimit);
    }
    // Each instance's batches cover its triangles; the file's weights are clean (two per vertex,
    // float, summing to 1) and every index lies inside its batch.
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        uint32_t covered = 0;
        for (const BatchBudget& b : a.batches)
            if (b.node == static_cast<int>(i)) covered += b.triangleCount;
        if (scene.nodes[i].skin < 0) continue;
        EXPECT_EQ(covered, triangleCount(scene.meshes[scene.nodes[i].object])) << i;
    }
    EXPECT_EQ(a.skinnedVertices, 1124u + 340u + 208u);
    EXPECT_EQ(a.badSums, 0u);
    EXPECT_EQ(a.negativeWeights, 0u);
    EXPECT_EQ(a.badIndices, 0u);
    EXPECT_TRUE(a.issues.empty());
    EXPECT_EQ(a.maxInfluences, 2u);

    // Some joint of the first skinned instance moves vertices, each with a weight in (0, 1].
    ASSERT_GE(skinnedNode, 0);
    const Skin& skin = scene.skins[scene.nodes[skinnedNode].skin];
    size_t jointsWithInfluence = 0;
    std::vector<VertexInfluence> in;
    for (int32_t joint : skin.joints) {
        jointInfluences(scene, skinnedNode, joint, in);
        if (in.empty()) continue;
        ++jointsWithInfluence;
        for (size_t i = 0; i < in.size(); ++i) {
            EXPECT_GT(in[i].weight, 0.0f);
            EXPECT_LE(in[i].weight, 1.0f + 1e-6f);
            EXPECT_LT(in[i].vertex, scene.meshes[scene.nodes[skinnedNode].object].vertexCount);
            if (i > 0) {
                EXPECT_LT(in[i - 1].vertex, in[i].vertex);
            }
        }
    }
    EXPECT_GT(jointsWithInfluence, 0u);
}

// The picked vertex's influences: every stored component (zero weights too), each index's joint
// through the first batch that draws the vertex (batch-local), and every batch that draws it.
TEST(SkinAnalysis, StoredInfluencesAreWhatTheVertexStores) {
    const Scene scene = batchedScene();
    StoredInfluences shared;
    ASSERT_TRUE(storedInfluences(scene, 0, 2, shared));
    EXPECT_EQ(shared.node, 0);
    EXPECT_EQ(shared.vertex, 2u);
    EXPECT_EQ(shared.indices, (std::vector<float>{1.0f, 0.0f}));
    EXPECT_EQ(shared.weights, (std::vector<float>{0.5f, 0.5f}));
    EXPECT_EQ(shared.joints, (std::vector<int32_t>{1, 0}));      // batch 0's bones {0, 1}
    EXPECT_EQ(shared.jointNodes, (std::vector<int32_t>{2, 1}));  // joint j is node j + 1
    EXPECT_EQ(shared.batches, (std::vector<int32_t>{0, 1}));

    StoredInfluences outside;
    ASSERT_TRUE(storedInfluences(scene, 0, 4, outside));
    EXPECT_EQ(outside.indices, (std::vector<float>{1.0f, 2.0f}));
    EXPECT_EQ(outside.joints, (std::vector<int32_t>{3, -1})) << "local 2 is outside batch 1's two bones";
    EXPECT_EQ(outside.jointNodes, (std::vector<int32_t>{4, -1}));
    EXPECT_EQ(outside.batches, (std::vector<int32_t>{1}));

    StoredInfluences none;
    ASSERT_TRUE(storedInfluences(scene, 0, 5, none));
    EXPECT_TRUE(none.batches.empty()) << "no triangle draws vertex 5";
    EXPECT_EQ(none.jointNodes, (std::vector<int32_t>{-1, -1}));
    StoredInfluences untouched;
    untouched.vertex = 77;
    EXPECT_FALSE(storedInfluences(scene, 0, 6, untouched));
    EXPECT_FALSE(storedInfluences(scene, 1, 0, untouched)) << "a joint node is no skinned mesh instance";
    EXPECT_EQ(untouched.vertex, 77u);
}

TEST(SkinAnalysis, JointBatchesNameEveryPaletteHoldingTheJoint) {
    const Scene scene = batchedScene({2, 1});  // joint 1 (node 2) in both batches, at 1 and 1
    const std::vector<JointBatch> both = jointBatches(scene, 2);
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0].node, 0);
    EXPECT_EQ(both[0].batch, 0);
    EXPECT_EQ(both[0].palette, 1);
    EXPECT_EQ(both[1].batch, 1);
    EXPECT_EQ(both[1].palette, 1);
    EXPECT_EQ(jointBatches(scene, 3).size(), 1u);  // joint 2: batch 1, palette 0
    EXPECT_EQ(jointBatches(scene, 3)[0].palette, 0);
    EXPECT_TRUE(jointBatches(scene, 4).empty());  // joint 3 is in no palette now
    // Without batches the whole skin is the palette.
    const Scene plain = skinnedScene(skinnedMesh({{{0, 1}, {0.5f, 0.5f}}}, 2, 2, false, {0, 0, 0}), 3);
    const std::vector<JointBatch> whole = jointBatches(plain, 3);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_EQ(whole[0].batch, -1);
    EXPECT_EQ(whole[0].palette, 2);
}

// Hidden joints' weights become 0 and the others are scaled back to the vertex's sum; solo keeps one
// joint; a vertex left with nothing has no weight. The weights go to a Float32 stream of their own
// with a weight per index (a weight the file leaves out, after set 0's stored ones, written as the
// CPU path takes it: what the others left).
TEST(SkinAnalysis, MaskBoneWeightsZeroesHiddenJointsAndScalesTheRest) {
    using W = std::vector<std::vector<float>>;
    auto masked = [&](const Mesh& mesh, const BoneMask& mask, const W& want) {
        Scene scene = skinnedScene(mesh, 3);
        EXPECT_EQ(maskBoneWeights(scene, mask), mask.empty() ? 0u : 1u);
        const VertexStream* stream = nullptr;
        const VertexAttribute* weights = findAttribute(scene.meshes[0], Semantic::BoneWeights, 0, &stream);
        ASSERT_TRUE(weights);
        EXPECT_EQ(scene.meshes[0].streams.size(), mask.empty() ? 1u : 2u);
        if (!mask.empty()) {
            EXPECT_EQ(weights->type, ComponentType::Float32);
            EXPECT_EQ(weights->components, 2);
            EXPECT_EQ(stream, &scene.meshes[0].streams.back());
        }
        for (uint32_t v = 0; v < want.size(); ++v) {
            StoredInfluences s;
            ASSERT_TRUE(storedInfluences(scene, 0, v, s));
            ASSERT_EQ(s.weights.size(), want[v].size()) << "vertex " << v;
            for (size_t k = 0; k < want[v].size(); ++k)
                EXPECT_NEAR(s.weights[k], want[v][k], 1e-6f) << "vertex " << v << " slot " << k;
        }
    };
    // Joint j is node j + 1. Vertex 2's second weight is 0: its index moves nothing.
    const Mesh mesh = skinnedMesh({{{0, 1}, {0.25f, 0.75f}}, {{0, 0}, {1.0f, 0.0f}}, {{1, 2}, {0.25f, 0.0f}}},
                                  2, 2, false, {0, 1, 2});
    masked(mesh, BoneMask{{1}, -1}, W{{0.0f, 1.0f}, {0.0f, 0.0f}, {0.25f, 0.0f}});
    masked(mesh, BoneMask{{2}, -1}, W{{1.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 0.0f}});
    masked(mesh, BoneMask{{}, 2}, W{{0.0f, 1.0f}, {0.0f, 0.0f}, {0.25f, 0.0f}});
    masked(mesh, BoneMask{{1, 2}, -1}, W{{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}});
    masked(mesh, BoneMask{}, W{{0.25f, 0.75f}, {1.0f, 0.0f}, {0.25f, 0.0f}});
    // One stored weight for two indices: the second joint's is what the first left.
    const Mesh implied = skinnedMesh({{{0, 1}, {0.25f}}}, 2, 1, false, {0, 0, 0});
    masked(implied, BoneMask{{1}, -1}, W{{0.0f, 1.0f}});
    masked(implied, BoneMask{{3}, -1}, W{{0.25f, 0.75f}});
}

}  // namespace
}  // namespace esv
