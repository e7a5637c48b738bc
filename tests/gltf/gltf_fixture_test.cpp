// The glTF reader on small documents built in code: what each maps to (nodes, strided and sparse
// accessors, every primitive mode, CUBICSPLINE keys against hand computation, materials) and one
// exact message per kind of error (the JSON pointer and the fact).
#include <cmath>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "gltf/gltf_fixtures.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

using test::Bin;
using test::loadText;
using test::problemText;
using test::withBuffer;

// One triangle: 3 float positions (36 bytes) and 3 uint16 indices (6 bytes), as two views.
Bin triangleBin() {
    Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 2, 0});
    b.put<uint16_t>({0, 1, 2});
    return b;
}

const char* kTriangle = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
 "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
              {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
 "meshes":[{"name":"tri","primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
 "nodes":[{"name":"n","mesh":0,"translation":[1,2,3]}],"scenes":[{"nodes":[0]}],"scene":0})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

Bounds restBounds(const Scene& scene) {
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    return sceneBounds(scene, pose);
}

TEST(GltfFixtures, TriangleMapsToOneNodeMeshAndTriangle) {
    const LoadResult r = loadText(withBuffer(kTriangle, triangleBin()));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Scene& s = *r.scene;
    EXPECT_EQ(s.format, "gltf");
    ASSERT_EQ(s.nodes.size(), 1u);
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.nodes[0].kind, NodeKind::Mesh);
    EXPECT_EQ(s.meshes[0].name, "tri");
    EXPECT_EQ(triangleCount(s.meshes[0]), 1u);
    EXPECT_EQ(s.meshes[0].indices.type, ComponentType::UInt16);
    const Bounds b = restBounds(s);
    EXPECT_EQ(b.min, glm::vec3(1, 2, 3));
    EXPECT_EQ(b.max, glm::vec3(2, 4, 3));
}

TEST(GltfFixtures, AccessorPastItsViewNamesCountStrideAndBytes) {
    const std::string json =
        replaced(kTriangle, R"("componentType":5126,"count":3)", R"("componentType":5126,"count":4)");
    const LoadResult r = loadText(withBuffer(json, triangleBin()));
    EXPECT_EQ(problemText(r),
              "fixture.gltf: /accessors/0: count 4 at stride 12 needs 48 bytes; bufferView 0 holds 36");
}

TEST(GltfFixtures, IndexPastTheVerticesIsNamed) {
    Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 2, 0});
    b.put<uint16_t>({0, 5, 2});
    const LoadResult r = loadText(withBuffer(kTriangle, b));
    EXPECT_EQ(problemText(r),
              "fixture.gltf: /meshes/0/primitives/0/indices: index 1 is 5, past the 3 vertices");
}

// Past kSharedScanBytes of indices the reader scans the index accessors ahead of the meshes, on two
// threads: the same primitives, and the same one line for an index past the vertices (here in the
// accessor that the first and the third mesh share, which lies in the second half of the bytes).
TEST(GltfFixtures, ManyIndicesAreScannedAheadWithTheSameMessages) {
    constexpr uint32_t kCount = 1200000;  // 4.8 MB of 32-bit indices per accessor, 9.6 MB in all
    auto file = [&](uint32_t badAt, uint32_t badValue) {
        std::vector<uint8_t> bin(36 + size_t(kCount) * 8, 0);
        const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 2, 0};
        std::memcpy(bin.data(), positions, 36);
        for (uint32_t i = 0; i < 2 * kCount; ++i) {
            const uint32_t v = i == kCount + badAt ? badValue : i % 3;
            std::memcpy(bin.data() + 36 + size_t(i) * 4, &v, 4);
        }
        const std::string json = R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":)" + std::to_string(bin.size()) +
                                 R"(}],"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":)" +
                                 std::to_string(size_t(kCount) * 4) + R"(},{"buffer":0,"byteOffset":)" +
                                 std::to_string(36 + size_t(kCount) * 4) + R"(,"byteLength":)" +
                                 std::to_string(size_t(kCount) * 4) +
                                 R"(}],"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
              {"bufferView":1,"componentType":5125,"count":)" + std::to_string(kCount) + R"(,"type":"SCALAR"},
              {"bufferView":2,"componentType":5125,"count":)" + std::to_string(kCount) + R"(,"type":"SCALAR"}],
 "meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":2}]},
           {"primitives":[{"attributes":{"POSITION":0},"indices":1}]},
           {"primitives":[{"attributes":{"POSITION":0},"indices":2}]}],
 "nodes":[{"mesh":0},{"mesh":1},{"mesh":2}],"scenes":[{"nodes":[0,1,2]}],"scene":0})";
        return test::glb(json, bin);
    };
    const LoadResult good = test::loadBytes(file(0, 1), "many.glb");
    ASSERT_TRUE(good.ok()) << problemText(good);
    ASSERT_EQ(good.scene->meshes.size(), 3u);
    for (const Mesh& m : good.scene->meshes) EXPECT_EQ(triangleCount(m), kCount / 3);
    const LoadResult bad = test::loadBytes(file(kCount - 7, 3), "many.glb");
    const std::string fact = "/primitives/0/indices: index " + std::to_string(kCount - 7) + " is 3, past the 3 vertices";
    EXPECT_EQ(problemText(bad), "many.glb: /meshes/0" + fact + "\nmany.glb: /meshes/2" + fact);
}

