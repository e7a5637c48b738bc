// Script input and files that cannot be opened, on the headless host (no window system): the
// script's `press`, `type`, `hover`, `drag`, `wheel` and `dclick` take the path of a window's events
// (the viewport's orbit, pan, zoom, pick and shortcuts; the panels through Dear ImGui), and a file
// named on the command line that cannot be opened still opens the window with the reason.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/hosts/headless_host.h"
#include "app/viewer/transport.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"

namespace {

namespace fs = std::filesystem;

fs::path workDir(const std::string& name) { return esv::test::viewerWorkDir("viewer_input_", name); }

using esv::test::frameUntilLoaded;

using esv::test::readText;

nlohmann::json readJson(const fs::path& path) {
    const std::string text = readText(path);
    return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
}

// Runs the viewer on `file` with `script` (written to dir/script.txt) to its end: the exit code.
int runScript(const fs::path& dir, const std::string& file, const std::string& script) {
    const fs::path path = dir / "script.txt";
    std::ofstream(path) << script;
    esv::HeadlessHost host;
    esv::ViewerOptions options;
    options.file = file;
    options.script = path.string();
    return esv::runViewer(host, options);
}

using esv::test::reddishFraction;

// Where things are in the demo's first view (1280x720, paused at 0 s), found by a viewer run frame
// by frame: the blob's centre on the screen and in the world, a point of a panel that takes input,
// and a point of the 3D view that no window covers.
struct DemoLayout {
    glm::vec2 blob{0.0f};
    glm::vec3 blobWorld{0.0f};
    glm::vec2 panel{-1.0f};
    glm::vec2 free{-1.0f};
};

bool inside(const ImGuiWindow* w, const glm::vec2& p) {
    return p.x >= w->Pos.x && p.y >= w->Pos.y && p.x < w->Pos.x + w->Size.x && p.y < w->Pos.y + w->Size.y;
}

// The layout probes below run the viewer unscripted, which reads and writes the layout file: they
// get a clean configuration folder of their own (else the user's layout, or one a test left, moves
// the panels), and the caller's folder is set back after.
class ProbeConfig {
public:
    ProbeConfig() {
        const char* previous = std::getenv("ESVIEW_CONFIG_DIR");
        m_had = previous != nullptr;
        if (m_had) m_previous = previous;
        // A folder per test: ctest runs the tests of this file as parallel processes, and each
        // probe empties its folder first.
        workDir(std::string("layout_probe_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    }
    ~ProbeConfig() {
        if (m_had)
            setenv("ESVIEW_CONFIG_DIR", m_previous.c_str(), 1);
        else
            unsetenv("ESVIEW_CONFIG_DIR");
    }

private:
    bool m_had = false;
    std::string m_previous;
};

bool demoLayout(DemoLayout& out) {
    const ProbeConfig config;
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    if (viewer.start(host, esv::ViewerOptions{}) != esv::kExitOk || !frameUntilLoaded(viewer)) return false;
    esv::ViewerState& s = viewer.state();
    s.transport.playing = false;
    esv::seekTransport(*s.scene, s.transport, 0.0f);
    for (int i = 0; i < 3; ++i) viewer.frame();
    const int blob = esv::findNode(*s.scene, "blob");
    if (blob < 0) return false;
    out.blobWorld = glm::vec3(s.pose.world[blob][3]);
    if (!esv::projectToScreen(s, out.blobWorld, out.blob) || esv::pickAt(s, out.blob.x, out.blob.y) != blob)
        return false;
    // The windows drawn: the biggest that takes input is a panel; the free point is the first of a
    // row across the lower middle that none covers and where nothing is picked.
    std::vector<const ImGuiWindow*> windows;
    float biggest = 0.0f;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow)) continue;
        windows.push_back(w);
        if ((w->Flags & (ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_Tooltip)) ||
            std::strncmp(w->Name, "Debug##", 7) == 0)
            continue;
        if (w->Size.x * w->Size.y > biggest) {
            biggest = w->Size.x * w->Size.y;
            out.panel = glm::vec2(w->Pos.x + w->Size.x * 0.5f, w->Pos.y + w->Size.y * 0.5f);
        }
    }
    for (int dx = 0; dx < 640 && out.free.x < 0.0f; dx += 10)
        for (float x : {640.0f - float(dx), 640.0f + float(dx)}) {
            const glm::vec2 p(x, 540.0f);
            if (std::none_of(windows.begin(), windows.end(),
                             [&](const ImGuiWindow* w) { return inside(w, p); }) &&
                esv::pickAt(s, p.x, p.y, 40.0f) < 0) {
                out.free = p;
                break;
            }
        }
    viewer.finish();
    return out.panel.x >= 0.0f && out.free.x >= 0.0f;
}

std::string xy(const glm::vec2& p) {
    return std::to_string(p.x) + " " + std::to_string(p.y);
}

// A file named on the command line that cannot be opened (missing, or cut short) still opens the
// window: the load error banner says why (the OS's reason for a missing file, the byte offset for a
// corrupt one), the script runs and `dump` reports the error, and the run exits 1.
TEST(ViewerInput, AFileThatCannotBeOpenedShowsWhyInTheWindow) {
    const fs::path dir = workDir("load_error");
    const std::string bytes = readText(esv::test::sourceDir() / "assets" / "demo.pod");
    const fs::path broken = dir / "broken.pod", missing = dir / "missing.pod";
    std::ofstream(broken, std::ios::binary) << bytes.substr(0, 300);
    const std::pair<fs::path, std::string> cases[] = {
        {missing, missing.string() + ": cannot read the file: No such file or directory"},
        {broken, broken.string() + ": offset 0x32: scene: the file ends before the block's end tag"}};
    for (const auto& [file, error] : cases) {
        const fs::path json = dir / (file.stem().string() + ".json"),
                       png = dir / (file.stem().string() + ".png");
        EXPECT_EQ(runScript(dir, file.string(),
                            "wait 2\ndump " + json.string() + "\nscreenshot " + png.string() + "\nquit\n"),
                  esv::kExitBadInput);
        const nlohmann::json state = readJson(json);
        EXPECT_EQ(state["load_error"], error);
        EXPECT_EQ(state["loading"], false);
        EXPECT_EQ(state["path"], "") << "no scene";
        EXPECT_FALSE(state.contains("format"));
        esv::test::Image image;
        ASSERT_TRUE(esv::test::loadPng(png.string(), image)) << png;
        // The banner sits low in the middle of the window.
        EXPECT_GT(reddishFraction(image, 0, image.height / 2, image.width, image.height), 0.02) << png;
    }

    // Driven frame by frame: the viewer goes on after the failure, and finish() says 1.
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;
    options.file = missing.string();
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    for (int i = 0; i < 2000 && (viewer.state().load.active || viewer.state().load.error.empty()); ++i)
        ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(viewer.state().load.error, cases[0].second);
    EXPECT_TRUE(viewer.frame()) << "the window stays open";
    EXPECT_TRUE(viewer.frame());
    EXPECT_EQ(viewer.finish(), esv::kExitBadInput);
}

// Script input takes the path of a window's events: a left drag over the 3D view orbits (0.01
// radian per pixel), a right drag pans, the wheel zooms (0.88 per step away).
TEST(ViewerInput, ScriptDragAndWheelMoveTheOrbitCamera) {
    DemoLayout layout;
    ASSERT_TRUE(demoLayout(layout)) << "no free point in the 3D view";
    const fs::path dir = workDir("script_drag");
    const std::string d = dir.string() + "/";
    const glm::vec2 from = layout.free - glm::vec2(50.0f, 10.0f), to = layout.free + glm::vec2(50.0f, 10.0f);
    const glm::vec2 right = layout.free + glm::vec2(60.0f, 0.0f);
    const std::string script = "pause\norbit 30 10 6\nwait 1\ndump " + d + "before.json\n" +  //
                               "drag " + xy(from) + " " + xy(to) + "\ndump " + d + "drag.json\n" + "drag " +
                               xy(layout.free) + " " + xy(right) + " right 4\ndump " + d + "pan.json\n" +
                               "wheel " + xy(layout.free) + " 2\ndump " + d + "wheel.json\nquit\n";
    ASSERT_EQ(runScript(dir, "demo", script), esv::kExitOk);
    const nlohmann::json before = readJson(dir / "before.json"), drag = readJson(dir / "drag.json"),
                         pan = readJson(dir / "pan.json"), wheel = readJson(dir / "wheel.json");
    const double degreesPerPixel = 0.01 * 180.0 / M_PI;
    EXPECT_NEAR(drag["orbit"]["yaw_deg"].get<double>(),
                before["orbit"]["yaw_deg"].get<double>() - 100 * degreesPerPixel, 1e-3);
    EXPECT_NEAR(drag["orbit"]["pitch_deg"].get<double>(),
                before["orbit"]["pitch_deg"].get<double>() + 20 * degreesPerPixel, 1e-3);
    EXPECT_EQ(drag["orbit"]["target"], before["orbit"]["target"]);
    EXPECT_TRUE(drag["selected"].is_null()) << "a drag picks nothing";
    EXPECT_EQ(pan["orbit"]["yaw_deg"], drag["orbit"]["yaw_deg"]);
    EXPECT_NE(pan["orbit"]["target"], drag["orbit"]["target"]) << "a right drag pans";
    EXPECT_NEAR(wheel["orbit"]["distance"].get<double>(),
                pan["orbit"]["distance"].get<double>() * 0.88 * 0.88, 1e-4);
    EXPECT_NEAR(wheel["pointer"]["x"].get<double>(), layout.free.x, 1e-3);
    EXPECT_FALSE(wheel["pointer"]["over_panel"].get<bool>());
}

// A double click on a mesh picks it (the first click) and frames it (the second); hovering a panel
// gives it the pointer, and the wheel over it scrolls the panel instead of zooming.
TEST(ViewerInput, ScriptDoubleClickFramesAMeshAndHoverFindsThePanels) {
    DemoLayout layout;
    ASSERT_TRUE(demoLayout(layout)) << "the blob, a panel or a free point is not where the test looks";
    const fs::path dir = workDir("script_dclick");
    const std::string d = dir.string() + "/";
    const std::string script = "pause\ntime 0\nwait 2\ndump " + d + "before.json\n" +  //
                               "dclick " + xy(layout.blob) + "\ndump " + d + "dclick.json\n" + "hover " +
                               xy(layout.panel) + "\ndump " + d + "panel.json\n" + "wheel " +
                               xy(layout.panel) + " 3\ndump " + d + "wheel.json\n" + "hover " +
                               xy(layout.free) + "\ndump " + d + "free.json\nquit\n";
    ASSERT_EQ(runScript(dir, "demo", script), esv::kExitOk);
    const nlohmann::json before = readJson(dir / "before.json"), dclick = readJson(dir / "dclick.json");
    EXPECT_TRUE(before["selected"].is_null());
    EXPECT_EQ(dclick["selected"], "blob");
    auto distanceToBlob = [&](const nlohmann::json& state) {
        const auto& t = state["orbit"]["target"];
        return glm::distance(glm::vec3(t[0].get<float>(), t[1].get<float>(), t[2].get<float>()),
                             layout.blobWorld);
    };
    EXPECT_LT(distanceToBlob(dclick), 0.5f * distanceToBlob(before)) << "the double click frames the blob";

    const nlohmann::json panel = readJson(dir / "panel.json"), wheel = readJson(dir / "wheel.json");
    EXPECT_TRUE(panel["pointer"]["over_panel"].get<bool>()) << panel["pointer"];
    EXPECT_NEAR(panel["pointer"]["x"].get<double>(), layout.panel.x, 1e-3);
    EXPECT_EQ(wheel["orbit"]["distance"], panel["orbit"]["distance"])
        << "the wheel over a panel does not zoom";
    EXPECT_FALSE(readJson(dir / "free.json")["pointer"]["over_panel"].get<bool>());
}

// Keys and text reach the panels through Dear ImGui as they do from a keyboard: F6 hands the
// keyboard to the panels, arrows and space navigate into the settings, Tab puts its first field
// (the playback speed) into text editing, typed text and Enter set it. Tab, which walks the node
// selection in the 3D view, reaches only the panel.
TEST(ViewerInput, ScriptKeysAndTextReachThePanels) {
    const fs::path dir = workDir("script_keys");
    const std::string d = dir.string() + "/";
    ASSERT_EQ(runScript(dir, "demo",
                        "pause\nwait 2\npress f6\nwait 1\npress down\npress space\nwait 1\n"
                        "press tab\nwait 1\ndump " +
                            d +
                            "tab.json\n"
                            "type 0.25\npress enter\nwait 1\ndump " +
                            d + "typed.json\nquit\n"),
              esv::kExitOk);
    const nlohmann::json tab = readJson(dir / "tab.json"), typed = readJson(dir / "typed.json");
    EXPECT_TRUE(tab["keyboard_to_panel"].get<bool>());
    EXPECT_TRUE(tab["text_input"].get<bool>()) << "Tab made a panel field editable";
    EXPECT_TRUE(tab["selected"].is_null()) << "the 3D view did not get the Tab";
    EXPECT_FLOAT_EQ(typed["speed"].get<float>(), 0.25f) << "the typed speed was entered";
    EXPECT_FALSE(typed["text_input"].get<bool>()) << "Enter ends the editing";
    EXPECT_FALSE(typed["playing"].get<bool>()) << "space went to the panel, not to play";
}

// Where the keyboard tests point and click in the demo's first view (1280x720): the 3D view's
// rectangle, a point of the 3D view where nothing is picked, and a point in the right region's padding
// (a click there focuses the panel and presses nothing).
struct FocusLayout {
    esv::LayoutRect view;
    glm::vec2 free{-1.0f};
    glm::vec2 panel{-1.0f};
};

bool focusLayout(FocusLayout& out) {
    DemoLayout demo;
    if (!demoLayout(demo)) return false;
    const ProbeConfig config;
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    if (viewer.start(host, esv::ViewerOptions{}) != esv::kExitOk || !frameUntilLoaded(viewer)) return false;
    for (int i = 0; i < 3; ++i) viewer.frame();
    const esv::ViewerState& s = viewer.state();
    out.view = s.layout.viewport;
    out.free = demo.free;
    const esv::LayoutRect& right = s.layout.regions[size_t(esv::Region::Right)];
    out.panel = glm::vec2(right.x + 3.0f, right.bottom() - 4.0f);
    viewer.finish();
    return !out.view.empty() && !right.empty() && out.view.contains(out.free.x, out.free.y);
}

// Fraction of the pixels of the box [x0, x1) x [y0, y1) in the keyboard focus line's blue.
double focusBlueFraction(const esv::test::Image& image, int x0, int y0, int x1, int y1) {
    size_t blue = 0, total = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x, ++total) {
            const uint8_t* p = &image.rgba[(size_t(y) * image.width + x) * 4];
            blue += p[2] > 150 && p[2] > p[0] + 80 && p[2] > p[1] + 30;
        }
    return total ? double(blue) / double(total) : 0.0;
}

