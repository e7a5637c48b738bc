#include "app/viewer/viewer_loop.h"

#include <glad/gles2.h>

#include <algorithm>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_impl_opengl3.h>

#include "app/viewer/exit_code.h"
#include "app/viewer/file_browser.h"
#include "app/viewer/golden_rule.h"
#include "app/viewer/host.h"
#include "app/viewer/panels.h"
#include "app/viewer/png_file.h"
#include "app/viewer/scene_loader.h"
#include "app/viewer/scene_source.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_script.h"
#include "app/viewer/viewer_state.h"
#include "loaders/textures/decode.h"
#include "prepare/prepare.h"
#include "renderer/camera.h"
#include "renderer/gl_calls.h"
#include "target/device_profiles.h"

namespace esv {
namespace {

// Everything the frame loop owns besides the state.
struct Viewer {
    Host* host = nullptr;
    ViewerState state;
    SceneLoader loader;
    SceneLoader compareLoader;  // B of File → Compare with… (compare_view.h)
    FileBrowser browser;
    bool reloading = false;  // the load in flight keeps the view (reload), or frames the new scene
    bool scripted = false;   // fixed time step, panel layout neither read nor saved
    std::string layoutFile;  // ImGui's window layout, in the configuration folder
    // The input as the host's events left it: pointer (window coordinates), buttons and keys held,
    // wheel steps of this frame, a request to close.
    double pointerX = 0.0, pointerY = 0.0;
    bool buttonsHeld[size_t(MouseButton::Count)] = {};
    bool keysHeld[size_t(Key::Count)] = {};
    // Pressed during this frame's events: a press released within the same frame (a tap or a click
    // on a slow frame, a double tap's key) still counts as held for this frame, released at the next.
    bool buttonsPressed[size_t(MouseButton::Count)] = {};
    bool keysPressed[size_t(Key::Count)] = {};
    double wheelX = 0.0, wheelY = 0.0;
    bool closeRequested = false;
    // The host's lifecycle: in the background (Pause until Resume), back this frame (its clocks do
    // not jump over the time away), and a context lost since the last frame.
    bool paused = false;
    bool resumed = false;
    bool contextLost = false;
    // Mouse drag tracking, and the keys as keyboardInput last saw them (for presses).
    bool rotating = false, panning = false;
    double pressX = 0.0, pressY = 0.0, lastX = 0.0, lastY = 0.0;
    bool leftWasDown = false;
    bool doubleClicked = false;  // the left button went down for a double click (its release picks nothing)
    bool keysDown[size_t(Key::Count)] = {};
    // Input a script gives (ScriptHost::input), which the panels see through Dear ImGui on top of
    // what the host's backend gives it: the pointer once a script moved it, buttons and keys held,
    // wheel steps and text of this frame.
    struct {
        bool pointer = false;
        double x = 0.0, y = 0.0;
        bool buttons[size_t(MouseButton::Count)] = {};
        bool keys[size_t(Key::Count)] = {};
        bool keysBefore[size_t(Key::Count)] = {};  // held last frame: a release must reach ImGui too
        double wheelX = 0.0, wheelY = 0.0;
        std::vector<uint32_t> text;
    } scriptInput;
    bool hidePanels = false;
    // Keyboard routing (routeKeyboard): F6 gave the panels the keys (an idle pointer over the 3D view
    // leaves them there until it moves), where the pointer was last frame, what held the keys before
    // Dear ImGui's new frame (for Esc), and ImGui's keys as the host left them while the view has them.
    bool panelsByKeyboard = false;
    ImVec2 lastPointer{-FLT_MAX, -FLT_MAX};
    struct {
        bool textEditing = false;
        int popups = 0;
        bool panelFocused = false;
    } keysBefore;
    bool imguiKeys[sizeof(ImGuiIO::KeysDown) / sizeof(bool)] = {};
    bool imguiKeysHidden = false;
};

bool held(const Viewer& v, MouseButton button) {
    return v.buttonsHeld[size_t(button)] || v.buttonsPressed[size_t(button)];
}

// A key held on the keyboard (or by a script's events).
bool held(const Viewer& v, Key key) {
    return v.keysHeld[size_t(key)] || v.keysPressed[size_t(key)];
}

bool shiftHeld(const Viewer& v) {
    return held(v, Key::LeftShift) || held(v, Key::RightShift);
}

bool controlHeld(const Viewer& v) {
    return held(v, Key::LeftControl) || held(v, Key::RightControl);
}

// A path's last component for a message ("photo.jpg"); the path itself when it ends in a separator.
std::string displayName(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    return name.empty() ? path : name;
}

// A message for a drop that opens nothing: in the load error box over the 3D view (and the status
// bar's first line), as a failed load shows, and in the status line once the box is dismissed.
void dropMessage(ViewerState& s, const std::string& message) {
    s.load.error = message;
    s.status = message;
}

// True when the browser's listing holds a model file or a VP archive, something a click opens.
bool listsModels(const FileBrowser& browser) {
    for (const BrowserEntry& e : browser.entries())
        if (e.archive || (!e.directory && isModelFileName(e.name))) return true;
    return false;
}

// Dropped files: the first model file opens, a folder (or a VP archive) opens in the browser, anything
// else says in one line why nothing opened, and so does a folder with no model file in it.
void dropPaths(Viewer& v, const std::vector<std::string>& paths) {
    ViewerState& s = v.state;
    // A model dropped with other files (its textures, as a browser drop of a model's files gives
    // them) opens, the first one when there are several; folders and archives go to the browser.
    std::vector<std::string> models, others;
    std::string folderMessage;
    for (const std::string& path : paths) {
        if (FileBrowser::isFolder(path)) {
            if (!v.browser.setDirectory(path))
                folderMessage = v.browser.error();
            else if (!listsModels(v.browser))
                folderMessage = displayName(path) + ": no model file esview opens in this folder (" +
                                modelExtensionsText() + ")";
            showPanel(s, PanelId::Browser);
        } else {
            (isModelFileName(path) ? models : others).push_back(path);
        }
    }
    if (!models.empty()) {
        s.requestOpen = models.front();
        if (models.size() > 1)
            s.status =
                std::to_string(models.size()) + " models dropped: opening the first, " + models.front();
    } else if (!others.empty()) {
        std::string names = displayName(others.front());
        if (others.size() > 1) names += " (and " + std::to_string(others.size() - 1) + " more)";
        dropMessage(s, names + ": not a model file esview opens (" + modelExtensionsText() + ")");
    } else if (!folderMessage.empty()) {
        dropMessage(s, folderMessage);
    }
}

// Input state from one host event. The panels get their input through the host's ImGui backend;
// the viewport reads this state once a frame (mouseInput, keyboardInput).
void handleEvent(Viewer& v, const Event& e) {
    switch (e.type) {
    case EventType::MouseMove:
        v.pointerX = e.x;
        v.pointerY = e.y;
        break;
    case EventType::MouseButton:
        if (e.button < MouseButton::Count) {
            v.buttonsHeld[size_t(e.button)] = e.down;
            if (e.down) v.buttonsPressed[size_t(e.button)] = true;
        }
        break;
    case EventType::Wheel:
        v.wheelX += e.x;
        v.wheelY += e.y;
        break;
    case EventType::Key:
        if (e.key < Key::Count) {
            v.keysHeld[size_t(e.key)] = e.down;
            if (e.down) v.keysPressed[size_t(e.key)] = true;
        }
        break;
    case EventType::Drop: dropPaths(v, e.paths); break;
    case EventType::Close: v.closeRequested = true; break;
    case EventType::Pause:
        v.paused = true;
        break;
    case EventType::Resume:
        v.resumed = v.paused;
        v.paused = false;
        break;
    case EventType::ContextLost:
        v.contextLost = true;
        break;
    case EventType::Text:    // typed text only matters to the panels
    case EventType::Resize:  // every frame reads the framebuffer size
        break;
    }
}

void startLoad(Viewer& v, const std::string& path, bool reload) {
    ViewerState& s = v.state;
    v.loader.start(path, targetCaps(s.rendererInfo), s.textureFolders);
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
    const auto uploadStart = std::chrono::steady_clock::now();
    if (!installScene(s, std::move(result.loaded), std::move(result.prepared), path, v.reloading, error)) {
        s.load.error = path + ": " + error;
        return;
    }
    s.loadTimes.readMs = result.readMs;
    s.loadTimes.texturesMs = result.texturesMs;
    s.loadTimes.prepareMs = result.prepareMs;
    s.loadTimes.uploadMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - uploadStart).count();
    s.load.error.clear();
    s.status = (v.reloading ? "reloaded " : "opened ") + path;
    if (!isDemoName(path)) {
        addRecentFile(s.recentFiles, path);
        saveRecentFiles(s.recentFiles);
    }
}

// The options A's renderer was made with: B's is made alike.
RendererOptions rendererOptions(const ViewerState& s) {
    RendererOptions options;
    options.gles2 = s.gles2;
    options.gles2Strict = s.gles2 && s.gles2Strict;
    options.device = s.device;
    return options;
}

// The difference picture's texture goes (with a context that is still current).
void deleteDiffTexture(ViewerState& s) {
    if (s.compare.diffTexture != 0) glDeleteTextures(1, &s.compare.diffTexture);
    s.compare.diffTexture = 0;
}

// B's requests (open, close) and its load: B is prepared for A's renderer's target and installed on
// a renderer of its own; with `checkFile` B is loaded again when its file changed on disk (while A's
// is watched). A failed load leaves B as it was and says why in the status bar.
void compareRequests(Viewer& v, bool checkFile) {
    ViewerState& s = v.state;
    CompareView& c = s.compare;
    // The browser picks B only while it is open (File → Compare with…).
    if (!s.panel(PanelId::Browser)) c.pickInBrowser = false;
    if (c.requestClose) {
        c.requestClose = false;
        c.requestOpen.clear();
        deleteDiffTexture(s);
        closeCompare(s);
        reframeIfUntouched(s);
        s.status = "comparison closed";
    }
    if (checkFile && c.active() && !c.loading && c.requestOpen.empty() && s.watchFile && !isDemoName(c.path)) {
        const int64_t stamp = fileStamp(c.path);
        if (stamp != 0 && stamp != c.fileStamp) c.requestOpen = c.path;
        c.fileStamp = stamp;  // a reload that fails waits for the next change
    }
    if (!c.requestOpen.empty()) {
        v.compareLoader.start(c.requestOpen, targetCaps(s.rendererInfo), s.textureFolders);
        c.loading = true;
        c.loadingPath = c.requestOpen;
        c.error.clear();
        c.requestOpen.clear();
    }
    LoadedScene result;
    if (!v.compareLoader.poll(result)) return;
    c.loading = false;
    std::string error;
    if (!result.prepared) {
        for (const Problem& p : result.problems) error += (error.empty() ? "" : "; ") + p.format();
        c.error = "compare: " + (error.empty() ? c.loadingPath + ": could not be loaded" : error);
    } else if (!installCompare(s, std::move(result.loaded), std::move(result.prepared), c.loadingPath,
                               rendererOptions(s), error)) {
        c.error = "compare: " + c.loadingPath + ": " + error;
    } else {
        reframeIfUntouched(s);
        s.status = "comparing with " + c.path;
        return;
    }
    s.status = c.error;
}

// B on a renderer made again (after a context loss, or with the ES2 limits switched: c.renderer is
// gone by then), prepared again from B as loaded when `reprepare`, else uploaded as it is. A B that
// cannot be drawn any more is closed, and false says why.
bool restoreCompare(ViewerState& s, bool reprepare, std::string& error) {
    CompareView& c = s.compare;
    if (!c.active()) return true;
    std::unique_ptr<Scene> prepared =
        reprepare ? prepareForTarget(*c.loaded, targetCaps(s.rendererInfo)) : std::move(c.scene);
    std::vector<ReportLine> report;
    if (!reprepare) std::swap(report, prepared->report);  // B's report has these lines from its first upload
    const std::string path = c.path;
    const std::shared_ptr<const Scene> loaded = c.loaded;
    c.scene.reset();
    if (installCompare(s, loaded, std::move(prepared), path, rendererOptions(s), error)) {
        if (!reprepare) std::swap(report, c.scene->report);
        return true;
    }
    closeCompare(s);
    return false;
}

// ES2 limits on or off: a new renderer, and the scene as loaded prepared again for it (textures it
// cannot sample decoded, batches split to its palette, types it cannot read widened), keeping the
// view. The file is not read again.
void recreateRenderer(Viewer& v) {
    ViewerState& s = v.state;
    RendererOptions options;
    options.gles2 = s.gles2;
    options.gles2Strict = s.gles2 && s.gles2Strict;
    options.device = s.device;
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
    s.compare.renderer.reset();
    if (!restoreCompare(s, true, error)) {
        s.status = "comparison closed: B cannot be drawn with this renderer: " + error;
        return;
    }
    s.status = !s.gles2        ? "ES3 features in use"
               : s.gles2Strict ? "strict ES2 device profile"
                               : "ES2 limits enforced";
}

// Dear ImGui's OpenGL3 backend (1.86) forgets its objects only by deleting them
// (ImGui_ImplOpenGL3_Shutdown). After a context loss its data (GL names and settings, trivially
// destructible, made by IM_NEW in ImGui's allocator) is freed as Shutdown frees it, without the GL
// calls; ImGui_ImplOpenGL3_Init on the new context starts it afresh, and its next frame makes the
// program, buffers and font texture again.
void abandonImGuiRenderer() {
    ImGuiIO& io = ImGui::GetIO();
    ImGui::MemFree(io.BackendRendererUserData);
    io.BackendRendererUserData = nullptr;
    io.BackendRendererName = nullptr;
    io.Fonts->SetTexID(ImTextureID());
}

// Whether a scene prepared for `a` is what `b` would have it prepared as.
bool sameTarget(const TargetCaps& a, const TargetCaps& b) {
    return a.esVersion == b.esVersion && a.paletteCapacity == b.paletteCapacity &&
           a.uintIndices == b.uintIndices && a.npotTextures == b.npotTextures &&
           a.maxTextureSize == b.maxTextureSize && a.compressedFormats == b.compressedFormats &&
           a.fixedAttributes == b.fixedAttributes;
}

// The renderer again on a new context (after a loss), with the prepared scene uploaded from memory
// as it is: the file is not read again and the view, selection and animation stay. A context that
// differs in what preparation adapts to (another device) has the scene prepared again from the
// scene as loaded, as switching the ES2 limits does.
bool restoreRenderer(Viewer& v, std::string& error) {
    ViewerState& s = v.state;
    RendererOptions options;
    options.gles2 = s.gles2;
    options.gles2Strict = s.gles2 && s.gles2Strict;
    options.device = s.device;
    s.renderer = Renderer::create(options, error);
    if (!s.renderer) return false;
    const TargetCaps before = targetCaps(s.rendererInfo);
    s.rendererInfo = s.renderer->info();
    if (!s.scene) return true;
    const bool reprepare = !sameTarget(before, targetCaps(s.rendererInfo));
    if (reprepare) {
        if (!reprepareScene(s, error)) return false;
    } else {
        std::vector<ReportLine> again;  // the scene's report has these lines from its first upload
        if (!s.renderer->setScene(*s.scene, again, error)) return false;
        s.rendererInfo = s.renderer->info();
    }
    std::string compareError;
    if (!restoreCompare(s, reprepare, compareError)) s.status = "comparison closed: " + compareError;
    return true;
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

// Draws `scene` in `rect` (framebuffer pixels, y down) with its clear and its pixels held to the
// columns [x0, x1) of it by a scissor, so that what is drawn beside it stays.
FrameStats drawColumns(Renderer& renderer, const Scene& scene, const Pose& pose, const ViewSettings& view,
                       const ViewportRect& rect, int x0, int x1, int framebufferHeight) {
    const int bottom = framebufferHeight - rect.y - rect.height;
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, bottom, std::max(x1 - x0, 0), rect.height);
    const FrameStats stats = renderer.draw(scene, pose, view, rect.width, rect.height, rect.x, bottom);
    glDisable(GL_SCISSOR_TEST);
    return stats;
}

// The texture the difference picture goes to (drawDifference fills it each frame before the panels
// are drawn): sampled once per pixel, any size (ES2: no mipmaps, clamped).
void makeDiffTexture(ViewerState& s) {
    glGenTextures(1, &s.compare.diffTexture);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, s.compare.diffTexture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
}

// The inspector's array layer or cube face picture (LayerPreview): decoded and uploaded when the
// selected texture has a later layer chosen, or is a cube map, and the picture shown is another;
// dropped when nothing needs it.
void updateLayerPreview(ViewerState& s) {
    LayerPreview& p = s.layerPreview;
    const int t = s.selection.texture;
    const Image* selected = s.scene && t >= 0 && size_t(t) < s.scene->textures.size() && !s.scene->textures[size_t(t)].placeholder
                                ? &s.scene->textures[size_t(t)].image
                                : nullptr;
    const bool wanted = selected && ((s.selection.textureLayer > 0 && uint32_t(s.selection.textureLayer) < selected->layers) ||
                                     (selected->isCube() && s.selection.textureLayer == 0));
    if (!wanted) {
        if (p.object != 0) glDeleteTextures(1, &p.object);
        p = LayerPreview{};
        return;
    }
    const int face = selected->isCube() && s.selection.textureLayer == 0 ? std::clamp(s.selection.textureFace, 0, 5) : 0;
    if (p.texture == t && p.layer == s.selection.textureLayer && p.face == face && p.scene == s.scene.get() &&
        p.loads == s.loadsCompleted)
        return;
    p.texture = t;
    p.layer = s.selection.textureLayer;
    p.face = face;
    p.scene = s.scene.get();
    p.loads = s.loadsCompleted;
    p.error.clear();
    const Image& image = *selected;
    std::vector<uint8_t> rgba;
    if (!decodeLayer(image, uint32_t(p.layer), rgba, p.error, uint32_t(p.face))) return;
    if (p.object == 0) glGenTextures(1, &p.object);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, p.object);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, GLsizei(image.width), GLsizei(image.height), 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, rgba.data());
    glBindTexture(GL_TEXTURE_2D, 0);
}