TEST(GltfFixtures, MissingAccessorIsNamed) {
    const std::string json = replaced(kTriangle, R"({"POSITION":0})", R"({"POSITION":7})");
    const LoadResult r = loadText(withBuffer(json, triangleBin()));
    EXPECT_EQ(problemText(r),
              "fixture.gltf: /meshes/0/primitives/0/attributes/POSITION: accessor 7 does not exist (the file "
              "has 2)");
}

TEST(GltfFixtures, BufferViewPastItsBufferIsNamed) {
    const std::string json =
        replaced(kTriangle, R"("byteOffset":36,"byteLength":6)", R"("byteOffset":36,"byteLength":60)");
    const LoadResult r = loadText(withBuffer(json, triangleBin()));
    EXPECT_EQ(problemText(r),
              "fixture.gltf: /bufferViews/1: byteOffset 36 + byteLength 60 exceeds buffer 0's 42 bytes");
}

TEST(GltfFixtures, BadComponentTypeAndTypeAreNamed) {
    std::string json = replaced(kTriangle, R"("componentType":5123)", R"("componentType":5124)");
    EXPECT_EQ(problemText(loadText(withBuffer(json, triangleBin()))),
              "fixture.gltf: /accessors/1/componentType: 5124 is not a glTF component type");
    json = replaced(kTriangle, R"("count":3,"type":"VEC3")", R"("count":3,"type":"VEC5")");
    EXPECT_EQ(problemText(loadText(withBuffer(json, triangleBin()))),
              "fixture.gltf: /accessors/0/type: 'VEC5' is not SCALAR, VEC2-4 or MAT2-4");
    json = replaced(kTriangle, R"("count":3,"type":"VEC3")", R"("count":3,"type":"VEC2")");
    EXPECT_EQ(problemText(loadText(withBuffer(json, triangleBin()))),
              "fixture.gltf: /meshes/0/primitives/0/attributes/POSITION: float32 VEC2 is not allowed");
}

TEST(GltfFixtures, UnknownRequiredExtensionRefusesTheFile) {
    const std::string json = replaced(
        kTriangle, R"("asset":{"version":"2.0"})",
        R"("asset":{"version":"2.0"},"extensionsUsed":["EXT_x","EXT_y"],"extensionsRequired":["EXT_x"])");
    const LoadResult r = loadText(withBuffer(json, triangleBin()));
    EXPECT_EQ(problemText(r),
              "fixture.gltf: /extensionsRequired/0: extension EXT_x is required and not supported");
    // Used but not required: read, with a line in the report.
    const std::string used = replaced(kTriangle, R"("asset":{"version":"2.0"})",
                                      R"("asset":{"version":"2.0"},"extensionsUsed":["EXT_y"])");
    const LoadResult ok = loadText(withBuffer(used, triangleBin()));
    ASSERT_TRUE(ok.ok()) << problemText(ok);
    bool said = false;
    for (const ReportLine& l : ok.scene->report)
        said |= l.text == "extension EXT_y is used and not supported: ignored";
    EXPECT_TRUE(said);
}

TEST(GltfFixtures, JsonSyntaxErrorNamesItsLine) {
    const LoadResult r = loadText("{\"asset\":{\"version\":\"2.0\"},\n\"nodes\":[}\n");
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_EQ(r.problems[0].line, 2);
    EXPECT_EQ(r.problems[0].where, "JSON");
    EXPECT_TRUE(loadText("\xEF\xBB\xBF  " + withBuffer(kTriangle, triangleBin())).ok()) << "a UTF-8 byte order mark";
    const LoadResult deep = loadText("{\"a\":" + std::string(200, '[') + std::string(200, ']') + "}");
    EXPECT_EQ(problemText(deep), "fixture.gltf: JSON: objects nest deeper than 64 levels");
}

TEST(GltfFixtures, BadDataUriIsNamed) {
    std::string json = withBuffer(kTriangle, triangleBin());
    json = replaced(json, "base64,", "base64,#");
    EXPECT_EQ(problemText(loadText(json)),
              "fixture.gltf: /buffers/0/uri: data URI: character 37 is not base64");
    const std::string shortBuffer =
        replaced(withBuffer(kTriangle, triangleBin()), "\"byteLength\":42", "\"byteLength\":50");
    EXPECT_EQ(problemText(loadText(shortBuffer)),
              "fixture.gltf: /buffers/0: byteLength 50 but the data URI holds 42 bytes");
    const std::string missing =
        replaced(withBuffer(kTriangle, triangleBin()), "\"uri\":\"data:", "\"uri\":\"nothere.bin\",\"x\":\"");
    const LoadResult r = loadText(missing);
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_EQ(r.problems[0].where, "/buffers/0/uri");
    EXPECT_EQ(r.problems[0].message.rfind("cannot read 'nothere.bin'", 0), 0u) << r.problems[0].message;
}

