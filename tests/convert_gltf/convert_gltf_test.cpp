// `esview convert IN OUT.glb|OUT.gltf` on every shared sample, checked by tools no one here wrote:
// the Khronos glTF-Validator reports no error (and only the warnings listed below), and assimp
// reads each output back with the node, mesh, triangle, joint and animation counts the scene had.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/test_paths.h"
#include "convert_gltf/glb_reader.h"
#include "convert/gltf/gltf_curves.h"
#include "convert/gltf/gltf_writer.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/pof_extras.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using test::Glb;
using test::glbBounds;
using test::readGlb;

// Validator warnings the outputs may keep, each with its reason. Anything else fails the test.
const std::map<std::string, std::string> kAllowedWarnings = {
    {"NODE_SKINNED_MESH_NON_ROOT",
     "the source parents a skinned mesh node under other nodes; esview ignores those transforms for "
     "skinned meshes as glTF does, so the output draws the same and the hierarchy is kept as written"},
    {"NODE_SKINNED_MESH_LOCAL_TRANSFORMS",
     "the skinned mesh node keeps its own transform as the file has it (POD folds it into the inverse "
     "bind matrices); glTF ignores it as esview does"},
    {"IMAGE_FEATURES_UNSUPPORTED",
     "PNG and JPEG textures are copied byte for byte, colour space chunks (gAMA, iCCP, ...) included"},
};

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs `command` through the shell; `output` gets its stdout (and stderr, unless the command
// redirects it itself).
int run(const std::string& command, std::string& output) {
    output.clear();
    const bool redirects = command.find(">/dev/null") != std::string::npos;
    FILE* pipe = popen((redirects ? command : command + " 2>&1").c_str(), "r");
    if (!pipe) return -1;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every model file under the shared models (any depth), and every model inside a .vp archive there.
std::vector<std::string> samplePaths() {
    std::vector<std::string> paths;
    for (const auto& entry : fs::recursive_directory_iterator(test::modelsDir())) {
        if (!entry.is_regular_file()) continue;
        const std::string path = entry.path().string();
        if (isVpFileName(path)) {
            std::vector<Problem> problems;
            auto archive = VpArchive::open(path, problems);
            if (!archive) continue;
            for (const VpFile& file : archive->files())
                if (isModelInArchive(file.path)) paths.push_back(joinArchivePath(path, file.path));
        } else if (isModelInArchive(path)) {
            paths.push_back(path);
        }
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

std::string outputName(const std::string& path, size_t index, const char* ext) {
    std::string name = fs::path(path).stem().string();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return std::to_string(index) + "_" + name + ext;
}

bool validatorAvailable(std::string& why) {
    const std::string node = ESVIEW_NODE;
    if (node.empty() || node.find("NOTFOUND") != std::string::npos || !fs::exists(node)) {
        why = "node is not installed";
        return false;
    }
    const fs::path module = fs::path(ESVIEW_GLTF_VALIDATOR_MODULES) / "gltf-validator" / "package.json";
    if (!fs::exists(module)) {
        why = "gltf-validator is not installed at " + module.parent_path().string() +
              " (npm install --prefix \"$ESVIEW_TOOL_CACHE/npm\" gltf-validator)";
        return false;
    }
    return true;
}

// One validator report per file, by file name.
std::map<std::string, nlohmann::json> validate(const std::vector<std::string>& files) {
    std::string command = quote(ESVIEW_NODE) + " " + quote(ESVIEW_GLTF_VALIDATE_SCRIPT) + " " +
                          quote(ESVIEW_GLTF_VALIDATOR_MODULES);
    for (const std::string& f : files) command += " " + quote(f);
    std::string output;
    EXPECT_EQ(run(command, output), 0) << output;
    std::map<std::string, nlohmann::json> reports;
    size_t start = 0;
    while (start < output.size()) {
        size_t end = output.find('\n', start);
        if (end == std::string::npos) end = output.size();
        const std::string line = output.substr(start, end - start);
        start = end + 1;
        if (line.empty()) continue;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded()) {
            ADD_FAILURE() << "validator printed: " << line;
            continue;
        }
        reports[j["file"].get<std::string>()] = j;
    }
    return reports;
}

void expectValid(const nlohmann::json& report, const std::string& what) {
    EXPECT_EQ(report["errors"].get<int>(), 0) << what << ": " << report.dump();
    for (const auto& [code, issue] : report["issues"].items()) {
        if (issue["severity"].get<int>() == 0) continue;  // counted as errors above
        EXPECT_TRUE(kAllowedWarnings.count(code))
            << what << ": validator warning not listed with a reason: " << code << ": " << issue["message"];
    }
}

// What assimp should find in the output's default scene, from the scene esview loaded.
struct Counts {
    size_t nodes = 0;
    size_t meshReferences = 0;  // primitives drawn by the nodes (assimp makes one aiMesh per primitive)
    size_t triangles = 0;
    size_t joints = 0;  // over skinned primitives: the joints of their skin
    size_t animations = 0;
};

bool drawnPrimitive(const Submesh& sub) {
    switch (sub.primitive) {
        case Primitive::Triangles:
        case Primitive::TriangleStrip:
        case Primitive::TriangleFan:
        case Primitive::Quads:
            return triangleCount(sub) > 0;
        case Primitive::Lines:
        case Primitive::LineStrip:
            return sub.indexCount >= 2;
        case Primitive::Points:
            return sub.indexCount > 0;
        default:
            return false;
    }
}

Counts expectedCounts(const Scene& scene) {
    Counts c;
    const size_t n = scene.nodes.size();
    std::vector<uint8_t> included(n, 1);
    size_t roots = 0;
    for (const Node& node : scene.nodes) roots += node.parent < 0;
    size_t extra = gltfHelperNodeCount(scene);
    if (scene.pof) {
        const size_t points = pofPointNodeCount(*scene.pof);
        EXPECT_EQ(extra, points) << "a POF model needs no helper node besides its points";
        ++roots;
        // Detail levels are separate scenes; assimp reads the default one, LOD0.
        if (!scene.pof->detailLevels.empty()) {
            int lod0 = -1;
            for (size_t s = 0; s < scene.pof->subobjects.size() && s < n; ++s)
                if (scene.pof->subobjects[s].number == scene.pof->detailLevels[0]) lod0 = int(s);
            if (lod0 >= 0) {
                while (scene.nodes[lod0].parent >= 0) lod0 = scene.nodes[lod0].parent;
                for (size_t i = 0; i < n; ++i) {
                    int a = int(i);
                    while (a >= 0 && a != lod0) a = scene.nodes[a].parent;
                    included[i] = a == lod0;
                }
                roots = 2;
            }
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (!included[i]) continue;
        ++c.nodes;
        const Node& node = scene.nodes[i];
        if (node.kind != NodeKind::Mesh || node.object < 0) continue;
        const Mesh& mesh = scene.meshes[node.object];
        size_t primitives = 0;
        for (const Submesh& sub : mesh.submeshes) primitives += drawnPrimitive(sub);
        c.meshReferences += primitives;
        c.triangles += triangleCount(mesh);
        if (node.skin >= 0) c.joints += primitives * scene.skins[node.skin].joints.size();
    }
    c.nodes += extra + (roots == 1 ? 0 : 1);  // assimp adds a root above several
    for (const Clip& clip : scene.animation.clips) {
        bool animates = false;
        for (const Track& t : clip.tracks) {
            if (t.node < 0) continue;
            const Node& node = scene.nodes[t.node];
            switch (t.channel) {
                case Channel::Translation:
                case Channel::Rotation:
                case Channel::Scale:
                case Channel::Matrix:
                case Channel::Element:
                    animates = true;
                    break;
                case Channel::MorphWeights:
                case Channel::MorphWeight:
                    animates = animates || (node.kind == NodeKind::Mesh && node.object >= 0 &&
                                            !scene.meshes[node.object].morphTargets.empty());
                    break;
                default:
                    break;
            }
        }
        c.animations += animates;
    }
    return c;
}

void countNode(const aiScene* s, const aiNode* node, Counts& c) {
    ++c.nodes;
    for (unsigned m = 0; m < node->mNumMeshes; ++m) {
        const aiMesh* mesh = s->mMeshes[node->mMeshes[m]];
        ++c.meshReferences;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) c.triangles += mesh->mFaces[f].mNumIndices == 3;
        c.joints += mesh->mNumBones;
    }
    for (unsigned k = 0; k < node->mNumChildren; ++k) countNode(s, node->mChildren[k], c);
}

void expectAssimpCounts(const std::string& output, const Counts& expected, const std::string& what) {
    Assimp::Importer importer;
    const aiScene* read = importer.ReadFile(output, 0);
    ASSERT_TRUE(read && read->mRootNode)
        << what << ": assimp cannot read " << output << ": " << importer.GetErrorString();
    Counts got;
    countNode(read, read->mRootNode, got);
    got.animations = read->mNumAnimations;
    std::printf("%s: %zu nodes, %zu primitives drawn, %zu triangles, %zu joints, %zu animations\n",
                fs::path(output).filename().string().c_str(), got.nodes, got.meshReferences, got.triangles,
                got.joints, got.animations);
    EXPECT_EQ(got.nodes, expected.nodes) << what << ": nodes";
    EXPECT_EQ(got.meshReferences, expected.meshReferences) << what << ": primitives drawn";
    EXPECT_EQ(got.triangles, expected.triangles) << what << ": triangles";
    EXPECT_EQ(got.joints, expected.joints) << what << ": joints";
    EXPECT_EQ(got.animations, expected.animations) << what << ": animations";
}

// glTF is Y up: esview turns a Z-up scene on the way, (x, y, z) to (x, z, -y). The test's own copy
// of that turn, applied to what esview computes for the source.
glm::mat4 upTurn(const Scene& scene) {
    if (scene.up != UpAxis::Z) return glm::mat4(1.0f);
    glm::mat4 m(0.0f);
    m[0] = glm::vec4(1, 0, 0, 0);   // x stays x
    m[1] = glm::vec4(0, 0, -1, 0);  // y becomes -z
    m[2] = glm::vec4(0, 1, 0, 0);   // z becomes y
    m[3] = glm::vec4(0, 0, 0, 1);
    return m;
}

Bounds turnedBox(const Scene& scene, const Bounds& box) {
    if (scene.up != UpAxis::Z || !box.valid()) return box;
    Bounds out = box;
    out.min = glm::vec3(box.min.x, box.min.z, -box.max.y);
    out.max = glm::vec3(box.max.x, box.max.z, -box.min.y);
    return out;
}

void expectSameBox(const Bounds& got, const Bounds& expected, const std::string& what) {
    ASSERT_EQ(got.valid(), expected.valid()) << what;
    if (!expected.valid()) return;
    const float size = std::max(1e-3f, glm::length(expected.max - expected.min));
    for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(got.min[a], expected.min[a], 1e-4f * size) << what << ": min axis " << a;
        EXPECT_NEAR(got.max[a], expected.max[a], 1e-4f * size) << what << ": max axis " << a;
    }
}

// The output's box equals the one esview computes on the CPU (info's bounds) at rest, and for each
// clip in the middle of it (at a multiple of 1/30 s, where resampled curves hold their samples).
// Scenes whose pose the test's reader cannot show are skipped by the caller (restBoundsComparable:
// more than four influences);
// clips with visibility tracks too (glTF core cannot hide a node).
void expectSameBounds(const std::string& output, const Scene& scene, const std::string& what) {
    Glb glb;
    ASSERT_TRUE(readGlb(output, glb)) << output;
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    expectSameBox(glbBounds(glb), turnedBox(scene, sceneBounds(scene, pose)), what + " at rest");
    const auto animations = glb.doc.value("animations", nlohmann::json::array());
    for (size_t c = 0; c < scene.animation.clips.size(); ++c) {
        const Clip& clip = scene.animation.clips[c];
        bool visibility = false;
        for (const Track& t : clip.tracks) visibility = visibility || t.channel == Channel::Visibility;
        int index = -1, named = 0;
        for (size_t a = 0; a < animations.size(); ++a)
            if (animations[a].value("name", "") == clip.name) {
                index = int(a);
                ++named;
            }
        if (visibility || named != 1) continue;
        const float t = std::round(0.5f * clip.duration() * 30.0f) / 30.0f;
        evaluatePose(scene, int(c), clip.start + t, pose);
        expectSameBox(glbBounds(glb, index, t), turnedBox(scene, sceneBounds(scene, pose)),
                      what + " in clip " + clip.name);
    }
}

// Each camera and light of the output sits and looks as esview's does (renderer/camera.cpp: the object
// transform, or for a camera with a target its look at the target, up along the node's Y), at rest
// and in the middle of each clip.
void expectSameCamerasAndLights(const std::string& output, const Scene& scene, const std::string& what) {
    Glb glb;
    ASSERT_TRUE(readGlb(output, glb)) << output;
    const auto animations = glb.doc.value("animations", nlohmann::json::array());
    std::vector<std::pair<int, float>> times = {{-1, 0.0f}};
    for (size_t c = 0; c < scene.animation.clips.size(); ++c)
        for (size_t a = 0; a < animations.size(); ++a)
            if (animations[a].value("name", "") == scene.animation.clips[c].name)
                times.push_back(
                    {int(c), std::round(0.5f * scene.animation.clips[c].duration() * 30.0f) / 30.0f});
    for (const auto& [clip, t] : times) {
        Pose pose;
        evaluatePose(scene, clip, clip < 0 ? 0.0f : scene.animation.clips[clip].start + t, pose);
        int animation = -1;
        if (clip >= 0)
            for (size_t a = 0; a < animations.size(); ++a)
                if (animations[a].value("name", "") == scene.animation.clips[clip].name) animation = int(a);
        std::vector<test::NodeState> states;
        const std::vector<glm::mat4> world = test::glbWorld(glb, animation, t, states);
        const auto nodes = glb.doc.value("nodes", nlohmann::json::array());
        for (size_t n = 0; n < scene.nodes.size(); ++n) {
            // Lights shine down -Z of their object's frame in both (renderer/light_rig.cpp).
            if (scene.nodes[n].kind == NodeKind::Light && scene.nodes[n].object >= 0) {
                const Light& light = scene.lights[scene.nodes[n].object];
                if (light.type == LightType::Ambient || !light.enabled) continue;
                int holder = -1;
                auto shines = [&](int k) { return nodes[k].contains("extensions"); };
                if (shines(int(n))) holder = int(n);
                for (int child : nodes[n].value("children", std::vector<int>()))
                    if (shines(child)) holder = child;
                ASSERT_GE(holder, 0) << what << ": light node " << n;
                const glm::mat4 expected = upTurn(scene) * pose.objectWorld[n];
                const glm::vec3 dir = glm::normalize(glm::vec3(world[holder][2]));
                const glm::vec3 want = glm::normalize(glm::vec3(expected[2]));
                float size = 1.0f;
                for (int a = 0; a < 3; ++a) size = std::max(size, std::fabs(expected[3][a]));
                for (int a = 0; a < 3; ++a) {
                    EXPECT_NEAR(dir[a], want[a], 1e-4f)
                        << what << ": light '" << scene.nodes[n].name << "' direction";
                    EXPECT_NEAR(world[holder][3][a], expected[3][a], 1e-4f * size)
                        << what << ": light '" << scene.nodes[n].name << "' position";
                }
                continue;
            }
            if (scene.nodes[n].kind != NodeKind::Camera || scene.nodes[n].object < 0) continue;
            const Camera& cam = scene.cameras[scene.nodes[n].object];
            glm::mat4 expected = pose.objectWorld[n];
            if (cam.targetNode >= 0) {
                const glm::vec3 eye(expected[3]), target(pose.world[cam.targetNode][3]);
                expected = glm::inverse(glm::lookAt(eye, target, glm::normalize(glm::vec3(expected[1]))));
            }
            expected = upTurn(scene) * expected;
            // The glTF node holding this camera: the node itself or its child.
            int holder = -1;
            if (nodes[n].contains("camera")) holder = int(n);
            for (int child : nodes[n].value("children", std::vector<int>()))
                if (nodes[child].contains("camera")) holder = child;
            ASSERT_GE(holder, 0) << what << ": camera node " << n;
            float size = 1.0f;
            for (int a = 0; a < 3; ++a) size = std::max(size, std::fabs(expected[3][a]));
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 3; ++r)
                    EXPECT_NEAR(world[holder][c][r], expected[c][r], c == 3 ? 1e-4f * size : 1e-4f)
                        << what << ": camera '" << scene.nodes[n].name << "' at clip " << clip << " column "
                        << c;
        }
    }
}

// POF: one scene per detail level (LOD0 the default), each with the group of game points, whose
// nodes carry what they are in extras.
void expectPofLayout(const std::string& output, const PofExtras& pof) {
    Glb glb;
    ASSERT_TRUE(readGlb(output, glb));
    const auto& scenes = glb.doc["scenes"];
    EXPECT_GE(scenes.size(), std::max<size_t>(1, pof.detailLevels.size())) << output;
    EXPECT_EQ(glb.doc.value("scene", 0), 0);
    size_t guns = 0, points = 0;
    for (const auto& node : glb.doc["nodes"]) {
        if (!node.contains("extras") || !node["extras"].contains("pof")) continue;
        ++points;
        guns += node["extras"]["pof"] == "gun";
    }
    EXPECT_EQ(points, pofPointNodeCount(pof)) << output;
    size_t expectedGuns = 0;
    for (const auto& slot : pof.gunSlots) expectedGuns += slot.size();
    EXPECT_EQ(guns, expectedGuns) << output;
    for (size_t level = 0; level < pof.detailLevels.size() && level < scenes.size(); ++level)
        EXPECT_EQ(scenes[level].value("name", ""), "detail " + std::to_string(level)) << output;
}

bool restBoundsComparable(const Scene& scene) {
    for (const Mesh& mesh : scene.meshes) {
        if (findAttribute(mesh, Semantic::BoneIndices, 1, nullptr)) return false;
    }
    return true;
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = test::outputDir() / name;
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir);
    return dir;
}

