// Frame time of a real scene at 1280x720 through the renderer (every material, light, bone batch
// and program switch it needs), next to a baseline measured in the same run: the same triangles,
// already in world space, in one buffer, drawn with one call and one trivial lit shader. The
// ratio is the renderer's overhead over the least any GLES renderer could do for that geometry.
// Also prints, for each skinned sample character, the draws, bone batches and palette sizes in
// ES3 and ES2 mode.
//
// Usage: bench_frame [FILE] [benchmark flags]; FILE defaults to the largest POD sample.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <glad/gles2.h>

#include "app/hosts/egl_context.h"
#include "loaders/load.h"
#include "prepare/prepare.h"
#include "renderer/camera.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace {

constexpr int kWidth = 1280, kHeight = 720;

std::string g_file;
std::map<std::string, double> g_msPerFrame;  // benchmark name -> mean wall ms per frame

struct Setup {
    esv::EglContext context;
    std::unique_ptr<esv::Renderer> renderer;
    esv::OffscreenTarget target;
    std::unique_ptr<esv::Scene> scene;
    esv::ViewSettings view;
    std::string error;

    bool open(bool gles2) {
        if (!context.create(gles2 ? 2 : 3, error)) return false;
        esv::RendererOptions options;
        options.gles2 = gles2;
        renderer = esv::Renderer::create(options, error);
        if (!renderer) return false;
        esv::LoadResult loaded = esv::loadSceneFile(g_file);
        if (!loaded.scene) {
            error = "cannot load " + g_file;
            return false;
        }
        scene = esv::prepareForTarget(*loaded.scene, esv::targetCaps(renderer->info()));
        std::vector<esv::ReportLine> report;
        if (!renderer->setScene(*scene, report, error)) return false;
        if (!target.create(kWidth, kHeight, error)) return false;
        esv::Pose pose;
        esv::evaluatePose(*scene, scene->animation.clips.empty() ? -1 : 0, 0.0f, pose);
        const esv::Bounds bounds = esv::sceneBounds(*scene, pose);
        if (bounds.valid()) esv::frameBounds(view.orbit, bounds.min, bounds.max, float(kWidth) / kHeight);
        return true;
    }

    float duration() const {
        return scene->animation.clips.empty() ? 0.0f : scene->animation.clips[0].duration();
    }
};

// The renderer drawing the animated scene (pose evaluated per frame, as the viewer does).
void frame(benchmark::State& state, bool gles2) {
    Setup s;
    if (!s.open(gles2)) {
        state.SkipWithError(s.error.c_str());
        return;
    }
    s.target.bind();
    esv::Pose pose;
    float t = 0.0f;
    esv::FrameStats stats;
    for (auto _ : state) {
        esv::evaluatePose(*s.scene, s.scene->animation.clips.empty() ? -1 : 0, t, pose);
        stats = s.renderer->draw(*s.scene, pose, s.view, kWidth, kHeight);
        glFinish();
        t += 1.0f / 30.0f;
        if (t > s.duration()) t = 0.0f;
    }
    state.counters["draws"] = stats.drawCalls;
    state.counters["triangles"] = stats.triangles;
}

const char* kBaselineVs =
    "#version 300 es\n"
    "in vec3 a_position; in vec3 a_normal; uniform mat4 u_viewProjection; out vec3 v_normal;\n"
    "void main() { v_normal = a_normal; gl_Position = u_viewProjection * vec4(a_position, 1.0); }\n";
const char* kBaselineFs =
    "#version 300 es\nprecision mediump float; in vec3 v_normal; out vec4 o_color;\n"
    "void main() { o_color = vec4(vec3(0.2 + 0.8 * max(dot(normalize(v_normal), vec3(0.3, 0.8, 0.5)), 0.0)), "
    "1.0); }\n";

GLuint compile(GLenum stage, const char* source) {
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    return shader;
}

// The same triangles in world space (CPU-posed at time 0), one buffer, one draw, one program.
void baseline(benchmark::State& state) {
    Setup s;
    if (!s.open(false)) {
        state.SkipWithError(s.error.c_str());
        return;
    }
    esv::Pose pose;
    esv::evaluatePose(*s.scene, s.scene->animation.clips.empty() ? -1 : 0, 0.0f, pose);
    std::vector<float> vertices;
    std::vector<glm::vec3> positions, normals;
    std::vector<uint32_t> triangles;
    for (size_t n = 0; n < s.scene->nodes.size(); ++n) {
        const esv::Node& node = s.scene->nodes[n];
        if (node.kind != esv::NodeKind::Mesh || node.object < 0 || !pose.visible[n]) continue;
        esv::worldVertices(*s.scene, pose, int(n), positions, &normals);
        esv::expandTriangles(s.scene->meshes[node.object], triangles);
        for (uint32_t v : triangles) {
            const glm::vec3 p = positions[v], nr = v < normals.size() ? normals[v] : glm::vec3(0, 0, 1);
            vertices.insert(vertices.end(), {p.x, p.y, p.z, nr.x, nr.y, nr.z});
        }
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, compile(GL_VERTEX_SHADER, kBaselineVs));
    glAttachShader(program, compile(GL_FRAGMENT_SHADER, kBaselineFs));
    glBindAttribLocation(program, 0, "a_position");
    glBindAttribLocation(program, 1, "a_normal");
    glLinkProgram(program);
    GLuint buffer = 0, vao = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(float)), vertices.data(),
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 24, nullptr);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 24, reinterpret_cast<const void*>(12));
    glm::mat4 view, projection;
    esv::orbitMatrices(s.view.orbit, float(kWidth) / kHeight, view, projection);
    const glm::mat4 viewProjection = projection * view;
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "u_viewProjection"), 1, GL_FALSE, &viewProjection[0][0]);
    s.target.bind();
    glViewport(0, 0, kWidth, kHeight);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    const GLsizei count = GLsizei(vertices.size() / 6);
    for (auto _ : state) {
        glClearColor(0.18f, 0.19f, 0.22f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, count);
        glFinish();
    }
    state.counters["draws"] = 1;
    state.counters["triangles"] = count / 3;
    glDeleteBuffers(1, &buffer);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(program);
}

