// CPU reference path: attribute decoding for every component type (hand-made bytes at unaligned
// offsets), morph targets, skinning with global and batch-local bone indices, bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "scene/cpu_reference.h"

namespace esv {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kEps = 1e-5f;

void expectVec(const glm::vec3& a, const glm::vec3& b, float eps = kEps) {
    EXPECT_NEAR(a.x, b.x, eps);
    EXPECT_NEAR(a.y, b.y, eps);
    EXPECT_NEAR(a.z, b.z, eps);
}

// One attribute of `type` x `components` at byte offset 3 of a 2-vertex stream with stride 23, so
// every multi-byte read is unaligned. `bytes` are the little-endian bytes of vertex 1; vertex 0 is
// filled with 0xEE so reading the wrong vertex shows.
struct Decode {
    VertexStream stream;
    VertexAttribute attribute;
    float out[4] = {-9, -9, -9, -9};
    int count = 0;
};

Decode decode(ComponentType type, uint8_t components, bool normalized, const std::vector<uint8_t>& bytes,
              Swizzle swizzle = Swizzle::Identity) {
    constexpr uint32_t kStride = 23, kOffset = 3;
    std::vector<uint8_t> data(2 * kStride, 0xEE);
    std::memcpy(data.data() + kStride + kOffset, bytes.data(), bytes.size());
    Decode d;
    d.stream.stride = kStride;
    d.stream.count = 2;
    d.stream.bytes = makeOwnedBytes(std::move(data));
    d.attribute = {Semantic::Color, 0, type, components, normalized, swizzle, kOffset};
    d.count = readAttribute(d.stream, d.attribute, 1, d.out);
    return d;
}

std::vector<uint8_t> le32(std::initializer_list<uint32_t> words) {
    std::vector<uint8_t> b;
    for (uint32_t w : words)
        for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(w >> (8 * i)));
    return b;
}
std::vector<uint8_t> le16(std::initializer_list<uint16_t> values) {
    std::vector<uint8_t> b;
    for (uint16_t v : values) b.insert(b.end(), {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)});
    return b;
}

TEST(ReadAttribute, Float32AndFloat64) {
    Decode d = decode(ComponentType::Float32, 3, false, le32({0x3FC00000u, 0xC0200000u, 0x00000000u}));
    EXPECT_EQ(d.count, 3);
    EXPECT_EQ(d.out[0], 1.5f);
    EXPECT_EQ(d.out[1], -2.5f);
    EXPECT_EQ(d.out[2], 0.0f);
    EXPECT_EQ(d.out[3], 1.0f);
    // 0.1 as a double: 0x3FB999999999999A; -3 as a double: 0xC008000000000000.
    d = decode(ComponentType::Float64, 2, false, le32({0x9999999Au, 0x3FB99999u, 0x00000000u, 0xC0080000u}));
    EXPECT_EQ(d.count, 2);
    EXPECT_EQ(d.out[0], 0.1f);
    EXPECT_EQ(d.out[1], -3.0f);
    EXPECT_EQ(d.out[2], 0.0f);
    EXPECT_EQ(d.out[3], 1.0f);
}

TEST(ReadAttribute, HalfFloat) {
    Decode d = decode(ComponentType::Float16, 4, false, le16({0x3C00, 0xC000, 0x3555, 0x7BFF}));
    EXPECT_EQ(d.out[0], 1.0f);
    EXPECT_EQ(d.out[1], -2.0f);
    EXPECT_EQ(d.out[2], 0.333251953125f);  // 1 + 341/1024, times 2^-2
    EXPECT_EQ(d.out[3], 65504.0f);         // largest finite half
    d = decode(ComponentType::Float16, 4, false, le16({0x0001, 0x03FF, 0x8000, 0x0400}));
    EXPECT_EQ(d.out[0], std::ldexp(1.0f, -24));  // smallest subnormal
    EXPECT_EQ(d.out[1], std::ldexp(1023.0f, -24));
    EXPECT_EQ(d.out[2], 0.0f);
    EXPECT_TRUE(std::signbit(d.out[2]));
    EXPECT_EQ(d.out[3], std::ldexp(1.0f, -14));  // smallest normal
    d = decode(ComponentType::Float16, 3, false, le16({0x7C00, 0xFC00, 0x7E00}));
    EXPECT_TRUE(std::isinf(d.out[0]) && d.out[0] > 0);
    EXPECT_TRUE(std::isinf(d.out[1]) && d.out[1] < 0);
    EXPECT_TRUE(std::isnan(d.out[2]));
}

