// The POD shaping steps on fixtures built in code: quantisers (error bound, weight sums of 255,
// DEC3N round trip, half floats), vertex-cache order (same triangles, ACMR not worse, batches
// contiguous) and strips (same triangles after expansion).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <memory>
#include <iterator>
#include <random>
#include <set>
#include <tuple>

#include <filesystem>

#include <gtest/gtest.h>
#include <meshoptimizer.h>

#include "common/test_paths.h"
#include "convert/pod/pod_shape.h"
#include "loaders/load.h"
#include "loaders/pod/pod_writer.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

// A grid of w x h quads (2 triangles each) with positions, normals, UVs, and (optionally) two bone
// influences per vertex with two bone batches splitting the triangles in half.
Mesh gridMesh(uint32_t w, uint32_t h, bool skinned) {
    Mesh m;
    m.vertexCount = (w + 1) * (h + 1);
    VertexStream s;
    s.count = m.vertexCount;
    s.stride = skinned ? 64 : 32;
    s.attributes.push_back({Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0});
    s.attributes.push_back({Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 12});
    s.attributes.push_back({Semantic::TexCoord, 0, ComponentType::Float32, 2, false, Swizzle::Identity, 24});
    if (skinned) {
        s.attributes.push_back(
            {Semantic::BoneIndices, 0, ComponentType::UInt8, 4, false, Swizzle::Identity, 32});
        s.attributes.push_back(
            {Semantic::BoneWeights, 0, ComponentType::Float32, 4, false, Swizzle::Identity, 36});
    }
    std::vector<uint8_t> bytes(size_t(s.stride) * s.count, 0);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (uint32_t y = 0; y <= h; ++y)
        for (uint32_t x = 0; x <= w; ++x) {
            const uint32_t v = y * (w + 1) + x;
            uint8_t* p = bytes.data() + size_t(v) * s.stride;
            const float pos[3] = {float(x) * 0.37f - 3.0f, std::sin(float(x + y)) * 2.0f,
                                  float(y) * 0.21f + 10.0f};
            glm::vec3 n =
                glm::normalize(glm::vec3(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f) + glm::vec3(0.01f));
            const float uv[2] = {float(x) / float(w), float(y) / float(h) * 3.0f - 1.0f};
            std::memcpy(p, pos, 12);
            std::memcpy(p + 12, &n[0], 12);
            std::memcpy(p + 24, uv, 8);
            if (skinned) {
                const uint8_t bones[4] = {0, 1, 2, 0};
                float wts[4] = {u(rng), u(rng), u(rng), 0.0f};
                const float sum = wts[0] + wts[1] + wts[2];
                for (float& f : wts) f /= sum;
                std::memcpy(p + 32, bones, 4);
                std::memcpy(p + 36, wts, 16);
            }
        }
    s.bytes = makeOwnedBytes(std::move(bytes));
    m.streams.push_back(s);
    std::vector<uint8_t> idx;
    uint32_t count = 0;
    auto push = [&](uint32_t i) {
        const uint16_t v = static_cast<uint16_t>(i);
        idx.push_back(uint8_t(v & 0xFF)), idx.push_back(uint8_t(v >> 8));
        ++count;
    };
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            const uint32_t a = y * (w + 1) + x, b = a + 1, c = a + w + 1, d = c + 1;
            push(a), push(b), push(c), push(b), push(d), push(c);
        }
    m.indices.type = ComponentType::UInt16;
    m.indices.count = count;
    m.indices.bytes = makeOwnedBytes(std::move(idx));
    Submesh sub;
    sub.indexCount = count;
    m.submeshes.push_back(sub);
    if (skinned) {
        const uint32_t tris = count / 3;
        m.boneBatches.push_back({{0, 1, 2}, 0, tris / 2});
        m.boneBatches.push_back({{0, 1, 2}, tris / 2, tris - tris / 2});
        m.boneIndicesBatchLocal = true;
        m.maxBonesPerBatch = 3;
    }
    return m;
}

glm::vec4 attr(const Mesh& m, Semantic s, uint32_t v) {
    const VertexStream* stream = nullptr;
    const VertexAttribute* a = findAttribute(m, s, 0, &stream);
    float f[4];
    readAttribute(*stream, *a, v, f);
    return {f[0], f[1], f[2], f[3]};
}

// Triangles as sets of positions (vertex numbering and rotation of corners ignored), degenerate
// ones left out.
std::multiset<std::vector<float>> triangleSet(const Mesh& m, uint32_t first = 0, uint32_t count = ~0u) {
    std::vector<uint32_t> t;
    expandTriangles(m, t);
    std::multiset<std::vector<float>> out;
    const uint32_t end = std::min<uint32_t>(uint32_t(t.size() / 3), count == ~0u ? ~0u : first + count);
    for (uint32_t i = first; i < end; ++i) {
        const uint32_t a = t[3 * i], b = t[3 * i + 1], c = t[3 * i + 2];
        if (a == b || b == c || a == c) continue;
        std::vector<std::vector<float>> corners;
        for (uint32_t v : {a, b, c}) {
            const glm::vec4 p = attr(m, Semantic::Position, v);
            corners.push_back({p.x, p.y, p.z});
        }
        // Rotate so the smallest corner comes first (keeps the winding).
        const size_t k = size_t(std::min_element(corners.begin(), corners.end()) - corners.begin());
        std::vector<float> key;
        for (size_t j = 0; j < 3; ++j)
            key.insert(key.end(), corners[(k + j) % 3].begin(), corners[(k + j) % 3].end());
        out.insert(key);
    }
    return out;
}

