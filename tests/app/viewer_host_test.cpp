// The viewer core over the headless host (an EGL pbuffer, no window system, no GLFW): events the
// test queues drive the same input handling as a window's (orbit drag, wheel zoom, ctrl+wheel
// field of view, shortcut keys, dropped folders and files, Escape and close), and frames are drawn
// and saved as screenshots with ES3 and ES2 contexts.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
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

// A point of the 1280x720 window that no panel covers (between the main panel and the inspector,
// below the stats overlay).
constexpr double kFreeX = 640.0, kFreeY = 600.0;

fs::path workDir(const std::string& name) { return esv::test::viewerWorkDir("viewer_host_", name); }

using esv::test::frameUntilLoaded;

// Queues `event` and runs the frame that receives it.
bool send(esv::HeadlessHost& host, esv::ViewerLoop& viewer, esv::Event event) {
    host.push(std::move(event));
    return viewer.frame();
}

TEST(ViewerHost, EventsDriveTheViewportLikeAWindow) {
    workDir("input");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;  // "demo", 1280x720, ES3
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    ASSERT_EQ(s.framebufferWidth, 1280);
    ASSERT_EQ(s.framebufferHeight, 720);
    s.transport.playing = false;

    // Left drag by 100 pixels to the right: 0.01 radian of yaw per pixel, the orbit camera in use.
    const float yaw = s.view.orbit.yaw, pitch = s.view.orbit.pitch;
    s.view.camera = 0;
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseMove(kFreeX - 50.0, kFreeY)));
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseButton(esv::MouseButton::Left, true)));
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseMove(kFreeX + 50.0, kFreeY)));
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseButton(esv::MouseButton::Left, false)));
    EXPECT_NEAR(s.view.orbit.yaw, yaw - 1.0f, 1e-5f);
    EXPECT_NEAR(s.view.orbit.pitch, pitch, 1e-6f);
    EXPECT_EQ(s.view.camera, -1);
    EXPECT_EQ(s.selection.node, -1);  // a drag, not a click: nothing picked

    // Wheel: one step away zooms in by 0.88; with ctrl held it narrows the field of view instead.
    const float distance = s.view.orbit.distance, yfov = s.view.orbit.yfov;
    ASSERT_TRUE(send(host, viewer, esv::Event::wheel(0.0, 1.0)));
    EXPECT_NEAR(s.view.orbit.distance, distance * 0.88f, 1e-4f);
    host.push(esv::Event::keyEvent(esv::Key::LeftControl, true, esv::kModControl));
    ASSERT_TRUE(send(host, viewer, esv::Event::wheel(0.0, 1.0)));
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::LeftControl, false)));
    EXPECT_NEAR(s.view.orbit.yfov, yfov * 0.95f, 1e-5f);
    EXPECT_NEAR(s.view.orbit.distance, distance * 0.88f, 1e-4f);

    // Shortcut keys act once per press: W the wireframe overlay, 2 the second view mode.
    const bool wireframe = s.view.wireframeOverlay;
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::W, true)));
    ASSERT_TRUE(viewer.frame());  // held: no second toggle
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::W, false)));
    EXPECT_EQ(s.view.wireframeOverlay, !wireframe);
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::Num2, true)));
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::Num2, false)));
    EXPECT_EQ(s.view.mode, esv::ViewMode::Wireframe);

    // Escape never quits: with something selected it clears the selection, with nothing selected it
    // does nothing, however often. Ctrl+Q quits.
    s.selection.node = 0;
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::Escape, true)));
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::Escape, false)));
    EXPECT_EQ(s.selection.node, -1);
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::Escape, true)));
        ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::Escape, false)));
    }
    ASSERT_TRUE(send(host, viewer, esv::Event::keyEvent(esv::Key::LeftControl, true)));
    ASSERT_FALSE(send(host, viewer, esv::Event::keyEvent(esv::Key::Q, true)));
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

