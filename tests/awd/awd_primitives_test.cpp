// AWD primitive tessellation: for each of the seven kinds, with Away3D's defaults and with other
// parameters, the vertex and triangle counts of Away3D 4.1's formulas, bounds, chosen vertices'
// positions, normals, tangents and UVs and chosen triangles (worked out by hand from Away3D's
// buildGeometry/buildUVs), unit normals, winding that agrees with the normals, the yUp = false
// rotation, the plane's double side, the cylinder's open and closed ends, Away3D's normal quirks
// and their corrected form, the property-id mapping, and the refusals.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loaders/awd/awd_primitives.h"

namespace esv::awd {
namespace {

// ---------------------------------------------------------------------------------------------
// Helpers

constexpr double kPi = 3.141592653589793;

using V3 = std::array<double, 3>;

V3 sub(const V3& a, const V3& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 cross(const V3& a, const V3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const V3& a, const V3& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double length(const V3& a) {
    return std::sqrt(dot(a, a));
}

V3 at(const std::vector<float>& array, size_t vertex) {
    return {array[vertex * 3], array[vertex * 3 + 1], array[vertex * 3 + 2]};
}
V3 position(const PrimitiveMesh& m, size_t v) {
    return at(m.positions, v);
}
V3 normal(const PrimitiveMesh& m, size_t v) {
    return at(m.normals, v);
}
V3 tangent(const PrimitiveMesh& m, size_t v) {
    return at(m.tangents, v);
}

PrimitiveMesh build(PrimitiveKind kind, const PrimitiveParams& params,
                    PrimitiveNormals normals = PrimitiveNormals::Away3D) {
    PrimitiveMesh mesh;
    std::string error;
    EXPECT_TRUE(buildPrimitive(kind, params, mesh, error, normals)) << error;
    EXPECT_TRUE(error.empty()) << error;
    return mesh;
}

std::string refusal(PrimitiveKind kind, const PrimitiveParams& params) {
    PrimitiveMesh mesh;
    mesh.positions = {1, 2, 3};
    std::string error;
    EXPECT_FALSE(buildPrimitive(kind, params, mesh, error));
    EXPECT_TRUE(mesh.positions.empty() && mesh.indices.empty() && mesh.uvs.empty());
    EXPECT_FALSE(error.empty());
    return error;
}

#define EXPECT_V3(actual, x, y, z)                    \
    do {                                              \
        V3 value_ = (actual);                         \
        EXPECT_NEAR(value_[0], (x), 1e-4) << #actual; \
        EXPECT_NEAR(value_[1], (y), 1e-4) << #actual; \
        EXPECT_NEAR(value_[2], (z), 1e-4) << #actual; \
    } while (0)

#define EXPECT_UV(mesh, vertex, u, v)                                           \
    do {                                                                        \
        EXPECT_NEAR((mesh).uvs[(vertex)*2], (u), 1e-6) << "u " << (vertex);     \
        EXPECT_NEAR((mesh).uvs[(vertex)*2 + 1], (v), 1e-6) << "v " << (vertex); \
    } while (0)

void expectTriangle(const PrimitiveMesh& m, size_t triangle, uint32_t a, uint32_t b, uint32_t c) {
    ASSERT_LT(triangle * 3 + 2, m.indices.size());
    EXPECT_EQ(m.indices[triangle * 3], a) << "triangle " << triangle;
    EXPECT_EQ(m.indices[triangle * 3 + 1], b) << "triangle " << triangle;
    EXPECT_EQ(m.indices[triangle * 3 + 2], c) << "triangle " << triangle;
}

struct Box {
    V3 min{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
           std::numeric_limits<double>::max()};
    V3 max{-std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
           -std::numeric_limits<double>::max()};
};

Box bounds(const PrimitiveMesh& m) {
    Box box;
    for (size_t v = 0; v < m.vertexCount(); ++v) {
        V3 p = position(m, v);
        for (int k = 0; k < 3; ++k) {
            box.min[k] = std::min(box.min[k], p[k]);
            box.max[k] = std::max(box.max[k], p[k]);
        }
    }
    return box;
}

void expectBounds(const PrimitiveMesh& m, const V3& min, const V3& max, double tolerance = 1e-4) {
    Box box = bounds(m);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(box.min[k], min[k], tolerance) << "min " << k;
        EXPECT_NEAR(box.max[k], max[k], tolerance) << "max " << k;
    }
}

void expectCounts(const PrimitiveMesh& m, size_t vertices, size_t triangles) {
    EXPECT_EQ(m.vertexCount(), vertices);
    EXPECT_EQ(m.triangleCount(), triangles);
    EXPECT_EQ(m.positions.size(), vertices * 3);
    EXPECT_EQ(m.normals.size(), vertices * 3);
    EXPECT_EQ(m.tangents.size(), vertices * 3);
    EXPECT_EQ(m.uvs.size(), vertices * 2);
    EXPECT_EQ(m.indices.size(), triangles * 3);
    for (uint32_t index : m.indices) ASSERT_LT(index, vertices);
}

// Vertices whose normal is not unit length (to 1e-5).
std::vector<size_t> nonUnitNormals(const PrimitiveMesh& m) {
    std::vector<size_t> out;
    for (size_t v = 0; v < m.vertexCount(); ++v)
        if (std::fabs(length(normal(m, v)) - 1) > 1e-5) out.push_back(v);
    return out;
}

void expectUnitNormalsAndTangents(const PrimitiveMesh& m) {
    for (size_t v = 0; v < m.vertexCount(); ++v) {
        ASSERT_NEAR(length(normal(m, v)), 1, 1e-5) << "normal " << v;
        ASSERT_NEAR(length(tangent(m, v)), 1, 1e-5) << "tangent " << v;
        ASSERT_NEAR(dot(normal(m, v), tangent(m, v)), 0, 1e-5) << "tangent not perpendicular " << v;
    }
}

// Triangles with an area of at least minArea whose face normal ((b - a) x (c - a)) points away
// from the sum of their vertex normals; also counts the degenerate ones.
struct Winding {
    size_t disagreeing = 0;
    size_t degenerate = 0;
    size_t firstDisagreeing = SIZE_MAX;
};

Winding winding(const PrimitiveMesh& m, double minArea = 1e-6) {
    Winding w;
    for (size_t t = 0; t < m.triangleCount(); ++t) {
        uint32_t a = m.indices[t * 3], b = m.indices[t * 3 + 1], c = m.indices[t * 3 + 2];
        V3 face = cross(sub(position(m, b), position(m, a)), sub(position(m, c), position(m, a)));
        if (length(face) / 2 < minArea) {
            ++w.degenerate;
            continue;
        }
        V3 sum{0, 0, 0};
        for (uint32_t v : {a, b, c})
            for (int k = 0; k < 3; ++k) sum[k] += normal(m, v)[k];
        if (dot(face, sum) <= 0) {
            if (w.firstDisagreeing == SIZE_MAX) w.firstDisagreeing = t;
            ++w.disagreeing;
        }
    }
    return w;
}

void expectWindingAgrees(const PrimitiveMesh& m, size_t expectedDegenerate) {
    Winding w = winding(m);
    EXPECT_EQ(w.disagreeing, 0u) << "first at triangle " << w.firstDisagreeing;
    EXPECT_EQ(w.degenerate, expectedDegenerate);
}

void expectUvsInUnitSquare(const PrimitiveMesh& m) {
    for (size_t k = 0; k < m.uvs.size(); ++k) {
        ASSERT_GE(m.uvs[k], 0.0f) << k;
        ASSERT_LE(m.uvs[k], 1.0f) << k;
    }
}

// yUp = false is the yUp shape turned (x, y, z) -> (x, z, -y): positions exactly, and (unless told
// not to) normals and tangents, exactly or within normalTolerance; same UVs and triangles.
void expectTurnedCopy(const PrimitiveMesh& up, const PrimitiveMesh& turned, bool checkNormals = true,
                      double normalTolerance = 0) {
    ASSERT_EQ(up.vertexCount(), turned.vertexCount());
    EXPECT_EQ(up.indices, turned.indices);
    EXPECT_EQ(up.uvs, turned.uvs);
    for (size_t v = 0; v < up.vertexCount(); ++v) {
        auto expectTurned = [&](const V3& a, const V3& b, double tolerance, const char* what) {
            ASSERT_NEAR(b[0], a[0], tolerance) << what << " " << v;
            ASSERT_NEAR(b[1], a[2], tolerance) << what << " " << v;
            ASSERT_NEAR(b[2], -a[1], tolerance) << what << " " << v;
        };
        expectTurned(position(up, v), position(turned, v), 0, "position");
        if (checkNormals) {
            expectTurned(normal(up, v), normal(turned, v), normalTolerance, "normal");
            expectTurned(tangent(up, v), tangent(turned, v), normalTolerance, "tangent");
        }
    }
}

PrimitiveParams with(PrimitiveKind kind, std::initializer_list<std::pair<uint16_t, double>> properties) {
    PrimitiveParams p = defaultParams(kind);
    for (const auto& [id, value] : properties) EXPECT_TRUE(setPrimitiveProperty(kind, id, value, p)) << id;
    return p;
}

const PrimitiveKind kAllKinds[] = {PrimitiveKind::Plane,    PrimitiveKind::Cube, PrimitiveKind::Sphere,
                                   PrimitiveKind::Cylinder, PrimitiveKind::Cone, PrimitiveKind::Capsule,
                                   PrimitiveKind::Torus};

// ---------------------------------------------------------------------------------------------
// Plane

TEST(AwdPrimitivePlane, DefaultIsOneQuadFacingUp) {
    PrimitiveMesh m = build(PrimitiveKind::Plane, defaultParams(PrimitiveKind::Plane));
    expectCounts(m, 4, 2);
    expectBounds(m, {-50, 0, -50}, {50, 0, 50});
    EXPECT_V3(position(m, 0), -50, 0, -50);
    EXPECT_V3(position(m, 1), 50, 0, -50);
    EXPECT_V3(position(m, 3), 50, 0, 50);
    for (size_t v = 0; v < 4; ++v) {
        EXPECT_V3(normal(m, v), 0, 1, 0);
        EXPECT_V3(tangent(m, v), 1, 0, 0);
    }
    EXPECT_UV(m, 0, 0, 1);
    EXPECT_UV(m, 1, 1, 1);
    EXPECT_UV(m, 3, 1, 0);
    expectTriangle(m, 0, 0, 2, 3);
    expectTriangle(m, 1, 0, 3, 1);
    expectWindingAgrees(m, 0);
    expectUnitNormalsAndTangents(m);
}

TEST(AwdPrimitivePlane, SegmentsAndSizes) {
    PrimitiveMesh m =
        build(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{101, 200}, {102, 80}, {301, 4}, {302, 2}}));
    expectCounts(m, 5 * 3, 2 * 4 * 2);
    expectBounds(m, {-100, 0, -40}, {100, 0, 40});
    EXPECT_V3(position(m, 6), -50, 0, 0);  // xi 1, yi 1
    EXPECT_UV(m, 6, 0.25, 0.5);
    EXPECT_V3(position(m, 14), 100, 0, 40);
    EXPECT_UV(m, 14, 1, 0);
    // Cell (xi 1, yi 1): base 6, row width 5.
    expectTriangle(m, 2 * 5, 6, 11, 12);
    expectTriangle(m, 2 * 5 + 1, 6, 12, 7);
    expectWindingAgrees(m, 0);
    expectUvsInUnitSquare(m);
}

TEST(AwdPrimitivePlane, YUpFalseFacesMinusZ) {
    PrimitiveMesh up = build(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{301, 3}, {302, 2}}));
    PrimitiveMesh m = build(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{301, 3}, {302, 2}, {701, 0}}));
    expectTurnedCopy(up, m);
    EXPECT_V3(position(m, 0), -50, -50, 0);
    EXPECT_V3(normal(m, 0), 0, 0, -1);
    EXPECT_V3(tangent(m, 0), 1, 0, 0);
    expectBounds(m, {-50, -50, 0}, {50, 50, 0});
    expectWindingAgrees(m, 0);
}

