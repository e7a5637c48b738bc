// POF subobject BSP data: the linear op scan, the tree check and the drawable mesh
// (../shared/specs/pof-bsp-notes.md).
#include "loaders/pof/pof_bsp.h"

#include <cinttypes>
#include <cstddef>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <unordered_map>
#include <utility>

namespace esv::pof {

namespace {

// Fixed part of each op, in bytes (pof-bsp-notes.md, "Chunk (op) layout").
constexpr size_t kOpHeader = 8;
constexpr size_t kDefPointsFixed = 20;
constexpr size_t kFlatPolyFixed = 44;
constexpr size_t kTmapPolyFixed = 44;
constexpr size_t kTmap2PolyFixed = 52;
constexpr size_t kSortNormSize = 80;
constexpr size_t kSortNormSizeOld = 56;  // before version 2000: no bounding box
constexpr size_t kBoundBoxSize = 32;
constexpr size_t kSortNorm2Header = 40;
constexpr int32_t kVersionOps23 = 2300;
constexpr int32_t kVersionSortNormBox = 2000;
// Violations beyond this many are summed up in one line (errors always stop the scan first).
constexpr size_t kMaxViolations = 100;

int32_t loadI32(const uint8_t* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
uint32_t loadU32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
uint16_t loadU16(const uint8_t* p) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}
float loadF32(const uint8_t* p) {
    float v;
    std::memcpy(&v, p, 4);
    return v;
}
glm::vec3 loadVec(const uint8_t* p) {
    return {loadF32(p), loadF32(p + 4), loadF32(p + 8)};
}

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%" PRIX64, v);
    return buf;
}
std::string num(uint64_t v) {
    return std::to_string(v);
}

const char* opName(int32_t id) {
    switch (id) {
        case 0:
            return "EOF";
        case 1:
            return "DEFPOINTS";
        case 2:
            return "FLATPOLY";
        case 3:
            return "TMAPPOLY";
        case 4:
            return "SORTNORM";
        case 5:
            return "BOUNDBOX";
        case 6:
            return "TMAP2POLY";
        case 7:
            return "SORTNORM2";
        default:
            return "unknown op";
    }
}

class Decoder {
public:
    Decoder(const uint8_t* data, size_t size, uint64_t fileOffset, int32_t version, BspData& out,
            std::vector<BspProblem>& problems)
        : m_data(data),
          m_size(size),
          m_fileOffset(fileOffset),
          m_version(version),
          m_out(out),
          m_problems(problems) {}

    bool run() {
        m_opStart.assign(m_size, 0);
        if (!scan()) return false;
        if (!walkTree()) return false;
        if (m_skippedViolations)
            m_problems.push_back(
                {m_fileOffset, num(m_skippedViolations) + " more problems in this BSP data", false});
        return true;
    }

private:
    const uint8_t* m_data;
    size_t m_size;
    uint64_t m_fileOffset;
    int32_t m_version;
    BspData& m_out;
    std::vector<BspProblem>& m_problems;
    std::vector<uint8_t> m_opStart;  // 1 where the linear scan found an op
    bool m_haveDefPoints = false;
    size_t m_violations = 0;
    size_t m_skippedViolations = 0;

    bool error(size_t pos, const std::string& message) {
        m_problems.push_back({m_fileOffset + pos, message, true});
        return false;
    }
    void violation(size_t pos, const std::string& message) {
        if (m_violations++ >= kMaxViolations) {
            ++m_skippedViolations;
            return;
        }
        m_problems.push_back({m_fileOffset + pos, message, false});
    }

