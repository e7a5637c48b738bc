// The skinning debugger follows one bone (issue 36, part 2), in the headless viewer: a picked
// vertex's influences (pick-vertex, pick-vertex-at, ctrl+click) equal the weights and bone indices
// the file stores, decoded here from the vertex stream's bytes, for a POD, an AWD and an OpenGEX
// sample; a picked joint shows the Weights view of it and names its bone batches; every joint's
// name can be drawn at its joint.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/hosts/headless_host.h"
#include "app/viewer/transport.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_script.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"
#include "scene/cpu_reference.h"

namespace {

namespace fs = std::filesystem;
using esv::test::Image;

const fs::path kMan = fs::path("pod") / "cocos3d" / "cocos3d_man.pod";
const fs::path kBear = fs::path("awd") / "PolarBear.awd";
const fs::path kOgex = fs::path("ogex") / "assimp_animation_example.ogex";

// One viewer on the headless host, paused at 0 s once the file is shown.
class Session {
public:
    bool start(const std::string& name, const fs::path& model) {
        m_dir = esv::test::viewerWorkDir("skindbg_", name);
        esv::ViewerOptions options;
        options.file = (esv::test::modelsDir() / model).string();
        return esv::test::startPausedAtZero(m_viewer, m_host, options);
    }
    esv::ViewerState& state() { return m_viewer.state(); }
    void frames(int n) {
        for (int i = 0; i < n; ++i) m_viewer.frame();
    }
    void push(const esv::Event& e) { m_host.push(e); }
    // Runs script lines to their end (a failing command's error in `error`).
    bool script(const std::string& text, std::string* error = nullptr) {
        esv::Script script;
        std::vector<std::string> errors;
        if (!esv::parseScript(text, "test", script, errors)) {
            if (error) *error = errors.empty() ? "parse" : errors[0];
            return false;
        }
        esv::ScriptRunner runner(std::move(script));
        esv::ScriptHost host;
        for (int i = 0; i < 100 && !runner.finished() && !runner.failed(); ++i) {
            runner.runFrame(state(), host);
            m_viewer.frame();
        }
        if (error) *error = runner.error();
        return runner.finished() && !runner.failed();
    }
    Image shot(const std::string& name) {
        frames(2);
        const fs::path path = m_dir / (name + ".png");
        state().requestScreenshot = path.string();
        m_viewer.frame();
        Image image;
        EXPECT_TRUE(esv::test::loadPng(path.string(), image)) << path;
        return image;
    }
    nlohmann::json dump() { return nlohmann::json::parse(esv::viewerStateJson(state())); }
    ~Session() { m_viewer.finish(); }

private:
    fs::path m_dir;
    esv::HeadlessHost m_host;
    esv::ViewerLoop m_viewer;
};

// Component `c` of vertex `v` of `a` in `stream`, decoded from the stored bytes here (not by the
// reference path's readAttribute): floats as they are, normalised integers mapped to 0..1 / -1..1.
bool storedComponent(const esv::VertexStream& stream, const esv::VertexAttribute& a, uint32_t v, int c,
                     double& out) {
    const size_t size = esv::componentSize(a.type);
    const size_t at = size_t(v) * stream.stride + a.offset + size_t(c) * size;
    if (esv::isPacked(a.type) || at + size > stream.bytes.size) return false;
    const uint8_t* p = stream.bytes.data + at;
    auto integer = [&](auto value) {
        std::memcpy(&value, p, sizeof value);
        using T = decltype(value);
        const double max = double(std::numeric_limits<T>::max());
        out = a.normalized ? std::max(double(value) / max, -1.0) : double(value);
        return true;
    };
    switch (a.type) {
        case esv::ComponentType::Float32: {
            float f;
            std::memcpy(&f, p, 4);
            out = f;
            return true;
        }
        case esv::ComponentType::Int8: return integer(int8_t(0));
        case esv::ComponentType::UInt8: return integer(uint8_t(0));
        case esv::ComponentType::Int16: return integer(int16_t(0));
        case esv::ComponentType::UInt16: return integer(uint16_t(0));
        case esv::ComponentType::UInt32: return integer(uint32_t(0));
        default: return false;
    }
}

// The file's influences of one vertex: its stored bone index and weight components (set 0).
struct FileInfluences {
    std::vector<double> indices, weights;
};

bool fileInfluences(const esv::Mesh& mesh, uint32_t v, FileInfluences& out) {
    out = {};
    for (const esv::VertexStream& stream : mesh.streams)
        for (const esv::VertexAttribute& a : stream.attributes) {
            if (a.set != 0 || (a.semantic != esv::Semantic::BoneIndices && a.semantic != esv::Semantic::BoneWeights))
                continue;
            std::vector<double>& to = a.semantic == esv::Semantic::BoneIndices ? out.indices : out.weights;
            if (!to.empty()) continue;  // the first of each, as the file lists them
            for (int c = 0; c < std::min<int>(a.components, 4); ++c) {
                double value = 0.0;
                if (!storedComponent(stream, a, v, c, value)) return false;
                to.push_back(value);
            }
        }
    return !out.indices.empty() && !out.weights.empty();
}

// The first skinned mesh instance node of the scene as loaded; -1 when none.
int firstSkinnedNode(const esv::Scene& scene) {
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].kind == esv::NodeKind::Mesh && scene.nodes[n].skin >= 0 && scene.nodes[n].object >= 0)
            return int(n);
    return -1;
}