TEST(GltfFixtures, NodeHierarchyErrorsAreNamed) {
    std::string json = replaced(kTriangle, R"("nodes":[{"name":"n","mesh":0,"translation":[1,2,3]}])",
                                R"("nodes":[{"children":[1]},{"children":[0]}])");
    EXPECT_EQ(problemText(loadText(withBuffer(json, triangleBin()))),
              "fixture.gltf: /nodes/0: its parent chain loops");
    json = replaced(kTriangle, R"("nodes":[{"name":"n","mesh":0,"translation":[1,2,3]}])",
                    R"("nodes":[{"children":[3]}])");
    EXPECT_EQ(problemText(loadText(withBuffer(json, triangleBin()))),
              "fixture.gltf: /nodes/0/children/0: node 3 does not exist (the file has 1)");
}

// Positions and normals interleaved in one view of stride 24: one stream as stored, no copy.
TEST(GltfFixtures, StridedViewIsOneStreamAsStored) {
    Bin b;
    b.put<float>({0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1});
    const std::string json = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "bufferViews":[{"buffer":0,"byteLength":72,"byteStride":24}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                  {"bufferView":0,"byteOffset":12,"componentType":5126,"count":3,"type":"VEC3"}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1}}]}],
     "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
    const LoadResult r = loadText(withBuffer(json, b));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Mesh& m = r.scene->meshes[0];
    ASSERT_EQ(m.streams.size(), 1u);
    EXPECT_EQ(m.streams[0].stride, 24u);
    ASSERT_EQ(m.streams[0].attributes.size(), 2u);
    EXPECT_EQ(m.streams[0].attributes[1].semantic, Semantic::Normal);
    EXPECT_EQ(m.streams[0].attributes[1].offset, 12u);
    EXPECT_EQ(m.indices.count, 0u);
    EXPECT_EQ(triangleCount(m), 1u);
    const std::string bad = replaced(json, "\"byteStride\":24", "\"byteStride\":6");
    EXPECT_EQ(problemText(loadText(withBuffer(bad, b))),
              "fixture.gltf: /bufferViews/0/byteStride: 6 is not a multiple of 4 between 4 and 252");
}

// A sparse accessor without a view: zeros, with vertex 2 replaced.
TEST(GltfFixtures, SparseAccessorValuesAreApplied) {
    Bin b;
    b.put<uint16_t>({2, 0});
    b.put<float>({5, 6, 7});
    const std::string json = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "bufferViews":[{"buffer":0,"byteLength":2},{"buffer":0,"byteOffset":4,"byteLength":12}],
     "accessors":[{"componentType":5126,"count":3,"type":"VEC3",
                   "sparse":{"count":1,"indices":{"bufferView":0,"componentType":5123},"values":{"bufferView":1}}}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
     "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
    const LoadResult r = loadText(withBuffer(json, b));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Bounds bounds = restBounds(*r.scene);
    EXPECT_EQ(bounds.min, glm::vec3(0, 0, 0));
    EXPECT_EQ(bounds.max, glm::vec3(5, 6, 7));
    const std::string bad = replaced(json, R"("sparse":{"count":1)", R"("sparse":{"count":4)");
    EXPECT_EQ(problemText(loadText(withBuffer(bad, b))),
              "fixture.gltf: /accessors/0/sparse/count: 4 is not between 1 and the accessor's count 3");
}

// Zeros of an accessor without a view are allocated from a budget the file's size sets.
TEST(GltfFixtures, AbsurdCountsOfZerosAreRefused) {
    const std::string json = R"({"asset":{"version":"2.0"},
     "accessors":[{"componentType":5126,"count":10000000,"type":"VEC3"}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
    EXPECT_EQ(problemText(loadText(json)),
              "fixture.gltf: /accessors/0: needs 120000000 bytes, more than is left of the 67108864 bytes "
              "the reader "
              "makes from a file's counts (64 times its size, at least 64 MiB)");
    const std::string huge = replaced(json, "\"count\":10000000", "\"count\":4000000000");
    EXPECT_EQ(problemText(loadText(huge)),
              "fixture.gltf: /accessors/0: count 4000000000 of zeros exceeds the reader's cap");
}

// Every mode on 4 vertices, non-indexed: triangles after expansion, a loop as lines.
TEST(GltfFixtures, EveryPrimitiveMode) {
    Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0});
    const Primitive expected[] = {Primitive::Points,     Primitive::Lines,     Primitive::Lines,
                                  Primitive::LineStrip,  Primitive::Triangles, Primitive::TriangleStrip,
                                  Primitive::TriangleFan};
    const uint32_t triangles[] = {0, 0, 0, 0, 1, 2, 2};
    for (int mode = 0; mode <= 6; ++mode) {
        SCOPED_TRACE(mode);
        const uint32_t count = mode == 4 ? 3 : 4;
        const std::string json = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
         "bufferViews":[{"buffer":0,"byteLength":48}],
         "accessors":[{"bufferView":0,"componentType":5126,"count":)" +
                                 std::to_string(count) + R"(,"type":"VEC3"}],
         "meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":)" +
                                 std::to_string(mode) + R"(}]}],
         "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
        const LoadResult r = loadText(withBuffer(json, b));
        ASSERT_TRUE(r.ok()) << problemText(r);
        const Mesh& m = r.scene->meshes[0];
        EXPECT_EQ(m.submeshes[0].primitive, expected[mode]);
        EXPECT_EQ(triangleCount(m), triangles[mode]);
        if (mode == 2) {
            ASSERT_EQ(m.indices.count, 8u);  // 0-1 1-2 2-3 3-0
            EXPECT_EQ(m.indices.type, ComponentType::UInt32);
            uint32_t last[2];
            std::memcpy(last, m.indices.bytes.data + 24, 8);
            EXPECT_EQ(last[0], 3u);
            EXPECT_EQ(last[1], 0u);
        }
    }
}

