// Nodes (the scene's, the helper children holding object transforms, the POF points) and scenes of
// the glTF writer (gltf_writer_internal.h), with the transform helpers they share.
#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "convert/gltf/gltf_writer_internal.h"

namespace esv {
namespace gltf {
namespace {

// FreeSpace file axes (left-handed) to the scene's: (x, y, z) -> (x, y, -z) (scene/pof_extras.h).
glm::vec3 pofToScene(const glm::vec3& v) {
    return {v.x, v.y, -v.z};
}

void putTrs(Json& n, const Trs& trs) {
    if (trs.t != glm::vec3(0.0f)) n["translation"] = vec3Json(trs.t);
    if (trs.r != glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) n["rotation"] = {trs.r.x, trs.r.y, trs.r.z, trs.r.w};
    if (trs.s != glm::vec3(1.0f)) n["scale"] = vec3Json(trs.s);
}

}  // namespace

bool nearlyEqual(const glm::mat4& a, const glm::mat4& b) {
    float largest = 1.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) largest = std::max(largest, std::fabs(b[c][r]));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!(std::fabs(a[c][r] - b[c][r]) <= 1e-4f * largest)) return false;
    return true;
}

bool isIdentity(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::fabs(m[c][r] - (c == r ? 1.0f : 0.0f)) > 1e-7f) return false;
    return true;
}

Trs decompose(const glm::mat4& m) {
    Trs out;
    out.t = glm::vec3(m[3]);
    glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    float scale[3];
    int zero = 0, kept = 0;
    for (int i = 0; i < 3; ++i) {
        scale[i] = glm::length(axis[i]);
        if (!std::isfinite(scale[i]) || !std::isfinite(out.t[i])) {
            out = Trs{};
            out.exact = false;
            return out;
        }
        if (scale[i] > 0.0f) {
            axis[i] /= scale[i];
            kept = i;
        } else {
            ++zero;
        }
    }
    if (zero == 1) {
        for (int k = 0; k < 3; ++k)
            if (scale[k] == 0.0f) axis[k] = glm::normalize(glm::cross(axis[(k + 1) % 3], axis[(k + 2) % 3]));
    } else if (zero == 2) {
        const glm::vec3 a = axis[kept];
        const glm::vec3 other = std::fabs(a.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
        axis[(kept + 1) % 3] = glm::normalize(glm::cross(a, other));
        axis[(kept + 2) % 3] = glm::cross(a, axis[(kept + 1) % 3]);
    } else if (zero == 3) {
        axis[0] = glm::vec3(1, 0, 0);
        axis[1] = glm::vec3(0, 1, 0);
        axis[2] = glm::vec3(0, 0, 1);
    }
    glm::mat3 rotation(axis[0], axis[1], axis[2]);
    if (glm::determinant(rotation) < 0.0f) {
        rotation[0] = -rotation[0];
        scale[0] = -scale[0];
    }
    const glm::quat q = glm::quat_cast(rotation);
    const float len = glm::length(q);
    out.r = len > 0.0f && std::isfinite(len) ? q / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    out.s = glm::vec3(scale[0], scale[1], scale[2]);
    Transform back;
    back.translation = out.t;
    back.rotation = out.r;
    back.scale = out.s;
    const glm::mat4 b = back.toMatrix();
    float largest = 1.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) largest = std::max(largest, std::fabs(m[c][r]));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!(std::fabs(b[c][r] - m[c][r]) <= 1e-4f * largest)) out.exact = false;
    return out;
}

Trs trsOf(const Transform& t) {
    if (t.useMatrix) return decompose(t.matrix);
    Trs out;
    out.t = t.translation;
    const float len = glm::length(t.rotation);
    out.r = len > 0.0f && std::isfinite(len) ? t.rotation / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    out.s = t.scale;
    return out;
}