TEST(AwdPrimitivePlane, DoubleSidedInterleavesAReversedCopy) {
    PrimitiveMesh m = build(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{702, 1}}));
    expectCounts(m, 8, 4);
    for (size_t v = 0; v < 8; v += 2) {
        EXPECT_EQ(position(m, v), position(m, v + 1));
        EXPECT_V3(normal(m, v), 0, 1, 0);
        EXPECT_V3(normal(m, v + 1), 0, -1, 0);
        EXPECT_V3(tangent(m, v + 1), -1, 0, 0);
        EXPECT_EQ(m.uvs[v * 2], m.uvs[v * 2 + 2]);
        EXPECT_EQ(m.uvs[v * 2 + 1], m.uvs[v * 2 + 3]);
    }
    expectTriangle(m, 0, 0, 4, 6);
    expectTriangle(m, 1, 0, 6, 2);
    expectTriangle(m, 2, 7, 5, 1);
    expectTriangle(m, 3, 3, 7, 1);
    expectWindingAgrees(m, 0);

    PrimitiveMesh grid =
        build(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{301, 3}, {302, 5}, {702, 1}}));
    expectCounts(grid, 4 * 6 * 2, 2 * 3 * 5 * 2);
    expectWindingAgrees(grid, 0);
}

// ---------------------------------------------------------------------------------------------
// Cube

