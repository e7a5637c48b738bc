// The SDL2 host (app/hosts/sdl_host.h): its content scale as a pure function; SDL's events, pushed into its
// queue under the offscreen driver, turned into the viewer's exactly as the GLFW host turns GLFW's;
// and `esview --host sdl` as a person runs it: a scripted session under Xvfb and with
// SDL_VIDEODRIVER=offscreen (no X at all) whose screenshots match the GLFW host's of the same
// script, the same on Wayland (a Weston nested in Xvfb), the panels following a 192 dpi screen, and
// the KMS/DRM back end with no DRM device.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <SDL.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
using esv::HostSize;
using esv::Key;
using esv::MouseButton;

// Whole-window screenshots, as the GLFW window's tests hold them (viewer_window_test.cpp).
const esv::test::GoldenRule kScreenshotRule{10, 0.02, 0.004, 3.0};

#define ESVIEW_REQUIRE_XVFB() \
    if (std::string(XVFB_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Xvfb not installed"

TEST(SdlContentScale, DrawableRatioThenDisplayDpiInQuarterSteps) {
    // A high-density surface: window coordinates are points, the drawable has twice the pixels.
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{640, 360}, HostSize{1280, 720}, 0.0f, 96.0f), 2.0f);
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{640, 360}, HostSize{960, 540}, 300.0f, 96.0f), 1.5f);
    // Window and drawable alike: the display's dots per inch over the reference, in quarter steps.
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{1280, 720}, HostSize{1280, 720}, 192.4f, 96.0f), 2.0f);
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{1280, 720}, HostSize{1280, 720}, 144.0f, 96.0f), 1.5f);
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{1280, 720}, HostSize{1280, 720}, 96.3f, 96.0f), 1.0f);
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{1080, 2340}, HostSize{1080, 2340}, 400.0f, 160.0f), 2.5f);
    // Never below 1, and 1 when SDL cannot say.
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{1280, 720}, HostSize{1280, 720}, 72.0f, 96.0f), 1.0f);
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{1280, 720}, HostSize{1280, 720}, 0.0f, 96.0f), 1.0f);
    EXPECT_FLOAT_EQ(esv::sdlContentScale(HostSize{0, 0}, HostSize{0, 0}, 0.0f, 96.0f), 1.0f);
}

// The host opened on SDL's offscreen driver, its events read back after SDL events are pushed.
class SdlHostEvents : public ::testing::Test {
protected:
    void SetUp() override {
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
        esv::HostConfig config;
        config.width = 640;
        config.height = 480;
        std::string error;
        const bool opened = host.open(config, error);
        unsetenv("SDL_VIDEODRIVER");  // the runs of esview below pick their own
        ASSERT_TRUE(opened) << error;
        std::vector<Event> drain;
        host.pollEvents(drain);
    }
    std::vector<Event> poll() {
        std::vector<Event> events;
        host.pollEvents(events);
        return events;
    }
    static void push(SDL_Event e) { ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError(); }
    static SDL_Event key(Uint32 type, SDL_Scancode scancode, Uint16 mod, Uint8 repeat = 0) {
        SDL_Event e{};
        e.type = type;
        e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
        e.key.repeat = repeat;
        e.key.keysym.scancode = scancode;
        e.key.keysym.mod = mod;
        return e;
    }
    esv::SdlHost host;
};