TEST(ReadAttribute, Fixed16_16) {
    Decode d = decode(ComponentType::Fixed16_16, 3, false, le32({0x00018000u, 0xFFFF8000u, 0x7FFFFFFFu}));
    EXPECT_EQ(d.out[0], 1.5f);
    EXPECT_EQ(d.out[1], -0.5f);
    EXPECT_FLOAT_EQ(d.out[2], 32768.0f);  // 32767.99998...
    EXPECT_EQ(d.out[3], 1.0f);
}

TEST(ReadAttribute, SignedIntegersWithAndWithoutNormalisation) {
    // int8: ES 3 rule max(c / 127, -1).
    Decode d = decode(ComponentType::Int8, 4, true, {0x80, 0x7F, 0xC0, 0x00});
    EXPECT_EQ(d.out[0], -1.0f);
    EXPECT_EQ(d.out[1], 1.0f);
    EXPECT_FLOAT_EQ(d.out[2], -64.0f / 127.0f);
    EXPECT_EQ(d.out[3], 0.0f);
    d = decode(ComponentType::Int8, 2, false, {0xFB, 0x7F});
    EXPECT_EQ(d.out[0], -5.0f);
    EXPECT_EQ(d.out[1], 127.0f);
    EXPECT_EQ(d.out[2], 0.0f);
    EXPECT_EQ(d.out[3], 1.0f);
    // int16: c / 32767.
    d = decode(ComponentType::Int16, 3, true, le16({0x8000, 0x4000, 0x8001}));
    EXPECT_EQ(d.out[0], -1.0f);
    EXPECT_FLOAT_EQ(d.out[1], 16384.0f / 32767.0f);
    EXPECT_EQ(d.out[2], -1.0f);
    d = decode(ComponentType::Int16, 1, false, le16({0xFF9C}));
    EXPECT_EQ(d.count, 1);
    EXPECT_EQ(d.out[0], -100.0f);
    EXPECT_EQ(d.out[1], 0.0f);
    // int32.
    d = decode(ComponentType::Int32, 3, true, le32({0x80000000u, 0x7FFFFFFFu, 0x40000000u}));
    EXPECT_EQ(d.out[0], -1.0f);
    EXPECT_EQ(d.out[1], 1.0f);
    EXPECT_FLOAT_EQ(d.out[2], 0.5f);
    d = decode(ComponentType::Int32, 2, false, le32({0xFFFFFFF9u, 70000u}));
    EXPECT_EQ(d.out[0], -7.0f);
    EXPECT_EQ(d.out[1], 70000.0f);
}