// Two primitives with attributes of their own: two scene meshes, the second a part of the first.
TEST(GltfFixtures, PrimitivesWithTheirOwnAttributesAreParts) {
    Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    const std::string json = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "bufferViews":[{"buffer":0,"byteLength":36}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                  {"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
     "materials":[{"name":"a"},{"name":"b"}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":1},{"attributes":{"POSITION":1},"material":0}]}],
     "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
    const LoadResult r = loadText(withBuffer(json, b));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.meshes.size(), 2u);
    EXPECT_EQ(s.meshes[0].partOf, -1);
    EXPECT_EQ(s.meshes[1].partOf, 0);
    ASSERT_EQ(s.nodes.size(), 2u);
    EXPECT_TRUE(s.nodes[1].viewerAdded);
    EXPECT_EQ(s.nodes[1].parent, 0);
    EXPECT_EQ(s.nodes[0].materials, std::vector<int32_t>{1});
    EXPECT_EQ(s.nodes[1].materials, std::vector<int32_t>{0});
}

// CUBICSPLINE keys (in-tangent, value, out-tangent) at t = 0 and 2: the Hermite curve of glTF's
// appendix C, computed here by hand, is what the sampler gives.
TEST(GltfFixtures, CubicSplineMatchesHandComputation) {
    Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    b.put<float>({0, 2});
    // key 0: a0 (ignored), v0 = (0,0,0), b0 = (3,0,0); key 1: a1 = (0,-6,0), v1 = (4,2,0), b1 (ignored)
    b.put<float>({9, 9, 9, 0, 0, 0, 3, 0, 0, 0, -6, 0, 4, 2, 0, 9, 9, 9});
    const std::string json = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":8},
                    {"buffer":0,"byteOffset":44,"byteLength":72}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                  {"bufferView":1,"componentType":5126,"count":2,"type":"SCALAR"},
                  {"bufferView":2,"componentType":5126,"count":6,"type":"VEC3"}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
     "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],
     "animations":[{"name":"move","samplers":[{"input":1,"output":2,"interpolation":"CUBICSPLINE"}],
                    "channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}]})";
    const LoadResult r = loadText(withBuffer(json, b));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.animation.clips.size(), 1u);
    EXPECT_EQ(s.animation.clips[0].name, "move");
    EXPECT_FLOAT_EQ(s.animation.clips[0].duration(), 2.0f);
    for (float t : {0.0f, 0.5f, 1.0f, 1.5f, 2.0f}) {
        SCOPED_TRACE(t);
        const float td = 2.0f, u = t / td, u2 = u * u, u3 = u2 * u;
        const float h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
        const glm::vec3 v0(0), b0(3, 0, 0), v1(4, 2, 0), a1(0, -6, 0);
        const glm::vec3 expected = h00 * v0 + td * h10 * b0 + h01 * v1 + td * h11 * a1;
        Pose pose;
        evaluatePose(s, 0, t, pose);
        const glm::vec3 got(pose.world[0][3]);
        EXPECT_NEAR(got.x, expected.x, 1e-5f);
        EXPECT_NEAR(got.y, expected.y, 1e-5f);
        EXPECT_NEAR(got.z, expected.z, 1e-5f);
    }
    const std::string bad = replaced(json, R"("count":6,"type":"VEC3")", R"("count":4,"type":"VEC3")");
    EXPECT_EQ(problemText(loadText(withBuffer(bad, b))),
              "fixture.gltf: /animations/0/samplers/0/output: 4 elements for 2 keys (6 expected)");
}

TEST(GltfFixtures, MaterialMapsToMetalRough) {
    const std::string json = replaced(
        kTriangle, R"("meshes":[{"name":"tri","primitives":[{"attributes":{"POSITION":0},"indices":1}]}])",
        R"("materials":[{"name":"m","pbrMetallicRoughness":{"baseColorFactor":[0.5,0.25,1,0.5],"metallicFactor":0.2,
            "roughnessFactor":0.7,"metallicRoughnessTexture":{"index":0,"texCoord":1}},"alphaMode":"BLEND","doubleSided":true,
            "emissiveFactor":[1,0.5,0],"extensions":{"KHR_materials_emissive_strength":{"emissiveStrength":4},
            "KHR_materials_specular":{"specularFactor":0.3,"specularColorFactor":[1,0.5,0.25]}},
            "normalTexture":{"index":0,"scale":0.5,"extensions":{"KHR_texture_transform":{"offset":[0.5,0],"scale":[2,2]}}},
            "occlusionTexture":{"index":1,"strength":0.25}},
           {"name":"u","alphaMode":"MASK","extensions":{"KHR_materials_unlit":{}}}],
         "textures":[{"source":0,"sampler":0},{"source":0,"sampler":1}],
         "samplers":[{"wrapS":33071,"wrapT":33648,"magFilter":9728,"minFilter":9986},{"minFilter":9729}],
         "images":[{"uri":"my%20image.png"}],
         "meshes":[{"name":"tri","primitives":[{"attributes":{"POSITION":0},"indices":1,"material":0}]}])");
    const LoadResult r = loadText(withBuffer(json, triangleBin()));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.materials.size(), 2u);
    const Material& m = s.materials[0];
    EXPECT_EQ(m.model, ShadingModel::MetalRough);
    EXPECT_EQ(m.diffuse, glm::vec3(0.5f, 0.25f, 1.0f));
    EXPECT_FLOAT_EQ(m.opacity, 0.5f);
    EXPECT_FLOAT_EQ(m.metallic, 0.2f);
    EXPECT_FLOAT_EQ(m.roughness, 0.7f);
    EXPECT_TRUE(m.blend.enabled);
    EXPECT_TRUE(m.twoSided);
    EXPECT_EQ(m.emissive, glm::vec3(4, 2, 0));
    EXPECT_EQ(m.texture(TextureSlot::Metallic).texture, 0);
    EXPECT_EQ(m.texture(TextureSlot::Roughness).texture, 0);
    EXPECT_EQ(m.texture(TextureSlot::Metallic).uvSet, 1);
    EXPECT_EQ(m.texture(TextureSlot::Metallic).wrapS, Wrap::Clamp);
    EXPECT_EQ(m.texture(TextureSlot::Metallic).wrapT, Wrap::Mirror);
    // Sampler 0: NEAREST magnification, NEAREST_MIPMAP_LINEAR minification; sampler 1 has no
    // magFilter (esview's own choice) and LINEAR minification.
    EXPECT_EQ(m.texture(TextureSlot::Metallic).magFilter, TextureFilter::Nearest);
    EXPECT_EQ(m.texture(TextureSlot::Metallic).minFilter, TextureFilter::NearestMipmapLinear);
    EXPECT_EQ(m.texture(TextureSlot::Occlusion).magFilter, TextureFilter::Default);
    EXPECT_EQ(m.texture(TextureSlot::Occlusion).minFilter, TextureFilter::Linear);
    EXPECT_FLOAT_EQ(m.normalScale, 0.5f);
    EXPECT_FLOAT_EQ(m.occlusionStrength, 0.25f);
    EXPECT_FLOAT_EQ(m.specularFactor, 0.3f);
    EXPECT_EQ(m.specularColorFactor, glm::vec3(1.0f, 0.5f, 0.25f));
    EXPECT_EQ(s.materials[1].normalScale, 1.0f);
    EXPECT_EQ(s.materials[1].occlusionStrength, 1.0f);
    EXPECT_EQ(s.materials[1].specularFactor, 1.0f);
    EXPECT_EQ(s.materials[1].specularColorFactor, glm::vec3(1.0f));
    for (const ReportLine& l : s.report) EXPECT_EQ(l.text.find("not drawn"), std::string::npos) << l.text;
    const TextureRef& normal = m.texture(TextureSlot::Normal);
    ASSERT_GE(normal.uvTransform, 0);
    const glm::vec4 uv = s.uvTransforms[size_t(normal.uvTransform)].matrix() * glm::vec4(1, 1, 0, 1);
    EXPECT_NEAR(uv.x, 2.5f, 1e-6f);
    EXPECT_NEAR(uv.y, 2.0f, 1e-6f);
    EXPECT_EQ(s.materials[1].model, ShadingModel::Unlit);
    EXPECT_FLOAT_EQ(s.materials[1].alphaCutoff, 0.5f);
    ASSERT_EQ(s.textures.size(), 1u);
    EXPECT_EQ(s.textures[0].path, "my image.png");
}