TEST_F(SdlHostEvents, KeysByScancodeWithModifiersAndNoRepeats) {
    push(key(SDL_KEYDOWN, SDL_SCANCODE_LSHIFT, KMOD_LSHIFT));
    push(key(SDL_KEYDOWN, SDL_SCANCODE_W, KMOD_LSHIFT));
    push(key(SDL_KEYDOWN, SDL_SCANCODE_W, KMOD_LSHIFT, 1));  // auto-repeat: no event
    push(key(SDL_KEYUP, SDL_SCANCODE_W, KMOD_LSHIFT));
    push(key(SDL_KEYDOWN, SDL_SCANCODE_0, KMOD_LCTRL | KMOD_LALT | KMOD_LGUI));
    push(key(SDL_KEYDOWN, SDL_SCANCODE_RETURN, 0));
    push(key(SDL_KEYDOWN, SDL_SCANCODE_KP_PLUS, 0));
    push(key(SDL_KEYDOWN, SDL_SCANCODE_F12, 0));
    push(key(SDL_KEYDOWN, SDL_SCANCODE_CAPSLOCK, 0));  // not a key the viewer reads
    const std::vector<Event> events = poll();
    ASSERT_EQ(events.size(), 7u);
    for (const Event& e : events) EXPECT_EQ(e.type, EventType::Key);
    EXPECT_EQ(events[0].key, Key::LeftShift);
    EXPECT_EQ(events[1].key, Key::W);
    EXPECT_TRUE(events[1].down);
    EXPECT_EQ(events[1].mods, esv::kModShift);
    EXPECT_EQ(events[2].key, Key::W);
    EXPECT_FALSE(events[2].down);
    EXPECT_EQ(events[3].key, Key::Num0);
    EXPECT_EQ(events[3].mods, esv::kModControl | esv::kModAlt | esv::kModSuper);
    EXPECT_EQ(events[4].key, Key::Enter);
    EXPECT_EQ(events[5].key, Key::KeypadAdd);
    EXPECT_EQ(events[6].key, Key::F12);
}

TEST_F(SdlHostEvents, MouseWheelTextDropsResizeAndClose) {
    SDL_Event e{};
    e.type = SDL_MOUSEMOTION;
    e.motion.x = 100;
    e.motion.y = 50;
    push(e);
    e = SDL_Event{};
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_RIGHT;
    e.button.x = 110;
    e.button.y = 60;
    push(e);
    e.type = SDL_MOUSEBUTTONUP;
    push(e);
    e = SDL_Event{};
    e.type = SDL_MOUSEWHEEL;
    e.wheel.preciseX = 0.5f;
    e.wheel.preciseY = 2.0f;
    e.wheel.direction = SDL_MOUSEWHEEL_FLIPPED;  // "natural" scrolling: the steps as the user meant them
    push(e);
    e = SDL_Event{};
    e.type = SDL_TEXTINPUT;
    std::snprintf(e.text.text, sizeof(e.text.text), "a\xC3\xA9\xE2\x82\xAC");  // a, e acute, euro sign
    push(e);
    for (const char* path : {"/tmp/one.pod", "/tmp/two"}) {
        e = SDL_Event{};
        e.type = SDL_DROPFILE;
        e.drop.file = SDL_strdup(path);
        push(e);
    }
    e = SDL_Event{};
    e.type = SDL_DROPCOMPLETE;
    push(e);
    e = SDL_Event{};
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
    push(e);
    e = SDL_Event{};
    e.type = SDL_QUIT;
    push(e);
    const std::vector<Event> events = poll();
    ASSERT_EQ(events.size(), 12u);
    EXPECT_EQ(events[0].type, EventType::MouseMove);
    EXPECT_EQ(events[0].x, 100.0);
    EXPECT_EQ(events[0].y, 50.0);
    // A button comes after a move to where it was pressed, as the GLFW host gives it.
    EXPECT_EQ(events[1].type, EventType::MouseMove);
    EXPECT_EQ(events[1].x, 110.0);
    EXPECT_EQ(events[2].type, EventType::MouseButton);
    EXPECT_EQ(events[2].button, MouseButton::Right);
    EXPECT_TRUE(events[2].down);
    EXPECT_EQ(events[4].type, EventType::MouseButton);
    EXPECT_FALSE(events[4].down);
    EXPECT_EQ(events[5].type, EventType::Wheel);
    EXPECT_EQ(events[5].x, -0.5);
    EXPECT_EQ(events[5].y, -2.0);
    EXPECT_EQ(events[6].codepoint, uint32_t('a'));
    EXPECT_EQ(events[7].codepoint, 0xE9u);
    EXPECT_EQ(events[8].codepoint, 0x20ACu);
    // One drop event for the whole drop, as GLFW's callback gives it.
    EXPECT_EQ(events[9].type, EventType::Drop);
    EXPECT_EQ(events[9].paths, (std::vector<std::string>{"/tmp/one.pod", "/tmp/two"}));
    // A size change gives the framebuffer's size in pixels.
    EXPECT_EQ(events[10].type, EventType::Resize);
    EXPECT_EQ(events[10].width, 640);
    EXPECT_EQ(events[10].height, 480);
    EXPECT_EQ(events[11].type, EventType::Close);
}