// B after A's pose of this frame (updateCompare), and the difference view's texture made before the
// overlay lays it out.
void followA(ViewerState& s) {
    if (!s.scene || !s.compare.active()) return;
    updateCompare(s);
    if (s.compare.mode == CompareMode::Difference && s.compare.diffTexture == 0) makeDiffTexture(s);
}

// FNV-1a over raw bytes, for the difference view's key.
struct KeyHash {
    uint64_t value = 1469598103934665603ull;
    void bytes(const void* data, size_t size) {
        const auto* p = static_cast<const uint8_t*>(data);
        for (size_t i = 0; i < size; ++i) value = (value ^ p[i]) * 1099511628211ull;
    }
    template <class T>
    void add(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    template <class T>
    void all(const std::vector<T>& v) {
        add(v.size());
        if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
    }
};

// What one side of the difference view draws from: its scene and renderer as installed, the view
// settings (their annotations' contents too) and the pose (every matrix, morph weight, visibility,
// field of view and texture coordinate matrix).
void addSide(KeyHash& h, const Scene* scene, const Renderer* renderer, const ViewSettings& view, const Pose& pose) {
    h.add(scene);
    h.add(renderer);
    // Its bytes: plain values (GLM's vectors are not trivially copyable in name only); padding that
    // differs can only make the picture be drawn again.
    h.bytes(&view, sizeof view);
    if (view.annotations) {
        h.all(view.annotations->lines);
        h.all(view.annotations->points);
        h.add(view.annotations->pointSize);
        h.add(view.annotations->throughSurfaces);
    }
    h.all(pose.world);
    h.all(pose.objectWorld);
    h.add(pose.morphWeights.size());
    for (const std::vector<float>& w : pose.morphWeights) h.all(w);
    h.all(pose.cameraFov);
    h.all(pose.visible);
    h.all(pose.uvMatrices);
}

// How long an unchanged difference picture is kept before it is drawn again anyway, for what the key
// cannot see (a texture that arrives later, a setting outside the view settings).
constexpr double kDifferenceRefresh = 0.5;

// The difference view: A and B drawn offscreen at the 3D view's size, judged by the golden rule
// (s.compare.figures), and the difference picture uploaded to the texture the viewport overlay shows.
// While nothing it is drawn from changes (differenceKey), the last picture and figures stay, up to
// kDifferenceRefresh seconds: an idle difference view costs no offscreen draws and no readback.
void drawDifference(ViewerState& s, const ViewportRect& view, double now) {
    CompareView& c = s.compare;
    KeyHash key;
    key.add(view);
    key.add(s.loadsCompleted);
    key.add(c.loads);
    key.add(c.diffTexture);
    addSide(key, s.scene.get(), s.renderer.get(), s.view, s.pose);
    addSide(key, c.scene.get(), c.renderer.get(), c.view, c.pose);
    if (key.value == c.diffKey && now - c.diffDrawn < kDifferenceRefresh && now >= c.diffDrawn) return;
    c.diffKey = key.value;
    c.diffDrawn = now;
    ++c.diffDraws;
    OffscreenTarget target;
    std::string error;
    if (view.empty() || !target.create(view.width, view.height, error)) return;
    golden::Image a{view.width, view.height, {}}, b{view.width, view.height, {}}, diff;
    target.bind();
    s.stats = s.renderer->draw(*s.scene, s.pose, s.view, view.width, view.height);
    target.read(a.rgba);
    c.renderer->draw(*c.scene, c.pose, c.view, view.width, view.height);
    target.read(b.rgba);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    c.figures = judgePictures(a, b, diff);
    if (c.diffTexture == 0 || diff.rgba.empty()) return;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, c.diffTexture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, diff.width, diff.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, diff.rgba.data());
    glBindTexture(GL_TEXTURE_2D, 0);
}