// KHR_materials_specular's specularTexture and specularColorTexture are read like the other maps
// (texture, texCoord, sampler, KHR_texture_transform) into their own slots, with no line saying
// they are not drawn; a missing texture is one error naming its pointer.
TEST(GltfFixtures, SpecularMapsReadIntoTheirSlots) {
    const std::string json = replaced(
        kTriangle, R"("meshes":[{"name":"tri","primitives":[{"attributes":{"POSITION":0},"indices":1}]}])",
        R"("materials":[{"name":"m","pbrMetallicRoughness":{"metallicFactor":0},
            "extensions":{"KHR_materials_specular":{"specularFactor":0.5,
              "specularTexture":{"index":1,"texCoord":1,
                "extensions":{"KHR_texture_transform":{"offset":[0.25,0],"scale":[3,1]}}},
              "specularColorTexture":{"index":0}}}},
           {"name":"factors","extensions":{"KHR_materials_specular":{"specularFactor":0.25}}}],
         "textures":[{"source":1,"sampler":0},{"source":0}],
         "samplers":[{"wrapS":33071,"wrapT":33648}],
         "images":[{"uri":"strength.png"},{"uri":"tint.png"}],
         "meshes":[{"name":"tri","primitives":[{"attributes":{"POSITION":0},"indices":1,"material":0}]}])");
    const LoadResult r = loadText(withBuffer(json, triangleBin()));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.materials.size(), 2u);
    const Material& m = s.materials[0];
    EXPECT_FLOAT_EQ(m.specularFactor, 0.5f);
    const TextureRef& strength = m.texture(TextureSlot::SpecularStrength);
    const TextureRef& tint = m.texture(TextureSlot::SpecularTint);
    EXPECT_EQ(strength.texture, 0);  // texture 1 shows image 0
    EXPECT_EQ(strength.uvSet, 1);
    EXPECT_EQ(strength.wrapS, Wrap::Repeat);
    ASSERT_GE(strength.uvTransform, 0);
    const glm::vec4 uv = s.uvTransforms[size_t(strength.uvTransform)].matrix() * glm::vec4(1, 1, 0, 1);
    EXPECT_NEAR(uv.x, 3.25f, 1e-6f);
    EXPECT_NEAR(uv.y, 1.0f, 1e-6f);
    EXPECT_EQ(tint.texture, 1);
    EXPECT_EQ(tint.uvSet, 0);
    EXPECT_EQ(tint.wrapS, Wrap::Clamp);
    EXPECT_EQ(tint.wrapT, Wrap::Mirror);
    EXPECT_EQ(tint.uvTransform, -1);
    // Not the classic model's specular map, nor the metallic-roughness one.
    EXPECT_EQ(m.texture(TextureSlot::Specular).texture, -1);
    EXPECT_EQ(m.texture(TextureSlot::Metallic).texture, -1);
    EXPECT_EQ(std::string(textureSlotName(TextureSlot::SpecularStrength)), "specular_strength");
    EXPECT_EQ(std::string(textureSlotName(TextureSlot::SpecularTint)), "specular_tint");
    // The extension without maps leaves the slots empty.
    EXPECT_EQ(s.materials[1].texture(TextureSlot::SpecularStrength).texture, -1);
    EXPECT_EQ(s.materials[1].texture(TextureSlot::SpecularTint).texture, -1);
    for (const ReportLine& l : s.report) EXPECT_EQ(l.text.find("not drawn"), std::string::npos) << l.text;
    const std::string bad = replaced(json, R"("specularColorTexture":{"index":0})", R"("specularColorTexture":{"index":2})");
    EXPECT_EQ(problemText(loadText(withBuffer(bad, triangleBin()))),
              "fixture.gltf: /materials/0/extensions/KHR_materials_specular/specularColorTexture/index: texture 2 "
              "does not exist (the file has 2)");
}