glm::mat4 helperTransform(const Scene& scene, const Pose& rest, size_t i) {
    const Node& node = scene.nodes[i];
    // A camera with a target looks at it (renderer/camera.cpp: up along the node's Y); glTF has no
    // targets, so the child holds the orientation at rest.
    if (node.kind == NodeKind::Camera && node.object >= 0 && size_t(node.object) < scene.cameras.size()) {
        const int32_t target = scene.cameras[node.object].targetNode;
        if (target >= 0 && size_t(target) < scene.nodes.size()) {
            const glm::mat4& world = rest.objectWorld[i];
            const glm::vec3 eye(world[3]), at(rest.world[target][3]), up(world[1]);
            const glm::vec3 look = at - eye;
            if (glm::length(look) > 0.0f &&
                glm::length(glm::cross(look, up)) > 1e-6f * glm::length(look) * glm::length(up)) {
                const glm::mat4 cameraWorld = glm::inverse(glm::lookAt(eye, at, glm::normalize(up)));
                const glm::mat4 aim = glm::inverse(rest.world[i]) * cameraWorld;
                // Exporters usually turn the camera node towards its target already.
                if (!nearlyEqual(aim, node.objectTransform)) return aim;
            }
        }
    }
    // Lights and cameras sit where their object transform puts them, as the renderer places them.
    if ((node.kind == NodeKind::Light || node.kind == NodeKind::Camera) && node.object >= 0)
        return node.objectTransform;
    const Mesh* mesh = writtenMesh(scene, i);
    if (!mesh || instanceSkinned(scene, i)) return glm::mat4(1.0f);
    glm::mat4 h = scene.nodes[i].objectTransform;
    if (gltfKeepsQuantizedPositions(*mesh)) h = h * mesh->positionUnpack;
    return h;
}

void Writer::writeNodes() {
    const size_t count = m_scene.nodes.size();
    m_nodes = Json::array();
    for (size_t i = 0; i < count; ++i) m_nodes.push_back(Json::object());
    std::vector<std::vector<int>> children(count);
    for (size_t i = 0; i < count; ++i) {
        const int32_t p = m_scene.nodes[i].parent;
        if (p >= 0 && size_t(p) < count) children[p].push_back(int(i));
    }
    for (size_t i = 0; i < count; ++i) {
        const Node& node = m_scene.nodes[i];
        Json n = {{"name", node.name}};
        const Trs trs = trsOf(node.local);
        putTrs(n, trs);
        if (!trs.exact)
            note("node '" + node.name + "': a matrix that is not T*R*S (shear) written as the nearest T*R*S");
        std::vector<int> kids = children[i];
        const bool skinned = instanceSkinned(m_scene, i);
        const int mesh = meshFor(i, skinned);
        if (mesh >= 0) {
            const glm::mat4 helper = helperTransform(m_scene, m_rest, i);
            Json* holder = &n;
            Json child;
            if (!isIdentity(helper)) {
                child = {{"name", node.name + " (object)"}};
                const Trs h = decompose(helper);
                putTrs(child, h);
                if (!h.exact)
                    note("node '" + node.name +
                         "': an object transform with shear written as the nearest T*R*S");
                holder = &child;
            }
            (*holder)["mesh"] = mesh;
            const MeshData& md = m_meshData[{node.object, skinned ? node.skin : -1}];
            if (skinned && md.skinned && skinFor(node) >= 0) (*holder)["skin"] = skinFor(node);
            if (!node.morphWeights.empty() && md.targetCount) {
                (*holder)["weights"] = gltfWeights(m_scene.meshes[node.object], node.morphWeights.data(),
                                                   node.morphWeights.size(), false);
            }
            if (holder == &child) {
                m_nodes.push_back(child);
                m_meshHolder[i] = int(m_nodes.size() - 1);
                m_meshTargets[m_meshHolder[i]] = md.targetCount;
                kids.push_back(m_meshHolder[i]);
            } else {
                m_meshTargets[int(i)] = md.targetCount;
            }
        }
        Json object = Json::object();
        if (node.kind == NodeKind::Camera && node.object >= 0 && size_t(node.object) < m_cameras.size()) {
            object["camera"] = node.object;
            const int32_t target = m_scene.cameras[node.object].targetNode;
            if (target >= 0 && size_t(target) < count &&
                !nearlyEqual(helperTransform(m_scene, m_rest, i), node.objectTransform))
                note("camera '" + m_scene.cameras[node.object].name + "' looks at node '" +
                     m_scene.nodes[target].name +
                     "': written turned towards it (glTF cameras have no target)");
        }
        if (node.kind == NodeKind::Light && node.object >= 0 && size_t(node.object) < m_lightOf.size() &&
            m_lightOf[node.object] >= 0)
            object["extensions"]["KHR_lights_punctual"]["light"] = m_lightOf[node.object];
        if (!object.empty()) {
            const glm::mat4 helper = helperTransform(m_scene, m_rest, i);
            if (isIdentity(helper)) {
                n.update(object);
            } else {
                object["name"] = node.name + " (object)";
                const Trs h = decompose(helper);
                putTrs(object, h);
                if (!h.exact)
                    note("node '" + node.name +
                         "': an object transform with shear written as the nearest T*R*S");
                m_nodes.push_back(object);
                kids.push_back(int(m_nodes.size() - 1));
                if (node.kind == NodeKind::Camera && m_scene.cameras[node.object].targetNode >= 0)
                    m_aimedCameras.push_back({int(i), int(m_nodes.size() - 1)});
            }
        }
        if (!kids.empty()) n["children"] = kids;
        if (!node.visible) n["extras"]["visible"] = false;
        if (node.kind == NodeKind::Bone) n["extras"]["bone"] = true;
        for (const UserAttribute& a : node.attributes) n["extras"]["attributes"][a.name] = a.value;
        m_nodes[i] = n;
    }
}