// The dump's picked vertex against the file: node and vertex as asked, the stored index and weight
// components equal the bytes' (within float rounding), each index's joint node named as the skin
// (through the vertex's first bone batch for batch-local indices) names it.
void expectFileInfluences(const esv::ViewerState& s, const nlohmann::json& picked, int node, uint32_t vertex) {
    ASSERT_TRUE(picked.is_object()) << "a vertex is picked";
    EXPECT_EQ(picked["node"].get<int>(), node);
    EXPECT_EQ(picked["vertex"].get<uint32_t>(), vertex);
    const esv::Scene& file = *s.loaded;
    const esv::Node& instance = file.nodes[size_t(node)];
    const esv::Mesh& mesh = file.meshes[size_t(instance.object)];
    const esv::Skin& skin = file.skins[size_t(instance.skin)];
    FileInfluences stored;
    ASSERT_TRUE(fileInfluences(mesh, vertex, stored));
    const std::vector<double> indices = picked["indices"].get<std::vector<double>>();
    const std::vector<double> weights = picked["weights"].get<std::vector<double>>();
    ASSERT_EQ(indices.size(), stored.indices.size());
    ASSERT_EQ(weights.size(), stored.weights.size());
    for (size_t k = 0; k < indices.size(); ++k) EXPECT_EQ(indices[k], stored.indices[k]) << "index " << k;
    for (size_t k = 0; k < weights.size(); ++k) EXPECT_NEAR(weights[k], stored.weights[k], 1e-6) << "weight " << k;
    const std::vector<int> batches = picked["batches"].get<std::vector<int>>();
    EXPECT_EQ(batches.empty(), mesh.boneBatches.empty());
    for (size_t k = 0; k < indices.size(); ++k) {
        int joint = int(stored.indices[k]);
        if (mesh.boneIndicesBatchLocal) {
            ASSERT_FALSE(batches.empty());
            const std::vector<int32_t>& palette = mesh.boneBatches[size_t(batches[0])].bones;
            joint = size_t(joint) < palette.size() ? palette[size_t(joint)] : -1;
        }
        const int jointNode = joint >= 0 && size_t(joint) < skin.joints.size() ? skin.joints[size_t(joint)] : -1;
        EXPECT_EQ(picked["joint_nodes"][k].get<int>(), jointNode) << "index " << k;
        if (jointNode >= 0) {
            EXPECT_EQ(picked["joint_names"][k], file.nodes[size_t(jointNode)].name);
        }
    }
}

