// GL call budgets of a steady frame, counted through the loader's hooks (renderer/gl_calls.h): the
// renderer's state goes through a cache, so a frame that changes nothing sends only what each draw
// needs. Budgets, in ES3 and ES2 mode, for the demo and every shared POD sample:
//   - at most 30 calls of fixed frame cost plus 4 per draw call;
//   - a bone batch after the first of a mesh costs at most 2 calls: its palette and its draw.
// And the cache itself: repeated values, location -1 and unchanged bindings never reach GL.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <glad/gles2.h>
#include <gtest/gtest.h>

#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/load.h"
#include "renderer/camera.h"
#include "renderer/gl_calls.h"
#include "renderer/gl_state.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/pof_extras.h"

namespace esv {
namespace {

constexpr uint64_t kFixedFrameCalls = 30;
constexpr uint64_t kCallsPerDraw = 4;

struct Counted {
    uint64_t calls = 0;
    FrameStats stats;
    std::vector<std::string> names;
    uint32_t extraBatches = 0;  // bone batches after the first of a mesh's triangle submesh
};

// Bone batches after the first that each GPU-skinned triangle submesh of a drawn node draws.
uint32_t extraBatches(const Scene& scene, const Pose& pose) {
    uint32_t extra = 0;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind != NodeKind::Mesh || node.object < 0 || !pose.visible[n] || node.skin < 0) continue;
        const Mesh& mesh = scene.meshes[node.object];
        if (mesh.boneBatches.size() < 2) continue;
        std::vector<uint32_t> triangles, starts;
        expandTriangles(mesh, triangles, &starts);
        const uint32_t total = uint32_t(triangles.size() / 3);
        for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
            const uint32_t lo = starts[s], hi = s + 1 < starts.size() ? starts[s + 1] : total;
            uint32_t overlapping = 0;
            for (const BoneBatch& b : mesh.boneBatches)
                overlapping +=
                    std::max(b.firstTriangle, lo) < std::min(b.firstTriangle + b.triangleCount, hi) ? 1 : 0;
            extra += overlapping > 1 ? overlapping - 1 : 0;
        }
    }
    return extra;
}

// Two frames to warm up (programs, vertex arrays, first uploads), then one counted.
Counted steadyFrame(const Scene& loaded, bool gles2, ViewMode mode = ViewMode::Shaded,
                    const Annotations* annotations = nullptr) {
    Counted out;
    test::RenderHarness harness(gles2, 320, 240, /*checkErrors=*/false);
    if (!harness.setScene(loaded)) return out;
    ViewSettings view;
    view.mode = mode;
    view.annotations = annotations;
    const Pose pose = harness.poseAt(-1.0f);
    const Bounds bounds = sceneBounds(harness.scene(), pose);
    if (bounds.valid()) frameBounds(view.orbit, bounds.min, bounds.max, 320.0f / 240.0f);
    harness.draw(pose, view);
    harness.draw(pose, view);  // the target stays bound
    gl::clearRecordedCallNames();
    gl::recordCallNames(true);
    const uint64_t before = gl::callCount();
    out.stats = harness.renderer().draw(harness.scene(), pose, view, 320, 240);
    out.calls = gl::callCount() - before;
    gl::recordCallNames(false);
    // Builds with GL checks (ESVIEW_GL_CHECKS, the test builds) ask glGetError after each draw:
    // not part of what a frame sends, so not counted.
    for (const std::string& name : gl::recordedCallNames()) {
        if (name == "glGetError") {
            --out.calls;
        } else {
            out.names.push_back(name);
        }
    }
    out.extraBatches = extraBatches(harness.scene(), pose);
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    return out;
}

std::string listing(const std::vector<std::string>& names) {
    std::map<std::string, int> counts;
    for (const std::string& n : names) ++counts[n];
    std::string text;
    for (const auto& [name, count] : counts) text += "  " + std::to_string(count) + " " + name + "\n";
    return text;
}