// A and B (compare_view.h) in the 3D view: split at the divider, side by side, or the difference
// picture (drawn by the viewport overlay). The window is cleared first: the scissored draws clear only
// their own parts.
void drawCompared(ViewerState& s, int width, int height, double now) {
    CompareView& c = s.compare;
    glViewport(0, 0, width, height);
    glClearColor(s.view.clearColor.r, s.view.clearColor.g, s.view.clearColor.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const ViewportRect view = s.viewport.empty() ? ViewportRect{0, 0, width, height} : s.viewport;
    if (c.mode == CompareMode::Difference) return drawDifference(s, view, now);
    ViewportRect a, b;
    compareRects(c.mode, view, a, b);
    const int split = c.mode == CompareMode::Split ? splitColumn(view, c.divider) : b.x;
    s.stats = drawColumns(*s.renderer, *s.scene, s.pose, s.view, a, a.x, split, height);
    drawColumns(*c.renderer, *c.scene, c.pose, c.view, b, split, b.x + b.width, height);
}

// Moves the orbit target in the view plane: `right` along the screen's x, `up` along its y (scene units).
void panOrbit(OrbitCamera& orbit, float right, float up) {
    const glm::vec3 forward = orbitDirection(orbit);
    const glm::vec3 rightDir = glm::normalize(glm::cross(orbitUp(orbit), forward));
    const glm::vec3 upDir = glm::cross(forward, rightDir);
    orbit.target += rightDir * right + upDir * up;
}

// How near the split view's divider (window pixels) a left press grabs it.
constexpr double kDividerGrab = 6.0;

// The split view's divider: a left press within kDividerGrab of it drags it (instead of orbiting) until
// the release, the pointer's place across the 3D view its position. True while it is dragged, the
// release included (which then picks nothing).
bool dragDivider(Viewer& v, double x, double y, bool left) {
    CompareView& c = v.state.compare;
    const LayoutRect& area = v.state.layout.viewport;
    if (!c.active() || c.mode != CompareMode::Split || area.empty()) {
        c.draggingDivider = false;
        return false;
    }
    if (left && !v.leftWasDown)
        c.draggingDivider = std::abs(x - (area.x + area.w * c.divider)) <= kDividerGrab && area.contains(float(x), float(y));
    if (!left) {
        const bool was = c.draggingDivider;
        c.draggingDivider = false;
        return was;
    }
    if (c.draggingDivider) c.divider = std::clamp(float((x - area.x) / std::max(area.w, 1.0f)), 0.0f, 1.0f);
    return c.draggingDivider;
}

// Mouse: left drag orbits, right/middle drag (or shift+left) pans, wheel zooms (ctrl+wheel: field of
// view), horizontal wheel orbits; a left click without a drag picks (ctrl+click: a skinned vertex), a
// double click frames it.
void mouseInput(Viewer& v) {
    ImGuiIO& io = ImGui::GetIO();
    ViewerState& s = v.state;
    OrbitCamera& orbit = s.view.orbit;
    const double x = v.pointerX, y = v.pointerY;
    const bool left = held(v, MouseButton::Left);
    if (!io.WantCaptureMouse && dragDivider(v, x, y, left)) {
        v.rotating = v.panning = false;
        v.leftWasDown = left;
        v.lastX = x;
        v.lastY = y;
        return;
    }
    if (!io.WantCaptureMouse) {
        const bool right = held(v, MouseButton::Right) || held(v, MouseButton::Middle);
        const bool shift = shiftHeld(v);
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
                                float(std::max(sceneViewport(s).height, 1));
            panOrbit(orbit, float(dx) * scale, float(dy) * scale);
        }
        v.rotating = left && !shift;
        v.panning = right || (left && shift);
        // The release that ends a double click does not pick again: the view has just framed the
        // selection, which is no longer under the pointer.
        if (!left && v.leftWasDown && !v.doubleClicked && std::abs(x - v.pressX) < 3.0 && std::abs(y - v.pressY) < 3.0 &&
            s.scene) {
            // Window coordinates to framebuffer pixels (they differ on high-density displays).
            const HostSize window = v.host->windowSize(), pixels = v.host->framebufferSize();
            const float fx = float(x) * float(pixels.width) / float(std::max(window.width, 1));
            const float fy = float(y) * float(pixels.height) / float(std::max(window.height, 1));
            int node = -1;
            uint32_t vertex = 0;
            std::string error;
            // Ctrl+click picks the skinned vertex there for the skinning debugger (none: clears it).
            if (!controlHeld(v))
                selectNode(s, pickAt(s, fx, fy));
            else if (skinnedVertexAt(s, fx, fy, 10.0f, node, vertex))
                pickVertex(s, node, vertex, error);
            else
                clearPickedVertex(s);
        }
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
            v.doubleClicked = true;
            if (s.selection.node >= 0) frameSelection(s);
        }
        if (!left) v.doubleClicked = false;
        const float wheel = float(v.wheelY), wheelH = float(v.wheelX);
        if (wheel != 0.0f) {
            if (controlHeld(v)) {
                orbit.yfov = std::clamp(orbit.yfov * std::pow(0.95f, wheel), 0.05f, 2.6f);
            } else {
                orbit.distance *= std::pow(0.88f, wheel);
            }
        }
        if (wheelH != 0.0f) orbit.yaw += wheelH * 0.05f;
    } else {
        v.rotating = v.panning = false;
    }
    v.leftWasDown = left;
    v.lastX = x;
    v.lastY = y;
    orbit.distance = std::max(orbit.distance, 1e-4f);
}

