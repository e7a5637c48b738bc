// The built-in demo scene: its structure (what renderer and app tests rely on) and that its
// animation really moves it.
#include <gtest/gtest.h>

#include <set>

#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/sampler.h"

namespace esv {
namespace {

int countKind(const Scene& scene, NodeKind kind) {
    int n = 0;
    for (const Node& node : scene.nodes) n += node.kind == kind ? 1 : 0;
    return n;
}

int meshNode(const Scene& scene, bool skinned) {
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        if (scene.nodes[i].kind == NodeKind::Mesh && (scene.nodes[i].skin >= 0) == skinned)
            return static_cast<int>(i);
    return -1;
}

TEST(DemoScene, Structure) {
    const Scene scene = makeDemoScene();
    EXPECT_EQ(scene.format, "demo");
    EXPECT_GE(countKind(scene, NodeKind::Bone), 6);
    EXPECT_EQ(countKind(scene, NodeKind::Mesh), 2);
    EXPECT_EQ(countKind(scene, NodeKind::Light), 2);
    EXPECT_EQ(countKind(scene, NodeKind::Camera), 1);
    ASSERT_EQ(scene.meshes.size(), 2u);
    ASSERT_EQ(scene.materials.size(), 2u);
    EXPECT_NE(scene.materials[0].diffuse, scene.materials[1].diffuse);
    bool specular = false;
    for (const Material& m : scene.materials) specular |= m.shininess > 0.0f && m.specular != glm::vec3(0.0f);
    EXPECT_TRUE(specular);
    ASSERT_EQ(scene.lights.size(), 2u);
    std::set<LightType> types;
    for (const Light& l : scene.lights) types.insert(l.type);
    EXPECT_EQ(types, (std::set<LightType>{LightType::Point, LightType::Directional}));
    ASSERT_EQ(scene.cameras.size(), 1u);
    EXPECT_EQ(scene.animation.fps, 30.0f);
    EXPECT_EQ(scene.animation.frames, 61u);
    ASSERT_EQ(scene.animation.clips.size(), 1u);
    EXPECT_EQ(scene.animation.clips[0].name, "wave");
    EXPECT_FLOAT_EQ(scene.animation.clips[0].duration(), 2.0f);
}

TEST(DemoScene, SkinnedMeshHasTwoBatchesOfBatchLocalBones) {
    const Scene scene = makeDemoScene();
    const int node = meshNode(scene, true);
    ASSERT_GE(node, 0);
    const Mesh& mesh = scene.meshes[scene.nodes[node].object];
    const Skin& skin = scene.skins[scene.nodes[node].skin];
    ASSERT_GE(skin.joints.size(), 6u);
    for (int32_t j : skin.joints) EXPECT_EQ(scene.nodes[j].kind, NodeKind::Bone);
    EXPECT_TRUE(mesh.boneIndicesBatchLocal);
    ASSERT_EQ(mesh.boneBatches.size(), 2u);
    // Contiguous triangle ranges covering the whole mesh.
    EXPECT_EQ(mesh.boneBatches[0].firstTriangle, 0u);
    EXPECT_EQ(mesh.boneBatches[1].firstTriangle, mesh.boneBatches[0].triangleCount);
    EXPECT_EQ(mesh.boneBatches[0].triangleCount + mesh.boneBatches[1].triangleCount, triangleCount(mesh));
    for (const BoneBatch& b : mesh.boneBatches) EXPECT_LE(b.bones.size(), mesh.maxBonesPerBatch);
    EXPECT_LE(triangleCount(scene.meshes[0]) + triangleCount(scene.meshes[1]), 5000u);

    // One interleaved stream with the five attributes; 16-bit triangle list indices.
    ASSERT_EQ(mesh.streams.size(), 1u);
    const VertexStream& stream = mesh.streams[0];
    EXPECT_EQ(stream.attributes.size(), 5u);
    EXPECT_EQ(mesh.indices.type, ComponentType::UInt16);
    ASSERT_EQ(mesh.submeshes.size(), 1u);
    EXPECT_EQ(mesh.submeshes[0].primitive, Primitive::Triangles);
    const VertexStream* s = nullptr;
    const VertexAttribute* indices = findAttribute(mesh, Semantic::BoneIndices, 0, &s);
    ASSERT_NE(indices, nullptr);
    EXPECT_EQ(indices->type, ComponentType::UInt8);
    const VertexAttribute* weights = findAttribute(mesh, Semantic::BoneWeights, 0, &s);
    ASSERT_NE(weights, nullptr);
    EXPECT_EQ(weights->type, ComponentType::Float32);
    for (Semantic sem : {Semantic::Position, Semantic::Normal, Semantic::TexCoord})
        EXPECT_NE(findAttribute(mesh, sem, 0, &s), nullptr) << semanticName(sem);

    // Every vertex's bone indices name bones of the batch its triangles belong to, weights sum to 1.
    const uint16_t* idx = reinterpret_cast<const uint16_t*>(mesh.indices.bytes.data);
    std::vector<int> batchOf(mesh.vertexCount, -1);
    for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
        const BoneBatch& batch = mesh.boneBatches[b];
        for (uint32_t t = batch.firstTriangle; t < batch.firstTriangle + batch.triangleCount; ++t)
            for (int k = 0; k < 3; ++k) {
                const uint16_t v = idx[3 * t + k];
                ASSERT_LT(v, mesh.vertexCount);
                EXPECT_TRUE(batchOf[v] < 0 || batchOf[v] == static_cast<int>(b))
                    << "vertex " << v << " in two batches";
                batchOf[v] = static_cast<int>(b);
            }
    }
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
        ASSERT_GE(batchOf[v], 0) << "vertex " << v << " used by no triangle";
        float i4[4], w4[4];
        const int n = readAttribute(stream, *indices, v, i4);
        readAttribute(stream, *weights, v, w4);
        EXPECT_LE(n, 4);
        float sum = 0.0f;
        for (int k = 0; k < n; ++k) {
            EXPECT_LT(static_cast<size_t>(i4[k]), mesh.boneBatches[batchOf[v]].bones.size())
                << "vertex " << v;
            sum += w4[k];
        }
        EXPECT_NEAR(sum, 1.0f, 1e-6f);
    }
}

