// Vertex windows (scene/vertex_windows.h): meshes built by hand, split into small windows; every
// element the split mesh draws must name vertices holding the same bytes, in every stream, morph
// target and tangent frame, as the element the input drew, and every index must fit its window.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "scene/cpu_reference.h"
#include "scene/vertex_windows.h"

namespace esv {
namespace {

VertexAttribute attribute(Semantic semantic, ComponentType type, uint8_t components, bool normalized,
                          uint32_t offset) {
    VertexAttribute a;
    a.semantic = semantic;
    a.type = type;
    a.components = components;
    a.normalized = normalized;
    a.offset = offset;
    return a;
}

// A grid of (n+1)^2 vertices: positions and UVs in one interleaved stream, colours in a second.
Mesh gridMesh(uint32_t n, ComponentType indexType = ComponentType::UInt32) {
    Mesh mesh;
    mesh.name = "grid";
    const uint32_t side = n + 1;
    mesh.vertexCount = side * side;
    VertexStream interleaved;
    interleaved.stride = 20;
    interleaved.count = mesh.vertexCount;
    interleaved.attributes = {attribute(Semantic::Position, ComponentType::Float32, 3, false, 0),
                              attribute(Semantic::TexCoord, ComponentType::Float32, 2, false, 12)};
    VertexStream colors;
    colors.stride = 4;
    colors.count = mesh.vertexCount;
    colors.attributes = {attribute(Semantic::Color, ComponentType::UInt8, 4, true, 0)};
    std::vector<uint8_t> a(size_t(interleaved.stride) * mesh.vertexCount), c(size_t(4) * mesh.vertexCount);
    for (uint32_t y = 0; y < side; ++y)
        for (uint32_t x = 0; x < side; ++x) {
            const uint32_t v = y * side + x;
            const float f[5] = {float(x), float(y), 0.001f * float(v), float(x) / float(n),
                                float(y) / float(n)};
            std::memcpy(&a[size_t(v) * 20], f, 20);
            const uint8_t rgba[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), 255};
            std::memcpy(&c[size_t(v) * 4], rgba, 4);
        }
    interleaved.bytes = makeOwnedBytes(std::move(a));
    colors.bytes = makeOwnedBytes(std::move(c));
    mesh.streams = {interleaved, colors};
    std::vector<uint32_t> indices;
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) {
            const uint32_t v = y * side + x;
            indices.insert(indices.end(), {v, v + 1, v + side, v + 1, v + side + 1, v + side});
        }
    const size_t size = componentSize(indexType);
    std::vector<uint8_t> bytes(indices.size() * size);
    for (size_t i = 0; i < indices.size(); ++i) {
        if (size == 2) {
            const uint16_t s = uint16_t(indices[i]);
            std::memcpy(&bytes[i * 2], &s, 2);
        } else {
            std::memcpy(&bytes[i * 4], &indices[i], 4);
        }
    }
    mesh.indices.type = indexType;
    mesh.indices.count = uint32_t(indices.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(bytes));
    Submesh s;
    s.indexCount = uint32_t(indices.size());
    mesh.submeshes = {s};
    return mesh;
}

// The bytes of vertex `v` in every stream, morph target and tangent frame of `mesh`.
std::vector<uint8_t> vertexBytes(const Mesh& mesh, uint32_t v) {
    std::vector<uint8_t> out;
    auto add = [&](const VertexStream& s) {
        const uint8_t* p = s.bytes.data + size_t(v) * s.stride;
        out.insert(out.end(), p, p + s.stride);
    };
    for (const VertexStream& s : mesh.streams) add(s);
    for (const MorphTarget& m : mesh.morphTargets) add(m.stream);
    if (mesh.tangentFrames) {
        const uint8_t* p = reinterpret_cast<const uint8_t*>(&(*mesh.tangentFrames)[v]);
        out.insert(out.end(), p, p + sizeof(glm::vec4));
    }
    return out;
}