// The keys follow the pointer: after a click in a panel, the panel has them while the pointer is
// over it (K does not reach the view), and the 3D view has them as soon as the pointer is over it (K
// shows the skeleton, H hides the panels), without clicking the view.
TEST(ViewerInput, HotkeysFollowThePointerOverThe3DView) {
    FocusLayout layout;
    ASSERT_TRUE(focusLayout(layout)) << "no free point in the 3D view or no right region";
    const fs::path dir = workDir("focus_follow");
    const std::string d = dir.string() + "/";
    const std::string click = "drag " + xy(layout.panel) + " " + xy(layout.panel) + " left 1\n";
    ASSERT_EQ(
        runScript(dir, "demo",
                  "pause\nwait 2\n" + click + "wait 1\npress k\nwait 1\ndump " + d + "panel.json\n" +
                      "hover " + xy(layout.free) + "\ndump " + d + "hover.json\npress k\nwait 1\ndump " + d +
                      "view.json\npress h\nwait 2\ndump " + d + "hidden.json\nquit\n"),
        esv::kExitOk);
    const nlohmann::json panel = readJson(dir / "panel.json"), hover = readJson(dir / "hover.json"),
                         view = readJson(dir / "view.json"), hidden = readJson(dir / "hidden.json");
    EXPECT_TRUE(panel["keyboard_to_panel"].get<bool>()) << "the clicked panel has the keys under the pointer";
    EXPECT_FALSE(panel["skeleton"].get<bool>()) << "K went to the panel";
    EXPECT_FALSE(hover["keyboard_to_panel"].get<bool>()) << "over the 3D view the view has the keys";
    EXPECT_TRUE(view["skeleton"].get<bool>()) << "K reached the view without a click in it";
    EXPECT_EQ(hidden["viewport"], nlohmann::json::array({0.0, 0.0, 1280.0, 720.0})) << "H hid the panels";
    EXPECT_EQ(hidden["view_hint"], "Panels hidden: press H to show them") << "and says how to bring them back";
    EXPECT_EQ(view["view_hint"], "") << "no hint with the panels shown";
}

