// EXT_meshopt_compression: a buffer view whose bytes are meshoptimizer-encoded. The decoded view
// is `count` elements of `byteStride` bytes, which the accessors that name the view then read as if
// the file had stored it plainly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace esv::gltf {

enum class MeshoptMode : uint8_t { Attributes, Triangles, Indices, Count };
enum class MeshoptFilter : uint8_t { None, Octahedral, Quaternion, Exponential, Count };

struct MeshoptView {
    MeshoptMode mode = MeshoptMode::Attributes;
    MeshoptFilter filter = MeshoptFilter::None;
    uint64_t count = 0;       // elements (vertices or indices)
    uint64_t byteStride = 0;  // bytes of one element
};

// True where this build can decode meshoptimizer data.
bool meshoptAvailable();

// The extension's names for modes and filters; false when `text` is none of them.
bool parseMeshoptMode(const std::string& text, MeshoptMode& mode);
bool parseMeshoptFilter(const std::string& text, MeshoptFilter& filter);

// Whether the view's mode, filter, stride and count agree with the extension's rules; else one
// sentence saying what does not (without the view's JSON pointer, which the caller adds).
bool checkMeshoptView(const MeshoptView& view, std::string& error);

// Decodes `size` encoded bytes into `out` (count * byteStride bytes), then applies the filter. The
// decoded size is refused before anything is allocated when no encoding of `size` bytes could hold
// it (meshoptimizer's codecs spend at least 1 byte per 64 attribute bytes and 1 per index or triangle),
// or when it is above `maxBytes`. False with one sentence in `error` on any failure.
bool decodeMeshoptView(const MeshoptView& view, const uint8_t* data, size_t size, uint64_t maxBytes,
                       std::vector<uint8_t>& out, std::string& error);

}  // namespace esv::gltf
