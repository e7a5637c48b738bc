// One validation pass over a finished scene: every index, count, stride, offset and reference is
// range-checked once so the renderer and the reference path can trust the scene.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "loaders/index_scan.h"
#include "loaders/load.h"

namespace esv {
namespace {

// Whether mesh `m`'s indices can be scanned (mesh() words why not), and their bytes.
uint64_t scannableIndexBytes(const Mesh& m) {
    const ComponentType t = m.indices.type;
    if (m.indices.count == 0 || (t != ComponentType::UInt8 && t != ComponentType::UInt16 && t != ComponentType::UInt32))
        return 0;
    const size_t isize = componentSize(t);
    return m.indices.count > m.indices.bytes.size / isize ? 0 : m.indices.count * isize;
}

// The largest index of each mesh (0 where there is none to scan), all-ones restarts left out where
// a submesh allows them (OpenGEX strips); with many indices, on two threads (scanOnTwoThreads).
std::vector<uint32_t> largestIndices(const Scene& scene) {
    const size_t n = scene.meshes.size();
    std::vector<uint32_t> largest(n, 0);
    auto scan = [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) {
            const Mesh& m = scene.meshes[i];
            if (scannableIndexBytes(m) == 0) continue;
            bool restartAllowed = false;
            for (const Submesh& sub : m.submeshes) restartAllowed |= sub.primitiveRestart;
            largest[i] = largestIndex(m.indices.type, m.indices.bytes.data, m.indices.count,
                                      componentSize(m.indices.type), restartAllowed);
        }
    };
    scanOnTwoThreads(
        n, [&](size_t i) { return scannableIndexBytes(scene.meshes[i]); }, scan);
    return largest;
}

class Validator {
public:
    Validator(const Scene& scene, const std::string& file, std::vector<Problem>& problems)
        : m_scene(scene), m_file(file), m_problems(problems) {}

    void run() {
        const int nodeCount = static_cast<int>(m_scene.nodes.size());
        m_largestIndex = largestIndices(m_scene);
        for (size_t i = 0; i < m_scene.meshes.size(); ++i) mesh(i);
        for (size_t i = 0; i < m_scene.nodes.size(); ++i) node(i, nodeCount);
        parentCycles();
        for (size_t i = 0; i < m_scene.skins.size(); ++i) {
            const Skin& skin = m_scene.skins[i];
            std::string where = "skin " + std::to_string(i);
            if (skin.inverseBind.size() != skin.joints.size())
                add(where, std::to_string(skin.joints.size()) + " joints but " +
                               std::to_string(skin.inverseBind.size()) + " inverse bind matrices");
            for (int32_t j : skin.joints)
                if (j < 0 || j >= nodeCount) add(where, "joint node " + std::to_string(j) + outOf(nodeCount, "nodes"));
            if (skin.skeletonRoot >= nodeCount) add(where, "skeleton root " + std::to_string(skin.skeletonRoot) + outOf(nodeCount, "nodes"));
        }
        for (size_t i = 0; i < m_scene.materials.size(); ++i) {
            const Material& m = m_scene.materials[i];
            for (size_t s = 0; s < m.textures.size(); ++s) {
                int32_t t = m.textures[s].texture;
                if (t < -1 || t >= static_cast<int32_t>(m_scene.textures.size()))
                    add("material " + std::to_string(i) + " / " + textureSlotName(static_cast<TextureSlot>(s)) + " texture",
                        "texture index " + std::to_string(t) + outOf(m_scene.textures.size(), "textures"));
                const int32_t uv = m.textures[s].uvTransform;
                if (uv < -1 || uv >= static_cast<int32_t>(m_scene.uvTransforms.size()))
                    add("material " + std::to_string(i) + " / " + textureSlotName(static_cast<TextureSlot>(s)) + " texture",
                        "uv transform " + std::to_string(uv) + outOf(m_scene.uvTransforms.size(), "uv transforms"));
            }
        }
        for (size_t i = 0; i < m_scene.lights.size(); ++i) {
            if (m_scene.lights[i].targetNode < -1 || m_scene.lights[i].targetNode >= nodeCount)
                add("light " + std::to_string(i), "target node " + std::to_string(m_scene.lights[i].targetNode) + outOf(nodeCount, "nodes"));
            const int32_t t = m_scene.lights[i].projection.texture;
            if (t < -1 || t >= static_cast<int32_t>(m_scene.textures.size()))
                add("light " + std::to_string(i) + " / projection texture",
                    "texture index " + std::to_string(t) + outOf(m_scene.textures.size(), "textures"));
        }
        for (size_t i = 0; i < m_scene.cameras.size(); ++i)
            if (m_scene.cameras[i].targetNode < -1 || m_scene.cameras[i].targetNode >= nodeCount)
                add("camera " + std::to_string(i), "target node " + std::to_string(m_scene.cameras[i].targetNode) + outOf(nodeCount, "nodes"));
        for (size_t c = 0; c < m_scene.animation.clips.size(); ++c) clip(c, nodeCount);
    }

private:
    static std::string outOf(size_t count, const char* what) {
        return " out of range (" + std::to_string(count) + " " + what + ")";
    }
    void add(std::string where, std::string message) {
        m_problems.push_back({m_file, -1, 0, 0, std::move(where), std::move(message)});
    }