// The calls between consecutive draws, smallest first.
std::vector<size_t> gapsBetweenDraws(const std::vector<std::string>& names) {
    std::vector<size_t> gaps;
    size_t last = names.size();
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i].rfind("glDraw", 0) != 0) continue;
        if (last < names.size()) gaps.push_back(i - last - 1);
        last = i;
    }
    std::sort(gaps.begin(), gaps.end());
    return gaps;
}

void expectWithinBudget(const Scene& loaded, const std::string& what) {
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(what + (gles2 ? " (ES2)" : " (ES3)"));
        const Counted c = steadyFrame(loaded, gles2);
        ASSERT_GT(c.stats.drawCalls, 0u);
        const uint64_t budget = kFixedFrameCalls + kCallsPerDraw * c.stats.drawCalls;
        EXPECT_LE(c.calls, budget) << c.stats.drawCalls << " draw calls; the frame's calls:\n"
                                   << listing(c.names);
        // Each bone batch after the first of a mesh: its palette, then its draw.
        const std::vector<size_t> gaps = gapsBetweenDraws(c.names);
        ASSERT_GE(gaps.size() + 1, size_t(c.extraBatches));
        for (uint32_t i = 0; i < c.extraBatches; ++i)
            EXPECT_LE(gaps[i], 1u) << "bone batch " << i << " of " << c.extraBatches << " after the first";
        std::printf("[ gl calls ] %-44s %s %4llu calls, %3u draws, %2u later batches\n", what.c_str(),
                    gles2 ? "ES2" : "ES3", static_cast<unsigned long long>(c.calls), c.stats.drawCalls,
                    c.extraBatches);
    }
}

TEST(GlCallBudget, DemoSceneSteadyFrame) {
    expectWithinBudget(makeDemoScene(), "demo");
}

TEST(GlCallBudget, EverySharedPodSampleSteadyFrame) {
    ESVIEW_REQUIRE_MODELS("pod");
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::modelsDir() / "pod"))
        if (entry.path().extension() == ".pod") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    ASSERT_EQ(files.size(), 17u);
    for (const auto& path : files) {
        LoadResult r = loadSceneFile(path.string());
        ASSERT_TRUE(r.scene) << path;
        expectWithinBudget(*r.scene, path.filename().string());
    }
}

// POF markers reach the renderer as annotations (the viewer's pofAnnotations): their lines join one
// of the overlay's line sets and their points take one draw, depth-tested or through the hull. The
// F-14 with a marker at each of its gun, missile and thruster points (a point, a normal line and a
// 24-segment circle each, as the viewer draws them) against the same frame without markers.
TEST(GlCallBudget, PofMarkersCostTwoDraws) {
    ESVIEW_REQUIRE_MODELS("pof");
    LoadResult r = loadSceneFile((test::modelsDir() / "pof/air_F-14.pof").string());
    ASSERT_TRUE(r.scene && r.scene->pof);
    const PofExtras& pof = *r.scene->pof;
    Annotations markers;
    const glm::vec4 color(1.0f, 0.31f, 0.24f, 1.0f);
    auto add = [&](const glm::vec3& filePoint, const glm::vec3& fileNormal) {
        const glm::vec3 p(filePoint.x, filePoint.y, -filePoint.z),
            n(fileNormal.x, fileNormal.y, -fileNormal.z);
        markers.points.push_back({p, color});
        markers.lines.push_back({p, color});
        markers.lines.push_back({p + n, color});
        for (int i = 0; i < 24; ++i) {
            const float a0 = 6.2831853f * float(i) / 24.0f, a1 = 6.2831853f * float(i + 1) / 24.0f;
            markers.lines.push_back({p + glm::vec3(std::cos(a0), std::sin(a0), 0.0f), color});
            markers.lines.push_back({p + glm::vec3(std::cos(a1), std::sin(a1), 0.0f), color});
        }
    };
    for (const auto* slots : {&pof.gunSlots, &pof.missileSlots})
        for (const auto& slot : *slots)
            for (const auto& point : slot) add(point.position, point.normal);
    for (const auto& thruster : pof.thrusters)
        for (const auto& glow : thruster.glows) add(glow.position, glow.normal);
    ASSERT_EQ(markers.points.size(), 6u) << "1 gun, 3 missile, 2 thruster points";
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        const Counted none = steadyFrame(*r.scene, gles2);
        markers.throughSurfaces = false;
        const Counted hidden = steadyFrame(*r.scene, gles2, ViewMode::Shaded, &markers);
        markers.throughSurfaces = true;
        const Counted xray = steadyFrame(*r.scene, gles2, ViewMode::Shaded, &markers);
        for (const Counted* c : {&hidden, &xray}) {
            EXPECT_EQ(c->stats.drawCalls, none.stats.drawCalls + 2) << listing(c->names);
            EXPECT_LE(c->calls, kFixedFrameCalls + kCallsPerDraw * c->stats.drawCalls) << listing(c->names);
        }
        std::printf(
            "[ gl calls ] air_F-14 %s: no markers %llu calls %u draws; markers %llu calls %u draws "
            "(x-ray %llu calls %u draws)\n",
            gles2 ? "ES2" : "ES3", static_cast<unsigned long long>(none.calls), none.stats.drawCalls,
            static_cast<unsigned long long>(hidden.calls), hidden.stats.drawCalls,
            static_cast<unsigned long long>(xray.calls), xray.stats.drawCalls);
    }
}

