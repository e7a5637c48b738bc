#include "app/viewer_window.h"

#include <glad/gles2.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "app/commands.h"
#include "app/egl_context.h"
#include "app/file_browser.h"
#include "app/panels.h"
#include "app/render_command.h"
#include "app/scene_loader.h"
#include "app/viewer_actions.h"
#include "app/viewer_script.h"
#include "app/viewer_state.h"
#include "renderer/gl_calls.h"

namespace esv {
namespace {

void glfwErrorCallback(int code, const char* description) {
    std::fprintf(stderr, "esview: window system error 0x%X: %s\n", code, description);
}

// Everything the frame loop owns besides the state.
struct Viewer {
    GLFWwindow* window = nullptr;
    ViewerState state;
    SceneLoader loader;
    FileBrowser browser;
    bool reloading = false;  // the load in flight keeps the view (reload), or frames the new scene
    bool scripted = false;   // fixed time step, panel layout neither read nor saved
    std::string layoutFile;  // ImGui's window layout, in the configuration folder
    // Mouse drag tracking and keys.
    bool rotating = false, panning = false;
    double pressX = 0.0, pressY = 0.0, lastX = 0.0, lastY = 0.0;
    bool leftWasDown = false;
    bool keysDown[GLFW_KEY_LAST + 1] = {};
    // Keys a script holds down (GLFW key -> frames left), read exactly like real keys.
    std::map<int, int> scriptKeys;
    bool hidePanels = false;
};

Viewer* g_viewer = nullptr;  // for GLFW callbacks (one window per process)

// Dropped files: the first model file opens, a folder (or a VP archive) opens in the browser, anything
// else is a status line.
void onDrop(GLFWwindow*, int count, const char** paths) {
    if (!g_viewer) return;
    ViewerState& s = g_viewer->state;
    for (int i = 0; i < count; ++i) {
        if (FileBrowser::isFolder(paths[i])) {  // a folder or a VP archive: shown in the browser
            g_viewer->browser.setDirectory(paths[i]);
            s.panel(PanelId::Browser) = true;
            continue;
        }
        if (isModelFileName(paths[i])) {
            s.requestOpen = paths[i];
            return;
        }
        s.status = std::string("not a model file esview opens: ") + paths[i];
    }
}

void startLoad(Viewer& v, const std::string& path, bool reload) {
    ViewerState& s = v.state;
    v.loader.start(path, targetCaps(s.rendererInfo));
    v.reloading = reload;
    s.load.active = true;
    s.load.path = path;
    s.load.progress = 0.0f;
    s.load.stage = "reading";
    s.load.error.clear();
}

// Installs a finished load, or keeps the previous scene and shows why it failed.
void finishLoad(Viewer& v, LoadedScene& result) {
    ViewerState& s = v.state;
    const std::string path = v.loader.path();
    s.load.active = false;
    if (!result.prepared) {
        std::string text;
        for (const Problem& p : result.problems) text += (text.empty() ? "" : "\n") + p.format();
        s.load.error = text.empty() ? path + ": could not be loaded" : text;
        // A reload that fails (file half-written) must not retry every frame: wait for the next change.
        if (v.reloading) s.fileStamp = fileStamp(s.path);
        return;
    }
    std::string error;
    if (!installScene(s, std::move(result.loaded), std::move(result.prepared), path, v.reloading, error)) {
        s.load.error = path + ": " + error;
        return;
    }
    s.load.error.clear();
    s.status = (v.reloading ? "reloaded " : "opened ") + path;
    if (!isDemoName(path)) {
        addRecentFile(s.recentFiles, path);
        saveRecentFiles(s.recentFiles);
    }
}

// ES2 limits on or off: a new renderer, and the scene as loaded prepared again for it (textures it
// cannot sample decoded, batches split to its palette, types it cannot read widened), keeping the
// view. The file is not read again.
void recreateRenderer(Viewer& v) {
    ViewerState& s = v.state;
    RendererOptions options;
    options.gles2 = s.gles2;
    std::string error;
    std::unique_ptr<Renderer> renderer = Renderer::create(options, error);
    if (!renderer) {
        s.status = "cannot switch renderer: " + error;
        s.gles2 = !s.gles2;
        return;
    }
    s.renderer = std::move(renderer);
    s.rendererInfo = s.renderer->info();
    if (s.loaded && !reprepareScene(s, error)) {
        s.status = "cannot draw the scene with this renderer: " + error;
        return;
    }
    s.status = s.gles2 ? "ES2 limits enforced" : "ES3 features in use";
}

bool saveScreenshot(Viewer& v, int width, int height) {
    ViewerState& s = v.state;
    const std::string path = s.requestScreenshot;
    s.requestScreenshot.clear();
    std::vector<uint8_t> rgba;
    if (s.screenshotWidth > 0 && s.scene) {
        OffscreenTarget target;
        std::string error;
        if (!target.create(s.screenshotWidth, s.screenshotHeight, error)) {
            s.status = "screenshot: " + error;
            return false;
        }
        target.bind();
        s.renderer->draw(*s.scene, s.pose, s.view, s.screenshotWidth, s.screenshotHeight);
        target.read(rgba);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        width = s.screenshotWidth;
        height = s.screenshotHeight;
    } else {
        std::vector<uint8_t> pixels(size_t(width) * height * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
        // GL rows run bottom-up; PNG rows top-down. The window has no use for alpha.
        rgba.resize(pixels.size());
        const size_t row = size_t(width) * 4;
        for (int y = 0; y < height; ++y)
            std::copy_n(pixels.data() + size_t(height - 1 - y) * row, row, rgba.data() + size_t(y) * row);
        for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
    }
    if (!writePng(path, width, height, rgba)) {
        s.status = "cannot write " + path;
        return false;
    }
    s.status = "saved " + path;
    return true;
}

// Moves the orbit target in the view plane: `right` along the screen's x, `up` along its y (scene units).
void panOrbit(OrbitCamera& orbit, float right, float up) {
    const glm::vec3 forward = Renderer::orbitDirection(orbit);
    const glm::vec3 rightDir = glm::normalize(glm::cross(Renderer::orbitUp(orbit), forward));
    const glm::vec3 upDir = glm::cross(forward, rightDir);
    orbit.target += rightDir * right + upDir * up;
}

// Mouse: left drag orbits, right/middle drag (or shift+left) pans, wheel zooms (ctrl+wheel: field of
// view), horizontal wheel orbits; a left click without a drag picks, a double click frames it.
void mouseInput(Viewer& v) {
    ImGuiIO& io = ImGui::GetIO();
    ViewerState& s = v.state;
    OrbitCamera& orbit = s.view.orbit;
    double x, y;
    glfwGetCursorPos(v.window, &x, &y);
    const bool left = glfwGetMouseButton(v.window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    if (!io.WantCaptureMouse) {
        const bool right = glfwGetMouseButton(v.window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                           glfwGetMouseButton(v.window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
        const bool shift = io.KeyShift;
        const double dx = x - v.lastX, dy = y - v.lastY;
        if (left && !v.leftWasDown) {
            v.pressX = x;
            v.pressY = y;
            // Clicking the 3D view gives it the keyboard.
            ImGui::SetWindowFocus(nullptr);
        }
        if (left && !shift && v.rotating) {
            s.view.camera = -1;
            orbit.yaw -= float(dx) * 0.01f;
            orbit.pitch = std::clamp(orbit.pitch + float(dy) * 0.01f, -1.55f, 1.55f);
        }
        if ((right || (left && shift)) && v.panning) {
            s.view.camera = -1;
            // Pan in the view plane, scaled so the point under the cursor follows it.
            const float scale = orbit.distance * 2.0f * std::tan(0.5f * orbit.yfov) /
                                float(std::max(s.framebufferHeight, 1));
            panOrbit(orbit, float(dx) * scale, float(dy) * scale);
        }
        v.rotating = left && !shift;
        v.panning = right || (left && shift);
        if (!left && v.leftWasDown && std::abs(x - v.pressX) < 3.0 && std::abs(y - v.pressY) < 3.0 && s.scene) {
            const float fx = float(x) * io.DisplayFramebufferScale.x, fy = float(y) * io.DisplayFramebufferScale.y;
            selectNode(s, pickAt(s, fx, fy));
        }
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && s.selection.node >= 0) frameSelection(s);
        if (io.MouseWheel != 0.0f) {
            if (io.KeyCtrl) {
                orbit.yfov = std::clamp(orbit.yfov * std::pow(0.95f, io.MouseWheel), 0.05f, 2.6f);
            } else {
                orbit.distance *= std::pow(0.88f, io.MouseWheel);
            }
        }
        if (io.MouseWheelH != 0.0f) orbit.yaw += io.MouseWheelH * 0.05f;
    } else {
        v.rotating = v.panning = false;
    }
    v.leftWasDown = left;
    v.lastX = x;
    v.lastY = y;
    orbit.distance = std::max(orbit.distance, 1e-4f);
}

// Keyboard-only use: everything the mouse does has a key (embedded devices often have no pointer).
void keyboardInput(Viewer& v, float dt) {
    ImGuiIO& io = ImGui::GetIO();
    ViewerState& s = v.state;
    auto down = [&](int key) { return glfwGetKey(v.window, key) == GLFW_PRESS || v.scriptKeys.count(key) > 0; };
    auto pressed = [&](int key) {
        const bool now = down(key);
        const bool was = v.keysDown[key];
        v.keysDown[key] = now;
        return now && !was;
    };
    // The keyboard drives the viewport unless a panel window has focus (clicked, or F6): then ImGui
    // navigates the panel with it. F6 moves the focus between the main panel and the viewport.
    if (pressed(GLFW_KEY_F6)) {
        if (io.WantCaptureKeyboard) ImGui::SetWindowFocus(nullptr);
        else ImGui::SetWindowFocus("esview");
        return;
    }
    if (io.WantCaptureKeyboard || io.WantTextInput) {
        // Keep edge detection in step while the panel has the keys.
        for (int key = GLFW_KEY_SPACE; key <= GLFW_KEY_LAST; ++key) v.keysDown[key] = down(key);
        return;
    }
    if (!s.scene) return;
    const Scene& scene = *s.scene;
    OrbitCamera& orbit = s.view.orbit;
    const bool shift = io.KeyShift || down(GLFW_KEY_LEFT_SHIFT), ctrl = io.KeyCtrl || down(GLFW_KEY_LEFT_CONTROL);
    const float turn = 1.5f * dt;
    if (!shift) {
        if (down(GLFW_KEY_LEFT) || down(GLFW_KEY_A)) orbit.yaw += turn;
        if (down(GLFW_KEY_RIGHT) || down(GLFW_KEY_D)) orbit.yaw -= turn;
        if (down(GLFW_KEY_UP)) orbit.pitch = std::min(orbit.pitch + turn, 1.55f);
        if (down(GLFW_KEY_DOWN)) orbit.pitch = std::max(orbit.pitch - turn, -1.55f);
    } else {
        // Shift+arrows pan.
        const float step = orbit.distance * dt;
        panOrbit(orbit, (down(GLFW_KEY_LEFT) ? step : 0.0f) - (down(GLFW_KEY_RIGHT) ? step : 0.0f),
                 (down(GLFW_KEY_DOWN) ? step : 0.0f) - (down(GLFW_KEY_UP) ? step : 0.0f));
    }
    if (down(GLFW_KEY_EQUAL) || down(GLFW_KEY_KP_ADD) || down(GLFW_KEY_PAGE_UP) || (down(GLFW_KEY_W) && shift))
        orbit.distance *= 1.0f - dt;
    if (down(GLFW_KEY_MINUS) || down(GLFW_KEY_KP_SUBTRACT) || down(GLFW_KEY_PAGE_DOWN) || (down(GLFW_KEY_S) && shift))
        orbit.distance *= 1.0f + dt;
    Transport& t = s.transport;
    if (pressed(GLFW_KEY_SPACE)) {
        if (shift) {
            t.speed = -std::abs(t.speed == 0.0f ? 1.0f : t.speed);
            t.playing = true;
        } else {
            t.playing = !t.playing;
        }
    }
    if (pressed(GLFW_KEY_COMMA)) stepFrames(scene, t, -1);
    if (pressed(GLFW_KEY_PERIOD)) stepFrames(scene, t, 1);
    if (pressed(GLFW_KEY_LEFT_BRACKET)) stepKeys(scene, t, -1);
    if (pressed(GLFW_KEY_RIGHT_BRACKET)) stepKeys(scene, t, 1);
    if (pressed(GLFW_KEY_HOME)) jumpToStart(scene, t);
    if (pressed(GLFW_KEY_END)) jumpToEnd(scene, t);
    if (pressed(GLFW_KEY_F)) frameScene(s);
    if (pressed(GLFW_KEY_G)) frameSelection(s);
    const bool r = pressed(GLFW_KEY_R);
    if (r && !ctrl) resetView(s);
    if (pressed(GLFW_KEY_F5) || (r && ctrl)) s.requestReload = true;
    if (pressed(GLFW_KEY_O) && ctrl) s.panel(PanelId::Browser) = true;
    if (pressed(GLFW_KEY_H)) v.hidePanels = !v.hidePanels;
    if (pressed(GLFW_KEY_K)) s.view.showSkeleton = !s.view.showSkeleton;
    if (pressed(GLFW_KEY_W) && !shift) s.view.wireframeOverlay = !s.view.wireframeOverlay;
    if (pressed(GLFW_KEY_C)) {
        // Cycle orbit -> camera 0 -> camera 1 ... -> orbit.
        const int count = int(scene.cameras.size());
        s.view.camera = s.view.camera + 1 >= count ? -1 : s.view.camera + 1;
    }
    if (pressed(GLFW_KEY_P)) {
        char name[64];
        std::snprintf(name, sizeof(name), "esview-%lld.png", static_cast<long long>(std::time(nullptr)));
        s.requestScreenshot = name;
        s.screenshotWidth = s.screenshotHeight = 0;
    }
    if (pressed(GLFW_KEY_TAB)) {
        // Tab / Shift+Tab walk the selection through the nodes.
        const int count = int(scene.nodes.size());
        if (count > 0) selectNode(s, ((s.selection.node < 0 ? (shift ? 0 : -1) : s.selection.node) + (shift ? count - 1 : 1)) % count);
    }
    for (int m = 0; m < int(ViewMode::Count) && m < 9; ++m)
        if (pressed(GLFW_KEY_1 + m)) s.view.mode = ViewMode(m);
    if (pressed(GLFW_KEY_ESCAPE)) {
        if (s.selection.node >= 0) selectNode(s, -1);
        else glfwSetWindowShouldClose(v.window, GLFW_TRUE);
    }
    orbit.distance = std::max(orbit.distance, 1e-4f);
}

// GLFW key for a script's key name: a-z, 0-9, f1-f12, and the names below.
int keyFromName(const std::string& name) {
    if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') return GLFW_KEY_A + (name[0] - 'a');
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') return GLFW_KEY_0 + (name[0] - '0');
    if (name.size() >= 2 && name[0] == 'f' && name.find_first_not_of("0123456789", 1) == std::string::npos) {
        const int n = std::atoi(name.c_str() + 1);
        if (n >= 1 && n <= 12) return GLFW_KEY_F1 + n - 1;
    }
    static const std::map<std::string, int> kNames = {
        {"space", GLFW_KEY_SPACE}, {"left", GLFW_KEY_LEFT}, {"right", GLFW_KEY_RIGHT}, {"up", GLFW_KEY_UP},
        {"down", GLFW_KEY_DOWN}, {"home", GLFW_KEY_HOME}, {"end", GLFW_KEY_END}, {"pageup", GLFW_KEY_PAGE_UP},
        {"pagedown", GLFW_KEY_PAGE_DOWN}, {"tab", GLFW_KEY_TAB}, {"escape", GLFW_KEY_ESCAPE}, {"enter", GLFW_KEY_ENTER},
        {"comma", GLFW_KEY_COMMA}, {"period", GLFW_KEY_PERIOD}, {"[", GLFW_KEY_LEFT_BRACKET},
        {"]", GLFW_KEY_RIGHT_BRACKET}, {"plus", GLFW_KEY_EQUAL}, {"minus", GLFW_KEY_MINUS},
        {"shift", GLFW_KEY_LEFT_SHIFT}, {"ctrl", GLFW_KEY_LEFT_CONTROL}};
    auto it = kNames.find(name);
    return it == kNames.end() ? -1 : it->second;
}

// The rectangles of the panels drawn this frame (top-level windows; not tooltips, popups, child
// windows, nor the viewport's banners and input-less overlays).
std::vector<PixelRect> panelRects() {
    std::vector<PixelRect> rects;
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->Active || w->Hidden) continue;
        if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup |
                        ImGuiWindowFlags_NoInputs))
            continue;
        // ImGui's implicit "Debug##Default", the viewport's own banners ("##loading", "##loaderror")
        // and the file browser, a dialog that comes and goes over the view.
        if (w->Name && (std::strncmp(w->Name, "Debug##", 7) == 0 || std::strncmp(w->Name, "##", 2) == 0 ||
                        std::strcmp(w->Name, kBrowserTitle) == 0))
            continue;
        rects.push_back({w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y});
    }
    return rects;
}

void drawPanels(Viewer& v) {
    ViewerState& s = v.state;
    drawViewportOverlay(s);
    if (v.hidePanels) return;
    drawMainPanel(s);
    drawBrowserPanel(s, v.browser);
    drawTreePanel(s);
    drawInspectorPanel(s);
    drawReportPanel(s);
    drawSkinningPanel(s);
    drawPofPanel(s);
    drawStatsOverlay(s);
}

}  // namespace

