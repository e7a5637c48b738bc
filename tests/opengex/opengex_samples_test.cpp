// File-level tests: every sample OpenGEX file in ../shared/models/ogex loads, and the scene holds
// the facts read from the file itself: node structures of each kind with their names, parents and
// world positions, one mesh per GeometryObject with its vertex and triangle counts (after strip
// expansion), primitive, arrays and skin, materials with their colours and textures, the types of
// the LightNodes' lights, the CameraNodes' cameras, clips, and the world-space box at rest (and,
// for the skinned, animated file, at times in its clip). The numbers come from samples_expected.py,
// an independent OpenDDL parser applying the OpenGEX 3.0 spec's formulas (`python3
// samples_expected.py --cpp DIR` prints the table below; without --cpp it prints the derivation).
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {
namespace {

struct NodeFact {
    const char* name;
    int parent;
    NodeKind kind;
    glm::vec3 worldTranslation;  // at rest: the node transforms as written, parents first
};
struct MeshFact {
    uint32_t vertices, triangles;
    Primitive primitive;
    bool skinned;
    std::vector<Semantic> attributes;  // arrays of attribute index 0 that the spec's mesh rules admit
};
struct MaterialFact {
    const char* name;
    glm::vec3 diffuse, specular;  // Table 2.1 defaults where the file gives none
    float specularPower;
    std::vector<std::pair<TextureSlot, const char*>> textures;
};
struct CameraFact {
    float fov, nearZ, farZ;  // "fov" is the horizontal angle (spec, CameraObject)
};
struct ClipFact {
    float start, duration;  // seconds: key range times the time metric (no Animation begin/end here)
};
struct FileFact {
    const char* file;
    size_t bytes;
    UpAxis up;
    // Node, BoneNode, GeometryNode, LightNode, CameraNode structures.
    std::array<size_t, 5> kindCounts;
    std::vector<NodeFact> nodes;   // depth first, parents before children, as in the file
    std::vector<MeshFact> meshes;  // one per GeometryObject (lod 0), file order
    std::vector<MaterialFact> materials;
    std::vector<LightType> lights;    // one per LightNode ("infinite" -> Directional)
    std::vector<CameraFact> cameras;  // one per CameraNode
    std::vector<ClipFact> clips;
    bool hasBounds;
    glm::vec3 min, max;  // world-space box at rest, after skinning
};

// clang-format off
const std::vector<FileFact> kFacts = {
    {"assimp_Example.ogex", 4219, UpAxis::Z,
     {0, 0, 2, 0, 0},
     {
         {"Box001", -1, NodeKind::Mesh, {-0.475059509f, 9.50118828f, 0.0f}},
         {"Box002", -1, NodeKind::Mesh, {132.078979f, 9.50118828f, 0.0f}},
     },
     {
         {24, 12, Primitive::Triangles, false, {Semantic::Position, Semantic::Normal, Semantic::TexCoord}},
     },
     {
         {"03 - Default", {0.588235021f, 0.588235021f, 0.588235021f}, {0.0f, 0.0f, 0.0f}, 1.0f, {{TextureSlot::Diffuse, "texture/Concrete.tga"}}},
     },
     {},
     {},
     {},
     true, {-52.4940605f, -41.5676975f, 0.0f}, {184.09798f, 60.5700741f, 93.1116333f}},
    {"assimp_animation_example.ogex", 372301, UpAxis::Z,
     {1, 5, 2, 1, 1},
     {
         {"Armature", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
         {"Bone", 0, NodeKind::Bone, {0.0f, 0.0f, -1.0f}},
         {"Bone.001", 1, NodeKind::Bone, {1.58218385f, 0.178559308f, 0.210293991f}},
         {"Bone.002", 2, NodeKind::Bone, {3.5046138f, 0.377755801f, 0.724671034f}},
         {"Bone.003", 3, NodeKind::Bone, {5.45683936f, 0.195985773f, 1.11935799f}},
         {"Bone.004", 3, NodeKind::Bone, {5.45683935f, 0.195985759f, 1.11935799f}},
         {"Cube.001", 0, NodeKind::Mesh, {0.0f, 0.0f, 0.0f}},
         {"Cube", -1, NodeKind::Mesh, {0.0f, 0.0f, 0.0f}},
         {"Lamp", -1, NodeKind::Light, {4.07624531f, 1.00545394f, 5.903862f}},
         {"Camera", -1, NodeKind::Camera, {7.48113155f, -6.50763988f, 5.34366512f}},
     },
     {
         {24, 12, Primitive::Triangles, false, {Semantic::Position, Semantic::Normal}},
         {80, 52, Primitive::Triangles, true, {Semantic::Position, Semantic::Normal, Semantic::Color, Semantic::TexCoord}},
     },
     {
         {"Material", {0.640000045f, 0.640000045f, 0.640000045f}, {0.5f, 0.5f, 0.5f}, 50.0f, {}},
         {"Material.001", {0.639999986f, 0.639999986f, 0.639999986f}, {25.0f, 25.0f, 25.0f}, 50.0f, {}},
     },
     {LightType::Point},
     {{0.857556045f, 0.100000001f, 100.0f}},
     {{0.0f, 10.416667f}},
     true, {-1.00000036f, -1.24598936f, -1.83470925f}, {7.6789645f, 3.24460288f, 3.07770136f}},
    {"assimp_camera.ogex", 4316, UpAxis::Z,
     {0, 0, 1, 1, 1},
     {
         {"Cube", -1, NodeKind::Mesh, {0.0f, 0.0f, 0.0f}},
         {"Lamp", -1, NodeKind::Light, {4.07624531f, 1.00545394f, 5.903862f}},
         {"Camera", -1, NodeKind::Camera, {7.48113155f, -6.50763988f, 5.34366512f}},
     },
     {
         {24, 12, Primitive::Triangles, false, {Semantic::Position, Semantic::Normal}},
     },
     {
         {"Material", {0.640000045f, 0.640000045f, 0.640000045f}, {0.5f, 0.5f, 0.5f}, 50.0f, {}},
     },
     {LightType::Point},
     {{0.857556045f, 0.100000001f, 100.0f}},
     {},
     true, {-1.00000036f, -1.0000006f, -1.0f}, {1.00000048f, 1.00000036f, 1.0f}},
    {"assimp_empty_camera.ogex", 173, UpAxis::Z,
     {0, 0, 0, 0, 0},
     {
     },
     {
     },
     {
     },
     {},
     {},
     {},
     false, {}, {}},
    {"assimp_light_issue1262.ogex", 386, UpAxis::Z,
     {0, 0, 0, 0, 0},
     {
     },
     {
     },
     {
     },
     {},
     {},
     {},
     false, {}, {}},
    {"lengyel_Example.ogex", 4246, UpAxis::Z,
     {0, 0, 2, 0, 0},
     {
         {"Box001", -1, NodeKind::Mesh, {-0.475059509f, 9.50118828f, 0.0f}},
         {"Box002", -1, NodeKind::Mesh, {132.078979f, 9.50118828f, 0.0f}},
     },
     {
         {24, 12, Primitive::Triangles, false, {Semantic::Position, Semantic::Normal, Semantic::TexCoord}},
     },
     {
         {"Default", {0.588235021f, 0.588235021f, 0.588235021f}, {0.0f, 0.0f, 0.0f}, 1.0f, {{TextureSlot::Diffuse, "texture/Concrete.tga"}}},
     },
     {},
     {},
     {},
     true, {-52.4940605f, -41.5676975f, 0.0f}, {184.09798f, 60.5700741f, 93.1116333f}},
    {"magnum_light.ogex", 387, UpAxis::Z,
     {0, 0, 0, 0, 0},
     {
     },
     {
     },
     {
     },
     {},
     {},
     {},
     false, {}, {}},
    {"magnum_material.ogex", 770, UpAxis::Z,
     {0, 0, 0, 0, 0},
     {
     },
     {
     },
     {
         {"", {1.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, {}},
         {"colors", {0.0f, 0.800000012f, 0.5f}, {0.5f, 0.200000003f, 1.0f}, 10.0f, {}},
         {"diffuse_texture", {0.0f, 0.800000012f, 0.5f}, {0.0f, 0.0f, 0.0f}, 1.0f, {}},
         {"both_textures", {1.0f, 1.0f, 1.0f}, {0.5f, 0.200000003f, 1.0f}, 1.0f, {}},
     },
     {},
     {},
     {},
     false, {}, {}},
    {"magnum_mesh.ogex", 1141, UpAxis::Y,
     {0, 0, 0, 0, 0},
     {
     },
     {
         {3, 1, Primitive::TriangleStrip, false, {Semantic::Position, Semantic::Normal, Semantic::TexCoord}},
         {4, 2, Primitive::Triangles, false, {Semantic::Position}},
         // "noPositions": three normals and no IndexArray. The spec requires no position array
         // (Mesh: "one or more vertex arrays", any attrib), and with no IndexArray "n is ... the
         // total number of vertices in each VertexArray structure" (Mesh, table 2.2): 3 vertices,
         // n/3 = 1 triangle, though nothing can be drawn.
         {3, 1, Primitive::Triangles, false, {Semantic::Normal}},
     },
     {
     },
     {},
     {},
     {},
     false, {}, {}},
    {"magnum_scene-rotation.ogex", 480, UpAxis::Y,
     {6, 0, 0, 0, 0},
     {
         {"", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
         {"", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
         {"", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
         {"", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
         {"", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
         {"", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
     },
     {
     },
     {
     },
     {},
     {},
     {},
     false, {}, {}},
    {"magnum_texture.ogex", 192, UpAxis::Z,
     {0, 0, 0, 0, 0},
     {
     },
     {
     },
     {
         {"", {1.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 0.0f}, 1.0f, {{TextureSlot::Diffuse, "image.tga"}}},
     },
     {},
     {},
     {},
     false, {}, {}},
    {"squareys_Camera.ogex", 520, UpAxis::Z,
     {0, 0, 0, 0, 1},
     {
         {"Camera", -1, NodeKind::Camera, {0.0f, 0.0f, 1.79999995f}},
     },
     {
     },
     {
     },
     {},
     {{0.857555985f, 0.100000001f, 100.0f}},
     {},
     false, {}, {}},
    {"squareys_CustomProperties.ogex", 1353, UpAxis::Z,
     {1, 0, 0, 0, 1},
     {
         {"Empty", -1, NodeKind::Empty, {0.0f, 0.0f, 0.0f}},
         {"Camera", -1, NodeKind::Camera, {7.48113203f, -6.50763988f, 5.34366512f}},
     },
     {
     },
     {
     },
     {},
     {{0.857555985f, 0.100000001f, 100.0f}},
     {},
     false, {}, {}},
    {"squareys_Geometry.ogex", 757721, UpAxis::Z,
     {0, 0, 1, 0, 0},
     {
         {"Suzanne", -1, NodeKind::Mesh, {0.0f, 0.0f, 0.0f}},
     },
     {
         {7952, 4872, Primitive::Triangles, false, {Semantic::Position, Semantic::Normal, Semantic::Color, Semantic::TexCoord}},
     },
     {
         {"Material", {0.800000012f, 0.800000012f, 0.0f}, {0.5f, 0.5f, 0.5f}, 50.0f, {{TextureSlot::Diffuse, "Test.png"}}},
     },
     {},
     {},
     {},
     true, {-1.34399998f, -0.832000017f, -0.976999998f}, {1.33700001f, 0.809000015f, 0.958999991f}},
    {"squareys_KeyframeAnimation_sampled.ogex", 26495, UpAxis::Z,
     {1, 0, 0, 0, 0},
     {
         {"Empty", -1, NodeKind::Empty, {5.5f, 0.0f, 5.0f}},
     },
     {
     },
     {
     },
     {},
     {},
     {{0.0f, 10.416667f}},
     false, {}, {}},
    {"squareys_LinkedParentedObjects.ogex", 1860, UpAxis::Z,
     {9, 0, 0, 0, 0},
     {
         {"Empty", -1, NodeKind::Empty, {0.0f, -1.0f, 0.0f}},
         {"Empty.001", 0, NodeKind::Empty, {0.0f, -1.0f, 3.0f}},
         {"EmptyWithChild", -1, NodeKind::Empty, {5.0f, -1.0f, 1.0f}},
         {"Child", 2, NodeKind::Empty, {5.0f, -1.0f, 3.0f}},
         {"DupliInstance.001", -1, NodeKind::Empty, {5.0f, 1.0f, 0.0f}},
         {"EmptyWithChild", 4, NodeKind::Empty, {5.0f, 1.0f, 1.0f}},
         {"Child", 5, NodeKind::Empty, {5.0f, 1.0f, 3.0f}},
         {"DupliInstance", -1, NodeKind::Empty, {0.0f, 1.0f, 0.0f}},
         {"Empty", 7, NodeKind::Empty, {0.0f, 1.0f, 0.0f}},
     },
     {
     },
     {
     },
     {},
     {},
     {},
     false, {}, {}},
    {"squareys_PhysicsConstraints.ogex", 7610, UpAxis::Z,
     {0, 0, 8, 0, 0},
     {
         {"Slave of Generic 6 DoF", -1, NodeKind::Mesh, {-1.0f, -9.0f, 1.0f}},
         {"Generic 6 DoF", -1, NodeKind::Mesh, {0.0f, -10.0f, 5.0f}},
         {"Slave of Ball", -1, NodeKind::Mesh, {-1.0f, 6.0f, 1.0f}},
         {"Ball", -1, NodeKind::Mesh, {0.0f, 5.0f, 5.0f}},
         {"Slave of Hinge", -1, NodeKind::Mesh, {-1.0f, 1.0f, 1.0f}},
         {"Hinge", -1, NodeKind::Mesh, {0.0f, 0.0f, 5.0f}},
         {"Slave of Cone Twist", -1, NodeKind::Mesh, {-1.0f, -4.0f, 1.0f}},
         {"Cone Twist", -1, NodeKind::Mesh, {0.0f, -5.0f, 5.0f}},
     },
     {
         {24, 8, Primitive::Triangles, false, {Semantic::Position, Semantic::Normal}},
     },
     {
     },
     {},
     {},
     {},
     true, {-1.71499997f, -10.715f, 0.292999983f}, {0.714999974f, 6.71499997f, 5.70700002f}},
};
// clang-format on

std::filesystem::path ogexDir() {
    return test::modelsDir() / "ogex";
}

LoadResult loadSample(const std::string& file, bool check = false) {
    LoadOptions options;
    options.collectAll = check;
    return loadSceneFile((ogexDir() / file).string(), options);
}

std::string problemsOf(const LoadResult& r) {
    std::string s;
    for (const Problem& p : r.problems) s += p.format() + "\n";
    return s;
}

// |a - b| within `tol`, relative to the magnitude above 1.
void expectNear(const glm::vec3& actual, const glm::vec3& expected, float tol, const std::string& what) {
    for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(actual[i], expected[i], tol * std::max(1.0f, std::fabs(expected[i])))
            << what << " [" << i << "]";
}

Pose poseAt(const Scene& s, int clip, float seconds) {
    Pose pose;
    evaluatePose(s, clip, seconds, pose);
    return pose;
}

bool hasAttribute(const Mesh& mesh, Semantic semantic) {
    return findAttribute(mesh, semantic, 0, nullptr) != nullptr;
}

TEST(OpenGexSamples, TableCoversEveryFile) {
    ESVIEW_REQUIRE_MODELS("ogex");
    std::set<std::string> listed;
    for (const FileFact& f : kFacts) listed.insert(f.file);
    size_t found = 0;
    for (const auto& entry : std::filesystem::directory_iterator(ogexDir())) {
        if (entry.path().extension() != ".ogex") continue;
        ++found;
        EXPECT_TRUE(listed.count(entry.path().filename().string()))
            << entry.path() << " has no facts in the table";
    }
    EXPECT_EQ(found, kFacts.size());
}

TEST(OpenGexSamples, FactsMatchTheFile) {
    ESVIEW_REQUIRE_MODELS("ogex");
    for (const FileFact& f : kFacts) {
        SCOPED_TRACE(f.file);
        EXPECT_EQ(std::filesystem::file_size(ogexDir() / f.file), f.bytes);
        LoadResult r = loadSample(f.file);
        ASSERT_TRUE(r.scene) << problemsOf(r);
        EXPECT_TRUE(r.problems.empty()) << problemsOf(r);
        const Scene& s = *r.scene;
        EXPECT_EQ(s.format, "ogex");
        EXPECT_EQ(s.up, f.up);
        EXPECT_FLOAT_EQ(s.metersPerUnit, 1.0f);

        // Nodes: every node structure of every kind, none added.
        ASSERT_EQ(s.nodes.size(), f.nodes.size());
        std::array<size_t, 5> counts{};
        for (const Node& n : s.nodes) {
            switch (n.kind) {
                case NodeKind::Empty:
                    ++counts[0];
                    break;
                case NodeKind::Bone:
                    ++counts[1];
                    break;
                case NodeKind::Mesh:
                    ++counts[2];
                    break;
                case NodeKind::Light:
                    ++counts[3];
                    break;
                case NodeKind::Camera:
                    ++counts[4];
                    break;
                default:
                    ADD_FAILURE() << "node kind " << nodeKindName(n.kind);
                    break;
            }
        }
        EXPECT_EQ(counts, f.kindCounts);
        const Pose rest = poseAt(s, -1, 0.0f);
        ASSERT_EQ(rest.world.size(), s.nodes.size());
        for (size_t i = 0; i < f.nodes.size(); ++i) {
            SCOPED_TRACE("node " + std::to_string(i));
            EXPECT_EQ(s.nodes[i].name, f.nodes[i].name);
            EXPECT_EQ(s.nodes[i].parent, f.nodes[i].parent);
            EXPECT_EQ(s.nodes[i].kind, f.nodes[i].kind);
            expectNear(glm::vec3(rest.world[i][3]), f.nodes[i].worldTranslation, 1e-5f, "world translation");
        }

        // Meshes: one per GeometryObject; mesh instances are the GeometryNodes.
        ASSERT_EQ(s.meshes.size(), f.meshes.size());
        for (size_t m = 0; m < f.meshes.size(); ++m) {
            SCOPED_TRACE("mesh " + std::to_string(m));
            const MeshFact& mf = f.meshes[m];
            const Mesh& mesh = s.meshes[m];
            EXPECT_EQ(mesh.vertexCount, mf.vertices);
            EXPECT_EQ(triangleCount(mesh), mf.triangles);
            for (const Submesh& sub : mesh.submeshes) EXPECT_EQ(sub.primitive, mf.primitive);
            std::set<std::string> attributes, expected;
            for (const VertexStream& st : mesh.streams)
                for (const VertexAttribute& a : st.attributes)
                    if (a.semantic != Semantic::BoneIndices && a.semantic != Semantic::BoneWeights) {
                        EXPECT_EQ(a.set, 0) << semanticName(a.semantic);
                        attributes.insert(semanticName(a.semantic));
                    }
            for (Semantic a : mf.attributes) expected.insert(semanticName(a));
            EXPECT_EQ(attributes, expected);
            EXPECT_EQ(hasAttribute(mesh, Semantic::BoneWeights), mf.skinned);
            EXPECT_EQ(hasAttribute(mesh, Semantic::BoneIndices), mf.skinned);
            for (const Node& n : s.nodes) {
                if (n.kind == NodeKind::Mesh && n.object == static_cast<int32_t>(m)) {
                    EXPECT_EQ(n.skin >= 0, mf.skinned);
                }
            }
        }
        for (const Node& n : s.nodes)
            if (n.kind == NodeKind::Mesh) {
                EXPECT_GE(n.object, 0);
                EXPECT_LT(n.object, static_cast<int32_t>(s.meshes.size()));
            }

        // Materials in file order, with their colours and texture file names.
        ASSERT_EQ(s.materials.size(), f.materials.size());
        size_t textures = 0;
        for (size_t m = 0; m < f.materials.size(); ++m) {
            SCOPED_TRACE("material " + std::to_string(m));
            const MaterialFact& mf = f.materials[m];
            const Material& mat = s.materials[m];
            EXPECT_EQ(mat.name, mf.name);
            expectNear(mat.diffuse, mf.diffuse, 1e-6f, "diffuse");
            expectNear(mat.specular, mf.specular, 1e-6f, "specular");
            EXPECT_FLOAT_EQ(mat.shininess, mf.specularPower);
            size_t used = 0;
            for (const TextureRef& t : mat.textures) used += t.texture >= 0 ? 1 : 0;
            EXPECT_EQ(used, mf.textures.size());
            for (const auto& [slot, file] : mf.textures) {
                const int32_t t = mat.texture(slot).texture;
                ASSERT_GE(t, 0) << textureSlotName(slot);
                ASSERT_LT(static_cast<size_t>(t), s.textures.size());
                EXPECT_EQ(s.textures[t].path, file);
            }
            textures += mf.textures.size();
        }
        EXPECT_EQ(s.textures.size(), textures);

        // Lights and cameras: those that LightNodes and CameraNodes place, in node order.
        ASSERT_EQ(s.lights.size(), f.lights.size());
        for (size_t i = 0; i < f.lights.size(); ++i)
            EXPECT_EQ(s.lights[i].type, f.lights[i]) << "light " << i;
        ASSERT_EQ(s.cameras.size(), f.cameras.size());
        for (size_t i = 0; i < f.cameras.size(); ++i) {
            EXPECT_NEAR(s.cameras[i].xfov, f.cameras[i].fov, 1e-6f) << "camera " << i;
            EXPECT_NEAR(s.cameras[i].nearZ, f.cameras[i].nearZ, 1e-6f) << "camera " << i;
            EXPECT_NEAR(s.cameras[i].farZ, f.cameras[i].farZ, 1e-4f) << "camera " << i;
        }
        for (size_t i = 0, light = 0, camera = 0; i < s.nodes.size(); ++i) {
            if (s.nodes[i].kind == NodeKind::Light) {
                EXPECT_EQ(s.nodes[i].object, static_cast<int32_t>(light++));
            }
            if (s.nodes[i].kind == NodeKind::Camera) {
                EXPECT_EQ(s.nodes[i].object, static_cast<int32_t>(camera++));
            }
        }

        // Clips: no sample has a Clip structure, so clip 0 takes the key range and a name of the reader's.
        ASSERT_EQ(s.animation.clips.size(), f.clips.size());
        for (size_t c = 0; c < f.clips.size(); ++c) {
            EXPECT_FALSE(s.animation.clips[c].name.empty());
            EXPECT_NEAR(s.animation.clips[c].start, f.clips[c].start, 1e-6f);
            EXPECT_NEAR(s.animation.clips[c].duration(), f.clips[c].duration, 1e-5f);
        }

        // The box of what is drawn, at rest.
        const Bounds b = sceneBounds(s, rest);
        ASSERT_EQ(b.valid(), f.hasBounds);
        if (f.hasBounds) {
            expectNear(b.min, f.min, 1e-5f, "bounds min");
            expectNear(b.max, f.max, 1e-5f, "bounds max");
        }
    }
}

// The six Rotation kinds of magnum_scene-rotation each turn by +90 degrees (spec, Rotation): about z
// by axis (angle 1.5708, axis (0, 0, 2.5) normalised), about z again by axis (-1.5708 about
// (0, 0, -0.5)), about z by the quaternion (0, 0, 2.5, 2.5) unitised, then kinds "x", "y" and "z".
TEST(OpenGexSamples, RotationKinds) {
    ESVIEW_REQUIRE_MODELS("ogex");
    LoadResult r = loadSample("magnum_scene-rotation.ogex");
    ASSERT_TRUE(r.scene) << problemsOf(r);
    const Pose rest = poseAt(*r.scene, -1, 0.0f);
    ASSERT_EQ(rest.world.size(), 6u);
    // Images of the x, y and z unit vectors (the world matrix's first three columns).
    const glm::mat3 rotZ(glm::vec3(0, 1, 0), glm::vec3(-1, 0, 0), glm::vec3(0, 0, 1));
    const glm::mat3 rotX(glm::vec3(1, 0, 0), glm::vec3(0, 0, 1), glm::vec3(0, -1, 0));
    const glm::mat3 rotY(glm::vec3(0, 0, -1), glm::vec3(0, 1, 0), glm::vec3(1, 0, 0));
    const glm::mat3 expected[6] = {rotZ, rotZ, rotZ, rotX, rotY, rotZ};
    for (int n = 0; n < 6; ++n)
        for (int c = 0; c < 3; ++c) {
            expectNear(glm::vec3(rest.world[n][c]), expected[n][c], 1e-6f,
                       "node " + std::to_string(n) + " column " + std::to_string(c));
            EXPECT_FLOAT_EQ(rest.world[n][c][3], 0.0f);
        }
}

// magnum_mesh: the strip of three vertices is one triangle; the indexed mesh keeps its
// unsigned_int16[3] triangles as written; the positions are the file's.
TEST(OpenGexSamples, MeshTrianglesAsWritten) {
    ESVIEW_REQUIRE_MODELS("ogex");
    LoadResult r = loadSample("magnum_mesh.ogex");
    ASSERT_TRUE(r.scene) << problemsOf(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.meshes.size(), 3u);
    std::vector<uint32_t> tris;
    expandTriangles(s.meshes[0], tris);
    EXPECT_EQ(tris, (std::vector<uint32_t>{0, 1, 2}));
    expandTriangles(s.meshes[1], tris);
    EXPECT_EQ(tris, (std::vector<uint32_t>{2, 0, 1, 1, 2, 3}));
    const VertexStream* stream = nullptr;
    const VertexAttribute* pos = findAttribute(s.meshes[1], Semantic::Position, 0, &stream);
    ASSERT_NE(pos, nullptr);
    const float expected[4][3] = {{0, 1, 3}, {-1, 2, 2}, {3, 3, 1}, {5, 7, 0.5f}};
    for (uint32_t v = 0; v < 4; ++v) {
        float out[4];
        EXPECT_EQ(readAttribute(*stream, *pos, v, out), 3);
        for (int c = 0; c < 3; ++c) EXPECT_FLOAT_EQ(out[c], expected[v][c]) << "vertex " << v;
    }
    // The third GeometryObject has normals only: three vertices and, with no IndexArray, n/3 = 1
    // triangle (spec, Mesh, table 2.2). The spec asks for no position array; see FactsMatchTheFile.
}

// Check mode reports every violation of the spec and nothing else. Only magnum_mesh breaks a rule:
// its first mesh has a second "texcoord" array with index 0 and morph 0 (spec, VertexArray: "A mesh
// may contain multiple vertex arrays having the same values for the attrib and index properties
// only if they have different values for their morph properties") and an empty "color" array
// beside three-vertex arrays (spec, Mesh: "All VertexArray structures belonging to a mesh must
// specify data for the same number of vertices").
TEST(OpenGexSamples, CheckModeFindsOnlyTheKnownViolations) {
    ESVIEW_REQUIRE_MODELS("ogex");
    for (const FileFact& f : kFacts) {
        SCOPED_TRACE(f.file);
        LoadResult r = loadSample(f.file, true);
        if (std::string(f.file) == "magnum_mesh.ogex") {
            std::vector<int> lines;
            for (const Problem& p : r.problems) lines.push_back(p.line);
            std::sort(lines.begin(), lines.end());
            EXPECT_EQ(lines, (std::vector<int>{14, 17})) << problemsOf(r);
        } else {
            EXPECT_TRUE(r.ok()) << problemsOf(r);
        }
    }
}

// The sampled Transform track of squareys_KeyframeAnimation_sampled moves the node up z to 5 by
// 0.375 s, then along x to 5.5 by 0.79 s (keys every 1/24 s, linear, matrices blended
// componentwise as the spec's Track section says).
TEST(OpenGexSamples, SampledTransformTrack) {
    ESVIEW_REQUIRE_MODELS("ogex");
    LoadResult r = loadSample("squareys_KeyframeAnimation_sampled.ogex");
    ASSERT_TRUE(r.scene) << problemsOf(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.animation.clips.size(), 1u);
    const struct {
        float t;
        glm::vec3 translation;
    } kKeys[] = {{0.0f, {0, 0, 0}},           {0.1f, {0, 0, 0.811856663f}},
                 {0.3f, {0, 0, 4.53427235f}}, {0.45f, {0.415497222f, 0, 5}},
                 {0.6f, {3.10362526f, 0, 5}}, {1.0f, {5.5f, 0, 5}},
                 {10.0f, {5.5f, 0, 5}}};
    for (const auto& k : kKeys) {
        const Pose pose = poseAt(s, 0, s.animation.clips[0].start + k.t);
        expectNear(glm::vec3(pose.world[0][3]), k.translation, 1e-5f, "t = " + std::to_string(k.t));
        expectNear(glm::vec3(pose.world[0][0]), glm::vec3(1, 0, 0), 1e-6f, "x axis");
    }
}

// assimp_animation_example: Cube.001 is skinned to the five BoneNodes; every bone track is 250
// linear float[16] keys over 0 .. 10.4167 s that move only until 0.5417 s and then hold the rest
// transform. Positions follow the Skin formula P = sum w_i M_k B_k^-1 T_bind P_bind with M_k the
// bone's world transform (the GeometryNode's own transform is not applied); tracks blend matrices
// componentwise, so bones shear in between keys and triangle edges stretch, though never by a
// factor below 1/2 or above 2.
TEST(OpenGexSamples, SkinnedAnimationBoundsAndShape) {
    ESVIEW_REQUIRE_MODELS("ogex");
    LoadResult r = loadSample("assimp_animation_example.ogex");
    ASSERT_TRUE(r.scene) << problemsOf(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.nodes.size(), 10u);
    const int body = 6;  // GeometryNode "Cube.001"
    ASSERT_EQ(s.nodes[body].name, "Cube.001");
    ASSERT_GE(s.nodes[body].skin, 0);
    const Skin& skin = s.skins.at(s.nodes[body].skin);
    EXPECT_EQ(skin.joints, (std::vector<int32_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(s.nodes[7].skin, -1);  // "Cube" is not skinned
    ASSERT_EQ(s.animation.clips.size(), 1u);
    const Clip& clip = s.animation.clips[0];
    EXPECT_EQ(clip.tracks.size(), 5u);
    for (const Track& t : clip.tracks) {
        EXPECT_EQ(t.times.size(), 250u);
        EXPECT_GE(t.node, 1);
        EXPECT_LE(t.node, 5);
    }

    const Mesh& mesh = s.meshes.at(s.nodes[body].object);
    std::vector<uint32_t> tris;
    expandTriangles(mesh, tris);
    ASSERT_EQ(tris.size(), 52u * 3u);
    const Pose rest = poseAt(s, -1, 0.0f);
    std::vector<glm::vec3> restPositions;
    worldVertices(s, rest, body, restPositions);
    ASSERT_EQ(restPositions.size(), 80u);

    const struct {
        float t;
        glm::vec3 sceneMin, sceneMax;  // both meshes
        glm::vec3 bodyMin, bodyMax;    // Cube.001 alone
        float minRatio, maxRatio;      // edge length at t over edge length at rest
    } kTimes[] = {
        {0.0f,
         {-1.00000036f, -1.00000302f, -1.0f},
         {1.01068891f, 2.93558203f, 7.10136097f},
         {-1.00000012f, -1.00000302f, -0.934041381f},
         {1.01068891f, 2.93558203f, 7.10136097f},
         0.827356727f,
         1.23579283f},
        {0.1f,
         {-1.00000036f, -1.00079702f, -1.0f},
         {2.50929184f, 3.00953333f, 7.89910336f},
         {-1.00000012f, -1.00079702f, -0.178897847f},
         {2.50929184f, 3.00953333f, 7.89910336f},
         0.715620289f,
         1.3601666f},
        {0.2f,
         {-1.00000036f, -1.00276772f, -1.0f},
         {3.77762189f, 3.09939407f, 7.95009415f},
         {-1.00000012f, -1.00276772f, 0.709358719f},
         {3.77762189f, 3.09939407f, 7.95009415f},
         0.598076641f,
         1.55370495f},
        {0.25f,
         {-1.00000036f, -1.00334119f, -1.0f},
         {4.08797404f, 3.13892142f, 7.68578445f},
         {-1.00000012f, -1.00334119f, 1.10704374f},
         {4.08797404f, 3.13892142f, 7.68578445f},
         0.552725952f,
         1.63744455f},
        {0.3f,
         {-1.00000036f, -1.00128742f, -1.0f},
         {4.21692677f, 3.16496916f, 7.56635174f},
         {-1.00000012f, -1.00128742f, 1.35104219f},
         {4.21692677f, 3.16496916f, 7.56635174f},
         0.527028337f,
         1.68582445f},
        {0.4f,
         {-1.00000036f, -1.01042082f, -1.0f},
         {5.27370964f, 3.22492057f, 6.68222709f},
         {-0.988831514f, -1.01042082f, 0.647616365f},
         {5.27370964f, 3.22492057f, 6.68222709f},
         0.601468492f,
         1.52814241f},
        {0.5f,
         {-1.00000036f, -1.13828624f, -1.44761816f},
         {7.43946398f, 3.26440957f, 3.78647035f},
         {-0.76435807f, -1.13828624f, -1.44761816f},
         {7.43946398f, 3.26440957f, 3.78647035f},
         0.930638032f,
         1.07634703f},
        {2.5f,
         {-1.00000036f, -1.24598936f, -1.83470925f},
         {7.6789645f, 3.24460288f, 3.07770136f},
         {-0.688270719f, -1.24598936f, -1.83470925f},
         {7.6789645f, 3.24460288f, 3.07770136f},
         1.0f,
         1.0f},
        {5.0f,
         {-1.00000036f, -1.24598936f, -1.83470925f},
         {7.6789645f, 3.24460288f, 3.07770136f},
         {-0.688270719f, -1.24598936f, -1.83470925f},
         {7.6789645f, 3.24460288f, 3.07770136f},
         1.0f,
         1.0f},
        {10.0f,
         {-1.00000036f, -1.24598936f, -1.83470925f},
         {7.6789645f, 3.24460288f, 3.07770136f},
         {-0.688270719f, -1.24598936f, -1.83470925f},
         {7.6789645f, 3.24460288f, 3.07770136f},
         1.0f,
         1.0f},
    };
    for (const auto& k : kTimes) {
        SCOPED_TRACE("t = " + std::to_string(k.t));
        const Pose pose = poseAt(s, 0, clip.start + k.t);
        const Bounds b = sceneBounds(s, pose);
        ASSERT_TRUE(b.valid());
        expectNear(b.min, k.sceneMin, 1e-4f, "scene min");
        expectNear(b.max, k.sceneMax, 1e-4f, "scene max");

        std::vector<glm::vec3> positions;
        worldVertices(s, pose, body, positions);
        ASSERT_EQ(positions.size(), restPositions.size());
        Bounds bodyBox;
        for (const glm::vec3& p : positions) bodyBox.add(p);
        expectNear(bodyBox.min, k.bodyMin, 1e-4f, "body min");
        expectNear(bodyBox.max, k.bodyMax, 1e-4f, "body max");

        float lo = 1e30f, hi = 0.0f;
        for (size_t t = 0; t < tris.size(); t += 3)
            for (int e = 0; e < 3; ++e) {
                const uint32_t a = tris[t + e], c = tris[t + (e + 1) % 3];
                const float restLength = glm::length(restPositions[a] - restPositions[c]);
                if (restLength < 1e-6f) continue;
                const float ratio = glm::length(positions[a] - positions[c]) / restLength;
                lo = std::min(lo, ratio);
                hi = std::max(hi, ratio);
            }
        EXPECT_GE(lo, 0.5f);
        EXPECT_LE(hi, 2.0f);
        EXPECT_NEAR(lo, k.minRatio, 1e-3f);
        EXPECT_NEAR(hi, k.maxRatio, 1e-3f);
    }
}

}  // namespace
}  // namespace esv