TEST(AwdPrimitiveCube, DefaultHasSixFacesOfTwoTriangles) {
    PrimitiveMesh m = build(PrimitiveKind::Cube, defaultParams(PrimitiveKind::Cube));
    expectCounts(m, 24, 12);
    expectBounds(m, {-50, -50, -50}, {50, 50, 50});
    // Front and back interleaved, then top and bottom, then left and right.
    EXPECT_V3(position(m, 0), -50, -50, -50);
    EXPECT_V3(normal(m, 0), 0, 0, -1);
    EXPECT_V3(tangent(m, 0), 1, 0, 0);
    EXPECT_V3(position(m, 1), -50, -50, 50);
    EXPECT_V3(normal(m, 1), 0, 0, 1);
    EXPECT_V3(tangent(m, 1), -1, 0, 0);
    EXPECT_V3(position(m, 8), -50, 50, -50);
    EXPECT_V3(normal(m, 8), 0, 1, 0);
    EXPECT_V3(position(m, 9), -50, -50, -50);
    EXPECT_V3(normal(m, 9), 0, -1, 0);
    EXPECT_V3(position(m, 16), -50, -50, 50);
    EXPECT_V3(normal(m, 16), -1, 0, 0);
    EXPECT_V3(tangent(m, 16), 0, 0, -1);
    EXPECT_V3(position(m, 17), 50, -50, 50);
    EXPECT_V3(normal(m, 17), 1, 0, 0);
    EXPECT_V3(tangent(m, 17), 0, 0, 1);
    expectTriangle(m, 0, 0, 2, 6);
    expectTriangle(m, 1, 0, 6, 4);
    expectTriangle(m, 2, 5, 7, 3);
    expectTriangle(m, 3, 5, 3, 1);
    expectTriangle(m, 4, 8, 10, 14);
    expectTriangle(m, 8, 16, 18, 22);
    // tile6: front in the middle of the lower row, back on the right of the upper one, ...
    EXPECT_UV(m, 0, 1.0 / 3, 1);
    EXPECT_UV(m, 1, 1, 0.5);
    EXPECT_UV(m, 6, 2.0 / 3, 0.5);
    EXPECT_UV(m, 8, 1.0 / 3, 0.5);
    EXPECT_UV(m, 9, 0, 0);
    EXPECT_UV(m, 16, 0, 1);
    EXPECT_UV(m, 17, 1, 1);
    expectWindingAgrees(m, 0);
    expectUnitNormalsAndTangents(m);
    expectUvsInUnitSquare(m);
}

TEST(AwdPrimitiveCube, WholeTexturePerFaceWithoutTile6) {
    PrimitiveMesh m = build(PrimitiveKind::Cube, with(PrimitiveKind::Cube, {{701, 0}}));
    EXPECT_UV(m, 0, 0, 1);
    EXPECT_UV(m, 1, 1, 1);
    EXPECT_UV(m, 6, 1, 0);
    EXPECT_UV(m, 9, 0, 0);
    EXPECT_UV(m, 17, 1, 1);
    expectUvsInUnitSquare(m);
}

TEST(AwdPrimitiveCube, SizesAndSegments) {
    PrimitiveMesh m =
        build(PrimitiveKind::Cube,
              with(PrimitiveKind::Cube, {{101, 10}, {102, 20}, {103, 30}, {301, 2}, {302, 3}, {303, 4}}));
    expectCounts(m, 2 * (3 * 4 + 3 * 5 + 4 * 5), 4 * (2 * 3 + 2 * 4 + 3 * 4));
    expectBounds(m, {-5, -10, -15}, {5, 10, 15});
    EXPECT_V3(position(m, 2 * (1 * 4 + 2)), 0, 10.0 / 3, -15);  // front i 1, j 2
    EXPECT_UV(m, 2 * (1 * 4 + 2), 1.0 / 3 + 1.0 / 6, 0.5 + (0.5 - 2 * 0.5 / 3));
    // Left/right run from +z to -z.
    size_t leftFirst = 2 * (3 * 4 + 3 * 5);
    EXPECT_V3(position(m, leftFirst), -5, -10, 15);
    EXPECT_V3(position(m, leftFirst + 2 * 4), -5, -10, 7.5);
    expectWindingAgrees(m, 0);
    expectUvsInUnitSquare(m);
}

// ---------------------------------------------------------------------------------------------
// Sphere

TEST(AwdPrimitiveSphere, DefaultRingsFromTopToBottom) {
    PrimitiveMesh m = build(PrimitiveKind::Sphere, defaultParams(PrimitiveKind::Sphere));
    expectCounts(m, 13 * 17, 2 * 16 * 11);
    expectBounds(m, {-50, -50, -50}, {50, 50, 50});
    EXPECT_V3(position(m, 0), 0, 50, 0);
    EXPECT_V3(normal(m, 0), 0, 1, 0);
    EXPECT_V3(tangent(m, 0), 1, 0, 0);
    EXPECT_UV(m, 0, 0, 0);
    const double s15 = std::sin(kPi / 12), c15 = std::cos(kPi / 12);
    EXPECT_V3(position(m, 17), 50 * s15, 50 * c15, 0);  // ring 1, first vertex
    EXPECT_V3(normal(m, 17), s15, c15, 0);
    EXPECT_V3(tangent(m, 17), 0, 0, 1);
    EXPECT_UV(m, 17, 0, 1.0 / 12);
    EXPECT_V3(position(m, 17 + 4), 0, 50 * c15, 50 * s15);  // a quarter turn: +z
    EXPECT_V3(tangent(m, 17 + 4), -1, 0, 0);
    EXPECT_V3(position(m, 6 * 17), 50, 0, 0);  // equator
    EXPECT_UV(m, 6 * 17 + 8, 0.5, 0.5);
    EXPECT_V3(position(m, 220), 0, -50, 0);
    EXPECT_UV(m, 220, 1, 1);
    // The last ring is collapsed onto its first vertex.
    for (size_t v = 12 * 17; v < 13 * 17; ++v) EXPECT_EQ(position(m, v), position(m, 12 * 17));
    // The seam vertex repeats the ring's first position.
    EXPECT_EQ(position(m, 17 + 16), position(m, 17));
    EXPECT_UV(m, 17 + 16, 1, 1.0 / 12);

    expectTriangle(m, 0, 18, 17, 0);  // top cap: one triangle per segment
    expectTriangle(m, 16, 35, 34, 17);
    expectTriangle(m, 17, 35, 17, 18);
    expectTriangle(m, 16 + 2 * 16 * 10, 12 * 17 + 1, 11 * 17, 11 * 17 + 1);  // bottom cap
    expectWindingAgrees(m, 0);
    expectUvsInUnitSquare(m);
}

TEST(AwdPrimitiveSphere, Away3DSeamNormalsAreOneAndAHalfLong) {
    PrimitiveMesh m = build(PrimitiveKind::Sphere, defaultParams(PrimitiveKind::Sphere));
    std::vector<size_t> seam;
    for (size_t j = 0; j <= 12; ++j) seam.push_back(j * 17 + 16);
    EXPECT_EQ(nonUnitNormals(m), seam);
    for (size_t v : seam) {
        EXPECT_NEAR(length(normal(m, v)), 1.5, 1e-5);
        EXPECT_NEAR(dot(normal(m, v), normal(m, v - 16)) / 1.5, 1, 1e-5);  // direction of the first
    }
    for (size_t v = 0; v < m.vertexCount(); ++v) {
        EXPECT_NEAR(length(tangent(m, v)), 1, 1e-5);
        EXPECT_NEAR(dot(normal(m, v), tangent(m, v)), 0, 1e-5);
    }

    PrimitiveMesh fixed =
        build(PrimitiveKind::Sphere, defaultParams(PrimitiveKind::Sphere), PrimitiveNormals::Corrected);
    expectUnitNormalsAndTangents(fixed);
    EXPECT_V3(normal(fixed, 17 + 16), normal(m, 17)[0], normal(m, 17)[1], normal(m, 17)[2]);
    expectWindingAgrees(fixed, 0);
}