// JOINTS_1 / WEIGHTS_1 beside set 0: each vertex keeps its four largest influences (a joint named
// in both sets counts once, its weights summed), renormalised, and one line says what was dropped.
TEST(GltfFixtures, SecondInfluenceSetKeepsTheFourLargest) {
    Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    b.put<uint16_t>({0, 1, 2, 0});
    b.put<uint8_t>({0, 1, 2, 3, 0, 0, 0, 0, 1, 2, 0, 0});  // JOINTS_0
    b.put<uint8_t>({4, 5, 6, 7, 0, 0, 0, 0, 1, 3, 4, 5});  // JOINTS_1
    b.put<float>({0.4f, 0.2f, 0.1f, 0.05f, 1, 0, 0, 0, 0.3f, 0.2f, 0, 0});           // WEIGHTS_0
    b.put<float>({0.15f, 0.05f, 0.03f, 0.02f, 0, 0, 0, 0, 0.2f, 0.1f, 0.1f, 0.1f});  // WEIGHTS_1
    const std::string json = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6},
                    {"buffer":0,"byteOffset":44,"byteLength":12},{"buffer":0,"byteOffset":56,"byteLength":12},
                    {"buffer":0,"byteOffset":68,"byteLength":48},{"buffer":0,"byteOffset":116,"byteLength":48}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                  {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"},
                  {"bufferView":2,"componentType":5121,"count":3,"type":"VEC4"},
                  {"bufferView":3,"componentType":5121,"count":3,"type":"VEC4"},
                  {"bufferView":4,"componentType":5126,"count":3,"type":"VEC4"},
                  {"bufferView":5,"componentType":5126,"count":3,"type":"VEC4"}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":2,"JOINTS_1":3,"WEIGHTS_0":4,"WEIGHTS_1":5},
                               "indices":1}]}],
     "skins":[{"joints":[1,2,3,4,5,6,7,8]}],
     "nodes":[{"mesh":0,"skin":0},{},{},{},{},{},{},{},{}],"scenes":[{"nodes":[0,1,2,3,4,5,6,7,8]}],"scene":0})";
    const LoadResult r = loadText(withBuffer(json, b));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Mesh& mesh = r.scene->meshes.at(0);
    const VertexStream* stream = nullptr;
    const VertexAttribute *joints = nullptr, *weights = nullptr;
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& a : s.attributes) {
            if (a.semantic == Semantic::BoneIndices) joints = &a, stream = &s;
            if (a.semantic == Semantic::BoneWeights) weights = &a;
            EXPECT_EQ(a.set, 0) << "one set of four in the scene";
        }
    ASSERT_TRUE(stream && joints && weights);
    ASSERT_EQ(joints->type, ComponentType::UInt16);
    ASSERT_EQ(weights->type, ComponentType::Float32);
    const uint16_t wantJoints[3][4] = {{0, 1, 4, 2}, {0, 0, 0, 0}, {1, 2, 3, 4}};
    const float wantWeights[3][4] = {{0.4f / 0.85f, 0.2f / 0.85f, 0.15f / 0.85f, 0.1f / 0.85f},
                                     {1, 0, 0, 0},
                                     {0.5f / 0.9f, 0.2f / 0.9f, 0.1f / 0.9f, 0.1f / 0.9f}};
    for (uint32_t v = 0; v < 3; ++v)
        for (int c = 0; c < 4; ++c) {
            uint16_t j = 0;
            float w = 0.0f;
            std::memcpy(&j, stream->bytes.data + v * stream->stride + joints->offset + 2 * c, 2);
            std::memcpy(&w, stream->bytes.data + v * stream->stride + weights->offset + 4 * c, 4);
            EXPECT_EQ(j, wantJoints[v][c]) << "vertex " << v << " influence " << c;
            EXPECT_NEAR(w, wantWeights[v][c], 1e-6f) << "vertex " << v << " influence " << c;
        }
    int said = 0;
    for (const ReportLine& l : r.scene->report)
        if (l.text.find("joint influence sets merged") != std::string::npos) {
            ++said;
            EXPECT_EQ(l.severity, Severity::Info);
            EXPECT_NE(l.text.find("2 of 3 vertices lost influence (largest weight dropped 0.1)"), std::string::npos)
                << l.text;
        }
    EXPECT_EQ(said, 1);
    // The CPU reference skins with the merged influences: the file's joints all sit at the origin
    // with identity inverse binds, so every vertex stays where it is.
    const Bounds bounds = restBounds(*r.scene);
    EXPECT_NEAR(bounds.max.x, 1.0f, 1e-5f);
    EXPECT_NEAR(bounds.max.y, 1.0f, 1e-5f);
    EXPECT_NEAR(bounds.min.x, 0.0f, 1e-5f);
}

