// Re-batching with influence reduction (scene/rebatch.h): meshes built by hand (a skinned tube
// around a bone chain, batch-less or in POD-style batch-local bands), re-batched under ES2-like
// budgets; the CPU reference must skin every triangle corner to the same place before and after.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>

#include "scene/cpu_reference.h"
#include "scene/rebatch.h"
#include "scene/sampler.h"

namespace esv {
namespace {

constexpr float kBoneLength = 0.5f;

// ---------------------------------------------------------------------------------------------
// Mesh building

struct Vtx {
    glm::vec3 p{0.0f};
    glm::vec3 n{0.0f, 0.0f, 1.0f};
    glm::vec2 uv{0.0f};
    glm::vec2 uv1{0.0f};
    uint8_t color[4] = {10, 20, 30, 255};
    std::vector<std::pair<int, float>> influences;  // joint (or batch-local) index, weight
};

struct Layout {
    ComponentType boneIndexType = ComponentType::UInt16;
    uint8_t boneComponents = 4;
    ComponentType weightType = ComponentType::Float32;  // or normalised UInt8
    bool secondSet = false;  // a second stream with TexCoord set 1 and 2 more influences (set 1)
};

void put(std::vector<uint8_t>& b, size_t at, const void* p, size_t n) {
    std::memcpy(b.data() + at, p, n);  // the test host is little-endian, like every target
}

void putComponent(std::vector<uint8_t>& b, size_t at, ComponentType type, float v) {
    switch (type) {
        case ComponentType::Float32:
            put(b, at, &v, 4);
            break;
        case ComponentType::UInt8:
            b[at] = static_cast<uint8_t>(v);
            break;
        case ComponentType::UInt16: {
            const uint16_t u = static_cast<uint16_t>(v);
            put(b, at, &u, 2);
            break;
        }
        default:
            FAIL() << "type not used by these tests";
    }
}

// Stream 0 interleaves at unaligned offsets: position Float32 x3 @0, normal Int8 normalised x3 @12,
// texcoord UInt16 normalised x2 @15, colour UInt8 normalised x4 BGRA @19, bone indices @23, weights.
Mesh buildMesh(const std::vector<Vtx>& verts, const Layout& layout) {
    Mesh mesh;
    mesh.name = "tube";
    mesh.vertexCount = static_cast<uint32_t>(verts.size());
    const uint32_t indexSize = static_cast<uint32_t>(componentSize(layout.boneIndexType));
    const uint32_t weightSize = static_cast<uint32_t>(componentSize(layout.weightType));
    const uint32_t idxOffset = 23, wOffset = idxOffset + indexSize * layout.boneComponents;
    VertexStream s0;
    s0.stride = wOffset + weightSize * layout.boneComponents + 1;  // one spare byte
    s0.count = mesh.vertexCount;
    const bool normW = layout.weightType != ComponentType::Float32;
    s0.attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0},
        {Semantic::Normal, 0, ComponentType::Int8, 3, true, Swizzle::Identity, 12},
        {Semantic::TexCoord, 0, ComponentType::UInt16, 2, true, Swizzle::Identity, 15},
        {Semantic::Color, 0, ComponentType::UInt8, 4, true, Swizzle::BGRA, 19},
        {Semantic::BoneIndices, 0, layout.boneIndexType, layout.boneComponents, false, Swizzle::Identity,
         idxOffset},
        {Semantic::BoneWeights, 0, layout.weightType, layout.boneComponents, normW, Swizzle::Identity,
         wOffset},
    };
    std::vector<uint8_t> b0(size_t(s0.stride) * verts.size(), 0xAB);
    VertexStream s1;
    s1.stride = 18;  // texcoord set 1 Float32 x2 @0, indices UInt8 x2 @8, weights Float32 x2 @10 (unaligned)
    s1.count = mesh.vertexCount;
    s1.attributes = {
        {Semantic::TexCoord, 1, ComponentType::Float32, 2, false, Swizzle::Identity, 0},
        {Semantic::BoneIndices, 1, ComponentType::UInt8, 2, false, Swizzle::Identity, 8},
        {Semantic::BoneWeights, 1, ComponentType::Float32, 2, false, Swizzle::Identity, 10},
    };
    std::vector<uint8_t> b1(size_t(s1.stride) * verts.size(), 0);
    for (size_t i = 0; i < verts.size(); ++i) {
        const Vtx& v = verts[i];
        const size_t at = i * s0.stride;
        put(b0, at, &v.p, 12);
        for (int c = 0; c < 3; ++c)
            b0[at + 12 + c] = static_cast<uint8_t>(static_cast<int8_t>(std::lround(v.n[c] * 127.0f)));
        for (int c = 0; c < 2; ++c) {
            const uint16_t u = static_cast<uint16_t>(std::lround(std::clamp(v.uv[c], 0.0f, 1.0f) * 65535.0f));
            put(b0, at + 15 + 2 * c, &u, 2);
        }
        put(b0, at + 19, v.color, 4);
        for (uint32_t k = 0; k < layout.boneComponents; ++k) {
            const bool has = k < v.influences.size();
            putComponent(b0, at + idxOffset + k * indexSize, layout.boneIndexType,
                         has ? float(v.influences[k].first) : 0.0f);
            const float w = has ? v.influences[k].second : 0.0f;
            putComponent(b0, at + wOffset + k * weightSize, layout.weightType,
                         normW ? std::round(w * 255.0f) : w);
        }
        if (layout.secondSet) {
            const size_t at1 = i * s1.stride;
            put(b1, at1, &v.uv1, 8);
            for (uint32_t k = 0; k < 2; ++k) {
                const size_t j = layout.boneComponents + k;
                const bool has = j < v.influences.size();
                b1[at1 + 8 + k] = static_cast<uint8_t>(has ? v.influences[j].first : 0);
                const float w = has ? v.influences[j].second : 0.0f;
                put(b1, at1 + 10 + 4 * k, &w, 4);
            }
        }
    }
    s0.bytes = makeOwnedBytes(std::move(b0));
    mesh.streams.push_back(std::move(s0));
    if (layout.secondSet) {
        s1.bytes = makeOwnedBytes(std::move(b1));
        mesh.streams.push_back(std::move(s1));
    }
    return mesh;
}