TEST(ViewerHost, DroppedFoldersBrowseAndDroppedModelsOpen) {
    const fs::path dir = workDir("drop");
    const fs::path model = dir / "dropped.pod";
    fs::copy_file(esv::test::sourceDir() / "assets" / "demo.pod", model);
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    ASSERT_EQ(viewer.start(host, esv::ViewerOptions{}), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    s.panel(esv::PanelId::Browser) = false;

    ASSERT_TRUE(send(host, viewer, esv::Event::drop({dir.string()})));
    EXPECT_TRUE(s.panel(esv::PanelId::Browser));
    ASSERT_TRUE(send(host, viewer, esv::Event::drop({(dir / "notes.txt").string()})));
    EXPECT_EQ(s.status, "notes.txt: not a model file esview opens (.pod, .ogex, .oddl, .awd, .pof, .glb, .gltf, .vp)");
    ASSERT_TRUE(
        send(host, viewer, esv::Event::drop({(dir / "notes.txt").string(), (dir / "skin.png").string()})));
    EXPECT_EQ(s.status,
              "notes.txt (and 1 more): not a model file esview opens (.pod, .ogex, .oddl, .awd, .pof, .glb, .gltf, .vp)");
    // A model dropped with its textures (a browser drop of a model's files): the model opens,
    // wherever it is in the list.
    ASSERT_TRUE(send(host, viewer, esv::Event::drop({(dir / "skin.png").string(), model.string()})));
    ASSERT_TRUE(frameUntilLoaded(viewer));
    EXPECT_EQ(s.path, model.string());
    EXPECT_EQ(s.scene->format, "pod");
    EXPECT_EQ(s.status, "opened " + model.string());
    // How long it took, by stage, in the stats overlay and the state dump.
    EXPECT_GT(s.loadTimes.readMs, 0.0);
    EXPECT_GE(s.loadTimes.texturesMs, 0.0);
    EXPECT_GT(s.loadTimes.prepareMs, 0.0);
    EXPECT_GT(s.loadTimes.uploadMs, 0.0);
    const nlohmann::json state = nlohmann::json::parse(esv::viewerStateJson(s));
    EXPECT_DOUBLE_EQ(state["load_ms"]["total"].get<double>(), s.loadTimes.totalMs());
    EXPECT_DOUBLE_EQ(state["load_ms"]["upload"].get<double>(), s.loadTimes.uploadMs);
    // Several models: the first opens.
    const fs::path second = dir / "second.pod";
    fs::copy_file(model, second);
    ASSERT_TRUE(send(host, viewer, esv::Event::drop({second.string(), model.string()})));
    EXPECT_EQ(s.status, "2 models dropped: opening the first, " + second.string());
    ASSERT_TRUE(frameUntilLoaded(viewer));
    EXPECT_EQ(s.path, second.string());

    // The window's close button ends the loop after that frame.
    ASSERT_FALSE(send(host, viewer, esv::Event::close()));
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

// A drop that opens nothing says so in one line, in the load error box over the 3D view and the
// status bar: a picture, a text file (the extensions it would take are the format table's and the VP
// archives'), a folder with no model in it (it still opens in the browser). The previous scene stays.
TEST(ViewerHost, DropsThatOpenNothingSayWhyInOneLine) {
    const fs::path dir = workDir("drop_nothing");
    std::ofstream(dir / "photo.jpg") << "\xFF\xD8\xFF";
    std::ofstream(dir / "notes.txt") << "not a model";
    fs::create_directories(dir / "empty");
    std::ofstream(dir / "empty" / "readme.md") << "no model here";
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    ASSERT_EQ(viewer.start(host, esv::ViewerOptions{}), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    const std::string extensions = " (.pod, .ogex, .oddl, .awd, .pof, .glb, .gltf, .vp)";
    const std::pair<fs::path, std::string> drops[] = {
        {dir / "photo.jpg", "photo.jpg: not a model file esview opens" + extensions},
        {dir / "notes.txt", "notes.txt: not a model file esview opens" + extensions},
        {dir / "empty", "empty: no model file esview opens in this folder" + extensions}};
    for (const auto& [path, message] : drops) {
        SCOPED_TRACE(path.string());
        s.load.error.clear();
        ASSERT_TRUE(send(host, viewer, esv::Event::drop({path.string()})));
        ASSERT_TRUE(viewer.frame());
        const nlohmann::json state = nlohmann::json::parse(esv::viewerStateJson(s));
        EXPECT_EQ(state["load_error"], message);
        EXPECT_EQ(state["status"], message);
        EXPECT_EQ(message.find('\n'), std::string::npos);
        EXPECT_EQ(state["path"], "demo") << "the previous scene stays";
        // The box is drawn, inside the 3D view.
        const auto box = state["load_error_rect"], view = state["viewport"];
        EXPECT_GT(box[2].get<float>(), 0.0f);
        EXPECT_GE(box[0].get<float>(), view[0].get<float>());
        EXPECT_LE(box[0].get<float>() + box[2].get<float>(), view[0].get<float>() + view[2].get<float>());
    }
    EXPECT_TRUE(s.panel(esv::PanelId::Browser)) << "the folder still opens in the browser";
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

// A long load error wraps to the 3D view's width: the box and every line of the message stay inside
// the view, in a window whose 3D view is narrower than three quarters of it.
TEST(ViewerHost, LongLoadErrorsWrapInsideTheView) {
    workDir("long_error");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;
    options.width = 1000;
    options.height = 600;
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    std::string message = "/a/folder/with/a/long/name/model.pod: offset 0x1A4: mesh 2 / normal list:";
    for (int i = 0; i < 12; ++i)
        message += " the stride is smaller than three floats and the list ends early";
    s.load.error = message;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    const nlohmann::json state = nlohmann::json::parse(esv::viewerStateJson(s));
    const auto box = state["load_error_rect"], view = state["viewport"];
    const float viewLeft = view[0].get<float>(), viewRight = viewLeft + view[2].get<float>();
    ASSERT_LT(view[2].get<float>(), 0.75f * 1000.0f) << "a 3D view narrower than the old wrap width";
    EXPECT_GT(box[2].get<float>(), 0.5f * view[2].get<float>()) << "a long message fills the width";
    EXPECT_GE(box[0].get<float>(), viewLeft);
    EXPECT_LE(box[0].get<float>() + box[2].get<float>(), viewRight);
    EXPECT_GE(box[1].get<float>(), view[1].get<float>());
    EXPECT_LE(box[1].get<float>() + box[3].get<float>(), view[1].get<float>() + view[3].get<float>());
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

bool sameOrbit(const esv::OrbitCamera& a, const esv::OrbitCamera& b) {
    return a.target == b.target && a.yaw == b.yaw && a.pitch == b.pitch && a.distance == b.distance &&
           a.yfov == b.yfov;
}

// Another clip (the script's `clip`, as the panel's combo) frames the view on it while the orbit
// camera is where the last framing put it, and leaves a camera the user moved where it is.
// PolarBear.awd has three clips (Breathe, Run, Walk) whose framing boxes differ.
TEST(ViewerHost, AnotherClipIsFramedWhileTheCameraIsUntouched) {
    ESVIEW_REQUIRE_MODELS("awd");
    workDir("clip_framing");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;
    options.file = (esv::test::modelsDir() / "awd" / "PolarBear.awd").string();
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    esv::ViewerState& s = viewer.state();
    const esv::Scene& scene = *s.scene;
    ASSERT_GE(scene.animation.clips.size(), 3u);
    ASSERT_TRUE(s.framed);
    ASSERT_TRUE(sameOrbit(s.view.orbit, s.framedOrbit)) << "the first view, untouched";

    // The clip whose framing box differs most from the one shown.
    auto framing = [&](int clip) {
        esv::Bounds bounds;
        std::vector<glm::vec3> points;
        esv::sceneFraming(scene, clip, s.pof, bounds, points);
        return bounds;
    };
    auto runScript = [&](const std::string& text) {
        std::string error;
        ASSERT_TRUE(viewer.runScript(text, error)) << error;
        for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    };
    const int shown = s.transport.clip;
    int other = -1;
    float most = 0.0f;
    for (int c = 0; c < int(scene.animation.clips.size()); ++c) {
        const esv::Bounds b = framing(c);
        const float d = glm::length(b.max - s.bounds.max) + glm::length(b.min - s.bounds.min);
        if (c != shown && d > most) {
            most = d;
            other = c;
        }
    }
    ASSERT_GE(other, 0);
    ASSERT_GT(most, 0.01f * glm::length(s.bounds.max - s.bounds.min)) << "clips with different boxes";

    const esv::OrbitCamera first = s.view.orbit;
    runScript("clip " + scene.animation.clips[size_t(other)].name + "\n");
    ASSERT_EQ(s.transport.clip, other);
    EXPECT_EQ(s.bounds.min, framing(other).min) << "the framing box is the new clip's";
    EXPECT_EQ(s.bounds.max, framing(other).max);
    EXPECT_FALSE(sameOrbit(s.view.orbit, first)) << "framed again for the new clip";
    EXPECT_TRUE(sameOrbit(s.view.orbit, s.framedOrbit));
    EXPECT_EQ(s.view.orbit.yaw, first.yaw) << "framing keeps the camera's angles";
    EXPECT_EQ(s.view.orbit.pitch, first.pitch);

    // A drag turns the camera: the next clip leaves it where the user put it.
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseMove(kFreeX - 40.0, kFreeY)));
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseButton(esv::MouseButton::Left, true)));
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseMove(kFreeX + 40.0, kFreeY)));
    ASSERT_TRUE(send(host, viewer, esv::Event::mouseButton(esv::MouseButton::Left, false)));
    const esv::OrbitCamera moved = s.view.orbit;
    ASSERT_NE(moved.yaw, first.yaw);
    runScript("clip " + scene.animation.clips[size_t(shown)].name + "\n");
    ASSERT_EQ(s.transport.clip, shown);
    EXPECT_TRUE(sameOrbit(s.view.orbit, moved)) << "a camera the user moved stays";
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

