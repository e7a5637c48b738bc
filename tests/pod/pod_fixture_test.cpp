// Hand-made POD byte fixtures for the cases no sample file has: strips, unknown blocks, broken
// lengths, big-endian and fixed-point files, data type mapping, unaligned interleaving, indexed
// animation, bone references, check-mode reporting.
#include <cmath>
#include <cstring>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "loaders/load.h"
#include "pod_bytes.h"

namespace esv {
namespace {

using test::PodBytes;
using Body = std::function<void(PodBytes&)>;

LoadResult load(const PodBytes& b, bool check = false) {
    LoadOptions options;
    options.collectAll = check;
    return loadSceneMemory(b.shared(), "fixture.pod", options);
}

std::string allProblems(const LoadResult& r) {
    std::string s;
    for (const Problem& p : r.problems) s += p.format() + "\n";
    return s;
}

bool reportHas(const Scene& s, const std::string& text) {
    for (const ReportLine& l : s.report)
        if (l.text.find(text) != std::string::npos) return true;
    return false;
}

// Mesh body: 4 float positions (non-interleaved), `faces` triangles indexed by `indices` (UShort).
void quadMesh(PodBytes& b, uint32_t faces, std::initializer_list<uint16_t> indices, uint32_t strips = 0,
              std::initializer_list<uint32_t> lengths = {}) {
    b.u32(pod::NumVertices, 4).u32(pod::NumFaces, faces).u32(pod::NumUvwChannels, 0).u32(pod::NumStrips, strips);
    if (strips) b.u32s(pod::StripLength, lengths);
    b.dataList(pod::VertexIndexList, 3, indices.size() ? 1 : 0, 2, PodBytes::shorts(indices));
    b.dataList(pod::VertexList, 1, 3, 12, PodBytes::floats({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}));
    b.dataList(pod::NormalList, 1, 0, 0, {});
}

// A file with one mesh node (+ `extraNodes` empty nodes), custom mesh and node bodies.
PodBytes file(const Body& meshBody, const Body& nodeBody = {}, const Body& sceneExtra = {}, uint32_t frames = 0,
              uint32_t extraNodes = 0, const Body& extraNodeBody = {}) {
    PodBytes b;
    b.version();
    b.open(pod::Scene);
    b.counts(0, 0, 1, 1 + extraNodes, 1, 0, 0, frames);
    if (sceneExtra) sceneExtra(b);
    b.open(pod::MeshBlock);
    meshBody(b);
    b.close(pod::MeshBlock);
    b.open(pod::NodeBlock).i32(pod::NodeIndex, 0).str(pod::NodeName, "quad").i32(pod::NodeMaterialIndex, -1).i32(pod::NodeParentIndex, -1);
    if (nodeBody) nodeBody(b);
    b.close(pod::NodeBlock);
    for (uint32_t i = 0; i < extraNodes; ++i) {
        b.open(pod::NodeBlock).i32(pod::NodeIndex, -1).str(pod::NodeName, "extra " + std::to_string(i)).i32(pod::NodeParentIndex, -1);
        if (extraNodeBody) extraNodeBody(b);
        b.close(pod::NodeBlock);
    }
    b.close(pod::Scene);
    return b;
}

PodBytes quadFile() {
    return file([](PodBytes& b) { quadMesh(b, 2, {0, 1, 2, 2, 1, 3}); });
}

TEST(PodFixture, MinimalTriangleList) {
    LoadResult r = load(quadFile(), true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    EXPECT_TRUE(r.problems.empty()) << allProblems(r);
    const Mesh& m = r.scene->meshes.at(0);
    EXPECT_EQ(m.vertexCount, 4u);
    EXPECT_EQ(m.indices.type, ComponentType::UInt16);
    EXPECT_EQ(m.indices.count, 6u);
    ASSERT_EQ(m.submeshes.size(), 1u);
    EXPECT_EQ(m.submeshes[0].primitive, Primitive::Triangles);
    EXPECT_EQ(triangleCount(m), 2u);
    EXPECT_EQ(r.scene->nodes.at(0).kind, NodeKind::Mesh);
    EXPECT_EQ(r.scene->nodes.at(0).materials, std::vector<int32_t>{-1});
    EXPECT_EQ(m.name, "quad");
}

TEST(PodFixture, TriangleStripsKeepTheirLengths) {
    // Two strips of 2 and 1 triangles: 4 + 3 indices, no degenerate joins (notes 6).
    LoadResult r = load(file([](PodBytes& b) { quadMesh(b, 3, {0, 1, 2, 3, 1, 2, 3}, 2, {2, 1}); }), true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    EXPECT_TRUE(r.problems.empty()) << allProblems(r);
    const Mesh& m = r.scene->meshes.at(0);
    EXPECT_EQ(m.submeshes.at(0).primitive, Primitive::TriangleStrip);
    EXPECT_EQ(m.submeshes[0].stripLengths, (std::vector<uint32_t>{2, 1}));
    EXPECT_EQ(m.submeshes[0].indexCount, 7u);
    EXPECT_EQ(m.indices.count, 7u);
    EXPECT_EQ(triangleCount(m), 3u);
}

TEST(PodFixture, StripLengthsThatDisagreeWithTheFaceCount) {
    LoadResult r = load(file([](PodBytes& b) { quadMesh(b, 4, {0, 1, 2, 3, 1, 2, 3}, 2, {2, 1}); }), true);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_EQ(r.problems[0].where, "scene / mesh 0 / strip lengths");
}

TEST(PodFixture, NonIndexedList) {
    LoadResult r = load(file([](PodBytes& b) { quadMesh(b, 1, {}); }), true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    const Mesh& m = r.scene->meshes.at(0);
    EXPECT_EQ(m.indices.count, 0u);
    EXPECT_EQ(m.submeshes.at(0).indexCount, 3u);
    EXPECT_EQ(triangleCount(m), 1u);
}

TEST(PodFixture, NonIndexedMeshNeedsEnoughVertices) {
    LoadResult r = load(file([](PodBytes& b) { quadMesh(b, 2, {}); }));  // 6 vertices needed, 4 stored
    EXPECT_FALSE(r.scene);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_EQ(r.problems[0].where, "scene / mesh 0 / face count");
}

TEST(PodFixture, VerticesWithoutPositionsAreRefused) {
    // A huge vertex count that no data backs must not reach consumers that size arrays by it.
    PodBytes b = file([](PodBytes& m) {
        m.u32(pod::NumVertices, 1000000000u).u32(pod::NumFaces, 0).u32(pod::NumUvwChannels, 0).u32(pod::NumStrips, 0);
        m.dataList(pod::VertexList, 1, 0, 0, {});
    });
    LoadResult r = load(b);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
    EXPECT_EQ(r.problems[0].message, "1000000000 vertices but no usable vertex list (6006)");
}

TEST(PodFixture, UnknownBlocksAreSkippedByLength) {
    PodBytes b = file(
        [](PodBytes& m) {
            m.u32s(6999, {1, 2, 3});  // unknown leaf inside the mesh
            quadMesh(m, 2, {0, 1, 2, 2, 1, 3});
        },
        [](PodBytes& n) { n.u32(5999, 42); },
        [](PodBytes& s) {
            s.open(2999).u32s(2998, {7, 7}).close(2999);  // an unknown container with an unknown child
            s.tag(2997, 3).raw("abc", 3);                  // an unknown leaf without an end tag
        });
    // An unknown top-level block between the version and the scene.
    std::vector<uint8_t>& bytes = b.bytes();
    PodBytes extra;
    extra.u32s(1999, {5});
    bytes.insert(bytes.begin() + 27, extra.bytes().begin(), extra.bytes().end());  // after the 27-byte version block
    LoadResult r = load(b, true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    EXPECT_TRUE(r.problems.empty()) << allProblems(r);
    EXPECT_TRUE(reportHas(*r.scene, "skipped 6 unknown blocks"));
    EXPECT_EQ(triangleCount(r.scene->meshes.at(0)), 2u);
}

TEST(PodFixture, LeafLengthPastTheEndOfTheFile) {
    PodBytes b;
    b.version().open(pod::Scene).counts(0, 0, 0, 0, 0, 0, 0, 0);
    const size_t leafAt = b.size();
    b.tag(pod::SceneUserData, 1000).raw("abcd", 4);
    for (bool check : {false, true}) {
        LoadResult r = load(b, check);
        EXPECT_FALSE(r.scene);
        ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
        EXPECT_EQ(r.problems[0].offset, static_cast<int64_t>(leafAt));
        EXPECT_EQ(r.problems[0].where, "scene / scene user data");
        EXPECT_NE(r.problems[0].message.find("runs past the end of the file (4 bytes left)"), std::string::npos);
    }
}

TEST(PodFixture, ContainerWithoutEndTag) {
    PodBytes b;
    b.version();
    const size_t sceneAt = b.size();
    b.open(pod::Scene).counts(0, 0, 0, 0, 0, 0, 0, 0);
    LoadResult r = load(b);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
    EXPECT_EQ(r.problems[0].offset, static_cast<int64_t>(sceneAt));
    EXPECT_EQ(r.problems[0].where, "scene");
}

TEST(PodFixture, LeafWhoseLengthIsTooShortLeavesNoEndTagWhereItSays) {
    PodBytes b;
    b.version().open(pod::Scene).counts(0, 0, 0, 0, 0, 0, 0, 0);
    const size_t fpsAt = b.size();
    b.tag(pod::Fps, 2).raw("\x19\0\0\0", 4).close(pod::Fps);  // the value is 4 bytes, the length says 2
    b.close(pod::Scene);
    LoadResult r = load(b, true);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_EQ(r.problems[0].offset, static_cast<int64_t>(fpsAt));
    EXPECT_EQ(r.problems[0].where, "scene / FPS");
}

TEST(PodFixture, BigEndianFileIsRejectedClearly) {
    PodBytes b;
    const uint8_t tag[8] = {0, 0, 0x03, 0xE8, 0, 0, 0, 11};
    b.raw(tag, 8).raw("AB.POD.2.0", 11);
    LoadResult r = load(b);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_EQ(r.problems[0].offset, 0);
    EXPECT_NE(r.problems[0].message.find("big-endian"), std::string::npos);
}

TEST(PodFixture, WrongVersionAndMissingScene) {
    PodBytes b;
    b.str(pod::Version, "AB.POD.1.0");
    LoadResult r = load(b, true);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 2u) << allProblems(r);
    EXPECT_NE(r.problems[0].message.find("AB.POD.1.0"), std::string::npos);
    EXPECT_NE(r.problems[1].message.find("no scene block"), std::string::npos);
}

TEST(PodFixture, CountsMustMatchTheBlocks) {
    PodBytes b;
    b.version().open(pod::Scene);
    const size_t meshesAt = b.size() + 2 * 20;  // after NumCameras and NumLights
    b.counts(0, 0, 2, 0, 0, 0, 0, 0);
    b.close(pod::Scene);
    LoadResult r = load(b, true);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
    EXPECT_EQ(r.problems[0].offset, static_cast<int64_t>(meshesAt));
    EXPECT_EQ(r.problems[0].where, "scene / mesh count");
    EXPECT_EQ(r.problems[0].message, "declares 2 but the scene holds 0 mesh blocks");
}

TEST(PodFixture, FixedPointSceneConvertsNonVertexNumbers) {
    PodBytes b = file([](PodBytes& m) { quadMesh(m, 2, {0, 1, 2, 2, 1, 3}); },
                      [](PodBytes& n) {
                          n.u32(pod::AnimationFlags, 0).fixed(pod::AnimationPosition, {1.5f, -2.0f, 3.25f});
                          n.fixed(pod::AnimationScale, {2, 2, 2, 0, 0, 0, 0});
                      },
                      [](PodBytes& s) {
                          s.u32(pod::SceneFlags, pod::kSceneFlagFixedPoint).fixed(pod::ClearColour, {0.5f, 0.25f, 1.0f});
                      });
    LoadResult r = load(b, true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    const Scene& s = *r.scene;
    EXPECT_FLOAT_EQ(s.clearColor.g, 0.25f);
    EXPECT_FLOAT_EQ(s.nodes[0].local.translation.x, 1.5f);
    EXPECT_FLOAT_EQ(s.nodes[0].local.translation.y, -2.0f);
    EXPECT_FLOAT_EQ(s.nodes[0].local.translation.z, 3.25f);
    EXPECT_FLOAT_EQ(s.nodes[0].local.scale.z, 2.0f);
}

TEST(PodFixture, DataTypesMapToGlesAttributes) {
    struct Case {
        uint32_t podType, n;
        ComponentType type;
        uint8_t components;
        bool normalized;
        Swizzle swizzle;
        uint32_t bytes;
    };
    const Case cases[] = {
        {4, 1, ComponentType::UInt8, 4, true, Swizzle::ABGR, 4},            // RGBA
        {5, 1, ComponentType::UInt8, 4, true, Swizzle::BGRA, 4},            // ARGB
        {6, 1, ComponentType::UInt8, 4, true, Swizzle::BGRA, 4},            // D3DCOLOR
        {18, 1, ComponentType::UInt8, 4, true, Swizzle::Identity, 4},       // ABGR
        {7, 1, ComponentType::UInt8, 4, false, Swizzle::Identity, 4},       // UBYTE4
        {8, 1, ComponentType::Int2_10_10_10, 3, true, Swizzle::Identity, 4},  // DEC3N
        {9, 3, ComponentType::Fixed16_16, 3, false, Swizzle::Identity, 12},
        {11, 2, ComponentType::Int16, 2, false, Swizzle::Identity, 4},
        {12, 2, ComponentType::Int16, 2, true, Swizzle::Identity, 4},
        {13, 4, ComponentType::Int8, 4, false, Swizzle::Identity, 4},
        {14, 3, ComponentType::Int8, 3, true, Swizzle::Identity, 3},
        {15, 4, ComponentType::UInt8, 4, true, Swizzle::Identity, 4},
        {16, 2, ComponentType::UInt16, 2, true, Swizzle::Identity, 4},
        {3, 1, ComponentType::UInt16, 1, false, Swizzle::Identity, 2},
        {17, 1, ComponentType::UInt32, 1, false, Swizzle::Identity, 4},
        {2, 1, ComponentType::Int32, 1, false, Swizzle::Identity, 4},
        {19, 2, ComponentType::Float16, 2, false, Swizzle::Identity, 4},
        {10, 4, ComponentType::UInt8, 4, false, Swizzle::Identity, 4},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE("POD type " + std::to_string(c.podType));
        PodBytes b = file([&](PodBytes& m) {
            quadMesh(m, 2, {0, 1, 2, 2, 1, 3});
            m.dataList(pod::VertexColourList, c.podType, c.n, c.bytes, std::vector<uint8_t>(4 * c.bytes, 0x40));
        });
        LoadResult r = load(b, true);
        ASSERT_TRUE(r.scene) << allProblems(r);
        const VertexAttribute* colour = nullptr;
        for (const VertexStream& s : r.scene->meshes[0].streams)
            for (const VertexAttribute& a : s.attributes)
                if (a.semantic == Semantic::Color) colour = &a;
        ASSERT_NE(colour, nullptr);
        EXPECT_EQ(colour->type, c.type);
        EXPECT_EQ(colour->components, c.components);
        EXPECT_EQ(colour->normalized, c.normalized);
        EXPECT_EQ(colour->swizzle, c.swizzle);
    }
}

TEST(PodFixture, UnknownDataTypeAndTooManyComponentsFail) {
    for (auto [type, n] : {std::pair<uint32_t, uint32_t>{42, 3}, {1, 5}, {4, 2}}) {
        PodBytes b = file([&](PodBytes& m) {
            quadMesh(m, 2, {0, 1, 2, 2, 1, 3});
            m.dataList(pod::TangentList, type, n, 24, std::vector<uint8_t>(96, 0));
        });
        LoadResult r = load(b);
        EXPECT_FALSE(r.scene);
        ASSERT_FALSE(r.problems.empty());
        EXPECT_EQ(r.problems[0].where.rfind("scene / mesh 0 / tangent list", 0), 0u) << r.problems[0].where;
    }
}

// Interleaved: 3 vertices of stride 15 = uchar3 colour at 0, float3 position at 3 (unaligned).
PodBytes unalignedFile() {
    return file([](PodBytes& m) {
        std::vector<uint8_t> inter;
        for (int v = 0; v < 3; ++v) {
            inter.push_back(uint8_t(10 * v));
            inter.push_back(uint8_t(10 * v + 1));
            inter.push_back(uint8_t(10 * v + 2));
            for (float f : {float(v), float(v) + 0.5f, -float(v)}) {
                uint8_t bytes[4];
                std::memcpy(bytes, &f, 4);
                inter.insert(inter.end(), bytes, bytes + 4);
            }
        }
        m.u32(pod::NumVertices, 3).u32(pod::NumFaces, 1).u32(pod::NumUvwChannels, 0).u32(pod::NumStrips, 0);
        m.leaf(pod::InterleavedDataList, inter.data(), inter.size());
        m.dataList(pod::VertexIndexList, 3, 1, 2, PodBytes::shorts({0, 1, 2}));
        m.dataList(pod::VertexList, 1, 3, 15, PodBytes::words({3}));
        m.dataList(pod::VertexColourList, 10, 3, 15, PodBytes::words({0}));
    });
}

TEST(PodFixture, UnalignedInterleavedAttributesAreRepacked) {
    LoadResult r = load(unalignedFile(), true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    const Mesh& m = r.scene->meshes[0];
    ASSERT_EQ(m.streams.size(), 1u);
    const VertexStream& s = m.streams[0];
    EXPECT_EQ(s.stride, 16u);
    ASSERT_EQ(s.attributes.size(), 2u);
    const VertexAttribute& pos = s.attributes[0].semantic == Semantic::Position ? s.attributes[0] : s.attributes[1];
    const VertexAttribute& col = s.attributes[0].semantic == Semantic::Color ? s.attributes[0] : s.attributes[1];
    EXPECT_EQ(col.offset, 0u);
    EXPECT_EQ(pos.offset, 4u);
    float y;
    std::memcpy(&y, s.bytes.data + 2 * 16 + 4 + 4, 4);
    EXPECT_FLOAT_EQ(y, 2.5f);
    EXPECT_EQ(s.bytes.data[1 * 16 + 2], 12);
    EXPECT_TRUE(reportHas(*r.scene, "re-packed 3 vertices to stride 16"));
}

TEST(PodFixture, InterleavedAttributesAreViewsIntoTheFile) {
    PodBytes b = file([](PodBytes& m) {
        std::vector<uint8_t> inter = PodBytes::floats({0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1});
        m.u32(pod::NumVertices, 4).u32(pod::NumFaces, 2).u32(pod::NumUvwChannels, 1).u32(pod::NumStrips, 0);
        m.leaf(pod::InterleavedDataList, inter.data(), inter.size());
        m.dataList(pod::VertexIndexList, 3, 1, 2, PodBytes::shorts({0, 1, 2, 2, 1, 3}));
        m.dataList(pod::VertexList, 1, 2, 16, PodBytes::words({0}));
        m.dataList(pod::UvwList, 1, 2, 16, PodBytes::words({8}));
    });
    auto bytes = b.shared();
    LoadResult r = loadSceneMemory(bytes, "views.pod", {});
    ASSERT_TRUE(r.scene) << allProblems(r);
    const VertexStream& s = r.scene->meshes[0].streams.at(0);
    EXPECT_EQ(s.bytes.owner, bytes);
    EXPECT_GE(s.bytes.data, bytes->data());
    EXPECT_EQ(s.bytes.size, 64u);
    EXPECT_EQ(s.attributes.at(1).semantic, Semantic::TexCoord);
    EXPECT_EQ(s.attributes.at(1).offset, 8u);
}

TEST(PodFixture, IndexedAnimationUsesFloatOffsets) {
    // 3 frames; the position array holds 2 entries, indexed by float offsets 0, 3, 0.
    PodBytes b = file([](PodBytes& m) { quadMesh(m, 2, {0, 1, 2, 2, 1, 3}); },
                      [](PodBytes& n) {
                          n.u32(pod::AnimationFlags, pod::kHasPositionAnimation | pod::kHasRotationAnimation);
                          n.f32s(pod::AnimationPosition, {1, 2, 3, 4, 5, 6});
                          n.u32s(pod::AnimationPositionIndex, {0, 3, 0});
                          // Rotation about +Z by 90 degrees is stored as its conjugate (notes 4).
                          const float h = std::sqrt(0.5f);
                          n.f32s(pod::AnimationRotation, {0, 0, -h, h, 0, 0, -h, h, 0, 0, 0, 1});
                      },
                      {}, 3);
    LoadResult r = load(b, true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.animation.clips.size(), 1u);
    const Clip& clip = s.animation.clips[0];
    EXPECT_FLOAT_EQ(clip.duration(), 2.0f / 30.0f);
    ASSERT_EQ(clip.tracks.size(), 2u);
    const Track& pos = clip.tracks[0];
    EXPECT_EQ(pos.channel, Channel::Translation);
    EXPECT_EQ(pos.values, (std::vector<float>{1, 2, 3, 4, 5, 6, 1, 2, 3}));
    EXPECT_FLOAT_EQ(pos.times[2], 2.0f / 30.0f);
    const Track& rot = clip.tracks[1];
    EXPECT_EQ(rot.channel, Channel::Rotation);
    EXPECT_NEAR(rot.values[2], std::sqrt(0.5f), 1e-6f);
    EXPECT_NEAR(rot.values[3], std::sqrt(0.5f), 1e-6f);
    // Frame 0 rotates +X onto +Y.
    glm::vec3 x = s.nodes[0].local.rotation * glm::vec3(1, 0, 0);
    EXPECT_NEAR(x.y, 1.0f, 1e-5f);
}

TEST(PodFixture, IndexOutsideTheAnimationData) {
    PodBytes b = file([](PodBytes& m) { quadMesh(m, 2, {0, 1, 2, 2, 1, 3}); },
                      [](PodBytes& n) {
                          n.u32(pod::AnimationFlags, pod::kHasPositionAnimation);
                          n.f32s(pod::AnimationPosition, {1, 2, 3});
                          n.u32s(pod::AnimationPositionIndex, {0, 1});
                      },
                      {}, 2);
    LoadResult r = load(b, true);
    ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
    EXPECT_EQ(r.problems[0].where, "scene / node 0 / animation position index");
    EXPECT_NE(r.problems[0].message.find("offset 1 + 3 runs past the 3 animation values"), std::string::npos);
}

TEST(PodFixture, MatrixAnimationIsStepped) {
    PodBytes b = file([](PodBytes& m) { quadMesh(m, 2, {0, 1, 2, 2, 1, 3}); },
                      [](PodBytes& n) {
                          n.u32(pod::AnimationFlags, pod::kHasMatrixAnimation);
                          n.f32s(pod::AnimationMatrix, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1,
                                                        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 8, 9, 10, 1});
                      },
                      {}, 2);
    LoadResult r = load(b, true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    const Node& n = r.scene->nodes[0];
    EXPECT_TRUE(n.local.useMatrix);
    EXPECT_FLOAT_EQ(n.local.matrix[3][1], 6.0f);
    const Track& t = r.scene->animation.clips.at(0).tracks.at(0);
    EXPECT_EQ(t.channel, Channel::Matrix);
    EXPECT_EQ(t.interpolation, Interpolation::Step);
    EXPECT_EQ(t.values.size(), 32u);
}

// Node 0: mesh at x = 10; node 1: bone at y = 5. One batch of one bone.
PodBytes skinnedFile(int32_t boneNode, uint8_t lastVertexBone = 0) {
    return file(
        [boneNode, lastVertexBone](PodBytes& m) {
            quadMesh(m, 2, {0, 1, 2, 2, 1, 3});
            m.dataList(pod::BoneIndexList, 10, 1, 1, {0, 0, 0, lastVertexBone});
            m.dataList(pod::BoneWeightList, 1, 1, 4, PodBytes::floats({1, 1, 1, 1}));
            m.u32(pod::MaxNumBonesPerBatch, 2).u32(pod::NumBoneBatches, 1);
            m.u32s(pod::BoneBatchIndexList, {static_cast<uint32_t>(boneNode), 0});
            m.u32s(pod::NumBoneIndicesPerBatch, {1}).u32s(pod::BoneOffsetPerBatch, {0});
        },
        [](PodBytes& n) { n.f32s(pod::AnimationPosition, {10, 0, 0}); }, {}, 0, 1,
        [](PodBytes& n) { n.f32s(pod::AnimationPosition, {0, 5, 0}); });
}

TEST(PodFixture, SkinInverseBindFoldsInTheMeshNode) {
    LoadResult r = load(skinnedFile(1), true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    EXPECT_TRUE(r.problems.empty()) << allProblems(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.nodes[0].skin, 0);
    EXPECT_EQ(s.skins[0].joints, std::vector<int32_t>{1});
    EXPECT_EQ(s.nodes[1].kind, NodeKind::Bone);
    // inverse(BoneWorld(0)) * MeshNodeWorld(0) = translate(10, -5, 0).
    const glm::mat4& ib = s.skins[0].inverseBind[0];
    EXPECT_FLOAT_EQ(ib[3][0], 10.0f);
    EXPECT_FLOAT_EQ(ib[3][1], -5.0f);
    const Mesh& m = s.meshes[0];
    EXPECT_TRUE(m.boneIndicesBatchLocal);
    EXPECT_EQ(m.maxBonesPerBatch, 2u);
    ASSERT_EQ(m.boneBatches.size(), 1u);
    EXPECT_EQ(m.boneBatches[0].bones, std::vector<int32_t>{0});
    EXPECT_EQ(m.boneBatches[0].triangleCount, 2u);
}

TEST(PodFixture, BoneNodeOutOfRangeIsReportedAtItsValue) {
    PodBytes b = skinnedFile(57);
    // Find the bone batch list tag to know where the value lies.
    const std::vector<uint8_t>& bytes = b.bytes();
    size_t tagAt = 0;
    for (size_t i = 0; i + 8 <= bytes.size(); ++i) {
        uint32_t id;
        std::memcpy(&id, bytes.data() + i, 4);
        if (id == pod::BoneBatchIndexList) {
            tagAt = i;
            break;
        }
    }
    ASSERT_NE(tagAt, 0u);
    LoadResult r = load(b, true);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
    EXPECT_EQ(r.problems[0].offset, static_cast<int64_t>(tagAt + 8));
    EXPECT_EQ(r.problems[0].where, "scene / mesh 0 / bone batch list");
    EXPECT_EQ(r.problems[0].message, "node index 57 out of range (2 nodes)");
}

TEST(PodFixture, InstancedSkinsAreKeptInProportionToTheFile) {
    // 3000 mesh nodes instance one mesh whose batch uses 1000 bones: 3 million inverse bind
    // matrices (200 MB) from a file of a few hundred KB.
    const uint32_t bones = 1000, instances = 3000;
    PodBytes b;
    b.version().open(pod::Scene).counts(0, 0, 1, instances + bones, instances, 0, 0, 0);
    b.open(pod::MeshBlock);
    quadMesh(b, 2, {0, 1, 2, 2, 1, 3});
    b.dataList(pod::BoneIndexList, 10, 1, 1, {0, 0, 0, 0});
    b.u32(pod::MaxNumBonesPerBatch, bones).u32(pod::NumBoneBatches, 1);
    std::vector<uint32_t> list;
    for (uint32_t k = 0; k < bones; ++k) list.push_back(instances + k);
    b.u32s(pod::BoneBatchIndexList, list).u32s(pod::NumBoneIndicesPerBatch, {bones}).u32s(pod::BoneOffsetPerBatch, {0});
    b.close(pod::MeshBlock);
    for (uint32_t n = 0; n < instances + bones; ++n)
        b.open(pod::NodeBlock).i32(pod::NodeIndex, n < instances ? 0 : -1).i32(pod::NodeParentIndex, -1).close(pod::NodeBlock);
    b.close(pod::Scene);
    LoadResult r = load(b);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
    EXPECT_NE(r.problems[0].message.find("out of proportion to its size"), std::string::npos);
}

TEST(PodFixture, CheckModeChecksEveryVertexBoneIndex) {
    LoadResult r = load(skinnedFile(1, 1), true);  // vertex 3 names bone 1 of a one-bone batch
    ASSERT_EQ(r.problems.size(), 1u) << allProblems(r);
    EXPECT_EQ(r.problems[0].where, "scene / mesh 0 / bone index list");
    EXPECT_EQ(r.problems[0].message, "1 bone indices outside their batch (first: vertex 3 names bone 1 of batch 0, which has 1)");
    LoadResult loose = load(skinnedFile(1, 1));
    EXPECT_TRUE(loose.scene);  // a normal load does not loop over vertices
}

TEST(PodFixture, CheckModeListsEveryRepairableViolation) {
    PodBytes b = file([](PodBytes& m) { quadMesh(m, 2, {0, 1, 2, 2, 1, 3, 0, 0, 0}); },
                      [](PodBytes& n) { n.u32(pod::AnimationFlags, pod::kHasScaleAnimation); },
                      [](PodBytes& s) { s.u32(pod::Fps, 0); });
    // Material index 3 of 0 materials is patched in after the fact: rewrite the node's 5002 value.
    std::vector<uint8_t>& bytes = b.bytes();
    for (size_t i = 0; i + 12 <= bytes.size(); ++i) {
        uint32_t id;
        std::memcpy(&id, bytes.data() + i, 4);
        if (id == pod::NodeMaterialIndex) {
            bytes[i + 8] = 3;
            bytes[i + 9] = bytes[i + 10] = bytes[i + 11] = 0;
            break;
        }
    }
    LoadResult loose = load(b);
    ASSERT_TRUE(loose.scene) << allProblems(loose);
    EXPECT_TRUE(loose.problems.empty());
    EXPECT_FLOAT_EQ(loose.scene->animation.fps, 30.0f);
    EXPECT_EQ(loose.scene->nodes[0].materials, std::vector<int32_t>{-1});
    size_t warnings = 0;
    for (const ReportLine& l : loose.scene->report) warnings += l.severity == Severity::Warning;
    EXPECT_EQ(warnings, 4u);

    LoadResult strict = load(b, true);
    ASSERT_EQ(strict.problems.size(), 4u) << allProblems(strict);
    EXPECT_EQ(strict.problems[0].where, "scene / FPS");
    EXPECT_EQ(strict.problems[1].where, "scene / mesh 0 / index list / data");
    EXPECT_EQ(strict.problems[2].where, "scene / node 0 / material index");
    EXPECT_EQ(strict.problems[3].where, "scene / node 0 / animation flags");
    for (const Problem& p : strict.problems) EXPECT_GT(p.offset, 0);
}

TEST(PodFixture, TrailingBytesAfterTheSceneAreReported) {
    PodBytes b = quadFile();
    b.raw("junk", 4);
    LoadResult r = load(b);
    ASSERT_TRUE(r.scene) << allProblems(r);
    EXPECT_TRUE(reportHas(*r.scene, "4 bytes after the scene's end tag are ignored"));
}

TEST(PodFixture, CamerasLightsAndMaterials) {
    PodBytes b;
    b.version().open(pod::Scene).counts(1, 1, 0, 3, 0, 1, 1, 4).u32(pod::Fps, 24);
    b.open(pod::CameraBlock).i32(pod::CameraTargetIndex, 2).f32s(pod::FieldOfView, {0.5f}).f32s(pod::NearPlane, {0.25f});
    b.f32s(pod::FovAnimation, {0.5f, 0.6f, 0.7f, 0.8f}).close(pod::CameraBlock);
    b.open(pod::LightBlock).i32(pod::LightTargetIndex, -1).f32s(pod::LightColour, {1, 0.5f, 0.25f}).u32(pod::LightType, 1);
    b.close(pod::LightBlock);
    b.open(pod::TextureBlock).str(pod::TextureName, "wood.png").close(pod::TextureBlock);
    b.open(pod::MaterialBlock).str(pod::MaterialName, "glass").i32(pod::DiffuseTextureIndex, 0);
    b.u32(pod::BlendSrcRgb, 0x302).u32(pod::BlendDstRgb, 0x303).u32(pod::BlendSrcAlpha, 2).u32(pod::BlendOpRgb, 0x800B);
    b.f32s(pod::BlendFactorArray, {0.1f, 0.2f, 0.3f, 0.4f}).u32(pod::MaterialFlags, 1);
    b.f32s(pod::Metallicity, {0.75f}).f32s(pod::Roughness, {0.25f}).i32(pod::RoughnessTextureIndex, 0);
    b.close(pod::MaterialBlock);
    b.open(pod::NodeBlock).i32(pod::NodeIndex, 0).str(pod::NodeName, "sun").i32(pod::NodeParentIndex, -1).close(pod::NodeBlock);
    b.open(pod::NodeBlock).i32(pod::NodeIndex, 0).str(pod::NodeName, "eye").i32(pod::NodeParentIndex, -1).close(pod::NodeBlock);
    b.open(pod::NodeBlock).i32(pod::NodeIndex, -1).str(pod::NodeName, "target").i32(pod::NodeParentIndex, 1).close(pod::NodeBlock);
    b.close(pod::Scene);
    LoadResult r = load(b, true);
    ASSERT_TRUE(r.scene) << allProblems(r);
    EXPECT_TRUE(r.problems.empty()) << allProblems(r);
    const Scene& s = *r.scene;
    EXPECT_EQ(s.nodes[0].kind, NodeKind::Light);
    EXPECT_EQ(s.nodes[1].kind, NodeKind::Camera);
    EXPECT_EQ(s.nodes[2].kind, NodeKind::Empty);
    EXPECT_EQ(s.lights[0].type, LightType::Directional);
    EXPECT_EQ(s.lights[0].name, "sun");
    EXPECT_FLOAT_EQ(s.lights[0].color.g, 0.5f);
    EXPECT_EQ(s.cameras[0].targetNode, 2);
    EXPECT_FLOAT_EQ(s.cameras[0].nearZ, 0.25f);
    EXPECT_FLOAT_EQ(s.cameras[0].farZ, 5000.0f);  // SDK default when the block is absent
    EXPECT_FLOAT_EQ(s.animation.fps, 24.0f);
    const Track& fov = s.animation.clips.at(0).tracks.at(0);
    EXPECT_EQ(fov.channel, Channel::CameraFov);
    EXPECT_EQ(fov.node, 1);
    EXPECT_EQ(fov.values, (std::vector<float>{0.5f, 0.6f, 0.7f, 0.8f}));
    const Material& m = s.materials[0];
    EXPECT_EQ(m.name, "glass");
    EXPECT_EQ(m.texture(TextureSlot::Diffuse).texture, 0);
    EXPECT_EQ(m.texture(TextureSlot::Roughness).texture, 0);
    EXPECT_TRUE(m.blend.enabled);
    EXPECT_EQ(m.blend.srcRgb, BlendFactor::SrcAlpha);
    EXPECT_EQ(m.blend.dstRgb, BlendFactor::OneMinusSrcAlpha);
    EXPECT_EQ(m.blend.srcAlpha, BlendFactor::ConstantColor);  // POD BLEND_FACTOR
    EXPECT_EQ(m.blend.opRgb, BlendOp::ReverseSubtract);
    EXPECT_FLOAT_EQ(m.blend.constant.w, 0.4f);
    EXPECT_EQ(m.model, ShadingModel::MetalRough);
    EXPECT_FLOAT_EQ(m.metallic, 0.75f);
    EXPECT_EQ(s.textures[0].path, "wood.png");
}

}  // namespace
}  // namespace esv
