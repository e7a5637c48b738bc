// Tangent frames: computed from UVs (direction of +U, handedness from +V), taken from the file
// (handedness from its binormals), and carried to world space by worldVertices.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/tangents.h"

namespace {

struct Vertex {
    float position[3];
    float normal[3];
    float uv[2];
    float tangent[3];
    float binormal[3];
};

// A quad in the XY plane facing +Z; u grows along +X, v grows downwards (along -Y) as image rows do.
esv::Mesh quad(bool withFileTangents, float binormalSign = 1.0f) {
    const Vertex vertices[4] = {{{-1, -1, 0}, {0, 0, 1}, {0, 1}, {1, 0, 0}, {0, binormalSign, 0}},
                                {{1, -1, 0}, {0, 0, 1}, {1, 1}, {1, 0, 0}, {0, binormalSign, 0}},
                                {{1, 1, 0}, {0, 0, 1}, {1, 0}, {1, 0, 0}, {0, binormalSign, 0}},
                                {{-1, 1, 0}, {0, 0, 1}, {0, 0}, {1, 0, 0}, {0, binormalSign, 0}}};
    std::vector<uint8_t> bytes(sizeof vertices);
    std::memcpy(bytes.data(), vertices, sizeof vertices);
    esv::Mesh mesh;
    mesh.vertexCount = 4;
    esv::VertexStream s;
    s.bytes = esv::makeOwnedBytes(std::move(bytes));
    s.stride = sizeof(Vertex);
    s.count = 4;
    s.attributes = {
        {esv::Semantic::Position, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 0},
        {esv::Semantic::Normal, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 12},
        {esv::Semantic::TexCoord, 0, esv::ComponentType::Float32, 2, false, esv::Swizzle::Identity, 24}};
    if (withFileTangents) {
        s.attributes.push_back(
            {esv::Semantic::Tangent, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 32});
        s.attributes.push_back(
            {esv::Semantic::Binormal, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 44});
    }
    mesh.streams.push_back(s);
    const uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
    std::vector<uint8_t> ib(sizeof indices);
    std::memcpy(ib.data(), indices, sizeof indices);
    mesh.indices.count = 6;
    mesh.indices.bytes = esv::makeOwnedBytes(std::move(ib));
    esv::Submesh sub;
    sub.indexCount = 6;
    mesh.submeshes.push_back(sub);
    return mesh;
}

TEST(Tangents, ComputedFromUvsPointAlongUWithHandednessFromV) {
    std::vector<glm::vec4> t;
    std::string source;
    ASSERT_TRUE(esv::computeTangents(quad(false), t, &source));
    EXPECT_EQ(source, "computed from UV set 0");
    ASSERT_EQ(t.size(), 4u);
    for (const glm::vec4& v : t) {
        EXPECT_NEAR(v.x, 1.0f, 1e-6f);
        EXPECT_NEAR(v.y, 0.0f, 1e-6f);
        EXPECT_NEAR(v.z, 0.0f, 1e-6f);
        // cross(n, t) = +Y but +V runs along -Y: a left-handed frame.
        EXPECT_EQ(v.w, -1.0f);
    }
}

TEST(Tangents, FileTangentsTakeHandednessFromBinormals) {
    for (float sign : {1.0f, -1.0f}) {
        std::vector<glm::vec4> t;
        std::string source;
        ASSERT_TRUE(esv::computeTangents(quad(true, sign), t, &source));
        EXPECT_EQ(source, "the file's tangents, handedness from its binormals");
        for (const glm::vec4& v : t) EXPECT_EQ(v.w, sign);
    }
}

TEST(Tangents, MissingUvsOrNormalsGiveNone) {
    esv::Mesh mesh = quad(false);
    mesh.streams[0].attributes.pop_back();  // no UVs
    std::vector<glm::vec4> t;
    EXPECT_FALSE(esv::computeTangents(mesh, t));
    EXPECT_TRUE(t.empty());
}

TEST(Tangents, WorldVerticesRotateTangentsWithTheNode) {
    esv::Scene scene;
    scene.meshes.push_back(quad(false));
    esv::Node node;
    node.kind = esv::NodeKind::Mesh;
    node.object = 0;
    node.local.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
    scene.nodes.push_back(node);
    esv::Pose pose;
    esv::evaluatePose(scene, -1, 0.0f, pose);
    std::vector<glm::vec3> positions, normals, tangents;
    esv::worldVertices(scene, pose, 0, positions, &normals, &tangents);
    ASSERT_EQ(tangents.size(), 4u);
    for (const glm::vec3& t : tangents) {
        // +X rotated 90 degrees about +Z is +Y.
        EXPECT_NEAR(t.x, 0.0f, 1e-6f);
        EXPECT_NEAR(t.y, 1.0f, 1e-6f);
    }
    esv::worldVertices(scene, pose, 0, positions, &normals, nullptr);
    EXPECT_EQ(positions.size(), 4u);
}

}  // namespace