TEST(ReadAttribute, UnsignedIntegersWithAndWithoutNormalisation) {
    Decode d = decode(ComponentType::UInt8, 4, true, {0xFF, 0x33, 0x00, 0x80});
    EXPECT_EQ(d.out[0], 1.0f);
    EXPECT_FLOAT_EQ(d.out[1], 0.2f);
    EXPECT_EQ(d.out[2], 0.0f);
    EXPECT_FLOAT_EQ(d.out[3], 128.0f / 255.0f);
    d = decode(ComponentType::UInt8, 3, false, {200, 3, 0});
    EXPECT_EQ(d.out[0], 200.0f);
    EXPECT_EQ(d.out[1], 3.0f);
    EXPECT_EQ(d.out[3], 1.0f);
    d = decode(ComponentType::UInt16, 2, true, le16({0xFFFF, 0x8000}));
    EXPECT_EQ(d.out[0], 1.0f);
    EXPECT_FLOAT_EQ(d.out[1], 32768.0f / 65535.0f);
    d = decode(ComponentType::UInt16, 2, false, le16({0xFFFF, 0x0102}));
    EXPECT_EQ(d.out[0], 65535.0f);
    EXPECT_EQ(d.out[1], 258.0f);
    d = decode(ComponentType::UInt32, 2, true, le32({0xFFFFFFFFu, 0u}));
    EXPECT_EQ(d.out[0], 1.0f);
    EXPECT_EQ(d.out[1], 0.0f);
    d = decode(ComponentType::UInt32, 1, false, le32({100000u}));
    EXPECT_EQ(d.out[0], 100000.0f);
}

uint32_t pack1010102(uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
    return (x & 0x3FF) | (y & 0x3FF) << 10 | (z & 0x3FF) << 20 | (w & 3) << 30;
}

TEST(ReadAttribute, Packed2_10_10_10) {
    // Signed fields: x = -1, y = 511, z = -512, w = 1.
    const uint32_t word = pack1010102(0x3FF, 511, 0x200, 1);
    Decode d = decode(ComponentType::Int2_10_10_10, 4, false, le32({word}));
    EXPECT_EQ(d.count, 4);
    EXPECT_EQ(d.out[0], -1.0f);
    EXPECT_EQ(d.out[1], 511.0f);
    EXPECT_EQ(d.out[2], -512.0f);
    EXPECT_EQ(d.out[3], 1.0f);
    d = decode(ComponentType::Int2_10_10_10, 4, true, le32({word}));
    EXPECT_FLOAT_EQ(d.out[0], -1.0f / 511.0f);
    EXPECT_EQ(d.out[1], 1.0f);
    EXPECT_EQ(d.out[2], -1.0f);  // -512/511 clamps to -1
    EXPECT_EQ(d.out[3], 1.0f);
    // w = binary 10 is -2: normalised it clamps to -1.
    d = decode(ComponentType::Int2_10_10_10, 4, true, le32({pack1010102(0, 0, 0, 2)}));
    EXPECT_EQ(d.out[3], -1.0f);
    // Three components (POD DEC3N): w is not read, it is the default 1.
    d = decode(ComponentType::Int2_10_10_10, 3, true, le32({pack1010102(256, 0x300, 0, 2)}));
    EXPECT_EQ(d.count, 3);
    EXPECT_FLOAT_EQ(d.out[0], 256.0f / 511.0f);
    EXPECT_FLOAT_EQ(d.out[1], -256.0f / 511.0f);
    EXPECT_EQ(d.out[3], 1.0f);

    const uint32_t uword = pack1010102(1023, 0, 511, 1);
    d = decode(ComponentType::UInt2_10_10_10, 4, false, le32({uword}));
    EXPECT_EQ(d.out[0], 1023.0f);
    EXPECT_EQ(d.out[1], 0.0f);
    EXPECT_EQ(d.out[2], 511.0f);
    EXPECT_EQ(d.out[3], 1.0f);
    d = decode(ComponentType::UInt2_10_10_10, 4, true, le32({uword}));
    EXPECT_EQ(d.out[0], 1.0f);
    EXPECT_FLOAT_EQ(d.out[2], 511.0f / 1023.0f);
    EXPECT_FLOAT_EQ(d.out[3], 1.0f / 3.0f);
}