TEST(ConvertGltf, EverySampleConvertsToGlbThatValidatesAndReadsBack) {
    ESVIEW_REQUIRE_MODELS("");
    std::string why;
    if (!validatorAvailable(why)) ESVIEW_SKIP_UNLESS_REQUIRED() << "glTF-Validator: " << why;
    const std::vector<std::string> samples = samplePaths();
    ASSERT_GE(samples.size(), 4u);
    std::set<std::string> formats;
    const fs::path dir = freshDir("convert_gltf_glb");
    std::vector<std::string> outputs;
    std::vector<Counts> expected;
    std::vector<std::unique_ptr<Scene>> scenes;
    for (size_t i = 0; i < samples.size(); ++i) {
        const std::string out = (dir / outputName(samples[i], i, ".glb")).string();
        std::string log;
        const int rc = run(quote(ESVIEW_BINARY) + " convert " + quote(samples[i]) + " " + quote(out), log);
        EXPECT_EQ(rc, 0) << samples[i] << ":\n" << log;
        if (rc != 0) continue;
        LoadResult loaded = loadSceneFile(samples[i]);
        ASSERT_TRUE(loaded.scene) << samples[i];
        formats.insert(loaded.scene->format);
        outputs.push_back(out);
        expected.push_back(expectedCounts(*loaded.scene));
        scenes.push_back(std::move(loaded.scene));
    }
    EXPECT_GE(formats.size(), 4u) << "every format has shared samples";
    const auto reports = validate(outputs);
    for (size_t i = 0; i < outputs.size(); ++i) {
        auto found = reports.find(outputs[i]);
        ASSERT_NE(found, reports.end()) << "no validator report for " << outputs[i];
        expectValid(found->second, outputs[i]);
        expectAssimpCounts(outputs[i], expected[i], outputs[i]);
        if (restBoundsComparable(*scenes[i])) expectSameBounds(outputs[i], *scenes[i], outputs[i]);
        expectSameCamerasAndLights(outputs[i], *scenes[i], outputs[i]);
        if (scenes[i]->pof) expectPofLayout(outputs[i], *scenes[i]->pof);
    }
}