TEST(PodQuantize, ParsesGroupsAllAndRefusesUnknownTypes) {
    PodQuantize q;
    std::string error;
    ASSERT_TRUE(parsePodQuantize("positions=int16,normals=byte,uvs=short,weights=ubyte", q, error)) << error;
    EXPECT_EQ(q[PodAttr::Positions], PodQuant::Int16);
    EXPECT_EQ(q[PodAttr::Normals], PodQuant::Byte);
    EXPECT_EQ(q[PodAttr::Tangents], PodQuant::Keep);
    EXPECT_EQ(q[PodAttr::Uvs], PodQuant::Short);
    PodQuantize all;
    ASSERT_TRUE(parsePodQuantize("all,uvs=float", all, error));
    EXPECT_EQ(all[PodAttr::Normals], PodQuant::Dec3n);
    EXPECT_EQ(all[PodAttr::Uvs], PodQuant::Float);
    EXPECT_FALSE(parsePodQuantize("positions=dec3n", q, error));
    EXPECT_NE(error.find("int16"), std::string::npos) << error;
    EXPECT_FALSE(parsePodQuantize("colours=half", q, error));
}

TEST(PodQuantize, PositionsInt16WithinHalfAStepThroughTheUnpackMatrix) {
    const Mesh before = gridMesh(20, 10, false);
    Mesh m = before;
    PodQuantize q;
    q[PodAttr::Positions] = PodQuant::Int16;
    PodQuantReport report;
    std::string error;
    ASSERT_TRUE(quantizeMesh(m, q, report, error)) << error;
    const VertexAttribute* a = findAttribute(m, Semantic::Position, 0, nullptr);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->type, ComponentType::Int16);
    EXPECT_TRUE(a->normalized);
    EXPECT_NE(m.positionUnpack, glm::mat4(1.0f));
    // Each axis within half a step of the source's box on that axis (a step: the half extent / 32767,
    // 3.7 / 32767 on x), measured from the box here, not taken from the report; float rounding of
    // the unpack allowed for.
    glm::dvec3 lo(1e30), hi(-1e30);
    for (uint32_t v = 0; v < before.vertexCount; ++v) {
        const glm::dvec3 p(glm::vec3(attr(before, Semantic::Position, v)));
        lo = glm::min(lo, p), hi = glm::max(hi, p);
    }
    EXPECT_NEAR(0.5 * (hi.x - lo.x), 3.7, 1e-5);
    double largest = 0.0;
    for (uint32_t v = 0; v < m.vertexCount; ++v) {
        const glm::vec3 p =
            glm::vec3(m.positionUnpack * glm::vec4(glm::vec3(attr(m, Semantic::Position, v)), 1.0f));
        const glm::dvec3 source(glm::vec3(attr(before, Semantic::Position, v)));
        for (int c = 0; c < 3; ++c) {
            const double halfStep = 0.5 * (0.5 * (hi[c] - lo[c])) / 32767.0;
            const double rounding = 4e-7 * std::max(std::abs(hi[c]), std::abs(lo[c]));
            EXPECT_LE(std::abs(double(p[c]) - source[c]), halfStep + rounding) << "vertex " << v << " axis " << c;
        }
        largest = std::max<double>(largest, glm::length(glm::dvec3(p) - source));
    }
    EXPECT_LE(largest, report[PodAttr::Positions].largest + 1e-6);
    EXPECT_GT(report[PodAttr::Positions].largest, 0.0);
    // The other attributes are as they were.
    for (uint32_t v = 0; v < m.vertexCount; ++v)
        EXPECT_EQ(attr(m, Semantic::TexCoord, v), attr(before, Semantic::TexCoord, v));
}

TEST(PodQuantize, Dec3nRoundTripAndBytesWithinTheirAngle) {
    const Mesh before = gridMesh(16, 16, false);
    for (PodQuant type : {PodQuant::Dec3n, PodQuant::Byte}) {
        Mesh m = before;
        PodQuantize q;
        q[PodAttr::Normals] = type;
        PodQuantReport report;
        std::string error;
        ASSERT_TRUE(quantizeMesh(m, q, report, error)) << error;
        const VertexAttribute* a = findAttribute(m, Semantic::Normal, 0, nullptr);
        EXPECT_EQ(a->type, type == PodQuant::Dec3n ? ComponentType::Int2_10_10_10 : ComponentType::Int8);
        double largest = 0.0;
        for (uint32_t v = 0; v < m.vertexCount; ++v) {
            const glm::vec3 n0 = glm::vec3(attr(before, Semantic::Normal, v)),
                            n1 = glm::vec3(attr(m, Semantic::Normal, v));
            const double c = glm::dot(glm::normalize(n0), glm::normalize(n1));
            largest = std::max(largest, std::acos(std::min(1.0, c)) * 180.0 / 3.14159265358979);
        }
        // One step of a 10-bit (8-bit) code on a unit vector: atan(1/511) = 0.11 degree (0.45).
        const double bound = type == PodQuant::Dec3n ? 0.12 : 0.46;
        EXPECT_LE(report[PodAttr::Normals].largest, bound);
        EXPECT_NEAR(largest, report[PodAttr::Normals].largest, 0.01);
        // DEC3N round trip: the directions read back quantise again to the same directions (within
        // the bound), and an axis is stored as the exact code 511 (the word 0x1FF for +x).
        if (type == PodQuant::Dec3n) {
            Mesh again = m;
            PodQuantize f;
            f[PodAttr::Normals] = PodQuant::Float;
            ASSERT_TRUE(quantizeMesh(again, f, report, error));
            ASSERT_TRUE(quantizeMesh(again, q, report, error));
            for (uint32_t v = 0; v < m.vertexCount; ++v) {
                const glm::vec3 a0 = glm::normalize(glm::vec3(attr(m, Semantic::Normal, v)));
                const glm::vec3 a1 = glm::normalize(glm::vec3(attr(again, Semantic::Normal, v)));
                EXPECT_LE(std::acos(std::min(1.0f, glm::dot(a0, a1))) * 180.0f / 3.14159265f, bound) << v;
            }
            Mesh axis = gridMesh(1, 1, false);
            std::vector<uint8_t> bytes(axis.streams[0].bytes.begin(), axis.streams[0].bytes.end());
            const float x[3] = {1.0f, 0.0f, 0.0f};
            std::memcpy(bytes.data() + 12, x, 12);
            axis.streams[0].bytes = makeOwnedBytes(std::move(bytes));
            ASSERT_TRUE(quantizeMesh(axis, q, report, error));
            uint32_t word;
            const VertexAttribute* an = findAttribute(axis, Semantic::Normal, 0, nullptr);
            std::memcpy(&word, axis.streams[0].bytes.data + an->offset, 4);
            EXPECT_EQ(word, 0x1FFu);
            EXPECT_EQ(attr(axis, Semantic::Normal, 0), glm::vec4(1, 0, 0, 1));
        }
    }
}