// Decides where this frame's keys go, before Dear ImGui's new frame reads them. The keys follow the
// pointer: over the 3D view they drive the view even when a panel has the focus (a click left it
// there), over a panel that has the focus they navigate it. A text field being edited or an open
// menu or popup keeps them wherever the pointer is; without a pointer (keyboard-only devices) the
// focus alone decides, which F6 moves. While the view has the keys ImGui sees none of them, so a
// focused panel does not act on them too (they are handed back after ImGui::Render).
void routeKeyboard(Viewer& v) {
    ImGuiIO& io = ImGui::GetIO();
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    ViewerState& s = v.state;
    auto& before = v.keysBefore;
    before.textEditing = g.ActiveId != 0 && g.InputTextState.ID == g.ActiveId;
    before.popups = g.OpenPopupStack.Size;
    // A focused window that takes no navigation (the status bar) leaves the keys to the view.
    before.panelFocused = g.NavWindow && !(g.NavWindow->Flags & ImGuiWindowFlags_NoNavInputs);
    const bool pointer = ImGui::IsMousePosValid(&io.MousePos);
    const bool moved = pointer && (io.MousePos.x != v.lastPointer.x || io.MousePos.y != v.lastPointer.y);
    v.lastPointer = io.MousePos;
    bool clicked = false;
    for (size_t i = 0; i < size_t(MouseButton::Count) && i < IM_ARRAYSIZE(io.MouseDown); ++i)
        clicked |= io.MouseDown[i];
    if (moved || clicked) v.panelsByKeyboard = false;
    const bool overView = pointer && s.layout.viewport.contains(io.MousePos.x, io.MousePos.y);
    if (v.hidePanels)
        s.keyboardToView = true;
    else if (before.textEditing || before.popups > 0 || g.ActiveId != 0)
        s.keyboardToView = false;
    else if (overView && !v.panelsByKeyboard)
        s.keyboardToView = true;
    else
        s.keyboardToView = !before.panelFocused;
    v.imguiKeysHidden = s.keyboardToView;
    if (s.keyboardToView) {
        std::copy(std::begin(io.KeysDown), std::end(io.KeysDown), std::begin(v.imguiKeys));
        std::fill(std::begin(io.KeysDown), std::end(io.KeysDown), false);
        io.InputQueueCharacters.resize(0);
    }
}

