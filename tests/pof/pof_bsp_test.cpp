// POF BSP decoding (loaders/pof/pof_bsp.cpp): hand-built op blobs for every op and every problem,
// the mesh built from them, and the BSP data of every staged POF file.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "loaders/pof/pof_bsp.h"

namespace fs = std::filesystem;
using esv::pof::BspData;
using esv::pof::BspProblem;
using esv::pof::buildBspMesh;
using esv::pof::decodeBsp;

namespace {

constexpr uint64_t kFileOffset = 0x1000;  // where the blobs pretend to sit in a file

struct Corner {
    uint32_t vertex, normal;
    float u = 0.0f, v = 0.0f;
};

// Writes BSP ops as the notes lay them out. Every op* call returns the op's position; sizes are
// written by end() unless a test overrides them with setI32().
class BspBuilder {
public:
    std::vector<uint8_t> bytes;

    size_t pos() const { return bytes.size(); }
    void i32(int32_t v) { raw(&v, 4); }
    void u32(uint32_t v) { raw(&v, 4); }
    void u16(uint16_t v) { raw(&v, 2); }
    void f32(float v) { raw(&v, 4); }
    void vec(glm::vec3 v) {
        f32(v.x);
        f32(v.y);
        f32(v.z);
    }
    void setI32(size_t at, int32_t v) { std::memcpy(bytes.data() + at, &v, 4); }
    int32_t getI32(size_t at) const {
        int32_t v;
        std::memcpy(&v, bytes.data() + at, 4);
        return v;
    }

    size_t begin(int32_t id) {
        const size_t at = pos();
        i32(id);
        i32(0);
        return at;
    }
    void end(size_t at) { setI32(at + 4, static_cast<int32_t>(pos() - at)); }