TEST(AwdPrimitiveSphere, OtherParameters) {
    PrimitiveMesh m =
        build(PrimitiveKind::Sphere, with(PrimitiveKind::Sphere, {{101, 2}, {301, 3}, {302, 2}}));
    expectCounts(m, 3 * 4, 2 * 3 * 1);
    expectBounds(m, {-1, -2, -std::sqrt(3.0)}, {2, 2, std::sqrt(3.0)});
    expectWindingAgrees(m, 0);

    PrimitiveMesh fine =
        build(PrimitiveKind::Sphere, with(PrimitiveKind::Sphere, {{101, 7.5}, {301, 40}, {302, 30}}));
    expectCounts(fine, 31 * 41, 2 * 40 * 29);
    expectBounds(fine, {-7.5, -7.5, -7.5}, {7.5, 7.5, 7.5});
    for (size_t v = 0; v < fine.vertexCount(); ++v) ASSERT_NEAR(length(position(fine, v)), 7.5, 1e-5) << v;
    expectWindingAgrees(fine, 0);
}

TEST(AwdPrimitiveSphere, YUpFalsePutsThePolesOnZ) {
    PrimitiveMesh up = build(PrimitiveKind::Sphere, defaultParams(PrimitiveKind::Sphere));
    PrimitiveMesh m = build(PrimitiveKind::Sphere, with(PrimitiveKind::Sphere, {{701, 0}}));
    expectTurnedCopy(up, m);
    EXPECT_V3(position(m, 0), 0, 0, -50);
    EXPECT_V3(normal(m, 0), 0, 0, -1);
    expectBounds(m, {-50, -50, -50}, {50, 50, 50});
    expectWindingAgrees(m, 0);
}

// ---------------------------------------------------------------------------------------------
// Cylinder

TEST(AwdPrimitiveCylinder, DefaultTopBottomThenSide) {
    PrimitiveMesh m = build(PrimitiveKind::Cylinder, defaultParams(PrimitiveKind::Cylinder));
    expectCounts(m, 2 * 17 + 2 * 17 + 2 * 17, 16 + 16 + 2 * 16);
    expectBounds(m, {-50, -50, -50}, {50, 50, 50});
    // Top: centre and rim vertex in turn.
    EXPECT_V3(position(m, 0), 0, 50, 0);
    EXPECT_V3(normal(m, 0), 0, 1, 0);
    EXPECT_V3(tangent(m, 0), 1, 0, 0);
    EXPECT_UV(m, 0, 0.5, 0.5);
    EXPECT_V3(position(m, 1), 50, 50, 0);
    EXPECT_UV(m, 1, 0, 0.5);  // the top's UVs are mirrored in u
    EXPECT_V3(position(m, 9), 0, 50, 50);
    EXPECT_UV(m, 9, 0.5, 1);
    EXPECT_EQ(position(m, 33), position(m, 1));
    // Bottom.
    EXPECT_V3(position(m, 34), 0, -50, 0);
    EXPECT_V3(normal(m, 34), 0, -1, 0);
    EXPECT_V3(position(m, 35), 50, -50, 0);
    EXPECT_UV(m, 35, 1, 0.5);
    EXPECT_V3(position(m, 67), 50, -50, 0);
    // Side: ring at the top, then at the bottom.
    EXPECT_V3(position(m, 68), 50, 50, 0);
    EXPECT_V3(normal(m, 68), 1, 0, 0);
    EXPECT_UV(m, 68, 0, 0);
    EXPECT_V3(position(m, 68 + 4), 0, 50, 50);
    EXPECT_V3(normal(m, 68 + 4), 0, 0, 1);
    EXPECT_V3(position(m, 85), 50, -50, 0);
    EXPECT_UV(m, 85, 0, 1);
    EXPECT_UV(m, 101, 1, 1);

    expectTriangle(m, 0, 3, 1, 2);
    expectTriangle(m, 16, 36, 35, 37);
    expectTriangle(m, 32, 86, 85, 68);
    expectTriangle(m, 33, 86, 68, 69);
    expectWindingAgrees(m, 0);
    EXPECT_TRUE(nonUnitNormals(m).empty());
    expectUvsInUnitSquare(m);
    // Away3D's side tangent is (-sin a, 0, -cos a): along the rim only at multiples of 90 degrees.
    const double r = std::sqrt(0.5);
    EXPECT_V3(normal(m, 68 + 2), r, 0, r);
    EXPECT_V3(tangent(m, 68 + 2), -r, 0, -r);

    PrimitiveMesh fixed =
        build(PrimitiveKind::Cylinder, defaultParams(PrimitiveKind::Cylinder), PrimitiveNormals::Corrected);
    EXPECT_EQ(fixed.positions, m.positions);
    EXPECT_EQ(fixed.indices, m.indices);
    for (size_t v = 0; v < m.vertexCount(); ++v)
        EXPECT_V3(normal(fixed, v), normal(m, v)[0], normal(m, v)[1], normal(m, v)[2]);
    EXPECT_V3(tangent(fixed, 68 + 2), -r, 0, r);
    expectUnitNormalsAndTangents(fixed);
}

TEST(AwdPrimitiveCylinder, OpenAndClosedEnds) {
    PrimitiveMesh open = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{701, 0}, {702, 0}}));
    expectCounts(open, 2 * 17, 2 * 16);
    EXPECT_V3(position(open, 0), 50, 50, 0);
    EXPECT_UV(open, 0, 0, 0);
    expectBounds(open, {-50, -50, -50}, {50, 50, 50});
    expectWindingAgrees(open, 0);

    PrimitiveMesh topOnly = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{702, 0}}));
    expectCounts(topOnly, 4 * 17, 16 + 2 * 16);
    EXPECT_V3(position(topOnly, 34), 50, 50, 0);  // the side follows the top directly
    EXPECT_UV(topOnly, 34, 0, 0);
    expectWindingAgrees(topOnly, 0);

    PrimitiveMesh bottomOnly = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{701, 0}}));
    expectCounts(bottomOnly, 4 * 17, 16 + 2 * 16);
    EXPECT_V3(position(bottomOnly, 0), 0, -50, 0);
    EXPECT_UV(bottomOnly, 1, 1, 0.5);
    expectWindingAgrees(bottomOnly, 0);

    PrimitiveMesh capsOnly = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{704, 0}}));
    expectCounts(capsOnly, 4 * 17, 2 * 16);
    expectBounds(capsOnly, {-50, -50, -50}, {50, 50, 50});
    expectWindingAgrees(capsOnly, 0);
}

