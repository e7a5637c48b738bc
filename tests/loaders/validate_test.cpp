// The validator against small scenes built in code: one problem per violation, naming the object.
#include <gtest/gtest.h>

#include <cstring>

#include "loaders/load.h"

using namespace esv;

namespace {

// A valid one-triangle scene: one interleaved stream (position + normal), 16-bit indices.
Scene triangleScene() {
    Scene s;
    s.format = "test";
    std::vector<uint8_t> vertexBytes(3 * 24, 0);
    std::vector<uint8_t> indexBytes = {0, 0, 1, 0, 2, 0};
    Mesh m;
    m.name = "tri";
    m.vertexCount = 3;
    VertexStream vs;
    vs.bytes = makeOwnedBytes(vertexBytes);
    vs.stride = 24;
    vs.count = 3;
    vs.attributes.push_back({Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0});
    vs.attributes.push_back({Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 12});
    m.streams.push_back(vs);
    m.indices.type = ComponentType::UInt16;
    m.indices.bytes = makeOwnedBytes(indexBytes);
    m.indices.count = 3;
    Submesh sub;
    sub.indexCount = 3;
    m.submeshes.push_back(sub);
    s.meshes.push_back(m);
    s.materials.push_back(Material{});
    Node n;
    n.kind = NodeKind::Mesh;
    n.object = 0;
    n.materials = {0};
    s.nodes.push_back(n);
    return s;
}

std::vector<Problem> validate(const Scene& s) {
    std::vector<Problem> problems;
    validateScene(s, "t.pod", problems);
    return problems;
}

}  // namespace

TEST(Validate, CleanSceneHasNoProblems) { EXPECT_TRUE(validate(triangleScene()).empty()); }

TEST(Validate, IndexOutOfRange) {
    Scene s = triangleScene();
    s.meshes[0].indices.bytes = makeOwnedBytes({0, 0, 1, 0, 3, 0});
    auto p = validate(s);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].where, "mesh 0 / indices");
    EXPECT_NE(p[0].message.find("index 3 out of range (3 vertices)"), std::string::npos) << p[0].message;
}

TEST(Validate, StreamTooShortForItsStride) {
    Scene s = triangleScene();
    s.meshes[0].streams[0].bytes = makeOwnedBytes(std::vector<uint8_t>(60));
    auto p = validate(s);
    ASSERT_EQ(p.size(), 1u);  // positions end at byte 60; the last normal runs to 72
    EXPECT_EQ(p[0].format(), "t.pod: mesh 0 / stream 0 / normal: 3 vertices of stride 24 need 72 bytes, the data holds 60");
}

TEST(Validate, AttributeWiderThanStride) {
    Scene s = triangleScene();
    s.meshes[0].streams[0].attributes[1].offset = 16;
    auto p = validate(s);
    ASSERT_FALSE(p.empty());
    EXPECT_NE(p[0].message.find("does not fit in the stride 24"), std::string::npos) << p[0].message;
}

TEST(Validate, ReferencesOutOfRange) {
    Scene s = triangleScene();
    s.nodes[0].materials = {4};
    s.nodes[0].parent = 7;
    Node camera;
    camera.kind = NodeKind::Camera;
    camera.object = 0;  // no cameras
    s.nodes.push_back(camera);
    auto p = validate(s);
    ASSERT_EQ(p.size(), 3u);
    EXPECT_NE(p[0].message.find("parent 7 out of range (2 nodes)"), std::string::npos) << p[0].message;
    EXPECT_NE(p[1].message.find("material index 4"), std::string::npos) << p[1].message;
    EXPECT_NE(p[2].message.find("camera index 0 out of range (0 cameras)"), std::string::npos) << p[2].message;
}

TEST(Validate, LightProjectionTextureOutOfRange) {
    Scene s = triangleScene();
    Light spot;
    spot.type = LightType::Spot;
    spot.projection.texture = 2;  // no textures
    s.lights.push_back(spot);
    auto p = validate(s);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].where.find("light 0 / projection texture"), std::string::npos) << p[0].where;
    EXPECT_NE(p[0].message.find("texture index 2 out of range (0 textures)"), std::string::npos)
        << p[0].message;
    s.textures.resize(3);
    EXPECT_TRUE(validate(s).empty());
}

TEST(Validate, ParentCycleIsFoundWithoutHanging) {
    Scene s = triangleScene();
    Node a, b;
    a.parent = 2;
    b.parent = 1;
    s.nodes.push_back(a);
    s.nodes.push_back(b);
    auto p = validate(s);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].message.find("loops"), std::string::npos);
}

TEST(Validate, SubmeshAndStripRanges) {
    Scene s = triangleScene();
    s.meshes[0].submeshes[0].indexCount = 6;
    EXPECT_EQ(validate(s).size(), 1u);
    s = triangleScene();
    s.meshes[0].submeshes[0].primitive = Primitive::TriangleStrip;
    s.meshes[0].submeshes[0].stripLengths = {2};  // needs 4 indices, has 3
    auto p = validate(s);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].message.find("strips need 4 indices"), std::string::npos) << p[0].message;
}

