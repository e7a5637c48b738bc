#include "app/viewer_window.h"

#include <glad/gles2.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "app/commands.h"
#include "app/egl_context.h"
#include "loaders/textures/scene_textures.h"
#include "app/render_command.h"
#include "app/scene_source.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/rebatch.h"

namespace esv {
namespace {

// Playback state of the panel.
struct Playback {
    int clip = -1;
    float seconds = 0.0f;  // relative to the clip's start
    float speed = 1.0f;
    bool playing = true;
    bool loop = true;
};

struct ViewerState {
    std::unique_ptr<Scene> scene;
    std::unique_ptr<Renderer> renderer;
    ViewSettings view;
    Playback playback;
    Pose pose;
    FrameStats stats;
    Bounds frameBounds;
    // Mouse drag tracking.
    bool rotating = false, panning = false;
    double lastX = 0.0, lastY = 0.0;
    bool keysDown[512] = {};
};

void glfwErrorCallback(int code, const char* description) {
    std::fprintf(stderr, "esview: window system error 0x%X: %s\n", code, description);
}

void frameScene(ViewerState& s) {
    if (s.frameBounds.valid()) Renderer::frameBounds(s.view.orbit, s.frameBounds.min, s.frameBounds.max);
}

// The box the camera frames: the rest pose and a few times of the clip, so the animated scene
// stays in view while it plays.
Bounds playbackBounds(const Scene& scene, int clip) {
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    Bounds bounds = sceneBounds(scene, pose);
    if (clip < 0) return bounds;
    const Clip& c = scene.animation.clips[clip];
    constexpr int kSamples = 8;
    for (int i = 0; i <= kSamples; ++i) {
        evaluatePose(scene, clip, c.start + c.duration() * float(i) / kSamples, pose);
        bounds.add(sceneBounds(scene, pose));
    }
    return bounds;
}

float clipDuration(const Scene& scene, int clip) {
    return clip >= 0 ? scene.animation.clips[clip].duration() : 0.0f;
}

void advance(ViewerState& s, float dt) {
    Playback& p = s.playback;
    const float duration = clipDuration(*s.scene, p.clip);
    if (p.playing && duration > 0.0f) {
        p.seconds += dt * p.speed;
        if (p.loop) {
            p.seconds = std::fmod(p.seconds, duration);
            if (p.seconds < 0.0f) p.seconds += duration;
        } else {
            p.seconds = std::clamp(p.seconds, 0.0f, duration);
        }
    }
    const float start = p.clip >= 0 ? s.scene->animation.clips[p.clip].start : 0.0f;
    evaluatePose(*s.scene, p.clip, start + p.seconds, s.pose);
}

void handleInput(GLFWwindow* window, ViewerState& s, float dt) {
    ImGuiIO& io = ImGui::GetIO();
    OrbitCamera& orbit = s.view.orbit;
    double x, y;
    glfwGetCursorPos(window, &x, &y);
    if (!io.WantCaptureMouse) {
        bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
        bool right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                     glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
        bool shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS;
        const double dx = x - s.lastX, dy = y - s.lastY;
        if (left && !shift && s.rotating) {
            orbit.yaw -= static_cast<float>(dx) * 0.01f;
            orbit.pitch = std::clamp(orbit.pitch + static_cast<float>(dy) * 0.01f, -1.55f, 1.55f);
        }
        if ((right || (left && shift)) && s.panning) {
            // Pan in the view plane, scaled so the point under the cursor follows it.
            const float scale = orbit.distance * 0.0015f;
            glm::vec3 forward(std::cos(orbit.pitch) * std::sin(orbit.yaw), std::sin(orbit.pitch),
                              std::cos(orbit.pitch) * std::cos(orbit.yaw));
            glm::vec3 rightDir = glm::normalize(glm::cross(glm::vec3(0, 1, 0), forward));
            glm::vec3 up = glm::cross(forward, rightDir);
            orbit.target += rightDir * float(dx) * scale + up * float(dy) * scale;
        }
        s.rotating = left && !shift;
        s.panning = right || (left && shift);
        if (io.MouseWheel != 0.0f) orbit.distance *= std::pow(0.88f, io.MouseWheel);
    }
    s.lastX = x;
    s.lastY = y;
    if (!io.WantCaptureKeyboard) {
        auto down = [window](int key) { return glfwGetKey(window, key) == GLFW_PRESS; };
        // Edge-triggered keys: act once per press.
        auto pressed = [&](int key) {
            bool now = down(key);
            bool was = s.keysDown[key & 511];
            s.keysDown[key & 511] = now;
            return now && !was;
        };
        const float turn = 1.5f * dt;
        if (down(GLFW_KEY_LEFT)) orbit.yaw += turn;
        if (down(GLFW_KEY_RIGHT)) orbit.yaw -= turn;
        if (down(GLFW_KEY_UP)) orbit.pitch = std::min(orbit.pitch + turn, 1.55f);
        if (down(GLFW_KEY_DOWN)) orbit.pitch = std::max(orbit.pitch - turn, -1.55f);
        if (down(GLFW_KEY_EQUAL) || down(GLFW_KEY_KP_ADD)) orbit.distance *= 1.0f - dt;
        if (down(GLFW_KEY_MINUS) || down(GLFW_KEY_KP_SUBTRACT)) orbit.distance *= 1.0f + dt;
        if (pressed(GLFW_KEY_F)) frameScene(s);
        if (pressed(GLFW_KEY_SPACE)) s.playback.playing = !s.playback.playing;
        if (pressed(GLFW_KEY_ESCAPE)) glfwSetWindowShouldClose(window, GLFW_TRUE);
    }
    orbit.distance = std::max(orbit.distance, 1e-4f);
}

void drawPanel(ViewerState& s) {
    const Scene& scene = *s.scene;
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(330, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("esview");
    ImGui::Text("%s (%s)", scene.sourcePath.c_str(), scene.format.c_str());
    ImGui::Text("%zu nodes, %zu meshes, %zu materials, %zu lights", scene.nodes.size(), scene.meshes.size(),
                scene.materials.size(), scene.lights.size());
    ImGui::Text("%u draws, %u triangles, %.1f fps", s.stats.drawCalls, s.stats.triangles, ImGui::GetIO().Framerate);

    if (ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) {
        Playback& p = s.playback;
        const char* current = p.clip >= 0 ? scene.animation.clips[p.clip].name.c_str() : "(rest pose)";
        if (ImGui::BeginCombo("clip", current)) {
            if (ImGui::Selectable("(rest pose)", p.clip < 0)) p.clip = -1;
            for (size_t i = 0; i < scene.animation.clips.size(); ++i)
                if (ImGui::Selectable(scene.animation.clips[i].name.c_str(), p.clip == int(i))) {
                    p.clip = int(i);
                    p.seconds = 0.0f;
                    s.frameBounds = playbackBounds(scene, p.clip);
                }
            ImGui::EndCombo();
        }
        if (ImGui::Button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
        ImGui::SameLine();
        if (ImGui::Button("|<")) p.seconds = 0.0f;
        ImGui::SameLine();
        ImGui::Checkbox("loop", &p.loop);
        const float duration = clipDuration(scene, p.clip);
        ImGui::SliderFloat("time (s)", &p.seconds, 0.0f, std::max(duration, 1e-3f), "%.3f");
        if (scene.animation.fps > 0.0f)
            ImGui::Text("frame %.2f at %.0f fps", p.seconds * scene.animation.fps, scene.animation.fps);
        ImGui::SliderFloat("speed", &p.speed, -2.0f, 2.0f, "%.2fx");
    }
    if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) {
        int mode = static_cast<int>(s.view.mode);
        const char* modes[static_cast<size_t>(ViewMode::Count)];
        for (size_t i = 0; i < static_cast<size_t>(ViewMode::Count); ++i) modes[i] = viewModeName(static_cast<ViewMode>(i));
        if (ImGui::Combo("mode", &mode, modes, static_cast<int>(ViewMode::Count))) s.view.mode = static_cast<ViewMode>(mode);
        if (s.view.mode == ViewMode::Weights) {
            const std::string current = s.view.weightBone >= 0 ? scene.nodes[s.view.weightBone].name : "strongest influence";
            if (ImGui::BeginCombo("bone", current.c_str())) {
                if (ImGui::Selectable("strongest influence", s.view.weightBone < 0)) s.view.weightBone = -1;
                for (size_t n = 0; n < scene.nodes.size(); ++n)
                    if (scene.nodes[n].kind == NodeKind::Bone &&
                        ImGui::Selectable((std::to_string(n) + ": " + scene.nodes[n].name).c_str(), s.view.weightBone == int(n)))
                        s.view.weightBone = int(n);
                ImGui::EndCombo();
            }
        }
        std::string cameraLabel = s.view.camera < 0 ? "orbit" : scene.cameras[s.view.camera].name;
        if (ImGui::BeginCombo("camera", cameraLabel.c_str())) {
            if (ImGui::Selectable("orbit", s.view.camera < 0)) s.view.camera = -1;
            for (size_t i = 0; i < scene.cameras.size(); ++i) {
                std::string label = std::to_string(i) + ": " + scene.cameras[i].name;
                if (ImGui::Selectable(label.c_str(), s.view.camera == int(i))) s.view.camera = int(i);
            }
            ImGui::EndCombo();
        }
        ImGui::SliderFloat("fov", &s.view.orbit.yfov, 0.1f, 2.5f, "%.2f rad");
        ImGui::Checkbox("headlight", &s.view.headlight);
        ImGui::Checkbox("skeleton", &s.view.showSkeleton);
        ImGui::SameLine();
        ImGui::Checkbox("normal lines", &s.view.showNormalLines);
        ImGui::SameLine();
        ImGui::Checkbox("tangent lines", &s.view.showTangentLines);
        if (ImGui::Button("Frame scene (F)")) frameScene(s);
    }
    if (ImGui::CollapsingHeader("Import report")) {
        for (const ReportLine& r : scene.report)
            ImGui::TextWrapped("%s%s", r.severity == Severity::Warning ? "warning: " : "", r.text.c_str());
    }
    ImGui::End();
}

}  // namespace

int runViewer(const ViewerOptions& options) {
    LoadResult loaded = openScene(options.file);
    if (!loaded.scene) {
        for (const Problem& p : loaded.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
        return kExitBadInput;
    }

    glfwSetErrorCallback(glfwErrorCallback);
    if (!glfwInit()) {
        std::fprintf(stderr, "esview: cannot open a window (no display?); try 'esview render FILE -o out.png'\n");
        return kExitBadInput;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, options.gles2 ? 2 : 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    std::string title = "esview - " + loaded.scene->sourcePath;
    GLFWwindow* window = glfwCreateWindow(options.width, options.height, title.c_str(), nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "esview: cannot create a GLES window\n");
        glfwTerminate();
        return kExitBadInput;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(options.maxFrames > 0 ? 0 : 1);
    if (!gladLoadGLES2(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        std::fprintf(stderr, "esview: cannot load the GLES entry points\n");
        glfwDestroyWindow(window);
        glfwTerminate();
        return kExitBadInput;
    }
    keepGraphicsDriversLoaded();

    int exitCode = kExitOk;
    {
        ViewerState s;
        s.scene = std::move(loaded.scene);
        RendererOptions ropts;
        ropts.gles2 = options.gles2;
        std::string error;
        s.renderer = Renderer::create(ropts, error);
        // Batches over this context's palette are split here, so GPU and CPU paths see the same mesh.
        if (s.renderer) {
            const RendererInfo info = s.renderer->info();
            rebatchSceneBones(*s.scene, uint32_t(info.paletteCapacity));
            prepareSceneTextures(*s.scene, [&](PixelFormat f) { return info.supports(f); });
        }
        if (!s.renderer || !s.renderer->setScene(*s.scene, s.scene->report, error)) {
            std::fprintf(stderr, "esview: %s\n", error.c_str());
            exitCode = kExitBadInput;
        } else {
            IMGUI_CHECKVERSION();
            ImGui::CreateContext();
            ImGui::GetIO().IniFilename = options.maxFrames > 0 ? nullptr : "esview-imgui.ini";
            ImGui::StyleColorsDark();
            ImGui_ImplGlfw_InitForOpenGL(window, true);
            ImGui_ImplOpenGL3_Init(options.gles2 ? "#version 100" : "#version 300 es");

            s.playback.clip = s.scene->animation.clips.empty() ? -1 : 0;
            s.frameBounds = playbackBounds(*s.scene, s.playback.clip);
            frameScene(s);

            double last = glfwGetTime();
            std::vector<uint8_t> pixels;
            for (int frame = 0; !glfwWindowShouldClose(window); ++frame) {
                glfwPollEvents();
                const double now = glfwGetTime();
                // Test runs step at a fixed rate so screenshots do not depend on timing.
                const float dt = options.maxFrames > 0 ? 1.0f / 30.0f : static_cast<float>(now - last);
                last = now;

                ImGui_ImplOpenGL3_NewFrame();
                ImGui_ImplGlfw_NewFrame();
                ImGui::NewFrame();
                handleInput(window, s, dt);
                advance(s, dt);
                drawPanel(s);
                ImGui::Render();

                int width, height;
                glfwGetFramebufferSize(window, &width, &height);
                glBindFramebuffer(GL_FRAMEBUFFER, 0);
                s.stats = s.renderer->draw(*s.scene, s.pose, s.view, width, height);
                ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

                const bool lastFrame = options.maxFrames > 0 && frame + 1 >= options.maxFrames;
                if (lastFrame && !options.screenshot.empty()) {
                    pixels.resize(size_t(width) * height * 4);
                    glPixelStorei(GL_PACK_ALIGNMENT, 1);
                    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
                    // GL rows run bottom-up; PNG rows top-down.
                    std::vector<uint8_t> flipped(pixels.size());
                    const size_t row = size_t(width) * 4;
                    for (int y = 0; y < height; ++y)
                        std::copy_n(pixels.data() + size_t(height - 1 - y) * row, row, flipped.data() + size_t(y) * row);
                    if (!writePng(options.screenshot, width, height, flipped)) {
                        std::fprintf(stderr, "esview: cannot write %s\n", options.screenshot.c_str());
                        exitCode = kExitBadInput;
                    }
                }
                glfwSwapBuffers(window);
                if (lastFrame) break;
            }
            ImGui_ImplOpenGL3_Shutdown();
            ImGui_ImplGlfw_Shutdown();
            ImGui::DestroyContext();
        }
        s.renderer.reset();  // GL objects go while the context is current
    }
    glfwDestroyWindow(window);
    glfwTerminate();
    return exitCode;
}

}  // namespace esv