TEST(PodQuantize, WeightsAsBytesSumToExactly255) {
    const Mesh before = gridMesh(12, 12, true);
    Mesh m = before;
    PodQuantize q;
    q[PodAttr::Weights] = PodQuant::UByte;
    PodQuantReport report;
    std::string error;
    ASSERT_TRUE(quantizeMesh(m, q, report, error)) << error;
    const VertexStream* s = nullptr;
    const VertexAttribute* a = findAttribute(m, Semantic::BoneWeights, 0, &s);
    ASSERT_EQ(a->type, ComponentType::UInt8);
    for (uint32_t v = 0; v < m.vertexCount; ++v) {
        const uint8_t* p = s->bytes.data + size_t(v) * s->stride + a->offset;
        EXPECT_EQ(p[0] + p[1] + p[2] + p[3], 255) << v;
    }
    EXPECT_LE(report[PodAttr::Weights].largest, 1.0 / 255.0);
    EXPECT_GT(report[PodAttr::Weights].largest, 0.0);
}

TEST(PodQuantize, UvsHalfAndShortsAndWhatTheyCannotHold) {
    const Mesh before = gridMesh(8, 8, false);  // v runs -1..2
    Mesh m = before;
    PodQuantize q;
    q[PodAttr::Uvs] = PodQuant::Half;
    PodQuantReport report;
    std::string error;
    ASSERT_TRUE(quantizeMesh(m, q, report, error)) << error;
    EXPECT_LE(report[PodAttr::Uvs].largest, 2.0 / 2048.0);  // half a step at 2: 2^-10
    Mesh s = before;
    q[PodAttr::Uvs] = PodQuant::Short;
    EXPECT_FALSE(quantizeMesh(s, q, report, error));
    EXPECT_NE(error.find("uvs=half"), std::string::npos) << error;
    EXPECT_EQ(s.streams[0].attributes[2].type, ComponentType::Float32);  // left as it was
    EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
    EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
    EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
    EXPECT_EQ(floatToHalf(1.0f + 1.0f / 4096.0f), 0x3C00);  // a tie rounds to even
}

TEST(PodOptimize, SameTrianglesBetterCacheBatchesContiguous) {
    for (bool skinned : {false, true}) {
        Mesh m = gridMesh(40, 40, skinned);
        // Shuffle the triangles inside each batch half so there is something to gain.
        std::vector<uint32_t> tris;
        expandTriangles(m, tris);
        std::mt19937 rng(3);
        const uint32_t count = uint32_t(tris.size() / 3), half = skinned ? count / 2 : count;
        std::vector<uint32_t> order(count);
        for (uint32_t i = 0; i < count; ++i) order[i] = i;
        std::shuffle(order.begin(), order.begin() + half, rng);
        std::shuffle(order.begin() + half, order.end(), rng);
        std::vector<uint16_t> shuffled;
        for (uint32_t t : order)
            for (int c = 0; c < 3; ++c) shuffled.push_back(uint16_t(tris[3 * t + c]));
        std::vector<uint8_t> bytes(shuffled.size() * 2);
        std::memcpy(bytes.data(), shuffled.data(), bytes.size());
        m.indices.bytes = makeOwnedBytes(std::move(bytes));
        const Mesh before = m;
        std::string error;
        ASSERT_TRUE(optimizePodMesh(m, error)) << error;
        EXPECT_EQ(triangleSet(m), triangleSet(before));
        if (skinned) {
            ASSERT_EQ(m.boneBatches.size(), 2u);
            for (size_t b = 0; b < 2; ++b)
                EXPECT_EQ(triangleSet(m, m.boneBatches[b].firstTriangle, m.boneBatches[b].triangleCount),
                          triangleSet(before, before.boneBatches[b].firstTriangle,
                                      before.boneBatches[b].triangleCount));
        }
        std::vector<uint32_t> t0, t1;
        expandTriangles(before, t0);
        expandTriangles(m, t1);
        const float acmr0 =
            meshopt_analyzeVertexCache(t0.data(), t0.size(), before.vertexCount, 16, 0, 0).acmr;
        const float acmr1 = meshopt_analyzeVertexCache(t1.data(), t1.size(), m.vertexCount, 16, 0, 0).acmr;
        EXPECT_LE(acmr1, acmr0);
        EXPECT_LT(acmr1, 1.0f);
        // Fetch order: vertices numbered by first use.
        uint32_t next = 0;
        for (uint32_t v : t1) {
            ASSERT_LE(v, next);
            if (v == next) ++next;
        }
    }
}