// Gives Dear ImGui back the keys routeKeyboard hid from it (held keys stay held for the host's backend).
void restoreImGuiKeys(Viewer& v) {
    if (!v.imguiKeysHidden) return;
    ImGuiIO& io = ImGui::GetIO();
    std::copy(std::begin(v.imguiKeys), std::end(v.imguiKeys), std::begin(io.KeysDown));
    v.imguiKeysHidden = false;
}

// Esc, wherever the keys go, takes the first of: a text field being edited keeps it (ImGui reverts
// the edit); an open menu or popup closes (one level); the file browser closes; a panel's focus is
// cleared (the keys return to the view); with the panels hidden (H) only the first two. Returns false
// when none applied: then it is the view's.
bool escapeClosesSomething(Viewer& v) {
    ViewerState& s = v.state;
    const auto& before = v.keysBefore;
    if (before.textEditing) return true;
    if (before.popups > 0) {
        // ImGui's navigation closes the top one when it has the keys; otherwise close it here.
        const ImGuiContext& g = *ImGui::GetCurrentContext();
        if (g.OpenPopupStack.Size >= before.popups) ImGui::ClosePopupToLevel(g.OpenPopupStack.Size - 1, true);
        return true;
    }
    if (v.hidePanels) return false;  // nothing of the panels is shown to close or to leave
    if (s.panel(PanelId::Browser)) {
        s.panel(PanelId::Browser) = false;
        if (focusedRegion() == panelRegion(PanelId::Browser)) ImGui::SetWindowFocus(nullptr);
        return true;
    }
    if (before.panelFocused) {
        ImGui::SetWindowFocus(nullptr);
        v.panelsByKeyboard = false;
        return true;
    }
    return false;
}

// Keyboard-only use: everything the mouse does has a key (embedded devices often have no pointer).
// The keys reach the view only when routeKeyboard gave them to it.
void keyboardInput(Viewer& v, float dt) {
    ViewerState& s = v.state;
    auto down = [&](Key key) { return held(v, key); };
    auto pressed = [&](Key key) {
        const bool now = down(key);
        const bool was = v.keysDown[size_t(key)];
        v.keysDown[size_t(key)] = now;
        return now && !was;
    };
    // F6 moves the focus between the panels and the 3D view.
    if (pressed(Key::F6)) {
        if (!s.keyboardToView) {
            ImGui::SetWindowFocus(nullptr);
            v.panelsByKeyboard = false;
        } else if (!v.hidePanels) {
            focusPanels(s);
            v.panelsByKeyboard = true;
        }
        return;
    }
    // Keys the view does not take are seen as held, so that they do not act when it gets the keys.
    auto skipKeys = [&] {
        for (size_t key = 1; key < size_t(Key::Count); ++key) v.keysDown[key] = down(Key(key));
    };
    const bool escape = pressed(Key::Escape);
    if ((escape && escapeClosesSomething(v)) || !s.keyboardToView) return skipKeys();
    const bool shift = shiftHeld(v), ctrl = controlHeld(v);
    const bool keyO = pressed(Key::O);  // ctrl+O opens the browser, O alone sets the range's out point
    if (keyO && ctrl) showPanel(s, PanelId::Browser);
    if (pressed(Key::Q) && ctrl) {
        v.closeRequested = true;
        return skipKeys();
    }
    if (pressed(Key::H)) v.hidePanels = !v.hidePanels;
    if (!s.scene) return skipKeys();
    const Scene& scene = *s.scene;
    OrbitCamera& orbit = s.view.orbit;
    const float turn = 1.5f * dt;
    if (!shift) {
        if (down(Key::Left) || down(Key::A)) orbit.yaw += turn;
        if (down(Key::Right) || down(Key::D)) orbit.yaw -= turn;
        if (down(Key::Up)) orbit.pitch = std::min(orbit.pitch + turn, 1.55f);
        if (down(Key::Down)) orbit.pitch = std::max(orbit.pitch - turn, -1.55f);
    } else {
        // Shift+arrows pan.
        const float step = orbit.distance * dt;
        panOrbit(orbit, (down(Key::Left) ? step : 0.0f) - (down(Key::Right) ? step : 0.0f),
                 (down(Key::Down) ? step : 0.0f) - (down(Key::Up) ? step : 0.0f));
    }
    if (down(Key::Equal) || down(Key::KeypadAdd) || down(Key::PageUp) || (down(Key::W) && shift))
        orbit.distance *= 1.0f - dt;
    if (down(Key::Minus) || down(Key::KeypadSubtract) || down(Key::PageDown) || (down(Key::S) && shift))
        orbit.distance *= 1.0f + dt;
    Transport& t = s.transport;
    if (pressed(Key::Space)) {
        if (shift) {
            t.speed = -std::abs(t.speed == 0.0f ? 1.0f : t.speed);
            t.playing = true;
        } else {
            t.playing = !t.playing;
        }
    }
    if (pressed(Key::Comma)) stepFrames(scene, t, -1);
    if (pressed(Key::Period)) stepFrames(scene, t, 1);
    // Shift steps through the selected node's keys alone (every node's when none is selected).
    const int keyNode = shift ? s.selection.node : -1;
    if (pressed(Key::LeftBracket)) stepKeys(scene, t, -1, keyNode);
    if (pressed(Key::RightBracket)) stepKeys(scene, t, 1, keyNode);
    // The play range's in and out points at the playhead; shift clears the range.
    const bool rangeIn = pressed(Key::I), rangeOut = keyO && !ctrl;
    if ((rangeIn || rangeOut) && shift)
        clearPlayRange(t);
    else if (rangeIn || rangeOut)
        setRangePointAtTime(scene, t, rangeOut);
    if (pressed(Key::Home)) jumpToStart(scene, t);
    if (pressed(Key::End)) jumpToEnd(scene, t);
    if (pressed(Key::F)) frameScene(s);
    if (pressed(Key::G)) frameSelection(s);
    const bool r = pressed(Key::R);
    if (r && !ctrl) resetView(s);
    if (pressed(Key::F5) || (r && ctrl)) s.requestReload = true;
    if (pressed(Key::K)) s.view.showSkeleton = !s.view.showSkeleton;
    if (pressed(Key::W) && !shift) s.view.wireframeOverlay = !s.view.wireframeOverlay;
    if (pressed(Key::C)) {
        // Cycle orbit -> camera 0 -> camera 1 ... -> orbit.
        const int count = int(scene.cameras.size());
        s.view.camera = s.view.camera + 1 >= count ? -1 : s.view.camera + 1;
    }
    if (pressed(Key::P)) {
        char name[64];
        std::snprintf(name, sizeof(name), "esview-%lld.png", static_cast<long long>(std::time(nullptr)));
        s.requestScreenshot = name;
        s.screenshotWidth = s.screenshotHeight = 0;
    }
    if (pressed(Key::Tab)) {
        // Tab / Shift+Tab walk the selection through the nodes.
        const int count = int(scene.nodes.size());
        if (count > 0) selectNode(s, ((s.selection.node < 0 ? (shift ? 0 : -1) : s.selection.node) + (shift ? count - 1 : 1)) % count);
    }
    for (int m = 0; m < int(ViewMode::Count) && m < 9; ++m)
        if (pressed(Key(int(Key::Num1) + m))) s.view.mode = ViewMode(m);
    // Esc clears the selection, else closes a comparison, and nothing more: it never quits (Ctrl+Q,
    // the File menu and the window's close button do), so that a user closing things one by one never
    // loses the session.
    if (escape && s.selection.node >= 0)
        selectNode(s, -1);
    else if (escape && s.compare.active())
        s.compare.requestClose = true;
    orbit.distance = std::max(orbit.distance, 1e-4f);
}