TEST_F(SdlHostEvents, FingersBecomeTheMouseAndADoubleTapTheFrameKey) {
    auto finger = [](Uint32 type, SDL_FingerID id, float x, float y, Uint32 ms) {
        SDL_Event e{};
        e.type = type;
        e.tfinger.fingerId = id;
        e.tfinger.x = x;  // [0, 1] across the 640x480 window
        e.tfinger.y = y;
        e.tfinger.timestamp = ms;
        return e;
    };
    push(finger(SDL_FINGERDOWN, 1, 0.5f, 0.5f, 1000));
    push(finger(SDL_FINGERUP, 1, 0.5f, 0.5f, 1050));
    push(finger(SDL_FINGERDOWN, 2, 0.5f, 0.5f, 1200));
    push(finger(SDL_FINGERUP, 2, 0.5f, 0.5f, 1250));
    std::vector<Event> events = poll();
    // Touch-sized panels follow the attached devices (the offscreen driver has none), not a finger
    // seen, so the rows do not move under the finger that is tapping them.
    EXPECT_EQ(host.touchScreen(), SDL_GetNumTouchDevices() > 0);
    EXPECT_FALSE(host.touchScreen());
    ASSERT_EQ(events.size(), 9u);
    EXPECT_EQ(events[0].type, EventType::MouseMove);
    EXPECT_EQ(events[0].x, 320.0);
    EXPECT_EQ(events[0].y, 240.0);
    EXPECT_EQ(events[1].type, EventType::MouseButton);
    EXPECT_EQ(events[1].button, MouseButton::Left);
    EXPECT_TRUE(events[1].down);
    EXPECT_EQ(events[8].type, EventType::Key);
    EXPECT_EQ(events[8].key, Key::F);
    EXPECT_TRUE(events[8].down);
    // The key is let go at the next frame.
    events = poll();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].key, Key::F);
    EXPECT_FALSE(events[0].down);
}

TEST_F(SdlHostEvents, OffscreenWindowHasTheConfiguredSizeAndAClock) {
    EXPECT_EQ(host.windowSize().width, 640);
    EXPECT_EQ(host.framebufferSize().height, 480);
    EXPECT_FLOAT_EQ(host.contentScale(), 1.0f);  // the offscreen driver reports no DPI
    const double t = host.time();
    EXPECT_GE(t, 0.0);
    EXPECT_GE(host.time(), t);
    host.setClipboardText("esview");
    EXPECT_EQ(host.clipboardText(), "esview");
}