// Two quads (one mesh: position, normal, UV) side by side, each with its own metal/rough material
// and base colour texture, so every frame rebinds unit 0.
Scene twoTexturedQuads() {
    Scene scene;
    scene.format = "test";
    const float vertices[4][8] = {{-1, -1, 0, 0, 0, 1, 0, 1}, {1, -1, 0, 0, 0, 1, 1, 1},
                                  {1, 1, 0, 0, 0, 1, 1, 0},   {-1, 1, 0, 0, 0, 1, 0, 0}};
    std::vector<uint8_t> bytes(sizeof vertices);
    std::memcpy(bytes.data(), vertices, sizeof vertices);
    Mesh mesh;
    mesh.name = "quad";
    mesh.vertexCount = 4;
    VertexStream stream;
    stream.bytes = makeOwnedBytes(std::move(bytes));
    stream.stride = 32;
    stream.count = 4;
    stream.attributes = {{Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0},
                         {Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 12},
                         {Semantic::TexCoord, 0, ComponentType::Float32, 2, false, Swizzle::Identity, 24}};
    mesh.streams.push_back(stream);
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = 6;
    mesh.indices.bytes = makeOwnedBytes({0, 0, 1, 0, 2, 0, 0, 0, 2, 0, 3, 0});
    Submesh sub;
    sub.indexCount = 6;
    mesh.submeshes.push_back(sub);
    scene.meshes.push_back(mesh);
    for (int i = 0; i < 4; ++i) {
        Texture t;
        t.name = "t" + std::to_string(i);
        t.image.width = t.image.height = 1;
        t.image.container = "test";
        const uint8_t level = uint8_t(60 * (i + 1));
        t.image.surfaces.push_back(makeOwnedBytes({level, level, level, uint8_t(255 - level)}));
        scene.textures.push_back(t);
    }
    for (int i = 0; i < 2; ++i) {
        Material m;
        m.name = "m" + std::to_string(i);
        m.model = ShadingModel::MetalRough;
        m.metallic = 0.0f;
        m.roughness = 0.4f;
        m.texture(TextureSlot::Diffuse).texture = i;
        scene.materials.push_back(m);
        Node node;
        node.name = "quad" + std::to_string(i);
        node.kind = NodeKind::Mesh;
        node.object = 0;
        node.materials = {i};
        node.local.translation = glm::vec3(i == 0 ? -1.2f : 1.2f, 0.0f, 0.0f);
        scene.nodes.push_back(node);
    }
    return scene;
}

