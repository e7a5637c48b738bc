#include "convert/gltf/gltf_skin.h"

#include <algorithm>

#include "scene/cpu_reference.h"

namespace esv::gltf {
namespace {

// As the CPU reference: the first batch whose triangle range uses the vertex.
std::vector<int32_t> batchPerVertex(const Mesh& mesh) {
    std::vector<int32_t> batchOf(mesh.vertexCount, -1);
    if (mesh.boneBatches.empty()) return batchOf;
    std::vector<uint32_t> triangles;
    expandTriangles(mesh, triangles);
    const size_t all = triangles.size() / 3;
    for (size_t b = 0; b < mesh.boneBatches.size(); ++b) {
        const BoneBatch& batch = mesh.boneBatches[b];
        const size_t end = std::min<size_t>(size_t(batch.firstTriangle) + batch.triangleCount, all);
        for (size_t t = batch.firstTriangle; t < end; ++t)
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = triangles[t * 3 + k];
                if (v < batchOf.size() && batchOf[v] < 0) batchOf[v] = static_cast<int32_t>(b);
            }
    }
    return batchOf;
}

}  // namespace

VertexInfluences mergeBoneBatches(const Mesh& mesh, uint32_t jointCount) {
    VertexInfluences result;
    struct Set {
        const VertexStream *indexStream = nullptr, *weightStream = nullptr;
        const VertexAttribute *indices = nullptr, *weights = nullptr;
    };
    std::vector<Set> sets;
    for (uint8_t s = 0; s < 16; ++s) {
        Set set;
        set.indices = findAttribute(mesh, Semantic::BoneIndices, s, &set.indexStream);
        set.weights = findAttribute(mesh, Semantic::BoneWeights, s, &set.weightStream);
        if (!set.indices || !set.weights) break;
        sets.push_back(set);
    }
    if (sets.empty() || jointCount == 0) return result;
    const std::vector<int32_t> batchOf =
        mesh.boneIndicesBatchLocal ? batchPerVertex(mesh) : std::vector<int32_t>();

    struct Influence {
        uint32_t joint;
        float weight;
    };
    std::vector<std::vector<Influence>> perVertex(mesh.vertexCount);
    std::vector<float> sums(mesh.vertexCount, 0.0f);
    size_t most = 1;
    float idx[4], wts[4];
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
        std::vector<Influence>& list = perVertex[v];
        float total = 0.0f;
        for (size_t s = 0; s < sets.size(); ++s) {
            const int influences = readAttribute(*sets[s].indexStream, *sets[s].indices, v, idx);
            const int weightCount = readAttribute(*sets[s].weightStream, *sets[s].weights, v, wts);
            for (int k = 0; k < influences && k < 4; ++k) {
                const float w = k < weightCount ? wts[k] : s == 0 ? 1.0f - total : 0.0f;
                if (w == 0.0f) continue;
                if (!(idx[k] >= 0.0f && idx[k] < 65536.0f)) {
                    ++result.droppedInfluences;
                    continue;
                }
                const int local = static_cast<int>(idx[k]);
                int joint = local;
                if (mesh.boneIndicesBatchLocal) {
                    const int32_t b = batchOf.empty() ? -1 : batchOf[v];
                    if (b < 0 || static_cast<size_t>(local) >= mesh.boneBatches[b].bones.size()) {
                        ++result.droppedInfluences;
                        continue;
                    }
                    joint = mesh.boneBatches[b].bones[local];
                }
                if (joint < 0 || static_cast<uint32_t>(joint) >= jointCount) {
                    ++result.droppedInfluences;
                    continue;
                }
                total += w;
                auto same = std::find_if(list.begin(), list.end(),
                                         [&](const Influence& i) { return i.joint == uint32_t(joint); });
                if (same != list.end()) {
                    same->weight += w;
                } else {
                    list.push_back({uint32_t(joint), w});
                }
            }
        }
        // Negative or cancelling weights cannot be written: glTF weights are non-negative.
        list.erase(
            std::remove_if(list.begin(), list.end(), [](const Influence& i) { return !(i.weight > 0.0f); }),
            list.end());
        for (const Influence& i : list) sums[v] += i.weight;
        if (list.empty()) {
            ++result.unweighted;
            list.push_back({0, 1.0f});
        }
        most = std::max(most, list.size());
    }
    result.sets = uint32_t((most + 3) / 4);
    const size_t slots = size_t(result.sets) * 4;
    result.rawSums = sums;
    result.joints.assign(size_t(mesh.vertexCount) * slots, 0);
    result.weights.assign(size_t(mesh.vertexCount) * slots, 0.0f);
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
        std::vector<Influence>& list = perVertex[v];
        std::stable_sort(list.begin(), list.end(),
                         [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
        float sum = 0.0f;
        for (const Influence& i : list) sum += i.weight;
        for (size_t k = 0; k < list.size(); ++k) {
            result.joints[v * slots + k] = static_cast<uint16_t>(list[k].joint);
            result.weights[v * slots + k] = list[k].weight / sum;
        }
    }
    return result;
}

}  // namespace esv::gltf