// A vertex of `node` with the most non-zero stored weights (the first such), decoded from the bytes.
uint32_t mostInfluencedVertex(const esv::Scene& file, int node) {
    const esv::Mesh& mesh = file.meshes[size_t(file.nodes[size_t(node)].object)];
    uint32_t best = 0;
    size_t bestCount = 0;
    FileInfluences stored;
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) {
        if (!fileInfluences(mesh, v, stored)) break;
        const size_t count = size_t(std::count_if(stored.weights.begin(), stored.weights.end(),
                                                  [](double w) { return w != 0.0; }));
        if (count > bestCount) {
            bestCount = count;
            best = v;
        }
    }
    return best;
}

// Window pixel of a vertex of `node` on screen near the middle of the 3D view (CPU-skinned, at the
// pose shown), and that vertex.
bool vertexOnScreen(const esv::ViewerState& s, int node, glm::vec2& pixel, uint32_t& vertex) {
    std::vector<glm::vec3> positions;
    esv::worldVertices(*s.loaded, s.pose, node, positions);
    const esv::ViewportRect v = esv::sceneViewport(s);
    const glm::vec2 middle(float(v.x) + 0.5f * float(v.width), float(v.y) + 0.5f * float(v.height));
    std::vector<std::pair<float, uint32_t>> order;
    for (size_t i = 0; i < positions.size(); ++i) {
        glm::vec2 p;
        if (esv::projectToScreen(s, positions[i], p)) order.push_back({glm::length(p - middle), uint32_t(i)});
    }
    std::sort(order.begin(), order.end());
    for (const auto& [distance, i] : order) {
        if (esv::hiddenBySurface(s, positions[i])) continue;
        vertex = i;
        return esv::projectToScreen(s, positions[i], pixel);
    }
    return false;
}

void pickedVertexMatchesTheFile(const std::string& name, const fs::path& model) {
    if (!fs::exists(esv::test::modelsDir() / model)) GTEST_SKIP() << "no " << model;
    Session session;
    ASSERT_TRUE(session.start(name, model));
    esv::ViewerState& s = session.state();
    ASSERT_TRUE(s.loaded);
    const int node = firstSkinnedNode(*s.loaded);
    ASSERT_GE(node, 0) << "a skinned mesh instance";

    // By number: the vertex with the most influences.
    const uint32_t vertex = mostInfluencedVertex(*s.loaded, node);
    std::string error;
    ASSERT_TRUE(session.script("pick-vertex " + std::to_string(node) + " " + std::to_string(vertex), &error))
        << error;
    expectFileInfluences(s, session.dump()["picked_vertex"], node, vertex);

    // Batch-local indices (POD bone batches): a vertex of the last batch whose first index names
    // another joint there than the same number would in the skin, read through that batch.
    const esv::Mesh& mesh = s.loaded->meshes[size_t(s.loaded->nodes[size_t(node)].object)];
    if (mesh.boneIndicesBatchLocal) {
        std::vector<uint32_t> triangles;
        esv::expandTriangles(mesh, triangles);
        const int last = int(mesh.boneBatches.size()) - 1;
        ASSERT_GT(last, 0) << "more than one batch";
        const esv::BoneBatch& batch = mesh.boneBatches[size_t(last)];
        uint32_t chosen = mesh.vertexCount;
        FileInfluences stored;
        for (size_t t = batch.firstTriangle; t < size_t(batch.firstTriangle) + batch.triangleCount && chosen == mesh.vertexCount; ++t) {
            const uint32_t candidate = triangles.at(t * 3);
            ASSERT_TRUE(fileInfluences(mesh, candidate, stored));
            const size_t local = size_t(stored.indices[0]);
            if (stored.weights[0] != 0.0 && local < batch.bones.size() && batch.bones[local] != int32_t(local))
                chosen = candidate;
        }
        ASSERT_LT(chosen, mesh.vertexCount);
        ASSERT_TRUE(session.script("pick-vertex " + std::to_string(node) + " " + std::to_string(chosen), &error))
            << error;
        const nlohmann::json picked = session.dump()["picked_vertex"];
        ASSERT_FALSE(picked["batches"].empty());
        EXPECT_EQ(picked["batches"][0].get<int>(), last) << "the batch whose triangles draw it";
        expectFileInfluences(s, picked, node, chosen);
    }

    // On screen: a vertex near the middle of the view, picked where it is drawn.
    glm::vec2 pixel;
    uint32_t shown = 0;
    ASSERT_TRUE(vertexOnScreen(s, node, pixel, shown));
    ASSERT_TRUE(session.script("pick-vertex-at " + std::to_string(pixel.x) + " " + std::to_string(pixel.y), &error))
        << error;
    const nlohmann::json picked = session.dump()["picked_vertex"];
    ASSERT_TRUE(picked.is_object());
    // The nearest visible vertex there: the one aimed at, or one drawn within a pixel of it.
    const uint32_t got = picked["vertex"].get<uint32_t>();
    std::vector<glm::vec3> positions;
    esv::worldVertices(*s.loaded, s.pose, picked["node"].get<int>(), positions);
    ASSERT_LT(got, positions.size());
    glm::vec2 at;
    ASSERT_TRUE(esv::projectToScreen(s, positions[got], at));
    EXPECT_LE(glm::length(at - pixel), 1.0f) << "picked vertex " << got << ", aimed at " << shown;
    expectFileInfluences(s, picked, picked["node"].get<int>(), got);

    // `none` clears it.
    ASSERT_TRUE(session.script("pick-vertex none", &error)) << error;
    EXPECT_TRUE(session.dump()["picked_vertex"].is_null());
}