TEST(GltfFixtures, CamerasAndLights) {
    const std::string json = replaced(
        kTriangle, R"("nodes":[{"name":"n","mesh":0,"translation":[1,2,3]}])",
        R"("cameras":[{"type":"perspective","perspective":{"yfov":0.5,"znear":0.1,"zfar":50,"aspectRatio":1.5}},
                      {"type":"orthographic","orthographic":{"xmag":2,"ymag":1,"znear":0,"zfar":10}}],
         "extensions":{"KHR_lights_punctual":{"lights":[{"type":"spot","range":5,"spot":{"innerConeAngle":0.1,"outerConeAngle":0.4}},
                                                        {"type":"directional","color":[1,0,0]}]}},
         "nodes":[{"mesh":0,"camera":0,"extensions":{"KHR_lights_punctual":{"light":1}}},{"camera":1},
                  {"extensions":{"KHR_lights_punctual":{"light":0}}}])");
    const std::string scenes =
        replaced(json, R"("scenes":[{"nodes":[0]}])", R"("scenes":[{"nodes":[0,1,2]}])");
    const LoadResult r = loadText(withBuffer(scenes, triangleBin()));
    ASSERT_TRUE(r.ok()) << problemText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.cameras.size(), 2u);
    EXPECT_FLOAT_EQ(s.cameras[0].yfov, 0.5f);
    EXPECT_FLOAT_EQ(s.cameras[0].aspect, 1.5f);
    EXPECT_TRUE(s.cameras[1].orthographic);
    EXPECT_FLOAT_EQ(s.cameras[1].orthoHeight, 2.0f);
    ASSERT_EQ(s.lights.size(), 2u);
    EXPECT_EQ(s.lights[0].type, LightType::Spot);
    EXPECT_FLOAT_EQ(s.lights[0].range, 5.0f);
    EXPECT_FLOAT_EQ(s.lights[0].outerCone, 0.4f);
    EXPECT_EQ(s.lights[1].type, LightType::Directional);
    // Node 0 holds a mesh, a camera and a light: the second and third go on nodes the reader adds.
    ASSERT_EQ(s.nodes.size(), 5u);
    size_t added = 0;
    for (const Node& n : s.nodes) added += n.viewerAdded;
    EXPECT_EQ(added, 2u);
}

