// Tessellation of AWD primitives following Away3D 4.1's buildGeometry/buildUVs. Each builder works
// in double precision (ActionScript Number) in the yUp orientation; the Emitter turns vertices
// into the yUp = false orientation where asked ((x, y, z) -> (x, z, -y), a rotation, which is what
// every Away3D primitive's yUp = false branch amounts to) and stores floats, as Stage3D's upload did.
#include "loaders/awd/awd_primitives.h"

#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>

namespace esv::awd {
namespace {

constexpr double kPi = 3.141592653589793;  // ActionScript Math.PI
constexpr double kMaxMagnitude = 1e30;     // keeps every generated coordinate finite in float
// Away3D's threshold below which a ring is treated as a pole point when deriving tangents.
constexpr double kPoleTangentEpsilon = .007;

struct D3 {
    double x, y, z;
};

D3 operator+(const D3& a, const D3& b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
D3 scaled(const D3& a, double s) {
    return {a.x * s, a.y * s, a.z * s};
}

// What one build needs beyond the parameters: counts, resolved segments, the cylinder shape a cone
// stands for.
struct Plan {
    uint64_t vertices = 0;
    uint64_t triangles = 0;
    uint32_t segmentsH = 0;  // capsule: made odd as Away3D does
    // Cylinder and cone.
    double topRadius = 0, bottomRadius = 0, height = 0;
    bool topClosed = false, bottomClosed = false, surfaceClosed = false;
};

// Writes vertex attributes one vertex after another into preallocated (zeroed) arrays.
class Emitter {
public:
    Emitter(PrimitiveMesh& mesh, bool yUp) : m_mesh(mesh), m_yUp(yUp) {}

    uint32_t next() const { return m_next; }
    uint32_t capacity() const { return uint32_t(m_mesh.positions.size() / 3); }

    void vertex(const D3& position, const D3& normal, const D3& tangent) {
        assert((m_next + 1) * size_t(3) <= m_mesh.positions.size());
        store(m_mesh.positions, position);
        store(m_mesh.normals, normal);
        store(m_mesh.tangents, tangent);
        ++m_next;
    }

    // Overwrites the position of an already written vertex.
    void setPosition(uint32_t vertex, const D3& position) {
        uint32_t saved = m_next;
        m_next = vertex;
        store(m_mesh.positions, position);
        m_next = saved;
    }

private:
    void store(std::vector<float>& array, const D3& v) const {
        float* out = &array[size_t(m_next) * 3];
        out[0] = float(v.x);
        if (m_yUp) {
            out[1] = float(v.y);
            out[2] = float(v.z);
        } else {
            out[1] = float(v.z);
            out[2] = float(-v.y + 0.0);  // + 0.0: no negative zeros where Away3D writes 0
        }
    }

    PrimitiveMesh& m_mesh;
    bool m_yUp;
    uint32_t m_next = 0;
};

class UvWriter {
public:
    UvWriter(std::vector<float>& uvs, double scaleU, double scaleV)
        : m_uvs(uvs), m_su(scaleU), m_sv(scaleV) {}
    void uv(double u, double v) {
        assert(m_next + 2 <= m_uvs.size());
        m_uvs[m_next++] = float(u * m_su);
        m_uvs[m_next++] = float(v * m_sv);
    }

private:
    std::vector<float>& m_uvs;
    double m_su, m_sv;
    size_t m_next = 0;
};

void triangle(std::vector<uint32_t>& indices, uint32_t a, uint32_t b, uint32_t c) {
    indices.push_back(a);
    indices.push_back(b);
    indices.push_back(c);
}

// ---------------------------------------------------------------------------------------------
// Validation and counts

bool checkSize(const char* kind, const char* name, double value, std::string& error) {
    if (std::isfinite(value) && std::fabs(value) <= kMaxMagnitude) return true;
    error = std::string(kind) + " " + name + " is " + (std::isfinite(value) ? "beyond +-1e30" : "not finite");
    return false;
}

bool checkSegments(const char* kind, const char* name, uint32_t value, uint32_t minimum, std::string& error) {
    if (value < minimum) {
        error = std::string(kind) + " " + name + " is " + std::to_string(value) + "; Away3D needs at least " +
                std::to_string(minimum);
        return false;
    }
    if (value > kMaxPrimitiveVertices) {
        error = std::string(kind) + " " + name + " is " + std::to_string(value) +
                ", more than the limit of " + std::to_string(kMaxPrimitiveVertices);
        return false;
    }
    return true;
}

bool plan(PrimitiveKind kind, const PrimitiveParams& p, Plan& plan, std::string& error) {
    const char* name = primitiveKindName(kind);
    if (!checkSize(name, "scaleU", p.scaleU, error) || !checkSize(name, "scaleV", p.scaleV, error))
        return false;
    // Every count below is a product of at most three factors of at most 2^21 + 1: no overflow.
    const uint64_t w = p.segmentsW, h = p.segmentsH, d = p.segmentsD;
    switch (kind) {
        case PrimitiveKind::Plane: {
            if (!checkSize(name, "width", p.width, error) || !checkSize(name, "height", p.height, error) ||
                !checkSegments(name, "segmentsW", p.segmentsW, 1, error) ||
                !checkSegments(name, "segmentsH", p.segmentsH, 1, error))
                return false;
            uint64_t sides = p.doubleSided ? 2 : 1;
            plan.vertices = (h + 1) * (w + 1) * sides;
            plan.triangles = 2 * w * h * sides;
            break;
        }
        case PrimitiveKind::Cube:
            if (!checkSize(name, "width", p.width, error) || !checkSize(name, "height", p.height, error) ||
                !checkSize(name, "depth", p.depth, error) ||
                !checkSegments(name, "segmentsW", p.segmentsW, 1, error) ||
                !checkSegments(name, "segmentsH", p.segmentsH, 1, error) ||
                !checkSegments(name, "segmentsD", p.segmentsD, 1, error))
                return false;
            plan.vertices = 2 * ((w + 1) * (h + 1) + (w + 1) * (d + 1) + (h + 1) * (d + 1));
            plan.triangles = 4 * (w * h + w * d + h * d);
            break;
        case PrimitiveKind::Sphere:
        case PrimitiveKind::Capsule: {
            bool capsule = kind == PrimitiveKind::Capsule;
            if (!checkSize(name, "radius", p.radius, error) ||
                (capsule && !checkSize(name, "height", p.height, error)) ||
                !checkSegments(name, "segmentsW", p.segmentsW, 1, error) ||
                !checkSegments(name, "segmentsH", p.segmentsH, 2, error))
                return false;
            if (p.radius == 0) {
                error = std::string(name) + " radius is 0, for which Away3D computes no normals";
                return false;
            }
            // Away3D's capsule needs an odd segmentsH (an even one becomes the next odd number).
            uint64_t rings = capsule && h % 2 == 0 ? h + 1 : h;
            plan.segmentsH = uint32_t(rings);
            plan.vertices = (rings + 1) * (w + 1);
            plan.triangles = 2 * w * (rings - 1);
            break;
        }
        case PrimitiveKind::Cylinder:
        case PrimitiveKind::Cone: {
            bool cone = kind == PrimitiveKind::Cone;
            if (cone) {
                if (!checkSize(name, "radius", p.radius, error)) return false;
                // ConeGeometry is a CylinderGeometry with no top radius and an open top.
                plan.topRadius = 0;
                plan.bottomRadius = p.radius;
                plan.topClosed = false;
                plan.bottomClosed = p.closed;
                plan.surfaceClosed = true;
            } else {
                if (!checkSize(name, "topRadius", p.topRadius, error) ||
                    !checkSize(name, "bottomRadius", p.bottomRadius, error))
                    return false;
                plan.topRadius = p.topRadius;
                plan.bottomRadius = p.bottomRadius;
                plan.topClosed = p.topClosed;
                plan.bottomClosed = p.bottomClosed;
                plan.surfaceClosed = p.surfaceClosed;
            }
            plan.height = p.height;
            if (!checkSize(name, "height", p.height, error) ||
                !checkSegments(name, "segmentsW", p.segmentsW, 1, error) ||
                !checkSegments(name, "segmentsH", p.segmentsH, 1, error))
                return false;
            if (plan.surfaceClosed && p.height == 0) {
                error = std::string(name) + " height is 0, for which Away3D computes no side normals";
                return false;
            }
            if (plan.surfaceClosed) {
                plan.vertices += (h + 1) * (w + 1);
                plan.triangles += 2 * w * h;
            }
            if (plan.topClosed) {
                plan.vertices += 2 * (w + 1);
                plan.triangles += w;
            }
            if (plan.bottomClosed) {
                plan.vertices += 2 * (w + 1);
                plan.triangles += w;
            }
            break;
        }
        case PrimitiveKind::Torus: {
            if (!checkSize(name, "radius", p.radius, error) ||
                !checkSize(name, "tubeRadius", p.tubeRadius, error) ||
                !checkSegments(name, "segmentsR", p.segmentsR, 1, error) ||
                !checkSegments(name, "segmentsT", p.segmentsT, 1, error))
                return false;
            const uint64_t r = p.segmentsR, t = p.segmentsT;
            plan.vertices = (t + 1) * (r + 1);
            plan.triangles = 2 * t * r;
            break;
        }
        default:
            error = "unknown primitive type " + std::to_string(unsigned(kind));
            return false;
    }
    if (plan.vertices > kMaxPrimitiveVertices) {
        error = std::string(name) + " would have " + std::to_string(plan.vertices) +
                " vertices, more than the limit of " + std::to_string(kMaxPrimitiveVertices);
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// Builders (PlaneGeometry, CubeGeometry, SphereGeometry, CapsuleGeometry, CylinderGeometry,
// TorusGeometry of Away3D 4.1)

void buildPlane(const PrimitiveParams& p, Emitter& e, UvWriter& uv, std::vector<uint32_t>& indices) {
    const uint32_t sw = p.segmentsW, sh = p.segmentsH, tw = sw + 1;
    const uint32_t mult = p.doubleSided ? 2 : 1;
    for (uint32_t yi = 0; yi <= sh; ++yi) {
        for (uint32_t xi = 0; xi <= sw; ++xi) {
            double x = (double(xi) / sw - .5) * p.width;
            double y = (double(yi) / sh - .5) * p.height;
            e.vertex({x, 0, y}, {0, 1, 0}, {1, 0, 0});
            // The back side: same position, normal and tangent reversed.
            if (p.doubleSided) e.vertex({x, 0, y}, {0, -1, 0}, {-1, 0, 0});
            if (xi != sw && yi != sh) {
                uint32_t base = xi + yi * tw;
                triangle(indices, base * mult, (base + tw) * mult, (base + tw + 1) * mult);
                triangle(indices, base * mult, (base + tw + 1) * mult, (base + 1) * mult);
                if (p.doubleSided) {
                    triangle(indices, (base + tw + 1) * mult + 1, (base + tw) * mult + 1, base * mult + 1);
                    triangle(indices, (base + 1) * mult + 1, (base + tw + 1) * mult + 1, base * mult + 1);
                }
            }
        }
    }
    for (uint32_t yi = 0; yi <= sh; ++yi) {
        for (uint32_t xi = 0; xi <= sw; ++xi) {
            double u = double(xi) / sw, v = 1 - double(yi) / sh;
            uv.uv(u, v);
            if (p.doubleSided) uv.uv(u, v);
        }
    }
}

// Two quads per grid cell of a pair of opposite faces whose vertices were written interleaved
// (face 0, face 1, face 0, ...); first is the index of the pair's first vertex.
void cubeFacePairIndices(std::vector<uint32_t>& indices, uint32_t first, uint32_t i, uint32_t j,
                         uint32_t rows) {
    uint32_t tl = first + 2 * ((i - 1) * (rows + 1) + (j - 1));
    uint32_t tr = first + 2 * (i * (rows + 1) + (j - 1));
    uint32_t bl = tl + 2, br = tr + 2;
    triangle(indices, tl, bl, br);
    triangle(indices, tl, br, tr);
    triangle(indices, tr + 1, br + 1, bl + 1);
    triangle(indices, tr + 1, bl + 1, tl + 1);
}

void buildCube(const PrimitiveParams& p, Emitter& e, UvWriter& uv, std::vector<uint32_t>& indices) {
    const uint32_t sw = p.segmentsW, sh = p.segmentsH, sd = p.segmentsD;
    const double hw = p.width / 2, hh = p.height / 2, hd = p.depth / 2;
    const double dw = p.width / sw, dh = p.height / sh, dd = p.depth / sd;

    uint32_t first = e.next();
    for (uint32_t i = 0; i <= sw; ++i) {
        double outer = -hw + i * dw;
        for (uint32_t j = 0; j <= sh; ++j) {
            double y = -hh + j * dh;
            e.vertex({outer, y, -hd}, {0, 0, -1}, {1, 0, 0});  // front
            e.vertex({outer, y, hd}, {0, 0, 1}, {-1, 0, 0});   // back
            if (i && j) cubeFacePairIndices(indices, first, i, j, sh);
        }
    }
    first = e.next();
    for (uint32_t i = 0; i <= sw; ++i) {
        double outer = -hw + i * dw;
        for (uint32_t j = 0; j <= sd; ++j) {
            double z = -hd + j * dd;
            e.vertex({outer, hh, z}, {0, 1, 0}, {1, 0, 0});    // top
            e.vertex({outer, -hh, z}, {0, -1, 0}, {1, 0, 0});  // bottom
            if (i && j) cubeFacePairIndices(indices, first, i, j, sd);
        }
    }
    first = e.next();
    for (uint32_t i = 0; i <= sd; ++i) {
        double outer = hd - i * dd;
        for (uint32_t j = 0; j <= sh; ++j) {
            double y = -hh + j * dh;
            e.vertex({-hw, y, outer}, {-1, 0, 0}, {0, 0, -1});  // left
            e.vertex({hw, y, outer}, {1, 0, 0}, {0, 0, 1});     // right
            if (i && j) cubeFacePairIndices(indices, first, i, j, sh);
        }
    }

    // With tile6 the texture is a 3 x 2 grid; in image rows (v grows downwards) the faces are
    // bottom, top, back over left, front, right. Each pair's second face runs mirrored.
    const double uTile = p.tile6 ? 1.0 / 3 : 1, vTile = p.tile6 ? 1.0 / 2 : 1;
    const double uStep = p.tile6 ? 1.0 / 3 : 0, vStep = p.tile6 ? 1.0 / 2 : 0;
    struct Pair {
        double u0, v0, u1, v1;  // corner of the first and the second face's tile
        uint32_t columns, rows;
        bool secondFlippedU, secondFlippedV;
    };
    const Pair pairs[3] = {
        {1 * uStep, 1 * vStep, 2 * uStep, 0 * vStep, sw, sh, true, true},    // front / back
        {1 * uStep, 0 * vStep, 0 * uStep, 0 * vStep, sw, sd, false, false},  // top / bottom
        {0 * uStep, 1 * vStep, 2 * uStep, 1 * vStep, sd, sh, true, true},    // left / right
    };
    for (const Pair& pair : pairs) {
        double du = uTile / pair.columns, dv = vTile / pair.rows;
        for (uint32_t i = 0; i <= pair.columns; ++i) {
            for (uint32_t j = 0; j <= pair.rows; ++j) {
                uv.uv(pair.u0 + i * du, pair.v0 + (vTile - j * dv));
                uv.uv(pair.u1 + (pair.secondFlippedU ? uTile - i * du : i * du),
                      pair.v1 + (pair.secondFlippedV ? vTile - j * dv : j * dv));
            }
        }
    }
}

// SphereGeometry, and CapsuleGeometry (a sphere whose two halves are pulled apart by height).
void buildSphereOrCapsule(const PrimitiveParams& p, const Plan& plan, bool capsule, Emitter& e, UvWriter& uv,
                          std::vector<uint32_t>& indices) {
    const uint32_t sw = p.segmentsW, sh = plan.segmentsH;
    const double r = p.radius;
    for (uint32_t j = 0; j <= sh; ++j) {
        double horAngle = kPi * j / sh;
        double z = -r * std::cos(horAngle);
        double ringRadius = r * std::sin(horAngle);
        double offset = capsule ? (j > sh / 2.0 ? p.height / 2 : -p.height / 2) : 0;
        D3 startPosition{}, startNormal{}, startTangent{};
        for (uint32_t i = 0; i <= sw; ++i) {
            double verAngle = 2 * kPi * i / sw;
            double x = ringRadius * std::cos(verAngle);
            double y = ringRadius * std::sin(verAngle);
            double normLen = 1 / std::sqrt(x * x + y * y + z * z);
            double tanLen = std::sqrt(y * y + x * x);
            D3 normal{x * normLen, -z * normLen, y * normLen};
            D3 tangent{tanLen > kPoleTangentEpsilon ? -y / tanLen : 1, 0,
                       tanLen > kPoleTangentEpsilon ? x / tanLen : 0};
            if (i == sw) {
                // The seam repeats the ring's first position. Away3D's sphere adds half the seam
                // normal to the first normal (length 1.5); its capsule averages normals and tangents.
                if (capsule) {
                    normal = scaled(startNormal + normal, .5);
                    tangent = scaled(startTangent + tangent, .5);
                } else {
                    normal = startNormal + scaled(normal, .5);
                }
                e.vertex(startPosition, normal, tangent);
            } else {
                D3 position{x, -z - offset, y};
                if (i == 0) {
                    startPosition = position;
                    startNormal = normal;
                    startTangent = tangent;
                }
                e.vertex(position, normal, tangent);
            }
            if (i > 0 && j > 0) {
                uint32_t a = (sw + 1) * j + i, b = a - 1;
                uint32_t c = (sw + 1) * (j - 1) + i - 1, d = c + 1;
                if (j == sh) {
                    // The last ring collapses onto its first vertex (the pole).
                    e.setPosition(a, startPosition);
                    triangle(indices, a, c, d);
                } else if (j == 1) {
                    triangle(indices, a, b, c);
                } else {
                    triangle(indices, a, b, c);
                    triangle(indices, a, c, d);
                }
            }
        }
    }
    for (uint32_t j = 0; j <= sh; ++j)
        for (uint32_t i = 0; i <= sw; ++i) uv.uv(double(i) / sw, double(j) / sh);
}

void buildCylinder(const PrimitiveParams& p, const Plan& plan, PrimitiveNormals normals, Emitter& e,
                   UvWriter& uv, std::vector<uint32_t>& indices) {
    const uint32_t sw = p.segmentsW, sh = p.segmentsH;
    const double height = plan.height, top = plan.topRadius, bottom = plan.bottomRadius;
    const double angleStep = 2 * kPi / sw;
    const bool corrected = normals == PrimitiveNormals::Corrected;

    // Caps are built only for a positive radius, though counted (and given UVs) whenever closed.
    if (plan.topClosed && top > 0) {
        const double z = -0.5 * height;
        D3 first{};
        for (uint32_t i = 0; i <= sw; ++i) {
            e.vertex({0, -z, 0}, {0, 1, 0}, {1, 0, 0});
            double angle = i * angleStep;
            D3 position{top * std::cos(angle), -z, top * std::sin(angle)};
            if (i == 0) first = position;
            e.vertex(i == sw ? first : position, {0, 1, 0}, {1, 0, 0});
            if (i > 0) triangle(indices, e.next() - 1, e.next() - 3, e.next() - 2);
        }
    }
    if (plan.bottomClosed && bottom > 0) {
        const double z = 0.5 * height;
        for (uint32_t i = 0; i <= sw; ++i) {
            e.vertex({0, -z, 0}, {0, -1, 0}, {1, 0, 0});
            double angle = i * angleStep;
            double x = bottom * std::cos(angle);
            e.vertex({x, -z, i == sw ? 0 : bottom * std::sin(angle)}, {0, -1, 0}, {1, 0, 0});
            if (i > 0) triangle(indices, e.next() - 2, e.next() - 3, e.next() - 1);
        }
    }

    if (plan.surfaceClosed) {
        // Away3D's side normal: a constant "elevation" dr / height and a radial part height / dr
        // (1 when the radii are equal), not normalised.
        const double dr = bottom - top;
        const double latNormElev = dr / height;
        const double latNormBase = latNormElev == 0 ? 1 : height / dr;
        const double trueLength = std::sqrt(height * height + dr * dr);
        for (uint32_t j = 0; j <= sh; ++j) {
            double radius = top - ((double(j) / sh) * (top - bottom));
            double z = -(height / 2) + (double(j) / sh * height);
            D3 start{};
            for (uint32_t i = 0; i <= sw; ++i) {
                double angle = i * angleStep;
                double c = std::cos(angle), s = std::sin(angle);
                D3 position{radius * c, -z, radius * s};
                double na0 = latNormBase * c, na1 = latNormBase * s;
                D3 normal, tangent;
                if (corrected) {
                    normal = {height * c / trueLength, dr / trueLength, height * s / trueLength};
                    tangent = {-s, 0, c};
                } else if (i == sw) {
                    // Away3D writes the seam's normal in the yUp arrangement whatever yUp is, and
                    // its tangent with the other sign of the (near zero) first component.
                    normal = p.yUp ? D3{na0, latNormElev, na1} : D3{na0, -na1, latNormElev};
                    tangent = {na1, 0, -na0};
                } else {
                    normal = {na0, p.yUp ? latNormElev : -latNormElev, na1};
                    tangent = {-na1, 0, -na0};
                }
                if (i == 0) start = position;
                e.vertex(i == sw ? start : position, normal, tangent);
                if (i > 0 && j > 0) {
                    uint32_t a = e.next() - 1, b = e.next() - 2;
                    uint32_t cc = b - sw - 1, d = a - sw - 1;
                    triangle(indices, a, b, cc);
                    triangle(indices, a, cc, d);
                }
            }
        }
    }
    // Counted cap vertices that were never built stay zero in Away3D; the corrected normals give
    // them an axis normal so every normal is unit length.
    if (corrected) {
        while (e.next() < e.capacity()) e.vertex({0, 0, 0}, {0, 1, 0}, {1, 0, 0});
    }

    if (plan.topClosed) {
        for (uint32_t i = 0; i <= sw; ++i) {
            double angle = i * angleStep;
            uv.uv(0.5, 0.5);
            uv.uv(0.5 + 0.5 * -std::cos(angle), 0.5 + 0.5 * std::sin(angle));
        }
    }
    if (plan.bottomClosed) {
        for (uint32_t i = 0; i <= sw; ++i) {
            double angle = i * angleStep;
            uv.uv(0.5, 0.5);
            uv.uv(0.5 + 0.5 * std::cos(angle), 0.5 + 0.5 * std::sin(angle));
        }
    }
    if (plan.surfaceClosed) {
        for (uint32_t j = 0; j <= sh; ++j)
            for (uint32_t i = 0; i <= sw; ++i) uv.uv(double(i) / sw, double(j) / sh);
    }
}

void buildTorus(const PrimitiveParams& p, Emitter& e, UvWriter& uv, std::vector<uint32_t>& indices) {
    const uint32_t sr = p.segmentsR, st = p.segmentsT;
    const double radius = p.radius, tube = p.tubeRadius;
    const double stepR = 2 * kPi / sr, stepT = 2 * kPi / st;
    for (uint32_t j = 0; j <= st; ++j) {
        D3 start{};
        for (uint32_t i = 0; i <= sr; ++i) {
            double angleR = i * stepR, angleT = j * stepT;
            double length = std::cos(angleT);
            double nx = length * std::cos(angleR), ny = length * std::sin(angleR), nz = std::sin(angleT);
            double x = radius * std::cos(angleR) + tube * nx;
            double y = radius * std::sin(angleR) + tube * ny;
            double z = j == st ? 0 : tube * nz;
            D3 tangent{-(length != 0 ? ny / length : y / radius), 0, length != 0 ? nx / length : x / radius};
            // The seam keeps its own x but the ring's first y and z.
            D3 position{x, i == sr ? start.y : -z, i == sr ? start.z : y};
            if (i == 0) start = position;
            e.vertex(position, {nx, -nz, ny}, tangent);
            if (i > 0 && j > 0) {
                uint32_t a = e.next() - 1, b = e.next() - 2;
                uint32_t c = b - sr - 1, d = a - sr - 1;
                triangle(indices, a, b, c);
                triangle(indices, a, c, d);
            }
        }
    }
    for (uint32_t j = 0; j <= st; ++j)
        for (uint32_t i = 0; i <= sr; ++i) uv.uv(double(i) / sr, double(j) / st);
}

void normalize(std::vector<float>& vectors, size_t vertex) {
    float* v = &vectors[vertex * 3];
    double length = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
    if (length > 0)
        for (int k = 0; k < 3; ++k) v[k] = float(v[k] / length);
}

// Saturating conversion of a property value to a segment count (AWD stores uint16).
uint32_t toSegments(double value) {
    if (!(value > 0)) return 0;
    if (value >= double(std::numeric_limits<uint32_t>::max())) return std::numeric_limits<uint32_t>::max();
    return uint32_t(value);
}

bool toBool(double value) {
    return value != 0 && !std::isnan(value);
}

// A field of PrimitiveParams; its C++ type says how a property value is stored into it: a size or
// scale as it is, a segment count through toSegments, a switch through toBool.
class Field {
public:
    constexpr Field(double PrimitiveParams::*number) : m_number(number) {}
    constexpr Field(uint32_t PrimitiveParams::*segments) : m_segments(segments) {}
    constexpr Field(bool PrimitiveParams::*flag) : m_flag(flag) {}

    void store(double value, PrimitiveParams& params) const {
        if (m_number)
            params.*m_number = value;
        else if (m_segments)
            params.*m_segments = toSegments(value);
        else
            params.*m_flag = toBool(value);
    }

private:
    double PrimitiveParams::*m_number = nullptr;
    uint32_t PrimitiveParams::*m_segments = nullptr;
    bool PrimitiveParams::*m_flag = nullptr;
};

// Stands for every kind in the property table (not a primitive type id: those start at 1).
constexpr PrimitiveKind kEveryKind = PrimitiveKind(0);

struct PrimitiveProperty {
    PrimitiveKind kind;
    uint16_t id;
    Field field;
    double defaultValue;  // Away3D's for that kind, as a property value (a switch is 1 or 0)
};

// The properties of each kind by the spec's ids (table 14), the field each sets and its default;
// 110 and 111 are not in the spec's tables but Away3D's AWD parser reads them for every kind.
using P = PrimitiveParams;
constexpr PrimitiveProperty kProperties[] = {
    {kEveryKind, 110, &P::scaleU, 1},
    {kEveryKind, 111, &P::scaleV, 1},

    {PrimitiveKind::Plane, 101, &P::width, 100},
    {PrimitiveKind::Plane, 102, &P::height, 100},
    {PrimitiveKind::Plane, 301, &P::segmentsW, 1},
    {PrimitiveKind::Plane, 302, &P::segmentsH, 1},
    {PrimitiveKind::Plane, 701, &P::yUp, 1},
    {PrimitiveKind::Plane, 702, &P::doubleSided, 0},

    {PrimitiveKind::Cube, 101, &P::width, 100},
    {PrimitiveKind::Cube, 102, &P::height, 100},
    {PrimitiveKind::Cube, 103, &P::depth, 100},
    {PrimitiveKind::Cube, 301, &P::segmentsW, 1},
    {PrimitiveKind::Cube, 302, &P::segmentsH, 1},
    {PrimitiveKind::Cube, 303, &P::segmentsD, 1},
    {PrimitiveKind::Cube, 701, &P::tile6, 1},

    {PrimitiveKind::Sphere, 101, &P::radius, 50},
    {PrimitiveKind::Sphere, 301, &P::segmentsW, 16},
    {PrimitiveKind::Sphere, 302, &P::segmentsH, 12},
    {PrimitiveKind::Sphere, 701, &P::yUp, 1},

    {PrimitiveKind::Cylinder, 101, &P::topRadius, 50},
    {PrimitiveKind::Cylinder, 102, &P::bottomRadius, 50},
    {PrimitiveKind::Cylinder, 103, &P::height, 100},
    {PrimitiveKind::Cylinder, 301, &P::segmentsW, 16},
    {PrimitiveKind::Cylinder, 302, &P::segmentsH, 1},
    {PrimitiveKind::Cylinder, 701, &P::topClosed, 1},
    {PrimitiveKind::Cylinder, 702, &P::bottomClosed, 1},
    {PrimitiveKind::Cylinder, 703, &P::yUp, 1},
    {PrimitiveKind::Cylinder, 704, &P::surfaceClosed, 1},

    {PrimitiveKind::Cone, 101, &P::radius, 50},
    {PrimitiveKind::Cone, 102, &P::height, 100},
    {PrimitiveKind::Cone, 301, &P::segmentsW, 16},
    {PrimitiveKind::Cone, 302, &P::segmentsH, 1},
    {PrimitiveKind::Cone, 701, &P::closed, 1},
    {PrimitiveKind::Cone, 702, &P::yUp, 1},

    {PrimitiveKind::Capsule, 101, &P::radius, 50},
    {PrimitiveKind::Capsule, 102, &P::height, 100},
    {PrimitiveKind::Capsule, 301, &P::segmentsW, 16},
    {PrimitiveKind::Capsule, 302, &P::segmentsH, 15},
    {PrimitiveKind::Capsule, 701, &P::yUp, 1},

    {PrimitiveKind::Torus, 101, &P::radius, 50},
    {PrimitiveKind::Torus, 102, &P::tubeRadius, 50},
    {PrimitiveKind::Torus, 301, &P::segmentsR, 16},
    {PrimitiveKind::Torus, 302, &P::segmentsT, 8},
    {PrimitiveKind::Torus, 701, &P::yUp, 1},
};

bool hasProperty(const PrimitiveProperty& property, PrimitiveKind kind) {
    return property.kind == kEveryKind || property.kind == kind;
}

}  // namespace

bool primitiveKindFromId(uint32_t typeId, PrimitiveKind& kind) {
    if (typeId < uint32_t(PrimitiveKind::Plane) || typeId > uint32_t(PrimitiveKind::Torus)) return false;
    kind = PrimitiveKind(typeId);
    return true;
}

const char* primitiveKindName(PrimitiveKind kind) {
    static constexpr const char* kNames[] = {"plane", "cube",    "sphere", "cylinder",
                                             "cone",  "capsule", "torus"};
    static_assert(std::size(kNames) == size_t(PrimitiveKind::Torus) - size_t(PrimitiveKind::Plane) + 1);
    const size_t index = size_t(kind) - size_t(PrimitiveKind::Plane);
    return index < std::size(kNames) ? kNames[index] : "unknown";
}

PrimitiveParams defaultParams(PrimitiveKind kind) {
    PrimitiveParams params;
    for (const PrimitiveProperty& property : kProperties)
        if (hasProperty(property, kind)) property.field.store(property.defaultValue, params);
    return params;
}

bool setPrimitiveProperty(PrimitiveKind kind, uint16_t propertyId, double value, PrimitiveParams& params) {
    for (const PrimitiveProperty& property : kProperties) {
        if (property.id == propertyId && hasProperty(property, kind)) {
            property.field.store(value, params);
            return true;
        }
    }
    return false;
}

bool buildPrimitive(PrimitiveKind kind, const PrimitiveParams& params, PrimitiveMesh& out, std::string& error,
                    PrimitiveNormals normals) {
    out = PrimitiveMesh{};
    Plan shape;
    if (!plan(kind, params, shape, error)) return false;

    const size_t vertices = size_t(shape.vertices);
    out.positions.assign(vertices * 3, 0.0f);
    out.normals.assign(vertices * 3, 0.0f);
    out.tangents.assign(vertices * 3, 0.0f);
    out.uvs.assign(vertices * 2, 0.0f);
    out.indices.reserve(size_t(shape.triangles) * 3);

    Emitter e(out, kind == PrimitiveKind::Cube || params.yUp);
    UvWriter uv(out.uvs, params.scaleU, params.scaleV);
    switch (kind) {
        case PrimitiveKind::Plane:
            buildPlane(params, e, uv, out.indices);
            break;
        case PrimitiveKind::Cube:
            buildCube(params, e, uv, out.indices);
            break;
        case PrimitiveKind::Sphere:
            buildSphereOrCapsule(params, shape, false, e, uv, out.indices);
            break;
        case PrimitiveKind::Capsule:
            buildSphereOrCapsule(params, shape, true, e, uv, out.indices);
            break;
        case PrimitiveKind::Cylinder:
        case PrimitiveKind::Cone:
            buildCylinder(params, shape, normals, e, uv, out.indices);
            break;
        case PrimitiveKind::Torus:
            buildTorus(params, e, uv, out.indices);
            break;
    }
    // Triangles counted for caps that were not built stay (0, 0, 0), as in Away3D's index buffer.
    assert(out.indices.size() <= size_t(shape.triangles) * 3);
    out.indices.resize(size_t(shape.triangles) * 3, 0);

    if (normals == PrimitiveNormals::Corrected) {
        for (size_t v = 0; v < vertices; ++v) {
            normalize(out.normals, v);
            normalize(out.tangents, v);
        }
    }
    return true;
}

}  // namespace esv::awd
