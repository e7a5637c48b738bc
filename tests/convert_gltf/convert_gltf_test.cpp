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
#include <assimp/scene.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/test_paths.h"
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

// ---- A small glTF reader for the rest pose: the world-space box of what the default scene draws
// (nodes' transforms, morph weights at rest, skins), from the .glb's own JSON and binary chunk.

struct Glb {
    nlohmann::json doc;
    std::vector<uint8_t> bin;
};

bool readGlb(const std::string& path, Glb& out) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto u32 = [&](size_t at) {
        uint32_t v = 0;
        std::memcpy(&v, &bytes[at], 4);
        return v;
    };
    if (bytes.size() < 20 || u32(0) != 0x46546C67) return false;
    const uint32_t jsonLength = u32(12);
    out.doc = nlohmann::json::parse(bytes.begin() + 20, bytes.begin() + 20 + jsonLength);
    const size_t binAt = 20 + jsonLength;
    if (bytes.size() >= binAt + 8) {
        const uint32_t binLength = u32(binAt);
        out.bin.assign(bytes.begin() + long(binAt + 8), bytes.begin() + long(binAt + 8 + binLength));
    }
    return true;
}

// Accessor `index` as floats, normalised integers mapped as glTF says (3.11).
std::vector<float> readAccessor(const Glb& glb, int index, int* components = nullptr) {
    const nlohmann::json& a = glb.doc["accessors"][index];
    const nlohmann::json& view = glb.doc["bufferViews"][a["bufferView"].get<int>()];
    const std::string type = a["type"];
    const int comps = type == "SCALAR" ? 1
                      : type == "VEC2" ? 2
                      : type == "VEC3" ? 3
                      : type == "VEC4" ? 4
                                       : 16;
    if (components) *components = comps;
    const int ct = a["componentType"];
    const size_t size = ct == 5126 || ct == 5125 ? 4 : ct == 5122 || ct == 5123 ? 2 : 1;
    const size_t stride = view.value("byteStride", size_t(comps) * size);
    const size_t base = view.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0));
    const bool normalized = a.value("normalized", false);
    const size_t count = a["count"];
    std::vector<float> out(count * comps);
    for (size_t e = 0; e < count; ++e)
        for (int c = 0; c < comps; ++c) {
            const uint8_t* p = &glb.bin[base + e * stride + c * size];
            float v = 0.0f;
            switch (ct) {
                case 5126:
                    std::memcpy(&v, p, 4);
                    break;
                case 5120:
                    v = normalized ? std::max(int8_t(*p) / 127.0f, -1.0f) : float(int8_t(*p));
                    break;
                case 5121:
                    v = normalized ? *p / 255.0f : float(*p);
                    break;
                case 5122: {
                    int16_t i;
                    std::memcpy(&i, p, 2);
                    v = normalized ? std::max(i / 32767.0f, -1.0f) : float(i);
                    break;
                }
                case 5123: {
                    uint16_t i;
                    std::memcpy(&i, p, 2);
                    v = normalized ? i / 65535.0f : float(i);
                    break;
                }
                default: {
                    uint32_t i;
                    std::memcpy(&i, p, 4);
                    v = float(i);
                    break;
                }
            }
            out[e * comps + c] = v;
        }
    return out;
}

struct NodeState {
    Transform local;
    std::vector<float> weights;
};

NodeState restState(const nlohmann::json& node, const nlohmann::json& doc) {
    NodeState state;
    if (node.contains("matrix")) {
        state.local.useMatrix = true;
        for (int i = 0; i < 16; ++i) state.local.matrix[i / 4][i % 4] = node["matrix"][i];
    }
    if (node.contains("translation"))
        state.local.translation = {node["translation"][0], node["translation"][1], node["translation"][2]};
    if (node.contains("rotation"))
        state.local.rotation =
            glm::quat(node["rotation"][3], node["rotation"][0], node["rotation"][1], node["rotation"][2]);
    if (node.contains("scale")) state.local.scale = {node["scale"][0], node["scale"][1], node["scale"][2]};
    if (node.contains("mesh"))
        state.weights = node.value(
            "weights", doc["meshes"][node["mesh"].get<int>()].value("weights", std::vector<float>()));
    return state;
}

glm::quat slerpShorter(glm::quat a, glm::quat b, float u) {
    float d = glm::dot(a, b);
    if (d < 0.0f) {
        b = -b;
        d = -d;
    }
    if (d > 0.9995f) return glm::normalize(a * (1.0f - u) + b * u);
    const float theta = std::acos(std::min(d, 1.0f));
    return (a * std::sin((1.0f - u) * theta) + b * std::sin(u * theta)) / std::sin(theta);
}