void setIndices(Mesh& mesh, const std::vector<uint32_t>& indices, ComponentType type) {
    const size_t size = componentSize(type);
    std::vector<uint8_t> bytes(indices.size() * size);
    for (size_t i = 0; i < indices.size(); ++i) {
        if (size == 1) bytes[i] = static_cast<uint8_t>(indices[i]);
        if (size == 2) {
            const uint16_t v = static_cast<uint16_t>(indices[i]);
            std::memcpy(&bytes[2 * i], &v, 2);
        }
        if (size == 4) std::memcpy(&bytes[4 * i], &indices[i], 4);
    }
    mesh.indices.type = type;
    mesh.indices.count = static_cast<uint32_t>(indices.size());
    mesh.indices.bytes = makeOwnedBytes(std::move(bytes));
}

Submesh submesh(Primitive primitive, uint32_t first, uint32_t count, uint32_t slot) {
    Submesh s;
    s.primitive = primitive;
    s.firstIndex = first;
    s.indexCount = count;
    s.materialSlot = slot;
    return s;
}

// A tube of `segments` vertices per ring around a chain of `bones` bones along +Y; ring r sits at
// y = r * kBoneLength and is weighted (1, 3, 3, 1) to bones r-2 .. r+1 (those that exist), so a
// band of triangles between two rings touches 5 bones.
Vtx tubeVertex(int ring, int segment, int segments, int bones) {
    Vtx v;
    const float a = 6.2831853f * float(segment) / float(segments);
    v.p = {0.5f * std::cos(a), float(ring) * kBoneLength, 0.5f * std::sin(a)};
    v.n = glm::normalize(glm::vec3(std::cos(a), 0.1f, std::sin(a)));
    v.uv = {float(segment) / float(segments), float(ring) / float(bones)};
    v.uv1 = {float(ring), float(segment)};
    v.color[0] = static_cast<uint8_t>(ring);
    v.color[1] = static_cast<uint8_t>(segment);
    const float shape[4] = {1, 3, 3, 1};
    float total = 0.0f;
    for (int k = 0; k < 4; ++k) {
        const int bone = ring - 2 + k;
        if (bone >= 0 && bone < bones) {
            v.influences.push_back({bone, shape[k]});
            total += shape[k];
        }
    }
    for (auto& inf : v.influences) inf.second /= total;
    return v;
}

// Vertices of rings [ring0, ring1] and the triangles of the bands between them (quads split in two).
void tube(int ring0, int ring1, int segments, int bones, std::vector<Vtx>& verts,
          std::vector<uint32_t>& tris) {
    const uint32_t base = static_cast<uint32_t>(verts.size());
    for (int r = ring0; r <= ring1; ++r)
        for (int s = 0; s < segments; ++s) verts.push_back(tubeVertex(r, s, segments, bones));
    auto at = [&](int r, int s) { return base + uint32_t((r - ring0) * segments + (s % segments)); };
    for (int r = ring0; r < ring1; ++r)
        for (int s = 0; s < segments; ++s)
            tris.insert(tris.end(),
                        {at(r, s), at(r + 1, s), at(r + 1, s + 1), at(r, s), at(r + 1, s + 1), at(r, s + 1)});
}

// The whole tube as one batch-less triangle list with global joint indices.
Mesh chainMesh(int bones, int segments, const Layout& layout = {}) {
    std::vector<Vtx> verts;
    std::vector<uint32_t> tris;
    tube(0, bones, segments, bones, verts, tris);
    Mesh mesh = buildMesh(verts, layout);
    setIndices(mesh, tris, verts.size() > 0xFFFF ? ComponentType::UInt32 : ComponentType::UInt16);
    mesh.submeshes.push_back(submesh(Primitive::Triangles, 0, static_cast<uint32_t>(tris.size()), 0));
    return mesh;
}

// POD-style: bands of `bandRings` ring intervals, each its own bone batch with batch-local UInt8
// indices; the ring where two bands meet is stored once per band.
Mesh podChainMesh(int bones, int segments, int bandRings) {
    std::vector<Vtx> verts;
    std::vector<uint32_t> tris;
    std::vector<BoneBatch> batches;
    for (int r0 = 0; r0 < bones; r0 += bandRings) {
        const int r1 = std::min(r0 + bandRings, bones);
        const size_t firstVertex = verts.size();
        BoneBatch batch;
        batch.firstTriangle = static_cast<uint32_t>(tris.size() / 3);
        tube(r0, r1, segments, bones, verts, tris);
        batch.triangleCount = static_cast<uint32_t>(tris.size() / 3) - batch.firstTriangle;
        const int firstBone = std::max(0, r0 - 2), lastBone = std::min(bones - 1, r1 + 1);
        for (int j = firstBone; j <= lastBone; ++j) batch.bones.push_back(j);
        for (size_t v = firstVertex; v < verts.size(); ++v)
            for (auto& inf : verts[v].influences) inf.first -= firstBone;
        batches.push_back(std::move(batch));
    }
    Layout layout;
    layout.boneIndexType = ComponentType::UInt8;
    Mesh mesh = buildMesh(verts, layout);
    setIndices(mesh, tris, ComponentType::UInt16);
    mesh.submeshes.push_back(submesh(Primitive::Triangles, 0, static_cast<uint32_t>(tris.size()), 0));
    mesh.boneIndicesBatchLocal = true;
    for (const BoneBatch& b : batches)
        mesh.maxBonesPerBatch = std::max<uint32_t>(mesh.maxBonesPerBatch, uint32_t(b.bones.size()));
    mesh.boneBatches = std::move(batches);
    return mesh;
}

// Nodes 0 .. bones-1: the chain (bone i at y = i * kBoneLength at rest); node `bones`: the mesh
// instance with skin 0 (inverse binds from the rest pose).
Scene chainScene(int bones, Mesh mesh) {
    Scene scene;
    for (int i = 0; i < bones; ++i) {
        Node n;
        n.name = "bone" + std::to_string(i);
        n.kind = NodeKind::Bone;
        n.parent = i - 1;
        n.local.translation = {0.0f, i == 0 ? 0.0f : kBoneLength, 0.0f};
        scene.nodes.push_back(n);
    }
    Node m;
    m.name = "tube";
    m.kind = NodeKind::Mesh;
    m.object = 0;
    m.skin = 0;
    m.materials = {0, 0, 0, 0, 0, 0};
    scene.nodes.push_back(m);
    Skin skin;
    for (int i = 0; i < bones; ++i) {
        skin.joints.push_back(i);
        skin.inverseBind.push_back(
            glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -float(i) * kBoneLength, 0.0f)));
    }
    scene.skins.push_back(skin);
    scene.meshes.push_back(std::move(mesh));
    return scene;
}