// Esc closes what is open before it acts on the view: the file browser (Ctrl+O) first, then a
// panel's focus, and only then the view's own action (clearing the selection).
TEST(ViewerInput, EscapeClosesTheBrowserAndThePanelFocusBeforeTheView) {
    FocusLayout layout;
    ASSERT_TRUE(focusLayout(layout)) << "no free point in the 3D view or no right region";
    const fs::path dir = workDir("focus_escape");
    const std::string d = dir.string() + "/";
    const std::string click = "drag " + xy(layout.panel) + " " + xy(layout.panel) + " left 1\n";
    ASSERT_EQ(runScript(dir, "demo",
                        "pause\nselect blob\nwait 2\nhover " + xy(layout.free) +
                            "\npress ctrl+o\nwait 1\ndump " + d + "open.json\npress escape\nwait 1\ndump " +
                            d + "esc1.json\npress escape\nwait 1\ndump " + d + "esc2.json\n" +
                            // A clicked panel: Esc takes the keys back, a second Esc is the view's.
                            "select blob\n" + click + "wait 1\ndump " + d +
                            "focused.json\npress escape\nwait 1\ndump " + d +
                            "esc3.json\npress escape\nwait 1\ndump " + d + "esc4.json\nquit\n"),
              esv::kExitOk);
    const nlohmann::json open = readJson(dir / "open.json"), esc1 = readJson(dir / "esc1.json"),
                         esc2 = readJson(dir / "esc2.json");
    EXPECT_TRUE(open["panels"]["browser"].get<bool>()) << "ctrl+O over the view opened the browser";
    EXPECT_FALSE(esc1["panels"]["browser"].get<bool>()) << "Esc closed the browser";
    EXPECT_EQ(esc1["selected"], "blob") << "the first Esc left the view alone";
    EXPECT_EQ(esc1["orbit"], open["orbit"]);
    EXPECT_FALSE(esc1["keyboard_to_panel"].get<bool>());
    EXPECT_TRUE(esc2["selected"].is_null()) << "the second Esc cleared the selection";

    const nlohmann::json focused = readJson(dir / "focused.json"), esc3 = readJson(dir / "esc3.json"),
                         esc4 = readJson(dir / "esc4.json");
    EXPECT_TRUE(focused["keyboard_to_panel"].get<bool>());
    EXPECT_FALSE(esc3["keyboard_to_panel"].get<bool>()) << "Esc took the keys back from the panel";
    EXPECT_EQ(esc3["selected"], "blob") << "and did nothing else";
    EXPECT_TRUE(esc4["selected"].is_null());
}