// Draws, bone batches and palette sizes of every skinned POD sample, as the renderer draws them.
void printCharacters() {
    const std::filesystem::path root = std::filesystem::path(ESVIEW_SHARED_DIR) / "models" / "pod";
    if (!std::filesystem::exists(root)) return;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
        if (entry.path().extension() == ".pod") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::printf("\n%-40s %-4s %6s %8s %12s %s\n", "skinned sample", "mode", "draws", "batches", "palette max",
                "palette sizes per skinned mesh");
    for (const auto& path : files) {
        for (bool gles2 : {false, true}) {
            esv::EglContext context;
            std::string error;
            if (!context.create(gles2 ? 2 : 3, error)) return;
            esv::RendererOptions options;
            options.gles2 = gles2;
            auto renderer = esv::Renderer::create(options, error);
            esv::LoadResult loaded = esv::loadSceneFile(path.string());
            if (!renderer || !loaded.scene || loaded.scene->skins.empty()) break;
            const std::unique_ptr<esv::Scene> prepared = esv::prepareForTarget(*loaded.scene, esv::targetCaps(renderer->info()));
            const esv::Scene& scene = *prepared;
            std::vector<esv::ReportLine> report;
            if (!renderer->setScene(scene, report, error)) break;
            esv::OffscreenTarget target;
            target.create(320, 180, error);
            target.bind();
            esv::Pose pose;
            esv::evaluatePose(scene, scene.animation.clips.empty() ? -1 : 0, 0.0f, pose);
            esv::ViewSettings view;
            const esv::FrameStats stats = renderer->draw(scene, pose, view, 320, 180);
            size_t batches = 0, largest = 0;
            std::string sizes;
            for (const esv::Node& node : scene.nodes) {
                if (node.kind != esv::NodeKind::Mesh || node.object < 0 || node.skin < 0) continue;
                const esv::Mesh& mesh = scene.meshes[node.object];
                batches += mesh.boneBatches.size();
                sizes += (sizes.empty() ? "" : " | ") + mesh.name + ":";
                for (const esv::BoneBatch& b : mesh.boneBatches) {
                    largest = std::max(largest, b.bones.size());
                    sizes += " " + std::to_string(b.bones.size());
                }
            }
            std::printf("%-40s %-4s %6u %8zu %12zu %s (capacity %d)\n", path.filename().string().c_str(),
                        gles2 ? "ES2" : "ES3", stats.drawCalls, batches, largest, sizes.c_str(),
                        renderer->info().paletteCapacity);
        }
    }
}

class Collector : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs)
            if (run.run_type == Run::RT_Iteration && run.iterations > 0)
                g_msPerFrame[run.run_name.function_name] =
                    run.GetAdjustedRealTime() * 1e3 / benchmark::GetTimeUnitMultiplier(run.time_unit);
        ConsoleReporter::ReportRuns(runs);
    }
};

}  // namespace

int main(int argc, char** argv) {
    g_file = (std::filesystem::path(ESVIEW_SHARED_DIR) / "models/pod/nsdk/nsdk_Bumpmap_scene.pod").string();
    if (argc > 1 && argv[1][0] != '-') {
        g_file = argv[1];
        --argc;
        ++argv;
    }
    if (!std::filesystem::exists(g_file)) {
        std::printf(
            "bench_frame: %s not found (the shared sample models are not beside the repository); skipped\n",
            g_file.c_str());
        return 0;
    }
    std::printf("scene: %s at %dx%d\n", g_file.c_str(), kWidth, kHeight);
    benchmark::RegisterBenchmark("frame/renderer_es3", frame, false)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("frame/renderer_es2_mode", frame, true)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("frame/baseline_one_draw", baseline)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::Initialize(&argc, argv);
    Collector reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    const double base = g_msPerFrame["frame/baseline_one_draw"];
    if (base > 0.0)
        for (const char* name : {"frame/renderer_es3", "frame/renderer_es2_mode"})
            if (g_msPerFrame.count(name))
                std::printf("%s: %.2f ms per frame = %.2f x the one-draw baseline (%.2f ms)\n", name,
                            g_msPerFrame[name], g_msPerFrame[name] / base, base);
    printCharacters();
    benchmark::Shutdown();
    return 0;
}