int Writer::pointNode(const std::string& name, const glm::vec3& position, Json extras) {
    Json n = {{"name", name}};
    if (position != glm::vec3(0.0f)) n["translation"] = vec3Json(position);
    n["extras"] = std::move(extras);
    m_nodes.push_back(n);
    return int(m_nodes.size() - 1);
}

void Writer::writePofPoints(const PofExtras& pof) {
    std::vector<int> group;
    auto firing = [&](const std::vector<std::vector<PofExtras::FiringPoint>>& slots, const char* kind) {
        for (size_t s = 0; s < slots.size(); ++s)
            for (size_t p = 0; p < slots[s].size(); ++p) {
                const PofExtras::FiringPoint& fp = slots[s][p];
                group.push_back(
                    pointNode(std::string(kind) + " " + std::to_string(s) + "." + std::to_string(p),
                              pofToScene(fp.position),
                              {{"pof", kind},
                               {"slot", s},
                               {"point", p},
                               {"normal", vec3Json(pofToScene(fp.normal))},
                               {"external_angle_offset", fp.externalAngleOffset}}));
            }
    };
    firing(pof.gunSlots, "gun");
    firing(pof.missileSlots, "missile");
    for (size_t d = 0; d < pof.docks.size(); ++d) {
        const PofExtras::Dock& dock = pof.docks[d];
        std::vector<int> points;
        for (size_t p = 0; p < dock.points.size(); ++p)
            points.push_back(pointNode(
                "dock " + std::to_string(d) + "." + std::to_string(p), pofToScene(dock.points[p].position),
                {{"pof", "dock point"}, {"normal", vec3Json(pofToScene(dock.points[p].normal))}}));
        Json n = {{"name", "dock " + std::to_string(d)},
                  {"extras", {{"pof", "dock"}, {"properties", dock.properties}, {"paths", dock.paths}}}};
        if (!points.empty()) n["children"] = points;
        m_nodes.push_back(n);
        group.push_back(int(m_nodes.size() - 1));
    }
    for (size_t t = 0; t < pof.thrusters.size(); ++t) {
        const PofExtras::Thruster& thruster = pof.thrusters[t];
        std::vector<int> glows;
        for (size_t g = 0; g < thruster.glows.size(); ++g)
            glows.push_back(pointNode("thruster " + std::to_string(t) + "." + std::to_string(g),
                                      pofToScene(thruster.glows[g].position),
                                      {{"pof", "thruster glow"},
                                       {"normal", vec3Json(pofToScene(thruster.glows[g].normal))},
                                       {"radius", thruster.glows[g].radius}}));
        Json n = {{"name", "thruster " + std::to_string(t)},
                  {"extras", {{"pof", "thruster"}, {"properties", thruster.properties}}}};
        if (!glows.empty()) n["children"] = glows;
        m_nodes.push_back(n);
        group.push_back(int(m_nodes.size() - 1));
    }
    for (const PofExtras::Path& path : pof.paths) {
        Json vertices = Json::array();
        for (const PofExtras::PathVertex& v : path.vertices)
            vertices.push_back({{"position", vec3Json(pofToScene(v.position))},
                                {"radius", v.radius},
                                {"turrets", v.turrets}});
        group.push_back(pointNode(path.name.empty() ? "path" : path.name, glm::vec3(0.0f),
                                  {{"pof", "path"}, {"parent", path.parent}, {"vertices", vertices}}));
    }
    for (const PofExtras::SpecialPoint& sp : pof.specialPoints)
        group.push_back(
            pointNode(sp.name.empty() ? "special point" : sp.name, pofToScene(sp.point),
                      {{"pof", "special point"}, {"properties", sp.properties}, {"radius", sp.radius}}));
    for (size_t e = 0; e < pof.eyePoints.size(); ++e)
        group.push_back(pointNode("eye " + std::to_string(e), pofToScene(pof.eyePoints[e].offset),
                                  {{"pof", "eye point"},
                                   {"subobject", pof.eyePoints[e].subobject},
                                   {"normal", vec3Json(pofToScene(pof.eyePoints[e].normal))}}));
    for (size_t t = 0; t < pof.turrets.size(); ++t) {
        const PofExtras::TurretBank& bank = pof.turrets[t];
        Json points = Json::array();
        for (const glm::vec3& p : bank.points) points.push_back(vec3Json(pofToScene(p)));
        group.push_back(pointNode("turret bank " + std::to_string(t), glm::vec3(0.0f),
                                  {{"pof", bank.missile ? "missile turret" : "gun turret"},
                                   {"subobject", bank.subobject},
                                   {"physical_parent", bank.physicalParent},
                                   {"normal", vec3Json(pofToScene(bank.normal))},
                                   {"points", points}}));
    }
    Json g = {{"name", "pof points"}, {"extras", {{"pof", "points"}}}};
    if (!group.empty()) g["children"] = group;
    m_nodes.push_back(g);
    m_pofGroup = int(m_nodes.size() - 1);
}