TEST(AwdPrimitiveCylinder, SegmentsAndRadii) {
    PrimitiveMesh m =
        build(PrimitiveKind::Cylinder,
              with(PrimitiveKind::Cylinder, {{101, 10}, {102, 30}, {103, 40}, {301, 6}, {302, 4}}));
    expectCounts(m, 5 * 7 + 2 * 7 + 2 * 7, 2 * 6 * 4 + 6 + 6);
    expectBounds(m, {-30, -20, -30 * std::sin(kPi / 3)}, {30, 20, 30 * std::sin(kPi / 3)});
    // Side ring 2 of 4: radius 20 at height 0.
    size_t ring2 = 4 * 7 + 2 * 7;
    EXPECT_V3(position(m, ring2), 20, 0, 0);
    EXPECT_UV(m, ring2 + 3, 0.5, 0.5);
    // Away3D's side normal for bottom - top = 20 over 40: elevation 0.5, radial part 2.
    EXPECT_V3(normal(m, ring2), 2, 0.5, 0);
    EXPECT_V3(tangent(m, ring2), 0, 0, -2);
    expectWindingAgrees(m, 0);

    PrimitiveMesh fixed =
        build(PrimitiveKind::Cylinder,
              with(PrimitiveKind::Cylinder, {{101, 10}, {102, 30}, {103, 40}, {301, 6}, {302, 4}}),
              PrimitiveNormals::Corrected);
    EXPECT_EQ(fixed.positions, m.positions);
    EXPECT_EQ(fixed.uvs, m.uvs);
    EXPECT_EQ(fixed.indices, m.indices);
    const double len = std::sqrt(40.0 * 40 + 20 * 20);
    EXPECT_V3(normal(fixed, ring2), 40 / len, 20 / len, 0);
    EXPECT_V3(tangent(fixed, ring2), 0, 0, 1);
    expectUnitNormalsAndTangents(fixed);
    expectWindingAgrees(fixed, 0);
    // The side's true normal is perpendicular to every side edge running down the wall.
    V3 edge = sub(position(m, ring2 + 7), position(m, ring2));
    EXPECT_NEAR(dot(edge, normal(fixed, ring2)), 0, 1e-4);
}

TEST(AwdPrimitiveCylinder, Away3DSideNormalsPointInWhenTheTopIsWider) {
    PrimitiveParams p = with(PrimitiveKind::Cylinder, {{101, 50}, {102, 25}});
    PrimitiveMesh m = build(PrimitiveKind::Cylinder, p);
    size_t side = 4 * 17;
    EXPECT_V3(normal(m, side), -4, -0.25, 0);
    Winding w = winding(m);
    EXPECT_EQ(w.disagreeing, 2u * 16);  // every side triangle

    PrimitiveMesh fixed = build(PrimitiveKind::Cylinder, p, PrimitiveNormals::Corrected);
    const double len = std::sqrt(100.0 * 100 + 25 * 25);
    EXPECT_V3(normal(fixed, side), 100 / len, -25 / len, 0);
    expectWindingAgrees(fixed, 0);
    expectUnitNormalsAndTangents(fixed);
}

TEST(AwdPrimitiveCylinder, YUpFalseTurnsTheAxisToMinusZ) {
    PrimitiveMesh up = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{302, 3}}));
    PrimitiveMesh m = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{302, 3}, {703, 0}}));
    // Away3D's seam normal keeps the yUp arrangement: (1, 0, sin 2 pi) instead of (1, sin 2 pi, 0).
    expectTurnedCopy(up, m, true, 1e-15);
    EXPECT_V3(position(m, 0), 0, 0, -50);
    EXPECT_V3(normal(m, 0), 0, 0, -1);
    EXPECT_V3(normal(m, 34), 0, 0, 1);
    expectWindingAgrees(m, 0);

    // With unequal radii Away3D's yUp = false side normals lean towards +z, the bottom, and the
    // seam keeps the yUp arrangement.
    PrimitiveParams p = with(PrimitiveKind::Cylinder, {{101, 25}, {703, 0}});
    PrimitiveMesh frustum = build(PrimitiveKind::Cylinder, p);
    size_t side = 4 * 17;
    EXPECT_V3(normal(frustum, side), 4, 0, 0.25);
    EXPECT_V3(normal(frustum, side + 16), 4, 0.25, 0);
    PrimitiveMesh fixed = build(PrimitiveKind::Cylinder, p, PrimitiveNormals::Corrected);
    PrimitiveMesh fixedUp = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{101, 25}}),
                                  PrimitiveNormals::Corrected);
    expectTurnedCopy(fixedUp, fixed);
    const double len = std::sqrt(100.0 * 100 + 25 * 25);
    EXPECT_V3(normal(fixed, side), 100 / len, 0, -25 / len);
    expectWindingAgrees(fixed, 0);
}

TEST(AwdPrimitiveCylinder, ClosedEndWithoutRadiusIsCountedButNotBuilt) {
    // Away3D counts the closed top, gives it UVs, but builds it only for a positive radius: the
    // counted vertices and triangles stay zero at the end and the UVs run ahead of the vertices.
    PrimitiveMesh m = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{101, 0}}));
    expectCounts(m, 3 * 34, 64);
    EXPECT_V3(position(m, 0), 0, -50, 0);  // the bottom comes first
    EXPECT_V3(position(m, 1), 50, -50, 0);
    EXPECT_UV(m, 1, 0, 0.5);               // ... with the top's UVs
    EXPECT_V3(position(m, 34), 0, 50, 0);  // the side's apex ring
    for (size_t v = 68; v < 102; ++v) {
        EXPECT_V3(position(m, v), 0, 0, 0);
        EXPECT_V3(normal(m, v), 0, 0, 0);
    }
    for (size_t t = 48; t < 64; ++t) expectTriangle(m, t, 0, 0, 0);
    Winding w = winding(m);
    EXPECT_EQ(w.disagreeing, 0u);
    EXPECT_EQ(w.degenerate, 16u + 16u);  // apex triangles and the unbuilt top

    PrimitiveMesh fixed = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{101, 0}}),
                                PrimitiveNormals::Corrected);
    EXPECT_EQ(fixed.positions, m.positions);
    EXPECT_EQ(fixed.uvs, m.uvs);
    expectUnitNormalsAndTangents(fixed);
}

// ---------------------------------------------------------------------------------------------
// Cone

TEST(AwdPrimitiveCone, DefaultIsACylinderWithoutTop) {
    PrimitiveMesh m = build(PrimitiveKind::Cone, defaultParams(PrimitiveKind::Cone));
    expectCounts(m, 2 * 17 + 2 * 17, 16 + 2 * 16);
    expectBounds(m, {-50, -50, -50}, {50, 50, 50});
    EXPECT_V3(position(m, 0), 0, -50, 0);
    EXPECT_V3(normal(m, 0), 0, -1, 0);
    EXPECT_UV(m, 1, 1, 0.5);
    for (size_t v = 34; v < 51; ++v) EXPECT_V3(position(m, v), 0, 50, 0);  // the apex ring
    EXPECT_V3(position(m, 51), 50, -50, 0);
    EXPECT_UV(m, 51, 0, 1);
    // Away3D's side normal: (2 cos, 0.5, 2 sin), not unit, leaning less than the true (cos, 0.5, sin).
    EXPECT_V3(normal(m, 51), 2, 0.5, 0);
    EXPECT_V3(normal(m, 51 + 4), 0, 0.5, 2);
    EXPECT_EQ(nonUnitNormals(m).size(), 34u);
    // Each side quad's second triangle has both apex corners: 16 degenerate triangles.
    expectWindingAgrees(m, 16);

    PrimitiveMesh fixed =
        build(PrimitiveKind::Cone, defaultParams(PrimitiveKind::Cone), PrimitiveNormals::Corrected);
    EXPECT_EQ(fixed.positions, m.positions);
    EXPECT_EQ(fixed.uvs, m.uvs);
    EXPECT_EQ(fixed.indices, m.indices);
    EXPECT_V3(normal(fixed, 51), 2 / std::sqrt(5.0), 1 / std::sqrt(5.0), 0);
    expectUnitNormalsAndTangents(fixed);
    expectWindingAgrees(fixed, 16);
}