// A .gltf keeps its buffer and images in files beside it, named by relative URIs.
TEST(ConvertGltf, SeparateFilesBesideTheGltf) {
    ESVIEW_REQUIRE_MODELS("");
    std::string why;
    if (!validatorAvailable(why)) ESVIEW_SKIP_UNLESS_REQUIRED() << "glTF-Validator: " << why;
    // One textured sample per format, and the demo scene (skin, morphs, animation).
    std::map<std::string, std::string> picked;
    for (const std::string& path : samplePaths()) {
        LoadResult loaded = loadSceneFile(path);
        if (!loaded.scene || picked.count(loaded.scene->format) || loaded.scene->textures.empty()) continue;
        picked[loaded.scene->format] = path;
    }
    picked["demo"] = "demo";
    const fs::path dir = freshDir("convert_gltf_separate");
    std::vector<std::string> outputs;
    size_t images = 0;
    for (const auto& [format, path] : picked) {
        const fs::path sub = dir / format;
        fs::create_directories(sub);
        const std::string out = (sub / "model.gltf").string();
        std::string log;
        ASSERT_EQ(run(quote(ESVIEW_BINARY) + " convert " + quote(path) + " " + quote(out), log), 0)
            << path << log;
        std::ifstream in(out);
        const nlohmann::json doc = nlohmann::json::parse(in);
        ASSERT_TRUE(doc.contains("buffers")) << out;
        EXPECT_EQ(doc["buffers"][0]["uri"], "model.bin");
        EXPECT_TRUE(fs::exists(sub / "model.bin"));
        for (const auto& image : doc.value("images", nlohmann::json::array())) {
            ASSERT_TRUE(image.contains("uri")) << out;
            const std::string uri = image["uri"];
            EXPECT_EQ(uri.find('/'), std::string::npos) << uri;
            EXPECT_TRUE(fs::exists(sub / uri)) << uri;
            ++images;
        }
        outputs.push_back(out);
        std::unique_ptr<Scene> scene;
        if (path == "demo") {
            scene = std::make_unique<Scene>(makeDemoScene());
        } else {
            scene = loadSceneFile(path).scene;
            ASSERT_TRUE(scene) << path;
        }
        expectAssimpCounts(out, expectedCounts(*scene), out);
        if (restBoundsComparable(*scene)) expectSameBounds(out, *scene, out);
    }
    EXPECT_GT(images, 0u) << "the samples picked have textures";
    const auto reports = validate(outputs);
    for (const std::string& out : outputs) {
        auto found = reports.find(out);
        ASSERT_NE(found, reports.end()) << out;
        expectValid(found->second, out);
    }
}