    // Vertex i has normals[i].size() normals; the data starts right after the counts (unaligned
    // unless the vertex count is a multiple of 4).
    size_t defPoints(const std::vector<glm::vec3>& positions,
                     const std::vector<std::vector<glm::vec3>>& normals, int32_t nNormsOverride = -1) {
        const size_t at = begin(1);
        int32_t total = 0;
        for (const auto& n : normals) total += static_cast<int32_t>(n.size());
        i32(static_cast<int32_t>(positions.size()));
        i32(nNormsOverride >= 0 ? nNormsOverride : total);
        i32(static_cast<int32_t>(20 + positions.size()));
        for (const auto& n : normals) bytes.push_back(static_cast<uint8_t>(n.size()));
        for (size_t i = 0; i < positions.size(); ++i) {
            vec(positions[i]);
            for (const glm::vec3& n : normals[i]) vec(n);
        }
        end(at);
        return at;
    }
    size_t flatPoly(glm::vec3 normal, uint8_t r, uint8_t g, uint8_t b, const std::vector<Corner>& corners) {
        const size_t at = begin(2);
        vec(normal);
        vec(glm::vec3(0.0f));
        f32(1.0f);
        i32(static_cast<int32_t>(corners.size()));
        bytes.insert(bytes.end(), {r, g, b, 0});
        for (const Corner& c : corners) {
            u16(static_cast<uint16_t>(c.vertex));
            u16(static_cast<uint16_t>(c.normal));
        }
        end(at);
        return at;
    }
    size_t tmapPoly(glm::vec3 normal, int32_t texture, const std::vector<Corner>& corners) {
        const size_t at = begin(3);
        vec(normal);
        vec(glm::vec3(0.0f));
        f32(1.0f);
        i32(static_cast<int32_t>(corners.size()));
        i32(texture);
        for (const Corner& c : corners) {
            u16(static_cast<uint16_t>(c.vertex));
            u16(static_cast<uint16_t>(c.normal));
            f32(c.u);
            f32(c.v);
        }
        end(at);
        return at;
    }
    size_t tmap2Poly(glm::vec3 normal, int32_t texture, const std::vector<Corner>& corners) {
        const size_t at = begin(6);
        vec(glm::vec3(-1.0f));
        vec(glm::vec3(1.0f));
        vec(normal);
        i32(texture);
        u32(static_cast<uint32_t>(corners.size()));
        for (const Corner& c : corners) {
            u32(c.vertex);
            u32(c.normal);
            f32(c.u);
            f32(c.v);
        }
        end(at);
        return at;
    }
    // Child offsets are set later with setChild (0 = none).
    size_t sortNorm() {
        const size_t at = begin(4);
        vec(glm::vec3(1.0f, 0.0f, 0.0f));
        vec(glm::vec3(0.0f));
        i32(0);
        for (int i = 0; i < 5; ++i) i32(0);
        vec(glm::vec3(-1.0f));
        vec(glm::vec3(1.0f));
        end(at);
        return at;
    }
    enum Child { Front = 36, Back = 40, Prelist = 44, Postlist = 48, Online = 52 };
    void setChild(size_t sortNormAt, Child field, size_t target) {
        setI32(sortNormAt + field, static_cast<int32_t>(int64_t(target) - int64_t(sortNormAt)));
    }
    size_t boundBox() {
        const size_t at = begin(5);
        vec(glm::vec3(-1.0f));
        vec(glm::vec3(1.0f));
        end(at);
        return at;
    }
    size_t eof() { return begin(0); }  // size field 0, as every staged file has it
    // The header only; the caller writes the children and then calls endSortNorm2.
    size_t sortNorm2() {
        const size_t at = begin(7);
        i32(0);
        i32(0);
        vec(glm::vec3(-1.0f));
        vec(glm::vec3(1.0f));
        return at;
    }
    void setSortNorm2Child(size_t at, bool front, size_t target) {
        setI32(at + (front ? 8 : 12), static_cast<int32_t>(target - at));
    }

private:
    void raw(const void* p, size_t n) {
        const uint8_t* b = static_cast<const uint8_t*>(p);
        bytes.insert(bytes.end(), b, b + n);
    }
};

struct Decoded {
    bool ok = false;
    BspData data;
    std::vector<BspProblem> problems;
};

Decoded decode(const std::vector<uint8_t>& bytes, int32_t version = 2117) {
    Decoded d;
    d.ok = decodeBsp(bytes.data(), bytes.size(), kFileOffset, version, d.data, d.problems);
    return d;
}

std::string describe(const std::vector<BspProblem>& problems) {
    std::string s;
    for (const BspProblem& p : problems)
        s += (p.error ? "error @" : "violation @") + std::to_string(p.offset) + ": " + p.message + "\n";
    return s;
}

// A blob with the one error at `at` whose message is `message`: asserts both.
void expectError(const std::vector<uint8_t>& bytes, size_t at, const std::string& message,
                 int32_t version = 2117) {
    Decoded d = decode(bytes, version);
    EXPECT_FALSE(d.ok);
    ASSERT_FALSE(d.problems.empty());
    const BspProblem& last = d.problems.back();
    EXPECT_TRUE(last.error) << describe(d.problems);
    EXPECT_EQ(last.offset, kFileOffset + at) << describe(d.problems);
    EXPECT_EQ(last.message, message);
}

std::vector<uint32_t> indicesOf(const esv::Mesh& mesh) {
    std::vector<uint32_t> out;
    const bool narrow = mesh.indices.type == esv::ComponentType::UInt16;
    for (uint32_t i = 0; i < mesh.indices.count; ++i) {
        if (narrow) {
            uint16_t v;
            std::memcpy(&v, mesh.indices.bytes.data + 2 * size_t(i), 2);
            out.push_back(v);
        } else {
            uint32_t v;
            std::memcpy(&v, mesh.indices.bytes.data + 4 * size_t(i), 4);
            out.push_back(v);
        }
    }
    return out;
}

// Reads attribute `semantic` of vertex `index` (Float32 components) from the mesh's streams.
glm::vec3 attribute(const esv::Mesh& mesh, esv::Semantic semantic, uint32_t index) {
    for (const esv::VertexStream& s : mesh.streams)
        for (const esv::VertexAttribute& a : s.attributes)
            if (a.semantic == semantic) {
                float v[3] = {0.0f, 0.0f, 0.0f};
                std::memcpy(v, s.bytes.data + size_t(index) * s.stride + a.offset, 4 * size_t(a.components));
                return glm::vec3(v[0], v[1], v[2]);
            }
    ADD_FAILURE() << "no attribute";
    return glm::vec3(0.0f);
}

// Four corners of a unit square in the z = 2 plane, each with one +z normal... except where a
// test says otherwise.
const std::vector<glm::vec3> kSquare = {{0, 0, 2}, {1, 0, 2}, {1, 1, 2}, {0, 1, 2}};
const std::vector<std::vector<glm::vec3>> kOneNormalEach = {
    {{0, 0, 1}}, {{0, 0, 1}}, {{0, 0, 1}}, {{0, 0, 1}}};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Ops and mesh building

TEST(PofBsp, DefPointsWithSeveralNormalsPerVertex) {
    BspBuilder b;
    // 3 vertices: data offset 23 (unaligned). Vertex 1 carries two normals, so the global list is
    // v0:n0, v1:n1, v1:n2, v2:n3.
    b.defPoints({{1, 2, 3}, {4, 5, 6}, {-7, 8, 9}}, {{{0, 0, 1}}, {{1, 0, 0}, {0, 2, 0}}, {{0, 0, -1}}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0, 0.0f, 0.0f}, {1, 2, 1.0f, 0.0f}, {2, 3, 0.0f, 1.0f}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0, 0.0f, 0.0f}, {1, 1, 1.0f, 0.0f}, {2, 3, 0.0f, 1.0f}});
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    EXPECT_TRUE(d.problems.empty()) << describe(d.problems);
    ASSERT_EQ(d.data.positions.size(), 3u);
    ASSERT_EQ(d.data.normals.size(), 4u);
    EXPECT_EQ(d.data.positions[2], glm::vec3(-7, 8, 9));
    EXPECT_EQ(d.data.normals[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(d.data.normals[2], glm::vec3(0, 2, 0));
    EXPECT_EQ(d.data.normals[3], glm::vec3(0, 0, -1));
    EXPECT_EQ(d.data.boundsMin, glm::vec3(-7, 2, 3));
    EXPECT_EQ(d.data.boundsMax, glm::vec3(4, 8, 9));
    ASSERT_EQ(d.data.polygons.size(), 2u);
    EXPECT_EQ(d.data.polygons[1].offset, kFileOffset + b.getI32(4) + 80);
    EXPECT_EQ(d.data.corners[1].normal, 2u);

    // Vertex 1 appears with two different normals: two GPU vertices. The stored (0, 2, 0) comes
    // out normalised; z of positions and normals is negated.
    esv::Mesh mesh = buildBspMesh(d.data, {}, "sub");
    EXPECT_EQ(mesh.name, "sub");
    ASSERT_EQ(mesh.vertexCount, 4u);
    EXPECT_EQ(indicesOf(mesh), (std::vector<uint32_t>{0, 2, 1, 0, 2, 3}));
    EXPECT_EQ(attribute(mesh, esv::Semantic::Position, 1), glm::vec3(4, 5, -6));
    EXPECT_EQ(attribute(mesh, esv::Semantic::Normal, 1), glm::vec3(0, 1, 0));
    EXPECT_EQ(attribute(mesh, esv::Semantic::Position, 3), glm::vec3(4, 5, -6));
    EXPECT_EQ(attribute(mesh, esv::Semantic::Normal, 3), glm::vec3(1, 0, 0));
    EXPECT_EQ(attribute(mesh, esv::Semantic::Normal, 2), glm::vec3(0, 0, 1));  // (0,0,-1) flipped
}

TEST(PofBsp, DefPointsNormalCountMismatchIsAViolation) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach, 5);
    Decoded d = decode(b.bytes);
    EXPECT_TRUE(d.ok);
    ASSERT_EQ(d.problems.size(), 1u);
    EXPECT_FALSE(d.problems[0].error);
    EXPECT_EQ(d.problems[0].offset, kFileOffset);
    EXPECT_EQ(d.problems[0].message,
              "DEFPOINTS says 5 normals but its counts add up to 4; the counts are used");
    EXPECT_EQ(d.data.normals.size(), 4u);
}

TEST(PofBsp, QuadIsFanSplitWithZFlippedAndWindingReversed) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    b.tmapPoly({0, 0, 1}, 0,
               {{0, 0, 0.0f, 0.25f}, {1, 1, 1.0f, 0.0f}, {2, 2, 1.0f, 1.0f}, {3, 3, 0.0f, 1.0f}});
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    ASSERT_EQ(d.data.polygons.size(), 1u);
    EXPECT_EQ(d.data.polygons[0].cornerCount, 4u);
    EXPECT_EQ(d.data.texturedPolygons, 1u);
    esv::Mesh mesh = buildBspMesh(d.data, {}, "quad");
    ASSERT_EQ(mesh.vertexCount, 4u);
    ASSERT_EQ(mesh.submeshes.size(), 1u);
    EXPECT_EQ(mesh.submeshes[0].primitive, esv::Primitive::Triangles);
    EXPECT_EQ(mesh.submeshes[0].indexCount, 6u);
    EXPECT_EQ(mesh.indices.type, esv::ComponentType::UInt16);
    // Fan (0,1,2), (0,2,3), each reversed.
    EXPECT_EQ(indicesOf(mesh), (std::vector<uint32_t>{0, 2, 1, 0, 3, 2}));
    EXPECT_EQ(attribute(mesh, esv::Semantic::Position, 2), glm::vec3(1, 1, -2));
    EXPECT_EQ(attribute(mesh, esv::Semantic::Normal, 0), glm::vec3(0, 0, -1));
    const glm::vec3 uv0 = attribute(mesh, esv::Semantic::TexCoord, 0);
    EXPECT_EQ(uv0.x, 0.0f);
    EXPECT_EQ(uv0.y, 0.25f);  // D3D-style v kept as stored

    // The stored winding, read in file axes, has its normal along +z; in viewer axes the
    // reversed triangle's counter-clockwise normal is (0, 0, -1), the flipped plane normal.
    const std::vector<uint32_t> idx = indicesOf(mesh);
    const glm::vec3 p0 = attribute(mesh, esv::Semantic::Position, idx[0]);
    const glm::vec3 p1 = attribute(mesh, esv::Semantic::Position, idx[1]);
    const glm::vec3 p2 = attribute(mesh, esv::Semantic::Position, idx[2]);
    const glm::vec3 n = glm::cross(p1 - p0, p2 - p0);
    EXPECT_GT(glm::dot(n, glm::vec3(0, 0, -1)), 0.0f);
}

