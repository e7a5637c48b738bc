// KHR_draco_mesh_compression: a quad encoded here by the Draco library's own encoder, put in a .glb
// by hand, read back through the reader's Draco path (positions and texture coordinates, faces);
// and a corrupt Draco blob refused with one line.
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <draco/compression/encode.h>
#include <draco/mesh/triangle_soup_mesh_builder.h>
#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "gltf/gltf_fixtures.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

// Two triangles of a 2 x 3 quad at z = 1, with texture coordinates; the encoded bytes and the
// unique ids of the two attributes.
std::vector<uint8_t> encodedQuad(uint32_t& positionId, uint32_t& uvId) {
    draco::TriangleSoupMeshBuilder builder;
    builder.Start(2);
    const int pos = builder.AddAttribute(draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32);
    const int uv = builder.AddAttribute(draco::GeometryAttribute::TEX_COORD, 2, draco::DT_FLOAT32);
    const float p[4][3] = {{0, 0, 1}, {2, 0, 1}, {2, 3, 1}, {0, 3, 1}};
    const float t[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    builder.SetAttributeValuesForFace(pos, draco::FaceIndex(0), p[0], p[1], p[2]);
    builder.SetAttributeValuesForFace(pos, draco::FaceIndex(1), p[0], p[2], p[3]);
    builder.SetAttributeValuesForFace(uv, draco::FaceIndex(0), t[0], t[1], t[2]);
    builder.SetAttributeValuesForFace(uv, draco::FaceIndex(1), t[0], t[2], t[3]);
    std::unique_ptr<draco::Mesh> mesh = builder.Finalize();
    positionId = mesh->attribute(pos)->unique_id();
    uvId = mesh->attribute(uv)->unique_id();
    draco::Encoder encoder;
    draco::EncoderBuffer out;
    EXPECT_TRUE(encoder.EncodeMeshToBuffer(*mesh, &out).ok());
    return std::vector<uint8_t>(out.data(), out.data() + out.size());
}

std::string quadJson(size_t bytes, uint32_t positionId, uint32_t uvId, size_t points) {
    const std::string n = std::to_string(points);
    return R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_draco_mesh_compression"],
     "extensionsRequired":["KHR_draco_mesh_compression"],"buffers":[{"byteLength":)" +
           std::to_string(bytes) + R"(}],
     "bufferViews":[{"buffer":0,"byteLength":)" +
           std::to_string(bytes) + R"(}],
     "accessors":[{"componentType":5126,"count":)" +
           n + R"(,"type":"VEC3"},
                  {"componentType":5126,"count":)" +
           n + R"(,"type":"VEC2"},
                  {"componentType":5123,"count":6,"type":"SCALAR"}],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"indices":2,
       "extensions":{"KHR_draco_mesh_compression":{"bufferView":0,"attributes":{"POSITION":)" +
           std::to_string(positionId) + R"(,"TEXCOORD_0":)" + std::to_string(uvId) + R"(}}}}]}],
     "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
}

TEST(GltfDraco, QuadDecodesToItsTrianglesAndBounds) {
    uint32_t positionId = 0, uvId = 0;
    const std::vector<uint8_t> blob = encodedQuad(positionId, uvId);
    ASSERT_FALSE(blob.empty());
    LoadResult r;
    std::vector<uint8_t> file;
    for (size_t points : {4u, 6u}) {  // the encoder may or may not merge the shared corners
        file = test::glb(quadJson(blob.size(), positionId, uvId, points), blob);
        r = test::loadBytes(file, "draco.glb");
        if (r.ok()) break;
    }
    ASSERT_TRUE(r.ok()) << test::problemText(r);
    // Kept for the fuzz target's seeds (fuzz/corpus/gltf holds a copy).
    std::ofstream(test::outputDir() / "gltf_draco_quad.glb", std::ios::binary)
        .write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
    const Mesh& m = r.scene->meshes[0];
    EXPECT_EQ(triangleCount(m), 2u);
    ASSERT_EQ(m.streams.size(), 2u);
    EXPECT_EQ(m.streams[1].attributes[0].semantic, Semantic::TexCoord);
    Pose pose;
    evaluatePose(*r.scene, -1, 0.0f, pose);
    const Bounds b = sceneBounds(*r.scene, pose);
    EXPECT_EQ(b.min, glm::vec3(0, 0, 1));
    EXPECT_EQ(b.max, glm::vec3(2, 3, 1));
}

TEST(GltfDraco, CorruptDataIsRefused) {
    uint32_t positionId = 0, uvId = 0;
    std::vector<uint8_t> blob = encodedQuad(positionId, uvId);
    for (size_t i = 8; i < blob.size(); ++i) blob[i] = 0xFF;
    const LoadResult r =
        test::loadBytes(test::glb(quadJson(blob.size(), positionId, uvId, 4), blob), "draco.glb");
    ASSERT_FALSE(r.problems.empty());
    EXPECT_EQ(r.problems[0].where, "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression");
    EXPECT_EQ(r.problems[0].message.rfind("the Draco data does not decode", 0), 0u) << r.problems[0].message;
}

}  // namespace
}  // namespace esv