// A bent, twisted, scaled chain: world matrices set directly, bone by bone.
void randomPose(const Scene& scene, int bones, uint32_t seed, Pose& pose) {
    evaluatePose(scene, -1, 0.0f, pose);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> angle(-0.35f, 0.35f), unit(-1.0f, 1.0f), scale(0.8f, 1.25f);
    glm::mat4 parent = glm::translate(glm::mat4(1.0f), glm::vec3(unit(rng), unit(rng), unit(rng)));
    for (int i = 0; i < bones; ++i) {
        glm::vec3 axis(unit(rng), unit(rng), unit(rng));
        if (glm::length(axis) < 1e-3f) axis = {0, 0, 1};
        glm::mat4 local = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, i == 0 ? 0.0f : kBoneLength, 0.0f));
        local = glm::rotate(local, angle(rng), glm::normalize(axis));
        local = glm::scale(local, glm::vec3(scale(rng), scale(rng), scale(rng)));
        pose.world[i] = parent * local;
        parent = pose.world[i];
    }
    const size_t meshNode = static_cast<size_t>(bones);
    if (meshNode < pose.morphWeights.size() && !scene.meshes[0].morphTargets.empty())
        pose.morphWeights[meshNode] = {0.7f, 0.4f};
}

// ---------------------------------------------------------------------------------------------
// Checks

// Every triangle corner skins to the same world position (and normal) in both scenes, to 1e-5 of
// the model's size.
void expectSameSkinning(const Scene& before, const Scene& after, int node, const Pose& pose) {
    std::vector<glm::vec3> p0, p1, n0, n1;
    worldVertices(before, pose, node, p0, &n0);
    worldVertices(after, pose, node, p1, &n1);
    std::vector<uint32_t> t0, t1;
    expandTriangles(before.meshes[0], t0);
    expandTriangles(after.meshes[0], t1);
    ASSERT_EQ(t0.size(), t1.size());
    ASSERT_FALSE(t0.empty());
    Bounds box;
    for (uint32_t v : t0) box.add(p0[v]);
    const float tolerance = 1e-5f * glm::length(box.max - box.min);
    float worst = 0.0f, worstNormal = 0.0f;
    for (size_t c = 0; c < t0.size(); ++c) {
        worst = std::max(worst, glm::length(p0[t0[c]] - p1[t1[c]]));
        if (!n0.empty() && !n1.empty())
            worstNormal = std::max(worstNormal, glm::length(n0[t0[c]] - n1[t1[c]]));
    }
    EXPECT_LT(worst, tolerance) << "model size " << glm::length(box.max - box.min);
    EXPECT_LT(worstNormal, 1e-4f);
}

// The output's shape: contiguous batches covering every triangle, each within the budget; every
// vertex used by exactly one batch; every stored bone index inside its batch; triangle lists only.
void expectWellBatched(const Mesh& out, uint32_t budget) {
    EXPECT_TRUE(out.boneIndicesBatchLocal);
    EXPECT_EQ(out.maxBonesPerBatch, budget);
    for (const Submesh& s : out.submeshes)
        if (s.indexCount > 0) {
            EXPECT_EQ(s.primitive, Primitive::Triangles);
        }
    std::vector<uint32_t> tris;
    expandTriangles(out, tris);
    uint32_t next = 0;
    std::vector<int32_t> batchOf(out.vertexCount, -1);
    for (size_t b = 0; b < out.boneBatches.size(); ++b) {
        const BoneBatch& batch = out.boneBatches[b];
        EXPECT_EQ(batch.firstTriangle, next);
        EXPECT_GT(batch.triangleCount, 0u);
        next = batch.firstTriangle + batch.triangleCount;
        EXPECT_LE(batch.bones.size(), budget);
        EXPECT_EQ(std::set<int32_t>(batch.bones.begin(), batch.bones.end()).size(), batch.bones.size());
        for (uint32_t t = batch.firstTriangle; t < next && t * 3 + 2 < tris.size(); ++t)
            for (int k = 0; k < 3; ++k) {
                int32_t& owner = batchOf[tris[t * 3 + k]];
                if (owner < 0) owner = static_cast<int32_t>(b);
                ASSERT_EQ(owner, static_cast<int32_t>(b))
                    << "vertex " << tris[t * 3 + k] << " shared by two batches";
            }
    }
    EXPECT_EQ(size_t(next) * 3, tris.size());
    const VertexStream* is = nullptr;
    const VertexAttribute* ia = findAttribute(out, Semantic::BoneIndices, 0, &is);
    ASSERT_NE(ia, nullptr);
    EXPECT_EQ(findAttribute(out, Semantic::BoneIndices, 1, nullptr), nullptr);
    float idx[4];
    for (uint32_t v = 0; v < out.vertexCount; ++v) {
        ASSERT_GE(batchOf[v], 0) << "vertex " << v << " is in no batch";
        const int n = readAttribute(*is, *ia, v, idx);
        const size_t size = out.boneBatches[batchOf[v]].bones.size();
        for (int k = 0; k < n; ++k) EXPECT_LT(idx[k], float(std::max<size_t>(size, 1))) << "vertex " << v;
    }
}

uint32_t usedVertices(const Mesh& mesh) {
    std::vector<uint32_t> tris;
    expandTriangles(mesh, tris);
    return static_cast<uint32_t>(std::set<uint32_t>(tris.begin(), tris.end()).size());
}

// ---------------------------------------------------------------------------------------------
// Tests