TEST(ReadAttribute, Swizzles) {
    // POD ARGB / D3DCOLOR: memory b, g, r, a.
    Decode d = decode(ComponentType::UInt8, 4, true, {10, 20, 30, 40}, Swizzle::BGRA);
    EXPECT_FLOAT_EQ(d.out[0], 30.0f / 255.0f);
    EXPECT_FLOAT_EQ(d.out[1], 20.0f / 255.0f);
    EXPECT_FLOAT_EQ(d.out[2], 10.0f / 255.0f);
    EXPECT_FLOAT_EQ(d.out[3], 40.0f / 255.0f);
    // POD RGBA: memory a, b, g, r.
    d = decode(ComponentType::UInt8, 4, true, {10, 20, 30, 40}, Swizzle::ABGR);
    EXPECT_FLOAT_EQ(d.out[0], 40.0f / 255.0f);
    EXPECT_FLOAT_EQ(d.out[1], 30.0f / 255.0f);
    EXPECT_FLOAT_EQ(d.out[2], 20.0f / 255.0f);
    EXPECT_FLOAT_EQ(d.out[3], 10.0f / 255.0f);
    // Unnormalised bytes keep their values.
    d = decode(ComponentType::UInt8, 4, false, {1, 2, 3, 4}, Swizzle::BGRA);
    EXPECT_EQ(d.out[0], 3.0f);
    EXPECT_EQ(d.out[2], 1.0f);
    EXPECT_EQ(d.out[3], 4.0f);
}

TEST(ReadAttribute, MissingComponentsAreZeroZeroZeroOne) {
    Decode d = decode(ComponentType::Float32, 2, false, le32({0x3F800000u, 0x40000000u}));
    EXPECT_EQ(d.count, 2);
    EXPECT_EQ(d.out[0], 1.0f);
    EXPECT_EQ(d.out[1], 2.0f);
    EXPECT_EQ(d.out[2], 0.0f);
    EXPECT_EQ(d.out[3], 1.0f);
    d = decode(ComponentType::UInt16, 1, true, le16({0}));
    EXPECT_EQ(d.out[0], 0.0f);
    EXPECT_EQ(d.out[1], 0.0f);
    EXPECT_EQ(d.out[2], 0.0f);
    EXPECT_EQ(d.out[3], 1.0f);
}

TEST(FindAttribute, MatchesSemanticAndSetAcrossStreams) {
    Mesh mesh;
    mesh.streams.resize(2);
    mesh.streams[0].attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0},
        {Semantic::TexCoord, 0, ComponentType::Float32, 2, false, Swizzle::Identity, 12}};
    mesh.streams[1].attributes = {
        {Semantic::TexCoord, 1, ComponentType::UInt16, 2, true, Swizzle::Identity, 4}};
    const VertexStream* s = nullptr;
    const VertexAttribute* a = findAttribute(mesh, Semantic::TexCoord, 1, &s);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(s, &mesh.streams[1]);
    EXPECT_EQ(a->offset, 4u);
    a = findAttribute(mesh, Semantic::TexCoord, 0, &s);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(s, &mesh.streams[0]);
    EXPECT_EQ(a->offset, 12u);
    EXPECT_EQ(findAttribute(mesh, Semantic::Normal, 0, &s), nullptr);
    EXPECT_EQ(findAttribute(mesh, Semantic::TexCoord, 2, nullptr), nullptr);
}

// ---------------------------------------------------------------------------------------------
// Fixtures built in code

template <typename T>
ByteView bytesOf(const std::vector<T>& v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return makeOwnedBytes(std::move(b));
}

VertexStream floatStream(const std::vector<glm::vec3>& values, Semantic semantic = Semantic::Position) {
    VertexStream s;
    s.stride = 12;
    s.count = static_cast<uint32_t>(values.size());
    s.bytes = bytesOf(values);
    s.attributes = {{semantic, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0}};
    return s;
}

// Skinned vertex: position, normal, 2 UInt8 bone indices (+2 pad), 2 float weights: 36 bytes.
struct SkinVertex {
    glm::vec3 position;
    glm::vec3 normal;
    uint8_t bones[4];
    float weights[2];
};

