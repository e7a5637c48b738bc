// Writes a large synthetic OpenGEX 3.0 text file for the load benchmark: a bone tree with an
// animation track per bone, many skinned meshes (position, normal, texcoord, triangle indices,
// skin with 1 to 3 influences per vertex), each under its own geometry node, and a few materials.
// Numbers are written as an exporter would, with six significant digits (some negative, some
// with exponents such as cos(pi/2) = 6.12323e-17).
//
// Unsigned primitive types are spelled unsigned_int16 / unsigned_int32 (the OpenDDL 1 and 2
// names that exporters wrote for years, still read by OpenDDL readers) and not uint16 / uint32:
// the OpenDDL parser inside assimp 5.2 (Debian 12) does not know the newer names, fails on them
// and then crashes, and assimp is one of the baselines that must read the same file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace esv::bench {

struct LargeOgexShape {
    uint32_t meshes = 96;       // geometry nodes, each with its own geometry object
    uint32_t rings = 64;        // vertex rings along each mesh (a skinned tube)
    uint32_t segments = 64;     // quads around each ring (segments + 1 vertices: the seam is split)
    uint32_t bones = 32;        // bone nodes in a binary tree
    uint32_t bonesPerSkin = 8;  // bones referenced by each skin's skeleton
    uint32_t keys = 61;         // animation keys per bone track (2 s at 30 fps)
    uint32_t materials = 8;
};

struct LargeOgexStats {
    size_t bytes = 0;
    uint64_t vertices = 0;  // over all meshes
    uint64_t triangles = 0;
    uint64_t influences = 0;  // bone index/weight pairs over all meshes
};

// Writes the file at `path` (created or truncated). Returns false and sets `error` when the file
// cannot be written.
bool writeLargeOgex(const std::string& path, const LargeOgexShape& shape, LargeOgexStats& stats,
                    std::string& error);

}  // namespace esv::bench