// Applies animation `index` at `seconds` to `states` (glTF 2.0 specification, 3.11 and appendix C).
void applyAnimation(const Glb& glb, int index, float seconds, std::vector<NodeState>& states) {
    const nlohmann::json& animation = glb.doc["animations"][index];
    for (const nlohmann::json& channel : animation["channels"]) {
        const nlohmann::json& sampler = animation["samplers"][channel["sampler"].get<int>()];
        const std::vector<float> input = readAccessor(glb, sampler["input"]);
        const std::vector<float> output = readAccessor(glb, sampler["output"]);
        const std::string interpolation = sampler.value("interpolation", "LINEAR");
        const std::string path = channel["target"]["path"];
        const int node = channel["target"]["node"];
        const bool cubic = interpolation == "CUBICSPLINE";
        const size_t n = input.size();
        const size_t comps = output.size() / n / (cubic ? 3 : 1);
        std::vector<float> value(comps);
        if (cubic) {
            gltf::evaluateCubicSpline(input, output, uint32_t(comps), seconds, value.data());
        } else {
            size_t k = 0;
            float u = 0.0f;
            if (seconds >= input[n - 1]) {
                k = n - 1;
            } else if (seconds > input[0]) {
                k = size_t(std::upper_bound(input.begin(), input.end(), seconds) - input.begin()) - 1;
                u = (seconds - input[k]) / (input[k + 1] - input[k]);
            }
            const float* a = &output[k * comps];
            const float* b = k + 1 < n ? &output[(k + 1) * comps] : a;
            if (interpolation == "STEP") u = 0.0f;
            if (path == "rotation") {
                const glm::quat q =
                    slerpShorter(glm::quat(a[3], a[0], a[1], a[2]), glm::quat(b[3], b[0], b[1], b[2]), u);
                value = {q.x, q.y, q.z, q.w};
            } else {
                for (size_t c = 0; c < comps; ++c) value[c] = a[c] + (b[c] - a[c]) * u;
            }
        }
        NodeState& state = states[node];
        if (path == "translation") state.local.translation = {value[0], value[1], value[2]};
        if (path == "rotation")
            state.local.rotation = glm::normalize(glm::quat(value[3], value[0], value[1], value[2]));
        if (path == "scale") state.local.scale = {value[0], value[1], value[2]};
        if (path == "weights") state.weights = value;
    }
}

// The world-space box of what the default scene draws with animation `animation` (-1: none) at
// `seconds`: nodes' transforms, morph weights, skins.
Bounds glbBounds(const Glb& glb, int animation = -1, float seconds = 0.0f) {
    const nlohmann::json& doc = glb.doc;
    const nlohmann::json nodes = doc.value("nodes", nlohmann::json::array());
    std::vector<NodeState> states;
    for (const nlohmann::json& node : nodes) states.push_back(restState(node, doc));
    if (animation >= 0) applyAnimation(glb, animation, seconds, states);
    std::vector<glm::mat4> world(nodes.size(), glm::mat4(1.0f));
    std::vector<int> order;
    std::function<void(int, const glm::mat4&)> walk = [&](int n, const glm::mat4& parent) {
        world[n] = parent * states[n].local.toMatrix();
        order.push_back(n);
        for (int c : nodes[n].value("children", std::vector<int>())) walk(c, world[n]);
    };
    const int sceneIndex = doc.value("scene", 0);
    for (int r : doc["scenes"][sceneIndex].value("nodes", std::vector<int>())) walk(r, glm::mat4(1.0f));
    Bounds bounds;
    for (int n : order) {
        const nlohmann::json& node = nodes[n];
        if (!node.contains("mesh")) continue;
        const nlohmann::json& mesh = doc["meshes"][node["mesh"].get<int>()];
        const std::vector<float>& weights = states[n].weights;
        std::vector<glm::mat4> palette;
        if (node.contains("skin")) {
            const nlohmann::json& skin = doc["skins"][node["skin"].get<int>()];
            const std::vector<float> ibm = readAccessor(glb, skin["inverseBindMatrices"]);
            const std::vector<int> joints = skin["joints"];
            for (size_t j = 0; j < joints.size(); ++j) {
                glm::mat4 m;
                std::memcpy(&m[0][0], &ibm[j * 16], 64);
                palette.push_back(world[joints[j]] * m);
            }
        }
        for (const nlohmann::json& prim : mesh["primitives"]) {
            std::vector<float> pos = readAccessor(glb, prim["attributes"]["POSITION"]);
            const auto targets = prim.value("targets", nlohmann::json::array());
            for (size_t t = 0; t < targets.size() && t < weights.size(); ++t) {
                if (weights[t] == 0.0f) continue;
                const std::vector<float> d = readAccessor(glb, targets[t]["POSITION"]);
                for (size_t i = 0; i < pos.size(); ++i) pos[i] += weights[t] * d[i];
            }
            std::vector<float> joints, jointWeights;
            if (!palette.empty()) {
                joints = readAccessor(glb, prim["attributes"]["JOINTS_0"]);
                jointWeights = readAccessor(glb, prim["attributes"]["WEIGHTS_0"]);
            }
            for (float index : readAccessor(glb, prim["indices"])) {
                const size_t v = size_t(index);
                const glm::vec4 p(pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2], 1.0f);
                glm::mat4 m = world[n];
                if (!palette.empty()) {
                    m = glm::mat4(0.0f);
                    for (int k = 0; k < 4; ++k)
                        if (jointWeights[v * 4 + k] != 0.0f)
                            m += jointWeights[v * 4 + k] * palette[size_t(joints[v * 4 + k])];
                }
                bounds.add(glm::vec3(m * p));
            }
        }
    }
    return bounds;
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
// Scenes whose pose glTF cannot show the same are skipped by the caller (restBoundsComparable);
// clips with visibility tracks too (glTF core cannot hide a node).
void expectSameBounds(const std::string& output, const Scene& scene, const std::string& what) {
    Glb glb;
    ASSERT_TRUE(readGlb(output, glb)) << output;
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    expectSameBox(glbBounds(glb), sceneBounds(scene, pose), what + " at rest");
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
        expectSameBox(glbBounds(glb, index, t), sceneBounds(scene, pose), what + " in clip " + clip.name);
    }
}

bool restBoundsComparable(const Scene& scene) {
    for (const Mesh& mesh : scene.meshes) {
        if (mesh.morphBaseWeighted) return false;
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
        if (path == "demo") {
            expectAssimpCounts(out, expectedCounts(makeDemoScene()), out);
        } else {
            LoadResult loaded = loadSceneFile(path);
            ASSERT_TRUE(loaded.scene) << path;
            expectAssimpCounts(out, expectedCounts(*loaded.scene), out);
        }
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
