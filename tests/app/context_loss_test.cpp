// Pause, resume and GL context loss, as Android does them to an app in the background: the viewer
// core draws nothing and keeps its animation time while paused, drops its GL objects (renderer and
// panels) without a GL call when the host says the context is lost, and makes them again on the new
// context from the scene in memory, so the window after the loss is the window before it, the
// file is read once and GL reports no error. Over the headless host (events pushed by the test, the
// context really destroyed), over the SDL host on its offscreen driver in process (SDL's own
// background and foreground events, the context deleted behind the host's back, SDL's render device
// reset), and scripted (`context lost`, `background N`) with `esview --host sdl` offscreen and under
// Xvfb, ES3 and ES2.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <SDL.h>
#include <glad/gles2.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/hosts/headless_host.h"
#include "app/viewer/host.h"
#include "app/hosts/sdl_host.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;

using esv::Event;
using esv::EventType;

// outputDir()/context_loss_<name>, emptied; the viewer's configuration goes there too.
fs::path workDir(const std::string& name) {
    const fs::path dir = esv::test::outputDir() / ("context_loss_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    setenv("ESVIEW_CONFIG_DIR", dir.c_str(), 1);
    return dir;
}

// Frames until the scene is shown and no load is pending.
bool frameUntilLoaded(esv::ViewerLoop& viewer) {
    for (int i = 0; i < 2000; ++i) {
        if (!viewer.frame()) return false;
        const esv::ViewerState& s = viewer.state();
        if (s.scene && !s.load.active && s.requestOpen.empty() && !s.requestReload) return true;
    }
    return false;
}

#define ESVIEW_REQUIRE_XVFB() \
    if (std::string(XVFB_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Xvfb not installed"

// The frame that receives `event`, saving the window to `png` when one is named.
bool frameWith(esv::ViewerLoop& viewer, const fs::path& png = {}) {
    if (!png.empty()) viewer.state().requestScreenshot = png.string();
    return viewer.frame();
}

esv::test::Image loadImage(const fs::path& png) {
    esv::test::Image image;
    EXPECT_TRUE(esv::test::loadPng(png.string(), image)) << png;
    return image;
}

// The same pixels, every one; of a window (`window`), those above the status bar, whose line says
// which screenshot was saved last.
void expectSamePicture(const fs::path& a, const fs::path& b, bool window = true) {
    esv::test::Image before = loadImage(a), after = loadImage(b);
    if (window && before.height > 40 && after.height == before.height) {
        before = esv::test::crop(before, 0, 0, before.width, before.height - 40);
        after = esv::test::crop(after, 0, 0, after.width, after.height - 40);
    }
    const esv::test::CompareResult r = esv::test::compareImages(after, before, 0);
    EXPECT_TRUE(r.sameSize) << a << " " << b;
    EXPECT_EQ(r.maxDifference, 0) << a << " and " << b << ": " << r.differingFraction * 100.0
                                  << "% of the pixels differ";
}

// The state after a loss: the objects dropped once with no GL call, made again once, the file read
// once, no GL error since.
void expectRestored(const esv::ViewerState& s, int losses) {
    EXPECT_EQ(s.context.losses, losses);
    EXPECT_EQ(s.context.restores, losses);
    EXPECT_EQ(s.context.dropGlCalls, 0u);
    EXPECT_EQ(s.loadsCompleted, 1);
    EXPECT_TRUE(s.renderer);
    EXPECT_EQ(s.stats.glErrors, 0u);
    for (const std::string& note : s.stats.notes) ADD_FAILURE() << note;
    // Nor did the panels' draws after the scene's (the context is current in this thread).
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

std::string esName(const ::testing::TestParamInfo<bool>& param) {
    return param.param ? "Es2" : "Es3";
}

class HeadlessContextLoss : public ::testing::TestWithParam<bool> {};

TEST_P(HeadlessContextLoss, LostInTheBackgroundAndResumedDrawsTheSameWindow) {
    const bool gles2 = GetParam();
    const fs::path dir = workDir(gles2 ? "headless_es2" : "headless_es3");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;  // the demo
    options.width = 960;
    options.height = 600;
    options.gles2 = gles2;
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    s.panel(esv::PanelId::Stats) = false;
    s.view.showSkeleton = true;  // the overlay's objects too
    s.view.wireframeOverlay = true;
    s.transport.playing = true;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    ASSERT_TRUE(frameWith(viewer, dir / "before.png"));
    const float time = s.transport.time;

    // In the background: nothing drawn, the animation stands still.
    host.push(Event::of(EventType::Pause));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.transport.time, time);
    EXPECT_EQ(s.context.losses, 0);
    // The platform destroys the context meanwhile: the next frame drops what the viewer held.
    std::string error;
    ASSERT_TRUE(host.loseContext(error)) << error;
    ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.context.losses, 1);
    EXPECT_EQ(s.context.restores, 0);
    EXPECT_EQ(s.context.dropGlCalls, 0u);
    EXPECT_FALSE(s.renderer);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.transport.time, time);

    // Back: made again from the scene in memory, drawn where the animation was.
    host.push(Event::of(EventType::Resume));
    ASSERT_TRUE(frameWith(viewer, dir / "after.png"));
    EXPECT_EQ(s.transport.time, time);
    expectRestored(s, 1);
    expectSamePicture(dir / "before.png", dir / "after.png");
    EXPECT_EQ(s.rendererInfo.es3, !gles2);

    // And it goes on: the animation plays again, a loss in the foreground is made good too.
    ASSERT_TRUE(viewer.frame());
    EXPECT_GT(s.transport.time, time);
    s.transport.playing = false;
    ASSERT_TRUE(frameWith(viewer, dir / "before_again.png"));
    ASSERT_TRUE(host.loseContext(error)) << error;
    ASSERT_TRUE(frameWith(viewer, dir / "after_again.png"));
    expectRestored(s, 2);
    expectSamePicture(dir / "before_again.png", dir / "after_again.png");
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

// What both kinds of script run: the window and the scene alone before and after `context lost`,
// then the animation time before and after `background`.
std::string lossScript(const fs::path& dir) {
    auto q = [&](const char* name) { return " \"" + (dir / name).string() + "\""; };
    return "panel stats off\npause\nset skeleton on\nwait 3\n"
           "screenshot" +
           q("before.png") + "\nscreenshot" + q("before_scene.png") +
           " 320x240\n"
           "context lost\n"
           "screenshot" +
           q("after.png") + "\nscreenshot" + q("after_scene.png") +
           " 320x240\n"
           "dump" +
           q("lost.json") +
           "\n"
           "play\nwait 2\ndump" +
           q("playing.json") + "\nbackground 5\ndump" + q("resumed.json") + "\nwait 1\ndump" +
           q("later.json") + "\nquit\n";
}

nlohmann::json readJson(const fs::path& path) {
    const std::string text = esv::test::readText(path);
    EXPECT_FALSE(text.empty()) << path;
    return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
}

// The screenshots and dumps of a lossScript run.
void expectScriptedLoss(const fs::path& dir, bool gles2) {
    expectSamePicture(dir / "before.png", dir / "after.png");
    expectSamePicture(dir / "before_scene.png", dir / "after_scene.png", false);
    const nlohmann::json lost = readJson(dir / "lost.json");
    EXPECT_EQ(lost["loads"], 1) << lost.dump();
    EXPECT_EQ(lost["context"]["losses"], 1) << lost.dump();
    EXPECT_EQ(lost["context"]["restores"], 1) << lost.dump();
    EXPECT_EQ(lost["context"]["drop_gl_calls"], 0) << lost.dump();
    EXPECT_EQ(lost["gl_errors"], 0) << lost.dump();
    EXPECT_EQ(lost["gles2"], gles2);
    // Back from the background at the time it left; the next frame plays on from there.
    const nlohmann::json playing = readJson(dir / "playing.json"), resumed = readJson(dir / "resumed.json"),
                         later = readJson(dir / "later.json");
    EXPECT_EQ(playing["playing"], true);
    EXPECT_EQ(resumed["time"], playing["time"]);
    EXPECT_GT(later["time"].get<double>(), resumed["time"].get<double>());
    EXPECT_EQ(resumed["gl_errors"], 0);
    EXPECT_EQ(later["loads"], 1);
}

TEST_P(HeadlessContextLoss, ScriptedLossAndBackground) {
    const bool gles2 = GetParam();
    const fs::path dir = workDir(gles2 ? "script_es2" : "script_es3");
    std::ofstream(dir / "script.txt") << lossScript(dir);
    esv::HeadlessHost host;
    esv::ViewerOptions options;
    options.width = 960;
    options.height = 600;
    options.gles2 = gles2;
    options.script = (dir / "script.txt").string();
    ASSERT_EQ(esv::runViewer(host, options), esv::kExitOk);
    expectScriptedLoss(dir, gles2);
}

INSTANTIATE_TEST_SUITE_P(Es3AndEs2, HeadlessContextLoss, ::testing::Values(false, true), esName);

// The viewer over the SDL host on the offscreen driver, driven by SDL's own lifecycle events.
class SdlContextLoss : public ::testing::Test {
protected:
    void SetUp() override {
        dir = workDir(std::string("sdl_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
        esv::ViewerOptions options;
        options.width = 960;
        options.height = 600;
        const int started = viewer.start(host, options);
        unsetenv("SDL_VIDEODRIVER");
        ASSERT_EQ(started, esv::kExitOk);
        ASSERT_TRUE(frameUntilLoaded(viewer));
        viewer.state().panel(esv::PanelId::Stats) = false;
    }
    static void push(Uint32 type) {
        SDL_Event e{};
        e.type = type;
        ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
    }
    fs::path dir;
    esv::SdlHost host;
    esv::ViewerLoop viewer;
};

TEST_F(SdlContextLoss, BackgroundForegroundAndTheContextGoneMeanwhile) {
    esv::ViewerState& s = viewer.state();
    s.transport.playing = true;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    ASSERT_TRUE(frameWith(viewer, dir / "before.png"));
    const float time = s.transport.time;

    push(SDL_APP_WILLENTERBACKGROUND);
    push(SDL_APP_DIDENTERBACKGROUND);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.transport.time, time);
    // The context goes while the app is away (the host is not told): SDL_GL_MakeCurrent fails on
    // return, and the host makes a new one.
    SDL_GLContext context = SDL_GL_GetCurrentContext();
    ASSERT_NE(context, nullptr);
    SDL_GL_DeleteContext(context);
    ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.context.losses, 0);
    push(SDL_APP_WILLENTERFOREGROUND);
    push(SDL_APP_DIDENTERFOREGROUND);
    ASSERT_TRUE(frameWith(viewer, dir / "after.png"));
    EXPECT_EQ(s.transport.time, time);
    expectRestored(s, 1);
    expectSamePicture(dir / "before.png", dir / "after.png");

    // A context that survives the background is kept: nothing is made again.
    s.transport.playing = false;
    push(SDL_APP_WILLENTERBACKGROUND);
    ASSERT_TRUE(viewer.frame());
    push(SDL_APP_DIDENTERFOREGROUND);
    ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.context.losses, 1);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

TEST_F(SdlContextLoss, RenderDeviceResetWithTheContextSdlMadeInstead) {
    esv::ViewerState& s = viewer.state();
    s.transport.playing = false;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());  // the keyboard settles on the 3D view
    ASSERT_TRUE(frameWith(viewer, dir / "before_reset.png"));
    // As SDL's Android back end does when its context did not survive: a new one, current, and a
    // render device reset.
    SDL_Window* window = SDL_GL_GetCurrentWindow();
    ASSERT_NE(window, nullptr);
    SDL_GL_DeleteContext(SDL_GL_GetCurrentContext());
    ASSERT_NE(SDL_GL_CreateContext(window), nullptr) << SDL_GetError();
    push(SDL_RENDER_DEVICE_RESET);
    ASSERT_TRUE(frameWith(viewer, dir / "after_reset.png"));
    expectRestored(s, 1);
    expectSamePicture(dir / "before_reset.png", dir / "after_reset.png");
    // A reset that changed nothing (the context is the host's and current) is no loss.
    push(SDL_RENDER_DEVICE_RESET);
    ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.context.losses, 1);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

// `esview --host HOST demo --script` with lossScript, in a fresh folder; `prefix` wraps the run.
fs::path runScripted(const std::string& name, const std::string& host, const std::string& prefix,
                     const std::string& extra, esv::test::RunResult& run) {
    const fs::path dir = esv::test::outputDir() / ("context_loss_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "script.txt") << lossScript(dir);
    const std::string env = "cd '" + dir.string() + "' && ESVIEW_CONFIG_DIR='" + dir.string() + "' ";
    run = esv::test::runEsview(ESVIEW_BINARY,
                               "--host " + host + " demo --size 960x600 --script script.txt " + extra,
                               "context_loss_" + name, env + prefix);
    return dir;
}

TEST(SdlContextLossSession, OffscreenEs3AndEs2) {
    for (bool gles2 : {false, true}) {
        esv::test::RunResult run;
        const fs::path dir = runScripted(gles2 ? "offscreen_es2" : "offscreen_es3", "sdl",
                                         "env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=offscreen",
                                         gles2 ? "--gles2" : "", run);
        ASSERT_EQ(run.exitCode, 0) << run.err;
        expectScriptedLoss(dir, gles2);
    }
}

TEST(SdlContextLossSession, UnderXvfb) {
    ESVIEW_REQUIRE_XVFB();
    esv::test::RunResult run;
    const fs::path dir = runScripted(
        "xvfb", "sdl", "SDL_VIDEODRIVER=x11 " + std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'", "",
        run);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    expectScriptedLoss(dir, false);
}

TEST(SdlContextLossSession, AHostThatCannotLoseItsContextSaysSo) {
    ESVIEW_REQUIRE_XVFB();
    esv::test::RunResult run;
    runScripted("glfw", "glfw", std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'", "", run);
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find("esview: context lost: this host cannot lose its context on request"),
              std::string::npos)
        << run.err;
}

}  // namespace