TEST(ViewerHost, FramesAreDrawnAndSavedWithEs3AndEs2) {
    const fs::path dir = workDir("screenshot");
    for (bool gles2 : {false, true}) {
        esv::HeadlessHost host;
        esv::ViewerLoop viewer;
        esv::ViewerOptions options;
        options.gles2 = gles2;
        options.width = 640;
        options.height = 480;
        ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
        ASSERT_TRUE(frameUntilLoaded(viewer));
        EXPECT_EQ(viewer.state().rendererInfo.es3, !gles2);
        const fs::path png = dir / (gles2 ? "es2.png" : "es3.png");
        viewer.state().requestScreenshot = png.string();
        ASSERT_TRUE(viewer.frame());
        EXPECT_EQ(viewer.state().status, "saved " + png.string());

        esv::test::Image image;
        ASSERT_TRUE(esv::test::loadPng(png.string(), image)) << png;
        EXPECT_EQ(image.width, 640);
        EXPECT_EQ(image.height, 480);
        // The scene and the panels cover part of the picture: many pixels differ from the background.
        const esv::test::Rgb background = esv::test::cornerBackground(image);
        size_t covered = 0;
        for (size_t i = 0; i + 3 < image.rgba.size(); i += 4)
            if (image.rgba[i] != background[0] || image.rgba[i + 1] != background[1] ||
                image.rgba[i + 2] != background[2])
                ++covered;
        EXPECT_GT(covered, image.rgba.size() / 4 / 20) << png;
        EXPECT_EQ(viewer.finish(), esv::kExitOk);
    }
}

}  // namespace
