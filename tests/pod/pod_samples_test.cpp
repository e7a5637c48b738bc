// File-level tests: every sample POD in ../shared/models/pod loads, and the scene holds the facts
// read from the file's own blocks. The tables below come from samples_expected.py, an independent
// POD decoder written from the spec and pod-reader-notes.md (`python3 samples_expected.py --cpp DIR`
// prints kFacts, `--cpp-bounds DIR` kBounds; without an option it prints the facts file by file);
// tests/check_fact_tables.py checks that they still match what it computes.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

struct AttrFact {
    uint32_t list;     // POD block id of the attribute list (6006..6013)
    uint32_t set;      // UVW channel
    uint32_t podType;  // 9000
    uint32_t n;        // 9001
};
struct MeshFact {
    uint32_t vertices, triangles;
    int indexed, interleaved;
    uint32_t batches, maxBones;
    std::vector<AttrFact> attributes;
};
struct FileFact {
    const char* path;
    uint32_t nodes, meshes, meshNodes, cameras, materials, textures, frames, fps;
    int fixedPoint;
    size_t bytes;
    std::vector<uint32_t> lightTypes;
    std::vector<MeshFact> meshList;
};

// clang-format off
const std::vector<FileFact> kFacts = {
    {"cocos3d/cocos3d_BeachBall.pod", 5, 4, 4, 0, 4, 0, 0, 30, 0, 32752, {},
     {
         {383, 624, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}}},
         {105, 160, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}}},
         {105, 160, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}}},
         {105, 160, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}}},
     }},
    {"cocos3d/cocos3d_EtchedMask.pod", 1, 1, 1, 0, 0, 0, 0, 30, 0, 138302, {},
     {
         {2476, 4480, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6008, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
    {"cocos3d/cocos3d_Head.pod", 3, 1, 1, 1, 1, 1, 101, 30, 0, 9911, {},
     {
         {153, 276, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
    {"cocos3d/cocos3d_IntroducingPOD_float.pod", 8, 4, 4, 1, 2, 4, 101, 30, 0, 73185, {1},
     {
         {170, 216, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 3}}},
         {170, 216, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 3}}},
         {267, 368, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 3}}},
         {197, 390, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 3}}},
     }},
    {"cocos3d/cocos3d_ReflectiveMask.pod", 4, 1, 1, 1, 1, 2, 451, 30, 0, 136984, {1},
     {
         {2238, 4480, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 3}}},
     }},
    {"cocos3d/cocos3d_cocos3dMascot.pod", 1, 1, 1, 0, 1, 1, 0, 30, 0, 117560, {},
     {
         {2866, 3738, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
    {"cocos3d/cocos3d_mallet.pod", 11, 3, 3, 1, 1, 1, 101, 30, 0, 169662, {},
     {
         {24, 12, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {24, 12, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {2245, 3475, 1, 1, 1, 8, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}, {6012, 0, 10, 2}, {6013, 0, 1, 2}}},
     }},
    {"cocos3d/cocos3d_man.pod", 44, 3, 3, 1, 3, 3, 17, 25, 0, 128454, {2},
     {
         {1124, 1120, 1, 1, 2, 9, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}, {6012, 0, 10, 2}, {6013, 0, 1, 2}}},
         {340, 494, 1, 1, 1, 9, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}, {6012, 0, 10, 2}, {6013, 0, 1, 2}}},
         {208, 216, 1, 1, 1, 9, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}, {6012, 0, 10, 2}, {6013, 0, 1, 2}}},
     }},
    {"nsdk/nsdk_Bumpmap_scene.pod", 3, 1, 1, 1, 1, 2, 0, 30, 0, 1361090, {},
     {
         {20443, 35278, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6008, 0, 1, 3}, {6009, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
    {"nsdk/nsdk_gnome6.pod", 1, 1, 1, 0, 1, 1, 0, 30, 0, 16040, {},
     {
         {315, 325, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
    {"nsdk/nsdk_pointlight.pod", 1, 1, 1, 0, 0, 0, 0, 30, 0, 9001, {},
     {
         {151, 224, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
    {"nsdk/nsdk_sphere.pod", 1, 1, 1, 0, 0, 0, 101, 30, 0, 20073, {},
     {
         {482, 960, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}}},
     }},
    {"oolong/oolong_IntroducingPOD_fixed.pod", 8, 4, 4, 1, 2, 2, 101, 30, 1, 71916, {1},
     {
         {170, 216, 1, 1, 0, 0, {{6006, 0, 9, 3}, {6007, 0, 9, 3}, {6010, 0, 9, 3}}},
         {170, 216, 1, 1, 0, 0, {{6006, 0, 9, 3}, {6007, 0, 9, 3}, {6010, 0, 9, 3}}},
         {267, 368, 1, 1, 0, 0, {{6006, 0, 9, 3}, {6007, 0, 9, 3}, {6010, 0, 9, 3}}},
         {197, 390, 1, 1, 0, 0, {{6006, 0, 9, 3}, {6007, 0, 9, 3}, {6010, 0, 9, 3}}},
     }},
    {"oolong/oolong_model_fixed.pod", 11, 3, 3, 1, 1, 1, 101, 30, 1, 170638, {},
     {
         {24, 12, 1, 1, 0, 0, {{6006, 0, 9, 3}, {6007, 0, 9, 3}, {6010, 0, 9, 2}}},
         {24, 12, 1, 1, 0, 0, {{6006, 0, 9, 3}, {6007, 0, 9, 3}, {6010, 0, 9, 2}}},
         {2281, 3475, 1, 1, 1, 9, {{6006, 0, 9, 3}, {6007, 0, 9, 3}, {6010, 0, 9, 2}, {6010, 1, 13, 2}, {6012, 0, 10, 2}, {6013, 0, 9, 2}}},
     }},
    {"oolong/oolong_model_float_noninterleaved.pod", 11, 3, 3, 1, 1, 1, 98, 30, 0, 489648, {},
     {
         {36, 12, 0, 0, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {36, 12, 0, 0, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {10425, 3475, 0, 0, 1, 9, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}, {6012, 0, 10, 2}, {6013, 0, 1, 2}}},
     }},
    {"webglsdk/webglsdk_IntroducingPOD.pod", 8, 4, 4, 1, 2, 2, 101, 30, 0, 68700, {1},
     {
         {170, 216, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {170, 216, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {267, 368, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {197, 390, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
    {"webglsdk/webglsdk_RenderToTexture.pod", 3, 2, 2, 0, 0, 0, 0, 30, 0, 104932, {1},
     {
         {2238, 4480, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
         {54, 48, 1, 1, 0, 0, {{6006, 0, 1, 3}, {6007, 0, 1, 3}, {6010, 0, 1, 2}}},
     }},
};
// clang-format on

std::filesystem::path podDir() { return test::modelsDir() / "pod"; }

LoadResult loadSample(const std::string& relative, std::shared_ptr<const std::vector<uint8_t>>* keep = nullptr,
                      bool check = false) {
    std::string error;
    auto bytes = readWholeFile((podDir() / relative).string(), error);
    EXPECT_TRUE(bytes) << relative << ": " << error;
    if (!bytes) return {};
    if (keep) *keep = bytes;
    LoadOptions options;
    options.collectAll = check;
    return loadSceneMemory(bytes, relative, options);
}

Semantic semanticOfList(uint32_t list) {
    switch (list) {
        case 6006: return Semantic::Position;
        case 6007: return Semantic::Normal;
        case 6008: return Semantic::Tangent;
        case 6009: return Semantic::Binormal;
        case 6010: return Semantic::TexCoord;
        case 6011: return Semantic::Color;
        case 6012: return Semantic::BoneIndices;
        default: return Semantic::BoneWeights;
    }
}
// The POD types the samples use, per the notes' table (section 7).
ComponentType typeOfPod(uint32_t podType) {
    switch (podType) {
        case 1: return ComponentType::Float32;
        case 9: return ComponentType::Fixed16_16;
        case 10: return ComponentType::UInt8;
        case 13: return ComponentType::Int8;
        default: return ComponentType::Count;
    }
}

TEST(PodSamples, TableCoversEveryFile) {
    ESVIEW_REQUIRE_MODELS("pod");
    std::set<std::string> listed;
    for (const FileFact& f : kFacts) listed.insert(f.path);
    size_t found = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(podDir())) {
        if (entry.path().extension() != ".pod") continue;
        ++found;
        EXPECT_TRUE(listed.count(std::filesystem::relative(entry.path(), podDir()).generic_string()))
            << entry.path() << " has no facts in the table";
    }
    EXPECT_EQ(found, kFacts.size());
}

TEST(PodSamples, FactsMatchTheFile) {
    ESVIEW_REQUIRE_MODELS("pod");
    for (const FileFact& f : kFacts) {
        SCOPED_TRACE(f.path);
        std::shared_ptr<const std::vector<uint8_t>> bytes;
        LoadResult r = loadSample(f.path, &bytes);
        for (const Problem& p : r.problems) ADD_FAILURE() << p.format();
        ASSERT_TRUE(r.scene);
        const Scene& s = *r.scene;
        ASSERT_EQ(bytes->size(), f.bytes);
        EXPECT_EQ(s.format, "pod");
        EXPECT_EQ(s.nodes.size(), f.nodes);
        ASSERT_EQ(s.meshes.size(), f.meshes);
        EXPECT_EQ(s.cameras.size(), f.cameras);
        EXPECT_EQ(s.materials.size(), f.materials);
        EXPECT_EQ(s.textures.size(), f.textures);
        EXPECT_EQ(s.animation.frames, f.frames);
        EXPECT_FLOAT_EQ(s.animation.fps, static_cast<float>(f.fps));
        ASSERT_EQ(s.lights.size(), f.lightTypes.size());
        for (size_t i = 0; i < f.lightTypes.size(); ++i)
            EXPECT_EQ(static_cast<uint32_t>(s.lights[i].type), f.lightTypes[i]) << "light " << i;

        // Node order: mesh nodes, light nodes, camera nodes, the rest (spec 3.6).
        size_t meshNodes = 0;
        for (size_t i = 0; i < s.nodes.size(); ++i) {
            const Node& n = s.nodes[i];
            if (i < f.meshNodes) {
                EXPECT_EQ(n.kind, NodeKind::Mesh) << "node " << i;
                ++meshNodes;
            } else if (i < f.meshNodes + f.lightTypes.size()) {
                EXPECT_EQ(n.kind, NodeKind::Light) << "node " << i;
            } else if (i < f.meshNodes + f.lightTypes.size() + f.cameras) {
                EXPECT_EQ(n.kind, NodeKind::Camera) << "node " << i;
            } else {
                EXPECT_TRUE(n.kind == NodeKind::Empty || n.kind == NodeKind::Bone) << "node " << i;
            }
        }
        EXPECT_EQ(meshNodes, f.meshNodes);

        const uint8_t* fileBegin = bytes->data();
        const uint8_t* fileEnd = bytes->data() + bytes->size();
        for (size_t m = 0; m < f.meshList.size(); ++m) {
            SCOPED_TRACE("mesh " + std::to_string(m));
            const MeshFact& mf = f.meshList[m];
            const Mesh& mesh = s.meshes[m];
            EXPECT_EQ(mesh.vertexCount, mf.vertices);
            EXPECT_EQ(triangleCount(mesh), mf.triangles);
            EXPECT_EQ(mesh.indices.count > 0, mf.indexed != 0);
            if (mf.indexed) {
                EXPECT_EQ(mesh.indices.count, mf.triangles * 3);  // all samples are lists
            }
            EXPECT_EQ(mesh.boneBatches.size(), mf.batches);
            EXPECT_EQ(mesh.maxBonesPerBatch, mf.maxBones);
            EXPECT_EQ(mesh.boneIndicesBatchLocal, mf.batches > 0);
            // Vertex data stays in the file buffer: one stream when interleaved, one per list otherwise.
            EXPECT_EQ(mesh.streams.size(), mf.interleaved ? size_t(1) : mf.attributes.size());
            for (const VertexStream& st : mesh.streams) {
                EXPECT_GE(st.bytes.data, fileBegin);
                EXPECT_LE(st.bytes.data + st.bytes.size, fileEnd);
                EXPECT_EQ(st.count, mf.vertices);
            }
            size_t total = 0;
            for (const VertexStream& st : mesh.streams) total += st.attributes.size();
            EXPECT_EQ(total, mf.attributes.size());
            for (const AttrFact& a : mf.attributes) {
                const VertexAttribute* found = nullptr;
                for (const VertexStream& st : mesh.streams)
                    for (const VertexAttribute& va : st.attributes)
                        if (va.semantic == semanticOfList(a.list) && va.set == a.set) found = &va;
                ASSERT_NE(found, nullptr) << "list " << a.list << " set " << a.set;
                EXPECT_EQ(found->type, typeOfPod(a.podType)) << "list " << a.list;
                EXPECT_EQ(found->components, a.n) << "list " << a.list;
                EXPECT_FALSE(found->normalized);
            }
        }
        // One skin per skinned mesh node; the batches' bones index the skin's joints.
        size_t skinned = 0;
        for (const Node& n : s.nodes) {
            if (n.kind != NodeKind::Mesh) continue;
            const Mesh& mesh = s.meshes[n.object];
            if (mesh.boneBatches.empty()) {
                EXPECT_EQ(n.skin, -1);
                continue;
            }
            ++skinned;
            ASSERT_GE(n.skin, 0);
            const Skin& skin = s.skins[n.skin];
            EXPECT_EQ(skin.joints.size(), skin.inverseBind.size());
            for (const BoneBatch& b : mesh.boneBatches)
                for (int32_t bone : b.bones) EXPECT_LT(static_cast<size_t>(bone), skin.joints.size());
            for (int32_t j : skin.joints) EXPECT_EQ(s.nodes[j].kind, NodeKind::Bone);
        }
        EXPECT_EQ(s.skins.size(), skinned);
    }
}

TEST(PodSamples, CheckModeFindsOnlyTheKnownViolations) {
    ESVIEW_REQUIRE_MODELS("pod");
    for (const FileFact& f : kFacts) {
        SCOPED_TRACE(f.path);
        LoadResult r = loadSample(f.path, nullptr, true);
        const std::string path = f.path;
        // These two point their mesh node at material 0 in a scene without materials.
        if (path == "cocos3d/cocos3d_EtchedMask.pod" || path == "webglsdk/webglsdk_RenderToTexture.pod") {
            ASSERT_EQ(r.problems.size(), 1u);
            EXPECT_EQ(r.problems[0].where, "scene / node 0 / material index");
            EXPECT_NE(r.problems[0].message.find("material index 0 out of range (0 materials)"), std::string::npos);
            EXPECT_EQ(r.problems[0].offset, path == "cocos3d/cocos3d_EtchedMask.pod" ? 0x21BAE : 0x19770);
        } else {
            for (const Problem& p : r.problems) ADD_FAILURE() << p.format();
        }
    }
}

TEST(PodSamples, RunningManSkeletonAndBatches) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult r = loadSample("cocos3d/cocos3d_man.pod");
    ASSERT_TRUE(r.scene);
    const Scene& s = *r.scene;
    EXPECT_EQ(s.lights[0].type, LightType::Spot);
    EXPECT_EQ(s.lights[0].targetNode, 43);
    EXPECT_NEAR(s.lights[0].outerCone, 0.750492f, 1e-6f);
    EXPECT_NEAR(s.cameras[0].yfov, 0.785398f, 1e-6f);
    EXPECT_FLOAT_EQ(s.cameras[0].nearZ, 1.0f);
    EXPECT_FLOAT_EQ(s.cameras[0].farZ, 1000.0f);
    EXPECT_EQ(s.cameras[0].targetNode, 42);
    EXPECT_EQ(s.nodes[4].name, "Camera01");
    // Batch bone lists from 6015/6016 (node indices), offsets from 6017.
    const Mesh& body = s.meshes[0];
    ASSERT_EQ(body.boneBatches.size(), 2u);
    // Mesh node i shows mesh i here; its skin maps batch bones to node indices.
    auto nodesOf = [&](size_t mesh, size_t batch) {
        const Skin& skin = s.skins.at(s.nodes.at(mesh).skin);
        std::vector<int32_t> nodes;
        for (int32_t j : s.meshes[mesh].boneBatches.at(batch).bones) nodes.push_back(skin.joints.at(j));
        return nodes;
    };
    EXPECT_EQ(nodesOf(0, 0), (std::vector<int32_t>{10, 12, 14, 11, 9, 8, 15, 18, 16}));
    EXPECT_EQ(nodesOf(0, 1), (std::vector<int32_t>{19, 18, 11, 10, 9, 8, 20}));
    EXPECT_EQ(body.boneBatches[0].firstTriangle, 0u);
    EXPECT_EQ(body.boneBatches[0].triangleCount, 843u);
    EXPECT_EQ(body.boneBatches[1].firstTriangle, 843u);
    EXPECT_EQ(body.boneBatches[1].triangleCount, 1120u - 843u);
    EXPECT_EQ(nodesOf(2, 0), (std::vector<int32_t>{8, 22, 27}));
    // 17 frames at 25 fps: one clip of 16/25 s; D_SkeletonControl (flags 7) animates T, R and S.
    ASSERT_EQ(s.animation.clips.size(), 1u);
    EXPECT_NEAR(s.animation.clips[0].duration(), 16.0f / 25.0f, 1e-6f);
    std::set<Channel> channels;
    for (const Track& t : s.animation.clips[0].tracks) {
        EXPECT_EQ(t.times.size(), 17u);
        if (t.node == 6) channels.insert(t.channel);
        if (t.node == 7) {
            EXPECT_NE(t.channel, Channel::Rotation);  // flags 5: position and scale only
        }
    }
    EXPECT_EQ(channels, (std::set<Channel>{Channel::Translation, Channel::Rotation, Channel::Scale}));
    // Rest pose = frame 0; the stored quaternion (0, 0.0872, 0, 0.9962) is the conjugate.
    const Transform& t0 = s.nodes[0].local;
    EXPECT_NEAR(t0.translation.x, -48.125267f, 1e-4f);
    EXPECT_NEAR(t0.rotation.y, -0.08715575f, 1e-6f);
    EXPECT_NEAR(t0.rotation.w, 0.99619472f, 1e-6f);
}

TEST(PodSamples, CameraLooksAlongMinusYOfItsNode) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult r = loadSample("cocos3d/cocos3d_man.pod");
    ASSERT_TRUE(r.scene);
    // Camera01 stands at z = 373 in front of the man (near the origin) and looks at him.
    const Node& cam = r.scene->nodes[4];
    ASSERT_EQ(cam.kind, NodeKind::Camera);
    glm::mat4 world = cam.local.toMatrix() * cam.objectTransform;
    glm::vec3 forward = glm::normalize(glm::vec3(world * glm::vec4(0, 0, -1, 0)));
    glm::vec3 toOrigin = glm::normalize(-glm::vec3(world[3]));
    EXPECT_GT(glm::dot(forward, toOrigin), 0.9f);
    glm::vec3 up = glm::normalize(glm::vec3(world * glm::vec4(0, 1, 0, 0)));
    EXPECT_GT(up.y, 0.9f);
}

TEST(PodSamples, OldNodeFormatAnimatesWithoutFlags) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult r = loadSample("oolong/oolong_model_float_noninterleaved.pod");
    ASSERT_TRUE(r.scene);
    const Scene& s = *r.scene;
    // Box01: old blocks 5004-5006 plus 98-frame arrays and no 5012 -> position, rotation and scale animate.
    std::set<Channel> channels;
    for (const Track& t : s.animation.clips.at(0).tracks)
        if (t.node == 0) channels.insert(t.channel);
    EXPECT_EQ(channels, (std::set<Channel>{Channel::Translation, Channel::Rotation, Channel::Scale}));
    EXPECT_NEAR(s.nodes[0].local.translation.x, 173.18597f, 1e-3f);
    EXPECT_NEAR(s.nodes[0].local.translation.z, -754.99176f, 1e-3f);
    // Ellipse01 has static old blocks only.
    for (const Track& t : s.animation.clips.at(0).tracks) EXPECT_NE(t.node, 2);
    // Non-indexed, non-interleaved: bone batch of nodes 5..10, triangles of the whole mesh.
    const Mesh& ellipse = s.meshes[2];
    EXPECT_EQ(ellipse.indices.count, 0u);
    ASSERT_EQ(ellipse.boneBatches.size(), 1u);
    EXPECT_EQ(ellipse.boneBatches[0].triangleCount, 3475u);
    EXPECT_EQ(s.skins.at(0).joints, (std::vector<int32_t>{5, 6, 7, 8, 9, 10}));
}

TEST(PodSamples, FixedPointNumbersAreConverted) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult r = loadSample("oolong/oolong_model_fixed.pod");
    ASSERT_TRUE(r.scene);
    const Scene& s = *r.scene;
    EXPECT_NEAR(s.cameras[0].yfov, 51471.0f / 65536.0f, 1e-6f);
    EXPECT_FLOAT_EQ(s.cameras[0].farZ, 4000.0f);
    EXPECT_FLOAT_EQ(s.cameras[0].nearZ, 10.0f);
    EXPECT_NEAR(s.materials[0].diffuse.r, 0.5372467f, 1e-6f);
    EXPECT_FLOAT_EQ(s.materials[0].shininess, 0.25f * 128.0f);  // 0.25 in the file, x128 as an exponent
    EXPECT_NEAR(s.nodes[0].local.translation.y, -1159.2992f, 1e-3f);
    // Vertex data keeps its own type: fixed 16.16 positions, byte UVs in the second channel.
    bool secondUv = false;
    for (const VertexAttribute& a : s.meshes[2].streams[0].attributes)
        if (a.semantic == Semantic::TexCoord && a.set == 1) secondUv = a.type == ComponentType::Int8;
    EXPECT_TRUE(secondUv);
}

TEST(PodSamples, MaterialsAndTextures) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult r = loadSample("cocos3d/cocos3d_ReflectiveMask.pod");
    ASSERT_TRUE(r.scene);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.textures.size(), 2u);
    EXPECT_EQ(s.textures[0].path, "tex_base.bmp");
    EXPECT_EQ(s.textures[1].path, "BrushedSteel.png");
    const Material& m = s.materials[0];
    EXPECT_EQ(m.name, "01 - Default");
    EXPECT_EQ(m.effectFile, "ReflectiveEffects.pfx");
    EXPECT_EQ(m.effectName, "ReflectiveEffect");
    EXPECT_EQ(m.texture(TextureSlot::Diffuse).texture, -1);
    EXPECT_NEAR(m.specular.r, 0.9f, 1e-6f);

    LoadResult bump = loadSample("nsdk/nsdk_Bumpmap_scene.pod");
    ASSERT_TRUE(bump.scene);
    EXPECT_EQ(bump.scene->materials[0].texture(TextureSlot::Diffuse).texture, 0);
    EXPECT_EQ(bump.scene->materials[0].texture(TextureSlot::Normal).texture, 1);  // 3012: MarbleNormalMap
    EXPECT_FLOAT_EQ(bump.scene->metersPerUnit, 0.254f);

    LoadResult man = loadSample("cocos3d/cocos3d_man.pod");
    ASSERT_TRUE(man.scene);
    const BlendState& blend = man.scene->materials[0].blend;  // ONE, ONE, ZERO, ZERO, ADD, ADD, flags 0
    EXPECT_FALSE(blend.enabled);
    EXPECT_EQ(blend.srcRgb, BlendFactor::One);
    EXPECT_EQ(blend.dstRgb, BlendFactor::Zero);
    EXPECT_EQ(blend.opRgb, BlendOp::Add);
}

// Skinned bounds through the animation, at integer frames. The expected boxes come from
// samples_expected.py --cpp-bounds (its own track evaluation and skinning with frame 0 as the bind
// pose; fixed-point numbers converted, quaternions normalised), and agree with the boxes of the CPU
// rasteriser used while developing the reader, whose images showed an intact running man and a
// swinging mallet, to 0.004 units or less.
struct BoundsFact {
    const char* path;
    float frame;
    glm::vec3 min, max;
};
const BoundsFact kBounds[] = {
    {"cocos3d/cocos3d_man.pod", 0, {-61.4454f, 18.7766f, -122.733f}, {52.4847f, 268.0f, 93.0297f}},
    {"cocos3d/cocos3d_man.pod", 5, {-54.2818f, 1.59311f, -68.8971f}, {53.1804f, 259.416f, 61.8265f}},
    {"cocos3d/cocos3d_man.pod", 10, {-53.1699f, 0.304058f, -118.618f}, {55.21f, 262.748f, 87.5627f}},
    {"cocos3d/cocos3d_mallet.pod", 0, {-261.017f, -1399.13f, -916.515f}, {261.983f, 285.871f, 1462.93f}},
    {"cocos3d/cocos3d_mallet.pod", 33, {-261.018f, -1404.17f, -940.238f}, {261.982f, -201.114f, 1462.93f}},
    {"oolong/oolong_model_fixed.pod", 66, {-260.998f, -1401.29f, -916.525f}, {262.002f, -168.025f, 1510.2f}},
    {"oolong/oolong_model_float_noninterleaved.pod", 64, {-261.016f, -1400.97f, -916.515f}, {261.984f, -77.4288f, 1462.93f}},
};

TEST(PodSamples, SkinnedBoundsThroughTheAnimation) {
    ESVIEW_REQUIRE_MODELS("pod");
    for (const BoundsFact& f : kBounds) {
        SCOPED_TRACE(std::string(f.path) + " frame " + std::to_string(f.frame));
        LoadResult r = loadSample(f.path);
        ASSERT_TRUE(r.scene);
        Pose pose;
        evaluatePose(*r.scene, 0, frameToSeconds(*r.scene, f.frame), pose);
        Bounds b = sceneBounds(*r.scene, pose);
        ASSERT_TRUE(b.valid());
        const float tolerance = 0.002f * glm::length(f.max - f.min);
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(b.min[k], f.min[k], tolerance) << "axis " << k;
            EXPECT_NEAR(b.max[k], f.max[k], tolerance) << "axis " << k;
        }
        if (f.frame == 0) {
            // The rest pose (no clip) is frame 0.
            evaluatePose(*r.scene, -1, 0.0f, pose);
            Bounds rest = sceneBounds(*r.scene, pose);
            EXPECT_NEAR(glm::length(rest.min - b.min) + glm::length(rest.max - b.max), 0.0f, tolerance);
        }
    }
}

}  // namespace
}  // namespace esv