// Every triangle corner, line end and point of `split` holds the bytes of the same corner of
// `mesh`, and every stored index of `split` fits `window`.
void expectSameElements(const Mesh& mesh, const Mesh& split, uint32_t window) {
    for (auto expand : {&expandTriangles, &expandLines, &expandPoints}) {
        std::vector<uint32_t> before, after;
        expand(mesh, before, nullptr);
        expand(split, after, nullptr);
        ASSERT_EQ(before.size(), after.size());
        for (size_t i = 0; i < before.size(); ++i)
            ASSERT_EQ(vertexBytes(mesh, before[i]), vertexBytes(split, after[i])) << "corner " << i;
    }
    ASSERT_EQ(split.indices.type, ComponentType::UInt16);
    for (const Submesh& s : split.submeshes)
        for (uint32_t i = 0; i < s.indexCount; ++i) {
            uint16_t v;
            std::memcpy(&v, split.indices.bytes.data + size_t(s.firstIndex + i) * 2, 2);
            ASSERT_LT(v, window);
            ASSERT_LT(uint32_t(v) + s.baseVertex, split.vertexCount);
        }
}

TEST(VertexWindows, GridSplitsIntoWindowsThatEachFitAndDrawTheSameTriangles) {
    const Mesh mesh = gridMesh(40);  // 1,681 vertices, 3,200 triangles
    ASSERT_TRUE(needsVertexWindows(mesh, 300));
    ASSERT_FALSE(needsVertexWindows(mesh, 1681));
    EXPECT_EQ(largestDrawnIndex(mesh), 1680);
    const VertexWindowResult r = splitVertexWindows(mesh, 300);
    ASSERT_TRUE(r.ok) << r.error;
    expectSameElements(mesh, r.mesh, 300);
    EXPECT_GE(r.summary.windows, 6u);  // at least 1681 / 300
    EXPECT_EQ(r.summary.windows, r.mesh.submeshes.size());
    EXPECT_EQ(r.summary.verticesAfter, r.mesh.vertexCount);
    EXPECT_EQ(r.summary.verticesAfter, 1681u + r.summary.duplicatedVertices);
    EXPECT_GT(r.summary.duplicatedVertices, 0u);                       // rows on a window's edge are shared
    EXPECT_LT(r.summary.duplicatedVertices, 41u * r.summary.windows);  // about a row per window
    EXPECT_FALSE(needsVertexWindows(r.mesh, 65536));
    // Bases increase and each window holds at most 300 vertices.
    for (size_t i = 1; i < r.mesh.submeshes.size(); ++i) {
        EXPECT_GT(r.mesh.submeshes[i].baseVertex, r.mesh.submeshes[i - 1].baseVertex);
        EXPECT_LE(r.mesh.submeshes[i].baseVertex - r.mesh.submeshes[i - 1].baseVertex, 300u);
    }
    // The output's submeshes cover the triangles in order.
    uint32_t next = 0;
    for (const Submesh& s : r.mesh.submeshes) {
        EXPECT_EQ(s.firstIndex, next);
        next += s.indexCount;
    }
    EXPECT_EQ(next, 3200u * 3);
}