    // The linear scan: EOF advances 8, SORTNORM2 its 40-byte header (its children follow it),
    // every other op its size. Ends exactly at m_size or fails.
    bool scan() {
        size_t pos = 0;
        while (pos < m_size) {
            const size_t left = m_size - pos;
            if (left < kOpHeader)
                return error(pos, "truncated op header: " + num(left) + " bytes left at the end of the " +
                                      num(m_size) + "-byte BSP data");
            const int32_t id = loadI32(m_data + pos);
            const int32_t rawSize = loadI32(m_data + pos + 4);
            if (id < 0 || id > 7) return error(pos, "unknown BSP op id " + std::to_string(id));
            const char* name = opName(id);
            if ((id == 6 || id == 7) && m_version < kVersionOps23)
                return error(pos, std::string(name) + " (op " + std::to_string(id) + ") needs POF version " +
                                      num(kVersionOps23) + " or later; this file is version " +
                                      std::to_string(m_version));
            m_opStart[pos] = 1;
            if (id == 0) {  // the size field is 0 in every known file, yet EOF takes 8 bytes
                pos += kOpHeader;
                continue;
            }
            if (rawSize <= 0)
                return error(pos, std::string(name) + " size " + std::to_string(rawSize) +
                                      " is not positive (the op cannot be skipped)");
            const size_t size = static_cast<size_t>(rawSize);
            if (size > left)
                return error(pos, std::string(name) + " size " + num(size) + " runs past the end of the " +
                                      num(m_size) + "-byte BSP data (" + num(left) + " bytes left)");
            const uint8_t* op = m_data + pos;
            bool ok = true;
            size_t advance = size;
            switch (id) {
                case 1:
                    ok = defPoints(pos, op, size);
                    break;
                case 2:
                    ok = flatPoly(pos, op, size);
                    break;
                case 3:
                    ok = tmapPoly(pos, op, size);
                    break;
                case 4:
                    ok = sortNorm(pos, op, size);
                    break;
                case 5:
                    if (size != kBoundBoxSize)
                        return error(pos, "BOUNDBOX size " + num(size) + " is not " + num(kBoundBoxSize));
                    break;
                case 6:
                    ok = tmap2Poly(pos, op, size);
                    break;
                case 7:
                    ok = sortNorm2(pos, op, size);
                    advance = kSortNorm2Header;
                    break;
                default:
                    break;
            }
            if (!ok) return false;
            pos += advance;
        }
        return true;
    }

    bool defPoints(size_t pos, const uint8_t* op, size_t size) {
        if (m_haveDefPoints) return error(pos, "a second DEFPOINTS op (a subobject has one point list)");
        if (size < kDefPointsFixed)
            return error(pos, "DEFPOINTS size " + num(size) + " is smaller than its " + num(kDefPointsFixed) +
                                  "-byte header");
        const int32_t nVerts = loadI32(op + 8);
        const int32_t nNorms = loadI32(op + 12);
        const int32_t dataOffset = loadI32(op + 16);
        if (nVerts < 0 || static_cast<size_t>(nVerts) > size - kDefPointsFixed)
            return error(pos, "DEFPOINTS vertex count " + std::to_string(nVerts) + " does not fit the op's " +
                                  num(size) + " bytes");
        const size_t verts = static_cast<size_t>(nVerts);
        if (dataOffset < 0 || static_cast<size_t>(dataOffset) < kDefPointsFixed + verts ||
            static_cast<size_t>(dataOffset) > size)
            return error(pos, "DEFPOINTS data offset " + std::to_string(dataOffset) +
                                  " is outside the op (normal counts end at " + num(kDefPointsFixed + verts) +
                                  ", the op at " + num(size) + ")");
        const uint8_t* counts = op + kDefPointsFixed;
        uint64_t normalTotal = 0;
        for (size_t i = 0; i < verts; ++i) normalTotal += counts[i];
        const uint64_t need = (uint64_t(verts) + normalTotal) * 12;
        const size_t avail = size - static_cast<size_t>(dataOffset);
        if (need > avail)
            return error(pos, "DEFPOINTS vertex data needs " + num(need) + " bytes but the op has " +
                                  num(avail) + " after its data offset");
        if (nNorms < 0 || uint64_t(nNorms) != normalTotal)
            violation(pos, "DEFPOINTS says " + std::to_string(nNorms) + " normals but its counts add up to " +
                               num(normalTotal) + "; the counts are used");
        if (pos != 0) violation(pos, "DEFPOINTS is not the first op of the BSP data");
        m_haveDefPoints = true;
        m_out.positions.reserve(verts);
        m_out.normals.reserve(static_cast<size_t>(normalTotal));
        const uint8_t* p = op + dataOffset;
        for (size_t i = 0; i < verts; ++i) {
            const glm::vec3 v = loadVec(p);
            p += 12;
            if (i == 0) {
                m_out.boundsMin = m_out.boundsMax = v;
            } else {
                m_out.boundsMin = glm::min(m_out.boundsMin, v);
                m_out.boundsMax = glm::max(m_out.boundsMax, v);
            }
            m_out.positions.push_back(v);
            for (uint8_t k = 0; k < counts[i]; ++k, p += 12) m_out.normals.push_back(loadVec(p));
        }
        return true;
    }