TEST(SkinningDebugger, PickedVertexInfluencesAreThePodFileWeights) {
    pickedVertexMatchesTheFile("pod", kMan);
}

TEST(SkinningDebugger, PickedVertexInfluencesAreTheAwdFileWeights) {
    pickedVertexMatchesTheFile("awd", kBear);
}

TEST(SkinningDebugger, PickedVertexInfluencesAreTheOpenGexFileWeights) {
    pickedVertexMatchesTheFile("ogex", kOgex);
}

// Ctrl+click in the 3D view picks the skinned vertex there (a plain click selects a node instead).
TEST(SkinningDebugger, CtrlClickPicksTheVertexUnderThePointer) {
    if (!fs::exists(esv::test::modelsDir() / kBear)) GTEST_SKIP() << "no " << kBear;
    Session session;
    ASSERT_TRUE(session.start("ctrl_click", kBear));
    esv::ViewerState& s = session.state();
    const int node = firstSkinnedNode(*s.loaded);
    glm::vec2 pixel;
    uint32_t aimed = 0;
    ASSERT_TRUE(vertexOnScreen(s, node, pixel, aimed));
    auto click = [&](unsigned mods) {
        if (mods) session.push(esv::Event::keyEvent(esv::Key::LeftControl, true, mods));
        session.push(esv::Event::mouseMove(pixel.x, pixel.y));
        session.frames(1);
        session.push(esv::Event::mouseButton(esv::MouseButton::Left, true, mods));
        session.frames(1);
        session.push(esv::Event::mouseButton(esv::MouseButton::Left, false, mods));
        session.frames(1);
        if (mods) session.push(esv::Event::keyEvent(esv::Key::LeftControl, false));
        session.frames(2);
    };
    click(0);
    // Apart in time (the host's frames), so that the second click is no double click (which frames
    // the selection).
    session.frames(40);
    EXPECT_TRUE(session.dump()["picked_vertex"].is_null()) << "a plain click picks no vertex";
    EXPECT_EQ(session.dump()["selected_index"].get<int>(), node) << "it selects the mesh node";
    click(esv::kModControl);
    const nlohmann::json picked = session.dump()["picked_vertex"];
    ASSERT_TRUE(picked.is_object()) << "ctrl+click picked a vertex";
    std::vector<glm::vec3> positions;
    esv::worldVertices(*s.loaded, s.pose, picked["node"].get<int>(), positions);
    glm::vec2 at;
    ASSERT_TRUE(esv::projectToScreen(s, positions.at(picked["vertex"].get<size_t>()), at));
    EXPECT_LE(glm::length(at - pixel), 1.0f);
    expectFileInfluences(s, picked, picked["node"].get<int>(), picked["vertex"].get<uint32_t>());
    // The inspector and the box beside the vertex say the same lines: the vertex and its influences.
    const std::vector<std::string> lines = esv::pickedVertexLines(s);
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines[0], "vertex " + std::to_string(picked["vertex"].get<uint32_t>()) + " of " +
                            picked["node_name"].get<std::string>());
    EXPECT_NE(lines[1].find("-> " + picked["joint_names"][0].get<std::string>()), std::string::npos) << lines[1];
}

