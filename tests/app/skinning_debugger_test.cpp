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
        if (m_viewer.start(m_host, options) != esv::kExitOk || !esv::test::frameUntilLoaded(m_viewer))
            return false;
        esv::ViewerState& s = state();
        s.transport.playing = false;
        esv::seekTransport(*s.scene, s.transport, 0.0f);
        frames(3);
        return true;
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
    float best = 1e30f;
    for (size_t i = 0; i < positions.size(); ++i) {
        glm::vec2 p;
        if (!esv::projectToScreen(s, positions[i], p) || esv::hiddenBySurface(s, positions[i])) continue;
        const float d = glm::length(p - middle);
        if (d < best) {
            best = d;
            pixel = p;
            vertex = uint32_t(i);
        }
        if (best < 40.0f) break;
    }
    return best < 1e30f;
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

}  // namespace