// An open menu is the first thing Esc closes, wherever the pointer is: the File menu opened with a
// click closes, and the selection in the view stays.
TEST(ViewerInput, EscapeClosesAnOpenMenuFirst) {
    FocusLayout layout;
    ASSERT_TRUE(focusLayout(layout)) << "no free point in the 3D view or no right region";
    const fs::path dir = workDir("focus_menu");
    const std::string d = dir.string() + "/";
    ASSERT_EQ(runScript(dir, "demo",
                        "pause\nselect blob\nwait 2\nscreenshot " + d + "base.png\n" +
                            "drag 18 10 18 10 left 1\nwait 1\nscreenshot " + d + "open.png\nhover " +
                            xy(layout.free) + "\npress escape\nwait 1\ndump " + d + "esc.json\nscreenshot " +
                            d + "closed.png\nquit\n"),
              esv::kExitOk);
    esv::test::Image base, open, closed;
    ASSERT_TRUE(esv::test::loadPng((dir / "base.png").string(), base));
    ASSERT_TRUE(esv::test::loadPng((dir / "open.png").string(), open));
    ASSERT_TRUE(esv::test::loadPng((dir / "closed.png").string(), closed));
    // Where the File menu drops down, over the scene tree.
    auto box = [](const esv::test::Image& image) { return esv::test::crop(image, 4, 40, 150, 150); };
    EXPECT_GT(esv::test::compareImages(box(open), box(base), 12).differingFraction, 0.2) << "the menu opened";
    EXPECT_LT(esv::test::compareImages(box(closed), box(base), 12).differingFraction, 0.01)
        << "Esc closed it";
    EXPECT_EQ(readJson(dir / "esc.json")["selected"], "blob") << "the view did not get the Esc";
}