    // Checks a polygon's corner count against its size (fixed + stride x n), an error when they
    // disagree; `n` is the stored count.
    bool polygonSize(size_t pos, int32_t id, size_t size, size_t fixed, size_t stride, int64_t n) {
        if (size < fixed)
            return error(pos, std::string(opName(id)) + " size " + num(size) + " is smaller than its " +
                                  num(fixed) + "-byte header");
        if (n < 0 || uint64_t(n) > (size - fixed) / stride || fixed + stride * uint64_t(n) != size)
            return error(pos, std::string(opName(id)) + " size " + num(size) + " does not match " +
                                  num(fixed) + " + " + num(stride) + " x " + std::to_string(n) + " corners");
        return true;
    }

    // Appends the polygon and its corners when they are usable, else leaves a violation.
    void addPolygon(size_t pos, int32_t id, BspPolygon poly, const std::vector<BspCorner>& corners) {
        const char* name = opName(id);
        if (corners.size() < 3) {
            violation(pos, std::string(name) + " has " + num(corners.size()) +
                               " corners (at least 3 needed); the polygon is skipped");
            return;
        }
        for (size_t i = 0; i < corners.size(); ++i) {
            const BspCorner& c = corners[i];
            if (c.vertex >= m_out.positions.size()) {
                violation(pos, std::string(name) + " corner " + num(i) + ": vertex " + num(c.vertex) +
                                   " is beyond the " + num(m_out.positions.size()) +
                                   " DEFPOINTS vertices; the polygon is skipped");
                return;
            }
            if (c.normal >= m_out.normals.size()) {
                violation(pos, std::string(name) + " corner " + num(i) + ": normal " + num(c.normal) +
                                   " is beyond the " + num(m_out.normals.size()) +
                                   " DEFPOINTS normals; the polygon is skipped");
                return;
            }
        }
        if (!poly.flat && poly.texture < 0) {
            violation(pos, std::string(name) + " texture index " + std::to_string(poly.texture) +
                               " is negative; the polygon is skipped");
            return;
        }
        poly.firstCorner = static_cast<uint32_t>(m_out.corners.size());
        poly.cornerCount = static_cast<uint32_t>(corners.size());
        poly.offset = m_fileOffset + pos;
        m_out.corners.insert(m_out.corners.end(), corners.begin(), corners.end());
        m_out.polygons.push_back(poly);
        if (poly.flat)
            ++m_out.flatPolygons;
        else
            ++m_out.texturedPolygons;
    }

    bool flatPoly(size_t pos, const uint8_t* op, size_t size) {
        if (size < kFlatPolyFixed) return polygonSize(pos, 2, size, kFlatPolyFixed, 4, 0);
        const int32_t n = loadI32(op + 36);
        if (!polygonSize(pos, 2, size, kFlatPolyFixed, 4, n)) return false;
        BspPolygon poly;
        poly.flat = true;
        poly.normal = loadVec(op + 8);
        poly.color[0] = op[40];
        poly.color[1] = op[41];
        poly.color[2] = op[42];
        std::vector<BspCorner> corners(static_cast<size_t>(n));
        for (size_t i = 0; i < corners.size(); ++i) {
            const uint8_t* c = op + kFlatPolyFixed + 4 * i;
            corners[i].vertex = loadU16(c);
            corners[i].normal = loadU16(c + 2);
        }
        addPolygon(pos, 2, poly, corners);
        return true;
    }

