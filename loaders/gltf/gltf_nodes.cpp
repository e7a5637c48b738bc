// glTF reader: the order of the reading, nodes (hierarchy, transforms, their mesh, camera and
// light) and scenes (gltf_internal.h).
#include <algorithm>
#include <cmath>

#include "loaders/gltf/gltf_internal.h"

namespace esv::gltf {

void Reader::run(const ByteView& file) {
    m_scene.format = "gltf";
    m_budgetTotal = m_budget = std::max<uint64_t>(uint64_t(64) << 20, uint64_t(file.size) * 64);
    if (!parseContainer(file)) return;
    for (const char* name : {"accessors", "bufferViews", "buffers", "nodes", "meshes", "materials",
                             "textures", "images", "samplers", "skins", "animations", "cameras", "scenes"}) {
        const Json* a = member(m_doc, name);
        if (!a) continue;
        if (!a->is_array()) {
            fail(std::string("/") + name, "expected an array");
        } else if (a->size() > kMaxObjects) {
            fail(std::string("/") + name, std::to_string(a->size()) + " entries exceed the reader's cap of " +
                                              std::to_string(kMaxObjects));
        }
    }
    checkExtensions();
    if (m_diag.failed()) return;
    readBuffers();
    m_views.assign(array("bufferViews").size(), BufferView{});
    m_accessors.assign(array("accessors").size(), Accessor{});
    readCameras();
    readLights();
    readImagesAndTextures();
    readMaterials();
    if (m_diag.stopped()) return;
    readMeshes();
    if (m_diag.stopped()) return;
    readSkins();
    readNodes();
    if (m_diag.stopped()) return;
    readScenes();
    readAnimations();
    // The scene's up axis and units are glTF's: +Y up, metres, models facing +Z. esview's writer
    // keeps the source's units, ambient light and facing (a model from a format that faces -Z is
    // seen from its front first, not from behind) in the root's extras (convert/README.md).
    m_scene.up = UpAxis::Y;
    m_scene.metersPerUnit = 1.0f;
    m_scene.front = glm::vec3(0.0f, 0.0f, 1.0f);
    if (const Json* extras = member(m_doc, "extras"); extras && extras->is_object()) {
        float units = 1.0f, ambient[3];
        if (getFloat(*extras, "meters_per_unit", "/extras", units) && units > 0.0f)
            m_scene.metersPerUnit = units;
        if (getFloats(*extras, "ambient", "/extras", ambient, 3))
            m_scene.ambient = glm::vec3(ambient[0], ambient[1], ambient[2]);
        float front[3];
        if (getFloats(*extras, "front", "/extras", front, 3)) {
            const glm::vec3 f(front[0], front[1], front[2]);
            const float length = glm::length(f);
            if (std::isfinite(length) && std::abs(length - 1.0f) < 1e-3f) m_scene.front = f / length;
        }
    }
    m_diag.finish();
}

void Reader::readNode(size_t i) {
    const Json& n = array("nodes")[i];
    const std::string where = pointer("nodes", i);
    Node& node = m_scene.nodes[i];
    if (!objectAt(n, where)) return;
    node.name = getString(n, "name");
    float m[16];
    if (getFloats(n, "matrix", where, m, 16)) {
        node.local.useMatrix = true;
        std::copy(m, m + 16, &node.local.matrix[0][0]);
        if (member(n, "translation") || member(n, "rotation") || member(n, "scale"))
            m_diag.violation(FilePlace{}, where, "has both a matrix and translation, rotation or scale");
    }
    float t[3], r[4], s[3];
    if (getFloats(n, "translation", where, t, 3)) node.local.translation = glm::vec3(t[0], t[1], t[2]);
    if (getFloats(n, "rotation", where, r, 4)) node.local.rotation = glm::quat(r[3], r[0], r[1], r[2]);
    if (getFloats(n, "scale", where, s, 3)) node.local.scale = glm::vec3(s[0], s[1], s[2]);
    const Json* children = member(n, "children");
    if (!children) return;
    if (!children->is_array()) {
        fail(where + "/children", "expected an array");
        return;
    }
    const size_t count = m_scene.nodes.size();
    for (size_t c = 0; c < children->size(); ++c) {
        const std::string w = where + "/children/" + std::to_string(c);
        const Json& v = (*children)[c];
        if (!v.is_number_unsigned() || v.get<uint64_t>() >= count) {
            fail(w, "node " + v.dump().substr(0, 20) + " does not exist (the file has " +
                        std::to_string(count) + ")");
            continue;
        }
        const size_t child = v.get<size_t>();
        if (child == i) {
            fail(w, "node " + std::to_string(i) + " is its own child");
        } else if (m_scene.nodes[child].parent >= 0) {
            fail(w, "node " + std::to_string(child) + " already has parent " +
                        std::to_string(m_scene.nodes[child].parent));
        } else {
            m_scene.nodes[child].parent = int32_t(i);
        }
    }
}

// The node's mesh (every part of it), camera and light. A node holds one object: a second one (and
// each further part of a mesh split by primitive) goes on a child node the reader adds.
void Reader::addNodeObjects(size_t i, const Json& n) {
    const std::string where = pointer("nodes", i);
    auto attach = [&](NodeKind kind, int32_t object) -> Node& {
        Node* target = &m_scene.nodes[i];
        if (target->kind != NodeKind::Empty) {
            Node extra;
            extra.name = target->name + " (" + nodeKindName(kind) + ")";
            extra.parent = int32_t(i);
            extra.viewerAdded = true;
            m_scene.nodes.push_back(extra);
            target = &m_scene.nodes.back();
        }
        target->kind = kind;
        target->object = object;
        return *target;
    };
    int32_t mesh = -1, skin = -1, camera = -1;
    std::vector<float> weights;
    if (getIndex(n, "mesh", where, "meshes", mesh, false) && m_meshFirst[size_t(mesh)] >= 0) {
        getIndex(n, "skin", where, "skins", skin, false);
        if (const Json* w = member(n, "weights"); w && w->is_array()) {
            for (const Json& v : *w) weights.push_back(v.is_number() ? float(v.get<double>()) : 0.0f);
            const size_t targets = m_scene.meshes[size_t(m_meshFirst[size_t(mesh)])].morphTargets.size();
            if (weights.size() != targets)
                fail(where + "/weights", std::to_string(weights.size()) + " weights for mesh " +
                                             std::to_string(mesh) + "'s " + std::to_string(targets) +
                                             " morph targets");
        }
        for (uint32_t p = 0; p < m_meshParts[size_t(mesh)]; ++p) {
            const int32_t sceneMesh = m_meshFirst[size_t(mesh)] + int32_t(p);
            Node& node = attach(NodeKind::Mesh, sceneMesh);
            node.materials = m_meshMaterials[size_t(sceneMesh)];
            node.skin = skin;
            node.morphWeights = weights;
        }
    } else if (member(n, "skin")) {
        m_diag.violation(FilePlace{}, where + "/skin", "a skin on a node without a mesh");
    }
    if (getIndex(n, "camera", where, "cameras", camera, false)) attach(NodeKind::Camera, camera);
    const Json* ext = member(n, "extensions");
    const Json* light = ext ? member(*ext, "KHR_lights_punctual") : nullptr;
    if (light) {
        uint64_t l = 0;
        if (getUint(*light, "light", where + "/extensions/KHR_lights_punctual", l, true)) {
            if (l >= m_lightMap.size())
                fail(where + "/extensions/KHR_lights_punctual/light",
                     "light " + std::to_string(l) + " does not exist (the file has " +
                         std::to_string(m_lightMap.size()) + ")");
            else
                attach(NodeKind::Light, m_lightMap[size_t(l)]);
        }
    }
}

void Reader::readNodes() {
    const Json& nodes = array("nodes");
    m_scene.nodes.assign(nodes.size(), Node{});
    for (size_t i = 0; i < nodes.size() && !m_diag.stopped(); ++i) readNode(i);
    // A parent chain longer than the node count loops (each node has at most one parent here).
    for (size_t i = 0; i < nodes.size() && !m_diag.stopped(); ++i) {
        int32_t p = m_scene.nodes[i].parent;
        size_t steps = 0;
        while (p >= 0 && steps <= nodes.size()) {
            p = m_scene.nodes[size_t(p)].parent;
            ++steps;
        }
        if (p >= 0) {
            fail(pointer("nodes", i), "its parent chain loops");
            m_scene.nodes[i].parent = -1;
        }
    }
    for (size_t i = 0; i < nodes.size() && !m_diag.stopped(); ++i) addNodeObjects(i, nodes[i]);
    for (const Node& n : m_scene.nodes)
        if (n.kind == NodeKind::Mesh && n.skin >= 0)
            for (int32_t j : m_scene.skins[size_t(n.skin)].joints)
                if (j >= 0 && size_t(j) < nodes.size() && m_scene.nodes[size_t(j)].kind == NodeKind::Empty)
                    m_scene.nodes[size_t(j)].kind = NodeKind::Bone;
}

// The default scene (else scene 0) is shown; nodes of no scene shown are kept but hidden, and the
// other scenes are named in the report.
void Reader::readScenes() {
    const Json& scenes = array("scenes");
    const size_t fileNodes = array("nodes").size();
    int32_t chosen = scenes.empty() ? -1 : 0;
    if (member(m_doc, "scene")) getIndex(m_doc, "scene", "", "scenes", chosen, false);
    std::vector<bool> shown(fileNodes, chosen < 0);
    for (size_t s = 0; s < scenes.size(); ++s) {
        const std::string where = pointer("scenes", s);
        const Json* roots = member(scenes[s], "nodes");
        if (roots && !roots->is_array()) {
            fail(where + "/nodes", "expected an array");
            continue;
        }
        size_t count = 0;
        for (size_t r = 0; roots && r < roots->size(); ++r) {
            const Json& v = (*roots)[r];
            if (!v.is_number_unsigned() || v.get<uint64_t>() >= fileNodes) {
                fail(where + "/nodes/" + std::to_string(r), "node " + v.dump().substr(0, 20) +
                                                                " does not exist (the file has " +
                                                                std::to_string(fileNodes) + ")");
                continue;
            }
            const size_t root = v.get<size_t>();
            if (m_scene.nodes[root].parent >= 0)
                fail(where + "/nodes/" + std::to_string(r),
                     "node " + std::to_string(root) + " is not a root");
            else if (int32_t(s) == chosen)
                shown[root] = true;
            ++count;
        }
        if (int32_t(s) != chosen) {
            const std::string name = getString(scenes[s], "name");
            m_diag.info("scene " + std::to_string(s) + (name.empty() ? "" : " '" + name + "'") + " (" +
                        std::to_string(count) +
                        " root nodes) is not the default scene: its nodes are hidden");
        }
    }
    // A node is shown when its root is; nodes the reader added follow their file node.
    for (size_t i = 0; i < m_scene.nodes.size(); ++i) {
        int32_t n = int32_t(i);
        size_t steps = 0;
        while (m_scene.nodes[size_t(n)].parent >= 0 && steps++ <= m_scene.nodes.size())
            n = m_scene.nodes[size_t(n)].parent;
        if (size_t(n) < fileNodes && !shown[size_t(n)]) m_scene.nodes[i].visible = false;
    }
}

}  // namespace esv::gltf