// A script's input event, as the panels must see it (applyScriptedInput).
void noteScriptedEvent(Viewer& v, const Event& e) {
    auto& in = v.scriptInput;
    switch (e.type) {
        case EventType::MouseMove:
            in.pointer = true;
            in.x = e.x;
            in.y = e.y;
            break;
        case EventType::MouseButton:
            if (e.button < MouseButton::Count) in.buttons[size_t(e.button)] = e.down;
            break;
        case EventType::Wheel:
            in.wheelX += e.x;
            in.wheelY += e.y;
            break;
        case EventType::Key:
            if (e.key < Key::Count) in.keys[size_t(e.key)] = e.down;
            break;
        case EventType::Text: in.text.push_back(e.codepoint); break;
        default: break;
    }
}

// Dear ImGui's input for this frame with a script's on top of the host backend's (called between
// the backend's new frame and ImGui's). Keys ImGui reads by name go through io.KeyMap, which each
// backend fills with its own key codes.
void applyScriptedInput(Viewer& v) {
    ImGuiIO& io = ImGui::GetIO();
    auto& in = v.scriptInput;
    if (in.pointer) io.MousePos = ImVec2(float(in.x), float(in.y));
    for (size_t i = 0; i < size_t(MouseButton::Count) && i < IM_ARRAYSIZE(io.MouseDown); ++i)
        io.MouseDown[i] = io.MouseDown[i] || in.buttons[i];
    io.MouseWheel += float(in.wheelY);
    io.MouseWheelH += float(in.wheelX);
    in.wheelX = in.wheelY = 0.0;
    for (uint32_t c : in.text) io.AddInputCharacter(c);
    in.text.clear();
    static const std::pair<Key, ImGuiKey> kNamed[] = {
        {Key::Tab, ImGuiKey_Tab},         {Key::Left, ImGuiKey_LeftArrow},   {Key::Right, ImGuiKey_RightArrow},
        {Key::Up, ImGuiKey_UpArrow},      {Key::Down, ImGuiKey_DownArrow},   {Key::PageUp, ImGuiKey_PageUp},
        {Key::PageDown, ImGuiKey_PageDown}, {Key::Home, ImGuiKey_Home},      {Key::End, ImGuiKey_End},
        {Key::Space, ImGuiKey_Space},     {Key::Enter, ImGuiKey_Enter},      {Key::Escape, ImGuiKey_Escape},
        {Key::Backspace, ImGuiKey_Backspace}, {Key::Delete, ImGuiKey_Delete}, {Key::A, ImGuiKey_A},
        {Key::C, ImGuiKey_C},             {Key::V, ImGuiKey_V},              {Key::X, ImGuiKey_X},
        {Key::Y, ImGuiKey_Y},             {Key::Z, ImGuiKey_Z}};
    // A key the script holds or held last frame takes the state the events left (the host's too).
    auto touched = [&](Key k) { return in.keys[size_t(k)] || in.keysBefore[size_t(k)]; };
    for (const auto& [key, imguiKey] : kNamed) {
        const int index = io.KeyMap[imguiKey];
        if (touched(key) && index >= 0 && index < IM_ARRAYSIZE(io.KeysDown)) io.KeysDown[index] = held(v, key);
    }
    if (touched(Key::LeftShift) || touched(Key::RightShift)) io.KeyShift = shiftHeld(v);
    if (touched(Key::LeftControl) || touched(Key::RightControl)) io.KeyCtrl = controlHeld(v);
    if (touched(Key::LeftAlt) || touched(Key::RightAlt)) io.KeyAlt = held(v, Key::LeftAlt) || held(v, Key::RightAlt);
    std::copy(std::begin(in.keys), std::end(in.keys), std::begin(in.keysBefore));
}

// The 3D view's rectangle in framebuffer pixels: the layout's, in window coordinates, scaled.
ViewportRect viewportPixels(const ViewerState& s, int width, int height) {
    const ImGuiIO& io = ImGui::GetIO();
    const float sx = io.DisplayFramebufferScale.x > 0.0f ? io.DisplayFramebufferScale.x : 1.0f;
    const float sy = io.DisplayFramebufferScale.y > 0.0f ? io.DisplayFramebufferScale.y : 1.0f;
    const LayoutRect& r = s.layout.viewport;
    if (r.empty()) return {0, 0, width, height};
    const int x0 = std::clamp(int(std::lround(r.x * sx)), 0, width);
    const int y0 = std::clamp(int(std::lround(r.y * sy)), 0, height);
    const int x1 = std::clamp(int(std::lround(r.right() * sx)), x0, width);
    const int y1 = std::clamp(int(std::lround(r.bottom() * sy)), y0, height);
    return {x0, y0, x1 - x0, y1 - y0};
}

void drawPanels(Viewer& v) {
    ViewerState& s = v.state;
    // The layout first: the overlays and the 3D view go where it leaves room.
    drawDockedPanels(s, v.browser, v.hidePanels, effectiveUiScale(s.uiScale, v.host->contentScale()));
    updateViewport(s, viewportPixels(s, s.framebufferWidth, s.framebufferHeight));
    updateFrameAnnotations(s);
    drawViewportOverlay(s);
    if (!v.hidePanels) drawStatsOverlay(s);
}

}  // namespace

struct ViewerLoop::Impl {
    Viewer v;
    Host* host = nullptr;  // set once it is open
    ViewerOptions options;
    std::optional<ScriptRunner> script;
    ScriptHost scriptHost;
    std::vector<Event> events;  // this frame's, reused
    std::deque<std::vector<Event>> scriptEvents;  // a script's input, one batch a frame
    std::string clipboard;      // the host's clipboard text as ImGui last asked for it
    int frame = 0;
    double last = 0.0;  // host time of the previous frame
    int exitCode = kExitOk;
    bool imgui = false;  // the ImGui context and both backends are up
    bool imguiGl = false;               // ImGui's OpenGL3 backend is initialised on the current context
    std::string glslVersion;            // ImGui's OpenGL3 backend's, for the context's ES version
    bool glDropped = false;             // the GL objects went with a lost context and are to be made again
    bool loseContextRequested = false;  // a script's `context lost`, carried out after the frame
    bool done = false;
    bool finished = false;
    bool firstLoadDone = false;  // the file named on the command line has loaded or failed
};

