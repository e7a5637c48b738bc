// EXT_meshopt_compression decoding through meshoptimizer's decoders, which are safe on untrusted
// input (they never read or write out of bounds; bad data decodes to garbage or an error code).
#include "loaders/gltf/decode_meshopt.h"

#ifndef ESVIEW_HAS_MESHOPT
#define ESVIEW_HAS_MESHOPT 0
#endif
#if ESVIEW_HAS_MESHOPT
#include <meshoptimizer.h>
#endif

namespace esv::gltf {

namespace {

const char* const kModeNames[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
const char* const kFilterNames[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};
static_assert(sizeof(kModeNames) / sizeof(kModeNames[0]) == size_t(MeshoptMode::Count), "one name per mode");
static_assert(sizeof(kFilterNames) / sizeof(kFilterNames[0]) == size_t(MeshoptFilter::Count), "one name per filter");

// The most bytes an encoding of `size` bytes can decode to: the vertex codec stores at least a 2-bit
// header per 16 bytes of one byte lane (1 byte per 64), plus its tail of one vertex (at most 256
// bytes) and a header byte; the index codecs at least one byte per triangle or index.
uint64_t largestDecodedSize(const MeshoptView& view, size_t size) {
    if (view.mode == MeshoptMode::Attributes) return uint64_t(size) * 64 + 64 * 256;
    const uint64_t elements = view.mode == MeshoptMode::Triangles ? uint64_t(size) * 3 : uint64_t(size);
    return elements * view.byteStride;
}

#if ESVIEW_HAS_MESHOPT
void applyFilter(const MeshoptView& view, std::vector<uint8_t>& out) {
    const size_t count = size_t(view.count), stride = size_t(view.byteStride);
    switch (view.filter) {
    case MeshoptFilter::Octahedral:
        meshopt_decodeFilterOct(out.data(), count, stride);
        break;
    case MeshoptFilter::Quaternion:
        meshopt_decodeFilterQuat(out.data(), count, stride);
        break;
    case MeshoptFilter::Exponential:
        meshopt_decodeFilterExp(out.data(), count, stride);
        break;
    default:
        break;
    }
}
#endif

}  // namespace

bool parseMeshoptMode(const std::string& text, MeshoptMode& mode) {
    for (size_t i = 0; i < size_t(MeshoptMode::Count); ++i)
        if (text == kModeNames[i]) {
            mode = MeshoptMode(i);
            return true;
        }
    return false;
}

bool parseMeshoptFilter(const std::string& text, MeshoptFilter& filter) {
    for (size_t i = 0; i < size_t(MeshoptFilter::Count); ++i)
        if (text == kFilterNames[i]) {
            filter = MeshoptFilter(i);
            return true;
        }
    return false;
}

bool checkMeshoptView(const MeshoptView& view, std::string& error) {
    const uint64_t stride = view.byteStride;
    const std::string mode = kModeNames[size_t(view.mode)];
    if (view.mode == MeshoptMode::Attributes) {
        if (stride == 0 || stride % 4 != 0 || stride > 256) {
            error = "byteStride " + std::to_string(stride) + " of mode ATTRIBUTES must be a multiple of 4 from 4 to 256";
            return false;
        }
    } else {
        if (stride != 2 && stride != 4) {
            error = "byteStride " + std::to_string(stride) + " of mode " + mode + " must be 2 or 4";
            return false;
        }
        if (view.filter != MeshoptFilter::None) {
            error = std::string("filter ") + kFilterNames[size_t(view.filter)] + " applies to mode ATTRIBUTES only, not " + mode;
            return false;
        }
    }
    if (view.mode == MeshoptMode::Triangles && view.count % 3 != 0) {
        error = "count " + std::to_string(view.count) + " of mode TRIANGLES is not a multiple of 3";
        return false;
    }
    if (view.filter == MeshoptFilter::Octahedral && stride != 4 && stride != 8) {
        error = "filter OCTAHEDRAL needs byteStride 4 or 8, not " + std::to_string(stride);
        return false;
    }
    if (view.filter == MeshoptFilter::Quaternion && stride != 8) {
        error = "filter QUATERNION needs byteStride 8, not " + std::to_string(stride);
        return false;
    }
    return true;
}

bool decodeMeshoptView(const MeshoptView& view, const uint8_t* data, size_t size, uint64_t maxBytes,
                       std::vector<uint8_t>& out, std::string& error) {
    if (!checkMeshoptView(view, error)) return false;
    if (view.count != 0 && view.byteStride > maxBytes / view.count) {
        error = "count " + std::to_string(view.count) + " at byteStride " + std::to_string(view.byteStride) +
                " is over the " + std::to_string(maxBytes) + "-byte limit";
        return false;
    }
    const uint64_t bytes = view.count * view.byteStride;
    if (bytes > largestDecodedSize(view, size)) {
        error = "count " + std::to_string(view.count) + " at byteStride " + std::to_string(view.byteStride) + " (" +
                std::to_string(bytes) + " bytes) cannot come from " + std::to_string(size) + " encoded bytes";
        return false;
    }
#if ESVIEW_HAS_MESHOPT
    out.assign(size_t(bytes), 0);
    int result = 0;
    switch (view.mode) {
    case MeshoptMode::Attributes:
        result = meshopt_decodeVertexBuffer(out.data(), size_t(view.count), size_t(view.byteStride), data, size);
        break;
    case MeshoptMode::Triangles:
        result = meshopt_decodeIndexBuffer(out.data(), size_t(view.count), size_t(view.byteStride), data, size);
        break;
    case MeshoptMode::Indices:
        result = meshopt_decodeIndexSequence(out.data(), size_t(view.count), size_t(view.byteStride), data, size);
        break;
    default:
        break;
    }
    if (result != 0) {
        error = std::string("the ") + kModeNames[size_t(view.mode)] + " data does not decode (meshoptimizer error " +
                std::to_string(result) + ")";
        out.clear();
        return false;
    }
    applyFilter(view, out);
    return true;
#else
    (void)data;
    out.clear();
    error = "EXT_meshopt_compression is not supported by this build (it was made without meshoptimizer)";
    return false;
#endif
}

bool meshoptAvailable() { return ESVIEW_HAS_MESHOPT != 0; }

}  // namespace esv::gltf