TEST(RebatchBones, Chain200BonesWithoutBatchesUnderEs2Budgets) {
    const int bones = 200, segments = 8;
    const Scene before = chainScene(bones, chainMesh(bones, segments));
    for (uint32_t budget : {24u, 32u}) {
        SCOPED_TRACE("budget " + std::to_string(budget));
        RebatchResult r = rebatchBones(before.meshes[0], budget);
        ASSERT_TRUE(r.ok) << r.error;
        const RebatchSummary& s = r.summary;
        EXPECT_TRUE(s.changed);
        EXPECT_EQ(s.triangles, uint32_t(bones * segments * 2));
        EXPECT_EQ(triangleCount(r.mesh), s.triangles);
        EXPECT_EQ(s.batchesBefore, 0u);
        EXPECT_EQ(s.batchesAfter, r.mesh.boneBatches.size());
        // A batch of b bands needs b + 4 bones, less at the chain's ends: the greedy fill is optimal.
        EXPECT_EQ(s.batchesAfter, (uint32_t(bones) - 4 + budget - 5) / (budget - 4));
        EXPECT_LE(s.largestBatch, budget);
        EXPECT_EQ(s.verticesBefore, uint32_t((bones + 1) * segments));
        EXPECT_EQ(s.verticesAfter, r.mesh.vertexCount);
        EXPECT_EQ(s.duplicatedVertices, s.verticesAfter - s.verticesBefore);
        // The batches split between rings, so each border ring is stored twice.
        EXPECT_GE(s.duplicatedVertices, (s.batchesAfter - 1) * uint32_t(segments));
        EXPECT_EQ(s.droppedVertices, 0u);
        EXPECT_EQ(s.influencesReduced, 0u);
        EXPECT_EQ(s.weightsRenormalised, 0u);
        EXPECT_EQ(s.invalidInfluences, 0u);
        EXPECT_EQ(r.mesh.indices.type, ComponentType::UInt16);
        const VertexAttribute* ia = findAttribute(r.mesh, Semantic::BoneIndices, 0, nullptr);
        ASSERT_NE(ia, nullptr);
        EXPECT_EQ(ia->type, ComponentType::UInt8);
        EXPECT_EQ(ia->components, 4);
        expectWellBatched(r.mesh, budget);

        Scene after = before;
        after.meshes[0] = r.mesh;
        Pose pose;
        for (uint32_t seed : {1u, 2u, 3u, 4u}) {
            randomPose(before, bones, seed, pose);
            expectSameSkinning(before, after, bones, pose);
        }
        evaluatePose(before, -1, 0.0f, pose);
        expectSameSkinning(before, after, bones, pose);
    }
}

TEST(RebatchBones, PosesFromAClipMatch) {
    const int bones = 60;
    Scene before = chainScene(bones, chainMesh(bones, 6));
    Clip clip;
    clip.name = "bend";
    clip.end = 2.0f;
    for (int j = 1; j < bones; j += 3) {
        Track t;
        t.node = j;
        t.channel = Channel::Rotation;
        t.components = 4;
        t.times = {0.0f, 1.0f, 2.0f};
        const glm::quat a = glm::angleAxis(0.3f, glm::normalize(glm::vec3(1, 0, float(j % 5))));
        const glm::quat b = glm::angleAxis(-0.5f, glm::vec3(0, 0, 1));
        t.values = {0, 0, 0, 1, a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
        clip.tracks.push_back(t);
    }
    before.animation.clips.push_back(clip);
    RebatchResult r = rebatchBones(before.meshes[0], 16);
    ASSERT_TRUE(r.ok) << r.error;
    expectWellBatched(r.mesh, 16);
    Scene after = before;
    after.meshes[0] = r.mesh;
    Pose pose;
    for (float t : {0.0f, 0.4f, 1.0f, 1.7f, 2.0f}) {
        SCOPED_TRACE("t = " + std::to_string(t));
        evaluatePose(before, 0, t, pose);
        expectSameSkinning(before, after, bones, pose);
    }
}

TEST(RebatchBones, PodBatchLocalOversizeBatches) {
    const int bones = 120;
    Mesh pod = podChainMesh(bones, 8, 40);  // batches of up to 44 bones, over an ES2 budget of 24
    ASSERT_EQ(pod.boneBatches.size(), 3u);
    EXPECT_FALSE(fitsBoneBudget(pod, 24));
    const Scene before = chainScene(bones, pod);
    RebatchOptions options;
    options.skinJoints = bones;
    RebatchResult r = rebatchBones(pod, 24, options);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.summary.changed);
    EXPECT_EQ(r.summary.batchesBefore, 3u);
    EXPECT_EQ(r.summary.triangles, triangleCount(pod));
    EXPECT_EQ(r.summary.invalidInfluences, 0u);
    EXPECT_EQ(r.summary.duplicatedVertices, r.mesh.vertexCount - usedVertices(pod));
    expectWellBatched(r.mesh, 24);
    Scene after = before;
    after.meshes[0] = r.mesh;
    Pose pose;
    for (uint32_t seed : {7u, 8u, 9u}) {
        randomPose(before, bones, seed, pose);
        expectSameSkinning(before, after, bones, pose);
    }
}