    void stream(const VertexStream& s, uint32_t vertexCount, const std::string& where) {
        if (s.count < vertexCount)
            add(where, "holds " + std::to_string(s.count) + " vertices, the mesh needs " + std::to_string(vertexCount));
        for (const VertexAttribute& a : s.attributes) {
            std::string aw = where + " / " + semanticName(a.semantic);
            if (a.type >= ComponentType::Count) {
                add(aw, "unknown component type");
                continue;
            }
            if (a.components < 1 || a.components > 4) {
                add(aw, std::to_string(a.components) + " components (1 to 4 allowed)");
                continue;
            }
            uint64_t size = isPacked(a.type) ? 4 : uint64_t(componentSize(a.type)) * a.components;
            if (uint64_t(a.offset) + size > s.stride && s.count > 1)
                add(aw, "offset " + std::to_string(a.offset) + " + size " + std::to_string(size) +
                            " does not fit in the stride " + std::to_string(s.stride));
            if (s.count > 0) {
                uint64_t need = uint64_t(s.stride) * (s.count - 1) + a.offset + size;
                if (need > s.bytes.size)
                    add(aw, std::to_string(s.count) + " vertices of stride " + std::to_string(s.stride) + " need " +
                                std::to_string(need) + " bytes, the data holds " + std::to_string(s.bytes.size));
            }
        }
    }