ViewerLoop::ViewerLoop() : m_impl(std::make_unique<Impl>()) {}

ViewerLoop::~ViewerLoop() {
    finish();
}

bool ViewerLoop::runScript(const std::string& text, std::string& error) {
    Impl& m = *m_impl;
    if (m.script && !m.script->finished() && !m.script->failed()) {
        error = "a script is still running";
        return false;
    }
    std::string lines = text;
    for (char& c : lines)
        if (c == ';') c = '\n';
    Script parsed;
    std::vector<std::string> errors;
    if (!parseScript(lines, "script", parsed, errors)) {
        error = errors.empty() ? std::string("bad script") : errors.front();
        return false;
    }
    m.script.emplace(std::move(parsed));
    return true;
}

ViewerState& ViewerLoop::state() {
    return m_impl->v.state;
}

int ViewerLoop::start(Host& host, const ViewerOptions& options) {
    Impl& m = *m_impl;
    m.options = options;
    m.exitCode = kExitBadInput;  // until everything is up
    if (!options.script.empty()) {
        Script parsed;
        std::vector<std::string> errors;
        if (!loadScript(options.script, parsed, errors)) {
            for (const std::string& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
            return kExitBadInput;
        }
        m.script.emplace(std::move(parsed));
    }

    const bool scripted = options.maxFrames > 0 || m.script.has_value();
    HostConfig config;
    config.title = "esview - " + options.file;
    config.width = options.width;
    config.height = options.height;
    const DeviceProfile* device = !options.device.empty() ? findDevice(options.device) : nullptr;
    config.glesMajor = options.gles2 || options.gles2Strict || (device && device->esVersion < 30) ? 2 : 3;
    config.vsync = !scripted;
    std::string error;
    if (!host.open(config, error)) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }
    m.host = &host;

    Viewer& v = m.v;
    ViewerState& s = v.state;
    v.host = &host;
    v.scripted = scripted;
    s.gles2 = options.gles2 || options.gles2Strict || (device && device->esVersion < 30);
    s.gles2Strict = options.gles2Strict;
    s.device = options.device;
    RendererOptions ropts;
    ropts.gles2 = s.gles2;
    ropts.gles2Strict = options.gles2Strict;
    ropts.device = s.device;
    s.renderer = Renderer::create(ropts, error);
    if (!s.renderer) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }
    s.rendererInfo = s.renderer->info();
    s.recentFiles = loadRecentFiles();
    s.textureFolders = options.texturePaths;
    s.textureFoldersFromCommandLine = s.textureFolders.size();
    for (const std::string& folder : loadTextureFolders())
        if (std::find(s.textureFolders.begin(), s.textureFolders.end(), folder) == s.textureFolders.end())
            s.textureFolders.push_back(folder);
    if (!scripted) {
        // The layout as the last run left it (scripted runs start from the defaults).
        SavedLayout saved{s.panels, s.layoutSizes, s.tabs, s.foldedFront};
        loadLayout(saved);
        s.panels = saved.panels;
        s.layoutSizes = saved.sizes;
        s.foldedFront = saved.foldedFront;
        for (size_t r = 0; r < kDockRegions; ++r)
            if (saved.tabs[r] < PanelId::Count) s.tabs[r] = saved.tabs[r];
    }
    const std::string startFolder = FileBrowser::folderOf(options.file);
    v.browser.setDirectory(!startFolder.empty() && FileBrowser::isFolder(startFolder) ? startFolder : ".");

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    v.layoutFile = scripted ? std::string() : configFilePath("imgui.ini");
    io.IniFilename = v.layoutFile.empty() ? nullptr : v.layoutFile.c_str();
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    applyUiFont(s.uiFont, effectiveUiScale(s.uiScale, host.contentScale()), false,
                touchUiActive(s.touchUi, host.touchScreen()));
    if (!host.imguiInit()) {
        ImGui::DestroyContext();
        std::fprintf(stderr, "esview: the panels cannot start on this window\n");
        return kExitBadInput;
    }
    m.glslVersion = s.gles2 ? "#version 100" : "#version 300 es";
    ImGui_ImplOpenGL3_Init(m.glslVersion.c_str());
    m.imgui = m.imguiGl = true;
    // The panels' copy and paste go through the host, whatever its ImGui backend installed.
    io.ClipboardUserData = &m;
    io.GetClipboardTextFn = [](void* user) -> const char* {
        Impl& impl = *static_cast<Impl*>(user);
        impl.clipboard = impl.host->clipboardText();
        return impl.clipboard.c_str();
    };
    io.SetClipboardTextFn = [](void* user, const char* text) { static_cast<Impl*>(user)->host->setClipboardText(text); };

    startLoad(v, options.file, false);
    // Exactly what a dropped-files event does.
    m.scriptHost.drop = [&v](const std::vector<std::string>& paths) { dropPaths(v, paths); };
    m.scriptHost.input = [&m](std::vector<std::vector<Event>> batches) {
        for (std::vector<Event>& batch : batches) m.scriptEvents.push_back(std::move(batch));
    };
    m.scriptHost.loseContext = [&m] { m.loseContextRequested = true; };
    m.scriptHost.browse = [&v](const std::string& dir, std::string& err) {
        if (!v.browser.setDirectory(dir)) {
            err = v.browser.error();
            return false;
        }
        showPanel(v.state, PanelId::Browser);
        return true;
    };
    m.last = host.time();
    m.exitCode = kExitOk;
    return kExitOk;
}