    bool tmapPoly(size_t pos, const uint8_t* op, size_t size) {
        if (size < kTmapPolyFixed) return polygonSize(pos, 3, size, kTmapPolyFixed, 12, 0);
        const int32_t n = loadI32(op + 36);
        if (!polygonSize(pos, 3, size, kTmapPolyFixed, 12, n)) return false;
        BspPolygon poly;
        poly.normal = loadVec(op + 8);
        poly.texture = loadI32(op + 40);
        std::vector<BspCorner> corners(static_cast<size_t>(n));
        for (size_t i = 0; i < corners.size(); ++i) {
            const uint8_t* c = op + kTmapPolyFixed + 12 * i;
            corners[i].vertex = loadU16(c);
            corners[i].normal = loadU16(c + 2);
            corners[i].u = loadF32(c + 4);
            corners[i].v = loadF32(c + 8);
        }
        addPolygon(pos, 3, poly, corners);
        return true;
    }

    bool tmap2Poly(size_t pos, const uint8_t* op, size_t size) {
        if (size < kTmap2PolyFixed) return polygonSize(pos, 6, size, kTmap2PolyFixed, 16, 0);
        const uint32_t n = loadU32(op + 48);
        if (!polygonSize(pos, 6, size, kTmap2PolyFixed, 16, int64_t(n))) return false;
        BspPolygon poly;
        poly.normal = loadVec(op + 32);
        poly.texture = loadI32(op + 44);
        std::vector<BspCorner> corners(n);
        for (size_t i = 0; i < corners.size(); ++i) {
            const uint8_t* c = op + kTmap2PolyFixed + 16 * i;
            corners[i].vertex = loadU32(c);
            corners[i].normal = loadU32(c + 4);
            corners[i].u = loadF32(c + 8);
            corners[i].v = loadF32(c + 12);
        }
        addPolygon(pos, 6, poly, corners);
        return true;
    }

    // A child offset (relative to the op at `pos`, 0 = none) must land inside the data.
    bool childInside(size_t pos, const char* op, const char* field, int32_t offset) {
        if (offset == 0) return true;
        const int64_t target = int64_t(pos) + offset;
        if (target < 0 || uint64_t(target) >= m_size)
            return error(pos,
                         std::string(op) + " " + field + " offset " +
                             (offset < 0 ? "-" + hex(uint64_t(-int64_t(offset))) : hex(uint64_t(offset))) +
                             " is outside the " + num(m_size) + "-byte BSP data");
        return true;
    }

    bool sortNorm(size_t pos, const uint8_t* op, size_t size) {
        // Before version 2000 the bounding box may be missing.
        const bool old = m_version < kVersionSortNormBox;
        if (size != kSortNormSize && !(old && size == kSortNormSizeOld))
            return error(pos, "SORTNORM size " + num(size) + " is not " + num(kSortNormSize));
        static const char* kFields[5] = {"front", "back", "prelist", "postlist", "online"};
        for (size_t i = 0; i < 5; ++i)
            if (!childInside(pos, "SORTNORM", kFields[i], loadI32(op + 36 + 4 * i))) return false;
        ++m_out.sortNodes;
        return true;
    }

    bool sortNorm2(size_t pos, const uint8_t* op, size_t size) {
        if (size < kSortNorm2Header)
            return error(pos, "SORTNORM2 size " + num(size) + " is smaller than its " +
                                  num(kSortNorm2Header) + "-byte header");
        if (!childInside(pos, "SORTNORM2", "front", loadI32(op + 8))) return false;
        if (!childInside(pos, "SORTNORM2", "back", loadI32(op + 12))) return false;
        ++m_out.sortNodes;
        return true;
    }