// KHR_materials_specular. Its factors are uniform values: a material with them costs no texture or
// program change (the two materials' uniforms now differ, so each draw sends its own, as any two
// materials' colours would). Its maps (ES3) cost what any map costs: each frame binds every unit a
// draw samples, so the mapped material's draw binds units 9 and 10 too (an active-texture and a bind
// call each, and the other material's draw one active-texture call to come back to unit 0), in a
// program of its own. On ES2, where they
// are not drawn, the frame is the one with the factors alone, call for call.
TEST(GlCallBudget, SpecularMapsCostTheirOwnBindsAndNothingElse) {
    const Scene plain = twoTexturedQuads();
    Scene factors = plain;
    factors.materials[0].specularFactor = 0.5f;
    factors.materials[0].specularColorFactor = glm::vec3(1.0f, 0.5f, 0.25f);
    Scene maps = factors;
    maps.materials[0].texture(TextureSlot::SpecularStrength).texture = 2;
    maps.materials[0].texture(TextureSlot::SpecularTint).texture = 3;
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        const Counted a = steadyFrame(plain, gles2), b = steadyFrame(factors, gles2), c = steadyFrame(maps, gles2);
        ASSERT_EQ(a.stats.drawCalls, 2u);
        EXPECT_GT(a.stats.changes.textures, 0u) << "the two base colour maps take turns on unit 0";
        EXPECT_EQ(b.stats.changes.textures, a.stats.changes.textures) << listing(b.names);
        EXPECT_EQ(b.stats.changes.programs, a.stats.changes.programs) << listing(b.names);
        EXPECT_EQ(b.calls - b.stats.changes.uniforms, a.calls - a.stats.changes.uniforms) << listing(b.names);
        EXPECT_LE(c.calls, kFixedFrameCalls + kCallsPerDraw * c.stats.drawCalls) << listing(c.names);
        if (gles2) {
            EXPECT_EQ(c.calls, b.calls) << listing(c.names);
            EXPECT_EQ(c.stats.changes.textures, a.stats.changes.textures) << listing(c.names);
        } else {
            // Units 9 and 10, and back to unit 0 for the other material's map.
            EXPECT_EQ(c.stats.changes.textures, a.stats.changes.textures + 5) << listing(c.names);
            EXPECT_EQ(c.stats.changes.programs, a.stats.changes.programs + 1) << listing(c.names);
        }
        std::printf("[ gl calls ] specular %s: plain %llu, factors %llu, maps %llu calls\n", gles2 ? "ES2" : "ES3",
                    static_cast<unsigned long long>(a.calls), static_cast<unsigned long long>(b.calls),
                    static_cast<unsigned long long>(c.calls));
    }
}

// Texture coordinate set 1. A mesh that has it (a second stream) while no material names it draws
// exactly as without it, call for call: the set is never pointed at. When material 0's base colour
// map names it, that draw has a program of its own (a_uv1 and UV1_MAPS), one more program change a
// frame, and points the set at a_uv1's location: its stream's buffer bound, the attribute enabled,
// and disabled again for the other material's draw (the pointer stays in the mesh's vertex array).
TEST(GlCallBudget, SecondUvSetCostsItsAttributeOnlyWhereAMapNamesIt) {
    const Scene plain = twoTexturedQuads();
    Scene unnamed = plain;
    {
        const float set1[4][2] = {{1, 1}, {0, 1}, {0, 0}, {1, 0}};
        std::vector<uint8_t> bytes(sizeof set1);
        std::memcpy(bytes.data(), set1, sizeof set1);
        VertexStream stream;
        stream.bytes = makeOwnedBytes(std::move(bytes));
        stream.stride = 8;
        stream.count = 4;
        stream.attributes = {{Semantic::TexCoord, 1, ComponentType::Float32, 2, false, Swizzle::Identity, 0}};
        unnamed.meshes[0].streams.push_back(stream);
    }
    Scene named = unnamed;
    named.materials[0].texture(TextureSlot::Diffuse).uvSet = 1;
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        const Counted a = steadyFrame(plain, gles2), b = steadyFrame(unnamed, gles2), c = steadyFrame(named, gles2);
        ASSERT_EQ(a.stats.drawCalls, 2u);
        EXPECT_EQ(b.calls, a.calls) << listing(b.names);
        EXPECT_EQ(b.names, a.names);
        EXPECT_EQ(c.stats.drawCalls, 2u);
        EXPECT_EQ(c.stats.changes.attributes, a.stats.changes.attributes + 2) << listing(c.names);
        EXPECT_EQ(c.stats.changes.programs, a.stats.changes.programs + 1) << listing(c.names);
        EXPECT_EQ(c.stats.changes.buffers, a.stats.changes.buffers + 1) << listing(c.names);
        EXPECT_EQ(c.stats.changes.textures, a.stats.changes.textures) << listing(c.names);
        EXPECT_EQ(c.calls - c.stats.changes.uniforms, a.calls - a.stats.changes.uniforms + 4) << listing(c.names);
        std::printf("[ gl calls ] uv set 1 %s: plain %llu, set 1 unnamed %llu, named %llu calls\n",
                    gles2 ? "ES2" : "ES3", static_cast<unsigned long long>(a.calls),
                    static_cast<unsigned long long>(b.calls), static_cast<unsigned long long>(c.calls));
    }
}

