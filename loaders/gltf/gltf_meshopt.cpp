// glTF reader: EXT_meshopt_compression buffer views, decoded by meshoptimizer where the build has
// it (ESVIEW_HAVE_MESHOPT); without it the extension is unknown and a file requiring it is refused
// with one line (gltf_internal.h).
#include "loaders/gltf/gltf_internal.h"

#if ESVIEW_HAVE_MESHOPT
#include <meshoptimizer.h>
#endif

namespace esv::gltf {

bool meshoptSupported() {
    return ESVIEW_HAVE_MESHOPT != 0;
}

// Decodes the compressed bytes `ext` names into `view` (byteStride x count bytes, owned).
bool Reader::decodeMeshopt(const Json& ext, const std::string& where, BufferView& view) {
#if ESVIEW_HAVE_MESHOPT
    const std::string at = where + "/extensions/EXT_meshopt_compression";
    int32_t buffer = -1;
    uint64_t offset = 0, length = 0, stride = 0, count = 0;
    if (!objectAt(ext, at) || !getIndex(ext, "buffer", at, "buffers", buffer, true) ||
        !getUint(ext, "byteLength", at, length, true) || !getUint(ext, "byteStride", at, stride, true) ||
        !getUint(ext, "count", at, count, true))
        return false;
    getUint(ext, "byteOffset", at, offset, false);
    if (!m_bufferOk[size_t(buffer)]) return false;
    const ByteView& b = m_buffers[size_t(buffer)];
    if (offset > b.size || length > b.size - offset) {
        fail(at, "byteOffset " + std::to_string(offset) + " + byteLength " + std::to_string(length) +
                     " exceeds buffer " + std::to_string(buffer) + "'s " + std::to_string(b.size) + " bytes");
        return false;
    }
    const std::string mode = getString(ext, "mode"),
                      filter = member(ext, "filter") ? getString(ext, "filter") : "NONE";
    const bool attributes = mode == "ATTRIBUTES";
    if (!attributes && mode != "TRIANGLES" && mode != "INDICES") {
        fail(at + "/mode", "'" + mode.substr(0, 20) + "' is not ATTRIBUTES, TRIANGLES or INDICES");
        return false;
    }
    if (stride == 0 || stride > 256 || (attributes ? stride % 4 != 0 : (stride != 2 && stride != 4))) {
        fail(at + "/byteStride", std::to_string(stride) + " does not fit mode " + mode);
        return false;
    }
    // The decoded size is checked against a cap before anything is allocated.
    if (count > (uint64_t(256) << 20) / stride) {
        fail(at + "/count", std::to_string(count) + " elements of " + std::to_string(stride) +
                                " bytes exceed the reader's cap");
        return false;
    }
    if (!spend(count * stride, at)) return false;
    if (count * stride < view.bytes.size) {
        fail(at, "decodes to " + std::to_string(count * stride) + " bytes; the buffer view holds " +
                     std::to_string(view.bytes.size));
        return false;
    }
    std::vector<uint8_t> out(size_t(count * stride));
    const uint8_t* src = b.data + offset;
    int rc = -1;
    if (attributes)
        rc = meshopt_decodeVertexBuffer(out.data(), size_t(count), size_t(stride), src, size_t(length));
    else if (mode == "TRIANGLES" && count % 3 == 0)
        rc = meshopt_decodeIndexBuffer(out.data(), size_t(count), size_t(stride), src, size_t(length));
    else if (mode == "INDICES")
        rc = meshopt_decodeIndexSequence(out.data(), size_t(count), size_t(stride), src, size_t(length));
    if (rc != 0) {
        fail(at, "the " + mode + " data does not decode (" + std::to_string(length) + " bytes for " +
                     std::to_string(count) + " elements of " + std::to_string(stride) + ")");
        return false;
    }
    if (filter == "OCTAHEDRAL" && attributes && (stride == 4 || stride == 8)) {
        meshopt_decodeFilterOct(out.data(), size_t(count), size_t(stride));
    } else if (filter == "QUATERNION" && attributes && stride == 8) {
        meshopt_decodeFilterQuat(out.data(), size_t(count), size_t(stride));
    } else if (filter == "EXPONENTIAL" && attributes) {
        meshopt_decodeFilterExp(out.data(), size_t(count), size_t(stride));
    } else if (filter != "NONE") {
        fail(at + "/filter", "'" + filter.substr(0, 20) + "' does not fit mode " + mode + " and stride " +
                                 std::to_string(stride));
        return false;
    }
    out.resize(size_t(view.bytes.size));  // the view's own length; the decoded data covers it
    view.bytes = makeOwnedBytes(std::move(out));
    view.offsetInBuffer = 0;
    return true;
#else
    (void)ext;
    (void)view;
    fail(where + "/extensions/EXT_meshopt_compression",
         "this build of esview has no meshoptimizer to decode it");
    return false;
#endif
}

}  // namespace esv::gltf