TEST(DemoScene, MorphTargetDrivenByTheClip) {
    const Scene scene = makeDemoScene();
    const int node = meshNode(scene, false);
    ASSERT_GE(node, 0);
    const Mesh& mesh = scene.meshes[scene.nodes[node].object];
    ASSERT_EQ(mesh.morphTargets.size(), 1u);
    EXPECT_TRUE(mesh.morphTargets[0].relative);
    bool animated = false;
    for (const Track& t : scene.animation.clips[0].tracks)
        animated |= t.node == node && t.channel == Channel::MorphWeights;
    EXPECT_TRUE(animated);
    Pose pose;
    evaluatePose(scene, 0, 0.5f, pose);
    ASSERT_EQ(pose.morphWeights[node].size(), 1u);
    EXPECT_NEAR(pose.morphWeights[node][0], 0.5f, 1e-3f);
    evaluatePose(scene, -1, 0.5f, pose);
    EXPECT_EQ(pose.morphWeights[node][0], 0.0f);
}

TEST(DemoScene, ClipHasBoneRotationsAndATranslation) {
    const Scene scene = makeDemoScene();
    int rotations = 0, translations = 0;
    for (const Track& t : scene.animation.clips[0].tracks) {
        if (t.channel == Channel::Rotation && scene.nodes[t.node].kind == NodeKind::Bone) {
            ++rotations;
            EXPECT_EQ(t.interpolation, Interpolation::Linear);
        }
        translations += t.channel == Channel::Translation ? 1 : 0;
    }
    EXPECT_GE(rotations, 6);
    EXPECT_GE(translations, 1);
}

TEST(DemoScene, RestPaletteIsIdentityAndRestShapeIsStraight) {
    const Scene scene = makeDemoScene();
    const int node = meshNode(scene, true);
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    std::vector<glm::mat4> palette;
    skinPalette(scene, pose, node, palette);
    ASSERT_EQ(palette.size(), scene.skins[0].joints.size());
    for (const glm::mat4& m : palette)
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) EXPECT_NEAR(m[c][r], c == r ? 1.0f : 0.0f, 1e-6f);

    // Straight: the tube's axis is vertical, so its box is as wide as its thickest ring.
    std::vector<glm::vec3> rest;
    worldVertices(scene, pose, node, rest);
    Bounds box;
    for (const glm::vec3& p : rest) box.add(p);
    EXPECT_NEAR(box.min.x, -box.max.x, 1e-5f);
    EXPECT_LT(box.max.x - box.min.x, 1.0f);
    EXPECT_GT(box.max.y - box.min.y, 2.5f);

    // Bent at 0.5 s: the tip leaves the vertical axis by a good fraction of the height.
    evaluatePose(scene, 0, 0.5f, pose);
    std::vector<glm::vec3> bent;
    worldVertices(scene, pose, node, bent);
    ASSERT_EQ(bent.size(), rest.size());
    float maxShift = 0.0f;
    for (size_t i = 0; i < bent.size(); ++i)
        maxShift = std::max(maxShift, glm::length(glm::vec2(bent[i].x, bent[i].z)));
    EXPECT_GT(maxShift, 1.0f);
}

TEST(DemoScene, BoundsAtRestDifferFromBoundsAtHalfASecond) {
    const Scene scene = makeDemoScene();
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    const Bounds rest = sceneBounds(scene, pose);
    evaluatePose(scene, 0, 0.5f, pose);
    const Bounds bent = sceneBounds(scene, pose);
    ASSERT_TRUE(rest.valid());
    ASSERT_TRUE(bent.valid());
    EXPECT_GT(glm::length(rest.min - bent.min) + glm::length(rest.max - bent.max), 0.5f);
    // Deterministic: a second build gives the same box.
    const Scene again = makeDemoScene();
    evaluatePose(again, 0, 0.5f, pose);
    const Bounds bent2 = sceneBounds(again, pose);
    EXPECT_EQ(bent.min, bent2.min);
    EXPECT_EQ(bent.max, bent2.max);
}

}  // namespace
}  // namespace esv