// Every triangle corner its own vertex (as some exporters write them).
Mesh unwelded(const Mesh& m) {
    std::vector<uint32_t> tris;
    expandTriangles(m, tris);
    Mesh out = m;
    const VertexStream& s = m.streams[0];
    std::vector<uint8_t> bytes(size_t(s.stride) * tris.size());
    for (size_t i = 0; i < tris.size(); ++i)
        std::memcpy(bytes.data() + i * s.stride, s.bytes.data + size_t(tris[i]) * s.stride, s.stride);
    out.streams[0].bytes = makeOwnedBytes(std::move(bytes));
    out.streams[0].count = out.vertexCount = uint32_t(tris.size());
    std::vector<uint8_t> idx(tris.size() * 2);
    for (size_t i = 0; i < tris.size(); ++i) {
        const uint16_t v = uint16_t(i);
        std::memcpy(idx.data() + 2 * i, &v, 2);
    }
    out.indices.bytes = makeOwnedBytes(std::move(idx));
    return out;
}

TEST(PodOptimize, WeldsIdenticalVerticesWithinEachBatchOnly) {
    for (bool strips : {false, true}) {
        const Mesh grid = gridMesh(10, 10, true);
        Mesh m = unwelded(grid);
        const Mesh before = m;
        ASSERT_EQ(m.vertexCount, 600u);
        std::string error;
        ASSERT_TRUE(strips ? stripifyPodMesh(m, error) : optimizePodMesh(m, error)) << error;
        EXPECT_EQ(triangleSet(m), triangleSet(before));
        // 121 grid vertices, those on the row the two batches share counted twice.
        EXPECT_LE(m.vertexCount, 121u + 11u);
        EXPECT_GE(m.vertexCount, 121u);
        std::vector<uint32_t> tris;
        expandTriangles(m, tris);
        std::vector<int> batchOf(m.vertexCount, -1);
        for (int b = 0; b < 2; ++b)
            for (uint32_t t = m.boneBatches[b].firstTriangle;
                 t < m.boneBatches[b].firstTriangle + m.boneBatches[b].triangleCount; ++t)
                for (int c = 0; c < 3; ++c) {
                    int& owner = batchOf[tris[3 * t + c]];
                    EXPECT_TRUE(owner == -1 || owner == b) << "vertex shared by two batches";
                    owner = b;
                }
    }
}

TEST(PodStrips, SameTrianglesAfterExpansionPerBatch) {
    for (bool skinned : {false, true}) {
        Mesh m = gridMesh(30, 20, skinned);
        const Mesh before = m;
        std::string error;
        ASSERT_TRUE(stripifyPodMesh(m, error)) << error;
        ASSERT_EQ(m.submeshes.size(), 1u);
        EXPECT_EQ(m.submeshes[0].primitive, Primitive::TriangleStrip);
        ASSERT_FALSE(m.submeshes[0].stripLengths.empty());
        uint64_t indices = 0;
        for (uint32_t len : m.submeshes[0].stripLengths) indices += len + 2;
        EXPECT_EQ(indices, m.submeshes[0].indexCount);
        EXPECT_LT(m.submeshes[0].indexCount, before.submeshes[0].indexCount);
        EXPECT_EQ(triangleSet(m), triangleSet(before));
        if (skinned) {
            ASSERT_EQ(m.boneBatches.size(), 2u);
            EXPECT_EQ(m.boneBatches[1].firstTriangle, m.boneBatches[0].triangleCount);
            EXPECT_EQ(m.boneBatches[0].triangleCount + m.boneBatches[1].triangleCount, triangleCount(m));
            for (size_t b = 0; b < 2; ++b)
                EXPECT_EQ(triangleSet(m, m.boneBatches[b].firstTriangle, m.boneBatches[b].triangleCount),
                          triangleSet(before, before.boneBatches[b].firstTriangle,
                                      before.boneBatches[b].triangleCount));
        }
    }
}

// A Z-up scene of one mesh drawn with two materials by one node, two clips and a hidden empty node.
Scene twoMaterialScene() {
    Scene scene;
    scene.format = "test";
    scene.up = UpAxis::Z;
    Mesh m = gridMesh(4, 2, false);
    const uint32_t half = m.indices.count / 2 / 3 * 3;
    m.submeshes[0].indexCount = half;
    Submesh second;
    second.firstIndex = half;
    second.indexCount = m.indices.count - half;
    second.materialSlot = 1;
    m.submeshes.push_back(second);
    scene.meshes.push_back(m);
    scene.materials.resize(2);
    scene.materials[0].name = "a", scene.materials[1].name = "b";
    Node n;
    n.name = "body";
    n.kind = NodeKind::Mesh;
    n.object = 0;
    n.materials = {0, 1};
    n.local.translation = {1, 2, 3};
    scene.nodes.push_back(n);
    Node hidden;
    hidden.name = "lod1";
    hidden.visible = false;
    scene.nodes.push_back(hidden);
    for (const char* name : {"walk", "run"}) {
        Clip c;
        c.name = name;
        c.end = 1.0f;
        Track t;
        t.node = 0;
        t.channel = Channel::Translation;
        t.times = {0.0f, 1.0f};
        t.values = {1, 2, 3, 1, 2, 4};
        c.tracks.push_back(t);
        scene.animation.clips.push_back(c);
    }
    return scene;
}