// ES 2's 8 attributes put a_uv1 on the morph range's first location (uv1Location), so a mesh whose
// material samples set 1 draws its morph targets on the CPU path there, and only there: the same
// picture as ES 3, which keeps them on the attribute path. The quads' base colour map is red on
// the left and blue on the right, and set 1 mirrors set 0, so the picture shows which set is drawn.
TEST(SecondUvSet, Es2MeshWithMorphTargetsDrawsThemOnTheCpu) {
    Scene unnamed = twoTexturedQuads();
    unnamed.textures[0].image.width = 2;
    unnamed.textures[0].image.surfaces = {makeOwnedBytes({255, 0, 0, 255, 0, 0, 255, 255})};
    unnamed.materials[1].texture(TextureSlot::Diffuse).texture = 0;
    Mesh& mesh = unnamed.meshes[0];
    for (int set = 1; set < 3; ++set) {  // set 1, then the morph target's position deltas (lifting the top)
        const float set1[4][2] = {{1, 1}, {0, 1}, {0, 0}, {1, 0}};
        const float deltas[4][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0.3f, 0}, {0, 0.3f, 0}};
        std::vector<uint8_t> bytes(set == 1 ? sizeof set1 : sizeof deltas);
        std::memcpy(bytes.data(), set == 1 ? static_cast<const void*>(set1) : deltas, bytes.size());
        VertexStream stream;
        stream.bytes = makeOwnedBytes(std::move(bytes));
        stream.stride = set == 1 ? 8 : 12;
        stream.count = 4;
        if (set == 1) {
            stream.attributes = {{Semantic::TexCoord, 1, ComponentType::Float32, 2, false, Swizzle::Identity, 0}};
            mesh.streams.push_back(stream);
        } else {
            stream.attributes = {{Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0}};
            MorphTarget target;
            target.name = "lift";
            target.stream = stream;
            mesh.morphTargets.push_back(target);
        }
    }
    mesh.defaultMorphWeights = {1.0f};
    Scene named = unnamed;
    for (Material& m : named.materials) m.texture(TextureSlot::Diffuse).uvSet = 1;
    auto render = [](const Scene& scene, bool gles2) {
        test::RenderHarness harness(gles2, 96, 64);
        EXPECT_TRUE(harness.setScene(scene));
        return harness.drawFramed(harness.poseAt(-1.0f), ViewSettings());
    };
    const test::Rendered set0 = render(unnamed, false), set1 = render(named, false);
    const test::Rendered set0Es2 = render(unnamed, true), set1Es2 = render(named, true);
    ASSERT_EQ(set1.image.rgba.size(), set1Es2.image.rgba.size());
    EXPECT_EQ(set0.stats.cpuMorphedNodes, 0u);
    EXPECT_EQ(set1.stats.cpuMorphedNodes, 0u) << "ES 3: a_uv1 past the morph range";
    EXPECT_EQ(set0Es2.stats.cpuMorphedNodes, 0u) << "ES 2, set 1 unnamed: the attribute path";
    EXPECT_EQ(set1Es2.stats.cpuMorphedNodes, 2u) << "ES 2, set 1 named: the CPU path";
    int most = 0, set0Apart = 0;
    for (size_t i = 0; i < set1.image.rgba.size(); ++i) {
        most = std::max(most, std::abs(int(set1.image.rgba[i]) - int(set1Es2.image.rgba[i])));
        set0Apart = std::max(set0Apart, std::abs(int(set1.image.rgba[i]) - int(set0.image.rgba[i])));
    }
    EXPECT_LE(most, 2) << "ES 2 draws set 1 and the morph as ES 3";
    EXPECT_GE(set0Apart, 100) << "set 1 draws otherwise than set 0";
}

