// POF subobject BSP data (../shared/specs/pof-bsp-notes.md): the ops read from a subobject's
// bsp_size bytes, validated, and turned into a GPU-ready mesh. Knows nothing of chunks: the POF
// reader (pof_reader.cpp) hands it each SOBJ/OBJ2 chunk's BSP bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"

namespace esv::pof {

// BSP op ids.
enum class BspOp : int32_t {
    Eof = 0,
    DefPoints = 1,
    FlatPoly = 2,
    TmapPoly = 3,
    SortNorm = 4,
    BoundBox = 5,
    Tmap2Poly = 6,  // version >= 2300
    SortNorm2 = 7,  // version >= 2300
};

// One polygon corner as stored: position index (DEFPOINTS vertex), normal index (the global
// normal list, in file order), and texture coordinates (0 for FLATPOLY).
struct BspCorner {
    uint32_t vertex = 0;
    uint32_t normal = 0;
    float u = 0.0f, v = 0.0f;
};

struct BspPolygon {
    bool flat = false;            // FLATPOLY: colour only, counted but not drawn (as the game does)
    int32_t texture = -1;         // TMAPPOLY / TMAP2POLY tmap_num (index into TXTR); -1 for FLATPOLY
    glm::vec3 normal{0.0f};       // plane normal, file axes
    uint8_t color[3] = {0, 0, 0};  // FLATPOLY colour
    uint32_t firstCorner = 0;     // into BspData::corners
    uint32_t cornerCount = 0;     // >= 3 when valid
    uint64_t offset = 0;          // file offset of the op, for messages
};

// What a subobject's BSP holds, in the file's own (left-handed) axes.
struct BspData {
    std::vector<glm::vec3> positions;  // DEFPOINTS vertices
    std::vector<glm::vec3> normals;    // every vertex's normals, in file order (normnum indexes this)
    std::vector<BspPolygon> polygons;  // in the order the linear scan meets them
    std::vector<BspCorner> corners;
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};  // of the DEFPOINTS positions (valid when not empty)
    uint32_t texturedPolygons = 0;
    uint32_t flatPolygons = 0;
    uint32_t sortNodes = 0;  // SORTNORM + SORTNORM2
};

// A problem found in BSP data: the file offset of the op (or field) and what is wrong. `error`
// problems make the data unusable (the subobject draws nothing); the others are violations that
// `check` lists and a load reports as warnings.
struct BspProblem {
    uint64_t offset = 0;
    std::string message;
    bool error = false;
};

// Decodes `size` bytes of BSP data at `data`. `fileOffset` is the file offset of data[0] (for
// problems); `version` the POF version (TMAP2POLY / SORTNORM2 need >= 2300). Reads with
// unaligned-safe loads, never outside [data, data + size), caps every count by the bytes
// available. Walks the ops linearly (as pof-bsp-notes.md describes) to collect polygons, and
// validates the tree: every SORTNORM / SORTNORM2 child offset inside the data, no op visited
// twice through the tree (no cycles), indices within DEFPOINTS. Returns false on an error (the
// problems say which); polygons read before it are kept.
bool decodeBsp(const uint8_t* data, size_t size, uint64_t fileOffset, int32_t version, BspData& out,
               std::vector<BspProblem>& problems);

// A slotOfTexture value for a texture whose polygons are not drawn (FreeSpace's "invisible").
constexpr uint32_t kTextureNotDrawn = 0xFFFFFFFFu;

// The drawable mesh of a subobject: corners deduplicated by (vertex, normal, u, v) into
// interleaved or separate Float32 streams (Position, Normal, TexCoord 0), textured polygons
// fan-triangulated (0, i, i+1), one Submesh per texture index in increasing order with
// Submesh::materialSlot = the slot of that texture in `slotOfTexture` (the caller's mapping from
// tmap_num to material slot; a texture not in it is slot 0). FLATPOLY polygons are left out, and
// so are polygons whose texture's slot is kTextureNotDrawn.
// Converted for display to the viewer's right-handed axes: (x, y, z) -> (x, y, -z) for
// positions and normals, each triangle's order reversed to (v0, v2, v1). Normals are
// normalised; a zero or non-finite normal is replaced by the polygon's plane normal. Returns a
// mesh with vertexCount 0 when nothing is drawable.
Mesh buildBspMesh(const BspData& bsp, const std::vector<uint32_t>& slotOfTexture, const std::string& name);

}  // namespace esv::pof
