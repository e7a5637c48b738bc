// Re-batching: a 200-bone chain under an ES2-sized palette, a POD-style mesh with batch-local
// indices and oversize batches, strips, morph targets. Skinned world positions of every triangle
// corner must be the same before and after, at a bent pose.
#include <cmath>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/skin_batches.h"

namespace esv {
namespace {

struct Vertex {
    glm::vec3 position;
    glm::vec3 normal;
    uint8_t bones[4];
    float weights[4];
};

template <typename T>
ByteView bytesOf(const std::vector<T>& v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return makeOwnedBytes(std::move(b));
}

// A tube along +X around a chain of `bones` bones one unit apart; ring i is weighted to bones
// i-1, i, i+1 (three influences), 6 vertices per ring. Node 0 is the mesh, nodes 1.. the chain.
// With `strip`, each segment is one triangle strip (lengths in triangles).
Scene chainScene(int bones, bool strip) {
    Scene scene;
    scene.nodes.resize(size_t(bones) + 1);
    scene.nodes[0].kind = NodeKind::Mesh;
    scene.nodes[0].object = 0;
    scene.nodes[0].skin = 0;
    Skin skin;
    for (int b = 0; b < bones; ++b) {
        Node& n = scene.nodes[size_t(b) + 1];
        n.name = "bone" + std::to_string(b);
        n.kind = NodeKind::Bone;
        n.parent = b == 0 ? -1 : b;
        n.local.translation = glm::vec3(b == 0 ? 0.0f : 1.0f, 0, 0);
        skin.joints.push_back(b + 1);
        skin.inverseBind.push_back(glm::translate(glm::mat4(1.0f), glm::vec3(-float(b), 0, 0)));
    }
    scene.skins.push_back(skin);

    constexpr int kSides = 6;
    std::vector<Vertex> vertices;
    for (int r = 0; r < bones; ++r)
        for (int s = 0; s < kSides; ++s) {
            const float a = 2.0f * 3.14159265f * float(s) / kSides;
            Vertex v{};
            v.normal = glm::vec3(0, std::cos(a), std::sin(a));
            v.position = glm::vec3(float(r), 0, 0) + 0.3f * v.normal;
            const int b0 = std::max(r - 1, 0), b2 = std::min(r + 1, bones - 1);
            v.bones[0] = uint8_t(r);
            v.bones[1] = uint8_t(b0);
            v.bones[2] = uint8_t(b2);
            v.weights[0] = 0.5f;
            v.weights[1] = b0 == r ? 0.0f : 0.25f;
            v.weights[2] = b2 == r ? 0.0f : 0.25f;
            v.weights[0] = 1.0f - v.weights[1] - v.weights[2];
            vertices.push_back(v);
        }
    Mesh mesh;
    mesh.name = "chain";
    VertexStream s;
    s.stride = sizeof(Vertex);
    s.count = uint32_t(vertices.size());
    s.bytes = bytesOf(vertices);
    s.attributes = {{Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, offsetof(Vertex, position)},
                    {Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity, offsetof(Vertex, normal)},
                    {Semantic::BoneIndices, 0, ComponentType::UInt8, 3, false, Swizzle::Identity, offsetof(Vertex, bones)},
                    {Semantic::BoneWeights, 0, ComponentType::Float32, 3, false, Swizzle::Identity, offsetof(Vertex, weights)}};
    mesh.streams = {s};
    mesh.vertexCount = s.count;
    std::vector<uint16_t> indices;
    Submesh sub;
    for (int r = 0; r + 1 < bones; ++r)
        for (int side = 0; side < kSides; ++side) {
            const uint16_t a = uint16_t(r * kSides + side), b = uint16_t(r * kSides + (side + 1) % kSides);
            const uint16_t c = uint16_t(a + kSides), d = uint16_t(b + kSides);
            if (strip) {
                // One strip per quad: a c b d = two triangles.
                indices.insert(indices.end(), {a, c, b, d});
                sub.stripLengths.push_back(2);
            } else {
                indices.insert(indices.end(), {a, c, b, b, c, d});
            }
        }
    sub.primitive = strip ? Primitive::TriangleStrip : Primitive::Triangles;
    sub.indexCount = uint32_t(indices.size());
    mesh.submeshes = {sub};
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = uint32_t(indices.size());
    mesh.indices.bytes = bytesOf(indices);
    scene.meshes.push_back(mesh);
    return scene;
}

// A bent pose: every bone turns a little about Z and Y.
Pose bentPose(const Scene& scene) {
    Scene posed = scene;
    for (size_t n = 1; n < posed.nodes.size(); ++n)
        posed.nodes[n].local.rotation = glm::angleAxis(0.05f, glm::normalize(glm::vec3(0, 0.4f, 1)));
    Pose pose;
    evaluatePose(posed, -1, 0.0f, pose);
    return pose;
}

// World positions of every triangle corner, in triangle order.
std::vector<glm::vec3> corners(const Scene& scene, const Pose& pose) {
    std::vector<glm::vec3> positions;
    worldVertices(scene, pose, 0, positions);
    std::vector<uint32_t> triangles;
    expandTriangles(scene.meshes[0], triangles);
    std::vector<glm::vec3> out;
    for (uint32_t v : triangles) out.push_back(positions.at(v));
    return out;
}

void expectBatchesValid(const Mesh& mesh, uint32_t budget) {
    ASSERT_TRUE(mesh.boneIndicesBatchLocal);
    uint32_t triangles = 0;
    for (const BoneBatch& b : mesh.boneBatches) {
        EXPECT_LE(b.bones.size(), budget);
        EXPECT_EQ(b.firstTriangle, triangles) << "batches are contiguous";
        triangles += b.triangleCount;
    }
    std::vector<uint32_t> list;
    expandTriangles(mesh, list);
    EXPECT_EQ(triangles, list.size() / 3);
    // Every vertex bone index with weight is local to the batch that draws it.
    const VertexStream* is = nullptr;
    const VertexAttribute* ia = findAttribute(mesh, Semantic::BoneIndices, 0, &is);
    ASSERT_NE(ia, nullptr);
    for (const BoneBatch& b : mesh.boneBatches)
        for (size_t i = size_t(b.firstTriangle) * 3; i < size_t(b.firstTriangle + b.triangleCount) * 3; ++i) {
            float idx[4];
            const int n = readAttribute(*is, *ia, list[i], idx);
            for (int c = 0; c < n; ++c) EXPECT_LT(idx[c], float(b.bones.size()));
        }
}

TEST(Rebatch, TwoHundredBoneChainUnderAnEs2Palette) {
    for (bool strip : {false, true}) {
        Scene scene = chainScene(200, strip);
        ASSERT_EQ(bonesPerDraw(scene.meshes[0]), 200u);
        const Pose pose = bentPose(scene);
        const std::vector<glm::vec3> before = corners(scene, pose);

        constexpr uint32_t kBudget = 28;  // (128 vectors - 16 reserved) / 4 per matrix
        Mesh rebuilt;
        RebatchReport report;
        std::string error;
        ASSERT_TRUE(rebatchMesh(scene.meshes[0], kBudget, rebuilt, report, error)) << error;
        expectBatchesValid(rebuilt, kBudget);
        EXPECT_EQ(report.batches, rebuilt.boneBatches.size());
        // 199 segments, each adding about one bone: at least 200 / 28 batches, and not wasteful.
        EXPECT_GE(report.batches, 8u);
        EXPECT_LE(report.batches, 10u);
        EXPECT_LE(report.maxBones, kBudget);
        // Rings on a batch boundary are duplicated, nothing else.
        EXPECT_GT(report.verticesAfter, report.verticesBefore);
        EXPECT_LE(report.verticesAfter, report.verticesBefore + 6 * (report.batches - 1) * 3);
        EXPECT_EQ(bonesPerDraw(rebuilt), report.maxBones);

        scene.meshes[0] = rebuilt;
        const std::vector<glm::vec3> after = corners(scene, pose);
        ASSERT_EQ(after.size(), before.size());
        float worst = 0.0f;
        for (size_t i = 0; i < before.size(); ++i) worst = std::max(worst, glm::length(after[i] - before[i]));
        EXPECT_LT(worst, 1e-5f * 200.0f) << (strip ? "strips" : "lists");
    }
}

TEST(Rebatch, BatchLocalIndicesAreResolvedAndRebuilt) {
    // First re-batch at 40 bones (a POD-like file), then again at 12: the second pass reads
    // batch-local indices.
    Scene scene = chainScene(120, false);
    const Pose pose = bentPose(scene);
    const std::vector<glm::vec3> before = corners(scene, pose);
    Mesh pod;
    RebatchReport report;
    std::string error;
    ASSERT_TRUE(rebatchMesh(scene.meshes[0], 40, pod, report, error)) << error;
    Mesh small;
    ASSERT_TRUE(rebatchMesh(pod, 12, small, report, error)) << error;
    expectBatchesValid(small, 12);
    scene.meshes[0] = small;
    const std::vector<glm::vec3> after = corners(scene, pose);
    ASSERT_EQ(after.size(), before.size());
    for (size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(glm::length(after[i] - before[i]), 0.0f, 1e-3f);
}

TEST(Rebatch, MorphTargetsFollowTheDuplicatedVertices) {
    Scene scene = chainScene(60, false);
    Mesh& mesh = scene.meshes[0];
    std::vector<glm::vec3> deltas(mesh.vertexCount);
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) deltas[v] = glm::vec3(0, 0.01f * float(v % 7), 0);
    MorphTarget target;
    target.name = "bump";
    target.stream.stride = 12;
    target.stream.count = mesh.vertexCount;
    target.stream.bytes = bytesOf(deltas);
    target.stream.attributes = {{Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0}};
    mesh.morphTargets.push_back(target);
    mesh.defaultMorphWeights = {1.0f};
    Pose pose = bentPose(scene);
    pose.morphWeights.assign(scene.nodes.size(), {});
    pose.morphWeights[0] = {1.0f};
    const std::vector<glm::vec3> before = corners(scene, pose);
    Mesh rebuilt;
    RebatchReport report;
    std::string error;
    ASSERT_TRUE(rebatchMesh(mesh, 16, rebuilt, report, error)) << error;
    ASSERT_EQ(rebuilt.morphTargets.size(), 1u);
    EXPECT_EQ(rebuilt.morphTargets[0].stream.count, rebuilt.vertexCount);
    scene.meshes[0] = rebuilt;
    const std::vector<glm::vec3> after = corners(scene, pose);
    for (size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(glm::length(after[i] - before[i]), 0.0f, 1e-3f);
}

TEST(Rebatch, SceneLeavesFittingMeshesAloneAndReports) {
    Scene scene = chainScene(20, false);
    const uint32_t vertices = scene.meshes[0].vertexCount;
    rebatchScene(scene, 28);
    EXPECT_TRUE(scene.meshes[0].boneBatches.empty());
    EXPECT_EQ(scene.meshes[0].vertexCount, vertices);
    EXPECT_TRUE(scene.report.empty());
    rebatchScene(scene, 8);
    EXPECT_FALSE(scene.meshes[0].boneBatches.empty());
    ASSERT_EQ(scene.report.size(), 1u);
    EXPECT_NE(scene.report[0].text.find("re-batched into"), std::string::npos) << scene.report[0].text;
}

TEST(Rebatch, ATriangleNeedingMoreThanThePaletteIsAnError) {
    Scene scene = chainScene(10, false);
    Mesh out;
    RebatchReport report;
    std::string error;
    // Each triangle spans two rings: up to 4 distinct bones.
    EXPECT_FALSE(rebatchMesh(scene.meshes[0], 2, out, report, error));
    EXPECT_NE(error.find("alone needs"), std::string::npos) << error;
}

}  // namespace
}  // namespace esv