TEST(SkinningDebugger, PickVertexRefusesWhatIsNotASkinnedVertex) {
    if (!fs::exists(esv::test::modelsDir() / kBear)) GTEST_SKIP() << "no " << kBear;
    Session session;
    ASSERT_TRUE(session.start("refuse", kBear));
    const esv::ViewerState& s = session.state();
    const int node = firstSkinnedNode(*s.loaded);
    const uint32_t count = s.loaded->meshes[size_t(s.loaded->nodes[size_t(node)].object)].vertexCount;
    std::string error;
    EXPECT_FALSE(session.script("pick-vertex " + std::to_string(node) + " " + std::to_string(count), &error));
    EXPECT_EQ(error, "test:1: pick-vertex: no vertex " + std::to_string(count) +
                         " with bone indices and weights in node " + std::to_string(node))
        << error;
    EXPECT_FALSE(session.script("pick-vertex 0 0", &error));
    EXPECT_NE(error.find("pick-vertex: node 0 is no skinned mesh instance"), std::string::npos) << error;
    EXPECT_FALSE(session.script("pick-vertex-at -500 -500", &error));
    EXPECT_NE(error.find("no skinned vertex within 10 pixels"), std::string::npos) << error;
    EXPECT_TRUE(session.dump()["picked_vertex"].is_null());
}

// Selecting a joint shows the Weights view of it and names the bone batches whose palettes hold it
// (the man's are batch-local POD batches); `set pick-weights off` leaves the view as it is.
TEST(SkinningDebugger, PickedJointShowsItsWeightsAndNamesItsBatches) {
    if (!fs::exists(esv::test::modelsDir() / kMan)) GTEST_SKIP() << "no " << kMan;
    Session session;
    ASSERT_TRUE(session.start("joint_batches", kMan));
    const esv::ViewerState& s = session.state();
    std::string error;
    ASSERT_TRUE(session.script("select uB_BoneA011", &error)) << error;
    const nlohmann::json state = session.dump();
    const int joint = state["joint"].get<int>();
    ASSERT_GE(joint, 0);
    EXPECT_EQ(state["mode"], "weights");
    EXPECT_EQ(state["weight_bone"].get<int>(), joint);
    // The batches from the scene drawn: every palette entry naming the joint, per mesh instance.
    nlohmann::json expected = nlohmann::json::array();
    const esv::Scene& scene = *s.scene;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const esv::Node& node = scene.nodes[n];
        if (node.kind != esv::NodeKind::Mesh || node.skin < 0) continue;
        const esv::Skin& skin = scene.skins[size_t(node.skin)];
        const esv::Mesh& mesh = scene.meshes[size_t(node.object)];
        for (size_t b = 0; b < mesh.boneBatches.size(); ++b)
            for (size_t p = 0; p < mesh.boneBatches[b].bones.size(); ++p)
                if (skin.joints[size_t(mesh.boneBatches[b].bones[p])] == joint) {
                    expected.push_back({{"node", int(n)}, {"batch", int(b)}, {"palette", int(p)}});
                    break;
                }
    }
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(state["joint_batches"], expected);
    const std::string text = esv::jointBatchText(scene, joint);
    EXPECT_EQ(text.rfind(expected.size() > 1 ? "batches " : "batch ", 0), 0u) << text;
    EXPECT_NE(text.find(std::to_string(expected[0]["batch"].get<int>())), std::string::npos) << text;

    ASSERT_TRUE(session.script("mode shaded\nset pick-weights off\nselect uB_BoneA01", &error)) << error;
    EXPECT_EQ(session.dump()["mode"], "shaded");
    EXPECT_NE(session.dump()["weight_bone"].get<int>(), joint) << "the Weights view follows the new joint";
}