// Without a pointer (keyboard-only use) a panel that appears does not take the keys: Ctrl+O opens the
// browser in a region that was empty, H hides and shows the panels, and the view's keys still work.
TEST(ViewerInput, KeyboardOnlyKeysStayOnTheViewWhenPanelsAppear) {
    const fs::path dir = workDir("focus_keyboard_only");
    const std::string d = dir.string() + "/";
    ASSERT_EQ(runScript(dir, "demo",
                        "pause\npanel tree off\nwait 2\npress ctrl+o\nwait 2\npress k\nwait 1\ndump " + d +
                            "browser.json\npress h\nwait 2\npress h\nwait 2\npress w\nwait 1\ndump " + d +
                            "shown.json\nquit\n"),
              esv::kExitOk);
    const nlohmann::json browser = readJson(dir / "browser.json"), shown = readJson(dir / "shown.json");
    EXPECT_TRUE(browser["pointer"].is_null());
    EXPECT_TRUE(browser["panels"]["browser"].get<bool>());
    EXPECT_FALSE(browser["keyboard_to_panel"].get<bool>());
    EXPECT_TRUE(browser["skeleton"].get<bool>()) << "K reached the view after Ctrl+O";
    EXPECT_FALSE(shown["keyboard_to_panel"].get<bool>());
    EXPECT_TRUE(shown["wireframe_overlay"].get<bool>()) << "W reached the view after the panels came back";
}