TEST(AwdPrimitiveCone, OpenBaseAndOtherParameters) {
    PrimitiveMesh open = build(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{701, 0}}));
    expectCounts(open, 2 * 17, 2 * 16);
    EXPECT_V3(position(open, 0), 0, 50, 0);

    PrimitiveMesh m =
        build(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{101, 10}, {102, 5}, {301, 8}, {302, 3}}));
    expectCounts(m, 2 * 9 + 4 * 9, 8 + 2 * 8 * 3);
    expectBounds(m, {-10, -2.5, -10}, {10, 2.5, 10});

    PrimitiveMesh up = build(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{101, 10}, {102, 5}, {301, 8}}));
    PrimitiveMesh turned =
        build(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{101, 10}, {102, 5}, {301, 8}, {702, 0}}));
    expectTurnedCopy(up, turned, /*checkNormals=*/false);  // Away3D's side normals do not turn
    EXPECT_V3(position(turned, 0), 0, 0, 2.5);
    EXPECT_V3(normal(turned, 0), 0, 0, 1);
    PrimitiveMesh fixedUp =
        build(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{101, 10}, {102, 5}, {301, 8}}),
              PrimitiveNormals::Corrected);
    PrimitiveMesh fixedTurned =
        build(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{101, 10}, {102, 5}, {301, 8}, {702, 0}}),
              PrimitiveNormals::Corrected);
    expectTurnedCopy(fixedUp, fixedTurned);
    expectWindingAgrees(fixedTurned, 8);
}

// ---------------------------------------------------------------------------------------------
// Capsule

TEST(AwdPrimitiveCapsule, DefaultIsASphereSplitByTheHeight) {
    PrimitiveMesh m = build(PrimitiveKind::Capsule, defaultParams(PrimitiveKind::Capsule));
    expectCounts(m, 16 * 17, 2 * 16 * 14);
    Box box = bounds(m);
    EXPECT_NEAR(box.min[1], -100, 1e-4);
    EXPECT_NEAR(box.max[1], 100, 1e-4);
    const double widest = 50 * std::sin(7 * kPi / 15);
    EXPECT_NEAR(box.max[0], widest, 1e-4);
    EXPECT_NEAR(box.min[0], -widest, 1e-3);
    EXPECT_V3(position(m, 0), 0, 100, 0);
    EXPECT_V3(normal(m, 0), 0, 1, 0);
    // Rings 0-7 belong to the upper half (moved up 50), 8-15 to the lower one.
    const double c7 = std::cos(7 * kPi / 15);
    EXPECT_V3(position(m, 7 * 17), widest, 50 * c7 + 50, 0);
    EXPECT_V3(position(m, 8 * 17), widest, -50 * c7 - 50, 0);
    EXPECT_V3(normal(m, 8 * 17), widest / 50, -c7, 0);
    EXPECT_V3(position(m, 15 * 17 + 5), 0, -100, 0);
    EXPECT_UV(m, 8 * 17 + 4, 0.25, 8.0 / 15);
    expectTriangle(m, 0, 18, 17, 0);
    // Its seam averages normals and tangents: all unit.
    EXPECT_TRUE(nonUnitNormals(m).empty());
    expectUnitNormalsAndTangents(m);
    expectWindingAgrees(m, 0);
    expectUvsInUnitSquare(m);
}

TEST(AwdPrimitiveCapsule, EvenSegmentsHBecomeOdd) {
    PrimitiveMesh m = build(PrimitiveKind::Capsule, with(PrimitiveKind::Capsule, {{302, 4}}));
    expectCounts(m, 6 * 17, 2 * 16 * 4);
    PrimitiveMesh three = build(PrimitiveKind::Capsule, with(PrimitiveKind::Capsule, {{302, 2}, {301, 5}}));
    expectCounts(three, 4 * 6, 2 * 5 * 2);
    expectWindingAgrees(three, 0);

    PrimitiveMesh small = build(PrimitiveKind::Capsule,
                                with(PrimitiveKind::Capsule, {{101, 1}, {102, 10}, {301, 8}, {302, 9}}));
    expectCounts(small, 10 * 9, 2 * 8 * 8);
    Box box = bounds(small);
    EXPECT_NEAR(box.min[1], -6, 1e-5);
    EXPECT_NEAR(box.max[1], 6, 1e-5);
}

TEST(AwdPrimitiveCapsule, YUpFalse) {
    PrimitiveMesh up = build(PrimitiveKind::Capsule, defaultParams(PrimitiveKind::Capsule));
    PrimitiveMesh m = build(PrimitiveKind::Capsule, with(PrimitiveKind::Capsule, {{701, 0}}));
    expectTurnedCopy(up, m);
    EXPECT_V3(position(m, 0), 0, 0, -100);
    expectWindingAgrees(m, 0);
}

// ---------------------------------------------------------------------------------------------
// Torus

TEST(AwdPrimitiveTorus, DefaultRingsAroundTheTube) {
    PrimitiveMesh m = build(PrimitiveKind::Torus, defaultParams(PrimitiveKind::Torus));
    expectCounts(m, 9 * 17, 2 * 16 * 8);
    expectBounds(m, {-100, -50, -100}, {100, 50, 100});
    EXPECT_V3(position(m, 0), 100, 0, 0);
    EXPECT_V3(normal(m, 0), 1, 0, 0);
    EXPECT_V3(tangent(m, 0), 0, 0, 1);
    EXPECT_UV(m, 0, 0, 0);
    EXPECT_V3(position(m, 4), 0, 0, 100);
    EXPECT_V3(tangent(m, 4), -1, 0, 0);
    // A quarter turn round the tube goes down (Away3D's -z becomes -y).
    EXPECT_V3(position(m, 2 * 17), 50, -50, 0);
    EXPECT_V3(normal(m, 2 * 17), 0, -1, 0);
    EXPECT_UV(m, 2 * 17 + 8, 0.5, 0.25);
    // The inner equator of this horn torus meets at the centre.
    EXPECT_V3(position(m, 4 * 17 + 3), 0, 0, 0);
    EXPECT_EQ(position(m, 8 * 17), position(m, 0));
    EXPECT_EQ(position(m, 16), position(m, 0));
    expectTriangle(m, 0, 18, 17, 0);
    expectTriangle(m, 1, 18, 0, 1);
    expectUnitNormalsAndTangents(m);
    // Triangles touching the centre ring from ring 3 and ring 5 have two corners there.
    expectWindingAgrees(m, 32);
    expectUvsInUnitSquare(m);
}

