// glTF reader: EXT_meshopt_compression buffer views, decoded by decode_meshopt.h (meshoptimizer,
// where the build has it); without it the extension is unknown and a file requiring it is refused
// with one line (gltf_internal.h).
#include "loaders/gltf/decode_meshopt.h"
#include "loaders/gltf/gltf_internal.h"

namespace esv::gltf {

bool meshoptSupported() {
    return meshoptAvailable();
}

// Decodes the compressed bytes `ext` names into `view` (byteStride x count bytes, owned).
bool Reader::decodeMeshopt(const Json& ext, const std::string& where, BufferView& view) {
    const std::string at = where + "/extensions/EXT_meshopt_compression";
    int32_t buffer = -1;
    uint64_t offset = 0, length = 0;
    MeshoptView mv;
    if (!objectAt(ext, at) || !getIndex(ext, "buffer", at, "buffers", buffer, true) ||
        !getUint(ext, "byteLength", at, length, true) ||
        !getUint(ext, "byteStride", at, mv.byteStride, true) || !getUint(ext, "count", at, mv.count, true))
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
    if (!parseMeshoptMode(mode, mv.mode)) {
        fail(at + "/mode", "'" + mode.substr(0, 20) + "' is not ATTRIBUTES, TRIANGLES or INDICES");
        return false;
    }
    if (!parseMeshoptFilter(filter, mv.filter)) {
        fail(at + "/filter",
             "'" + filter.substr(0, 20) + "' is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL");
        return false;
    }
    std::string error;
    if (!checkMeshoptView(mv, error)) {
        fail(at, error);
        return false;
    }
    if (mv.count > ~uint64_t(0) / std::max<uint64_t>(mv.byteStride, 1) ||
        mv.count * mv.byteStride < view.bytes.size) {
        fail(at, "decodes to fewer bytes than the buffer view's " + std::to_string(view.bytes.size));
        return false;
    }
    // The decoded size comes from the budget (and the decoder's own checks) before it is allocated.
    std::vector<uint8_t> out;
    if (!decodeMeshoptView(mv, b.data + offset, size_t(length),
                           std::min<uint64_t>(m_budget, uint64_t(256) << 20), out, error)) {
        fail(at, error);
        return false;
    }
    if (!spend(out.size(), at)) return false;
    out.resize(size_t(view.bytes.size));  // the view's own length; the decoded data covers it
    view.bytes = makeOwnedBytes(std::move(out));
    view.offsetInBuffer = 0;
    return true;
}

}  // namespace esv::gltf