TEST(GltfFixtures, OtherScenesAreHiddenAndNamed) {
    const std::string json = replaced(
        kTriangle,
        R"("nodes":[{"name":"n","mesh":0,"translation":[1,2,3]}],"scenes":[{"nodes":[0]}],"scene":0)",
        R"("nodes":[{"mesh":0},{"mesh":0,"translation":[10,0,0]}],"scenes":[{"nodes":[0]},{"name":"far","nodes":[1]}],"scene":0)");
    const LoadResult r = loadText(withBuffer(json, triangleBin()));
    ASSERT_TRUE(r.ok()) << problemText(r);
    EXPECT_TRUE(r.scene->nodes[0].visible);
    EXPECT_FALSE(r.scene->nodes[1].visible);
    EXPECT_EQ(restBounds(*r.scene).max.x, 1.0f);
    bool said = false;
    for (const ReportLine& l : r.scene->report)
        said |= l.text == "scene 1 'far' (1 root nodes) is not the default scene: its nodes are hidden";
    EXPECT_TRUE(said);
}

// The .glb container: its chunks read, their lengths checked with byte offsets.
TEST(GltfFixtures, GlbChunksAreChecked) {
    const Bin bin = triangleBin();
    const std::string json = replaced(kTriangle, "@BUFFER@", "{\"byteLength\":42}");
    std::vector<uint8_t> file = test::glb(json, bin.bytes);
    const LoadResult r = test::loadBytes(file, "fixture.glb");
    ASSERT_TRUE(r.ok()) << problemText(r);
    EXPECT_EQ(triangleCount(r.scene->meshes[0]), 1u);
    std::vector<uint8_t> longer = file;
    longer[8] += 4;
    EXPECT_EQ(problemText(test::loadBytes(longer, "fixture.glb")),
              "fixture.glb: offset 0x8: header: length " + std::to_string(file.size() + 4) +
                  " exceeds the file's " + std::to_string(file.size()) + " bytes");
    std::vector<uint8_t> chunk = file;
    chunk[13] += 1;  // the JSON chunk 256 bytes longer
    const LoadResult c = test::loadBytes(chunk, "fixture.glb");
    ASSERT_FALSE(c.problems.empty());
    EXPECT_EQ(c.problems[0].offset, 12);
    EXPECT_NE(c.problems[0].message.find("exceeds the"), std::string::npos) << c.problems[0].message;
    std::vector<uint8_t> version = file;
    version[4] = 1;
    EXPECT_EQ(problemText(test::loadBytes(version, "fixture.glb")),
              "fixture.glb: offset 0x4: header: GLB version 1 (only 2 is read)");
    const std::string tooLong = replaced(kTriangle, "@BUFFER@", "{\"byteLength\":48}");
    const std::vector<uint8_t> over = test::glb(tooLong, bin.bytes);
    const LoadResult o = test::loadBytes(over, "fixture.glb");
    ASSERT_EQ(o.problems.size(), 1u);
    EXPECT_EQ(o.problems[0].where, "/buffers/0");
    EXPECT_EQ(o.problems[0].message, "byteLength 48 exceeds the BIN chunk's 44 bytes");
}

// Every prefix of a .glb, and every byte of it flipped, loads or fails with problems: no crash.
TEST(GltfFixtures, TruncationAndCorruptionSweep) {
    const std::string json = replaced(kTriangle, "@BUFFER@", "{\"byteLength\":42}");
    const std::vector<uint8_t> file = test::glb(json, triangleBin().bytes);
    for (size_t n = 0; n < file.size(); ++n) {
        const LoadResult r =
            test::loadBytes(std::vector<uint8_t>(file.begin(), file.begin() + long(n)), "cut.glb");
        EXPECT_FALSE(r.ok()) << n;
        EXPECT_FALSE(r.problems.empty()) << n;
    }
    for (size_t at = 0; at < file.size(); ++at)
        for (uint8_t x : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xFF)}) {
            std::vector<uint8_t> bad = file;
            bad[at] ^= x;
            const LoadResult r = test::loadBytes(bad, "bad.glb");
            EXPECT_TRUE(r.scene != nullptr || !r.problems.empty()) << at;
        }
}

}  // namespace
}  // namespace esv