TEST(RebatchBones, StripsFansQuadsAndRestartsBecomeTriangleLists) {
    const int bones = 30, segments = 8;
    std::vector<Vtx> verts;
    std::vector<uint32_t> unused;
    tube(0, bones, segments, bones, verts, unused);
    auto at = [&](int r, int s) { return uint32_t(r * segments + s % segments); };
    std::vector<uint32_t> indices;
    Mesh mesh = buildMesh(verts, {});
    // 0: POD strips, one per band of rings 0..9.
    Submesh strips = submesh(Primitive::TriangleStrip, 0, 0, 3);
    for (int r = 0; r < 10; ++r) {
        for (int s = 0; s <= segments; ++s) indices.insert(indices.end(), {at(r, s), at(r + 1, s)});
        strips.stripLengths.push_back(uint32_t(2 * segments));
    }
    strips.indexCount = static_cast<uint32_t>(indices.size());
    mesh.submeshes.push_back(strips);
    // 1: one restart strip over rings 10..19.
    Submesh restart = submesh(Primitive::TriangleStrip, static_cast<uint32_t>(indices.size()), 0, 1);
    restart.primitiveRestart = true;
    restart.frontFaceCW = true;
    for (int r = 10; r < 20; ++r) {
        if (r > 10) indices.push_back(0xFFFF);
        for (int s = 0; s <= segments; ++s) indices.insert(indices.end(), {at(r, s), at(r + 1, s)});
    }
    restart.indexCount = static_cast<uint32_t>(indices.size()) - restart.firstIndex;
    mesh.submeshes.push_back(restart);
    // 2: quads over rings 20..25.
    Submesh quads = submesh(Primitive::Quads, static_cast<uint32_t>(indices.size()), 0, 0);
    for (int r = 20; r < 25; ++r)
        for (int s = 0; s < segments; ++s)
            indices.insert(indices.end(), {at(r, s), at(r + 1, s), at(r + 1, s + 1), at(r, s + 1)});
    quads.indexCount = static_cast<uint32_t>(indices.size()) - quads.firstIndex;
    mesh.submeshes.push_back(quads);
    // 3: an empty lines submesh (draws nothing) keeps its place.
    mesh.submeshes.push_back(submesh(Primitive::Lines, static_cast<uint32_t>(indices.size()), 0, 5));
    // 4: a fan from one vertex of ring 25 over ring 26.
    Submesh fan = submesh(Primitive::TriangleFan, static_cast<uint32_t>(indices.size()), 0, 2);
    indices.push_back(at(25, 0));
    for (int s = 0; s <= segments; ++s) indices.push_back(at(26, s));
    fan.indexCount = static_cast<uint32_t>(indices.size()) - fan.firstIndex;
    mesh.submeshes.push_back(fan);
    // 5: a list over rings 26..30.
    Submesh list = submesh(Primitive::Triangles, static_cast<uint32_t>(indices.size()), 0, 4);
    for (int r = 26; r < bones; ++r)
        for (int s = 0; s < segments; ++s)
            indices.insert(indices.end(), {at(r, s), at(r + 1, s), at(r + 1, s + 1), at(r, s),
                                           at(r + 1, s + 1), at(r, s + 1)});
    list.indexCount = static_cast<uint32_t>(indices.size()) - list.firstIndex;
    mesh.submeshes.push_back(list);
    setIndices(mesh, indices, ComponentType::UInt16);

    const uint32_t perSubmesh[] = {10 * 2 * segments, 10 * 2 * segments, 5 * 2 * segments, 0,
                                   segments,          4 * 2 * segments};
    const Scene before = chainScene(bones, mesh);
    RebatchResult r = rebatchBones(mesh, 8);
    ASSERT_TRUE(r.ok) << r.error;
    uint32_t total = 0;
    for (uint32_t n : perSubmesh) total += n;
    EXPECT_EQ(r.summary.triangles, total);
    ASSERT_EQ(r.mesh.submeshes.size(), mesh.submeshes.size());
    uint32_t first = 0;
    for (size_t i = 0; i < mesh.submeshes.size(); ++i) {
        const Submesh& s = r.mesh.submeshes[i];
        EXPECT_EQ(s.materialSlot, mesh.submeshes[i].materialSlot) << "submesh " << i;
        EXPECT_EQ(s.frontFaceCW, mesh.submeshes[i].frontFaceCW) << "submesh " << i;
        EXPECT_FALSE(s.primitiveRestart);
        EXPECT_TRUE(s.stripLengths.empty());
        EXPECT_EQ(s.firstIndex, first * 3) << "submesh " << i;
        EXPECT_EQ(s.indexCount, perSubmesh[i] * 3) << "submesh " << i;
        first += perSubmesh[i];
    }
    expectWellBatched(r.mesh, 8);
    Scene after = before;
    after.meshes[0] = r.mesh;
    Pose pose;
    for (uint32_t seed : {11u, 12u}) {
        randomPose(before, bones, seed, pose);
        expectSameSkinning(before, after, bones, pose);
    }
}

TEST(RebatchBones, NonIndexedMesh) {
    const int bones = 40, segments = 6;
    std::vector<Vtx> verts, corners;
    std::vector<uint32_t> tris;
    tube(0, bones, segments, bones, verts, tris);
    for (uint32_t v : tris) corners.push_back(verts[v]);
    Mesh mesh = buildMesh(corners, {});
    mesh.submeshes.push_back(submesh(Primitive::Triangles, 0, mesh.vertexCount, 0));
    const Scene before = chainScene(bones, mesh);
    RebatchResult r = rebatchBones(mesh, 12);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.summary.duplicatedVertices, 0u);  // no vertex is shared by two triangles
    EXPECT_EQ(r.mesh.vertexCount, mesh.vertexCount);
    expectWellBatched(r.mesh, 12);
    Scene after = before;
    after.meshes[0] = r.mesh;
    Pose pose;
    randomPose(before, bones, 5, pose);
    expectSameSkinning(before, after, bones, pose);
}

TEST(RebatchBones, MorphTargetsFollowDuplicatedVertices) {
    const int bones = 40;
    Mesh mesh = chainMesh(bones, 8);
    // Target 0: relative position and normal deltas; target 1: absolute positions. Both differ per
    // vertex, so a wrong remap shows.
    for (int t = 0; t < 2; ++t) {
        MorphTarget target;
        target.name = t == 0 ? "bulge" : "pinch";
        target.relative = t == 0;
        target.stream.stride = t == 0 ? 24 : 12;
        target.stream.count = mesh.vertexCount;
        target.stream.attributes.push_back(
            {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0});
        if (t == 0)
            target.stream.attributes.push_back(
                {Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 12});
        std::vector<uint8_t> bytes(size_t(target.stream.stride) * mesh.vertexCount);
        float base[4];
        for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
            readAttribute(mesh.streams[0], mesh.streams[0].attributes[0], v, base);
            const float k = 0.01f * float(v % 17);
            const glm::vec3 p = t == 0 ? glm::vec3(k * base[0], 0.0f, k * base[2])
                                       : glm::vec3(base[0] * 0.6f, base[1] + k, base[2] * 0.6f);
            std::memcpy(bytes.data() + v * target.stream.stride, &p, 12);
            if (t == 0) {
                const glm::vec3 n(0.0f, k, 0.0f);
                std::memcpy(bytes.data() + v * target.stream.stride + 12, &n, 12);
            }
        }
        target.stream.bytes = makeOwnedBytes(std::move(bytes));
        mesh.morphTargets.push_back(std::move(target));
    }
    mesh.defaultMorphWeights = {0.0f, 0.0f};
    const Scene before = chainScene(bones, mesh);
    RebatchResult r = rebatchBones(mesh, 10);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GT(r.summary.duplicatedVertices, 0u);
    ASSERT_EQ(r.mesh.morphTargets.size(), 2u);
    for (const MorphTarget& t : r.mesh.morphTargets) EXPECT_EQ(t.stream.count, r.mesh.vertexCount);
    EXPECT_EQ(r.mesh.morphTargets[0].name, "bulge");
    EXPECT_TRUE(r.mesh.morphTargets[0].relative);
    EXPECT_FALSE(r.mesh.morphTargets[1].relative);
    EXPECT_EQ(r.mesh.defaultMorphWeights, mesh.defaultMorphWeights);
    expectWellBatched(r.mesh, 10);
    Scene after = before;
    after.meshes[0] = r.mesh;
    Pose pose;
    for (uint32_t seed : {21u, 22u}) {
        randomPose(before, bones, seed, pose);  // also sets morph weights 0.7 and 0.4
        ASSERT_EQ(pose.morphWeights[bones].size(), 2u);
        expectSameSkinning(before, after, bones, pose);
    }
}