// Quantised POD (written by `esview convert X.pod --quantize ...`) keeps its types through
// KHR_mesh_quantization: int16 positions with the unpack matrix in a child node or, skinned, in the
// inverse bind matrices; the output still draws the POD's rest pose.
TEST(ConvertGltf, QuantizedPodKeepsItsTypes) {
    ESVIEW_REQUIRE_MODELS("pod");
    std::string why;
    if (!validatorAvailable(why)) ESVIEW_SKIP_UNLESS_REQUIRED() << "glTF-Validator: " << why;
    std::string skinned, rigid;
    for (const std::string& path : samplePaths()) {
        if (fs::path(path).extension() != ".pod") continue;
        LoadResult loaded = loadSceneFile(path);
        if (!loaded.scene || loaded.scene->meshes.empty()) continue;
        std::string& slot = loaded.scene->skins.empty() ? rigid : skinned;
        if (slot.empty()) slot = path;
    }
    ASSERT_FALSE(skinned.empty());
    ASSERT_FALSE(rigid.empty());
    const fs::path dir = freshDir("convert_gltf_quantized");
    std::vector<std::string> outputs;
    for (const std::string& source : {skinned, rigid}) {
        const std::string stem = fs::path(source).stem().string();
        const std::string pod = (dir / (stem + ".pod")).string();
        const std::string glb = (dir / (stem + ".glb")).string();
        std::string log;
        ASSERT_EQ(run(quote(ESVIEW_BINARY) + " convert " + quote(source) + " " + quote(pod) +
                          " --quantize positions=int16,normals=byte,weights=ubyte",
                      log),
                  0)
            << log;
        ASSERT_EQ(run(quote(ESVIEW_BINARY) + " convert " + quote(pod) + " " + quote(glb), log), 0) << log;
        LoadResult loaded = loadSceneFile(pod);
        ASSERT_TRUE(loaded.scene) << pod;
        Glb read;
        ASSERT_TRUE(readGlb(glb, read));
        const auto required = read.doc.value("extensionsRequired", std::vector<std::string>());
        EXPECT_NE(std::find(required.begin(), required.end(), "KHR_mesh_quantization"), required.end())
            << glb;
        for (const auto& mesh : read.doc["meshes"])
            for (const auto& prim : mesh["primitives"]) {
                const auto& position = read.doc["accessors"][prim["attributes"]["POSITION"].get<int>()];
                EXPECT_EQ(position["componentType"], 5122) << glb << ": positions stay int16";
                EXPECT_TRUE(position.value("normalized", false)) << glb;
            }
        expectAssimpCounts(glb, expectedCounts(*loaded.scene), glb);
        expectSameBounds(glb, *loaded.scene, glb);
        outputs.push_back(glb);
    }
    const auto reports = validate(outputs);
    for (const std::string& out : outputs) {
        auto found = reports.find(out);
        ASSERT_NE(found, reports.end()) << out;
        expectValid(found->second, out);
    }
}