TEST(GlCallBudget, SkinnedManHasLaterBatchesToMeasure) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult r = loadSceneFile((test::modelsDir() / "pod/cocos3d/cocos3d_man.pod").string());
    ASSERT_TRUE(r.scene);
    // The body's two batches: the budget of a later batch is exercised, not vacuous.
    const Counted c = steadyFrame(*r.scene, false);
    EXPECT_GE(c.extraBatches, 1u);
    EXPECT_EQ(c.stats.boneBatchesDrawn, 4u);
}

// A one-frame render (`esview render`) makes what it draws with before the frame: the frame itself
// creates no program, shader, vertex array, buffer or texture.
TEST(GlCallBudget, PrepareFrameLeavesTheFrameOnlyDrawing) {
    const Scene demo = makeDemoScene();
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        test::RenderHarness harness(gles2, 160, 120, false);
        ASSERT_TRUE(harness.setScene(demo));
        ViewSettings view;
        const Pose pose = harness.poseAt(0.5f);
        harness.renderer().prepareFrame(harness.scene(), pose, view);
        gl::clearRecordedCallNames();
        gl::recordCallNames(true);
        const test::Rendered frame = harness.draw(pose, view);
        gl::recordCallNames(false);
        EXPECT_GT(frame.stats.drawCalls, 0u);
        for (const std::string& name : gl::recordedCallNames())
            for (const char* creating :
                 {"glCreateProgram", "glCompileShader", "glLinkProgram", "glGenVertexArrays",
                  "glGenVertexArraysOES", "glGenBuffers", "glGenTextures"})
                EXPECT_NE(name, creating) << "the frame made an object";
    }
}