void Writer::writeScenes() {
    std::vector<int> roots;
    for (size_t i = 0; i < m_scene.nodes.size(); ++i)
        if (m_scene.nodes[i].parent < 0 || size_t(m_scene.nodes[i].parent) >= m_scene.nodes.size())
            roots.push_back(int(i));
    const PofExtras* pof = m_scene.pof.get();
    if (pof && !pof->detailLevels.empty()) {
        // One scene per detail level (LOD0 the default), and the roots no level holds (debris).
        std::set<int> used;
        for (size_t level = 0; level < pof->detailLevels.size(); ++level) {
            int node = -1;
            for (size_t s = 0; s < pof->subobjects.size() && s < m_scene.nodes.size(); ++s)
                if (pof->subobjects[s].number == pof->detailLevels[level]) node = int(s);
            if (node < 0) continue;
            for (int guard = 0; m_scene.nodes[node].parent >= 0 && guard < 1 << 16; ++guard)
                node = m_scene.nodes[node].parent;
            std::vector<int> nodes = {node};
            if (m_pofGroup >= 0) nodes.push_back(m_pofGroup);
            used.insert(node);
            m_scenes.push_back({{"name", "detail " + std::to_string(level)}, {"nodes", nodes}});
        }
        std::vector<int> rest;
        for (int r : roots)
            if (!used.count(r)) rest.push_back(r);
        if (!rest.empty()) m_scenes.push_back({{"name", "debris and other"}, {"nodes", rest}});
        if (!m_scenes.empty()) return;
    }
    if (m_pofGroup >= 0) roots.push_back(m_pofGroup);
    Json scene = {{"name", m_scene.format}};
    if (!roots.empty()) scene["nodes"] = roots;
    m_scenes.push_back(scene);
}

}  // namespace gltf

using gltf::helperTransform;
using gltf::isIdentity;

size_t pofPointNodeCount(const PofExtras& pof) {
    size_t n = 1 + pof.paths.size() + pof.specialPoints.size() + pof.eyePoints.size() + pof.turrets.size();
    for (const auto& slot : pof.gunSlots) n += slot.size();
    for (const auto& slot : pof.missileSlots) n += slot.size();
    for (const auto& dock : pof.docks) n += 1 + dock.points.size();
    for (const auto& thruster : pof.thrusters) n += 1 + thruster.glows.size();
    return n;
}

size_t gltfHelperNodeCount(const Scene& scene) {
    Pose rest;
    evaluatePose(scene, -1, 0.0f, rest);
    size_t n = 0;
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        if (!isIdentity(helperTransform(scene, rest, i))) ++n;
    if (scene.pof) n += pofPointNodeCount(*scene.pof);
    return n;
}

}  // namespace esv