// A Z-up OpenGEX scene comes out Y up: assimp (which reads glTF as it is, Y up) finds the source's
// box turned, (x, y, z) to (x, z, -y), and the command says so.
TEST(ConvertGltf, ZUpSceneComesOutYUp) {
    ESVIEW_REQUIRE_MODELS("ogex");
    const fs::path dir = freshDir("convert_gltf_zup");
    size_t checked = 0, distinct = 0;
    for (const std::string& path : samplePaths()) {
        if (fs::path(path).extension() != ".ogex") continue;
        LoadResult loaded = loadSceneFile(path);
        if (!loaded.scene || loaded.scene->up != UpAxis::Z || !loaded.scene->skins.empty()) continue;
        const Scene& scene = *loaded.scene;
        Pose pose;
        evaluatePose(scene, -1, 0.0f, pose);
        const Bounds source = sceneBounds(scene, pose);
        if (!source.valid()) continue;
        const std::string out = (dir / (fs::path(path).stem().string() + ".glb")).string();
        std::string log;
        ASSERT_EQ(run(quote(ESVIEW_BINARY) + " convert " + quote(path) + " " + quote(out), log), 0) << log;
        EXPECT_NE(log.find("Z-up scene turned to glTF's Y up"), std::string::npos) << log;
        Assimp::Importer importer;
        const aiScene* read = importer.ReadFile(out, aiProcess_PreTransformVertices);
        ASSERT_TRUE(read) << out << ": " << importer.GetErrorString();
        glm::vec3 lo(1e30f), hi(-1e30f);
        for (unsigned m = 0; m < read->mNumMeshes; ++m)
            for (unsigned v = 0; v < read->mMeshes[m]->mNumVertices; ++v) {
                const aiVector3D& p = read->mMeshes[m]->mVertices[v];
                lo = glm::min(lo, glm::vec3(p.x, p.y, p.z));
                hi = glm::max(hi, glm::vec3(p.x, p.y, p.z));
            }
        // The expected box, turned by hand: x stays, y is the source's z, z the source's -y.
        const glm::vec3 wantLo(source.min.x, source.min.z, -source.max.y);
        const glm::vec3 wantHi(source.max.x, source.max.z, -source.min.y);
        const float size = std::max(1e-3f, glm::length(source.max - source.min));
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(lo[a], wantLo[a], 1e-4f * size) << out << ": min axis " << a;
            EXPECT_NEAR(hi[a], wantHi[a], 1e-4f * size) << out << ": max axis " << a;
        }
        // A box the turn leaves alone would prove nothing: count the samples where it moves.
        if (glm::length(wantLo - source.min) + glm::length(wantHi - source.max) > 1e-2f * size) ++distinct;
        ++checked;
    }
    EXPECT_GE(checked, 3u) << "Z-up OpenGEX samples with meshes";
    EXPECT_GE(distinct, 1u) << "a sample whose box the turn changes";
}