    void mesh(size_t index) {
        const Mesh& m = m_scene.meshes[index];
        const std::string where = "mesh " + std::to_string(index);
        for (size_t i = 0; i < m.streams.size(); ++i)
            stream(m.streams[i], m.vertexCount, where + " / stream " + std::to_string(i));
        for (size_t i = 0; i < m.morphTargets.size(); ++i)
            stream(m.morphTargets[i].stream, m.vertexCount, where + " / morph target " + std::to_string(i));
        if (!m.defaultMorphWeights.empty() && m.defaultMorphWeights.size() != m.morphTargets.size())
            add(where, std::to_string(m.defaultMorphWeights.size()) + " default morph weights for " +
                           std::to_string(m.morphTargets.size()) + " targets");

        const uint64_t indexCount = m.indices.count;
        if (indexCount > 0) {
            ComponentType t = m.indices.type;
            if (t != ComponentType::UInt8 && t != ComponentType::UInt16 && t != ComponentType::UInt32) {
                add(where + " / indices", std::string("index type ") + componentTypeName(t) + " is not an unsigned integer");
                return;
            }
            size_t isize = componentSize(t);
            if (indexCount > m.indices.bytes.size / isize) {
                add(where + " / indices", std::to_string(indexCount) + " indices need " + std::to_string(indexCount * isize) +
                                              " bytes, the data holds " + std::to_string(m.indices.bytes.size));
                return;
            }
            const uint32_t maxIndex = m_largestIndex[index];
            if (maxIndex >= m.vertexCount && indexCount > 0)
                add(where + " / indices", "index " + std::to_string(maxIndex) + outOf(m.vertexCount, "vertices"));
        }
        const uint64_t limit = indexCount > 0 ? indexCount : m.vertexCount;
        for (size_t i = 0; i < m.submeshes.size(); ++i) {
            const Submesh& s = m.submeshes[i];
            std::string sw = where + " / submesh " + std::to_string(i);
            if (s.primitive >= Primitive::Count) add(sw, "unknown primitive type");
            if (uint64_t(s.firstIndex) + s.indexCount > limit)
                add(sw, "range " + std::to_string(s.firstIndex) + " + " + std::to_string(s.indexCount) + " exceeds the " +
                            std::to_string(limit) + (indexCount > 0 ? " indices" : " vertices"));
            if (!s.stripLengths.empty()) {
                uint64_t used = 0;
                for (uint32_t len : s.stripLengths) used += uint64_t(len) + 2;
                if (used > s.indexCount)
                    add(sw, "strips need " + std::to_string(used) + " indices, the range holds " + std::to_string(s.indexCount));
            }
        }
        const uint32_t triangles = triangleCount(m);
        for (size_t b = 0; b < m.boneBatches.size(); ++b) {
            const BoneBatch& batch = m.boneBatches[b];
            std::string bw = where + " / bone batch " + std::to_string(b);
            if (uint64_t(batch.firstTriangle) + batch.triangleCount > triangles)
                add(bw, "triangles " + std::to_string(batch.firstTriangle) + " + " + std::to_string(batch.triangleCount) +
                            " exceed the mesh's " + std::to_string(triangles));
            if (batch.bones.size() > m.maxBonesPerBatch && m.maxBonesPerBatch > 0)
                add(bw, std::to_string(batch.bones.size()) + " bones, more than the mesh's maximum " +
                            std::to_string(m.maxBonesPerBatch));
        }
    }

    void node(size_t index, int nodeCount) {
        const Node& n = m_scene.nodes[index];
        const std::string where = "node " + std::to_string(index);
        if (n.parent < -1 || n.parent >= nodeCount || n.parent == static_cast<int>(index))
            add(where, "parent " + std::to_string(n.parent) + (n.parent == static_cast<int>(index) ? " is the node itself" : outOf(nodeCount, "nodes")));
        size_t objects = 0;
        const char* what = "objects";
        switch (n.kind) {
            case NodeKind::Mesh: objects = m_scene.meshes.size(); what = "meshes"; break;
            case NodeKind::Light: objects = m_scene.lights.size(); what = "lights"; break;
            case NodeKind::Camera: objects = m_scene.cameras.size(); what = "cameras"; break;
            default: break;
        }
        if ((n.kind == NodeKind::Mesh || n.kind == NodeKind::Light || n.kind == NodeKind::Camera) &&
            (n.object < 0 || static_cast<size_t>(n.object) >= objects))
            add(where, std::string(nodeKindName(n.kind)) + " index " + std::to_string(n.object) + outOf(objects, what));
        for (int32_t m : n.materials)
            if (m < -1 || m >= static_cast<int32_t>(m_scene.materials.size()))
                add(where, "material index " + std::to_string(m) + outOf(m_scene.materials.size(), "materials"));
        if (n.skin < -1 || n.skin >= static_cast<int32_t>(m_scene.skins.size()))
            add(where, "skin index " + std::to_string(n.skin) + outOf(m_scene.skins.size(), "skins"));
        if (n.kind == NodeKind::Mesh && n.object >= 0 && static_cast<size_t>(n.object) < m_scene.meshes.size()) {
            const Mesh& mesh = m_scene.meshes[n.object];
            if (n.skin >= 0 && static_cast<size_t>(n.skin) < m_scene.skins.size()) {
                size_t joints = m_scene.skins[n.skin].joints.size();
                for (size_t b = 0; b < mesh.boneBatches.size(); ++b)
                    for (int32_t bone : mesh.boneBatches[b].bones)
                        if (bone < 0 || static_cast<size_t>(bone) >= joints)
                            add(where + " / bone batch " + std::to_string(b),
                                "bone " + std::to_string(bone) + outOf(joints, "skin joints"));
            }
        }
    }