TEST(PofBsp, HexagonFanSplit) {
    BspBuilder b;
    std::vector<glm::vec3> ring;
    std::vector<std::vector<glm::vec3>> normals;
    std::vector<Corner> corners;
    for (uint32_t i = 0; i < 6; ++i) {
        ring.push_back({float(i), float(i * i), 0.0f});
        normals.push_back({{0, 0, 1}});
        corners.push_back({i, i, float(i), 0.0f});
    }
    b.defPoints(ring, normals);
    b.tmapPoly({0, 0, 1}, 0, corners);
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    esv::Mesh mesh = buildBspMesh(d.data, {}, "hex");
    EXPECT_EQ(indicesOf(mesh), (std::vector<uint32_t>{0, 2, 1, 0, 3, 2, 0, 4, 3, 0, 5, 4}));
}

TEST(PofBsp, CornersAreDeduplicatedByVertexNormalAndUv) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    // Two triangles sharing the edge 0-2 with the same UVs, then one more reusing vertex 1 with
    // another UV: 4 + 1 GPU vertices.
    b.tmapPoly({0, 0, 1}, 0, {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 1}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0, 0, 0}, {2, 2, 1, 1}, {3, 3, 0, 1}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0, 0, 0}, {1, 1, 0.5f, 0}, {2, 2, 1, 1}});
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    esv::Mesh mesh = buildBspMesh(d.data, {}, "dedup");
    EXPECT_EQ(mesh.vertexCount, 5u);
    EXPECT_EQ(indicesOf(mesh), (std::vector<uint32_t>{0, 2, 1, 0, 3, 2, 0, 2, 4}));
    ASSERT_EQ(mesh.streams.size(), 1u);
    EXPECT_EQ(mesh.streams[0].count, 5u);
    EXPECT_EQ(mesh.streams[0].stride, 32u);
    EXPECT_EQ(mesh.streams[0].bytes.size, 5u * 32u);
}

TEST(PofBsp, FlatPolyIsCountedButNotDrawn) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t flat = b.flatPoly({0, 0, 1}, 200, 100, 50, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}});
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    EXPECT_EQ(d.data.flatPolygons, 1u);
    EXPECT_EQ(d.data.texturedPolygons, 1u);
    ASSERT_EQ(d.data.polygons.size(), 2u);
    const esv::pof::BspPolygon& p = d.data.polygons[0];
    EXPECT_TRUE(p.flat);
    EXPECT_EQ(p.texture, -1);
    EXPECT_EQ(p.cornerCount, 4u);
    EXPECT_EQ(p.color[0], 200);
    EXPECT_EQ(p.color[1], 100);
    EXPECT_EQ(p.color[2], 50);
    EXPECT_EQ(p.offset, kFileOffset + flat);
    esv::Mesh mesh = buildBspMesh(d.data, {}, "flat");
    EXPECT_EQ(mesh.vertexCount, 3u);
    EXPECT_EQ(mesh.indices.count, 3u);

    // Only FLATPOLY: nothing to draw.
    BspBuilder onlyFlat;
    onlyFlat.defPoints(kSquare, kOneNormalEach);
    onlyFlat.flatPoly({0, 0, 1}, 1, 2, 3, {{0, 0}, {1, 1}, {2, 2}});
    Decoded f = decode(onlyFlat.bytes);
    ASSERT_TRUE(f.ok);
    esv::Mesh empty = buildBspMesh(f.data, {}, "none");
    EXPECT_EQ(empty.vertexCount, 0u);
    EXPECT_TRUE(empty.submeshes.empty());
    EXPECT_EQ(empty.indices.count, 0u);
}

TEST(PofBsp, TrianglesAreGroupedByTextureInIncreasingOrder) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    b.tmapPoly({0, 0, 1}, 2, {{0, 0}, {1, 1}, {2, 2}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {2, 2}, {3, 3}});
    b.tmapPoly({0, 0, 1}, 2, {{1, 1}, {2, 2}, {3, 3}, {0, 0}});
    b.tmapPoly({0, 0, 1}, 1, {{3, 3}, {1, 1}, {0, 0}});
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    // Texture 0 -> slot 5, 1 -> slot 6; 2 is not in the mapping -> slot 0.
    esv::Mesh mesh = buildBspMesh(d.data, {5, 6}, "tex");
    ASSERT_EQ(mesh.submeshes.size(), 3u);
    EXPECT_EQ(mesh.submeshes[0].materialSlot, 5u);
    EXPECT_EQ(mesh.submeshes[0].firstIndex, 0u);
    EXPECT_EQ(mesh.submeshes[0].indexCount, 3u);
    EXPECT_EQ(mesh.submeshes[1].materialSlot, 6u);
    EXPECT_EQ(mesh.submeshes[1].firstIndex, 3u);
    EXPECT_EQ(mesh.submeshes[1].indexCount, 3u);
    EXPECT_EQ(mesh.submeshes[2].materialSlot, 0u);
    EXPECT_EQ(mesh.submeshes[2].firstIndex, 6u);
    EXPECT_EQ(mesh.submeshes[2].indexCount, 9u);
    EXPECT_EQ(mesh.indices.count, 15u);
    for (const esv::Submesh& s : mesh.submeshes) EXPECT_EQ(s.primitive, esv::Primitive::Triangles);
    // Vertices are numbered in the order polygons meet them (texture 2's triangle first).
    EXPECT_EQ(indicesOf(mesh), (std::vector<uint32_t>{0, 3, 2,  // texture 0: corners 0, 2, 3
                                                      3, 0, 1,  // texture 1: corners 3, 1, 0
                                                      0, 2, 1, 1, 3, 2, 1, 0, 3}));
}