// One triangle over 8 joints. Vertex 0: six influences over two sets; vertex 1: four weights that
// sum to 0.8; vertex 2: two weights that sum to 1.
struct InfluenceFixture {
    Scene scene;
    Mesh mesh;
    InfluenceFixture() {
        Layout layout;
        layout.secondSet = true;
        std::vector<Vtx> v(3);
        v[0].p = {0, 0, 0};
        v[0].influences = {{0, 0.04f}, {1, 0.3f}, {2, 0.11f}, {3, 0.2f}, {4, 0.25f}, {5, 0.1f}};
        v[1].p = {1, 0, 0};
        v[1].influences = {{6, 0.2f}, {7, 0.2f}, {1, 0.2f}, {2, 0.2f}};
        v[2].p = {0, 1, 0};
        v[2].influences = {{3, 0.5f}, {4, 0.5f}};
        mesh = buildMesh(v, layout);
        setIndices(mesh, {0, 1, 2}, ComponentType::UInt8);
        mesh.submeshes.push_back(submesh(Primitive::Triangles, 0, 3, 0));
        scene = chainScene(8, mesh);
    }
};

TEST(RebatchBones, SixInfluencesReducedToTheFourStrongest) {
    InfluenceFixture f;
    EXPECT_FALSE(fitsBoneBudget(f.mesh, 32, 8));  // two influence sets
    RebatchOptions options;
    options.skinJoints = 8;
    RebatchResult r = rebatchBones(f.mesh, 32, options);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.summary.influencesReduced, 1u);
    EXPECT_EQ(r.summary.weightsRenormalised, 1u);  // vertex 1 only: vertex 0's six weights sum to 1
    EXPECT_EQ(r.summary.invalidInfluences, 0u);
    expectWellBatched(r.mesh, 32);
    // Every attribute but the influences survives; set 1's texcoords stay in their own stream.
    const VertexStream* uvStream = nullptr;
    const VertexAttribute* uv1 = findAttribute(r.mesh, Semantic::TexCoord, 1, &uvStream);
    ASSERT_NE(uv1, nullptr);
    EXPECT_EQ(findAttribute(r.mesh, Semantic::BoneWeights, 1, nullptr), nullptr);
    const VertexAttribute* wa = findAttribute(r.mesh, Semantic::BoneWeights, 0, nullptr);
    ASSERT_NE(wa, nullptr);
    EXPECT_EQ(wa->components, 4);

    Scene after = f.scene;
    after.meshes[0] = r.mesh;
    Pose pose;
    randomPose(f.scene, 8, 31, pose);
    std::vector<glm::mat4> palette;
    skinPalette(f.scene, pose, 8, palette);
    std::vector<glm::vec3> got;
    worldVertices(after, pose, 8, got);
    std::vector<uint32_t> tris;
    expandTriangles(r.mesh, tris);
    ASSERT_EQ(tris.size(), 3u);
    auto skin = [&](const std::vector<std::pair<int, float>>& inf, glm::vec3 p) {
        float total = 0.0f;
        for (auto& i : inf) total += i.second;
        glm::mat4 m(0.0f);
        for (auto& i : inf) m += (i.second / total) * palette[i.first];
        return glm::vec3(m * glm::vec4(p, 1.0f));
    };
    const glm::vec3 expected[3] = {
        skin({{1, 0.3f}, {4, 0.25f}, {3, 0.2f}, {2, 0.11f}}, {0, 0, 0}),
        skin({{6, 0.2f}, {7, 0.2f}, {1, 0.2f}, {2, 0.2f}}, {1, 0, 0}),
        skin({{3, 0.5f}, {4, 0.5f}}, {0, 1, 0}),
    };
    for (int k = 0; k < 3; ++k) {
        const glm::vec3 d = got[tris[k]] - expected[k];
        EXPECT_LT(glm::length(d), 1e-5f) << "corner " << k;
    }
    // The stored weights of the reduced vertex, strongest first, sum to 1.
    const VertexStream* ws = nullptr;
    findAttribute(r.mesh, Semantic::BoneWeights, 0, &ws);
    float w[4];
    readAttribute(*ws, *wa, tris[0], w);
    EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.0f, 1e-6f);
    EXPECT_NEAR(w[0], 0.3f / 0.86f, 1e-6f);
}

TEST(RebatchBones, WeightRoundingIsNotRenormalisedButRealErrorsAre) {
    Layout layout;
    layout.weightType = ComponentType::UInt8;  // normalised bytes
    std::vector<Vtx> v(3);
    v[0].influences = {{0, 86 / 255.0f}, {1, 85 / 255.0f}, {2, 85 / 255.0f}};  // 256/255: rounding
    v[1].influences = {{0, 128 / 255.0f}, {1, 127 / 255.0f}};                  // exactly 1
    v[2].influences = {{1, 0.5f}, {2, 0.3f}};                                  // 0.8
    v[1].p = {1, 0, 0};
    v[2].p = {0, 1, 0};
    Mesh mesh = buildMesh(v, layout);
    mesh.submeshes.push_back(submesh(Primitive::Triangles, 0, 3, 0));
    RebatchResult r = rebatchBones(mesh, 4);  // no batches, joints unknown: rewritten
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.summary.changed);
    EXPECT_EQ(r.summary.weightsRenormalised, 1u);
    EXPECT_EQ(r.summary.influencesReduced, 0u);
    const VertexStream* ws = nullptr;
    const VertexAttribute* wa = findAttribute(r.mesh, Semantic::BoneWeights, 0, &ws);
    ASSERT_NE(wa, nullptr);
    EXPECT_EQ(wa->type, ComponentType::Float32);
    float w[4];
    readAttribute(*ws, *wa, 2, w);
    EXPECT_NEAR(w[0], 0.5f / 0.8f, 1e-3f);
    EXPECT_NEAR(w[1], 0.3f / 0.8f, 1e-3f);
    readAttribute(*ws, *wa, 0, w);
    EXPECT_EQ(w[0], 86 / 255.0f);  // kept as stored
}