// The cache: a second identical frame of state sends nothing; location -1 never reaches GL.
TEST(GlStateCache, RepeatedStateAndLocationMinusOneReachNoGl) {
    test::RenderHarness harness(false, 16, 16, false);
    ASSERT_TRUE(harness.ok());
    const char* vs = "#version 300 es\nuniform vec4 u;\nvoid main() { gl_Position = u; }\n";
    const char* fs =
        "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    GLuint program = glCreateProgram();
    for (auto [type, source] :
         {std::pair<GLenum, const char*>{GL_VERTEX_SHADER, vs}, {GL_FRAGMENT_SHADER, fs}}) {
        GLuint shader = glCreateShader(type);
        glShaderSource(shader, 1, &source, nullptr);
        glCompileShader(shader);
        glAttachShader(program, shader);
        glDeleteShader(shader);
    }
    glLinkProgram(program);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    ASSERT_EQ(linked, GL_TRUE);
    const GLint u = glGetUniformLocation(program, "u");
    ASSERT_GE(u, 0);

    gl::StateCache cache;
    cache.configure(true, 8);
    auto calls = [&](const std::function<void()>& work) {
        const uint64_t before = gl::callCount();
        work();
        return gl::callCount() - before;
    };
    EXPECT_EQ(calls([&] { cache.useProgram(program); }), 1u);
    EXPECT_EQ(calls([&] { cache.useProgram(program); }), 0u);
    EXPECT_EQ(calls([&] { cache.uniform4f(u, 1, 2, 3, 4); }), 1u);
    EXPECT_EQ(calls([&] { cache.uniform4f(u, 1, 2, 3, 4); }), 0u);
    EXPECT_EQ(calls([&] { cache.uniform4f(u, 1, 2, 3, 5); }), 1u);
    EXPECT_EQ(calls([&] { cache.uniform4f(-1, 1, 2, 3, 5); }), 0u);
    EXPECT_EQ(calls([&] { cache.enable(GL_BLEND, true); }), 1u);
    EXPECT_EQ(calls([&] { cache.enable(GL_BLEND, true); }), 0u);
    EXPECT_EQ(calls([&] { cache.bindTexture(3, GL_TEXTURE_2D, 0); }), 2u);  // unit, then texture
    EXPECT_EQ(calls([&] { cache.bindTexture(3, GL_TEXTURE_2D, 0); }), 0u);
    // What reached GL, by kind: one program, two uniforms (4 floats each), one capability, a unit
    // and a texture.
    const StateChanges k = cache.changes();
    EXPECT_EQ(k.programs, 1u);
    EXPECT_EQ(k.uniforms, 2u);
    EXPECT_EQ(k.uniformBytes, 32u);
    EXPECT_EQ(k.renderState, 1u);
    EXPECT_EQ(k.textures, 2u);
    EXPECT_EQ(k.total(), 6u);
    // A new frame: context state is unknown again, program uniforms are not.
    cache.resetContextState();
    EXPECT_EQ(calls([&] { cache.useProgram(program); }), 1u);
    EXPECT_EQ(calls([&] { cache.enable(GL_BLEND, true); }), 1u);
    EXPECT_EQ(calls([&] { cache.uniform4f(u, 1, 2, 3, 5); }), 0u);
    cache.useProgram(0);
    glDeleteProgram(program);
    cache.forgetObjects();
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

// FrameStats::changes counts the state changes a frame sent, by kind, from the calls that reached
// GL: every call of a steady frame is a draw, a counted change, or one of the frame's own calls
// (viewport, clear, timer query). Asserted per kind against the recorded call names, and against
// facts of the scene: the demo, the skinned man (four batch draws of one program) and the
// normal-mapped PowerVR scene (one draw, its two maps).
size_t named(const std::vector<std::string>& names, std::initializer_list<const char*> which) {
    size_t count = 0;
    for (const std::string& name : names)
        for (const char* w : which) count += name == w ? 1 : 0;
    return count;
}

// Mesh nodes a frame draws.
uint32_t drawnNodes(const Scene& scene, const Pose& pose) {
    uint32_t count = 0;
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        count += scene.nodes[n].kind == NodeKind::Mesh && scene.nodes[n].object >= 0 && pose.visible[n] ? 1 : 0;
    return count;
}

void expectChangesMatchCalls(const Counted& c) {
    const StateChanges& k = c.stats.changes;
    const std::vector<std::string>& names = c.names;
    EXPECT_EQ(k.programs, named(names, {"glUseProgram"}));
    EXPECT_EQ(k.textures, named(names, {"glBindTexture", "glActiveTexture"}));
    EXPECT_EQ(k.vertexArrays, named(names, {"glBindVertexArray", "glBindVertexArrayOES"}));
    EXPECT_EQ(k.buffers, named(names, {"glBindBuffer"}));
    EXPECT_EQ(k.attributes, named(names, {"glEnableVertexAttribArray", "glDisableVertexAttribArray",
                                          "glVertexAttribPointer", "glVertexAttrib4f"}));
    EXPECT_EQ(k.renderState, named(names, {"glEnable", "glDisable", "glDepthMask", "glDepthFunc", "glCullFace",
                                           "glPolygonOffset", "glBlendFuncSeparate", "glBlendEquationSeparate",
                                           "glBlendColor"}));
    EXPECT_EQ(k.uniforms, named(names, {"glUniform1i", "glUniform1f", "glUniform2fv", "glUniform3fv", "glUniform4fv",
                                        "glUniform4i", "glUniformMatrix4fv"}));
    const size_t own = named(names, {"glViewport", "glClearColor", "glClearDepthf", "glClear", "glBeginQueryEXT",
                                     "glEndQueryEXT", "glGetIntegerv", "glGetQueryObjectuivEXT",
                                     "glGetQueryObjectui64vEXT"});
    EXPECT_EQ(c.calls, uint64_t(c.stats.drawCalls) + k.total() + own) << listing(names);
    EXPECT_LE(k.paletteBytes, k.uniformBytes);
}

TEST(FrameStateChanges, DemoSteadyFrame) {
    const Scene demo = makeDemoScene();
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        const Counted c = steadyFrame(demo, gles2);
        expectChangesMatchCalls(c);
        test::RenderHarness harness(gles2, 32, 32, false);
        ASSERT_TRUE(harness.setScene(demo));
        const Pose pose = harness.poseAt(-1.0f);
        const StateChanges& k = c.stats.changes;
        // Each drawn node binds its vertex array once; the frame ends by binding none.
        EXPECT_EQ(k.vertexArrays, drawnNodes(harness.scene(), pose) + 1);
        // A skinned and a static program; the skinned mesh's two batches re-send their palettes
        // (they share the location, so neither is still there from the last frame), nothing else.
        EXPECT_EQ(k.programs, 2u);
        EXPECT_EQ(c.stats.boneBatchesDrawn, 2u);
        EXPECT_EQ(k.uniforms, 2u);
        uint64_t bones = 0;
        for (const Mesh& mesh : harness.scene().meshes)
            for (const BoneBatch& b : mesh.boneBatches) bones += b.bones.size();
        EXPECT_EQ(k.paletteBytes, bones * 64);
        EXPECT_EQ(k.uniformBytes, k.paletteBytes);
        EXPECT_EQ(k.buffers + k.textures, 0u);
    }
}