TEST(Validate, BoneBatchesAndSkins) {
    Scene s = triangleScene();
    Skin skin;
    skin.joints = {0};
    skin.inverseBind = {glm::mat4(1.0f)};
    s.skins.push_back(skin);
    s.nodes[0].skin = 0;
    BoneBatch batch;
    batch.bones = {0, 1};  // joint 1 does not exist
    batch.triangleCount = 2;  // the mesh has one triangle
    s.meshes[0].boneBatches.push_back(batch);
    s.meshes[0].maxBonesPerBatch = 2;
    auto p = validate(s);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_NE(p[0].message.find("exceed the mesh's 1"), std::string::npos) << p[0].message;
    EXPECT_NE(p[1].message.find("bone 1 out of range (1 skin joints)"), std::string::npos) << p[1].message;
}

TEST(Validate, AnimationTracks) {
    Scene s = triangleScene();
    Clip clip;
    Track t;
    t.node = 0;
    t.channel = Channel::Translation;
    t.components = 3;
    t.times = {0.0f, 1.0f, 0.5f};
    t.values = std::vector<float>(9, 0.0f);
    clip.tracks.push_back(t);
    Track bad = t;
    bad.node = 9;
    bad.times = {0.0f};
    clip.tracks.push_back(bad);  // node out of range and 9 values for 1 key
    s.animation.clips.push_back(clip);
    auto p = validate(s);
    ASSERT_EQ(p.size(), 3u);
    EXPECT_NE(p[0].message.find("not ascending at key 2"), std::string::npos) << p[0].message;
    EXPECT_NE(p[1].message.find("node 9 out of range"), std::string::npos) << p[1].message;
    EXPECT_NE(p[2].message.find("9 values for 1 keys"), std::string::npos) << p[2].message;
}

TEST(Validate, AllOnesIndexIsOnlyARestartWhereTheSubmeshSaysSo) {
    Scene s = triangleScene();
    s.meshes[0].indices.bytes = makeOwnedBytes({0, 0, 1, 0, 0xFF, 0xFF});
    auto p = validate(s);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].message.find("index 65535 out of range"), std::string::npos) << p[0].message;
    s.meshes[0].submeshes[0].primitive = Primitive::TriangleStrip;
    s.meshes[0].submeshes[0].primitiveRestart = true;
    EXPECT_TRUE(validate(s).empty());
}

TEST(Validate, LongParentChainIsLinear) {
    Scene s = triangleScene();
    // 200,000 nodes in one chain: a quadratic walk would take minutes.
    for (int i = 0; i < 200000; ++i) {
        Node n;
        n.parent = static_cast<int32_t>(s.nodes.size()) - 1;
        s.nodes.push_back(n);
    }
    EXPECT_TRUE(validate(s).empty());
    s.nodes[1].parent = static_cast<int32_t>(s.nodes.size()) - 1;  // close the loop
    auto p = validate(s);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].message.find("loops"), std::string::npos);
}

// A scene with many indices is scanned on two threads, split between meshes at the byte halfway
// point: a bad index is found in each half, and in the mesh on the split, whichever thread has it.
TEST(Validate, IndicesOfALargeSceneAreAllScanned) {
    constexpr uint32_t kIndices = 1u << 20;  // 4 MiB of 32-bit indices a mesh: four meshes, 16 MiB
    Scene s = triangleScene();
    Mesh big = s.meshes[0];
    big.indices.type = ComponentType::UInt32;
    big.indices.count = kIndices;
    big.submeshes[0].indexCount = kIndices;
    std::vector<uint32_t> values(kIndices);
    for (uint32_t i = 0; i < kIndices; ++i) values[i] = i % 3;
    auto bytesOf = [](const std::vector<uint32_t>& v) {
        std::vector<uint8_t> out(v.size() * 4);
        std::memcpy(out.data(), v.data(), out.size());
        return makeOwnedBytes(std::move(out));
    };
    s.meshes.assign(4, big);
    for (Mesh& m : s.meshes) m.indices.bytes = bytesOf(values);
    EXPECT_TRUE(validate(s).empty());
    for (size_t bad = 0; bad < 4; ++bad) {
        Scene broken = s;
        std::vector<uint32_t> wrong = values;
        wrong[kIndices - 1 - bad] = 7 + uint32_t(bad);
        broken.meshes[bad].indices.bytes = bytesOf(wrong);
        const auto p = validate(broken);
        ASSERT_EQ(p.size(), 1u) << "mesh " << bad;
        EXPECT_EQ(p[0].where, "mesh " + std::to_string(bad) + " / indices");
        EXPECT_NE(p[0].message.find("index " + std::to_string(7 + bad) + " out of range (3 vertices)"), std::string::npos)
            << p[0].message;
    }
}