// Pixels of the box within `tolerance` levels of `color`.
int countColor(const Image& image, const std::array<int, 3>& color, int tolerance) {
    int count = 0;
    for (size_t i = 0; i + 3 < image.rgba.size(); i += 4)
        count += std::abs(image.rgba[i] - color[0]) <= tolerance && std::abs(image.rgba[i + 1] - color[1]) <= tolerance &&
                 std::abs(image.rgba[i + 2] - color[2]) <= tolerance;
    return count;
}

// `set joint-names all` draws every joint's name (the hovered joint's colour), `on` only the selected
// and hovered joint's, `off` the selected joint's alone.
TEST(SkinningDebugger, AllJointNamesAreDrawnAtTheirJoints) {
    if (!fs::exists(esv::test::modelsDir() / kMan)) GTEST_SKIP() << "no " << kMan;
    Session session;
    ASSERT_TRUE(session.start("all_names", kMan));
    std::string error;
    const std::array<int, 3> nameColor{255, 230, 150};
    ASSERT_TRUE(session.script("set joint-names on", &error)) << error;
    EXPECT_EQ(session.dump()["joint_names"], "on");
    const int some = countColor(session.shot("on"), nameColor, 8);
    ASSERT_TRUE(session.script("set joint-names all", &error)) << error;
    EXPECT_EQ(session.dump()["joint_names"], "all");
    const int all = countColor(session.shot("all"), nameColor, 8);
    // Each of the man's joints' names is some tens of glyph pixels.
    EXPECT_GT(all, some + 400) << some << " -> " << all;
    ASSERT_TRUE(session.script("set joint-names off", &error)) << error;
    EXPECT_EQ(session.dump()["joint_names"], "off");
    EXPECT_LE(countColor(session.shot("off"), nameColor, 8), some);

    // The selected joint's name (and its batches) is drawn whatever the switch says.
    const std::array<int, 3> selectedColor{255, 120, 90};
    ASSERT_TRUE(session.script("set pick-weights off\nselect none", &error)) << error;
    const int unnamed = countColor(session.shot("unselected"), selectedColor, 8);
    ASSERT_TRUE(session.script("select uB_BoneA011", &error)) << error;
    EXPECT_GT(countColor(session.shot("selected"), selectedColor, 8), unnamed + 40);
}

// The stored position of vertex `v` (Float32 positions), decoded from the bytes.
glm::vec3 storedPosition(const esv::Mesh& mesh, uint32_t v) {
    for (const esv::VertexStream& stream : mesh.streams)
        for (const esv::VertexAttribute& a : stream.attributes)
            if (a.semantic == esv::Semantic::Position) {
                glm::vec3 p(0.0f);
                for (int c = 0; c < 3; ++c) {
                    double value = 0.0;
                    EXPECT_TRUE(storedComponent(stream, a, v, c, value));
                    p[c] = float(value);
                }
                return glm::vec3(mesh.positionUnpack * glm::vec4(p, 1.0f));
            }
    ADD_FAILURE() << "no positions";
    return glm::vec3(0.0f);
}