TEST(RebatchBones, NonFiniteWeightsAndJointsOutsideTheSkinAreDropped) {
    std::vector<Vtx> v(3);
    v[0].influences = {{0, std::nanf("")}, {1, 1.0f}};
    v[1].influences = {{9, 0.5f}, {2, 0.5f}};  // joint 9 of an 8-joint skin
    v[2].influences = {{3, 1.0f}};
    v[1].p = {1, 0, 0};
    v[2].p = {0, 1, 0};
    Mesh mesh = buildMesh(v, {});
    mesh.submeshes.push_back(submesh(Primitive::Triangles, 0, 3, 0));
    RebatchOptions options;
    options.skinJoints = 8;
    RebatchResult r = rebatchBones(mesh, 7, options);  // the skin is over the budget: rewritten
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.summary.changed);
    EXPECT_EQ(r.summary.invalidInfluences, 2u);
    EXPECT_EQ(r.summary.weightsRenormalised, 1u);  // vertex 1 keeps 0.5 of its weight
    ASSERT_EQ(r.mesh.boneBatches.size(), 1u);
    EXPECT_EQ(r.mesh.boneBatches[0].bones, (std::vector<int32_t>{1, 2, 3}));
    const VertexStream* ws = nullptr;
    const VertexAttribute* wa = findAttribute(r.mesh, Semantic::BoneWeights, 0, &ws);
    ASSERT_NE(wa, nullptr);
    float w[4];
    for (uint32_t i = 0; i < 3; ++i) {
        readAttribute(*ws, *wa, i, w);
        EXPECT_EQ(w[0], 1.0f) << "vertex " << i;
        EXPECT_EQ(w[1], 0.0f) << "vertex " << i;
    }
}

TEST(RebatchBones, MeshesThatFitAreReturnedUnchanged) {
    // POD batches of at most 24 bones under a budget of 32.
    const Mesh pod = podChainMesh(100, 6, 20);
    for (const BoneBatch& b : pod.boneBatches) ASSERT_LE(b.bones.size(), 24u);
    EXPECT_TRUE(fitsBoneBudget(pod, 32));
    RebatchResult r = rebatchBones(pod, 32);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_FALSE(r.summary.changed);
    EXPECT_EQ(r.summary.batchesAfter, r.summary.batchesBefore);
    EXPECT_EQ(r.summary.duplicatedVertices, 0u);
    EXPECT_EQ(r.mesh.vertexCount, pod.vertexCount);
    EXPECT_EQ(r.mesh.streams[0].bytes.data, pod.streams[0].bytes.data);  // the same bytes, not a copy
    EXPECT_EQ(r.mesh.indices.bytes.data, pod.indices.bytes.data);
    EXPECT_EQ(r.mesh.boneBatches.size(), pod.boneBatches.size());
    EXPECT_EQ(r.mesh.maxBonesPerBatch, pod.maxBonesPerBatch);
    // The same batches over the budget are not.
    EXPECT_FALSE(fitsBoneBudget(pod, 20));

    // A batch-less skin that fits (when the caller says how many joints it has).
    const Mesh small = chainMesh(20, 6);
    EXPECT_TRUE(fitsBoneBudget(small, 32, 20));
    EXPECT_FALSE(fitsBoneBudget(small, 32));  // joints unknown: re-batched to be sure
    RebatchOptions options;
    options.skinJoints = 20;
    r = rebatchBones(small, 32, options);
    ASSERT_TRUE(r.ok);
    EXPECT_FALSE(r.summary.changed);
    EXPECT_TRUE(r.mesh.boneBatches.empty());

    // A mesh without skinning.
    Mesh rigid = chainMesh(20, 6);
    for (VertexStream& s : rigid.streams)
        s.attributes.erase(
            std::remove_if(s.attributes.begin(), s.attributes.end(),
                           [](const VertexAttribute& a) { return a.semantic == Semantic::BoneIndices; }),
            s.attributes.end());
    EXPECT_TRUE(fitsBoneBudget(rigid, 1));
    r = rebatchBones(rigid, 1);
    ASSERT_TRUE(r.ok);
    EXPECT_FALSE(r.summary.changed);
}

TEST(RebatchBones, TriangleOverTheBudgetIsAnError) {
    // Three vertices with four distinct bones each: 12 bones for one triangle.
    std::vector<Vtx> v(3);
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 4; ++i) v[k].influences.push_back({k * 4 + i, 0.25f});
    v[1].p = {1, 0, 0};
    v[2].p = {0, 1, 0};
    Mesh mesh = buildMesh(v, {});
    mesh.name = "hand";
    mesh.submeshes.push_back(submesh(Primitive::Triangles, 0, 3, 0));
    RebatchResult r = rebatchBones(mesh, 11);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("mesh 'hand'"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("triangle 0 uses 12 bones"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("budget of 11"), std::string::npos) << r.error;
    r = rebatchBones(mesh, 12);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.mesh.boneBatches.size(), 1u);
    EXPECT_EQ(r.mesh.boneBatches[0].bones.size(), 12u);

    r = rebatchBones(mesh, 0);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("budget of 0"), std::string::npos) << r.error;
    r = rebatchBones(mesh, 70000);
    EXPECT_FALSE(r.ok);
}

TEST(RebatchBones, RefusesWhatItCannotRewrite) {
    Mesh lines = chainMesh(10, 4);
    lines.submeshes.push_back(submesh(Primitive::Lines, 0, 6, 1));
    RebatchResult r = rebatchBones(lines, 8);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("submesh 1 draws lines"), std::string::npos) << r.error;

    Mesh shortStream = chainMesh(10, 4);
    shortStream.streams[0].count -= 1;
    r = rebatchBones(shortStream, 8);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("stream 0 holds"), std::string::npos) << r.error;

    Mesh badIndex = chainMesh(10, 4);
    badIndex.vertexCount -= 4;  // the last ring's vertices are now outside the mesh
    for (VertexStream& s : badIndex.streams) s.count = badIndex.vertexCount;
    r = rebatchBones(badIndex, 8);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("names vertex"), std::string::npos) << r.error;
}