bool ViewerLoop::frame() {
    Impl& m = *m_impl;
    if (!m.host || !m.imgui || m.done) return false;
    Host& host = *m.host;
    Viewer& v = m.v;
    ViewerState& s = v.state;

    m.events.clear();
    host.pollEvents(m.events);
    // A script's events of this frame follow the host's and take the same path.
    if (!m.scriptEvents.empty()) {
        for (Event& e : m.scriptEvents.front()) {
            noteScriptedEvent(v, e);
            m.events.push_back(std::move(e));
        }
        m.scriptEvents.pop_front();
    }
    std::fill(std::begin(v.buttonsPressed), std::end(v.buttonsPressed), false);
    std::fill(std::begin(v.keysPressed), std::end(v.keysPressed), false);
    for (const Event& e : m.events) handleEvent(v, e);
    if (v.contextLost) {
        // The context and every object in it are gone: what the viewer held is dropped with no GL
        // call (unless that was done already), and made again before the next frame is drawn.
        v.contextLost = false;
        if (!m.glDropped) dropGlObjects();
    }
    if (v.paused) {
        // In the background: nothing is drawn, the animation and script clocks stand still, no
        // script command runs and no load is installed; the host's next event is waited for.
        if (!v.scripted) host.waitEvents(0.1);
        m.last = host.time();
        finishFrame(false);
        return !m.done;
    }
    if (m.glDropped && !restoreGlObjects()) {
        m.exitCode = kExitBadInput;
        m.done = true;
        return false;
    }
    const int frame = m.frame++;
    const double now = host.time();
    // Scripted runs step at a fixed rate so screenshots do not depend on timing. The first frame back
    // from the background goes on from where the animation stopped.
    float dt = v.scripted ? 1.0f / 30.0f : float(std::min(now - m.last, 0.25));
    if (v.resumed) dt = 0.0f;
    v.resumed = false;
    m.last = now;
    const auto cpuStart = std::chrono::steady_clock::now();

    // Loading: finished work, new requests, the file changing on disk.
    LoadedScene result;
    if (v.loader.poll(result)) {
        finishLoad(v, result);
        if (!m.firstLoadDone && !s.scene) {
            // The file named on the command line could not be opened: the window stays and its
            // banner says why; stderr and the exit code say so too.
            std::fprintf(stderr, "%s\n", s.load.error.c_str());
            m.exitCode = kExitBadInput;
        }
        m.firstLoadDone = true;
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
    } else if (s.watchFile && s.scene && !s.load.active && !isDemoName(s.path) && (v.scripted || frame % 15 == 0)) {
        const int64_t stamp = fileStamp(s.path);
        if (stamp != 0 && stamp != s.fileStamp) {
            s.fileStamp = stamp;
            startLoad(v, s.path, true);
        }
    }
    s.requestReload = false;
    compareRequests(v, v.scripted || frame % 15 == 0);

    // The UI scale changed (panel, script, content scale): the font atlas is built again.
    applyUiFont(s.uiFont, effectiveUiScale(s.uiScale, host.contentScale()), frame > 0,
                touchUiActive(s.touchUi, host.touchScreen()));
    ImGui_ImplOpenGL3_NewFrame();
    host.imguiNewFrame();
    applyScriptedInput(v);
    routeKeyboard(v);
    ImGui::NewFrame();
    if (s.scene) mouseInput(v);
    keyboardInput(v, dt);
    v.wheelX = v.wheelY = 0.0;
    if (s.scene) {
        advanceTransport(*s.scene, s.transport, dt);
    }
    s.pof.clockSeconds += dt;
    if (m.script) {
        m.script->runFrame(s, m.scriptHost);
        if (m.script->failed()) {
            std::fprintf(stderr, "%s\n", m.script->error().c_str());
            m.exitCode = kExitBadInput;
        }
    }
    if (s.scene) updatePose(s);
    followA(s);
    updateLayerPreview(s);
    const HostSize framebuffer = host.framebufferSize();
    const int width = framebuffer.width, height = framebuffer.height;
    s.framebufferWidth = width;
    s.framebufferHeight = height;
    // The panels, and the 3D view (s.viewport) in what they leave: framing fits it.
    drawPanels(v);
    // New windows take the focus when they first appear; the keyboard starts on the viewport.
    if (frame == 1) ImGui::SetWindowFocus(nullptr);
    ImGui::Render();
    restoreImGuiKeys(v);

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (s.scene && s.compare.active()) {
        drawCompared(s, width, height, host.time());
        for (const std::string& note : s.stats.notes) s.scene->warn(note);
    } else if (s.scene) {
        // The scene in its rectangle (GL counts rows from the bottom). The renderer's clear covers
        // the whole window, the panels' background included: one clear a frame.
        const ViewportRect view = sceneViewport(s);
        const int bottom = height - view.y - view.height;
        s.stats = s.renderer->draw(*s.scene, s.pose, s.view, view.width, view.height, view.x, bottom);
        // What the renderer could not do is said once, in the import report.
        for (const std::string& note : s.stats.notes) s.scene->warn(note);
    } else {
        glViewport(0, 0, width, height);
        glClearColor(s.view.clearColor.r, s.view.clearColor.g, s.view.clearColor.b, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    s.cpuFrameMs = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - cpuStart).count();

    const bool lastFrame = m.options.maxFrames > 0 && frame + 1 >= m.options.maxFrames;
    if (lastFrame && !m.options.screenshot.empty()) s.requestScreenshot = m.options.screenshot;
    if (!s.requestScreenshot.empty()) {
        if (!saveScreenshot(v, width, height)) {
            std::fprintf(stderr, "esview: %s\n", s.status.c_str());
            if (v.scripted) m.exitCode = kExitBadInput;
        }
    }
    host.swapBuffers();
    finishFrame(lastFrame);
    return !m.done;
}

void ViewerLoop::finishFrame(bool lastFrame) {
    Impl& m = *m_impl;
    ViewerState& s = m.v.state;
    if (m.loseContextRequested && !lastFrame) {
        m.loseContextRequested = false;
        std::string error;
        if (m.host->loseContext(error)) {
            // Gone now, whether or not a frame follows to receive the host's ContextLost.
            dropGlObjects();
        } else {
            std::fprintf(stderr, "esview: context lost: %s\n", error.c_str());
            m.exitCode = kExitBadInput;
            s.requestQuit = true;
        }
    }
    m.done = lastFrame || m.v.closeRequested || s.requestQuit;
}

void ViewerLoop::dropGlObjects() {
    Impl& m = *m_impl;
    ViewerState& s = m.v.state;
    const uint64_t calls = gl::callCount();
    abandonRenderer(s.renderer);
    abandonRenderer(s.compare.renderer);
    s.compare.diffTexture = 0;  // went with the context
    s.layerPreview = LayerPreview{};
    if (m.imguiGl) abandonImGuiRenderer();
    m.imguiGl = false;
    s.context.dropGlCalls = gl::callCount() - calls;
    ++s.context.losses;
    m.glDropped = true;
}

bool ViewerLoop::restoreGlObjects() {
    Impl& m = *m_impl;
    ViewerState& s = m.v.state;
    std::string error;
    if (!restoreRenderer(m.v, error)) {
        std::fprintf(stderr, "esview: the scene cannot be drawn on the new GL context: %s\n", error.c_str());
        return false;
    }
    ImGui_ImplOpenGL3_Init(m.glslVersion.c_str());
    m.imguiGl = true;
    m.glDropped = false;
    ++s.context.restores;
    return true;
}

int ViewerLoop::finish() {
    Impl& m = *m_impl;
    if (m.finished) return m.exitCode;
    m.finished = m.done = true;
    // A load still running finishes before its scene is dropped.
    m.v.loader.wait();
    m.v.compareLoader.wait();
    if (m.imgui && !m.v.scripted) {
        const ViewerState& s = m.v.state;
        saveLayout(SavedLayout{s.panels, s.layoutSizes, s.tabs, s.foldedFront});
    }
    if (m.imgui) {
        if (m.imguiGl) ImGui_ImplOpenGL3_Shutdown();
        m.imguiGl = false;
        m.host->imguiShutdown();
        ImGui::DestroyContext();
        m.imgui = false;
    }
    deleteDiffTexture(m.v.state);
    if (m.v.state.layerPreview.object != 0) glDeleteTextures(1, &m.v.state.layerPreview.object);
    m.v.state.layerPreview = LayerPreview{};
    m.v.state.compare.renderer.reset();
    m.v.state.renderer.reset();  // GL objects go while the context is current
    return m.exitCode;
}

int runViewer(Host& host, const ViewerOptions& options) {
    ViewerLoop viewer;
    const int started = viewer.start(host, options);
    if (started != kExitOk) return started;
    while (viewer.frame()) {
    }
    return viewer.finish();
}

}  // namespace esv