TEST(PodShapeScene, RefusalsNameTheOptionThatDropsWhatPodCannotHold) {
    PodShapeOptions o;
    PodShapeReport report;
    std::string error;
    Scene scene = twoMaterialScene();
    EXPECT_FALSE(shapeSceneForPod(scene, o, report, error));
    // Both at once: the clips and the hidden node, the first also in `error`.
    ASSERT_EQ(report.refusals.size(), 2u);
    EXPECT_EQ(error, report.refusals[0]);
    EXPECT_NE(report.refusals[0].find("(--clip NAME"), std::string::npos) << report.refusals[0];
    EXPECT_NE(report.refusals[1].find("(--drop-hidden"), std::string::npos) << report.refusals[1];
    scene = twoMaterialScene();
    o.clip = 1;
    report = {};
    EXPECT_FALSE(shapeSceneForPod(scene, o, report, error));
    ASSERT_EQ(report.refusals.size(), 1u);
    EXPECT_NE(error.find("(--drop-hidden"), std::string::npos) << error;
}

// A scene holding one of everything POD cannot hold: each is refused in the same run, naming its
// option; with every option given, it shapes.
Scene everythingRefusedScene() {
    Scene scene = twoMaterialScene();  // two clips, a hidden node
    Mesh& m = scene.meshes[0];
    MorphTarget target;
    target.name = "smile";
    target.stream = m.streams[0];
    m.morphTargets.push_back(target);
    m.defaultMorphWeights = {0.0f};
    // Material 0 clamps a texture its UVs leave (gridMesh's v runs from -1 to 2).
    scene.textures.resize(1);
    scene.textures[0].path = "skin.png";
    TextureRef clamp;
    clamp.texture = 0;
    clamp.wrapS = clamp.wrapT = Wrap::Clamp;
    scene.materials[0].textures[size_t(TextureSlot::Diffuse)] = clamp;
    // Material 1 carries a texture transform and a swizzle.
    UvTransform shift;
    TransformElement e;
    e.kind = ElementKind::Translate;
    e.value[0] = 0.5f, e.value[1] = 0.0f, e.value[2] = 0.0f;
    shift.elements.push_back(e);
    scene.uvTransforms.push_back(shift);
    TextureRef moved;
    moved.texture = 0;
    moved.uvTransform = 0;
    scene.materials[1].textures[size_t(TextureSlot::Diffuse)] = moved;
    // Material 0 is two-sided with an alpha cutoff; material 1 unlit, without vertex colours, with an
    // emission that is no amount of its base colour (glTF materials: POD's block has none of these).
    scene.materials[0].twoSided = true;
    scene.materials[0].alphaCutoff = 0.5f;
    scene.materials[1].model = ShadingModel::Unlit;
    scene.materials[1].vertexColors = false;
    scene.materials[1].diffuse = glm::vec3(0.2f, 0.4f, 0.6f);
    scene.materials[1].emissive = glm::vec3(1.0f, 0.0f, 0.0f);
    // A spot light with a range and an inner cone, switched off; an ambient light; an orthographic camera.
    Light spot;
    spot.name = "spot";
    spot.type = LightType::Spot;
    spot.range = 10.0f, spot.innerCone = 0.2f, spot.outerCone = 0.5f, spot.enabled = false;
    Light ambient;
    ambient.name = "fill";
    ambient.type = LightType::Ambient;
    ambient.color = glm::vec3(0.2f, 0.1f, 0.05f);
    scene.lights = {ambient, spot};
    Camera ortho;
    ortho.name = "top";
    ortho.orthographic = true;
    scene.cameras = {ortho};
    for (int i = 0; i < 2; ++i) {
        Node light;
        light.name = "light" + std::to_string(i);
        light.kind = NodeKind::Light;
        light.object = i;
        scene.nodes.push_back(light);
    }
    Node camera;
    camera.name = "camera";
    camera.kind = NodeKind::Camera;
    camera.object = 0;
    scene.nodes.push_back(camera);
    return scene;
}

TEST(PodShapeScene, EveryRefusalInOneRunAndEveryOneHasAnOption) {
    Scene scene = everythingRefusedScene();
    PodShapeOptions o;
    PodShapeReport report;
    std::string error;
    EXPECT_FALSE(shapeSceneForPod(scene, o, report, error));
    const char* options[] = {"(--clip NAME", "(--drop-hidden", "(--drop-morphs", "(--wrap-repeat",
                             "(--plain-textures", "(--plain-lights", "(--plain-cameras", "(--plain-materials"};
    std::string all;
    for (const std::string& r : report.refusals) all += r + "\n";
    for (const char* option : options) EXPECT_NE(all.find(option), std::string::npos) << option << " in\n" << all;
    // One line per object: the two lights, not one line per light property.
    EXPECT_EQ(report.refusals.size(), 10u) << all;
    EXPECT_NE(all.find("material 0 'a': two-sided; an alpha cutoff (--plain-materials"), std::string::npos) << all;
    EXPECT_NE(all.find("material 1 'b': unlit; vertex colours switched off; an emissive colour POD cannot store"),
              std::string::npos)
        << all;
    for (const std::string& r : report.refusals) EXPECT_NE(r.find("(--"), std::string::npos) << r;

    scene = everythingRefusedScene();
    o.clip = 0;
    o.dropHidden = o.dropMorphs = o.wrapRepeat = o.plainTextures = o.plainLights = o.plainCameras = true;
    o.plainMaterials = true;
    report = {};
    ASSERT_TRUE(shapeSceneForPod(scene, o, report, error)) << error;
    EXPECT_TRUE(report.refusals.empty());
    // The materials as POD has them: one-sided, no cutoff, lit, vertex colours on, no emission.
    EXPECT_FALSE(scene.materials[0].twoSided);
    EXPECT_EQ(scene.materials[0].alphaCutoff, 0.0f);
    EXPECT_EQ(scene.materials[1].model, ShadingModel::Classic);
    EXPECT_TRUE(scene.materials[1].vertexColors);
    EXPECT_EQ(scene.materials[1].emissive, glm::vec3(0.0f));
    EXPECT_EQ(scene.materials[1].diffuse, glm::vec3(0.2f, 0.4f, 0.6f));
    // The ambient light went into the scene's ambient colour; the spot light is black, without
    // range or inner cone; the camera is perspective.
    ASSERT_EQ(scene.lights.size(), 1u);
    EXPECT_EQ(scene.lights[0].name, "spot");
    EXPECT_EQ(scene.lights[0].color, glm::vec3(0.0f));
    EXPECT_EQ(scene.lights[0].range, 0.0f);
    EXPECT_EQ(scene.lights[0].innerCone, 0.0f);
    EXPECT_NEAR(scene.ambient.r, 0.2f, 1e-6f);
    size_t lightNodes = 0;
    for (const Node& n : scene.nodes) lightNodes += n.kind == NodeKind::Light;
    EXPECT_EQ(lightNodes, 1u);
    EXPECT_FALSE(scene.cameras[0].orthographic);
    std::vector<uint8_t> bytes;
    PodWriteOptions w;
    w.dropMorphTargets = true;
    std::string writeError;
    EXPECT_TRUE(writePod(scene, w, bytes, writeError)) << writeError;
}