void setSkinStream(Mesh& mesh, const std::vector<SkinVertex>& vertices) {
    VertexStream s;
    s.stride = sizeof(SkinVertex);
    s.count = static_cast<uint32_t>(vertices.size());
    s.bytes = bytesOf(vertices);
    s.attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity,
         offsetof(SkinVertex, position)},
        {Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity,
         offsetof(SkinVertex, normal)},
        {Semantic::BoneIndices, 0, ComponentType::UInt8, 2, false, Swizzle::Identity,
         offsetof(SkinVertex, bones)},
        {Semantic::BoneWeights, 0, ComponentType::Float32, 2, false, Swizzle::Identity,
         offsetof(SkinVertex, weights)},
    };
    mesh.streams = {s};
    mesh.vertexCount = s.count;
}

// Bone 0 at the origin, bone 1 its child at (0,1,0); the mesh node sits at (5,0,0), which skinning
// must not apply. Clip 0 turns bone 1 by 90 degrees about +Z at t = 1.
Scene twoBoneScene() {
    Scene scene;
    scene.nodes.resize(3);
    scene.nodes[0].name = "mesh";
    scene.nodes[0].kind = NodeKind::Mesh;
    scene.nodes[0].object = 0;
    scene.nodes[0].skin = 0;
    scene.nodes[0].local.translation = glm::vec3(5, 0, 0);
    scene.nodes[1].name = "bone0";
    scene.nodes[1].kind = NodeKind::Bone;
    scene.nodes[2].name = "bone1";
    scene.nodes[2].kind = NodeKind::Bone;
    scene.nodes[2].parent = 1;
    scene.nodes[2].local.translation = glm::vec3(0, 1, 0);
    Skin skin;
    skin.joints = {1, 2};
    skin.inverseBind = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0))};
    scene.skins.push_back(skin);
    Mesh mesh;
    scene.meshes.push_back(mesh);

    Clip clip;
    clip.name = "bend";
    clip.end = 1.0f;
    Track rot;
    rot.node = 2;
    rot.channel = Channel::Rotation;
    rot.components = 4;
    rot.times = {0.0f, 1.0f};
    const glm::quat q = glm::angleAxis(kPi / 2, glm::vec3(0, 0, 1));
    rot.values = {0, 0, 0, 1, q.x, q.y, q.z, q.w};
    clip.tracks.push_back(rot);
    scene.animation.clips.push_back(clip);
    return scene;
}

TEST(WorldVertices, SkinsATwoBoneFixtureExactly) {
    Scene scene = twoBoneScene();
    const glm::vec3 x(1, 0, 0);
    setSkinStream(scene.meshes[0], {
                                       {{0, 0, 0}, x, {0, 1, 0, 0}, {1.0f, 0.0f}},  // bone 0 only
                                       {{1, 1, 0}, x, {1, 0, 0, 0}, {1.0f, 0.0f}},  // bone 1 only
                                       {{0, 2, 0}, x, {1, 0, 0, 0}, {1.0f, 0.0f}},  // bone 1 only
                                       {{1, 1, 0}, x, {0, 1, 0, 0}, {0.5f, 0.5f}},  // half and half
                                       {{0, 3, 0}, x, {0, 1, 0, 0}, {0.25f, 0.75f}},
                                   });
    Pose pose;
    std::vector<glm::vec3> p, n;
    evaluatePose(scene, -1, 0.0f, pose);
    worldVertices(scene, pose, 0, p, &n);
    ASSERT_EQ(p.size(), 5u);
    // At rest every palette entry is identity: stored positions, and the node's (5,0,0) is not applied.
    expectVec(p[1], {1, 1, 0});
    expectVec(p[4], {0, 3, 0});

    evaluatePose(scene, 0, 1.0f, pose);
    worldVertices(scene, pose, 0, p, &n);
    ASSERT_EQ(n.size(), 5u);
    expectVec(p[0], {0, 0, 0});
    // (1,1,0) is (1,0,0) from bone 1; turned 90 degrees about z it is (0,1,0), plus the bone at (0,1,0).
    expectVec(p[1], {0, 2, 0});
    expectVec(p[2], {-1, 1, 0});
    expectVec(p[3], {0.5f, 1.5f, 0});  // average of (1,1,0) and (0,2,0)
    // (0,3,0): bone 0 leaves it, bone 1 moves it to (-2,1,0): 0.25 * (0,3,0) + 0.75 * (-2,1,0).
    expectVec(p[4], {-1.5f, 1.5f, 0});
    expectVec(n[0], {1, 0, 0});
    expectVec(n[1], {0, 1, 0});
    // Blend of identity and a 90 degree turn: the inverse-transpose keeps the normal at 45 degrees.
    expectVec(n[3], glm::normalize(glm::vec3(1, 1, 0)));
}