TEST(PofBsp, ZeroAndBrokenNormalsFallBackToThePlaneNormal) {
    BspBuilder b;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    b.defPoints(kSquare, {{{0, 0, 0}}, {{nan, 0, 0}}, {{3, 0, 4}}, {{0, 0, 1}}});
    b.tmapPoly({0, 2, 0}, 0, {{0, 0}, {1, 1}, {2, 2}});
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    esv::Mesh mesh = buildBspMesh(d.data, {}, "n");
    ASSERT_EQ(mesh.vertexCount, 3u);
    EXPECT_EQ(attribute(mesh, esv::Semantic::Normal, 0), glm::vec3(0, 1, 0));  // plane normal, normalised
    EXPECT_EQ(attribute(mesh, esv::Semantic::Normal, 1), glm::vec3(0, 1, 0));
    const glm::vec3 n2 = attribute(mesh, esv::Semantic::Normal, 2);
    EXPECT_FLOAT_EQ(n2.x, 0.6f);
    EXPECT_FLOAT_EQ(n2.y, 0.0f);
    EXPECT_FLOAT_EQ(n2.z, -0.8f);
}

TEST(PofBsp, SortNormTreeAsFs2Writes) {
    // DEFPOINTS, SORTNORM, then the lists: prelist (empty: EOF), front (BOUNDBOX, TMAPPOLY, EOF),
    // back (BOUNDBOX, FLATPOLY, TMAPPOLY, EOF), online and postlist sharing one EOF.
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t sn = b.sortNorm();
    const size_t pre = b.eof();
    const size_t front = b.boundBox();
    b.tmapPoly({0, 0, 1}, 1, {{0, 0}, {1, 1}, {2, 2}});
    b.eof();
    const size_t back = b.boundBox();
    b.flatPoly({0, 0, 1}, 9, 9, 9, {{0, 0}, {2, 2}, {3, 3}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {2, 2}, {3, 3}});
    b.eof();
    const size_t shared = b.eof();
    b.setChild(sn, BspBuilder::Prelist, pre);
    b.setChild(sn, BspBuilder::Front, front);
    b.setChild(sn, BspBuilder::Back, back);
    b.setChild(sn, BspBuilder::Online, shared);
    b.setChild(sn, BspBuilder::Postlist, shared);
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    EXPECT_TRUE(d.problems.empty()) << describe(d.problems);
    EXPECT_EQ(d.data.sortNodes, 1u);
    EXPECT_EQ(d.data.texturedPolygons, 2u);
    EXPECT_EQ(d.data.flatPolygons, 1u);
    ASSERT_EQ(d.data.polygons.size(), 3u);
    EXPECT_EQ(d.data.polygons[0].texture, 1);
    EXPECT_EQ(d.data.polygons[2].texture, 0);
    esv::Mesh mesh = buildBspMesh(d.data, {}, "tree");
    EXPECT_EQ(mesh.indices.count, 6u);
    EXPECT_EQ(mesh.submeshes.size(), 2u);

    // Decoding again into the same BspData starts from scratch.
    std::vector<BspProblem> again;
    ASSERT_TRUE(decodeBsp(b.bytes.data(), b.bytes.size(), 0, 2117, d.data, again));
    EXPECT_EQ(d.data.polygons.size(), 3u);
    EXPECT_EQ(d.data.positions.size(), 4u);
    EXPECT_EQ(d.data.sortNodes, 1u);
}

// A 2301-style tree: DEFPOINTS, SORTNORM2 with its front TMAP2POLY right after the header and a
// second SORTNORM2 as its back, with two TMAP2POLY leaves.
static std::vector<uint8_t> sortNorm2Blob(std::vector<size_t>* positions = nullptr) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t root = b.sortNorm2();
    const size_t front = b.tmap2Poly({0, 0, 1}, 3, {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 1}});
    const size_t inner = b.sortNorm2();
    const size_t a = b.tmap2Poly({0, 0, 1}, 0, {{0, 0, 0, 0}, {2, 2, 1, 1}, {3, 3, 0, 1}});
    const size_t c = b.tmap2Poly({0, 0, 1}, 0, {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 1}, {3, 3, 0, 1}});
    b.setSortNorm2Child(root, true, front);
    b.setSortNorm2Child(root, false, inner);
    b.setSortNorm2Child(inner, true, a);
    b.setSortNorm2Child(inner, false, c);
    b.end(inner);
    b.end(root);
    if (positions) *positions = {root, front, inner, a, c};
    return b.bytes;
}

TEST(PofBsp, SortNorm2AndTmap2PolyFromVersion2300) {
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = sortNorm2Blob(&at);
    Decoded d = decode(bytes, 2301);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    EXPECT_TRUE(d.problems.empty()) << describe(d.problems);
    EXPECT_EQ(d.data.sortNodes, 2u);
    EXPECT_EQ(d.data.texturedPolygons, 3u);
    ASSERT_EQ(d.data.polygons.size(), 3u);
    EXPECT_EQ(d.data.polygons[0].offset, kFileOffset + at[1]);
    EXPECT_EQ(d.data.polygons[0].texture, 3);
    EXPECT_EQ(d.data.polygons[2].cornerCount, 4u);
    EXPECT_EQ(d.data.polygons[1].normal, glm::vec3(0, 0, 1));
    esv::Mesh mesh = buildBspMesh(d.data, {7, 7, 7, 2}, "v2301");
    ASSERT_EQ(mesh.submeshes.size(), 2u);
    EXPECT_EQ(mesh.submeshes[0].indexCount, 9u);  // texture 0: a triangle and a quad
    EXPECT_EQ(mesh.submeshes[0].materialSlot, 7u);
    EXPECT_EQ(mesh.submeshes[1].indexCount, 3u);
    EXPECT_EQ(mesh.submeshes[1].materialSlot, 2u);
    EXPECT_EQ(mesh.vertexCount, 4u);

    // The same ops in a 2117 file: the first of them is an error naming op and version.
    expectError(bytes, at[0], "SORTNORM2 (op 7) needs POF version 2300 or later; this file is version 2117",
                2117);
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t t2 = b.tmap2Poly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}});
    expectError(b.bytes, t2, "TMAP2POLY (op 6) needs POF version 2300 or later; this file is version 2299",
                2299);
    EXPECT_TRUE(decode(b.bytes, 2300).ok);
}

TEST(PofBsp, ThirtyTwoBitIndicesAboveSixtyFiveThousandVertices) {
    BspBuilder b;
    const uint32_t n = 65537 + 2;
    std::vector<glm::vec3> points(n);
    std::vector<std::vector<glm::vec3>> normals(n, {{0, 0, 1}});
    std::vector<Corner> corners(n);
    for (uint32_t i = 0; i < n; ++i) {
        points[i] = {float(i), float(i % 7), 0.0f};
        corners[i] = {i, i, 0.0f, 0.0f};
    }
    b.defPoints(points, normals);
    b.tmap2Poly({0, 0, 1}, 0, corners);
    Decoded d = decode(b.bytes, 2301);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    esv::Mesh mesh = buildBspMesh(d.data, {}, "big");
    EXPECT_EQ(mesh.vertexCount, n);
    EXPECT_EQ(mesh.indices.type, esv::ComponentType::UInt32);
    EXPECT_EQ(mesh.indices.count, 3u * (n - 2));
    const std::vector<uint32_t> idx = indicesOf(mesh);
    EXPECT_EQ(idx[idx.size() - 3], 0u);
    EXPECT_EQ(idx[idx.size() - 2], n - 1);
    EXPECT_EQ(idx[idx.size() - 1], n - 2);
}