// Two submeshes of four vertices each in windows of four: the first fills its window exactly (one
// window, not two: a window closing a vertex early would split it), and the window closes at the
// second submesh's first triangle, whose submesh must then start at the new window's base (keeping
// the old base would draw the first window's vertices).
TEST(VertexWindows, AWindowFilledExactlyAndOneClosingAtASubmeshBoundary) {
    Mesh mesh = gridMesh(3);  // 16 vertices
    const std::vector<uint32_t> indices = {0, 1, 4, 1, 5, 4, 2, 3, 6, 3, 7, 6};
    std::vector<uint8_t> bytes(indices.size() * 4);
    std::memcpy(bytes.data(), indices.data(), bytes.size());
    mesh.indices.type = ComponentType::UInt32;
    mesh.indices.count = uint32_t(indices.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(bytes));
    Submesh first, second;
    first.indexCount = 6;
    second.firstIndex = 6;
    second.indexCount = 6;
    second.materialSlot = 1;
    mesh.submeshes = {first, second};
    const VertexWindowResult r = splitVertexWindows(mesh, 4);
    ASSERT_TRUE(r.ok) << r.error;
    expectSameElements(mesh, r.mesh, 4);
    EXPECT_EQ(r.summary.windows, 2u);
    ASSERT_EQ(r.mesh.submeshes.size(), 2u);
    EXPECT_EQ(r.mesh.submeshes[0].baseVertex, 0u);
    EXPECT_EQ(r.mesh.submeshes[0].indexCount, 6u);
    EXPECT_EQ(r.mesh.submeshes[1].baseVertex, 4u);
    EXPECT_EQ(r.mesh.submeshes[1].materialSlot, 1u);
    EXPECT_EQ(r.summary.verticesAfter, 8u);
    EXPECT_EQ(r.summary.duplicatedVertices, 0u);
}

TEST(VertexWindows, SixteenBitInputAndAWindowOfTheWholeMeshChangeNothingDrawn) {
    const Mesh mesh = gridMesh(10, ComponentType::UInt16);
    const VertexWindowResult r = splitVertexWindows(mesh, 65536);
    ASSERT_TRUE(r.ok) << r.error;
    expectSameElements(mesh, r.mesh, 65536);
    EXPECT_EQ(r.summary.windows, 1u);
    EXPECT_EQ(r.summary.duplicatedVertices, 0u);
    EXPECT_EQ(r.mesh.submeshes.size(), 1u);
    EXPECT_EQ(r.mesh.submeshes[0].baseVertex, 0u);
}

TEST(VertexWindows, MorphTargetsTangentsBatchesAndMaterialsFollowTheVertices) {
    Mesh mesh = gridMesh(20);
    MorphTarget morph;
    morph.name = "lift";
    morph.stream.stride = 12;
    morph.stream.count = mesh.vertexCount;
    morph.stream.attributes = {attribute(Semantic::Position, ComponentType::Float32, 3, false, 0)};
    std::vector<uint8_t> deltas(size_t(12) * mesh.vertexCount);
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
        const float d[3] = {0.0f, 0.0f, float(v)};
        std::memcpy(&deltas[size_t(v) * 12], d, 12);
    }
    morph.stream.bytes = makeOwnedBytes(std::move(deltas));
    mesh.morphTargets = {morph};
    mesh.defaultMorphWeights = {0.25f};
    auto frames = std::make_shared<std::vector<glm::vec4>>();
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) frames->push_back(glm::vec4(float(v), 1.0f, 0.0f, -1.0f));
    mesh.tangentFrames = frames;
    mesh.boneBatches = {{{0, 1}, 0, 300}, {{2, 3}, 300, 500}};
    // Two submeshes with two materials, the second wound clockwise.
    Submesh second = mesh.submeshes[0];
    mesh.submeshes[0].indexCount = 300 * 3;
    second.firstIndex = 300 * 3;
    second.indexCount = 500 * 3;
    second.materialSlot = 1;
    second.frontFaceCW = true;
    mesh.submeshes.push_back(second);
    const VertexWindowResult r = splitVertexWindows(mesh, 128);
    ASSERT_TRUE(r.ok) << r.error;
    expectSameElements(mesh, r.mesh, 128);
    ASSERT_EQ(r.mesh.boneBatches.size(), 2u);
    EXPECT_EQ(r.mesh.boneBatches[1].firstTriangle, 300u);
    EXPECT_EQ(r.mesh.boneBatches[1].triangleCount, 500u);
    EXPECT_EQ(r.mesh.defaultMorphWeights, mesh.defaultMorphWeights);
    // Every output submesh keeps its input's material and winding; the first 300 triangles are
    // material 0.
    uint32_t triangles = 0;
    for (const Submesh& s : r.mesh.submeshes) {
        const bool first = triangles < 300;
        EXPECT_EQ(s.materialSlot, first ? 0u : 1u);
        EXPECT_EQ(s.frontFaceCW, !first);
        triangles += s.indexCount / 3;
        EXPECT_TRUE(triangles <= 300 || !first) << "a range crosses the submesh boundary";
    }
    EXPECT_EQ(triangles, 800u);
}