// Where the file's weights put vertex `v` of `node` at the pose shown when only the joints `keep`
// accepts move it, the kept weights scaled back to the vertex's sum (the node's matrix when none).
template <class Keep>
glm::vec3 expectedPosition(const esv::ViewerState& s, int node, uint32_t v, Keep keep) {
    const esv::Scene& file = *s.loaded;
    const esv::Node& instance = file.nodes[size_t(node)];
    const esv::Mesh& mesh = file.meshes[size_t(instance.object)];
    const esv::Skin& skin = file.skins[size_t(instance.skin)];
    FileInfluences stored;
    EXPECT_TRUE(fileInfluences(mesh, v, stored));
    const glm::vec4 p(storedPosition(mesh, v), 1.0f);
    glm::mat4 sum(0.0f);
    double total = 0.0, kept = 0.0;
    for (size_t k = 0; k < stored.indices.size() && k < stored.weights.size(); ++k) {
        const size_t j = size_t(stored.indices[k]);
        total += stored.weights[k];
        if (stored.weights[k] == 0.0 || !keep(skin.joints[j])) continue;
        kept += stored.weights[k];
        sum += float(stored.weights[k]) * (s.pose.world[size_t(skin.joints[j])] * skin.inverseBind[j]);
    }
    if (kept == 0.0) return glm::vec3(s.pose.objectWorld[size_t(node)] * p);
    return glm::vec3((float(total / kept) * sum) * p);
}