// A text field being edited keeps the keys with the pointer over the 3D view: the typed speed is
// entered, and a digit key does not switch the view mode.
TEST(ViewerInput, ATextFieldKeepsTheKeysWithThePointerOverTheView) {
    FocusLayout layout;
    ASSERT_TRUE(focusLayout(layout)) << "no free point in the 3D view or no right region";
    const fs::path dir = workDir("focus_text");
    const std::string d = dir.string() + "/";
    ASSERT_EQ(
        runScript(dir, "demo",
                  "pause\nwait 2\npress f6\nwait 1\npress down\npress space\nwait 1\npress tab\nwait 1\n"
                  "hover " +
                      xy(layout.free) + "\nwait 1\ndump " + d +
                      "editing.json\npress 2\ntype 0.5\npress enter\nwait 1\ndump " + d +
                      "typed.json\nquit\n"),
        esv::kExitOk);
    const nlohmann::json editing = readJson(dir / "editing.json"), typed = readJson(dir / "typed.json");
    EXPECT_TRUE(editing["text_input"].get<bool>());
    EXPECT_TRUE(editing["keyboard_to_panel"].get<bool>()) << "the field keeps the keys";
    EXPECT_FALSE(editing["pointer"]["over_panel"].get<bool>()) << "the pointer is over the view";
    EXPECT_EQ(typed["mode"], "shaded") << "the digit did not reach the view";
    EXPECT_FLOAT_EQ(typed["speed"].get<float>(), 0.5f) << "the typed speed was entered";
    EXPECT_FALSE(typed["text_input"].get<bool>());
}