TEST(RebatchBones, KeepsEveryOtherAttributeAsStored) {
    const Mesh mesh = chainMesh(30, 8);
    RebatchResult r = rebatchBones(mesh, 8);
    ASSERT_TRUE(r.ok) << r.error;
    std::vector<uint32_t> t0, t1;
    expandTriangles(mesh, t0);
    expandTriangles(r.mesh, t1);
    ASSERT_EQ(t0.size(), t1.size());
    for (Semantic sem : {Semantic::Position, Semantic::Normal, Semantic::TexCoord, Semantic::Color}) {
        const VertexStream* s0 = nullptr;
        const VertexStream* s1 = nullptr;
        const VertexAttribute* a0 = findAttribute(mesh, sem, 0, &s0);
        const VertexAttribute* a1 = findAttribute(r.mesh, sem, 0, &s1);
        ASSERT_NE(a1, nullptr) << semanticName(sem);
        EXPECT_EQ(a1->type, a0->type);
        EXPECT_EQ(a1->components, a0->components);
        EXPECT_EQ(a1->normalized, a0->normalized);
        EXPECT_EQ(a1->swizzle, a0->swizzle);
        EXPECT_EQ(a1->offset % 4, 0u);
        const size_t size = componentSize(a0->type) * a0->components;
        for (size_t c = 0; c < t0.size(); ++c)
            ASSERT_EQ(std::memcmp(s0->bytes.data + size_t(t0[c]) * s0->stride + a0->offset,
                                  s1->bytes.data + size_t(t1[c]) * s1->stride + a1->offset, size),
                      0)
                << semanticName(sem) << " corner " << c;
    }
    EXPECT_EQ(r.mesh.streams.size(), 1u);
    EXPECT_EQ(r.mesh.streams[0].stride % 4, 0u);
}

TEST(RebatchBones, ManyVerticesGetThirtyTwoBitIndices) {
    const int bones = 200, segments = 400;  // 80,400 vertices
    const Scene before = chainScene(bones, chainMesh(bones, segments));
    ASSERT_EQ(before.meshes[0].indices.type, ComponentType::UInt32);
    RebatchResult r = rebatchBones(before.meshes[0], 32);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GT(r.mesh.vertexCount, 0xFFFFu);
    EXPECT_EQ(r.mesh.indices.type, ComponentType::UInt32);
    expectWellBatched(r.mesh, 32);
    Scene after = before;
    after.meshes[0] = r.mesh;
    Pose pose;
    randomPose(before, bones, 41, pose);
    expectSameSkinning(before, after, bones, pose);
}

TEST(RebatchBones, BudgetsOverTwoHundredFiftySixUseSixteenBitBoneIndices) {
    const int bones = 300;
    const Scene before = chainScene(bones, chainMesh(bones, 4));
    RebatchResult r = rebatchBones(before.meshes[0], 280);
    ASSERT_TRUE(r.ok) << r.error;
    const VertexAttribute* ia = findAttribute(r.mesh, Semantic::BoneIndices, 0, nullptr);
    ASSERT_NE(ia, nullptr);
    EXPECT_EQ(ia->type, ComponentType::UInt16);
    expectWellBatched(r.mesh, 280);
    Scene after = before;
    after.meshes[0] = r.mesh;
    Pose pose;
    randomPose(before, bones, 51, pose);
    expectSameSkinning(before, after, bones, pose);
}

TEST(RebatchBones, SceneHelperRewritesWhatNeedsItAndReports) {
    Scene scene = chainScene(200, chainMesh(200, 6));
    InfluenceFixture f;
    scene.meshes.push_back(f.mesh);  // mesh 1: six influences on joints 0..7 of the same skin
    scene.meshes.push_back(podChainMesh(200, 6, 20));  // mesh 2: fits
    for (int m = 1; m <= 2; ++m) {
        Node n;
        n.kind = NodeKind::Mesh;
        n.object = m;
        n.skin = 0;
        scene.nodes.push_back(n);
    }
    const Mesh fitting = scene.meshes[2];
    EXPECT_EQ(rebatchSceneBones(scene, 32), 2u);
    EXPECT_EQ(scene.meshes[2].streams[0].bytes.data, fitting.streams[0].bytes.data);
    for (int m = 0; m < 2; ++m) expectWellBatched(scene.meshes[m], 32);
    int infos = 0, warnings = 0;
    bool reduced = false;
    for (const ReportLine& line : scene.report) {
        (line.severity == Severity::Info ? infos : warnings) += 1;
        reduced |= line.text.find("more than 4 bone influences") != std::string::npos;
    }
    EXPECT_EQ(infos, 2);
    EXPECT_EQ(warnings, 2);  // mesh 1: influences reduced, weights renormalised
    EXPECT_TRUE(reduced);
    // Running it again changes nothing.
    EXPECT_EQ(rebatchSceneBones(scene, 32), 0u);
}

// The fallback when re-batching cannot meet the budget is never silent: the mesh stays as it was
// (the renderer then skins it on the CPU, counted in its frame stats) and the report says so.
TEST(RebatchScene, ABudgetNoTriangleFitsLeavesTheMeshWithAWarning) {
    Scene scene = chainScene(200, chainMesh(200, 6));
    const Mesh before = scene.meshes[0];
    EXPECT_EQ(rebatchSceneBones(scene, 1), 0u);
    EXPECT_EQ(scene.meshes[0].streams[0].bytes.data, before.streams[0].bytes.data);
    int warnings = 0;
    for (const ReportLine& line : scene.report)
        if (line.severity == Severity::Warning) {
            ++warnings;
            EXPECT_NE(line.text.find("left as it was (bone batches may exceed the palette)"), std::string::npos)
                << line.text;
            EXPECT_NE(line.text.find("budget"), std::string::npos) << line.text;
        }
    EXPECT_EQ(warnings, 1);
}

}  // namespace
}  // namespace esv