TEST(WorldVertices, BatchLocalBoneIndicesFollowTheTriangleBatch) {
    Scene scene = twoBoneScene();
    Mesh& mesh = scene.meshes[0];
    const glm::vec3 x(1, 0, 0);
    // Every vertex says "local bone 0"; what that means depends on the batch of its triangle.
    std::vector<SkinVertex> vertices;
    for (int i = 0; i < 6; ++i) vertices.push_back({{0, 2, 0}, x, {0, 0, 0, 0}, {1.0f, 0.0f}});
    setSkinStream(mesh, vertices);
    mesh.boneIndicesBatchLocal = true;
    mesh.boneBatches = {{{1, 0}, 0, 1}, {{0, 1}, 1, 1}};  // batch 0: local 0 = joint 1; batch 1: joint 0
    mesh.maxBonesPerBatch = 2;

    // Indexed: triangle 0 (batch 0) uses vertices 3,4,5; triangle 1 (batch 1) uses 0,1,2.
    const std::vector<uint16_t> indices = {3, 4, 5, 0, 1, 2};
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = 6;
    mesh.indices.bytes = bytesOf(indices);
    Submesh sub;
    sub.indexCount = 6;
    mesh.submeshes = {sub};

    Pose pose;
    evaluatePose(scene, 0, 1.0f, pose);
    std::vector<glm::vec3> p;
    worldVertices(scene, pose, 0, p);
    ASSERT_EQ(p.size(), 6u);
    for (int i = 0; i < 3; ++i) expectVec(p[i], {0, 2, 0});   // joint 0: identity
    for (int i = 3; i < 6; ++i) expectVec(p[i], {-1, 1, 0});  // joint 1: turned

    // Non-indexed: triangle t uses vertices 3t..3t+2.
    mesh.indices = IndexData{};
    worldVertices(scene, pose, 0, p);
    for (int i = 0; i < 3; ++i) expectVec(p[i], {-1, 1, 0});
    for (int i = 3; i < 6; ++i) expectVec(p[i], {0, 2, 0});

    // The same triangles as one strip (triangles counted after expansion): 0,1,2 then 1,2,3 ...
    // strip 3,4,5,0: triangle 0 = (3,4,5) batch 0, triangle 1 = (5,4,0) batch 1.
    const std::vector<uint16_t> strip = {3, 4, 5, 0};
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = 4;
    mesh.indices.bytes = bytesOf(strip);
    mesh.submeshes[0].primitive = Primitive::TriangleStrip;
    mesh.submeshes[0].indexCount = 4;
    mesh.submeshes[0].stripLengths = {2};
    worldVertices(scene, pose, 0, p);
    for (int i : {3, 4, 5}) expectVec(p[i], {-1, 1, 0});
    expectVec(p[0], {0, 2, 0});

    // Global (not batch-local) indices: local 0 is joint 0 everywhere.
    mesh.boneIndicesBatchLocal = false;
    worldVertices(scene, pose, 0, p);
    for (const glm::vec3& v : p) expectVec(v, {0, 2, 0});
}