TEST(VertexWindows, StripsFansQuadsLinesAndPointsAreExpandedIntoLists) {
    Mesh mesh = gridMesh(12);  // 169 vertices; its index list is reused for other primitives
    const uint32_t count = mesh.submeshes[0].indexCount;
    Submesh strip, fan, quads, lines, strip2, points;
    strip.primitive = Primitive::TriangleStrip;
    strip.firstIndex = 0;
    strip.indexCount = 90;
    strip.stripLengths = {40, 46};  // runs of 42 and 48 indices
    fan.primitive = Primitive::TriangleFan;
    fan.firstIndex = 90;
    fan.indexCount = 60;
    quads.primitive = Primitive::Quads;
    quads.firstIndex = 150;
    quads.indexCount = 200;
    lines.primitive = Primitive::Lines;
    lines.firstIndex = 350;
    lines.indexCount = 100;
    strip2.primitive = Primitive::LineStrip;
    strip2.firstIndex = 450;
    strip2.indexCount = 80;
    points.primitive = Primitive::Points;
    points.firstIndex = 530;
    points.indexCount = count - 530;
    mesh.submeshes = {strip, fan, quads, lines, strip2, points};
    const VertexWindowResult r = splitVertexWindows(mesh, 40);
    ASSERT_TRUE(r.ok) << r.error;
    expectSameElements(mesh, r.mesh, 40);
    for (const Submesh& s : r.mesh.submeshes)
        EXPECT_TRUE(s.primitive == Primitive::Triangles || s.primitive == Primitive::Lines ||
                    s.primitive == Primitive::Points);
}

TEST(VertexWindows, RefusesWhatItCannotSplit) {
    const Mesh mesh = gridMesh(4);
    for (uint32_t bad : {0u, 2u, 65537u}) {
        const VertexWindowResult r = splitVertexWindows(mesh, bad);
        EXPECT_FALSE(r.ok) << bad;
        EXPECT_EQ(r.error, "mesh 'grid': a window must hold 3 to 65536 vertices");
    }
    Mesh outside = mesh;
    outside.vertexCount = 20;  // the grid draws vertex 24
    outside.streams[0].count = outside.streams[1].count = 20;
    VertexWindowResult r = splitVertexWindows(outside, 16);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "mesh 'grid': an index (20) names no vertex (20)");
    EXPECT_TRUE(r.mesh.submeshes.empty());
    Mesh shortStream = mesh;
    shortStream.streams[1].count = 3;
    r = splitVertexWindows(shortStream, 16);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "mesh 'grid': a vertex stream holds fewer vertices than the mesh");
}

TEST(VertexWindows, BaseVertexIsAddedByEveryExpansion) {
    Mesh mesh = gridMesh(2, ComponentType::UInt16);  // 9 vertices, 8 triangles
    mesh.submeshes[0].baseVertex = 5;
    std::vector<uint32_t> triangles;
    expandTriangles(mesh, triangles);
    ASSERT_EQ(triangles.size(), 24u);
    EXPECT_EQ(triangles[0], 5u);  // index 0
    EXPECT_EQ(triangles[2], 8u);  // index 3
    EXPECT_EQ(largestDrawnIndex(mesh), 13);
    EXPECT_TRUE(needsVertexWindows(mesh, 13));
}

}  // namespace
}  // namespace esv