// ---------------------------------------------------------------------------------------------
// Problems

TEST(PofBspProblems, TruncatedHeaderSizeZeroAndPastTheEnd) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t tail = b.pos();
    std::vector<uint8_t> bytes = b.bytes;
    bytes.insert(bytes.end(), {3, 0, 0, 0, 1});
    expectError(bytes, tail,
                "truncated op header: 5 bytes left at the end of the " + std::to_string(bytes.size()) +
                    "-byte BSP data");

    BspBuilder z;
    z.defPoints(kSquare, kOneNormalEach);
    const size_t t = z.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}});
    z.setI32(t + 4, 0);
    expectError(z.bytes, t, "TMAPPOLY size 0 is not positive (the op cannot be skipped)");
    z.setI32(t + 4, -8);
    expectError(z.bytes, t, "TMAPPOLY size -8 is not positive (the op cannot be skipped)");
    z.setI32(t + 4, 100);
    expectError(z.bytes, t,
                "TMAPPOLY size 100 runs past the end of the " + std::to_string(z.bytes.size()) +
                    "-byte BSP data (80 bytes left)");

    BspBuilder u;
    u.defPoints(kSquare, kOneNormalEach);
    const size_t bad = u.begin(9);
    u.end(bad);
    expectError(u.bytes, bad, "unknown BSP op id 9");
}

TEST(PofBspProblems, SizesThatDoNotMatchTheLayouts) {
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t f = b.flatPoly({0, 0, 1}, 0, 0, 0, {{0, 0}, {1, 1}, {2, 2}});
        b.setI32(f + 36, 4);  // 4 corners claimed, 3 stored
        expectError(b.bytes, f, "FLATPOLY size 56 does not match 44 + 4 x 4 corners");
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t t = b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}});
        b.setI32(t + 36, -1);
        expectError(b.bytes, t, "TMAPPOLY size 80 does not match 44 + 12 x -1 corners");
        b.setI32(t + 36, 0x7fffffff);
        expectError(b.bytes, t, "TMAPPOLY size 80 does not match 44 + 12 x 2147483647 corners");
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t t = b.tmap2Poly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}});
        b.setI32(t + 48, 2);
        expectError(b.bytes, t, "TMAP2POLY size 100 does not match 52 + 16 x 2 corners", 2301);
        b.setI32(t + 4, 40);  // shorter than the fixed part
        b.bytes.resize(t + 40);
        expectError(b.bytes, t, "TMAP2POLY size 40 is smaller than its 52-byte header", 2301);
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t s = b.sortNorm();
        b.setI32(s + 4, 76);
        b.bytes.resize(s + 76);
        expectError(b.bytes, s, "SORTNORM size 76 is not 80");
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t bb = b.boundBox();
        b.bytes.resize(bb + 28);
        b.setI32(bb + 4, 28);
        expectError(b.bytes, bb, "BOUNDBOX size 28 is not 32");
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t s2 = b.sortNorm2();
        b.setI32(s2 + 4, 32);
        b.bytes.resize(s2 + 32);
        expectError(b.bytes, s2, "SORTNORM2 size 32 is smaller than its 40-byte header", 2301);
    }
}

TEST(PofBspProblems, DefPointsLayout) {
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        b.setI32(8, 1000);  // more vertices than the op has bytes for their counts
        expectError(b.bytes, 0, "DEFPOINTS vertex count 1000 does not fit the op's 120 bytes");
        b.setI32(8, -1);
        expectError(b.bytes, 0, "DEFPOINTS vertex count -1 does not fit the op's 120 bytes");
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        b.setI32(16, 22);  // inside the normal counts
        expectError(b.bytes, 0,
                    "DEFPOINTS data offset 22 is outside the op (normal counts end at 24, the op at 120)");
        b.setI32(16, 121);
        expectError(b.bytes, 0,
                    "DEFPOINTS data offset 121 is outside the op (normal counts end at 24, the op at 120)");
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        b.bytes[20 + 3] = 2;  // the last vertex claims one normal more than is stored
        expectError(b.bytes, 0,
                    "DEFPOINTS vertex data needs 108 bytes but the op has 96 after its data offset");
    }
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t second = b.defPoints(kSquare, kOneNormalEach);
        expectError(b.bytes, second, "a second DEFPOINTS op (a subobject has one point list)");
    }
}

TEST(PofBspProblems, ChildOffsetsOutsideTheData) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t sn = b.sortNorm();
    const size_t e = b.eof();
    b.setChild(sn, BspBuilder::Prelist, e);
    const size_t total = b.bytes.size();
    const std::string size = std::to_string(total) + "-byte BSP data";
    BspBuilder front = b;
    front.setI32(sn + BspBuilder::Front, 0x1234);
    expectError(front.bytes, sn, "SORTNORM front offset 0x1234 is outside the " + size);
    BspBuilder back = b;
    back.setI32(sn + BspBuilder::Back, int32_t(total - sn));  // one past the end
    expectError(back.bytes, sn, "SORTNORM back offset 0x58 is outside the " + size);
    BspBuilder pre = b;
    pre.setI32(sn + BspBuilder::Prelist, -int32_t(sn) - 1);  // one before the start
    expectError(pre.bytes, sn, "SORTNORM prelist offset -0x79 is outside the " + size);
    BspBuilder post = b;
    post.setI32(sn + BspBuilder::Postlist, 0x7fffffff);
    expectError(post.bytes, sn, "SORTNORM postlist offset 0x7FFFFFFF is outside the " + size);
    BspBuilder online = b;
    online.setI32(sn + BspBuilder::Online, -0x7fffffff - 1);
    expectError(online.bytes, sn, "SORTNORM online offset -0x80000000 is outside the " + size);
    EXPECT_TRUE(decode(b.bytes).ok);

    std::vector<size_t> at;
    std::vector<uint8_t> v2 = sortNorm2Blob(&at);
    BspBuilder s2;
    s2.bytes = v2;
    s2.setI32(at[2] + 12, 5000);
    expectError(s2.bytes, at[2],
                "SORTNORM2 back offset 0x1388 is outside the " + std::to_string(v2.size()) + "-byte BSP data",
                2301);
    s2.bytes = v2;
    s2.setI32(at[0] + 8, -int32_t(at[0]) - 4);
    expectError(s2.bytes, at[0],
                "SORTNORM2 front offset -0x7C is outside the " + std::to_string(v2.size()) + "-byte BSP data",
                2301);
}