TEST(WorldVertices, UnskinnedMeshUsesObjectWorldAndInverseTransposeNormals) {
    Scene scene;
    Mesh mesh;
    mesh.streams = {floatStream({{1, 0, 0}, {0, 1, 0}}),
                    floatStream({glm::normalize(glm::vec3(1, 1, 0)), {0, 0, 1}}, Semantic::Normal)};
    mesh.vertexCount = 2;
    scene.meshes.push_back(mesh);
    scene.nodes.resize(2);
    scene.nodes[0].local.translation = glm::vec3(0, 0, 10);
    scene.nodes[1].kind = NodeKind::Mesh;
    scene.nodes[1].object = 0;
    scene.nodes[1].parent = 0;
    scene.nodes[1].local.scale = glm::vec3(2, 1, 1);
    scene.nodes[1].objectTransform = glm::translate(glm::mat4(1.0f), glm::vec3(0, 3, 0));
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    std::vector<glm::vec3> p, n;
    worldVertices(scene, pose, 1, p, &n);
    ASSERT_EQ(p.size(), 2u);
    // parent T(0,0,10) * S(2,1,1) * objectTransform T(0,3,0).
    expectVec(p[0], {2, 3, 10});
    expectVec(p[1], {0, 4, 10});
    // Normal (1,1,0) under scale (2,1,1): inverse transpose scales by (1/2,1,1): (1,2,0)/sqrt 5.
    expectVec(n[0], glm::normalize(glm::vec3(1, 2, 0)));
    expectVec(n[1], {0, 0, 1});
    // Not a mesh node, out of range: nothing.
    worldVertices(scene, pose, 0, p);
    EXPECT_TRUE(p.empty());
    worldVertices(scene, pose, 7, p);
    EXPECT_TRUE(p.empty());
}

Scene morphScene(bool relative) {
    Scene scene;
    Mesh mesh;
    mesh.streams = {floatStream({{1, 0, 0}, {0, 1, 0}})};
    mesh.vertexCount = 2;
    mesh.positionUnpack = glm::scale(glm::mat4(1.0f), glm::vec3(2.0f));  // stored units are half size
    MorphTarget a, b;
    if (relative) {
        a.stream = floatStream({{0, 1, 0}, {0, 0, 0}});
        b.stream = floatStream({{1, 0, 0}, {0, 0, 2}});
    } else {
        a.stream = floatStream({{1, 1, 0}, {0, 1, 0}});
        b.stream = floatStream({{2, 0, 0}, {0, 1, 2}});
    }
    a.relative = b.relative = relative;
    mesh.morphTargets = {a, b};
    mesh.defaultMorphWeights = {0.5f, 0.25f};
    scene.meshes.push_back(mesh);
    scene.nodes.resize(1);
    scene.nodes[0].kind = NodeKind::Mesh;
    scene.nodes[0].object = 0;
    return scene;
}

TEST(WorldVertices, MorphTargetsRelativeAndAbsolute) {
    for (bool relative : {true, false}) {
        SCOPED_TRACE(relative ? "relative" : "absolute");
        // Both fixtures describe the same deltas, so both give the same result:
        // stored v0 = (1,0,0) + 0.5*(0,1,0) + 0.25*(1,0,0) = (1.25, 0.5, 0), unpacked x2.
        // stored v1 = (0,1,0) + 0.25*(0,0,2) = (0, 1, 0.5), unpacked x2.
        const Scene scene = morphScene(relative);
        Pose pose;
        evaluatePose(scene, -1, 0.0f, pose);
        std::vector<glm::vec3> p;
        worldVertices(scene, pose, 0, p);
        ASSERT_EQ(p.size(), 2u);
        expectVec(p[0], {2.5f, 1.0f, 0});
        expectVec(p[1], {0, 2, 1});
        // Weights 0: the base shape.
        pose.morphWeights[0] = {0.0f, 0.0f};
        worldVertices(scene, pose, 0, p);
        expectVec(p[0], {2, 0, 0});
        // Weight 1 on target 0 only.
        pose.morphWeights[0] = {1.0f, 0.0f};
        worldVertices(scene, pose, 0, p);
        expectVec(p[0], {2, 2, 0});
        expectVec(p[1], {0, 2, 0});
    }
}