TEST(AwdPrimitiveTorus, OtherParametersAndYUpFalse) {
    PrimitiveParams p = with(PrimitiveKind::Torus, {{101, 100}, {102, 10}, {301, 32}, {302, 12}});
    PrimitiveMesh m = build(PrimitiveKind::Torus, p);
    expectCounts(m, 13 * 33, 2 * 12 * 32);
    expectBounds(m, {-110, -10, -110}, {110, 10, 110});
    for (size_t v = 0; v < m.vertexCount(); ++v) {
        V3 q = position(m, v);
        double ring = std::sqrt(q[0] * q[0] + q[2] * q[2]) - 100;
        ASSERT_NEAR(std::sqrt(ring * ring + q[1] * q[1]), 10, 1e-4) << v;
    }
    expectWindingAgrees(m, 0);
    expectUnitNormalsAndTangents(m);

    p.yUp = false;
    PrimitiveMesh turned = build(PrimitiveKind::Torus, p);
    expectTurnedCopy(m, turned);
    expectBounds(turned, {-110, -110, -10}, {110, 110, 10});
}

// ---------------------------------------------------------------------------------------------
// Every kind

TEST(AwdPrimitives, DefaultsOfEveryKind) {
    struct Expected {
        PrimitiveKind kind;
        size_t vertices, triangles;
    };
    const Expected expected[] = {
        {PrimitiveKind::Plane, 4, 2},       {PrimitiveKind::Cube, 24, 12}, {PrimitiveKind::Sphere, 221, 352},
        {PrimitiveKind::Cylinder, 102, 64}, {PrimitiveKind::Cone, 68, 48}, {PrimitiveKind::Capsule, 272, 448},
        {PrimitiveKind::Torus, 153, 256},
    };
    for (const Expected& e : expected) {
        SCOPED_TRACE(primitiveKindName(e.kind));
        PrimitiveMesh away = build(e.kind, defaultParams(e.kind));
        expectCounts(away, e.vertices, e.triangles);
        expectUvsInUnitSquare(away);
        PrimitiveMesh fixed = build(e.kind, defaultParams(e.kind), PrimitiveNormals::Corrected);
        EXPECT_EQ(fixed.positions, away.positions);
        EXPECT_EQ(fixed.uvs, away.uvs);
        EXPECT_EQ(fixed.indices, away.indices);
        expectUnitNormalsAndTangents(fixed);
        EXPECT_EQ(winding(fixed).disagreeing, 0u);
        EXPECT_EQ(winding(away).disagreeing, 0u);
    }
    PrimitiveParams sphere = defaultParams(PrimitiveKind::Sphere);
    EXPECT_EQ(sphere.radius, 50);
    EXPECT_EQ(sphere.segmentsW, 16u);
    EXPECT_EQ(sphere.segmentsH, 12u);
    EXPECT_TRUE(sphere.yUp);
    PrimitiveParams torus = defaultParams(PrimitiveKind::Torus);
    EXPECT_EQ(torus.tubeRadius, 50);
    EXPECT_EQ(torus.segmentsR, 16u);
    EXPECT_EQ(torus.segmentsT, 8u);
    PrimitiveParams cube = defaultParams(PrimitiveKind::Cube);
    EXPECT_TRUE(cube.tile6);
    EXPECT_EQ(cube.depth, 100);
    PrimitiveParams plane = defaultParams(PrimitiveKind::Plane);
    EXPECT_FALSE(plane.doubleSided);
    PrimitiveParams cylinder = defaultParams(PrimitiveKind::Cylinder);
    EXPECT_TRUE(cylinder.topClosed && cylinder.bottomClosed && cylinder.surfaceClosed);
}

TEST(AwdPrimitives, UvScale) {
    for (PrimitiveKind kind : kAllKinds) {
        SCOPED_TRACE(primitiveKindName(kind));
        PrimitiveMesh plain = build(kind, defaultParams(kind));
        PrimitiveMesh scaled = build(kind, with(kind, {{110, 2}, {111, 0.5}}));
        ASSERT_EQ(plain.uvs.size(), scaled.uvs.size());
        for (size_t k = 0; k < plain.uvs.size(); k += 2) {
            ASSERT_FLOAT_EQ(scaled.uvs[k], plain.uvs[k] * 2);
            ASSERT_FLOAT_EQ(scaled.uvs[k + 1], plain.uvs[k + 1] * 0.5f);
        }
        EXPECT_EQ(plain.positions, scaled.positions);
    }
}

TEST(AwdPrimitives, PropertyIds) {
    PrimitiveParams p = defaultParams(PrimitiveKind::Cylinder);
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 101, 1, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 102, 2, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 103, 3, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 301, 4, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 302, 5, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 701, 0, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 702, 0, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 703, 0, p));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cylinder, 704, 0, p));
    EXPECT_EQ(p.topRadius, 1);
    EXPECT_EQ(p.bottomRadius, 2);
    EXPECT_EQ(p.height, 3);
    EXPECT_EQ(p.segmentsW, 4u);
    EXPECT_EQ(p.segmentsH, 5u);
    EXPECT_FALSE(p.topClosed || p.bottomClosed || p.yUp || p.surfaceClosed);

    PrimitiveParams cone = defaultParams(PrimitiveKind::Cone);
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cone, 101, 7, cone));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cone, 102, 8, cone));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cone, 701, 0, cone));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cone, 702, 0, cone));
    EXPECT_EQ(cone.radius, 7);
    EXPECT_EQ(cone.height, 8);
    EXPECT_FALSE(cone.closed || cone.yUp);
    EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind::Cone, 103, 1, cone));
    EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind::Cone, 703, 1, cone));

    PrimitiveParams cube = defaultParams(PrimitiveKind::Cube);
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cube, 303, 6, cube));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Cube, 701, 0, cube));
    EXPECT_EQ(cube.segmentsD, 6u);
    EXPECT_FALSE(cube.tile6);
    EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind::Cube, 702, 1, cube));  // no doubleSided on a cube

    PrimitiveParams plane = defaultParams(PrimitiveKind::Plane);
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Plane, 702, 1, plane));
    EXPECT_TRUE(plane.doubleSided);
    EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind::Plane, 103, 1, plane));
    EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind::Plane, 303, 1, plane));

    PrimitiveParams torus = defaultParams(PrimitiveKind::Torus);
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Torus, 102, 3, torus));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Torus, 301, 20, torus));
    EXPECT_TRUE(setPrimitiveProperty(PrimitiveKind::Torus, 302, 10, torus));
    EXPECT_EQ(torus.tubeRadius, 3);
    EXPECT_EQ(torus.segmentsR, 20u);
    EXPECT_EQ(torus.segmentsT, 10u);

    PrimitiveParams sphere = defaultParams(PrimitiveKind::Sphere);
    const PrimitiveParams before = sphere;
    for (uint16_t id : {0, 1, 102, 103, 303, 702, 703, 704, 999})
        EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind::Sphere, id, 1, sphere)) << id;
    EXPECT_EQ(sphere.width, before.width);
    EXPECT_EQ(sphere.segmentsW, before.segmentsW);
    EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind(0), 101, 1, sphere));
    EXPECT_FALSE(setPrimitiveProperty(PrimitiveKind(9), 101, 1, sphere));

    for (PrimitiveKind kind : kAllKinds) {
        PrimitiveParams q = defaultParams(kind);
        EXPECT_TRUE(setPrimitiveProperty(kind, 110, 3, q));
        EXPECT_TRUE(setPrimitiveProperty(kind, 111, 4, q));
        EXPECT_EQ(q.scaleU, 3);
        EXPECT_EQ(q.scaleV, 4);
    }

    // Segment counts: truncated, saturated; booleans: non-zero.
    PrimitiveParams s = defaultParams(PrimitiveKind::Sphere);
    setPrimitiveProperty(PrimitiveKind::Sphere, 301, 3.9, s);
    EXPECT_EQ(s.segmentsW, 3u);
    setPrimitiveProperty(PrimitiveKind::Sphere, 301, -5, s);
    EXPECT_EQ(s.segmentsW, 0u);
    setPrimitiveProperty(PrimitiveKind::Sphere, 301, std::nan(""), s);
    EXPECT_EQ(s.segmentsW, 0u);
    setPrimitiveProperty(PrimitiveKind::Sphere, 301, 1e12, s);
    EXPECT_EQ(s.segmentsW, std::numeric_limits<uint32_t>::max());
    setPrimitiveProperty(PrimitiveKind::Sphere, 701, 2, s);
    EXPECT_TRUE(s.yUp);
    setPrimitiveProperty(PrimitiveKind::Sphere, 701, 0, s);
    EXPECT_FALSE(s.yUp);
}