// Hiding a bone zeroes its weights in the scene drawn (the others scaled back to the vertex's sum),
// solo keeps only its own, a vertex left with no weight is drawn by its node's matrix; the GPU
// draws what the CPU path computes (SkinDiff), and the file's weights (picked vertex, analysis) stay.
TEST(SkinningDebugger, HiddenAndSoloBonesMoveTheVerticesByTheOtherWeights) {
    if (!fs::exists(esv::test::modelsDir() / kBear)) GTEST_SKIP() << "no " << kBear;
    Session session;
    ASSERT_TRUE(session.start("mask", kBear));
    esv::ViewerState& s = session.state();
    const int node = firstSkinnedNode(*s.loaded);
    const esv::Mesh& fileMesh = s.loaded->meshes[size_t(s.loaded->nodes[size_t(node)].object)];
    const esv::Skin& skin = s.loaded->skins[size_t(s.loaded->nodes[size_t(node)].skin)];
    ASSERT_EQ(s.scene->meshes[size_t(s.scene->nodes[size_t(node)].object)].vertexCount, fileMesh.vertexCount);
    const uint32_t v = mostInfluencedVertex(*s.loaded, node);
    FileInfluences stored;
    ASSERT_TRUE(fileInfluences(fileMesh, v, stored));
    ASSERT_GE(stored.weights.size(), 2u);
    ASSERT_NE(stored.weights[0], 0.0);
    ASSERT_NE(stored.weights[1], 0.0);
    const int hidden = skin.joints[size_t(stored.indices[0])], solo = skin.joints[size_t(stored.indices[1])];
    // A vertex the solo joint does not move.
    uint32_t other = 0;
    for (FileInfluences o; other < fileMesh.vertexCount && fileInfluences(fileMesh, other, o); ++other) {
        bool moves = false;
        for (size_t k = 0; k < o.indices.size(); ++k)
            moves = moves || (k < o.weights.size() && o.weights[k] != 0.0 && skin.joints[size_t(o.indices[k])] == solo);
        if (!moves) break;
    }
    ASSERT_LT(other, fileMesh.vertexCount);

    std::string error;
    ASSERT_TRUE(session.script("clip 0\ntime 0.5\npause\npick-vertex " + std::to_string(node) + " " +
                                   std::to_string(v) + "\nmode skindiff",
                               &error))
        << error;
    const nlohmann::json before = session.dump();
    const size_t badSums = s.skin.badSums;
    std::vector<glm::vec3> drawn;
    auto position = [&](uint32_t vertex) {
        esv::worldVertices(*s.scene, s.pose, node, drawn);
        return drawn.at(vertex);
    };
    auto near = [](const glm::vec3& a, const glm::vec3& b) { return glm::length(a - b) <= 1e-3f * (1.0f + glm::length(b)); };
    const glm::vec3 unmasked = position(v);
    EXPECT_TRUE(near(unmasked, expectedPosition(s, node, v, [](int) { return true; })));

    ASSERT_TRUE(session.script("bone hide " + std::to_string(hidden), &error)) << error;
    nlohmann::json state = session.dump();
    EXPECT_EQ(state["bone_mask"]["hidden"], nlohmann::json::array({hidden}));
    const glm::vec3 withoutHidden = expectedPosition(s, node, v, [&](int j) { return j != hidden; });
    EXPECT_TRUE(near(position(v), withoutHidden));
    EXPECT_FALSE(near(withoutHidden, unmasked)) << "the hidden joint moved the vertex at this pose";
    EXPECT_EQ(state["picked_vertex"], before["picked_vertex"]) << "the file's weights stay";
    EXPECT_EQ(s.skin.badSums, badSums) << "the analysis reads the weights as prepared";
    // The panels that show it draw with a joint selected, the bone hidden and the vertex picked.
    ASSERT_TRUE(session.script("panel skinning on\npanel inspector on\nselect " + std::to_string(hidden) +
                                   "\nmode skindiff\nwait 3",
                               &error))
        << error;
    EXPECT_EQ(session.dump()["panels"]["skinning"], true);
    EXPECT_EQ(session.dump()["joint"].get<int>(), hidden);
    if (s.stats.skinDiffMax >= 0.0f) {
        EXPECT_LT(s.stats.skinDiffMax, 1e-3f * glm::length(s.bounds.max - s.bounds.min)) << "the GPU draws the same";
    }

    ASSERT_TRUE(session.script("bone solo " + std::to_string(solo), &error)) << error;
    EXPECT_EQ(session.dump()["bone_mask"]["solo"].get<int>(), solo);
    EXPECT_TRUE(near(position(v), expectedPosition(s, node, v, [&](int j) { return j == solo; })));
    EXPECT_TRUE(near(position(other), glm::vec3(s.pose.objectWorld[size_t(node)] *
                                                glm::vec4(storedPosition(fileMesh, other), 1.0f))))
        << "no weight left: the node's matrix";

    ASSERT_TRUE(session.script("bone show all", &error)) << error;
    EXPECT_TRUE(session.dump()["bone_mask"]["hidden"].empty());
    EXPECT_EQ(session.dump()["bone_mask"]["solo"].get<int>(), -1);
    EXPECT_TRUE(near(position(v), unmasked));

    // ES2 limits (128 vertex uniform vectors; the scene prepared for them): the same weights drawn.
    ASSERT_TRUE(session.script("set gles2 on\nwait 3\nbone hide " + std::to_string(hidden) + "\nwait 2", &error))
        << error;
    EXPECT_TRUE(s.gles2);
    EXPECT_TRUE(near(position(v), withoutHidden));
    EXPECT_EQ(session.dump()["gl_errors"].get<int>(), 0);
    EXPECT_EQ(session.dump()["bone_mask"]["hidden"], nlohmann::json::array({hidden}));

    EXPECT_FALSE(session.script("bone hide " + std::to_string(node), &error));
    EXPECT_NE(error.find("no joint named"), std::string::npos) << error;
    EXPECT_FALSE(session.script("bone wave " + std::to_string(hidden), &error));
    EXPECT_NE(error.find("bone: expected hide, show or solo"), std::string::npos) << error;
}

}  // namespace