    void parentCycles() {
        const size_t n = m_scene.nodes.size();
        // 0 = unvisited, 1 = on the current walk, 2 = known to reach a root: linear in the node count.
        std::vector<uint8_t> state(n, 0);
        std::vector<size_t> walk;
        for (size_t i = 0; i < n; ++i) {
            walk.clear();
            size_t node = i;
            while (state[node] != 2) {
                if (state[node] == 1) {  // met the current walk again
                    add("node " + std::to_string(node), "its parent chain loops");
                    return;
                }
                state[node] = 1;
                walk.push_back(node);
                const int32_t p = m_scene.nodes[node].parent;
                if (p < 0 || static_cast<size_t>(p) >= n) break;
                node = static_cast<size_t>(p);
            }
            for (size_t w : walk) state[w] = 2;
        }
    }

    void clip(size_t index, int nodeCount) {
        const Clip& c = m_scene.animation.clips[index];
        for (size_t t = 0; t < c.tracks.size(); ++t) {
            const Track& tr = c.tracks[t];
            std::string where = "clip " + std::to_string(index) + " / track " + std::to_string(t);
            if (tr.channel == Channel::UvElement) {
                // A texture coordinate transform's element, not a node.
                const int uvCount = static_cast<int>(m_scene.uvTransforms.size());
                if (tr.uvTransform < 0 || tr.uvTransform >= uvCount) {
                    add(where, "uv transform " + std::to_string(tr.uvTransform) + outOf(uvCount, "uv transforms"));
                } else if (tr.element >= m_scene.uvTransforms[tr.uvTransform].elements.size()) {
                    add(where, "element " + std::to_string(tr.element) +
                                   outOf(m_scene.uvTransforms[tr.uvTransform].elements.size(), "elements"));
                }
            } else if (tr.node < 0 || tr.node >= nodeCount) {
                add(where, "node " + std::to_string(tr.node) + outOf(nodeCount, "nodes"));
            }
            if (tr.components == 0 || tr.components > 64) {
                add(where, std::to_string(tr.components) + " components per key");
                continue;
            }
            const size_t keys = tr.times.size();
            if (tr.values.size() != uint64_t(keys) * tr.components)
                add(where, std::to_string(tr.values.size()) + " values for " + std::to_string(keys) + " keys of " +
                               std::to_string(tr.components));
            for (size_t k = 1; k < keys; ++k)
                if (!(tr.times[k] >= tr.times[k - 1])) {
                    add(where, "key times are not ascending at key " + std::to_string(k));
                    break;
                }
            if (tr.interpolation == Interpolation::Bezier &&
                (tr.inValues.size() != tr.values.size() || tr.outValues.size() != tr.values.size()))
                add(where, "Bezier track without a control value per key and component");
            if (tr.interpolation == Interpolation::Tcb &&
                (tr.tension.size() != keys || tr.continuity.size() != keys || tr.bias.size() != keys))
                add(where, "TCB track without tension, continuity and bias per key");
        }
    }

    const Scene& m_scene;
    const std::string& m_file;
    std::vector<Problem>& m_problems;
    std::vector<uint32_t> m_largestIndex;  // per mesh (largestIndices)
};

}  // namespace

void validateScene(const Scene& scene, const std::string& file, std::vector<Problem>& problems) {
    Validator(scene, file, problems).run();
}

}  // namespace esv