// The viewer core over the SDL host on the offscreen driver, fed SDL's own touch and key events.
class SdlHostViewer : public ::testing::Test {
protected:
    void SetUp() override {
        // A folder per test (ctest runs them as parallel processes, and each empties its own).
        const fs::path dir = esv::test::outputDir() /
                             (std::string("sdl_host_viewer_") +
                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
        setenv("ESVIEW_CONFIG_DIR", dir.c_str(), 1);
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
        const int started = viewer.start(host, esv::ViewerOptions{});  // demo, 1280x720, ES3
        unsetenv("SDL_VIDEODRIVER");
        ASSERT_EQ(started, 0);
        for (int i = 0; i < 2000 && !loaded(); ++i) ASSERT_TRUE(viewer.frame());
        ASSERT_TRUE(loaded());
        viewer.state().transport.playing = false;
    }
    bool loaded() {
        const esv::ViewerState& s = viewer.state();
        return s.scene && !s.load.active;
    }
    // Pushes a finger event at (x, y) in window coordinates and runs the frame that receives it.
    void finger(Uint32 type, SDL_FingerID id, float x, float y) {
        SDL_Event e{};
        e.type = type;
        e.tfinger.fingerId = id;
        e.tfinger.x = x / 1280.0f;
        e.tfinger.y = y / 720.0f;
        ASSERT_EQ(SDL_PushEvent(&e), 1);
        ASSERT_TRUE(viewer.frame());
    }
    void key(SDL_Scancode scancode) {
        for (Uint32 type : {Uint32(SDL_KEYDOWN), Uint32(SDL_KEYUP)}) {
            SDL_Event e{};
            e.type = type;
            e.key.keysym.scancode = scancode;
            ASSERT_EQ(SDL_PushEvent(&e), 1);
            ASSERT_TRUE(viewer.frame());
        }
    }
    int nodeNamed(const std::string& name) {
        const esv::Scene& scene = *viewer.state().scene;
        for (size_t i = 0; i < scene.nodes.size(); ++i)
            if (scene.nodes[i].name == name) return int(i);
        return -1;
    }
    esv::SdlHost host;
    esv::ViewerLoop viewer;
};

TEST_F(SdlHostViewer, TouchTapsThePanelsDragsOrbitsPinchesZoomsAndDoubleTapFrames) {
    esv::ViewerState& s = viewer.state();
    esv::OrbitCamera& orbit = s.view.orbit;
    // A tap on the Scene panel's "blob" row selects it: the panels get the finger as their pointer.
    ASSERT_GE(nodeNamed("blob"), 0);
    finger(SDL_FINGERDOWN, 1, 120, 143);
    finger(SDL_FINGERUP, 1, 120, 143);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.selection.node, nodeNamed("blob"));

    // One finger dragged 100 units across the 3D view: a radian of yaw.
    const float yaw = orbit.yaw;
    finger(SDL_FINGERDOWN, 2, 550, 450);
    finger(SDL_FINGERMOTION, 2, 600, 450);
    finger(SDL_FINGERMOTION, 2, 650, 450);
    finger(SDL_FINGERUP, 2, 650, 450);
    EXPECT_NEAR(orbit.yaw, yaw - 1.0f, 1e-4f);

    // F (SDL's key) frames the scene; two fingers spread to twice their distance halve the orbit
    // distance; a double tap frames the scene again.
    key(SDL_SCANCODE_F);
    const float framed = orbit.distance;
    // (Away from where the drag began: two presses at one place within 0.3 s are a double click.)
    finger(SDL_FINGERDOWN, 3, 450, 350);
    finger(SDL_FINGERDOWN, 4, 550, 350);
    finger(SDL_FINGERMOTION, 4, 650, 350);
    finger(SDL_FINGERUP, 3, 450, 350);
    finger(SDL_FINGERUP, 4, 650, 350);
    EXPECT_NEAR(orbit.distance, framed * 0.5f, framed * 1e-3f);
    finger(SDL_FINGERDOWN, 5, 600, 450);
    finger(SDL_FINGERUP, 5, 600, 450);
    finger(SDL_FINGERDOWN, 6, 600, 450);
    finger(SDL_FINGERUP, 6, 600, 450);
    ASSERT_TRUE(viewer.frame());
    EXPECT_NEAR(orbit.distance, framed, framed * 1e-3f);
}

// A scripted session's output: screenshots and a dump in `dir`.
struct Session {
    fs::path dir;
    esv::test::RunResult run;
};

// Runs `esview --host HOST demo --script S` in a fresh folder; `prefix` wraps or sets up the run.
Session runSession(const std::string& name, const std::string& host, const std::string& script,
                   const std::string& prefix, const std::string& extra = "") {
    Session s;
    s.dir = esv::test::outputDir() / ("sdl_host_" + name);
    fs::remove_all(s.dir);
    fs::create_directories(s.dir);
    std::ofstream(s.dir / "script.txt") << script;
    // Screenshots and dumps relative to the folder the run starts in; the configuration there too.
    const std::string env = "cd '" + s.dir.string() + "' && ESVIEW_CONFIG_DIR='" + s.dir.string() + "' ";
    s.run = esv::test::runEsview(ESVIEW_BINARY, "--host " + host + " demo --script script.txt " + extra,
                                 "sdl_host_" + name, env + prefix);
    return s;
}