// KHR_materials_specular's maps have no POD texture block: refused with --plain-materials named,
// and that option writes the material without them, with a note; the POD writer itself refuses
// a shaped scene given one back.
TEST(PodShapeScene, SpecularMapsAreRefusedOrDroppedWithANote) {
    auto scene = [] {
        Scene s = twoMaterialScene();
        s.textures.resize(2);
        s.textures[0].path = "strength.png";
        s.textures[1].path = "tint.png";
        for (Material& m : s.materials) m.model = ShadingModel::MetalRough;
        s.materials[0].texture(TextureSlot::SpecularStrength).texture = 0;
        s.materials[1].texture(TextureSlot::SpecularTint).texture = 1;
        s.materials[1].texture(TextureSlot::Diffuse).texture = 1;
        return s;
    };
    PodShapeOptions o;
    o.clip = 0;
    o.dropHidden = true;
    PodShapeReport report;
    std::string error;
    Scene refused = scene();
    EXPECT_FALSE(shapeSceneForPod(refused, o, report, error));
    ASSERT_EQ(report.refusals.size(), 2u);
    EXPECT_NE(report.refusals[0].find("material 0 'a': a specular strength map (--plain-materials"), std::string::npos)
        << report.refusals[0];
    EXPECT_NE(report.refusals[1].find("material 1 'b': a specular colour map (--plain-materials"), std::string::npos)
        << report.refusals[1];
    o.plainMaterials = true;
    report = {};
    Scene plain = scene();
    ASSERT_TRUE(shapeSceneForPod(plain, o, report, error)) << error;
    EXPECT_TRUE(report.refusals.empty());
    for (const Material& m : plain.materials) {
        EXPECT_EQ(m.texture(TextureSlot::SpecularStrength).texture, -1);
        EXPECT_EQ(m.texture(TextureSlot::SpecularTint).texture, -1);
    }
    EXPECT_EQ(plain.materials[1].texture(TextureSlot::Diffuse).texture, 1) << "the other maps stay";
    std::string notes;
    for (const std::string& n : report.notes) notes += n + "\n";
    EXPECT_NE(notes.find("2 materials: KHR_materials_specular's specular strength and colour maps left out; POD "
                         "has no texture block for them (--plain-materials)"),
              std::string::npos)
        << notes;
    std::vector<uint8_t> bytes;
    std::string writeError;
    EXPECT_TRUE(writePod(plain, PodWriteOptions{}, bytes, writeError)) << writeError;
    plain.materials[0].texture(TextureSlot::SpecularStrength).texture = 0;
    EXPECT_FALSE(writePod(plain, PodWriteOptions{}, bytes, writeError));
    EXPECT_NE(writeError.find("specular_strength texture: no POD texture block reads into this slot"),
              std::string::npos)
        << writeError;
}

// Clamp (or mirror, or border) where every coordinate the material samples lies within half a
// texel of 0..1 draws as repeat does: written without a refusal. Half a texel further is refused.
TEST(PodShapeScene, ClampInsideTheUnitSquareIsNotRefused) {
    auto sceneWithV = [](float vMax, uint32_t texels) {
        Scene scene;
        Mesh m = gridMesh(2, 2, false);  // u 0..1, v -1..2: squeezed into 0..vMax below
        std::vector<uint8_t> bytes(m.streams[0].bytes.begin(), m.streams[0].bytes.end());
        for (uint32_t v = 0; v < m.vertexCount; ++v) {
            float uv[2];
            std::memcpy(uv, bytes.data() + size_t(v) * 32 + 24, 8);
            uv[1] = (uv[1] + 1.0f) / 3.0f * vMax;
            std::memcpy(bytes.data() + size_t(v) * 32 + 24, uv, 8);
        }
        m.streams[0].bytes = makeOwnedBytes(std::move(bytes));
        scene.meshes.push_back(m);
        scene.textures.resize(1);
        scene.textures[0].image.width = scene.textures[0].image.height = texels;
        Material mat;
        TextureRef r;
        r.texture = 0;
        r.wrapS = Wrap::Clamp, r.wrapT = Wrap::Mirror;
        mat.textures[size_t(TextureSlot::Diffuse)] = r;
        scene.materials.push_back(mat);
        Node n;
        n.kind = NodeKind::Mesh;
        n.object = 0;
        n.materials = {0};
        scene.nodes.push_back(n);
        return scene;
    };
    PodShapeOptions o;
    std::string error;
    for (const auto& [vMax, texels, refused] :
         {std::tuple<float, uint32_t, bool>{1.0f, 64u, false}, {1.0f + 0.4f / 64.0f, 64u, false},
          {1.0f + 0.6f / 64.0f, 64u, true}, {1.5f, 64u, true}}) {
        Scene scene = sceneWithV(vMax, texels);
        PodShapeReport report;
        EXPECT_EQ(shapeSceneForPod(scene, o, report, error), !refused) << vMax << ": " << error;
        EXPECT_EQ(report.refusals.size(), refused ? 1u : 0u) << vMax;
        if (!refused) {
            EXPECT_EQ(scene.materials[0].textures[size_t(TextureSlot::Diffuse)].wrapS, Wrap::Repeat);
            bool noted = false;
            for (const std::string& n : report.notes) noted = noted || n.find("within 0 to 1") != std::string::npos;
            EXPECT_TRUE(noted);
        }
    }
    // A node that draws the mesh with another material does not count: material 1 is unused.
    Scene scene = sceneWithV(1.5f, 64u);
    scene.materials.push_back(scene.materials[0]);
    scene.materials[0].textures[size_t(TextureSlot::Diffuse)].wrapS = scene.materials[0].textures[size_t(TextureSlot::Diffuse)].wrapT = Wrap::Repeat;
    PodShapeReport report;
    EXPECT_TRUE(shapeSceneForPod(scene, o, report, error)) << error;
}