TEST(PofBspProblems, ChildOffsetIntoTheMiddleOfAnOp) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t sn = b.sortNorm();
    const size_t e = b.eof();
    b.setChild(sn, BspBuilder::Prelist, e);
    b.setChild(sn, BspBuilder::Back, 4);  // inside DEFPOINTS
    expectError(b.bytes, sn, "SORTNORM back leads to BSP position 0x4, which is not the start of an op");
}

TEST(PofBspProblems, SortNormCycle) {
    // Two SORTNORMs whose front lists lead to each other.
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t s1 = b.sortNorm();
    b.eof();
    const size_t list = b.boundBox();
    const size_t s2 = b.sortNorm();
    b.eof();
    b.setChild(s1, BspBuilder::Front, list);
    b.setChild(s2, BspBuilder::Back, s1);
    char hexPos[16];
    std::snprintf(hexPos, sizeof hexPos, "0x%zX", s1);
    expectError(b.bytes, s2,
                std::string("SORTNORM back reaches the SORTNORM at BSP position ") + hexPos +
                    " a second time (a cycle in the tree)");
    // A SORTNORM2 whose child is its parent.
    std::vector<size_t> at;
    BspBuilder c;
    c.bytes = sortNorm2Blob(&at);
    c.setSortNorm2Child(at[2], true, at[3]);
    c.setI32(at[2] + 12, -int32_t(at[2] - at[0]));
    std::snprintf(hexPos, sizeof hexPos, "0x%zX", at[0]);
    expectError(c.bytes, at[2],
                std::string("SORTNORM2 back reaches the SORTNORM2 at BSP position ") + hexPos +
                    " a second time (a cycle in the tree)",
                2301);
    // The linear scan read every polygon before the tree check failed; they are kept.
    Decoded d = decode(c.bytes, 2301);
    EXPECT_EQ(d.data.texturedPolygons, 3u);
}

TEST(PofBspProblems, BadPolygonsAreSkipped) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    const size_t two = b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}});
    const size_t badVertex = b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {4, 1}, {2, 2}});
    const size_t badNormal = b.flatPoly({0, 0, 1}, 0, 0, 0, {{0, 0}, {1, 1}, {2, 65535}});
    const size_t badTexture = b.tmapPoly({0, 0, 1}, -2, {{0, 0}, {1, 1}, {2, 2}});
    b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}});
    Decoded d = decode(b.bytes);
    ASSERT_TRUE(d.ok) << describe(d.problems);
    ASSERT_EQ(d.problems.size(), 4u) << describe(d.problems);
    for (const BspProblem& p : d.problems) EXPECT_FALSE(p.error);
    EXPECT_EQ(d.problems[0].offset, kFileOffset + two);
    EXPECT_EQ(d.problems[0].message, "TMAPPOLY has 2 corners (at least 3 needed); the polygon is skipped");
    EXPECT_EQ(d.problems[1].offset, kFileOffset + badVertex);
    EXPECT_EQ(d.problems[1].message,
              "TMAPPOLY corner 1: vertex 4 is beyond the 4 DEFPOINTS vertices; the polygon is skipped");
    EXPECT_EQ(d.problems[2].offset, kFileOffset + badNormal);
    EXPECT_EQ(d.problems[2].message,
              "FLATPOLY corner 2: normal 65535 is beyond the 4 DEFPOINTS normals; the polygon is skipped");
    EXPECT_EQ(d.problems[3].offset, kFileOffset + badTexture);
    EXPECT_EQ(d.problems[3].message, "TMAPPOLY texture index -2 is negative; the polygon is skipped");
    ASSERT_EQ(d.data.polygons.size(), 1u);
    EXPECT_EQ(d.data.texturedPolygons, 1u);
    EXPECT_EQ(d.data.flatPolygons, 0u);
    EXPECT_EQ(buildBspMesh(d.data, {}, "m").indices.count, 3u);

    // A polygon before DEFPOINTS indexes nothing.
    BspBuilder early;
    const size_t first = early.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}});
    early.defPoints(kSquare, kOneNormalEach);
    Decoded e = decode(early.bytes);
    EXPECT_TRUE(e.ok);
    ASSERT_EQ(e.problems.size(), 2u) << describe(e.problems);
    EXPECT_EQ(e.problems[0].offset, kFileOffset + first);
    EXPECT_EQ(e.problems[0].message,
              "TMAPPOLY corner 0: vertex 0 is beyond the 0 DEFPOINTS vertices; the polygon is skipped");
    EXPECT_EQ(e.problems[1].message, "DEFPOINTS is not the first op of the BSP data");
}

TEST(PofBspProblems, ManyBadPolygonsAreSummedUp) {
    BspBuilder b;
    b.defPoints(kSquare, kOneNormalEach);
    for (int i = 0; i < 150; ++i) b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}});
    Decoded d = decode(b.bytes);
    EXPECT_TRUE(d.ok);
    ASSERT_EQ(d.problems.size(), 101u);
    EXPECT_EQ(d.problems.back().message, "50 more problems in this BSP data");
}