TEST(AwdPrimitives, KindIds) {
    PrimitiveKind kind = PrimitiveKind::Plane;
    EXPECT_FALSE(primitiveKindFromId(0, kind));
    EXPECT_FALSE(primitiveKindFromId(8, kind));
    EXPECT_FALSE(primitiveKindFromId(0x101, kind));
    EXPECT_TRUE(primitiveKindFromId(5, kind));
    EXPECT_EQ(kind, PrimitiveKind::Cone);
    EXPECT_TRUE(primitiveKindFromId(7, kind));
    EXPECT_EQ(kind, PrimitiveKind::Torus);
    EXPECT_STREQ(primitiveKindName(PrimitiveKind::Capsule), "capsule");
    EXPECT_STREQ(primitiveKindName(PrimitiveKind(42)), "unknown");
}

TEST(AwdPrimitives, Refusals) {
    EXPECT_EQ(refusal(PrimitiveKind(0), defaultParams(PrimitiveKind::Plane)), "unknown primitive type 0");
    EXPECT_EQ(refusal(PrimitiveKind(8), defaultParams(PrimitiveKind::Plane)), "unknown primitive type 8");

    // Zero segments (Away3D divides by them) and the kinds' minimums.
    EXPECT_EQ(refusal(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{301, 0}})),
              "plane segmentsW is 0; Away3D needs at least 1");
    refusal(PrimitiveKind::Cube, with(PrimitiveKind::Cube, {{303, 0}}));
    EXPECT_EQ(refusal(PrimitiveKind::Sphere, with(PrimitiveKind::Sphere, {{302, 1}})),
              "sphere segmentsH is 1; Away3D needs at least 2");
    refusal(PrimitiveKind::Capsule, with(PrimitiveKind::Capsule, {{302, 1}}));
    refusal(PrimitiveKind::Capsule, with(PrimitiveKind::Capsule, {{302, 0}}));
    refusal(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{301, 0}}));
    refusal(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{302, 0}}));
    refusal(PrimitiveKind::Torus, with(PrimitiveKind::Torus, {{302, 0}}));

    // Sizes that are not numbers, or absurd.
    EXPECT_EQ(refusal(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{101, std::nan("")}})),
              "plane width is not finite");
    refusal(PrimitiveKind::Cube, with(PrimitiveKind::Cube, {{103, std::numeric_limits<double>::infinity()}}));
    EXPECT_EQ(refusal(PrimitiveKind::Torus, with(PrimitiveKind::Torus, {{102, -1e300}})),
              "torus tubeRadius is beyond +-1e30");
    refusal(PrimitiveKind::Sphere, with(PrimitiveKind::Sphere, {{110, std::nan("")}}));
    refusal(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{102, 1e31}}));

    // Sizes for which Away3D computes no normals.
    EXPECT_EQ(refusal(PrimitiveKind::Sphere, with(PrimitiveKind::Sphere, {{101, 0}})),
              "sphere radius is 0, for which Away3D computes no normals");
    refusal(PrimitiveKind::Capsule, with(PrimitiveKind::Capsule, {{101, 0}}));
    refusal(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{103, 0}}));
    refusal(PrimitiveKind::Cone, with(PrimitiveKind::Cone, {{102, 0}}));
    // ... but a cylinder of no height without its side is only its two caps.
    PrimitiveMesh caps = build(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{103, 0}, {704, 0}}));
    expectCounts(caps, 4 * 17, 32);
}

TEST(AwdPrimitives, SegmentCountsAreCapped) {
    // uint16 segment counts from a file: 65535 x 65535 would be 4.3e9 vertices.
    EXPECT_EQ(refusal(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{301, 65535}, {302, 65535}})),
              "plane would have 4294967296 vertices, more than the limit of " +
                  std::to_string(kMaxPrimitiveVertices));
    refusal(PrimitiveKind::Cube, with(PrimitiveKind::Cube, {{301, 65535}, {302, 65535}, {303, 65535}}));
    refusal(PrimitiveKind::Sphere, with(PrimitiveKind::Sphere, {{301, 2000}, {302, 2000}}));
    refusal(PrimitiveKind::Cylinder, with(PrimitiveKind::Cylinder, {{301, 65535}, {302, 65535}}));
    refusal(PrimitiveKind::Torus, with(PrimitiveKind::Torus, {{301, 65535}, {302, 65535}}));
    refusal(PrimitiveKind::Capsule, with(PrimitiveKind::Capsule, {{301, 65535}, {302, 65535}}));
    // Counts beyond 32 bits on their own.
    PrimitiveParams huge = defaultParams(PrimitiveKind::Plane);
    huge.segmentsW = std::numeric_limits<uint32_t>::max();
    EXPECT_EQ(refusal(PrimitiveKind::Plane, huge), "plane segmentsW is 4294967295, more than the limit of " +
                                                       std::to_string(kMaxPrimitiveVertices));
    huge = defaultParams(PrimitiveKind::Cube);
    huge.segmentsW = huge.segmentsH = huge.segmentsD = kMaxPrimitiveVertices;
    refusal(PrimitiveKind::Cube, huge);
    // A doubled plane counts its back.
    PrimitiveParams doubled = with(PrimitiveKind::Plane, {{301, 1023}, {302, 1023}});
    build(PrimitiveKind::Plane, doubled);
    doubled.doubleSided = true;
    build(PrimitiveKind::Plane, doubled);
    doubled.segmentsW = 1024;
    refusal(PrimitiveKind::Plane, doubled);
    // Just under the limit builds.
    PrimitiveMesh big = build(PrimitiveKind::Plane, with(PrimitiveKind::Plane, {{301, 2047}, {302, 1023}}));
    expectCounts(big, kMaxPrimitiveVertices, 2 * 2047 * 1023);
}

}  // namespace
}  // namespace esv::awd
