// A POF writer for tests, written from ../shared/specs/pof-format-spec.txt and pof-bsp-notes.md:
// chunks field by field in the order the file's version asks for (FS1 OHDR/SOBJ orders before
// 2116, the FS2 ones from 2116, OBJ2 translation fields from 2301, gun angle offsets from 2118,
// thruster properties from 2117), and subobject BSP data (DEFPOINTS, then BOUNDBOX + TMAPPOLY /
// FLATPOLY + EOF, or from 2300 TMAP2POLY leaves under SORTNORM2 nodes). Nothing is checked: a
// test can write any value, valid or not.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace poftest {

// Little-endian bytes.
struct Bytes {
    std::vector<uint8_t> data;

    Bytes& u8(uint8_t v);
    Bytes& u16(uint16_t v);
    Bytes& i32(int32_t v);
    Bytes& u32(uint32_t v);
    Bytes& f32(float v);
    Bytes& vec(const glm::vec3& v);
    // A POF string: int32 length, then the bytes (with a trailing NUL when `nul`).
    Bytes& str(const std::string& s, bool nul = false);
    Bytes& raw(const std::vector<uint8_t>& bytes);
    Bytes& zeros(size_t n);
    size_t size() const { return data.size(); }
};

struct Corner {
    uint32_t vertex = 0, normal = 0;
    float u = 0.0f, v = 0.0f;
};
struct Polygon {
    int32_t texture = 0;  // tmap_num; ignored for flat polygons
    bool flat = false;
    std::vector<Corner> corners;
};
// BSP data of one subobject: positions (each with one normal, its own index), then the polygons.
std::vector<uint8_t> bspData(int32_t version, const std::vector<glm::vec3>& positions,
                             const std::vector<Polygon>& polygons);
// The corners of a square of side 2 in the XY plane at z: (-1,-1), (1,-1), (1,1), (-1,1).
std::vector<glm::vec3> quadPositions(float z = 0.0f);
// That square (vertices 0..3) as two triangles or as one quad polygon, textured with `texture`.
std::vector<Polygon> quadPolygons(int32_t texture, bool asOneQuad);

struct Header {
    float maxRadius = 1.0f;
    int32_t flags = 0;
    int32_t subobjects = 1;
    glm::vec3 min{-1.0f}, max{1.0f};
    std::vector<int32_t> detailLevels{0};
    std::vector<int32_t> debris;
    float mass = 1.0f;
    glm::vec3 massCenter{0.0f};
    std::array<float, 9> inertia{1, 0, 0, 0, 1, 0, 0, 0, 1};
    std::vector<std::array<float, 2>> crossSections;  // empty: written as -1
    std::vector<std::pair<glm::vec3, int32_t>> lights;
};

struct Subobject {
    int32_t number = 0;
    float radius = 1.0f;
    int32_t parent = -1;
    glm::vec3 offset{0.0f}, center{0.0f}, min{-1.0f}, max{1.0f};
    std::string name = "detail0", properties;
    int32_t movementType = -1, movementAxis = -1;
    int32_t translationType = -1, translationAxis = -1;  // 2301
    int32_t reserved = 0;
    std::vector<uint8_t> bsp;
    int32_t bspSizeOverride = -1;  // >= 0: written instead of bsp.size()
};

struct FiringPoint {
    glm::vec3 position{0.0f}, normal{0.0f, 0.0f, 1.0f};
};

class PofWriter {
public:
    explicit PofWriter(int32_t version) : m_version(version) {}
    int32_t version() const { return m_version; }

    // Appends a chunk (id of exactly 4 characters) with the body's length, or `length` when >= 0.
    PofWriter& chunk(const char* id, const Bytes& body, int32_t length = -1);

    // Chunk bodies in this version's field order.
    Bytes header(const Header& h) const;
    static Bytes textures(const std::vector<std::string>& names);
    Bytes subobject(const Subobject& s) const;
    Bytes firingPoints(const std::vector<std::vector<FiringPoint>>& slots) const;
    static Bytes turrets(int32_t subobject, int32_t physicalParent, const std::vector<glm::vec3>& points);
    static Bytes specialPoints(const std::vector<std::string>& names);
    Bytes thrusters(const std::vector<std::vector<FiringPoint>>& glows) const;
    static Bytes eyes(const std::vector<int32_t>& subobjects);
    static Bytes docks(const std::vector<std::vector<FiringPoint>>& points);
    static Bytes paths(const std::vector<std::pair<std::string, size_t>>& nameAndVertexCount);
    static Bytes shield(const std::vector<glm::vec3>& vertices,
                        const std::vector<std::array<int32_t, 3>>& faces);

    std::vector<uint8_t> finish() const;

private:
    int32_t m_version;
    Bytes m_body;
};

}  // namespace poftest