TEST(PofBspProblems, EveryTruncatedPrefixFailsCleanly) {
    std::vector<uint8_t> full;
    {
        BspBuilder b;
        b.defPoints(kSquare, kOneNormalEach);
        const size_t sn = b.sortNorm();
        const size_t pre = b.eof();
        const size_t front = b.boundBox();
        b.tmapPoly({0, 0, 1}, 0, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
        b.flatPoly({0, 0, 1}, 0, 0, 0, {{0, 0}, {1, 1}, {2, 2}});
        b.eof();
        b.setChild(sn, BspBuilder::Prelist, pre);
        b.setChild(sn, BspBuilder::Front, front);
        full = b.bytes;
    }
    const std::vector<uint8_t> v2 = sortNorm2Blob();
    for (const auto& [bytes, version] : {std::pair{full, 2117}, std::pair{v2, 2301}}) {
        ASSERT_TRUE(decode(bytes, version).ok);
        for (size_t n = 0; n < bytes.size(); ++n) {
            // An exact copy, so ASan sees any read past the prefix.
            std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
            BspData data;
            std::vector<BspProblem> problems;
            const bool ok = decodeBsp(prefix.data(), prefix.size(), 0, version, data, problems);
            if (!ok) {
                ASSERT_FALSE(problems.empty());
                EXPECT_TRUE(problems.back().error);
                EXPECT_LE(problems.back().offset, n);
            }
            // Cutting the data in the middle of an op is always an error; only op boundaries
            // (with all child offsets still inside) can pass.
            if (n > 0 && n < 120) {
                EXPECT_FALSE(ok) << n;
            }
            buildBspMesh(data, {}, "prefix");
        }
    }
    BspData empty;
    std::vector<BspProblem> problems;
    EXPECT_TRUE(decodeBsp(nullptr, 0, 0, 2117, empty, problems));
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(buildBspMesh(empty, {}, "e").vertexCount, 0u);
}

// ---------------------------------------------------------------------------------------------
// The staged POF files

namespace {

struct Subobject {
    std::string name;
    int32_t number = 0;
    uint64_t bspOffset = 0;  // file offset of the BSP data
    uint32_t bspSize = 0;
};

struct PofFile {
    int32_t version = 0;
    std::vector<uint8_t> bytes;
    std::vector<Subobject> subobjects;
};

int32_t readI32(const std::vector<uint8_t>& b, size_t at) {
    int32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

// Walks the chunks (PSPO, version, then id + length + payload) and the OBJ2 fields up to the
// BSP data (pof-bsp-notes.md, "Where the BSP lives"). Test input is trusted only as far as
// the ASSERTs check it.
void readPof(const fs::path& path, PofFile& pof) {
    std::ifstream in(path, std::ios::binary);
    pof.bytes.assign(std::istreambuf_iterator<char>(in), {});
    const std::vector<uint8_t>& b = pof.bytes;
    ASSERT_GE(b.size(), 8u);
    ASSERT_EQ(std::string(b.begin(), b.begin() + 4), "PSPO");
    pof.version = readI32(b, 4);
    size_t at = 8;
    while (b.size() - at >= 8) {
        const std::string id(b.begin() + static_cast<std::ptrdiff_t>(at),
                             b.begin() + static_cast<std::ptrdiff_t>(at) + 4);
        const int32_t length = readI32(b, at + 4);
        ASSERT_GE(length, 0);
        ASSERT_LE(size_t(length), b.size() - at - 8) << id;
        const size_t payload = at + 8, end = payload + size_t(length);
        if (id == "OBJ2") {
            Subobject s;
            size_t p = payload;
            s.number = readI32(b, p);
            p += 4 + 4 + 4 + 12 * 4;       // number, radius, parent, offset, center, bbox min, bbox max
            for (int k = 0; k < 2; ++k) {  // name, properties
                const int32_t n = readI32(b, p);
                ASSERT_GE(n, 0);
                ASSERT_LE(p + 4 + size_t(n), end);
                if (k == 0) {
                    s.name.assign(b.begin() + static_cast<std::ptrdiff_t>(p + 4),
                                  b.begin() + static_cast<std::ptrdiff_t>(p + 4 + size_t(n)));
                    s.name = s.name.c_str();  // drop a trailing NUL
                }
                p += 4 + size_t(n);
            }
            p += 8;                           // movement type, axis
            if (pof.version >= 2301) p += 8;  // translation type, axis
            p += 4;                           // nchunks
            ASSERT_LE(p + 4, end);
            const int32_t bspSize = readI32(b, p);
            p += 4;
            ASSERT_GE(bspSize, 0);
            // The BSP data ends the chunk.
            ASSERT_EQ(p + size_t(bspSize), end) << s.name;
            s.bspOffset = p;
            s.bspSize = static_cast<uint32_t>(bspSize);
            pof.subobjects.push_back(s);
        }
        at = end;
    }
    ASSERT_EQ(at, b.size());
}

struct FileTotals {
    uint64_t subobjects = 0, textured = 0, flat = 0, drawnTriangles = 0, flatTriangles = 0, ngons = 0;
    uint64_t sortNodes = 0;
    std::map<int32_t, uint64_t> trianglesByTexture;
};

}  // namespace

TEST(PofBspSamples, EveryStagedFileDecodes) {
    const fs::path dir = fs::path(ESVIEW_SHARED_DIR) / "models" / "pof";
    if (!fs::is_directory(dir)) {
        ESVIEW_SKIP_UNLESS_REQUIRED() << dir << " is missing";
    }
    std::map<std::string, FileTotals> totals;
    std::map<std::string, int32_t> versions;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".pof") continue;
        const std::string file = entry.path().filename().string();
        SCOPED_TRACE(file);
        PofFile pof;
        readPof(entry.path(), pof);
        if (HasFatalFailure()) return;
        versions[file] = pof.version;
        FileTotals& t = totals[file];
        for (const Subobject& s : pof.subobjects) {
            SCOPED_TRACE(s.name);
            BspData data;
            std::vector<BspProblem> problems;
            // decodeBsp succeeds only when the linear scan ends exactly at bsp_size.
            ASSERT_TRUE(decodeBsp(pof.bytes.data() + s.bspOffset, s.bspSize, s.bspOffset, pof.version, data,
                                  problems))
                << describe(problems);
            EXPECT_TRUE(problems.empty()) << describe(problems);
            EXPECT_GT(data.positions.size(), 0u);
            ++t.subobjects;
            t.textured += data.texturedPolygons;
            t.flat += data.flatPolygons;
            t.sortNodes += data.sortNodes;
            for (const esv::pof::BspPolygon& p : data.polygons) {
                if (p.flat) t.flatTriangles += p.cornerCount - 2;
                if (p.cornerCount > 3 && !p.flat) ++t.ngons;
                // Every polygon lies inside the DEFPOINTS bounds.
                for (uint32_t c = 0; c < p.cornerCount; ++c) {
                    const glm::vec3 v = data.positions[data.corners[p.firstCorner + c].vertex];
                    EXPECT_TRUE(glm::all(glm::greaterThanEqual(v, data.boundsMin)) &&
                                glm::all(glm::lessThanEqual(v, data.boundsMax)));
                }
            }
            const esv::Mesh mesh = buildBspMesh(data, {}, s.name);
            ASSERT_EQ(mesh.indices.count % 3, 0u);
            t.drawnTriangles += mesh.indices.count / 3;
            EXPECT_LE(mesh.vertexCount, 3 * (mesh.indices.count / 3));
            EXPECT_EQ(mesh.indices.type,
                      mesh.vertexCount <= 65536 ? esv::ComponentType::UInt16 : esv::ComponentType::UInt32);
            uint32_t next = 0;
            for (const esv::Submesh& sm : mesh.submeshes) {
                EXPECT_EQ(sm.firstIndex, next);
                next += sm.indexCount;
            }
            EXPECT_EQ(next, mesh.indices.count);
            for (uint32_t i : indicesOf(mesh)) ASSERT_LT(i, mesh.vertexCount);
            // Every normal comes out unit length (ls_GUN-Mace stores one (0,0,0) normal, which
            // takes its polygon's plane normal).
            for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
                const float length = glm::length(attribute(mesh, esv::Semantic::Normal, v));
                ASSERT_NEAR(length, 1.0f, 1e-5f) << "vertex " << v;
            }
        }
    }
    if (totals.empty()) {
        ESVIEW_SKIP_UNLESS_REQUIRED() << "no .pof files in " << dir;
    }

    auto check = [&](const std::string& file, int32_t version, uint64_t subobjects, uint64_t textured,
                     uint64_t flat, uint64_t drawn, uint64_t flatTriangles) {
        SCOPED_TRACE(file);
        auto it = totals.find(file);
        if (it == totals.end()) {
            ADD_FAILURE() << file << " is missing from the staged folder";
            return;
        }
        EXPECT_EQ(versions[file], version);
        EXPECT_EQ(it->second.subobjects, subobjects);
        EXPECT_EQ(it->second.textured, textured);
        EXPECT_EQ(it->second.flat, flat);
        EXPECT_EQ(it->second.drawnTriangles, drawn);
        EXPECT_EQ(it->second.flatTriangles, flatTriangles);
    };
    // SOURCES.md: air_flat is 96 quads -> 192 triangles.
    check("air_flat.pof", 2117, 1, 96, 0, 192, 0);
    EXPECT_EQ(totals["air_flat.pof"].ngons, 96u);
    // oih_SRBC: 5 submodels, 402 polygons of which 4 FLATPOLY, 948 triangles counting the
    // FLATPOLY fans (40 of them), which are not drawn.
    check("oih_SRBC.pof", 2117, 5, 398, 4, 908, 40);
    EXPECT_EQ(totals["oih_SRBC.pof"].textured + totals["oih_SRBC.pof"].flat, 402u);
    EXPECT_EQ(totals["oih_SRBC.pof"].drawnTriangles + totals["oih_SRBC.pof"].flatTriangles, 948u);
    // ls_GUN-Mace: 780 TMAPPOLY + 12 FLATPOLY, 1604 triangles with the FLATPOLY fans.
    check("ls_GUN-Mace.pof", 2117, 1, 780, 12, 1580, 24);
    EXPECT_EQ(totals["ls_GUN-Mace.pof"].drawnTriangles + totals["ls_GUN-Mace.pof"].flatTriangles, 1604u);
    // hs_destroyer_framework01: one submodel, 3680 TMAP2POLY triangles under SORTNORM2 nodes.
    check("hs_destroyer_framework01.pof", 2301, 1, 3680, 0, 3680, 0);
    EXPECT_EQ(totals["hs_destroyer_framework01.pof"].sortNodes, 3679u);
    check("hs_frigate_gunship02.pof", 2301, 9, 4652, 0, 4652, 0);
    check("air_F-14.pof", 2301, 1, 1914, 0, 1914, 0);
    check("air_missile1.pof", 2301, 1, 596, 0, 596, 0);
    check("oih_gasgiantbox.pof", 2117, 1, 12, 0, 12, 0);
    check("oih_Galaxy.pof", 2117, 1, 360, 0, 360, 0);
    check("oih_chimera.pof", 2117, 1, 548, 0, 548, 0);
    check("oih_Fighter2T-01-2.pof", 2117, 8, 4226, 0, 4226, 0);
    check("oih_ShivWorm.pof", 2117, 105, 3836, 0, 3836, 0);
    check("oih_Yali.pof", 2117, 11, 1488, 0, 1631, 0);
    check("ls_MISSILE-Dart.pof", 2117, 1, 225, 0, 350, 0);
    check("ls_dup.pof", 2117, 1, 5, 0, 6, 0);
    EXPECT_EQ(totals["ls_dup.pof"].ngons, 1u);
}