// A camera that looks at a moving target (not turned towards it by its own transform) is written
// turned towards it, and turns with it.
TEST(ConvertGltf, CameraLooksAtItsTarget) {
    Scene scene;
    scene.format = "fixture";
    Node camera;
    camera.name = "camera";
    camera.kind = NodeKind::Camera;
    camera.object = 0;
    camera.local.translation = glm::vec3(0, 1, 5);
    Node target;
    target.name = "target";
    target.local.translation = glm::vec3(3, 0, 0);
    scene.nodes = {camera, target};
    Camera cam;
    cam.name = "camera";
    cam.targetNode = 1;
    scene.cameras.push_back(cam);
    Clip clip;
    clip.name = "move";
    clip.end = 2.0f;
    Track move;
    move.node = 1;
    move.channel = Channel::Translation;
    move.times = {0.0f, 2.0f};
    move.values = {3, 0, 0, -4, 2, 1};
    clip.tracks.push_back(move);
    scene.animation.clips.push_back(clip);
    const fs::path dir = freshDir("convert_gltf_camera");
    const std::string out = (dir / "camera.glb").string();
    GltfWriteOptions options;
    options.binary = true;
    GltfWriteReport report;
    std::string error;
    ASSERT_TRUE(writeGltf(scene, out, options, report, error)) << error;
    expectSameCamerasAndLights(out, scene, "fixture");
}

// A refusal is one line on stderr naming the input, exit status 1, and nothing written.
TEST(ConvertGltf, RefusalWritesNothing) {
    const fs::path dir = freshDir("convert_gltf_refusal");
    const std::string bad = (dir / "broken.pod").string();
    {
        std::ofstream out(bad, std::ios::binary);
        out << "not a model at all";
    }
    std::string log;
    EXPECT_EQ(
        run(quote(ESVIEW_BINARY) + " convert " + quote(bad) + " " + quote((dir / "a.glb").string()), log), 1)
        << log;
    EXPECT_FALSE(fs::exists(dir / "a.glb"));
    const std::string missingDir = (dir / "no" / "such" / "folder" / "b.gltf").string();
    EXPECT_EQ(run(quote(ESVIEW_BINARY) + " convert demo " + quote(missingDir) + " 2>&1 >/dev/null", log), 1)
        << log;
    EXPECT_EQ(log.rfind("demo: ", 0), 0u) << log;
    EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
    EXPECT_FALSE(fs::exists(dir / "no"));
}

}  // namespace
}  // namespace esv