// Where the keys go is shown: a line in the navigation blue along the 3D view's border while the view
// has them, none there (and one along the focused region's border) once a clicked panel has them.
TEST(ViewerInput, TheFocusFrameShowsWhereTheKeysGo) {
    FocusLayout layout;
    ASSERT_TRUE(focusLayout(layout)) << "no free point in the 3D view or no right region";
    const fs::path dir = workDir("focus_frame");
    const std::string d = dir.string() + "/";
    const std::string click = "drag " + xy(layout.panel) + " " + xy(layout.panel) + " left 1\n";
    ASSERT_EQ(runScript(dir, "demo",
                        "pause\nwait 2\ndump " + d + "view.json\nscreenshot " + d + "view.png\n" + click +
                            "wait 2\ndump " + d + "panel.json\nscreenshot " + d + "panel.png\nquit\n"),
              esv::kExitOk);
    ASSERT_FALSE(readJson(dir / "view.json")["keyboard_to_panel"].get<bool>());
    ASSERT_TRUE(readJson(dir / "panel.json")["keyboard_to_panel"].get<bool>());
    esv::test::Image view, panel;
    ASSERT_TRUE(esv::test::loadPng((dir / "view.png").string(), view));
    ASSERT_TRUE(esv::test::loadPng((dir / "panel.png").string(), panel));
    const esv::LayoutRect& r = layout.view;
    const int x0 = int(r.x), y0 = int(r.y);
    const int midY0 = y0 + int(r.h / 4), midY1 = y0 + int(3 * r.h / 4);
    const int midX0 = x0 + int(r.w / 4), midX1 = x0 + int(3 * r.w / 4);
    // The left and top edges of the view, 2 pixels in.
    EXPECT_GT(focusBlueFraction(view, x0, midY0, x0 + 2, midY1), 0.95);
    EXPECT_GT(focusBlueFraction(view, midX0, y0, midX1, y0 + 2), 0.95);
    EXPECT_LT(focusBlueFraction(view, x0 + 4, midY0, x0 + 6, midY1), 0.05) << "the line is 2 pixels wide";
    EXPECT_LT(focusBlueFraction(panel, x0, midY0, x0 + 2, midY1), 0.05);
    EXPECT_LT(focusBlueFraction(panel, midX0, y0, midX1, y0 + 2), 0.05);
    // The right region's left border (the panel that has the keys), 2 pixels in.
    const int px = int(layout.panel.x) - 3;
    EXPECT_GT(focusBlueFraction(panel, px, midY0, px + 2, midY1), 0.95);
    EXPECT_LT(focusBlueFraction(view, px, midY0, px + 2, midY1), 0.05);
}

}  // namespace

namespace {

// The panels start readable: a TrueType font at 15 px (the built-in 13 px one only without the font
// package, with a note), the stats overlay closed; `set ui-scale` rebuilds the font at the new size.
TEST(ViewerInput, PanelsFontAndUiScale) {
    const fs::path dir = workDir("ui_scale");
    const std::string d = dir.string() + "/";
    EXPECT_EQ(runScript(dir, "demo",
                        "wait 1\ndump " + d + "start.json\nset ui-scale 1.5\nwait 1\ndump " + d +
                            "scaled.json\nscreenshot " + d + "scaled.png\nset touch-ui on\nwait 1\ndump " +
                            d + "touch.json\nset touch-ui auto\nwait 1\ndump " + d + "auto.json\nquit\n"),
              esv::kExitOk);
    const nlohmann::json start = readJson(dir / "start.json"), scaled = readJson(dir / "scaled.json");
    EXPECT_EQ(start["panels"]["stats"], false);
    EXPECT_EQ(start["ui_scale"], 1.0);
    const bool installed = fs::exists(esv::uiFontCandidates().front());
    if (installed) {
        EXPECT_EQ(start["font"]["path"], esv::uiFontCandidates().front());
        EXPECT_EQ(start["font"]["pixels"], 15.0);
        EXPECT_EQ(start["font"]["note"], "");
        EXPECT_EQ(scaled["font"]["pixels"], 23.0);  // 15 x 1.5, rounded
    } else {
        ESVIEW_SKIP_UNLESS_REQUIRED() << "fonts-dejavu-core is not installed";
    }
    EXPECT_EQ(scaled["ui_scale"], 1.5);
    EXPECT_EQ(scaled["font"]["scale"], 1.5);
    // Touch-sized panels: off in auto on a screen without touch, on when set.
    const nlohmann::json touch = readJson(dir / "touch.json"), autoTouch = readJson(dir / "auto.json");
    EXPECT_EQ(start["touch_ui"]["mode"], "auto");
    EXPECT_EQ(start["touch_ui"]["active"], false);
    EXPECT_EQ(touch["touch_ui"]["mode"], "on");
    EXPECT_EQ(touch["touch_ui"]["active"], true);
    EXPECT_EQ(autoTouch["touch_ui"]["active"], false);
    testing::internal::CaptureStderr();
    EXPECT_EQ(runScript(dir, "demo", "set touch-ui sometimes\nquit\n"), esv::kExitBadInput);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("set: touch-ui: expected auto, on or off"), std::string::npos) << err;
}

}  // namespace