TEST(SceneBounds, OnlyReferencedVerticesOfVisibleMeshNodes) {
    Scene scene;
    Mesh mesh;
    // Vertex 3 is far away but no index uses it.
    mesh.streams = {floatStream({{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {100, 100, 100}})};
    mesh.vertexCount = 4;
    const std::vector<uint8_t> indices = {0, 1, 2};
    mesh.indices.type = ComponentType::UInt8;
    mesh.indices.count = 3;
    mesh.indices.bytes = bytesOf(indices);
    Submesh sub;
    sub.indexCount = 3;
    mesh.submeshes = {sub};
    scene.meshes.push_back(mesh);
    // A non-indexed mesh: all its vertices count.
    Mesh flat;
    flat.streams = {floatStream({{0, 0, -1}, {0, 0, 3}, {0, -4, 0}})};
    flat.vertexCount = 3;
    flat.submeshes = {sub};
    scene.meshes.push_back(flat);

    scene.nodes.resize(3);
    scene.nodes[0].kind = NodeKind::Mesh;
    scene.nodes[0].object = 0;
    scene.nodes[0].local.translation = glm::vec3(10, 0, 0);
    scene.nodes[1].kind = NodeKind::Mesh;
    scene.nodes[1].object = 1;
    scene.nodes[1].visible = false;
    scene.nodes[2].kind = NodeKind::Mesh;
    scene.nodes[2].object = 1;
    scene.nodes[2].local.translation = glm::vec3(20, 0, 0);

    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    Bounds b = sceneBounds(scene, pose);
    ASSERT_TRUE(b.valid());
    expectVec(b.min, {10, -4, -1});
    expectVec(b.max, {20, 2, 3});

    // Hide the last node with a visibility track: only the indexed mesh remains.
    Clip clip;
    clip.end = 1.0f;
    Track hide;
    hide.node = 2;
    hide.channel = Channel::Visibility;
    hide.interpolation = Interpolation::Step;
    hide.components = 1;
    hide.times = {0.0f};
    hide.values = {0.0f};
    clip.tracks.push_back(hide);
    scene.animation.clips.push_back(clip);
    evaluatePose(scene, 0, 0.0f, pose);
    b = sceneBounds(scene, pose);
    expectVec(b.min, {10, 0, 0});
    expectVec(b.max, {11, 2, 0});

    // Nothing drawn: an empty box.
    scene.nodes[0].visible = false;
    evaluatePose(scene, 0, 0.0f, pose);
    EXPECT_FALSE(sceneBounds(scene, pose).valid());
}

TEST(SceneBounds, FollowSkinning) {
    Scene scene = twoBoneScene();
    const glm::vec3 x(1, 0, 0);
    setSkinStream(scene.meshes[0], {{{0, 0, 0}, x, {0, 0, 0, 0}, {1.0f, 0.0f}},
                                    {{0, 2, 0}, x, {1, 0, 0, 0}, {1.0f, 0.0f}},
                                    {{0, 1, 0}, x, {1, 0, 0, 0}, {1.0f, 0.0f}}});
    Submesh sub;
    sub.indexCount = 3;
    scene.meshes[0].submeshes = {sub};
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    Bounds rest = sceneBounds(scene, pose);
    expectVec(rest.min, {0, 0, 0});
    expectVec(rest.max, {0, 2, 0});
    evaluatePose(scene, 0, 1.0f, pose);
    Bounds bent = sceneBounds(scene, pose);
    expectVec(bent.min, {-1, 0, 0});
    expectVec(bent.max, {0, 1, 0});
}

}  // namespace
}  // namespace esv