// Orbits with the left button, zooms with the wheel, switches the view mode by key and selects through
// the Scene panel: input through the same path as a window's.
const char* kSessionScript =
    "panel stats off\npause\nwait 3\nscreenshot first.png\n"
    "drag 600 300 660 330 left 5\nwheel 600 300 2\npress 4\nwait 2\nscreenshot moved.png\n"
    "select blob\nset ui-scale 1.25\nwait 3\nscreenshot selected.png\ndump state.json\nquit\n";

nlohmann::json readJson(const fs::path& path) {
    const std::string text = esv::test::readText(path);
    return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
}

// Compares each screenshot of `sdl` with the GLFW session's, and the state they dumped.
void expectSameSession(const Session& sdl, const Session& glfw, const std::string& tag) {
    for (const char* shot : {"first", "moved", "selected"}) {
        esv::test::Image a, b;
        ASSERT_TRUE(esv::test::loadPng((sdl.dir / (std::string(shot) + ".png")).string(), a)) << shot;
        ASSERT_TRUE(esv::test::loadPng((glfw.dir / (std::string(shot) + ".png")).string(), b)) << shot;
        EXPECT_EQ(a.width, 1280);
        EXPECT_EQ(a.height, 720);
        const std::string mismatch =
            esv::test::matchImage("sdl_host_" + tag + "_" + shot, a, b, kScreenshotRule);
        EXPECT_TRUE(mismatch.empty()) << mismatch;
    }
    const nlohmann::json a = readJson(sdl.dir / "state.json"), b = readJson(glfw.dir / "state.json");
    ASSERT_FALSE(a.empty());
    EXPECT_EQ(a["mode"], "weights");
    EXPECT_EQ(a["selected"], "blob");
    for (const char* key : {"mode", "selected", "frame", "font", "ui_scale"})
        EXPECT_EQ(a[key], b[key]) << key;
}

TEST(SdlHostSession, UnderXvfbScreenshotsMatchTheGlfwHost) {
    ESVIEW_REQUIRE_XVFB();
    const std::string xvfb =
        "SDL_VIDEODRIVER=x11 " + std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'";
    const Session sdl = runSession("xvfb_sdl", "sdl", kSessionScript, xvfb);
    ASSERT_EQ(sdl.run.exitCode, 0) << sdl.run.err;
    const Session glfw = runSession("xvfb_glfw", "glfw", kSessionScript, xvfb);
    ASSERT_EQ(glfw.run.exitCode, 0) << glfw.run.err;
    expectSameSession(sdl, glfw, "xvfb");
}