// An animated object transform (OpenGEX object elements), which POD has no block for: the mesh moves
// to a child node animated by it, and is drawn where it was at every frame.
TEST(PodShapeScene, AnimatedObjectTransformBecomesAnAnimatedChild) {
    Scene scene;
    scene.animation.fps = 10.0f;
    scene.meshes.push_back(gridMesh(1, 1, false));
    scene.materials.resize(1);
    Node n;
    n.name = "box";
    n.kind = NodeKind::Mesh;
    n.object = 0;
    n.materials = {0};
    TransformElement move;
    move.kind = ElementKind::Translate;
    move.value[0] = 1, move.value[1] = 2, move.value[2] = 3;
    TransformElement spin;
    spin.kind = ElementKind::RotateY;
    spin.object = true;
    spin.value[0] = 0.0f;
    n.elements = {move, spin};
    n.local.useMatrix = true;
    n.local.matrix = move.toMatrix();
    scene.nodes.push_back(n);
    Clip clip;
    clip.name = "spin";
    clip.end = 1.0f;
    Track t;
    t.node = 0;
    t.channel = Channel::Element;
    t.element = 1;
    t.components = 1;
    t.times = {0.0f, 1.0f};
    t.values = {0.0f, 1.5f};
    clip.tracks.push_back(t);
    scene.animation.clips.push_back(clip);
    const Scene before = scene;
    PodShapeOptions o;
    PodShapeReport report;
    std::string error;
    ASSERT_TRUE(shapeSceneForPod(scene, o, report, error)) << error;
    ASSERT_EQ(scene.nodes.size(), 2u);
    EXPECT_EQ(scene.nodes[0].kind, NodeKind::Empty);
    EXPECT_EQ(scene.nodes[1].kind, NodeKind::Mesh);
    EXPECT_EQ(scene.nodes[1].parent, 0);
    for (float time : {0.0f, 0.3f, 0.7f, 1.0f}) {
        Pose was, now;
        evaluatePose(before, 0, time, was);
        evaluatePose(scene, 0, time, now);
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                EXPECT_NEAR(now.world[1][c][r], was.objectWorld[0][c][r], 1e-5f) << "t " << time;
    }
}

// --drop-hidden leaves out what only hidden nodes showed: every mesh left is drawn by a node.
TEST(PodShapeScene, DropHiddenLeavesOutTheMeshesOfHiddenNodes) {
    Scene scene;
    for (int i = 0; i < 3; ++i) {
        scene.meshes.push_back(gridMesh(1, 1, false));
        scene.meshes.back().name = "lod" + std::to_string(i);
    }
    scene.materials.resize(1);
    for (int i = 0; i < 3; ++i) {
        Node n;
        n.name = "detail" + std::to_string(i);
        n.kind = NodeKind::Mesh;
        n.object = 2 - i;  // the visible node shows the last mesh
        n.materials = {0};
        n.visible = i == 0;
        scene.nodes.push_back(n);
    }
    PodShapeOptions o;
    o.dropHidden = true;
    PodShapeReport report;
    std::string error;
    ASSERT_TRUE(shapeSceneForPod(scene, o, report, error)) << error;
    ASSERT_EQ(scene.meshes.size(), 1u);
    EXPECT_EQ(scene.meshes[0].name, "lod2");
    EXPECT_EQ(scene.nodes[0].object, 0);
    EXPECT_EQ(scene.nodes[1].kind, NodeKind::Empty);
    EXPECT_EQ(scene.nodes[2].kind, NodeKind::Empty);
}

