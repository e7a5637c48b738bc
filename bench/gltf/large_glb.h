// A synthetic binary glTF of about 100 MB for bench_gltf: skinned grid meshes whose vertex data is
// stored the ways exporters store it (interleaved in one strided buffer view, or one view per
// attribute), 16-bit indices, one skin, and an animation of every joint.
#pragma once

#include <cstdint>
#include <string>

namespace esv::bench {

struct LargeGlbShape {
    uint32_t meshes = 96;
    uint32_t gridSide = 128;  // vertices per side of each mesh's grid (gridSide^2 vertices)
    uint32_t joints = 32;
    uint32_t keys = 300;      // keys per joint rotation track, 30 per second
};

struct LargeGlbStats {
    uint64_t bytes = 0;
    uint64_t vertices = 0;
    uint64_t triangles = 0;
    uint32_t jsonBytes = 0;
};

// Writes the file; false with `error` when it cannot be written.
bool writeLargeGlb(const std::string& path, const LargeGlbShape& shape, LargeGlbStats& stats, std::string& error);

}  // namespace esv::bench