TEST(SdlHostSession, OffscreenDriverWithNoDisplayMatchesTheGlfwHost) {
    ESVIEW_REQUIRE_XVFB();  // for the GLFW host's screenshots
    const Session sdl = runSession("offscreen", "sdl", kSessionScript,
                                   "env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=offscreen");
    ASSERT_EQ(sdl.run.exitCode, 0) << sdl.run.err;
    const Session glfw = runSession("offscreen_glfw", "glfw", kSessionScript,
                                    std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'");
    ASSERT_EQ(glfw.run.exitCode, 0) << glfw.run.err;
    expectSameSession(sdl, glfw, "offscreen");
}

TEST(SdlHostSession, Es2ContextOffscreenMatchesTheGlfwHost) {
    ESVIEW_REQUIRE_XVFB();  // for the GLFW host's screenshots
    const Session sdl = runSession("offscreen_es2", "sdl", kSessionScript,
                                   "env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=offscreen", "--gles2");
    ASSERT_EQ(sdl.run.exitCode, 0) << sdl.run.err;
    const Session glfw = runSession("offscreen_es2_glfw", "glfw", kSessionScript,
                                    std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'", "--gles2");
    ASSERT_EQ(glfw.run.exitCode, 0) << glfw.run.err;
    expectSameSession(sdl, glfw, "offscreen_es2");
    EXPECT_EQ(readJson(sdl.dir / "state.json")["gles2"], true);
}

TEST(SdlHostSession, WaylandUnderWestonMatchesTheGlfwHost) {
    ESVIEW_REQUIRE_XVFB();
    if (std::string(WESTON_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Weston not installed";
    // Weston on its X11 back end in an Xvfb screen larger than the window (with-weston.sh says why not
    // its headless one); esview its Wayland client, with no X display of its own.
    const Session sdl = runSession("wayland", "sdl", kSessionScript,
                                   std::string(XVFB_RUN) + " -a -s '-screen 0 1600x900x24' " + WESTON_RUN);
    ASSERT_EQ(sdl.run.exitCode, 0) << sdl.run.err;
    const Session glfw = runSession("wayland_glfw", "glfw", kSessionScript,
                                    std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'");
    ASSERT_EQ(glfw.run.exitCode, 0) << glfw.run.err;
    expectSameSession(sdl, glfw, "wayland");
}

TEST(SdlHostSession, PanelsFollowTheScreensDpi) {
    ESVIEW_REQUIRE_XVFB();
    // Xvfb's RandR output has no physical size, so SDL reads the DPI from the core protocol's screen
    // size, which -dpi sets.
    const char* script = "panel stats off\nwait 2\nscreenshot dpi.png\ndump state.json\nquit\n";
    const Session hi = runSession("dpi192", "sdl", script,
                                  "SDL_VIDEODRIVER=x11 SDL_VIDEO_X11_XRANDR=0 " + std::string(XVFB_RUN) +
                                      " -a -s '-screen 0 1280x720x24 -dpi 192'");
    ASSERT_EQ(hi.run.exitCode, 0) << hi.run.err;
    const Session standard = runSession("dpi96", "sdl", script,
                                        "SDL_VIDEODRIVER=x11 SDL_VIDEO_X11_XRANDR=0 " +
                                            std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24 -dpi 96'");
    ASSERT_EQ(standard.run.exitCode, 0) << standard.run.err;
    const nlohmann::json a = readJson(hi.dir / "state.json"), b = readJson(standard.dir / "state.json");
    EXPECT_FLOAT_EQ(a["font"]["scale"].get<float>(), 2.0f) << a["font"].dump();
    EXPECT_FLOAT_EQ(b["font"]["scale"].get<float>(), 1.0f) << b["font"].dump();
    EXPECT_FLOAT_EQ(a["font"]["pixels"].get<float>(), 2.0f * b["font"]["pixels"].get<float>());
    EXPECT_EQ(a["ui_scale"], b["ui_scale"]);  // the setting stays; the screen's scale multiplies it
    // The panels take more room at 192 dpi: the 3D view between them is narrower.
    esv::test::Image big, small;
    ASSERT_TRUE(esv::test::loadPng((hi.dir / "dpi.png").string(), big));
    ASSERT_TRUE(esv::test::loadPng((standard.dir / "dpi.png").string(), small));
    EXPECT_GT(esv::test::compareImages(big, small, 12).differingFraction, 0.1);
}

TEST(SdlHostSession, KmsdrmWithoutADrmDeviceExitsOneWithOneLine) {
    const esv::test::RunResult r =
        esv::test::runEsview(ESVIEW_BINARY, "--host sdl demo", "sdl_host_kmsdrm",
                             "env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=kmsdrm");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err.rfind("esview: no display for the SDL host (kmsdrm): ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(SdlHostSession, UnknownHostIsAUsageError) {
    const esv::test::RunResult r = esv::test::runEsview(ESVIEW_BINARY, "--host sdl3 demo", "sdl_host_usage");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("sdl3"), std::string::npos) << r.err;
}

}  // namespace