// The shared FreeSpace models hide their lower detail levels and debris: with --drop-hidden every mesh
// left is drawn by a node, and the ones the first detail level draws are all still there.
TEST(PodShapeScene, DropHiddenOnSharedPofModelsKeepsOnlyDrawnMeshes) {
    ESVIEW_REQUIRE_MODELS("pof");
    size_t models = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir() / "pof")) {
        if (entry.path().extension() != ".pof") continue;
        LoadResult loaded = loadSceneFile(entry.path().string());
        ASSERT_TRUE(loaded.scene) << entry.path();
        Scene& scene = *loaded.scene;
        size_t hiddenMeshNodes = 0, shown = 0;
        for (const Node& n : scene.nodes) {
            if (n.kind != NodeKind::Mesh) continue;
            (n.visible ? shown : hiddenMeshNodes) += 1;
        }
        if (!hiddenMeshNodes) continue;
        PodShapeOptions o;
        o.dropHidden = true;
        PodShapeReport report;
        std::string error;
        ASSERT_TRUE(shapeSceneForPod(scene, o, report, error)) << entry.path() << ": " << error;
        std::vector<uint8_t> drawn(scene.meshes.size(), 0);
        size_t meshNodes = 0;
        for (const Node& n : scene.nodes)
            if (n.kind == NodeKind::Mesh && n.object >= 0) drawn[size_t(n.object)] = 1, ++meshNodes;
        for (size_t m = 0; m < drawn.size(); ++m)
            EXPECT_TRUE(drawn[m]) << entry.path() << ": mesh " << m << " '" << scene.meshes[m].name << "' is drawn by no node";
        EXPECT_GE(meshNodes, shown) << entry.path();
        ++models;
    }
    EXPECT_GE(models, 1u) << "a shared POF model with hidden detail levels";
}

TEST(PodShapeScene, SplitsMaterialsTurnsZUpAndWritesPod) {
    Scene scene = twoMaterialScene();
    PodShapeOptions o;
    o.clip = 1;
    o.dropHidden = true;
    PodShapeReport report;
    std::string error;
    ASSERT_TRUE(shapeSceneForPod(scene, o, report, error)) << error;
    ASSERT_EQ(scene.animation.clips.size(), 1u);
    EXPECT_EQ(scene.animation.clips[0].name, "run");
    ASSERT_EQ(scene.meshes.size(), 2u);
    EXPECT_EQ(report.meshesSplit, 1u);
    for (const Mesh& m : scene.meshes) ASSERT_EQ(m.submeshes.size(), 1u);
    EXPECT_EQ(triangleCount(scene.meshes[0]) + triangleCount(scene.meshes[1]), 16u);
    ASSERT_EQ(scene.nodes.size(), 3u);
    EXPECT_EQ(scene.nodes[0].materials, std::vector<int32_t>{0});
    EXPECT_EQ(scene.nodes[2].parent, 0);
    EXPECT_EQ(scene.nodes[2].object, 1);
    EXPECT_EQ(scene.nodes[2].materials, std::vector<int32_t>{1});
    EXPECT_TRUE(scene.nodes[1].visible);
    // Y up: (x, y, z) -> (x, z, -y), on the rest pose and on the track.
    EXPECT_EQ(scene.up, UpAxis::Y);
    EXPECT_NEAR(scene.nodes[0].local.translation.y, 3.0f, 1e-6f);
    EXPECT_NEAR(scene.nodes[0].local.translation.z, -2.0f, 1e-6f);
    EXPECT_NEAR(scene.animation.clips[0].tracks[0].values[4], 4.0f, 1e-6f);
    std::vector<uint8_t> bytes;
    PodWriteOptions w;
    ASSERT_TRUE(writePod(scene, w, bytes, error)) << error;
    EXPECT_GT(bytes.size(), 100u);
}

// OpenGEX's camera "fov" is horizontal, POD's vertical: the shared OpenGEX cameras (no aspect ratio)
// are written with the vertical angle of a square view, which is the same angle, read from the
// file's text; a camera with an aspect ratio gets the vertical angle of that ratio.
TEST(PodShapeScene, HorizontalFieldOfViewIsWrittenAsPodsVerticalOne) {
    ESVIEW_REQUIRE_MODELS("ogex/squareys_Camera.ogex");
    for (const char* name : {"squareys_Camera.ogex", "assimp_camera.ogex"}) {
        SCOPED_TRACE(name);
        const std::filesystem::path path = test::modelsDir() / "ogex" / name;
        std::ifstream in(path);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::smatch m;
        ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(attrib\s*=\s*"fov"\)\s*\{\s*float\s*\{\s*([0-9.eE+-]+))")));
        const float fov = std::stof(m[1].str());
        LoadResult loaded = loadSceneFile(path.string());
        ASSERT_TRUE(loaded.scene);
        ASSERT_EQ(loaded.scene->cameras.size(), 1u);
        PodShapeOptions o;
        PodShapeReport report;
        std::string error;
        ASSERT_TRUE(shapeSceneForPod(*loaded.scene, o, report, error)) << error;
        std::string notes;
        for (const std::string& n : report.notes) notes += n + "\n";
        EXPECT_NE(notes.find("horizontal field of view"), std::string::npos) << notes;
        auto bytes = std::make_shared<std::vector<uint8_t>>();
        PodWriteOptions w;
        ASSERT_TRUE(writePod(*loaded.scene, w, *bytes, error)) << error;
        LoadResult back = loadSceneMemory(bytes, "camera.pod");
        ASSERT_TRUE(back.scene);
        ASSERT_EQ(back.scene->cameras.size(), 1u);
        EXPECT_NEAR(back.scene->cameras[0].yfov, fov, 1e-6f);
        EXPECT_EQ(back.scene->cameras[0].xfov, 0.0f);
    }
    Scene scene;
    Camera wide;
    wide.name = "wide";
    wide.xfov = glm::radians(90.0f);
    wide.aspect = 2.0f;
    scene.cameras = {wide};
    PodShapeOptions o;
    o.plainCameras = true;  // the fixed aspect ratio is refused without it
    PodShapeReport report;
    std::string error;
    ASSERT_TRUE(shapeSceneForPod(scene, o, report, error)) << error;
    EXPECT_NEAR(scene.cameras[0].yfov, 2.0f * std::atan(0.5f), 1e-6f);  // tan(45 deg) / 2
    EXPECT_EQ(scene.cameras[0].xfov, 0.0f);
}

}  // namespace
}  // namespace esv