TEST(PofBspSamples, GasGiantBoxHasOneSubmeshPerFace) {
    const fs::path path = fs::path(ESVIEW_SHARED_DIR) / "models" / "pof" / "oih_gasgiantbox.pof";
    if (!fs::exists(path)) {
        ESVIEW_SKIP_UNLESS_REQUIRED() << path << " is missing";
    }
    PofFile pof;
    readPof(path, pof);
    ASSERT_EQ(pof.subobjects.size(), 1u);
    const Subobject& s = pof.subobjects[0];
    BspData data;
    std::vector<BspProblem> problems;
    ASSERT_TRUE(
        decodeBsp(pof.bytes.data() + s.bspOffset, s.bspSize, s.bspOffset, pof.version, data, problems));
    // A cube of 12 triangles, 6 textures (one per face): 6 submeshes of 2 triangles each, in
    // texture order, with the slots the caller's mapping gives.
    const esv::Mesh mesh = buildBspMesh(data, {10, 11, 12, 13, 14, 15}, s.name);
    ASSERT_EQ(mesh.submeshes.size(), 6u);
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(mesh.submeshes[i].indexCount, 6u);
        EXPECT_EQ(mesh.submeshes[i].materialSlot, 10 + i);
    }
    EXPECT_EQ(data.positions.size(), 8u);
}

// Single-texture, all-triangle files: mesh triangle k is polygon k. In viewer axes each triangle
// must be the polygon's corners with z negated, in the order (0, 2, 1), and wound
// counter-clockwise around the negated plane normal (the notes: the stored normal is
// (v1 - v0) x (v2 - v0) in file axes for all but degenerate and a few reversed polygons).
TEST(PofBspSamples, TrianglesAreFlippedAndRewoundPolygonByPolygon) {
    for (const char* name : {"oih_chimera.pof", "hs_destroyer_framework01.pof"}) {
        SCOPED_TRACE(name);
        const fs::path path = fs::path(ESVIEW_SHARED_DIR) / "models" / "pof" / name;
        if (!fs::exists(path)) {
            ESVIEW_SKIP_UNLESS_REQUIRED() << path << " is missing";
        }
        PofFile pof;
        readPof(path, pof);
        ASSERT_EQ(pof.subobjects.size(), 1u);
        const Subobject& s = pof.subobjects[0];
        BspData data;
        std::vector<BspProblem> problems;
        ASSERT_TRUE(
            decodeBsp(pof.bytes.data() + s.bspOffset, s.bspSize, s.bspOffset, pof.version, data, problems));
        const esv::Mesh mesh = buildBspMesh(data, {}, s.name);
        const std::vector<uint32_t> idx = indicesOf(mesh);
        ASSERT_EQ(idx.size(), 3 * data.polygons.size());
        size_t counterClockwise = 0;
        for (size_t k = 0; k < data.polygons.size(); ++k) {
            const esv::pof::BspPolygon& p = data.polygons[k];
            ASSERT_EQ(p.cornerCount, 3u);
            const int order[3] = {0, 2, 1};
            glm::vec3 q[3];
            for (int c = 0; c < 3; ++c) {
                const glm::vec3 stored =
                    data.positions[data.corners[p.firstCorner + uint32_t(order[c])].vertex];
                q[c] = attribute(mesh, esv::Semantic::Position, idx[3 * k + size_t(c)]);
                ASSERT_EQ(q[c], glm::vec3(stored.x, stored.y, -stored.z))
                    << "polygon " << k << " corner " << c;
            }
            const glm::vec3 plane(p.normal.x, p.normal.y, -p.normal.z);
            if (glm::dot(glm::cross(q[1] - q[0], q[2] - q[0]), plane) > 0.0f) ++counterClockwise;
        }
        EXPECT_EQ(counterClockwise, data.polygons.size());
    }
}
