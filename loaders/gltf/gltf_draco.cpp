// glTF reader: KHR_draco_mesh_compression primitives, decoded by decode_draco.h (Debian's libdraco,
// where the build has it); without it the extension is unknown and a file requiring it is refused
// with one line (gltf_internal.h). The decoded attributes are copies in the accessors' own
// component types; the faces become a 32-bit index list.
#include "loaders/gltf/decode_draco.h"
#include "loaders/gltf/gltf_internal.h"

namespace esv::gltf {

bool dracoSupported() {
    return dracoAvailable();
}

// The streams and faces of a Draco-compressed primitive: `mesh` gets the streams and vertex count,
// `indices` the faces' corners.
bool Reader::decodeDraco(const Json& prim, const std::string& where, Mesh& mesh,
                         std::vector<uint32_t>& indices) {
    const std::string at = where + "/extensions/KHR_draco_mesh_compression";
    const Json& ext = *member(*member(prim, "extensions"), "KHR_draco_mesh_compression");
    int32_t view = -1;
    const Json* ids = member(ext, "attributes");
    const Json* attributes = member(prim, "attributes");
    if (!objectAt(ext, at) || !getIndex(ext, "bufferView", at, "bufferViews", view, true)) return false;
    if (!ids || !ids->is_object() || !attributes || !attributes->is_object()) {
        fail(at, "needs the attributes objects of the primitive and of the extension");
        return false;
    }
    const BufferView* v = bufferView(view, at + "/bufferView");
    if (!v) return false;
    // One request per drawn attribute, in the type its accessor names.
    std::vector<DracoAttributeRequest> requests;
    std::vector<VertexAttribute> drawn;
    std::vector<uint64_t> counts;
    for (auto it = attributes->begin(); it != attributes->end(); ++it) {
        const std::string w = where + "/attributes/" + it.key();
        if (!it->is_number_unsigned() || it->get<uint64_t>() >= array("accessors").size()) {
            fail(w, "accessor " + it->dump().substr(0, 20) + " does not exist (the file has " +
                        std::to_string(array("accessors").size()) + ")");
            return false;
        }
        const size_t index = it->get<size_t>();
        const Json& acc = array("accessors")[index];
        uint64_t code = 0, count = 0;
        if (!getUint(acc, "componentType", pointer("accessors", index), code, true) ||
            !getUint(acc, "count", pointer("accessors", index), count, true))
            return false;
        const std::string type = getString(acc, "type");
        const uint32_t components = type == "SCALAR" ? 1
                                    : type == "VEC2" ? 2
                                    : type == "VEC3" ? 3
                                    : type == "VEC4" ? 4
                                                     : 0;
        const Json* id = member(*ids, it.key().c_str());
        if (components == 0 || !id || !id->is_number_unsigned() || id->get<uint64_t>() > 0xFFFFFFFFu) {
            fail(w, components == 0 ? "accessor type '" + type.substr(0, 20) + "' is not SCALAR or VEC2-4"
                                    : "has no Draco attribute id in the extension");
            return false;
        }
        VertexAttribute a;
        const int use = decodedAttribute(it.key(), code, components, acc, w, a);
        if (use < 0) return false;
        if (use == 0) continue;
        DracoAttributeRequest request;
        request.id = id->get<uint32_t>();
        request.componentType = uint32_t(code);
        request.components = components;
        request.normalized = a.normalized;
        requests.push_back(request);
        drawn.push_back(a);
        counts.push_back(count);
    }
    DracoMesh dm;
    std::string error;
    if (!decodeDracoMesh(v->bytes.data, v->bytes.size, requests,
                         std::min<uint64_t>(m_budget, uint64_t(256) << 20), dm, error)) {
        fail(at, "the Draco data does not decode (" + error + ")");
        return false;
    }
    for (size_t i = 0; i < drawn.size(); ++i) {
        if (counts[i] != dm.vertexCount) {
            fail(at, "accessor count " + std::to_string(counts[i]) + " differs from the Draco data's " +
                         std::to_string(dm.vertexCount) + " points");
            return false;
        }
        VertexStream s;
        s.stride = uint32_t(componentSize(drawn[i].type) * drawn[i].components);
        s.count = dm.vertexCount;
        s.bytes = makeOwnedBytes(std::move(dm.attributes[i]));
        s.attributes.push_back(drawn[i]);
        mesh.streams.push_back(std::move(s));
    }
    mesh.vertexCount = dm.vertexCount;
    for (size_t k = 0; k < dm.indices.size(); ++k)
        if (dm.indices[k] >= dm.vertexCount) {
            fail(at, "corner " + std::to_string(k) + " uses point " + std::to_string(dm.indices[k]) + " of " +
                         std::to_string(dm.vertexCount));
            return false;
        }
    indices = std::move(dm.indices);
    return true;
}

}  // namespace esv::gltf