TEST(FrameStateChanges, SkinnedManAndNormalMappedScene) {
    ESVIEW_REQUIRE_MODELS("pod");
    LoadResult man = loadSceneFile((test::modelsDir() / "pod/cocos3d/cocos3d_man.pod").string());
    LoadResult bump = loadSceneFile((test::modelsDir() / "pod/nsdk/nsdk_Bumpmap_scene.pod").string());
    ASSERT_TRUE(man.scene && bump.scene);
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        const Counted m = steadyFrame(*man.scene, gles2);
        expectChangesMatchCalls(m);
        // Every batch of every skinned mesh is drawn with one program, its palette sent whole: the
        // bytes are the file's bone lists, 64 bytes a matrix.
        uint64_t bones = 0, batches = 0;
        for (const Mesh& mesh : man.scene->meshes) {
            batches += mesh.boneBatches.size();
            for (const BoneBatch& b : mesh.boneBatches) bones += b.bones.size();
        }
        EXPECT_EQ(m.stats.boneBatchesDrawn, batches);
        EXPECT_EQ(m.stats.changes.programs, 1u);
        EXPECT_EQ(m.stats.changes.paletteBytes, bones * 64);
        test::RenderHarness harness(gles2, 32, 32, false);
        ASSERT_TRUE(harness.setScene(*man.scene));
        EXPECT_EQ(m.stats.changes.vertexArrays, drawnNodes(harness.scene(), harness.poseAt(-1.0f)) + 1);
        const Counted b = steadyFrame(*bump.scene, gles2);
        expectChangesMatchCalls(b);
        // One draw; its diffuse and normal maps bound on their units (a unit select and a bind
        // each); its uniforms all still in the program from the last frame.
        EXPECT_EQ(b.stats.drawCalls, 1u);
        EXPECT_EQ(b.stats.changes.textures, 4u);
        EXPECT_EQ(b.stats.changes.uniforms, 0u);
        EXPECT_EQ(b.stats.changes.programs, 1u);
        // The tangent stream: one buffer bind, its attribute enabled, the colour's current value.
        EXPECT_EQ(b.stats.changes.buffers, 1u);
    }
}

}  // namespace
}  // namespace esv