int runViewer(const ViewerOptions& options) {
    std::optional<ScriptRunner> script;
    if (!options.script.empty()) {
        Script parsed;
        std::vector<std::string> errors;
        if (!loadScript(options.script, parsed, errors)) {
            for (const std::string& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
            return kExitBadInput;
        }
        script.emplace(std::move(parsed));
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
    const std::string title = "esview - " + options.file;
    GLFWwindow* window = glfwCreateWindow(options.width, options.height, title.c_str(), nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "esview: cannot create a GLES window\n");
        glfwTerminate();
        return kExitBadInput;
    }
    gl::installCallCounter();
    glfwMakeContextCurrent(window);
    const bool scripted = options.maxFrames > 0 || script.has_value();
    glfwSwapInterval(scripted ? 0 : 1);
    if (!gladLoadGLES2(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        std::fprintf(stderr, "esview: cannot load the GLES entry points\n");
        glfwDestroyWindow(window);
        glfwTerminate();
        return kExitBadInput;
    }
    keepGraphicsDriversLoaded();

    int exitCode = kExitOk;
    {
        auto viewer = std::make_unique<Viewer>();
        Viewer& v = *viewer;
        ViewerState& s = v.state;
        v.window = window;
        v.scripted = scripted;
        g_viewer = &v;
        s.gles2 = options.gles2;
        RendererOptions ropts;
        ropts.gles2 = options.gles2;
        std::string error;
        s.renderer = Renderer::create(ropts, error);
        if (!s.renderer) {
            std::fprintf(stderr, "esview: %s\n", error.c_str());
            exitCode = kExitBadInput;
        } else {
            s.rendererInfo = s.renderer->info();
            s.recentFiles = loadRecentFiles();
            const std::string start = FileBrowser::folderOf(options.file);
            v.browser.setDirectory(!start.empty() && FileBrowser::isFolder(start) ? start : ".");

            IMGUI_CHECKVERSION();
            ImGui::CreateContext();
            ImGuiIO& io = ImGui::GetIO();
            v.layoutFile = scripted ? std::string() : configFilePath("imgui.ini");
            io.IniFilename = v.layoutFile.empty() ? nullptr : v.layoutFile.c_str();
            io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
            ImGui::StyleColorsDark();
            ImGui_ImplGlfw_InitForOpenGL(window, true);
            ImGui_ImplOpenGL3_Init(options.gles2 ? "#version 100" : "#version 300 es");
            glfwSetDropCallback(window, onDrop);

            startLoad(v, options.file, false);
            ScriptHost host;
            host.drop = [&](const std::vector<std::string>& paths) {
                // Through the callback GLFW calls, exactly as a real drop.
                std::vector<const char*> pointers;
                for (const std::string& p : paths) pointers.push_back(p.c_str());
                GLFWdropfun callback = glfwSetDropCallback(window, nullptr);
                glfwSetDropCallback(window, callback);
                if (callback) callback(window, int(pointers.size()), pointers.data());
            };
            host.press = [&](const std::string& keys, int frames, std::string& err) {
                // "shift+space": every part is held for the same frames.
                std::vector<int> codes;
                size_t from = 0;
                while (from <= keys.size()) {
                    const size_t plus = keys.find('+', from);
                    const std::string part = keys.substr(from, plus == std::string::npos ? std::string::npos : plus - from);
                    const int code = keyFromName(part);
                    if (code < 0) {
                        err = "unknown key '" + part + "'";
                        return false;
                    }
                    codes.push_back(code);
                    if (plus == std::string::npos) break;
                    from = plus + 1;
                }
                for (int code : codes) v.scriptKeys[code] = std::max(frames, 1);
                return true;
            };
            host.browse = [&](const std::string& dir, std::string& err) {
                if (!v.browser.setDirectory(dir)) {
                    err = v.browser.error();
                    return false;
                }
                s.panel(PanelId::Browser) = true;
                return true;
            };

            double last = glfwGetTime();
            for (int frame = 0; !glfwWindowShouldClose(window) && !s.requestQuit; ++frame) {
                glfwPollEvents();
                const double now = glfwGetTime();
                // Scripted runs step at a fixed rate so screenshots do not depend on timing.
                const float dt = scripted ? 1.0f / 30.0f : float(std::min(now - last, 0.25));
                last = now;
                const auto cpuStart = std::chrono::steady_clock::now();

                // Loading: finished work, new requests, the file changing on disk.
                LoadedScene result;
                if (v.loader.poll(result)) {
                    finishLoad(v, result);
                    if (!s.scene) {
                        // The first file could not be opened: nothing to show.
                        std::fprintf(stderr, "%s\n", s.load.error.c_str());
                        exitCode = kExitBadInput;
                        break;
                    }
                }
                if (s.load.active) v.loader.progress(s.load.progress, s.load.stage);
                if (s.requestRecreateRenderer) {
                    s.requestRecreateRenderer = false;
                    recreateRenderer(v);
                }
                if (!s.requestOpen.empty()) {
                    startLoad(v, s.requestOpen, false);
                    s.requestOpen.clear();
                } else if (s.requestReload) {
                    if (!s.path.empty()) startLoad(v, s.path, true);
                } else if (s.watchFile && s.scene && !s.load.active && !isDemoName(s.path) && (scripted || frame % 15 == 0)) {
                    const int64_t stamp = fileStamp(s.path);
                    if (stamp != 0 && stamp != s.fileStamp) {
                        s.fileStamp = stamp;
                        startLoad(v, s.path, true);
                    }
                }
                s.requestReload = false;

                ImGui_ImplOpenGL3_NewFrame();
                ImGui_ImplGlfw_NewFrame();
                ImGui::NewFrame();
                if (s.scene) {
                    mouseInput(v);
                    keyboardInput(v, dt);
                }
                for (auto it = v.scriptKeys.begin(); it != v.scriptKeys.end();)
                    it = --it->second <= 0 ? v.scriptKeys.erase(it) : std::next(it);
                if (s.scene) {
                    advanceTransport(*s.scene, s.transport, dt);
                }
                s.pof.clockSeconds += dt;
                if (script) {
                    script->runFrame(s, host);
                    if (script->failed()) {
                        std::fprintf(stderr, "%s\n", script->error().c_str());
                        exitCode = kExitBadInput;
                    }
                }
                if (s.scene) updatePose(s);
                drawPanels(v);
                // New windows take the focus when they first appear; the keyboard starts on the viewport.
                if (frame == 1) ImGui::SetWindowFocus(nullptr);

                int width, height;
                glfwGetFramebufferSize(window, &width, &height);
                s.framebufferWidth = width;
                s.framebufferHeight = height;
                // Framing fits the part of the window the panels of this frame leave free.
                updateViewRegion(s, panelRects(), ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y);
                ImGui::Render();

                glBindFramebuffer(GL_FRAMEBUFFER, 0);
                if (s.scene) {
                    s.stats = s.renderer->draw(*s.scene, s.pose, s.view, width, height);
                    // What the renderer could not do is said once, in the import report.
                    for (const std::string& note : s.stats.notes) s.scene->warn(note);
                } else {
                    glViewport(0, 0, width, height);
                    glClearColor(s.view.clearColor.r, s.view.clearColor.g, s.view.clearColor.b, 1.0f);
                    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
                }
                ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
                s.cpuFrameMs = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - cpuStart).count();

                const bool lastFrame = options.maxFrames > 0 && frame + 1 >= options.maxFrames;
                if (lastFrame && !options.screenshot.empty()) s.requestScreenshot = options.screenshot;
                if (!s.requestScreenshot.empty()) {
                    if (!saveScreenshot(v, width, height)) {
                        std::fprintf(stderr, "esview: %s\n", s.status.c_str());
                        if (scripted) exitCode = kExitBadInput;
                    }
                }
                glfwSwapBuffers(window);
                if (lastFrame) break;
            }
            // A load still running finishes before its scene is dropped.
            v.loader.wait();
            ImGui_ImplOpenGL3_Shutdown();
            ImGui_ImplGlfw_Shutdown();
            ImGui::DestroyContext();
        }
        s.renderer.reset();  // GL objects go while the context is current
        g_viewer = nullptr;
    }
    glfwDestroyWindow(window);
    glfwTerminate();
    return exitCode;
}

}  // namespace esv
