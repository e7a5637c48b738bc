// AWD PrimitiveGeometry (block type 11, AWD 2.1 spec "PrimitiveGeometry"): the seven parametric
// shapes, tessellated the way Away3D 4.1 builds them (away3d.primitives.*Geometry on
// CompactSubGeometry), so a preview shows the same vertices, triangles, UVs, normals and tangents
// the engine drew. Self-contained: no scene types, no file reading.
//
// Conventions kept from Away3D, not converted: positions in Away3D's own axes (left-handed, Y up
// unless yUp is false), UVs with v growing downwards in the image (Flash/Stage3D), and triangles
// listed so that (b - a) x (c - a), computed with the usual right-hand formula, points to the side
// the vertex normals face.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace esv::awd {

// Primitive type ids (spec table 14).
enum class PrimitiveKind : uint8_t { Plane = 1, Cube, Sphere, Cylinder, Cone, Capsule, Torus };

// Kind for a primitive type id read from a file; false for ids outside the spec's table.
bool primitiveKindFromId(uint32_t typeId, PrimitiveKind& kind);
// "plane", "cube", ... ("unknown" for values outside the enum).
const char* primitiveKindName(PrimitiveKind kind);

// Every property of every kind, named as in Away3D. A kind reads only its own fields (listed in
// setPrimitiveProperty); start from defaultParams(kind), which holds Away3D's defaults (the same as
// the spec's, and as Away3D's AWD parser uses for a property the block leaves out).
struct PrimitiveParams {
    double width = 100;         // plane, cube
    double height = 100;        // plane, cube, cylinder, cone, capsule
    double depth = 100;         // cube
    double radius = 50;         // sphere, cone (its base), capsule, torus
    double topRadius = 50;      // cylinder
    double bottomRadius = 50;   // cylinder
    double tubeRadius = 50;     // torus
    uint32_t segmentsW = 1;     // plane 1, cube 1, sphere 16, cylinder 16, cone 16, capsule 16
    uint32_t segmentsH = 1;     // plane 1, cube 1, sphere 12, cylinder 1, cone 1, capsule 15 (made odd)
    uint32_t segmentsD = 1;     // cube
    uint32_t segmentsR = 16;    // torus, around the ring
    uint32_t segmentsT = 8;     // torus, around the tube
    bool yUp = true;            // all but cube: false turns the shape so its axis is -Z
    bool doubleSided = false;   // plane: a second, reversed copy of every vertex and triangle
    bool tile6 = true;          // cube: the six faces on a 3 x 2 grid of the texture, else each whole
    bool topClosed = true;      // cylinder
    bool bottomClosed = true;   // cylinder
    bool surfaceClosed = true;  // cylinder: the side wall
    bool closed = true;         // cone: its base
    double scaleU = 1;  // all kinds: every UV multiplied by these (Away3D's parser, properties 110/111)
    double scaleV = 1;
};

// Away3D's defaults for one kind (the segment counts are the only defaults that differ by kind).
PrimitiveParams defaultParams(PrimitiveKind kind);

// Stores one numeric property of a PrimitiveGeometry block's property list into params, by the
// spec's ids for that kind:
//   plane    101 width, 102 height, 301 segmentsW, 302 segmentsH, 701 yUp, 702 doubleSided
//   cube     101 width, 102 height, 103 depth, 301 segmentsW, 302 segmentsH, 303 segmentsD, 701 tile6
//   sphere   101 radius, 301 segmentsW, 302 segmentsH, 701 yUp
//   cylinder 101 topRadius, 102 bottomRadius, 103 height, 301 segmentsW, 302 segmentsH,
//            701 topClosed, 702 bottomClosed, 703 yUp, 704 surfaceClosed (spec; Away3D 4.1's parser
//            ignores 704 and always builds the side)
//   cone     101 radius, 102 height, 301 segmentsW, 302 segmentsH, 701 closed, 702 yUp
//   capsule  101 radius, 102 height, 301 segmentsW, 302 segmentsH, 701 yUp
//   torus    101 radius, 102 tubeRadius, 301 segmentsR, 302 segmentsT, 701 yUp
//   all      110 scaleU, 111 scaleV (not in the spec's tables; Away3D's AWD parser reads them)
// Booleans are value != 0; segment counts are truncated towards zero and saturate at 0 and
// UINT32_MAX (buildPrimitive rejects what is out of range). Returns false, leaving params
// unchanged, for an id that kind does not have.
bool setPrimitiveProperty(PrimitiveKind kind, uint16_t propertyId, double value, PrimitiveParams& params);

// Vertex attributes as separate tightly packed float arrays, one entry per vertex, and a
// triangle list.
struct PrimitiveMesh {
    std::vector<float> positions;   // x, y, z
    std::vector<float> normals;     // x, y, z
    std::vector<float> tangents;    // x, y, z (Away3D's tangents carry no handedness sign)
    std::vector<float> uvs;         // u, v
    std::vector<uint32_t> indices;  // three per triangle

    size_t vertexCount() const { return positions.size() / 3; }
    size_t triangleCount() const { return indices.size() / 3; }
};

// Away3D 4.1 writes some normals and tangents that are not unit length or not perpendicular to
// the surface: a sphere's seam column has normals of length 1.5; a cylinder's or cone's side has
// normals of length sqrt(k^2 + 1/k^2) (k = (bottomRadius - topRadius) / height) that lean too
// little, point inwards when the top is wider than the bottom, and (with yUp false) lean the wrong
// way; its side tangents are (-sin a, 0, -cos a) times the same radial length, perpendicular to
// the side only at multiples of 90 degrees round it. Away3D used them as they are (its shaders
// normalise per fragment).
enum class PrimitiveNormals : uint8_t {
    Away3D,     // exactly what Away3D writes, quirks included
    Corrected,  // same positions, UVs and triangles; unit normals perpendicular to the surface,
                // facing as the triangles do, and unit tangents perpendicular to them
};

// Most vertices one primitive may have; larger requests are an error, so nothing is allocated from
// a file's segment counts without bound. (Away3D itself could not draw more than 65535 vertices in
// one primitive: Stage3D's vertex buffer limit.)
constexpr uint32_t kMaxPrimitiveVertices = 1u << 21;

// Builds the mesh of a primitive. The vertex and triangle counts, vertex order, positions, UVs,
// triangle order and winding are Away3D's, including its degenerate triangles (cone apex, sphere
// poles) and, for a cylinder whose top or bottom is closed but whose radius there is not positive,
// the vertices and triangles it counts but never fills (left zero at the end of the arrays; the
// UVs are then shifted against the vertices, as in Away3D). out is replaced. On failure returns
// false with one sentence in error and out empty: an unknown kind, a non-finite or absurd
// (beyond +-1e30) size or UV scale, a segment count of zero or below the kind's minimum (sphere
// segmentsH 2, capsule segmentsH 2), more than kMaxPrimitiveVertices vertices, or a size for which
// Away3D computes no normals at all (sphere or capsule radius 0, a cylinder or cone side of
// height 0).
bool buildPrimitive(PrimitiveKind kind, const PrimitiveParams& params, PrimitiveMesh& out, std::string& error,
                    PrimitiveNormals normals = PrimitiveNormals::Away3D);

}  // namespace esv::awd