    // The tree walk (fs2open's order), with an explicit stack: each op but EOF reached once at
    // most, every child at an op the scan found. Runs only after a clean scan, so every op it
    // reads was checked there.
    bool walkTree() {
        struct Step {
            size_t pos;
            size_t from;        // the op whose field led here (for messages)
            const char* field;  // nullptr: the chain continues
        };
        std::vector<uint8_t> visited(m_size, 0);
        std::vector<Step> stack;
        if (m_size == 0) return true;
        stack.push_back({0, 0, "start"});
        while (!stack.empty()) {
            size_t pos = stack.back().pos;
            size_t from = stack.back().from;
            const char* field = stack.back().field;
            stack.pop_back();
            if (!m_opStart[pos])
                return error(from, std::string(opName(loadI32(m_data + from))) + " " + field +
                                       " leads to BSP position " + hex(pos) +
                                       ", which is not the start of an op");
            // Follow one chain; branches go on the stack.
            while (pos < m_size) {
                const int32_t id = loadI32(m_data + pos);
                if (id == 0) break;  // EOF ends the chain (several lists may share one)
                if (visited[pos]) {
                    const std::string how =
                        field ? std::string(opName(loadI32(m_data + from))) + " " + field
                              : std::string("the op chain after the ") + opName(loadI32(m_data + from));
                    return error(from, how + " reaches the " + opName(id) + " at BSP position " + hex(pos) +
                                           " a second time (a cycle in the tree)");
                }
                visited[pos] = 1;
                const uint8_t* op = m_data + pos;
                if (id == 4) {
                    // Pushed so that they pop in fs2open's order: prelist, back, online, front, postlist.
                    static const char* kFields[5] = {"front", "back", "prelist", "postlist", "online"};
                    static const int kPushOrder[5] = {3, 0, 4, 1, 2};
                    for (int k : kPushOrder) {
                        const int32_t off = loadI32(op + 36 + 4 * k);
                        if (off) stack.push_back({size_t(int64_t(pos) + off), pos, kFields[k]});
                    }
                } else if (id == 7) {
                    const int32_t front = loadI32(op + 8), back = loadI32(op + 12);
                    if (front) stack.push_back({size_t(int64_t(pos) + front), pos, "front"});
                    if (back) stack.push_back({size_t(int64_t(pos) + back), pos, "back"});
                    break;  // nothing follows a SORTNORM2 in its chain
                } else if (id == 6) {
                    break;  // a TMAP2POLY is a leaf
                }
                // Later ops of this chain are reached by continuation.
                field = nullptr;
                from = pos;
                pos += static_cast<size_t>(loadI32(op + 4));
            }
        }
        return true;
    }
};

struct CornerKey {
    uint32_t vertex, normal, u, v;
    bool operator==(const CornerKey& o) const {
        return vertex == o.vertex && normal == o.normal && u == o.u && v == o.v;
    }
};
struct CornerKeyHash {
    size_t operator()(const CornerKey& k) const {
        uint64_t h = 1469598103934665603ull;
        for (uint32_t x : {k.vertex, k.normal, k.u, k.v}) {
            h ^= x;
            h *= 1099511628211ull;
            h ^= h >> 29;
        }
        return static_cast<size_t>(h);
    }
};

uint32_t floatBits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

bool usable(const glm::vec3& n) {
    return std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z) && glm::dot(n, n) > 0.0f &&
           std::isfinite(glm::dot(n, n));
}

}  // namespace

bool decodeBsp(const uint8_t* data, size_t size, uint64_t fileOffset, int32_t version, BspData& out,
               std::vector<BspProblem>& problems) {
    if (!data) size = 0;
    out = BspData{};
    Decoder decoder(data, size, fileOffset, version, out, problems);
    return decoder.run();
}

Mesh buildBspMesh(const BspData& bsp, const std::vector<uint32_t>& slotOfTexture, const std::string& name) {
    Mesh mesh;
    mesh.name = name;
    struct Vertex {
        float position[3];
        float normal[3];
        float uv[2];
    };
    static_assert(sizeof(Vertex) == 32, "interleaved vertex is 8 floats");
    std::vector<Vertex> vertices;
    std::unordered_map<CornerKey, uint32_t, CornerKeyHash> lookup;
    std::map<int32_t, std::vector<uint32_t>> trianglesByTexture;
    std::vector<uint32_t> polygonVertices;
    for (const BspPolygon& poly : bsp.polygons) {
        if (poly.flat || poly.cornerCount < 3) continue;
        if (poly.texture >= 0 && static_cast<size_t>(poly.texture) < slotOfTexture.size() &&
            slotOfTexture[static_cast<size_t>(poly.texture)] == kTextureNotDrawn)
            continue;
        if (poly.firstCorner > bsp.corners.size() || bsp.corners.size() - poly.firstCorner < poly.cornerCount)
            continue;
        bool valid = true;
        for (uint32_t i = 0; i < poly.cornerCount && valid; ++i) {
            const BspCorner& c = bsp.corners[poly.firstCorner + i];
            valid = c.vertex < bsp.positions.size() && c.normal < bsp.normals.size();
        }
        if (!valid) continue;
        glm::vec3 plane = usable(poly.normal) ? glm::normalize(poly.normal) : glm::vec3(0.0f, 0.0f, 1.0f);
        polygonVertices.clear();
        for (uint32_t i = 0; i < poly.cornerCount; ++i) {
            const BspCorner& c = bsp.corners[poly.firstCorner + i];
            const CornerKey key{c.vertex, c.normal, floatBits(c.u), floatBits(c.v)};
            auto found = lookup.find(key);
            if (found == lookup.end()) {
                const glm::vec3& p = bsp.positions[c.vertex];
                const glm::vec3 stored = bsp.normals[c.normal];
                const glm::vec3 n = usable(stored) ? glm::normalize(stored) : plane;
                // Left-handed file axes to the viewer's right-handed ones: z negated.
                vertices.push_back({{p.x, p.y, -p.z}, {n.x, n.y, -n.z}, {c.u, c.v}});
                found = lookup.emplace(key, static_cast<uint32_t>(vertices.size() - 1)).first;
            }
            polygonVertices.push_back(found->second);
        }
        // Fan (0, i, i+1), each triangle reversed to (0, i+1, i) for the z flip.
        std::vector<uint32_t>& tris = trianglesByTexture[poly.texture];
        for (size_t i = 1; i + 1 < polygonVertices.size(); ++i) {
            tris.push_back(polygonVertices[0]);
            tris.push_back(polygonVertices[i + 1]);
            tris.push_back(polygonVertices[i]);
        }
    }
    if (vertices.empty()) return mesh;

    mesh.vertexCount = static_cast<uint32_t>(vertices.size());
    std::vector<uint8_t> vertexBytes(vertices.size() * sizeof(Vertex));
    std::memcpy(vertexBytes.data(), vertices.data(), vertexBytes.size());
    VertexStream stream;
    stream.bytes = makeOwnedBytes(std::move(vertexBytes));
    stream.stride = sizeof(Vertex);
    stream.count = mesh.vertexCount;
    VertexAttribute position;
    position.semantic = Semantic::Position;
    position.components = 3;
    position.offset = offsetof(Vertex, position);
    VertexAttribute normal;
    normal.semantic = Semantic::Normal;
    normal.components = 3;
    normal.offset = offsetof(Vertex, normal);
    VertexAttribute uv;
    uv.semantic = Semantic::TexCoord;
    uv.components = 2;
    uv.offset = offsetof(Vertex, uv);
    stream.attributes = {position, normal, uv};
    mesh.streams.push_back(std::move(stream));

    size_t total = 0;
    for (const auto& entry : trianglesByTexture) total += entry.second.size();
    const bool narrow = vertices.size() <= 65536;
    const size_t indexSize = narrow ? 2 : 4;
    std::vector<uint8_t> indexBytes(total * indexSize);
    size_t at = 0;
    for (const auto& entry : trianglesByTexture) {
        Submesh sub;
        sub.primitive = Primitive::Triangles;
        sub.firstIndex = static_cast<uint32_t>(at);
        sub.indexCount = static_cast<uint32_t>(entry.second.size());
        const size_t texture = static_cast<size_t>(entry.first);
        sub.materialSlot = texture < slotOfTexture.size() ? slotOfTexture[texture] : 0;
        for (uint32_t index : entry.second) {
            if (narrow) {
                const uint16_t v = static_cast<uint16_t>(index);
                std::memcpy(indexBytes.data() + at * 2, &v, 2);
            } else {
                std::memcpy(indexBytes.data() + at * 4, &index, 4);
            }
            ++at;
        }
        mesh.submeshes.push_back(std::move(sub));
    }
    mesh.indices.type = narrow ? ComponentType::UInt16 : ComponentType::UInt32;
    mesh.indices.count = static_cast<uint32_t>(total);
    mesh.indices.bytes = makeOwnedBytes(std::move(indexBytes));
    return mesh;
}

}  // namespace esv::pof
